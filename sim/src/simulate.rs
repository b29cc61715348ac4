//! The seeded simulator: random walks over the enabled actions, one PRNG per seed.
//!
//! A walk starts from the scenario's world and applies, until nothing is enabled or the step
//! bound is reached, an action drawn from [`Model::enabled`] by a PCG generator (`Pcg64Mcg`)
//! seeded with the walk's seed. Each walk is single-threaded and depends only on its seed, so a
//! seed replays its walk exactly; many seeds run on every core at once (feature `parallel`), and
//! the summary does not depend on which thread ran which seed.
//!
//! A uniform draw spends a fault budget at once: faults are a large share of the enabled actions
//! early on, so a walk crashes its nodes in its first steps and then runs fault-free. So each
//! seed first draws its own [`Mix`] (swarm testing: Groce, Zhang, Eide, Chen and Regehr, "Swarm
//! Testing", ISSTA 2012): a per-step chance of a fault, a set of fault kinds it leaves out, and
//! a chance of holding a new message back for a while and releasing it late.
//!
//! Safety is checked after every step; a checker that gives up ends the walk with an error.
//! Liveness is counted apart: how many walks ended with a decision.

use crate::Error;
use crate::check::{GaveUp, Violation};
use crate::faults::Fault;
use crate::model::Model;
use rand_pcg::Pcg64Mcg;
use rand_pcg::rand_core::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::ops::Range;

/// How many walks, from which seed, and how long each may be.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Sweep {
    /// The seeds to run, one walk each.
    pub seeds: Range<u64>,
    /// The most actions one walk may apply. Budgets end Act I walks long before it.
    pub max_steps: u32,
}

/// One walk: the actions it applied and how it ended.
#[derive(Clone, Debug)]
pub struct Walk<A> {
    /// The seed that drew it.
    pub seed: u64,
    /// The actions applied, in order; a violating walk ends with the action that broke safety.
    pub actions: Vec<A>,
    /// The properties broken at the end of the walk, if any.
    pub violations: Vec<Violation>,
    /// Whether the walk ended with a decision.
    pub decided: bool,
    /// How many actions the walk took to first reach a decision, if it did.
    pub decided_after: Option<u32>,
    /// Faults injected, by kind.
    pub faults: BTreeMap<&'static str, u64>,
    /// Liveness once faults stop, for worlds that have a fair schedule: whether it reached a
    /// decision, and in how many actions after the walk.
    pub settled: Option<(bool, u32)>,
    /// A fair schedule that did not settle: the walk's actions then the schedule's, replayable,
    /// and the state it was stuck in. A liveness counterexample.
    pub unsettled: Option<(Vec<A>, String)>,
}

/// One walk's way of drawing actions, itself drawn from the walk's seed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Mix {
    /// The chance, per thousand, that a step injects a fault when one is enabled.
    pub fault_per_mille: u64,
    /// The chance, per thousand, that a fault kind is left out of this walk, decided for each
    /// kind the first time it is enabled.
    pub kind_off_per_mille: u64,
    /// The chance, per thousand, that a newly sent message is held back.
    pub hold_per_mille: u64,
    /// The most steps a held message waits before it may be delivered again.
    pub hold_steps_max: u64,
}

impl Mix {
    /// The mix of the walk whose generator is `rng`.
    fn draw(rng: &mut Pcg64Mcg) -> Mix {
        const FAULT: [u64; 5] = [5, 20, 60, 200, 500];
        const KIND_OFF: [u64; 3] = [0, 250, 500];
        const HOLD: [u64; 4] = [0, 0, 50, 250];
        const HOLD_STEPS: [u64; 3] = [20, 100, 400];
        Mix {
            fault_per_mille: FAULT[pick(rng, FAULT.len())],
            kind_off_per_mille: KIND_OFF[pick(rng, KIND_OFF.len())],
            hold_per_mille: HOLD[pick(rng, HOLD.len())],
            hold_steps_max: HOLD_STEPS[pick(rng, HOLD_STEPS.len())],
        }
    }
}

/// The drawing state of one walk: its mix, the fault kinds it left out, and the messages it
/// holds back (by [`Model::message_of`]) with the step each may go at.
struct Drawer {
    rng: Pcg64Mcg,
    mix: Mix,
    kinds: BTreeMap<Fault, bool>,
    held_until: BTreeMap<u64, u64>,
}

impl Drawer {
    fn new(seed: u64) -> Drawer {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mix = Mix::draw(&mut rng);
        Drawer {
            rng,
            mix,
            kinds: BTreeMap::new(),
            held_until: BTreeMap::new(),
        }
    }

    fn chance(&mut self, per_mille: u64) -> bool {
        (pick(&mut self.rng, 1000) as u64) < per_mille
    }

    /// Whether this walk uses faults of `kind`: decided once, the first time it is asked.
    fn uses(&mut self, kind: Fault) -> bool {
        if let Some(on) = self.kinds.get(&kind) {
            return *on;
        }
        let on = !self.chance(self.mix.kind_off_per_mille);
        self.kinds.insert(kind, on);
        on
    }

    /// Whether the message is held back at `step`; a message is judged the first time it can
    /// be delivered.
    fn holds(&mut self, message: u64, step: u64) -> bool {
        if let Some(until) = self.held_until.get(&message) {
            return *until > step;
        }
        let until = if self.chance(self.mix.hold_per_mille) {
            step + 1 + pick(&mut self.rng, self.mix.hold_steps_max as usize) as u64
        } else {
            0
        };
        self.held_until.insert(message, until);
        until > step
    }

    /// The next action: a fault with the mix's chance, else an ordinary step that is not a
    /// held message; held messages go when nothing else can. `None` when only faults this walk
    /// leaves out are enabled.
    fn next<M: Model>(
        &mut self,
        world: &M,
        enabled: Vec<M::Action>,
        step: u64,
    ) -> Option<M::Action> {
        let mut faults = Vec::new();
        let mut ordinary = Vec::new();
        let mut held = Vec::new();
        for action in enabled {
            match world.fault_kind(&action) {
                Some(kind) => {
                    if self.uses(kind) {
                        faults.push(action);
                    }
                }
                None => match world.message_of(&action) {
                    Some(message) if self.holds(message, step) => held.push(action),
                    _ => ordinary.push(action),
                },
            }
        }
        let fault_now = !faults.is_empty() && self.chance(self.mix.fault_per_mille);
        let choices = if fault_now || ordinary.is_empty() && held.is_empty() {
            faults
        } else if ordinary.is_empty() {
            held
        } else {
            ordinary
        };
        if choices.is_empty() {
            return None;
        }
        let index = pick(&mut self.rng, choices.len());
        choices.into_iter().nth(index)
    }
}

/// Runs the walk of one seed.
pub fn walk<M: Model>(start: &M, seed: u64, max_steps: u32) -> Result<Walk<M::Action>, Error> {
    let mut drawer = Drawer::new(seed);
    let mut world = start.clone();
    gave_up(&world.violations(), world.gave_up())?;
    let mut walk = Walk {
        seed,
        actions: Vec::new(),
        violations: world.violations(),
        decided: world.is_decided(),
        decided_after: world.is_decided().then_some(0),
        faults: BTreeMap::new(),
        settled: None,
        unsettled: None,
    };
    while walk.violations.is_empty() && walk.actions.len() < max_steps as usize {
        let enabled = world.enabled();
        let step = walk.actions.len() as u64;
        let Some(action) = drawer.next(&world, enabled, step) else {
            break;
        };
        if let Some(kind) = world.fault_kind(&action) {
            *walk.faults.entry(kind.name()).or_default() += 1;
        }
        world.apply(&action).map_err(|refused| Error::Model {
            action: world.describe(&action),
            why: refused.to_string(),
        })?;
        walk.actions.push(action);
        walk.violations = world.violations();
        gave_up(&walk.violations, world.gave_up())?;
        if walk.decided_after.is_none() && world.is_decided() {
            walk.decided_after = Some(walk.actions.len() as u32);
        }
    }
    walk.decided = world.is_decided();
    if walk.violations.is_empty()
        && let Some(settled) = world.settle()
    {
        let settled = settled.map_err(|why| Error::Model {
            action: format!("the fair schedule after seed {seed}'s faults stopped"),
            why,
        })?;
        gave_up(&settled.violations, settled.gave_up)?;
        let fair_steps = settled.actions.len() as u32;
        walk.settled = Some((settled.decided, fair_steps));
        if !settled.violations.is_empty() {
            // A violation found while settling is a violation like any other, and replays.
            walk.violations = settled.violations;
            walk.actions.extend(settled.actions);
        } else if let Some(stuck) = settled.stuck {
            let mut actions = walk.actions.clone();
            actions.extend(settled.actions);
            walk.unsettled = Some((actions, stuck));
        }
    }
    Ok(walk)
}

/// A checker that gave up ends the walk with an error, unless a property is broken: a
/// violation found is a verdict whatever else could not be decided.
fn gave_up(violations: &[Violation], gave_up: Option<GaveUp>) -> Result<(), Error> {
    match gave_up {
        Some(gave_up) if violations.is_empty() => Err(Error::CheckGaveUp(gave_up)),
        _ => Ok(()),
    }
}

/// An index below `count`, uniform: Lemire's multiply-shift with rejection, so no index is
/// favoured however `count` divides 2^64.
pub(crate) fn pick(rng: &mut Pcg64Mcg, count: usize) -> usize {
    if count <= 1 {
        return 0;
    }
    let count = count as u64;
    let threshold = count.wrapping_neg() % count;
    loop {
        let product = u128::from(rng.next_u64()) * u128::from(count);
        if (product as u64) >= threshold {
            return (product >> 64) as usize;
        }
    }
}

/// What a sweep of many walks found.
#[derive(Clone, Debug)]
pub struct Summary<A> {
    /// Walks run.
    pub runs: u64,
    /// Actions applied over all walks.
    pub steps: u64,
    /// The longest walk, in actions.
    pub longest_walk: u64,
    /// Walks that ended with a decision.
    pub decided: u64,
    /// Over the walks that reached a decision, the actions each took to reach it, summed.
    pub decision_steps_total: u64,
    /// The most actions any walk took to reach a decision.
    pub decision_steps_max: u64,
    /// Walks that broke a property.
    pub violating: u64,
    /// Walks stopped by the step bound before they ended on their own.
    pub step_bound_hits: u64,
    /// Walks after which a fair, fault-free schedule was run.
    pub settle_runs: u64,
    /// Of those, the walks whose fair schedule reached a decision.
    pub settle_decided: u64,
    /// The most actions a fair schedule took to reach a decision.
    pub settle_steps_max: u64,
    /// Faults injected over all walks, by kind.
    pub faults: BTreeMap<String, u64>,
    /// The violating walk of the lowest seed, if any.
    pub first_violation: Option<Walk<A>>,
    /// The walk of the lowest seed whose fair schedule did not settle, if any.
    pub first_unsettled: Option<Walk<A>>,
    /// The lowest seed whose walk ended in an error, and the error: reported only when no
    /// seed found a violation, so one seed's error never hides another's violation.
    pub first_error: Option<(u64, Error)>,
}

impl<A> Default for Summary<A> {
    fn default() -> Summary<A> {
        Summary {
            runs: 0,
            steps: 0,
            longest_walk: 0,
            decided: 0,
            decision_steps_total: 0,
            decision_steps_max: 0,
            violating: 0,
            step_bound_hits: 0,
            settle_runs: 0,
            settle_decided: 0,
            settle_steps_max: 0,
            faults: BTreeMap::new(),
            first_violation: None,
            first_unsettled: None,
            first_error: None,
        }
    }
}

impl<A: Clone> Summary<A> {
    pub(crate) fn of_walk(walk: Walk<A>, max_steps: u32) -> Summary<A> {
        let steps = walk.actions.len() as u64;
        let violating = !walk.violations.is_empty();
        Summary {
            runs: 1,
            steps,
            longest_walk: steps,
            decided: u64::from(walk.decided),
            decision_steps_total: walk.decided_after.map_or(0, u64::from),
            decision_steps_max: walk.decided_after.map_or(0, u64::from),
            violating: u64::from(violating),
            step_bound_hits: u64::from(!violating && steps == u64::from(max_steps)),
            settle_runs: u64::from(walk.settled.is_some()),
            settle_decided: u64::from(walk.settled.is_some_and(|(decided, _)| decided)),
            settle_steps_max: walk
                .settled
                .filter(|(decided, _)| *decided)
                .map_or(0, |(_, steps)| u64::from(steps)),
            faults: walk
                .faults
                .iter()
                .map(|(kind, count)| (kind.to_string(), *count))
                .collect(),
            first_unsettled: (!violating && walk.unsettled.is_some()).then(|| walk.clone()),
            first_violation: violating.then_some(walk),
            first_error: None,
        }
    }

    pub(crate) fn of_error(seed: u64, error: &Error) -> Summary<A> {
        Summary {
            runs: 1,
            first_error: Some((seed, error.clone())),
            ..Summary::default()
        }
    }

    /// Combines two summaries of disjoint seeds; the result does not depend on the order.
    pub fn merge(mut self, other: Summary<A>) -> Summary<A> {
        self.runs += other.runs;
        self.steps += other.steps;
        self.longest_walk = self.longest_walk.max(other.longest_walk);
        self.decided += other.decided;
        self.decision_steps_total += other.decision_steps_total;
        self.decision_steps_max = self.decision_steps_max.max(other.decision_steps_max);
        self.violating += other.violating;
        self.step_bound_hits += other.step_bound_hits;
        self.settle_runs += other.settle_runs;
        self.settle_decided += other.settle_decided;
        self.settle_steps_max = self.settle_steps_max.max(other.settle_steps_max);
        for (kind, count) in other.faults {
            *self.faults.entry(kind).or_default() += count;
        }
        self.first_violation = lowest_seed(self.first_violation, other.first_violation);
        self.first_unsettled = lowest_seed(self.first_unsettled, other.first_unsettled);
        self.first_error = match (self.first_error, other.first_error) {
            (Some(mine), Some(theirs)) => Some(if mine.0 <= theirs.0 { mine } else { theirs }),
            (mine, theirs) => mine.or(theirs),
        };
        self
    }
}

/// The walk of the lower seed, so merging does not depend on the order.
fn lowest_seed<A>(mine: Option<Walk<A>>, theirs: Option<Walk<A>>) -> Option<Walk<A>> {
    match (mine, theirs) {
        (Some(mine), Some(theirs)) => Some(if mine.seed <= theirs.seed {
            mine
        } else {
            theirs
        }),
        (mine, theirs) => mine.or(theirs),
    }
}

/// Runs every seed of `sweep`, on every core when the `parallel` feature is on; `progress` is
/// called with the number of walks finished since its last call.
pub fn simulate<M: Model>(
    start: &M,
    sweep: &Sweep,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Summary<M::Action>, Error> {
    let run = |seed: u64| -> Result<Summary<M::Action>, Error> {
        let summary = match walk(start, seed, sweep.max_steps) {
            Ok(walk) => Summary::of_walk(walk, sweep.max_steps),
            Err(error) => Summary::of_error(seed, &error),
        };
        progress(1);
        Ok(summary)
    };
    let empty = || Ok(Summary::default());
    let combine = |left: Result<Summary<M::Action>, Error>, right| Ok(left?.merge(right?));
    #[cfg(feature = "parallel")]
    let summary = {
        use rayon::prelude::*;
        sweep
            .seeds
            .clone()
            .into_par_iter()
            .map(run)
            .reduce(empty, combine)?
    };
    #[cfg(not(feature = "parallel"))]
    let summary = sweep.seeds.clone().map(run).fold(empty(), combine)?;
    finish(summary)
}

/// The sweep's outcome: a violation wins over any seed's error, so one seed's error never hides
/// another seed's violation; with no violation, an error is the outcome.
pub(crate) fn finish<A>(summary: Summary<A>) -> Result<Summary<A>, Error> {
    match (&summary.first_violation, &summary.first_error) {
        (None, Some((seed, error))) => Err(Error::Seed {
            seed: *seed,
            error: Box::new(error.clone()),
        }),
        _ => Ok(summary),
    }
}

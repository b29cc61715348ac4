//! The seeded simulator: random walks over the enabled actions, one PRNG per seed.
//!
//! A walk starts from the scenario's world and applies, until nothing is enabled or the step
//! bound is reached, an action drawn uniformly from [`Model::enabled`] by a PCG generator
//! (`Pcg64Mcg`) seeded with the walk's seed. Each walk is single-threaded and depends only on its
//! seed, so a seed replays its walk exactly; many seeds run on every core at once (feature
//! `parallel`), and the summary does not depend on which thread ran which seed.
//!
//! Safety is checked after every step. Liveness is counted apart: how many walks ended with a
//! decision.

use crate::Error;
use crate::check::Violation;
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
}

/// Runs the walk of one seed.
pub fn walk<M: Model>(start: &M, seed: u64, max_steps: u32) -> Result<Walk<M::Action>, Error> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut world = start.clone();
    let mut walk = Walk {
        seed,
        actions: Vec::new(),
        violations: world.violations(),
        decided: world.is_decided(),
        decided_after: world.is_decided().then_some(0),
        faults: BTreeMap::new(),
        settled: None,
    };
    while walk.violations.is_empty() && walk.actions.len() < max_steps as usize {
        let enabled = world.enabled();
        if enabled.is_empty() {
            break;
        }
        let action = enabled[pick(&mut rng, enabled.len())].clone();
        if let Some(kind) = world.fault_kind(&action) {
            *walk.faults.entry(kind).or_default() += 1;
        }
        world.apply(&action).map_err(|refused| Error::Model {
            action: world.describe(&action),
            why: refused.to_string(),
        })?;
        walk.actions.push(action);
        walk.violations = world.violations();
        if walk.decided_after.is_none() && world.is_decided() {
            walk.decided_after = Some(walk.actions.len() as u32);
        }
    }
    walk.decided = world.is_decided();
    if walk.violations.is_empty() {
        match world.settle() {
            None => {}
            Some(Ok((decided, steps))) => walk.settled = Some((decided, steps)),
            Some(Err(violations)) => {
                return Err(Error::Model {
                    action: format!("the fair schedule after seed {seed}'s faults stopped"),
                    why: violations
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("; "),
                });
            }
        }
    }
    Ok(walk)
}

/// An index below `count`, uniform: Lemire's multiply-shift with rejection, so no index is
/// favoured however `count` divides 2^64.
fn pick(rng: &mut Pcg64Mcg, count: usize) -> usize {
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
        }
    }
}

impl<A: Clone> Summary<A> {
    fn of_walk(walk: Walk<A>, max_steps: u32) -> Summary<A> {
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
            first_violation: violating.then_some(walk),
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
        self.first_violation = match (self.first_violation, other.first_violation) {
            (Some(mine), Some(theirs)) => Some(if mine.seed <= theirs.seed {
                mine
            } else {
                theirs
            }),
            (mine, theirs) => mine.or(theirs),
        };
        self
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
        let summary = Summary::of_walk(walk(start, seed, sweep.max_steps)?, sweep.max_steps);
        progress(1);
        Ok(summary)
    };
    let empty = || Ok(Summary::default());
    let combine = |left: Result<Summary<M::Action>, Error>, right| Ok(left?.merge(right?));
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        sweep
            .seeds
            .clone()
            .into_par_iter()
            .map(run)
            .reduce(empty, combine)
    }
    #[cfg(not(feature = "parallel"))]
    {
        sweep.seeds.clone().map(run).fold(empty(), combine)
    }
}

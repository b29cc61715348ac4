//! One swarm walk: the world a seed drew, walked with the action weights the same seed drew.
//!
//! Every enabled action falls in a class: a fault by its kind (`drop`, `crash`, `corrupt
//! record`, ...), anything else by the first word it prints (`deliver`, `tick`, `trim`, `hand`,
//! `request`, ...). Each class gets a weight the first time it is enabled, drawn from the
//! seed; a fault class may weigh nothing, so the walk never injects it, and an operator's class
//! (`trim`, `hand`) likewise. A step first decides, with the seed's fault chance, whether to
//! inject a fault, then picks a class by weight and an action of it uniformly. Messages may be
//! held back for a while and released late, as in [`crate::simulate`].

use crate::Error;
use crate::check::Violation;
use crate::model::Model;
use crate::simulate::pick;
use rand_pcg::Pcg64Mcg;
use std::collections::BTreeMap;

/// The weights a fault class may draw: a third of the seeds never see a given fault.
const FAULT_WEIGHTS: [u32; 6] = [0, 0, 1, 4, 16, 64];
/// The weights an operator's class may draw (trims and handoffs): some seeds never use one.
const OPERATOR_WEIGHTS: [u32; 5] = [0, 1, 4, 16, 64];
/// The weights any other class may draw; a delivery always weighs [`DELIVER_WEIGHT`].
const STEP_WEIGHTS: [u32; 4] = [2, 8, 32, 64];
const DELIVER_WEIGHT: u32 = 100;
/// The classes an operator chooses to use, or not, in a run.
const OPERATOR_CLASSES: [&str; 2] = ["trim", "hand"];
/// The bytes of a frame's start that bit flips are drawn toward: its length, checksums and
/// label.
const HEADER_BYTES: u64 = 40;
const HEADER_BITS: u64 = 8 * HEADER_BYTES;
/// A step's chance, per thousand, of injecting a fault when one is enabled.
const FAULT_PER_MILLE: [u64; 5] = [10, 30, 100, 250, 500];
/// A new message's chance, per thousand, of being held back.
const HOLD_PER_MILLE: [u64; 4] = [0, 0, 60, 250];
/// The most steps a held message waits.
const HOLD_STEPS: [u64; 3] = [10, 60, 300];

/// How a seed walks: the weights of the classes it has met, and its fault and hold chances.
#[derive(Clone, Debug)]
pub struct Weights {
    fault_per_mille: u64,
    hold_per_mille: u64,
    hold_steps_max: u64,
    classes: BTreeMap<String, u32>,
}

impl Weights {
    /// Draws the chances; class weights are drawn as the walk meets each class.
    pub fn draw(rng: &mut Pcg64Mcg) -> Weights {
        Weights {
            fault_per_mille: FAULT_PER_MILLE[pick(rng, FAULT_PER_MILLE.len())],
            hold_per_mille: HOLD_PER_MILLE[pick(rng, HOLD_PER_MILLE.len())],
            hold_steps_max: HOLD_STEPS[pick(rng, HOLD_STEPS.len())],
            classes: BTreeMap::new(),
        }
    }

    /// No weights drawn yet: what a replayed run, which draws nothing, carries.
    pub fn empty() -> Weights {
        Weights {
            fault_per_mille: 0,
            hold_per_mille: 0,
            hold_steps_max: 0,
            classes: BTreeMap::new(),
        }
    }

    /// The weights in words, for a report: `faults 100/1000, held 60/1000 up to 60 steps; crash
    /// 16, drop 0, ...`.
    pub fn describe(&self) -> String {
        let classes: Vec<String> = (self.classes.iter())
            .map(|(class, weight)| format!("{class} {weight}"))
            .collect();
        format!(
            "fault chance {}/1000 a step, messages held {}/1000 for up to {} steps; class weights: {}",
            self.fault_per_mille,
            self.hold_per_mille,
            self.hold_steps_max,
            classes.join(", ")
        )
    }

    fn weight(&mut self, rng: &mut Pcg64Mcg, class: &str, fault: bool) -> u32 {
        if let Some(weight) = self.classes.get(class) {
            return *weight;
        }
        let weight = if fault {
            FAULT_WEIGHTS[pick(rng, FAULT_WEIGHTS.len())]
        } else if class == "deliver" {
            DELIVER_WEIGHT
        } else if OPERATOR_CLASSES.contains(&class) {
            OPERATOR_WEIGHTS[pick(rng, OPERATOR_WEIGHTS.len())]
        } else {
            STEP_WEIGHTS[pick(rng, STEP_WEIGHTS.len())]
        };
        self.classes.insert(class.to_owned(), weight);
        weight
    }
}

/// One class of the enabled actions: its name, its weight and its actions.
struct Class<A> {
    weight: u32,
    actions: Vec<A>,
}

/// The drawing state of one walk.
struct Drawer {
    rng: Pcg64Mcg,
    weights: Weights,
    held_until: BTreeMap<u64, u64>,
}

impl Drawer {
    fn chance(&mut self, per_mille: u64) -> bool {
        (pick(&mut self.rng, 1000) as u64) < per_mille
    }

    fn holds(&mut self, message: u64, step: u64) -> bool {
        if let Some(until) = self.held_until.get(&message) {
            return *until > step;
        }
        let until = if self.chance(self.weights.hold_per_mille) {
            step + 1 + pick(&mut self.rng, self.weights.hold_steps_max as usize) as u64
        } else {
            0
        };
        self.held_until.insert(message, until);
        until > step
    }

    /// The next action, or `None` when only classes of weight 0 are enabled.
    fn next<M: Model>(&mut self, world: &M, step: u64) -> Option<M::Action> {
        let mut faults: BTreeMap<String, Class<M::Action>> = BTreeMap::new();
        let mut ordinary: BTreeMap<String, Class<M::Action>> = BTreeMap::new();
        let mut held = Vec::new();
        for action in world.enabled() {
            let (class, fault) = match world.fault_kind(&action) {
                Some(kind) => (kind.name().to_owned(), true),
                None => {
                    if let Some(message) = world.message_of(&action)
                        && self.holds(message, step)
                    {
                        held.push(action);
                        continue;
                    }
                    let text = action.to_string();
                    (text.split(' ').next().unwrap_or_default().to_owned(), false)
                }
            };
            let weight = self.weights.weight(&mut self.rng, &class, fault);
            if weight == 0 {
                continue;
            }
            let classes = if fault { &mut faults } else { &mut ordinary };
            (classes.entry(class).or_insert_with(|| Class {
                weight,
                actions: Vec::new(),
            }))
            .actions
            .push(action);
        }
        let fault_now = !faults.is_empty() && self.chance(self.weights.fault_per_mille);
        if fault_now || (ordinary.is_empty() && held.is_empty()) {
            return self.pick_weighted(faults);
        }
        if ordinary.is_empty() {
            let index = pick(&mut self.rng, held.len());
            return held.into_iter().nth(index);
        }
        self.pick_weighted(ordinary)
    }

    /// Storage damage drawn toward where recovery decides what a frame is: each of two
    /// chances of one half narrows a disk's bit flips to its last frame, and to the frame's
    /// first [`HEADER_BYTES`] bytes (its length, checksums and label), where a uniform draw
    /// over every bit of every frame would rarely land.
    fn narrow_damage<A: std::fmt::Display>(&mut self, mut actions: Vec<A>) -> Vec<A> {
        let flip = |action: &A| -> Option<(String, u64, u64)> {
            let text = action.to_string();
            let mut words = text.split(' ');
            (words.next()? == "flip").then_some(())?;
            let node = words.next()?.to_owned();
            let frame = words.nth(1)?.parse().ok()?;
            let bit = words.nth(1)?.parse().ok()?;
            Some((node, frame, bit))
        };
        if self.chance(500) {
            let mut last: BTreeMap<String, u64> = BTreeMap::new();
            for (node, frame, _) in actions.iter().filter_map(flip) {
                let highest = last.entry(node).or_insert(frame);
                *highest = (*highest).max(frame);
            }
            if !last.is_empty() {
                actions.retain(|action| {
                    flip(action).is_some_and(|(node, frame, _)| last.get(&node) == Some(&frame))
                });
            }
        }
        if self.chance(500)
            && actions
                .iter()
                .any(|a| flip(a).is_some_and(|f| f.2 < HEADER_BITS))
        {
            actions.retain(|action| flip(action).is_some_and(|(_, _, bit)| bit < HEADER_BITS));
        }
        actions
    }

    fn pick_weighted<A: std::fmt::Display>(
        &mut self,
        classes: BTreeMap<String, Class<A>>,
    ) -> Option<A> {
        let total: u64 = classes.values().map(|class| u64::from(class.weight)).sum();
        if total == 0 {
            return None;
        }
        let mut ticket = pick(&mut self.rng, total as usize) as u64;
        for class in classes.into_values() {
            let weight = u64::from(class.weight);
            if ticket < weight {
                let actions = self.narrow_damage(class.actions);
                let index = pick(&mut self.rng, actions.len());
                return actions.into_iter().nth(index);
            }
            ticket -= weight;
        }
        None
    }
}

/// How a swarm walk ended.
#[derive(Clone, Debug)]
pub struct Ending<A> {
    /// The actions applied, the fair schedule's included when it ran.
    pub actions: Vec<A>,
    /// How many of them the walk took before the fair schedule.
    pub walk_steps: usize,
    /// The properties broken, if any (progress included).
    pub violations: Vec<Violation>,
    /// The fair schedule ended stuck without breaking a property: the state, in words.
    pub stuck: Option<String>,
    /// Whether the fair schedule, if it ran, answered everything.
    pub settled: Option<bool>,
    /// The actions the walk took to first reach a decision, if it did.
    pub decided_after: Option<usize>,
    /// Faults injected, by kind.
    pub faults: BTreeMap<&'static str, u64>,
    /// The weights the walk drew.
    pub weights: Weights,
}

impl<A> Ending<A> {
    /// Whether the run failed: a property broken, or a fair schedule stuck.
    pub fn failed(&self) -> bool {
        !self.violations.is_empty() || self.stuck.is_some()
    }
}

/// Walks `world` with the weights drawn from `rng` for at most `max_steps` actions, then runs
/// its fair schedule.
pub fn walk<M: Model>(
    mut world: M,
    mut rng: Pcg64Mcg,
    max_steps: u32,
) -> Result<Ending<M::Action>, Error> {
    let weights = Weights::draw(&mut rng);
    let mut drawer = Drawer {
        rng,
        weights,
        held_until: BTreeMap::new(),
    };
    let mut actions = Vec::new();
    let mut faults = BTreeMap::new();
    let mut violations = world.violations();
    let mut decided_after = world.is_decided().then_some(0);
    gave_up(&violations, &world)?;
    while violations.is_empty() && actions.len() < max_steps as usize {
        let Some(action) = drawer.next(&world, actions.len() as u64) else {
            break;
        };
        if let Some(kind) = world.fault_kind(&action) {
            *faults.entry(kind.name()).or_default() += 1;
        }
        world.apply(&action).map_err(|refused| Error::Model {
            action: world.describe(&action),
            why: refused.to_string(),
        })?;
        actions.push(action);
        violations = world.violations();
        gave_up(&violations, &world)?;
        if decided_after.is_none() && world.is_decided() {
            decided_after = Some(actions.len());
        }
    }
    let mut ending = Ending {
        walk_steps: actions.len(),
        actions,
        violations,
        stuck: None,
        settled: None,
        decided_after,
        faults,
        weights: drawer.weights,
    };
    if ending.violations.is_empty() {
        settle(&world, &mut ending)?;
    }
    Ok(ending)
}

/// Runs the world's fair schedule after a walk that broke nothing, and records how it ended.
pub(super) fn settle<M: Model>(world: &M, ending: &mut Ending<M::Action>) -> Result<(), Error> {
    let Some(settled) = world.settle() else {
        return Ok(());
    };
    let settled = settled.map_err(|why| Error::Model {
        action: "the fair schedule once faults stopped".into(),
        why,
    })?;
    if let Some(gave_up) = settled.gave_up
        && settled.violations.is_empty()
    {
        return Err(Error::CheckGaveUp(gave_up));
    }
    ending.settled = Some(settled.decided);
    ending.actions.extend(settled.actions);
    ending.violations = settled.violations;
    if ending.violations.is_empty() {
        ending.stuck = settled.stuck;
    }
    Ok(())
}

fn gave_up<M: Model>(violations: &[Violation], world: &M) -> Result<(), Error> {
    match world.gave_up() {
        Some(gave_up) if violations.is_empty() => Err(Error::CheckGaveUp(gave_up)),
        _ => Ok(()),
    }
}

//! Shrinking a failing swarm run: delete actions while the run still fails the same way.
//!
//! A run is kept as the actions of its walk, each as the world describes it, a message named
//! by its route and contents rather than its id (`deliver N1->N2 Accept(1.N1, slot 1, ...)`):
//! once an earlier action is gone, ids move, but the same message is still found by what it
//! says. A candidate is replayed from the seed's fresh world; an action that no longer parses
//! or that the world refuses is skipped; the fair schedule runs after it as after the walk. It
//! still fails when the same property breaks (or, for a fair schedule stuck without breaking
//! one, when it is stuck again). Deletion follows ddmin's chunks (Zeller and Hildebrandt,
//! 2002): halves first, then quarters, down to single actions, until no single action can go
//! or the replay budget runs out; the result is the replay of the last candidate that failed,
//! so it replays as printed.

use super::walk::{Ending, settle};
use crate::Error;
use crate::check::Property;
use crate::model::Model;
use std::collections::BTreeMap;

/// How many candidate runs a shrink may replay.
pub const REPLAY_BUDGET: u32 = 4000;

/// How a run fails: a property broken, or (`None`) a fair schedule stuck without breaking one.
pub type FailureKey = Option<Property>;

/// The failure of a run that failed.
pub fn failure_key<A>(ending: &Ending<A>) -> FailureKey {
    ending
        .violations
        .first()
        .map(|violation| violation.property)
}

/// A shrunk run.
#[derive(Clone, Debug)]
pub struct Shrunk {
    /// The actions of the walk, as the world describes them when replayed from its start.
    pub walk: Vec<String>,
    /// Those and then the fair schedule's, when it ran: the whole counterexample.
    pub counterexample: Vec<String>,
    /// What the shrunk run broke, as `property: detail`, or the state it was stuck in.
    pub failure: Vec<String>,
    /// Candidates replayed.
    pub replays: u32,
    /// Whether no single action of the result can be deleted (else the budget ran out first).
    pub minimal: bool,
}

/// An action as written for a shrink: a message by its route, not its id.
fn by_route(description: &str) -> String {
    let mut words = description.splitn(3, ' ');
    let (Some(verb), Some(second), rest) = (words.next(), words.next(), words.next()) else {
        return description.to_owned();
    };
    match crate::network::parse_id(second) {
        Ok(_) => format!("{verb} {}", rest.unwrap_or_default()),
        Err(_) => description.to_owned(),
    }
}

/// One candidate replayed: its walk as applied, and how it ended.
struct Replayed<A> {
    walk: Vec<String>,
    ending: Ending<A>,
}

/// Replays `candidate` on a fresh `start`, skipping what does not apply; the walk stops at the
/// first property broken, else the fair schedule runs.
fn replay<M: Model>(start: &M, candidate: &[String]) -> Result<Replayed<M::Action>, Error> {
    let mut world = start.clone();
    let mut walk = Vec::with_capacity(candidate.len());
    let mut actions = Vec::with_capacity(candidate.len());
    for text in candidate {
        let Ok(action) = world.parse_action(text) else {
            continue;
        };
        let described = world.describe(&action);
        if world.apply(&action).is_err() {
            continue;
        }
        walk.push(described);
        actions.push(action);
        if !world.violations().is_empty() {
            break;
        }
    }
    let mut ending = Ending {
        walk_steps: actions.len(),
        violations: world.violations(),
        actions,
        stuck: None,
        settled: None,
        decided_after: None,
        faults: BTreeMap::new(),
        weights: super::walk::Weights::empty(),
    };
    if ending.violations.is_empty() {
        settle(&world, &mut ending)?;
    }
    Ok(Replayed { walk, ending })
}

fn fails_as<A>(ending: &Ending<A>, key: FailureKey) -> bool {
    match key {
        Some(property) => {
            (ending.violations.iter()).any(|violation| violation.property == property)
        }
        None => ending.violations.is_empty() && ending.stuck.is_some(),
    }
}

/// Shrinks the failing run whose walk is `walk` (described actions) on `start`.
pub fn shrink<M: Model>(start: &M, walk: &[String], key: FailureKey) -> Result<Shrunk, Error> {
    let mut current: Vec<String> = walk.iter().map(|text| by_route(text)).collect();
    let mut best = replay(start, &current)?;
    if !fails_as(&best.ending, key) {
        return Err(Error::Model {
            action: "shrinking a failing run".into(),
            why: "the run does not fail again when replayed by its actions' routes".into(),
        });
    }
    current = best.walk.iter().map(|text| by_route(text)).collect();
    let mut replays = 1;
    let mut chunk = current.len().div_ceil(2).max(1);
    let mut minimal = false;
    'passes: loop {
        let mut start_index = 0;
        let mut deleted_any = false;
        while start_index < current.len() {
            if replays >= REPLAY_BUDGET {
                break 'passes;
            }
            let end = (start_index + chunk).min(current.len());
            let candidate: Vec<String> = (current[..start_index].iter())
                .chain(&current[end..])
                .cloned()
                .collect();
            replays += 1;
            let tried = replay(start, &candidate)?;
            if fails_as(&tried.ending, key) && tried.walk.len() < current.len() {
                current = tried.walk.iter().map(|text| by_route(text)).collect();
                best = tried;
                deleted_any = true;
            } else {
                start_index += chunk;
            }
        }
        if chunk == 1 {
            if !deleted_any {
                minimal = true;
                break;
            }
        } else {
            chunk = chunk.div_ceil(2);
        }
    }
    let world = start.clone();
    let settle_actions = describe_tail(&world, &best);
    let mut counterexample = best.walk.clone();
    counterexample.extend(settle_actions);
    let failure = match &best.ending.stuck {
        Some(stuck) if best.ending.violations.is_empty() => vec![format!("stuck: {stuck}")],
        _ => (best.ending.violations.iter())
            .map(ToString::to_string)
            .collect(),
    };
    Ok(Shrunk {
        walk: best.walk,
        counterexample,
        failure,
        replays,
        minimal,
    })
}

/// The fair schedule's actions of a replayed run, described against the states they met.
fn describe_tail<M: Model>(start: &M, replayed: &Replayed<M::Action>) -> Vec<String> {
    let mut world = start.clone();
    let mut described = Vec::new();
    for (index, action) in replayed.ending.actions.iter().enumerate() {
        if index >= replayed.ending.walk_steps {
            described.push(world.describe(action));
        }
        if world.apply(action).is_err() {
            break;
        }
    }
    described
}

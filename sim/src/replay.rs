//! `paros-sim replay`'s code path: a list of actions played through the real World, from a
//! named start, with every checker judging each step.
//!
//! The start is a level world ([`level_worlds`], such as a game position's stage) after its
//! prelude, or a scenario's world as its configuration builds it, before its prelude, where a
//! report's counterexample begins. Each action is read with [`Model::parse_action`] (by message
//! id or by route) and applied with [`Model::apply`], the call the explorer makes.

use crate::check::Violation;
use crate::level_worlds::{self, Found};
use crate::matchmaker::MatchmakerWorld;
use crate::model::Model;
use crate::replicated_log::LogWorld;
use crate::scenarios::{self, Setup};
use crate::single_decree::DecreeWorld;
use crate::swarm::Swarm;

/// Why a list of actions does not replay.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum ReplayError {
    /// No level world or scenario has this name.
    #[error(
        "no level world or scenario is named `{0}` (a level id such as `act2/the-permanent-gap`, or a scenario from `paros-sim list`)"
    )]
    UnknownWorld(String),
    /// The named world cannot be built.
    #[error("`{world}` builds no world: {why}")]
    Start {
        /// The world's name.
        world: String,
        /// Why, in the world's words.
        why: String,
    },
    /// An action does not parse or the world refuses it.
    #[error("step {step} (`{action}`) does not replay on `{world}`: {why}")]
    Step {
        /// The world's name.
        world: String,
        /// The step, from 1.
        step: usize,
        /// The action as given.
        action: String,
        /// Why, in the world's words.
        why: String,
    },
    /// A checker could not decide within its limits.
    #[error("{0}")]
    GaveUp(String),
}

/// A replay that went through: what it did and where it ended.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Replayed {
    /// The world's name.
    pub world: String,
    /// Each action as the world describes it, in order.
    pub steps: Vec<String>,
    /// The state at the end, one line per node (decisions, logs) as the world describes it.
    pub state: Vec<String>,
    /// What the checkers report at the end (a checker's violation stays reported once made).
    pub violations: Vec<Violation>,
    /// The world's fingerprint at the end, as the explorer computes it.
    pub fingerprint: u64,
}

/// Plays `actions` on the world named `name`, each step checked.
pub fn replay(name: &str, actions: &[String]) -> Result<Replayed, ReplayError> {
    let start_failed = |why: String| ReplayError::Start {
        world: name.to_owned(),
        why,
    };
    if let Some(found) = level_worlds::find(name) {
        return match found {
            Found::Act1(world) => walk(
                name,
                world.start().map_err(|e| start_failed(e.to_string()))?,
                actions,
                decree_state,
            ),
            Found::Log(world) => walk(
                name,
                world.start().map_err(|e| start_failed(e.to_string()))?,
                actions,
                log_state,
            ),
            Found::Matchmaker(world) => walk(
                name,
                world.start().map_err(|e| start_failed(e.to_string()))?,
                actions,
                MatchmakerWorld::summary,
            ),
        };
    }
    if let Some((swarm, seed)) = swarm_world(name) {
        let failed = |e: crate::Error| start_failed(e.to_string());
        return match swarm {
            Swarm::Log => walk(
                name,
                Swarm::draw_log(seed).map_err(failed)?.0,
                actions,
                log_state,
            ),
            Swarm::Matchmaker => walk(
                name,
                Swarm::draw_matchmaker(seed).map_err(failed)?.0,
                actions,
                MatchmakerWorld::summary,
            ),
        };
    }
    let scenario = scenarios::find(name).map_err(|_| ReplayError::UnknownWorld(name.to_owned()))?;
    match scenario.setup {
        Setup::Act1 { config, .. } => walk(
            name,
            DecreeWorld::build(config).map_err(|e| start_failed(e.to_string()))?,
            actions,
            decree_state,
        ),
        Setup::Log { config, .. } => walk(
            name,
            LogWorld::build(config).map_err(|e| start_failed(e.to_string()))?,
            actions,
            log_state,
        ),
        Setup::Matchmaker { config, .. } => walk(
            name,
            MatchmakerWorld::build(config).map_err(|e| start_failed(e.to_string()))?,
            actions,
            MatchmakerWorld::summary,
        ),
    }
}

/// A swarm seed's world, named `swarm/SEED` (or `swarm-matchmaker/SEED`): the world that seed
/// draws, where its shrunk counterexample begins.
fn swarm_world(name: &str) -> Option<(Swarm, u64)> {
    let (swarm, seed) = name.split_once('/')?;
    Some((Swarm::find(swarm)?, seed.parse().ok()?))
}

fn walk<M: Model>(
    name: &str,
    mut world: M,
    actions: &[String],
    state: fn(&M) -> Vec<String>,
) -> Result<Replayed, ReplayError> {
    let mut steps = Vec::with_capacity(actions.len());
    for (index, text) in actions.iter().enumerate() {
        let fail = |why: String| ReplayError::Step {
            world: name.to_owned(),
            step: index + 1,
            action: text.clone(),
            why,
        };
        let action = world.parse_action(text).map_err(fail)?;
        steps.push(world.describe(&action));
        world
            .apply(&action)
            .map_err(|refused| fail(refused.to_string()))?;
        if let Some(gave_up) = world.gave_up() {
            return Err(ReplayError::GaveUp(gave_up.to_string()));
        }
    }
    Ok(Replayed {
        world: name.to_owned(),
        steps,
        state: state(&world),
        violations: world.violations(),
        fingerprint: world.fingerprint(),
    })
}

/// Act I's state: what is chosen, and what each proposer has learned.
fn decree_state(world: &DecreeWorld) -> Vec<String> {
    let chosen = world.chosen();
    let mut lines: Vec<String> = if chosen.is_empty() {
        vec!["chosen: nothing".to_owned()]
    } else {
        (chosen.iter())
            .map(|votes| {
                format!(
                    "chosen: {} at {}",
                    votes.value,
                    world.ballot_name(votes.ballot)
                )
            })
            .collect()
    };
    for (index, proposer) in world.proposers().iter().enumerate() {
        let learned = proposer
            .learned()
            .map_or("nothing".to_owned(), |value| value.to_string());
        lines.push(format!("P{} learned: {learned}", index + 1));
    }
    lines
}

/// The log's state: each node's role, ballot, chosen and applied index, as its summary says.
fn log_state(world: &LogWorld) -> Vec<String> {
    world.summary().split("; ").map(str::to_owned).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(actions: &[&str]) -> Vec<String> {
        actions.iter().map(|action| (*action).to_owned()).collect()
    }

    #[test]
    fn a_level_world_replays_and_reports_its_state() {
        let actions = texts(&[
            "deliver P1->A1 Prepare",
            "deliver P1->A2 Prepare",
            "deliver A1->P1 Promise",
            "deliver A2->P1 Promise",
            "deliver P1->A1 Accept",
            "deliver P1->A2 Accept",
        ]);
        let replayed = replay("act1/choose-a-value", &actions).unwrap();
        assert_eq!(replayed.steps[0], "deliver m1 P1->A1 Prepare(1.P1)");
        assert_eq!(replayed.steps.len(), 6);
        assert_eq!(replayed.state[0], "chosen: x at 1.P1");
        assert!(replayed.violations.is_empty());
        let start = replay("act1/choose-a-value", &[]).unwrap();
        assert_ne!(start.fingerprint, replayed.fingerprint);
    }

    #[test]
    fn a_refused_action_names_its_step_and_the_refusal() {
        let actions = texts(&["deliver P1->A1 Prepare", "deliver A3->P1 Promise"]);
        let error = replay("act1/choose-a-value", &actions).unwrap_err();
        let ReplayError::Step { step, action, .. } = &error else {
            panic!("{error:?}");
        };
        assert_eq!((*step, action.as_str()), (2, "deliver A3->P1 Promise"));
        assert!(
            error
                .to_string()
                .starts_with("step 2 (`deliver A3->P1 Promise`)"),
            "{error}"
        );
    }

    #[test]
    fn an_unknown_world_is_named() {
        let error = replay("act9/no-such-level", &[]).unwrap_err();
        assert_eq!(
            error,
            ReplayError::UnknownWorld("act9/no-such-level".into())
        );
    }

    #[test]
    fn a_counterexample_replays_from_its_scenario_to_its_violation() {
        let report = crate::book::report_for("act1-learn-early-control").unwrap();
        let replayed = replay("act1-learn-early-control", &report.counterexample).unwrap();
        assert_eq!(replayed.steps, report.counterexample);
        let violations: Vec<String> = replayed
            .violations
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(violations, report.violations);
    }
}

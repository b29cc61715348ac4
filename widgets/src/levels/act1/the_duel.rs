//! `act1/the-duel`: two proposers pre-empt each other until the retry budget runs out, unless
//! the player schedules one of them through.
//!
//! The goal fails on a livelock: nothing is chosen, every proposer has spent its retries, and
//! every proposer's ballot is dead (a majority has promised above it, so it can never gather a
//! quorum again). Safety holds all along; the failure is one of liveness.

use super::HOW_PAXOS_CHOOSES;
use crate::game::{Memory, Run};
use crate::level::{Goal, Level, Rules, Stage};
use paros_core::{Ballot, Phase};
use paros_sim::{Budget, World, WorldConfig};

/// The level.
pub static LEVEL: Level = Level {
    id: "act1/the-duel",
    act: 1,
    title: "The duel",
    briefing: include_str!("the_duel.md"),
    by_hand: "Run two proposers against each other and still get a value chosen",
    teaches: "Livelock is a liveness failure and never a safety one",
    goal: "A value is chosen before both proposers run out of retries",
    chapter: HOW_PAXOS_CHOOSES,
    scenario: "act1-duel",
    unlocks: None,
    hints: [
        "A ballot dies when a majority of acceptors has promised a higher one. Each retry kills \
         the other proposer's ballot the moment its Prepares land.",
        "Hold one proposer's messages on the wire and let the other finish both phases first: \
         that is all a stable leader does.",
    ],
    pins: &[],
    retry_by_hand: true,
    stages: &[Stage {
        title: "Two proposers, two retries each",
        note: "P1 (x) and P2 (y) have both sent their Prepares. Each may retry twice.",
        world,
        prelude: &[],
    }],
    solution: &[
        "deliver P2->A1 Prepare",
        "deliver P2->A2 Prepare",
        "deliver P1->A1 Prepare",
        "deliver A1->P1 Nack",
        "retry P1",
        "answer 2.P1",
        "deliver P1->A1 Prepare(2.P1)",
        "deliver P1->A3 Prepare(2.P1)",
        "deliver A1->P1 Promise(2.P1)",
        "deliver A3->P1 Promise(2.P1)",
        "deliver P1->A1 Accept",
        "deliver P1->A3 Accept",
    ],
    solution_unlocked: &[
        crate::level::Automation::AcceptorReplies,
        crate::level::Automation::P2c,
    ],
    rules: &TheDuel,
};

fn world() -> WorldConfig {
    let budget = Budget {
        retries_per_proposer: 2,
        ..Budget::default()
    };
    super::world(&["x", "y"], &[true, true], budget)
}

/// Whether `ballot` can never gather a quorum again: too many acceptors promised above it.
/// Promises never decrease, so a dead ballot stays dead.
pub fn ballot_dead(world: &World, ballot: Ballot) -> bool {
    let acceptor_count = world.acceptors().len();
    let quorum_size = acceptor_count / 2 + 1;
    let above = world
        .acceptors()
        .iter()
        .filter(|acceptor| {
            acceptor
                .promised()
                .is_some_and(|promised| promised > ballot)
        })
        .count();
    acceptor_count - above < quorum_size
}

/// A livelock: nothing chosen, and no proposer can ever get anything chosen again.
pub fn livelocked(world: &World) -> bool {
    if !world.chosen().is_empty() {
        return false;
    }
    world
        .proposers()
        .iter()
        .zip(world.retries_left())
        .all(|(proposer, retries_left)| {
            let stuck = match (proposer.phase(), proposer.ballot()) {
                (Phase::Idle, _) | (_, None) => false,
                (_, Some(ballot)) => ballot_dead(world, ballot),
            };
            stuck && *retries_left == 0
        })
}

struct TheDuel;

impl Rules for TheDuel {
    fn goal(&self, run: &Run, _memory: &Memory) -> Goal {
        let world = run.world();
        if !world.chosen().is_empty() {
            Goal::Reached
        } else if livelocked(world) {
            Goal::Failed(
                "livelock: no value was chosen, and none was chosen wrongly; both proposers spent \
                 their retries, each ballot pre-empted by the other's. Liveness failed, safety \
                 held."
                    .to_string(),
            )
        } else {
            Goal::Open
        }
    }
}

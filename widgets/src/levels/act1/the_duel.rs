//! `act1/the-duel`: two proposers pre-empt each other until the retry budget runs out, unless
//! the player schedules one of them through.
//!
//! The goal fails on a livelock: nothing is chosen, every proposer has spent its retries, and a
//! proposer's last ballot is dead (too many acceptors have promised above it for the rest to
//! make a quorum, so it can never gather one again). Safety holds all along; the failure is one of liveness.

use super::HOW_PAXOS_CHOOSES;
use crate::level::{Level, Rules, Stage};
use crate::state::{Goal, Memory, Run};
use paros_core::{Acceptor, Ballot, NodeId, NodeSet, Phase, Proposer, QuorumSystem, vote_rule};
use paros_sim::single_decree::{DecreeWorld, DecreeWorldConfig};
use paros_sim::{Budget, Fault};

/// The level.
pub static LEVEL: Level<DecreeWorld> = Level {
    id: "act1/the-duel",
    act: 1,
    title: "The duel",
    briefing: include_str!("the_duel.md"),
    by_hand: "Run two proposers against each other and still get a value chosen",
    teaches: "Livelock is a liveness failure and never a safety one",
    goal: "A value is chosen before both proposers run out of retries",
    chapter: HOW_PAXOS_CHOOSES,
    scenario: "act1-duel",
    symbols: &[],
    unlocks: None,
    hints: [
        "A ballot dies when the acceptors that have not promised a higher one are too few to \
         make a quorum. Each retry kills the other proposer's ballot the moment its Prepares \
         land.",
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
        crate::automation::Automation::AcceptorReplies,
        crate::automation::Automation::P2c,
    ],
    rules: &TheDuel,
};

fn world() -> DecreeWorldConfig {
    let budget = Budget::NONE.with(Fault::Retry, 2);
    super::world(&["x", "y"], &[true, true], budget)
}

/// Whether `proposer`'s ballot can never get a value chosen: the acceptors that may still
/// answer it (whose promise is not above it, the vote rule) hold no Phase-2 quorum, or, while
/// it prepares, no Phase-1 quorum, by the proposer's own quorum system. Promises never
/// decrease, so a dead ballot stays dead.
pub fn ballot_dead<Q: QuorumSystem>(acceptors: &[Acceptor], proposer: &Proposer<Q>) -> bool {
    let Some(ballot) = proposer.ballot() else {
        return false;
    };
    let open: NodeSet = acceptors
        .iter()
        .filter(|acceptor| vote_rule(acceptor.promised(), ballot))
        .map(Acceptor::id)
        .collect();
    let quorums = proposer.quorums();
    let preparing = proposer.phase() == Phase::Preparing;
    !quorums.is_phase2_quorum(open) || (preparing && !quorums.is_phase1_quorum(open))
}

/// A livelock, as far as a finite budget can show one: nothing is chosen, every proposer has
/// spent its retries, and some proposer's last ballot was pre-empted. A real proposer would time
/// out and retry again, and the duel could go on forever. Returns the pre-empted proposer and
/// its ballot.
pub fn livelock(world: &DecreeWorld) -> Option<(NodeId, Ballot)> {
    if !world.chosen().is_empty() || world.retries_left().iter().any(|left| *left > 0) {
        return None;
    }
    world.proposers().iter().find_map(|proposer| {
        let ballot = proposer.ballot()?;
        (proposer.phase() != Phase::Idle && ballot_dead(world.acceptors(), proposer))
            .then_some((proposer.id(), ballot))
    })
}

struct TheDuel;

impl Rules<DecreeWorld> for TheDuel {
    fn goal(&self, run: &Run<DecreeWorld>, _memory: &Memory) -> Goal {
        let world = run.world();
        if !world.chosen().is_empty() {
            Goal::Reached
        } else if let Some((proposer, ballot)) = livelock(world) {
            let highest = world
                .acceptors()
                .iter()
                .filter_map(|acceptor| acceptor.promised())
                .max()
                .unwrap_or(ballot);
            Goal::Failed(format!(
                "livelock: every retry is spent and nothing is chosen. {}'s ballot {} was \
                 pre-empted by {}, and a real {} would time out and retry, pre-empting in turn. \
                 No value was chosen, and none was chosen wrongly: liveness failed, safety held.",
                world.name(proposer),
                world.ballot_name(ballot),
                world.ballot_name(highest),
                world.name(proposer)
            ))
        } else {
            Goal::Open
        }
    }
}

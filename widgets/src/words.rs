//! How the game writes nodes, sets and votes in its sentences: `{A1, A2}`, `(1.P1, x)`.

use paros_core::{Majority, NodeSet, QuorumSystem, Quorums, Vote};
use paros_sim::single_decree::DecreeWorld;

/// A set of nodes by name, in id order: `{A1, A3}`.
pub fn set_name(world: &DecreeWorld, set: NodeSet) -> String {
    let names: Vec<String> = set.iter().map(|node| world.name(node)).collect();
    format!("{{{}}}", names.join(", "))
}

/// A vote as a pair: `(1.P1, x)`.
pub fn vote_name(world: &DecreeWorld, vote: &Vote) -> String {
    format!("({}, {})", world.ballot_name(vote.ballot), vote.value)
}

/// Node names in id order, as a list for JSON.
pub fn names(world: &DecreeWorld, set: NodeSet) -> Vec<String> {
    set.iter().map(|node| world.name(node)).collect()
}

/// The quorum system Act I's proposers count with, as paros-core holds it.
pub fn quorums(world: &DecreeWorld) -> Majority {
    world.proposers().first().map_or_else(
        || Majority::new(world.config().acceptors()).expect("a world has acceptors"),
        |proposer| *proposer.quorums(),
    )
}

/// How many of `what` a majority needs, as the quorum system reports it: `a majority of 3
/// acceptors is 2`.
pub fn majority_size(quorums: &Majority, what: &str) -> String {
    format!(
        "a majority of {} {what} is {}",
        quorums.acceptors().len(),
        quorums.quorum_size()
    )
}

/// How many of `what` a Phase-1 quorum needs, as a replicated log's quorum system reports it:
/// in majority words for majorities (`a majority of 3 nodes is 2`).
pub fn phase1_quorum_size(quorums: &Quorums, what: &str) -> String {
    match quorums {
        Quorums::Majority(majority) => majority_size(majority, what),
        Quorums::Flexible(_) | Quorums::Grid(_) => format!(
            "a Phase-1 quorum of {} {what} is {}",
            quorums.acceptors().len(),
            quorums.phase1_size()
        ),
    }
}

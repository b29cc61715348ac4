//! How the game writes nodes, sets and votes in its sentences: `{A1, A2}`, `(1.P1, x)`.

use paros_core::{NodeSet, Vote};
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

//! Nodes, rounds and sets as players read them on the matchmaker board.

use paros_core::{Ballot, NodeId, NodeSet};

/// The name the world gives `node`: `M2`, `A4`, `L1`, `R1`.
pub fn name(node: NodeId) -> String {
    paros_sim::matchmaker::node_name(node)
}

/// A round as players read it: `2.L2`.
pub fn round_name(round: Ballot) -> String {
    paros_sim::matchmaker::round_name(round)
}

/// A set of nodes by name, in id order: `{A1, A2}`.
pub fn set_name(set: NodeSet) -> String {
    paros_sim::matchmaker::set_name(set)
}

/// The names of a set's nodes, in id order.
pub fn names(set: NodeSet) -> Vec<String> {
    set.iter().map(name).collect()
}

//! Ballots: the totally ordered names of proposals.

use crate::NodeId;
use std::fmt;

/// A ballot number: a round, broken by the node that owns the ballot.
///
/// Ballots are ordered by round first and node second, so two proposers never share a ballot
/// (The Part-Time Parliament, section 2.2: each priest draws ballot numbers from its own set).
/// Only the owner of a ballot sends Accepts for it, with one value, so a ballot names at most one
/// value.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Ballot {
    /// The round; raised by one above the highest round seen on each retry.
    pub round: u32,
    /// The proposer that owns this ballot.
    pub node: NodeId,
}

impl Ballot {
    /// The ballot of `node` in `round`.
    pub const fn new(round: u32, node: NodeId) -> Ballot {
        Ballot { round, node }
    }

    /// The lowest ballot that `node` owns above `floor`: one round past it.
    pub fn next_above(floor: Ballot, node: NodeId) -> Ballot {
        Ballot::new(floor.round.saturating_add(1), node)
    }
}

impl fmt::Display for Ballot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.round, self.node)
    }
}

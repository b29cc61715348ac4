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

    /// The lowest ballot that `node` owns above `floor`: one round past it; `None` when
    /// `floor` is in the last round, `u32::MAX`, and no round is left above it.
    ///
    /// Never a ballot at or below `floor`: standing at one would go below a promise already
    /// seen, or at a ballot already stood at, which a Promise of an earlier life could elect a
    /// second time. A proposer that has seen the last round stands no more.
    pub fn next_above(floor: Ballot, node: NodeId) -> Option<Ballot> {
        Some(Ballot::new(floor.round.checked_add(1)?, node))
    }
}

impl fmt::Display for Ballot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.round, self.node)
    }
}

//! Node identities and sets of nodes.
//!
//! A [`NodeSet`] is a bit set rather than a `BTreeSet`: quorum tests run on every delivered
//! message, and the explorer clones and hashes worlds millions of times a second.

use std::fmt;

/// The identity of one node: an acceptor, a proposer, or a node that plays several roles.
///
/// Invariant: `0 < id <= NodeId::MAX`, so every node fits in a [`NodeSet`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct NodeId(u8);

impl NodeId {
    /// The largest node id a [`NodeSet`] can hold.
    pub const MAX: u8 = 63;

    /// Makes a node id, or `None` when `id` is 0 or above [`NodeId::MAX`].
    pub const fn new(id: u8) -> Option<NodeId> {
        if id == 0 || id > Self::MAX {
            None
        } else {
            Some(NodeId(id))
        }
    }

    /// The number behind this id.
    pub const fn get(self) -> u8 {
        self.0
    }
}

/// `N1`, as every world and page of paros names a node (a ballot owned by it prints `1.N1`).
impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "N{}", self.0)
    }
}

/// A set of nodes, such as the acceptors that promised a ballot.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct NodeSet(u64);

impl NodeSet {
    /// The empty set.
    pub const EMPTY: NodeSet = NodeSet(0);

    /// Adds `node`; returns whether it was new.
    pub fn insert(&mut self, node: NodeId) -> bool {
        let bit = 1u64 << node.0;
        let new = self.0 & bit == 0;
        self.0 |= bit;
        new
    }

    /// Removes `node`; returns whether it was present.
    pub fn remove(&mut self, node: NodeId) -> bool {
        let bit = 1u64 << node.0;
        let present = self.0 & bit != 0;
        self.0 &= !bit;
        present
    }

    /// Whether `node` is in the set.
    pub const fn contains(self, node: NodeId) -> bool {
        self.0 & (1u64 << node.0) != 0
    }

    /// How many nodes the set holds.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The nodes in both sets.
    pub const fn intersection(self, other: NodeSet) -> NodeSet {
        NodeSet(self.0 & other.0)
    }

    /// The nodes in either set.
    pub const fn union(self, other: NodeSet) -> NodeSet {
        NodeSet(self.0 | other.0)
    }

    /// The nodes of `self` that are not in `other`.
    pub const fn difference(self, other: NodeSet) -> NodeSet {
        NodeSet(self.0 & !other.0)
    }

    /// Whether every node of `self` is in `other`.
    pub const fn is_subset(self, other: NodeSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// The nodes in ascending order of id.
    pub fn iter(self) -> impl Iterator<Item = NodeId> {
        (1..=NodeId::MAX)
            .map(NodeId)
            .filter(move |node| self.contains(*node))
    }
}

impl FromIterator<NodeId> for NodeSet {
    fn from_iter<I: IntoIterator<Item = NodeId>>(iter: I) -> Self {
        let mut set = NodeSet::EMPTY;
        for node in iter {
            set.insert(node);
        }
        set
    }
}

impl fmt::Debug for NodeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

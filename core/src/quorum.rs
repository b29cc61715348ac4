//! Quorum systems: which sets of acceptors may act for all of them.
//!
//! Paxos needs only that every Phase-1 quorum intersects every Phase-2 quorum (Flexible Paxos,
//! Howard, Malkhi and Spiegelman 2016, section 3). Classic Paxos uses majorities for both phases;
//! the trait keeps the two tests apart so flexible and grid systems fit.

use crate::{NodeId, NodeSet};

/// A quorum system over a fixed set of acceptors.
///
/// Invariant (quorum intersection): for every `p1` with `is_phase1_quorum(p1)` and every `p2`
/// with `is_phase2_quorum(p2)`, `p1.intersection(p2)` is not empty. [`QuorumSystem::intersects`]
/// checks it exhaustively for small systems.
pub trait QuorumSystem {
    /// The acceptors this system is over.
    fn acceptors(&self) -> NodeSet;

    /// Whether `voters` may complete Phase 1 (elect a ballot).
    fn is_phase1_quorum(&self, voters: NodeSet) -> bool;

    /// Whether `voters` may complete Phase 2 (choose a value).
    fn is_phase2_quorum(&self, voters: NodeSet) -> bool;

    /// Checks the intersection invariant over every pair of subsets of the acceptors.
    ///
    /// Exponential in the number of acceptors: meant for tests and configuration checks of
    /// small systems (up to about 12 acceptors).
    fn intersects(&self) -> bool {
        let members: Vec<NodeId> = self.acceptors().iter().collect();
        let subsets: Vec<NodeSet> = (0u32..1 << members.len())
            .map(|mask| {
                members
                    .iter()
                    .enumerate()
                    .filter(|(index, _)| mask & (1 << index) != 0)
                    .map(|(_, node)| *node)
                    .collect()
            })
            .collect();
        let phase1: Vec<NodeSet> = subsets
            .iter()
            .copied()
            .filter(|set| self.is_phase1_quorum(*set))
            .collect();
        let phase2: Vec<NodeSet> = subsets
            .iter()
            .copied()
            .filter(|set| self.is_phase2_quorum(*set))
            .collect();
        phase1
            .iter()
            .all(|p1| phase2.iter().all(|p2| !p1.intersection(*p2).is_empty()))
    }
}

/// Classic majority quorums: more than half of the acceptors, in both phases.
///
/// Any two majorities of the same set share an acceptor (Paxos Made Simple, section 2.2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Majority {
    acceptors: NodeSet,
}

impl Majority {
    /// Majority quorums over `acceptors`, or `None` when it is empty.
    pub fn new(acceptors: NodeSet) -> Option<Majority> {
        (!acceptors.is_empty()).then_some(Majority { acceptors })
    }

    /// How many acceptors make a quorum: `n / 2 + 1`.
    pub fn quorum_size(&self) -> usize {
        self.acceptors.len() / 2 + 1
    }
}

impl QuorumSystem for Majority {
    fn acceptors(&self) -> NodeSet {
        self.acceptors
    }

    fn is_phase1_quorum(&self, voters: NodeSet) -> bool {
        voters.intersection(self.acceptors).len() >= self.quorum_size()
    }

    fn is_phase2_quorum(&self, voters: NodeSet) -> bool {
        self.is_phase1_quorum(voters)
    }
}

/// Flexible quorums: any `phase1_size` acceptors elect, any `phase2_size` acceptors choose.
///
/// Safe exactly when `phase1_size + phase2_size > n` (Flexible Paxos, section 3): the two
/// phases must meet, two Phase-2 quorums need not.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Flexible {
    acceptors: NodeSet,
    phase1_size: usize,
    phase2_size: usize,
}

impl Flexible {
    /// Flexible quorums, or `None` unless `phase1_size + phase2_size > n` and both sizes are
    /// between 1 and `n`.
    pub fn new(acceptors: NodeSet, phase1_size: usize, phase2_size: usize) -> Option<Flexible> {
        let n = acceptors.len();
        let sizes_fit = (1..=n).contains(&phase1_size) && (1..=n).contains(&phase2_size);
        (sizes_fit && phase1_size + phase2_size > n).then_some(Flexible {
            acceptors,
            phase1_size,
            phase2_size,
        })
    }
}

impl QuorumSystem for Flexible {
    fn acceptors(&self) -> NodeSet {
        self.acceptors
    }

    fn is_phase1_quorum(&self, voters: NodeSet) -> bool {
        voters.intersection(self.acceptors).len() >= self.phase1_size
    }

    fn is_phase2_quorum(&self, voters: NodeSet) -> bool {
        voters.intersection(self.acceptors).len() >= self.phase2_size
    }
}

/// The chosen check: a value is chosen at a ballot once a Phase-2 quorum of acceptors voted for
/// that ballot.
///
/// Chosen is a fact about the acceptors' votes, true the moment the last vote of the quorum is
/// cast, before any proposer or learner hears of it (Paxos Made Simple, section 2.2: "a value is
/// chosen when a single proposal with that value has been accepted by a majority").
pub fn is_chosen<Q: QuorumSystem + ?Sized>(quorums: &Q, voters_at_ballot: NodeSet) -> bool {
    quorums.is_phase2_quorum(voters_at_ballot)
}

//! Quorum systems: which sets of acceptors may act for all of them.
//!
//! Paxos needs only that every Phase-1 quorum intersects every Phase-2 quorum (Flexible Paxos,
//! Howard, Malkhi and Spiegelman 2016, section 3). Classic Paxos uses majorities for both phases;
//! the trait keeps the two tests apart so flexible and grid systems fit. A grid decides each
//! slot in its own column ([`Grid`](crate::Grid)), so the log asks
//! [`Quorums::is_phase2_quorum_at`](crate::Quorums::is_phase2_quorum_at) (`quorums.rs`).

use crate::{NodeId, NodeSet};
use std::fmt;

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
        self.disjoint_quorums().is_none()
    }

    /// A Phase-1 quorum and a Phase-2 quorum that share no acceptor, if any: the witness that
    /// this system breaks F1. Exhaustive, like [`QuorumSystem::intersects`].
    fn disjoint_quorums(&self) -> Option<(NodeSet, NodeSet)> {
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
        let phase1 = subsets.iter().filter(|set| self.is_phase1_quorum(**set));
        let phase2: Vec<NodeSet> = subsets
            .iter()
            .copied()
            .filter(|set| self.is_phase2_quorum(*set))
            .collect();
        phase1.into_iter().find_map(|p1| {
            phase2
                .iter()
                .find(|p2| p1.intersection(**p2).is_empty())
                .map(|p2| (*p1, *p2))
        })
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

    /// Majority quorums over `acceptors`, even none: over an empty set no set is a quorum.
    pub(crate) fn over(acceptors: NodeSet) -> Majority {
        Majority { acceptors }
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
/// **F1**: every Phase-1 quorum meets every Phase-2 quorum, which for counting quorums is
/// `phase1_size + phase2_size > n` (Howard, Malkhi and Spiegelman, "Flexible Paxos: Quorum
/// Intersection Revisited", OPODIS 2016, section 3). Two Phase-2 quorums need not meet: a value
/// chosen by one is found by the next leader's Phase 1, not by another Phase 2. A system that
/// breaks F1 cannot be built: [`Flexible::new`] refuses it with [`QuorumError::PhasesMiss`],
/// naming a quorum of each phase that share no acceptor.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Flexible {
    acceptors: NodeSet,
    phase1_size: usize,
    phase2_size: usize,
}

impl Flexible {
    /// Flexible quorums over `acceptors`: any `phase1_size` of them elect, any `phase2_size`
    /// choose. Refused unless both sizes are between 1 and `n` and the phases meet (F1).
    pub fn new(
        acceptors: NodeSet,
        phase1_size: usize,
        phase2_size: usize,
    ) -> Result<Flexible, QuorumError> {
        let n = acceptors.len();
        if n == 0 {
            return Err(QuorumError::NoAcceptors);
        }
        for (phase, size) in [(1, phase1_size), (2, phase2_size)] {
            if !(1..=n).contains(&size) {
                return Err(QuorumError::SizeOutOfRange {
                    phase,
                    size,
                    acceptors: n,
                });
            }
        }
        if phase1_size + phase2_size <= n {
            // The first `phase1_size` acceptors elect and the last `phase2_size` choose: with
            // `phase1_size + phase2_size <= n` they share no acceptor.
            let members: Vec<NodeId> = acceptors.iter().collect();
            return Err(QuorumError::PhasesMiss {
                elects: members[..phase1_size].iter().copied().collect(),
                chooses: members[n - phase2_size..].iter().copied().collect(),
            });
        }
        Ok(Flexible {
            acceptors,
            phase1_size,
            phase2_size,
        })
    }

    /// Flexible quorums built without checking F1: the simulator's negative control, which
    /// shows what breaks when the phases miss each other. Only with the `negative-controls`
    /// feature; the game and every other caller build with [`Flexible::new`].
    #[cfg(feature = "negative-controls")]
    pub fn new_unchecked(acceptors: NodeSet, phase1_size: usize, phase2_size: usize) -> Flexible {
        Flexible {
            acceptors,
            phase1_size,
            phase2_size,
        }
    }

    /// How many acceptors elect.
    pub fn phase1_size(&self) -> usize {
        self.phase1_size
    }

    /// How many acceptors choose.
    pub fn phase2_size(&self) -> usize {
        self.phase2_size
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

/// The most rows, and the most columns, a grid may have ([`QuorumError::GridTooLarge`]).
pub const MAX_GRID_SIDE: usize = 8;

/// Why a quorum system cannot be built.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum QuorumError {
    /// There are no acceptors to form a quorum of.
    NoAcceptors,
    /// A quorum size is not between 1 and the number of acceptors.
    SizeOutOfRange {
        /// The phase the size is for: 1 or 2.
        phase: u8,
        /// The size asked for.
        size: usize,
        /// How many acceptors there are.
        acceptors: usize,
    },
    /// F1 broken: `elects` is a Phase-1 quorum and `chooses` a Phase-2 quorum, and no acceptor
    /// is in both, so a value `chooses` chose is invisible to a leader `elects` elected.
    PhasesMiss {
        /// A Phase-1 quorum.
        elects: NodeSet,
        /// A Phase-2 quorum that shares no acceptor with `elects`.
        chooses: NodeSet,
    },
    /// A grid row is not as long as the first row.
    RaggedGrid {
        /// The row, numbered from 1.
        row: usize,
        /// How many acceptors it has.
        length: usize,
        /// How many the first row has.
        expected: usize,
    },
    /// An acceptor appears twice in a grid.
    NodeTwice(NodeId),
    /// A grid with more than [`MAX_GRID_SIDE`] rows or columns.
    GridTooLarge {
        /// How many rows were given.
        rows: usize,
        /// How many columns the first row has.
        columns: usize,
    },
    /// The quorum system is over other acceptors than the cluster's nodes.
    OtherAcceptors {
        /// The cluster's nodes.
        cluster: NodeSet,
        /// The acceptors the quorum system is over.
        quorums: NodeSet,
    },
}

impl fmt::Display for QuorumError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuorumError::NoAcceptors => f.write_str("a quorum system needs acceptors"),
            QuorumError::SizeOutOfRange {
                phase,
                size,
                acceptors,
            } => write!(
                f,
                "a Phase-{phase} quorum of {size} is not between 1 and the {acceptors} acceptors"
            ),
            QuorumError::PhasesMiss { elects, chooses } => write!(
                f,
                "the phases miss each other (F1): {} elects and {} chooses, with no acceptor in both",
                set_name(*elects),
                set_name(*chooses)
            ),
            QuorumError::RaggedGrid {
                row,
                length,
                expected,
            } => write!(
                f,
                "row {row} of the grid has {length} acceptors, not {expected} as the first row has"
            ),
            QuorumError::NodeTwice(node) => write!(f, "{node} is in the grid twice"),
            QuorumError::GridTooLarge { rows, columns } => write!(
                f,
                "a grid is at most {max} by {max}, not {rows} by {columns}",
                max = MAX_GRID_SIDE
            ),
            QuorumError::OtherAcceptors { cluster, quorums } => write!(
                f,
                "the quorum system is over {}, not the cluster {}",
                set_name(*quorums),
                set_name(*cluster)
            ),
        }
    }
}

impl std::error::Error for QuorumError {}

/// A set as `{n1, n2}`.
fn set_name(set: NodeSet) -> String {
    let names: Vec<String> = set.iter().map(|node| node.to_string()).collect();
    format!("{{{}}}", names.join(", "))
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

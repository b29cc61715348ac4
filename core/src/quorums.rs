//! The quorum systems a replicated log runs over, as one value its configuration holds
//! ([`Quorums`]: majority, flexible or grid), and the log's chosen check, slot by slot
//! ([`is_chosen_in_slot`]). It stands on the quorum systems themselves (`quorum.rs`,
//! `grid.rs`).

use crate::log::Slot;
use crate::{Flexible, Grid, Majority, NodeId, NodeSet, QuorumError, QuorumSystem};

/// The quorum systems a replicated log can run over, as one value a node's configuration holds.
///
/// Each variant is built only through its checked constructor, so every `Quorums` keeps F1
/// (every Phase-1 quorum meets every Phase-2 quorum), except the simulator's negative control
/// (`Flexible::new_unchecked` and `Grid::deciding_in_rows_unchecked`, behind the
/// `negative-controls` feature).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Quorums {
    /// Majorities in both phases: classic Paxos.
    Majority(Majority),
    /// Any `q1` acceptors elect, any `q2` choose, with `q1 + q2 > n`.
    Flexible(Flexible),
    /// A full row elects; each slot is decided by its own column.
    Grid(Grid),
}

impl Quorums {
    /// Majorities of `acceptors`, or [`QuorumError::NoAcceptors`].
    pub fn majority(acceptors: NodeSet) -> Result<Quorums, QuorumError> {
        Majority::new(acceptors)
            .map(Quorums::Majority)
            .ok_or(QuorumError::NoAcceptors)
    }

    /// Flexible quorums over `acceptors`, checked as [`Flexible::new`] checks them (F1).
    pub fn flexible(
        acceptors: NodeSet,
        phase1_size: usize,
        phase2_size: usize,
    ) -> Result<Quorums, QuorumError> {
        Flexible::new(acceptors, phase1_size, phase2_size).map(Quorums::Flexible)
    }

    /// A grid of these rows, checked as [`Grid::new`] checks them.
    pub fn grid(rows: &[Vec<NodeId>]) -> Result<Quorums, QuorumError> {
        Grid::new(rows).map(Quorums::Grid)
    }

    /// The recording test for one slot: whether `voters` may choose a value in `slot`.
    ///
    /// For majorities and flexible quorums the slot does not matter
    /// ([`QuorumSystem::is_phase2_quorum`]). A grid decides `slot` in one column only, and a
    /// vote from outside that column counts for nothing there ([`Grid::deciding_column`]).
    pub fn is_phase2_quorum_at(&self, slot: Slot, voters: NodeSet) -> bool {
        match self {
            Quorums::Majority(_) | Quorums::Flexible(_) => self.is_phase2_quorum(voters),
            Quorums::Grid(grid) => grid.decides_slot(slot, voters),
        }
    }

    /// The fewest acceptors that make a Phase-1 quorum.
    pub fn phase1_size(&self) -> usize {
        match self {
            Quorums::Majority(majority) => majority.quorum_size(),
            Quorums::Flexible(flexible) => flexible.phase1_size(),
            Quorums::Grid(grid) => grid.columns().len(),
        }
    }

    /// The fewest acceptors that make a Phase-2 quorum.
    pub fn phase2_size(&self) -> usize {
        match self {
            Quorums::Majority(majority) => majority.quorum_size(),
            Quorums::Flexible(flexible) => flexible.phase2_size(),
            Quorums::Grid(grid) => grid.rows().len(),
        }
    }
}

impl From<Majority> for Quorums {
    fn from(majority: Majority) -> Quorums {
        Quorums::Majority(majority)
    }
}

impl From<Flexible> for Quorums {
    fn from(flexible: Flexible) -> Quorums {
        Quorums::Flexible(flexible)
    }
}

impl From<Grid> for Quorums {
    fn from(grid: Grid) -> Quorums {
        Quorums::Grid(grid)
    }
}

impl QuorumSystem for Quorums {
    fn acceptors(&self) -> NodeSet {
        match self {
            Quorums::Majority(majority) => majority.acceptors(),
            Quorums::Flexible(flexible) => flexible.acceptors(),
            Quorums::Grid(grid) => grid.acceptors(),
        }
    }

    fn is_phase1_quorum(&self, voters: NodeSet) -> bool {
        match self {
            Quorums::Majority(majority) => majority.is_phase1_quorum(voters),
            Quorums::Flexible(flexible) => flexible.is_phase1_quorum(voters),
            Quorums::Grid(grid) => grid.is_phase1_quorum(voters),
        }
    }

    fn is_phase2_quorum(&self, voters: NodeSet) -> bool {
        match self {
            Quorums::Majority(majority) => majority.is_phase2_quorum(voters),
            Quorums::Flexible(flexible) => flexible.is_phase2_quorum(voters),
            Quorums::Grid(grid) => grid.is_phase2_quorum(voters),
        }
    }
}

/// The chosen check of a replicated log, slot by slot: a value is chosen in `slot` at a ballot
/// once the voters for it there at that ballot may choose in that slot
/// ([`Quorums::is_phase2_quorum_at`]; in a grid, only the slot's own column counts).
pub fn is_chosen_in_slot(quorums: &Quorums, slot: Slot, voters_at_ballot: NodeSet) -> bool {
    quorums.is_phase2_quorum_at(slot, voters_at_ballot)
}

//! The grid quorum system: acceptors laid out in rows and columns; rows elect, columns decide.
//!
//! A set is a Phase-1 quorum if it holds a full row. The bare safety condition (F1) asks only
//! that every Phase-2 quorum meet every row: one acceptor from each row will do, and a full
//! column is one such set (grid quorums as Flexible Paxos and FrankenPaxos use them). paros is
//! stricter on purpose: each slot decides in one column ([`Grid::deciding_column`]), and a vote
//! from outside it counts for nothing there.

use crate::log::Slot;
use crate::{MAX_GRID_SIDE, NodeId, NodeSet, QuorumError, QuorumSystem};

/// Acceptors in rows and columns: a full row elects, and slot `s` is decided by a full
/// column, the one [`Grid::deciding_column`] names for `s`.
///
/// Invariant: `row_count` rows of `column_count` acceptors each, no acceptor twice; `rows[r]`
/// and `columns[c]` share exactly the acceptor at row `r`, column `c`. The arrays past the
/// counts are empty. Fixed-size so that a grid, like the other quorum systems, is `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Grid {
    rows: [NodeSet; MAX_GRID_SIDE],
    columns: [NodeSet; MAX_GRID_SIDE],
    row_count: u8,
    column_count: u8,
    /// The negative control's break: a full row decides too (never true outside it).
    rows_decide: bool,
}

impl Grid {
    /// A grid of these rows, each listing its acceptors column by column. Refused when there
    /// are no acceptors, when a row is not as long as the first, when an acceptor appears
    /// twice, or when a side is longer than [`MAX_GRID_SIDE`]. A grid that builds always meets
    /// F1: a row and a column share an acceptor.
    pub fn new(rows: &[Vec<NodeId>]) -> Result<Grid, QuorumError> {
        let width = rows.first().map_or(0, Vec::len);
        if width == 0 {
            return Err(QuorumError::NoAcceptors);
        }
        if rows.len() > MAX_GRID_SIDE || width > MAX_GRID_SIDE {
            return Err(QuorumError::GridTooLarge {
                rows: rows.len(),
                columns: width,
            });
        }
        let mut grid = Grid {
            rows: [NodeSet::EMPTY; MAX_GRID_SIDE],
            columns: [NodeSet::EMPTY; MAX_GRID_SIDE],
            row_count: rows.len() as u8,
            column_count: width as u8,
            rows_decide: false,
        };
        let mut seen = NodeSet::EMPTY;
        for (row_index, row) in rows.iter().enumerate() {
            if row.len() != width {
                return Err(QuorumError::RaggedGrid {
                    row: row_index + 1,
                    length: row.len(),
                    expected: width,
                });
            }
            for (column_index, node) in row.iter().enumerate() {
                if !seen.insert(*node) {
                    return Err(QuorumError::NodeTwice(*node));
                }
                grid.rows[row_index].insert(*node);
                grid.columns[column_index].insert(*node);
            }
        }
        Ok(grid)
    }

    /// The negative control's "grid": these rows, where a full row may decide a slot as well
    /// as the slot's column. F1 breaks: one row decides while the other elects, and neither
    /// hears of the other. Only with the `negative-controls` feature; the game and every other
    /// caller build with [`Grid::new`].
    #[cfg(feature = "negative-controls")]
    pub fn deciding_in_rows_unchecked(rows: &[Vec<NodeId>]) -> Result<Grid, QuorumError> {
        Grid::new(rows).map(|grid| Grid {
            rows_decide: true,
            ..grid
        })
    }

    /// The rows, first to last: each is a Phase-1 quorum.
    pub fn rows(&self) -> &[NodeSet] {
        &self.rows[..usize::from(self.row_count)]
    }

    /// The columns, first to last: each decides the slots [`Grid::deciding_column`] gives it.
    pub fn columns(&self) -> &[NodeSet] {
        &self.columns[..usize::from(self.column_count)]
    }

    /// The column that decides `slot`, by number from 0: `(slot - 1) mod columns`, so slot 1
    /// goes to the first column, and consecutive slots go round the columns in turn.
    pub fn column_index(&self, slot: Slot) -> usize {
        let columns = u64::from(self.column_count);
        (slot.0.saturating_sub(1) % columns) as usize
    }

    /// paros's policy: the one column that decides `slot` ([`Grid::column_index`]).
    ///
    /// This is stricter than safety requires. F1 asks only that a Phase-2 quorum meet every
    /// row ([`Grid::meets_every_row`]), so a "diagonal" set with one acceptor from each row
    /// would do. paros takes one column per slot because then the leader knows exactly whom
    /// it waits for, the load of deciding spreads over the columns slot by slot, and a stray
    /// vote can never complete a quorum no column drew. The cost: a slot waits for every
    /// acceptor of its own column, even when enough others, one per row, have voted.
    pub fn deciding_column(&self, slot: Slot) -> NodeSet {
        self.columns[self.column_index(slot)]
    }

    /// Whether `voters` decide `slot`: they hold its whole deciding column. A vote from
    /// outside that column counts for nothing in this slot (except in the negative control's
    /// grid, where a full row decides too).
    pub fn decides_slot(&self, slot: Slot, voters: NodeSet) -> bool {
        self.deciding_column(slot).is_subset(voters) || self.a_row_decides(voters)
    }

    /// The bare safety condition on a Phase-2 quorum: `voters` hold an acceptor of every row,
    /// so every Phase-1 quorum (a row) meets them. paros asks for more
    /// ([`Grid::deciding_column`]).
    pub fn meets_every_row(&self, voters: NodeSet) -> bool {
        self.rows()
            .iter()
            .all(|row| !row.intersection(voters).is_empty())
    }

    /// Whether `voters` hold a full row.
    fn holds_a_row(&self, voters: NodeSet) -> bool {
        self.rows().iter().any(|row| row.is_subset(voters))
    }

    /// The negative control's break: a full row decides.
    fn a_row_decides(&self, voters: NodeSet) -> bool {
        self.rows_decide && self.holds_a_row(voters)
    }
}

impl QuorumSystem for Grid {
    fn acceptors(&self) -> NodeSet {
        self.rows()
            .iter()
            .fold(NodeSet::EMPTY, |all, row| all.union(*row))
    }

    /// A full row elects.
    fn is_phase1_quorum(&self, voters: NodeSet) -> bool {
        self.holds_a_row(voters)
    }

    /// Whether `voters` decide some slot: they hold a full column. Per slot, the log asks
    /// [`Grid::decides_slot`], where only the slot's own column counts.
    fn is_phase2_quorum(&self, voters: NodeSet) -> bool {
        self.columns().iter().any(|column| column.is_subset(voters)) || self.a_row_decides(voters)
    }
}

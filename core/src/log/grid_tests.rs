//! The grid quorum system and the log over a 2x2 grid: rows {N1, N2} and {N3, N4} elect,
//! slot 1 is decided by the column {N1, N3} and slot 2 by {N2, N4}. A vote from outside a
//! slot's column counts for nothing there, even where the bare safety condition (a voter in
//! every row) would hold.

use super::tests::{CLIENT, Cluster, node};
use crate::log::{LogConfig, LogEnvelope, LogMessage, LogRole, Outcome, Slot};
use crate::{Grid, NodeId, NodeSet, QuorumError, QuorumSystem, Quorums, Value};

fn ids(numbers: &[u8]) -> Vec<NodeId> {
    numbers.iter().map(|n| node(*n)).collect()
}

fn set(numbers: &[u8]) -> NodeSet {
    numbers.iter().map(|n| node(*n)).collect()
}

/// Rows {N1, N2} and {N3, N4}: columns {N1, N3} and {N2, N4}.
fn two_by_two() -> Grid {
    Grid::new(&[ids(&[1, 2]), ids(&[3, 4])]).unwrap()
}

fn grid_config() -> LogConfig {
    LogConfig::new(set(&[1, 2, 3, 4]))
        .with_quorums(Quorums::Grid(two_by_two()))
        .unwrap()
}

#[test]
fn bad_grid_shapes_are_refused_with_what_is_wrong() {
    let ragged = Grid::new(&[ids(&[1, 2]), ids(&[3])]).unwrap_err();
    assert_eq!(
        ragged,
        QuorumError::RaggedGrid {
            row: 2,
            length: 1,
            expected: 2
        }
    );
    assert_eq!(
        ragged.to_string(),
        "row 2 of the grid has 1 acceptors, not 2 as the first row has"
    );
    let twice = Grid::new(&[ids(&[1, 2]), ids(&[3, 1])]).unwrap_err();
    assert_eq!(twice, QuorumError::NodeTwice(node(1)));
    assert_eq!(twice.to_string(), "N1 is in the grid twice");
    assert_eq!(Grid::new(&[]), Err(QuorumError::NoAcceptors));
    assert_eq!(Grid::new(&[vec![], vec![]]), Err(QuorumError::NoAcceptors));
    let nine_wide = ids(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert_eq!(
        Grid::new(&[nine_wide]),
        Err(QuorumError::GridTooLarge {
            rows: 1,
            columns: 9
        })
    );
    assert_eq!(
        Quorums::grid(&[ids(&[1, 2]), ids(&[3])]),
        Err(QuorumError::RaggedGrid {
            row: 2,
            length: 1,
            expected: 2
        })
    );
}

#[test]
fn rows_elect_and_each_slot_has_its_own_column() {
    let grid = two_by_two();
    assert_eq!(grid.rows(), [set(&[1, 2]), set(&[3, 4])]);
    assert_eq!(grid.columns(), [set(&[1, 3]), set(&[2, 4])]);
    assert!(grid.is_phase1_quorum(set(&[3, 4])));
    assert!(
        !grid.is_phase1_quorum(set(&[1, 3])),
        "a column is not a row"
    );
    // Slots go round the columns: 1 and 3 in the first, 2 and 4 in the second.
    let columns: Vec<NodeSet> = (1..=4).map(|s| grid.deciding_column(Slot(s))).collect();
    assert_eq!(
        columns,
        [set(&[1, 3]), set(&[2, 4]), set(&[1, 3]), set(&[2, 4])]
    );
    assert!(grid.decides_slot(Slot(1), set(&[1, 3])));
    assert!(!grid.decides_slot(Slot(2), set(&[1, 3])));
    // {N1, N4} meets every row, the bare safety condition, but is no column: paros refuses it.
    assert!(grid.meets_every_row(set(&[1, 4])));
    assert!(!grid.decides_slot(Slot(1), set(&[1, 4])));
    assert!(
        !grid.decides_slot(Slot(1), set(&[1, 2])),
        "a row decides nothing"
    );
    assert!(grid.intersects());
    assert_eq!(grid.acceptors(), set(&[1, 2, 3, 4]));
}

#[test]
fn a_three_by_three_grid_meets_f1_and_counts_its_sides() {
    let rows = [ids(&[1, 2, 3]), ids(&[4, 5, 6]), ids(&[7, 8, 10])];
    let quorums = Quorums::grid(&rows).unwrap();
    assert!(quorums.intersects());
    assert_eq!((quorums.phase1_size(), quorums.phase2_size()), (3, 3));
    assert!(quorums.is_phase2_quorum_at(Slot(3), set(&[3, 6, 10])));
    assert!(!quorums.is_phase2_quorum_at(Slot(2), set(&[3, 6, 10])));
    // The slot-free test of the other systems ignores the slot.
    let flexible = Quorums::flexible(set(&[1, 2, 3, 4]), 3, 2).unwrap();
    assert!(flexible.is_phase2_quorum_at(Slot(7), set(&[3, 4])));
}

/// Whether `envelope` is to or from a node in `down` (the client never is).
fn touches(down: &[u8], envelope: &LogEnvelope) -> bool {
    [envelope.from, envelope.to]
        .iter()
        .any(|end| *end != node(CLIENT) && down.contains(&end.get()))
}

/// N1 elected by its row {N1, N2} alone, N3 and N4 cut off.
fn elected_by_its_row() -> Cluster {
    let mut cluster = Cluster::of(grid_config());
    let timeout = cluster.nodes[0].config().election_timeout_ticks;
    cluster.tick(1, timeout);
    cluster.settle_losing(|envelope| touches(&[3, 4], envelope));
    cluster
}

#[test]
fn a_row_completes_phase1() {
    let cluster = elected_by_its_row();
    assert_eq!(cluster.nodes[0].role(), LogRole::Leader);
    // A column is not enough: with N2 and N4 cut off, N1 hears {N1, N3} and waits.
    let mut cluster = Cluster::of(grid_config());
    let timeout = cluster.nodes[0].config().election_timeout_ticks;
    cluster.tick(1, timeout);
    cluster.settle_losing(|envelope| touches(&[2, 4], envelope));
    assert_eq!(cluster.nodes[0].role(), LogRole::Candidate);
}

#[test]
fn a_column_decides_its_slot() {
    let mut cluster = elected_by_its_row();
    cluster.write(1, 1, "x", "1");
    cluster.settle_losing(|envelope| touches(&[2, 4], envelope));
    assert_eq!(cluster.nodes[0].chosen_index(), Slot(1));
    assert_eq!(cluster.client_inbox, vec![(1, Outcome::Written)]);
    // Slot 2 goes to the other column, {N2, N4}: with N3 cut off, it decides there.
    cluster.write(1, 2, "x", "2");
    cluster.settle_losing(|envelope| touches(&[3], envelope));
    assert_eq!(cluster.nodes[0].chosen_index(), Slot(2));
    assert_eq!(cluster.client_inbox.last(), Some(&(2, Outcome::Written)));
}

#[test]
fn a_vote_outside_the_slots_column_counts_for_nothing() {
    // N3 is cut off: N1, N2 and N4 vote for slot 1. {N1, N4} meets both rows, so the bare
    // safety condition would call it chosen; slot 1 is the column {N1, N3}'s, and N2's and
    // N4's votes do not count there.
    let mut cluster = elected_by_its_row();
    cluster.write(1, 1, "x", "1");
    cluster.settle_losing(|envelope| touches(&[3], envelope));
    let leader = &cluster.nodes[0];
    assert_eq!(leader.proposals()[&Slot(1)].accepted_by, set(&[1, 2, 4]));
    assert_eq!(leader.chosen_index(), Slot(0));
    assert!(cluster.client_inbox.is_empty());
    // N3 back: its vote completes the column.
    cluster.tick(1, 1);
    cluster.settle();
    assert_eq!(cluster.nodes[0].chosen_index(), Slot(1));
    assert_eq!(cluster.client_inbox, vec![(1, Outcome::Written)]);
}

#[test]
fn a_follower_serves_a_read_from_the_other_rows_watermarks() {
    // x=1 chosen in slot 1 by the column {N1, N3}; N4 reads over its row {N3, N4} with N1 and
    // N2 cut off. N3's vote sets the watermark at 1, so N4 waits until it has applied slot 1.
    let mut cluster = elected_by_its_row();
    cluster.write(1, 1, "x", "1");
    cluster.settle_losing(|envelope| touches(&[2, 4], envelope));
    cluster.client_inbox.clear();
    let read = LogMessage::Read {
        seq: 2,
        key: Value::new("x"),
    };
    cluster.client_sends(4, read);
    cluster.settle_losing(|envelope| touches(&[1, 2], envelope));
    let pending = &cluster.nodes[3].pending_reads()[0];
    assert_eq!(pending.answered_by, set(&[3, 4]));
    assert_eq!(pending.watermark, Slot(1));
    assert!(cluster.client_inbox.is_empty(), "not applied through 1 yet");
    // The leader's beat teaches N4 slot 1; the read is served with x=1.
    cluster.tick(1, 1);
    cluster.settle();
    let value = Some(Value::new("1"));
    assert_eq!(cluster.client_inbox, vec![(2, Outcome::Read(value))]);
}

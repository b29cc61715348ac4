//! The log over flexible quorums (Flexible Paxos, Howard, Malkhi and Spiegelman, 2016): with
//! four nodes, q1 = 3 and q2 = 2, the steady state survives two failures and a leader change
//! only one (F2: recording needs a Phase-2 quorum, discovery a Phase-1 quorum). Each test runs
//! the same schedule over majorities of four too, where it must fail: the difference is the
//! quorum system, not the schedule.

use super::tests::{CLIENT, Cluster, node};
use crate::log::{LogConfig, LogEnvelope, LogMessage, LogRole, Outcome, Slot};
use crate::{NodeSet, Quorums, Value};

fn four() -> NodeSet {
    [1, 2, 3, 4].map(node).into_iter().collect()
}

/// Four nodes with q1 = 3 and q2 = 2.
fn flexible() -> LogConfig {
    let quorums = Quorums::flexible(four(), 3, 2).unwrap();
    LogConfig::new(four()).with_quorums(quorums).unwrap()
}

/// Four nodes with majorities (3 in both phases).
fn majority() -> LogConfig {
    LogConfig::new(four())
}

/// Whether `envelope` is to or from a node in `down` (the client never is).
fn touches(down: &[u8], envelope: &LogEnvelope) -> bool {
    [envelope.from, envelope.to]
        .iter()
        .any(|end| *end != node(CLIENT) && down.contains(&end.get()))
}

/// N1 elected by all four, then C's write of x=1 sent to N1 with `down` cut off.
fn write_with_down(config: LogConfig, down: &[u8]) -> Cluster {
    let mut cluster = Cluster::of(config);
    cluster.elect(1);
    cluster.write(1, 1, "x", "1");
    cluster.settle_losing(|envelope| touches(down, envelope));
    cluster
}

#[test]
fn a_write_is_chosen_by_two_of_four_with_two_nodes_down() {
    let cluster = write_with_down(flexible(), &[3, 4]);
    assert_eq!(cluster.nodes[0].chosen_index(), Slot(1));
    assert_eq!(cluster.client_inbox, vec![(1, Outcome::Written)]);
    // The same schedule over majorities of four: two votes are not a quorum.
    let cluster = write_with_down(majority(), &[3, 4]);
    assert_eq!(cluster.nodes[0].chosen_index(), Slot(0));
    assert!(cluster.client_inbox.is_empty());
}

#[test]
fn a_read_waits_for_a_phase1_quorum_even_where_two_nodes_choose() {
    // Reading the watermarks is discovery: {N1, N2} chose x=1, but their two answers are no
    // Phase-1 quorum, so the read waits (it could otherwise miss a write {N3, N4} chose).
    let mut cluster = write_with_down(flexible(), &[3, 4]);
    cluster.client_inbox.clear();
    let read = LogMessage::Read {
        seq: 2,
        key: Value::new("x"),
    };
    cluster.client_sends(1, read.clone());
    cluster.settle_losing(|envelope| touches(&[3, 4], envelope));
    assert!(cluster.client_inbox.is_empty());
    assert_eq!(cluster.nodes[0].pending_reads().len(), 1);
    // With N3 back, the same read again hears three answers, a Phase-1 quorum, and is served.
    cluster.client_sends(1, read);
    cluster.settle_losing(|envelope| touches(&[4], envelope));
    let value = Some(Value::new("1"));
    assert_eq!(cluster.client_inbox, vec![(2, Outcome::Read(value))]);
}

/// After x=1 is chosen by {N1, N2} (N3 and N4 cut off), N1 fails for good and N2 stands with
/// `down` cut off as well.
fn leader_change_with_down(down: &[u8]) -> Cluster {
    let mut cluster = write_with_down(flexible(), &[3, 4]);
    let mut gone = vec![1];
    gone.extend_from_slice(down);
    let timeout = cluster.nodes[1].config().election_timeout_ticks;
    cluster.tick(2, timeout);
    cluster.settle_losing(|envelope| touches(&gone, envelope));
    cluster
}

#[test]
fn a_leader_change_survives_one_failure_and_finds_what_two_nodes_chose() {
    let mut cluster = leader_change_with_down(&[]);
    assert_eq!(cluster.nodes[1].role(), LogRole::Leader);
    // N2's Phase-1 quorum {N2, N3, N4} meets {N1, N2}, which chose x=1: recovery proposes it
    // again, and {N2, N3} or more choose it at N2's ballot.
    assert_eq!(cluster.nodes[1].chosen_index(), Slot(1));
    assert_eq!(
        cluster.nodes[1].store().get(&Value::new("x")),
        Some(&Value::new("1"))
    );
    cluster.tick(2, 1);
    cluster.settle_losing(|envelope| touches(&[1], envelope));
    assert_eq!(cluster.nodes[3].chosen_index(), Slot(1));
}

#[test]
fn a_leader_change_waits_with_two_nodes_down() {
    // N1 and N4 down: N2 hears only {N2, N3}, a Phase-2 quorum but not a Phase-1 quorum.
    let cluster = leader_change_with_down(&[4]);
    assert_eq!(cluster.nodes[1].role(), LogRole::Candidate);
    let promised_by = cluster.nodes[1].election().unwrap().promised_by;
    assert_eq!(promised_by, [2, 3].map(node).into_iter().collect());
}

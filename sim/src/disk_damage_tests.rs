//! The sweep of [`crate::disk_damage`] over small log and matchmaker records, and its control.

use crate::disk_damage::{
    Finding, corrupt_as_torn, cut_the_first_write, cut_the_last_log_frame,
    damage_every_matchmaker_frame, flip_every_bit_of_log,
};
use paros_core::log::{Command, DurableRecord, Entry, LogConfig, Slot, SlotVote, Write};
use paros_core::matchmaker::{Configuration, MatchmakerWrite};
use paros_core::{Ballot, NodeId, NodeSet, Quorums, Value};

fn node(id: u8) -> NodeId {
    NodeId::new(id).unwrap()
}

fn ballot(round: u32, owner: u8) -> Ballot {
    Ballot::new(round, node(owner))
}

fn vote(slot: u64, round: u32, value: &str) -> Write {
    let entry = Entry::from(Command {
        client: node(4),
        seq: slot,
        key: Value::new("x"),
        value: Value::new(value),
    });
    Write::Accept(
        Slot(slot),
        SlotVote {
            ballot: ballot(round, 1),
            entry,
        },
    )
}

/// Small records of N2, each ending in a different write: its vote (C2), its promise (C5), a
/// second vote behind a first (a middle vote frame), its chosen mark.
fn log_records() -> Vec<Vec<Write>> {
    let start = vec![Write::Identity(node(2)), Write::Promise(ballot(1, 1))];
    let with = |more: &[Write]| [start.as_slice(), more].concat();
    vec![
        with(&[vote(1, 1, "1")]),
        with(&[vote(1, 1, "1"), Write::Promise(ballot(2, 3))]),
        with(&[
            vote(1, 1, "1"),
            vote(2, 1, "2"),
            Write::ChosenThrough(Slot(1)),
        ]),
        with(&[
            Write::Stood(ballot(2, 2)),
            Write::Incarnation(1),
            vote(1, 1, "1"),
        ]),
    ]
}

fn report(findings: &[Finding]) -> String {
    let shown: Vec<String> = (findings.iter().take(8))
        .map(|found| format!("{}: {}", found.damage, found.broken))
        .collect();
    format!("{} findings, first: {shown:#?}", findings.len())
}

#[test]
fn every_bit_flip_of_a_small_log_record_is_refused_or_read_by_c1_to_c5() {
    let findings: Vec<Vec<Finding>> = (log_records().iter())
        .map(|writes| flip_every_bit_of_log(writes, DurableRecord::recover))
        .collect();
    let counts: Vec<usize> = findings.iter().map(Vec::len).collect();
    assert!(
        findings.iter().all(Vec::is_empty),
        "findings by record: {counts:?}; {}",
        report(&findings.concat())
    );
}

#[test]
fn every_cut_of_a_last_log_frame_is_a_torn_tail_dropped() {
    for writes in log_records() {
        let findings = cut_the_last_log_frame(&writes, DurableRecord::recover);
        assert!(findings.is_empty(), "{writes:?}: {}", report(&findings));
    }
}

#[test]
fn a_first_write_cut_at_any_byte_boots_as_new() {
    let cluster: NodeSet = (1..=3).map(node).collect();
    let findings = cut_the_first_write(node(2), LogConfig::new(cluster));
    assert!(findings.is_empty(), "{}", report(&findings));
}

#[test]
fn every_damage_of_a_small_matchmaker_record_is_refused_or_read_whole() {
    let acceptors = |ids: &[u8]| {
        Configuration::new(Quorums::majority(ids.iter().map(|id| node(*id)).collect()).unwrap())
    };
    let start = vec![
        MatchmakerWrite::Identity(node(11)),
        MatchmakerWrite::Configuration(ballot(1, 1), acceptors(&[1, 2, 3])),
    ];
    let records = [
        start.clone(),
        [
            start.clone(),
            vec![MatchmakerWrite::Configuration(
                ballot(2, 2),
                acceptors(&[4, 5, 6]),
            )],
        ]
        .concat(),
        [start, vec![MatchmakerWrite::Watermark(ballot(1, 1))]].concat(),
    ];
    let findings: Vec<Vec<Finding>> = (records.iter())
        .map(|writes| damage_every_matchmaker_frame(node(11), writes))
        .collect();
    let counts: Vec<usize> = findings.iter().map(Vec::len).collect();
    assert!(
        findings.iter().all(Vec::is_empty),
        "findings by record: {counts:?}; {}",
        report(&findings.concat())
    );
}

#[test]
fn control_a_reader_that_takes_damage_for_a_torn_tail_is_caught() {
    // The sweep's negative control: a reader that ends the record at the first frame that does
    // not read, as if torn, loses the vote it damaged. The sweep must say so, in C2's words.
    let writes = &log_records()[0];
    let findings = flip_every_bit_of_log(writes, corrupt_as_torn);
    assert!(
        findings
            .iter()
            .any(|found| found.broken.starts_with("C2: no vote")),
        "{}",
        report(&findings)
    );
    let promise_last = &log_records()[1];
    let findings = flip_every_bit_of_log(promise_last, corrupt_as_torn);
    assert!(
        findings.iter().any(|found| found.broken.starts_with("C5")),
        "{}",
        report(&findings)
    );
}

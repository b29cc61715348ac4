//! The sweep of [`crate::disk_damage`] over small log and matchmaker records, and its control.

use crate::disk_damage::{
    Finding, corrupt_as_torn, cut_the_first_write, cut_the_last_log_frame,
    damage_every_matchmaker_frame, flip_every_bit_of_log, small_log_records,
    small_matchmaker_records, sweep_small_records,
};
use paros_core::log::{DurableRecord, LogConfig};
use paros_core::{NodeId, NodeSet};

fn node(id: u8) -> NodeId {
    NodeId::new(id).unwrap()
}

fn report(findings: &[Finding]) -> String {
    let shown: Vec<String> = (findings.iter().take(8))
        .map(|found| format!("{}: {}", found.damage, found.broken))
        .collect();
    format!("{} findings, first: {shown:#?}", findings.len())
}

#[test]
fn every_bit_flip_of_a_small_log_record_is_refused_or_read_by_c1_to_c5() {
    let findings: Vec<Vec<Finding>> = (small_log_records().iter())
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
    for writes in small_log_records() {
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
    let records = small_matchmaker_records();
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
fn the_whole_sweep_the_gate_runs_finds_nothing() {
    let findings = sweep_small_records();
    assert!(findings.is_empty(), "{}", report(&findings));
}

#[test]
fn control_a_reader_that_takes_damage_for_a_torn_tail_is_caught() {
    // The sweep's negative control: a reader that ends the record at the first frame that does
    // not read, as if torn, loses the vote it damaged. The sweep must say so, in C2's words.
    let writes = &small_log_records()[0];
    let findings = flip_every_bit_of_log(writes, corrupt_as_torn);
    assert!(
        findings
            .iter()
            .any(|found| found.broken.starts_with("C2: no vote")),
        "{}",
        report(&findings)
    );
    let promise_last = &small_log_records()[1];
    let findings = flip_every_bit_of_log(promise_last, corrupt_as_torn);
    assert!(
        findings.iter().any(|found| found.broken.starts_with("C5")),
        "{}",
        report(&findings)
    );
}

//! Tests of the storage faults (a corrupted record, a wiped disk), the no-none-where-voted
//! checker and its control, and the wiped node's boot refusal, in the worlds of
//! `scenarios_ctrl.rs`.

use super::*;
use crate::check::Property;
use crate::disk_damage::LOG_LABEL_BYTES;
use crate::report::Verdict;
use crate::scenarios::{self, Setup};
use paros_core::log::{BootRefused, LogMessage, RecordError, encode};
use std::collections::BTreeSet;

/// A scenario's world after its prelude.
fn start(name: &str) -> LogWorld {
    scenarios::find(name).unwrap().log_start().unwrap()
}

/// Applies each action as the world describes it, checking it reads back the same.
fn play(world: &mut LogWorld, actions: &[&str]) {
    for text in actions {
        let action = world.parse_action(text).unwrap();
        assert_eq!(world.describe(&action), *text);
        world
            .apply(&action)
            .unwrap_or_else(|why| panic!("{text}: {why}"));
    }
}

/// Delivers the first message in flight from `from` to `to` of `kind`.
fn deliver(world: &mut LogWorld, from: &str, to: &str, kind: &str) {
    let id = world
        .in_flight()
        .iter()
        .find(|message| {
            world.name(message.envelope.from) == from
                && world.name(message.envelope.to) == to
                && message.envelope.message.kind() == kind
        })
        .unwrap_or_else(|| panic!("no {kind} from {from} to {to} in flight"))
        .id;
    world.apply(&LogAction::Deliver(id)).unwrap();
}

fn properties(world: &LogWorld) -> Vec<Property> {
    world
        .violations()
        .iter()
        .map(|found| found.property)
        .collect()
}

/// The entries a Phase-2 quorum voted for in slot 1, judged from every vote cast: one while
/// agreement holds, two once it is broken.
fn values_chosen_in_slot_1(world: &LogWorld) -> BTreeSet<Entry> {
    let quorums = world.config().quorum_system();
    (world.knowledge.votes.iter())
        .filter(|((slot, ..), voters)| {
            *slot == Slot(1) && paros_core::is_chosen_in_slot(&quorums, *slot, **voters)
        })
        .map(|((_, _, entry), _)| entry.clone())
        .collect()
}

/// In the corrupt-as-none world, N2's vote for slot 1 is corrupted and N2 restarts; N3 stands
/// and hears N2's Promise and its own.
fn n3_stands_after_n2_vote_corrupt(control: bool) -> LogWorld {
    let mut world = start("act4-corrupt-as-none-control");
    if !control {
        let mut config = world.config().clone();
        config.negative_control = None;
        world = start("act4-faulty-records");
        assert_eq!(
            world.config(),
            &config,
            "the control differs only by its fault"
        );
    }
    play(&mut world, &["corrupt N2 vote 1", "restart N2", "tick N3"]);
    deliver(&mut world, "N3", "N2", "Prepare");
    world
}

#[test]
fn a_corrupt_vote_is_reported_unknown_and_the_leader_waits_for_a_definite_quorum() {
    // C2 and C3 in the world: N2's Promise says "unknown" for slot 1; {N2, N3} is a Phase-1
    // quorum, but N3 stays a candidate until N1's Promise answers slot 1 definitely, and then
    // proposes x=1 there again.
    let mut world = n3_stands_after_n2_vote_corrupt(false);
    let promise = world
        .in_flight()
        .iter()
        .find(|message| message.envelope.message.kind() == "Promise")
        .unwrap();
    assert!(matches!(
        &promise.envelope.message,
        LogMessage::Promise { votes, unknown, .. } if votes.is_empty() && *unknown == [Slot(1)]
    ));
    let described = world.describe(&LogAction::Deliver(promise.id));
    assert!(
        described.ends_with("Promise(1.N3, [], unknown [1])"),
        "{described}"
    );
    deliver(&mut world, "N2", "N3", "Promise");
    let n3 = world.servers()[2].host.node().unwrap();
    assert_eq!(
        n3.role(),
        paros_core::log::LogRole::Candidate,
        "no definite quorum yet"
    );
    deliver(&mut world, "N3", "N1", "Prepare");
    deliver(&mut world, "N1", "N3", "Promise");
    let n3 = world.servers()[2].host.node().unwrap();
    assert!(
        matches!(&n3.proposals()[&Slot(1)].entry, Entry::Command(command) if command.value.as_str() == "1"),
        "x=1 is proposed again in slot 1"
    );
    deliver(&mut world, "N3", "N2", "Accept");
    assert!(
        world.servers()[1]
            .host
            .node()
            .unwrap()
            .unknown_votes()
            .is_empty(),
        "N2's vote is readable again"
    );
    assert!(world.violations().is_empty(), "{:?}", world.violations());
}

#[test]
fn the_corrupt_as_none_control_trips_no_none_where_voted_then_chooses_two_values() {
    let mut world = n3_stands_after_n2_vote_corrupt(true);
    deliver(&mut world, "N2", "N3", "Promise");
    assert_eq!(properties(&world), [Property::NoNoneWhereVoted]);
    // Played on: N3 leads over {N2, N3} with nothing to recover, so slot 1 is free to it; C1's
    // x=2 goes there, and {N2, N3} choose it where {N1, N2} chose x=1.
    let n3 = world.servers()[2].host.node().unwrap();
    assert_eq!(n3.role(), paros_core::log::LogRole::Leader);
    assert!(
        n3.proposals().is_empty(),
        "no slot to recover: {:?}",
        n3.proposals()
    );
    deliver(&mut world, "N1", "C1", "Reply");
    play(&mut world, &["request C1 N3 write x=2"]);
    deliver(&mut world, "C1", "N3", "Write");
    deliver(&mut world, "N3", "N2", "Accept");
    deliver(&mut world, "N2", "N3", "Accepted");
    assert!(
        properties(&world).contains(&Property::Agreement),
        "{:?}",
        world.violations()
    );
    let chosen: Vec<String> = values_chosen_in_slot_1(&world)
        .iter()
        .map(|entry| world.entry_name(entry))
        .collect();
    assert_eq!(
        chosen,
        ["x=1 (C1#1)", "x=2 (C1#2)"],
        "two values chosen in slot 1"
    );
}

#[test]
fn the_explorer_finds_the_control_and_passes_the_same_world_without_it() {
    let control = crate::book::report_for("act4-corrupt-as-none-control").unwrap();
    assert_eq!(control.verdict, Verdict::Violation);
    assert!(
        control
            .violations
            .iter()
            .all(|found| found.starts_with("no-none-where-voted")),
        "{:?}",
        control.violations
    );
    let honest = crate::book::report_for("act4-faulty-records").unwrap();
    assert_eq!(honest.verdict, Verdict::Pass, "{:?}", honest.violations);
    assert_eq!(honest.states, 5_421_539, "pinned");
}

#[test]
fn a_corrupt_promise_or_a_wiped_disk_refuses_the_boot_and_the_node_stays_down() {
    // C5 and the wiped node: a restart is refused with the library's reason, and is not enabled.
    let mut world = start("act4-faulty-records");
    play(&mut world, &["corrupt N2 promise"]);
    let n2 = world.config().node_id(1);
    assert!(!world.enabled().contains(&LogAction::Restart(n2)));
    let refused = world.clone().apply(&LogAction::Restart(n2));
    assert!(
        matches!(
            refused,
            Err(Refused::Boot(BootRefused::Unreadable(
                RecordError::CorruptPromise { .. }
            )))
        ),
        "{refused:?}"
    );
    let mut wiped = start("act4-the-wiped-node");
    assert!(!wiped.enabled().contains(&LogAction::Restart(n2)));
    assert_eq!(
        wiped.apply(&LogAction::Restart(n2)),
        Err(Refused::Boot(BootRefused::Missing))
    );
    assert!(
        Refused::Boot(BootRefused::Missing)
            .to_string()
            .contains("refusing to boot a wiped node")
    );
}

#[test]
fn the_survivors_keep_deciding_without_the_wiped_node() {
    let world = start("act4-the-wiped-node");
    let settled = world.settle(400).unwrap();
    assert!(settled.decided, "stuck: {:?}", settled.stuck);
    assert!(settled.violations.is_empty(), "{:?}", settled.violations);
    let replayed = LogWorld::replay(world.config().clone(), &[]).unwrap();
    assert!(
        replayed.servers()[1].host.is_up(),
        "a fresh world boots every node"
    );
    let report = crate::book::report_for("act4-the-wiped-node").unwrap();
    assert_eq!(report.verdict, Verdict::Pass);
}

#[test]
fn the_blank_restart_control_is_reached_through_a_wipe() {
    let report = crate::book::report_for("act2-blank-restart-control").unwrap();
    assert_eq!(report.verdict, Verdict::Violation);
    let counterexample = report.counterexample.join("\n");
    assert!(
        counterexample.contains("wipe N2\n") && counterexample.contains("restart N2"),
        "{counterexample}"
    );
    assert!(
        report
            .violations
            .iter()
            .all(|found| found.starts_with("agreement")),
        "{:?}",
        report.violations
    );
}

#[test]
fn storage_faults_print_parse_and_replay_to_the_same_fingerprint() {
    let world = start("act4-faulty-records");
    let n2 = world.config().node_id(1);
    let corrupt = LogAction::CorruptRecord {
        node: n2,
        record: DiskRecord::Vote(Slot(1)),
    };
    for action in [corrupt, LogAction::WipeDisk(n2)] {
        assert_eq!(world.parse_action(&world.describe(&action)), Ok(action));
        assert_eq!(world.parse_action(&action.to_string()), Ok(action));
    }
    assert!(world.enabled().contains(&corrupt));
    assert!(
        !world.enabled().contains(&LogAction::WipeDisk(n2)),
        "no wipe budget in this world"
    );
    let scenario = scenarios::find("act4-faulty-records").unwrap();
    let mut actions: Vec<LogAction> = Vec::new();
    let mut played = LogWorld::new(world.config().clone()).unwrap();
    let Setup::Log { prelude, .. } = &scenario.setup else {
        unreachable!()
    };
    let then = ["corrupt N2 vote 1", "restart N2", "tick N3"];
    for text in prelude.iter().chain(&then) {
        let action = played.parse_action(text).unwrap();
        played.apply(&action).unwrap();
        actions.push(action);
    }
    let replayed = LogWorld::replay(world.config().clone(), &actions).unwrap();
    assert_eq!(replayed.fingerprint(), played.fingerprint());
    assert_eq!(replayed.fingerprint(), replayed.fingerprint_from_scratch());
    let mut other = LogWorld::new(world.config().clone()).unwrap();
    for action in &actions[..actions.len() - 3] {
        other.apply(action).unwrap();
    }
    other.apply(&LogAction::Restart(n2)).unwrap();
    other
        .apply(&LogAction::Tick(world.config().node_id(2)))
        .unwrap();
    assert_ne!(
        other.fingerprint(),
        played.fingerprint(),
        "a corrupted record is in the fingerprint"
    );
}

#[test]
fn every_storage_fault_at_once_breaks_nothing_and_every_walk_settles() {
    // Five nodes: a wiped node and a node unsure of a vote still leave three that boot and
    // answer definitely, a discovery quorum (C3).
    let scenario = scenarios::find("act4-storage-faults").unwrap();
    let start = scenario.log_start().unwrap();
    let mut faults = BTreeSet::new();
    for seed in 0..100 {
        let walk = crate::simulate::walk(&start, seed, 3_000).unwrap();
        assert!(
            walk.violations.is_empty(),
            "seed {seed}: {:?}",
            walk.violations
        );
        faults.extend(walk.faults.keys().copied());
        assert_eq!(
            walk.settled.map(|(decided, _)| decided),
            Some(true),
            "seed {seed}"
        );
    }
    for kind in ["crash", "torn write", "corrupt record", "wipe"] {
        assert!(faults.contains(kind), "no walk injected a {kind}");
    }
}

#[test]
fn the_explorers_counterexample_played_on_chooses_two_values() {
    // The shortest counterexample has N2 stand itself after its restart, its own Promise saying
    // "no vote" in slot 1. Played on: N3 promises, and N2 leads with nothing to recover; slot 1,
    // where N2 is unsure of its vote, is its own stale tail, so it fills it with a no-op
    // (`leader_fills_its_own_stale_tail`), and {N2, N3} choose it where {N1, N2} chose x=1.
    let report = crate::book::report_for("act4-corrupt-as-none-control").unwrap();
    let config = start("act4-corrupt-as-none-control").config().clone();
    let mut world = LogWorld::new(config).unwrap();
    let steps: Vec<&str> = report.counterexample.iter().map(String::as_str).collect();
    play(&mut world, &steps);
    assert_eq!(properties(&world), [Property::NoNoneWhereVoted]);
    deliver(&mut world, "N2", "N3", "Prepare");
    deliver(&mut world, "N3", "N2", "Promise");
    let n2 = world.servers()[1].host.node().unwrap();
    assert_eq!(n2.role(), paros_core::log::LogRole::Leader);
    deliver(&mut world, "N2", "N3", "Accept");
    deliver(&mut world, "N3", "N2", "Accepted");
    let chosen: Vec<String> = values_chosen_in_slot_1(&world)
        .iter()
        .map(|entry| world.entry_name(entry))
        .collect();
    assert_eq!(
        chosen,
        ["no-op", "x=1 (C1#1)"],
        "two values chosen in slot 1"
    );
    assert!(properties(&world).contains(&Property::Agreement));
}

/// Delivers messages and lets C1 ask N3, for at most 200 steps or until nothing is left to do:
/// no fault, no tick. (Unsure of slot 1, N3 is never elected, and C1 keeps asking it.)
fn run_quietly(world: &mut LogWorld) {
    let n3 = world.config().node_id(2);
    for _ in 0..200 {
        let next = world.enabled().into_iter().find(|action| {
            matches!(action, LogAction::Deliver(_))
                || matches!(action, LogAction::Request { node, .. } if *node == n3)
                    && world.fault_kind(action).is_none()
        });
        let Some(action) = next else {
            return;
        };
        world.apply(&action).unwrap();
    }
}

#[test]
fn a_flipped_length_of_n2s_last_vote_never_lets_n2_and_n3_choose_x2() {
    // x=1 is chosen by {N1, N2}; one bit of the length of N2's last frame, its vote in slot 1,
    // flips while it is down; N1 is cut off, N3 stands and N2 answers. A length flip that reads
    // as a torn tail drops the vote: N2 promises "no vote", N3 leads with {N2, N3} and x=2 is
    // chosen in slot 1. Read as it must be, the vote is unknown and no leader is elected.
    let mut world = start("act4-any-bit-flipped");
    let vote = world.servers()[1].disk.len() - 1;
    let flip = format!("flip N2 frame {vote} bit {}", 8 * LOG_LABEL_BYTES);
    play(&mut world, &[&flip, "restart N2", "tick N3"]);
    run_quietly(&mut world);
    let chosen: Vec<String> = values_chosen_in_slot_1(&world)
        .iter()
        .map(|entry| world.entry_name(entry))
        .collect();
    assert_eq!(chosen, ["x=1 (C1#1)"], "{:?}", world.violations());
    assert!(world.violations().is_empty(), "{:?}", world.violations());
}

#[test]
fn bit_level_storage_faults_print_parse_and_are_enabled() {
    let mut world = start("act4-any-bit-flipped");
    let n2 = world.config().node_id(1);
    let disk = &world.servers()[1].disk;
    let bits: usize = disk.iter().map(|frame| frame.len() * 8).sum();
    let flips = (world.enabled().iter())
        .filter(|action| matches!(action, LogAction::FlipBit { .. }))
        .count();
    assert_eq!(flips, bits, "every bit of every frame");
    let flip = LogAction::FlipBit {
        node: n2,
        frame: 2,
        bit: 140,
    };
    let torn = LogAction::TornCrashAt { node: n2, kept: 7 };
    for action in [flip, torn] {
        assert_eq!(world.parse_action(&world.describe(&action)), Ok(action));
        assert_eq!(world.parse_action(&action.to_string()), Ok(action));
    }
    let before = world.servers()[1].disk[2].clone();
    world.apply(&flip).unwrap();
    let after = &world.servers()[1].disk[2];
    assert_eq!(
        before[17] ^ after[17],
        1 << 4,
        "bit 140 is bit 4 of byte 17"
    );
    assert!(
        (world.enabled().iter()).all(|action| !matches!(action, LogAction::FlipBit { .. })),
        "one flip in the budget"
    );
}

#[test]
fn a_torn_write_may_cut_its_frame_at_any_byte() {
    let scenario = scenarios::find("act4-storage-faults").unwrap();
    let mut world = scenario.log_start().unwrap();
    play(&mut world, &["tick N1"]);
    let cuts: Vec<u16> = (world.enabled().iter())
        .filter_map(|action| match action {
            LogAction::TornCrashAt { kept, .. } => Some(*kept),
            _ => None,
        })
        .collect();
    let held = world.servers()[0].held.as_ref().unwrap();
    let last = encode(held.writes().last().unwrap());
    assert_eq!(cuts, (0..last.len() as u16).collect::<Vec<_>>());
    play(&mut world, &["torn-crash N1 at byte 0"]);
    assert_eq!(world.servers()[0].disk.last(), Some(&Vec::new()));
}

#[test]
fn a_torn_write_restarts_with_its_tail_dropped_and_breaks_nothing() {
    let scenario = scenarios::find("act4-storage-faults").unwrap();
    let mut world = scenario.log_start().unwrap();
    play(
        &mut world,
        &["tick N1", "torn-crash N1 at byte 30", "restart N1"],
    );
    assert!(world.violations().is_empty(), "{:?}", world.violations());
}

#[test]
fn a_whole_frame_read_as_torn_breaks_torn_only_if_cut() {
    // The planted failure: a disk that loses the end of a write it reported durable. N2's last
    // frame, its vote in slot 1, reached the disk whole; cut short now, recovery reads it as a
    // torn tail and drops the vote, and the restart is judged for it.
    let mut world = start("act4-any-bit-flipped");
    let server = Arc::make_mut(&mut world.servers[1]);
    server.disk.last_mut().unwrap().pop();
    play(&mut world, &["restart N2"]);
    assert_eq!(properties(&world), [Property::TornOnlyIfCut]);
}

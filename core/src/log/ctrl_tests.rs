//! Tests of faulty records (CTRL, Alagappan et al., FAST 2018, C1–C5) and of the wiped node
//! (Paxos Made Live, section 5.1): three answers from storage, unknown is never "no vote",
//! recovery over definite answers only, repair from a chosen copy, and boot refusal.

use super::tests::{Cluster, node};
use crate::Ballot;
use crate::log::{
    BootRefused, ColocatedNode, DurableRecord, Entry, FrameError, FrameRead, LogConfig,
    LogEnvelope, LogMessage, LogRole, Provisioning, RecordError, RecordLabel, Slot, SlotVote,
    Write, check_header, encode, read_frame,
};
use std::collections::BTreeSet;

/// The byte of a frame flipped to corrupt it: inside its payload, past the label (17 bytes)
/// and the payload's header (20 bytes).
const PAYLOAD_BYTE: usize = 17 + 20 + 1;

/// Flips a payload byte of the last frame on `frames` whose label is `label`.
fn corrupt_last(frames: &mut [Vec<u8>], label: RecordLabel) {
    let frame = frames
        .iter_mut()
        .rev()
        .find(|frame| read_frame(frame).is_ok_and(|write| RecordLabel::of(&write) == label))
        .expect("a frame with that label");
    frame[PAYLOAD_BYTE] ^= 0x40;
}

/// x=1 is chosen in slot 1 by {N1, N2} at 1.N1 and learned by N1; N3 heard nothing after its
/// promise. Then N2's vote frame for slot 1 is corrupted while it is down.
fn x1_chosen_then_n2_vote_corrupt() -> (Cluster, Vec<Vec<u8>>) {
    let mut cluster = Cluster::new();
    cluster.elect(1);
    cluster.write(1, 1, "x", "1");
    cluster.settle_losing(|envelope| envelope.to == node(3) || envelope.from == node(3));
    assert_eq!(cluster.nodes[0].chosen_index(), Slot(1), "N1 learned x=1");
    let mut frames = cluster.frames[1].clone();
    corrupt_last(&mut frames, RecordLabel::Vote(Slot(1)));
    (cluster, frames)
}

fn config() -> LogConfig {
    LogConfig::new([1, 2, 3].map(node).into_iter().collect())
}

fn boot(id: u8, frames: &[Vec<u8>]) -> Result<ColocatedNode, BootRefused> {
    ColocatedNode::boot(node(id), config(), Provisioning::Provisioned, frames)
        .map(|booted| booted.node)
}

fn noop_vote(round: u32) -> SlotVote {
    SlotVote {
        ballot: Ballot::new(round, node(1)),
        entry: Entry::Noop,
    }
}

#[test]
fn storage_gives_three_answers_absent_torn_and_corrupt() {
    // C1: a slot never written is absent; a torn tail is dropped; a corrupt vote is unknown.
    let writes = [
        Write::Identity(node(2)),
        Write::Promise(Ballot::new(2, node(1))),
        Write::Accept(Slot(1), noop_vote(1)),
        Write::Accept(Slot(2), noop_vote(2)),
        Write::ChosenThrough(Slot(1)),
    ];
    let mut frames: Vec<Vec<u8>> = writes.iter().map(encode).collect();
    frames[2][PAYLOAD_BYTE] ^= 0x40;
    assert_eq!(
        read_frame(&frames[2]),
        Err(FrameRead::Corrupt {
            label: Some(RecordLabel::Vote(Slot(1))),
            reason: "checksum does not match"
        })
    );
    let last = frames.last_mut().unwrap();
    last.truncate(last.len() - 3);
    let (record, torn) = DurableRecord::recover(&frames).unwrap();
    assert_eq!(torn, 1, "the torn tail is dropped");
    assert_eq!(
        record.chosen_through,
        Slot(0),
        "the torn write never happened"
    );
    assert!(record.unknown_votes.contains(&Slot(1)), "slot 1 is unknown");
    assert!(
        !record.accepts.contains_key(&Slot(1)),
        "unknown is not a vote"
    );
    assert_eq!(
        record.accepts.get(&Slot(2)),
        Some(&noop_vote(2)),
        "slot 2 reads"
    );
    assert!(!record.unknown_votes.contains(&Slot(3)), "slot 3 is absent");
}

#[test]
fn a_later_readable_vote_supersedes_a_corrupt_one_and_a_corrupt_label_is_unreadable() {
    let writes = [
        Write::Identity(node(2)),
        Write::Promise(Ballot::new(2, node(1))),
        Write::Accept(Slot(1), noop_vote(1)),
        Write::Accept(Slot(1), noop_vote(2)),
    ];
    let mut frames: Vec<Vec<u8>> = writes.iter().map(encode).collect();
    frames[2][PAYLOAD_BYTE] ^= 0x40;
    let (record, _) = DurableRecord::recover(&frames).unwrap();
    assert!(record.unknown_votes.is_empty());
    assert_eq!(record.accepts.get(&Slot(1)), Some(&noop_vote(2)));
    // A label that fails its own checksum says nothing of which record it was.
    frames[3][1] ^= 0x01;
    assert_eq!(
        DurableRecord::recover(&frames),
        Err(RecordError::Corrupt {
            index: 3,
            reason: "label checksum does not match"
        })
    );
}

#[test]
fn a_restarted_node_reports_a_corrupt_vote_as_unknown_never_as_no_vote() {
    // C2.
    let (_, frames) = x1_chosen_then_n2_vote_corrupt();
    let mut n2 = boot(2, &frames).expect("a corrupt vote does not refuse the boot");
    assert!(n2.unknown_votes().contains(&Slot(1)));
    assert_eq!(
        n2.chosen_index(),
        Slot(0),
        "the chosen prefix stops below slot 1"
    );
    let _ = n2.take_ready();
    let prepare = LogEnvelope {
        from: node(3),
        to: node(2),
        message: LogMessage::Prepare {
            ballot: Ballot::new(2, node(3)),
            from_slot: Slot(1),
        },
    };
    n2.handle(&prepare).unwrap();
    let ready = n2.take_ready();
    let promise = ready
        .pending_messages()
        .iter()
        .find(|envelope| matches!(envelope.message, LogMessage::Promise { .. }))
        .expect("a Promise");
    let LogMessage::Promise { votes, unknown, .. } = &promise.message else {
        unreachable!()
    };
    assert!(votes.is_empty(), "no vote is read back for slot 1");
    assert_eq!(unknown, &vec![Slot(1)], "slot 1 is reported unknown");
}

#[cfg(feature = "negative-controls")]
#[test]
fn the_corrupt_as_none_control_reports_no_vote() {
    let (_, frames) = x1_chosen_then_n2_vote_corrupt();
    let mut n2 = boot(2, &frames).unwrap();
    n2.break_rule(crate::log::BrokenRule::CorruptAsNone);
    let _ = n2.take_ready();
    let prepare = LogEnvelope {
        from: node(3),
        to: node(2),
        message: LogMessage::Prepare {
            ballot: Ballot::new(2, node(3)),
            from_slot: Slot(1),
        },
    };
    n2.handle(&prepare).unwrap();
    let ready = n2.take_ready();
    assert!(ready.pending_messages().iter().any(|envelope| matches!(
        &envelope.message,
        LogMessage::Promise { votes, unknown, .. } if votes.is_empty() && unknown.is_empty()
    )));
}

/// N2 restarted with slot 1 unknown; N3 stands at 2.N3. Messages between N1 and N3 are held
/// until `release_n1`; the rest are delivered.
fn n3_stands_with_n1_held() -> Cluster {
    let (mut cluster, frames) = x1_chosen_then_n2_vote_corrupt();
    cluster.network.clear();
    cluster.nodes[1] = boot(2, &frames).unwrap();
    cluster.frames[1] = frames;
    cluster.flush(1);
    cluster.tick(3, config().election_timeout_ticks);
    assert_eq!(cluster.nodes[2].role(), LogRole::Candidate);
    cluster
}

fn between_n1_and_n3(envelope: &LogEnvelope) -> bool {
    [envelope.from, envelope.to] == [node(1), node(3)]
        || [envelope.from, envelope.to] == [node(3), node(1)]
}

#[test]
fn an_unknown_does_not_complete_a_discovery_quorum_and_the_chosen_value_is_recovered() {
    // C3: {N2, N3} promised, but N2's answer for slot 1 is unknown: {N3} alone is no Phase-1
    // quorum, so N3 waits. N1's Promise completes it, and x=1 is proposed again, not a no-op.
    let mut cluster = n3_stands_with_n1_held();
    let mut held = Vec::new();
    cluster.settle_losing(|envelope| {
        let hold = between_n1_and_n3(envelope);
        if hold {
            held.push(envelope.clone());
        }
        hold
    });
    let election = cluster.nodes[2].election().expect("still a candidate");
    assert_eq!(election.promised_by.len(), 2, "N2 and N3 promised");
    assert!(
        crate::log::heard_from_a_discovery_quorum(cluster.nodes[2].quorums(), election.promised_by),
        "a Phase-1 quorum promised"
    );
    assert!(!crate::log::phase1_complete(
        cluster.nodes[2].quorums(),
        election
    ));
    cluster.network.extend(held);
    cluster.settle();
    assert_eq!(cluster.nodes[2].role(), LogRole::Leader);
    cluster.tick(3, 1); // a heartbeat carries the commit index
    cluster.settle();
    for index in 0..3 {
        let chosen = &cluster.nodes[index].chosen()[&Slot(1)].entry;
        assert!(
            matches!(chosen, Entry::Command(command) if command.value.as_str() == "1"),
            "N{} holds x=1 in slot 1, not {chosen}",
            index + 1
        );
    }
    assert!(
        cluster.nodes[1].unknown_votes().is_empty(),
        "N2's slot 1 is repaired"
    );
}

#[test]
fn an_unknown_slot_is_repaired_only_from_a_chosen_copy() {
    // C4: a heartbeat's commit index names no value, so it repairs nothing; the leader's
    // Chosen catch-up does, writing the chosen entry readable again.
    let (cluster, frames) = x1_chosen_then_n2_vote_corrupt();
    let mut n2 = boot(2, &frames).unwrap();
    let _ = n2.take_ready();
    let heartbeat = LogEnvelope {
        from: node(1),
        to: node(2),
        message: LogMessage::Heartbeat {
            ballot: Ballot::new(1, node(1)),
            commit: Slot(1),
        },
    };
    n2.handle(&heartbeat).unwrap();
    assert!(n2.unknown_votes().contains(&Slot(1)), "still unknown");
    assert!(n2.take_ready().writes().is_empty(), "nothing written");
    let chosen = cluster.nodes[0].chosen()[&Slot(1)].clone();
    let catch_up = LogEnvelope {
        from: node(1),
        to: node(2),
        message: LogMessage::Chosen {
            entries: vec![(Slot(1), chosen.clone())],
        },
    };
    n2.handle(&catch_up).unwrap();
    assert!(n2.unknown_votes().is_empty());
    assert_eq!(n2.accepts().get(&Slot(1)), Some(&chosen));
    assert_eq!(n2.chosen_index(), Slot(1));
    let writes = n2.take_ready().writes().to_vec();
    assert!(writes.contains(&Write::Accept(Slot(1), chosen)));
    let mut repaired = frames;
    repaired.extend(writes.iter().map(encode));
    let (record, _) = DurableRecord::recover(&repaired).unwrap();
    assert!(record.unknown_votes.is_empty(), "a restart reads it back");
}

#[test]
fn a_corrupt_promise_makes_a_wiped_node_and_boot_refuses_it() {
    // C5.
    let (cluster, _) = x1_chosen_then_n2_vote_corrupt();
    let mut frames = cluster.frames[1].clone();
    corrupt_last(&mut frames, RecordLabel::Promise);
    let Err(BootRefused::Unreadable(RecordError::CorruptPromise { index })) = boot(2, &frames)
    else {
        panic!("a corrupt promise must refuse the boot");
    };
    assert_eq!(
        read_frame(&frames[index])
            .err()
            .and_then(|error| match error {
                FrameRead::Corrupt { label, .. } => label,
                FrameRead::Torn(_) => None,
            }),
        Some(RecordLabel::Promise)
    );
    assert!(
        BootRefused::Unreadable(RecordError::CorruptPromise { index })
            .to_string()
            .contains("no longer knows what it promised")
    );
}

#[test]
fn fresh_and_wiped_are_told_apart_by_the_configuration_not_the_disk() {
    let empty: Vec<Vec<u8>> = Vec::new();
    let mut fresh = ColocatedNode::boot(node(2), config(), Provisioning::Fresh, &empty).unwrap();
    assert_eq!(fresh.node.take_ready().writes(), [Write::Identity(node(2))]);
    assert_eq!(boot(2, &empty).err(), Some(BootRefused::Missing));
    assert!(
        BootRefused::Missing.to_string().contains("wiped"),
        "the refusal says why"
    );
    let (cluster, _) = x1_chosen_then_n2_vote_corrupt();
    let written = &cluster.frames[1];
    assert_eq!(
        ColocatedNode::boot(node(2), config(), Provisioning::Fresh, written).err(),
        Some(BootRefused::FreshDiskNotEmpty)
    );
    let restarted = boot(2, written).expect("a readable record boots");
    assert_eq!(restarted.accepts(), cluster.nodes[1].accepts());
    assert_eq!(
        boot(3, written).err(),
        Some(BootRefused::Unreadable(RecordError::WrongIdentity {
            expected: node(3),
            found: node(2)
        }))
    );
}

#[test]
fn a_node_whose_first_write_tore_boots_as_new_whatever_the_configuration_says() {
    // A disk whose only frame is a cut-short identity never finished its first write: the node
    // never promised or voted, so it boots as new, and the torn frame is counted to be dropped.
    let identity = encode(&Write::Identity(node(2)));
    for kept in 0..identity.len() {
        let torn = vec![identity[..kept].to_vec()];
        for provisioning in [Provisioning::Fresh, Provisioning::Provisioned] {
            let mut booted = ColocatedNode::boot(node(2), config(), provisioning, &torn)
                .unwrap_or_else(|refused| panic!("cut at {kept}, {provisioning:?}: {refused}"));
            assert_eq!(booted.torn, 1);
            assert_eq!(
                booted.node.take_ready().writes(),
                [Write::Identity(node(2))]
            );
        }
    }
    // Only this node's own identity, cut short, is such a disk: another node's, or a whole
    // frame, is not.
    let other = encode(&Write::Identity(node(3)));
    assert_eq!(
        boot(2, &[other[..other.len() - 1].to_vec()]).err(),
        Some(BootRefused::Missing)
    );
    assert_eq!(
        ColocatedNode::boot(node(2), config(), Provisioning::Fresh, &[identity]).err(),
        Some(BootRefused::FreshDiskNotEmpty)
    );
}

#[test]
fn a_booted_node_releases_its_messages_only_with_the_proof_of_its_writes() {
    // Persisted stays unforgeable: booting mints no proof; the first Ready's incarnation must
    // be persisted first.
    let (cluster, _) = x1_chosen_then_n2_vote_corrupt();
    let mut booted = boot(2, &cluster.frames[1]).unwrap();
    let ready = booted.take_ready();
    assert!(matches!(ready.writes(), [Write::Incarnation(1)]));
    assert!(
        !crate::log::Persisted::nothing().proves(ready.writes()),
        "no proof but persist's releases them"
    );
    let mut record = DurableRecord::default();
    let proof = record.persist(ready.writes());
    assert!(proof.proves(ready.writes()));
    let _messages = ready.into_messages(proof);
}

mod robustness {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn no_disk_panics_a_boot(
            frames in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..48), 0..6),
            flips in proptest::collection::vec((0usize..6, 0usize..64), 0..3),
        ) {
            // Arbitrary bytes, and real frames with bytes flipped: a boot answers with a node or
            // a typed refusal, never a panic.
            let _ = boot(2, &frames);
            let (cluster, _) = x1_chosen_then_n2_vote_corrupt();
            let mut real = cluster.frames[1].clone();
            for (frame, byte) in flips {
                let frame = frame % real.len();
                let byte = byte % real[frame].len();
                real[frame][byte] ^= 0x5a;
            }
            if let Ok(node) = boot(2, &real) {
                prop_assert!(node.accepts().keys().all(|slot| !node.unknown_votes().contains(slot)));
            }
        }
    }
}

/// The bits of a log frame's payload length: past the label (17 bytes), 4 bytes.
const LENGTH_BITS: std::ops::Range<usize> = 17 * 8..21 * 8;

/// `writes` on a disk, with bit `bit` of frame `index` flipped.
fn flipped_disk(writes: &[Write], index: usize, bit: usize) -> Vec<Vec<u8>> {
    let mut frames: Vec<Vec<u8>> = writes.iter().map(encode).collect();
    frames[index][bit / 8] ^= 1 << (bit % 8);
    frames
}

fn vote_in(slot: u64) -> Write {
    Write::Accept(Slot(slot), noop_vote(1))
}

#[test]
fn a_damaged_length_of_the_last_vote_frame_is_an_unknown_vote_never_a_torn_tail() {
    // A flip that raised the declared length made a whole frame read as cut short, and the
    // vote was dropped as a torn write: "no vote" where the node voted (C2).
    let writes = [
        Write::Identity(node(2)),
        Write::Promise(Ballot::new(1, node(1))),
        vote_in(1),
    ];
    for bit in LENGTH_BITS {
        let (record, torn) = DurableRecord::recover(&flipped_disk(&writes, 2, bit))
            .unwrap_or_else(|error| panic!("bit {bit}: {error}"));
        assert_eq!(torn, 0, "bit {bit}: a whole frame is never torn");
        assert_eq!(record.unknown_votes, BTreeSet::from([Slot(1)]), "bit {bit}");
    }
}

#[test]
fn a_damaged_length_of_the_last_promise_frame_refuses_the_boot() {
    // C5: the promise frame with a flipped length is corrupt, not a torn tail that would leave
    // the node booting with its earlier, lower promise.
    let writes = [
        Write::Identity(node(2)),
        Write::Promise(Ballot::new(1, node(1))),
        Write::Promise(Ballot::new(2, node(3))),
    ];
    for bit in LENGTH_BITS {
        let frames = flipped_disk(&writes, 2, bit);
        assert_eq!(
            DurableRecord::recover(&frames),
            Err(RecordError::CorruptPromise { index: 2 }),
            "bit {bit}"
        );
        assert!(boot(2, &frames).is_err(), "bit {bit}");
    }
}

#[test]
fn a_damaged_length_of_a_middle_vote_frame_makes_only_its_slot_unknown() {
    // C2: the label still says slot 1, so only that vote is unknown; the record is not refused.
    let writes = [
        Write::Identity(node(2)),
        Write::Promise(Ballot::new(1, node(1))),
        vote_in(1),
        vote_in(2),
        Write::ChosenThrough(Slot(1)),
    ];
    for bit in LENGTH_BITS {
        let (record, torn) = DurableRecord::recover(&flipped_disk(&writes, 2, bit))
            .unwrap_or_else(|error| panic!("bit {bit}: {error}"));
        assert_eq!(torn, 0);
        assert_eq!(record.unknown_votes, BTreeSet::from([Slot(1)]), "bit {bit}");
        assert_eq!(record.accepts.get(&Slot(2)), Some(&noop_vote(1)));
        assert_eq!(record.chosen_through, Slot(1));
        assert!(boot(2, &flipped_disk(&writes, 2, bit)).is_ok(), "bit {bit}");
    }
}

#[test]
fn a_frame_is_torn_only_by_a_length_whose_checksum_holds() {
    // The torn-write rule: a cut anywhere is torn; a whole frame with a damaged length, header
    // or payload is corrupt.
    let frame = encode(&vote_in(1));
    let framed = &frame[17..];
    for kept in 0..framed.len() {
        assert!(
            matches!(check_header(&framed[..kept]), Err(FrameError::Torn(_)))
                || check_header(&framed[..kept])
                    .is_ok_and(|header| header.payload.len() < header.length),
            "cut at {kept}"
        );
    }
    let header = check_header(framed).unwrap();
    assert_eq!(header.length, header.payload.len());
    for bit in 0..32 {
        let mut damaged = framed.to_vec();
        damaged[bit / 8] ^= 1 << (bit % 8);
        assert_eq!(
            check_header(&damaged),
            Err(FrameError::Corrupt("length checksum does not match"))
        );
    }
}

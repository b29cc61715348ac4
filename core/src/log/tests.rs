//! Tests of the replicated log, driven by a small in-memory cluster; each names the rule it
//! checks.

use crate::log::{
    ColocatedNode, DurableRecord, Entry, FrameError, LogConfig, LogEnvelope, LogMessage, LogRole,
    Outcome, RecordError, Slot, SlotVote, Write, decode, encode,
};
use crate::{Ballot, NodeId, NodeSet, Value};
use std::collections::VecDeque;

pub(super) fn node(id: u8) -> NodeId {
    NodeId::new(id).unwrap()
}

pub(super) const CLIENT: u8 = 9;

/// Three nodes, their disks, a FIFO network, and the client's inbox.
pub(super) struct Cluster {
    pub(super) nodes: Vec<ColocatedNode>,
    pub(super) disks: Vec<DurableRecord>,
    /// Each node's disk as framed writes, oldest first, as [`Cluster::flush`] persists them.
    pub(super) frames: Vec<Vec<Vec<u8>>>,
    pub(super) network: VecDeque<LogEnvelope>,
    pub(super) client_inbox: Vec<(u64, Outcome)>,
}

impl Cluster {
    pub(super) fn new() -> Cluster {
        Cluster::of(LogConfig::new([1, 2, 3].map(node).into_iter().collect()))
    }

    /// A cluster of `config`'s nodes, N1..Nn.
    pub(super) fn of(config: LogConfig) -> Cluster {
        let count = config.nodes.len();
        let mut cluster = Cluster {
            nodes: config
                .nodes
                .iter()
                .map(|id| ColocatedNode::new(id, config))
                .collect(),
            disks: vec![DurableRecord::default(); count],
            frames: vec![Vec::new(); count],
            network: VecDeque::new(),
            client_inbox: Vec::new(),
        };
        for index in 0..count {
            cluster.flush(index);
        }
        cluster
    }

    /// Persist, then send: the only order `Ready` allows.
    pub(super) fn flush(&mut self, index: usize) {
        let ready = self.nodes[index].take_ready();
        self.frames[index].extend(ready.writes().iter().map(encode));
        let proof = self.disks[index].persist(ready.writes());
        self.network.extend(ready.into_messages(proof));
    }

    pub(super) fn tick(&mut self, id: u8, times: u32) {
        for _ in 0..times {
            let index = usize::from(id - 1);
            self.nodes[index].tick();
            self.flush(index);
        }
    }

    /// Delivers every message in flight, except those `lose` picks, until none is left.
    pub(super) fn settle_losing(&mut self, mut lose: impl FnMut(&LogEnvelope) -> bool) {
        while let Some(envelope) = self.network.pop_front() {
            if lose(&envelope) {
                continue;
            }
            if envelope.to == node(CLIENT) {
                if let LogMessage::Reply { seq, outcome } = envelope.message {
                    self.client_inbox.push((seq, outcome));
                }
                continue;
            }
            let index = usize::from(envelope.to.get() - 1);
            let _ignored = self.nodes[index].handle(&envelope);
            self.flush(index);
        }
    }

    pub(super) fn settle(&mut self) {
        self.settle_losing(|_| false);
    }

    pub(super) fn client_sends(&mut self, to: u8, message: LogMessage) {
        self.network.push_back(LogEnvelope {
            from: node(CLIENT),
            to: node(to),
            message,
        });
    }

    pub(super) fn write(&mut self, to: u8, seq: u64, key: &str, value: &str) {
        let message = LogMessage::Write {
            seq,
            key: Value::new(key),
            value: Value::new(value),
        };
        self.client_sends(to, message);
    }

    pub(super) fn elect(&mut self, id: u8) {
        let timeout = self.nodes[0].config().election_timeout_ticks;
        self.tick(id, timeout);
        self.settle();
        assert_eq!(self.nodes[usize::from(id - 1)].role(), LogRole::Leader);
    }
}

#[test]
fn a_leader_is_elected_by_ticks_and_commands_apply_everywhere() {
    let mut cluster = Cluster::new();
    cluster.elect(1);
    for seq in 1..=3 {
        cluster.write(1, seq, "x", &seq.to_string());
    }
    cluster.settle();
    cluster.tick(1, 1); // the heartbeat carries the commit index to the followers
    cluster.settle();
    for node in &cluster.nodes {
        assert_eq!(node.applied_index(), Slot(3));
        assert_eq!(
            node.store().get(&Value::new("x")).map(Value::as_str),
            Some("3")
        );
    }
    let replies: Vec<u64> = cluster.client_inbox.iter().map(|(seq, _)| *seq).collect();
    assert_eq!(replies, vec![1, 2, 3], "each write answered once");
}

#[test]
fn a_retried_write_applies_once() {
    // Sessions: (client, seq) names a request, so the retry is answered without a second slot.
    let mut cluster = Cluster::new();
    cluster.elect(1);
    cluster.write(1, 1, "x", "1");
    cluster.settle();
    cluster.write(1, 1, "x", "1");
    cluster.settle();
    assert_eq!(cluster.nodes[0].chosen_index(), Slot(1));
    assert_eq!(cluster.client_inbox.len(), 2, "the retry is answered too");
}

#[test]
fn slots_are_chosen_out_of_order_and_applied_in_order() {
    // chosen_index is a contiguous prefix; the apply walk never passes a hole.
    let mut cluster = Cluster::new();
    cluster.elect(1);
    cluster.write(1, 1, "x", "1");
    cluster.write(1, 2, "x", "2");
    let slot_one_accept = |envelope: &LogEnvelope| {
        matches!(envelope.message, LogMessage::Accept { slot: Slot(1), .. })
            && envelope.to != node(1)
    };
    cluster.settle_losing(slot_one_accept);
    let leader = &cluster.nodes[0];
    assert!(leader.chosen().contains_key(&Slot(2)));
    assert_eq!(leader.chosen_index(), Slot(0));
    assert_eq!(leader.chosen_gap(), Some(Slot(1)));
    assert_eq!(leader.applied_index(), Slot(0));
    cluster.tick(1, 1); // the beat sends slot 1's Accept again
    cluster.settle();
    assert_eq!(cluster.nodes[0].chosen_gap(), None);
    assert_eq!(cluster.nodes[0].applied_index(), Slot(2));
}

#[test]
fn a_new_leader_re_proposes_reported_slots_and_fills_holes_with_no_ops() {
    // The recovery duty: P2c per slot for what Promises report, a no-op for what none report.
    let mut cluster = Cluster::new();
    cluster.elect(1);
    cluster.write(1, 1, "x", "a");
    cluster.write(1, 2, "x", "b");
    // Slot 1's Accepts reach nobody but N1 itself; slot 2 is chosen by {N1, N2}.
    let lose = |envelope: &LogEnvelope| {
        matches!(envelope.message, LogMessage::Accept { slot: Slot(1), .. })
            && envelope.to != node(1)
            || envelope.to == node(3) && matches!(envelope.message, LogMessage::Accept { .. })
    };
    cluster.settle_losing(lose);
    assert!(cluster.nodes[0].chosen().contains_key(&Slot(2)));
    // N1 is gone; N2 times out and leads over {N2, N3}.
    cluster.nodes.truncate(3);
    let timeout = cluster.nodes[1].config().election_timeout_ticks;
    cluster.tick(2, timeout);
    cluster.settle_losing(|envelope| envelope.to == node(1) || envelope.from == node(1));
    let leader = &cluster.nodes[1];
    assert_eq!(leader.role(), LogRole::Leader);
    assert_eq!(leader.chosen()[&Slot(1)].entry, Entry::Noop);
    assert!(
        matches!(&leader.chosen()[&Slot(2)].entry, Entry::Command(command) if command.value.as_str() == "b")
    );
    assert_eq!(leader.chosen_gap(), None);
}

#[test]
fn ready_releases_messages_only_with_the_proof() {
    let mut cluster = Cluster::new();
    cluster.tick(1, 3);
    cluster.settle();
    let mut leader = cluster.nodes[0].clone();
    leader
        .handle(&LogEnvelope {
            from: node(CLIENT),
            to: node(1),
            message: LogMessage::Write {
                seq: 1,
                key: Value::new("k"),
                value: Value::new("v"),
            },
        })
        .unwrap();
    let ready = leader.take_ready();
    assert!(
        ready.writes().is_empty(),
        "a leader writes nothing until its own Accept arrives"
    );
    assert_eq!(ready.pending_messages().len(), 3);
    let proof = DurableRecord::default().persist(ready.writes());
    let messages = ready.into_messages(proof);
    assert_eq!(messages.len(), 3);
}

#[test]
fn persisting_a_whole_ready_applies_its_writes_and_releases_its_messages() {
    let mut cluster = Cluster::new();
    cluster.elect(1);
    cluster.write(1, 1, "k", "v");
    let write = cluster.network.pop_front().expect("the client's write");
    cluster.nodes[0].handle(&write).unwrap();
    cluster.flush(0);
    let accept = (cluster.network.iter())
        .find(|envelope| {
            envelope.to == node(2) && matches!(envelope.message, LogMessage::Accept { .. })
        })
        .cloned()
        .expect("the leader's Accept to node 2 is in flight");
    let mut follower = cluster.nodes[1].clone();
    follower.handle(&accept).unwrap();
    let ready = follower.take_ready();
    assert!(!ready.writes().is_empty(), "a vote is a write");
    let (mut in_steps, mut at_once) = (DurableRecord::default(), DurableRecord::default());
    let proof = in_steps.persist(ready.writes());
    let expected = ready.clone().into_messages(proof);
    assert_eq!(at_once.persist_ready(ready), expected);
    assert_eq!(at_once, in_steps);
    assert!(!expected.is_empty(), "the vote's Accepted is released");
}

#[test]
#[should_panic(expected = "the proof must cover this Ready's writes")]
fn ready_refuses_a_proof_for_other_writes() {
    let mut fresh = ColocatedNode::new(
        node(1),
        LogConfig::new([1, 2, 3].map(node).into_iter().collect()),
    );
    let ready = fresh.take_ready();
    assert_eq!(ready.writes(), &[Write::Identity(node(1))]);
    let nothing = DurableRecord::default().persist(&[]);
    let _ = ready.into_messages(nothing);
}

#[test]
#[should_panic(expected = "the proof must cover this Ready's writes")]
fn ready_refuses_the_proof_of_another_ready_with_as_many_writes() {
    let config = LogConfig::new([1, 2, 3].map(node).into_iter().collect());
    let first = ColocatedNode::new(node(1), config).take_ready();
    let second = ColocatedNode::new(node(2), config).take_ready();
    assert_eq!(first.writes().len(), second.writes().len());
    let proof = DurableRecord::default().persist(first.writes());
    let _ = second.into_messages(proof);
}

#[test]
fn a_restart_keeps_promise_votes_and_chosen_prefix_and_rebuilds_the_store() {
    let mut cluster = Cluster::new();
    cluster.elect(1);
    cluster.write(1, 1, "x", "1");
    cluster.settle();
    cluster.tick(1, 1);
    cluster.settle();
    let config = *cluster.nodes[1].config();
    let restarted = ColocatedNode::restart(node(2), config, &cluster.disks[1]).unwrap();
    assert_eq!(restarted.promised(), cluster.nodes[1].promised());
    assert_eq!(restarted.accepts(), cluster.nodes[1].accepts());
    assert_eq!(restarted.chosen_index(), Slot(1));
    assert_eq!(
        restarted.store().get(&Value::new("x")).map(Value::as_str),
        Some("1")
    );
    assert_eq!(
        restarted.role(),
        LogRole::Follower,
        "leadership is volatile"
    );
}

#[test]
fn a_record_chosen_past_a_slot_it_holds_no_entry_for_is_refused() {
    // The record's invariant (every slot up to its chosen mark holds its chosen entry) is
    // checked before the record is trusted: a hole there is corruption, not a panic.
    let config = LogConfig::new([1, 2, 3].map(node).into_iter().collect());
    let vote = SlotVote {
        ballot: Ballot::new(1, node(1)),
        entry: Entry::Noop,
    };
    let mut record = DurableRecord::default();
    let _ = record.persist(&[
        Write::Identity(node(2)),
        Write::Accept(Slot(1), vote.clone()),
        Write::Accept(Slot(3), vote),
        Write::ChosenThrough(Slot(3)),
    ]);
    assert_eq!(
        ColocatedNode::restart(node(2), config, &record).err(),
        Some(RecordError::ChosenWithoutEntry { slot: Slot(2) })
    );
}

#[test]
fn a_blank_or_foreign_disk_is_refused() {
    let config = LogConfig::new([1, 2, 3].map(node).into_iter().collect());
    let blank = DurableRecord::default();
    assert_eq!(
        ColocatedNode::restart(node(2), config, &blank).err(),
        Some(RecordError::Blank)
    );
    let mut foreign = DurableRecord::default();
    let _ = foreign.persist(&[Write::Identity(node(3))]);
    assert_eq!(
        ColocatedNode::restart(node(2), config, &foreign).err(),
        Some(RecordError::WrongIdentity {
            expected: node(2),
            found: node(3)
        })
    );
}

#[test]
fn a_chosen_entry_overwrites_a_stale_lower_ballot_vote() {
    // The chosen overwrite rule: after learning slot 1 is chosen, the durable record holds the
    // chosen entry, so a restart cannot present the stale vote as chosen.
    let config = LogConfig::new([1, 2, 3].map(node).into_iter().collect());
    let mut follower = ColocatedNode::new(node(3), config);
    let stale = SlotVote {
        ballot: Ballot::new(1, node(1)),
        entry: Entry::Noop,
    };
    let accept = LogMessage::Accept {
        ballot: stale.ballot,
        slot: Slot(1),
        entry: stale.entry.clone(),
        commit: Slot(0),
    };
    follower
        .handle(&LogEnvelope {
            from: node(1),
            to: node(3),
            message: accept,
        })
        .unwrap();
    let chosen = SlotVote {
        ballot: Ballot::new(2, node(2)),
        entry: Entry::from(crate::log::Command {
            client: node(CLIENT),
            seq: 1,
            key: Value::new("x"),
            value: Value::new("2"),
        }),
    };
    follower.learn_chosen(Slot(1), chosen.clone());
    let ready = follower.take_ready();
    assert!(
        ready
            .writes()
            .contains(&Write::Accept(Slot(1), chosen.clone()))
    );
    assert!(ready.writes().contains(&Write::ChosenThrough(Slot(1))));
    let mut disk = DurableRecord::default();
    let _ = disk.persist(ready.writes());
    let restarted = ColocatedNode::restart(node(3), config, &disk).unwrap();
    assert_eq!(restarted.chosen()[&Slot(1)], chosen);
}

#[test]
fn frames_round_trip_and_a_torn_tail_is_discarded() {
    let vote = SlotVote {
        ballot: Ballot::new(3, node(2)),
        entry: Entry::Noop,
    };
    let writes = [
        Write::Identity(node(2)),
        Write::Promise(Ballot::new(3, node(2))),
        Write::Accept(Slot(4), vote),
        Write::Stood(Ballot::new(5, node(2))),
        Write::Incarnation(7),
        Write::ChosenThrough(Slot(4)),
    ];
    let mut frames: Vec<Vec<u8>> = writes.iter().map(encode).collect();
    for (frame, write) in frames.iter().zip(&writes) {
        assert_eq!(decode(frame).as_ref(), Ok(write));
    }
    let last = frames.last_mut().unwrap();
    last.truncate(last.len() - 1);
    let (record, torn) = DurableRecord::recover(&frames).unwrap();
    assert_eq!(torn, 1);
    assert_eq!(
        record.chosen_through,
        Slot(0),
        "the torn write never happened"
    );
    assert_eq!(record.promised, Some(Ballot::new(3, node(2))));
    assert_eq!(record.stood, Some(Ballot::new(5, node(2))));
    assert_eq!(record.incarnation, 7);
}

#[test]
fn a_corrupt_frame_before_the_tail_is_an_error() {
    let mut frames: Vec<Vec<u8>> = [
        Write::Identity(node(2)),
        Write::Promise(Ballot::new(1, node(1))),
    ]
    .iter()
    .map(encode)
    .collect();
    frames[0][17 + 13] ^= 0x40;
    assert!(matches!(
        DurableRecord::recover(&frames),
        Err(RecordError::Corrupt { index: 0, .. })
    ));
}

#[test]
fn a_read_waits_for_a_quorum_watermark_and_the_apply_walk() {
    // The read watermark rule: N3 missed slot 1; it may not answer from its own log.
    let mut cluster = Cluster::new();
    cluster.elect(1);
    cluster.write(1, 1, "x", "2");
    cluster.settle_losing(|envelope| envelope.to == node(3) && envelope.from == node(1));
    assert_eq!(cluster.nodes[2].applied_index(), Slot(0));
    cluster.client_inbox.clear();
    cluster.client_sends(
        3,
        LogMessage::Read {
            seq: 2,
            key: Value::new("x"),
        },
    );
    cluster.settle();
    assert!(
        cluster.client_inbox.is_empty(),
        "the watermark is 1 and N3 has applied nothing"
    );
    assert_eq!(cluster.nodes[2].pending_reads()[0].watermark, Slot(1));
    cluster.tick(1, 1); // heartbeat, ack, catch-up with the chosen entry
    cluster.settle();
    assert_eq!(
        cluster.client_inbox,
        vec![(2, Outcome::Read(Some(Value::new("2"))))]
    );
}

#[test]
fn a_follower_refuses_writes_and_names_the_leader() {
    let mut cluster = Cluster::new();
    cluster.elect(1);
    cluster.write(2, 1, "x", "1");
    cluster.settle();
    assert_eq!(
        cluster.client_inbox,
        vec![(
            1,
            Outcome::NotLeader {
                hint: Some(node(1))
            }
        )]
    );
}

#[test]
fn messages_from_strangers_are_ignored() {
    let config = LogConfig::new([1, 2, 3].map(node).into_iter().collect());
    let mut follower = ColocatedNode::new(node(2), config);
    let prepare = LogMessage::Prepare {
        ballot: Ballot::new(1, node(7)),
        from_slot: Slot(1),
    };
    let result = follower.handle(&LogEnvelope {
        from: node(7),
        to: node(2),
        message: prepare,
    });
    assert_eq!(result, Err(crate::Ignored::UnknownSender));
    let _ = NodeSet::EMPTY;
}

mod robustness {
    //! No input panics a node: stale, reordered, duplicated or nonsensical messages from
    //! members and strangers are ignored or refused.
    use super::*;
    use crate::log::{Command, KvStore, TrimPoint};
    use proptest::prelude::*;

    fn message(kind: u8, round: u32, owner: u8, slot: u64, commit: u64) -> LogMessage {
        let ballot = Ballot::new(round, node(owner));
        let vote = SlotVote {
            ballot,
            entry: Entry::Noop,
        };
        match kind % 15 {
            13 => LogMessage::Handoff {
                ballot,
                next_slot: Slot(slot),
                in_flight: vec![(Slot(commit), Entry::Noop)],
                read_watermark: Slot(commit),
            },
            14 => LogMessage::Handoff {
                ballot,
                next_slot: Slot(slot),
                in_flight: Vec::new(),
                read_watermark: Slot(slot),
            },
            0 => LogMessage::Prepare {
                ballot,
                from_slot: Slot(slot),
            },
            1 => LogMessage::Promise {
                ballot,
                from_slot: Slot(slot),
                floor: Slot(commit),
                votes: vec![(Slot(slot), vote)],
                unknown: vec![Slot(commit)],
            },
            2 => LogMessage::Accept {
                ballot,
                slot: Slot(slot),
                entry: Entry::Noop,
                commit: Slot(commit),
            },
            3 => LogMessage::Accepted {
                ballot,
                slot: Slot(slot),
            },
            4 => LogMessage::Nack {
                ballot,
                promised: Ballot::new(round + 1, node(owner)),
            },
            5 => LogMessage::Heartbeat {
                ballot,
                commit: Slot(commit),
            },
            6 => LogMessage::HeartbeatAck {
                ballot,
                chosen_index: Slot(commit),
                highest_accepted: Slot(slot),
            },
            7 => LogMessage::Chosen {
                entries: vec![(Slot(slot), vote)],
            },
            8 => LogMessage::ReadIndexReply {
                read: crate::log::ReadId {
                    incarnation: commit,
                    number: slot,
                },
                highest_accepted: Slot(commit),
            },
            11 => LogMessage::TrimPoint {
                ballot,
                point: trim_point(slot),
            },
            12 => LogMessage::Accept {
                ballot,
                slot: Slot(slot),
                entry: Entry::Trim(Slot(commit)),
                commit: Slot(commit),
            },
            9 => LogMessage::Read {
                seq: slot,
                key: Value::new("x"),
            },
            _ => LogMessage::Write {
                seq: slot,
                key: Value::new("x"),
                value: Value::new("v"),
            },
        }
    }

    /// A trim point through `slot` of the three-node cluster, with a value and a session.
    fn trim_point(slot: u64) -> TrimPoint {
        let mut store = KvStore::default();
        store.apply(&Entry::from(Command {
            client: node(9),
            seq: slot,
            key: Value::new("x"),
            value: Value::new("t"),
        }));
        TrimPoint {
            cluster: [1, 2, 3].map(node).into_iter().collect(),
            through: Slot(slot),
            store,
        }
    }

    /// A write a disk may hold, well-formed or not: any decodable record is input.
    fn write(kind: u8, round: u32, slot: u64) -> Write {
        let ballot = Ballot::new(round, node(1));
        match kind % 11 {
            9 => Write::HandedOff(ballot),
            10 => Write::TookHandoff(Ballot::new(round, node(2))),
            6 => Write::TrimPoint(trim_point(slot)),
            7 => Write::Truncate(Slot(slot)),
            8 => Write::Accept(
                Slot(slot),
                SlotVote {
                    ballot,
                    entry: Entry::Trim(Slot(slot / 2)),
                },
            ),
            0 => Write::Identity(node(1)),
            1 => Write::Promise(ballot),
            2 => Write::Accept(
                Slot(slot),
                SlotVote {
                    ballot,
                    entry: Entry::Noop,
                },
            ),
            3 => Write::ChosenThrough(Slot(slot)),
            4 => Write::Stood(ballot),
            _ => Write::Incarnation(u64::from(round)),
        }
    }

    proptest! {
        /// A restart from any record refuses or boots, never panics: a record whose chosen
        /// prefix has a slot with no entry on disk is refused as corrupt, not trusted.
        #[test]
        fn no_disk_record_panics_a_restart(writes in proptest::collection::vec((any::<u8>(), 0u32..4, 0u64..6), 0..12)) {
            let config = LogConfig::new([1, 2, 3].map(node).into_iter().collect());
            let mut record = DurableRecord::default();
            let writes: Vec<Write> = (writes.into_iter())
                .map(|(kind, round, slot)| write(kind, round, slot))
                .collect();
            let _ = record.persist(&writes);
            if let Ok(restarted) = ColocatedNode::restart(node(1), config, &record) {
                prop_assert!(restarted.applied_index() <= restarted.chosen_index());
            }
        }

        #[test]
        fn no_input_panics(inputs in proptest::collection::vec((any::<u8>(), 0u32..4, 1u8..5, 0u64..6, 0u64..6, 1u8..5, any::<bool>()), 0..60)) {
            let config = LogConfig::new([1, 2, 3].map(node).into_iter().collect());
            let mut subject = ColocatedNode::new(node(1), config);
            for (kind, round, owner, slot, commit, from, tick) in inputs {
                if tick {
                    subject.tick();
                }
                let envelope = LogEnvelope { from: node(from), to: node(1), message: message(kind, round, owner, slot, commit) };
                let _ = subject.handle(&envelope);
                if kind % 7 == 0 {
                    let _ = subject.request_trim(Slot(commit));
                }
                if kind % 5 == 0 {
                    let _ = subject.hand_off(node(from));
                }
                let _ = subject.take_ready();
                prop_assert!(subject.applied_index() <= subject.chosen_index());
            }
        }
    }
}

#[test]
fn a_whole_last_frame_that_fails_its_checksum_is_corruption_not_a_torn_write() {
    // Protocol-aware recovery (Alagappan et al., FAST 2018): only a short tail is torn; a whole
    // frame was written and may have been acknowledged, so damage to it is corruption.
    let writes = [
        Write::Identity(node(2)),
        Write::Promise(Ballot::new(1, node(1))),
    ];
    let frames: Vec<Vec<u8>> = writes.iter().map(encode).collect();
    let mut flipped = frames.clone();
    flipped[1][17 + 13] ^= 0x40;
    assert!(matches!(
        DurableRecord::recover(&flipped),
        Err(RecordError::CorruptPromise { index: 1 })
    ));
    let mut longer = frames.clone();
    longer[1].push(0);
    assert!(matches!(
        DurableRecord::recover(&longer),
        Err(RecordError::CorruptPromise { index: 1 })
    ));
    for cut in [5, 12, 17 + 5, 17 + 12, 17 + 20, frames[1].len() - 1] {
        let mut torn = frames.clone();
        torn[1].truncate(cut);
        let (record, torn_count) = DurableRecord::recover(&torn).unwrap();
        assert_eq!(torn_count, 1, "a tail cut at {cut} bytes is torn");
        assert_eq!(record.promised, None);
    }
}

#[test]
fn decode_tells_a_torn_frame_from_a_corrupt_one() {
    // Only a short frame is torn; a whole frame that fails its checksum or decoding is corrupt.
    let frame = encode(&Write::Promise(Ballot::new(2, node(3))));
    assert!(matches!(decode(&frame[..7]), Err(FrameError::Torn(_))));
    assert!(matches!(
        decode(&frame[..frame.len() - 1]),
        Err(FrameError::Torn(_))
    ));
    let mut flipped = frame.clone();
    *flipped.last_mut().unwrap() ^= 0x01;
    assert!(matches!(decode(&flipped), Err(FrameError::Corrupt(_))));
    let mut longer = frame.clone();
    longer.push(0);
    assert!(matches!(decode(&longer), Err(FrameError::Corrupt(_))));
    // A payload whose checksum matches but that names no kind of write is corrupt too.
    let payload = [0xee_u8];
    let label = [0xee_u8, 0, 0, 0, 0, 0, 0, 0, 0];
    let mut unknown = label.to_vec();
    unknown.extend(fnv(&label).to_le_bytes());
    unknown.extend(1_u32.to_le_bytes());
    unknown.extend(fnv(&1_u32.to_le_bytes()).to_le_bytes());
    unknown.extend(fnv(&payload).to_le_bytes());
    unknown.extend(payload);
    assert_eq!(
        decode(&unknown),
        Err(FrameError::Corrupt("unknown write kind"))
    );
    assert!(FrameError::Torn("x").to_string().starts_with("torn"));
}

/// FNV-1a, 64 bits, as the disk format checksums its labels and payloads.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[test]
fn a_stale_vote_above_the_leaders_log_is_filled_with_a_no_op_when_a_heartbeat_reports_it() {
    // The stale-tail rule (`fill_up_to`): N1's vote in slot 1 reached nobody else; N2 leads
    // over {N2, N3}, which report nothing, so without the rule slot 1 would stay undecided
    // and hold every read whose watermark counts N1's vote.
    let mut cluster = Cluster::new();
    cluster.elect(1);
    cluster.write(1, 1, "x", "1");
    cluster.settle_losing(|envelope| {
        matches!(envelope.message, LogMessage::Accept { .. }) && envelope.to != node(1)
    });
    assert!(cluster.nodes[0].accepts().contains_key(&Slot(1)));
    let timeout = cluster.nodes[1].config().election_timeout_ticks;
    cluster.tick(2, timeout);
    cluster.settle_losing(|envelope| envelope.to == node(1) || envelope.from == node(1));
    assert_eq!(cluster.nodes[1].role(), LogRole::Leader);
    assert!(cluster.nodes[1].proposals().is_empty(), "nothing reported");
    cluster.tick(2, 1); // N1 hears the heartbeat and reports its vote in slot 1
    cluster.settle();
    cluster.tick(2, 1);
    cluster.settle();
    for node in &cluster.nodes {
        assert_eq!(
            node.chosen().get(&Slot(1)).map(|vote| &vote.entry),
            Some(&Entry::Noop)
        );
        assert_eq!(node.applied_index(), Slot(1));
    }
}

#[test]
fn a_leader_elected_before_its_own_promise_arrives_fills_its_own_stale_vote() {
    // The stale-tail rule over a leader's own votes (`leader_fills_its_own_stale_tail`), for a
    // leader that took office by Phase 1: N1's vote in slot 1 reached nobody else; restarted,
    // N1 is elected by {N2, N3}, which report nothing, before its own Promise arrives, so its
    // next slot is 1 and no follower's heartbeat ack ever reports that vote.
    let mut cluster = Cluster::new();
    cluster.elect(1);
    cluster.write(1, 1, "x", "1");
    cluster.settle_losing(|envelope| {
        matches!(envelope.message, LogMessage::Accept { .. }) && envelope.to != node(1)
    });
    assert!(cluster.nodes[0].accepts().contains_key(&Slot(1)));
    let config = *cluster.nodes[0].config();
    cluster.nodes[0] = ColocatedNode::restart(node(1), config, &cluster.disks[0]).unwrap();
    cluster.flush(0);
    cluster.tick(1, config.election_timeout_ticks);
    let own_phase1 = |envelope: &LogEnvelope| {
        envelope.from == node(1)
            && envelope.to == node(1)
            && matches!(
                envelope.message,
                LogMessage::Prepare { .. } | LogMessage::Promise { .. }
            )
    };
    cluster.settle_losing(own_phase1);
    assert_eq!(cluster.nodes[0].role(), LogRole::Leader);
    cluster.tick(1, 1); // the heartbeat's commit index teaches N2 and N3 slot 1
    cluster.settle();
    for node in &cluster.nodes {
        assert_eq!(
            node.chosen().get(&Slot(1)).map(|vote| &vote.entry),
            Some(&Entry::Noop),
            "{} has not decided slot 1",
            node.id()
        );
    }
}

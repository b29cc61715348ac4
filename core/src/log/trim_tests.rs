//! Truncation by consensus and the trim-point jump, driven by the in-memory cluster of
//! [`tests`](super::tests); each test names the rule it checks (T1–T5 in [`trim`](super::trim)).

use super::tests::{CLIENT, Cluster, node};
use crate::log::{
    ColocatedNode, Command, DurableRecord, Entry, KvStore, LogConfig, LogEnvelope, LogMessage,
    LogRole, Outcome, RecordError, Slot, SlotVote, TrimError, TrimPoint, Write, decode, encode,
};
use crate::{Ballot, Ignored, NodeSet, Value};

/// A cluster whose leader N1 has applied three writes to `x` (1, 2, 3) everywhere.
fn three_writes_applied() -> Cluster {
    let mut cluster = Cluster::new();
    cluster.elect(1);
    for seq in 1..=3 {
        cluster.write(1, seq, "x", &seq.to_string());
    }
    cluster.settle();
    cluster.tick(1, 1);
    cluster.settle();
    cluster
}

fn value_of(node: &ColocatedNode, key: &str) -> Option<String> {
    node.store()
        .get(&Value::new(key))
        .map(|value| value.as_str().to_string())
}

/// The store after writing `x` = 1, then 2, for the client: the trim point through slot 2.
fn store_through_two() -> KvStore {
    let mut store = KvStore::default();
    for seq in 1..=2 {
        store.apply(&Entry::from(Command {
            client: node(CLIENT),
            seq,
            key: Value::new("x"),
            value: Value::new(&seq.to_string()),
        }));
    }
    store
}

#[test]
fn each_node_moves_its_floor_when_its_own_walk_applies_the_trim() {
    // T2: one decision, and each node moves when its walk gets there.
    let mut cluster = three_writes_applied();
    let slot = cluster.nodes[0].request_trim(Slot(2)).unwrap();
    assert_eq!(slot, Slot(4));
    cluster.flush(0);
    // N3 votes, but hears of the decision only at the next heartbeat.
    cluster.settle();
    assert_eq!(
        cluster.nodes[0].floor(),
        Slot(2),
        "the leader applied slot 4"
    );
    assert_eq!(cluster.nodes[2].applied_index(), Slot(3));
    assert_eq!(
        cluster.nodes[2].floor(),
        Slot(0),
        "N3 has not applied slot 4 yet"
    );
    cluster.tick(1, 1);
    cluster.settle();
    for node in &cluster.nodes {
        assert_eq!(node.floor(), Slot(2));
        assert!(node.floor() <= node.applied_index(), "T1");
        assert!(node.accepts().keys().all(|slot| *slot > Slot(2)));
        assert!(node.chosen().keys().all(|slot| *slot > Slot(2)));
        // T3: the trim point is the state after slots 1 and 2, sessions included.
        assert_eq!(node.trim_point().store, store_through_two());
        assert_eq!(value_of(node, "x").as_deref(), Some("3"));
    }
}

#[test]
fn a_trim_is_proposed_only_by_a_leader_above_its_floor_and_within_what_it_applied() {
    let mut cluster = three_writes_applied();
    assert_eq!(
        cluster.nodes[1].request_trim(Slot(2)),
        Err(TrimError::NotLeader)
    );
    assert_eq!(
        cluster.nodes[0].request_trim(Slot(4)),
        Err(TrimError::AboveApplied {
            through: Slot(4),
            applied: Slot(3)
        })
    );
    cluster.nodes[0].request_trim(Slot(2)).unwrap();
    cluster.flush(0);
    cluster.settle();
    assert_eq!(
        cluster.nodes[0].request_trim(Slot(1)),
        Err(TrimError::AtOrBelowFloor {
            through: Slot(1),
            floor: Slot(2)
        })
    );
}

/// N3 misses everything while N1 and N2 write three values and trim through slot 2.
fn n3_stranded_below_the_floor() -> Cluster {
    let mut cluster = Cluster::new();
    cluster.elect(1);
    let away = |envelope: &LogEnvelope| envelope.to == node(3) || envelope.from == node(3);
    for seq in 1..=3 {
        cluster.write(1, seq, "x", &seq.to_string());
    }
    cluster.settle_losing(away);
    cluster.nodes[0].request_trim(Slot(2)).unwrap();
    cluster.flush(0);
    cluster.settle_losing(away);
    cluster.tick(1, 1);
    cluster.settle_losing(away);
    assert_eq!(cluster.nodes[1].floor(), Slot(2));
    assert_eq!(cluster.nodes[2].chosen_index(), Slot(0));
    cluster
}

#[test]
fn a_stranded_node_jumps_to_the_trim_point_and_keeps_its_promise() {
    // T5: floor = applied = k; the promise and the votes above k stay.
    let mut cluster = n3_stranded_below_the_floor();
    let promise_before = cluster.nodes[2].promised();
    let mut jumped = false;
    cluster.settle();
    cluster.tick(1, 1); // the heartbeat: N3 acks chosen index 0, below N1's floor
    cluster.settle_losing(|envelope| {
        jumped |=
            matches!(envelope.message, LogMessage::TrimPoint { .. }) && envelope.to == node(3);
        false
    });
    assert!(jumped, "N1 answered N3's catch-up with its trim point");
    let n3 = &cluster.nodes[2];
    assert_eq!(n3.floor(), Slot(2));
    assert_eq!(n3.promised(), promise_before.max(n3.promised()));
    assert_eq!(n3.promised(), cluster.nodes[0].promised());
    cluster.tick(1, 1);
    cluster.settle();
    let n3 = &cluster.nodes[2];
    assert_eq!(n3.applied_index(), Slot(4));
    assert_eq!(value_of(n3, "x").as_deref(), Some("3"));
    assert_eq!(n3.store(), cluster.nodes[0].store());
}

#[test]
fn installing_a_trim_point_never_lowers_the_promise_nor_touches_votes_above_it() {
    let config = LogConfig::new([1, 2, 3].map(node).into_iter().collect());
    let mut n3 = ColocatedNode::new(node(3), config);
    let high = Ballot::new(5, node(2));
    let vote = SlotVote {
        ballot: high,
        entry: Entry::Noop,
    };
    let accept = LogMessage::Accept {
        ballot: high,
        slot: Slot(4),
        entry: Entry::Noop,
        commit: Slot(0),
    };
    n3.handle(&LogEnvelope {
        from: node(2),
        to: node(3),
        message: accept,
    })
    .unwrap();
    let point = TrimPoint {
        cluster: config.nodes,
        through: Slot(2),
        store: store_through_two(),
    };
    let stale = LogMessage::TrimPoint {
        ballot: Ballot::new(1, node(1)),
        point,
    };
    n3.handle(&LogEnvelope {
        from: node(1),
        to: node(3),
        message: stale,
    })
    .unwrap();
    assert_eq!(n3.promised(), Some(high));
    assert_eq!(n3.accepts().get(&Slot(4)), Some(&vote));
    assert_eq!((n3.floor(), n3.applied_index()), (Slot(2), Slot(2)));
    assert_eq!(n3.chosen_index(), Slot(2));
}

#[test]
fn a_trim_point_of_another_cluster_or_below_the_applied_index_is_refused() {
    let mut cluster = three_writes_applied();
    let other = TrimPoint {
        cluster: [1, 2, 4].map(node).into_iter().collect(),
        through: Slot(5),
        store: KvStore::default(),
    };
    assert_eq!(
        cluster.nodes[1].install_trim_point(Ballot::new(1, node(1)), &other),
        Err(Ignored::OtherCluster)
    );
    let behind = TrimPoint {
        cluster: cluster.nodes[1].config().nodes,
        through: Slot(2),
        store: KvStore::default(),
    };
    assert_eq!(
        cluster.nodes[1].install_trim_point(Ballot::new(1, node(1)), &behind),
        Err(Ignored::StaleTrimPoint)
    );
    assert_eq!(cluster.nodes[1].floor(), Slot(0));
}

#[test]
fn a_leader_elected_below_a_floor_proposes_nothing_there_and_jumps() {
    // T4: N3 stands with a Phase-1 quorum whose Promise from N1 reports floor 2; slots 1 and 2
    // are decided and compacted on N1, so N3 must not fill them, and learns them by a jump.
    let mut cluster = n3_stranded_below_the_floor();
    let timeout = cluster.nodes[2].config().election_timeout_ticks;
    cluster.tick(3, timeout);
    let mut below_floor_accepts = 0;
    cluster.settle_losing(|envelope| {
        let from_n3_below = envelope.from == node(3)
            && matches!(envelope.message, LogMessage::Accept { slot, .. } if slot <= Slot(2));
        below_floor_accepts += usize::from(from_n3_below);
        envelope.to == node(2) || envelope.from == node(2)
    });
    assert_eq!(below_floor_accepts, 0, "no Accept at or below the floor");
    let n3 = &cluster.nodes[2];
    assert_eq!(n3.role(), LogRole::Leader);
    assert_eq!(n3.floor(), Slot(2), "N3 jumped to N1's trim point");
    cluster.tick(3, 1);
    cluster.settle();
    for node in &cluster.nodes {
        assert_eq!(value_of(node, "x").as_deref(), Some("3"));
    }
    assert_eq!(
        cluster.nodes[2].chosen()[&Slot(3)].entry,
        cluster.nodes[0].chosen()[&Slot(3)].entry
    );
}

#[test]
fn a_retry_of_a_request_compacted_below_the_floor_is_answered_not_applied_again() {
    // T3's sessions: the jump carries the session table, so the new leader recognises the retry.
    let mut cluster = n3_stranded_below_the_floor();
    cluster.tick(1, 1);
    cluster.settle();
    let timeout = cluster.nodes[2].config().election_timeout_ticks;
    cluster.tick(3, timeout);
    cluster.settle();
    assert_eq!(cluster.nodes[2].role(), LogRole::Leader);
    let chosen_before = cluster.nodes[2].chosen_index();
    cluster.client_inbox.clear();
    cluster.write(3, 1, "x", "1");
    cluster.settle();
    assert_eq!(cluster.client_inbox, vec![(1, Outcome::Written)]);
    assert_eq!(cluster.nodes[2].chosen_index(), chosen_before);
    assert_eq!(value_of(&cluster.nodes[2], "x").as_deref(), Some("3"));
}

#[test]
fn a_restart_between_the_trim_point_and_the_truncation_finishes_the_truncation() {
    let mut cluster = three_writes_applied();
    cluster.nodes[0].request_trim(Slot(2)).unwrap();
    cluster.flush(0);
    cluster.settle();
    cluster.tick(1, 1);
    cluster.settle();
    let config = *cluster.nodes[1].config();
    // N2's disk holds the trim point; its Truncate never reached the disk.
    let mut record = cluster.disks[1].clone();
    let full = three_writes_applied().disks[1].accepts.clone();
    for (slot, vote) in full.range(..=Slot(2)) {
        record.accepts.insert(*slot, vote.clone());
    }
    record.truncated_through = Slot(0);
    let mut restarted = ColocatedNode::restart(node(2), config, &record).unwrap();
    assert_eq!(restarted.floor(), Slot(2));
    assert!(restarted.accepts().keys().all(|slot| *slot > Slot(2)));
    assert!(
        restarted
            .take_ready()
            .writes()
            .contains(&Write::Truncate(Slot(2)))
    );
    assert_eq!(restarted.store(), cluster.nodes[1].store());
}

#[test]
fn a_trim_point_survives_a_restart_and_a_foreign_one_is_refused() {
    let mut cluster = three_writes_applied();
    cluster.nodes[0].request_trim(Slot(2)).unwrap();
    cluster.flush(0);
    cluster.settle();
    let config = *cluster.nodes[0].config();
    let record = cluster.disks[0].clone();
    let restarted = ColocatedNode::restart(node(1), config, &record).unwrap();
    assert_eq!(restarted.floor(), Slot(2));
    assert_eq!(restarted.store(), cluster.nodes[0].store());
    let mut foreign = record.clone();
    if let Some(point) = &mut foreign.trim_point {
        point.cluster = NodeSet::EMPTY;
    }
    assert_eq!(
        ColocatedNode::restart(node(1), config, &foreign).unwrap_err(),
        RecordError::TrimPointOfAnotherCluster
    );
    let mut past = record;
    past.truncated_through = Slot(3);
    assert!(matches!(
        ColocatedNode::restart(node(1), config, &past),
        Err(RecordError::TruncatedPastTrimPoint { .. })
    ));
}

#[test]
fn a_trim_point_round_trips_through_its_frame_and_a_flipped_byte_is_corruption() {
    let point = TrimPoint {
        cluster: [1, 2, 3].map(node).into_iter().collect(),
        through: Slot(2),
        store: store_through_two(),
    };
    let write = Write::TrimPoint(point);
    let frame = encode(&write);
    assert_eq!(decode(&frame), Ok(write.clone()));
    let mut record = DurableRecord::default();
    let _ = record.persist(&[write]);
    assert_eq!(record.floor(), Slot(2));
    let mut flipped = frame.clone();
    flipped[17 + 20] ^= 0x10;
    assert!(DurableRecord::recover(&[flipped]).is_err());
    let torn = frame[..frame.len() - 3].to_vec();
    let (recovered, torn_count) = DurableRecord::recover(&[torn]).unwrap();
    assert_eq!((recovered.floor(), torn_count), (Slot(0), 1));
}

#[test]
fn a_jump_raises_the_promise_to_the_ballot_it_came_with_and_the_stale_leader_is_refused() {
    // T5 (jump_raises_the_promise): N3 promised 1.N1, then jumps to a trim point that came at
    // 1.N2. A heartbeat of the stale 1.N1 is refused, and N3 does not hand N1 the trim point.
    let config = LogConfig::new([1, 2, 3].map(node).into_iter().collect());
    let mut n3 = ColocatedNode::new(node(3), config);
    let stale = Ballot::new(1, node(1));
    let newer = Ballot::new(1, node(2));
    let deliver = |n3: &mut ColocatedNode, from: u8, message: LogMessage| {
        let _ignored = n3.handle(&LogEnvelope {
            from: node(from),
            to: node(3),
            message,
        });
        n3.take_ready()
    };
    let prepare = LogMessage::Prepare {
        ballot: stale,
        from_slot: Slot(1),
    };
    let _promised = deliver(&mut n3, 1, prepare);
    assert_eq!(n3.promised(), Some(stale));
    let point = TrimPoint {
        cluster: config.nodes,
        through: Slot(2),
        store: store_through_two(),
    };
    let jump = deliver(
        &mut n3,
        2,
        LogMessage::TrimPoint {
            ballot: newer,
            point,
        },
    );
    assert_eq!(n3.floor(), Slot(2));
    assert_eq!(n3.promised(), Some(newer));
    assert!(jump.writes().contains(&Write::Promise(newer)));
    let heartbeat = LogMessage::Heartbeat {
        ballot: stale,
        commit: Slot(0),
    };
    let answer = deliver(&mut n3, 1, heartbeat);
    let sent: Vec<&LogMessage> = (answer.pending_messages().iter())
        .map(|envelope| &envelope.message)
        .collect();
    assert_eq!(
        sent,
        vec![&LogMessage::Nack {
            ballot: stale,
            promised: newer
        }]
    );
}

#[test]
fn a_leader_that_jumps_to_a_trim_point_of_a_higher_ballot_steps_down_and_vouches_for_nothing() {
    // promise_deposes_a_lower_run: a trim point's decisions may be of a higher ballot, and a
    // leader's commit index vouches only for its own.
    let mut cluster = Cluster::new();
    cluster.elect(1);
    let stale = cluster.nodes[0].ballot().unwrap();
    let newer = Ballot::new(stale.round + 1, node(2));
    let point = TrimPoint {
        cluster: cluster.nodes[0].config().nodes,
        through: Slot(2),
        store: store_through_two(),
    };
    cluster.nodes[0]
        .handle(&LogEnvelope {
            from: node(2),
            to: node(1),
            message: LogMessage::TrimPoint {
                ballot: newer,
                point,
            },
        })
        .unwrap();
    let n1 = &cluster.nodes[0];
    assert_eq!(n1.floor(), Slot(2));
    assert_eq!(n1.promised(), Some(newer));
    assert_ne!(n1.role(), LogRole::Leader);
    cluster.flush(0);
    cluster.network.clear();
    cluster.nodes[0].tick();
    let beat = cluster.nodes[0].take_ready();
    assert!(
        !(beat.pending_messages().iter()).any(|envelope| matches!(
            envelope.message,
            LogMessage::Heartbeat { ballot, .. } | LogMessage::Accept { ballot, .. }
                if ballot == stale
        )),
        "no heartbeat or Accept at the stale ballot"
    );
}

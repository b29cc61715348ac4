//! The same-ballot handoff (H1–H4 in [`handoff`](super::node)), driven by the in-memory cluster
//! of [`tests`](super::tests); each test names the rule it checks.

use super::tests::{CLIENT, Cluster, node};
use crate::log::{
    ColocatedNode, Command, Entry, HandoffRefused, LogEnvelope, LogMessage, LogRole, Outcome, Slot,
    Write, successor_may_propose,
};
use crate::{Ballot, Ignored, Value};

/// The command the client writes first: `x` = `a`.
fn first_command() -> Entry {
    Entry::from(Command {
        client: node(CLIENT),
        seq: 1,
        key: Value::new("x"),
        value: Value::new("a"),
    })
}

/// N1 leads and has proposed `x` = `a` in slot 1; every node voted for it, but no vote reached
/// N1 from another node, so the slot is still in flight at N1.
fn leader_with_one_in_flight() -> (Cluster, Ballot) {
    let mut cluster = Cluster::new();
    cluster.elect(1);
    cluster.write(1, 1, "x", "a");
    cluster.settle_losing(|envelope| {
        matches!(envelope.message, LogMessage::Accepted { .. })
            && envelope.to == node(1)
            && envelope.from != node(1)
    });
    let ballot = cluster.nodes[0].ballot().unwrap();
    assert!(cluster.nodes[0].proposals().contains_key(&Slot(1)));
    (cluster, ballot)
}

/// N1 leads; `x` = `a` is chosen in slot 1 by {N1, N3}, and N2 never heard of it.
fn successor_with_a_hole() -> (Cluster, Ballot) {
    let mut cluster = Cluster::new();
    cluster.elect(1);
    cluster.write(1, 1, "x", "a");
    cluster.settle_losing(|envelope| {
        envelope.to == node(2) && matches!(envelope.message, LogMessage::Accept { .. })
    });
    assert_eq!(cluster.nodes[0].chosen_index(), Slot(1));
    assert!(cluster.nodes[1].accepts().is_empty());
    let ballot = cluster.nodes[0].ballot().unwrap();
    (cluster, ballot)
}

/// Delivers every message in flight, and returns the Accepts that left `from` meanwhile.
fn settle_watching_accepts(cluster: &mut Cluster, from: u8) -> Vec<(Slot, Ballot, Entry)> {
    let mut seen = Vec::new();
    cluster.settle_losing(|envelope| {
        if let LogMessage::Accept {
            ballot,
            slot,
            entry,
            ..
        } = &envelope.message
            && envelope.from == node(from)
        {
            seen.push((*slot, *ballot, entry.clone()));
        }
        false
    });
    seen
}

/// The Handoff in a node's pending output, if any.
fn pending_handoff(node: &ColocatedNode) -> Option<LogEnvelope> {
    (node.peek_ready().pending_messages().iter())
        .find(|envelope| matches!(envelope.message, LogMessage::Handoff { .. }))
        .cloned()
}

#[test]
fn the_old_leader_writes_handed_off_and_stops_before_the_handoff_leaves() {
    // H2: in the Ready, the write comes first and the message waits for it.
    let (mut cluster, ballot) = leader_with_one_in_flight();
    cluster.nodes[0].hand_off(node(2)).unwrap();
    assert_eq!(cluster.nodes[0].role(), LogRole::Follower, "it stopped");
    assert!(cluster.nodes[0].proposals().is_empty());
    let ready = cluster.nodes[0].peek_ready();
    assert_eq!(ready.writes(), &[Write::HandedOff(ballot)]);
    let expected = LogEnvelope {
        from: node(1),
        to: node(2),
        message: LogMessage::Handoff {
            ballot,
            next_slot: Slot(2),
            in_flight: vec![(Slot(1), first_command())],
            read_watermark: Slot(0),
        },
    };
    assert_eq!(ready.pending_messages(), std::slice::from_ref(&expected));
    cluster.flush(0);
    assert_eq!(cluster.disks[0].handed_off, Some(ballot));
    // From now on N1 proposes nothing: a write sent to it is redirected to the successor.
    cluster.write(1, 2, "x", "b");
    let sent = settle_watching_accepts(&mut cluster, 1);
    assert_eq!(sent, Vec::new(), "no Accept left the old leader");
    assert!(cluster.client_inbox.contains(&(
        2,
        Outcome::NotLeader {
            hint: Some(node(2))
        }
    )));
}

#[test]
fn the_successor_finishes_the_in_flight_command_and_takes_new_ones_at_the_same_ballot() {
    let (mut cluster, ballot) = leader_with_one_in_flight();
    cluster.nodes[0].hand_off(node(2)).unwrap();
    cluster.flush(0);
    let sent = settle_watching_accepts(&mut cluster, 2);
    assert_eq!(
        sent,
        vec![(Slot(1), ballot, first_command()); 3],
        "H1: the in-flight value again, identical, to every node"
    );
    assert_eq!(cluster.nodes[1].role(), LogRole::Leader);
    assert_eq!(
        cluster.nodes[1].ballot(),
        Some(ballot),
        "no Phase 1, no new ballot"
    );
    assert_eq!(cluster.nodes[1].chosen_index(), Slot(1));
    cluster.write(2, 2, "x", "b");
    let sent = settle_watching_accepts(&mut cluster, 2);
    assert!(
        sent.iter()
            .all(|(slot, at, _)| *slot == Slot(2) && *at == ballot)
    );
    cluster.tick(2, 1);
    cluster.settle();
    for node in &cluster.nodes {
        assert_eq!(node.applied_index(), Slot(2));
        assert_eq!(node.store().get(&Value::new("x")), Some(&Value::new("b")));
    }
    let mut answered: Vec<(u64, Outcome)> = cluster.client_inbox.clone();
    answered.sort();
    assert_eq!(answered, vec![(1, Outcome::Written), (2, Outcome::Written)]);
}

#[test]
fn followers_and_the_old_leader_follow_the_successor_at_the_old_ballot() {
    // Followers follow the sender, not the ballot's owner: nobody times out under the successor.
    let (mut cluster, _) = leader_with_one_in_flight();
    cluster.nodes[0].hand_off(node(2)).unwrap();
    cluster.flush(0);
    cluster.settle();
    let timeout = cluster.nodes[0].config().election_timeout_ticks;
    for _ in 0..timeout * 2 {
        cluster.tick(2, 1);
        cluster.settle();
        cluster.tick(1, 1);
        cluster.tick(3, 1);
        cluster.settle();
    }
    for follower in [0, 2] {
        assert_eq!(cluster.nodes[follower].role(), LogRole::Follower);
        assert_eq!(cluster.nodes[follower].leader_hint(), Some(node(2)));
    }
    assert_eq!(cluster.nodes[1].role(), LogRole::Leader);
}

#[test]
fn the_successor_fills_no_hole_below_the_next_slot_and_learns_it_from_its_followers() {
    // H3: slot 1 is a hole at N2, chosen at the very ballot N2 takes; N2 sends nothing there.
    let (mut cluster, ballot) = successor_with_a_hole();
    cluster.nodes[0].hand_off(node(2)).unwrap();
    cluster.flush(0);
    let mut sent = settle_watching_accepts(&mut cluster, 2);
    assert_eq!(cluster.nodes[1].role(), LogRole::Leader);
    assert_eq!(
        cluster.nodes[1].chosen_index(),
        Slot(0),
        "slot 1 is a hole at N2"
    );
    cluster.write(2, 2, "x", "b");
    sent.extend(settle_watching_accepts(&mut cluster, 2));
    cluster.tick(2, 1); // the heartbeat shows N2 behind: N1 and N3 send it slot 1
    sent.extend(settle_watching_accepts(&mut cluster, 2));
    cluster.tick(2, 1);
    sent.extend(settle_watching_accepts(&mut cluster, 2));
    assert!(!sent.is_empty());
    assert!(
        sent.iter()
            .all(|(slot, at, _)| *at == ballot && successor_may_propose(Slot(2), *slot)),
        "every Accept of the successor is at the next slot or above: {sent:?}"
    );
    for node in &cluster.nodes {
        assert_eq!(node.applied_index(), Slot(2));
        assert_eq!(node.chosen()[&Slot(1)].entry, first_command());
    }
}

#[test]
fn a_restarted_old_leader_keeps_handed_off_and_stands_above_the_ballot() {
    let (mut cluster, ballot) = leader_with_one_in_flight();
    cluster.nodes[0].hand_off(node(2)).unwrap();
    cluster.flush(0);
    let config = *cluster.nodes[0].config();
    let mut restarted = ColocatedNode::restart(node(1), config, &cluster.disks[0]).unwrap();
    assert_eq!(restarted.handed_off(), Some(ballot));
    assert_eq!(restarted.hand_off(node(3)), Err(HandoffRefused::NotLeading));
    for _ in 0..config.election_timeout_ticks {
        restarted.tick();
    }
    let prepare = (restarted.peek_ready().pending_messages().iter())
        .find_map(|envelope| match envelope.message {
            LogMessage::Prepare { ballot, .. } => Some(ballot),
            _ => None,
        })
        .expect("it stands for election");
    assert!(prepare > ballot, "never proposes at {ballot} again");
}

#[test]
fn a_restarted_successor_ignores_the_handoff_it_already_took() {
    // The duplicate that would start the ballot's slots over after a restart (H1, H4).
    let (mut cluster, ballot) = leader_with_one_in_flight();
    cluster.nodes[0].hand_off(node(2)).unwrap();
    let handoff = pending_handoff(&cluster.nodes[0]).unwrap();
    cluster.flush(0);
    cluster.settle();
    assert_eq!(cluster.disks[1].took_handoff, Some(ballot));
    let config = *cluster.nodes[1].config();
    let mut restarted = ColocatedNode::restart(node(2), config, &cluster.disks[1]).unwrap();
    assert_eq!(restarted.took_handoff(), Some(ballot));
    assert_eq!(restarted.handle(&handoff), Err(Ignored::HandoffTaken));
    assert_eq!(restarted.role(), LogRole::Follower);
}

#[test]
fn a_handoff_is_refused_with_its_reason() {
    let (mut cluster, ballot) = leader_with_one_in_flight();
    assert_eq!(
        cluster.nodes[0].hand_off(node(1)),
        Err(HandoffRefused::ToItself)
    );
    assert_eq!(
        cluster.nodes[0].hand_off(node(7)),
        Err(HandoffRefused::UnknownSuccessor(node(7)))
    );
    assert_eq!(
        cluster.nodes[2].hand_off(node(1)),
        Err(HandoffRefused::NotLeading)
    );
    cluster.nodes[0].hand_off(node(2)).unwrap();
    cluster.flush(0);
    cluster.settle();
    // H4: once, by its owner; the successor never hands it on.
    assert_eq!(
        cluster.nodes[0].hand_off(node(3)),
        Err(HandoffRefused::AlreadyHandedOff(ballot))
    );
    assert_eq!(
        cluster.nodes[1].hand_off(node(3)),
        Err(HandoffRefused::HandedOnBallot(ballot))
    );
    assert!(
        cluster.nodes[1].peek_ready().is_empty(),
        "a refusal sends nothing"
    );
}

#[test]
fn duplicate_handed_on_stale_and_malformed_handoffs_are_ignored() {
    let (mut cluster, ballot) = leader_with_one_in_flight();
    cluster.nodes[0].hand_off(node(2)).unwrap();
    let handoff = pending_handoff(&cluster.nodes[0]).unwrap();
    cluster.flush(0);
    cluster.settle();
    assert_eq!(
        cluster.nodes[1].handle(&handoff),
        Err(Ignored::HandoffTaken)
    );
    let LogMessage::Handoff {
        next_slot,
        read_watermark,
        ..
    } = handoff.message.clone()
    else {
        unreachable!()
    };
    let to_n3 = |from: u8, message: LogMessage| LogEnvelope {
        from: node(from),
        to: node(3),
        message,
    };
    let handed_on = to_n3(2, handoff.message.clone());
    assert_eq!(cluster.nodes[2].handle(&handed_on), Err(Ignored::HandedOn));
    let malformed = LogMessage::Handoff {
        ballot,
        next_slot: Slot(1),
        in_flight: vec![(Slot(1), Entry::Noop)],
        read_watermark,
    };
    assert_eq!(
        cluster.nodes[2].handle(&to_n3(1, malformed)),
        Err(Ignored::MalformedHandoff)
    );
    assert_eq!(
        cluster.nodes[1].handle(&to_n3(1, handoff.message.clone())),
        Err(Ignored::NotAddressedToMe)
    );
    // N3 stands for election above the ballot: the handoff is stale there.
    let timeout = cluster.nodes[2].config().election_timeout_ticks;
    for _ in 0..timeout {
        cluster.nodes[2].tick();
    }
    cluster.flush(2);
    let stale = LogMessage::Handoff {
        ballot,
        next_slot,
        in_flight: Vec::new(),
        read_watermark,
    };
    assert_eq!(
        cluster.nodes[2].handle(&to_n3(1, stale)),
        Err(Ignored::StaleBallot)
    );
    assert_eq!(cluster.nodes[2].role(), LogRole::Candidate);
}

#[cfg(feature = "negative-controls")]
mod controls {
    use super::*;
    use crate::log::BrokenRule;

    #[test]
    fn a_successor_that_fills_holes_sends_a_second_value_at_a_chosen_slot_and_ballot() {
        // HandoffFillsGaps breaks H3, and so H1: x is chosen in slot 1 at the ballot N2 takes.
        let (mut cluster, ballot) = successor_with_a_hole();
        cluster.nodes[1].break_rule(BrokenRule::HandoffFillsGaps);
        cluster.nodes[0].hand_off(node(2)).unwrap();
        cluster.flush(0);
        let sent = settle_watching_accepts(&mut cluster, 2);
        assert!(sent.contains(&(Slot(1), ballot, Entry::Noop)), "{sent:?}");
        assert_eq!(cluster.nodes[0].chosen()[&Slot(1)].entry, first_command());
        assert_eq!(cluster.nodes[0].chosen()[&Slot(1)].ballot, ballot);
    }

    #[test]
    fn a_leader_that_hands_off_twice_gives_one_slot_two_values_at_one_ballot() {
        // DoubleHandoff breaks H4: two successors take the same next slot at the same ballot.
        let (mut cluster, ballot) = leader_with_one_in_flight();
        cluster.nodes[0].break_rule(BrokenRule::DoubleHandoff);
        cluster.nodes[0].hand_off(node(2)).unwrap();
        cluster.nodes[0].hand_off(node(3)).unwrap();
        cluster.flush(0);
        cluster.settle();
        cluster.write(2, 2, "x", "b");
        let mut sent = settle_watching_accepts(&mut cluster, 2);
        cluster.write(3, 3, "x", "c");
        let from_n3 = settle_watching_accepts(&mut cluster, 3);
        sent.retain(|(slot, _, _)| *slot == Slot(2));
        let at_slot_two: Vec<_> = (from_n3.iter())
            .filter(|(slot, at, _)| *slot == Slot(2) && *at == ballot)
            .collect();
        assert!(sent.iter().all(|(_, at, _)| *at == ballot) && !sent.is_empty());
        assert!(!at_slot_two.is_empty());
        assert_ne!(
            sent[0].2, at_slot_two[0].2,
            "two values at (slot 2, {ballot})"
        );
    }
}

#[test]
fn a_slot_only_the_old_leader_knew_chosen_is_decided_after_it_hands_off_and_crashes() {
    // H3 (in_flight_at_handoff): slot 2 is chosen above the hole at slot 1, and only N1 knows.
    let mut cluster = Cluster::new();
    cluster.elect(1);
    cluster.write(1, 1, "x", "a");
    cluster.settle_losing(|envelope| {
        matches!(envelope.message, LogMessage::Accept { .. }) && envelope.to != node(1)
    });
    cluster.write(1, 2, "y", "b");
    cluster.settle_losing(|envelope| {
        matches!(envelope.message, LogMessage::Accept { .. }) && envelope.to == node(2)
    });
    assert_eq!(cluster.nodes[0].chosen_index(), Slot(0));
    assert!(cluster.nodes[0].chosen().contains_key(&Slot(2)));
    cluster.nodes[0].hand_off(node(2)).unwrap();
    cluster.flush(0);
    // N1 crashes for good once its Handoff has left: nothing reaches it or leaves it again.
    let down = |envelope: &LogEnvelope| {
        envelope.to == node(1)
            || (envelope.from == node(1) && !matches!(envelope.message, LogMessage::Handoff { .. }))
    };
    cluster.settle_losing(down);
    for _ in 0..3 {
        cluster.tick(2, 1);
        cluster.settle_losing(down);
    }
    for index in [1, 2] {
        let survivor = &cluster.nodes[index];
        assert_eq!(survivor.chosen_index(), Slot(2), "N{}", index + 1);
        assert_eq!(
            survivor.store().get(&Value::new("y")).map(Value::as_str),
            Some("b")
        );
    }
}

#[test]
fn a_successor_fills_its_own_stale_vote_so_a_read_is_answered_with_no_write() {
    // The stale-tail rule over the successor's own votes (fill_own_stale_tail).
    let mut cluster = Cluster::new();
    cluster.elect(1);
    cluster.write(1, 1, "x", "a");
    // Only N3 votes for x=a in slot 1.
    cluster.settle_losing(|envelope| {
        matches!(envelope.message, LogMessage::Accept { .. }) && envelope.to != node(3)
    });
    assert!(cluster.nodes[2].accepts().contains_key(&Slot(1)));
    // N2 wins Phase 1 over {N1, N2}, which report nothing: its next slot is 1.
    let timeout = cluster.nodes[1].config().election_timeout_ticks;
    cluster.tick(2, timeout);
    let n3_away = |envelope: &LogEnvelope| envelope.to == node(3) || envelope.from == node(3);
    cluster.settle_losing(n3_away);
    assert_eq!(cluster.nodes[1].role(), LogRole::Leader);
    cluster.nodes[1].hand_off(node(3)).unwrap();
    cluster.flush(1);
    // N1 is down from now on, so the read's Phase-1 quorum is {N2, N3}, N3's own vote included.
    let n1_down = |envelope: &LogEnvelope| envelope.to == node(1) || envelope.from == node(1);
    cluster.settle_losing(n1_down);
    assert_eq!(cluster.nodes[2].role(), LogRole::Leader);
    cluster.client_sends(
        3,
        LogMessage::Read {
            seq: 7,
            key: Value::new("x"),
        },
    );
    cluster.settle_losing(n1_down);
    for _ in 0..3 {
        cluster.tick(3, 1);
        cluster.settle_losing(n1_down);
    }
    assert!(
        cluster.client_inbox.contains(&(7, Outcome::Read(None))),
        "the read was answered: {:?}",
        cluster.client_inbox
    );
}

#[test]
fn a_leader_that_learns_its_slot_from_a_chosen_message_stops_sending_it_again() {
    // stop_resending: however a leader learns a slot chosen, its beats stop resending it.
    let (mut cluster, ballot) = leader_with_one_in_flight();
    let vote = crate::log::SlotVote {
        ballot,
        entry: first_command(),
    };
    cluster.nodes[0]
        .handle(&LogEnvelope {
            from: node(2),
            to: node(1),
            message: LogMessage::Chosen {
                entries: vec![(Slot(1), vote)],
            },
        })
        .unwrap();
    assert_eq!(cluster.nodes[0].chosen_index(), Slot(1));
    assert!(cluster.nodes[0].proposals().is_empty());
    cluster.flush(0);
    cluster.network.clear();
    cluster.nodes[0].tick();
    let beat = cluster.nodes[0].take_ready();
    assert!(
        !(beat.pending_messages().iter())
            .any(|envelope| matches!(envelope.message, LogMessage::Accept { .. })),
        "no Accept sent again"
    );
}

//! Tests of batched Accepts: the run rules, the refusals, a batched cluster's messages and
//! writes, and a proptest that batched and unbatched leaders choose the same log.

use super::tests::{CLIENT, Cluster, node};
use crate::log::{
    AcceptBatchRefused, Entry, LogConfig, LogEnvelope, LogMessage, LogRole, Outcome,
    ProxiesRefused, Slot, SlotWindowRefused, Write, accept_run_slots, joins_the_run, voted_runs,
    window_holds_a_run,
};
use crate::{Ballot, Ignored, NodeSet, Value};

fn three() -> NodeSet {
    [1, 2, 3].map(node).into_iter().collect()
}

fn batched(batch: usize) -> Cluster {
    Cluster::of(LogConfig::new(three()).with_accept_batch(batch).unwrap())
}

/// One round, as a driver that gathers work does it: every message in flight is delivered,
/// then every node's `Ready` is persisted and its messages sent.
fn round(cluster: &mut Cluster) {
    let in_flight: Vec<LogEnvelope> = cluster.network.drain(..).collect();
    for envelope in in_flight {
        if envelope.to == node(CLIENT) {
            if let LogMessage::Reply { seq, outcome } = envelope.message {
                cluster.client_inbox.push((seq, outcome));
            }
            continue;
        }
        let index = usize::from(envelope.to.get() - 1);
        let _ignored = cluster.nodes[index].handle(&envelope);
    }
    for index in 0..cluster.nodes.len() {
        cluster.flush(index);
    }
}

fn rounds_until_quiet(cluster: &mut Cluster) {
    for _ in 0..50 {
        if cluster.network.is_empty() {
            return;
        }
        round(cluster);
    }
    panic!("the cluster did not settle in 50 rounds");
}

fn ballot(round: u32, owner: u8) -> Ballot {
    Ballot::new(round, node(owner))
}

#[test]
fn the_run_rule_takes_only_the_next_slot_at_the_same_ballot_within_the_batch() {
    let run = (ballot(1, 1), Slot(4), 2); // slots 4 and 5
    assert!(joins_the_run(run, ballot(1, 1), Slot(6), 3));
    assert!(
        !joins_the_run(run, ballot(1, 1), Slot(6), 2),
        "the run is full"
    );
    assert!(!joins_the_run(run, ballot(1, 1), Slot(7), 3), "a gap");
    assert!(
        !joins_the_run(run, ballot(1, 1), Slot(5), 3),
        "a slot already in it"
    );
    assert!(
        !joins_the_run(run, ballot(2, 1), Slot(6), 3),
        "another ballot"
    );
}

#[test]
fn a_run_names_each_entry_by_its_slot_and_votes_answer_as_consecutive_runs() {
    let entries = [Entry::Noop, Entry::Trim(Slot(1))];
    let slots: Vec<(Slot, &Entry)> = accept_run_slots(Slot(7), &entries).collect();
    assert_eq!(slots, vec![(Slot(7), &entries[0]), (Slot(8), &entries[1])]);
    let voted = [3, 4, 5, 7, 9, 10].map(Slot);
    assert_eq!(
        voted_runs(&voted),
        vec![(Slot(3), Slot(5)), (Slot(7), Slot(7)), (Slot(9), Slot(10))],
        "a slot not voted in splits the run"
    );
    assert!(voted_runs(&[]).is_empty());
}

/// The run-in-window rule (`window_holds_a_run`): a window below the accept batch is refused,
/// whichever of the two is set first, and a window equal to it is taken.
#[test]
fn a_window_below_the_accept_batch_is_refused_either_way_round() {
    let window = |slots| std::num::NonZeroU64::new(slots).unwrap();
    let batched = LogConfig::new(three()).with_accept_batch(4).unwrap();
    assert_eq!(
        batched.with_slot_window(window(3)),
        Err(SlotWindowRefused::BelowAcceptBatch {
            window: 3,
            accept_batch: 4
        })
    );
    assert_eq!(
        (batched.with_slot_window(window(4))).map(|config| config.slot_window()),
        Ok(4)
    );
    let narrow = LogConfig::new(three()).with_slot_window(window(3)).unwrap();
    assert_eq!(
        narrow.with_accept_batch(4),
        Err(AcceptBatchRefused::AboveSlotWindow {
            batch: 4,
            window: 3
        })
    );
    assert_eq!(
        (narrow.with_accept_batch(3)).map(|config| config.accept_batch()),
        Ok(3)
    );
    assert!(window_holds_a_run(4, 4) && !window_holds_a_run(3, 4));
}

#[test]
fn a_batch_of_zero_and_a_batch_with_proxies_are_refused_either_way_round() {
    let plain = LogConfig::new(three());
    assert_eq!(plain.accept_batch(), 1);
    assert_eq!(plain.with_accept_batch(0), Err(AcceptBatchRefused::Zero));
    let proxies: NodeSet = [node(5)].into_iter().collect();
    let with_proxies = plain.with_proxies(proxies).unwrap();
    assert_eq!(
        with_proxies.with_accept_batch(4),
        Err(AcceptBatchRefused::WithProxies)
    );
    assert_eq!(
        with_proxies
            .with_accept_batch(1)
            .map(|config| config.accept_batch()),
        Ok(1),
        "a batch of 1 is no batching"
    );
    let batched = plain.with_accept_batch(4).unwrap();
    assert_eq!(
        batched.with_proxies(proxies),
        Err(ProxiesRefused::AcceptsBatched)
    );
}

#[test]
fn a_batched_leader_sends_one_run_per_node_and_learns_every_slot_from_one_answer_each() {
    let mut cluster = batched(8);
    cluster.elect(1);
    for seq in 1..=5 {
        cluster.write(1, seq, "x", &seq.to_string());
    }
    round(&mut cluster); // the writes reach the leader, which proposes slots 1 to 5
    let accepts: Vec<&LogEnvelope> = cluster.network.iter().collect();
    assert_eq!(accepts.len(), 3, "one message per node: {accepts:?}");
    for envelope in &accepts {
        let LogMessage::AcceptRun { first, entries, .. } = &envelope.message else {
            panic!("not a run: {envelope:?}");
        };
        assert_eq!((*first, entries.len()), (Slot(1), 5));
    }
    round(&mut cluster); // every node votes in all five
    let answers: Vec<&LogMessage> = cluster.network.iter().map(|e| &e.message).collect();
    assert_eq!(answers.len(), 3);
    assert!(answers.iter().all(|message| matches!(
        message,
        LogMessage::AcceptedRun {
            first: Slot(1),
            through: Slot(5),
            ..
        }
    )));
    round(&mut cluster); // the leader counts: all five chosen and applied
    let leader = &cluster.nodes[0];
    assert_eq!(leader.chosen_index(), Slot(5));
    assert_eq!(leader.applied_index(), Slot(5));
    assert!(leader.proposals().is_empty());
    assert_eq!(cluster.disks[0].chosen_through, Slot(5));
    rounds_until_quiet(&mut cluster);
    let replies: Vec<u64> = cluster.client_inbox.iter().map(|(seq, _)| *seq).collect();
    assert_eq!(replies, vec![1, 2, 3, 4, 5]);
}

#[test]
fn a_follower_learns_a_whole_run_with_one_chosen_through_mark() {
    let mut cluster = batched(8);
    cluster.elect(1);
    for seq in 1..=4 {
        cluster.write(1, seq, "x", &seq.to_string());
    }
    rounds_until_quiet(&mut cluster);
    cluster.write(1, 5, "y", "5"); // its run carries the commit index 4
    round(&mut cluster);
    round(&mut cluster);
    assert_eq!(cluster.disks[1].chosen_through, Slot(4));
    let chosen_through_writes = cluster.frames[1]
        .iter()
        .filter(|frame| matches!(crate::log::decode(frame), Ok(Write::ChosenThrough(_))))
        .count();
    assert_eq!(chosen_through_writes, 1, "one mark for the four slots");
}

#[test]
fn batch_one_sends_single_accepts_and_no_run() {
    let mut cluster = batched(1);
    cluster.elect(1);
    cluster.write(1, 1, "x", "1");
    cluster.write(1, 2, "x", "2");
    round(&mut cluster);
    assert_eq!(cluster.network.len(), 6);
    assert!(
        (cluster.network.iter())
            .all(|envelope| matches!(envelope.message, LogMessage::Accept { .. }))
    );
}

#[test]
fn a_run_below_the_promise_gets_one_nack_and_no_vote() {
    let mut cluster = batched(4);
    cluster.elect(1);
    let stale = LogEnvelope {
        from: node(1),
        to: node(2),
        message: LogMessage::AcceptRun {
            ballot: Ballot::new(0, node(1)),
            first: Slot(1),
            entries: vec![Entry::Noop, Entry::Noop],
            commit: Slot(0),
        },
    };
    cluster.nodes[1].handle(&stale).unwrap();
    let ready = cluster.nodes[1].peek_ready();
    assert!(ready.writes().is_empty());
    assert_eq!(ready.pending_messages().len(), 1);
    assert!(matches!(
        ready.pending_messages()[0].message,
        LogMessage::Nack { .. }
    ));
}

#[test]
fn an_empty_run_is_ignored_with_its_reason() {
    let mut cluster = batched(4);
    cluster.elect(1);
    let leader_ballot = cluster.nodes[0].ballot().unwrap();
    let empty = LogEnvelope {
        from: node(1),
        to: node(2),
        message: LogMessage::AcceptRun {
            ballot: leader_ballot,
            first: Slot(1),
            entries: Vec::new(),
            commit: Slot(0),
        },
    };
    assert_eq!(cluster.nodes[1].handle(&empty), Err(Ignored::EmptyRun));
    let backwards = LogEnvelope {
        from: node(2),
        to: node(1),
        message: LogMessage::AcceptedRun {
            ballot: leader_ballot,
            first: Slot(3),
            through: Slot(2),
        },
    };
    assert_eq!(cluster.nodes[0].handle(&backwards), Err(Ignored::EmptyRun));
}

#[test]
fn a_retry_of_a_proposed_request_takes_no_second_slot_when_batched() {
    let mut cluster = batched(8);
    cluster.elect(1);
    cluster.write(1, 1, "x", "1");
    cluster.write(1, 1, "x", "1");
    round(&mut cluster);
    assert!(
        (cluster.network.iter())
            .all(|envelope| matches!(envelope.message, LogMessage::Accept { slot: Slot(1), .. })),
        "the retry was found among the proposals: one slot, a run of one, a plain Accept"
    );
    assert_eq!(cluster.network.len(), 3);
    rounds_until_quiet(&mut cluster);
    assert_eq!(cluster.nodes[0].chosen_index(), Slot(1));
    assert_eq!(cluster.client_inbox.len(), 1, "answered once, when applied");
    assert_eq!(cluster.client_inbox[0], (1, Outcome::Written));
}

#[test]
fn a_lost_run_is_sent_again_in_runs_by_the_beat() {
    let mut cluster = batched(8);
    cluster.elect(1);
    for seq in 1..=3 {
        cluster.write(1, seq, "x", &seq.to_string());
    }
    round(&mut cluster);
    cluster
        .network
        .retain(|envelope| envelope.to == node(1) || envelope.to == node(CLIENT));
    rounds_until_quiet(&mut cluster);
    assert_eq!(
        cluster.nodes[0].chosen_index(),
        Slot(0),
        "only the leader voted"
    );
    cluster.tick(1, 1);
    let resent: Vec<&LogMessage> = (cluster.network.iter())
        .filter(|envelope| matches!(envelope.message, LogMessage::AcceptRun { .. }))
        .map(|envelope| &envelope.message)
        .collect();
    assert_eq!(resent.len(), 2, "one run to each node that did not vote");
    rounds_until_quiet(&mut cluster);
    assert_eq!(cluster.nodes[0].chosen_index(), Slot(3));
    assert_eq!(cluster.nodes[0].role(), LogRole::Leader);
}

mod same_log {
    use super::*;
    use proptest::prelude::*;
    use std::collections::VecDeque;

    /// A node's chosen log, slot by slot, and its store, key by key.
    type NodeOutcome = (Vec<(Slot, Entry)>, Vec<(Value, Value)>);

    /// Runs `commands` through a cluster batching `batch` slots, `arrivals[i]` of them reaching
    /// the leader in round `i`, with the nodes' messages of each round rotated by `rotations[i]`
    /// so votes arrive in other orders; returns every node's chosen log and store.
    fn run(
        batch: usize,
        commands: &[(u8, u8)],
        arrivals: &[usize],
        rotations: &[usize],
    ) -> Vec<NodeOutcome> {
        let mut cluster = batched(batch);
        cluster.elect(1);
        let mut next = 0;
        let mut seq = 1;
        for (count, rotation) in arrivals.iter().zip(rotations.iter().cycle()) {
            for (key, value) in commands.iter().skip(next).take(*count) {
                cluster.write(1, seq, &format!("k{key}"), &value.to_string());
                seq += 1;
            }
            next += count;
            // Rotate what the nodes sent one another; the client's writes keep their order.
            let (writes, mut among_nodes): (VecDeque<_>, VecDeque<_>) = (cluster.network)
                .drain(..)
                .partition(|envelope| envelope.from == node(CLIENT));
            let length = among_nodes.len().max(1);
            among_nodes.rotate_left(rotation % length);
            cluster.network = among_nodes;
            cluster.network.extend(writes);
            round(&mut cluster);
        }
        for (key, value) in commands.iter().skip(next) {
            cluster.write(1, seq, &format!("k{key}"), &value.to_string());
            seq += 1;
        }
        rounds_until_quiet(&mut cluster);
        cluster.tick(1, 1); // the heartbeat carries the last commit index
        rounds_until_quiet(&mut cluster);
        (cluster.nodes.iter())
            .map(|node| {
                let log = (node.chosen().iter())
                    .map(|(slot, vote)| (*slot, vote.entry.clone()))
                    .collect();
                let store = (node.store().iter())
                    .map(|(key, value)| (key.clone(), value.clone()))
                    .collect();
                (log, store)
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Batching changes how Phase 2 travels, not what is chosen: for the same commands
        /// arriving in the same order, a batched and an unbatched leader choose the same entry
        /// in every slot, and every node applies the same store.
        #[test]
        fn batched_and_unbatched_leaders_choose_the_same_log(
            commands in proptest::collection::vec((0u8..4, any::<u8>()), 1..40),
            arrivals in proptest::collection::vec(0usize..12, 0..8),
            rotations in proptest::collection::vec(0usize..7, 1..4),
            batch in 2usize..10,
        ) {
            let unbatched = run(1, &commands, &arrivals, &rotations);
            let batched = run(batch, &commands, &arrivals, &rotations);
            prop_assert_eq!(&unbatched, &batched);
            let (log, _) = &unbatched[0];
            prop_assert_eq!(log.len(), commands.len(), "every command chosen once");
        }
    }
}

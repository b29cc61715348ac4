//! Tests of batched Accepts in the log world: a run of two slots sent by a new leader's
//! recovery, voted and counted slot by slot, and its name; and the memo exact over a
//! world that sends runs.

use super::proxy_tests::memo_search_matches_plain;
use super::test_worlds::{after, config_of};
use super::*;
use paros_core::Ballot;
use paros_core::log::{LogMessage, Slot};

/// After the prelude of act2-runs-batched: x=1 is chosen in slot 1 by {N1, N2} and N3 voted
/// for it too; N2 votes for x=2 in slot 2 (learning slot 1 chosen from its commit index); N3,
/// which knows nothing chosen, stands for election and hears N2's Promise of both votes.
const N3_RECOVERS_TWO_SLOTS: &[&str] = &[
    "request C1 N1",
    "deliver C1->N1 Write",
    "deliver N1->N2 Accept",
    "deliver N1->N3 Accept",
    "deliver N2->N1 Accepted",
    "deliver N1->C1 Reply",
    "request C1 N1",
    "deliver C1->N1 Write",
    "deliver N1->N2 Accept",
    "tick N3",
    "deliver N3->N2 Prepare",
    "deliver N2->N3 Promise",
];

fn world_after(actions: &[&str]) -> LogWorld {
    let (config, prelude) = config_of("act2-runs-batched");
    let world = after(config, &[prelude.as_slice(), actions].concat());
    assert!(world.violations().is_empty(), "{:?}", world.violations());
    assert_eq!(world.fingerprint(), world.fingerprint_from_scratch());
    world
}

/// The runs in flight: receiver, first slot, length.
fn runs_in_flight(world: &LogWorld) -> Vec<(String, Slot, usize)> {
    (world.in_flight().iter())
        .filter_map(|message| match &message.envelope.message {
            LogMessage::AcceptRun { first, entries, .. } => {
                Some((world.name(message.envelope.to), *first, entries.len()))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn a_new_leader_recovers_two_slots_in_one_run_and_each_is_chosen_by_its_own_votes() {
    let world = world_after(N3_RECOVERS_TWO_SLOTS);
    assert_eq!(
        runs_in_flight(&world),
        vec![("N1".to_owned(), Slot(1), 2), ("N2".to_owned(), Slot(1), 2)],
        "N3's recovery proposes slots 1 and 2 in one run to each other node"
    );
    let text = (world.in_flight().iter())
        .find(|message| matches!(message.envelope.message, LogMessage::AcceptRun { .. }))
        .map(|message| world.message_name(&message.envelope.message))
        .unwrap();
    assert_eq!(
        text,
        "AcceptRun(2.N3, slots 1-2, [x=1 (C1#1); x=2 (C1#2)], commit 0)"
    );
    let world = world_after(
        &[
            N3_RECOVERS_TWO_SLOTS,
            &["deliver N3->N2 AcceptRun", "deliver N2->N3 AcceptedRun"],
        ]
        .concat(),
    );
    let n3 = world.servers()[2].host.node().unwrap();
    assert_eq!(
        n3.chosen_index(),
        Slot(2),
        "both slots learned from one answer"
    );
    let run_ballot = n3.ballot().unwrap();
    for slot in [Slot(1), Slot(2)] {
        let votes = world.votes_in(slot);
        let at_run_ballot: Vec<_> = (votes.iter())
            .filter(|cast| cast.ballot == run_ballot)
            .map(|cast| cast.voters.len())
            .collect();
        assert_eq!(
            at_run_ballot,
            vec![2],
            "slot {slot}: N2's and N3's votes from the run, counted slot by slot: {votes:?}"
        );
    }
}

#[test]
fn a_search_through_the_memo_visits_what_one_without_it_does_with_runs() {
    // Server steps through the memo must match `apply`'s, state for state, when the messages
    // they take and send are runs.
    memo_search_matches_plain(world_after(&N3_RECOVERS_TWO_SLOTS[..8]));
}

#[test]
fn the_learn_early_control_takes_every_slot_of_a_run_for_chosen() {
    // The control's fault must reach runs too, or a batched world would hide it: every entry
    // of a run, each in its own slot at the run's ballot.
    let world = world_after(N3_RECOVERS_TWO_SLOTS);
    let run = (world.in_flight().iter())
        .find(|message| matches!(message.envelope.message, LogMessage::AcceptRun { .. }))
        .unwrap();
    let learned = super::network::learned_early(&run.envelope.message).unwrap();
    let ballot = world.servers()[2].host.node().unwrap().ballot().unwrap();
    let slots: Vec<(Slot, Ballot)> = (learned.iter())
        .map(|(slot, vote)| (*slot, vote.ballot))
        .collect();
    assert_eq!(slots, vec![(Slot(1), ballot), (Slot(2), ballot)]);
}

#[test]
fn plain_accepts_for_consecutive_slots_are_caught_where_runs_are_allowed() {
    // The control: N1 sends N2 plain Accepts for slots 1 and 2 at one ballot in one step, as a
    // leader that ignored its batch would. Caught in the batched world; not in a world of
    // batch 1, nor when the second Accept goes to another node or skips a slot.
    use crate::check::Property;
    use paros_core::NodeId;
    let accept = |to: u8, slot: u64| LogEnvelope {
        from: NodeId::new(1).unwrap(),
        to: NodeId::new(to).unwrap(),
        message: LogMessage::Accept {
            ballot: Ballot::new(1, NodeId::new(1).unwrap()),
            slot: Slot(slot),
            entry: Entry::Noop,
            commit: Slot(0),
        },
    };
    let unbatched = || {
        let (mut config, _) = config_of("act2-runs-batched");
        config.accept_batch = 1;
        LogWorld::new(config).unwrap()
    };
    let cases = [
        (world_after(&[]), vec![accept(2, 1), accept(2, 2)], true),
        (unbatched(), vec![accept(2, 1), accept(2, 2)], false),
        (world_after(&[]), vec![accept(2, 1), accept(3, 2)], false),
        (world_after(&[]), vec![accept(2, 1), accept(2, 3)], false),
    ];
    for (mut world, messages, caught) in cases {
        world.check_runs_batched(0, &messages);
        let found =
            (world.violations().iter()).any(|found| found.property == Property::RunsBatched);
        assert_eq!(found, caught, "{messages:?}");
    }
}

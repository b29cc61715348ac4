//! The commit rule's checker ([`Property::CommitIsDecidedAtBallot`]), on forged knowledge: no
//! world of this paros-core sends a commit over another ballot's decision (a raised promise
//! deposes the leader first), so the control writes the checker's input by hand, as a stale
//! leader that installed a higher ballot's trim point would have left it.

use super::{ClientOp, LogWorld, LogWorldConfig, SlotVotes};
use crate::check::Property;
use paros_core::log::{Entry, Slot};
use paros_core::{Ballot, NodeId, NodeSet};
use std::sync::Arc;

fn node(number: u8) -> NodeId {
    NodeId::new(number).unwrap()
}

/// Slot 1: a no-op chosen at 2.N2 by {N2, N3}; N1 voted a trim there at 1.N1.
fn world_with_a_stale_vote() -> LogWorld {
    let mut world =
        LogWorld::new(LogWorldConfig::three_nodes(vec![ClientOp::write("x", "1")])).unwrap();
    let stale = Ballot::new(1, node(1));
    let higher = Ballot::new(2, node(2));
    let knowledge = Arc::make_mut(&mut world.knowledge);
    let voters: NodeSet = [node(2), node(3)].into_iter().collect();
    knowledge.votes.insert(
        (Slot(1), stale, Entry::Trim(Slot(1))),
        [node(1)].into_iter().collect(),
    );
    knowledge
        .votes
        .insert((Slot(1), higher, Entry::Noop), voters);
    knowledge.chosen.insert(
        Slot(1),
        SlotVotes {
            slot: Slot(1),
            ballot: higher,
            entry: Entry::Noop,
            voters,
        },
    );
    world
}

#[test]
fn a_commit_over_another_ballots_decision_is_caught() {
    let mut world = world_with_a_stale_vote();
    world.check_commits(node(1), &[(Ballot::new(1, node(1)), Slot(1))]);
    let violations = world.violations();
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert_eq!(violations[0].property, Property::CommitIsDecidedAtBallot);
}

#[test]
fn a_commit_over_its_own_ballots_decision_is_not() {
    let mut world = world_with_a_stale_vote();
    world.check_commits(node(2), &[(Ballot::new(2, node(2)), Slot(1))]);
    // N1's commit at 1.N1 below the stale slot is sound too.
    world.check_commits(node(1), &[(Ballot::new(1, node(1)), Slot(0))]);
    assert!(world.violations().is_empty());
}

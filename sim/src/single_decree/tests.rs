//! Tests of the World: replay is exact, fingerprints see what matters, and the checkers catch
//! the amnesia negative control.

use super::check;
use super::{DecreeAction, DecreeWorld, DecreeWorldConfig};
use crate::check::Property;
use crate::model::Model;
use crate::{Fault, NegativeControl, Refused};
use proptest::prelude::*;

/// Applies the delivery of the one in-flight message `from -> to` of `kind`.
fn deliver(world: &mut DecreeWorld, from: &str, to: &str, kind: &str) {
    let id = world
        .in_flight()
        .iter()
        .find(|message| {
            world.name(message.envelope.from) == from
                && world.name(message.envelope.to) == to
                && message.envelope.message.kind() == kind
        })
        .unwrap_or_else(|| panic!("no {kind} {from}->{to} in flight"))
        .id;
    world
        .apply(&DecreeAction::Deliver(id))
        .expect("deliverable");
}

fn duel_config(amnesia: u32) -> DecreeWorldConfig {
    let mut config = DecreeWorldConfig::act1(&["x", "y"]);
    if amnesia > 0 {
        config.budget = config.budget.with(Fault::Amnesia, amnesia);
        config.negative_control = Some(NegativeControl::Amnesia);
    }
    config
}

/// Plays: P1 gets x chosen by {A1, A2}; then, if `forget`, A2 loses its memory; then P2 runs
/// Phase 1 and Phase 2 over {A2, A3}.
fn second_proposer_after_choice(forget: bool) -> DecreeWorld {
    let mut world = DecreeWorld::new(duel_config(u32::from(forget))).unwrap();
    for acceptor in ["A1", "A2"] {
        deliver(&mut world, "P1", acceptor, "Prepare");
        deliver(&mut world, acceptor, "P1", "Promise");
    }
    for acceptor in ["A1", "A2"] {
        deliver(&mut world, "P1", acceptor, "Accept");
    }
    assert_eq!(
        world.chosen().len(),
        1,
        "x is chosen by A1 and A2 before anyone learns it"
    );
    if forget {
        let a2 = world.parse_action("amnesia A2").unwrap();
        world.apply(&a2).unwrap();
    }
    for acceptor in ["A2", "A3"] {
        deliver(&mut world, "P2", acceptor, "Prepare");
        deliver(&mut world, acceptor, "P2", "Promise");
    }
    for acceptor in ["A2", "A3"] {
        deliver(&mut world, "P2", acceptor, "Accept");
    }
    world
}

#[test]
fn a_second_proposer_adopts_the_chosen_value() {
    // Paxos Made Simple, P2c: A2's Promise reports (1.P1, x), so P2 proposes x, not y.
    let world = second_proposer_after_choice(false);
    assert!(check::safety(&world).is_empty());
    assert!(
        world
            .chosen()
            .iter()
            .all(|votes| votes.value.as_str() == "x")
    );
}

#[test]
fn agreement_catches_the_amnesia_control() {
    // The negative control: A2 forgets its vote, so P2's quorum {A2, A3} reports nothing.
    let world = second_proposer_after_choice(true);
    let violations = check::safety(&world);
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert_eq!(violations[0].property, Property::Agreement);
    assert_eq!(
        violations[0].detail,
        "x chosen at 1.P1 by {A1, A2}; y chosen at 1.P2 by {A2, A3}"
    );
}

#[test]
fn validity_and_learning_hold_on_the_happy_path() {
    let mut world = DecreeWorld::new(DecreeWorldConfig::act1(&["x"])).unwrap();
    while let Some(action) = world.enabled().first().copied() {
        world.apply(&action).unwrap();
    }
    assert!(check::safety(&world).is_empty());
    assert_eq!(
        world.proposers()[0].learned().map(|value| value.as_str()),
        Some("x")
    );
}

#[test]
fn amnesia_is_refused_outside_its_negative_control() {
    let mut config = DecreeWorldConfig::act1(&["x"]);
    config.budget = config.budget.with(Fault::Amnesia, 1);
    assert!(matches!(
        DecreeWorld::new(config),
        Err(Refused::BadConfig(_))
    ));
}

#[test]
fn actions_print_as_they_read_and_parse_back() {
    let world = DecreeWorld::new(DecreeWorldConfig::act1(&["x", "y"])).unwrap();
    let first = world.enabled()[0];
    assert_eq!(world.describe(&first), "deliver m1 P1->A1 Prepare(1.P1)");
    assert_eq!(world.parse_action(&world.describe(&first)), Ok(first));
    let retry = world.parse_action("retry P2").unwrap();
    assert_eq!(world.describe(&retry), "retry P2");
    assert_eq!(retry.to_string().parse::<DecreeAction>(), Ok(retry));
}

#[test]
fn fingerprints_see_messages_budgets_and_records() {
    let base = DecreeWorld::new(DecreeWorldConfig::act1(&["x"])).unwrap();
    // An in-flight message: duplicating m1 differs only by one more message (and its budget),
    // so compare two worlds with the same budgets instead: drop m1 vs drop m2.
    let mut config = DecreeWorldConfig::act1(&["x"]);
    config.budget = config.budget.with(Fault::Drop, 1);
    let drop_one =
        DecreeWorld::replay(config.clone(), &[DecreeAction::Drop(crate::MessageId(1))]).unwrap();
    let drop_two =
        DecreeWorld::replay(config.clone(), &[DecreeAction::Drop(crate::MessageId(2))]).unwrap();
    assert_ne!(drop_one.fingerprint(), drop_two.fingerprint());
    // A budget: the same nodes and messages, one more drop left.
    let fresh = DecreeWorld::new(config).unwrap();
    assert_ne!(fresh.fingerprint(), base.fingerprint());
    // A node's record: A1 promised 1.P1 (its Promise then dropped) vs A1 untouched.
    let mut config = DecreeWorldConfig::act1(&["x"]);
    config.budget = config.budget.with(Fault::Drop, 1);
    let promised = DecreeWorld::replay(
        config.clone(),
        &[
            DecreeAction::Deliver(crate::MessageId(1)),
            DecreeAction::Drop(crate::MessageId(4)),
        ],
    )
    .unwrap();
    let untouched =
        DecreeWorld::replay(config, &[DecreeAction::Drop(crate::MessageId(1))]).unwrap();
    assert_eq!(promised.in_flight().len(), untouched.in_flight().len());
    assert_ne!(promised.fingerprint(), untouched.fingerprint());
}

#[test]
fn fingerprints_ignore_message_ids_but_not_contents() {
    // Delivering A1's then A2's Prepare, or A2's then A1's, leaves the same multiset of
    // messages under different ids: the same world for the future.
    let config = DecreeWorldConfig::act1(&["x"]);
    let one_two = DecreeWorld::replay(
        config.clone(),
        &[
            DecreeAction::Deliver(crate::MessageId(1)),
            DecreeAction::Deliver(crate::MessageId(2)),
        ],
    )
    .unwrap();
    let two_one = DecreeWorld::replay(
        config,
        &[
            DecreeAction::Deliver(crate::MessageId(2)),
            DecreeAction::Deliver(crate::MessageId(1)),
        ],
    )
    .unwrap();
    let promise_from_a1 = |world: &DecreeWorld| {
        let found = world
            .in_flight()
            .into_iter()
            .find(|message| world.name(message.envelope.from) == "A1");
        found.expect("A1 promised").id
    };
    assert_ne!(promise_from_a1(&one_two), promise_from_a1(&two_one));
    assert_eq!(one_two.fingerprint(), two_one.fingerprint());
}

proptest! {
    /// A refused action leaves the world exactly as it was.
    #[test]
    fn refused_actions_change_nothing(id in 0u32..40, node in 1u8..8) {
        let world = DecreeWorld::new(DecreeWorldConfig::act1(&["x", "y"])).unwrap();
        let node = paros_core::NodeId::new(node).unwrap();
        for action in [DecreeAction::Drop(crate::MessageId(id)), DecreeAction::Duplicate(crate::MessageId(id)), DecreeAction::Retry(node), DecreeAction::Amnesia(node)] {
            let mut copy = world.clone();
            if copy.apply(&action).is_err() {
                prop_assert_eq!(copy.fingerprint(), world.fingerprint());
            }
        }
    }
}

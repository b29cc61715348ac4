//! Tests of the Matchmaker Paxos world: actions read as they print, replay gives the same
//! fingerprint, the honest runs stay safe, and each negative control trips its own property.

use super::{MatchmakerWorld, MatchmakerWorldConfig, MmAction};
use crate::check::Property;
use crate::model::Model;
use paros_core::Value;

/// Plays `actions`, each read from its words; a described action must read back as written.
fn play(world: &mut MatchmakerWorld, actions: &[&str]) {
    for text in actions {
        let action = world
            .parse_action(text)
            .unwrap_or_else(|why| panic!("{text}: {why}"));
        if text.contains("->") && text.contains('(') {
            assert_eq!(world.describe(&action), *text);
        }
        world
            .apply(&action)
            .unwrap_or_else(|why| panic!("{text}: {why}"));
    }
}

/// Delivers every message in flight, oldest first, until none is left.
fn run(world: &mut MatchmakerWorld) {
    while let Some(message) = world.in_flight().first() {
        world.apply(&MmAction::Deliver(message.id)).unwrap();
    }
}

fn violated(world: &MatchmakerWorld) -> Vec<Property> {
    world.violations().iter().map(|v| v.property).collect()
}

#[test]
fn l1_chooses_x_then_l2_reconfigures_and_keeps_it() {
    let mut world = MatchmakerWorld::new(MatchmakerWorldConfig::two_configurations()).unwrap();
    play(&mut world, &["start L1"]);
    run(&mut world);
    assert_eq!(world.leaders()[0].chosen(), Some(&Value::new("x")));
    play(&mut world, &["start L2"]);
    run(&mut world);
    let l2 = &world.leaders()[1];
    assert_eq!(l2.history().len(), 1);
    assert_eq!(l2.chosen(), Some(&Value::new("x")));
    play(&mut world, &["collect L2"]);
    run(&mut world);
    assert!(world.leaders()[1].gc_proof().is_some());
    play(&mut world, &["retire L2"]);
    run(&mut world);
    assert_eq!(
        world.retired(),
        [MatchmakerWorldConfig::acceptor_id(1)]
            .into_iter()
            .collect()
    );
    assert!(violated(&world).is_empty(), "{:?}", world.violations());
    // All that is left is L1 collecting below its own round, which collects nothing.
    let l1 = MatchmakerWorldConfig::leader_id(0);
    assert_eq!(world.enabled(), vec![MmAction::Collect(l1)]);
}

#[test]
fn actions_print_and_parse_back() {
    let mut world = MatchmakerWorld::new(MatchmakerWorldConfig::two_configurations()).unwrap();
    play(
        &mut world,
        &[
            "start L2",
            "deliver m1 L2->M1 MatchA(2.L2, {A2, A3, A4})",
            "deliver L2->M2 MatchA",
            "deliver m4 M1->L2 MatchB(2.L2, [])",
        ],
    );
    for action in world.enabled() {
        assert_eq!(world.parse_action(&action.to_string()), Ok(action));
        assert_eq!(world.parse_action(&world.describe(&action)), Ok(action));
    }
    assert_eq!(
        world.parse_action("crash M1"),
        Ok(MmAction::Crash(
            super::MatchmakerWorldConfig::matchmaker_id(0)
        ))
    );
    assert!(world.parse_action("crash Q1").is_err());
}

//! The log world over a configured quorum system: chosen judged by its Phase-2 quorums, a
//! configuration over other nodes refused, and the control whose phases miss each other caught
//! as a break of agreement, and of agreement only.

use super::test_worlds::{after, config_of, nodes};
use super::{LogWorld, LogWorldConfig};
use crate::check::Property;
use crate::faults::{NegativeControl, Refused};
use crate::report::Verdict;
use paros_core::log::Slot;
use paros_core::{QuorumSystem, Quorums};

#[test]
fn chosen_is_judged_by_the_configured_phase2_quorums() {
    // act4-flexible-quorums' prelude: x=1 voted by {N1, N2} in slot 1. With q2 = 2 that is
    // chosen; the same votes over majorities of four are not.
    let (config, prelude) = config_of("act4-flexible-quorums");
    assert_eq!(config.quorum_system().phase2_size(), 2);
    let world = after(config.clone(), &prelude);
    let chosen = world.chosen_entry(Slot(1)).expect("chosen by two of four");
    assert_eq!(chosen.voters, nodes(&[1, 2]));
    assert_eq!(world.chosen_by_votes().len(), 1);

    let mut majority = config;
    majority.quorums = None;
    let world = after(majority, &prelude);
    assert!(world.chosen_entry(Slot(1)).is_none());
    assert!(world.chosen_by_votes().is_empty());
}

#[test]
fn a_quorum_system_over_other_nodes_is_refused() {
    let mut config = LogWorldConfig::three_nodes(Vec::new());
    config.quorums = Some(Quorums::flexible(nodes(&[1, 2, 3, 4]), 3, 2).unwrap());
    assert!(matches!(
        LogWorld::new(config.clone()),
        Err(Refused::BadConfig(why)) if why.contains("other nodes")
    ));
    config.node_count = 4;
    assert!(LogWorld::new(config).is_ok());
}

#[test]
fn the_control_builds_its_own_quorums_over_an_even_cluster() {
    let (config, _) = config_of("act4-non-intersecting-quorums-control");
    let broken = config.quorum_system();
    assert_eq!((broken.phase1_size(), broken.phase2_size()), (2, 2));
    // The core would not build it: the world did, for the control only.
    assert!(Quorums::flexible(broken.acceptors(), 2, 2).is_err());
    assert!(!broken.intersects());
    let mut odd = config.clone();
    odd.node_count = 3;
    assert!(LogWorld::new(odd).is_err());
    let mut configured = config;
    configured.quorums = Some(Quorums::flexible(nodes(&[1, 2, 3, 4]), 3, 2).unwrap());
    assert!(LogWorld::new(configured).is_err());
}

#[test]
fn the_game_cannot_switch_a_world_to_the_broken_quorums() {
    let world = LogWorld::new(LogWorldConfig::three_nodes(Vec::new())).unwrap();
    let mut four = world.config().clone();
    four.node_count = 4;
    let world = LogWorld::new(four).unwrap();
    assert!(matches!(
        world.with_negative_control(NegativeControl::NonIntersectingQuorums),
        Err(Refused::BadConfig(why)) if why.contains("fixed")
    ));
}

#[test]
fn the_non_intersecting_control_is_found_and_breaks_agreement_only() {
    // The explorer's counterexample, replayed: one slot holds two entries, each chosen by a
    // Phase-2 quorum of the broken system that the other leader's Phase-1 quorum missed.
    let report = crate::book::report_for("act4-non-intersecting-quorums-control").unwrap();
    assert_eq!(report.verdict, Verdict::Violation);
    let (config, _) = config_of("act4-non-intersecting-quorums-control");
    let mut world = LogWorld::new(config).unwrap();
    for text in &report.counterexample {
        let action = world.parse_action(text).unwrap();
        world.apply(&action).unwrap();
    }
    let properties: Vec<Property> = world.violations().iter().map(|v| v.property).collect();
    assert_eq!(properties, vec![Property::Agreement]);
    let chosen = world.chosen_by_votes();
    let [first, second] = chosen.as_slice() else {
        panic!("two entries chosen: {chosen:?}")
    };
    assert_eq!((first.slot, second.slot), (Slot(1), Slot(1)));
    assert_ne!(first.entry, second.entry);
    assert_eq!((first.voters.len(), second.voters.len()), (2, 2));
}

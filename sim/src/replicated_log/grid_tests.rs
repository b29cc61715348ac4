//! The log world over a grid: chosen judged per slot by the slot's own column, as paros-core
//! counts it; a grid over other nodes refused; and the three Act IV controls of this part (a
//! grid whose rows decide, reads from commit indexes, a read that skips the rinse) each caught
//! as a break of its own property, and of it only.

use super::test_worlds::{after, config_of, nodes};
use super::{LogWorld, LogWorldConfig};
use crate::check::Property;
use crate::faults::{NegativeControl, Refused};
use crate::report::Verdict;
use paros_core::log::{Entry, Slot};
use paros_core::{Grid, NodeId, QuorumSystem, Quorums};

/// act4-skip-rinse-control's prelude (N1 elected by its row, x=1 voted by N1 in slot 1),
/// then N1's Accepts delivered to N2 and N4: slot 1 holds votes from {N1, N2, N4}.
const VOTED_OUTSIDE_THE_COLUMN: &[&str] = &[
    "deliver m6 N1->N2 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "deliver m8 N1->N4 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
];

#[test]
fn chosen_is_judged_by_the_slots_own_column() {
    // act4-grid's prelude: x=1 voted in slot 1 by its column {N1, N3}: chosen.
    let (config, prelude) = config_of("act4-grid");
    let world = after(config.clone(), &prelude);
    let chosen = world.chosen_entry(Slot(1)).expect("chosen by its column");
    assert_eq!(chosen.voters, nodes(&[1, 3]));

    // Votes from {N1, N2, N4}: one in each row, which the bare safety condition accepts, but
    // N2 and N4 are outside slot 1's column, so nothing is chosen.
    let (_, proposes) = config_of("act4-skip-rinse-control");
    let actions = [proposes.as_slice(), VOTED_OUTSIDE_THE_COLUMN].concat();
    let world = after(config.clone(), &actions);
    let votes = world.votes_in(Slot(1));
    assert_eq!(votes.len(), 1);
    assert_eq!(votes[0].voters, nodes(&[1, 2, 4]));
    let Quorums::Grid(grid) = config.quorum_system() else {
        panic!("a grid")
    };
    assert!(grid.meets_every_row(votes[0].voters));
    assert!(world.chosen_entry(Slot(1)).is_none());
    assert!(world.chosen_by_votes().is_empty());
}

#[test]
fn a_grid_over_other_nodes_is_refused() {
    let mut config = LogWorldConfig::three_nodes(Vec::new());
    let rows: Vec<Vec<NodeId>> = [[1, 2], [3, 4]]
        .iter()
        .map(|row| row.iter().map(|n| NodeId::new(*n).unwrap()).collect())
        .collect();
    config.quorums = Some(Quorums::grid(&rows).unwrap());
    assert!(matches!(
        LogWorld::new(config.clone()),
        Err(Refused::BadConfig(why)) if why.contains("other nodes")
    ));
    config.node_count = 4;
    assert!(LogWorld::new(config).is_ok());
}

#[test]
fn the_three_by_three_world_has_nine_nodes_on_three_columns() {
    let (config, _) = config_of("act4-grid-3x3");
    let Quorums::Grid(grid) = config.quorum_system() else {
        panic!("a grid")
    };
    assert_eq!(
        grid.rows(),
        [nodes(&[1, 2, 3]), nodes(&[4, 5, 6]), nodes(&[7, 8, 9])]
    );
    assert_eq!(grid.deciding_column(Slot(2)), nodes(&[2, 5, 8]));
    assert!(LogWorld::new(config).is_ok());
}

#[test]
fn the_grid_control_builds_its_rows_deciding_grid_over_four_nodes() {
    let (config, _) = config_of("act4-grid-decides-in-row-control");
    let Quorums::Grid(broken) = config.quorum_system() else {
        panic!("a grid")
    };
    // One row decides while the other elects: F1 broken, with the two rows as the witness.
    assert_eq!(
        broken.disjoint_quorums(),
        Some((nodes(&[1, 2]), nodes(&[3, 4])))
    );
    assert!(broken.decides_slot(Slot(1), nodes(&[1, 2])));
    // The same rows through the checked constructor: only columns decide, and F1 holds.
    let checked = Grid::new(&[
        broken.rows()[0].iter().collect(),
        broken.rows()[1].iter().collect(),
    ])
    .unwrap();
    assert!(checked.intersects());
    assert!(!checked.decides_slot(Slot(1), nodes(&[1, 2])));
    let mut three = config.clone();
    three.node_count = 3;
    assert!(LogWorld::new(three).is_err());
    let mut configured = config;
    configured.quorums = Some(Quorums::Grid(checked));
    assert!(LogWorld::new(configured).is_err());
}

#[test]
fn the_game_cannot_switch_a_grid_world_to_the_rows_deciding_grid() {
    let (config, _) = config_of("act4-grid");
    let world = LogWorld::new(config).unwrap();
    assert!(matches!(
        world.with_negative_control(NegativeControl::GridDecidesInRow),
        Err(Refused::BadConfig(_))
    ));
}

/// The world `name`'s counterexample reaches, with the properties it breaks.
fn replay_counterexample(name: &str) -> (LogWorld, Vec<Property>) {
    let report = crate::book::report_for(name).unwrap();
    assert_eq!(report.verdict, Verdict::Violation, "{name}");
    let (config, _) = config_of(name);
    let texts: Vec<&str> = report.counterexample.iter().map(String::as_str).collect();
    let world = after(config, &texts);
    let properties = world.violations().iter().map(|v| v.property).collect();
    (world, properties)
}

#[test]
fn the_grid_deciding_in_a_row_breaks_agreement_only() {
    // A row chose x=1 in slot 1; the other row elected a leader that saw nothing, and slot
    // 1's column chose x=2 under it.
    let (world, properties) = replay_counterexample("act4-grid-decides-in-row-control");
    assert_eq!(properties, vec![Property::Agreement]);
    let chosen = world.chosen_by_votes();
    let [first, second] = chosen.as_slice() else {
        panic!("two entries chosen: {chosen:?}")
    };
    assert_eq!((first.slot, second.slot), (Slot(1), Slot(1)));
    assert_ne!(first.entry, second.entry);
    assert_eq!(first.voters, nodes(&[1, 2]), "a row");
    assert_eq!(second.voters, nodes(&[1, 3]), "slot 1's column");
}

#[test]
fn reading_commit_indexes_breaks_linearizability_only() {
    // x=1 chosen by {N1, N3} and acknowledged; N4's read over {N3, N4} hears commit index 0
    // from both and returns nothing.
    let (world, properties) = replay_counterexample("act4-read-commit-index-control");
    assert_eq!(properties, vec![Property::Linearizability]);
    assert_eq!(world.chosen_entry(Slot(1)).unwrap().voters, nodes(&[1, 3]));
}

#[test]
fn skipping_the_rinse_breaks_linearizability_only() {
    // A read at N1 returned x=1 from N1's vote in slot 1, which no column chose; a later read
    // over the other row returned nothing.
    let (world, properties) = replay_counterexample("act4-skip-rinse-control");
    assert_eq!(properties, vec![Property::Linearizability]);
    assert!(
        world.chosen_entry(Slot(1)).is_none(),
        "slot 1 is not decided"
    );
    let votes = world.votes_in(Slot(1));
    assert!(matches!(&votes[0].entry, Entry::Command(command) if command.value.as_str() == "1"));
}

//! Tests of the scenario list: the names, levels and chapters others rely on, preludes that
//! replay, and input hashes.

use crate::report::Verdict;
use crate::scenarios::{self, CHAPTER_CHOOSING, CHAPTER_SAFETY};
use std::collections::BTreeSet;

#[test]
fn names_are_unique_and_say_what_they_are() {
    let all = scenarios::all();
    let names: BTreeSet<&str> = all.iter().map(|scenario| scenario.name).collect();
    assert_eq!(names.len(), all.len());
    for scenario in &all {
        assert!(scenario.name.starts_with("act1"), "{}", scenario.name);
        assert_eq!(
            scenario.negative_control,
            scenario.name.contains("amnesia"),
            "{}",
            scenario.name
        );
    }
    for name in [
        "act1-choose-a-value",
        "act1-one-proposer",
        "act1-duel",
        "act1-duel-silent-acceptor",
        "act1-adopt-the-value",
        "act1-quorum-intersection",
        "act1-recovery",
        "act1-amnesia-control",
    ] {
        assert!(names.contains(name), "{name} is missing");
    }
}

#[test]
fn levels_map_to_their_scenarios_and_chapters() {
    for (level, name, chapter) in [
        (
            "act1/choose-a-value",
            "act1-choose-a-value",
            CHAPTER_CHOOSING,
        ),
        ("act1/be-the-acceptor", "act1-duel", CHAPTER_CHOOSING),
        ("act1/the-duel", "act1-duel", CHAPTER_CHOOSING),
        (
            "act1/adopt-the-value",
            "act1-adopt-the-value",
            CHAPTER_SAFETY,
        ),
        (
            "act1/quorum-intersection",
            "act1-quorum-intersection",
            CHAPTER_SAFETY,
        ),
        (
            "act1/recovery-is-not-catch-up",
            "act1-recovery",
            CHAPTER_SAFETY,
        ),
    ] {
        let scenario = scenarios::for_level(level).expect(level);
        assert_eq!(scenario.name, name);
        assert_eq!(scenario.chapter, Some(chapter));
    }
    assert!(scenarios::for_level("act1/no-such-level").is_none());
}

#[test]
fn every_prelude_replays_and_states_its_budgets() {
    for scenario in scenarios::all() {
        let world = scenario.act1_start().unwrap();
        assert!(crate::check::safety(&world).is_empty(), "{}", scenario.name);
        let budgets = scenario.budgets().unwrap();
        assert_eq!(budgets.len(), 4, "{}", scenario.name);
    }
    // The recovery prelude spends two drops; one is left for the search.
    let recovery = scenarios::find("act1-recovery").unwrap();
    assert_eq!(recovery.budgets().unwrap()["drops"], 1);
}

#[test]
fn a_prelude_that_no_longer_reads_as_written_is_an_error() {
    let mut scenario = scenarios::find("act1-recovery").unwrap();
    let scenarios::Setup::Act1 { prelude, .. } = &mut scenario.setup;
    prelude[0] = "deliver m1 P1->A2 Prepare(1.P1)";
    let error = scenario.act1_start().unwrap_err().to_string();
    assert!(error.contains("describes it as"), "{error}");
}

#[test]
fn input_hashes_are_stable_and_differ_by_scenario() {
    let duel = scenarios::input_hash("act1-duel").unwrap();
    assert_eq!(duel.len(), 16);
    assert_eq!(scenarios::input_hash("act1-duel").unwrap(), duel);
    assert_ne!(scenarios::input_hash("act1-recovery").unwrap(), duel);
    assert_eq!(scenarios::input_hash("no-such-scenario"), None);
}

#[test]
fn book_reports_carry_the_scenario_identity() {
    let report = crate::book::report_for("act1-choose-a-value").unwrap();
    assert_eq!(report.verdict, Verdict::Pass);
    assert_eq!(
        report.input_hash,
        scenarios::input_hash("act1-choose-a-value").unwrap()
    );
    assert_eq!(report.tool_version, env!("CARGO_PKG_VERSION"));
    let control = crate::book::report_for("act1-amnesia-control").unwrap();
    assert_eq!(control.verdict, Verdict::Violation);
    assert!(matches!(
        crate::book::report_for("act9-nothing"),
        Err(crate::Error::UnknownScenario(_))
    ));
}

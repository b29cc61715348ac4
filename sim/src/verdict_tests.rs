//! Tests of the explorer, the simulator and their verdicts: PASS only for a finished search,
//! INCOMPLETE for any bound, VIOLATION with a counterexample that replays, and the same seed
//! giving the same walk.

use crate::check::Property;
use crate::explore::{self, Ending, Limits};
use crate::model::Model;
use crate::report::{self, Mode, Report, Verdict};
use crate::runner;
use crate::scenarios::{self, Setup};
use crate::simulate::{self, Sweep};
use crate::single_decree::check;
use crate::single_decree::{DecreeAction, DecreeWorld};

fn explore_named(name: &str, limits: Limits) -> Report {
    runner::explore(&scenarios::find(name).unwrap(), limits).unwrap()
}

fn simulate_named(name: &str, seeds: std::ops::Range<u64>) -> Report {
    let sweep = Sweep {
        seeds,
        max_steps: 1000,
    };
    runner::simulate(&scenarios::find(name).unwrap(), &sweep, &|_| {}).unwrap()
}

/// Parses a report's counterexample against a fresh world of its scenario and replays it with
/// `Model::replay`, returning the final world.
fn replay_counterexample(report: &Report) -> DecreeWorld {
    let scenario = scenarios::find(&report.scenario).unwrap();
    let Setup::Act1 { config, .. } = &scenario.setup else {
        panic!("{} is not an Act I world", report.scenario)
    };
    let mut world = DecreeWorld::new(config.clone()).unwrap();
    let mut actions: Vec<DecreeAction> = Vec::new();
    for text in &report.counterexample {
        let action = world.parse_action(text).unwrap();
        assert_eq!(&world.describe(&action), text, "described as it reads");
        world.apply(&action).unwrap();
        actions.push(action);
    }
    DecreeWorld::replay(config.clone(), &actions).unwrap()
}

#[test]
fn state_counts_of_finished_searches_are_pinned() {
    // A change in these counts is a change in the state space: look at it before updating.
    for (name, states, transitions, depth) in [
        ("act1-choose-a-value", 17, 24, 8),
        ("act1-one-proposer", 14_786, 64_206, 14),
        ("act1-recovery", 12_681, 53_621, 15),
    ] {
        let report = explore_named(name, Limits::default());
        assert_eq!(report.verdict, Verdict::Pass, "{name}");
        assert_eq!(
            (report.states, report.transitions, report.depth),
            (states, transitions, depth),
            "{name}"
        );
    }
}

#[test]
fn merging_symmetric_states_keeps_every_act1_verdict() {
    // Proves symmetry reduction changes counts, never verdicts, on every Act I scenario the
    // book explores: the same verdict, a violation of the same property at the same depth,
    // whose counterexample (found by a search that merged states) replays on the real world
    // to a state that breaks the control's own property. Each orbit counted stands for at most
    // as many states as the world declares renamings. The counts with symmetry are pinned.
    let pinned = [
        ("act1-choose-a-value", 11),
        ("act1-one-proposer", 2_651),
        ("act1-duel-silent-acceptor", 18_468),
        ("act1-adopt-the-value", 65_201),
        ("act1-quorum-intersection", 19_491),
        ("act1-recovery", 12_681),
        ("act1-amnesia-control", 8_830),
        ("act1-rogue-value-control", 25),
        ("act1-learn-early-control", 5),
    ];
    let explored: Vec<_> = (scenarios::all().into_iter())
        .filter(|scenario| scenario.name.starts_with("act1"))
        .filter(|scenario| scenario.book_mode == scenarios::BookMode::Exhaustive)
        .map(|scenario| scenario.name)
        .collect();
    let names: Vec<_> = pinned.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        names, explored,
        "every Act I scenario the book explores is pinned here"
    );
    let merging = Limits {
        symmetry: true,
        ..Limits::default()
    };
    for (name, orbits) in pinned {
        let plain = explore_named(name, Limits::default());
        let merged = explore_named(name, merging);
        assert_eq!(merged.verdict, plain.verdict, "{name}");
        assert_eq!(merged.states, orbits, "{name}");
        let renamings = scenarios::find(name)
            .unwrap()
            .act1_start()
            .unwrap()
            .symmetries();
        assert!(merged.states <= plain.states, "{name}");
        assert!(plain.states <= merged.states * renamings as u64, "{name}");
        let property = |report: &Report| -> Vec<String> {
            (report.violations.iter())
                .map(|violation| violation.split(':').next().unwrap().to_owned())
                .collect()
        };
        assert_eq!(property(&merged), property(&plain), "{name}");
        assert_eq!(merged.counterexample.len(), plain.counterexample.len());
        if let Some(control) = scenarios::find(name).unwrap().negative_control() {
            let world = replay_counterexample(&merged);
            let broken: Vec<Property> = (check::safety(&world).iter())
                .map(|violation| violation.property)
                .collect();
            assert!(broken.contains(&control.property()), "{name}: {broken:?}");
        }
    }
}

#[test]
fn a_silent_acceptor_duel_can_end_undecided_but_stays_safe() {
    // Liveness is reported apart from safety: some schedules end with nothing chosen.
    let report = explore_named("act1-duel-silent-acceptor", Limits::default());
    assert_eq!(report.verdict, Verdict::Pass);
    assert_eq!(report.states, 36_778);
    assert_eq!(
        (report.terminal_states, report.terminal_undecided),
        (146, 56)
    );
}

#[test]
fn any_bound_that_cuts_states_off_is_incomplete() {
    let by_depth = explore_named(
        "act1-one-proposer",
        Limits {
            max_depth: Some(3),
            max_states: None,
            max_memory_bytes: None,
            symmetry: false,
            ..Limits::default()
        },
    );
    assert_eq!(by_depth.verdict, Verdict::Incomplete);
    assert_eq!(by_depth.depth, 3);
    assert!(by_depth.incomplete_because.contains("depth bound 3"));
    let by_states = explore_named(
        "act1-one-proposer",
        Limits {
            max_depth: None,
            max_states: Some(100),
            max_memory_bytes: None,
            symmetry: false,
            ..Limits::default()
        },
    );
    assert_eq!(by_states.verdict, Verdict::Incomplete);
    assert_eq!(by_states.states, 100);
    assert_eq!(by_states.verdict.exit_code(), 2);
}

#[test]
fn zero_bounds_stop_at_the_first_state() {
    // honest-verdicts' durlog-bug probe: a search bounded at depth 0 must not say PASS.
    for limits in [
        Limits {
            max_depth: Some(0),
            max_states: None,
            max_memory_bytes: None,
            symmetry: false,
            ..Limits::default()
        },
        Limits {
            max_depth: None,
            max_states: Some(0),
            max_memory_bytes: None,
            symmetry: false,
            ..Limits::default()
        },
    ] {
        let report = explore_named("act1-choose-a-value", limits);
        assert_eq!(report.verdict, Verdict::Incomplete, "{limits:?}");
        assert_eq!(report.states, 1, "{limits:?}");
    }
}

#[test]
fn a_bound_that_cuts_nothing_off_still_passes() {
    // choose-a-value's deepest state is at depth 8 with nothing enabled: a bound of 8 loses
    // nothing, a bound of 7 loses the last level.
    let at_eight = Limits {
        max_depth: Some(8),
        max_states: Some(17),
        max_memory_bytes: None,
        symmetry: false,
        ..Limits::default()
    };
    assert_eq!(
        explore_named("act1-choose-a-value", at_eight).verdict,
        Verdict::Pass
    );
    let at_seven = Limits {
        max_depth: Some(7),
        max_states: None,
        max_memory_bytes: None,
        symmetry: false,
        ..Limits::default()
    };
    assert_eq!(
        explore_named("act1-choose-a-value", at_seven).verdict,
        Verdict::Incomplete
    );
}

#[test]
fn the_explorer_catches_the_amnesia_control_with_a_shortest_replayable_counterexample() {
    let report = explore_named("act1-amnesia-control", Limits::default());
    assert_eq!(report.verdict, Verdict::Violation);
    assert!(report.negative_control);
    // 7 prelude actions, then the shortest path: amnesia, 2 Prepares, 2 Promises, 2 Accepts.
    assert_eq!(
        report.counterexample.len(),
        14,
        "{:#?}",
        report.counterexample
    );
    assert_eq!(report.depth, 7);
    assert!(report.violations[0].starts_with("agreement: "));
    let world = replay_counterexample(&report);
    let violations = check::safety(&world);
    assert_eq!(violations[0].to_string(), report.violations[0]);
}

#[test]
fn the_simulator_catches_the_amnesia_control_and_its_walk_replays() {
    let report = simulate_named("act1-amnesia-control", 0..300);
    assert_eq!(report.verdict, Verdict::Violation);
    assert!(report.violating_runs > 0, "caught in no walk of 300");
    let seed = report.failing_seed.expect("a failing seed");
    assert_eq!(
        report.replay_command,
        format!("paros-sim run act1-amnesia-control --seeds 1 --seed {seed} --max-steps 1000")
    );
    let world = replay_counterexample(&report);
    assert!(!check::safety(&world).is_empty());
    // The replay command's single seed finds the same walk.
    let again = simulate_named("act1-amnesia-control", seed..seed + 1);
    assert_eq!(again.counterexample, report.counterexample);
}

#[test]
fn the_same_seed_gives_the_same_walk() {
    let start = scenarios::find("act1-duel").unwrap().act1_start().unwrap();
    let first = simulate::walk(&start, 42, 1000).unwrap();
    let second = simulate::walk(&start, 42, 1000).unwrap();
    assert_eq!(first.actions, second.actions);
    let other = simulate::walk(&start, 43, 1000).unwrap();
    assert_ne!(first.actions, other.actions);
}

#[test]
fn a_simulation_that_finds_nothing_is_incomplete_and_counts_liveness() {
    let report = simulate_named("act1-duel", 0..200);
    assert_eq!(report.verdict, Verdict::Incomplete);
    assert_eq!(report.mode, Mode::Simulation);
    assert_eq!(report.seeds, 200);
    assert!(report.steps > 0 && report.decisions <= 200);
    assert!(report.faults.contains_key("drop"));
    // Every walk of the duel decides, after at least the 6 deliveries of two phases at a quorum.
    assert_eq!(report.decisions, 200);
    assert!(report.decision_steps_total >= 6 * report.decisions);
    assert!(report.decision_steps_max <= report.depth);
    assert!(report.sentence().contains("200 seeded runs"));
}

#[test]
fn the_step_bound_is_counted_not_hidden() {
    let start = scenarios::find("act1-duel").unwrap().act1_start().unwrap();
    let sweep = Sweep {
        seeds: 0..10,
        max_steps: 5,
    };
    let summary = simulate::simulate(&start, &sweep, &|_| {}).unwrap();
    assert_eq!(summary.step_bound_hits, 10);
    assert_eq!(summary.steps, 50);
}

#[test]
fn shards_merge_into_the_report_of_the_whole_sweep() {
    let whole = simulate_named("act1-amnesia-control", 0..120);
    let shards = vec![
        simulate_named("act1-amnesia-control", 60..120),
        simulate_named("act1-amnesia-control", 0..60),
    ];
    let merged = report::merge(shards).unwrap();
    assert_eq!(merged.seeds, whole.seeds);
    assert_eq!(merged.steps, whole.steps);
    assert_eq!(merged.violating_runs, whole.violating_runs);
    assert_eq!(merged.decisions, whole.decisions);
    assert_eq!(merged.faults, whole.faults);
    assert_eq!(merged.failing_seed, whole.failing_seed);
    assert_eq!(merged.counterexample, whole.counterexample);
    assert_eq!(merged.seed_ranges, whole.seed_ranges);
    assert_eq!(merged.verdict, whole.verdict);
    assert_eq!(merged.replay_command, whole.replay_command);
}

#[test]
fn overlapping_or_exhaustive_reports_do_not_merge() {
    let overlap = vec![
        simulate_named("act1-duel", 0..20),
        simulate_named("act1-duel", 10..30),
    ];
    assert!(report::merge(overlap).is_err());
    let exhaustive = explore_named("act1-choose-a-value", Limits::default());
    assert!(report::merge(vec![exhaustive]).is_err());
    assert!(report::merge(Vec::new()).is_err());
}

/// Why `report::merge` refused `shards`; panics if it merged them.
fn merge_refusal(shards: Vec<Report>) -> String {
    match report::merge(shards) {
        Ok(merged) => panic!("merged to {}", merged.verdict),
        Err(error) => error.to_string(),
    }
}

#[test]
fn a_merge_works_its_verdict_out_from_every_shard() {
    let quiet = || simulate_named("act1-duel", 0..20);
    let mut claims_pass = quiet();
    claims_pass.verdict = Verdict::Pass;
    claims_pass.incomplete_because.clear();
    let refused = merge_refusal(vec![claims_pass, simulate_named("act1-duel", 20..40)]);
    assert!(refused.contains("claims PASS"), "{refused}");

    let merged = report::merge(vec![quiet()]).unwrap();
    assert_eq!(merged.verdict, Verdict::Incomplete);
    assert!(!merged.incomplete_because.is_empty());

    // A violation in any shard, first or last, makes the merge a VIOLATION with the
    // counterexample of the lowest failing seed.
    let low = simulate_named("act1-amnesia-control", 0..60);
    let high = simulate_named("act1-amnesia-control", 60..120);
    assert!(low.failing_seed < high.failing_seed && low.failing_seed.is_some());
    for shards in [
        vec![high.clone(), low.clone()],
        vec![low.clone(), high.clone()],
    ] {
        let merged = report::merge(shards).unwrap();
        assert_eq!(merged.verdict, Verdict::Violation);
        assert_eq!(merged.failing_seed, low.failing_seed);
        assert_eq!(merged.counterexample, low.counterexample);
        assert_eq!(merged.violations, low.violations);
        assert!(merged.incomplete_because.is_empty());
    }
}

#[test]
fn a_shard_whose_verdict_disagrees_with_its_seeds_does_not_merge() {
    let mut violation_without_seed = simulate_named("act1-duel", 0..20);
    violation_without_seed.verdict = Verdict::Violation;
    let refused = merge_refusal(vec![violation_without_seed]);
    assert!(refused.contains("names no failing seed"), "{refused}");

    let violating = simulate_named("act1-amnesia-control", 0..60);
    let mut hides_its_violation = violating.clone();
    hides_its_violation.verdict = Verdict::Incomplete;
    let refused = merge_refusal(vec![hides_its_violation]);
    assert!(refused.contains("claims INCOMPLETE"), "{refused}");

    let mut seed_not_run = violating;
    seed_not_run.failing_seed = Some(60);
    let refused = merge_refusal(vec![seed_not_run]);
    assert!(refused.contains("which it did not run"), "{refused}");
}

#[test]
fn shards_of_different_sweeps_do_not_merge() {
    let first = || simulate_named("act1-duel", 0..20);
    let second = || simulate_named("act1-duel", 20..40);
    let other_scenario = simulate_named("act1-amnesia-control", 20..40);
    let mut other_input = second();
    other_input.input_hash = "0".repeat(16);
    let mut other_bound = second();
    other_bound.max_steps += 1;
    let mut other_budgets = second();
    other_budgets.budgets.insert("drops".into(), 99);
    let mut other_control = second();
    other_control.negative_control = true;
    let mut other_claim = second();
    other_claim.claim.push_str(" (edited)");
    let mut other_version = second();
    other_version.tool_version.push_str("-other");
    let mut exhaustive = second();
    exhaustive.mode = Mode::Exhaustive;
    for (shard, expected) in [
        (other_scenario, "scenario differs"),
        (other_input, "input hash differs"),
        (other_bound, "step bound differs"),
        (other_budgets, "budgets differs"),
        (other_control, "negative control differs"),
        (other_claim, "claim differs"),
        (other_version, "tool version differs"),
        (exhaustive, "only simulation shards merge"),
    ] {
        let refused = merge_refusal(vec![first(), shard]);
        assert!(refused.contains(expected), "{expected}: {refused}");
    }
    let refused = merge_refusal(vec![first(), simulate_named("act1-duel", 19..40)]);
    assert!(
        refused.contains("seed ranges 0..20 and 19..40 overlap"),
        "{refused}"
    );
}

#[test]
fn reports_round_trip_through_json_with_the_documented_strings() {
    let report = explore_named("act1-choose-a-value", Limits::default());
    let json = report.to_json();
    assert!(json.contains("\"verdict\": \"PASS\""), "{json}");
    assert!(json.contains("\"mode\": \"exhaustive\""), "{json}");
    assert_eq!(Report::from_json(&json).unwrap(), report);
    assert!(report.verdict == "PASS" && report.mode == "exhaustive");
}

#[test]
fn explorer_verdicts_match_the_explore_function() {
    // The runner adds nothing the explorer did not find: a direct search agrees.
    let start = scenarios::find("act1-recovery")
        .unwrap()
        .act1_start()
        .unwrap();
    let found = explore::explore(start, Limits::default()).unwrap();
    assert!(matches!(found.ending, Ending::Complete));
    assert_eq!(found.states, 12_681);
    assert!(found.seen_bytes <= found.states * 16);
}

#[test]
fn one_seeds_error_never_hides_another_seeds_violation() {
    let start = scenarios::find("act1-amnesia-control")
        .unwrap()
        .act1_start()
        .unwrap();
    let violating = (0..1000)
        .map(|seed| simulate::walk(&start, seed, 1000).unwrap())
        .find(|walk| !walk.violations.is_empty())
        .expect("the control's violation is found");
    let error = crate::Error::BadParameters("a seed that failed".into());
    let errored = simulate::Summary::<DecreeAction>::of_error(violating.seed + 1, &error);
    let violated = simulate::Summary::of_walk(violating, 1000);
    for merged in [
        errored.clone().merge(violated.clone()),
        violated.merge(errored.clone()),
    ] {
        let summary = simulate::finish(merged).expect("the violation is the outcome");
        assert!(summary.first_violation.is_some());
        assert!(summary.first_error.is_some(), "the error is kept, not lost");
    }
    let alone = simulate::finish(errored);
    assert!(
        matches!(alone, Err(crate::Error::Seed { .. })),
        "with no violation, the error is the outcome"
    );
}

#[test]
fn walks_spread_their_faults_over_the_run_instead_of_spending_them_at_once() {
    // A uniform draw put act2-read-that-lies's crash at step 3 (the median of 2,000 walks);
    // each walk's own fault chance spreads them out.
    let start = scenarios::find("act2-read-that-lies")
        .unwrap()
        .log_start()
        .unwrap();
    let mut first_crash: Vec<usize> = (0..400)
        .filter_map(|seed| {
            let walk = simulate::walk(&start, seed, 1000).unwrap();
            walk.actions
                .iter()
                .position(|action| matches!(action, crate::replicated_log::LogAction::Crash(_)))
        })
        .collect();
    first_crash.sort_unstable();
    let median = first_crash[first_crash.len() / 2];
    assert!(median >= 20, "the median first crash is at step {median}");
}

#[test]
fn a_linearizability_check_that_gives_up_is_an_error_never_a_verdict() {
    // A history past the checker's limit is judged neither way: the explorer and every walk
    // end with an error that names the limit, where they used to report a violation.
    let mut scenario = scenarios::find("act2-exhaustive").unwrap();
    let Setup::Log { config, .. } = &mut scenario.setup else {
        unreachable!("an Act II world")
    };
    config.linearizability_limits.operations_per_key_max = 1;
    let expected =
        "the linearizability check gave up on key x: 2 operations, more than the limit of 1";
    let explored = runner::explore(&scenario, Limits::default()).unwrap_err();
    assert!(
        matches!(&explored, crate::Error::CheckGaveUp(gave_up) if gave_up.property == Property::Linearizability),
        "{explored:?}"
    );
    assert_eq!(explored.to_string(), expected);
    let sweep = Sweep {
        seeds: 0..20,
        max_steps: 1000,
    };
    let simulated = runner::simulate(&scenario, &sweep, &|_| {}).unwrap_err();
    let crate::Error::Seed { error, .. } = &simulated else {
        panic!("{simulated:?}")
    };
    assert!(matches!(**error, crate::Error::CheckGaveUp(_)), "{error:?}");
    assert_eq!(error.to_string(), expected);
}

//! Depth-first order against breadth-first: the same counts and verdicts on the Act I and Act II
//! worlds the book explores, controls still caught by their own property with a depth-first
//! counterexample that replays on the real world, and a depth bound refused.

use paros_sim::Error;
use paros_sim::check::Property;
use paros_sim::explore::{Limits, Order};
use paros_sim::matchmaker::MatchmakerWorld;
use paros_sim::model::Model;
use paros_sim::replicated_log::LogWorld;
use paros_sim::report::{Report, Verdict};
use paros_sim::runner;
use paros_sim::scenarios::{self, BookMode, Scenario, Setup};
use paros_sim::single_decree::DecreeWorld;
use std::process::Command;

/// Act II worlds the book explores whose searches take from 10 s to over a minute in a test
/// build (with the log world's debug checks on every built state): three that pass, each over
/// 300,000 states, and two controls whose depth-first search wanders far before it breaks
/// agreement. The throughput bench's `order` section searches each in both orders, in release,
/// and fails if the passing ones count differently or a control's depth-first counterexample
/// does not replay to a state that breaks its property.
const LEFT_TO_THE_BENCH: &[&str] = &[
    "act2-reads-across-a-restart",
    "act2-two-leaders-catch-up",
    "act2-ballot-never-reused",
    "act2-send-before-persist-control",
    "act2-blank-restart-control",
];

fn explored_in(act: &str) -> Vec<Scenario> {
    (scenarios::all().into_iter())
        .filter(|scenario| scenario.name.starts_with(act))
        .filter(|scenario| scenario.book_mode == BookMode::Exhaustive)
        .filter(|scenario| !LEFT_TO_THE_BENCH.contains(&scenario.name))
        .collect()
}

fn explore(scenario: &Scenario, order: Order, symmetry: bool) -> Report {
    let limits = Limits {
        order,
        symmetry,
        ..Limits::default()
    };
    runner::explore(scenario, limits).unwrap_or_else(|error| panic!("{}: {error}", scenario.name))
}

/// The property named first in each of a report's violations (`agreement: ...`).
fn properties(report: &Report) -> Vec<String> {
    (report.violations.iter())
        .map(|violation| violation.split(':').next().unwrap().to_owned())
        .collect()
}

/// Parses and applies a report's counterexample, prelude included, on a fresh world of its
/// scenario; returns the properties the last state breaks.
fn replay(scenario: &Scenario, report: &Report) -> Vec<Property> {
    match &scenario.setup {
        Setup::Act1 { config, .. } => {
            replay_on(DecreeWorld::build(config.clone()).unwrap(), report)
        }
        Setup::Log { config, .. } => replay_on(LogWorld::build(config.clone()).unwrap(), report),
        Setup::Matchmaker { config, .. } => {
            replay_on(MatchmakerWorld::build(config.clone()).unwrap(), report)
        }
    }
}

fn replay_on<M: Model>(mut world: M, report: &Report) -> Vec<Property> {
    for (index, text) in report.counterexample.iter().enumerate() {
        let action = (world.parse_action(text))
            .unwrap_or_else(|why| panic!("{}: action {index} `{text}`: {why}", report.scenario));
        assert_eq!(&world.describe(&action), text, "described as it reads");
        (world.apply(&action))
            .unwrap_or_else(|why| panic!("{}: action {index} `{text}`: {why}", report.scenario));
    }
    (world.violations().iter())
        .map(|violation| violation.property)
        .collect()
}

/// Proves the two orders agree on a scenario: a complete search counts the same states,
/// transitions, decided and terminal states and faults; a violating one breaks the same
/// property, and a control's depth-first counterexample replays to a state breaking its own.
fn assert_orders_agree(scenario: &Scenario, symmetry: bool) {
    let name = scenario.name;
    let breadth = explore(scenario, Order::BreadthFirst, symmetry);
    let depth = explore(scenario, Order::DepthFirst, symmetry);
    assert_eq!(breadth.order, Some(Order::BreadthFirst), "{name}");
    assert_eq!(depth.order, Some(Order::DepthFirst), "{name}");
    assert_eq!(
        depth.verdict, breadth.verdict,
        "{name}, symmetry {symmetry}"
    );
    match breadth.verdict {
        Verdict::Pass => {
            let counts = |report: &Report| {
                (
                    report.states,
                    report.transitions,
                    report.decisions,
                    report.terminal_states,
                    report.terminal_undecided,
                    report.faults.clone(),
                )
            };
            assert_eq!(
                counts(&depth),
                counts(&breadth),
                "{name}, symmetry {symmetry}"
            );
            assert!(depth.depth >= breadth.depth, "{name}");
        }
        Verdict::Violation => {
            assert_eq!(properties(&depth), properties(&breadth), "{name}");
            assert!(
                depth.counterexample.len() >= breadth.counterexample.len(),
                "{name}: breadth-first's counterexample is a shortest one"
            );
            let control = scenario.negative_control().expect("only controls break");
            let broken = replay(scenario, &depth);
            assert!(broken.contains(&control.property()), "{name}: {broken:?}");
        }
        Verdict::Incomplete => panic!("{name}: an unbounded search is never incomplete"),
    }
}

#[test]
fn depth_first_agrees_with_breadth_first_on_act1_with_and_without_symmetry() {
    let explored = explored_in("act1");
    assert!(explored.len() >= 9, "{} Act I scenarios", explored.len());
    for scenario in &explored {
        assert_orders_agree(scenario, false);
        assert_orders_agree(scenario, true);
    }
}

#[test]
fn depth_first_agrees_with_breadth_first_on_act2() {
    // The log world declares no symmetry, so one run each is the whole comparison.
    let explored = explored_in("act2");
    assert!(explored.len() >= 5, "{} Act II scenarios", explored.len());
    for scenario in &explored {
        assert_orders_agree(scenario, false);
    }
    for name in LEFT_TO_THE_BENCH {
        let scenario = scenarios::find(name).unwrap();
        assert_eq!(
            scenario.book_mode,
            BookMode::Exhaustive,
            "{name} is still explored"
        );
    }
}

#[test]
fn depth_first_goes_deep_before_it_goes_wide() {
    // The same first 200 states: breadth-first stays near the start, depth-first follows
    // schedules down (this world's deepest state is 14 actions in). Without this the
    // depth-first option could quietly search breadth-first.
    let scenario = scenarios::find("act1-one-proposer").unwrap();
    let first_200 = |order| Limits {
        max_states: Some(200),
        order,
        ..Limits::default()
    };
    let breadth = runner::explore(&scenario, first_200(Order::BreadthFirst)).unwrap();
    let depth = runner::explore(&scenario, first_200(Order::DepthFirst)).unwrap();
    for report in [&breadth, &depth] {
        assert_eq!(report.verdict, Verdict::Incomplete);
        assert_eq!(report.states, 200);
    }
    assert!(breadth.depth <= 4, "breadth-first depth {}", breadth.depth);
    assert!(depth.depth >= 10, "depth-first depth {}", depth.depth);
}

#[test]
fn depth_first_refuses_a_depth_bound() {
    let scenario = scenarios::find("act1-one-proposer").unwrap();
    let limits = Limits {
        max_depth: Some(20),
        order: Order::DepthFirst,
        ..Limits::default()
    };
    match runner::explore(&scenario, limits) {
        Err(Error::BadParameters(why)) => {
            assert!(
                why.contains("depth bound") && why.contains("depth-first"),
                "{why}"
            )
        }
        other => panic!("a depth bound with depth-first order gave {other:?}"),
    }
}

#[test]
fn the_command_searches_depth_first_and_says_so() {
    let report_file =
        std::env::temp_dir().join(format!("paros-depth-first-{}.json", std::process::id()));
    let output = Command::new(env!("CARGO_BIN_EXE_paros-sim"))
        .args(["explore", "act1-one-proposer", "--depth-first", "--report"])
        .arg(&report_file)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("order: depth-first"), "{stdout}");
    let text = std::fs::read_to_string(&report_file).unwrap();
    std::fs::remove_file(&report_file).unwrap();
    assert!(text.contains("\"order\": \"depth-first\""), "{text}");
    let report = Report::from_json(&text).unwrap();
    assert_eq!((report.verdict, report.states), (Verdict::Pass, 14_786));
    assert!(report.replay_command.ends_with("--depth-first"));

    let bounded = Command::new(env!("CARGO_BIN_EXE_paros-sim"))
        .args([
            "explore",
            "act1-one-proposer",
            "--depth-first",
            "--max-depth",
            "3",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&bounded.stderr);
    assert!(!bounded.status.success());
    assert!(stderr.contains("--max-depth"), "{stderr}");
}

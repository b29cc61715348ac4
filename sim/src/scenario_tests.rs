//! Tests of the scenario list: the names, levels and chapters others rely on, preludes that
//! replay, and input hashes.

use crate::model::Model;
use crate::replicated_log::LogWorld;
use crate::report::{Report, Verdict};
use crate::scenarios::{self, CHAPTER_CHOOSING, CHAPTER_SAFETY, Scenario};
use paros_core::log::Slot;
use std::collections::BTreeSet;
use std::ops::Range;

/// Runs `scenario`'s seeded walks, one per seed, each at most `max_steps` actions, and asserts
/// that they find nothing (which a seeded run reports as INCOMPLETE, never PASS).
fn simulate_finding_nothing(scenario: &Scenario, seeds: Range<u64>, max_steps: u32) -> Report {
    let sweep = crate::simulate::Sweep { seeds, max_steps };
    let report = crate::runner::simulate(scenario, &sweep, &|_| {}).unwrap();
    assert_eq!(
        report.verdict,
        Verdict::Incomplete,
        "{}: {:?}",
        scenario.name,
        report.violations
    );
    report
}

/// Plays `actions` in `world`, each read from its words, which must be how the world describes
/// it back.
fn play(world: &mut LogWorld, actions: &[&str]) {
    for text in actions {
        let action = world.parse_action(text).unwrap();
        assert_eq!(world.describe(&action), *text);
        world.apply(&action).unwrap();
    }
}

#[test]
fn names_are_unique_and_say_what_they_are() {
    let all = scenarios::all();
    let names: BTreeSet<&str> = all.iter().map(|scenario| scenario.name).collect();
    assert_eq!(names.len(), all.len());
    for scenario in &all {
        let act1 = matches!(scenario.setup, scenarios::Setup::Act1 { .. });
        let prefixes: &[&str] = if act1 {
            &["act1-"]
        } else {
            &["act2-", "act3-", "act4-"]
        };
        assert!(
            prefixes
                .iter()
                .any(|prefix| scenario.name.starts_with(prefix)),
            "{}",
            scenario.name
        );
        let says_fault = [
            "amnesia",
            "send-before-persist",
            "blank-restart",
            "local-read",
            "early-ack",
            "forget-ballot",
            "rogue-value",
            "learn-early",
            "trim-ignores-floor",
            "jump-moves-promise",
            "read-at-applied",
            "dedup-at-propose",
            "non-intersecting-quorums",
            "handoff-fills-gaps",
            "double-handoff",
            "grid-decides-in-row",
            "read-commit-index",
            "skip-rinse",
            "proxy-keyed-by-slot",
            "new-value-same-ballot",
            "proxy-ignores-repeats",
            "no-lower-round-check",
            "phase1-latest-only",
            "gc-after-phase1",
            "no-stop",
            "corrupt-as-none",
            "stopped-collects",
            "bootstrap-below-watermark",
            "bootstrap-keeps-its-watermark",
            "learning-leaves-the-promise",
            "learns-below-the-floor",
        ]
        .iter()
        .any(|fault| scenario.name.contains(fault));
        assert_eq!(
            scenario.negative_control().is_some(),
            says_fault,
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
        "act2-exhaustive",
        "act2-persist-before-send",
        "act2-what-survives-a-crash",
        "act2-log-of-decisions",
        "act2-elect-a-leader",
        "act2-steady-state",
        "act2-permanent-gap",
        "act2-read-that-lies",
        "act2-long",
        "act2-send-before-persist-control",
        "act2-blank-restart-control",
        "act2-local-read-control",
        "act2-early-ack-control",
        "act1-rogue-value-control",
        "act1-learn-early-control",
        "act2-learn-early-control",
    ] {
        assert!(names.contains(name), "{name} is missing");
    }
}

/// The batched twins of Act II's controls: only in a build with batched Accepts.
const BATCHED_CONTROLS: usize = if cfg!(feature = "accept-batch") { 5 } else { 0 };

#[test]
fn the_log_controls_are_exactly_the_log_scenarios_with_a_negative_control() {
    // The replay's table is built apart from the other scenarios: it must hold every control,
    // built as the full list builds it, and nothing else.
    // But the controls no page replays (`scenarios::NOT_REPLAYED`).
    let controls: Vec<Scenario> = scenarios::log_scenarios()
        .into_iter()
        .filter(|scenario| scenario.negative_control().is_some())
        .filter(|scenario| !scenarios::NOT_REPLAYED.contains(&scenario.name))
        .collect();
    assert_eq!(scenarios::log_controls(), controls);
    assert_eq!(controls.len(), 19 + BATCHED_CONTROLS);
    assert!(
        controls
            .iter()
            .all(|control| control.name.ends_with("-control"))
    );
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
        let (safe, budget_kinds) = match scenario.setup {
            scenarios::Setup::Act1 { .. } => {
                let world = scenario.act1_start().unwrap();
                (crate::single_decree::check::safety(&world).is_empty(), 4)
            }
            scenarios::Setup::Log { .. } => {
                let world = scenario.log_start().unwrap();
                (world.violations().is_empty(), 9)
            }
            scenarios::Setup::Matchmaker { .. } => {
                let world = scenario.matchmaker_start().unwrap();
                (world.violations().is_empty(), 3)
            }
        };
        assert!(safe, "{}", scenario.name);
        let budgets = scenario.budgets().unwrap();
        assert_eq!(budgets.len(), budget_kinds, "{}", scenario.name);
    }
    // The recovery prelude spends two drops; one is left for the search.
    let recovery = scenarios::find("act1-recovery").unwrap();
    assert_eq!(recovery.budgets().unwrap()["drops"], 1);
}

#[test]
fn a_prelude_that_no_longer_reads_as_written_is_an_error() {
    let mut scenario = scenarios::find("act1-recovery").unwrap();
    let scenarios::Setup::Act1 { prelude, .. } = &mut scenario.setup else {
        unreachable!("act1-recovery is an Act I world")
    };
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

#[test]
fn act2_levels_map_to_their_scenarios() {
    for level in [
        "act2/persist-before-send",
        "act2/a-log-of-decisions",
        "act2/elect-a-leader",
        "act2/steady-state",
        "act2/the-permanent-gap",
        "act2/what-survives-a-crash",
        "act2/the-read-that-lies",
    ] {
        let scenario = scenarios::for_level(level).expect(level);
        assert!(scenario.name.starts_with("act2-"), "{level}");
    }
}

#[test]
fn the_act2_exhaustive_world_is_pinned_and_passes() {
    // The state count is pinned: a change to the replicated log or its World that changes the
    // reachable space shows up here.
    let report = crate::book::report_for("act2-exhaustive").unwrap();
    assert_eq!(report.verdict, Verdict::Pass);
    assert_eq!(report.states, 14_999);
    assert_eq!(report.transitions, 48_308);
}

#[cfg(feature = "accept-batch")]
#[test]
fn the_batched_worlds_are_pinned_and_pass_as_their_originals_do() {
    // A run of one is a plain Accept, so the batched twin of act2-exhaustive, whose leader
    // never has two slots to send at once, is the same space; act2-runs-batched is the world
    // where runs of two are sent (replicated_log/batch_tests.rs plays one).
    assert_pinned_passes(&[
        ("act2-exhaustive-batched", 14_999, 48_308),
        ("act2-runs-batched", 322_034, 1_323_734),
    ]);
}

#[test]
fn the_worlds_that_reach_the_core_bugs_are_finished_and_pinned() {
    // On a core where a stale reply from a node's earlier life completed a new read, the
    // explorer finds act2-reads-across-a-restart's linearizability violation in 20 actions;
    // where a stale Accept could rewrite a learned decision, act2-two-leaders-catch-up's disk
    // check fails in 28 (sim/README.md). On the fixed core both finish.
    assert_pinned_passes(&[
        ("act2-ballot-never-reused", 354_442, 1_409_439),
        ("act2-reads-across-a-restart", 937_698, 4_306_089),
        ("act2-two-leaders-catch-up", 356_013, 1_785_619),
    ]);
    // Each world has in it what it claims to reach.
    let reads = scenarios::find("act2-reads-across-a-restart").unwrap();
    let scenarios::Setup::Log { config, .. } = &reads.setup else {
        unreachable!("an Act II world")
    };
    assert!(
        config
            .clients
            .iter()
            .flatten()
            .any(|op| matches!(op, crate::replicated_log::ClientOp::Read { .. }))
    );
    assert_eq!(config.budget.left(crate::Fault::Crash), 1);
    let leaders = scenarios::find("act2-two-leaders-catch-up").unwrap();
    let scenarios::Setup::Log { config, .. } = &leaders.setup else {
        unreachable!("an Act II world")
    };
    assert!(config.self_messages_in_flight);
}

#[test]
fn every_seeded_log_scenario_finds_nothing_and_every_run_settles() {
    for scenario in scenarios::all() {
        let scenarios::Setup::Log { .. } = scenario.setup else {
            continue;
        };
        let long = ["act2-long", "act3-long", "act2-long-batched"].contains(&scenario.name);
        if scenario.negative_control().is_some() || long {
            continue;
        }
        let report = simulate_finding_nothing(&scenario, 0..300, 1_000);
        let name = scenario.name;
        assert_eq!(report.settle_runs, 300, "{name}");
        assert_eq!(
            report.settle_decided, 300,
            "{name}: seed {:?} stuck in {}",
            report.unsettled_seed, report.unsettled_state
        );
        assert!(report.unsettled_seed.is_none(), "{name}");
    }
}

#[test]
fn every_negative_control_is_caught_by_the_explorer_and_trips_its_own_property() {
    // Each control must trip the checker it is the control of, not just any: its
    // counterexample replays and breaks the property its fault names, and no other.
    let controls: Vec<_> = (scenarios::all().into_iter())
        .filter_map(|scenario| Some((scenario.negative_control()?, scenario)))
        .collect();
    assert_eq!(
        controls.len(),
        32 + BATCHED_CONTROLS,
        "one scenario per negative control, two for learn-early, and the batched twins"
    );
    for control in crate::NegativeControl::ALL {
        assert!(
            controls.iter().any(|(used, _)| *used == control),
            "{control:?} has a scenario"
        );
    }
    for (control, scenario) in controls {
        let name = scenario.name;
        let property = control.property();
        let report = crate::book::report_for(name).unwrap();
        assert_eq!(report.verdict, Verdict::Violation, "{name}");
        let broken = match &scenario.setup {
            scenarios::Setup::Act1 { config, .. } => {
                replay_violations::<crate::single_decree::DecreeWorld>(config, &report)
            }
            scenarios::Setup::Log { config, .. } => {
                replay_violations::<crate::replicated_log::LogWorld>(config, &report)
            }
            scenarios::Setup::Matchmaker { config, .. } => {
                replay_violations::<crate::matchmaker::MatchmakerWorld>(config, &report)
            }
        };
        assert!(
            !broken.is_empty()
                && broken
                    .iter()
                    .all(|violation| violation.property == property),
            "{name}'s counterexample replays and breaks {property}, and only it: {broken:?}"
        );
    }
}

/// The violations of the world a report's counterexample reaches (prelude included).
fn replay_violations<M: Model>(config: &M::Config, report: &Report) -> Vec<crate::check::Violation>
where
    M::Config: Clone,
{
    let mut world = M::build(config.clone()).unwrap();
    for text in &report.counterexample {
        let action = world.parse_action(text).unwrap();
        world.apply(&action).unwrap();
    }
    world.violations()
}

#[test]
fn the_long_scenario_stays_safe_and_every_run_settles_once_faults_stop() {
    // A few hundred seeds here; the benchmark runs many thousands.
    let scenario = scenarios::find("act2-long").unwrap();
    let report = simulate_finding_nothing(&scenario, 0..200, 30_000);
    assert!(
        report.faults.len() >= 5,
        "every kind of fault was injected: {:?}",
        report.faults
    );
    assert_eq!(report.settle_runs, 200);
    assert_eq!(report.settle_decided, 200, "liveness once faults stop");
}

#[test]
fn the_two_leaders_world_reaches_the_chosen_overwrite_and_the_follower_commit_rule() {
    // The claims the chapters make about these two rules are backed by a world that reaches
    // them: here, on one path of act2-two-leaders-catch-up.
    let scenario = scenarios::find("act2-two-leaders-catch-up").unwrap();
    let mut world = scenario.log_start().unwrap();
    let actions = [
        "deliver m8 N3->N1 Accept(1.N3, slot 1, x=1 (C1#1), commit 0)",
        "deliver m18 N2->N2 Accept(2.N2, slot 1, x=2 (C2#1), commit 0)",
        "deliver m19 N2->N3 Accept(2.N2, slot 1, x=2 (C2#1), commit 0)",
        "deliver m21 N2->N2 Accepted(2.N2, slot 1)",
        "deliver m22 N3->N2 Accepted(2.N2, slot 1)",
        "tick N2",
        "deliver m25 N2->N3 Heartbeat(2.N2, commit 1)",
        "deliver m24 N2->N1 Heartbeat(2.N2, commit 1)",
        "deliver m27 N1->N2 HeartbeatAck(2.N2, chosen 0, votes to 1)",
        "deliver m28 N2->N1 Chosen([1: x=2 (C2#1)])",
    ];
    play(&mut world, &actions);
    assert!(world.violations().is_empty(), "{:?}", world.violations());
    let slot = paros_core::log::Slot(1);
    let chosen = world.chosen_entry(slot).unwrap().entry.clone();
    let [n1, _, n3] = [0, 1, 2].map(|index| world.servers()[index].host.node().unwrap());
    // N3 learned slot 1 from the heartbeat's commit index: its own vote at the leader's ballot.
    assert_eq!(n3.chosen()[&slot].entry, chosen);
    // N1 had voted x=1 at 1.N3; the chosen x=2 overwrote it, and its promise rose with it.
    let overwritten = &n1.accepts()[&slot];
    assert_eq!(overwritten.entry, chosen);
    assert!(n1.promised() >= Some(overwritten.ballot));
}

#[test]
fn the_jump_world_reaches_a_jump_and_a_crash_after_it() {
    // act3-jump-keeps-promise is the exhaustive PASS the truncation chapter cites for "a trim,
    // a jump and a crash": here is one of its paths that has all three.
    let scenario = scenarios::find("act3-jump-keeps-promise").unwrap();
    let mut world = scenario.log_start().unwrap();
    assert_eq!(world.servers()[0].host.node().unwrap().floor(), Slot(1));
    let actions = [
        "deliver m13 N1->N3 Heartbeat(1.N1, commit 2)",
        "deliver m16 N3->N1 HeartbeatAck(1.N1, chosen 0)",
        "deliver m17 N1->N3 TrimPoint(1.N1, through 1)",
        "crash N3",
        "restart N3",
    ];
    play(&mut world, &actions);
    assert!(world.violations().is_empty(), "{:?}", world.violations());
    let n3 = world.servers()[2].host.node().unwrap();
    assert_eq!((n3.floor(), n3.applied_index()), (Slot(1), Slot(1)));
    assert_eq!(
        n3.store()
            .get(&paros_core::Value::new("x"))
            .map(|v| v.as_str()),
        Some("1")
    );
}

#[test]
fn a_jump_followed_by_a_trim_in_the_same_walk_keeps_its_promise() {
    // Seed 934 of act3-truncate-by-consensus: N3 installs a trim point through slot 1, and its
    // walk goes on to apply a decided Trim(2) and drop its vote in slot 2, by T2. The
    // jump-keeps-promise checker once took that for the jump breaking T5.
    let scenario = scenarios::find("act3-truncate-by-consensus").unwrap();
    simulate_finding_nothing(&scenario, 934..935, 1_000);
}

/// Each named scenario's book report passes, with exactly these states and transitions.
fn assert_pinned_passes(pinned: &[(&str, u64, u64)]) {
    for &(name, states, transitions) in pinned {
        let report = crate::book::report_for(name).unwrap();
        assert_eq!(
            report.verdict,
            Verdict::Pass,
            "{name}: {:?}",
            report.violations
        );
        assert_eq!(
            (report.states, report.transitions),
            (states, transitions),
            "{name}"
        );
    }
}

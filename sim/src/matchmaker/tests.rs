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
    // L1, the first round, has nothing below it to collect.
    assert!(world.enabled().is_empty());
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

/// A fixed walk of `steps` actions from `config`: at step `k`, the enabled action at index
/// `7k mod n`, so every kind of action comes up.
fn fixed_walk(config: &MatchmakerWorldConfig, steps: usize) -> (MatchmakerWorld, Vec<MmAction>) {
    let mut world = MatchmakerWorld::new(config.clone()).unwrap();
    let mut actions = Vec::new();
    for step in 0..steps {
        let enabled = world.enabled();
        let Some(action) = enabled.get(step * 7 % enabled.len().max(1)).copied() else {
            break;
        };
        world.apply(&action).unwrap();
        actions.push(action);
    }
    (world, actions)
}

fn faults_config() -> MatchmakerWorldConfig {
    match crate::scenarios::find("act4-matchmaker-faults")
        .unwrap()
        .setup
    {
        crate::scenarios::Setup::Matchmaker { config, .. } => config,
        _ => unreachable!("a matchmaker world"),
    }
}

#[test]
fn replay_gives_the_same_fingerprint() {
    let config = faults_config();
    let (walked, actions) = fixed_walk(&config, 80);
    assert!(actions.len() > 40, "{} actions", actions.len());
    let replayed = MatchmakerWorld::replay(config.clone(), &actions).unwrap();
    assert_eq!(replayed.fingerprint(), walked.fingerprint());
    // The same walk read back from its descriptions lands on the same state too.
    let mut world = MatchmakerWorld::new(config).unwrap();
    for action in &actions {
        let read = world.parse_action(&world.describe(action)).unwrap();
        assert_eq!(read, *action);
        world.apply(&read).unwrap();
    }
    assert_eq!(world.fingerprint(), walked.fingerprint());
    let one_short = fixed_walk(&faults_config(), actions.len() - 1).0;
    assert_ne!(one_short.fingerprint(), walked.fingerprint());
}

#[test]
fn the_memo_of_an_exploration_steps_as_the_world_does() {
    // A walk through drops, duplicates, crashes and restarts, taken twice: by a world with the
    // memo of an exploration and by one without. At every step, every enabled action's
    // successor fingerprint, worked out without building it, is the fingerprint of the
    // successor built, and of the world without the memo stepped the same way, hashed from
    // every part.
    let config = faults_config();
    let mut remembering = MatchmakerWorld::new(config.clone())
        .unwrap()
        .for_exploration();
    let mut plain = MatchmakerWorld::new(config).unwrap();
    for step in 0..80 {
        let enabled = remembering.enabled();
        assert_eq!(enabled, plain.enabled());
        for action in &enabled {
            let hashed = remembering.successor_fingerprint(action).unwrap();
            let built = Model::successor(&remembering, action).unwrap();
            assert_eq!(hashed, built.fingerprint_from_scratch(), "{action}");
            assert_eq!(
                hashed,
                plain.successor(action).unwrap().fingerprint_from_scratch()
            );
        }
        let Some(action) = enabled.get(step * 7 % enabled.len().max(1)) else {
            break;
        };
        // Twice over the same memo: the second time each delivery is remembered.
        Model::successor(&remembering, action).unwrap();
        remembering.apply(action).unwrap();
        plain.apply(action).unwrap();
    }
    assert_eq!(remembering.fingerprint(), plain.fingerprint_from_scratch());
}

#[test]
fn a_matchmaker_restarts_from_its_disk_as_it_was() {
    let mut world = MatchmakerWorld::new(MatchmakerWorldConfig {
        budget: crate::Budget::NONE.with(crate::Fault::Crash, 1),
        ..MatchmakerWorldConfig::two_configurations()
    })
    .unwrap();
    play(&mut world, &["start L1"]);
    run(&mut world);
    let before = world.matchmakers()[0].clone();
    assert_eq!(before.configurations().len(), 1);
    let fingerprint = world.fingerprint();
    play(&mut world, &["crash M1"]);
    assert_ne!(world.fingerprint(), fingerprint);
    play(&mut world, &["restart M1"]);
    assert_eq!(world.matchmakers()[0], before);
    // All that differs from before the crash is the crash spent.
    assert_ne!(world.fingerprint(), fingerprint);
    let mut unspent = world.clone();
    unspent.budget_left = unspent.budget_left.with(crate::Fault::Crash, 1);
    assert_eq!(unspent.fingerprint(), fingerprint);
}

#[test]
fn a_message_to_a_node_that_is_down_waits_for_it() {
    let mut world = MatchmakerWorld::new(MatchmakerWorldConfig {
        budget: crate::Budget::NONE.with(crate::Fault::Crash, 1),
        ..MatchmakerWorldConfig::two_configurations()
    })
    .unwrap();
    play(&mut world, &["start L1", "crash M1"]);
    let to_m1 = world.parse_action("deliver L1->M1 MatchA").unwrap();
    assert!(!world.enabled().contains(&to_m1));
    let fingerprint = world.fingerprint();
    assert_eq!(
        world.apply(&to_m1),
        Err(crate::Refused::NodeDown(
            MatchmakerWorldConfig::matchmaker_id(0)
        ))
    );
    assert_eq!(
        world.fingerprint(),
        fingerprint,
        "a refused action changes nothing"
    );
    // The crash budget is spent: no more crashes are offered.
    assert!(
        !world
            .enabled()
            .iter()
            .any(|a| matches!(a, MmAction::Crash(_)))
    );
    play(&mut world, &["restart M1"]);
    assert!(world.enabled().contains(&to_m1));
}

#[test]
fn a_leader_collects_only_once_its_value_is_chosen_in_its_round() {
    let mut world = MatchmakerWorld::new(MatchmakerWorldConfig::two_configurations()).unwrap();
    play(&mut world, &["start L1"]);
    run(&mut world);
    play(&mut world, &["start L2"]);
    // Deliver everything but the Accepteds of round 2: L2 is in Phase 2, nothing chosen in it.
    while let Some(message) = world.in_flight().iter().find(|m| {
        !world
            .describe(&MmAction::Deliver(m.id))
            .contains("Accepted(2.L2")
    }) {
        world.apply(&MmAction::Deliver(message.id)).unwrap();
    }
    let l2 = MatchmakerWorldConfig::leader_id(1);
    assert_eq!(world.leaders()[1].proposal(), Some(&Value::new("x")));
    assert!(!world.enabled().contains(&MmAction::Collect(l2)));
    assert_eq!(
        world.apply(&MmAction::Collect(l2)),
        Err(crate::Refused::NothingPending(l2))
    );
    run(&mut world);
    assert!(world.enabled().contains(&MmAction::Collect(l2)));
    assert!(world.removed().is_empty(), "nothing collected yet");
    play(&mut world, &["collect L2"]);
    run(&mut world);
    let a1: paros_core::NodeSet = [MatchmakerWorldConfig::acceptor_id(1)]
        .into_iter()
        .collect();
    assert_eq!(world.removed(), a1);
    assert!(world.retired().is_empty());
    play(&mut world, &["retire L2"]);
    run(&mut world);
    assert_eq!(world.retired(), a1);
    assert!(violated(&world).is_empty(), "{:?}", world.violations());
}

#[test]
fn a_replacement_moves_every_round_to_the_next_generation() {
    let mut world = MatchmakerWorld::new(MatchmakerWorldConfig {
        replacement: true,
        ..MatchmakerWorldConfig::two_configurations()
    })
    .unwrap();
    play(&mut world, &["start L1"]);
    run(&mut world);
    play(&mut world, &["replace R1"]);
    run(&mut world);
    let next = MatchmakerWorldConfig::next_generation();
    assert_eq!(world.current_generation(), next);
    assert!(world.matchmakers()[..3].iter().all(|m| m.stopped()));
    play(&mut world, &["start L2"]);
    assert_eq!(world.matched_with(1), next);
    run(&mut world);
    assert_eq!(world.leaders()[1].history().len(), 1);
    assert_eq!(world.leaders()[1].chosen(), Some(&Value::new("x")));
    assert!(violated(&world).is_empty(), "{:?}", world.violations());
}

/// The controls the explorer finds, by scenario name.
const CONTROLS: [&str; 5] = [
    "act4-matchmaker-no-lower-round-check-control",
    "act4-matchmaker-phase1-latest-only-control",
    "act4-matchmaker-gc-after-phase1-control",
    "act4-matchmaker-no-stop-control",
    "act4-matchmaker-bootstrap-below-watermark-control",
];

/// What the breadth-first search of each control counts before it stops at its violation:
/// states, transitions, and the actions of its counterexample (the prelude's included), in
/// [`CONTROLS`] order. Pinned: the world's representation (shared parts, the memo of
/// deliveries, the fingerprint kept as a sum) must leave every one as it is.
const CONTROL_COUNTS: [(u64, u64, usize); 5] = [
    (6_519, 18_984, 10),
    (79_003, 326_633, 19),
    (12_009, 42_212, 18),
    (47_130, 155_859, 10),
    (10_292, 33_414, 55),
];

#[test]
fn each_control_trips_its_own_property_first_and_its_counterexample_replays() {
    for (name, counts) in CONTROLS.into_iter().zip(CONTROL_COUNTS) {
        let scenario = crate::scenarios::find(name).unwrap();
        let own = scenario.negative_control().unwrap().property();
        let report = crate::runner::explore(&scenario, Default::default()).unwrap();
        assert_eq!(report.verdict, crate::report::Verdict::Violation, "{name}");
        let found = (
            report.states,
            report.transitions,
            report.counterexample.len(),
        );
        assert_eq!(found, counts, "{name}: states, transitions, counterexample");
        // Breadth-first: the shortest path to any violation breaks the control's own
        // property, and nothing else.
        let replayed = crate::replay::replay(name, &report.counterexample).unwrap();
        assert_eq!(replayed.steps, report.counterexample, "{name}");
        let broken: Vec<Property> = replayed.violations.iter().map(|v| v.property).collect();
        assert_eq!(broken, vec![own], "{name}: {:?}", replayed.violations);
    }
}

#[test]
fn without_their_broken_rule_the_control_worlds_stay_safe() {
    // The honest worlds are too large to explore in a test; the same seeded sweep that finds
    // each control's violation finds nothing once the rule is kept (INCOMPLETE, never a pass).
    let sweep = crate::simulate::Sweep {
        seeds: 0..300,
        max_steps: 1_000,
    };
    for name in CONTROLS {
        let mut scenario = crate::scenarios::find(name).unwrap();
        let broken = crate::runner::simulate(&scenario, &sweep, &|_| {}).unwrap();
        assert_eq!(broken.verdict, crate::report::Verdict::Violation, "{name}");
        let crate::scenarios::Setup::Matchmaker { config, .. } = &mut scenario.setup else {
            unreachable!("a matchmaker world")
        };
        config.negative_control = None;
        let kept = crate::runner::simulate(&scenario, &sweep, &|_| {}).unwrap();
        assert_eq!(
            kept.verdict,
            crate::report::Verdict::Incomplete,
            "{name}: {:?}",
            kept.violations
        );
        assert_eq!(kept.violating_runs, 0, "{name}");
    }
}

#[test]
fn played_on_the_m1_control_chooses_two_values_and_agreement_catches_it() {
    // Round 2 chooses y by {A3, A4}, its Accept to A2 still in flight; round 1, recorded after
    // it (M1 dropped), has an empty history and gets x chosen by {A1, A2}.
    let scenario = crate::scenarios::find("act4-matchmaker-no-lower-round-check-control").unwrap();
    let mut world = scenario.matchmaker_start().unwrap();
    play(
        &mut world,
        &[
            "start L2",
            "deliver L2->M1 MatchA",
            "deliver L2->M2 MatchA",
            "deliver M1->L2 MatchB",
            "deliver M2->L2 MatchB",
            "deliver L2->A3 Accept",
            "deliver L2->A4 Accept",
        ],
    );
    assert_eq!(world.chosen().len(), 1);
    assert!(violated(&world).is_empty(), "{:?}", world.violations());
    play(
        &mut world,
        &[
            "start L1",
            "deliver L1->M1 MatchA",
            "deliver L1->M2 MatchA",
            "deliver M1->L1 MatchB",
        ],
    );
    assert!(violated(&world).is_empty(), "{:?}", world.violations());
    play(&mut world, &["deliver M2->L1 MatchB"]);
    assert_eq!(violated(&world), vec![Property::HistoryComplete]);
    play(
        &mut world,
        &["deliver L1->A1 Accept", "deliver L1->A2 Accept"],
    );
    // Now x is chosen in round 1, below round 2, whose leader proposed y: M3's property breaks
    // too, as a consequence of M1's.
    assert_eq!(
        violated(&world),
        vec![
            Property::Agreement,
            Property::HistoryComplete,
            Property::ProposalKeepsChosen
        ]
    );
}

#[test]
fn the_matchmaker_scenarios_are_named_for_their_world() {
    // The game tells which module replays a scenario from its name alone.
    for scenario in crate::scenarios::all() {
        let matchmaker = matches!(scenario.setup, crate::scenarios::Setup::Matchmaker { .. });
        assert_eq!(
            scenario.name.starts_with("act4-matchmaker"),
            matchmaker,
            "{}",
            scenario.name
        );
    }
    assert_eq!(crate::scenarios::matchmaker_scenarios().len(), 14);
}

#[test]
fn a_world_it_cannot_build_is_refused_with_the_reason() {
    let refused = |change: &dyn Fn(&mut MatchmakerWorldConfig)| {
        let mut config = MatchmakerWorldConfig::two_configurations();
        change(&mut config);
        match MatchmakerWorld::new(config) {
            Err(crate::Refused::BadConfig(why)) => why,
            other => panic!("built: {other:?}"),
        }
    };
    assert!(refused(&|c| c.leaders[0].acceptors = vec![1, 5]).contains("acceptors"));
    assert!(refused(&|c| c.leaders[1].acceptors.clear()).contains("acceptors"));
    assert!(refused(&|c| c.leaders[0].round = 0).contains("from 1"));
    assert!(refused(&|c| c.leaders.clear()).contains("leaders"));
    assert!(refused(&|c| c.back_to_first_generation = true).contains("back to the first"));
    assert!(
        refused(&|c| c.negative_control = Some(crate::NegativeControl::Amnesia))
            .contains("controls")
    );
    assert!(
        refused(&|c| c.budget = crate::Budget::NONE.with(crate::Fault::Partition, 1))
            .contains("faults")
    );
}

#[test]
fn the_honest_world_without_its_crash_passes_every_schedule() {
    // act4-matchmaker's world with its crash budget set to none: small enough to explore here
    // (the scenario itself, with the crash, is explored in release: sim/README.md).
    let mut scenario = crate::scenarios::find("act4-matchmaker").unwrap();
    let crate::scenarios::Setup::Matchmaker { config, .. } = &mut scenario.setup else {
        unreachable!("a matchmaker world")
    };
    config.budget = crate::Budget::NONE;
    let report = crate::runner::explore(&scenario, Default::default()).unwrap();
    assert_eq!(report.verdict, crate::report::Verdict::Pass);
    assert_eq!(report.states, 48_162);
    assert_eq!(report.terminal_undecided, 0);
}

#[test]
fn every_seeded_matchmaker_world_stays_safe_and_a_later_leader_completes() {
    // Once faults stop, the fair schedule's leader, above every round, completes Phase 1 and
    // gets a value chosen in every walk of every honest world: late garbage collection,
    // overlapping sets and late Bootstraps included.
    let sweep = crate::simulate::Sweep {
        seeds: 0..300,
        max_steps: 1_000,
    };
    for scenario in crate::scenarios::matchmaker_scenarios() {
        if scenario.negative_control().is_some() {
            continue;
        }
        let name = scenario.name;
        let report = crate::runner::simulate(&scenario, &sweep, &|_| {}).unwrap();
        assert_eq!(report.violating_runs, 0, "{name}: {:?}", report.violations);
        assert_eq!(report.settle_runs, 300, "{name}");
        assert_eq!(
            report.settle_decided, 300,
            "{name}: seed {:?} stuck in {}",
            report.unsettled_seed, report.unsettled_state
        );
    }
}

#[test]
fn a_replacement_that_keeps_old_matchmakers_is_refused_by_paros_core() {
    let scenario = crate::scenarios::find("act4-matchmaker-overlapping-sets").unwrap();
    let world = scenario.matchmaker_start().unwrap();
    let shared = [1, 2].map(MatchmakerWorldConfig::matchmaker_id);
    assert_eq!(
        world.replacement_refused(),
        Some(
            paros_core::matchmaker::ReconfigureRefused::SharedMatchmakers(
                shared.into_iter().collect()
            )
        )
    );
    assert!(world.reconfigurer().is_none());
    assert!(
        !world
            .enabled()
            .iter()
            .any(|a| matches!(a, MmAction::Replace(_)))
    );
    assert!(
        world
            .summary()
            .iter()
            .any(|line| line.starts_with("R1: refused"))
    );
}

#[test]
fn once_faults_stop_a_leader_above_every_round_joins_and_finishes() {
    let scenario = crate::scenarios::find("act4-matchmaker-late-gc").unwrap();
    let mut world = scenario.matchmaker_start().unwrap();
    play(&mut world, &["start L2"]);
    assert!(world.fair_leader().is_none() && world.fair_action().is_none());
    play(&mut world, &["stop-faults", "stop-faults"]);
    assert_eq!(world.leaders().len(), 3);
    let fair = world.fair_leader().unwrap();
    assert_eq!(fair.round(), world.config().round_of(2));
    assert_eq!(fair.round().round, 3);
    assert_eq!(fair.config().acceptors(), world.config().acceptors());
    assert_eq!(world.budget_left(), crate::Budget::NONE);
    assert_eq!(MmAction::StopFaults.to_string(), "stop-faults");
    let settled = world.settle().unwrap();
    assert!(settled.decided && settled.violations.is_empty());
}

#[test]
fn a_second_replacement_back_to_the_first_generation_is_refused_by_paros_core() {
    let scenario = crate::scenarios::find("act4-matchmaker-back-to-first-generation").unwrap();
    let mut world = scenario.matchmaker_start().unwrap();
    play(&mut world, &["replace R1"]);
    while world.reconfigurer().and_then(|r| r.published()).is_none() {
        let deliver = (world.enabled().into_iter())
            .find(|a| matches!(a, MmAction::Deliver(_)))
            .expect("the first replacement publishes with every message delivered");
        world.apply(&deliver).unwrap();
    }
    let next = MatchmakerWorldConfig::next_generation();
    assert_eq!(world.current_generation(), next);
    play(&mut world, &["replace R1"]);
    let first = MatchmakerWorldConfig::first_generation();
    assert_eq!(
        world.second_replacement_refused,
        Some(paros_core::matchmaker::ReconfigureRefused::SharedMatchmakers(first))
    );
    let stopped = (world.matchmakers().iter()).filter(|m| next.contains(m.id()) && m.stopped());
    assert_eq!(stopped.count(), 0, "M4..M6 were not stopped");
    assert_eq!(world.current_generation(), next);
    assert!(
        !world
            .enabled()
            .iter()
            .any(|a| matches!(a, MmAction::Replace(_)))
    );
    assert!(
        world
            .summary()
            .iter()
            .any(|line| line.starts_with("R1, back to M1..M3: refused"))
    );
}

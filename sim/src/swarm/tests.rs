//! The swarms' default tests: a thousand seeds of each find nothing on paros-core, the same
//! seeds give the same report, and a planted fault (a negative control drawn into every
//! world) is found, shrunk, and replays to the property it breaks.

use super::*;
use crate::check::Property;
use crate::faults::NegativeControl;

const MAX_STEPS: u32 = 1000;

fn sweep(seeds: std::ops::Range<u64>) -> Sweep {
    Sweep {
        seeds,
        max_steps: MAX_STEPS,
    }
}

fn assert_clean(report: &Report) {
    assert_eq!(
        (report.verdict, report.violating_runs, report.unsettled_seed),
        (Verdict::Incomplete, 0, None),
        "{}\n{}\n{}",
        report.failing_draw.join("\n"),
        report.violations.join("\n"),
        report.counterexample.join("\n")
    );
}

/// The log seeds under a thousand that fail on today's paros-core: none. A seed that starts
/// failing fails the test.
const LOG_FINDINGS_UNDER_A_THOUSAND: [(u64, &str); 0] = [];

#[test]
fn a_thousand_log_seeds_find_nothing_but_the_known_findings() {
    let tally = (0..1000)
        .map(|seed| run_seed(Swarm::draw_log, seed, MAX_STEPS))
        .fold(Tally::default(), Tally::merge);
    assert!(tally.first_error.is_none(), "{:?}", tally.first_error);
    let findings: Vec<(u64, &str)> = (tally.failing_seeds.iter())
        .map(|(seed, what)| (*seed, what.as_str()))
        .collect();
    assert_eq!(findings, LOG_FINDINGS_UNDER_A_THOUSAND);
    assert_eq!(tally.runs, 1000);
    // Every fault kind was injected somewhere, and every run's fair schedule ran.
    for kind in [
        "drop",
        "duplicate",
        "crash",
        "torn write",
        "partition",
        "client resend",
        "corrupt record",
        "wipe",
    ] {
        assert!(tally.faults.get(kind).is_some_and(|n| *n > 0), "{kind}");
    }
    assert_eq!(tally.settle_runs, 1000);
}

#[test]
fn a_thousand_matchmaker_seeds_find_nothing() {
    let report = run(Swarm::Matchmaker, &sweep(0..1000), &|_| {}).unwrap();
    assert_clean(&report);
    for kind in ["drop", "duplicate", "crash"] {
        assert!(report.faults.get(kind).is_some_and(|n| *n > 0), "{kind}");
    }
    assert_eq!(report.settle_runs, 1000);
}

#[test]
fn a_seed_draws_the_same_run_twice() {
    let once = run(Swarm::Log, &sweep(40..60), &|_| {}).unwrap();
    let again = run(Swarm::Log, &sweep(40..60), &|_| {}).unwrap();
    assert_eq!(
        (once.steps, &once.faults, once.settle_steps_max),
        (again.steps, &again.faults, again.settle_steps_max)
    );
    let (_, first, _) = Swarm::draw_log(7).unwrap();
    let (_, second, _) = Swarm::draw_log(7).unwrap();
    assert_eq!(first, second);
}

/// paros-core refuses a slot window below the accept batch (`window_holds_a_run`): the draw
/// never asks for one, and a drawn world given one is refused before it is built.
#[test]
fn the_draw_never_asks_for_a_window_below_the_accept_batch() {
    use crate::faults::Refused;
    let (mut windows, mut batched) = (0, 0);
    for seed in 0..5000 {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut config = log::draw(&mut rng);
        let Some(window) = config.slot_window else {
            continue;
        };
        windows += 1;
        assert!(
            usize::from(window.get()) >= config.accept_batch,
            "seed {seed}"
        );
        assert!(LogWorld::new(config.clone()).is_ok(), "seed {seed}");
        if config.accept_batch > 1 {
            batched += 1;
            config.slot_window = std::num::NonZeroU16::new(config.accept_batch as u16 - 1);
            assert!(
                matches!(LogWorld::new(config), Err(Refused::BadConfig(_))),
                "seed {seed}"
            );
        }
    }
    assert!(
        windows > 0 && batched > 0,
        "{windows} windows, {batched} batched"
    );
}

/// The log swarm with `control` drawn into every world, and what `tune` changes.
fn log_with(
    control: NegativeControl,
    tune: fn(&mut crate::replicated_log::LogWorldConfig),
) -> impl Fn(u64) -> Drawn<LogWorld> {
    move |seed| {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut config = log::draw(&mut rng);
        config.negative_control = Some(control);
        tune(&mut config);
        let words = log::describe(&config);
        let world = LogWorld::new(config).map_err(|refused| drawn_refused(seed, &refused))?;
        Ok((world, words, rng))
    }
}

/// The first of `seeds` whose run fails, shrunk; its shrunk run must replay, action by action
/// as printed, to `property` on the seed's world.
fn found_and_shrunk<M: Model>(
    draw: impl Fn(u64) -> Drawn<M> + Copy,
    seeds: std::ops::Range<u64>,
    property: Property,
) -> Failure {
    let seed = (seeds.clone())
        .find(|seed| run_seed(draw, *seed, MAX_STEPS).failing > 0)
        .unwrap_or_else(|| panic!("no seed of {seeds:?} trips {property}"));
    let failure = shrink_seed(draw, seed, MAX_STEPS).unwrap();
    assert!(
        failure.shrunk.failure[0].starts_with(&property.to_string()),
        "{:?}",
        failure.shrunk.failure
    );
    assert!(failure.shrunk.walk.len() < failure.walk_length);
    assert!(failure.shrunk.minimal, "shrinking ran out of replays");
    let (mut world, _, _) = draw(seed).unwrap();
    for text in &failure.shrunk.counterexample {
        let action = world.parse_action(text).unwrap();
        assert_eq!(world.describe(&action), *text);
        world.apply(&action).unwrap();
    }
    assert!(
        (world.violations().iter()).any(|violation| violation.property == property),
        "the shrunk run replays without breaking {property}"
    );
    failure
}

#[test]
fn a_planted_safety_fault_is_found_and_shrunk() {
    // A node that takes an Accept as word that its entry is chosen breaks learned-is-chosen.
    let draw = log_with(NegativeControl::LearnEarly, |_| {});
    let failure = found_and_shrunk(&draw, 0..200, Property::LearnedIsChosen);
    assert!(failure.shrunk.walk.len() <= 12, "{:?}", failure.shrunk.walk);
}

#[test]
fn a_planted_liveness_fault_is_found_and_shrunk() {
    // A proxy that ignores repeated Accepts stalls a slot (a lost forward, or a successor's
    // resend after a handoff): progress breaks once faults stop.
    let draw = log_with(NegativeControl::ProxyIgnoresRepeats, |config| {
        config.proxies = 1;
        config.accept_batch = 1;
    });
    found_and_shrunk(&draw, 0..400, Property::Progress);
}

#[test]
fn a_planted_matchmaker_fault_is_found_and_shrunk() {
    // A matchmaker that matches a lower round than one it has seen hides that round from the
    // higher one's leader.
    let draw = |seed| {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut config = matchmaker::draw(&mut rng);
        config.negative_control = Some(NegativeControl::NoLowerRoundCheck);
        let words = matchmaker::describe(&config);
        let world =
            MatchmakerWorld::new(config).map_err(|refused| drawn_refused(seed, &refused))?;
        Ok((world, words, rng))
    };
    found_and_shrunk(draw, 0..2000, Property::HistoryComplete);
}

/// The failing seeds of `seeds` under `draw`, with what each broke.
fn failing<M: Model>(
    draw: impl Fn(u64) -> Drawn<M> + Copy,
    seeds: std::ops::Range<u64>,
) -> Vec<(u64, String)> {
    (seeds.map(|seed| run_seed(draw, seed, MAX_STEPS)))
        .fold(Tally::default(), Tally::merge)
        .failing_seeds
}

/// A finding of the swarm, with small slot windows drawn ([`log::SMALL_WINDOWS`]): a
/// candidate that lagged its followers by more than its window ignored their Promises (they
/// name slots beyond it) and never finished Phase 1, while the fair schedule ticked only it.
/// The first such seed was 91 when the swarm first ran, and 1147 of these seeds before
/// paros-core's lagging-candidate rule (`teach_a_lagging_candidate`): a Promise to a candidate
/// behind the promising node's chosen index follows the chosen entries it lacks. Seed 2843
/// failed after that, and not at the window, until the fair schedule owed the clock a tick
/// before each retry ([`progress_finding`]); seeds 1000 to 2999 all pass now.
#[test]
fn small_window_finding() {
    let draw = |seed| {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let config = log::draw_with(&mut rng, true);
        let words = log::describe(&config);
        let world = LogWorld::new(config).map_err(|refused| drawn_refused(seed, &refused))?;
        Ok((world, words, rng))
    };
    assert_eq!(failing(draw, 1000..3000), Vec::new());
}

/// A finding on today's paros-core, with removed acceptors reused
/// ([`matchmaker::REUSE_REMOVED_ACCEPTORS`]): a stale leader's garbage collection retires the
/// acceptors its round removed (M5), though a higher round's configuration names them again,
/// and the later leader waits for ever for a quorum. When the swarm first ran, seed 327: four
/// leaders of round 2, where L2 (2.L2 in {A2, A4}) retired A1 and A3 while 2.L4's
/// configuration was {A2, A3, A4}. The failure message names today's seeds.
#[test]
#[ignore = "a finding on today's paros-core: a stale leader's garbage collection retires an acceptor a higher round's configuration names"]
fn retire_finding() {
    let draw = |seed| {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let config = matchmaker::draw_with(&mut rng, true);
        let words = matchmaker::describe(&config);
        let world =
            MatchmakerWorld::new(config).map_err(|refused| drawn_refused(seed, &refused))?;
        Ok((world, words, rng))
    };
    assert_eq!(failing(draw, 0..20_000), Vec::new());
}

/// A finding of the log swarm, seed 2843, that was the simulator's own: four nodes in a grid of
/// two rows, two proxies, a handoff and three trims. Once faults stopped, N1 led at 11.N1,
/// chosen through 2, with slot 3 (the column {N1, N3}) a hole: P2's forward to N3 was lost,
/// and only N1's beat sends it again. Each client's retry of a request chosen above the hole
/// was proposed again in a new slot (chosen is not applied), 21 fair steps each, and with three
/// clients a client was always due when the network drained: the fair schedule never ticked
/// N1 in 5,100 steps. The fair schedule now lets the clock tick before each retry
/// (`LogWorld::clock_before_retry`; the small world of
/// `replicated_log::proxy_tests::a_hole_behind_a_proxy_is_filled_by_the_beat_the_fair_schedule_owes_the_clock`),
/// and the seed settles.
#[test]
fn progress_finding() {
    assert_eq!(failing(Swarm::draw_log, 2843..2844), Vec::new());
}

/// Seed 53549 of the log swarm (the only failing seed in 100,000 before the fix): four nodes,
/// flexible quorums (q1 = 2, q2 = 3), two proxies, two handoffs and two trims, messages to self
/// in flight. N2 is elected at 7.N2 by N3 and N4 while its own Prepare is on the way to itself,
/// and its acceptor, still promised to 6.N4, then votes for N4's late trim in slot 2, above
/// everything N2 proposed. Once faults stopped, every read at N2 waited on that vote for ever.
/// A leader now fills its own stale tail at each vote it casts while it leads
/// (`paros_core::log::leader_fills_its_own_stale_tail`;
/// `log::adversary_tests::a_leader_whose_acceptor_votes_late_for_the_old_ballot_fills_that_slot`
/// is the small schedule), and the seed settles.
#[test]
fn stale_vote_finding() {
    assert_eq!(failing(Swarm::draw_log, 53549..53550), Vec::new());
}

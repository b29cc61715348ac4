//! The simulator gate: the worlds and checkers the book's "Proven, not asserted" sections rest
//! on, cut down to what runs in about a minute in release, each owing the verdict its scenario
//! pins.
//!
//! It is the test command of mutation testing (`.cargo/mutants.toml`): a change to paros-core
//! that this gate does not fail is a change the simulator cannot see. It never runs the core's
//! own unit tests. Every entry of [`GATE`] is one scenario run one way; the verdict it owes
//! comes from the scenario itself:
//!
//! - an explored honest world: PASS (the search finished and found nothing);
//! - an explored negative control: VIOLATION of the property the control names;
//! - seeded walks of an honest world: no walk breaks a property, and every walk whose world has
//!   a fair schedule settles once faults stop (`Property::Progress`).
//!
//! Beside the table, the disk-damage sweep of small records (C1–C5) and a few thousand seeds of
//! each swarm (every feature and fault at once, every checker on) run as tests of their own.
//!
//! The entries run cheapest first, and the gate stops at the first wrong verdict, so a change
//! the gate catches costs seconds. Run it with
//! `cargo test --release -p paros-sim --test gate`.

use paros_sim::explore::Limits;
use paros_sim::report::{Report, Verdict};
use paros_sim::runner;
use paros_sim::scenarios::{self, Scenario};
use paros_sim::simulate::Sweep;
use paros_sim::swarm::{self, Swarm};
use std::time::Instant;

/// How an entry runs its scenario.
#[derive(Clone, Copy, Debug)]
enum Run {
    /// Every reachable state, with no bound but memory: PASS only when the search finishes.
    Explore,
    /// Seeded walks, seeds `0..seeds`, each at most `max_steps` actions.
    Seeds { seeds: u64, max_steps: u32 },
}

/// One line of the gate: a scenario and how it runs.
#[derive(Clone, Copy, Debug)]
struct Entry {
    scenario: &'static str,
    run: Run,
}

const fn explore(scenario: &'static str) -> Entry {
    Entry {
        scenario,
        run: Run::Explore,
    }
}

const fn seeds(scenario: &'static str, seeds: u64, max_steps: u32) -> Entry {
    Entry {
        scenario,
        run: Run::Seeds { seeds, max_steps },
    }
}

/// The gate, cheapest first within each act. Times are of a release build on a 2-core machine.
const GATE: &[Entry] = &[
    // Act I: every explored world and control (1.3 s), and the duel sampled.
    explore("act1-choose-a-value"),
    explore("act1-amnesia-control"),
    explore("act1-rogue-value-control"),
    explore("act1-learn-early-control"),
    explore("act1-one-proposer"),
    explore("act1-recovery"),
    explore("act1-quorum-intersection"),
    explore("act1-duel-silent-acceptor"),
    explore("act1-adopt-the-value"),
    seeds("act1-duel", 2_000, 1_000),
    // Act II: the small explored worlds and every control, then each seeded world.
    explore("act2-exhaustive"),
    explore("act2-forget-ballot-control"),
    explore("act2-blank-restart-control"),
    explore("act2-local-read-control"),
    explore("act2-early-ack-control"),
    explore("act2-learn-early-control"),
    explore("act2-learning-leaves-the-promise-control"),
    seeds("act2-persist-before-send", 300, 1_000),
    seeds("act2-what-survives-a-crash", 300, 1_000),
    seeds("act2-log-of-decisions", 300, 1_000),
    seeds("act2-elect-a-leader", 300, 1_000),
    seeds("act2-steady-state", 300, 1_000),
    seeds("act2-permanent-gap", 300, 1_000),
    seeds("act2-read-that-lies", 300, 1_000),
    seeds("act2-window-catch-up", 100, 2_000),
    explore("act2-ballot-never-reused"),
    explore("act2-two-leaders-catch-up"),
    // Act III: the controls, the seeded worlds, then the explored worlds of a few seconds.
    explore("act3-trim-ignores-floor-control"),
    explore("act3-jump-moves-promise-control"),
    explore("act3-read-at-applied-control"),
    explore("act3-dedup-at-propose-control"),
    seeds("act3-leader-with-a-stale-vote", 500, 1_000),
    seeds("act3-truncate-by-consensus", 300, 1_000),
    seeds("act3-learns-below-the-floor-control", 1_000, 1_000),
    seeds("act3-stranded-node", 200, 1_000),
    seeds("act3-linearizable-or-not", 200, 1_000),
    seeds("act3-seven-nodes-cut-in-two", 100, 1_500),
    explore("act3-leader-below-a-floor"),
    explore("act3-fresh-leader-trap"),
    explore("act3-chosen-is-not-applied"),
    // Act IV: quorums, handoffs, proxies, reads, storage faults and Matchmaker Paxos.
    explore("act4-handoff-fills-gaps-control"),
    explore("act4-double-handoff-control"),
    explore("act4-read-commit-index-control"),
    seeds("act4-handoff-then-crash", 500, 1_000),
    seeds("act4-handoff-to-a-stale-vote", 500, 1_000),
    seeds("act4-flexible-quorums-faults", 200, 1_000),
    seeds("act4-handoff-faults", 200, 1_000),
    seeds("act4-quorum-reads-faults", 100, 1_500),
    seeds("act4-grid-3x3", 50, 2_000),
    explore("act4-proxy-keyed-by-slot-control"),
    explore("act4-new-value-same-ballot-control"),
    seeds("act4-proxy-ignores-repeats-control", 20, 1_000),
    seeds("act4-proxy-leaders-lost-messages", 500, 1_000),
    seeds("act4-proxy-leaders-handoff", 500, 1_000),
    seeds("act4-proxy-leaders-faults", 300, 1_000),
    explore("act4-corrupt-as-none-control"),
    explore("act4-the-wiped-node"),
    seeds("act4-any-bit-flipped", 1_000, 1_000),
    seeds("act4-storage-faults", 100, 3_000),
    explore("act4-handoff"),
    explore("act4-handoff-beyond-the-window"),
    explore("act4-handoff-repeated-after-a-restart"),
    explore("act4-grid"),
    // Matchmaker Paxos: every control, the seeded worlds, then the explored world.
    explore("act4-matchmaker-no-lower-round-check-control"),
    explore("act4-matchmaker-bootstrap-below-watermark-control"),
    explore("act4-matchmaker-gc-after-phase1-control"),
    explore("act4-matchmaker-no-stop-control"),
    explore("act4-matchmaker-phase1-latest-only-control"),
    seeds("act4-matchmaker-stopped-collects-control", 2_000, 1_000),
    seeds(
        "act4-matchmaker-bootstrap-keeps-its-watermark-control",
        2_000,
        1_000,
    ),
    seeds("act4-matchmaker-faults", 2_000, 1_000),
    seeds("act4-matchmaker-late-gc", 2_000, 1_000),
    seeds("act4-matchmaker-overlapping-sets", 2_000, 1_000),
    seeds("act4-matchmaker-back-to-first-generation", 2_000, 1_000),
    explore("act4-matchmaker"),
    // The controls the explorer finds only after a few hundred thousand states.
    explore("act4-grid-decides-in-row-control"),
    explore("act4-non-intersecting-quorums-control"),
    explore("act4-skip-rinse-control"),
    explore("act2-send-before-persist-control"),
    // The long runs: two clients, 200 operations, every fault (and in Act III 60 trims).
    seeds("act2-long", 4, 30_000),
    seeds("act3-long", 4, 30_000),
    // Batched Accepts: the world where runs of two are sent, and its seeded twins.
    seeds("act2-persist-before-send-batched", 300, 1_000),
    seeds("act2-what-survives-a-crash-batched", 300, 1_000),
    explore("act2-runs-batched"),
];

#[test]
fn every_gate_entry_owes_its_scenarios_verdict() {
    let started = Instant::now();
    for entry in GATE {
        let clock = Instant::now();
        let scenario = scenarios::find(entry.scenario).expect("a scenario of the book");
        let report = run(&scenario, entry.run);
        if let Err(wrong) = judge(&scenario, entry.run, &report) {
            panic!("{}: {wrong}", entry.scenario);
        }
        eprintln!(
            "gate: {} {:?} {} in {} ms",
            entry.scenario,
            entry.run,
            report.verdict.as_str(),
            clock.elapsed().as_millis()
        );
    }
    eprintln!(
        "gate: {} entries in {:.1} s",
        GATE.len(),
        started.elapsed().as_secs_f64()
    );
}

/// A search no mutant may grow past this memory: it fails instead of swapping the machine.
const MAX_MEMORY_BYTES: u64 = 2 << 30;

fn run(scenario: &Scenario, how: Run) -> Report {
    let result = match how {
        Run::Explore => runner::explore(
            scenario,
            Limits {
                max_memory_bytes: Some(MAX_MEMORY_BYTES),
                ..Limits::default()
            },
        ),
        Run::Seeds { seeds, max_steps } => runner::simulate(
            scenario,
            &Sweep {
                seeds: 0..seeds,
                max_steps,
            },
            &|_| {},
        ),
    };
    result.unwrap_or_else(|error| panic!("{}: no verdict: {error}", scenario.name))
}

/// Whether `report` is the verdict `scenario` owes when run `how`; if not, what is wrong.
fn judge(scenario: &Scenario, how: Run, report: &Report) -> Result<(), String> {
    let found = || format!("{} {:?}", report.verdict.as_str(), report.violations);
    match (scenario.negative_control(), how) {
        (Some(control), _) => {
            let property = format!("{}:", control.property());
            let broken = report.verdict == Verdict::Violation
                && (report.violations.iter()).any(|violation| violation.starts_with(&property));
            broken
                .then_some(())
                .ok_or_else(|| format!("a control owes VIOLATION of {property} found {}", found()))
        }
        (None, Run::Explore) => (report.verdict == Verdict::Pass)
            .then_some(())
            .ok_or_else(|| format!("owes PASS, found {}", found())),
        (None, Run::Seeds { .. }) => {
            if report.verdict != Verdict::Incomplete || report.violating_runs != 0 {
                return Err(format!("owes no violation, found {}", found()));
            }
            if report.settle_decided != report.settle_runs || report.unsettled_seed.is_some() {
                return Err(format!(
                    "{} of {} runs settle; seed {:?} stuck in {}",
                    report.settle_decided,
                    report.settle_runs,
                    report.unsettled_seed,
                    report.unsettled_state
                ));
            }
            Ok(())
        }
    }
}

/// Beside the worlds, which damage a disk one fault at a time where a schedule reaches it: every
/// single-bit flip and every torn cut of small log and matchmaker records, judged by C1–C5
/// (`paros_sim::disk_damage`; its control is in that module's tests).
#[test]
fn every_damage_of_a_small_record_is_refused_or_read_by_c1_to_c5() {
    let findings = paros_sim::disk_damage::sweep_small_records();
    let first: Vec<String> = (findings.iter().take(4))
        .map(|found| format!("{}: {}", found.damage, found.broken))
        .collect();
    assert!(
        findings.is_empty(),
        "{} findings, first {first:#?}",
        findings.len()
    );
}

#[test]
fn the_gate_names_only_scenarios_in_modes_they_support() {
    for entry in GATE {
        let scenario = scenarios::find(entry.scenario).expect("a scenario of the book");
        let mode = match entry.run {
            Run::Explore => paros_sim::report::Mode::Exhaustive,
            Run::Seeds { .. } => paros_sim::report::Mode::Simulation,
        };
        assert!(scenario.supports(mode), "{}", entry.scenario);
    }
}

/// Seeds of each swarm, each drawing a configuration and a run with every checker on: the
/// gate's reach where features meet. A few seconds each in release.
const SWARM_SEEDS: &[(Swarm, u64, u32)] = &[
    (Swarm::Log, 2_000, 1_000),
    (Swarm::Matchmaker, 2_000, 1_000),
];

/// Seeds beyond those ranges that once broke a property of the fixed core, each until the
/// rule named beside it: the reach of a search much longer than the gate's, kept.
const SWARM_FINDINGS: &[(Swarm, u64, u32)] = &[
    // A leader's own acceptor votes late, below its ballot and above its proposals
    // (`leader_fills_its_own_stale_tail`, run at each vote while it leads).
    (Swarm::Log, 53_549, 1_000),
];

#[test]
fn every_swarm_seed_finds_nothing() {
    let ranges = SWARM_SEEDS
        .iter()
        .map(|&(which, seeds, steps)| (which, 0..seeds, steps));
    let findings =
        (SWARM_FINDINGS.iter()).map(|&(which, seed, steps)| (which, seed..seed + 1, steps));
    for (which, seeds, max_steps) in ranges.chain(findings) {
        let clock = Instant::now();
        let count = seeds.end - seeds.start;
        let sweep = Sweep { seeds, max_steps };
        let report = swarm::run(which, &sweep, &|_| {})
            .unwrap_or_else(|error| panic!("{}: no verdict: {error}", which.name()));
        assert!(
            report.verdict != Verdict::Violation && report.violating_runs == 0,
            "{}: {} {:?}, replay: {:?}",
            which.name(),
            report.verdict.as_str(),
            report.violations,
            report.replay_command
        );
        eprintln!(
            "gate: {} {count} seeds in {} ms",
            which.name(),
            clock.elapsed().as_millis()
        );
    }
}

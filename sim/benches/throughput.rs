//! Throughput of the explorer and the simulator, and the time of each book report.
//!
//! `cargo bench -p paros-sim --bench throughput` prints:
//! - explorer unique states/s and transitions/s, single-threaded, over the first million and
//!   the first ten million states of `act1-duel` (two proposers, 1 drop, 1 duplicate, 2 retries
//!   each), the seen set's bytes per state, and the ratio to a baseline run in the same process
//!   (the same explorer over a world that must be cloned and stepped for every transition);
//! - the explorer on the duel with and without merging symmetric states (acceptors renamed), in
//!   the same run: the first million states counted each way, and the whole of a smaller duel
//!   (no faults, no retries), with its reduction factor (states without / with) and the time each takes;
//! - breadth-first against depth-first order in the same run: the whole of the smaller duel,
//!   with and without symmetry, and the three Act II worlds too large for a test build, each
//!   checked to count the same states, transitions and decided states in both orders; and two
//!   Act II negative controls depth-first, each checked to be caught by its own property with
//!   a path that replays;
//! - explorer unique states/s, single-threaded, and the seen set's bytes per state on Act II's
//!   `act2-exhaustive` and `act2-two-leaders-catch-up` (whole searches), with the ratio to a
//!   baseline run in the same process (the same world, cloned and stepped for every transition);
//! - explorer unique states/s, single-threaded, the seen set's bytes per state and the growth
//!   of peak resident memory per state on the matchmaker world `act4-matchmaker-replacement`
//!   (whole searches, in both orders, each in a process of its own), with the ratio to a
//!   baseline run in the same run (the same world, cloned and stepped for every transition)
//!   and, for scale, Act II's `act2-reads-across-a-restart`, a world of about as many states;
//! - simulator steps/s and seeds/s on `act1-duel`, on one thread and on every core;
//! - the time of `book::report_for` for every scenario.
//!
//! Arguments after `--` pick sections by name (`explorer`, `symmetry`, `order`, `act2`,
//! `matchmaker`, `simulator`, `book`):
//! `cargo bench -p paros-sim --bench throughput -- act2` runs only Act II's explorer.
//!
//! Speed is measured here, never in tests. Each figure is the best of a few repetitions (the
//! ten-million-state run is one). The
//! machine may be shared, so each line gives both wall-clock and CPU time (read from Linux's
//! `/proc`); rates are per wall-clock second unless marked CPU.

use paros_sim::check::Violation;
use paros_sim::explore::{self, Exploration, Limits, Order};
use paros_sim::model::Model;
use paros_sim::scenarios;
use paros_sim::simulate::{self, Sweep};
use paros_sim::single_decree::DecreeWorld;
use paros_sim::{Fault, Refused};
use std::time::{Duration, Instant};

const REPETITIONS: usize = 3;

fn main() {
    // Cargo passes `--bench` to a bench without the standard harness; names are the rest.
    let picked: Vec<String> = std::env::args()
        .skip(1)
        .filter(|argument| !argument.starts_with('-'))
        .collect();
    if let [child, name, order, kind] = &picked[..]
        && child == CHILD
    {
        return child_search(name, order, kind);
    }
    let runs = |section: &str| picked.is_empty() || picked.iter().any(|name| name == section);
    if runs("explorer") {
        explorer();
    }
    if runs("symmetry") {
        symmetry();
    }
    if runs("order") {
        order();
    }
    if runs("act2") {
        act2_explorer();
    }
    if runs("matchmaker") {
        matchmaker_explorer();
    }
    if runs("simulator") {
        simulator();
    }
    if runs("book") {
        book_reports();
    }
}

/// Wall-clock and CPU time of one measured run.
#[derive(Clone, Copy)]
struct Timing {
    wall: Duration,
    cpu: Duration,
}

/// The CPU time this process has used, from `/proc/self/stat` (utime + stime, in clock ticks
/// of 10 ms). Zero where there is no such file.
fn process_cpu() -> Duration {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return Duration::ZERO;
    };
    // Fields after the command name, which is in parentheses: utime and stime are 12th and 13th.
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let ticks: u64 = after_name
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|field| field.parse::<u64>().ok())
        .sum();
    Duration::from_millis(ticks * 10)
}

fn best_of<T>(repetitions: usize, mut run: impl FnMut() -> T) -> (Timing, T) {
    let mut best: Option<(Timing, T)> = None;
    for _ in 0..repetitions {
        let started = Instant::now();
        let cpu_before = process_cpu();
        let outcome = run();
        let timing = Timing {
            wall: started.elapsed(),
            cpu: process_cpu().saturating_sub(cpu_before),
        };
        if best.as_ref().is_none_or(|(time, _)| timing.cpu < time.cpu) {
            best = Some((timing, outcome));
        }
    }
    best.expect("at least one repetition")
}

/// The explorer on the duel: two proposers, 1 drop, 1 duplicate (and 2 retries each). Its
/// space is larger than any bound here (over 60 million states), so each run measures a fixed
/// first stretch of it: a million states, whose seen set fits in the processor's cache, and
/// ten million, whose seen set does not. The baseline is the same explorer over the same world
/// without its shortcuts ([`Plain`]), measured in the same run.
fn explorer() {
    let scenario = scenarios::find("act1-duel").expect("listed");
    let start = scenario.act1_start().expect("builds");
    let first_million = Limits {
        max_states: Some(1_000_000),
        ..Limits::default()
    };
    let (baseline, _) = best_of(REPETITIONS, || {
        explore::explore(Plain(start.clone()), first_million).unwrap()
    });
    let (time, found) = best_of(REPETITIONS, || {
        explore::explore(start.clone(), first_million).unwrap()
    });
    print_exploration("act1-duel, one thread, first 1000000 states", time, &found);
    println!(
        "  {:.2}x the baseline (a world the explorer must clone and step for every transition: {:.0} states per CPU second)",
        baseline.cpu.as_secs_f64() / time.cpu.as_secs_f64(),
        found.states as f64 / baseline.cpu.as_secs_f64()
    );
    let ten_million = Limits {
        max_states: Some(10_000_000),
        ..Limits::default()
    };
    let (time, found) = best_of(1, || explore::explore(start.clone(), ten_million).unwrap());
    print_exploration(
        "act1-duel, one thread, first 10000000 states (one run)",
        time,
        &found,
    );
}

/// The duel searched with and without merging the states a renaming of acceptors maps onto
/// each other, in the same run: the first million states counted each way (with symmetry each
/// stands for its orbit), then the whole of the duel with no faults and no retries (with one
/// retry each, or with a drop and a duplicate, it is over 13 million states either way).
fn symmetry() {
    let merging = |limits: Limits| Limits {
        symmetry: true,
        ..limits
    };
    let duel = scenarios::find("act1-duel").expect("listed");
    let start = duel.act1_start().expect("builds");
    let first_million = Limits {
        max_states: Some(1_000_000),
        ..Limits::default()
    };
    for (what, limits) in [
        ("without symmetry", first_million),
        ("with symmetry", merging(first_million)),
    ] {
        let (time, found) = best_of(REPETITIONS, || {
            explore::explore(start.clone(), limits).unwrap()
        });
        print_exploration(
            &format!("act1-duel, one thread, first 1000000 states, {what}"),
            time,
            &found,
        );
    }
    let mut smaller = start.config().clone();
    smaller.budget = paros_sim::Budget::NONE;
    let smaller = DecreeWorld::new(smaller).expect("builds");
    let whole = Limits {
        max_memory_bytes: Some(4 << 30),
        ..Limits::default()
    };
    let (plain_time, plain) = best_of(1, || explore::explore(smaller.clone(), whole).unwrap());
    print_exploration(
        "act1-duel without faults or retries, one thread, whole space, without symmetry",
        plain_time,
        &plain,
    );
    let (time, merged) = best_of(1, || {
        explore::explore(smaller.clone(), merging(whole)).unwrap()
    });
    print_exploration(
        "act1-duel without faults or retries, one thread, whole space, with symmetry",
        time,
        &merged,
    );
    println!(
        "  {} renamings; {:.2}x fewer states ({} / {}), {:.2}x less CPU time",
        merged.symmetries,
        plain.states as f64 / merged.states as f64,
        plain.states,
        merged.states,
        plain_time.cpu.as_secs_f64() / time.cpu.as_secs_f64()
    );
}

/// Breadth-first against depth-first order, each search whole, in the same run: the duel
/// without faults or retries with and without symmetry, then the Act II worlds the tests leave
/// to this bench. Panics if the two orders count differently.
fn order() {
    let mut smaller = (scenarios::find("act1-duel").expect("listed").act1_start())
        .expect("builds")
        .config()
        .clone();
    smaller.budget = paros_sim::Budget::NONE;
    let smaller = DecreeWorld::new(smaller).expect("builds");
    for symmetry in [false, true] {
        let what = format!(
            "act1-duel without faults or retries, {}",
            if symmetry {
                "with symmetry"
            } else {
                "without symmetry"
            }
        );
        compare_orders(&what, &smaller, symmetry);
    }
    for name in [
        "act2-two-leaders-catch-up",
        "act2-ballot-never-reused",
        "act2-reads-across-a-restart",
    ] {
        let start = scenarios::find(name)
            .expect("listed")
            .log_start()
            .expect("builds");
        compare_orders(name, &start, false);
    }
    for name in [
        "act2-send-before-persist-control",
        "act2-blank-restart-control",
    ] {
        control_depth_first(name);
    }
}

/// Searches a negative control depth-first, and checks that it breaks the control's property
/// and that its path, applied to the start, leads to a state that breaks it.
fn control_depth_first(name: &str) {
    let scenario = scenarios::find(name).expect("listed");
    let property = scenario.negative_control().expect("a control").property();
    let start = scenario.log_start().expect("builds");
    let limits = Limits {
        order: Order::DepthFirst,
        max_memory_bytes: Some(4 << 30),
        ..Limits::default()
    };
    let (time, found) = best_of(1, || explore::explore(start.clone(), limits).unwrap());
    print_exploration(
        &format!("{name}, depth-first, to its violation"),
        time,
        &found,
    );
    let explore::Ending::Violation { path, violations } = &found.ending else {
        panic!("{name}: the control was not caught depth-first")
    };
    assert!(violations.iter().any(|v| v.property == property), "{name}");
    let mut world = start.clone();
    for action in path {
        world.apply(action).expect("the path replays");
    }
    assert!(
        world.violations().iter().any(|v| v.property == property),
        "{name}: the path does not replay to the violation"
    );
    println!(
        "  caught: {property} in {} actions, the path replays to it",
        path.len()
    );
}

/// Searches `start` whole in both orders, prints each and the ratio of their CPU times, and
/// checks that they agree.
fn compare_orders<M: Model>(what: &str, start: &M, symmetry: bool) {
    let mut found = Vec::new();
    for order in [Order::BreadthFirst, Order::DepthFirst] {
        let limits = Limits {
            order,
            symmetry,
            max_memory_bytes: Some(4 << 30),
            ..Limits::default()
        };
        let (time, exploration) = best_of(1, || explore::explore(start.clone(), limits).unwrap());
        print_exploration(
            &format!("{what}, {}, whole space", order.as_str()),
            time,
            &exploration,
        );
        found.push((time, exploration));
    }
    let [(breadth_time, breadth), (depth_time, depth)] = &found[..] else {
        unreachable!("two orders")
    };
    let counts = |found: &explore::Exploration<M::Action>| {
        (
            found.states,
            found.transitions,
            found.decided_states,
            found.terminal_states,
        )
    };
    assert_eq!(
        counts(depth),
        counts(breadth),
        "{what}: the orders disagree"
    );
    assert!(
        matches!(breadth.ending, explore::Ending::Complete),
        "{what}"
    );
    assert!(matches!(depth.ending, explore::Ending::Complete), "{what}");
    println!(
        "  the same {} states either way; depth-first takes {:.2}x breadth-first's CPU time",
        depth.states,
        depth_time.cpu.as_secs_f64() / breadth_time.cpu.as_secs_f64()
    );
}

fn print_exploration<A>(what: &str, time: Timing, found: &explore::Exploration<A>) {
    println!("explorer, {what}:");
    println!(
        "  {} states, {} transitions, depth {} in {:.3} s wall, {:.3} s CPU",
        found.states,
        found.transitions,
        found.depth,
        time.wall.as_secs_f64(),
        time.cpu.as_secs_f64()
    );
    println!(
        "  {:.0} unique states/s ({:.0} per CPU second), {:.0} transitions/s ({:.0} per CPU second)",
        found.states as f64 / time.wall.as_secs_f64(),
        found.states as f64 / time.cpu.as_secs_f64(),
        found.transitions as f64 / time.wall.as_secs_f64(),
        found.transitions as f64 / time.cpu.as_secs_f64()
    );
    println!(
        "  seen set: {} bytes, {:.1} bytes per state",
        found.seen_bytes,
        found.seen_bytes as f64 / found.states as f64
    );
}

/// A world without its shortcuts: it keeps the [`Model`] trait's defaults for `successor` and
/// `successor_fingerprint`, so the explorer clones and steps it for every transition and hashes
/// every part of every successor, as it would any world that does not override them. The
/// baseline for the explorer's figures, for Act I's, Act II's and the matchmaker's worlds alike.
#[derive(Clone)]
struct Plain<W>(W);

impl<W: Model + Clone> Model for Plain<W> {
    type Config = W::Config;
    type Action = W::Action;
    type Step = W::Step;

    const FAULTS: &'static [Fault] = W::FAULTS;

    fn build(config: W::Config) -> Result<Plain<W>, Refused> {
        W::build(config).map(Plain)
    }

    fn enabled(&self) -> Vec<W::Action> {
        self.0.enabled()
    }

    fn apply(&mut self, action: &W::Action) -> Result<W::Step, Refused> {
        self.0.apply(action)
    }

    fn fingerprint(&self) -> u64 {
        self.0.fingerprint()
    }

    fn budget_left(&self) -> paros_sim::Budget {
        self.0.budget_left()
    }

    fn violations(&self) -> Vec<Violation> {
        self.0.violations()
    }

    fn parse_action(&self, text: &str) -> Result<W::Action, String> {
        self.0.parse_action(text)
    }

    fn describe(&self, action: &W::Action) -> String {
        self.0.describe(action)
    }

    fn is_decided(&self) -> bool {
        self.0.is_decided()
    }

    fn fault_kind(&self, action: &W::Action) -> Option<Fault> {
        self.0.fault_kind(action)
    }
}

/// The explorer over two Act II worlds, each searched whole: `act2-exhaustive` (14,999 states)
/// and `act2-two-leaders-catch-up` (356,013 states). The baseline is the same world without
/// its shortcuts ([`Plain`]), measured in the same run.
fn act2_explorer() {
    for (name, repetitions) in [
        ("act2-exhaustive", REPETITIONS),
        ("act2-two-leaders-catch-up", 1),
    ] {
        let scenario = scenarios::find(name).expect("listed");
        let start = scenario.log_start().expect("builds");
        let (baseline, _) = best_of(repetitions, || {
            explore::explore(Plain(start.clone()), Limits::default()).unwrap()
        });
        let (time, found) = best_of(repetitions, || {
            explore::explore(start.clone(), Limits::default()).unwrap()
        });
        print_exploration(&format!("{name}, one thread, whole space"), time, &found);
        println!(
            "  {:.2}x the baseline (the world cloned and stepped for every transition: {:.0} states per CPU second)",
            baseline.cpu.as_secs_f64() / time.cpu.as_secs_f64(),
            found.states as f64 / baseline.cpu.as_secs_f64()
        );
    }
}

/// The explorer over the matchmaker world `act4-matchmaker-replacement`, searched whole in both
/// orders, with the growth of resident memory per state; the baseline is the same world without
/// its shortcuts ([`Plain`]), and `act2-reads-across-a-restart` (about as many
/// states) gives Act II's rate in the same run. Each search runs in a process of its own (this
/// bench, run again with [`CHILD`]), so its peak resident memory is its own.
fn matchmaker_explorer() {
    let name = "act4-matchmaker-replacement";
    let baseline = search_in_child(name, "breadth-first", "plain");
    print_search(
        &format!("{name} cloned and stepped for every transition (the baseline)"),
        &baseline,
    );
    for order in ["breadth-first", "depth-first"] {
        let found = search_in_child(name, order, "world");
        assert_eq!(
            (found.states, found.transitions),
            (baseline.states, baseline.transitions),
            "the world and its baseline count alike"
        );
        print_search(&format!("{name}, {order}"), &found);
        println!(
            "  {:.2}x the baseline's states per CPU second",
            baseline.cpu / found.cpu
        );
    }
    let act2 = "act2-reads-across-a-restart";
    for order in ["breadth-first", "depth-first"] {
        print_search(
            &format!("{act2}, {order} (for scale)"),
            &search_in_child(act2, order, "world"),
        );
    }
}

/// The argument that makes this bench run one search and print what it found
/// ([`child_search`]), in place of its sections.
const CHILD: &str = "child-search";

/// What one search in a child process found and cost.
struct ChildSearch {
    states: u64,
    transitions: u64,
    depth: u64,
    seen_bytes: u64,
    /// Seconds of CPU and of wall-clock time the search took.
    cpu: f64,
    wall: f64,
    /// How far the child's peak resident memory rose above where it stood before the search.
    peak_growth: u64,
}

/// Runs [`child_search`] in a new process of this bench and reads what it printed.
fn search_in_child(name: &str, order: &str, kind: &str) -> ChildSearch {
    let exe = std::env::current_exe().expect("this bench's path");
    let output = std::process::Command::new(exe)
        .args(["--bench", CHILD, name, order, kind])
        .output()
        .expect("the bench runs again");
    assert!(output.status.success(), "{name}: {output:?}");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let numbers: Vec<f64> = (text.split_whitespace())
        .map(|word| word.parse().expect("a number"))
        .collect();
    let [
        states,
        transitions,
        depth,
        seen_bytes,
        cpu,
        wall,
        peak_growth,
    ] = numbers[..]
    else {
        panic!("{name}: {text}");
    };
    ChildSearch {
        states: states as u64,
        transitions: transitions as u64,
        depth: depth as u64,
        seen_bytes: seen_bytes as u64,
        cpu,
        wall,
        peak_growth: peak_growth as u64,
    }
}

/// In the child: searches scenario `name` whole in `order`, as the world itself (`world`) or
/// as [`Plain`] (`plain`), and prints states, transitions, depth, the seen set's
/// bytes, CPU and wall seconds and the growth of peak resident memory, on one line.
fn child_search(name: &str, order: &str, kind: &str) {
    let limits = Limits {
        order: match order {
            "depth-first" => Order::DepthFirst,
            _ => Order::BreadthFirst,
        },
        ..Limits::default()
    };
    let scenario = scenarios::find(name).expect("listed");
    let before = status_bytes("VmRSS:");
    let (time, found) = match kind {
        "plain" => {
            let start = Plain(scenario.matchmaker_start().expect("builds"));
            best_of(1, || numbers_of(explore::explore(start.clone(), limits)))
        }
        _ if name.starts_with("act2") => {
            let start = scenario.log_start().expect("builds");
            best_of(1, || numbers_of(explore::explore(start.clone(), limits)))
        }
        _ => {
            let start = scenario.matchmaker_start().expect("builds");
            best_of(1, || numbers_of(explore::explore(start.clone(), limits)))
        }
    };
    let peak_growth = status_bytes("VmHWM:").saturating_sub(before);
    let [states, transitions, depth, seen_bytes] = found;
    println!(
        "{states} {transitions} {depth} {seen_bytes} {} {} {peak_growth}",
        time.cpu.as_secs_f64(),
        time.wall.as_secs_f64()
    );
}

/// States, transitions, depth and the seen set's bytes of a finished search.
fn numbers_of<A>(found: Result<Exploration<A>, paros_sim::Error>) -> [u64; 4] {
    let found = found.expect("the search finishes");
    [
        found.states,
        found.transitions,
        u64::from(found.depth),
        found.seen_bytes,
    ]
}

/// A size from Linux's `/proc/self/status` (`VmRSS:` now, `VmHWM:` at its peak), in bytes;
/// zero where there is no such file.
fn status_bytes(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    (status.lines())
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| rest.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(0, |kib| kib * 1024)
}

fn print_search(what: &str, found: &ChildSearch) {
    println!("explorer, {what}, one thread, whole space (a process of its own):");
    println!(
        "  {} states, {} transitions, depth {} in {:.3} s wall, {:.3} s CPU",
        found.states, found.transitions, found.depth, found.wall, found.cpu
    );
    println!(
        "  {:.0} unique states/s ({:.0} per CPU second)",
        found.states as f64 / found.wall,
        found.states as f64 / found.cpu
    );
    println!(
        "  seen set: {:.1} bytes per state; peak resident memory grew by {:.1} MB: {:.1} bytes per state",
        found.seen_bytes as f64 / found.states as f64,
        found.peak_growth as f64 / 1e6,
        found.peak_growth as f64 / found.states as f64
    );
}

/// Seeded walks of the duel, on one thread and on every core.
fn simulator() {
    let scenario = scenarios::find("act1-duel").expect("listed");
    let start = scenario.act1_start().expect("builds");
    let sweep = Sweep {
        seeds: 0..100_000,
        max_steps: 1000,
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for threads in [1, cores] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        let (time, summary) = best_of(REPETITIONS, || {
            pool.install(|| simulate::simulate(&start, &sweep, &|_| {}).unwrap())
        });
        let wall = time.wall.as_secs_f64();
        println!(
            "simulator, act1-duel, {threads} thread(s): {} seeds, {} steps in {:.3} s wall, {:.3} s CPU: {:.0} seeds/s, {:.0} steps/s",
            summary.runs,
            summary.steps,
            wall,
            time.cpu.as_secs_f64(),
            summary.runs as f64 / wall,
            summary.steps as f64 / wall
        );
    }
}

fn book_reports() {
    println!("book reports (report_for):");
    for scenario in scenarios::all() {
        let (time, report) = best_of(REPETITIONS, || {
            paros_sim::book::report_for(scenario.name).expect("runs")
        });
        println!(
            "  {:<26} {:>10} {:>7} states {:>6} seeds {:>8.1} ms wall {:>8.1} ms CPU",
            scenario.name,
            report.verdict.as_str(),
            report.states,
            report.seeds,
            time.wall.as_secs_f64() * 1000.0,
            time.cpu.as_secs_f64() * 1000.0
        );
    }
}

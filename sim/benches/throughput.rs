//! Throughput of the explorer and the simulator, and the time of each book report.
//!
//! `cargo bench -p paros-sim --bench throughput` prints:
//! - explorer unique states/s and transitions/s, single-threaded, on `act1-duel` (two proposers,
//!   1 drop, 1 duplicate, 2 retries each), and the seen set's bytes per state;
//! - simulator steps/s and seeds/s on `act1-duel`, on one thread and on every core;
//! - the time of `book::report_for` for every scenario.
//!
//! Speed is measured here, never in tests. Each figure is the best of a few repetitions.

use paros_sim::explore::{self, Limits};
use paros_sim::scenarios;
use paros_sim::simulate::{self, Sweep};
use std::time::{Duration, Instant};

const REPETITIONS: usize = 3;

fn main() {
    explorer();
    simulator();
    book_reports();
}

fn best_of<T>(mut run: impl FnMut() -> T) -> (Duration, T) {
    let mut best: Option<(Duration, T)> = None;
    for _ in 0..REPETITIONS {
        let started = Instant::now();
        let outcome = run();
        let elapsed = started.elapsed();
        if best.as_ref().is_none_or(|(time, _)| elapsed < *time) {
            best = Some((elapsed, outcome));
        }
    }
    best.expect("at least one repetition")
}

fn explorer() {
    let scenario = scenarios::find("act1-duel").expect("listed");
    let start = scenario.act1_start().expect("builds");
    let (time, found) = best_of(|| explore::explore(start.clone(), Limits::default()).unwrap());
    let seconds = time.as_secs_f64();
    println!("explorer, act1-duel, one thread:");
    println!(
        "  {} states, {} transitions, depth {} in {:.3} s",
        found.states, found.transitions, found.depth, seconds
    );
    println!(
        "  {:.0} unique states/s, {:.0} transitions/s",
        found.states as f64 / seconds,
        found.transitions as f64 / seconds
    );
    println!(
        "  seen set: {} bytes, {:.1} bytes per state",
        found.seen_bytes,
        found.seen_bytes as f64 / found.states as f64
    );
}

fn simulator() {
    let scenario = scenarios::find("act1-duel").expect("listed");
    let start = scenario.act1_start().expect("builds");
    let sweep = Sweep {
        seeds: 0..200_000,
        max_steps: 1000,
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for threads in [1, cores] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        let (time, summary) =
            best_of(|| pool.install(|| simulate::simulate(&start, &sweep, &|_| {}).unwrap()));
        let seconds = time.as_secs_f64();
        println!(
            "simulator, act1-duel, {threads} thread(s): {} seeds, {} steps in {:.3} s: {:.0} seeds/s, {:.0} steps/s",
            summary.runs,
            summary.steps,
            seconds,
            summary.runs as f64 / seconds,
            summary.steps as f64 / seconds
        );
    }
}

fn book_reports() {
    println!("book reports (report_for):");
    for scenario in scenarios::all() {
        let started = Instant::now();
        let report = paros_sim::book::report_for(scenario.name).expect("runs");
        println!(
            "  {:<28} {:>10} {:>9} states {:>10} transitions  {:>8.1} ms",
            scenario.name,
            report.verdict.as_str(),
            report.states,
            report.transitions,
            started.elapsed().as_secs_f64() * 1000.0
        );
    }
}

//! Throughput of the explorer and the simulator, and the time of each book report.
//!
//! `cargo bench -p paros-sim --bench throughput` prints:
//! - explorer unique states/s and transitions/s, single-threaded, over the first million states
//!   of `act1-duel` (two proposers, 1 drop, 1 duplicate, 2 retries each), and the seen set's
//!   bytes per state;
//! - simulator steps/s and seeds/s on `act1-duel`, on one thread and on every core;
//! - the time of `book::report_for` for every scenario.
//!
//! Speed is measured here, never in tests. Each figure is the best of a few repetitions. The
//! machine may be shared, so each line gives both wall-clock and CPU time (read from Linux's
//! `/proc`); rates are per wall-clock second unless marked CPU.

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

fn best_of<T>(mut run: impl FnMut() -> T) -> (Timing, T) {
    let mut best: Option<(Timing, T)> = None;
    for _ in 0..REPETITIONS {
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
/// space is larger than the bound, so the run measures a fixed first million states.
fn explorer() {
    const STATES: u64 = 1_000_000;
    let scenario = scenarios::find("act1-duel").expect("listed");
    let start = scenario.act1_start().expect("builds");
    let limits = Limits {
        max_depth: None,
        max_states: Some(STATES),
        max_memory_bytes: None,
    };
    let (time, found) = best_of(|| explore::explore(start.clone(), limits).unwrap());
    println!("explorer, act1-duel, one thread, first {STATES} states:");
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
        let (time, summary) =
            best_of(|| pool.install(|| simulate::simulate(&start, &sweep, &|_| {}).unwrap()));
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
        let (time, report) = best_of(|| paros_sim::book::report_for(scenario.name).expect("runs"));
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

//! One module per subcommand, plus what they share: printing a report and writing it to a file.

pub mod explore;
pub mod list;
pub mod merge;
pub mod replay;
pub mod run;

use anyhow::Context;
use paros_sim::report::{Report, Verdict};
use std::path::Path;

/// Prints the report for a reader and writes its JSON to `file` if given; returns the exit
/// code of its verdict.
pub fn finish(report: &Report, file: Option<&Path>) -> anyhow::Result<u8> {
    print_report(report);
    if let Some(file) = file {
        std::fs::write(file, report.to_json() + "\n")
            .with_context(|| format!("writing the report to {}", file.display()))?;
        println!("report written to {}", file.display());
    }
    Ok(report.verdict.exit_code())
}

fn print_report(report: &Report) {
    println!("{}: {}", report.scenario, report.claim);
    println!("{}", report.sentence());
    if !report.budgets.is_empty() {
        let budgets: Vec<String> = report
            .budgets
            .iter()
            .map(|(kind, count)| format!("{kind} {count}"))
            .collect();
        println!("budgets: {}", budgets.join(", "));
    }
    let faults: Vec<String> = report
        .faults
        .iter()
        .map(|(kind, count)| format!("{kind} {count}"))
        .collect();
    println!(
        "faults injected: {}",
        if faults.is_empty() {
            "none".to_owned()
        } else {
            faults.join(", ")
        }
    );
    match report.mode {
        paros_sim::report::Mode::Exhaustive => println!(
            "liveness: {} of {} states decided; {} terminal states, {} of them undecided",
            report.decisions, report.states, report.terminal_states, report.terminal_undecided
        ),
        paros_sim::report::Mode::Simulation => {
            println!(
                "liveness: {} of {} runs reached a decision; {} runs broke a property; {} hit the step bound",
                report.decisions, report.seeds, report.violating_runs, report.step_bound_hits
            );
            if report.decisions > 0 {
                println!(
                    "a decision took {:.1} actions on average, {} at most",
                    report.decision_steps_total as f64 / report.decisions as f64,
                    report.decision_steps_max
                );
            }
            if report.settle_runs > 0 {
                println!(
                    "once faults stop: {} of {} runs answered every client request under a fair schedule, within {} actions at most",
                    report.settle_decided, report.settle_runs, report.settle_steps_max
                );
            }
            if let Some(seed) = report.unsettled_seed {
                println!(
                    "liveness counterexample: seed {seed} did not settle; stuck in: {}",
                    report.unsettled_state
                );
                println!(
                    "  replay: paros-sim run {} --seeds 1 --seed {seed} --max-steps {}",
                    report.scenario, report.max_steps
                );
                println!(
                    "  its {} actions (the fair schedule's start with stop-faults):",
                    report.unsettled_counterexample.len()
                );
                for (index, action) in report.unsettled_counterexample.iter().enumerate() {
                    println!("  {:>3}. {action}", index + 1);
                }
            }
        }
    }
    if report.verdict == Verdict::Violation {
        for violation in &report.violations {
            println!("violated: {violation}");
        }
        println!("counterexample ({} actions):", report.counterexample.len());
        for (index, action) in report.counterexample.iter().enumerate() {
            println!("  {:>3}. {action}", index + 1);
        }
        if let Some(seed) = report.failing_seed {
            println!("seed: {seed}");
        }
    }
    for line in &report.failing_draw {
        println!("{line}");
    }
    println!("replay: {}", report.replay_command);
    println!("time: {} ms", report.duration_ms);
}

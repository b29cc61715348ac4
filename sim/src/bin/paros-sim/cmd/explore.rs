//! `paros-sim explore SCENARIO`: the exhaustive search, breadth-first or depth-first.

use paros_sim::explore::{Limits, Order, Progress};
use paros_sim::model::Model;
use paros_sim::scenarios::{Scenario, Setup};
use paros_sim::{runner, scenarios};
use std::path::PathBuf;

/// Arguments of `explore`.
#[derive(clap::Args)]
pub struct Args {
    /// The scenario to explore (see `paros-sim list`).
    scenario: String,
    /// Stop at this depth (actions after the prelude); the verdict is then INCOMPLETE if states
    /// were cut off.
    #[arg(long)]
    max_depth: Option<u32>,
    /// Stop after this many distinct states; the verdict is then INCOMPLETE.
    #[arg(long)]
    max_states: Option<u64>,
    /// Stop with an error (exit 1) once the process holds more than this much memory, in MiB,
    /// rather than be ended by the out-of-memory killer.
    #[arg(long, default_value_t = 8192)]
    max_memory_mb: u64,
    /// Merge the states that a symmetry of the world maps onto each other (in Act I, acceptors
    /// renamed): the search counts orbits, each standing for every renaming of its state, and
    /// its verdict is the same.
    #[arg(long)]
    symmetry: bool,
    /// Visit states depth-first: memory beyond the seen set is one world per level of the
    /// current path rather than a whole level's, so larger worlds finish. The counts and the
    /// verdict are the same; a counterexample is a real path, not necessarily the shortest.
    /// Takes no --max-depth (a depth bound is unsound in this order).
    #[arg(long, conflicts_with = "max_depth")]
    depth_first: bool,
    /// Write the JSON report here.
    #[arg(long)]
    report: Option<PathBuf>,
}

/// Runs the search and prints its report.
pub fn run(args: Args) -> anyhow::Result<u8> {
    let scenario = scenarios::find(&args.scenario)?;
    let limits = Limits {
        max_depth: args.max_depth,
        max_states: args.max_states,
        max_memory_bytes: Some(args.max_memory_mb.saturating_mul(1 << 20)),
        symmetry: args.symmetry,
        order: if args.depth_first {
            Order::DepthFirst
        } else {
            Order::BreadthFirst
        },
    };
    let mut said = 0;
    let report = runner::explore_reporting(&scenario, limits, &mut |progress| {
        if let Some(line) = progress_line(progress, &mut said) {
            eprintln!("{line}");
        }
    })?;
    let exit = super::finish(&report, args.report.as_deref())?;
    println!("order: {}", limits.order.as_str());
    let renamings = symmetries(&scenario)?;
    if args.symmetry && renamings > 1 {
        println!(
            "symmetry: each state counted stands for its orbit under the world's {renamings} renamings of interchangeable nodes"
        );
    }
    Ok(exit)
}

/// How many symmetries the scenario's world declares (1: none).
fn symmetries(scenario: &Scenario) -> anyhow::Result<usize> {
    Ok(match &scenario.setup {
        Setup::Act1 { .. } => scenario.act1_start()?.symmetries(),
        Setup::Log { .. } => scenario.log_start()?.symmetries(),
        Setup::Matchmaker { .. } => scenario.matchmaker_start()?.symmetries(),
    })
}

/// States between two progress lines on standard error.
const PROGRESS_EVERY_STATES: u64 = 10_000_000;

/// A line saying how far the search has got, once per [`PROGRESS_EVERY_STATES`] states found;
/// `said` is how many such lines were said before.
fn progress_line(progress: Progress, said: &mut u64) -> Option<String> {
    let due = progress.states / PROGRESS_EVERY_STATES;
    if due <= *said {
        return None;
    }
    *said = due;
    let memory = progress.resident_bytes.map_or(String::new(), |bytes| {
        format!(", {} MiB resident", bytes >> 20)
    });
    Some(format!(
        "explore: {} states found, {} transitions, depth {}{memory}",
        progress.states, progress.transitions, progress.depth
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(states: u64) -> Progress {
        Progress {
            states,
            transitions: 3 * states,
            depth: 12,
            resident_bytes: Some(5 << 20),
        }
    }

    #[test]
    fn a_progress_line_is_said_once_per_ten_million_states() {
        let mut said = 0;
        assert_eq!(progress_line(at(9_999_999), &mut said), None);
        assert_eq!(
            progress_line(at(10_027_008), &mut said).as_deref(),
            Some("explore: 10027008 states found, 30081024 transitions, depth 12, 5 MiB resident")
        );
        assert_eq!(progress_line(at(10_092_544), &mut said), None);
        assert!(progress_line(at(20_000_000), &mut said).is_some());
        assert_eq!(said, 2);
    }
}

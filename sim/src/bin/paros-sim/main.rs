//! `paros-sim`: list the scenarios, explore them exhaustively, simulate them with seeds,
//! merge sharded simulation reports, and replay actions on a named world. This file only
//! parses arguments and dispatches; each subcommand lives in `cmd/`.
//!
//! Exit codes follow the verdict: 0 PASS, 1 VIOLATION or error, 2 INCOMPLETE.

mod cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Checks paros's worlds: exhaustively, or with seeded random walks.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print every scenario: name, modes and claim, one a line.
    List,
    /// Seeded random walks, one per seed; finding nothing is INCOMPLETE (exit 2).
    Run(cmd::run::Args),
    /// Breadth-first search of every state; PASS (exit 0) only when the whole space was visited.
    Explore(cmd::explore::Args),
    /// Combine the reports of disjoint seed shards into one report.
    Merge(cmd::merge::Args),
    /// Play actions on a level's or a scenario's world, every checker judging each step: exit
    /// 0 when they replay with no violation, 1 on a violation or an action that does not
    /// replay. "Copy as command" in the game gives such a command.
    Replay(cmd::replay::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::List => cmd::list::run(),
        Command::Run(args) => cmd::run::run(args),
        Command::Explore(args) => cmd::explore::run(args),
        Command::Merge(args) => cmd::merge::run(args),
        Command::Replay(args) => cmd::replay::run(args),
    };
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(1)
        }
    }
}

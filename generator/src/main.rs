//! The `paros-book` command: dispatches to one file per subcommand.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;

/// Builds, serves and checks the paros field guide.
#[derive(Parser)]
#[command(name = "paros-book", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Render the book into a static site.
    Build(cmd::build::Args),
    /// Check everything `build` checks, writing nothing.
    Check(cmd::check::Args),
    /// Serve the book on 127.0.0.1, rebuilding and reloading on every edit.
    Serve(cmd::serve::Args),
    /// Measure rendering and reload times on synthetic books.
    #[command(hide = true)]
    Bench(cmd::bench::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Build(args) => cmd::build::run(args),
        Command::Check(args) => cmd::check::run(args),
        Command::Serve(args) => cmd::serve::run(args),
        Command::Bench(args) => cmd::bench::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

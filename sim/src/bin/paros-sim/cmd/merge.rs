//! `paros-sim merge FILE...`: combines the reports of disjoint seed shards into one.

use anyhow::Context;
use paros_sim::report::{self, Report};
use std::path::PathBuf;

/// Arguments of `merge`.
#[derive(clap::Args)]
pub struct Args {
    /// The shard reports, written by `paros-sim run ... --shard I/N --report FILE`.
    #[arg(required = true)]
    reports: Vec<PathBuf>,
    /// Write the merged JSON report here.
    #[arg(long)]
    report: Option<PathBuf>,
}

/// Reads, merges and prints the reports.
pub fn run(args: Args) -> anyhow::Result<u8> {
    let mut reports = Vec::new();
    for file in &args.reports {
        let text =
            std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        let report = Report::from_json(&text)
            .with_context(|| format!("{} is not a paros-sim report", file.display()))?;
        reports.push(report);
    }
    let merged = report::merge(reports)?;
    super::finish(&merged, args.report.as_deref())
}

//! `paros-sim run SCENARIO --seeds N`: seeded random walks on every core, with a progress bar
//! on a terminal; a swarm's name (`swarm`, `swarm-matchmaker`) runs that swarm.

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use paros_sim::simulate::Sweep;
use paros_sim::swarm::Swarm;
use paros_sim::{runner, scenarios};
use std::io::IsTerminal;
use std::ops::Range;
use std::path::PathBuf;

/// Arguments of `run`.
#[derive(clap::Args)]
pub struct Args {
    /// The scenario to simulate (see `paros-sim list`).
    scenario: String,
    /// How many seeds (one walk each).
    #[arg(long)]
    seeds: u64,
    /// The first seed; the walks use seeds S..S+N.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Run only the I-th (1-based) of N equal, disjoint parts of the seed range, e.g. `2/4`.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// The most actions one walk may apply.
    #[arg(long, default_value_t = 1000)]
    max_steps: u32,
    /// Write the JSON report here.
    #[arg(long)]
    report: Option<PathBuf>,
}

/// Runs the walks and prints their report.
pub fn run(args: Args) -> anyhow::Result<u8> {
    let swarm = Swarm::find(&args.scenario);
    let scenario = match swarm {
        Some(_) => None,
        None => Some(scenarios::find(&args.scenario)?),
    };
    let end = args
        .seed
        .checked_add(args.seeds)
        .context("--seed plus --seeds overflows 64 bits")?;
    let mut seeds = args.seed..end;
    if let Some(shard) = &args.shard {
        seeds = shard_of(seeds, shard)?;
    }
    if seeds.is_empty() {
        bail!("no seeds to run: give --seeds N with N > 0 (and no more shards than seeds)");
    }
    let bar = progress_bar(seeds.end - seeds.start);
    let sweep = Sweep {
        seeds,
        max_steps: args.max_steps,
    };
    let report = match (swarm, scenario) {
        (Some(swarm), _) => paros_sim::swarm::run(swarm, &sweep, &|done| bar.inc(done))?,
        (None, Some(scenario)) => runner::simulate(&scenario, &sweep, &|done| bar.inc(done))?,
        (None, None) => unreachable!("a scenario was found when no swarm was"),
    };
    bar.finish_and_clear();
    super::finish(&report, args.report.as_deref())
}

/// The `index`-th of `count` contiguous parts of `seeds`, from `I/N` (1-based).
fn shard_of(seeds: Range<u64>, shard: &str) -> anyhow::Result<Range<u64>> {
    let parsed = shard
        .split_once('/')
        .and_then(|(index, count)| Some((index.parse::<u64>().ok()?, count.parse::<u64>().ok()?)));
    let Some((index, count)) = parsed else {
        bail!("--shard expects I/N, e.g. 2/4, got {shard:?}");
    };
    if count == 0 || index == 0 || index > count {
        bail!("--shard {shard}: I must be between 1 and N");
    }
    let length = u128::from(seeds.end - seeds.start);
    let bound = |part: u64| seeds.start + (length * u128::from(part) / u128::from(count)) as u64;
    Ok(bound(index - 1)..bound(index))
}

fn progress_bar(length: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(Some(length), ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new(length);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} seeds {per_sec} eta {eta}")
    {
        bar.set_style(style);
    }
    bar
}

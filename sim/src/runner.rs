//! Runs a scenario in a mode and turns what the explorer or simulator found into a [`Report`].
//!
//! It knows no world type: `scenarios::with_start` hands it the scenario's world, and
//! everything it calls is generic over [`Model`].

use crate::Error;
use crate::explore::{self, Ending, Limits, Order, Progress};
use crate::model::Model;
use crate::report::{Mode, Report, SIMULATION_IS_INCOMPLETE, SeedRange, Verdict};
use crate::scenarios::{self, Scenario, with_start};
use crate::simulate::{self, Sweep};

/// Explores every state of the scenario's world, within `limits`.
pub fn explore(scenario: &Scenario, limits: Limits) -> Result<Report, Error> {
    explore_reporting(scenario, limits, &mut |_| {})
}

/// [`explore()`], telling `progress` how far the search has got every 65,536 new states.
pub fn explore_reporting(
    scenario: &Scenario,
    limits: Limits,
    progress: &mut dyn FnMut(Progress),
) -> Result<Report, Error> {
    require(scenario, Mode::Exhaustive)?;
    let clock = Stopwatch::start();
    let mut report = with_start!(scenario, |world| explore_model(
        scenario, world, limits, progress
    )?);
    report.duration_ms = clock.elapsed_ms();
    Ok(report)
}

/// Runs one seeded walk per seed of `sweep`; `progress` hears of each finished walk.
pub fn simulate(
    scenario: &Scenario,
    sweep: &Sweep,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Report, Error> {
    require(scenario, Mode::Simulation)?;
    if sweep.seeds.is_empty() {
        return Err(Error::BadParameters("the seed range is empty".into()));
    }
    let clock = Stopwatch::start();
    let mut report = with_start!(scenario, |world| simulate_model(
        scenario, &world, sweep, progress
    )?);
    report.duration_ms = clock.elapsed_ms();
    Ok(report)
}

fn require(scenario: &Scenario, mode: Mode) -> Result<(), Error> {
    if scenario.supports(mode) {
        Ok(())
    } else {
        Err(Error::UnsupportedMode {
            scenario: scenario.name.to_owned(),
            mode: mode.as_str(),
        })
    }
}

fn explore_model<M: Model>(
    scenario: &Scenario,
    start: M,
    limits: Limits,
    progress: &mut dyn FnMut(Progress),
) -> Result<Report, Error> {
    let found = explore::explore_reporting(start.clone(), limits, progress)?;
    let mut report = blank(scenario, Mode::Exhaustive)?;
    report.states = found.states;
    report.transitions = found.transitions;
    report.depth = u64::from(found.depth);
    report.max_depth = limits.max_depth.map(u64::from);
    report.max_states = limits.max_states;
    report.order = Some(limits.order);
    report.faults = found.faults;
    report.decisions = found.decided_states;
    report.terminal_states = found.terminal_states;
    report.terminal_undecided = found.terminal_undecided;
    let mut command = format!("paros-sim explore {}", scenario.name);
    if let Some(depth) = limits.max_depth {
        command += &format!(" --max-depth {depth}");
    }
    if let Some(states) = limits.max_states {
        command += &format!(" --max-states {states}");
    }
    if limits.symmetry {
        command += " --symmetry";
    }
    if limits.order == Order::DepthFirst {
        command += " --depth-first";
    }
    report.replay_command = command;
    match found.ending {
        Ending::Complete => report.verdict = Verdict::Pass,
        Ending::DepthBound(depth) => {
            report.verdict = Verdict::Incomplete;
            report.incomplete_because = format!("the depth bound {depth} cut off unvisited states");
        }
        Ending::StateBound(states) => {
            report.verdict = Verdict::Incomplete;
            report.incomplete_because = format!("the state bound {states} was reached");
        }
        Ending::Violation { path, violations } => {
            report.verdict = Verdict::Violation;
            report.violations = violations.iter().map(ToString::to_string).collect();
            report.counterexample = scenario.prelude();
            report.counterexample.extend(describe_path(&start, &path)?);
        }
    }
    Ok(report)
}

fn simulate_model<M: Model>(
    scenario: &Scenario,
    start: &M,
    sweep: &Sweep,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Report, Error> {
    let summary = simulate::simulate(start, sweep, progress)?;
    let mut report = blank(scenario, Mode::Simulation)?;
    report.seeds = summary.runs;
    report.seed_ranges = vec![SeedRange {
        start: sweep.seeds.start,
        end: sweep.seeds.end,
    }];
    report.steps = summary.steps;
    report.depth = summary.longest_walk;
    report.max_steps = u64::from(sweep.max_steps);
    report.step_bound_hits = summary.step_bound_hits;
    report.faults = summary.faults;
    report.decisions = summary.decided;
    report.decision_steps_total = summary.decision_steps_total;
    report.decision_steps_max = summary.decision_steps_max;
    report.settle_runs = summary.settle_runs;
    report.settle_decided = summary.settle_decided;
    report.settle_steps_max = summary.settle_steps_max;
    report.violating_runs = summary.violating;
    if let Some(walk) = &summary.first_unsettled
        && let Some((actions, stuck)) = &walk.unsettled
    {
        report.unsettled_seed = Some(walk.seed);
        report.unsettled_counterexample = scenario.prelude();
        report
            .unsettled_counterexample
            .extend(describe_path(start, actions)?);
        report.unsettled_state = stuck.clone();
    }
    match summary.first_violation {
        None => {
            report.verdict = Verdict::Incomplete;
            report.incomplete_because = SIMULATION_IS_INCOMPLETE.into();
            report.replay_command = format!(
                "paros-sim run {} --seeds {} --seed {} --max-steps {}",
                scenario.name,
                sweep.seeds.end - sweep.seeds.start,
                sweep.seeds.start,
                sweep.max_steps
            );
        }
        Some(walk) => {
            report.verdict = Verdict::Violation;
            report.violations = walk.violations.iter().map(ToString::to_string).collect();
            report.counterexample = scenario.prelude();
            report
                .counterexample
                .extend(describe_path(start, &walk.actions)?);
            report.failing_seed = Some(walk.seed);
            report.replay_command =
                scenarios::replay_command(scenario.name, walk.seed, u64::from(sweep.max_steps));
        }
    }
    Ok(report)
}

/// Describes each action of `path` against the state it applies to, replaying it from `start`.
fn describe_path<M: Model>(start: &M, path: &[M::Action]) -> Result<Vec<String>, Error> {
    let mut world = start.clone();
    let mut described = Vec::with_capacity(path.len());
    for (index, action) in path.iter().enumerate() {
        described.push(world.describe(action));
        world.apply(action).map_err(|refused| Error::Replay {
            index,
            action: action.to_string(),
            why: refused.to_string(),
        })?;
    }
    Ok(described)
}

/// A report with the scenario's identity filled in and every count at zero.
fn blank(scenario: &Scenario, mode: Mode) -> Result<Report, Error> {
    Ok(Report {
        negative_control: scenario.negative_control().is_some(),
        control_property: (scenario.negative_control())
            .map(|control| control.property().to_string()),
        budgets: scenario.budgets()?,
        tool_version: env!("CARGO_PKG_VERSION").to_owned(),
        input_hash: scenarios::input_hash(scenario.name).expect("a listed scenario"),
        ..Report::empty(scenario.name, scenario.claim, mode, Verdict::Incomplete)
    })
}

/// Wall-clock time where there is a clock; the browser has none, so it reads 0 there.
struct Stopwatch {
    #[cfg(not(target_arch = "wasm32"))]
    started: std::time::Instant,
}

impl Stopwatch {
    fn start() -> Stopwatch {
        Stopwatch {
            #[cfg(not(target_arch = "wasm32"))]
            started: std::time::Instant::now(),
        }
    }

    fn elapsed_ms(&self) -> u64 {
        #[cfg(not(target_arch = "wasm32"))]
        return self.started.elapsed().as_millis() as u64;
        #[cfg(target_arch = "wasm32")]
        0
    }
}

//! The report of one run, as JSON: the schema, in one place.
//!
//! `paros-sim run|explore --report FILE` writes a [`Report`]; [`crate::book::report_for`]
//! returns one to the book generator, which caches it under
//! `target/book-reports/<scenario>-<input_hash>.json` and prints its verdict in words that say
//! which mode produced it ([`Report::sentence`]).
//!
//! Fields that belong to one mode are 0 (or empty) in the other, as each field's doc says.
//! The verdict follows honest-verdicts: `PASS` only when every reachable state was visited,
//! `INCOMPLETE` when a bound stopped the search or the run was a seeded simulation that found
//! nothing, `VIOLATION` with a counterexample that replays.
//!
//! The command that replays a walk ([`replay_command`]) is here too, below the scenarios that
//! name it.

use crate::Error;
use crate::explore::Order;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The command that replays the walk of `seed`.
pub fn replay_command(scenario: &str, seed: u64, max_steps: u64) -> String {
    format!("paros-sim run {scenario} --seeds 1 --seed {seed} --max-steps {max_steps}")
}

/// How a run explored its world.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A search over every reachable state, in the report's `order` (`"exhaustive"`).
    Exhaustive,
    /// Seeded random walks (`"simulation"`).
    Simulation,
}

/// What a run can honestly claim.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Verdict {
    /// Every reachable state was visited and none broke a property (`"PASS"`, exit 0).
    Pass,
    /// No violation was found, but not every state was visited: a bound stopped the search, or
    /// the run was a seeded simulation (`"INCOMPLETE"`, exit 2).
    Incomplete,
    /// A reachable state breaks a property; the counterexample replays it (`"VIOLATION"`,
    /// exit 1).
    Violation,
}

impl Mode {
    /// `"exhaustive"` or `"simulation"`, as in the JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Exhaustive => "exhaustive",
            Mode::Simulation => "simulation",
        }
    }
}

impl Verdict {
    /// `"PASS"`, `"INCOMPLETE"` or `"VIOLATION"`, as in the JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Incomplete => "INCOMPLETE",
            Verdict::Violation => "VIOLATION",
        }
    }

    /// The process exit code for this verdict: 0, 2 or 1.
    pub fn exit_code(self) -> u8 {
        match self {
            Verdict::Pass => 0,
            Verdict::Violation => 1,
            Verdict::Incomplete => 2,
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for Mode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<&str> for Verdict {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// A half-open range of seeds, `start..end`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub struct SeedRange {
    /// The first seed run.
    pub start: u64,
    /// One past the last seed run.
    pub end: u64,
}

/// The result of one exhaustive search or one seeded sweep (or of merged sweep shards).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Report {
    /// The scenario's name, e.g. `act1-duel`.
    pub scenario: String,
    /// The claim the scenario checks, in one sentence.
    pub claim: String,
    /// How the world was explored.
    pub mode: Mode,
    /// What the run can honestly claim.
    pub verdict: Verdict,
    /// Why the verdict is INCOMPLETE (the bound that stopped the search, or that the run was a
    /// simulation); empty otherwise.
    pub incomplete_because: String,
    /// Whether the scenario is a negative control: a fault outside the model that the checkers
    /// must catch, so VIOLATION is the expected verdict.
    pub negative_control: bool,
    /// A negative control's property (`agreement`, `linearizability`, ...): the one its fault
    /// must break. A control that breaks only another property has not shown its checker
    /// works. `None` for any other scenario.
    #[serde(default)]
    pub control_property: Option<String>,
    /// Exhaustive: distinct states visited (fingerprints). 0 in simulation.
    pub states: u64,
    /// Exhaustive: actions applied while expanding states. 0 in simulation.
    pub transitions: u64,
    /// Exhaustive: the deepest level reached, in actions after the prelude. Simulation: the
    /// longest walk, in actions.
    pub depth: u64,
    /// Exhaustive: the depth bound, if one was set. Absent in simulation.
    pub max_depth: Option<u64>,
    /// Exhaustive: the state bound, if one was set. Absent in simulation.
    pub max_states: Option<u64>,
    /// Exhaustive: the order states were visited in (`"breadth-first"` or `"depth-first"`).
    /// Absent in simulation, and in reports written before depth-first order existed (all of
    /// which were breadth-first).
    #[serde(default)]
    pub order: Option<Order>,
    /// Simulation: walks run, one per seed. 0 in exhaustive mode.
    pub seeds: u64,
    /// Simulation: the seeds run, as sorted, disjoint half-open ranges. Empty in exhaustive mode.
    pub seed_ranges: Vec<SeedRange>,
    /// Simulation: actions applied over all walks. 0 in exhaustive mode.
    pub steps: u64,
    /// Simulation: the most actions one walk may apply. 0 in exhaustive mode.
    pub max_steps: u64,
    /// Simulation: walks cut off by `max_steps` before they ended on their own.
    pub step_bound_hits: u64,
    /// The fault and retry budgets of the world after its prelude, by kind (`drops`,
    /// `duplicates`, `retries_per_proposer`, `amnesia`).
    pub budgets: BTreeMap<String, u64>,
    /// Faults injected, by kind (`drop`, `duplicate`, `amnesia`): over all walks in simulation,
    /// over all transitions explored in exhaustive mode.
    pub faults: BTreeMap<String, u64>,
    /// Liveness, apart from safety: simulation, walks that ended with a decision; exhaustive,
    /// visited states in which a decision had been reached.
    pub decisions: u64,
    /// Simulation: over the walks that reached a decision, the actions each took to first
    /// reach it, summed; divided by `decisions` it is the mean (in Act I a decision, once
    /// reached, stays). 0 in exhaustive mode.
    #[serde(default)]
    pub decision_steps_total: u64,
    /// Simulation: the most actions any walk took to first reach a decision. 0 in exhaustive
    /// mode.
    #[serde(default)]
    pub decision_steps_max: u64,
    /// Simulation, liveness once faults stop: walks after which the world's fair, fault-free
    /// schedule was run (0 for worlds without one, such as Act I's).
    #[serde(default)]
    pub settle_runs: u64,
    /// Of `settle_runs`, the walks whose fair schedule reached a decision (in Act II: every
    /// client request answered) within its step bound.
    #[serde(default)]
    pub settle_decided: u64,
    /// The most actions a fair schedule took to reach that decision.
    #[serde(default)]
    pub settle_steps_max: u64,
    /// Simulation: the lowest seed whose fair schedule did not settle, if any: a liveness
    /// counterexample, reported apart from safety.
    #[serde(default)]
    pub unsettled_seed: Option<u64>,
    /// That walk's actions then the fair schedule's, as described actions from a fresh world,
    /// prelude included; they replay like a safety counterexample.
    #[serde(default)]
    pub unsettled_counterexample: Vec<String>,
    /// The state that fair schedule was stuck in, in words.
    #[serde(default)]
    pub unsettled_state: String,
    /// Exhaustive: states with no enabled action, where a schedule ends. 0 in simulation.
    pub terminal_states: u64,
    /// Exhaustive: terminal states with no decision (schedules that ended undecided, e.g. a
    /// duel that spent its retries). A liveness fact; safety may still hold.
    pub terminal_undecided: u64,
    /// Simulation: walks that broke a property. 0 in exhaustive mode.
    pub violating_runs: u64,
    /// The properties broken by the counterexample's last state, as `property: detail`.
    pub violations: Vec<String>,
    /// The violating path found (exhaustive: a shortest one in breadth-first order, the
    /// search's own path in depth-first order) or the violating walk of the lowest seed
    /// (simulation), as described actions from a fresh world, prelude included. Each parses
    /// back with `Model::parse_action` and replays with `Model::replay`.
    pub counterexample: Vec<String>,
    /// Simulation: the seed of the counterexample's walk.
    pub failing_seed: Option<u64>,
    /// The command that reproduces this verdict.
    pub replay_command: String,
    /// Wall-clock time of the run, in milliseconds (0 where no clock is available, as in the
    /// browser). The only field that differs between two runs of the same input.
    pub duration_ms: u64,
    /// The paros-sim version that produced the report.
    pub tool_version: String,
    /// [`input_hash`](crate::scenarios::input_hash) of the scenario: the core and sim sources
    /// and the scenario's parameters.
    pub input_hash: String,
    /// Swarms: what the failing seed drew (its configuration and its weights) and how its run
    /// shrank; empty for any other scenario.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failing_draw: Vec<String>,
}

impl Report {
    /// A report of `scenario` with its identity filled in, every figure at zero, no bound and
    /// no input hash: what a run starts from, and what a source that knows scenarios by name
    /// only returns.
    pub fn empty(scenario: &str, claim: &str, mode: Mode, verdict: Verdict) -> Report {
        Report {
            scenario: scenario.to_string(),
            claim: claim.to_string(),
            mode,
            verdict,
            incomplete_because: String::new(),
            negative_control: false,
            control_property: None,
            states: 0,
            transitions: 0,
            depth: 0,
            max_depth: None,
            max_states: None,
            order: None,
            seeds: 0,
            seed_ranges: Vec::new(),
            steps: 0,
            max_steps: 0,
            step_bound_hits: 0,
            budgets: BTreeMap::new(),
            faults: BTreeMap::new(),
            decisions: 0,
            decision_steps_total: 0,
            decision_steps_max: 0,
            settle_runs: 0,
            settle_decided: 0,
            settle_steps_max: 0,
            unsettled_seed: None,
            unsettled_counterexample: Vec::new(),
            unsettled_state: String::new(),
            terminal_states: 0,
            terminal_undecided: 0,
            violating_runs: 0,
            violations: Vec::new(),
            counterexample: Vec::new(),
            failing_seed: None,
            replay_command: String::new(),
            duration_ms: 0,
            tool_version: String::new(),
            input_hash: String::new(),
            failing_draw: Vec::new(),
        }
    }

    /// The verdict in words that say which mode it was, for the book.
    pub fn sentence(&self) -> String {
        match (self.verdict, self.mode) {
            (Verdict::Pass, _) => format!(
                "PASS: every one of the {} reachable states of {} was visited ({} transitions, depth {}); none breaks a property.",
                self.states, self.scenario, self.transitions, self.depth
            ),
            (Verdict::Incomplete, Mode::Exhaustive) => format!(
                "INCOMPLETE (no violation found): {} states of {} were visited before {}.",
                self.states, self.scenario, self.incomplete_because
            ),
            (Verdict::Incomplete, Mode::Simulation) => format!(
                "INCOMPLETE (no violation found): {} seeded runs of {} ({} steps) found no violation; {} reached a decision.",
                self.seeds, self.scenario, self.steps, self.decisions
            ),
            (Verdict::Violation, _) => format!(
                "VIOLATION{}: {} in {} actions.",
                if self.negative_control {
                    " (expected: negative control)"
                } else {
                    ""
                },
                self.violations.join("; "),
                self.counterexample.len()
            ),
        }
    }

    /// Parses a report from JSON.
    pub fn from_json(text: &str) -> Result<Report, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The report as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report always serializes")
    }
}

/// Why every simulation that finds nothing is INCOMPLETE.
pub(crate) const SIMULATION_IS_INCOMPLETE: &str =
    "seeded random walks sample schedules; they cannot visit every state";

/// Merges the reports of disjoint seed shards of one sweep into one report.
///
/// Every shard must be a simulation whose verdict agrees with its own failing seed, the shards
/// must agree on everything that makes a run (scenario, claim, control, input hash, tool
/// version, step bound and budgets), and their seed ranges must not overlap. Counts add up; the counterexample is the one of the lowest failing seed. The
/// verdict is worked out afresh, never taken from a shard: VIOLATION if any shard found one,
/// else INCOMPLETE. A simulation is never PASS.
pub fn merge(reports: Vec<Report>) -> Result<Report, Error> {
    let Some(first) = reports.first() else {
        return Err(Error::Merge("no reports given".into()));
    };
    for report in &reports {
        check_shard(report)?;
        same_input(first, report)?;
    }
    let seed_ranges = disjoint_seed_ranges(&reports)?;
    let mut reports = reports.into_iter();
    let first = reports.next().expect("not empty");
    let mut merged = reports.fold(first, add_counts);
    merged.seed_ranges = seed_ranges;
    if merged.failing_seed.is_some() {
        merged.verdict = Verdict::Violation;
        merged.incomplete_because.clear();
    } else {
        merged.verdict = Verdict::Incomplete;
        merged.incomplete_because = SIMULATION_IS_INCOMPLETE.into();
    }
    merged.replay_command = match merged.failing_seed {
        Some(seed) => replay_command(&merged.scenario, seed, merged.max_steps),
        None => format!(
            "paros-sim merge <the {} shard reports>",
            merged.seed_ranges.len()
        ),
    };
    Ok(merged)
}

/// A shard is a simulation, and its verdict agrees with its own figures: VIOLATION exactly when
/// it names a failing seed among the seeds it ran, never PASS.
fn check_shard(report: &Report) -> Result<(), Error> {
    let name = &report.scenario;
    if report.mode != Mode::Simulation {
        return Err(Error::Merge(format!(
            "{name} is an exhaustive report; only simulation shards merge"
        )));
    }
    match (report.verdict, report.failing_seed) {
        (Verdict::Pass, _) => Err(Error::Merge(format!(
            "a shard of {name} claims PASS, which no simulation can"
        ))),
        (Verdict::Violation, None) => Err(Error::Merge(format!(
            "a shard of {name} claims VIOLATION but names no failing seed"
        ))),
        (Verdict::Incomplete, Some(seed)) => Err(Error::Merge(format!(
            "a shard of {name} names failing seed {seed} but claims INCOMPLETE"
        ))),
        (_, Some(seed))
            if !report
                .seed_ranges
                .iter()
                .any(|r| (r.start..r.end).contains(&seed)) =>
        {
            Err(Error::Merge(format!(
                "a shard of {name} names failing seed {seed}, which it did not run"
            )))
        }
        _ => Ok(()),
    }
}

/// Two shards are of the same sweep: the same scenario, claim, control, inputs (the input
/// hash), tool version, step bound and budgets.
fn same_input(first: &Report, report: &Report) -> Result<(), Error> {
    let same = |what: &str, left: String, right: String| {
        if left == right {
            Ok(())
        } else {
            Err(Error::Merge(format!("{what} differs: {left} vs {right}")))
        }
    };
    same("scenario", first.scenario.clone(), report.scenario.clone())?;
    same("claim", first.claim.clone(), report.claim.clone())?;
    same(
        "input hash",
        first.input_hash.clone(),
        report.input_hash.clone(),
    )?;
    same(
        "tool version",
        first.tool_version.clone(),
        report.tool_version.clone(),
    )?;
    same(
        "step bound",
        first.max_steps.to_string(),
        report.max_steps.to_string(),
    )?;
    same(
        "negative control",
        format!("{:?}", (first.negative_control, &first.control_property)),
        format!("{:?}", (report.negative_control, &report.control_property)),
    )?;
    same(
        "budgets",
        format!("{:?}", first.budgets),
        format!("{:?}", report.budgets),
    )
}

/// The seed ranges of all shards, sorted and joined; an error if any two overlap.
fn disjoint_seed_ranges(reports: &[Report]) -> Result<Vec<SeedRange>, Error> {
    let mut ranges: Vec<SeedRange> = reports
        .iter()
        .flat_map(|report| report.seed_ranges.iter().copied())
        .collect();
    ranges.sort();
    if let Some(pair) = ranges.windows(2).find(|pair| pair[0].end > pair[1].start) {
        return Err(Error::Merge(format!(
            "seed ranges {}..{} and {}..{} overlap",
            pair[0].start, pair[0].end, pair[1].start, pair[1].end
        )));
    }
    Ok(coalesce(ranges))
}

/// Adds a shard's counts to the merged report, and keeps the violation and the liveness
/// counterexample of the lower seed.
fn add_counts(mut merged: Report, report: Report) -> Report {
    merged.seeds += report.seeds;
    merged.steps += report.steps;
    merged.depth = merged.depth.max(report.depth);
    merged.step_bound_hits += report.step_bound_hits;
    merged.decisions += report.decisions;
    merged.decision_steps_total += report.decision_steps_total;
    merged.decision_steps_max = merged.decision_steps_max.max(report.decision_steps_max);
    merged.settle_runs += report.settle_runs;
    merged.settle_decided += report.settle_decided;
    merged.settle_steps_max = merged.settle_steps_max.max(report.settle_steps_max);
    merged.violating_runs += report.violating_runs;
    merged.duration_ms += report.duration_ms;
    for (kind, count) in report.faults {
        *merged.faults.entry(kind).or_default() += count;
    }
    if lower(report.unsettled_seed, merged.unsettled_seed) {
        merged.unsettled_seed = report.unsettled_seed;
        merged.unsettled_counterexample = report.unsettled_counterexample;
        merged.unsettled_state = report.unsettled_state;
    }
    if lower(report.failing_seed, merged.failing_seed) {
        merged.failing_seed = report.failing_seed;
        merged.violations = report.violations;
        merged.counterexample = report.counterexample;
        merged.failing_draw = report.failing_draw;
    }
    merged
}

/// Whether `theirs` names a seed below `mine`, or one where `mine` names none.
fn lower(theirs: Option<u64>, mine: Option<u64>) -> bool {
    match (theirs, mine) {
        (Some(_), None) => true,
        (Some(theirs), Some(mine)) => theirs < mine,
        _ => false,
    }
}

/// Joins adjacent ranges of a sorted, disjoint list.
fn coalesce(ranges: Vec<SeedRange>) -> Vec<SeedRange> {
    let mut joined: Vec<SeedRange> = Vec::new();
    for range in ranges {
        match joined.last_mut() {
            Some(last) if last.end == range.start => last.end = range.end,
            _ => joined.push(range),
        }
    }
    joined
}

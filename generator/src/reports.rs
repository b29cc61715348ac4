//! Simulation reports, as the book reads them.
//!
//! A report is paros-sim's JSON (scenario, claim, mode, verdict, figures, counterexample). The
//! generator asks a [`ReportSource`] for a scenario's report; the simulator source caches each
//! report under `target/book-reports/<scenario>-<input hash>.json`, so an unchanged core and
//! simulator do not re-run.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::Context;
use serde::{Deserialize, Serialize};

/// A scenario's report. Unknown fields are ignored so the simulator can add figures freely.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Report {
    /// Scenario name, `act1-duel`.
    pub scenario: String,
    /// What the run checks, in words.
    pub claim: String,
    /// `exhaustive` or `simulation`.
    pub mode: String,
    /// `PASS`, `INCOMPLETE` or `VIOLATION`.
    pub verdict: String,
    /// Distinct states visited.
    pub states: u64,
    /// Transitions taken.
    pub transitions: u64,
    /// Deepest action sequence explored.
    pub depth: u64,
    /// Seeded runs (simulation).
    pub seeds: u64,
    /// Steps over all runs (simulation).
    pub steps: u64,
    /// Faults injected, by kind.
    pub faults: BTreeMap<String, u64>,
    /// Values decided.
    pub decisions: u64,
    /// Simulation: runs after which a fair, fault-free schedule was run (liveness once faults
    /// stop).
    pub settle_runs: u64,
    /// Of those, the runs whose fair schedule answered every client request.
    pub settle_decided: u64,
    /// The most actions such a schedule took.
    pub settle_steps_max: u64,
    /// Violations found.
    pub violations: Vec<String>,
    /// The shortest failing run, as named actions.
    pub counterexample: Vec<String>,
    /// Wall time of the run.
    pub duration_ms: u64,
    /// The simulator's version.
    pub tool_version: String,
    /// Hash of the inputs that produced the report.
    pub input_hash: String,
    /// A labelled negative control: a VIOLATION is what it must find.
    pub negative_control: bool,
    /// Why an INCOMPLETE verdict is incomplete (the bound that stopped the search).
    pub incomplete_because: String,
    /// The command that reproduces the verdict.
    pub replay_command: String,
}

/// Where reports come from.
pub trait ReportSource: Send + Sync {
    /// The report of `scenario`, running it if needed. `Ok(None)` when no such scenario exists.
    fn report(&self, scenario: &str) -> anyhow::Result<Option<Report>>;

    /// Forgets cached reports (after the simulator's sources change).
    fn invalidate(&self) {}

    /// Every scenario name this source knows, for suggestions.
    fn names(&self) -> Vec<String> {
        Vec::new()
    }
}

/// Reports read from a folder of `<scenario>.json` files (fixtures and benchmarks).
pub struct FolderReports {
    /// The folder.
    pub folder: PathBuf,
}

impl ReportSource for FolderReports {
    fn report(&self, scenario: &str) -> anyhow::Result<Option<Report>> {
        if !scenario
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Ok(None);
        }
        let path = self.folder.join(format!("{scenario}.json"));
        if !path.exists() {
            return Ok(None);
        }
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let report =
            serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
        Ok(Some(report))
    }

    fn names(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(&self.folder) else {
            return Vec::new();
        };
        let mut names: Vec<String> = entries
            .filter_map(Result::ok)
            .filter_map(|entry| {
                let name = entry.file_name().to_string_lossy().to_string();
                name.strip_suffix(".json").map(str::to_string)
            })
            .collect();
        names.sort();
        names
    }
}

/// No reports at all: every scenario is unknown.
pub struct NoReports;

impl ReportSource for NoReports {
    fn report(&self, _scenario: &str) -> anyhow::Result<Option<Report>> {
        Ok(None)
    }
}

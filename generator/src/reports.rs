//! Simulation reports, as the book reads them: paros-sim's own [`Report`], with its typed
//! [`Verdict`](paros_sim::report::Verdict) and [`Mode`](paros_sim::report::Mode).
//!
//! The generator asks a [`ReportSource`] for a scenario's report, through a [`ReportCache`]
//! that fetches each one once per build; the simulator source caches each report under
//! `target/book-reports/<scenario>-<input hash>.json`, so an unchanged core and simulator do
//! not re-run.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

use anyhow::Context;
use paros_sim::report::Report;

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
            Report::from_json(&text).with_context(|| format!("parsing {}", path.display()))?;
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

/// Reports fetched once per build and shared by every chapter.
pub struct ReportCache {
    source: Box<dyn ReportSource>,
    fetched: Mutex<BTreeMap<String, Result<Option<Report>, String>>>,
}

impl ReportCache {
    /// A cache in front of `source`.
    pub fn new(source: Box<dyn ReportSource>) -> ReportCache {
        ReportCache {
            source,
            fetched: Mutex::new(BTreeMap::new()),
        }
    }

    /// The report of `scenario`, fetched at most once until [`ReportCache::clear`].
    pub fn get(&self, scenario: &str) -> Result<Option<Report>, String> {
        let mut fetched = self
            .fetched
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        fetched
            .entry(scenario.to_string())
            .or_insert_with(|| {
                self.source
                    .report(scenario)
                    .map_err(|error| format!("{error:#}"))
            })
            .clone()
    }

    /// Up to three scenario names closest to `wanted`.
    pub fn nearest(&self, wanted: &str) -> Vec<String> {
        let mut scored: Vec<(usize, String)> = self
            .source
            .names()
            .into_iter()
            .map(|name| (crate::symbols::edit_distance(wanted, &name), name))
            .collect();
        scored.sort();
        scored.into_iter().take(3).map(|(_, name)| name).collect()
    }

    /// Forgets every report, here and in the source's cache.
    pub fn clear(&self) {
        self.fetched
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clear();
        self.source.invalidate();
    }
}

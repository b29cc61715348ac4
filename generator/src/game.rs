//! The book's links to the game and the simulator: the level catalog from paros-play and the
//! scenario reports from paros-sim, cached by input hash under `target/book-reports/`.
//!
//! Both are linked into paros-book, so `serve` picks up a change to them only when restarted;
//! it says so when it sees one.

use std::path::{Path, PathBuf};

use anyhow::Context;

use paros_sim::report::Report;

use crate::levels::{Level, LevelCatalog};
use crate::reports::ReportSource;

/// The game's level catalog, with each level's briefing.
pub fn catalog() -> LevelCatalog {
    let levels = paros_play::catalog().into_iter().map(|summary| {
        let briefing = briefing(summary.id).to_string();
        Level {
            briefing,
            ..Level::from(summary)
        }
    });
    LevelCatalog::new(levels.collect())
}

/// The briefing of the level with this id, from whichever act has it.
fn briefing(id: &str) -> &'static str {
    use paros_play::levels::{find, find_act2};
    find(id)
        .map(|level| level.briefing)
        .or_else(|| find_act2(id).map(|level| level.briefing))
        .unwrap_or_default()
}

/// The simulator's reports for the repository at `root`.
pub fn reports(root: &Path) -> Box<dyn ReportSource> {
    Box::new(CachedReports {
        folder: root.join("target/book-reports"),
        input_hash: paros_sim::scenarios::input_hash,
        run: run_scenario,
        names: scenario_names,
    })
}

fn scenario_names() -> Vec<String> {
    paros_sim::scenarios::all()
        .into_iter()
        .map(|scenario| scenario.name.to_string())
        .collect()
}

/// Runs a scenario in its book mode.
fn run_scenario(name: &str) -> anyhow::Result<Report> {
    paros_sim::book::report_for(name).map_err(|error| anyhow::anyhow!("{error}"))
}

/// Reports computed by a function and cached on disk by the scenario's input hash, so an
/// unchanged core and simulator never re-run a scenario. A cached file that does not parse as
/// a report (cut short, or written by an older simulator) is run again and overwritten.
pub struct CachedReports {
    /// `target/book-reports`.
    pub folder: PathBuf,
    /// The scenario's input hash, `None` for an unknown scenario.
    pub input_hash: fn(&str) -> Option<String>,
    /// Runs the scenario.
    pub run: fn(&str) -> anyhow::Result<Report>,
    /// Every scenario's name.
    pub names: fn() -> Vec<String>,
}

impl ReportSource for CachedReports {
    fn report(&self, scenario: &str) -> anyhow::Result<Option<Report>> {
        let Some(hash) = (self.input_hash)(scenario) else {
            return Ok(None);
        };
        let path = self.folder.join(format!("{scenario}-{hash}.json"));
        if let Some(report) = read_cached(&path) {
            return Ok(Some(report));
        }
        eprintln!("paros-book: running scenario {scenario}");
        let report = (self.run)(scenario)?;
        std::fs::create_dir_all(&self.folder)
            .with_context(|| format!("creating {}", self.folder.display()))?;
        std::fs::write(&path, report.to_json())
            .with_context(|| format!("writing {}", path.display()))?;
        Ok(Some(report))
    }

    fn names(&self) -> Vec<String> {
        (self.names)()
    }
}

/// The report cached at `path`, if there is one and it parses; anything else means run again.
fn read_cached(path: &Path) -> Option<Report> {
    let text = std::fs::read_to_string(path).ok()?;
    Report::from_json(&text).ok()
}

#[cfg(test)]
mod tests {
    use paros_sim::report::{Mode, Verdict};

    use super::*;
    use paros_sim::report::Report;

    fn hash(name: &str) -> Option<String> {
        (name == "known").then(|| "abc".to_string())
    }

    fn fails(_: &str) -> anyhow::Result<Report> {
        anyhow::bail!("must not run: the cache holds the report")
    }

    fn runs(scenario: &str) -> anyhow::Result<Report> {
        Ok(Report::empty(
            scenario,
            "ran",
            Mode::Exhaustive,
            Verdict::Pass,
        ))
    }

    fn scratch_folder(name: &str) -> PathBuf {
        let folder =
            std::env::temp_dir().join(format!("paros-book-reports-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        folder
    }

    #[test]
    fn cached_reports_are_read_without_running() {
        // Proves an unchanged input hash reuses the stored report, and an unknown scenario is None.
        let folder = scratch_folder("cached");
        let report = Report::empty("known", "cached", Mode::Exhaustive, Verdict::Pass);
        std::fs::write(folder.join("known-abc.json"), report.to_json()).unwrap();
        let source = CachedReports {
            folder: folder.clone(),
            input_hash: hash,
            run: fails,
            names: Vec::new,
        };
        assert_eq!(source.report("known").unwrap(), Some(report));
        assert_eq!(source.report("unknown").unwrap(), None);
        std::fs::remove_dir_all(folder).unwrap();
    }

    #[test]
    fn a_cached_file_that_does_not_parse_is_run_again() {
        // Proves a stale or cut-short cache file is neither trusted nor an error: the scenario
        // runs, and its report replaces the file.
        let folder = scratch_folder("stale");
        let path = folder.join("known-abc.json");
        std::fs::write(&path, r#"{"scenario": "known", "verdict": "PASS"}"#).unwrap();
        let source = CachedReports {
            folder: folder.clone(),
            input_hash: hash,
            run: runs,
            names: Vec::new,
        };
        let report = source.report("known").unwrap().expect("a known scenario");
        assert_eq!(report.claim, "ran");
        assert_eq!(read_cached(&path), Some(report));
        std::fs::remove_dir_all(folder).unwrap();
    }
}

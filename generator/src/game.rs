//! The book's links to the game and the simulator: the level catalog from paros-play and the
//! scenario reports from paros-sim, cached by input hash under `target/book-reports/`.
//!
//! Both are linked into paros-book, so `serve` picks up a change to them only when restarted;
//! it says so when it sees one.

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::levels::{Level, LevelCatalog};
use crate::reports::{Report, ReportSource};

/// The game's level catalog.
pub fn catalog() -> LevelCatalog {
    let levels = paros_play::catalog()
        .into_iter()
        .map(|level| Level {
            id: level.id.to_string(),
            act: level.act,
            title: level.title.to_string(),
            by_hand: level.by_hand.to_string(),
            teaches: level.teaches.to_string(),
            chapter: level.chapter.to_string(),
            scenario: level.scenario.to_string(),
            unlocks: level.unlocks.map(str::to_string),
        })
        .collect();
    LevelCatalog::new(levels)
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

/// Runs a scenario in its book mode and reads the report in the book's terms.
fn run_scenario(name: &str) -> anyhow::Result<Report> {
    let report = paros_sim::book::report_for(name).map_err(|error| anyhow::anyhow!("{error}"))?;
    let value = serde_json::to_value(&report).context("encoding the simulator's report")?;
    serde_json::from_value(value).context("reading the simulator's report")
}

/// Reports computed by a function and cached on disk by the scenario's input hash, so an
/// unchanged core and simulator never re-run a scenario.
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
        if let Ok(text) = std::fs::read_to_string(&path)
            && let Ok(report) = serde_json::from_str::<Report>(&text)
        {
            return Ok(Some(report));
        }
        eprintln!("paros-book: running scenario {scenario}");
        let report = (self.run)(scenario)?;
        std::fs::create_dir_all(&self.folder)
            .with_context(|| format!("creating {}", self.folder.display()))?;
        let json = serde_json::to_string_pretty(&report).context("encoding a report")?;
        std::fs::write(&path, json).with_context(|| format!("writing {}", path.display()))?;
        Ok(Some(report))
    }

    fn names(&self) -> Vec<String> {
        (self.names)()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hash(name: &str) -> Option<String> {
        (name == "known").then(|| "abc".to_string())
    }

    fn fails(_: &str) -> anyhow::Result<Report> {
        anyhow::bail!("must not run: the cache holds the report")
    }

    #[test]
    fn cached_reports_are_read_without_running() {
        // Proves an unchanged input hash reuses the stored report, and an unknown scenario is None.
        let folder =
            std::env::temp_dir().join(format!("paros-book-reports-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let report = Report {
            scenario: "known".into(),
            verdict: "PASS".into(),
            ..Report::default()
        };
        std::fs::write(
            folder.join("known-abc.json"),
            serde_json::to_string(&report).unwrap(),
        )
        .unwrap();
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
}

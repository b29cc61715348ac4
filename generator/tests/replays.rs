//! Every counterexample the book embeds replays: each `{{ proven "..." }}` of the real chapters
//! whose report has a counterexample (a negative control's) is replayed natively through paros-play's `Replay`, as the
//! build does, to the violation its report printed.
//!
//! Reports come from the book's own cache (`target/book-reports/`), so after a build this test
//! runs no scenario; on a fresh checkout it runs the embedded controls once.

use std::path::{Path, PathBuf};

use paros_book::directives;
use paros_sim::report::Verdict;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Every scenario a chapter embeds with `{{ proven }}`, once, in chapter order.
fn proven_scenarios(root: &Path) -> Vec<String> {
    let mut scenarios = Vec::new();
    for entry in walkdir::WalkDir::new(root.join("chapters")).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.path().extension().is_none_or(|ext| ext != "md") {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap();
        for line in text.lines() {
            if let Some(Ok(matched)) = directives::paragraph(line)
                && matched.keyword == "proven"
                && !scenarios.contains(&matched.arguments[0])
            {
                scenarios.push(matched.arguments[0].clone());
            }
        }
    }
    scenarios
}

#[test]
fn every_counterexample_the_book_embeds_replays_to_its_violation() {
    let root = repository();
    let reports = paros_book::game::reports(&root);
    let scenarios = proven_scenarios(&root);
    let mut replayed = Vec::new();
    // Only a negative control's report may hold a counterexample: any other VIOLATION fails
    // the build before its counterexample is shown.
    let controls = scenarios.iter().filter(|scenario| {
        let found = paros_sim::scenarios::find(scenario).expect("a known scenario");
        found.negative_control().is_some()
    });
    for scenario in controls {
        let report = reports
            .report(scenario)
            .unwrap_or_else(|error| panic!("{scenario}: {error}"))
            .unwrap_or_else(|| panic!("{scenario}: no such scenario"));
        assert_eq!(report.verdict, Verdict::Violation, "{scenario}");
        let module = directives::replay_counterexample(&report)
            .unwrap_or_else(|error| panic!("{scenario}: {error}"));
        assert!(
            module.is_some(),
            "{scenario}: a control shows a counterexample"
        );
        replayed.push(scenario.as_str());
    }
    eprintln!(
        "replayed {} counterexamples of {} embedded reports: {}",
        replayed.len(),
        scenarios.len(),
        replayed.join(", ")
    );
    assert!(
        replayed.contains(&"act1-amnesia-control") && replayed.len() >= 5,
        "the chapters embed the negative controls: {replayed:?}"
    );
}

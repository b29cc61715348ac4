//! A search reports how far it has got every 65,536 new states, with the counts it then had.

use paros_sim::explore::{Limits, Progress};
use paros_sim::report::Verdict;
use paros_sim::runner;
use paros_sim::scenarios;

#[test]
fn a_search_reports_its_progress_every_65536_states() {
    let duel = scenarios::find("act1-duel").unwrap();
    let limits = Limits {
        max_states: Some(200_000),
        ..Limits::default()
    };
    let mut heard: Vec<Progress> = Vec::new();
    let report =
        runner::explore_reporting(&duel, limits, &mut |progress| heard.push(progress)).unwrap();
    assert_eq!(report.verdict, Verdict::Incomplete);
    let states: Vec<u64> = heard.iter().map(|progress| progress.states).collect();
    assert_eq!(states, [65_536, 131_072, 196_608]);
    assert!(
        heard
            .windows(2)
            .all(|pair| pair[0].transitions < pair[1].transitions)
    );
    let last = heard.last().unwrap();
    assert!(last.transitions <= report.transitions);
    assert!(u64::from(last.depth) <= report.depth);
}

//! The `paros-sim` binary: exit codes per verdict, what failures print, reports and merging.

use paros_sim::report::{Report, Verdict};
use std::path::PathBuf;
use std::process::{Command, Output};

fn paros_sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_paros-sim"))
        .args(args)
        .output()
        .expect("paros-sim runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let folder = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli");
    std::fs::create_dir_all(&folder).unwrap();
    folder.join(name)
}

#[test]
fn list_prints_one_scenario_a_line_with_modes_and_claim() {
    let output = paros_sim(&["list"]);
    assert!(output.status.success());
    let text = stdout(&output);
    let duel = text
        .lines()
        .find(|line| line.starts_with("act1-duel "))
        .expect("the duel is listed");
    assert!(duel.contains("exhaustive,simulation") && duel.contains("never"));
    let swarms = paros_sim::swarm::Swarm::ALL;
    assert_eq!(
        text.lines().count(),
        paros_sim::scenarios::all().len() + swarms.len()
    );
    for swarm in swarms {
        let line = (text.lines())
            .find(|line| line.starts_with(&format!("{} ", swarm.name())))
            .expect("each swarm is listed");
        assert!(line.contains("simulation") && line.contains("Swarm: each seed draws"));
    }
}

#[test]
fn a_finished_search_passes_with_exit_0() {
    let output = paros_sim(&["explore", "act1-choose-a-value"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout(&output).contains("PASS: every one of the 17 reachable states"));
}

#[test]
fn a_bounded_search_is_incomplete_with_exit_2() {
    let output = paros_sim(&["explore", "act1-one-proposer", "--max-depth", "2"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stdout(&output).contains("INCOMPLETE (no violation found)"));
}

#[test]
fn a_violation_exits_1_with_named_actions_and_the_replay_command() {
    let report = scratch("amnesia-explore.json");
    let output = paros_sim(&[
        "explore",
        "act1-amnesia-control",
        "--report",
        report.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(
        text.contains("VIOLATION (expected: negative control)"),
        "{text}"
    );
    assert!(text.contains("amnesia A"), "{text}");
    assert!(text.contains("replay: paros-sim explore act1-amnesia-control"));
    let written = Report::from_json(&std::fs::read_to_string(report).unwrap()).unwrap();
    assert_eq!(written.verdict, Verdict::Violation);
    assert_eq!(written.counterexample.len(), 14);
}

#[test]
fn a_failing_walk_prints_its_seed_and_the_command_that_replays_it() {
    let output = paros_sim(&["run", "act1-amnesia-control", "--seeds", "300"]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    let seed_line = text
        .lines()
        .find(|line| line.starts_with("seed: "))
        .expect("the seed is printed");
    let seed = seed_line.trim_start_matches("seed: ");
    let replay = format!(
        "replay: paros-sim run act1-amnesia-control --seeds 1 --seed {seed} --max-steps 1000"
    );
    assert!(text.contains(&replay), "{text}");
    let again = paros_sim(&[
        "run",
        "act1-amnesia-control",
        "--seeds",
        "1",
        "--seed",
        seed,
    ]);
    assert_eq!(again.status.code(), Some(1));
    let counterexample = |text: &str| {
        text.lines()
            .skip_while(|line| !line.starts_with("counterexample"))
            .take_while(|line| !line.starts_with("seed: "))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(counterexample(&stdout(&again)), counterexample(&text));
}

#[test]
fn a_simulation_that_finds_nothing_exits_2_and_shards_merge() {
    let mut files = Vec::new();
    for shard in ["1/3", "2/3", "3/3"] {
        let file = scratch(&format!("duel-shard-{}.json", &shard[..1]));
        let output = paros_sim(&[
            "run",
            "act1-duel",
            "--seeds",
            "90",
            "--shard",
            shard,
            "--report",
            file.to_str().unwrap(),
        ]);
        assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
        files.push(file);
    }
    let merged_file = scratch("duel-merged.json");
    let mut args = vec!["merge"];
    args.extend(files.iter().map(|file| file.to_str().unwrap()));
    args.extend(["--report", merged_file.to_str().unwrap()]);
    let output = paros_sim(&args);
    assert_eq!(output.status.code(), Some(2));
    let merged = Report::from_json(&std::fs::read_to_string(&merged_file).unwrap()).unwrap();
    assert_eq!(merged.seeds, 90);
    assert_eq!(merged.seed_ranges.len(), 1);
    assert_eq!(
        (merged.seed_ranges[0].start, merged.seed_ranges[0].end),
        (0, 90)
    );
    let whole_file = scratch("duel-whole.json");
    paros_sim(&[
        "run",
        "act1-duel",
        "--seeds",
        "90",
        "--report",
        whole_file.to_str().unwrap(),
    ]);
    let whole = Report::from_json(&std::fs::read_to_string(&whole_file).unwrap()).unwrap();
    assert_eq!((merged.steps, merged.faults), (whole.steps, whole.faults));
}

#[test]
fn bad_input_is_an_error_with_exit_1_not_a_panic() {
    for args in [
        &["explore", "act1-no-such-thing"][..],
        &["run", "act1-duel", "--seeds", "10", "--shard", "4/3"],
        &["run", "act1-duel", "--seeds", "0"],
        &[
            "run",
            "act1-duel",
            "--seeds",
            "2",
            "--seed",
            "18446744073709551615",
        ],
    ] {
        let output = paros_sim(args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.starts_with("error: "), "{args:?}: {error}");
        assert!(!error.contains("panicked"), "{args:?}: {error}");
    }
    // A search over its memory limit stops with an error, never a verdict.
    let output = paros_sim(&["explore", "act1-adopt-the-value", "--max-memory-mb", "1"]);
    assert_eq!(output.status.code(), Some(1));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains("over its memory limit of 1 MiB"), "{error}");
    let not_a_report = scratch("not-a-report.json");
    std::fs::write(&not_a_report, "{}").unwrap();
    let output = paros_sim(&["merge", not_a_report.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("is not a paros-sim report"));
}

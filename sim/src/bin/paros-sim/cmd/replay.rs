//! `paros-sim replay WORLD [ACTION]...`: plays actions through the real World, from a level's
//! world (as "Copy as command" in the game gives it) or a scenario's, and prints each step,
//! the state at the end, the checkers' verdict and the fingerprint.

use paros_sim::replay::{self, Replayed};

/// Arguments of `replay`.
#[derive(clap::Args)]
pub struct Args {
    /// The world: a level's (`act2/the-permanent-gap`; `act1/adopt-the-value/2` for stage 2 of
    /// a level of several), after its prelude; or a scenario's, as its configuration builds it,
    /// before its prelude, where a report's counterexample begins.
    world: String,
    /// The actions, one argument each, as the world describes them or by route:
    /// `'deliver m5 N1->N2 Accept(1.N1, slot 1, a=1 (C1#1), commit 0)'`, `'deliver N1->N2
    /// Accept'`, `'tick N1'`.
    actions: Vec<String>,
}

/// Replays the actions: exit 0 when every one applies and no checker reports a violation,
/// 1 on a violation or an action that does not replay (the step and the world's refusal).
pub fn run(args: Args) -> anyhow::Result<u8> {
    let replayed = replay::replay(&args.world, &args.actions)?;
    print!("{}", render(&replayed));
    Ok(if replayed.violations.is_empty() { 0 } else { 1 })
}

/// What `replay` prints for a replay that went through.
pub fn render(replayed: &Replayed) -> String {
    let mut out = format!("{}: {} actions\n", replayed.world, replayed.steps.len());
    for (index, step) in replayed.steps.iter().enumerate() {
        out += &format!("  {:>3}. {step}\n", index + 1);
    }
    out += "state:\n";
    for line in &replayed.state {
        out += &format!("  {line}\n");
    }
    if replayed.violations.is_empty() {
        out += "checkers: no violation\n";
    } else {
        for violation in &replayed.violations {
            out += &format!("VIOLATION {violation}\n");
        }
    }
    out += &format!("fingerprint: {:016x}\n", replayed.fingerprint);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    #[test]
    fn each_argument_is_one_action() {
        let cli = Cli::try_parse_from([
            "replay",
            "act2/the-permanent-gap",
            "deliver m5 N1->N2 Accept(1.N1, slot 1, a=1 (C1#1), commit 0)",
            "tick N1",
        ])
        .unwrap();
        assert_eq!(cli.args.world, "act2/the-permanent-gap");
        assert_eq!(cli.args.actions.len(), 2);
        assert_eq!(cli.args.actions[1], "tick N1");
    }

    #[test]
    fn a_bad_action_names_the_step() {
        let cli = Cli::try_parse_from([
            "replay",
            "act1/the-duel",
            "deliver P2->A1 Prepare",
            "retry P9",
        ])
        .unwrap();
        let error = run(cli.args).unwrap_err().to_string();
        assert!(
            error.starts_with("step 2 (`retry P9`) does not replay on `act1/the-duel`"),
            "{error}"
        );
    }

    #[test]
    fn the_world_is_required() {
        assert!(Cli::try_parse_from(["replay"]).is_err());
    }

    #[test]
    fn the_printout_has_steps_state_checkers_and_fingerprint() {
        let replayed = replay::replay("act1/the-duel", &["deliver P2->A1 Prepare".into()]).unwrap();
        let text = render(&replayed);
        assert!(
            text.starts_with("act1/the-duel: 1 actions\n    1. deliver m"),
            "{text}"
        );
        assert!(text.contains("state:\n  chosen: nothing\n"), "{text}");
        assert!(text.contains("checkers: no violation\n"), "{text}");
        assert!(text.ends_with(&format!("fingerprint: {:016x}\n", replayed.fingerprint)));
    }
}

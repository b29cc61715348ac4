//! The errors of paros-sim: a run that cannot give an honest verdict stops with one of these.
//!
//! Limits are errors, not silent truncation (honest-verdicts): a seen set that cannot grow, an
//! enabled action the world refuses, a checker that gives up, or a replay that diverges ends
//! the run and says why.

/// Why a scenario could not be run to a verdict.
#[derive(Clone, Debug, thiserror::Error)]
pub enum Error {
    /// No scenario has this name.
    #[error("no scenario named {0:?} (`paros-sim list` prints them)")]
    UnknownScenario(String),
    /// The scenario does not run in the requested mode.
    #[error("scenario {scenario} does not run in {mode} mode")]
    UnsupportedMode {
        /// The scenario.
        scenario: String,
        /// The mode asked for.
        mode: &'static str,
    },
    /// A world refused an action it listed as enabled: a hole in the model.
    #[error("the world refused an action it had enabled, `{action}`: {why}")]
    Model {
        /// The action, described.
        action: String,
        /// The world's reason.
        why: String,
    },
    /// A seeded walk could not reach a verdict (and no other seed found a violation).
    #[error("seed {seed}: {error}")]
    Seed {
        /// The seed whose walk failed.
        seed: u64,
        /// Why.
        error: Box<Error>,
    },
    /// A checker could not decide within its limits: neither a pass nor a violation.
    #[error("{0}")]
    CheckGaveUp(crate::check::GaveUp),
    /// A scenario's prelude or a counterexample did not replay.
    #[error("replay diverged at action {index} (`{action}`): {why}")]
    Replay {
        /// The 0-based index of the action that failed.
        index: usize,
        /// The action as written.
        action: String,
        /// Why it failed.
        why: String,
    },
    /// The explorer's seen set could not grow: memory ran out.
    #[error("the seen set could not grow past {states} states: out of memory")]
    SeenSetFull {
        /// States held when it failed.
        states: usize,
    },
    /// The explorer's frontier could not grow: memory ran out.
    #[error("the frontier could not grow after {states} states: out of memory")]
    FrontierFull {
        /// States visited when it failed.
        states: usize,
    },
    /// The explorer went over its memory limit.
    #[error(
        "the search went over its memory limit of {} MiB after {states} states; bound it with --max-states or --max-depth (an INCOMPLETE verdict), or raise --max-memory-mb",
        limit_bytes >> 20
    )]
    MemoryLimit {
        /// The limit, in bytes.
        limit_bytes: u64,
        /// States visited when it was reached.
        states: usize,
    },
    /// Reports that cannot be merged.
    #[error("cannot merge reports: {0}")]
    Merge(String),
    /// Bad arguments to a run, such as an empty or overflowing seed range.
    #[error("bad run parameters: {0}")]
    BadParameters(String),
}

//! The scenarios: named worlds, the claim each checks, its budgets, and where the book cites it.
//!
//! A scenario is a world configuration plus a prelude: actions applied to the fresh world before
//! the search or the walks begin, so a scenario can start from "x is already chosen". Prelude
//! actions are written as a world's [`describe`](crate::model::Model::describe) prints them and
//! are checked against it, so a change to the world that alters a prelude fails loudly instead
//! of running another scenario.
//!
//! Budgets (drops, duplicates, retries per proposer) keep every Act I world finite, so the
//! explorer can finish it; they are the budgets left after the prelude.

use crate::Error;
use crate::faults::{Budget, Fault, NegativeControl};
use crate::report::Mode;
pub use crate::report::replay_command;
pub(crate) use crate::scenario::with_start;
pub use crate::scenario::{BookMode, Scenario, Setup, text};
use crate::single_decree::DecreeWorldConfig;
use paros_core::{NodeId, NodeSet};

#[path = "scenarios_act2.rs"]
mod act2;
#[path = "scenarios_act3.rs"]
mod act3;
#[path = "scenarios_act4.rs"]
mod act4;
#[cfg(feature = "accept-batch")]
#[path = "scenarios_batch.rs"]
mod batch;
#[path = "scenarios_ctrl.rs"]
mod ctrl;
#[path = "scenarios_matchmaker.rs"]
mod matchmaker;

/// The chapter on Phase 1, Phase 2 and the duel.
pub const CHAPTER_CHOOSING: &str = "How Paxos chooses one value";
/// The chapter on P2c, quorum intersection and recovery.
pub const CHAPTER_SAFETY: &str = "Why one value is safe";

const BOTH_MODES: &[Mode] = &[Mode::Exhaustive, Mode::Simulation];

/// A prelude: P1 gets x chosen at 1.P1 by A1 and A2 (nobody has learned it yet), then P2 starts.
const X_CHOSEN_THEN_P2: &[&str] = &[
    "deliver m1 P1->A1 Prepare(1.P1)",
    "deliver m2 P1->A2 Prepare(1.P1)",
    "deliver m4 A1->P1 Promise(1.P1)",
    "deliver m5 A2->P1 Promise(1.P1)",
    "deliver m6 P1->A1 Accept(1.P1, x)",
    "deliver m7 P1->A2 Accept(1.P1, x)",
    "start P2",
];

/// Every scenario, in the order `paros-sim list` prints them.
pub fn all() -> Vec<Scenario> {
    act1_scenarios()
        .into_iter()
        .chain(log_scenarios())
        .chain(matchmaker_scenarios())
        .collect()
}

/// Act I's scenarios, of the single-decree world.
pub fn act1_scenarios() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "act1-choose-a-value",
            claim: text(
                "One proposer gets its value chosen with two of three acceptors; the silent third never matters.",
            ),
            world: text("A1-A3 and P1 (x); A3 is silent; no faults, no retries."),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &["act1/choose-a-value"],
            chapter: Some(CHAPTER_CHOOSING),
            setup: act1(&["x"], silent_a3(), budget(0, 0, 0), vec![]),
        },
        Scenario {
            name: "act1-one-proposer",
            claim: text(
                "A lone proposer only ever gets its own value chosen, whatever the network drops or duplicates.",
            ),
            world: text("A1-A3 and P1 (x); 1 drop, 1 duplicate, no retries."),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_CHOOSING),
            setup: act1(&["x"], NodeSet::EMPTY, budget(1, 1, 0), vec![]),
        },
        Scenario {
            name: "act1-duel",
            claim: text(
                "Two dueling proposers never get two values chosen; a duel may end undecided (liveness), never unsafe.",
            ),
            world: text(
                "A1-A3, P1 (x) and P2 (y) both started; 1 drop, 1 duplicate, 2 retries per proposer. Too large to finish exhaustively (more than 60 million states); the book samples it.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Simulation {
                seeds: 10_000,
                max_steps: 1000,
            },
            levels: &["act1/be-the-acceptor", "act1/the-duel"],
            chapter: Some(CHAPTER_CHOOSING),
            setup: act1(&["x", "y"], NodeSet::EMPTY, budget(1, 1, 2), vec![]),
        },
        Scenario {
            name: "act1-duel-silent-acceptor",
            claim: text(
                "With one acceptor silent, every quorum is {A1, A2}: two proposers stay safe, and one lost message can stall them for good.",
            ),
            world: text(
                "A1-A3 with A3 silent, P1 (x) and P2 (y) both started; 1 drop, 1 duplicate, no retries.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_CHOOSING),
            setup: act1(&["x", "y"], silent_a3(), budget(1, 1, 0), vec![]),
        },
        Scenario {
            name: "act1-adopt-the-value",
            claim: text(
                "Once A1 has voted for x, a second proposer that hears of the vote adopts x (P2c), so at most one value is chosen.",
            ),
            world: text(
                "A1-A3, P1 (x), P2 (y). Prelude: P1 completes Phase 1 with A1 and A2 and its Accept reaches A1 only; then P2 starts. Then no faults and no retries: every schedule of the messages in flight.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &["act1/adopt-the-value"],
            chapter: Some(CHAPTER_SAFETY),
            setup: act1_with_p2_idle(
                budget(0, 0, 0),
                vec![
                    "deliver m1 P1->A1 Prepare(1.P1)",
                    "deliver m2 P1->A2 Prepare(1.P1)",
                    "deliver m4 A1->P1 Promise(1.P1)",
                    "deliver m5 A2->P1 Promise(1.P1)",
                    "deliver m6 P1->A1 Accept(1.P1, x)",
                    "start P2",
                ],
            ),
        },
        Scenario {
            name: "act1-quorum-intersection",
            claim: text(
                "After x is chosen by {A1, A2}, every Phase-1 quorum of P2 meets it, so x is the only value ever chosen.",
            ),
            world: text(
                "A1-A3, P1 (x), P2 (y). Prelude: x is chosen at 1.P1 by A1 and A2; then P2 starts. Then no faults and no retries: every schedule of the messages in flight.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &["act1/quorum-intersection"],
            chapter: Some(CHAPTER_SAFETY),
            setup: act1_with_p2_idle(budget(0, 0, 0), X_CHOSEN_THEN_P2.to_vec()),
        },
        Scenario {
            name: "act1-recovery",
            claim: text(
                "When P1's Accept reached only A1, nothing is chosen yet; P2 may adopt x or choose y, and exactly one value is ever chosen.",
            ),
            world: text(
                "A1-A3, P1 (x), P2 (y). Prelude: P1's Accept reaches A1, its Accepts to A2 and A3 are dropped, P1 stops; P2 starts. Then 1 drop, no duplicates, no retries.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &["act1/recovery-is-not-catch-up"],
            chapter: Some(CHAPTER_SAFETY),
            setup: act1_with_p2_idle(
                // Two more drops than the search may use: the prelude spends them.
                budget(3, 0, 0),
                vec![
                    "deliver m1 P1->A1 Prepare(1.P1)",
                    "deliver m2 P1->A2 Prepare(1.P1)",
                    "deliver m4 A1->P1 Promise(1.P1)",
                    "deliver m5 A2->P1 Promise(1.P1)",
                    "deliver m6 P1->A1 Accept(1.P1, x)",
                    "drop m7 P1->A2 Accept(1.P1, x)",
                    "drop m8 P1->A3 Accept(1.P1, x)",
                    "start P2",
                ],
            ),
        },
        Scenario {
            name: "act1-amnesia-control",
            claim: text(
                "Negative control: an acceptor that forgets its promise and vote lets two values be chosen; the agreement checker must catch it.",
            ),
            world: text(
                "A1-A3, P1 (x), P2 (y). Prelude: x is chosen at 1.P1 by A1 and A2; then P2 starts. Then 1 amnesia fault (an acceptor forgets everything), no other faults, no retries.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_SAFETY),
            setup: {
                let mut config = DecreeWorldConfig::act1(&["x", "y"]);
                config.proposers[1].started = false;
                config.budget = Budget::NONE.with(Fault::Amnesia, 1);
                config.negative_control = Some(NegativeControl::Amnesia);
                Setup::Act1 {
                    config,
                    prelude: X_CHOSEN_THEN_P2.to_vec(),
                }
            },
        },
        Scenario {
            name: "act1-rogue-value-control",
            claim: text(
                "Negative control: a proposer that sends a value nobody proposed gets it chosen; the validity checker must catch it.",
            ),
            world: text(
                "A1-A3 and P1, whose own value is x but which proposes rogue, a value nobody proposed; no faults, no retries.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_CHOOSING),
            setup: act1_control(NegativeControl::RogueValue),
        },
        Scenario {
            name: "act1-learn-early-control",
            claim: text(
                "Negative control: a proposer that counts one acceptor as a quorum learns a value no quorum voted for; the learned-is-chosen checker must catch it.",
            ),
            world: text(
                "A1-A3 and P1 (x), which counts A1 alone as a quorum: it asks only A1 and learns x from its one Accepted; no faults, no retries.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_CHOOSING),
            setup: act1_control(NegativeControl::LearnEarly),
        },
    ]
}

/// The scenarios of the replicated log: Acts II to IV.
pub fn log_scenarios() -> Vec<Scenario> {
    let scenarios = (act2::all().into_iter())
        .chain(act3::all())
        .chain(act4::all())
        .chain(ctrl::all());
    // The batched twins: only in a build with batched Accepts, which the game's is not.
    #[cfg(feature = "accept-batch")]
    let scenarios = scenarios.chain(batch::all());
    scenarios.collect()
}

/// The negative controls of the replicated log that [`log_controls`] leaves out: no chapter
/// embeds them, so no page replays them, and the game's log module has no room for them
/// (`widgets/API.md`).
pub const NOT_REPLAYED: &[&str] = &[
    "act2-learn-early-control",
    "act2-learning-leaves-the-promise-control",
    "act3-learns-below-the-floor-control",
];

/// The negative controls of the replicated log, in the order of [`log_scenarios`]: the only
/// log scenarios whose reports carry a counterexample, so the only ones a replay can show. Each
/// is built by itself, so a caller that needs only these (the game's replay) links none of the
/// other scenarios.
/// The controls in [`NOT_REPLAYED`] are left out.
pub fn log_controls() -> Vec<Scenario> {
    let controls = (act2::controls().into_iter())
        .chain(act3::controls())
        .chain(act4::controls())
        .chain(ctrl::controls());
    #[cfg(feature = "accept-batch")]
    let controls = controls.chain(batch::controls());
    controls.collect()
}

/// The scenarios of Matchmaker Paxos (Act IV), all named `act4-matchmaker...`.
pub fn matchmaker_scenarios() -> Vec<Scenario> {
    matchmaker::all()
}

/// The scenario with this name.
pub fn find(name: &str) -> Result<Scenario, Error> {
    all()
        .into_iter()
        .find(|scenario| scenario.name == name)
        .ok_or_else(|| Error::UnknownScenario(name.to_owned()))
}

/// The scenario a game level shows, e.g. `act1/the-duel` -> `act1-duel`.
pub fn for_level(level: &str) -> Option<Scenario> {
    all()
        .into_iter()
        .find(|scenario| scenario.levels.contains(&level))
}

/// A hash of everything a scenario's report depends on: the sources of paros-core and
/// paros-sim (hashed at build time by `build.rs`, every file under `core/src` and `sim/src`) and
/// the scenario's parameters (its setup, budgets, modes and book mode). `None` for an unknown
/// name. 16 hex digits, FNV-1a: a cache key, not a security measure.
pub fn input_hash(name: &str) -> Option<String> {
    let scenario = find(name).ok()?;
    let parameters = format!(
        "{:?}|{:?}|{:?}|{}",
        scenario.setup, scenario.modes, scenario.book_mode, scenario.claim
    );
    let sources = env!("PAROS_SOURCES_HASH");
    let hash = fnv1a(fnv1a(FNV_OFFSET, sources.as_bytes()), parameters.as_bytes());
    Some(format!("{hash:016x}"))
}

fn budget(drops: u32, duplicates: u32, retries_per_proposer: u32) -> Budget {
    Budget::NONE
        .with(Fault::Drop, drops)
        .with(Fault::Duplicate, duplicates)
        .with(Fault::Retry, retries_per_proposer)
}

fn silent_a3() -> NodeSet {
    [NodeId::new(3).expect("3 is a node id")]
        .into_iter()
        .collect()
}

fn act1(values: &[&str], silent: NodeSet, budget: Budget, prelude: Vec<&'static str>) -> Setup {
    let mut config = DecreeWorldConfig::act1(values);
    config.silent = silent;
    config.budget = budget;
    Setup::Act1 { config, prelude }
}

/// A1-A3 and P1 (x), with no faults, corrupted by `control`.
fn act1_control(control: NegativeControl) -> Setup {
    let mut config = DecreeWorldConfig::act1(&["x"]);
    config.negative_control = Some(control);
    Setup::Act1 {
        config,
        prelude: Vec::new(),
    }
}

/// P1 (x) started and P2 (y) idle, so a prelude can run P1 before P2 begins.
fn act1_with_p2_idle(budget: Budget, prelude: Vec<&'static str>) -> Setup {
    let mut config = DecreeWorldConfig::act1(&["x", "y"]);
    config.budget = budget;
    config.proposers[1].started = false;
    Setup::Act1 { config, prelude }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

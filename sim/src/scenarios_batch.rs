//! Batched twins of Act II's key scenarios: the same worlds, claims and budgets, with leaders
//! sending up to [`BATCH`] consecutive slots in one AcceptRun
//! ([`LogWorldConfig::accept_batch`]). Batching changes how Phase 2 travels, never what may be
//! chosen, so each twin must give the verdict of its original: the safe worlds find nothing,
//! and each negative control is still caught by its own checker.
//!
//! A run carries more than one slot wherever a leader proposes several slots in one step: its
//! recovery duty after an election, and the resends of its beat; a run of one is a plain
//! Accept, so the originals' preludes read the same in their twins. `act2-runs-batched` is the
//! world the explorer finishes in which runs of two slots are sent, voted and counted.

use super::act2::{BOTH_MODES, N1_LEADS, node, writes};
use super::{BookMode, Scenario, Setup, act2, text};
use crate::faults::{Budget, Fault};
use crate::replicated_log::LogWorldConfig;

/// The most slots a twin's leaders send in one AcceptRun.
pub const BATCH: usize = 4;

/// The twin `name` of the Act II scenario `original`, batched, with its own `world` sentence.
///
/// # Panics
/// If `original` is not an Act II scenario of the replicated log: a programming error.
fn twin(name: &'static str, original: &str, world: &'static str) -> Scenario {
    twin_of(act2::all(), name, original, world)
}

/// The batched twin `name` of the Act II negative control `original`, built from the controls
/// alone, so the game's replay table links no other scenario.
///
/// # Panics
/// If `original` is not an Act II control of the replicated log: a programming error.
fn control_twin(name: &'static str, original: &str, world: &'static str) -> Scenario {
    twin_of(act2::all(), name, original, world)
}

/// The batched twin `name` of `original`, one of `scenarios`.
fn twin_of(
    scenarios: Vec<Scenario>,
    name: &'static str,
    original: &str,
    world: &'static str,
) -> Scenario {
    let of = (scenarios.into_iter())
        .find(|scenario| scenario.name == original)
        .unwrap_or_else(|| panic!("{original} is an Act II scenario"));
    let Setup::Log { config, prelude } = of.setup else {
        panic!("{original} is a replicated-log scenario")
    };
    let config = LogWorldConfig {
        accept_batch: BATCH,
        ..config
    };
    Scenario {
        name,
        world: text(world),
        levels: &[],
        chapter: None,
        setup: Setup::Log { config, prelude },
        ..of
    }
}

/// After [`N1_LEADS`]: N3 promises too, and its Promise reaches N1, the leader already.
const ALL_PROMISED: &[&str] = &[
    "deliver m2 N1->N3 Prepare(1.N1, from slot 1)",
    "deliver m4 N3->N1 Promise(1.N1, [])",
];

/// N1-N3 and C1 writing x=1, x=2 at N1, batched, with a second tick after the prelude's
/// election by all three ([`N1_LEADS`], [`ALL_PROMISED`]): N1's beat resends both unchosen slots in one run, or another node's
/// recovery proposes both in one.
fn runs() -> LogWorldConfig {
    let mut config = LogWorldConfig::three_nodes(writes("x", 2));
    config.budget = Budget::NONE.with(Fault::Tick, 2);
    config.election_timeout_ticks = 1;
    config.client_targets = vec![Some(node(1))];
    config.accept_batch = BATCH;
    config
}

/// The batched twins and the runs world, in the order `paros-sim list` prints them.
pub fn all() -> Vec<Scenario> {
    let mut all = worlds();
    all.extend(controls());
    all
}

/// The runs world and the batched twins of Act II's worlds that are no negative control.
fn worlds() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "act2-runs-batched",
            claim: text(
                "Every schedule of a two-write log whose leaders send both slots in one run, by a beat's resends or a new leader's recovery, keeps every decision, applies in order, and answers linearizably.",
            ),
            world: text(
                "N1-N3, N1 elected at 1.N1 (prelude), N3's Promise delivered too; C1 writes x=1, x=2 at N1; leaders send up to 4 consecutive slots in one AcceptRun; election timeout 1 tick; 1 more tick, no faults.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: None,
            setup: Setup::Log {
                config: runs(),
                prelude: [N1_LEADS, ALL_PROMISED].concat(),
            },
        },
        twin(
            "act2-exhaustive-batched",
            "act2-exhaustive",
            "The world of act2-exhaustive, with leaders sending up to 4 consecutive slots in one AcceptRun.",
        ),
        twin(
            "act2-persist-before-send-batched",
            "act2-persist-before-send",
            "The world of act2-persist-before-send, with leaders sending up to 4 consecutive slots in one AcceptRun.",
        ),
        twin(
            "act2-what-survives-a-crash-batched",
            "act2-what-survives-a-crash",
            "The world of act2-what-survives-a-crash, with leaders sending up to 4 consecutive slots in one AcceptRun.",
        ),
        twin(
            "act2-long-batched",
            "act2-long",
            "The world of act2-long, with leaders sending up to 4 consecutive slots in one AcceptRun.",
        ),
    ]
}

/// The batched twins of Act II's negative controls, each still caught by its own checker.
pub fn controls() -> Vec<Scenario> {
    vec![
        control_twin(
            "act2-send-before-persist-batched-control",
            "act2-send-before-persist-control",
            "The world of act2-send-before-persist-control, with leaders sending up to 4 consecutive slots in one AcceptRun.",
        ),
        control_twin(
            "act2-blank-restart-batched-control",
            "act2-blank-restart-control",
            "The world of act2-blank-restart-control, with leaders sending up to 4 consecutive slots in one AcceptRun.",
        ),
        control_twin(
            "act2-local-read-batched-control",
            "act2-local-read-control",
            "The world of act2-local-read-control, with leaders sending up to 4 consecutive slots in one AcceptRun.",
        ),
        control_twin(
            "act2-early-ack-batched-control",
            "act2-early-ack-control",
            "The world of act2-early-ack-control, with leaders sending up to 4 consecutive slots in one AcceptRun.",
        ),
        control_twin(
            "act2-learn-early-batched-control",
            "act2-learn-early-control",
            "The world of act2-learn-early-control, with leaders sending up to 4 consecutive slots in one AcceptRun.",
        ),
    ]
}

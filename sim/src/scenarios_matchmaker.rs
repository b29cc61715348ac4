//! Act IV's Matchmaker Paxos scenarios (Whittaker et al., "Matchmaker Paxos: A Reconfigurable
//! Consensus Protocol", JSys 2021): two configurations and a spare acceptor, garbage
//! collection, a replacement of the matchmakers, a seeded run with faults, late garbage
//! collection, overlapping sets and late Bootstraps, and the six negative controls, each caught
//! by its own rule's property.

use super::act4::CHAPTER_MATCHMAKER;
use super::{BookMode, Scenario, Setup, text};
use crate::faults::{Budget, Fault, NegativeControl};
use crate::matchmaker::{LeaderPlan, MatchmakerWorldConfig};
use crate::report::Mode;
use paros_core::Value;

const BOTH_MODES: &[Mode] = &[Mode::Exhaustive, Mode::Simulation];
const SIMULATION: &[Mode] = &[Mode::Simulation];

/// A prelude: L1 gets x chosen in round 1 by {A1, A2}: it matches with M1 and M2 and its
/// Accepts reach A1 and A2. Nobody has heard of the votes yet.
const X_CHOSEN_IN_ROUND_1: &[&str] = &[
    "start L1",
    "deliver m1 L1->M1 MatchA(1.L1, {A1, A2, A3})",
    "deliver m2 L1->M2 MatchA(1.L1, {A1, A2, A3})",
    "deliver m4 M1->L1 MatchB(1.L1, [])",
    "deliver m5 M2->L1 MatchB(1.L1, [])",
    "deliver m6 L1->A1 Accept(1.L1, x)",
    "deliver m7 L1->A2 Accept(1.L1, x)",
];

/// [`X_CHOSEN_IN_ROUND_1`], then every message of round 1 delivered: x is chosen by {A1, A2,
/// A3}, L1 knows it, and nothing is in flight.
const ROUND_1_DONE: &[&str] = &[
    "start L1",
    "deliver m1 L1->M1 MatchA(1.L1, {A1, A2, A3})",
    "deliver m2 L1->M2 MatchA(1.L1, {A1, A2, A3})",
    "deliver m4 M1->L1 MatchB(1.L1, [])",
    "deliver m5 M2->L1 MatchB(1.L1, [])",
    "deliver m6 L1->A1 Accept(1.L1, x)",
    "deliver m7 L1->A2 Accept(1.L1, x)",
    "deliver m3 L1->M3 MatchA(1.L1, {A1, A2, A3})",
    "deliver m8 L1->A3 Accept(1.L1, x)",
    "deliver m9 A1->L1 Accepted(1.L1, x)",
    "deliver m10 A2->L1 Accepted(1.L1, x)",
    "deliver m11 M3->L1 MatchB(1.L1, [])",
    "deliver m12 A3->L1 Accepted(1.L1, x)",
];

/// After [`ROUND_1_DONE`]: R1 starts replacing M1..M3, and M1 and M2 stop and report; R1 has
/// reconstructed their state and its Bootstraps to M4..M6 are in flight. The Stop to M3 is
/// still in flight.
const OLD_GENERATION_STOPPED: &[&str] = &[
    "replace R1",
    "deliver m13 R1->M1 Stop",
    "deliver m14 R1->M2 Stop",
    "deliver m16 M1->R1 StopB([1.L1 {A1, A2, A3}])",
    "deliver m17 M2->R1 StopB([1.L1 {A1, A2, A3}])",
];

/// After [`ROUND_1_DONE`]: R1 stops M1..M3, a second copy of its Bootstrap to M4 is put in
/// flight, and M4..M6 are bootstrapped and published. The copy is still in flight.
const PUBLISHED_WITH_A_SECOND_BOOTSTRAP: &[&str] = &[
    "replace R1",
    "deliver m13 R1->M1 Stop",
    "deliver m14 R1->M2 Stop",
    "deliver m15 R1->M3 Stop",
    "deliver m16 M1->R1 StopB([1.L1 {A1, A2, A3}])",
    "deliver m17 M2->R1 StopB([1.L1 {A1, A2, A3}])",
    "duplicate m19 R1->M4 Bootstrap([1.L1 {A1, A2, A3}])",
    "deliver m19 R1->M4 Bootstrap([1.L1 {A1, A2, A3}])",
    "deliver m20 R1->M5 Bootstrap([1.L1 {A1, A2, A3}])",
    "deliver m21 R1->M6 Bootstrap([1.L1 {A1, A2, A3}])",
    "deliver m23 M4->R1 BootstrapB",
    "deliver m24 M5->R1 BootstrapB",
    "deliver m25 M6->R1 BootstrapB",
    "deliver m18 M3->R1 StopB([1.L1 {A1, A2, A3}])",
    "deliver m26 R1->M1 SuccessorPrepare(1.R1)",
    "deliver m27 R1->M2 SuccessorPrepare(1.R1)",
    "deliver m28 R1->M3 SuccessorPrepare(1.R1)",
    "deliver m29 M1->R1 SuccessorPromise(1.R1)",
    "deliver m30 M2->R1 SuccessorPromise(1.R1)",
    "deliver m31 M3->R1 SuccessorPromise(1.R1)",
    "deliver m32 R1->M1 SuccessorAccept(1.R1, {M4, M5, M6})",
    "deliver m33 R1->M2 SuccessorAccept(1.R1, {M4, M5, M6})",
    "deliver m34 R1->M3 SuccessorAccept(1.R1, {M4, M5, M6})",
    "deliver m35 M1->R1 SuccessorAccepted(1.R1, {M4, M5, M6})",
    "deliver m36 M2->R1 SuccessorAccepted(1.R1, {M4, M5, M6})",
    "deliver m37 M3->R1 SuccessorAccepted(1.R1, {M4, M5, M6})",
];

/// [`X_CHOSEN_IN_ROUND_1`], then L2's round 2 is recorded by M1 and M2; their answers are in
/// flight.
const X_CHOSEN_ROUND_2_MATCHED: &[&str] = &[
    "start L1",
    "deliver m1 L1->M1 MatchA(1.L1, {A1, A2, A3})",
    "deliver m2 L1->M2 MatchA(1.L1, {A1, A2, A3})",
    "deliver m4 M1->L1 MatchB(1.L1, [])",
    "deliver m5 M2->L1 MatchB(1.L1, [])",
    "deliver m6 L1->A1 Accept(1.L1, x)",
    "deliver m7 L1->A2 Accept(1.L1, x)",
    "start L2",
    "deliver m11 L2->M1 MatchA(2.L2, {A2, A3, A4})",
    "deliver m12 L2->M2 MatchA(2.L2, {A2, A3, A4})",
];

fn plan(round: u32, acceptors: &[u8], value: &str) -> LeaderPlan {
    LeaderPlan {
        round,
        acceptors: acceptors.to_vec(),
        value: Value::new(value),
    }
}

/// The world, [`MatchmakerWorldConfig::two_configurations`], with these faults.
fn two_configurations(budget: Budget) -> MatchmakerWorldConfig {
    MatchmakerWorldConfig {
        budget,
        ..MatchmakerWorldConfig::two_configurations()
    }
}

/// Three configurations: L3 runs round 3 in {A1, A3, A4}, wanting z.
fn three_configurations() -> MatchmakerWorldConfig {
    let mut config = MatchmakerWorldConfig::two_configurations();
    config.leaders.push(plan(3, &[1, 3, 4], "z"));
    config
}

/// Round 1 in {A1, A2, A3} (x), then round 2 moves to {A3, A4, A5}: two of round 1's three
/// acceptors are removed, so once they retire, round 1's configuration has no Phase-1 quorum
/// left and must be collected everywhere it is stored. R1 replaces the matchmakers; garbage
/// collection on.
fn two_removed_with_replacement(kept_matchmakers: u8) -> MatchmakerWorldConfig {
    MatchmakerWorldConfig {
        acceptor_count: 5,
        leaders: vec![plan(1, &[1, 2, 3], "x"), plan(2, &[3, 4, 5], "y")],
        replacement: true,
        kept_matchmakers,
        ..MatchmakerWorldConfig::two_configurations()
    }
}

/// The two configurations, replaced matchmakers and garbage collection, with one duplicate
/// (spent by [`PUBLISHED_WITH_A_SECOND_BOOTSTRAP`]).
fn late_bootstrap() -> MatchmakerWorldConfig {
    MatchmakerWorldConfig {
        replacement: true,
        ..two_configurations(Budget::NONE.with(Fault::Duplicate, 1))
    }
}

/// A negative control played in the world of `act4-matchmaker-late-gc`, sampled by 2,000 seeds:
/// the rule `broken` names broken on the matchmakers.
fn late_gc_control(name: &'static str, claim: &'static str, broken: NegativeControl) -> Scenario {
    Scenario {
        name,
        claim: text(claim),
        world: text("As act4-matchmaker-late-gc, with the matchmakers breaking the rule."),
        modes: SIMULATION,
        book_mode: BookMode::Simulation {
            seeds: 2_000,
            max_steps: 1_000,
        },
        levels: &[],
        chapter: Some(CHAPTER_MATCHMAKER),
        setup: setup(
            control(two_removed_with_replacement(0), broken),
            ROUND_1_DONE,
        ),
    }
}

fn control(mut config: MatchmakerWorldConfig, control: NegativeControl) -> MatchmakerWorldConfig {
    config.negative_control = Some(control);
    config
}

fn setup(config: MatchmakerWorldConfig, prelude: &[&'static str]) -> Setup {
    Setup::Matchmaker {
        config,
        prelude: prelude.to_vec(),
    }
}

/// Every Matchmaker Paxos scenario.
pub(super) fn all() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "act4-matchmaker",
            claim: text(
                "Reconfiguring is a round change: after x is chosen in round 1, the leader of round 2 in another configuration finds x through round 1's, chooses it in its own, collects round 1's configuration and retires the removed acceptor, and at most one value is ever chosen, through a crash.",
            ),
            world: text(
                "Matchmakers M1-M3, acceptors A1-A4; L1 runs round 1 in {A1, A2, A3} (x), L2 round 2 in {A2, A3, A4} (y); garbage collection on. Prelude: x chosen in round 1 by {A1, A2, A3}, L1 knows it, nothing in flight. Then 1 crash (a matchmaker, which restarts from its disk, or a leader, which stays down); every schedule.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[
                "act4/matchmaking",
                "act4/reconfigure",
                "act4/garbage-collection",
            ],
            chapter: Some(CHAPTER_MATCHMAKER),
            setup: setup(
                two_configurations(Budget::NONE.with(Fault::Crash, 1)),
                ROUND_1_DONE,
            ),
        },
        Scenario {
            name: "act4-matchmaker-replacement",
            claim: text(
                "Replacing the matchmakers loses no round: round 1, recorded by the old generation, is in the state the new one starts from, round 2 matches with the new generation or is refused by the stopped old one, and at most one value is chosen.",
            ),
            world: text(
                "Matchmakers M1-M3 replaced by M4-M6 through R1, acceptors A1-A4; L1 runs round 1 in {A1, A2, A3} (x), L2 round 2 in {A2, A3, A4} (y); a leader matches with the generation published when it starts; no garbage collection, no faults. Prelude: x chosen in round 1 as in act4-matchmaker; R1 has stopped M1 and M2 and reconstructed their state, its Stop to M3 and its Bootstraps in flight. Then every schedule.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &["act4/matchmaker-generations"],
            chapter: Some(CHAPTER_MATCHMAKER),
            setup: setup(
                MatchmakerWorldConfig {
                    replacement: true,
                    garbage_collection: false,
                    ..two_configurations(Budget::NONE)
                },
                &[ROUND_1_DONE, OLD_GENERATION_STOPPED].concat(),
            ),
        },
        Scenario {
            name: "act4-matchmaker-faults",
            claim: text(
                "Three configurations, garbage collection and a replacement of the matchmakers stay safe through crashes, drops and duplicates.",
            ),
            world: text(
                "Matchmakers M1-M3 (replaced by M4-M6 through R1), acceptors A1-A4; L1 round 1 in {A1, A2, A3} (x), L2 round 2 in {A2, A3, A4} (y), L3 round 3 in {A1, A3, A4} (z); garbage collection on; 2 crashes, 3 drops, 2 duplicates.",
            ),
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 2_000,
                max_steps: 1_000,
            },
            levels: &[],
            chapter: Some(CHAPTER_MATCHMAKER),
            setup: setup(
                MatchmakerWorldConfig {
                    replacement: true,
                    budget: Budget::NONE
                        .with(Fault::Crash, 2)
                        .with(Fault::Drop, 3)
                        .with(Fault::Duplicate, 2),
                    ..three_configurations()
                },
                &[],
            ),
        },
        Scenario {
            name: "act4-matchmaker-late-gc",
            claim: text(
                "Once faults stop, a later leader completes Phase 1 and gets a value chosen, even when a leader's garbage collection reaches the old matchmakers after the replacement took their state: a stopped matchmaker refuses it, so no proof retires acceptors whose configuration the next generation still holds.",
            ),
            world: text(
                "Matchmakers M1-M3 replaced by M4-M6 through R1, acceptors A1-A5; L1 round 1 in {A1, A2, A3} (x), L2 round 2 in {A3, A4, A5} (y), which removes A1 and A2; garbage collection on. Prelude: x chosen in round 1, every message delivered. Then any schedule with no faults, and the fair schedule: a leader of round 3 in the acceptors not retired.",
            ),
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 2_000,
                max_steps: 1_000,
            },
            levels: &[],
            chapter: Some(CHAPTER_MATCHMAKER),
            setup: setup(two_removed_with_replacement(0), ROUND_1_DONE),
        },
        Scenario {
            name: "act4-matchmaker-overlapping-sets",
            claim: text(
                "Once faults stop, a later leader completes Phase 1 and gets a value chosen, even when the replacement asked for keeps two of the old matchmakers: paros-core refuses such a set, so no stopped matchmaker is published.",
            ),
            world: text(
                "As act4-matchmaker-late-gc, but R1 is asked to replace M1-M3 by {M2, M3, M4}. Prelude: x chosen in round 1, every message delivered. Then any schedule with no faults, and the fair schedule.",
            ),
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 2_000,
                max_steps: 1_000,
            },
            levels: &[],
            chapter: Some(CHAPTER_MATCHMAKER),
            setup: setup(two_removed_with_replacement(2), ROUND_1_DONE),
        },
        Scenario {
            name: "act4-matchmaker-back-to-first-generation",
            claim: text(
                "Once faults stop, a later leader completes Phase 1 and gets a value chosen, even when a second replacement asks for the first generation back: its matchmakers were stopped for ever by the first replacement, so paros-core refuses that set before stopping the current one.",
            ),
            world: text(
                "As act4-matchmaker-late-gc, and once M4-M6 are published R1 is asked to replace them by M1-M3. Prelude: x chosen in round 1, every message delivered. Then any schedule with no faults, and the fair schedule.",
            ),
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 2_000,
                max_steps: 1_000,
            },
            levels: &[],
            chapter: Some(CHAPTER_MATCHMAKER),
            setup: setup(
                MatchmakerWorldConfig {
                    back_to_first_generation: true,
                    ..two_removed_with_replacement(0)
                },
                ROUND_1_DONE,
            ),
        },
        Scenario {
            name: "act4-matchmaker-late-bootstrap",
            claim: text(
                "What a matchmaker collected stays collected: a Bootstrap that arrives after the next generation collected below round 2 stores nothing below its watermark.",
            ),
            world: text(
                "Matchmakers M1-M3 replaced by M4-M6 through R1, acceptors A1-A4; L1 round 1 in {A1, A2, A3} (x), L2 round 2 in {A2, A3, A4} (y); garbage collection on. Prelude: x chosen in round 1; R1 stops M1-M3, a second copy of its Bootstrap to M4 put in flight, and M4-M6 published. Then every schedule, no faults.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_MATCHMAKER),
            setup: setup(
                late_bootstrap(),
                &[ROUND_1_DONE, PUBLISHED_WITH_A_SECOND_BOOTSTRAP].concat(),
            ),
        },
        late_gc_control(
            "act4-matchmaker-stopped-collects-control",
            "Negative control: stopped matchmakers that still acknowledge garbage collection (M4 and M6 broken) let a leader retire A1 and A2 while the next generation still holds round 1's {A1, A2, A3}; once faults stop, the later leader waits in Phase 1 for ever, and the later-leader-completes checker must catch it.",
            NegativeControl::StoppedCollects,
        ),
        Scenario {
            name: "act4-matchmaker-bootstrap-below-watermark-control",
            claim: text(
                "Negative control: a matchmaker that stores every round a Bootstrap carries (M4 broken) takes round 1 back after it collected below round 2; the nothing-below-watermark checker must catch it.",
            ),
            world: text("As act4-matchmaker-late-bootstrap, with the matchmakers breaking M4."),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_MATCHMAKER),
            setup: setup(
                control(late_bootstrap(), NegativeControl::BootstrapBelowWatermark),
                &[ROUND_1_DONE, PUBLISHED_WITH_A_SECOND_BOOTSTRAP].concat(),
            ),
        },
        late_gc_control(
            "act4-matchmaker-bootstrap-keeps-its-watermark-control",
            "Negative control: new matchmakers that keep their own watermark when bootstrapped (M6 broken) hold a lower one than the generation they replace; the reconstruction-complete checker must catch it.",
            NegativeControl::BootstrapKeepsItsWatermark,
        ),
        Scenario {
            name: "act4-matchmaker-no-lower-round-check-control",
            claim: text(
                "Negative control: matchmakers that record a round below one they store (M1 dropped) give round 1 a history without round 2's configuration, though round 2 matched first; the history-complete checker must catch it.",
            ),
            world: text(
                "As act4-matchmaker, with the matchmakers breaking M1 and no faults; every schedule.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_MATCHMAKER),
            setup: setup(
                control(
                    two_configurations(Budget::NONE),
                    NegativeControl::NoLowerRoundCheck,
                ),
                &[],
            ),
        },
        Scenario {
            name: "act4-matchmaker-phase1-latest-only-control",
            claim: text(
                "Negative control: a leader that completes Phase 1 with a quorum of the newest configuration of its history alone (M3 dropped) misses x, chosen in round 1's configuration, and proposes z in round 3; the proposal-keeps-chosen checker must catch it.",
            ),
            world: text(
                "Acceptors A1-A4; L1 round 1 in {A1, A2, A3} (x), L2 round 2 in {A2, A3, A4} (y), L3 round 3 in {A2, A3, A4} (z), the leaders breaking M3; no garbage collection, no faults. Prelude: x chosen in round 1 by {A1, A2}; round 2 recorded by M1 and M2. Then every schedule.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_MATCHMAKER),
            setup: setup(
                control(
                    MatchmakerWorldConfig {
                        leaders: vec![
                            plan(1, &[1, 2, 3], "x"),
                            plan(2, &[2, 3, 4], "y"),
                            plan(3, &[2, 3, 4], "z"),
                        ],
                        garbage_collection: false,
                        ..MatchmakerWorldConfig::two_configurations()
                    },
                    NegativeControl::Phase1LatestOnly,
                ),
                X_CHOSEN_ROUND_2_MATCHED,
            ),
        },
        Scenario {
            name: "act4-matchmaker-gc-after-phase1-control",
            claim: text(
                "Negative control: a leader that asks for garbage collection as soon as its Phase 1 is done (M4 dropped) has round 1's configuration, which holds the votes for x, collected before anything is chosen in round 2; the gc-keeps-what-phase1-needs checker must catch it.",
            ),
            world: text(
                "As act4-matchmaker, with the leaders breaking M4 and no faults. Prelude: x chosen in round 1 by {A1, A2}. Then every schedule.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_MATCHMAKER),
            setup: setup(
                control(
                    two_configurations(Budget::NONE),
                    NegativeControl::GcAfterPhase1,
                ),
                X_CHOSEN_IN_ROUND_1,
            ),
        },
        Scenario {
            name: "act4-matchmaker-no-stop-control",
            claim: text(
                "Negative control: matchmakers that report their state when asked to stop but go on matching (M6 dropped) let a round match with the old generation after its state was taken for the new one; the reconstruction-complete checker must catch it.",
            ),
            world: text(
                "As act4-matchmaker-replacement, with the old matchmakers breaking M6; every schedule.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_MATCHMAKER),
            setup: setup(
                control(
                    MatchmakerWorldConfig {
                        replacement: true,
                        garbage_collection: false,
                        ..two_configurations(Budget::NONE)
                    },
                    NegativeControl::NoStop,
                ),
                &[],
            ),
        },
    ]
}

//! Act IV's scenarios: the replicated log over flexible quorums (Flexible Paxos, Howard, Malkhi
//! and Spiegelman, 2016), and the negative control whose phases miss each other; the
//! same-ballot handoff (H1–H4) and its two controls.

use super::{BookMode, Scenario, Setup};
use crate::faults::{Budget, Fault, NegativeControl};
use crate::replicated_log::{ClientOp, LogWorldConfig};
use crate::report::Mode;
use paros_core::{NodeId, NodeSet, Quorums};

/// The chapter on quorum systems beyond majorities.
pub const CHAPTER_BEYOND: &str = "Beyond Multi-Paxos";

const BOTH_MODES: &[Mode] = &[Mode::Exhaustive, Mode::Simulation];
const SIMULATION: &[Mode] = &[Mode::Simulation];

/// A prelude over q1 = 3, q2 = 2: N1 is elected at 1.N1 by {N1, N2, N3}, and C1's x=1 is chosen
/// in slot 1 by {N1, N2}; N3 and N4 hold no vote, N1's Prepare to N4 and its Accepts to N3 and
/// N4 are in flight, and N1 has not yet answered C1.
const X1_CHOSEN_BY_TWO: &[&str] = &[
    "tick N1",
    "deliver m1 N1->N2 Prepare(1.N1, from slot 1)",
    "deliver m2 N1->N3 Prepare(1.N1, from slot 1)",
    "deliver m4 N2->N1 Promise(1.N1, [])",
    "deliver m5 N3->N1 Promise(1.N1, [])",
    "request C1 N1 write x=1",
    "deliver m6 C1->N1 Write(#1, x=1)",
    "deliver m7 N1->N2 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "deliver m10 N2->N1 Accepted(1.N1, slot 1)",
];

/// A prelude over q1 = q2 = 2: N1 is elected at 1.N1 by {N1, N2}; its Prepares to N3 and N4
/// are in flight.
const N1_LEADS_BY_TWO: &[&str] = &[
    "tick N1",
    "deliver m1 N1->N2 Prepare(1.N1, from slot 1)",
    "deliver m4 N2->N1 Promise(1.N1, [])",
];

fn node(number: u8) -> NodeId {
    NodeId::new(number).expect("a node id")
}

fn four_nodes() -> NodeSet {
    (1..=4).map(node).collect()
}

/// Four nodes, these clients and this budget; an election timeout of 1 tick.
fn four(clients: Vec<Vec<ClientOp>>, budget: Budget) -> LogWorldConfig {
    let mut config = LogWorldConfig::three_nodes(Vec::new());
    config.node_count = 4;
    config.clients = clients;
    config.budget = budget;
    config.election_timeout_ticks = 1;
    config
}

/// Four nodes where any three elect and any two choose.
fn flexible(mut config: LogWorldConfig) -> LogWorldConfig {
    let quorums = Quorums::flexible(four_nodes(), 3, 2).expect("3 + 2 > 4");
    config.quorums = Some(quorums);
    config
}

fn setup(config: LogWorldConfig, prelude: &[&'static str]) -> Setup {
    Setup::Log {
        config,
        prelude: prelude.to_vec(),
    }
}

/// C1 writes x=1 at N1; after the prelude's tick, one more (a leader change), and a crash with
/// its restart. A drop too makes the space too large to finish (more than 8.6 million states
/// in 8 GB); [`faults_over_flexible_quorums`] samples drops.
fn leader_change() -> LogWorldConfig {
    let mut config = flexible(four(
        vec![vec![ClientOp::write("x", "1")]],
        Budget::NONE.with(Fault::Tick, 2).with(Fault::Crash, 1),
    ));
    config.client_targets = vec![Some(node(1))];
    config
}

/// C1 writes x=1..4 at any node, over q1 = 3, q2 = 2, through every kind of fault.
fn faults_over_flexible_quorums() -> LogWorldConfig {
    flexible(four(
        vec![writes("x", 4)],
        Budget::NONE
            .with(Fault::Tick, 40)
            .with(Fault::Crash, 2)
            .with(Fault::Drop, 3)
            .with(Fault::Duplicate, 2)
            .with(Fault::Partition, 1),
    ))
}

fn writes(key: &str, count: usize) -> Vec<ClientOp> {
    (1..=count)
        .map(|value| ClientOp::write(key, &value.to_string()))
        .collect()
}

/// The control: C1 writes x=1 at N1 and C2 writes x=2 at N3; two ticks, so two nodes may stand.
fn two_halves() -> LogWorldConfig {
    let mut config = four(
        vec![
            vec![ClientOp::write("x", "1")],
            vec![ClientOp::write("x", "2")],
        ],
        Budget::NONE.with(Fault::Tick, 2),
    );
    config.client_targets = vec![Some(node(1)), Some(node(3))];
    config.negative_control = Some(NegativeControl::NonIntersectingQuorums);
    config
}

/// A prelude over three nodes: N1 is elected at 1.N1 by {N1, N2}, and C1's x=1 is voted in slot
/// 1 by N1 and N2 (chosen by the votes), but N2's vote has not reached N1: the command is still
/// in flight at N1 when the search begins.
const N1_WITH_X1_IN_FLIGHT: &[&str] = &[
    "tick N1",
    "deliver m1 N1->N2 Prepare(1.N1, from slot 1)",
    "deliver m3 N2->N1 Promise(1.N1, [])",
    "request C1 N1 write x=1",
    "deliver m4 C1->N1 Write(#1, x=1)",
    "deliver m5 N1->N2 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
];

/// A prelude over three nodes: N1 is elected at 1.N1 by {N1, N3}, and C1's x=1 is chosen in
/// slot 1 by {N1, N3}, which N1 knows; N2 has heard nothing, so slot 1 is a hole at N2.
const X1_CHOSEN_BEHIND_N2: &[&str] = &[
    "tick N1",
    "deliver m2 N1->N3 Prepare(1.N1, from slot 1)",
    "deliver m3 N3->N1 Promise(1.N1, [])",
    "request C1 N1 write x=1",
    "deliver m4 C1->N1 Write(#1, x=1)",
    "deliver m6 N1->N3 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "deliver m7 N3->N1 Accepted(1.N1, slot 1)",
];

/// A prelude over three nodes: N1 is elected at 1.N1 by {N1, N2}.
const N1_LEADS_THREE: &[&str] = &[
    "tick N1",
    "deliver m1 N1->N2 Prepare(1.N1, from slot 1)",
    "deliver m3 N2->N1 Promise(1.N1, [])",
];

/// Three nodes, these clients, this budget and this many handoffs; an election timeout of 1
/// tick.
fn three_with_handoffs(
    clients: Vec<Vec<ClientOp>>,
    budget: Budget,
    handoffs: u32,
) -> LogWorldConfig {
    let mut config = LogWorldConfig::three_nodes(Vec::new());
    config.clients = clients;
    config.budget = budget;
    config.election_timeout_ticks = 1;
    config.handoffs = handoffs;
    config
}

/// C1 writes x=1 at N1 (in the prelude), then x=2 at any node; one handoff and a crash. One
/// duplicate or one drop more makes the space too large to finish (more than 3.4 million
/// states in 4 GB); [`handoff_faults`] samples them.
fn handoff() -> LogWorldConfig {
    three_with_handoffs(
        vec![writes("x", 2)],
        Budget::NONE.with(Fault::Tick, 1).with(Fault::Crash, 1),
        1,
    )
}

/// C1 writes x=1..4 at any node over three nodes, with two handoffs and every kind of fault.
fn handoff_faults() -> LogWorldConfig {
    three_with_handoffs(
        vec![writes("x", 4)],
        Budget::NONE
            .with(Fault::Tick, 40)
            .with(Fault::Crash, 2)
            .with(Fault::Drop, 3)
            .with(Fault::Duplicate, 2)
            .with(Fault::Partition, 1),
        2,
    )
}

/// The control where the successor fills holes: C1's x=1 is chosen behind N2 (the prelude);
/// one handoff and nothing else.
fn handoff_fills_gaps() -> LogWorldConfig {
    let mut config =
        three_with_handoffs(vec![writes("x", 1)], Budget::NONE.with(Fault::Tick, 1), 1);
    config.client_targets = vec![Some(node(1))];
    config.negative_control = Some(NegativeControl::HandoffFillsGaps);
    config
}

/// The control where a leader hands off twice: C1 writes x=1 at N2 and C2 writes x=2 at N3;
/// two handoffs and nothing else.
fn double_handoff() -> LogWorldConfig {
    let mut config = three_with_handoffs(
        vec![writes("x", 1), vec![ClientOp::write("x", "2")]],
        Budget::NONE.with(Fault::Tick, 1),
        2,
    );
    config.client_targets = vec![Some(node(2)), Some(node(3))];
    config.negative_control = Some(NegativeControl::DoubleHandoff);
    config
}

/// Every Act IV scenario, in the order `paros-sim list` prints them.
pub fn all() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "act4-flexible-quorums",
            claim: "Over four nodes where any three elect and any two choose, a write chosen by two survives a leader change: every Phase-1 quorum meets the two that chose it.",
            world: "N1-N4, q1 = 3, q2 = 2. Prelude: N1 elected by {N1, N2, N3}; C1's x=1 chosen in slot 1 by {N1, N2}. Then 1 tick (a leader change) and 1 crash (and its restart); every schedule.",
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &["act4/flexible-quorums"],
            chapter: Some(CHAPTER_BEYOND),
            setup: setup(leader_change(), X1_CHOSEN_BY_TWO),
        },
        Scenario {
            name: "act4-flexible-quorums-faults",
            claim: "Over four nodes where any three elect and any two choose, a client's writes stay safe through leader changes, crashes, drops, duplicates and a partition, and every run decides once faults stop.",
            world: "N1-N4, q1 = 3, q2 = 2; C1 writes x=1..4 at any node; 40 ticks, 2 crashes, 3 drops, 2 duplicates, 1 partition.",
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 2_000,
                max_steps: 1_000,
            },
            levels: &[],
            chapter: Some(CHAPTER_BEYOND),
            setup: setup(faults_over_flexible_quorums(), &[]),
        },
        Scenario {
            name: "act4-non-intersecting-quorums-control",
            claim: "Negative control: over four nodes where any two elect and any two choose, a second leader elected by two nodes that missed the first leader's two voters chooses another value in the same slot; the agreement checker must catch it.",
            world: "N1-N4, q1 = q2 = 2 (built by the world; paros-core refuses it); C1 writes x=1 at N1, C2 writes x=2 at N3. Prelude: N1 elected by {N1, N2}. Then 1 tick (another node stands); every schedule.",
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_BEYOND),
            setup: setup(two_halves(), N1_LEADS_BY_TWO),
        },
        Scenario {
            name: "act4-handoff",
            claim: "A leader with a command in flight hands its ballot to another node, which leads at the same ballot with no Phase 1: it finishes the command with the identical value and takes the next one, through a crash and its restart, and no (slot, ballot) ever carries two values.",
            world: "N1-N3; C1 writes x=1, then x=2 at any node. Prelude: N1 elected at 1.N1 by {N1, N2}; x=1 voted in slot 1 by N1 and N2, N2's vote not yet at N1. Then 1 handoff and 1 crash (and its restart); every schedule.",
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &["act4/the-handoff"],
            chapter: Some(CHAPTER_BEYOND),
            setup: setup(handoff(), N1_WITH_X1_IN_FLIGHT),
        },
        Scenario {
            name: "act4-handoff-faults",
            claim: "With leaders handing their ballots off and being deposed, a client's writes stay safe through crashes, drops, duplicates and a partition, no (slot, ballot) carries two values, and every run decides once faults stop.",
            world: "N1-N3; C1 writes x=1..4 at any node; 2 handoffs, 40 ticks, 2 crashes, 3 drops, 2 duplicates, 1 partition.",
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 2_000,
                max_steps: 1_000,
            },
            levels: &[],
            chapter: Some(CHAPTER_BEYOND),
            setup: setup(handoff_faults(), &[]),
        },
        Scenario {
            name: "act4-handoff-fills-gaps-control",
            claim: "Negative control: a successor that fills a hole below the handed-off next slot with a no-op sends a second value at a (slot, ballot) where x is already chosen; the one-value-per-ballot checker must catch it.",
            world: "N1-N3; C1 writes x=1 at N1. Prelude: N1 elected at 1.N1 by {N1, N3}; x=1 chosen in slot 1 by {N1, N3}; N2 heard nothing. Then 1 handoff and 1 tick; every schedule.",
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_BEYOND),
            setup: setup(handoff_fills_gaps(), X1_CHOSEN_BEHIND_N2),
        },
        Scenario {
            name: "act4-double-handoff-control",
            claim: "Negative control: a leader that keeps its ballot after handing it off hands it to a second node, and both successors propose their own command in the same slot at the same ballot; the one-value-per-ballot checker must catch it.",
            world: "N1-N3; C1 writes x=1 at N2, C2 writes x=2 at N3. Prelude: N1 elected at 1.N1 by {N1, N2}. Then 2 handoffs and 1 tick; every schedule.",
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_BEYOND),
            setup: setup(double_handoff(), N1_LEADS_THREE),
        },
    ]
}

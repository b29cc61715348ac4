//! Act IV's scenarios: the replicated log over flexible quorums (Flexible Paxos, Howard, Malkhi
//! and Spiegelman, 2016), and the negative control whose phases miss each other.

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
    ]
}

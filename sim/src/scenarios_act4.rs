//! Act IV's scenarios: the replicated log over flexible quorums (Flexible Paxos, Howard, Malkhi
//! and Spiegelman, 2016) and over grids (rows elect, each slot decides in its own column),
//! quorum reads at a follower (Charapko, Ailijiang and Demirbas, 2019), the same-ballot handoff
//! (H1–H4), and the negative controls: phases that miss each other, a grid that decides in a
//! row, a read from commit indexes, a read that skips the rinse, a successor that fills gaps, a
//! ballot handed off twice.

use super::{BookMode, Scenario, Setup, text};
use crate::faults::{Budget, Fault, NegativeControl};
use crate::replicated_log::{ClientOp, LogWorldConfig};
use crate::report::Mode;
use paros_core::{NodeId, NodeSet, Quorums};

/// The chapter on quorum systems beyond majorities.
pub const CHAPTER_BEYOND: &str = "Beyond Multi-Paxos";

/// The chapter on handing a leader's ballot to another node.
pub const CHAPTER_HANDOFF: &str = "The handoff";

/// The chapter on reconfiguration with Matchmaker Paxos.
pub const CHAPTER_MATCHMAKER: &str = "Reconfiguration with Matchmaker Paxos";

/// The chapter on storage faults and protocol-aware recovery.
pub const CHAPTER_DISKS: &str = "Disks that lie";

/// The chapter on proxy leaders.
pub const CHAPTER_PROXIES: &str = "Compartmentalized Paxos's proxy leaders";

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

/// A prelude over the 2x2 grid: N1 is elected at 1.N1 by its row {N1, N2}; C1's x=1 reaches
/// N1, which votes for it in slot 1 and sends its Accepts; none has arrived.
const N1_PROPOSES_X1: &[&str] = &[
    "tick N1",
    "deliver m1 N1->N2 Prepare(1.N1, from slot 1)",
    "deliver m4 N2->N1 Promise(1.N1, [])",
    "request C1 N1 write x=1",
    "deliver m5 C1->N1 Write(#1, x=1)",
];

/// [`N1_PROPOSES_X1`], then x=1 chosen in slot 1 by the column {N1, N3} and acknowledged to
/// C1; N3 does not know it is chosen, and the Accepts to N2 and N4 are in flight.
fn x1_chosen_by_a_column() -> Vec<&'static str> {
    let chosen = [
        "deliver m7 N1->N3 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
        "deliver m9 N3->N1 Accepted(1.N1, slot 1)",
        "deliver m10 N1->C1 Reply(#1, written)",
    ];
    [N1_PROPOSES_X1, &chosen].concat()
}

/// [`x1_chosen_by_a_column`], then N2 and N4 vote for x=1 too; no message is in flight, and
/// only N1 knows slot 1 is chosen.
fn x1_voted_by_all() -> Vec<&'static str> {
    let voted = [
        "deliver m6 N1->N2 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
        "deliver m8 N1->N4 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
        "deliver m11 N2->N1 Accepted(1.N1, slot 1)",
        "deliver m12 N4->N1 Accepted(1.N1, slot 1)",
    ];
    [x1_chosen_by_a_column().as_slice(), &voted].concat()
}

/// [`PROXY_X1_SENT`] with an election timeout of 2 ticks: N1 ticks twice to stand.
const PROXY_X1_SENT_SLOWLY: &[&str] = &[
    "tick N1",
    "tick N1",
    "deliver m1 N1->N2 Prepare(1.N1, from slot 1)",
    "deliver m3 N2->N1 Promise(1.N1, [])",
    "request C1 N1 write x=1",
    "deliver m4 C1->N1 Write(#1, x=1)",
];

/// A prelude over three nodes and two proxies: N1 is elected at 1.N1 by {N1, N2}; C1's x=1
/// reaches N1, which sends its Accept to P2.
const PROXY_X1_SENT: &[&str] = &[
    "tick N1",
    "deliver m1 N1->N2 Prepare(1.N1, from slot 1)",
    "deliver m3 N2->N1 Promise(1.N1, [])",
    "request C1 N1 write x=1",
    "deliver m4 C1->N1 Write(#1, x=1)",
];

/// Over three nodes and one proxy: N1 is elected at 1.N1 by {N1, N2}; C1's x=1 reaches N1,
/// which sends its Accept to P1; P1 forwards it, and the copies to N2 and N3 are lost.
const PROXY_FORWARDS_LOST: &[&str] = &[
    "tick N1",
    "tick N1",
    "deliver m1 N1->N2 Prepare(1.N1, from slot 1)",
    "deliver m3 N2->N1 Promise(1.N1, [])",
    "request C1 N1 write x=1",
    "deliver m4 C1->N1 Write(#1, x=1)",
    "deliver m5 N1->P1 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "drop m7 P1->N2 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "drop m8 P1->N3 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
];

/// [`PROXY_X1_SENT`], then P2 forwards it, N1 votes, and P2 counts N1's Accepted.
const PROXY_X1_COUNTED: &[&str] = &[
    "tick N1",
    "deliver m1 N1->N2 Prepare(1.N1, from slot 1)",
    "deliver m3 N2->N1 Promise(1.N1, [])",
    "request C1 N1 write x=1",
    "deliver m4 C1->N1 Write(#1, x=1)",
    "deliver m5 N1->P2 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "deliver m6 P2->N1 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "deliver m9 N1->P2 Accepted(1.N1, slot 1)",
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
    let quorums =
        Quorums::flexible(four_nodes(), 3, 2).unwrap_or_else(|error| panic!("3 + 2 > 4: {error}"));
    config.quorums = Some(quorums);
    config
}

/// N1..N(rows x columns) as a grid, row by row: N1 to N`columns` are the first row.
fn grid(rows: u8, columns: u8) -> Quorums {
    let rows: Vec<Vec<NodeId>> = (0..rows)
        .map(|row| (1..=columns).map(|c| node(row * columns + c)).collect())
        .collect();
    Quorums::grid(&rows).unwrap_or_else(|error| panic!("a full grid of distinct nodes: {error}"))
}

/// Four nodes as a 2x2 grid: rows {N1, N2} and {N3, N4}; slot 1 (and every odd slot) is
/// decided by the column {N1, N3}, slot 2 (and every even slot) by {N2, N4}.
fn two_by_two(mut config: LogWorldConfig) -> LogWorldConfig {
    config.quorums = Some(grid(2, 2));
    config
}

/// C1 writes x=1 then x=2 at N1, over the 2x2 grid: slot 1 decides in the column {N1, N3}
/// (in the prelude), slot 2 in {N2, N4}. After the prelude's tick, one crash (and its restart)
/// and one drop. One more tick makes the space too large to finish (more than 5.4 million
/// states in 4 GB); [`three_by_three`] samples leader changes over a grid.
fn two_slots_on_two_columns() -> LogWorldConfig {
    let mut config = two_by_two(four(
        vec![writes("x", 2)],
        Budget::NONE
            .with(Fault::Tick, 1)
            .with(Fault::Crash, 1)
            .with(Fault::Drop, 1),
    ));
    config.client_targets = vec![Some(node(1))];
    config
}

/// Nine nodes as a 3x3 grid; C1 writes x=1..4 and C2 y=1..3 at any node, through every kind
/// of fault.
fn three_by_three() -> LogWorldConfig {
    let mut config = four(
        vec![writes("x", 4), writes("y", 3)],
        Budget::NONE
            .with(Fault::Tick, 60)
            .with(Fault::Crash, 3)
            .with(Fault::Drop, 4)
            .with(Fault::Duplicate, 2)
            .with(Fault::Partition, 1),
    );
    config.node_count = 9;
    config.quorums = Some(grid(3, 3));
    config
}

/// Over the 2x2 grid: C1's x=1 is chosen and acknowledged in the prelude, and C2 reads x at
/// N4, a follower, whose row is {N3, N4}. After the prelude's tick, one more (a heartbeat that
/// teaches N4 what is chosen, or an election). A crash too makes the space too large to finish
/// (more than 4.3 million states in 4 GB); [`reads_through_faults`] samples crashes.
fn follower_read() -> LogWorldConfig {
    let mut config = two_by_two(four(
        vec![vec![ClientOp::write("x", "1")], vec![ClientOp::read("x")]],
        Budget::NONE.with(Fault::Tick, 2),
    ));
    config.client_targets = vec![Some(node(1)), Some(node(4))];
    config
}

/// Over the 2x2 grid: C1 writes x=1..3, C2 and C3 read x three times each, all at any node,
/// through every kind of fault.
fn reads_through_faults() -> LogWorldConfig {
    let reads = vec![ClientOp::read("x"); 3];
    two_by_two(four(
        vec![writes("x", 3), reads.clone(), reads],
        Budget::NONE
            .with(Fault::Tick, 40)
            .with(Fault::Crash, 2)
            .with(Fault::Drop, 3)
            .with(Fault::Duplicate, 2)
            .with(Fault::Partition, 1),
    ))
}

/// The grid control: C1 writes x=1 at N1 and C2 writes x=2 at N3; two ticks, so another node
/// may stand. The world builds a 2x2 grid where a full row decides too.
fn rows_decide() -> LogWorldConfig {
    let mut config = two_halves();
    config.negative_control = Some(NegativeControl::GridDecidesInRow);
    config
}

/// The read-commit-index control over the 2x2 grid: C1 writes x=1 at N1, C2 reads x at N4;
/// every node answers a read with its commit index. The prelude's tick, and no fault after it.
fn reads_commit_indexes() -> LogWorldConfig {
    let mut config = two_by_two(four(
        vec![vec![ClientOp::write("x", "1")], vec![ClientOp::read("x")]],
        Budget::NONE.with(Fault::Tick, 1),
    ));
    config.client_targets = vec![Some(node(1)), Some(node(4))];
    config.negative_control = Some(NegativeControl::ReadCommitIndex);
    config
}

/// The skip-rinse control over the 2x2 grid: C1 writes x=1 at N1, C2 reads x at N1 and C3 at
/// N4; every node answers a read with its vote at the watermark slot, decided or not. The
/// prelude's tick, and no fault after it.
fn skips_the_rinse() -> LogWorldConfig {
    let mut config = two_by_two(four(
        vec![
            vec![ClientOp::write("x", "1")],
            vec![ClientOp::read("x")],
            vec![ClientOp::read("x")],
        ],
        Budget::NONE.with(Fault::Tick, 1),
    ));
    config.client_targets = vec![Some(node(1)), Some(node(1)), Some(node(4))];
    config.negative_control = Some(NegativeControl::SkipRinse);
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

/// [`X1_CHOSEN_BEHIND_N2`], then C2's y=2 chosen in slot 2 by {N1, N3}, which N1 knows: N1's
/// chosen index is 2, nothing is in flight at it, and N2, still at 0, has heard nothing.
const TWO_CHOSEN_BEHIND_N2: &[&str] = &[
    "tick N1",
    "deliver m2 N1->N3 Prepare(1.N1, from slot 1)",
    "deliver m3 N3->N1 Promise(1.N1, [])",
    "request C1 N1 write x=1",
    "deliver m4 C1->N1 Write(#1, x=1)",
    "deliver m6 N1->N3 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "deliver m7 N3->N1 Accepted(1.N1, slot 1)",
    "tick N1",
    "deliver m10 N1->N3 Heartbeat(1.N1, commit 1)",
    "request C2 N1 write y=2",
    "deliver m12 C2->N1 Write(#1, y=2)",
    "deliver m14 N1->N3 Accept(1.N1, slot 2, y=2 (C2#1), commit 1)",
    "deliver m15 N3->N1 Accepted(1.N1, slot 2)",
];

/// C1 writes x=1 and C2 writes y=2, both at N1, with windows of one slot; one handoff, and the
/// tick the prelude spends: N1 may hand off to N2, two slots behind.
fn handoff_beyond_the_window() -> LogWorldConfig {
    let mut config = two_writes_at(
        1,
        [("x", "1"), ("y", "2")],
        Budget::NONE.with(Fault::Tick, 2),
    );
    config.slot_window = std::num::NonZeroU16::new(1);
    config
}

/// A prelude over three nodes: N1 is elected at 1.N1 by {N1, N2} and hands its ballot off to
/// N2; the Handoff is duplicated and one copy taken; N2 proposes C1's y=2 in slot 1, then crashes
/// and restarts, the other copy still in flight.
const HANDOFF_TAKEN_THEN_RESTART: &[&str] = &[
    "tick N1",
    "deliver m1 N1->N2 Prepare(1.N1, from slot 1)",
    "deliver m3 N2->N1 Promise(1.N1, [])",
    "hand off N1->N2",
    "duplicate m4 N1->N2 Handoff(1.N1, next slot 1, in flight [], chosen 0)",
    "deliver m4 N1->N2 Handoff(1.N1, next slot 1, in flight [], chosen 0)",
    "request C1 N2 write y=2",
    "deliver m6 C1->N2 Write(#1, y=2)",
    "crash N2",
    "restart N2",
];

/// C1 writes y=2 and C2 writes z=3, both at N2; one handoff, one duplicate, one crash and the
/// tick the prelude spends.
fn handoff_repeated_after_a_restart() -> LogWorldConfig {
    two_writes_at(
        2,
        [("y", "2"), ("z", "3")],
        Budget::NONE
            .with(Fault::Tick, 1)
            .with(Fault::Duplicate, 1)
            .with(Fault::Crash, 1),
    )
}

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

/// [`three_with_handoffs`] with two clients, C1 and C2, each writing once, both at node `at`;
/// one handoff.
fn two_writes_at(at: u8, writes: [(&str, &str); 2], budget: Budget) -> LogWorldConfig {
    let clients = (writes.iter())
        .map(|(key, value)| vec![ClientOp::write(key, value)])
        .collect();
    let mut config = three_with_handoffs(clients, budget, 1);
    config.client_targets = vec![Some(node(at)), Some(node(at))];
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

/// C1 writes x=1 and C2 writes y=2, both at N1; one handoff and one crash, no tick, and drops
/// for the prelude to spend: what the walk may do is hand off and crash, and the fair schedule
/// then decides with no election.
fn handoff_then_crash() -> LogWorldConfig {
    two_writes_at(
        1,
        [("x", "1"), ("y", "2")],
        Budget::NONE
            .with(Fault::Tick, 1)
            .with(Fault::Drop, 4)
            .with(Fault::Crash, 1),
    )
}

/// A prelude over three nodes: N1 is elected at 1.N1 by {N1, N2}; C1's x=1 is voted in slot 1
/// by N1 alone, and C2's y=2 in slot 2 by N1 and N3, which N1 counts chosen: its chosen index
/// stays 0, and only N1 knows slot 2 is chosen. Every other message is lost.
const SLOT_2_CHOSEN_AT_N1_ONLY: &[&str] = &[
    "tick N1",
    "deliver m1 N1->N2 Prepare(1.N1, from slot 1)",
    "drop m2 N1->N3 Prepare(1.N1, from slot 1)",
    "deliver m3 N2->N1 Promise(1.N1, [])",
    "request C1 N1 write x=1",
    "deliver m4 C1->N1 Write(#1, x=1)",
    "drop m5 N1->N2 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "drop m6 N1->N3 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "request C2 N1 write y=2",
    "deliver m7 C2->N1 Write(#1, y=2)",
    "deliver m9 N1->N3 Accept(1.N1, slot 2, y=2 (C2#1), commit 0)",
    "drop m8 N1->N2 Accept(1.N1, slot 2, y=2 (C2#1), commit 0)",
    "deliver m10 N3->N1 Accepted(1.N1, slot 2)",
];

/// C1 writes x=1 and C2 reads x, each at any node; one trim, one handoff, no tick after the
/// prelude's, and drops for the prelude to spend: the walk may hand N2's ballot to N1, whose own
/// vote in slot 2 is stale.
fn handoff_to_a_stale_vote() -> LogWorldConfig {
    let mut config = three_with_handoffs(
        vec![vec![ClientOp::write("x", "1")], vec![ClientOp::read("x")]],
        Budget::NONE.with(Fault::Tick, 2).with(Fault::Drop, 5),
        1,
    );
    config.trims = 1;
    config
}

/// A prelude over three nodes: N1 is elected at 1.N1 by {N1, N2}, and C1's x=1 is chosen in
/// slot 1 by {N1, N2} and acknowledged; N1 proposes a trim through slot 1 in slot 2 and alone
/// votes for it; N2 is elected at 2.N2 by {N2, N3}, which report no vote, so its next slot is
/// 1. Its Accepts of slot 1 are in flight; every other message is lost.
const STALE_VOTE_AT_THE_SUCCESSOR: &[&str] = &[
    "tick N1",
    "deliver m1 N1->N2 Prepare(1.N1, from slot 1)",
    "drop m2 N1->N3 Prepare(1.N1, from slot 1)",
    "deliver m3 N2->N1 Promise(1.N1, [])",
    "request C1 N1 write x=1",
    "deliver m4 C1->N1 Write(#1, x=1)",
    "deliver m5 N1->N2 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "drop m6 N1->N3 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "deliver m7 N2->N1 Accepted(1.N1, slot 1)",
    "deliver m8 N1->C1 Reply(#1, written)",
    "trim N1 through slot 1",
    "drop m9 N1->N2 Accept(1.N1, slot 2, trim through 1, commit 1)",
    "drop m10 N1->N3 Accept(1.N1, slot 2, trim through 1, commit 1)",
    "tick N2",
    "drop m11 N2->N1 Prepare(2.N2, from slot 1)",
    "deliver m12 N2->N3 Prepare(2.N2, from slot 1)",
    "deliver m13 N3->N2 Promise(2.N2, [])",
];

/// Three nodes and two proxy leaders, P1 and P2, through which the leader sends its Accepts;
/// these clients and this budget; an election timeout of 1 tick.
fn three_with_proxies(clients: Vec<Vec<ClientOp>>, budget: Budget) -> LogWorldConfig {
    let mut config = LogWorldConfig::three_nodes(Vec::new());
    config.clients = clients;
    config.budget = budget;
    config.election_timeout_ticks = 1;
    config.proxies = 2;
    config
}

/// C1 writes x=1 at N1 (elected in the prelude, which spends two ticks: the election timeout
/// is 2 here, so no follower can stand); then 1 tick (the leader's beat, which resends through
/// the other proxy) and 1 crash (a proxy's or a node's, and its restart): 11.0 million states
/// in about 80 s. A drop too makes the space too large to finish (more than 14 million states
/// in 3 GB); [`proxy_leaders_faults`] samples drops and duplicates, and so does this
/// scenario's simulation.
fn proxy_leaders() -> LogWorldConfig {
    let mut config = three_with_proxies(
        vec![writes("x", 1)],
        Budget::NONE.with(Fault::Tick, 3).with(Fault::Crash, 1),
    );
    config.election_timeout_ticks = 2;
    config.client_targets = vec![Some(node(1))];
    config
}

/// C1 writes x=1..3 at any node through two proxies, with every kind of fault.
fn proxy_leaders_faults() -> LogWorldConfig {
    three_with_proxies(
        vec![writes("x", 3)],
        Budget::NONE
            .with(Fault::Tick, 40)
            .with(Fault::Crash, 2)
            .with(Fault::Drop, 3)
            .with(Fault::Duplicate, 2)
            .with(Fault::Partition, 1),
    )
}

/// C1's x=1 sent to P2 (the prelude), then x=2, all at N1; 4 ticks and 4 drops and nothing
/// else, so the drops fall on the few messages of one leader's slots: the forwards, the
/// Accepteds and the announcements. [`proxy_leaders_faults`], whose three drops are spread over
/// a whole run of elections (a follower stands after one tick there, and each new ballot gives
/// the proxies fresh (slot, ballot) keys), reached a proxy holding a slot whose messages were
/// lost in none of 50,000 seeds.
fn proxy_leaders_lost_messages() -> LogWorldConfig {
    let mut config = three_with_proxies(
        vec![writes("x", 2)],
        Budget::NONE.with(Fault::Tick, 4).with(Fault::Drop, 4),
    );
    config.election_timeout_ticks = 2;
    config.client_targets = vec![Some(node(1))];
    config
}

/// C1's x=1 sent to P2 (the prelude), then x=2; 1 handoff, 4 ticks, 1 drop: N1 may hand its
/// ballot to a successor while slot 1 is still in flight through the proxies.
fn proxy_leaders_handoff() -> LogWorldConfig {
    let mut config = three_with_proxies(
        vec![writes("x", 2)],
        Budget::NONE.with(Fault::Tick, 4).with(Fault::Drop, 1),
    );
    config.election_timeout_ticks = 2;
    config.handoffs = 1;
    config
}

/// The control where a proxy keys its state by slot alone: C1 writes x=1 at N1, C2 writes
/// x=2 at N2; 1 tick, so N2 may stand.
fn proxy_keyed_by_slot() -> LogWorldConfig {
    let mut config = three_with_proxies(
        vec![writes("x", 1), vec![ClientOp::write("x", "2")]],
        Budget::NONE.with(Fault::Tick, 2),
    );
    config.client_targets = vec![Some(node(1)), Some(node(2))];
    config.negative_control = Some(NegativeControl::ProxyKeyedBySlot);
    config
}

/// The control where a proxy ignores repeats: one proxy, C1 writes x=1 at N1; the prelude
/// spends its two ticks and two drops, and the fair schedule ticks on.
fn proxy_ignores_repeats() -> LogWorldConfig {
    let mut config = three_with_proxies(
        vec![writes("x", 1)],
        Budget::NONE.with(Fault::Tick, 2).with(Fault::Drop, 2),
    );
    config.proxies = 1;
    config.election_timeout_ticks = 2;
    config.client_targets = vec![Some(node(1))];
    config.negative_control = Some(NegativeControl::ProxyIgnoresRepeats);
    config
}

/// The control where a leader resends a new value at the same ballot: C1 writes x=1 at N1;
/// 1 tick after the prelude's, the leader's beat.
fn new_value_same_ballot() -> LogWorldConfig {
    let mut config = three_with_proxies(vec![writes("x", 1)], Budget::NONE.with(Fault::Tick, 2));
    config.client_targets = vec![Some(node(1))];
    config.negative_control = Some(NegativeControl::NewValueSameBallot);
    config
}

/// Every Act IV scenario, in the order `paros-sim list` prints them.
pub fn all() -> Vec<Scenario> {
    let mut all = flexible_scenarios();
    all.extend(grid_scenarios());
    all.extend(quorum_read_scenarios());
    all.extend(proxy_scenarios());
    all
}

/// The scenarios over flexible quorums, and their control.
fn flexible_scenarios() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "act4-flexible-quorums",
            claim: text(
                "Over four nodes where any three elect and any two choose, a write chosen by two survives a leader change: every Phase-1 quorum meets the two that chose it.",
            ),
            world: text(
                "N1-N4, q1 = 3, q2 = 2. Prelude: N1 elected by {N1, N2, N3}; C1's x=1 chosen in slot 1 by {N1, N2}. Then 1 tick (a leader change) and 1 crash (and its restart); every schedule.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &["act4/flexible-quorums"],
            chapter: Some(CHAPTER_BEYOND),
            setup: setup(leader_change(), X1_CHOSEN_BY_TWO),
        },
        Scenario {
            name: "act4-flexible-quorums-faults",
            claim: text(
                "Over four nodes where any three elect and any two choose, a client's writes stay safe through leader changes, crashes, drops, duplicates and a partition, and every run decides once faults stop.",
            ),
            world: text(
                "N1-N4, q1 = 3, q2 = 2; C1 writes x=1..4 at any node; 40 ticks, 2 crashes, 3 drops, 2 duplicates, 1 partition.",
            ),
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 2_000,
                max_steps: 1_000,
            },
            levels: &[],
            chapter: Some(CHAPTER_BEYOND),
            setup: setup(faults_over_flexible_quorums(), &[]),
        },
        act4_non_intersecting_quorums_control(),
        Scenario {
            name: "act4-handoff",
            claim: text(
                "A leader with a command in flight hands its ballot to another node, which leads at the same ballot with no Phase 1: it finishes the command with the identical value and takes the next one, through a crash and its restart, and no (slot, ballot) ever carries two values.",
            ),
            world: text(
                "N1-N3; C1 writes x=1, then x=2 at any node. Prelude: N1 elected at 1.N1 by {N1, N2}; x=1 voted in slot 1 by N1 and N2, N2's vote not yet at N1. Then 1 handoff and 1 crash (and its restart); every schedule.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &["act4/the-handoff"],
            chapter: Some(CHAPTER_HANDOFF),
            setup: setup(handoff(), N1_WITH_X1_IN_FLIGHT),
        },
        Scenario {
            name: "act4-handoff-faults",
            claim: text(
                "With leaders handing their ballots off and being deposed, a client's writes stay safe through crashes, drops, duplicates and a partition, no (slot, ballot) carries two values, and every run decides once faults stop.",
            ),
            world: text(
                "N1-N3; C1 writes x=1..4 at any node; 2 handoffs, 40 ticks, 2 crashes, 3 drops, 2 duplicates, 1 partition.",
            ),
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 2_000,
                max_steps: 1_000,
            },
            levels: &[],
            chapter: Some(CHAPTER_HANDOFF),
            setup: setup(handoff_faults(), &[]),
        },
        Scenario {
            name: "act4-handoff-then-crash",
            claim: text(
                "A leader that hands its ballot off and then crashes, when it alone knew a slot chosen, leaves no slot undecided: once faults stop, every client request is answered with no election.",
            ),
            world: text(
                "N1-N3; C1 writes x=1 and C2 writes y=2, both at N1. Prelude: N1 elected at 1.N1 by {N1, N2}; x=1 voted in slot 1 by N1 alone; y=2 voted in slot 2 by N1 and N3, counted chosen by N1 only; every other message lost. Then 1 handoff and 1 crash; seeded walks, each followed by the fair schedule.",
            ),
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 2_000,
                max_steps: 1_000,
            },
            levels: &[],
            chapter: Some(CHAPTER_HANDOFF),
            setup: setup(handoff_then_crash(), SLOT_2_CHOSEN_AT_N1_ONLY),
        },
        Scenario {
            name: "act4-handoff-to-a-stale-vote",
            claim: text(
                "A successor whose own vote above the handed-off next slot is stale fills that slot, so a read it serves is answered once faults stop, with no more writes and no election.",
            ),
            world: text(
                "N1-N3; C1 writes x=1, C2 reads x. Prelude: N1 elected at 1.N1 by {N1, N2}; x=1 chosen in slot 1 by {N1, N2} and acknowledged; a trim through slot 1 proposed in slot 2 and voted by N1 alone; N2 elected at 2.N2 by {N2, N3}, with next slot 1. Then 1 handoff; seeded walks, each followed by the fair schedule.",
            ),
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 2_000,
                max_steps: 1_000,
            },
            levels: &[],
            chapter: Some(CHAPTER_HANDOFF),
            setup: setup(handoff_to_a_stale_vote(), STALE_VOTE_AT_THE_SUCCESSOR),
        },
        Scenario {
            name: "act4-handoff-beyond-the-window",
            claim: text(
                "A successor more than its window behind ignores a handoff whose next slot lies beyond its window, so it never leads where it could not vote; every schedule stays safe.",
            ),
            world: text(
                "N1-N3, windows of one slot; C1 writes x=1 and C2 writes y=2, both at N1. Prelude: N1 elected at 1.N1 by {N1, N3}; x=1 chosen in slot 1 and y=2 in slot 2, both by {N1, N3}; N2 has heard nothing, its messages in flight. Then 1 handoff and every schedule.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_HANDOFF),
            setup: setup(handoff_beyond_the_window(), TWO_CHOSEN_BEHIND_N2),
        },
        Scenario {
            name: "act4-handoff-repeated-after-a-restart",
            claim: text(
                "A successor that restarts after taking a handoff ignores a late copy of the same Handoff, so it never leads that ballot again from a next slot it already proposed in: every schedule keeps one value per (slot, ballot).",
            ),
            world: text(
                "N1-N3; C1 writes y=2 and C2 writes z=3, both at N2. Prelude: N1 elected at 1.N1 by {N1, N2}; N1 hands its ballot off to N2, and the Handoff is duplicated; N2 takes it and proposes y=2 in slot 1; N2 crashes and restarts, the copy of the Handoff still in flight. Then every schedule.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_HANDOFF),
            setup: setup(
                handoff_repeated_after_a_restart(),
                HANDOFF_TAKEN_THEN_RESTART,
            ),
        },
        act4_handoff_fills_gaps_control(),
        act4_double_handoff_control(),
    ]
}

/// The scenarios over grids, and the control whose rows decide.
fn grid_scenarios() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "act4-grid",
            claim: text(
                "Over a 2x2 grid, two writes decide in two slots on two columns, each slot by its own column, and stay safe through a crash and a lost message.",
            ),
            world: text(
                "N1-N4, rows {N1, N2} and {N3, N4}; slot 1 decides in {N1, N3}, slot 2 in {N2, N4}. C1 writes x=1 then x=2 at N1. Prelude: N1 elected by its row; x=1 chosen in slot 1 by {N1, N3} and acknowledged. Then 1 crash (and its restart) and 1 drop; every schedule.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &["act4/the-grid"],
            chapter: Some(CHAPTER_BEYOND),
            setup: setup(two_slots_on_two_columns(), &x1_chosen_by_a_column()),
        },
        Scenario {
            name: "act4-grid-3x3",
            claim: text(
                "Over a 3x3 grid, two clients' writes stay safe through leader changes, crashes, drops, duplicates and a partition, and every run decides once faults stop.",
            ),
            world: text(
                "N1-N9, rows {N1, N2, N3}, {N4, N5, N6}, {N7, N8, N9}; slot s decides in column (s - 1) mod 3. C1 writes x=1..4 and C2 y=1..3 at any node; 60 ticks, 3 crashes, 4 drops, 2 duplicates, 1 partition.",
            ),
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 1_000,
                max_steps: 2_000,
            },
            levels: &[],
            chapter: Some(CHAPTER_BEYOND),
            setup: setup(three_by_three(), &[]),
        },
        act4_grid_decides_in_row_control(),
    ]
}

/// The scenarios of quorum reads over a grid, and the two read controls.
fn quorum_read_scenarios() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "act4-quorum-reads",
            claim: text(
                "Over a 2x2 grid, a follower serves a linearizable read with no leader involved: it asks a row for their highest accepted slots and answers once it has applied through the highest.",
            ),
            world: text(
                "N1-N4, rows {N1, N2} and {N3, N4}. Prelude: N1 elected by its row; C1's x=1 chosen in slot 1 by the column {N1, N3} and acknowledged, then voted by N2 and N4 too; only N1 knows it is chosen. C2 reads x at N4; then 1 tick; every schedule.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &["act4/quorum-reads"],
            chapter: Some(CHAPTER_BEYOND),
            setup: setup(follower_read(), &x1_voted_by_all()),
        },
        Scenario {
            name: "act4-quorum-reads-faults",
            claim: text(
                "Over a 2x2 grid, reads at any node stay linearizable while writes go on, through leader changes, crashes, drops, duplicates and a partition.",
            ),
            world: text(
                "N1-N4 as a 2x2 grid; C1 writes x=1..3, C2 and C3 read x three times each, all at any node; 40 ticks, 2 crashes, 3 drops, 2 duplicates, 1 partition.",
            ),
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 1_000,
                max_steps: 1_500,
            },
            levels: &[],
            chapter: Some(CHAPTER_BEYOND),
            setup: setup(reads_through_faults(), &[]),
        },
        act4_read_commit_index_control(),
        act4_skip_rinse_control(),
    ]
}

/// The scenarios of proxy leaders, and their two controls.
fn proxy_scenarios() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "act4-proxy-leaders",
            claim: text(
                "A leader that sends its Accepts through proxy leaders gets its command chosen through a crashed proxy or node: each proxy announces only what a quorum accepted at one ballot, and no (slot, ballot) ever carries two values.",
            ),
            world: text(
                "N1-N3 and proxies P1, P2; an election timeout of 2 ticks; C1 writes x=1 at N1. Prelude: N1 elected at 1.N1 by {N1, N2}; x=1 sent to P2. Then 1 tick (the leader's beat, which resends through the other proxy) and 1 crash (a proxy or a node, and its restart); every schedule.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &["act4/proxy-leaders"],
            chapter: Some(CHAPTER_PROXIES),
            setup: setup(proxy_leaders(), PROXY_X1_SENT_SLOWLY),
        },
        Scenario {
            name: "act4-proxy-leaders-faults",
            claim: text(
                "With the leader's Accepts going through two proxy leaders, a client's writes stay safe through leader changes, crashed proxies and nodes, drops, duplicates and a partition, and every run decides once faults stop.",
            ),
            world: text(
                "N1-N3 and proxies P1, P2; C1 writes x=1..3 at any node; 40 ticks, 2 crashes, 3 drops, 2 duplicates, 1 partition.",
            ),
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 2_000,
                max_steps: 1_000,
            },
            levels: &[],
            chapter: Some(CHAPTER_PROXIES),
            setup: setup(proxy_leaders_faults(), &[]),
        },
        Scenario {
            name: "act4-proxy-leaders-lost-messages",
            claim: text(
                "Through two proxy leaders, a leader whose forwarded Accepts, Accepteds and announcements are lost still gets every write chosen and answered once faults stop, without an election: progress under a stable leader.",
            ),
            world: text(
                "N1-N3 and proxies P1, P2; an election timeout of 2 ticks; C1 writes x=1, x=2 at N1. Prelude: N1 elected at 1.N1 by {N1, N2}; x=1 sent to P2. Then 4 ticks and 4 drops.",
            ),
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 2_000,
                max_steps: 1_000,
            },
            levels: &[],
            chapter: Some(CHAPTER_PROXIES),
            setup: setup(proxy_leaders_lost_messages(), PROXY_X1_SENT_SLOWLY),
        },
        Scenario {
            name: "act4-proxy-leaders-handoff",
            claim: text(
                "A leader that sends its Accepts through proxy leaders may hand its ballot off with a slot in flight: the successor's sends of that slot reach proxies that hold it, and it is still chosen and answered once faults stop.",
            ),
            world: text(
                "N1-N3 and proxies P1, P2; an election timeout of 2 ticks; C1 writes x=1, x=2 at any node. Prelude: N1 elected at 1.N1 by {N1, N2}; x=1 sent to P2. Then 1 handoff, 4 ticks and 1 drop.",
            ),
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 2_000,
                max_steps: 1_000,
            },
            levels: &[],
            chapter: Some(CHAPTER_PROXIES),
            setup: setup(proxy_leaders_handoff(), PROXY_X1_SENT_SLOWLY),
        },
        act4_proxy_keyed_by_slot_control(),
        act4_new_value_same_ballot_control(),
        act4_proxy_ignores_repeats_control(),
    ]
}

/// The scenario `act4-non-intersecting-quorums-control`.
fn act4_non_intersecting_quorums_control() -> Scenario {
    Scenario {
        name: "act4-non-intersecting-quorums-control",
        claim: text(
            "Negative control: over four nodes where any two elect and any two choose, a second leader elected by two nodes that missed the first leader's two voters chooses another value in the same slot; the agreement checker must catch it.",
        ),
        world: text(
            "N1-N4, q1 = q2 = 2 (built by the world; paros-core refuses it); C1 writes x=1 at N1, C2 writes x=2 at N3. Prelude: N1 elected by {N1, N2}. Then 1 tick (another node stands); every schedule.",
        ),
        modes: BOTH_MODES,
        book_mode: BookMode::Exhaustive,
        levels: &[],
        chapter: Some(CHAPTER_BEYOND),
        setup: setup(two_halves(), N1_LEADS_BY_TWO),
    }
}

/// The scenario `act4-handoff-fills-gaps-control`.
fn act4_handoff_fills_gaps_control() -> Scenario {
    Scenario {
        name: "act4-handoff-fills-gaps-control",
        claim: text(
            "Negative control: a successor that fills a hole below the handed-off next slot with a no-op sends a second value at a (slot, ballot) where x is already chosen; the one-value-per-ballot checker must catch it.",
        ),
        world: text(
            "N1-N3; C1 writes x=1 at N1. Prelude: N1 elected at 1.N1 by {N1, N3}; x=1 chosen in slot 1 by {N1, N3}; N2 heard nothing. Then 1 handoff and 1 tick; every schedule.",
        ),
        modes: BOTH_MODES,
        book_mode: BookMode::Exhaustive,
        levels: &[],
        chapter: Some(CHAPTER_HANDOFF),
        setup: setup(handoff_fills_gaps(), X1_CHOSEN_BEHIND_N2),
    }
}

/// The scenario `act4-double-handoff-control`.
fn act4_double_handoff_control() -> Scenario {
    Scenario {
        name: "act4-double-handoff-control",
        claim: text(
            "Negative control: a leader that keeps its ballot after handing it off hands it to a second node, and both successors propose their own command in the same slot at the same ballot; the one-value-per-ballot checker must catch it.",
        ),
        world: text(
            "N1-N3; C1 writes x=1 at N2, C2 writes x=2 at N3. Prelude: N1 elected at 1.N1 by {N1, N2}. Then 2 handoffs and 1 tick; every schedule.",
        ),
        modes: BOTH_MODES,
        book_mode: BookMode::Exhaustive,
        levels: &[],
        chapter: Some(CHAPTER_HANDOFF),
        setup: setup(double_handoff(), N1_LEADS_THREE),
    }
}

/// The scenario `act4-grid-decides-in-row-control`.
fn act4_grid_decides_in_row_control() -> Scenario {
    Scenario {
        name: "act4-grid-decides-in-row-control",
        claim: text(
            "Negative control: over a 2x2 \"grid\" where a full row decides as well as the slot's column, the row {N1, N2} chooses x=1 while the other row elects a leader that sees nothing, whose column then chooses x=2 in the same slot; the agreement checker must catch it.",
        ),
        world: text(
            "N1-N4, rows {N1, N2} and {N3, N4}, where a row decides too (built by the world; paros-core refuses it); C1 writes x=1 at N1, C2 writes x=2 at N3. Prelude: N1 elected by {N1, N2}. Then 1 tick (another node stands); every schedule.",
        ),
        modes: BOTH_MODES,
        book_mode: BookMode::Exhaustive,
        levels: &[],
        chapter: Some(CHAPTER_BEYOND),
        setup: setup(rows_decide(), N1_LEADS_BY_TWO),
    }
}

/// The scenario `act4-read-commit-index-control`.
fn act4_read_commit_index_control() -> Scenario {
    Scenario {
        name: "act4-read-commit-index-control",
        claim: text(
            "Negative control: nodes that answer a read with their commit index instead of their highest accepted slot let a read at N4 over the row {N3, N4} miss x=1, which the column {N1, N3} chose and N1 acknowledged; the linearizability checker must catch it.",
        ),
        world: text(
            "N1-N4 as a 2x2 grid, every node answering ReadIndex with its commit index; C1 writes x=1 at N1, C2 reads x at N4. Prelude: N1 elected by its row; x=1 chosen in slot 1 by the column {N1, N3} and acknowledged; N3 does not know it is chosen. No faults; every schedule.",
        ),
        modes: BOTH_MODES,
        book_mode: BookMode::Exhaustive,
        levels: &[],
        chapter: Some(CHAPTER_BEYOND),
        setup: setup(reads_commit_indexes(), &x1_chosen_by_a_column()),
    }
}

/// The scenario `act4-skip-rinse-control`.
fn act4_skip_rinse_control() -> Scenario {
    Scenario {
        name: "act4-skip-rinse-control",
        claim: text(
            "Negative control: a node that answers a read with its vote at the watermark slot before that slot is decided returns x=1, and a later read over the other row, which never saw x=1, returns nothing: the read went back in time, and the linearizability checker must catch it.",
        ),
        world: text(
            "N1-N4 as a 2x2 grid, every node skipping the rinse; C1 writes x=1 at N1, C2 reads x at N1, C3 reads x at N4. Prelude: N1 elected by its row; C1's x=1 reaches N1, which votes for it in slot 1. No faults; every schedule.",
        ),
        modes: BOTH_MODES,
        book_mode: BookMode::Exhaustive,
        levels: &[],
        chapter: Some(CHAPTER_BEYOND),
        setup: setup(skips_the_rinse(), N1_PROPOSES_X1),
    }
}

/// The scenario `act4-proxy-keyed-by-slot-control`.
fn act4_proxy_keyed_by_slot_control() -> Scenario {
    Scenario {
        name: "act4-proxy-keyed-by-slot-control",
        claim: text(
            "Negative control: a proxy that keeps its state by slot alone counts N1's Accepted at 1.N1 and N2's at 2.N2 together and announces a value only one acceptor accepted at its ballot; the announced-was-chosen checker must catch it.",
        ),
        world: text(
            "N1-N3 and proxies P1, P2, each keyed by slot alone; C1 writes x=1 at N1, C2 writes x=2 at N2. Prelude: N1 elected at 1.N1; x=1 voted in slot 1 by N1 alone, through P2, which counted it. Then 1 tick (N2 stands); every schedule.",
        ),
        modes: BOTH_MODES,
        book_mode: BookMode::Exhaustive,
        levels: &[],
        chapter: Some(CHAPTER_PROXIES),
        setup: setup(proxy_keyed_by_slot(), PROXY_X1_COUNTED),
    }
}

/// The scenario `act4-new-value-same-ballot-control`.
fn act4_new_value_same_ballot_control() -> Scenario {
    Scenario {
        name: "act4-new-value-same-ballot-control",
        claim: text(
            "Negative control: a leader that resends a client's command through the other proxy as a no-op, at the same ballot, sends two values at one (slot, ballot); the one-value-per-ballot checker must catch it.",
        ),
        world: text(
            "N1-N3 and proxies P1, P2, the leader breaking P4; C1 writes x=1 at N1. Prelude: N1 elected at 1.N1; x=1 sent to P2. Then 1 tick (the leader's beat); every schedule.",
        ),
        modes: BOTH_MODES,
        book_mode: BookMode::Exhaustive,
        levels: &[],
        chapter: Some(CHAPTER_PROXIES),
        setup: setup(new_value_same_ballot(), PROXY_X1_SENT),
    }
}

/// The scenario `act4-proxy-ignores-repeats-control`.
fn act4_proxy_ignores_repeats_control() -> Scenario {
    Scenario {
        name: "act4-proxy-ignores-repeats-control",
        claim: text(
            "Negative control: a proxy that ignores an Accept for a (slot, ballot) it already holds never forwards the leader's resends, so two lost forwards stall the slot for ever; the progress checker must catch it once faults stop.",
        ),
        world: text(
            "N1-N3 and one proxy P1, which ignores repeats; C1 writes x=1 at N1. Prelude: N1 elected at 1.N1 by {N1, N2}; x=1 sent to P1, which forwards it; the copies to N2 and N3 lost. No faults after; every seed then settles under the fair schedule.",
        ),
        modes: SIMULATION,
        book_mode: BookMode::Simulation {
            seeds: 20,
            max_steps: 1_000,
        },
        levels: &[],
        chapter: Some(CHAPTER_PROXIES),
        setup: setup(proxy_ignores_repeats(), PROXY_FORWARDS_LOST),
    }
}

/// The negative controls among [`all`], in its order: the scenarios a replay can show.
pub(super) fn controls() -> Vec<Scenario> {
    vec![
        act4_non_intersecting_quorums_control(),
        act4_handoff_fills_gaps_control(),
        act4_double_handoff_control(),
        act4_grid_decides_in_row_control(),
        act4_read_commit_index_control(),
        act4_skip_rinse_control(),
        act4_proxy_keyed_by_slot_control(),
        act4_new_value_same_ballot_control(),
        act4_proxy_ignores_repeats_control(),
    ]
}

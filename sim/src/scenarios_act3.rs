//! Act III's scenarios: Act II's log with truncation by consensus, the trim-point jump, a second
//! client and reads across leader changes. Each negative control has a twin world without it
//! that the explorer finishes, so each rule is shown both to hold and to be needed.

use super::act2::{
    BOTH_MODES, LEVEL_SWEEP, N1_LEADS, SIMULATION, and_then, node, setup, writes, writes_and_reads,
    x1_chosen,
};
use super::{BookMode, Scenario, text};
use crate::faults::{Budget, Fault, NegativeControl};
use crate::replicated_log::{ClientOp, LogWorldConfig};

/// The chapter on truncation, the floor and the jump.
pub const CHAPTER_TRUNCATION: &str = "Truncation and the trim point";
/// The chapter on linearizable reads; Act III writes its second half.
pub const CHAPTER_READS: &str = super::act2::CHAPTER_READS;

/// A prelude: [`x1_chosen`], then N1 compacts through slot 1 with a trim decided in slot 2 by
/// {N1, N2}: N1's floor is 1, N2 has not yet learned either slot, and N3 has heard nothing (its
/// Prepare, Accepts and C1's reply are in flight).
fn n1_trims_n3_stranded() -> Vec<&'static str> {
    let trim = [
        "trim N1 through slot 1",
        "deliver m9 N1->N2 Accept(1.N1, slot 2, trim through 1, commit 1)",
        "deliver m11 N2->N1 Accepted(1.N1, slot 2)",
    ];
    and_then(&x1_chosen(), &trim)
}

/// A prelude: [`n1_trims_n3_stranded`], then N1 beats and answers C1: N2 learns both slots and
/// compacts too, and N3 promises 1.N1 but has no entry; N1's Accepts and heartbeat to N3 are
/// still in flight.
fn n1_trims_then_beats() -> Vec<&'static str> {
    let beat = [
        "tick N1",
        "deliver m8 N1->C1 Reply(#1, written)",
        "deliver m12 N1->N2 Heartbeat(1.N1, commit 2)",
        "deliver m14 N2->N1 HeartbeatAck(1.N1, chosen 2)",
        "deliver m2 N1->N3 Prepare(1.N1, from slot 1)",
        "deliver m15 N3->N1 Promise(1.N1, [])",
    ];
    and_then(&n1_trims_n3_stranded(), &beat)
}

/// A prelude: [`x1_chosen`], and N1 has answered C1 "written"; N2 voted but has not learned it,
/// and N3 has heard nothing.
fn x1_written() -> Vec<&'static str> {
    and_then(&x1_chosen(), &["deliver m8 N1->C1 Reply(#1, written)"])
}

/// Three nodes, these clients, this budget and this many trims; an election timeout of 1 tick.
fn log(clients: Vec<Vec<ClientOp>>, budget: Budget, trims: u32) -> LogWorldConfig {
    let mut config = LogWorldConfig::three_nodes(Vec::new());
    config.clients = clients;
    config.budget = budget;
    config.trims = trims;
    config.election_timeout_ticks = 1;
    config
}

fn with_control(mut config: LogWorldConfig, control: NegativeControl) -> LogWorldConfig {
    config.negative_control = Some(control);
    config
}

/// C1 writes x=1 and C2 reads x, both at N1, with messages to self on the wire; one trim; one
/// tick after the prelude's, and the drops and crash the prelude spends: the walk may elect
/// the restarted N1 again by {N2, N3} before its own Promise reaches it, with its own vote in
/// slot 2 stale.
fn leader_with_a_stale_vote() -> LogWorldConfig {
    let mut config = log(
        vec![vec![ClientOp::write("x", "1")], vec![ClientOp::read("x")]],
        Budget::NONE
            .with(Fault::Tick, 2)
            .with(Fault::Drop, 2)
            .with(Fault::Crash, 1),
        1,
    );
    config.self_messages_in_flight = true;
    config.client_targets = vec![Some(node(1)), Some(node(1))];
    config
}

/// A prelude over three nodes, messages to self on the wire: N1 is elected at 1.N1 by every
/// node; C1's x=1 is chosen in slot 1 by all three and acknowledged; N1 proposes a trim through
/// slot 1 in slot 2 and alone votes for it (its Accepts to N2 and N3 are lost, its own
/// Accepted is in flight); N1 crashes and restarts from its disk.
const STALE_VOTE_AT_THE_LEADER: &[&str] = &[
    "tick N1",
    "deliver m1 N1->N1 Prepare(1.N1, from slot 1)",
    "deliver m4 N1->N1 Promise(1.N1, [])",
    "deliver m2 N1->N2 Prepare(1.N1, from slot 1)",
    "deliver m5 N2->N1 Promise(1.N1, [])",
    "deliver m3 N1->N3 Prepare(1.N1, from slot 1)",
    "deliver m6 N3->N1 Promise(1.N1, [])",
    "request C1 N1 write x=1",
    "deliver m7 C1->N1 Write(#1, x=1)",
    "deliver m8 N1->N1 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "deliver m9 N1->N2 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "deliver m10 N1->N3 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "deliver m11 N1->N1 Accepted(1.N1, slot 1)",
    "deliver m12 N2->N1 Accepted(1.N1, slot 1)",
    "deliver m13 N3->N1 Accepted(1.N1, slot 1)",
    "deliver m14 N1->C1 Reply(#1, written)",
    "trim N1 through slot 1",
    "deliver m15 N1->N1 Accept(1.N1, slot 2, trim through 1, commit 1)",
    "drop m16 N1->N2 Accept(1.N1, slot 2, trim through 1, commit 1)",
    "drop m17 N1->N3 Accept(1.N1, slot 2, trim through 1, commit 1)",
    "crash N1",
    "restart N1",
];

/// After N1 compacted with N3 stranded (the prelude's tick spent): N3 may stand and lead.
fn leader_below_a_floor() -> LogWorldConfig {
    let mut config = log(
        vec![vec![ClientOp::write("x", "1")]],
        Budget::NONE.with(Fault::Tick, 2),
        1,
    );
    config.client_targets = vec![Some(node(1))];
    config
}

/// After N1 compacted with N3 stranded and beat (the prelude's two ticks spent): one more tick,
/// so that another node may stand, and a crash with its restart anywhere, the jump's writes
/// included.
fn jump_after_a_new_promise() -> LogWorldConfig {
    let mut config = log(
        vec![vec![ClientOp::write("x", "1")]],
        Budget::NONE.with(Fault::Tick, 3).with(Fault::Crash, 1),
        1,
    );
    config.client_targets = vec![Some(node(1))];
    config
}

/// After x=1 is written through N1 (the prelude's tick spent): C1 reads x at any node, while
/// another node may stand.
fn fresh_leader() -> LogWorldConfig {
    log(
        vec![vec![ClientOp::write("x", "1"), ClientOp::read("x")]],
        Budget::NONE.with(Fault::Tick, 2),
        0,
    )
}

/// N1 leads (the prelude's tick spent); C2's write and C1's write, each sent to N1, and C1 may
/// send its write again.
fn retry_above_a_hole() -> LogWorldConfig {
    let mut config = log(
        vec![
            vec![ClientOp::write("x", "a")],
            vec![ClientOp::write("y", "b")],
        ],
        Budget::NONE
            .with(Fault::Tick, 1)
            .with(Fault::ClientResend, 1),
        0,
    );
    config.client_targets = vec![Some(node(1)), Some(node(1))];
    config
}

/// Seven nodes, majorities of four: C1 writes x=1 at N1 and C2 writes x=2 at N2; one trim;
/// drops for the prelude to spend, and one tick after it: a leader's beat (the stale leader's
/// second), as a follower needs two to stand. With an election in the space as well, the
/// fixed core's went past 3 GiB after 16 million states.
fn stale_leader_and_a_jump() -> LogWorldConfig {
    let mut config = log(
        vec![
            vec![ClientOp::write("x", "1")],
            vec![ClientOp::write("x", "2")],
        ],
        Budget::NONE
            .with(Fault::Tick, 1 + STALE_LEADER_PRELUDE_TICKS)
            .with(Fault::Drop, STALE_LEADER_PRELUDE_DROPS),
        1,
    );
    config.node_count = 7;
    config.client_targets = vec![Some(node(1)), Some(node(2))];
    config.election_timeout_ticks = 2;
    config
}

/// The ticks [`STALE_LEADER_PRELUDE`] spends.
const STALE_LEADER_PRELUDE_TICKS: u32 = 6;
/// The drops [`STALE_LEADER_PRELUDE`] spends.
const STALE_LEADER_PRELUDE_DROPS: u32 = 32;

/// A prelude over seven nodes: N1 is elected at 1.N1 by {N1, N5, N6, N7}, and C1's x=1 voted
/// in slot 1 by N1 and N7 only; N2 is elected at 1.N2 by {N2, N3, N4, N5}, which choose C2's
/// x=2 in slot 1 and a trim through slot 1 in slot 2; N2 applies both (floor 1), beats, and
/// N6, which promised only 1.N1, acks with chosen index 0, so N2's trim point to N6 is in
/// flight; then N1 beats, and its heartbeat to N6 is in flight. Every other message is lost.
const STALE_LEADER_PRELUDE: &[&str] = &[
    "tick N1",
    "tick N1",
    "deliver m4 N1->N5 Prepare(1.N1, from slot 1)",
    "deliver m5 N1->N6 Prepare(1.N1, from slot 1)",
    "deliver m6 N1->N7 Prepare(1.N1, from slot 1)",
    "drop m1 N1->N2 Prepare(1.N1, from slot 1)",
    "drop m2 N1->N3 Prepare(1.N1, from slot 1)",
    "drop m3 N1->N4 Prepare(1.N1, from slot 1)",
    "deliver m7 N5->N1 Promise(1.N1, [])",
    "deliver m8 N6->N1 Promise(1.N1, [])",
    "deliver m9 N7->N1 Promise(1.N1, [])",
    "request C1 N1 write x=1",
    "deliver m10 C1->N1 Write(#1, x=1)",
    "deliver m16 N1->N7 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "drop m11 N1->N2 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "drop m12 N1->N3 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "drop m13 N1->N4 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "drop m14 N1->N5 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "drop m15 N1->N6 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "deliver m17 N7->N1 Accepted(1.N1, slot 1)",
    "tick N2",
    "tick N2",
    "deliver m19 N2->N3 Prepare(1.N2, from slot 1)",
    "deliver m20 N2->N4 Prepare(1.N2, from slot 1)",
    "deliver m21 N2->N5 Prepare(1.N2, from slot 1)",
    "drop m18 N2->N1 Prepare(1.N2, from slot 1)",
    "drop m22 N2->N6 Prepare(1.N2, from slot 1)",
    "drop m23 N2->N7 Prepare(1.N2, from slot 1)",
    "deliver m24 N3->N2 Promise(1.N2, [])",
    "deliver m25 N4->N2 Promise(1.N2, [])",
    "deliver m26 N5->N2 Promise(1.N2, [])",
    "request C2 N2 write x=2",
    "deliver m27 C2->N2 Write(#1, x=2)",
    "deliver m29 N2->N3 Accept(1.N2, slot 1, x=2 (C2#1), commit 0)",
    "deliver m30 N2->N4 Accept(1.N2, slot 1, x=2 (C2#1), commit 0)",
    "deliver m31 N2->N5 Accept(1.N2, slot 1, x=2 (C2#1), commit 0)",
    "drop m28 N2->N1 Accept(1.N2, slot 1, x=2 (C2#1), commit 0)",
    "drop m32 N2->N6 Accept(1.N2, slot 1, x=2 (C2#1), commit 0)",
    "drop m33 N2->N7 Accept(1.N2, slot 1, x=2 (C2#1), commit 0)",
    "deliver m34 N3->N2 Accepted(1.N2, slot 1)",
    "deliver m35 N4->N2 Accepted(1.N2, slot 1)",
    "deliver m36 N5->N2 Accepted(1.N2, slot 1)",
    "deliver m37 N2->C2 Reply(#1, written)",
    "trim N2 through slot 1",
    "deliver m39 N2->N3 Accept(1.N2, slot 2, trim through 1, commit 1)",
    "deliver m40 N2->N4 Accept(1.N2, slot 2, trim through 1, commit 1)",
    "deliver m41 N2->N5 Accept(1.N2, slot 2, trim through 1, commit 1)",
    "drop m38 N2->N1 Accept(1.N2, slot 2, trim through 1, commit 1)",
    "drop m42 N2->N6 Accept(1.N2, slot 2, trim through 1, commit 1)",
    "drop m43 N2->N7 Accept(1.N2, slot 2, trim through 1, commit 1)",
    "deliver m44 N3->N2 Accepted(1.N2, slot 2)",
    "deliver m45 N4->N2 Accepted(1.N2, slot 2)",
    "deliver m46 N5->N2 Accepted(1.N2, slot 2)",
    "tick N2",
    "deliver m51 N2->N6 Heartbeat(1.N2, commit 2)",
    "drop m47 N2->N1 Heartbeat(1.N2, commit 2)",
    "drop m48 N2->N3 Heartbeat(1.N2, commit 2)",
    "drop m49 N2->N4 Heartbeat(1.N2, commit 2)",
    "drop m50 N2->N5 Heartbeat(1.N2, commit 2)",
    "drop m52 N2->N7 Heartbeat(1.N2, commit 2)",
    "deliver m53 N6->N2 HeartbeatAck(1.N2, chosen 0)",
    "tick N1",
    "drop m55 N1->N2 Heartbeat(1.N1, commit 0)",
    "drop m56 N1->N3 Heartbeat(1.N1, commit 0)",
    "drop m57 N1->N4 Heartbeat(1.N1, commit 0)",
    "drop m58 N1->N5 Heartbeat(1.N1, commit 0)",
    "drop m60 N1->N7 Heartbeat(1.N1, commit 0)",
    "drop m61 N1->N2 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "drop m62 N1->N3 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "drop m63 N1->N4 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "drop m64 N1->N5 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "drop m65 N1->N6 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
];

/// Seven nodes, majorities of four: C1 writes x=1..4 and C2 reads x three times, each at any
/// node; two trims; three partitions, so a stale leader may stay cut off with two followers
/// while the other four elect and compact; ticks, a crash, drops and duplicates.
fn seven_nodes_cut_in_two() -> LogWorldConfig {
    let mut config = log(
        vec![writes("x", 4), vec![ClientOp::read("x"); 3]],
        Budget::NONE
            .with(Fault::Tick, 40)
            .with(Fault::Partition, 3)
            .with(Fault::Crash, 1)
            .with(Fault::Drop, 4)
            .with(Fault::Duplicate, 2),
        2,
    );
    config.node_count = 7;
    config
}

/// Every Act III scenario, in the order `paros-sim list` prints them.
pub fn all() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "act3-leader-below-a-floor",
            claim: text(
                "A new leader whose Phase-1 quorum reports a floor above what it knows proposes nothing at or below that floor, and learns what lies there from a trim point.",
            ),
            world: text(
                "N1-N3. Prelude: x=1 chosen in slot 1 and a trim through slot 1 decided in slot 2, both by {N1, N2}; N1 applied both (floor 1); N3 has heard nothing. Then 1 tick (N3 may stand) and every schedule.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_TRUNCATION),
            setup: setup(leader_below_a_floor(), &n1_trims_n3_stranded()),
        },
        act3_trim_ignores_floor_control(),
        Scenario {
            name: "act3-jump-keeps-promise",
            claim: text(
                "Every schedule of a trim, a jump, a second election and a crash keeps each node's promise and its votes across a jump, and every decision, trim point and reply correct.",
            ),
            world: text(
                "N1-N3. Prelude: x=1 chosen in slot 1 and a trim through slot 1 decided in slot 2, both by {N1, N2}; N1 applied both (floor 1), then beat, and N2 learned both (floor 1); N3 promised 1.N1 and holds no entry. Then 1 tick (an election), 1 crash (and its restart) and every schedule: N3 jumps when N1 answers its heartbeat's ack, or when a Promise or an Accept below the floor reaches it.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_TRUNCATION),
            setup: setup(jump_after_a_new_promise(), &n1_trims_then_beats()),
        },
        act3_jump_moves_promise_control(),
        Scenario {
            name: "act3-seven-nodes-cut-in-two",
            claim: text(
                "Over seven nodes cut in two, a leader left with a minority beside a majority that elects, chooses and compacts never learns, nor teaches, a value that was not chosen, and every client request is answered once faults stop.",
            ),
            world: text(
                "N1-N7, majorities of four; C1 writes x=1..4, C2 reads x three times, each at any node; 2 trims; 40 ticks, 3 partitions, 1 crash, 4 drops, 2 duplicates.",
            ),
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 2_000,
                max_steps: 1_500,
            },
            levels: &[],
            chapter: Some(CHAPTER_TRUNCATION),
            setup: setup(seven_nodes_cut_in_two(), &[]),
        },
        Scenario {
            name: "act3-stale-leader-and-a-jump",
            claim: text(
                "A leader deposed by a quorum it cannot hear, and the node that jumps to the new leader's trim point, never turn a vote the old leader's ballot gave into a decision: a trim point carries decisions of a higher ballot, and no one learns from it a value that was not chosen.",
            ),
            world: text(
                "N1-N7, majorities of four. Prelude: N1 elected at 1.N1 by {N1, N5, N6, N7}; C1's x=1 voted in slot 1 by N1 and N7 only; N2 elected at 1.N2 by {N2, N3, N4, N5}, which choose C2's x=2 in slot 1 and a trim through slot 1 in slot 2; N2 applied both (floor 1) and heard N6's heartbeat ack, which promised only 1.N1; N2's trim point to N6 in flight; N1 beats, its heartbeat to N6 in flight; every other message lost. Then 1 tick and every schedule.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_TRUNCATION),
            setup: setup(stale_leader_and_a_jump(), STALE_LEADER_PRELUDE),
        },
        Scenario {
            name: "act3-fresh-leader-trap",
            claim: text(
                "A read sent to a freshly elected leader, after a write the old leader acknowledged, waits until the inherited slot is decided again and applied: every schedule is linearizable.",
            ),
            world: text(
                "N1-N3. Prelude: N1 leads and answered C1 \"written\" for x=1, chosen by {N1, N2}; N2 has not learned it. Then C1 reads x at any node; 1 tick (a new election), every schedule.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &["act3/the-fresh-leader-trap"],
            chapter: Some(CHAPTER_READS),
            setup: setup(fresh_leader(), &x1_written()),
        },
        act3_read_at_applied_control(),
        Scenario {
            name: "act3-chosen-is-not-applied",
            claim: text(
                "A retried write whose first copy is chosen above a hole is proposed again in a new slot, and still applies once: the session table de-duplicates at apply time.",
            ),
            world: text(
                "N1-N3, N1 elected at 1.N1 (prelude); C1 writes x=a and C2 writes y=b, both at N1; one client may send its write once more; every schedule.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &["act3/chosen-is-not-applied"],
            chapter: Some(CHAPTER_READS),
            setup: setup(retry_above_a_hole(), N1_LEADS),
        },
        act3_dedup_at_propose_control(),
        Scenario {
            name: "act3-truncate-by-consensus",
            claim: text(
                "Trims decided like any command move each node's floor only when its own walk applies them; every trim point is the state its slots made, sessions included.",
            ),
            world: text(
                "N1-N3; C1 writes x=1..6; 4 trims; 60 ticks, 2 crashes, 3 drops, 2 duplicates.",
            ),
            modes: SIMULATION,
            book_mode: LEVEL_SWEEP,
            levels: &["act3/truncate-by-consensus"],
            chapter: Some(CHAPTER_TRUNCATION),
            setup: setup(truncate_by_consensus(), &[]),
        },
        act3_learns_below_the_floor_control(),
        Scenario {
            name: "act3-stranded-node",
            claim: text(
                "A node cut off while the others compact catches up by a jump to a trim point, and the jump never moves its promise nor its votes above the trim point.",
            ),
            world: text(
                "N1-N3 stepwise; C1 writes x=1..5; 4 trims; 80 ticks, 3 partitions, 2 crashes, 1 torn write, 3 drops.",
            ),
            modes: SIMULATION,
            book_mode: LEVEL_SWEEP,
            levels: &["act3/the-stranded-node"],
            chapter: Some(CHAPTER_TRUNCATION),
            setup: setup(
                stepwise(log(
                    vec![writes("x", 5)],
                    Budget::NONE
                        .with(Fault::Tick, 80)
                        .with(Fault::Partition, 3)
                        .with(Fault::Crash, 2)
                        .with(Fault::TornWrite, 1)
                        .with(Fault::Drop, 3),
                    4,
                )),
                &[],
            ),
        },
        Scenario {
            name: "act3-leader-with-a-stale-vote",
            claim: text(
                "A leader elected again after a restart, by a Phase-1 quorum without its own Promise, fills its own stale vote above its next slot, so a read it serves is answered once faults stop, with no more writes and no election.",
            ),
            world: text(
                "N1-N3, messages to self in flight; C1 writes x=1, C2 reads x, both at N1. Prelude: N1 elected at 1.N1; x=1 chosen in slot 1 by all three and acknowledged; a trim through slot 1 proposed in slot 2 and voted by N1 alone; N1 crashes and restarts. Then 1 tick; seeded walks, each followed by the fair schedule.",
            ),
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 2_000,
                max_steps: 1_000,
            },
            levels: &[],
            chapter: Some(CHAPTER_READS),
            setup: setup(leader_with_a_stale_vote(), STALE_VOTE_AT_THE_LEADER),
        },
        Scenario {
            name: "act3-linearizable-or-not",
            claim: text(
                "Two clients writing and reading across leader changes, partitions and crashes see a linearizable history.",
            ),
            world: text(
                "N1-N3; C1 and C2 each write then read their own key and the other's (8 operations each); 3 trims; 80 ticks, 2 partitions, 2 crashes, 3 drops, 3 client resends.",
            ),
            modes: SIMULATION,
            book_mode: LEVEL_SWEEP,
            levels: &["act3/linearizable-or-not"],
            chapter: Some(CHAPTER_READS),
            setup: setup(
                log(
                    vec![cross_reads("x", "y", 4), cross_reads("y", "x", 4)],
                    Budget::NONE
                        .with(Fault::Tick, 80)
                        .with(Fault::Partition, 2)
                        .with(Fault::Crash, 2)
                        .with(Fault::Drop, 3)
                        .with(Fault::ClientResend, 3),
                    3,
                ),
                &[],
            ),
        },
        Scenario {
            name: "act3-long",
            claim: text(
                "Two clients' 200 operations, with the log compacted every few slots, stay safe and linearizable through every kind of fault at once, jumps included.",
            ),
            world: text(
                "N1-N3 stepwise; C1 and C2 each run 100 operations (write, then read, of their own key); 60 trims; 3,000 ticks, 20 drops, 20 duplicates, 4 crashes, 2 torn writes, 4 partitions, 20 client resends.",
            ),
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 100,
                max_steps: 30_000,
            },
            levels: &[],
            chapter: Some(CHAPTER_TRUNCATION),
            setup: setup(
                stepwise(log(
                    vec![writes_and_reads("x", 100), writes_and_reads("y", 100)],
                    Budget::NONE
                        .with(Fault::Tick, 3_000)
                        .with(Fault::Drop, 20)
                        .with(Fault::Duplicate, 20)
                        .with(Fault::Crash, 4)
                        .with(Fault::TornWrite, 2)
                        .with(Fault::Partition, 4)
                        .with(Fault::ClientResend, 20),
                    60,
                )),
                &[],
            ),
        },
    ]
}

/// Persist and send as actions of their own, so crashes fall at every seam.
fn stepwise(mut config: LogWorldConfig) -> LogWorldConfig {
    config.stepwise_ready = true;
    config
}

/// `count` rounds of: write `own`, then read `other`.
fn cross_reads(own: &str, other: &str, count: usize) -> Vec<ClientOp> {
    (1..=count)
        .flat_map(|round| {
            [
                ClientOp::write(own, &round.to_string()),
                ClientOp::read(other),
            ]
        })
        .collect()
}

/// The world of `act3-truncate-by-consensus`: C1 writes x=1..6, with four trims, on three nodes
/// with ticks, crashes, drops and duplicates.
fn truncate_by_consensus() -> LogWorldConfig {
    log(
        vec![writes("x", 6)],
        Budget::NONE
            .with(Fault::Tick, 60)
            .with(Fault::Crash, 2)
            .with(Fault::Drop, 3)
            .with(Fault::Duplicate, 2),
        4,
    )
}

/// The scenario `act3-learns-below-the-floor-control`.
fn act3_learns_below_the_floor_control() -> Scenario {
    Scenario {
        name: "act3-learns-below-the-floor-control",
        claim: text(
            "Negative control: a node that records a late Chosen for a slot it has already compacted keeps that slot beside its trim point; the nothing-below-floor checker must catch it.",
        ),
        world: text(
            "The world of act3-truncate-by-consensus, where learning a slot chosen ignores the floor.",
        ),
        modes: SIMULATION,
        book_mode: LEVEL_SWEEP,
        levels: &[],
        chapter: Some(CHAPTER_TRUNCATION),
        setup: setup(
            with_control(
                truncate_by_consensus(),
                NegativeControl::LearnsBelowTheFloor,
            ),
            &[],
        ),
    }
}

/// The scenario `act3-trim-ignores-floor-control`.
fn act3_trim_ignores_floor_control() -> Scenario {
    Scenario {
        name: "act3-trim-ignores-floor-control",
        claim: text(
            "Negative control: a leader that does not read the floor from Promises fills a compacted, already-chosen slot with a no-op; the trimmed-slots-kept checker must catch it.",
        ),
        world: text(
            "The world of act3-leader-below-a-floor, where every Promise's floor is hidden from the candidate.",
        ),
        modes: BOTH_MODES,
        book_mode: BookMode::Exhaustive,
        levels: &[],
        chapter: Some(CHAPTER_TRUNCATION),
        setup: setup(
            with_control(leader_below_a_floor(), NegativeControl::TrimIgnoresFloor),
            &n1_trims_n3_stranded(),
        ),
    }
}

/// The scenario `act3-jump-moves-promise-control`.
fn act3_jump_moves_promise_control() -> Scenario {
    Scenario {
        name: "act3-jump-moves-promise-control",
        claim: text(
            "Negative control: a node that takes the sender's ballot as its promise when it installs a trim point lowers a promise it gave a newer leader; the jump-keeps-promise checker must catch it.",
        ),
        world: text(
            "The world of act3-jump-keeps-promise, where installing a trim point sets the promise to the ballot it came with.",
        ),
        modes: BOTH_MODES,
        book_mode: BookMode::Exhaustive,
        levels: &[],
        chapter: Some(CHAPTER_TRUNCATION),
        setup: setup(
            with_control(
                jump_after_a_new_promise(),
                NegativeControl::JumpMovesPromise,
            ),
            &n1_trims_then_beats(),
        ),
    }
}

/// The scenario `act3-read-at-applied-control`.
fn act3_read_at_applied_control() -> Scenario {
    Scenario {
        name: "act3-read-at-applied-control",
        claim: text(
            "Negative control: a new leader that answers a read from what it has applied misses a write the old leader acknowledged; the linearizability checker must catch it.",
        ),
        world: text(
            "The world of act3-fresh-leader-trap, where a leader answers a read at once from its applied state.",
        ),
        modes: BOTH_MODES,
        book_mode: BookMode::Exhaustive,
        levels: &[],
        chapter: Some(CHAPTER_READS),
        setup: setup(
            with_control(fresh_leader(), NegativeControl::ReadAtApplied),
            &x1_written(),
        ),
    }
}

/// The scenario `act3-dedup-at-propose-control`.
fn act3_dedup_at_propose_control() -> Scenario {
    Scenario {
        name: "act3-dedup-at-propose-control",
        claim: text(
            "Negative control: a node that de-duplicates retries only when it proposes them applies a retry chosen in two slots twice; the applied-once checker must catch it.",
        ),
        world: text(
            "The world of act3-chosen-is-not-applied, where the apply walk skips the session table.",
        ),
        modes: BOTH_MODES,
        book_mode: BookMode::Exhaustive,
        levels: &[],
        chapter: Some(CHAPTER_READS),
        setup: setup(
            with_control(retry_above_a_hole(), NegativeControl::DedupAtPropose),
            N1_LEADS,
        ),
    }
}

/// The negative controls among [`all`], in its order: the scenarios a replay can show.
pub(super) fn controls() -> Vec<Scenario> {
    vec![
        act3_trim_ignores_floor_control(),
        act3_jump_moves_promise_control(),
        act3_read_at_applied_control(),
        act3_dedup_at_propose_control(),
    ]
}

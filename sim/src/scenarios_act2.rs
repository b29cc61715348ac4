//! Act II's scenarios: the replicated log of three `ColocatedNode`s, with clients, clocks,
//! disks and faults. Most worlds are far too large to finish, so the book samples them with
//! seeded walks and says so; `act2-exhaustive` is the world the explorer does finish.

use super::{BookMode, Scenario, Setup, text};
use crate::faults::{Budget, Fault, NegativeControl};
use crate::replicated_log::{ClientOp, LogWorldConfig};
use crate::report::Mode;
use paros_core::NodeId;
use std::num::NonZeroU16;

/// The chapter on the durable record and persist-before-send.
pub const CHAPTER_CRASH: &str = "Crash and restart safety";
/// The chapter on slots, the chosen index and the apply walk.
pub const CHAPTER_LOG: &str = "From one value to a log";
/// The chapter on elections, the recovery duty and steady state.
pub const CHAPTER_LEADER: &str = "The stable leader";
/// The chapter on linearizable reads.
pub const CHAPTER_READS: &str = "Why reads are not free";

pub(super) const BOTH_MODES: &[Mode] = &[Mode::Exhaustive, Mode::Simulation];
pub(super) const SIMULATION: &[Mode] = &[Mode::Simulation];

/// A level's world, sampled: this many seeds, each walk at most this many actions.
pub(super) const LEVEL_SWEEP: BookMode = BookMode::Simulation {
    seeds: 2_000,
    max_steps: 1_000,
};

/// A prelude: N1 is elected at 1.N1 by {N1, N2}; its Prepare to N3 is still in flight.
pub(super) const N1_LEADS: &[&str] = &[
    "tick N1",
    "deliver m1 N1->N2 Prepare(1.N1, from slot 1)",
    "deliver m3 N2->N1 Promise(1.N1, [])",
];

/// The prelude `first`, then the actions `then`.
pub(super) fn and_then(first: &[&'static str], then: &[&'static str]) -> Vec<&'static str> {
    [first, then].concat()
}

/// A prelude: [`N1_LEADS`], then C1's write of x=1 is chosen in slot 1 by {N1, N2} and N1
/// learns it; N2 voted but has not learned it, and N3 has heard nothing.
pub(super) fn x1_chosen() -> Vec<&'static str> {
    let x1 = [
        "request C1 N1 write x=1",
        "deliver m4 C1->N1 Write(#1, x=1)",
        "deliver m5 N1->N2 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
        "deliver m7 N2->N1 Accepted(1.N1, slot 1)",
    ];
    and_then(N1_LEADS, &x1)
}

/// A prelude: [`x1_chosen`], then N2 crashes, its disk is wiped, and it restarts: refused by
/// the library, but blank as if new in the control, which ignores the refusal.
fn x1_chosen_then_n2_wiped_restarts() -> Vec<&'static str> {
    and_then(&x1_chosen(), &["crash N2", "wipe N2", "restart N2"])
}

/// The same in a stepwise world where N2's Accepted leaves before its vote is durable.
const X1_SENT_BEFORE_PERSIST_THEN_N2_RESTARTS: &[&str] = &[
    "tick N1",
    "persist N1",
    "send N1",
    "persist N1",
    "send N1",
    "deliver m1 N1->N2 Prepare(1.N1, from slot 1)",
    "persist N2",
    "send N2",
    "deliver m3 N2->N1 Promise(1.N1, [])",
    "request C1 N1 write x=1",
    "deliver m4 C1->N1 Write(#1, x=1)",
    "send N1",
    "persist N1",
    "send N1",
    "deliver m5 N1->N2 Accept(1.N1, slot 1, x=1 (C1#1), commit 0)",
    "send N2",
    "crash N2",
    "deliver m7 N2->N1 Accepted(1.N1, slot 1)",
    "persist N1",
    "send N1",
    "restart N2",
];

/// A prelude where messages to self travel the network. N3 is elected at 1.N3 by all three and
/// gives slot 1 to C1's x=1; its three Accepts, its own among them, stay in flight. Then N2 is
/// elected at 2.N2 by {N2, N3} (its Prepare to N1 stays in flight) and gives slot 1 to C2's
/// x=2. Three messages are lost: N3's Accept to N2, and N2's Prepare and Accept to N1, so N1
/// still holds only its promise of 1.N3 when it hears of 2.N2.
const TWO_LEADERS_PROPOSE_SLOT_1: &[&str] = &[
    "tick N3",
    "deliver m3 N3->N3 Prepare(1.N3, from slot 1)",
    "deliver m1 N3->N1 Prepare(1.N3, from slot 1)",
    "deliver m2 N3->N2 Prepare(1.N3, from slot 1)",
    "deliver m4 N3->N3 Promise(1.N3, [])",
    "deliver m5 N1->N3 Promise(1.N3, [])",
    "deliver m6 N2->N3 Promise(1.N3, [])",
    "request C1 N3 write x=1",
    "deliver m7 C1->N3 Write(#1, x=1)",
    "tick N2",
    "deliver m12 N2->N2 Prepare(2.N2, from slot 1)",
    "deliver m13 N2->N3 Prepare(2.N2, from slot 1)",
    "deliver m14 N2->N2 Promise(2.N2, [])",
    "deliver m15 N3->N2 Promise(2.N2, [])",
    "request C2 N2 write x=2",
    "deliver m16 C2->N2 Write(#1, x=2)",
    "drop m9 N3->N2 Accept(1.N3, slot 1, x=1 (C1#1), commit 0)",
    "drop m11 N2->N1 Prepare(2.N2, from slot 1)",
    "drop m17 N2->N1 Accept(2.N2, slot 1, x=2 (C2#1), commit 0)",
];

/// A program of `count` writes of `key`: 1, 2, and so on.
pub(super) fn writes(key: &str, count: usize) -> Vec<ClientOp> {
    (1..=count)
        .map(|value| ClientOp::write(key, &value.to_string()))
        .collect()
}

fn log(clients: Vec<Vec<ClientOp>>, budget: Budget, stepwise_ready: bool) -> LogWorldConfig {
    let mut config = LogWorldConfig::three_nodes(Vec::new());
    config.clients = clients;
    config.budget = budget;
    config.stepwise_ready = stepwise_ready;
    config
}

/// The same world, with messages to self on the wire like any other.
fn self_messages_in_flight(mut config: LogWorldConfig) -> LogWorldConfig {
    config.self_messages_in_flight = true;
    config
}

/// A replicated-log world, and the prelude that brings it to where its schedules matter.
pub(super) fn setup(config: LogWorldConfig, prelude: &[&'static str]) -> Setup {
    Setup::Log {
        config,
        prelude: prelude.to_vec(),
    }
}

/// A program of `count` operations alternating a write of `key` and a read of it.
pub(super) fn writes_and_reads(key: &str, count: usize) -> Vec<ClientOp> {
    (1..=count)
        .map(|index| {
            if index % 2 == 1 {
                ClientOp::write(key, &index.to_string())
            } else {
                ClientOp::read(key)
            }
        })
        .collect()
}

/// Node `number` (N1, N2, N3).
pub(super) fn node(number: u8) -> NodeId {
    NodeId::new(number).expect("a node id")
}

/// Three nodes, messages to self in flight, no clients, 2 ticks and 1 crash, and `control`.
fn ballots(control: Option<NegativeControl>) -> LogWorldConfig {
    let mut config = log(
        Vec::new(),
        Budget::NONE.with(Fault::Tick, 2).with(Fault::Crash, 1),
        false,
    );
    config.election_timeout_ticks = 1;
    config.self_messages_in_flight = true;
    config.negative_control = control;
    config
}

/// Three nodes (stepwise or not), C1 writing x=1 and x=2, 2 ticks and 1 crash, and `control`.
fn control(control: NegativeControl, stepwise: bool) -> LogWorldConfig {
    let mut config = log(
        vec![writes("x", 2)],
        Budget::NONE.with(Fault::Tick, 2).with(Fault::Crash, 1),
        stepwise,
    );
    config.election_timeout_ticks = 1;
    config.negative_control = Some(control);
    config
}

/// Three nodes, C1 writing x=1 and then reading x at any node, 1 tick: the local-read control.
fn local_read() -> LogWorldConfig {
    let mut config = log(
        vec![vec![ClientOp::write("x", "1"), ClientOp::read("x")]],
        Budget::NONE.with(Fault::Tick, 1),
        false,
    );
    config.election_timeout_ticks = 1;
    config.negative_control = Some(NegativeControl::LocalRead);
    config
}

/// Three nodes, C1 writing x=1 at N1, 1 tick, and `control`.
fn write_at_n1(control: NegativeControl) -> LogWorldConfig {
    let mut config = log(
        vec![vec![ClientOp::write("x", "1")]],
        Budget::NONE.with(Fault::Tick, 1),
        false,
    );
    config.election_timeout_ticks = 1;
    config.client_targets = vec![Some(node(1))];
    config.negative_control = Some(control);
    config
}

/// Two clients writing x=1 at N3 and x=2 at N2, messages to self in flight, 3 ticks and 3
/// drops (the prelude spends most of them), with `control`.
fn two_leaders(control: Option<NegativeControl>) -> LogWorldConfig {
    let mut config = log(
        vec![
            vec![ClientOp::write("x", "1")],
            vec![ClientOp::write("x", "2")],
        ],
        Budget::NONE.with(Fault::Tick, 3).with(Fault::Drop, 3),
        false,
    );
    config.election_timeout_ticks = 1;
    config.self_messages_in_flight = true;
    config.client_targets = vec![Some(node(3)), Some(node(2))];
    config.negative_control = control;
    config
}

/// The scenario `act2-learning-leaves-the-promise-control`.
fn act2_learning_leaves_the_promise_control() -> Scenario {
    Scenario {
        name: "act2-learning-leaves-the-promise-control",
        claim: text(
            "Negative control: a node that learns an entry chosen at a ballot above its promise and leaves the promise below it holds a vote the vote rule forbids; the votes-within-promise checker must catch it.",
        ),
        world: text(
            "The world of act2-two-leaders-catch-up, where learning a chosen entry leaves the promise where it was.",
        ),
        modes: BOTH_MODES,
        book_mode: BookMode::Exhaustive,
        levels: &[],
        chapter: Some(CHAPTER_LEADER),
        setup: setup(
            two_leaders(Some(NegativeControl::LearningLeavesThePromise)),
            TWO_LEADERS_PROPOSE_SLOT_1,
        ),
    }
}

/// Every Act II scenario, in the order `paros-sim list` prints them.
pub fn all() -> Vec<Scenario> {
    let mut exhaustive = log(
        vec![writes("x", 2)],
        Budget::NONE.with(Fault::Tick, 1).with(Fault::Crash, 1),
        false,
    );
    exhaustive.election_timeout_ticks = 1;
    exhaustive.client_targets = vec![Some(node(1))];
    let mut reads_across_a_restart = log(
        vec![
            vec![ClientOp::write("x", "1")],
            vec![ClientOp::read("x"); 2],
        ],
        Budget::NONE.with(Fault::Tick, 1).with(Fault::Crash, 1),
        false,
    );
    reads_across_a_restart.election_timeout_ticks = 1;
    reads_across_a_restart.client_targets = vec![Some(node(1)), Some(node(2))];
    vec![
        Scenario {
            name: "act2-ballot-never-reused",
            claim: text(
                "A candidate that crashes with its own Prepare still on the wire, and restarts, never stands at a ballot it stood at before.",
            ),
            world: text(
                "N1-N3, messages to self in flight, no clients; election timeout 1 tick; 2 ticks, 1 crash (and its restart), no other faults.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_LEADER),
            setup: setup(ballots(None), &[]),
        },
        act2_forget_ballot_control(),
        Scenario {
            name: "act2-reads-across-a-restart",
            claim: text(
                "Every schedule of a write and two reads at any node, with a crash and restart, answers linearizably and acknowledges only chosen writes.",
            ),
            world: text(
                "N1-N3, N1 elected at 1.N1 (prelude); C1 writes x=1 and C2 reads x twice, each at any node; 1 crash (and its restart), no ticks, no other faults.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_READS),
            setup: setup(reads_across_a_restart, N1_LEADS),
        },
        Scenario {
            name: "act2-two-leaders-catch-up",
            claim: text(
                "Across two elections and a catch-up, with messages to self on the wire, no slot ever has two entries chosen, and no node learns, applies or keeps on disk for a restart any entry but the chosen one.",
            ),
            world: text(
                "N1-N3, messages to self in flight. Prelude: N3 elected at 1.N3 by all three proposes C1's x=1 in slot 1, then N2 elected at 2.N2 by {N2, N3} proposes C2's x=2 there; N3's Accept to N2 and N2's Prepare and Accept to N1 are lost, the rest of both leaders' Accepts are in flight. Then 1 tick (a heartbeat and catch-up, or a third election), no faults; after every write, what each disk would restart with is checked.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_LEADER),
            setup: setup(two_leaders(None), TWO_LEADERS_PROPOSE_SLOT_1),
        },
        act2_learning_leaves_the_promise_control(),
        Scenario {
            name: "act2-exhaustive",
            claim: text(
                "Every schedule of a two-write log with one election and one crash keeps every decision, applies in order, and answers linearizably.",
            ),
            world: text(
                "N1-N3 and C1 (writes x=1, x=2, sent to N1); election timeout 1 tick; 1 tick, 1 crash (and its restart), no other faults.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &[],
            chapter: Some(CHAPTER_LOG),
            setup: setup(exhaustive, &[]),
        },
        Scenario {
            name: "act2-persist-before-send",
            claim: text(
                "With persist and send as separate steps and crashes at every seam, no decision is ever un-made.",
            ),
            world: text(
                "N1-N3 stepwise (persist, then send, as actions); C1 writes x=1, x=2; 30 ticks, 2 crashes, 1 torn write, 1 drop.",
            ),
            modes: SIMULATION,
            book_mode: LEVEL_SWEEP,
            levels: &["act2/persist-before-send"],
            chapter: Some(CHAPTER_CRASH),
            setup: setup(
                log(
                    vec![writes("x", 2)],
                    Budget::NONE
                        .with(Fault::Tick, 30)
                        .with(Fault::Crash, 2)
                        .with(Fault::TornWrite, 1)
                        .with(Fault::Drop, 1),
                    true,
                ),
                &[],
            ),
        },
        Scenario {
            name: "act2-what-survives-a-crash",
            claim: text(
                "A node that crashes and restarts from its disk keeps its promise, its votes and its chosen prefix; a torn last write is dropped, and nothing chosen is lost.",
            ),
            world: text(
                "N1-N3 stepwise; C1 writes x=1, x=2, x=3; 40 ticks, 3 crashes, 2 torn writes, 1 drop, 1 duplicate.",
            ),
            modes: SIMULATION,
            book_mode: LEVEL_SWEEP,
            levels: &["act2/what-survives-a-crash"],
            chapter: Some(CHAPTER_CRASH),
            setup: setup(
                log(
                    vec![writes("x", 3)],
                    Budget::NONE
                        .with(Fault::Tick, 40)
                        .with(Fault::Crash, 3)
                        .with(Fault::TornWrite, 2)
                        .with(Fault::Drop, 1)
                        .with(Fault::Duplicate, 1),
                    true,
                ),
                &[],
            ),
        },
        Scenario {
            name: "act2-log-of-decisions",
            claim: text(
                "Slots are chosen out of order and applied in order: no node applies past a hole, and every slot holds one decision.",
            ),
            world: text(
                "N1-N3; C1 and C2 write three values each; 30 ticks, 3 drops, 2 duplicates.",
            ),
            modes: SIMULATION,
            book_mode: LEVEL_SWEEP,
            levels: &["act2/a-log-of-decisions"],
            chapter: Some(CHAPTER_LOG),
            setup: setup(
                log(
                    vec![writes("x", 3), writes("y", 3)],
                    Budget::NONE
                        .with(Fault::Tick, 30)
                        .with(Fault::Drop, 3)
                        .with(Fault::Duplicate, 2),
                    false,
                ),
                &[],
            ),
        },
        Scenario {
            name: "act2-elect-a-leader",
            claim: text(
                "Leaders come and go by timeouts, crashes and partitions; each new leader's one Phase 1 and recovery duty keep every decision.",
            ),
            world: text(
                "N1-N3; C1 writes x=1..3; 60 ticks, 2 crashes, 2 partitions, 2 drops, 2 client resends.",
            ),
            modes: SIMULATION,
            book_mode: LEVEL_SWEEP,
            levels: &["act2/elect-a-leader"],
            chapter: Some(CHAPTER_LEADER),
            setup: setup(
                self_messages_in_flight(log(
                    vec![writes("x", 3)],
                    Budget::NONE
                        .with(Fault::Tick, 60)
                        .with(Fault::Crash, 2)
                        .with(Fault::Partition, 2)
                        .with(Fault::Drop, 2)
                        .with(Fault::ClientResend, 2),
                    false,
                )),
                &[],
            ),
        },
        Scenario {
            name: "act2-steady-state",
            claim: text(
                "A stream of commands from two clients takes effect once each (a retried command chosen in two slots is applied once) and is applied in the same slot order everywhere, through lost and repeated messages.",
            ),
            world: text(
                "N1-N3; C1 and C2 write five values each; 60 ticks, 4 drops, 4 duplicates, 2 client resends.",
            ),
            modes: SIMULATION,
            book_mode: LEVEL_SWEEP,
            levels: &["act2/steady-state"],
            chapter: Some(CHAPTER_LEADER),
            setup: setup(
                log(
                    vec![writes("x", 5), writes("y", 5)],
                    Budget::NONE
                        .with(Fault::Tick, 60)
                        .with(Fault::Drop, 4)
                        .with(Fault::Duplicate, 4)
                        .with(Fault::ClientResend, 2),
                    false,
                ),
                &[],
            ),
        },
        Scenario {
            name: "act2-permanent-gap",
            claim: text(
                "When a leader dies with a hole in the log, the next leader fills it with a no-op or the reported value, and no retried command applies twice.",
            ),
            world: text(
                "N1-N3; C1 writes a, b, c; 60 ticks, 2 crashes, 4 drops, 3 client resends.",
            ),
            modes: SIMULATION,
            book_mode: LEVEL_SWEEP,
            levels: &["act2/the-permanent-gap"],
            chapter: Some(CHAPTER_LEADER),
            setup: setup(
                self_messages_in_flight(log(
                    vec![vec![
                        ClientOp::write("k", "a"),
                        ClientOp::write("k", "b"),
                        ClientOp::write("k", "c"),
                    ]],
                    Budget::NONE
                        .with(Fault::Tick, 60)
                        .with(Fault::Crash, 2)
                        .with(Fault::Drop, 4)
                        .with(Fault::ClientResend, 3),
                    false,
                )),
                &[],
            ),
        },
        Scenario {
            name: "act2-read-that-lies",
            claim: text(
                "Reads at any node, across leader changes and partitions, are linearizable: a read waits for a Phase-1 quorum's watermark.",
            ),
            world: text(
                "N1-N3; C1 writes x=1, x=2, x=3; C2 reads x three times, at any node; 60 ticks, 2 partitions, 1 crash, 2 drops, 2 client resends.",
            ),
            modes: SIMULATION,
            book_mode: LEVEL_SWEEP,
            levels: &["act2/the-read-that-lies"],
            chapter: Some(CHAPTER_READS),
            setup: setup(
                self_messages_in_flight(log(
                    vec![writes("x", 3), vec![ClientOp::read("x"); 3]],
                    Budget::NONE
                        .with(Fault::Tick, 60)
                        .with(Fault::Partition, 2)
                        .with(Fault::Crash, 1)
                        .with(Fault::Drop, 2)
                        .with(Fault::ClientResend, 2),
                    false,
                )),
                &[],
            ),
        },
        Scenario {
            name: "act2-long",
            claim: text(
                "Two clients' 200 writes and reads stay safe and linearizable through every kind of fault at once.",
            ),
            world: text(
                "N1-N3 stepwise; C1 and C2 each run 100 operations (write, then read, of their own key); 3,000 ticks, 20 drops, 20 duplicates, 4 crashes, 2 torn writes, 4 partitions, 20 client resends.",
            ),
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 100,
                max_steps: 30_000,
            },
            levels: &[],
            chapter: Some(CHAPTER_READS),
            setup: setup(
                log(
                    vec![writes_and_reads("x", 100), writes_and_reads("y", 100)],
                    Budget::NONE
                        .with(Fault::Tick, 3_000)
                        .with(Fault::Drop, 20)
                        .with(Fault::Duplicate, 20)
                        .with(Fault::Crash, 4)
                        .with(Fault::TornWrite, 2)
                        .with(Fault::Partition, 4)
                        .with(Fault::ClientResend, 20),
                    true,
                ),
                &[],
            ),
        },
        act2_window_catch_up(),
        act2_send_before_persist_control(),
        act2_blank_restart_control(),
        act2_local_read_control(),
        act2_early_ack_control(),
        act2_learn_early_control(),
    ]
}

/// The scenario `act2-window-catch-up`: a slot window below the catch-up batch.
fn act2_window_catch_up() -> Scenario {
    let mut config = log(
        vec![writes("x", 8)],
        Budget::NONE
            .with(Fault::Tick, 200)
            .with(Fault::Crash, 1)
            .with(Fault::Drop, 4),
        false,
    );
    config.slot_window = NonZeroU16::new(2);
    config.catch_up_batch = Some(8);
    Scenario {
        name: "act2-window-catch-up",
        claim: text(
            "With a slot window of 2 below a catch-up batch of 8, a node that missed writes while down catches up once faults stop.",
        ),
        world: text(
            "N1-N3, slot window 2, catch-up batch 8; C1 runs 8 writes; 200 ticks, 1 crash, 4 drops.",
        ),
        modes: SIMULATION,
        book_mode: BookMode::Simulation {
            seeds: 200,
            max_steps: 2_000,
        },
        levels: &[],
        chapter: None,
        setup: setup(config, &[]),
    }
}

/// The scenario `act2-forget-ballot-control`.
fn act2_forget_ballot_control() -> Scenario {
    Scenario {
        name: "act2-forget-ballot-control",
        claim: text(
            "Negative control: a node that forgets on restart the ballot it stood at can stand at it again; the ballot-unique checker must catch it.",
        ),
        world: text(
            "The world of act2-ballot-never-reused, where a restarted node's record loses the ballot it stood at.",
        ),
        modes: BOTH_MODES,
        book_mode: BookMode::Exhaustive,
        levels: &[],
        chapter: Some(CHAPTER_LEADER),
        setup: setup(ballots(Some(NegativeControl::ForgetBallot)), &[]),
    }
}

/// The scenario `act2-send-before-persist-control`.
fn act2_send_before_persist_control() -> Scenario {
    Scenario {
        name: "act2-send-before-persist-control",
        claim: text(
            "Negative control: a node whose Accepted leaves before its vote is durable can un-make a decision; the agreement checker must catch it.",
        ),
        world: text(
            "N1-N3 stepwise, sends allowed before persists. Prelude: x=1 is chosen by {N1, N2} with N2's vote not yet durable, N2 crashes and restarts without it. Then 1 tick and every schedule.",
        ),
        modes: BOTH_MODES,
        book_mode: BookMode::Exhaustive,
        levels: &[],
        chapter: Some(CHAPTER_CRASH),
        setup: setup(
            control(NegativeControl::SendBeforePersist, true),
            X1_SENT_BEFORE_PERSIST_THEN_N2_RESTARTS,
        ),
    }
}

/// The scenario `act2-blank-restart-control`.
fn act2_blank_restart_control() -> Scenario {
    Scenario {
        name: "act2-blank-restart-control",
        claim: text(
            "Negative control: a node whose disk was wiped, restarted as if new in spite of the library's refusal, forgets its vote and can un-make a decision; the agreement checker must catch it.",
        ),
        world: text(
            "N1-N3. Prelude: x=1 is chosen by {N1, N2}; N2 crashes, its disk is wiped, and it comes back blank. Then 1 tick and every schedule.",
        ),
        modes: BOTH_MODES,
        book_mode: BookMode::Exhaustive,
        levels: &[],
        chapter: Some(CHAPTER_CRASH),
        setup: setup(
            {
                let mut config = control(NegativeControl::BlankRestart, false);
                config.budget = config.budget.with(Fault::WipeDisk, 1);
                config
            },
            &x1_chosen_then_n2_wiped_restarts(),
        ),
    }
}

/// The scenario `act2-local-read-control`.
fn act2_local_read_control() -> Scenario {
    Scenario {
        name: "act2-local-read-control",
        claim: text(
            "Negative control: a node that answers a read from its own log can return a stale value; the linearizability checker must catch it.",
        ),
        world: text(
            "N1-N3; C1 writes x=1 then reads x at any node, which answers from its applied state at once; 1 tick, no faults.",
        ),
        modes: BOTH_MODES,
        book_mode: BookMode::Exhaustive,
        levels: &[],
        chapter: Some(CHAPTER_READS),
        setup: setup(local_read(), &[]),
    }
}

/// The scenario `act2-early-ack-control`.
fn act2_early_ack_control() -> Scenario {
    Scenario {
        name: "act2-early-ack-control",
        claim: text(
            "Negative control: a leader that answers \"written\" when a write arrives, before it is chosen, tells a client something false; the written-is-chosen checker must catch it.",
        ),
        world: text(
            "N1-N3; C1 writes x=1 at N1, which acknowledges it at once; 1 tick, no faults.",
        ),
        modes: BOTH_MODES,
        book_mode: BookMode::Exhaustive,
        levels: &[],
        chapter: Some(CHAPTER_LEADER),
        setup: setup(write_at_n1(NegativeControl::EarlyAck), &[]),
    }
}

/// The scenario `act2-learn-early-control`.
fn act2_learn_early_control() -> Scenario {
    Scenario {
        name: "act2-learn-early-control",
        claim: text(
            "Negative control: a node that takes a leader's Accept as word that its entry is chosen learns it before any quorum has voted; the learned-is-chosen checker must catch it.",
        ),
        world: text(
            "N1-N3; C1 writes x=1 at N1; a node that receives an Accept learns its entry chosen at once; 1 tick, no faults.",
        ),
        modes: BOTH_MODES,
        book_mode: BookMode::Exhaustive,
        levels: &[],
        chapter: Some(CHAPTER_LOG),
        setup: setup(write_at_n1(NegativeControl::LearnEarly), &[]),
    }
}

/// The negative controls among [`all`], in its order: the scenarios a replay can show.
pub(super) fn controls() -> Vec<Scenario> {
    vec![
        act2_forget_ballot_control(),
        act2_send_before_persist_control(),
        act2_blank_restart_control(),
        act2_local_read_control(),
        act2_early_ack_control(),
    ]
}

//! The worlds the game's levels start from, by name: one definition each, which the game's
//! stages point at and `paros-sim replay` builds, so a position played in the browser replays
//! natively on exactly the world the player saw.
//!
//! A level world is a configuration and a prelude of world actions in the short forms
//! [`Model::parse_action`] reads (`deliver P1->A2 Prepare`, `tick N1`, `request C1 N1`). It is
//! not a scenario: it claims nothing, and the book runs no report on it. A single-stage level's
//! world is named by the level's id (`act2/the-permanent-gap`); a level of several stages names
//! each by the id and the stage's number from 1 (`act1/adopt-the-value/2`).

use crate::Error;
use crate::faults::{Budget, Fault};
use crate::matchmaker::{LeaderPlan, MatchmakerWorldConfig};
use crate::model::Model;
use crate::replicated_log::{ClientOp, LogWorldConfig};
use crate::single_decree::{DecreeWorldConfig, ProposerConfig};
use paros_core::{NodeId, NodeSet, Quorums, Value};

/// The world a level's stage starts from.
#[derive(Debug)]
pub struct LevelWorld<C: 'static> {
    /// Its name: the level's id, and `/N` for stage N of a level with several.
    pub name: &'static str,
    /// Its configuration.
    pub config: fn() -> C,
    /// World actions applied before the player arrives, in the short forms
    /// [`Model::parse_action`] reads.
    pub prelude: &'static [&'static str],
}

impl<C> LevelWorld<C> {
    /// The world after its prelude. An action that does not parse or is refused is an
    /// [`Error::Replay`] naming it.
    pub fn start<M: Model<Config = C>>(&self) -> Result<M, Error> {
        let mut world = M::build((self.config)()).map_err(|refused| Error::Replay {
            index: 0,
            action: "(the world's configuration)".into(),
            why: refused.to_string(),
        })?;
        for (index, text) in self.prelude.iter().enumerate() {
            let fail = |why: String| Error::Replay {
                index,
                action: (*text).to_owned(),
                why,
            };
            let action = world.parse_action(text).map_err(fail)?;
            world
                .apply(&action)
                .map_err(|refused| fail(refused.to_string()))?;
        }
        Ok(world)
    }
}

/// A level world of either kind, as [`find`] returns it.
#[derive(Clone, Copy, Debug)]
pub enum Found {
    /// An Act I world of single-decree Paxos.
    Act1(&'static LevelWorld<DecreeWorldConfig>),
    /// A replicated-log world (Acts II to IV).
    Log(&'static LevelWorld<LogWorldConfig>),
    /// A Matchmaker Paxos world (Act IV).
    Matchmaker(&'static LevelWorld<MatchmakerWorldConfig>),
}

impl Found {
    /// The world's name.
    pub fn name(self) -> &'static str {
        match self {
            Found::Act1(world) => world.name,
            Found::Log(world) => world.name,
            Found::Matchmaker(world) => world.name,
        }
    }
}

/// Act I's level worlds, in the order of the level map.
pub static ACT1: &[&LevelWorld<DecreeWorldConfig>] = &[
    &CHOOSE_A_VALUE,
    &BE_THE_ACCEPTOR,
    &ADOPT_NOTHING_REPORTED,
    &ADOPT_ONE_VOTE,
    &ADOPT_TWO_VOTES,
    &THE_DUEL,
    &QUORUM_INTERSECTION,
    &RECOVERY_IS_NOT_CATCH_UP,
];

/// The replicated log's level worlds (Acts II to IV), in the order of the level map.
pub static LOG: &[&LevelWorld<LogWorldConfig>] = &[
    &PERSIST_BEFORE_SEND,
    &A_LOG_OF_DECISIONS,
    &ELECT_A_LEADER,
    &STEADY_STATE,
    &THE_PERMANENT_GAP,
    &WHAT_SURVIVES_A_CRASH,
    &THE_READ_THAT_LIES,
    &TRUNCATE_BY_CONSENSUS,
    &THE_STRANDED_NODE,
    &THE_FRESH_LEADER_TRAP,
    &LINEARIZABLE_OR_NOT,
    &CHOSEN_IS_NOT_APPLIED,
    &FLEXIBLE_QUORUMS,
    &THE_GRID,
    &QUORUM_READS,
    &THE_HANDOFF,
    &PROXY_LEADERS,
    &FAULTY_RECORDS,
    &THE_WIPED_NODE,
];

/// The Matchmaker Paxos level worlds (Act IV), in the order of the level map.
pub static MATCHMAKER: &[&LevelWorld<MatchmakerWorldConfig>] = &[
    &MATCHMAKING,
    &RECONFIGURE,
    &GARBAGE_COLLECTION,
    &MATCHMAKER_GENERATIONS,
];

/// The level world with this name.
pub fn find(name: &str) -> Option<Found> {
    let act1 = ACT1.iter().find(|world| world.name == name);
    let log = LOG.iter().find(|world| world.name == name);
    let matchmaker = MATCHMAKER.iter().find(|world| world.name == name);
    act1.map(|world| Found::Act1(world))
        .or_else(|| log.map(|world| Found::Log(world)))
        .or_else(|| matchmaker.map(|world| Found::Matchmaker(world)))
}

/// Every level world's name, Act I's first, the matchmaker worlds last.
pub fn names() -> impl Iterator<Item = &'static str> {
    let act1 = ACT1.iter().map(|world| world.name);
    let matchmaker = MATCHMAKER.iter().map(|world| world.name);
    act1.chain(LOG.iter().map(|world| world.name))
        .chain(matchmaker)
}

/// N1..N4 as a 2x2 grid, row by row (rows {N1, N2} and {N3, N4}), one client per program, an
/// election timeout of 1 tick, and `budget`.
pub fn two_by_two(programs: &[&[(&str, &str)]], budget: Budget) -> LogWorldConfig {
    let mut config = cluster(programs, budget);
    config.node_count = 4;
    config.election_timeout_ticks = 1;
    let rows: Vec<Vec<NodeId>> = [[0, 1], [2, 3]]
        .iter()
        .map(|row| row.iter().map(|&index| config.node_id(index)).collect())
        .collect();
    config.quorums =
        Some(Quorums::grid(&rows).unwrap_or_else(|error| panic!("a full 2x2 grid: {error}")));
    config
}

/// Three acceptors and one proposer per value; `started[i]` says whether proposer i has sent
/// its Prepares when the world begins.
pub fn three_acceptors(values: &[&str], started: &[bool], budget: Budget) -> DecreeWorldConfig {
    DecreeWorldConfig {
        acceptor_count: 3,
        proposers: values
            .iter()
            .zip(started)
            .map(|(value, started)| ProposerConfig {
                value: Value::new(value),
                started: *started,
            })
            .collect(),
        silent: NodeSet::EMPTY,
        budget,
        negative_control: None,
    }
}

/// Three nodes, one client per program (a pair with an empty value is a read), an election
/// timeout of 2 ticks, and `budget`.
pub fn cluster(programs: &[&[(&str, &str)]], budget: Budget) -> LogWorldConfig {
    let clients: Vec<Vec<ClientOp>> = programs
        .iter()
        .map(|program| {
            program
                .iter()
                .map(|(key, value)| {
                    if value.is_empty() {
                        ClientOp::read(key)
                    } else {
                        ClientOp::write(key, value)
                    }
                })
                .collect()
        })
        .collect();
    // Built from the World's own three-node preset, so a setting added to the World later
    // keeps its default here.
    let mut config = LogWorldConfig::three_nodes(Vec::new());
    config.clients = clients;
    config.election_timeout_ticks = 2;
    config.heartbeat_interval_ticks = 1;
    config.budget = budget;
    config
}

/// Four nodes where any `phase1` of them elect and any `phase2` choose, one client per
/// program, an election timeout of 1 tick, and `budget`.
pub fn four_flexible(
    programs: &[&[(&str, &str)]],
    phase1: usize,
    phase2: usize,
    budget: Budget,
) -> LogWorldConfig {
    let mut config = cluster(programs, budget);
    config.node_count = 4;
    config.election_timeout_ticks = 1;
    let nodes: NodeSet = (0..4).map(|index| config.node_id(index)).collect();
    config.quorums = Some(
        Quorums::flexible(nodes, phase1, phase2)
            .unwrap_or_else(|error| panic!("q1 + q2 > n: {error}")),
    );
    config
}

/// A prelude's first steps: N1 times out and wins N2's promise, so it leads at 1.N1.
pub const N1_LEADS: &[&str] = &[
    "tick N1",
    "tick N1",
    "deliver N1->N2 Prepare",
    "deliver N2->N1 Promise",
];

// Act I.

/// `act1/choose-a-value`.
pub static CHOOSE_A_VALUE: LevelWorld<DecreeWorldConfig> = LevelWorld {
    name: "act1/choose-a-value",
    config: || {
        let mut config = three_acceptors(&["x"], &[true], Budget::default());
        config.silent.insert(config.acceptor_id(2));
        config
    },
    prelude: &[],
};

/// `act1/be-the-acceptor`.
pub static BE_THE_ACCEPTOR: LevelWorld<DecreeWorldConfig> = LevelWorld {
    name: "act1/be-the-acceptor",
    config: || {
        let budget = Budget::NONE.with(Fault::Duplicate, 2).with(Fault::Retry, 1);
        three_acceptors(&["x", "y"], &[true, true], budget)
    },
    prelude: &[],
};

/// P1's Accept(1.P1, x) reached A1 alone, the rest of its round lost, and P2 started: the
/// prelude `act1/adopt-the-value/2` and `act1/recovery-is-not-catch-up` begin with.
macro_rules! one_vote_for_x {
    ($($rest:expr),* $(,)?) => {
        &[
            "deliver P1->A1 Prepare",
            "deliver P1->A2 Prepare",
            "deliver A1->P1 Promise",
            "deliver A2->P1 Promise",
            "deliver P1->A1 Accept",
            "drop P1->A2 Accept",
            "drop P1->A3 Accept",
            "drop P1->A3 Prepare",
            "drop A1->P1 Accepted",
            "start P2",
            $($rest),*
        ]
    };
}

/// `act1/adopt-the-value`, stage 1: nothing reported.
pub static ADOPT_NOTHING_REPORTED: LevelWorld<DecreeWorldConfig> = LevelWorld {
    name: "act1/adopt-the-value/1",
    config: || three_acceptors(&["x", "y"], &[false, true], Budget::default()),
    prelude: &["deliver P2->A1 Prepare", "deliver P2->A2 Prepare"],
};

/// `act1/adopt-the-value`, stage 2: one vote reported.
pub static ADOPT_ONE_VOTE: LevelWorld<DecreeWorldConfig> = LevelWorld {
    name: "act1/adopt-the-value/2",
    config: || {
        let budget = Budget::NONE.with(Fault::Drop, 5);
        three_acceptors(&["x", "y"], &[true, false], budget)
    },
    prelude: one_vote_for_x![
        "deliver P2->A1 Prepare",
        "deliver P2->A2 Prepare",
        "drop P2->A3 Prepare",
    ],
};

/// `act1/adopt-the-value`, stage 3: two votes reported.
pub static ADOPT_TWO_VOTES: LevelWorld<DecreeWorldConfig> = LevelWorld {
    name: "act1/adopt-the-value/3",
    config: || {
        let budget = Budget::NONE.with(Fault::Drop, 9);
        three_acceptors(&["x", "y", "z"], &[true, false, false], budget)
    },
    prelude: one_vote_for_x![
        "deliver P2->A2 Prepare",
        "deliver P2->A3 Prepare",
        "deliver A2->P2 Promise",
        "deliver A3->P2 Promise",
        "deliver P2->A2 Accept",
        "drop P2->A1 Prepare",
        "drop P2->A1 Accept",
        "drop P2->A3 Accept",
        "drop A2->P2 Accepted",
        "start P3",
        "deliver P3->A1 Prepare",
        "deliver P3->A2 Prepare",
        "drop P3->A3 Prepare",
    ],
};

/// `act1/the-duel`: two proposers, two retries each.
pub static THE_DUEL: LevelWorld<DecreeWorldConfig> = LevelWorld {
    name: "act1/the-duel",
    config: || {
        let budget = Budget::NONE.with(Fault::Retry, 2);
        three_acceptors(&["x", "y"], &[true, true], budget)
    },
    prelude: &[],
};

/// `act1/quorum-intersection`.
pub static QUORUM_INTERSECTION: LevelWorld<DecreeWorldConfig> = LevelWorld {
    name: "act1/quorum-intersection",
    config: || three_acceptors(&["x", "y"], &[true, false], Budget::default()),
    prelude: &[
        "deliver P1->A1 Prepare",
        "deliver P1->A2 Prepare",
        "deliver P1->A3 Prepare",
        "deliver A1->P1 Promise",
        "deliver A2->P1 Promise",
        "deliver A3->P1 Promise",
    ],
};

/// `act1/recovery-is-not-catch-up`.
pub static RECOVERY_IS_NOT_CATCH_UP: LevelWorld<DecreeWorldConfig> = LevelWorld {
    name: "act1/recovery-is-not-catch-up",
    config: || {
        let budget = Budget::NONE.with(Fault::Drop, 5);
        three_acceptors(&["x", "y"], &[true, false], budget)
    },
    prelude: one_vote_for_x!["drop P2->A3 Prepare"],
};

// Act II.

/// `act2/persist-before-send`: every Ready is the player's to persist and send.
pub static PERSIST_BEFORE_SEND: LevelWorld<LogWorldConfig> = LevelWorld {
    name: "act2/persist-before-send",
    config: || {
        let budget = Budget::NONE.with(Fault::Crash, 3).with(Fault::Tick, 8);
        // C2's y=2 is not needed to win; it is the other command a wrong answer's
        // demonstration gets chosen in slot 1.
        let mut config = cluster(&[&[("x", "1")], &[("y", "2")]], budget);
        config.stepwise_ready = true;
        config
    },
    prelude: &[
        "tick N1",
        "tick N1",
        // N1 stands: its Ready holds the ballot it stands at and its Prepares.
        "persist N1",
        "send N1",
        // Its own Prepare came back: it promises itself.
        "persist N1",
        "send N1",
        "deliver N1->N2 Prepare",
        "persist N2",
        "send N2",
        "deliver N2->N1 Promise",
        "request C1 N1",
        "deliver C1->N1 Write",
        "send N1",
        "persist N1",
        "send N1",
    ],
};

/// `act2/a-log-of-decisions`.
pub static A_LOG_OF_DECISIONS: LevelWorld<LogWorldConfig> = LevelWorld {
    name: "act2/a-log-of-decisions",
    config: || {
        let budget = Budget::NONE.with(Fault::Tick, 6);
        cluster(&[&[("a", "1")], &[("b", "2")], &[("c", "3")]], budget)
    },
    prelude: &[
        "tick N1",
        "tick N1",
        "deliver N1->N2 Prepare",
        "deliver N2->N1 Promise",
        "request C1 N1",
        "deliver C1->N1 Write",
        "deliver N1->N2 Accept",
        "deliver N2->N1 Accepted",
        "deliver N1->C1 Reply",
        "tick N1",
        "deliver N1->N2 Heartbeat",
        "request C2 N1",
        "deliver C2->N1 Write",
        "request C3 N1",
        "deliver C3->N1 Write",
    ],
};

/// `act2/elect-a-leader`.
pub static ELECT_A_LEADER: LevelWorld<LogWorldConfig> = LevelWorld {
    name: "act2/elect-a-leader",
    config: || {
        let budget = Budget::NONE.with(Fault::Crash, 1).with(Fault::Tick, 10);
        cluster(&[&[("x", "1")], &[("y", "2")], &[("z", "3")]], budget)
    },
    prelude: &[
        "tick N1",
        "tick N1",
        "deliver N1->N2 Prepare",
        "deliver N2->N1 Promise",
        "request C1 N1",
        "deliver C1->N1 Write",
        "deliver N1->N2 Accept",
        "request C2 N1",
        "deliver C2->N1 Write",
        "deliver N1->N3 Accept(1.N1, slot 2",
        "crash N1",
    ],
};

/// `act2/steady-state`.
pub static STEADY_STATE: LevelWorld<LogWorldConfig> = LevelWorld {
    name: "act2/steady-state",
    config: || {
        let budget = Budget::NONE.with(Fault::Tick, 12);
        cluster(
            &[
                &[("a", "1"), ("b", "2"), ("c", "3")],
                &[("d", "4"), ("e", "5")],
            ],
            budget,
        )
    },
    prelude: N1_LEADS,
};

/// `act2/the-permanent-gap`.
pub static THE_PERMANENT_GAP: LevelWorld<LogWorldConfig> = LevelWorld {
    name: "act2/the-permanent-gap",
    config: || {
        let budget = Budget::NONE
            .with(Fault::Drop, 2)
            .with(Fault::Crash, 1)
            .with(Fault::Tick, 8)
            .with(Fault::ClientResend, 1);
        cluster(&[&[("a", "1")], &[("b", "2")]], budget)
    },
    prelude: &[
        "tick N1",
        "tick N1",
        "deliver N1->N2 Prepare",
        "deliver N2->N1 Promise",
        "request C1 N1",
        "deliver C1->N1 Write",
        "request C2 N1",
        "deliver C2->N1 Write",
    ],
};

/// `act2/what-survives-a-crash`.
pub static WHAT_SURVIVES_A_CRASH: LevelWorld<LogWorldConfig> = LevelWorld {
    name: "act2/what-survives-a-crash",
    config: || {
        let budget = Budget::NONE.with(Fault::Crash, 3).with(Fault::Tick, 10);
        cluster(&[&[("a", "1")], &[("b", "2")]], budget)
    },
    prelude: &[
        "tick N2",
        "tick N2",
        "deliver N2->N1 Prepare",
        "deliver N1->N2 Promise",
        "request C1 N2",
        "deliver C1->N2 Write",
    ],
};

/// N1 leads at 1.N1 and answered C1 "written" for its first write, chosen by N1 and N2.
macro_rules! n1_wrote_with_n2 {
    ($($rest:expr),* $(,)?) => {
        &[
            "tick N1",
            "tick N1",
            "deliver N1->N2 Prepare",
            "deliver N2->N1 Promise",
            "request C1 N1",
            "deliver C1->N1 Write",
            "deliver N1->N2 Accept",
            $($rest),*
        ]
    };
}

/// `act2/the-read-that-lies`.
pub static THE_READ_THAT_LIES: LevelWorld<LogWorldConfig> = LevelWorld {
    name: "act2/the-read-that-lies",
    config: || {
        let budget = Budget::NONE.with(Fault::Partition, 1).with(Fault::Tick, 10);
        cluster(&[&[("x", "1"), ("x", "2"), ("x", "")]], budget)
    },
    prelude: n1_wrote_with_n2![
        "deliver N1->N3 Accept",
        "deliver N2->N1 Accepted",
        "deliver N1->C1 Reply",
        "tick N1",
        "deliver N1->N2 Heartbeat",
        "deliver N1->N3 Heartbeat",
        "partition N3",
        "tick N2",
        "tick N2",
        "deliver N2->N1 Prepare",
        "deliver N1->N2 Promise",
        "request C1 N2",
        "deliver C1->N2 Write",
        "deliver N2->N1 Accept",
        "deliver N1->N2 Accepted",
        "deliver N2->C1 Reply",
        "heal",
    ],
};

// Act III.

/// N1 leads at 1.N1 with both followers' promises, and C1's x=1 is chosen by all three in
/// slot 1 and answered.
macro_rules! x1_chosen_by_all {
    ($($rest:expr),* $(,)?) => {
        &[
            "tick N1",
            "tick N1",
            "deliver N1->N2 Prepare",
            "deliver N2->N1 Promise",
            "deliver N1->N3 Prepare",
            "deliver N3->N1 Promise",
            "request C1 N1",
            "deliver C1->N1 Write",
            "deliver N1->N2 Accept",
            "deliver N1->N3 Accept",
            "deliver N2->N1 Accepted",
            "deliver N3->N1 Accepted",
            "deliver N1->C1 Reply",
            $($rest),*
        ]
    };
}

/// `act3/truncate-by-consensus`.
pub static TRUNCATE_BY_CONSENSUS: LevelWorld<LogWorldConfig> = LevelWorld {
    name: "act3/truncate-by-consensus",
    config: || {
        let mut config = cluster(
            &[&[("x", "1")], &[("y", "1")]],
            Budget::NONE.with(Fault::Tick, 12),
        );
        config.trims = 1;
        config
    },
    prelude: x1_chosen_by_all![
        "request C2 N1",
        "deliver C2->N1 Write",
        "deliver N1->N2 Accept",
        "deliver N2->N1 Accepted",
        "deliver N1->C2 Reply",
        "tick N1",
        "deliver N1->N2 Heartbeat",
        "deliver N2->N1 HeartbeatAck",
    ],
};

/// `act3/the-stranded-node`.
pub static THE_STRANDED_NODE: LevelWorld<LogWorldConfig> = LevelWorld {
    name: "act3/the-stranded-node",
    config: || {
        let budget = Budget::NONE.with(Fault::Tick, 12).with(Fault::Partition, 1);
        let mut config = cluster(&[&[("x", "1")], &[("y", "1")]], budget);
        config.trims = 1;
        // What N1 sends N3 while it is cut off is lost: N3 can only jump.
        config.cut_messages_lost = true;
        config
    },
    prelude: x1_chosen_by_all![
        // N1's heartbeat, and the acks: every node learns slot 1 is chosen.
        "tick N1",
        "deliver N1->N2 Heartbeat",
        "deliver N1->N3 Heartbeat",
        "deliver N2->N1 HeartbeatAck",
        "deliver N3->N1 HeartbeatAck",
    ],
};

/// `act3/the-fresh-leader-trap`.
pub static THE_FRESH_LEADER_TRAP: LevelWorld<LogWorldConfig> = LevelWorld {
    name: "act3/the-fresh-leader-trap",
    config: || {
        let budget = Budget::NONE.with(Fault::Tick, 10);
        cluster(&[&[("x", "1"), ("x", "")]], budget)
    },
    prelude: n1_wrote_with_n2![
        "deliver N2->N1 Accepted",
        "deliver N1->C1 Reply",
        "tick N2",
        "tick N2",
        "deliver N2->N3 Prepare",
        "deliver N3->N2 Promise",
    ],
};

/// `act3/linearizable-or-not`.
pub static LINEARIZABLE_OR_NOT: LevelWorld<LogWorldConfig> = LevelWorld {
    name: "act3/linearizable-or-not",
    config: || {
        let budget = Budget::NONE
            .with(Fault::Tick, 10)
            .with(Fault::Partition, 1)
            .with(Fault::Crash, 1)
            .with(Fault::Drop, 2)
            .with(Fault::ClientResend, 2);
        cluster(
            &[
                &[("x", "1"), ("x", "2"), ("x", "")],
                &[("x", ""), ("x", "")],
            ],
            budget,
        )
    },
    prelude: n1_wrote_with_n2!["deliver N2->N1 Accepted", "deliver N1->C1 Reply"],
};

/// `act3/chosen-is-not-applied`: C1 writes x=a and C2 writes y=b, both at N1; one tick (N1's
/// election, at a timeout of one) and one resend.
pub static CHOSEN_IS_NOT_APPLIED: LevelWorld<LogWorldConfig> = LevelWorld {
    name: "act3/chosen-is-not-applied",
    config: || {
        let budget = Budget::NONE
            .with(Fault::Tick, 1)
            .with(Fault::ClientResend, 1);
        let mut config = cluster(&[&[("x", "a")], &[("y", "b")]], budget);
        config.election_timeout_ticks = 1;
        let leader = config.node_id(0);
        config.client_targets = vec![Some(leader), Some(leader)];
        config
    },
    prelude: &[
        "tick N1",
        "deliver N1->N2 Prepare",
        "deliver N2->N1 Promise",
        "request C1 N1",
        "deliver C1->N1 Write",
        "deliver N1->N2 Accept",
        "request C2 N1",
        "deliver C2->N1 Write",
        "deliver N1->N2 Accept(1.N1, slot 2",
        "deliver N2->N1 Accepted(1.N1, slot 2",
    ],
};

// Act IV.

/// `act4/flexible-quorums`: any three of four elect, any two choose.
pub static FLEXIBLE_QUORUMS: LevelWorld<LogWorldConfig> = LevelWorld {
    name: "act4/flexible-quorums",
    config: || {
        let budget = Budget::NONE.with(Fault::Tick, 4).with(Fault::Crash, 2);
        four_flexible(&[&[("x", "1")]], 3, 2, budget)
    },
    prelude: &["tick N1"],
};

/// `act4/the-grid`: N1..N4 as a 2x2 grid, row by row; C1 writes x=1 then x=2.
pub static THE_GRID: LevelWorld<LogWorldConfig> = LevelWorld {
    name: "act4/the-grid",
    config: || {
        two_by_two(
            &[&[("x", "1"), ("x", "2")]],
            Budget::NONE.with(Fault::Tick, 1),
        )
    },
    prelude: &["tick N1"],
};

/// `act4/quorum-reads`: N1..N4 as a 2x2 grid, row by row; C1's x=1 chosen by the column
/// {N1, N3} and voted by N2 and N4 too, known chosen only at N1; C2 reads x twice at N4. Two
/// ticks: the prelude's and one for the leader's heartbeat.
pub static QUORUM_READS: LevelWorld<LogWorldConfig> = LevelWorld {
    name: "act4/quorum-reads",
    config: || {
        let programs: &[&[(&str, &str)]] = &[&[("x", "1")], &[("x", ""), ("x", "")]];
        let mut config = two_by_two(programs, Budget::NONE.with(Fault::Tick, 2));
        config.client_targets = vec![Some(config.node_id(0)), Some(config.node_id(3))];
        config
    },
    prelude: &[
        "tick N1",
        "deliver N1->N2 Prepare",
        "deliver N2->N1 Promise",
        "request C1 N1",
        "deliver C1->N1 Write",
        "deliver N1->N3 Accept",
        "deliver N3->N1 Accepted",
        "deliver N1->C1 Reply",
        "deliver N1->N2 Accept",
        "deliver N1->N4 Accept",
        "deliver N2->N1 Accepted",
        "deliver N4->N1 Accepted",
    ],
};

/// `act4/the-handoff`: C1 talks to N1, C2 to N2, and N1 may hand its ballot off once.
pub static THE_HANDOFF: LevelWorld<LogWorldConfig> = LevelWorld {
    name: "act4/the-handoff",
    config: || {
        let budget = Budget::NONE.with(Fault::Tick, 2).with(Fault::Drop, 2);
        let mut config = cluster(&[&[("x", "1"), ("x", "2")], &[("y", "1")]], budget);
        config.election_timeout_ticks = 1;
        config.handoffs = 1;
        config.client_targets = vec![Some(config.node_id(0)), Some(config.node_id(1))];
        config
    },
    prelude: &[
        "tick N1",
        "drop N1->N2 Prepare",
        "deliver N1->N3 Prepare",
        "deliver N3->N1 Promise",
        "request C1 N1",
        "deliver C1->N1 Write",
        "drop N1->N2 Accept",
        "deliver N1->N3 Accept",
        "deliver N3->N1 Accepted",
        "deliver N1->C1 Reply",
        "request C1 N1",
        "deliver C1->N1 Write",
    ],
};

/// `act4/proxy-leaders`: N1..N3 and proxy leaders P1 and P2; C1 writes x=1 then x=2 at N1,
/// elected in the prelude, and its first request is the player's. N1 sends each Accept to one
/// proxy (slot 1 to P2); a beat resends what is not yet chosen through the other. Three ticks:
/// the prelude's, N1's resend, and one that lets a follower stand (the election timeout is one
/// tick), so a proxy can hold Accepteds of two ballots for one slot.
pub static PROXY_LEADERS: LevelWorld<LogWorldConfig> = LevelWorld {
    name: "act4/proxy-leaders",
    config: || {
        let budget = Budget::NONE
            .with(Fault::Tick, 3)
            .with(Fault::Crash, 1)
            .with(Fault::Drop, 2)
            .with(Fault::Duplicate, 1);
        let mut config = cluster(&[&[("x", "1"), ("x", "2")]], budget);
        config.election_timeout_ticks = 1;
        config.proxies = 2;
        config.client_targets = vec![Some(config.node_id(0))];
        config
    },
    prelude: &[
        "tick N1",
        "deliver N1->N2 Prepare",
        "deliver N2->N1 Promise",
    ],
};

/// Leader plans for a matchmaker world: `(round, acceptors by number, value)` each.
fn leader_plans(plans: &[(u32, &[u8], &str)]) -> Vec<LeaderPlan> {
    (plans.iter())
        .map(|(round, acceptors, value)| LeaderPlan {
            round: *round,
            acceptors: acceptors.to_vec(),
            value: Value::new(value),
        })
        .collect()
}

/// A matchmaker level world's prelude: x chosen at 1.L1 in {A1, A2, A3} by A1 and A2 (A3's
/// Accept lost), known to L1, every matchmaker having recorded round 1; then `$rest`.
macro_rules! x_chosen_in_round_1 {
    ($($rest:expr),* $(,)?) => {
        [
            "start L1",
            "deliver L1->M1 MatchA",
            "deliver L1->M2 MatchA",
            "deliver L1->M3 MatchA",
            "deliver M1->L1 MatchB",
            "deliver M2->L1 MatchB",
            "deliver M3->L1 MatchB",
            "deliver L1->A1 Accept",
            "deliver L1->A2 Accept",
            "drop L1->A3 Accept",
            "deliver A1->L1 Accepted",
            "deliver A2->L1 Accepted",
            $($rest),*
        ]
    };
}

/// `act4/matchmaking`: x chosen at 1.L1 in {A1, A2, A3} (A3's Accept lost); L2 registered
/// 2.L2 in {A2, A3, A4} with M1 and M2 only (its MatchA to M3 and both replies lost), so M3
/// never saw round 2; L3, round 3.L3 in {A2, A3, A4} wanting z, not started. No faults left.
pub static MATCHMAKING: LevelWorld<MatchmakerWorldConfig> = LevelWorld {
    name: "act4/matchmaking",
    config: || MatchmakerWorldConfig {
        acceptor_count: 4,
        leaders: leader_plans(&[
            (1, &[1, 2, 3], "x"),
            (2, &[2, 3, 4], "y"),
            (3, &[2, 3, 4], "z"),
        ]),
        garbage_collection: false,
        replacement: false,
        kept_matchmakers: 0,
        back_to_first_generation: false,
        budget: Budget::NONE.with(Fault::Drop, 4),
        negative_control: None,
    },
    prelude: &x_chosen_in_round_1![
        "start L2",
        "deliver L2->M1 MatchA",
        "deliver L2->M2 MatchA",
        "drop L2->M3 MatchA",
        "drop M1->L2 MatchB",
        "drop M2->L2 MatchB",
    ],
};

/// `act4/reconfigure`: x chosen at 1.L1 in {A1, A2, A3} by A1 and A2 (A3's Accept lost); L2
/// plans round 2.L2 in {A2, A3, A4}, onto the spare A4 and without A1, and is not started. No
/// faults left.
pub static RECONFIGURE: LevelWorld<MatchmakerWorldConfig> = LevelWorld {
    name: "act4/reconfigure",
    config: || MatchmakerWorldConfig {
        acceptor_count: 4,
        leaders: leader_plans(&[(1, &[1, 2, 3], "x"), (2, &[2, 3, 4], "y")]),
        garbage_collection: false,
        replacement: false,
        kept_matchmakers: 0,
        back_to_first_generation: false,
        budget: Budget::NONE.with(Fault::Drop, 1),
        negative_control: None,
    },
    prelude: &x_chosen_in_round_1![],
};

/// `act4/garbage-collection`: x chosen at 1.L1 in {A1, A2, A3} by A1 and A2; L2, round 2.L2
/// in {A2, A3, A4}, registered with every matchmaker and holding A1's Promise, with A2's on
/// its way (its Prepare to A3 lost). Leaders may collect garbage and retire. No faults left.
pub static GARBAGE_COLLECTION: LevelWorld<MatchmakerWorldConfig> = LevelWorld {
    name: "act4/garbage-collection",
    config: || MatchmakerWorldConfig {
        acceptor_count: 4,
        leaders: leader_plans(&[(1, &[1, 2, 3], "x"), (2, &[2, 3, 4], "y")]),
        garbage_collection: true,
        replacement: false,
        kept_matchmakers: 0,
        back_to_first_generation: false,
        budget: Budget::NONE.with(Fault::Drop, 2),
        negative_control: None,
    },
    prelude: &x_chosen_in_round_1![
        "start L2",
        "deliver L2->M1 MatchA",
        "deliver L2->M2 MatchA",
        "deliver L2->M3 MatchA",
        "deliver M1->L2 MatchB",
        "deliver M2->L2 MatchB",
        "deliver M3->L2 MatchB",
        "deliver L2->A1 Prepare",
        "deliver L2->A2 Prepare",
        "drop L2->A3 Prepare",
        "deliver A1->L2 Promise",
    ],
};

/// `act4/matchmaker-generations`: x chosen at 1.L1 in {A1, A2, A3} by A1 and A2, recorded by
/// M1..M3; the reconfigurer R1 may replace them by M4..M6; L2 plans round 2.L2 in {A2, A3,
/// A4} and is not started. No faults left.
pub static MATCHMAKER_GENERATIONS: LevelWorld<MatchmakerWorldConfig> = LevelWorld {
    name: "act4/matchmaker-generations",
    config: || MatchmakerWorldConfig {
        acceptor_count: 4,
        leaders: leader_plans(&[(1, &[1, 2, 3], "x"), (2, &[2, 3, 4], "y")]),
        garbage_collection: false,
        replacement: true,
        kept_matchmakers: 0,
        back_to_first_generation: false,
        budget: Budget::NONE.with(Fault::Drop, 1),
        negative_control: None,
    },
    prelude: &x_chosen_in_round_1![],
};

/// `act4/faulty-records`: N1 leads at 1.N1 and x=1 is chosen in slot 1 by N1 and N2 (N3's
/// Accept still on its way); C1's x=2 is the player's. One crash and one corrupted record (N2's
/// vote in slot 1, in the level's solution, so that N2 answers "unknown" there), and one tick
/// beyond the prelude's, so that N3, which has not heard x=1 is chosen, can stand.
pub static FAULTY_RECORDS: LevelWorld<LogWorldConfig> = LevelWorld {
    name: "act4/faulty-records",
    config: || disk_fault_world(Fault::CorruptRecord),
    prelude: X1_CHOSEN_BY_N1_AND_N2,
};

/// The disk-fault levels' world: C1 writes x=1, x=2; two ticks, one crash and one `disk_fault`;
/// an election timeout of one tick.
fn disk_fault_world(disk_fault: Fault) -> LogWorldConfig {
    let budget = Budget::NONE
        .with(Fault::Tick, 2)
        .with(Fault::Crash, 1)
        .with(disk_fault, 1);
    let mut config = cluster(&[&[("x", "1"), ("x", "2")]], budget);
    config.election_timeout_ticks = 1;
    config
}

/// The disk-fault levels' prelude: N1 is elected by N1 and N2, and C1's x=1 is chosen in slot 1
/// by them and answered; N3's Prepare and Accept are still on their way.
const X1_CHOSEN_BY_N1_AND_N2: &[&str] = &[
    "tick N1",
    "deliver N1->N2 Prepare",
    "deliver N2->N1 Promise",
    "request C1 N1",
    "deliver C1->N1 Write",
    "deliver N1->N2 Accept",
    "deliver N2->N1 Accepted",
    "deliver N1->C1 Reply",
];

/// `act4/the-wiped-node`: N1 leads at 1.N1 and x=1 is chosen in slot 1 by N1 and N2 (N3's
/// Accept still on its way); C1's x=2 is the player's. One crash, one wiped disk (N2's, in the
/// level's solution, so the library refuses its boot and N1 and N3 decide without it), and one
/// tick beyond the prelude's, so that survivors of a wiped leader can elect another.
pub static THE_WIPED_NODE: LevelWorld<LogWorldConfig> = LevelWorld {
    name: "act4/the-wiped-node",
    config: || disk_fault_world(Fault::WipeDisk),
    prelude: X1_CHOSEN_BY_N1_AND_N2,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchmaker::MatchmakerWorld;
    use crate::replicated_log::LogWorld;
    use crate::single_decree::DecreeWorld;

    #[test]
    fn every_level_world_starts() {
        for world in ACT1 {
            let started: Result<DecreeWorld, _> = world.start();
            assert!(started.is_ok(), "{}: {started:?}", world.name);
        }
        for world in LOG {
            let started: Result<LogWorld, _> = world.start();
            assert!(started.is_ok(), "{}: {:?}", world.name, started.err());
        }
        for world in MATCHMAKER {
            let started: Result<MatchmakerWorld, _> = world.start();
            assert!(started.is_ok(), "{}: {:?}", world.name, started.err());
        }
    }

    /// The matchmaking level's world: x chosen at 1.L1, round 2.L2 stored by M1 and M2 but not
    /// M3, and L3 idle, with every drop spent.
    #[test]
    fn the_matchmaking_world_starts_with_x_chosen_and_round_2_on_two_matchmakers() {
        let Some(Found::Matchmaker(found)) = find("act4/matchmaking") else {
            panic!("act4/matchmaking is found");
        };
        let world: MatchmakerWorld = found.start().unwrap();
        let chosen: Vec<String> = (world.chosen().iter())
            .map(|(round, value)| format!("{value} at {}", crate::matchmaker::round_name(*round)))
            .collect();
        assert_eq!(chosen, ["x at 1.L1"]);
        let round_2 = world.config().round_of(1);
        let stores: Vec<bool> = (world.matchmakers().iter())
            .map(|matchmaker| matchmaker.configurations().contains_key(&round_2))
            .collect();
        assert_eq!(stores, [true, true, false]);
        assert_eq!(
            world.leaders()[2].stage(),
            paros_core::matchmaker::Stage::Idle
        );
        assert!(world.in_flight().is_empty(), "{:?}", world.in_flight());
        assert_eq!(world.budget_left(), Budget::NONE);
    }

    /// The proxy level's world starts with N1 leading and C1's first request to make, and one
    /// step through a proxy replays.
    #[test]
    fn the_proxy_leaders_world_starts_with_n1_leading() {
        let Some(Found::Log(found)) = find("act4/proxy-leaders") else {
            panic!("act4/proxy-leaders is found");
        };
        let mut world: LogWorld = found.start().unwrap();
        let leader = world.servers()[0].host.node().unwrap();
        assert_eq!(leader.role(), paros_core::log::LogRole::Leader);
        assert_eq!(world.proxies().len(), 2);
        for step in [
            "request C1 N1",
            "deliver C1->N1 Write",
            "deliver N1->P2 Accept",
        ] {
            let action = world.parse_action(step).unwrap();
            world.apply(&action).unwrap();
        }
        let forwarded = (world.in_flight().iter())
            .filter(|message| world.name(message.envelope.from) == "P2")
            .count();
        assert_eq!(forwarded, 3, "P2 forwards the Accept to N1, N2 and N3");
        assert!(names().any(|name| name == "act4/proxy-leaders"));
    }

    /// The stranded node's world loses what was sent across the cut: once healed, no Accept
    /// N1 sent N3 while N3 was cut off is left to deliver, so N3 can only jump.
    #[test]
    fn the_stranded_node_world_loses_the_accepts_sent_across_the_cut() {
        let Some(Found::Log(found)) = find("act3/the-stranded-node") else {
            panic!("act3/the-stranded-node is found");
        };
        let mut world: LogWorld = found.start().unwrap();
        let to_n3 = |world: &LogWorld| {
            (world.in_flight().iter())
                .filter(|message| world.name(message.envelope.to) == "N3")
                .map(|message| message.id)
                .collect::<Vec<_>>()
        };
        for step in [
            "partition N3",
            "request C2 N1",
            "deliver C2->N1 Write",
            "deliver N1->N2 Accept",
            "deliver N2->N1 Accepted",
        ] {
            let action = world.parse_action(step).unwrap();
            world.apply(&action).unwrap();
        }
        let cut_off = to_n3(&world);
        assert!(!cut_off.is_empty(), "N1 sent N3 its Accept across the cut");
        let heal = world.parse_action("heal").unwrap();
        world.apply(&heal).unwrap();
        let left: Vec<_> = (to_n3(&world).into_iter())
            .filter(|id| cut_off.contains(id))
            .collect();
        assert!(left.is_empty(), "still deliverable after healing: {left:?}");
    }

    #[test]
    fn names_are_unique_and_found() {
        let names: Vec<&str> = names().collect();
        for name in &names {
            assert_eq!(find(name).map(Found::name), Some(*name));
            assert_eq!(names.iter().filter(|other| *other == name).count(), 1);
        }
        assert!(
            find("act1-duel").is_none(),
            "a scenario is not a level world"
        );
    }

    #[test]
    fn a_prelude_that_does_not_replay_names_its_action() {
        let broken = LevelWorld {
            name: "broken",
            config: || three_acceptors(&["x"], &[true], Budget::default()),
            prelude: &["deliver P1->A1 Prepare", "deliver A3->P1 Promise"],
        };
        let error = broken.start::<DecreeWorld>().unwrap_err();
        assert!(
            matches!(&error, Error::Replay { index: 1, action, .. } if action == "deliver A3->P1 Promise"),
            "{error:?}"
        );
    }
}

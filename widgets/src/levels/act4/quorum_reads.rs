//! `act4/quorum-reads`: over a 2x2 grid, x=1 is chosen and acknowledged and voted by every
//! node, but only the leader N1 knows it is chosen. C2 reads x twice at N4, a follower.
//!
//! The player picks the nodes whose answers N4's read waits for (a reach-set prompt judged by
//! paros-core's grid: a Phase-1 quorum, `heard_from_a_discovery_quorum`, that leaves the leader
//! out), delivers the asks and answers, and says at each delivery whether N4 serves or waits
//! (the serve-or-wait prompt, judged by the core on a clone: `read_may_be_served`). The first
//! read is not covered by what N4 has applied and must wait until N4 learns slot 1; the second
//! is covered and is served as soon as its row answers.

use super::BEYOND_MULTI_PAXOS;
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::levels::act2::{pin, running};
use crate::prompt::Prompt;
use crate::prompt::PromptKind;
use crate::replicated_log::prompts::reach_set::{Verdict, pick_nodes};
use crate::replicated_log::prompts::serve::{HELD_FOR_THE_RINSE, SERVED_ON_ITS_ANSWERS};
use crate::replicated_log::{LogMove, ballot_name};
use crate::state::{Change, ChecklistItem, Goal, Memory, Run};
use crate::words::{grid_rows, log_set_name as set_name};
use paros_core::log::{LogMessage, LogRole, heard_from_a_discovery_quorum};
use paros_core::{Grid, NodeId, NodeSet, QuorumSystem, Quorums};
use paros_sim::level_worlds;
use paros_sim::replicated_log::{ClientOp, LogAction, LogWorld};

/// The level.
pub static LEVEL: Level<LogWorld> = Level {
    id: "act4/quorum-reads",
    act: 4,
    title: "Quorum reads",
    briefing: native_text(include_str!("quorum_reads.md")),
    by_hand: "Judge, at each delivery, whether a follower may serve a read with no leader asked",
    teaches: "A linearizable read with no leader and no clock, paid for by waiting",
    goal: "Two reads of x at N4 return the right value with no leader asked, each served at the \
           first moment it is safe",
    chapter: BEYOND_MULTI_PAXOS,
    scenario: "act4-quorum-reads",
    symbols: native_only(&["read_may_be_served", "heard_from_a_discovery_quorum"]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Prompt(PromptKind::ReachSet),
            text: "A read asks every node for its highest accepted slot and may stop at a Phase-1 \
         quorum: in this grid, a full row. N4's own row is {N3, N4}, and the leader is not in \
         it.",
        },
        Hint {
            about: HintFor::Prompt(PromptKind::ServeOrWait),
            text: "The row's highest accepted slot is the watermark. N4 answers once it has applied \
         through it; until then it holds the read. The leader's next heartbeat tells N4 what \
         is chosen.",
        },
    ],
    pins: &[
        pin(Automation::ApplyWalk, true),
        pin(Automation::Heartbeats, false),
    ],
    retry_by_hand: false,
    stages: &[Stage {
        title: "A read at a follower",
        note: "N1-N4 stand in a 2x2 grid: rows {N1, N2} and {N3, N4}. N1 leads; C1's x=1 is \
               chosen in slot 1 by the column {N1, N3} and acknowledged, and N2 and N4 voted \
               for it too, but only N1 knows it is chosen. C2 reads x at N4, twice.",
        world: &level_worlds::QUORUM_READS,
    }],
    solution: native_only(&[
        "request C2 N4",
        "deliver C2->N4 Read",
        "answer wait",
        "answer N3+N4",
        "deliver N4->N3 ReadIndex",
        "deliver N3->N4 ReadIndexReply",
        "answer wait",
        "tick N1",
        "deliver N1->N4 Heartbeat",
        "answer serve",
        "deliver N4->C2 Reply",
        "request C2 N4",
        "deliver C2->N4 Read",
        "answer wait",
        "answer N3+N4",
        "deliver N4->N3 ReadIndex",
        "deliver N3->N4 ReadIndexReply",
        "answer serve",
        "deliver N4->C2 Reply",
    ]),
    solution_unlocked: &[Automation::ApplyWalk],
    rules: &QuorumReads,
};

/// What a right reach set records.
const REACH_SET_PICKED: &str = "a reach set with no leader in it";

/// The follower C2 reads at.
const READER: usize = 4;

struct QuorumReads;

impl Rules<LogWorld> for QuorumReads {
    fn goal(&self, run: &Run<LogWorld>, memory: &Memory) -> Goal {
        if let Some(reason) = leader_answered(run.world()) {
            return Goal::Failed(reason);
        }
        Goal::when_all_done(&self.checklist(run, memory))
    }

    fn checklist(&self, run: &Run<LogWorld>, memory: &Memory) -> Vec<ChecklistItem> {
        let world = run.world();
        let item = |label: &str, record: &str| ChecklistItem::recorded(label, memory, record);
        let returned = reads_returning(world, "1");
        vec![
            item(
                "The nodes whose answers N4's read waits for, picked",
                REACH_SET_PICKED,
            ),
            item(
                "N4's answer to the read before it learns what is chosen, judged",
                HELD_FOR_THE_RINSE,
            ),
            item(
                "N4's answer to the read after it learns what is chosen, judged",
                SERVED_ON_ITS_ANSWERS,
            ),
            ChecklistItem {
                label: "Both of C2's reads at N4 return the right value".into(),
                done: returned == 2,
            },
            ChecklistItem {
                label: "No ask of either read reached the leader".into(),
                done: returned > 0 && asks_held_from_the_leader(world) == returned,
            },
        ]
    }

    /// After a client's read reaches the follower and it sends its asks: whose answers will
    /// it wait for?
    fn question(&self, change: &Change<'_, LogWorld>) -> Option<Prompt> {
        let LogMove::World(LogAction::Deliver(_)) = change.action else {
            return None;
        };
        let world = change.world;
        let read_began = (world.in_flight().iter())
            .filter(|message| message.id >= change.before.next_message)
            .any(|message| {
                message.envelope.from == node(READER)
                    && matches!(message.envelope.message, LogMessage::ReadIndex { .. })
            });
        let Quorums::Grid(grid) = world.config().quorum_system() else {
            return None;
        };
        read_began.then(|| reach_set_question(world, &grid))
    }
}

fn node(number: usize) -> NodeId {
    NodeId::new(u8::try_from(number).expect("a small node number")).expect("node ids start at 1")
}

/// The nodes that lead now.
fn leaders(world: &LogWorld) -> NodeSet {
    (1..=world.servers().len())
        .filter(|&number| running(world, number).is_some_and(|n| n.role() == LogRole::Leader))
        .map(node)
        .collect()
}

/// Which nodes' answers N4's new read waits for: a Phase-1 quorum (a full row, by the core's
/// grid) that holds no leader.
fn reach_set_question(world: &LogWorld, grid: &Grid) -> Prompt {
    let quorums = Quorums::Grid(*grid);
    let reader = world.name(node(READER));
    let rows = grid_rows(world, grid);
    let leaders = leaders(world);
    let leader_names = set_name(world, leaders);
    let judge = |set: NodeSet| {
        let (name, misses) = (set_name(world, set), missing_from_rows(world, grid, set));
        if !heard_from_a_discovery_quorum(&quorums, set) {
            let column = if grid.is_phase2_quorum(set) {
                " It is a whole column: a column decides slots, but a write chosen by the \
                 other column could sit where none of it voted."
            } else {
                ""
            };
            return Verdict {
                right: false,
                explanation: format!(
                    "{name} holds no full row of {rows}: it misses {misses}. \
                     heard_from_a_discovery_quorum needs a Phase-1 quorum, and only a full row \
                     is sure to meet the column that chose the last completed write.{column}"
                ),
            };
        }
        let asked_leaders = set.intersection(leaders);
        if !asked_leaders.is_empty() {
            return Verdict {
                right: false,
                explanation: format!(
                    "{name} is a Phase-1 quorum, but {} leads: waiting on its answer puts the \
                     leader back into the read. A row without it gives the same guarantee.",
                    set_name(world, asked_leaders)
                ),
            };
        }
        Verdict {
            right: true,
            explanation: format!(
                "Right: {name} holds a full row, so heard_from_a_discovery_quorum holds once \
                 they answer, and no leader is among them. Every column meets that row, so the \
                 highest slot they report is at least the slot of any write that completed \
                 before the read began."
            ),
        }
    };
    let facts = vec![
        format!("{reader} asked every node for its highest accepted slot, and answered itself"),
        format!("a Phase-1 quorum is a full row: {rows}"),
        format!(
            "{leader_names} leads at {}",
            leaders
                .iter()
                .find_map(|leader| running(world, usize::from(leader.get()))?.ballot())
                .map_or_else(|| "no ballot".into(), |ballot| ballot_name(world, ballot))
        ),
    ];
    let mut prompt = pick_nodes(
        world,
        format!(
            "Whose answers will {reader}'s read wait for, with no leader asked? Tick the nodes."
        ),
        facts,
        quorums.acceptors(),
        judge,
    );
    prompt.node = Some(reader);
    prompt.record = Some(REACH_SET_PICKED.into());
    prompt
}

/// For each row `set` does not hold whole, the nodes it lacks there: "N2 of {N1, N2}".
fn missing_from_rows(world: &LogWorld, grid: &Grid, set: NodeSet) -> String {
    let misses: Vec<String> = (grid.rows().iter())
        .filter(|row| !row.is_subset(set))
        .map(|row| {
            let lacking: NodeSet = row.iter().filter(|node| !set.contains(*node)).collect();
            format!("{} of {}", set_name(world, lacking), set_name(world, *row))
        })
        .collect();
    misses.join(" and ")
}

/// How many of C2's reads at N4 returned `value`.
fn reads_returning(world: &LogWorld, value: &str) -> usize {
    (world.history().iter())
        .filter(|call| matches!(call.op, ClientOp::Read { .. }) && call.ret.is_some())
        .filter(|call| {
            call.read
                .as_ref()
                .is_some_and(|read| read.as_str() == value)
        })
        .count()
}

/// How many of N4's asks for a highest accepted slot are still on their way to a leader,
/// undelivered. The world has no drop, duplicate or crash to spend, so an ask not on the wire
/// reached its node.
fn asks_held_from_the_leader(world: &LogWorld) -> usize {
    let leaders = leaders(world);
    (world.in_flight().iter())
        .filter(|message| {
            let envelope = &message.envelope;
            envelope.from == node(READER)
                && leaders.contains(envelope.to)
                && matches!(envelope.message, LogMessage::ReadIndex { .. })
        })
        .count()
}

/// Why the level is lost, if a leader has answered one of N4's reads.
fn leader_answered(world: &LogWorld) -> Option<String> {
    let leaders = leaders(world);
    let answer = world.in_flight().iter().find(|message| {
        leaders.contains(message.envelope.from)
            && matches!(message.envelope.message, LogMessage::ReadIndexReply { .. })
    })?;
    Some(format!(
        "{} leads and answered {}'s read: the read was to do without the leader",
        world.name(answer.envelope.from),
        world.name(answer.envelope.to)
    ))
}

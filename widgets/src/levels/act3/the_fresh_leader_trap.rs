//! `act3/the-fresh-leader-trap`: C1's write of x=1 was chosen by {N1, N2} and acknowledged by
//! N1; N2 then won an election over {N2, N3} without ever learning slot 1. C1 reads x at N2.
//!
//! Every delivery to N2 while it holds the read asks: serve now, or wait? The right answer is
//! what the real node does on a clone (`read_may_be_served`): the watermark counts N2's own vote
//! in slot 1, so the read waits until slot 1 is decided again under 2.N2 and applied. A wrong
//! "serve" is told what the simulator's read-at-applied control does with this read.

use super::super::act2::{READS_ARE_NOT_FREE, pin, read_called, read_goal, read_result};
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::prompt::PromptKind;
use crate::state::{ChecklistItem, Goal, Memory, Run};
use paros_core::log::LogMessage;
use paros_sim::level_worlds;
use paros_sim::replicated_log::LogWorld;

/// The new leader, where C1's read must go.
const NEW_LEADER: usize = 1;

/// The level.
pub static LEVEL: Level<LogWorld> = Level {
    id: "act3/the-fresh-leader-trap",
    act: 3,
    title: "The fresh-leader trap",
    briefing: native_text(include_str!("the_fresh_leader_trap.md")),
    by_hand: "Decide when a new leader may serve a read of the slot it inherited",
    teaches: "A vote raises the read watermark before its slot is chosen, even at a new leader",
    goal: "C1's read of x at N2 returns the value a linearizable read must",
    chapter: READS_ARE_NOT_FREE,
    scenario: "act3-fresh-leader-trap",
    symbols: native_only(&["read_may_be_served"]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Prompt(PromptKind::ServeOrWait),
            text: "N2 is the leader, but leading is not knowing: the only trace of x=1 on N2 is a vote, \
         and a vote is not a decision. Its store has no x yet.",
        },
        Hint {
            about: HintFor::Prompt(PromptKind::ServeOrWait),
            text: "The read watermark counts votes, so N2's own vote in slot 1 puts it at slot 1. N2 may \
         answer once slot 1 is decided again under 2.N2 and applied: an Accepted from N3 does \
         that.",
        },
    ],
    pins: &[
        pin(Automation::ApplyWalk, true),
        pin(Automation::P2c, true),
        pin(Automation::Heartbeats, false),
    ],
    retry_by_hand: false,
    stages: &[Stage {
        title: "A leader that inherited a vote",
        note: "N1 led and answered C1 \"written\" for x=1, chosen by N1 and N2. N2 never learned \
               it; then N2 won an election at 2.N2 with N3, and re-proposes x=1 in slot 1.",
        world: &level_worlds::THE_FRESH_LEADER_TRAP,
    }],
    solution: native_only(&[
        "request C1 N2",
        "deliver C1->N2 Read",
        "answer wait",
        "deliver N2->N3 ReadIndex",
        "deliver N3->N2 ReadIndexReply",
        "answer wait",
        "deliver N2->N3 Accept",
        "deliver N3->N2 Accepted",
        "answer serve",
        "deliver N2->C1 Reply",
    ]),
    solution_unlocked: &[
        Automation::AcceptorReplies,
        Automation::P2c,
        Automation::ApplyWalk,
    ],
    rules: &FreshLeaderTrap,
};

struct FreshLeaderTrap;

/// The node other than the new leader that C1's read went to, if any: a Read on its way
/// there, or held there.
fn read_elsewhere(world: &LogWorld) -> Option<String> {
    let new_leader = world.config().node_id(NEW_LEADER);
    let in_flight = world.in_flight().iter().find_map(|message| {
        let to = message.envelope.to;
        (matches!(message.envelope.message, LogMessage::Read { .. }) && to != new_leader)
            .then_some(to)
    });
    let held = world.servers().iter().find_map(|server| {
        let node = server.host.node()?;
        (node.id() != new_leader && !node.pending_reads().is_empty()).then_some(node.id())
    });
    in_flight.or(held).map(|node| world.name(node))
}

impl Rules<LogWorld> for FreshLeaderTrap {
    fn goal(&self, run: &Run<LogWorld>, _memory: &Memory) -> Goal {
        let world = run.world();
        if let Some(node) = read_elsewhere(world) {
            return Goal::Failed(format!(
                "C1's read went to {node}; this level's read is for N2, the new leader"
            ));
        }
        read_goal(world, "1")
    }

    fn checklist(&self, run: &Run<LogWorld>, _memory: &Memory) -> Vec<ChecklistItem> {
        let world = run.world();
        vec![
            ChecklistItem {
                label: "C1 asks N2 to read x".into(),
                done: read_called(world),
            },
            ChecklistItem {
                label: "The read returns the right value".into(),
                done: read_result(world) == Some(Some("1".into())),
            },
        ]
    }
}

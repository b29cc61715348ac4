//! `act3/the-stranded-node`: N1 leads and every node applied C1's x=1. The player cuts N3 off,
//! lets N1 and N2 choose C2's write and compact past it, heals, and lets N1 answer N3's
//! heartbeat ack with its trim point; meanwhile N2 stands and N3 promises it.
//!
//! When the trim point reaches N3, the level asks N3's promise once it has jumped. The right
//! answer is the promise on a clone that took the step (`ColocatedNode::install_trim_point`
//! never lowers it); the wrong one, the ballot the trim point came with, is shown what the
//! jump-moves-promise control does with it on a copy of this world.

use super::TRUNCATION;
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::levels::act2::{pin, running};
use crate::prompt::PromptKind;
use crate::state::{ChecklistItem, Goal, Memory, Run};
use paros_core::log::Slot;
use paros_sim::level_worlds;
use paros_sim::replicated_log::LogWorld;

/// The level.
pub static LEVEL: Level<LogWorld> = Level {
    id: "act3/the-stranded-node",
    act: 3,
    title: "The stranded node",
    briefing: native_text(include_str!("the_stranded_node.md")),
    by_hand: "Strand a node below the floor, let a peer answer its catch-up with the trim point, \
              and state its promise after the jump",
    teaches: "What a trim-point jump changes at a node, and what it must never change",
    goal: "N3 jumps to N1's trim point, and you state its promise",
    chapter: TRUNCATION,
    scenario: "act3-stranded-node",
    symbols: native_only(&["ColocatedNode::install_trim_point", "LogMessage::TrimPoint"]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Prompt(PromptKind::JumpPromise),
            text: "A trim point is decided state. It moves N3's floor and applied index, and never lowers \
         N3's promise: that is its own word, given to whoever asked last.",
        },
        Hint {
            about: HintFor::Prompt(PromptKind::JumpPromise),
            text: "N3 cannot catch up by its walk: the slots it lacks are gone from N1's log. N1 sends its \
         trim point instead, a `TrimPoint` message, when N3's heartbeat ack shows it below N1's \
         floor.",
        },
    ],
    pins: &[
        pin(Automation::ApplyWalk, true),
        pin(Automation::Heartbeats, true),
    ],
    retry_by_hand: false,
    stages: &[Stage {
        title: "Below the floor",
        note: "N1 leads at 1.N1, and every node has applied C1's x=1 in slot 1. C2 has a write \
               to make, and N1 may be asked to compact once.",
        world: &level_worlds::THE_STRANDED_NODE,
    }],
    solution: native_only(&[
        "partition N3",
        "request C2 N1",
        "deliver C2->N1 Write",
        "deliver N1->N2 Accept",
        "deliver N2->N1 Accepted",
        "deliver N1->C2 Reply",
        "trim N1",
        "deliver N1->N2 Accept",
        "deliver N2->N1 Accepted",
        "heal",
        "beat N1",
        "tick N2",
        "tick N2",
        "deliver N2->N3 Prepare",
        "deliver N1->N3 TrimPoint",
        "answer 2.N2",
    ]),
    solution_unlocked: &[
        Automation::AcceptorReplies,
        Automation::P2c,
        Automation::ApplyWalk,
        Automation::Heartbeats,
    ],
    rules: &StrandedNode,
};

struct StrandedNode;

/// Whether N3 stands at or above N1's floor, above nothing: it has jumped.
fn n3_jumped(world: &LogWorld) -> bool {
    let floor = |number| running(world, number).map(|node| node.floor());
    matches!((floor(1), floor(3)), (Some(n1), Some(n3)) if n3 > Slot(0) && n3 >= n1)
}

fn answered_jump(run: &Run<LogWorld>) -> bool {
    run.answers()
        .iter()
        .any(|(kind, _)| *kind == PromptKind::JumpPromise)
}

impl Rules<LogWorld> for StrandedNode {
    fn goal(&self, run: &Run<LogWorld>, _memory: &Memory) -> Goal {
        match (n3_jumped(run.world()), answered_jump(run)) {
            (true, true) => Goal::Reached,
            (true, false) => Goal::Failed(
                "N3 jumped while its promise was the ballot the trim point came with, so there \
                 was nothing to tell apart: undo, and let N2 stand and win N3's promise before \
                 the trim point lands"
                    .into(),
            ),
            _ => Goal::Open,
        }
    }

    fn checklist(&self, run: &Run<LogWorld>, _memory: &Memory) -> Vec<ChecklistItem> {
        let world = run.world();
        let floor = |number| running(world, number).map_or(Slot(0), |node| node.floor());
        let promised_n3 = running(world, 3).and_then(|node| node.promised());
        let leader_ballot = running(world, 1).and_then(|node| node.ballot());
        vec![
            ChecklistItem {
                label: "N1 compacts while N3 is cut off: N1's floor is above what N3 applied"
                    .into(),
                done: running(world, 3)
                    .is_some_and(|n3| floor(1) > n3.applied_index() || floor(3) > Slot(0)),
            },
            ChecklistItem {
                label: "N3 promises a newer ballot than the one N1 leads at".into(),
                done: promised_n3 > leader_ballot,
            },
            ChecklistItem {
                label: "N3 jumps to N1's trim point".into(),
                done: n3_jumped(world),
            },
        ]
    }
}

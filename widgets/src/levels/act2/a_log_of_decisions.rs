//! `act2/a-log-of-decisions`: slot 3 is chosen before slot 2, and the player plays the apply
//! walk: what may N1 apply when it knows slot 3 chosen and slot 2 not?
//!
//! The apply walk is pinned off, so every move that teaches a node a chosen slot asks what it
//! may apply; the core's own walk (run on a clone) is the right answer.

use super::{ONE_VALUE_TO_A_LOG, applied_through, pin};
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::prompt::PromptKind;
use crate::state::{ChecklistItem, Goal, Memory, Run};
use paros_sim::level_worlds;
use paros_sim::replicated_log::LogWorld;

/// The level.
pub static LEVEL: Level<LogWorld> = Level {
    id: "act2/a-log-of-decisions",
    act: 2,
    title: "A log of decisions",
    briefing: native_text(include_str!("a_log_of_decisions.md")),
    by_hand: "Deliver slot 3's Accepted before slot 2's, then decide what may apply",
    teaches: "Slots are chosen out of order and applied in order: a node's chosen prefix has no holes",
    goal: "Slot 3 is chosen before slot 2, and N1 applies slots 1 to 3 in order",
    chapter: ONE_VALUE_TO_A_LOG,
    scenario: "act2-log-of-decisions",
    symbols: native_only(&["ColocatedNode::chosen_index"]),
    unlocks: Some(Automation::ApplyWalk),
    hints: &[
        Hint {
            about: HintFor::Prompt(PromptKind::ApplyWalk),
            text: "A node applies a slot only when every slot below it is applied: look for the lowest \
         slot N1 does not know is chosen.",
        },
        Hint {
            about: HintFor::Prompt(PromptKind::ApplyWalk),
            text: "A node's chosen prefix ([`ColocatedNode::chosen_index`]) ends where the unbroken run of \
         slots it knows chosen from slot 1 ends. The apply walk goes exactly that far.",
        },
    ],
    pins: &[
        pin(Automation::ApplyWalk, false),
        pin(Automation::Heartbeats, false),
    ],
    retry_by_hand: false,
    stages: &[Stage {
        title: "Three slots in flight",
        note: "N1 leads at 1.N1. Slot 1 (a=1) is chosen and applied; C2's b=2 and C3's c=3 have \
               slots 2 and 3, and their Accepts are on the wire.",
        world: &level_worlds::A_LOG_OF_DECISIONS,
    }],
    solution: native_only(&[
        "deliver N1->N2 Accept(1.N1, slot 3",
        "deliver N2->N1 Accepted(1.N1, slot 3)",
        "answer nothing",
        "deliver N1->N2 Accept(1.N1, slot 2",
        "deliver N2->N1 Accepted(1.N1, slot 2)",
        "answer 2-3",
    ]),
    solution_unlocked: &[Automation::AcceptorReplies, Automation::P2c],
    rules: &LogOfDecisions,
};

struct LogOfDecisions;

/// Whether the player held N1 back with slot 3 chosen above a hole.
fn waited_above_a_hole(run: &Run<LogWorld>) -> bool {
    run.answers()
        .iter()
        .any(|(kind, key)| *kind == PromptKind::ApplyWalk && key == "nothing")
}

impl Rules<LogWorld> for LogOfDecisions {
    fn goal(&self, run: &Run<LogWorld>, _memory: &Memory) -> Goal {
        let applied = applied_through(run.world(), 1, 3);
        match (applied, waited_above_a_hole(run)) {
            (true, true) => Goal::Reached,
            (true, false) => Goal::Failed(
                "slot 2 was chosen before slot 3, so N1 never faced a hole: undo, and let slot \
                 3's Accepted reach N1 first"
                    .into(),
            ),
            _ => Goal::Open,
        }
    }

    fn checklist(&self, run: &Run<LogWorld>, _memory: &Memory) -> Vec<ChecklistItem> {
        vec![
            ChecklistItem {
                label: "N1 knows slot 3 chosen while slot 2 is not".into(),
                done: waited_above_a_hole(run),
            },
            ChecklistItem {
                label: "N1 applies slots 1 to 3".into(),
                done: applied_through(run.world(), 1, 3),
            },
        ]
    }
}

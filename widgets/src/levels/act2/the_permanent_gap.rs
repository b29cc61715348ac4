//! `act2/the-permanent-gap`: slot 1's Accepts are lost, slot 2 is chosen above the hole, and
//! the leader crashes. N2 is elected, no Promise reports slot 1, and the player answers for
//! N2's recovery (P2c per slot, pinned off): re-propose, fill with a no-op, or leave slot 1 and
//! open fresh slots?
//!
//! The right plan is what `recover_slot` does on a clone. The goal holds the whole story: no
//! hole at N2, b applied, and C1's retried a applied exactly once (the World's exactly-once
//! checker watches every apply).

use super::{STABLE_LEADER, pin, running};
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::prompt::PromptKind;
use crate::state::{ChecklistItem, Goal, Memory, Run};
use paros_core::Value;
use paros_core::log::Slot;
use paros_sim::level_worlds;
use paros_sim::replicated_log::LogWorld;

/// The level.
pub static LEVEL: Level<LogWorld> = Level {
    id: "act2/the-permanent-gap",
    act: 2,
    title: "The permanent gap",
    briefing: native_text(include_str!("the_permanent_gap.md")),
    by_hand: "Drop exactly slot 1's Accepts, let slot 2 be chosen, crash the leader, then answer \
              for the new leader's recovery",
    teaches: "What a new leader owes a slot that no Promise reports",
    goal: "No hole at N2: b=2 applied, and C1's a=1, retried, applied once",
    chapter: STABLE_LEADER,
    scenario: "act2-permanent-gap",
    symbols: native_only(&["recover_slot"]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Prompt(PromptKind::RecoverSlots),
            text: "Look at what N2's Promises report for slot 1: nothing. What may have been chosen in a \
         slot that no member of a Phase-1 quorum voted for?",
        },
        Hint {
            about: HintFor::Prompt(PromptKind::RecoverSlots),
            text: "A log applies in slot order. If slot 1 is never decided, slot 2 and everything after it \
         waits behind it forever.",
        },
    ],
    pins: &[pin(Automation::P2c, false)],
    retry_by_hand: false,
    stages: &[Stage {
        title: "Two commands, one of them lost",
        note: "N1 leads at 1.N1 and has sent the Accepts for slot 1 (C1's a=1) and slot 2 (C2's \
               b=2). You may drop two messages and crash one node.",
        world: &level_worlds::THE_PERMANENT_GAP,
    }],
    solution: native_only(&[
        "drop N1->N2 Accept(1.N1, slot 1",
        "drop N1->N3 Accept(1.N1, slot 1",
        "deliver N1->N2 Accept(1.N1, slot 2",
        "deliver N2->N1 Accepted",
        "crash N1",
        "tick N2",
        "tick N2",
        "deliver N2->N3 Prepare",
        "deliver N3->N2 Promise",
        "answer recover",
        "deliver N2->N3 Accept(2.N2, slot 1",
        "deliver N3->N2 Accepted",
        "deliver N2->N3 Accept(2.N2, slot 2",
        "deliver N3->N2 Accepted",
        "request C1 N2",
        "deliver C1->N2 Write",
        "deliver N2->N3 Accept(2.N2, slot 3",
        "deliver N3->N2 Accepted",
    ]),
    solution_unlocked: &[
        Automation::AcceptorReplies,
        Automation::P2c,
        Automation::ApplyWalk,
    ],
    rules: &PermanentGap,
};

struct PermanentGap;

fn holds(world: &LogWorld, key: &str, value: &str) -> bool {
    running(world, 2)
        .is_some_and(|node| node.store().get(&Value::new(key)) == Some(&Value::new(value)))
}

fn no_hole(world: &LogWorld) -> bool {
    running(world, 2).is_some_and(|node| {
        node.chosen_gap().is_none() && node.chosen_index() == node.applied_index()
    })
}

impl Rules<LogWorld> for PermanentGap {
    fn goal(&self, run: &Run<LogWorld>, _memory: &Memory) -> Goal {
        let world = run.world();
        if no_hole(world) && holds(world, "a", "1") && holds(world, "b", "2") {
            Goal::Reached
        } else {
            Goal::Open
        }
    }

    fn checklist(&self, run: &Run<LogWorld>, _memory: &Memory) -> Vec<ChecklistItem> {
        let world = run.world();
        vec![
            ChecklistItem {
                label: "Slot 2 chosen above a hole".into(),
                // Chosen as the votes say, whether or not any node has learned it yet.
                done: world.chosen_entry(Slot(2)).is_some(),
            },
            ChecklistItem {
                label: "b=2 applied at N2".into(),
                done: holds(world, "b", "2"),
            },
            ChecklistItem {
                label: "a=1, retried by C1, applied at N2".into(),
                done: holds(world, "a", "1"),
            },
            ChecklistItem {
                label: "No hole at N2".into(),
                // N2's own knowledge: no gap in what it knows chosen, slot 2 included.
                done: no_hole(world)
                    && running(world, 2).is_some_and(|node| node.chosen_index() >= Slot(2)),
            },
        ]
    }
}

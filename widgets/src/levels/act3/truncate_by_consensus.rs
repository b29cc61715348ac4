//! `act3/truncate-by-consensus`: N1 leads; C1's x=1 and C2's y=1 are chosen, N3 has missed
//! slot 2. The player asks N1 to compact, and watches each node move its own floor when its
//! own walk applies the decided trim.
//!
//! The apply walk is played by hand: a delivery that makes a node learn slots while a decided
//! trim sits above what it has applied asks where its floor is once the step is taken. The
//! right answer is the node's floor on a clone that took the step (`floor_after_applying`).

use super::{TRUNCATION, floor_of};
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::levels::act2::pin;
use crate::prompt::PromptKind;
use crate::state::{ChecklistItem, Goal, Memory, Run};
use paros_core::log::Entry;
use paros_sim::level_worlds;
use paros_sim::replicated_log::LogWorld;

/// The level.
pub static LEVEL: Level<LogWorld> = Level {
    id: "act3/truncate-by-consensus",
    act: 3,
    title: "Truncate by consensus",
    briefing: native_text(include_str!("truncate_by_consensus.md")),
    by_hand: "Ask the leader to compact and watch each node move its own floor when its walk \
              reaches the slot",
    teaches: "The floor is a decided control command, so one decision gives one cluster-wide \
              floor",
    goal: "Every node's floor is at slot 2",
    chapter: TRUNCATION,
    scenario: "act3-truncate-by-consensus",
    symbols: native_only(&["floor_after_applying", "ColocatedNode::chosen_index"]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Prompt(PromptKind::Floor),
            text: "A node's floor moves when its own apply walk applies the trim, not when the trim is \
         decided and not when another node compacts. Look at what the node has applied.",
        },
        Hint {
            about: HintFor::Prompt(PromptKind::Floor),
            text: "The trim through slot K sits in a later slot S. Once the walk applies slot S, the floor \
         is K; until then it stays where it was. N3 first needs the slot it missed.",
        },
        Hint {
            about: HintFor::Prompt(PromptKind::ApplyWalk),
            text: "A node applies only slots it knows are chosen, in slot order from the first one it has not \
         applied: look for the lowest slot it has not learned.",
        },
    ],
    pins: &[
        pin(Automation::ApplyWalk, false),
        pin(Automation::Heartbeats, false),
    ],
    retry_by_hand: false,
    stages: &[Stage {
        title: "One decision, three floors",
        note: "N1 leads at 1.N1. C1's x=1 (slot 1) and C2's y=1 (slot 2) are chosen and applied \
               by N1 and N2; N3 voted for slot 1 only, and N1's Accept for slot 2 to N3 is still \
               on the wire.",
        world: &level_worlds::TRUNCATE_BY_CONSENSUS,
    }],
    solution: native_only(&[
        "trim N1",
        "deliver N1->N2 Accept",
        "deliver N2->N1 Accepted",
        "answer 2",
        "deliver N1->N3 Accept(1.N1, slot 3",
        "answer 1",
        "tick N1",
        "deliver N1->N2 Heartbeat",
        "answer 2",
        "deliver N1->N3 Heartbeat(1.N1, commit 3",
        "answer 0",
        "deliver N1->N3 Accept(1.N1, slot 2",
        "tick N1",
        "deliver N1->N3 Heartbeat(1.N1, commit 3",
        "answer 2",
    ]),
    solution_unlocked: &[Automation::AcceptorReplies, Automation::P2c],
    rules: &TruncateByConsensus,
};

struct TruncateByConsensus;

/// Whether a trim is decided, judged from the votes.
fn trim_decided(world: &LogWorld) -> bool {
    world
        .chosen_by_votes()
        .iter()
        .any(|votes| matches!(votes.entry, Entry::Trim(_)))
}

impl Rules<LogWorld> for TruncateByConsensus {
    fn goal(&self, run: &Run<LogWorld>, _memory: &Memory) -> Goal {
        let world = run.world();
        if (1..=3).all(|number| floor_of(world, number) == Some(2)) {
            Goal::Reached
        } else {
            Goal::Open
        }
    }

    fn checklist(&self, run: &Run<LogWorld>, _memory: &Memory) -> Vec<ChecklistItem> {
        let world = run.world();
        let mut items = vec![ChecklistItem {
            label: "N1 proposes a trim and a quorum decides it".into(),
            done: trim_decided(world),
        }];
        for number in 1..=3 {
            items.push(ChecklistItem {
                label: format!("N{number}'s walk applies the trim: its floor is 2"),
                done: floor_of(world, number) == Some(2),
            });
        }
        items
    }
}

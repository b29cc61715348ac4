//! `act2/the-read-that-lies`: N3 was cut off while N2 took over and got x=2 chosen; N3's log
//! still says x = 1. C1, whose write of x=2 completed, reads x at N3.
//!
//! Every delivery to a node holding a read asks: serve now, or wait? The right answer is what
//! the real node does on a clone, which is `read_may_be_served`: a Phase-1 quorum has reported
//! its highest accepted slot, and the node has applied through the highest of them.

use super::{READS_ARE_NOT_FREE, pin, read_called, read_goal, read_result};
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::prompt::PromptKind;
use crate::state::{ChecklistItem, Goal, Memory, Run};
use paros_sim::level_worlds;
use paros_sim::replicated_log::LogWorld;

/// The level.
pub static LEVEL: Level<LogWorld> = Level {
    id: "act2/the-read-that-lies",
    act: 2,
    title: "The read that lies",
    briefing: native_text(include_str!("the_read_that_lies.md")),
    by_hand: "Ask a follower that missed a leader change for a read, and decide if it can answer now",
    teaches: "A node cannot know its log is current; a read asks a Phase-1 quorum how far to read",
    goal: "C1's read of x at N3 returns the value a linearizable read must",
    chapter: READS_ARE_NOT_FREE,
    scenario: "act2-read-that-lies",
    symbols: native_only(&["read_may_be_served"]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Prompt(PromptKind::ServeOrWait),
            text: "N3's log is complete as far as N3 knows. That is exactly the problem: a write can be \
         chosen by a quorum N3 never heard from.",
        },
        Hint {
            about: HintFor::Prompt(PromptKind::ServeOrWait),
            text: "N3 needs two things: a Phase-1 quorum's highest accepted slots (the watermark), and its \
         own log applied through that watermark. A heartbeat's ack brings it the chosen entries \
         it lacks.",
        },
    ],
    pins: &[
        pin(Automation::ApplyWalk, true),
        pin(Automation::Heartbeats, false),
    ],
    retry_by_hand: false,
    stages: &[Stage {
        title: "A leader change N3 never saw",
        note: "N1 led and got x=1 chosen everywhere. Then N3 was cut off, N2 took over at 2.N2 \
               and got C1's x=2 chosen with N1. The partition has healed.",
        world: &level_worlds::THE_READ_THAT_LIES,
    }],
    solution: native_only(&[
        "request C1 N3",
        "deliver C1->N3 Read",
        "answer wait",
        "deliver N3->N1 ReadIndex",
        "deliver N1->N3 ReadIndexReply",
        "answer wait",
        "tick N2",
        "deliver N2->N3 Heartbeat",
        "answer wait",
        "deliver N3->N2 HeartbeatAck",
        "deliver N2->N3 Chosen",
        "answer serve",
        "deliver N3->C1 Reply",
    ]),
    solution_unlocked: &[
        Automation::AcceptorReplies,
        Automation::P2c,
        Automation::ApplyWalk,
    ],
    rules: &ReadThatLies,
};

struct ReadThatLies;

impl Rules<LogWorld> for ReadThatLies {
    fn goal(&self, run: &Run<LogWorld>, _memory: &Memory) -> Goal {
        read_goal(run.world(), "2")
    }

    fn checklist(&self, run: &Run<LogWorld>, _memory: &Memory) -> Vec<ChecklistItem> {
        let world = run.world();
        vec![
            ChecklistItem {
                label: "C1 asks N3 to read x".into(),
                done: read_called(world),
            },
            ChecklistItem {
                label: "The read returns the right value".into(),
                done: read_result(world) == Some(Some("2".into())),
            },
        ]
    }
}

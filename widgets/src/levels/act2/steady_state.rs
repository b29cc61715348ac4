//! `act2/steady-state`: leader N1 takes a stream of five commands from two clients. The player
//! delivers the Accepts, the Accepteds and the heartbeats (heartbeat delivery is pinned off):
//! one round trip per command, Accepts pipelined, and the commit index reaching followers on
//! the leader's messages.
//!
//! When the leader has two slots in flight at once, the level asks whether the second must
//! wait for the first; the world's own step (its Accept already sent) is the answer.

use super::{STABLE_LEADER, applied_through, pin, running};
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::prompt::{Choice, Prompt, PromptKind};
use crate::replicated_log::{LogMove, ballot_name};
use crate::state::{Change, ChecklistItem, Goal, Memory, Run};
use paros_core::log::LogMessage;
use paros_sim::level_worlds;
use paros_sim::replicated_log::{LogAction, LogWorld};

/// The level.
pub static LEVEL: Level<LogWorld> = Level {
    id: "act2/steady-state",
    act: 2,
    title: "Steady state",
    briefing: native_text(include_str!("steady_state.md")),
    by_hand: "Deliver the Accepts, Accepteds and Heartbeats for a stream of commands",
    teaches: "One round trip per command, pipelining, and the commit index piggybacked on the beat",
    goal: "All five commands applied on all three nodes, with two slots in flight at once",
    chapter: STABLE_LEADER,
    scenario: "act2-steady-state",
    symbols: native_only(&[]),
    unlocks: Some(Automation::Heartbeats),
    hints: &[
        Hint {
            about: HintFor::Question("pipeline"),
            text: "Send both clients' writes before finishing either: a leader does not wait for slot 1 \
         to be chosen before proposing slot 2.",
        },
        Hint {
            about: HintFor::Question("pipeline"),
            text: "N3 has no votes if you never deliver its Accepts. A Heartbeat tells it the commit \
         index; its HeartbeatAck tells the leader how far behind it is, and the leader sends \
         the chosen entries it lacks.",
        },
    ],
    pins: &[pin(Automation::Heartbeats, false)],
    retry_by_hand: false,
    stages: &[Stage {
        title: "A stream of commands",
        note: "N1 leads at 1.N1. C1 will write a, b, c and C2 will write d, e, one at a time \
               each.",
        world: &level_worlds::STEADY_STATE,
    }],
    solution: native_only(&[
        "request C1 N1",
        "deliver C1->N1 Write",
        "request C2 N1",
        "deliver C2->N1 Write",
        "answer no",
        "deliver N1->N2 Accept(1.N1, slot 1",
        "deliver N1->N2 Accept(1.N1, slot 2",
        "deliver N2->N1 Accepted",
        "deliver N2->N1 Accepted",
        "deliver N1->C1 Reply",
        "deliver N1->C2 Reply",
        "request C1 N1",
        "deliver C1->N1 Write",
        "deliver N1->N2 Accept(1.N1, slot 3",
        "deliver N2->N1 Accepted",
        "deliver N1->C1 Reply",
        "request C2 N1",
        "deliver C2->N1 Write",
        "deliver N1->N2 Accept(1.N1, slot 4",
        "deliver N2->N1 Accepted",
        "deliver N1->C2 Reply",
        "request C1 N1",
        "deliver C1->N1 Write",
        "deliver N1->N2 Accept(1.N1, slot 5",
        "deliver N2->N1 Accepted",
        "deliver N1->C1 Reply",
        "tick N1",
        "deliver N1->N2 Heartbeat",
        "deliver N1->N3 Heartbeat",
        "deliver N3->N1 HeartbeatAck",
        "deliver N1->N3 Chosen",
    ]),
    solution_unlocked: &[
        Automation::AcceptorReplies,
        Automation::P2c,
        Automation::ApplyWalk,
    ],
    rules: &SteadyState,
};

struct SteadyState;

fn pipelined(run: &Run<LogWorld>) -> bool {
    run.answers()
        .iter()
        .any(|(kind, _)| *kind == PromptKind::Question)
}

fn all_applied(world: &LogWorld) -> bool {
    (1..=3).all(|number| applied_through(world, number, 5))
}

impl Rules<LogWorld> for SteadyState {
    fn goal(&self, run: &Run<LogWorld>, _memory: &Memory) -> Goal {
        if all_applied(run.world()) && pipelined(run) {
            Goal::Reached
        } else {
            Goal::Open
        }
    }

    /// The leader's proposals go from one to two: must the second wait for the first?
    fn question(&self, change: &Change<'_, LogWorld>) -> Option<Prompt> {
        let LogMove::World(LogAction::Deliver(_)) = change.action else {
            return None;
        };
        let world = change.world;
        if change.before.proposals[0] != 1 {
            return None;
        }
        let leader = running(world, 1)?;
        if leader.proposals().len() != 2 {
            return None;
        }
        let mut slots = leader.proposals().keys().copied();
        let (first, second) = (slots.next()?, slots.next()?);
        let ballot = ballot_name(world, leader.ballot()?);
        let sent = world.in_flight().iter().any(|message| {
            matches!(&message.envelope.message, LogMessage::Accept { slot, .. } if *slot == second)
        });
        let waiting = format!(
            "Slot {second} is its own instance of Paxos, safe under the promises N1 holds at \
             {ballot} whatever happens to slot {first}. Waiting would cost a round trip per \
             command in a row; the leader pipelines instead, and order is restored at the other \
             end, by the apply walk, which runs slots in slot order."
        );
        Some(Prompt::question(
            "pipeline",
            format!(
                "N1 has slot {first} in flight and now gives slot {second} a command. Must slot \
                 {second}'s Accept wait until slot {first} is chosen?"
            ),
            vec![
                format!("N1 leads at {ballot}"),
                format!("slot {first} is proposed and not yet chosen"),
            ],
            vec![
                Choice {
                    key: "yes".into(),
                    label: "Yes: one slot at a time".to_string(),
                    right: !sent,
                    explanation: waiting.clone(),
                },
                Choice {
                    key: "no".into(),
                    label: format!("No: Accept(slot {second}) goes out now"),
                    right: sent,
                    explanation: format!(
                        "Right: Accept({ballot}, slot {second}) is already on the wire. {waiting}"
                    ),
                },
            ],
        ))
    }

    fn checklist(&self, run: &Run<LogWorld>, _memory: &Memory) -> Vec<ChecklistItem> {
        let world = run.world();
        let mut items = vec![ChecklistItem {
            label: "When the second slot's Accept goes out, judged".into(),
            done: pipelined(run),
        }];
        for number in 1..=3 {
            items.push(ChecklistItem {
                label: format!("N{number} applied all five"),
                done: applied_through(world, number, 5),
            });
        }
        items
    }
}

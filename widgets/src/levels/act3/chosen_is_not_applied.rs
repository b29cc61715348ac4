//! `act3/chosen-is-not-applied`: N1 leads; C1's x=a sits in slot 1 with N2's vote for it still
//! on the wire (a hole), and C2's y=b is chosen in slot 2 by {N1, N2}. C2 hears nothing and
//! sends its write again.
//!
//! Two prompts, each judged on a clone: what N1 does with the retry (it proposes it again, in
//! slot 3: a chosen slot is no longer an open proposal, and the session table says C2#1 is not
//! applied), and what N1's apply walk does with slot 3 (`KvStore::apply` skips the repeat).

use super::super::act2::{READS_ARE_NOT_FREE, pin, running};
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::prompt::PromptKind;
use crate::state::{ChecklistItem, Goal, Memory, Run};
use paros_core::log::{Entry, LogMessage, Slot};
use paros_sim::Fault;
use paros_sim::level_worlds;
use paros_sim::replicated_log::LogWorld;

/// The leader, N1 (1-based).
const LEADER: usize = 1;
/// The client that retries, C2 (0-based), and its request number.
const RETRIER: usize = 1;
const SEQ: u64 = 1;

/// The level.
pub static LEVEL: Level<LogWorld> = Level {
    id: "act3/chosen-is-not-applied",
    act: 3,
    title: "Chosen is not applied",
    briefing: native_text(include_str!("chosen_is_not_applied.md")),
    by_hand: "Answer for a leader whose client retries a write chosen above a hole",
    teaches: "Chosen is not applied: where a retried write is told apart from a new one",
    goal: "N1's apply walk passes every slot that holds C2's write, and C2 hears \"written\" \
           once",
    chapter: READS_ARE_NOT_FREE,
    scenario: "act3-chosen-is-not-applied",
    symbols: native_only(&["KvStore::apply", "KvStore::applied_seq"]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Prompt(PromptKind::ClientResend),
            text: "N1 looks for a retry in two places only: its session table (what it has applied) and \
         its open proposals. Slot 2 is in neither: it is chosen, so no longer open, and not \
         applied, because slot 1 is still a hole.",
        },
        Hint {
            about: HintFor::Prompt(PromptKind::RepeatApplies),
            text: "The session table is part of the state every node applies. A request that reached the \
         log twice is skipped the second time it applies, on every node alike.",
        },
    ],
    pins: &[
        pin(Automation::ApplyWalk, true),
        pin(Automation::P2c, true),
        pin(Automation::Heartbeats, false),
    ],
    retry_by_hand: false,
    stages: &[Stage {
        title: "A write chosen above a hole",
        note: "N1 leads at 1.N1. C1's x=a is in slot 1, but N2's vote for it is still on the \
               wire. C2's y=b is chosen in slot 2 by N1 and N2. N1 has applied nothing.",
        world: &level_worlds::CHOSEN_IS_NOT_APPLIED,
    }],
    solution: native_only(&[
        "request C2 N1",
        "deliver C2->N1 Write",
        "answer propose",
        "deliver N1->N2 Accept(1.N1, slot 3",
        "deliver N2->N1 Accepted(1.N1, slot 1",
        "deliver N2->N1 Accepted(1.N1, slot 3",
        "answer skipped",
        "deliver N1->C2 Reply",
    ]),
    solution_unlocked: &[
        Automation::AcceptorReplies,
        Automation::P2c,
        Automation::ApplyWalk,
    ],
    rules: &ChosenIsNotApplied,
};

struct ChosenIsNotApplied;

/// The slots of N1's log that hold C2's request, lowest first.
fn copies(world: &LogWorld) -> Vec<Slot> {
    let client = world.config().client_id(RETRIER);
    running(world, LEADER).map_or_else(Vec::new, |leader| {
        (leader.accepts().iter())
            .filter(|(_, vote)| {
                matches!(&vote.entry, Entry::Command(command) if command.client == client && command.seq == SEQ)
            })
            .map(|(slot, _)| *slot)
            .collect()
    })
}

/// Whether C2's write has returned.
fn returned(world: &LogWorld) -> bool {
    let client = world.config().client_id(RETRIER);
    (world.history().iter()).any(|call| call.client == client && call.ret.is_some())
}

/// A reply to C2 still on the wire.
fn reply_in_flight(world: &LogWorld) -> bool {
    let client = world.config().client_id(RETRIER);
    (world.in_flight().iter()).any(|message| {
        message.envelope.to == client
            && matches!(message.envelope.message, LogMessage::Reply { .. })
    })
}

/// Whether C2's retry is spent: resent, and no longer on its way to N1.
fn retry_spent(world: &LogWorld) -> bool {
    let client = world.config().client_id(RETRIER);
    world.budget_left().left(Fault::ClientResend) == 0
        && !(world.in_flight().iter()).any(|message| {
            message.envelope.from == client
                && matches!(message.envelope.message, LogMessage::Write { .. })
        })
}

impl Rules<LogWorld> for ChosenIsNotApplied {
    fn goal(&self, run: &Run<LogWorld>, _memory: &Memory) -> Goal {
        let world = run.world();
        let Some(leader) = running(world, LEADER) else {
            return Goal::Open;
        };
        let copies = copies(world);
        if copies.len() < 2 {
            if leader
                .store()
                .applied_seq(world.config().client_id(RETRIER))
                >= SEQ
            {
                return Goal::Failed(
                    "N1 applied C2's y=b before the retry reached it: N1 now answers the retry \
                     from its session table and never proposes it again"
                        .into(),
                );
            }
            if retry_spent(world) {
                return Goal::Failed(
                    "C2's one retry is spent, and N1 never proposed it again".into(),
                );
            }
            return Goal::Open;
        }
        let applied_both = leader.applied_index() >= copies[1];
        if applied_both && returned(world) && !reply_in_flight(world) {
            Goal::Reached
        } else {
            Goal::Open
        }
    }

    fn checklist(&self, run: &Run<LogWorld>, _memory: &Memory) -> Vec<ChecklistItem> {
        let world = run.world();
        let copies = copies(world);
        let applied = running(world, LEADER).map_or(Slot(0), |leader| leader.applied_index());
        vec![
            ChecklistItem {
                label: "C2 sends y=b again, to N1".into(),
                done: world.budget_left().left(Fault::ClientResend) == 0,
            },
            ChecklistItem {
                label: "N1 proposes y=b (C2#1) in a second slot".into(),
                done: copies.len() >= 2,
            },
            ChecklistItem {
                label: "N1 applies both slots that hold it".into(),
                done: copies.len() >= 2 && applied >= copies[1],
            },
            ChecklistItem {
                label: "C2 hears \"written\" once".into(),
                done: returned(world) && !reply_in_flight(world),
            },
        ]
    }
}

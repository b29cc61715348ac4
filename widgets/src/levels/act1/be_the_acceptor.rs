//! `act1/be-the-acceptor`: the player answers every Prepare and every Accept.
//!
//! Two proposers run at once, so the schedule the player picks produces every case of the
//! promise rule (`>`) and the vote rule (`>=`). The goal asks for a chosen value and at least
//! one refusal, so both rules are exercised.

use super::HOW_PAXOS_CHOOSES;
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Pin, Rules, Stage, native_only, native_text};
use crate::prompt::PromptKind;
use crate::state::{ChecklistItem, Goal, Memory, Run};
use paros_sim::level_worlds;
use paros_sim::single_decree::DecreeWorld;

/// The level.
pub static LEVEL: Level<DecreeWorld> = Level {
    id: "act1/be-the-acceptor",
    act: 1,
    title: "Be the acceptor",
    briefing: native_text(include_str!("be_the_acceptor.md")),
    by_hand: "Answer every Prepare and every Accept yourself",
    teaches: "The promise rule (`>`) and the vote rule (`>=`) — the whole of the acceptor",
    goal: "A value is chosen, with every acceptor answer made by hand and at least one Nack",
    chapter: HOW_PAXOS_CHOOSES,
    scenario: "act1-duel",
    symbols: native_only(&[]),
    unlocks: Some(Automation::AcceptorReplies),
    hints: &[
        Hint {
            about: HintFor::Prompt(PromptKind::PromiseOrNack),
            text: "The promise rule is strict: an acceptor promises a ballot only if it is greater than \
         every ballot it has promised. A lower ballot is not greater, and neither is a copy of a \
         Prepare it already promised.",
        },
        Hint {
            about: HintFor::Prompt(PromptKind::AcceptedOrNack),
            text: "The vote rule is not strict: an acceptor votes for an Accept unless it has promised a \
         higher ballot. The very ballot it promised must pass, or its proposer could never win.",
        },
    ],
    pins: &[
        Pin {
            automation: Automation::AcceptorReplies,
            on: false,
        },
        Pin {
            automation: Automation::P2c,
            on: true,
        },
    ],
    retry_by_hand: false,
    stages: &[Stage {
        title: "Two proposers, three acceptors, and you",
        note: "Prepare(1.P1) and Prepare(1.P2) are both on the wire. You may duplicate two \
               messages.",
        world: &level_worlds::BE_THE_ACCEPTOR,
    }],
    solution: native_only(&[
        "deliver P2->A1 Prepare",
        "answer promise",
        "deliver P2->A2 Prepare",
        "answer promise",
        "deliver P1->A1 Prepare",
        "answer nack",
        "deliver A1->P2 Promise",
        "deliver A2->P2 Promise",
        "deliver P2->A1 Accept",
        "answer accepted",
        "deliver P2->A2 Accept",
        "answer accepted",
    ]),
    solution_unlocked: &[],
    rules: &BeTheAcceptor,
};

struct BeTheAcceptor;

fn answered(run: &Run<DecreeWorld>, kind: PromptKind, key: &str) -> bool {
    run.answers()
        .iter()
        .any(|(answered_kind, answered_key)| *answered_kind == kind && answered_key == key)
}

impl Rules<DecreeWorld> for BeTheAcceptor {
    fn goal(&self, run: &Run<DecreeWorld>, memory: &Memory) -> Goal {
        Goal::when_all_done(&self.checklist(run, memory))
    }

    fn checklist(&self, run: &Run<DecreeWorld>, _memory: &Memory) -> Vec<ChecklistItem> {
        let refused = answered(run, PromptKind::PromiseOrNack, "nack")
            || answered(run, PromptKind::AcceptedOrNack, "nack");
        vec![
            ChecklistItem {
                label: "Promise a Prepare".into(),
                done: answered(run, PromptKind::PromiseOrNack, "promise"),
            },
            ChecklistItem {
                label: "Refuse a Prepare or an Accept with a Nack".into(),
                done: refused,
            },
            ChecklistItem {
                label: "Vote for an Accept".into(),
                done: answered(run, PromptKind::AcceptedOrNack, "accepted"),
            },
            ChecklistItem {
                label: "A value is chosen".into(),
                done: !run.world().chosen().is_empty(),
            },
        ]
    }
}

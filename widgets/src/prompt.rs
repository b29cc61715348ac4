//! Prompts: a question put to the player, with its choices already judged.
//!
//! Each board builds its prompts from its real nodes (see `single_decree::prompts`); the game
//! only holds them open, and records the answers.

use crate::automation::Automation;
use serde::Serialize;

/// What kind of question a prompt asks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PromptKind {
    /// A Prepare reached an acceptor played by hand.
    PromiseOrNack,
    /// An Accept reached an acceptor played by hand.
    AcceptedOrNack,
    /// A proposer completed Phase 1 with P2c played by hand: which value goes in its Accept.
    ChooseValue,
    /// A proposer retries, and the player names its new ballot.
    RetryBallot,
    /// A question the level asks after a move.
    Question,
    /// Act II: a node learned a slot is chosen with the apply walk played by hand: what may it
    /// apply?
    ApplyWalk,
    /// Act II: a Promise completed a candidate's Phase-1 quorum with P2c played by hand: what
    /// goes in each slot of its recovery?
    RecoverSlots,
    /// Act II: a delivery to a node holding a client's read: serve it now, or wait?
    ServeOrWait,
    /// Act III: with the apply walk played by hand, a delivery makes a node learn slots while a
    /// decided trim sits above what it has applied: where is its floor now?
    Floor,
    /// Act III: a trim point reaches a node below the sender's floor: what is its promise once
    /// it has jumped?
    JumpPromise,
    /// Act III: a client's write reaches a leader that holds the same request chosen above what
    /// it has applied: propose it again, answer now, or wait?
    ClientResend,
    /// Act III: a node's apply walk reaches a slot that repeats a request it already applied:
    /// skipped, or applied again?
    RepeatApplies,
    /// Act IV: which nodes' answers a phase waits for, ticked one box per node (its choices
    /// are every set of the candidates, keyed `N3+N4`).
    ReachSet,
}

impl PromptKind {
    /// Every kind, in declaration order.
    pub const ALL: [PromptKind; 13] = [
        PromptKind::PromiseOrNack,
        PromptKind::AcceptedOrNack,
        PromptKind::ChooseValue,
        PromptKind::RetryBallot,
        PromptKind::Question,
        PromptKind::ApplyWalk,
        PromptKind::RecoverSlots,
        PromptKind::ServeOrWait,
        PromptKind::Floor,
        PromptKind::JumpPromise,
        PromptKind::ClientResend,
        PromptKind::RepeatApplies,
        PromptKind::ReachSet,
    ];

    /// The kind's name in the JSON the browser reads and in a position's text: `apply-walk`.
    pub fn name(self) -> &'static str {
        match self {
            PromptKind::PromiseOrNack => "promise-or-nack",
            PromptKind::AcceptedOrNack => "accepted-or-nack",
            PromptKind::ChooseValue => "choose-value",
            PromptKind::RetryBallot => "retry-ballot",
            PromptKind::Question => "question",
            PromptKind::ApplyWalk => "apply-walk",
            PromptKind::RecoverSlots => "recover-slots",
            PromptKind::ServeOrWait => "serve-or-wait",
            PromptKind::Floor => "floor",
            PromptKind::JumpPromise => "jump-promise",
            PromptKind::ClientResend => "client-resend",
            PromptKind::RepeatApplies => "repeat-applies",
            PromptKind::ReachSet => "reach-set",
        }
    }

    /// The kind with this name, if any.
    pub fn from_name(name: &str) -> Option<PromptKind> {
        PromptKind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// The automation whose being off opens a prompt of this kind (`None` for level questions
    /// and reads, which are always asked).
    pub fn automation(self) -> Option<Automation> {
        match self {
            PromptKind::PromiseOrNack | PromptKind::AcceptedOrNack => {
                Some(Automation::AcceptorReplies)
            }
            PromptKind::ChooseValue | PromptKind::RecoverSlots => Some(Automation::P2c),
            PromptKind::ApplyWalk | PromptKind::Floor => Some(Automation::ApplyWalk),
            PromptKind::RetryBallot
            | PromptKind::Question
            | PromptKind::ServeOrWait
            | PromptKind::JumpPromise
            | PromptKind::ClientResend
            | PromptKind::RepeatApplies
            | PromptKind::ReachSet => None,
        }
    }
}

/// One answer the player may give.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Choice {
    /// A stable short key: `promise`, `nack`, a value, a ballot, `yes`.
    pub key: String,
    /// What the button says.
    pub label: String,
    /// Whether this is what the real node does (or, for a question, what is true).
    pub right: bool,
    /// Why: for a right answer, the rule it follows; for a wrong one, what it would break.
    pub explanation: String,
}

/// A question put to the player, with its choices already judged.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Prompt {
    /// The kind of question.
    pub kind: PromptKind,
    /// The name of the node the player answers for, if any.
    pub node: Option<String>,
    /// The number of the message held on the wire while the prompt is open, if any.
    pub message: Option<u32>,
    /// The question.
    pub question: String,
    /// The node's own relevant state, one fact a line.
    pub facts: Vec<String>,
    /// The choices. Invariant: at least one is right.
    pub choices: Vec<Choice>,
    /// What a right answer records in the game's memory (a try of a quorum), if anything.
    pub record: Option<String>,
    /// For a level question, the rule it asks about, which names the level's hint for a wrong
    /// answer (`HintFor::Question`); empty for a role prompt, whose kind names it.
    pub topic: &'static str,
}

/// Drops every wrong choice that reads or answers as a right one (same label or same key), so
/// a prompt never offers one answer twice, once right and once wrong.
pub(crate) fn drop_doubles(choices: &mut Vec<Choice>) {
    let rights: Vec<(String, String)> = choices
        .iter()
        .filter(|choice| choice.right)
        .map(|choice| (choice.key.clone(), choice.label.clone()))
        .collect();
    choices.retain(|choice| {
        choice.right
            || rights
                .iter()
                .all(|(key, label)| *key != choice.key && *label != choice.label)
    });
}

impl Prompt {
    /// A level question about `topic` with no node, judged by the level.
    pub fn question(
        topic: &'static str,
        question: String,
        facts: Vec<String>,
        choices: Vec<Choice>,
    ) -> Prompt {
        Prompt {
            topic,
            kind: PromptKind::Question,
            node: None,
            message: None,
            question,
            facts,
            choices,
            record: None,
        }
    }

    /// The choice with this key, if any.
    pub fn choice(&self, key: &str) -> Option<&Choice> {
        self.choices.iter().find(|choice| choice.key == key)
    }

    /// The key of the first right choice.
    pub fn right_key(&self) -> &str {
        self.choices
            .iter()
            .find(|choice| choice.right)
            .map_or("", |choice| choice.key.as_str())
    }
}

/// Sorts a short list in place by `key`, stably, by insertion. The prompts' lists hold a
/// handful of items; the standard library's sort would load about 5 KB of code into the
/// browser's module for each item type it sorts.
pub(crate) fn sort_short<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    for end in 1..items.len() {
        let mut at = end;
        while at > 0 && key(&items[at - 1]) > key(&items[at]) {
            items.swap(at - 1, at);
            at -= 1;
        }
    }
}

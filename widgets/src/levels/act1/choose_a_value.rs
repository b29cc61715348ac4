//! `act1/choose-a-value`: the two phases, one message at a time, with one acceptor silent.
//!
//! Acceptor replies and P2c are pinned on: the level is about the network and the phases.
//! After each vote it asks whether x is chosen yet: the first vote chooses nothing, the second
//! chooses x before P1 hears of it.

use super::{HOW_PAXOS_CHOOSES, vote_cast};
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Pin, Rules, Stage, native_only, native_text};
use crate::prompt::{Choice, Prompt};
use crate::state::{Change, Goal, Memory, Run};
use crate::words::{majority_size, quorums, set_name};
use paros_core::QuorumSystem;
use paros_sim::level_worlds;
use paros_sim::single_decree::DecreeWorld;

/// The level.
pub static LEVEL: Level<DecreeWorld> = Level {
    id: "act1/choose-a-value",
    act: 1,
    title: "Choose a value",
    briefing: native_text(include_str!("choose_a_value.md")),
    by_hand: "Deliver Prepare, Promise, Accept and Accepted one message at a time, with one acceptor silent",
    teaches: "The two phases, and why two of three is enough",
    goal: "x is chosen, and P1 has learned it",
    chapter: HOW_PAXOS_CHOOSES,
    scenario: "act1-choose-a-value",
    symbols: native_only(&[]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Question("chosen"),
            text: "Chosen is a fact about the acceptors' votes: count the acceptors that voted for the \
         same ballot, and compare with a majority of the acceptors.",
        },
        Hint {
            about: HintFor::Question("chosen"),
            text: "P1 learning x is a separate event: it happens only when the Accepteds reach P1. The \
         value can be chosen while every Accepted is still on the wire.",
        },
    ],
    pins: &[
        Pin {
            automation: Automation::AcceptorReplies,
            on: true,
        },
        Pin {
            automation: Automation::P2c,
            on: true,
        },
    ],
    retry_by_hand: false,
    stages: &[Stage {
        title: "One proposer, one silent acceptor",
        note: "P1 has sent Prepare(1.P1) to all three acceptors. A3's wire is cut.",
        world: &level_worlds::CHOOSE_A_VALUE,
    }],
    solution: native_only(&[
        "deliver P1->A1 Prepare",
        "deliver P1->A2 Prepare",
        "deliver A1->P1 Promise",
        "deliver A2->P1 Promise",
        "deliver P1->A1 Accept",
        "answer no",
        "deliver P1->A2 Accept",
        "answer yes",
        "deliver A1->P1 Accepted",
        "deliver A2->P1 Accepted",
    ]),
    solution_unlocked: &[],
    rules: &ChooseAValue,
};

struct ChooseAValue;

impl Rules<DecreeWorld> for ChooseAValue {
    fn goal(&self, run: &Run<DecreeWorld>, _memory: &Memory) -> Goal {
        let world = run.world();
        let learned = world.proposers()[0].learned().is_some();
        if !world.chosen().is_empty() && learned {
            Goal::Reached
        } else {
            Goal::Open
        }
    }

    /// After each vote cast before P1 has learned anything: is the value chosen yet?
    fn question(&self, change: &Change<'_, DecreeWorld>) -> Option<Prompt> {
        if change.before.learned {
            return None;
        }
        let world = change.world;
        let (voter, ballot, value) = vote_cast(world, change.step)?;
        let voters = world
            .votes()
            .iter()
            .find(|votes| votes.ballot == ballot)?
            .voters;
        let chosen = world.chosen().iter().any(|votes| votes.ballot == ballot);
        let at = world.ballot_name(ballot);
        let (who, proposer) = (set_name(world, voters), world.name(ballot.node));
        let heard = world
            .proposers()
            .iter()
            .find(|candidate| candidate.id() == ballot.node)
            .map(|state| state.accepted_by())
            .unwrap_or_default();
        let heard = if heard.is_empty() {
            "nobody yet".to_string()
        } else {
            set_name(world, heard)
        };
        let quorums = quorums(world);
        let counted = format!("{} of {}", voters.len(), quorums.acceptors().len());
        let (yes, no) = if chosen {
            (
                format!(
                    "Yes. {who} voted for {at}, and {counted} acceptors are a majority: {value} \
                     was chosen the moment {} voted, before {proposer} or anyone else heard of \
                     it. The silent acceptor never mattered.",
                    world.name(voter)
                ),
                format!(
                    "{value} is chosen: {who} voted for {at}, and {counted} acceptors are a \
                     majority. Chosen is a fact about the votes, true before anyone learns it: \
                     {proposer} learns it only when the Accepteds arrive, but from this moment no \
                     ballot can ever choose another value."
                ),
            )
        } else {
            (
                format!(
                    "Only {who} has voted for {at}: {counted} acceptors is not a majority. If that \
                     were enough, another proposer could get a different value chosen by as many \
                     other acceptors, and two values would be chosen."
                ),
                format!(
                    "Not yet: only {who} has voted for {at}, and {counted} is not a majority. \
                     Until {} acceptors vote for it, nothing is decided.",
                    quorums.quorum_size()
                ),
            )
        };
        Some(Prompt::question(
            "chosen",
            format!(
                "{} has just voted for ({at}, {value}); its Accepted is on the wire. Is {value} \
                 chosen yet?",
                world.name(voter)
            ),
            vec![
                format!("votes for {at}: {who}"),
                majority_size(&quorums, "acceptors"),
                format!("{proposer} has heard Accepted from {heard}"),
            ],
            vec![
                Choice {
                    key: "yes".into(),
                    label: "Yes".into(),
                    right: chosen,
                    explanation: yes,
                },
                Choice {
                    key: "no".into(),
                    label: "Not yet".into(),
                    right: !chosen,
                    explanation: no,
                },
            ],
        ))
    }
}

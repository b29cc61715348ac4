//! `act1/recovery-is-not-catch-up`: P2 adopts a value that exactly one acceptor accepted and
//! nothing chose, then says whether that value was chosen before it adopted it.
//!
//! P2c is pinned off, so the first prompt is the value of P2's Accept; the second is a level
//! question asked the moment a value becomes chosen.

use super::WHY_ONE_VALUE_IS_SAFE;
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Pin, Rules, Stage, native_only, native_text};
use crate::prompt::{Choice, Prompt, PromptKind};
use crate::state::{Change, Goal, Memory, Run};
use crate::words::{majority_size, quorums, set_name};
use paros_core::QuorumSystem;
use paros_sim::level_worlds;
use paros_sim::single_decree::DecreeWorld;

/// The level.
pub static LEVEL: Level<DecreeWorld> = Level {
    id: "act1/recovery-is-not-catch-up",
    act: 1,
    title: "Recovery is not catch-up",
    briefing: native_text(include_str!("recovery_is_not_catch_up.md")),
    by_hand: "Choose the value of a new proposer's Accept, then say whether it was chosen before",
    teaches: "Recovery repairs an invariant, not data",
    goal: "x is chosen through P2, you can say whether it was chosen before, and P2 has learned x",
    chapter: WHY_ONE_VALUE_IS_SAFE,
    scenario: "act1-recovery",
    symbols: native_only(&[]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Prompt(PromptKind::ChooseValue),
            text: "P2 sees only its quorum. One reported vote looks the same whether the value was \
         accepted by that acceptor alone or chosen with an acceptor P2 did not hear from.",
        },
        Hint {
            about: HintFor::Question("chosen-before"),
            text: "Count the votes for each ballot in the whole world, not in P2's quorum: a value is \
         chosen when a majority voted for one ballot.",
        },
    ],
    pins: &[Pin {
        automation: Automation::P2c,
        on: false,
    }],
    retry_by_hand: false,
    stages: &[Stage {
        title: "One Accept landed",
        note: "P1's Accept(1.P1, x) reached A1 alone; its other Accepts were lost and P1 \
               stopped. P2 has sent Prepare(1.P2) to A1 and A2.",
        world: &level_worlds::RECOVERY_IS_NOT_CATCH_UP,
    }],
    solution: native_only(&[
        "deliver P2->A1 Prepare",
        "deliver P2->A2 Prepare",
        "deliver A1->P2 Promise",
        "deliver A2->P2 Promise",
        "answer x",
        "deliver P2->A1 Accept",
        "deliver P2->A2 Accept",
        "answer no",
        "deliver A1->P2 Accepted",
        "deliver A2->P2 Accepted",
    ]),
    solution_unlocked: &[Automation::AcceptorReplies],
    rules: &Recovery,
};

struct Recovery;

impl Rules<DecreeWorld> for Recovery {
    fn goal(&self, run: &Run<DecreeWorld>, _memory: &Memory) -> Goal {
        let asked = run
            .answers()
            .iter()
            .any(|(kind, _)| *kind == PromptKind::Question);
        let learned = run
            .world()
            .proposers()
            .iter()
            .any(|proposer| proposer.learned().is_some());
        if asked && learned {
            Goal::Reached
        } else {
            Goal::Open
        }
    }

    /// The moment a value becomes chosen: was it chosen before its proposer adopted it?
    fn question(&self, change: &Change<'_, DecreeWorld>) -> Option<Prompt> {
        let world = change.world;
        if change.before.chosen_count > 0 {
            return None;
        }
        let chosen = world.chosen();
        let now = chosen.first()?;
        let earlier: Vec<_> = world
            .votes()
            .iter()
            .filter(|votes| votes.ballot < now.ballot)
            .collect();
        let chosen_before = earlier
            .iter()
            .any(|votes| chosen.iter().any(|c| c.ballot == votes.ballot));
        let (value, at, by) = (
            now.value.to_string(),
            world.ballot_name(now.ballot),
            set_name(world, now.voters),
        );
        let proposer = world.name(now.ballot.node);
        let history: Vec<String> = earlier
            .iter()
            .map(|votes| {
                format!(
                    "votes at {} for {}: {}",
                    world.ballot_name(votes.ballot),
                    votes.value,
                    set_name(world, votes.voters)
                )
            })
            .collect();
        let earlier_votes: Vec<String> = earlier
            .iter()
            .map(|votes| {
                format!(
                    "{} at {}",
                    set_name(world, votes.voters),
                    world.ballot_name(votes.ballot)
                )
            })
            .collect();
        let not_before = format!(
            "Before {proposer}'s Accept, {value} had only these votes: {}. No earlier ballot had \
             a majority of the {} acceptors, so nothing was chosen: {value} became chosen only \
             now, at {at}, by {by}.",
            earlier_votes.join(", "),
            quorums(world).acceptors().len()
        );
        let yes = if chosen_before {
            format!("Yes: a majority had already voted for {value} at an earlier ballot.")
        } else {
            format!(
                "{not_before} {proposer} adopted {value} without knowing this: from its quorum it \
                 could not tell a lone vote from a value chosen with an acceptor it did not hear \
                 from. Recovery repaired the invariant (P2c); there was no decision to copy."
            )
        };
        let no = if chosen_before {
            format!("{value} was already chosen at an earlier ballot by a majority.")
        } else {
            format!(
                "{not_before} {proposer} carried {value} because it could not rule out a choice, \
                 not because there was one: recovery fires exactly when nothing was chosen, \
                 since it cannot know."
            )
        };
        let mut facts = history;
        facts.push(format!("votes at {at} for {value}: {by}"));
        facts.push(majority_size(&quorums(world), "acceptors"));
        Some(Prompt::question(
            "chosen-before",
            format!(
                "{value} is now chosen at {at} by {by}. Was {value} chosen before {proposer} \
                 adopted it?"
            ),
            facts,
            vec![
                Choice {
                    key: "yes".into(),
                    label: "Yes, it was chosen before".into(),
                    right: chosen_before,
                    explanation: yes,
                },
                Choice {
                    key: "no".into(),
                    label: "No, it is chosen only now".into(),
                    right: !chosen_before,
                    explanation: no,
                },
            ],
        ))
    }
}

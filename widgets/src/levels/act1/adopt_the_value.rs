//! `act1/adopt-the-value`: P2c value selection by hand, in three short stages.
//!
//! Each stage begins with a proposer one Promise short of a Phase-1 quorum. The player delivers
//! the Promises and picks the value of the Accept: its own when nothing is reported, the
//! reported value when one is, the highest-ballot one when two differ.

use super::WHY_ONE_VALUE_IS_SAFE;
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Pin, Rules, Stage, native_only, native_text};
use crate::prompt::PromptKind;
use crate::state::{Goal, Memory, Run};
use paros_core::Phase;
use paros_sim::level_worlds;
use paros_sim::single_decree::DecreeWorld;

/// The level.
pub static LEVEL: Level<DecreeWorld> = Level {
    id: "act1/adopt-the-value",
    act: 1,
    title: "Adopt the value",
    briefing: native_text(include_str!("adopt_the_value.md")),
    by_hand: "Choose which value a second proposer puts in its Accept",
    teaches: "P2c: a Promise that reports a value takes the proposer's own choice away",
    goal: "In each of three stages, the asking proposer sends its Accept with the right value",
    chapter: WHY_ONE_VALUE_IS_SAFE,
    scenario: "act1-adopt-the-value",
    symbols: native_only(&[]),
    unlocks: Some(Automation::P2c),
    hints: &[
        Hint {
            about: HintFor::Prompt(PromptKind::ChooseValue),
            text: "Look at what the Promises report. A reported vote may belong to a value that is \
         already chosen by acceptors outside your quorum, and you cannot see them.",
        },
        Hint {
            about: HintFor::Prompt(PromptKind::ChooseValue),
            text: "When the Promises report several votes, the one with the highest ballot decides. An \
         older value could not have been chosen, or the newer ballot would have carried it.",
        },
    ],
    pins: &[Pin {
        automation: Automation::P2c,
        on: false,
    }],
    retry_by_hand: false,
    stages: &[
        Stage {
            title: "Nothing reported",
            note: "P2 has sent Prepare(1.P2); A1 and A2 have promised. No acceptor has voted for \
                   anything.",
            world: &level_worlds::ADOPT_NOTHING_REPORTED,
        },
        Stage {
            title: "One vote reported",
            note: "P1's Accept(1.P1, x) reached A1 alone, and its other Accepts were lost. Now \
                   P2 runs Phase 1 over A1 and A2.",
            world: &level_worlds::ADOPT_ONE_VOTE,
        },
        Stage {
            title: "Two votes reported",
            note: "A1 voted for (1.P1, x). Later P2 ran Phase 1 over A2 and A3, found no vote, \
                   and A2 voted for (1.P2, y). Now P3 runs Phase 1 over A1 and A2.",
            world: &level_worlds::ADOPT_TWO_VOTES,
        },
    ],
    solution: native_only(&[
        "deliver A1->P2 Promise",
        "deliver A2->P2 Promise",
        "answer y",
        "next-stage",
        "deliver A1->P2 Promise",
        "deliver A2->P2 Promise",
        "answer x",
        "next-stage",
        "deliver A1->P3 Promise",
        "deliver A2->P3 Promise",
        "answer y",
    ]),
    solution_unlocked: &[Automation::AcceptorReplies],
    rules: &AdoptTheValue,
};

struct AdoptTheValue;

impl Rules<DecreeWorld> for AdoptTheValue {
    /// The stage is won when the last proposer, the one asking, has sent its Accept.
    fn goal(&self, run: &Run<DecreeWorld>, _memory: &Memory) -> Goal {
        let asking = run.world().proposers().last();
        match asking.map(|proposer| proposer.phase()) {
            Some(Phase::Accepting | Phase::Learned) => Goal::Reached,
            _ => Goal::Open,
        }
    }
}

//! `act1/adopt-the-value`: P2c value selection by hand, in three short stages.
//!
//! Each stage begins with a proposer one Promise short of a Phase-1 quorum. The player delivers
//! the Promises and picks the value of the Accept: its own when nothing is reported, the
//! reported value when one is, the highest-ballot one when two differ.

use super::WHY_ONE_VALUE_IS_SAFE;
use crate::automation::Automation;
use crate::level::{HintFor, Level, Pin, Rules, Stage};
use crate::state::{Goal, Memory, Run};
use paros_core::Phase;
use paros_sim::single_decree::DecreeWorld;
use paros_sim::single_decree::DecreeWorldConfig;
use paros_sim::{Budget, Fault};

/// The level.
pub static LEVEL: Level<DecreeWorld> = Level {
    id: "act1/adopt-the-value",
    act: 1,
    title: "Adopt the value",
    briefing: include_str!("adopt_the_value.md"),
    by_hand: "Choose which value a second proposer puts in its Accept",
    teaches: "P2c: a Promise that reports a value takes the proposer's own choice away",
    goal: "In each of three stages, the asking proposer sends its Accept with the right value",
    chapter: WHY_ONE_VALUE_IS_SAFE,
    scenario: "act1-adopt-the-value",
    symbols: &[],
    unlocks: Some(Automation::P2c),
    hints: [
        "Look at what the Promises report. A reported vote may belong to a value that is \
         already chosen by acceptors outside your quorum, and you cannot see them.",
        "When the Promises report several votes, the one with the highest ballot decides. An \
         older value could not have been chosen, or the newer ballot would have carried it.",
    ],
    hint_for: [HintFor::Any, HintFor::Any],
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
            world: nothing_reported,
            prelude: &["deliver P2->A1 Prepare", "deliver P2->A2 Prepare"],
        },
        Stage {
            title: "One vote reported",
            note: "P1's Accept(1.P1, x) reached A1 alone, and its other Accepts were lost. Now \
                   P2 runs Phase 1 over A1 and A2.",
            world: one_vote,
            prelude: &[
                "deliver P1->A1 Prepare",
                "deliver P1->A2 Prepare",
                "deliver A1->P1 Promise",
                "deliver A2->P1 Promise",
                "deliver P1->A1 Accept",
                "drop P1->A2 Accept",
                "drop P1->A3 Accept",
                "drop P1->A3 Prepare",
                "drop A1->P1 Accepted",
                "start P2",
                "deliver P2->A1 Prepare",
                "deliver P2->A2 Prepare",
                "drop P2->A3 Prepare",
            ],
        },
        Stage {
            title: "Two votes reported",
            note: "A1 voted for (1.P1, x). Later P2 ran Phase 1 over A2 and A3, found no vote, \
                   and A2 voted for (1.P2, y). Now P3 runs Phase 1 over A1 and A2.",
            world: two_votes,
            prelude: &[
                "deliver P1->A1 Prepare",
                "deliver P1->A2 Prepare",
                "deliver A1->P1 Promise",
                "deliver A2->P1 Promise",
                "deliver P1->A1 Accept",
                "drop P1->A2 Accept",
                "drop P1->A3 Accept",
                "drop P1->A3 Prepare",
                "drop A1->P1 Accepted",
                "start P2",
                "deliver P2->A2 Prepare",
                "deliver P2->A3 Prepare",
                "deliver A2->P2 Promise",
                "deliver A3->P2 Promise",
                "deliver P2->A2 Accept",
                "drop P2->A1 Prepare",
                "drop P2->A1 Accept",
                "drop P2->A3 Accept",
                "drop A2->P2 Accepted",
                "start P3",
                "deliver P3->A1 Prepare",
                "deliver P3->A2 Prepare",
                "drop P3->A3 Prepare",
            ],
        },
    ],
    solution: &[
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
    ],
    solution_unlocked: &[Automation::AcceptorReplies],
    rules: &AdoptTheValue,
};

fn nothing_reported() -> DecreeWorldConfig {
    super::world(&["x", "y"], &[false, true], Budget::default())
}

fn one_vote() -> DecreeWorldConfig {
    let budget = Budget::NONE.with(Fault::Drop, 5);
    super::world(&["x", "y"], &[true, false], budget)
}

fn two_votes() -> DecreeWorldConfig {
    let budget = Budget::NONE.with(Fault::Drop, 9);
    super::world(&["x", "y", "z"], &[true, false, false], budget)
}

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

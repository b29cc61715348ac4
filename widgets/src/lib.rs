//! paros-play: the game engine of paros play, its levels, and the stage view the browser draws.
//!
//! A [`Game`] plays one [`Level`] over the real World of paros-sim, which drives the real
//! paros-core. The player holds the network (which message lands next, which is dropped or
//! duplicated) and answers for the nodes whose automation is off. The core, run on a clone,
//! judges every answer: a right answer applies the real step, a wrong one never enters the
//! world and is told what it would break. The game keeps a move log and derives the world by
//! replay, so undo is exact.
//!
//! The game is written once against the [`Board`] trait; Act I's board is paros-sim's
//! single-decree World ([`single_decree`]), and Act II's is its replicated-log `LogWorld`
//! ([`replicated_log`]), with the same [`Level`], [`Game`] and [`View`]. [`Mounted`] holds a
//! level of either act, which is what the wasm bindings play.
//!
//! The browser sees all of this through [`View`], a JSON value rebuilt after every call, and
//! through the wasm bindings (compiled only for wasm32; see `widgets/API.md`).
//!
//! ```
//! use paros_play::{Game, GameAction, Goal};
//!
//! let mut game = Game::new("act1/choose-a-value", &[]).unwrap();
//! for step in game.level().solution {
//!     game.play(step).unwrap();
//! }
//! assert_eq!(game.goal(), Goal::Reached);
//! ```

mod board;
mod game;
mod level;
pub mod levels;
mod mounted;
mod prompt;
pub mod replicated_log;
mod script;
pub mod single_decree;
mod view;
mod words;

#[cfg(target_arch = "wasm32")]
mod wasm;

pub use board::{Board, ByHand};
pub use game::{Game, GameAction, Memory, Mistake, Move, Outcome, OutcomeKind, Run};
pub use level::{Automation, Change, ChecklistItem, Goal, Level, LevelSummary, Pin, Rules, Stage};
pub use mounted::Mounted;
pub use prompt::{Choice, Prompt, PromptKind};
pub use script::ScriptStep;
pub use view::{
    ActionJson, ChosenView, ControlView, MessageView, NodeView, View, automations_json,
    catalog_json, parse_action, parse_unlocked,
};

use std::fmt;

/// Every level, in the order of the level map, as the level map and the book list them.
pub fn catalog() -> Vec<LevelSummary> {
    let act1 = levels::ALL.iter().map(|level| level.summary());
    let act2 = levels::ACT2.iter().map(|level| level.summary());
    act1.chain(act2).collect()
}

/// Why the game refused a call. The game is unchanged.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlayError {
    /// No level has this id.
    UnknownLevel(String),
    /// The input is not what the API expects (malformed JSON, an unknown toggle).
    BadInput(String),
    /// The world refused the action.
    Refused(paros_sim::Refused),
    /// The replicated-log world refused the action.
    LogRefused(paros_sim::replicated_log::LogRefused),
    /// The action is not one the player may take now.
    NotEnabled(String),
    /// A prompt is open: answer it or undo first.
    PromptOpen,
    /// No prompt is open to answer.
    NoPrompt,
    /// The choice index is out of range (index, number of choices).
    NoSuchChoice(usize, usize),
    /// The log is empty.
    NothingToUndo,
    /// The level pins this toggle.
    Pinned(Automation),
    /// The player has not earned this toggle.
    Locked(Automation),
    /// A script step (a prelude or a solution) does not parse or does not apply.
    BadStep(String),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::UnknownLevel(id) => write!(f, "unknown level {id:?}"),
            PlayError::BadInput(why) => write!(f, "bad input: {why}"),
            PlayError::Refused(refused) => write!(f, "{refused}"),
            PlayError::LogRefused(refused) => write!(f, "{refused}"),
            PlayError::NotEnabled(why) => write!(f, "{why}"),
            PlayError::PromptOpen => write!(f, "answer the open question first, or undo"),
            PlayError::NoPrompt => write!(f, "no question is open"),
            PlayError::NoSuchChoice(index, count) => {
                write!(f, "no choice {index}: the question has {count}")
            }
            PlayError::NothingToUndo => write!(f, "nothing to undo"),
            PlayError::Pinned(toggle) => write!(f, "this level pins {toggle}"),
            PlayError::Locked(toggle) => {
                write!(f, "{toggle} is earned by passing {}", toggle.taught_by())
            }
            PlayError::BadStep(why) => write!(f, "bad step: {why}"),
        }
    }
}

impl std::error::Error for PlayError {}

#[cfg(test)]
mod tests;

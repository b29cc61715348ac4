//! [`PlayError`]: why the game refused a call. The game is unchanged by a refused call; the
//! wasm bindings turn it into a JavaScript `Error` in one place.

use crate::automation::Automation;
use std::fmt;

/// Why the game refused a call. The game is unchanged.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlayError {
    /// No level has this id.
    UnknownLevel(String),
    /// The input is not what the API expects (malformed JSON, an unknown toggle).
    BadInput(String),
    /// The world refused the action.
    Refused(paros_sim::Refused),
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

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
//! level of either act, which is what the wasm bindings play. [`Replay`] steps through a
//! simulator report's counterexample on the same stage.
//!
//! The browser sees all of this through [`View`], a JSON value rebuilt after every call, and
//! through the wasm bindings (compiled only for wasm32; see `widgets/API.md`).
//!
//! ```
//! use paros_play::{Game, Goal, levels};
//!
//! let level = levels::find("act1/choose-a-value").unwrap();
//! let mut game = Game::new(level, &[]).unwrap();
//! for step in game.level().solution {
//!     game.play(step).unwrap();
//! }
//! assert_eq!(game.goal(), Goal::Reached);
//! ```

mod automation;
mod board;
mod error;
mod game;
mod input;
mod kept_back;
mod level;
pub mod levels;
pub mod matchmaker;
mod mounted;
mod position;
mod prompt;
mod replay;
pub mod replicated_log;
mod scene;
mod script;
pub mod single_decree;
mod state;
mod view;
mod words;

#[cfg(target_arch = "wasm32")]
mod wasm;

pub use automation::{Automation, Automations};
pub use board::{Board, ByHand};
pub use error::PlayError;
pub use game::{Game, GameAction, Outcome, OutcomeKind};
pub use kept_back::KeptBackView;
pub use level::{Hint, HintFor, Level, LevelSummary, Pin, Rules, Stage};
pub use levels::{MODULES, catalog};
pub use mounted::Mounted;
pub use position::PositionError;
pub use prompt::{Choice, Prompt, PromptKind};
pub use replay::{Replay, ReplayError, ReplayStage, ReplayView, module_of};
pub use scene::{ActionJson, ChosenView, ControlView, MessageView, NodeView};
pub use script::ScriptStep;
pub use state::{Change, ChecklistItem, Goal, Memory, Mistake, Move, Run};
pub use view::{AutomationInfo, View, automations, parse_action, parse_unlocked};

#[cfg(test)]
mod tests;

//! A level of any act, mounted: the one handle the wasm bindings hold.
//!
//! Act I's levels play on the single-decree `DecreeWorld`, Act II's on the replicated-log
//! `LogWorld`, Act IV's Matchmaker Paxos levels on `MatchmakerWorld`; the game is the same
//! generic [`Game`] over each board. [`Mounted`] picks the
//! right one by level id and speaks JSON both ways, so the browser never knows which board a
//! level runs on.
//!
//! Each world is behind the cargo feature its [`Board::MODULE`](crate::Board::MODULE) names
//! (`one-value`, `log`, `matchmaker`; all by default): the book builds one wasm module per world, and a
//! module mounts only its own levels, so the other world's code is not in it.

#[cfg(not(any(feature = "one-value", feature = "log", feature = "matchmaker")))]
compile_error!(
    "paros-play mounts no level: enable the feature `one-value`, `log`, `matchmaker` or several"
);

use crate::automation::Automation;
use crate::error::PlayError;
use crate::game::Game;
use crate::levels;
use crate::position::PositionError;
use crate::view::{View, parse_action};
#[cfg(feature = "matchmaker")]
use paros_sim::matchmaker::MatchmakerWorld;
#[cfg(feature = "log")]
use paros_sim::replicated_log::LogWorld;
#[cfg(feature = "one-value")]
use paros_sim::single_decree::DecreeWorld;

/// One level being played, whichever board it runs on.
#[derive(Clone, Debug)]
pub enum Mounted {
    /// An Act I level.
    #[cfg(feature = "one-value")]
    SingleDecree(Game<DecreeWorld>),
    /// A level of Act II or later.
    #[cfg(feature = "log")]
    ReplicatedLog(Game<LogWorld>),
    /// An Act IV level of Matchmaker Paxos (boxed: its world holds more than the others).
    #[cfg(feature = "matchmaker")]
    Matchmaker(Box<Game<MatchmakerWorld>>),
}

/// Calls `$body` with `$game` bound to the game inside, whichever board it runs on.
macro_rules! with_game {
    ($mounted:expr, $game:ident => $body:expr) => {
        match $mounted {
            #[cfg(feature = "one-value")]
            Mounted::SingleDecree($game) => $body,
            #[cfg(feature = "log")]
            Mounted::ReplicatedLog($game) => $body,
            #[cfg(feature = "matchmaker")]
            Mounted::Matchmaker($game) => $body,
        }
    };
}

impl Mounted {
    /// Mounts the level with this id, with the automation the player has earned. A level of a
    /// world this build leaves out is unknown here.
    pub fn new(level_id: &str, unlocked: &[Automation]) -> Result<Mounted, PlayError> {
        #[cfg(feature = "one-value")]
        if let Some(level) = levels::find(level_id) {
            return Game::new(level, unlocked).map(Mounted::SingleDecree);
        }
        #[cfg(feature = "log")]
        if let Some(level) = levels::find_act2(level_id) {
            return Game::new(level, unlocked).map(Mounted::ReplicatedLog);
        }
        #[cfg(feature = "matchmaker")]
        if let Some(level) = levels::find_matchmaker(level_id) {
            return Game::new(level, unlocked).map(|game| Mounted::Matchmaker(Box::new(game)));
        }
        Err(PlayError::UnknownLevel(level_id.into()))
    }

    /// The view now, as JSON.
    pub fn view_json(&self) -> String {
        with_game!(self, game => View::of(game).to_json())
    }

    /// The view now.
    pub fn view(&self) -> View {
        with_game!(self, game => View::of(game))
    }

    /// Takes an action given as JSON (`{"kind":"deliver","message":7}`).
    pub fn act_json(&mut self, action_json: &str) -> Result<(), PlayError> {
        with_game!(self, game => {
            let action = parse_action(game.world(), action_json)?;
            game.act(action).map(|_| ())
        })
    }

    /// Answers the open prompt with the choice at `index`.
    pub fn answer(&mut self, index: usize) -> Result<(), PlayError> {
        with_game!(self, game => game.answer(index).map(|_| ()))
    }

    /// Takes the last move back.
    pub fn undo(&mut self) -> Result<(), PlayError> {
        with_game!(self, game => game.undo().map(|_| ()))
    }

    /// Goes back to the level's beginning.
    pub fn restart(&mut self) {
        with_game!(self, game => game.restart())
    }

    /// Turns an earned, unpinned toggle on or off.
    pub fn set_automation(&mut self, automation: Automation, on: bool) -> Result<(), PlayError> {
        with_game!(self, game => game.set_automation(automation, on))
    }

    /// The position: one token per move, a line each.
    pub fn position(&self) -> String {
        with_game!(self, game => game.position().join("\n"))
    }

    /// The world actions of the current stage, one a line (`Game::stage_actions`).
    pub fn stage_actions(&self) -> String {
        with_game!(self, game => game.stage_actions().join("\n"))
    }

    /// Plays back a position given a token a line, from the level's start; on a refusal the
    /// level is at its start and the error says which move and why.
    pub fn play_position(&mut self, lines: &str) -> Result<(), PositionError> {
        let tokens: Vec<String> = (lines.lines())
            .filter(|line| !line.trim().is_empty())
            .map(str::to_string)
            .collect();
        with_game!(self, game => game.play_position(&tokens))
    }

    /// Plays one step of the script language.
    pub fn play(&mut self, text: &str) -> Result<(), PlayError> {
        with_game!(self, game => game.play(text).map(|_| ()))
    }
}

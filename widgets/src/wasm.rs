//! The wasm-bindgen bindings: the only code the browser calls. JSON strings cross the boundary
//! both ways (shapes in `widgets/API.md`), and every error becomes a JavaScript `Error` here,
//! in [`fail`].

use crate::automation::Automation;
use crate::error::PlayError;
use crate::mounted::Mounted as Engine;
use crate::view::parse_unlocked;
use wasm_bindgen::prelude::*;

/// The one place a [`PlayError`] becomes a JavaScript `Error`.
fn fail(error: PlayError) -> JsError {
    JsError::new(&error.to_string())
}

/// One level being played.
#[wasm_bindgen(js_name = Game)]
pub struct GameHandle {
    engine: Engine,
}

#[wasm_bindgen(js_class = Game)]
impl GameHandle {
    /// Mounts a level; `unlocked_json` is a JSON array of earned toggle names.
    #[wasm_bindgen(constructor)]
    pub fn new(level_id: &str, unlocked_json: &str) -> Result<GameHandle, JsError> {
        let unlocked = parse_unlocked(unlocked_json).map_err(fail)?;
        let engine = Engine::new(level_id, &unlocked).map_err(fail)?;
        Ok(GameHandle { engine })
    }

    /// The view now.
    pub fn view(&self) -> String {
        self.engine.view_json()
    }

    /// Takes an action (`{"kind":"deliver","message":7}`, ...); returns the new view.
    pub fn act(&mut self, action_json: &str) -> Result<String, JsError> {
        self.engine.act_json(action_json).map_err(fail)?;
        Ok(self.view())
    }

    /// Answers the open prompt with the choice at `choice_index`; returns the new view.
    pub fn answer(&mut self, choice_index: usize) -> Result<String, JsError> {
        self.engine.answer(choice_index).map_err(fail)?;
        Ok(self.view())
    }

    /// Takes the last move back; returns the new view.
    pub fn undo(&mut self) -> Result<String, JsError> {
        self.engine.undo().map_err(fail)?;
        Ok(self.view())
    }

    /// Goes back to the level's beginning; returns the new view.
    pub fn restart(&mut self) -> String {
        self.engine.restart();
        self.view()
    }

    /// The position: the moves of this line of play, one token a line, for a link.
    pub fn position(&self) -> String {
        self.engine.position()
    }

    /// The world actions the current stage's world has applied, as it describes them, one a
    /// line: with the stage's world name from the catalog, what `paros-sim replay` replays.
    pub fn stage_actions(&self) -> String {
        self.engine.stage_actions()
    }

    /// Plays back a position (one token a line) from the level's start; returns the new view.
    /// On a refusal the level is at its start and the error names the move and why.
    pub fn play_position(&mut self, lines: &str) -> Result<String, JsError> {
        (self.engine.play_position(lines)).map_err(|error| JsError::new(&error.to_string()))?;
        Ok(self.view())
    }

    /// Turns an earned, unpinned toggle on or off; returns the new view.
    pub fn set_automation(&mut self, name: &str, on: bool) -> Result<String, JsError> {
        let automation = Automation::from_name(name)
            .ok_or_else(|| fail(PlayError::BadInput(format!("no toggle named {name:?}"))))?;
        self.engine.set_automation(automation, on).map_err(fail)?;
        Ok(self.view())
    }
}

/// A report's counterexample, replayed one action at a time on the stage.
#[wasm_bindgen(js_name = Replay)]
pub struct ReplayHandle {
    replay: crate::replay::Replay,
}

#[wasm_bindgen(js_class = Replay)]
impl ReplayHandle {
    /// Replays `actions_json`, a JSON array of actions as the report prints them, on the world
    /// of `scenario`, and shows step 0. An action that does not replay is an error naming the
    /// scenario and the step.
    #[wasm_bindgen(constructor)]
    pub fn new(scenario: &str, actions_json: &str) -> Result<ReplayHandle, JsError> {
        let actions = crate::input::string_array(actions_json)
            .map_err(|error| JsError::new(&format!("actions {actions_json:?}: {error}")))?;
        let replay = crate::replay::Replay::new(scenario, &actions)
            .map_err(|error| JsError::new(&error.to_string()))?;
        Ok(ReplayHandle { replay })
    }

    /// The step shown.
    pub fn view(&self) -> String {
        self.replay.view().to_json()
    }

    /// One action forward (nothing at the last step); returns the new view.
    pub fn forward(&mut self) -> String {
        self.replay.forward();
        self.view()
    }

    /// One action back, replayed from step 0 (nothing at step 0); returns the new view.
    pub fn back(&mut self) -> String {
        self.replay.back();
        self.view()
    }

    /// Shows `step` (at most the last); returns the new view.
    #[wasm_bindgen(js_name = goTo)]
    pub fn go_to(&mut self, step: usize) -> String {
        self.replay.go_to(step);
        self.view()
    }
}

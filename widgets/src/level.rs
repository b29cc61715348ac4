//! What a level is: its words, its worlds, its automation pins, its reference solution, and the
//! rules that judge it (goal, level questions, checklist).
//!
//! A level is static data plus a [`Rules`] value, so the registry is a plain slice and a level
//! costs nothing until a [`Game`](crate::Game) mounts it. A level reads the game's state
//! (`state.rs`) and never the game itself: the registry (`levels/`) sits above this module, and
//! whoever mounts a level looks it up there and hands the game the `&'static Level`.

use crate::automation::Automation;
use crate::board::Board;
use crate::prompt::{Prompt, PromptKind};
use crate::state::{Change, ChecklistItem, Goal, Memory, Run};
use paros_sim::level_worlds::LevelWorld;
use serde::Serialize;
use std::fmt;

/// The judging half of a level: what it means to win a stage, and what it asks along the way.
pub trait Rules<B: Board>: Sync {
    /// The goal of the current stage of `run`. For the last stage this is the level's goal.
    fn goal(&self, run: &Run<B>, memory: &Memory) -> Goal;

    /// A question to ask after a world step, if this step raises one.
    fn question(&self, _change: &Change<'_, B>) -> Option<Prompt> {
        None
    }

    /// What the level tracks beyond the world, for the stage's checklist.
    fn checklist(&self, _run: &Run<B>, _memory: &Memory) -> Vec<ChecklistItem> {
        Vec::new()
    }
}

/// One world of a level: most levels have one stage, a few play several short worlds in turn.
pub struct Stage<B: Board> {
    /// A short title (`Nothing reported`).
    pub title: &'static str,
    /// One or two sentences of markdown that set the stage.
    pub note: &'static str,
    /// The world it starts from: a configuration and a prelude of world actions the player
    /// cannot undo, defined once in paros-sim, where `paros-sim replay` builds it by name.
    pub world: &'static LevelWorld<B::Config>,
}

/// What earns a hint: a wrong answer to the question it is about, or a failed goal. There is
/// no hint for "any mistake": a hint answers the question just missed, never another one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HintFor {
    /// A wrong answer to a role prompt of this kind (never a level question: see `Question`).
    Prompt(PromptKind),
    /// A wrong answer to the level question about this topic ([`Prompt::topic`]).
    Question(&'static str),
    /// A failed goal (the duel's livelock).
    Failure,
}

impl HintFor {
    /// Whether a wrong answer to a prompt of `kind` about `topic` (or, for `None`, a failed
    /// goal) earns it.
    pub fn earned_by(self, mistake: Option<(PromptKind, &str)>) -> bool {
        match (self, mistake) {
            (HintFor::Prompt(wanted), Some((kind, _))) => {
                kind == wanted && kind != PromptKind::Question
            }
            (HintFor::Question(wanted), Some((kind, topic))) => {
                kind == PromptKind::Question && topic == wanted
            }
            (HintFor::Failure, None) => true,
            _ => false,
        }
    }
}

/// A hint, and what earns it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Hint {
    /// The mistake or failure it answers.
    pub about: HintFor,
    /// The hint, markdown.
    pub text: &'static str,
}

/// How a level sets one automation toggle.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pin {
    /// The toggle.
    pub automation: Automation,
    /// Whether the level forces it on (`true`) or off (`false`).
    pub on: bool,
}

/// A level of paros play.
pub struct Level<B: Board> {
    /// The stable id, e.g. `act1/choose-a-value`; `play/#<id>` opens it.
    pub id: &'static str,
    /// The act, 1 to 4.
    pub act: u8,
    /// The title.
    pub title: &'static str,
    /// The briefing, markdown. Empty in the wasm build: the page reads it from the level
    /// catalog (see `native_text`).
    pub briefing: &'static str,
    /// What the player does by hand (the level map's words).
    pub by_hand: &'static str,
    /// What the level teaches (the level map's words).
    pub teaches: &'static str,
    /// The goal, in words.
    pub goal: &'static str,
    /// The chapter of the field guide beside this level.
    pub chapter: &'static str,
    /// The simulator scenario whose report is shown beside the level.
    pub scenario: &'static str,
    /// The paros-core symbols the level's words name (briefing, hints, prompts, explanations),
    /// as a chapter would link them (`ColocatedNode::recover_slot`, `Ready`). The book's build
    /// resolves each against paros-core's rustdoc, so renaming one breaks it.
    pub symbols: &'static [&'static str],
    /// The automation passing this level earns.
    pub unlocks: Option<Automation>,
    /// The hints, each earned by the mistake or failure it is about, shown in this order.
    /// Every question a level asks has a hint of its own (`tests/hints.rs`).
    pub hints: &'static [Hint],
    /// Toggles this level forces on or off, whatever the player has earned.
    pub pins: &'static [Pin],
    /// Whether a retry opens a prompt asking for the new ballot.
    pub retry_by_hand: bool,
    /// The worlds played in turn. Invariant: at least one.
    pub stages: &'static [Stage<B>],
    /// A reference solution in the script language of [`Game::play`](crate::Game::play),
    /// played from the start with [`Level::solution_unlocked`] earned. Empty in the wasm build
    /// (see `native_only`), as are `symbols`.
    pub solution: &'static [&'static str],
    /// What the reference solution assumes the player has earned.
    pub solution_unlocked: &'static [Automation],
    /// The goal, questions and checklist.
    pub rules: &'static dyn Rules<B>,
}

/// What a level keeps only outside the browser: its reference solution and the core symbols
/// its words name are read by the tests and the book's build, never by the game, so the wasm
/// module leaves them out (evaluated at compile time, the list left out is never emitted).
/// [`native_text`] does the same for the briefing, which the page reads from the level catalog
/// the book writes beside it (`levels.json`).
pub const fn native_only(items: &'static [&'static str]) -> &'static [&'static str] {
    if cfg!(target_arch = "wasm32") {
        &[]
    } else {
        items
    }
}

/// A level's text that the browser gets from the level catalog, not from the module: empty in
/// the wasm build (see [`native_only`]).
pub const fn native_text(text: &'static str) -> &'static str {
    if cfg!(target_arch = "wasm32") {
        ""
    } else {
        text
    }
}

impl<B: Board> Level<B> {
    /// The pin this level puts on `automation`, if any.
    pub fn pin(&self, automation: Automation) -> Option<bool> {
        self.pins
            .iter()
            .find(|pin| pin.automation == automation)
            .map(|pin| pin.on)
    }

    /// The summary the level map and the book generator list.
    pub fn summary(&self) -> LevelSummary {
        LevelSummary {
            id: self.id,
            act: self.act,
            title: self.title,
            by_hand: self.by_hand,
            teaches: self.teaches,
            chapter: self.chapter,
            scenario: self.scenario,
            symbols: self.symbols,
            unlocks: self.unlocks.map(Automation::name),
            module: B::MODULE,
            worlds: self.stages.iter().map(|stage| stage.world.name).collect(),
        }
    }
}

/// A level as the level map and the book generator see it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct LevelSummary {
    /// The stable id.
    pub id: &'static str,
    /// The act.
    pub act: u8,
    /// The title.
    pub title: &'static str,
    /// What the player does by hand.
    pub by_hand: &'static str,
    /// What the level teaches.
    pub teaches: &'static str,
    /// The chapter beside it.
    pub chapter: &'static str,
    /// The simulator scenario beside it.
    pub scenario: &'static str,
    /// The paros-core symbols its words name.
    pub symbols: &'static [&'static str],
    /// The automation name passing it earns.
    pub unlocks: Option<&'static str>,
    /// The wasm module that plays it ([`Board::MODULE`]).
    pub module: &'static str,
    /// The name of each stage's world, in paros-sim's `level_worlds`: what
    /// `paros-sim replay` builds.
    pub worlds: Vec<&'static str>,
}

impl<B: Board> fmt::Debug for Level<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Level")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

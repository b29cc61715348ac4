//! What a level's rules read: the [`Run`] derived from the move log (stage, world, open prompt,
//! answers), the [`Memory`] that undo keeps, the [`Change`] a step made, and the [`Goal`] and
//! [`ChecklistItem`]s the rules answer with.
//!
//! This module sits below both the engine (`game.rs`) and the levels: the game drives a `Run`
//! and keeps a `Memory`, and a level's rules only read them. A run applies moves on its own;
//! the level question a step raises comes in as a function, so nothing here knows levels.

use crate::board::{Board, ByHand};
use crate::error::PlayError;
use crate::prompt::{Prompt, PromptKind};
use paros_sim::single_decree::DecreeAction;
use serde::Serialize;
use std::collections::BTreeSet;

/// One entry of the move log.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Move<A = DecreeAction> {
    /// A world action the world took as is.
    Act(A),
    /// A world action held by a prompt of this kind: the world is unchanged until a right
    /// answer.
    Hold(A, PromptKind),
    /// A right answer, by choice key: applies the held action, or closes a level question.
    Answer(String),
    /// The current stage's goal was met; the next stage's world begins.
    NextStage,
}

/// What is waiting for the player's answer.
#[derive(Clone, Debug)]
enum Pending<B: Board> {
    /// A world action held until the player answers for its node.
    Held(B::Move, PromptKind),
    /// A level question, and the world as it was before the step that raised it: what the
    /// step changed may be the answer, so the view keeps it back until the answer.
    Question(Prompt, Box<B>),
}

/// The state derived from the log: the stage, its world, the open prompt, the answers given.
#[derive(Clone, Debug)]
pub struct Run<B: Board> {
    stage: usize,
    world: B,
    pending: Option<Pending<B>>,
    /// The prompt of a held action, built once after the log is replayed.
    held_prompt: Option<Prompt>,
    /// The right answers of this run, in order: the kind of prompt and the key.
    answers: Vec<(PromptKind, String)>,
}

impl<B: Board> Run<B> {
    /// A run at the start of the first stage, on `world`.
    pub(crate) fn start(world: &B) -> Run<B> {
        Run {
            stage: 0,
            world: world.clone(),
            pending: None,
            held_prompt: None,
            answers: Vec::new(),
        }
    }

    /// The current stage, 0-based.
    pub fn stage(&self) -> usize {
        self.stage
    }

    /// The world of the current stage.
    pub fn world(&self) -> &B {
        &self.world
    }

    /// The right answers given in this run, in order.
    pub fn answers(&self) -> &[(PromptKind, String)] {
        &self.answers
    }

    /// Whether a prompt is open.
    pub fn prompt_open(&self) -> bool {
        self.pending.is_some()
    }

    /// Applies one move; `question` is the level's question about a world step. Only moves the
    /// game itself accepted reach the log, so an error here means the log and the level
    /// disagree (a level changed under a saved log).
    pub(crate) fn apply(
        &mut self,
        question: &dyn Fn(&Change<'_, B>) -> Option<Prompt>,
        stage_starts: &[B],
        entry: &Move<B::Move>,
    ) -> Result<Option<B::Step>, PlayError> {
        match entry {
            Move::Act(action) => self.step(question, action).map(Some),
            Move::Hold(action, kind) => {
                self.pending = Some(Pending::Held(action.clone(), *kind));
                self.held_prompt = None;
                Ok(None)
            }
            Move::Answer(key) => match self.pending.take() {
                Some(Pending::Held(action, kind)) => {
                    self.held_prompt = None;
                    self.answers.push((kind, key.clone()));
                    self.step(question, &action).map(Some)
                }
                Some(Pending::Question(..)) => {
                    self.answers.push((PromptKind::Question, key.clone()));
                    Ok(None)
                }
                None => Err(PlayError::NoPrompt),
            },
            Move::NextStage => {
                let next = stage_starts
                    .get(self.stage + 1)
                    .ok_or(PlayError::NotEnabled("there is no next stage".into()))?;
                self.stage += 1;
                self.world = next.clone();
                self.pending = None;
                self.held_prompt = None;
                Ok(None)
            }
        }
    }

    fn step(
        &mut self,
        question: &dyn Fn(&Change<'_, B>) -> Option<Prompt>,
        action: &B::Move,
    ) -> Result<B::Step, PlayError> {
        let before = self.world.summary();
        let world_before = self.world.clone();
        let step = self.world.play(action)?;
        let change = Change {
            before: &before,
            world: &self.world,
            action,
            step: &step,
        };
        if let Some(asked) = question(&change) {
            self.pending = Some(Pending::Question(asked, Box::new(world_before)));
        }
        Ok(step)
    }

    /// Builds the prompt of a held action, if one is held and not yet built.
    pub(crate) fn build_prompt(&mut self) -> Result<(), PlayError> {
        if let Some(Pending::Held(action, kind)) = &self.pending
            && self.held_prompt.is_none()
        {
            let prompt = self
                .world
                .prompt(action, &ByHand::only(*kind))
                .ok_or_else(|| {
                    PlayError::NotEnabled(format!(
                        "{} opens no prompt",
                        self.world.describe_move(action)
                    ))
                })?;
            self.held_prompt = Some(prompt);
        }
        Ok(())
    }

    /// The open prompt: a held action's or a level question.
    pub(crate) fn prompt(&self) -> Option<&Prompt> {
        match &self.pending {
            Some(Pending::Held(..)) => self.held_prompt.as_ref(),
            Some(Pending::Question(prompt, _)) => Some(prompt),
            None => None,
        }
    }

    /// While a level question is open, the world as it was before the step that raised it.
    pub fn before_question(&self) -> Option<&B> {
        match &self.pending {
            Some(Pending::Question(_, before)) => Some(before),
            _ => None,
        }
    }
}

/// Where a level stands, judged after every move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Goal {
    /// Not yet reached, not lost.
    Open,
    /// The goal predicate holds.
    Reached,
    /// The level can no longer be won from here (undo can): the reason says why.
    Failed(String),
}

impl Goal {
    /// Reached once every item of a level's checklist is done, open until then: the goal of a
    /// level whose checklist is the whole of it.
    pub fn when_all_done(checklist: &[ChecklistItem]) -> Goal {
        if checklist.iter().all(|item| item.done) {
            Goal::Reached
        } else {
            Goal::Open
        }
    }
}

/// One line of a level's checklist: something the level tracks beyond the world.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ChecklistItem {
    /// What is to be done, in the player's words.
    pub label: String,
    /// Whether it is done.
    pub done: bool,
}

impl ChecklistItem {
    /// An item done once a right answer has left `record` in the player's memory.
    pub fn recorded(label: &str, memory: &Memory, record: &str) -> ChecklistItem {
        ChecklistItem {
            label: label.into(),
            done: memory.records.contains(record),
        }
    }
}

/// What changed in one world step, for a level deciding whether to ask a question.
pub struct Change<'a, B: Board> {
    /// The world before the step, summed up.
    pub before: &'a B::Summary,
    /// The world after the step.
    pub world: &'a B,
    /// The action applied.
    pub action: &'a B::Move,
    /// What the action did.
    pub step: &'a B::Step,
}

/// A wrong answer, kept for the player and for the hints.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Mistake {
    /// The kind of prompt it answered, so the hint it earns can be about it.
    pub kind: PromptKind,
    /// The topic of the level question it answered ([`Prompt::topic`](crate::Prompt::topic)).
    pub topic: &'static str,
    /// The question asked.
    pub question: String,
    /// The answer given.
    pub answer: String,
    /// What that answer would have broken.
    pub explanation: String,
}

/// What the player has done beyond the current line of moves. Undo keeps all of it; restart
/// keeps the mistakes, the failures and the pass, and forgets the records of the run.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Memory {
    /// Every wrong answer, in order.
    pub mistakes: Vec<Mistake>,
    /// What right answers recorded in this run (the quorums tried in
    /// `act1/quorum-intersection`); a restart clears them.
    pub records: BTreeSet<String>,
    /// Whether the level's goal was ever reached.
    pub passed: bool,
    /// How many moves led into a failed goal.
    pub failures: u32,
}

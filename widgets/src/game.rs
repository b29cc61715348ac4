//! The game: one level being played, as a log of moves over a [`Board`].
//!
//! The world is never stored as the truth: it is derived by replaying the log from the
//! stage's starting world. That makes undo exact (pop a move, replay) and keeps the game
//! honest: every state the player sees is one the real paros-core reached. What the player has
//! done *beyond* the current run (mistakes, the tries a level counts, whether it was ever
//! passed) lives in [`Memory`], which undo and restart leave alone.

use crate::automation::{Automation, Automations};
use crate::board::{Board, ByHand};
use crate::error::PlayError;
use crate::level::Level;
use crate::position::{self, PositionError, Token};
use crate::prompt::{Prompt, PromptKind};
use crate::script::{self, ScriptStep};
use crate::state::{Change, Goal, Memory, Mistake, Move, Run};
use paros_sim::single_decree::DecreeAction;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// What the player asked for: a world action or the next stage.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameAction<A = DecreeAction> {
    /// A world action.
    World(A),
    /// Go on to the next stage.
    NextStage,
}

/// What the last call did, for the player.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OutcomeKind {
    /// A world action was applied.
    Applied,
    /// A move opened a prompt.
    Prompt,
    /// A right answer was applied.
    Right,
    /// A wrong answer was refused; nothing changed but the mistakes.
    Wrong,
    /// A message was delivered and its receiver took no step.
    Ignored,
    /// A move was undone.
    Undone,
}

/// What the last call did, with a sentence.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Outcome {
    /// What kind of thing happened.
    pub kind: OutcomeKind,
    /// The sentence.
    pub text: String,
}

/// One level being played.
#[derive(Clone, Debug)]
pub struct Game<B: Board> {
    level: &'static Level<B>,
    unlocked: Automations,
    switched_off: Automations,
    /// The world each stage begins with, after its prelude. Invariant: one per stage.
    stage_starts: Vec<B>,
    log: Vec<Move<B::Move>>,
    /// How each move of the log reads. Invariant: as long as `log`.
    log_text: Vec<String>,
    run: Run<B>,
    memory: Memory,
    outcome: Option<Outcome>,
}

impl<B: Board> Game<B> {
    /// Mounts `level`, with the automation the player has earned. The game never looks a level
    /// up: whoever mounts one finds it in the registry ([`levels`](crate::levels)) and passes it
    /// in, so the engine sits below the levels.
    pub fn new(level: &'static Level<B>, unlocked: &[Automation]) -> Result<Game<B>, PlayError> {
        let stage_starts = level
            .stages
            .iter()
            .map(|stage| {
                let mut world = B::build((stage.world.config)()).map_err(PlayError::Refused)?;
                for text in stage.world.prelude {
                    let action = world
                        .parse_move(text)
                        .map_err(|why| PlayError::BadStep(format!("prelude {text:?}: {why}")))?;
                    world.play(&action).map_err(|refused| {
                        PlayError::BadStep(format!("prelude {text:?}: {refused}"))
                    })?;
                }
                Ok(world)
            })
            .collect::<Result<Vec<B>, PlayError>>()?;
        let first = stage_starts
            .first()
            .ok_or(PlayError::BadStep("a level needs a stage".into()))?;
        let run = Run::start(first);
        Ok(Game {
            level,
            unlocked: unlocked.iter().copied().collect(),
            switched_off: Automations::NONE,
            stage_starts,
            log: Vec::new(),
            log_text: Vec::new(),
            run,
            memory: Memory::default(),
            outcome: None,
        })
    }

    /// The level.
    pub fn level(&self) -> &'static Level<B> {
        self.level
    }

    /// The current run: stage, world, answers.
    pub fn run(&self) -> &Run<B> {
        &self.run
    }

    /// The world now.
    pub fn world(&self) -> &B {
        self.run.world()
    }

    /// The move log of the current run.
    pub fn log(&self) -> &[Move<B::Move>] {
        &self.log
    }

    /// How each move of the log reads, in order.
    pub fn log_text(&self) -> &[String] {
        &self.log_text
    }

    /// What the player has done beyond the current run.
    pub fn memory(&self) -> &Memory {
        &self.memory
    }

    /// What the last call did, if it did something.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// The open prompt, if any.
    pub fn prompt(&self) -> Option<&Prompt> {
        self.run.prompt()
    }

    /// Whether `automation` is on for the next move.
    pub fn automation_on(&self, automation: Automation) -> bool {
        match self.level.pin(automation) {
            Some(on) => on,
            None => self.unlocked.contains(automation) && !self.switched_off.contains(automation),
        }
    }

    /// Whether the player has earned `automation`.
    pub fn unlocked(&self, automation: Automation) -> bool {
        self.unlocked.contains(automation)
    }

    /// Turns an earned, unpinned toggle on or off, from the next move on.
    pub fn set_automation(&mut self, automation: Automation, on: bool) -> Result<(), PlayError> {
        if self.level.pin(automation).is_some() {
            return Err(PlayError::Pinned(automation));
        }
        if !self.unlocked.contains(automation) {
            return Err(PlayError::Locked(automation));
        }
        if on {
            self.switched_off.remove(automation);
        } else {
            self.switched_off.insert(automation);
        }
        self.outcome = None;
        Ok(())
    }

    /// The goal as the player sees it: the level's goal on the last stage; on earlier stages
    /// it stays open (a reached stage offers the next one). Never reached with a prompt open.
    pub fn goal(&self) -> Goal {
        if self.run.prompt_open() {
            return Goal::Open;
        }
        match self.stage_goal() {
            Goal::Reached if !self.last_stage() => Goal::Open,
            goal => goal,
        }
    }

    /// The goal of the current stage alone.
    pub fn stage_goal(&self) -> Goal {
        if self.run.prompt_open() {
            return Goal::Open;
        }
        self.level.rules.goal(&self.run, &self.memory)
    }

    fn last_stage(&self) -> bool {
        self.run.stage() + 1 == self.level.stages.len()
    }

    /// Whether `next-stage` is offered now.
    pub fn next_stage_open(&self) -> bool {
        !self.last_stage() && self.stage_goal() == Goal::Reached
    }

    /// The world actions the player may take now: none while a prompt is open or after the
    /// goal failed (undo or restart then).
    pub fn enabled(&self) -> Vec<B::Move> {
        if self.run.prompt_open() || matches!(self.goal(), Goal::Failed(_)) {
            return Vec::new();
        }
        self.offered(self.run.world().moves())
    }

    /// Drops the moves whose automation is off (a shortcut the player has not switched on).
    fn offered(&self, moves: Vec<B::Move>) -> Vec<B::Move> {
        moves
            .into_iter()
            .filter(|action| {
                self.run
                    .world()
                    .requires(action)
                    .is_none_or(|toggle| self.automation_on(toggle))
            })
            .collect()
    }

    /// A 64-bit fingerprint of the stage, the world and the open prompt: equal fingerprints
    /// show the same stage. Message ids are left out, as in a world's [fingerprint](paros_sim::model::Model::fingerprint).
    pub fn fingerprint(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        self.run.stage().hash(&mut hasher);
        self.run.world().fingerprint().hash(&mut hasher);
        self.prompt()
            .map(|prompt| &prompt.question)
            .hash(&mut hasher);
        hasher.finish()
    }

    /// Takes a world action or goes to the next stage. A delivery to a node played by hand
    /// (or a retry whose ballot is asked) opens a prompt instead of stepping the node.
    pub fn act(&mut self, action: GameAction<B::Move>) -> Result<&Outcome, PlayError> {
        let by_hand = self.by_hand();
        self.act_by(action, &by_hand)
    }

    /// [`Game::act`], with `by_hand` deciding which prompts a world action opens.
    fn act_by(
        &mut self,
        action: GameAction<B::Move>,
        by_hand: &ByHand,
    ) -> Result<&Outcome, PlayError> {
        if self.run.prompt_open() {
            return Err(PlayError::PromptOpen);
        }
        if let Goal::Failed(_) = self.goal() {
            return Err(PlayError::NotEnabled(
                "the goal has failed: undo or restart".into(),
            ));
        }
        let (entry, text) = match action {
            GameAction::NextStage => {
                if !self.next_stage_open() {
                    return Err(PlayError::NotEnabled(
                        "the next stage opens when this stage's goal is met".into(),
                    ));
                }
                (Move::NextStage, "next-stage".to_string())
            }
            GameAction::World(action) => {
                self.check_enabled(&action)?;
                let text = self.run.world().describe_move(&action);
                match self.run.world().prompt(&action, by_hand) {
                    Some(prompt) => (Move::Hold(action, prompt.kind), text),
                    None => (Move::Act(action), text),
                }
            }
        };
        let ignored_by = self.receiver_name(&entry);
        let step = self.apply_new(&entry)?;
        self.log.push(entry);
        self.log_text.push(text.clone());
        let outcome = match (self.run.prompt(), step) {
            (Some(prompt), _) => Outcome {
                kind: OutcomeKind::Prompt,
                text: prompt.question.clone(),
            },
            (None, Some(step)) if B::ignored(&step).is_some() => Outcome {
                kind: OutcomeKind::Ignored,
                text: format!(
                    "{} ignored it: {}",
                    ignored_by.unwrap_or_default(),
                    B::ignored(&step).unwrap_or_default()
                ),
            },
            _ => Outcome {
                kind: OutcomeKind::Applied,
                text,
            },
        };
        self.after_move();
        Ok(self.outcome.insert(outcome))
    }

    /// Answers the open prompt with the choice at `index`. A right answer applies the real
    /// step; a wrong one changes nothing but the mistakes, and says what it would break.
    pub fn answer(&mut self, index: usize) -> Result<&Outcome, PlayError> {
        let prompt = self.prompt().ok_or(PlayError::NoPrompt)?;
        let choice = prompt
            .choices
            .get(index)
            .ok_or(PlayError::NoSuchChoice(index, prompt.choices.len()))?
            .clone();
        if !choice.right {
            self.memory.mistakes.push(Mistake {
                kind: prompt.kind,
                topic: prompt.topic,
                question: prompt.question.clone(),
                answer: choice.label,
                explanation: choice.explanation.clone(),
            });
            return Ok(self.outcome.insert(Outcome {
                kind: OutcomeKind::Wrong,
                text: choice.explanation,
            }));
        }
        let record = prompt.record.clone();
        let entry = Move::Answer(choice.key.clone());
        self.apply_new(&entry)?;
        self.log.push(entry);
        self.log_text.push(format!("answer {}", choice.label));
        if let Some(record) = record {
            self.memory.records.insert(record);
        }
        self.after_move();
        Ok(self.outcome.insert(Outcome {
            kind: OutcomeKind::Right,
            text: choice.explanation,
        }))
    }

    /// Takes the last move back: the world is rebuilt by replaying the rest of the log.
    pub fn undo(&mut self) -> Result<&Outcome, PlayError> {
        let Some(entry) = self.log.pop() else {
            return Err(PlayError::NothingToUndo);
        };
        let text = self.log_text.pop().unwrap_or_default();
        if let Err(error) = self.replay() {
            self.log.push(entry);
            self.log_text.push(text);
            return Err(error);
        }
        Ok(self.outcome.insert(Outcome {
            kind: OutcomeKind::Undone,
            text: format!("undid {text}"),
        }))
    }

    /// Goes back to the level's beginning, keeping the player's mistakes and pass. The tries a
    /// run recorded belong to that run (undo keeps them, a restart begins a new one), so the
    /// goal badge shows this run and never a pass from before.
    pub fn restart(&mut self) {
        self.memory.records.clear();
        self.log.clear();
        self.log_text.clear();
        self.run = Run::start(&self.stage_starts[0]);
        self.outcome = None;
    }

    /// Plays one step of the script language the levels' preludes and solutions are written
    /// in: a world action (`deliver m3`, `deliver P1->A2 Prepare`, `start P2`, `retry P1`),
    /// `answer KEY` (a choice's key: `promise`, `x`, `2.P1`, `yes`), `next-stage` or `undo`.
    pub fn play(&mut self, text: &str) -> Result<&Outcome, PlayError> {
        match script::parse(self.run.world(), text).map_err(PlayError::BadStep)? {
            ScriptStep::Answer(key) => {
                let prompt = self.prompt().ok_or(PlayError::NoPrompt)?;
                let index = prompt
                    .choices
                    .iter()
                    .position(|choice| choice.key == key)
                    .ok_or_else(|| PlayError::BadStep(format!("no choice {key:?}")))?;
                self.answer(index)
            }
            ScriptStep::NextStage => self.act(GameAction::NextStage),
            ScriptStep::Undo => self.undo(),
            ScriptStep::World(action) => self.act(GameAction::World(action)),
        }
    }

    /// The position: one token per move of the log, each read against the world it was played
    /// in (see `position.rs`).
    pub fn position(&self) -> Vec<String> {
        let level = self.level;
        let question = |change: &Change<'_, B>| level.rules.question(change);
        let mut run = Run::start(&self.stage_starts[0]);
        let mut tokens = Vec::with_capacity(self.log.len());
        for entry in &self.log {
            tokens.push(position::token(run.world(), entry));
            if run.apply(&question, &self.stage_starts, entry).is_err() {
                break; // the log always replays (undo relies on it); never reached
            }
        }
        tokens
    }

    /// The world actions the current stage's world has applied since the stage began, each as
    /// the world describes it: a shortcut's expansion included, a move still held by its prompt
    /// left out, answers to prompts never (they do not enter the world). Replayed on the
    /// stage's level world (`paros-sim replay`), they reach this stage's world.
    pub fn stage_actions(&self) -> Vec<String> {
        let begins = (self.log.iter())
            .rposition(|entry| matches!(entry, Move::NextStage))
            .map_or(0, |index| index + 1);
        let mut world = self.stage_starts[self.run.stage()].clone();
        let mut held = None;
        let mut texts = Vec::new();
        for entry in &self.log[begins..] {
            let played = match entry {
                Move::Act(action) => Some(action.clone()),
                Move::Hold(action, _) => {
                    held = Some(action.clone());
                    None
                }
                Move::Answer(_) => held.take(),
                Move::NextStage => None,
            };
            let Some(played) = played else { continue };
            // The log always replays (undo relies on it), so nothing here is refused.
            let Ok(actions) = world.clone().world_actions(&played) else {
                break;
            };
            for action in &actions {
                texts.push(world.describe(action));
                if world.apply(action).is_err() {
                    return texts;
                }
            }
        }
        texts
    }

    /// Plays a position back from the level's start, each move through the checks of live
    /// play: a move must be offered, open the same kind of prompt it opened (or none), and each
    /// answer must be right. On the first refusal the level is back at its start and the error
    /// says which move and why.
    pub fn play_position(&mut self, tokens: &[String]) -> Result<(), PositionError> {
        self.restart();
        for (index, text) in tokens.iter().enumerate() {
            if let Err(reason) = self.play_token(text) {
                self.restart();
                return Err(PositionError {
                    number: index + 1,
                    token: text.clone(),
                    reason,
                });
            }
        }
        self.outcome = None;
        Ok(())
    }

    fn play_token(&mut self, text: &str) -> Result<(), String> {
        match position::parse(self.run.world(), text)? {
            Token::Answer(key) => {
                let prompt = self.prompt().ok_or("no question is open")?;
                let index = (prompt.choices.iter())
                    .position(|choice| choice.key == key)
                    .ok_or_else(|| format!("the question has no answer {key:?}"))?;
                if !prompt.choices[index].right {
                    return Err(format!("{key:?} is not a right answer to this question"));
                }
                self.answer(index)
                    .map(drop)
                    .map_err(|error| error.to_string())
            }
            Token::NextStage => {
                (self.act(GameAction::NextStage).map(drop)).map_err(|error| error.to_string())
            }
            Token::Move(action, held) => {
                let by_hand = position::by_hand_for(held);
                (self.act_by(GameAction::World(action), &by_hand).map(drop))
                    .map_err(|error| error.to_string())?;
                let opened = match self.log.last() {
                    Some(Move::Hold(_, kind)) => Some(*kind),
                    _ => None,
                };
                match (held, opened) {
                    _ if held == opened => Ok(()),
                    (Some(kind), None) => {
                        Err(format!("this move opens no {} question here", kind.name()))
                    }
                    (_, opened) => Err(format!(
                        "this move asks a {} question that the position does not mark",
                        opened.map_or("", PromptKind::name)
                    )),
                }
            }
        }
    }

    /// Applies a move that is not yet in the log. On an error the run is rebuilt from the log,
    /// so a refused move leaves the game exactly as it was.
    fn apply_new(&mut self, entry: &Move<B::Move>) -> Result<Option<B::Step>, PlayError> {
        let level = self.level;
        let question = |change: &Change<'_, B>| level.rules.question(change);
        let applied = self
            .run
            .apply(&question, &self.stage_starts, entry)
            .and_then(|step| self.run.build_prompt().map(|()| step));
        if applied.is_err() {
            self.replay()?;
        }
        applied
    }

    fn replay(&mut self) -> Result<(), PlayError> {
        let level = self.level;
        let question = |change: &Change<'_, B>| level.rules.question(change);
        let mut run = Run::start(&self.stage_starts[0]);
        for entry in &self.log {
            run.apply(&question, &self.stage_starts, entry)?;
        }
        run.build_prompt()?;
        self.run = run;
        Ok(())
    }

    /// The parts the player answers for on the next move.
    pub fn by_hand(&self) -> ByHand {
        ByHand {
            off: Automation::ALL
                .into_iter()
                .filter(|toggle| !self.automation_on(*toggle))
                .collect(),
            retry: self.level.retry_by_hand,
        }
    }

    fn check_enabled(&self, action: &B::Move) -> Result<(), PlayError> {
        if self.offered(self.run.world().moves()).contains(action) {
            Ok(())
        } else {
            Err(self.run.world().refusal(action))
        }
    }

    fn receiver_name(&self, entry: &Move<B::Move>) -> Option<String> {
        match entry {
            Move::Act(action) => self.run.world().receiver(action),
            _ => None,
        }
    }

    fn after_move(&mut self) {
        match self.goal() {
            Goal::Reached => self.memory.passed = true,
            Goal::Failed(_) => self.memory.failures += 1,
            Goal::Open => {}
        }
    }
}

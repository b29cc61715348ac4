//! The stage view: everything the browser draws, derived from the game after every call.
//!
//! The browser animates nothing by itself and keeps no game state: it renders the last view.
//! The JSON shape is documented in `widgets/API.md`; the field names here are that contract.

use crate::automation::Automation;
use crate::board::Board;
use crate::error::PlayError;
use crate::game::{Game, GameAction, OutcomeKind};
use crate::kept_back::{KeptBackView, Shown, keep_back};
use crate::prompt::PromptKind;
#[cfg(feature = "matchmaker")]
use crate::scene::MatchmakingView;
use crate::scene::{ActionJson, ChosenView, ClusterView, ControlView, MessageView, NodeView};
use crate::state::{ChecklistItem, Goal};
use serde::Serialize;

/// The whole stage.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct View {
    /// The level's words.
    pub level: LevelView,
    /// Which stage of the level is played.
    pub stage: StageView,
    /// The nodes, acceptors first.
    pub nodes: Vec<NodeView>,
    /// The messages in flight, in send order.
    pub messages: Vec<MessageView>,
    /// The buttons beside the stage (start, retry, next stage).
    pub controls: Vec<ControlView>,
    /// The open prompt.
    pub prompt: Option<PromptView>,
    /// What the last call did.
    pub outcome: Option<OutcomeView>,
    /// The goal and where it stands.
    pub goal: GoalView,
    /// Whether the goal was ever reached (survives undo and restart).
    pub passed: bool,
    /// What the level tracks beyond the world.
    pub checklist: Vec<ChecklistItem>,
    /// The hints earned so far.
    pub hints: Vec<&'static str>,
    /// Every wrong answer so far.
    pub mistakes: Vec<MistakeView>,
    /// The automation toggles of this world.
    pub automation: Vec<ToggleView>,
    /// The chosen value, if any.
    pub chosen: Option<ChosenView>,
    /// How many moves the current run holds.
    pub moves: usize,
    /// Whether undo has a move to take back.
    pub can_undo: bool,
    /// The moves of the current run, as they read.
    pub log: Vec<String>,
    /// 16 hex digits over the stage, the world and the open prompt.
    pub fingerprint: String,
    /// Act II: the chosen log (judged from the votes), the clients, the budgets and the cut
    /// links. Absent in Act I.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<ClusterView>,
    /// Act IV, Matchmaker Paxos: the matchmakers, the configurations and the leaders. Absent
    /// in every other world, and only in a build with that world (its serialization would
    /// otherwise cost the other modules 1.3 KB gzipped).
    #[cfg(feature = "matchmaker")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matchmaking: Option<MatchmakingView>,
    /// While a level question is open: what the step that raised it changed, kept back until
    /// the answer (see `kept_back.rs`). Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept_back: Option<KeptBackView>,
}

/// The level's words.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct LevelView {
    /// The stable id.
    pub id: &'static str,
    /// The act.
    pub act: u8,
    /// The title.
    pub title: &'static str,
    /// The briefing, markdown. Empty from the wasm module, which leaves the briefings out: the
    /// page has each from the level catalog (`levels.json`).
    pub briefing: &'static str,
    /// What the player does by hand.
    pub by_hand: &'static str,
    /// What it teaches.
    pub teaches: &'static str,
    /// The goal, in words.
    pub goal: &'static str,
    /// The chapter beside it.
    pub chapter: &'static str,
    /// The simulator scenario beside it.
    pub scenario: &'static str,
    /// The toggle passing it earns.
    pub unlocks: Option<&'static str>,
}

/// The stage of a level being played.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct StageView {
    /// 0-based.
    pub index: usize,
    /// How many stages the level has.
    pub count: usize,
    /// The stage's title.
    pub title: &'static str,
    /// A sentence or two of markdown.
    pub note: &'static str,
}

/// A choice of the open prompt.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ChoiceView {
    /// Its index, for `answer`.
    pub index: usize,
    /// A stable key.
    pub key: String,
    /// What the button says.
    pub label: String,
}

/// The open prompt. Which choice is right is not in the view.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct PromptView {
    /// The kind of question.
    pub kind: PromptKind,
    /// The node answered for.
    pub node: Option<String>,
    /// The message held.
    pub message: Option<u32>,
    /// The question.
    pub question: String,
    /// The node's own state.
    pub facts: Vec<String>,
    /// The choices.
    pub choices: Vec<ChoiceView>,
}

/// What the last call did.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct OutcomeView {
    /// `applied`, `prompt`, `right`, `wrong`, `ignored`, `undone`.
    pub kind: &'static str,
    /// The sentence.
    pub text: String,
}

/// The goal.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct GoalView {
    /// `open`, `reached`, `failed`.
    pub status: &'static str,
    /// The goal in words (the stage's, on a reached middle stage).
    pub text: String,
    /// Why it failed.
    pub reason: Option<String>,
}

/// A wrong answer.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct MistakeView {
    /// The question.
    pub prompt: String,
    /// The answer given.
    pub answer: String,
    /// What it would break.
    pub explanation: String,
}

/// An automation toggle.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ToggleView {
    /// The stable name.
    pub name: &'static str,
    /// The label.
    pub label: &'static str,
    /// Whether it is on for the next move.
    pub on: bool,
    /// Whether the player earned it.
    pub unlocked: bool,
    /// `on` or `off` when the level pins it.
    pub pinned: Option<&'static str>,
}

/// Parses an action as the browser sends it.
pub fn parse_action<B: Board>(board: &B, json: &str) -> Result<GameAction<B::Move>, PlayError> {
    let parsed = crate::input::action(json)
        .map_err(|error| PlayError::BadInput(format!("action {json:?}: {error}")))?;
    match parsed {
        ActionJson::NextStage => Ok(GameAction::NextStage),
        action => board.parse_json(action).map(GameAction::World),
    }
}

impl View {
    /// The view of `game` now.
    pub fn of<B: Board>(game: &Game<B>) -> View {
        let level = game.level();
        let world = game.world();
        let stage_index = game.run().stage();
        let stage = &level.stages[stage_index];
        let memory = game.memory();
        let goal = game.goal();
        let stage_goal = game.stage_goal();
        let moves = game.enabled();
        let by_hand = game.by_hand();
        let mut shown = Shown {
            nodes: world.nodes(&by_hand),
            messages: world.messages(&moves),
            chosen: world.chosen(),
            cluster: world.cluster(),
            #[cfg(feature = "matchmaker")]
            matchmaking: world.matchmaking(),
        };
        let asked = game.prompt().and_then(|prompt| prompt.node.as_deref());
        let kept_back = (game.run().before_question())
            .map(|before| keep_back(before, &by_hand, asked, &mut shown));
        let goal_text = if game.next_stage_open() {
            format!("Stage done. Next: {}", level.stages[stage_index + 1].title)
        } else {
            level.goal.to_string()
        };
        View {
            level: LevelView {
                id: level.id,
                act: level.act,
                title: level.title,
                briefing: level.briefing,
                by_hand: level.by_hand,
                teaches: level.teaches,
                goal: level.goal,
                chapter: level.chapter,
                scenario: level.scenario,
                unlocks: level.unlocks.map(Automation::name),
            },
            stage: StageView {
                index: stage_index,
                count: level.stages.len(),
                title: stage.title,
                note: stage.note,
            },
            nodes: shown.nodes,
            messages: shown.messages,
            controls: controls(game, &moves),
            prompt: game.prompt().map(|prompt| PromptView {
                kind: prompt.kind,
                node: prompt.node.clone(),
                message: prompt.message,
                question: prompt.question.clone(),
                facts: prompt.facts.clone(),
                choices: prompt
                    .choices
                    .iter()
                    .enumerate()
                    .map(|(index, choice)| ChoiceView {
                        index,
                        key: choice.key.clone(),
                        label: choice.label.clone(),
                    })
                    .collect(),
            }),
            outcome: game.outcome().map(|outcome| OutcomeView {
                kind: match outcome.kind {
                    OutcomeKind::Applied => "applied",
                    OutcomeKind::Prompt => "prompt",
                    OutcomeKind::Right => "right",
                    OutcomeKind::Wrong => "wrong",
                    OutcomeKind::Ignored => "ignored",
                    OutcomeKind::Undone => "undone",
                },
                text: outcome.text.clone(),
            }),
            goal: GoalView {
                status: match goal {
                    Goal::Open => "open",
                    Goal::Reached => "reached",
                    Goal::Failed(_) => "failed",
                },
                text: goal_text,
                reason: match (goal, stage_goal) {
                    (Goal::Failed(reason), _) => Some(reason),
                    _ => None,
                },
            },
            passed: memory.passed,
            checklist: level.rules.checklist(game.run(), memory),
            hints: earned_hints(game),
            mistakes: memory
                .mistakes
                .iter()
                .map(|mistake| MistakeView {
                    prompt: mistake.question.clone(),
                    answer: mistake.answer.clone(),
                    explanation: mistake.explanation.clone(),
                })
                .collect(),
            automation: B::AUTOMATION
                .iter()
                .copied()
                .map(|toggle| ToggleView {
                    name: toggle.name(),
                    label: toggle.label(),
                    on: game.automation_on(toggle),
                    unlocked: game.unlocked(toggle),
                    pinned: level.pin(toggle).map(|on| if on { "on" } else { "off" }),
                })
                .collect(),
            chosen: shown.chosen,
            moves: game.log().len(),
            can_undo: !game.log().is_empty(),
            log: game.log_text().to_vec(),
            fingerprint: format!("{:016x}", game.fingerprint()),
            cluster: shown.cluster,
            #[cfg(feature = "matchmaker")]
            matchmaking: shown.matchmaking,
            kept_back,
        }
    }

    /// The view as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self)
            .unwrap_or_else(|error| panic!("a view always serializes: {error}"))
    }
}

/// Hints are earned by mistakes, and by failing the goal (a livelock is a lesson too): each
/// mistake or failure, in turn, earns the first hint not yet earned that is about it (a wrong
/// answer earns only a hint about the question it answered). They are shown in the level's
/// order.
fn earned_hints<B: Board>(game: &Game<B>) -> Vec<&'static str> {
    let memory = game.memory();
    let level = game.level();
    let failures = usize::try_from(memory.failures).unwrap_or(usize::MAX);
    let events = (memory.mistakes.iter())
        .map(|mistake| Some((mistake.kind, mistake.topic)))
        .chain(std::iter::repeat_n(None, failures.min(level.hints.len())));
    let mut earned = vec![false; level.hints.len()];
    for event in events {
        if let Some(index) = (0..earned.len())
            .find(|&index| !earned[index] && level.hints[index].about.earned_by(event))
        {
            earned[index] = true;
        }
    }
    (level.hints.iter().zip(earned))
        .filter(|(_, earned)| *earned)
        .map(|(hint, _)| hint.text)
        .collect()
}

/// The board's buttons, and the next stage's once this one is won.
fn controls<B: Board>(game: &Game<B>, moves: &[B::Move]) -> Vec<ControlView> {
    let mut controls = game.world().controls(moves);
    if game.next_stage_open() {
        let next = &game.level().stages[game.run().stage() + 1];
        controls.push(ControlView {
            action: ActionJson::NextStage,
            label: format!("Next: {}", next.title),
            help: None,
        });
    }
    controls
}

/// An automation toggle as the level map lists it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct AutomationInfo {
    /// The stable name.
    pub name: &'static str,
    /// The label.
    pub label: &'static str,
    /// The level whose pass earns it.
    pub taught_by: &'static str,
}

/// Every automation toggle, as the level map lists it. The book writes them with the level
/// catalog to `play/levels.json`, which the browser reads before it loads any module.
pub fn automations() -> Vec<AutomationInfo> {
    Automation::ALL
        .into_iter()
        .map(|toggle| AutomationInfo {
            name: toggle.name(),
            label: toggle.label(),
            taught_by: toggle.taught_by(),
        })
        .collect()
}

/// Parses the earned toggles, a JSON array of names. Unknown names are skipped, so progress
/// saved by an older or newer game never stops a level from mounting.
pub fn parse_unlocked(json: &str) -> Result<Vec<Automation>, PlayError> {
    let names = crate::input::string_array(json)
        .map_err(|error| PlayError::BadInput(format!("unlocked {json:?}: {error}")))?;
    Ok(names
        .iter()
        .filter_map(|name| Automation::from_name(name))
        .collect())
}

//! The stage view: everything the browser draws, derived from the game after every call.
//!
//! The browser animates nothing by itself and keeps no game state: it renders the last view.
//! The JSON shape is documented in `widgets/API.md`; the field names here are that contract.

use crate::game::{Game, OutcomeKind};
use crate::level::{Automation, ChecklistItem, Goal};
use crate::prompt::PromptKind;
use crate::words::names;
use crate::{GameAction, PlayError};
use paros_core::{Envelope, Message, NodeSet, Phase, Vote};
use paros_sim::{Action, MessageId, Role, World};
use serde::{Deserialize, Serialize};

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
    /// The briefing, markdown.
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

/// A vote, as the stage prints it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct VoteView {
    /// The ballot, `round.owner`.
    pub ballot: String,
    /// The value.
    pub value: String,
}

/// One box of a node's log column.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct SlotView {
    /// The slot number, from 1.
    pub slot: u32,
    /// `empty`, `undecided` or `chosen` (Act II adds `hole`).
    pub state: &'static str,
    /// The ballot of the vote in the box, if any.
    pub ballot: Option<String>,
    /// The value of the vote in the box, if any.
    pub value: Option<String>,
}

/// A Promise a proposer holds.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct PromiseView {
    /// The acceptor that promised.
    pub from: String,
    /// The vote it reported.
    pub accepted: Option<VoteView>,
}

/// A node. Role-specific fields are absent for the other role.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct NodeView {
    /// A1.., P1..
    pub name: String,
    /// `acceptor` or `proposer`.
    pub role: &'static str,
    /// Whether its wire is cut.
    pub silent: bool,
    /// Whether the player answers for it on the next move.
    pub by_hand: bool,
    /// Acceptor: its promise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub promised: Option<Option<String>>,
    /// Acceptor: its accepted record.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accepted: Option<Option<VoteView>>,
    /// Proposer: its own value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Proposer: `idle`, `preparing`, `accepting`, `learned`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase: Option<&'static str>,
    /// Proposer: the ballot it runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ballot: Option<Option<String>>,
    /// Proposer: the Promises held for that ballot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub promises: Option<Vec<PromiseView>>,
    /// Proposer: the value sent in its Accepts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proposal: Option<Option<String>>,
    /// Proposer: the acceptors that voted for its ballot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accepted_by: Option<Vec<String>>,
    /// Proposer: the value it learned is chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub learned: Option<Option<String>>,
    /// Proposer: retries left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retries_left: Option<u32>,
    /// The node's log as boxes (one for an Act I acceptor, none for a proposer).
    pub slots: Vec<SlotView>,
}

/// A message in flight.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct MessageView {
    /// The number of its id (`m7` is 7).
    pub id: u32,
    /// Sender.
    pub from: String,
    /// Receiver.
    pub to: String,
    /// `prepare`, `promise`, `accept`, `accepted`, `nack`.
    pub kind: &'static str,
    /// How it reads: `Prepare(1.P1)`.
    pub text: String,
    /// The ballot it is about.
    pub ballot: String,
    /// Whether its wire is cut.
    pub cut: bool,
    /// What the player may do with it now.
    pub actions: Vec<&'static str>,
}

/// An action as JSON, both ways.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ActionJson {
    /// Deliver a message.
    Deliver {
        /// Its id's number.
        message: u32,
    },
    /// Drop a message.
    Drop {
        /// Its id's number.
        message: u32,
    },
    /// Duplicate a message.
    Duplicate {
        /// Its id's number.
        message: u32,
    },
    /// Start a proposer.
    Start {
        /// Its name.
        node: String,
    },
    /// Retry a proposer.
    Retry {
        /// Its name.
        node: String,
    },
    /// Go to the next stage.
    NextStage,
}

/// A button.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ControlView {
    /// What to send to `act`.
    pub action: ActionJson,
    /// What the button says.
    pub label: String,
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

/// The chosen value.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ChosenView {
    /// The value.
    pub value: String,
    /// The lowest ballot at which it was chosen.
    pub ballot: String,
    /// Who voted for that ballot.
    pub by: Vec<String>,
}

/// Parses an action as the browser sends it.
pub fn parse_action(world: &World, json: &str) -> Result<GameAction, PlayError> {
    let parsed: ActionJson = serde_json::from_str(json)
        .map_err(|error| PlayError::BadInput(format!("action {json:?}: {error}")))?;
    let node = |name: &str| {
        world
            .parse_action(&format!("start {name}"))
            .ok()
            .and_then(|action| match action {
                Action::Start(node) if world.name(node) == name => Some(node),
                _ => None,
            })
            .ok_or_else(|| PlayError::BadInput(format!("no node named {name:?}")))
    };
    Ok(match parsed {
        ActionJson::Deliver { message } => GameAction::World(Action::Deliver(MessageId(message))),
        ActionJson::Drop { message } => GameAction::World(Action::Drop(MessageId(message))),
        ActionJson::Duplicate { message } => {
            GameAction::World(Action::Duplicate(MessageId(message)))
        }
        ActionJson::Start { node: name } => GameAction::World(Action::Start(node(&name)?)),
        ActionJson::Retry { node: name } => GameAction::World(Action::Retry(node(&name)?)),
        ActionJson::NextStage => GameAction::NextStage,
    })
}

impl View {
    /// The view of `game` now.
    pub fn of(game: &Game) -> View {
        let level = game.level();
        let world = game.world();
        let stage_index = game.run().stage();
        let stage = &level.stages[stage_index];
        let memory = game.memory();
        let goal = game.goal();
        let stage_goal = game.stage_goal();
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
            nodes: nodes(game, world),
            messages: messages(game, world),
            controls: controls(game, world),
            prompt: game.prompt().map(|prompt| PromptView {
                kind: prompt.kind,
                node: prompt.node.map(|node| world.name(node)),
                message: prompt.message.map(|id| id.0),
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
            automation: Automation::ALL
                .into_iter()
                .map(|toggle| ToggleView {
                    name: toggle.name(),
                    label: toggle.label(),
                    on: game.automation_on(toggle),
                    unlocked: game.unlocked(toggle),
                    pinned: level.pin(toggle).map(|on| if on { "on" } else { "off" }),
                })
                .collect(),
            chosen: world.chosen().first().map(|votes| ChosenView {
                value: votes.value.to_string(),
                ballot: world.ballot_name(votes.ballot),
                by: names(world, votes.voters),
            }),
            moves: game.log().len(),
            can_undo: !game.log().is_empty(),
            log: game.log_text().to_vec(),
            fingerprint: format!("{:016x}", game.fingerprint()),
        }
    }

    /// The view as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a view always serializes")
    }
}

/// Hints are earned by mistakes, and by failing the goal (a livelock is a lesson too).
fn earned_hints(game: &Game) -> Vec<&'static str> {
    let memory = game.memory();
    let earned = memory.mistakes.len() + usize::try_from(memory.failures).unwrap_or(usize::MAX);
    game.level().hints.iter().copied().take(earned).collect()
}

fn vote_view(world: &World, vote: &Vote) -> VoteView {
    VoteView {
        ballot: world.ballot_name(vote.ballot),
        value: vote.value.to_string(),
    }
}

fn nodes(game: &Game, world: &World) -> Vec<NodeView> {
    let silent = world.config().silent;
    let chosen_value = world.chosen().first().map(|votes| votes.value.clone());
    let acceptors = world.acceptors().iter().map(|acceptor| {
        let accepted = acceptor.accepted();
        let state = match accepted {
            None => "empty",
            Some(vote) if Some(&vote.value) == chosen_value.as_ref() => "chosen",
            Some(_) => "undecided",
        };
        NodeView {
            name: world.name(acceptor.id()),
            role: "acceptor",
            silent: silent.contains(acceptor.id()),
            by_hand: game.node_by_hand(Role::Acceptor(0)),
            promised: Some(acceptor.promised().map(|ballot| world.ballot_name(ballot))),
            accepted: Some(accepted.map(|vote| vote_view(world, vote))),
            value: None,
            phase: None,
            ballot: None,
            promises: None,
            proposal: None,
            accepted_by: None,
            learned: None,
            retries_left: None,
            slots: vec![SlotView {
                slot: 1,
                state,
                ballot: accepted.map(|vote| world.ballot_name(vote.ballot)),
                value: accepted.map(|vote| vote.value.to_string()),
            }],
        }
    });
    let proposers = world
        .proposers()
        .iter()
        .enumerate()
        .map(|(index, proposer)| NodeView {
            name: world.name(proposer.id()),
            role: "proposer",
            silent: silent.contains(proposer.id()),
            by_hand: game.node_by_hand(Role::Proposer(index)),
            promised: None,
            accepted: None,
            value: Some(proposer.own_value().to_string()),
            phase: Some(match proposer.phase() {
                Phase::Idle => "idle",
                Phase::Preparing => "preparing",
                Phase::Accepting => "accepting",
                Phase::Learned => "learned",
            }),
            ballot: Some(proposer.ballot().map(|ballot| world.ballot_name(ballot))),
            promises: Some(
                proposer
                    .promises()
                    .iter()
                    .map(|(node, vote)| PromiseView {
                        from: world.name(*node),
                        accepted: vote.as_ref().map(|vote| vote_view(world, vote)),
                    })
                    .collect(),
            ),
            proposal: Some(proposer.proposal().map(|value| value.to_string())),
            accepted_by: Some(names(world, proposer.accepted_by())),
            learned: Some(proposer.learned().map(|value| value.to_string())),
            retries_left: world.retries_left().get(index).copied(),
            slots: Vec::new(),
        });
    acceptors.chain(proposers).collect()
}

fn messages(game: &Game, world: &World) -> Vec<MessageView> {
    let enabled = game.enabled();
    let silent = world.config().silent;
    world
        .in_flight()
        .iter()
        .map(|message| {
            let envelope = &message.envelope;
            let actions = [
                (Action::Deliver(message.id), "deliver"),
                (Action::Drop(message.id), "drop"),
                (Action::Duplicate(message.id), "duplicate"),
            ]
            .into_iter()
            .filter(|(action, _)| enabled.contains(action))
            .map(|(_, verb)| verb)
            .collect();
            message_view(world, message.id, envelope, silent, actions)
        })
        .collect()
}

fn message_view(
    world: &World,
    id: MessageId,
    envelope: &Envelope,
    silent: NodeSet,
    actions: Vec<&'static str>,
) -> MessageView {
    MessageView {
        id: id.0,
        from: world.name(envelope.from),
        to: world.name(envelope.to),
        kind: match envelope.message {
            Message::Prepare { .. } => "prepare",
            Message::Promise { .. } => "promise",
            Message::Accept { .. } => "accept",
            Message::Accepted { .. } => "accepted",
            Message::Nack { .. } => "nack",
        },
        text: world.message_name(&envelope.message),
        ballot: world.ballot_name(envelope.message.ballot()),
        cut: silent.contains(envelope.from) || silent.contains(envelope.to),
        actions,
    }
}

fn controls(game: &Game, world: &World) -> Vec<ControlView> {
    let mut controls: Vec<ControlView> = game
        .enabled()
        .into_iter()
        .filter_map(|action| match action {
            Action::Start(node) => Some(ControlView {
                action: ActionJson::Start {
                    node: world.name(node),
                },
                label: format!("Start {}", world.name(node)),
            }),
            Action::Retry(node) => {
                let left = match world.role(node) {
                    Some(Role::Proposer(index)) => world.retries_left()[index],
                    _ => 0,
                };
                Some(ControlView {
                    action: ActionJson::Retry {
                        node: world.name(node),
                    },
                    label: format!("Retry {} ({left} left)", world.name(node)),
                })
            }
            _ => None,
        })
        .collect();
    if game.next_stage_open() {
        let level = game.level();
        let next = &level.stages[game.run().stage() + 1];
        controls.push(ControlView {
            action: ActionJson::NextStage,
            label: format!("Next: {}", next.title),
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

/// [`crate::catalog`] as JSON.
pub fn catalog_json() -> String {
    serde_json::to_string(&crate::catalog()).expect("summaries always serialize")
}

/// Every toggle, as JSON.
pub fn automations_json() -> String {
    let toggles: Vec<AutomationInfo> = Automation::ALL
        .into_iter()
        .map(|toggle| AutomationInfo {
            name: toggle.name(),
            label: toggle.label(),
            taught_by: toggle.taught_by(),
        })
        .collect();
    serde_json::to_string(&toggles).expect("toggles always serialize")
}

/// Parses the earned toggles, a JSON array of names. Unknown names are skipped, so progress
/// saved by an older or newer game never stops a level from mounting.
pub fn parse_unlocked(json: &str) -> Result<Vec<Automation>, PlayError> {
    let names: Vec<String> = serde_json::from_str(json).map_err(|error| {
        PlayError::BadInput(format!(
            "unlocked {json:?}: expected an array of names: {error}"
        ))
    })?;
    Ok(names
        .iter()
        .filter_map(|name| Automation::from_name(name))
        .collect())
}

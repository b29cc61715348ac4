//! Act I's board: paros-sim's single-decree [`World`], driven by the player.
//!
//! Everything here reaches the protocol only through the World, which steps the real
//! paros-core nodes; the role prompts ask the World, on a clone, what the real node does.

pub mod prompts;
pub mod stage;

use crate::automation::Automation;
use crate::board::{Board, ByHand};
use crate::error::PlayError;
use crate::prompt::Prompt;
use crate::scene::{ActionJson, ChosenView, ControlView, MessageView, NodeView};
use crate::script;
use crate::words::names;
use paros_sim::{Action, MessageId, Step, World, WorldConfig};

/// The facts Act I's level questions compare across a step.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Summary {
    /// How many ballots have been chosen.
    pub chosen_count: usize,
    /// Whether any proposer had learned a value.
    pub learned: bool,
}

impl Board for World {
    type Config = WorldConfig;
    type Action = Action;
    type Step = Step;
    type Summary = Summary;

    const AUTOMATION: &'static [Automation] = &[Automation::AcceptorReplies, Automation::P2c];

    fn build(config: WorldConfig) -> Result<World, PlayError> {
        World::new(config).map_err(PlayError::Refused)
    }

    fn apply(&mut self, action: &Action) -> Result<Step, PlayError> {
        World::apply(self, action).map_err(PlayError::Refused)
    }

    /// Every enabled action but the negative control's, which is never a move.
    fn moves(&self) -> Vec<Action> {
        self.enabled()
            .into_iter()
            .filter(|action| !matches!(action, Action::Amnesia(_)))
            .collect()
    }

    fn refusal(&self, action: &Action) -> PlayError {
        if matches!(action, Action::Amnesia(_)) {
            return PlayError::NotEnabled("amnesia is a negative control, not a move".into());
        }
        // Ask the world on a clone why, so the error says it in the world's own words.
        match self.clone().apply(action) {
            Err(refused) => PlayError::Refused(refused),
            Ok(_) => PlayError::NotEnabled(format!("{} is not enabled", self.describe(action))),
        }
    }

    fn describe(&self, action: &Action) -> String {
        World::describe(self, action)
    }

    fn fingerprint(&self) -> u64 {
        World::fingerprint(self)
    }

    fn summary(&self) -> Summary {
        Summary {
            chosen_count: self.chosen().len(),
            learned: self
                .proposers()
                .iter()
                .any(|proposer| proposer.learned().is_some()),
        }
    }

    fn parse_step(&self, text: &str) -> Result<Action, String> {
        script::world_action(self, text)
    }

    fn parse_json(&self, action: ActionJson) -> Result<Action, PlayError> {
        let node = |name: &str| {
            self.parse_action(&format!("start {name}"))
                .ok()
                .and_then(|action| match action {
                    Action::Start(node) if self.name(node) == name => Some(node),
                    _ => None,
                })
                .ok_or_else(|| PlayError::BadInput(format!("no node named {name:?}")))
        };
        Ok(match action {
            ActionJson::Deliver { message } => Action::Deliver(MessageId(message)),
            ActionJson::Drop { message } => Action::Drop(MessageId(message)),
            ActionJson::Duplicate { message } => Action::Duplicate(MessageId(message)),
            ActionJson::Start { node: name } => Action::Start(node(&name)?),
            ActionJson::Retry { node: name } => Action::Retry(node(&name)?),
            ActionJson::NextStage => {
                return Err(PlayError::BadInput(
                    "next-stage is not a world action".into(),
                ));
            }
            other => {
                return Err(PlayError::BadInput(format!(
                    "{other:?} is an action of the replicated log, not of this world"
                )));
            }
        })
    }

    fn prompt(&self, action: &Action, by_hand: &ByHand) -> Option<Prompt> {
        prompts::for_action(self, action, by_hand)
    }

    fn receiver(&self, action: &Action) -> Option<String> {
        let Action::Deliver(id) = action else {
            return None;
        };
        self.message(*id)
            .map(|message| self.name(message.envelope.to))
    }

    fn ignored(step: &Step) -> Option<String> {
        step.ignored.map(|reason| reason.to_string())
    }

    fn nodes(&self, by_hand: &ByHand) -> Vec<NodeView> {
        stage::nodes(self, by_hand)
    }

    fn messages(&self, moves: &[Action]) -> Vec<MessageView> {
        stage::messages(self, moves)
    }

    fn controls(&self, moves: &[Action]) -> Vec<ControlView> {
        stage::controls(self, moves)
    }

    fn chosen(&self) -> Option<ChosenView> {
        World::chosen(self).first().map(|votes| ChosenView {
            value: votes.value.to_string(),
            ballot: self.ballot_name(votes.ballot),
            by: names(self, votes.voters),
        })
    }
}

//! Act I's board: paros-sim's single-decree [`DecreeWorld`], driven by the player.
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
use crate::words::names;
use paros_sim::MessageId;
use paros_sim::single_decree::{DecreeAction, DecreeStep, DecreeWorld};

/// The facts Act I's level questions compare across a step.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Summary {
    /// How many ballots have been chosen.
    pub chosen_count: usize,
    /// Whether any proposer had learned a value.
    pub learned: bool,
}

impl Board for DecreeWorld {
    type Move = DecreeAction;
    type Summary = Summary;

    const AUTOMATION: &'static [Automation] = &[Automation::AcceptorReplies, Automation::P2c];
    const MODULE: &'static str = "one-value";

    fn play(&mut self, action: &DecreeAction) -> Result<DecreeStep, PlayError> {
        DecreeWorld::apply(self, action).map_err(PlayError::Refused)
    }

    fn world_actions(&mut self, action: &DecreeAction) -> Result<Vec<DecreeAction>, PlayError> {
        DecreeWorld::apply(self, action).map_err(PlayError::Refused)?;
        Ok(vec![*action])
    }

    /// Every enabled action but the negative control's, which is never a move.
    fn moves(&self) -> Vec<DecreeAction> {
        self.enabled()
            .into_iter()
            .filter(|action| !matches!(action, DecreeAction::Amnesia(_)))
            .collect()
    }

    fn refusal(&self, action: &DecreeAction) -> PlayError {
        if matches!(action, DecreeAction::Amnesia(_)) {
            return PlayError::NotEnabled("amnesia is a negative control, not a move".into());
        }
        // Ask the world on a clone why, so the error says it in the world's own words.
        match self.clone().apply(action) {
            Err(refused) => PlayError::Refused(refused),
            Ok(_) => PlayError::NotEnabled(format!("{} is not enabled", self.describe(action))),
        }
    }

    fn describe_move(&self, action: &DecreeAction) -> String {
        DecreeWorld::describe(self, action)
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

    fn parse_move(&self, text: &str) -> Result<DecreeAction, String> {
        DecreeWorld::parse_action(self, text)
    }

    fn parse_json(&self, action: ActionJson) -> Result<DecreeAction, PlayError> {
        let node = |name: &str| {
            self.parse_action(&format!("start {name}"))
                .ok()
                .and_then(|action| match action {
                    DecreeAction::Start(node) if self.name(node) == name => Some(node),
                    _ => None,
                })
                .ok_or_else(|| PlayError::BadInput(format!("no node named {name:?}")))
        };
        Ok(match action {
            ActionJson::Deliver { message } => DecreeAction::Deliver(MessageId(message)),
            ActionJson::Drop { message } => DecreeAction::Drop(MessageId(message)),
            ActionJson::Duplicate { message } => DecreeAction::Duplicate(MessageId(message)),
            ActionJson::Start { node: name } => DecreeAction::Start(node(&name)?),
            ActionJson::Retry { node: name } => DecreeAction::Retry(node(&name)?),
            ActionJson::NextStage => {
                return Err(PlayError::BadInput(
                    "next-stage is not a world action".into(),
                ));
            }
            other => {
                return Err(PlayError::BadInput(format!(
                    "{} is an action of the replicated log, not of this world",
                    serde_json::to_string(&other).unwrap_or_default()
                )));
            }
        })
    }

    fn prompt(&self, action: &DecreeAction, by_hand: &ByHand) -> Option<Prompt> {
        prompts::for_action(self, action, by_hand)
    }

    fn receiver(&self, action: &DecreeAction) -> Option<String> {
        let DecreeAction::Deliver(id) = action else {
            return None;
        };
        self.message(*id)
            .map(|message| self.name(message.envelope.to))
    }

    fn ignored(step: &DecreeStep) -> Option<String> {
        step.ignored.map(|reason| reason.to_string())
    }

    fn nodes(&self, by_hand: &ByHand) -> Vec<NodeView> {
        stage::nodes(self, by_hand)
    }

    fn messages(&self, moves: &[DecreeAction]) -> Vec<MessageView> {
        stage::messages(self, moves)
    }

    fn controls(&self, moves: &[DecreeAction]) -> Vec<ControlView> {
        stage::controls(self, moves)
    }

    fn chosen(&self) -> Option<ChosenView> {
        DecreeWorld::chosen(self).first().map(|votes| ChosenView {
            value: votes.value.to_string(),
            ballot: self.ballot_name(votes.ballot),
            by: names(self, votes.voters),
        })
    }
}

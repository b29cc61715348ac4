//! Act IV's Matchmaker Paxos board: paros-sim's `MatchmakerWorld`, driven by the player.
//!
//! The world steps paros-core's matchmakers, acceptors, leaders and reconfigurer; the player
//! holds the network and the leaders' buttons (start, collect, retire). The board opens no role
//! prompt of its own: every question of its levels is a level question, judged after a step
//! by paros-core's own rules (`phase1_complete`, `history_from_replies`, `match_rule`, ...) on
//! the real state. The stage draws the matchmaker plane apart from the acceptors (`stage`).

mod names;
pub mod stage;

use crate::automation::Automation;
use crate::board::{Board, ByHand};
use crate::error::PlayError;
use crate::prompt::Prompt;
use crate::scene::{ActionJson, ChosenView, ControlView, MatchmakingView, MessageView, NodeView};
pub use names::{name, names, round_name, set_name};
use paros_core::matchmaker::{MmEnvelope, Stage};
use paros_core::{Ballot, NodeSet};
use paros_sim::MessageId;
use paros_sim::matchmaker::{MatchmakerWorld, MmAction, MmStep};
use paros_sim::model::Model;
use paros_sim::network::InFlight;

/// The facts the matchmaker levels' questions compare across a step.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Summary {
    /// Each leader's stage, L1 first.
    pub stages: Vec<Stage>,
    /// The acceptors each leader holds promises from, L1 first.
    pub promised_by: Vec<NodeSet>,
    /// The messages in flight, in send order: what a delivery handed over.
    pub in_flight: Vec<InFlight<MmEnvelope>>,
    /// Each matchmaker's garbage-collection watermark, M1 first.
    pub watermarks: Vec<Option<Ballot>>,
    /// The id the next message sent will get.
    pub next_message: MessageId,
}

impl Board for MatchmakerWorld {
    type Move = MmAction;
    type Summary = Summary;

    const AUTOMATION: &'static [Automation] = &[];
    const MODULE: &'static str = "matchmaker";

    fn play(&mut self, action: &MmAction) -> Result<MmStep, PlayError> {
        Model::apply(self, action).map_err(PlayError::Refused)
    }

    fn world_actions(&mut self, action: &MmAction) -> Result<Vec<MmAction>, PlayError> {
        Model::apply(self, action).map_err(PlayError::Refused)?;
        Ok(vec![*action])
    }

    fn moves(&self) -> Vec<MmAction> {
        Model::enabled(self)
    }

    fn refusal(&self, action: &MmAction) -> PlayError {
        // Ask the world on a clone why, so the error says it in the world's own words.
        match Model::apply(&mut self.clone(), action) {
            Err(refused) => PlayError::Refused(refused),
            Ok(_) => PlayError::NotEnabled(format!("{} is not enabled", self.describe(action))),
        }
    }

    fn describe_move(&self, action: &MmAction) -> String {
        self.describe(action)
    }

    fn summary(&self) -> Summary {
        Summary {
            stages: self.leaders().iter().map(|leader| leader.stage()).collect(),
            promised_by: (self.leaders().iter())
                .map(|leader| leader.promised_by())
                .collect(),
            in_flight: (self.in_flight().iter())
                .map(|message| InFlight {
                    id: message.id,
                    envelope: MmEnvelope::clone(&message.envelope),
                })
                .collect(),
            watermarks: (self.matchmakers().iter())
                .map(|matchmaker| matchmaker.watermark())
                .collect(),
            next_message: self.network().next_id(),
        }
    }

    fn parse_move(&self, text: &str) -> Result<MmAction, String> {
        self.parse_action(text)
    }

    fn parse_json(&self, action: ActionJson) -> Result<MmAction, PlayError> {
        let node = |name: &str| {
            self.parse_action(&format!("crash {name}"))
                .ok()
                .and_then(|action| match action {
                    MmAction::Crash(node) => Some(node),
                    _ => None,
                })
                .ok_or_else(|| PlayError::BadInput(format!("no node named {name:?}")))
        };
        Ok(match action {
            ActionJson::Deliver { message } => MmAction::Deliver(MessageId(message)),
            ActionJson::Drop { message } => MmAction::Drop(MessageId(message)),
            ActionJson::Duplicate { message } => MmAction::Duplicate(MessageId(message)),
            ActionJson::Start { node: name } => MmAction::Start(node(&name)?),
            ActionJson::Collect { node: name } => MmAction::Collect(node(&name)?),
            ActionJson::Retire { node: name } => MmAction::Retire(node(&name)?),
            ActionJson::Crash { node: name } => MmAction::Crash(node(&name)?),
            ActionJson::Restart { node: name } => MmAction::Restart(node(&name)?),
            ActionJson::Replace { node: name } => MmAction::Replace(node(&name)?),
            ActionJson::NextStage => {
                return Err(PlayError::BadInput(
                    "next-stage is not a world action".into(),
                ));
            }
            other => {
                return Err(PlayError::BadInput(format!(
                    "{other:?} is not an action of the matchmaker world"
                )));
            }
        })
    }

    /// None: the matchmaker levels ask level questions, after the step.
    fn prompt(&self, _action: &MmAction, _by_hand: &ByHand) -> Option<Prompt> {
        None
    }

    fn receiver(&self, action: &MmAction) -> Option<String> {
        let MmAction::Deliver(id) = action else {
            return None;
        };
        (self.in_flight().iter())
            .find(|message| message.id == *id)
            .map(|message| name(message.envelope.to))
    }

    fn ignored(step: &MmStep) -> Option<String> {
        step.refused.clone()
    }

    fn nodes(&self, _by_hand: &ByHand) -> Vec<NodeView> {
        stage::nodes(self)
    }

    fn messages(&self, moves: &[MmAction]) -> Vec<MessageView> {
        stage::messages(self, moves)
    }

    fn controls(&self, moves: &[MmAction]) -> Vec<ControlView> {
        stage::controls(moves)
    }

    /// The newest round's decision: once a new round chooses (the same value, by its own
    /// configuration's voters), the chosen line shows that round, not the first.
    fn chosen(&self) -> Option<ChosenView> {
        let (round, value) = MatchmakerWorld::chosen(self).last().copied()?;
        Some(ChosenView {
            value: value.to_string(),
            ballot: round_name(round),
            by: names(self.votes().get(&round)?.voters),
        })
    }

    fn matchmaking(&self) -> Option<MatchmakingView> {
        Some(stage::matchmaking(self))
    }
}

//! Act I's world as players read it: node, ballot and message names, actions described in full
//! and parsed back.

use super::config::Role;
use super::wire::PackedEnvelope;
use super::world::{DecreeAction, DecreeWorld};
use crate::network::{MessageAction, Names};
use paros_core::{Ballot, Message, NodeId};
use std::fmt;
use std::str::FromStr;

impl DecreeWorld {
    /// A node's name: A1, A2, ... for acceptors and P1, P2, ... for proposers.
    pub fn name(&self, node: NodeId) -> String {
        match self.role(node) {
            Some(Role::Acceptor(index)) => format!("A{}", index + 1),
            Some(Role::Proposer(index)) => format!("P{}", index + 1),
            None => node.to_string(),
        }
    }

    /// A ballot as players read it: `round.owner`, e.g. `2.P2`.
    pub fn ballot_name(&self, ballot: Ballot) -> String {
        format!("{}.{}", ballot.round, self.name(ballot.node))
    }

    /// A message as players read it: `Promise(2.P2, accepted (1.P1, x))`.
    pub fn message_name(&self, message: &Message) -> String {
        let ballot = self.ballot_name(message.ballot());
        match message {
            Message::Promise {
                accepted: Some(vote),
                ..
            } => format!(
                "Promise({ballot}, accepted ({}, {}))",
                self.ballot_name(vote.ballot),
                vote.value
            ),
            Message::Accept { value, .. } | Message::Accepted { value, .. } => {
                format!("{}({ballot}, {value})", message.kind())
            }
            Message::Nack { promised, .. } => {
                format!("Nack({ballot}, promised {})", self.ballot_name(*promised))
            }
            _ => format!("{}({ballot})", message.kind()),
        }
    }

    /// An action with the message or node it touches: `deliver m3 P1->A2 Prepare(1.P1)`.
    pub fn describe(&self, action: &DecreeAction) -> String {
        match *action {
            DecreeAction::Start(node) | DecreeAction::Retry(node) | DecreeAction::Amnesia(node) => {
                format!("{} {}", action.verb(), self.name(node))
            }
            DecreeAction::Deliver(_) | DecreeAction::Drop(_) | DecreeAction::Duplicate(_) => {
                let (verb, id) = action.message().expect("an action on a message");
                self.network.describe(verb, id, self)
            }
        }
    }

    /// Parses an action as [`DecreeWorld::describe`] or [`DecreeAction`]'s `Display` print it;
    /// nodes may be named (`retry P2`) or numbered (`retry n5`), and messages named by id
    /// (`deliver m3`) or by route (`deliver P1->A2 Prepare`, see
    /// [`Network::parse`](crate::network::Network::parse)).
    pub fn parse_action(&self, text: &str) -> Result<DecreeAction, String> {
        if let Some(parsed) = self.network.parse(text, self) {
            return parsed;
        }
        let mut words = text.split_whitespace();
        let (Some(verb), Some(target)) = (words.next(), words.next()) else {
            return Err(format!("expected `VERB TARGET`, got {text:?}"));
        };
        let named = (1..=NodeId::MAX)
            .filter_map(NodeId::new)
            .take_while(|node| self.role(*node).is_some())
            .find(|node| self.name(*node) == target);
        match named {
            Some(node) => format!("{verb} {node}").parse(),
            None => text.parse(),
        }
    }
}

impl Names<PackedEnvelope> for DecreeWorld {
    fn node_name(&self, node: NodeId) -> String {
        self.name(node)
    }

    fn message_name(&self, envelope: &PackedEnvelope) -> String {
        let envelope = envelope.unpack(&self.config.proposers);
        DecreeWorld::message_name(self, &envelope.message)
    }

    fn message_kind(&self, envelope: &PackedEnvelope) -> &'static str {
        envelope.kind()
    }
}

impl DecreeAction {
    /// The action's verb: `deliver`, `drop`, `duplicate`, `start`, `retry` or `amnesia`.
    pub fn verb(&self) -> &'static str {
        match self {
            DecreeAction::Deliver(_) | DecreeAction::Drop(_) | DecreeAction::Duplicate(_) => {
                self.message().expect("an action on a message").0.word()
            }
            DecreeAction::Start(_) => "start",
            DecreeAction::Retry(_) => "retry",
            DecreeAction::Amnesia(_) => "amnesia",
        }
    }
}

impl fmt::Display for DecreeAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecreeAction::Deliver(id) | DecreeAction::Drop(id) | DecreeAction::Duplicate(id) => {
                write!(f, "{} {id}", self.verb())
            }
            DecreeAction::Start(node) | DecreeAction::Retry(node) | DecreeAction::Amnesia(node) => {
                write!(f, "{} {node}", self.verb())
            }
        }
    }
}

impl FromStr for DecreeAction {
    type Err = String;

    /// Parses the first two words of an action as [`Display`](fmt::Display) prints it:
    /// `deliver m3 ...` or `retry N4` (`n4`, as it printed before, reads too). Words after them are ignored, so a described action
    /// parses too.
    fn from_str(text: &str) -> Result<DecreeAction, String> {
        let mut words = text.split_whitespace();
        let (Some(verb), Some(target)) = (words.next(), words.next()) else {
            return Err(format!("expected `VERB TARGET`, got {text:?}"));
        };
        let message = || crate::network::parse_id(target);
        let node = || {
            target
                .strip_prefix(['N', 'n'])
                .and_then(|number| number.parse().ok())
                .and_then(NodeId::new)
                .ok_or_else(|| format!("expected a node id like N4, got {target:?}"))
        };
        match verb {
            "deliver" => message().map(DecreeAction::Deliver),
            "drop" => message().map(DecreeAction::Drop),
            "duplicate" => message().map(DecreeAction::Duplicate),
            "start" => node().map(DecreeAction::Start),
            "retry" => node().map(DecreeAction::Retry),
            "amnesia" => node().map(DecreeAction::Amnesia),
            _ => Err(format!("unknown action {verb:?}")),
        }
    }
}

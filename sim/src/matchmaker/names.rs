//! A Matchmaker Paxos world as players read it: node, round, configuration and message names,
//! actions described in full and parsed back.

use super::config::{MmRole, node_by_name};
use super::world::{MatchmakerWorld, MmAction};
use crate::network::{MessageAction, Names, Route};
use paros_core::matchmaker::{Configuration, History, MmEnvelope, MmMessage, successor_from_value};
use paros_core::{Ballot, Message, NodeId, NodeSet};
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

impl Route for MmEnvelope {
    fn from(&self) -> NodeId {
        self.from
    }
    fn to(&self) -> NodeId {
        self.to
    }
}

/// A node's name: `M2`, `A4`, `L1`, `R1`.
pub fn node_name(node: NodeId) -> String {
    MmRole::name(node)
}

/// A round as players read it: `number.owner`, e.g. `2.L2`.
pub fn round_name(round: Ballot) -> String {
    format!("{}.{}", round.round, node_name(round.node))
}

/// A set of nodes: `{A1, A2, A3}`.
pub fn set_name(set: NodeSet) -> String {
    let names: Vec<String> = set.iter().map(node_name).collect();
    format!("{{{}}}", names.join(", "))
}

/// A configuration, by its acceptors: `{A2, A3, A4}`.
pub fn configuration_name(config: &Configuration) -> String {
    set_name(config.acceptors())
}

/// A history: `[1.L1 {A1, A2, A3}]`.
pub fn history_name(history: &History) -> String {
    let rounds: Vec<String> = (history.iter())
        .map(|(round, config)| format!("{} {}", round_name(*round), configuration_name(config)))
        .collect();
    format!("[{}]", rounds.join(", "))
}

fn watermark_name(watermark: Option<Ballot>) -> String {
    watermark.map_or_else(String::new, |w| format!(", gc {}", round_name(w)))
}

/// A single-decree message, as Act I prints it with this world's names; in the decree that
/// names the next generation (`successor`), a value is printed as the matchmakers it names.
fn paxos_name(message: &Message, successor: bool) -> String {
    let ballot = round_name(message.ballot());
    let value = |value: &paros_core::Value| match successor_from_value(value) {
        Some(set) if successor => set_name(set),
        _ => value.to_string(),
    };
    match message {
        Message::Promise {
            accepted: Some(vote),
            ..
        } => format!(
            "Promise({ballot}, accepted ({}, {}))",
            round_name(vote.ballot),
            value(&vote.value)
        ),
        Message::Accept { value: v, .. } | Message::Accepted { value: v, .. } => {
            format!("{}({ballot}, {})", message.kind(), value(v))
        }
        Message::Nack { promised, .. } => {
            format!("Nack({ballot}, promised {})", round_name(*promised))
        }
        _ => format!("{}({ballot})", message.kind()),
    }
}

/// A message as players read it: `MatchA(2.L2, {A2, A3, A4})`,
/// `MatchB(2.L2, [1.L1 {A1, A2, A3}])`, `Promise(2.L2, accepted (1.L1, x))`.
pub fn message_name(message: &MmMessage) -> String {
    match message {
        MmMessage::MatchA { round, config } => {
            format!(
                "MatchA({}, {})",
                round_name(*round),
                configuration_name(config)
            )
        }
        MmMessage::MatchB {
            round,
            history,
            watermark,
        } => format!(
            "MatchB({}, {}{})",
            round_name(*round),
            history_name(history),
            watermark_name(*watermark)
        ),
        MmMessage::GarbageA { watermark } => format!("GarbageA({})", round_name(*watermark)),
        MmMessage::GarbageB { watermark } => format!("GarbageB({})", round_name(*watermark)),
        MmMessage::Paxos(message) => paxos_name(message, false),
        MmMessage::Retire { proof } => format!(
            "Retire(gc {}, remaining {})",
            round_name(proof.watermark()),
            set_name(proof.remaining())
        ),
        MmMessage::Stop => "Stop".to_owned(),
        MmMessage::StopB { history, watermark } => format!(
            "StopB({}{})",
            history_name(history),
            watermark_name(*watermark)
        ),
        MmMessage::Bootstrap { history, watermark } => format!(
            "Bootstrap({}{})",
            history_name(history),
            watermark_name(*watermark)
        ),
        MmMessage::BootstrapB => "BootstrapB".to_owned(),
        MmMessage::Successor(message) => format!("Successor{}", paxos_name(message, true)),
    }
}

/// A message's kind alone: `MatchA`, `Promise`, `SuccessorAccept`.
pub fn message_kind(message: &MmMessage) -> &'static str {
    match message {
        MmMessage::MatchA { .. } => "MatchA",
        MmMessage::MatchB { .. } => "MatchB",
        MmMessage::GarbageA { .. } => "GarbageA",
        MmMessage::GarbageB { .. } => "GarbageB",
        MmMessage::Paxos(message) => message.kind(),
        MmMessage::Retire { .. } => "Retire",
        MmMessage::Stop => "Stop",
        MmMessage::StopB { .. } => "StopB",
        MmMessage::Bootstrap { .. } => "Bootstrap",
        MmMessage::BootstrapB => "BootstrapB",
        MmMessage::Successor(message) => match message {
            Message::Prepare { .. } => "SuccessorPrepare",
            Message::Promise { .. } => "SuccessorPromise",
            Message::Accept { .. } => "SuccessorAccept",
            Message::Accepted { .. } => "SuccessorAccepted",
            Message::Nack { .. } => "SuccessorNack",
        },
    }
}

impl Names<Arc<MmEnvelope>> for MatchmakerWorld {
    fn node_name(&self, node: NodeId) -> String {
        node_name(node)
    }

    fn message_name(&self, envelope: &Arc<MmEnvelope>) -> String {
        message_name(&envelope.message)
    }

    fn message_kind(&self, envelope: &Arc<MmEnvelope>) -> &'static str {
        message_kind(&envelope.message)
    }
}

impl MatchmakerWorld {
    /// The state in a few lines: what is chosen, each leader, each matchmaker, the
    /// reconfigurer.
    pub fn summary(&self) -> Vec<String> {
        let chosen = self.chosen();
        let mut lines: Vec<String> = if chosen.is_empty() {
            vec!["chosen: nothing".to_owned()]
        } else {
            (chosen.iter())
                .map(|(round, value)| format!("chosen: {value} in round {}", round_name(*round)))
                .collect()
        };
        for leader in self.leaders.iter() {
            let proposal = leader
                .proposal()
                .map_or("none".to_owned(), ToString::to_string);
            lines.push(format!(
                "{}: round {} in {}, {:?}, history {}, proposes {proposal}",
                node_name(leader.id()),
                round_name(leader.round()),
                configuration_name(leader.config()),
                leader.stage(),
                history_name(leader.history()),
            ));
        }
        for matchmaker in self.matchmakers.iter() {
            let watermark = matchmaker.watermark().map_or("none".to_owned(), round_name);
            let stopped = if matchmaker.stopped() {
                ", stopped"
            } else {
                ""
            };
            lines.push(format!(
                "{}: {}, gc {watermark}{stopped}",
                node_name(matchmaker.id()),
                history_name(matchmaker.configurations()),
            ));
        }
        if let Some(refused) = self.replacement_refused {
            lines.push(format!("R1: refused by paros-core: {refused}"));
        }
        if let Some(refused) = self.second_replacement_refused {
            lines.push(format!(
                "R1, back to M1..M3: refused by paros-core: {refused}"
            ));
        }
        if let Some(reconfigurer) = &self.reconfigurer {
            let published = reconfigurer
                .published()
                .map_or("nothing".to_owned(), set_name);
            lines.push(format!(
                "R1: {:?}, published {published}",
                reconfigurer.stage()
            ));
        }
        lines
    }

    /// An action with the message it touches: `deliver m3 L1->M2 MatchA(1.L1, {A1, A2, A3})`;
    /// any other action as `Display` prints it (`start L2`).
    pub fn describe(&self, action: &MmAction) -> String {
        match action.message() {
            Some((verb, id)) => self.network.describe(verb, id, self),
            None => action.to_string(),
        }
    }

    /// Parses an action as [`MatchmakerWorld::describe`] or [`MmAction`]'s `Display` print it;
    /// messages may be named by id (`deliver m3`) or by route (`deliver L1->M2 MatchA`, see
    /// [`Network::parse`](crate::network::Network::parse)).
    pub fn parse_action(&self, text: &str) -> Result<MmAction, String> {
        if let Some(parsed) = self.network.parse(text, self) {
            return parsed;
        }
        text.parse()
    }
}

impl MmAction {
    /// The action's verb: `deliver`, `drop`, `duplicate`, `start`, `collect`, `retire`,
    /// `crash`, `restart`, `replace`, `retry` or `stop-faults`.
    pub fn verb(&self) -> &'static str {
        match self {
            MmAction::Deliver(_) | MmAction::Drop(_) | MmAction::Duplicate(_) => {
                self.message().expect("an action on a message").0.word()
            }
            MmAction::Start(_) => "start",
            MmAction::Collect(_) => "collect",
            MmAction::Retire(_) => "retire",
            MmAction::Crash(_) => "crash",
            MmAction::Restart(_) => "restart",
            MmAction::Replace(_) => "replace",
            MmAction::Retry(_) => "retry",
            MmAction::StopFaults => "stop-faults",
        }
    }

    fn node(&self) -> Option<NodeId> {
        match *self {
            MmAction::Start(node)
            | MmAction::Collect(node)
            | MmAction::Retire(node)
            | MmAction::Crash(node)
            | MmAction::Restart(node)
            | MmAction::Replace(node)
            | MmAction::Retry(node) => Some(node),
            MmAction::Deliver(_)
            | MmAction::Drop(_)
            | MmAction::Duplicate(_)
            | MmAction::StopFaults => None,
        }
    }
}

impl fmt::Display for MmAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.message(), self.node()) {
            (Some((verb, id)), _) => write!(f, "{verb} {id}"),
            (None, Some(node)) => write!(f, "{} {}", self.verb(), node_name(node)),
            (None, None) => f.write_str(self.verb()),
        }
    }
}

impl FromStr for MmAction {
    type Err = String;

    /// Parses the first two words of an action as [`Display`](fmt::Display) prints it:
    /// `deliver m3 ...` or `crash M1`, or `stop-faults`. Words after them are ignored.
    fn from_str(text: &str) -> Result<MmAction, String> {
        if text.trim() == "stop-faults" {
            return Ok(MmAction::StopFaults);
        }
        let mut words = text.split_whitespace();
        let (Some(verb), Some(target)) = (words.next(), words.next()) else {
            return Err(format!("expected `VERB TARGET`, got {text:?}"));
        };
        let message = || crate::network::parse_id(target);
        let node = || {
            node_by_name(target)
                .ok_or_else(|| format!("expected a node like M1, A2, L1 or R1, got {target:?}"))
        };
        match verb {
            "deliver" => message().map(MmAction::Deliver),
            "drop" => message().map(MmAction::Drop),
            "duplicate" => message().map(MmAction::Duplicate),
            "start" => node().map(MmAction::Start),
            "collect" => node().map(MmAction::Collect),
            "retire" => node().map(MmAction::Retire),
            "crash" => node().map(MmAction::Crash),
            "restart" => node().map(MmAction::Restart),
            "replace" => node().map(MmAction::Replace),
            "retry" => node().map(MmAction::Retry),
            _ => Err(format!("unknown action {verb:?}")),
        }
    }
}

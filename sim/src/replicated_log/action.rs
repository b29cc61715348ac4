//! Everything that can happen to a log world ([`LogAction`]), why the world may refuse it
//! ([`LogRefused`]), and actions as players read and type them.

use super::LogWorld;
use super::config::id;
use crate::MessageId;
use paros_core::NodeId;
use std::fmt;

/// Everything that can happen to a log world.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum LogAction {
    /// Hand a message to its receiver.
    Deliver(MessageId),
    /// Lose a message.
    Drop(MessageId),
    /// Put a second copy of a message in flight.
    Duplicate(MessageId),
    /// One tick of a node's clock.
    Tick(NodeId),
    /// A node crashes: volatile state and writes not yet durable are lost.
    Crash(NodeId),
    /// A node crashes while persisting: all but the last pending write are durable, and the
    /// last is torn.
    TornCrash(NodeId),
    /// A crashed node restarts from its disk.
    Restart(NodeId),
    /// Stepwise: the node's pending writes become durable.
    Persist(NodeId),
    /// Stepwise: the node's pending messages leave.
    Send(NodeId),
    /// A node is cut off from all others.
    Partition(NodeId),
    /// Every cut link is restored.
    Heal,
    /// A client sends its next operation to a node, or sends its outstanding one again.
    Request {
        /// The client.
        client: NodeId,
        /// The node it asks.
        node: NodeId,
    },
    /// Faults stop: every fault budget is spent, and clocks and client retries are unbounded.
    /// Only the fair schedule of [`LogWorld::settle`] takes it, so a liveness run replays as
    /// plain actions; it is never enabled, since no search could finish past it.
    StopFaults,
}

impl LogAction {
    /// The action's verb.
    pub fn verb(&self) -> &'static str {
        match self {
            LogAction::Deliver(_) => "deliver",
            LogAction::Drop(_) => "drop",
            LogAction::Duplicate(_) => "duplicate",
            LogAction::Tick(_) => "tick",
            LogAction::Crash(_) => "crash",
            LogAction::TornCrash(_) => "torn-crash",
            LogAction::Restart(_) => "restart",
            LogAction::Persist(_) => "persist",
            LogAction::Send(_) => "send",
            LogAction::Partition(_) => "partition",
            LogAction::Heal => "heal",
            LogAction::Request { .. } => "request",
            LogAction::StopFaults => "stop-faults",
        }
    }
}

impl fmt::Display for LogAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LogAction::Deliver(message)
            | LogAction::Drop(message)
            | LogAction::Duplicate(message) => {
                write!(f, "{} {message}", self.verb())
            }
            LogAction::Tick(node)
            | LogAction::Crash(node)
            | LogAction::TornCrash(node)
            | LogAction::Restart(node)
            | LogAction::Persist(node)
            | LogAction::Send(node)
            | LogAction::Partition(node) => write!(f, "{} {node}", self.verb()),
            LogAction::Heal | LogAction::StopFaults => f.write_str(self.verb()),
            LogAction::Request { client, node } => write!(f, "request {client} {node}"),
        }
    }
}

/// Why a log world refused an action. The world is unchanged.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LogRefused {
    /// No message with this id is in flight.
    NoSuchMessage(MessageId),
    /// The message crosses a cut link.
    Partitioned(MessageId),
    /// No node or client with this id.
    NoSuchNode(NodeId),
    /// The node is down.
    NodeDown(NodeId),
    /// The node is up.
    NodeUp(NodeId),
    /// The node is busy with a `Ready` that is not yet persisted and sent.
    Busy(NodeId),
    /// There is no pending `Ready` step of that kind.
    NothingPending(NodeId),
    /// The client has nothing to send.
    ClientIdle(NodeId),
    /// The budget of this kind is spent.
    BudgetSpent(&'static str),
    /// The disk cannot be trusted: the node stays down.
    Disk(paros_core::log::RecordError),
    /// The configuration is not a world this simulator can build.
    BadConfig(&'static str),
}

impl fmt::Display for LogRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LogRefused::NoSuchMessage(message) => write!(f, "no message {message} is in flight"),
            LogRefused::Partitioned(message) => write!(f, "{message} crosses a cut link"),
            LogRefused::NoSuchNode(node) => write!(f, "no node or client {node}"),
            LogRefused::NodeDown(node) => write!(f, "{node} is down"),
            LogRefused::NodeUp(node) => write!(f, "{node} is up"),
            LogRefused::Busy(node) => write!(f, "{node} has a Ready to persist and send first"),
            LogRefused::NothingPending(node) => write!(f, "{node} has no such Ready step pending"),
            LogRefused::ClientIdle(client) => write!(f, "{client} has nothing to send"),
            LogRefused::BudgetSpent(kind) => write!(f, "the {kind} budget is spent"),
            LogRefused::Disk(error) => write!(f, "{error}"),
            LogRefused::BadConfig(why) => write!(f, "bad world: {why}"),
        }
    }
}

impl std::error::Error for LogRefused {}

impl LogWorld {
    /// An action with what it touches: `deliver m4 N1->N2 Accept(1.N1, slot 1, ...)`.
    pub fn describe(&self, action: &LogAction) -> String {
        match action {
            LogAction::Deliver(message)
            | LogAction::Drop(message)
            | LogAction::Duplicate(message) => {
                match self
                    .in_flight
                    .iter()
                    .find(|in_flight| in_flight.id == *message)
                {
                    Some(in_flight) => format!(
                        "{action} {}->{} {}",
                        self.name(in_flight.envelope.from),
                        self.name(in_flight.envelope.to),
                        self.message_name(&in_flight.envelope.message)
                    ),
                    None => action.to_string(),
                }
            }
            LogAction::Heal | LogAction::StopFaults => action.verb().to_string(),
            LogAction::Request { client, node } => {
                let what = self
                    .client_next_operation(*client)
                    .map(|op| op.to_string())
                    .unwrap_or_default();
                format!("request {} {} {what}", self.name(*client), self.name(*node))
            }
            LogAction::Tick(node)
            | LogAction::Crash(node)
            | LogAction::TornCrash(node)
            | LogAction::Restart(node)
            | LogAction::Persist(node)
            | LogAction::Send(node)
            | LogAction::Partition(node) => format!("{} {}", action.verb(), self.name(*node)),
        }
    }

    /// Parses an action as [`LogWorld::describe`] or [`LogAction`]'s `Display` print it; nodes
    /// and clients may be named (`tick N2`, `request C1 N1`) or numbered (`tick n2`). Words after
    /// the action's own are ignored, so a described action parses back.
    pub fn parse_action(&self, text: &str) -> Result<LogAction, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let node = |word: Option<&&str>| -> Result<NodeId, String> {
            let word = word.ok_or_else(|| format!("{text:?} names no node"))?;
            let count = usize::from(self.config.node_count) + self.clients.len();
            (1..=count)
                .map(id)
                .find(|node| self.name(*node) == *word || node.to_string() == *word)
                .ok_or_else(|| format!("no node or client {word:?}"))
        };
        let message = || -> Result<MessageId, String> {
            let word = words
                .get(1)
                .ok_or_else(|| format!("{text:?} names no message"))?;
            word.strip_prefix('m')
                .and_then(|number| number.parse().ok())
                .map(MessageId)
                .ok_or_else(|| format!("expected a message id like m3, got {word:?}"))
        };
        match words.first().copied() {
            Some("deliver") => message().map(LogAction::Deliver),
            Some("drop") => message().map(LogAction::Drop),
            Some("duplicate") => message().map(LogAction::Duplicate),
            Some("tick") => node(words.get(1)).map(LogAction::Tick),
            Some("crash") => node(words.get(1)).map(LogAction::Crash),
            Some("torn-crash") => node(words.get(1)).map(LogAction::TornCrash),
            Some("restart") => node(words.get(1)).map(LogAction::Restart),
            Some("persist") => node(words.get(1)).map(LogAction::Persist),
            Some("send") => node(words.get(1)).map(LogAction::Send),
            Some("partition") => node(words.get(1)).map(LogAction::Partition),
            Some("heal") => Ok(LogAction::Heal),
            Some("stop-faults") => Ok(LogAction::StopFaults),
            Some("request") => Ok(LogAction::Request {
                client: node(words.get(1))?,
                node: node(words.get(2))?,
            }),
            _ => Err(format!("unknown action {text:?}")),
        }
    }
}

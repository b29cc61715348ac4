//! Everything that can happen to a log world ([`LogAction`]), and actions as players read and
//! type them.

use super::LogWorld;
use super::config::id;
use crate::network::{MessageAction, MessageId, Names, Verb};
use paros_core::NodeId;
use paros_core::log::{LogEnvelope, Slot};
use std::fmt;
use std::sync::Arc;

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
    /// A node crashes while persisting, its last pending write cut after `kept` bytes: a torn
    /// write at any byte (worlds with bit-level storage faults).
    TornCrashAt {
        /// The node.
        node: NodeId,
        /// How many bytes of the last frame reached the disk.
        kept: u16,
    },
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
    /// An operator asks a leader to compact the log through what it has applied: the leader
    /// proposes a trim ([`ColocatedNode::request_trim`](paros_core::log::ColocatedNode::request_trim)).
    Trim(NodeId),
    /// An operator asks a leader to hand its ballot to another node
    /// ([`ColocatedNode::hand_off`](paros_core::log::ColocatedNode::hand_off)).
    HandOff {
        /// The leader.
        from: NodeId,
        /// The successor.
        to: NodeId,
    },
    /// A client sends its next operation to a node, or sends its outstanding one again.
    Request {
        /// The client.
        client: NodeId,
        /// The node it asks.
        node: NodeId,
    },
    /// One record on a crashed node's disk is damaged: its latest readable frame of that
    /// record fails its checksum from now on (C1).
    CorruptRecord {
        /// The crashed node.
        node: NodeId,
        /// Which record.
        record: DiskRecord,
    },
    /// One bit of one frame on a crashed node's disk flips: its length, label, checksums or
    /// payload alike (worlds with bit-level storage faults).
    FlipBit {
        /// The crashed node.
        node: NodeId,
        /// Which frame, from 0.
        frame: u16,
        /// Which bit of the frame, from 0: bit `b` is bit `b % 8` of byte `b / 8`.
        bit: u16,
    },
    /// A crashed node's disk is erased. Its restart is refused from then on (the wiped node),
    /// but for the blank-restart control, which ignores the refusal.
    WipeDisk(NodeId),
    /// Faults stop: every fault budget is spent, and clocks and client retries are unbounded.
    /// Only the fair schedule of [`LogWorld::settle`] takes it, so a liveness run replays as
    /// plain actions; it is never enabled, since no search could finish past it.
    StopFaults,
}

/// A record a fault can corrupt on a node's disk: the ones whose loss protocol-aware recovery
/// tells apart (C2, C5).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum DiskRecord {
    /// The node's latest promise.
    Promise,
    /// The node's latest vote in a slot.
    Vote(Slot),
}

impl fmt::Display for DiskRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiskRecord::Promise => f.write_str("promise"),
            DiskRecord::Vote(slot) => write!(f, "vote {slot}"),
        }
    }
}

impl MessageAction for LogAction {
    fn on_message(verb: Verb, id: MessageId) -> LogAction {
        match verb {
            Verb::Deliver => LogAction::Deliver(id),
            Verb::Drop => LogAction::Drop(id),
            Verb::Duplicate => LogAction::Duplicate(id),
        }
    }

    fn message(&self) -> Option<(Verb, MessageId)> {
        match *self {
            LogAction::Deliver(id) => Some((Verb::Deliver, id)),
            LogAction::Drop(id) => Some((Verb::Drop, id)),
            LogAction::Duplicate(id) => Some((Verb::Duplicate, id)),
            _ => None,
        }
    }
}

impl LogAction {
    /// The action's verb.
    pub fn verb(&self) -> &'static str {
        match self {
            LogAction::Deliver(_) | LogAction::Drop(_) | LogAction::Duplicate(_) => {
                self.message().expect("an action on a message").0.word()
            }
            LogAction::Tick(_) => "tick",
            LogAction::Crash(_) => "crash",
            LogAction::TornCrash(_) | LogAction::TornCrashAt { .. } => "torn-crash",
            LogAction::Restart(_) => "restart",
            LogAction::Persist(_) => "persist",
            LogAction::Send(_) => "send",
            LogAction::Partition(_) => "partition",
            LogAction::Heal => "heal",
            LogAction::Trim(_) => "trim",
            LogAction::HandOff { .. } => "hand off",
            LogAction::Request { .. } => "request",
            LogAction::CorruptRecord { .. } => "corrupt",
            LogAction::FlipBit { .. } => "flip",
            LogAction::WipeDisk(_) => "wipe",
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
            | LogAction::Trim(node)
            | LogAction::WipeDisk(node)
            | LogAction::Partition(node) => write!(f, "{} {node}", self.verb()),
            LogAction::CorruptRecord { node, record } => write!(f, "corrupt {node} {record}"),
            LogAction::TornCrashAt { node, kept } => write!(f, "torn-crash {node} at byte {kept}"),
            LogAction::FlipBit { node, frame, bit } => {
                write!(f, "flip {node} frame {frame} bit {bit}")
            }
            LogAction::Heal | LogAction::StopFaults => f.write_str(self.verb()),
            LogAction::Request { client, node } => write!(f, "request {client} {node}"),
            LogAction::HandOff { from, to } => write!(f, "hand off {from}->{to}"),
        }
    }
}

impl LogWorld {
    /// An action with what it touches: `deliver m4 N1->N2 Accept(1.N1, slot 1, ...)`.
    pub fn describe(&self, action: &LogAction) -> String {
        match action {
            LogAction::Deliver(message)
            | LogAction::Drop(message)
            | LogAction::Duplicate(message) => {
                let (verb, _) = action.message().expect("an action on a message");
                self.network.describe(verb, *message, self)
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
            | LogAction::WipeDisk(node)
            | LogAction::Partition(node) => format!("{} {}", action.verb(), self.name(*node)),
            LogAction::CorruptRecord { node, record } => {
                format!("corrupt {} {record}", self.name(*node))
            }
            LogAction::TornCrashAt { node, kept } => {
                format!("torn-crash {} at byte {kept}", self.name(*node))
            }
            LogAction::FlipBit { node, frame, bit } => {
                format!("flip {} frame {frame} bit {bit}", self.name(*node))
            }
            LogAction::Trim(node) => {
                let through = self.servers[usize::from(node.get()) - 1]
                    .host
                    .node()
                    .map(|node| node.applied_index())
                    .unwrap_or_default();
                format!("trim {} through slot {through}", self.name(*node))
            }
            LogAction::HandOff { from, to } => {
                format!("hand off {}->{}", self.name(*from), self.name(*to))
            }
        }
    }

    /// Parses an action as [`LogWorld::describe`] or [`LogAction`]'s `Display` print it; nodes
    /// and clients may be named (`tick N2`, `request C1 N1`) or numbered (`tick n2`), and
    /// messages named by id (`deliver m7`) or by route (`deliver N1->N2 Accept`, see
    /// [`Network::parse`](crate::network::Network::parse)). Words after the action's own are
    /// ignored, so a described action parses back.
    pub fn parse_action(&self, text: &str) -> Result<LogAction, String> {
        if let Some(parsed) = self.network.parse(text, self) {
            return parsed;
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        let node = |word: Option<&&str>| -> Result<NodeId, String> {
            let word = word.ok_or_else(|| format!("{text:?} names no node"))?;
            let count =
                usize::from(self.config.node_count) + self.clients.len() + self.proxies().len();
            (1..=count)
                .map(id)
                .find(|node| self.name(*node) == *word || node.to_string() == *word)
                .ok_or_else(|| format!("no node or client {word:?}"))
        };
        match words.first().copied() {
            Some("tick") => node(words.get(1)).map(LogAction::Tick),
            Some("crash") => node(words.get(1)).map(LogAction::Crash),
            Some("torn-crash") => match words.get(2..4) {
                Some(["at", "byte"]) => Ok(LogAction::TornCrashAt {
                    node: node(words.get(1))?,
                    kept: number(text, words.get(4))?,
                }),
                _ => node(words.get(1)).map(LogAction::TornCrash),
            },
            Some("flip") => Ok(LogAction::FlipBit {
                node: node(words.get(1))?,
                frame: number(text, words.get(3))?,
                bit: number(text, words.get(5))?,
            }),
            Some("restart") => node(words.get(1)).map(LogAction::Restart),
            Some("persist") => node(words.get(1)).map(LogAction::Persist),
            Some("send") => node(words.get(1)).map(LogAction::Send),
            Some("partition") => node(words.get(1)).map(LogAction::Partition),
            Some("trim") => node(words.get(1)).map(LogAction::Trim),
            Some("wipe") => node(words.get(1)).map(LogAction::WipeDisk),
            Some("corrupt") => Ok(LogAction::CorruptRecord {
                node: node(words.get(1))?,
                record: parse_record(text, &words[2.min(words.len())..])?,
            }),
            Some("hand") if words.get(1) == Some(&"off") => {
                let route = words
                    .get(2)
                    .ok_or_else(|| format!("{text:?} names no route"))?;
                let (from, to) = (route.split_once("->"))
                    .ok_or_else(|| format!("{text:?}: a handoff is written N1->N2"))?;
                Ok(LogAction::HandOff {
                    from: node(Some(&from))?,
                    to: node(Some(&to))?,
                })
            }
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

/// A frame, bit or byte number of a storage fault, as `flip N2 frame 2 bit 140` writes it.
fn number(text: &str, word: Option<&&str>) -> Result<u16, String> {
    word.and_then(|word| word.parse().ok())
        .ok_or_else(|| format!("{text:?}: a frame, bit or byte is a number"))
}

/// A record as [`DiskRecord`]'s `Display` prints it: `promise`, or `vote 3`.
fn parse_record(text: &str, words: &[&str]) -> Result<DiskRecord, String> {
    match words {
        ["promise", ..] => Ok(DiskRecord::Promise),
        ["vote", slot, ..] => slot
            .parse()
            .map(|slot| DiskRecord::Vote(Slot(slot)))
            .map_err(|_| format!("{text:?}: a slot is a number")),
        _ => Err(format!("{text:?}: corrupt a `promise` or a `vote SLOT`")),
    }
}

impl Names<Arc<LogEnvelope>> for LogWorld {
    fn node_name(&self, node: NodeId) -> String {
        self.name(node)
    }

    fn message_name(&self, envelope: &Arc<LogEnvelope>) -> String {
        LogWorld::message_name(self, &envelope.message)
    }

    fn message_kind(&self, envelope: &Arc<LogEnvelope>) -> &'static str {
        envelope.message.kind()
    }
}

//! Everything that can happen to a log world ([`LogAction`]); `names.rs` says and parses them
//! as players read and type them.

use crate::network::{MessageAction, MessageId, Verb};
use paros_core::NodeId;
use paros_core::log::Slot;
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
    /// Only the fair schedule of [`LogWorld::settle`](super::LogWorld::settle) takes it, so a liveness run replays as
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

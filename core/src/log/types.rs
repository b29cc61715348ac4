//! The vocabulary of the replicated log: slots, clients, commands and entries.

use crate::{Ballot, NodeId, Value};
use std::fmt;
use std::sync::Arc;

/// A position in the log. Slots start at 1; `Slot(0)` means "before the first slot", as in a
/// `chosen_index` of nothing yet.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Slot(pub u64);

impl Slot {
    /// The slot after this one.
    pub const fn next(self) -> Slot {
        Slot(self.0 + 1)
    }
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A read's id, unique across the lives of the node that runs it: the node's incarnation
/// (how many times it has restarted) and the read's number within that life, printed
/// `incarnation.number` (`2.1`).
///
/// A number alone restarts at 1 after a crash, so a ReadIndexReply sent to a node's previous
/// life would match a read of its new life and complete it with a watermark from before the
/// read began: a stale read. The incarnation is durable ([`Write::Incarnation`]), and a restart
/// writes the next one before any message of the new life leaves, so the two lives never share
/// an id.
///
/// [`Write::Incarnation`]: crate::log::Write::Incarnation
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct ReadId {
    /// The life of the node that runs the read: 0 until its first restart.
    pub incarnation: u64,
    /// The read's number within that life, from 1.
    pub number: u64,
}

impl fmt::Display for ReadId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.incarnation, self.number)
    }
}

/// A client's write: set `key` to `value`. `(client, seq)` names the request, so a retry of
/// the same request is recognised and applied once.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Command {
    /// The client that asked; clients are nodes of the network too.
    pub client: NodeId,
    /// The client's request number; each client numbers its requests 1, 2, 3, ...
    pub seq: u64,
    /// The key written.
    pub key: Value,
    /// The value written.
    pub value: Value,
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}={} ({}#{})",
            self.key, self.value, self.client, self.seq
        )
    }
}

/// What a slot holds once decided.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Entry {
    /// A no-op, proposed by a new leader to fill a slot that no Promise reported.
    Noop,
    /// A client's command, shared: a vote, a chosen entry, a durable write and a message all
    /// hold the one copy the leader proposed, so an entry is cheap to copy and small to keep.
    Command(Arc<Command>),
    /// A control command: compact the log through this slot. Decided like any command, it moves
    /// each node's floor when that node's apply walk applies it
    /// ([`floor_after_applying`](crate::log::floor_after_applying)); it does not touch the
    /// key-value store.
    Trim(Slot),
}

impl From<Command> for Entry {
    fn from(command: Command) -> Entry {
        Entry::Command(Arc::new(command))
    }
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Entry::Noop => f.write_str("no-op"),
            Entry::Command(command) => command.fmt(f),
            Entry::Trim(through) => write!(f, "trim through {through}"),
        }
    }
}

/// An acceptor's accepted record for one slot: the highest-ballot entry it voted for there.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct SlotVote {
    /// The ballot of the vote.
    pub ballot: Ballot,
    /// The entry voted for.
    pub entry: Entry,
}

//! The messages of single-decree Paxos, named as in Paxos Made Simple (section 2.2).

use crate::{Ballot, NodeId, Value};
use std::fmt;

/// An acceptor's accepted record: the highest-ballot proposal it voted for.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Vote {
    /// The ballot of the Accept the acceptor voted for.
    pub ballot: Ballot,
    /// The value that Accept carried.
    pub value: Value,
}

impl fmt::Display for Vote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.ballot, self.value)
    }
}

/// One message of single-decree Paxos.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Message {
    /// Phase 1a: a proposer asks acceptors to promise `ballot`.
    Prepare {
        /// The ballot the proposer wants promised.
        ballot: Ballot,
    },
    /// Phase 1b: an acceptor promises `ballot` and reports its accepted record, if any.
    Promise {
        /// The ballot promised.
        ballot: Ballot,
        /// The acceptor's highest-ballot vote before this promise.
        accepted: Option<Vote>,
    },
    /// Phase 2a: a proposer asks acceptors to vote for `value` at `ballot`.
    Accept {
        /// The proposer's ballot.
        ballot: Ballot,
        /// The value selected by P2c (see [`select_value`](crate::select_value)).
        value: Value,
    },
    /// Phase 2b: an acceptor voted for `value` at `ballot`.
    Accepted {
        /// The ballot voted for.
        ballot: Ballot,
        /// The value voted for.
        value: Value,
    },
    /// A refusal: the acceptor has promised a higher ballot than the one asked for.
    Nack {
        /// The ballot of the refused Prepare or Accept.
        ballot: Ballot,
        /// The promise that refused it, so the proposer can retry above it.
        promised: Ballot,
    },
}

impl Message {
    /// The ballot this message is about.
    pub fn ballot(&self) -> Ballot {
        match self {
            Message::Prepare { ballot }
            | Message::Promise { ballot, .. }
            | Message::Accept { ballot, .. }
            | Message::Accepted { ballot, .. }
            | Message::Nack { ballot, .. } => *ballot,
        }
    }

    /// The message's kind as a word: `Prepare`, `Promise`, `Accept`, `Accepted` or `Nack`.
    pub fn kind(&self) -> &'static str {
        match self {
            Message::Prepare { .. } => "Prepare",
            Message::Promise { .. } => "Promise",
            Message::Accept { .. } => "Accept",
            Message::Accepted { .. } => "Accepted",
            Message::Nack { .. } => "Nack",
        }
    }
}

/// A message on the wire, with its sender and receiver.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Envelope {
    /// The sender.
    pub from: NodeId,
    /// The receiver.
    pub to: NodeId,
    /// The message.
    pub message: Message,
}

//! The acceptor: the memory of Paxos.
//!
//! An acceptor holds two things, its promise and its accepted record, and obeys two rules: the
//! [promise rule](promise_rule) and the [vote rule](vote_rule). That is the whole of it.

use crate::{Ballot, Envelope, Ignored, Message, NodeId, Value, Vote};

/// The promise rule: promise `ballot` only if it is **greater** than every ballot promised.
///
/// Paxos Made Simple, section 2.2, phase 1(b): an acceptor that receives a prepare request with
/// a number greater than that of any prepare request to which it has already responded promises
/// not to accept any more proposals numbered less. A Prepare equal to the promise held (a
/// duplicate) is not promised again: it is refused with a Nack, which its proposer ignores
/// because the Nack does not name a higher ballot.
pub fn promise_rule(promised: Option<Ballot>, ballot: Ballot) -> bool {
    promised.is_none_or(|promised| ballot > promised)
}

/// The vote rule: vote for an Accept whose ballot is **at least** the ballot promised.
///
/// Paxos Made Simple, section 2.2, phase 2(b): an acceptor accepts a proposal numbered n unless
/// it has responded to a prepare request having a number greater than n. Equality must pass:
/// the proposer the acceptor promised asks for its vote at exactly the promised ballot.
pub fn vote_rule(promised: Option<Ballot>, ballot: Ballot) -> bool {
    promised.is_none_or(|promised| ballot >= promised)
}

/// A single-decree acceptor.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Acceptor {
    id: NodeId,
    /// Invariant: never decreases.
    promised: Option<Ballot>,
    /// Invariant: `accepted.ballot <= promised` whenever both are set.
    accepted: Option<Vote>,
}

impl Acceptor {
    /// A fresh acceptor: no promise, no vote.
    pub fn new(id: NodeId) -> Acceptor {
        Acceptor {
            id,
            promised: None,
            accepted: None,
        }
    }

    /// This acceptor's id.
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The highest ballot promised, if any.
    pub fn promised(&self) -> Option<Ballot> {
        self.promised
    }

    /// The accepted record: the highest-ballot vote cast, if any.
    pub fn accepted(&self) -> Option<&Vote> {
        self.accepted.as_ref()
    }

    /// Phase 1b: answers a Prepare with a Promise or a Nack, by the [promise rule](promise_rule).
    pub fn on_prepare(&mut self, from: NodeId, ballot: Ballot) -> Envelope {
        let message = if promise_rule(self.promised, ballot) {
            self.promised = Some(ballot);
            Message::Promise {
                ballot,
                accepted: self.accepted.clone(),
            }
        } else {
            self.nack(ballot)
        };
        self.reply(from, message)
    }

    /// Phase 2b: answers an Accept with an Accepted or a Nack, by the [vote rule](vote_rule).
    ///
    /// A vote also raises the promise to the vote's ballot, so the promise never lags a vote.
    pub fn on_accept(&mut self, from: NodeId, ballot: Ballot, value: Value) -> Envelope {
        let message = if vote_rule(self.promised, ballot) {
            self.promised = Some(ballot);
            self.accepted = Some(Vote {
                ballot,
                value: value.clone(),
            });
            Message::Accepted { ballot, value }
        } else {
            self.nack(ballot)
        };
        self.reply(from, message)
    }

    /// Handles any message addressed to this acceptor. Proposer-bound messages are ignored.
    pub fn handle(&mut self, envelope: &Envelope) -> Result<Envelope, Ignored> {
        if envelope.to != self.id {
            return Err(Ignored::NotAddressedToMe);
        }
        match &envelope.message {
            Message::Prepare { ballot } => Ok(self.on_prepare(envelope.from, *ballot)),
            Message::Accept { ballot, value } => {
                Ok(self.on_accept(envelope.from, *ballot, value.clone()))
            }
            _ => Err(Ignored::NotForThisRole),
        }
    }

    fn nack(&self, ballot: Ballot) -> Message {
        let promised = self.promised.expect("a refusal implies a promise");
        Message::Nack { ballot, promised }
    }

    fn reply(&self, to: NodeId, message: Message) -> Envelope {
        Envelope {
            from: self.id,
            to,
            message,
        }
    }
}

//! The proposer: Phase 1, P2c value selection, Phase 2, and learning that a value is chosen.
//!
//! The proposer never retries by itself: there is no clock inside paros-core. After a Nack, or
//! whenever the caller decides that Phase 1 or Phase 2 has stalled, the caller calls
//! [`Proposer::retry`].

use crate::{
    Ballot, Envelope, Ignored, Majority, Message, NodeId, NodeSet, QuorumSystem, Value, Vote,
};

/// P2c value selection: the value of the highest-ballot vote among the promises, else `own`.
///
/// Paxos Made Simple, section 2.2, invariant P2c: for any proposal (n, v) issued, there is a
/// majority S such that either no acceptor in S has accepted a proposal numbered below n, or v
/// is the value of the highest-numbered proposal below n accepted by the acceptors in S. A value
/// reported by a Promise may already be chosen, and the proposer cannot rule it out from its
/// quorum alone, so its own value is used only when no promise reports a vote.
pub fn select_value<'a>(reports: impl IntoIterator<Item = Option<&'a Vote>>, own: &Value) -> Value {
    reports
        .into_iter()
        .flatten()
        .max_by_key(|vote| vote.ballot)
        .map_or_else(|| own.clone(), |vote| vote.value.clone())
}

/// Where a proposer is in the protocol.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Phase {
    /// Not started.
    Idle,
    /// Phase 1 sent; collecting Promises.
    Preparing,
    /// Phase 2 sent; collecting Accepteds.
    Accepting,
    /// A Phase-2 quorum accepted this proposer's ballot: the value is chosen and learned.
    Learned,
}

/// A single-decree proposer that also learns the outcome of its own ballot.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Proposer<Q = Majority> {
    id: NodeId,
    quorums: Q,
    own_value: Value,
    phase: Phase,
    /// The ballot being run. Invariant: owned by `id`; set once the proposer has started.
    ballot: Option<Ballot>,
    /// The highest ballot named by a Nack, so a retry goes above it.
    highest_refusal: Option<Ballot>,
    /// Each acceptor that promised `ballot`, with the vote it reported, in ascending node order.
    promises: Vec<(NodeId, Option<Vote>)>,
    /// The value sent in Phase 2 at `ballot`. Invariant: set exactly when phase is Accepting or
    /// Learned.
    proposal: Option<Value>,
    /// The acceptors that voted for `ballot`.
    accepted_by: NodeSet,
}

impl<Q: QuorumSystem> Proposer<Q> {
    /// An idle proposer that wants `own_value` chosen.
    pub fn new(id: NodeId, quorums: Q, own_value: Value) -> Proposer<Q> {
        Proposer {
            id,
            quorums,
            own_value,
            phase: Phase::Idle,
            ballot: None,
            highest_refusal: None,
            promises: Vec::new(),
            proposal: None,
            accepted_by: NodeSet::EMPTY,
        }
    }

    /// This proposer's id.
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The value this proposer would propose if free to choose.
    pub fn own_value(&self) -> &Value {
        &self.own_value
    }

    /// The quorum system this proposer counts with.
    pub fn quorums(&self) -> &Q {
        &self.quorums
    }

    /// Where the proposer is.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The ballot being run, once started.
    pub fn ballot(&self) -> Option<Ballot> {
        self.ballot
    }

    /// The highest ballot a Nack has named.
    pub fn highest_refusal(&self) -> Option<Ballot> {
        self.highest_refusal
    }

    /// The Promises held for the current ballot: each acceptor and the vote it reported.
    pub fn promises(&self) -> &[(NodeId, Option<Vote>)] {
        &self.promises
    }

    /// The value sent in Phase 2, once Phase 1 completed.
    pub fn proposal(&self) -> Option<&Value> {
        self.proposal.as_ref()
    }

    /// The acceptors that voted for the current ballot.
    pub fn accepted_by(&self) -> NodeSet {
        self.accepted_by
    }

    /// The value this proposer learned is chosen, if any.
    pub fn learned(&self) -> Option<&Value> {
        match self.phase {
            Phase::Learned => self.proposal.as_ref(),
            _ => None,
        }
    }

    /// Phase 1a: starts at round 1 and sends Prepare to every acceptor.
    ///
    /// Starting again is a [`retry`](Proposer::retry).
    pub fn start(&mut self) -> Vec<Envelope> {
        self.retry()
    }

    /// Phase 1a at a new ballot: one round above every ballot this proposer has run or been
    /// refused by. The caller decides when; a learned proposer has nothing to retry, and one
    /// that has seen the last round has no ballot left ([`Ballot::next_above`]).
    pub fn retry(&mut self) -> Vec<Envelope> {
        if self.phase == Phase::Learned {
            return Vec::new();
        }
        let floor = self.ballot.max(self.highest_refusal);
        let Some(ballot) = floor.map_or(Some(Ballot::new(1, self.id)), |floor| {
            Ballot::next_above(floor, self.id)
        }) else {
            return Vec::new();
        };
        self.ballot = Some(ballot);
        self.phase = Phase::Preparing;
        self.promises.clear();
        self.proposal = None;
        self.accepted_by = NodeSet::EMPTY;
        self.broadcast(Message::Prepare { ballot })
    }

    /// Phase 1b received: records the Promise; on a Phase-1 quorum, selects the value by
    /// [P2c](select_value) and sends Accept to every acceptor.
    pub fn on_promise(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        accepted: Option<Vote>,
    ) -> Result<Vec<Envelope>, Ignored> {
        self.check_sender_and_ballot(from, ballot)?;
        if self.phase != Phase::Preparing {
            return Err(Ignored::WrongPhase);
        }
        if self.promises.iter().any(|(node, _)| *node == from) {
            return Err(Ignored::Duplicate);
        }
        let at = self.promises.partition_point(|(node, _)| *node < from);
        self.promises.insert(at, (from, accepted));
        let promised_by: NodeSet = self.promises.iter().map(|(node, _)| *node).collect();
        if !self.quorums.is_phase1_quorum(promised_by) {
            return Ok(Vec::new());
        }
        let value = select_value(
            self.promises.iter().map(|(_, vote)| vote.as_ref()),
            &self.own_value,
        );
        self.phase = Phase::Accepting;
        self.proposal = Some(value.clone());
        Ok(self.broadcast(Message::Accept { ballot, value }))
    }

    /// Phase 2b received: counts the vote; returns the value when this vote completes a Phase-2
    /// quorum, which is when the proposer learns that its value is chosen.
    pub fn on_accepted(&mut self, from: NodeId, ballot: Ballot) -> Result<Option<Value>, Ignored> {
        self.check_sender_and_ballot(from, ballot)?;
        if self.phase != Phase::Accepting {
            return Err(Ignored::WrongPhase);
        }
        if !self.accepted_by.insert(from) {
            return Err(Ignored::Duplicate);
        }
        if !self.quorums.is_phase2_quorum(self.accepted_by) {
            return Ok(None);
        }
        self.phase = Phase::Learned;
        Ok(self.proposal.clone())
    }

    /// A refusal received: remembers the higher ballot so that a retry goes above it.
    pub fn on_nack(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        promised: Ballot,
    ) -> Result<(), Ignored> {
        self.check_sender_and_ballot(from, ballot)?;
        if promised <= ballot {
            return Err(Ignored::NackNotHigher);
        }
        self.highest_refusal = self.highest_refusal.max(Some(promised));
        Ok(())
    }

    /// Handles any message addressed to this proposer; returns the messages to send.
    pub fn handle(&mut self, envelope: &Envelope) -> Result<Vec<Envelope>, Ignored> {
        if envelope.to != self.id {
            return Err(Ignored::NotAddressedToMe);
        }
        let from = envelope.from;
        match &envelope.message {
            Message::Promise { ballot, accepted } => {
                self.on_promise(from, *ballot, accepted.clone())
            }
            Message::Accepted { ballot, .. } => self.on_accepted(from, *ballot).map(|_| Vec::new()),
            Message::Nack { ballot, promised } => {
                self.on_nack(from, *ballot, *promised).map(|()| Vec::new())
            }
            Message::Prepare { .. } | Message::Accept { .. } => Err(Ignored::NotForThisRole),
        }
    }

    fn check_sender_and_ballot(&self, from: NodeId, ballot: Ballot) -> Result<(), Ignored> {
        if !self.quorums.acceptors().contains(from) {
            return Err(Ignored::UnknownSender);
        }
        match self.ballot {
            None => Err(Ignored::NotStarted),
            Some(current) if current != ballot => Err(Ignored::StaleBallot),
            Some(_) => Ok(()),
        }
    }

    fn broadcast(&self, message: Message) -> Vec<Envelope> {
        self.quorums
            .acceptors()
            .iter()
            .map(|to| Envelope {
                from: self.id,
                to,
                message: message.clone(),
            })
            .collect()
    }
}

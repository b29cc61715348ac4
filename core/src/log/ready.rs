//! `Ready`: what a node asks its caller to do after an input. Persist, then send; or both in one
//! step, `DurableRecord::persist_ready`, for a caller whose disk is the record itself.

#[cfg(feature = "accept-batch")]
use crate::NodeId;
use crate::log::{DurableRecord, Entry, LogEnvelope, Persisted, Slot, Write};

/// An entry the apply walk applied to the state machine.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Applied {
    /// The slot applied.
    pub slot: Slot,
    /// Its entry.
    pub entry: Entry,
    /// False when the entry repeats a client request already applied (a retry that reached
    /// the log twice): the state machine skipped it.
    pub fresh: bool,
}

/// The output of a node since its last `Ready`: durable writes, then the messages that may
/// leave only once those writes are durable, and the entries applied.
///
/// **Invariant: persist before send.** A Promise or Accepted that leaves before its write is
/// durable can un-make a decision: the sender crashes, restarts without the vote, and a later
/// Phase 1 no longer sees it. So the messages are released only by
/// [`Ready::into_messages`], which takes the proof, made only by persisting them, that exactly
/// these writes are durable. This includes
/// the node's messages to itself: a leader's own promise and vote count toward a quorum only
/// once durable.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
#[must_use]
pub struct Ready {
    pub(crate) writes: Vec<Write>,
    pub(crate) messages: Vec<LogEnvelope>,
    pub(crate) applied: Vec<Applied>,
    /// For each node, the index in `messages` of the `AcceptRun` to it that later slots may
    /// still join ([`joins_the_run`](crate::log::joins_the_run)). Empty unless Accepts are
    /// batched.
    #[cfg(feature = "accept-batch")]
    pub(crate) open_runs: Vec<(NodeId, usize)>,
}

impl Ready {
    /// Whether there is nothing to do.
    pub fn is_empty(&self) -> bool {
        self.writes.is_empty() && self.messages.is_empty() && self.applied.is_empty()
    }

    /// The writes to make durable, in order, before any message leaves.
    pub fn writes(&self) -> &[Write] {
        &self.writes
    }

    /// The messages waiting for the writes, to look at (not to send).
    pub fn pending_messages(&self) -> &[LogEnvelope] {
        &self.messages
    }

    /// The entries applied by the apply walk, in slot order.
    pub fn applied(&self) -> &[Applied] {
        &self.applied
    }

    /// The index in `messages` of the open run to `to`, if any.
    #[cfg(feature = "accept-batch")]
    pub(crate) fn open_run(&self, to: NodeId) -> Option<usize> {
        (self.open_runs.iter())
            .find(|(node, _)| *node == to)
            .map(|(_, index)| *index)
    }

    /// Makes the message at `index` the open run to `to`.
    #[cfg(feature = "accept-batch")]
    pub(crate) fn open_run_at(&mut self, to: NodeId, index: usize) {
        match self.open_runs.iter_mut().find(|(node, _)| *node == to) {
            Some((_, open)) => *open = index,
            None => self.open_runs.push((to, index)),
        }
    }

    /// Takes the applied entries out, leaving the writes and the messages that wait for them:
    /// for a caller that reports what was applied at once and holds the rest across steps.
    pub fn take_applied(&mut self) -> Vec<Applied> {
        std::mem::take(&mut self.applied)
    }

    /// Releases the messages, given the proof that exactly this batch's writes are durable
    /// (made by [`DurableRecord::persist`](crate::log::DurableRecord::persist)).
    ///
    /// # Panics
    /// If the proof is of other writes: a programming error in the caller.
    pub fn into_messages(self, persisted: Persisted) -> Vec<LogEnvelope> {
        assert!(
            persisted.proves(&self.writes),
            "the proof must cover this Ready's writes"
        );
        self.messages
    }
}

impl DurableRecord {
    /// Persists a [`Ready`]'s writes to this record and releases its messages: [`persist`]
    /// and [`Ready::into_messages`] in one step, for a caller whose disk is this record. No proof
    /// changes hands, so none is digested: the writes are applied here, before the messages
    /// are handed out, which is the order a proof enforces.
    ///
    /// [`persist`]: DurableRecord::persist
    pub fn persist_ready(&mut self, ready: Ready) -> Vec<LogEnvelope> {
        self.apply_all(ready.writes());
        ready.messages
    }
}

//! Linearizable reads behind the read watermark (Paxos Quorum Reads).
//!
//! A read asks every node for its highest accepted slot and is answered from the applied store
//! once [`read_may_be_served`] allows. Rules and invariants:
//!
//! - R1: the watermark is the highest slot holding any vote (or an unknown one, or the floor)
//!   among a Phase-1 quorum's answers, never a commit index;
//! - F2: collecting the watermarks is a discovery step, so it waits for a Phase-1 quorum;
//! - a read is answered only once this node applied through its watermark (the rinse), never
//!   from this node's log alone.

use super::ColocatedNode;
#[cfg(feature = "negative-controls")]
use super::controls::BrokenRule;
use super::election::heard_from_a_discovery_quorum;
use super::state::PendingRead;
#[cfg(feature = "negative-controls")]
use crate::log::{Entry, SlotVote};
use crate::log::{LogMessage, Outcome, ReadId, Slot};
use crate::{Ignored, NodeId, NodeSet, QuorumSystem, Value};

/// The read watermark rule: a read may be answered once a Phase-1 quorum has reported its
/// highest accepted slot and this node has applied through the highest of them.
///
/// Any write that completed before the read began was chosen, so a Phase-2 quorum voted for
/// its slot; that quorum meets the read's Phase-1 quorum, so the watermark is at least the
/// write's slot (Paxos Quorum Reads, Charapko, Ailijiang and Demirbas, 2019).
///
/// Collecting the watermarks is a discovery step, so it waits for a Phase-1 quorum (F2,
/// [`heard_from_a_discovery_quorum`]).
pub fn read_may_be_served<Q: QuorumSystem>(
    quorums: &Q,
    read: &PendingRead,
    applied_index: Slot,
) -> bool {
    heard_from_a_discovery_quorum(quorums, read.answered_by) && applied_index >= read.watermark
}

impl ColocatedNode {
    /// The highest slot this node holds a vote in, or its floor if higher: slots at or below the
    /// floor are decided and their votes dropped, so the floor stands in for them (R1: a read
    /// watermark counts what may be decided, not just the votes still held). A slot whose vote
    /// is unknown counts as a vote: it may be one.
    pub(super) fn highest_accepted(&self) -> Slot {
        let voted = self.acceptor.accepts.keys().next_back().copied();
        let unknown = self.acceptor.unknown.last().copied();
        voted.max(unknown).unwrap_or_default().max(self.floor())
    }

    /// What this node answers a read's `ReadIndex` with: its highest accepted slot.
    pub(super) fn read_watermark_reply(&self) -> Slot {
        #[cfg(feature = "negative-controls")]
        if self.breaks(BrokenRule::ReadCommitIndex) {
            return self.learner.chosen_index;
        }
        self.highest_accepted()
    }

    /// A client's read: ask every node for its highest accepted slot. Never answered from this
    /// node's log alone.
    pub(super) fn on_client_read(&mut self, client: NodeId, seq: u64, key: Value) {
        let read = ReadId {
            incarnation: self.incarnation,
            number: self.next_read,
        };
        self.next_read += 1;
        self.reads.push(PendingRead {
            read,
            client,
            seq,
            key,
            answered_by: NodeSet::EMPTY,
            watermark: Slot(0),
        });
        self.broadcast(LogMessage::ReadIndex { read });
    }

    pub(super) fn on_read_index_reply(
        &mut self,
        from: NodeId,
        read: ReadId,
        highest_accepted: Slot,
    ) -> Result<(), Ignored> {
        let pending = self
            .reads
            .iter_mut()
            .find(|pending| pending.read == read)
            .ok_or(Ignored::UnknownRead)?;
        if !pending.answered_by.insert(from) {
            return Err(Ignored::Duplicate);
        }
        pending.watermark = pending.watermark.max(highest_accepted);
        self.serve_reads();
        Ok(())
    }

    /// Answers every read that [`read_may_be_served`] allows.
    pub(super) fn serve_reads(&mut self) {
        let (servable, waiting): (Vec<PendingRead>, Vec<PendingRead>) =
            std::mem::take(&mut self.reads)
                .into_iter()
                .partition(|read| self.read_is_servable(read));
        self.reads = waiting;
        for read in servable {
            let value = self.read_value(&read);
            self.send(
                read.client,
                LogMessage::Reply {
                    seq: read.seq,
                    outcome: Outcome::Read(value),
                },
            );
        }
    }

    /// Whether `read` may be answered now ([`read_may_be_served`]).
    pub(super) fn read_is_servable(&self, read: &PendingRead) -> bool {
        #[cfg(feature = "negative-controls")]
        if self.skips_the_rinse_for(read) {
            return true;
        }
        read_may_be_served(&self.config.quorums, read, self.learner.applied_index)
    }

    /// The value a servable read answers with: the key's value in the applied store.
    pub(super) fn read_value(&self, read: &PendingRead) -> Option<Value> {
        #[cfg(feature = "negative-controls")]
        if self.skips_the_rinse_for(read)
            && let Some(SlotVote {
                entry: Entry::Command(command),
                ..
            }) = self.acceptor.accepts.get(&read.watermark)
            && command.key == read.key
        {
            return Some(command.value.clone());
        }
        self.learner.store.get(&read.key).cloned()
    }

    /// [`BrokenRule::SkipRinse`]: whether this node serves `read` before its watermark slot is
    /// applied, because a Phase-1 quorum answered, it applied every slot below the watermark
    /// and it holds a vote at the watermark.
    #[cfg(feature = "negative-controls")]
    pub(super) fn skips_the_rinse_for(&self, read: &PendingRead) -> bool {
        self.breaks(BrokenRule::SkipRinse)
            && heard_from_a_discovery_quorum(&self.config.quorums, read.answered_by)
            && self.learner.applied_index.next() == read.watermark
            && self.acceptor.accepts.contains_key(&read.watermark)
    }
}

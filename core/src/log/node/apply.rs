//! The apply walk and truncation: the state machine, the floor and the jump.
//!
//! Rules and invariants (T1–T5):
//!
//! - the apply walk applies chosen entries in slot order, never past the chosen index, and
//!   de-duplicates client retries at apply time (chosen is not applied);
//! - T1: `floor <= applied_index <= chosen_index`;
//! - T2: the floor moves only when the walk applies a decided trim
//!   ([`floor_after_applying`]); T3: the trim point is written before the entries it replaces
//!   are dropped;
//! - T5, the jump ([`ColocatedNode::install_trim_point`]): a peer's trim point above what this
//!   node applied sets the floor and the applied index, and raises the promise to the ballot it
//!   came with, never lowering it ([`jump_raises_the_promise`]);
//! - a leader proposes a trim only as [`trim_may_be_proposed`] allows.

use super::ColocatedNode;
#[cfg(feature = "negative-controls")]
use super::controls::BrokenRule;
use super::state::Leadership;
use crate::log::{Applied, Entry, LogMessage, Outcome, Slot, TrimError, TrimPoint, Write};
use crate::log::{floor_after_applying, jump_raises_the_promise, trim_may_be_proposed};
use crate::{Ballot, Ignored, NodeId, vote_rule};

impl ColocatedNode {
    /// Sends this node's trim point to `to`, for the leadership of `ballot`.
    pub(super) fn send_trim_point(&mut self, to: NodeId, ballot: Ballot) {
        let point = self.learner.trim_point.clone();
        self.send(to, LogMessage::TrimPoint { ballot, point });
    }

    /// The apply walk: applies chosen entries in slot order, never past the chosen index, then
    /// answers the clients waiting on them and the reads whose watermark is now applied. A
    /// decided trim moves the floor when the walk applies it ([`floor_after_applying`], T2).
    pub(super) fn apply_walk(&mut self) {
        while self.learner.applied_index < self.learner.chosen_index {
            let slot = self.learner.applied_index.next();
            let entry = self.learner.chosen[&slot].entry.clone();
            let fresh = self.apply_to_store(&entry);
            self.learner.applied_index = slot;
            let floor = floor_after_applying(self.floor(), slot, &entry);
            if floor > self.floor() {
                self.trim_through(floor);
            }
            if let Entry::Command(command) = &entry
                && self.awaiting.remove(&(command.client, command.seq))
            {
                let reply = LogMessage::Reply {
                    seq: command.seq,
                    outcome: Outcome::Written,
                };
                self.send(command.client, reply);
            }
            self.ready.applied.push(Applied { slot, entry, fresh });
        }
        self.serve_reads();
    }

    /// Applies one entry to the store; a repeat of an applied request is skipped by the session
    /// table (de-duplication at apply time: chosen is not applied, so a retry chosen twice
    /// still applies once).
    pub(super) fn apply_to_store(&mut self, entry: &Entry) -> bool {
        #[cfg(feature = "negative-controls")]
        if self.breaks(BrokenRule::DedupAtPropose) {
            return self.learner.store.apply_without_sessions(entry);
        }
        self.learner.store.apply(entry)
    }

    /// Compacts the log through `through`, a slot this node has applied: the trim point there
    /// is written first, then the entries it replaces are dropped (T3).
    pub(super) fn trim_through(&mut self, through: Slot) {
        let point = self
            .learner
            .trim_point
            .advance(&self.learner.chosen, through)
            .expect("every applied slot above the floor is kept chosen");
        self.ready.writes.push(Write::TrimPoint(point.clone()));
        self.learner.trim_point = point;
        self.drop_through(through);
    }

    /// Drops every entry at or below `through`, durably, after the trim point that replaces
    /// them.
    pub(super) fn drop_through(&mut self, through: Slot) {
        let keep = through.next();
        self.learner.chosen = self.learner.chosen.split_off(&keep);
        self.acceptor.accepts = self.acceptor.accepts.split_off(&keep);
        self.acceptor.unknown = self.acceptor.unknown.split_off(&keep);
        if let Leadership::Leader(leader) = &mut self.proposer.leadership {
            leader.drop_proposals_through(through);
            leader.next_slot = leader.next_slot.max(keep);
        }
        self.ready.writes.push(Write::Truncate(through));
    }

    /// A peer's trim point: install it if it is above what this node has applied, and follow
    /// the ballot it came with as a heartbeat's.
    pub(super) fn on_trim_point(
        &mut self,
        ballot: Ballot,
        point: &TrimPoint,
    ) -> Result<(), Ignored> {
        if vote_rule(self.acceptor.promised, ballot) {
            // Sent by a follower: the ballot's owner stands in for the leader.
            self.follow(ballot.node, ballot);
        }
        self.install_trim_point(ballot, point)?;
        #[cfg(feature = "negative-controls")]
        if self.breaks(BrokenRule::JumpMovesPromise) {
            self.acceptor.promised = Some(ballot);
            self.ready.writes.push(Write::Promise(ballot));
        }
        Ok(())
    }

    /// T5, the jump: installs a peer's trim point at `k`, above what this node has applied.
    ///
    /// The floor and the applied index become `k`, the store becomes the trim point's (sessions
    /// included), and what this node knew at or below `k` is dropped; the chosen index rises to
    /// `k` if it was below, and the walk goes on from there (it may apply a later decided trim and
    /// move the floor again, by T2). The install touches no vote above `k`: they are this
    /// acceptor's own word, which other nodes counted. Its promise never falls, and it rises to
    /// `came_with`, the ballot the trim point came with, if that is higher
    /// ([`jump_raises_the_promise`]): every decision the trim point holds was made at or below
    /// it, so a leader below it may be stale, and this node must no longer follow one. The
    /// promise is written before the trim point, and a leader or candidate it leaves behind
    /// steps down.
    ///
    /// Refused when the trim point is not above what this node has applied (its own walk gets
    /// there), or when it belongs to another cluster.
    pub fn install_trim_point(
        &mut self,
        came_with: Ballot,
        point: &TrimPoint,
    ) -> Result<(), Ignored> {
        if point.cluster != self.config.nodes {
            return Err(Ignored::OtherCluster);
        }
        let through = point.through;
        if through <= self.learner.applied_index {
            return Err(Ignored::StaleTrimPoint);
        }
        let promise = jump_raises_the_promise(self.acceptor.promised, came_with);
        if promise != self.acceptor.promised {
            self.promise(came_with);
        }
        self.ready.writes.push(Write::TrimPoint(point.clone()));
        self.learner.trim_point = point.clone();
        self.learner.store = point.store.clone();
        self.learner.applied_index = through;
        self.drop_through(through);
        if self.learner.chosen_index < through {
            self.learner.chosen_index = through;
            self.ready.writes.push(Write::ChosenThrough(through));
        }
        let before = self.learner.chosen_index;
        self.advance_chosen_index();
        if self.learner.chosen_index == before {
            self.apply_walk();
        }
        self.check_invariants();
        Ok(())
    }

    /// An operator's request to compact the log through `through`: a leader proposes
    /// [`Entry::Trim`] in its next slot, if [`trim_may_be_proposed`] allows it. Returns the slot.
    pub fn request_trim(&mut self, through: Slot) -> Result<Slot, TrimError> {
        let floor = self.floor();
        let applied = self.learner.applied_index;
        let commit = self.learner.chosen_index;
        let Leadership::Leader(leader) = &mut self.proposer.leadership else {
            return Err(TrimError::NotLeader);
        };
        trim_may_be_proposed(through, floor, applied)?;
        let slot = leader.next_slot;
        leader.next_slot = slot.next();
        let accept = leader.propose(slot, Entry::Trim(through), commit);
        self.send_accept(accept);
        self.check_invariants();
        Ok(slot)
    }
}

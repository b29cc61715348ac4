//! Learning and the commit rule: how a node comes to know a slot chosen, and the chosen index.
//!
//! A node learns a slot chosen by its own count, a proxy's announcement, a `Chosen` catch-up or
//! the commit rule. Rules and invariants:
//!
//! - the commit rule: a vote held at the leader's own ballot, at or below the leader's commit
//!   index, is the chosen entry;
//! - the chosen overwrite rule ([`ColocatedNode::learn_chosen`]): the chosen entry replaces a
//!   stale vote in the durable record, and C4: an unknown vote is repaired only here or by a
//!   new vote;
//! - learning raises the promise ([`learning_raises_the_promise`]), durably before the
//!   chosen-through mark, so no accepted record runs ahead of the promise;
//! - the chosen index is the contiguous known-chosen prefix, recorded durably
//!   ([`Write::ChosenThrough`]) as it rises.

use super::ColocatedNode;
use super::state::Leadership;
use crate::Ballot;
use crate::log::{Slot, SlotVote, Write};

/// Learning raises the promise: the promise an acceptor must hold once its record carries the
/// chosen vote `chosen`, given the promise `promised` it held before.
///
/// The chosen overwrite rule ([`ColocatedNode::learn_chosen`]) may write into a node's accepted
/// record a vote at a ballot above its promise, a vote it never cast. No acceptor that votes by
/// the rules is ever in that state: it votes at `n` only if it has not promised above `n`
/// (Paxos Made Simple, section 2.2, P1a), and its vote raises its promise to `n`, so the
/// accepted record never runs ahead of the promise. Left below, the promise lets a delayed
/// Accept at a lower ballot pass [the vote rule](crate::vote_rule) and replace the chosen entry,
/// and a restart then reads the stale vote back as the chosen one. So the promise rises to the
/// chosen vote's ballot, durably, before the chosen-through mark (section 2.5: what an acceptor
/// must remember goes to stable storage).
pub fn learning_raises_the_promise(promised: Option<Ballot>, chosen: &SlotVote) -> Option<Ballot> {
    promised.max(Some(chosen.ballot))
}

impl ColocatedNode {
    /// The commit rule: a vote this node holds at the leader's own ballot, at or below the
    /// leader's commit index, is the chosen entry (a leader proposes one entry per slot per
    /// ballot, and it counts a slot chosen only at its own ballot).
    ///
    /// The votes are learned where they lie, without a copy of the range first. Batched, the
    /// chosen index rises once for them all (one chosen-through mark); unbatched, once per
    /// slot, as each is learned.
    pub(super) fn learn_commit(&mut self, ballot: Ballot, commit: Slot) {
        if commit <= self.learner.chosen_index {
            return;
        }
        let mut slot = self.learner.chosen_index.next();
        while slot <= commit
            && let Some((&voted, vote)) = self.acceptor.accepts.range(slot..=commit).next()
        {
            slot = voted.next();
            if vote.ballot != ballot {
                continue;
            }
            // The vote held is the chosen one: nothing stale to overwrite, and its ballot is at
            // or below the promise unless a control lowered the promise.
            let promise = learning_raises_the_promise(self.acceptor.promised, vote);
            if self.learner.chosen.contains_key(&voted) {
                continue;
            }
            self.learner.chosen.insert(voted, vote.clone());
            self.stop_resending(voted);
            if promise != self.acceptor.promised
                && let Some(ballot) = promise
            {
                self.promise(ballot);
            }
            if !self.config.batches_accepts() {
                self.advance_chosen_index();
                self.check_invariants();
            }
        }
        if self.config.batches_accepts() {
            self.advance_chosen_index();
        }
    }

    /// Learns that `vote` is chosen in `slot`, and applies the chosen overwrite rule: the
    /// chosen entry replaces a stale lower-ballot vote in the durable record, so that no
    /// restart can bring the stale entry back as if it were chosen.
    ///
    /// The record then holds a vote at `vote.ballot`, so the promise rises with it
    /// ([`learning_raises_the_promise`]): a `Write::Promise` goes before the vote and the
    /// chosen-through mark in the same `Ready`, and a delayed Accept below the chosen ballot is
    /// refused by the vote rule instead of replacing the chosen entry.
    pub fn learn_chosen(&mut self, slot: Slot, vote: SlotVote) {
        if self.note_chosen(slot, vote) {
            self.advance_chosen_index();
            self.check_invariants();
        }
    }

    /// [`ColocatedNode::learn_chosen`] but for the chosen index: records `vote` as chosen in
    /// `slot`, raising the promise and overwriting a stale vote, and returns whether it was new.
    /// The caller raises the chosen index ([`ColocatedNode::advance_chosen_index`]), once for
    /// every slot it learns in one step.
    pub(super) fn note_chosen(&mut self, slot: Slot, vote: SlotVote) -> bool {
        let compacted = slot <= self.floor() && !self.learns_below_the_floor();
        if compacted || self.learner.chosen.contains_key(&slot) {
            return false;
        }
        let promise = learning_raises_the_promise(self.acceptor.promised, &vote);
        if promise != self.acceptor.promised
            && !self.leaves_the_promise_when_learning()
            && let Some(ballot) = promise
        {
            self.promise(ballot);
        }
        let stale = self
            .acceptor
            .accepts
            .get(&slot)
            .is_none_or(|held| held.entry != vote.entry || held.ballot < vote.ballot);
        if stale {
            // C4: an unknown vote is repaired here, and only here or by a new vote: from a
            // copy known chosen.
            self.acceptor.unknown.remove(&slot);
            self.acceptor.accepts.insert(slot, vote.clone());
            self.ready.writes.push(Write::Accept(slot, vote.clone()));
        }
        self.learner.chosen.insert(slot, vote);
        self.stop_resending(slot);
        true
    }

    /// Whether this node breaks the learning rule (the [`BrokenRule::LearningLeavesThePromise`]
    /// control); never without the `negative-controls` feature.
    ///
    /// [`BrokenRule::LearningLeavesThePromise`]: crate::log::BrokenRule::LearningLeavesThePromise
    fn leaves_the_promise_when_learning(&self) -> bool {
        #[cfg(feature = "negative-controls")]
        if self.breaks(crate::log::BrokenRule::LearningLeavesThePromise) {
            return true;
        }
        false
    }

    /// Whether this node learns slots at or below its floor again (the
    /// [`BrokenRule::LearnsBelowTheFloor`] control); never without the `negative-controls`
    /// feature.
    ///
    /// [`BrokenRule::LearnsBelowTheFloor`]: crate::log::BrokenRule::LearnsBelowTheFloor
    fn learns_below_the_floor(&self) -> bool {
        #[cfg(feature = "negative-controls")]
        if self.breaks(crate::log::BrokenRule::LearnsBelowTheFloor) {
            return true;
        }
        false
    }

    /// A slot this node learned chosen, however it learned it (its own count, a proxy's
    /// announcement, a `Chosen` catch-up or the commit rule): if it leads, its proposal there
    /// is done, and its beats stop sending it again.
    pub(super) fn stop_resending(&mut self, slot: Slot) {
        if let Leadership::Leader(leader) = &mut self.proposer.leadership {
            leader.forget(slot);
            leader.resends.remove(&slot);
        }
    }

    /// Raises the chosen index over the contiguous known-chosen prefix, records it durably,
    /// and runs the apply walk.
    pub(super) fn advance_chosen_index(&mut self) {
        let learner = &mut self.learner;
        let before = learner.chosen_index;
        while learner.chosen.contains_key(&learner.chosen_index.next()) {
            learner.chosen_index = learner.chosen_index.next();
        }
        if learner.chosen_index > before {
            let chosen_through = learner.chosen_index;
            self.ready.writes.push(Write::ChosenThrough(chosen_through));
            self.apply_walk();
        }
    }
}

//! Heartbeats and catch-up: the caller's clock, a leader's beat, and the stale tail.
//!
//! A leader beats every heartbeat interval: a heartbeat with its commit index to every node, and
//! its unchosen proposals sent again. A follower answers with its chosen index and highest
//! vote, and the leader sends it the chosen entries it lacks. Rules and invariants:
//!
//! - a heartbeat at a ballot below the promise is refused (the vote rule), and one that passes
//!   teaches the commit index (the commit rule);
//! - the catch-up rule: a `Chosen` stops at the lagging node's window
//!   ([`catch_up_end`]), a batch at a time; a node behind the sender's floor gets the trim
//!   point instead;
//! - the stale-tail rule ([`fill_up_to`], and over a leader's own votes
//!   [`leader_fills_its_own_stale_tail`]): a vote reported above everything the leader proposed
//!   is filled with no-ops at its ballot, so no read waits on it for ever (R1).

use super::ColocatedNode;
use super::state::Leadership;
use super::window::catch_up_end;
use crate::log::{LogMessage, Slot, SlotVote};
use crate::{Ballot, Ignored, NodeId, vote_rule};
use std::ops::RangeInclusive;

/// The stale-tail rule: the slots a leader fills with no-ops when a follower reports a vote in
/// `highest_accepted`, given the slot its next command would get: every slot from `next_slot`
/// up to that vote, or none.
///
/// A vote above everything the leader proposed was cast at a lower ballot for a slot no Promise
/// of its Phase-1 quorum reported, so nothing can have been chosen there below its ballot, and
/// a no-op at its own ballot is safe (Paxos Made Simple, section 3). Left undecided, such a vote
/// would hold every read whose watermark reaches it (R1 counts votes, not decisions) until a
/// new command happened to land in its slot: with no more writes, for ever.
pub fn fill_up_to(
    next_slot: Slot,
    highest_accepted: Slot,
) -> Option<std::ops::RangeInclusive<Slot>> {
    (highest_accepted >= next_slot).then_some(next_slot..=highest_accepted)
}

/// The stale-tail rule over a leader's own votes: the slots a leader with `next_slot` fills
/// with no-ops, given `own_highest_accepted`, its own highest vote (or floor): [`fill_up_to`]
/// over its own votes. It runs as the node begins to lead, however it took office (by Phase 1
/// or by a handoff), and again at each vote its own acceptor casts while it leads.
///
/// Neither way to office need show a leader its own votes: a Phase-1 quorum may elect it before
/// its own Promise arrives, and a successor runs no Phase 1. Nor need they stop its acceptor
/// from voting later at a lower ballot: until its own Prepare reaches it, its promise is the
/// old one, and a late Accept of the old leader is voted for. Its followers' heartbeat acks
/// report only theirs. A vote of its own at or above the next slot was cast below its ballot
/// in a slot the Phase-1 quorum behind that ballot reported nothing for, so nothing can have
/// been chosen there below the ballot and nothing was proposed there at it; a no-op is safe
/// (Paxos Made Simple, section 3; H3 for a successor, whose no-ops are at the next slot and
/// above). Left undecided, such a vote would hold for ever every read whose watermark reaches
/// it (R1).
pub fn leader_fills_its_own_stale_tail(
    next_slot: Slot,
    own_highest_accepted: Slot,
) -> Option<std::ops::RangeInclusive<Slot>> {
    fill_up_to(next_slot, own_highest_accepted)
}

impl ColocatedNode {
    /// One tick of the caller's clock: a leader's heartbeat, or a follower's election timeout.
    pub fn tick(&mut self) {
        let new_value = self.resends_a_new_value();
        if let Leadership::Leader(leader) = &mut self.proposer.leadership {
            leader.ticks_since_beat += 1;
            if leader.ticks_since_beat >= self.config.heartbeat_interval_ticks {
                let commit = self.learner.chosen_index;
                let beat = if self.config.proxies.is_empty() {
                    leader.beat(self.id, self.config.nodes, commit)
                } else {
                    leader.beat_through_proxies(self.id, self.config, commit, new_value)
                };
                for (to, message) in beat {
                    self.send_or_join_run(to, message);
                }
            }
        } else {
            self.proposer.ticks_since_heard += 1;
            if self.proposer.ticks_since_heard >= self.config.election_timeout_ticks {
                self.stand_for_election();
            }
        }
        self.check_invariants();
    }

    /// The stale-tail rule over a vote this node's acceptor just cast, at `voted`, while it
    /// leads ([`leader_fills_its_own_stale_tail`]): a vote below this leadership's ballot, above
    /// every slot it proposed, is filled with a no-op at once. A vote at its own ballot is for
    /// a slot it proposed (H2: whoever handed the ballot on stopped proposing at it).
    pub(super) fn fill_own_stale_tail_while_leading(&mut self, voted: Ballot) {
        let own = self.highest_accepted();
        let commit = self.learner.chosen_index;
        let Leadership::Leader(leader) = &mut self.proposer.leadership else {
            return;
        };
        if voted >= leader.ballot {
            return;
        }
        let Some(stale) = leader_fills_its_own_stale_tail(leader.next_slot, own) else {
            return;
        };
        for accept in leader.fill_with_noops(stale, commit) {
            self.send_accept(accept);
        }
    }

    /// A leader's heartbeat: the leader is alive, and every slot up to `commit` is chosen.
    pub(super) fn on_heartbeat(&mut self, from: NodeId, ballot: Ballot, commit: Slot) {
        if !vote_rule(self.acceptor.promised, ballot) {
            self.refuse(from, ballot);
            return;
        }
        self.follow(from, ballot);
        self.learn_commit(ballot, commit);
        self.catch_up_successor(from, ballot, commit);
        let chosen_index = self.learner.chosen_index;
        let highest_accepted = self.highest_accepted();
        self.send(
            from,
            LogMessage::HeartbeatAck {
                ballot,
                chosen_index,
                highest_accepted,
            },
        );
        if commit < self.floor() {
            // The leader is behind this node's floor: it can learn those slots only by a jump.
            self.send_trim_point(from, ballot);
        }
    }

    /// A follower's chosen index and highest vote: fill any stale tail above this leader's
    /// proposals ([`fill_up_to`]), and send the follower the chosen entries it lacks, a batch at
    /// a time and within its window ([`catch_up_end`]).
    pub(super) fn on_heartbeat_ack(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        theirs: Slot,
        highest_accepted: Slot,
    ) -> Result<(), Ignored> {
        let commit = self.learner.chosen_index;
        let Leadership::Leader(leader) = &mut self.proposer.leadership else {
            return Err(Ignored::StaleBallot);
        };
        if leader.ballot != ballot {
            return Err(Ignored::StaleBallot);
        }
        if let Some(stale) = fill_up_to(leader.next_slot, highest_accepted) {
            for accept in leader.fill_with_noops(stale, commit) {
                self.send_accept(accept);
            }
        }
        let chosen_index = self.learner.chosen_index;
        if theirs >= chosen_index {
            return Ok(());
        }
        if theirs < self.floor() {
            self.send_trim_point(from, ballot);
            return Ok(());
        }
        let end = catch_up_end(theirs, chosen_index, self.config.slot_window);
        let entries = self.chosen_batch(theirs.next()..=end);
        self.send(from, LogMessage::Chosen { entries });
        Ok(())
    }

    /// The chosen entries this node holds in `slots`, at most a catch-up batch of them: what
    /// one `Chosen` carries.
    pub(super) fn chosen_batch(&self, slots: RangeInclusive<Slot>) -> Vec<(Slot, SlotVote)> {
        (self.learner.chosen.range(slots))
            .take(self.config.catch_up_batch)
            .map(|(slot, vote)| (*slot, vote.clone()))
            .collect()
    }
}

//! Election and Phase 1, with the recovery duty: ballots, promises and leadership.
//!
//! A follower that hears no leader for its election timeout stands at a ballot above every
//! ballot it has seen, durably ([`Write::Stood`]) before its Prepare leaves, and runs one Phase 1
//! over the log suffix it does not know chosen. Rules and invariants:
//!
//! - the promise rule ([`promise_rule`]): a node promises only above its promise, and the
//!   promise never falls; a candidate or leader below a promise steps down
//!   ([`promise_deposes_a_lower_run`]);
//! - F2, discovery: Phase 1, its recovery and floor discovery wait for a Phase-1 quorum
//!   ([`heard_from_a_discovery_quorum`]), and C3: for a slot reported unknown, a Phase-1 quorum
//!   of definite answers ([`phase1_complete`]);
//! - the recovery duty (P2c per slot, [`recover_slot`]): every slot from the Prepare's first
//!   slot to the highest reported or known chosen is proposed again before any new command,
//!   except at or below the highest floor reported (T4);
//! - the lagging-candidate rule ([`teach_a_lagging_candidate`]): a Promise that names slots
//!   beyond its candidate's window follows a batch of the chosen entries it lacks;
//! - a new leader fills its own stale tail at once
//!   ([`leader_fills_its_own_stale_tail`](super::heartbeats::leader_fills_its_own_stale_tail)).

use super::ColocatedNode;
#[cfg(feature = "negative-controls")]
use super::controls::BrokenRule;
use super::heartbeats::leader_fills_its_own_stale_tail;
use super::state::{Election, LeaderState, Leadership};
use super::window::teach_a_lagging_candidate;
use crate::log::{Entry, LogMessage, Slot, SlotMap, SlotVote, Write, first_slot_to_recover};
use crate::{Ballot, Ignored, NodeId, NodeSet, QuorumSystem, promise_rule};
use std::collections::{BTreeMap, BTreeSet};

/// C3, discovery with unknowns: Phase 1 is complete once the nodes that promised form a
/// Phase-1 quorum and, for every slot some of them reported unknown, the nodes that answered
/// that slot definitely (a vote or "no vote") form a Phase-1 quorum by themselves.
///
/// An unknown answer may hide a vote for a chosen value, so it cannot stand in for one: the
/// value is sure to be seen only if a Phase-1 quorum answered without it, for that quorum meets
/// the Phase-2 quorum that chose it (Alagappan et al., "Protocol-Aware Recovery for
/// Consensus-Based Storage", FAST 2018). Counted by [`heard_from_a_discovery_quorum`], never by
/// hand.
pub fn phase1_complete<Q: QuorumSystem + ?Sized>(quorums: &Q, election: &Election) -> bool {
    heard_from_a_discovery_quorum(quorums, election.promised_by)
        && election.unknown_by.iter().all(|(_, unknown)| {
            heard_from_a_discovery_quorum(
                quorums,
                answered_definitely(election.promised_by, *unknown),
            )
        })
}

/// The nodes among `promised_by` that answered a slot definitely: all but those that reported
/// it unknown.
fn answered_definitely(promised_by: NodeSet, unknown_by: NodeSet) -> NodeSet {
    promised_by
        .iter()
        .filter(|node| !unknown_by.contains(*node))
        .collect()
}

/// The recovery rule (P2c per slot): the entry a new leader proposes for `slot`.
///
/// The value of the highest-ballot vote any Promise reported for the slot; a no-op when no
/// Promise reported one, because then no value can have been chosen there (a chosen value was
/// voted by a Phase-2 quorum, which meets the Phase-1 quorum that promised). Paxos Made Simple,
/// section 3: the new leader "fills the gaps with no-op commands".
pub fn recover_slot(reported: Option<&SlotVote>) -> Entry {
    reported.map_or(Entry::Noop, |vote| vote.entry.clone())
}

/// F2, discovery: a step that learns what may have been chosen (Phase 1 with its recovery and
/// floor discovery, a read's watermark) is complete once a **Phase-1** quorum has answered.
///
/// Whatever was chosen was voted by a Phase-2 quorum, and every Phase-1 quorum meets every
/// Phase-2 quorum (F1), so one of those who answered saw it. Flexible Paxos (Howard, Malkhi
/// and Spiegelman, OPODIS 2016, section 3) lets the two phases use different quorums on exactly
/// this condition: a smaller Phase 2 is paid for with a larger Phase 1.
pub fn heard_from_a_discovery_quorum<Q: QuorumSystem + ?Sized>(
    quorums: &Q,
    answered_by: NodeSet,
) -> bool {
    quorums.is_phase1_quorum(answered_by)
}

/// A promise deposes a lower run: a node that promises `promised` while it runs as candidate or
/// leader at `running` below it steps down.
///
/// The commit rule ([`ColocatedNode::learn_chosen`]'s counterpart for followers) is sound only
/// for slots a leader knows decided at or below its own ballot: a follower takes its vote at the
/// leader's ballot for the chosen entry, and a decision made at a higher ballot may hold another.
/// Every decision a node knows was made at or below its promise (learning raises it,
/// [`learning_raises_the_promise`], and so does a jump, [`jump_raises_the_promise`]), so a leader
/// whose promise is at or below its ballot vouches only for such slots; one whose promise rose
/// above it may know a decision of a higher ballot, and it is stale anyway (Paxos Made Simple,
/// section 2.3: a proposer that hears of a higher proposal number abandons its own).
///
/// [`learning_raises_the_promise`]: crate::log::learning_raises_the_promise
/// [`jump_raises_the_promise`]: crate::log::jump_raises_the_promise
pub fn promise_deposes_a_lower_run(running: Option<Ballot>, promised: Ballot) -> bool {
    running.is_some_and(|running| running < promised)
}

impl ColocatedNode {
    /// The election timeout fired: stand as candidate at a ballot above every ballot seen, and
    /// send one Prepare covering every slot from the first not known chosen.
    ///
    /// The ballot is written ([`Write::Stood`]) in the same `Ready` as the Prepare, so no
    /// Prepare leaves before the ballot is durable and a restart never stands at it again: a
    /// Promise for it from a previous life (a duplicate, or a reply to a Prepare still in
    /// flight) could otherwise elect the same ballot twice and give it two values.
    ///
    /// A node that has seen a ballot in the last round has none above it left
    /// ([`Ballot::next_above`]): it stands no more, and goes on voting and following.
    pub(super) fn stand_for_election(&mut self) {
        let floor = self
            .proposer
            .highest_seen
            .max(self.acceptor.promised)
            .max(self.proposer.leadership.ballot());
        self.proposer.ticks_since_heard = 0;
        let Some(ballot) = floor.map_or(Some(Ballot::new(1, self.id)), |floor| {
            Ballot::next_above(floor, self.id)
        }) else {
            return;
        };
        let from_slot = self.learner.chosen_index.next();
        self.proposer.leadership = Leadership::Candidate {
            ballot,
            election: Election {
                from_slot,
                promised_by: NodeSet::EMPTY,
                reported: SlotMap::new(),
                highest_floor: Slot(0),
                unknown_by: Vec::new(),
            },
        };
        self.proposer.highest_seen = Some(ballot);
        self.proposer.ticks_since_heard = 0;
        self.ready.writes.push(Write::Stood(ballot));
        self.broadcast(LogMessage::Prepare { ballot, from_slot });
    }

    /// Phase 1b, by the promise rule; the Promise reports the floor and every vote from
    /// `from_slot` on. A candidate that asks from below the floor also gets the trim point: the
    /// slots it asks about are decided, and only the trim point still holds them.
    pub(super) fn on_prepare(&mut self, from: NodeId, ballot: Ballot, from_slot: Slot) {
        if !promise_rule(self.acceptor.promised, ballot) {
            self.refuse(from, ballot);
            return;
        }
        self.promise(ballot);
        self.follow(from, ballot);
        let floor = self.floor();
        let votes: Vec<(Slot, SlotVote)> = self
            .acceptor
            .accepts
            .range(from_slot..)
            .map(|(slot, vote)| (*slot, vote.clone()))
            .collect();
        let unknown = self.unknown_from(from_slot);
        if floor < from_slot {
            let highest_named = (votes.iter().map(|(slot, _)| *slot))
                .chain(unknown.iter().copied())
                .max()
                .unwrap_or(Slot(0));
            self.teach_a_lagging_candidate(from, from_slot, highest_named);
        }
        self.send(
            from,
            LogMessage::Promise {
                ballot,
                from_slot,
                floor,
                votes,
                unknown,
            },
        );
        if floor >= from_slot {
            self.send_trim_point(from, ballot);
        }
    }

    /// The lagging-candidate rule ([`teach_a_lagging_candidate`]): a batch of the chosen
    /// entries a candidate whose Prepare asks from `from_slot` lacks, within its window, when
    /// the Promise names slots up to `highest_named`, beyond that window.
    fn teach_a_lagging_candidate(
        &mut self,
        candidate: NodeId,
        from_slot: Slot,
        highest_named: Slot,
    ) {
        let Some(slots) = teach_a_lagging_candidate(
            from_slot,
            self.learner.chosen_index,
            highest_named,
            self.config.slot_window,
        ) else {
            return;
        };
        let entries = self.chosen_batch(slots);
        if !entries.is_empty() {
            self.send(candidate, LogMessage::Chosen { entries });
        }
    }

    /// C2: the slots from `from_slot` on that a Promise reports unknown, never "no vote".
    pub(super) fn unknown_from(&self, from_slot: Slot) -> Vec<Slot> {
        #[cfg(feature = "negative-controls")]
        if self.breaks(BrokenRule::CorruptAsNone) {
            return Vec::new();
        }
        self.acceptor.unknown.range(from_slot..).copied().collect()
    }

    /// A Promise for this candidate's ballot: merge its floor and votes; on a Phase-1 quorum,
    /// lead.
    pub(super) fn on_promise(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        floor: Slot,
        votes: Vec<(Slot, SlotVote)>,
        unknown: Vec<Slot>,
    ) -> Result<(), Ignored> {
        let Leadership::Candidate {
            ballot: standing,
            election,
        } = &mut self.proposer.leadership
        else {
            return Err(Ignored::StaleBallot);
        };
        if *standing != ballot {
            return Err(Ignored::StaleBallot);
        }
        if !election.promised_by.insert(from) {
            return Err(Ignored::Duplicate);
        }
        election.highest_floor = election.highest_floor.max(floor);
        for (slot, vote) in votes {
            let higher = election
                .reported
                .get(&slot)
                .is_none_or(|reported| vote.ballot > reported.ballot);
            if higher {
                election.reported.insert(slot, vote);
            }
        }
        for slot in unknown {
            match election
                .unknown_by
                .iter_mut()
                .find(|(known, _)| *known == slot)
            {
                Some((_, nodes)) => {
                    nodes.insert(from);
                }
                None => election
                    .unknown_by
                    .push((slot, [from].into_iter().collect())),
            }
        }
        // Phase 1, the recovery it feeds and floor discovery: a discovery step (F2), over
        // definite answers only (C3).
        if phase1_complete(&self.config.quorums, election) {
            let election = election.clone();
            self.lead(ballot, &election);
        }
        Ok(())
    }

    /// Phase 1 is complete: the recovery duty, then steady state.
    ///
    /// Every slot from the Prepare's `from_slot` to the highest slot reported or known chosen is
    /// proposed again by [`recover_slot`], before any new command gets a slot, except the slots
    /// at or below the highest floor a Promise reported: they are decided, and the leader learns
    /// them from a trim point ([`first_slot_to_recover`], T4).
    ///
    /// The next-slot rule: new commands start just above that last slot, found by this Phase 1
    /// alone, not above the slots this node proposed in an earlier leadership. A slot no Promise
    /// of the Phase-1 quorum reported and not known chosen cannot have been chosen (a Phase-2
    /// quorum would have met the Phase-1 quorum, and the promises now forbid every lower vote),
    /// so it is free; skipping it would leave a hole that no one ever fills (Paxos Made Simple,
    /// section 3: a new leader fills every gap below the commands it proposes). A stale tail of
    /// its own votes above that slot is filled at once ([`leader_fills_its_own_stale_tail`]).
    pub(super) fn lead(&mut self, ballot: Ballot, election: &Election) {
        self.proposer.leader_hint = Some(self.id);
        let highest_reported = election
            .reported
            .keys()
            .next_back()
            .copied()
            .unwrap_or_default();
        let chosen = &self.learner.chosen;
        let highest_known = chosen.keys().next_back().copied().unwrap_or_default();
        let highest_unknown = (election.unknown_by.iter())
            .map(|(slot, _)| *slot)
            .max()
            .unwrap_or_default();
        let last = highest_reported
            .max(highest_unknown)
            .max(highest_known)
            .max(self.learner.chosen_index)
            .max(election.highest_floor);

        let mut leader = LeaderState {
            ballot,
            proposals: SlotMap::new(),
            proposed_requests: BTreeSet::new(),
            next_slot: last.next(),
            ticks_since_beat: 0,
            resends: BTreeMap::new(),
        };
        let commit = self.learner.chosen_index;
        let mut accepts = Vec::new();
        let highest_floor = election.highest_floor.max(self.floor());
        let mut slot = first_slot_to_recover(election.from_slot, highest_floor);
        while slot <= last {
            let entry = match chosen.get(&slot) {
                Some(vote) => vote.entry.clone(),
                None => recover_slot(election.reported.get(&slot)),
            };
            accepts.push(leader.propose(slot, entry, commit));
            slot = slot.next();
        }
        accepts.extend(self.fill_own_stale_tail(&mut leader, commit));
        self.proposer.leadership = Leadership::Leader(leader);
        for accept in accepts {
            self.send_accept(accept);
        }
    }

    /// Fills this new leader's own stale tail ([`leader_fills_its_own_stale_tail`]) with no-ops
    /// at its ballot, and returns their Accepts.
    pub(super) fn fill_own_stale_tail(
        &self,
        leader: &mut LeaderState,
        commit: Slot,
    ) -> Vec<LogMessage> {
        let own = self.highest_accepted();
        let Some(stale) = leader_fills_its_own_stale_tail(leader.next_slot, own) else {
            return Vec::new();
        };
        leader.fill_with_noops(stale, commit)
    }

    /// A refusal of this node's ballot: someone holds a higher one, so step down and wait.
    pub(super) fn on_nack(&mut self, ballot: Ballot, promised: Ballot) -> Result<(), Ignored> {
        if self.proposer.leadership.running() != Some(ballot) {
            return Err(Ignored::StaleBallot);
        }
        if promised <= ballot {
            return Err(Ignored::NackNotHigher);
        }
        self.proposer.highest_seen = self.proposer.highest_seen.max(Some(promised));
        self.step_down();
        self.proposer.ticks_since_heard = 0;
        Ok(())
    }

    /// Promises `ballot`, durably. A candidate or leader below it steps down
    /// ([`promise_deposes_a_lower_run`]).
    pub(super) fn promise(&mut self, ballot: Ballot) {
        self.acceptor.promised = Some(ballot);
        self.proposer.highest_seen = self.proposer.highest_seen.max(Some(ballot));
        self.ready.writes.push(Write::Promise(ballot));
        if promise_deposes_a_lower_run(self.proposer.leadership.running(), ballot) {
            self.step_down();
        }
    }

    /// Hearing `ballot` from `holder`, the node that leads at it: follow it, unless this node
    /// is the holder.
    ///
    /// The holder is the sender, not the ballot's owner: after a handoff the successor leads
    /// at a ballot another node owns (H1–H4), and the old leader follows it at its own ballot.
    pub(super) fn follow(&mut self, holder: NodeId, ballot: Ballot) {
        if holder == self.id {
            return;
        }
        self.proposer.highest_seen = self.proposer.highest_seen.max(Some(ballot));
        if self
            .proposer
            .leadership
            .running()
            .is_some_and(|running| running < ballot)
        {
            self.step_down();
        }
        if let Leadership::Follower { .. } = self.proposer.leadership {
            self.proposer.leader_hint = Some(holder);
            self.proposer.ticks_since_heard = 0;
        }
    }

    /// Back to follower, dropping the election or the leadership and keeping the ballot it ran
    /// at. The leader hint is cleared: a deposed leader does not know who leads now, and naming
    /// itself would send clients back to a node that refuses them; `follow` sets the hint again
    /// when it hears a leader.
    pub(super) fn step_down(&mut self) {
        let last_ballot = self.proposer.leadership.ballot();
        self.proposer.leadership = Leadership::Follower { last_ballot };
        self.proposer.leader_hint = None;
    }
}

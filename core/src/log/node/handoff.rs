//! The same-ballot handoff: a leader gives its ballot to a successor, which leads at it with no
//! Phase 1.
//!
//! No single paper states it. Its nearest relatives are Megastore's fast writes (Baker et al.,
//! "Megastore", CIDR 2011), where the leader of one log position hands the next position's
//! first write to another replica, and Matchmaker Paxos's Phase-1 bypass (Whittaker et al.,
//! section 4.4), where a leader whose round follows its own skips Phase 1. Raft's leadership
//! transfer (Ongaro's thesis, section 3.10) does the same job the other way: the successor
//! starts a new term and runs an election. The root of all of them is Paxos's own guard: at
//! most one value is ever proposed per (slot, ballot), so every vote at a ballot is a vote for
//! the one value of its slot. The handoff keeps that guard across two holders with four rules:
//!
//! - **H1** across both holders at most one value is ever sent per (slot, ballot);
//! - **H2** the old leader durably records "handed off b" and stops proposing before its
//!   Handoff leaves ([`ColocatedNode::hand_off`]);
//! - **H3** the successor proposes only at the handed-off next slot and above, or sends the
//!   in-flight values again, identical ([`successor_may_propose`]);
//! - **H4** one hop: a ballot is handed off once, by its owner; the successor never hands it on.
//!
//! Acceptors need no new rule: an Accept at `b` from the successor passes the vote rule as the
//! owner's did, and its Accepted goes back to its sender. A follower follows the sender, not the
//! ballot's owner, so its leader hint names the successor and the old leader, now a follower,
//! hears the successor's heartbeats at its own ballot instead of timing out.

use super::ColocatedNode;
#[cfg(feature = "negative-controls")]
use super::controls::BrokenRule;
use super::state::{LeaderState, Leadership};
use super::window::catch_up_end;
use crate::log::{Entry, LogMessage, Slot, SlotMap, Write};
use crate::{Ballot, Ignored, NodeId, vote_rule};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// H3: whether a successor that took a ballot with `next_slot` may propose a new entry in
/// `slot` at that ballot: only at `next_slot` and above.
///
/// Below `next_slot` the old leader may have proposed, and a value may be chosen at the very
/// ballot the successor holds; a hole there is filled only by a higher ballot after Phase 1,
/// which learns what was voted. The in-flight values are not new entries: the successor sends
/// them again identical, so each (slot, ballot) still carries one value (H1).
pub fn successor_may_propose(next_slot: Slot, slot: Slot) -> bool {
    slot >= next_slot
}

/// H3, what a Handoff carries in flight: every proposal not yet seen chosen, and every slot
/// above the chosen index and below `next_slot` known chosen, with its chosen entry, in slot
/// order. `proposals` and `chosen` come in slot order (as a [`SlotMap`](crate::log::SlotMap)
/// iterates); where a slot is in both, the proposal is sent.
///
/// The successor sends each again, identical, at the handed-off ballot. A slot known chosen
/// only above a hole is not yet in the chosen prefix that heartbeats carry, and the old leader
/// may be the only node that knows it is chosen: left out, it would be lost when that leader
/// crashes, and the successor, which fills no hole below `next_slot`, would never decide it. Its
/// chosen entry is the one value a proposal at this ballot may carry there: the old leader
/// knows only decisions made at or below its ballot
/// ([`promise_deposes_a_lower_run`](crate::log::promise_deposes_a_lower_run)), and any value
/// chosen at or below a ballot is the only one a proposal at that ballot may carry (Paxos Made
/// Simple, P2c). So H1 holds.
pub fn in_flight_at_handoff<'a>(
    proposals: impl Iterator<Item = (&'a Slot, &'a Entry)>,
    chosen: impl Iterator<Item = (&'a Slot, &'a Entry)>,
    chosen_index: Slot,
    next_slot: Slot,
) -> Vec<(Slot, Entry)> {
    let mut proposals = proposals.peekable();
    let mut chosen_above = chosen
        .filter(|(slot, _)| **slot > chosen_index && **slot < next_slot)
        .peekable();
    let mut in_flight = Vec::new();
    // A merge of two slot-ordered lists, not a sorted map: the game's module links no sort.
    loop {
        let next = match (proposals.peek(), chosen_above.peek()) {
            (Some((proposed, _)), Some((chosen, _))) if chosen < proposed => chosen_above.next(),
            (Some((proposed, _)), Some((chosen, _))) if chosen == proposed => {
                chosen_above.next();
                proposals.next()
            }
            (Some(_), _) => proposals.next(),
            (None, _) => chosen_above.next(),
        };
        let Some((slot, entry)) = next else {
            return in_flight;
        };
        in_flight.push((*slot, entry.clone()));
    }
}

/// Why a node refused to hand its ballot off ([`ColocatedNode::hand_off`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum HandoffRefused {
    /// The node does not lead: it has no ballot to give.
    NotLeading,
    /// The node already handed this ballot off (H4: at most once).
    AlreadyHandedOff(Ballot),
    /// The node leads at a ballot it took by a handoff: it never hands it on (H4).
    HandedOnBallot(Ballot),
    /// The successor is not a node of the cluster.
    UnknownSuccessor(NodeId),
    /// A node cannot hand its ballot to itself.
    ToItself,
}

impl fmt::Display for HandoffRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HandoffRefused::NotLeading => f.write_str("this node does not lead"),
            HandoffRefused::AlreadyHandedOff(ballot) => {
                write!(f, "ballot {ballot} was already handed off")
            }
            HandoffRefused::HandedOnBallot(ballot) => {
                write!(
                    f,
                    "ballot {ballot} was handed to this node: it is never handed on"
                )
            }
            HandoffRefused::UnknownSuccessor(node) => write!(f, "{node} is not in the cluster"),
            HandoffRefused::ToItself => f.write_str("a node cannot hand its ballot to itself"),
        }
    }
}

impl std::error::Error for HandoffRefused {}

impl ColocatedNode {
    /// The highest ballot this node handed off, in any life (H2).
    pub fn handed_off(&self) -> Option<Ballot> {
        self.handoff.handed_off
    }

    /// The highest ballot this node took by a handoff, in any life.
    pub fn took_handoff(&self) -> Option<Ballot> {
        self.handoff.took
    }

    /// Hands this leader's ballot to `to`, which will lead at it with no Phase 1.
    ///
    /// H2: "handed off b" is written ([`Write::HandedOff`]) and the node steps down before the
    /// Handoff is queued, so in the `Ready` the write comes first and the message leaves only
    /// once it is durable; from then on this node proposes nothing at `b`, in this life or any
    /// later one (a restart reads the mark back and stands above `b`). The Handoff carries the
    /// next slot, what is in flight ([`in_flight_at_handoff`]: the proposals not yet seen
    /// chosen and the slots known chosen above the chosen index) and the chosen index.
    ///
    /// Refused, with a typed reason, unless this node leads at a ballot it owns (H4) and `to`
    /// is another node of the cluster.
    pub fn hand_off(&mut self, to: NodeId) -> Result<(), HandoffRefused> {
        let handoff = self.handoff_to(to)?;
        let LogMessage::Handoff { ballot, .. } = handoff else {
            unreachable!("handoff_to builds a Handoff");
        };
        self.handoff.handed_off = Some(ballot);
        self.ready.writes.push(Write::HandedOff(ballot));
        if !self.keeps_leading_after_handoff() {
            self.step_down();
            self.proposer.leader_hint = Some(to);
        }
        self.send(to, handoff);
        self.check_invariants();
        Ok(())
    }

    /// Whether [`ColocatedNode::hand_off`] to `to` would go ahead now, without doing it.
    pub fn may_hand_off(&self, to: NodeId) -> Result<(), HandoffRefused> {
        self.handoff_to(to).map(|_| ())
    }

    /// The Handoff this node would send to `to`, or why it may not hand off.
    fn handoff_to(&self, to: NodeId) -> Result<LogMessage, HandoffRefused> {
        if to == self.id {
            return Err(HandoffRefused::ToItself);
        }
        if !self.config.nodes.contains(to) {
            return Err(HandoffRefused::UnknownSuccessor(to));
        }
        if let Some(ballot) = self.handoff.handed_off
            && Some(ballot) == self.ballot()
            && !self.keeps_leading_after_handoff()
        {
            return Err(HandoffRefused::AlreadyHandedOff(ballot));
        }
        let Leadership::Leader(leader) = &self.proposer.leadership else {
            return Err(HandoffRefused::NotLeading);
        };
        if leader.ballot.node != self.id {
            return Err(HandoffRefused::HandedOnBallot(leader.ballot));
        }
        let in_flight = in_flight_at_handoff(
            (leader.proposals.iter()).map(|(slot, proposal)| (slot, &proposal.entry)),
            (self.learner.chosen.iter()).map(|(slot, vote)| (slot, &vote.entry)),
            self.learner.chosen_index,
            leader.next_slot,
        );
        Ok(LogMessage::Handoff {
            ballot: leader.ballot,
            next_slot: leader.next_slot,
            in_flight,
            read_watermark: self.learner.chosen_index,
        })
    }

    /// A Handoff from `from`: take `ballot` and lead at it, with no Phase 1.
    ///
    /// The successor writes [`Write::TookHandoff`] first, then sends each in-flight value
    /// again, identical, and takes new commands from `next_slot` on (H3): it fills no hole
    /// below. It learns its own votes at `ballot` up to the old leader's chosen index by the
    /// commit rule; chosen slots it lacks below that come from its followers
    /// ([`ColocatedNode::catch_up_successor`]).
    ///
    /// Ignored when it is not from the ballot's owner (a ballot handed on, H4), when this node
    /// already took, handed off or owns the ballot (a duplicate or a second handoff, H4), when
    /// this node promised or runs a higher ballot, or when an in-flight slot is not below
    /// `next_slot`.
    pub(super) fn on_handoff(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        next_slot: Slot,
        in_flight: Vec<(Slot, Entry)>,
        read_watermark: Slot,
    ) -> Result<(), Ignored> {
        if ballot.node != from {
            return Err(Ignored::HandedOn);
        }
        if from == self.id || self.handoff.already_held(ballot) {
            return Err(Ignored::HandoffTaken);
        }
        let running_higher = (self.proposer.leadership.running()).is_some_and(|run| run >= ballot);
        if !vote_rule(self.acceptor.promised, ballot) || running_higher {
            return Err(Ignored::StaleBallot);
        }
        let in_order = in_flight.windows(2).all(|pair| pair[0].0 < pair[1].0);
        if !in_order || in_flight.last().is_some_and(|(slot, _)| *slot >= next_slot) {
            return Err(Ignored::MalformedHandoff);
        }
        self.handoff.took = Some(ballot);
        self.ready.writes.push(Write::TookHandoff(ballot));
        self.proposer.highest_seen = self.proposer.highest_seen.max(Some(ballot));
        self.learn_commit(ballot, read_watermark);
        self.take_ballot(ballot, next_slot, in_flight);
        Ok(())
    }

    /// Leads at a handed-off `ballot`: the in-flight values this node does not know chosen
    /// become its proposals and go out again, identical; new commands start at `next_slot`, or
    /// above the floor if that is higher (slots at or below it are decided). A stale tail of its
    /// own votes is filled at once ([`leader_fills_its_own_stale_tail`]).
    fn take_ballot(&mut self, ballot: Ballot, next_slot: Slot, in_flight: Vec<(Slot, Entry)>) {
        let floor = self.floor();
        let commit = self.learner.chosen_index;
        let mut leader = LeaderState {
            ballot,
            proposals: SlotMap::new(),
            proposed_requests: BTreeSet::new(),
            next_slot: next_slot.max(floor.next()),
            ticks_since_beat: 0,
            resends: BTreeMap::new(),
        };
        let mut accepts = Vec::new();
        for (slot, entry) in in_flight {
            if slot > floor && !self.learner.chosen.contains_key(&slot) {
                accepts.push(leader.propose(slot, entry, commit));
            }
        }
        #[cfg(feature = "negative-controls")]
        if self.breaks(BrokenRule::HandoffFillsGaps) {
            accepts.extend(self.fill_holes_below(&mut leader, commit));
        }
        accepts.extend(self.fill_own_stale_tail(&mut leader, commit));
        self.proposer.leadership = Leadership::Leader(leader);
        self.proposer.leader_hint = Some(self.id);
        self.proposer.ticks_since_heard = 0;
        for accept in accepts {
            self.send_accept(accept);
        }
    }

    /// The broken H3 of [`BrokenRule::HandoffFillsGaps`]: every slot below the next slot that
    /// this node neither knows chosen nor was handed gets a no-op at the handed-off ballot.
    #[cfg(feature = "negative-controls")]
    fn fill_holes_below(&self, leader: &mut LeaderState, commit: Slot) -> Vec<LogMessage> {
        let first = self.learner.chosen_index.next().max(self.floor().next());
        let holes: Vec<Slot> = (first.0..leader.next_slot.0)
            .map(Slot)
            .filter(|slot| {
                !self.learner.chosen.contains_key(slot) && !leader.proposals.contains_key(slot)
            })
            .collect();
        (holes.into_iter())
            .map(|slot| leader.propose(slot, Entry::Noop, commit))
            .collect()
    }

    /// Whether this node breaks H2 and H4 and keeps leading after handing off (the
    /// [`BrokenRule::DoubleHandoff`] control); never without the `negative-controls` feature.
    fn keeps_leading_after_handoff(&self) -> bool {
        #[cfg(feature = "negative-controls")]
        if self.breaks(BrokenRule::DoubleHandoff) {
            return true;
        }
        false
    }

    /// A successor's heartbeat (`from` is not the owner of `ballot`) with a commit index below
    /// this node's: send it the chosen entries above its commit, a batch at a time and within
    /// its window ([`catch_up_end`]).
    ///
    /// A leader that won its own Phase 1 proposed every slot it did not know chosen; a
    /// successor did not, and fills no hole below its next slot (H3), so it learns the chosen
    /// entries it lacks from the nodes that know them, the old leader first among them.
    pub(super) fn catch_up_successor(&mut self, from: NodeId, ballot: Ballot, commit: Slot) {
        if ballot.node == from || commit >= self.learner.chosen_index {
            return;
        }
        let end = catch_up_end(commit, self.learner.chosen_index, self.config.slot_window);
        let entries = self.chosen_batch(commit.next()..=end);
        if !entries.is_empty() {
            self.send(from, LogMessage::Chosen { entries });
        }
    }
}

//! The state a node holds, by part: the acceptor's (durable promise and votes), the learner's
//! (the chosen prefix, the trim point and the state machine), the proposer's (its role in
//! leadership, with each role's own state), the handoff marks, and the records a candidate and a
//! leader keep ([`Election`], [`Proposal`]) and a read waits in ([`PendingRead`]).
//!
//! Each struct states its invariants on its fields; [`ColocatedNode`](super::ColocatedNode)
//! checks them after every input (`invariants.rs`).

use super::config::LogConfig;
use crate::log::{DurableRecord, Entry, LogMessage, ReadId, Slot, SlotMap, SlotVote, TrimPoint};
use crate::log::{KvStore, proxy_for, resend_is_identical};
use crate::{Ballot, NodeId, NodeSet, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::RangeInclusive;

/// What a node is doing about leadership.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum LogRole {
    /// Following whichever leader it last heard.
    Follower,
    /// Running Phase 1 for its ballot.
    Candidate,
    /// Phase 1 done: proposing.
    Leader,
}

/// A slot this leader proposed and has not yet seen chosen.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Proposal {
    /// The entry proposed.
    pub entry: Entry,
    /// The nodes that voted for it at the leader's ballot.
    pub accepted_by: NodeSet,
}

/// A candidate's Phase 1 over the log suffix.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Election {
    /// The first slot the Prepare covers.
    pub from_slot: Slot,
    /// The nodes that promised.
    pub promised_by: NodeSet,
    /// For each slot, the highest-ballot vote any Promise reported.
    pub reported: SlotMap<SlotVote>,
    /// The highest floor any Promise reported: every slot up to it is decided (T4).
    pub highest_floor: Slot,
    /// For each slot some Promise reported unknown (C2), the nodes that reported it so: their
    /// answers do not count towards that slot's discovery quorum (C3). In the order first
    /// reported; a handful at most, so a list.
    pub unknown_by: Vec<(Slot, NodeSet)>,
}

/// A linearizable read waiting for its watermark.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct PendingRead {
    /// This node's id for the read, unique across its lives.
    pub read: ReadId,
    /// The client to answer.
    pub client: NodeId,
    /// The client's request number.
    pub seq: u64,
    /// The key read.
    pub key: Value,
    /// The nodes that reported their highest accepted slot.
    pub answered_by: NodeSet,
    /// The highest accepted slot reported so far: the read watermark once a Phase-1 quorum
    /// answered.
    pub watermark: Slot,
}

/// The acceptor's part of a node: what it promised and what it voted for. Durable: every change
/// here goes out as a [`Write`] in the same [`Ready`], and [`ColocatedNode::restart`] reads it
/// back.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub(super) struct AcceptorState {
    /// The highest ballot promised; it never decreases.
    ///
    /// Invariant: at or above the ballot of every vote in `accepts`. A vote raises the promise
    /// to its ballot, and so does learning a chosen vote ([`learning_raises_the_promise`]).
    pub(super) promised: Option<Ballot>,
    /// Each slot's accepted record: the highest-ballot vote cast there, or the chosen vote once
    /// learned (the chosen overwrite rule, [`ColocatedNode::learn_chosen`]).
    pub(super) accepts: SlotMap<SlotVote>,
    /// The slots where this acceptor voted and its record of the vote is corrupt (C2): never
    /// in `accepts`. A slot leaves only when a readable vote is written there: a new vote by
    /// the vote rule, or the chosen entry learned (C4, [`ColocatedNode::learn_chosen`]).
    pub(super) unknown: BTreeSet<Slot>,
}

/// The learner's part of a node: what it knows is chosen, and the state machine it applied in
/// slot order. The chosen prefix and the trim point are durable ([`Write::ChosenThrough`],
/// [`Write::TrimPoint`]); the state machine is rebuilt from them on restart.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(super) struct LearnerState {
    /// Every slot above the floor known chosen, with the vote chosen there.
    pub(super) chosen: SlotMap<SlotVote>,
    /// Invariant: every slot above the floor and up to here is in `chosen` (a contiguous
    /// prefix), and the floor is at or below it.
    pub(super) chosen_index: Slot,
    /// Invariant: `floor <= applied_index <= chosen_index` (T1).
    pub(super) applied_index: Slot,
    /// The log compacted so far; its slot is the node's floor. No entry at or below the floor
    /// is kept, in `chosen` or in the acceptor's record.
    pub(super) trim_point: TrimPoint,
    /// The replicated state machine, as applied through `applied_index`.
    pub(super) store: KvStore,
}

/// The proposer's part of a node: its role in leadership, and the ballots and clock that drive
/// its elections. Volatile but for the ballot it stood at ([`Write::Stood`]), which a restart
/// folds into `highest_seen`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(super) struct ProposerState {
    /// Follower, candidate or leader, with the state only that role has.
    pub(super) leadership: Leadership,
    /// The highest ballot this node has seen anywhere, so its next election goes above it.
    ///
    /// Invariant: at or above the promise and the ballot this node runs or last ran at.
    pub(super) highest_seen: Option<Ballot>,
    /// The leader this node last heard from; itself while it leads, `None` after stepping down.
    pub(super) leader_hint: Option<NodeId>,
    /// Ticks since this node last heard a leader; counted only while it does not lead.
    pub(super) ticks_since_heard: u32,
}

/// What a node is doing about leadership ([`LogRole`]), carrying the state each role has, so a
/// candidate always has its election and a leader always has its ballot and proposals.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(super) enum Leadership {
    /// Following whichever leader it last heard.
    Follower {
        /// The ballot this node last ran at as candidate or leader in this life, if any.
        last_ballot: Option<Ballot>,
    },
    /// Running Phase 1 for `ballot`.
    Candidate {
        /// The ballot it stands at, above every ballot it had seen.
        ballot: Ballot,
        /// Its Phase 1 over the log suffix.
        election: Election,
    },
    /// Phase 1 done: proposing.
    Leader(LeaderState),
}

impl Leadership {
    /// The role, without its state.
    pub(super) fn role(&self) -> LogRole {
        match self {
            Leadership::Follower { .. } => LogRole::Follower,
            Leadership::Candidate { .. } => LogRole::Candidate,
            Leadership::Leader(_) => LogRole::Leader,
        }
    }

    /// The ballot this node runs at as candidate or leader; `None` while it follows.
    pub(super) fn running(&self) -> Option<Ballot> {
        match self {
            Leadership::Follower { .. } => None,
            Leadership::Candidate { ballot, .. } => Some(*ballot),
            Leadership::Leader(leader) => Some(leader.ballot),
        }
    }

    /// The ballot this node runs at, or last ran at while it follows.
    pub(super) fn ballot(&self) -> Option<Ballot> {
        match self {
            Leadership::Follower { last_ballot } => *last_ballot,
            Leadership::Candidate { .. } | Leadership::Leader(_) => self.running(),
        }
    }
}

/// A leader's state for one leadership, from its Phase-1 quorum until it steps down.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(super) struct LeaderState {
    /// The ballot its Phase 1 won; every Accept and heartbeat of this leadership carries it.
    pub(super) ballot: Ballot,
    /// The slots it proposed in this leadership and has not yet seen chosen.
    pub(super) proposals: SlotMap<Proposal>,
    /// The client requests, `(client, seq)`, among `proposals`: a retry already proposed is
    /// found here without a walk over every proposal.
    ///
    /// Invariant: exactly the requests of the commands in `proposals`.
    pub(super) proposed_requests: BTreeSet<(NodeId, u64)>,
    /// The slot the next new command gets.
    ///
    /// Invariant: above every slot this leader proposed in this leadership.
    pub(super) next_slot: Slot,
    /// Ticks since its last beat.
    pub(super) ticks_since_beat: u32,
    /// How many times each proposal's Accept was sent again through a proxy: the next resend
    /// takes the next proxy ([`proxy_for`]). Empty without proxies.
    pub(super) resends: BTreeMap<Slot, u64>,
}

impl LeaderState {
    /// Phase 2a for one slot: records the proposal and returns the Accept for every node,
    /// this one included.
    pub(super) fn propose(&mut self, slot: Slot, entry: Entry, commit: Slot) -> LogMessage {
        if let Entry::Command(command) = &entry {
            self.proposed_requests.insert((command.client, command.seq));
        }
        self.proposals.insert(
            slot,
            Proposal {
                entry: entry.clone(),
                accepted_by: NodeSet::EMPTY,
            },
        );
        LogMessage::Accept {
            ballot: self.ballot,
            slot,
            entry,
            commit,
        }
    }

    /// The stale-tail rule's proposals: a no-op at this ballot in every slot of `stale`, which
    /// starts at the next slot, and the next slot moved above it. Returns their Accepts.
    pub(super) fn fill_with_noops(
        &mut self,
        stale: RangeInclusive<Slot>,
        commit: Slot,
    ) -> Vec<LogMessage> {
        debug_assert_eq!(*stale.start(), self.next_slot);
        self.next_slot = stale.end().next();
        (stale.start().0..=stale.end().0)
            .map(|slot| self.propose(Slot(slot), Entry::Noop, commit))
            .collect()
    }

    /// Drops the proposal in `slot`, seen chosen, and returns it.
    pub(super) fn forget(&mut self, slot: Slot) -> Option<Proposal> {
        let proposal = self.proposals.remove(&slot)?;
        if let Entry::Command(command) = &proposal.entry {
            self.proposed_requests
                .remove(&(command.client, command.seq));
        }
        Some(proposal)
    }

    /// Keeps only the proposals above `through`.
    pub(super) fn drop_proposals_through(&mut self, through: Slot) {
        let kept = self.proposals.split_off(&through.next());
        let dropped = std::mem::replace(&mut self.proposals, kept);
        for proposal in dropped.values() {
            if let Entry::Command(command) = &proposal.entry {
                self.proposed_requests
                    .remove(&(command.client, command.seq));
            }
        }
    }

    /// Whether this leadership already proposed the request `(client, seq)`.
    pub(super) fn proposed(&self, client: NodeId, seq: u64) -> bool {
        self.proposed_requests.contains(&(client, seq))
    }

    /// A leader's beat: a heartbeat with the commit index to every other node, then the Accepts
    /// of every proposal not yet chosen again to the nodes that have not voted for it (messages
    /// may have been lost).
    pub(super) fn beat(
        &mut self,
        me: NodeId,
        nodes: NodeSet,
        commit: Slot,
    ) -> Vec<(NodeId, LogMessage)> {
        self.ticks_since_beat = 0;
        let ballot = self.ballot;
        let heartbeats = nodes
            .iter()
            .filter(|node| *node != me)
            .map(|node| (node, LogMessage::Heartbeat { ballot, commit }));
        let resends = self.proposals.iter().flat_map(|(slot, proposal)| {
            nodes
                .iter()
                .filter(|node| !proposal.accepted_by.contains(*node))
                .map(|node| {
                    let accept = LogMessage::Accept {
                        ballot,
                        slot: *slot,
                        entry: proposal.entry.clone(),
                        commit,
                    };
                    (node, accept)
                })
        });
        heartbeats.chain(resends).collect()
    }

    /// A leader's beat when its Accepts go through proxies: a heartbeat to every other node,
    /// then each proposal not yet chosen sent again through the next proxy, so a crashed proxy
    /// is passed by. P4: the resend carries the identical entry ([`resend_is_identical`]);
    /// with `new_value` (a negative control) a command's resend carries a no-op instead.
    pub(super) fn beat_through_proxies(
        &mut self,
        me: NodeId,
        config: LogConfig,
        commit: Slot,
        new_value: bool,
    ) -> Vec<(NodeId, LogMessage)> {
        self.ticks_since_beat = 0;
        let ballot = self.ballot;
        let mut out: Vec<(NodeId, LogMessage)> = config
            .nodes
            .iter()
            .filter(|node| *node != me)
            .map(|node| (node, LogMessage::Heartbeat { ballot, commit }))
            .collect();
        let proposals = &self.proposals;
        self.resends.retain(|slot, _| proposals.contains_key(slot));
        for (slot, proposal) in &self.proposals {
            let resends = self.resends.entry(*slot).or_insert(0);
            *resends += 1;
            let entry = match &proposal.entry {
                Entry::Command(_) if new_value => Entry::Noop,
                entry => entry.clone(),
            };
            // P4: only the recorded entry goes out again. It holds by construction here; the
            // check keeps it so, and only the negative control passes it by.
            if !new_value && !resend_is_identical(&proposal.entry, &entry) {
                continue;
            }
            let Some(proxy) = proxy_for(config.proxies, *slot, *resends) else {
                continue;
            };
            let accept = LogMessage::Accept {
                ballot,
                slot: *slot,
                entry,
                commit,
            };
            out.push((proxy, accept));
        }
        out
    }
}

/// What a node remembers of handoffs, durably ([`Write::HandedOff`], [`Write::TookHandoff`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(super) struct HandoffMarks {
    /// The highest ballot this node handed off.
    pub(super) handed_off: Option<Ballot>,
    /// The highest ballot this node took by a handoff.
    pub(super) took: Option<Ballot>,
}

impl HandoffMarks {
    /// The marks a restart reads back.
    pub(super) fn from_record(record: &DurableRecord) -> HandoffMarks {
        HandoffMarks {
            handed_off: record.handed_off,
            took: record.took_handoff,
        }
    }

    /// Whether a Handoff of `ballot` would give this node a ballot it already held: one it
    /// handed off or took, or one at or below them.
    pub(super) fn already_held(&self, ballot: Ballot) -> bool {
        Some(ballot) <= self.handed_off.max(self.took)
    }
}

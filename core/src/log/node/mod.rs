//! `ColocatedNode`: proposer, acceptor and learner of a replicated log, in one node.
//!
//! This is Multi-Paxos with a stable leader, as Paxos Made Simple (section 3) sketches it and
//! Paxos Made Live (Chandra, Griesemer and Redstone, 2007) practises it:
//!
//! 1. A follower that hears no leader for `election_timeout_ticks` of the caller's ticks becomes
//!    a candidate and runs **one Phase 1 over the whole log suffix** it does not know is chosen.
//! 2. On a Phase-1 quorum it becomes leader and first does its **recovery duty**: every slot a
//!    Promise reported is proposed again with the highest-ballot value reported (P2c per slot),
//!    and every slot below the highest reported one that no Promise reported is filled with a
//!    no-op. Only then do new commands get slots.
//! 3. In steady state each command costs one Accept round trip; Accepts are pipelined, and
//!    heartbeats carry the commit index so followers learn what is chosen.
//!
//! Every durable change goes through [`Ready`]: writes first, then the messages that depend on
//! them, including the messages a node sends to itself.
//!
//! The node is one struct with one concern per module, each its own `impl ColocatedNode` block
//! headed by its rules' invariants: `election` (election, Phase 1 and recovery; promises and
//! leadership), `replication` (Phase 2 and votes), `learning` (learning and the commit rule),
//! `apply` (the apply walk and truncation), `reads`, `heartbeats` (the clock, beats, catch-up and
//! the stale tail), `handoff`, `edges` (who may send what, the window at entry, sending) and,
//! with `accept-batch`, `batch`. Below them sit `state` (each part's state), `config`, `window`
//! (the slot window rules) and `controls` (negative controls); this module holds the struct, its
//! constructors, its accessors and the dispatch. The modules import one way: the concerns name
//! the node through this module, and this module names nothing they define.

use crate::log::{
    Command, DurableRecord, LogEnvelope, LogMessage, RecordError, Slot, SlotMap, SlotVote,
};
use crate::log::{KvStore, Ready, TrimPoint, Write};
use crate::{Ballot, Ignored, NodeId, Quorums};
use std::collections::BTreeSet;

mod apply;
#[cfg(feature = "accept-batch")]
mod batch;
mod config;
#[cfg(feature = "negative-controls")]
mod controls;
mod edges;
mod election;
mod handoff;
mod heartbeats;
mod invariants;
mod learning;
mod reads;
mod replication;
mod state;
mod window;

#[cfg(feature = "accept-batch")]
pub use batch::{AcceptBatchRefused, accept_run_slots, joins_the_run, voted_runs};
pub use config::{LogConfig, ProxiesRefused, SlotWindowRefused, window_holds_a_run};
#[cfg(feature = "negative-controls")]
pub use controls::BrokenRule;
pub use election::{
    heard_from_a_discovery_quorum, phase1_complete, promise_deposes_a_lower_run, recover_slot,
};
pub use handoff::{HandoffRefused, in_flight_at_handoff, successor_may_propose};
pub use heartbeats::{fill_up_to, leader_fills_its_own_stale_tail};
pub use learning::learning_raises_the_promise;
pub use reads::read_may_be_served;
pub use replication::chosen_by_a_recording_quorum;
use state::{AcceptorState, HandoffMarks, Leadership, LearnerState, ProposerState};
pub use state::{Election, LogRole, PendingRead, Proposal};
pub use window::{
    DEFAULT_SLOT_WINDOW, HIGHEST_SLOT, catch_up_end, teach_a_lagging_candidate, window_end,
};

/// One node of a replicated log: proposer, acceptor and learner.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ColocatedNode {
    id: NodeId,
    config: LogConfig,
    acceptor: AcceptorState,
    learner: LearnerState,
    proposer: ProposerState,
    // Clients.
    /// The client writes to answer once applied, by `(client, seq)`.
    awaiting: BTreeSet<(NodeId, u64)>,
    reads: Vec<PendingRead>,
    /// This node's life: 0 when new, one more at each restart, durable
    /// ([`Write::Incarnation`]).
    incarnation: u64,
    /// The number of the next read in this life.
    next_read: u64,
    /// The ballots this node handed off or took by a handoff (H2, H4); durable.
    handoff: HandoffMarks,
    ready: Ready,
    /// A rule this node breaks on purpose, for a negative control.
    #[cfg(feature = "negative-controls")]
    broken: Option<BrokenRule>,
}

/// What a node that does not lead proposes: nothing.
static NO_PROPOSALS: SlotMap<Proposal> = SlotMap::new();

impl ColocatedNode {
    /// A brand-new node with an empty disk. Its first `Ready` writes its identity, and only
    /// that: a new node is incarnation 0 without writing it.
    pub fn new(id: NodeId, config: LogConfig) -> ColocatedNode {
        let mut node = ColocatedNode::volatile(id, config);
        node.ready.writes.push(Write::Identity(id));
        node
    }

    /// Rebuilds a node from its durable record after a crash: promise, votes, the chosen
    /// prefix and the highest ballot it stood at survive; everything else (leadership,
    /// proposals, reads, the state machine) is volatile and starts over. The state machine is
    /// rebuilt by applying the chosen prefix.
    ///
    /// The node begins a new life: its first `Ready` writes the next incarnation
    /// ([`Write::Incarnation`]), so every message of the new life, the reads' ReadIndexes
    /// included, leaves only once the new incarnation is durable, and no [`ReadId`] of this
    /// life was used by an earlier one.
    ///
    /// [`ReadId`]: crate::log::ReadId
    pub fn restart(
        id: NodeId,
        config: LogConfig,
        record: &DurableRecord,
    ) -> Result<ColocatedNode, RecordError> {
        match record.identity {
            None => return Err(RecordError::Blank),
            Some(found) if found != id => {
                return Err(RecordError::WrongIdentity {
                    expected: id,
                    found,
                });
            }
            Some(_) => {}
        }
        record.check()?;
        let mut node = ColocatedNode::volatile(id, config);
        if let Some(point) = &record.trim_point {
            if point.cluster != config.nodes {
                return Err(RecordError::TrimPointOfAnotherCluster);
            }
            node.learner.trim_point = point.clone();
            node.learner.store = point.store.clone();
        }
        let floor = node.floor();
        node.learner.applied_index = floor;
        // The votes above the floor, and of those the ones the record marks chosen: split off
        // rather than collected, which would sort what is already in order.
        let accepts = record.accepts.clone().split_off(&floor.next());
        let unknown = record.unknown_votes.clone().split_off(&floor.next());
        // A slot marked chosen whose vote is unknown is a hole in what this node knows: the
        // chosen prefix stops below it, and the slot is repaired from a chosen copy (C4).
        let chosen_through = unknown
            .range(..=record.chosen_through)
            .next()
            .map_or(record.chosen_through, |first| Slot(first.0 - 1));
        let mut chosen = accepts.clone();
        chosen.split_off(&chosen_through.next());
        node.acceptor = AcceptorState {
            promised: record.promised,
            accepts,
            unknown,
        };
        node.proposer.highest_seen = (record.promised.max(record.stood))
            .max(record.handed_off)
            .max(record.took_handoff);
        node.handoff = HandoffMarks::from_record(record);
        node.learner.chosen = chosen;
        node.learner.chosen_index = chosen_through.max(floor);
        node.incarnation = record.incarnation.saturating_add(1);
        node.ready.writes.push(Write::Incarnation(node.incarnation));
        if record.truncated_through < floor
            && record
                .accepts
                .keys()
                .next()
                .is_some_and(|slot| *slot <= floor)
        {
            // A crash came between writing the trim point and dropping what it replaces.
            node.ready.writes.push(Write::Truncate(floor));
        }
        node.apply_walk();
        node.check_invariants();
        Ok(node)
    }

    pub(super) fn volatile(id: NodeId, config: LogConfig) -> ColocatedNode {
        ColocatedNode {
            id,
            config,
            acceptor: AcceptorState::default(),
            learner: LearnerState {
                chosen: SlotMap::new(),
                chosen_index: Slot(0),
                applied_index: Slot(0),
                trim_point: TrimPoint::initial(config.nodes),
                store: KvStore::default(),
            },
            proposer: ProposerState {
                leadership: Leadership::Follower { last_ballot: None },
                highest_seen: None,
                leader_hint: None,
                ticks_since_heard: 0,
            },
            awaiting: BTreeSet::new(),
            reads: Vec::new(),
            incarnation: 0,
            next_read: 1,
            handoff: HandoffMarks::default(),
            ready: Ready::default(),
            #[cfg(feature = "negative-controls")]
            broken: None,
        }
    }

    /// Makes this node break `rule` from now on: a negative control, so that the simulator can
    /// show the checker of the broken property catching it.
    #[cfg(feature = "negative-controls")]
    pub fn break_rule(&mut self, rule: BrokenRule) {
        self.broken = Some(rule);
    }

    /// Whether this node breaks `rule` (always false without the `negative-controls` feature).
    #[cfg(feature = "negative-controls")]
    pub(super) fn breaks(&self, rule: BrokenRule) -> bool {
        self.broken == Some(rule)
    }

    /// This node's id.
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The cluster's settings.
    pub fn config(&self) -> &LogConfig {
        &self.config
    }

    /// The quorum system this node counts Promises, votes and read replies with: its
    /// configuration's ([`LogConfig::quorums`]).
    pub fn quorums(&self) -> &Quorums {
        self.config.quorums()
    }

    /// Follower, candidate or leader.
    pub fn role(&self) -> LogRole {
        self.proposer.leadership.role()
    }

    /// The ballot this node last ran as candidate or leader.
    pub fn ballot(&self) -> Option<Ballot> {
        self.proposer.leadership.ballot()
    }

    /// The highest ballot promised.
    pub fn promised(&self) -> Option<Ballot> {
        self.acceptor.promised
    }

    /// Each slot's accepted record.
    pub fn accepts(&self) -> &SlotMap<SlotVote> {
        &self.acceptor.accepts
    }

    /// The slots where this node voted and no longer knows its vote (C2): its record of the vote
    /// is corrupt. Empty unless a restart read a corrupt vote frame.
    pub fn unknown_votes(&self) -> &BTreeSet<Slot> {
        &self.acceptor.unknown
    }

    /// Every slot this node knows is chosen.
    pub fn chosen(&self) -> &SlotMap<SlotVote> {
        &self.learner.chosen
    }

    /// The chosen index: every slot up to it is known chosen. A contiguous prefix, so a slot
    /// chosen above a hole does not raise it.
    pub fn chosen_index(&self) -> Slot {
        self.learner.chosen_index
    }

    /// The first hole: the lowest slot not known chosen below the highest slot known chosen.
    /// `None` when the known-chosen slots are contiguous.
    pub fn chosen_gap(&self) -> Option<Slot> {
        let highest = *self.learner.chosen.keys().next_back()?;
        let first_unknown = self.learner.chosen_index.next();
        (first_unknown < highest).then_some(first_unknown)
    }

    /// Every slot up to here has been applied to the state machine.
    pub fn applied_index(&self) -> Slot {
        self.learner.applied_index
    }

    /// The replicated state machine, as applied so far.
    pub fn store(&self) -> &KvStore {
        &self.learner.store
    }

    /// The floor: every slot up to here is compacted into the trim point and kept nowhere else
    /// on this node.
    pub fn floor(&self) -> Slot {
        self.learner.trim_point.through
    }

    /// The trim point: the state after applying every slot through the floor.
    pub fn trim_point(&self) -> &TrimPoint {
        &self.learner.trim_point
    }

    /// The leader this node last heard from.
    pub fn leader_hint(&self) -> Option<NodeId> {
        self.proposer.leader_hint
    }

    /// Ticks since this node last heard a leader (the election arc).
    pub fn ticks_since_heard(&self) -> u32 {
        self.proposer.ticks_since_heard
    }

    /// The candidate's Phase 1, while it runs.
    pub fn election(&self) -> Option<&Election> {
        match &self.proposer.leadership {
            Leadership::Candidate { election, .. } => Some(election),
            Leadership::Follower { .. } | Leadership::Leader(_) => None,
        }
    }

    /// The leader's proposals not yet seen chosen; empty unless this node leads.
    pub fn proposals(&self) -> &SlotMap<Proposal> {
        match &self.proposer.leadership {
            Leadership::Leader(leader) => &leader.proposals,
            Leadership::Follower { .. } | Leadership::Candidate { .. } => &NO_PROPOSALS,
        }
    }

    /// This node's life: 0 when new, one more at each restart.
    pub fn incarnation(&self) -> u64 {
        self.incarnation
    }

    /// The reads waiting for their watermark.
    pub fn pending_reads(&self) -> &[PendingRead] {
        &self.reads
    }

    /// Takes the output accumulated since the last call.
    pub fn take_ready(&mut self) -> Ready {
        std::mem::take(&mut self.ready)
    }

    /// The output accumulated so far, to look at.
    pub fn peek_ready(&self) -> &Ready {
        &self.ready
    }

    /// Handles one message addressed to this node.
    pub fn handle(&mut self, envelope: &LogEnvelope) -> Result<(), Ignored> {
        let handled = self.dispatch(envelope);
        self.check_invariants();
        handled
    }

    /// One message, to the handler of its kind.
    pub(super) fn dispatch(&mut self, envelope: &LogEnvelope) -> Result<(), Ignored> {
        if envelope.to != self.id {
            return Err(Ignored::NotAddressedToMe);
        }
        let from = envelope.from;
        let is_client_request = matches!(
            envelope.message,
            LogMessage::Write { .. } | LogMessage::Read { .. }
        );
        if !is_client_request && !self.knows_sender(from, &envelope.message) {
            return Err(Ignored::UnknownSender);
        }
        self.check_window(&envelope.message)?;
        // A run is voted on where it lies: copying it whole first would copy every entry twice.
        #[cfg(feature = "accept-batch")]
        if let LogMessage::AcceptRun {
            ballot,
            first,
            entries,
            commit,
        } = &envelope.message
        {
            return self.on_accept_run(from, *ballot, *first, entries, *commit);
        }
        match envelope.message.clone() {
            LogMessage::Prepare { ballot, from_slot } => {
                self.on_prepare(from, ballot, from_slot);
                Ok(())
            }
            LogMessage::Promise {
                ballot,
                floor,
                votes,
                unknown,
                ..
            } => self.on_promise(from, ballot, floor, votes, unknown),
            LogMessage::Accept {
                ballot,
                slot,
                entry,
                commit,
            } => self.on_accept(from, ballot, slot, entry, commit),
            LogMessage::Accepted { ballot, slot } => self.on_accepted(from, ballot, slot),
            #[cfg(feature = "accept-batch")]
            LogMessage::AcceptRun {
                ballot,
                first,
                entries,
                commit,
            } => self.on_accept_run(from, ballot, first, &entries, commit),
            #[cfg(feature = "accept-batch")]
            LogMessage::AcceptedRun {
                ballot,
                first,
                through,
            } => self.on_accepted_run(from, ballot, first, through),
            LogMessage::Nack { ballot, promised } => self.on_nack(ballot, promised),
            LogMessage::Heartbeat { ballot, commit } => {
                self.on_heartbeat(from, ballot, commit);
                Ok(())
            }
            LogMessage::HeartbeatAck {
                ballot,
                chosen_index,
                highest_accepted,
            } => self.on_heartbeat_ack(from, ballot, chosen_index, highest_accepted),
            LogMessage::Chosen { entries } => {
                for (slot, vote) in entries {
                    self.learn_chosen(slot, vote);
                }
                Ok(())
            }
            LogMessage::SlotChosen {
                ballot,
                slot,
                entry,
            } => self.on_slot_chosen(ballot, slot, entry),
            LogMessage::TrimPoint { ballot, point } => self.on_trim_point(ballot, &point),
            LogMessage::Handoff {
                ballot,
                next_slot,
                in_flight,
                read_watermark,
            } => self.on_handoff(from, ballot, next_slot, in_flight, read_watermark),
            LogMessage::ReadIndex { read } => {
                let highest_accepted = self.read_watermark_reply();
                self.send(
                    from,
                    LogMessage::ReadIndexReply {
                        read,
                        highest_accepted,
                    },
                );
                Ok(())
            }
            LogMessage::ReadIndexReply {
                read,
                highest_accepted,
            } => self.on_read_index_reply(from, read, highest_accepted),
            LogMessage::Write { seq, key, value } => {
                self.on_client_write(Command {
                    client: from,
                    seq,
                    key,
                    value,
                });
                Ok(())
            }
            LogMessage::Read { seq, key } => {
                self.on_client_read(from, seq, key);
                Ok(())
            }
            LogMessage::Reply { .. } => Err(Ignored::NotForThisRole),
        }
    }
}

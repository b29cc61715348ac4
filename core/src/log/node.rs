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

use crate::log::{
    Applied, Command, DurableRecord, Entry, KvStore, LogEnvelope, LogMessage, Outcome, ReadId,
    Ready, RecordError, Slot, SlotMap, SlotVote, TrimError, TrimPoint, Write,
    first_slot_to_recover, floor_after_applying, jump_raises_the_promise, trim_may_be_proposed,
};
use crate::log::{ProxiesRefused, nack_goes_to, proxy_for, resend_is_identical};
use crate::{
    Ballot, Ignored, Majority, NodeId, NodeSet, QuorumError, QuorumSystem, Quorums, Value,
    promise_rule, vote_rule,
};
use std::collections::{BTreeMap, BTreeSet};

#[cfg(feature = "accept-batch")]
#[path = "batch.rs"]
mod batch;
#[cfg(feature = "accept-batch")]
pub use batch::{AcceptBatchRefused, accept_run_slots, joins_the_run, voted_runs};

#[path = "window.rs"]
mod window;
pub use window::{DEFAULT_SLOT_WINDOW, HIGHEST_SLOT, catch_up_end, window_end};

#[path = "handoff.rs"]
mod handoff;
use handoff::HandoffMarks;
pub use handoff::{HandoffRefused, in_flight_at_handoff, successor_may_propose};

/// The settings every node of a cluster shares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct LogConfig {
    /// The nodes of the cluster; each is an acceptor, and any may lead.
    pub nodes: NodeSet,
    /// Ticks without hearing a leader before a follower stands for election.
    pub election_timeout_ticks: u32,
    /// Ticks between a leader's heartbeats.
    pub heartbeat_interval_ticks: u32,
    /// The most chosen entries one catch-up message carries.
    pub catch_up_batch: usize,
    /// The quorum system the nodes count with; over `nodes` ([`LogConfig::with_quorums`]).
    quorums: Quorums,
    /// The proxy leaders a leader sends its Accepts through; none by default
    /// ([`LogConfig::with_proxies`]).
    proxies: NodeSet,
    /// The most consecutive slots one Accept carries; 1 by default
    /// ([`LogConfig::with_accept_batch`]).
    ///
    /// Invariant: at least 1, and 1 whenever `proxies` is not empty.
    accept_batch: usize,
    /// How far above its chosen index a message may name a slot ([`window_end`]);
    /// [`DEFAULT_SLOT_WINDOW`] unless set ([`LogConfig::with_slot_window`]). At least 1.
    slot_window: u64,
}

impl LogConfig {
    /// A cluster of `nodes` with majority quorums, an election timeout of 3 ticks and a
    /// heartbeat every tick. An empty cluster has no quorum, so it never elects.
    pub fn new(nodes: NodeSet) -> LogConfig {
        LogConfig {
            nodes,
            election_timeout_ticks: 3,
            heartbeat_interval_ticks: 1,
            catch_up_batch: 8,
            quorums: Quorums::Majority(Majority::over(nodes)),
            proxies: NodeSet::EMPTY,
            accept_batch: 1,
            slot_window: DEFAULT_SLOT_WINDOW,
        }
    }

    /// This configuration with `quorums` in place of its quorum system; refused unless they are
    /// over exactly the cluster's nodes. F1 holds already: a [`Quorums`] cannot be built
    /// without it.
    pub fn with_quorums(self, quorums: Quorums) -> Result<LogConfig, QuorumError> {
        let over = quorums.acceptors();
        if over != self.nodes {
            return Err(QuorumError::OtherAcceptors {
                cluster: self.nodes,
                quorums: over,
            });
        }
        Ok(LogConfig { quorums, ..self })
    }

    /// The quorum system the nodes count with: Phase-1 quorums for every discovery step,
    /// Phase-2 quorums for every recording step ([`heard_from_a_discovery_quorum`],
    /// [`chosen_by_a_recording_quorum`]).
    pub fn quorums(&self) -> &Quorums {
        &self.quorums
    }

    /// This configuration with its leaders sending each Accept through one of `proxies`
    /// ([`ProxyLeader`](crate::log::ProxyLeader), P1–P5) instead of to every node; refused if a
    /// proxy is a node of the cluster, or when the configuration batches its Accepts
    /// ([`LogConfig::with_accept_batch`]): a proxy forwards and counts one slot at a time.
    pub fn with_proxies(self, proxies: NodeSet) -> Result<LogConfig, ProxiesRefused> {
        if let Some(node) = proxies.intersection(self.nodes).iter().next() {
            return Err(ProxiesRefused::ProxyIsANode(node));
        }
        #[cfg(feature = "accept-batch")]
        if self.batches_accepts() && !proxies.is_empty() {
            return Err(ProxiesRefused::AcceptsBatched);
        }
        Ok(LogConfig { proxies, ..self })
    }

    /// The proxy leaders Accepts go through; empty when leaders send them to every node.
    pub fn proxies(&self) -> NodeSet {
        self.proxies
    }

    /// The most consecutive slots one Accept carries; 1 unless batched.
    pub fn accept_batch(&self) -> usize {
        self.accept_batch
    }

    /// Whether leaders send runs of slots (`LogConfig::with_accept_batch`, with the
    /// `accept-batch` feature).
    pub(crate) fn batches_accepts(&self) -> bool {
        self.accept_batch > 1
    }
}

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

/// The recovery rule (P2c per slot): the entry a new leader proposes for `slot`.
///
/// The value of the highest-ballot vote any Promise reported for the slot; a no-op when no
/// Promise reported one, because then no value can have been chosen there (a chosen value was
/// voted by a Phase-2 quorum, which meets the Phase-1 quorum that promised). Paxos Made Simple,
/// section 3: the new leader "fills the gaps with no-op commands".
pub fn recover_slot(reported: Option<&SlotVote>) -> Entry {
    reported.map_or(Entry::Noop, |vote| vote.entry.clone())
}

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

/// F2, recording: a step that makes something chosen (a leader counting Accepted votes for
/// its proposal in `slot`) is complete once a **Phase-2** quorum for that slot has voted, and
/// only with votes for the identical slot and ballot (F3).
///
/// The counterpart of [`heard_from_a_discovery_quorum`]: a Phase-2 quorum need not meet another
/// Phase-2 quorum, only every Phase-1 quorum (Flexible Paxos, section 3). In a grid only the
/// slot's own column counts ([`crate::Grid::deciding_column`]). The count is
/// [`crate::is_chosen_in_slot`], the same test the simulator judges chosen by.
pub fn chosen_by_a_recording_quorum(
    quorums: &Quorums,
    slot: Slot,
    voted_at_slot_and_ballot: NodeSet,
) -> bool {
    crate::is_chosen_in_slot(quorums, slot, voted_at_slot_and_ballot)
}

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

/// The stale-tail rule over a leader's own votes: the slots a node that begins to lead with
/// `next_slot`, however it took office (by Phase 1 or by a handoff), fills with no-ops at once,
/// given `own_highest_accepted`, its own highest vote (or floor): [`fill_up_to`] over its own
/// votes.
///
/// Neither way to office need show a leader its own votes: a Phase-1 quorum may elect it before
/// its own Promise arrives, and a successor runs no Phase 1. Its followers' heartbeat acks
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
pub fn promise_deposes_a_lower_run(running: Option<Ballot>, promised: Ballot) -> bool {
    running.is_some_and(|running| running < promised)
}

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

/// A rule a node can be made to break, so that the simulator can show its checker catching the
/// break. Only with the `negative-controls` feature; the game never builds it.
#[cfg(feature = "negative-controls")]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BrokenRule {
    /// Breaks T5: installing a trim point takes the sender's ballot as the promise, even a
    /// lower one.
    JumpMovesPromise,
    /// De-duplicates client retries only when proposing them, against what is applied and
    /// proposed, and applies every chosen command, repeats included.
    DedupAtPropose,
    /// Breaks H3: a successor fills every hole below the handed-off next slot with a no-op at
    /// the handed-off ballot, as a leader fills holes after its own Phase 1.
    HandoffFillsGaps,
    /// Breaks H2 and H4 together: a leader that hands its ballot off keeps leading at it, so it
    /// can hand the same ballot to a second successor.
    DoubleHandoff,
    /// Breaks the read watermark rule: answers a `ReadIndex` with its chosen index (its commit
    /// index) instead of its highest accepted slot, so a read misses a write that is chosen
    /// but that the nodes it hears from have not yet learned is chosen.
    ReadCommitIndex,
    /// Skips the rinse: a node that has applied through the slot just below a read's
    /// watermark and holds a vote at the watermark slot serves the read at once, with the
    /// value that vote writes, accepted but not known chosen.
    SkipRinse,
    /// Breaks P1 and P2, on a [`ProxyLeader`](crate::log::ProxyLeader): the proxy keeps its
    /// state by slot alone, so the Accepteds of two ballots for one slot count together and it
    /// announces a value that no quorum accepted at any one ballot.
    ProxyKeyedBySlot,
    /// Breaks P1's repeat rule, on a [`ProxyLeader`](crate::log::ProxyLeader): an Accept for a
    /// (slot, ballot) the proxy already holds is ignored as a duplicate, forwarding nothing and
    /// announcing nothing again, so one lost message stalls the slot for ever.
    ProxyIgnoresRepeats,
    /// Breaks P4, on a leader: a resend of a client's command through another proxy carries a
    /// no-op instead, at the same ballot, so one (slot, ballot) has two entries.
    NewValueSameBallot,
    /// Breaks C2: a Promise reports a slot whose vote is unknown (its frame corrupt) as "no
    /// vote", so a new leader may fill a chosen slot with a no-op.
    CorruptAsNone,
}

/// The acceptor's part of a node: what it promised and what it voted for. Durable: every change
/// here goes out as a [`Write`] in the same [`Ready`], and [`ColocatedNode::restart`] reads it
/// back.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
struct AcceptorState {
    /// The highest ballot promised; it never decreases.
    ///
    /// Invariant: at or above the ballot of every vote in `accepts`. A vote raises the promise
    /// to its ballot, and so does learning a chosen vote ([`learning_raises_the_promise`]).
    promised: Option<Ballot>,
    /// Each slot's accepted record: the highest-ballot vote cast there, or the chosen vote once
    /// learned (the chosen overwrite rule, [`ColocatedNode::learn_chosen`]).
    accepts: SlotMap<SlotVote>,
    /// The slots where this acceptor voted and its record of the vote is corrupt (C2): never
    /// in `accepts`. A slot leaves only when a readable vote is written there: a new vote by
    /// the vote rule, or the chosen entry learned (C4, [`ColocatedNode::learn_chosen`]).
    unknown: BTreeSet<Slot>,
}

/// The learner's part of a node: what it knows is chosen, and the state machine it applied in
/// slot order. The chosen prefix and the trim point are durable ([`Write::ChosenThrough`],
/// [`Write::TrimPoint`]); the state machine is rebuilt from them on restart.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct LearnerState {
    /// Every slot above the floor known chosen, with the vote chosen there.
    chosen: SlotMap<SlotVote>,
    /// Invariant: every slot above the floor and up to here is in `chosen` (a contiguous
    /// prefix), and the floor is at or below it.
    chosen_index: Slot,
    /// Invariant: `floor <= applied_index <= chosen_index` (T1).
    applied_index: Slot,
    /// The log compacted so far; its slot is the node's floor. No entry at or below the floor
    /// is kept, in `chosen` or in the acceptor's record.
    trim_point: TrimPoint,
    /// The replicated state machine, as applied through `applied_index`.
    store: KvStore,
}

/// The proposer's part of a node: its role in leadership, and the ballots and clock that drive
/// its elections. Volatile but for the ballot it stood at ([`Write::Stood`]), which a restart
/// folds into `highest_seen`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct ProposerState {
    /// Follower, candidate or leader, with the state only that role has.
    leadership: Leadership,
    /// The highest ballot this node has seen anywhere, so its next election goes above it.
    ///
    /// Invariant: at or above the promise and the ballot this node runs or last ran at.
    highest_seen: Option<Ballot>,
    /// The leader this node last heard from; itself while it leads, `None` after stepping down.
    leader_hint: Option<NodeId>,
    /// Ticks since this node last heard a leader; counted only while it does not lead.
    ticks_since_heard: u32,
}

/// What a node is doing about leadership ([`LogRole`]), carrying the state each role has, so a
/// candidate always has its election and a leader always has its ballot and proposals.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum Leadership {
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
    fn role(&self) -> LogRole {
        match self {
            Leadership::Follower { .. } => LogRole::Follower,
            Leadership::Candidate { .. } => LogRole::Candidate,
            Leadership::Leader(_) => LogRole::Leader,
        }
    }

    /// The ballot this node runs at as candidate or leader; `None` while it follows.
    fn running(&self) -> Option<Ballot> {
        match self {
            Leadership::Follower { .. } => None,
            Leadership::Candidate { ballot, .. } => Some(*ballot),
            Leadership::Leader(leader) => Some(leader.ballot),
        }
    }

    /// The ballot this node runs at, or last ran at while it follows.
    fn ballot(&self) -> Option<Ballot> {
        match self {
            Leadership::Follower { last_ballot } => *last_ballot,
            Leadership::Candidate { .. } | Leadership::Leader(_) => self.running(),
        }
    }
}

/// A leader's state for one leadership, from its Phase-1 quorum until it steps down.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct LeaderState {
    /// The ballot its Phase 1 won; every Accept and heartbeat of this leadership carries it.
    ballot: Ballot,
    /// The slots it proposed in this leadership and has not yet seen chosen.
    proposals: SlotMap<Proposal>,
    /// The client requests, `(client, seq)`, among `proposals`: a retry already proposed is
    /// found here without a walk over every proposal.
    ///
    /// Invariant: exactly the requests of the commands in `proposals`.
    proposed_requests: BTreeSet<(NodeId, u64)>,
    /// The slot the next new command gets.
    ///
    /// Invariant: above every slot this leader proposed in this leadership.
    next_slot: Slot,
    /// Ticks since its last beat.
    ticks_since_beat: u32,
    /// How many times each proposal's Accept was sent again through a proxy: the next resend
    /// takes the next proxy ([`proxy_for`]). Empty without proxies.
    resends: BTreeMap<Slot, u64>,
}

impl LeaderState {
    /// Phase 2a for one slot: records the proposal and returns the Accept for every node,
    /// this one included.
    fn propose(&mut self, slot: Slot, entry: Entry, commit: Slot) -> LogMessage {
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

    /// Drops the proposal in `slot`, seen chosen, and returns it.
    fn forget(&mut self, slot: Slot) -> Option<Proposal> {
        let proposal = self.proposals.remove(&slot)?;
        if let Entry::Command(command) = &proposal.entry {
            self.proposed_requests
                .remove(&(command.client, command.seq));
        }
        Some(proposal)
    }

    /// Keeps only the proposals above `through`.
    fn drop_proposals_through(&mut self, through: Slot) {
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
    fn proposed(&self, client: NodeId, seq: u64) -> bool {
        self.proposed_requests.contains(&(client, seq))
    }

    /// A leader's beat: a heartbeat with the commit index to every other node, then the Accepts
    /// of every proposal not yet chosen again to the nodes that have not voted for it (messages
    /// may have been lost).
    fn beat(&mut self, me: NodeId, nodes: NodeSet, commit: Slot) -> Vec<(NodeId, LogMessage)> {
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
    fn beat_through_proxies(
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

    fn volatile(id: NodeId, config: LogConfig) -> ColocatedNode {
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
    fn breaks(&self, rule: BrokenRule) -> bool {
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

    /// Handles one message addressed to this node.
    pub fn handle(&mut self, envelope: &LogEnvelope) -> Result<(), Ignored> {
        let handled = self.dispatch(envelope);
        self.check_invariants();
        handled
    }

    /// One message, to the handler of its kind.
    fn dispatch(&mut self, envelope: &LogEnvelope) -> Result<(), Ignored> {
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
    fn stand_for_election(&mut self) {
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
    fn on_prepare(&mut self, from: NodeId, ballot: Ballot, from_slot: Slot) {
        if !promise_rule(self.acceptor.promised, ballot) {
            self.refuse(from, ballot);
            return;
        }
        self.promise(ballot);
        self.follow(from, ballot);
        let floor = self.floor();
        let votes = self
            .acceptor
            .accepts
            .range(from_slot..)
            .map(|(slot, vote)| (*slot, vote.clone()))
            .collect();
        let unknown = self.unknown_from(from_slot);
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

    /// C2: the slots from `from_slot` on that a Promise reports unknown, never "no vote".
    fn unknown_from(&self, from_slot: Slot) -> Vec<Slot> {
        #[cfg(feature = "negative-controls")]
        if self.breaks(BrokenRule::CorruptAsNone) {
            return Vec::new();
        }
        self.acceptor.unknown.range(from_slot..).copied().collect()
    }

    /// The highest slot this node holds a vote in, or its floor if higher: slots at or below the
    /// floor are decided and their votes dropped, so the floor stands in for them (R1: a read
    /// watermark counts what may be decided, not just the votes still held). A slot whose vote
    /// is unknown counts as a vote: it may be one.
    fn highest_accepted(&self) -> Slot {
        let voted = self.acceptor.accepts.keys().next_back().copied();
        let unknown = self.acceptor.unknown.last().copied();
        voted.max(unknown).unwrap_or_default().max(self.floor())
    }

    /// What this node answers a read's `ReadIndex` with: its highest accepted slot.
    fn read_watermark_reply(&self) -> Slot {
        #[cfg(feature = "negative-controls")]
        if self.breaks(BrokenRule::ReadCommitIndex) {
            return self.learner.chosen_index;
        }
        self.highest_accepted()
    }

    /// Sends this node's trim point to `to`, for the leadership of `ballot`.
    fn send_trim_point(&mut self, to: NodeId, ballot: Ballot) {
        let point = self.learner.trim_point.clone();
        self.send(to, LogMessage::TrimPoint { ballot, point });
    }

    /// A Promise for this candidate's ballot: merge its floor and votes; on a Phase-1 quorum,
    /// lead.
    fn on_promise(
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
    fn lead(&mut self, ballot: Ballot, election: &Election) {
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
    fn fill_own_stale_tail(&self, leader: &mut LeaderState, commit: Slot) -> Vec<LogMessage> {
        let own = self.highest_accepted();
        let Some(stale) = leader_fills_its_own_stale_tail(leader.next_slot, own) else {
            return Vec::new();
        };
        leader.next_slot = stale.end().next();
        (stale.start().0..=stale.end().0)
            .map(|slot| leader.propose(Slot(slot), Entry::Noop, commit))
            .collect()
    }

    /// Phase 2b, by the vote rule. A vote also raises the promise, and the sender's commit
    /// index teaches this node which of its votes are chosen.
    ///
    /// An Accept for a slot this node knows is chosen, with another entry, is never voted for:
    /// by P2b no such Accept exists at or above the chosen ballot, and learning raised the
    /// promise above every lower one ([`learning_raises_the_promise`]), so this is a defence
    /// that keeps the chosen entry in the record whatever arrives.
    fn on_accept(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        slot: Slot,
        entry: Entry,
        commit: Slot,
    ) -> Result<(), Ignored> {
        let leader = nack_goes_to(from, ballot, self.config.proxies);
        if !vote_rule(self.acceptor.promised, ballot) {
            self.refuse(leader, ballot);
            return Ok(());
        }
        if slot <= self.floor() {
            // Below my floor: decided. Answer with what holds the decision.
            self.send_trim_point(leader, ballot);
            return Err(Ignored::BelowFloor);
        }
        if self
            .learner
            .chosen
            .get(&slot)
            .is_some_and(|chosen| chosen.entry != entry)
        {
            return Err(Ignored::ChosenOtherwise);
        }
        self.vote(slot, SlotVote { ballot, entry });
        self.follow(leader, ballot);
        self.learn_commit(ballot, commit);
        self.send(from, LogMessage::Accepted { ballot, slot });
        Ok(())
    }

    /// One vote by the vote rule, already checked: the promise rises to `vote.ballot` if it was
    /// below, and the vote is recorded and written.
    fn vote(&mut self, slot: Slot, vote: SlotVote) {
        if self.acceptor.promised != Some(vote.ballot) {
            self.promise(vote.ballot);
        }
        self.ready.writes.push(Write::Accept(slot, vote.clone()));
        self.acceptor.accepts.insert(slot, vote);
        // A new vote at or above the promise supersedes an unknown one, as it would a known
        // one: the unknown vote was cast at or below the promise.
        self.acceptor.unknown.remove(&slot);
    }

    /// A vote for this leader's proposal; a Phase-2 quorum makes the slot chosen (F2,
    /// [`chosen_by_a_recording_quorum`]).
    ///
    /// F3: only votes for the identical (slot, ballot) are counted together. A vote at another
    /// ballot is stale, and `accepted_by` belongs to one proposal of this leadership: each slot
    /// is proposed once per leadership (the next slot only rises, and recovery proposes each
    /// slot once), and a new leadership starts with no proposals.
    fn on_accepted(&mut self, from: NodeId, ballot: Ballot, slot: Slot) -> Result<(), Ignored> {
        let Leadership::Leader(leader) = &mut self.proposer.leadership else {
            return Err(Ignored::StaleBallot);
        };
        if leader.ballot != ballot {
            return Err(Ignored::StaleBallot);
        }
        let proposal = leader.proposals.get_mut(&slot).ok_or(Ignored::WrongPhase)?;
        if !proposal.accepted_by.insert(from) {
            return Err(Ignored::Duplicate);
        }
        if chosen_by_a_recording_quorum(&self.config.quorums, slot, proposal.accepted_by)
            && let Some(proposal) = leader.forget(slot)
        {
            let entry = proposal.entry;
            self.learn_chosen(slot, SlotVote { ballot, entry });
        }
        Ok(())
    }

    /// A proxy's announcement (P2): `entry` is chosen in `slot` at `ballot`. Learned if it is
    /// this leader's proposal there at its ballot; a proxy forwards only what the leader sent,
    /// so any other announcement is stale.
    fn on_slot_chosen(&mut self, ballot: Ballot, slot: Slot, entry: Entry) -> Result<(), Ignored> {
        let Leadership::Leader(leader) = &mut self.proposer.leadership else {
            return Err(Ignored::StaleBallot);
        };
        if leader.ballot != ballot {
            return Err(Ignored::StaleBallot);
        }
        let proposal = leader
            .proposals
            .get(&slot)
            .ok_or(Ignored::AlreadyAnnounced)?;
        if proposal.entry != entry {
            return Err(Ignored::NotProposed);
        }
        leader.forget(slot);
        leader.resends.remove(&slot);
        self.learn_chosen(slot, SlotVote { ballot, entry });
        Ok(())
    }

    /// A refusal of this node's ballot: someone holds a higher one, so step down and wait.
    fn on_nack(&mut self, ballot: Ballot, promised: Ballot) -> Result<(), Ignored> {
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

    /// A leader's heartbeat: the leader is alive, and every slot up to `commit` is chosen.
    fn on_heartbeat(&mut self, from: NodeId, ballot: Ballot, commit: Slot) {
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
    fn on_heartbeat_ack(
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
            let accepts: Vec<LogMessage> = (stale.start().0..=stale.end().0)
                .map(|slot| leader.propose(Slot(slot), Entry::Noop, commit))
                .collect();
            leader.next_slot = stale.end().next();
            for accept in accepts {
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
        let entries: Vec<(Slot, SlotVote)> = self
            .learner
            .chosen
            .range(theirs.next()..=catch_up_end(theirs, chosen_index, self.config.slot_window))
            .take(self.config.catch_up_batch)
            .map(|(slot, vote)| (*slot, vote.clone()))
            .collect();
        self.send(from, LogMessage::Chosen { entries });
        Ok(())
    }

    /// The commit rule: a vote this node holds at the leader's own ballot, at or below the
    /// leader's commit index, is the chosen entry (a leader proposes one entry per slot per
    /// ballot, and it counts a slot chosen only at its own ballot).
    ///
    /// The votes are learned where they lie, without a copy of the range first. Batched, the
    /// chosen index rises once for them all (one chosen-through mark); unbatched, once per
    /// slot, as each is learned.
    fn learn_commit(&mut self, ballot: Ballot, commit: Slot) {
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
    fn note_chosen(&mut self, slot: Slot, vote: SlotVote) -> bool {
        if slot <= self.floor() || self.learner.chosen.contains_key(&slot) {
            return false;
        }
        let promise = learning_raises_the_promise(self.acceptor.promised, &vote);
        if promise != self.acceptor.promised
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

    /// A slot this node learned chosen, however it learned it (its own count, a proxy's
    /// announcement, a `Chosen` catch-up or the commit rule): if it leads, its proposal there
    /// is done, and its beats stop sending it again.
    fn stop_resending(&mut self, slot: Slot) {
        if let Leadership::Leader(leader) = &mut self.proposer.leadership {
            leader.forget(slot);
            leader.resends.remove(&slot);
        }
    }

    /// Raises the chosen index over the contiguous known-chosen prefix, records it durably,
    /// and runs the apply walk.
    fn advance_chosen_index(&mut self) {
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

    /// The apply walk: applies chosen entries in slot order, never past the chosen index, then
    /// answers the clients waiting on them and the reads whose watermark is now applied. A
    /// decided trim moves the floor when the walk applies it ([`floor_after_applying`], T2).
    fn apply_walk(&mut self) {
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
    fn apply_to_store(&mut self, entry: &Entry) -> bool {
        #[cfg(feature = "negative-controls")]
        if self.breaks(BrokenRule::DedupAtPropose) {
            return self.learner.store.apply_without_sessions(entry);
        }
        self.learner.store.apply(entry)
    }

    /// Compacts the log through `through`, a slot this node has applied: the trim point there
    /// is written first, then the entries it replaces are dropped (T3).
    fn trim_through(&mut self, through: Slot) {
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
    fn drop_through(&mut self, through: Slot) {
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
    fn on_trim_point(&mut self, ballot: Ballot, point: &TrimPoint) -> Result<(), Ignored> {
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

    /// A client's write: a leader gives it the next slot, unless the same request is already
    /// applied (answer at once) or already proposed (wait for it).
    fn on_client_write(&mut self, command: Command) {
        let (client, seq) = (command.client, command.seq);
        let already_applied = self.learner.store.applied_seq(client) >= seq;
        let commit = self.learner.chosen_index;
        let Leadership::Leader(leader) = &mut self.proposer.leadership else {
            let hint = self.proposer.leader_hint;
            self.send(
                client,
                LogMessage::Reply {
                    seq,
                    outcome: Outcome::NotLeader { hint },
                },
            );
            return;
        };
        if already_applied {
            self.send(
                client,
                LogMessage::Reply {
                    seq,
                    outcome: Outcome::Written,
                },
            );
            return;
        }
        let already_proposed = leader.proposed(client, seq);
        let accept = (!already_proposed).then(|| {
            let slot = leader.next_slot;
            leader.next_slot = slot.next();
            leader.propose(slot, Entry::from(command), commit)
        });
        self.awaiting.insert((client, seq));
        if let Some(accept) = accept {
            self.send_accept(accept);
        }
    }

    /// A client's read: ask every node for its highest accepted slot. Never answered from this
    /// node's log alone.
    fn on_client_read(&mut self, client: NodeId, seq: u64, key: Value) {
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

    fn on_read_index_reply(
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
    fn serve_reads(&mut self) {
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
    fn read_is_servable(&self, read: &PendingRead) -> bool {
        #[cfg(feature = "negative-controls")]
        if self.skips_the_rinse_for(read) {
            return true;
        }
        read_may_be_served(&self.config.quorums, read, self.learner.applied_index)
    }

    /// The value a servable read answers with: the key's value in the applied store.
    fn read_value(&self, read: &PendingRead) -> Option<Value> {
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
    fn skips_the_rinse_for(&self, read: &PendingRead) -> bool {
        self.breaks(BrokenRule::SkipRinse)
            && heard_from_a_discovery_quorum(&self.config.quorums, read.answered_by)
            && self.learner.applied_index.next() == read.watermark
            && self.acceptor.accepts.contains_key(&read.watermark)
    }

    /// Promises `ballot`, durably. A candidate or leader below it steps down
    /// ([`promise_deposes_a_lower_run`]).
    fn promise(&mut self, ballot: Ballot) {
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
    fn follow(&mut self, holder: NodeId, ballot: Ballot) {
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
    fn step_down(&mut self) {
        let last_ballot = self.proposer.leadership.ballot();
        self.proposer.leadership = Leadership::Follower { last_ballot };
        self.proposer.leader_hint = None;
    }

    fn refuse(&mut self, to: NodeId, ballot: Ballot) {
        let promised = self.acceptor.promised.expect("a refusal implies a promise");
        self.send(to, LogMessage::Nack { ballot, promised });
    }

    fn send(&mut self, to: NodeId, message: LogMessage) {
        self.ready.messages.push(LogEnvelope {
            from: self.id,
            to,
            message,
        });
    }

    /// Sends a leader's Accept: through the slot's proxy when the cluster has proxies
    /// ([`proxy_for`]), in runs to every node when it batches its Accepts
    /// ([`LogConfig::with_accept_batch`]), else to every node.
    fn send_accept(&mut self, accept: LogMessage) {
        let proxy = match &accept {
            LogMessage::Accept { slot, .. } => proxy_for(self.config.proxies, *slot, 0),
            _ => None,
        };
        match proxy {
            Some(proxy) => self.send(proxy, accept),
            #[cfg(feature = "accept-batch")]
            None if self.config.batches_accepts() => {
                for to in self.config.nodes.iter() {
                    self.send_or_join_run(to, accept.clone());
                }
            }
            None => self.broadcast(accept),
        }
    }

    /// Sends `message` to `to`; an Accept joins a run instead when Accepts are batched
    /// ([`ColocatedNode::send_in_run`]).
    fn send_or_join_run(&mut self, to: NodeId, message: LogMessage) {
        match message {
            #[cfg(feature = "accept-batch")]
            LogMessage::Accept {
                ballot,
                slot,
                entry,
                commit,
            } if self.config.batches_accepts() => {
                self.send_in_run(to, (ballot, slot, entry, commit));
            }
            message => self.send(to, message),
        }
    }

    /// Whether `from` may send `message`: a node of the cluster anything, a proxy leader only
    /// the Accepts it forwards and its announcements.
    fn knows_sender(&self, from: NodeId, message: &LogMessage) -> bool {
        self.config.nodes.contains(from)
            || (self.config.proxies.contains(from)
                && matches!(
                    message,
                    LogMessage::Accept { .. } | LogMessage::SlotChosen { .. }
                ))
    }

    /// [`BrokenRule::NewValueSameBallot`]: whether this leader's resends carry a new value.
    fn resends_a_new_value(&self) -> bool {
        #[cfg(feature = "negative-controls")]
        if self.breaks(BrokenRule::NewValueSameBallot) {
            return true;
        }
        false
    }

    fn broadcast(&mut self, message: LogMessage) {
        let nodes: Vec<NodeId> = self.config.nodes.iter().collect();
        for to in nodes {
            self.send(to, message.clone());
        }
    }

    /// Checks, in debug builds, the invariants the state's docs state. Called at the end of
    /// every public input (`handle`, `tick`, `restart`, `learn_chosen`), when no step is half
    /// done.
    fn check_invariants(&self) {
        #[cfg(test)]
        let _unmetered = crate::log::meter::unmetered();
        #[cfg(feature = "negative-controls")]
        if self.broken.is_some() {
            return; // a node breaking a rule on purpose need not keep its invariants
        }
        let learner = &self.learner;
        let floor = self.floor();
        debug_assert!(
            (floor.0 + 1..=learner.chosen_index.0)
                .all(|slot| learner.chosen.contains_key(&Slot(slot))),
            "{}: the chosen index {} is not a contiguous known-chosen prefix",
            self.id,
            learner.chosen_index,
        );
        debug_assert!(
            floor <= learner.applied_index,
            "{}: the floor {floor} is above the applied index {} (T1)",
            self.id,
            learner.applied_index,
        );
        debug_assert!(
            learner
                .chosen
                .keys()
                .next()
                .is_none_or(|slot| *slot > floor)
                && self
                    .acceptor
                    .accepts
                    .keys()
                    .next()
                    .is_none_or(|slot| *slot > floor),
            "{}: an entry kept at or below the floor {floor}",
            self.id,
        );
        debug_assert!(
            learner.applied_index <= learner.chosen_index,
            "{}: applied through {}, past the chosen index {}",
            self.id,
            learner.applied_index,
            learner.chosen_index,
        );
        debug_assert!(
            self.acceptor
                .unknown
                .iter()
                .all(|slot| !self.acceptor.accepts.contains_key(slot) && *slot > floor),
            "{}: a slot both unknown and voted, or unknown at or below the floor",
            self.id,
        );
        let promised = self.acceptor.promised;
        debug_assert!(
            self.acceptor
                .accepts
                .values()
                .all(|vote| Some(vote.ballot) <= promised),
            "{}: an accepted record above the promise {promised:?}",
            self.id,
        );
        let highest_seen = self.proposer.highest_seen;
        debug_assert!(
            highest_seen >= promised && highest_seen >= self.proposer.leadership.ballot(),
            "{}: the highest ballot seen {highest_seen:?} is below the promise or its own ballot",
            self.id,
        );
        if let Leadership::Leader(leader) = &self.proposer.leadership {
            debug_assert!(
                leader
                    .proposals
                    .keys()
                    .next_back()
                    .is_none_or(|slot| *slot < leader.next_slot),
                "{}: a proposal at or above the next slot {}",
                self.id,
                leader.next_slot,
            );
            debug_assert!(
                leader
                    .proposals
                    .keys()
                    .next()
                    .is_none_or(|slot| *slot > floor),
                "{}: a proposal at or below the floor {floor} (T4)",
                self.id,
            );
        }
    }
}

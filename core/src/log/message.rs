//! The messages of the replicated log: Multi-Paxos between nodes, and the client's requests.
//!
//! Phase 1 runs once per leadership over the whole log suffix (Paxos Made Simple, section 3);
//! Phase 2 runs once per slot. Heartbeats carry the leader's commit index.

use crate::Ballot;
use crate::log::{Entry, ReadId, Slot, SlotVote, TrimPoint};
use crate::{NodeId, Value};

/// What a client is told about its request.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Outcome {
    /// The write is chosen and applied.
    Written,
    /// The read's answer: the value of the key, or `None` if it was never written.
    Read(Option<Value>),
    /// This node is not a leader that can take writes; try `hint` if known.
    NotLeader {
        /// The leader this node last heard from.
        hint: Option<NodeId>,
    },
}

/// One message of the replicated log.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum LogMessage {
    /// Phase 1a for every slot from `from_slot` on: one Prepare per leadership.
    Prepare {
        /// The candidate's ballot.
        ballot: Ballot,
        /// The first slot the candidate does not know is chosen.
        from_slot: Slot,
    },
    /// Phase 1b: the promise, the acceptor's floor, and its answer for every slot from
    /// `from_slot` on, one of three (C2): a vote (`votes`), unknown (`unknown`: it voted there
    /// and its record of the vote is corrupt), or, for every other slot above the floor, a
    /// definite "no vote".
    Promise {
        /// The ballot promised.
        ballot: Ballot,
        /// The first slot the Prepare asked about: every slot from here on is answered.
        from_slot: Slot,
        /// The acceptor's floor: every slot up to here is decided and compacted, so it reports
        /// no vote there. "Below my floor: decided", never "no vote" (T4,
        /// [`first_slot_to_recover`](crate::log::first_slot_to_recover)).
        floor: Slot,
        /// Each slot's accepted record at or above the Prepare's `from_slot`, in slot order.
        votes: Vec<(Slot, SlotVote)>,
        /// The slots at or above `from_slot` whose vote this acceptor no longer knows, in slot
        /// order: never "no vote" (C2), and never counted towards a discovery quorum for that
        /// slot (C3, [`phase1_complete`](crate::log::phase1_complete)).
        unknown: Vec<Slot>,
    },
    /// Phase 2a for one slot, with the leader's commit index piggybacked.
    Accept {
        /// The leader's ballot.
        ballot: Ballot,
        /// The slot.
        slot: Slot,
        /// The entry proposed.
        entry: Entry,
        /// Every slot up to this one is chosen, as far as the leader knows.
        commit: Slot,
    },
    /// Phase 2b: the sender voted for the leader's entry in `slot`.
    Accepted {
        /// The ballot voted for.
        ballot: Ballot,
        /// The slot.
        slot: Slot,
    },
    /// Phase 2a for a run of consecutive slots: `entries[i]` is proposed in slot `first + i`,
    /// all at one ballot, with the leader's commit index piggybacked. Sent only by a leader
    /// whose configuration batches Accepts ([`LogConfig::with_accept_batch`]), for two slots or
    /// more (a run of one is an [`LogMessage::Accept`]); each slot is
    /// voted on by the vote rule exactly as if it had come in an Accept of its own
    /// ([`accept_run_slots`](crate::log::accept_run_slots)).
    ///
    /// [`LogConfig::with_accept_batch`]: crate::log::LogConfig::with_accept_batch
    #[cfg(feature = "accept-batch")]
    AcceptRun {
        /// The leader's ballot.
        ballot: Ballot,
        /// The slot of the first entry.
        first: Slot,
        /// The entries proposed, one per slot from `first` on; never empty.
        entries: Vec<Entry>,
        /// Every slot up to this one is chosen, as far as the leader knows.
        commit: Slot,
    },
    /// Phase 2b for a run: the sender voted at `ballot` for the leader's entry in every slot
    /// from `first` through `through`.
    #[cfg(feature = "accept-batch")]
    AcceptedRun {
        /// The ballot voted for.
        ballot: Ballot,
        /// The first slot voted in.
        first: Slot,
        /// The last slot voted in.
        through: Slot,
    },
    /// A refusal: the sender promised `promised`, above `ballot`.
    Nack {
        /// The refused ballot.
        ballot: Ballot,
        /// The promise that refused it.
        promised: Ballot,
    },
    /// The leader is alive; every slot up to `commit` is chosen.
    Heartbeat {
        /// The leader's ballot.
        ballot: Ballot,
        /// The leader's chosen index.
        commit: Slot,
    },
    /// A follower's answer to a heartbeat: how far it knows the log is chosen, and the highest
    /// slot it holds a vote in.
    HeartbeatAck {
        /// The heartbeat's ballot.
        ballot: Ballot,
        /// The follower's chosen index.
        chosen_index: Slot,
        /// The highest slot the follower holds a vote in, or its floor if higher: a read
        /// watermark may reach it, so the leader decides every slot up to it
        /// ([`fill_up_to`](crate::log::fill_up_to)).
        highest_accepted: Slot,
    },
    /// Chosen entries a follower lacks, sent by the leader to catch it up.
    Chosen {
        /// Each slot with the vote that was chosen there.
        entries: Vec<(Slot, SlotVote)>,
    },
    /// A proxy leader's announcement to the leader whose Accept it forwarded: a Phase-2 quorum
    /// of acceptors answered Accepted for exactly (`slot`, `ballot`), so `entry` is chosen
    /// there ([`proxy_may_announce`](crate::log::proxy_may_announce), P2).
    SlotChosen {
        /// The ballot the quorum voted at.
        ballot: Ballot,
        /// The slot.
        slot: Slot,
        /// The entry the Accept carried.
        entry: Entry,
    },
    /// Catch-up by jump: the sender's trim point, for a node below the sender's floor, whose
    /// missing entries no longer exist anywhere but in it. Sent with a Promise from below the
    /// candidate's `from_slot`, in answer to a HeartbeatAck or an Accept from below the floor,
    /// and to a leader whose heartbeat shows it behind.
    TrimPoint {
        /// The ballot of the leadership it is sent for: followed like a heartbeat's, never
        /// promised (T5).
        ballot: Ballot,
        /// The trim point.
        point: TrimPoint,
    },
    /// The same-ballot handoff: the leader of `ballot` gives it to the receiver, which leads at
    /// it with no Phase 1 ([`ColocatedNode::hand_off`](crate::log::ColocatedNode::hand_off),
    /// H1–H4). Sent only after the sender durably recorded that it handed `ballot` off and
    /// stopped proposing at it (H2).
    Handoff {
        /// The ballot handed off; its owner is the sender.
        ballot: Ballot,
        /// The slot the old leader's next command would have taken: the successor proposes new
        /// entries only here and above (H3).
        next_slot: Slot,
        /// The old leader's proposals not yet seen chosen, below `next_slot`: the successor
        /// sends each again, identical (H1).
        in_flight: Vec<(Slot, Entry)>,
        /// The old leader's chosen index: every slot up to it is chosen, so the successor's
        /// votes at `ballot` up to it are the chosen entries (the commit rule).
        read_watermark: Slot,
    },
    /// A read asks: what is the highest slot you have accepted?
    ReadIndex {
        /// The asking node's id for the read.
        read: ReadId,
    },
    /// The answer to [`LogMessage::ReadIndex`].
    ReadIndexReply {
        /// The read asked about.
        read: ReadId,
        /// The highest slot the sender holds a vote for (0 if none).
        highest_accepted: Slot,
    },
    /// A client asks to write.
    Write {
        /// The client's request number.
        seq: u64,
        /// The key.
        key: Value,
        /// The value.
        value: Value,
    },
    /// A client asks to read.
    Read {
        /// The client's request number.
        seq: u64,
        /// The key.
        key: Value,
    },
    /// The answer to a client's request.
    Reply {
        /// The request answered.
        seq: u64,
        /// The answer.
        outcome: Outcome,
    },
}

impl LogMessage {
    /// The message's kind as a word, e.g. `Accept`.
    pub fn kind(&self) -> &'static str {
        match self {
            LogMessage::Prepare { .. } => "Prepare",
            LogMessage::Promise { .. } => "Promise",
            LogMessage::Accept { .. } => "Accept",
            LogMessage::Accepted { .. } => "Accepted",
            #[cfg(feature = "accept-batch")]
            LogMessage::AcceptRun { .. } => "AcceptRun",
            #[cfg(feature = "accept-batch")]
            LogMessage::AcceptedRun { .. } => "AcceptedRun",
            LogMessage::Nack { .. } => "Nack",
            LogMessage::Heartbeat { .. } => "Heartbeat",
            LogMessage::HeartbeatAck { .. } => "HeartbeatAck",
            LogMessage::Chosen { .. } => "Chosen",
            LogMessage::SlotChosen { .. } => "SlotChosen",
            LogMessage::TrimPoint { .. } => "TrimPoint",
            LogMessage::Handoff { .. } => "Handoff",
            LogMessage::ReadIndex { .. } => "ReadIndex",
            LogMessage::ReadIndexReply { .. } => "ReadIndexReply",
            LogMessage::Write { .. } => "Write",
            LogMessage::Read { .. } => "Read",
            LogMessage::Reply { .. } => "Reply",
        }
    }
}

/// A log message on the wire.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct LogEnvelope {
    /// The sender.
    pub from: NodeId,
    /// The receiver.
    pub to: NodeId,
    /// The message.
    pub message: LogMessage,
}

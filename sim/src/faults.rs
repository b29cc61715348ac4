//! The fault layer every world shares: what it may still break ([`Budget`], by [`Fault`]),
//! the one fault outside the model a negative control adds ([`NegativeControl`]), and why a
//! world refuses an action ([`Refused`]), with the id a fault names a message in flight by
//! ([`MessageId`]).

use crate::check::Property;
use paros_core::NodeId;
use paros_core::log::{BootRefused, RecordError};
use std::fmt;

/// The id of a message in flight: stable for its life, assigned in send order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct MessageId(pub u32);

impl fmt::Display for MessageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "m{}", self.0)
    }
}

/// A kind of event a world allows only a bounded number of times: the faults, and the steps
/// bounded so that every walk ends (retries, ticks, client resends).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Fault {
    /// A message lost.
    Drop,
    /// A second copy of a message put in flight.
    Duplicate,
    /// An Act I proposer begins Phase 1 again at a higher ballot (counted per proposer).
    Retry,
    /// Negative control only: an Act I acceptor forgets its promise and its vote.
    Amnesia,
    /// A node crashes, losing its volatile state and writes not yet durable.
    Crash,
    /// A node crashes while persisting, leaving its last frame torn (stepwise worlds).
    TornWrite,
    /// A node is cut off from every other until healed.
    Partition,
    /// One unit of a node's clock.
    Tick,
    /// A client sends its outstanding request again.
    ClientResend,
    /// One record on a crashed node's disk is damaged: a whole frame that fails its checksum
    /// (C1), found when the node restarts.
    CorruptRecord,
    /// A crashed node's disk is erased: its restart is refused (the wiped node).
    WipeDisk,
}

impl Fault {
    /// Every fault, in order.
    pub const ALL: [Fault; 11] = [
        Fault::Drop,
        Fault::Duplicate,
        Fault::Retry,
        Fault::Amnesia,
        Fault::Crash,
        Fault::TornWrite,
        Fault::Partition,
        Fault::Tick,
        Fault::ClientResend,
        Fault::CorruptRecord,
        Fault::WipeDisk,
    ];

    /// The fault as reports and refusals name one event of it: `drop`, `torn write`.
    pub fn name(self) -> &'static str {
        match self {
            Fault::Drop => "drop",
            Fault::Duplicate => "duplicate",
            Fault::Retry => "retry",
            Fault::Amnesia => "amnesia",
            Fault::Crash => "crash",
            Fault::TornWrite => "torn write",
            Fault::Partition => "partition",
            Fault::Tick => "tick",
            Fault::ClientResend => "client resend",
            Fault::CorruptRecord => "corrupt record",
            Fault::WipeDisk => "wipe",
        }
    }

    /// The key a report's budgets list it under: `drops`, `torn_writes`.
    pub fn budget_key(self) -> &'static str {
        match self {
            Fault::Drop => "drops",
            Fault::Duplicate => "duplicates",
            Fault::Retry => "retries_per_proposer",
            Fault::Amnesia => "amnesia",
            Fault::Crash => "crashes",
            Fault::TornWrite => "torn_writes",
            Fault::Partition => "partitions",
            Fault::Tick => "ticks",
            Fault::ClientResend => "client_resends",
            Fault::CorruptRecord => "corruptions",
            Fault::WipeDisk => "wipes",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How many of each [`Fault`] a world may still use: none, unless given. Budgets keep worlds
/// finite, so the explorer can finish them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Budget {
    left: [u32; Fault::ALL.len()],
}

impl Budget {
    /// No fault at all.
    pub const NONE: Budget = Budget {
        left: [0; Fault::ALL.len()],
    };

    /// This budget with `count` of `fault`.
    pub fn with(mut self, fault: Fault, count: u32) -> Budget {
        self.left[fault.index()] = count;
        self
    }

    /// How many of `fault` are left.
    pub fn left(&self, fault: Fault) -> u32 {
        self.left[fault.index()]
    }

    /// Whether one more `fault` is allowed.
    pub fn allows(&self, fault: Fault) -> bool {
        self.left(fault) > 0
    }

    /// Spends one `fault`, or refuses if none is left (and changes nothing).
    pub fn spend(&mut self, fault: Fault) -> Result<(), Refused> {
        let left = &mut self.left[fault.index()];
        *left = left.checked_sub(1).ok_or(Refused::BudgetSpent(fault))?;
        Ok(())
    }

    /// How many of `fault` were spent to go from `start` to this budget.
    pub fn spent_since(&self, start: &Budget, fault: Fault) -> u32 {
        start.left(fault) - self.left(fault)
    }
}

/// A fault outside the model, used only to prove that a checker can fail: each names the
/// property it must break ([`NegativeControl::property`]), and a control world that breaks
/// another one instead has not shown its checker works.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum NegativeControl {
    /// Act I: an acceptor forgets its promise and its vote, as if its disk were lost and it
    /// rejoined as new.
    Amnesia,
    /// A node's messages may leave before its writes are durable (`send` before `persist`).
    SendBeforePersist,
    /// A node whose disk was wiped restarts anyway, ignoring the library's refusal to boot it
    /// ([`paros_core::log::BootRefused`]), blank as if new: its promises and votes are lost.
    BlankRestart,
    /// A node answers a read from its own applied state at once, with no read watermark.
    LocalRead,
    /// A node answers "written" as soon as a client's write reaches it, before it is chosen.
    EarlyAck,
    /// A restarted node forgets the ballot it last stood at, as if it had never written it.
    ForgetBallot,
    /// Act I: a proposer proposes a value nobody proposed, in place of its own.
    RogueValue,
    /// A value or entry is learned before a quorum has voted for it. Act I: a proposer counts
    /// one acceptor as a quorum. The log: a node takes a leader's Accept as word that its
    /// entry is chosen.
    LearnEarly,
    /// Act III: a leader does not read the floor from Promises, so it fills slots that are
    /// decided and compacted on the nodes that reported them (T4 broken).
    TrimIgnoresFloor,
    /// Act III: installing a trim point takes the sender's ballot as the node's promise, even
    /// a lower one (T5 broken).
    JumpMovesPromise,
    /// Act III: a new leader answers a read from what it has applied, with no read watermark.
    ReadAtApplied,
    /// Act III: client retries are de-duplicated only when proposed, never when applied, so a
    /// retry chosen in two slots applies twice.
    DedupAtPropose,
    /// Act IV: flexible quorums whose phases miss each other (q1 = q2 = half the nodes), which
    /// paros-core refuses to build (F1 broken): one half elects while the other chooses.
    NonIntersectingQuorums,
    /// Act IV: a handoff's successor fills every hole below the handed-off next slot with a
    /// no-op at the handed-off ballot (H3 broken), over an entry already sent there.
    HandoffFillsGaps,
    /// Act IV: a leader that hands its ballot off keeps leading at it, so it hands the same
    /// ballot to a second successor (H2 and H4 broken).
    DoubleHandoff,
    /// Act IV: a 2x2 "grid" where a full row decides a slot as well as the slot's column, which
    /// paros-core builds only for this control (F1 broken: one row decides while the other
    /// elects).
    GridDecidesInRow,
    /// Act IV: nodes answer a read's `ReadIndex` with their commit index instead of their
    /// highest accepted slot, so a read misses a chosen write they have not yet learned.
    ReadCommitIndex,
    /// Act IV: a node skips the rinse, answering a read with the value accepted at the
    /// watermark slot before that slot is decided.
    SkipRinse,
    /// Act IV: a proxy leader keeps its state by slot alone, so the Accepteds of two ballots
    /// for one slot count together and it announces a value no quorum accepted at any one
    /// ballot (P1 and P2 broken).
    ProxyKeyedBySlot,
    /// Act IV: a leader resends a client's command through another proxy as a no-op, at the
    /// same ballot, so one (slot, ballot) carries two values (P4 broken).
    NewValueSameBallot,
    /// Act IV: a proxy leader ignores an Accept for a (slot, ballot) it already holds, so a
    /// lost forward, Accepted or announcement is never sent again (P1's repeat rule broken).
    ProxyIgnoresRepeats,
    /// Act IV, Matchmaker Paxos: matchmakers record a round below one they store (M1 broken),
    /// so the lower round's history misses the higher round's configuration.
    NoLowerRoundCheck,
    /// Act IV, Matchmaker Paxos: a leader completes Phase 1 with a quorum of the newest
    /// configuration of its history alone (M3 broken).
    Phase1LatestOnly,
    /// Act IV, Matchmaker Paxos: a leader asks for garbage collection once Phase 1 is done,
    /// before its value is chosen in its own configuration (M4 broken).
    GcAfterPhase1,
    /// Act IV, Matchmaker Paxos: asked to stop, a matchmaker reports its state but goes on
    /// matching (M6 broken), so a round slips past the next generation.
    NoStop,
    /// Act IV: a node reports a vote it no longer knows (its frame corrupt) as "no vote" in its
    /// Promise (C2 broken), so a new leader may fill a chosen slot with a no-op.
    CorruptAsNone,
    /// Act IV, Matchmaker Paxos: a stopped matchmaker still acknowledges garbage collection
    /// (M4 and M6 broken), so a proof retires acceptors whose configuration the next
    /// generation still holds.
    StoppedCollects,
    /// Act IV, Matchmaker Paxos: a Bootstrap stores every round it carries, even below the
    /// watermark the matchmaker holds (M4 broken).
    BootstrapBelowWatermark,
    /// Act IV, Matchmaker Paxos: a Bootstrap's watermark is never taken, so a new matchmaker
    /// keeps a lower one than the generation it replaces (M6 broken).
    BootstrapKeepsItsWatermark,
    /// Act II: a node that learns an entry chosen at a ballot above its promise writes it
    /// into its accepted record and leaves the promise below it (the learning rule broken).
    LearningLeavesThePromise,
    /// Act III: a node that learns a slot chosen at or below its floor records it again, beside
    /// the trim point that replaced it (compaction broken).
    LearnsBelowTheFloor,
}

impl NegativeControl {
    /// Every negative control, in order.
    pub const ALL: [NegativeControl; 31] = [
        NegativeControl::Amnesia,
        NegativeControl::SendBeforePersist,
        NegativeControl::BlankRestart,
        NegativeControl::LocalRead,
        NegativeControl::EarlyAck,
        NegativeControl::ForgetBallot,
        NegativeControl::RogueValue,
        NegativeControl::LearnEarly,
        NegativeControl::TrimIgnoresFloor,
        NegativeControl::JumpMovesPromise,
        NegativeControl::ReadAtApplied,
        NegativeControl::DedupAtPropose,
        NegativeControl::NonIntersectingQuorums,
        NegativeControl::HandoffFillsGaps,
        NegativeControl::DoubleHandoff,
        NegativeControl::GridDecidesInRow,
        NegativeControl::ReadCommitIndex,
        NegativeControl::SkipRinse,
        NegativeControl::ProxyKeyedBySlot,
        NegativeControl::NewValueSameBallot,
        NegativeControl::ProxyIgnoresRepeats,
        NegativeControl::NoLowerRoundCheck,
        NegativeControl::Phase1LatestOnly,
        NegativeControl::GcAfterPhase1,
        NegativeControl::NoStop,
        NegativeControl::CorruptAsNone,
        NegativeControl::StoppedCollects,
        NegativeControl::BootstrapBelowWatermark,
        NegativeControl::BootstrapKeepsItsWatermark,
        NegativeControl::LearningLeavesThePromise,
        NegativeControl::LearnsBelowTheFloor,
    ];

    /// The property this fault breaks: the checker it is the negative control of.
    pub fn property(self) -> Property {
        match self {
            NegativeControl::Amnesia
            | NegativeControl::SendBeforePersist
            | NegativeControl::BlankRestart
            | NegativeControl::NonIntersectingQuorums
            | NegativeControl::GridDecidesInRow => Property::Agreement,
            NegativeControl::LocalRead
            | NegativeControl::ReadAtApplied
            | NegativeControl::ReadCommitIndex
            | NegativeControl::SkipRinse => Property::Linearizability,
            NegativeControl::TrimIgnoresFloor => Property::TrimmedSlotsKept,
            NegativeControl::JumpMovesPromise => Property::JumpKeepsPromise,
            NegativeControl::DedupAtPropose => Property::AppliedOnce,
            NegativeControl::EarlyAck => Property::WrittenIsChosen,
            NegativeControl::ForgetBallot => Property::BallotUnique,
            NegativeControl::RogueValue => Property::Validity,
            NegativeControl::LearnEarly => Property::LearnedIsChosen,
            // Both send a second value at one (slot, ballot) before any vote for it can count:
            // H1's checker sees it first, and agreement breaks only later, if ever.
            NegativeControl::HandoffFillsGaps
            | NegativeControl::DoubleHandoff
            | NegativeControl::NewValueSameBallot => Property::OneValuePerBallot,
            // The proxy announces before the leader learns: the announcement is judged first.
            NegativeControl::ProxyKeyedBySlot => Property::AnnouncedWasChosen,
            // Nothing unsafe happens: the slot is never chosen, and the clients wait for ever.
            NegativeControl::ProxyIgnoresRepeats => Property::Progress,
            // Each Matchmaker Paxos control is judged by its rule's own property, which breaks
            // before two values can be chosen.
            NegativeControl::NoLowerRoundCheck => Property::HistoryComplete,
            NegativeControl::Phase1LatestOnly => Property::ProposalKeepsChosen,
            NegativeControl::GcAfterPhase1 => Property::GcKeepsWhatPhase1Needs,
            NegativeControl::NoStop => Property::ReconstructionComplete,
            // The Promise that says "no vote" leaves before any leader can use it: its checker
            // sees it first; the two values chosen come later (the tests play it on).
            NegativeControl::CorruptAsNone => Property::NoNoneWhereVoted,
            // Nothing unsafe happens: the next generation keeps a configuration nobody can
            // answer for, and only the fair schedule's leader, waiting for ever, shows it.
            NegativeControl::StoppedCollects => Property::LaterLeaderCompletes,
            NegativeControl::BootstrapBelowWatermark => Property::NothingBelowWatermark,
            // Judged once every new matchmaker is bootstrapped, before any leader could be
            // matched with a round the old generation had collected.
            NegativeControl::BootstrapKeepsItsWatermark => Property::ReconstructionComplete,
            // The learned entry stands above the promise at once; a delayed Accept that
            // replaces it, and the stale read a restart gives back, come later if ever.
            NegativeControl::LearningLeavesThePromise => Property::VotesWithinPromise,
            // The late copy is the right entry: nothing else breaks, and no one reads it.
            NegativeControl::LearnsBelowTheFloor => Property::NothingBelowFloor,
        }
    }
}

/// Why a world refused an action. The world is unchanged.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Refused {
    /// No message with this id is in flight.
    NoSuchMessage(MessageId),
    /// The message's wire is cut: by a partition, or to or from a silent node.
    Cut(MessageId),
    /// No node or client with this id plays the part the action needs.
    NoSuchNode(NodeId),
    /// The budget of this fault is spent.
    BudgetSpent(Fault),
    /// Act I: the proposer has already started.
    AlreadyStarted(NodeId),
    /// Act I: the proposer has not started, or has learned its value: nothing to retry.
    NothingToRetry(NodeId),
    /// The node is down.
    NodeDown(NodeId),
    /// The node is up.
    NodeUp(NodeId),
    /// The node is busy with a `Ready` that is not yet persisted and sent.
    Busy(NodeId),
    /// There is no pending `Ready` step of that kind, or no such step to take.
    NothingPending(NodeId),
    /// The node is already cut off by a partition.
    AlreadyIsolated(NodeId),
    /// No link is cut: there is nothing to heal.
    NothingToHeal,
    /// Act III: the world allows no more trims.
    NoTrimsLeft,
    /// Act III: the node refused to propose a trim.
    Trim(paros_core::log::TrimError),
    /// Act IV: the world allows no more handoffs.
    NoHandoffsLeft,
    /// Act IV: the node refused to hand its ballot off.
    Handoff(paros_core::log::HandoffRefused),
    /// The client has nothing to send.
    ClientIdle(NodeId),
    /// The disk cannot be trusted: the node stays down.
    Disk(RecordError),
    /// The library refused to boot the node (a wiped node): it stays down.
    Boot(BootRefused),
    /// The crashed node's disk holds no such record to corrupt, or nothing to wipe.
    NoSuchRecord(NodeId),
    /// The configuration is not a world this simulator can build.
    BadConfig(&'static str),
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::NoSuchMessage(id) => write!(f, "no message {id} is in flight"),
            Refused::Cut(id) => write!(f, "{id} is on a cut wire"),
            Refused::NoSuchNode(node) => write!(f, "no node or client {node} plays that part"),
            Refused::BudgetSpent(fault) => write!(f, "the {fault} budget is spent"),
            Refused::AlreadyStarted(node) => write!(f, "{node} has already started"),
            Refused::NothingToRetry(node) => write!(f, "{node} has nothing to retry"),
            Refused::NodeDown(node) => write!(f, "{node} is down"),
            Refused::NodeUp(node) => write!(f, "{node} is up"),
            Refused::Busy(node) => write!(f, "{node} has a Ready to persist and send first"),
            Refused::NothingPending(node) => write!(f, "{node} has no such step pending"),
            Refused::AlreadyIsolated(node) => write!(f, "{node} is already cut off"),
            Refused::NothingToHeal => f.write_str("no link is cut: nothing to heal"),
            Refused::NoTrimsLeft => f.write_str("no more trims are allowed"),
            Refused::Trim(why) => write!(f, "{why}"),
            Refused::NoHandoffsLeft => f.write_str("no more handoffs are allowed"),
            Refused::Handoff(why) => write!(f, "{why}"),
            Refused::ClientIdle(client) => write!(f, "{client} has nothing to send"),
            Refused::Disk(error) => write!(f, "{error}"),
            Refused::Boot(why) => write!(f, "{why}"),
            Refused::NoSuchRecord(node) => write!(f, "{node}'s disk holds no such record"),
            Refused::BadConfig(why) => write!(f, "bad world: {why}"),
        }
    }
}

impl std::error::Error for Refused {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_spends_only_what_it_was_given() {
        let mut budget = Budget::NONE.with(Fault::Drop, 1);
        assert_eq!(budget.spend(Fault::Drop), Ok(()));
        assert_eq!(
            budget.spend(Fault::Drop),
            Err(Refused::BudgetSpent(Fault::Drop))
        );
        assert_eq!(
            budget.spend(Fault::Crash),
            Err(Refused::BudgetSpent(Fault::Crash))
        );
        let start = Budget::NONE.with(Fault::Drop, 1);
        assert_eq!(budget.spent_since(&start, Fault::Drop), 1);
        assert_eq!(budget, Budget::NONE);
    }
}

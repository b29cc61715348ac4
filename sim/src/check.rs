//! What both worlds' checkers report: the safety properties every world must keep, judged
//! after every step, and the [`Violation`] that names one broken.
//!
//! Each world holds its own checkers (Act I's in [`crate::single_decree::check`], the
//! replicated log's in [`crate::replicated_log`]), and each checker has a negative control that
//! it must catch (see the tests): a checker that cannot fail proves nothing. A checker that
//! cannot decide reports [`GaveUp`] instead: an error, never a verdict.

use std::fmt;

/// The property a violation breaks.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Property {
    /// At most one value is chosen, counting every ballot whose voters ever formed a Phase-2
    /// quorum, whether or not any proposer learned it.
    Agreement,
    /// A chosen value is one that some proposer proposed.
    Validity,
    /// A proposer or node learned only the value that is chosen, judged by the votes.
    LearnedIsChosen,
    /// Every slot up to a node's chosen index is known chosen, and nothing past it is applied.
    ChosenPrefix,
    /// The commit rule's premise: a message at ballot `b` that says "chosen through `k`" (a
    /// heartbeat's or an Accept's commit) leaves only when every vote at `b` in a slot up to
    /// `k` is for the entry chosen there, since a follower learns its own vote at `b` in each
    /// such slot. A commit index that covers a decision of another ballot breaks it.
    CommitIsDecidedAtBallot,
    /// A node applies slots in order, one after another, within each incarnation.
    AppliedInOrder,
    /// A client request takes effect at most once per incarnation of a node.
    AppliedOnce,
    /// Every "written" a client hears is for a command chosen in some slot.
    WrittenIsChosen,
    /// A node never stands for election at a ballot it stood at in an earlier life.
    BallotUnique,
    /// The client history is linearizable.
    Linearizability,
    /// T1: a node's floor is never above what it has applied.
    FloorBelowApplied,
    /// T3: a trim point at `k` is the state after applying every decided slot through `k`, the
    /// client session table included.
    TrimPointIsState,
    /// T4: no node proposes, in a slot at or below a floor, anything but what is chosen there.
    TrimmedSlotsKept,
    /// T5: installing a trim point never lowers the promise, moves it at most up to the ballot
    /// the trim point came with, and changes no vote above it.
    JumpKeepsPromise,
    /// H1: across every node that sends Accepts, at most one value is ever sent per (slot,
    /// ballot), a handoff's successor included.
    OneValuePerBallot,
    /// P2: a proxy leader announces a slot chosen only with the value a Phase-2 quorum of
    /// acceptors voted for at the announced ballot, judged by their votes.
    AnnouncedWasChosen,
    /// M1 and M2: a leader that finished matchmaking for round `i` knows every lower round
    /// whose leader finished matchmaking too, unless garbage collection passed that round.
    HistoryComplete,
    /// M3: once a value is chosen in a round, every leader of a higher round proposes that
    /// value, whichever configurations the rounds run in.
    ProposalKeepsChosen,
    /// M4: no configuration a future Phase 1 would need (one below the watermark that holds a
    /// vote) is collected before a value is chosen in the watermark's round, on a Phase-2
    /// quorum of its own configuration.
    GcKeepsWhatPhase1Needs,
    /// M6: the state a new generation of matchmakers is bootstrapped with holds every round
    /// that finished matchmaking with the old generation, unless garbage collection passed it,
    /// and every new matchmaker, once all are bootstrapped, holds the old watermark or higher.
    ReconstructionComplete,
    /// C2: no node ever reports "no vote" for a slot where it durably voted (and has not
    /// truncated since): a vote it can no longer read is reported unknown.
    NoNoneWhereVoted,
    /// C1: at a restart, recovery drops a last frame as a torn write only when a crash cut
    /// that write short; a whole frame read as torn is a durable write lost without a word.
    TornOnlyIfCut,
    /// Progress: once faults stop, every client request is answered within a bound of fair
    /// steps ([`LogWorld::fair_steps_bound`](crate::replicated_log::LogWorld::fair_steps_bound)),
    /// whether or not an election happens. Judged only on a fair schedule
    /// ([`Model::settle`](crate::model::Model::settle)), never by the explorer.
    Progress,
    /// M4: a matchmaker stores no round below its own garbage-collection watermark: what is
    /// collected stays collected, whatever arrives late.
    NothingBelowWatermark,
    /// Matchmaker Paxos, liveness once faults stop: a leader that starts after them, above
    /// every round, completes Phase 1 and gets a value chosen in its round. Judged when the
    /// fair schedule has nothing left to do.
    LaterLeaderCompletes,
    /// No node refuses a peer's message as malformed (a Handoff whose in-flight slots are not
    /// all below its next slot, a run that names no slot): honest nodes send none, and no fault
    /// alters a message, so such a refusal turns an honest message away.
    WellFormed,
    /// Batched Accepts: a leader allowed runs of two or more slots never sends, in one step,
    /// a plain Accept for the slot right after the one its last Accept to that node carried, at
    /// the same ballot: that slot joins the run (`joins_the_run`).
    RunsBatched,
    /// The window rule: a node whose window is configured votes in no slot beyond it (its
    /// chosen index plus the window): it ignores an Accept or a run that names one, and a
    /// Handoff whose next slot lies more than one past it.
    WindowKept,
    /// The vote rule's invariant: no node holds a vote at a ballot above its promise. A vote
    /// raises the promise to its ballot, and learning a chosen entry raises it to the entry's
    /// ballot (`learning_raises_the_promise`), so a delayed Accept at a lower ballot can never
    /// replace what the node holds.
    VotesWithinPromise,
    /// Compaction: a node keeps no vote, unknown mark or chosen entry at or below its floor;
    /// what lies there lives only in its trim point, whatever arrives late.
    NothingBelowFloor,
}

impl fmt::Display for Property {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Property::Agreement => "agreement",
            Property::Validity => "validity",
            Property::LearnedIsChosen => "learned-is-chosen",
            Property::ChosenPrefix => "chosen-prefix",
            Property::CommitIsDecidedAtBallot => "commit-is-decided-at-ballot",
            Property::AppliedInOrder => "applied-in-order",
            Property::AppliedOnce => "applied-once",
            Property::WrittenIsChosen => "written-is-chosen",
            Property::BallotUnique => "ballot-unique",
            Property::Linearizability => "linearizability",
            Property::FloorBelowApplied => "floor-below-applied",
            Property::TrimPointIsState => "trim-point-is-state",
            Property::TrimmedSlotsKept => "trimmed-slots-kept",
            Property::JumpKeepsPromise => "jump-keeps-promise",
            Property::OneValuePerBallot => "one-value-per-ballot",
            Property::AnnouncedWasChosen => "announced-was-chosen",
            Property::HistoryComplete => "history-complete",
            Property::ProposalKeepsChosen => "proposal-keeps-chosen",
            Property::GcKeepsWhatPhase1Needs => "gc-keeps-what-phase1-needs",
            Property::ReconstructionComplete => "reconstruction-complete",
            Property::NoNoneWhereVoted => "no-none-where-voted",
            Property::TornOnlyIfCut => "torn-only-if-cut",
            Property::Progress => "progress",
            Property::NothingBelowWatermark => "nothing-below-watermark",
            Property::LaterLeaderCompletes => "later-leader-completes",
            Property::WellFormed => "well-formed",
            Property::RunsBatched => "runs-batched",
            Property::WindowKept => "window-kept",
            Property::VotesWithinPromise => "votes-within-promise",
            Property::NothingBelowFloor => "nothing-below-floor",
        })
    }
}

/// A broken property, with what broke it in the world's own names.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Violation {
    /// The property broken.
    pub property: Property,
    /// What happened, e.g. `x chosen at 1.P1 by {A1, A2}; y chosen at 2.P2 by {A2, A3}`.
    pub detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.property, self.detail)
    }
}

/// A checker that could not decide within its limits. Never a verdict either way: the drivers
/// end the run with [`Error::CheckGaveUp`](crate::Error::CheckGaveUp).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct GaveUp {
    /// The property the checker judges.
    pub property: Property,
    /// On what, and which limit, with the figures: `on key x: 3 operations, more than the
    /// limit of 2`.
    pub why: String,
}

impl fmt::Display for GaveUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the {} check gave up {}", self.property, self.why)
    }
}

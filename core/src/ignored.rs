//! Why a node ignored an input. Stale and duplicate messages are normal in an asynchronous
//! network: they are reported with a reason, never as a panic.

use std::fmt;

/// The reason a node took no step on an input.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Ignored {
    /// The message is addressed to another node.
    NotAddressedToMe,
    /// The message is for a role this node does not play (a Promise sent to an acceptor).
    NotForThisRole,
    /// The sender is not an acceptor of this proposer's quorum system.
    UnknownSender,
    /// The message is about a ballot other than the one this proposer is running.
    StaleBallot,
    /// The same acceptor already answered this ballot.
    Duplicate,
    /// The proposer is not in the phase this message belongs to.
    WrongPhase,
    /// A Nack that names no ballot above the proposer's own (the refusal of a duplicate Prepare).
    NackNotHigher,
    /// The proposer has not started.
    NotStarted,
    /// An Accept for a slot this node knows is chosen, with another entry: the chosen entry
    /// stays.
    ChosenOtherwise,
    /// A ReadIndexReply about no read this node is running: one already answered, or one of
    /// the node's previous life.
    UnknownRead,
    /// An Accept for a slot at or below this node's floor: decided and compacted, so the node
    /// answers with its trim point instead of a vote.
    BelowFloor,
    /// A trim point at or below this node's floor, or below what it has applied: nothing to
    /// install.
    StaleTrimPoint,
    /// A trim point of another cluster.
    OtherCluster,
    /// A Handoff not sent by the owner of its ballot: a ballot is handed off once, by the
    /// leader that won it, and never handed on (H4).
    HandedOn,
    /// A Handoff of a ballot this node already took, or handed off, or owns: a duplicate, or a
    /// second handoff of one ballot (H4).
    HandoffTaken,
    /// A Handoff whose in-flight slots are not all below its next slot.
    MalformedHandoff,
    /// An AcceptRun with no entry, or an AcceptedRun whose last slot is below its first: a run
    /// that names no slot.
    #[cfg(feature = "accept-batch")]
    EmptyRun,
    /// About a slot already announced chosen: an Accepted for a (slot, ballot) a proxy leader
    /// announced, an Accept at or below the leader's commit index, or an announcement of a
    /// slot the leader already learned.
    AlreadyAnnounced,
    /// A proxy's announcement of an entry this leader did not propose in that slot at its
    /// ballot; or, at a proxy, an Accept for a (slot, ballot) it holds with another entry
    /// (P4: never sent).
    NotProposed,
    /// A message that names a slot beyond the receiver's slot window
    /// ([`window_end`](crate::log::window_end)): far above what it holds, so it takes no step,
    /// as if the message had not arrived yet.
    BeyondWindow,
    /// A message to an acceptor that retired: every configuration it belonged to is collected
    /// (Matchmaker Paxos, M5).
    Retired,
}

impl fmt::Display for Ignored {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ignored::NotAddressedToMe => "addressed to another node",
            Ignored::NotForThisRole => "not a message this role handles",
            Ignored::UnknownSender => "the sender is not an acceptor",
            Ignored::StaleBallot => "about a ballot this proposer is not running",
            Ignored::Duplicate => "this acceptor already answered this ballot",
            Ignored::WrongPhase => "the proposer is past the phase this message belongs to",
            Ignored::NackNotHigher => "the refusal names no higher ballot",
            Ignored::NotStarted => "the proposer has not started",
            Ignored::ChosenOtherwise => "the slot is already chosen with another entry",
            Ignored::UnknownRead => "about no read this node is running",
            Ignored::BelowFloor => "the slot is below this node's floor: decided",
            Ignored::StaleTrimPoint => "the trim point is not above what this node has applied",
            Ignored::OtherCluster => "the trim point belongs to another cluster",
            Ignored::HandedOn => {
                "the handoff is not from the ballot's owner: a ballot is never handed on"
            }
            Ignored::HandoffTaken => "this node already took or handed off this ballot",
            Ignored::MalformedHandoff => {
                "the handoff's in-flight slots are not below its next slot"
            }
            #[cfg(feature = "accept-batch")]
            Ignored::EmptyRun => "the run names no slot",
            Ignored::AlreadyAnnounced => "the slot is already announced chosen",
            Ignored::NotProposed => "this leader did not propose that entry there",
            Ignored::BeyondWindow => "the message names a slot beyond this node's window",
            Ignored::Retired => "this acceptor is retired: its configurations are collected",
        })
    }
}

impl std::error::Error for Ignored {}

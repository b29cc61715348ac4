//! Negative controls: the rules a node can be made to break, so that the simulator can show each
//! checker catching the break. Only with the `negative-controls` feature; the game never builds
//! it.

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
    /// Breaks the learning rule ([`learning_raises_the_promise`]): learning a chosen entry at
    /// a ballot above the promise writes it into the accepted record and leaves the promise
    /// below it, so a delayed Accept at a lower ballot may still replace the chosen entry.
    ///
    /// [`learning_raises_the_promise`]: crate::log::learning_raises_the_promise
    LearningLeavesThePromise,
    /// Breaks compaction: learning a slot chosen at or below the floor (a late `Chosen` sent
    /// before this node trimmed) records it again, vote and entry, beside the trim point that
    /// replaced it.
    LearnsBelowTheFloor,
}

//! The votes cast in one slot at one ballot for one entry ([`SlotVotes`]); `votes.rs` records
//! them and judges what they chose.

use paros_core::log::{Entry, Slot};
use paros_core::{Ballot, NodeSet};

/// The votes cast in one slot at one ballot for one entry: the nodes whose `Accepted` for it
/// has left them. Chosen is a fact about these votes ([`crate::quorums::chosen_in_slot`]),
/// whether or not any node has learned it.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct SlotVotes {
    /// The slot.
    pub slot: Slot,
    /// The ballot voted at.
    pub ballot: Ballot,
    /// The entry voted for.
    pub entry: Entry,
    /// Who voted.
    pub voters: NodeSet,
}

impl SlotVotes {
    /// The votes kept under `(slot, ballot, entry)`.
    pub(super) fn of((slot, ballot, entry): &(Slot, Ballot, Entry), voters: NodeSet) -> SlotVotes {
        SlotVotes {
            slot: *slot,
            ballot: *ballot,
            entry: entry.clone(),
            voters,
        }
    }
}

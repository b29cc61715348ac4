//! Truncation by consensus: the floor, the trim point, and the jump.
//!
//! A log cannot grow for ever. Paxos Made Live (Chandra, Griesemer and Redstone, PODC 2007,
//! section 5.5) compacts it with snapshots; here the decision to compact is itself a decided
//! command, [`Entry::Trim`], as Lamport, Malkhi and Zhou treat configuration changes
//! ("Reconfiguring a State Machine", 2010). One decision gives one cluster-wide floor, and each
//! node moves its own floor when its apply walk reaches the decision. The rules, each a named
//! item:
//!
//! - **T1** `floor <= applied` on every node, always (checked by the node's invariants).
//! - **T2** a floor moves only when the apply walk applies a decided trim:
//!   [`floor_after_applying`].
//! - **T3** the trim point at `k` is the state after applying every slot through `k`, the
//!   client session table included: [`TrimPoint::advance`].
//! - **T4** a leader proposes nothing, and fills no hole, at or below the highest floor its
//!   Phase-1 quorum reported: [`first_slot_to_recover`].
//! - **T5** installing a trim point moves the floor and the applied index to `k`, leaves every
//!   vote above `k` as it was, and never lowers the promise: it raises it to the ballot the
//!   trim point came with, if that is higher ([`jump_raises_the_promise`]):
//!   [`ColocatedNode::install_trim_point`](crate::log::ColocatedNode::install_trim_point).

use crate::log::{Entry, KvStore, Slot, SlotMap, SlotVote};
use crate::{Ballot, NodeSet};
use std::fmt;

/// The trim point: the replicated state as it stood after every slot through `through` was
/// applied, kept durably in place of the entries it replaces.
///
/// It carries the client session table inside its store, so a retry of a request applied below
/// the floor is still recognised after a node jumps to it (T3).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct TrimPoint {
    /// The cluster this state belongs to: a trim point is never installed in another.
    pub cluster: NodeSet,
    /// Every slot up to here is compacted into `store`.
    pub through: Slot,
    /// The key-value store and its sessions after applying every slot through `through`.
    pub store: KvStore,
}

impl TrimPoint {
    /// The empty trim point every node starts from: nothing compacted.
    pub fn initial(cluster: NodeSet) -> TrimPoint {
        TrimPoint {
            cluster,
            through: Slot(0),
            store: KvStore::default(),
        }
    }

    /// T3: the trim point at `through`, made from this one by applying, in slot order, the
    /// chosen entry of every slot above this trim point and up to `through`.
    ///
    /// `chosen` must hold each of those slots; a slot missing from it is an error, never a
    /// silent skip, because a skipped write would be lost from every node that jumps.
    pub fn advance(
        &self,
        chosen: &SlotMap<SlotVote>,
        through: Slot,
    ) -> Result<TrimPoint, TrimError> {
        let mut store = self.store.clone();
        let mut slot = self.through.next();
        while slot <= through {
            let vote = chosen.get(&slot).ok_or(TrimError::Missing { slot })?;
            store.apply(&vote.entry);
            slot = slot.next();
        }
        Ok(TrimPoint {
            cluster: self.cluster,
            through: through.max(self.through),
            store,
        })
    }
}

/// T2: a node's floor after its apply walk applies `entry` in `slot`.
///
/// Only a decided [`Entry::Trim`] moves it, and only upwards and only below the slot the trim
/// sits in: the floor never passes what the node has applied (T1). A trim at or below the floor
/// (one a node already passed by a jump) changes nothing.
pub fn floor_after_applying(floor: Slot, slot: Slot, entry: &Entry) -> Slot {
    match entry {
        Entry::Trim(through) if *through > floor && *through < slot => *through,
        Entry::Noop | Entry::Command(_) | Entry::Trim(_) => floor,
    }
}

/// T4: the first slot a new leader may propose in, recovered or new.
///
/// Every slot at or below a floor that a Promise of its Phase-1 quorum reported is decided and
/// compacted away on that node: its vote is gone, so the Promise cannot report it, and the
/// recovery rule would read its silence as "nothing chosen here" and fill it with a no-op.
/// So the leader starts above the highest reported floor and learns what lies below it from a
/// trim point instead.
pub fn first_slot_to_recover(from_slot: Slot, highest_floor: Slot) -> Slot {
    from_slot.max(highest_floor.next())
}

/// T5, the promise across a jump: the promise a node holds once it installs a trim point that
/// came with `came_with`, given the promise `promised` it held before.
///
/// The ballot a trim point comes with is at or above its sender's promise (a follower sends it
/// at a ballot it would vote for, a leader at its own), and every decision a node knows was made
/// at or below its promise, so every decision in the trim point was made at or below
/// `came_with`. The installing node now knows those decisions and must hold the same bound, as
/// a node that learns a chosen vote does
/// ([`learning_raises_the_promise`](crate::log::learning_raises_the_promise)): left below, it
/// would follow a leader that a higher ballot deposed and hand it the trim point, and that
/// leader's commit index would then cover slots decided at a higher ballot, where its followers'
/// votes at its own ballot may hold values never chosen. The promise never falls: it is this
/// acceptor's word to a newer leader.
pub fn jump_raises_the_promise(promised: Option<Ballot>, came_with: Ballot) -> Option<Ballot> {
    promised.max(Some(came_with))
}

/// Why a trim cannot be proposed, or a trim point cannot be made or installed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TrimError {
    /// Only a leader proposes a trim.
    NotLeader,
    /// A trim above what the proposer has applied: it cannot make that trim point itself, and
    /// no node could have applied every slot below it when it is decided.
    AboveApplied {
        /// The trim asked for.
        through: Slot,
        /// What the proposer has applied.
        applied: Slot,
    },
    /// A trim at or below the node's floor compacts nothing.
    AtOrBelowFloor {
        /// The trim asked for.
        through: Slot,
        /// The node's floor.
        floor: Slot,
    },
    /// A slot to compact is not known chosen.
    Missing {
        /// The slot.
        slot: Slot,
    },
    /// A trim point of another cluster.
    OtherCluster,
}

impl fmt::Display for TrimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrimError::NotLeader => f.write_str("only a leader proposes a trim"),
            TrimError::AboveApplied { through, applied } => write!(
                f,
                "cannot trim through slot {through}: only slots through {applied} are applied"
            ),
            TrimError::AtOrBelowFloor { through, floor } => write!(
                f,
                "trimming through slot {through} compacts nothing: the floor is {floor}"
            ),
            TrimError::Missing { slot } => write!(f, "slot {slot} is not known chosen"),
            TrimError::OtherCluster => f.write_str("the trim point belongs to another cluster"),
        }
    }
}

impl std::error::Error for TrimError {}

/// Checks that a leader may propose `Trim(through)`: above its floor, and no higher than what it
/// has applied.
pub fn trim_may_be_proposed(through: Slot, floor: Slot, applied: Slot) -> Result<(), TrimError> {
    if through <= floor {
        return Err(TrimError::AtOrBelowFloor { through, floor });
    }
    if through > applied {
        return Err(TrimError::AboveApplied { through, applied });
    }
    Ok(())
}

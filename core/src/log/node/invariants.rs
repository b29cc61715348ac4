//! The state invariants, checked in debug builds after every public input: the chosen index is a
//! contiguous known-chosen prefix; T1 (`floor <= applied <= chosen index`); nothing kept at or
//! below the floor; no slot both unknown and voted (C2); no accepted record above the promise;
//! the highest ballot seen at or above the promise and the node's own ballot; a leader's
//! proposals below its next slot and above the floor (T4).

use super::ColocatedNode;
use super::state::Leadership;
use crate::log::Slot;

impl ColocatedNode {
    /// Checks, in debug builds, the invariants the state's docs state. Called at the end of
    /// every public input (`handle`, `tick`, `restart`, `learn_chosen`), when no step is half
    /// done.
    pub(super) fn check_invariants(&self) {
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

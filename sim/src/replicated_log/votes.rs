//! What is chosen, as a fact about votes: each vote is recorded as the `Accepted` carrying it
//! leaves its node, counted by the simulator's own reading of the world's quorum system
//! ([`crate::quorums`]), and judged for agreement.

use super::knowledge::Effect;
use super::{LogWorld, SlotVotes, vote_part};
use crate::NegativeControl;
use crate::check::Property;
use paros_core::log::{Entry, LogEnvelope, LogMessage, Slot};
use paros_core::{Ballot, NodeId, NodeSet, Quorums};
use std::sync::Arc;

impl LogWorld {
    /// Every (slot, ballot, entry) whose voters ever formed a Phase-2 quorum for that slot, in
    /// slot and ballot order: what is chosen, judged from the votes alone by the simulator's
    /// per-slot test (in a grid, only the slot's column counts). Agreement holds while each
    /// slot has one entry here.
    pub fn chosen_by_votes(&self) -> Vec<SlotVotes> {
        let quorums = self.quorums();
        self.knowledge
            .votes
            .iter()
            .filter(|((slot, _, _), voters)| self.chosen_in_slot(&quorums, *slot, **voters))
            .map(|(key, voters)| SlotVotes::of(key, *voters))
            .collect()
    }

    /// The first (ballot, entry) chosen in `slot` by a Phase-2 quorum of votes, if any.
    pub fn chosen_entry(&self, slot: Slot) -> Option<&SlotVotes> {
        self.knowledge.chosen.get(&slot)
    }

    /// Every vote cast so far in `slot`, in ballot order.
    pub fn votes_in(&self, slot: Slot) -> Vec<SlotVotes> {
        self.knowledge
            .votes
            .iter()
            .filter(|((voted_slot, _, _), _)| *voted_slot == slot)
            .map(|(key, voters)| SlotVotes::of(key, *voters))
            .collect()
    }

    /// The cluster's quorum system: the one paros-core's nodes use, so chosen is judged by the
    /// configured Phase-2 quorums, never by majorities unless the world runs on them.
    fn quorums(&self) -> Quorums {
        self.config.quorum_system()
    }

    /// Whether `voters` choose in `slot` under `quorums`, the world's system, read by the
    /// simulator ([`crate::quorums::chosen_in_slot`]); in the grid-decides-in-row control's
    /// world a full row decides too, where the control's grid lets it
    /// ([`crate::quorums::a_row_decides`]).
    pub(super) fn chosen_in_slot(&self, quorums: &Quorums, slot: Slot, voters: NodeSet) -> bool {
        let rows_decide = self.config.negative_control == Some(NegativeControl::GridDecidesInRow)
            && crate::quorums::a_row_decides(quorums);
        crate::quorums::chosen_in_slot(quorums, rows_decide, slot, voters)
    }

    /// A node votes when its `Accepted` (or an `AcceptedRun` naming the slot) leaves it: the entry is its accepted record for the
    /// slot at that ballot. The votes are counted by [`LogWorld::count_votes`].
    pub(super) fn record_votes(&mut self, index: usize, messages: &[LogEnvelope]) {
        let Some(node) = self.servers[index].host.node() else {
            return;
        };
        let vote_at = |slot: Slot, ballot: Ballot| {
            (node.accepts().get(&slot))
                .filter(|vote| vote.ballot == ballot)
                .map(|vote| (slot, ballot, vote.entry.clone()))
        };
        let cast: Vec<(Slot, Ballot, Entry)> = messages
            .iter()
            .flat_map(|envelope| match envelope.message {
                LogMessage::Accepted { ballot, slot } => {
                    vote_at(slot, ballot).into_iter().collect()
                }
                #[cfg(feature = "accept-batch")]
                LogMessage::AcceptedRun {
                    ballot,
                    first,
                    through,
                } => (first.0..=through.0)
                    .filter_map(|slot| vote_at(Slot(slot), ballot))
                    .collect(),
                _ => Vec::new(),
            })
            .collect();
        if !cast.is_empty() {
            let voter = node.id();
            self.effects.push(Effect::Votes { voter, cast });
        }
    }

    /// Each vote is counted toward chosen at once, and agreement is judged on the votes: no
    /// slot may ever have two entries chosen.
    pub(super) fn count_votes(&mut self, voter: NodeId, cast: Vec<(Slot, Ballot, Entry)>) {
        let quorums = self.quorums();
        for (slot, ballot, entry) in cast {
            let key = (slot, ballot, entry);
            let mut voters = self.knowledge.votes.get(&key).copied().unwrap_or_default();
            if voters.insert(voter) {
                let cast = vote_part(slot, ballot, &key.2, voter);
                self.kept_sum = self.kept_sum.wrapping_add(cast);
                Arc::make_mut(&mut self.knowledge)
                    .votes
                    .insert(key.clone(), voters);
            }
            let entry = key.2;
            if !self.chosen_in_slot(&quorums, slot, voters) {
                continue;
            }
            let now = SlotVotes {
                slot,
                ballot,
                entry,
                voters,
            };
            match self.knowledge.chosen.get(&slot) {
                None => {
                    Arc::make_mut(&mut self.knowledge).chosen.insert(slot, now);
                }
                Some(first) if first.entry != now.entry => {
                    let detail = format!(
                        "slot {slot}: {}; {}",
                        self.describe_votes(first),
                        self.describe_votes(&now)
                    );
                    self.violate(Property::Agreement, detail);
                }
                Some(_) => {}
            }
        }
    }
}

//! Batched Accepts: a leader sends a run of consecutive slots in one [`LogMessage::AcceptRun`],
//! and each acceptor answers the slots it voted in with one [`LogMessage::AcceptedRun`].
//!
//! Batching changes how Phase 2 travels, never what it decides. Each slot of a run is voted on
//! by the vote rule exactly as if it had come alone, and the leader counts each slot's votes
//! for that (slot, ballot) alone (F3). What a run saves is per message (one Accept and one
//! Accepted per node for the whole run) and per step (one chosen-through mark for every slot
//! one step learns). This is the batching Multi-Paxos deployments use under load (Paxos Made
//! Live, section 4.2: a leader "batches" several client operations into one Paxos round);
//! Raft does the same with the entries of one AppendEntries (Ongaro and Ousterhout, 2014).
//!
//! Three rules, each a named item:
//!
//! - [`joins_the_run`]: an Accept joins the open run to its node only at the same ballot, for
//!   the slot just after the run's last, while the run is shorter than the batch;
//! - [`accept_run_slots`]: the slot of each entry of a run;
//! - [`voted_runs`]: the slots an acceptor voted in, answered as runs of consecutive slots, so
//!   an AcceptedRun never names a slot it did not vote in.
//!
//! A batch of 1, the default ([`LogConfig::with_accept_batch`]), sends no run at all: every
//! message and write is as without batching. Batched, a run of one slot is a plain Accept. Batching with proxy leaders is refused
//! ([`AcceptBatchRefused::WithProxies`]): a proxy forwards and counts one slot's Accept.

use super::ColocatedNode;
use super::config::{LogConfig, window_holds_a_run};
use super::replication::chosen_by_a_recording_quorum;
use super::state::Leadership;
use crate::log::{Entry, LogMessage, Slot, SlotVote, nack_goes_to};
use crate::{Ballot, Ignored, NodeId, vote_rule};
use std::fmt;

/// Why [`LogConfig::with_accept_batch`] refused a batch size.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AcceptBatchRefused {
    /// A run carries at least one slot.
    Zero,
    /// The configuration sends its Accepts through proxy leaders, which forward and count one
    /// slot's Accept at a time (P1, P2).
    WithProxies,
    /// The batch is larger than the configuration's slot window ([`window_holds_a_run`]).
    AboveSlotWindow {
        /// The batch asked for.
        batch: usize,
        /// The configuration's slot window.
        window: u64,
    },
}

impl fmt::Display for AcceptBatchRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AcceptBatchRefused::Zero => f.write_str("an accept batch carries at least one slot"),
            AcceptBatchRefused::WithProxies => {
                f.write_str("accepts sent through proxy leaders are not batched")
            }
            AcceptBatchRefused::AboveSlotWindow { batch, window } => write!(
                f,
                "an accept batch of {batch} is larger than the slot window of {window}: \
                 every full run would lie beyond a follower's window"
            ),
        }
    }
}

impl std::error::Error for AcceptBatchRefused {}

/// The run rule: whether an Accept at `ballot` for `slot` joins an open run at `run_ballot`
/// whose `run_length` entries start at `run_first`, with runs of at most `batch` slots.
///
/// Only the next slot at the same ballot joins: a run names its slots by its first one, so a
/// gap or a second ballot in it would make it say what the leader did not propose.
pub fn joins_the_run(
    (run_ballot, run_first, run_length): (Ballot, Slot, usize),
    ballot: Ballot,
    slot: Slot,
    batch: usize,
) -> bool {
    run_ballot == ballot && run_length < batch && run_first.0 + run_length as u64 == slot.0
}

/// The slot of each entry of a run: `entries[i]` is proposed in slot `first + i`. A run never
/// passes the last slot number: entries that would lie beyond it have no slot (a node ignores
/// such a run whole, by its window, [`window_end`](crate::log::window_end)).
pub fn accept_run_slots(first: Slot, entries: &[Entry]) -> impl Iterator<Item = (Slot, &Entry)> {
    (first.0..=u64::MAX).map(Slot).zip(entries)
}

/// The slots `voted` (in increasing order) as runs of consecutive slots, `(first, through)`:
/// the AcceptedRuns that answer them. A slot the acceptor did not vote in splits the run, so
/// no answer claims a vote that was not cast.
pub fn voted_runs(voted: &[Slot]) -> Vec<(Slot, Slot)> {
    let mut runs: Vec<(Slot, Slot)> = Vec::new();
    for slot in voted {
        match runs.last_mut() {
            Some((_, through)) if through.next() == *slot => *through = *slot,
            _ => runs.push((*slot, *slot)),
        }
    }
    runs
}

impl LogConfig {
    /// This configuration with its leaders sending up to `batch` consecutive slots in one
    /// [`LogMessage::AcceptRun`]. A batch of 1 is the default: one Accept per slot, and not a
    /// run in sight. Refused for 0, with proxy leaders, and above the slot window
    /// ([`window_holds_a_run`]).
    pub fn with_accept_batch(self, batch: usize) -> Result<LogConfig, AcceptBatchRefused> {
        if batch == 0 {
            return Err(AcceptBatchRefused::Zero);
        }
        if batch > 1 && !self.proxies.is_empty() {
            return Err(AcceptBatchRefused::WithProxies);
        }
        if !window_holds_a_run(self.slot_window, batch) {
            return Err(AcceptBatchRefused::AboveSlotWindow {
                batch,
                window: self.slot_window,
            });
        }
        Ok(LogConfig {
            accept_batch: batch,
            ..self
        })
    }
}

impl ColocatedNode {
    /// Sends an Accept for `slot` to `to` as part of a run: it joins the open run to `to` if
    /// [`joins_the_run`] allows, else it opens a new one. A run of one slot travels as a plain
    /// Accept, the message an unbatched leader sends, and becomes an AcceptRun when a second
    /// slot joins it. The run's commit index is the latest the leader knew: the commit index
    /// only rises, and the run leaves after every one of its slots was proposed.
    pub(super) fn send_in_run(
        &mut self,
        to: NodeId,
        (ballot, slot, entry, commit): (Ballot, Slot, Entry, Slot),
    ) {
        let batch = self.config.accept_batch;
        if let Some(index) = self.ready.open_run(to) {
            match &mut self.ready.messages[index].message {
                LogMessage::AcceptRun {
                    ballot: run_ballot,
                    first,
                    entries,
                    commit: run_commit,
                } if joins_the_run((*run_ballot, *first, entries.len()), ballot, slot, batch) => {
                    entries.push(entry);
                    *run_commit = (*run_commit).max(commit);
                    return;
                }
                open @ LogMessage::Accept { .. } => {
                    if let LogMessage::Accept {
                        ballot: run_ballot,
                        slot: first,
                        entry: first_entry,
                        commit: run_commit,
                    } = open
                        && joins_the_run((*run_ballot, *first, 1), ballot, slot, batch)
                    {
                        let entries = vec![std::mem::replace(first_entry, Entry::Noop), entry];
                        *open = LogMessage::AcceptRun {
                            ballot,
                            first: *first,
                            entries,
                            commit: (*run_commit).max(commit),
                        };
                        return;
                    }
                }
                _ => {}
            }
        }
        let index = self.ready.messages.len();
        let accept = LogMessage::Accept {
            ballot,
            slot,
            entry,
            commit,
        };
        self.send(to, accept);
        self.ready.open_run_at(to, index);
    }

    /// Phase 2b for a run: every slot by the vote rule, as [`ColocatedNode::handle`] would an
    /// Accept of its own, with one promise raised, one commit learned, and one AcceptedRun for
    /// each run of consecutive slots voted in ([`voted_runs`]).
    ///
    /// A refused ballot gets one Nack; a slot at or below the floor is answered with the trim
    /// point (once), and a slot known chosen with another entry is not voted in. When no slot
    /// is voted in, the first reason is returned.
    pub(super) fn on_accept_run(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        first: Slot,
        entries: &[Entry],
        commit: Slot,
    ) -> Result<(), Ignored> {
        if entries.is_empty() {
            return Err(Ignored::EmptyRun);
        }
        let leader = nack_goes_to(from, ballot, self.config.proxies);
        if !vote_rule(self.acceptor.promised, ballot) {
            self.refuse(leader, ballot);
            return Ok(());
        }
        let floor = self.floor();
        if first <= floor {
            self.send_trim_point(leader, ballot);
        }
        let mut voted = Vec::with_capacity(entries.len());
        self.ready.writes.reserve(entries.len() + 2);
        let mut ignored = None;
        let run_length = entries.len() as u64;
        for (slot, entry) in accept_run_slots(first, entries) {
            if slot <= floor {
                ignored.get_or_insert(Ignored::BelowFloor);
                continue;
            }
            if (self.learner.chosen.get(&slot)).is_some_and(|chosen| chosen.entry != *entry) {
                ignored.get_or_insert(Ignored::ChosenOtherwise);
                continue;
            }
            let entry = entry.clone();
            self.vote(slot, SlotVote { ballot, entry });
            voted.push(slot);
        }
        debug_assert!(voted.len() as u64 <= run_length);
        if voted.is_empty() {
            return Err(ignored.unwrap_or(Ignored::EmptyRun));
        }
        self.follow(leader, ballot);
        self.learn_commit(ballot, commit);
        for (first, through) in voted_runs(&voted) {
            self.send(
                from,
                LogMessage::AcceptedRun {
                    ballot,
                    first,
                    through,
                },
            );
        }
        self.fill_own_stale_tail_while_leading(ballot);
        Ok(())
    }

    /// Votes for this leader's proposals in every slot from `first` through `through`; each
    /// slot a Phase-2 quorum now voted for is chosen (F2, F3: counted per slot, at this ballot),
    /// and every slot learned here raises the chosen index once. Only the proposals held in
    /// the run are visited, never every slot number it names, so the work is bounded by what
    /// the leader proposed.
    pub(super) fn on_accepted_run(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        first: Slot,
        through: Slot,
    ) -> Result<(), Ignored> {
        let Leadership::Leader(leader) = &mut self.proposer.leadership else {
            return Err(Ignored::StaleBallot);
        };
        if leader.ballot != ballot {
            return Err(Ignored::StaleBallot);
        }
        if through < first {
            return Err(Ignored::EmptyRun);
        }
        let mut counted = false;
        let mut chosen = Vec::new();
        let proposed: Vec<Slot> = (leader.proposals.range(first..=through))
            .map(|(slot, _)| *slot)
            .collect();
        for slot in proposed {
            let Some(proposal) = leader.proposals.get_mut(&slot) else {
                continue;
            };
            if !proposal.accepted_by.insert(from) {
                continue;
            }
            counted = true;
            if chosen_by_a_recording_quorum(&self.config.quorums, slot, proposal.accepted_by)
                && let Some(proposal) = leader.forget(slot)
            {
                let entry = proposal.entry;
                chosen.push((slot, SlotVote { ballot, entry }));
            }
        }
        for (slot, vote) in chosen {
            self.note_chosen(slot, vote);
        }
        self.advance_chosen_index();
        if counted {
            Ok(())
        } else {
            Err(Ignored::Duplicate)
        }
    }
}

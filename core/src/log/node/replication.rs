//! Replication and votes: a leader's Phase 2 and an acceptor's vote.
//!
//! A leader gives each new command the next slot (a retry already applied or proposed gets none),
//! sends its Accept to every node, through a proxy, or in a run, and counts the Accepteds. Rules
//! and invariants:
//!
//! - the vote rule ([`vote_rule`]): a node votes at a ballot at or above its promise, and its
//!   vote raises the promise, so no accepted record is above the promise;
//! - an Accept for a slot known chosen with another entry is never voted for;
//! - F2, recording, and F3: a slot is chosen once a Phase-2 quorum for that slot voted for the
//!   identical (slot, ballot) ([`chosen_by_a_recording_quorum`]); a leader proposes each slot
//!   once per leadership, above every slot it proposed before (the next slot only rises);
//! - P2: a proxy's announcement is learned only for this leader's own proposal at its ballot.

use super::ColocatedNode;
#[cfg(feature = "negative-controls")]
use super::controls::BrokenRule;
use super::state::Leadership;
use crate::log::{Command, Entry, LogMessage, Outcome, Slot, SlotVote, Write};
use crate::log::{nack_goes_to, proxy_for};
use crate::{Ballot, Ignored, NodeId, NodeSet, Quorums, vote_rule};

/// F2, recording: a step that makes something chosen (a leader counting Accepted votes for
/// its proposal in `slot`) is complete once a **Phase-2** quorum for that slot has voted, and
/// only with votes for the identical slot and ballot (F3).
///
/// The counterpart of [`heard_from_a_discovery_quorum`]: a Phase-2 quorum need not meet another
/// Phase-2 quorum, only every Phase-1 quorum (Flexible Paxos, section 3). In a grid only the
/// slot's own column counts ([`crate::Grid::deciding_column`]). The count is
/// [`crate::is_chosen_in_slot`], the same test the simulator judges chosen by.
///
/// [`heard_from_a_discovery_quorum`]: crate::log::heard_from_a_discovery_quorum
pub fn chosen_by_a_recording_quorum(
    quorums: &Quorums,
    slot: Slot,
    voted_at_slot_and_ballot: NodeSet,
) -> bool {
    crate::is_chosen_in_slot(quorums, slot, voted_at_slot_and_ballot)
}

impl ColocatedNode {
    /// Phase 2b, by the vote rule. A vote also raises the promise, and the sender's commit
    /// index teaches this node which of its votes are chosen.
    ///
    /// An Accept for a slot this node knows is chosen, with another entry, is never voted for:
    /// by P2b no such Accept exists at or above the chosen ballot, and learning raised the
    /// promise above every lower one ([`learning_raises_the_promise`]), so this is a defence
    /// that keeps the chosen entry in the record whatever arrives.
    pub(super) fn on_accept(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        slot: Slot,
        entry: Entry,
        commit: Slot,
    ) -> Result<(), Ignored> {
        let leader = nack_goes_to(from, ballot, self.config.proxies);
        if !vote_rule(self.acceptor.promised, ballot) {
            self.refuse(leader, ballot);
            return Ok(());
        }
        if slot <= self.floor() {
            // Below my floor: decided. Answer with what holds the decision.
            self.send_trim_point(leader, ballot);
            return Err(Ignored::BelowFloor);
        }
        if self
            .learner
            .chosen
            .get(&slot)
            .is_some_and(|chosen| chosen.entry != entry)
        {
            return Err(Ignored::ChosenOtherwise);
        }
        self.vote(slot, SlotVote { ballot, entry });
        self.follow(leader, ballot);
        self.learn_commit(ballot, commit);
        self.send(from, LogMessage::Accepted { ballot, slot });
        self.fill_own_stale_tail_while_leading(ballot);
        Ok(())
    }

    /// One vote by the vote rule, already checked: the promise rises to `vote.ballot` if it was
    /// below, and the vote is recorded and written.
    pub(super) fn vote(&mut self, slot: Slot, vote: SlotVote) {
        if self.acceptor.promised != Some(vote.ballot) {
            self.promise(vote.ballot);
        }
        self.ready.writes.push(Write::Accept(slot, vote.clone()));
        self.acceptor.accepts.insert(slot, vote);
        // A new vote at or above the promise supersedes an unknown one, as it would a known
        // one: the unknown vote was cast at or below the promise.
        self.acceptor.unknown.remove(&slot);
    }

    /// A vote for this leader's proposal; a Phase-2 quorum makes the slot chosen (F2,
    /// [`chosen_by_a_recording_quorum`]).
    ///
    /// F3: only votes for the identical (slot, ballot) are counted together. A vote at another
    /// ballot is stale, and `accepted_by` belongs to one proposal of this leadership: each slot
    /// is proposed once per leadership (the next slot only rises, and recovery proposes each
    /// slot once), and a new leadership starts with no proposals.
    pub(super) fn on_accepted(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        slot: Slot,
    ) -> Result<(), Ignored> {
        let Leadership::Leader(leader) = &mut self.proposer.leadership else {
            return Err(Ignored::StaleBallot);
        };
        if leader.ballot != ballot {
            return Err(Ignored::StaleBallot);
        }
        let proposal = leader.proposals.get_mut(&slot).ok_or(Ignored::WrongPhase)?;
        if !proposal.accepted_by.insert(from) {
            return Err(Ignored::Duplicate);
        }
        if chosen_by_a_recording_quorum(&self.config.quorums, slot, proposal.accepted_by)
            && let Some(proposal) = leader.forget(slot)
        {
            let entry = proposal.entry;
            self.learn_chosen(slot, SlotVote { ballot, entry });
        }
        Ok(())
    }

    /// A proxy's announcement (P2): `entry` is chosen in `slot` at `ballot`. Learned if it is
    /// this leader's proposal there at its ballot; a proxy forwards only what the leader sent,
    /// so any other announcement is stale.
    pub(super) fn on_slot_chosen(
        &mut self,
        ballot: Ballot,
        slot: Slot,
        entry: Entry,
    ) -> Result<(), Ignored> {
        let Leadership::Leader(leader) = &mut self.proposer.leadership else {
            return Err(Ignored::StaleBallot);
        };
        if leader.ballot != ballot {
            return Err(Ignored::StaleBallot);
        }
        let proposal = leader
            .proposals
            .get(&slot)
            .ok_or(Ignored::AlreadyAnnounced)?;
        if proposal.entry != entry {
            return Err(Ignored::NotProposed);
        }
        leader.forget(slot);
        leader.resends.remove(&slot);
        self.learn_chosen(slot, SlotVote { ballot, entry });
        Ok(())
    }

    /// A client's write: a leader gives it the next slot, unless the same request is already
    /// applied (answer at once) or already proposed (wait for it).
    pub(super) fn on_client_write(&mut self, command: Command) {
        let (client, seq) = (command.client, command.seq);
        let already_applied = self.learner.store.applied_seq(client) >= seq;
        let commit = self.learner.chosen_index;
        let Leadership::Leader(leader) = &mut self.proposer.leadership else {
            let hint = self.proposer.leader_hint;
            self.send(
                client,
                LogMessage::Reply {
                    seq,
                    outcome: Outcome::NotLeader { hint },
                },
            );
            return;
        };
        if already_applied {
            self.send(
                client,
                LogMessage::Reply {
                    seq,
                    outcome: Outcome::Written,
                },
            );
            return;
        }
        let already_proposed = leader.proposed(client, seq);
        let accept = (!already_proposed).then(|| {
            let slot = leader.next_slot;
            leader.next_slot = slot.next();
            leader.propose(slot, Entry::from(command), commit)
        });
        self.awaiting.insert((client, seq));
        if let Some(accept) = accept {
            self.send_accept(accept);
        }
    }

    /// Sends a leader's Accept: through the slot's proxy when the cluster has proxies
    /// ([`proxy_for`]), in runs to every node when it batches its Accepts
    /// ([`LogConfig::with_accept_batch`]), else to every node.
    pub(super) fn send_accept(&mut self, accept: LogMessage) {
        let proxy = match &accept {
            LogMessage::Accept { slot, .. } => proxy_for(self.config.proxies, *slot, 0),
            _ => None,
        };
        match proxy {
            Some(proxy) => self.send(proxy, accept),
            #[cfg(feature = "accept-batch")]
            None if self.config.batches_accepts() => {
                for to in self.config.nodes.iter() {
                    self.send_or_join_run(to, accept.clone());
                }
            }
            None => self.broadcast(accept),
        }
    }

    /// Sends `message` to `to`; an Accept joins a run instead when Accepts are batched
    /// ([`ColocatedNode::send_in_run`]).
    pub(super) fn send_or_join_run(&mut self, to: NodeId, message: LogMessage) {
        match message {
            #[cfg(feature = "accept-batch")]
            LogMessage::Accept {
                ballot,
                slot,
                entry,
                commit,
            } if self.config.batches_accepts() => {
                self.send_in_run(to, (ballot, slot, entry, commit));
            }
            message => self.send(to, message),
        }
    }

    /// [`BrokenRule::NewValueSameBallot`]: whether this leader's resends carry a new value.
    pub(super) fn resends_a_new_value(&self) -> bool {
        #[cfg(feature = "negative-controls")]
        if self.breaks(BrokenRule::NewValueSameBallot) {
            return true;
        }
        false
    }
}

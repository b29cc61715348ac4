//! What an action changes in an Act I world, worked out before anything changes
//! ([`Change`]): [`DecreeWorld::apply`] commits it, and [`DecreeWorld::successor_fingerprint`]
//! hashes the successor from it alone.

use super::config::Role;
use super::renaming::Renaming;
use super::symmetry::{acceptor_image, message_image, proposer_image, vote_image};
use super::world::{BallotVotes, DecreeAction, DecreeWorld, Part, vote_part};
use crate::faults::{Budget, Fault, Refused};
use crate::fingerprint::{part, swap};
use crate::network::{MessageId, Network};
use paros_core::{Acceptor, Ballot, Envelope, Ignored, Majority, Message, NodeId, NodeSet};
use paros_core::{Proposer, Value};
use std::ops::Range;
use std::sync::Arc;

/// What one action changes in a world.
#[derive(Debug)]
pub(super) struct Change {
    /// The message taken out of flight: delivered or dropped.
    taken: Option<MessageId>,
    /// The messages a proposer's step puts in flight, in send order.
    sent: Vec<Envelope>,
    /// The one message an acceptor's reply or a duplicate puts in flight. Apart from `sent`
    /// because most steps send exactly one message, and a `Vec` of one would cost an
    /// allocation for every transition the explorer hashes.
    single: Option<Envelope>,
    /// The acceptor that stepped, by index, in its new state.
    acceptor: Option<(usize, Acceptor)>,
    /// The proposer that stepped, by index, in its new state.
    proposer: Option<(usize, Proposer<Majority>)>,
    /// The retries left to the proposer that retried, by index.
    retries_left: Option<(usize, u32)>,
    /// The fault the action spends from the world's budget, if any (checked: one is left).
    spent: Option<Fault>,
    /// A vote the history has not counted yet.
    vote: Option<CastVote>,
    /// The value a proposer learned is chosen, for the step's `learned`.
    pub(super) learned: Option<(NodeId, Value)>,
    /// Why the receiver took no step, for the step's `ignored`.
    pub(super) ignored: Option<Ignored>,
}

impl Change {
    /// Records that the change spends one `fault`, or refuses if `budget_left` has none.
    fn spend(&mut self, budget_left: Budget, fault: Fault) -> Result<(), Refused> {
        if !budget_left.allows(fault) {
            return Err(Refused::BudgetSpent(fault));
        }
        self.spent = Some(fault);
        Ok(())
    }

    /// The messages this change puts in flight, in send order.
    pub(super) fn sent(&self) -> impl Iterator<Item = &Envelope> {
        self.single.iter().chain(&self.sent)
    }

    /// A change that, so far, changes nothing.
    fn keeping() -> Change {
        Change {
            taken: None,
            sent: Vec::new(),
            single: None,
            acceptor: None,
            proposer: None,
            retries_left: None,
            spent: None,
            vote: None,
            learned: None,
            ignored: None,
        }
    }
}

/// One acceptor's vote at one ballot, as the history records it.
#[derive(Debug)]
struct CastVote {
    voter: NodeId,
    ballot: Ballot,
    value: Value,
}

impl DecreeWorld {
    /// What `action` would change, worked out against this world without changing it.
    pub(super) fn change(&self, action: &DecreeAction) -> Result<Change, Refused> {
        let mut change = Change::keeping();
        match *action {
            DecreeAction::Deliver(id) => {
                let envelope = self.deliverable(id)?;
                change.taken = Some(id);
                self.receive(&envelope, &mut change);
            }
            DecreeAction::Drop(id) => {
                self.network.deliverable(id)?;
                change.spend(self.budget_left, Fault::Drop)?;
                change.taken = Some(id);
            }
            DecreeAction::Duplicate(id) => {
                let envelope = self.deliverable(id)?;
                change.spend(self.budget_left, Fault::Duplicate)?;
                change.single = Some(envelope);
            }
            DecreeAction::Start(node) => {
                let index = self.proposer_index(node)?;
                if self.proposers[index].ballot().is_some() {
                    return Err(Refused::AlreadyStarted(node));
                }
                let mut proposer = self.proposers[index].clone();
                change.sent = proposer.start();
                change.proposer = Some((index, proposer));
            }
            DecreeAction::Retry(node) => self.retry(node, &mut change)?,
            DecreeAction::Amnesia(node) => {
                let Some(Role::Acceptor(index)) = self.role(node) else {
                    return Err(Refused::NoSuchNode(node));
                };
                change.spend(self.budget_left, Fault::Amnesia)?;
                change.acceptor = Some((index, Acceptor::new(node)));
            }
        }
        Ok(change)
    }

    /// The message `id`, unpacked, if the network can deliver it.
    fn deliverable(&self, id: MessageId) -> Result<Envelope, Refused> {
        let stored = self.network.deliverable(id)?;
        Ok(stored.envelope.unpack(&self.config.proposers))
    }

    /// A started proposer that has not learned begins Phase 1 again, spending a retry.
    fn retry(&self, node: NodeId, change: &mut Change) -> Result<(), Refused> {
        let index = self.proposer_index(node)?;
        let proposer = &self.proposers[index];
        if proposer.ballot().is_none() || proposer.learned().is_some() {
            return Err(Refused::NothingToRetry(node));
        }
        let mut retries_left = Budget::NONE.with(Fault::Retry, self.retries_left[index]);
        retries_left.spend(Fault::Retry)?;
        let mut proposer = proposer.clone();
        change.sent = proposer.retry();
        change.proposer = Some((index, proposer));
        change.retries_left = Some((index, retries_left.left(Fault::Retry)));
        Ok(())
    }

    /// The receiver of `envelope` steps: its new state, its replies and any vote go in `change`.
    fn receive(&self, envelope: &Envelope, change: &mut Change) {
        match self.role(envelope.to) {
            Some(Role::Acceptor(index)) => {
                let mut acceptor = self.acceptors[index].clone();
                match acceptor.handle(envelope) {
                    Ok(reply) => {
                        change.vote = self.new_vote(&reply);
                        change.single = Some(reply);
                        change.acceptor = Some((index, acceptor));
                    }
                    Err(ignored) => change.ignored = Some(ignored),
                }
            }
            Some(Role::Proposer(index)) => {
                let mut proposer = self.proposers[index].clone();
                let learned_before = proposer.learned().is_some();
                match proposer.handle(envelope) {
                    Ok(sent) => {
                        if !learned_before && let Some(value) = proposer.learned() {
                            change.learned = Some((proposer.id(), value.clone()));
                        }
                        change.sent = sent;
                        change.proposer = Some((index, proposer));
                    }
                    Err(ignored) => change.ignored = Some(ignored),
                }
            }
            None => change.ignored = Some(Ignored::UnknownSender),
        }
    }

    /// The vote `reply` casts, if it is an Accepted from a voter not yet counted at its ballot.
    fn new_vote(&self, reply: &Envelope) -> Option<CastVote> {
        let Message::Accepted { ballot, value } = &reply.message else {
            return None;
        };
        let counted = match self.ballot_votes(*ballot) {
            Ok(at) => self.votes[at].voters.contains(reply.from),
            Err(_) => false,
        };
        (!counted).then(|| CastVote {
            voter: reply.from,
            ballot: *ballot,
            value: value.clone(),
        })
    }

    /// This world's fingerprint with the parts `change` replaces swapped for their new values.
    pub(super) fn fingerprint_after(&self, change: &Change) -> u64 {
        let mut sum = self.fingerprint();
        if let Some(id) = change.taken {
            let taken = self.network.get(id).expect("checked deliverable");
            sum = swap(sum, Network::message_part(&taken.envelope), 0);
        }
        for envelope in change.sent() {
            sum = swap(sum, 0, Network::message_part(&self.pack(envelope)));
        }
        if let Some((index, acceptor)) = &change.acceptor {
            let at = Part::Acceptor(*index);
            sum = swap(sum, part(at, &self.acceptors[*index]), part(at, acceptor));
        }
        if let Some((index, proposer)) = &change.proposer {
            let at = Part::Proposer(*index);
            sum = swap(sum, part(at, &self.proposers[*index]), part(at, proposer));
        }
        if let Some((index, left)) = change.retries_left {
            let at = Part::Retries(index);
            sum = swap(sum, part(at, &self.retries_left[index]), part(at, &left));
        }
        if let Some(fault) = change.spent {
            let mut after = self.budget_left;
            after
                .spend(fault)
                .expect("checked when the change was worked out");
            let old = part(Part::Budget, &self.budget_left);
            sum = swap(sum, old, part(Part::Budget, &after));
        }
        if let Some(vote) = &change.vote {
            sum = swap(sum, 0, vote_part(vote.voter, vote.ballot, &vote.value));
        }
        sum
    }

    /// Swaps, in each of `images` (this world's image fingerprints, one per renaming), the
    /// parts `change` replaces for their new values, renamed.
    pub(super) fn images_after(&self, change: &Change, images: &mut [u64]) {
        let renamings = &self.renamings[..images.len()];
        if let Some(id) = change.taken {
            let taken = self.network.get(id).expect("checked deliverable").envelope;
            swap_in_each(images, renamings, |renaming| {
                (message_image(renaming, &taken), 0)
            });
        }
        for envelope in change.sent() {
            let sent = self.pack(envelope);
            swap_in_each(images, renamings, |renaming| {
                (0, message_image(renaming, &sent))
            });
        }
        if let Some((index, acceptor)) = &change.acceptor {
            let old = &self.acceptors[*index];
            swap_in_each(images, renamings, |renaming| {
                let image = |acceptor| acceptor_image(renaming, *index, acceptor);
                (image(old), image(acceptor))
            });
        }
        if let Some((index, proposer)) = &change.proposer {
            let old = &self.proposers[*index];
            swap_in_each(images, renamings, |renaming| {
                let image = |proposer| proposer_image(renaming, *index, proposer);
                (image(old), image(proposer))
            });
        }
        if let Some(vote) = &change.vote {
            swap_in_each(images, renamings, |renaming| {
                (
                    0,
                    vote_image(renaming, vote.voter, vote.ballot, &vote.value),
                )
            });
        }
        let (old, new) = self.unrenamed_parts_changed(change);
        swap_in_each(images, renamings, |_| (old, new));
    }

    /// The hashes of the parts `change` replaces that no renaming touches (retries and
    /// budgets), before and after, each summed.
    fn unrenamed_parts_changed(&self, change: &Change) -> (u64, u64) {
        let (mut old, mut new) = (0u64, 0u64);
        if let Some((index, left)) = change.retries_left {
            let at = Part::Retries(index);
            old = old.wrapping_add(part(at, &self.retries_left[index]));
            new = new.wrapping_add(part(at, &left));
        }
        if let Some(fault) = change.spent {
            let mut after = self.budget_left;
            after
                .spend(fault)
                .expect("checked when the change was worked out");
            old = old.wrapping_add(part(Part::Budget, &self.budget_left));
            new = new.wrapping_add(part(Part::Budget, &after));
        }
        (old, new)
    }

    /// Makes `change` happen; returns the ids of the messages it sent, which are consecutive.
    pub(super) fn commit(&mut self, change: Change) -> Range<u32> {
        if let Some(id) = change.taken {
            self.network.take(id);
        }
        if let Some((index, acceptor)) = change.acceptor {
            put(&mut self.acceptors, index, acceptor);
        }
        if let Some((index, proposer)) = change.proposer {
            put(&mut self.proposers, index, proposer);
        }
        if let Some((index, left)) = change.retries_left {
            put(&mut self.retries_left, index, left);
        }
        if let Some(fault) = change.spent {
            (self.budget_left.spend(fault)).expect("checked when the change was worked out");
        }
        if let Some(vote) = change.vote {
            self.record_vote(vote);
        }
        let first = self.network.next_id().0;
        for envelope in change.single.into_iter().chain(change.sent) {
            let packed = self.pack(&envelope);
            self.network.send(packed);
        }
        first..self.network.next_id().0
    }

    /// Where the votes of `ballot` are in the history, or where they would go.
    fn ballot_votes(&self, ballot: Ballot) -> Result<usize, usize> {
        (self.votes).binary_search_by_key(&ballot, |votes| votes.ballot)
    }

    fn record_vote(&mut self, vote: CastVote) {
        match self.ballot_votes(vote.ballot) {
            Ok(at) => {
                debug_assert_eq!(self.votes[at].value, vote.value, "one value per ballot");
                Arc::make_mut(&mut self.votes)[at].voters.insert(vote.voter);
            }
            Err(at) => {
                let mut voters = NodeSet::EMPTY;
                voters.insert(vote.voter);
                let votes = BallotVotes {
                    ballot: vote.ballot,
                    value: vote.value,
                    voters,
                };
                Arc::make_mut(&mut self.votes).insert(at, votes);
            }
        }
    }
}

/// Swaps, in the image fingerprint under each renaming, the old and new hashes `hash` gives.
#[inline]
fn swap_in_each(
    images: &mut [u64],
    renamings: &[Renaming],
    hash: impl Fn(&Renaming) -> (u64, u64),
) {
    for (image, renaming) in images.iter_mut().zip(renamings) {
        let (old, new) = hash(renaming);
        *image = swap(*image, old, new);
    }
}

/// Puts `new` at `index` of a list shared between worlds: in place when this world is the
/// list's only holder, else in a new list that copies only the other entries.
fn put<T: Clone>(list: &mut Arc<Vec<T>>, index: usize, new: T) {
    if let Some(owned) = Arc::get_mut(list) {
        owned[index] = new;
        return;
    }
    let mut new = Some(new);
    let copy = list.iter().enumerate().map(|(at, old)| match at == index {
        true => new.take().expect("one entry at index"),
        false => old.clone(),
    });
    *list = Arc::new(copy.collect());
}

//! [`DecreeWorld`]: paros-core's acceptors and proposers, the [`Network`] between them, and
//! the faults allowed.
//!
//! Act I's world is single-decree Paxos: acceptors A1..An and proposers P1..Pm, no clock and no
//! storage. A partition is a message nobody delivers; a silent acceptor is one whose wire is
//! cut, so nothing to or from it can be delivered.
//!
//! This file holds the world's state, what is enabled in it, and how an action is applied;
//! `change` works out what an action changes before anything does (so the explorer can hash a
//! successor without building it), and `names` says it all as players read it.

use super::config::{DecreeWorldConfig, Role, rogue_value};
use super::renaming::{MAX_RENAMINGS, Renaming, orbit, renamings};
use super::wire::PackedEnvelope;
use crate::faults::{Budget, Fault, NegativeControl, Refused};
use crate::fingerprint::part;
use crate::network::{MessageAction, MessageId, Network, Route, Verb};
use paros_core::{Acceptor, Ballot, Envelope, Ignored, Majority, NodeId, NodeSet, Proposer, Value};
use std::sync::Arc;

/// Everything that can happen to an Act I world. Each prints as it reads;
/// [`DecreeWorld::describe`](crate::model::Model::describe) adds the message it touches.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum DecreeAction {
    /// Hand a message to its receiver, which steps.
    Deliver(MessageId),
    /// Lose a message (a fault; spends a drop).
    Drop(MessageId),
    /// Put a second copy of a message in flight (a fault; spends a duplicate).
    Duplicate(MessageId),
    /// An idle proposer begins Phase 1.
    Start(NodeId),
    /// A started proposer begins Phase 1 again at a higher ballot (spends a retry).
    Retry(NodeId),
    /// Negative control only: an acceptor forgets its promise and vote.
    Amnesia(NodeId),
}

impl MessageAction for DecreeAction {
    fn on_message(verb: Verb, id: MessageId) -> DecreeAction {
        match verb {
            Verb::Deliver => DecreeAction::Deliver(id),
            Verb::Drop => DecreeAction::Drop(id),
            Verb::Duplicate => DecreeAction::Duplicate(id),
        }
    }

    fn message(&self) -> Option<(Verb, MessageId)> {
        match *self {
            DecreeAction::Deliver(id) => Some((Verb::Deliver, id)),
            DecreeAction::Drop(id) => Some((Verb::Drop, id)),
            DecreeAction::Duplicate(id) => Some((Verb::Duplicate, id)),
            DecreeAction::Start(_) | DecreeAction::Retry(_) | DecreeAction::Amnesia(_) => None,
        }
    }
}

/// What one applied action did.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct DecreeStep {
    /// The messages the action put in flight, in send order.
    pub sent: Vec<MessageId>,
    /// The value a proposer learned is chosen at this step, if any.
    pub learned: Option<(NodeId, Value)>,
    /// Why the receiver of a delivered message took no step, if it did not.
    pub ignored: Option<Ignored>,
}

/// The votes cast at one ballot, over the whole run: the history the agreement checker needs,
/// since an acceptor's record keeps only its latest vote.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct BallotVotes {
    /// The ballot.
    pub ballot: Ballot,
    /// The one value sent at this ballot.
    pub value: Value,
    /// Every acceptor that ever voted at this ballot.
    pub voters: NodeSet,
}

/// A world of single-decree Paxos: nodes, network, budgets and the history of votes.
#[derive(Clone, Debug)]
pub struct DecreeWorld {
    pub(super) config: Arc<DecreeWorldConfig>,
    /// Shared with the worlds this one was cloned from until one of them changes it: a step
    /// changes one or two parts of a world, and the explorer builds a world per state it visits.
    pub(super) acceptors: Arc<Vec<Acceptor>>,
    /// Shared until changed, as `acceptors`.
    pub(super) proposers: Arc<Vec<Proposer<Majority>>>,
    /// The messages in flight, packed: a copy of the network copies them byte for byte.
    pub(super) network: Network<PackedEnvelope>,
    /// Drops, duplicates and amnesia left (retries are counted per proposer, below).
    pub(super) budget_left: Budget,
    /// Retries left, per proposer.
    pub(super) retries_left: Arc<Vec<u32>>,
    /// Invariant: in ascending ballot order, one entry per ballot that received a vote.
    pub(super) votes: Arc<Vec<BallotVotes>>,
    /// The fingerprint, when this world keeps it. Invariant: when set, it equals
    /// [`DecreeWorld::fingerprint_from_scratch`]. A new world and every world built by
    /// [`Model::successor`](crate::model::Model::successor) (the explorer's) keep it, worked out from their parent's; `apply`
    /// drops it, so a walk that never asks for it (the simulator's) does not pay for hashing.
    pub(super) kept_fingerprint: Option<u64>,
    /// The renamings of acceptors this world declares as its symmetries, the identity first.
    pub(super) renamings: Arc<[Renaming]>,
    /// The image fingerprint under each renaming, when this world keeps them (see
    /// [`DecreeWorld::keeping_images`]). Invariant: when set, it equals
    /// [`DecreeWorld::images_from_scratch`]. Kept as `kept_fingerprint` is, but only from a
    /// world that keeps them.
    pub(super) kept_images: Option<Box<[u64]>>,
}

/// The parts of a world the fingerprint hashes one by one (the network hashes its own): a
/// part's kind and position tag its hash, so the same state in two places hashes differently.
#[derive(Clone, Copy, Hash)]
pub(super) enum Part {
    Acceptor(usize),
    Proposer(usize),
    Retries(usize),
    Budget,
    Vote,
}

/// The hash of one vote in the history.
pub(super) fn vote_part(voter: NodeId, ballot: Ballot, value: &Value) -> u64 {
    part(Part::Vote, &(voter, ballot, value))
}

impl DecreeWorld {
    /// The world at its beginning: started proposers have sent their Prepares.
    pub fn new(config: DecreeWorldConfig) -> Result<DecreeWorld, Refused> {
        config.validate()?;
        let acceptor_set = config.acceptors();
        let quorums = Majority::new(acceptor_set).expect("at least one acceptor");
        let acceptors = acceptor_set.iter().map(Acceptor::new).collect();
        let proposers = (0..config.proposers.len())
            .map(|index| proposer(&config, index, quorums))
            .collect();
        let retries = config.budget.left(Fault::Retry);
        let mut world = DecreeWorld {
            retries_left: Arc::new(vec![retries; config.proposers.len()]),
            budget_left: config.budget.with(Fault::Retry, 0),
            network: Network::new(acceptor_set, config.silent),
            renamings: renamings(&config).into(),
            config: Arc::new(config),
            acceptors: Arc::new(acceptors),
            proposers: Arc::new(proposers),
            votes: Arc::new(Vec::new()),
            kept_fingerprint: None,
            kept_images: None,
        };
        for index in 0..world.proposers.len() {
            if world.config.proposers[index].started {
                let sent = Arc::make_mut(&mut world.proposers)[index].start();
                for envelope in sent {
                    let packed = world.pack(&envelope);
                    world.network.send(packed);
                }
            }
        }
        world.kept_fingerprint = Some(world.fingerprint_from_scratch());
        Ok(world)
    }

    /// The configuration this world was built from.
    pub fn config(&self) -> &DecreeWorldConfig {
        &self.config
    }

    /// The acceptors, A1 first.
    pub fn acceptors(&self) -> &[Acceptor] {
        &self.acceptors
    }

    /// The proposers, P1 first.
    pub fn proposers(&self) -> &[Proposer<Majority>] {
        &self.proposers
    }

    /// The messages in flight, in send order, unpacked.
    pub fn in_flight(&self) -> Vec<InFlight> {
        (self.network.in_flight().iter())
            .map(|stored| self.unpack(stored.id, &stored.envelope))
            .collect()
    }

    /// The network: what is in flight, and what is cut off.
    pub fn network(&self) -> &Network<impl Route> {
        &self.network
    }

    /// The message with this id, if it is in flight.
    pub fn message(&self, id: MessageId) -> Option<InFlight> {
        (self.network.get(id)).map(|stored| self.unpack(id, &stored.envelope))
    }

    fn unpack(&self, id: MessageId, envelope: &PackedEnvelope) -> InFlight {
        InFlight {
            id,
            envelope: envelope.unpack(&self.config.proposers),
        }
    }

    pub(super) fn pack(&self, envelope: &Envelope) -> PackedEnvelope {
        PackedEnvelope::pack(envelope, &self.config.proposers)
    }

    /// The faults and retries still allowed; the retries are the most any proposer has left
    /// (each proposer's are in [`DecreeWorld::retries_left`]).
    pub fn budget_left(&self) -> Budget {
        let retries = self.retries_left.iter().copied().max().unwrap_or(0);
        self.budget_left.with(Fault::Retry, retries)
    }

    /// The retries each proposer has left, P1 first.
    pub fn retries_left(&self) -> &[u32] {
        &self.retries_left
    }

    /// Every ballot that received a vote, with its value and every acceptor that voted for it.
    pub fn votes(&self) -> &[BallotVotes] {
        &self.votes
    }

    /// The values chosen so far, by the [chosen check](paros_core::is_chosen) over the votes of
    /// the whole run: a ballot whose voters ever formed a Phase-2 quorum. Lowest ballot first.
    pub fn chosen(&self) -> Vec<&BallotVotes> {
        let quorums = Majority::new(self.config.acceptors()).expect("validated");
        self.votes
            .iter()
            .filter(|votes| paros_core::is_chosen(&quorums, votes.voters))
            .collect()
    }

    /// The role and index of a node.
    pub fn role(&self, node: NodeId) -> Option<Role> {
        let number = usize::from(node.get());
        let acceptor_count = usize::from(self.config.acceptor_count);
        if number <= acceptor_count {
            Some(Role::Acceptor(number - 1))
        } else if number - acceptor_count <= self.proposers.len() {
            Some(Role::Proposer(number - acceptor_count - 1))
        } else {
            None
        }
    }

    pub(super) fn proposer_index(&self, node: NodeId) -> Result<usize, Refused> {
        match self.role(node) {
            Some(Role::Proposer(index)) => Ok(index),
            _ => Err(Refused::NoSuchNode(node)),
        }
    }

    /// A 64-bit fingerprint of everything the future of this world depends on: every node's
    /// state, the messages in flight, the budgets left and the history of votes.
    ///
    /// It is the wrapping sum of one hash per part (see [`DecreeWorld::fingerprint_from_scratch`]),
    /// so a successor's fingerprint costs only the parts one action changes. Free to read in a
    /// world that keeps it (see [`Model::successor`](crate::model::Model::successor)); computed from every part in one that
    /// does not.
    pub fn fingerprint(&self) -> u64 {
        (self.kept_fingerprint).unwrap_or_else(|| self.fingerprint_from_scratch())
    }

    /// The fingerprint computed from every part, as [`DecreeWorld::fingerprint`] must equal
    /// ([`crate::fingerprint`]): each acceptor, each proposer, the network (the multiset of
    /// messages in flight), the fault budgets, each proposer's retries left, and each vote ever
    /// cast (ballot, value and voter). The configuration is left out because it is constant
    /// for the life of a world.
    pub fn fingerprint_from_scratch(&self) -> u64 {
        let acceptors = (self.acceptors.iter().enumerate())
            .map(|(index, acceptor)| part(Part::Acceptor(index), acceptor));
        let proposers = (self.proposers.iter().enumerate())
            .map(|(index, proposer)| part(Part::Proposer(index), proposer));
        let retries = (self.retries_left.iter().enumerate())
            .map(|(index, left)| part(Part::Retries(index), left));
        let votes = self.votes.iter().flat_map(|votes| {
            (votes.voters.iter()).map(|voter| vote_part(voter, votes.ballot, &votes.value))
        });
        acceptors.chain(proposers).chain(retries).chain(votes).fold(
            part(Part::Budget, &self.budget_left)
                .wrapping_add(self.network.fingerprint_from_scratch()),
            u64::wrapping_add,
        )
    }

    /// Every action that [`Model::apply`](crate::model::Model::apply) would accept now, in a stable order: the network's
    /// actions on each message, then each proposer's start or retry, then amnesia.
    pub fn enabled(&self) -> Vec<DecreeAction> {
        // At most three actions per message and one per node: one allocation, never a regrowth.
        let nodes = self.acceptors.len() + self.proposers.len();
        let mut actions = Vec::with_capacity(3 * self.network.in_flight().len() + nodes);
        self.network
            .enabled(&self.budget_left, |_| false, &mut actions);
        for (index, proposer) in self.proposers.iter().enumerate() {
            if proposer.ballot().is_none() {
                actions.push(DecreeAction::Start(proposer.id()));
            } else if self.retries_left[index] > 0 && proposer.learned().is_none() {
                actions.push(DecreeAction::Retry(proposer.id()));
            }
        }
        if self.budget_left.allows(Fault::Amnesia) {
            actions.extend(
                self.acceptors
                    .iter()
                    .map(|acceptor| DecreeAction::Amnesia(acceptor.id())),
            );
        }
        actions
    }

    /// Applies one action. A refused action leaves the world unchanged.
    pub fn apply(&mut self, action: &DecreeAction) -> Result<DecreeStep, Refused> {
        let change = self.change(action)?;
        let learned = change.learned.clone();
        let ignored = change.ignored;
        self.kept_fingerprint = None;
        self.kept_images = None;
        let sent = self.commit(change);
        Ok(DecreeStep {
            sent: sent.map(MessageId).collect(),
            learned,
            ignored,
        })
    }

    /// The world `action` leads to, built beside this one, which is left unchanged. It keeps
    /// its fingerprint, worked out from this world's and the parts the action changes.
    pub fn successor(&self, action: &DecreeAction) -> Result<DecreeWorld, Refused> {
        let change = self.change(action)?;
        let fingerprint = self.fingerprint_after(&change);
        let images = (self.kept_images.as_deref()).map(|images| {
            let mut after: Box<[u64]> = images.into();
            self.images_after(&change, &mut after);
            after
        });
        let mut successor = DecreeWorld {
            config: Arc::clone(&self.config),
            acceptors: Arc::clone(&self.acceptors),
            proposers: Arc::clone(&self.proposers),
            network: self.network.clone_with_room(change.sent().count()),
            budget_left: self.budget_left,
            retries_left: Arc::clone(&self.retries_left),
            votes: Arc::clone(&self.votes),
            kept_fingerprint: None,
            renamings: Arc::clone(&self.renamings),
            kept_images: None,
        };
        successor.commit(change);
        successor.kept_fingerprint = Some(fingerprint);
        debug_assert_eq!(fingerprint, successor.fingerprint_from_scratch());
        debug_assert!(
            (images.as_deref()).is_none_or(|images| *images == *successor.images_from_scratch())
        );
        successor.kept_images = images;
        Ok(successor)
    }

    /// The orbit fingerprint of the world `action` leads to, worked out without building that
    /// world when this one keeps its image fingerprints (each swapped for the parts the action
    /// changes, renamed), else from the successor built.
    pub fn successor_orbit_fingerprint(&self, action: &DecreeAction) -> Result<u64, Refused> {
        let Some(images) = self.kept_images.as_deref() else {
            return Ok(self.successor(action)?.orbit_fingerprint());
        };
        let change = self.change(action)?;
        let mut after = [0; MAX_RENAMINGS];
        let after = &mut after[..images.len()];
        after.copy_from_slice(images);
        self.images_after(&change, after);
        Ok(orbit(after))
    }

    /// The fingerprint of the world `action` leads to, worked out without building that world:
    /// this world's fingerprint with the parts the action changes swapped. The explorer calls
    /// it for every transition and builds a successor only when it is new.
    pub fn successor_fingerprint(&self, action: &DecreeAction) -> Result<u64, Refused> {
        let change = self.change(action)?;
        Ok(self.fingerprint_after(&change))
    }
}

/// Proposer `index` as the world starts it: with its own value, counting majorities of every
/// acceptor. The one place Act I's negative controls that corrupt a proposer act, on P1 only:
/// with `RogueValue` it proposes [`rogue_value`], a value nobody proposed; with `LearnEarly`
/// it counts A1 alone as a quorum, so it learns from one Accepted.
fn proposer(config: &DecreeWorldConfig, index: usize, quorums: Majority) -> Proposer<Majority> {
    let id = config.proposer_id(index);
    let value = config.proposers[index].value.clone();
    match config.negative_control {
        Some(NegativeControl::RogueValue) if index == 0 => {
            Proposer::new(id, quorums, rogue_value())
        }
        Some(NegativeControl::LearnEarly) if index == 0 => {
            let a1 = [config.acceptor_id(0)].into_iter().collect();
            Proposer::new(id, Majority::new(a1).expect("one acceptor"), value)
        }
        _ => Proposer::new(id, quorums, value),
    }
}

/// A message on the wire, unpacked, with its id, as [`DecreeWorld::in_flight`] and
/// [`DecreeWorld::message`] hand it out.
pub type InFlight = crate::network::InFlight<Envelope>;

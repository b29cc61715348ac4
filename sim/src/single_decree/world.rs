//! The World: paros-core's nodes, the network between them, and the faults allowed.
//!
//! Act I's world is single-decree Paxos: acceptors A1..An and proposers P1..Pm, no clock and no
//! storage. A partition is a message nobody delivers; a silent acceptor is one whose wire is
//! cut, so nothing to or from it can be delivered.

use super::wire::PackedEnvelope;
use paros_core::{
    Acceptor, Ballot, Envelope, Ignored, Majority, Message, NodeId, NodeSet, Proposer, Value,
};
use std::fmt;
use std::hash::{BuildHasher, Hash};
use std::ops::Range;
use std::str::FromStr;
use std::sync::Arc;

/// The fingerprint's hasher: fast on small writes, well mixed, and seeded with a constant.
const FINGERPRINT: foldhash::quality::FixedState =
    foldhash::quality::FixedState::with_seed(0x7061_726f_735f_7369);

/// The id of a message in flight: stable for its life, assigned in send order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct MessageId(pub u32);

impl fmt::Display for MessageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "m{}", self.0)
    }
}

/// A message on the wire, with its id, as [`World::in_flight`] and [`World::message`] hand
/// it out.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct InFlight {
    /// The message's id.
    pub id: MessageId,
    /// Sender, receiver and message.
    pub envelope: Envelope,
}

/// A message in flight as the world stores it: packed into plain numbers, so that copying a
/// world copies its messages byte for byte.
#[derive(Clone, Copy, Debug)]
struct Stored {
    id: MessageId,
    envelope: PackedEnvelope,
}

/// How many faults (and retries) a world may still use. Budgets keep worlds finite, so the
/// explorer can finish them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Budget {
    /// Messages that may be dropped.
    pub drops: u32,
    /// Messages that may be duplicated.
    pub duplicates: u32,
    /// Retries each proposer may make (a retry raises its ballot; without a bound a duel's
    /// ballots grow forever).
    pub retries_per_proposer: u32,
    /// Amnesia faults; only a [`NegativeControl::Amnesia`] world may have any.
    pub amnesia: u32,
}

/// A fault outside the model, used only to prove that the checkers can fail.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum NegativeControl {
    /// An acceptor forgets its promise and its vote, as if its disk were lost and it rejoined as
    /// new. Paxos cannot survive this; the agreement checker must catch it.
    Amnesia,
}

/// One proposer of the world.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ProposerConfig {
    /// The value it wants chosen.
    pub value: Value,
    /// Whether it has sent its Prepares when the world begins.
    pub started: bool,
}

/// What a world is made of. Constant for the life of a world.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct WorldConfig {
    /// How many acceptors: A1..An, with node ids 1..=n.
    pub acceptor_count: u8,
    /// The proposers: P1..Pm, with node ids n+1..=n+m, so P2's ballots rank above P1's in the
    /// same round.
    pub proposers: Vec<ProposerConfig>,
    /// Acceptors whose wire is cut: messages to and from them stay in flight forever.
    pub silent: NodeSet,
    /// The faults and retries allowed.
    pub budget: Budget,
    /// The fault outside the model this world may use, if it is a negative control.
    pub negative_control: Option<NegativeControl>,
}

impl WorldConfig {
    /// Three acceptors and one proposer per value, all started, with no faults allowed.
    pub fn act1(values: &[&str]) -> WorldConfig {
        WorldConfig {
            acceptor_count: 3,
            proposers: values
                .iter()
                .map(|value| ProposerConfig {
                    value: Value::new(value),
                    started: true,
                })
                .collect(),
            silent: NodeSet::EMPTY,
            budget: Budget::default(),
            negative_control: None,
        }
    }

    /// The node id of acceptor `index` (0-based).
    pub fn acceptor_id(&self, index: usize) -> NodeId {
        node_id(index + 1)
    }

    /// The node id of proposer `index` (0-based).
    pub fn proposer_id(&self, index: usize) -> NodeId {
        node_id(usize::from(self.acceptor_count) + index + 1)
    }

    /// All acceptors.
    pub fn acceptors(&self) -> NodeSet {
        (0..usize::from(self.acceptor_count))
            .map(|index| self.acceptor_id(index))
            .collect()
    }

    fn validate(&self) -> Result<(), Refused> {
        let node_count = usize::from(self.acceptor_count) + self.proposers.len();
        if self.acceptor_count == 0 || node_count > usize::from(NodeId::MAX) {
            return Err(Refused::BadConfig(
                "between 1 and 63 nodes, at least one acceptor",
            ));
        }
        if self.budget.amnesia > 0 && self.negative_control != Some(NegativeControl::Amnesia) {
            return Err(Refused::BadConfig(
                "amnesia exists only in the amnesia negative control",
            ));
        }
        Ok(())
    }
}

fn node_id(number: usize) -> NodeId {
    u8::try_from(number)
        .ok()
        .and_then(NodeId::new)
        .expect("validated node count")
}

/// Which role a node plays in an Act I world.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Role {
    /// Acceptor `index` (0-based), named A1, A2, ...
    Acceptor(usize),
    /// Proposer `index` (0-based), named P1, P2, ...
    Proposer(usize),
}

/// Everything that can happen to a world. Each prints as it reads; [`World::describe`] adds
/// the message it touches.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Action {
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

/// Why [`World::apply`] refused an action. The world is unchanged.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Refused {
    /// No message with this id is in flight.
    NoSuchMessage(MessageId),
    /// The message's wire is cut.
    SilentLink(MessageId),
    /// No node with this id plays the role the action needs.
    NoSuchNode(NodeId),
    /// The fault or retry budget of this kind is spent.
    BudgetSpent(&'static str),
    /// The proposer has already started.
    AlreadyStarted(NodeId),
    /// The proposer has not started, or has learned its value: there is nothing to retry.
    NothingToRetry(NodeId),
    /// The configuration is not a world this simulator can build.
    BadConfig(&'static str),
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::NoSuchMessage(id) => write!(f, "no message {id} is in flight"),
            Refused::SilentLink(id) => write!(f, "{id} is on a cut wire"),
            Refused::NoSuchNode(node) => write!(f, "no node {node} plays that role"),
            Refused::BudgetSpent(kind) => write!(f, "the {kind} budget is spent"),
            Refused::AlreadyStarted(node) => write!(f, "{node} has already started"),
            Refused::NothingToRetry(node) => write!(f, "{node} has nothing to retry"),
            Refused::BadConfig(why) => write!(f, "bad world: {why}"),
        }
    }
}

impl std::error::Error for Refused {}

/// What one applied action did.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Step {
    /// The messages the action put in flight, in send order.
    pub sent: Vec<MessageId>,
    /// The value a proposer learned is chosen at this step, if any.
    pub learned: Option<(NodeId, Value)>,
    /// Why the receiver of a delivered message took no step, if it did not.
    pub ignored: Option<Ignored>,
}

/// How many faults of each kind a world has injected so far.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct FaultCounts {
    /// Messages dropped.
    pub drops: u32,
    /// Messages duplicated.
    pub duplicates: u32,
    /// Acceptors that forgot (negative control only).
    pub amnesia: u32,
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
pub struct World {
    config: Arc<WorldConfig>,
    /// Shared with the worlds this one was cloned from until one of them changes it: a step
    /// changes one or two parts of a world, and the explorer builds a world per state it visits.
    acceptors: Arc<Vec<Acceptor>>,
    /// Shared until changed, as `acceptors`.
    proposers: Arc<Vec<Proposer<Majority>>>,
    /// Invariant: in ascending id order, which is send order.
    in_flight: Vec<Stored>,
    next_message: u32,
    budget_left: Budget,
    /// Retries left, per proposer.
    retries_left: Arc<Vec<u32>>,
    /// Invariant: in ascending ballot order, one entry per ballot that received a vote.
    votes: Arc<Vec<BallotVotes>>,
    /// The fingerprint, when this world keeps it. Invariant: when set, it equals
    /// [`World::fingerprint_from_scratch`]. A new world and every world built by
    /// [`World::successor`] (the explorer's) keep it, worked out from their parent's; `apply`
    /// drops it, so a walk that never asks for it (the simulator's) does not pay for hashing.
    kept_fingerprint: Option<u64>,
}

impl World {
    /// The world at its beginning: started proposers have sent their Prepares.
    pub fn new(config: WorldConfig) -> Result<World, Refused> {
        config.validate()?;
        let acceptor_set = config.acceptors();
        let quorums = Majority::new(acceptor_set).expect("at least one acceptor");
        let acceptors = acceptor_set.iter().map(Acceptor::new).collect();
        let proposers = config
            .proposers
            .iter()
            .enumerate()
            .map(|(index, proposer)| {
                Proposer::new(config.proposer_id(index), quorums, proposer.value.clone())
            })
            .collect();
        let mut world = World {
            retries_left: Arc::new(vec![
                config.budget.retries_per_proposer;
                config.proposers.len()
            ]),
            budget_left: config.budget,
            config: Arc::new(config),
            acceptors: Arc::new(acceptors),
            proposers: Arc::new(proposers),
            in_flight: Vec::new(),
            next_message: 1,
            votes: Arc::new(Vec::new()),
            kept_fingerprint: None,
        };
        for index in 0..world.proposers.len() {
            if world.config.proposers[index].started {
                let sent = Arc::make_mut(&mut world.proposers)[index].start();
                world.send(sent);
            }
        }
        world.kept_fingerprint = Some(world.fingerprint_from_scratch());
        Ok(world)
    }

    /// Builds a world and applies `actions` in order; the error gives the index of the first
    /// refused action and why.
    pub fn replay(config: WorldConfig, actions: &[Action]) -> Result<World, (usize, Refused)> {
        let mut world = World::new(config).map_err(|refused| (0, refused))?;
        for (index, action) in actions.iter().enumerate() {
            world.apply(action).map_err(|refused| (index, refused))?;
        }
        Ok(world)
    }

    /// The configuration this world was built from.
    pub fn config(&self) -> &WorldConfig {
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

    /// The messages in flight, in send order.
    pub fn in_flight(&self) -> Vec<InFlight> {
        self.in_flight
            .iter()
            .map(|stored| self.unpack(stored))
            .collect()
    }

    /// The message with this id, if it is in flight.
    pub fn message(&self, id: MessageId) -> Option<InFlight> {
        self.stored(id).map(|stored| self.unpack(stored))
    }

    fn stored(&self, id: MessageId) -> Option<&Stored> {
        let at = (self.in_flight).binary_search_by_key(&id, |stored| stored.id);
        at.ok().map(|at| &self.in_flight[at])
    }

    fn unpack(&self, stored: &Stored) -> InFlight {
        InFlight {
            id: stored.id,
            envelope: stored.envelope.unpack(&self.config.proposers),
        }
    }

    fn pack(&self, envelope: &Envelope) -> PackedEnvelope {
        PackedEnvelope::pack(envelope, &self.config.proposers)
    }

    /// The faults and retries still allowed (retries per proposer are in [`World::retries_left`]).
    pub fn budget_left(&self) -> Budget {
        self.budget_left
    }

    /// The retries each proposer has left, P1 first.
    pub fn retries_left(&self) -> &[u32] {
        &self.retries_left
    }

    /// How many faults of each kind this world has injected.
    pub fn faults_injected(&self) -> FaultCounts {
        let budget = self.config.budget;
        FaultCounts {
            drops: budget.drops - self.budget_left.drops,
            duplicates: budget.duplicates - self.budget_left.duplicates,
            amnesia: budget.amnesia - self.budget_left.amnesia,
        }
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

    /// A node's name: A1, A2, ... for acceptors and P1, P2, ... for proposers.
    pub fn name(&self, node: NodeId) -> String {
        match self.role(node) {
            Some(Role::Acceptor(index)) => format!("A{}", index + 1),
            Some(Role::Proposer(index)) => format!("P{}", index + 1),
            None => node.to_string(),
        }
    }

    /// A ballot as players read it: `round.owner`, e.g. `2.P2`.
    pub fn ballot_name(&self, ballot: Ballot) -> String {
        format!("{}.{}", ballot.round, self.name(ballot.node))
    }

    /// A message as players read it: `Promise(2.P2, accepted (1.P1, x))`.
    pub fn message_name(&self, message: &Message) -> String {
        let ballot = self.ballot_name(message.ballot());
        match message {
            Message::Promise {
                accepted: Some(vote),
                ..
            } => format!(
                "Promise({ballot}, accepted ({}, {}))",
                self.ballot_name(vote.ballot),
                vote.value
            ),
            Message::Accept { value, .. } | Message::Accepted { value, .. } => {
                format!("{}({ballot}, {value})", message.kind())
            }
            Message::Nack { promised, .. } => {
                format!("Nack({ballot}, promised {})", self.ballot_name(*promised))
            }
            _ => format!("{}({ballot})", message.kind()),
        }
    }

    /// An action with the message or node it touches: `deliver m3 P1->A2 Prepare(1.P1)`.
    pub fn describe(&self, action: &Action) -> String {
        let message_id = match action {
            Action::Deliver(id) | Action::Drop(id) | Action::Duplicate(id) => *id,
            Action::Start(node) | Action::Retry(node) | Action::Amnesia(node) => {
                return format!("{} {}", action.verb(), self.name(*node));
            }
        };
        match self.message(message_id) {
            Some(message) => format!(
                "{action} {}->{} {}",
                self.name(message.envelope.from),
                self.name(message.envelope.to),
                self.message_name(&message.envelope.message)
            ),
            None => action.to_string(),
        }
    }

    /// Parses an action as [`World::describe`] or [`Action`]'s `Display` print it; nodes may be
    /// named (`retry P2`) or numbered (`retry n5`).
    pub fn parse_action(&self, text: &str) -> Result<Action, String> {
        let mut words = text.split_whitespace();
        let (Some(verb), Some(target)) = (words.next(), words.next()) else {
            return Err(format!("expected `VERB TARGET`, got {text:?}"));
        };
        let named = (1..=NodeId::MAX)
            .filter_map(NodeId::new)
            .take_while(|node| self.role(*node).is_some())
            .find(|node| self.name(*node) == target);
        match named {
            Some(node) => format!("{verb} {node}").parse(),
            None => text.parse(),
        }
    }

    /// Every action that [`World::apply`] would accept now, in a stable order.
    pub fn enabled(&self) -> Vec<Action> {
        // At most three actions per message and one per node: one allocation, never a regrowth.
        let nodes = self.acceptors.len() + self.proposers.len();
        let mut actions = Vec::with_capacity(3 * self.in_flight.len() + nodes);
        for message in &self.in_flight {
            if self.is_cut(&message.envelope) {
                continue;
            }
            actions.push(Action::Deliver(message.id));
            if self.budget_left.drops > 0 {
                actions.push(Action::Drop(message.id));
            }
            if self.budget_left.duplicates > 0 {
                actions.push(Action::Duplicate(message.id));
            }
        }
        for (index, proposer) in self.proposers.iter().enumerate() {
            if proposer.ballot().is_none() {
                actions.push(Action::Start(proposer.id()));
            } else if self.retries_left[index] > 0 && proposer.learned().is_none() {
                actions.push(Action::Retry(proposer.id()));
            }
        }
        if self.budget_left.amnesia > 0 {
            actions.extend(
                self.acceptors
                    .iter()
                    .map(|acceptor| Action::Amnesia(acceptor.id())),
            );
        }
        actions
    }

    /// Applies one action. A refused action leaves the world unchanged.
    pub fn apply(&mut self, action: &Action) -> Result<Step, Refused> {
        let change = self.change(action)?;
        let learned = change.learned.clone();
        let ignored = change.ignored;
        self.kept_fingerprint = None;
        let sent = self.commit(change);
        Ok(Step {
            sent: sent.map(MessageId).collect(),
            learned,
            ignored,
        })
    }

    /// The world `action` leads to, built beside this one, which is left unchanged. It keeps
    /// its fingerprint, worked out from this world's and the parts the action changes.
    pub fn successor(&self, action: &Action) -> Result<World, Refused> {
        let change = self.change(action)?;
        let fingerprint = self.fingerprint_after(&change);
        let mut successor = self.clone_with_room(change.sent().count());
        successor.commit(change);
        successor.kept_fingerprint = Some(fingerprint);
        debug_assert_eq!(fingerprint, successor.fingerprint_from_scratch());
        Ok(successor)
    }

    /// A copy of this world with room in its message list for `extra` more messages, so a
    /// step applied to the copy never grows the list.
    fn clone_with_room(&self, extra: usize) -> World {
        let mut in_flight = Vec::with_capacity(self.in_flight.len() + extra);
        in_flight.extend_from_slice(&self.in_flight);
        World {
            config: Arc::clone(&self.config),
            acceptors: Arc::clone(&self.acceptors),
            proposers: Arc::clone(&self.proposers),
            in_flight,
            next_message: self.next_message,
            budget_left: self.budget_left,
            retries_left: Arc::clone(&self.retries_left),
            votes: Arc::clone(&self.votes),
            kept_fingerprint: self.kept_fingerprint,
        }
    }

    /// The fingerprint of the world `action` leads to, worked out without building that world:
    /// this world's fingerprint with the parts the action changes swapped. The explorer calls
    /// it for every transition and builds a successor only when it is new.
    pub fn successor_fingerprint(&self, action: &Action) -> Result<u64, Refused> {
        let change = self.change(action)?;
        Ok(self.fingerprint_after(&change))
    }

    /// A 64-bit fingerprint of everything the future of this world depends on: every node's
    /// state, the messages in flight, the budgets left and the history of votes.
    ///
    /// It is the wrapping sum of one hash per part (see [`World::fingerprint_from_scratch`]),
    /// so a successor's fingerprint costs only the parts one action changes. Free to read in a
    /// world that keeps it (see [`World::successor`]); computed from every part in one that
    /// does not.
    pub fn fingerprint(&self) -> u64 {
        (self.kept_fingerprint).unwrap_or_else(|| self.fingerprint_from_scratch())
    }

    /// The fingerprint computed from every part, as [`World::fingerprint`] must equal.
    ///
    /// Each part is hashed alone, tagged with its kind and position, and the hashes are added:
    /// each acceptor, each proposer, each message in flight, the fault budgets, each proposer's
    /// retries left, and each vote ever cast (ballot, value and voter). Addition makes the sum
    /// independent of order, so the in-flight messages count as a multiset: message ids and send
    /// order are left out on purpose, since any message in flight may be delivered next and two
    /// worlds whose messages are the same multiset behave the same up to renaming ids. A
    /// duplicate message adds its hash twice. The configuration is left out because it is
    /// constant for the life of a world. The hasher is foldhash's quality hasher with a fixed
    /// seed, so fingerprints are stable from run to run.
    pub fn fingerprint_from_scratch(&self) -> u64 {
        let acceptors = (self.acceptors.iter().enumerate())
            .map(|(index, acceptor)| part(Part::Acceptor(index), acceptor));
        let proposers = (self.proposers.iter().enumerate())
            .map(|(index, proposer)| part(Part::Proposer(index), proposer));
        let messages = (self.in_flight.iter()).map(|stored| part(Part::Message, &stored.envelope));
        let retries = (self.retries_left.iter().enumerate())
            .map(|(index, left)| part(Part::Retries(index), left));
        let votes = self.votes.iter().flat_map(|votes| {
            (votes.voters.iter()).map(|voter| vote_part(voter, votes.ballot, &votes.value))
        });
        acceptors
            .chain(proposers)
            .chain(messages)
            .chain(retries)
            .chain(votes)
            .fold(part(Part::Budget, &self.budget_left), u64::wrapping_add)
    }

    /// What `action` would change, worked out against this world without changing it.
    fn change(&self, action: &Action) -> Result<Change, Refused> {
        let mut change = Change::keeping(self.budget_left);
        match *action {
            Action::Deliver(id) => {
                let envelope = self
                    .deliverable(id)?
                    .envelope
                    .unpack(&self.config.proposers);
                change.taken = Some(id);
                self.receive(&envelope, &mut change);
            }
            Action::Drop(id) => {
                self.deliverable(id)?;
                spend(&mut change.budget_left.drops, "drop")?;
                change.taken = Some(id);
            }
            Action::Duplicate(id) => {
                let envelope = self
                    .deliverable(id)?
                    .envelope
                    .unpack(&self.config.proposers);
                spend(&mut change.budget_left.duplicates, "duplicate")?;
                change.single = Some(envelope);
            }
            Action::Start(node) => {
                let index = self.proposer_index(node)?;
                if self.proposers[index].ballot().is_some() {
                    return Err(Refused::AlreadyStarted(node));
                }
                let mut proposer = self.proposers[index].clone();
                change.sent = proposer.start();
                change.proposer = Some((index, proposer));
            }
            Action::Retry(node) => {
                let index = self.proposer_index(node)?;
                let proposer = &self.proposers[index];
                if proposer.ballot().is_none() || proposer.learned().is_some() {
                    return Err(Refused::NothingToRetry(node));
                }
                let mut retries_left = self.retries_left[index];
                spend(&mut retries_left, "retry")?;
                let mut proposer = proposer.clone();
                change.sent = proposer.retry();
                change.proposer = Some((index, proposer));
                change.retries_left = Some((index, retries_left));
            }
            Action::Amnesia(node) => {
                let Some(Role::Acceptor(index)) = self.role(node) else {
                    return Err(Refused::NoSuchNode(node));
                };
                spend(&mut change.budget_left.amnesia, "amnesia")?;
                change.acceptor = Some((index, Acceptor::new(node)));
            }
        }
        Ok(change)
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
    fn fingerprint_after(&self, change: &Change) -> u64 {
        let mut fingerprint = self.fingerprint();
        let mut swap = |old: u64, new: u64| {
            fingerprint = fingerprint.wrapping_sub(old).wrapping_add(new);
        };
        if let Some(id) = change.taken {
            let taken = self.stored(id).expect("checked deliverable");
            swap(part(Part::Message, &taken.envelope), 0);
        }
        for envelope in change.sent() {
            swap(0, part(Part::Message, &self.pack(envelope)));
        }
        if let Some((index, acceptor)) = &change.acceptor {
            let at = Part::Acceptor(*index);
            swap(part(at, &self.acceptors[*index]), part(at, acceptor));
        }
        if let Some((index, proposer)) = &change.proposer {
            let at = Part::Proposer(*index);
            swap(part(at, &self.proposers[*index]), part(at, proposer));
        }
        if let Some((index, left)) = change.retries_left {
            let at = Part::Retries(index);
            swap(part(at, &self.retries_left[index]), part(at, &left));
        }
        if change.budget_left != self.budget_left {
            let old = part(Part::Budget, &self.budget_left);
            swap(old, part(Part::Budget, &change.budget_left));
        }
        if let Some(vote) = &change.vote {
            swap(0, vote_part(vote.voter, vote.ballot, &vote.value));
        }
        fingerprint
    }

    /// Makes `change` happen; returns the ids of the messages it sent.
    fn commit(&mut self, change: Change) -> Range<u32> {
        if let Some(id) = change.taken {
            self.take(id);
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
        self.budget_left = change.budget_left;
        if let Some(vote) = change.vote {
            self.record_vote(vote);
        }
        self.send(change.single.into_iter().chain(change.sent))
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
    fn deliverable(&self, id: MessageId) -> Result<&Stored, Refused> {
        let message = self.stored(id).ok_or(Refused::NoSuchMessage(id))?;
        if self.is_cut(&message.envelope) {
            return Err(Refused::SilentLink(id));
        }
        Ok(message)
    }

    fn is_cut(&self, envelope: &PackedEnvelope) -> bool {
        let silent = self.config.silent;
        silent.contains(envelope.from()) || silent.contains(envelope.to())
    }

    fn take(&mut self, id: MessageId) {
        let at = self
            .in_flight
            .binary_search_by_key(&id, |message| message.id)
            .expect("checked deliverable");
        self.in_flight.remove(at);
    }

    /// Puts `envelopes` in flight in order; returns the ids given, which are consecutive.
    fn send(&mut self, envelopes: impl IntoIterator<Item = Envelope>) -> Range<u32> {
        let first = self.next_message;
        for envelope in envelopes {
            let id = MessageId(self.next_message);
            self.next_message += 1;
            let envelope = self.pack(&envelope);
            self.in_flight.push(Stored { id, envelope });
        }
        first..self.next_message
    }

    fn proposer_index(&self, node: NodeId) -> Result<usize, Refused> {
        match self.role(node) {
            Some(Role::Proposer(index)) => Ok(index),
            _ => Err(Refused::NoSuchNode(node)),
        }
    }
}

/// What one action changes in a world, worked out before anything changes: [`World::apply`]
/// commits it, and [`World::successor_fingerprint`] hashes the successor from it alone.
#[derive(Debug)]
struct Change {
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
    /// The fault budgets after the action.
    budget_left: Budget,
    /// A vote the history has not counted yet.
    vote: Option<CastVote>,
    /// The value a proposer learned is chosen, for [`Step::learned`].
    learned: Option<(NodeId, Value)>,
    /// Why the receiver took no step, for [`Step::ignored`].
    ignored: Option<Ignored>,
}

impl Change {
    /// The messages this change puts in flight, in send order.
    fn sent(&self) -> impl Iterator<Item = &Envelope> {
        self.single.iter().chain(&self.sent)
    }

    /// A change that, so far, changes nothing.
    fn keeping(budget_left: Budget) -> Change {
        Change {
            taken: None,
            sent: Vec::new(),
            single: None,
            acceptor: None,
            proposer: None,
            retries_left: None,
            budget_left,
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

/// The parts of a world the fingerprint hashes one by one: a part's kind and position tag its
/// hash, so the same state in two places hashes differently.
#[derive(Clone, Copy, Hash)]
enum Part {
    Acceptor(usize),
    Proposer(usize),
    Message,
    Retries(usize),
    Budget,
}

/// The hash of one part of a world: its tag and its contents.
fn part(at: Part, contents: &impl Hash) -> u64 {
    FINGERPRINT.hash_one((at, contents))
}

/// The hash of one vote in the history.
fn vote_part(voter: NodeId, ballot: Ballot, value: &Value) -> u64 {
    FINGERPRINT.hash_one((voter, ballot, value))
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

fn spend(left: &mut u32, kind: &'static str) -> Result<(), Refused> {
    *left = left.checked_sub(1).ok_or(Refused::BudgetSpent(kind))?;
    Ok(())
}

impl Action {
    /// The action's verb: `deliver`, `drop`, `duplicate`, `start`, `retry` or `amnesia`.
    pub fn verb(&self) -> &'static str {
        match self {
            Action::Deliver(_) => "deliver",
            Action::Drop(_) => "drop",
            Action::Duplicate(_) => "duplicate",
            Action::Start(_) => "start",
            Action::Retry(_) => "retry",
            Action::Amnesia(_) => "amnesia",
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Deliver(id) | Action::Drop(id) | Action::Duplicate(id) => {
                write!(f, "{} {id}", self.verb())
            }
            Action::Start(node) | Action::Retry(node) | Action::Amnesia(node) => {
                write!(f, "{} {node}", self.verb())
            }
        }
    }
}

impl FromStr for Action {
    type Err = String;

    /// Parses the first two words of an action as [`Display`](fmt::Display) or
    /// [`World::describe`] print it: `deliver m3 ...` or `retry n4`. Words after them are
    /// ignored, so a described action parses too.
    fn from_str(text: &str) -> Result<Action, String> {
        let mut words = text.split_whitespace();
        let (Some(verb), Some(target)) = (words.next(), words.next()) else {
            return Err(format!("expected `VERB TARGET`, got {text:?}"));
        };
        let message = || {
            target
                .strip_prefix('m')
                .and_then(|number| number.parse().ok())
                .map(MessageId)
                .ok_or_else(|| format!("expected a message id like m3, got {target:?}"))
        };
        let node = || {
            target
                .strip_prefix('n')
                .and_then(|number| number.parse().ok())
                .and_then(NodeId::new)
                .ok_or_else(|| format!("expected a node id like n4, got {target:?}"))
        };
        match verb {
            "deliver" => message().map(Action::Deliver),
            "drop" => message().map(Action::Drop),
            "duplicate" => message().map(Action::Duplicate),
            "start" => node().map(Action::Start),
            "retry" => node().map(Action::Retry),
            "amnesia" => node().map(Action::Amnesia),
            _ => Err(format!("unknown action {verb:?}")),
        }
    }
}

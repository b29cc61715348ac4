//! The network every world shares: messages in flight with stable ids, the three things that
//! can happen to one (deliver, drop, duplicate), partitions, and the words for all of it.
//!
//! A [`Network`] is generic over what it carries: Act I's world keeps its envelopes packed into
//! plain numbers (a copy of its network is a `memcpy`), the replicated log keeps them whole.
//! Either way a message's id is given in send order and never reused, the messages in flight
//! count in the fingerprint as a multiset (ids and order left out: any may be delivered next),
//! and a world's actions on messages read the same (`deliver m7 P1->A2 Prepare(2.P1)`) and
//! parse back, by id or by route.

pub use crate::faults::MessageId;
use crate::faults::{Budget, Fault, Refused};
use crate::fingerprint;
use paros_core::log::LogEnvelope;
use paros_core::{Envelope, NodeId, NodeSet};
use std::fmt;
use std::hash::Hash;
use std::sync::Arc;

/// A message on the wire, with its id.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct InFlight<E> {
    /// The message's id.
    pub id: MessageId,
    /// Sender, receiver and message.
    pub envelope: E,
}

/// What a network carries: something with a sender and a receiver, hashed as it is.
pub trait Route: Clone + Hash {
    /// The sender.
    fn from(&self) -> NodeId;
    /// The receiver.
    fn to(&self) -> NodeId;
}

impl Route for Envelope {
    fn from(&self) -> NodeId {
        self.from
    }
    fn to(&self) -> NodeId {
        self.to
    }
}

impl Route for LogEnvelope {
    fn from(&self) -> NodeId {
        self.from
    }
    fn to(&self) -> NodeId {
        self.to
    }
}

impl<E: Route> Route for Arc<E> {
    fn from(&self) -> NodeId {
        E::from(self)
    }
    fn to(&self) -> NodeId {
        E::to(self)
    }
}

/// What can happen to a message in flight.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Verb {
    /// Hand it to its receiver, which steps.
    Deliver,
    /// Lose it (a fault).
    Drop,
    /// Put a second copy in flight (a fault).
    Duplicate,
}

impl Verb {
    /// Every verb, in the order a world lists its actions on one message.
    pub const ALL: [Verb; 3] = [Verb::Deliver, Verb::Drop, Verb::Duplicate];

    /// The verb as actions print it.
    pub fn word(self) -> &'static str {
        match self {
            Verb::Deliver => "deliver",
            Verb::Drop => "drop",
            Verb::Duplicate => "duplicate",
        }
    }

    /// The verb a word names, if it names one.
    pub fn from_word(word: &str) -> Option<Verb> {
        Verb::ALL.into_iter().find(|verb| verb.word() == word)
    }

    /// The fault this verb spends, if it is one.
    pub fn fault(self) -> Option<Fault> {
        match self {
            Verb::Deliver => None,
            Verb::Drop => Some(Fault::Drop),
            Verb::Duplicate => Some(Fault::Duplicate),
        }
    }
}

impl fmt::Display for Verb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// A world's action type, as far as its network is concerned: some of its actions are a
/// [`Verb`] applied to a message.
pub trait MessageAction: Sized {
    /// The world's action for `verb` on message `id`.
    fn on_message(verb: Verb, id: MessageId) -> Self;
    /// The verb and message this action is, if it is one.
    fn message(&self) -> Option<(Verb, MessageId)>;
}

/// How a world names its nodes and messages, so the network can describe and parse its actions.
pub trait Names<E> {
    /// A node's name as players read it: `A2`, `N1`, `C1`.
    fn node_name(&self, node: NodeId) -> String;
    /// A message as players read it: `Prepare(2.P1)`.
    fn message_name(&self, envelope: &E) -> String;
    /// The message's kind alone: `Prepare`.
    fn message_kind(&self, envelope: &E) -> &'static str;
}

/// The parts of the network the fingerprint hashes.
#[derive(Clone, Copy, Hash)]
enum Part {
    Message,
    Isolated,
}

/// Messages in flight and the partition between nodes.
///
/// A partition splits `servers` in two: the isolated ones and the rest. Every other endpoint
/// (a client, an Act I proposer) stays with the rest, so it can reach no isolated node.
#[derive(Clone, Debug)]
pub struct Network<E> {
    /// Invariant: ascending ids, which is send order.
    in_flight: Vec<InFlight<E>>,
    next_id: u32,
    servers: NodeSet,
    isolated: NodeSet,
    /// Invariant: the sum of [`Network::message_part`] over the messages in flight.
    message_sum: u64,
}

impl<E: Route> Network<E> {
    /// An empty network over `servers`, with `isolated` cut off from the start.
    pub fn new(servers: NodeSet, isolated: NodeSet) -> Network<E> {
        Network {
            in_flight: Vec::new(),
            next_id: 1,
            servers,
            isolated,
            message_sum: 0,
        }
    }

    /// The messages in flight, in send order.
    pub fn in_flight(&self) -> &[InFlight<E>] {
        &self.in_flight
    }

    /// The message with this id, if it is in flight.
    #[inline]
    pub fn get(&self, id: MessageId) -> Option<&InFlight<E>> {
        let at = self
            .in_flight
            .binary_search_by_key(&id, |message| message.id);
        at.ok().map(|at| &self.in_flight[at])
    }

    /// The id the next message sent will get.
    pub fn next_id(&self) -> MessageId {
        MessageId(self.next_id)
    }

    /// The nodes cut off by a partition.
    pub fn isolated(&self) -> NodeSet {
        self.isolated
    }

    /// Whether a message crosses the cut: one end is isolated and the other is not. (Only
    /// servers are ever isolated, so every other endpoint is on the side of the rest.)
    #[inline]
    pub fn is_cut(&self, envelope: &E) -> bool {
        self.isolated.contains(envelope.from()) != self.isolated.contains(envelope.to())
    }

    /// Whether message `id` is in flight on a cut wire (it stays there until healed).
    pub fn is_cut_off(&self, id: MessageId) -> bool {
        self.get(id)
            .is_some_and(|message| self.is_cut(&message.envelope))
    }

    /// The message with this id, if it is in flight and not cut off.
    #[inline]
    pub fn deliverable(&self, id: MessageId) -> Result<&InFlight<E>, Refused> {
        let message = self.get(id).ok_or(Refused::NoSuchMessage(id))?;
        if self.is_cut(&message.envelope) {
            return Err(Refused::Cut(id));
        }
        Ok(message)
    }

    /// Puts a message in flight; returns its id.
    #[inline]
    pub fn send(&mut self, envelope: E) -> MessageId {
        let id = self.next_id();
        self.next_id += 1;
        self.message_sum = self.message_sum.wrapping_add(Self::message_part(&envelope));
        self.in_flight.push(InFlight { id, envelope });
        id
    }

    /// Takes a message out of flight (to deliver or lose it).
    ///
    /// # Panics
    ///
    /// If no message `id` is in flight: check [`Network::deliverable`] first.
    #[inline]
    pub fn take(&mut self, id: MessageId) -> E {
        let at = self
            .in_flight
            .binary_search_by_key(&id, |message| message.id);
        let envelope = self.in_flight.remove(at.expect("checked")).envelope;
        self.message_sum = self.message_sum.wrapping_sub(Self::message_part(&envelope));
        envelope
    }

    /// Takes message `taken` (if any) out of flight and puts `sent` in flight, in order,
    /// where `sum_change` is what this adds to the sum of the messages' parts, worked out when
    /// the same step was first taken: a step replayed without hashing a message.
    ///
    /// # Panics
    ///
    /// If message `taken` is not in flight: check [`Network::deliverable`] first.
    pub fn replay<'a>(
        &mut self,
        taken: Option<MessageId>,
        sent: impl IntoIterator<Item = &'a E>,
        sum_change: u64,
    ) where
        E: 'a,
    {
        if let Some(id) = taken {
            let at = self
                .in_flight
                .binary_search_by_key(&id, |message| message.id);
            self.in_flight.remove(at.expect("checked"));
        }
        for envelope in sent {
            let id = self.next_id();
            self.next_id += 1;
            self.in_flight.push(InFlight {
                id,
                envelope: envelope.clone(),
            });
        }
        self.message_sum = self.message_sum.wrapping_add(sum_change);
    }

    /// The sum of the parts of the messages in flight (see [`Network::message_part`]).
    pub fn message_sum(&self) -> u64 {
        self.message_sum
    }

    /// Loses a deliverable message, spending a drop.
    pub fn drop_message(&mut self, id: MessageId, budget: &mut Budget) -> Result<(), Refused> {
        self.deliverable(id)?;
        budget.spend(Fault::Drop)?;
        self.take(id);
        Ok(())
    }

    /// Puts a second copy of a deliverable message in flight, spending a duplicate.
    pub fn duplicate(&mut self, id: MessageId, budget: &mut Budget) -> Result<MessageId, Refused> {
        let envelope = self.deliverable(id)?.envelope.clone();
        budget.spend(Fault::Duplicate)?;
        Ok(self.send(envelope))
    }

    /// Cuts `node` off from every other endpoint, spending a partition.
    pub fn isolate(&mut self, node: NodeId, budget: &mut Budget) -> Result<(), Refused> {
        if !self.servers.contains(node) {
            return Err(Refused::NoSuchNode(node));
        }
        if self.isolated.contains(node) {
            return Err(Refused::AlreadyIsolated(node));
        }
        budget.spend(Fault::Partition)?;
        self.isolated.insert(node);
        Ok(())
    }

    /// Restores every cut link.
    pub fn heal(&mut self) -> Result<(), Refused> {
        if self.isolated.is_empty() {
            return Err(Refused::NothingToHeal);
        }
        self.isolated = NodeSet::EMPTY;
        Ok(())
    }

    /// Replaces every message sent since `first` by `same(message)`, which must hash as it
    /// does (an equal copy, shared elsewhere): what is in flight stays what it was.
    pub fn share_since(&mut self, first: MessageId, mut same: impl FnMut(&E) -> E) {
        let since = self.in_flight.partition_point(|message| message.id < first);
        for message in &mut self.in_flight[since..] {
            let shared = same(&message.envelope);
            debug_assert_eq!(
                Self::message_part(&shared),
                Self::message_part(&message.envelope)
            );
            message.envelope = shared;
        }
    }

    /// A copy with room for `extra` more messages, so sending them never grows its list.
    #[inline]
    pub fn clone_with_room(&self, extra: usize) -> Network<E> {
        let mut in_flight = Vec::with_capacity(self.in_flight.len() + extra);
        in_flight.extend_from_slice(&self.in_flight);
        Network {
            in_flight,
            next_id: self.next_id,
            servers: self.servers,
            isolated: self.isolated,
            message_sum: self.message_sum,
        }
    }

    /// The actions on messages allowed now, in send order, each message's in [`Verb::ALL`]
    /// order: every message not cut off and not `held` back by its world can be delivered, and
    /// dropped or duplicated while the budget allows.
    pub fn enabled<A: MessageAction>(
        &self,
        budget: &Budget,
        held: impl Fn(&E) -> bool,
        actions: &mut Vec<A>,
    ) {
        let (drops, duplicates) = (budget.allows(Fault::Drop), budget.allows(Fault::Duplicate));
        let verbs = 1 + usize::from(drops) + usize::from(duplicates);
        actions.reserve(self.in_flight.len() * verbs);
        for message in &self.in_flight {
            if self.is_cut(&message.envelope) || held(&message.envelope) {
                continue;
            }
            actions.push(A::on_message(Verb::Deliver, message.id));
            if drops {
                actions.push(A::on_message(Verb::Drop, message.id));
            }
            if duplicates {
                actions.push(A::on_message(Verb::Duplicate, message.id));
            }
        }
    }

    /// The hash one message adds to the fingerprint while it is in flight.
    #[inline]
    pub fn message_part(envelope: &E) -> u64 {
        fingerprint::part(Part::Message, envelope)
    }

    /// The network's part of a world's fingerprint: the multiset of messages in flight and the
    /// partition. Ids and send order are left out on purpose.
    pub fn fingerprint(&self) -> u64 {
        self.message_sum
            .wrapping_add(fingerprint::part(Part::Isolated, &self.isolated))
    }

    /// [`Network::fingerprint`] worked out from every message, as it must equal.
    pub fn fingerprint_from_scratch(&self) -> u64 {
        (self.in_flight.iter())
            .map(|message| Self::message_part(&message.envelope))
            .fold(
                fingerprint::part(Part::Isolated, &self.isolated),
                u64::wrapping_add,
            )
    }

    /// `verb` on message `id`, in full: `deliver m3 P1->A2 Prepare(1.P1)`; just `deliver m3`
    /// when the message is not in flight.
    pub fn describe(&self, verb: Verb, id: MessageId, names: &impl Names<E>) -> String {
        match self.get(id) {
            Some(message) => format!(
                "{verb} {id} {}->{} {}",
                names.node_name(message.envelope.from()),
                names.node_name(message.envelope.to()),
                names.message_name(&message.envelope)
            ),
            None => format!("{verb} {id}"),
        }
    }

    /// Parses an action on a message, if `text` begins with a [`Verb`]; `None` when it does
    /// not. The message is named by id (`deliver m7`, words after it ignored, so a described
    /// action parses back) or by route (`deliver N1->N2`, `deliver N1->N2 Accept`,
    /// `deliver N1->N2 Accept(1.N1, slot 2`): the first message in send order on that route
    /// whose kind is the word given, or whose text begins with it when it has a parenthesis.
    pub fn parse<A: MessageAction>(
        &self,
        text: &str,
        names: &impl Names<E>,
    ) -> Option<Result<A, String>> {
        let mut words = text.trim().splitn(3, char::is_whitespace);
        let verb = Verb::from_word(words.next()?)?;
        let target = words.next().unwrap_or_default();
        let pattern = words.next().unwrap_or_default().trim();
        let id = match target.split_once("->") {
            Some((from, to)) => self.find_route(from, to, pattern, names),
            None => parse_id(target),
        };
        Some(id.map(|id| A::on_message(verb, id)))
    }

    /// The first message in flight from `from` to `to` that matches `pattern` (see
    /// [`Network::parse`]).
    fn find_route(
        &self,
        from: &str,
        to: &str,
        pattern: &str,
        names: &impl Names<E>,
    ) -> Result<MessageId, String> {
        let matches = |envelope: &E| {
            names.node_name(envelope.from()) == from
                && names.node_name(envelope.to()) == to
                && (pattern.is_empty()
                    || if pattern.contains('(') {
                        names.message_name(envelope).starts_with(pattern)
                    } else {
                        names.message_kind(envelope) == pattern
                    })
        };
        (self.in_flight.iter())
            .find(|message| matches(&message.envelope))
            .map(|message| message.id)
            .ok_or_else(|| format!("no message {from}->{to} {pattern} is in flight"))
    }
}

/// A message id as actions print it: `m7`.
pub(crate) fn parse_id(word: &str) -> Result<MessageId, String> {
    word.strip_prefix('m')
        .and_then(|number| number.parse().ok())
        .map(MessageId)
        .ok_or_else(|| {
            format!("expected a message id like m3 or a route like N1->N2, got {word:?}")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A message of a made-up protocol: a route and a text whose first word is its kind.
    #[derive(Clone, PartialEq, Eq, Hash, Debug)]
    struct Note {
        from: NodeId,
        to: NodeId,
        text: &'static str,
    }

    impl Route for Note {
        fn from(&self) -> NodeId {
            self.from
        }
        fn to(&self) -> NodeId {
            self.to
        }
    }

    struct Namer;

    impl Names<Note> for Namer {
        fn node_name(&self, node: NodeId) -> String {
            format!("N{}", node.get())
        }
        fn message_name(&self, note: &Note) -> String {
            note.text.to_owned()
        }
        fn message_kind(&self, note: &Note) -> &'static str {
            note.text.split('(').next().unwrap_or_default()
        }
    }

    /// The actions a world built on the network would have.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    struct OnMessage(Verb, MessageId);

    impl MessageAction for OnMessage {
        fn on_message(verb: Verb, id: MessageId) -> OnMessage {
            OnMessage(verb, id)
        }
        fn message(&self) -> Option<(Verb, MessageId)> {
            Some((self.0, self.1))
        }
    }

    fn node(id: u8) -> NodeId {
        NodeId::new(id).unwrap()
    }

    fn note(from: u8, to: u8, text: &'static str) -> Note {
        Note {
            from: node(from),
            to: node(to),
            text,
        }
    }

    fn three_servers() -> Network<Note> {
        Network::new([1, 2, 3].map(node).into_iter().collect(), NodeSet::EMPTY)
    }

    #[test]
    fn ids_are_stable_and_the_fingerprint_is_a_multiset() {
        let (mut one, mut other) = (three_servers(), three_servers());
        let first = one.send(note(1, 2, "Ping(1)"));
        one.send(note(2, 3, "Ping(2)"));
        other.send(note(2, 3, "Ping(2)"));
        other.send(note(1, 2, "Ping(1)"));
        assert_eq!(one.fingerprint(), other.fingerprint(), "order is left out");
        assert_eq!(one.take(first), note(1, 2, "Ping(1)"));
        assert_eq!(
            one.get(MessageId(2)).unwrap().envelope,
            note(2, 3, "Ping(2)")
        );
        assert_eq!(one.next_id(), MessageId(3), "an id is never reused");
        assert_eq!(one.fingerprint(), one.fingerprint_from_scratch());
        let mut budget = Budget::NONE.with(Fault::Duplicate, 1);
        one.duplicate(MessageId(2), &mut budget).unwrap();
        assert_ne!(
            one.fingerprint(),
            other.fingerprint(),
            "a copy counts twice"
        );
        assert_eq!(one.fingerprint(), one.fingerprint_from_scratch());
    }

    #[test]
    fn a_partition_cuts_every_link_of_the_isolated_node_until_healed() {
        let mut network = three_servers();
        let client_to_two = network.send(note(9, 2, "Read(x)"));
        let one_to_two = network.send(note(1, 2, "Ping(1)"));
        let one_to_three = network.send(note(1, 3, "Ping(1)"));
        let mut budget = Budget::NONE.with(Fault::Partition, 1);
        assert_eq!(
            network.isolate(node(9), &mut budget),
            Err(Refused::NoSuchNode(node(9)))
        );
        network.isolate(node(2), &mut budget).unwrap();
        assert_eq!(
            network.isolate(node(2), &mut budget),
            Err(Refused::AlreadyIsolated(node(2)))
        );
        assert_eq!(
            network.deliverable(client_to_two).err(),
            Some(Refused::Cut(client_to_two))
        );
        assert_eq!(
            network.deliverable(one_to_two).err(),
            Some(Refused::Cut(one_to_two))
        );
        assert!(network.deliverable(one_to_three).is_ok());
        let mut enabled: Vec<OnMessage> = Vec::new();
        network.enabled(&Budget::NONE, |_| false, &mut enabled);
        assert_eq!(enabled, [OnMessage(Verb::Deliver, one_to_three)]);
        network.heal().unwrap();
        assert!(network.deliverable(one_to_two).is_ok());
        assert_eq!(network.heal(), Err(Refused::NothingToHeal));
    }

    #[test]
    fn faults_spend_their_budget_and_a_refusal_changes_nothing() {
        let mut network = three_servers();
        let id = network.send(note(1, 2, "Ping(1)"));
        let before = network.fingerprint();
        let mut budget = Budget::NONE;
        assert_eq!(
            network.drop_message(id, &mut budget),
            Err(Refused::BudgetSpent(Fault::Drop))
        );
        assert_eq!(network.fingerprint(), before);
        let mut enabled: Vec<OnMessage> = Vec::new();
        network.enabled(&Budget::NONE.with(Fault::Drop, 1), |_| false, &mut enabled);
        assert_eq!(
            enabled,
            [OnMessage(Verb::Deliver, id), OnMessage(Verb::Drop, id)]
        );
    }

    #[test]
    fn actions_on_messages_read_back_by_id_or_by_route() {
        let mut network = three_servers();
        network.send(note(1, 2, "Accept(1, slot 1)"));
        let second = network.send(note(1, 2, "Accept(1, slot 2)"));
        let described = network.describe(Verb::Drop, second, &Namer);
        assert_eq!(described, "drop m2 N1->N2 Accept(1, slot 2)");
        let parse = |text: &str| network.parse::<OnMessage>(text, &Namer);
        assert_eq!(parse(&described), Some(Ok(OnMessage(Verb::Drop, second))));
        assert_eq!(
            parse("deliver N1->N2 Accept(1, slot 2"),
            Some(Ok(OnMessage(Verb::Deliver, second))),
            "a prefix of the text picks the message"
        );
        assert_eq!(
            parse("deliver N1->N2 Accept"),
            Some(Ok(OnMessage(Verb::Deliver, MessageId(1)))),
            "a kind picks the first in send order"
        );
        assert!(matches!(parse("deliver N2->N1"), Some(Err(_))));
        assert!(matches!(parse("deliver 7"), Some(Err(_))));
        assert_eq!(parse("tick N1"), None, "not an action on a message");
    }
}

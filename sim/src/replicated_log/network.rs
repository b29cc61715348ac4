//! The network: messages in flight with stable ids, delivery to a node or a client, and the
//! links a partition cuts.

use super::{Host, LogNegativeControl, LogRefused, LogWorld, Part, part, spend};
use crate::MessageId;
use paros_core::log::{LogEnvelope, LogMessage, Outcome};
use paros_core::{NodeId, NodeSet};
use std::sync::Arc;

/// A message on the wire.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct LogInFlight {
    /// Its id, in send order.
    pub id: MessageId,
    /// Sender, receiver and message.
    pub envelope: LogEnvelope,
}

impl LogWorld {
    /// Loses a deliverable message, if the budget allows.
    pub(super) fn drop_message(&mut self, message: MessageId) -> Result<(), LogRefused> {
        self.deliverable(message)?;
        spend(&mut self.budget_left.drops, "drop")?;
        self.take(message);
        Ok(())
    }

    /// Puts a second copy of a deliverable message in flight, if the budget allows.
    pub(super) fn duplicate(&mut self, message: MessageId) -> Result<(), LogRefused> {
        let envelope = self.deliverable(message)?.envelope.clone();
        spend(&mut self.budget_left.duplicates, "duplicate")?;
        self.put_in_flight(envelope);
        Ok(())
    }

    /// Cuts a node off from every other, if the budget allows.
    pub(super) fn partition(&mut self, node: NodeId) -> Result<(), LogRefused> {
        self.server_index(node)?;
        if self.isolated.contains(node) {
            return Err(LogRefused::NothingPending(node));
        }
        spend(&mut self.budget_left.partitions, "partition")?;
        self.isolated.insert(node);
        Ok(())
    }

    /// Restores every cut link.
    pub(super) fn heal(&mut self) -> Result<(), LogRefused> {
        if self.isolated.is_empty() {
            return Err(LogRefused::BadConfig("nothing to heal"));
        }
        self.isolated = NodeSet::EMPTY;
        Ok(())
    }

    pub(super) fn deliver(&mut self, message: MessageId) -> Result<(), LogRefused> {
        self.deliverable(message)?;
        let envelope = self.take(message);
        if let Ok(client) = self.client_index(envelope.to) {
            self.client_receives(client, &envelope.message);
            return Ok(());
        }
        let index = self.server_index(envelope.to)?;
        let Host::Up(node) = &mut Arc::make_mut(&mut self.servers[index]).host else {
            return Ok(()); // delivered to a dead host: lost
        };
        if self.config.negative_control == Some(LogNegativeControl::LocalRead)
            && let LogMessage::Read { seq, key } = &envelope.message
        {
            let value = node.store().get(key).cloned();
            self.reply_at_once(&envelope, *seq, Outcome::Read(value));
            return Ok(());
        }
        let _ignored = node.handle(&envelope);
        self.drain(index);
        if self.config.negative_control == Some(LogNegativeControl::EarlyAck)
            && let LogMessage::Write { seq, .. } = &envelope.message
        {
            self.reply_at_once(&envelope, *seq, Outcome::Written);
        }
        Ok(())
    }

    /// A negative control's reply, straight from the node a client's request reached.
    fn reply_at_once(&mut self, request: &LogEnvelope, seq: u64, outcome: Outcome) {
        self.put_in_flight(LogEnvelope {
            from: request.to,
            to: request.from,
            message: LogMessage::Reply { seq, outcome },
        });
    }

    pub(super) fn put_in_flight(&mut self, envelope: LogEnvelope) {
        let id = MessageId(self.next_message);
        self.next_message += 1;
        self.kept_sum = (self.kept_sum).wrapping_add(part(Part::Message, &envelope));
        self.in_flight.push(LogInFlight { id, envelope });
    }

    pub(super) fn deliverable(&self, message: MessageId) -> Result<&LogInFlight, LogRefused> {
        let found = self
            .in_flight
            .iter()
            .find(|in_flight| in_flight.id == message);
        let in_flight = found.ok_or(LogRefused::NoSuchMessage(message))?;
        if self.crosses_cut(&in_flight.envelope) {
            return Err(LogRefused::Partitioned(message));
        }
        if self.receiver_busy(in_flight.envelope.to) {
            return Err(LogRefused::Busy(in_flight.envelope.to));
        }
        Ok(in_flight)
    }

    pub(super) fn crosses_cut(&self, envelope: &LogEnvelope) -> bool {
        self.isolated.contains(envelope.from) != self.isolated.contains(envelope.to)
            && (self.is_server(envelope.from) && self.is_server(envelope.to))
            || self.isolated.contains(envelope.from) && !self.is_server(envelope.to)
            || self.isolated.contains(envelope.to) && !self.is_server(envelope.from)
    }

    fn is_server(&self, node: NodeId) -> bool {
        node.get() <= self.config.node_count
    }

    pub(super) fn receiver_busy(&self, node: NodeId) -> bool {
        self.server_index(node)
            .is_ok_and(|index| self.servers[index].held.is_some())
    }

    pub(super) fn take(&mut self, message: MessageId) -> LogEnvelope {
        let at = self
            .in_flight
            .binary_search_by_key(&message, |in_flight| in_flight.id)
            .expect("checked");
        let envelope = self.in_flight.remove(at).envelope;
        self.kept_sum = (self.kept_sum).wrapping_sub(part(Part::Message, &envelope));
        envelope
    }
}

//! The log world on the shared [`Network`](crate::network::Network): delivery to a node or a
//! client (with the negative controls that answer at once, and the one that takes an Accept
//! for a decision), the faults on messages and partitions, and a receiver busy with a `Ready`.

use super::{Host, LogWorld};
use crate::faults::{NegativeControl, Refused};
use crate::network::{InFlight, MessageId};
use paros_core::NodeId;
use paros_core::log::{LogEnvelope, LogMessage, Outcome, SlotVote};
use std::sync::Arc;

/// A message on the wire, with its id in send order.
pub type LogInFlight = InFlight<Arc<LogEnvelope>>;

impl LogWorld {
    /// Loses a deliverable message, if the budget allows.
    pub(super) fn drop_message(&mut self, message: MessageId) -> Result<(), Refused> {
        self.deliverable(message)?;
        self.network.drop_message(message, &mut self.budget_left)
    }

    /// Puts a second copy of a deliverable message in flight, if the budget allows.
    pub(super) fn duplicate(&mut self, message: MessageId) -> Result<(), Refused> {
        self.deliverable(message)?;
        self.network.duplicate(message, &mut self.budget_left)?;
        Ok(())
    }

    /// Cuts a node off from every other, if the budget allows.
    pub(super) fn partition(&mut self, node: NodeId) -> Result<(), Refused> {
        self.network.isolate(node, &mut self.budget_left)
    }

    /// Restores every cut link.
    pub(super) fn heal(&mut self) -> Result<(), Refused> {
        self.network.heal()
    }

    pub(super) fn deliver(&mut self, message: MessageId) -> Result<(), Refused> {
        self.deliverable(message)?;
        let envelope = self.network.take(message);
        if let Ok(client) = self.client_index(envelope.to) {
            self.client_receives(client, &envelope.message);
            return Ok(());
        }
        let index = self.server_index(envelope.to)?;
        let Host::Up(node) = &mut Arc::make_mut(&mut self.servers[index]).host else {
            return Ok(()); // delivered to a dead host: lost
        };
        if self.config.negative_control == Some(NegativeControl::LocalRead)
            && let LogMessage::Read { seq, key } = &envelope.message
        {
            let value = node.store().get(key).cloned();
            self.reply_at_once(&envelope, *seq, Outcome::Read(value));
            return Ok(());
        }
        if self.config.negative_control == Some(NegativeControl::LearnEarly)
            && let LogMessage::Accept {
                ballot,
                slot,
                entry,
                ..
            } = &envelope.message
        {
            let vote = SlotVote {
                ballot: *ballot,
                entry: entry.clone(),
            };
            // Learn early: the node learns the entry chosen before it, or anyone, votes.
            let _ignored = node.handle(&LogEnvelope {
                from: envelope.from,
                to: envelope.to,
                message: LogMessage::Chosen {
                    entries: vec![(*slot, vote)],
                },
            });
        }
        let _ignored = node.handle(&envelope);
        self.drain(index);
        if self.config.negative_control == Some(NegativeControl::EarlyAck)
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
        self.network.send(Arc::new(envelope));
    }

    /// The message, if the network can deliver it and its receiver is not busy.
    pub(super) fn deliverable(&self, message: MessageId) -> Result<&LogInFlight, Refused> {
        let in_flight = self.network.deliverable(message)?;
        if self.receiver_busy(in_flight.envelope.to) {
            return Err(Refused::Busy(in_flight.envelope.to));
        }
        Ok(in_flight)
    }

    pub(super) fn receiver_busy(&self, node: NodeId) -> bool {
        self.server_index(node)
            .is_ok_and(|index| self.servers[index].held.is_some())
    }
}

//! The clients: each runs its program one operation at a time, sends it to a node, sends it
//! again when it hears nothing, and records what it saw in the history.

use super::{ClientCall, ClientOp, LogWorld};
use crate::faults::{Fault, Refused};
use paros_core::NodeId;
use paros_core::log::{LogEnvelope, LogMessage, Outcome};
use std::sync::Arc;

impl LogWorld {
    /// Whether every client has finished its program.
    pub fn all_clients_done(&self) -> bool {
        self.clients
            .iter()
            .zip(&self.config.clients)
            .all(|(client, program)| {
                client.next_op == program.len() && client.outstanding.is_none()
            })
    }

    pub(super) fn request(&mut self, client: NodeId, node: NodeId) -> Result<(), Refused> {
        let client_index = self.client_index(client)?;
        self.server_index(node)?;
        let state = &self.clients[client_index];
        let (history_index, resend) = match state.outstanding {
            Some(outstanding) => (outstanding, true),
            None => {
                if state.next_op >= self.config.clients[client_index].len() {
                    return Err(Refused::ClientIdle(client));
                }
                (self.knowledge.history.len(), false)
            }
        };
        if resend && !self.clients[client_index].redirected {
            self.budget_left.spend(Fault::ClientResend)?;
        } else if !resend {
            let program_index = self.clients[client_index].next_op;
            let op = self.config.clients[client_index][program_index].clone();
            let call = self.event_time();
            Arc::make_mut(&mut self.knowledge).history.push(ClientCall {
                client,
                program_index,
                op,
                call,
                ret: None,
                read: None,
            });
            self.clients[client_index].outstanding = Some(history_index);
        }
        let operation = &self.knowledge.history[history_index];
        let seq = operation.seq();
        let message = match &operation.op {
            ClientOp::Write { key, value } => LogMessage::Write {
                seq,
                key: key.clone(),
                value: value.clone(),
            },
            ClientOp::Read { key } => LogMessage::Read {
                seq,
                key: key.clone(),
            },
        };
        self.clients[client_index].redirected = false;
        self.put_in_flight(LogEnvelope {
            from: client,
            to: node,
            message,
        });
        Ok(())
    }

    pub(super) fn client_receives(&mut self, client_index: usize, message: &LogMessage) {
        let LogMessage::Reply { seq, outcome } = message else {
            return;
        };
        let Some(outstanding) = self.clients[client_index].outstanding else {
            return;
        };
        if self.knowledge.history[outstanding].seq() != *seq {
            return; // an answer to an earlier request, already matched
        }
        let read = match outcome {
            Outcome::Written => {
                self.check_written_is_chosen(client_index, *seq);
                None
            }
            Outcome::Read(value) => value.clone(),
            Outcome::NotLeader { .. } => {
                self.clients[client_index].redirected = true;
                return;
            }
        };
        let time = self.event_time();
        let call = &mut Arc::make_mut(&mut self.knowledge).history[outstanding];
        call.ret = Some(time);
        call.read = read;
        let client = &mut self.clients[client_index];
        client.outstanding = None;
        client.next_op += 1;
        self.check_linearizable();
    }

    /// Client events are the history's clock: each call and each return is one tick of it.
    fn event_time(&self) -> u64 {
        self.knowledge
            .history
            .iter()
            .map(|operation| 1 + u64::from(operation.ret.is_some()))
            .sum()
    }

    pub(super) fn client_next_operation(&self, client: NodeId) -> Option<ClientOp> {
        let index = self.client_index(client).ok()?;
        let state = &self.clients[index];
        let op_index = match state.outstanding {
            Some(outstanding) => self.knowledge.history[outstanding].program_index,
            None => state.next_op,
        };
        self.config.clients[index].get(op_index).cloned()
    }

    pub(super) fn client_index(&self, node: NodeId) -> Result<usize, Refused> {
        let number = usize::from(node.get());
        let first = self.servers.len() + 1;
        (first..first + self.clients.len())
            .contains(&number)
            .then(|| number - first)
            .ok_or(Refused::NoSuchNode(node))
    }
}

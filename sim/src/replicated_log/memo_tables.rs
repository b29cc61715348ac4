//! The memo's tables and what they hold: the steps, learnings and receptions it remembers and
//! the servers, messages and knowledge it interns (see `memo.rs`, which looks them up against a
//! world and fills them).

use super::LogAction;
use super::client_state::ClientState;
use super::hosts::Server;
use super::knowledge::{Effect, Knowledge};
use crate::faults::Budget;
use crate::network::MessageId;
use paros_core::log::LogEnvelope;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex};

/// The memo of one exploration's server steps (see `memo.rs`).
#[derive(Default)]
pub(super) struct Memo(pub(super) Mutex<Tables>);

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Memo")
    }
}

/// A hasher for tables whose order is never read.
pub(super) type Fixed = foldhash::fast::FixedState;

/// The hasher of the memo's keys: what a step received, and what a knowledge holds.
pub(super) const KEYS: foldhash::quality::FixedState =
    foldhash::quality::FixedState::with_seed(0x6d65_6d6f);

#[derive(Default)]
pub(super) struct Tables {
    /// By the server's address and the message's.
    pub(super) steps: HashMap<(usize, u64), Arc<Step>, Fixed>,
    /// By the effects' address and the knowledge's.
    pub(super) learnings: HashMap<(usize, usize), Learning, Fixed>,
    /// Servers by their fingerprint part.
    pub(super) servers: HashMap<u64, Arc<Server>, Fixed>,
    /// Knowledge by its hash.
    pub(super) knowledge: HashMap<u64, Arc<Knowledge>, Fixed>,
    /// Messages by their hash.
    pub(super) envelopes: HashMap<u64, Arc<LogEnvelope>, Fixed>,
    /// By the knowledge's address and the hash of the client's place, state and message's
    /// address.
    pub(super) receptions: HashMap<(usize, u64), Reception, Fixed>,
}

/// A message delivered to a client: its inputs in full, and what it did. A client's reception
/// reads only that client, the message and the knowledge (its checkers), and changes only them
/// and the messages in flight.
pub(super) struct Reception {
    pub(super) index: usize,
    pub(super) client_before: ClientState,
    pub(super) knowledge_before: Arc<Knowledge>,
    pub(super) envelope: Arc<LogEnvelope>,
    pub(super) client: ClientState,
    pub(super) knowledge: Arc<Knowledge>,
    pub(super) kept_delta: u64,
    pub(super) fingerprint_delta: u64,
}

/// What a server's step is taken on: a message delivered to it, or an action of its own (a
/// tick, a crash, a restart), which reads only the server and the configuration too.
#[derive(PartialEq)]
pub(super) enum Input {
    Message(Arc<LogEnvelope>),
    Own(LogAction),
}

/// One server step: its inputs in full, and what it did.
pub(super) struct Step {
    pub(super) server_before: Arc<Server>,
    pub(super) input: Input,
    pub(super) server: Arc<Server>,
    pub(super) server_part: u64,
    /// The messages it put in flight, in order.
    pub(super) sent: Vec<Arc<LogEnvelope>>,
    /// What it added to the network's sum of messages: the parts of those sent, less the
    /// delivered one's.
    pub(super) message_sum_delta: u64,
    /// What it added to the kept sum: the parts of the messages sent, less the delivered one's.
    pub(super) kept_delta: u64,
    /// What it added to the fingerprint before its effects were learned, but for the fault
    /// it spent ([`At::budget_after`]).
    pub(super) fingerprint_delta: u64,
    pub(super) effects: Arc<Vec<Effect>>,
}

/// A step's effects learned against one knowledge: its inputs in full, and what they did.
pub(super) struct Learning {
    pub(super) effects: Arc<Vec<Effect>>,
    pub(super) knowledge_before: Arc<Knowledge>,
    pub(super) knowledge: Arc<Knowledge>,
    pub(super) kept_delta: u64,
    pub(super) fingerprint_delta: u64,
}

impl Tables {
    /// What `effects` did when learned against exactly `knowledge`, if remembered.
    pub(super) fn learning(
        &self,
        effects: &Arc<Vec<Effect>>,
        knowledge: &Arc<Knowledge>,
    ) -> Option<&Learning> {
        let key = (address(effects), address(knowledge));
        self.learnings.get(&key).filter(|learning| {
            Arc::ptr_eq(&learning.effects, effects)
                && Arc::ptr_eq(&learning.knowledge_before, knowledge)
        })
    }

    /// The one server with these contents the memo knows, this one if it knows none.
    pub(super) fn intern_server(&mut self, part: u64, server: &Arc<Server>) -> Arc<Server> {
        let known = self
            .servers
            .entry(part)
            .or_insert_with(|| Arc::clone(server));
        if **known == **server {
            Arc::clone(known)
        } else {
            Arc::clone(server)
        }
    }

    /// The one message with these contents the memo knows, this one if it knows none.
    pub(super) fn intern_envelope(&mut self, envelope: &Arc<LogEnvelope>) -> Arc<LogEnvelope> {
        let hash = KEYS.hash_one(&**envelope);
        let known = (self.envelopes.entry(hash)).or_insert_with(|| Arc::clone(envelope));
        if **known == **envelope {
            Arc::clone(known)
        } else {
            Arc::clone(envelope)
        }
    }

    /// The one knowledge with these contents the memo knows, this one if it knows none.
    pub(super) fn intern_knowledge(&mut self, knowledge: &Arc<Knowledge>) -> Arc<Knowledge> {
        let hash = KEYS.hash_one(&**knowledge);
        let known = (self.knowledge.entry(hash)).or_insert_with(|| Arc::clone(knowledge));
        if **known == **knowledge {
            Arc::clone(known)
        } else {
            Arc::clone(knowledge)
        }
    }
}

pub(super) fn address<T>(shared: &Arc<T>) -> usize {
    Arc::as_ptr(shared) as usize
}

/// A delivery or a server's own action, as the memo looks it up.
pub(super) struct At {
    pub(super) action: LogAction,
    /// The message it takes out of flight, if it is a delivery.
    pub(super) message: Option<MessageId>,
    /// Whether the message goes to a client rather than a server.
    pub(super) to_client: bool,
    /// The place of the server or client it goes to.
    pub(super) index: usize,
    /// The budget once the action has spent its fault, if it spends one.
    pub(super) budget_after: Budget,
    /// The key of its table: `Tables::steps`' or `Tables::receptions`'.
    pub(super) key: (usize, u64),
}

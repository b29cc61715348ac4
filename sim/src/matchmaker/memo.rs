//! The memo of deliveries: an exploration delivers the same message to the same node in many
//! states that differ only elsewhere; the memo steps it once.
//!
//! A delivery reads only its receiver and the message, and changes only the receiver (and a
//! matchmaker's disk) and the messages in flight: the one delivered leaves, the ones sent join,
//! in order. So a delivery is worked out once by the world's own code ([`Delivered::work_out`])
//! and replayed after. It records what it added to the fingerprint, a sum of parts, so the
//! fingerprint of a remembered successor is its parent's plus that change, with nothing built.
//! (The one thing a delivery asks of the rest of the world, an acceptor's vote joining the
//! votes of its round, is worked out against the world at hand: see
//! [`MatchmakerWorld::votes_change`](super::MatchmakerWorld).)
//!
//! Receivers and messages are keyed by address. Each entry holds the `Arc`s it was keyed under,
//! so an address cannot be reused for other contents while the entry lives. The nodes and
//! messages the memo meets are interned by contents (checked equal, not only hashed equal), so
//! equal contents reached along different paths share one address, and so one entry; a node or
//! a message that escaped interning is only a miss, never a wrong hit.
//!
//! Invariant: a memo serves the worlds of one exploration, which share one configuration.

use super::node::Node;
use crate::fingerprint::swap;
use crate::network::Network;
use paros_core::matchmaker::{
    Leader, Matchmaker, MatchmakerWrite, MmEnvelope, Reconfigurer, RetiringAcceptor,
};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

/// A hasher for tables keyed by addresses or by hashes already mixed: fixed, so a run does not
/// depend on a random seed (no table here is ever iterated, in any case).
type Fixed = foldhash::fast::FixedState;

/// What delivering one message did to its receiver, and to the fingerprint.
#[derive(Debug)]
pub(super) struct Delivered {
    /// The receiver after the step.
    pub(super) after: Node,
    /// What the receiver's part of the fingerprint changed by.
    pub(super) node_change: u64,
    /// A matchmaker's writes, which reach its disk before its replies leave.
    pub(super) writes: Arc<[MatchmakerWrite]>,
    /// The messages it sent, in order.
    pub(super) sent: Vec<Arc<MmEnvelope>>,
    /// What the sum of the messages in flight changed by: the sent ones' parts less the
    /// delivered one's.
    pub(super) network_change: u64,
    /// Why the receiver took no step, if it did not, in words.
    pub(super) refused: Option<String>,
}

impl Delivered {
    /// Delivers `envelope` to `receiver` (its state before, `None` when the world has no such
    /// node) by the world's own code, interning what it made in `tables` if given.
    pub(super) fn work_out(
        receiver: &Node,
        envelope: &Arc<MmEnvelope>,
        mut tables: Option<&mut Tables>,
    ) -> Delivered {
        let stepped = receiver.step(envelope);
        let after = match tables.as_deref_mut() {
            Some(tables) => tables.intern_node(stepped.after),
            None => stepped.after,
        };
        let sent: Vec<Arc<MmEnvelope>> = (stepped.sent.into_iter())
            .map(|envelope| match tables.as_deref_mut() {
                Some(tables) => tables.intern_envelope(envelope),
                None => Arc::new(envelope),
            })
            .collect();
        let sent_sum = (sent.iter())
            .map(Network::<Arc<MmEnvelope>>::message_part)
            .fold(0, u64::wrapping_add);
        let taken = Network::<Arc<MmEnvelope>>::message_part(envelope);
        Delivered {
            node_change: swap(0, receiver.part(), after.part()),
            after,
            writes: stepped.writes.into(),
            sent,
            network_change: sent_sum.wrapping_sub(taken),
            refused: stepped.refused,
        }
    }
}

/// The memo of one exploration, shared by every world built in it.
#[derive(Default)]
pub(super) struct Memo(Mutex<Tables>);

impl fmt::Debug for Memo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Memo")
    }
}

impl Memo {
    /// The tables, for one lookup. A panic while they were held cannot have left an entry
    /// half made (each is inserted whole), so a poisoned lock is taken as it is.
    fn tables(&self) -> MutexGuard<'_, Tables> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The delivery of `envelope` to the node whose state lives at `address`: remembered, or
    /// worked out from the node `receiver` gives and remembered.
    pub(super) fn delivered(
        &self,
        address: usize,
        envelope: &Arc<MmEnvelope>,
        receiver: impl FnOnce() -> Node,
    ) -> Arc<Delivered> {
        let mut tables = self.tables();
        let key = (address, Arc::as_ptr(envelope) as usize);
        if let Some(remembered) = tables.deliveries.get(&key) {
            return Arc::clone(&remembered.delivered);
        }
        let receiver = receiver();
        let delivered = Arc::new(Delivered::work_out(&receiver, envelope, Some(&mut tables)));
        let remembered = Remembered {
            _receiver: receiver,
            _envelope: Arc::clone(envelope),
            delivered: Arc::clone(&delivered),
        };
        tables.deliveries.insert(key, remembered);
        delivered
    }

    /// The memo's one copy of `envelope`'s contents.
    pub(super) fn envelope(&self, envelope: &Arc<MmEnvelope>) -> Arc<MmEnvelope> {
        let mut tables = self.tables();
        tables.intern_shared_envelope(envelope)
    }

    /// The memo's one copy of `node`'s contents.
    pub(super) fn node(&self, node: Node) -> Node {
        let mut tables = self.tables();
        tables.intern_node(node)
    }
}

/// A delivery remembered, with the receiver and message it was keyed under (held, so their
/// addresses stay theirs).
struct Remembered {
    _receiver: Node,
    _envelope: Arc<MmEnvelope>,
    delivered: Arc<Delivered>,
}

/// Contents interned by hash, each hash's copies checked equal in full.
struct Interned<T>(HashMap<u64, Vec<Arc<T>>, Fixed>);

impl<T> Default for Interned<T> {
    fn default() -> Self {
        Interned(HashMap::default())
    }
}

impl<T: PartialEq> Interned<T> {
    /// The one copy of `value`'s contents, which hash to `hash`.
    fn intern(&mut self, hash: u64, value: Arc<T>) -> Arc<T> {
        let copies = self.0.entry(hash).or_default();
        match copies.iter().find(|copy| ***copy == *value) {
            Some(copy) => Arc::clone(copy),
            None => {
                copies.push(Arc::clone(&value));
                value
            }
        }
    }
}

/// The memo's tables.
#[derive(Default)]
pub(super) struct Tables {
    /// Deliveries, by the receiver's and the message's addresses.
    deliveries: HashMap<(usize, usize), Remembered, Fixed>,
    envelopes: Interned<MmEnvelope>,
    matchmakers: Interned<Matchmaker>,
    acceptors: Interned<RetiringAcceptor>,
    leaders: Interned<Leader>,
    reconfigurers: Interned<Reconfigurer>,
}

impl Tables {
    fn intern_envelope(&mut self, envelope: MmEnvelope) -> Arc<MmEnvelope> {
        self.intern_shared_envelope(&Arc::new(envelope))
    }

    fn intern_shared_envelope(&mut self, envelope: &Arc<MmEnvelope>) -> Arc<MmEnvelope> {
        let hash = Network::<Arc<MmEnvelope>>::message_part(envelope);
        self.envelopes.intern(hash, Arc::clone(envelope))
    }

    fn intern_node(&mut self, node: Node) -> Node {
        let hash = node.part();
        match node {
            Node::Matchmaker(index, m) => Node::Matchmaker(index, self.matchmakers.intern(hash, m)),
            Node::Acceptor(index, a) => Node::Acceptor(index, self.acceptors.intern(hash, a)),
            Node::Leader(index, l) => Node::Leader(index, self.leaders.intern(hash, l)),
            Node::Reconfigurer(r) => Node::Reconfigurer(self.reconfigurers.intern(hash, r)),
            Node::Missing(id) => Node::Missing(id),
        }
    }
}

//! The replicated state machine: a key-value store with client sessions.
//!
//! Sessions make a retried request apply once: each client's highest applied request number is
//! part of the replicated state, so every node skips the same repeats (the Raft dissertation,
//! Ongaro 2014, section 6.3, does the same).

use crate::log::Entry;
use crate::{NodeId, Value};
use std::collections::BTreeMap;

/// A key-value store with a session per client.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct KvStore {
    values: BTreeMap<Value, Value>,
    /// Each client's highest applied request number.
    sessions: BTreeMap<NodeId, u64>,
}

impl KvStore {
    /// Applies an entry; returns false when it repeats an applied request and was skipped.
    pub fn apply(&mut self, entry: &Entry) -> bool {
        let Entry::Command(command) = entry else {
            return true;
        };
        if self.applied_seq(command.client) >= command.seq {
            return false;
        }
        self.sessions.insert(command.client, command.seq);
        self.values
            .insert(command.key.clone(), command.value.clone());
        true
    }

    /// The value of `key`, if it was ever written.
    pub fn get(&self, key: &Value) -> Option<&Value> {
        self.values.get(key)
    }

    /// The highest request number applied for `client` (0 if none).
    pub fn applied_seq(&self, client: NodeId) -> u64 {
        self.sessions.get(&client).copied().unwrap_or(0)
    }

    /// Every key and its value, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&Value, &Value)> {
        self.values.iter()
    }

    /// The session table: each client's highest applied request number, in client order.
    pub fn sessions(&self) -> impl Iterator<Item = (NodeId, u64)> + '_ {
        self.sessions.iter().map(|(client, seq)| (*client, *seq))
    }

    /// A store holding exactly these values and sessions, as read back from a trim point on
    /// disk.
    pub fn from_parts(values: BTreeMap<Value, Value>, sessions: BTreeMap<NodeId, u64>) -> KvStore {
        KvStore { values, sessions }
    }

    /// Applies a command with no look at the session table: a repeat applies again. Only the
    /// simulator's negative control for de-duplicating at propose time uses it.
    #[cfg(feature = "negative-controls")]
    pub(crate) fn apply_without_sessions(&mut self, entry: &Entry) -> bool {
        if let Entry::Command(command) = entry {
            let seq = self.applied_seq(command.client).max(command.seq);
            self.sessions.insert(command.client, seq);
            self.values
                .insert(command.key.clone(), command.value.clone());
        }
        true
    }
}

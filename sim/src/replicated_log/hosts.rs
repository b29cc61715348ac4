//! Where the world's nodes run: a server's [`Host`] with its disk and its held `Ready`
//! ([`Server`], [`HeldReady`]), and a proxy leader's [`ProxyHost`] ([`Proxies`]). `servers.rs`
//! and `proxies.rs` step them.

use super::knowledge::Part;
use crate::fingerprint::part;
use paros_core::log::{
    ColocatedNode, DurableRecord, LogConfig, LogEnvelope, ProxyLeader, Ready, Slot, Write, encode,
};
use paros_core::{Ballot, NodeId};
use std::collections::BTreeSet;

/// A `Ready` a stepwise node has not finished, at the step it has reached.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum HeldReady {
    /// Nothing durable, nothing sent: the node's `Ready` itself (its applied entries already
    /// taken), whose messages only the proof made by `persist` releases.
    Unpersisted(Ready),
    /// The writes are durable, and their proof released the messages, which wait for `send`.
    Persisted {
        /// The writes, now durable.
        writes: Vec<Write>,
        /// The messages, waiting for `send`.
        messages: Vec<LogEnvelope>,
    },
    /// Only under [`NegativeControl::SendBeforePersist`](crate::faults::NegativeControl::SendBeforePersist): the messages left before the writes
    /// were durable; the writes still wait for `persist`.
    SentBeforePersist {
        /// The writes, not yet durable.
        writes: Vec<Write>,
    },
}

impl HeldReady {
    /// The writes, durable or not.
    pub fn writes(&self) -> &[Write] {
        match self {
            HeldReady::Unpersisted(ready) => ready.writes(),
            HeldReady::Persisted { writes, .. } | HeldReady::SentBeforePersist { writes } => writes,
        }
    }

    /// The messages not yet sent.
    pub fn messages(&self) -> &[LogEnvelope] {
        match self {
            HeldReady::Unpersisted(ready) => ready.pending_messages(),
            HeldReady::Persisted { messages, .. } => messages,
            HeldReady::SentBeforePersist { .. } => &[],
        }
    }

    /// Whether the writes are durable.
    pub fn persisted(&self) -> bool {
        matches!(self, HeldReady::Persisted { .. })
    }

    /// Whether the messages have left.
    pub fn sent(&self) -> bool {
        matches!(self, HeldReady::SentBeforePersist { .. })
    }
}

/// Where a server's node runs: up with its volatile state, or down with only its disk left.
// Down is small and Up is not, as with the `Option` this replaces; a server is up most of the
// time, and boxing the node would add an allocation to every copy of a world the explorer makes.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Host {
    /// The node runs.
    Up(ColocatedNode),
    /// The node crashed and has not restarted.
    Down,
}

impl Host {
    /// The running node, if the host is up.
    pub fn node(&self) -> Option<&ColocatedNode> {
        match self {
            Host::Up(node) => Some(node),
            Host::Down => None,
        }
    }

    /// The running node, if the host is up, to step.
    pub fn node_mut(&mut self) -> Option<&mut ColocatedNode> {
        match self {
            Host::Up(node) => Some(node),
            Host::Down => None,
        }
    }

    /// Whether the node runs.
    pub fn is_up(&self) -> bool {
        matches!(self, Host::Up(_))
    }
}

/// One server: its host (the node, or nothing while crashed), its disk and what the checkers
/// track of it.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Server {
    /// The running node, or nothing while crashed.
    pub host: Host,
    /// The durable frames, oldest first.
    pub disk: Vec<Vec<u8>>,
    /// Stepwise worlds: the `Ready` being persisted and sent.
    pub held: Option<HeldReady>,
    /// What a restart would read from `disk`, kept as writes become durable: the durability
    /// checker judges it without waiting for a crash.
    pub(super) record: DurableRecord,
    /// Ticks this server's clock has made, over its whole life.
    pub ticks: u32,
    /// Requests this incarnation applied fresh (the exactly-once checker).
    pub(super) applied_fresh: BTreeSet<(NodeId, u64)>,
    /// The last slot this incarnation applied (the in-order checker).
    pub(super) applied_through: Slot,
    /// The ballots this node stood at in its earlier lives, and in this one (the checker that
    /// a ballot is never reused).
    pub(super) stood_before: BTreeSet<Ballot>,
    pub(super) stood_now: BTreeSet<Ballot>,
    /// The slots this node durably voted in and has not truncated (the no-none-where-voted
    /// checker): kept from the writes that reach the disk, apart from what the core reads back.
    pub(super) voted_slots: BTreeSet<Slot>,
    /// The library refuses to boot this node from its disk (wiped, or its record unreadable):
    /// it stays down. Worked out by [`ColocatedNode::boot`] whenever a fault changes the disk
    /// of the crashed node.
    pub boot_refused: bool,
    /// The last frame on `disk` is a write a crash cut short: the only frame recovery may read
    /// as torn and drop (the torn-only-if-cut checker).
    pub(super) last_frame_cut: bool,
}

impl Server {
    /// A server whose new node is installed with its identity on disk before the world begins.
    pub(super) fn new(id: NodeId, config: LogConfig) -> Server {
        let mut node = ColocatedNode::new(id, config);
        let ready = node.take_ready();
        let disk = ready.writes().iter().map(encode).collect();
        let mut record = DurableRecord::default();
        let proof = record.persist(ready.writes());
        let messages = ready.into_messages(proof);
        debug_assert!(messages.is_empty());
        Server {
            host: Host::Up(node),
            disk,
            held: None,
            record,
            ticks: 0,
            applied_fresh: BTreeSet::new(),
            applied_through: Slot(0),
            stood_before: BTreeSet::new(),
            stood_now: BTreeSet::new(),
            voted_slots: BTreeSet::new(),
            boot_refused: false,
            last_frame_cut: false,
        }
    }
}

/// Where a proxy leader runs: up with its counts, or down. There is no disk: a proxy keeps no
/// safety state (P5), so nothing of it survives a crash.
// Down is small and Up is not; boxing the proxy would add an allocation to every copy.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum ProxyHost {
    /// The proxy runs.
    Up(ProxyLeader),
    /// The proxy crashed and has not restarted.
    Down,
}

impl ProxyHost {
    /// The running proxy, if the host is up.
    pub fn proxy(&self) -> Option<&ProxyLeader> {
        match self {
            ProxyHost::Up(proxy) => Some(proxy),
            ProxyHost::Down => None,
        }
    }

    /// Whether the proxy runs.
    pub fn is_up(&self) -> bool {
        matches!(self, ProxyHost::Up(_))
    }
}

/// A world's proxy leaders, P1 first, with each one's part of the fingerprint: one value,
/// shared between copies of a world until one of them changes it.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub(super) struct Proxies {
    pub(super) hosts: Vec<ProxyHost>,
    /// Invariant: `parts[i] == part(Part::Proxy(i), &hosts[i])`.
    pub(super) parts: Vec<u64>,
}

impl Proxies {
    /// The proxies at their beginning: `hosts`, with their parts.
    pub(super) fn new(hosts: Vec<ProxyHost>) -> Proxies {
        let parts = (hosts.iter().enumerate())
            .map(|(index, host)| part(Part::Proxy(index), host))
            .collect();
        Proxies { hosts, parts }
    }
}

//! What a log world is made of: its nodes, its clients' programs ([`ClientOp`]), its clocks,
//! the faults it allows and the one fault outside the model a negative control may use.

use crate::faults::{Budget, Fault, NegativeControl, Refused};
use crate::linearizability;
use paros_core::log::LogConfig;
use paros_core::{Flexible, Grid, Majority, NodeId, NodeSet, QuorumSystem, Quorums, Value};
use std::fmt;
use std::num::{NonZeroU16, NonZeroU64};

/// One operation of a client's program.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum ClientOp {
    /// Set `key` to `value`.
    Write {
        /// The key.
        key: Value,
        /// The value.
        value: Value,
    },
    /// Read `key`.
    Read {
        /// The key.
        key: Value,
    },
}

impl ClientOp {
    /// A write of `key = value`.
    pub fn write(key: &str, value: &str) -> ClientOp {
        ClientOp::Write {
            key: Value::new(key),
            value: Value::new(value),
        }
    }

    /// A read of `key`.
    pub fn read(key: &str) -> ClientOp {
        ClientOp::Read {
            key: Value::new(key),
        }
    }
}

impl fmt::Display for ClientOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientOp::Write { key, value } => write!(f, "write {key}={value}"),
            ClientOp::Read { key } => write!(f, "read {key}"),
        }
    }
}

/// What a log world is made of. Constant for the life of a world.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct LogWorldConfig {
    /// How many nodes: N1..Nn.
    pub node_count: u8,
    /// Each client's program, in order: C1 first.
    pub clients: Vec<Vec<ClientOp>>,
    /// Ticks without a leader before a node stands for election.
    pub election_timeout_ticks: u32,
    /// Ticks between a leader's heartbeats.
    pub heartbeat_interval_ticks: u32,
    /// The faults allowed: drops, duplicates, crashes, torn writes, partitions, ticks (across
    /// all nodes) and client resends.
    pub budget: Budget,
    /// Whether `persist` and `send` are separate actions.
    pub stepwise_ready: bool,
    /// The fault outside the model this world may use, if it is a negative control.
    pub negative_control: Option<NegativeControl>,
    /// The one node each client sends to, C1 first, when it knows that node leads; a client
    /// with no entry (or `None`) may ask any node. A smaller world for the explorer, not a
    /// different protocol.
    pub client_targets: Vec<Option<NodeId>>,
    /// Whether a node's messages to itself travel the network like any other (held, lost,
    /// duplicated, reordered) instead of being handled at once. paros-core does not require
    /// them to arrive at once, and a networked caller would not deliver them so.
    pub self_messages_in_flight: bool,
    /// How large a history the linearizability checker may judge; past them it gives up, an
    /// error.
    pub linearizability_limits: linearizability::Limits,
    /// How many times an operator may ask a leader to compact the log through what it has
    /// applied ([`LogAction::Trim`](super::LogAction::Trim)); 0 for a world with no truncation.
    pub trims: u32,
    /// How many slots below what a leader applied an operator's trim asks it to compact through
    /// ([`LogWorld::trim_through`](super::LogWorld::trim_through)): 0, the default, asks through
    /// its applied index; more asks through that many slots fewer, but above its floor.
    pub trim_lag: u64,
    /// How many times an operator may ask a leader to hand its ballot to another node
    /// ([`LogAction::HandOff`](super::LogAction::HandOff)); 0 for a world with no handoff. Only
    /// worlds with handoffs record every Accept sent, for H1's checker.
    pub handoffs: u32,
    /// The quorum system the nodes count with, over N1..Nn; `None` for majorities. The
    /// checkers judge chosen by its Phase-2 quorums ([`LogWorldConfig::quorum_system`]).
    pub quorums: Option<Quorums>,
    /// How many proxy leaders (Compartmentalized Paxos): P1..Pk, numbered after the clients.
    /// With any, a leader sends each Accept through one of them
    /// ([`LogConfig::with_proxies`]); 0 for a world without.
    pub proxies: u8,
    /// The most consecutive slots a leader sends in one Accept
    /// ([`LogConfig::with_accept_batch`]); 1, the default, sends one Accept per slot and no
    /// run. Refused with proxies.
    pub accept_batch: usize,
    /// Whether storage faults act at the bit level: a corruption flips any bit of any frame of
    /// a crashed node's disk (length, label, checksum or payload), in place of a record's
    /// payload, and a torn write cuts its frame at any byte, in place of half way.
    pub bit_level_storage: bool,
    /// How far above its chosen index a message may name a slot to a node
    /// ([`LogConfig::with_slot_window`]); `None` for paros-core's default.
    pub slot_window: Option<NonZeroU16>,
    /// The most chosen entries a leader sends a lagging node in one `Chosen`
    /// ([`LogConfig::catch_up_batch`]); `None` for paros-core's default. 0 sends empty
    /// batches, so a lagging node never catches up: a control for the catch-up check only.
    pub catch_up_batch: Option<u16>,
    /// Whether a message on a cut link is lost when the partition heals, as a message sent
    /// into a cut wire is in a real network, in place of waiting on the wire to be delivered
    /// after (the default, which the explorer's pinned counts assume).
    pub cut_messages_lost: bool,
}

impl LogWorldConfig {
    /// Three nodes, one client with `program`, an election timeout of 2 ticks, no faults.
    pub fn three_nodes(program: Vec<ClientOp>) -> LogWorldConfig {
        LogWorldConfig {
            node_count: 3,
            clients: vec![program],
            election_timeout_ticks: 2,
            heartbeat_interval_ticks: 1,
            budget: Budget::NONE,
            stepwise_ready: false,
            negative_control: None,
            client_targets: Vec::new(),
            self_messages_in_flight: false,
            linearizability_limits: linearizability::Limits::default(),
            trims: 0,
            trim_lag: 0,
            handoffs: 0,
            quorums: None,
            proxies: 0,
            accept_batch: 1,
            bit_level_storage: false,
            slot_window: None,
            catch_up_batch: None,
            cut_messages_lost: false,
        }
    }

    /// The node id of node `index` (0-based).
    pub fn node_id(&self, index: usize) -> NodeId {
        id(index + 1)
    }

    /// The node id of client `index` (0-based).
    pub fn client_id(&self, index: usize) -> NodeId {
        id(usize::from(self.node_count) + index + 1)
    }

    /// The node id of proxy leader `index` (0-based): after the nodes and the clients, so a
    /// world's nodes and clients keep their ids whether it has proxies or not.
    pub fn proxy_id(&self, index: usize) -> NodeId {
        id(usize::from(self.node_count) + self.clients.len() + index + 1)
    }

    /// The proxy leaders, P1 first.
    pub fn proxy_ids(&self) -> NodeSet {
        (0..usize::from(self.proxies))
            .map(|index| self.proxy_id(index))
            .collect()
    }

    /// The node client `index` (0-based) may send to, if it is held to one.
    pub fn client_target(&self, index: usize) -> Option<NodeId> {
        self.client_targets.get(index).copied().flatten()
    }

    pub(super) fn nodes(&self) -> NodeSet {
        (0..usize::from(self.node_count))
            .map(|index| self.node_id(index))
            .collect()
    }

    /// The quorum system of this world: the configured one, majorities by default, or, in the
    /// [`NegativeControl::NonIntersectingQuorums`] and [`NegativeControl::GridDecidesInRow`]
    /// worlds, the broken system, built here because paros-core refuses it.
    pub fn quorum_system(&self) -> Quorums {
        let nodes = self.nodes();
        match self.negative_control {
            Some(NegativeControl::NonIntersectingQuorums) => {
                return Quorums::Flexible(non_intersecting_quorums(nodes));
            }
            Some(NegativeControl::GridDecidesInRow) => {
                return Quorums::Grid(grid_deciding_in_rows(self));
            }
            _ => {}
        }
        self.quorums.unwrap_or_else(|| {
            Quorums::Majority(Majority::new(nodes).expect("validated: a world has nodes"))
        })
    }

    /// The configuration paros-core's nodes run with, quorum system and timeouts included.
    pub fn core_config(&self) -> LogConfig {
        let mut config = LogConfig::new(self.nodes())
            .with_quorums(self.quorum_system())
            .unwrap_or_else(|error| {
                panic!("validated: the quorum system is over the nodes: {error}")
            });
        if self.proxies > 0 {
            config = config
                .with_proxies(self.proxy_ids())
                .unwrap_or_else(|error| panic!("proxies are numbered after the nodes: {error}"));
        }
        #[cfg(feature = "accept-batch")]
        {
            config = config
                .with_accept_batch(self.accept_batch)
                .unwrap_or_else(|refused| {
                    panic!("validated: the accept batch is allowed: {refused}")
                });
        }
        if let Some(window) = self.slot_window {
            config = config
                .with_slot_window(NonZeroU64::from(window))
                .unwrap_or_else(|refused| panic!("validated: the window holds a run: {refused}"));
        }
        if let Some(batch) = self.catch_up_batch {
            config.catch_up_batch = usize::from(batch);
        }
        config.election_timeout_ticks = self.election_timeout_ticks;
        config.heartbeat_interval_ticks = self.heartbeat_interval_ticks;
        config
    }

    pub(super) fn validate(&self) -> Result<(), Refused> {
        let count = usize::from(self.node_count) + self.clients.len() + usize::from(self.proxies);
        if self.node_count == 0 || count > usize::from(NodeId::MAX) {
            return Err(Refused::BadConfig(
                "between 1 and 63 nodes, clients and proxies",
            ));
        }
        if self.accept_batch == 0 || (self.accept_batch > 1 && self.proxies > 0) {
            return Err(Refused::BadConfig(
                "an accept batch of at least 1, and of 1 with proxies",
            ));
        }
        if (self.slot_window).is_some_and(|window| {
            !paros_core::log::window_holds_a_run(u64::from(window.get()), self.accept_batch)
        }) {
            return Err(Refused::BadConfig(
                "a slot window at least the accept batch (paros-core refuses a smaller one)",
            ));
        }
        if self.accept_batch > 1 && !cfg!(feature = "accept-batch") {
            return Err(Refused::BadConfig(
                "an accept batch of 1: this build has no batched Accepts (feature accept-batch)",
            ));
        }
        let needs_proxies = [
            NegativeControl::ProxyKeyedBySlot,
            NegativeControl::NewValueSameBallot,
            NegativeControl::ProxyIgnoresRepeats,
        ];
        if self.proxies == 0
            && self
                .negative_control
                .is_some_and(|c| needs_proxies.contains(&c))
        {
            return Err(Refused::BadConfig(
                "a proxy-leader control needs a world with proxies",
            ));
        }
        if self.negative_control == Some(NegativeControl::SendBeforePersist) && !self.stepwise_ready
        {
            return Err(Refused::BadConfig(
                "send-before-persist needs stepwise_ready",
            ));
        }
        if self.negative_control == Some(NegativeControl::Amnesia)
            || [Fault::Retry, Fault::Amnesia]
                .into_iter()
                .any(|f| self.budget.allows(f))
        {
            return Err(Refused::BadConfig(
                "retries and amnesia are Act I's; a log world's nodes retry by their clocks",
            ));
        }
        if self.negative_control == Some(NegativeControl::RogueValue) {
            return Err(Refused::BadConfig(
                "a rogue value is Act I's negative control",
            ));
        }
        let needs_trims = [
            NegativeControl::TrimIgnoresFloor,
            NegativeControl::JumpMovesPromise,
        ];
        if self.trims == 0
            && self
                .negative_control
                .is_some_and(|c| needs_trims.contains(&c))
        {
            return Err(Refused::BadConfig(
                "a truncation control needs a world with trims",
            ));
        }
        let needs_handoffs = [
            (NegativeControl::HandoffFillsGaps, 1),
            (NegativeControl::DoubleHandoff, 2),
        ];
        if needs_handoffs.iter().any(|(control, count)| {
            self.negative_control == Some(*control) && self.handoffs < *count
        }) {
            return Err(Refused::BadConfig(
                "a handoff control needs a world with handoffs (two for double-handoff)",
            ));
        }
        if self
            .quorums
            .is_some_and(|quorums| quorums.acceptors() != self.nodes())
        {
            return Err(Refused::BadConfig(
                "the quorum system is over other nodes than the world's",
            ));
        }
        if self.negative_control == Some(NegativeControl::NonIntersectingQuorums)
            && (self.quorums.is_some() || !self.node_count.is_multiple_of(2))
        {
            return Err(Refused::BadConfig(
                "the non-intersecting-quorums control builds its own quorums, over an even number of nodes",
            ));
        }
        if self.negative_control == Some(NegativeControl::GridDecidesInRow)
            && (self.quorums.is_some() || self.node_count != 4)
        {
            return Err(Refused::BadConfig(
                "the grid-decides-in-row control builds its own 2x2 grid, over four nodes",
            ));
        }
        if self.budget.allows(Fault::TornWrite) && !self.stepwise_ready {
            return Err(Refused::BadConfig("a torn write needs stepwise_ready"));
        }
        Ok(())
    }
}

/// The negative control's quorum system: any half of the nodes elect and any half choose, so
/// one half may elect while the other chooses and neither hears of the other (F1 broken: with
/// four nodes, {N1, N2} and {N3, N4}). paros-core refuses to build it ([`Flexible::new`]); the
/// world builds it with the unchecked constructor the core has for negative controls only.
fn non_intersecting_quorums(nodes: NodeSet) -> Flexible {
    let half = nodes.len() / 2;
    Flexible::new_unchecked(nodes, half, half)
}

/// The grid control's quorum system: rows {N1, N2} and {N3, N4}, where a full row decides as
/// well as the slot's column, so one row may choose while the other elects and sees nothing.
/// paros-core refuses such a grid ([`Grid::new`] lets only columns decide); the world builds it
/// with the constructor the core has for negative controls only.
fn grid_deciding_in_rows(config: &LogWorldConfig) -> Grid {
    let rows = [0, 2].map(|first| vec![config.node_id(first), config.node_id(first + 1)]);
    Grid::deciding_in_rows_unchecked(&rows)
        .unwrap_or_else(|error| panic!("four distinct nodes make a 2x2 grid: {error}"))
}

/// The node id numbered `number`: N1 is 1, and clients follow the nodes.
pub(super) fn id(number: usize) -> NodeId {
    u8::try_from(number)
        .ok()
        .and_then(NodeId::new)
        .expect("validated count")
}

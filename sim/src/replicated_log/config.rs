//! What a log world is made of: its nodes, its clients' programs ([`ClientOp`]), its clocks,
//! the faults it allows ([`LogBudget`]) and the one fault outside the model a negative control
//! may use ([`LogNegativeControl`]).

use super::LogRefused;
use paros_core::log::LogConfig;
use paros_core::{NodeId, NodeSet, Value};
use std::fmt;

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

/// The faults (and retries) a log world may still use.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct LogBudget {
    /// Messages that may be lost.
    pub drops: u32,
    /// Messages that may be delivered twice.
    pub duplicates: u32,
    /// Crashes (a crash loses volatile state and writes not yet durable).
    pub crashes: u32,
    /// Crashes in the middle of persisting, leaving the last frame torn (stepwise worlds).
    pub torn_writes: u32,
    /// Partitions: a node cut off from every other until healed.
    pub partitions: u32,
    /// Ticks, across all nodes (each tick is a unit of a node's clock).
    pub ticks: u32,
    /// Times clients may send an outstanding request again.
    pub client_resends: u32,
}

/// A fault outside the model, used only to prove that a checker can fail.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum LogNegativeControl {
    /// A node's messages may leave before its writes are durable (`send` before `persist`).
    SendBeforePersist,
    /// A restarted node comes back on a blank disk as if new, its promises and votes lost.
    BlankRestart,
    /// A node answers a read from its own applied state at once, with no read watermark.
    LocalRead,
    /// A node answers "written" as soon as a client's write reaches it, before it is chosen.
    EarlyAck,
    /// A restarted node forgets the ballot it last stood at, as if it had never written it.
    ForgetBallot,
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
    /// The faults and retries allowed.
    pub budget: LogBudget,
    /// Whether `persist` and `send` are separate actions.
    pub stepwise_ready: bool,
    /// The fault outside the model this world may use, if it is a negative control.
    pub negative_control: Option<LogNegativeControl>,
    /// The one node each client sends to, C1 first, when it knows that node leads; a client
    /// with no entry (or `None`) may ask any node. A smaller world for the explorer, not a
    /// different protocol.
    pub client_targets: Vec<Option<NodeId>>,
    /// Whether a node's messages to itself travel the network like any other (held, lost,
    /// duplicated, reordered) instead of being handled at once. paros-core does not require
    /// them to arrive at once, and a networked caller would not deliver them so.
    pub self_messages_in_flight: bool,
}

impl LogWorldConfig {
    /// Three nodes, one client with `program`, an election timeout of 2 ticks, no faults.
    pub fn three_nodes(program: Vec<ClientOp>) -> LogWorldConfig {
        LogWorldConfig {
            node_count: 3,
            clients: vec![program],
            election_timeout_ticks: 2,
            heartbeat_interval_ticks: 1,
            budget: LogBudget::default(),
            stepwise_ready: false,
            negative_control: None,
            client_targets: Vec::new(),
            self_messages_in_flight: false,
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

    /// The node client `index` (0-based) may send to, if it is held to one.
    pub fn client_target(&self, index: usize) -> Option<NodeId> {
        self.client_targets.get(index).copied().flatten()
    }

    pub(super) fn nodes(&self) -> NodeSet {
        (0..usize::from(self.node_count))
            .map(|index| self.node_id(index))
            .collect()
    }

    pub(super) fn core_config(&self) -> LogConfig {
        let mut config = LogConfig::new(self.nodes());
        config.election_timeout_ticks = self.election_timeout_ticks;
        config.heartbeat_interval_ticks = self.heartbeat_interval_ticks;
        config
    }

    pub(super) fn validate(&self) -> Result<(), LogRefused> {
        let count = usize::from(self.node_count) + self.clients.len();
        if self.node_count == 0 || count > usize::from(NodeId::MAX) {
            return Err(LogRefused::BadConfig("between 1 and 63 nodes and clients"));
        }
        if self.negative_control == Some(LogNegativeControl::SendBeforePersist)
            && !self.stepwise_ready
        {
            return Err(LogRefused::BadConfig(
                "send-before-persist needs stepwise_ready",
            ));
        }
        if self.budget.torn_writes > 0 && !self.stepwise_ready {
            return Err(LogRefused::BadConfig("a torn write needs stepwise_ready"));
        }
        Ok(())
    }
}

/// The node id numbered `number`: N1 is 1, and clients follow the nodes.
pub(super) fn id(number: usize) -> NodeId {
    u8::try_from(number)
        .ok()
        .and_then(NodeId::new)
        .expect("validated count")
}

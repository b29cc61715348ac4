//! The replicated-log World (Act II): three `ColocatedNode`s with clocks and disks, clients with
//! programs of writes and reads, and the faults a real cluster meets.
//!
//! Nodes are N1..Nn (node ids 1..=n); clients are C1..Cm (the ids after the nodes). A node's
//! clock moves only when a `tick` action says so, and its disk is a list of framed writes
//! ([`paros_core::log::encode`]). By default a node's `Ready` is processed in the right order
//! as part of the action that produced it (persist, then send); with `stepwise_ready`, `persist`
//! and `send` are actions of their own, so a crash can fall at every seam.
//!
//! Messages a node sends to itself are delivered at once, after the writes they follow are
//! durable: a loopback, not a network.

use crate::MessageId;
use crate::check::{Property, Violation};
use crate::linearizability::{self, History, Operation};
use paros_core::log::{
    Applied, ColocatedNode, DurableRecord, Entry, LogConfig, LogEnvelope, LogMessage, Outcome,
    Persisted, Ready, Slot, Write, encode,
};
use paros_core::{Ballot, Majority, NodeId, NodeSet, Value};
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

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

    fn nodes(&self) -> NodeSet {
        (0..usize::from(self.node_count))
            .map(|index| self.node_id(index))
            .collect()
    }

    fn core_config(&self) -> LogConfig {
        let mut config = LogConfig::new(self.nodes());
        config.election_timeout_ticks = self.election_timeout_ticks;
        config.heartbeat_interval_ticks = self.heartbeat_interval_ticks;
        config
    }

    fn validate(&self) -> Result<(), LogRefused> {
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

fn id(number: usize) -> NodeId {
    u8::try_from(number)
        .ok()
        .and_then(NodeId::new)
        .expect("validated count")
}

/// Everything that can happen to a log world.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum LogAction {
    /// Hand a message to its receiver.
    Deliver(MessageId),
    /// Lose a message.
    Drop(MessageId),
    /// Put a second copy of a message in flight.
    Duplicate(MessageId),
    /// One tick of a node's clock.
    Tick(NodeId),
    /// A node crashes: volatile state and writes not yet durable are lost.
    Crash(NodeId),
    /// A node crashes while persisting: all but the last pending write are durable, and the
    /// last is torn.
    TornCrash(NodeId),
    /// A crashed node restarts from its disk.
    Restart(NodeId),
    /// Stepwise: the node's pending writes become durable.
    Persist(NodeId),
    /// Stepwise: the node's pending messages leave.
    Send(NodeId),
    /// A node is cut off from all others.
    Partition(NodeId),
    /// Every cut link is restored.
    Heal,
    /// A client sends its next operation to a node, or sends its outstanding one again.
    Request {
        /// The client.
        client: NodeId,
        /// The node it asks.
        node: NodeId,
    },
    /// Faults stop: every fault budget is spent, and clocks and client retries are unbounded.
    /// Only the fair schedule of [`LogWorld::settle`] takes it, so a liveness run replays as
    /// plain actions; it is never enabled, since no search could finish past it.
    StopFaults,
}

impl LogAction {
    /// The action's verb.
    pub fn verb(&self) -> &'static str {
        match self {
            LogAction::Deliver(_) => "deliver",
            LogAction::Drop(_) => "drop",
            LogAction::Duplicate(_) => "duplicate",
            LogAction::Tick(_) => "tick",
            LogAction::Crash(_) => "crash",
            LogAction::TornCrash(_) => "torn-crash",
            LogAction::Restart(_) => "restart",
            LogAction::Persist(_) => "persist",
            LogAction::Send(_) => "send",
            LogAction::Partition(_) => "partition",
            LogAction::Heal => "heal",
            LogAction::Request { .. } => "request",
            LogAction::StopFaults => "stop-faults",
        }
    }
}

impl fmt::Display for LogAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LogAction::Deliver(message)
            | LogAction::Drop(message)
            | LogAction::Duplicate(message) => {
                write!(f, "{} {message}", self.verb())
            }
            LogAction::Tick(node)
            | LogAction::Crash(node)
            | LogAction::TornCrash(node)
            | LogAction::Restart(node)
            | LogAction::Persist(node)
            | LogAction::Send(node)
            | LogAction::Partition(node) => write!(f, "{} {node}", self.verb()),
            LogAction::Heal | LogAction::StopFaults => f.write_str(self.verb()),
            LogAction::Request { client, node } => write!(f, "request {client} {node}"),
        }
    }
}

/// Why a log world refused an action. The world is unchanged.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LogRefused {
    /// No message with this id is in flight.
    NoSuchMessage(MessageId),
    /// The message crosses a cut link.
    Partitioned(MessageId),
    /// No node or client with this id.
    NoSuchNode(NodeId),
    /// The node is down.
    NodeDown(NodeId),
    /// The node is up.
    NodeUp(NodeId),
    /// The node is busy with a `Ready` that is not yet persisted and sent.
    Busy(NodeId),
    /// There is no pending `Ready` step of that kind.
    NothingPending(NodeId),
    /// The client has nothing to send.
    ClientIdle(NodeId),
    /// The budget of this kind is spent.
    BudgetSpent(&'static str),
    /// The disk cannot be trusted: the node stays down.
    Disk(paros_core::log::RecordError),
    /// The configuration is not a world this simulator can build.
    BadConfig(&'static str),
}

impl fmt::Display for LogRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LogRefused::NoSuchMessage(message) => write!(f, "no message {message} is in flight"),
            LogRefused::Partitioned(message) => write!(f, "{message} crosses a cut link"),
            LogRefused::NoSuchNode(node) => write!(f, "no node or client {node}"),
            LogRefused::NodeDown(node) => write!(f, "{node} is down"),
            LogRefused::NodeUp(node) => write!(f, "{node} is up"),
            LogRefused::Busy(node) => write!(f, "{node} has a Ready to persist and send first"),
            LogRefused::NothingPending(node) => write!(f, "{node} has no such Ready step pending"),
            LogRefused::ClientIdle(client) => write!(f, "{client} has nothing to send"),
            LogRefused::BudgetSpent(kind) => write!(f, "the {kind} budget is spent"),
            LogRefused::Disk(error) => write!(f, "{error}"),
            LogRefused::BadConfig(why) => write!(f, "bad world: {why}"),
        }
    }
}

impl std::error::Error for LogRefused {}

/// A `Ready` a stepwise node has not finished: its writes, then its messages.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct HeldReady {
    /// The writes; durable once `persisted`.
    pub writes: Vec<Write>,
    /// The messages, waiting for `send`.
    pub messages: Vec<LogEnvelope>,
    /// Whether the writes are durable.
    pub persisted: bool,
    /// Whether the messages have left.
    pub sent: bool,
}

/// One server: its node (absent while crashed), its disk and what the checkers track of it.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Server {
    /// The running node, or `None` while crashed.
    pub node: Option<ColocatedNode>,
    /// The durable frames, oldest first.
    pub disk: Vec<Vec<u8>>,
    /// Stepwise worlds: the `Ready` being persisted and sent.
    pub held: Option<HeldReady>,
    /// What a restart would read from `disk`, kept as writes become durable: the durability
    /// checker judges it without waiting for a crash.
    record: DurableRecord,
    /// Ticks this server's clock has made, over its whole life.
    pub ticks: u32,
    /// Requests this incarnation applied fresh (the exactly-once checker).
    applied_fresh: BTreeSet<(NodeId, u64)>,
    /// The last slot this incarnation applied (the in-order checker).
    applied_through: Slot,
    /// The ballots this node stood at in its earlier lives, and in this one (the checker that
    /// a ballot is never reused).
    stood_before: BTreeSet<Ballot>,
    stood_now: BTreeSet<Ballot>,
}

/// One client: its place in its program and its outstanding request.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ClientState {
    /// The next operation of the program to issue.
    pub next_op: usize,
    /// The operation awaiting its answer, as an index into the history.
    pub outstanding: Option<usize>,
    /// The node asked answered "not leader": the client may ask another, at no cost.
    pub redirected: bool,
}

/// One client operation as the client saw it: when it was called and answered, in client
/// events (every call and every answer is one tick of this clock).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ClientCall {
    /// The client.
    pub client: NodeId,
    /// Its place in the client's program; the request number is this plus one.
    pub program_index: usize,
    /// What was asked.
    pub op: ClientOp,
    /// When the client called it.
    pub call: u64,
    /// When the client saw the answer, if it has.
    pub ret: Option<u64>,
    /// A read's answer, once it returned.
    pub read: Option<Value>,
}

impl ClientCall {
    /// The request number the client sends.
    pub fn seq(&self) -> u64 {
        self.program_index as u64 + 1
    }

    fn to_operation(&self) -> Operation {
        let client = u32::from(self.client.get());
        match &self.op {
            ClientOp::Write { key, value } => {
                Operation::write(client, self.call, self.ret, key.as_str(), value.as_str())
            }
            ClientOp::Read { key } => Operation::read(
                client,
                self.call,
                self.ret,
                key.as_str(),
                self.read.as_ref().map(Value::as_str),
            ),
        }
    }
}

/// A message on the wire.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct LogInFlight {
    /// Its id, in send order.
    pub id: MessageId,
    /// Sender, receiver and message.
    pub envelope: LogEnvelope,
}

/// The votes cast in one slot at one ballot for one entry: the nodes whose `Accepted` for it
/// has left them. Chosen is a fact about these votes ([`paros_core::is_chosen`]), whether or
/// not any node has learned it.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct SlotVotes {
    /// The slot.
    pub slot: Slot,
    /// The ballot voted at.
    pub ballot: Ballot,
    /// The entry voted for.
    pub entry: Entry,
    /// Who voted.
    pub voters: NodeSet,
}

/// A world of the replicated log.
#[derive(Clone, Debug)]
pub struct LogWorld {
    config: Arc<LogWorldConfig>,
    servers: Vec<Server>,
    clients: Vec<ClientState>,
    /// Invariant: ascending ids.
    in_flight: Vec<LogInFlight>,
    next_message: u32,
    budget_left: LogBudget,
    isolated: NodeSet,
    /// The client history, in call order; times are counts of client events.
    history: Vec<ClientCall>,
    /// Every slot some node learned chosen, with the entry: decisions are forever.
    decided: BTreeMap<Slot, Entry>,
    /// Every vote ever cast, by slot, ballot and entry: a node votes when its `Accepted` leaves.
    votes: BTreeMap<(Slot, Ballot, Entry), NodeSet>,
    /// For each slot, the first (slot, ballot, entry) whose votes formed a Phase-2 quorum:
    /// derived from `votes`, kept so the checkers need not recount.
    chosen: BTreeMap<Slot, SlotVotes>,
    /// Violations found while applying actions (kept: a broken world stays broken).
    violations: Vec<Violation>,
}

impl LogWorld {
    /// The world at its beginning: every node up with an empty disk but its identity.
    pub fn new(config: LogWorldConfig) -> Result<LogWorld, LogRefused> {
        config.validate()?;
        let core_config = config.core_config();
        let servers = (0..usize::from(config.node_count))
            .map(|index| Server {
                node: Some(ColocatedNode::new(config.node_id(index), core_config)),
                disk: Vec::new(),
                held: None,
                record: DurableRecord::default(),
                ticks: 0,
                applied_fresh: BTreeSet::new(),
                applied_through: Slot(0),
                stood_before: BTreeSet::new(),
                stood_now: BTreeSet::new(),
            })
            .collect();
        let clients = config
            .clients
            .iter()
            .map(|_| ClientState {
                next_op: 0,
                outstanding: None,
                redirected: false,
            })
            .collect();
        let mut world = LogWorld {
            budget_left: config.budget,
            config: Arc::new(config),
            servers,
            clients,
            in_flight: Vec::new(),
            next_message: 1,
            isolated: NodeSet::EMPTY,
            history: Vec::new(),
            decided: BTreeMap::new(),
            votes: BTreeMap::new(),
            chosen: BTreeMap::new(),
            violations: Vec::new(),
        };
        for server in &mut world.servers {
            // Each node is installed with its identity on disk before the world begins.
            let node = server.node.as_mut().expect("new nodes are up");
            let ready = node.take_ready();
            server.disk.extend(ready.writes().iter().map(encode));
            for write in ready.writes() {
                server.record.apply(write);
            }
            let messages =
                ready.into_messages(Persisted::by_storage(&[Write::Identity(node.id())]));
            debug_assert!(messages.is_empty());
        }
        Ok(world)
    }

    /// Builds a world and applies `actions`; the error gives the index of the refused one.
    pub fn replay(
        config: LogWorldConfig,
        actions: &[LogAction],
    ) -> Result<LogWorld, (usize, LogRefused)> {
        let mut world = LogWorld::new(config).map_err(|refused| (0, refused))?;
        for (index, action) in actions.iter().enumerate() {
            world.apply(action).map_err(|refused| (index, refused))?;
        }
        Ok(world)
    }

    /// A copy of this world that, from now on, also allows the fault outside the model
    /// `control`: how the game shows what a wrong answer would break, by playing it on.
    pub fn with_negative_control(
        &self,
        control: LogNegativeControl,
    ) -> Result<LogWorld, LogRefused> {
        let mut config = (*self.config).clone();
        config.negative_control = Some(control);
        config.validate()?;
        let mut world = self.clone();
        world.config = Arc::new(config);
        Ok(world)
    }

    /// The configuration.
    pub fn config(&self) -> &LogWorldConfig {
        &self.config
    }

    /// The servers, N1 first.
    pub fn servers(&self) -> &[Server] {
        &self.servers
    }

    /// The clients, C1 first.
    pub fn clients(&self) -> &[ClientState] {
        &self.clients
    }

    /// The messages in flight, in send order.
    pub fn in_flight(&self) -> &[LogInFlight] {
        &self.in_flight
    }

    /// The faults and retries still allowed.
    pub fn budget_left(&self) -> LogBudget {
        self.budget_left
    }

    /// The nodes cut off by a partition.
    pub fn isolated(&self) -> NodeSet {
        self.isolated
    }

    /// The client history so far.
    pub fn history(&self) -> &[ClientCall] {
        &self.history
    }

    /// Every slot some node learned chosen.
    pub fn decided(&self) -> &BTreeMap<Slot, Entry> {
        &self.decided
    }

    /// Every (slot, ballot, entry) whose voters ever formed a Phase-2 quorum, in slot and
    /// ballot order: what is chosen, judged from the votes alone by paros-core's own quorum
    /// system. Agreement holds while each slot has one entry here.
    pub fn chosen_by_votes(&self) -> Vec<SlotVotes> {
        let quorums = self.quorums();
        self.votes
            .iter()
            .filter(|(_, voters)| paros_core::is_chosen(&quorums, **voters))
            .map(|((slot, ballot, entry), voters)| SlotVotes {
                slot: *slot,
                ballot: *ballot,
                entry: entry.clone(),
                voters: *voters,
            })
            .collect()
    }

    /// The first (ballot, entry) chosen in `slot` by a Phase-2 quorum of votes, if any.
    pub fn chosen_entry(&self, slot: Slot) -> Option<&SlotVotes> {
        self.chosen.get(&slot)
    }

    /// Every vote cast so far in `slot`, in ballot order.
    pub fn votes_in(&self, slot: Slot) -> Vec<SlotVotes> {
        self.votes
            .iter()
            .filter(|((voted_slot, _, _), _)| *voted_slot == slot)
            .map(|((slot, ballot, entry), voters)| SlotVotes {
                slot: *slot,
                ballot: *ballot,
                entry: entry.clone(),
                voters: *voters,
            })
            .collect()
    }

    /// The cluster's quorum system: the one paros-core's nodes use.
    fn quorums(&self) -> Majority {
        Majority::new(self.config.nodes()).expect("a world has nodes")
    }

    /// Whether every client has finished its program.
    pub fn all_clients_done(&self) -> bool {
        self.clients
            .iter()
            .zip(&self.config.clients)
            .all(|(client, program)| {
                client.next_op == program.len() && client.outstanding.is_none()
            })
    }

    /// A node's or client's name: N1.., C1..
    pub fn name(&self, node: NodeId) -> String {
        let number = usize::from(node.get());
        let node_count = usize::from(self.config.node_count);
        if number <= node_count {
            format!("N{number}")
        } else if number - node_count <= self.clients.len() {
            format!("C{}", number - node_count)
        } else {
            node.to_string()
        }
    }

    /// A message as players read it, e.g. `Accept(2.N2, slot 3, x=1 (C1#1), commit 2)`.
    pub fn message_name(&self, message: &LogMessage) -> String {
        let ballot =
            |ballot: paros_core::Ballot| format!("{}.{}", ballot.round, self.name(ballot.node));
        match message {
            LogMessage::Prepare {
                ballot: b,
                from_slot,
            } => format!("Prepare({}, from slot {from_slot})", ballot(*b)),
            LogMessage::Promise { ballot: b, votes } => {
                let votes: Vec<String> = votes
                    .iter()
                    .map(|(slot, vote)| {
                        format!(
                            "{slot}: {} at {}",
                            self.entry_name(&vote.entry),
                            ballot(vote.ballot)
                        )
                    })
                    .collect();
                format!("Promise({}, [{}])", ballot(*b), votes.join("; "))
            }
            LogMessage::Accept {
                ballot: b,
                slot,
                entry,
                commit,
            } => {
                format!(
                    "Accept({}, slot {slot}, {}, commit {commit})",
                    ballot(*b),
                    self.entry_name(entry)
                )
            }
            LogMessage::Accepted { ballot: b, slot } => {
                format!("Accepted({}, slot {slot})", ballot(*b))
            }
            LogMessage::Nack {
                ballot: b,
                promised,
            } => format!("Nack({}, promised {})", ballot(*b), ballot(*promised)),
            LogMessage::Heartbeat { ballot: b, commit } => {
                format!("Heartbeat({}, commit {commit})", ballot(*b))
            }
            LogMessage::HeartbeatAck {
                ballot: b,
                chosen_index,
            } => {
                format!("HeartbeatAck({}, chosen {chosen_index})", ballot(*b))
            }
            LogMessage::Chosen { entries } => {
                let slots: Vec<String> = entries
                    .iter()
                    .map(|(slot, vote)| format!("{slot}: {}", self.entry_name(&vote.entry)))
                    .collect();
                format!("Chosen([{}])", slots.join("; "))
            }
            LogMessage::ReadIndex { read } => format!("ReadIndex(read {read})"),
            LogMessage::ReadIndexReply {
                read,
                highest_accepted,
            } => {
                format!("ReadIndexReply(read {read}, highest accepted {highest_accepted})")
            }
            LogMessage::Write { seq, key, value } => format!("Write(#{seq}, {key}={value})"),
            LogMessage::Read { seq, key } => format!("Read(#{seq}, {key})"),
            LogMessage::Reply { seq, outcome } => match outcome {
                Outcome::Written => format!("Reply(#{seq}, written)"),
                Outcome::Read(value) => format!(
                    "Reply(#{seq}, read {})",
                    value.as_ref().map_or("nothing", Value::as_str)
                ),
                Outcome::NotLeader { hint } => format!(
                    "Reply(#{seq}, not leader{})",
                    hint.map(|node| format!(", try {}", self.name(node)))
                        .unwrap_or_default()
                ),
            },
        }
    }

    /// An entry as players read it: `no-op` or `x=1 (C1#1)`.
    pub fn entry_name(&self, entry: &Entry) -> String {
        match entry {
            Entry::Noop => "no-op".to_string(),
            Entry::Command(command) => {
                format!(
                    "{}={} ({}#{})",
                    command.key,
                    command.value,
                    self.name(command.client),
                    command.seq
                )
            }
        }
    }

    /// An action with what it touches: `deliver m4 N1->N2 Accept(1.N1, slot 1, ...)`.
    pub fn describe(&self, action: &LogAction) -> String {
        match action {
            LogAction::Deliver(message)
            | LogAction::Drop(message)
            | LogAction::Duplicate(message) => {
                match self
                    .in_flight
                    .iter()
                    .find(|in_flight| in_flight.id == *message)
                {
                    Some(in_flight) => format!(
                        "{action} {}->{} {}",
                        self.name(in_flight.envelope.from),
                        self.name(in_flight.envelope.to),
                        self.message_name(&in_flight.envelope.message)
                    ),
                    None => action.to_string(),
                }
            }
            LogAction::Heal | LogAction::StopFaults => action.verb().to_string(),
            LogAction::Request { client, node } => {
                let what = self
                    .client_next_operation(*client)
                    .map(|op| op.to_string())
                    .unwrap_or_default();
                format!("request {} {} {what}", self.name(*client), self.name(*node))
            }
            LogAction::Tick(node)
            | LogAction::Crash(node)
            | LogAction::TornCrash(node)
            | LogAction::Restart(node)
            | LogAction::Persist(node)
            | LogAction::Send(node)
            | LogAction::Partition(node) => format!("{} {}", action.verb(), self.name(*node)),
        }
    }

    fn client_next_operation(&self, client: NodeId) -> Option<ClientOp> {
        let index = self.client_index(client).ok()?;
        let state = &self.clients[index];
        let op_index = match state.outstanding {
            Some(outstanding) => self.history[outstanding].program_index,
            None => state.next_op,
        };
        self.config.clients[index].get(op_index).cloned()
    }

    /// Parses an action as [`LogWorld::describe`] or [`LogAction`]'s `Display` print it; nodes
    /// and clients may be named (`tick N2`, `request C1 N1`) or numbered (`tick n2`). Words after
    /// the action's own are ignored, so a described action parses back.
    pub fn parse_action(&self, text: &str) -> Result<LogAction, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let node = |word: Option<&&str>| -> Result<NodeId, String> {
            let word = word.ok_or_else(|| format!("{text:?} names no node"))?;
            let count = usize::from(self.config.node_count) + self.clients.len();
            (1..=count)
                .map(id)
                .find(|node| self.name(*node) == *word || node.to_string() == *word)
                .ok_or_else(|| format!("no node or client {word:?}"))
        };
        let message = || -> Result<MessageId, String> {
            let word = words
                .get(1)
                .ok_or_else(|| format!("{text:?} names no message"))?;
            word.strip_prefix('m')
                .and_then(|number| number.parse().ok())
                .map(MessageId)
                .ok_or_else(|| format!("expected a message id like m3, got {word:?}"))
        };
        match words.first().copied() {
            Some("deliver") => message().map(LogAction::Deliver),
            Some("drop") => message().map(LogAction::Drop),
            Some("duplicate") => message().map(LogAction::Duplicate),
            Some("tick") => node(words.get(1)).map(LogAction::Tick),
            Some("crash") => node(words.get(1)).map(LogAction::Crash),
            Some("torn-crash") => node(words.get(1)).map(LogAction::TornCrash),
            Some("restart") => node(words.get(1)).map(LogAction::Restart),
            Some("persist") => node(words.get(1)).map(LogAction::Persist),
            Some("send") => node(words.get(1)).map(LogAction::Send),
            Some("partition") => node(words.get(1)).map(LogAction::Partition),
            Some("heal") => Ok(LogAction::Heal),
            Some("stop-faults") => Ok(LogAction::StopFaults),
            Some("request") => Ok(LogAction::Request {
                client: node(words.get(1))?,
                node: node(words.get(2))?,
            }),
            _ => Err(format!("unknown action {text:?}")),
        }
    }

    /// Every action [`LogWorld::apply`] would accept now, in a stable order.
    pub fn enabled(&self) -> Vec<LogAction> {
        let mut actions = Vec::new();
        for message in &self.in_flight {
            if self.crosses_cut(&message.envelope) || self.receiver_busy(message.envelope.to) {
                continue;
            }
            actions.push(LogAction::Deliver(message.id));
            if self.budget_left.drops > 0 {
                actions.push(LogAction::Drop(message.id));
            }
            if self.budget_left.duplicates > 0 {
                actions.push(LogAction::Duplicate(message.id));
            }
        }
        for (index, server) in self.servers.iter().enumerate() {
            let node = self.config.node_id(index);
            match (&server.node, &server.held) {
                (None, _) => actions.push(LogAction::Restart(node)),
                (Some(_), Some(held)) => {
                    if !held.persisted {
                        actions.push(LogAction::Persist(node));
                        if self.budget_left.torn_writes > 0 && !held.writes.is_empty() {
                            actions.push(LogAction::TornCrash(node));
                        }
                    }
                    let may_send = held.persisted
                        || self.config.negative_control
                            == Some(LogNegativeControl::SendBeforePersist);
                    if !held.sent && may_send {
                        actions.push(LogAction::Send(node));
                    }
                }
                (Some(_), None) => {
                    if self.budget_left.ticks > 0 {
                        actions.push(LogAction::Tick(node));
                    }
                }
            }
            if server.node.is_some() && self.budget_left.crashes > 0 {
                actions.push(LogAction::Crash(node));
            }
            if self.budget_left.partitions > 0 && !self.isolated.contains(node) {
                actions.push(LogAction::Partition(node));
            }
        }
        if !self.isolated.is_empty() {
            actions.push(LogAction::Heal);
        }
        for (index, client) in self.clients.iter().enumerate() {
            let client_id = self.config.client_id(index);
            let has_next = client.next_op < self.config.clients[index].len();
            let may_send = match client.outstanding {
                None => has_next,
                Some(_) => client.redirected || self.budget_left.client_resends > 0,
            };
            if may_send {
                for node_index in 0..self.servers.len() {
                    let node = self.config.node_id(node_index);
                    if self
                        .config
                        .client_target(index)
                        .is_none_or(|target| target == node)
                    {
                        actions.push(LogAction::Request {
                            client: client_id,
                            node,
                        });
                    }
                }
            }
        }
        actions
    }

    /// Applies one action. A refused action leaves the world unchanged.
    pub fn apply(&mut self, action: &LogAction) -> Result<(), LogRefused> {
        match *action {
            LogAction::Deliver(message) => self.deliver(message),
            LogAction::Drop(message) => {
                self.deliverable(message)?;
                spend(&mut self.budget_left.drops, "drop")?;
                self.take(message);
                Ok(())
            }
            LogAction::Duplicate(message) => {
                let envelope = self.deliverable(message)?.envelope.clone();
                spend(&mut self.budget_left.duplicates, "duplicate")?;
                self.put_in_flight(envelope);
                Ok(())
            }
            LogAction::Tick(node) => {
                let index = self.idle_server(node)?;
                spend(&mut self.budget_left.ticks, "tick")?;
                self.servers[index].ticks += 1;
                self.servers[index].node.as_mut().expect("up").tick();
                self.drain(index);
                Ok(())
            }
            LogAction::Crash(node) => {
                let index = self.up_server(node)?;
                spend(&mut self.budget_left.crashes, "crash")?;
                self.crash(index);
                Ok(())
            }
            LogAction::TornCrash(node) => self.torn_crash(node),
            LogAction::Restart(node) => self.restart(node),
            LogAction::Persist(node) => self.persist_held(node),
            LogAction::Send(node) => self.send_held(node),
            LogAction::Partition(node) => {
                self.server_index(node)?;
                if self.isolated.contains(node) {
                    return Err(LogRefused::NothingPending(node));
                }
                spend(&mut self.budget_left.partitions, "partition")?;
                self.isolated.insert(node);
                Ok(())
            }
            LogAction::Heal => {
                if self.isolated.is_empty() {
                    return Err(LogRefused::BadConfig("nothing to heal"));
                }
                self.isolated = NodeSet::EMPTY;
                Ok(())
            }
            LogAction::Request { client, node } => self.request(client, node),
            LogAction::StopFaults => {
                self.budget_left = LogBudget {
                    ticks: u32::MAX / 2,
                    client_resends: u32::MAX / 2,
                    ..LogBudget::default()
                };
                Ok(())
            }
        }
    }

    /// A fingerprint of everything the future depends on: servers (nodes, disks, held
    /// batches, clocks, checker state), clients, the multiset of messages in flight, budgets,
    /// partitions, the history, the decisions, the votes and the violations found.
    pub fn fingerprint(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        self.servers.hash(&mut hasher);
        self.clients.hash(&mut hasher);
        let mut envelopes: Vec<&LogEnvelope> = self
            .in_flight
            .iter()
            .map(|message| &message.envelope)
            .collect();
        envelopes.sort_unstable();
        envelopes.hash(&mut hasher);
        self.budget_left.hash(&mut hasher);
        self.isolated.hash(&mut hasher);
        self.history.hash(&mut hasher);
        self.decided.hash(&mut hasher);
        self.votes.hash(&mut hasher);
        self.violations.len().hash(&mut hasher);
        hasher.finish()
    }

    /// The safety properties broken so far.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    fn deliver(&mut self, message: MessageId) -> Result<(), LogRefused> {
        self.deliverable(message)?;
        let envelope = self.take(message);
        if let Ok(client) = self.client_index(envelope.to) {
            self.client_receives(client, &envelope.message);
            return Ok(());
        }
        let index = self.server_index(envelope.to)?;
        if self.servers[index].node.is_none() {
            return Ok(()); // delivered to a dead host: lost
        }
        if self.config.negative_control == Some(LogNegativeControl::LocalRead)
            && let LogMessage::Read { seq, key } = &envelope.message
        {
            let node = self.servers[index].node.as_ref().expect("up");
            let value = node.store().get(key).cloned();
            let reply = LogMessage::Reply {
                seq: *seq,
                outcome: Outcome::Read(value),
            };
            self.put_in_flight(LogEnvelope {
                from: envelope.to,
                to: envelope.from,
                message: reply,
            });
            return Ok(());
        }
        let _ignored = self.servers[index]
            .node
            .as_mut()
            .expect("up")
            .handle(&envelope);
        self.drain(index);
        if self.config.negative_control == Some(LogNegativeControl::EarlyAck)
            && let LogMessage::Write { seq, .. } = &envelope.message
        {
            let reply = LogMessage::Reply {
                seq: *seq,
                outcome: Outcome::Written,
            };
            self.put_in_flight(LogEnvelope {
                from: envelope.to,
                to: envelope.from,
                message: reply,
            });
        }
        Ok(())
    }

    /// Processes a node's output: in stepwise worlds it is held for `persist` and `send`;
    /// otherwise it is persisted, then sent, and loopback messages are handled at once.
    fn drain(&mut self, index: usize) {
        loop {
            let node = self.servers[index]
                .node
                .as_mut()
                .expect("draining a live node");
            let ready = node.take_ready();
            if ready.is_empty() {
                // A node can learn a slot chosen (above a hole, say) with nothing to write.
                self.check_decisions(index);
                return;
            }
            self.record_applied(index, ready.applied());
            if self.config.stepwise_ready {
                let writes = ready.writes().to_vec();
                let messages = ready.into_messages(Persisted::by_storage(&writes));
                let persisted = writes.is_empty();
                self.servers[index].held = Some(HeldReady {
                    writes,
                    messages,
                    persisted,
                    sent: false,
                });
                return;
            }
            let messages = self.persist(index, ready);
            if !self.release(index, messages) {
                return;
            }
        }
    }

    fn persist(&mut self, index: usize, ready: Ready) -> Vec<LogEnvelope> {
        self.write_to_disk(index, ready.writes());
        let proof = Persisted::by_storage(ready.writes());
        ready.into_messages(proof)
    }

    /// Writes become durable: framed onto the disk, and applied to what a restart would read.
    fn write_to_disk(&mut self, index: usize, writes: &[Write]) {
        let server = &mut self.servers[index];
        server.disk.extend(writes.iter().map(encode));
        let before = server.record.chosen_through;
        for write in writes {
            server.record.apply(write);
        }
        self.check_disk(index, before, writes);
    }

    /// Durability: a node restarted now would take every slot up to its record's chosen mark
    /// as decided, so each of those slots must hold the entry chosen by the votes.
    fn check_disk(&mut self, index: usize, before: Slot, writes: &[Write]) {
        let record = &self.servers[index].record;
        let mut slots: BTreeSet<Slot> = writes
            .iter()
            .filter_map(|write| match write {
                Write::Accept(slot, _) => Some(*slot),
                _ => None,
            })
            .filter(|slot| *slot <= record.chosen_through)
            .collect();
        let mut slot = before.next();
        while slot <= record.chosen_through {
            slots.insert(slot);
            slot = slot.next();
        }
        let name = self.name(self.config.node_id(index));
        let mut found = Vec::new();
        for slot in slots {
            let on_disk = record.accepts.get(&slot).map(|vote| &vote.entry);
            let chosen = self.chosen.get(&slot);
            if on_disk.is_some() && on_disk == chosen.map(|votes| &votes.entry) {
                continue;
            }
            let disk = on_disk.map_or("nothing".to_string(), |entry| self.entry_name(entry));
            let chosen = chosen.map_or("nothing is chosen there".to_string(), |votes| {
                self.describe_votes(votes)
            });
            found.push(format!(
                "slot {slot}: {name}'s disk would restart it with {disk} as decided, but {chosen}"
            ));
        }
        for detail in found {
            self.violate(Property::LearnedIsChosen, detail);
        }
    }

    /// Messages leave a node. The votes they carry are recorded first; then a message to the
    /// node itself is handled at once (unless self-messages travel the network), and the rest
    /// go in flight. Returns whether the node handled any, and so may have more output.
    fn release(&mut self, index: usize, messages: Vec<LogEnvelope>) -> bool {
        self.record_votes(index, &messages);
        self.record_ballots(index, &messages);
        let me = self.config.node_id(index);
        let mut handled = false;
        for envelope in messages {
            if envelope.to == me && !self.config.self_messages_in_flight {
                let node = self.servers[index].node.as_mut().expect("up");
                let _ignored = node.handle(&envelope);
                handled = true;
            } else {
                self.put_in_flight(envelope);
            }
        }
        handled
    }

    /// A node votes when its `Accepted` leaves it: the entry is its accepted record for the
    /// slot at that ballot. Each vote is counted toward chosen at once, and agreement is judged
    /// on the votes: no slot may ever have two entries chosen.
    fn record_votes(&mut self, index: usize, messages: &[LogEnvelope]) {
        let Some(node) = &self.servers[index].node else {
            return;
        };
        let voter = node.id();
        let cast: Vec<(Slot, Ballot, Entry)> = messages
            .iter()
            .filter_map(|envelope| match envelope.message {
                LogMessage::Accepted { ballot, slot } => node
                    .accepts()
                    .get(&slot)
                    .filter(|vote| vote.ballot == ballot)
                    .map(|vote| (slot, ballot, vote.entry.clone())),
                _ => None,
            })
            .collect();
        let quorums = self.quorums();
        for (slot, ballot, entry) in cast {
            let voters = self.votes.entry((slot, ballot, entry.clone())).or_default();
            voters.insert(voter);
            let voters = *voters;
            if !paros_core::is_chosen(&quorums, voters) {
                continue;
            }
            let now = SlotVotes {
                slot,
                ballot,
                entry,
                voters,
            };
            match self.chosen.get(&slot) {
                None => {
                    self.chosen.insert(slot, now);
                }
                Some(first) if first.entry != now.entry => {
                    let detail = format!(
                        "slot {slot}: {}; {}",
                        self.describe_votes(first),
                        self.describe_votes(&now)
                    );
                    self.violate(Property::Agreement, detail);
                }
                Some(_) => {}
            }
        }
    }

    /// A node stands for election when its Prepare leaves it; it must never stand again at a
    /// ballot it stood at in an earlier life, or two leaders could share one ballot and each
    /// choose its own value under it.
    fn record_ballots(&mut self, index: usize, messages: &[LogEnvelope]) {
        let me = self.config.node_id(index);
        let ballots: BTreeSet<Ballot> = messages
            .iter()
            .filter_map(|envelope| match envelope.message {
                LogMessage::Prepare { ballot, .. } if ballot.node == me => Some(ballot),
                _ => None,
            })
            .collect();
        for ballot in ballots {
            let server = &mut self.servers[index];
            server.stood_now.insert(ballot);
            if server.stood_before.contains(&ballot) {
                let detail = format!(
                    "{} stood at {}.{} again after a restart",
                    self.name(me),
                    ballot.round,
                    self.name(ballot.node)
                );
                self.violate(Property::BallotUnique, detail);
            }
        }
    }

    /// `x=1 (C1#1) chosen at 1.N1 by {N1, N2}`.
    pub fn describe_votes(&self, votes: &SlotVotes) -> String {
        let voters: Vec<String> = votes.voters.iter().map(|node| self.name(node)).collect();
        format!(
            "{} chosen at {}.{} by {{{}}}",
            self.entry_name(&votes.entry),
            votes.ballot.round,
            self.name(votes.ballot.node),
            voters.join(", ")
        )
    }

    fn persist_held(&mut self, node: NodeId) -> Result<(), LogRefused> {
        let index = self.up_server(node)?;
        let server = &mut self.servers[index];
        let held = server
            .held
            .as_mut()
            .filter(|held| !held.persisted)
            .ok_or(LogRefused::NothingPending(node))?;
        held.persisted = true;
        let writes = held.writes.clone();
        self.write_to_disk(index, &writes);
        self.finish_held(index);
        Ok(())
    }

    fn send_held(&mut self, node: NodeId) -> Result<(), LogRefused> {
        let index = self.up_server(node)?;
        let control = self.config.negative_control == Some(LogNegativeControl::SendBeforePersist);
        let held = self.servers[index]
            .held
            .as_mut()
            .ok_or(LogRefused::NothingPending(node))?;
        if held.sent || !(held.persisted || control) {
            return Err(LogRefused::NothingPending(node));
        }
        held.sent = true;
        let messages = std::mem::take(&mut held.messages);
        self.finish_held(index);
        self.release(index, messages);
        if self.servers[index].held.is_none() {
            self.drain(index);
        }
        Ok(())
    }

    fn finish_held(&mut self, index: usize) {
        let server = &mut self.servers[index];
        if server
            .held
            .as_ref()
            .is_some_and(|held| held.persisted && held.sent)
        {
            server.held = None;
        }
    }

    fn crash(&mut self, index: usize) {
        let server = &mut self.servers[index];
        server.node = None;
        server.held = None;
        server.applied_fresh.clear();
        server.applied_through = Slot(0);
        let stood = std::mem::take(&mut server.stood_now);
        server.stood_before.extend(stood);
    }

    fn torn_crash(&mut self, node: NodeId) -> Result<(), LogRefused> {
        let index = self.up_server(node)?;
        let held = self.servers[index]
            .held
            .as_ref()
            .filter(|held| !held.persisted && !held.writes.is_empty());
        let writes = held.ok_or(LogRefused::NothingPending(node))?.writes.clone();
        spend(&mut self.budget_left.torn_writes, "torn write")?;
        let (last, whole) = writes.split_last().expect("not empty");
        let mut torn = encode(last);
        torn.truncate(torn.len() / 2);
        self.write_to_disk(index, whole);
        self.servers[index].disk.push(torn);
        self.crash(index);
        Ok(())
    }

    fn restart(&mut self, node: NodeId) -> Result<(), LogRefused> {
        let index = self.server_index(node)?;
        if self.servers[index].node.is_some() {
            return Err(LogRefused::NodeUp(node));
        }
        let config = self.config.core_config();
        if self.config.negative_control == Some(LogNegativeControl::BlankRestart) {
            self.servers[index].disk.clear();
            self.servers[index].record = DurableRecord::default();
            self.servers[index].node = Some(ColocatedNode::new(node, config));
            self.drain(index);
            return Ok(());
        }
        let (mut record, torn) =
            DurableRecord::recover(&self.servers[index].disk).map_err(LogRefused::Disk)?;
        if self.config.negative_control == Some(LogNegativeControl::ForgetBallot) {
            record.stood = None;
        }
        let restarted = ColocatedNode::restart(node, config, &record).map_err(LogRefused::Disk)?;
        let server = &mut self.servers[index];
        if torn > 0 {
            server.disk.pop(); // the torn tail was never acknowledged: gone
        }
        server.node = Some(restarted);
        self.drain(index);
        Ok(())
    }

    fn request(&mut self, client: NodeId, node: NodeId) -> Result<(), LogRefused> {
        let client_index = self.client_index(client)?;
        self.server_index(node)?;
        let state = &self.clients[client_index];
        let (history_index, resend) = match state.outstanding {
            Some(outstanding) => (outstanding, true),
            None => {
                if state.next_op >= self.config.clients[client_index].len() {
                    return Err(LogRefused::ClientIdle(client));
                }
                (self.history.len(), false)
            }
        };
        if resend && !self.clients[client_index].redirected {
            spend(&mut self.budget_left.client_resends, "client resend")?;
        } else if !resend {
            let program_index = self.clients[client_index].next_op;
            let op = self.config.clients[client_index][program_index].clone();
            let call = self.event_time();
            self.history.push(ClientCall {
                client,
                program_index,
                op,
                call,
                ret: None,
                read: None,
            });
            self.clients[client_index].outstanding = Some(history_index);
        }
        let operation = &self.history[history_index];
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

    fn client_receives(&mut self, client_index: usize, message: &LogMessage) {
        let LogMessage::Reply { seq, outcome } = message else {
            return;
        };
        let Some(outstanding) = self.clients[client_index].outstanding else {
            return;
        };
        if self.history[outstanding].seq() != *seq {
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
        let call = &mut self.history[outstanding];
        call.ret = Some(time);
        call.read = read;
        let client = &mut self.clients[client_index];
        client.outstanding = None;
        client.next_op += 1;
        self.check_linearizable();
    }

    /// Every "written" a client hears is a decided write: some slot has the client's command
    /// chosen by a quorum of votes.
    fn check_written_is_chosen(&mut self, client_index: usize, seq: u64) {
        let client = self.config.client_id(client_index);
        let chosen = self.chosen.values().any(|votes| {
            matches!(&votes.entry, Entry::Command(command) if command.client == client && command.seq == seq)
        });
        if !chosen {
            let detail = format!(
                "{} heard its write #{seq} was written, but no slot has it chosen",
                self.name(client)
            );
            self.violate(Property::WrittenIsChosen, detail);
        }
    }

    /// The linearizability checker over the whole client history, run each time an operation
    /// returns. A history too large to check is a limit, reported, never a pass.
    fn check_linearizable(&mut self) {
        let operations = self.history.iter().map(ClientCall::to_operation).collect();
        let verdict = match History::new(operations) {
            Ok(history) => linearizability::check(&history),
            Err(malformed) => {
                self.violate(
                    Property::CheckLimit,
                    format!("malformed client history: {malformed}"),
                );
                return;
            }
        };
        match verdict {
            linearizability::Verdict::Linearizable { .. } => {}
            linearizability::Verdict::NotLinearizable { reason, .. } => {
                self.violate(Property::Linearizability, reason)
            }
            too_large @ linearizability::Verdict::TooLarge { .. } => {
                self.violate(Property::CheckLimit, too_large.to_string())
            }
        }
    }

    /// Client events are the history's clock: each call and each return is one tick of it.
    fn event_time(&self) -> u64 {
        self.history
            .iter()
            .map(|operation| 1 + u64::from(operation.ret.is_some()))
            .sum()
    }

    /// The checkers that watch the apply walk and the decisions of every node.
    fn record_applied(&mut self, index: usize, applied: &[Applied]) {
        let name = self.name(self.config.node_id(index));
        for entry in applied {
            let server = &mut self.servers[index];
            if entry.slot != server.applied_through.next() {
                let detail = format!(
                    "{name} applied slot {} after slot {}",
                    entry.slot, server.applied_through
                );
                self.violate(Property::AppliedInOrder, detail);
                continue;
            }
            self.servers[index].applied_through = entry.slot;
            if let (true, Entry::Command(command)) = (entry.fresh, &entry.entry)
                && !self.servers[index]
                    .applied_fresh
                    .insert((command.client, command.seq))
            {
                let detail = format!(
                    "{name} applied {}#{} twice",
                    self.name(command.client),
                    command.seq
                );
                self.violate(Property::AppliedOnce, detail);
            }
        }
        self.check_decisions(index);
    }

    /// Agreement, validity and durability over what the node knows is chosen: a slot's
    /// decision, once learned by anyone, never changes, even across crashes and restarts.
    fn check_decisions(&mut self, index: usize) {
        let Some(node) = &self.servers[index].node else {
            return;
        };
        let name = self.name(node.id());
        let mut found = Vec::new();
        for (slot, vote) in node.chosen() {
            match self.chosen.get(slot) {
                Some(chosen) if chosen.entry == vote.entry => {}
                Some(chosen) => found.push((
                    Property::LearnedIsChosen,
                    format!(
                        "slot {slot}: {name} learned {}, but {}",
                        self.entry_name(&vote.entry),
                        self.describe_votes(chosen)
                    ),
                )),
                None => found.push((
                    Property::LearnedIsChosen,
                    format!(
                        "slot {slot}: {name} learned {}, which no quorum voted for",
                        self.entry_name(&vote.entry)
                    ),
                )),
            }
            match self.decided.get(slot) {
                Some(decided) if decided != &vote.entry => found.push((
                    Property::Agreement,
                    format!(
                        "slot {slot}: {name} learned {}, but {} was decided",
                        self.entry_name(&vote.entry),
                        self.entry_name(decided)
                    ),
                )),
                Some(_) => {}
                None => {
                    if !self.was_issued(&vote.entry) {
                        found.push((
                            Property::Validity,
                            format!(
                                "slot {slot}: {} was never issued",
                                self.entry_name(&vote.entry)
                            ),
                        ));
                    }
                    self.decided.insert(*slot, vote.entry.clone());
                }
            }
        }
        if node.applied_index() > node.chosen_index()
            || node
                .chosen_gap()
                .is_some_and(|gap| gap <= node.chosen_index())
        {
            found.push((
                Property::ChosenPrefix,
                format!("{name}'s chosen index is not a contiguous prefix"),
            ));
        }
        for (property, detail) in found {
            self.violate(property, detail);
        }
    }

    fn was_issued(&self, entry: &Entry) -> bool {
        let Entry::Command(command) = entry else {
            return true;
        };
        self.history.iter().any(|operation| {
            command.client == operation.client
                && operation.seq() == command.seq
                && matches!(&operation.op, ClientOp::Write { key, value } if *key == command.key && *value == command.value)
        })
    }

    fn violate(&mut self, property: Property, detail: String) {
        if !self
            .violations
            .iter()
            .any(|known| known.property == property && known.detail == detail)
        {
            self.violations.push(Violation { property, detail });
        }
    }

    fn put_in_flight(&mut self, envelope: LogEnvelope) {
        let id = MessageId(self.next_message);
        self.next_message += 1;
        self.in_flight.push(LogInFlight { id, envelope });
    }

    fn deliverable(&self, message: MessageId) -> Result<&LogInFlight, LogRefused> {
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

    fn crosses_cut(&self, envelope: &LogEnvelope) -> bool {
        self.isolated.contains(envelope.from) != self.isolated.contains(envelope.to)
            && (self.is_server(envelope.from) && self.is_server(envelope.to))
            || self.isolated.contains(envelope.from) && !self.is_server(envelope.to)
            || self.isolated.contains(envelope.to) && !self.is_server(envelope.from)
    }

    fn is_server(&self, node: NodeId) -> bool {
        node.get() <= self.config.node_count
    }

    fn receiver_busy(&self, node: NodeId) -> bool {
        self.server_index(node)
            .is_ok_and(|index| self.servers[index].held.is_some())
    }

    fn take(&mut self, message: MessageId) -> LogEnvelope {
        let at = self
            .in_flight
            .binary_search_by_key(&message, |in_flight| in_flight.id)
            .expect("checked");
        self.in_flight.remove(at).envelope
    }

    fn server_index(&self, node: NodeId) -> Result<usize, LogRefused> {
        let number = usize::from(node.get());
        (number <= self.servers.len())
            .then(|| number - 1)
            .ok_or(LogRefused::NoSuchNode(node))
    }

    fn client_index(&self, node: NodeId) -> Result<usize, LogRefused> {
        let number = usize::from(node.get());
        let first = self.servers.len() + 1;
        (first..first + self.clients.len())
            .contains(&number)
            .then(|| number - first)
            .ok_or(LogRefused::NoSuchNode(node))
    }

    fn up_server(&self, node: NodeId) -> Result<usize, LogRefused> {
        let index = self.server_index(node)?;
        if self.servers[index].node.is_none() {
            return Err(LogRefused::NodeDown(node));
        }
        Ok(index)
    }

    fn idle_server(&self, node: NodeId) -> Result<usize, LogRefused> {
        let index = self.up_server(node)?;
        if self.servers[index].held.is_some() {
            return Err(LogRefused::Busy(node));
        }
        Ok(index)
    }
}

fn spend(left: &mut u32, kind: &'static str) -> Result<(), LogRefused> {
    *left = left.checked_sub(1).ok_or(LogRefused::BudgetSpent(kind))?;
    Ok(())
}

/// Fair steps a client waits for an answer before it sends its request again.
const FAIR_RESEND_STEPS: u32 = 60;

impl LogWorld {
    /// Liveness once faults stop: from this state, stop faults ([`LogAction::StopFaults`]) and
    /// follow a fair schedule for at most `steps_max` actions: heal, restart, persist and send
    /// whenever they are due; else deliver the oldest message; else let a client with work ask
    /// the leader (a client waits [`FAIR_RESEND_STEPS`] before it asks again, so retries never
    /// crowd out the clock); else tick the leader, or with none the lowest live node. Every
    /// kind of step gets its turn: the network drains in finite time, and a retry comes at
    /// most once per wait. `Err` when the world refuses one of these actions: a hole in the
    /// model, not a run that failed to settle.
    pub fn settle(&self, steps_max: u32) -> Result<crate::model::Settled<LogAction>, String> {
        let mut world = self.clone();
        let mut actions = vec![LogAction::StopFaults];
        world
            .apply(&LogAction::StopFaults)
            .map_err(|refused| refused.to_string())?;
        let mut last_sent = vec![None; world.clients.len()];
        let mut step = 0;
        while step < steps_max && !world.all_clients_done() && world.violations.is_empty() {
            let Some(action) = world.fair_action(step, &mut last_sent) else {
                break;
            };
            world
                .apply(&action)
                .map_err(|refused| format!("`{}`: {refused}", world.describe(&action)))?;
            actions.push(action);
            step += 1;
        }
        let decided = world.all_clients_done();
        let stuck = (!decided && world.violations.is_empty()).then(|| world.summary());
        Ok(crate::model::Settled {
            actions,
            decided,
            violations: world.violations.clone(),
            stuck,
        })
    }

    /// The next action of the fair, fault-free schedule of [`LogWorld::settle`].
    fn fair_action(&self, step: u32, last_sent: &mut [Option<u32>]) -> Option<LogAction> {
        if !self.isolated.is_empty() {
            return Some(LogAction::Heal);
        }
        for (index, server) in self.servers.iter().enumerate() {
            let node = self.config.node_id(index);
            match &server.held {
                _ if server.node.is_none() => return Some(LogAction::Restart(node)),
                Some(held) if !held.persisted => return Some(LogAction::Persist(node)),
                Some(_) => return Some(LogAction::Send(node)),
                None => {}
            }
        }
        if let Some(message) = self.in_flight.first() {
            return Some(LogAction::Deliver(message.id));
        }
        self.fair_request(step, last_sent)
            .or_else(|| self.fair_tick())
    }

    /// The leader: the live node leading at the highest ballot.
    fn leader(&self) -> Option<NodeId> {
        self.servers
            .iter()
            .filter_map(|server| server.node.as_ref())
            .filter(|node| node.role() == paros_core::log::LogRole::Leader)
            .max_by_key(|node| node.ballot())
            .map(ColocatedNode::id)
    }

    fn fair_request(&self, step: u32, last_sent: &mut [Option<u32>]) -> Option<LogAction> {
        let leader = self.leader()?;
        for (index, client) in self.clients.iter().enumerate() {
            let waited_enough =
                last_sent[index].is_none_or(|sent| step >= sent + FAIR_RESEND_STEPS);
            let due = match client.outstanding {
                None => client.next_op < self.config.clients[index].len(),
                Some(_) => client.redirected || waited_enough,
            };
            if due {
                last_sent[index] = Some(step);
                // Once faults stop, a client finds the leader, whatever node it was held to.
                let client = self.config.client_id(index);
                return Some(LogAction::Request {
                    client,
                    node: leader,
                });
            }
        }
        None
    }

    fn fair_tick(&self) -> Option<LogAction> {
        let ticking = self.leader().or_else(|| {
            let live = self
                .servers
                .iter()
                .position(|server| server.node.is_some())?;
            Some(self.config.node_id(live))
        })?;
        Some(LogAction::Tick(ticking))
    }

    /// The state in a few lines, for a liveness counterexample: each node's role, ballot,
    /// chosen and applied index and pending reads, each client's outstanding operation, and
    /// the messages in flight.
    pub fn summary(&self) -> String {
        let mut lines = Vec::new();
        for server in &self.servers {
            let Some(node) = &server.node else {
                continue;
            };
            let ballot = node.ballot().map_or("none".to_string(), |ballot| {
                format!("{}.{}", ballot.round, self.name(ballot.node))
            });
            lines.push(format!(
                "{}: {:?} at {ballot}, chosen through {}, applied through {}, {} proposals, {} reads waiting",
                self.name(node.id()),
                node.role(),
                node.chosen_index(),
                node.applied_index(),
                node.proposals().len(),
                node.pending_reads().len()
            ));
        }
        for (index, client) in self.clients.iter().enumerate() {
            if let Some(outstanding) = client.outstanding {
                lines.push(format!(
                    "{} waits on {}",
                    self.name(self.config.client_id(index)),
                    self.history[outstanding].op
                ));
            }
        }
        lines.push(format!("{} messages in flight", self.in_flight.len()));
        lines.join("; ")
    }
}

impl crate::model::Model for LogWorld {
    type Action = LogAction;
    type Refused = LogRefused;

    fn enabled(&self) -> Vec<LogAction> {
        LogWorld::enabled(self)
    }

    fn apply(&mut self, action: &LogAction) -> Result<(), LogRefused> {
        LogWorld::apply(self, action)
    }

    fn fingerprint(&self) -> u64 {
        LogWorld::fingerprint(self)
    }

    fn violations(&self) -> Vec<Violation> {
        self.violations.clone()
    }

    fn parse_action(&self, text: &str) -> Result<LogAction, String> {
        LogWorld::parse_action(self, text)
    }

    fn describe(&self, action: &LogAction) -> String {
        LogWorld::describe(self, action)
    }

    /// Decided, for the log: every client finished its program.
    fn is_decided(&self) -> bool {
        self.all_clients_done()
    }

    /// The fair schedule of [`LogWorld::settle`], bounded by 200 actions per operation left.
    fn settle(&self) -> Option<Result<crate::model::Settled<LogAction>, String>> {
        let operations_left: usize = self
            .clients
            .iter()
            .zip(&self.config.clients)
            .map(|(client, program)| program.len() - client.next_op)
            .sum();
        let steps_max = 200 + 200 * u32::try_from(operations_left).unwrap_or(u32::MAX / 400);
        Some(LogWorld::settle(self, steps_max))
    }

    fn fault_kind(&self, action: &LogAction) -> Option<&'static str> {
        match action {
            LogAction::Drop(_) => Some("drop"),
            LogAction::Duplicate(_) => Some("duplicate"),
            LogAction::Crash(_) => Some("crash"),
            LogAction::TornCrash(_) => Some("torn write"),
            LogAction::Partition(_) => Some("partition"),
            LogAction::Request { client, .. } => {
                let state = &self.clients[self.client_index(*client).ok()?];
                (state.outstanding.is_some() && !state.redirected).then_some("client resend")
            }
            _ => None,
        }
    }

    fn message_of(&self, action: &LogAction) -> Option<u64> {
        match action {
            LogAction::Deliver(message) => Some(u64::from(message.0)),
            _ => None,
        }
    }
}

#[cfg(test)]
#[path = "log_world_tests.rs"]
mod tests;

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
//!
//! This file holds the world itself: what it is made of, the actions enabled in it, how an
//! action is dispatched, and its fingerprint. The rest is one job a file: `config` (what a
//! world is made of), `action` (actions and refusals, described and parsed), `servers` (nodes,
//! disks, crashes and restarts), `network` (messages in flight and partitions), `clients`
//! (programs, requests, replies and the history), `votes` (what is chosen), `checks` (the
//! other safety checkers, and the effects a server's step leaves for them), `names` (names as
//! players read them), `settle` (the fair schedule once faults stop) and `memo` (the steps an
//! exploration replays rather than takes again).

mod action;
mod checks;
mod client_state;
mod clients;
mod config;
mod hosts;
mod knowledge;
mod memo;
mod memo_tables;
mod names;
mod network;
mod proxies;
mod servers;
mod settle;
mod slot_votes;
mod storage;
mod votes;

pub use action::{DiskRecord, LogAction};
pub use client_state::{ClientCall, ClientState};
pub use config::{ClientOp, LogWorldConfig};
use hosts::Proxies;
pub use hosts::{HeldReady, Host, ProxyHost, Server};
use knowledge::{Effect, Knowledge, Part, vote_part};
use memo_tables::Memo;
pub use names::{message_ballot, message_kind, message_slot};
pub use slot_votes::SlotVotes;

use crate::check::{GaveUp, Violation};
use crate::faults::{Budget, Fault, NegativeControl, Refused};
use crate::fingerprint::part;
use crate::model::{Model, Settled};
use crate::network::{InFlight, MessageAction, Network};
use paros_core::NodeSet;
use paros_core::log::{Entry, LogEnvelope, Slot};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A message on the wire, with its id in send order.
pub type LogInFlight = InFlight<Arc<LogEnvelope>>;

/// A world of the replicated log.
#[derive(Clone, Debug)]
pub struct LogWorld {
    config: Arc<LogWorldConfig>,
    /// Shared with the worlds this one was copied from until one of them changes it: copying a
    /// world copies no node, and an action copies only the server it changes.
    servers: Vec<Arc<Server>>,
    clients: Vec<ClientState>,
    /// The messages in flight (whole envelopes, shared between copies) and the partition.
    network: Network<Arc<LogEnvelope>>,
    budget_left: Budget,
    /// How many more trims an operator may ask for.
    trims_left: u32,
    /// How many more handoffs an operator may ask for.
    handoffs_left: u32,
    /// Once faults stop ([`LogAction::StopFaults`]), the fair steps left before a client still
    /// waiting breaks progress ([`Property::Progress`]); `None` while faults may happen.
    fair_steps_left: Option<u32>,
    /// The history, decisions, votes and violations: shared with the worlds this one was
    /// copied from until one of them changes it (`Arc::make_mut`).
    knowledge: Arc<Knowledge>,
    /// Each server's part of the fingerprint, kept as the server changes.
    /// Invariant: `server_parts[i] == part(Part::Server(i), &servers[i])`.
    server_parts: Vec<u64>,
    /// The proxy leaders and their parts of the fingerprint; none in a world without proxies.
    proxies: Arc<Proxies>,
    /// The wrapping sum of the parts kept as they come and go: each decision and each vote
    /// (the network keeps its messages'). Invariant: equals that sum worked out from scratch.
    kept_sum: u64,
    /// The fingerprint, worked out once for a world the memo built, so that hashing each of
    /// its successors does not work it out again. Invariant: `None`, or equal to the
    /// fingerprint: cleared as every change begins (`step_servers` and the memo's builds).
    known_fingerprint: Option<u64>,
    /// What the current action's server steps asked of the knowledge, not yet learned.
    /// Invariant: empty between actions.
    effects: Vec<Effect>,
    /// The memo of server steps, shared by every world of one exploration
    /// ([`Model::for_exploration`]); `None` outside one. Never part of the state: it changes
    /// how fast a successor is built, never what it is.
    memo: Option<Arc<Memo>>,
}

impl LogWorld {
    /// The world at its beginning: every node up with an empty disk but its identity.
    pub fn new(config: LogWorldConfig) -> Result<LogWorld, Refused> {
        config.validate()?;
        let core_config = config.core_config();
        let servers = (0..usize::from(config.node_count))
            .map(|index| Arc::new(Server::new(config.node_id(index), core_config)))
            .collect();
        let clients = config.clients.iter().map(|_| ClientState::new()).collect();
        let mut world = LogWorld {
            budget_left: config.budget,
            trims_left: config.trims,
            handoffs_left: config.handoffs,
            fair_steps_left: None,
            network: Network::new(config.nodes(), NodeSet::EMPTY),
            config: Arc::new(config),
            servers,
            clients,
            knowledge: Arc::default(),
            server_parts: Vec::new(),
            proxies: Arc::default(),
            kept_sum: 0,
            known_fingerprint: None,
            effects: Vec::new(),
            memo: None,
        };
        for index in 0..world.servers.len() {
            world.break_rule(index);
        }
        let proxies = (0..usize::from(world.config.proxies))
            .map(|index| world.new_proxy(index))
            .collect();
        world.proxies = Arc::new(Proxies::new(proxies));
        world.server_parts = (world.servers.iter().enumerate())
            .map(|(index, server)| part(Part::Server(index), server))
            .collect();
        Ok(world)
    }

    /// A copy of this world that, from now on, also allows the fault outside the model
    /// `control`: how the game shows what a wrong answer would break, by playing it on.
    pub fn with_negative_control(&self, control: NegativeControl) -> Result<LogWorld, Refused> {
        let mut config = (*self.config).clone();
        config.negative_control = Some(control);
        config.validate()?;
        if config.quorum_system() != self.config.quorum_system() {
            return Err(Refused::BadConfig(
                "a world's quorum system is fixed when the world is built",
            ));
        }
        let mut world = self.clone();
        world.config = Arc::new(config);
        world.memo = None; // its steps were taken under the old configuration
        for index in 0..world.servers.len() {
            world.break_rule(index);
            world.server_parts[index] = part(Part::Server(index), &world.servers[index]);
        }
        for index in 0..world.proxies().len() {
            world.break_proxy_rule(index);
        }
        world.known_fingerprint = None;
        Ok(world)
    }

    /// A copy of this world whose network has room for `extra` more messages, so that a step
    /// replayed on it sends them without growing its list.
    fn copy_with_room(&self, extra: usize) -> LogWorld {
        LogWorld {
            config: Arc::clone(&self.config),
            servers: self.servers.clone(),
            clients: self.clients.clone(),
            network: self.network.clone_with_room(extra),
            budget_left: self.budget_left,
            trims_left: self.trims_left,
            handoffs_left: self.handoffs_left,
            fair_steps_left: self.fair_steps_left,
            knowledge: Arc::clone(&self.knowledge),
            server_parts: self.server_parts.clone(),
            proxies: Arc::clone(&self.proxies),
            kept_sum: self.kept_sum,
            known_fingerprint: self.known_fingerprint,
            effects: Vec::new(),
            memo: self.memo.clone(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &LogWorldConfig {
        &self.config
    }

    /// The servers, N1 first.
    pub fn servers(&self) -> &[Arc<Server>] {
        &self.servers
    }

    /// The clients, C1 first.
    pub fn clients(&self) -> &[ClientState] {
        &self.clients
    }

    /// The network: what is in flight, and what is cut off.
    pub fn network(&self) -> &Network<Arc<LogEnvelope>> {
        &self.network
    }

    /// The messages in flight, in send order.
    pub fn in_flight(&self) -> &[LogInFlight] {
        self.network.in_flight()
    }

    /// The faults and retries still allowed.
    pub fn budget_left(&self) -> Budget {
        self.budget_left
    }

    /// How many more trims an operator may ask for.
    pub fn trims_left(&self) -> u32 {
        self.trims_left
    }

    /// How many more handoffs an operator may ask for.
    pub fn handoffs_left(&self) -> u32 {
        self.handoffs_left
    }

    /// The nodes cut off by a partition.
    pub fn isolated(&self) -> NodeSet {
        self.network.isolated()
    }

    /// The client history so far.
    pub fn history(&self) -> &[ClientCall] {
        &self.knowledge.history
    }

    /// Every slot some node learned chosen.
    pub fn decided(&self) -> &BTreeMap<Slot, Entry> {
        &self.knowledge.decided
    }

    /// Every action [`LogWorld::apply`] would accept now, in a stable order: deliveries and
    /// network faults, then each server's own steps, then healing, then client requests.
    pub fn enabled(&self) -> Vec<LogAction> {
        // Room for three actions on every message and a few for each server and client, so
        // the list is allocated once in the common case.
        let room =
            3 * self.network.in_flight().len() + 4 * (self.servers.len() + self.clients.len());
        let mut actions = Vec::with_capacity(room);
        let busy = |envelope: &Arc<LogEnvelope>| self.receiver_busy(envelope.to);
        self.network.enabled(&self.budget_left, busy, &mut actions);
        for index in 0..self.servers.len() {
            self.enabled_at_server(index, &mut actions);
        }
        for index in 0..self.proxies().len() {
            self.enabled_at_proxy(index, &mut actions);
        }
        if !self.network.isolated().is_empty() {
            actions.push(LogAction::Heal);
        }
        for index in 0..self.clients.len() {
            self.enabled_requests(index, &mut actions);
        }
        actions
    }

    fn enabled_at_server(&self, index: usize, actions: &mut Vec<LogAction>) {
        let server = &self.servers[index];
        let node = self.config.node_id(index);
        match (&server.host, &server.held) {
            (Host::Down, _) => {
                if self.may_restart(index) {
                    actions.push(LogAction::Restart(node));
                }
                self.enabled_storage_faults(index, actions);
            }
            (Host::Up(_), Some(held)) => {
                if !held.persisted() {
                    actions.push(LogAction::Persist(node));
                    if self.budget_left.allows(Fault::TornWrite) && !held.writes().is_empty() {
                        self.enabled_torn_writes(node, held.writes(), actions);
                    }
                }
                let may_send = held.persisted()
                    || self.config.negative_control == Some(NegativeControl::SendBeforePersist);
                if !held.sent() && may_send {
                    actions.push(LogAction::Send(node));
                }
            }
            (Host::Up(running), None) => {
                if self.budget_left.allows(Fault::Tick) {
                    actions.push(LogAction::Tick(node));
                }
                if self.trims_left > 0 && may_trim(running) {
                    actions.push(LogAction::Trim(node));
                }
                if self.handoffs_left > 0 {
                    let successors = (0..self.servers.len()).map(|to| self.config.node_id(to));
                    for to in successors.filter(|to| running.may_hand_off(*to).is_ok()) {
                        actions.push(LogAction::HandOff { from: node, to });
                    }
                }
            }
        }
        if server.host.is_up() && self.budget_left.allows(Fault::Crash) {
            actions.push(LogAction::Crash(node));
        }
        if self.budget_left.allows(Fault::Partition) && !self.network.isolated().contains(node) {
            actions.push(LogAction::Partition(node));
        }
    }

    fn enabled_requests(&self, index: usize, actions: &mut Vec<LogAction>) {
        let client = &self.clients[index];
        let has_next = client.next_op < self.config.clients[index].len();
        let may_send = match client.outstanding {
            None => has_next,
            Some(_) => client.redirected || self.budget_left.allows(Fault::ClientResend),
        };
        if !may_send {
            return;
        }
        let client = self.config.client_id(index);
        for node_index in 0..self.servers.len() {
            let node = self.config.node_id(node_index);
            if self
                .config
                .client_target(index)
                .is_none_or(|target| target == node)
            {
                actions.push(LogAction::Request { client, node });
            }
        }
    }

    /// Applies one action. A refused action leaves the world unchanged.
    pub fn apply(&mut self, action: &LogAction) -> Result<(), Refused> {
        let applied = self.step_servers(action);
        self.learn_effects();
        if applied.is_ok() && *action != LogAction::StopFaults {
            self.spend_fair_step();
        }
        applied
    }

    /// Applies one action but for what its servers' steps ask of the knowledge, which is left
    /// in `effects` ([`Effect`]).
    fn step_servers(&mut self, action: &LogAction) -> Result<(), Refused> {
        self.known_fingerprint = None;
        let touched = self.server_touched(action);
        let applied = self.dispatch(action);
        if let Some(index) = touched {
            self.server_parts[index] = part(Part::Server(index), &self.servers[index]);
        }
        applied
    }

    /// The one server `action` may change, if any: the node it names, or the node a delivery
    /// reaches. Every other server is left as it was (a node's output reaches the others only
    /// as messages in flight).
    fn server_touched(&self, action: &LogAction) -> Option<usize> {
        let node = match *action {
            LogAction::Deliver(message) => self.network.get(message)?.envelope.to,
            LogAction::Tick(node)
            | LogAction::Crash(node)
            | LogAction::TornCrash(node)
            | LogAction::Restart(node)
            | LogAction::Persist(node)
            | LogAction::Send(node)
            | LogAction::Trim(node)
            | LogAction::WipeDisk(node)
            | LogAction::CorruptRecord { node, .. }
            | LogAction::TornCrashAt { node, .. }
            | LogAction::FlipBit { node, .. }
            | LogAction::HandOff { from: node, .. } => node,
            LogAction::Drop(_)
            | LogAction::Duplicate(_)
            | LogAction::Partition(_)
            | LogAction::Heal
            | LogAction::Request { .. }
            | LogAction::StopFaults => return None,
        };
        self.server_index(node).ok()
    }

    fn dispatch(&mut self, action: &LogAction) -> Result<(), Refused> {
        match *action {
            LogAction::Deliver(message) => self.deliver(message),
            LogAction::Drop(message) => self.drop_message(message),
            LogAction::Duplicate(message) => self.duplicate(message),
            LogAction::Tick(node) => self.tick(node),
            LogAction::Crash(node) => match self.proxy_index(node) {
                Some(proxy) => self.crash_proxy(proxy),
                None => self.crash(node),
            },
            LogAction::TornCrash(node) => self.torn_crash(node, None),
            LogAction::TornCrashAt { node, kept } => self.torn_crash(node, Some(kept.into())),
            LogAction::Restart(node) => match self.proxy_index(node) {
                Some(proxy) => self.restart_proxy(proxy),
                None => self.restart(node),
            },
            LogAction::Persist(node) => self.persist_held(node),
            LogAction::Send(node) => self.send_held(node),
            LogAction::Partition(node) => self.partition(node),
            LogAction::Heal => self.heal(),
            LogAction::Trim(node) => self.trim(node),
            LogAction::HandOff { from, to } => self.hand_off(from, to),
            LogAction::Request { client, node } => self.request(client, node),
            LogAction::CorruptRecord { node, record } => self.corrupt_record(node, record),
            LogAction::FlipBit { node, frame, bit } => {
                self.flip_bit(node, frame.into(), bit.into())
            }
            LogAction::WipeDisk(node) => self.wipe_disk(node),
            LogAction::StopFaults => {
                self.stop_faults();
                Ok(())
            }
        }
    }

    /// A fingerprint of everything the future depends on: servers (nodes, disks, held
    /// batches, clocks, checker state), proxy leaders, clients, the multiset of messages in flight, budgets,
    /// partitions, the history, the decisions, the votes and the violations found.
    ///
    /// It is the wrapping sum of one hash per part (see [`LogWorld::fingerprint_from_scratch`]).
    /// The servers' parts and the sum of the messages', decisions' and votes' are kept as the
    /// world changes (the network keeps its messages'), so this hashes only the small parts:
    /// clients, budgets, partitions, the history and the count of violations.
    pub fn fingerprint(&self) -> u64 {
        if let Some(known) = self.known_fingerprint {
            return known;
        }
        (self.server_parts.iter())
            .chain(&self.proxies.parts)
            .fold(self.kept_sum, |sum, host| sum.wrapping_add(*host))
            .wrapping_add(self.network.fingerprint())
            .wrapping_add(self.small_parts())
    }

    /// The fingerprint computed from every part, as [`LogWorld::fingerprint`] must equal
    /// ([`crate::fingerprint`]): each server, each proxy leader, each client, the network (the multiset of
    /// messages in flight, and the partition), the budgets, each call in the history, each
    /// decision, each vote (one per voter), the count of violations and a checker that gave
    /// up. The configuration is
    /// left out because it is constant for the life of a world, and `chosen` because it is
    /// worked out from the votes.
    pub fn fingerprint_from_scratch(&self) -> u64 {
        let servers = (self.servers.iter().enumerate())
            .map(|(index, server)| part(Part::Server(index), server));
        let proxies = (self.proxies().iter().enumerate())
            .map(|(index, proxy)| part(Part::Proxy(index), proxy));
        let decided =
            (self.knowledge.decided.iter()).map(|decision| part(Part::Decided, &decision));
        let votes = (self.knowledge.votes.iter()).flat_map(|((slot, ballot, entry), voters)| {
            (voters.iter()).map(|voter| vote_part(*slot, *ballot, entry, voter))
        });
        let sent = (self.knowledge.sent.iter()).map(|sent| part(Part::Sent, &sent));
        servers
            .chain(proxies)
            .chain(decided)
            .chain(votes)
            .chain(sent)
            .fold(
                self.small_parts()
                    .wrapping_add(self.network.fingerprint_from_scratch()),
                u64::wrapping_add,
            )
    }

    /// The parts hashed afresh every time: each client, the budgets, each call in the history,
    /// the count of violations and a checker that gave up. All are a few bytes each.
    fn small_parts(&self) -> u64 {
        let clients = (self.clients.iter().enumerate())
            .map(|(index, client)| part(Part::Client(index), client));
        let calls = (self.knowledge.history.iter().enumerate())
            .map(|(index, call)| part(Part::Call(index), call));
        let gave_up = (self.knowledge.gave_up.iter()).map(|gave_up| part(Part::GaveUp, gave_up));
        clients.chain(calls).chain(gave_up).fold(
            part(Part::Budget, &self.budget_left)
                .wrapping_add(part(
                    Part::Trims,
                    &(self.trims_left, self.knowledge.highest_floor),
                ))
                .wrapping_add(part(Part::Handoffs, &self.handoffs_left))
                .wrapping_add(part(Part::FairSteps, &self.fair_steps_left))
                .wrapping_add(part(Part::Violations, &self.knowledge.violations.len())),
            u64::wrapping_add,
        )
    }

    /// The safety properties broken so far.
    pub fn violations(&self) -> &[Violation] {
        &self.knowledge.violations
    }
}

/// Whether a node would take an operator's trim now: it leads, and has applied past its floor
/// ([`paros_core::log::trim_may_be_proposed`]).
fn may_trim(node: &paros_core::log::ColocatedNode) -> bool {
    node.role() == paros_core::log::LogRole::Leader
        && paros_core::log::trim_may_be_proposed(
            node.applied_index(),
            node.floor(),
            node.applied_index(),
        )
        .is_ok()
}

impl Model for LogWorld {
    type Config = LogWorldConfig;
    type Action = LogAction;
    type Step = ();

    const FAULTS: &'static [Fault] = &[
        Fault::Drop,
        Fault::Duplicate,
        Fault::Crash,
        Fault::TornWrite,
        Fault::Partition,
        Fault::Tick,
        Fault::ClientResend,
        Fault::CorruptRecord,
        Fault::WipeDisk,
    ];

    fn build(config: LogWorldConfig) -> Result<LogWorld, Refused> {
        LogWorld::new(config)
    }

    fn enabled(&self) -> Vec<LogAction> {
        LogWorld::enabled(self)
    }

    fn apply(&mut self, action: &LogAction) -> Result<(), Refused> {
        LogWorld::apply(self, action)
    }

    fn fingerprint(&self) -> u64 {
        LogWorld::fingerprint(self)
    }

    fn budget_left(&self) -> Budget {
        self.budget_left
    }

    /// This world with a fresh memo of server steps, which its successors share.
    fn for_exploration(mut self) -> LogWorld {
        self.memo = Some(Arc::default());
        self.share_in_flight();
        self
    }

    fn successor(&self, action: &LogAction) -> Result<LogWorld, Refused> {
        self.remembered_successor(action)
    }

    fn successor_fingerprint(&self, action: &LogAction) -> Result<u64, Refused> {
        self.remembered_fingerprint(action)
    }

    fn violations(&self) -> Vec<Violation> {
        self.knowledge.violations.clone()
    }

    fn gave_up(&self) -> Option<GaveUp> {
        self.knowledge.gave_up.clone()
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

    /// The fair schedule of [`LogWorld::settle`], one step past the progress bound
    /// ([`LogWorld::fair_steps_bound`]), so a world that makes no progress breaks it.
    fn settle(&self) -> Option<Result<Settled<LogAction>, String>> {
        Some(LogWorld::settle(
            self,
            self.fair_steps_bound().saturating_add(1),
        ))
    }

    fn fault_kind(&self, action: &LogAction) -> Option<Fault> {
        if let Some((verb, _)) = action.message() {
            return verb.fault();
        }
        match action {
            LogAction::Crash(_) => Some(Fault::Crash),
            LogAction::TornCrash(_) | LogAction::TornCrashAt { .. } => Some(Fault::TornWrite),
            LogAction::Partition(_) => Some(Fault::Partition),
            LogAction::CorruptRecord { .. } | LogAction::FlipBit { .. } => {
                Some(Fault::CorruptRecord)
            }
            LogAction::WipeDisk(_) => Some(Fault::WipeDisk),
            LogAction::Request { client, .. } => {
                let state = &self.clients[self.client_index(*client).ok()?];
                let resend = state.outstanding.is_some() && !state.redirected;
                resend.then_some(Fault::ClientResend)
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

#[cfg(all(test, feature = "accept-batch"))]
mod batch_tests;
#[cfg(test)]
mod commit_tests;
#[cfg(test)]
mod grid_tests;
#[cfg(test)]
mod proxy_tests;
#[cfg(test)]
mod quorum_tests;
#[cfg(test)]
mod storage_tests;
#[cfg(test)]
mod test_worlds;
#[cfg(test)]
mod tests;

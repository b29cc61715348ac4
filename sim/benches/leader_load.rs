//! The leader's load with and without proxy leaders (Compartmentalized Paxos), in one run.
//!
//! `cargo bench -p paros-sim --bench leader_load` drives the same workload through a settled
//! cluster twice, once with the leader's Accepts going straight to the acceptors and once
//! through two proxies, and prints for each: the commands per second the whole world ran, the
//! messages per command the leader handled over the network (received + sent), the leader's
//! time per command (its own steps: the deliveries to it and its ticks) and the commands per
//! second that time bounds, with the ratio of the proxied run to the direct one.
//!
//! The workload: N1 is elected, then C1 writes x=1..N at N1, one at a time, every message
//! delivered oldest first, no faults. The leader is colocated with an acceptor, as paros-core's
//! nodes are: it votes for its own proposals. Messages a node sends itself are delivered like
//! the rest but are not network messages, so they are not counted. It runs for three nodes and
//! for five: without proxies the leader's network messages per command grow with the acceptors
//! (a Write, an Accept to and an Accepted from each other node, a Reply), and with them they
//! stay at six (the Write, its Accept to a proxy, the proxy's Accept to its acceptor and that
//! acceptor's Accepted, the announcement, the Reply).
//!
//! The cluster is paros-core's nodes, proxies and durable records driven directly, as the
//! simulator's world drives them but without its checkers, which judge the whole history at
//! every step and would be most of the time measured. The leader's time is its own steps:
//! handling a message, making its writes durable and releasing its messages.
//!
//! Speed is measured here, never in tests; the machine may be shared, so each figure is the best
//! of a few repetitions.

use paros_core::log::{
    ColocatedNode, DurableRecord, LogConfig, LogEnvelope, LogMessage, LogRole, Persisted,
    ProxyLeader,
};
use paros_core::{NodeId, NodeSet, Value};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

const COMMANDS: u64 = 20_000;
const REPETITIONS: usize = 5;

fn main() {
    for nodes in [3, 5] {
        let direct = best_of(|| run(nodes, 0));
        let proxied = best_of(|| run(nodes, 2));
        println!(
            "{nodes} nodes, {COMMANDS} commands from one client at N1, the leader colocated with an acceptor:"
        );
        print_load("  no proxies ", &direct);
        print_load("  two proxies", &proxied);
        println!(
            "  with proxies: {:.2}x the leader's messages per command, {:.2}x its time per command ({:.2}x the commands per second its time bounds)",
            proxied.messages_per_command() / direct.messages_per_command(),
            proxied.leader_time_per_command() / direct.leader_time_per_command(),
            direct.leader_time_per_command() / proxied.leader_time_per_command(),
        );
    }
}

/// What one run measured.
struct Load {
    /// Wall-clock time of the whole run, after the election.
    wall: Duration,
    /// Time in the leader's own steps.
    leader: Duration,
    /// Network messages the leader received and sent.
    received: u64,
    sent: u64,
}

impl Load {
    fn messages_per_command(&self) -> f64 {
        (self.received + self.sent) as f64 / COMMANDS as f64
    }

    fn leader_time_per_command(&self) -> f64 {
        self.leader.as_secs_f64() / COMMANDS as f64
    }
}

fn print_load(label: &str, load: &Load) {
    println!(
        "{label} {:>8.0} commands/s (cluster), leader: {:.2} messages/command ({:.2} received + {:.2} sent), {:.2} us/command, {:>8.0} commands/s bounded by the leader",
        COMMANDS as f64 / load.wall.as_secs_f64(),
        load.messages_per_command(),
        load.received as f64 / COMMANDS as f64,
        load.sent as f64 / COMMANDS as f64,
        load.leader_time_per_command() * 1e6,
        1.0 / load.leader_time_per_command(),
    );
}

/// The run of the fewest leader seconds among a few.
fn best_of(run: impl Fn() -> Load) -> Load {
    (0..REPETITIONS)
        .map(|_| run())
        .min_by(|a, b| a.leader.cmp(&b.leader))
        .expect("at least one repetition")
}

fn id(number: u8) -> NodeId {
    NodeId::new(number).expect("a node id")
}

/// Nodes N1..Nn with their disks, proxies after them, one client after those, and every
/// message in flight, oldest first.
struct Cluster {
    nodes: Vec<ColocatedNode>,
    disks: Vec<DurableRecord>,
    proxies: Vec<ProxyLeader>,
    client: NodeId,
    in_flight: VecDeque<LogEnvelope>,
}

impl Cluster {
    fn new(nodes: u8, proxies: u8) -> Cluster {
        let node_ids: NodeSet = (1..=nodes).map(id).collect();
        let proxy_ids: NodeSet = (nodes + 1..=nodes + proxies).map(id).collect();
        let mut config = LogConfig::new(node_ids);
        if proxies > 0 {
            config = config
                .with_proxies(proxy_ids)
                .expect("proxies after the nodes");
        }
        config.election_timeout_ticks = 1;
        let mut cluster = Cluster {
            nodes: node_ids
                .iter()
                .map(|node| ColocatedNode::new(node, config))
                .collect(),
            disks: vec![DurableRecord::default(); usize::from(nodes)],
            proxies: proxy_ids
                .iter()
                .map(|proxy| ProxyLeader::new(proxy, config))
                .collect(),
            client: id(nodes + proxies + 1),
            in_flight: VecDeque::new(),
        };
        for index in 0..cluster.nodes.len() {
            cluster.flush_node(index);
        }
        cluster
    }

    /// Makes node `index`'s writes durable and puts its messages in flight.
    fn flush_node(&mut self, index: usize) -> usize {
        let ready = self.nodes[index].take_ready();
        let messages = self.disks[index].persist_ready(ready);
        let count = messages.len();
        self.in_flight.extend(messages);
        count
    }

    /// Hands `envelope` to its receiver and puts what it sends in flight. Returns the
    /// messages it sent, or `None` for a message to the client.
    fn deliver(&mut self, envelope: &LogEnvelope) -> Option<Vec<LogEnvelope>> {
        let number = usize::from(envelope.to.get());
        if number <= self.nodes.len() {
            let node = &mut self.nodes[number - 1];
            let _ignored = node.handle(envelope);
            let ready = node.take_ready();
            return Some(self.disks[number - 1].persist_ready(ready));
        }
        let proxy = self.proxies.get_mut(number - self.nodes.len() - 1)?;
        let _ignored = proxy.handle(envelope);
        Some(proxy.take_ready().into_messages(Persisted::nothing()))
    }
}

/// `nodes` nodes and `proxies` proxies: N1 elected, then the workload through it.
fn run(nodes: u8, proxies: u8) -> Load {
    let mut cluster = Cluster::new(nodes, proxies);
    let leader = id(1);
    cluster.nodes[0].tick();
    cluster.flush_node(0);
    while let Some(envelope) = cluster.in_flight.pop_front() {
        let sent = cluster.deliver(&envelope).unwrap_or_default();
        cluster.in_flight.extend(sent);
    }
    assert_eq!(cluster.nodes[0].role(), LogRole::Leader);
    let mut load = Load {
        wall: Duration::ZERO,
        leader: Duration::ZERO,
        received: 0,
        sent: 0,
    };
    let start = Instant::now();
    let mut answered = 0;
    for seq in 1..=COMMANDS {
        cluster.in_flight.push_back(LogEnvelope {
            from: cluster.client,
            to: leader,
            message: LogMessage::Write {
                seq,
                key: Value::new("x"),
                value: Value::new(&seq.to_string()),
            },
        });
        while let Some(envelope) = cluster.in_flight.pop_front() {
            if envelope.to == cluster.client {
                answered += 1;
                continue;
            }
            let began = Instant::now();
            let sent = cluster.deliver(&envelope).unwrap_or_default();
            if envelope.to == leader {
                load.leader += began.elapsed();
                load.received += u64::from(envelope.from != leader);
                load.sent += sent.iter().filter(|message| message.to != leader).count() as u64;
            }
            cluster.in_flight.extend(sent);
        }
    }
    assert_eq!(answered, COMMANDS, "every write was answered");
    load.wall = start.elapsed();
    load
}

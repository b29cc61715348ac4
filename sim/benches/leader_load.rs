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
//! nodes are: it votes for its own proposals. Messages a node sends itself are handled at once
//! and are not network messages, so they are not counted. It runs for three nodes and for five:
//! the leader's network messages per command grow with the acceptors without proxies (1 + 2(n-1)
//! + 1) and stay at 6 with them.
//!
//! Speed is measured here, never in tests; the machine may be shared, so each figure is the best
//! of a few repetitions.

use paros_sim::Fault;
use paros_sim::replicated_log::{ClientOp, LogAction, LogWorld, LogWorldConfig};
use std::time::{Duration, Instant};

const COMMANDS: usize = 2_000;
const REPETITIONS: usize = 3;

fn main() {
    for nodes in [3, 5] {
        let direct = best_of(|| run(nodes, 0));
        let proxied = best_of(|| run(nodes, 2));
        println!(
            "{nodes} nodes, {COMMANDS} commands from C1 at N1, the leader colocated with an acceptor:"
        );
        print_load("  no proxies  ", &direct);
        print_load("  two proxies ", &proxied);
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
        "{label} {:>9.0} commands/s (world), leader: {:.2} messages/command ({:.2} received + {:.2} sent), {:.2} us/command, {:>9.0} commands/s bounded by the leader",
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

/// `nodes` nodes and `proxies` proxies: N1 elected, then the workload through it.
fn run(nodes: u8, proxies: u8) -> Load {
    let program = (1..=COMMANDS)
        .map(|value| ClientOp::write("x", &value.to_string()))
        .collect();
    let mut config = LogWorldConfig::three_nodes(program);
    config.node_count = nodes;
    config.proxies = proxies;
    config.election_timeout_ticks = 1;
    config.budget = config.budget.with(Fault::Tick, u32::MAX / 2);
    let leader = config.node_id(0);
    let client = config.client_id(0);
    let mut world = LogWorld::new(config).expect("a valid world");
    step(&mut world, LogAction::Tick(leader));
    drain(&mut world);
    let mut load = Load {
        wall: Duration::ZERO,
        leader: Duration::ZERO,
        received: 0,
        sent: 0,
    };
    let start = Instant::now();
    while !world.all_clients_done() {
        let action = match world.in_flight().first() {
            Some(message) => LogAction::Deliver(message.id),
            None => LogAction::Request {
                client,
                node: leader,
            },
        };
        let first_new = world.network().next_id();
        let to_leader = match action {
            LogAction::Deliver(id) => {
                world.network().get(id).map(|m| m.envelope.to) == Some(leader)
            }
            _ => false,
        };
        let began = Instant::now();
        step(&mut world, action);
        if to_leader {
            load.leader += began.elapsed();
            load.received += 1;
        }
        load.sent += (world.in_flight().iter())
            .filter(|message| message.id >= first_new && message.envelope.from == leader)
            .count() as u64;
    }
    load.wall = start.elapsed();
    load
}

fn step(world: &mut LogWorld, action: LogAction) {
    world.apply(&action).expect("a fault-free step applies");
}

/// Delivers every message in flight, oldest first.
fn drain(world: &mut LogWorld) {
    while let Some(message) = world.in_flight().first() {
        let id = message.id;
        step(world, LogAction::Deliver(id));
    }
}

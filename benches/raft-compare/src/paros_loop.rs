//! The paros-core loop: three `ColocatedNode`s, their in-memory disks, and a FIFO network.
//!
//! Each round delivers every message in flight, then takes each node's `Ready`, persists its
//! writes to the node's `DurableRecord`, and only then queues its messages: persist, then send.
//! The client is a node of the network that sends `Write`s to the leader; a command is done when
//! the leader's `Ready` reports it applied (its reply to the client leaves in the same `Ready`),
//! the same point at which the raft-rs loop counts a command done.

use crate::counting_alloc::allocations;
use crate::cpu_clock::thread_cpu_time;
use crate::workload::{Measurement, Workload};
use paros_core::log::{
    ColocatedNode, DurableRecord, Entry, LogConfig, LogEnvelope, LogMessage, LogRole,
};
use paros_core::{NodeId, NodeSet, Value};
use std::collections::VecDeque;
use std::time::Instant;

const NODES: [u8; 3] = [1, 2, 3];
const LEADER: u8 = 1;
const CLIENT: u8 = 9;

/// Rounds without progress after which the run is declared stuck.
const STALL_ROUNDS: u32 = 100;

fn node_id(id: u8) -> NodeId {
    NodeId::new(id).expect("the bench's node ids are in range")
}

/// Three nodes, their disks and the network between them.
struct Cluster {
    nodes: Vec<ColocatedNode>,
    disks: Vec<DurableRecord>,
    network: VecDeque<LogEnvelope>,
}

/// What one round of delivery did.
#[derive(Default)]
struct Delivered {
    /// Every message delivered, the client's included.
    any: u64,
    /// Messages from node to node.
    messages: u64,
}

impl Cluster {
    fn new(accept_batch: usize) -> Result<Cluster, String> {
        let members: NodeSet = NODES.map(node_id).into_iter().collect();
        let config = LogConfig::new(members)
            .with_accept_batch(accept_batch)
            .map_err(|refused| format!("paros: --batch {accept_batch}: {refused}"))?;
        Ok(Cluster {
            nodes: NODES
                .iter()
                .map(|id| ColocatedNode::new(node_id(*id), config))
                .collect(),
            disks: vec![DurableRecord::default(); NODES.len()],
            network: VecDeque::new(),
        })
    }

    /// Persist, then send: the only order `Ready` allows, in one step, since the node's disk is
    /// its `DurableRecord`. Returns the client commands the node applied.
    fn flush(&mut self, index: usize) -> u64 {
        let ready = self.nodes[index].take_ready();
        let applied = ready
            .applied()
            .iter()
            .filter(|applied| applied.fresh && matches!(applied.entry, Entry::Command(_)))
            .count();
        self.network.extend(self.disks[index].persist_ready(ready));
        applied as u64
    }

    /// Flushes every node; returns the client commands the leader applied.
    fn flush_all(&mut self) -> u64 {
        let mut applied_on_leader = 0;
        for index in 0..self.nodes.len() {
            let applied = self.flush(index);
            if index == usize::from(LEADER - 1) {
                applied_on_leader = applied;
            }
        }
        applied_on_leader
    }

    /// Delivers every message in flight. A node's answers wait in its `Ready` until the next
    /// flush, so this drains the network.
    fn deliver_all(&mut self) -> Delivered {
        let mut delivered = Delivered::default();
        while let Some(envelope) = self.network.pop_front() {
            delivered.any += 1;
            if envelope.to == node_id(CLIENT) {
                continue; // a reply: the client counts its commands by the leader's apply
            }
            if envelope.from != node_id(CLIENT) {
                delivered.messages += 1;
            }
            let index = usize::from(envelope.to.get() - 1);
            // A late vote for a slot already chosen is ignored by design; nothing to do.
            let _ignored = self.nodes[index].handle(&envelope);
        }
        delivered
    }

    /// Runs rounds until the network is empty after a flush.
    fn settle(&mut self) {
        loop {
            self.flush_all();
            if self.network.is_empty() {
                return;
            }
            self.deliver_all();
        }
    }

    /// Elects node 1 by its own election timeout, counted in ticks.
    fn elect_leader(&mut self) -> Result<(), String> {
        self.settle();
        let leader = usize::from(LEADER - 1);
        for _ in 0..self.nodes[leader].config().election_timeout_ticks {
            self.nodes[leader].tick();
            let _nothing_applied = self.flush(leader);
        }
        self.settle();
        match self.nodes[leader].role() {
            LogRole::Leader => Ok(()),
            role => Err(format!(
                "paros: node {LEADER} is {role:?} after its election"
            )),
        }
    }

    /// The client sends command `index` as request `index + 1` to the leader.
    fn client_write(&mut self, seq: u64, (key, value): &(Value, Value)) {
        self.network.push_back(LogEnvelope {
            from: node_id(CLIENT),
            to: node_id(LEADER),
            message: LogMessage::Write {
                seq,
                key: key.clone(),
                value: value.clone(),
            },
        });
    }

    /// Proposes every command with at most `window` not yet applied on the leader; returns the
    /// messages delivered between nodes.
    fn run(&mut self, inputs: &[(Value, Value)], window: u64) -> Result<u64, String> {
        let total = inputs.len() as u64;
        let (mut sent, mut applied, mut messages, mut idle_rounds) = (0, 0, 0, 0);
        while applied < total {
            while sent < total && sent - applied < window {
                self.client_write(sent + 1, &inputs[sent as usize]);
                sent += 1;
            }
            let delivered = self.deliver_all();
            applied += self.flush_all();
            messages += delivered.messages;
            idle_rounds = if delivered.any == 0 {
                idle_rounds + 1
            } else {
                0
            };
            if idle_rounds > STALL_ROUNDS {
                return Err(format!("paros: stuck with {applied} of {total} applied"));
            }
        }
        Ok(messages)
    }

    /// The leader applied every command once, and its store holds the last value written.
    fn check(&self, workload: &Workload) -> Result<(), String> {
        let total = workload.commands;
        let leader = &self.nodes[usize::from(LEADER - 1)];
        let applied = leader.store().applied_seq(node_id(CLIENT));
        if applied != total {
            return Err(format!(
                "paros: leader applied {applied} of {total} requests"
            ));
        }
        let last = total - 1;
        let value = leader.store().get(&Value::new(&workload.key(last)));
        if value.map(Value::as_str) != Some(workload.value(last).as_str()) {
            return Err("paros: the last command's value is missing on the leader".to_owned());
        }
        Ok(())
    }
}

/// One timed run of the paros-core loop.
pub fn measure(workload: &Workload) -> Result<Measurement, String> {
    let inputs: Vec<(Value, Value)> = (0..workload.commands)
        .map(|index| {
            let key = Value::new(&workload.key(index));
            (key, Value::new(&workload.value(index)))
        })
        .collect();
    let mut cluster = Cluster::new(workload.accept_batch)?;
    cluster.elect_leader()?;
    let cpu_start = thread_cpu_time();
    let allocations_before = allocations();
    let start = Instant::now();
    let messages = cluster.run(&inputs, workload.window)?;
    let elapsed = start.elapsed();
    let allocations = allocations() - allocations_before;
    let cpu = thread_cpu_time()
        .zip(cpu_start)
        .map(|(end, start)| end - start);
    cluster.check(workload)?;
    Ok(Measurement {
        elapsed,
        cpu,
        allocations,
        messages,
        commands: workload.commands,
    })
}

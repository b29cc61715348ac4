//! The raft-rs loop: three `RawNode`s over `MemStorage`, and a FIFO network.
//!
//! The same shape as the paros loop: each round delivers every message in flight, then handles
//! each node's `Ready` by appending its entries and hard state to `MemStorage` first and only
//! then queueing its messages, then applies committed entries to a key-value map. The leader
//! is node 1, made leader by `campaign()` (raft-rs randomizes election timeouts; calling
//! `campaign()` keeps the run deterministic). A command is done when the leader applies it.

use crate::counting_alloc::allocations;
use crate::cpu_clock::thread_cpu_time;
use crate::workload::{KEY_BYTES, Measurement, Workload};
use bytes::Bytes;
use raft::eraftpb::{ConfState, Entry, EntryType, Message};
use raft::storage::MemStorage;
use raft::{Config, RawNode, StateRole};
use std::collections::{BTreeMap, VecDeque};
use std::time::Instant;

const NODES: [u64; 3] = [1, 2, 3];
const LEADER: u64 = 1;

/// Rounds without progress after which the run is declared stuck.
const STALL_ROUNDS: u32 = 100;

/// How the leader packs entries into append messages.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Appends {
    /// Appends to the same follower queued in one `Ready` are merged (`batch_append`), up to
    /// 1 MiB per message: how raft-rs is deployed under load.
    Batched,
    /// One entry per append message (`max_size_per_msg = 0`, raft-rs's default), as paros
    /// sends one Accept per slot.
    OnePerMessage,
}

impl Appends {
    fn max_size_per_msg(self) -> u64 {
        match self {
            Appends::Batched => 1024 * 1024,
            Appends::OnePerMessage => 0,
        }
    }

    fn batch_append(self) -> bool {
        self == Appends::Batched
    }
}

/// One node and the key-value map its committed entries are applied to.
struct Replica {
    raw: RawNode<MemStorage>,
    store: BTreeMap<Bytes, Bytes>,
    applied_commands: u64,
}

/// Three nodes and the network between them.
struct Cluster {
    replicas: Vec<Replica>,
    network: VecDeque<Message>,
}

fn replica(id: u64, appends: Appends) -> Result<Replica, String> {
    let config = Config {
        id,
        election_tick: 10,
        heartbeat_tick: 3,
        max_size_per_msg: appends.max_size_per_msg(),
        max_inflight_msgs: 256,
        batch_append: appends.batch_append(),
        ..Config::default()
    };
    let voters = ConfState::from((NODES.to_vec(), vec![]));
    let storage = MemStorage::new_with_conf_state(voters);
    let logger = slog::Logger::root(slog::Discard, slog::o!());
    let raw = RawNode::new(&config, storage, &logger).map_err(|error| format!("raft: {error}"))?;
    Ok(Replica {
        raw,
        store: BTreeMap::new(),
        applied_commands: 0,
    })
}

impl Replica {
    /// Applies committed entries: each command's key and value go into the map.
    fn apply(&mut self, entries: Vec<Entry>) {
        for entry in entries {
            if entry.get_entry_type() == EntryType::EntryNormal && !entry.data.is_empty() {
                let key = entry.data.slice(..KEY_BYTES);
                let value = entry.data.slice(KEY_BYTES..);
                self.store.insert(key, value);
                self.applied_commands += 1;
            }
        }
    }

    /// Handles one `Ready`: persist entries and hard state, then release the messages, then
    /// apply what is committed. Returns the messages to send.
    fn flush(&mut self) -> Result<Vec<Message>, String> {
        if !self.raw.has_ready() {
            return Ok(Vec::new());
        }
        let mut ready = self.raw.ready();
        if !ready.snapshot().is_empty() {
            return Err("raft: a snapshot arrived in a run that never takes one".to_owned());
        }
        {
            let mut storage = self.raw.mut_store().wl();
            storage
                .append(ready.entries())
                .map_err(|error| format!("raft: append: {error}"))?;
            if let Some(hard_state) = ready.hs() {
                storage.set_hardstate(hard_state.clone());
            }
        }
        let mut outbox = ready.take_messages();
        outbox.extend(ready.take_persisted_messages());
        self.apply(ready.take_committed_entries());
        let mut light = self.raw.advance(ready);
        if let Some(commit) = light.commit_index() {
            self.raw
                .mut_store()
                .wl()
                .mut_hard_state()
                .set_commit(commit);
        }
        outbox.extend(light.take_messages());
        self.apply(light.take_committed_entries());
        self.raw.advance_apply();
        Ok(outbox)
    }
}

impl Cluster {
    fn new(appends: Appends) -> Result<Cluster, String> {
        let replicas = NODES
            .iter()
            .map(|id| replica(*id, appends))
            .collect::<Result<_, _>>()?;
        Ok(Cluster {
            replicas,
            network: VecDeque::new(),
        })
    }

    fn leader(&mut self) -> &mut Replica {
        &mut self.replicas[(LEADER - 1) as usize]
    }

    fn flush_all(&mut self) -> Result<(), String> {
        for replica in &mut self.replicas {
            let outbox = replica.flush()?;
            self.network.extend(outbox);
        }
        Ok(())
    }

    /// Delivers every message in flight; returns how many.
    fn deliver_all(&mut self) -> Result<u64, String> {
        let mut delivered = 0;
        while let Some(message) = self.network.pop_front() {
            delivered += 1;
            let index = (message.to - 1) as usize;
            self.replicas[index]
                .raw
                .step(message)
                .map_err(|error| format!("raft: step: {error}"))?;
        }
        Ok(delivered)
    }

    /// Makes node 1 leader and commits its first (empty) entry of the term.
    fn elect_leader(&mut self) -> Result<(), String> {
        self.leader()
            .raw
            .campaign()
            .map_err(|error| format!("raft: campaign: {error}"))?;
        loop {
            self.flush_all()?;
            if self.network.is_empty() {
                break;
            }
            self.deliver_all()?;
        }
        match self.leader().raw.raft.state {
            StateRole::Leader => Ok(()),
            role => Err(format!("raft: node {LEADER} is {role:?} after campaigning")),
        }
    }

    /// Proposes every command with at most `window` not yet applied on the leader; returns the
    /// messages delivered.
    fn run(&mut self, inputs: Vec<Vec<u8>>, window: u64) -> Result<u64, String> {
        let total = inputs.len() as u64;
        let mut inputs = inputs.into_iter();
        let (mut sent, mut messages, mut idle_rounds) = (0, 0, 0);
        while self.leader().applied_commands < total {
            let mut proposed = 0;
            while sent < total && sent - self.leader().applied_commands < window {
                let data = inputs.next().expect("one input per command");
                self.leader()
                    .raw
                    .propose(Vec::new(), data)
                    .map_err(|error| format!("raft: propose: {error}"))?;
                sent += 1;
                proposed += 1;
            }
            let delivered = self.deliver_all()?;
            self.flush_all()?;
            messages += delivered;
            idle_rounds = if delivered + proposed == 0 {
                idle_rounds + 1
            } else {
                0
            };
            if idle_rounds > STALL_ROUNDS {
                let applied = self.leader().applied_commands;
                return Err(format!("raft: stuck with {applied} of {total} applied"));
            }
        }
        Ok(messages)
    }

    /// The leader applied every command once, and its map holds every key.
    fn check(&mut self, workload: &Workload) -> Result<(), String> {
        let total = workload.commands;
        let leader = self.leader();
        if leader.applied_commands != total {
            let applied = leader.applied_commands;
            return Err(format!(
                "raft: leader applied {applied} of {total} commands"
            ));
        }
        let last = total - 1;
        let key = Bytes::from(workload.key(last));
        if leader.store.get(&key) != Some(&Bytes::from(workload.value(last))) {
            return Err("raft: the last command's value is missing on the leader".to_owned());
        }
        Ok(())
    }
}

/// One timed run of the raft-rs loop.
pub fn measure(workload: &Workload, appends: Appends) -> Result<Measurement, String> {
    let inputs: Vec<Vec<u8>> = (0..workload.commands)
        .map(|index| workload.payload(index))
        .collect();
    let mut cluster = Cluster::new(appends)?;
    cluster.elect_leader()?;
    let cpu_start = thread_cpu_time();
    let allocations_before = allocations();
    let start = Instant::now();
    let messages = cluster.run(inputs, workload.window)?;
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

//! The servers: each node with its disk and its clock, how its output is persisted and sent
//! (at once, or stepwise so a crash can fall at every seam), and crashes, torn writes and
//! restarts from the disk.

use super::knowledge::Effect;
use super::{HeldReady, Host, LogWorld, Server};
use crate::check::Property;
use crate::faults::{Fault, NegativeControl, Refused};
use paros_core::NodeId;
use paros_core::log::{
    BootRefused, Booted, BrokenRule, ColocatedNode, DurableRecord, LogConfig, LogEnvelope,
    Persisted, Provisioning, Ready, Slot, Write, encode,
};
use std::sync::Arc;

/// The rule a negative control makes every node break, when it is a rule of the core's.
pub(super) fn broken_rule(control: Option<NegativeControl>) -> Option<BrokenRule> {
    match control? {
        NegativeControl::JumpMovesPromise => Some(BrokenRule::JumpMovesPromise),
        NegativeControl::DedupAtPropose => Some(BrokenRule::DedupAtPropose),
        NegativeControl::HandoffFillsGaps => Some(BrokenRule::HandoffFillsGaps),
        NegativeControl::DoubleHandoff => Some(BrokenRule::DoubleHandoff),
        NegativeControl::ReadCommitIndex => Some(BrokenRule::ReadCommitIndex),
        NegativeControl::SkipRinse => Some(BrokenRule::SkipRinse),
        NegativeControl::NewValueSameBallot => Some(BrokenRule::NewValueSameBallot),
        NegativeControl::CorruptAsNone => Some(BrokenRule::CorruptAsNone),
        NegativeControl::LearningLeavesThePromise => Some(BrokenRule::LearningLeavesThePromise),
        NegativeControl::LearnsBelowTheFloor => Some(BrokenRule::LearnsBelowTheFloor),
        _ => None,
    }
}

impl LogWorld {
    /// Makes the node at `index`, if up, break the rule of the world's negative control.
    pub(super) fn break_rule(&mut self, index: usize) {
        if let Some(rule) = broken_rule(self.config.negative_control)
            && let Some(node) = Arc::make_mut(&mut self.servers[index]).host.node_mut()
        {
            node.break_rule(rule);
        }
    }

    /// One tick of an idle node's clock.
    pub(super) fn tick(&mut self, node: NodeId) -> Result<(), Refused> {
        let index = self.idle_server(node)?;
        let Server {
            host: Host::Up(running),
            ticks,
            ..
        } = Arc::make_mut(&mut self.servers[index])
        else {
            return Err(Refused::NodeDown(node));
        };
        self.budget_left.spend(Fault::Tick)?;
        *ticks += 1;
        running.tick();
        self.drain(index);
        Ok(())
    }

    /// The slot an operator's trim asks `node` to compact through: what it applied, less the
    /// world's trim lag ([`LogWorldConfig::trim_lag`](super::LogWorldConfig::trim_lag)) where that stays above its floor. T1
    /// lets a leader compact through any slot it applied above its floor
    /// (`paros_core::log::trim_may_be_proposed`), so each is an honest request. A slot 0 for a
    /// node that is down.
    pub fn trim_through(&self, node: NodeId) -> Slot {
        let index = usize::from(node.get()) - 1;
        let Some(running) = self
            .servers
            .get(index)
            .and_then(|server| server.host.node())
        else {
            return Slot(0);
        };
        let applied = running.applied_index();
        let lagging = Slot(applied.0.saturating_sub(self.config.trim_lag));
        if lagging > running.floor() {
            lagging
        } else {
            applied
        }
    }

    /// An operator asks a node to compact the log through [`LogWorld::trim_through`].
    pub(super) fn trim(&mut self, node: NodeId) -> Result<(), Refused> {
        let index = self.idle_server(node)?;
        if self.trims_left == 0 {
            return Err(Refused::NoTrimsLeft);
        }
        let through = self.trim_through(node);
        let Host::Up(running) = &mut Arc::make_mut(&mut self.servers[index]).host else {
            return Err(Refused::NodeDown(node));
        };
        running.request_trim(through).map_err(Refused::Trim)?;
        self.trims_left -= 1;
        self.drain(index);
        Ok(())
    }

    /// An operator asks a leader to hand its ballot to `to`.
    pub(super) fn hand_off(&mut self, from: NodeId, to: NodeId) -> Result<(), Refused> {
        let index = self.idle_server(from)?;
        if self.handoffs_left == 0 {
            return Err(Refused::NoHandoffsLeft);
        }
        let Host::Up(running) = &mut Arc::make_mut(&mut self.servers[index]).host else {
            return Err(Refused::NodeDown(from));
        };
        running.hand_off(to).map_err(Refused::Handoff)?;
        self.handoffs_left -= 1;
        self.drain(index);
        Ok(())
    }

    /// A live node crashes, if the budget allows.
    pub(super) fn crash(&mut self, node: NodeId) -> Result<(), Refused> {
        let index = self.up_server(node)?;
        self.budget_left.spend(Fault::Crash)?;
        self.go_down(index);
        Ok(())
    }

    /// Processes a node's output: in stepwise worlds it is held for `persist` and `send`;
    /// otherwise it is persisted, then sent, and loopback messages are handled at once.
    pub(super) fn drain(&mut self, index: usize) {
        loop {
            let Some(node) = Arc::make_mut(&mut self.servers[index]).host.node_mut() else {
                return; // a node that is down has no output
            };
            let mut ready = node.take_ready();
            if ready.is_empty() {
                // A node can learn a slot chosen (above a hole, say) with nothing to write.
                self.check_decisions(index);
                return;
            }
            let jumps: Vec<Slot> = (ready.writes().iter())
                .filter_map(|write| match write {
                    Write::TrimPoint(point) => Some(point.through),
                    _ => None,
                })
                .collect();
            self.record_trim_points(index, ready.writes());
            self.record_applied(index, &ready.take_applied(), &jumps);
            if self.config.stepwise_ready {
                let held = if ready.writes().is_empty() {
                    let messages = self.persist(index, ready); // no write to wait for
                    HeldReady::Persisted {
                        writes: Vec::new(),
                        messages,
                    }
                } else {
                    HeldReady::Unpersisted(ready)
                };
                Arc::make_mut(&mut self.servers[index]).held = Some(held);
                return;
            }
            let messages = self.persist(index, ready);
            if !self.release(index, messages) {
                return;
            }
        }
    }

    /// Makes a `Ready`'s writes durable, and releases its messages with the proof.
    fn persist(&mut self, index: usize, ready: Ready) -> Vec<LogEnvelope> {
        let proof = self.write_to_disk(index, ready.writes());
        ready.into_messages(proof)
    }

    /// Writes become durable: framed onto the disk, and persisted to what a restart would read,
    /// which proves them.
    fn write_to_disk(&mut self, index: usize, writes: &[Write]) -> Persisted {
        let server = Arc::make_mut(&mut self.servers[index]);
        server.disk.extend(writes.iter().map(encode));
        server.last_frame_cut &= writes.is_empty();
        let before = server.record.chosen_through;
        let proof = server.record.persist(writes);
        self.record_durable_votes(index, writes);
        self.check_disk(index, before, writes);
        proof
    }

    /// Messages leave a node. The votes they carry are recorded first; then a message to the
    /// node itself is handled at once (unless self-messages travel the network), and the rest
    /// go in flight. Returns whether the node handled any, and so may have more output.
    fn release(&mut self, index: usize, messages: Vec<LogEnvelope>) -> bool {
        self.record_votes(index, &messages);
        self.record_ballots(index, &messages);
        self.record_proposals(index, &messages);
        self.record_accepts_sent(index, &messages);
        #[cfg(feature = "accept-batch")]
        self.check_runs_batched(index, &messages);
        self.record_commits(index, &messages);
        self.check_promises(index, &messages);
        let me = self.config.node_id(index);
        let mut handled = false;
        for envelope in messages {
            if envelope.to != me || self.config.self_messages_in_flight {
                self.put_in_flight(envelope);
            } else if let Host::Up(node) = &mut Arc::make_mut(&mut self.servers[index]).host {
                let taken = node.handle(&envelope);
                self.check_well_formed(&envelope, taken);
                handled = true;
            } // a loopback to a node that is down is lost, as a delivery to it would be
        }
        handled
    }

    pub(super) fn persist_held(&mut self, node: NodeId) -> Result<(), Refused> {
        let index = self.up_server(node)?;
        let server = Arc::make_mut(&mut self.servers[index]);
        let held = match server.held.take() {
            Some(HeldReady::Unpersisted(ready)) => {
                let writes = ready.writes().to_vec();
                let messages = self.persist(index, ready);
                Some(HeldReady::Persisted { writes, messages })
            }
            Some(HeldReady::SentBeforePersist { writes }) => {
                let _proof_of_writes_already_sent = self.write_to_disk(index, &writes);
                None
            }
            held @ (Some(HeldReady::Persisted { .. }) | None) => {
                server.held = held;
                return Err(Refused::NothingPending(node));
            }
        };
        Arc::make_mut(&mut self.servers[index]).held = held;
        Ok(())
    }

    pub(super) fn send_held(&mut self, node: NodeId) -> Result<(), Refused> {
        let index = self.up_server(node)?;
        let control = self.config.negative_control == Some(NegativeControl::SendBeforePersist);
        let server = Arc::make_mut(&mut self.servers[index]);
        let messages = match server.held.take() {
            Some(HeldReady::Persisted { messages, .. }) => messages,
            Some(HeldReady::Unpersisted(ready)) if control => {
                let (writes, messages) = self.send_before_persist(index, ready);
                Arc::make_mut(&mut self.servers[index]).held =
                    Some(HeldReady::SentBeforePersist { writes });
                messages
            }
            held => {
                server.held = held;
                return Err(Refused::NothingPending(node));
            }
        };
        self.release(index, messages);
        if self.servers[index].held.is_none() {
            self.drain(index);
        }
        Ok(())
    }

    /// The fault of [`NegativeControl::SendBeforePersist`], outside the model: the messages
    /// are released with a proof from a scratch copy of the record, persisted and thrown away,
    /// so they leave while the disk still lacks their writes. Returns the writes, still to
    /// persist, and the messages.
    fn send_before_persist(&self, index: usize, ready: Ready) -> (Vec<Write>, Vec<LogEnvelope>) {
        let writes = ready.writes().to_vec();
        let mut scratch = self.servers[index].record.clone();
        let proof = scratch.persist(&writes);
        (writes, ready.into_messages(proof))
    }

    /// The node goes down: its volatile state, and writes not yet durable, are lost.
    fn go_down(&mut self, index: usize) {
        let server = Arc::make_mut(&mut self.servers[index]);
        server.host = Host::Down;
        server.held = None;
        server.applied_fresh.clear();
        server.applied_through = Slot(0);
        let stood = std::mem::take(&mut server.stood_now);
        server.stood_before.extend(stood);
    }

    /// The node crashes persisting its held writes: all but the last reach the disk, and the
    /// last is cut after `kept` bytes (half way when `None`).
    pub(super) fn torn_crash(&mut self, node: NodeId, kept: Option<usize>) -> Result<(), Refused> {
        let index = self.up_server(node)?;
        let held = self.servers[index]
            .held
            .as_ref()
            .filter(|held| !held.persisted() && !held.writes().is_empty());
        let writes = held.ok_or(Refused::NothingPending(node))?.writes().to_vec();
        let (last, whole) = writes.split_last().expect("not empty");
        let mut torn = encode(last);
        let kept = kept.unwrap_or(torn.len() / 2);
        if kept >= torn.len() {
            return Err(Refused::NothingPending(node));
        }
        self.budget_left.spend(Fault::TornWrite)?;
        torn.truncate(kept);
        let _proof_of_a_part_releases_nothing = self.write_to_disk(index, whole);
        let server = Arc::make_mut(&mut self.servers[index]);
        server.disk.push(torn);
        server.last_frame_cut = true;
        self.go_down(index);
        Ok(())
    }

    pub(super) fn restart(&mut self, node: NodeId) -> Result<(), Refused> {
        let index = self.server_index(node)?;
        if self.servers[index].host.is_up() {
            return Err(Refused::NodeUp(node));
        }
        let config = self.config.core_config();
        let disk = &self.servers[index].disk;
        let booted = if self.config.negative_control == Some(NegativeControl::ForgetBallot) {
            forgetting_the_ballot(node, config, disk)?
        } else {
            ColocatedNode::boot(node, config, Provisioning::Provisioned, disk)
        };
        let Booted {
            node: restarted,
            torn,
        } = match booted {
            Ok(booted) => booted,
            Err(_) if self.config.negative_control == Some(NegativeControl::BlankRestart) => {
                return self.restart_blank(index);
            }
            Err(refusal) => return Err(Refused::Boot(refusal)),
        };
        if torn > 0 && !self.servers[index].last_frame_cut {
            self.whole_frame_read_as_torn(node);
        }
        let server = Arc::make_mut(&mut self.servers[index]);
        if torn > 0 {
            server.disk.pop(); // the torn tail was never acknowledged: gone
        }
        server.last_frame_cut = false;
        server.applied_through = restarted.floor(); // a restart applies from its trim point on
        server.host = Host::Up(restarted);
        self.break_rule(index);
        self.drain(index);
        Ok(())
    }

    /// The torn-only-if-cut checker (C1): recovery read the last frame as torn although its
    /// write was whole, so a durable (and perhaps acknowledged) write is dropped silently.
    fn whole_frame_read_as_torn(&mut self, node: NodeId) {
        let detail = format!(
            "{} restarted reading its last frame as a torn write, but that write reached its disk whole",
            self.name(node)
        );
        self.effects
            .push(Effect::Violation(Property::TornOnlyIfCut, detail));
    }

    /// [`NegativeControl::BlankRestart`]: the library's refusal to boot a wiped node ignored,
    /// it comes back blank as if new, its disk cleared.
    fn restart_blank(&mut self, index: usize) -> Result<(), Refused> {
        let node = self.config.node_id(index);
        let config = self.config.core_config();
        let server = Arc::make_mut(&mut self.servers[index]);
        server.disk.clear();
        server.voted_slots.clear();
        server.last_frame_cut = false;
        server.record = DurableRecord::default();
        server.boot_refused = false;
        server.host = Host::Up(ColocatedNode::new(node, config));
        self.drain(index);
        Ok(())
    }

    pub(super) fn server_index(&self, node: NodeId) -> Result<usize, Refused> {
        let number = usize::from(node.get());
        (number <= self.servers.len())
            .then(|| number - 1)
            .ok_or(Refused::NoSuchNode(node))
    }

    pub(super) fn up_server(&self, node: NodeId) -> Result<usize, Refused> {
        let index = self.server_index(node)?;
        if !self.servers[index].host.is_up() {
            return Err(Refused::NodeDown(node));
        }
        Ok(index)
    }

    pub(super) fn idle_server(&self, node: NodeId) -> Result<usize, Refused> {
        let index = self.up_server(node)?;
        if self.servers[index].held.is_some() {
            return Err(Refused::Busy(node));
        }
        Ok(index)
    }
}

/// [`NegativeControl::ForgetBallot`]'s restart: the record read as the disk holds it, but for
/// the ballot the node last stood at. A disk that does not read is refused as the sim refuses
/// any bad disk.
fn forgetting_the_ballot(
    node: NodeId,
    config: LogConfig,
    disk: &[Vec<u8>],
) -> Result<Result<Booted, BootRefused>, Refused> {
    let (mut record, torn) = DurableRecord::recover(disk).map_err(Refused::Disk)?;
    record.stood = None;
    let restarted = ColocatedNode::restart(node, config, &record).map_err(Refused::Disk)?;
    Ok(Ok(Booted {
        node: restarted,
        torn,
    }))
}

//! Liveness once faults stop: the fair schedule ([`LogWorld::settle`]) that heals, restarts,
//! persists, sends and delivers what is due, lets clients ask the leader, and ticks the clock;
//! progress, the property it is judged by ([`Property::Progress`]: every request answered
//! and every live node caught up within [`LogWorld::fair_steps_bound`] steps); and the summary
//! of a world that made none.

use super::{LogAction, LogWorld, ProxyHost};
use crate::check::Property;
use crate::faults::{Budget, Fault};
use crate::model::Settled;
use paros_core::NodeId;
use paros_core::log::{ColocatedNode, Slot};

/// Fair steps a client waits for an answer before it sends its request again.
const FAIR_RESEND_STEPS: u32 = 60;

/// Fair steps a round of the fair schedule takes per member of the world, at most: a tick and
/// what it sets off (a message to and from each member, each delivered, persisted and sent
/// stepwise), or a client's wait of [`FAIR_RESEND_STEPS`] shared among the members. With a
/// bound ten times the old one (200 steps and 200 per operation left), the slowest of the
/// seeds of `run swarm --seeds 100000` that settled needed 632 fair steps, in a world of eight
/// members owing at least the two rounds of an election: under 40 per member and round.
const FAIR_STEPS_PER_MEMBER_ROUND: u64 = 50;

impl LogWorld {
    /// Every fault budget is spent, clocks and client retries become unbounded, and the
    /// progress clock starts: every request must be answered within
    /// [`LogWorld::fair_steps_bound`] steps.
    pub(super) fn stop_faults(&mut self) {
        self.budget_left = Budget::NONE
            .with(Fault::Tick, u32::MAX / 2)
            .with(Fault::ClientResend, u32::MAX / 2);
        self.fair_steps_left = Some(self.fair_steps_bound());
    }

    /// Progress's bound: the fair steps in which, once faults stop, every client must have
    /// its whole program answered and every live node must have caught up
    /// ([`LogWorld::lagging_node`]).
    ///
    /// The fair schedule works in rounds: it ticks one node, then delivers, persists and sends
    /// everything that tick set off, one step per message and per member (a node or a proxy),
    /// and a client waits `FAIR_RESEND_STEPS` before it asks again. So the bound is
    /// `FAIR_STEPS_PER_MEMBER_ROUND` steps per member for each round the run still owes: two
    /// for an election (and a deposed leader's last beat), two per operation left (a request
    /// and its round trips, or a resend after a lost reply), and one per catch-up batch a node
    /// may have to fetch to reach the highest chosen index (at most a window of slots a round,
    /// `catch_up_end`). It grows with the size of the world, as the work does; a run that needs
    /// more is reported, never passed.
    pub fn fair_steps_bound(&self) -> u32 {
        let operations_left: usize = (self.clients.iter().zip(&self.config.clients))
            .map(|(client, program)| program.len() - client.next_op)
            .sum();
        let core = self.config.core_config();
        let per_round = (core.catch_up_batch as u64).min(core.slot_window()).max(1);
        let highest = (self.servers.iter())
            .filter_map(|server| server.host.node())
            .map(|node| node.chosen_index().0)
            .max()
            .unwrap_or(0);
        let rounds = 2 + 2 * operations_left as u64 + highest.div_ceil(per_round);
        let members = u64::from(self.config.node_count) + u64::from(self.config.proxies);
        let bound = FAIR_STEPS_PER_MEMBER_ROUND * members * rounds;
        u32::try_from(bound)
            .unwrap_or(u32::MAX / 2)
            .min(u32::MAX / 2)
    }

    /// One step taken once faults stopped: progress ([`Property::Progress`]) is broken when
    /// the bound runs out with a client still waiting or a live node still behind.
    pub(super) fn spend_fair_step(&mut self) {
        let Some(left) = self.fair_steps_left else {
            return;
        };
        if self.settled() {
            return;
        }
        match left.checked_sub(1) {
            Some(left) => self.fair_steps_left = Some(left),
            None => {
                self.fair_steps_left = None;
                let waiting = match self.lagging_node() {
                    Some((node, chosen, highest)) if self.all_clients_done() => format!(
                        "{} still chosen through {chosen}, behind the highest chosen index {highest}",
                        self.name(node)
                    ),
                    _ => "a request still unanswered".to_string(),
                };
                let detail = format!(
                    "{waiting} when the fair steps' bound ran out: {}",
                    self.summary()
                );
                self.violate(Property::Progress, detail);
            }
        }
    }

    /// Whether the world has made all the progress it owes once faults stop: every client's
    /// program answered and no live node behind ([`LogWorld::lagging_node`]).
    pub fn settled(&self) -> bool {
        self.all_clients_done() && self.lagging_node().is_none()
    }

    /// The catch-up check: the live node with the lowest chosen index, its chosen index and the
    /// highest a live node holds, when it is below that highest. Once faults stop, catch-up
    /// (`Chosen` batches, or a trim point's jump) must bring every live node level, or a node
    /// that missed writes could never serve a read nor lead with what it knows.
    pub fn lagging_node(&self) -> Option<(NodeId, Slot, Slot)> {
        let live = || (self.servers.iter()).filter_map(|server| server.host.node());
        let highest = live().map(ColocatedNode::chosen_index).max()?;
        let lowest = live().min_by_key(|node| node.chosen_index())?;
        (lowest.chosen_index() < highest).then(|| (lowest.id(), lowest.chosen_index(), highest))
    }

    /// Liveness once faults stop: from this state, stop faults ([`LogAction::StopFaults`]) and
    /// follow a fair schedule for at most `steps_max` actions: heal, restart, persist and send
    /// whenever they are due; else deliver the oldest message; else let a client with work ask
    /// the leader (a client waits `FAIR_RESEND_STEPS` before it asks again, and its retry waits
    /// for a tick of the clock since it last asked: `LogWorld::clock_before_retry`); else
    /// tick the leader, or with none the lowest live node. Every kind of step gets its turn:
    /// the network drains in finite time, a retry comes at most once per wait, and the clock
    /// ticks at least once between two retries of a client. `Err` when the world refuses one
    /// of these actions: a hole in the model, not a run that failed to settle.
    pub fn settle(&self, steps_max: u32) -> Result<Settled<LogAction>, String> {
        let mut world = self.clone();
        let mut actions = vec![LogAction::StopFaults];
        world
            .apply(&LogAction::StopFaults)
            .map_err(|refused| refused.to_string())?;
        let mut clock = FairClock {
            last_sent: vec![None; world.clients.len()],
            last_tick: None,
        };
        let mut step = 0;
        while step < steps_max
            && !world.settled()
            && world.knowledge.violations.is_empty()
            && world.knowledge.gave_up.is_none()
        {
            let Some(action) = world.fair_action(step, &mut clock) else {
                break;
            };
            if let LogAction::Tick(_) = action {
                clock.last_tick = Some(step);
            }
            world
                .apply(&action)
                .map_err(|refused| format!("`{}`: {refused}", world.describe(&action)))?;
            actions.push(action);
            step += 1;
        }
        let decided = world.settled();
        let broken = !world.knowledge.violations.is_empty() || world.knowledge.gave_up.is_some();
        let stuck = (!decided && !broken).then(|| world.summary());
        Ok(Settled {
            actions,
            decided,
            violations: world.knowledge.violations.clone(),
            gave_up: world.knowledge.gave_up.clone(),
            stuck,
        })
    }

    /// The next action of the fair, fault-free schedule of [`LogWorld::settle`].
    fn fair_action(&self, step: u32, clock: &mut FairClock) -> Option<LogAction> {
        if !self.network.isolated().is_empty() {
            return Some(LogAction::Heal);
        }
        for (index, server) in self.servers.iter().enumerate() {
            let node = self.config.node_id(index);
            match &server.held {
                // A node the library refuses to boot stays down: the others decide without it.
                _ if !server.host.is_up() && self.may_restart(index) => {
                    return Some(LogAction::Restart(node));
                }
                _ if !server.host.is_up() => {}
                Some(held) if !held.persisted() => return Some(LogAction::Persist(node)),
                Some(_) => return Some(LogAction::Send(node)),
                None => {}
            }
        }
        if let Some(proxy) = self.proxy_to_restart() {
            return Some(LogAction::Restart(proxy));
        }
        if let Some(message) = self.network.in_flight().first() {
            return Some(LogAction::Deliver(message.id));
        }
        self.fair_request(step, clock).or_else(|| self.fair_tick())
    }

    /// The crashed proxy the fair schedule restarts: the first one, and only when every proxy
    /// is down. A crashed proxy is no worse than the messages it lost (P5), so the others must
    /// carry the leader's Accepts without it; with none up, nothing could.
    fn proxy_to_restart(&self) -> Option<NodeId> {
        if self.proxies().iter().any(ProxyHost::is_up) {
            return None;
        }
        (!self.proxies().is_empty()).then(|| self.config.proxy_id(0))
    }

    /// The leader: the live node leading at the highest ballot.
    fn leader(&self) -> Option<NodeId> {
        self.servers
            .iter()
            .filter_map(|server| server.host.node())
            .filter(|node| node.role() == paros_core::log::LogRole::Leader)
            .max_by_key(|node| node.ballot())
            .map(ColocatedNode::id)
    }

    fn fair_request(&self, step: u32, clock: &mut FairClock) -> Option<LogAction> {
        let leader = self.leader()?;
        for (index, client) in self.clients.iter().enumerate() {
            let last_sent = clock.last_sent[index];
            let waited_enough = last_sent.is_none_or(|sent| step >= sent + FAIR_RESEND_STEPS);
            let due = match client.outstanding {
                None => client.next_op < self.config.clients[index].len(),
                Some(_) => client.redirected || waited_enough,
            };
            let timed_out = client.outstanding.is_some() && !client.redirected;
            if due && timed_out && Self::clock_before_retry(last_sent, clock.last_tick) {
                return self.fair_tick();
            }
            if due {
                clock.last_sent[index] = Some(step);
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

    /// Fairness to the clock: whether a client that waited out its resend time, having last
    /// asked at fair step `last_sent` (`None`: before faults stopped), must let the clock tick
    /// before it asks again, given the fair step of the clock's last tick. It must unless the
    /// clock ticked since it last asked.
    ///
    /// A client's wait is time passing, and the servers' clocks pass with it. Without this, a
    /// retry that costs the cluster more steps than `FAIR_RESEND_STEPS` shared among the
    /// clients keeps a client due whenever the network drains, the clock never gets its turn,
    /// and a leader whose only way to fill a hole is its beat (the Accept sent again) never
    /// beats: the log swarm's seed 2843, where each retry of a request chosen above a hole is
    /// proposed again in a new slot (`act3/chosen-is-not-applied`), 21 steps for each of three
    /// clients, and the leader never ticked in 5,100 fair steps.
    fn clock_before_retry(last_sent: Option<u32>, last_tick: Option<u32>) -> bool {
        match (last_sent, last_tick) {
            (_, None) => true,
            (None, Some(_)) => false,
            (Some(sent), Some(tick)) => tick < sent,
        }
    }

    fn fair_tick(&self) -> Option<LogAction> {
        let ticking = self.leader().or_else(|| {
            let live = self.servers.iter().position(|server| server.host.is_up())?;
            Some(self.config.node_id(live))
        })?;
        Some(LogAction::Tick(ticking))
    }

    /// The state in a few lines, for a liveness counterexample: each node's role, ballot,
    /// chosen and applied index and pending reads, what each proxy leader counts, each client's outstanding operation, and
    /// the messages in flight.
    pub fn summary(&self) -> String {
        let mut lines = Vec::new();
        for server in &self.servers {
            let Some(node) = server.host.node() else {
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
        for (index, proxy) in self.proxies().iter().enumerate() {
            lines.push(self.proxy_summary(index, proxy.proxy()));
        }
        for (index, client) in self.clients.iter().enumerate() {
            if let Some(outstanding) = client.outstanding {
                lines.push(format!(
                    "{} waits on {}",
                    self.name(self.config.client_id(index)),
                    self.knowledge.history[outstanding].op
                ));
            }
        }
        lines.push(format!(
            "{} messages in flight",
            self.network.in_flight().len()
        ));
        lines.join("; ")
    }
}

/// What the fair schedule of [`LogWorld::settle`] remembers of its own steps.
struct FairClock {
    /// The fair step at which each client last asked, if it did.
    last_sent: Vec<Option<u32>>,
    /// The fair step of the clock's last tick, if it ticked.
    last_tick: Option<u32>,
}

impl LogWorld {
    /// A proxy leader in one line: down, or the acceptors it counted at each (slot, ballot).
    fn proxy_summary(&self, index: usize, proxy: Option<&paros_core::log::ProxyLeader>) -> String {
        let name = self.name(self.config.proxy_id(index));
        let Some(proxy) = proxy else {
            return format!("{name}: down");
        };
        let counts: Vec<String> = proxy
            .counted()
            .map(|(slot, ballot, voters)| {
                let voters: Vec<String> = voters.iter().map(|voter| self.name(voter)).collect();
                format!(
                    "slot {slot} at {}.{} from {{{}}}",
                    ballot.round,
                    self.name(ballot.node),
                    voters.join(", ")
                )
            })
            .collect();
        match counts.is_empty() {
            true => format!("{name}: up, counting nothing"),
            false => format!("{name}: up, counting {}", counts.join(", ")),
        }
    }
}

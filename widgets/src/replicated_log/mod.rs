//! Act II's board: paros-sim's replicated-log [`LogWorld`], driven by the player.
//!
//! As in Act I, everything reaches the protocol through the World, which steps real
//! `ColocatedNode`s; the role prompts (the apply walk, the recovery of each slot, serving a read)
//! ask the World, on a clone, what the real node does. The one move this board adds is `beat`,
//! the heartbeat-delivery automation: a leader's tick with its heartbeats, the acks and the
//! catch-up they cause delivered in send order, each a real delivery.

pub mod grid;
pub mod history;
mod moves;
pub mod prompts;
pub mod stage;

use crate::automation::Automation;
use crate::board::{Board, ByHand};
use crate::error::PlayError;
use crate::prompt::Prompt;
use crate::scene::{ActionJson, ChosenView, ClusterView, ControlView, MessageView, NodeView};
pub use moves::{LogMove, ProxyCount, ballot_name, proxy_counts};
use paros_core::log::{LogMessage, LogRole, Slot};
use paros_core::{Ballot, NodeId};
use paros_sim::MessageId;
use paros_sim::replicated_log::{LogAction, LogWorld};

/// The most deliveries one beat makes: a heartbeat and an ack per follower, and catch-up.
const BEAT_DELIVERIES_MAX: usize = 64;

/// The facts Act II's level questions compare across a step, one entry per node.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LogSummary {
    /// Per node: whether it is up.
    pub up: Vec<bool>,
    /// Per node: its held `Ready`, as (persisted, sent), in a stepwise world.
    pub held: Vec<Option<(bool, bool)>>,
    /// Per node: its chosen index.
    pub chosen_index: Vec<Slot>,
    /// Per node: its role, if up.
    pub role: Vec<Option<LogRole>>,
    /// Per node: how many slots it has proposed and not yet seen chosen.
    pub proposals: Vec<usize>,
    /// The clients' clock: how many calls and answers the history holds.
    pub events: u64,
    /// The id the next message sent will get: a message with an id at or above it after a
    /// step was sent by that step.
    pub next_message: MessageId,
    /// The Handoffs on the wire: a question asked once one is delivered reads what it carried.
    pub handoffs: Vec<HandoffOnWire>,
    /// Per proxy leader: what it counts, by (slot, ballot), or `None` while it is down.
    pub proxy_counts: Vec<Option<Vec<ProxyCount>>>,
}

/// A Handoff message on the wire, as a step's summary keeps it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct HandoffOnWire {
    /// The message's id.
    pub id: MessageId,
    /// The ballot handed off.
    pub ballot: Ballot,
    /// The first slot the successor may propose a new entry in.
    pub next_slot: Slot,
    /// The slots in flight, which the successor sends again identical.
    pub in_flight: Vec<Slot>,
}

/// The Handoffs on `world`'s wire.
fn handoffs_on_wire(world: &LogWorld) -> Vec<HandoffOnWire> {
    (world.in_flight().iter())
        .filter_map(|message| match &message.envelope.message {
            LogMessage::Handoff {
                ballot,
                next_slot,
                in_flight,
                ..
            } => Some(HandoffOnWire {
                id: message.id,
                ballot: *ballot,
                next_slot: *next_slot,
                in_flight: in_flight.iter().map(|(slot, _)| *slot).collect(),
            }),
            _ => None,
        })
        .collect()
}

/// The node or client with this name, if any.
pub fn node_by_name(world: &LogWorld, name: &str) -> Option<NodeId> {
    let config = world.config();
    let servers = (0..usize::from(config.node_count)).map(|index| config.node_id(index));
    let clients = (0..config.clients.len()).map(|index| config.client_id(index));
    servers
        .chain(clients)
        .find(|node| world.name(*node) == name)
}

fn server_index(world: &LogWorld, node: NodeId) -> Option<usize> {
    let index = usize::from(node.get()).checked_sub(1)?;
    (index < world.servers().len()).then_some(index)
}

fn is_heartbeat_traffic(message: &LogMessage) -> bool {
    matches!(
        message,
        LogMessage::Heartbeat { .. } | LogMessage::HeartbeatAck { .. } | LogMessage::Chosen { .. }
    )
}

/// A beat: tick the leader, then deliver the heartbeat traffic sent from then on. Returns the
/// world actions it applied, in order.
fn beat(world: &mut LogWorld, node: NodeId) -> Result<Vec<LogAction>, PlayError> {
    let is_leader = server_index(world, node)
        .and_then(|index| world.servers()[index].host.node())
        .is_some_and(|running| running.role() == LogRole::Leader);
    if !is_leader || world.config().stepwise_ready {
        return Err(PlayError::NotEnabled(format!(
            "{} is not a leader that can beat",
            world.name(node)
        )));
    }
    let before: Vec<MessageId> = world.in_flight().iter().map(|message| message.id).collect();
    let mut applied = vec![LogAction::Tick(node)];
    world
        .apply(&LogAction::Tick(node))
        .map_err(PlayError::Refused)?;
    for _ in 0..BEAT_DELIVERIES_MAX {
        let enabled = world.enabled();
        let next = world.in_flight().iter().find(|message| {
            !before.contains(&message.id)
                && is_heartbeat_traffic(&message.envelope.message)
                && enabled.contains(&LogAction::Deliver(message.id))
        });
        let Some(next) = next else {
            return Ok(applied);
        };
        let id = next.id;
        world
            .apply(&LogAction::Deliver(id))
            .map_err(PlayError::Refused)?;
        applied.push(LogAction::Deliver(id));
    }
    Ok(applied)
}

impl Board for LogWorld {
    type Move = LogMove;
    type Summary = LogSummary;

    /// Acceptor replies are never asked here: Act II's nodes answer Prepare and Accept by
    /// themselves, so the toggle earned in Act I would switch nothing.
    const AUTOMATION: &'static [Automation] = &[
        Automation::P2c,
        Automation::ApplyWalk,
        Automation::Heartbeats,
    ];
    const MODULE: &'static str = "log";

    fn play(&mut self, action: &LogMove) -> Result<(), PlayError> {
        match action {
            LogMove::World(action) => LogWorld::apply(self, action).map_err(PlayError::Refused),
            LogMove::Beat(node) => {
                // A refused beat must leave the world unchanged: work on a copy.
                let mut next = self.clone();
                beat(&mut next, *node)?;
                *self = next;
                Ok(())
            }
        }
    }

    fn world_actions(&mut self, action: &LogMove) -> Result<Vec<LogAction>, PlayError> {
        match action {
            LogMove::World(action) => {
                LogWorld::apply(self, action).map_err(PlayError::Refused)?;
                Ok(vec![*action])
            }
            LogMove::Beat(node) => {
                let mut next = self.clone();
                let applied = beat(&mut next, *node)?;
                *self = next;
                Ok(applied)
            }
        }
    }

    /// Every enabled world action, and a beat for each leader that may tick.
    fn moves(&self) -> Vec<LogMove> {
        let enabled = self.enabled();
        let beats: Vec<LogMove> = enabled
            .iter()
            .filter_map(|action| match action {
                LogAction::Tick(node) if !self.config().stepwise_ready => {
                    let index = server_index(self, *node)?;
                    let running = self.servers()[index].host.node()?;
                    (running.role() == LogRole::Leader).then_some(LogMove::Beat(*node))
                }
                _ => None,
            })
            .collect();
        enabled
            .into_iter()
            .map(LogMove::World)
            .chain(beats)
            .collect()
    }

    fn refusal(&self, action: &LogMove) -> PlayError {
        let mut clone = self.clone();
        match clone.play(action) {
            Err(error) => error,
            Ok(()) => {
                PlayError::NotEnabled(format!("{} is not enabled", self.describe_move(action)))
            }
        }
    }

    fn describe_move(&self, action: &LogMove) -> String {
        match action {
            LogMove::World(action) => self.describe(action),
            LogMove::Beat(node) => format!("beat {}", self.name(*node)),
        }
    }

    fn summary(&self) -> LogSummary {
        let servers = self.servers();
        LogSummary {
            up: servers.iter().map(|server| server.host.is_up()).collect(),
            held: servers
                .iter()
                .map(|server| {
                    server
                        .held
                        .as_ref()
                        .map(|held| (held.persisted(), held.sent()))
                })
                .collect(),
            chosen_index: servers
                .iter()
                .map(|server| {
                    server
                        .host
                        .node()
                        .map_or(Slot(0), |node| node.chosen_index())
                })
                .collect(),
            role: servers
                .iter()
                .map(|server| server.host.node().map(|node| node.role()))
                .collect(),
            proposals: servers
                .iter()
                .map(|server| server.host.node().map_or(0, |node| node.proposals().len()))
                .collect(),
            events: history::now(self),
            next_message: self.network().next_id(),
            handoffs: handoffs_on_wire(self),
            proxy_counts: proxy_counts(self),
        }
    }

    /// A world action as [`LogWorld::parse_action`] reads it (`deliver N1->N2 Accept(1.N1,
    /// slot 2`, `tick N1`, `request C1 N1`, ...), or `beat N1`.
    fn parse_move(&self, text: &str) -> Result<LogMove, String> {
        match text.trim().strip_prefix("beat ") {
            Some(name) => node_by_name(self, name.trim())
                .map(LogMove::Beat)
                .ok_or_else(|| format!("no node named {name:?}")),
            None => self.parse_action(text).map(LogMove::World),
        }
    }

    fn parse_json(&self, action: ActionJson) -> Result<LogMove, PlayError> {
        let node = |name: &str| {
            node_by_name(self, name)
                .filter(|node| server_index(self, *node).is_some())
                .ok_or_else(|| PlayError::BadInput(format!("no node named {name:?}")))
        };
        // A proxy leader crashes and restarts like a node, and does nothing else by hand.
        let node_or_proxy = |name: &str| {
            (0..self.proxies().len())
                .map(|index| self.config().proxy_id(index))
                .find(|proxy| self.name(*proxy) == name)
                .map_or_else(|| node(name), Ok)
        };
        let world = |action: LogAction| Ok(LogMove::World(action));
        match action {
            ActionJson::Deliver { message } => world(LogAction::Deliver(MessageId(message))),
            ActionJson::Drop { message } => world(LogAction::Drop(MessageId(message))),
            ActionJson::Duplicate { message } => world(LogAction::Duplicate(MessageId(message))),
            ActionJson::Tick { node: name } => world(LogAction::Tick(node(&name)?)),
            ActionJson::Crash { node: name } => world(LogAction::Crash(node_or_proxy(&name)?)),
            ActionJson::TornCrash { node: name } => world(LogAction::TornCrash(node(&name)?)),
            ActionJson::Restart { node: name } => world(LogAction::Restart(node_or_proxy(&name)?)),
            ActionJson::Wipe { node: name } => world(LogAction::WipeDisk(node(&name)?)),
            ActionJson::Corrupt { node: name, record } => {
                // The record is read by the world's own words for it (`corrupt N2 vote 1`).
                let text = format!("corrupt {} {record}", self.name(node(&name)?));
                match self.parse_action(&text) {
                    Ok(action @ LogAction::CorruptRecord { .. }) => world(action),
                    _ => Err(PlayError::BadInput(format!(
                        "no record {record:?}: corrupt a `promise` or a `vote SLOT`"
                    ))),
                }
            }
            ActionJson::Persist { node: name } => world(LogAction::Persist(node(&name)?)),
            ActionJson::Send { node: name } => world(LogAction::Send(node(&name)?)),
            ActionJson::Partition { node: name } => world(LogAction::Partition(node(&name)?)),
            ActionJson::Heal => world(LogAction::Heal),
            ActionJson::Trim { node: name } => world(LogAction::Trim(node(&name)?)),
            ActionJson::HandOff { node: from, to } => world(LogAction::HandOff {
                from: node(&from)?,
                to: node(&to)?,
            }),
            ActionJson::Request { client, node: name } => {
                let client = node_by_name(self, &client)
                    .filter(|id| server_index(self, *id).is_none())
                    .ok_or_else(|| PlayError::BadInput(format!("no client named {client:?}")))?;
                world(LogAction::Request {
                    client,
                    node: node(&name)?,
                })
            }
            ActionJson::Beat { node: name } => Ok(LogMove::Beat(node(&name)?)),
            other @ (ActionJson::Start { .. }
            | ActionJson::Retry { .. }
            | ActionJson::Collect { .. }
            | ActionJson::Retire { .. }
            | ActionJson::Replace { .. }
            | ActionJson::NextStage) => Err(PlayError::BadInput(format!(
                // As the browser sent it: the JSON, not a Debug impl linked for one message.
                "{} is not an action of the replicated log",
                serde_json::to_string(&other).unwrap_or_default()
            ))),
        }
    }

    fn prompt(&self, action: &LogMove, by_hand: &ByHand) -> Option<Prompt> {
        prompts::for_move(self, action, by_hand)
    }

    fn receiver(&self, action: &LogMove) -> Option<String> {
        let LogMove::World(LogAction::Deliver(id)) = action else {
            return None;
        };
        self.in_flight()
            .iter()
            .find(|message| message.id == *id)
            .map(|message| self.name(message.envelope.to))
    }

    fn ignored(_step: &()) -> Option<String> {
        None
    }

    fn nodes(&self, by_hand: &ByHand) -> Vec<NodeView> {
        stage::nodes(self, by_hand)
    }

    fn messages(&self, moves: &[LogMove]) -> Vec<MessageView> {
        stage::messages(self, moves)
    }

    fn controls(&self, moves: &[LogMove]) -> Vec<ControlView> {
        stage::controls(self, moves)
    }

    fn chosen(&self) -> Option<ChosenView> {
        None
    }

    fn requires(&self, action: &LogMove) -> Option<Automation> {
        matches!(action, LogMove::Beat(_)).then_some(Automation::Heartbeats)
    }

    fn cluster(&self) -> Option<ClusterView> {
        Some(stage::cluster(self))
    }
}

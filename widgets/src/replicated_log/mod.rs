//! Act II's board: paros-sim's replicated-log [`LogWorld`], driven by the player.
//!
//! As in Act I, everything reaches the protocol through the World, which steps real
//! `ColocatedNode`s; the role prompts (the apply walk, the recovery of each slot, serving a read)
//! ask the World, on a clone, what the real node does. The one move this board adds is `beat`,
//! the heartbeat-delivery automation: a leader's tick with its heartbeats, the acks and the
//! catch-up they cause delivered in send order, each a real delivery.

pub mod prompts;
pub mod stage;

use crate::automation::Automation;
use crate::board::{Board, ByHand};
use crate::error::PlayError;
use crate::prompt::Prompt;
use crate::scene::{ActionJson, ChosenView, ClusterView, ControlView, MessageView, NodeView};
use paros_core::log::{LogMessage, LogRole, Slot};
use paros_core::{Ballot, NodeId};
use paros_sim::MessageId;
use paros_sim::replicated_log::{LogAction, LogWorld, LogWorldConfig};
use std::fmt;

/// One thing the player can make happen in a log world.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum LogMove {
    /// A world action, as the World names it.
    World(LogAction),
    /// Heartbeat delivery: the leader ticks, then every Heartbeat, HeartbeatAck and Chosen that
    /// this beat causes is delivered, oldest first.
    Beat(NodeId),
}

impl fmt::Display for LogMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LogMove::World(action) => action.fmt(f),
            LogMove::Beat(node) => write!(f, "beat {node}"),
        }
    }
}

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
}

/// A ballot as players read it: `2.N3`.
pub fn ballot_name(world: &LogWorld, ballot: Ballot) -> String {
    format!("{}.{}", ballot.round, world.name(ballot.node))
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

/// A beat: tick the leader, then deliver the heartbeat traffic sent from then on.
fn beat(world: &mut LogWorld, node: NodeId) -> Result<(), PlayError> {
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
    world
        .apply(&LogAction::Tick(node))
        .map_err(PlayError::LogRefused)?;
    for _ in 0..BEAT_DELIVERIES_MAX {
        let enabled = world.enabled();
        let next = world.in_flight().iter().find(|message| {
            !before.contains(&message.id)
                && is_heartbeat_traffic(&message.envelope.message)
                && enabled.contains(&LogAction::Deliver(message.id))
        });
        let Some(next) = next else {
            return Ok(());
        };
        let id = next.id;
        world
            .apply(&LogAction::Deliver(id))
            .map_err(PlayError::LogRefused)?;
    }
    Ok(())
}

impl Board for LogWorld {
    type Config = LogWorldConfig;
    type Action = LogMove;
    type Step = ();
    type Summary = LogSummary;

    /// Acceptor replies are never asked here: Act II's nodes answer Prepare and Accept by
    /// themselves, so the toggle earned in Act I would switch nothing.
    const AUTOMATION: &'static [Automation] = &[
        Automation::P2c,
        Automation::ApplyWalk,
        Automation::Heartbeats,
    ];

    fn build(config: LogWorldConfig) -> Result<LogWorld, PlayError> {
        LogWorld::new(config).map_err(PlayError::LogRefused)
    }

    fn apply(&mut self, action: &LogMove) -> Result<(), PlayError> {
        match action {
            LogMove::World(action) => LogWorld::apply(self, action).map_err(PlayError::LogRefused),
            LogMove::Beat(node) => {
                // A refused beat must leave the world unchanged: work on a copy.
                let mut next = self.clone();
                beat(&mut next, *node)?;
                *self = next;
                Ok(())
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
        match Board::apply(&mut clone, action) {
            Err(error) => error,
            Ok(()) => {
                PlayError::NotEnabled(format!("{} is not enabled", describe_move(self, action)))
            }
        }
    }

    fn describe(&self, action: &LogMove) -> String {
        describe_move(self, action)
    }

    fn fingerprint(&self) -> u64 {
        LogWorld::fingerprint(self)
    }

    fn summary(&self) -> LogSummary {
        let servers = self.servers();
        LogSummary {
            up: servers.iter().map(|server| server.host.is_up()).collect(),
            held: servers
                .iter()
                .map(|server| server.held.as_ref().map(|held| (held.persisted, held.sent)))
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
        }
    }

    fn parse_step(&self, text: &str) -> Result<LogMove, String> {
        parse_step(self, text)
    }

    fn parse_json(&self, action: ActionJson) -> Result<LogMove, PlayError> {
        let node = |name: &str| {
            node_by_name(self, name)
                .filter(|node| server_index(self, *node).is_some())
                .ok_or_else(|| PlayError::BadInput(format!("no node named {name:?}")))
        };
        let world = |action: LogAction| Ok(LogMove::World(action));
        match action {
            ActionJson::Deliver { message } => world(LogAction::Deliver(MessageId(message))),
            ActionJson::Drop { message } => world(LogAction::Drop(MessageId(message))),
            ActionJson::Duplicate { message } => world(LogAction::Duplicate(MessageId(message))),
            ActionJson::Tick { node: name } => world(LogAction::Tick(node(&name)?)),
            ActionJson::Crash { node: name } => world(LogAction::Crash(node(&name)?)),
            ActionJson::TornCrash { node: name } => world(LogAction::TornCrash(node(&name)?)),
            ActionJson::Restart { node: name } => world(LogAction::Restart(node(&name)?)),
            ActionJson::Persist { node: name } => world(LogAction::Persist(node(&name)?)),
            ActionJson::Send { node: name } => world(LogAction::Send(node(&name)?)),
            ActionJson::Partition { node: name } => world(LogAction::Partition(node(&name)?)),
            ActionJson::Heal => world(LogAction::Heal),
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
            | ActionJson::NextStage) => Err(PlayError::BadInput(format!(
                "{other:?} is not an action of the replicated log"
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

/// How a move reads, against this world: `deliver m4 N1->N2 Accept(...)`, `beat N1`.
fn describe_move(world: &LogWorld, action: &LogMove) -> String {
    match action {
        LogMove::World(action) => world.describe(action),
        LogMove::Beat(node) => format!("beat {}", world.name(*node)),
    }
}

/// Parses one step of the script language in a log world: `deliver N1->N2 Accept`,
/// `deliver N1->N2 Accept(1.N1, slot 2` (a prefix of how the message reads), `deliver m7`,
/// `drop ...`, `duplicate ...`, `tick N1`, `crash N2`, `torn-crash N2`, `restart N2`,
/// `persist N2`, `send N2`, `partition N3`, `heal`, `request C1 N1`, `beat N1`.
pub fn parse_step(world: &LogWorld, text: &str) -> Result<LogMove, String> {
    let mut words = text.trim().splitn(3, ' ');
    let verb = words.next().unwrap_or_default();
    let target = words.next().unwrap_or_default();
    let rest = words.next().unwrap_or_default().trim();
    let node = |name: &str| {
        node_by_name(world, name).ok_or_else(|| format!("no node or client named {name:?}"))
    };
    let action = match verb {
        "deliver" | "drop" | "duplicate" => {
            let id = message_id(world, target, rest)?;
            match verb {
                "deliver" => LogAction::Deliver(id),
                "drop" => LogAction::Drop(id),
                _ => LogAction::Duplicate(id),
            }
        }
        "tick" => LogAction::Tick(node(target)?),
        "crash" => LogAction::Crash(node(target)?),
        "torn-crash" => LogAction::TornCrash(node(target)?),
        "restart" => LogAction::Restart(node(target)?),
        "persist" => LogAction::Persist(node(target)?),
        "send" => LogAction::Send(node(target)?),
        "partition" => LogAction::Partition(node(target)?),
        "heal" => LogAction::Heal,
        "request" => LogAction::Request {
            client: node(target)?,
            node: node(rest)?,
        },
        "beat" => return Ok(LogMove::Beat(node(target)?)),
        _ => return Err(format!("unknown step {text:?}")),
    };
    Ok(LogMove::World(action))
}

/// A message by id (`m7`) or by route and kind (`N1->N2 Accept`), or by route and a prefix of
/// how it reads (`N1->N2 Accept(1.N1, slot 2`): the first in send order that matches.
fn message_id(world: &LogWorld, target: &str, pattern: &str) -> Result<MessageId, String> {
    if let Some(number) = target.strip_prefix('m') {
        return number
            .parse()
            .map(MessageId)
            .map_err(|_| format!("bad message id {target:?}"));
    }
    let (from, to) = target
        .split_once("->")
        .ok_or_else(|| format!("expected m<id> or FROM->TO, got {target:?}"))?;
    world
        .in_flight()
        .iter()
        .find(|message| {
            let envelope = &message.envelope;
            let matches_pattern = if pattern.is_empty() {
                true
            } else if pattern.contains('(') {
                world.message_name(&envelope.message).starts_with(pattern)
            } else {
                envelope.message.kind() == pattern
            };
            world.name(envelope.from) == from && world.name(envelope.to) == to && matches_pattern
        })
        .map(|message| message.id)
        .ok_or_else(|| format!("no message {from}->{to} {pattern} is in flight"))
}

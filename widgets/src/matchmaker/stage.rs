//! How the Matchmaker Paxos world is drawn: the matchmaker plane (each matchmaker's stored
//! rounds and configurations, its watermark, whether it is stopped), the configurations as
//! groups of acceptors with the removed ones marked, the leaders with their round,
//! configuration and history, and the messages on the wires.

use super::{name, names, round_name};
use crate::board::message_verbs;
use crate::scene::{
    ActionJson, ConfigurationView, ControlView, MatchmakerView, MatchmakingView, MessageView,
    MmLeaderView, NodeView, StoredView, VoteView,
};
use paros_core::matchmaker::{Configuration, History, MmMessage, Stage};
use paros_core::{Ballot, Message, NodeSet};
use paros_sim::matchmaker::{MatchmakerWorld, MmAction, message_name};

/// The distinct configurations of the world's rounds, each with the rounds that run in it,
/// lowest round first: `C1` is the configuration of the lowest round.
pub fn configurations(world: &MatchmakerWorld) -> Vec<(Configuration, Vec<Ballot>)> {
    let mut distinct: Vec<(Configuration, Vec<Ballot>)> = Vec::new();
    for (round, config) in world.configurations() {
        match distinct.iter_mut().find(|(known, _)| *known == config) {
            Some((_, rounds)) => rounds.push(round),
            None => distinct.push((config, vec![round])),
        }
    }
    distinct
}

/// A configuration's name on the stage, `C2`: its place among [`configurations`], from 1.
pub fn config_name(world: &MatchmakerWorld, config: &Configuration) -> String {
    let place = (configurations(world).iter()).position(|(known, _)| known == config);
    place.map_or_else(
        || super::set_name(config.acceptors()),
        |index| format!("C{}", index + 1),
    )
}

/// The newest round a leader has started, and its configuration's acceptors: the ones every
/// configuration of a lower round keeps or removes.
fn newest_started(world: &MatchmakerWorld) -> Option<(Ballot, NodeSet)> {
    (world.leaders().iter())
        .filter(|leader| leader.stage() != Stage::Idle)
        .max_by_key(|leader| leader.round())
        .map(|leader| (leader.round(), leader.config().acceptors()))
}

fn stored(world: &MatchmakerWorld, history: &History) -> Vec<StoredView> {
    (history.iter())
        .map(|(round, config)| StoredView {
            round: round_name(*round),
            config: config_name(world, config),
        })
        .collect()
}

fn stage_word(stage: Stage) -> &'static str {
    match stage {
        Stage::Idle => "idle",
        Stage::Matching => "matching",
        Stage::Phase1 => "phase1",
        Stage::Phase2 => "phase2",
        Stage::Chosen => "chosen",
    }
}

/// The acceptors with their promise and vote, then the leaders with their round and stage.
pub fn nodes(world: &MatchmakerWorld) -> Vec<NodeView> {
    let acceptors = world.acceptors().iter().map(|acceptor| {
        let inner = acceptor.acceptor();
        NodeView {
            name: name(acceptor.id()),
            role: match acceptor.retired() {
                Some(_) => "retired",
                None => "acceptor",
            },
            promised: Some(inner.promised().map(round_name)),
            accepted: Some(inner.accepted().map(|vote| VoteView {
                ballot: round_name(vote.ballot),
                value: vote.value.to_string(),
            })),
            ..NodeView::default()
        }
    });
    let leaders = world.leaders().iter().map(|leader| NodeView {
        name: name(leader.id()),
        role: "leader",
        up: Some(!world.down().contains(leader.id())),
        value: Some(
            world.config().leaders[leader_index(world, leader.id())]
                .value
                .to_string(),
        ),
        phase: Some(stage_word(leader.stage())),
        ballot: Some(Some(round_name(leader.round()))),
        proposal: Some(leader.proposal().map(ToString::to_string)),
        promised_by: Some(names(leader.promised_by())),
        accepted_by: Some(names(leader.accepted_by())),
        ..NodeView::default()
    });
    acceptors.chain(leaders).collect()
}

/// Leader `node`'s place in the world's list of leaders.
fn leader_index(world: &MatchmakerWorld, node: paros_core::NodeId) -> usize {
    (world.leaders().iter())
        .position(|leader| leader.id() == node)
        .expect("a leader of the world")
}

/// The matchmaker plane, the configurations and the leaders.
pub fn matchmaking(world: &MatchmakerWorld) -> MatchmakingView {
    let down = world.down();
    let matchmakers = (world.matchmakers().iter())
        .map(|matchmaker| MatchmakerView {
            name: name(matchmaker.id()),
            up: !down.contains(matchmaker.id()),
            stopped: matchmaker.stopped(),
            watermark: matchmaker.watermark().map(round_name),
            stored: stored(world, matchmaker.configurations()),
        })
        .collect();
    let kept = newest_started(world);
    let retired = world.retired();
    let highest_watermark = world.highest_watermark();
    let configurations = (configurations(world).into_iter())
        .map(|(config, rounds)| {
            let members = config.acceptors();
            // Only a configuration of a lower round loses members: a planned higher one is
            // still to come.
            let removed: NodeSet = match kept {
                Some((newest, kept)) if rounds.iter().any(|round| *round < newest) => members
                    .iter()
                    .filter(|node| !kept.contains(*node))
                    .collect(),
                _ => NodeSet::EMPTY,
            };
            let stored_anywhere = (world.matchmakers().iter()).any(|matchmaker| {
                (rounds.iter()).any(|round| matchmaker.configurations().contains_key(round))
            });
            let below = (rounds.iter()).all(|round| Some(*round) < highest_watermark);
            ConfigurationView {
                name: config_name(world, &config),
                rounds: rounds.iter().map(|round| round_name(*round)).collect(),
                members: names(members),
                removed: names(removed),
                retired: names(removed.intersection(retired)),
                collected: below && !stored_anywhere,
            }
        })
        .collect();
    let leaders = (world.leaders().iter())
        .map(|leader| MmLeaderView {
            name: name(leader.id()),
            up: !down.contains(leader.id()),
            round: round_name(leader.round()),
            config: config_name(world, leader.config()),
            stage: stage_word(leader.stage()),
            history: stored(world, leader.history()),
            promised_by: names(leader.promised_by()),
            accepted_by: names(leader.accepted_by()),
            proposal: leader.proposal().map(ToString::to_string),
            value: world.config().leaders[leader_index(world, leader.id())]
                .value
                .to_string(),
            gc_proof: leader.gc_proof().map(|proof| round_name(proof.watermark())),
        })
        .collect();
    MatchmakingView {
        matchmakers,
        configurations,
        leaders,
    }
}

/// The stage's kind of a message: `match-a`, `promise`, `retire`, ...; the successor decree's
/// messages are drawn as the single-decree messages they are.
fn kind(message: &MmMessage) -> &'static str {
    let paxos = |message: &Message| match message {
        Message::Prepare { .. } => "prepare",
        Message::Promise { .. } => "promise",
        Message::Accept { .. } => "accept",
        Message::Accepted { .. } => "accepted",
        Message::Nack { .. } => "nack",
    };
    match message {
        MmMessage::MatchA { .. } => "match-a",
        MmMessage::MatchB { .. } => "match-b",
        MmMessage::GarbageA { .. } => "garbage-a",
        MmMessage::GarbageB { .. } => "garbage-b",
        MmMessage::Paxos(message) | MmMessage::Successor(message) => paxos(message),
        MmMessage::Retire { .. } => "retire",
        MmMessage::Stop => "stop",
        MmMessage::StopB { .. } => "stop-b",
        MmMessage::Bootstrap { .. } => "bootstrap",
        MmMessage::BootstrapB => "bootstrap-b",
    }
}

/// The round a message is about, if it names one.
fn ballot(message: &MmMessage) -> Option<Ballot> {
    match message {
        MmMessage::MatchA { round, .. } | MmMessage::MatchB { round, .. } => Some(*round),
        MmMessage::GarbageA { watermark } | MmMessage::GarbageB { watermark } => Some(*watermark),
        MmMessage::Paxos(message) | MmMessage::Successor(message) => Some(message.ballot()),
        MmMessage::Retire { proof } => Some(proof.watermark()),
        MmMessage::Stop
        | MmMessage::StopB { .. }
        | MmMessage::Bootstrap { .. }
        | MmMessage::BootstrapB => None,
    }
}

/// The messages in flight, each with the actions `moves` allows on it.
pub fn messages(world: &MatchmakerWorld, moves: &[MmAction]) -> Vec<MessageView> {
    (world.in_flight().iter())
        .map(|message| {
            let envelope = &message.envelope;
            MessageView {
                id: message.id.0,
                from: name(envelope.from),
                to: name(envelope.to),
                kind: kind(&envelope.message),
                text: message_name(&envelope.message),
                ballot: ballot(&envelope.message).map_or_else(String::new, round_name),
                slot: None,
                cut: world.network().is_cut_off(message.id),
                harmless: None,
                actions: message_verbs::<MatchmakerWorld>(moves, message.id),
            }
        })
        .collect()
}

/// The buttons: start, collect and retire for leaders, crash and restart, and the
/// reconfigurer's replacement.
pub fn controls(moves: &[MmAction]) -> Vec<ControlView> {
    (moves.iter())
        .filter_map(|action| {
            let (action, label, help) = match *action {
                MmAction::Start(node) => (
                    ActionJson::Start { node: name(node) },
                    format!("Start {}", name(node)),
                    format!(
                        "Start {0}: {0} sends MatchA with its round and configuration to every \
                         matchmaker.",
                        name(node)
                    ),
                ),
                MmAction::Collect(node) => (
                    ActionJson::Collect { node: name(node) },
                    format!("Collect garbage ({})", name(node)),
                    format!(
                        "Collect garbage: {} asks every matchmaker to forget the configurations \
                         below its round (GarbageA).",
                        name(node)
                    ),
                ),
                MmAction::Retire(node) => (
                    ActionJson::Retire { node: name(node) },
                    format!("Retire removed acceptors ({})", name(node)),
                    format!(
                        "Retire: {} sends a Retire, carrying its garbage-collection proof, to \
                         each acceptor its configuration removed.",
                        name(node)
                    ),
                ),
                MmAction::Crash(node) => (
                    ActionJson::Crash { node: name(node) },
                    format!("Crash {}", name(node)),
                    String::new(),
                ),
                MmAction::Restart(node) => (
                    ActionJson::Restart { node: name(node) },
                    format!("Restart {}", name(node)),
                    String::new(),
                ),
                MmAction::Replace(node) => (
                    ActionJson::Replace { node: name(node) },
                    format!("Replace the matchmakers ({})", name(node)),
                    format!(
                        "Replace: {} stops the old matchmakers, reconstructs their state, \
                         bootstraps the new ones and has the old ones decide the successor.",
                        name(node)
                    ),
                ),
                // Messages are moved on the wire; the fair schedule's steps are not the player's.
                MmAction::Deliver(_)
                | MmAction::Drop(_)
                | MmAction::Duplicate(_)
                | MmAction::Retry(_)
                | MmAction::StopFaults => return None,
            };
            Some(ControlView {
                action,
                label,
                help: (!help.is_empty()).then_some(help),
            })
        })
        .collect()
}

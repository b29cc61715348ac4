//! How Act I's world is drawn: acceptors with their slot box, proposers with their phase, the
//! messages on the wires, and the start and retry buttons.

use crate::automation::Automation;
use crate::board::{ByHand, message_verbs};
use crate::scene::{
    ActionJson, ControlView, MessageView, NodeView, PromiseView, SlotView, VoteView,
};
use crate::words::names;
use paros_core::{Envelope, Message, NodeId, Phase, Vote};
use paros_sim::MessageId;
use paros_sim::single_decree::{DecreeAction, DecreeWorld, Role};

/// A vote as the stage prints it.
pub fn vote_view(world: &DecreeWorld, vote: &Vote) -> VoteView {
    VoteView {
        ballot: world.ballot_name(vote.ballot),
        value: vote.value.to_string(),
    }
}

/// Acceptors with their promise, record and slot box; proposers with their phase and Promises.
pub fn nodes(world: &DecreeWorld, by_hand: &ByHand) -> Vec<NodeView> {
    let silent = world.config().silent;
    let chosen_value = world.chosen().first().map(|votes| votes.value.clone());
    let acceptors = world.acceptors().iter().map(|acceptor| {
        let accepted = acceptor.accepted();
        let state = match accepted {
            None => "empty",
            Some(vote) if Some(&vote.value) == chosen_value.as_ref() => "chosen",
            Some(_) => "undecided",
        };
        NodeView {
            name: world.name(acceptor.id()),
            role: "acceptor",
            silent: silent.contains(acceptor.id()),
            by_hand: by_hand.has(Automation::AcceptorReplies),
            promised: Some(acceptor.promised().map(|ballot| world.ballot_name(ballot))),
            accepted: Some(accepted.map(|vote| vote_view(world, vote))),
            value: None,
            phase: None,
            ballot: None,
            promises: None,
            proposal: None,
            accepted_by: None,
            learned: None,
            retries_left: None,
            slots: vec![SlotView {
                slot: 1,
                state,
                ballot: accepted.map(|vote| world.ballot_name(vote.ballot)),
                value: accepted.map(|vote| vote.value.to_string()),
                applied: None,
            }],
            ..NodeView::default()
        }
    });
    let proposers = world
        .proposers()
        .iter()
        .enumerate()
        .map(|(index, proposer)| NodeView {
            name: world.name(proposer.id()),
            role: "proposer",
            silent: silent.contains(proposer.id()),
            by_hand: by_hand.has(Automation::P2c) || by_hand.retry,
            promised: None,
            accepted: None,
            value: Some(proposer.own_value().to_string()),
            phase: Some(match proposer.phase() {
                Phase::Idle => "idle",
                Phase::Preparing => "preparing",
                Phase::Accepting => "accepting",
                Phase::Learned => "learned",
            }),
            ballot: Some(proposer.ballot().map(|ballot| world.ballot_name(ballot))),
            promises: Some(
                proposer
                    .promises()
                    .iter()
                    .map(|(node, vote)| PromiseView {
                        from: world.name(*node),
                        accepted: vote.as_ref().map(|vote| vote_view(world, vote)),
                    })
                    .collect(),
            ),
            proposal: Some(proposer.proposal().map(|value| value.to_string())),
            accepted_by: Some(names(world, proposer.accepted_by())),
            learned: Some(proposer.learned().map(|value| value.to_string())),
            retries_left: world.retries_left().get(index).copied(),
            slots: Vec::new(),
            ..NodeView::default()
        });
    acceptors.chain(proposers).collect()
}

/// The messages in flight, each with the actions `moves` allows on it.
pub fn messages(world: &DecreeWorld, moves: &[DecreeAction]) -> Vec<MessageView> {
    world
        .in_flight()
        .iter()
        .map(|message| {
            let actions = message_verbs::<DecreeWorld>(moves, message.id);
            let harmless = if actions.contains(&"deliver") {
                harmless(world, message.id)
            } else {
                None
            };
            MessageView {
                harmless,
                ..message_view(world, message.id, &message.envelope, actions)
            }
        })
        .collect()
}

/// Whether delivering message `id` now would only be ignored or refused by its receiver, worked
/// out by the real receiver on a copy of the world; and if so, why, in words.
fn harmless(world: &DecreeWorld, id: MessageId) -> Option<String> {
    let receiver = world.name(world.message(id)?.envelope.to);
    let mut copy = world.clone();
    let step = copy.apply(&DecreeAction::Deliver(id)).ok()?;
    if let Some(reason) = step.ignored {
        return Some(format!(
            "harmless now: {receiver} would ignore it ({reason})"
        ));
    }
    let only_nacks = !step.sent.is_empty()
        && step.sent.iter().all(|sent| {
            copy.message(*sent)
                .is_some_and(|message| matches!(message.envelope.message, Message::Nack { .. }))
        });
    only_nacks.then(|| {
        format!(
            "harmless now: {receiver} has promised a higher ballot and would answer with a Nack"
        )
    })
}

fn message_view(
    world: &DecreeWorld,
    id: MessageId,
    envelope: &Envelope,
    actions: Vec<&'static str>,
) -> MessageView {
    MessageView {
        id: id.0,
        from: world.name(envelope.from),
        to: world.name(envelope.to),
        kind: match envelope.message {
            Message::Prepare { .. } => "prepare",
            Message::Promise { .. } => "promise",
            Message::Accept { .. } => "accept",
            Message::Accepted { .. } => "accepted",
            Message::Nack { .. } => "nack",
        },
        text: world.message_name(&envelope.message),
        ballot: world.ballot_name(envelope.message.ballot()),
        slot: None,
        cut: world.network().is_cut_off(id),
        harmless: None,
        actions,
    }
}

/// What a retry does: the proposer gives up its ballot and starts Phase 1 again at a higher
/// ballot of its own, as a proposer only ever uses ballots that name it.
fn retry_help(world: &DecreeWorld, node: NodeId) -> String {
    let name = world.name(node);
    let given_up = world
        .proposers()
        .iter()
        .find(|proposer| proposer.id() == node)
        .and_then(|proposer| proposer.ballot())
        .map_or_else(String::new, |ballot| {
            format!(" on {}", world.ballot_name(ballot))
        });
    format!(
        "Retry {name}: {name} gives up{given_up} and begins Phase 1 again at a higher ballot \
         that names it, sending new Prepares to every acceptor."
    )
}

/// Start and retry buttons.
pub fn controls(world: &DecreeWorld, moves: &[DecreeAction]) -> Vec<ControlView> {
    let controls: Vec<ControlView> = moves
        .iter()
        .copied()
        .filter_map(|action| match action {
            DecreeAction::Start(node) => Some(ControlView {
                action: ActionJson::Start {
                    node: world.name(node),
                },
                label: format!("Start {}", world.name(node)),
                help: Some(format!(
                    "Start {0}: {0} begins Phase 1 at its first ballot, sending a Prepare to \
                     every acceptor.",
                    world.name(node)
                )),
            }),
            DecreeAction::Retry(node) => {
                let left = match world.role(node) {
                    Some(Role::Proposer(index)) => world.retries_left()[index],
                    _ => 0,
                };
                Some(ControlView {
                    action: ActionJson::Retry {
                        node: world.name(node),
                    },
                    label: format!("Retry {} ({left} left)", world.name(node)),
                    help: Some(retry_help(world, node)),
                })
            }
            _ => None,
        })
        .collect();
    controls
}

//! What several of Act I's prompts read off the world: the messages a step sends (on a
//! clone), an acceptor's promise and accepted record, a proposer's value, and two quorums
//! that meet in one acceptor.

use crate::words::{quorums, set_name, vote_name};
use paros_core::{Ballot, Message, NodeId, NodeSet, QuorumSystem};
use paros_sim::single_decree::{DecreeAction, DecreeWorld};

/// What the real world does with `action`: the messages it sends, read off a clone.
pub(super) fn sent_by(world: &DecreeWorld, action: &DecreeAction) -> Option<Vec<Message>> {
    let mut clone = world.clone();
    let step = clone.apply(action).ok()?;
    Some(
        step.sent
            .iter()
            .filter_map(|id| clone.message(*id))
            .map(|message| message.envelope.message.clone())
            .collect(),
    )
}

pub(super) fn acceptor_facts(world: &DecreeWorld, acceptor: NodeId) -> Vec<String> {
    let name = world.name(acceptor);
    let state = world
        .acceptors()
        .iter()
        .find(|candidate| candidate.id() == acceptor);
    let promised = state.and_then(|state| state.promised());
    let accepted = state.and_then(|state| state.accepted());
    vec![
        match promised {
            Some(ballot) => format!("{name} has promised {}", world.ballot_name(ballot)),
            None => format!("{name} has promised nothing"),
        },
        match accepted {
            Some(vote) => format!("{name} has accepted {}", vote_name(world, vote)),
            None => format!("{name} has accepted nothing"),
        },
    ]
}

pub(super) fn promised_of(world: &DecreeWorld, acceptor: NodeId) -> Option<Ballot> {
    world
        .acceptors()
        .iter()
        .find(|candidate| candidate.id() == acceptor)
        .and_then(|state| state.promised())
}

/// The value a proposer is carrying: the one it sent, else its own.
pub(super) fn value_of(world: &DecreeWorld, proposer: NodeId) -> String {
    world
        .proposers()
        .iter()
        .find(|candidate| candidate.id() == proposer)
        .map(|state| {
            state
                .proposal()
                .unwrap_or_else(|| state.own_value())
                .to_string()
        })
        .unwrap_or_default()
}

/// Two quorums that share only `acceptor` (as far as the acceptors allow): the pair an acceptor
/// that breaks its promise lets choose two values. Printed as `{A1, A2}` and `{A1, A3}`.
pub(super) fn two_quorums_through(world: &DecreeWorld, acceptor: NodeId) -> (String, String) {
    let others: Vec<NodeId> = world
        .config()
        .acceptors()
        .iter()
        .filter(|node| *node != acceptor)
        .collect();
    let quorums = quorums(world);
    let with = |picked: &mut dyn Iterator<Item = &NodeId>| {
        let mut set = NodeSet::EMPTY;
        set.insert(acceptor);
        for node in picked {
            if quorums.is_phase2_quorum(set) {
                break;
            }
            set.insert(*node);
        }
        set_name(world, set)
    };
    (with(&mut others.iter()), with(&mut others.iter().rev()))
}

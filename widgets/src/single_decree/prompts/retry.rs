//! The retry prompt: which ballot a proposer's new Prepare carries.

use super::shared::value_of;
use crate::prompt::sort_short;
use crate::prompt::{Choice, Prompt, PromptKind};
use paros_core::{Ballot, NodeId};
use paros_sim::single_decree::{DecreeAction, DecreeWorld, Role};

/// The retry prompt: which ballot the proposer's new Prepare carries.
pub(super) fn retry_ballot(world: &DecreeWorld, node: NodeId) -> Option<Prompt> {
    let Some(Role::Proposer(index)) = world.role(node) else {
        return None;
    };
    let before = &world.proposers()[index];
    let current = before.ballot()?;
    let refusal = before.highest_refusal();
    let mut clone = world.clone();
    clone.apply(&DecreeAction::Retry(node)).ok()?;
    let right = clone.proposers()[index].ballot()?;
    let name = world.name(node);
    let other = world
        .proposers()
        .iter()
        .map(|proposer| proposer.id())
        .find(|id| *id != node);
    let mut ballots = vec![current, right];
    if let Some(other) = other {
        // The other proposer's ballot at the very round the retry climbs to: the tempting
        // choice that ownership rules out.
        ballots.push(Ballot::new(right.round, other));
        if let Some(refused) = refusal.filter(|refused| refused.node != node) {
            ballots.push(refused);
        }
    }
    sort_short(&mut ballots, |ballot| *ballot);
    ballots.dedup();
    let floor = refusal.map_or(current, |refused| refused.max(current));
    let mut facts = vec![format!("{name} last ran {}", world.ballot_name(current))];
    facts.push(match refusal {
        Some(refused) => format!(
            "the highest ballot a Nack named is {}",
            world.ballot_name(refused)
        ),
        None => "no Nack has named a higher ballot".to_string(),
    });
    facts.push(format!(
        "a ballot is a round and an owner: every ballot {name} may run ends in .{name}"
    ));
    let choices = ballots
        .into_iter()
        .map(|ballot| {
            let key = world.ballot_name(ballot);
            let explanation = if ballot == right {
                format!(
                    "{key}: one round above {}, the highest ballot {name} has run or been refused \
                     by, and owned by {name}. Any lower ballot would be refused by the promise \
                     rule; a higher one only feeds the duel.",
                    world.ballot_name(floor)
                )
            } else if ballot.node != node {
                format!(
                    "{key} belongs to {}. Each ballot has one owner so that it names one value: if \
                     {name} sent Accept({key}, {}) while {} sent Accept({key}, {}), acceptors \
                     would vote for two values under one ballot, and Phase 1's promises would \
                     protect neither.",
                    world.name(ballot.node),
                    value_of(world, node),
                    world.name(ballot.node),
                    value_of(world, ballot.node)
                )
            } else {
                format!(
                    "{key} is not above {}: every acceptor that promised {} or more refuses it by \
                     the promise rule (`>`), and those that promised {key} refuse a second \
                     Prepare at it. A retry must climb over every ballot {name} has seen.",
                    world.ballot_name(floor),
                    world.ballot_name(floor),
                )
            };
            Choice {
                label: format!("Prepare({key})"),
                right: ballot == right,
                explanation,
                key,
            }
        })
        .collect();
    Some(Prompt {
        kind: PromptKind::RetryBallot,
        node: Some(name.clone()),
        message: None,
        question: format!("{name} retries. Which ballot does its new Prepare carry?"),
        facts,
        choices,
        record: None,
        topic: "",
    })
}

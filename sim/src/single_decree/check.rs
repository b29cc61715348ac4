//! Act I's checkers: agreement, validity and learned-is-chosen over a single-decree [`DecreeWorld`],
//! judged from the votes after every step.

use super::world::{BallotVotes, DecreeWorld};
use crate::check::{Property, Violation};

/// Runs every safety checker; an empty result means the world is safe so far.
pub fn safety(world: &DecreeWorld) -> Vec<Violation> {
    [agreement(world), validity(world), learned_is_chosen(world)]
        .into_iter()
        .flatten()
        .collect()
}

/// Agreement: every ballot that was ever chosen carries the same value.
pub fn agreement(world: &DecreeWorld) -> Option<Violation> {
    let chosen = world.chosen();
    let first = chosen.first()?;
    let other = chosen.iter().find(|votes| votes.value != first.value)?;
    let describe = |votes: &BallotVotes| {
        let voters: Vec<String> = votes.voters.iter().map(|node| world.name(node)).collect();
        format!(
            "{} chosen at {} by {{{}}}",
            votes.value,
            world.ballot_name(votes.ballot),
            voters.join(", ")
        )
    };
    Some(Violation {
        property: Property::Agreement,
        detail: format!("{}; {}", describe(first), describe(other)),
    })
}

/// Validity: the chosen value was some proposer's own value.
pub fn validity(world: &DecreeWorld) -> Option<Violation> {
    let proposed = &world.config().proposers;
    world.chosen().into_iter().find_map(|votes| {
        let known = proposed
            .iter()
            .any(|proposer| proposer.value == votes.value);
        (!known).then(|| Violation {
            property: Property::Validity,
            detail: format!("{} was chosen but nobody proposed it", votes.value),
        })
    })
}

/// Learned-is-chosen: a proposer that learned a value learned the chosen one.
pub fn learned_is_chosen(world: &DecreeWorld) -> Option<Violation> {
    let chosen = world.chosen();
    world.proposers().iter().find_map(|proposer| {
        let learned = proposer.learned()?;
        let is_chosen = chosen.iter().any(|votes| &votes.value == learned);
        (!is_chosen).then(|| Violation {
            property: Property::LearnedIsChosen,
            detail: format!(
                "{} learned {learned}, which is not chosen",
                world.name(proposer.id())
            ),
        })
    })
}

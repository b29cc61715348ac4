//! Checkers: the safety properties every world must keep, judged after every step.
//!
//! Each checker has a negative control that it must catch (see the tests): a checker that
//! cannot fail proves nothing.

use crate::World;
use std::fmt;

/// The property a violation breaks.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Property {
    /// At most one value is chosen, counting every ballot whose voters ever formed a Phase-2
    /// quorum, whether or not any proposer learned it.
    Agreement,
    /// A chosen value is one that some proposer proposed.
    Validity,
    /// A proposer or node learned only the value that is chosen, judged by the votes.
    LearnedIsChosen,
    /// Every slot up to a node's chosen index is known chosen, and nothing past it is applied.
    ChosenPrefix,
    /// A node applies slots in order, one after another, within each incarnation.
    AppliedInOrder,
    /// A client request takes effect at most once per incarnation of a node.
    AppliedOnce,
    /// Every "written" a client hears is for a command chosen in some slot.
    WrittenIsChosen,
    /// A node never stands for election at a ballot it stood at in an earlier life.
    BallotUnique,
    /// The client history is linearizable.
    Linearizability,
    /// A checker could not decide within its limits: an error, never a pass.
    CheckLimit,
}

impl fmt::Display for Property {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Property::Agreement => "agreement",
            Property::Validity => "validity",
            Property::LearnedIsChosen => "learned-is-chosen",
            Property::ChosenPrefix => "chosen-prefix",
            Property::AppliedInOrder => "applied-in-order",
            Property::AppliedOnce => "applied-once",
            Property::WrittenIsChosen => "written-is-chosen",
            Property::BallotUnique => "ballot-unique",
            Property::Linearizability => "linearizability",
            Property::CheckLimit => "check-limit",
        })
    }
}

/// A broken property, with what broke it in the world's own names.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Violation {
    /// The property broken.
    pub property: Property,
    /// What happened, e.g. `x chosen at 1.P1 by {A1, A2}; y chosen at 2.P2 by {A2, A3}`.
    pub detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.property, self.detail)
    }
}

/// Runs every safety checker; an empty result means the world is safe so far.
pub fn safety(world: &World) -> Vec<Violation> {
    [agreement(world), validity(world), learned_is_chosen(world)]
        .into_iter()
        .flatten()
        .collect()
}

/// Agreement: every ballot that was ever chosen carries the same value.
pub fn agreement(world: &World) -> Option<Violation> {
    let chosen = world.chosen();
    let first = chosen.first()?;
    let other = chosen.iter().find(|votes| votes.value != first.value)?;
    let describe = |votes: &crate::world::BallotVotes| {
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
pub fn validity(world: &World) -> Option<Violation> {
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
pub fn learned_is_chosen(world: &World) -> Option<Violation> {
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

//! Act I: single-decree Paxos. Three acceptors, one to three proposers, one slot, no clock and
//! no storage. Each level is a file here with its briefing in a markdown file beside it.

pub mod adopt_the_value;
pub mod be_the_acceptor;
pub mod choose_a_value;
pub mod quorum_intersection;
pub mod recovery_is_not_catch_up;
pub mod the_duel;

use paros_core::{Message, NodeId, Value};
use paros_sim::single_decree::{DecreeStep, DecreeWorld};

/// The chapters beside Act I's levels.
pub const HOW_PAXOS_CHOOSES: &str = "How Paxos chooses one value";
/// The chapters beside Act I's levels.
pub const WHY_ONE_VALUE_IS_SAFE: &str = "Why one value is safe";

/// The vote a step cast, if it delivered an Accept that the acceptor voted for: the voter, and
/// the ballot and value it sent in its Accepted.
pub fn vote_cast(
    world: &DecreeWorld,
    step: &DecreeStep,
) -> Option<(NodeId, paros_core::Ballot, Value)> {
    step.sent
        .iter()
        .filter_map(|id| world.message(*id))
        .find_map(|message| match &message.envelope.message {
            Message::Accepted { ballot, value } => {
                Some((message.envelope.from, *ballot, value.clone()))
            }
            _ => None,
        })
}

/// The proposer that sent Accepts in this step, if any: it has just completed Phase 1.
pub fn phase1_completed_by(world: &DecreeWorld, step: &DecreeStep) -> Option<NodeId> {
    step.sent
        .iter()
        .filter_map(|id| world.message(*id))
        .find(|message| matches!(message.envelope.message, Message::Accept { .. }))
        .map(|message| message.envelope.from)
}

//! Act I's role prompts: Promise or Nack, Accepted or Nack, the value of an Accept (P2c), and
//! the ballot of a retry.
//!
//! The right answer always comes from paros-core, run on a clone of the world: the clone takes
//! the real step and the prompt reads off what the node did. The explanations are written from
//! the node's own state (its promise, its accepted record, the Promises it holds), so every
//! wrong answer is told what it would break with this prompt's own ballots, values and quorums.
//!
//! One file per prompt kind: `promise.rs` (Promise or Nack), `accepted.rs` (Accepted or Nack),
//! `choose_value.rs` (the value of an Accept, P2c), `retry.rs` (the ballot of a retry), and
//! `shared.rs` for what several of them read off the world.

mod accepted;
mod choose_value;
mod promise;
mod retry;
mod shared;

use crate::automation::Automation;
use crate::board::ByHand;
use crate::prompt::Prompt;
use accepted::accepted_or_nack;
use choose_value::choose_value;
use paros_core::Message;
use paros_sim::single_decree::{DecreeAction, DecreeWorld, Role};
use promise::promise_or_nack;
use retry::retry_ballot;

/// The prompt this action opens, or `None` when the world simply takes it.
pub fn for_action(world: &DecreeWorld, action: &DecreeAction, by_hand: &ByHand) -> Option<Prompt> {
    match *action {
        DecreeAction::Deliver(id) => {
            let message = world.message(id)?;
            let envelope = &message.envelope;
            match (world.role(envelope.to)?, &envelope.message) {
                (Role::Acceptor(_), Message::Prepare { ballot })
                    if by_hand.has(Automation::AcceptorReplies) =>
                {
                    Some(promise_or_nack(
                        world,
                        id,
                        envelope.to,
                        envelope.from,
                        *ballot,
                    ))
                }
                (Role::Acceptor(_), Message::Accept { ballot, .. })
                    if by_hand.has(Automation::AcceptorReplies) =>
                {
                    Some(accepted_or_nack(world, id, envelope.to, *ballot))
                }
                (Role::Proposer(index), Message::Promise { .. })
                    if by_hand.has(Automation::P2c) =>
                {
                    choose_value(world, id, index)
                }
                _ => None,
            }
        }
        DecreeAction::Retry(node) if by_hand.retry => retry_ballot(world, node),
        _ => None,
    }
}

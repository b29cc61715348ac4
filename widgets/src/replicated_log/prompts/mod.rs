//! The log's role prompts: what a node may apply (the apply walk), what a new leader puts in
//! each slot of its recovery (P2c per slot), whether a node may serve a read now, and in Act
//! III where a node's floor stands, what its promise is after a jump, and what a leader and its
//! apply walk do with a client's retry.
//!
//! As in Act I, the right answer is read off a clone of the world that took the real step;
//! the explanations are written from the node's own state (its chosen slots, the votes its
//! Promises reported, the replies its read collected), so a wrong answer is told what it would
//! break with this prompt's own slots, ballots and entries.
//!
//! One file per prompt kind: `apply_walk.rs` (what a node may apply), `floor.rs` (where a
//! node's floor stands once its walk meets a decided trim), `jump.rs` (a node's promise after
//! it jumps to a trim point), `recovery.rs` (P2c per slot), `serve.rs` (serve a read or wait,
//! with `read_at_applied.rs`, what serving too early at a leader breaks), `resend.rs` (what a
//! leader does with a client's retry of a request chosen above what it has applied),
//! `repeat.rs` (what the apply walk does with a request that reached the log twice),
//! `reach_set.rs` (which nodes' answers a phase waits for, one check box per node, judged by
//! the level over the core's quorum system), and `shared.rs` for the helpers they share.

mod apply_walk;
mod floor;
mod jump;
pub mod reach_set;
mod read_at_applied;
mod recovery;
mod repeat;
mod resend;
pub mod serve;
mod shared;

use crate::automation::Automation;
use crate::board::ByHand;
use crate::prompt::Prompt;
use crate::replicated_log::LogMove;
use apply_walk::apply_walk;
use floor::floor_after;
use jump::jump_promise;
use paros_sim::replicated_log::{LogAction, LogWorld};
use recovery::recover_slots;
use repeat::repeat_applies;
use resend::resend;
use serve::serve_or_wait;

/// The prompt this move opens, or `None` when the world simply takes it.
pub fn for_move(world: &LogWorld, action: &LogMove, by_hand: &ByHand) -> Option<Prompt> {
    let mut after = world.clone();
    crate::board::Board::play(&mut after, action).ok()?;
    if let LogMove::World(LogAction::Deliver(id)) = action {
        if let Some(prompt) = serve_or_wait(world, &after, id.0) {
            return Some(prompt);
        }
        if let Some(prompt) = jump_promise(world, &after, id.0) {
            return Some(prompt);
        }
        if let Some(prompt) = resend(world, &after, id.0) {
            return Some(prompt);
        }
        if by_hand.has(Automation::P2c)
            && let Some(prompt) = recover_slots(world, &after, id.0)
        {
            return Some(prompt);
        }
    }
    let restarts = matches!(action, LogMove::World(LogAction::Restart(_)));
    if by_hand.has(Automation::ApplyWalk)
        && !restarts
        && let Some(prompt) =
            floor_after(world, &after, action).or_else(|| apply_walk(world, &after, action))
    {
        return Some(prompt);
    }
    repeat_applies(world, &after, action)
}

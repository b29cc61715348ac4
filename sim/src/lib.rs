//! paros-sim: one [`World`] that drives paros-core for the game, the simulator and the explorer.
//!
//! A world is a value: the nodes' protocol state, the messages in flight with stable ids in
//! send order, and the fault budgets left. Everything that happens to it is an [`Action`] that
//! prints as it reads (`deliver m3 P1->A2 Prepare(1.P1)`), so any run can be written down,
//! replayed exactly with [`World::replay`], and compared by [`World::fingerprint`].
//!
//! The checkers in [`check`] judge a world after every step.

pub mod check;
pub mod linearizability;
mod world;

pub use world::{
    Action, BallotVotes, Budget, FaultCounts, InFlight, MessageId, NegativeControl, ProposerConfig,
    Refused, Role, Step, World, WorldConfig,
};

#[cfg(test)]
mod tests;

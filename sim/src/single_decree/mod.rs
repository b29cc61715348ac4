//! Act I: single-decree Paxos. Acceptors A1..An and proposers P1..Pm exchange messages over a
//! network that may drop, duplicate and delay them; one value is chosen, or none.
//!
//! [`World`] is the world as a value; `wire` packs its messages in flight into plain numbers;
//! [`check`] holds the checkers that judge it after every step.

pub mod check;
mod wire;
mod world;

pub use world::{
    Action, BallotVotes, Budget, FaultCounts, InFlight, MessageId, NegativeControl, ProposerConfig,
    Refused, Role, Step, World, WorldConfig,
};

#[cfg(test)]
mod tests;

//! Act I: single-decree Paxos. Acceptors A1..An and proposers P1..Pm exchange messages over a
//! network that may drop, duplicate and delay them; one value is chosen, or none.
//!
//! [`DecreeWorld`] is the world as a value (`world`); `config` says what it is made of,
//! `change` works out what an action changes, `names` says it as players read it, `symmetry`
//! declares the acceptors it cannot tell apart and hashes a state's orbit, `wire` packs its
//! messages in flight into plain numbers, and [`check`] holds the checkers that judge it after
//! every step.

mod change;
pub mod check;
mod config;
mod names;
mod symmetry;
mod wire;
mod world;

pub use config::{DecreeWorldConfig, ProposerConfig, Role, rogue_value};
pub use symmetry::Renaming;
pub use world::{BallotVotes, DecreeAction, DecreeStep, DecreeWorld, InFlight};

#[cfg(test)]
mod tests;

//! Act I: single-decree Paxos. Acceptors A1..An and proposers P1..Pm exchange messages over a
//! network that may drop, duplicate and delay them; one value is chosen, or none.
//!
//! [`DecreeWorld`] is the world as a value (`world`); `config` says what it is made of,
//! `change` works out what an action changes, `names` says it as players read it, `symmetry`
//! declares the acceptors it cannot tell apart and hashes a state's orbit, `wire` packs its
//! messages in flight into plain numbers, [`check`] holds the checkers that judge it after
//! every step, and `model` makes it a [`Model`](crate::model::Model) on top of them all;
//! `renaming` is the renaming of acceptors itself.

mod change;
pub mod check;
mod config;
mod model;
mod names;
mod renaming;
mod symmetry;
mod wire;
mod world;

pub use config::{DecreeWorldConfig, ProposerConfig, Role, rogue_value};
pub use renaming::Renaming;
pub use world::{BallotVotes, DecreeAction, DecreeStep, DecreeWorld, InFlight};

#[cfg(test)]
mod tests;

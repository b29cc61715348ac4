//! Act IV: Matchmaker Paxos for a single decree (Whittaker et al., JSys 2021). Matchmakers
//! M1..M3 remember the configuration of each round; leaders L1, L2, ... each run one round in a
//! configuration of their own (reconfiguring is a round change), collect the configurations
//! below their round once their value is chosen in it (M4) and retire the acceptors they
//! removed (M5); a reconfigurer R1 may replace the matchmakers by M4..M6 (M6). Messages may be
//! dropped, duplicated and delayed; matchmakers and leaders may crash. Once faults stop, a
//! leader of a higher round must finish (`settle`).
//!
//! [`MatchmakerWorld`] is the world as a value (`world`); `config` says what it is made of,
//! `names` says it as players read it, `checks` holds the checkers that judge it after every
//! step, and `model` makes it a [`Model`](crate::model::Model) on top of them all.

mod checks;
mod config;
mod disk;
mod memo;
mod model;
mod names;
mod node;
mod settle;
mod world;

pub use checks::safety;
pub use config::{GENERATION_SIZE, LeaderPlan, MatchmakerWorldConfig, MmRole};
pub use names::{
    configuration_name, history_name, message_kind, message_name, node_name, round_name, set_name,
};
pub use world::{MatchmakerWorld, MmAction, MmStep, RoundVotes};

#[cfg(test)]
mod tests;

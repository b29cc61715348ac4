//! paros-sim: worlds that drive paros-core for the game, the simulator and the explorer.
//!
//! A world is a value: the nodes' protocol state, the messages in flight with stable ids in
//! send order, and the fault budgets left. Everything that happens to it is an action that
//! prints as it reads (`deliver m3 P1->A2 Prepare(1.P1)`), so any run can be written down,
//! replayed exactly with [`Model::replay`](model::Model::replay), and compared by its
//! [fingerprint](model::Model::fingerprint).
//!
//! Every world is built from one kit: the [`network`] (messages in flight, partitions, and the
//! words for actions on them), the [`faults`] layer (one [`Budget`], one [`NegativeControl`]
//! type, one [`Refused`]), one [`fingerprint`] scheme, and the [`model::Model`] trait the
//! explorer, the simulator and the game all drive. Act I's world is
//! [`single_decree::DecreeWorld`]; the replicated log's is [`replicated_log::LogWorld`].
//!
//! Each world's checkers judge it after every step ([`single_decree::check`] for Act I, the
//! replicated log's in [`replicated_log`]); a broken property is a [`check::Violation`].
//!
//! Two drivers check a world through the [`model::Model`] trait: the exhaustive explorer
//! ([`explore`]) and the seeded simulator ([`simulate`]). [`scenarios`] names the worlds and
//! their claims, [`runner`] turns a run into a [`report::Report`] with an honest verdict, and
//! [`book::report_for`] is what the book generator calls.

pub mod check;
pub mod faults;
pub mod fingerprint;
pub mod linearizability;
pub mod matchmaker;
pub mod network;
pub mod quorums;
pub mod replicated_log;
pub mod single_decree;

pub mod book;
pub mod disk_damage;
mod error;
pub mod explore;
pub mod level_worlds;
pub mod model;
pub mod replay;
pub mod report;
pub mod runner;
mod scenario;
pub mod scenarios;
pub mod seen;
pub mod simulate;
pub mod swarm;

pub use error::Error;
pub use faults::{Budget, Fault, NegativeControl, Refused};
pub use network::MessageId;

#[cfg(test)]
mod disk_damage_tests;
#[cfg(test)]
mod model_tests;
#[cfg(test)]
mod scenario_tests;
#[cfg(test)]
mod verdict_tests;

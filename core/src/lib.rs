//! paros-core: the Paxos family as deterministic, sans-IO state machines.
//!
//! A node is a value. It takes an input (a message, a client request, and later a tick or a
//! restart from its durable record) and returns what to send; it does no I/O, reads no clock and
//! draws no randomness, so the same inputs always give the same outputs. All protocol state is
//! `Clone + Eq + Hash + Debug`, so a driver can fingerprint it or ask "what would the real node
//! do" on a clone.
//!
//! This release holds single-decree Paxos, as in Lamport's "The Part-Time Parliament" (1998)
//! and "Paxos Made Simple" (2001):
//!
//! - [`Acceptor`], with the [promise rule](promise_rule) and the [vote rule](vote_rule);
//! - [`Proposer`], with Phase 1, [P2c value selection](select_value), Phase 2 and learning;
//! - [`QuorumSystem`], with [`Majority`] and [`Flexible`] quorums and the [chosen check](is_chosen).
//!
//! and the replicated log of Paxos Made Simple, section 3, in [`log`]: a
//! [`ColocatedNode`](log::ColocatedNode) with leader election by ticks, one Phase 1 per
//! leadership, the recovery duty, pipelined Accepts, heartbeats carrying the commit index,
//! durable storage through [`Ready`](log::Ready), and linearizable reads; and Matchmaker Paxos
//! (Whittaker et al., JSys 2021) for a single decree in [`matchmaker`]: reconfiguration as a
//! round change, garbage collection of old configurations, and the replacement of the
//! matchmakers themselves.
//!
//! # Driving one decision
//!
//! The caller is the network: it takes each [`Envelope`] a node returns and hands it to the
//! node it is addressed to, in any order it likes, or never.
//!
//! ```
//! use paros_core::{Acceptor, Majority, NodeId, NodeSet, Proposer, Value};
//! use std::collections::VecDeque;
//!
//! let ids: Vec<NodeId> = (1..=3).map(|id| NodeId::new(id).unwrap()).collect();
//! let quorums = Majority::new(ids.iter().copied().collect::<NodeSet>()).unwrap();
//! let mut acceptors: Vec<Acceptor> = ids.iter().map(|id| Acceptor::new(*id)).collect();
//! let mut proposer = Proposer::new(NodeId::new(10).unwrap(), quorums, Value::new("x"));
//!
//! let mut in_flight: VecDeque<_> = proposer.start().into();
//! while let Some(envelope) = in_flight.pop_front() {
//!     let replies = match acceptors.iter_mut().find(|a| a.id() == envelope.to) {
//!         Some(acceptor) => acceptor.handle(&envelope).into_iter().collect(),
//!         None => proposer.handle(&envelope).unwrap_or_default(),
//!     };
//!     in_flight.extend(replies);
//! }
//! assert_eq!(proposer.learned(), Some(&Value::new("x")));
//! ```

mod acceptor;
mod ballot;
mod grid;
mod ids;
mod ignored;
pub mod log;
pub mod matchmaker;
mod message;
mod proposer;
mod quorum;
mod quorums;
mod value;

pub use acceptor::{Acceptor, promise_rule, vote_rule};
pub use ballot::Ballot;
pub use grid::Grid;
pub use ids::{NodeId, NodeSet};
pub use ignored::Ignored;
pub use message::{Envelope, Message, Vote};
pub use proposer::{Phase, Proposer, select_value};
pub use quorum::{Flexible, MAX_GRID_SIDE, Majority, QuorumError, QuorumSystem, is_chosen};
pub use quorums::{Quorums, is_chosen_in_slot};
pub use value::Value;

#[cfg(test)]
mod bounds_tests;
#[cfg(test)]
mod tests;

//! Matchmaker Paxos: reconfiguration as a round change, for a single decree.
//!
//! Whittaker, Giridharan, Szekeres, Hellerstein, Howard, Nawab and Stoica, "Matchmaker Paxos: A
//! Reconfigurable Consensus Protocol" (JSys 2021). Each round runs in a [`Configuration`] of its
//! own: an acceptor set and its quorum system. A separate set of [`Matchmaker`]s remembers which
//! configuration each round uses, so a [`Leader`] of round `i` can find every configuration an
//! earlier round may have chosen a value in, run Phase 1 in each of them and Phase 2 in its own.
//! Reconfiguring is starting a higher round with another configuration.
//!
//! - **M1** ([`match_rule`]): a matchmaker records round `i` only above every round it stores
//!   and at or above its garbage-collection watermark, and answers with the lower rounds'
//!   configurations.
//! - **M2** ([`history_from_replies`]): the leader's history `H_i` is the union of `f+1`
//!   replies, filtered to rounds at or above the highest watermark among them.
//! - **M3** ([`phase1_complete`]): Phase 1 completes only with a Phase-1 quorum of every
//!   configuration in `H_i`, each judged by its own quorum system; Phase 2 runs in `C_i` only.
//! - **M4** ([`installed_is_collectable`], [`effective_watermark`], [`may_store`]):
//!   configurations below `i` are collected only once the value is chosen in round `i` on a
//!   Phase-2 quorum of `C_i`; a matchmaker keeps the highest watermark it was asked for and
//!   stores nothing below it.
//! - **M5** ([`GcProof`], [`RetiringAcceptor`]): a removed acceptor retires only on a request
//!   that carries the watermark `f+1` matchmakers acknowledged.
//! - **M6** ([`Reconfigurer`], [`reconstruct`], [`garbage_rule`], [`bootstrap_rule`],
//!   [`successors_are_new`]): the matchmakers are replaced by a set that shares none of them
//!   nor of any earlier generation ([`Reconfigurer::next`]), by stopping the old set (a
//!   stopped matchmaker, stopped for ever, refuses every MatchA, GarbageA and Bootstrap),
//!   reconstructing its state
//!   from `f+1` of them, bootstrapping the new set with it, and deciding the new set by
//!   single-decree Paxos over the old one, with paros-core's own [`Proposer`](crate::Proposer)
//!   and [`Acceptor`](crate::Acceptor).
//!
//! Acceptors are paros-core's own single-decree [`Acceptor`](crate::Acceptor)s, wrapped only to
//! add retirement; Phase 1 and Phase 2 speak the single-decree [`Message`]s.

mod acceptor;
mod gc_proof;
mod generation;
mod leader;
mod matchmaking;
mod record;

pub use acceptor::{RetireRefused, RetiringAcceptor};
pub use gc_proof::{GcProof, quorum_of_matchmakers};
pub use generation::{
    GenerationStage, ReconfigureRefused, Reconfigurer, reconstruct, successor_from_value,
    successor_value, successors_are_new,
};
pub use leader::{
    GcRefused, Leader, Stage, history_from_replies, installed_is_collectable, phase1_complete,
};
pub use matchmaking::{
    MatchRefused, Matchmaker, bootstrap_rule, effective_watermark, garbage_rule, match_rule,
    may_store,
};
pub use record::{MatchmakerWrite, decode, encode};

use crate::{Ballot, Message, NodeId, NodeSet, QuorumSystem, Quorums};
use std::collections::BTreeMap;

/// The configuration of one round: its acceptors and the quorum system over them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Configuration {
    quorums: Quorums,
}

impl Configuration {
    /// The configuration whose acceptors and quorums are those of `quorums`.
    pub fn new(quorums: Quorums) -> Configuration {
        Configuration { quorums }
    }

    /// The acceptors of this configuration.
    pub fn acceptors(&self) -> NodeSet {
        self.quorums.acceptors()
    }

    /// The quorum system its phases are judged by.
    pub fn quorums(&self) -> &Quorums {
        &self.quorums
    }
}

/// The configurations of rounds, by round: what a matchmaker stores and a leader's `H_i`.
pub type History = BTreeMap<Ballot, Configuration>;

/// One message of Matchmaker Paxos.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum MmMessage {
    /// A leader asks a matchmaker to record `config` for `round`.
    MatchA {
        /// The leader's round.
        round: Ballot,
        /// The configuration it runs that round in.
        config: Configuration,
    },
    /// A matchmaker recorded `round`; here are the configurations it stores below it.
    MatchB {
        /// The round recorded.
        round: Ballot,
        /// The configurations of the lower rounds the matchmaker stores.
        history: History,
        /// The matchmaker's garbage-collection watermark.
        watermark: Option<Ballot>,
    },
    /// A leader asks a matchmaker to collect the configurations below `watermark`.
    GarbageA {
        /// The round below which configurations may go.
        watermark: Ballot,
    },
    /// A matchmaker's watermark is now `watermark`: the highest it was ever asked for.
    GarbageB {
        /// The effective watermark.
        watermark: Ballot,
    },
    /// Phase 1 and Phase 2, as single-decree Paxos speaks them.
    Paxos(Message),
    /// A removed acceptor may stop: the configurations it belongs to are collected (M5).
    Retire {
        /// The watermark `f+1` matchmakers acknowledged, and who remains.
        proof: GcProof,
    },
    /// A reconfigurer asks an old matchmaker to stop matching and report what it stores (M6).
    Stop,
    /// A stopped matchmaker's report: everything it stores (M6).
    StopB {
        /// The configurations it stores.
        history: History,
        /// Its garbage-collection watermark.
        watermark: Option<Ballot>,
    },
    /// A reconfigurer gives a new matchmaker the old generation's state (M6).
    Bootstrap {
        /// The configurations reconstructed from `f+1` stopped matchmakers.
        history: History,
        /// The highest watermark among them.
        watermark: Option<Ballot>,
    },
    /// A new matchmaker holds the old generation's state (M6).
    BootstrapB,
    /// The single decree, over the old matchmakers, that names the next generation (M6).
    Successor(Message),
}

/// A Matchmaker Paxos message on the wire, with its sender and receiver.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct MmEnvelope {
    /// The sender.
    pub from: NodeId,
    /// The receiver.
    pub to: NodeId,
    /// The message.
    pub message: MmMessage,
}

impl MmEnvelope {
    /// A single-decree Paxos message as a Matchmaker Paxos one.
    pub fn paxos(envelope: crate::Envelope) -> MmEnvelope {
        MmEnvelope {
            from: envelope.from,
            to: envelope.to,
            message: MmMessage::Paxos(envelope.message),
        }
    }
}

/// A rule a Matchmaker Paxos role can be made to break, so that the simulator can show its
/// checker catching the break. Only with the `negative-controls` feature.
#[cfg(feature = "negative-controls")]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BrokenRule {
    /// Breaks M1, on a matchmaker: it records a round below one it stores, so the lower
    /// round's history misses the higher round's configuration.
    NoLowerRoundCheck,
    /// Breaks M3, on a leader: Phase 1 completes with a quorum of the newest configuration of
    /// `H_i` alone.
    Phase1LatestOnly,
    /// Breaks M4, on a leader: it asks for garbage collection as soon as Phase 1 is done,
    /// before its value is chosen in its own configuration.
    GcAfterPhase1,
    /// Breaks M6, on a matchmaker: asked to stop, it reports what it stores but goes on
    /// matching, so a round it records afterwards is missing from its successors.
    NoStop,
    /// Breaks M4 and M6 ([`garbage_rule`]), on a matchmaker: stopped, it still acknowledges
    /// garbage collection, so a proof retires acceptors whose configuration the next
    /// generation still holds, and later leaders wait in Phase 1 for ever.
    StoppedCollects,
    /// Breaks M4 ([`may_store`]), on a matchmaker: a Bootstrap stores every round it carries,
    /// even below the watermark the matchmaker already holds.
    BootstrapBelowWatermark,
    /// Breaks M6's watermark ([`Matchmaker`]'s Bootstrap), on a matchmaker: it keeps its own
    /// watermark, however much higher the Bootstrap's is.
    BootstrapKeepsItsWatermark,
}

#[cfg(test)]
mod adversary_tests;
#[cfg(all(test, feature = "negative-controls"))]
mod broken_tests;
#[cfg(test)]
mod generation_tests;
#[cfg(test)]
mod tests;

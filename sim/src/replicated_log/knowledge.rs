//! What a world knows of its past beyond its servers and messages ([`Knowledge`]: the history,
//! the decisions, the votes and the findings), what a server's step asks of it ([`Effect`]),
//! and the parts the fingerprint hashes ([`Part`]). Below every file that steps the world.

use super::client_state::ClientCall;
use super::slot_votes::SlotVotes;
use crate::check::{GaveUp, Property, Violation};
use crate::fingerprint::part;
use paros_core::log::{Entry, Slot, TrimPoint};
use paros_core::{Ballot, NodeId, NodeSet};
use std::collections::BTreeMap;

/// The parts of a world the fingerprint hashes one by one: a part's kind and position tag its
/// hash, so the same contents in two places hash differently.
#[derive(Clone, Copy, Hash)]
pub(super) enum Part {
    Server(usize),
    Proxy(usize),
    Client(usize),
    Budget,
    Trims,
    Handoffs,
    Call(usize),
    Decided,
    Vote,
    Sent,
    Violations,
    GaveUp,
    FairSteps,
}

/// The hash of one vote: one voter's, in one slot, at one ballot, for one entry.
pub(super) fn vote_part(slot: Slot, ballot: Ballot, entry: &Entry, voter: NodeId) -> u64 {
    part(Part::Vote, &(slot, ballot, entry, voter))
}

/// What a world knows of its past, beyond its servers and messages: what the checkers read and
/// keep. Changes far less often than the rest of a world, so copies share it.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub(super) struct Knowledge {
    /// The client history, in call order; times are counts of client events.
    pub(super) history: Vec<ClientCall>,
    /// Every slot some node learned chosen, with the entry: decisions are forever.
    pub(super) decided: BTreeMap<Slot, Entry>,
    /// Every vote ever cast, by slot, ballot and entry: a node votes when its `Accepted` leaves.
    pub(super) votes: BTreeMap<(Slot, Ballot, Entry), NodeSet>,
    /// For each slot, the first (slot, ballot, entry) whose votes formed a Phase-2 quorum:
    /// derived from `votes`, kept so the checkers need not recount.
    pub(super) chosen: BTreeMap<Slot, SlotVotes>,
    /// Violations found while applying actions (kept: a broken world stays broken).
    pub(super) violations: Vec<Violation>,
    /// The first checker that could not decide, if any (kept, like violations).
    pub(super) gave_up: Option<GaveUp>,
    /// The highest floor any node has reached: every slot up to it is decided and compacted
    /// somewhere (T4's checker).
    pub(super) highest_floor: Slot,
    /// Every (slot, ballot) an Accept was sent at, with the first entry sent there (H1's
    /// checker); kept only in worlds with handoffs.
    pub(super) sent: BTreeMap<(Slot, Ballot), Entry>,
}

/// What a server's step asks of the world's knowledge: a check, or a record, made once the
/// step's own part is done ([`LogWorld::learn`]), in the order the step asked.
///
/// Invariant: a server's step never reads the knowledge, and each effect carries what it needs
/// of the server as it was when the step asked. So deferring effects to the end of an action
/// changes nothing, and a step's effects depend only on the server and what it received: the
/// memo replays them against any knowledge.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(super) enum Effect {
    /// A property broken, found from the server alone.
    Violation(Property, String),
    /// Writes became durable: each slot a restart would now take as decided, with the entry
    /// the disk holds there ([`LogWorld::check_disk`]).
    Disk {
        node: NodeId,
        slots: Vec<(Slot, Option<Entry>)>,
    },
    /// What a live node knows is chosen, and how its chosen prefix is broken, if it is
    /// ([`LogWorld::check_decisions`], [`chosen_prefix`]).
    Decisions {
        node: NodeId,
        chosen: Vec<(Slot, Entry)>,
        prefix_broken: Option<String>,
    },
    /// Votes cast as a node's `Accepted`s left it ([`LogWorld::record_votes`]).
    Votes {
        voter: NodeId,
        cast: Vec<(Slot, Ballot, Entry)>,
    },
    /// A node wrote a trim point ([`LogWorld::check_trim_point`]).
    TrimPoint { node: NodeId, point: TrimPoint },
    /// Accepts left a node, at any ballot ([`LogWorld::check_one_value_per_ballot`]).
    AcceptsSent {
        node: NodeId,
        sent: Vec<(Slot, Ballot, Entry)>,
    },
    /// A proxy leader announced a slot chosen ([`LogWorld::check_announcement`]).
    Announced {
        proxy: NodeId,
        slot: Slot,
        ballot: Ballot,
        entry: Entry,
    },
    /// Messages carrying a commit index left a node: each ballot with the highest commit it
    /// sent at it ([`LogWorld::check_commits`]).
    Commits {
        node: NodeId,
        sent: Vec<(Ballot, Slot)>,
    },
    /// Accepts left a node at its own ballot ([`LogWorld::check_proposals`]).
    Proposals {
        node: NodeId,
        proposed: Vec<(Slot, Ballot, Entry)>,
    },
}

//! One node of a matchmaker world as the world shares it ([`Node`]), the parts the fingerprint
//! hashes one by one ([`Part`]), and a delivery to a node worked out from the node and the
//! message alone ([`Node::step`]).

use super::config::MmRole;
use crate::fingerprint::part;
use paros_core::matchmaker::{
    Leader, Matchmaker, MatchmakerWrite, MmEnvelope, Reconfigurer, RetiringAcceptor,
};
use paros_core::{Ballot, NodeId};
use std::sync::Arc;

/// The parts of a world the fingerprint hashes one by one.
#[derive(Clone, Copy, Hash)]
pub(super) enum Part {
    Matchmaker(usize),
    Acceptor(usize),
    Leader(usize),
    /// With whom leader `index` matches, and whether it asked for garbage collection and sent
    /// its Retires.
    LeaderFlags(usize),
    Reconfigurer,
    SecondReplacement,
    Down,
    Budget,
    /// The votes cast in one round.
    Round(Ballot),
}

/// The reconfigurer's part of the fingerprint, or its absence's.
pub(super) fn reconfigurer_part(reconfigurer: Option<&Reconfigurer>) -> u64 {
    part(Part::Reconfigurer, &reconfigurer)
}

/// A node of the world, shared with the worlds it was copied from, by role and place.
#[derive(Clone, Debug)]
pub(super) enum Node {
    Matchmaker(usize, Arc<Matchmaker>),
    Acceptor(usize, Arc<RetiringAcceptor>),
    Leader(usize, Arc<Leader>),
    Reconfigurer(Arc<Reconfigurer>),
    /// A node id the world has no node for.
    Missing(NodeId),
}

/// Where a node sits in the world, by role and place.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Place {
    Matchmaker(usize),
    Acceptor(usize),
    Leader(usize),
    Reconfigurer,
    /// A node id the world has no node for.
    Missing(NodeId),
}

/// What one delivery did, before anything is shared.
pub(super) struct Stepped {
    pub(super) after: Node,
    pub(super) writes: Vec<MatchmakerWrite>,
    pub(super) sent: Vec<MmEnvelope>,
    pub(super) refused: Option<String>,
}

impl Node {
    /// Where this node sits.
    pub(super) fn place(&self) -> Place {
        match self {
            Node::Matchmaker(index, _) => Place::Matchmaker(*index),
            Node::Acceptor(index, _) => Place::Acceptor(*index),
            Node::Leader(index, _) => Place::Leader(*index),
            Node::Reconfigurer(_) => Place::Reconfigurer,
            Node::Missing(id) => Place::Missing(*id),
        }
    }

    /// This node's part of the world's fingerprint (0 for a missing one).
    pub(super) fn part(&self) -> u64 {
        match self {
            Node::Matchmaker(index, m) => part(Part::Matchmaker(*index), &**m),
            Node::Acceptor(index, a) => part(Part::Acceptor(*index), &**a),
            Node::Leader(index, l) => part(Part::Leader(*index), &**l),
            Node::Reconfigurer(r) => reconfigurer_part(Some(r)),
            Node::Missing(_) => 0,
        }
    }

    /// The node steps on `envelope`: a matchmaker's writes and replies, an acceptor's reply, a
    /// leader's or the reconfigurer's messages, or why it took no step. Reads nothing else.
    pub(super) fn step(&self, envelope: &MmEnvelope) -> Stepped {
        let mut writes = Vec::new();
        let mut sent = Vec::new();
        let (after, handled) = match self {
            Node::Matchmaker(index, matchmaker) => {
                let mut matchmaker = Matchmaker::clone(matchmaker);
                let handled = matchmaker.handle(envelope).map_err(|why| why.to_string());
                (writes, sent) = matchmaker.take_ready();
                (Node::Matchmaker(*index, Arc::new(matchmaker)), handled)
            }
            Node::Acceptor(index, acceptor) => {
                let mut acceptor = RetiringAcceptor::clone(acceptor);
                let handled = match acceptor.handle(envelope) {
                    Ok(reply) => {
                        sent.extend(reply);
                        Ok(())
                    }
                    Err(why) => Err(why.to_string()),
                };
                (Node::Acceptor(*index, Arc::new(acceptor)), handled)
            }
            Node::Leader(index, leader) => {
                let mut leader = Leader::clone(leader);
                let handled = leader.handle(envelope).map_err(|why| why.to_string());
                sent = leader.take_messages();
                (Node::Leader(*index, Arc::new(leader)), handled)
            }
            Node::Reconfigurer(reconfigurer) => {
                let mut reconfigurer = Reconfigurer::clone(reconfigurer);
                let handled = reconfigurer.handle(envelope).map_err(|why| why.to_string());
                sent = reconfigurer.take_messages();
                (Node::Reconfigurer(Arc::new(reconfigurer)), handled)
            }
            Node::Missing(id) => (
                Node::Missing(*id),
                Err(format!("{} is not a node of this world", MmRole::name(*id))),
            ),
        };
        Stepped {
            after,
            writes,
            sent,
            refused: handled.err(),
        }
    }
}

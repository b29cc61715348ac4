//! An acceptor of Matchmaker Paxos: paros-core's single-decree [`Acceptor`], which a removed
//! acceptor stays until it is retired with the proof of M5.

use super::{GcProof, MmEnvelope, MmMessage};
use crate::{Acceptor, Envelope, Ignored, NodeId};
use std::fmt;

/// Why an acceptor took no step on a message.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RetireRefused {
    /// Not a message for this acceptor, or the acceptor is retired.
    Ignored(Ignored),
    /// M5: the proof names this acceptor among those that remain, so it is not removed.
    StillInConfiguration,
}

impl From<Ignored> for RetireRefused {
    fn from(ignored: Ignored) -> RetireRefused {
        RetireRefused::Ignored(ignored)
    }
}

impl fmt::Display for RetireRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RetireRefused::Ignored(ignored) => ignored.fmt(f),
            RetireRefused::StillInConfiguration => {
                f.write_str("this acceptor is in the configuration that remains (M5)")
            }
        }
    }
}

impl std::error::Error for RetireRefused {}

/// A single-decree [`Acceptor`] that can be retired.
///
/// Until it is retired it answers Phase 1 and Phase 2 exactly as the acceptor it wraps, even
/// once no configuration names it: a leader whose history still holds an old configuration
/// needs that configuration's Phase-1 quorum (M3). It retires only on a
/// [`Retire`](MmMessage::Retire) carrying a [`GcProof`] that does not name it among those that
/// remain (M5), and then answers nothing.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct RetiringAcceptor {
    acceptor: Acceptor,
    /// The proof it retired on, if it did.
    retired: Option<GcProof>,
}

impl RetiringAcceptor {
    /// A fresh acceptor: no promise, no vote, not retired.
    pub fn new(id: NodeId) -> RetiringAcceptor {
        RetiringAcceptor {
            acceptor: Acceptor::new(id),
            retired: None,
        }
    }

    /// This acceptor's id.
    pub fn id(&self) -> NodeId {
        self.acceptor.id()
    }

    /// The single-decree acceptor inside: its promise and its vote.
    pub fn acceptor(&self) -> &Acceptor {
        &self.acceptor
    }

    /// The proof this acceptor retired on, if it did.
    pub fn retired(&self) -> Option<&GcProof> {
        self.retired.as_ref()
    }

    /// Handles a message addressed to this acceptor; returns its reply, if any.
    pub fn handle(&mut self, envelope: &MmEnvelope) -> Result<Option<MmEnvelope>, RetireRefused> {
        if envelope.to != self.id() {
            return Err(Ignored::NotAddressedToMe.into());
        }
        if self.retired.is_some() {
            return Err(Ignored::Retired.into());
        }
        match &envelope.message {
            MmMessage::Paxos(message) => {
                let single_decree = Envelope {
                    from: envelope.from,
                    to: envelope.to,
                    message: message.clone(),
                };
                let reply = self.acceptor.handle(&single_decree)?;
                Ok(Some(MmEnvelope::paxos(reply)))
            }
            MmMessage::Retire { proof } => {
                if proof.remaining().contains(self.id()) {
                    return Err(RetireRefused::StillInConfiguration);
                }
                self.retired = Some(*proof);
                Ok(None)
            }
            _ => Err(Ignored::NotForThisRole.into()),
        }
    }
}

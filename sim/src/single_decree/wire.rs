//! Messages in flight as Act I's world stores them: plain numbers, so that copying a world
//! copies its messages byte for byte, with no reference count to touch and nothing to free.
//!
//! A value travels as the place of the first proposer whose own value it is. Every value in an
//! Act I message is some proposer's own value: a proposer sends its own value or one a Promise
//! reported, an acceptor reports and votes only for values an Accept carried, and nothing else
//! puts a message on the wire. The one exception is the rogue-value negative control's
//! [`rogue_value`], which travels as a place no proposer has.

use super::config::{ProposerConfig, rogue_value};
use super::renaming::Renaming;
use crate::network::Route;
use paros_core::{Ballot, Envelope, Message, NodeId, Value, Vote};

/// The place the rogue value travels as: no proposer's, since a world has at most 63 nodes.
const ROGUE_PLACE: u8 = u8::MAX;

/// One envelope, packed. Two packed envelopes are equal exactly when the envelopes are.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct PackedEnvelope {
    from: NodeId,
    to: NodeId,
    kind: Kind,
    /// The value of an Accept, an Accepted or a Promise's vote, as a proposer's place; else 0.
    value: u8,
    /// The message's ballot.
    ballot: Ballot,
    /// A Promise's vote ballot or a Nack's promised ballot; else the message's ballot.
    other: Ballot,
}

/// The kind of a packed message; a Promise with a vote is told apart from one without.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Kind {
    Prepare,
    Promise,
    PromiseWithVote,
    Accept,
    Accepted,
    Nack,
}

impl PackedEnvelope {
    /// Packs `envelope`, whose values are the own values of `proposers`.
    ///
    /// # Panics
    ///
    /// If a value is neither a proposer's own value nor the rogue value, which no Act I world
    /// can send (see the module docs).
    pub(crate) fn pack(envelope: &Envelope, proposers: &[ProposerConfig]) -> PackedEnvelope {
        let place = |value: &Value| {
            let Some(place) = (proposers.iter()).position(|proposer| proposer.value == *value)
            else {
                assert!(
                    *value == rogue_value(),
                    "every value in flight is some proposer's own value"
                );
                return ROGUE_PLACE;
            };
            u8::try_from(place).expect("at most 63 nodes")
        };
        let (kind, value, other) = match &envelope.message {
            Message::Prepare { ballot } => (Kind::Prepare, 0, *ballot),
            Message::Promise {
                ballot,
                accepted: None,
            } => (Kind::Promise, 0, *ballot),
            Message::Promise {
                accepted: Some(vote),
                ..
            } => (Kind::PromiseWithVote, place(&vote.value), vote.ballot),
            Message::Accept { ballot, value } => (Kind::Accept, place(value), *ballot),
            Message::Accepted { ballot, value } => (Kind::Accepted, place(value), *ballot),
            Message::Nack { promised, .. } => (Kind::Nack, 0, *promised),
        };
        PackedEnvelope {
            from: envelope.from,
            to: envelope.to,
            kind,
            value,
            ballot: envelope.message.ballot(),
            other,
        }
    }

    /// The envelope this packs, with its values taken from `proposers`.
    pub(crate) fn unpack(&self, proposers: &[ProposerConfig]) -> Envelope {
        let value = || match self.value {
            ROGUE_PLACE => rogue_value(),
            place => proposers[usize::from(place)].value.clone(),
        };
        let ballot = self.ballot;
        let message = match self.kind {
            Kind::Prepare => Message::Prepare { ballot },
            Kind::Promise => Message::Promise {
                ballot,
                accepted: None,
            },
            Kind::PromiseWithVote => Message::Promise {
                ballot,
                accepted: Some(Vote {
                    ballot: self.other,
                    value: value(),
                }),
            },
            Kind::Accept => Message::Accept {
                ballot,
                value: value(),
            },
            Kind::Accepted => Message::Accepted {
                ballot,
                value: value(),
            },
            Kind::Nack => Message::Nack {
                ballot,
                promised: self.other,
            },
        };
        Envelope {
            from: self.from,
            to: self.to,
            message,
        }
    }

    /// This envelope with its sender and receiver renamed. Ballots belong to proposers, which
    /// no renaming moves, so nothing else changes.
    pub(crate) fn renamed(&self, renaming: &Renaming) -> PackedEnvelope {
        PackedEnvelope {
            from: renaming.node(self.from),
            to: renaming.node(self.to),
            ..*self
        }
    }

    /// The message's kind: `Prepare`, `Promise`, ...
    pub(crate) fn kind(&self) -> &'static str {
        match self.kind {
            Kind::Prepare => "Prepare",
            Kind::Promise | Kind::PromiseWithVote => "Promise",
            Kind::Accept => "Accept",
            Kind::Accepted => "Accepted",
            Kind::Nack => "Nack",
        }
    }
}

impl Route for PackedEnvelope {
    fn from(&self) -> NodeId {
        self.from
    }

    fn to(&self) -> NodeId {
        self.to
    }
}

#[cfg(test)]
mod tests {
    use super::PackedEnvelope;
    use crate::single_decree::ProposerConfig;
    use paros_core::{Ballot, Envelope, Message, NodeId, Value, Vote};

    #[test]
    fn every_kind_of_message_unpacks_to_itself() {
        // Proves packing loses nothing: each message kind, with values from either proposer,
        // comes back equal, and different messages pack differently.
        let proposers: Vec<ProposerConfig> = ["x", "y"]
            .iter()
            .map(|value| ProposerConfig {
                value: Value::new(value),
                started: true,
            })
            .collect();
        let node = |id| NodeId::new(id).unwrap();
        let (low, high) = (Ballot::new(1, node(4)), Ballot::new(2, node(5)));
        let messages = [
            Message::Prepare { ballot: high },
            Message::Promise {
                ballot: high,
                accepted: None,
            },
            Message::Promise {
                ballot: high,
                accepted: Some(Vote {
                    ballot: low,
                    value: Value::new("x"),
                }),
            },
            Message::Promise {
                ballot: high,
                accepted: Some(Vote {
                    ballot: low,
                    value: Value::new("y"),
                }),
            },
            Message::Accept {
                ballot: high,
                value: Value::new("y"),
            },
            Message::Accepted {
                ballot: high,
                value: Value::new("x"),
            },
            Message::Nack {
                ballot: low,
                promised: high,
            },
        ];
        let envelopes: Vec<Envelope> = (messages.into_iter())
            .map(|message| Envelope {
                from: node(1),
                to: node(5),
                message,
            })
            .collect();
        let packed: Vec<PackedEnvelope> = (envelopes.iter())
            .map(|envelope| PackedEnvelope::pack(envelope, &proposers))
            .collect();
        for (envelope, packed) in envelopes.iter().zip(&packed) {
            assert_eq!(&packed.unpack(&proposers), envelope);
        }
        for (at, one) in packed.iter().enumerate() {
            assert!(packed[at + 1..].iter().all(|other| other != one), "{one:?}");
        }
    }
}

//! Proxy leaders: the leader's Phase 2 handed to stateless helpers, as in Compartmentalized
//! Paxos (Whittaker et al., "Scaling Replicated State Machines with Compartmentalization",
//! PVLDB 14(11), 2021, section 3).
//!
//! A Multi-Paxos leader sends every Accept to every acceptor and counts every Accepted: its
//! work per command grows with the cluster, and it is the bottleneck. With proxies, the leader
//! sends each Accept to one [`ProxyLeader`], which sends it on to the acceptors, counts their
//! Accepteds and tells the leader once the slot is chosen. Five rules keep that safe:
//!
//! - **P1** a proxy forwards the leader's Accept unchanged and keeps its state by (slot,
//!   ballot); it de-duplicates the counting, never the forwarding: an Accept it already holds
//!   goes again to the acceptors not yet counted, or, once announced, brings the announcement
//!   again to its sender ([`forward_unchanged`], [`answer_to_repeat`], [`ProxyLeader::handle`]);
//! - **P2** it announces a slot chosen only after a Phase-2 quorum of Accepteds for exactly
//!   that (slot, ballot), counted per distinct acceptor ([`proxy_may_announce`]);
//! - **P3** acceptors send Nacks to the leader itself, never to a proxy ([`nack_goes_to`]);
//! - **P4** a leader that sends a slot again, through another proxy, sends the identical
//!   entry ([`resend_is_identical`], [`proxy_for`]);
//! - **P5** a proxy holds no safety state: its [`Ready`] never has a write, and a proxy that
//!   crashes is only the messages it had not yet sent ([`ProxyLeader::restart`]); a lost
//!   message is no worse, since the leader's next resend through any proxy sends it again.

#[cfg(feature = "negative-controls")]
use crate::log::BrokenRule;
use crate::log::{Entry, LogConfig, LogEnvelope, LogMessage, Ready, Slot};
use crate::{Ballot, Ignored, NodeId, NodeSet, Quorums, is_chosen_in_slot};
use std::collections::BTreeMap;

/// P1: the proxy's copies of the leader's `accept`, one to each acceptor, unchanged.
///
/// A proxy adds nothing and decides nothing: the value, the ballot and the leader's commit
/// index reach the acceptors exactly as the leader sent them, so an acceptor votes as if the
/// leader had sent it the Accept itself.
pub fn forward_unchanged(
    proxy: NodeId,
    accept: &LogMessage,
    acceptors: NodeSet,
) -> Vec<LogEnvelope> {
    acceptors
        .iter()
        .map(|to| LogEnvelope {
            from: proxy,
            to,
            message: accept.clone(),
        })
        .collect()
}

/// P1 for a repeat: what a proxy does with a leader's Accept for a (slot, ballot) it already
/// holds (a resend at a beat, a duplicate, or a handoff's successor sending the slot again).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Repeat {
    /// Forward the Accept again, unchanged, to these acceptors: the ones not yet counted.
    Forward(NodeSet),
    /// Announce the slot chosen again, to the Accept's sender.
    Announce,
}

/// P1 for a repeat: the answer to an Accept for a (slot, ballot) a proxy already holds, whose
/// Accepteds came from `accepted_by` of `acceptors`, and which it has `announced` or not.
///
/// Counting is de-duplicated, forwarding is not. A forward, its Accepted or the announcement
/// may have been lost, and the leader's resend is the only thing that sends it again: a proxy
/// that dropped a repeat would stall the slot for ever over one lost message. So a repeat goes
/// to every acceptor not yet counted (each is counted once however often it answers, P2), and
/// once the slot is announced, the announcement goes again, to whoever sent the repeat: the
/// leader, or the successor it handed its ballot to.
pub fn answer_to_repeat(acceptors: NodeSet, accepted_by: NodeSet, announced: bool) -> Repeat {
    if announced {
        Repeat::Announce
    } else {
        Repeat::Forward(acceptors.difference(accepted_by))
    }
}

/// P2: whether a proxy may announce `slot` chosen, given the distinct acceptors that sent it
/// an Accepted for exactly (slot, ballot): only once they are a Phase-2 quorum for that slot,
/// judged by the cluster's own quorum system ([`crate::is_chosen_in_slot`], so a grid counts
/// the slot's column).
///
/// Accepteds of two ballots never count together: a vote at one ballot is for that ballot's
/// value, and a quorum split between two ballots chose nothing.
pub fn proxy_may_announce(
    quorums: &Quorums,
    slot: Slot,
    accepted_at_slot_and_ballot: NodeSet,
) -> bool {
    is_chosen_in_slot(quorums, slot, accepted_at_slot_and_ballot)
}

/// P3: where an acceptor sends its refusal of an Accept at `ballot` that `sender` brought: to
/// the ballot's owner when the sender is one of the cluster's `proxies`, else to the sender.
///
/// Only the leader can act on a refusal (step down, stand again higher); a proxy would drop it,
/// and the leader would go on proposing at a ballot no one accepts.
pub fn nack_goes_to(sender: NodeId, ballot: Ballot, proxies: NodeSet) -> NodeId {
    if proxies.contains(sender) {
        ballot.node
    } else {
        sender
    }
}

/// P4: whether a leader may send `resend` for a (slot, ballot) at which it already sent `sent`:
/// only if the two are identical.
///
/// Proxies make resending common (the first proxy may have crashed), and each resend may take
/// another proxy. Two entries at one (slot, ballot) would let two proxies each see a quorum for
/// a different value, both at the same ballot: two values chosen in one slot.
pub fn resend_is_identical(sent: &Entry, resend: &Entry) -> bool {
    sent == resend
}

/// The proxy that carries the `attempt`-th sending (0 for the first) of `slot`'s Accept:
/// round-robin over `proxies` by slot, the next proxy for each resend, so a crashed proxy is
/// passed by. `None` when there are no proxies.
pub fn proxy_for(proxies: NodeSet, slot: Slot, attempt: u64) -> Option<NodeId> {
    let count = proxies.len() as u64;
    if count == 0 {
        return None;
    }
    let index = slot.0.wrapping_add(attempt) % count;
    proxies.iter().nth(usize::try_from(index).ok()?)
}

/// What a proxy knows of one (slot, ballot): volatile, rebuilt by the leader's next resend.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct ProxySlot {
    /// The node that sent the latest Accept: it gets the announcement. After a handoff, the
    /// successor's resend makes it the successor.
    leader: NodeId,
    /// The entry the Accept carried.
    entry: Entry,
    /// The distinct acceptors that answered Accepted for this (slot, ballot).
    accepted_by: NodeSet,
    /// Whether the choice was announced.
    announced: bool,
}

/// A proxy leader: forwards a leader's Accepts to the acceptors, counts their Accepteds and
/// announces each slot chosen to the leader (P1–P5). Deterministic and sans-IO, like
/// [`ColocatedNode`](crate::log::ColocatedNode): each input leaves its messages in a [`Ready`].
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ProxyLeader {
    id: NodeId,
    config: LogConfig,
    /// P1: the proxy's state, by (slot, ballot).
    slots: BTreeMap<(Slot, Ballot), ProxySlot>,
    ready: Ready,
    /// A rule this proxy breaks on purpose, for a negative control.
    #[cfg(feature = "negative-controls")]
    broken: Option<BrokenRule>,
}

impl ProxyLeader {
    /// A proxy for the cluster of `config`: its acceptors are `config.nodes`.
    pub fn new(id: NodeId, config: LogConfig) -> ProxyLeader {
        ProxyLeader {
            id,
            config,
            slots: BTreeMap::new(),
            ready: Ready::default(),
            #[cfg(feature = "negative-controls")]
            broken: None,
        }
    }

    /// P5: a proxy after a crash is a new proxy. It has no disk to read back, and needs none:
    /// what it lost is the Accepteds it had counted, which the leader's resend through another
    /// proxy gathers again, and the messages it had not sent, which a network may lose anyway.
    pub fn restart(id: NodeId, config: LogConfig) -> ProxyLeader {
        ProxyLeader::new(id, config)
    }

    /// Makes this proxy break `rule` from now on: a negative control.
    #[cfg(feature = "negative-controls")]
    pub fn break_rule(&mut self, rule: BrokenRule) {
        self.broken = Some(rule);
    }

    /// Whether this proxy breaks `rule`.
    #[cfg(feature = "negative-controls")]
    fn breaks(&self, rule: BrokenRule) -> bool {
        self.broken == Some(rule)
    }

    /// This proxy's id.
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The (slot, ballot) pairs this proxy holds state for, with the acceptors counted so far.
    pub fn counted(&self) -> impl Iterator<Item = (Slot, Ballot, NodeSet)> + '_ {
        self.slots
            .iter()
            .map(|((slot, ballot), state)| (*slot, *ballot, state.accepted_by))
    }

    /// Takes the output since the last call. P5: it never holds a write, so its messages are
    /// released with [`Persisted::nothing`](crate::log::Persisted::nothing).
    pub fn take_ready(&mut self) -> Ready {
        std::mem::take(&mut self.ready)
    }

    /// Handles one message: a leader's Accept or an acceptor's Accepted.
    pub fn handle(&mut self, envelope: &LogEnvelope) -> Result<(), Ignored> {
        if envelope.to != self.id {
            return Err(Ignored::NotAddressedToMe);
        }
        if !self.config.nodes.contains(envelope.from) {
            return Err(Ignored::UnknownSender);
        }
        match &envelope.message {
            LogMessage::Accept {
                ballot,
                slot,
                entry,
                commit,
            } => {
                let acceptors = self.on_accept(envelope.from, *ballot, *slot, entry, *commit)?;
                let forwarded = forward_unchanged(self.id, &envelope.message, acceptors);
                self.ready.messages.extend(forwarded);
                Ok(())
            }
            LogMessage::Accepted { ballot, slot } => {
                self.on_accepted(envelope.from, *ballot, *slot)
            }
            _ => Err(Ignored::NotForThisRole),
        }
    }

    /// P1: records the Accept under its (slot, ballot) and returns the acceptors to forward it
    /// to: all of them the first time; for a repeat, those [`answer_to_repeat`] names, the
    /// repeat's sender becoming the one announced to. Slots at or below the leader's commit
    /// index are chosen and known to the leader, so their state is dropped.
    fn on_accept(
        &mut self,
        leader: NodeId,
        ballot: Ballot,
        slot: Slot,
        entry: &Entry,
        commit: Slot,
    ) -> Result<NodeSet, Ignored> {
        self.slots.retain(|(held, _), _| *held > commit);
        if slot <= commit {
            return Err(Ignored::AlreadyAnnounced);
        }
        let key = (slot, ballot);
        if self.slots.contains_key(&key) {
            return self.on_repeat(leader, key, entry);
        }
        let state = ProxySlot {
            leader,
            entry: entry.clone(),
            accepted_by: self.counted_before(slot),
            announced: false,
        };
        self.slots.insert(key, state);
        Ok(self.config.nodes)
    }

    /// P1 for a repeat of the (slot, ballot) `key`, sent by `sender` ([`answer_to_repeat`]):
    /// the acceptors to forward it to, or none when the announcement goes again instead.
    fn on_repeat(
        &mut self,
        sender: NodeId,
        key: (Slot, Ballot),
        entry: &Entry,
    ) -> Result<NodeSet, Ignored> {
        #[cfg(feature = "negative-controls")]
        if self.breaks(BrokenRule::ProxyIgnoresRepeats) {
            return Err(Ignored::Duplicate);
        }
        let acceptors = self.config.nodes;
        let Some(state) = self.slots.get_mut(&key) else {
            return Err(Ignored::StaleBallot);
        };
        if state.entry != *entry {
            // P4: one entry per (slot, ballot); another one was never proposed there.
            return Err(Ignored::NotProposed);
        }
        state.leader = sender;
        match answer_to_repeat(acceptors, state.accepted_by, state.announced) {
            Repeat::Forward(to) => Ok(to),
            Repeat::Announce => {
                let announcement = self.announcement(key);
                self.ready.messages.extend(announcement);
                Ok(NodeSet::EMPTY)
            }
        }
    }

    /// The announcement that the (slot, ballot) `key` is chosen, to the node that sent its
    /// latest Accept.
    fn announcement(&self, key: (Slot, Ballot)) -> Option<LogEnvelope> {
        let state = self.slots.get(&key)?;
        let (slot, ballot) = key;
        Some(LogEnvelope {
            from: self.id,
            to: state.leader,
            message: LogMessage::SlotChosen {
                ballot,
                slot,
                entry: state.entry.clone(),
            },
        })
    }

    /// The Accepteds a new (slot, ballot) starts with: none, as its votes are its own.
    fn counted_before(&mut self, slot: Slot) -> NodeSet {
        #[cfg(feature = "negative-controls")]
        if self.breaks(BrokenRule::ProxyKeyedBySlot)
            && let Some(earlier) = self.take_any_ballot(slot)
        {
            // Keyed by slot alone: the earlier ballot's Accepteds stay counted.
            return earlier.accepted_by;
        }
        let _ = slot;
        NodeSet::EMPTY
    }

    /// An acceptor's vote: counted once per acceptor for exactly its (slot, ballot); on a
    /// Phase-2 quorum the leader that sent the Accept is told (P2).
    fn on_accepted(&mut self, from: NodeId, ballot: Ballot, slot: Slot) -> Result<(), Ignored> {
        let key = self.key_of(slot, ballot).ok_or(Ignored::StaleBallot)?;
        let quorums = *self.config.quorums();
        let state = self.slots.get_mut(&key).ok_or(Ignored::StaleBallot)?;
        if state.announced {
            return Err(Ignored::AlreadyAnnounced);
        }
        if !state.accepted_by.insert(from) {
            return Err(Ignored::Duplicate);
        }
        if proxy_may_announce(&quorums, slot, state.accepted_by) {
            state.announced = true;
            let announcement = self.announcement(key);
            self.ready.messages.extend(announcement);
        }
        Ok(())
    }

    /// The state an Accepted for (slot, ballot) counts toward: exactly that pair's.
    fn key_of(&self, slot: Slot, ballot: Ballot) -> Option<(Slot, Ballot)> {
        #[cfg(feature = "negative-controls")]
        if self.breaks(BrokenRule::ProxyKeyedBySlot) {
            return self.slots.keys().find(|(held, _)| *held == slot).copied();
        }
        self.slots
            .contains_key(&(slot, ballot))
            .then_some((slot, ballot))
    }

    /// [`BrokenRule::ProxyKeyedBySlot`]: removes and returns the state held for `slot` at any
    /// ballot.
    #[cfg(feature = "negative-controls")]
    fn take_any_ballot(&mut self, slot: Slot) -> Option<ProxySlot> {
        let key = *self.slots.keys().find(|(held, _)| *held == slot)?;
        self.slots.remove(&key)
    }
}

//! The log world on the shared [`Network`](crate::network::Network): delivery to a node or a
//! client (with the negative controls that answer at once, and the one that takes an Accept
//! for a decision), the faults on messages and partitions, and a receiver busy with a `Ready`.

use super::knowledge::Effect;
use super::{Host, LogInFlight, LogWorld};
use crate::check::Property;
use crate::faults::{NegativeControl, Refused};
use crate::network::MessageId;
#[cfg(feature = "accept-batch")]
use paros_core::log::accept_run_slots;
use paros_core::log::{
    ColocatedNode, Entry, LogEnvelope, LogMessage, LogRole, Outcome, Slot, SlotMap, SlotVote,
};
use paros_core::{Ballot, Ignored, NodeId};
use std::num::NonZeroU16;
use std::sync::Arc;

impl LogWorld {
    /// Loses a deliverable message, if the budget allows.
    pub(super) fn drop_message(&mut self, message: MessageId) -> Result<(), Refused> {
        self.deliverable(message)?;
        self.network.drop_message(message, &mut self.budget_left)
    }

    /// Puts a second copy of a deliverable message in flight, if the budget allows.
    pub(super) fn duplicate(&mut self, message: MessageId) -> Result<(), Refused> {
        self.deliverable(message)?;
        self.network.duplicate(message, &mut self.budget_left)?;
        Ok(())
    }

    /// Cuts a node off from every other, if the budget allows.
    pub(super) fn partition(&mut self, node: NodeId) -> Result<(), Refused> {
        self.network.isolate(node, &mut self.budget_left)
    }

    /// Restores every cut link. With `cut_messages_lost`, what was in flight on a cut link is
    /// lost first.
    pub(super) fn heal(&mut self) -> Result<(), Refused> {
        let lost: Vec<MessageId> = if self.config.cut_messages_lost {
            (self.network.in_flight().iter())
                .filter(|message| self.network.is_cut(&message.envelope))
                .map(|message| message.id)
                .collect()
        } else {
            Vec::new()
        };
        self.network.heal()?;
        for message in lost {
            self.network.take(message);
        }
        Ok(())
    }

    pub(super) fn deliver(&mut self, message: MessageId) -> Result<(), Refused> {
        self.deliverable(message)?;
        let mut envelope = self.network.take(message);
        if let Ok(client) = self.client_index(envelope.to) {
            self.client_receives(client, &envelope.message);
            return Ok(());
        }
        if let Some(proxy) = self.proxy_index(envelope.to) {
            self.deliver_to_proxy(proxy, &envelope);
            return Ok(());
        }
        let index = self.server_index(envelope.to)?;
        let Host::Up(node) = &mut Arc::make_mut(&mut self.servers[index]).host else {
            return Ok(()); // delivered to a dead host: lost
        };
        let answers_from_applied = match self.config.negative_control {
            Some(NegativeControl::LocalRead) => true,
            Some(NegativeControl::ReadAtApplied) => node.role() == LogRole::Leader,
            _ => false,
        };
        if answers_from_applied && let LogMessage::Read { seq, key } = &envelope.message {
            let value = node.store().get(key).cloned();
            self.reply_at_once(&envelope, *seq, Outcome::Read(value));
            return Ok(());
        }
        if self.config.negative_control == Some(NegativeControl::LearnEarly)
            && let Some(entries) = learned_early(&envelope.message)
        {
            // Learn early: the node learns the entries chosen before it, or anyone, votes.
            let _ignored = node.handle(&LogEnvelope {
                from: envelope.from,
                to: envelope.to,
                message: LogMessage::Chosen { entries },
            });
        }
        if self.config.negative_control == Some(NegativeControl::TrimIgnoresFloor)
            && let LogMessage::Promise { floor, .. } = &envelope.message
            && *floor > Slot(0)
        {
            // The candidate never reads the floor: as if the Promise reported none.
            let mut blind = (*envelope).clone();
            if let LogMessage::Promise { floor, .. } = &mut blind.message {
                *floor = Slot(0);
            }
            envelope = Arc::new(blind);
        }
        let before_jump = match &envelope.message {
            LogMessage::TrimPoint { ballot, point } => {
                Some(JumpWitness::of(node, *ballot, point.through))
            }
            _ => None,
        };
        let beyond = beyond_window(node, self.config.slot_window, &envelope.message);
        let handoff_beyond =
            handoff_beyond_window(node, self.config.slot_window, &envelope.message);
        let taken = node.handle(&envelope);
        let voted_beyond = voted_beyond_window(node, beyond);
        let took_beyond = handoff_beyond.filter(|ballot| leads_at(node, *ballot));
        if let Some(witness) = before_jump
            && let Some(broke) = witness.broken_by(node)
        {
            let detail = self.jump_detail(envelope.to, witness.through, broke);
            self.effects
                .push(Effect::Violation(Property::JumpKeepsPromise, detail));
        }
        self.check_well_formed(&envelope, taken);
        if let Some((ballot, slot)) = voted_beyond {
            let detail = format!(
                "{} voted in slot {slot} at {}.{}, beyond its window of {} slots",
                self.name(envelope.to),
                ballot.round,
                self.name(ballot.node),
                self.config.slot_window.map_or(0, NonZeroU16::get)
            );
            self.effects
                .push(Effect::Violation(Property::WindowKept, detail));
        }
        if let Some(ballot) = took_beyond {
            let detail = format!(
                "{} took the handoff of {} beyond its window",
                self.name(envelope.to),
                self.ballot_name(ballot)
            );
            self.effects
                .push(Effect::Violation(Property::WindowKept, detail));
        }
        self.drain(index);
        if self.config.negative_control == Some(NegativeControl::EarlyAck)
            && let LogMessage::Write { seq, .. } = &envelope.message
        {
            self.reply_at_once(&envelope, *seq, Outcome::Written);
        }
        Ok(())
    }

    /// A negative control's reply, straight from the node a client's request reached.
    fn reply_at_once(&mut self, request: &LogEnvelope, seq: u64, outcome: Outcome) {
        self.put_in_flight(LogEnvelope {
            from: request.to,
            to: request.from,
            message: LogMessage::Reply { seq, outcome },
        });
    }

    /// Well-formed: a node that refused `envelope` as malformed turned an honest message away,
    /// since no node of the world forges one and no fault alters one.
    pub(super) fn check_well_formed(&mut self, envelope: &LogEnvelope, taken: Result<(), Ignored>) {
        let Err(refusal) = taken else {
            return;
        };
        if refused_as_malformed(refusal) {
            let detail = format!(
                "{} refused {}'s {} as malformed: {refusal}",
                self.name(envelope.to),
                self.name(envelope.from),
                envelope.message.kind()
            );
            self.effects
                .push(Effect::Violation(Property::WellFormed, detail));
        }
    }

    pub(super) fn put_in_flight(&mut self, envelope: LogEnvelope) {
        self.network.send(Arc::new(envelope));
    }

    /// The message, if the network can deliver it and its receiver is not busy.
    pub(super) fn deliverable(&self, message: MessageId) -> Result<&LogInFlight, Refused> {
        let in_flight = self.network.deliverable(message)?;
        if self.receiver_busy(in_flight.envelope.to) {
            return Err(Refused::Busy(in_flight.envelope.to));
        }
        Ok(in_flight)
    }

    pub(super) fn receiver_busy(&self, node: NodeId) -> bool {
        self.server_index(node)
            .is_ok_and(|index| self.servers[index].held.is_some())
    }
}

/// An Accept's or a run's ballot, and the slots it names beyond its receiver's window, each
/// with the ballot of the vote held there before it arrived.
type BeyondWindow = (Ballot, Vec<(Slot, Option<Ballot>)>);

/// The window rule as the world reads it: the ballot of an Accept or a run to `node` and the
/// slots it names beyond the node's window (its chosen index plus the configured `window`),
/// each with the ballot of the vote the node holds there before the message, if any.
fn beyond_window(
    node: &ColocatedNode,
    window: Option<NonZeroU16>,
    message: &LogMessage,
) -> Option<BeyondWindow> {
    let end = (node.chosen_index().0).saturating_add(u64::from(window?.get()));
    let (ballot, slots) = match message {
        LogMessage::Accept { ballot, slot, .. } => (*ballot, slot.0..=slot.0),
        #[cfg(feature = "accept-batch")]
        LogMessage::AcceptRun {
            ballot,
            first,
            entries,
            ..
        } => {
            let last = (first.0).saturating_add(entries.len().saturating_sub(1) as u64);
            (*ballot, first.0..=last)
        }
        _ => return None,
    };
    let held = |slot: Slot| node.accepts().get(&slot).map(|vote| vote.ballot);
    let beyond: Vec<_> = (slots.filter(|slot| *slot > end).map(Slot))
        .map(|slot| (slot, held(slot)))
        .collect();
    (!beyond.is_empty()).then_some((ballot, beyond))
}

/// The first slot of `beyond` ([`beyond_window`]) where `node` now holds a vote at the
/// message's ballot that it did not hold before: a vote cast beyond its window.
fn voted_beyond_window(
    node: &ColocatedNode,
    beyond: Option<BeyondWindow>,
) -> Option<(Ballot, Slot)> {
    let (ballot, slots) = beyond?;
    let now = |slot: &Slot| node.accepts().get(slot).map(|vote| vote.ballot);
    (slots.into_iter())
        .find(|(slot, before)| now(slot) == Some(ballot) && *before != Some(ballot))
        .map(|(slot, _)| (ballot, slot))
}

/// The ballot of a Handoff that `node` must ignore by the window rule: its next slot, where the
/// successor would propose, lies more than one past `node`'s window (its chosen index plus
/// `window`). A node already leading at that ballot took it while it was within the window,
/// which has only moved up since. Only with the `every-checker` feature.
#[cfg(feature = "every-checker")]
fn handoff_beyond_window(
    node: &ColocatedNode,
    window: Option<NonZeroU16>,
    message: &LogMessage,
) -> Option<Ballot> {
    let LogMessage::Handoff {
        ballot, next_slot, ..
    } = message
    else {
        return None;
    };
    let end = (node.chosen_index().0).saturating_add(u64::from(window?.get()));
    (next_slot.0 > end.saturating_add(1)).then_some(*ballot)
}

/// Without the `every-checker` feature, as in the game's build: none judged.
#[cfg(not(feature = "every-checker"))]
fn handoff_beyond_window(
    _node: &ColocatedNode,
    _window: Option<NonZeroU16>,
    _message: &LogMessage,
) -> Option<Ballot> {
    None
}

/// Whether `node` leads at `ballot`.
fn leads_at(node: &ColocatedNode, ballot: Ballot) -> bool {
    node.role() == LogRole::Leader && node.ballot() == Some(ballot)
}

/// Whether a node's refusal says the message itself is malformed, whoever sent it and whenever.
fn refused_as_malformed(refusal: Ignored) -> bool {
    match refusal {
        Ignored::MalformedHandoff => true,
        #[cfg(feature = "accept-batch")]
        Ignored::EmptyRun => true,
        _ => false,
    }
}

/// What T5 keeps across a jump: a promise that never falls and moves only up to the ballot the
/// trim point came with, and every vote above the trim point (and above any floor the walk
/// reaches right after it).
struct JumpWitness {
    through: Slot,
    came_with: Ballot,
    promised: Option<Ballot>,
    votes_above: SlotMap<SlotVote>,
}

impl JumpWitness {
    /// The node before it handles a trim point through `through` that came with `came_with`.
    fn of(node: &ColocatedNode, came_with: Ballot, through: Slot) -> JumpWitness {
        JumpWitness {
            through,
            came_with,
            promised: node.promised(),
            votes_above: node
                .accepts()
                .range(through.next()..)
                .map(|(slot, vote)| (*slot, vote.clone()))
                .collect(),
        }
    }

    /// What the jump broke, if it lowered the promise, moved it anywhere but up to the ballot
    /// the trim point came with, or changed a vote above the trim point.
    fn broken_by(&self, node: &ColocatedNode) -> Option<JumpBroke> {
        let raised = self.promised.max(Some(self.came_with));
        if node.promised() != self.promised && node.promised() != raised {
            return Some(JumpBroke::Promise {
                before: self.promised,
                after: node.promised(),
            });
        }
        // After the jump the walk may apply a later decided trim and drop more votes, by T2:
        // only the votes above both trim points are the jump's to keep.
        let kept_from = self.through.max(node.floor()).next();
        let votes_now = node.accepts().range(kept_from..);
        let votes_before = self.votes_above.range(kept_from..);
        (!votes_now.eq(votes_before)).then_some(JumpBroke::Votes)
    }
}

/// How a jump broke T5.
enum JumpBroke {
    /// The promise fell, or moved past the ballot the trim point came with.
    Promise {
        before: Option<Ballot>,
        after: Option<Ballot>,
    },
    /// A vote above the trim point changed.
    Votes,
}

impl LogWorld {
    /// T5's finding, in the world's names.
    fn jump_detail(&self, node: NodeId, through: Slot, broke: JumpBroke) -> String {
        let ballot = |ballot: Option<Ballot>| {
            ballot.map_or("nothing".to_string(), |b| {
                format!("{}.{}", b.round, self.name(b.node))
            })
        };
        let what = match broke {
            JumpBroke::Promise { before, after } => {
                format!(
                    "its promise moved from {} to {}",
                    ballot(before),
                    ballot(after)
                )
            }
            JumpBroke::Votes => "its votes above it changed".to_string(),
        };
        format!(
            "{} installed a trim point through slot {through} and {what}",
            self.name(node)
        )
    }
}

/// What the learn-early control takes for chosen on an Accept or a run's arrival: every entry
/// it proposes, at its ballot.
pub(super) fn learned_early(message: &LogMessage) -> Option<Vec<(Slot, SlotVote)>> {
    let vote = |ballot: Ballot, entry: &Entry| SlotVote {
        ballot,
        entry: entry.clone(),
    };
    match message {
        LogMessage::Accept {
            ballot,
            slot,
            entry,
            ..
        } => Some(vec![(*slot, vote(*ballot, entry))]),
        #[cfg(feature = "accept-batch")]
        LogMessage::AcceptRun {
            ballot,
            first,
            entries,
            ..
        } => Some(
            accept_run_slots(*first, entries)
                .map(|(slot, entry)| (slot, vote(*ballot, entry)))
                .collect(),
        ),
        _ => None,
    }
}

//! The node's edges: what may come in and how what goes out is addressed.
//!
//! Invariants: a message from outside the cluster is handled only if it is a client request, or
//! an Accept or an announcement from one of the configuration's proxy leaders
//! ([`ColocatedNode::knows_sender`]); no message naming a slot beyond the node's window is acted
//! on (the window rule, [`window_end`], at entry: [`ColocatedNode::check_window`]); every
//! message leaves through the node's `Ready`, after the writes it waits for.

use super::ColocatedNode;
use super::window::{HIGHEST_SLOT, window_end};
#[cfg(feature = "accept-batch")]
use crate::log::Slot;
use crate::log::{LogEnvelope, LogMessage};
use crate::{Ballot, Ignored, NodeId};

impl ColocatedNode {
    pub(super) fn refuse(&mut self, to: NodeId, ballot: Ballot) {
        let promised = self.acceptor.promised.expect("a refusal implies a promise");
        self.send(to, LogMessage::Nack { ballot, promised });
    }

    pub(super) fn send(&mut self, to: NodeId, message: LogMessage) {
        self.ready.messages.push(LogEnvelope {
            from: self.id,
            to,
            message,
        });
    }

    /// Whether `from` may send `message`: a node of the cluster anything, a proxy leader only
    /// the Accepts it forwards and its announcements.
    pub(super) fn knows_sender(&self, from: NodeId, message: &LogMessage) -> bool {
        self.config.nodes.contains(from)
            || (self.config.proxies.contains(from)
                && matches!(
                    message,
                    LogMessage::Accept { .. } | LogMessage::SlotChosen { .. }
                ))
    }

    pub(super) fn broadcast(&mut self, message: LogMessage) {
        let nodes: Vec<NodeId> = self.config.nodes.iter().collect();
        for to in nodes {
            self.send(to, message.clone());
        }
    }

    /// The window rule at message entry: `Ignored::BeyondWindow` for a message that names a slot
    /// this node would act on beyond [`window_end`] of its chosen index, or a trim point above
    /// [`HIGHEST_SLOT`]. A Promise's votes are held against its floor when that is higher: the
    /// candidate proposes only above the highest floor reported.
    pub(super) fn check_window(&self, message: &LogMessage) -> Result<(), Ignored> {
        let window = self.config.slot_window;
        let end = window_end(self.learner.chosen_index, window);
        let within = match message {
            LogMessage::Accept { slot, .. } => *slot <= end,
            #[cfg(feature = "accept-batch")]
            LogMessage::AcceptRun { first, entries, .. } => (first.0)
                .checked_add(entries.len().saturating_sub(1) as u64)
                .is_some_and(|last| Slot(last) <= end),
            LogMessage::Promise {
                floor,
                votes,
                unknown,
                ..
            } => {
                let end = window_end(self.learner.chosen_index.max(*floor), window);
                *floor <= HIGHEST_SLOT
                    && votes.iter().all(|(slot, _)| *slot <= end)
                    && unknown.iter().all(|slot| *slot <= end)
            }
            LogMessage::HeartbeatAck {
                highest_accepted, ..
            } => *highest_accepted <= end,
            LogMessage::Chosen { entries } => entries.iter().all(|(slot, _)| *slot <= end),
            LogMessage::TrimPoint { point, .. } => point.through <= HIGHEST_SLOT,
            LogMessage::Handoff {
                next_slot,
                in_flight,
                ..
            } => *next_slot <= end.next() && in_flight.iter().all(|(slot, _)| *slot <= end),
            _ => true,
        };
        if within {
            Ok(())
        } else {
            Err(Ignored::BeyondWindow)
        }
    }
}

//! The slot window: how far above its own state a message may name a slot.
//!
//! A message's numbers are the sender's word, and a node that let them drive its work would do
//! as much as a number says: a no-op for every slot up to a reported vote, a loop over every slot
//! of a run, a map of votes spanning every slot between two of them. So each number a node acts
//! on is first held against its own state. A slot it would vote in, learn, fill or propose must
//! lie in its window: no more than [`LogConfig::slot_window`] slots above its chosen index (the
//! floor a Promise reports stands in for it there, as decided state), and never above
//! [`HIGHEST_SLOT`]. A message that names a slot beyond it is [`Ignored::BeyondWindow`], as if
//! lost. Then the work of any input is bounded by the window and by what the input and the node
//! hold, never by the input's numbers.
//!
//! It works as the flow control replicated logs bound their pipelines with (raft-rs's
//! `max_inflight_msgs`): a follower more than a window
//! behind votes again once catch-up or a trim point brings its chosen index up, and a leader
//! more than a window ahead of its own chosen index resends at each beat until the window moves.
//! Ignoring is always safe: a node that takes no step on a message is a node the message has
//! not reached yet.

use super::ColocatedNode;
use crate::Ignored;
use crate::log::{LogConfig, LogMessage, Slot};
use std::num::NonZeroU64;

/// The slot window of [`LogConfig::new`]: far above any pipeline or catch-up batch a cluster
/// sends, so no node in step with its cluster ever meets it.
pub const DEFAULT_SLOT_WINDOW: u64 = 1 << 12;

/// The highest slot a node holds anything in: half the slot space, so that every sum the node
/// makes above a slot it holds (the window above its chosen index, the slot after it, the last
/// slot of a run) is far from overflowing.
pub const HIGHEST_SLOT: Slot = Slot(u64::MAX / 2);

/// The window rule: the highest slot a message may name to a node whose state stands at
/// `state` (its chosen index, or a floor a Promise reports), with a window of `window` slots.
pub fn window_end(state: Slot, window: u64) -> Slot {
    Slot(state.0.saturating_add(window).min(HIGHEST_SLOT.0))
}

/// The catch-up rule: the highest slot a `Chosen` may carry to a lagging node whose chosen
/// index is `theirs`, from a sender whose own chosen index is `ours`: no further than the
/// lagging node's window ([`window_end`] of `theirs`). Its chosen index only rises, so every
/// entry sent lies in its window when it arrives, and catch-up works whatever the window and
/// the catch-up batch.
pub fn catch_up_end(theirs: Slot, ours: Slot, window: u64) -> Slot {
    ours.min(window_end(theirs, window))
}

impl LogConfig {
    /// This configuration with a slot window of `window`: a message naming a slot more than
    /// `window` above a node's chosen index is ignored ([`window_end`]). Catch-up works with any
    /// window ([`catch_up_end`]); keep it at or above the accept batch, or runs are refused.
    pub fn with_slot_window(self, window: NonZeroU64) -> LogConfig {
        LogConfig {
            slot_window: window.get(),
            ..self
        }
    }

    /// How far above its chosen index a message may name a slot to a node
    /// ([`DEFAULT_SLOT_WINDOW`] unless set).
    pub fn slot_window(&self) -> u64 {
        self.slot_window
    }
}

impl ColocatedNode {
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

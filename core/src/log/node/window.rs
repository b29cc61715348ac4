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

use crate::log::Slot;
use std::ops::RangeInclusive;

/// The slot window of [`LogConfig::new`]: far above any pipeline or catch-up batch a cluster
/// sends, so no node in step with its cluster ever meets it.
///
/// [`LogConfig::new`]: crate::log::LogConfig::new
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

/// The lagging-candidate rule: the chosen slots a node sends, ahead of its Promise, to a
/// candidate whose Prepare asks from `from_slot` (the candidate is chosen through the slot
/// before it), when this node is chosen through `ours` and its Promise names slots up to
/// `highest_named`: none unless that lies beyond the candidate's window ([`window_end`]); then
/// every slot above the candidate's chosen index up to its window ([`catch_up_end`]), a batch
/// at a time.
///
/// A Promise reports every vote from `from_slot` on, and the candidate ignores one that names a
/// slot beyond its window (the window rule). A candidate that lags its followers by more than
/// its window would then never finish Phase 1, and where no other node stands (its followers
/// promised it, so they hear a candidate, not silence) it would stand again and again for
/// ever. Taught what its followers know chosen, it moves its window up to their votes: the
/// Chosen leaves first, so a candidate that lags by no more than a batch counts the Promise
/// behind it, and each election brings a further one a batch closer. A Promise that fits the
/// window is counted as it is, so the rule sends nothing then: a cluster in step with its
/// window never sees it.
pub fn teach_a_lagging_candidate(
    from_slot: Slot,
    ours: Slot,
    highest_named: Slot,
    window: u64,
) -> Option<RangeInclusive<Slot>> {
    let theirs = Slot(from_slot.0.saturating_sub(1));
    if highest_named <= window_end(theirs, window) {
        return None;
    }
    let end = catch_up_end(theirs, ours, window);
    (from_slot <= end).then_some(from_slot..=end)
}

//! The replicated log: Multi-Paxos with a stable leader, durable storage and linearizable reads.
//!
//! - [`ColocatedNode`] plays proposer, acceptor and learner over a log of [`Slot`]s.
//! - [`Ready`] carries each step's durable [`Write`]s and the messages that wait for them.
//! - [`DurableRecord`] is what survives a crash; [`encode`] and [`decode`] frame it on disk;
//!   [`ColocatedNode::boot`] refuses a provisioned node whose disk is missing or unreadable.
//! - [`SlotMap`] keeps a node's per-slot records (votes, chosen entries) dense, in slot order.
//! - [`KvStore`] is the replicated state machine, with client sessions.
//! - [`TrimPoint`] is the log compacted by a decided [`Entry::Trim`]: the floor, and the jump
//!   that catches up a node stranded below it.
//! - With the `accept-batch` feature, `LogConfig::with_accept_batch` lets a leader send a run
//!   of consecutive slots in one `LogMessage::AcceptRun`, answered by one
//!   `LogMessage::AcceptedRun`. The game leaves it off: no level batches.
//! - [`ProxyLeader`] takes a leader's Phase 2 off its hands: it forwards the Accepts, counts the
//!   Accepteds and announces each choice (Compartmentalized Paxos, P1–P5).

mod boot;
pub(crate) mod durable;
mod kv;
mod message;
mod node;
mod proxy;
mod ready;
mod slot_map;
mod trim;
mod types;

pub use boot::{BootRefused, Booted, Provisioning, first_write_torn};
pub use durable::{
    CheckedHeader, DurableRecord, FrameError, FrameRead, Persisted, RecordError, RecordLabel,
    Write, check_header, decode, encode, read_frame,
};
pub use kv::KvStore;
pub use message::{LogEnvelope, LogMessage, Outcome};
#[cfg(feature = "negative-controls")]
pub use node::BrokenRule;
#[cfg(feature = "accept-batch")]
pub use node::{AcceptBatchRefused, accept_run_slots, joins_the_run, voted_runs};
pub use node::{
    ColocatedNode, DEFAULT_SLOT_WINDOW, Election, HIGHEST_SLOT, HandoffRefused, LogConfig, LogRole,
    PendingRead, Proposal, ProxiesRefused, SlotWindowRefused, catch_up_end,
    chosen_by_a_recording_quorum, fill_up_to, heard_from_a_discovery_quorum, in_flight_at_handoff,
    leader_fills_its_own_stale_tail, learning_raises_the_promise, phase1_complete,
    promise_deposes_a_lower_run, read_may_be_served, recover_slot, successor_may_propose,
    teach_a_lagging_candidate, window_end, window_holds_a_run,
};
pub use proxy::{
    ProxyLeader, Repeat, answer_to_repeat, forward_unchanged, nack_goes_to, proxy_for,
    proxy_may_announce, resend_is_identical,
};
pub use ready::{Applied, Ready};
pub use slot_map::SlotMap;
#[cfg(test)]
pub(crate) use slot_map::meter;
pub use trim::{
    TrimError, TrimPoint, first_slot_to_recover, floor_after_applying, jump_raises_the_promise,
    trim_may_be_proposed,
};
pub use types::{Command, Entry, ReadId, Slot, SlotVote};

#[cfg(test)]
mod adversary_tests;
#[cfg(all(test, feature = "accept-batch"))]
mod batch_tests;
#[cfg(test)]
mod ctrl_tests;
#[cfg(test)]
mod flexible_tests;
#[cfg(test)]
mod grid_tests;
#[cfg(test)]
mod handoff_tests;
#[cfg(test)]
mod proxy_tests;
#[cfg(test)]
mod schedule_tests;
#[cfg(test)]
mod slot_map_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod trim_tests;

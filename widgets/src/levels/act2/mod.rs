//! Act II: the replicated log. Three `ColocatedNode`s N1-N3 with clocks and disks, and clients
//! C1.. with programs of writes and reads. Each level is a file here with its briefing in a
//! markdown file beside it.
//!
//! Acceptor replies and P2c are earned in Act I and on by default; the apply walk and heartbeat
//! delivery are earned here. A level pins off what it teaches, and pins on what would only get
//! in the way of it.

pub mod a_log_of_decisions;
pub mod elect_a_leader;
pub mod persist_before_send;
pub mod steady_state;
pub mod the_permanent_gap;
pub mod the_read_that_lies;
pub mod what_survives_a_crash;

use crate::automation::Automation;
use crate::level::Pin;
use crate::state::Goal;
use paros_core::log::{ColocatedNode, Slot};
use paros_sim::replicated_log::{ClientOp, LogWorld};

/// The chapter beside `act2/persist-before-send` and `act2/what-survives-a-crash`.
pub const CRASH_AND_RESTART: &str = "Crash and restart safety";
/// The chapter beside `act2/a-log-of-decisions`.
pub const ONE_VALUE_TO_A_LOG: &str = "From one value to a log";
/// The chapter beside `act2/elect-a-leader`, `act2/steady-state` and `act2/the-permanent-gap`.
pub const STABLE_LEADER: &str = "The stable leader";
/// The chapter beside `act2/the-read-that-lies`.
pub const READS_ARE_NOT_FREE: &str = "Why reads are not free";

/// The three-node cluster every log level is built from, defined with the level worlds.
pub use paros_sim::level_worlds::cluster;

/// A pin forcing `automation` on or off.
pub const fn pin(automation: Automation, on: bool) -> Pin {
    Pin { automation, on }
}

/// Node `number` (1-based) of a log world, if it is up.
pub fn running(world: &LogWorld, number: usize) -> Option<&ColocatedNode> {
    world.servers().get(number - 1)?.host.node()
}

/// Whether node `number` is up and has applied through `slot`.
pub fn applied_through(world: &LogWorld, number: usize, slot: u64) -> bool {
    running(world, number).is_some_and(|node| node.applied_index() >= Slot(slot))
}

/// The first client read that returned, if any: the value it read (`None` for nothing).
pub fn read_result(world: &LogWorld) -> Option<Option<String>> {
    world
        .history()
        .iter()
        .find(|call| matches!(call.op, ClientOp::Read { .. }) && call.ret.is_some())
        .map(|call| call.read.as_ref().map(ToString::to_string))
}

/// Whether a client has called a read.
pub fn read_called(world: &LogWorld) -> bool {
    (world.history().iter()).any(|call| matches!(call.op, ClientOp::Read { .. }))
}

/// The goal of a level whose read must return `expected`, the value written before it began:
/// reached when it does, failed when it returns anything else.
pub fn read_goal(world: &LogWorld, expected: &str) -> Goal {
    match read_result(world) {
        Some(Some(value)) if value == expected => Goal::Reached,
        Some(other) => Goal::Failed(format!(
            "the read returned {}, not the {expected} that C1 wrote before it began",
            other.unwrap_or_else(|| "nothing".into())
        )),
        None => Goal::Open,
    }
}

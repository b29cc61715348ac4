//! Act III: truncation and reads. Act II's three nodes and a second client, with trims an
//! operator asks a leader for: each node moves its floor when its own apply walk applies a
//! decided trim, and a node left below a peer's floor catches up by a jump to its trim point.
//! Each level is a file here with its briefing in a markdown file beside it.

pub mod chosen_is_not_applied;
pub mod linearizable_or_not;
pub mod the_fresh_leader_trap;
pub mod the_stranded_node;
pub mod truncate_by_consensus;

use super::act2::running;
use paros_sim::replicated_log::LogWorld;

/// The chapter beside `act3/truncate-by-consensus` and `act3/the-stranded-node`.
pub const TRUNCATION: &str = "Truncation and the trim point";

/// Node `number`'s floor (1-based), if it is up.
pub fn floor_of(world: &LogWorld, number: usize) -> Option<u64> {
    running(world, number).map(|node| node.floor().0)
}

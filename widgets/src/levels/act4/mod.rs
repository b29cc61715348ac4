//! Act IV: beyond Multi-Paxos. Act II's log over other quorum systems (four nodes where the
//! two phases need different numbers of nodes, or stand in a 2x2 grid), with reads served by
//! a follower, with a leader that hands its ballot on, and with a leader whose Phase 2 goes
//! through proxy leaders; and on disks that lie (a corrupted record, a wiped disk). Each level is a file here with its briefing in a markdown file
//! beside it.

pub mod faulty_records;
pub mod flexible_quorums;
pub mod garbage_collection;
pub mod matchmaker_generations;
pub mod matchmaking;
pub mod proxy_leaders;
pub mod quorum_reads;
pub mod reconfigure;
pub mod the_grid;
pub mod the_handoff;
pub mod the_wiped_node;

use paros_core::NodeSet;
use paros_sim::replicated_log::LogWorld;

/// The chapter beside `act4/flexible-quorums`, `act4/the-grid` and `act4/quorum-reads`.
pub const BEYOND_MULTI_PAXOS: &str = "Beyond Multi-Paxos";

/// The chapter beside `act4/the-handoff`.
pub const THE_HANDOFF: &str = "The handoff";

/// The chapter beside the four Matchmaker levels.
pub const MATCHMAKER_PAXOS: &str = "Reconfiguration with Matchmaker Paxos";

/// The chapter beside `act4/faulty-records` and `act4/the-wiped-node`.
pub const DISKS_THAT_LIE: &str = "Disks that lie";

/// The stage note of the disk-fault levels, whose world is
/// `paros_sim::level_worlds`' shared disk-fault prelude.
const X1_CHOSEN_BY_N1_AND_N2: &str = "N1 leads at 1.N1. x=1 is chosen in slot 1 by N1 and N2; N3's \
                                      Accept is on its way. C1 has x=2 to write.";

/// The chapter beside `act4/proxy-leaders`.
pub const PROXY_LEADERS_CHAPTER: &str = "Compartmentalized Paxos's proxy leaders";

pub use paros_sim::level_worlds::four_flexible;

/// The nodes of `world` that are down.
pub fn down(world: &LogWorld) -> NodeSet {
    world
        .servers()
        .iter()
        .enumerate()
        .filter(|(_, server)| !server.host.is_up())
        .map(|(index, _)| world.config().node_id(index))
        .collect()
}

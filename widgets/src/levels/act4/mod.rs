//! Act IV: beyond Multi-Paxos. Act II's log over other quorum systems (four nodes where the
//! two phases need different numbers of nodes, or stand in a 2x2 grid), with reads served by
//! a follower, and with a leader that hands its ballot on. Each level is a file here with its
//! briefing in a markdown file beside it.

pub mod flexible_quorums;
pub mod quorum_reads;
pub mod the_grid;
pub mod the_handoff;

use super::act2::cluster;
use paros_core::{NodeSet, Quorums};
use paros_sim::Budget;
use paros_sim::replicated_log::{LogWorld, LogWorldConfig};

/// The chapter beside `act4/flexible-quorums` and `act4/the-handoff`.
pub const BEYOND_MULTI_PAXOS: &str = "Beyond Multi-Paxos";

/// Four nodes where any `phase1` of them elect and any `phase2` choose, one client per
/// program, an election timeout of 1 tick, and `budget`.
pub fn four_flexible(
    programs: &[&[(&str, &str)]],
    phase1: usize,
    phase2: usize,
    budget: Budget,
) -> LogWorldConfig {
    let mut config = cluster(programs, budget);
    config.node_count = 4;
    config.election_timeout_ticks = 1;
    let nodes: NodeSet = (0..4).map(|index| config.node_id(index)).collect();
    config.quorums = Some(Quorums::flexible(nodes, phase1, phase2).expect("q1 + q2 > n"));
    config
}

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

//! The player's moves in a log world ([`LogMove`]), and what the stage and the prompts read off
//! the world by name: a ballot as players read it ([`ballot_name`]) and what each proxy leader
//! counts ([`proxy_counts`]).

use paros_core::log::Slot;
use paros_core::{Ballot, NodeId, NodeSet};
use paros_sim::replicated_log::{LogAction, LogWorld};
use std::fmt;

/// One thing the player can make happen in a log world.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum LogMove {
    /// A world action, as the World names it.
    World(LogAction),
    /// Heartbeat delivery: the leader ticks, then every Heartbeat, HeartbeatAck and Chosen that
    /// this beat causes is delivered, oldest first.
    Beat(NodeId),
}

impl From<LogAction> for LogMove {
    fn from(action: LogAction) -> LogMove {
        LogMove::World(action)
    }
}

impl fmt::Display for LogMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LogMove::World(action) => action.fmt(f),
            LogMove::Beat(node) => write!(f, "beat {node}"),
        }
    }
}

/// One (slot, ballot) a proxy leader holds, with the acceptors whose Accepteds it counted.
pub type ProxyCount = (Slot, Ballot, NodeSet);

/// What each proxy leader of `world` counts, P1 first; `None` for one that is down.
pub fn proxy_counts(world: &LogWorld) -> Vec<Option<Vec<ProxyCount>>> {
    (world.proxies().iter())
        .map(|host| host.proxy().map(|proxy| proxy.counted().collect()))
        .collect()
}

/// A ballot as players read it: `2.N3`.
pub fn ballot_name(world: &LogWorld, ballot: Ballot) -> String {
    world.ballot_name(ballot)
}

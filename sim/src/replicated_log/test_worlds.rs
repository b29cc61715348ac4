//! What the quorum and grid tests share: node sets by number, a scenario's configuration and
//! prelude, and a world after a list of actions.

use super::{LogWorld, LogWorldConfig};
use crate::scenarios::{self, Setup};
use paros_core::{NodeId, NodeSet};

/// The nodes with these numbers.
pub(super) fn nodes(numbers: &[u8]) -> NodeSet {
    numbers.iter().map(|n| NodeId::new(*n).unwrap()).collect()
}

/// The configuration and prelude of the log scenario `name`.
pub(super) fn config_of(name: &str) -> (LogWorldConfig, Vec<&'static str>) {
    match scenarios::find(name).unwrap().setup {
        Setup::Log { config, prelude } => (config, prelude),
        _ => unreachable!("{name} is a log world"),
    }
}

/// The world of `config` after `actions`, each in the short forms `parse_action` reads.
pub(super) fn after(config: LogWorldConfig, actions: &[&str]) -> LogWorld {
    let mut world = LogWorld::new(config).unwrap();
    for text in actions {
        let action = world.parse_action(text).unwrap();
        world.apply(&action).unwrap();
    }
    world
}

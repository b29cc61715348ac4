//! What several of Act II's prompts share: a node by index, and a set of nodes by name.

use paros_core::NodeId;
use paros_core::log::ColocatedNode;
use paros_sim::replicated_log::LogWorld;

pub(super) fn node(world: &LogWorld, index: usize) -> Option<&ColocatedNode> {
    world.servers().get(index)?.host.node()
}

pub(super) fn index_of(node: NodeId) -> usize {
    usize::from(node.get()) - 1
}

pub(super) use crate::words::log_set_name as set_name;

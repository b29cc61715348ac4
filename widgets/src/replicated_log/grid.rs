//! How a grid quorum system is laid out on the stage: its rows and columns of node names, and
//! which column decides each slot in play, all read from paros-core's [`Grid`].

use crate::scene::{GridSlotView, GridView};
use paros_core::log::{LogMessage, Slot};
use paros_core::{Grid, NodeSet, Quorums};
use paros_sim::replicated_log::LogWorld;

/// The grid layout of `world`, if its quorum system is a grid.
pub fn grid_view(world: &LogWorld) -> Option<GridView> {
    let Quorums::Grid(grid) = world.config().quorum_system() else {
        return None;
    };
    let names = |set: &NodeSet| set.iter().map(|node| world.name(node)).collect();
    let in_play = slot_in_play(world);
    let last = in_play.max(highest_voted_slot(world));
    let slots = (1..=last.0)
        .map(|number| slot_view(&grid, Slot(number)))
        .collect();
    Some(GridView {
        rows: grid.rows().iter().map(names).collect(),
        columns: grid.columns().iter().map(names).collect(),
        slots,
        in_play: slot_view(&grid, in_play),
    })
}

fn slot_view(grid: &Grid, slot: Slot) -> GridSlotView {
    GridSlotView {
        slot: slot.0,
        column: grid.column_index(slot),
    }
}

/// The slot the stage marks: that of the newest Accept or Accepted on the wire; with none,
/// the highest slot any node has voted in; with no vote, slot 1.
fn slot_in_play(world: &LogWorld) -> Slot {
    let on_the_wire =
        world
            .in_flight()
            .iter()
            .rev()
            .find_map(|message| match message.envelope.message {
                LogMessage::Accept { slot, .. } | LogMessage::Accepted { slot, .. } => Some(slot),
                _ => None,
            });
    on_the_wire.unwrap_or_else(|| highest_voted_slot(world).max(Slot(1)))
}

/// The highest slot a running node has voted in, or slot 0.
fn highest_voted_slot(world: &LogWorld) -> Slot {
    world
        .servers()
        .iter()
        .filter_map(|server| server.host.node())
        .filter_map(|node| node.accepts().keys().next_back().copied())
        .max()
        .unwrap_or_default()
}

//! How the game writes nodes, sets and votes in its sentences: `{A1, A2}`, `(1.P1, x)`.

use paros_core::log::Slot;
use paros_core::{Grid, Majority, NodeSet, QuorumSystem, Quorums, Vote};
use paros_sim::replicated_log::LogWorld;
use paros_sim::single_decree::DecreeWorld;

/// A set of nodes by name, in id order: `{A1, A3}`.
pub fn set_name(world: &DecreeWorld, set: NodeSet) -> String {
    let names: Vec<String> = set.iter().map(|node| world.name(node)).collect();
    format!("{{{}}}", names.join(", "))
}

/// A set of a log world's nodes by name, in id order: `{N1, N3}`.
pub fn log_set_name(world: &LogWorld, set: NodeSet) -> String {
    let names: Vec<String> = set.iter().map(|node| world.name(node)).collect();
    format!("{{{}}}", names.join(", "))
}

/// A vote as a pair: `(1.P1, x)`.
pub fn vote_name(world: &DecreeWorld, vote: &Vote) -> String {
    format!("({}, {})", world.ballot_name(vote.ballot), vote.value)
}

/// Node names in id order, as a list for JSON.
pub fn names(world: &DecreeWorld, set: NodeSet) -> Vec<String> {
    set.iter().map(|node| world.name(node)).collect()
}

/// The quorum system Act I's proposers count with, as paros-core holds it.
pub fn quorums(world: &DecreeWorld) -> Majority {
    world.proposers().first().map_or_else(
        || Majority::new(world.config().acceptors()).expect("a world has acceptors"),
        |proposer| *proposer.quorums(),
    )
}

/// How many of `what` a majority needs, as the quorum system reports it: `a majority of 3
/// acceptors is 2`.
pub fn majority_size(quorums: &Majority, what: &str) -> String {
    format!(
        "a majority of {} {what} is {}",
        quorums.acceptors().len(),
        quorums.quorum_size()
    )
}

/// How many of `what` a quorum of `phase` (1 or 2) needs, as a flexible quorum system reports
/// it: `a Phase-2 quorum of 4 nodes is 2`.
fn flexible_size(quorums: &Quorums, phase: u8, what: &str) -> String {
    let size = if phase == 1 {
        quorums.phase1_size()
    } else {
        quorums.phase2_size()
    };
    let nodes = quorums.acceptors().len();
    format!("a Phase-{phase} quorum of {nodes} {what} is {size}")
}

/// How many of `what` a Phase-1 quorum needs, as a replicated log's quorum system reports it:
/// in majority words for majorities (`a majority of 3 nodes is 2`), as a row for a grid (`a
/// Phase-1 quorum is a full row of 2 nodes`).
pub fn phase1_quorum_size(quorums: &Quorums, what: &str) -> String {
    match quorums {
        Quorums::Majority(majority) => majority_size(majority, what),
        Quorums::Flexible(_) => flexible_size(quorums, 1, what),
        Quorums::Grid(grid) => format!(
            "a Phase-1 quorum is a full row of {} {what}",
            grid.columns().len()
        ),
    }
}

/// How many of `what` a Phase-2 quorum needs, as [`phase1_quorum_size`] says it for Phase 1;
/// for a grid, the slot's column (`a Phase-2 quorum is the slot's full column of 2 nodes`).
pub fn phase2_quorum_size(quorums: &Quorums, what: &str) -> String {
    match quorums {
        Quorums::Majority(majority) => majority_size(majority, what),
        Quorums::Flexible(_) => flexible_size(quorums, 2, what),
        Quorums::Grid(grid) => format!(
            "a Phase-2 quorum is the slot's full column of {} {what}",
            grid.rows().len()
        ),
    }
}

/// A grid's rows by name, as the Phase-1 quorums they are: `the rows {N1, N2} and {N3, N4}`.
pub fn grid_rows(world: &LogWorld, grid: &Grid) -> String {
    let rows: Vec<String> = grid
        .rows()
        .iter()
        .map(|row| log_set_name(world, *row))
        .collect();
    format!("the rows {}", rows.join(" and "))
}

/// The column that decides `slot` by number and name, from the core's
/// [`Grid::deciding_column`]: `column 2, {N2, N4}`.
pub fn deciding_column(world: &LogWorld, grid: &Grid, slot: Slot) -> String {
    format!(
        "column {}, {}",
        grid.column_index(slot) + 1,
        log_set_name(world, grid.deciding_column(slot))
    )
}

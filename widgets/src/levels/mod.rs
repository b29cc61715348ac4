//! The registry of levels, by stable string id, in the order of the level map.
//!
//! # Adding a level
//!
//! 1. Write `levels/actN/<name>.rs` with a `pub static LEVEL: Level<World>` (listed in
//!    [`ACT1`]; Acts II to IV: `Level<LogWorld>`, listed in [`ACT2`], [`ACT3`] or [`ACT4`])
//!    and its briefing in `<name>.md` beside it (markdown, our own words). A level is one or more [`Stage`]s, each
//!    a world configuration and a prelude written in the script language of
//!    [`Game::play`](crate::Game::play) (`deliver P1->A2 Prepare`, `drop A1->P1 Accepted`,
//!    `start P2`; in Act II `tick N1`, `deliver N1->N2 Accept(1.N1, slot 2`, `crash N2`,
//!    `request C1 N1`, see paros-sim's `LogWorld::parse_action`). Give the world exactly the fault budget its prelude spends plus what the
//!    player may use: budgets are how a level says what the player may do.
//! 2. Implement [`Rules`] for it: the stage goal (`Open`, `Reached`, `Failed(reason)`), any
//!    question asked after a step (judged from the world, never from the level's opinion), and
//!    a checklist for what it tracks beyond the world.
//! 3. Pin the automation the level teaches off, and what it does not teach on if it would only
//!    get in the way.
//! 4. Write a reference solution (script steps, `answer KEY`, `undo`, `next-stage`) and list it
//!    here. `tests/levels.rs` (Act II: `tests/levels/act2.rs`) then plays it to its goal, undoes
//!    every move, tries every wrong choice on the way and plays the level at random; add one
//!    test that names the ballots of the level's own wrong answers.
//!
//! [`Stage`]: crate::Stage
//! [`Rules`]: crate::Rules

pub mod act1;
pub mod act2;
pub mod act3;
pub mod act4;

use crate::level::{Level, LevelSummary};
use paros_sim::matchmaker::MatchmakerWorld;
use paros_sim::replicated_log::LogWorld;
use paros_sim::single_decree::DecreeWorld;

/// Act I's levels, on the single-decree world, in the order of the level map.
pub static ACT1: &[&Level<DecreeWorld>] = &[
    &act1::choose_a_value::LEVEL,
    &act1::be_the_acceptor::LEVEL,
    &act1::adopt_the_value::LEVEL,
    &act1::the_duel::LEVEL,
    &act1::quorum_intersection::LEVEL,
    &act1::recovery_is_not_catch_up::LEVEL,
];

/// Act II's levels, on the replicated-log world, in the order of the level map.
pub static ACT2: &[&Level<LogWorld>] = &[
    &act2::persist_before_send::LEVEL,
    &act2::a_log_of_decisions::LEVEL,
    &act2::elect_a_leader::LEVEL,
    &act2::steady_state::LEVEL,
    &act2::the_permanent_gap::LEVEL,
    &act2::what_survives_a_crash::LEVEL,
    &act2::the_read_that_lies::LEVEL,
];

/// Act III's levels, on the replicated-log world with truncation, in the order of the level
/// map.
pub static ACT3: &[&Level<LogWorld>] = &[
    &act3::truncate_by_consensus::LEVEL,
    &act3::the_stranded_node::LEVEL,
    &act3::the_fresh_leader_trap::LEVEL,
    &act3::linearizable_or_not::LEVEL,
    &act3::chosen_is_not_applied::LEVEL,
];

/// Act IV's levels on the replicated-log world over other quorum systems, in the order of the
/// level map.
pub static ACT4: &[&Level<LogWorld>] = &[
    &act4::flexible_quorums::LEVEL,
    &act4::the_grid::LEVEL,
    &act4::quorum_reads::LEVEL,
    &act4::the_handoff::LEVEL,
    &act4::proxy_leaders::LEVEL,
];

/// Act IV's levels on the Matchmaker Paxos world, in the order of the level map.
pub static ACT4_MATCHMAKER: &[&Level<MatchmakerWorld>] = &[
    &act4::matchmaking::LEVEL,
    &act4::reconfigure::LEVEL,
    &act4::garbage_collection::LEVEL,
    &act4::matchmaker_generations::LEVEL,
];

/// Act IV's levels on the replicated-log world with storage faults, in the order of the level
/// map: they come after the Matchmaker Paxos levels.
pub static ACT4_DISK_FAULTS: &[&Level<LogWorld>] =
    &[&act4::faulty_records::LEVEL, &act4::the_wiped_node::LEVEL];

/// Every level played on the replicated-log world: Act II's, then Act III's, then Act IV's.
pub fn log_levels() -> impl Iterator<Item = &'static Level<LogWorld>> {
    ACT2.iter()
        .chain(ACT3)
        .chain(ACT4)
        .chain(ACT4_DISK_FAULTS)
        .copied()
}

/// The Act I level with this id.
pub fn find(id: &str) -> Option<&'static Level<DecreeWorld>> {
    ACT1.iter().copied().find(|level| level.id == id)
}

/// The level on the replicated-log world (Act II, III or IV) with this id.
pub fn find_act2(id: &str) -> Option<&'static Level<LogWorld>> {
    log_levels().find(|level| level.id == id)
}

/// The Act IV level on the Matchmaker Paxos world with this id.
pub fn find_matchmaker(id: &str) -> Option<&'static Level<MatchmakerWorld>> {
    ACT4_MATCHMAKER.iter().copied().find(|level| level.id == id)
}

/// The game's wasm modules, one per kind of world ([`Board::MODULE`](crate::Board::MODULE)):
/// the book builds each with only its world's cargo feature.
pub const MODULES: [&str; 3] = [
    <DecreeWorld as crate::Board>::MODULE,
    <LogWorld as crate::Board>::MODULE,
    <MatchmakerWorld as crate::Board>::MODULE,
];

/// Every level, in the order of the level map, as the level map and the book list them.
pub fn catalog() -> Vec<LevelSummary> {
    let act1 = ACT1.iter().map(|level| level.summary());
    let log = ACT2
        .iter()
        .chain(ACT3)
        .chain(ACT4)
        .map(|level| level.summary());
    let matchmaker = ACT4_MATCHMAKER.iter().map(|level| level.summary());
    let disk_faults = ACT4_DISK_FAULTS.iter().map(|level| level.summary());
    act1.chain(log)
        .chain(matchmaker)
        .chain(disk_faults)
        .collect()
}

//! The registry of levels, by stable string id, in the order of the level map.

pub mod act1;

use crate::Level;

/// Every level, in the order of the level map.
pub static ALL: &[&Level] = &[
    &act1::choose_a_value::LEVEL,
    &act1::be_the_acceptor::LEVEL,
    &act1::adopt_the_value::LEVEL,
    &act1::the_duel::LEVEL,
    &act1::quorum_intersection::LEVEL,
    &act1::recovery_is_not_catch_up::LEVEL,
];

/// The level with this id.
pub fn find(id: &str) -> Option<&'static Level> {
    ALL.iter().copied().find(|level| level.id == id)
}

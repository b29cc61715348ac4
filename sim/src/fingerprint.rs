//! The one fingerprint scheme every world uses: a world's fingerprint is the wrapping sum of
//! one hash per part, each tagged with the part's kind and position.
//!
//! A sum does not depend on order, so a multiset (the messages in flight) hashes the same
//! whatever its order, and a step that changes one part changes the sum by that part's old and
//! new hashes alone: a successor's fingerprint costs only what the step touched. The hasher is
//! foldhash's quality hasher with a fixed seed: fast on small writes, well mixed, and the same
//! from run to run.

use std::hash::{BuildHasher, Hash};

const HASHER: foldhash::quality::FixedState =
    foldhash::quality::FixedState::with_seed(0x7061_726f_735f_7369);

/// The hash of one part of a world: its tag (kind and position) and its contents.
pub fn part(tag: impl Hash, contents: &impl Hash) -> u64 {
    HASHER.hash_one((tag, contents))
}

/// `sum` with the part hashed `old` replaced by the part hashed `new` (0 for none).
pub fn swap(sum: u64, old: u64, new: u64) -> u64 {
    sum.wrapping_sub(old).wrapping_add(new)
}

/// `hash` mixed again, one to one: a least hash of several (an orbit's) lies low in the range,
/// and the seen set places a fingerprint by its high bits, so a least hash is spread over the
/// whole range before it is stored. The finalizer of MurmurHash3's 64-bit hash.
pub fn spread(hash: u64) -> u64 {
    let mut mixed = hash;
    mixed ^= mixed >> 33;
    mixed = mixed.wrapping_mul(0xff51_afd7_ed55_8ccd);
    mixed ^= mixed >> 33;
    mixed = mixed.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    mixed ^ (mixed >> 33)
}

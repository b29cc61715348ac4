//! How fast the World applies actions and fingerprints itself, on random walks of the
//! two-proposer Act I world (1 drop, 1 duplicate, 2 retries each).
//!
//! Run with `cargo bench -p paros-sim --bench world`. Prints actions/s and fingerprints/s, and
//! the ratio of the two, measured in the same run.

use paros_sim::single_decree::{DecreeAction, DecreeWorld, DecreeWorldConfig};
use paros_sim::{Budget, Fault};
use std::hint::black_box;
use std::time::Instant;

/// A small deterministic generator for the walks (splitmix64), so runs are comparable.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn main() {
    let mut config = DecreeWorldConfig::act1(&["x", "y"]);
    config.budget = Budget::NONE
        .with(Fault::Drop, 1)
        .with(Fault::Duplicate, 1)
        .with(Fault::Retry, 2);
    let start = DecreeWorld::new(config).expect("valid world");
    let walks = 20_000;
    let mut seed = 1;
    let mut worlds = Vec::new();
    let mut actions_applied = 0u64;
    let began = Instant::now();
    for _ in 0..walks {
        let mut world = start.clone();
        loop {
            let enabled: Vec<DecreeAction> = world.enabled();
            if enabled.is_empty() {
                break;
            }
            let pick = enabled[(next(&mut seed) % enabled.len() as u64) as usize];
            world.apply(&pick).expect("enabled actions apply");
            actions_applied += 1;
        }
        if worlds.len() < 1_000 {
            worlds.push(world);
        }
    }
    let apply_seconds = began.elapsed().as_secs_f64();
    let rounds = 2_000;
    let began = Instant::now();
    for _ in 0..rounds {
        for world in &worlds {
            black_box(world.fingerprint());
        }
    }
    let fingerprint_seconds = began.elapsed().as_secs_f64();
    let fingerprints = (rounds * worlds.len()) as f64;
    let actions_per_second = actions_applied as f64 / apply_seconds;
    let fingerprints_per_second = fingerprints / fingerprint_seconds;
    println!(
        "world/apply: {actions_applied} actions (enabled() + apply()) in {apply_seconds:.3} s = {actions_per_second:.0} actions/s"
    );
    println!(
        "world/fingerprint: {fingerprints:.0} fingerprints of finished worlds in {fingerprint_seconds:.3} s = {fingerprints_per_second:.0} fingerprints/s"
    );
    println!(
        "ratio fingerprint/apply: {:.2}",
        fingerprints_per_second / actions_per_second
    );
}

//! The matchmaker swarm's configurations: each seed draws a [`MatchmakerWorldConfig`]:
//! acceptors, leaders with their rounds and configurations (which overlap as they please),
//! garbage collection, a replacement of the matchmakers (by a new generation, by one that keeps
//! some of the old, and back again) and the faults.

use crate::faults::{Budget, Fault};
use crate::matchmaker::{LeaderPlan, MatchmakerWorldConfig};
use crate::simulate::pick;
use paros_core::Value;
use rand_pcg::Pcg64Mcg;

const VALUES: [&str; 4] = ["x", "y", "z", "w"];

/// A configuration of three acceptors of the `count`, or sometimes of one to all of them.
fn draw_acceptors(rng: &mut Pcg64Mcg, count: u8) -> Vec<u8> {
    let size = if pick(rng, 4) == 0 {
        1 + pick(rng, usize::from(count))
    } else {
        3.min(usize::from(count))
    };
    let mut left: Vec<u8> = (1..=count).collect();
    let mut chosen: Vec<u8> = (0..size)
        .map(|_| left.remove(pick(rng, left.len())))
        .collect();
    chosen.sort_unstable();
    chosen
}

/// Whether a configuration may name an acceptor that a configuration of a lower ballot
/// removed. Off: a leader's garbage collection retires the acceptors its round removed (M5),
/// and a stale leader's may retire one that a higher round's configuration took back, which
/// then waits for ever for a quorum (`swarm::tests::retire_finding`).
/// Off, acceptors leave for good, as they do when reconfiguring replaces machines.
pub const REUSE_REMOVED_ACCEPTORS: bool = false;

/// The configuration of one seed.
pub fn draw(rng: &mut Pcg64Mcg) -> MatchmakerWorldConfig {
    draw_with(rng, REUSE_REMOVED_ACCEPTORS)
}

/// Takes out of each configuration, in ballot order, the acceptors a lower ballot's removed,
/// keeping the previous configuration where none would be left.
fn never_back(leaders: &mut [LeaderPlan]) {
    let mut order: Vec<usize> = (0..leaders.len()).collect();
    order.sort_by_key(|index| (leaders[*index].round, *index));
    let mut removed: Vec<u8> = Vec::new();
    let mut previous: Option<Vec<u8>> = None;
    for index in order {
        let plan = &mut leaders[index];
        plan.acceptors.retain(|number| !removed.contains(number));
        if plan.acceptors.is_empty() {
            plan.acceptors = previous.clone().unwrap_or_default();
        }
        if let Some(previous) = &previous {
            removed.extend(previous.iter().filter(|n| !plan.acceptors.contains(n)));
        }
        previous = Some(plan.acceptors.clone());
    }
}

/// The configuration of one seed, acceptors reused after removal or not
/// ([`REUSE_REMOVED_ACCEPTORS`]).
pub fn draw_with(rng: &mut Pcg64Mcg, reuse_removed: bool) -> MatchmakerWorldConfig {
    let acceptor_count = 3 + pick(rng, 4) as u8;
    let leader_count = 1 + pick(rng, 4);
    let mut leaders: Vec<LeaderPlan> = (0..leader_count)
        .map(|index| LeaderPlan {
            // Rounds 1 to 5, repeats allowed: two leaders of one round differ by owner.
            round: 1 + pick(rng, 5) as u32,
            acceptors: draw_acceptors(rng, acceptor_count),
            value: Value::new(VALUES[index % VALUES.len()]),
        })
        .collect();
    if !reuse_removed {
        never_back(&mut leaders);
    }
    let replacement = pick(rng, 2) == 0;
    let kept_matchmakers = if replacement { pick(rng, 3) as u8 } else { 0 };
    MatchmakerWorldConfig {
        acceptor_count,
        leaders,
        garbage_collection: pick(rng, 3) != 0,
        replacement,
        kept_matchmakers,
        back_to_first_generation: replacement && kept_matchmakers == 0 && pick(rng, 3) == 0,
        budget: Budget::NONE
            .with(Fault::Drop, pick(rng, 5) as u32)
            .with(Fault::Duplicate, pick(rng, 4) as u32)
            .with(Fault::Crash, pick(rng, 3) as u32),
        negative_control: None,
    }
}

/// A configuration in a few lines: what a failing seed's report shows.
pub fn describe(config: &MatchmakerWorldConfig) -> Vec<String> {
    let leaders: Vec<String> = (config.leaders.iter().enumerate())
        .map(|(index, plan)| {
            let acceptors: Vec<String> = (plan.acceptors.iter())
                .map(|number| format!("A{number}"))
                .collect();
            format!(
                "L{} round {} in {{{}}} ({})",
                index + 1,
                plan.round,
                acceptors.join(", "),
                plan.value
            )
        })
        .collect();
    let budget: Vec<String> = (Fault::ALL.iter())
        .filter(|fault| config.budget.allows(**fault))
        .map(|fault| format!("{} {}", fault.budget_key(), config.budget.left(*fault)))
        .collect();
    vec![
        format!("A1-A{}; {}", config.acceptor_count, leaders.join(", ")),
        format!(
            "garbage collection {}; replacement {}{}",
            if config.garbage_collection {
                "on"
            } else {
                "off"
            },
            match (config.replacement, config.kept_matchmakers) {
                (false, _) => "off".to_owned(),
                (true, 0) => "by M4-M6".to_owned(),
                (true, kept) => format!("keeping {kept} of M1-M3"),
            },
            if config.back_to_first_generation {
                ", then back to M1-M3"
            } else {
                ""
            }
        ),
        format!(
            "budget: {}",
            if budget.is_empty() {
                "none".to_owned()
            } else {
                budget.join(", ")
            }
        ),
    ]
}

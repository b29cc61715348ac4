//! Swarm worlds: each seed draws a configuration, then a run of it.
//!
//! A named world checks one feature at the size its level needs; bugs sit where features
//! meet. A swarm draws, per seed, a world with many features on at once (nodes, quorum system,
//! proxies, batching, handoffs, trims, clients, storage faults, messages to self in flight;
//! for the matchmakers, leaders, configurations, garbage collection and replacements), and
//! then walks it with a weight per kind of action drawn from the same seed, so some seeds are
//! storms of one fault and some never see it (swarm testing: Groce, Zhang, Eide, Chen and
//! Regehr, ISSTA 2012). Every checker of the world judges every step, and progress is judged
//! once faults stop. A failing run is shrunk ([`shrink`]) to a run that still fails the same
//! way and from which no single action can be deleted.
//!
//! `paros-sim run swarm --seeds N` (and `swarm-matchmaker`) runs one; `paros-sim replay
//! swarm/SEED ACTION...` replays a shrunk counterexample on the world the seed drew.

pub mod log;
pub mod matchmaker;
pub mod shrink;
pub mod walk;

use crate::Error;
use crate::matchmaker::MatchmakerWorld;
use crate::model::Model;
use crate::replicated_log::LogWorld;
use crate::report::{Mode, Report, SIMULATION_IS_INCOMPLETE, SeedRange, Verdict};
use crate::simulate::Sweep;
use rand_pcg::Pcg64Mcg;
use rand_pcg::rand_core::SeedableRng;
use std::collections::BTreeMap;

/// A seed's world, its configuration in words, and the generator its walk goes on with.
pub type Drawn<M> = Result<(M, Vec<String>, Pcg64Mcg), Error>;

/// A family of swarm runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Swarm {
    /// The replicated log, every feature and fault in reach.
    Log,
    /// Matchmaker Paxos: leaders, configurations, garbage collection, replacements, faults.
    Matchmaker,
}

impl Swarm {
    /// Both swarms, in the order `paros-sim list` prints them.
    pub const ALL: [Swarm; 2] = [Swarm::Log, Swarm::Matchmaker];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Swarm::Log => "swarm",
            Swarm::Matchmaker => "swarm-matchmaker",
        }
    }

    /// The claim every seed checks.
    pub fn claim(self) -> &'static str {
        match self {
            Swarm::Log => crate::scenarios::text(
                "Swarm: each seed draws a log world (3 to 7 nodes; majority, flexible or grid quorums; 0 to 2 proxies; batching; handoffs, trims, writes and reads; every fault, each with a weight of its own) and a run; every checker holds after every step, and every request is answered once faults stop.",
            ),
            Swarm::Matchmaker => crate::scenarios::text(
                "Swarm: each seed draws a Matchmaker Paxos world (acceptors, leaders with rounds and overlapping configurations, garbage collection, replacements of the matchmakers, drops, duplicates and crashes, each with a weight of its own) and a run; every checker holds after every step, and a later leader completes once faults stop.",
            ),
        }
    }

    /// The swarm with this name.
    pub fn find(name: &str) -> Option<Swarm> {
        Swarm::ALL.into_iter().find(|swarm| swarm.name() == name)
    }

    /// The world seed `seed` draws, its configuration in words, and the generator the walk
    /// goes on with.
    pub fn draw_log(seed: u64) -> Drawn<LogWorld> {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let config = log::draw(&mut rng);
        let words = log::describe(&config);
        let world = LogWorld::new(config).map_err(|refused| drawn_refused(seed, &refused))?;
        Ok((world, words, rng))
    }

    /// As [`Swarm::draw_log`], for the matchmakers.
    pub fn draw_matchmaker(seed: u64) -> Drawn<MatchmakerWorld> {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let config = matchmaker::draw(&mut rng);
        let words = matchmaker::describe(&config);
        let world =
            MatchmakerWorld::new(config).map_err(|refused| drawn_refused(seed, &refused))?;
        Ok((world, words, rng))
    }
}

fn drawn_refused(seed: u64, refused: &impl std::fmt::Display) -> Error {
    Error::Model {
        action: format!("the configuration seed {seed} drew"),
        why: refused.to_string(),
    }
}

/// How many of the lowest failing seeds a report lists.
const FAILING_SEEDS_LISTED: usize = 20;

/// What one seed's run came to.
#[derive(Clone, Debug, Default)]
struct Tally {
    runs: u64,
    steps: u64,
    longest: u64,
    bound_hits: u64,
    decided: u64,
    decision_steps_total: u64,
    decision_steps_max: u64,
    settle_runs: u64,
    settled: u64,
    settle_steps_max: u64,
    failing: u64,
    faults: BTreeMap<String, u64>,
    /// The lowest failing seed.
    first_failing: Option<u64>,
    /// The lowest failing seeds, up to [`FAILING_SEEDS_LISTED`], each with what it broke.
    failing_seeds: Vec<(u64, String)>,
    /// For each property broken (or `stuck`), the lowest seed that broke it and how many did.
    by_property: BTreeMap<String, (u64, u64)>,
    /// The lowest seed whose run ended in an error, and the error.
    first_error: Option<(u64, Error)>,
}

impl Tally {
    fn merge(mut self, other: Tally) -> Tally {
        self.runs += other.runs;
        self.steps += other.steps;
        self.longest = self.longest.max(other.longest);
        self.bound_hits += other.bound_hits;
        self.decided += other.decided;
        self.decision_steps_total += other.decision_steps_total;
        self.decision_steps_max = self.decision_steps_max.max(other.decision_steps_max);
        self.settle_runs += other.settle_runs;
        self.settled += other.settled;
        self.settle_steps_max = self.settle_steps_max.max(other.settle_steps_max);
        self.failing += other.failing;
        for (kind, count) in other.faults {
            *self.faults.entry(kind).or_default() += count;
        }
        for (what, (seed, count)) in other.by_property {
            let mine = self.by_property.entry(what).or_insert((seed, 0));
            *mine = (mine.0.min(seed), mine.1 + count);
        }
        self.failing_seeds.extend(other.failing_seeds);
        self.failing_seeds.sort();
        self.failing_seeds.truncate(FAILING_SEEDS_LISTED);
        self.first_failing = match (self.first_failing, other.first_failing) {
            (Some(mine), Some(theirs)) => Some(mine.min(theirs)),
            (mine, theirs) => mine.or(theirs),
        };
        self.first_error = match (self.first_error, other.first_error) {
            (Some(mine), Some(theirs)) => Some(if mine.0 <= theirs.0 { mine } else { theirs }),
            (mine, theirs) => mine.or(theirs),
        };
        self
    }
}

/// A failing seed's run, shrunk.
struct Failure {
    seed: u64,
    configuration: Vec<String>,
    weights: String,
    walk_length: usize,
    fair_length: usize,
    shrunk: shrink::Shrunk,
    stuck: bool,
}

/// Runs one seed of `swarm`: its walk and fair schedule.
fn run_seed<M: Model>(draw: impl Fn(u64) -> Drawn<M>, seed: u64, max_steps: u32) -> Tally {
    let ending = draw(seed).and_then(|(world, _, rng)| walk::walk(world, rng, max_steps));
    let ending = match ending {
        Ok(ending) => ending,
        Err(error) => {
            return Tally {
                runs: 1,
                first_error: Some((seed, error)),
                ..Tally::default()
            };
        }
    };
    let failed = ending.failed();
    let what = (ending.violations.first()).map_or("stuck".to_owned(), |violation| {
        violation.property.to_string()
    });
    let decided_after = ending.decided_after.map_or(0, |steps| steps as u64);
    let fair_steps = (ending.actions.len() - ending.walk_steps) as u64;
    Tally {
        decided: u64::from(ending.decided_after.is_some()),
        decision_steps_total: decided_after,
        decision_steps_max: decided_after,
        settle_steps_max: if ending.settled == Some(true) {
            fair_steps
        } else {
            0
        },
        runs: 1,
        steps: ending.actions.len() as u64,
        longest: ending.walk_steps as u64,
        bound_hits: u64::from(ending.walk_steps == max_steps as usize && !failed),
        settle_runs: u64::from(ending.settled.is_some()),
        settled: u64::from(ending.settled == Some(true)),
        failing: u64::from(failed),
        faults: (ending.faults.iter())
            .map(|(kind, count)| ((*kind).to_owned(), *count))
            .collect(),
        first_failing: failed.then_some(seed),
        by_property: if failed {
            BTreeMap::from([(what.clone(), (seed, 1))])
        } else {
            BTreeMap::new()
        },
        failing_seeds: if failed {
            vec![(seed, what)]
        } else {
            Vec::new()
        },
        first_error: None,
    }
}

/// Walks `seed` again and shrinks its failing run.
fn shrink_seed<M: Model>(
    draw: impl Fn(u64) -> Drawn<M>,
    seed: u64,
    max_steps: u32,
) -> Result<Failure, Error> {
    let (world, configuration, rng) = draw(seed)?;
    let ending = walk::walk(world.clone(), rng, max_steps)?;
    let mut described = Vec::with_capacity(ending.walk_steps);
    let mut replayed = world.clone();
    for action in &ending.actions[..ending.walk_steps] {
        described.push(replayed.describe(action));
        replayed.apply(action).map_err(|refused| Error::Replay {
            index: described.len() - 1,
            action: action.to_string(),
            why: refused.to_string(),
        })?;
    }
    let key = shrink::failure_key(&ending);
    let shrunk = shrink::shrink(&world, &described, key)?;
    Ok(Failure {
        seed,
        configuration,
        weights: ending.weights.describe(),
        walk_length: ending.walk_steps,
        fair_length: ending.actions.len() - ending.walk_steps,
        shrunk,
        stuck: key.is_none(),
    })
}

/// Runs every seed of `sweep` on the swarm; `progress` hears of each finished run.
pub fn run(swarm: Swarm, sweep: &Sweep, progress: &(dyn Fn(u64) + Sync)) -> Result<Report, Error> {
    if sweep.seeds.is_empty() {
        return Err(Error::BadParameters("the seed range is empty".into()));
    }
    #[cfg(not(target_arch = "wasm32"))]
    let started = std::time::Instant::now();
    let max_steps = sweep.max_steps;
    let one = |seed: u64| -> Tally {
        let tally = match swarm {
            Swarm::Log => run_seed(Swarm::draw_log, seed, max_steps),
            Swarm::Matchmaker => run_seed(Swarm::draw_matchmaker, seed, max_steps),
        };
        progress(1);
        tally
    };
    #[cfg(feature = "parallel")]
    let tally = {
        use rayon::prelude::*;
        (sweep.seeds.clone().into_par_iter())
            .map(one)
            .reduce(Tally::default, Tally::merge)
    };
    #[cfg(not(feature = "parallel"))]
    let tally = sweep
        .seeds
        .clone()
        .map(one)
        .fold(Tally::default(), Tally::merge);
    if let (None, Some((seed, error))) = (tally.first_failing, &tally.first_error) {
        return Err(Error::Seed {
            seed: *seed,
            error: Box::new(error.clone()),
        });
    }
    let failure = match tally.first_failing {
        None => None,
        Some(seed) => Some(match swarm {
            Swarm::Log => shrink_seed(Swarm::draw_log, seed, max_steps)?,
            Swarm::Matchmaker => shrink_seed(Swarm::draw_matchmaker, seed, max_steps)?,
        }),
    };
    #[cfg_attr(
        target_arch = "wasm32",
        expect(unused_mut, reason = "no clock in the browser")
    )]
    let mut report = report(swarm, sweep, &tally, failure);
    #[cfg(not(target_arch = "wasm32"))]
    {
        report.duration_ms = started.elapsed().as_millis() as u64;
    }
    Ok(report)
}

/// The command that runs seed `seed` alone.
pub fn replay_command(swarm: Swarm, seed: u64, max_steps: u32) -> String {
    crate::scenarios::replay_command(swarm.name(), seed, u64::from(max_steps))
}

fn report(swarm: Swarm, sweep: &Sweep, tally: &Tally, failure: Option<Failure>) -> Report {
    let mut report = Report::empty(
        swarm.name(),
        swarm.claim(),
        Mode::Simulation,
        Verdict::Incomplete,
    );
    report.tool_version = env!("CARGO_PKG_VERSION").to_owned();
    report.input_hash = input_hash(swarm);
    report.seeds = tally.runs;
    report.seed_ranges = vec![SeedRange {
        start: sweep.seeds.start,
        end: sweep.seeds.end,
    }];
    report.steps = tally.steps;
    report.depth = tally.longest;
    report.max_steps = u64::from(sweep.max_steps);
    report.step_bound_hits = tally.bound_hits;
    report.faults = tally.faults.clone();
    report.decisions = tally.decided;
    report.decision_steps_total = tally.decision_steps_total;
    report.decision_steps_max = tally.decision_steps_max;
    report.settle_steps_max = tally.settle_steps_max;
    report.settle_runs = tally.settle_runs;
    report.settle_decided = tally.settled;
    report.violating_runs = tally.failing;
    report.incomplete_because = SIMULATION_IS_INCOMPLETE.into();
    report.replay_command = format!(
        "paros-sim run {} --seeds {} --seed {} --max-steps {}",
        swarm.name(),
        sweep.seeds.end - sweep.seeds.start,
        sweep.seeds.start,
        sweep.max_steps
    );
    let Some(failure) = failure else {
        return report;
    };
    let listed: Vec<String> = (tally.failing_seeds.iter())
        .map(|(seed, what)| format!("{seed} ({what})"))
        .collect();
    let mut drawn = vec![
        format!(
            "failing seeds, the lowest {} of {}: {}",
            listed.len(),
            tally.failing,
            listed.join(", ")
        ),
        format!(
            "by property, the first seed and how many seeds: {}",
            (tally.by_property.iter())
                .map(|(what, (seed, count))| format!("{what} {seed} ({count})"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        format!("seed {} drew:", failure.seed),
    ];
    drawn.extend(failure.configuration.iter().map(|line| format!("  {line}")));
    drawn.push(format!("  {}", failure.weights));
    drawn.push(format!(
        "its walk of {} actions (then {} of the fair schedule) shrank to {} (then {}), in {} replays; {}",
        failure.walk_length,
        failure.fair_length,
        failure.shrunk.walk.len(),
        failure.shrunk.counterexample.len() - failure.shrunk.walk.len(),
        failure.shrunk.replays,
        if failure.shrunk.minimal {
            "no single action can be deleted"
        } else {
            "the replay budget ran out first"
        }
    ));
    drawn.push(format!(
        "replay the shrunk run: paros-sim replay {}/{} ACTION...",
        swarm.name(),
        failure.seed
    ));
    report.failing_draw = drawn;
    if failure.stuck {
        report.unsettled_seed = Some(failure.seed);
        report.unsettled_counterexample = failure.shrunk.counterexample;
        report.unsettled_state = failure.shrunk.failure.join("; ");
        return report;
    }
    report.verdict = Verdict::Violation;
    report.incomplete_because.clear();
    report.violations = failure.shrunk.failure;
    report.counterexample = failure.shrunk.counterexample;
    report.failing_seed = Some(failure.seed);
    report.replay_command = replay_command(swarm, failure.seed, sweep.max_steps);
    report
}

/// A hash of what a swarm's report depends on: the sources of paros-core and paros-sim and
/// the swarm's name and claim (FNV-1a, a cache key).
fn input_hash(swarm: Swarm) -> String {
    let text = format!(
        "{}|{}|{}",
        env!("PAROS_SOURCES_HASH"),
        swarm.name(),
        swarm.claim()
    );
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests;

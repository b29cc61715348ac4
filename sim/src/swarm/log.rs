//! The log swarm's configurations: each seed draws a [`LogWorldConfig`] with every feature of
//! the replicated log in reach.
//!
//! Storage damage (corruptions and wipes together) is drawn within what the quorum system
//! survives: a damaged disk may leave its node refused at boot for good, so the world keeps
//! enough undamaged nodes to elect and to choose every slot, and progress once faults stop
//! stays a property the run owes.

use crate::faults::{Budget, Fault};
use crate::replicated_log::{ClientOp, LogWorldConfig};
use crate::simulate::pick;
use paros_core::{Flexible, Grid, NodeId, NodeSet, Quorums};
use rand_pcg::Pcg64Mcg;
use rand_pcg::rand_core::{Rng, SeedableRng};
use std::num::NonZeroU16;

/// A number from `options`, uniformly.
fn one_of<T: Copy>(rng: &mut Pcg64Mcg, options: &[T]) -> T {
    options[pick(rng, options.len())]
}

fn chance(rng: &mut Pcg64Mcg, per_mille: usize) -> bool {
    pick(rng, 1000) < per_mille
}

/// A quorum system over `nodes` and how many disks it survives losing: majorities, flexible
/// sizes that meet (F1), or a grid when the nodes make one.
fn draw_quorums(rng: &mut Pcg64Mcg, count: u8, nodes: NodeSet) -> (Option<Quorums>, u32) {
    let n = usize::from(count);
    match pick(rng, 4) {
        1 | 2 if n >= 3 => {
            // Sizes that meet: q1 + q2 > n, each at most n - 1 so one node may be down.
            let phase1 = 2 + pick(rng, n - 2);
            let phase2 = (n + 1 - phase1).max(1);
            if phase2 >= n {
                return majority(n);
            }
            let flexible = Flexible::new(nodes, phase1, phase2).expect("the sizes meet");
            (
                Some(Quorums::Flexible(flexible)),
                (n - phase1.max(phase2)) as u32,
            )
        }
        3 if n == 4 || n == 6 => {
            let columns = if n == 4 || chance(rng, 500) { 2 } else { 3 };
            let ids: Vec<NodeId> = nodes.iter().collect();
            let rows: Vec<Vec<NodeId>> = ids.chunks(columns).map(<[NodeId]>::to_vec).collect();
            let grid = Grid::new(&rows).expect("a full grid of distinct nodes");
            // A lost column member leaves its slots undecidable: a grid survives no damage.
            (Some(Quorums::Grid(grid)), 0)
        }
        _ => majority(n),
    }
}

fn majority(n: usize) -> (Option<Quorums>, u32) {
    (None, ((n - 1) / 2) as u32)
}

/// The shares of reads, per thousand operations, a seed may draw: from none (every client
/// writes) to nearly all, so some seeds' clients read for long stretches with no write behind.
const READ_PER_MILLE: [usize; 4] = [0, 350, 650, 900];

/// How a seed's clients mix reads and writes: the share of reads, and whether each program
/// does its writes first and its reads after, so the reads come once no write will follow.
#[derive(Clone, Copy)]
struct Mix {
    reads_per_mille: usize,
    writes_first: bool,
}

impl Mix {
    fn draw(rng: &mut Pcg64Mcg) -> Mix {
        Mix {
            reads_per_mille: one_of(rng, &READ_PER_MILLE),
            writes_first: chance(rng, 500),
        }
    }
}

/// A client's program: one to four operations over keys x and y, values numbered by client.
fn draw_program(rng: &mut Pcg64Mcg, client: usize, mix: Mix) -> Vec<ClientOp> {
    let length = 1 + pick(rng, 4);
    let mut program: Vec<ClientOp> = (0..length)
        .map(|index| {
            let key = one_of(rng, &["x", "y"]);
            if chance(rng, mix.reads_per_mille) {
                ClientOp::read(key)
            } else {
                ClientOp::write(key, &format!("{}", 10 * (client + 1) + index + 1))
            }
        })
        .collect();
    if mix.writes_first {
        program.sort_by_key(|op| matches!(op, ClientOp::Read { .. }));
    }
    program
}

/// Whether the draw includes small slot windows (2 to 8 slots, at least the accept batch), on
/// one seed in five. With them the swarm found a candidate that lagged its followers by more
/// than its window ignore their Promises for ever (`swarm::tests::small_window_finding`, now
/// paros-core's lagging-candidate rule). Off, the window is paros-core's default, and every
/// other draw of a seed is the same either way.
pub const SMALL_WINDOWS: bool = true;

/// The configuration of one seed.
pub fn draw(rng: &mut Pcg64Mcg) -> LogWorldConfig {
    draw_with(rng, SMALL_WINDOWS)
}

/// The configuration of one seed, small slot windows drawn or not ([`SMALL_WINDOWS`]).
pub fn draw_with(rng: &mut Pcg64Mcg, small_windows: bool) -> LogWorldConfig {
    let node_count = one_of(rng, &[3u8, 3, 4, 5, 5, 6, 7, 7]);
    let client_count = one_of(rng, &[1usize, 2, 2, 3]);
    let mix = Mix::draw(rng);
    let clients = (0..client_count)
        .map(|client| draw_program(rng, client, mix))
        .collect();
    let mut config = LogWorldConfig::three_nodes(Vec::new());
    config.node_count = node_count;
    config.clients = clients;
    let nodes: NodeSet = (0..usize::from(node_count))
        .map(|index| config.node_id(index))
        .collect();
    let (quorums, survives) = draw_quorums(rng, node_count, nodes);
    config.quorums = quorums;
    config.election_timeout_ticks = one_of(rng, &[1, 2, 2, 3]);
    config.proxies = one_of(rng, &[0u8, 0, 1, 2]);
    config.accept_batch = if config.proxies == 0 && cfg!(feature = "accept-batch") {
        one_of(rng, &[1usize, 1, 2, 4])
    } else {
        1
    };
    // At least one of each, so the checkers they switch on (H1's one value per ballot, T4's
    // proposals) judge every run; the walk's weights decide whether an operator uses them.
    config.handoffs = 1 + pick(rng, 3) as u32;
    config.trims = 1 + pick(rng, 3) as u32;
    config.stepwise_ready = chance(rng, 500);
    config.self_messages_in_flight = chance(rng, 500);
    config.bit_level_storage = chance(rng, 500);
    if chance(rng, 200) {
        // paros-core asks for a window at or above the accept batch (`with_slot_window`).
        let window = one_of(rng, &[2u16, 3, 5, 8]).max(config.accept_batch as u16);
        config.slot_window = NonZeroU16::new(window).filter(|_| small_windows);
    }
    if chance(rng, 200) {
        config.catch_up_batch = Some(one_of(rng, &[1u16, 2, 3]));
    }
    // Half the seeds damage as many disks as the quorum system survives, and half of those
    // spend it all on corruptions: storms of storage damage.
    let damage = if chance(rng, 500) {
        survives
    } else {
        pick(rng, survives as usize + 1) as u32
    };
    let corruptions = if chance(rng, 500) {
        damage
    } else {
        pick(rng, damage as usize + 1) as u32
    };
    config.budget = Budget::NONE
        .with(Fault::Drop, pick(rng, 8) as u32)
        .with(Fault::Duplicate, pick(rng, 4) as u32)
        .with(Fault::Crash, pick(rng, 4) as u32)
        .with(Fault::Partition, pick(rng, 4) as u32)
        .with(Fault::Tick, 10 + pick(rng, 51) as u32)
        .with(Fault::ClientResend, pick(rng, 5) as u32)
        .with(Fault::CorruptRecord, corruptions)
        .with(Fault::WipeDisk, damage - corruptions);
    if config.stepwise_ready {
        config.budget = config.budget.with(Fault::TornWrite, pick(rng, 3) as u32);
    }
    config.trim_lag = draw_trim_lag(rng);
    config
}

/// How far below its applied index an operator's trim asks a leader to compact
/// ([`LogWorldConfig::trim_lag`]): through what it applied for half the seeds, one or two slots
/// fewer for the rest. Drawn from a stream of its own, seeded from the seed's, so that the
/// rest of the configuration and the walk draw what they drew before it was added.
fn draw_trim_lag(rng: &Pcg64Mcg) -> u64 {
    const TRIM_LAG_STREAM: u64 = 0x7472_696d_5f6c_6167;
    let mut own = Pcg64Mcg::seed_from_u64(rng.clone().next_u64() ^ TRIM_LAG_STREAM);
    one_of(&mut own, &[0, 0, 1, 2])
}

/// A configuration in a few lines: what a failing seed's report shows.
pub fn describe(config: &LogWorldConfig) -> Vec<String> {
    let quorums = match config.quorums {
        None => "majorities".to_owned(),
        Some(Quorums::Flexible(flexible)) => format!(
            "flexible quorums, q1 = {}, q2 = {}",
            flexible.phase1_size(),
            flexible.phase2_size()
        ),
        Some(Quorums::Grid(grid)) => format!("a grid of {} rows", grid.rows().len()),
        Some(Quorums::Majority(_)) => "majorities".to_owned(),
    };
    let programs: Vec<String> = (config.clients.iter().enumerate())
        .map(|(index, program)| {
            let ops: Vec<String> = program.iter().map(ToString::to_string).collect();
            format!("C{}: {}", index + 1, ops.join(", "))
        })
        .collect();
    let budget: Vec<String> = (Fault::ALL.iter())
        .filter(|fault| config.budget.allows(**fault))
        .map(|fault| format!("{} {}", fault.budget_key(), config.budget.left(*fault)))
        .collect();
    let flags = [
        (config.stepwise_ready, "stepwise Ready"),
        (config.self_messages_in_flight, "messages to self in flight"),
        (config.bit_level_storage, "bit-level storage faults"),
    ];
    let flags: Vec<&str> = (flags.iter())
        .filter(|(on, _)| *on)
        .map(|(_, name)| *name)
        .collect();
    vec![
        format!(
            "{} nodes, {quorums}, {} proxies, accept batch {}, election timeout {} ticks, {} handoffs, {} trims{}{}{}",
            config.node_count,
            config.proxies,
            config.accept_batch,
            config.election_timeout_ticks,
            config.handoffs,
            config.trims,
            if config.trim_lag == 0 {
                String::new()
            } else {
                format!(" ({} slots below applied)", config.trim_lag)
            },
            config
                .slot_window
                .map_or(String::new(), |window| format!(", slot window {window}")),
            config
                .catch_up_batch
                .map_or(String::new(), |batch| format!(", catch-up batch {batch}")),
        ),
        format!("clients: {}", programs.join("; ")),
        format!("budget: {}", budget.join(", ")),
        format!(
            "features: {}",
            if flags.is_empty() {
                "none".to_owned()
            } else {
                flags.join(", ")
            }
        ),
    ]
}

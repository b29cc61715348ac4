//! Act IV's storage-fault scenarios: faulty records (CTRL, Alagappan et al., "Protocol-Aware
//! Recovery for Consensus-Based Storage", FAST 2018, C1–C5) and the wiped node (Paxos Made
//! Live, section 5.1), with the corrupt-as-none control. The blank-restart control, reached
//! through a wipe, is Act II's (`act2-blank-restart-control`).

use super::act2::{and_then, setup, writes, x1_chosen};
use super::act4::CHAPTER_DISKS;
use super::{BookMode, Scenario, text};
use crate::faults::{Budget, Fault, NegativeControl};
use crate::replicated_log::LogWorldConfig;
use crate::report::Mode;

const BOTH_MODES: &[Mode] = &[Mode::Exhaustive, Mode::Simulation];
const SIMULATION: &[Mode] = &[Mode::Simulation];

/// The smallest world PROTOCOLS.md names for C2: x=1 is chosen in slot 1 by {N1, N2} and
/// learned by N1 ([`x1_chosen`]), then N2 crashes: its disk is what the storage faults reach.
fn n2_crashed() -> Vec<&'static str> {
    and_then(&x1_chosen(), &["crash N2"])
}

/// [`n2_crashed`], then N2's disk is wiped: the library refuses to boot it.
fn n2_wiped() -> Vec<&'static str> {
    and_then(&n2_crashed(), &["wipe N2"])
}

/// Three nodes, C1 writing x=1 then x=2, an election timeout of 1 tick, and `budget`.
fn three_nodes(budget: Budget) -> LogWorldConfig {
    let mut config = LogWorldConfig::three_nodes(writes("x", 2));
    config.election_timeout_ticks = 1;
    config.budget = budget;
    config
}

/// [`three_nodes`] with 2 ticks, 1 crash and 1 corrupted record: the world of
/// `act4-faulty-records` and its control.
fn smallest() -> LogWorldConfig {
    three_nodes(
        Budget::NONE
            .with(Fault::Tick, 2)
            .with(Fault::Crash, 1)
            .with(Fault::CorruptRecord, 1),
    )
}

/// [`n2_crashed`], then C1 hears that x=1 is written and N1 is cut off: N2's disk decides
/// whether N3 and N2 can choose C1's x=2 in slot 1.
fn n2_crashed_n1_cut_off() -> Vec<&'static str> {
    and_then(
        &n2_crashed(),
        &["deliver m8 N1->C1 Reply(#1, written)", "partition N1"],
    )
}

/// Three nodes whose storage faults act at the bit level: 2 ticks and 1 flipped bit, anywhere
/// on a crashed node's disk. The world of `act4-any-bit-flipped`: seeded, since every flipped
/// bit is a disk of its own and the explorer does not finish it (over 19 million states); the
/// sweep of [`crate::disk_damage`] flips every bit of such a record exhaustively.
fn any_bit() -> LogWorldConfig {
    let mut config = three_nodes(
        Budget::NONE
            .with(Fault::Tick, 2)
            .with(Fault::Crash, 1)
            .with(Fault::Partition, 1)
            .with(Fault::CorruptRecord, 1),
    );
    config.bit_level_storage = true;
    config
}

/// The scenarios.
pub(super) fn all() -> Vec<Scenario> {
    let wiped = three_nodes(
        Budget::NONE
            .with(Fault::Tick, 2)
            .with(Fault::Crash, 1)
            .with(Fault::WipeDisk, 1),
    );
    // Five nodes, so that a wiped disk and a corrupted record together still leave a
    // majority that boots and answers definitely: every run can settle once faults stop.
    let mut every_storage_fault = three_nodes(
        Budget::NONE
            .with(Fault::Tick, 60)
            .with(Fault::Crash, 3)
            .with(Fault::TornWrite, 2)
            .with(Fault::CorruptRecord, 1)
            .with(Fault::WipeDisk, 1)
            .with(Fault::Drop, 4)
            .with(Fault::Duplicate, 2)
            .with(Fault::ClientResend, 4),
    );
    every_storage_fault.node_count = 5;
    every_storage_fault.clients = vec![writes("x", 3)];
    every_storage_fault.stepwise_ready = true;
    every_storage_fault.bit_level_storage = true;
    vec![
        Scenario {
            name: "act4-faulty-records",
            claim: text(
                "With a record of a crashed voter corrupted (its promise, or its vote in the chosen slot), no schedule reports a vote as \"no vote\" or un-makes a decision: a corrupt vote is unknown, an unknown does not complete a discovery quorum, and a corrupt promise refuses the boot.",
            ),
            world: text(
                "N1-N3 and C1 (writes x=1, x=2). Prelude: x=1 is chosen by {N1, N2}, and N2 crashes. Then 1 corrupted record on N2's disk (its promise or its vote, or none) at any point before its restart, 1 tick, and every schedule.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &["act4/faulty-records"],
            chapter: Some(CHAPTER_DISKS),
            setup: setup(smallest(), &n2_crashed()),
        },
        Scenario {
            name: "act4-any-bit-flipped",
            claim: text(
                "With any one bit of a crashed voter's disk flipped (a frame's length, label, checksums or payload), no schedule chooses a second value: a damaged frame is refused or read as unknown, never as a torn tail, so a durable vote is never read as \"no vote\".",
            ),
            world: text(
                "N1-N3 and C1 (writes x=1, x=2). Prelude: x=1 is chosen by {N1, N2}, N2 crashes, C1 hears x=1 is written and N1 is cut off. Then 1 flipped bit, any bit of any frame of N2's disk, before its restart, 2 ticks, and every schedule.",
            ),
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 2_000,
                max_steps: 1_000,
            },
            levels: &[],
            chapter: Some(CHAPTER_DISKS),
            setup: setup(any_bit(), &n2_crashed_n1_cut_off()),
        },
        Scenario {
            name: "act4-the-wiped-node",
            claim: text(
                "A node whose disk is wiped is refused at boot and stays down, and no schedule of the other two un-makes a decision.",
            ),
            world: text(
                "N1-N3 and C1 (writes x=1, x=2). Prelude: x=1 is chosen by {N1, N2}; N2 crashes and its disk is wiped. Then 1 tick and every schedule.",
            ),
            modes: BOTH_MODES,
            book_mode: BookMode::Exhaustive,
            levels: &["act4/the-wiped-node"],
            chapter: Some(CHAPTER_DISKS),
            setup: setup(wiped, &n2_wiped()),
        },
        Scenario {
            name: "act4-storage-faults",
            claim: text(
                "Under every storage fault at once (crashes, torn writes cut at any byte, any bit of any frame flipped, a wiped disk) with lost and repeated messages, no decision is un-made and no vote is reported as \"no vote\".",
            ),
            world: text(
                "N1-N5 stepwise (persist, then send, as actions); C1 writes x=1, x=2, x=3 at any node; 60 ticks, 3 crashes, 2 torn writes (each cut at any byte), 1 flipped bit (any bit of any frame of a crashed node's disk), 1 wiped disk, 4 drops, 2 duplicates, 4 client resends.",
            ),
            modes: SIMULATION,
            book_mode: BookMode::Simulation {
                seeds: 1_000,
                max_steps: 3_000,
            },
            levels: &[],
            chapter: Some(CHAPTER_DISKS),
            setup: setup(every_storage_fault, &[]),
        },
        act4_corrupt_as_none_control(),
    ]
}

/// The scenario `act4-corrupt-as-none-control`.
fn act4_corrupt_as_none_control() -> Scenario {
    Scenario {
        name: "act4-corrupt-as-none-control",
        claim: text(
            "Negative control: a node that reports a vote it can no longer read as \"no vote\" lets a new leader fill a chosen slot; the no-none-where-voted checker must catch it.",
        ),
        world: text("The world of act4-faulty-records, whose nodes report unknown votes as none."),
        modes: BOTH_MODES,
        book_mode: BookMode::Exhaustive,
        levels: &[],
        chapter: Some(CHAPTER_DISKS),
        setup: setup(
            LogWorldConfig {
                negative_control: Some(NegativeControl::CorruptAsNone),
                ..smallest()
            },
            &n2_crashed(),
        ),
    }
}

/// The negative controls among [`all`], in its order: the scenarios a replay can show.
pub(super) fn controls() -> Vec<Scenario> {
    vec![act4_corrupt_as_none_control()]
}

//! Core throughput: commands chosen per second by three paros-core `ColocatedNode`s in
//! memory, side by side with three raft-rs `RawNode`s running the same loop in the same run.
//!
//! Usage: `raft-compare [--commands N] [--window W] [--payload BYTES] [--batch B]
//! [--repetitions R]`.
//! Each repetition runs every loop once, in turn; the report gives each loop's median and the
//! ratio paros / raft-rs. See README.md for what the loops share and where they differ.

mod counting_alloc;
mod cpu_clock;
mod paros_loop;
mod raft_loop;
mod workload;

use raft_loop::Appends;
use std::process::ExitCode;
use workload::{MIN_PAYLOAD_BYTES, Measurement, Workload};

#[global_allocator]
static ALLOCATOR: counting_alloc::CountingAllocator = counting_alloc::CountingAllocator;

/// The loops compared, in the order each repetition runs them.
const LOOPS: [(&str, Loop); 3] = [
    ("paros-core", Loop::Paros),
    ("raft-rs, batched appends", Loop::Raft(Appends::Batched)),
    (
        "raft-rs, one entry per append",
        Loop::Raft(Appends::OnePerMessage),
    ),
];

#[derive(Clone, Copy)]
enum Loop {
    Paros,
    Raft(Appends),
}

impl Loop {
    fn measure(self, workload: &Workload) -> Result<Measurement, String> {
        match self {
            Loop::Paros => paros_loop::measure(workload),
            Loop::Raft(appends) => raft_loop::measure(workload, appends),
        }
    }
}

/// The command line.
#[derive(Debug)]
struct Options {
    workload: Workload,
    repetitions: usize,
}

const USAGE: &str = "usage: raft-compare [--commands N] [--window W] [--payload BYTES] [--batch B] [--repetitions R]";

fn parse_options(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        workload: Workload {
            commands: 100_000,
            window: 64,
            payload_bytes: 64,
            accept_batch: 1,
        },
        repetitions: 5,
    };
    let mut args = args.peekable();
    while let Some(flag) = args.next() {
        if flag == "--help" || flag == "-h" {
            return Err(USAGE.to_owned());
        }
        let value = args
            .next()
            .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
        let number: u64 = value
            .parse()
            .map_err(|_| format!("{flag} takes a whole number, not {value:?}\n{USAGE}"))?;
        match flag.as_str() {
            "--commands" => options.workload.commands = number,
            "--window" => options.workload.window = number,
            "--payload" => options.workload.payload_bytes = number as usize,
            "--batch" => options.workload.accept_batch = number as usize,
            "--repetitions" => options.repetitions = number as usize,
            _ => return Err(format!("unknown option {flag:?}\n{USAGE}")),
        }
    }
    validate(&options)?;
    Ok(options)
}

fn validate(options: &Options) -> Result<(), String> {
    let workload = &options.workload;
    if workload.commands == 0
        || workload.window == 0
        || workload.accept_batch == 0
        || options.repetitions == 0
    {
        return Err(
            "--commands, --window, --batch and --repetitions must be at least 1".to_owned(),
        );
    }
    if workload.window > 256 {
        return Err("--window is at most 256 (raft-rs's max_inflight_msgs here)".to_owned());
    }
    if workload.payload_bytes < MIN_PAYLOAD_BYTES {
        return Err(format!("--payload is at least {MIN_PAYLOAD_BYTES} bytes"));
    }
    Ok(())
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    if values.len() % 2 == 1 {
        values[middle]
    } else {
        (values[middle - 1] + values[middle]) / 2.0
    }
}

/// Every repetition's measurements, one row per repetition and one column per loop.
fn run_all(options: &Options) -> Result<Vec<Vec<Measurement>>, String> {
    let mut rows = Vec::new();
    for repetition in 1..=options.repetitions {
        let mut row = Vec::new();
        for (_, each) in LOOPS {
            row.push(each.measure(&options.workload)?);
        }
        let rates: Vec<String> = row.iter().map(rates_text).collect();
        println!("repetition {repetition}: {}", rates.join(" | "));
        rows.push(row);
    }
    Ok(rows)
}

/// "wall-clock rate (CPU rate)" in commands per second.
fn rates_text(measurement: &Measurement) -> String {
    let wall = measurement.commands_per_second();
    match measurement.commands_per_cpu_second() {
        Some(cpu) => format!("{wall:>8.0} ({cpu:>8.0})"),
        None => format!("{wall:>8.0}"),
    }
}

/// One loop's medians over the repetitions.
struct Medians {
    per_second: f64,
    per_cpu_second: Option<f64>,
    allocations: f64,
    messages: f64,
}

fn medians(rows: &[Vec<Measurement>], column: usize) -> Medians {
    let of = |figure: &dyn Fn(&Measurement) -> f64| -> f64 {
        median(rows.iter().map(|row| figure(&row[column])).collect())
    };
    let per_cpu_second: Option<Vec<f64>> = rows
        .iter()
        .map(|row| row[column].commands_per_cpu_second())
        .collect();
    Medians {
        per_second: of(&Measurement::commands_per_second),
        per_cpu_second: per_cpu_second.map(median),
        allocations: of(&Measurement::allocations_per_command),
        messages: of(&Measurement::messages_per_command),
    }
}

fn report(rows: &[Vec<Measurement>]) {
    println!();
    println!(
        "{:<30} {:>12} {:>14} {:>11} {:>9}",
        "median of repetitions", "commands/s", "commands/CPU-s", "allocs/cmd", "msgs/cmd"
    );
    let all: Vec<Medians> = (0..LOOPS.len())
        .map(|column| medians(rows, column))
        .collect();
    for ((name, _), each) in LOOPS.iter().zip(&all) {
        let cpu = each
            .per_cpu_second
            .map_or("n/a".to_owned(), |rate| format!("{rate:.0}"));
        println!(
            "{name:<30} {:>12.0} {cpu:>14} {:>11.1} {:>9.2}",
            each.per_second, each.allocations, each.messages
        );
    }
    println!();
    let paros = &all[0];
    for ((name, _), raft) in LOOPS.iter().zip(&all).skip(1) {
        let wall = paros.per_second / raft.per_second;
        let cpu = paros
            .per_cpu_second
            .zip(raft.per_cpu_second)
            .map_or(String::new(), |(ours, theirs)| {
                format!(", per CPU-second {:.2}", ours / theirs)
            });
        println!("ratio paros-core / {name}: wall-clock {wall:.2}{cpu}");
    }
}

fn main() -> ExitCode {
    let options = match parse_options(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let workload = &options.workload;
    println!(
        "3 nodes in memory, no faults: {} commands of {} bytes, window {}, paros accept batch {}, {} repetitions",
        workload.commands,
        workload.payload_bytes,
        workload.window,
        workload.accept_batch,
        options.repetitions
    );
    let names: Vec<&str> = LOOPS.iter().map(|(name, _)| *name).collect();
    println!(
        "commands/s wall-clock (per CPU-second) of: {}",
        names.join(" | ")
    );
    match run_all(&options) {
        Ok(rows) => {
            report(&rows);
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Workload {
        Workload {
            commands: 500,
            window: 8,
            payload_bytes: 64,
            accept_batch: 1,
        }
    }

    #[test]
    fn every_loop_applies_every_command_on_the_leader() {
        for (name, each) in LOOPS {
            let measurement = each
                .measure(&small())
                .unwrap_or_else(|error| panic!("{error}"));
            assert_eq!(measurement.commands, 500, "{name}");
            assert!(measurement.messages > 0, "{name} sent no message");
        }
    }

    #[test]
    fn paros_sends_one_accept_and_one_accepted_per_node_and_command() {
        let measurement = paros_loop::measure(&small()).unwrap();
        assert_eq!(measurement.messages, 6 * 500);
    }

    #[test]
    fn batched_accepts_send_fewer_messages_and_apply_every_command() {
        let batched = Workload {
            accept_batch: 128,
            ..small()
        };
        let measurement = paros_loop::measure(&batched).unwrap();
        assert_eq!(measurement.commands, 500);
        assert!(
            measurement.messages < 6 * 500 / 4,
            "{} messages",
            measurement.messages
        );
    }

    #[test]
    fn batched_appends_send_fewer_messages_than_one_entry_per_append() {
        let batched = raft_loop::measure(&small(), Appends::Batched).unwrap();
        let one_each = raft_loop::measure(&small(), Appends::OnePerMessage).unwrap();
        assert!(batched.messages < one_each.messages / 4);
    }

    fn parse(args: &[&str]) -> Result<Options, String> {
        parse_options(args.iter().map(|arg| arg.to_string()))
    }

    #[test]
    fn options_parse_and_bad_ones_are_refused_with_a_reason() {
        let options = parse(&["--commands", "10", "--window", "2"]).unwrap();
        assert_eq!(options.workload.commands, 10);
        assert_eq!(options.workload.window, 2);
        assert!(
            parse(&["--commands"])
                .unwrap_err()
                .contains("needs a value")
        );
        assert!(
            parse(&["--commands", "many"])
                .unwrap_err()
                .contains("whole number")
        );
        assert!(
            parse(&["--speed", "1"])
                .unwrap_err()
                .contains("unknown option")
        );
        assert!(
            parse(&["--window", "0"])
                .unwrap_err()
                .contains("at least 1")
        );
        assert!(
            parse(&["--window", "300"])
                .unwrap_err()
                .contains("at most 256")
        );
        assert!(parse(&["--batch", "0"]).unwrap_err().contains("at least 1"));
        assert_eq!(parse(&["--batch", "64"]).unwrap().workload.accept_batch, 64);
        assert!(
            parse(&["--payload", "8"])
                .unwrap_err()
                .contains("at least 36")
        );
    }
}

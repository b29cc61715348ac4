//! How fast the linearizability checker judges long client histories: 10,000 operations by 5
//! clients, valid and with one stale read, on one key, spread over ten keys, and on one key
//! with crashes; then 20 clients on one key, to see how concurrency costs.
//!
//! Run with `cargo bench -p paros-sim --bench linearizability`. Prints operations checked per
//! second for each history. The histories come from a seeded generator, so runs compare.

use paros_sim::linearizability::{History, Operation, OperationKind, Verdict, check};
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A small deterministic generator (splitmix64), so every run checks the same histories.
struct Seeded(u64);

impl Seeded {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// True with probability `numerator / denominator`.
    fn chance(&mut self, numerator: u64, denominator: u64) -> bool {
        self.next() % denominator < numerator
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}

/// What to generate.
struct Shape {
    clients: usize,
    operations: usize,
    keys: usize,
    /// Out of 1,000 steps of a client with an operation outstanding, how many crash it.
    crashes_per_mille: u64,
    seed: u64,
}

/// Runs a register store with random real-time intervals: each step moves one client (call,
/// take effect, or return), so the history is linearizable by construction. A crashed client's
/// operation stays pending and the client comes back under a new id.
fn generate(shape: &Shape) -> History {
    let mut random = Seeded(shape.seed);
    let keys: Vec<Arc<str>> = (0..shape.keys)
        .map(|key| format!("k{key}").into())
        .collect();
    let mut store: Vec<Option<Arc<str>>> = vec![None; shape.keys];
    let mut operations: Vec<Operation> = Vec::with_capacity(shape.operations);
    let mut ids: Vec<u32> = (0..shape.clients as u32).collect();
    let mut next_id = shape.clients as u32;
    let mut outstanding: Vec<Option<(usize, bool)>> = vec![None; shape.clients];
    let mut step = 0u64;
    let mut written = 0u64;
    while operations.len() < shape.operations || outstanding.iter().any(Option::is_some) {
        step += 1;
        let slot = random.below(shape.clients);
        match outstanding[slot] {
            None if operations.len() < shape.operations => {
                let key = random.below(shape.keys);
                let kind = if random.chance(1, 2) {
                    written += 1;
                    let value = Arc::from(written.to_string());
                    OperationKind::Write {
                        key: keys[key].clone(),
                        value,
                    }
                } else {
                    OperationKind::Read {
                        key: keys[key].clone(),
                        value: None,
                    }
                };
                operations.push(Operation {
                    client: ids[slot],
                    call: step,
                    ret: None,
                    kind,
                });
                outstanding[slot] = Some((operations.len() - 1, false));
            }
            None => {}
            Some(_) if random.chance(shape.crashes_per_mille, 1000) => {
                outstanding[slot] = None;
                ids[slot] = next_id;
                next_id += 1;
            }
            Some((index, false)) => {
                let key_index = |key: &Arc<str>| keys.iter().position(|k| k == key).unwrap();
                match &mut operations[index].kind {
                    OperationKind::Write { key, value } => {
                        store[key_index(key)] = Some(value.clone());
                    }
                    OperationKind::Read { key, value } => *value = store[key_index(key)].clone(),
                }
                outstanding[slot] = Some((index, true));
            }
            Some((index, true)) => {
                operations[index].ret = Some(step);
                outstanding[slot] = None;
            }
        }
    }
    History::new(operations).expect("the generator makes well-formed histories")
}

/// The same history with one read, about 60% of the way in, answering the value of an older
/// write to its key that a later write had overwritten before the read began.
fn with_stale_read(history: &History) -> History {
    let mut operations = history.operations().to_vec();
    let start = operations.len() * 3 / 5;
    let stale = (start..operations.len())
        .find_map(|index| stale_value(&operations, index).map(|value| (index, value)));
    let (index, value) = stale.expect("a long history has a read that can be made stale");
    if let OperationKind::Read { value: answer, .. } = &mut operations[index].kind {
        *answer = Some(value);
    }
    History::new(operations).expect("changing an answer keeps the shape")
}

/// For a returned read, a value of its key that was certainly overwritten before it began.
fn stale_value(operations: &[Operation], read: usize) -> Option<Arc<str>> {
    let OperationKind::Read { key, .. } = &operations[read].kind else {
        return None;
    };
    let call = operations[read].call;
    operations[read].ret?;
    let writes_before: Vec<&Operation> = operations
        .iter()
        .filter(
            |operation| matches!(&operation.kind, OperationKind::Write { key: k, .. } if k == key),
        )
        .filter(|operation| operation.ret.is_some_and(|ret| ret < call))
        .collect();
    let old = writes_before.first()?;
    let overwritten = writes_before
        .iter()
        .any(|later| later.call > old.ret.unwrap_or(u64::MAX));
    match (&old.kind, overwritten) {
        (OperationKind::Write { value, .. }, true) => Some(value.clone()),
        _ => None,
    }
}

/// Checks `history` repeatedly for about a second; returns the verdict and the time per check.
fn measure(history: &History) -> (Verdict, Duration) {
    let verdict = check(history);
    let began = Instant::now();
    let mut runs = 0u32;
    while runs < 3 || began.elapsed() < Duration::from_secs(1) {
        black_box(check(black_box(history)));
        runs += 1;
    }
    (verdict, began.elapsed() / runs)
}

fn main() {
    // (name, clients, keys, crashes per mille): the five clients, then 20 for scale.
    let cases = [
        ("5 clients, 1 key", 5, 1, 0),
        ("5 clients, 10 keys", 5, 10, 0),
        ("5 clients, 1 key, 1% crashes", 5, 1, 10),
        ("20 clients, 1 key", 20, 1, 0),
    ];
    println!(
        "{:<45} {:>6} {:>8} {:>17} {:>10} {:>12}",
        "history", "ops", "pending", "verdict", "ms/check", "ops/s"
    );
    let mut reasons = Vec::new();
    for (name, clients, keys, crashes_per_mille) in cases {
        let shape = Shape {
            clients,
            operations: 10_000,
            keys,
            crashes_per_mille,
            seed: 42,
        };
        let valid = generate(&shape);
        let invalid = with_stale_read(&valid);
        for (label, history) in [("valid", &valid), ("one stale read", &invalid)] {
            let (verdict, per_check) = measure(history);
            // A valid history must pass; an invalid one must not, though it may be too large to
            // decide, which the table shows.
            let valid = label == "valid";
            assert_eq!(
                verdict.is_linearizable(),
                valid,
                "{label}, {name}: {verdict}"
            );
            let operations = history.operations().len();
            let pending = history
                .operations()
                .iter()
                .filter(|operation| operation.ret.is_none())
                .count();
            let verdict_name = match &verdict {
                Verdict::Linearizable { .. } => "linearizable",
                Verdict::NotLinearizable { .. } => "not linearizable",
                Verdict::TooLarge { .. } => "too large",
            };
            if !verdict.is_linearizable() {
                reasons.push(format!("{name}: {verdict}"));
            }
            println!(
                "{:<45} {:>6} {:>8} {:>17} {:>10.2} {:>12.0}",
                format!("{label}, {name}"),
                operations,
                pending,
                verdict_name,
                per_check.as_secs_f64() * 1e3,
                operations as f64 / per_check.as_secs_f64()
            );
        }
    }
    println!();
    for reason in reasons {
        println!("{reason}");
    }
}

//! Hand-written histories, each showing one rule, and a property test that the search and the
//! brute-force checker agree on random small histories.

use super::brute;
use super::*;
use proptest::prelude::*;

fn write(client: u32, call: u64, ret: Option<u64>, key: &str, value: &str) -> Operation {
    Operation::write(client, call, ret, key, value)
}

fn read(client: u32, call: u64, ret: Option<u64>, key: &str, value: Option<&str>) -> Operation {
    Operation::read(client, call, ret, key, value)
}

fn history(operations: Vec<Operation>) -> History {
    History::new(operations).expect("a well-formed history")
}

/// Checks `operations` with both checkers, asserts they agree and that a witness is valid.
fn verdict(operations: Vec<Operation>) -> Verdict {
    let history = history(operations);
    let verdict = check(&history);
    assert_eq!(
        verdict.is_linearizable(),
        brute::linearize(&history).is_some(),
        "the two checkers disagree on {history:?}: {verdict}"
    );
    if let Verdict::Linearizable { order } = &verdict {
        assert!(brute::is_witness(&history, order), "bad witness {order:?}");
    }
    verdict
}

fn failure(verdict: Verdict) -> (String, Vec<usize>, String) {
    match verdict {
        Verdict::NotLinearizable {
            key,
            operations,
            reason,
            ..
        } => (key.to_string(), operations, reason),
        other => panic!("expected a failure, got {other}"),
    }
}

#[test]
fn a_stale_read_after_a_completed_overwrite_is_not_linearizable() {
    // Herlihy & Wing's real-time condition: the write of 2 finished before the read began, so
    // the read must see 2 (or a later write), not 1.
    let (key, operations, reason) = failure(verdict(vec![
        write(1, 10, Some(20), "x", "1"),
        write(1, 25, Some(31), "x", "2"),
        read(2, 40, Some(44), "x", Some("1")),
    ]));
    assert_eq!(key, "x");
    assert_eq!(operations, vec![2, 0, 1]);
    assert_eq!(
        reason,
        "the read of x by c2 at steps 40 to 44 returned 1, but the write of x = 2 by c1 at steps \
         25 to 31 overwrote the write of x = 1 by c1 at steps 10 to 20 and completed before the \
         read began"
    );
}

#[test]
fn a_read_of_nothing_after_a_completed_write_is_not_linearizable() {
    // A register once written is never unwritten.
    let (_, operations, reason) = failure(verdict(vec![
        write(1, 25, Some(31), "x", "2"),
        read(2, 40, Some(44), "x", None),
    ]));
    assert_eq!(operations, vec![1, 0]);
    assert_eq!(
        reason,
        "the read of x by c2 at steps 40 to 44 returned nothing, but the write of x = 2 by c1 at \
         steps 25 to 31 completed before the read began"
    );
}

#[test]
fn a_read_concurrent_with_a_write_may_return_either_value() {
    // Overlapping operations may take effect in either order.
    for seen in [None, Some("1")] {
        let verdict = verdict(vec![
            write(1, 10, Some(20), "x", "1"),
            read(2, 15, Some(18), "x", seen),
        ]);
        assert!(verdict.is_linearizable(), "{seen:?}: {verdict}");
    }
}

#[test]
fn operations_whose_steps_touch_are_concurrent() {
    // A return and a call at the same step are not ordered: the read may precede the write.
    let verdict = verdict(vec![
        write(1, 10, Some(20), "x", "1"),
        read(2, 20, Some(25), "x", None),
    ]);
    assert_eq!(verdict, Verdict::Linearizable { order: vec![1, 0] });
}

#[test]
fn a_pending_write_seen_by_a_later_read_took_effect() {
    // A write that never returned may have taken effect at any point after its call.
    let verdict = verdict(vec![
        write(1, 10, None, "x", "1"),
        read(2, 30, Some(35), "x", Some("1")),
    ]);
    assert_eq!(verdict, Verdict::Linearizable { order: vec![0, 1] });
}

#[test]
fn a_pending_write_never_seen_may_not_have_taken_effect() {
    // ... or not at all: then it is absent from the witness.
    let verdict = verdict(vec![
        write(1, 10, None, "x", "1"),
        read(2, 30, Some(35), "x", None),
    ]);
    assert_eq!(verdict, Verdict::Linearizable { order: vec![1] });
}

#[test]
fn a_pending_write_seen_and_then_unseen_is_not_linearizable() {
    // Once a read has seen the pending write take effect, a later read cannot miss it.
    let (key, operations, reason) = failure(verdict(vec![
        write(1, 5, None, "x", "1"),
        read(2, 10, Some(12), "x", Some("1")),
        read(3, 20, Some(22), "x", None),
    ]));
    assert_eq!(key, "x");
    assert_eq!(operations, vec![2, 1]);
    assert_eq!(
        reason,
        "the read of x by c3 at steps 20 to 22 returned nothing, but the read of x by c2 at \
         steps 10 to 12, which completed before it began, had returned 1"
    );
}

#[test]
fn a_value_seen_then_an_older_value_is_not_linearizable() {
    // The pending write of 2 began after the write of 1 completed, so once 2 is seen, 1 is gone.
    let (_, _, reason) = failure(verdict(vec![
        write(1, 1, Some(3), "x", "1"),
        write(1, 5, None, "x", "2"),
        read(2, 10, Some(12), "x", Some("2")),
        read(3, 20, Some(22), "x", Some("1")),
    ]));
    assert!(reason.contains("had returned 2"), "{reason}");
    assert!(
        reason.contains("completed before the write of x = 2"),
        "{reason}"
    );
}

#[test]
fn a_pending_write_seen_once_must_stay_seen_against_an_older_write() {
    // The pending write of 1 must take effect before the read that saw it; the write of 2 was
    // over by then, so a later read of 2 has nothing to explain it. (The pending write is
    // bounded by that read's return in the search.)
    assert!(
        !verdict(vec![
            write(1, 1, None, "x", "1"),
            write(2, 2, Some(3), "x", "2"),
            read(3, 5, Some(6), "x", Some("1")),
            read(3, 8, Some(9), "x", Some("2")),
        ])
        .is_linearizable()
    );
    // With the write of 2 concurrent with that read, 2 may come after 1.
    assert!(
        verdict(vec![
            write(1, 1, None, "x", "1"),
            write(2, 2, Some(7), "x", "2"),
            read(3, 5, Some(6), "x", Some("1")),
            read(3, 8, Some(9), "x", Some("2")),
        ])
        .is_linearizable()
    );
}

#[test]
fn a_pending_write_of_a_repeated_value_may_take_effect_late() {
    // Two writes of 1, one pending: the read of 1 may be explained by the completed one, and the
    // pending one may take effect after the write of 2, so the last read may see 1 again.
    let verdict = verdict(vec![
        write(1, 1, Some(2), "x", "1"),
        write(2, 1, None, "x", "1"),
        write(3, 3, Some(4), "x", "2"),
        read(4, 5, Some(6), "x", Some("2")),
        read(4, 7, Some(8), "x", Some("1")),
    ]);
    assert_eq!(
        verdict,
        Verdict::Linearizable {
            order: vec![0, 2, 3, 1, 4]
        }
    );
}

#[test]
fn a_pending_read_constrains_nothing() {
    // A read that never answered is dropped, whatever its recorded answer.
    let verdict = verdict(vec![
        write(1, 1, Some(3), "x", "1"),
        read(2, 5, None, "x", Some("never written")),
    ]);
    assert_eq!(verdict, Verdict::Linearizable { order: vec![0] });
}

#[test]
fn keys_are_independent_registers() {
    // Locality (Herlihy & Wing, Theorem 1): each key is checked alone, and the merged witness
    // still respects real time across keys.
    let verdict = verdict(vec![
        write(1, 1, Some(2), "x", "1"),
        write(2, 3, Some(4), "y", "1"),
        read(1, 5, Some(6), "y", Some("1")),
        read(2, 7, Some(8), "x", Some("1")),
        read(3, 1, Some(8), "y", None),
    ]);
    assert_eq!(
        verdict,
        Verdict::Linearizable {
            order: vec![0, 4, 1, 2, 3]
        }
    );
}

#[test]
fn a_failure_names_the_key_that_fails_and_only_it() {
    // The same value under another key does not excuse a stale read of y.
    let (key, operations, _) = failure(verdict(vec![
        write(1, 1, Some(2), "x", "1"),
        write(2, 3, Some(4), "y", "1"),
        write(2, 5, Some(6), "y", "2"),
        read(1, 7, Some(8), "y", Some("1")),
    ]));
    assert_eq!(key, "y");
    assert_eq!(operations, vec![3, 1, 2]);
}

#[test]
fn the_smallest_failing_key_is_reported() {
    // Keys are checked in order, so the report is the same whatever the history's order.
    let (key, _, _) = failure(verdict(vec![
        read(1, 1, Some(2), "b", Some("1")),
        read(2, 1, Some(2), "a", Some("1")),
    ]));
    assert_eq!(key, "a");
}

#[test]
fn a_read_of_a_never_written_key_returns_nothing() {
    // The initial state of every register is "never written".
    let verdict = verdict(vec![read(1, 1, Some(2), "x", None)]);
    assert_eq!(verdict, Verdict::Linearizable { order: vec![0] });
    let (_, operations, reason) =
        failure(check(&history(vec![read(1, 1, Some(2), "x", Some("1"))])));
    assert_eq!(operations, vec![0]);
    assert_eq!(
        reason,
        "the read of x by c1 at steps 1 to 2 returned 1, but no operation wrote x = 1"
    );
}

#[test]
fn a_read_of_a_value_written_only_later_is_not_linearizable() {
    // A read cannot see a write called after the read returned.
    let (_, _, reason) = failure(verdict(vec![
        read(1, 1, Some(2), "x", Some("1")),
        write(2, 3, Some(4), "x", "1"),
    ]));
    assert!(reason.contains("began after the read returned"), "{reason}");
}

#[test]
fn repeated_values_are_told_apart_by_time_not_by_value() {
    // Two writes of 1 around a write of 2: a read after all three may see only the last.
    let operations = vec![
        write(1, 1, Some(2), "x", "1"),
        write(1, 3, Some(4), "x", "2"),
        write(2, 3, Some(6), "x", "1"),
        read(3, 7, Some(8), "x", Some("1")),
    ];
    assert!(verdict(operations.clone()).is_linearizable());
    let mut stale = operations;
    stale[3] = read(3, 7, Some(8), "x", Some("2"));
    let mut later = stale.clone();
    later[2] = write(2, 5, Some(6), "x", "1");
    // With the second write of 1 concurrent with the write of 2, reading 2 is fine; once it
    // is strictly after, 2 is overwritten.
    assert!(verdict(stale).is_linearizable());
    assert!(!verdict(later).is_linearizable());
}

#[test]
fn when_no_pattern_fits_the_reason_says_where_the_search_got_stuck() {
    // Two concurrent writes can be seen in either order, but not 1, then 2, then 1 again.
    let (_, operations, reason) = failure(verdict(vec![
        write(1, 1, Some(10), "x", "1"),
        write(2, 1, Some(10), "x", "2"),
        read(3, 11, Some(12), "x", Some("1")),
        read(3, 13, Some(14), "x", Some("2")),
        read(3, 15, Some(16), "x", Some("1")),
    ]));
    assert_eq!(operations, vec![3, 2]);
    assert_eq!(
        reason,
        "no order of the 5 operations on x is both legal for a register and true to real time: \
         the longest legal start orders 3 of them and leaves x holding 1, and the read of x by \
         c3 at steps 13 to 14, which returned 2, cannot follow it"
    );
}

#[test]
fn an_empty_history_is_linearizable() {
    assert_eq!(
        check(&History::default()),
        Verdict::Linearizable { order: vec![] }
    );
}

#[test]
fn a_key_over_the_operation_limit_is_too_large_not_a_pass() {
    // Limits are explicit: the verdict says the checker did not decide.
    let history = history(vec![
        write(1, 1, Some(2), "x", "1"),
        write(1, 3, Some(4), "x", "2"),
        read(1, 5, Some(6), "x", Some("2")),
    ]);
    let limits = Limits {
        operations_per_key_max: 2,
        ..Limits::default()
    };
    let verdict = check_with_limits(&history, limits);
    assert_eq!(
        verdict,
        Verdict::TooLarge {
            key: "x".into(),
            reason: "3 operations, more than the limit of 2".to_string()
        }
    );
    assert!(!verdict.is_linearizable());
}

#[test]
fn a_memo_over_budget_is_too_large_not_a_pass() {
    let history = history(vec![
        write(1, 1, Some(2), "x", "1"),
        write(1, 3, Some(4), "x", "2"),
    ]);
    let limits = Limits {
        memo_bytes_max: 50,
        ..Limits::default()
    };
    let verdict = check_with_limits(&history, limits);
    assert!(
        matches!(&verdict, Verdict::TooLarge { reason, .. } if reason.contains("memo")),
        "{verdict}"
    );
}

#[test]
fn a_search_out_of_memo_still_fails_a_key_that_a_pattern_proves_wrong() {
    // The stale read is a proof on its own, so the key is decided without the search...
    let tiny = Limits {
        memo_bytes_max: 50,
        ..Limits::default()
    };
    let stale = history(vec![
        write(1, 10, Some(20), "x", "1"),
        write(1, 25, Some(31), "x", "2"),
        read(2, 40, Some(44), "x", Some("1")),
    ]);
    let (key, operations, _) = failure(check_with_limits(&stale, tiny));
    assert_eq!((key.as_str(), operations), ("x", vec![2, 0, 1]));
    // ... but a failure no pattern explains needs the search, so it stays undecided.
    let subtle = history(vec![
        write(1, 1, Some(10), "x", "1"),
        write(2, 1, Some(10), "x", "2"),
        read(3, 11, Some(12), "x", Some("1")),
        read(3, 13, Some(14), "x", Some("2")),
    ]);
    assert!(matches!(
        check_with_limits(&subtle, tiny),
        Verdict::TooLarge { .. }
    ));
    assert!(!check(&subtle).is_linearizable());
}

#[test]
fn a_failing_key_outranks_a_key_too_large_to_check() {
    // A definite failure is worth more than "could not decide", even on a later key.
    let history = history(vec![
        write(1, 1, Some(2), "a", "1"),
        write(1, 3, Some(4), "a", "2"),
        write(1, 5, Some(6), "a", "3"),
        read(2, 1, Some(2), "b", Some("1")),
    ]);
    let limits = Limits {
        operations_per_key_max: 2,
        ..Limits::default()
    };
    let (key, _, _) = failure(check_with_limits(&history, limits));
    assert_eq!(key, "b");
}

#[test]
fn a_return_before_its_call_is_rejected() {
    let error = History::new(vec![write(1, 5, Some(4), "x", "1")]).unwrap_err();
    assert_eq!(
        error,
        HistoryError::ReturnBeforeCall {
            index: 0,
            call: 5,
            ret: 4
        }
    );
}

#[test]
fn a_client_with_two_operations_outstanding_is_rejected() {
    // After a pending operation the client can never call again...
    let error = History::new(vec![
        read(1, 7, Some(9), "x", None),
        write(1, 1, None, "x", "1"),
    ])
    .unwrap_err();
    assert_eq!(
        error,
        HistoryError::Overlapping {
            client: 1,
            earlier: 1,
            later: 0,
            call: 7
        }
    );
    // ... and it calls again only at a step after its previous answer.
    let error = History::new(vec![
        write(1, 1, Some(3), "x", "1"),
        read(1, 3, Some(4), "x", None),
    ])
    .unwrap_err();
    assert!(matches!(error, HistoryError::Overlapping { .. }));
    assert!(
        error
            .to_string()
            .starts_with("client c1 called operation 1 at step 3 while its operation 0")
    );
}

#[test]
fn a_long_sequential_history_checks_quickly_and_in_order() {
    // Many operations on one key, one client: the search never backtracks.
    let mut operations = Vec::new();
    for round in 0..2_000u64 {
        let value = round.to_string();
        operations.push(write(1, 4 * round, Some(4 * round + 1), "x", &value));
        operations.push(read(
            1,
            4 * round + 2,
            Some(4 * round + 3),
            "x",
            Some(&value),
        ));
    }
    let count = operations.len();
    let history = history(operations);
    assert_eq!(
        check(&history),
        Verdict::Linearizable {
            order: (0..count).collect()
        }
    );
}

/// A history made by running a register store: each script entry moves one client a step
/// (call, take effect, return, or crash). The result is linearizable by construction; then
/// one read's answer may be changed.
fn simulated(script: &[(u8, u8, u8, u8)], steps_advance: &[bool]) -> History {
    const CLIENTS: usize = 3;
    const KEYS: [&str; 2] = ["x", "y"];
    let mut store: BTreeMap<Arc<str>, Arc<str>> = BTreeMap::new();
    let mut operations: Vec<Operation> = Vec::new();
    // Per client slot: its current id, its outstanding operation and whether that took effect.
    let mut ids: Vec<u32> = (0..CLIENTS as u32).collect();
    let mut outstanding: Vec<Option<(usize, bool)>> = vec![None; CLIENTS];
    let mut last_ret = [0u64; CLIENTS];
    let mut next_id = CLIENTS as u32;
    let mut step = 1u64;
    for (position, &(client, choice, key, value)) in script.iter().enumerate() {
        if steps_advance.get(position).copied().unwrap_or(true) {
            step += 1;
        }
        let slot = client as usize % CLIENTS;
        let key = KEYS[key as usize % KEYS.len()];
        match outstanding[slot] {
            None if operations.len() < brute::OPERATIONS_MAX - 1 => {
                step = step.max(last_ret[slot] + 1);
                let operation = if choice % 2 == 0 {
                    write(ids[slot], step, None, key, &(value % 3).to_string())
                } else {
                    read(ids[slot], step, None, key, None)
                };
                operations.push(operation);
                outstanding[slot] = Some((operations.len() - 1, false));
            }
            None => {}
            Some(_) if choice % 7 == 6 => {
                // The client crashes: its operation stays pending; it comes back as a new client.
                outstanding[slot] = None;
                ids[slot] = next_id;
                next_id += 1;
            }
            Some((index, false)) => {
                match &mut operations[index].kind {
                    OperationKind::Write { key, value } => {
                        store.insert(key.clone(), value.clone());
                    }
                    OperationKind::Read { key, value } => *value = store.get(key).cloned(),
                }
                outstanding[slot] = Some((index, true));
            }
            Some((index, true)) => {
                operations[index].ret = Some(step);
                last_ret[slot] = step;
                outstanding[slot] = None;
            }
        }
    }
    History::new(operations).expect("the simulation makes well-formed histories")
}

/// A read's answer from a random byte: nothing, or one of the values the generators write.
fn answer_code(value: u8) -> Option<String> {
    match value % 4 {
        0 => None,
        code => Some((code - 1).to_string()),
    }
}

/// Changes the answer of the `which`-th returned read to `value` (0 = nothing).
fn perturbed(history: &History, which: usize, value: u8) -> History {
    let mut operations = history.operations().to_vec();
    let reads: Vec<usize> = (0..operations.len())
        .filter(|&index| {
            operations[index].ret.is_some()
                && matches!(operations[index].kind, OperationKind::Read { .. })
        })
        .collect();
    if let Some(&index) = reads.get(which % reads.len().max(1))
        && let OperationKind::Read { value: answer, .. } = &mut operations[index].kind
    {
        *answer = answer_code(value).map(|answer| Arc::from(answer.as_str()));
    }
    History::new(operations).expect("changing an answer keeps the shape")
}

/// A history with arbitrary intervals and answers: each operation by its own client.
fn arbitrary(raw: &[(u8, u8, u8, u8, u8)]) -> History {
    let operations = raw
        .iter()
        .enumerate()
        .map(|(index, &(call, length, kind, key, value))| {
            let call = u64::from(call % 16);
            let ret = (length % 8 != 7).then(|| call + u64::from(length % 8));
            let key = ["x", "y"][key as usize % 2];
            let client = index as u32;
            if kind % 2 == 0 {
                write(client, call, ret, key, &(value % 3).to_string())
            } else {
                let answer = answer_code(value);
                read(client, call, ret, key, answer.as_deref())
            }
        })
        .collect();
    History::new(operations).expect("one operation per client is always well-formed")
}

/// Asserts both checkers agree and returns whether the history is linearizable.
fn agree(history: &History) -> Result<bool, TestCaseError> {
    let verdict = check(history);
    let brute = brute::linearize(history);
    prop_assert_eq!(verdict.is_linearizable(), brute.is_some(), "{}", verdict);
    match &verdict {
        Verdict::Linearizable { order } => {
            prop_assert!(brute::is_witness(history, order), "bad witness {:?}", order)
        }
        Verdict::NotLinearizable {
            operations, reason, ..
        } => {
            prop_assert!(!operations.is_empty() && !reason.is_empty());
        }
        Verdict::TooLarge { .. } => prop_assert!(false, "a small history is never too large"),
    }
    // The verdict and the failing key do not depend on the order operations were recorded in.
    let reversed: Vec<Operation> = history.operations().iter().rev().cloned().collect();
    let key_of = |verdict: &Verdict| match verdict {
        Verdict::NotLinearizable { key, .. } | Verdict::TooLarge { key, .. } => Some(key.clone()),
        Verdict::Linearizable { .. } => None,
    };
    let reversed = check(&History::new(reversed).expect("same operations, same shape"));
    prop_assert_eq!(key_of(&reversed), key_of(&verdict));
    Ok(verdict.is_linearizable())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    /// Histories made by a real register are linearizable; with one read's answer changed,
    /// both checkers agree on whether they still are.
    #[test]
    fn simulated_histories_agree_with_brute_force(
        script in prop::collection::vec(any::<(u8, u8, u8, u8)>(), 0..48),
        steps_advance in prop::collection::vec(any::<bool>(), 48),
        which in any::<usize>(),
        value in any::<u8>(),
    ) {
        let history = simulated(&script, &steps_advance);
        prop_assert!(agree(&history)?, "a simulated history must be linearizable");
        agree(&perturbed(&history, which, value))?;
    }

    /// On arbitrary small histories, mostly not linearizable, both checkers agree.
    #[test]
    fn arbitrary_histories_agree_with_brute_force(
        raw in prop::collection::vec(any::<(u8, u8, u8, u8, u8)>(), 0..=brute::OPERATIONS_MAX),
    ) {
        agree(&arbitrary(&raw))?;
    }
}

/// How many pending writes wrote a value that some read of the same key returned.
fn pending_writes_read(history: &History) -> usize {
    let operations = history.operations();
    let read_back = |key: &Arc<str>, value: &Arc<str>| {
        operations.iter().any(|operation| {
            operation.ret.is_some()
                && operation.kind
                    == OperationKind::Read {
                        key: key.clone(),
                        value: Some(value.clone()),
                    }
        })
    };
    operations
        .iter()
        .filter(|operation| operation.ret.is_none())
        .filter(|operation| match &operation.kind {
            OperationKind::Write { key, value } => read_back(key, value),
            OperationKind::Read { .. } => false,
        })
        .count()
}

#[test]
fn the_generators_make_both_verdicts_and_pending_operations() {
    // The property tests prove little if every history is trivial: sample the generators with a
    // fixed seed and count what they make.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    let script = prop::collection::vec(any::<(u8, u8, u8, u8)>(), 0..48);
    let steps = prop::collection::vec(any::<bool>(), 48);
    let (mut operations, mut pending, mut failing, mut pending_seen) = (0, 0, 0, 0);
    let samples = 1_000;
    for sample in 0..samples {
        let script = script.new_tree(&mut runner).unwrap().current();
        let steps = steps.new_tree(&mut runner).unwrap().current();
        let history = simulated(&script, &steps);
        operations += history.operations().len();
        pending += history
            .operations()
            .iter()
            .filter(|o| o.ret.is_none())
            .count();
        pending_seen += pending_writes_read(&history);
        failing +=
            usize::from(!check(&perturbed(&history, sample, sample as u8)).is_linearizable());
    }
    // Measured with this seed: 6,413 operations, 2,439 pending, 195 pending writes whose
    // value a read returned, 456 perturbed histories failing.
    assert!(operations >= 5 * samples, "{operations} operations");
    assert!(pending >= operations / 10, "{pending} pending");
    assert!(
        pending_seen >= samples / 10,
        "{pending_seen} pending writes seen"
    );
    assert!(
        (samples / 5..=samples * 4 / 5).contains(&failing),
        "{failing} failing"
    );
    let mut arbitrary_failing = 0;
    let raw = prop::collection::vec(any::<(u8, u8, u8, u8, u8)>(), 0..=brute::OPERATIONS_MAX);
    for _ in 0..samples {
        let history = arbitrary(&raw.new_tree(&mut runner).unwrap().current());
        arbitrary_failing += usize::from(!check(&history).is_linearizable());
    }
    // Measured: 650 of 1,000.
    assert!((samples / 5..=samples * 9 / 10).contains(&arbitrary_failing));
}

/// The condition a failing history's verdict names.
fn condition(operations: Vec<Operation>) -> Condition {
    match verdict(operations) {
        Verdict::NotLinearizable { condition, .. } => condition,
        other => panic!("expected a failure, got {other}"),
    }
}

#[test]
fn a_read_missing_another_clients_completed_write_breaks_real_time_order() {
    let broken = condition(vec![
        write(1, 1, Some(2), "x", "1"),
        read(2, 3, Some(4), "x", None),
    ]);
    assert_eq!(broken, Condition::RealTimeOrder);
}

#[test]
fn a_read_missing_its_own_clients_completed_write_breaks_read_your_writes() {
    let nothing = condition(vec![
        write(1, 1, Some(2), "x", "1"),
        read(1, 3, Some(4), "x", None),
    ]);
    let overwritten = condition(vec![
        write(2, 1, Some(2), "x", "1"),
        write(1, 3, Some(4), "x", "2"),
        read(1, 5, Some(6), "x", Some("1")),
    ]);
    assert_eq!([nothing, overwritten], [Condition::ReadYourWrites; 2]);
}

#[test]
fn a_clients_later_read_of_an_older_state_breaks_program_order() {
    // c2 wrote 1; c3's write of 2 began after it and is still going while c1 reads 2, then 1.
    let older = condition(vec![
        write(2, 1, Some(2), "x", "1"),
        write(3, 3, Some(20), "x", "2"),
        read(1, 5, Some(6), "x", Some("2")),
        read(1, 7, Some(8), "x", Some("1")),
    ]);
    // c1 reads a value it writes only after the read returned.
    let from_its_future = condition(vec![
        read(1, 1, Some(2), "x", Some("1")),
        write(1, 3, Some(4), "x", "1"),
    ]);
    assert_eq!([older, from_its_future], [Condition::ProgramOrder; 2]);
}

#[test]
fn a_read_of_a_value_nobody_wrote_breaks_a_legal_register() {
    let broken = condition(vec![read(1, 1, Some(2), "x", Some("7"))]);
    assert_eq!(broken, Condition::LegalRegister);
}

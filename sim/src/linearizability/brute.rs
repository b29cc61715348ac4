//! A slow checker that is obviously right, to cross-check the real one on small histories.
//!
//! It shares nothing with the search: it works on the whole history (all keys at once, so it
//! also checks the per-key split), tries every order in which each operation comes after all
//! operations that returned before its call, and runs each order on a map of registers. A
//! pending read is dropped; a pending write may be placed anywhere after its call or left out.

use super::{History, Operation, OperationKind};
use std::collections::BTreeMap;
use std::sync::Arc;

/// More than this many operations takes too long to enumerate.
pub(super) const OPERATIONS_MAX: usize = 9;

/// A witness order (history indices) if the history is linearizable.
pub(super) fn linearize(history: &History) -> Option<Vec<usize>> {
    let operations: Vec<(usize, &Operation)> = history
        .operations()
        .iter()
        .enumerate()
        .filter(|(_, operation)| {
            operation.ret.is_some() || matches!(operation.kind, OperationKind::Write { .. })
        })
        .collect();
    assert!(
        operations.len() <= OPERATIONS_MAX,
        "too many operations to enumerate"
    );
    let mut order = Vec::new();
    let found = extend(&operations, &mut order, &mut BTreeMap::new());
    found.then_some(order)
}

/// `a` returned before `b` was called.
fn precedes(a: &Operation, b: &Operation) -> bool {
    a.ret.is_some_and(|ret| ret < b.call)
}

/// Tries every way to extend `order` (positions into `operations`) to a complete legal order.
fn extend(
    operations: &[(usize, &Operation)],
    order: &mut Vec<usize>,
    store: &mut BTreeMap<Arc<str>, Arc<str>>,
) -> bool {
    let all_returned_placed = operations
        .iter()
        .all(|(index, operation)| operation.ret.is_none() || order.contains(index));
    if all_returned_placed {
        return true;
    }
    for &(candidate, operation) in operations {
        let ready = !order.contains(&candidate)
            && operations
                .iter()
                .all(|&(other, before)| order.contains(&other) || !precedes(before, operation));
        if !ready {
            continue;
        }
        match &operation.kind {
            OperationKind::Write { key, value } => {
                let previous = store.insert(key.clone(), value.clone());
                order.push(candidate);
                if extend(operations, order, store) {
                    return true;
                }
                order.pop();
                match previous {
                    Some(previous) => store.insert(key.clone(), previous),
                    None => store.remove(key),
                };
            }
            OperationKind::Read { key, value } => {
                if store.get(key) == value.as_ref() {
                    order.push(candidate);
                    if extend(operations, order, store) {
                        return true;
                    }
                    order.pop();
                }
            }
        }
    }
    false
}

/// Whether `order` is a witness for `history`: each returned operation exactly once, no pending
/// read, real time respected, and every read returning the latest write before it.
pub(super) fn is_witness(history: &History, order: &[usize]) -> bool {
    let operations = history.operations();
    let mut seen = vec![false; operations.len()];
    for &index in order {
        if index >= operations.len() || seen[index] {
            return false;
        }
        seen[index] = true;
    }
    let complete = operations.iter().enumerate().all(|(index, operation)| {
        let pending_read =
            operation.ret.is_none() && matches!(operation.kind, OperationKind::Read { .. });
        if pending_read {
            !seen[index]
        } else {
            seen[index] || operation.ret.is_none()
        }
    });
    let real_time = order.iter().enumerate().all(|(position, &later)| {
        order[position + 1..]
            .iter()
            .all(|&after| !precedes(&operations[after], &operations[later]))
    });
    let mut store: BTreeMap<&Arc<str>, &Arc<str>> = BTreeMap::new();
    let legal = order.iter().all(|&index| match &operations[index].kind {
        OperationKind::Write { key, value } => {
            store.insert(key, value);
            true
        }
        OperationKind::Read { key, value } => store.get(key).copied() == value.as_ref(),
    });
    complete && real_time && legal
}

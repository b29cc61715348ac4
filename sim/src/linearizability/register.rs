//! One key's operations as the search walks them: values numbered so the register's state is a
//! small integer, operations ordered by call, pending writes bounded.

use super::history::{History, OperationKind, sort_by_call};
use super::search::{Action, KeyOperation};
use std::collections::BTreeMap;
use std::sync::Arc;

/// One key's operations, with values numbered so the register's state is a small integer.
pub(crate) struct Register {
    /// The key's operations; `global` points back into the history.
    pub(crate) operations: Vec<KeyOperation>,
    /// `values[id - 1]` is the value numbered `id`; 0 means "never written".
    pub(crate) values: Vec<Arc<str>>,
}

impl Register {
    /// Numbers the values, orders the operations by call (so that the set of operations taken
    /// effect is mostly a prefix, which keeps the memo small) and bounds the pending writes.
    pub(super) fn new(history: &History, indices: &[usize]) -> Self {
        let mut ids: BTreeMap<Arc<str>, u32> = BTreeMap::new();
        let mut values = Vec::new();
        let mut number = |value: &Arc<str>| {
            *ids.entry(value.clone()).or_insert_with(|| {
                values.push(value.clone());
                u32::try_from(values.len()).expect("fewer than 2^32 values per key")
            })
        };
        let mut indices = indices.to_vec();
        sort_by_call(&mut indices, &|global| history.operations[global].call);
        let operations = indices
            .iter()
            .map(|&global| {
                let operation = &history.operations[global];
                let action = match &operation.kind {
                    OperationKind::Write { value, .. } => Action::Write(number(value)),
                    OperationKind::Read { value, .. } => {
                        Action::Read(value.as_ref().map_or(0, &mut number))
                    }
                };
                KeyOperation {
                    global,
                    call: operation.call,
                    ret: operation.ret,
                    action,
                }
            })
            .collect();
        let operations = bound_pending_writes(operations, values.len());
        Register { operations, values }
    }

    /// The value a state id stands for, in words.
    pub(crate) fn value_name(&self, id: u32) -> String {
        match id {
            0 => "nothing".to_string(),
            id => self.values[id as usize - 1].to_string(),
        }
    }
}

/// Two exact reductions for pending writes, without which each pending write stays a candidate
/// until the end of the history and the memo grows with every subset of them.
///
/// 1. A pending write of a value no read returned is dropped: in any legal order that includes
///    it, no read sits between it and the next write (such a read would return its value), so
///    taking it out leaves the order legal.
/// 2. A pending write that is the only write of its value, and whose value some read returned,
///    must take effect before that read does, hence before the read's return. It is given the
///    earliest such return (if not before its own call), which only adds orderings every legal
///    order has anyway: whatever was called after that read returned comes after the read, so
///    after the write.
fn bound_pending_writes(operations: Vec<KeyOperation>, value_count: usize) -> Vec<KeyOperation> {
    let mut writes_of = vec![0usize; value_count + 1];
    let mut first_read_return: Vec<Option<u64>> = vec![None; value_count + 1];
    for operation in &operations {
        match (operation.action, operation.ret) {
            (Action::Write(value), _) => writes_of[value as usize] += 1,
            (Action::Read(value), Some(ret)) => {
                let first = &mut first_read_return[value as usize];
                *first = Some(first.map_or(ret, |first| first.min(ret)));
            }
            (Action::Read(_), None) => unreachable!("pending reads are dropped before"),
        }
    }
    operations
        .into_iter()
        .filter_map(|mut operation| {
            let (Action::Write(value), None) = (operation.action, operation.ret) else {
                return Some(operation);
            };
            let value = value as usize;
            let read_by = first_read_return[value]?;
            if writes_of[value] == 1 && read_by >= operation.call {
                operation.ret = Some(read_by);
            }
            Some(operation)
        })
        .collect()
}

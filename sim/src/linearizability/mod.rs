//! Linearizability checker for client histories of a key-value store of registers.
//!
//! A history is what the clients saw: for each operation, the step at which a client called it,
//! the step at which it saw the answer (if it ever did) and the answer. The store is
//! *linearizable* (Herlihy & Wing, "Linearizability: a correctness condition for concurrent
//! objects", TOPLAS 1990) if the operations can be put in one order that (1) keeps every
//! operation that returned before another was called ahead of it, and (2) is a legal run of a
//! plain register per key: each read returns the value of the latest write before it, or nothing
//! if there was none. [`check`] finds such an order, or says which key has none and why.
//!
//! # The search
//!
//! The search is Wing & Gong's ("Testing and verifying concurrent objects", JPDC 1993): walk the
//! history as a list of call and return events in step order. At each point, any operation whose
//! call is before the first remaining return may be the next one to take effect: try it on the
//! register; if the register agrees, lift the operation out of the list and go on from the
//! start; when a return is reached whose operation has not taken effect, undo the last choice
//! and try the next candidate. The list is a doubly linked list so that lifting and undoing are
//! constant time.
//!
//! Lowe ("Testing for linearizability", Concurrency and Computation: Practice and Experience,
//! 2017) made this practical with a memo: the set of operations that have taken effect (a bit
//! set) together with the register's value fully describes the rest of the search, so each such
//! *configuration* needs exploring once. A configuration already in the memo was explored
//! before and failed (or we would have stopped), so it is skipped. This turns a search that is
//! exponential in the length of the history into one bounded by the number of distinct
//! configurations, which for a history with few concurrent clients is small.
//!
//! Three refinements keep the search narrow when many clients overlap; the first two are exact
//! for registers, the third changes only speed. A read that may go next and returns the
//! register's current value is taken without trying alternatives: moving it to the front of any
//! legal continuation keeps that continuation legal. The memo records every value that no read
//! returned as one value, since the rest of the search depends on the register's value only
//! through which reads it lets through. And the candidates are tried most urgent first, in the
//! spirit of Lowe's just-in-time linearization: the write whose return comes first, or the writes
//! of the value that the first-returning read returned.
//!
//! # One key at a time
//!
//! Registers under different keys do not interact, and linearizability is *local*: a history is
//! linearizable if and only if each key's part of it is (Herlihy & Wing, Theorem 1; Horn &
//! Kroening, "Faster linearizability checking via P-compositionality", FORTE 2015, use this to
//! split the search). So each key is checked on its own, in key order, which keeps every search
//! small and makes the first failing key the smallest one. The per-key orders are then merged
//! into one witness for the whole history by giving each operation the earliest point at which
//! it can take effect (see [`Verdict::Linearizable`]).
//!
//! # Operations that never returned
//!
//! A client or a leader may crash with an operation outstanding. Such a *pending* operation may
//! have taken effect at any point after its call, or not at all. A pending read constrains
//! nothing and is dropped. A pending write is given a return after every other event, so the
//! search may place it anywhere after its call; the search succeeds once every operation that
//! did return has taken effect, and the pending writes not placed by then never took effect.
//!
//! Left like that, every pending write is a candidate to the end of the history, and the memo
//! fills with every subset of them. Two reductions specific to registers, both exact, avoid
//! this (see `bound_pending_writes`): a pending write whose value no read returned is dropped,
//! and a pending write that alone wrote a value some read returned must take effect before the
//! first such read returned, which becomes its return.
//!
//! # Limits
//!
//! The memo's size is bounded by [`Limits`]. A search that would exceed it stops; then the key
//! is still found not linearizable if one of a few simple patterns proves it (a read of a value
//! overwritten before the read began, and the like; see `explain.rs`), and otherwise the verdict
//! is [`Verdict::TooLarge`]: a history the checker could not judge is never reported as passing.
//!
//! Everything is deterministic: keys are visited in order, the event list is sorted by step
//! with ties broken by operation index, and the memo is only ever asked "seen before?".
//!
//! # Example
//!
//! ```
//! use paros_sim::linearizability::{check, Condition, History, Operation, Verdict};
//!
//! // c1 writes x = 1 (steps 1 to 4); c2 reads x while the write is in flight and again after.
//! let history = History::new(vec![
//!     Operation::write(1, 1, Some(4), "x", "1"),
//!     Operation::read(2, 2, Some(3), "x", None),
//!     Operation::read(2, 5, Some(6), "x", Some("1")),
//! ])
//! .expect("well-formed");
//! assert_eq!(check(&history), Verdict::Linearizable { order: vec![1, 0, 2] });
//!
//! // Had the second read returned nothing, the write (over before it began) would be lost.
//! let lost = History::new(vec![
//!     Operation::write(1, 1, Some(4), "x", "1"),
//!     Operation::read(2, 5, Some(6), "x", None),
//! ])
//! .expect("well-formed");
//! let Verdict::NotLinearizable { key, operations, reason, condition } = check(&lost) else {
//!     panic!()
//! };
//! assert_eq!((&*key, operations), ("x", vec![1, 0]));
//! assert_eq!(condition, Condition::RealTimeOrder); // c1's write, c2's read
//! assert_eq!(
//!     reason,
//!     "the read of x by c2 at steps 5 to 6 returned nothing, \
//!      but the write of x = 1 by c1 at steps 1 to 4 completed before the read began"
//! );
//! ```

#[cfg(test)]
mod brute;
mod explain;
mod search;
#[cfg(test)]
mod tests;

use search::{Action, KeyOperation, SearchOutcome};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// What a client asked of the store, with the answer it saw.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OperationKind {
    /// Set `key` to `value`. The answer is a plain "ok".
    Write {
        /// The register written.
        key: Arc<str>,
        /// The value written.
        value: Arc<str>,
    },
    /// Read `key`.
    Read {
        /// The register read.
        key: Arc<str>,
        /// The answer: the value read, or `None` for a key never written. Ignored when the read
        /// never returned.
        value: Option<Arc<str>>,
    },
}

impl OperationKind {
    /// The register this operation touches.
    pub fn key(&self) -> &Arc<str> {
        match self {
            OperationKind::Write { key, .. } | OperationKind::Read { key, .. } => key,
        }
    }
}

/// One operation as a client saw it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Operation {
    /// The client that called it.
    pub client: u32,
    /// The step at which the client called it.
    pub call: u64,
    /// The step at which the client saw the answer, or `None` if it never did (the client or
    /// the node serving it crashed). Invariant: `call <= ret`.
    pub ret: Option<u64>,
    /// What was asked and answered.
    pub kind: OperationKind,
}

impl Operation {
    /// A write of `value` to `key` by `client`, called at step `call`, answered at `ret`.
    pub fn write(client: u32, call: u64, ret: Option<u64>, key: &str, value: &str) -> Self {
        let kind = OperationKind::Write {
            key: key.into(),
            value: value.into(),
        };
        Operation {
            client,
            call,
            ret,
            kind,
        }
    }

    /// A read of `key` by `client`, called at step `call`, answered at `ret` with `value`.
    pub fn read(client: u32, call: u64, ret: Option<u64>, key: &str, value: Option<&str>) -> Self {
        let kind = OperationKind::Read {
            key: key.into(),
            value: value.map(Arc::from),
        };
        Operation {
            client,
            call,
            ret,
            kind,
        }
    }
}

/// A client history, checked for shape: every operation returns no earlier than its call, and
/// each client has at most one operation outstanding at a time.
///
/// Two operations are ordered in real time only if the first returned at a step strictly before
/// the second's call; operations whose steps touch are concurrent. So a client's next call must
/// fall at a later step than its previous answer, which makes its program order part of the
/// real-time order.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct History {
    operations: Vec<Operation>,
}

/// Why a list of operations is not a well-formed client history.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum HistoryError {
    /// An operation returned at a step before its call.
    ReturnBeforeCall {
        /// The operation's index.
        index: usize,
        /// Its call step.
        call: u64,
        /// Its return step.
        ret: u64,
    },
    /// A client called an operation while another of its operations was outstanding.
    Overlapping {
        /// The client.
        client: u32,
        /// The operation still outstanding (never answered, or answered at or after `call`).
        earlier: usize,
        /// The operation called too early.
        later: usize,
        /// The step at which `later` was called.
        call: u64,
    },
}

impl fmt::Display for HistoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HistoryError::ReturnBeforeCall { index, call, ret } => write!(
                f,
                "operation {index} returned at step {ret}, before its call at step {call}"
            ),
            HistoryError::Overlapping {
                client,
                earlier,
                later,
                call,
            } => write!(
                f,
                "client c{client} called operation {later} at step {call} while its operation \
                 {earlier} was outstanding (a client calls again only at a step after its \
                 previous answer)"
            ),
        }
    }
}

impl std::error::Error for HistoryError {}

impl History {
    /// Checks the shape of `operations` and wraps them. Indices in verdicts refer to positions in
    /// this vector.
    pub fn new(operations: Vec<Operation>) -> Result<Self, HistoryError> {
        let mut by_client: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
        for (index, operation) in operations.iter().enumerate() {
            if let Some(ret) = operation.ret
                && ret < operation.call
            {
                let call = operation.call;
                return Err(HistoryError::ReturnBeforeCall { index, call, ret });
            }
            by_client.entry(operation.client).or_default().push(index);
        }
        for (client, mut indices) in by_client {
            sort_by_call(&mut indices, &|index| operations[index].call);
            for pair in indices.windows(2) {
                let (earlier, later) = (pair[0], pair[1]);
                let call = operations[later].call;
                if operations[earlier].ret.is_none_or(|ret| ret >= call) {
                    return Err(HistoryError::Overlapping {
                        client,
                        earlier,
                        later,
                        call,
                    });
                }
            }
        }
        Ok(History { operations })
    }

    /// The operations, in the order given to [`History::new`].
    pub fn operations(&self) -> &[Operation] {
        &self.operations
    }
}

/// The checker's answer for a whole history.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// The history is linearizable. `order` is a witness: operation indices in an order that
    /// respects real time and is a legal run of the registers. It holds every operation that
    /// returned and the pending writes that took effect; pending reads and the pending writes
    /// that never took effect are absent.
    Linearizable {
        /// The witness order.
        order: Vec<usize>,
    },
    /// The history is not linearizable: `key` is the smallest key whose operations have no
    /// legal order.
    NotLinearizable {
        /// The failing key.
        key: Arc<str>,
        /// The operations the reason names, by index.
        operations: Vec<usize>,
        /// Why, in words, e.g. "read of x by c2 at steps 40 to 44 returned 1, but the write of
        /// x = 2 by c1 at steps 25 to 31 overwrote ... before the read began".
        reason: String,
        /// Which condition of linearizability the reason shows broken.
        condition: Condition,
    },
    /// The checker could not decide within its [`Limits`]; no key was found to fail.
    TooLarge {
        /// The first key that exceeded a limit.
        key: Arc<str>,
        /// Which limit, with the figures.
        reason: String,
    },
}

/// The conditions a linearizable history meets, as its clients can check them: each names
/// what a failing key's reason shows broken. Program order and read-your-writes concern one
/// client's own operations (a client waits for each answer before its next call, so they are
/// real-time order seen from one client); real-time order concerns operations of different
/// clients; a legal register, the values themselves.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Condition {
    /// Every read returns a value some write wrote, or nothing.
    LegalRegister,
    /// Across clients: an operation that completed before another began takes effect first.
    RealTimeOrder,
    /// One client's operations take effect in the order it called them: a later read never
    /// sees an older state than an earlier read, nor a write the client makes afterwards.
    ProgramOrder,
    /// A client's read sees its own completed writes, or something newer.
    ReadYourWrites,
}

impl Condition {
    /// Every condition, in the order the book lists them.
    pub const ALL: [Condition; 4] = [
        Condition::RealTimeOrder,
        Condition::ProgramOrder,
        Condition::ReadYourWrites,
        Condition::LegalRegister,
    ];

    /// The condition's name in the book's words: `real-time order`.
    pub fn name(self) -> &'static str {
        match self {
            Condition::LegalRegister => "a legal register",
            Condition::RealTimeOrder => "real-time order",
            Condition::ProgramOrder => "program order",
            Condition::ReadYourWrites => "read-your-writes",
        }
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Verdict {
    fn not_linearizable(key: Arc<str>, finding: explain::Finding) -> Verdict {
        Verdict::NotLinearizable {
            key,
            operations: finding.operations,
            reason: finding.reason,
            condition: finding.condition,
        }
    }

    /// Whether the history was judged linearizable.
    pub fn is_linearizable(&self) -> bool {
        matches!(self, Verdict::Linearizable { .. })
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Linearizable { order } => {
                write!(f, "linearizable ({} operations ordered)", order.len())
            }
            Verdict::NotLinearizable { key, reason, .. } => {
                write!(f, "not linearizable on key {key}: {reason}")
            }
            Verdict::TooLarge { key, reason } => {
                write!(f, "too large to check on key {key}: {reason}")
            }
        }
    }
}

/// Bounds on one key's search. Exceeding one gives [`Verdict::TooLarge`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Limits {
    /// The most operations one key may have (after dropping pending reads).
    pub operations_per_key_max: usize,
    /// The most memory one key's memo of configurations may use, in bytes (estimated).
    pub memo_bytes_max: usize,
}

impl Default for Limits {
    /// 100,000 operations per key and a 256 MiB memo.
    fn default() -> Self {
        Limits {
            operations_per_key_max: 100_000,
            memo_bytes_max: 256 << 20,
        }
    }
}

/// Checks `history` for linearizability with the default [`Limits`].
pub fn check(history: &History) -> Verdict {
    check_with_limits(history, Limits::default())
}

/// Checks `history` for linearizability, one key at a time in key order.
///
/// Returns the first key that fails; if none fails but a key exceeded `limits`, returns
/// [`Verdict::TooLarge`] for the first such key.
pub fn check_with_limits(history: &History, limits: Limits) -> Verdict {
    let mut too_large = None;
    let mut placed = Vec::new();
    for (key_rank, (key, indices)) in split_by_key(history).into_iter().enumerate() {
        if indices.len() > limits.operations_per_key_max {
            let reason = format!(
                "{} operations, more than the limit of {}",
                indices.len(),
                limits.operations_per_key_max
            );
            too_large.get_or_insert(Verdict::TooLarge { key, reason });
            continue;
        }
        let register = Register::new(history, &indices);
        match search::search(&register.operations, limits.memo_bytes_max) {
            SearchOutcome::Linearizable(order) => {
                placed.extend(place(&register.operations, &order, key_rank));
            }
            SearchOutcome::NotLinearizable(deepest) => {
                let finding = explain::explain(history, &register, &deepest);
                return Verdict::not_linearizable(key, finding);
            }
            SearchOutcome::TooLarge(reason) => {
                if let Some(finding) = explain::certificate(history, &register) {
                    return Verdict::not_linearizable(key, finding);
                }
                too_large.get_or_insert(Verdict::TooLarge { key, reason });
            }
        }
    }
    if let Some(verdict) = too_large {
        return verdict;
    }
    placed.sort_unstable();
    let order = placed.into_iter().map(|point| point.index).collect();
    Verdict::Linearizable { order }
}

/// Sorts operation indices by their call step, ties by index. One function for every such
/// sort, taking the step through `&dyn`, so the sort's code exists once (the game's wasm
/// module pays for every copy).
pub(crate) fn sort_by_call(indices: &mut [usize], call: &dyn Fn(usize) -> u64) {
    indices.sort_unstable_by_key(|&index| (call(index), index));
}

/// The indices of each key's operations, keys in order, pending reads dropped (they constrain
/// nothing: a read that never answered may have read anything).
fn split_by_key(history: &History) -> BTreeMap<Arc<str>, Vec<usize>> {
    let mut by_key: BTreeMap<Arc<str>, Vec<usize>> = BTreeMap::new();
    for (index, operation) in history.operations.iter().enumerate() {
        let pending_read =
            operation.ret.is_none() && matches!(operation.kind, OperationKind::Read { .. });
        if !pending_read {
            by_key
                .entry(operation.kind.key().clone())
                .or_default()
                .push(index);
        }
    }
    by_key
}

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
    fn new(history: &History, indices: &[usize]) -> Self {
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

/// An operation's place in the merged witness: sorted by point, then key, then place in the
/// key's order.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Placed {
    point: u64,
    key_rank: usize,
    position: usize,
    index: usize,
}

/// Gives each operation of one key's order the earliest step at which it can take effect: its
/// call, or the point of the operation before it, whichever is later.
///
/// Why the merge by point is a witness: within a key, points never decrease, so the key's order
/// is kept. The point is at most the operation's return, because it is the call of some
/// operation at or before it in the key's order, and that call cannot be after this operation's
/// return (the key's order respects real time). So if `a` returned before `b` was called, then
/// `point(a) <= ret(a) < call(b) <= point(b)`, across keys too.
fn place(operations: &[KeyOperation], order: &[usize], key_rank: usize) -> Vec<Placed> {
    let mut point = 0;
    let mut placed = Vec::with_capacity(order.len());
    for (position, &local) in order.iter().enumerate() {
        let operation = &operations[local];
        point = point.max(operation.call);
        debug_assert!(operation.ret.is_none_or(|ret| point <= ret));
        placed.push(Placed {
            point,
            key_rank,
            position,
            index: operation.global,
        });
    }
    placed
}

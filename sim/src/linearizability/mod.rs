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
mod history;
mod register;
mod search;
#[cfg(test)]
mod tests;

pub use history::{Condition, History, HistoryError, Operation, OperationKind};
use register::Register;
use search::{KeyOperation, SearchOutcome};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

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

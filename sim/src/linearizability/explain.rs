//! Why a key's history is not linearizable, in words a player can check by hand.
//!
//! The search only says "no order exists". To say why, we look for one of a few small patterns,
//! each of which alone proves the key has no legal order (the argument is beside each), first
//! around the operation the search got stuck on, then (for histories of modest size) around
//! every read. If none fits, we describe where the search got stuck.
//!
//! Because each pattern is a proof, the patterns also decide a key whose search ran out of
//! memo ([`certificate`]).

use super::history::{Condition, History, sort_by_call};
use super::register::Register;
use super::search::{Action, Deepest, KeyOperation};

/// Why a key has no legal order: the operations involved (history indices), the reason in
/// words, and the condition of linearizability it breaks.
pub(crate) struct Finding {
    pub(crate) operations: Vec<usize>,
    pub(crate) reason: String,
    pub(crate) condition: Condition,
}

/// One pattern's finding, in the key's own operation numbers.
type Local = (Vec<usize>, String, Condition);

/// Beyond this many operations on a key, only the operation the search got stuck on is
/// examined, so that explaining stays linear in the history's length.
const EVERY_READ_OPERATIONS_MAX: usize = 2_000;

/// Why a key the search found to have no legal order has none.
pub(crate) fn explain(history: &History, register: &Register, deepest: &Deepest) -> Finding {
    let key = Key::new(history, register);
    let local = key
        .explain_read(deepest.blocked)
        .or_else(|| {
            let small = register.operations.len() <= EVERY_READ_OPERATIONS_MAX;
            small.then(|| key.any_read()).flatten()
        })
        .unwrap_or_else(|| key.explain_stuck(deepest));
    key.finding(local)
}

/// A proof that a key has no legal order, found without the search, if one of the patterns fits
/// some read. Used when the search ran out of memo: a fitting pattern still decides the key.
pub(crate) fn certificate(history: &History, register: &Register) -> Option<Finding> {
    let key = Key::new(history, register);
    let local = key.any_read()?;
    Some(key.finding(local))
}

/// One key's operations, indexed for the patterns.
struct Key<'a> {
    history: &'a History,
    register: &'a Register,
    /// The writes of each value, by value number.
    writes_of: Vec<Vec<usize>>,
    /// The reads (all returned: pending reads were dropped before the search).
    reads: Vec<usize>,
}

impl<'a> Key<'a> {
    fn new(history: &'a History, register: &'a Register) -> Self {
        let mut writes_of = vec![Vec::new(); register.values.len() + 1];
        let mut reads = Vec::new();
        for (local, operation) in register.operations.iter().enumerate() {
            match operation.action {
                Action::Write(value) => writes_of[value as usize].push(local),
                Action::Read(_) => reads.push(local),
            }
        }
        Key {
            history,
            register,
            writes_of,
            reads,
        }
    }

    /// The first read, in call order, that some pattern explains.
    fn any_read(&self) -> Option<Local> {
        let mut reads = self.reads.clone();
        sort_by_call(&mut reads, &|read| self.operation(read).call);
        reads.into_iter().find_map(|read| self.explain_read(read))
    }

    fn finding(&self, (locals, reason, condition): Local) -> Finding {
        let global = |local: usize| self.operation(local).global;
        Finding {
            operations: locals.into_iter().map(global).collect(),
            reason,
            condition,
        }
    }

    /// The client that called an operation.
    fn client(&self, local: usize) -> u32 {
        self.history.operations()[self.operation(local).global].client
    }

    /// The condition a read breaks by missing `other`: the client's own order when `other` is
    /// the read's client's own operation, real-time order across clients otherwise.
    fn condition(&self, read: usize, other: usize, own: Condition) -> Condition {
        if self.client(read) == self.client(other) {
            own
        } else {
            Condition::RealTimeOrder
        }
    }

    fn operation(&self, local: usize) -> &KeyOperation {
        &self.register.operations[local]
    }

    /// When the client saw the answer, from the history itself: the search may have given a
    /// pending write an earlier bound, but a reason speaks of what the clients saw.
    fn ret(&self, local: usize) -> Option<u64> {
        self.history.operations()[self.operation(local).global].ret
    }

    /// `a` returned before `b` was called.
    fn precedes(&self, a: usize, b: usize) -> bool {
        self.ret(a).is_some_and(|ret| ret < self.operation(b).call)
    }

    /// E.g. "the write of x = 2 by c1 at steps 25 to 31".
    fn describe(&self, local: usize) -> String {
        let operation = self.operation(local);
        let client = self.history.operations()[operation.global].client;
        let key = self.history.operations()[operation.global].kind.key();
        let what = match operation.action {
            Action::Write(value) => format!("write of {key} = {}", self.value(value)),
            Action::Read(_) => format!("read of {key}"),
        };
        let when = match self.ret(local) {
            Some(ret) if ret == operation.call => format!("at step {ret}"),
            Some(ret) => format!("at steps {} to {ret}", operation.call),
            None => format!("from step {} (never answered)", operation.call),
        };
        format!("the {what} by c{client} {when}")
    }

    fn value(&self, id: u32) -> String {
        self.register.value_name(id)
    }

    fn key_name(&self) -> &str {
        let first = self.register.operations[0].global;
        self.history.operations()[first].kind.key()
    }

    /// Tries each pattern on one read.
    fn explain_read(&self, read: usize) -> Option<Local> {
        let Action::Read(value) = self.operation(read).action else {
            return None;
        };
        self.value_never_written(read, value)
            .or_else(|| self.value_written_too_late(read, value))
            .or_else(|| self.nothing_after_a_write(read, value))
            .or_else(|| self.value_overwritten(read, value))
            .or_else(|| self.older_after_newer(read, value))
    }

    /// A read returned a value no operation wrote.
    fn value_never_written(&self, read: usize, value: u32) -> Option<Local> {
        (value != 0 && self.writes_of[value as usize].is_empty()).then(|| {
            let reason = format!(
                "{} returned {}, but no operation wrote {} = {}",
                self.describe(read),
                self.value(value),
                self.key_name(),
                self.value(value)
            );
            (vec![read], reason, Condition::LegalRegister)
        })
    }

    /// Every write of the value read began after the read returned, so none can be before it.
    fn value_written_too_late(&self, read: usize, value: u32) -> Option<Local> {
        let writes = &self.writes_of[value as usize];
        if value == 0 || !writes.iter().all(|&write| self.precedes(read, write)) {
            return None;
        }
        let (read_text, value_text) = (self.describe(read), self.value(value));
        let reason = match writes.as_slice() {
            [write] => format!(
                "{read_text} returned {value_text}, but {} began after the read returned",
                self.describe(*write)
            ),
            _ => format!(
                "{read_text} returned {value_text}, but every write of {} = {value_text} began \
                 after the read returned, the first being {}",
                self.key_name(),
                self.describe(writes[0])
            ),
        };
        let condition = self.condition(read, writes[0], Condition::ProgramOrder);
        Some(([vec![read], writes.clone()].concat(), reason, condition))
    }

    /// A read returned nothing after a write had completed: a register is never unwritten.
    fn nothing_after_a_write(&self, read: usize, value: u32) -> Option<Local> {
        if value != 0 {
            return None;
        }
        let write = self.writes_of[1..]
            .iter()
            .flatten()
            .copied()
            .filter(|&write| self.precedes(write, read))
            .min_by_key(|&write| (self.ret(write), write))?;
        let reason = format!(
            "{} returned nothing, but {} completed before the read began",
            self.describe(read),
            self.describe(write)
        );
        let condition = self.condition(read, write, Condition::ReadYourWrites);
        Some((vec![read, write], reason, condition))
    }

    /// Every write of the value read was followed, before the read began, by a write of another
    /// value: whichever write the read saw, a later write stands between them.
    fn value_overwritten(&self, read: usize, value: u32) -> Option<Local> {
        if value == 0 {
            return None;
        }
        let writes = &self.writes_of[value as usize];
        let overwrites: Option<Vec<(usize, usize)>> = writes
            .iter()
            .map(|&write| {
                let overwrite = self
                    .writes_of
                    .iter()
                    .enumerate()
                    .filter(|&(other, _)| other != value as usize)
                    .flat_map(|(_, others)| others.iter().copied())
                    .filter(|&other| self.precedes(write, other) && self.precedes(other, read))
                    .min()?;
                Some((write, overwrite))
            })
            .collect();
        let &(write, overwrite) = overwrites?.first()?;
        let (read_text, value_text) = (self.describe(read), self.value(value));
        let (write_text, overwrite_text) = (self.describe(write), self.describe(overwrite));
        let reason = if writes.len() == 1 {
            format!(
                "{read_text} returned {value_text}, but {overwrite_text} overwrote \
                 {write_text} and completed before the read began"
            )
        } else {
            format!(
                "{read_text} returned {value_text}, but every write of {} = {value_text} was \
                 overwritten before the read began; for one, {overwrite_text} overwrote \
                 {write_text}",
                self.key_name()
            )
        };
        let condition = self.condition(read, overwrite, Condition::ReadYourWrites);
        Some((vec![read, write, overwrite], reason, condition))
    }

    /// A read saw an older state than a read that finished before it began: nothing once a
    /// value was seen, or a value all of whose writes finished before any write of the value
    /// seen earlier began.
    fn older_after_newer(&self, read: usize, value: u32) -> Option<Local> {
        let read_text = self.describe(read);
        self.reads.iter().copied().find_map(|earlier| {
            let Action::Read(seen) = self.operation(earlier).action else {
                return None;
            };
            if seen == value || seen == 0 || !self.precedes(earlier, read) {
                return None;
            }
            let earlier_text = self.describe(earlier);
            let seen_text = self.value(seen);
            if value == 0 {
                let reason = format!(
                    "{read_text} returned nothing, but {earlier_text}, which completed before \
                     it began, had returned {seen_text}"
                );
                let condition = self.condition(read, earlier, Condition::ProgramOrder);
                return Some((vec![read, earlier], reason, condition));
            }
            let older = &self.writes_of[value as usize];
            let newer = &self.writes_of[seen as usize];
            let all_before = !newer.is_empty()
                && older
                    .iter()
                    .all(|&old| newer.iter().all(|&new| self.precedes(old, new)));
            if older.is_empty() || !all_before {
                return None;
            }
            let writes = if older.len() == 1 && newer.len() == 1 {
                format!(
                    "{} completed before {} began",
                    self.describe(older[0]),
                    self.describe(newer[0])
                )
            } else {
                let key = self.key_name();
                format!(
                    "every write of {key} = {} completed before any write of {key} = \
                     {seen_text} began",
                    self.value(value)
                )
            };
            let reason = format!(
                "{read_text} returned {}, but {earlier_text}, which completed before it began, \
                 had returned {seen_text}, and {writes}",
                self.value(value)
            );
            Some((
                [vec![read, earlier], older.clone(), newer.clone()].concat(),
                reason,
                self.condition(read, earlier, Condition::ProgramOrder),
            ))
        })
    }

    /// No pattern fits: say how far the search got and what it could not place.
    fn explain_stuck(&self, deepest: &Deepest) -> Local {
        let blocked = deepest.blocked;
        let answer = match self.operation(blocked).action {
            Action::Read(value) => format!(", which returned {},", self.value(value)),
            Action::Write(_) => String::new(),
        };
        let reason = format!(
            "no order of the {} operations on {key} is both legal for a register and true to \
             real time: the longest legal start orders {} of them and leaves {key} holding {}, \
             and {}{} cannot follow it",
            self.register.operations.len(),
            deepest.order.len(),
            self.value(deepest.state),
            self.describe(blocked),
            answer,
            key = self.key_name(),
        );
        let mut involved = vec![blocked];
        involved.extend(deepest.order.last());
        (involved, reason, Condition::RealTimeOrder)
    }
}

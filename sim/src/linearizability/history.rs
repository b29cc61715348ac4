//! A client history of a key-value store of registers, as the checker reads it, and the
//! conditions a linearizable history meets.

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
    pub(super) operations: Vec<Operation>,
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

/// Sorts operation indices by their call step, ties by index. One function for every such
/// sort, taking the step through `&dyn`, so the sort's code exists once (the game's wasm
/// module pays for every copy).
pub(crate) fn sort_by_call(indices: &mut [usize], call: &dyn Fn(usize) -> u64) {
    indices.sort_unstable_by_key(|&index| (call(index), index));
}

//! A client's state ([`ClientState`]) and what it saw ([`ClientCall`], one entry of the
//! history); `clients.rs` steps them.

use super::config::ClientOp;
use crate::linearizability::Operation;
use paros_core::NodeId;
use paros_core::Value;

/// One client: its place in its program and its outstanding request.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ClientState {
    /// The next operation of the program to issue.
    pub next_op: usize,
    /// The operation awaiting its answer, as an index into the history.
    pub outstanding: Option<usize>,
    /// The node asked answered "not leader": the client may ask another, at no cost.
    pub redirected: bool,
}

impl ClientState {
    /// A client at the start of its program.
    pub(super) fn new() -> ClientState {
        ClientState {
            next_op: 0,
            outstanding: None,
            redirected: false,
        }
    }
}

/// One client operation as the client saw it: when it was called and answered, in client
/// events (every call and every answer is one tick of this clock).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ClientCall {
    /// The client.
    pub client: NodeId,
    /// Its place in the client's program; the request number is this plus one.
    pub program_index: usize,
    /// What was asked.
    pub op: ClientOp,
    /// When the client called it.
    pub call: u64,
    /// When the client saw the answer, if it has.
    pub ret: Option<u64>,
    /// A read's answer, once it returned.
    pub read: Option<Value>,
}

impl ClientCall {
    /// The request number the client sends.
    pub fn seq(&self) -> u64 {
        self.program_index as u64 + 1
    }

    pub(super) fn to_operation(&self) -> Operation {
        let client = u32::from(self.client.get());
        match &self.op {
            ClientOp::Write { key, value } => {
                Operation::write(client, self.call, self.ret, key.as_str(), value.as_str())
            }
            ClientOp::Read { key } => Operation::read(
                client,
                self.call,
                self.ret,
                key.as_str(),
                self.read.as_ref().map(Value::as_str),
            ),
        }
    }
}

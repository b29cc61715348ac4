//! The clients' history as paros-sim's linearizability checker reads it, so a prompt or a
//! level can ask the checker about the history the world has, or about one answer more.

use paros_core::NodeId;
use paros_sim::linearizability::{self, History, Operation, Verdict};
use paros_sim::replicated_log::{ClientCall, ClientOp, LogWorld};

/// The checker's client number for `client`: its place among the world's clients, from 1, so
/// the checker's words (`c1`) read like the stage's (`C1`).
pub fn client_number(world: &LogWorld, client: NodeId) -> u32 {
    let first = world.config().client_id(0).get();
    u32::from(client.get().saturating_sub(first)) + 1
}

/// One call of the history as the checker reads it.
pub fn operation(world: &LogWorld, call: &ClientCall) -> Operation {
    let client = client_number(world, call.client);
    match &call.op {
        ClientOp::Write { key, value } => {
            Operation::write(client, call.call, call.ret, key.as_str(), value.as_str())
        }
        ClientOp::Read { key } => Operation::read(
            client,
            call.call,
            call.ret,
            key.as_str(),
            call.read.as_ref().map(|value| value.as_str()),
        ),
    }
}

/// The clients' clock now: every call and every answer so far is one tick of it.
pub fn now(world: &LogWorld) -> u64 {
    world
        .history()
        .iter()
        .map(|call| 1 + u64::from(call.ret.is_some()))
        .sum()
}

/// The checker's verdict on the world's history.
pub fn verdict(world: &LogWorld) -> Option<Verdict> {
    verdict_with(world, |_, _, _| {})
}

/// The checker's verdict on the world's history with `change` made to each operation (given
/// with its place in the history and its call): how a prompt asks about an answer the world
/// did not give.
fn verdict_with(
    world: &LogWorld,
    mut change: impl FnMut(usize, &ClientCall, &mut Operation),
) -> Option<Verdict> {
    let operations = world
        .history()
        .iter()
        .enumerate()
        .map(|(index, call)| {
            let mut operation = operation(world, call);
            change(index, call, &mut operation);
            operation
        })
        .collect();
    History::new(operations)
        .ok()
        .map(|history| linearizability::check(&history))
}

/// Sets a read operation's answer.
fn answer(operation: &mut Operation, value: Option<&str>) {
    if let linearizability::OperationKind::Read { value: read, .. } = &mut operation.kind {
        *read = value.map(Into::into);
    }
}

/// The checker's verdict on the world's history had `client`'s outstanding read returned
/// `value` now.
pub fn verdict_if_read_returns(
    world: &LogWorld,
    client: NodeId,
    value: Option<&str>,
) -> Option<Verdict> {
    let now = now(world);
    verdict_with(world, |_, call, operation| {
        let outstanding_read =
            call.client == client && call.ret.is_none() && matches!(call.op, ClientOp::Read { .. });
        if outstanding_read {
            operation.ret = Some(now);
            answer(operation, value);
        }
    })
}

/// The checker's verdict on the world's history had the read at `index` in it returned
/// `value` instead, when it did.
pub fn verdict_if_read_had(world: &LogWorld, index: usize, value: Option<&str>) -> Option<Verdict> {
    verdict_with(world, |at, _, operation| {
        if at == index {
            answer(operation, value);
        }
    })
}

/// The checker's words with its client numbers (`c4` in the World, `c1` here) given the
/// stage's names.
pub fn client_names(world: &LogWorld, text: &str) -> String {
    let mut named = text.to_string();
    for index in 0..world.config().clients.len() {
        let client = world.config().client_id(index);
        let name = world.name(client);
        for number in [u32::from(client.get()), client_number(world, client)] {
            named = named.replace(&format!("by c{number} "), &format!("by {name} "));
        }
    }
    named
}

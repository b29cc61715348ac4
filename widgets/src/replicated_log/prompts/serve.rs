//! The read prompt: a node that holds (or receives) a client's read either serves it now or
//! waits, by the read watermark.

use super::shared::{index_of, node, set_name};
use crate::prompt::{Choice, Prompt, PromptKind};
use paros_core::NodeSet;
use paros_core::log::{LogMessage, Slot};
use paros_sim::replicated_log::{ClientOp, LogWorld};

/// The read prompt: a delivery to a node that holds (or receives) a client's read.
pub(super) fn serve_or_wait(world: &LogWorld, after: &LogWorld, message: u32) -> Option<Prompt> {
    let in_flight = world.in_flight().iter().find(|m| m.id.0 == message)?;
    let to = in_flight.envelope.to;
    if usize::from(to.get()) > world.servers().len() {
        return None;
    }
    let index = index_of(to);
    let reader = node(world, index)?;
    let now = node(after, index)?;
    let (client, key) = match &in_flight.envelope.message {
        LogMessage::Read { key, .. } => (in_flight.envelope.from, key.clone()),
        _ => {
            let read = reader.pending_reads().first()?;
            (read.client, read.key.clone())
        }
    };
    let is_read = matches!(in_flight.envelope.message, LogMessage::Read { .. });
    let waiting_before = reader.pending_reads().len() + usize::from(is_read);
    let served = now.pending_reads().len() < waiting_before;
    let pending = now
        .pending_reads()
        .iter()
        .find(|read| read.client == client && read.key == key);
    let (answered_by, watermark) = match (served, pending) {
        (false, Some(read)) => (read.answered_by, read.watermark),
        _ => {
            let held = reader
                .pending_reads()
                .iter()
                .find(|read| read.client == client && read.key == key)
                .map_or((NodeSet::EMPTY, Slot(0)), |read| {
                    (read.answered_by, read.watermark)
                });
            // The reply that completes the read is counted with the ones before it.
            match &in_flight.envelope.message {
                LogMessage::ReadIndexReply {
                    highest_accepted, ..
                } => {
                    let mut answered = held.0;
                    answered.insert(in_flight.envelope.from);
                    (answered, held.1.max(*highest_accepted))
                }
                _ => held,
            }
        }
    };
    let name = world.name(to);
    let client_name = world.name(client);
    let value = now
        .store()
        .get(&key)
        .map_or_else(|| "nothing".to_string(), ToString::to_string);
    let applied = now.applied_index();
    let latest = latest_completed_write(world, &key);
    let mut facts = vec![
        format!("{name} has applied through slot {applied}; its store says {key} = {value}"),
        if answered_by.is_empty() {
            "no node has reported its highest accepted slot for this read".to_string()
        } else {
            format!(
                "{} reported their highest accepted slots; the highest is {watermark}",
                set_name(world, answered_by)
            )
        },
        "a Phase-1 quorum is two of three nodes".to_string(),
    ];
    if let Some((writer, written)) = &latest {
        facts.push(format!(
            "{writer}'s write of {key} = {written} completed before this read began"
        ));
    }
    let stale = latest
        .as_ref()
        .filter(|(_, written)| *written != value)
        .map(|(writer, written)| {
            format!(
                " {writer}'s write of {key} = {written} completed before this read began, so \
                 answering {key} = {value} is a stale read: not linearizable."
            )
        })
        .unwrap_or_default();
    let (serve_text, wait_text) = if served {
        (
            format!(
                "read_may_be_served: {} is a Phase-1 quorum and {name} has applied through slot \
                 {applied}, at or past the watermark {watermark}. Any write that completed before \
                 the read began was chosen in a slot no higher than {watermark}, so {key} = \
                 {value} is current.",
                set_name(world, answered_by),
            ),
            format!(
                "{} is a Phase-1 quorum, and {name} has applied through slot {applied}, at or \
                 past the watermark, slot {watermark}: every write that completed before the read \
                 began is applied. Waiting longer only keeps {client_name} waiting.",
                set_name(world, answered_by)
            ),
        )
    } else {
        let reason = if answered_by.len() < 2 {
            format!(
                "{name} has applied through slot {applied}, and it cannot know its log is \
                 current: only {} answered so far, and a write may \
                 have been chosen by a quorum {name} has not heard from, under a leader it never \
                 heard of.",
                if answered_by.is_empty() {
                    "nobody has".to_string()
                } else {
                    set_name(world, answered_by)
                }
            )
        } else {
            format!(
                "{} report slots up to {watermark}, and {name} has applied only through slot \
                 {applied}: a write chosen in slots {} to {watermark} may be one the client \
                 already saw complete.",
                set_name(world, answered_by),
                applied.next()
            )
        };
        (
            format!("{reason}{stale}"),
            format!(
                "{reason} So {name} waits: it asks every node for its highest accepted slot, and \
                 answers once a Phase-1 quorum replied and it has applied through the highest \
                 (read_may_be_served)."
            ),
        )
    };
    Some(Prompt {
        kind: PromptKind::ServeOrWait,
        node: Some(name.clone()),
        message: Some(message),
        question: format!(
            "{name} holds {client_name}'s read of {key}. Serve {key} = {value} now, or wait?"
        ),
        facts,
        choices: vec![
            Choice {
                key: "serve".into(),
                label: format!("Serve {key} = {value} now"),
                right: served,
                explanation: serve_text,
            },
            Choice {
                key: "wait".into(),
                label: "Wait".into(),
                right: !served,
                explanation: wait_text,
            },
        ],
        record: None,
    })
}

/// The last write of `key` that returned before now, as (client name, value).
fn latest_completed_write(world: &LogWorld, key: &paros_core::Value) -> Option<(String, String)> {
    world
        .history()
        .iter()
        .filter(|call| call.ret.is_some())
        .filter_map(|call| match &call.op {
            ClientOp::Write {
                key: written,
                value,
            } if written == key => Some((call.ret, world.name(call.client), value.to_string())),
            _ => None,
        })
        .max_by_key(|(ret, _, _)| *ret)
        .map(|(_, client, value)| (client, value))
}

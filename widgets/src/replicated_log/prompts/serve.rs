//! The read prompt: a node that holds (or receives) a client's read either serves it now or
//! waits, by the read watermark.

use super::read_at_applied::stale_read_finding;
use super::shared::{index_of, node, set_name};
use crate::prompt::{Choice, Prompt, PromptKind};
use crate::words::phase1_quorum_size;
use paros_core::QuorumSystem;
use paros_core::log::{ColocatedNode, LogEnvelope, LogMessage, LogRole, PendingRead, ReadId};
use paros_sim::replicated_log::{ClientOp, LogWorld};

/// What a right "wait" records when a Phase-1 quorum has answered and the node has not yet
/// applied through the watermark: the read was held for the rinse.
pub const HELD_FOR_THE_RINSE: &str = "a read held until applied through its watermark";
/// What a right "serve" records when the answer that completes a read's Phase-1 quorum finds
/// the node already applied through the watermark: the read was covered, and served at once.
pub const SERVED_ON_ITS_ANSWERS: &str = "a covered read served on its quorum's answers";

/// The read prompt: a delivery to a node that holds (or receives) a client's read. It asks
/// about the read the delivery concerns (see [`concerned_read`]).
pub(super) fn serve_or_wait(world: &LogWorld, after: &LogWorld, message: u32) -> Option<Prompt> {
    let in_flight = world.in_flight().iter().find(|m| m.id.0 == message)?;
    let to = in_flight.envelope.to;
    if usize::from(to.get()) > world.servers().len() {
        return None;
    }
    let index = index_of(to);
    let reader = node(world, index)?;
    let now = node(after, index)?;
    let (read, served) = concerned_read(reader, now, &in_flight.envelope)?;
    let (client, key) = (read.client, read.key.clone());
    let (answered_by, watermark) = (read.answered_by, read.watermark);
    let name = world.name(to);
    let client_name = world.name(client);
    let value = now
        .store()
        .get(&key)
        .map_or_else(|| "nothing".to_string(), ToString::to_string);
    let applied = now.applied_index();
    let quorum_answered = now.quorums().is_phase1_quorum(answered_by);
    let completes_the_quorum = matches!(
        in_flight.envelope.message,
        LogMessage::ReadIndexReply { .. }
    );
    let record = if served && completes_the_quorum {
        Some(SERVED_ON_ITS_ANSWERS.into())
    } else if !served && quorum_answered {
        Some(HELD_FOR_THE_RINSE.into())
    } else {
        None
    };
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
        phase1_quorum_size(now.quorums(), "nodes"),
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
        let reason = if !quorum_answered {
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
        let control = if now.role() == LogRole::Leader {
            leader_serving_now(world, message, client, now.store().get(&key))
        } else {
            String::new()
        };
        (
            format!("{reason}{stale}{control}"),
            format!(
                "{reason} So {name} waits: it asks every node for its highest accepted slot, and \
                 answers once a Phase-1 quorum replied and it has applied through the highest \
                 (read_may_be_served)."
            ),
        )
    };
    Some(Prompt {
        kind: PromptKind::ServeOrWait,
        topic: "",
        node: Some(name.clone()),
        message: Some(message),
        question: format!(
            "{name} holds {client_name}'s read of {key} (read {}). Serve {key} = {value} now, or \
             wait?",
            read.read
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
        record,
    })
}

/// The read a delivery concerns, as it stands once the delivery is counted, and whether the
/// delivery serves it. A node may hold several reads: a client's Read concerns the read it
/// starts; a ReadIndexReply concerns the read it names (none, if the node no longer holds it);
/// any other delivery concerns the first read it serves, else the oldest read held.
fn concerned_read(
    reader: &ColocatedNode,
    now: &ColocatedNode,
    envelope: &LogEnvelope,
) -> Option<(PendingRead, bool)> {
    let held = |node: &ColocatedNode, id: ReadId| {
        node.pending_reads()
            .iter()
            .find(|read| read.read == id)
            .cloned()
    };
    match &envelope.message {
        LogMessage::Read { .. } => now
            .pending_reads()
            .iter()
            .find(|read| held(reader, read.read).is_none())
            .map(|read| (read.clone(), false)),
        LogMessage::ReadIndexReply {
            read,
            highest_accepted,
        } => {
            let mut before = held(reader, *read)?;
            match held(now, *read) {
                Some(after) => Some((after, false)),
                None => {
                    // The reply that completes the read is counted with the ones before it.
                    before.answered_by.insert(envelope.from);
                    before.watermark = before.watermark.max(*highest_accepted);
                    Some((before, true))
                }
            }
        }
        _ => {
            let reads = reader.pending_reads();
            match reads.iter().find(|read| held(now, read.read).is_none()) {
                Some(served) => Some((served.clone(), true)),
                None => Some((held(now, reads.first()?.read)?, false)),
            }
        }
    }
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

/// For a leader told to serve too early: what the simulator's read-at-applied control, a leader
/// that answers from what it has applied, does to this very read.
fn leader_serving_now(
    world: &LogWorld,
    message: u32,
    client: paros_core::NodeId,
    value: Option<&paros_core::Value>,
) -> String {
    let value = value.map(|value| value.as_str());
    stale_read_finding(world, message, client, value).unwrap_or_default()
}

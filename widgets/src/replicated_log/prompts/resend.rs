//! The resend prompt: a client's write reaches a leader whose log already holds the same
//! request, chosen in a slot above what the leader has applied. Does the leader propose it
//! again, answer "written" now, or wait for the chosen slot to apply?
//!
//! The right answer is what the leader does on the clone that took the step: a new proposal
//! holding the request, or a "written" reply to the client, or neither. Each wrong answer is
//! told what the leader looks at: its session table (`KvStore::applied_seq`), its applied
//! index, and its open proposals, of which a chosen slot is no longer one.
//!
//! Its words, like the repeat prompt's, are templates filled from one table of the node's
//! state ([`fill`]): one shared routine instead of a formatting call per sentence keeps the
//! game's module small.

use super::shared::{index_of, node};
use crate::prompt::{Choice, Prompt, PromptKind};
use paros_core::NodeId;
use paros_core::log::{ColocatedNode, Entry, LogEnvelope, LogMessage, LogRole, Outcome};
use paros_sim::replicated_log::LogWorld;

/// `template` with each `{word}` of `words` replaced by its value, in the table's order (so a
/// value may itself hold words of later entries).
pub(super) fn fill(template: &str, words: &[(&str, String)]) -> String {
    let mut text = template.to_string();
    for (word, value) in words {
        text = text.replace(word, value);
    }
    text
}

/// Each of `templates` filled from `words`.
pub(super) fn fill_all(templates: &[&str], words: &[(&str, String)]) -> Vec<String> {
    templates.iter().map(|text| fill(text, words)).collect()
}

/// Whether `entry` is `client`'s request number `seq`.
pub(super) fn is_request(entry: &Entry, client: NodeId, seq: u64) -> bool {
    matches!(entry, Entry::Command(command) if command.client == client && command.seq == seq)
}

/// Whether the move from `world` to `after` had `from` answer `client`'s request `seq`
/// "written": a new Reply on the wire, or one held for sending.
pub(super) fn answered_written(
    world: &LogWorld,
    after: &LogWorld,
    from: NodeId,
    client: NodeId,
    seq: u64,
) -> bool {
    let is_reply = |envelope: &LogEnvelope| {
        (envelope.from, envelope.to) == (from, client)
            && envelope.message
                == LogMessage::Reply {
                    seq,
                    outcome: Outcome::Written,
                }
    };
    let new_on_wire = after.in_flight().iter().any(|message| {
        is_reply(&message.envelope) && world.in_flight().iter().all(|old| old.id != message.id)
    });
    let held = (after.servers().get(index_of(from)))
        .and_then(|server| server.held.as_ref())
        .is_some_and(|held| !held.sent() && held.messages().iter().any(is_reply));
    new_on_wire || held
}

/// What the leader does with the resent write.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Response {
    /// Proposes it in a new slot.
    Propose,
    /// Answers "written" at once.
    Answer,
    /// Neither: it waits for a slot that holds the request to apply.
    Wait,
}

/// Each choice: its key, its response, its label, and what a wrong pick is told before the
/// reason the leader does what it does.
const CHOICES: [(&str, Response, &str, &str); 3] = [
    (
        "propose",
        Response::Propose,
        "Propose {entry} again, in {slot}",
        "{name} proposes again only a request that is neither applied nor open.",
    ),
    (
        "answer",
        Response::Answer,
        "Answer {client} \"written\" now: slot {chosen} holds it, chosen",
        "{name} answers a client only once its request is applied, and it has applied through \
         slot {applied}: slot {chosen} is chosen but not applied{behind}. Chosen is a fact \
         about the cluster; applied is a fact about this node.",
    ),
    (
        "wait",
        Response::Wait,
        "Nothing: slot {chosen} already holds it; the reply will come when slot {chosen} applies",
        "{name} does not search its chosen slots for a retry: it looks only at its session \
         table and its open proposals.",
    ),
];

/// What the leader does, and why, from its own state.
fn reason(response: Response) -> &'static str {
    match response {
        Response::Propose => {
            "KvStore::applied_seq for {client} is {applied_seq}, below {seq}: the request is \
             not applied. Nor is it among {name}'s open proposals ({open}): slot {chosen} is \
             chosen, and a chosen slot is no longer open. So {name} proposes it in {slot}. \
             When the second copy applies, KvStore::apply finds it in the session table and \
             skips it."
        }
        Response::Answer => {
            "KvStore::applied_seq for {client} is {applied_seq}: request {seq} is applied, so \
             {name} answers \"written\" at once."
        }
        Response::Wait => {
            "Request {seq} is among {name}'s open proposals ({open}): {name} waits, and answers \
             {client} when it applies."
        }
    }
}

/// A leader's open proposals, as players read them.
fn open_proposals(world: &LogWorld, leader: &ColocatedNode) -> String {
    let open: Vec<String> = (leader.proposals().iter())
        .map(|(slot, proposal)| format!("slot {slot}: {}", world.entry_name(&proposal.entry)))
        .collect();
    if open.is_empty() {
        "none".into()
    } else {
        open.join("; ")
    }
}

/// The resend prompt, for a client's Write delivered to a leader that holds the same request
/// chosen above its applied index.
pub(super) fn resend(world: &LogWorld, after: &LogWorld, message: u32) -> Option<Prompt> {
    let in_flight = world.in_flight().iter().find(|m| m.id.0 == message)?;
    let envelope = &in_flight.envelope;
    let LogMessage::Write { seq, .. } = &envelope.message else {
        return None;
    };
    let (client, seq) = (envelope.from, *seq);
    let index = index_of(envelope.to);
    let leader = node(world, index)?;
    if leader.role() != LogRole::Leader {
        return None;
    }
    let applied = leader.applied_index();
    let (chosen, vote) = (leader.chosen().iter())
        .find(|(slot, vote)| **slot > applied && is_request(&vote.entry, client, seq))?;
    let now = node(after, index)?;
    let open = |node: &ColocatedNode| {
        (node.proposals().iter())
            .find(|(_, proposal)| is_request(&proposal.entry, client, seq))
            .map(|(slot, _)| *slot)
    };
    let proposed = open(now).filter(|_| open(leader).is_none());
    let (response, slot) = match proposed {
        Some(slot) => (Response::Propose, format!("slot {slot}")),
        None if answered_written(world, after, envelope.to, client, seq) => {
            (Response::Answer, "a new slot".into())
        }
        None => (Response::Wait, "a new slot".into()),
    };
    let behind = (leader.chosen_gap()).map_or_else(String::new, |gap| {
        format!(", behind the hole at slot {gap}")
    });
    let words = [
        ("{name}", world.name(envelope.to)),
        ("{client}", world.name(client)),
        ("{entry}", world.entry_name(&vote.entry)),
        ("{seq}", seq.to_string()),
        ("{chosen}", chosen.to_string()),
        ("{applied}", applied.to_string()),
        ("{behind}", behind),
        (
            "{applied_seq}",
            leader.store().applied_seq(client).to_string(),
        ),
        ("{open}", open_proposals(world, leader)),
        ("{slot}", slot),
    ];
    let why = fill(reason(response), &words);
    let choices = (CHOICES.iter())
        .map(|(key, this, label, wrong)| Choice {
            key: (*key).into(),
            label: fill(label, &words),
            right: *this == response,
            explanation: if *this == response {
                why.clone()
            } else {
                fill(wrong, &words) + " " + &why
            },
        })
        .collect();
    let facts = &[
        "slot {chosen} holds {entry}, chosen",
        "{name} has applied through slot {applied}{behind}",
        "{name}'s session table: applied_seq for {client} is {applied_seq}",
        "{name}'s open proposals: {open}",
    ];
    Some(Prompt {
        kind: PromptKind::ClientResend,
        node: Some(words[0].1.clone()),
        message: Some(message),
        question: fill(
            "{client} sends {entry} again, to {name}. What does {name} do?",
            &words,
        ),
        facts: fill_all(facts, &words),
        choices,
        record: None,
        topic: "",
    })
}

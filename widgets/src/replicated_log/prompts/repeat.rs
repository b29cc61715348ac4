//! The repeat prompt: a node's apply walk reaches a slot whose command repeats a request the
//! node has already applied (a retry that reached the log twice). Skipped, or applied again?
//!
//! Whether it is a repeat is paros-core's own answer: `KvStore::apply`, run on a copy of the
//! node's store from before the move, over each newly applied slot in order. A wrong "applied
//! again" is told what the simulator's dedup-at-propose control does with the same move: the
//! applied-once checker's finding.

use super::resend::{answered_written, fill, fill_all, is_request};
use super::shared::node;
use crate::board::Board;
use crate::prompt::{Choice, Prompt, PromptKind};
use crate::replicated_log::LogMove;
use paros_core::log::{Command, Entry, KvStore, Slot};
use paros_sim::NegativeControl;
use paros_sim::check::Property;
use paros_sim::replicated_log::{LogAction, LogWorld};

/// A repeat the walk met: on which node, in which slot, the command, and the store just
/// before that slot applied.
struct Repeat {
    index: usize,
    slot: Slot,
    command: Command,
    store: KvStore,
}

/// The first repeat node `index`'s walk applied in this move, if any. Cheap when the node
/// applied nothing; a node that restarted or jumped is not asked.
fn repeat_at(world: &LogWorld, after: &LogWorld, index: usize) -> Option<Repeat> {
    let before = node(world, index)?;
    let now = node(after, index)?;
    if now.incarnation() != before.incarnation() || now.applied_index() <= before.applied_index() {
        return None;
    }
    let mut store = before.store().clone();
    for slot in before.applied_index().0 + 1..=now.applied_index().0 {
        let slot = Slot(slot);
        let entry = &now.chosen().get(&slot)?.entry;
        // A repeat leaves the store as it was: `store` is then the store before this slot.
        if !store.apply(entry)
            && let Entry::Command(command) = entry
        {
            let command = Command::clone(command);
            return Some(Repeat {
                index,
                slot,
                command,
                store,
            });
        }
    }
    None
}

/// The repeat prompt: the first node whose walk applied a repeat in this move.
pub(super) fn repeat_applies(
    world: &LogWorld,
    after: &LogWorld,
    action: &LogMove,
) -> Option<Prompt> {
    let Repeat {
        index,
        slot,
        command,
        store,
    } = (0..world.servers().len()).find_map(|index| repeat_at(world, after, index))?;
    let (before, now) = (node(world, index)?, node(after, index)?);
    let (client, seq) = (command.client, command.seq);
    let first = (now.chosen().iter())
        .find(|(at, vote)| **at < slot && is_request(&vote.entry, client, seq))
        .map_or_else(|| "an earlier slot".into(), |(at, _)| format!("slot {at}"));
    // A reply this move sends for a request applied before it is owed, not a second one.
    let owed = answered_written(world, after, now.id(), client, seq)
        && before.store().applied_seq(client) >= seq;
    let (reply, not_again) = if owed {
        (
            "{name} still owed {client} its answer, and sends \"written\" now.",
            "",
        )
    } else {
        (
            "{client} gets no second \"written\" for it.",
            ", and {client} is not answered again",
        )
    };
    let name = world.name(now.id());
    // In order: the first two values hold words of the later ones.
    let words = [
        ("{reply}", reply.to_string()),
        ("{not_again}", not_again.to_string()),
        ("{name}", name.clone()),
        ("{client}", world.name(client)),
        ("{entry}", world.entry_name(&Entry::from(command.clone()))),
        ("{seq}", seq.to_string()),
        ("{slot}", slot.to_string()),
        ("{first}", first),
        ("{key}", command.key.to_string()),
        ("{written}", command.value.to_string()),
        (
            "{value}",
            store
                .get(&command.key)
                .map_or("nothing", |v| v.as_str())
                .into(),
        ),
        ("{applied_seq}", store.applied_seq(client).to_string()),
        ("{applied}", now.applied_index().to_string()),
    ];
    let skipped = Choice {
        key: "skipped".into(),
        label: fill(
            "Skipped: the session table already holds {client}#{seq}; {key} stays \
             {value}{not_again}",
            &words,
        ),
        right: true,
        explanation: fill(
            "KvStore::apply finds {client}'s applied_seq at {applied_seq}, at or above request \
             {seq}: slot {slot} repeats {first} and is skipped, so {key} stays {value}. The slot \
             still counts as applied: {name} has applied through slot {applied}. {reply}",
            &words,
        ),
    };
    let again = Choice {
        key: "again".into(),
        label: fill(
            "Applied again: {key}={written} is written a second time",
            &words,
        ),
        right: false,
        explanation: fill(
            "The session table ({client}'s applied_seq is {applied_seq}) is how KvStore::apply \
             skips a request it has already applied. Writing {key}={written} again runs one \
             request twice: had any write to {key} been chosen between {first} and slot \
             {slot}, it would be undone.",
            &words,
        ) + &applied_twice(world, action).unwrap_or_default(),
    };
    let facts = &[
        "{first} holds {entry}, applied",
        "{name}'s session table: applied_seq for {client} is {applied_seq}",
        "{key} = {value} in {name}'s store",
    ];
    Some(Prompt {
        kind: PromptKind::RepeatApplies,
        node: Some(name),
        message: match action {
            LogMove::World(LogAction::Deliver(id)) => Some(id.0),
            _ => None,
        },
        question: fill(
            "{name} applies slot {slot}, {entry} again. What happens?",
            &words,
        ),
        facts: fill_all(facts, &words),
        choices: vec![skipped, again],
        record: None,
        topic: "",
    })
}

/// The same move played on a copy of the world under the simulator's dedup-at-propose control,
/// whose apply walk skips the session table: the applied-once checker's finding.
fn applied_twice(world: &LogWorld, action: &LogMove) -> Option<String> {
    let mut demo = world
        .with_negative_control(NegativeControl::DedupAtPropose)
        .ok()?;
    demo.play(action).ok()?;
    let violation =
        (demo.violations().iter()).find(|found| found.property == Property::AppliedOnce)?;
    Some(format!(
        " Played on a copy of this world under the simulator's dedup-at-propose control, whose \
         apply walk skips the session table, the applied-once checker reports: {}.",
        violation.detail
    ))
}

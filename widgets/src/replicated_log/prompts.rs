//! Act II's role prompts: what a node may apply (the apply walk), what a new leader puts in
//! each slot of its recovery (P2c per slot), and whether a node may serve a read now.
//!
//! As in Act I, the right answer is read off a clone of the world that took the real step;
//! the explanations are written from the node's own state (its chosen slots, the votes its
//! Promises reported, the replies its read collected), so a wrong answer is told what it would
//! break with this prompt's own slots, ballots and entries.

use super::stage::durable_record;
use super::{LogMove, ballot_name};
use crate::board::ByHand;
use crate::level::Automation;
use crate::prompt::{Choice, Prompt, PromptKind};
use paros_core::log::{ColocatedNode, Entry, LogMessage, LogRole, Slot, SlotVote};
use paros_core::{NodeId, NodeSet};
use paros_sim::replicated_log::{ClientOp, LogAction, LogWorld};
use std::collections::BTreeMap;

/// The prompt this move opens, or `None` when the world simply takes it.
pub fn for_move(world: &LogWorld, action: &LogMove, by_hand: &ByHand) -> Option<Prompt> {
    let mut after = world.clone();
    crate::board::Board::apply(&mut after, action).ok()?;
    if let LogMove::World(LogAction::Deliver(id)) = action {
        if let Some(prompt) = serve_or_wait(world, &after, id.0) {
            return Some(prompt);
        }
        if by_hand.has(Automation::P2c)
            && let Some(prompt) = recover_slots(world, &after, id.0)
        {
            return Some(prompt);
        }
    }
    let restarts = matches!(action, LogMove::World(LogAction::Restart(_)));
    if by_hand.has(Automation::ApplyWalk) && !restarts {
        return apply_walk(world, &after, action);
    }
    None
}

fn node(world: &LogWorld, index: usize) -> Option<&ColocatedNode> {
    world.servers().get(index)?.host.node()
}

fn index_of(node: NodeId) -> usize {
    usize::from(node.get()) - 1
}

fn set_name(world: &LogWorld, set: NodeSet) -> String {
    let names: Vec<String> = set.iter().map(|node| world.name(node)).collect();
    format!("{{{}}}", names.join(", "))
}

fn slots_text(slots: &[Slot]) -> String {
    let words: Vec<String> = slots.iter().map(ToString::to_string).collect();
    match words.len() {
        0 => "none".to_string(),
        1 => format!("slot {}", words[0]),
        _ => format!("slots {}", words.join(", ")),
    }
}

fn range_key(first: Slot, last: Slot) -> String {
    if first == last {
        first.to_string()
    } else {
        format!("{first}-{last}")
    }
}

fn range_label(first: Slot, last: Slot) -> String {
    if first == last {
        format!("Slot {first}")
    } else {
        format!("Slots {first} to {last}, in order")
    }
}

// ---------------------------------------------------------------------------------------------
// The apply walk.

/// The apply-walk prompt: the first node whose known-chosen slots grow in this move.
fn apply_walk(world: &LogWorld, after: &LogWorld, action: &LogMove) -> Option<Prompt> {
    let (index, learned) = (0..world.servers().len()).find_map(|index| {
        let before = node(world, index)?;
        let now = node(after, index)?;
        let learned: Vec<Slot> = now
            .chosen()
            .keys()
            .filter(|slot| !before.chosen().contains_key(slot))
            .copied()
            .collect();
        (!learned.is_empty()).then_some((index, learned))
    })?;
    let before = node(world, index)?;
    let now = node(after, index)?;
    let name = world.name(now.id());
    let applied = before.applied_index();
    let chosen_index = now.chosen_index();
    let highest = *now.chosen().keys().next_back()?;
    let right_key = if now.applied_index() > applied {
        range_key(applied.next(), now.applied_index())
    } else {
        "nothing".to_string()
    };
    let chosen_slots: Vec<Slot> = now
        .chosen()
        .keys()
        .filter(|slot| **slot > applied)
        .copied()
        .collect();
    let entry_at = |slot: Slot| {
        now.chosen().get(&slot).map_or_else(String::new, |vote| {
            format!(
                "{} (chosen at {})",
                world.entry_name(&vote.entry),
                ballot_name(world, vote.ballot)
            )
        })
    };
    let mut candidates: Vec<(String, String)> = vec![("nothing".into(), "Nothing yet".into())];
    for slot in &learned {
        candidates.push((slot.to_string(), format!("Slot {slot} only")));
    }
    candidates.push((
        range_key(applied.next(), highest),
        range_label(applied.next(), highest),
    ));
    if chosen_index > applied {
        candidates.push((
            range_key(applied.next(), chosen_index),
            range_label(applied.next(), chosen_index),
        ));
    }
    let mut seen = Vec::new();
    candidates.retain(|(key, _)| {
        let fresh = !seen.contains(key);
        seen.push(key.clone());
        fresh
    });
    let gap = now.chosen_gap();
    let choices = candidates
        .into_iter()
        .map(|(key, label)| {
            let right = key == right_key;
            let explanation = if right {
                if key == "nothing" {
                    format!(
                        "{name} knows {} chosen, but slot {} is not known chosen: chosen_index is \
                         {chosen_index}, the end of the contiguous prefix, and {name} has applied \
                         through it. The apply walk never runs past chosen_index, so {name} \
                         waits for slot {} to be decided.",
                        slots_text(&chosen_slots),
                        chosen_index.next(),
                        chosen_index.next()
                    )
                } else {
                    let entries: Vec<String> = (applied.0 + 1..=chosen_index.0)
                        .map(|slot| format!("slot {slot}: {}", entry_at(Slot(slot))))
                        .collect();
                    format!(
                        "Every slot through {chosen_index} is chosen, so chosen_index is \
                         {chosen_index} and the apply walk applies in slot order: {}.",
                        entries.join("; ")
                    )
                }
            } else {
                wrong_apply(&name, &key, applied, chosen_index, gap, &entry_at)
            };
            Choice {
                key,
                label,
                right,
                explanation,
            }
        })
        .collect();
    let mut facts = vec![
        format!(
            "{name} knows chosen: {}",
            slots_text(&now.chosen().keys().copied().collect::<Vec<_>>())
        ),
        format!("{name}'s chosen_index: {chosen_index}"),
        format!("{name} has applied through slot {applied}"),
    ];
    if let Some(gap) = gap {
        facts.push(format!("slot {gap} is not known chosen at {name}"));
    }
    Some(Prompt {
        kind: PromptKind::ApplyWalk,
        node: Some(name.clone()),
        message: match action {
            LogMove::World(LogAction::Deliver(id)) => Some(id.0),
            _ => None,
        },
        question: format!(
            "{name} now knows {} chosen. What may {name} apply?",
            slots_text(&learned)
        ),
        facts,
        choices,
        record: None,
    })
}

fn wrong_apply(
    name: &str,
    key: &str,
    applied: Slot,
    chosen_index: Slot,
    gap: Option<Slot>,
    entry_at: &dyn Fn(Slot) -> String,
) -> String {
    if key == "nothing" {
        return format!(
            "Every slot through {chosen_index} is chosen and every slot through {applied} is \
             applied: holding slot {} back keeps its client waiting for nothing. The apply walk \
             runs to chosen_index ({chosen_index}), no further and no shorter: slot {} holds {}.",
            applied.next(),
            applied.next(),
            entry_at(applied.next())
        );
    }
    let last: u64 = key
        .rsplit('-')
        .next()
        .and_then(|word| word.parse().ok())
        .unwrap_or_default();
    let first: u64 = key
        .split('-')
        .next()
        .and_then(|word| word.parse().ok())
        .unwrap_or_default();
    match gap {
        Some(gap) if Slot(last) > gap || Slot(first) > applied.next() => format!(
            "Slot {gap} is not known chosen at {name}. Applying slot {last} ({}) now would run it \
             before whatever slot {gap} decides, while every other node runs slot {gap} first: \
             the replicas' states would differ. Chosen slots apply in slot order, never past \
             chosen_index ({chosen_index}).",
            entry_at(Slot(last))
        ),
        _ => format!(
            "Slots {} to {chosen_index} are all chosen: stopping at slot {last} leaves {} chosen \
             and unapplied. The apply walk runs to chosen_index ({chosen_index}).",
            applied.next(),
            entry_at(chosen_index)
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// Recovery: P2c per slot.

/// Every vote any node holds for `slot`, on its running state or, if crashed, on its disk.
fn votes_anywhere(world: &LogWorld, slot: Slot) -> Vec<(NodeId, SlotVote)> {
    world
        .servers()
        .iter()
        .enumerate()
        .filter_map(|(index, server)| {
            let id = world.config().node_id(index);
            let vote = match server.host.node() {
                Some(node) => node.accepts().get(&slot).cloned(),
                None => durable_record(server).0.accepts.get(&slot).cloned(),
            };
            vote.map(|vote| (id, vote))
        })
        .collect()
}

fn entry_key(entry: &Entry) -> String {
    match entry {
        Entry::Noop => "noop".into(),
        Entry::Command(command) => format!("{}={}", command.key, command.value),
    }
}

/// The recovery prompt: this delivery completes a candidate's Phase-1 quorum.
fn recover_slots(world: &LogWorld, after: &LogWorld, message: u32) -> Option<Prompt> {
    let in_flight = world.in_flight().iter().find(|m| m.id.0 == message)?;
    let LogMessage::Promise { votes, .. } = &in_flight.envelope.message else {
        return None;
    };
    let index = index_of(in_flight.envelope.to);
    let candidate = node(world, index)?;
    let leader = node(after, index)?;
    if candidate.role() != LogRole::Candidate || leader.role() != LogRole::Leader {
        return None;
    }
    let election = candidate.election()?;
    let mut reported = election.reported.clone();
    for (slot, vote) in votes {
        if reported
            .get(slot)
            .is_none_or(|held| vote.ballot > held.ballot)
        {
            reported.insert(*slot, vote.clone());
        }
    }
    let mut quorum = election.promised_by;
    quorum.insert(in_flight.envelope.from);
    let plan: BTreeMap<Slot, Entry> = leader
        .proposals()
        .iter()
        .map(|(slot, proposal)| (*slot, proposal.entry.clone()))
        .collect();
    if plan.is_empty() {
        return None; // nothing to recover: no slot to answer for
    }
    let ballot = ballot_name(world, leader.ballot()?);
    let context = Recovery {
        world,
        name: world.name(leader.id()),
        ballot,
        quorum,
        reported: &reported,
        plan: &plan,
    };
    let mut choices = vec![Choice {
        key: "recover".into(),
        label: context.plan_label(None),
        right: true,
        explanation: context.right_text(),
    }];
    for (slot, right) in &plan {
        let mut alternatives: Vec<Option<Entry>> = Vec::new();
        if *right != Entry::Noop {
            alternatives.push(Some(Entry::Noop));
        }
        for (_, vote) in votes_anywhere(world, *slot) {
            if vote.entry != *right && !alternatives.contains(&Some(vote.entry.clone())) {
                alternatives.push(Some(vote.entry));
            }
        }
        alternatives.push(None);
        for alternative in alternatives {
            let key = match &alternative {
                Some(entry) => format!("{slot}:{}", entry_key(entry)),
                None => format!("{slot}:skip"),
            };
            choices.push(Choice {
                key,
                label: context.plan_label(Some((*slot, alternative.as_ref()))),
                right: false,
                explanation: context.wrong_text(*slot, alternative.as_ref()),
            });
        }
    }
    let mut facts: Vec<String> = reported
        .iter()
        .map(|(slot, vote)| {
            format!(
                "slot {slot}: the Promises report {} at {}",
                world.entry_name(&vote.entry),
                ballot_name(world, vote.ballot)
            )
        })
        .collect();
    facts.insert(
        0,
        format!(
            "{} promised {}; its Prepare covered every slot from {}",
            set_name(world, quorum),
            context.ballot,
            election.from_slot
        ),
    );
    for slot in plan.keys().filter(|slot| !reported.contains_key(slot)) {
        facts.push(format!("slot {slot}: no Promise reports a vote"));
    }
    Some(Prompt {
        kind: PromptKind::RecoverSlots,
        node: Some(context.name.clone()),
        message: Some(message),
        question: format!(
            "{} now holds a Phase-1 quorum {} for {}. Before any new command, what does it \
             propose in each slot up to {}?",
            context.name,
            set_name(world, quorum),
            context.ballot,
            plan.keys().next_back().copied().unwrap_or_default()
        ),
        facts,
        choices,
        record: None,
    })
}

/// The facts a recovery explanation is written from.
struct Recovery<'a> {
    world: &'a LogWorld,
    name: String,
    ballot: String,
    quorum: NodeSet,
    reported: &'a BTreeMap<Slot, SlotVote>,
    plan: &'a BTreeMap<Slot, Entry>,
}

impl Recovery<'_> {
    /// The plan as a label, with one slot changed if asked (`None` entry: left empty).
    fn plan_label(&self, changed: Option<(Slot, Option<&Entry>)>) -> String {
        let parts: Vec<String> = self
            .plan
            .iter()
            .map(|(slot, entry)| match changed {
                Some((at, None)) if at == *slot => {
                    format!("slot {slot}: leave it, and give new commands fresh slots")
                }
                Some((at, Some(other))) if at == *slot => {
                    format!("slot {slot}: {}", self.entry_text(other))
                }
                _ => format!("slot {slot}: {}", self.entry_text(entry)),
            })
            .collect();
        parts.join("; ")
    }

    fn entry_text(&self, entry: &Entry) -> String {
        match entry {
            Entry::Noop => "fill with a no-op".into(),
            Entry::Command(_) => format!("propose {}", self.world.entry_name(entry)),
        }
    }

    fn right_text(&self) -> String {
        let world = self.world;
        let parts: Vec<String> = self
            .plan
            .iter()
            .map(|(slot, entry)| match self.reported.get(slot) {
                Some(vote) => format!(
                    "slot {slot} re-proposes {}, the highest-ballot vote reported (at {})",
                    world.entry_name(&vote.entry),
                    ballot_name(world, vote.ballot)
                ),
                None if *entry == Entry::Noop => format!(
                    "slot {slot} gets a no-op: no Promise reports it, so nothing can have been \
                     chosen there"
                ),
                None => format!(
                    "slot {slot} keeps {}, which {} already knows is chosen",
                    world.entry_name(entry),
                    self.name
                ),
            })
            .collect();
        format!(
            "recover_slot, slot by slot, at {}: {}. Only then do new commands get slots.",
            self.ballot,
            parts.join("; ")
        )
    }

    fn wrong_text(&self, slot: Slot, alternative: Option<&Entry>) -> String {
        let world = self.world;
        let quorum = set_name(world, self.quorum);
        let highest = self.plan.keys().next_back().copied().unwrap_or_default();
        let Some(entry) = alternative else {
            return format!(
                "Slot {slot} would stay undecided while new commands take slots after it. As soon \
                 as one of those is chosen, chosen_gap() is Some({slot}): no node ever applies \
                 past slot {}, so every command chosen after it waits forever and the cluster is \
                 wedged. A leader at {} must decide every slot up to {highest} first.",
                Slot(slot.0 - 1),
                self.ballot
            );
        };
        let text = world.entry_name(entry);
        match self.reported.get(&slot) {
            Some(vote) => format!(
                "The Promises from {quorum} report {} at {} for slot {slot}. It may already be \
                 chosen there: any Phase-2 quorum that chose it meets {quorum}, and P2c says the \
                 highest-ballot vote reported is the only entry a leader may propose. Proposing \
                 {text} at {} could choose it in slot {slot} beside {}: two decisions for one \
                 slot, and agreement broken.",
                world.entry_name(&vote.entry),
                ballot_name(world, vote.ballot),
                self.ballot,
                world.entry_name(&vote.entry)
            ),
            None => {
                let holders: NodeSet = votes_anywhere(world, slot)
                    .into_iter()
                    .filter(|(_, vote)| vote.entry == *entry)
                    .map(|(node, _)| node)
                    .collect();
                format!(
                    "No Promise from {quorum} reports slot {slot}, so nothing can have been chosen \
                     there below {}. But {} has never seen {text}: only {} holds it, outside the \
                     quorum it heard. A leader proposes from what its Promises report \
                     (recover_slot): with nothing reported, a no-op. The client that sent {text} \
                     retries it, and it gets a fresh slot.",
                    self.ballot,
                    self.name,
                    set_name(world, holders)
                )
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Reads.

/// The read prompt: a delivery to a node that holds (or receives) a client's read.
fn serve_or_wait(world: &LogWorld, after: &LogWorld, message: u32) -> Option<Prompt> {
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

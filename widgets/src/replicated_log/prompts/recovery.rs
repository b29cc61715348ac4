//! The recovery prompt (P2c per slot): a Promise completes a candidate's Phase-1 quorum, and
//! the player picks what the new leader puts in each slot.

use super::shared::{index_of, node, set_name};
use crate::prompt::{Choice, Prompt, PromptKind};
use crate::replicated_log::ballot_name;
use crate::replicated_log::stage::durable_record;
use paros_core::log::{Entry, LogMessage, LogRole, Slot, SlotMap, SlotVote};
use paros_core::{NodeId, NodeSet};
use paros_sim::replicated_log::LogWorld;
use std::collections::BTreeMap;

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
        Entry::Trim(through) => format!("trim-{through}"),
    }
}

/// The recovery prompt: this delivery completes a candidate's Phase-1 quorum.
pub(super) fn recover_slots(world: &LogWorld, after: &LogWorld, message: u32) -> Option<Prompt> {
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
    let mut plan: BTreeMap<Slot, Entry> = BTreeMap::new();
    for (slot, proposal) in leader.proposals() {
        plan.insert(*slot, proposal.entry.clone());
    }
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
        topic: "",
    })
}

/// The facts a recovery explanation is written from.
struct Recovery<'a> {
    world: &'a LogWorld,
    name: String,
    ballot: String,
    quorum: NodeSet,
    reported: &'a SlotMap<SlotVote>,
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
            Entry::Command(_) | Entry::Trim(_) => {
                format!("propose {}", self.world.entry_name(entry))
            }
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
            "The recovery duty ([`recover_slot`]), slot by slot, at {}: {}. Only then do new \
             commands get slots.",
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
                 as one of those is chosen, slot {slot} is a hole in the log: no node ever applies \
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
                     (the recovery duty): with nothing reported, a no-op. The client that sent {text} \
                     retries it, and it gets a fresh slot.",
                    self.ballot,
                    self.name,
                    set_name(world, holders)
                )
            }
        }
    }
}

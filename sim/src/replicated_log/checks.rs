//! The checkers of what nodes learn, keep on disk, apply and acknowledge, each against what the
//! votes chose; a ballot is never reused; the client history is linearizable. Each finding is
//! kept: a broken world stays broken.

use super::knowledge::Effect;
use super::{ClientCall, ClientOp, LogWorld, Part, part};
use crate::check::{GaveUp, Property, Violation};
use crate::linearizability::{self, History};
#[cfg(feature = "accept-batch")]
use paros_core::log::accept_run_slots;
use paros_core::log::{
    Applied, ColocatedNode, Entry, KvStore, LogEnvelope, LogMessage, Slot, SlotMap, SlotVote,
    TrimPoint, Write,
};
use paros_core::{Ballot, NodeId};
use std::collections::BTreeSet;
use std::sync::Arc;

impl LogWorld {
    /// Checks and records, in order, what the servers' steps of the current action asked.
    pub(super) fn learn_effects(&mut self) {
        if self.effects.is_empty() {
            return;
        }
        for effect in std::mem::take(&mut self.effects) {
            self.learn(effect);
        }
    }

    /// Checks or records one effect against the knowledge.
    pub(super) fn learn(&mut self, effect: Effect) {
        match effect {
            Effect::Violation(property, detail) => self.violate(property, detail),
            Effect::Disk { node, slots } => self.check_disk_slots(node, slots),
            Effect::Decisions {
                node,
                chosen,
                prefix_broken,
            } => self.check_node_decisions(node, &chosen, prefix_broken.as_deref()),
            Effect::Votes { voter, cast } => self.count_votes(voter, cast),
            Effect::TrimPoint { node, point } => self.check_trim_point(node, &point),
            Effect::Proposals { node, proposed } => self.check_proposals(node, &proposed),
            Effect::AcceptsSent { node, sent } => self.check_one_value_per_ballot(node, sent),
            Effect::Commits { node, sent } => self.check_commits(node, &sent),
            Effect::Announced {
                proxy,
                slot,
                ballot,
                entry,
            } => self.check_announcement(proxy, slot, ballot, &entry),
        }
    }

    /// Each trim point a node's step wrote, to judge by T3 ([`LogWorld::check_trim_point`]).
    pub(super) fn record_trim_points(&mut self, index: usize, writes: &[Write]) {
        let node = self.config.node_id(index);
        for write in writes {
            if let Write::TrimPoint(point) = write {
                let point = point.clone();
                self.effects.push(Effect::TrimPoint { node, point });
            }
        }
    }

    /// T3: a trim point at `k` is the state after applying, in order, the entry chosen in every
    /// slot through `k` (judged by the votes), the client session table included. The highest
    /// floor reached is kept for T4's checker.
    fn check_trim_point(&mut self, node: NodeId, point: &TrimPoint) {
        let mut expected = KvStore::default();
        for slot in (1..=point.through.0).map(Slot) {
            let Some(chosen) = self.knowledge.chosen.get(&slot) else {
                let detail = format!(
                    "{}'s trim point through slot {} covers slot {slot}, where nothing is chosen",
                    self.name(node),
                    point.through
                );
                return self.violate(Property::TrimPointIsState, detail);
            };
            expected.apply(&chosen.entry);
        }
        if point.store != expected {
            let detail = format!(
                "{}'s trim point through slot {} is not the state after applying slots 1 to {}",
                self.name(node),
                point.through,
                point.through
            );
            self.violate(Property::TrimPointIsState, detail);
        }
        if point.through > self.knowledge.highest_floor {
            Arc::make_mut(&mut self.knowledge).highest_floor = point.through;
        }
    }

    /// The Accepts a node sends at its own ballot: its proposals, for T4's checker. Recorded
    /// only in worlds with truncation, the only ones with a floor.
    pub(super) fn record_proposals(&mut self, index: usize, messages: &[LogEnvelope]) {
        if self.config.trims == 0 {
            return;
        }
        let node = self.config.node_id(index);
        let proposed: Vec<(Slot, Ballot, Entry)> = accepts_in(messages)
            .filter(|(_, ballot, _)| ballot.node == node)
            .collect();
        if !proposed.is_empty() {
            self.effects.push(Effect::Proposals { node, proposed });
        }
    }

    /// The commit indexes that leave a node, for the commit rule's checker.
    pub(super) fn record_commits(&mut self, index: usize, messages: &[LogEnvelope]) {
        let mut sent: Vec<(Ballot, Slot)> = Vec::new();
        for envelope in messages {
            let (ballot, commit) = match &envelope.message {
                LogMessage::Accept { ballot, commit, .. }
                | LogMessage::Heartbeat { ballot, commit, .. } => (*ballot, *commit),
                #[cfg(feature = "accept-batch")]
                LogMessage::AcceptRun { ballot, commit, .. } => (*ballot, *commit),
                _ => continue,
            };
            match sent.iter_mut().find(|(known, _)| *known == ballot) {
                Some(entry) => entry.1 = entry.1.max(commit),
                None if commit > Slot(0) => sent.push((ballot, commit)),
                None => {}
            }
        }
        if !sent.is_empty() {
            let node = self.config.node_id(index);
            self.effects.push(Effect::Commits { node, sent });
        }
    }

    /// The commit rule's premise ([`Property::CommitIsDecidedAtBallot`]): every vote at the
    /// ballot in a slot up to the commit sent is for the entry chosen there.
    pub(super) fn check_commits(&mut self, node: NodeId, sent: &[(Ballot, Slot)]) {
        for (ballot, commit) in sent {
            let stale = (self.knowledge.votes.iter()).find(|((slot, at, entry), _)| {
                at == ballot
                    && slot <= commit
                    && (self.knowledge.chosen.get(slot))
                        .is_some_and(|chosen| chosen.entry != *entry)
            });
            if let Some(((slot, _, entry), voters)) = stale {
                let detail = format!(
                    "{} sent commit {} at {}.{}, but slot {slot} holds a vote for {} at that ballot (by {}), where {} is chosen",
                    self.name(node),
                    commit.0,
                    ballot.round,
                    self.name(ballot.node),
                    self.entry_name(entry),
                    (voters.iter().map(|voter| self.name(voter)))
                        .collect::<Vec<_>>()
                        .join(", "),
                    self.entry_name(&self.knowledge.chosen[slot].entry),
                );
                self.violate(Property::CommitIsDecidedAtBallot, detail);
                return;
            }
        }
    }

    /// Every Accept that leaves a node, at whatever ballot, for H1's and P4's checker. Recorded
    /// only in worlds with handoffs or proxies: without either, a ballot has one sender, which
    /// sends each proposal once, to every node ([`Effect::Proposals`] is T4's).
    pub(super) fn record_accepts_sent(&mut self, index: usize, messages: &[LogEnvelope]) {
        if self.config.handoffs == 0 && self.config.proxies == 0 {
            return;
        }
        self.push_accepts_sent(self.config.node_id(index), messages);
    }

    /// Runs-batched: in a world whose leaders may send runs of two or more slots, a step's
    /// plain Accept to a node for the slot right after the one its last Accept (or run) to that
    /// node ended with, at the same ballot, should have joined that Accept: the world asked for
    /// runs and the node did not send them.
    #[cfg(feature = "accept-batch")]
    pub(super) fn check_runs_batched(&mut self, index: usize, messages: &[LogEnvelope]) {
        if self.config.accept_batch < 2 {
            return;
        }
        let mut last_to: Vec<(NodeId, Ballot, Slot, bool)> = Vec::new();
        for envelope in messages {
            let (ballot, first, through, plain) = match &envelope.message {
                LogMessage::Accept { ballot, slot, .. } => (*ballot, *slot, *slot, true),
                LogMessage::AcceptRun {
                    ballot,
                    first,
                    entries,
                    ..
                } => {
                    let through = Slot(first.0 + entries.len().saturating_sub(1) as u64);
                    (*ballot, *first, through, false)
                }
                _ => continue,
            };
            let before = last_to.iter().position(|(to, ..)| *to == envelope.to);
            if let Some(at) = before {
                let (_, last_ballot, last_slot, last_plain) = last_to[at];
                if plain && last_plain && last_ballot == ballot && last_slot.next() == first {
                    let detail = format!(
                        "{} sent {} plain Accepts for slots {last_slot} and {first} at {}.{}, \
                         where runs of up to {} slots are allowed",
                        self.name(self.config.node_id(index)),
                        self.name(envelope.to),
                        ballot.round,
                        self.name(ballot.node),
                        self.config.accept_batch
                    );
                    self.violate(Property::RunsBatched, detail);
                    return;
                }
                last_to.remove(at);
            }
            last_to.push((envelope.to, ballot, through, plain));
        }
    }

    /// Records the Accepts among `messages` as sent by `sender`, for the one-value-per-ballot
    /// checker.
    pub(super) fn push_accepts_sent(&mut self, sender: NodeId, messages: &[LogEnvelope]) {
        let sent: Vec<(Slot, Ballot, Entry)> = accepts_in(messages).collect();
        if !sent.is_empty() {
            self.effects
                .push(Effect::AcceptsSent { node: sender, sent });
        }
    }

    /// H1 and P4: across every sender, at most one value is ever sent per (slot, ballot). The first
    /// entry sent at each is kept; another entry at the same (slot, ballot), from the same
    /// node or another, is a violation, whether or not any vote for it ever counts.
    fn check_one_value_per_ballot(&mut self, node: NodeId, sent: Vec<(Slot, Ballot, Entry)>) {
        for (slot, ballot, entry) in sent {
            let key = (slot, ballot);
            match self.knowledge.sent.get(&key) {
                Some(first) if *first == entry => {}
                Some(first) => {
                    let detail = format!(
                        "slot {slot} at {}.{}: {} sent {}, but {} was sent there first",
                        ballot.round,
                        self.name(ballot.node),
                        self.name(node),
                        self.entry_name(&entry),
                        self.entry_name(first)
                    );
                    self.violate(Property::OneValuePerBallot, detail);
                }
                None => {
                    self.kept_sum = (self.kept_sum).wrapping_add(part(Part::Sent, &(&key, &entry)));
                    Arc::make_mut(&mut self.knowledge).sent.insert(key, entry);
                }
            }
        }
    }

    /// T4: in a slot at or below a floor some node reached, a proposal at a ballot at or above
    /// the one that chose the slot must be the chosen entry (a leader that fills such a slot
    /// with anything else did not read the floor). A stale leader's resend at a lower ballot is
    /// no such proposal.
    fn check_proposals(&mut self, node: NodeId, proposed: &[(Slot, Ballot, Entry)]) {
        let mut found = Vec::new();
        for (slot, ballot, entry) in proposed {
            if *slot > self.knowledge.highest_floor {
                continue;
            }
            if let Some(chosen) = self.knowledge.chosen.get(slot)
                && chosen.ballot <= *ballot
                && chosen.entry != *entry
            {
                found.push(format!(
                    "slot {slot}, at or below a floor: {} proposed {} at {}.{}, but {}",
                    self.name(node),
                    self.entry_name(entry),
                    ballot.round,
                    self.name(ballot.node),
                    self.describe_votes(chosen)
                ));
            }
        }
        for detail in found {
            self.violate(Property::TrimmedSlotsKept, detail);
        }
    }

    /// Durability: a node restarted now would take every slot up to its record's chosen mark
    /// as decided, so each of those slots must hold the entry chosen by the votes. Asks it of
    /// the slots `writes` touched and those the chosen mark passed since `before`.
    pub(super) fn check_disk(&mut self, index: usize, before: Slot, writes: &[Write]) {
        let record = &self.servers[index].record;
        let floor = record.floor();
        // Built by inserting: `collect` into a B-tree sorts first, and the game's wasm module
        // would carry that sort once more for this one type.
        let mut slots: BTreeSet<Slot> = BTreeSet::new();
        for write in writes {
            if let Write::Accept(slot, _) = write
                && *slot <= record.chosen_through
                && *slot > floor
            {
                slots.insert(*slot);
            }
        }
        let mut slot = before.max(floor).next();
        while slot <= record.chosen_through {
            slots.insert(slot);
            slot = slot.next();
        }
        if slots.is_empty() {
            return;
        }
        let slots = (slots.into_iter())
            .map(|slot| {
                (
                    slot,
                    record.accepts.get(&slot).map(|vote| vote.entry.clone()),
                )
            })
            .collect();
        let node = self.config.node_id(index);
        self.effects.push(Effect::Disk { node, slots });
    }

    /// [`LogWorld::check_disk`]'s judgement: each slot's entry on disk against the chosen one.
    fn check_disk_slots(&mut self, node: NodeId, slots: Vec<(Slot, Option<Entry>)>) {
        let name = self.name(node);
        let mut found = Vec::new();
        for (slot, on_disk) in slots {
            let chosen = self.knowledge.chosen.get(&slot);
            if on_disk.is_some() && on_disk.as_ref() == chosen.map(|votes| &votes.entry) {
                continue;
            }
            let disk = on_disk.map_or("nothing".to_string(), |entry| self.entry_name(&entry));
            let chosen = chosen.map_or("nothing is chosen there".to_string(), |votes| {
                self.describe_votes(votes)
            });
            found.push(format!(
                "slot {slot}: {name}'s disk would restart it with {disk} as decided, but {chosen}"
            ));
        }
        for detail in found {
            self.violate(Property::LearnedIsChosen, detail);
        }
    }

    /// A node stands for election when its Prepare leaves it; it must never stand again at a
    /// ballot it stood at in an earlier life, or two leaders could share one ballot and each
    /// choose its own value under it.
    pub(super) fn record_ballots(&mut self, index: usize, messages: &[LogEnvelope]) {
        let me = self.config.node_id(index);
        let mut ballots: BTreeSet<Ballot> = BTreeSet::new(); // inserted: see `check_disk`
        for envelope in messages {
            if let LogMessage::Prepare { ballot, .. } = envelope.message
                && ballot.node == me
            {
                ballots.insert(ballot);
            }
        }
        for ballot in ballots {
            let server = Arc::make_mut(&mut self.servers[index]);
            server.stood_now.insert(ballot);
            if server.stood_before.contains(&ballot) {
                let detail = format!(
                    "{} stood at {}.{} again after a restart",
                    self.name(me),
                    ballot.round,
                    self.name(ballot.node)
                );
                (self.effects).push(Effect::Violation(Property::BallotUnique, detail));
            }
        }
    }

    /// The checkers that watch the apply walk and the decisions of every node. `jumps` are the
    /// trim points the step wrote: a node that installs one at `k` applies from `k + 1` on.
    pub(super) fn record_applied(&mut self, index: usize, applied: &[Applied], jumps: &[Slot]) {
        let name = self.name(self.config.node_id(index));
        for entry in applied {
            let server = Arc::make_mut(&mut self.servers[index]);
            let jumped_to = Slot(entry.slot.0.saturating_sub(1));
            if entry.slot != server.applied_through.next()
                && !(jumped_to > server.applied_through && jumps.contains(&jumped_to))
            {
                let detail = format!(
                    "{name} applied slot {} after slot {}",
                    entry.slot, server.applied_through
                );
                (self.effects).push(Effect::Violation(Property::AppliedInOrder, detail));
                continue;
            }
            server.applied_through = entry.slot;
            if let (true, Entry::Command(command)) = (entry.fresh, &entry.entry)
                && !server.applied_fresh.insert((command.client, command.seq))
            {
                let detail = format!(
                    "{name} applied {}#{} twice",
                    self.name(command.client),
                    command.seq
                );
                (self.effects).push(Effect::Violation(Property::AppliedOnce, detail));
            }
        }
        let server = Arc::make_mut(&mut self.servers[index]);
        if let Some(node) = server.host.node()
            && node.applied_index() > server.applied_through
            && jumps.contains(&node.applied_index())
        {
            server.applied_through = node.applied_index(); // a jump with nothing after it yet
        }
        self.check_decisions(index);
    }

    /// Agreement, validity and durability over what the node knows is chosen: a slot's
    /// decision, once learned by anyone, never changes, even across crashes and restarts.
    /// Asked of a live node only.
    pub(super) fn check_decisions(&mut self, index: usize) {
        let Some(node) = self.servers[index].host.node() else {
            return;
        };
        let chosen = (node.chosen().iter())
            .map(|(slot, vote)| (*slot, vote.entry.clone()))
            .collect();
        let prefix_broken = chosen_prefix(
            node.chosen(),
            node.floor(),
            node.chosen_index(),
            node.applied_index(),
        );
        let (floor, applied) = (node.floor(), node.applied_index());
        let broken = self.broken_state_invariants(node);
        let node = node.id();
        self.check_floor_below_applied(node, floor, applied);
        for (property, detail) in broken {
            self.effects.push(Effect::Violation(property, detail));
        }
        self.effects.push(Effect::Decisions {
            node,
            chosen,
            prefix_broken,
        });
    }

    /// The invariants of a node's own state that [`LogWorld::check_decisions`] judges after every
    /// step, each broken with its detail: the vote rule's (votes-within-promise) and
    /// compaction's (nothing-below-floor). Only with the `every-checker` feature.
    #[cfg(feature = "every-checker")]
    fn broken_state_invariants(&self, node: &ColocatedNode) -> Vec<(Property, String)> {
        let name = self.name(node.id());
        let mut broken = Vec::new();
        if let Some(slot) = vote_above_promise(node) {
            let detail = format!("{name} holds a vote above its promise in slot {slot}");
            broken.push((Property::VotesWithinPromise, detail));
        }
        if let Some(slot) = held_below_floor(node) {
            let floor = node.floor();
            let detail = format!("{name} still holds slot {slot}, at or below its floor {floor}");
            broken.push((Property::NothingBelowFloor, detail));
        }
        broken
    }

    /// Without the `every-checker` feature, as in the game's build: none judged.
    #[cfg(not(feature = "every-checker"))]
    fn broken_state_invariants(&self, _node: &ColocatedNode) -> Vec<(Property, String)> {
        Vec::new()
    }

    /// T1: a node's floor never passes what it has applied. Asked by
    /// [`LogWorld::check_decisions`] of every live node's floor and applied index.
    pub(super) fn check_floor_below_applied(&mut self, node: NodeId, floor: Slot, applied: Slot) {
        if floor > applied {
            let detail = format!(
                "{}'s floor {floor} is above what it applied, {applied}",
                self.name(node)
            );
            self.effects
                .push(Effect::Violation(Property::FloorBelowApplied, detail));
        }
    }

    /// [`LogWorld::check_decisions`]'s judgement, against the votes and the decisions so far;
    /// a slot decided for the first time is recorded.
    fn check_node_decisions(
        &mut self,
        node: NodeId,
        chosen: &[(Slot, Entry)],
        prefix_broken: Option<&str>,
    ) {
        let name = self.name(node);
        let mut found = Vec::new();
        for (slot, entry) in chosen {
            match self.knowledge.chosen.get(slot) {
                Some(chosen) if chosen.entry == *entry => {}
                Some(chosen) => found.push((
                    Property::LearnedIsChosen,
                    format!(
                        "slot {slot}: {name} learned {}, but {}",
                        self.entry_name(entry),
                        self.describe_votes(chosen)
                    ),
                )),
                None => found.push((
                    Property::LearnedIsChosen,
                    format!(
                        "slot {slot}: {name} learned {}, which no quorum voted for",
                        self.entry_name(entry)
                    ),
                )),
            }
            match self.knowledge.decided.get(slot) {
                Some(decided) if decided != entry => found.push((
                    Property::Agreement,
                    format!(
                        "slot {slot}: {name} learned {}, but {} was decided",
                        self.entry_name(entry),
                        self.entry_name(decided)
                    ),
                )),
                Some(_) => {}
                None => {
                    if !self.was_issued(entry) {
                        found.push((
                            Property::Validity,
                            format!("slot {slot}: {} was never issued", self.entry_name(entry)),
                        ));
                    }
                    let decided = part(Part::Decided, &(slot, entry));
                    self.kept_sum = self.kept_sum.wrapping_add(decided);
                    Arc::make_mut(&mut self.knowledge)
                        .decided
                        .insert(*slot, entry.clone());
                }
            }
        }
        if let Some(broken) = prefix_broken {
            found.push((Property::ChosenPrefix, format!("{name} {broken}")));
        }
        for (property, detail) in found {
            self.violate(property, detail);
        }
    }

    fn was_issued(&self, entry: &Entry) -> bool {
        let Entry::Command(command) = entry else {
            return true;
        };
        self.knowledge.history.iter().any(|operation| {
            command.client == operation.client
                && operation.seq() == command.seq
                && matches!(&operation.op, ClientOp::Write { key, value } if *key == command.key && *value == command.value)
        })
    }

    /// Every "written" a client hears is a decided write: some slot has the client's command
    /// chosen by a quorum of votes.
    pub(super) fn check_written_is_chosen(&mut self, client_index: usize, seq: u64) {
        let client = self.config.client_id(client_index);
        let chosen = self.knowledge.chosen.values().any(|votes| {
            matches!(&votes.entry, Entry::Command(command) if command.client == client && command.seq == seq)
        });
        if !chosen {
            let detail = format!(
                "{} heard its write #{seq} was written, but no slot has it chosen",
                self.name(client)
            );
            self.violate(Property::WrittenIsChosen, detail);
        }
    }

    /// The linearizability checker over the whole client history, run each time an operation
    /// returns. A history it cannot judge within the world's limits is kept as [`GaveUp`]: an
    /// error, never a pass and never "not linearizable".
    pub(super) fn check_linearizable(&mut self) {
        let operations = (self.knowledge.history.iter())
            .map(ClientCall::to_operation)
            .collect();
        let limits = self.config.linearizability_limits;
        let gave_up = match History::new(operations)
            .map(|h| linearizability::check_with_limits(&h, limits))
        {
            Ok(linearizability::Verdict::Linearizable { .. }) => return,
            Ok(linearizability::Verdict::NotLinearizable { reason, .. }) => {
                return self.violate(Property::Linearizability, reason);
            }
            Ok(linearizability::Verdict::TooLarge { key, reason }) => {
                format!("on key {key}: {reason}")
            }
            Err(malformed) => format!("on a malformed client history: {malformed}"),
        };
        if self.knowledge.gave_up.is_some() {
            return;
        }
        Arc::make_mut(&mut self.knowledge).gave_up = Some(GaveUp {
            property: Property::Linearizability,
            why: gave_up,
        });
    }

    pub(super) fn violate(&mut self, property: Property, detail: String) {
        if !self
            .knowledge
            .violations
            .iter()
            .any(|known| known.property == property && known.detail == detail)
        {
            Arc::make_mut(&mut self.knowledge)
                .violations
                .push(Violation { property, detail });
        }
    }
}

/// The chosen prefix: every slot above the floor and up to the chosen index is known chosen,
/// and nothing past it is applied. What is broken, in words, or `None`.
pub(super) fn chosen_prefix(
    chosen: &SlotMap<SlotVote>,
    floor: Slot,
    chosen_index: Slot,
    applied_index: Slot,
) -> Option<String> {
    if applied_index > chosen_index {
        return Some(format!(
            "applied through slot {applied_index}, past its chosen index {chosen_index}"
        ));
    }
    if chosen_index <= floor {
        return None;
    }
    let above_floor = chosen_index.0 - floor.0;
    if chosen.range(floor.next()..=chosen_index).count() as u64 == above_floor {
        return None;
    }
    let hole = (floor.0 + 1..=chosen_index.0)
        .map(Slot)
        .find(|slot| !chosen.contains_key(slot))?;
    Some(format!(
        "has chosen index {chosen_index}, but slot {hole} is not known chosen"
    ))
}

/// Every (slot, ballot, entry) the Accepts among `messages` propose, a run's slot by slot
/// (`accept_run_slots`).
fn accepts_in(messages: &[LogEnvelope]) -> impl Iterator<Item = (Slot, Ballot, Entry)> + '_ {
    messages
        .iter()
        .flat_map(|envelope| -> Vec<(Slot, Ballot, Entry)> {
            match &envelope.message {
                LogMessage::Accept {
                    ballot,
                    slot,
                    entry,
                    ..
                } => vec![(*slot, *ballot, entry.clone())],
                #[cfg(feature = "accept-batch")]
                LogMessage::AcceptRun {
                    ballot,
                    first,
                    entries,
                    ..
                } => accept_run_slots(*first, entries)
                    .map(|(slot, entry)| (slot, *ballot, entry.clone()))
                    .collect(),
                _ => Vec::new(),
            }
        })
}

/// The first slot where `node` holds a vote at a ballot above its promise (the vote rule's
/// invariant, [`Property::VotesWithinPromise`]); None for a node that keeps the rule.
#[cfg(feature = "every-checker")]
fn vote_above_promise(node: &ColocatedNode) -> Option<Slot> {
    let promised = node.promised();
    (node.accepts().iter())
        .find(|(_, vote)| Some(vote.ballot) > promised)
        .map(|(slot, _)| *slot)
}

/// The lowest slot at or below its floor where `node` holds a vote, an unknown mark or a chosen
/// entry: compaction keeps none there ([`Property::NothingBelowFloor`]); None for a node that
/// keeps it.
#[cfg(feature = "every-checker")]
fn held_below_floor(node: &ColocatedNode) -> Option<Slot> {
    let lowest = [
        node.accepts().keys().next(),
        node.unknown_votes().iter().next(),
        node.chosen().keys().next(),
    ];
    (lowest.into_iter().flatten().min().copied()).filter(|slot| *slot <= node.floor())
}

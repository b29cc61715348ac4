//! Names as players read them: nodes and clients (N1, C1), messages, entries and votes. The
//! checkers and the game use the same names, so a violation reads like the stage.

use super::{LogWorld, SlotVotes};
use paros_core::log::{Entry, LogMessage, Outcome, Slot};
use paros_core::{Ballot, NodeId, Value};

impl LogWorld {
    /// A node's, client's or proxy leader's name: N1.., C1.., P1..
    pub fn name(&self, node: NodeId) -> String {
        let number = usize::from(node.get());
        let node_count = usize::from(self.config.node_count);
        let clients_end = node_count + self.clients.len();
        if number <= node_count {
            format!("N{number}")
        } else if number <= clients_end {
            format!("C{}", number - node_count)
        } else if number - clients_end <= self.proxies().len() {
            format!("P{}", number - clients_end)
        } else {
            node.to_string()
        }
    }

    /// A message as players read it, e.g. `Accept(2.N2, slot 3, x=1 (C1#1), commit 2)`.
    pub fn message_name(&self, message: &LogMessage) -> String {
        let ballot =
            |ballot: paros_core::Ballot| format!("{}.{}", ballot.round, self.name(ballot.node));
        match message {
            LogMessage::Prepare {
                ballot: b,
                from_slot,
            } => format!("Prepare({}, from slot {from_slot})", ballot(*b)),
            LogMessage::Promise {
                ballot: b,
                floor,
                votes,
                unknown,
                ..
            } => {
                let votes: Vec<String> = votes
                    .iter()
                    .map(|(slot, vote)| {
                        format!(
                            "{slot}: {} at {}",
                            self.entry_name(&vote.entry),
                            ballot(vote.ballot)
                        )
                    })
                    .collect();
                let floor = if *floor == Slot(0) {
                    String::new()
                } else {
                    format!("floor {floor}, ")
                };
                let unknown = if unknown.is_empty() {
                    String::new()
                } else {
                    let slots: Vec<String> = unknown.iter().map(Slot::to_string).collect();
                    format!(", unknown [{}]", slots.join(", "))
                };
                format!(
                    "Promise({}, {floor}[{}]{unknown})",
                    ballot(*b),
                    votes.join("; ")
                )
            }
            LogMessage::Accept {
                ballot: b,
                slot,
                entry,
                commit,
            } => {
                format!(
                    "Accept({}, slot {slot}, {}, commit {commit})",
                    ballot(*b),
                    self.entry_name(entry)
                )
            }
            LogMessage::Accepted { ballot: b, slot } => {
                format!("Accepted({}, slot {slot})", ballot(*b))
            }
            #[cfg(feature = "accept-batch")]
            LogMessage::AcceptRun {
                ballot: b,
                first,
                entries,
                commit,
            } => {
                let named: Vec<String> = (entries.iter())
                    .map(|entry| self.entry_name(entry))
                    .collect();
                let through = Slot((first.0 + entries.len() as u64).saturating_sub(1));
                format!(
                    "AcceptRun({}, {}, [{}], commit {commit})",
                    ballot(*b),
                    slots_named(*first, through),
                    named.join("; ")
                )
            }
            #[cfg(feature = "accept-batch")]
            LogMessage::AcceptedRun {
                ballot: b,
                first,
                through,
            } => format!(
                "AcceptedRun({}, {})",
                ballot(*b),
                slots_named(*first, *through)
            ),
            LogMessage::Nack {
                ballot: b,
                promised,
            } => format!("Nack({}, promised {})", ballot(*b), ballot(*promised)),
            LogMessage::Heartbeat { ballot: b, commit } => {
                format!("Heartbeat({}, commit {commit})", ballot(*b))
            }
            LogMessage::HeartbeatAck {
                ballot: b,
                chosen_index,
                highest_accepted,
            } => {
                let votes = if highest_accepted > chosen_index {
                    format!(", votes to {highest_accepted}")
                } else {
                    String::new()
                };
                format!("HeartbeatAck({}, chosen {chosen_index}{votes})", ballot(*b))
            }
            LogMessage::Chosen { entries } => {
                let slots: Vec<String> = entries
                    .iter()
                    .map(|(slot, vote)| format!("{slot}: {}", self.entry_name(&vote.entry)))
                    .collect();
                format!("Chosen([{}])", slots.join("; "))
            }
            LogMessage::SlotChosen {
                ballot: b,
                slot,
                entry,
            } => format!(
                "SlotChosen({}, slot {slot}, {})",
                ballot(*b),
                self.entry_name(entry)
            ),
            LogMessage::TrimPoint { ballot: b, point } => {
                format!("TrimPoint({}, through {})", ballot(*b), point.through)
            }
            LogMessage::Handoff {
                ballot: b,
                next_slot,
                in_flight,
                read_watermark,
            } => {
                let in_flight: Vec<String> = (in_flight.iter())
                    .map(|(slot, entry)| format!("{slot}: {}", self.entry_name(entry)))
                    .collect();
                format!(
                    "Handoff({}, next slot {next_slot}, in flight [{}], chosen {read_watermark})",
                    ballot(*b),
                    in_flight.join("; ")
                )
            }
            LogMessage::ReadIndex { read } => format!("ReadIndex(read {read})"),
            LogMessage::ReadIndexReply {
                read,
                highest_accepted,
            } => {
                format!("ReadIndexReply(read {read}, highest accepted {highest_accepted})")
            }
            LogMessage::Write { seq, key, value } => format!("Write(#{seq}, {key}={value})"),
            LogMessage::Read { seq, key } => format!("Read(#{seq}, {key})"),
            LogMessage::Reply { seq, outcome } => match outcome {
                Outcome::Written => format!("Reply(#{seq}, written)"),
                Outcome::Read(value) => format!(
                    "Reply(#{seq}, read {})",
                    value.as_ref().map_or("nothing", Value::as_str)
                ),
                Outcome::NotLeader { hint } => format!(
                    "Reply(#{seq}, not leader{})",
                    hint.map(|node| format!(", try {}", self.name(node)))
                        .unwrap_or_default()
                ),
            },
        }
    }

    /// An entry as players read it: `no-op` or `x=1 (C1#1)`.
    pub fn entry_name(&self, entry: &Entry) -> String {
        match entry {
            Entry::Noop => "no-op".to_string(),
            Entry::Trim(through) => format!("trim through {through}"),
            Entry::Command(command) => {
                format!(
                    "{}={} ({}#{})",
                    command.key,
                    command.value,
                    self.name(command.client),
                    command.seq
                )
            }
        }
    }

    /// `x=1 (C1#1) chosen at 1.N1 by {N1, N2}`.
    pub fn describe_votes(&self, votes: &SlotVotes) -> String {
        let voters: Vec<String> = votes.voters.iter().map(|node| self.name(node)).collect();
        format!(
            "{} chosen at {}.{} by {{{}}}",
            self.entry_name(&votes.entry),
            votes.ballot.round,
            self.name(votes.ballot.node),
            voters.join(", ")
        )
    }
}

/// A run's slots: `slot 3` for a run of one, `slots 3-5` for more.
#[cfg(feature = "accept-batch")]
fn slots_named(first: Slot, through: Slot) -> String {
    if through <= first {
        format!("slot {first}")
    } else {
        format!("slots {first}-{through}")
    }
}

/// A message's kind as the stage draws it, in lowercase words (`accept`, `heartbeat-ack`): a
/// run is drawn as the Accept or Accepted it batches.
pub fn message_kind(message: &LogMessage) -> &'static str {
    match message {
        LogMessage::Prepare { .. } => "prepare",
        LogMessage::Promise { .. } => "promise",
        LogMessage::Accept { .. } => "accept",
        LogMessage::Accepted { .. } => "accepted",
        #[cfg(feature = "accept-batch")]
        LogMessage::AcceptRun { .. } => "accept",
        #[cfg(feature = "accept-batch")]
        LogMessage::AcceptedRun { .. } => "accepted",
        LogMessage::Nack { .. } => "nack",
        LogMessage::Heartbeat { .. } => "heartbeat",
        LogMessage::HeartbeatAck { .. } => "heartbeat-ack",
        LogMessage::Chosen { .. } => "chosen",
        LogMessage::SlotChosen { .. } => "slot-chosen",
        LogMessage::TrimPoint { .. } => "trim-point",
        LogMessage::Handoff { .. } => "handoff",
        LogMessage::ReadIndex { .. } => "read-index",
        LogMessage::ReadIndexReply { .. } => "read-index-reply",
        LogMessage::Write { .. } => "write",
        LogMessage::Read { .. } => "read",
        LogMessage::Reply { .. } => "reply",
    }
}

/// The ballot a message carries, if any: reads, client messages and catch-up carry none.
pub fn message_ballot(message: &LogMessage) -> Option<Ballot> {
    match message {
        LogMessage::Prepare { ballot, .. }
        | LogMessage::Promise { ballot, .. }
        | LogMessage::Accept { ballot, .. }
        | LogMessage::Accepted { ballot, .. }
        | LogMessage::Nack { ballot, .. }
        | LogMessage::Heartbeat { ballot, .. }
        | LogMessage::HeartbeatAck { ballot, .. }
        | LogMessage::SlotChosen { ballot, .. }
        | LogMessage::TrimPoint { ballot, .. }
        | LogMessage::Handoff { ballot, .. } => Some(*ballot),
        #[cfg(feature = "accept-batch")]
        LogMessage::AcceptRun { ballot, .. } | LogMessage::AcceptedRun { ballot, .. } => {
            Some(*ballot)
        }
        _ => None,
    }
}

/// The slot a Phase-2 message is about (a run's first), if it is one.
pub fn message_slot(message: &LogMessage) -> Option<Slot> {
    match message {
        LogMessage::Accept { slot, .. }
        | LogMessage::Accepted { slot, .. }
        | LogMessage::SlotChosen { slot, .. } => Some(*slot),
        #[cfg(feature = "accept-batch")]
        LogMessage::AcceptRun { first, .. } | LogMessage::AcceptedRun { first, .. } => Some(*first),
        _ => None,
    }
}

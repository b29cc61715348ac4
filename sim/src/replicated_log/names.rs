//! Names as players read them: nodes and clients (N1, C1), messages, entries and votes, and the
//! world's actions, described and parsed. The checkers and the game use the same names, so a
//! violation reads like the stage.

use super::action::DiskRecord;
use super::config::id;
use super::{LogAction, LogWorld, SlotVotes};
use crate::network::{MessageAction, Names};
use paros_core::log::LogEnvelope;
use paros_core::log::{Entry, LogMessage, Outcome, Slot};
use paros_core::{Ballot, NodeId, Value};
use std::sync::Arc;

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

    /// A ballot as players read it, e.g. `2.N2`.
    pub fn ballot_name(&self, ballot: Ballot) -> String {
        format!("{}.{}", ballot.round, self.name(ballot.node))
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

impl LogWorld {
    /// An action with what it touches: `deliver m4 N1->N2 Accept(1.N1, slot 1, ...)`.
    pub fn describe(&self, action: &LogAction) -> String {
        match action {
            LogAction::Deliver(message)
            | LogAction::Drop(message)
            | LogAction::Duplicate(message) => {
                let (verb, _) = action.message().expect("an action on a message");
                self.network.describe(verb, *message, self)
            }
            LogAction::Heal | LogAction::StopFaults => action.verb().to_string(),
            LogAction::Request { client, node } => {
                let what = self
                    .client_next_operation(*client)
                    .map(|op| op.to_string())
                    .unwrap_or_default();
                format!("request {} {} {what}", self.name(*client), self.name(*node))
            }
            LogAction::Tick(node)
            | LogAction::Crash(node)
            | LogAction::TornCrash(node)
            | LogAction::Restart(node)
            | LogAction::Persist(node)
            | LogAction::Send(node)
            | LogAction::WipeDisk(node)
            | LogAction::Partition(node) => format!("{} {}", action.verb(), self.name(*node)),
            LogAction::CorruptRecord { node, record } => {
                format!("corrupt {} {record}", self.name(*node))
            }
            LogAction::TornCrashAt { node, kept } => {
                format!("torn-crash {} at byte {kept}", self.name(*node))
            }
            LogAction::FlipBit { node, frame, bit } => {
                format!("flip {} frame {frame} bit {bit}", self.name(*node))
            }
            LogAction::Trim(node) => {
                let through = self.trim_through(*node);
                format!("trim {} through slot {through}", self.name(*node))
            }
            LogAction::HandOff { from, to } => {
                format!("hand off {}->{}", self.name(*from), self.name(*to))
            }
        }
    }

    /// Parses an action as [`LogWorld::describe`] or [`LogAction`]'s `Display` print it; nodes
    /// and clients may be named (`tick N2`, `request C1 N1`) or numbered (`tick n2`), and
    /// messages named by id (`deliver m7`) or by route (`deliver N1->N2 Accept`, see
    /// [`Network::parse`](crate::network::Network::parse)). Words after the action's own are
    /// ignored, so a described action parses back.
    pub fn parse_action(&self, text: &str) -> Result<LogAction, String> {
        if let Some(parsed) = self.network.parse(text, self) {
            return parsed;
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        let node = |word: Option<&&str>| -> Result<NodeId, String> {
            let word = word.ok_or_else(|| format!("{text:?} names no node"))?;
            let count =
                usize::from(self.config.node_count) + self.clients.len() + self.proxies().len();
            (1..=count)
                .map(id)
                .find(|node| self.name(*node) == *word || node.to_string() == *word)
                .ok_or_else(|| format!("no node or client {word:?}"))
        };
        match words.first().copied() {
            Some("tick") => node(words.get(1)).map(LogAction::Tick),
            Some("crash") => node(words.get(1)).map(LogAction::Crash),
            Some("torn-crash") => match words.get(2..4) {
                Some(["at", "byte"]) => Ok(LogAction::TornCrashAt {
                    node: node(words.get(1))?,
                    kept: number(text, words.get(4))?,
                }),
                _ => node(words.get(1)).map(LogAction::TornCrash),
            },
            Some("flip") => Ok(LogAction::FlipBit {
                node: node(words.get(1))?,
                frame: number(text, words.get(3))?,
                bit: number(text, words.get(5))?,
            }),
            Some("restart") => node(words.get(1)).map(LogAction::Restart),
            Some("persist") => node(words.get(1)).map(LogAction::Persist),
            Some("send") => node(words.get(1)).map(LogAction::Send),
            Some("partition") => node(words.get(1)).map(LogAction::Partition),
            Some("trim") => node(words.get(1)).map(LogAction::Trim),
            Some("wipe") => node(words.get(1)).map(LogAction::WipeDisk),
            Some("corrupt") => Ok(LogAction::CorruptRecord {
                node: node(words.get(1))?,
                record: parse_record(text, &words[2.min(words.len())..])?,
            }),
            Some("hand") if words.get(1) == Some(&"off") => {
                let route = words
                    .get(2)
                    .ok_or_else(|| format!("{text:?} names no route"))?;
                let (from, to) = (route.split_once("->"))
                    .ok_or_else(|| format!("{text:?}: a handoff is written N1->N2"))?;
                Ok(LogAction::HandOff {
                    from: node(Some(&from))?,
                    to: node(Some(&to))?,
                })
            }
            Some("heal") => Ok(LogAction::Heal),
            Some("stop-faults") => Ok(LogAction::StopFaults),
            Some("request") => Ok(LogAction::Request {
                client: node(words.get(1))?,
                node: node(words.get(2))?,
            }),
            _ => Err(format!("unknown action {text:?}")),
        }
    }
}

/// A frame, bit or byte number of a storage fault, as `flip N2 frame 2 bit 140` writes it.
fn number(text: &str, word: Option<&&str>) -> Result<u16, String> {
    word.and_then(|word| word.parse().ok())
        .ok_or_else(|| format!("{text:?}: a frame, bit or byte is a number"))
}

/// A record as [`DiskRecord`]'s `Display` prints it: `promise`, or `vote 3`.
fn parse_record(text: &str, words: &[&str]) -> Result<DiskRecord, String> {
    match words {
        ["promise", ..] => Ok(DiskRecord::Promise),
        ["vote", slot, ..] => slot
            .parse()
            .map(|slot| DiskRecord::Vote(Slot(slot)))
            .map_err(|_| format!("{text:?}: a slot is a number")),
        _ => Err(format!("{text:?}: corrupt a `promise` or a `vote SLOT`")),
    }
}

impl Names<Arc<LogEnvelope>> for LogWorld {
    fn node_name(&self, node: NodeId) -> String {
        self.name(node)
    }

    fn message_name(&self, envelope: &Arc<LogEnvelope>) -> String {
        LogWorld::message_name(self, &envelope.message)
    }

    fn message_kind(&self, envelope: &Arc<LogEnvelope>) -> &'static str {
        envelope.message.kind()
    }
}

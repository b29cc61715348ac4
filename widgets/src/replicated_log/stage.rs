//! How Act II's world is drawn: each node with its log as a column of slot boxes, its election
//! arc and its disk; the messages on the wires; the clients; the buttons for ticks, crashes,
//! restarts, the steps of a `Ready`, partitions, client requests and handoffs.

use super::history;
use super::{LogMove, ballot_name};
use crate::automation::Automation;
use crate::board::{ByHand, message_verbs};
use crate::scene::{
    ActionJson, BudgetView, CallView, ClientView, ClusterView, ConditionView, ControlView,
    DecidedView, DiskFaultView, DiskView, HeldView, KeyValueView, MessageView, NodeView, ProxyView,
    ReadView, RecordSlotView, SessionView, SlotView, TimelineView, TrimPointView,
};
use paros_core::log::{
    BootRefused, ColocatedNode, DurableRecord, KvStore, LogMessage, LogRole, Provisioning, Slot,
    TrimPoint, Write,
};
use paros_core::{NodeId, NodeSet};
use paros_sim::Fault;
use paros_sim::linearizability::{Condition, Verdict};
use paros_sim::replicated_log::{
    ClientCall, ClientOp, DiskRecord, LogAction, LogWorld, Server, message_ballot, message_kind,
    message_slot,
};

/// A durable write as players read it: `Accept(slot 1, x=1 (C1#1) at 1.N1)`.
pub fn write_name(world: &LogWorld, write: &Write) -> String {
    match write {
        Write::Identity(node) => format!("Identity({})", world.name(*node)),
        Write::Promise(ballot) => format!("Promise({})", ballot_name(world, *ballot)),
        Write::Accept(slot, vote) => format!(
            "Accept(slot {slot}, {} at {})",
            world.entry_name(&vote.entry),
            ballot_name(world, vote.ballot)
        ),
        Write::ChosenThrough(slot) => format!("ChosenThrough({slot})"),
        Write::Stood(ballot) => format!("Stood({})", ballot_name(world, *ballot)),
        Write::Incarnation(life) => format!("Incarnation({life})"),
        Write::TrimPoint(point) => format!("TrimPoint(through slot {})", point.through),
        Write::Truncate(slot) => format!("Truncate(through slot {slot})"),
        Write::HandedOff(ballot) => format!("HandedOff({})", ballot_name(world, *ballot)),
        Write::TookHandoff(ballot) => format!("TookHandoff({})", ballot_name(world, *ballot)),
    }
}

/// The record a server's disk holds now, and whether its last frame is torn.
pub fn durable_record(server: &Server) -> (DurableRecord, bool) {
    match DurableRecord::recover(&server.disk) {
        Ok((record, torn)) => (record, torn > 0),
        Err(_) => (DurableRecord::default(), true),
    }
}

fn names(world: &LogWorld, set: NodeSet) -> Vec<String> {
    set.iter().map(|node| world.name(node)).collect()
}

/// A box for a slot at or below a floor: decided, compacted, no entry kept.
fn trimmed_box(number: u64) -> SlotView {
    SlotView {
        slot: u32::try_from(number).unwrap_or(u32::MAX),
        state: "trimmed",
        ballot: None,
        value: None,
        applied: Some(true),
    }
}

/// One box per slot from 1 to the highest slot the node votes for, knows chosen or has
/// compacted; the slots at or below its floor are drawn as trimmed.
fn slot_boxes(world: &LogWorld, node: &ColocatedNode) -> Vec<SlotView> {
    let floor = node.floor();
    let highest_vote = node
        .accepts()
        .keys()
        .next_back()
        .copied()
        .unwrap_or_default();
    let highest_chosen = node
        .chosen()
        .keys()
        .next_back()
        .copied()
        .unwrap_or_default();
    let last = highest_vote.max(highest_chosen).max(floor).0;
    (1..=last)
        .map(|number| {
            let slot = Slot(number);
            if slot <= floor {
                return trimmed_box(number);
            }
            let vote = node
                .chosen()
                .get(&slot)
                .or_else(|| node.accepts().get(&slot));
            let state = if node.chosen().contains_key(&slot) {
                "chosen"
            } else if slot < highest_chosen {
                "hole"
            } else if vote.is_some() {
                "undecided"
            } else {
                "empty"
            };
            SlotView {
                slot: u32::try_from(number).unwrap_or(u32::MAX),
                state,
                ballot: vote.map(|vote| ballot_name(world, vote.ballot)),
                value: vote.map(|vote| world.entry_name(&vote.entry)),
                applied: Some(slot <= node.applied_index()),
            }
        })
        .collect()
}

/// The boxes of a crashed node: its durable record, chosen through `chosen_through`.
fn record_boxes(world: &LogWorld, record: &DurableRecord) -> Vec<SlotView> {
    let floor = record.floor();
    let last = record
        .accepts
        .keys()
        .next_back()
        .copied()
        .unwrap_or_default()
        .max(floor)
        .0;
    (1..=last)
        .map(|number| {
            let slot = Slot(number);
            if slot <= floor {
                return trimmed_box(number);
            }
            let vote = record.accepts.get(&slot);
            let state = match vote {
                _ if slot <= record.chosen_through => "chosen",
                Some(_) => "undecided",
                None => "empty",
            };
            SlotView {
                slot: u32::try_from(number).unwrap_or(u32::MAX),
                state,
                ballot: vote.map(|vote| ballot_name(world, vote.ballot)),
                value: vote.map(|vote| world.entry_name(&vote.entry)),
                applied: Some(false),
            }
        })
        .collect()
}

/// A store's keys and values as the stage lists them.
pub fn store_view(store: &KvStore) -> Vec<KeyValueView> {
    store
        .iter()
        .map(|(key, value)| KeyValueView {
            key: key.to_string(),
            value: value.to_string(),
        })
        .collect()
}

fn trim_point_view(world: &LogWorld, point: &TrimPoint) -> TrimPointView {
    TrimPointView {
        through: point.through.0,
        store: store_view(&point.store),
        sessions: point
            .store
            .sessions()
            .map(|(client, seq)| SessionView {
                client: world.name(client),
                seq,
            })
            .collect(),
    }
}

fn disk_view(world: &LogWorld, node: NodeId, server: &Server) -> DiskView {
    let (record, torn) = durable_record(server);
    DiskView {
        promised: record.promised.map(|ballot| ballot_name(world, ballot)),
        accepts: record
            .accepts
            .iter()
            .map(|(slot, vote)| RecordSlotView {
                slot: slot.0,
                ballot: ballot_name(world, vote.ballot),
                entry: world.entry_name(&vote.entry),
            })
            .collect(),
        chosen_through: record.chosen_through.0,
        frames: server.disk.len(),
        torn,
        held: server.held.as_ref().map(|held| HeldView {
            writes: held
                .writes()
                .iter()
                .map(|write| write_name(world, write))
                .collect(),
            messages: held
                .messages()
                .iter()
                .map(|envelope| {
                    format!(
                        "{}->{} {}",
                        world.name(envelope.from),
                        world.name(envelope.to),
                        world.message_name(&envelope.message)
                    )
                })
                .collect(),
            persisted: held.persisted(),
            sent: held.sent(),
        }),
        trim_point: record
            .trim_point
            .as_ref()
            .map(|point| trim_point_view(world, point)),
        handed_off: record.handed_off.map(|ballot| ballot_name(world, ballot)),
        took_handoff: record.took_handoff.map(|ballot| ballot_name(world, ballot)),
        fault: disk_fault(world, node, server, &record),
    }
}

/// What a storage fault did to `node`'s disk, judged by the library: the reason
/// `ColocatedNode::boot` refuses it, or the slots whose vote its record no longer knows (C2).
pub fn disk_fault(
    world: &LogWorld,
    node: NodeId,
    server: &Server,
    record: &DurableRecord,
) -> Option<DiskFaultView> {
    if server.boot_refused {
        let config = world.config().core_config();
        let refused =
            ColocatedNode::boot(node, config, Provisioning::Provisioned, &server.disk).err()?;
        let (mark, what) = match refused {
            BootRefused::Missing => ("disk wiped", "wiped"),
            _ => ("record unreadable", "unreadable"),
        };
        return Some(DiskFaultView {
            mark: mark.into(),
            words: format!("{what}, and the library refuses its boot: \"{refused}\""),
        });
    }
    let unknown = match server.host.node() {
        Some(running) => running.unknown_votes(),
        None => &record.unknown_votes,
    };
    let slots: Vec<String> = unknown.iter().map(|slot| slot.0.to_string()).collect();
    (!slots.is_empty()).then(|| DiskFaultView {
        mark: format!("vote unknown: slot {}", slots.join(", ")),
        words: format!(
            "vote unknown in slot {}: its record of that vote fails its checksum",
            slots.join(", ")
        ),
    })
}

/// The nodes N1.. with their log, election arc, disk and reads.
pub fn nodes(world: &LogWorld, by_hand: &ByHand) -> Vec<NodeView> {
    let timeout = world.config().election_timeout_ticks;
    let hand = by_hand.has(Automation::ApplyWalk) || by_hand.has(Automation::P2c);
    world
        .servers()
        .iter()
        .enumerate()
        .map(|(index, server)| {
            let name = world.name(world.config().node_id(index));
            let disk = Some(disk_view(world, world.config().node_id(index), server));
            let Some(node) = server.host.node() else {
                let (record, _) = durable_record(server);
                return NodeView {
                    name,
                    role: "crashed",
                    silent: world.isolated().contains(world.config().node_id(index)),
                    by_hand: false,
                    promised: Some(record.promised.map(|ballot| ballot_name(world, ballot))),
                    slots: record_boxes(world, &record),
                    up: Some(false),
                    floor: Some(record.floor().0),
                    timeout_ticks: Some(timeout),
                    disk,
                    ..NodeView::default()
                };
            };
            NodeView {
                name,
                role: match node.role() {
                    LogRole::Follower => "follower",
                    LogRole::Candidate => "candidate",
                    LogRole::Leader => "leader",
                },
                silent: world.isolated().contains(node.id()),
                by_hand: hand,
                promised: Some(node.promised().map(|ballot| ballot_name(world, ballot))),
                ballot: Some(node.ballot().map(|ballot| ballot_name(world, ballot))),
                slots: slot_boxes(world, node),
                up: Some(true),
                leader: Some(node.leader_hint().map(|leader| world.name(leader))),
                ticks: Some(node.ticks_since_heard()),
                timeout_ticks: Some(timeout),
                chosen_index: Some(node.chosen_index().0),
                applied_index: Some(node.applied_index().0),
                floor: Some(node.floor().0),
                chosen_gap: Some(node.chosen_gap().map(|slot| slot.0)),
                promised_by: node
                    .election()
                    .map(|election| names(world, election.promised_by)),
                accepted_by: (node.role() == LogRole::Leader).then(|| {
                    let voters = node
                        .proposals()
                        .values()
                        .fold(NodeSet::EMPTY, |all, proposal| {
                            all.union(proposal.accepted_by)
                        });
                    names(world, voters)
                }),
                store: Some(store_view(node.store())),
                reads: Some(
                    node.pending_reads()
                        .iter()
                        .map(|read| ReadView {
                            client: world.name(read.client),
                            key: read.key.to_string(),
                            answered_by: names(world, read.answered_by),
                            watermark: read.watermark.0,
                        })
                        .collect(),
                ),
                disk,
                ..NodeView::default()
            }
        })
        .collect()
}

fn ballot_of(world: &LogWorld, message: &LogMessage) -> String {
    message_ballot(message).map_or_else(String::new, |ballot| ballot_name(world, ballot))
}

/// The messages in flight, each with the actions `moves` allows on it.
pub fn messages(world: &LogWorld, moves: &[LogMove]) -> Vec<MessageView> {
    world
        .in_flight()
        .iter()
        .map(|message| {
            let envelope = &message.envelope;
            let actions = message_verbs::<LogWorld>(moves, message.id);
            let cut = world.network().is_cut_off(message.id);
            let harmless = if actions.contains(&"deliver") {
                harmless(world, envelope)
            } else {
                None
            };
            MessageView {
                id: message.id.0,
                from: world.name(envelope.from),
                to: world.name(envelope.to),
                kind: message_kind(&envelope.message),
                text: world.message_name(&envelope.message),
                ballot: ballot_of(world, &envelope.message),
                slot: message_slot(&envelope.message).map(|slot| slot.0),
                cut,
                harmless,
                actions,
            }
        })
        .collect()
}

/// Whether delivering `envelope` now would change nothing at its receiver, worked out by the
/// real node on a copy, as Act I's stage says it: ignored (and why), or answered with Nacks
/// only and nothing written. A proxy or a client receiver is not judged.
fn harmless(world: &LogWorld, envelope: &paros_core::log::LogEnvelope) -> Option<String> {
    let node = (world.servers().iter())
        .filter_map(|server| server.host.node())
        .find(|node| node.id() == envelope.to)?;
    let receiver = world.name(envelope.to);
    let mut copy = node.clone();
    if let Err(reason) = copy.handle(envelope) {
        return Some(format!(
            "harmless now: {receiver} would ignore it ({reason})"
        ));
    }
    let ready = copy.take_ready();
    let sent = ready.pending_messages();
    let only_nacks = ready.writes().is_empty()
        && !sent.is_empty()
        && (sent.iter()).all(|sent| matches!(sent.message, LogMessage::Nack { .. }));
    only_nacks.then(|| {
        format!(
            "harmless now: {receiver} has promised a higher ballot and would answer with a Nack"
        )
    })
}

/// The buttons for every move that is not about one message.
pub fn controls(world: &LogWorld, moves: &[LogMove]) -> Vec<ControlView> {
    moves
        .iter()
        .filter_map(|action| {
            let named = |node| world.name(node);
            let (json, label) = match *action {
                LogMove::Beat(node) => (
                    ActionJson::Beat { node: named(node) },
                    format!("Beat {}: tick and deliver its heartbeats", named(node)),
                ),
                LogMove::World(action) => match action {
                    LogAction::Tick(node) => (
                        ActionJson::Tick { node: named(node) },
                        format!("Tick {}", named(node)),
                    ),
                    LogAction::Crash(node) => (
                        ActionJson::Crash { node: named(node) },
                        format!("Crash {}", named(node)),
                    ),
                    LogAction::TornCrash(node) => (
                        ActionJson::TornCrash { node: named(node) },
                        format!("Crash {} mid-write", named(node)),
                    ),
                    LogAction::Restart(node) => (
                        ActionJson::Restart { node: named(node) },
                        format!("Restart {}", named(node)),
                    ),
                    LogAction::Persist(node) => (
                        ActionJson::Persist { node: named(node) },
                        format!("Persist {}'s writes", named(node)),
                    ),
                    LogAction::Send(node) => (
                        ActionJson::Send { node: named(node) },
                        format!("Send {}'s messages", named(node)),
                    ),
                    LogAction::Partition(node) => (
                        ActionJson::Partition { node: named(node) },
                        format!("Cut {} off", named(node)),
                    ),
                    LogAction::Heal => (ActionJson::Heal, "Heal the partition".to_string()),
                    LogAction::Trim(node) => (
                        ActionJson::Trim { node: named(node) },
                        world.describe(&action).replacen("trim ", "Trim: ask ", 1),
                    ),
                    LogAction::Request { client, node } => (
                        ActionJson::Request {
                            client: named(client),
                            node: named(node),
                        },
                        world.describe(&action).replacen("request ", "Request: ", 1),
                    ),
                    LogAction::HandOff { from, to } => (
                        ActionJson::HandOff {
                            node: named(from),
                            to: named(to),
                        },
                        format!("Hand off: {} → {}", named(from), named(to)),
                    ),
                    LogAction::WipeDisk(node) => (
                        ActionJson::Wipe { node: named(node) },
                        format!("Wipe {}'s disk", named(node)),
                    ),
                    LogAction::CorruptRecord { node, record } => (
                        ActionJson::Corrupt {
                            node: named(node),
                            record: record.to_string(),
                        },
                        match record {
                            DiskRecord::Promise => format!("Corrupt {}'s promise", named(node)),
                            DiskRecord::Vote(slot) => {
                                format!("Corrupt {}'s vote in slot {slot}", named(node))
                            }
                        },
                    ),
                    LogAction::Deliver(_)
                    | LogAction::Drop(_)
                    | LogAction::Duplicate(_)
                    | LogAction::TornCrashAt { .. }
                    | LogAction::FlipBit { .. }
                    | LogAction::StopFaults => {
                        return None;
                    }
                },
            };
            Some(ControlView {
                action: json,
                label,
                help: None,
            })
        })
        .collect()
}

/// A call as the timeline's order reads it: `write x=1`, `read x → 1`.
fn call_text(call: &ClientCall) -> String {
    match (&call.op, call.ret) {
        (ClientOp::Read { .. }, Some(_)) => {
            let read = call.read.as_ref().map_or("nothing", |value| value.as_str());
            format!("{} → {read}", call.op)
        }
        _ => call.op.to_string(),
    }
}

fn call_view(call: &ClientCall) -> CallView {
    CallView {
        op: call.op.to_string(),
        call: call.call,
        ret: call.ret,
        read: call.read.as_ref().map(|value| value.to_string()),
    }
}

/// The chosen log, judged from the votes: for each slot, the first (ballot, entry) whose voters
/// form a Phase-2 quorum, with every node that voted for it. Not what nodes have learned, which
/// lags: a value is chosen the moment a quorum votes for it, before anyone hears so.
fn chosen_log(world: &LogWorld) -> Vec<DecidedView> {
    let mut log: Vec<DecidedView> = Vec::new();
    for votes in world.chosen_by_votes() {
        // In slot and ballot order: a later ballot chosen in the same slot holds the same
        // entry (agreement), so the first stands for the slot.
        if log.last().is_some_and(|last| last.slot == votes.slot.0) {
            continue;
        }
        log.push(DecidedView {
            slot: votes.slot.0,
            entry: world.entry_name(&votes.entry),
            ballot: ballot_name(world, votes.ballot),
            by: names(world, votes.voters),
        });
    }
    log
}

/// The chosen log, the clients, budgets and partitions.
pub fn cluster(world: &LogWorld) -> ClusterView {
    let config = world.config();
    let clients = world
        .clients()
        .iter()
        .enumerate()
        .map(|(index, state)| {
            let client = config.client_id(index);
            let program = &config.clients[index];
            let outstanding = state.outstanding.map(|at| &world.history()[at]);
            let next = match outstanding {
                Some(call) => Some(call.op.to_string()),
                None => program.get(state.next_op).map(ToString::to_string),
            };
            ClientView {
                name: world.name(client),
                program: program.iter().map(ToString::to_string).collect(),
                next,
                outstanding: outstanding.map(call_view),
                history: world
                    .history()
                    .iter()
                    .filter(|call| call.client == client)
                    .map(call_view)
                    .collect(),
            }
        })
        .collect();
    let budget = world.budget_left();
    ClusterView {
        decided: chosen_log(world),
        clients,
        partitioned: names(world, world.isolated()),
        budget: BudgetView {
            drops: budget.left(Fault::Drop),
            duplicates: budget.left(Fault::Duplicate),
            crashes: budget.left(Fault::Crash),
            torn_writes: budget.left(Fault::TornWrite),
            partitions: budget.left(Fault::Partition),
            ticks: budget.left(Fault::Tick),
            client_resends: budget.left(Fault::ClientResend),
        },
        stepwise: config.stepwise_ready,
        violations: world
            .violations()
            .iter()
            .map(|violation| format!("{}: {}", violation.property, violation.detail))
            .collect(),
        timeline: (config.clients.len() > 1).then(|| timeline(world)),
        grid: super::grid::grid_view(world),
        proxies: proxies(world),
    }
}

/// The proxy leaders, each with what it counts by (slot, ballot).
fn proxies(world: &LogWorld) -> Vec<ProxyView> {
    let counts = super::proxy_counts(world);
    (counts.into_iter().enumerate())
        .map(|(index, counted)| ProxyView {
            name: world.name(world.config().proxy_id(index)),
            up: counted.is_some(),
            counting: (counted.unwrap_or_default().into_iter())
                .map(|(slot, ballot, voters)| {
                    let voters = names(world, voters);
                    let voters = match voters.is_empty() {
                        true => "none yet".to_string(),
                        false => voters.join(", "),
                    };
                    format!("slot {slot} at {}: {voters}", ballot_name(world, ballot))
                })
                .collect(),
        })
        .collect()
}

/// The clients' history as the linearizability checker judges it.
fn timeline(world: &LogWorld) -> TimelineView {
    let verdict = history::verdict(world);
    let order = match &verdict {
        Some(Verdict::Linearizable { order }) => order
            .iter()
            .map(|&index| {
                let call = &world.history()[index];
                format!("{} {}", world.name(call.client), call_text(call))
            })
            .collect(),
        _ => Vec::new(),
    };
    let conditions = Condition::ALL
        .iter()
        .map(|&condition| ConditionView {
            name: condition.name(),
            state: match &verdict {
                Some(Verdict::Linearizable { .. }) => "kept",
                Some(Verdict::NotLinearizable {
                    condition: broken, ..
                }) if *broken == condition => "broken",
                _ => "unjudged",
            },
        })
        .collect();
    TimelineView {
        now: history::now(world),
        verdict: verdict.map_or_else(
            || "not a well-formed history".to_string(),
            |verdict| history::client_names(world, &verdict.to_string()),
        ),
        order,
        conditions,
    }
}

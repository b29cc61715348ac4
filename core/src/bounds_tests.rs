//! Boundary inputs: every message kind of every role, with its numbers at 0 and 1, at the
//! receiver's own state, at the edges of its slot window, at `u64::MAX - 1` and `u64::MAX`
//! (rounds at `u32::MAX - 1` and `u32::MAX`), and with counts far beyond the cluster. No input
//! panics, and the work one input causes (the writes, messages and applied entries of its
//! `Ready`, and the steps of every loop over slots, counted by the `SlotMap` work meter) is
//! bounded by the node's slot window and what the input and the node hold, never by the
//! input's numbers.
//!
//! The meter also keeps this test from hanging: a loop over slot numbers that would not end, or
//! a map that would span more memory than there is, passes its limit and panics, and the panic
//! names the input.

use crate::log::meter;
use crate::log::{
    ColocatedNode, Command, Entry, KvStore, LogConfig, LogEnvelope, LogMessage, ProxyLeader,
    ReadId, Slot, SlotVote, TrimPoint,
};
use crate::matchmaker::{
    Configuration, History, Leader, Matchmaker, MmEnvelope, MmMessage, Reconfigurer,
    RetiringAcceptor,
};
use crate::{Ballot, Message, NodeId, NodeSet, Quorums, Value, Vote};
use proptest::prelude::*;

/// The slot window of the nodes under test: small, so that a test can name slots on both sides
/// of it.
const WINDOW: u64 = 64;

/// How many steps, writes or messages one input may cost per unit of the bound.
const FACTOR: u64 = 16;

/// A message far longer than the cluster is large: more votes, entries or rounds than nodes.
const MANY: usize = 70;

fn node(id: u8) -> NodeId {
    NodeId::new(id).unwrap()
}

fn cluster() -> NodeSet {
    [1, 2, 3].map(node).into_iter().collect()
}

const SUBJECT: u8 = 1;
const CLIENT: u8 = 9;
const PROXY: u8 = 7;

/// The work one input may cost: the node's window, plus what the input carries and what the
/// node already holds (a Promise reports every vote held; a Chosen batch applies each entry),
/// each times a constant.
fn budget(input_size: u64, held: u64) -> u64 {
    FACTOR * (WINDOW + input_size + held + 8)
}

/// A slot number from a choice: the boundaries and the receiver's own state.
fn slot_number(choice: u8, base: u64) -> u64 {
    match choice % 12 {
        0 => 0,
        1 => 1,
        2 => base,
        3 => base.saturating_add(1),
        4 => base.saturating_add(WINDOW - 1),
        5 => base.saturating_add(WINDOW),
        6 => base.saturating_add(WINDOW + 1),
        7 => base.saturating_add(4 * WINDOW),
        8 => u64::MAX / 2,
        9 => u64::MAX - 1 - WINDOW,
        10 => u64::MAX - 1,
        _ => u64::MAX,
    }
}

/// A round from a choice: the boundaries and the receiver's own round.
fn round_number(choice: u8, current: u32) -> u32 {
    match choice % 6 {
        0 => 0,
        1 => 1,
        2 => current,
        3 => current.saturating_add(1),
        4 => u32::MAX - 1,
        _ => u32::MAX,
    }
}

/// How many items a list carries: none, a few, or far more than the cluster has nodes.
fn count(choice: u8) -> usize {
    [0, 1, 2, 3, MANY][usize::from(choice % 5)]
}

/// The numbers one message is built from, each a choice among the boundaries.
#[derive(Clone, Copy, Debug)]
struct Fields {
    kind: u8,
    from: u8,
    round: u8,
    owner: u8,
    slot: u8,
    other: u8,
    count: u8,
    spread: bool,
}

fn fields() -> impl Strategy<Value = Fields> {
    (
        any::<u8>(),
        1u8..=3,
        any::<u8>(),
        1u8..=3,
        any::<u8>(),
        any::<u8>(),
        any::<u8>(),
        any::<bool>(),
    )
        .prop_map(
            |(kind, from, round, owner, slot, other, count, spread)| Fields {
                kind,
                from,
                round,
                owner,
                slot,
                other,
                count,
                spread,
            },
        )
}

/// What the receiver holds, the numbers a message is drawn around.
struct Around {
    base: u64,
    round: u32,
}

impl Fields {
    fn ballot(&self, around: &Around) -> Ballot {
        Ballot::new(round_number(self.round, around.round), node(self.owner))
    }

    fn slot(&self, around: &Around) -> Slot {
        Slot(slot_number(self.slot, around.base))
    }

    fn other_slot(&self, around: &Around) -> Slot {
        Slot(slot_number(self.other, around.base))
    }

    /// The slots of a list: consecutive from the first, or each a boundary of its own.
    fn slots(&self, around: &Around) -> Vec<Slot> {
        let first = slot_number(self.slot, around.base);
        (0..count(self.count))
            .map(|i| {
                if self.spread {
                    Slot(slot_number(self.slot.wrapping_add(i as u8), around.base))
                } else {
                    Slot(first.saturating_add(i as u64))
                }
            })
            .collect()
    }

    fn entry(&self, around: &Around) -> Entry {
        match self.other % 3 {
            0 => Entry::Noop,
            1 => Entry::Trim(self.other_slot(around)),
            _ => Entry::from(Command {
                client: node(CLIENT),
                seq: slot_number(self.other, around.base),
                key: Value::new("x"),
                value: Value::new("v"),
            }),
        }
    }

    fn vote(&self, around: &Around) -> SlotVote {
        SlotVote {
            ballot: self.ballot(around),
            entry: self.entry(around),
        }
    }

    /// One message of every kind a log node or a proxy handles.
    fn log_message(&self, around: &Around) -> LogMessage {
        let ballot = self.ballot(around);
        let slot = self.slot(around);
        let other = self.other_slot(around);
        let kinds = if cfg!(feature = "accept-batch") {
            18
        } else {
            16
        };
        match self.kind % kinds {
            0 => LogMessage::Prepare {
                ballot,
                from_slot: slot,
            },
            1 => LogMessage::Promise {
                ballot,
                from_slot: other,
                floor: other,
                votes: (self.slots(around).into_iter())
                    .map(|slot| (slot, self.vote(around)))
                    .collect(),
                unknown: self.slots(around),
            },
            2 => LogMessage::Accept {
                ballot,
                slot,
                entry: self.entry(around),
                commit: other,
            },
            3 => LogMessage::Accepted { ballot, slot },
            4 => LogMessage::Nack {
                ballot,
                promised: Ballot::new(round_number(self.other, around.round), node(self.owner)),
            },
            5 => LogMessage::Heartbeat {
                ballot,
                commit: other,
            },
            6 => LogMessage::HeartbeatAck {
                ballot,
                chosen_index: other,
                highest_accepted: slot,
            },
            7 => LogMessage::Chosen {
                entries: (self.slots(around).into_iter())
                    .map(|slot| (slot, self.vote(around)))
                    .collect(),
            },
            8 => LogMessage::SlotChosen {
                ballot,
                slot,
                entry: self.entry(around),
            },
            9 => LogMessage::TrimPoint {
                ballot,
                point: TrimPoint {
                    cluster: cluster(),
                    through: slot,
                    store: KvStore::default(),
                },
            },
            10 => LogMessage::Handoff {
                ballot,
                next_slot: other,
                in_flight: (self.slots(around).into_iter())
                    .map(|slot| (slot, self.entry(around)))
                    .collect(),
                read_watermark: slot,
            },
            11 => LogMessage::ReadIndex {
                read: ReadId {
                    incarnation: slot.0,
                    number: other.0,
                },
            },
            12 => LogMessage::ReadIndexReply {
                read: ReadId {
                    incarnation: 0,
                    number: other.0,
                },
                highest_accepted: slot,
            },
            13 => LogMessage::Write {
                seq: slot.0,
                key: Value::new("x"),
                value: Value::new("v"),
            },
            14 => LogMessage::Read {
                seq: slot.0,
                key: Value::new("x"),
            },
            15 => LogMessage::Reply {
                seq: slot.0,
                outcome: crate::log::Outcome::Written,
            },
            #[cfg(feature = "accept-batch")]
            16 => LogMessage::AcceptRun {
                ballot,
                first: slot,
                entries: vec![self.entry(around); count(self.count)],
                commit: other,
            },
            #[cfg(feature = "accept-batch")]
            _ => LogMessage::AcceptedRun {
                ballot,
                first: slot,
                through: other,
            },
            #[cfg(not(feature = "accept-batch"))]
            _ => unreachable!("a kind out of range"),
        }
    }
}

/// How many items a message carries, and 1 for the message itself.
fn log_size(message: &LogMessage) -> u64 {
    let items = match message {
        LogMessage::Promise { votes, unknown, .. } => votes.len() + unknown.len(),
        LogMessage::Chosen { entries } => entries.len(),
        LogMessage::Handoff { in_flight, .. } => in_flight.len(),
        #[cfg(feature = "accept-batch")]
        LogMessage::AcceptRun { entries, .. } => entries.len(),
        _ => 0,
    };
    items as u64 + 1
}

/// What a node holds: its votes, what it knows chosen, its proposals and its reads.
fn held(node: &ColocatedNode) -> u64 {
    let reported = node
        .election()
        .map_or(0, |election| election.reported.len());
    (node.accepts().len()
        + node.unknown_votes().len()
        + node.chosen().len()
        + node.proposals().len()
        + node.pending_reads().len()
        + reported) as u64
}

fn config(batch: bool) -> LogConfig {
    let window = std::num::NonZeroU64::new(WINDOW).unwrap();
    let config = LogConfig::new(cluster())
        .with_slot_window(window)
        .expect("the window holds a run");
    #[cfg(feature = "accept-batch")]
    if batch {
        return config.with_accept_batch(4).unwrap();
    }
    let _ = batch; // only a build with `accept-batch` batches
    config
}

fn to_subject(from: u8, message: LogMessage) -> LogEnvelope {
    LogEnvelope {
        from: node(from),
        to: node(SUBJECT),
        message,
    }
}

/// N1 of a three-node cluster in one of its roles: fresh, a follower holding votes, a candidate,
/// a leader with a proposal (batching its Accepts, with the feature), or the successor of a
/// handoff.
fn log_subject(role: u8) -> ColocatedNode {
    let batch = cfg!(feature = "accept-batch") && role % 6 == 5;
    let config = config(batch);
    let mut subject = ColocatedNode::new(node(SUBJECT), config);
    let other = Ballot::new(1, node(2));
    match role % 6 {
        0 => {}
        1 => {
            for slot in 1..=3 {
                let accept = LogMessage::Accept {
                    ballot: other,
                    slot: Slot(slot),
                    entry: Entry::Noop,
                    commit: Slot(1),
                };
                subject.handle(&to_subject(2, accept)).unwrap();
            }
        }
        4 => {
            let handoff = LogMessage::Handoff {
                ballot: other,
                next_slot: Slot(3),
                in_flight: vec![(Slot(2), Entry::Noop)],
                read_watermark: Slot(1),
            };
            subject.handle(&to_subject(2, handoff)).unwrap();
        }
        role => {
            for _ in 0..config.election_timeout_ticks {
                subject.tick();
            }
            if role != 2 {
                let ballot = subject.ballot().unwrap();
                for from in [1, 2] {
                    let promise = LogMessage::Promise {
                        ballot,
                        from_slot: Slot(1),
                        floor: Slot(0),
                        votes: Vec::new(),
                        unknown: Vec::new(),
                    };
                    subject.handle(&to_subject(from, promise)).unwrap();
                }
                for seq in 1..=2 {
                    let write = LogMessage::Write {
                        seq,
                        key: Value::new("x"),
                        value: Value::new("v"),
                    };
                    subject.handle(&to_subject(CLIENT, write)).unwrap();
                }
            }
        }
    }
    let _ = subject.take_ready();
    subject
}

/// One input to a log node, metered: no panic, and its steps and its `Ready` within the budget.
fn log_step(subject: &mut ColocatedNode, fields: &Fields) -> Result<(), TestCaseError> {
    let around = Around {
        base: subject.chosen_index().0,
        round: subject.promised().map_or(0, |ballot| ballot.round),
    };
    let message = fields.log_message(&around);
    let from = match message {
        LogMessage::Write { .. } | LogMessage::Read { .. } => CLIENT,
        _ => fields.from,
    };
    let envelope = to_subject(from, message);
    let limit = budget(log_size(&envelope.message), held(subject));
    let (_, steps) = meter::metered(limit, || subject.handle(&envelope));
    let ready = subject.take_ready();
    let output = ready.writes().len() + ready.pending_messages().len() + ready.applied().len();
    prop_assert!(
        output as u64 <= limit,
        "{output} writes, messages and applied entries for {envelope:?}, over {limit}"
    );
    prop_assert!(steps <= limit);
    prop_assert!(subject.applied_index() <= subject.chosen_index());
    Ok(())
}

/// A tick after the inputs, metered the same way: a leader's beat resends what it holds. A
/// node that stands for election stands above every ballot it has seen, whatever rounds the
/// inputs named: a ballot not above them is one it may have stood at already.
fn log_tick(subject: &mut ColocatedNode) -> Result<(), TestCaseError> {
    let before = subject.ballot();
    let seen = subject.promised().max(before);
    let limit = budget(1, held(subject));
    let (_, steps) = meter::metered(limit, || subject.tick());
    let ready = subject.take_ready();
    let output = ready.writes().len() + ready.pending_messages().len();
    prop_assert!(output as u64 <= limit && steps <= limit);
    if subject.ballot() != before && subject.election().is_some() {
        prop_assert!(
            subject.ballot() > seen,
            "stood at {:?}, not above {seen:?}",
            subject.ballot()
        );
    }
    Ok(())
}

/// A proxy leader's input: forwarded to the cluster or ignored, never more.
fn proxy_step(proxy: &mut ProxyLeader, fields: &Fields) -> Result<(), TestCaseError> {
    let around = Around { base: 0, round: 1 };
    let envelope = LogEnvelope {
        from: node(fields.from),
        to: node(PROXY),
        message: fields.log_message(&around),
    };
    let limit = budget(log_size(&envelope.message), 0);
    let (_, steps) = meter::metered(limit, || proxy.handle(&envelope));
    let output = proxy.take_ready().pending_messages().len();
    prop_assert!(output as u64 <= limit && steps <= limit);
    Ok(())
}

/// The roles of Matchmaker Paxos, each in a stage where it takes messages.
#[derive(Clone, Debug)]
enum MmSubject {
    Matchmaker(Matchmaker),
    Leader(Leader),
    Reconfigurer(Reconfigurer),
    Acceptor(RetiringAcceptor),
}

const MATCHMAKERS: [u8; 3] = [11, 12, 13];
const NEW_MATCHMAKERS: [u8; 3] = [14, 15, 16];

fn set(ids: &[u8]) -> NodeSet {
    ids.iter().map(|id| node(*id)).collect()
}

fn majority(ids: &[u8]) -> Configuration {
    Configuration::new(Quorums::majority(set(ids)).unwrap())
}

fn mm(from: u8, to: u8, message: MmMessage) -> MmEnvelope {
    MmEnvelope {
        from: node(from),
        to: node(to),
        message,
    }
}

/// A leader of round 1 over {1, 2, 3}, run by hand to its value chosen and its garbage
/// collection acknowledged (its proof minted), or stopped earlier: `stage` 0 matching, 1 in
/// Phase 2, 2 with its proof.
fn mm_leader(stage: u8) -> Leader {
    let mut leader = Leader::new(
        node(21),
        1,
        majority(&[1, 2, 3]),
        set(&MATCHMAKERS),
        Value::new("x"),
    );
    leader.start();
    if stage.is_multiple_of(3) {
        return leader;
    }
    let round = leader.round();
    for from in [11, 12] {
        let reply = MmMessage::MatchB {
            round,
            history: History::new(),
            watermark: None,
        };
        leader.handle(&mm(from, 21, reply)).unwrap();
    }
    if stage % 3 == 1 {
        return leader;
    }
    for from in [1, 2] {
        let vote = MmMessage::Paxos(Message::Accepted {
            ballot: round,
            value: Value::new("x"),
        });
        leader.handle(&mm(from, 21, vote)).unwrap();
    }
    leader.collect_garbage().unwrap();
    for from in [11, 12] {
        let ack = MmMessage::GarbageB { watermark: round };
        leader.handle(&mm(from, 21, ack)).unwrap();
    }
    leader
}

fn mm_subject(role: u8) -> MmSubject {
    match role % 8 {
        0 => MmSubject::Matchmaker(Matchmaker::new(node(11))),
        1 => {
            let mut matchmaker = Matchmaker::new(node(11));
            let ask = MmMessage::MatchA {
                round: Ballot::new(3, node(21)),
                config: majority(&[1, 2, 3]),
            };
            matchmaker.handle(&mm(21, 11, ask)).unwrap();
            MmSubject::Matchmaker(matchmaker)
        }
        2..=4 => MmSubject::Leader(mm_leader(role - 2)),
        5 | 6 => {
            let mut reconfigurer =
                Reconfigurer::new(node(31), set(&MATCHMAKERS), set(&NEW_MATCHMAKERS)).unwrap();
            reconfigurer.start();
            if role % 8 == 6 {
                for from in [11, 12] {
                    let report = MmMessage::StopB {
                        history: History::new(),
                        watermark: None,
                    };
                    reconfigurer.handle(&mm(from, 31, report)).unwrap();
                }
            }
            MmSubject::Reconfigurer(reconfigurer)
        }
        _ => MmSubject::Acceptor(RetiringAcceptor::new(node(3))),
    }
}

impl MmSubject {
    fn id(&self) -> u8 {
        match self {
            MmSubject::Matchmaker(matchmaker) => matchmaker.id().get(),
            MmSubject::Leader(leader) => leader.id().get(),
            MmSubject::Reconfigurer(reconfigurer) => reconfigurer.id().get(),
            MmSubject::Acceptor(acceptor) => acceptor.id().get(),
        }
    }

    /// Handles one message; returns how many writes and messages it made.
    fn step(&mut self, envelope: &MmEnvelope) -> usize {
        match self {
            MmSubject::Matchmaker(matchmaker) => {
                let _ = matchmaker.handle(envelope);
                let (writes, messages) = matchmaker.take_ready();
                writes.len() + messages.len()
            }
            MmSubject::Leader(leader) => {
                let _ = leader.handle(envelope);
                let _ = leader.retire_removed();
                leader.take_messages().len()
            }
            MmSubject::Reconfigurer(reconfigurer) => {
                let _ = reconfigurer.handle(envelope);
                reconfigurer.retry();
                reconfigurer.take_messages().len()
            }
            MmSubject::Acceptor(acceptor) => {
                usize::from(matches!(acceptor.handle(envelope), Ok(Some(_))))
            }
        }
    }
}

/// A history of `count` rounds, each a boundary round, of the one configuration.
fn history(fields: &Fields) -> History {
    (0..count(fields.count))
        .map(|i| {
            let round = round_number(fields.round.wrapping_add(i as u8), 1);
            let owner = node(1 + (i % 60) as u8);
            (Ballot::new(round, owner), majority(&[1, 2, 3]))
        })
        .collect()
}

/// One message of every kind of Matchmaker Paxos, its rounds at the boundaries.
fn mm_message(fields: &Fields, gc_proof: Option<crate::matchmaker::GcProof>) -> MmMessage {
    let round = Ballot::new(round_number(fields.round, 1), node(fields.owner));
    let higher = Ballot::new(round_number(fields.other, 1), node(fields.owner));
    let watermark = fields.spread.then_some(higher);
    let value = Value::new("y");
    let paxos = |kind: u8| match kind % 5 {
        0 => Message::Prepare { ballot: round },
        1 => Message::Promise {
            ballot: round,
            accepted: watermark.map(|ballot| Vote {
                ballot,
                value: value.clone(),
            }),
        },
        2 => Message::Accept {
            ballot: round,
            value: value.clone(),
        },
        3 => Message::Accepted {
            ballot: round,
            value: value.clone(),
        },
        _ => Message::Nack {
            ballot: round,
            promised: higher,
        },
    };
    match fields.kind % 13 {
        0 => MmMessage::MatchA {
            round,
            config: majority(&[1, 2, 3]),
        },
        1 => MmMessage::MatchB {
            round,
            history: history(fields),
            watermark,
        },
        2 => MmMessage::GarbageA { watermark: round },
        3 => MmMessage::GarbageB { watermark: round },
        4 => MmMessage::Paxos(paxos(fields.slot)),
        5 => match gc_proof {
            Some(proof) => MmMessage::Retire { proof },
            None => MmMessage::Stop,
        },
        6 => MmMessage::Stop,
        7 => MmMessage::StopB {
            history: history(fields),
            watermark,
        },
        8 => MmMessage::Bootstrap {
            history: history(fields),
            watermark,
        },
        9 => MmMessage::BootstrapB,
        _ => MmMessage::Successor(paxos(fields.slot)),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// A log node in each role takes a few boundary messages, each metered.
    #[test]
    fn a_log_node_does_bounded_work_for_every_boundary_input(
        role in any::<u8>(),
        inputs in proptest::collection::vec(fields(), 1..4),
        tick in any::<bool>(),
    ) {
        let mut subject = log_subject(role);
        for fields in &inputs {
            log_step(&mut subject, fields)?;
        }
        let ticks = if tick { subject.config().election_timeout_ticks } else { 1 };
        for _ in 0..ticks {
            log_tick(&mut subject)?;
        }
    }

    /// A proxy leader takes boundary messages: it forwards an Accept to the cluster, counts an
    /// Accepted, and ignores the rest.
    #[test]
    fn a_proxy_does_bounded_work_for_every_boundary_input(
        inputs in proptest::collection::vec(fields(), 1..4),
    ) {
        let mut proxy = ProxyLeader::new(node(PROXY), config(false));
        for fields in &inputs {
            proxy_step(&mut proxy, fields)?;
        }
    }

    /// Each role of Matchmaker Paxos takes boundary messages: rounds at 0, 1, `u32::MAX - 1`
    /// and `u32::MAX`, histories far longer than the cluster.
    #[test]
    fn a_matchmaker_role_does_bounded_work_for_every_boundary_input(
        role in any::<u8>(),
        inputs in proptest::collection::vec(fields(), 1..4),
        from in prop::sample::select(vec![1u8, 2, 3, 11, 12, 13, 14, 21, 31]),
    ) {
        let proof = mm_leader(2).gc_proof().copied();
        let mut subject = mm_subject(role);
        for fields in &inputs {
            let envelope = mm(from, subject.id(), mm_message(fields, proof));
            let size = match &envelope.message {
                MmMessage::MatchB { history, .. }
                | MmMessage::StopB { history, .. }
                | MmMessage::Bootstrap { history, .. } => history.len() as u64,
                _ => 0,
            } + 1;
            let limit = budget(size, 0);
            let (output, steps) = meter::metered(limit, || subject.step(&envelope));
            prop_assert!(output as u64 <= limit && steps <= limit, "{output} for {envelope:?}");
        }
    }
}

// ----- The window rule, one input at a time -----

/// `input` to N1 as `role` (see [`log_subject`]), metered: its result, and what it sent.
fn one_input(role: u8, from: u8, message: LogMessage) -> (Result<(), crate::Ignored>, usize) {
    let mut subject = log_subject(role);
    let envelope = to_subject(from, message);
    let limit = budget(log_size(&envelope.message), held(&subject));
    let (result, _) = meter::metered(limit, || subject.handle(&envelope));
    (result, subject.take_ready().pending_messages().len())
}

#[cfg(feature = "accept-batch")]
#[test]
fn an_accept_run_at_the_last_slot_number_is_ignored_not_an_overflow() {
    let run = |first: u64| LogMessage::AcceptRun {
        ballot: Ballot::new(1, node(2)),
        first: Slot(first),
        entries: vec![Entry::Noop; 2],
        commit: Slot(0),
    };
    assert_eq!(
        one_input(0, 2, run(u64::MAX)),
        (Err(crate::Ignored::BeyondWindow), 0)
    );
    assert_eq!(
        one_input(0, 2, run(WINDOW)),
        (Err(crate::Ignored::BeyondWindow), 0)
    );
    assert_eq!(one_input(0, 2, run(WINDOW - 1)).0, Ok(()));
}

#[cfg(feature = "accept-batch")]
#[test]
fn an_accepted_run_through_the_last_slot_number_visits_only_the_proposals() {
    // Without the rule the leader looked up every slot number from 1 to u64::MAX.
    let mut leader = log_subject(3);
    let ballot = leader.ballot().unwrap();
    let run = LogMessage::AcceptedRun {
        ballot,
        first: Slot(1),
        through: Slot(u64::MAX),
    };
    let envelope = to_subject(2, run);
    let (result, steps) = meter::metered(budget(1, held(&leader)), || leader.handle(&envelope));
    assert_eq!(result, Ok(()));
    assert!(steps <= 8 * held(&leader).max(1), "{steps} steps");
}

#[test]
fn a_heartbeat_ack_beyond_the_window_makes_a_leader_propose_nothing() {
    // Without the rule a leader proposed a no-op for every slot up to the one reported.
    let mut leader = log_subject(3);
    let ballot = leader.ballot().unwrap();
    let ack = |highest: u64| LogMessage::HeartbeatAck {
        ballot,
        chosen_index: Slot(0),
        highest_accepted: Slot(highest),
    };
    for highest in [WINDOW + 1, u64::MAX / 2, u64::MAX] {
        let envelope = to_subject(2, ack(highest));
        assert_eq!(leader.handle(&envelope), Err(crate::Ignored::BeyondWindow));
        assert!(leader.take_ready().is_empty());
    }
    // At the window's edge the fill is a window of no-ops at most.
    leader.handle(&to_subject(2, ack(WINDOW))).unwrap();
    assert_eq!(leader.proposals().keys().next_back(), Some(&Slot(WINDOW)));
}

#[test]
fn a_vote_a_decision_or_a_handoff_beyond_the_window_is_ignored() {
    // Each would make N1's votes or chosen entries span from slot 1 to the slot named.
    let other = Ballot::new(1, node(2));
    let far = Slot(1 + WINDOW + 1);
    let accept = LogMessage::Accept {
        ballot: other,
        slot: far,
        entry: Entry::Noop,
        commit: Slot(0),
    };
    let vote = SlotVote {
        ballot: other,
        entry: Entry::Noop,
    };
    let chosen = LogMessage::Chosen {
        entries: vec![(Slot(2), vote.clone()), (far, vote.clone())],
    };
    let handoff = LogMessage::Handoff {
        ballot: other,
        next_slot: Slot(u64::MAX),
        in_flight: Vec::new(),
        read_watermark: Slot(0),
    };
    let candidate = log_subject(2);
    let promise = LogMessage::Promise {
        ballot: candidate.ballot().unwrap(),
        from_slot: Slot(1),
        floor: Slot(0),
        votes: vec![(Slot(1), vote.clone()), (far, vote)],
        unknown: Vec::new(),
    };
    let beyond = (Err(crate::Ignored::BeyondWindow), 0);
    assert_eq!(one_input(1, 2, accept), beyond);
    assert_eq!(one_input(1, 2, chosen), beyond);
    assert_eq!(one_input(0, 2, handoff), beyond);
    assert_eq!(one_input(2, 2, promise), beyond);
}

#[test]
fn a_trim_point_above_the_highest_slot_is_ignored_not_an_overflow() {
    let point = |through: u64| LogMessage::TrimPoint {
        ballot: Ballot::new(1, node(2)),
        point: TrimPoint {
            cluster: cluster(),
            through: Slot(through),
            store: KvStore::default(),
        },
    };
    let beyond = (Err(crate::Ignored::BeyondWindow), 0);
    assert_eq!(one_input(0, 2, point(u64::MAX)), beyond);
    assert_eq!(
        one_input(0, 2, point(crate::log::HIGHEST_SLOT.0 + 1)),
        beyond
    );
    // A trim point is a jump: far above the node's window, it is installed all the same.
    assert_eq!(one_input(0, 2, point(crate::log::HIGHEST_SLOT.0)).0, Ok(()));
}

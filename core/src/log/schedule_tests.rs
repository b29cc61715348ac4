//! Regression tests that replay one schedule each on raw `ColocatedNode`s: every message,
//! including a node's message to itself, waits in flight until the schedule delivers it, in any
//! order, and every `Ready` is persisted to the node's `DurableRecord` before its messages leave.
//! Each test names the rule it checks.

use crate::log::{
    ColocatedNode, DurableRecord, Entry, LogConfig, LogEnvelope, LogMessage, LogRole, Outcome, Slot,
};
use crate::{Ballot, Ignored, NodeId, Value};

fn node(id: u8) -> NodeId {
    NodeId::new(id).unwrap()
}

const CLIENT: u8 = 9;

/// Three nodes with their disks, and a network that holds every message until the schedule
/// delivers, drops or duplicates it.
struct Net {
    config: LogConfig,
    /// `None` while the node is down.
    nodes: Vec<Option<ColocatedNode>>,
    disks: Vec<DurableRecord>,
    in_flight: Vec<LogEnvelope>,
    client_inbox: Vec<(u64, Outcome)>,
}

impl Net {
    fn new() -> Net {
        let config = LogConfig::new([1, 2, 3].map(node).into_iter().collect());
        let mut net = Net {
            config,
            nodes: (1..=3)
                .map(|id| Some(ColocatedNode::new(node(id), config)))
                .collect(),
            disks: vec![DurableRecord::default(); 3],
            in_flight: Vec::new(),
            client_inbox: Vec::new(),
        };
        for id in 1..=3 {
            net.flush(id);
        }
        net
    }

    fn index(id: u8) -> usize {
        usize::from(id - 1)
    }

    fn node(&self, id: u8) -> &ColocatedNode {
        self.nodes[Net::index(id)].as_ref().expect("the node is up")
    }

    /// Persist, then put the messages in flight, the node's messages to itself included.
    fn flush(&mut self, id: u8) {
        let index = Net::index(id);
        let Some(subject) = self.nodes[index].as_mut() else {
            return;
        };
        let ready = subject.take_ready();
        let proof = self.disks[index].persist(ready.writes());
        self.in_flight.extend(ready.into_messages(proof));
    }

    fn tick(&mut self, id: u8, times: u32) {
        for _ in 0..times {
            self.nodes[Net::index(id)]
                .as_mut()
                .expect("the node is up")
                .tick();
            self.flush(id);
        }
    }

    /// Delivers the first message in flight that `pick` chooses; the schedule must have one.
    fn deliver(&mut self, pick: impl Fn(&LogEnvelope) -> bool) -> Result<(), Ignored> {
        let position = self
            .in_flight
            .iter()
            .position(&pick)
            .expect("the schedule names a message in flight");
        let envelope = self.in_flight.remove(position);
        if envelope.to == node(CLIENT) {
            if let LogMessage::Reply { seq, outcome } = envelope.message {
                self.client_inbox.push((seq, outcome));
            }
            return Ok(());
        }
        let id = envelope.to.get();
        let Some(subject) = self.nodes[Net::index(id)].as_mut() else {
            return Ok(()); // a message to a node that is down is lost
        };
        let result = subject.handle(&envelope);
        self.flush(id);
        result
    }

    /// Delivers what `pick` chooses, oldest first, until it chooses nothing in flight.
    fn deliver_all(&mut self, pick: impl Fn(&LogEnvelope) -> bool) {
        while self.in_flight.iter().any(&pick) {
            let _ignored = self.deliver(&pick);
        }
    }

    fn drop_where(&mut self, pick: impl Fn(&LogEnvelope) -> bool) {
        self.in_flight.retain(|envelope| !pick(envelope));
    }

    fn duplicate(&mut self, pick: impl Fn(&LogEnvelope) -> bool) {
        let copies: Vec<LogEnvelope> = self.in_flight.iter().filter(|e| pick(e)).cloned().collect();
        assert!(!copies.is_empty(), "the schedule names a message in flight");
        self.in_flight.extend(copies);
    }

    fn crash(&mut self, id: u8) {
        self.nodes[Net::index(id)] = None;
    }

    fn restart(&mut self, id: u8) {
        let index = Net::index(id);
        let restarted = ColocatedNode::restart(node(id), self.config, &self.disks[index])
            .expect("the disk is whole");
        self.nodes[index] = Some(restarted);
        self.flush(id);
    }

    fn client_sends(&mut self, to: u8, message: LogMessage) {
        self.in_flight.push(LogEnvelope {
            from: node(CLIENT),
            to: node(to),
            message,
        });
    }

    fn write(&mut self, to: u8, seq: u64, key: &str, value: &str) {
        let message = LogMessage::Write {
            seq,
            key: Value::new(key),
            value: Value::new(value),
        };
        self.client_sends(to, message);
    }

    /// Stands `id` for election and delivers Prepares and Promises among `voters` only; its
    /// Prepares to the other nodes are lost.
    fn elect_by(&mut self, id: u8, voters: &[u8]) {
        let timeout = self.config.election_timeout_ticks;
        self.tick(id, timeout);
        let voters: Vec<NodeId> = voters.iter().map(|voter| node(*voter)).collect();
        let candidate = node(id);
        self.drop_where(|envelope| {
            matches!(envelope.message, LogMessage::Prepare { .. })
                && envelope.from == candidate
                && !voters.contains(&envelope.to)
        });
        self.deliver_all(|envelope| {
            matches!(envelope.message, LogMessage::Prepare { .. })
                && envelope.from == candidate
                && voters.contains(&envelope.to)
                || matches!(envelope.message, LogMessage::Promise { .. })
                    && envelope.to == candidate
                    && voters.contains(&envelope.from)
        });
        assert_eq!(self.node(id).role(), LogRole::Leader);
    }
}

/// A message of `kind` from `from` to `to`.
fn is(kind: &'static str, from: u8, to: u8) -> impl Fn(&LogEnvelope) -> bool {
    move |envelope| {
        envelope.message.kind() == kind && envelope.from == node(from) && envelope.to == node(to)
    }
}

fn value_of(entry: &Entry) -> Option<&str> {
    match entry {
        Entry::Command(command) => Some(command.value.as_str()),
        Entry::Noop | Entry::Trim(_) => None,
    }
}

/// Learning raises the promise (the chosen overwrite rule, Paxos Made Simple, section 2.2 and
/// 2.5): a node that learns slot 1 chosen at 2.N2 while it has promised only 1.N3 must refuse a
/// delayed Accept at 1.N3, or the stale vote replaces the chosen entry and a restart brings back
/// a different decision.
#[test]
fn learning_a_chosen_vote_raises_the_promise_so_a_stale_accept_cannot_rewrite_it() {
    let mut net = Net::new();
    net.elect_by(3, &[1, 2, 3]);
    net.write(3, 1, "x", "w");
    net.deliver(is("Write", CLIENT, 3)).unwrap();
    // N3's Accepts for w stay in flight, its own included. N2 is elected by {N2, N3}.
    net.elect_by(2, &[2, 3]);
    assert_eq!(net.node(2).ballot(), Some(Ballot::new(2, node(2))));
    net.write(2, 2, "x", "v");
    net.deliver(is("Write", CLIENT, 2)).unwrap();
    net.drop_where(is("Accept", 2, 1));
    for voter in [2, 3] {
        net.deliver(is("Accept", 2, voter)).unwrap();
        net.deliver(is("Accepted", voter, 2)).unwrap();
    }
    assert_eq!(value_of(&net.node(2).chosen()[&Slot(1)].entry), Some("v"));
    // N2 catches N1 up: heartbeat, ack, Chosen.
    net.tick(2, 1);
    net.deliver(is("Heartbeat", 2, 1)).unwrap();
    net.deliver(is("HeartbeatAck", 1, 2)).unwrap();
    net.deliver(is("Chosen", 2, 1)).unwrap();
    assert_eq!(net.node(1).chosen_index(), Slot(1));
    assert_eq!(value_of(&net.node(1).accepts()[&Slot(1)].entry), Some("v"));
    assert!(
        net.node(1).promised() >= Some(Ballot::new(2, node(2))),
        "learning a vote at 2.N2 raised the promise to 2.N2"
    );
    // N3's delayed Accept for w at 1.N3 reaches N1: refused by the vote rule.
    net.deliver(is("Accept", 3, 1)).unwrap();
    assert!(net.in_flight.iter().any(is("Nack", 1, 3)));
    assert_eq!(value_of(&net.node(1).accepts()[&Slot(1)].entry), Some("v"));
    net.crash(1);
    net.restart(1);
    let restarted = net.node(1);
    assert_eq!(value_of(&restarted.chosen()[&Slot(1)].entry), Some("v"));
    assert_eq!(
        restarted.store().get(&Value::new("x")).map(Value::as_str),
        Some("v"),
        "the decision learned before the crash is the decision after it"
    );
}

/// The next-slot rule of `lead` (Paxos Made Simple, section 3): a new leader numbers new
/// commands from just above what its own Phase 1 found, so a slot it proposed in an earlier
/// leadership that no Promise reported is proposed again, not left a hole forever.
#[test]
fn a_re_elected_leader_leaves_no_hole_below_its_new_commands() {
    let mut net = Net::new();
    net.elect_by(1, &[1, 2, 3]);
    net.write(1, 1, "x", "a");
    net.deliver(is("Write", CLIENT, 1)).unwrap();
    // Slot 1's Accepts to the others are lost; N1's own stays in flight.
    net.drop_where(is("Accept", 1, 2));
    net.drop_where(is("Accept", 1, 3));
    net.elect_by(2, &[1, 2, 3]);
    assert_eq!(net.node(1).role(), LogRole::Follower, "N2 deposed N1");
    net.elect_by(1, &[1, 2, 3]);
    assert!(
        net.node(1).accepts().is_empty(),
        "no Promise reported slot 1"
    );
    net.write(1, 2, "x", "b");
    // Everything heals: every message is delivered, and every node ticks.
    for _ in 0..10 {
        net.deliver_all(|_| true);
        for id in 1..=3 {
            net.tick(id, 1);
        }
    }
    net.deliver_all(|_| true);
    for id in 1..=3 {
        let subject = net.node(id);
        assert_eq!(subject.chosen_gap(), None, "N{id} has no hole");
        assert!(subject.applied_index() >= Slot(1), "N{id} applies again");
        assert_eq!(
            subject.store().get(&Value::new("x")).map(Value::as_str),
            Some("b")
        );
    }
}

/// A deposed leader clears its leader hint when it steps down: it must not send clients back to
/// itself (Paxos Made Simple, section 3: only the leader proposes).
#[test]
fn a_deposed_leader_does_not_redirect_clients_to_itself() {
    let mut net = Net::new();
    net.elect_by(1, &[1, 2, 3]);
    net.elect_by(2, &[2, 3]);
    net.write(1, 1, "x", "a");
    net.deliver(is("Write", CLIENT, 1)).unwrap();
    net.deliver(is("Accept", 1, 2)).unwrap();
    net.deliver(is("Nack", 2, 1)).unwrap();
    assert_eq!(net.node(1).role(), LogRole::Follower, "the Nack deposed N1");
    net.write(1, 2, "x", "b");
    net.deliver(is("Write", CLIENT, 1)).unwrap();
    net.deliver(is("Reply", 1, CLIENT)).unwrap();
    let (seq, outcome) = net.client_inbox.last().cloned().unwrap();
    assert_eq!(seq, 2);
    assert!(
        matches!(outcome, Outcome::NotLeader { hint } if hint != Some(node(1))),
        "{outcome:?}"
    );
}

/// Read ids are unique across a node's lives (the read watermark rule needs every reply to be
/// about this read): a ReadIndexReply sent to a node's previous life must not complete a read of
/// its new life.
#[test]
fn a_read_index_reply_from_a_previous_life_does_not_complete_a_new_read() {
    let mut net = Net::new();
    net.elect_by(1, &[1, 2, 3]);
    let read = |seq| LogMessage::Read {
        seq,
        key: Value::new("x"),
    };
    net.client_sends(3, read(1));
    net.deliver(is("Read", CLIENT, 3)).unwrap();
    net.deliver(is("ReadIndex", 3, 1)).unwrap();
    // N3 crashes with N1's reply in flight; its other ReadIndexes are lost.
    net.crash(3);
    net.drop_where(|envelope| envelope.from == node(3));
    // Meanwhile x=1 is chosen by {N1, N2} and the write completes.
    net.write(1, 1, "x", "1");
    net.deliver(is("Write", CLIENT, 1)).unwrap();
    net.drop_where(is("Accept", 1, 3));
    for voter in [1, 2] {
        net.deliver(is("Accept", 1, voter)).unwrap();
        net.deliver(is("Accepted", voter, 1)).unwrap();
    }
    net.deliver(is("Reply", 1, CLIENT)).unwrap();
    assert_eq!(net.client_inbox, vec![(1, Outcome::Written)]);
    // N3 restarts and a new read begins; N3 answers itself first.
    net.restart(3);
    assert_eq!(net.node(3).incarnation(), 1);
    assert_eq!(net.disks[2].incarnation, 1, "the new life is durable first");
    net.client_sends(3, read(2));
    net.deliver(is("Read", CLIENT, 3)).unwrap();
    net.deliver(is("ReadIndex", 3, 3)).unwrap();
    net.deliver(is("ReadIndexReply", 3, 3)).unwrap();
    // The reply N1 sent to N3's previous life arrives.
    let stale = net.deliver(is("ReadIndexReply", 1, 3));
    assert_eq!(
        stale,
        Err(Ignored::UnknownRead),
        "the stale reply is ignored"
    );
    assert!(
        !net.in_flight
            .iter()
            .any(|envelope| envelope.to == node(CLIENT)),
        "the stale reply does not complete the read"
    );
    assert_eq!(net.node(3).pending_reads().len(), 1);
    // Everything heals: the read completes with the write that finished before it began.
    for _ in 0..3 {
        net.deliver_all(|_| true);
        net.tick(1, 1);
    }
    net.deliver_all(|_| true);
    assert_eq!(
        net.client_inbox.last(),
        Some(&(2, Outcome::Read(Some(Value::new("1")))))
    );
}

/// A proposer remembers in stable storage the highest ballot it has stood at (Paxos Made
/// Simple, section 2.5), so a restarted candidate stands above it, and a duplicated Promise for
/// its old ballot cannot make it lead at that ballot twice.
#[test]
fn a_restarted_candidate_stands_above_every_ballot_it_stood_at_before() {
    let mut net = Net::new();
    let first = Ballot::new(1, node(1));
    let timeout = net.config.election_timeout_ticks;
    net.tick(1, timeout);
    assert_eq!(net.node(1).ballot(), Some(first));
    // N1's Prepare to itself stays in flight; N2 and N3 promise, and N2's Promise is duplicated.
    net.deliver(is("Prepare", 1, 2)).unwrap();
    net.deliver(is("Prepare", 1, 3)).unwrap();
    net.duplicate(is("Promise", 2, 1));
    net.deliver(is("Promise", 2, 1)).unwrap();
    net.deliver(is("Promise", 3, 1)).unwrap();
    assert_eq!(net.node(1).role(), LogRole::Leader);
    net.write(1, 1, "x", "v1");
    net.deliver(is("Write", CLIENT, 1)).unwrap();
    // v1 is chosen in slot 1 by {N2, N3}; N1 crashes before it hears their Accepteds.
    for voter in [2, 3] {
        net.deliver(is("Accept", 1, voter)).unwrap();
        assert_eq!(
            value_of(&net.node(voter).accepts()[&Slot(1)].entry),
            Some("v1")
        );
    }
    net.crash(1);
    net.restart(1);
    net.tick(1, timeout);
    assert!(
        net.node(1).ballot() > Some(first),
        "the restarted candidate stands above 1.N1, not at it again: {:?}",
        net.node(1).ballot()
    );
    // The old Prepare to itself and the duplicated Promise arrive.
    net.deliver(is("Prepare", 1, 1)).unwrap();
    net.deliver_all(|envelope| {
        envelope.message
            == LogMessage::Promise {
                ballot: first,
                from_slot: Slot(1),
                floor: Slot(0),
                votes: Vec::new(),
                unknown: Vec::new(),
            }
    });
    assert!(
        !(net.node(1).role() == LogRole::Leader && net.node(1).ballot() == Some(first)),
        "N1 leads at 1.N1 a second time"
    );
}

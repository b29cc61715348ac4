//! Proxy leaders (P1–P5 in [`proxy`](super::proxy)): a proxy on its own, and a cluster of three
//! nodes whose leader sends its Accepts through two proxies. Every message waits in flight until
//! the schedule delivers, drops or duplicates it. Each test names the rule it checks.

use crate::log::{
    ColocatedNode, Command, DurableRecord, Entry, LogConfig, LogEnvelope, LogMessage, LogRole,
    Outcome, Persisted, ProxiesRefused, ProxyLeader, Repeat, Slot, answer_to_repeat,
    forward_unchanged, nack_goes_to, proxy_for, proxy_may_announce, resend_is_identical,
};
use crate::{Ballot, Ignored, NodeId, NodeSet, Value};

fn node(id: u8) -> NodeId {
    NodeId::new(id).unwrap()
}

fn set(ids: &[u8]) -> NodeSet {
    ids.iter().map(|id| node(*id)).collect()
}

const CLIENT: u8 = 9;
/// The proxies: N4 and N5.
const PROXIES: [u8; 2] = [4, 5];

/// Three nodes, N1–N3, whose leaders send Accepts through N4 and N5.
fn config() -> LogConfig {
    LogConfig::new(set(&[1, 2, 3]))
        .with_proxies(set(&PROXIES))
        .unwrap()
}

fn command(value: &str) -> Entry {
    Entry::from(Command {
        client: node(CLIENT),
        seq: 1,
        key: Value::new("x"),
        value: Value::new(value),
    })
}

fn accept(ballot: Ballot, slot: u64, entry: Entry) -> LogMessage {
    LogMessage::Accept {
        ballot,
        slot: Slot(slot),
        entry,
        commit: Slot(0),
    }
}

fn accepted(ballot: Ballot, slot: u64) -> LogMessage {
    LogMessage::Accepted {
        ballot,
        slot: Slot(slot),
    }
}

fn envelope(from: u8, to: u8, message: LogMessage) -> LogEnvelope {
    LogEnvelope {
        from: node(from),
        to: node(to),
        message,
    }
}

/// P5: takes a proxy's output, which never holds a write, and releases its messages.
fn messages_of(proxy: &mut ProxyLeader) -> Vec<LogEnvelope> {
    let ready = proxy.take_ready();
    assert!(
        ready.writes().is_empty(),
        "a proxy wrote {:?}",
        ready.writes()
    );
    ready.into_messages(Persisted::nothing())
}

/// The announcements among `messages`.
fn announcements(messages: &[LogEnvelope]) -> Vec<&LogEnvelope> {
    messages
        .iter()
        .filter(|envelope| matches!(envelope.message, LogMessage::SlotChosen { .. }))
        .collect()
}

fn ballot(round: u32, owner: u8) -> Ballot {
    Ballot::new(round, node(owner))
}

/// P1: the Accept reaches every acceptor exactly as the leader sent it.
#[test]
fn p1_a_proxy_forwards_the_accept_unchanged_to_every_acceptor() {
    let mut proxy = ProxyLeader::new(node(4), config());
    let sent = LogMessage::Accept {
        ballot: ballot(1, 1),
        slot: Slot(3),
        entry: command("a"),
        commit: Slot(2),
    };
    proxy.handle(&envelope(1, 4, sent.clone())).unwrap();
    let out = messages_of(&mut proxy);
    assert_eq!(out, forward_unchanged(node(4), &sent, set(&[1, 2, 3])));
    let receivers: Vec<NodeId> = out.iter().map(|envelope| envelope.to).collect();
    assert_eq!(receivers, [node(1), node(2), node(3)]);
    assert!(out.iter().all(|envelope| envelope.message == sent));
}

/// P1's repeat rule: counting is de-duplicated, forwarding is not. A second Accept for a
/// (slot, ballot) the proxy holds goes again to every acceptor not yet counted (a forward or
/// its Accepted may have been lost), and the acceptor already counted is counted once.
#[test]
fn p1_a_repeat_is_forwarded_again_to_the_acceptors_not_yet_counted() {
    let mut proxy = ProxyLeader::new(node(4), config());
    let at = ballot(1, 1);
    let message = envelope(1, 4, accept(at, 1, command("a")));
    proxy.handle(&message).unwrap();
    let _forwarded = messages_of(&mut proxy);
    proxy.handle(&envelope(1, 4, accepted(at, 1))).unwrap();
    assert!(messages_of(&mut proxy).is_empty());

    proxy.handle(&message).unwrap();
    let again = messages_of(&mut proxy);
    let sent = accept(at, 1, command("a"));
    assert_eq!(again, forward_unchanged(node(4), &sent, set(&[2, 3])));
    let counted: Vec<NodeSet> = proxy.counted().map(|(_, _, voters)| voters).collect();
    assert_eq!(counted, [set(&[1])], "the repeat keeps what was counted");
    assert_eq!(
        answer_to_repeat(set(&[1, 2, 3]), set(&[1]), false),
        Repeat::Forward(set(&[2, 3]))
    );
}

/// P1's repeat rule: once the slot is announced, a repeat brings the announcement again (the
/// first may have been lost), and forwards nothing.
#[test]
fn p1_a_repeat_after_the_announcement_announces_again() {
    let mut proxy = ProxyLeader::new(node(4), config());
    let at = ballot(1, 1);
    let message = envelope(1, 4, accept(at, 1, command("a")));
    proxy.handle(&message).unwrap();
    proxy.handle(&envelope(1, 4, accepted(at, 1))).unwrap();
    proxy.handle(&envelope(2, 4, accepted(at, 1))).unwrap();
    let first = messages_of(&mut proxy);
    let announced = announcements(&first);
    assert_eq!(announced.len(), 1);
    let announcement = announced[0].clone();

    proxy.handle(&message).unwrap();
    assert_eq!(messages_of(&mut proxy), [announcement]);
    assert_eq!(
        answer_to_repeat(set(&[1, 2, 3]), set(&[1, 2]), true),
        Repeat::Announce
    );
}

/// P1's repeat rule after a handoff: the successor's Accept for a (slot, ballot) the proxy
/// holds makes the successor the node announced to.
#[test]
fn p1_a_repeat_from_a_successor_makes_it_the_one_announced_to() {
    let mut proxy = ProxyLeader::new(node(4), config());
    let at = ballot(1, 1);
    proxy
        .handle(&envelope(1, 4, accept(at, 1, command("a"))))
        .unwrap();
    proxy
        .handle(&envelope(2, 4, accept(at, 1, command("a"))))
        .unwrap();
    proxy.handle(&envelope(1, 4, accepted(at, 1))).unwrap();
    proxy.handle(&envelope(3, 4, accepted(at, 1))).unwrap();
    let out = messages_of(&mut proxy);
    let announced = announcements(&out);
    assert_eq!(announced.len(), 1);
    assert_eq!(announced[0].to, node(2));
}

/// P4 at the proxy: an Accept for a (slot, ballot) it holds with another entry was never
/// proposed there, and is neither forwarded nor counted.
#[test]
fn p1_a_repeat_with_another_entry_is_refused() {
    let mut proxy = ProxyLeader::new(node(4), config());
    let at = ballot(1, 1);
    proxy
        .handle(&envelope(1, 4, accept(at, 1, command("a"))))
        .unwrap();
    let _forwarded = messages_of(&mut proxy);
    assert_eq!(
        proxy.handle(&envelope(1, 4, accept(at, 1, command("b")))),
        Err(Ignored::NotProposed)
    );
    assert!(messages_of(&mut proxy).is_empty());
}

/// P1: the same slot at a higher ballot is a new (slot, ballot), forwarded and kept apart.
#[test]
fn p1_the_state_is_keyed_by_slot_and_ballot() {
    let mut proxy = ProxyLeader::new(node(4), config());
    proxy
        .handle(&envelope(1, 4, accept(ballot(1, 1), 1, command("a"))))
        .unwrap();
    proxy
        .handle(&envelope(2, 4, accept(ballot(2, 2), 1, command("b"))))
        .unwrap();
    let held: Vec<(Slot, Ballot)> = proxy.counted().map(|(s, b, _)| (s, b)).collect();
    assert_eq!(held, [(Slot(1), ballot(1, 1)), (Slot(1), ballot(2, 2))]);
    assert_eq!(messages_of(&mut proxy).len(), 6);
}

/// P2: one Accepted of three is no quorum; the second makes one, and the leader that sent the
/// Accept is told, with the entry it sent.
#[test]
fn p2_no_announcement_before_a_phase2_quorum() {
    let mut proxy = ProxyLeader::new(node(4), config());
    let at = ballot(1, 1);
    proxy
        .handle(&envelope(1, 4, accept(at, 1, command("a"))))
        .unwrap();
    let _forwarded = messages_of(&mut proxy);
    proxy.handle(&envelope(2, 4, accepted(at, 1))).unwrap();
    assert!(messages_of(&mut proxy).is_empty());
    proxy.handle(&envelope(3, 4, accepted(at, 1))).unwrap();
    let out = messages_of(&mut proxy);
    let announced = LogMessage::SlotChosen {
        ballot: at,
        slot: Slot(1),
        entry: command("a"),
    };
    assert_eq!(out, [envelope(4, 1, announced)]);
    assert_eq!(
        proxy.handle(&envelope(1, 4, accepted(at, 1))),
        Err(Ignored::AlreadyAnnounced)
    );
    assert!(messages_of(&mut proxy).is_empty());
}

/// P2: an acceptor counts once, however often its Accepted arrives.
#[test]
fn p2_a_duplicate_accepted_does_not_count_twice() {
    let mut proxy = ProxyLeader::new(node(4), config());
    let at = ballot(1, 1);
    proxy
        .handle(&envelope(1, 4, accept(at, 1, command("a"))))
        .unwrap();
    let _forwarded = messages_of(&mut proxy);
    proxy.handle(&envelope(2, 4, accepted(at, 1))).unwrap();
    assert_eq!(
        proxy.handle(&envelope(2, 4, accepted(at, 1))),
        Err(Ignored::Duplicate)
    );
    assert!(announcements(&messages_of(&mut proxy)).is_empty());
    assert_eq!(proxy.counted().next().map(|(_, _, by)| by), Some(set(&[2])));
}

/// P2: an Accepted at an older ballot does not count toward a newer ballot's quorum in the same
/// slot, and an Accepted for a (slot, ballot) the proxy never forwarded counts for nothing.
#[test]
fn p2_a_stale_ballots_accepted_does_not_count_toward_a_newer_ballot() {
    let mut proxy = ProxyLeader::new(node(4), config());
    let (old, new) = (ballot(1, 1), ballot(2, 2));
    proxy
        .handle(&envelope(1, 4, accept(old, 1, command("a"))))
        .unwrap();
    proxy
        .handle(&envelope(2, 4, accept(new, 1, command("b"))))
        .unwrap();
    let _forwarded = messages_of(&mut proxy);
    proxy.handle(&envelope(1, 4, accepted(old, 1))).unwrap();
    proxy.handle(&envelope(2, 4, accepted(new, 1))).unwrap();
    assert!(
        messages_of(&mut proxy).is_empty(),
        "a quorum split over two ballots chose nothing"
    );
    assert_eq!(
        proxy.handle(&envelope(3, 4, accepted(ballot(3, 3), 1))),
        Err(Ignored::StaleBallot)
    );
    assert!(messages_of(&mut proxy).is_empty());
    assert!(!proxy_may_announce(config().quorums(), Slot(1), set(&[1])));
    assert!(proxy_may_announce(
        config().quorums(),
        Slot(1),
        set(&[1, 3])
    ));
}

/// P2 with a grid (rows {N1, N2} and {N3, N4}): slot 1 is decided by the column {N1, N3}
/// alone, so three votes of four without N3 announce nothing, and N3's vote then does.
#[test]
fn p2_the_quorum_is_the_clusters_own_slot_aware_quorum() {
    use crate::{Grid, Quorums};
    let rows = [vec![node(1), node(2)], vec![node(3), node(4)]];
    let config = LogConfig::new(set(&[1, 2, 3, 4]))
        .with_quorums(Quorums::Grid(Grid::new(&rows).unwrap()))
        .unwrap()
        .with_proxies(set(&[6]))
        .unwrap();
    let mut proxy = ProxyLeader::new(node(6), config);
    let at = ballot(1, 1);
    proxy
        .handle(&envelope(1, 6, accept(at, 1, command("a"))))
        .unwrap();
    let _forwarded = messages_of(&mut proxy);
    for voter in [2, 4, 1] {
        proxy.handle(&envelope(voter, 6, accepted(at, 1))).unwrap();
        assert!(messages_of(&mut proxy).is_empty(), "announced without N3");
    }
    proxy.handle(&envelope(3, 6, accepted(at, 1))).unwrap();
    assert_eq!(announcements(&messages_of(&mut proxy)).len(), 1);
}

/// P3: an acceptor that promised higher refuses an Accept a proxy brought, and tells the
/// ballot's owner, not the proxy; without proxies it tells the sender, as before.
#[test]
fn p3_a_nack_goes_to_the_leader_not_the_proxy() {
    assert_eq!(nack_goes_to(node(4), ballot(1, 1), set(&PROXIES)), node(1));
    assert_eq!(nack_goes_to(node(2), ballot(1, 1), set(&PROXIES)), node(2));
    assert_eq!(nack_goes_to(node(4), ballot(1, 1), NodeSet::EMPTY), node(4));

    let mut acceptor = ColocatedNode::new(node(2), config());
    let prepare = LogMessage::Prepare {
        ballot: ballot(2, 3),
        from_slot: Slot(1),
    };
    acceptor.handle(&envelope(3, 2, prepare)).unwrap();
    let _ = acceptor.take_ready();
    acceptor
        .handle(&envelope(4, 2, accept(ballot(1, 1), 1, command("a"))))
        .unwrap();
    let ready = acceptor.take_ready();
    let nacks: Vec<&LogEnvelope> = ready
        .pending_messages()
        .iter()
        .filter(|envelope| matches!(envelope.message, LogMessage::Nack { .. }))
        .collect();
    assert_eq!(nacks.len(), 1);
    assert_eq!(nacks[0].to, node(1));
}

/// P3's other half: the acceptor's vote goes back to the proxy that brought the Accept, and
/// the acceptor follows the leader, not the proxy.
#[test]
fn p3_an_accepted_goes_to_the_proxy_and_the_acceptor_follows_the_leader() {
    let mut acceptor = ColocatedNode::new(node(2), config());
    let _ = acceptor.take_ready();
    acceptor
        .handle(&envelope(4, 2, accept(ballot(1, 1), 1, command("a"))))
        .unwrap();
    let ready = acceptor.take_ready();
    assert_eq!(
        ready.pending_messages(),
        [envelope(2, 4, accepted(ballot(1, 1), 1))]
    );
    assert_eq!(acceptor.leader_hint(), Some(node(1)));
}

/// A proxy may bring Accepts and announcements, nothing else: a Prepare from it is a stranger's.
#[test]
fn a_proxy_may_send_a_node_only_accepts_and_announcements() {
    let mut acceptor = ColocatedNode::new(node(2), config());
    let prepare = LogMessage::Prepare {
        ballot: ballot(1, 4),
        from_slot: Slot(1),
    };
    assert_eq!(
        acceptor.handle(&envelope(4, 2, prepare)),
        Err(Ignored::UnknownSender)
    );
    let mut proxy = ProxyLeader::new(node(4), config());
    assert_eq!(
        proxy.handle(&envelope(CLIENT, 4, accept(ballot(1, 1), 1, command("a")))),
        Err(Ignored::UnknownSender)
    );
    assert_eq!(
        proxy.handle(&envelope(
            1,
            4,
            LogMessage::Heartbeat {
                ballot: ballot(1, 1),
                commit: Slot(0)
            }
        )),
        Err(Ignored::NotForThisRole)
    );
}

/// Proxies are off by default, and a proxy may not be a node of the cluster.
#[test]
fn proxies_are_off_by_default_and_never_a_node_of_the_cluster() {
    let plain = LogConfig::new(set(&[1, 2, 3]));
    assert!(plain.proxies().is_empty());
    assert_eq!(
        plain.with_proxies(set(&[3, 4])),
        Err(ProxiesRefused::ProxyIsANode(node(3)))
    );
    assert_eq!(config().proxies(), set(&PROXIES));
}

/// P4: the resend rule, and the round-robin that gives each resend another proxy.
#[test]
fn p4_a_resend_takes_the_next_proxy_and_must_be_identical() {
    assert!(resend_is_identical(&command("a"), &command("a")));
    assert!(!resend_is_identical(&command("a"), &command("b")));
    assert!(!resend_is_identical(&command("a"), &Entry::Noop));
    let proxies = set(&PROXIES);
    assert_eq!(proxy_for(proxies, Slot(1), 0), Some(node(5)));
    assert_eq!(proxy_for(proxies, Slot(1), 1), Some(node(4)));
    assert_eq!(proxy_for(proxies, Slot(2), 0), Some(node(4)));
    assert_eq!(proxy_for(NodeSet::EMPTY, Slot(1), 0), None);
}

/// P5: a proxy that crashes comes back knowing nothing, and that loses nothing but messages.
#[test]
fn p5_a_restarted_proxy_is_blank() {
    let mut proxy = ProxyLeader::new(node(4), config());
    proxy
        .handle(&envelope(1, 4, accept(ballot(1, 1), 1, command("a"))))
        .unwrap();
    assert_eq!(proxy.counted().count(), 1);
    let restarted = ProxyLeader::restart(node(4), config());
    assert_eq!(restarted, ProxyLeader::new(node(4), config()));
    assert_eq!(restarted.counted().count(), 0);
}

/// A leader, two proxies and three acceptors, with their disks; every message waits in flight.
struct Net {
    config: LogConfig,
    nodes: Vec<ColocatedNode>,
    disks: Vec<DurableRecord>,
    /// `None` while the proxy is down.
    proxies: Vec<Option<ProxyLeader>>,
    in_flight: Vec<LogEnvelope>,
    client_inbox: Vec<(u64, Outcome)>,
}

impl Net {
    fn new(config: LogConfig) -> Net {
        let mut net = Net {
            config,
            nodes: (1..=3)
                .map(|id| ColocatedNode::new(node(id), config))
                .collect(),
            disks: vec![DurableRecord::default(); 3],
            proxies: PROXIES
                .iter()
                .map(|id| Some(ProxyLeader::new(node(*id), config)))
                .collect(),
            in_flight: Vec::new(),
            client_inbox: Vec::new(),
        };
        for id in 1..=3 {
            net.flush(id);
        }
        net
    }

    fn flush(&mut self, id: u8) {
        if let Some(index) = usize::from(id).checked_sub(1).filter(|index| *index < 3) {
            let ready = self.nodes[index].take_ready();
            let proof = self.disks[index].persist(ready.writes());
            self.in_flight.extend(ready.into_messages(proof));
        } else if let Some(Some(proxy)) = self.proxies.get_mut(usize::from(id - 4)) {
            let out = messages_of(proxy);
            self.in_flight.extend(out);
        }
    }

    fn tick(&mut self, id: u8, times: u32) {
        for _ in 0..times {
            self.nodes[usize::from(id - 1)].tick();
            self.flush(id);
        }
    }

    /// Delivers the first message in flight that `pick` chooses, if any.
    fn deliver(&mut self, pick: impl Fn(&LogEnvelope) -> bool) -> Option<Result<(), Ignored>> {
        let position = self.in_flight.iter().position(&pick)?;
        let envelope = self.in_flight.remove(position);
        let id = envelope.to.get();
        let result = match id {
            CLIENT => {
                if let LogMessage::Reply { seq, outcome } = envelope.message {
                    self.client_inbox.push((seq, outcome));
                }
                Ok(())
            }
            1..=3 => self.nodes[usize::from(id - 1)].handle(&envelope),
            _ => match &mut self.proxies[usize::from(id - 4)] {
                Some(proxy) => proxy.handle(&envelope),
                None => Ok(()), // a message to a crashed proxy is lost
            },
        };
        self.flush(id);
        Some(result)
    }

    fn deliver_all(&mut self, pick: impl Fn(&LogEnvelope) -> bool) {
        while self.deliver(&pick).is_some() {}
    }

    fn settle(&mut self) {
        self.deliver_all(|_| true);
    }

    fn elect(&mut self, id: u8) {
        let timeout = self.config.election_timeout_ticks;
        self.tick(id, timeout);
        self.deliver_all(|envelope| {
            matches!(
                envelope.message,
                LogMessage::Prepare { .. } | LogMessage::Promise { .. }
            )
        });
        assert_eq!(self.nodes[usize::from(id - 1)].role(), LogRole::Leader);
    }

    fn write(&mut self, to: u8, seq: u64, value: &str) {
        self.in_flight.push(envelope(
            CLIENT,
            to,
            LogMessage::Write {
                seq,
                key: Value::new("x"),
                value: Value::new(value),
            },
        ));
        self.deliver(|envelope| envelope.message.kind() == "Write")
            .expect("the write is in flight")
            .unwrap();
    }

    /// A proxy crashes: it and every message to or from it are gone.
    fn crash_proxy(&mut self, id: u8) {
        self.proxies[usize::from(id - 4)] = None;
        self.in_flight
            .retain(|envelope| envelope.from != node(id) && envelope.to != node(id));
    }

    /// The Accepts in flight from the leader `from`, with the proxy each goes to.
    fn accepts_from(&self, from: u8) -> Vec<(NodeId, LogMessage)> {
        self.in_flight
            .iter()
            .filter(|envelope| envelope.from == node(from) && envelope.message.kind() == "Accept")
            .map(|envelope| (envelope.to, envelope.message.clone()))
            .collect()
    }
}

fn is(kind: &'static str, from: u8, to: u8) -> impl Fn(&LogEnvelope) -> bool {
    move |envelope| {
        envelope.message.kind() == kind && envelope.from == node(from) && envelope.to == node(to)
    }
}

/// With proxies, the leader sends each Accept to one proxy, never to the acceptors, and learns
/// the slot chosen from the proxy's announcement; the client is answered and every node applies.
#[test]
fn a_command_is_chosen_through_a_proxy() {
    let mut net = Net::new(config());
    net.elect(1);
    net.write(1, 1, "a");
    let accepts = net.accepts_from(1);
    assert_eq!(accepts, [(node(5), accept(ballot(1, 1), 1, command("a")))]);
    net.settle();
    assert_eq!(net.client_inbox, [(1, Outcome::Written)]);
    assert_eq!(net.nodes[0].chosen_index(), Slot(1));
    assert!(net.nodes[0].proposals().is_empty());
    net.tick(1, 1);
    net.settle();
    for subject in &net.nodes {
        assert_eq!(
            subject.store().get(&Value::new("x")),
            Some(&Value::new("a"))
        );
    }
}

/// P4 and P5 end to end: the proxy carrying slot 1 crashes after one acceptor voted; the
/// leader's resend goes through the other proxy with the identical entry, and the same value
/// is chosen. No proxy wrote anything (checked at every flush).
#[test]
fn a_crashed_proxy_is_passed_by_and_the_same_value_is_chosen() {
    let mut net = Net::new(config());
    net.elect(1);
    net.write(1, 1, "a");
    net.deliver(is("Accept", 1, 5)).unwrap().unwrap();
    net.deliver(is("Accept", 5, 2)).unwrap().unwrap();
    net.deliver(is("Accepted", 2, 5)).unwrap().unwrap();
    net.crash_proxy(5);
    assert!(net.nodes[0].proposals().contains_key(&Slot(1)));

    net.tick(1, 1);
    let resends = net.accepts_from(1);
    assert_eq!(resends, [(node(4), accept(ballot(1, 1), 1, command("a")))]);
    net.settle();
    assert_eq!(net.client_inbox, [(1, Outcome::Written)]);
    let chosen = &net.nodes[0].chosen()[&Slot(1)];
    assert_eq!(chosen.entry, command("a"));
    assert_eq!(chosen.ballot, ballot(1, 1));
    net.tick(1, 1);
    net.settle();
    for subject in &net.nodes {
        assert_eq!(subject.chosen_index(), Slot(1));
        assert_eq!(subject.accepts()[&Slot(1)].entry, command("a"));
    }
}

/// P1 and P5 end to end: every forward of slot 1 to N2 and N3 is lost, through P5 and then
/// through P4; the leader's next resend reaches P5 again, which holds the slot and forwards it
/// again to the acceptors it has not counted, and the slot is chosen with no new leader.
#[test]
fn lost_forwards_through_both_proxies_are_sent_again_and_the_slot_is_chosen() {
    let mut net = Net::new(config());
    net.elect(1);
    net.write(1, 1, "a");
    for proxy in [5, 4] {
        net.deliver(is("Accept", 1, proxy)).unwrap().unwrap();
        net.in_flight
            .retain(|envelope| !(envelope.from == node(proxy) && envelope.to != node(1)));
        net.deliver_all(|envelope| envelope.message.kind() != "Heartbeat");
        assert_eq!(net.nodes[0].chosen_index(), Slot(0));
        net.tick(1, 1);
    }
    assert_eq!(
        net.accepts_from(1),
        [(node(5), accept(ballot(1, 1), 1, command("a")))]
    );
    net.settle();
    assert_eq!(net.client_inbox, [(1, Outcome::Written)]);
    assert_eq!(net.nodes[0].chosen_index(), Slot(1));
}

/// P1 end to end, a lost announcement: P5 counted a quorum and its announcement is lost; the
/// resend through P4 is lost too; P5 announces again when the next resend reaches it.
#[test]
fn a_lost_announcement_is_sent_again_on_the_next_resend() {
    let mut net = Net::new(config());
    net.elect(1);
    net.write(1, 1, "a");
    net.deliver_all(|envelope| envelope.message.kind() != "SlotChosen");
    net.in_flight
        .retain(|envelope| envelope.message.kind() != "SlotChosen");
    net.tick(1, 1);
    net.in_flight
        .retain(|envelope| !is("Accept", 1, 4)(envelope));
    net.settle();
    net.tick(1, 1);
    net.settle();
    assert_eq!(net.client_inbox, [(1, Outcome::Written)]);
    assert_eq!(net.nodes[0].chosen_index(), Slot(1));
}

/// Handoff with proxies: slot 1 is in flight through both proxies, their Accepteds slow, when
/// N1 hands its ballot to N2. N2's send of slot 1 reaches a proxy that holds it keyed to N1;
/// the proxy now announces to N2, which learns the slot chosen.
#[test]
fn a_successor_learns_a_slot_in_flight_through_proxies_that_hold_it() {
    let mut net = Net::new(config());
    net.elect(1);
    net.write(1, 1, "a");
    net.deliver(is("Accept", 1, 5)).unwrap().unwrap();
    net.tick(1, 1);
    net.deliver(is("Accept", 1, 4)).unwrap().unwrap();
    net.deliver_all(|envelope| envelope.message.kind() == "Accept");
    net.nodes[0].hand_off(node(2)).unwrap();
    net.flush(1);
    net.deliver(is("Handoff", 1, 2)).unwrap().unwrap();
    assert_eq!(
        net.accepts_from(2),
        [(node(5), accept(ballot(1, 1), 1, command("a")))]
    );
    net.settle();
    for _ in 0..3 {
        net.tick(2, 1);
        net.settle();
    }
    assert_eq!(net.nodes[1].role(), LogRole::Leader);
    assert_eq!(net.nodes[1].chosen_index(), Slot(1));
    assert_eq!(net.nodes[1].chosen()[&Slot(1)].entry, command("a"));
}

/// A leader's announcement is learned only for its own proposal at its own ballot.
#[test]
fn a_leader_ignores_an_announcement_of_another_ballot_or_entry() {
    let mut net = Net::new(config());
    net.elect(1);
    net.write(1, 1, "a");
    let leader = &mut net.nodes[0];
    let other_ballot = LogMessage::SlotChosen {
        ballot: ballot(7, 2),
        slot: Slot(1),
        entry: command("a"),
    };
    assert_eq!(
        leader.handle(&envelope(4, 1, other_ballot)),
        Err(Ignored::StaleBallot)
    );
    let other_entry = LogMessage::SlotChosen {
        ballot: ballot(1, 1),
        slot: Slot(1),
        entry: command("b"),
    };
    assert_eq!(
        leader.handle(&envelope(4, 1, other_entry)),
        Err(Ignored::NotProposed)
    );
    assert_eq!(leader.chosen_index(), Slot(0));
}

#[cfg(feature = "negative-controls")]
mod broken {
    use super::*;
    use crate::log::BrokenRule;

    /// Accepteds of 1.N1 from N1 and of 2.N2 from N2 for slot 1: no ballot has a quorum.
    fn split_votes(proxy: &mut ProxyLeader) -> Vec<LogEnvelope> {
        let (old, new) = (ballot(1, 1), ballot(2, 2));
        proxy
            .handle(&envelope(1, 4, accept(old, 1, command("a"))))
            .unwrap();
        let _ = proxy.handle(&envelope(1, 4, accepted(old, 1)));
        proxy
            .handle(&envelope(2, 4, accept(new, 1, command("b"))))
            .unwrap();
        let _ = proxy.handle(&envelope(2, 4, accepted(new, 1)));
        messages_of(proxy)
    }

    /// The control breaks P1/P2 exactly: votes of two ballots count together, and the proxy
    /// announces `b`, which one acceptor accepted. The honest proxy announces nothing.
    #[test]
    fn proxy_keyed_by_slot_announces_a_value_no_quorum_accepted() {
        let mut honest = ProxyLeader::new(node(4), config());
        assert!(announcements(&split_votes(&mut honest)).is_empty());

        let mut broken = ProxyLeader::new(node(4), config());
        broken.break_rule(BrokenRule::ProxyKeyedBySlot);
        let out = split_votes(&mut broken);
        let announced = announcements(&out);
        assert_eq!(announced.len(), 1);
        assert_eq!(
            announced[0].message,
            LogMessage::SlotChosen {
                ballot: ballot(2, 2),
                slot: Slot(1),
                entry: command("b"),
            }
        );
    }

    /// The control breaks P1's repeat rule exactly: the repeat is ignored and nothing goes
    /// out, where the honest proxy forwards it to the two acceptors it has not counted.
    #[test]
    fn proxy_ignores_repeats_forwards_nothing_again() {
        let repeat = |proxy: &mut ProxyLeader| {
            let message = envelope(1, 4, accept(ballot(1, 1), 1, command("a")));
            proxy.handle(&message).unwrap();
            let _forwarded = messages_of(proxy);
            let handled = proxy.handle(&message);
            (handled, messages_of(proxy).len())
        };
        let mut honest = ProxyLeader::new(node(4), config());
        assert_eq!(repeat(&mut honest), (Ok(()), 3));
        let mut broken = ProxyLeader::new(node(4), config());
        broken.break_rule(BrokenRule::ProxyIgnoresRepeats);
        assert_eq!(repeat(&mut broken), (Err(Ignored::Duplicate), 0));
    }

    /// The leader's first Accept and its resend through another proxy, for slot 1.
    fn first_and_resend(break_it: bool) -> Vec<(NodeId, LogMessage)> {
        let mut net = Net::new(config());
        net.elect(1);
        if break_it {
            net.nodes[0].break_rule(BrokenRule::NewValueSameBallot);
        }
        net.write(1, 1, "a");
        let mut sent = net.accepts_from(1);
        net.crash_proxy(5);
        net.tick(1, 1);
        sent.extend(net.accepts_from(1));
        sent
    }

    /// The control breaks P4 exactly: the resend through N4 carries a no-op at the ballot and
    /// slot at which N5 carried `a`. The honest leader's resend is identical.
    #[test]
    fn new_value_same_ballot_sends_two_entries_at_one_slot_and_ballot() {
        let honest = first_and_resend(false);
        assert_eq!(honest.len(), 2);
        assert_eq!((honest[0].0, honest[1].0), (node(5), node(4)));
        assert_eq!(honest[0].1, honest[1].1);

        let broken = first_and_resend(true);
        assert_eq!(broken.len(), 2);
        assert_eq!((broken[0].0, broken[1].0), (node(5), node(4)));
        assert_eq!(broken[0].1, accept(ballot(1, 1), 1, command("a")));
        assert_eq!(broken[1].1, accept(ballot(1, 1), 1, Entry::Noop));
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;
    use std::collections::{BTreeMap, BTreeSet};

    /// One input to a proxy: an Accept from leader N`owner` at round `round` for `slot` (its
    /// entry fixed by the ballot), or an Accepted from acceptor N`voter`.
    fn input(kind: bool, round: u32, owner: u8, slot: u64, voter: u8) -> LogEnvelope {
        let at = ballot(round, owner);
        if kind {
            let entry = command(&format!("{round}.{owner}"));
            envelope(owner, 4, accept(at, slot, entry))
        } else {
            envelope(voter, 4, accepted(at, slot))
        }
    }

    proptest! {
        /// P2 and P5 under any order, loss and duplication: every announcement names an entry
        /// the proxy was sent at exactly its (slot, ballot), after Accepteds there from a
        /// Phase-2 quorum of distinct acceptors; once per (slot, ballot) but in answer to a
        /// repeated Accept (P1); no write ever.
        #[test]
        fn every_announcement_follows_a_quorum_at_exactly_its_slot_and_ballot(
            inputs in proptest::collection::vec(
                (any::<bool>(), 1u32..3, 1u8..4, 1u64..3, 1u8..4), 0..40)
        ) {
            let mut proxy = ProxyLeader::new(node(4), config());
            let mut sent: BTreeMap<(Slot, Ballot), Entry> = BTreeMap::new();
            let mut voted: BTreeMap<(Slot, Ballot), NodeSet> = BTreeMap::new();
            let mut announced: BTreeSet<(Slot, Ballot)> = BTreeSet::new();
            for (kind, round, owner, slot, voter) in inputs {
                let message = input(kind, round, owner, slot, voter);
                let at = ballot(round, owner);
                let key = (Slot(slot), at);
                let handled = proxy.handle(&message);
                match &message.message {
                    LogMessage::Accept { entry, .. } => {
                        sent.entry(key).or_insert_with(|| entry.clone());
                    }
                    _ if handled.is_ok() => {
                        voted.entry(key).or_default().insert(node(voter));
                    }
                    _ => {}
                }
                for out in messages_of(&mut proxy) {
                    if let LogMessage::SlotChosen { ballot, slot, entry } = out.message {
                        let key = (slot, ballot);
                        prop_assert_eq!(Some(&entry), sent.get(&key));
                        let voters = voted.get(&key).copied().unwrap_or_default();
                        prop_assert!(proxy_may_announce(config().quorums(), slot, voters));
                        // A second announcement of a (slot, ballot) answers only a repeat.
                        let repeat = matches!(message.message, LogMessage::Accept { .. });
                        prop_assert!(announced.insert(key) || repeat, "announced unasked");
                        prop_assert_eq!(out.to, ballot.node);
                    }
                }
            }
        }
    }
}

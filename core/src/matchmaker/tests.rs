//! Matchmaker Paxos, M1–M5: each rule on its own, then whole reconfigurations over a network
//! whose messages wait in flight until a test delivers or drops them.

use super::{
    Configuration, GcRefused, History, Leader, MatchRefused, Matchmaker, MatchmakerWrite,
    MmEnvelope, MmMessage, Reconfigurer, RetireRefused, RetiringAcceptor, Stage, decode,
    effective_watermark, encode, history_from_replies, installed_is_collectable, match_rule,
    phase1_complete, quorum_of_matchmakers,
};
use crate::log::{FrameError, RecordError};
use crate::{Ballot, Ignored, Message, NodeId, NodeSet, QuorumSystem, Quorums, Value};
use std::collections::{BTreeMap, VecDeque};

pub(super) fn node(id: u8) -> NodeId {
    NodeId::new(id).unwrap()
}

pub(super) fn set(ids: &[u8]) -> NodeSet {
    ids.iter().map(|id| node(*id)).collect()
}

pub(super) fn round(number: u32, owner: u8) -> Ballot {
    Ballot::new(number, node(owner))
}

/// Majorities over these acceptors.
pub(super) fn majority(ids: &[u8]) -> Configuration {
    Configuration::new(Quorums::majority(set(ids)).unwrap())
}

// Acceptors A–F are nodes 1–6; matchmakers nodes 11–13; leaders nodes 21–23.
pub(super) const A: u8 = 1;
pub(super) const B: u8 = 2;
pub(super) const C: u8 = 3;
pub(super) const D: u8 = 4;
pub(super) const E: u8 = 5;
pub(super) const F: u8 = 6;
pub(super) const MATCHMAKERS: [u8; 3] = [11, 12, 13];

pub(super) fn envelope(from: u8, to: u8, message: MmMessage) -> MmEnvelope {
    MmEnvelope {
        from: node(from),
        to: node(to),
        message,
    }
}

fn match_a(number: u32, leader: u8, config: Configuration) -> MmMessage {
    MmMessage::MatchA {
        round: round(number, leader),
        config,
    }
}

/// A network of three matchmakers (each with a disk of frames), acceptors A–F and leaders.
pub(super) struct Net {
    pub(super) matchmakers: Vec<Matchmaker>,
    pub(super) disks: BTreeMap<NodeId, Vec<Vec<u8>>>,
    pub(super) acceptors: Vec<RetiringAcceptor>,
    pub(super) leaders: Vec<Leader>,
    pub(super) reconfigurers: Vec<Reconfigurer>,
    pub(super) in_flight: VecDeque<MmEnvelope>,
}

impl Net {
    pub(super) fn new() -> Net {
        let mut net = Net {
            matchmakers: MATCHMAKERS.map(|id| Matchmaker::new(node(id))).to_vec(),
            disks: BTreeMap::new(),
            acceptors: [A, B, C, D, E, F]
                .map(|id| RetiringAcceptor::new(node(id)))
                .to_vec(),
            leaders: Vec::new(),
            reconfigurers: Vec::new(),
            in_flight: VecDeque::new(),
        };
        for index in 0..net.matchmakers.len() {
            net.flush_matchmaker(index);
        }
        net
    }

    /// Adds the leader of `number` (owned by node `id`), matching with the first generation of
    /// matchmakers, and starts it.
    pub(super) fn start_leader(&mut self, id: u8, number: u32, config: Configuration, value: &str) {
        self.start_leader_with(&MATCHMAKERS, id, number, config, value);
    }

    /// Adds the leader of `number` (owned by node `id`), matching with `matchmakers`, and starts
    /// it.
    pub(super) fn start_leader_with(
        &mut self,
        matchmakers: &[u8],
        id: u8,
        number: u32,
        config: Configuration,
        value: &str,
    ) {
        let mut leader = Leader::new(
            node(id),
            number,
            config,
            set(matchmakers),
            Value::new(value),
        );
        leader.start();
        self.in_flight.extend(leader.take_messages());
        self.leaders.push(leader);
    }

    /// Adds a new matchmaker, storing nothing.
    pub(super) fn add_matchmaker(&mut self, id: u8) {
        self.matchmakers.push(Matchmaker::new(node(id)));
        self.flush_matchmaker(self.matchmakers.len() - 1);
    }

    pub(super) fn matchmaker(&mut self, id: u8) -> &mut Matchmaker {
        self.matchmakers
            .iter_mut()
            .find(|m| m.id() == node(id))
            .unwrap()
    }

    /// Adds a reconfigurer replacing `old` by `new`, and starts it.
    pub(super) fn start_reconfigurer(&mut self, id: u8, old: &[u8], new: &[u8]) {
        let mut reconfigurer = Reconfigurer::new(node(id), set(old), set(new)).unwrap();
        reconfigurer.start();
        self.in_flight.extend(reconfigurer.take_messages());
        self.reconfigurers.push(reconfigurer);
    }

    pub(super) fn reconfigurer(&mut self, id: u8) -> &mut Reconfigurer {
        self.reconfigurers
            .iter_mut()
            .find(|r| r.id() == node(id))
            .unwrap()
    }

    pub(super) fn leader(&mut self, id: u8) -> &mut Leader {
        self.leaders
            .iter_mut()
            .find(|l| l.id() == node(id))
            .unwrap()
    }

    pub(super) fn acceptor(&self, id: u8) -> &RetiringAcceptor {
        self.acceptors.iter().find(|a| a.id() == node(id)).unwrap()
    }

    /// Makes a leader's queued messages (after `collect_garbage` or `retire_removed`) fly.
    pub(super) fn flush_leader(&mut self, id: u8) {
        let messages = self.leader(id).take_messages();
        self.in_flight.extend(messages);
    }

    /// Writes a matchmaker's writes to its disk, then sends its messages.
    fn flush_matchmaker(&mut self, index: usize) {
        let (writes, messages) = self.matchmakers[index].take_ready();
        let disk = self.disks.entry(self.matchmakers[index].id()).or_default();
        disk.extend(writes.iter().map(encode));
        self.in_flight.extend(messages);
    }

    /// Delivers one message, returning the reason it was refused, if it was.
    fn deliver(&mut self, envelope: &MmEnvelope) -> Option<String> {
        let to = envelope.to;
        if let Some(index) = self.matchmakers.iter().position(|m| m.id() == to) {
            let refused = self.matchmakers[index].handle(envelope).err();
            self.flush_matchmaker(index);
            return refused.map(|r| r.to_string());
        }
        if let Some(acceptor) = self.acceptors.iter_mut().find(|a| a.id() == to) {
            return match acceptor.handle(envelope) {
                Ok(reply) => {
                    self.in_flight.extend(reply);
                    None
                }
                Err(refused) => Some(refused.to_string()),
            };
        }
        if let Some(reconfigurer) = self.reconfigurers.iter_mut().find(|r| r.id() == to) {
            let refused = reconfigurer.handle(envelope).err();
            self.in_flight.extend(reconfigurer.take_messages());
            return refused.map(|r| r.to_string());
        }
        let leader = self.leaders.iter_mut().find(|l| l.id() == to)?;
        let refused = leader.handle(envelope).err();
        self.in_flight.extend(leader.take_messages());
        refused.map(|r| r.to_string())
    }

    /// Delivers every message in flight that `keep` accepts, and those they cause, until none
    /// is left that it accepts; drops the rest.
    pub(super) fn run_dropping(&mut self, keep: impl Fn(&MmEnvelope) -> bool) {
        while let Some(envelope) = self.in_flight.pop_front() {
            if keep(&envelope) {
                self.deliver(&envelope);
            }
        }
    }

    /// Delivers everything in flight, and everything that causes.
    pub(super) fn run(&mut self) {
        self.run_dropping(|_| true);
    }
}

/// Whether a message goes to or comes from one of these nodes.
pub(super) fn touches(envelope: &MmEnvelope, nodes: &[u8]) -> bool {
    nodes.contains(&envelope.to.get()) || nodes.contains(&envelope.from.get())
}

// ----- M1: the match rule -----

#[test]
fn match_rule_wants_a_round_above_every_stored_one_and_not_below_the_watermark() {
    // M1 (Matchmaker Paxos, section 3).
    assert_eq!(match_rule(None, None, round(1, 21)), Ok(()));
    assert_eq!(match_rule(Some(round(1, 21)), None, round(2, 21)), Ok(()));
    assert_eq!(
        match_rule(Some(round(2, 21)), None, round(2, 21)),
        Err(MatchRefused::RoundNotAbove {
            round: round(2, 21),
            highest: round(2, 21)
        })
    );
    assert_eq!(
        match_rule(Some(round(2, 22)), None, round(2, 21)),
        Err(MatchRefused::RoundNotAbove {
            round: round(2, 21),
            highest: round(2, 22)
        })
    );
    assert_eq!(match_rule(None, Some(round(3, 21)), round(3, 21)), Ok(()));
    assert_eq!(
        match_rule(None, Some(round(3, 21)), round(2, 22)),
        Err(MatchRefused::BelowWatermark {
            round: round(2, 22),
            watermark: round(3, 21)
        })
    );
}

#[test]
fn a_matchmaker_answers_with_the_lower_rounds_and_refuses_a_lower_one() {
    let mut matchmaker = Matchmaker::new(node(11));
    let _ = matchmaker.take_ready();
    matchmaker
        .handle(&envelope(21, 11, match_a(1, 21, majority(&[A, B, C]))))
        .unwrap();
    matchmaker
        .handle(&envelope(22, 11, match_a(3, 22, majority(&[A, B, D]))))
        .unwrap();
    let (writes, messages) = matchmaker.take_ready();
    assert_eq!(
        writes,
        vec![
            MatchmakerWrite::Configuration(round(1, 21), majority(&[A, B, C])),
            MatchmakerWrite::Configuration(round(3, 22), majority(&[A, B, D])),
        ]
    );
    let lower: History = [(round(1, 21), majority(&[A, B, C]))].into();
    assert_eq!(
        messages[1],
        envelope(
            11,
            22,
            MmMessage::MatchB {
                round: round(3, 22),
                history: lower,
                watermark: None
            }
        )
    );

    let refused = matchmaker.handle(&envelope(23, 11, match_a(2, 23, majority(&[D, E, F]))));
    assert_eq!(
        refused,
        Err(MatchRefused::RoundNotAbove {
            round: round(2, 23),
            highest: round(3, 22)
        })
    );
    assert_eq!(matchmaker.take_ready(), (vec![], vec![]));
    assert_eq!(matchmaker.configurations().len(), 2);
}

#[test]
fn a_duplicate_match_is_answered_again_without_a_write_but_another_configuration_is_refused() {
    let mut matchmaker = Matchmaker::new(node(11));
    let _ = matchmaker.take_ready();
    let request = envelope(21, 11, match_a(1, 21, majority(&[A, B, C])));
    matchmaker.handle(&request).unwrap();
    let (_, first) = matchmaker.take_ready();
    matchmaker.handle(&request).unwrap();
    let (writes, again) = matchmaker.take_ready();
    assert!(writes.is_empty());
    assert_eq!(first, again);

    let other = envelope(21, 11, match_a(1, 21, majority(&[A, B, D])));
    assert!(matches!(
        matchmaker.handle(&other),
        Err(MatchRefused::RoundNotAbove { .. })
    ));
}

#[test]
fn a_matchmaker_ignores_what_is_not_for_it() {
    let mut matchmaker = Matchmaker::new(node(11));
    let misaddressed = envelope(21, 12, match_a(1, 21, majority(&[A, B, C])));
    assert_eq!(
        matchmaker.handle(&misaddressed),
        Err(MatchRefused::Ignored(Ignored::NotAddressedToMe))
    );
    let promise = MmMessage::Paxos(Message::Prepare {
        ballot: round(1, 21),
    });
    assert_eq!(
        matchmaker.handle(&envelope(21, 11, promise)),
        Err(MatchRefused::Ignored(Ignored::NotForThisRole))
    );
}

// ----- M4, the matchmaker's half: the watermark -----

#[test]
fn garbage_collection_keeps_the_highest_watermark_and_drops_what_is_below() {
    assert_eq!(effective_watermark(None, round(2, 21)), round(2, 21));
    assert_eq!(
        effective_watermark(Some(round(3, 22)), round(2, 21)),
        round(3, 22)
    );

    let mut matchmaker = Matchmaker::new(node(11));
    for (number, owner, config) in [
        (1, 21, majority(&[A, B, C])),
        (2, 22, majority(&[A, B, D])),
        (3, 23, majority(&[D, E, F])),
    ] {
        matchmaker
            .handle(&envelope(owner, 11, match_a(number, owner, config)))
            .unwrap();
    }
    let _ = matchmaker.take_ready();
    let garbage = |watermark| MmMessage::GarbageA { watermark };
    matchmaker
        .handle(&envelope(22, 11, garbage(round(2, 22))))
        .unwrap();
    let (writes, acks) = matchmaker.take_ready();
    assert_eq!(writes, vec![MatchmakerWrite::Watermark(round(2, 22))]);
    assert_eq!(
        acks,
        vec![envelope(
            11,
            22,
            MmMessage::GarbageB {
                watermark: round(2, 22)
            }
        )]
    );
    let kept: Vec<Ballot> = matchmaker.configurations().keys().copied().collect();
    assert_eq!(kept, vec![round(2, 22), round(3, 23)]);

    // A late request for a lower watermark changes nothing, and is told the effective one.
    matchmaker
        .handle(&envelope(21, 11, garbage(round(1, 21))))
        .unwrap();
    let (writes, acks) = matchmaker.take_ready();
    assert!(writes.is_empty());
    assert_eq!(
        acks[0].message,
        MmMessage::GarbageB {
            watermark: round(2, 22)
        }
    );
    assert_eq!(matchmaker.watermark(), Some(round(2, 22)));
}

#[test]
fn a_matchmaker_refuses_a_round_below_its_watermark_even_when_it_stores_nothing() {
    let mut matchmaker = Matchmaker::new(node(11));
    matchmaker
        .handle(&envelope(
            22,
            11,
            MmMessage::GarbageA {
                watermark: round(4, 22),
            },
        ))
        .unwrap();
    assert!(matchmaker.configurations().is_empty());
    assert_eq!(
        matchmaker.handle(&envelope(21, 11, match_a(3, 21, majority(&[A, B, C])))),
        Err(MatchRefused::BelowWatermark {
            round: round(3, 21),
            watermark: round(4, 22)
        })
    );
    assert_eq!(
        matchmaker.handle(&envelope(23, 11, match_a(5, 23, majority(&[A, B, C])))),
        Ok(())
    );
}

// ----- M2: the history from f+1 replies -----

#[test]
fn the_history_is_the_union_of_the_replies_above_the_highest_watermark() {
    // M2 (Matchmaker Paxos, sections 3 and 5).
    assert_eq!(quorum_of_matchmakers(set(&MATCHMAKERS)), 2);
    let one: History = [
        (round(1, 21), majority(&[A, B, C])),
        (round(2, 22), majority(&[A, B, D])),
    ]
    .into();
    let other: History = [(round(3, 23), majority(&[D, E, F]))].into();
    let union = history_from_replies([(&one, None), (&other, None)]);
    assert_eq!(union.len(), 3);

    // The second matchmaker collected below round 2: round 1 goes, even from the first reply.
    let collected = history_from_replies([(&one, None), (&other, Some(round(2, 22)))]);
    let rounds: Vec<Ballot> = collected.keys().copied().collect();
    assert_eq!(rounds, vec![round(2, 22), round(3, 23)]);
}

#[test]
fn a_leader_builds_its_history_from_f_plus_one_replies_only() {
    let mut leader = Leader::new(
        node(22),
        2,
        majority(&[A, B, D]),
        set(&MATCHMAKERS),
        Value::new("y"),
    );
    leader.start();
    assert_eq!(leader.take_messages().len(), 3);
    let reply = |history: History, watermark| MmMessage::MatchB {
        round: round(2, 22),
        history,
        watermark,
    };
    let old: History = [(round(1, 21), majority(&[A, B, C]))].into();
    leader
        .handle(&envelope(11, 22, reply(old.clone(), None)))
        .unwrap();
    assert_eq!(leader.stage(), Stage::Matching);
    assert_eq!(
        leader.handle(&envelope(11, 22, reply(old.clone(), None))),
        Err(Ignored::Duplicate)
    );
    assert_eq!(
        leader.handle(&envelope(14, 22, reply(old.clone(), None))),
        Err(Ignored::UnknownSender)
    );
    let stale = MmMessage::MatchB {
        round: round(1, 22),
        history: old.clone(),
        watermark: None,
    };
    assert_eq!(
        leader.handle(&envelope(12, 22, stale)),
        Err(Ignored::StaleBallot)
    );
    leader
        .handle(&envelope(12, 22, reply(History::new(), None)))
        .unwrap();
    assert_eq!(leader.stage(), Stage::Phase1);
    assert_eq!(leader.history(), &old);
    // Phase 1 goes to the acceptors of the history, not to the leader's own configuration.
    let prepared: NodeSet = leader.take_messages().iter().map(|e| e.to).collect();
    assert_eq!(prepared, set(&[A, B, C]));
    assert_eq!(
        leader.handle(&envelope(13, 22, reply(old, None))),
        Err(Ignored::WrongPhase)
    );
}

// ----- M3: a Phase-1 quorum of every configuration -----

#[test]
fn phase1_needs_a_quorum_of_every_configuration_not_of_their_union() {
    // M3 (Matchmaker Paxos, section 3). Over {A..E} a majority is 3, and {A, B, D} is one;
    // but of {C, D, E} it holds D alone.
    let history: History = [
        (round(1, 21), majority(&[A, B, C])),
        (round(2, 22), majority(&[C, D, E])),
    ]
    .into();
    let promised = set(&[A, B, D]);
    assert!(
        majority(&[A, B, C, D, E])
            .quorums()
            .is_phase1_quorum(promised)
    );
    assert!(!phase1_complete(&history, promised));
    assert!(phase1_complete(&history, set(&[A, C, D])));
    assert!(phase1_complete(&History::new(), NodeSet::EMPTY));
}

#[test]
fn each_configuration_is_judged_by_its_own_quorum_system() {
    // A 2x2 grid elects with a full row: {A, B} is one, {A, C} is not, though it is half.
    let grid = Configuration::new(
        Quorums::grid(&[vec![node(A), node(B)], vec![node(C), node(D)]]).unwrap(),
    );
    let history: History = [(round(1, 21), grid), (round(2, 22), majority(&[A, C, E]))].into();
    assert!(!phase1_complete(&history, set(&[A, C])));
    assert!(phase1_complete(&history, set(&[A, B, C])));
}

/// A leader of round 3 in {D, E, F} whose history holds rounds 1 ({A, B, C}) and 2
/// ({C, D, E}), fed Promises.
fn leader_with_two_configurations() -> Leader {
    let mut leader = Leader::new(
        node(23),
        3,
        majority(&[D, E, F]),
        set(&MATCHMAKERS),
        Value::new("z"),
    );
    leader.start();
    let history: History = [
        (round(1, 21), majority(&[A, B, C])),
        (round(2, 22), majority(&[C, D, E])),
    ]
    .into();
    for matchmaker in [11, 12] {
        let reply = MmMessage::MatchB {
            round: round(3, 23),
            history: history.clone(),
            watermark: None,
        };
        leader.handle(&envelope(matchmaker, 23, reply)).unwrap();
    }
    let _ = leader.take_messages();
    leader
}

fn promise(from: u8, to: u8, number: u32) -> MmEnvelope {
    envelope(
        from,
        to,
        MmMessage::Paxos(Message::Promise {
            ballot: round(number, to),
            accepted: None,
        }),
    )
}

#[test]
fn a_leader_waits_for_a_quorum_of_each_configuration_then_accepts_in_its_own() {
    let mut leader = leader_with_two_configurations();
    for from in [D, E, A] {
        leader.handle(&promise(from, 23, 3)).unwrap();
    }
    // {A, D, E}: a quorum of {C, D, E}, and of the union {A..E}, but not of {A, B, C}.
    assert_eq!(leader.stage(), Stage::Phase1);
    assert_eq!(leader.handle(&promise(A, 23, 3)), Err(Ignored::Duplicate));
    assert_eq!(
        leader.handle(&promise(F, 23, 3)),
        Err(Ignored::UnknownSender)
    );
    leader.handle(&promise(B, 23, 3)).unwrap();
    assert_eq!(leader.stage(), Stage::Phase2);
    let accepts: NodeSet = leader.take_messages().iter().map(|e| e.to).collect();
    assert_eq!(accepts, set(&[D, E, F]));
    assert_eq!(leader.proposal(), Some(&Value::new("z")));
}

// ----- M4: garbage collection waits for the value chosen in the round -----

#[test]
fn installed_is_not_collected() {
    // M4 (Matchmaker Paxos, section 5).
    let config = majority(&[A, B, D]);
    assert!(!installed_is_collectable(false, &config, set(&[A, B, D])));
    assert!(!installed_is_collectable(true, &config, set(&[A])));
    assert!(installed_is_collectable(true, &config, set(&[A, D])));
}

/// Round 1 in {A, B, C} chooses x; round 2 in {A, B, D} is started, with every message still in
/// flight.
fn chosen_in_round_one() -> Net {
    let mut net = Net::new();
    net.start_leader(21, 1, majority(&[A, B, C]), "x");
    net.run();
    assert_eq!(net.leader(21).chosen(), Some(&Value::new("x")));
    net.start_leader(22, 2, majority(&[A, B, D]), "y");
    net
}

#[test]
fn a_leader_may_not_collect_before_its_value_is_chosen_in_its_round() {
    let mut net = chosen_in_round_one();
    assert_eq!(
        net.leader(22).collect_garbage(),
        Err(GcRefused::Phase1NotDone)
    );
    // Phase 1 done, but Phase 2's Accepteds are lost.
    net.run_dropping(|e| !matches!(e.message, MmMessage::Paxos(Message::Accepted { .. })));
    assert_eq!(net.leader(22).stage(), Stage::Phase2);
    assert_eq!(
        net.leader(22).collect_garbage(),
        Err(GcRefused::NotChosenInRound)
    );
    assert!(net.leader(22).take_messages().is_empty());
}

// ----- M5: retiring needs the acknowledged watermark -----

#[test]
fn retiring_needs_the_watermark_f_plus_one_matchmakers_acknowledged() {
    let mut net = chosen_in_round_one();
    net.run();
    assert_eq!(net.leader(22).chosen(), Some(&Value::new("x")));
    assert_eq!(
        net.leader(22).retire_removed(),
        Err(GcRefused::NotAcknowledged)
    );
    net.leader(22).collect_garbage().unwrap();
    net.flush_leader(22);
    // One acknowledgement is not f+1.
    net.run_dropping(|e| !touches(e, &[12, 13]));
    assert_eq!(net.leader(22).gc_proof(), None);
    assert_eq!(
        net.leader(22).retire_removed(),
        Err(GcRefused::NotAcknowledged)
    );
    net.leader(22).collect_garbage().unwrap();
    net.flush_leader(22);
    net.run_dropping(|e| !touches(e, &[13]));
    let proof = *net.leader(22).gc_proof().unwrap();
    assert_eq!(proof.watermark(), round(2, 22));
    assert_eq!(proof.remaining(), set(&[A, B, D]));

    // An acceptor that remains refuses the proof; a removed one retires on it.
    let mut kept = RetiringAcceptor::new(node(A));
    let retire = |to| envelope(22, to, MmMessage::Retire { proof });
    assert_eq!(
        kept.handle(&retire(A)),
        Err(RetireRefused::StillInConfiguration)
    );
    assert_eq!(kept.retired(), None);
    let mut removed = RetiringAcceptor::new(node(C));
    assert_eq!(removed.handle(&retire(C)), Ok(None));
    let prepare = MmMessage::Paxos(Message::Prepare {
        ballot: round(3, 23),
    });
    assert_eq!(
        removed.handle(&envelope(23, C, prepare)),
        Err(RetireRefused::Ignored(Ignored::Retired))
    );
}

#[test]
fn acknowledgements_are_counted_once_each_and_only_when_asked() {
    let mut net = chosen_in_round_one();
    net.run();
    let ack = |from| {
        envelope(
            from,
            22,
            MmMessage::GarbageB {
                watermark: round(2, 22),
            },
        )
    };
    assert_eq!(net.leader(22).handle(&ack(11)), Err(Ignored::WrongPhase));
    net.leader(22).collect_garbage().unwrap();
    net.leader(22).handle(&ack(11)).unwrap();
    assert_eq!(net.leader(22).handle(&ack(11)), Err(Ignored::Duplicate));
    assert_eq!(net.leader(22).gc_proof(), None);
    let stale = envelope(
        12,
        22,
        MmMessage::GarbageB {
            watermark: round(1, 21),
        },
    );
    assert_eq!(net.leader(22).handle(&stale), Err(Ignored::StaleBallot));
    assert_eq!(net.leader(22).handle(&ack(14)), Err(Ignored::UnknownSender));
    net.leader(22).handle(&ack(12)).unwrap();
    assert!(net.leader(22).gc_proof().is_some());
}

// ----- End to end -----

#[test]
fn reconfiguring_from_abc_to_abd_chooses_the_same_value_then_retires_c() {
    let mut net = chosen_in_round_one();
    // Round 2's matchmaking, then Phase 1 heard only from {A, B} of the old configuration.
    net.run_dropping(|e| {
        !matches!(e.message, MmMessage::Paxos(Message::Prepare { .. })) || e.to != node(C)
    });
    let leader = net.leader(22);
    assert_eq!(
        leader.history(),
        &History::from([(round(1, 21), majority(&[A, B, C]))])
    );
    assert_eq!(leader.promised_by(), set(&[A, B]));
    assert_eq!(leader.chosen(), Some(&Value::new("x")));
    // Chosen by the first Phase-2 quorum of {A, B, D} to vote.
    assert_eq!(leader.accepted_by(), set(&[A, B]));

    leader.collect_garbage().unwrap();
    net.flush_leader(22);
    net.run();
    assert_eq!(net.leader(22).gc_proof().unwrap().watermark(), round(2, 22));
    net.leader(22).retire_removed().unwrap();
    let retires = net.leader(22).take_messages();
    assert_eq!(retires.len(), 1);
    assert_eq!(retires[0].to, node(C));
    net.in_flight.extend(retires);
    net.run();
    assert!(net.acceptor(C).retired().is_some());
    assert!(net.acceptor(A).retired().is_none());
    for matchmaker in &net.matchmakers {
        assert_eq!(matchmaker.watermark(), Some(round(2, 22)));
        let rounds: Vec<Ballot> = matchmaker.configurations().keys().copied().collect();
        assert_eq!(rounds, vec![round(2, 22)]);
    }

    // Round 3 no longer needs C: its history is round 2 alone, and it finds x there.
    net.start_leader(23, 3, majority(&[A, B, D]), "z");
    net.run();
    let leader = net.leader(23);
    assert_eq!(
        leader.history(),
        &History::from([(round(2, 22), majority(&[A, B, D]))])
    );
    assert_eq!(leader.chosen(), Some(&Value::new("x")));
}

#[test]
fn a_third_round_reads_both_earlier_configurations_when_nothing_is_collected() {
    let mut net = chosen_in_round_one();
    net.run();
    net.start_leader(23, 3, majority(&[D, E, F]), "z");
    // Phase 1 of round 3 hears from {B, D}: a quorum of round 2's {A, B, D}, not of round 1's.
    let prepare_to = |e: &MmEnvelope, nodes: &[u8]| {
        matches!(e.message, MmMessage::Paxos(Message::Prepare { .. })) && touches(e, nodes)
    };
    net.run_dropping(|e| !prepare_to(e, &[A, C]));
    assert_eq!(net.leader(23).history().len(), 2);
    assert_eq!(net.leader(23).promised_by(), set(&[B, D]));
    assert_eq!(net.leader(23).stage(), Stage::Phase1);

    // A's Promise completes a quorum of round 1's configuration too, and brings x.
    let prepare = MmMessage::Paxos(Message::Prepare {
        ballot: round(3, 23),
    });
    net.in_flight.push_back(envelope(23, A, prepare));
    net.run();
    assert_eq!(net.leader(23).chosen(), Some(&Value::new("x")));
}

// ----- Durable matchmakers -----

fn disk_of(net: &Net, id: u8) -> Vec<Vec<u8>> {
    net.disks[&node(id)].clone()
}

#[test]
fn a_matchmaker_restarts_from_its_disk_as_it_was() {
    let mut net = chosen_in_round_one();
    net.run();
    net.leader(22).collect_garbage().unwrap();
    net.flush_leader(22);
    net.run();
    for matchmaker in net.matchmakers.clone() {
        let disk = disk_of(&net, matchmaker.id().get());
        let (restarted, torn) = Matchmaker::restart(matchmaker.id(), &disk).unwrap();
        assert_eq!(torn, 0);
        assert_eq!(restarted, matchmaker);
    }
}

#[test]
fn a_torn_tail_is_dropped_and_a_damaged_frame_is_reported() {
    let mut net = chosen_in_round_one();
    net.run();
    let disk = disk_of(&net, 11);
    assert_eq!(disk.len(), 3, "identity and two rounds");

    let mut torn = disk.clone();
    let last = torn.last_mut().unwrap();
    last.truncate(last.len() - 2);
    let (restarted, dropped) = Matchmaker::restart(node(11), &torn).unwrap();
    assert_eq!(dropped, 1);
    assert_eq!(restarted.configurations().len(), 1);

    let mut flipped = disk.clone();
    *flipped[2].last_mut().unwrap() ^= 1;
    assert_eq!(
        Matchmaker::restart(node(11), &flipped),
        Err(RecordError::Corrupt {
            index: 2,
            reason: "checksum does not match"
        })
    );
    let mut cut_early = disk.clone();
    cut_early[1].truncate(5);
    assert!(matches!(
        Matchmaker::restart(node(11), &cut_early),
        Err(RecordError::Corrupt { index: 1, .. })
    ));
    assert_eq!(Matchmaker::restart(node(11), &[]), Err(RecordError::Blank));
    assert_eq!(
        Matchmaker::restart(node(12), &disk),
        Err(RecordError::WrongIdentity {
            expected: node(12),
            found: node(11)
        })
    );
}

#[test]
fn every_quorum_system_survives_the_disk() {
    let configurations = [
        majority(&[A, B, C]),
        Configuration::new(Quorums::flexible(set(&[A, B, C, D]), 3, 2).unwrap()),
        Configuration::new(
            Quorums::grid(&[vec![node(B), node(A)], vec![node(D), node(C)]]).unwrap(),
        ),
    ];
    for (number, config) in (1..).zip(configurations) {
        let write = MatchmakerWrite::Configuration(round(number, 21), config);
        assert_eq!(decode(&encode(&write)), Ok(write));
    }
    let frame = encode(&MatchmakerWrite::Watermark(round(1, 21)));
    assert!(matches!(
        decode(&frame[..frame.len() - 1]),
        Err(FrameError::Torn(_))
    ));
}

// ----- Whatever a matchmaker is sent -----

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn configuration(choice: u8) -> Configuration {
        match choice % 3 {
            0 => majority(&[A, B, C]),
            1 => majority(&[A, B, D]),
            _ => Configuration::new(Quorums::flexible(set(&[C, D, E, F]), 3, 2).unwrap()),
        }
    }

    proptest! {
        /// M1 and M4 hold whatever a matchmaker is sent, in any order, misaddressed or not: a
        /// round is recorded only above every round stored before and at or above the
        /// watermark, the watermark never falls, nothing below it is kept, and a restart from
        /// the disk rebuilds the same matchmaker.
        #[test]
        fn a_matchmaker_keeps_m1_and_m4_and_its_disk(
            inputs in proptest::collection::vec(
                (any::<bool>(), 0u32..6, 21u8..24, any::<u8>(), 11u8..13),
                0..40,
            )
        ) {
            let mut matchmaker = Matchmaker::new(node(11));
            let mut disk: Vec<Vec<u8>> = Vec::new();
            for (is_match, number, owner, choice, to) in inputs {
                let before = matchmaker.clone();
                let message = if is_match {
                    match_a(number, owner, configuration(choice))
                } else {
                    MmMessage::GarbageA { watermark: round(number, owner) }
                };
                let result = matchmaker.handle(&envelope(owner, to, message));
                let (writes, _) = matchmaker.take_ready();
                disk.extend(writes.iter().map(encode));

                let asked = round(number, owner);
                let recorded = matchmaker.configurations().contains_key(&asked)
                    && !before.configurations().contains_key(&asked);
                if recorded {
                    prop_assert!(result.is_ok());
                    prop_assert!(before.configurations().keys().all(|stored| *stored < asked));
                    prop_assert!(before.watermark() <= Some(asked));
                }
                prop_assert!(matchmaker.watermark() >= before.watermark());
                if let Some(watermark) = matchmaker.watermark() {
                    prop_assert!(matchmaker.configurations().keys().all(|r| *r >= watermark));
                }
                let (restarted, torn) = Matchmaker::restart(node(11), &disk).unwrap();
                prop_assert_eq!(torn, 0);
                prop_assert_eq!(&restarted, &matchmaker);
            }
        }

        /// A leader fed any mix of replies, from anyone, about any round, never panics, never
        /// goes back a stage, and proposes only in Phase 2 and after: the value it sends is
        /// its own or one a Promise reported.
        #[test]
        fn no_input_panics_a_leader(
            inputs in proptest::collection::vec((0u8..6, 1u8..17, 1u32..4, any::<u8>()), 0..60)
        ) {
            let (config, matchmakers) = (majority(&[A, B, D]), set(&MATCHMAKERS));
            let mut leader = Leader::new(node(22), 2, config, matchmakers, Value::new("y"));
            leader.start();
            for (kind, from, number, choice) in inputs {
                let asked = round(number, 22);
                let message = match kind {
                    0 => MmMessage::MatchB {
                        round: asked,
                        history: [(round(1, 21), configuration(choice))].into(),
                        watermark: (choice % 2 == 0).then_some(round(1, 21)),
                    },
                    1 => MmMessage::Paxos(Message::Promise {
                        ballot: asked,
                        accepted: (choice % 2 == 0).then(|| crate::Vote {
                            ballot: round(1, 21),
                            value: Value::new("x"),
                        }),
                    }),
                    2 => MmMessage::Paxos(Message::Accepted {
                        ballot: asked,
                        value: Value::new("x"),
                    }),
                    3 => MmMessage::Paxos(Message::Nack {
                        ballot: asked,
                        promised: round(number, 23),
                    }),
                    4 => MmMessage::GarbageB { watermark: asked },
                    _ => MmMessage::Stop,
                };
                let before = leader.stage();
                let _ = leader.handle(&envelope(from, 22, message));
                let _ = leader.collect_garbage();
                let _ = leader.take_messages();
                prop_assert!(leader.stage() >= before);
                if let Some(proposal) = leader.proposal() {
                    prop_assert!(proposal == &Value::new("x") || proposal == &Value::new("y"));
                }
            }
        }

        /// No disk, however damaged, panics a restart: it rebuilds a matchmaker or names the
        /// frame it cannot trust.
        #[test]
        fn no_disk_panics_a_restart(
            frames in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 0..6)
        ) {
            let _ = Matchmaker::restart(node(11), &frames);
        }
    }
}

#[test]
fn a_damaged_length_of_the_last_round_is_corrupt_never_a_torn_tail() {
    // M1: a flip that raised the last frame's length read as a torn tail, and the matchmaker
    // restarted without the round it had answered.
    let mut net = chosen_in_round_one();
    net.run();
    let disk = disk_of(&net, 11);
    for bit in 0..32 {
        let mut flipped = disk.clone();
        flipped[2][bit / 8] ^= 1 << (bit % 8);
        assert_eq!(
            Matchmaker::restart(node(11), &flipped),
            Err(RecordError::Corrupt {
                index: 2,
                reason: "length checksum does not match"
            }),
            "bit {bit}"
        );
    }
}

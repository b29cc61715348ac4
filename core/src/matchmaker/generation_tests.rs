//! M6: replacing the matchmakers. The first generation is 11–13, the next 14–16; the
//! reconfigurers are nodes 31 and 32.

use super::tests::{A, B, C, D, E, MATCHMAKERS, Net, envelope, majority, node, round, set};
use super::{
    GenerationStage, History, MatchRefused, Matchmaker, MatchmakerWrite, MmEnvelope, MmMessage,
    ReconfigureRefused, Reconfigurer, decode, encode, reconstruct, successor_from_value,
    successor_value, successors_are_new,
};
use crate::{Ignored, Message, NodeSet, Value};

const NEXT: [u8; 3] = [14, 15, 16];

/// x chosen in round 1 by {A, B, C} through the first generation; the next one added, blank.
fn x_chosen_then_new_matchmakers() -> Net {
    let mut net = Net::new();
    net.start_leader(21, 1, majority(&[A, B, C]), "x");
    net.run();
    for id in NEXT {
        net.add_matchmaker(id);
    }
    net
}

#[test]
fn the_successor_set_travels_as_a_value() {
    let next = set(&NEXT);
    assert_eq!(successor_value(next), Value::new("14,15,16"));
    assert_eq!(successor_from_value(&successor_value(next)), Some(next));
    for bad in ["", "14,,15", "14,x", "0", "64"] {
        assert_eq!(successor_from_value(&Value::new(bad)), None, "{bad:?}");
    }
}

#[test]
fn reconstruction_takes_the_highest_watermark_and_the_configurations_above_it() {
    let one: History = [
        (round(1, 21), majority(&[A, B, C])),
        (round(2, 22), majority(&[A, B, D])),
    ]
    .into();
    let other: History = [(round(2, 22), majority(&[A, B, D]))].into();
    let (history, watermark) = reconstruct([(&one, None), (&other, Some(round(2, 22)))]);
    assert_eq!(watermark, Some(round(2, 22)));
    assert_eq!(history, other);
}

#[test]
fn a_stopped_matchmaker_refuses_every_round_and_stays_stopped_after_a_restart() {
    let mut net = x_chosen_then_new_matchmakers();
    let stop = MmEnvelope {
        from: node(31),
        to: node(11),
        message: MmMessage::Stop,
    };
    net.matchmaker(11).handle(&stop).unwrap();
    let (writes, reports) = net.matchmaker(11).take_ready();
    assert_eq!(writes, vec![MatchmakerWrite::Stopped]);
    let stored: History = [(round(1, 21), majority(&[A, B, C]))].into();
    assert_eq!(
        reports[0].message,
        MmMessage::StopB {
            history: stored,
            watermark: None
        }
    );
    let request = MmEnvelope {
        from: node(22),
        to: node(11),
        message: MmMessage::MatchA {
            round: round(9, 22),
            config: majority(&[A, B, D]),
        },
    };
    assert_eq!(
        net.matchmaker(11).handle(&request),
        Err(MatchRefused::Stopped)
    );

    let mut disk = net.disks[&node(11)].clone();
    disk.extend(writes.iter().map(encode));
    let (restarted, _) = Matchmaker::restart(node(11), &disk).unwrap();
    assert!(restarted.stopped());
}

#[test]
fn the_next_generation_is_stopped_reconstructed_bootstrapped_decided_and_published() {
    let mut net = x_chosen_then_new_matchmakers();
    net.start_reconfigurer(31, &MATCHMAKERS, &NEXT);
    net.run();
    let reconfigurer = net.reconfigurer(31);
    assert_eq!(reconfigurer.stage(), GenerationStage::Published);
    assert_eq!(reconfigurer.published(), Some(set(&NEXT)));
    // The decision ran on paros-core's own single-decree proposer, over the old set.
    assert_eq!(
        reconfigurer.proposer().learned(),
        Some(&successor_value(set(&NEXT)))
    );
    for id in MATCHMAKERS {
        assert!(net.matchmaker(id).stopped());
        assert!(net.matchmaker(id).successor_acceptor().accepted().is_some());
    }
    for id in NEXT {
        let configurations = net.matchmaker(id).configurations().clone();
        assert_eq!(
            configurations,
            History::from([(round(1, 21), majority(&[A, B, C]))])
        );
    }

    // A leader of the new generation finds round 1 and x; the old generation refuses it.
    net.start_leader_with(&NEXT, 22, 2, majority(&[A, B, D]), "y");
    net.run();
    assert_eq!(net.leader(22).chosen(), Some(&Value::new("x")));
    net.start_leader(23, 3, majority(&[A, B, D]), "z");
    net.run();
    assert_eq!(net.leader(23).history(), &History::new());
    assert_eq!(net.leader(23).stage(), super::Stage::Matching);
}

#[test]
fn two_reconfigurers_publish_one_successor() {
    let mut net = x_chosen_then_new_matchmakers();
    for id in [17, 18, 19] {
        net.add_matchmaker(id);
    }
    net.start_reconfigurer(31, &MATCHMAKERS, &NEXT);
    net.start_reconfigurer(32, &MATCHMAKERS, &[17, 18, 19]);
    net.run();
    // The second decision's first ballot may be refused by the first's; it retries above.
    for _ in 0..3 {
        for id in [31, 32] {
            if net.reconfigurer(id).published().is_none() {
                net.reconfigurer(id).retry();
                let messages = net.reconfigurer(id).take_messages();
                net.in_flight.extend(messages);
            }
        }
        net.run();
    }
    let first = net.reconfigurer(31).published();
    assert!(first.is_some());
    assert_eq!(net.reconfigurer(32).published(), first);
}

#[test]
fn a_matchmaker_s_vote_on_its_successors_survives_a_restart() {
    let mut net = x_chosen_then_new_matchmakers();
    net.start_reconfigurer(31, &MATCHMAKERS, &NEXT);
    net.run();
    for id in MATCHMAKERS {
        let live = net.matchmaker(id).clone();
        let (restarted, _) = Matchmaker::restart(node(id), &net.disks[&node(id)]).unwrap();
        assert_eq!(restarted, live);
    }
    let vote = MatchmakerWrite::SuccessorVote(round(1, 31), successor_value(set(&NEXT)));
    assert_eq!(decode(&encode(&vote)), Ok(vote));
}

#[test]
fn a_reconfigurer_ignores_what_it_did_not_ask_for() {
    let mut net = x_chosen_then_new_matchmakers();
    net.start_reconfigurer(31, &MATCHMAKERS, &NEXT);
    let early = MmEnvelope {
        from: node(14),
        to: node(31),
        message: MmMessage::BootstrapB,
    };
    assert_eq!(
        net.reconfigurer(31).handle(&early),
        Err(Ignored::WrongPhase)
    );
    let stranger = MmEnvelope {
        from: node(17),
        to: node(31),
        message: MmMessage::StopB {
            history: History::new(),
            watermark: None,
        },
    };
    assert_eq!(
        net.reconfigurer(31).handle(&stranger),
        Err(Ignored::UnknownSender)
    );
    let promise = MmEnvelope {
        from: node(11),
        to: node(31),
        message: MmMessage::Successor(Message::Promise {
            ballot: round(1, 31),
            accepted: None,
        }),
    };
    assert_eq!(
        net.reconfigurer(31).handle(&promise),
        Err(Ignored::WrongPhase)
    );
}

#[test]
fn a_reconfigurer_sends_again_what_was_lost_at_each_stage() {
    let mut net = x_chosen_then_new_matchmakers();
    let is = |kind: fn(&MmMessage) -> bool| move |envelope: &MmEnvelope| !kind(&envelope.message);
    // Every Stop is lost, then every Bootstrap, then every message of the decision.
    net.start_reconfigurer(31, &MATCHMAKERS, &NEXT);
    net.run_dropping(is(|m| matches!(m, MmMessage::Stop)));
    assert_eq!(net.reconfigurer(31).stage(), GenerationStage::Stopping);
    let retry = |net: &mut Net| {
        net.reconfigurer(31).retry();
        let messages = net.reconfigurer(31).take_messages();
        net.in_flight.extend(messages);
    };
    retry(&mut net);
    net.run_dropping(is(|m| matches!(m, MmMessage::Bootstrap { .. })));
    assert_eq!(net.reconfigurer(31).stage(), GenerationStage::Bootstrapping);
    retry(&mut net);
    net.run_dropping(is(|m| matches!(m, MmMessage::Successor(_))));
    assert_eq!(net.reconfigurer(31).stage(), GenerationStage::Deciding);
    retry(&mut net);
    net.run();
    assert_eq!(net.reconfigurer(31).published(), Some(set(&NEXT)));
    // Published, it has nothing to send again.
    retry(&mut net);
    assert!(net.in_flight.is_empty());
}

/// x chosen in round 1 by {A, B, C}; round 2 in {C, D, E}, which removes A and B, matches with
/// the first generation and chooses x; then the first generation is replaced by the next, and
/// only then does round 2 ask for garbage collection, of the stopped matchmakers.
#[cfg(feature = "negative-controls")]
pub(super) fn late_garbage_collection(broken: Option<super::BrokenRule>) -> Net {
    let mut net = x_chosen_then_new_matchmakers();
    if let Some(rule) = broken {
        for matchmaker in &mut net.matchmakers {
            matchmaker.break_rule(rule);
        }
    }
    late_garbage_collection_on(net)
}

fn late_garbage_collection_on(mut net: Net) -> Net {
    net.start_leader(22, 2, majority(&[C, D, E]), "y");
    net.run();
    assert_eq!(net.leader(22).chosen(), Some(&Value::new("x")));
    net.start_reconfigurer(31, &MATCHMAKERS, &NEXT);
    net.run();
    assert_eq!(net.reconfigurer(31).published(), Some(set(&NEXT)));
    net.leader(22).collect_garbage().unwrap();
    net.flush_leader(22);
    net.run();
    if net.leader(22).retire_removed().is_ok() {
        net.flush_leader(22);
        net.run();
    }
    net.start_leader_with(&NEXT, 23, 3, majority(&[C, D, E]), "z");
    net.run();
    net
}

#[test]
fn a_stopped_matchmaker_refuses_garbage_collection() {
    let mut net = x_chosen_then_new_matchmakers();
    let stop = envelope(31, 11, MmMessage::Stop);
    net.matchmaker(11).handle(&stop).unwrap();
    net.matchmaker(11).take_ready();
    let garbage = envelope(
        22,
        11,
        MmMessage::GarbageA {
            watermark: round(2, 22),
        },
    );
    assert_eq!(
        net.matchmaker(11).handle(&garbage),
        Err(MatchRefused::Stopped)
    );
    assert_eq!(net.matchmaker(11).take_ready(), (Vec::new(), Vec::new()));
    assert_eq!(net.matchmaker(11).watermark(), None);
}

#[test]
fn garbage_collection_that_reaches_a_stopped_generation_retires_nobody() {
    // Round 2's GarbageA reaches M1..M3 after they stopped: refused, no proof, A and B stay,
    // and round 3, whose history from the next generation still holds round 1's {A, B, C},
    // completes Phase 1 there and keeps x.
    let mut net = late_garbage_collection_on(x_chosen_then_new_matchmakers());
    assert_eq!(net.leader(22).gc_proof(), None);
    assert!(net.acceptor(A).retired().is_none() && net.acceptor(B).retired().is_none());
    assert_eq!(net.leader(23).history().len(), 2);
    assert_eq!(net.leader(23).chosen(), Some(&Value::new("x")));
}

#[test]
fn a_late_bootstrap_brings_back_nothing_below_the_watermark() {
    let mut net = x_chosen_then_new_matchmakers();
    let history = History::from([(round(1, 21), majority(&[A, B, C]))]);
    let bootstrap = MmMessage::Bootstrap {
        history: history.clone(),
        watermark: None,
    };
    net.matchmaker(14)
        .handle(&envelope(31, 14, bootstrap.clone()))
        .unwrap();
    let garbage = MmMessage::GarbageA {
        watermark: round(2, 22),
    };
    net.matchmaker(14)
        .handle(&envelope(22, 14, garbage))
        .unwrap();
    assert!(net.matchmaker(14).configurations().is_empty());
    let (mut writes, _) = net.matchmaker(14).take_ready();
    // The same Bootstrap again, late: acknowledged, and round 1 stays collected.
    net.matchmaker(14)
        .handle(&envelope(31, 14, bootstrap))
        .unwrap();
    assert!(net.matchmaker(14).configurations().is_empty());
    let (late, replies) = net.matchmaker(14).take_ready();
    assert_eq!(late, Vec::new());
    assert_eq!(replies[0].message, MmMessage::BootstrapB);
    // A disk that holds a configuration written after the watermark (by an older build) is
    // read back without it.
    writes.push(MatchmakerWrite::Configuration(
        round(1, 21),
        majority(&[A, B, C]),
    ));
    let mut disk = net.disks[&node(14)].clone();
    disk.extend(writes.iter().map(encode));
    let (restarted, _) = Matchmaker::restart(node(14), &disk).unwrap();
    assert!(restarted.configurations().is_empty());
    assert_eq!(restarted.watermark(), Some(round(2, 22)));
}

#[test]
fn a_bootstrap_takes_its_watermark_before_its_configurations() {
    let mut net = x_chosen_then_new_matchmakers();
    let history = History::from([
        (round(1, 21), majority(&[A, B, C])),
        (round(2, 22), majority(&[C, D, E])),
    ]);
    let bootstrap = MmMessage::Bootstrap {
        history,
        watermark: Some(round(2, 22)),
    };
    net.matchmaker(14)
        .handle(&envelope(31, 14, bootstrap))
        .unwrap();
    let (writes, _) = net.matchmaker(14).take_ready();
    assert_eq!(
        writes,
        vec![
            MatchmakerWrite::Watermark(round(2, 22)),
            MatchmakerWrite::Configuration(round(2, 22), majority(&[C, D, E])),
        ]
    );
}

#[test]
fn a_reconfiguration_to_a_set_that_shares_a_matchmaker_is_refused() {
    let shared = Reconfigurer::new(node(31), set(&MATCHMAKERS), set(&[12, 13, 14]));
    assert_eq!(
        shared,
        Err(ReconfigureRefused::SharedMatchmakers(set(&[12, 13])))
    );
    assert_eq!(
        successors_are_new(set(&MATCHMAKERS), set(&[13, 14, 15])),
        Err(ReconfigureRefused::SharedMatchmakers(set(&[13])))
    );
    assert_eq!(successors_are_new(set(&MATCHMAKERS), set(&NEXT)), Ok(()));
    assert_eq!(
        Reconfigurer::new(node(31), NodeSet::EMPTY, set(&NEXT)),
        Err(ReconfigureRefused::NoOldMatchmakers)
    );
    assert_eq!(
        Reconfigurer::new(node(31), set(&MATCHMAKERS), NodeSet::EMPTY),
        Err(ReconfigureRefused::NoNewMatchmakers)
    );
}

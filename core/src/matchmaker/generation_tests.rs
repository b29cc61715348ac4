//! M6: replacing the matchmakers. The first generation is 11–13, the next 14–16; the
//! reconfigurers are nodes 31 and 32.

use super::tests::{A, B, C, D, MATCHMAKERS, Net, majority, node, round, set};
use super::{
    GenerationStage, History, MatchRefused, Matchmaker, MatchmakerWrite, MmEnvelope, MmMessage,
    decode, encode, reconstruct, successor_from_value, successor_value,
};
use crate::{Ignored, Message, Value};

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
    let mut retry = |net: &mut Net| {
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

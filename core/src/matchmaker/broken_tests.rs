//! The negative controls: each broken rule produces exactly its bad behaviour, and the honest
//! rule, in the same schedule, does not.

use super::tests::{A, B, C, D, E, F, MATCHMAKERS, Net, envelope, majority, round, set, touches};
use super::{BrokenRule, GcRefused, MatchRefused, MmEnvelope, MmMessage, Stage};
use crate::{Message, Value};

/// Round 2 in {D, E, F} chooses x with an empty history; then round 1 in {A, B, C}, wanting y,
/// is started.
fn higher_round_first(broken: bool) -> Net {
    let mut net = Net::new();
    if broken {
        for matchmaker in &mut net.matchmakers {
            matchmaker.break_rule(BrokenRule::NoLowerRoundCheck);
        }
    }
    net.start_leader(22, 2, majority(&[D, E, F]), "x");
    net.run();
    assert_eq!(net.leader(22).chosen(), Some(&Value::new("x")));
    net.start_leader(21, 1, majority(&[A, B, C]), "y");
    net
}

#[test]
fn no_lower_round_check_lets_a_lower_round_choose_another_value() {
    // M1 dropped: round 1's history misses round 2's configuration, so y is chosen in {A, B, C}
    // after x was chosen in {D, E, F}.
    let mut net = higher_round_first(true);
    net.run();
    assert!(net.leader(21).history().is_empty());
    assert_eq!(net.leader(21).chosen(), Some(&Value::new("y")));
}

#[test]
fn with_the_lower_round_check_a_lower_round_is_refused_everywhere() {
    let mut net = higher_round_first(false);
    let requests: Vec<MmEnvelope> = net.in_flight.drain(..).collect();
    for request in &requests {
        let index = net
            .matchmakers
            .iter()
            .position(|m| m.id() == request.to)
            .unwrap();
        assert_eq!(
            net.matchmakers[index].handle(request),
            Err(MatchRefused::RoundNotAbove {
                round: round(1, 21),
                highest: round(2, 22)
            })
        );
    }
    assert_eq!(net.leader(21).stage(), Stage::Matching);
}

/// x chosen in round 1 by {A, B, C}; round 2 in {C, D, E} matched, its Phase 1 done with
/// Promises only from {A, B} (it learned x), but it sends nothing more; round 3 in
/// {D, E, F}, wanting z, then hears only from {D, E, F}.
fn stalled_round_two_then_three(broken: bool) -> Net {
    let mut net = Net::new();
    net.start_leader(21, 1, majority(&[A, B, C]), "x");
    net.run();
    net.start_leader(22, 2, majority(&[C, D, E]), "y");
    // Round 2's Phase 2 is lost: Accepts never arrive.
    net.run_dropping(|e| !matches!(e.message, MmMessage::Paxos(Message::Accept { .. })));
    assert_eq!(net.leader(22).proposal(), Some(&Value::new("x")));
    net.start_leader(23, 3, majority(&[D, E, F]), "z");
    if broken {
        net.leader(23).break_rule(BrokenRule::Phase1LatestOnly);
    }
    // Every acceptor but D, E and F is slow: round 3's Phase 1 hears from them alone.
    net.run_dropping(|e| !touches(e, &[A, B, C]));
    net
}

#[test]
fn phase1_latest_only_chooses_a_second_value() {
    // M3 dropped: {D, E} is a quorum of round 2's {C, D, E}, the newest configuration, so the
    // leader never hears of x, chosen in round 1's {A, B, C}, and chooses z.
    let net = &mut stalled_round_two_then_three(true);
    assert_eq!(net.leader(23).history().len(), 2);
    assert_eq!(net.leader(23).chosen(), Some(&Value::new("z")));
}

#[test]
fn with_a_quorum_of_every_configuration_phase1_waits_for_round_one() {
    let net = &mut stalled_round_two_then_three(false);
    assert_eq!(net.leader(23).stage(), Stage::Phase1);
    assert_eq!(net.leader(23).chosen(), None);
}

/// x chosen in round 1 by {A, B, C}; round 2 in {D, E, F} finishes Phase 1 (it learns x) but
/// its Accepts are lost; it asks for garbage collection if it may. Round 3 in {D, E, F},
/// wanting z, follows.
fn collect_after_phase1(broken: bool) -> (Net, Result<(), GcRefused>) {
    let mut net = Net::new();
    net.start_leader(21, 1, majority(&[A, B, C]), "x");
    net.run();
    net.start_leader(22, 2, majority(&[D, E, F]), "y");
    if broken {
        net.leader(22).break_rule(BrokenRule::GcAfterPhase1);
    }
    net.run_dropping(|e| !matches!(e.message, MmMessage::Paxos(Message::Accept { .. })));
    assert_eq!(net.leader(22).stage(), Stage::Phase2);
    let asked = net.leader(22).collect_garbage();
    net.flush_leader(22);
    net.run();
    net.start_leader(23, 3, majority(&[D, E, F]), "z");
    net.run();
    (net, asked)
}

#[test]
fn gc_after_phase1_forgets_the_configuration_that_chose() {
    // M4 dropped: round 1's {A, B, C} is collected before x is chosen in round 2's
    // configuration, so round 3 reads only {D, E, F}, where nothing was voted, and chooses z.
    let (mut net, asked) = collect_after_phase1(true);
    assert_eq!(asked, Ok(()));
    assert_eq!(net.leader(23).history().len(), 1);
    assert_eq!(net.leader(23).chosen(), Some(&Value::new("z")));
}

#[test]
fn installed_is_not_collected_so_round_three_finds_x() {
    let (mut net, asked) = collect_after_phase1(false);
    assert_eq!(asked, Err(GcRefused::NotChosenInRound));
    assert_eq!(net.leader(23).history().len(), 2);
    assert_eq!(net.leader(23).chosen(), Some(&Value::new("x")));
}

#[test]
fn a_broken_rule_is_one_role_s_alone() {
    // The broken matchmaker refuses nothing lower; an honest one beside it still refuses.
    let mut net = higher_round_first(false);
    net.matchmakers[0].break_rule(BrokenRule::NoLowerRoundCheck);
    net.run();
    assert_eq!(net.leader(21).stage(), Stage::Matching);
    assert_eq!(net.matchmakers[0].configurations().len(), 2);
    assert_eq!(net.matchmakers[1].configurations().len(), 1);
}

/// Round 1 in {A, B, C} matched but chose nothing (its leader stopped after matchmaking); a
/// reconfigurer stops the first generation, but before it bootstraps the next, a leader of
/// round 2 in {D, E, F}, wanting x, matches with the first generation. Then the next generation
/// is bootstrapped and published, and round 3 in {A, B, C}, wanting z, matches with it.
fn match_during_replacement(broken: bool) -> Net {
    let next = [14, 15, 16];
    let mut net = Net::new();
    for id in next {
        net.add_matchmaker(id);
    }
    if broken {
        for matchmaker in &mut net.matchmakers {
            matchmaker.break_rule(BrokenRule::NoStop);
        }
    }
    net.start_leader(21, 1, majority(&[A, B, C]), "w");
    net.run_dropping(|e| matches!(e.message, MmMessage::MatchA { .. }));
    net.start_reconfigurer(31, &MATCHMAKERS, &next);
    // The stop reports arrive; the Bootstraps are lost.
    net.run_dropping(|e| !matches!(e.message, MmMessage::Bootstrap { .. }));
    net.start_leader(22, 2, majority(&[D, E, F]), "x");
    net.run();
    // Bootstrap the next generation again, from the state reconstructed before round 2.
    let (history, watermark) = net.reconfigurer(31).reconstructed().unwrap().clone();
    for id in next {
        let bootstrap = MmMessage::Bootstrap {
            history: history.clone(),
            watermark,
        };
        net.in_flight.push_back(envelope(31, id, bootstrap));
    }
    net.run();
    assert_eq!(net.reconfigurer(31).published(), Some(set(&next)));
    net.start_leader_with(&next, 23, 3, majority(&[A, B, C]), "z");
    net.run();
    net
}

#[test]
fn no_stop_lets_a_round_slip_past_the_next_generation() {
    // M6 dropped: round 2 is recorded by the old generation after its state was taken, so the
    // next generation never hears of {D, E, F}, where x is chosen, and round 3 chooses z.
    let mut net = match_during_replacement(true);
    assert_eq!(net.leader(22).chosen(), Some(&Value::new("x")));
    assert_eq!(net.leader(23).history().len(), 1);
    assert_eq!(net.leader(23).chosen(), Some(&Value::new("z")));
}

#[test]
fn a_stopped_generation_refuses_the_round_that_would_slip_past() {
    let mut net = match_during_replacement(false);
    assert_eq!(net.leader(22).stage(), Stage::Matching);
    assert_eq!(net.leader(23).chosen(), Some(&Value::new("z")));
}

#[test]
fn stopped_matchmakers_that_collect_leave_every_later_leader_waiting_in_phase1() {
    // M4/M6 dropped: the stopped first generation acknowledges round 2's late GarbageA, the
    // proof retires A and B, and the next generation still hands round 3 round 1's {A, B, C}:
    // only C can promise there, so round 3 waits in Phase 1 for ever.
    let mut net =
        super::generation_tests::late_garbage_collection(Some(BrokenRule::StoppedCollects));
    assert!(net.leader(22).gc_proof().is_some());
    assert!(net.acceptor(A).retired().is_some() && net.acceptor(B).retired().is_some());
    assert_eq!(net.leader(23).stage(), Stage::Phase1);
    assert!(net.in_flight.is_empty());
    let honest = super::generation_tests::late_garbage_collection(None)
        .leader(23)
        .stage();
    assert_eq!(honest, Stage::Chosen);
}

#[test]
fn a_bootstrap_below_the_watermark_brings_a_collected_round_back() {
    let mut net = Net::new();
    net.add_matchmaker(14);
    net.matchmaker(14)
        .break_rule(BrokenRule::BootstrapBelowWatermark);
    let garbage = MmMessage::GarbageA {
        watermark: round(2, 22),
    };
    net.matchmaker(14)
        .handle(&envelope(22, 14, garbage))
        .unwrap();
    let bootstrap = MmMessage::Bootstrap {
        history: [(round(1, 21), majority(&[A, B, C]))].into(),
        watermark: None,
    };
    net.matchmaker(14)
        .handle(&envelope(31, 14, bootstrap))
        .unwrap();
    assert!(
        net.matchmaker(14)
            .configurations()
            .contains_key(&round(1, 21))
    );
}

//! Conformance tests for single-decree Paxos; each names the rule it checks and where the rule
//! comes from.

use crate::{
    Acceptor, Ballot, Envelope, Flexible, Ignored, Majority, Message, NodeId, NodeSet, Phase,
    Proposer, QuorumError, QuorumSystem, Quorums, Value, Vote, promise_rule, select_value,
    vote_rule,
};
use proptest::prelude::*;

fn node(id: u8) -> NodeId {
    NodeId::new(id).unwrap()
}

fn ballot(round: u32, owner: u8) -> Ballot {
    Ballot::new(round, node(owner))
}

fn three_acceptors() -> Majority {
    Majority::new([1, 2, 3].map(node).into_iter().collect()).unwrap()
}

fn vote(round: u32, owner: u8, value: &str) -> Vote {
    Vote {
        ballot: ballot(round, owner),
        value: Value::new(value),
    }
}

#[test]
fn ballots_order_by_round_then_node() {
    // The Part-Time Parliament, 2.2: ballot numbers are totally ordered and each proposer
    // owns its own.
    assert!(ballot(1, 5) < ballot(2, 4));
    assert!(ballot(2, 4) < ballot(2, 5));
    assert_eq!(
        Ballot::next_above(ballot(3, 5), node(4)),
        Some(ballot(4, 4))
    );
    assert_eq!(Ballot::next_above(ballot(u32::MAX, 1), node(4)), None);
}

#[test]
fn promise_rule_is_strictly_greater() {
    // Paxos Made Simple, phase 1(b): promise only a number greater than any promised.
    assert!(promise_rule(None, ballot(1, 4)));
    assert!(promise_rule(Some(ballot(1, 4)), ballot(1, 5)));
    assert!(!promise_rule(Some(ballot(1, 4)), ballot(1, 4)));
    assert!(!promise_rule(Some(ballot(2, 4)), ballot(1, 5)));
}

#[test]
fn vote_rule_is_at_least() {
    // Paxos Made Simple, phase 2(b): accept unless a higher number was promised.
    assert!(vote_rule(None, ballot(1, 4)));
    assert!(vote_rule(Some(ballot(1, 4)), ballot(1, 4)));
    assert!(!vote_rule(Some(ballot(1, 5)), ballot(1, 4)));
}

#[test]
fn acceptor_promise_reports_its_vote() {
    let mut acceptor = Acceptor::new(node(1));
    acceptor.on_prepare(node(4), ballot(1, 4));
    acceptor.on_accept(node(4), ballot(1, 4), Value::new("x"));
    let reply = acceptor.on_prepare(node(5), ballot(1, 5));
    assert_eq!(
        reply,
        Envelope {
            from: node(1),
            to: node(5),
            message: Message::Promise {
                ballot: ballot(1, 5),
                accepted: Some(vote(1, 4, "x")),
            },
        }
    );
}

#[test]
fn acceptor_refuses_below_its_promise_and_names_it() {
    let mut acceptor = Acceptor::new(node(1));
    acceptor.on_prepare(node(5), ballot(1, 5));
    let nack = Message::Nack {
        ballot: ballot(1, 4),
        promised: ballot(1, 5),
    };
    assert_eq!(acceptor.on_prepare(node(4), ballot(1, 4)).message, nack);
    assert_eq!(
        acceptor
            .on_accept(node(4), ballot(1, 4), Value::new("x"))
            .message,
        nack
    );
    assert_eq!(acceptor.accepted(), None, "a refused Accept leaves no vote");
}

#[test]
fn duplicate_prepare_is_refused_and_its_nack_ignored() {
    // The promise rule is `>`: a duplicate Prepare is refused, and the proposer ignores a Nack
    // that names its own ballot.
    let mut acceptor = Acceptor::new(node(1));
    let mut proposer = Proposer::new(node(4), three_acceptors(), Value::new("x"));
    proposer.start();
    acceptor.on_prepare(node(4), ballot(1, 4));
    let again = acceptor.on_prepare(node(4), ballot(1, 4));
    assert!(matches!(again.message, Message::Nack { .. }));
    assert_eq!(proposer.handle(&again), Err(Ignored::NackNotHigher));
}

#[test]
fn p2c_takes_the_highest_ballot_vote() {
    // Paxos Made Simple, P2c: the value of the highest-numbered proposal among the promises.
    let own = Value::new("y");
    let low = vote(1, 4, "x");
    let high = vote(3, 6, "z");
    assert_eq!(select_value([None, None], &own), own);
    assert_eq!(select_value([Some(&low), None], &own).as_str(), "x");
    assert_eq!(select_value([Some(&low), Some(&high)], &own).as_str(), "z");
    assert_eq!(select_value([Some(&high), Some(&low)], &own).as_str(), "z");
}

#[test]
fn proposer_runs_both_phases_and_learns() {
    let mut proposer = Proposer::new(node(4), three_acceptors(), Value::new("x"));
    let prepares = proposer.start();
    assert_eq!(prepares.len(), 3);
    assert_eq!(
        proposer.on_promise(node(1), ballot(1, 4), None),
        Ok(Vec::new())
    );
    assert_eq!(
        proposer.on_promise(node(1), ballot(1, 4), None),
        Err(Ignored::Duplicate)
    );
    let accepts = proposer
        .on_promise(node(2), ballot(1, 4), Some(vote(0, 5, "w")))
        .unwrap();
    assert_eq!(accepts.len(), 3);
    assert_eq!(
        proposer.proposal().map(Value::as_str),
        Some("w"),
        "P2c adopts w"
    );
    assert_eq!(proposer.on_accepted(node(3), ballot(1, 4)), Ok(None));
    assert_eq!(
        proposer
            .on_accepted(node(1), ballot(1, 4))
            .unwrap()
            .unwrap()
            .as_str(),
        "w"
    );
    assert_eq!(proposer.phase(), Phase::Learned);
}

#[test]
fn proposer_ignores_strangers_and_stale_ballots() {
    let mut proposer = Proposer::new(node(4), three_acceptors(), Value::new("x"));
    assert_eq!(
        proposer.on_promise(node(1), ballot(1, 4), None),
        Err(Ignored::NotStarted)
    );
    proposer.start();
    assert_eq!(
        proposer.on_promise(node(9), ballot(1, 4), None),
        Err(Ignored::UnknownSender)
    );
    assert_eq!(
        proposer.on_promise(node(1), ballot(2, 4), None),
        Err(Ignored::StaleBallot)
    );
    assert_eq!(
        proposer.on_accepted(node(1), ballot(1, 4)),
        Err(Ignored::WrongPhase)
    );
}

#[test]
fn retry_goes_above_the_refusal() {
    let mut proposer = Proposer::new(node(4), three_acceptors(), Value::new("x"));
    proposer.start();
    proposer
        .on_nack(node(1), ballot(1, 4), ballot(3, 5))
        .unwrap();
    proposer.retry();
    assert_eq!(proposer.ballot(), Some(ballot(4, 4)));
    assert!(
        proposer.promises().is_empty(),
        "promises of an old ballot do not count"
    );
}

#[test]
fn quorum_systems_keep_the_intersection_invariant() {
    // Flexible Paxos, section 3: q1 + q2 > n is exactly what keeps the phases intersecting.
    let four: NodeSet = [1, 2, 3, 4].map(node).into_iter().collect();
    assert!(three_acceptors().intersects());
    assert!(Flexible::new(four, 3, 2).unwrap().intersects());
    assert!(
        Flexible::new(four, 2, 2).is_err(),
        "2 + 2 is not more than 4"
    );
    let flexible = Flexible::new(four, 3, 2).unwrap();
    let pair: NodeSet = [1, 2].map(node).into_iter().collect();
    assert!(flexible.is_phase2_quorum(pair) && !flexible.is_phase1_quorum(pair));
}

#[test]
fn phases_that_miss_each_other_are_refused_with_two_disjoint_quorums() {
    // F1: with q1 = q2 = 2 over four acceptors, {n1, n2} may elect while {n3, n4} choose.
    let four: NodeSet = [1, 2, 3, 4].map(node).into_iter().collect();
    let error = Flexible::new(four, 2, 2).unwrap_err();
    let elects: NodeSet = [1, 2].map(node).into_iter().collect();
    let chooses: NodeSet = [3, 4].map(node).into_iter().collect();
    assert_eq!(error, QuorumError::PhasesMiss { elects, chooses });
    assert_eq!(
        error.to_string(),
        "the phases miss each other (F1): {N1, N2} elects and {N3, N4} chooses, with no \
         acceptor in both"
    );
    assert_eq!(Quorums::flexible(four, 2, 2), Err(error));
}

#[test]
fn quorum_sizes_outside_the_acceptors_are_refused() {
    let four: NodeSet = [1, 2, 3, 4].map(node).into_iter().collect();
    assert_eq!(
        Flexible::new(four, 0, 4),
        Err(QuorumError::SizeOutOfRange {
            phase: 1,
            size: 0,
            acceptors: 4
        })
    );
    assert_eq!(
        Flexible::new(four, 4, 5),
        Err(QuorumError::SizeOutOfRange {
            phase: 2,
            size: 5,
            acceptors: 4
        })
    );
    assert_eq!(
        Flexible::new(NodeSet::EMPTY, 1, 1),
        Err(QuorumError::NoAcceptors)
    );
    assert_eq!(
        Quorums::majority(NodeSet::EMPTY),
        Err(QuorumError::NoAcceptors)
    );
}

#[test]
fn every_flexible_system_up_to_five_acceptors_is_built_exactly_when_its_phases_meet() {
    // Flexible Paxos, section 3: the sizes that build are exactly those with q1 + q2 > n, each
    // one intersects, and each refusal names a Phase-1-sized and a Phase-2-sized set of the
    // acceptors that share no acceptor.
    for n in 1..=5u8 {
        let acceptors: NodeSet = (1..=n).map(node).collect();
        let n = usize::from(n);
        for q1 in 0..=n + 1 {
            for q2 in 0..=n + 1 {
                let valid = (1..=n).contains(&q1) && (1..=n).contains(&q2) && q1 + q2 > n;
                match Flexible::new(acceptors, q1, q2) {
                    Ok(flexible) => {
                        assert!(valid, "n={n} q1={q1} q2={q2} was built");
                        assert!(flexible.intersects(), "n={n} q1={q1} q2={q2}");
                        assert!(Quorums::from(flexible).intersects());
                    }
                    Err(QuorumError::PhasesMiss { elects, chooses }) => {
                        assert!(!valid, "n={n} q1={q1} q2={q2} was refused");
                        assert!(elects.len() >= q1 && chooses.len() >= q2);
                        assert!(elects.is_subset(acceptors) && chooses.is_subset(acceptors));
                        assert!(elects.intersection(chooses).is_empty());
                    }
                    Err(other) => {
                        assert!(!valid, "n={n} q1={q1} q2={q2}: {other}");
                        assert!(matches!(other, QuorumError::SizeOutOfRange { .. }));
                    }
                }
            }
        }
    }
}

#[test]
fn the_quorums_a_log_holds_answer_as_the_system_they_wrap() {
    let four: NodeSet = [1, 2, 3, 4].map(node).into_iter().collect();
    let majority = Quorums::majority(four).unwrap();
    assert_eq!((majority.phase1_size(), majority.phase2_size()), (3, 3));
    let flexible = Quorums::flexible(four, 3, 2).unwrap();
    assert_eq!((flexible.phase1_size(), flexible.phase2_size()), (3, 2));
    let pair: NodeSet = [3, 4].map(node).into_iter().collect();
    assert!(flexible.is_phase2_quorum(pair) && !flexible.is_phase1_quorum(pair));
    assert!(!majority.is_phase2_quorum(pair));
    assert_eq!(flexible.acceptors(), four);
}

#[test]
fn node_ids_reject_zero_and_overflow() {
    assert_eq!(NodeId::new(0), None);
    assert_eq!(NodeId::new(64), None);
    assert_eq!(NodeId::new(63).map(NodeId::get), Some(63));
}

proptest! {
    /// An acceptor's promise never decreases and its vote never rises above its promise,
    /// whatever it is sent (the invariants on `Acceptor`'s fields).
    #[test]
    fn acceptor_invariants_hold(inputs in proptest::collection::vec((any::<bool>(), 0u32..5, 4u8..7), 0..40)) {
        let mut acceptor = Acceptor::new(node(1));
        for (is_prepare, round, owner) in inputs {
            let before = acceptor.promised();
            let asked = ballot(round, owner);
            if is_prepare {
                acceptor.on_prepare(node(owner), asked);
            } else {
                acceptor.on_accept(node(owner), asked, Value::new("v"));
            }
            prop_assert!(acceptor.promised() >= before);
            if let Some(vote) = acceptor.accepted() {
                prop_assert!(Some(vote.ballot) <= acceptor.promised());
            }
        }
    }

    /// P2c never invents a value: the selection is a reported value or the proposer's own.
    #[test]
    fn p2c_selects_a_reported_or_own_value(reports in proptest::collection::vec(proptest::option::of((0u32..6, 4u8..7)), 0..5)) {
        let votes: Vec<Option<Vote>> = reports
            .iter()
            .map(|report| report.map(|(round, owner)| vote(round, owner, &format!("v{round}.{owner}"))))
            .collect();
        let own = Value::new("own");
        let chosen = select_value(votes.iter().map(Option::as_ref), &own);
        let highest = votes.iter().flatten().max_by_key(|vote| vote.ballot);
        match highest {
            Some(vote) => prop_assert_eq!(chosen, vote.value.clone()),
            None => prop_assert_eq!(chosen, own),
        }
    }
}

//! Adversarial schedules for Matchmaker Paxos's generations (M6), over the network of
//! [`tests`](super::tests): every message waits in flight until the schedule delivers it.

use super::tests::{A, B, C, D, MATCHMAKERS, Net, majority, node, set};
use super::{GenerationStage, MatchRefused, MmEnvelope, MmMessage, ReconfigureRefused, Stage};
use crate::Value;

const NEXT: [u8; 3] = [14, 15, 16];

/// Liveness (M6): a reconfiguration back to an earlier generation. Holding the new set against
/// the current one only, {11,12,13} -> {14,15,16} -> {11,12,13} was taken: the matchmakers
/// 11–13, stopped by the first change, acknowledged the second change's Bootstrap, the set was
/// published and then refused every MatchA, and every later leader waited in Matching for ever.
/// Now the second change is built from the first ([`Reconfigurer::next`]), which knows 11–13
/// served, and is refused before it stops 14–16 ([`successors_are_new`]); a leader of round 3
/// matches with 14–16 and finds x.
///
/// Schedule: x chosen in round 1 by {A, B, C} through 11–13; R31 replaces 11–13 by 14–16 (stop,
/// bootstrap, decide, publish, every message delivered); R32 is asked to replace 14–16 by
/// 11–13; a leader of round 3 over {A, B, D} matches with the published 14–16.
///
/// [`Reconfigurer::next`]: super::Reconfigurer::next
/// [`successors_are_new`]: super::successors_are_new
#[test]
fn a_reconfiguration_back_to_a_stopped_generation_stalls_every_leader() {
    let mut net = Net::new();
    net.start_leader(21, 1, majority(&[A, B, C]), "x");
    net.run();
    for id in NEXT {
        net.add_matchmaker(id);
    }
    net.start_reconfigurer(31, &MATCHMAKERS, &NEXT);
    net.run();
    let first = net.reconfigurer(31);
    assert_eq!(first.published(), Some(set(&NEXT)));
    assert_eq!(
        first.next(node(32), set(&MATCHMAKERS)).err(),
        Some(ReconfigureRefused::SharedMatchmakers(set(&MATCHMAKERS)))
    );
    assert!(net.in_flight.is_empty(), "nothing was stopped");
    net.start_leader_with(&NEXT, 23, 3, majority(&[A, B, D]), "z");
    net.run();
    assert_eq!(
        net.leader(23).stage(),
        Stage::Chosen,
        "the leader of the published generation is stuck"
    );
    assert_eq!(net.leader(23).chosen(), Some(&Value::new("x")));
}

/// M6 (`bootstrap_rule`): a reconfigurer that does not know 11–13 served (built with
/// [`Reconfigurer::new`](super::Reconfigurer::new) over 14–16) stops 14–16, but stopped 11–13
/// refuse its Bootstrap, so it never publishes them; before the rule they acknowledged and the
/// set was published.
#[test]
fn a_stopped_matchmaker_acknowledges_no_bootstrap() {
    let mut net = Net::new();
    net.start_leader(21, 1, majority(&[A, B, C]), "x");
    net.run();
    for id in NEXT {
        net.add_matchmaker(id);
    }
    net.start_reconfigurer(31, &MATCHMAKERS, &NEXT);
    net.run();
    net.start_reconfigurer(32, &NEXT, &MATCHMAKERS);
    net.run();
    let second = net.reconfigurer(32);
    assert_eq!(second.stage(), GenerationStage::Bootstrapping);
    assert_eq!(second.published(), None);
    let stopped = net.matchmaker(11);
    assert!(stopped.stopped());
    let bootstrap = MmEnvelope {
        from: node(32),
        to: node(11),
        message: MmMessage::Bootstrap {
            history: Default::default(),
            watermark: None,
        },
    };
    assert_eq!(stopped.handle(&bootstrap), Err(MatchRefused::Stopped));
    assert_eq!(stopped.take_ready(), (vec![], vec![]));
}

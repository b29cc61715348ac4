//! Adversarial schedules for Matchmaker Paxos's generations (M6), over the network of
//! [`tests`](super::tests): every message waits in flight until the schedule delivers it.

use super::tests::{A, B, C, D, MATCHMAKERS, Net, majority, set};
use super::{GenerationStage, Stage};
use crate::Value;

const NEXT: [u8; 3] = [14, 15, 16];

/// Liveness (M6): a reconfiguration back to an earlier generation. `successors_are_new` holds
/// the new set against the old one only, so {11,12,13} -> {14,15,16} -> {11,12,13} is taken;
/// the matchmakers 11–13, stopped by the first change, stay stopped for ever, yet acknowledge
/// the second change's Bootstrap, so the set is published and then refuses every MatchA: every
/// later leader waits in Matching for ever, with no message lost. (Bug 8 again, two hops
/// apart.)
///
/// Schedule: x chosen in round 1 by {A, B, C} through 11–13; R31 replaces 11–13 by 14–16 (stop,
/// bootstrap, decide, publish, every message delivered); R32 replaces 14–16 by 11–13 the same
/// way; a leader of round 3 over {A, B, D} matches with the published 11–13.
#[test]
#[ignore = "M6: a reconfiguration back to an earlier, stopped generation is published and refuses every round"]
fn a_reconfiguration_back_to_a_stopped_generation_stalls_every_leader() {
    let mut net = Net::new();
    net.start_leader(21, 1, majority(&[A, B, C]), "x");
    net.run();
    for id in NEXT {
        net.add_matchmaker(id);
    }
    net.start_reconfigurer(31, &MATCHMAKERS, &NEXT);
    net.run();
    assert_eq!(net.reconfigurer(31).published(), Some(set(&NEXT)));
    net.start_reconfigurer(32, &NEXT, &MATCHMAKERS);
    net.run();
    let second = net.reconfigurer(32);
    assert_eq!(second.stage(), GenerationStage::Published);
    assert_eq!(second.published(), Some(set(&MATCHMAKERS)));
    net.start_leader_with(&MATCHMAKERS, 23, 3, majority(&[A, B, D]), "z");
    net.run();
    assert_eq!(
        net.leader(23).stage(),
        Stage::Chosen,
        "the leader of the published generation is stuck"
    );
    assert_eq!(net.leader(23).chosen(), Some(&Value::new("x")));
}

//! Act IV's `act4/the-handoff`: N2 takes N1's ballot with no Phase 1, finishes the command in
//! flight and chooses a new one at the same ballot; each question's right answer is paros-core's
//! own (N1's disk, `successor_may_propose`, `hand_off` on a copy), each wrong one is refused
//! without touching the world, and a Phase 1 fails the goal.

use paros_core::Ballot;
use paros_core::log::{HandoffRefused, LogRole, Slot, successor_may_propose};
use paros_play::{Game, Goal, PromptKind, levels};
use paros_sim::replicated_log::LogWorld;

use super::{mount_log, node, play, play_to_answer, refused, role};

const ID: &str = "act4/the-handoff";

fn mount() -> Game<LogWorld> {
    mount_log(ID)
}

fn handed() -> Ballot {
    Ballot::new(1, node(1))
}

#[test]
fn the_level_is_listed_in_act4_after_quorum_reads_with_one_handoff() {
    // The level map's order: the quorum systems, then reads at a follower, then the handoff.
    let ids: Vec<&str> = levels::ACT4.iter().map(|level| level.id).collect();
    let reads = ids.iter().position(|id| *id == "act4/quorum-reads");
    assert_eq!(ids.iter().position(|id| *id == ID), reads.map(|at| at + 1));
    let game = mount();
    assert_eq!(game.world().handoffs_left(), 1);
    assert_eq!(role(&game, 1), Some(LogRole::Leader));
    assert_eq!(game.goal(), Goal::Open);
}

#[test]
fn the_first_question_is_judged_by_n1s_disk_and_nothing_is_refused() {
    let mut game = mount();
    play_to_answer(&mut game, 0);
    let prompt = game.prompt().expect("the disk question").clone();
    assert_eq!(prompt.kind, PromptKind::Question);
    assert_eq!(prompt.node.as_deref(), Some("N1"));
    assert_eq!(prompt.right_key(), "handed-off");
    let n1 = &game.world().servers()[0];
    let record = paros_core::log::DurableRecord::recover(&n1.disk)
        .expect("reads")
        .0;
    assert_eq!(record.handed_off, Some(handed()), "the core wrote the mark");
    assert_eq!(role(&game, 1), Some(LogRole::Follower), "N1 stepped down");
    let text = refused(&mut game, "nothing");
    assert!(text.contains("HandedOff(1.N1)"), "{text}");
    let text = refused(&mut game, "took");
    assert!(text.contains("successor's write"), "{text}");
}

#[test]
fn the_hole_below_the_next_slot_is_left_alone_and_yes_names_the_value_chosen_there() {
    let mut game = mount();
    play_to_answer(&mut game, 1);
    let prompt = game.prompt().expect("the hole question").clone();
    assert_eq!(prompt.right_key(), "no");
    assert!(!successor_may_propose(Slot(3), Slot(1)), "the core agrees");
    let text = refused(&mut game, "yes");
    assert!(
        text.contains("x=1 (C1#1) is already chosen in slot 1 at 1.N1, by {N1, N3}"),
        "{text}"
    );
    let n2 = game.world().servers()[1].host.node().expect("N2 is up");
    assert_eq!(n2.took_handoff(), Some(handed()));
    assert_eq!(n2.ballot(), Some(handed()), "no Phase 1: the same ballot");
    assert!(
        !n2.accepts().contains_key(&Slot(1)),
        "no no-op sent to itself"
    );
}

#[test]
fn the_second_handoff_is_refused_in_the_cores_own_words() {
    let mut game = mount();
    play_to_answer(&mut game, 2);
    let prompt = game.prompt().expect("the second-handoff question").clone();
    assert_eq!(prompt.right_key(), "refused");
    let words = HandoffRefused::HandedOnBallot(handed()).to_string();
    let n2 = game.world().servers()[1].host.node().expect("N2 is up");
    assert_eq!(
        n2.may_hand_off(node(3)),
        Err(HandoffRefused::HandedOnBallot(handed()))
    );
    let right = prompt.choice("refused").expect("a refusal choice");
    assert!(right.label.contains(&words), "{}", right.label);
    for key in ["hands-on", "already", "not-leading"] {
        let text = refused(&mut game, key);
        assert!(text.contains(&words), "{key}: {text}");
    }
    assert_eq!(game.goal(), Goal::Open, "not yet refused");
    play(&mut game, &["answer refused"]);
    assert_eq!(game.goal(), Goal::Reached);
}

#[test]
fn the_reference_solution_chooses_both_writes_at_the_handed_ballot() {
    let mut game = mount();
    let solution = game.level().solution;
    play(&mut game, solution);
    assert_eq!(game.goal(), Goal::Reached);
    let chosen: Vec<(u64, Ballot)> = (game.world().chosen_by_votes().into_iter())
        .map(|votes| (votes.slot.0, votes.ballot))
        .collect();
    assert_eq!(
        chosen,
        vec![(1, handed()), (2, handed()), (3, handed())],
        "x=1, x=2 and y=1, all at 1.N1"
    );
    assert!(game.world().violations().is_empty());
}

#[test]
fn a_phase_1_fails_the_goal() {
    let mut game = mount();
    play_to_answer(&mut game, 1);
    play(&mut game, &["answer no", "tick N3"]);
    match game.goal() {
        Goal::Failed(reason) => {
            assert!(reason.contains("N3 stood for election at 2.N3"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn every_wrong_choice_is_refused_and_names_the_ballot() {
    let mut game = mount();
    super::refuse_every_wrong_choice(&mut game, "ballot", |text| text.contains("1.N1"));
}

#[test]
fn undo_takes_the_handoff_back_to_n1_leading() {
    let mut game = mount();
    let start = game.fingerprint();
    play(&mut game, &["hand off N1->N2"]);
    assert_eq!(role(&game, 1), Some(LogRole::Follower));
    game.undo().expect("undo");
    assert_eq!(game.fingerprint(), start);
    assert_eq!(role(&game, 1), Some(LogRole::Leader));
    assert_eq!(
        game.world().handoffs_left(),
        1,
        "the handoff is offered again"
    );
}

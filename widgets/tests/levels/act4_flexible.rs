//! Act IV's `act4/flexible-quorums`: each question's right answer is the core's quorum test on
//! the real state, each wrong one is refused without touching the world and names the quorums
//! involved, and the goal asks for the two failures the quorum sizes are about.

use paros_core::log::LogRole;
use paros_play::{Game, Goal, PromptKind, levels};
use paros_sim::replicated_log::LogWorld;

use super::{mount_log, play, play_to_answer, refused, role};

const ID: &str = "act4/flexible-quorums";

fn mount() -> Game<LogWorld> {
    mount_log(ID)
}

#[test]
fn the_level_is_listed_in_act4_on_four_nodes_with_q1_3_and_q2_2() {
    assert!(levels::ACT4.iter().any(|level| level.id == ID));
    assert_eq!(levels::find_act2(ID).map(|level| level.act), Some(4));
    let game = mount();
    let quorums = game.world().config().quorum_system();
    assert_eq!(game.world().servers().len(), 4);
    assert_eq!((quorums.phase1_size(), quorums.phase2_size()), (3, 2));
}

#[test]
fn two_promises_are_no_phase_1_quorum_and_yes_is_refused_naming_the_pair_left_out() {
    let mut game = mount();
    play_to_answer(&mut game, 0);
    let prompt = game.prompt().expect("the Phase-1 question").clone();
    assert_eq!(prompt.kind, PromptKind::Question);
    assert_eq!(prompt.node.as_deref(), Some("N1"));
    assert_eq!(prompt.right_key(), "no");
    assert!(
        prompt
            .facts
            .contains(&"a Phase-1 quorum of 4 nodes is 3".to_string()),
        "{:?}",
        prompt.facts
    );
    let text = refused(&mut game, "yes");
    assert!(text.contains("{N1, N2} is not a Phase-1 quorum"), "{text}");
    assert!(text.contains("{N3, N4}, are a Phase-2 quorum"), "{text}");
    play(&mut game, &["answer no", "deliver N2->N1 Promise"]);
    assert_eq!(role(&game, 1), Some(LogRole::Candidate), "the core agrees");
}

#[test]
fn a_third_promise_elects_and_no_is_refused_as_waiting_for_nothing() {
    let mut game = mount();
    play_to_answer(&mut game, 1);
    assert_eq!(game.prompt().expect("asked").right_key(), "yes");
    let text = refused(&mut game, "no");
    assert!(
        text.contains("{N1, N2, N3} is already a Phase-1 quorum"),
        "{text}"
    );
    play(&mut game, &["answer yes", "deliver N3->N1 Promise"]);
    assert_eq!(role(&game, 1), Some(LogRole::Leader), "the core agrees");
}

#[test]
fn two_votes_choose_with_two_nodes_down_and_a_third_is_not_waited_for() {
    let mut game = mount();
    play_to_answer(&mut game, 2);
    let prompt = game.prompt().expect("the Phase-2 question").clone();
    assert_eq!(prompt.right_key(), "yes");
    assert!(
        prompt.facts.contains(&"down: {N3, N4}".to_string()),
        "{:?}",
        prompt.facts
    );
    let text = refused(&mut game, "no");
    assert!(
        text.contains("{N1, N2} is already a Phase-2 quorum"),
        "{text}"
    );
    let chosen = game.world().chosen_by_votes();
    assert_eq!(chosen.len(), 1, "chosen before N1 learns it");
    assert_eq!(game.goal(), Goal::Open);
}

#[test]
fn a_leader_change_with_one_node_down_needs_all_three_others() {
    let mut game = mount();
    play_to_answer(&mut game, 3);
    let text = refused(&mut game, "yes");
    assert!(text.contains("{N2, N3} is not a Phase-1 quorum"), "{text}");
    play(&mut game, &["answer no", "deliver N3->N2 Promise"]);
    assert_eq!(
        role(&game, 2),
        Some(LogRole::Candidate),
        "{{N2, N3}} does not elect"
    );
    play_to_answer(&mut game, 4);
    play(&mut game, &["answer yes"]);
    assert_eq!(game.goal(), Goal::Reached);
    play(&mut game, &["deliver N1->N2 Promise"]);
    assert_eq!(role(&game, 2), Some(LogRole::Leader), "the core agrees");
}

#[test]
fn a_write_chosen_with_every_node_up_does_not_reach_the_goal() {
    let mut game = mount();
    play(
        &mut game,
        &[
            "deliver N1->N2 Prepare",
            "answer no",
            "deliver N2->N1 Promise",
            "deliver N1->N3 Prepare",
            "answer yes",
            "deliver N3->N1 Promise",
            "request C1 N1",
            "deliver C1->N1 Write",
            "deliver N1->N2 Accept",
            "answer yes",
        ],
    );
    assert_eq!(game.world().chosen_by_votes().len(), 1);
    assert_eq!(game.goal(), Goal::Open, "the steady state was not tested");
    assert!(
        !game
            .memory()
            .records
            .iter()
            .any(|record| record.contains("two down"))
    );
}

#[test]
fn every_wrong_choice_is_refused_and_names_the_quorum_it_misjudges() {
    let mut game = mount();
    super::refuse_every_wrong_choice(&mut game, "quorum", |text| {
        text.contains("Phase-1 quorum") || text.contains("Phase-2 quorum")
    });
}

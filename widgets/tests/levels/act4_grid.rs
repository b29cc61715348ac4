//! Act IV's `act4/the-grid`: each question's right answer is the core's grid on the real
//! state, each wrong one is refused without touching the world, the grid layout in the view is
//! the core's, and the goal asks for both columns and a stray vote.

use paros_core::Quorums;
use paros_core::log::{LogRole, Slot};
use paros_play::{Board, Game, Goal, PromptKind, levels};
use paros_sim::replicated_log::LogWorld;

use super::{mount_log, node, play, play_to_answer, refused, role};

const ID: &str = "act4/the-grid";

fn mount() -> Game<LogWorld> {
    mount_log(ID)
}

#[test]
fn the_level_is_listed_in_act4_after_flexible_quorums_on_a_2x2_grid() {
    let ids: Vec<&str> = levels::ACT4.iter().map(|level| level.id).collect();
    assert_eq!(ids[..2], ["act4/flexible-quorums", ID]);
    let game = mount();
    let Quorums::Grid(grid) = game.world().config().quorum_system() else {
        panic!("a grid");
    };
    assert_eq!(
        grid.rows(),
        [
            [node(1), node(2)].into_iter().collect(),
            [node(3), node(4)].into_iter().collect()
        ]
    );
    assert_eq!(
        grid.deciding_column(Slot(2)),
        [node(2), node(4)].into_iter().collect()
    );
}

#[test]
fn the_view_lays_the_grid_out_from_the_core_and_marks_the_slot_in_plays_column() {
    let mut game = mount();
    let grid = game
        .world()
        .cluster()
        .and_then(|cluster| cluster.grid)
        .expect("a grid view");
    assert_eq!(grid.rows, [["N1", "N2"], ["N3", "N4"]]);
    assert_eq!(grid.columns, [["N1", "N3"], ["N2", "N4"]]);
    assert_eq!(
        (grid.in_play.slot, grid.in_play.column),
        (1, 0),
        "nothing voted: slot 1"
    );
    play_to_answer(&mut game, 3);
    let grid = game
        .world()
        .cluster()
        .and_then(|cluster| cluster.grid)
        .expect("a grid view");
    assert_eq!(
        (grid.in_play.slot, grid.in_play.column),
        (2, 1),
        "N2's vote in slot 2 is on the wire"
    );
    let columns: Vec<(u64, usize)> = grid
        .slots
        .iter()
        .map(|slot| (slot.slot, slot.column))
        .collect();
    assert_eq!(columns, [(1, 0), (2, 1)]);
}

#[test]
fn a_column_of_promises_is_no_row_and_yes_is_refused() {
    let mut game = mount();
    play_to_answer(&mut game, 0);
    let prompt = game.prompt().expect("the row question").clone();
    assert_eq!(prompt.kind, PromptKind::Question);
    assert_eq!(prompt.right_key(), "no");
    assert!(
        prompt.facts.contains(
            &"a Phase-1 quorum is a full row: the rows {N1, N2} and {N3, N4}".to_string()
        ),
        "{:?}",
        prompt.facts
    );
    let text = refused(&mut game, "yes");
    assert!(text.contains("{N1, N3} holds no full row"), "{text}");
    assert!(text.contains("is a whole column"), "{text}");
    play(&mut game, &["answer no", "deliver N3->N1 Promise"]);
    assert_eq!(role(&game, 1), Some(LogRole::Candidate), "the core agrees");
    play_to_answer(&mut game, 1);
    let text = refused(&mut game, "no");
    assert!(
        text.contains("{N1, N2, N3} already holds a full row"),
        "{text}"
    );
    play(&mut game, &["answer yes", "deliver N2->N1 Promise"]);
    assert_eq!(role(&game, 1), Some(LogRole::Leader), "the core agrees");
}

#[test]
fn slot_1_is_decided_by_its_column_and_no_is_refused() {
    let mut game = mount();
    play_to_answer(&mut game, 2);
    let prompt = game.prompt().expect("asked").clone();
    assert_eq!(prompt.right_key(), "yes");
    assert!(
        prompt
            .facts
            .contains(&"slot 1 is decided by column 1, {N1, N3}".to_string()),
        "{:?}",
        prompt.facts
    );
    let text = refused(&mut game, "no");
    assert!(
        text.contains("{N1, N3} already holds column 1, {N1, N3}"),
        "{text}"
    );
    assert_eq!(
        game.world().chosen_by_votes().len(),
        1,
        "chosen before N1 learns it"
    );
}

#[test]
fn a_row_of_votes_does_not_decide_slot_2() {
    let mut game = mount();
    play_to_answer(&mut game, 3);
    assert_eq!(game.prompt().expect("asked").right_key(), "no");
    let text = refused(&mut game, "yes");
    assert!(
        text.contains("decided only by column 2, {N2, N4}, and {N4} has not voted"),
        "{text}"
    );
    assert!(text.contains("{N1, N2} is a full row"), "{text}");
    play(&mut game, &["answer no"]);
    assert_eq!(game.world().chosen_entry(Slot(2)), None, "the core agrees");
    play_to_answer(&mut game, 4);
    play(&mut game, &["answer yes"]);
    assert!(
        game.world().chosen_entry(Slot(2)).is_some(),
        "column 2 decided it"
    );
    assert_eq!(game.goal(), Goal::Open, "the stray vote is still to come");
}

#[test]
fn a_stray_vote_outside_slot_2s_column_counts_for_nothing() {
    let mut game = mount();
    play_to_answer(&mut game, 5);
    let prompt = game.prompt().expect("the stray question").clone();
    assert!(
        prompt.question.starts_with("N3 voted for x=2"),
        "{}",
        prompt.question
    );
    assert!(
        prompt
            .question
            .ends_with("Does this vote count towards slot 2?"),
        "{}",
        prompt.question
    );
    assert_eq!(prompt.right_key(), "no");
    let text = refused(&mut game, "yes");
    assert!(text.contains("N3 is outside column 2, {N2, N4}"), "{text}");
    assert!(text.contains("meet the row {N3, N4}"), "{text}");
    play(&mut game, &["answer no"]);
    assert_eq!(game.goal(), Goal::Reached);
}

#[test]
fn a_late_vote_outside_slot_1s_column_counts_for_nothing_and_the_goal_waits_for_slot_2() {
    let mut game = mount();
    play_to_answer(&mut game, 3);
    play(
        &mut game,
        &["answer no", "deliver N1->N4 Accept(1.N1, slot 1"],
    );
    let prompt = game.prompt().expect("a late vote in slot 1").clone();
    assert!(
        prompt.question.contains("slot 1, which is decided already"),
        "{}",
        prompt.question
    );
    assert_eq!(prompt.right_key(), "no", "N4 is outside column 1");
    play(&mut game, &["answer no"]);
    assert_eq!(game.goal(), Goal::Open, "slot 2 is not decided yet");
}

#[test]
fn every_wrong_choice_is_refused_and_names_a_row_or_a_column() {
    let mut game = mount();
    super::refuse_every_wrong_choice(&mut game, "row or column", |text| {
        text.contains("row") || text.contains("column")
    });
}

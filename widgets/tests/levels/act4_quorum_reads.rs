//! Act IV's `act4/quorum-reads`: the reach set is judged by the core's grid, the serve-or-wait
//! prompt by the core on a clone, and the goal asks for a held read, a covered read served at
//! once, both returning x = 1, and no leader asked.

use paros_core::log::{LogRole, heard_from_a_discovery_quorum};
use paros_core::{NodeSet, QuorumSystem, Quorums};
use paros_play::{Game, Goal, PromptKind, View, levels};
use paros_sim::replicated_log::LogWorld;

use super::{mount_log, node, play, play_to_answer, refused, role};

const ID: &str = "act4/quorum-reads";

fn mount() -> Game<LogWorld> {
    mount_log(ID)
}

#[test]
fn the_level_is_listed_in_act4_between_the_grid_and_the_handoff_on_a_2x2_grid() {
    let ids: Vec<&str> = levels::ACT4.iter().map(|level| level.id).collect();
    let at = ids.iter().position(|id| *id == ID).expect("listed");
    assert_eq!(
        ids[at - 1..=at + 1],
        ["act4/the-grid", ID, "act4/the-handoff"]
    );
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
    assert_eq!(role(&game, 1), Some(LogRole::Leader));
    assert_eq!(role(&game, 4), Some(LogRole::Follower));
    assert_eq!(game.goal(), Goal::Open);
}

#[test]
fn the_reach_set_is_right_exactly_when_the_core_calls_it_a_phase1_quorum_without_the_leader() {
    let mut game = mount();
    play_to_answer(&mut game, 1);
    let prompt = game.prompt().expect("the reach set").clone();
    assert_eq!(prompt.kind, PromptKind::ReachSet);
    assert_eq!(prompt.choices.len(), 16, "every set of four nodes");
    let quorums = game.world().config().quorum_system();
    for choice in &prompt.choices {
        let set: NodeSet = (1..=4)
            .filter(|number| {
                choice
                    .key
                    .split('+')
                    .any(|name| name == format!("N{number}"))
            })
            .map(node)
            .collect();
        let expected = heard_from_a_discovery_quorum(&quorums, set) && !set.contains(node(1));
        assert_eq!(choice.right, expected, "{}", choice.key);
    }
    let text = refused(&mut game, "N1+N3");
    assert!(
        text.contains("{N1, N3} holds no full row of the rows {N1, N2} and {N3, N4}"),
        "{text}"
    );
    assert!(text.contains("It is a whole column"), "{text}");
    let text = refused(&mut game, "N1+N4");
    assert!(
        text.contains("it misses {N2} of {N1, N2} and {N3} of {N3, N4}"),
        "{text}"
    );
    let text = refused(&mut game, "N1+N2");
    assert!(
        text.contains("{N1, N2} is a Phase-1 quorum, but {N1} leads"),
        "{text}"
    );
    assert!(quorums.is_phase1_quorum([node(1), node(2)].into_iter().collect()));
    play(&mut game, &["answer N3+N4"]);
    assert!(game.prompt().is_none());
}

#[test]
fn serving_before_n4_applied_through_the_row_watermark_is_refused_by_the_core() {
    let mut game = mount();
    play_to_answer(&mut game, 2);
    let prompt = game.prompt().expect("serve or wait").clone();
    assert_eq!(prompt.kind, PromptKind::ServeOrWait);
    assert_eq!(prompt.right_key(), "wait");
    assert!(
        prompt
            .facts
            .contains(&"{N3, N4} reported their highest accepted slots; the highest is 1".into()),
        "{:?}",
        prompt.facts
    );
    let text = refused(&mut game, "serve");
    assert!(
        text.contains("N4 has applied only through slot 0"),
        "{text}"
    );
    assert!(text.contains("stale read"), "{text}");
    play(&mut game, &["answer wait"]);
    let reader = game.world().servers()[3].host.node().expect("N4 is up");
    assert_eq!(reader.pending_reads().len(), 1, "the core holds it too");
}

#[test]
fn the_solution_holds_one_read_serves_the_other_at_once_and_both_return_1() {
    let mut game = mount();
    let solution = game.level().solution;
    play(&mut game, solution);
    assert_eq!(game.goal(), Goal::Reached);
    let checklist = View::of(&game).checklist;
    assert!(checklist.iter().all(|item| item.done), "{checklist:?}");
    let reads: Vec<Option<String>> = (game.world().history().iter())
        .filter(|call| call.client == game.world().config().client_id(1))
        .map(|call| call.read.as_ref().map(ToString::to_string))
        .collect();
    assert_eq!(reads, [Some("1".into()), Some("1".into())]);
}

#[test]
fn a_read_answered_by_the_leader_loses_the_level() {
    let mut game = mount();
    play_to_answer(&mut game, 1);
    play(&mut game, &["answer N3+N4", "deliver N4->N1 ReadIndex"]);
    let Goal::Failed(reason) = game.goal() else {
        panic!("the leader answered: {:?}", game.goal());
    };
    assert!(
        reason.contains("N1 leads and answered N4's read"),
        "{reason}"
    );
}

#[test]
fn before_the_second_read_the_covered_read_is_not_yet_done() {
    let mut game = mount();
    play_to_answer(&mut game, 5);
    let checklist = View::of(&game).checklist;
    let done: Vec<bool> = checklist.iter().map(|item| item.done).collect();
    assert_eq!(done, [true, true, false, false, false], "{checklist:?}");
    assert_eq!(game.goal(), Goal::Open);
}

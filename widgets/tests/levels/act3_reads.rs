//! Act III's read levels, played end to end: each reference solution reaches its goal with no
//! violation, undo is exact, every wrong answer is refused without touching the world and is
//! told what the matching negative control breaks, and random play stays safe.

use paros_play::{Goal, PromptKind, levels};
use paros_sim::replicated_log::LogWorld;

use super::{mount_log as mount, play, play_to_answer, refused, snapshot};

/// The levels this file plays.
const READ_LEVELS: &[&str] = &["act3/the-fresh-leader-trap", "act3/linearizable-or-not"];

#[test]
fn the_read_levels_are_listed_in_act3_and_found_by_id() {
    for id in READ_LEVELS {
        assert!(levels::ACT3.iter().any(|level| level.id == *id), "{id}");
        assert_eq!(levels::find_act2(id).map(|level| level.act), Some(3));
    }
}

#[test]
fn every_read_level_solution_reaches_its_goal_without_a_mistake_or_a_violation() {
    for id in READ_LEVELS {
        let mut game = mount(id);
        assert_eq!(game.goal(), Goal::Open, "{id}");
        let solution = game.level().solution;
        play(&mut game, solution);
        assert_eq!(game.goal(), Goal::Reached, "{id}");
        assert!(game.memory().passed, "{id}");
        assert!(game.memory().mistakes.is_empty(), "{id}");
        assert!(
            game.world().violations().is_empty(),
            "{id}: {:?}",
            game.world().violations()
        );
    }
}

#[test]
fn undo_takes_back_every_move_of_every_read_level_solution_exactly() {
    for id in READ_LEVELS {
        let mut game = mount(id);
        let mut before_each_move = Vec::new();
        for step in game.level().solution {
            before_each_move.push(snapshot(&game));
            game.play(step).expect("plays");
        }
        while let Some(expected) = before_each_move.pop() {
            game.undo().expect("undo");
            assert_eq!(snapshot(&game), expected, "{id}");
        }
    }
}

#[test]
fn every_wrong_choice_of_every_read_level_is_refused_and_names_a_slot_or_the_checker() {
    for id in READ_LEVELS {
        let mut game = mount(id);
        super::refuse_every_wrong_choice(&mut game, "slot or checker finding", |text| {
            text.contains("slot") || text.contains("checker")
        });
    }
}

#[test]
fn random_read_level_play_never_panics_keeps_safety_and_undoes_to_the_start() {
    for id in READ_LEVELS {
        let level = levels::find_act2(id).unwrap();
        for seed in 1..=20u64 {
            super::random_play(
                level,
                level.solution_unlocked,
                seed,
                60,
                |world: &LogWorld| world.violations().is_empty(),
            );
        }
    }
}

#[test]
fn no_wrong_choice_of_a_read_level_equals_a_right_one_in_random_play() {
    for id in READ_LEVELS {
        let level = levels::find_act2(id).unwrap();
        let checked: usize = (1..=20)
            .map(|seed| super::walk_checking_prompts(level, seed, 60))
            .sum();
        assert!(checked > 0, "{id}: no prompt opened");
    }
}

#[test]
fn the_fresh_leader_trap_tells_an_early_serve_the_read_at_applied_counterexample() {
    let mut game = mount("act3/the-fresh-leader-trap");
    play_to_answer(&mut game, 0);
    let prompt = game.prompt().unwrap().clone();
    assert_eq!(prompt.kind, PromptKind::ServeOrWait);
    assert!(
        prompt.question.contains("Serve x = nothing now"),
        "{}",
        prompt.question
    );
    let text = refused(&mut game, "serve");
    assert!(
        text.contains(
            "Played on in a copy of this world under the simulator's read-at-applied control"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "the read of x by C1 at steps 2 to 3 returned nothing, but the write of x = 1 by C1 \
             at steps 0 to 1 completed before the read began"
        ),
        "the control's counterexample, from the World's checker: {text}"
    );
    play_to_answer(&mut game, 1);
    let prompt = game.prompt().unwrap().clone();
    assert!(
        prompt
            .facts
            .contains(&"{N2, N3} reported their highest accepted slots; the highest is 1".into()),
        "{:?}",
        prompt.facts
    );
    let text = refused(&mut game, "serve");
    assert!(
        text.contains("has applied only through slot 0"),
        "a quorum answered, and the watermark counts N2's own vote: {text}"
    );
    assert!(
        text.contains("the linearizability checker reports that the read of x by C1"),
        "{text}"
    );
    play_to_answer(&mut game, 2);
    let text = refused(&mut game, "wait");
    assert!(text.contains("at or past the watermark, slot 1"), "{text}");
}

#[test]
fn the_fresh_leader_trap_fails_when_the_read_goes_to_the_old_leader() {
    let mut game = mount("act3/the-fresh-leader-trap");
    play(&mut game, &["request C1 N1"]);
    let Goal::Failed(reason) = game.goal() else {
        panic!("expected a failure, got {:?}", game.goal());
    };
    assert!(reason.contains("C1's read went to N1"), "{reason}");
    game.undo().unwrap();
    assert_eq!(game.goal(), Goal::Open);
}

//! "Copy as command": a game position leaves the browser as `paros-sim replay WORLD ACTION...`.
//! For every level and stage, the reference solution is played move by move, and after each
//! move the current stage's world actions, replayed by paros-sim on the stage's level world,
//! must reach the game's world, fingerprint for fingerprint.

use paros_play::{Board, Game, Level, levels};
use paros_sim::replay::replay;

/// Plays `level`'s solution, checking the command's replay after every move; returns the
/// stages it checked.
fn check_level<B: Board>(level: &'static Level<B>) -> Vec<usize> {
    let mut game = Game::new(level, level.solution_unlocked).expect("the level mounts");
    let mut stages = Vec::new();
    for step in std::iter::once(None).chain(level.solution.iter().map(Some)) {
        if let Some(step) = step {
            game.play(step)
                .unwrap_or_else(|error| panic!("{}: {step}: {error}", level.id));
        }
        let stage = game.run().stage();
        let world = level.stages[stage].world.name;
        let actions = game.stage_actions();
        let replayed = replay(world, &actions)
            .unwrap_or_else(|error| panic!("{} after {step:?}: {error}", level.id));
        assert_eq!(
            replayed.fingerprint,
            game.world().fingerprint(),
            "{} stage {} after {step:?}: {actions:?}",
            level.id,
            stage + 1
        );
        assert_eq!(
            replayed.steps, actions,
            "the world describes each action as the game wrote it"
        );
        if !stages.contains(&stage) {
            stages.push(stage);
        }
    }
    stages
}

#[test]
fn every_stage_of_every_level_replays_natively_to_the_games_world() {
    let mut checked = 0;
    for level in levels::ACT1 {
        assert_eq!(check_level(level).len(), level.stages.len(), "{}", level.id);
        checked += level.stages.len();
    }
    for level in levels::log_levels() {
        assert_eq!(check_level(level).len(), level.stages.len(), "{}", level.id);
        checked += level.stages.len();
    }
    for level in levels::ACT4_MATCHMAKER {
        assert_eq!(check_level(level).len(), level.stages.len(), "{}", level.id);
        checked += level.stages.len();
    }
    assert_eq!(
        checked,
        paros_sim::level_worlds::names().count(),
        "every level world is a stage"
    );
}

#[test]
fn a_beat_enters_the_command_as_the_world_actions_it_applied() {
    let level = levels::find_act2("act3/the-stranded-node").expect("the level");
    let mut game = Game::new(level, level.solution_unlocked).expect("the level mounts");
    game.play("beat N1").expect("N1 leads and may beat");
    let actions = game.stage_actions();
    assert_eq!(actions[0], "tick N1");
    assert!(
        actions.len() > 1,
        "the beat's deliveries follow its tick: {actions:?}"
    );
    assert!(
        actions[1..]
            .iter()
            .all(|action| action.starts_with("deliver ")),
        "{actions:?}"
    );
}

#[test]
fn a_move_held_by_its_prompt_is_left_out_until_answered() {
    let level = levels::find("act1/be-the-acceptor").expect("the level");
    let mut game = Game::new(level, &[]).expect("the level mounts");
    game.play("deliver P1->A1 Prepare").expect("a delivery");
    assert!(game.prompt().is_some(), "the acceptor's reply is asked");
    assert_eq!(game.stage_actions(), Vec::<String>::new());
    game.play("answer promise").expect("the right answer");
    assert_eq!(
        game.stage_actions(),
        vec!["deliver m1 P1->A1 Prepare(1.P1)".to_string()]
    );
}

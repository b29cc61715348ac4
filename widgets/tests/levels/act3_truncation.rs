//! Act III's truncation levels: the floor prompt of `act3/truncate-by-consensus` and the jump
//! prompt of `act3/the-stranded-node`, each right answer read from the real node and each wrong
//! one refused without touching the world.

use paros_play::{Game, Goal, PromptKind};
use paros_sim::replicated_log::LogWorld;

use super::{mount_log as mount, play, play_to_answer, refused};

fn floor_of(game: &Game<LogWorld>, number: usize) -> u64 {
    game.world().servers()[number - 1]
        .host
        .node()
        .expect("up")
        .floor()
        .0
}

#[test]
fn a_node_moves_its_floor_only_when_its_own_walk_applies_the_trim() {
    let mut game = mount("act3/truncate-by-consensus");
    // The fourth answer: N3 learns the trim is decided, but it never learned slot 2.
    play_to_answer(&mut game, 3);
    let prompt = game.prompt().expect("the floor prompt");
    assert_eq!(prompt.kind, PromptKind::Floor);
    assert_eq!(prompt.node.as_deref(), Some("N3"));
    assert_eq!(prompt.right_key(), "0", "N3's walk stops below the trim");
    assert_eq!((floor_of(&game, 1), floor_of(&game, 2)), (2, 2));
    let through = refused(&mut game, "2");
    assert!(through.contains("applied only through slot 1"), "{through}");
    let slot = refused(&mut game, "3");
    assert!(slot.contains("slot 1"), "{slot}");
    play(&mut game, &["answer 0"]);
    assert_eq!(floor_of(&game, 3), 0);
    let rest = &game.level().solution[game.log().len()..];
    play(&mut game, rest);
    assert_eq!(floor_of(&game, 3), 2);
    assert_eq!(game.goal(), Goal::Reached);
}

#[test]
fn the_trim_slot_is_refused_as_a_floor_when_the_walk_applies_it() {
    let mut game = mount("act3/truncate-by-consensus");
    play_to_answer(&mut game, 0);
    let prompt = game.prompt().expect("the floor prompt");
    assert_eq!(prompt.node.as_deref(), Some("N1"));
    assert_eq!(prompt.right_key(), "2");
    let keys: Vec<&str> = prompt.choices.iter().map(|c| c.key.as_str()).collect();
    assert_eq!(keys, ["0", "2", "3"]);
    let slot = refused(&mut game, "3");
    assert!(slot.contains("Slot 3 holds the decision"), "{slot}");
    let stays = refused(&mut game, "0");
    assert!(stays.contains("moves to 2"), "{stays}");
}

#[test]
fn the_jump_keeps_the_promise_and_the_senders_ballot_is_told_the_control() {
    let mut game = mount("act3/the-stranded-node");
    play_to_answer(&mut game, 0);
    let prompt = game.prompt().expect("the jump prompt");
    assert_eq!(prompt.kind, PromptKind::JumpPromise);
    assert_eq!(prompt.right_key(), "2.N2");
    let moved = refused(&mut game, "1.N1");
    assert!(
        moved.contains("jump-moves-promise control, the checker reports")
            && moved.contains("from 2.N2 to 1.N1"),
        "{moved}"
    );
    play(&mut game, &["answer 2.N2"]);
    let n3 = game.world().servers()[2].host.node().expect("up");
    assert_eq!(n3.floor().0, 2);
    assert_eq!(
        n3.promised().map(|ballot| ballot.node.get()),
        Some(2),
        "the jump keeps N2's ballot"
    );
    assert_eq!(game.goal(), Goal::Reached);
}

#[test]
fn a_jump_with_nothing_to_tell_apart_fails_the_stranded_node() {
    let mut game = mount("act3/the-stranded-node");
    let steps: Vec<&str> = game
        .level()
        .solution
        .iter()
        .copied()
        .filter(|step| !step.starts_with("tick N2") && *step != "deliver N2->N3 Prepare")
        .take_while(|step| !step.starts_with("answer"))
        .collect();
    play(&mut game, &steps);
    assert!(game.prompt().is_none(), "no prompt: the two promises agree");
    assert!(matches!(game.goal(), Goal::Failed(_)), "{:?}", game.goal());
}

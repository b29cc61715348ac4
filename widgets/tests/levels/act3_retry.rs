//! `act3/chosen-is-not-applied`, played end to end: the retry of a write chosen above a hole is
//! proposed again, its second copy is skipped when it applies, each wrong answer is refused
//! with the world untouched and told the real slots and the dedup-at-propose control's
//! finding, and the goal fails when the retry can no longer be proposed again.
//! (The generic tests of `act2.rs` play its solution, undo and random play, as for every log
//! level.)

use paros_play::replicated_log::LogMove;
use paros_play::{Board, ByHand, Goal, PromptKind, levels};
use paros_sim::replicated_log::LogWorld;

use super::{mount_log as mount, play, play_to_answer, refused};

type LogGame = paros_play::Game<LogWorld>;

const ID: &str = "act3/chosen-is-not-applied";

fn n1_applied(game: &LogGame) -> u64 {
    let n1 = game.world().servers()[0].host.node().expect("N1 is up");
    n1.applied_index().0
}

#[test]
fn the_level_is_in_act3_and_its_scenario_names_it() {
    assert!(levels::ACT3.iter().any(|level| level.id == ID));
    let level = levels::find_act2(ID).unwrap();
    assert_eq!(level.act, 3);
    let scenario = paros_sim::scenarios::find(level.scenario).expect("the scenario exists");
    assert_eq!(scenario.levels, &[ID]);
}

#[test]
fn the_retry_is_proposed_again_and_a_wrong_answer_is_told_the_real_slots() {
    let mut game = mount(ID);
    play_to_answer(&mut game, 0);
    let prompt = game.prompt().unwrap().clone();
    assert_eq!(prompt.kind, PromptKind::ClientResend);
    assert_eq!(
        prompt.question,
        "C2 sends y=b (C2#1) again, to N1. What does N1 do?"
    );
    assert_eq!(prompt.right_key(), "propose");
    assert_eq!(
        prompt.choice("propose").unwrap().label,
        "Propose y=b (C2#1) again, in slot 3"
    );
    for fact in [
        "slot 2 holds y=b (C2#1), chosen",
        "N1 has applied through slot 0, behind the hole at slot 1",
        "N1's session table: applied_seq for C2 is 0",
        "N1's open proposals: slot 1: x=a (C1#1)",
    ] {
        assert!(
            prompt.facts.contains(&fact.into()),
            "{fact}: {:?}",
            prompt.facts
        );
    }
    let text = refused(&mut game, "answer");
    assert!(
        text.contains("it has applied through slot 0: slot 2 is chosen but not applied, behind the hole at slot 1"),
        "{text}"
    );
    let text = refused(&mut game, "wait");
    assert!(
        text.contains("Nor is it among N1's open proposals (slot 1: x=a (C1#1)): slot 2 is chosen, and a chosen slot is no longer open. So N1 proposes it in slot 3."),
        "{text}"
    );
    play(&mut game, &["answer propose"]);
    let n1 = game.world().servers()[0].host.node().unwrap();
    assert!(
        n1.proposals().keys().map(|slot| slot.0).eq([1, 3]),
        "slot 3 is proposed, slot 1 still open: {:?}",
        n1.proposals().keys().collect::<Vec<_>>()
    );
}

#[test]
fn the_repeat_is_skipped_and_applying_it_again_is_told_the_applied_once_finding() {
    let mut game = mount(ID);
    play_to_answer(&mut game, 1);
    assert_eq!(n1_applied(&game), 2, "slots 1 and 2 applied, slot 3 held");
    let prompt = game.prompt().unwrap().clone();
    assert_eq!(prompt.kind, PromptKind::RepeatApplies);
    assert_eq!(
        prompt.question,
        "N1 applies slot 3, y=b (C2#1) again. What happens?"
    );
    assert_eq!(prompt.right_key(), "skipped");
    assert!(
        prompt
            .facts
            .contains(&"N1's session table: applied_seq for C2 is 1".into()),
        "{:?}",
        prompt.facts
    );
    let text = refused(&mut game, "again");
    assert!(
        text.contains(
            "had any write to y been chosen between slot 2 and slot 3, it would be undone"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "under the simulator's dedup-at-propose control, whose apply walk skips the session \
             table, the applied-once checker reports: N1 applied C2#1 twice."
        ),
        "the control's finding, from the World's checker: {text}"
    );
    play(&mut game, &["answer skipped", "deliver N1->C2 Reply"]);
    assert_eq!(n1_applied(&game), 3);
    assert_eq!(game.goal(), Goal::Reached);
    assert!(game.world().violations().is_empty());
}

#[test]
fn the_repeat_is_asked_when_one_delivery_applies_both_copies() {
    let mut game = mount(ID);
    play(
        &mut game,
        &[
            "request C2 N1",
            "deliver C2->N1 Write",
            "answer propose",
            "deliver N1->N2 Accept(1.N1, slot 3",
            "deliver N2->N1 Accepted(1.N1, slot 3",
            "deliver N2->N1 Accepted(1.N1, slot 1",
        ],
    );
    let prompt = game
        .prompt()
        .expect("the delivery that fills the hole applies slot 3 too");
    assert_eq!(prompt.kind, PromptKind::RepeatApplies);
    let text = refused(&mut game, "again");
    assert!(text.contains("N1 applied C2#1 twice"), "{text}");
    play(&mut game, &["answer skipped"]);
    assert_eq!(n1_applied(&game), 3);
}

#[test]
fn the_goal_fails_when_n1_applies_the_write_before_the_retry_arrives() {
    let mut game = mount(ID);
    play(&mut game, &["deliver N2->N1 Accepted(1.N1, slot 1"]);
    let Goal::Failed(reason) = game.goal() else {
        panic!("expected a failure, got {:?}", game.goal());
    };
    assert!(
        reason.contains("N1 applied C2's y=b before the retry reached it"),
        "{reason}"
    );
    // Played on a copy: the retry now meets an applied request, and opens no prompt.
    let mut world = game.world().clone();
    world
        .apply(&world.parse_action("request C2 N1").unwrap())
        .unwrap();
    let write = LogMove::World(world.parse_action("deliver C2->N1 Write").unwrap());
    assert_eq!(world.prompt(&write, &ByHand::all()), None);
    game.undo().unwrap();
    assert_eq!(game.goal(), Goal::Open);
}

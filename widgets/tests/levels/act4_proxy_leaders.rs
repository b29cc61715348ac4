//! Act IV's `act4/proxy-leaders`: N1's Accepts go through proxy leaders P1 and P2; the proxy
//! carrying slot 1 crashes mid-slot, N1's resend through the other is judged by paros-core's
//! `resend_is_identical`, and a proxy holding Accepteds of two ballots for one slot is judged by
//! `proxy_may_announce`. Each wrong answer is refused without touching the world.

use paros_core::log::{Entry, LogMessage, Slot, proxy_may_announce, resend_is_identical};
use paros_core::{Ballot, NodeSet};
use paros_play::{Game, Goal, PromptKind, View, levels, parse_action};
use paros_sim::replicated_log::LogWorld;

use super::{mount_log, node, play, play_to_answer, refused};

const ID: &str = "act4/proxy-leaders";

fn mount() -> Game<LogWorld> {
    mount_log(ID)
}

fn view(game: &Game<LogWorld>) -> serde_json::Value {
    serde_json::from_str(&View::of(game).to_json()).unwrap()
}

/// Takes an action as the stage's buttons send it.
fn act(game: &mut Game<LogWorld>, json: serde_json::Value) {
    let action = parse_action(game.world(), &json.to_string()).expect("reads");
    game.act(action).expect("a move");
}

#[test]
fn the_level_is_listed_in_act4_after_the_handoff_with_two_proxies() {
    let ids: Vec<&str> = levels::ACT4.iter().map(|level| level.id).collect();
    let handoff = ids.iter().position(|id| *id == "act4/the-handoff");
    assert_eq!(
        ids.iter().position(|id| *id == ID),
        handoff.map(|at| at + 1)
    );
    let game = mount();
    assert_eq!(game.world().proxies().len(), 2);
    assert_eq!(game.goal(), Goal::Open);
    let view = view(&game);
    let proxies = &view["cluster"]["proxies"];
    assert_eq!(proxies[0]["name"], "P1");
    assert_eq!(proxies[1]["name"], "P2");
    assert_eq!(proxies[1]["up"], true);
}

#[test]
fn a_proxy_crashes_and_restarts_from_the_stage_buttons() {
    let mut game = mount();
    play(&mut game, &["request C1 N1", "deliver C1->N1 Write"]);
    let controls = view(&game)["controls"].to_string();
    assert!(controls.contains("Crash P2"), "{controls}");
    act(
        &mut game,
        serde_json::json!({"kind": "crash", "node": "P2"}),
    );
    assert!(!game.world().proxies()[1].is_up());
    assert_eq!(view(&game)["cluster"]["proxies"][1]["up"], false);
    act(
        &mut game,
        serde_json::json!({"kind": "restart", "node": "P2"}),
    );
    assert!(game.world().proxies()[1].is_up());
}

#[test]
fn the_resend_around_the_crashed_proxy_is_judged_by_resend_is_identical() {
    let mut game = mount();
    play_to_answer(&mut game, 0);
    let prompt = game.prompt().expect("the resend question").clone();
    assert_eq!(prompt.kind, PromptKind::Question);
    assert_eq!(prompt.node.as_deref(), Some("N1"));
    assert_eq!(prompt.right_key(), "identical");
    let resent = (game.world().in_flight().iter())
        .filter(|message| game.world().name(message.envelope.to) == "P1")
        .find_map(|message| match &message.envelope.message {
            LogMessage::Accept { slot, entry, .. } if *slot == Slot(1) => Some(entry.clone()),
            _ => None,
        })
        .expect("N1 sent slot 1 again to P1");
    let n1 = game.world().servers()[0].host.node().expect("N1 is up");
    let proposed = &n1.proposals()[&Slot(1)].entry;
    assert!(resend_is_identical(proposed, &resent), "the core agrees");
    assert!(!resend_is_identical(proposed, &Entry::Noop));
    let text = refused(&mut game, "no-op");
    assert!(
        text.contains("resend_is_identical(x=1 (C1#1), x=1 (C1#1)) is true"),
        "{text}"
    );
    assert!(text.contains("two values chosen in slot 1"), "{text}");
    play(&mut game, &["answer identical"]);
    assert!(
        game.memory()
            .records
            .contains("resent identical around a crashed proxy")
    );
}

#[test]
fn a_resend_with_every_proxy_up_is_asked_but_not_the_crash_the_goal_wants() {
    let mut game = mount();
    play(
        &mut game,
        &[
            "request C1 N1",
            "deliver C1->N1 Write",
            "deliver N1->P2 Accept",
            "tick N1",
        ],
    );
    assert_eq!(game.prompt().expect("asked").right_key(), "identical");
    play(&mut game, &["answer identical"]);
    assert!(game.memory().records.is_empty(), "no proxy crashed");
}

#[test]
fn two_ballots_in_one_slot_are_judged_by_proxy_may_announce_at_each_ballot() {
    let mut game = mount();
    play_to_answer(&mut game, 1);
    let prompt = game.prompt().expect("the two-ballot question").clone();
    assert_eq!(prompt.node.as_deref(), Some("P1"));
    assert_eq!(prompt.right_key(), "no");
    let p1 = game.world().proxies()[0].proxy().expect("P1 is up");
    let counted: Vec<(Slot, Ballot, NodeSet)> =
        p1.counted().filter(|(slot, ..)| *slot == Slot(2)).collect();
    let (n2, n3) = (node(2), node(3));
    assert_eq!(
        counted,
        vec![
            (Slot(2), Ballot::new(1, node(1)), NodeSet::from_iter([n2])),
            (Slot(2), Ballot::new(2, n3), NodeSet::from_iter([n3])),
        ]
    );
    let quorums = game.world().config().quorum_system();
    assert!(!proxy_may_announce(
        &quorums,
        Slot(2),
        NodeSet::from_iter([n2])
    ));
    assert!(!proxy_may_announce(
        &quorums,
        Slot(2),
        NodeSet::from_iter([n3])
    ));
    assert!(proxy_may_announce(
        &quorums,
        Slot(2),
        NodeSet::from_iter([n2, n3])
    ));
    let announced = (game.world().in_flight().iter())
        .any(|message| matches!(message.envelope.message, LogMessage::SlotChosen { slot, .. } if slot == Slot(2)));
    assert!(!announced, "P1 announced nothing for slot 2");
    let text = refused(&mut game, "together");
    assert!(text.contains("act4-proxy-keyed-by-slot-control"), "{text}");
    assert!(text.contains("{N2, N3} together"), "{text}");
    let text = refused(&mut game, "highest");
    assert!(text.contains("at 2.N3 is false"), "{text}");
    assert_eq!(game.goal(), Goal::Open, "not yet answered");
    play(&mut game, &["answer no"]);
    assert_eq!(game.goal(), Goal::Reached);
}

#[test]
fn the_reference_solution_answers_c1_and_keeps_every_checker_quiet() {
    let mut game = mount();
    let solution = game.level().solution;
    play(&mut game, solution);
    assert_eq!(game.goal(), Goal::Reached);
    let chosen: Vec<u64> = (game.world().chosen_by_votes().into_iter())
        .map(|votes| votes.slot.0)
        .collect();
    assert_eq!(
        chosen,
        vec![1],
        "x=1 chosen; slot 2 not yet at any one ballot"
    );
    assert!(game.world().violations().is_empty());
}

#[test]
fn without_a_crash_the_goal_stays_open() {
    // The whole solution but the crash: both questions are asked and answered, C1 is answered,
    // and the goal still wants a proxy crashed mid-slot.
    let mut game = mount();
    let solution: Vec<&str> = (game.level().solution.iter().copied())
        .filter(|step| *step != "crash P2")
        .collect();
    play(&mut game, &solution);
    let items = game.level().rules.checklist(game.run(), game.memory());
    assert!(!items[0].done, "{items:?}");
    assert!(items[1].done && items[2].done, "{items:?}");
    assert_eq!(game.goal(), Goal::Open);
}

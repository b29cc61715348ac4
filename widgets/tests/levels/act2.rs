//! Act II's levels, played end to end on the replicated-log world: every reference solution
//! reaches its goal, undo is exact, every wrong answer is refused without touching the world
//! and is explained with the prompt's own slots and ballots, and the JSON keeps its shape.

use paros_play::{
    Automation, Board, Game, Goal, Level, Mounted, PlayError, PromptKind, View, catalog, levels,
    parse_action,
};
use paros_sim::replicated_log::LogWorld;

use super::{mount_log as mount, play, play_to_answer, refused, snapshot};

type LogGame = Game<LogWorld>;

#[test]
fn every_act2_solution_reaches_its_goal_without_a_mistake_or_a_violation() {
    for level in levels::log_levels() {
        let mut game = mount(level.id);
        assert_eq!(game.goal(), Goal::Open, "{}", level.id);
        play(&mut game, level.solution);
        assert_eq!(game.goal(), Goal::Reached, "{}", level.id);
        assert!(game.memory().passed, "{}", level.id);
        assert!(game.memory().mistakes.is_empty(), "{}", level.id);
        assert!(
            game.world().violations().is_empty(),
            "{}: {:?}",
            level.id,
            game.world().violations()
        );
        println!("{}: {} steps", level.id, level.solution.len());
    }
}

#[test]
fn undo_takes_back_every_move_of_every_act2_solution_exactly() {
    for level in levels::log_levels() {
        let mut game = mount(level.id);
        let mut before_each_move = Vec::new();
        for step in level.solution {
            before_each_move.push(snapshot(&game));
            game.play(step).expect("plays");
        }
        while let Some(expected) = before_each_move.pop() {
            game.undo().expect("undo");
            assert_eq!(snapshot(&game), expected, "{}", level.id);
        }
        assert_eq!(game.undo().unwrap_err(), PlayError::NothingToUndo);
    }
}

#[test]
fn every_wrong_choice_of_every_act2_prompt_is_refused_and_names_a_slot_or_ballot() {
    let ballot = |text: &str| {
        text.split(|c: char| !(c.is_alphanumeric() || c == '.'))
            .any(|word| {
                word.split_once('.').is_some_and(|(round, owner)| {
                    round.parse::<u32>().is_ok() && owner.starts_with('N')
                })
            })
    };
    // Act III's read levels are checked in `act3_reads.rs`: their answers may name a
    // linearizability checker's finding instead.
    let names_slots =
        |level: &&Level<LogWorld>| level.act == 2 || level.chapter == levels::act3::TRUNCATION;
    for level in levels::log_levels().filter(names_slots) {
        let mut game = mount(level.id);
        super::refuse_every_wrong_choice(&mut game, "ballot or slot", |text| {
            ballot(text) || text.contains("slot")
        });
    }
}

#[test]
fn persist_before_send_explains_send_first_with_the_decision_it_would_unmake() {
    let mut game = mount("act2/persist-before-send");
    play_to_answer(&mut game, 0);
    let prompt = game.prompt().unwrap();
    assert_eq!(prompt.kind, PromptKind::Question);
    assert!(
        prompt
            .question
            .contains("Accept(slot 1, x=1 (C1#1) at 1.N1)"),
        "{}",
        prompt.question
    );
    let text = refused(&mut game, "send");
    assert!(
        text.contains("{N1, N2} is a Phase-2 quorum at 1.N1"),
        "{text}"
    );
    assert!(
        text.contains(
            "The agreement checker reports: slot 1: x=1 (C1#1) chosen at 1.N1 by {N1, N2}; \
             y=2 (C2#1) chosen at 1.N3 by {N2, N3}."
        ),
        "the wrong answer is played on and caught: {text}"
    );
    assert!(text.contains("Slot 1 decided twice"), "{text}");
    assert_eq!(View::of(&game).hints.len(), 1, "a hint after a mistake");
    play(&mut game, &["answer persist"]);
    let send = parse_action(game.world(), r#"{"kind":"send","node":"N2"}"#).unwrap();
    assert!(
        game.act(send).is_err(),
        "the world offers send only after persist"
    );
    play(&mut game, &["crash N2"]);
    let text = refused(&mut game, "yes");
    assert!(text.contains("no vote for slot 1 at 1.N1"), "{text}");
}

#[test]
fn a_log_of_decisions_refuses_to_apply_above_the_hole() {
    let mut game = mount("act2/a-log-of-decisions");
    play_to_answer(&mut game, 0);
    let prompt = game.prompt().unwrap().clone();
    assert_eq!(prompt.kind, PromptKind::ApplyWalk);
    assert!(prompt.facts.contains(&"N1's chosen_index: 1".to_string()));
    let text = refused(&mut game, "3");
    assert!(text.contains("Slot 2 is not known chosen at N1"), "{text}");
    assert!(text.contains("c=3 (C3#1) (chosen at 1.N1)"), "{text}");
    refused(&mut game, "2-3");
    play_to_answer(&mut game, 1);
    let text = refused(&mut game, "nothing");
    assert!(text.contains("Every slot through 3 is chosen"), "{text}");
    let text = refused(&mut game, "2");
    assert!(text.contains("stopping at slot 2"), "{text}");
}

#[test]
fn a_log_of_decisions_fails_when_slot_2_is_chosen_first() {
    let mut game = mount("act2/a-log-of-decisions");
    play(
        &mut game,
        &[
            "deliver N1->N2 Accept(1.N1, slot 2",
            "deliver N2->N1 Accepted(1.N1, slot 2)",
            "answer 2",
            "deliver N1->N2 Accept(1.N1, slot 3",
            "deliver N2->N1 Accepted(1.N1, slot 3)",
            "answer 3",
        ],
    );
    let Goal::Failed(reason) = game.goal() else {
        panic!("expected a failure, got {:?}", game.goal());
    };
    assert!(
        reason.contains("slot 2 was chosen before slot 3"),
        "{reason}"
    );
    assert!(game.enabled().is_empty());
}

#[test]
fn elect_a_leader_recovers_each_slot_by_p2c_and_runs_phase_1_once() {
    let mut game = mount("act2/elect-a-leader");
    play_to_answer(&mut game, 0);
    let prompt = game.prompt().unwrap().clone();
    assert_eq!(prompt.kind, PromptKind::RecoverSlots);
    assert!(
        prompt
            .facts
            .contains(&"slot 1: the Promises report x=1 (C1#1) at 1.N1".to_string())
    );
    let text = refused(&mut game, "1:noop");
    assert!(
        text.contains("report x=1 (C1#1) at 1.N1 for slot 1"),
        "{text}"
    );
    assert!(
        text.contains("a no-op at 2.N2") || text.contains("Proposing no-op at 2.N2"),
        "{text}"
    );
    let text = refused(&mut game, "2:skip");
    assert!(text.contains("slot 2 is a hole in the log"), "{text}");
    play_to_answer(&mut game, 1);
    let text = refused(&mut game, "yes");
    assert!(
        text.contains(
            "its Prepare covered every slot from the first it did not know chosen, slot 3 included"
        ),
        "{text}"
    );
}

#[test]
fn the_permanent_gap_is_filled_with_a_no_op_and_never_left() {
    let mut game = mount("act2/the-permanent-gap");
    play(
        &mut game,
        &[
            "drop N1->N2 Accept(1.N1, slot 1",
            "drop N1->N3 Accept(1.N1, slot 1",
            "deliver N1->N2 Accept(1.N1, slot 2",
            "deliver N2->N1 Accepted",
        ],
    );
    let n1 = &View::of(&game).nodes[0];
    let states: Vec<&str> = n1.slots.iter().map(|slot| slot.state).collect();
    assert_eq!(
        states,
        ["hole", "chosen"],
        "slot 2 chosen above a hole at N1"
    );
    assert_eq!(n1.chosen_gap, Some(Some(1)));
    play_to_answer(&mut game, 0);
    assert!(
        game.prompt()
            .unwrap()
            .facts
            .contains(&"slot 1: no Promise reports a vote".to_string())
    );
    let text = refused(&mut game, "1:skip");
    assert!(text.contains("slot 1 is a hole in the log"), "{text}");
    assert!(text.contains("wedged"), "{text}");
    let text = refused(&mut game, "1:a=1");
    assert!(text.contains("only {N1} holds it"), "{text}");
    assert!(text.contains("below 2.N2"), "{text}");
    let text = refused(&mut game, "2:noop");
    assert!(
        text.contains("report b=2 (C2#1) at 1.N1 for slot 2"),
        "{text}"
    );
}

#[test]
fn what_survives_a_crash_names_the_stale_vote_the_overwrite_rule_replaces() {
    let mut game = mount("act2/what-survives-a-crash");
    play_to_answer(&mut game, 0);
    let text = refused(&mut game, "marked-chosen");
    assert!(text.contains("N2 voted for a=1 (C1#1) at 1.N2"), "{text}");
    play_to_answer(&mut game, 1);
    let text = refused(&mut game, "decided");
    assert!(
        text.contains("still says a=1 (C1#1) at 1.N2, a stale vote"),
        "{text}"
    );
    play_to_answer(&mut game, 2);
    let text = refused(&mut game, "stale-chosen");
    assert!(
        text.contains("holds a=1 (C1#1) at 1.N2: on restart N2 rebuilds"),
        "{text}"
    );
    assert!(
        text.contains("the cluster chose b=2 (C2#1) by {N1, N3} at 1.N3"),
        "{text}"
    );
    assert!(View::of(&game).nodes[1].disk.is_none(), "N2 is kept back");
    let disk = game.world().nodes(&game.by_hand())[1].disk.clone().unwrap();
    assert_eq!(disk.chosen_through, 1);
    assert_eq!(disk.accepts[0].entry, "b=2 (C2#1)");
}

/// The stage's chosen log, as the browser reads it: `(slot, entry, ballot, by)`.
fn chosen_log(game: &LogGame) -> Vec<(u64, String, String, Vec<String>)> {
    View::of(game)
        .cluster
        .expect("an Act II view")
        .decided
        .into_iter()
        .map(|slot| (slot.slot, slot.entry, slot.ballot, slot.by))
        .collect()
}

#[test]
fn what_survives_a_crash_judges_chosen_from_the_votes_and_fails_once_a_is_chosen() {
    // Proves that chosen is read from the votes, before any node learns it, and that a move
    // which makes the briefing's plan impossible fails the goal until it is undone.
    let mut game = mount("act2/what-survives-a-crash");
    assert_eq!(chosen_log(&game), []);
    play(&mut game, &["deliver N2->N3 Accept"]);
    assert_eq!(
        chosen_log(&game),
        [(
            1,
            "a=1 (C1#1)".to_string(),
            "1.N2".to_string(),
            vec!["N2".to_string(), "N3".to_string()]
        )],
        "N3's vote joins N2's: a Phase-2 quorum, though no node has learned it"
    );
    assert!(game.world().decided().is_empty(), "nobody has learned it");
    let Goal::Failed(reason) = game.goal() else {
        panic!("expected a failure, got {:?}", game.goal());
    };
    assert!(
        reason.contains("a=1 (C1#1) is chosen in slot 1 (by {N2, N3} at 1.N2)"),
        "{reason}"
    );
    assert!(
        reason.contains("write b=2 can never be chosen there"),
        "{reason}"
    );
    assert!(reason.contains("Undo"), "{reason}");
    assert!(game.enabled().is_empty(), "a failed goal offers no move");
    game.undo().expect("undo");
    assert_eq!(game.goal(), Goal::Open);
    assert_eq!(chosen_log(&game), []);
}

#[test]
fn what_survives_a_crash_says_a_vote_chosen_but_not_learned_is_not_marked_chosen() {
    // Proves the restart prompt when N2's vote is chosen but N2 crashed before learning it:
    // the facts name the quorum, the right answer holds the vote unmarked and never says
    // nothing is chosen, and marking it chosen is refused with the reason.
    let mut game = mount("act2/what-survives-a-crash");
    let solution = game.level().solution;
    let steps = solution
        .iter()
        .position(|step| *step == "tick N3")
        .expect("N3's election");
    // Steps 1 and 2 of the plan: b=2 chosen by N1 and N3, N2's vote for a=1 stale.
    play(&mut game, &solution[..steps]);
    play_to_answer(&mut game, 1);
    play(
        &mut game,
        &[
            "answer record",
            // N3's Accept reaches N2 at last: N2 votes for b=2, which is chosen already.
            "deliver N3->N2 Accept",
            "crash N2",
            "restart N2",
        ],
    );
    assert_eq!(game.goal(), Goal::Open, "b=2 is the plan's decision");
    let prompt = game.prompt().expect("the record question").clone();
    assert!(
        prompt
            .facts
            .contains(&"the cluster has chosen b=2 (C2#1) in slot 1 (by {N1, N3} at 1.N3)".into()),
        "{:?}",
        prompt.facts
    );
    let right = prompt.choices.iter().find(|choice| choice.right).unwrap();
    assert_eq!(
        right.label,
        "promise 1.N3; slot 1: b=2 (C2#1) at 1.N3; chosen through 0"
    );
    assert!(
        !right.explanation.contains("nothing is"),
        "{}",
        right.explanation
    );
    assert!(
        right
            .explanation
            .contains("chosen is a fact about the votes"),
        "{}",
        right.explanation
    );
    assert!(
        prompt
            .choices
            .iter()
            .filter(|choice| !choice.right)
            .all(|choice| choice.label != right.label)
    );
    let text = refused(&mut game, "marked-chosen");
    assert!(
        text.contains("a node writes that a slot is chosen only when it learns so"),
        "{text}"
    );
    play(&mut game, &["answer record"]);
    assert!(
        !game.memory().records.contains("overwritten"),
        "only learning the decision over a stale vote counts as the last step"
    );
}

#[test]
fn what_survives_a_crash_solution_ends_with_b_chosen_and_learned() {
    // Proves the reference solution still reaches the goal, with the stage's chosen log and
    // N2's disk agreeing on b=2.
    let mut game = mount("act2/what-survives-a-crash");
    let solution = game.level().solution;
    play(&mut game, solution);
    assert_eq!(game.goal(), Goal::Reached);
    let log = chosen_log(&game);
    assert_eq!(log.len(), 1, "{log:?}");
    assert_eq!((log[0].0, log[0].1.as_str()), (1, "b=2 (C2#1)"));
    assert_eq!(log[0].2, "1.N3");
    let disk = View::of(&game).nodes[1].disk.clone().unwrap();
    assert_eq!(disk.accepts[0].entry, log[0].1);
}

#[test]
fn the_read_that_lies_waits_for_a_quorum_and_the_watermark() {
    let mut game = mount("act2/the-read-that-lies");
    play_to_answer(&mut game, 0);
    let prompt = game.prompt().unwrap().clone();
    assert_eq!(prompt.kind, PromptKind::ServeOrWait);
    assert!(prompt.question.contains("Serve x = 1 now, or wait?"));
    let text = refused(&mut game, "serve");
    assert!(
        text.contains("C1's write of x = 2 completed before this read began"),
        "{text}"
    );
    assert!(text.contains("stale read"), "{text}");
    play_to_answer(&mut game, 1);
    let text = refused(&mut game, "serve");
    assert!(text.contains("{N1, N3} report slots up to 2"), "{text}");
    play_to_answer(&mut game, 3);
    let text = refused(&mut game, "wait");
    assert!(text.contains("at or past the watermark, slot 2"), "{text}");
}

#[test]
fn beat_is_offered_only_with_heartbeat_delivery_earned_and_not_pinned() {
    let level = levels::find_act2("act2/what-survives-a-crash").unwrap();
    let solution = level.solution;
    let before_beat = solution.iter().position(|step| *step == "tick N3").unwrap();
    let learn = solution.len() - 3 - 4;
    let mut earned = Game::new(
        level,
        &[
            Automation::AcceptorReplies,
            Automation::P2c,
            Automation::Heartbeats,
        ],
    )
    .unwrap();
    play(&mut earned, &solution[..learn]);
    let controls = View::of(&earned).controls;
    assert!(
        controls
            .iter()
            .any(|control| control.label.starts_with("Beat N3")),
        "{controls:?}"
    );
    play(
        &mut earned,
        &["beat N3", "crash N2", "restart N2", "answer record"],
    );
    assert_eq!(earned.goal(), Goal::Reached);

    let mut unearned = mount("act2/what-survives-a-crash");
    play(&mut unearned, &solution[..learn]);
    assert!(matches!(
        unearned.play("beat N3"),
        Err(PlayError::NotEnabled(_))
    ));
    assert!(before_beat < learn);
    let steady = levels::find_act2("act2/steady-state").unwrap();
    let pinned = Game::new(steady, &Automation::ALL).unwrap();
    assert!(
        !pinned.automation_on(Automation::Heartbeats),
        "steady-state teaches it"
    );
}

#[test]
fn act2_view_json_carries_the_log_the_disk_the_arc_and_the_clients() {
    let mut game = mount("act2/persist-before-send");
    play(&mut game, &["deliver N1->N2 Accept"]);
    // While the question about N2's Ready is open, N2 is kept back: its card is the answer.
    let asked: serde_json::Value = serde_json::from_str(&View::of(&game).to_json()).unwrap();
    assert_eq!(asked["kept_back"]["names"][0], "N2");
    assert!(asked["nodes"][1].get("disk").is_none());
    let mut json: serde_json::Value = serde_json::from_str(&View::of(&game).to_json()).unwrap();
    json["nodes"] = serde_json::to_value(game.world().nodes(&game.by_hand())).unwrap();
    let n2 = &json["nodes"][1];
    assert_eq!(n2["name"], "N2");
    assert_eq!(n2["role"], "follower");
    assert_eq!(n2["up"], true);
    assert_eq!(n2["timeout_ticks"], 2);
    assert_eq!(n2["chosen_index"], 0);
    assert_eq!(n2["slots"][0]["state"], "undecided");
    assert_eq!(n2["slots"][0]["ballot"], "1.N1");
    assert_eq!(n2["disk"]["held"]["persisted"], false);
    assert_eq!(
        n2["disk"]["held"]["writes"][0],
        "Accept(slot 1, x=1 (C1#1) at 1.N1)"
    );
    assert_eq!(n2["disk"]["promised"], "1.N1");
    assert_eq!(json["nodes"][0]["role"], "leader");
    assert_eq!(json["cluster"]["stepwise"], true);
    assert_eq!(
        json["cluster"]["decided"],
        serde_json::json!([]),
        "N2's vote is still in its Ready: nothing is chosen"
    );
    assert_eq!(json["cluster"]["clients"][0]["name"], "C1");
    assert_eq!(
        json["cluster"]["clients"][0]["outstanding"]["op"],
        "write x=1"
    );
    assert_eq!(json["cluster"]["budget"]["crashes"], 3);
    assert_eq!(json["prompt"]["kind"], "question");
    let accept = json["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|message| message["kind"] == "accept")
        .unwrap();
    assert_eq!(accept["slot"], 1);
    assert_eq!(accept["ballot"], "1.N1");
    let toggles: Vec<&str> = json["automation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|toggle| toggle["name"].as_str().unwrap())
        .collect();
    assert_eq!(toggles, ["p2c", "apply-walk", "heartbeats"]);
    play(&mut game, &["answer persist", "crash N2", "answer no"]);
    let json: serde_json::Value = serde_json::from_str(&View::of(&game).to_json()).unwrap();
    assert_eq!(json["nodes"][1]["role"], "crashed");
    assert_eq!(json["nodes"][1]["up"], false);
    assert!(
        json["controls"].as_array().unwrap().iter().any(
            |control| control["action"] == serde_json::json!({"kind": "restart", "node": "N2"})
        )
    );
}

#[test]
fn a_mounted_game_plays_either_act_through_json() {
    let mut act1 = Mounted::new("act1/choose-a-value", &[]).unwrap();
    act1.act_json(r#"{"kind":"deliver","message":1}"#).unwrap();
    assert_eq!(act1.view().moves, 1);
    assert!(act1.view().cluster.is_none());

    let mut act2 = Mounted::new("act2/steady-state", &Automation::ALL).unwrap();
    let start = act2.view().fingerprint;
    act2.act_json(r#"{"kind":"request","client":"C1","node":"N1"}"#)
        .unwrap();
    let view = act2.view();
    assert_eq!(view.cluster.as_ref().unwrap().clients[0].history.len(), 1);
    let write = view
        .messages
        .iter()
        .find(|message| message.kind == "write")
        .unwrap();
    act2.act_json(&format!(r#"{{"kind":"deliver","message":{}}}"#, write.id))
        .unwrap();
    for bad in [
        r#"{"kind":"tick","node":"N9"}"#,
        r#"{"kind":"start","node":"P1"}"#,
        r#"{"kind":"request","client":"N1","node":"N2"}"#,
        r#"{"kind":"beat","node":"N1"}"#,
    ] {
        let before = act2.view().fingerprint;
        assert!(act2.act_json(bad).is_err(), "{bad}");
        assert_eq!(act2.view().fingerprint, before, "{bad} changed nothing");
    }
    act2.undo().unwrap();
    act2.undo().unwrap();
    assert_eq!(act2.view().fingerprint, start);
    assert!(matches!(
        Mounted::new("act2/nowhere", &[]),
        Err(PlayError::UnknownLevel(_))
    ));
    assert!(serde_json::from_str::<serde_json::Value>(&act2.view_json()).is_ok());
    assert_eq!(
        catalog().len(),
        levels::ACT1.len()
            + levels::ACT2.len()
            + levels::ACT3.len()
            + levels::ACT4.len()
            + levels::ACT4_MATCHMAKER.len()
            + levels::ACT4_DISK_FAULTS.len()
    );
}

#[test]
fn random_act2_play_never_panics_keeps_safety_and_undoes_to_the_start() {
    let earned: [&[Automation]; 2] = [&[], &Automation::ALL];
    for level in levels::log_levels() {
        for seed in 1..=12u64 {
            let unlocked = earned[usize::try_from(seed % 2).unwrap()];
            super::random_play(level, unlocked, seed, 60, |world: &LogWorld| {
                world.violations().is_empty()
            });
        }
    }
}

#[test]
fn persist_before_send_asks_the_order_of_a_promise_too() {
    let mut game = mount("act2/persist-before-send");
    play(
        &mut game,
        &[
            "tick N3",
            "tick N3",
            // N3 stands: the ballot it stands at is written before its Prepares leave.
            "persist N3",
            "send N3",
            // Its own Prepare came back: it promises itself.
            "persist N3",
            "send N3",
            "deliver N3->N2 Prepare",
        ],
    );
    let prompt = game.prompt().expect("the order question").clone();
    assert!(
        prompt.question.contains("Promise(1.N3)"),
        "{}",
        prompt.question
    );
    let text = refused(&mut game, "send");
    assert!(
        text.contains("counts it toward its Phase-1 quorum at 1.N3"),
        "{text}"
    );
    play(&mut game, &["answer persist", "persist N2", "send N2"]);
}

#[test]
fn every_act2_action_in_api_md_parses() {
    let game = mount("act2/persist-before-send");
    for json in [
        r#"{"kind": "deliver", "message": 7}"#,
        r#"{"kind": "drop", "message": 7}"#,
        r#"{"kind": "duplicate", "message": 7}"#,
        r#"{"kind": "tick", "node": "N2"}"#,
        r#"{"kind": "crash", "node": "N2"}"#,
        r#"{"kind": "torn-crash", "node": "N2"}"#,
        r#"{"kind": "restart", "node": "N2"}"#,
        r#"{"kind": "persist", "node": "N2"}"#,
        r#"{"kind": "send", "node": "N2"}"#,
        r#"{"kind": "partition", "node": "N3"}"#,
        r#"{"kind": "heal"}"#,
        r#"{"kind": "request", "client": "C1", "node": "N3"}"#,
        r#"{"kind": "beat", "node": "N1"}"#,
        r#"{"kind": "next-stage"}"#,
    ] {
        assert!(parse_action(game.world(), json).is_ok(), "{json}");
    }
    for json in [
        r#"{"kind": "start", "node": "P1"}"#,
        r#"{"kind": "tick", "node": "C1"}"#,
        r#"{"kind": "request", "client": "C9", "node": "N1"}"#,
    ] {
        assert!(
            matches!(
                parse_action(game.world(), json),
                Err(PlayError::BadInput(_))
            ),
            "{json}"
        );
    }
}

#[test]
fn a_mounted_act2_game_restarts_and_switches_toggles() {
    let mut game = Mounted::new("act2/the-permanent-gap", &Automation::ALL).unwrap();
    let start = game.view().fingerprint;
    game.play("drop N1->N2 Accept(1.N1, slot 1").unwrap();
    assert_ne!(game.view().fingerprint, start);
    game.restart();
    assert_eq!(game.view().fingerprint, start);
    assert_eq!(
        game.set_automation(Automation::P2c, true),
        Err(PlayError::Pinned(Automation::P2c)),
        "the level teaches recovery"
    );
    game.set_automation(Automation::Heartbeats, false).unwrap();
    let heartbeats = game
        .view()
        .automation
        .into_iter()
        .find(|toggle| toggle.name == "heartbeats")
        .unwrap();
    assert!(heartbeats.unlocked && !heartbeats.on && heartbeats.pinned.is_none());
}

#[test]
fn a_leader_with_nothing_to_recover_is_not_asked() {
    // With P2c not yet earned, N3 leads over {N1, N3} before any command was proposed: no
    // Promise reports a vote, so there is no slot to answer for.
    let level = levels::find_act2("act2/steady-state").unwrap();
    let mut game = Game::new(level, &[]).unwrap();
    assert!(!game.automation_on(Automation::P2c));
    play(
        &mut game,
        &[
            "tick N3",
            "tick N3",
            "deliver N3->N1 Prepare",
            "deliver N1->N3 Promise",
        ],
    );
    assert!(game.prompt().is_none());
    let n3 = &View::of(&game).nodes[2];
    assert_eq!(
        (n3.role, n3.ballot.clone()),
        ("leader", Some(Some("1.N3".into())))
    );
}

/// Act II and later mark an old-ballot message "harmless now" as Act I does, judged by the
/// real receiver on a copy: along every log level's reference solution, each message so marked
/// leaves its receiver as it was when it is delivered, and some message is marked.
#[test]
fn a_message_marked_harmless_changes_nothing_at_its_receiver() {
    let mut marked = Vec::new();
    for level in levels::log_levels() {
        let mut game = mount(level.id);
        for step in level.solution {
            if game.prompt().is_none() {
                let view = View::of(&game);
                for message in view.messages.iter().filter(|m| m.harmless.is_some()) {
                    let mut copy = game.clone();
                    let delivered = copy.play(&format!("deliver m{}", message.id));
                    assert!(delivered.is_ok(), "{}: {delivered:?}", level.id);
                    let receiver = |view: &View| {
                        let node = view.nodes.iter().find(|node| node.name == message.to);
                        serde_json::to_string(&node).expect("serializes")
                    };
                    assert_eq!(
                        receiver(&View::of(&copy)),
                        receiver(&view),
                        "{}: {} was marked {:?}",
                        level.id,
                        message.text,
                        message.harmless
                    );
                    marked.push(format!("{}: {}", level.id, message.text));
                }
            }
            play(&mut game, &[step]);
        }
    }
    assert!(
        marked
            .iter()
            .any(|text| text.starts_with("act2/elect-a-leader: Accept(1.N1")),
        "the deposed leader's Accepts are not marked harmless: {marked:?}"
    );
}

//! Act IV's Matchmaker Paxos levels. `act4/matchmaking`: L3 registers round 3.L3 with the
//! matchmakers, reads its history back (judged against the real leader's history, which
//! paros-core's `history_from_replies` built) and closes Phase 1 over both configurations of it
//! (judged by `phase1_complete`). `act4/reconfigure`: L2 moves the system onto the spare A4 by
//! a round change, and the removed A1's Promise and the spare's Accepted are judged against
//! what the real leader counted. Each wrong answer is refused without touching the world.

use paros_core::matchmaker::{
    History, Stage, history_from_replies, installed_is_collectable, phase1_complete,
};
use paros_play::{Game, Goal, PlayError, PromptKind, View, levels, parse_action};
use paros_sim::matchmaker::{MatchmakerWorld, round_name, safety};

use super::{play, play_to_answer, random_play, refuse_every_wrong_choice, refused};

const ID: &str = "act4/matchmaking";

fn mount() -> Game<MatchmakerWorld> {
    mount_level(ID)
}

fn mount_level(id: &str) -> Game<MatchmakerWorld> {
    let level = levels::find_matchmaker(id).expect("a matchmaker level");
    Game::new(level, level.solution_unlocked).expect("mounts")
}

/// The values chosen, by round: `x at 1.L1`.
fn chosen(game: &Game<MatchmakerWorld>) -> Vec<String> {
    (game.world().chosen().iter())
        .map(|(round, value)| format!("{value} at {}", round_name(*round)))
        .collect()
}

fn view(game: &Game<MatchmakerWorld>) -> serde_json::Value {
    serde_json::from_str(&View::of(game).to_json()).unwrap()
}

/// Whether `text` names a round of this world, a leader's (`3.L3`) or the reconfigurer's
/// ballot in the successor decree (`1.R1`).
fn names_a_round(text: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '.'))
        .any(|word| {
            word.split_once('.').is_some_and(|(round, owner)| {
                round.parse::<u32>().is_ok() && (owner.starts_with('L') || owner.starts_with('R'))
            })
        })
}

#[test]
fn the_level_is_listed_after_proxy_leaders_and_plays_in_its_own_module() {
    let ids: Vec<&str> = paros_play::catalog().iter().map(|level| level.id).collect();
    let proxies = ids.iter().position(|id| *id == "act4/proxy-leaders");
    assert_eq!(
        ids.iter().position(|id| *id == ID),
        proxies.map(|at| at + 1)
    );
    let summary = levels::ACT4_MATCHMAKER[0].summary();
    assert_eq!(summary.module, "matchmaker");
    assert!(paros_play::MODULES.contains(&"matchmaker"));
    assert_eq!(summary.worlds, [ID]);
    let mounted = paros_play::Mounted::new(ID, &[]).expect("mounts");
    assert_eq!(mounted.view().level.id, ID);
}

#[test]
fn the_solution_reaches_the_goal_without_a_mistake_and_x_is_chosen_again() {
    let mut game = mount();
    assert_eq!(game.goal(), Goal::Open);
    let solution = game.level().solution;
    play(&mut game, solution);
    assert_eq!(game.goal(), Goal::Reached);
    assert!(game.memory().mistakes.is_empty());
    assert_eq!(
        chosen(&game),
        ["x at 1.L1", "x at 3.L3"],
        "L3 adopts x, never z"
    );
    assert!(safety(game.world()).is_empty());
}

/// What undo must restore: the world, the prompt and every part of the stage.
fn snapshot(game: &Game<MatchmakerWorld>) -> (u64, String) {
    let view = View::of(game);
    let shown = serde_json::json!({
        "nodes": serde_json::to_value(&view.nodes).unwrap(),
        "messages": serde_json::to_value(&view.messages).unwrap(),
        "controls": serde_json::to_value(&view.controls).unwrap(),
        "prompt": serde_json::to_value(&view.prompt).unwrap(),
        "matchmaking": serde_json::to_value(&view.matchmaking).unwrap(),
        "log": view.log,
    });
    (game.fingerprint(), shown.to_string())
}

#[test]
fn undo_takes_back_every_move_of_every_solution_exactly() {
    for level in levels::ACT4_MATCHMAKER {
        let mut game = mount_level(level.id);
        let mut before_each_move = Vec::new();
        for step in game.level().solution {
            before_each_move.push(snapshot(&game));
            game.play(step).expect("plays");
        }
        assert_eq!(game.goal(), Goal::Reached, "{}", level.id);
        while let Some(expected) = before_each_move.pop() {
            game.undo().expect("undo");
            assert_eq!(snapshot(&game), expected, "{}", level.id);
        }
        assert_eq!(game.undo().unwrap_err(), PlayError::NothingToUndo);
        assert!(game.memory().passed, "{}", level.id);
    }
}

#[test]
fn every_wrong_choice_is_refused_and_names_a_round() {
    for level in levels::ACT4_MATCHMAKER {
        let mut game = mount_level(level.id);
        refuse_every_wrong_choice(&mut game, "round", names_a_round);
    }
}

#[test]
fn reconfigure_chooses_x_again_in_c2_with_the_spares_vote() {
    let mut game = mount_level("act4/reconfigure");
    let solution = game.level().solution;
    play(&mut game, solution);
    assert_eq!(game.goal(), Goal::Reached);
    assert!(game.memory().mistakes.is_empty());
    assert_eq!(chosen(&game), ["x at 1.L1", "x at 2.L2"]);
    let voters = game.world().votes()[&game.world().leaders()[1].round()].voters;
    assert_eq!(paros_sim::matchmaker::set_name(voters), "{A3, A4}");
    assert!(safety(game.world()).is_empty());
}

#[test]
fn reconfigure_counts_the_removed_acceptors_promise_as_the_real_leader_does() {
    let mut game = mount_level("act4/reconfigure");
    play_to_answer(&mut game, 0);
    let prompt = game
        .prompt()
        .expect("the removed acceptor's question")
        .clone();
    assert_eq!(
        prompt.question,
        "A1's Promise for 2.L2 reached L2. A1 is not in C2 {A2, A3, A4}. Does it count toward \
         Phase 1?"
    );
    let leader = &game.world().leaders()[1];
    assert!(
        leader
            .promised_by()
            .contains(paros_sim::matchmaker::MatchmakerWorldConfig::acceptor_id(1))
    );
    assert_eq!(prompt.right_key(), "counts");
    let text = refused(&mut game, "ignored");
    assert!(text.contains("Removed is not retired"), "{text}");
    assert!(
        text.contains("phase1_complete over {A1} is now false"),
        "{text}"
    );
    play(&mut game, &["answer counts"]);
    play_to_answer(&mut game, 1);
    let prompt = game.prompt().expect("the spare's question").clone();
    assert!(
        prompt
            .question
            .starts_with("A4's Accepted for 2.L2 reached L2. A4 never promised 2.L2.")
    );
    assert_eq!(prompt.right_key(), "counts");
    let text = refused(&mut game, "ignored");
    assert!(
        text.contains("a Phase-2 quorum of C2 {A2, A3, A4}: false"),
        "{text}"
    );
}

#[test]
fn the_history_question_is_the_real_leaders_history_and_one_reply_is_not_enough() {
    let mut game = mount();
    play_to_answer(&mut game, 0);
    let prompt = game.prompt().expect("the history question").clone();
    assert_eq!(prompt.kind, PromptKind::Question);
    assert_eq!(prompt.node.as_deref(), Some("L3"));
    let world = game.world();
    let leader = &world.leaders()[2];
    assert_eq!(leader.history().len(), 2, "H holds C1 and C2");
    let right = prompt.choice("history").unwrap();
    assert!(right.right);
    assert!(right.label.contains("1.L1 → C1") && right.label.contains("2.L2 → C2"));
    // M3 never saw round 2: its reply alone, read by history_from_replies, has C1 only.
    let m3 = &world.matchmakers()[2];
    let below: History = (m3.configurations().range(..leader.round()))
        .map(|(round, config)| (*round, *config))
        .collect();
    let alone = history_from_replies([(&below, m3.watermark())]);
    assert_eq!(alone.len(), 1);
    let one_reply = prompt
        .choice("one-reply")
        .expect("M3's reply alone is offered");
    assert!(!one_reply.right);
    assert!(
        one_reply.label.ends_with("what M3 reports"),
        "{}",
        one_reply.label
    );
    assert!(!one_reply.label.contains("2.L2"));
    let text = refused(&mut game, "newest");
    assert!(text.contains("history_from_replies"), "{text}");
    assert!(game.prompt().is_some());
}

#[test]
fn phase1_with_a_quorum_of_c2_alone_is_not_complete_and_names_the_chosen_x() {
    let mut game = mount();
    play_to_answer(&mut game, 1);
    let prompt = game.prompt().expect("the first Phase-1 question").clone();
    assert_eq!(
        prompt.question,
        "L3 holds promises from {A3, A4}. Is Phase 1 of 3.L3 complete?"
    );
    let leader = &game.world().leaders()[2];
    assert_eq!(leader.stage(), Stage::Phase1);
    assert!(!phase1_complete(leader.history(), leader.promised_by()));
    assert_eq!(prompt.right_key(), "not-yet");
    let text = refused(&mut game, "complete");
    assert!(text.contains("phase1_complete is false"), "{text}");
    assert!(text.contains("x is chosen at 1.L1 by {A1, A2}"), "{text}");
    assert!(
        text.contains("act4-matchmaker-phase1-latest-only-control"),
        "{text}"
    );
    play(&mut game, &["answer not-yet"]);
    play_to_answer(&mut game, 2);
    let prompt = game.prompt().expect("the second Phase-1 question").clone();
    assert_eq!(prompt.right_key(), "complete");
    let leader = &game.world().leaders()[2];
    assert!(phase1_complete(leader.history(), leader.promised_by()));
    assert_eq!(
        leader.proposal().map(ToString::to_string).as_deref(),
        Some("x")
    );
}

#[test]
fn two_promises_that_are_a_quorum_of_both_configurations_complete_phase1() {
    // {A2, A3} is 2 of the history's 4 acceptors, no majority of their union, and yet a
    // Phase-1 quorum of C1 and of C2: Phase 1 is complete.
    let mut game = mount();
    play_to_answer(&mut game, 0);
    play(
        &mut game,
        &[
            "answer history",
            "deliver L3->A2 Prepare",
            "deliver L3->A3 Prepare",
            "deliver A2->L3 Promise",
            "deliver A3->L3 Promise",
        ],
    );
    let prompt = game.prompt().expect("the Phase-1 question").clone();
    assert_eq!(prompt.right_key(), "complete");
    let text = refused(&mut game, "not-yet");
    assert!(text.contains("not a majority of them"), "{text}");
    assert!(text.contains("phase1_complete is true"), "{text}");
}

#[test]
fn the_stage_draws_the_matchmaker_plane_and_the_configurations_with_removed_members() {
    let mut game = mount();
    let view = view(&game);
    let matchmaking = &view["matchmaking"];
    let stored = |index: usize| matchmaking["matchmakers"][index]["stored"].clone();
    assert_eq!(
        stored(0).as_array().unwrap().len(),
        2,
        "M1 stores 1.L1 and 2.L2"
    );
    assert_eq!(
        stored(2).as_array().unwrap().len(),
        1,
        "M3 stores 1.L1 only"
    );
    assert_eq!(stored(0)[1]["config"], "C2");
    let configurations = &matchmaking["configurations"];
    assert_eq!(configurations[0]["name"], "C1");
    assert_eq!(
        configurations[0]["members"],
        serde_json::json!(["A1", "A2", "A3"])
    );
    assert_eq!(configurations[0]["removed"], serde_json::json!(["A1"]));
    assert_eq!(
        configurations[1]["rounds"],
        serde_json::json!(["2.L2", "3.L3"])
    );
    assert_eq!(matchmaking["leaders"][2]["stage"], "idle");
    let action = parse_action(game.world(), r#"{"kind":"start","node":"L3"}"#).unwrap();
    game.act(action).unwrap();
    assert_eq!(view_of_leader(&game, 2)["stage"], "matching");
}

fn view_of_leader(game: &Game<MatchmakerWorld>, index: usize) -> serde_json::Value {
    view(game)["matchmaking"]["leaders"][index].clone()
}

#[test]
fn every_played_world_replays_natively_to_the_same_fingerprint() {
    let last_chosen = [
        "chosen: x in round 3.L3",
        "chosen: x in round 2.L2",
        "chosen: x in round 2.L2",
        "chosen: x in round 1.L1",
    ];
    for (level, last) in levels::ACT4_MATCHMAKER.iter().zip(last_chosen) {
        let mut game = mount_level(level.id);
        let solution = game.level().solution;
        play(&mut game, solution);
        let actions: Vec<String> = game.stage_actions();
        let replayed = paros_sim::replay::replay(level.id, &actions).expect("replays");
        let fingerprint = paros_sim::model::Model::fingerprint(game.world());
        assert_eq!(replayed.fingerprint, fingerprint, "{}", level.id);
        assert!(replayed.violations.is_empty(), "{}", level.id);
        assert!(
            replayed.state.iter().any(|line| line == last),
            "{}: {:?}",
            level.id,
            replayed.state
        );
    }
}

#[test]
fn garbage_collection_waits_for_the_value_in_c2_and_retires_a1_with_the_proof() {
    let mut game = mount_level("act4/garbage-collection");
    play_to_answer(&mut game, 0);
    let prompt = game
        .prompt()
        .expect("the first collection question")
        .clone();
    let leader = &game.world().leaders()[1];
    assert_eq!(leader.stage(), Stage::Phase2);
    assert!(!installed_is_collectable(
        true,
        leader.config(),
        leader.accepted_by()
    ));
    assert_eq!(prompt.right_key(), "not-yet");
    let text = refused(&mut game, "collect");
    assert!(
        text.contains(
            "installed_is_collectable(Phase 1 done: true, C2 {A2, A3, A4}, votes {}) is false"
        ),
        "{text}"
    );
    assert!(text.contains("x is chosen at 1.L1 in C1 (1.L1)"), "{text}");
    assert!(
        text.contains("act4-matchmaker-gc-after-phase1-control"),
        "{text}"
    );
    play(&mut game, &["answer not-yet"]);
    play_to_answer(&mut game, 1);
    assert_eq!(game.prompt().unwrap().right_key(), "collect");
    play(&mut game, &["answer collect"]);
    play_to_answer(&mut game, 2);
    let prompt = game
        .prompt()
        .expect("the first retirement question")
        .clone();
    assert_eq!(
        prompt.question,
        "M1 acknowledged watermark 2.L2 to L2. May L2 retire {A1} now?"
    );
    assert!(game.world().leaders()[1].gc_proof().is_none());
    assert_eq!(prompt.right_key(), "not-yet");
    let text = refused(&mut game, "retire");
    assert!(
        text.contains("quorum_of_matchmakers({M1, M2, M3}) is 2"),
        "{text}"
    );
    play(&mut game, &["answer not-yet"]);
    play_to_answer(&mut game, 3);
    assert_eq!(game.prompt().unwrap().right_key(), "retire");
    let rest = &game.level().solution[game.log().len()..];
    play(&mut game, rest);
    assert_eq!(game.goal(), Goal::Reached);
    assert_eq!(
        paros_sim::matchmaker::set_name(game.world().retired()),
        "{A1}"
    );
    assert!(safety(game.world()).is_empty());
}

#[test]
fn generations_bootstrap_the_reconstructed_state_and_the_old_set_decides() {
    let mut game = mount_level("act4/matchmaker-generations");
    let configurations = &view(&game)["matchmaking"]["configurations"];
    assert_eq!(
        configurations[1]["removed"],
        serde_json::json!([]),
        "C2 of the round to come removes nothing yet"
    );
    play_to_answer(&mut game, 0);
    let prompt = game.prompt().expect("the bootstrap question").clone();
    assert_eq!(prompt.node.as_deref(), Some("R1"));
    let reconfigurer = game.world().reconfigurer().unwrap();
    let (history, _) = reconfigurer.reconstructed().unwrap();
    assert_eq!(history.len(), 1, "round 1's configuration");
    assert_eq!(prompt.right_key(), "reconstructed");
    let text = refused(&mut game, "empty");
    assert!(text.contains("skip the configuration of 1.L1"), "{text}");
    play(&mut game, &["answer reconstructed"]);
    play_to_answer(&mut game, 1);
    let prompt = game.prompt().expect("the decision question").clone();
    assert_eq!(prompt.right_key(), "old");
    let text = refused(&mut game, "new");
    assert!(
        text.contains("sent its Prepare at 1.R1 to {M1, M2, M3}"),
        "{text}"
    );
    let rest = &game.level().solution[game.log().len()..];
    play(&mut game, rest);
    assert_eq!(game.goal(), Goal::Reached);
    let configurations = &view(&game)["matchmaking"]["configurations"];
    assert_eq!(configurations[0]["removed"], serde_json::json!(["A1"]));
    let published = game.world().reconfigurer().unwrap().published().unwrap();
    assert_eq!(paros_sim::matchmaker::set_name(published), "{M4, M5, M6}");
    let leader = &game.world().leaders()[1];
    assert_eq!(leader.history().len(), 1, "L2 reads C1 from the new set");
    assert!(safety(game.world()).is_empty());
}

#[test]
fn random_play_keeps_safety_and_undoes_to_the_start() {
    for level in levels::ACT4_MATCHMAKER {
        for seed in 1..=30u64 {
            random_play(level, &[], seed, 80, |world| safety(world).is_empty());
        }
    }
}

#[test]
fn no_wrong_choice_equals_a_right_one_in_random_play() {
    for level in levels::ACT4_MATCHMAKER {
        let checked: usize = (1..=30)
            .map(|seed| super::walk_checking_prompts(level, seed, 80))
            .sum();
        assert!(checked > 0, "{}: no prompt opened", level.id);
    }
}

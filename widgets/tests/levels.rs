//! The levels, played end to end: every reference solution reaches its goal, undo is exact,
//! every wrong answer is refused without touching the world and is explained with the prompt's
//! own ballots, and the JSON the browser reads keeps its shape.

use paros_play::{
    Automation, Board, Game, GameAction, Goal, Mounted, OutcomeKind, PlayError, PromptKind, View,
    catalog, levels, parse_action, parse_unlocked,
};
use paros_sim::single_decree::DecreeWorld;
use paros_sim::single_decree::check;

fn mount(id: &str) -> Game<DecreeWorld> {
    let level = levels::find(id).expect("a level");
    Game::new(level, level.solution_unlocked).expect("mounts")
}

/// A log-world level (Acts II to IV), mounted with the toggles its solution needs.
fn mount_log(id: &str) -> Game<paros_sim::replicated_log::LogWorld> {
    let level = levels::find_act2(id).expect("a log-world level");
    Game::new(level, level.solution_unlocked).expect("mounts")
}

/// Plays the level's solution on from where the game is, up to (not including) its `nth`
/// answer step. Shared with the log levels' tests.
/// Node `number`'s role (1-based) on a log level, if it is up.
fn role(
    game: &Game<paros_sim::replicated_log::LogWorld>,
    number: usize,
) -> Option<paros_core::log::LogRole> {
    game.world().servers()[number - 1]
        .host
        .node()
        .map(|node| node.role())
}

/// Node `number`'s id.
fn node(number: u8) -> paros_core::NodeId {
    paros_core::NodeId::new(number).expect("a node id")
}

fn play_to_answer<B: Board>(game: &mut Game<B>, nth: usize) {
    let solution = game.level().solution;
    let at = solution
        .iter()
        .enumerate()
        .filter(|(_, step)| step.starts_with("answer "))
        .nth(nth)
        .map(|(index, _)| index)
        .expect("that many answers");
    let done = game.log().len();
    play(game, &solution[done..at]);
}

/// Plays `steps`, none of which may be a wrong answer. Shared with Act II's tests.
fn play<B: paros_play::Board>(game: &mut Game<B>, steps: &[&str]) {
    let id = game.level().id;
    for step in steps {
        let outcome = game
            .play(step)
            .unwrap_or_else(|error| panic!("{id}: {step:?}: {error}"))
            .clone();
        assert_ne!(
            outcome.kind,
            OutcomeKind::Wrong,
            "{step:?}: {}",
            outcome.text
        );
    }
}

/// Answers the open prompt with `key` and returns the explanation of the refusal, after
/// checking that nothing but the mistakes changed. Shared with Act II's tests.
fn refused<B: paros_play::Board>(game: &mut Game<B>, key: &str) -> String {
    let before = game.fingerprint();
    let mistakes = game.memory().mistakes.len();
    let log = game.log().len();
    let outcome = game
        .play(&format!("answer {key}"))
        .expect("answers")
        .clone();
    assert_eq!(outcome.kind, OutcomeKind::Wrong, "{key}: {}", outcome.text);
    assert_eq!(
        game.fingerprint(),
        before,
        "a wrong answer never enters the world"
    );
    assert_eq!(game.log().len(), log, "a wrong answer is not a move");
    assert_eq!(game.memory().mistakes.len(), mistakes + 1);
    assert!(game.prompt().is_some(), "the prompt stays open");
    outcome.text
}

/// Plays the level's solution, answering every wrong choice of every prompt first: each is
/// refused, its explanation `names` what it must (a ballot, a slot), and the goal is still
/// reached with one mistake per wrong choice. Shared with Act II's tests.
fn refuse_every_wrong_choice<B: paros_play::Board>(
    game: &mut Game<B>,
    what: &str,
    names: impl Fn(&str) -> bool,
) {
    let id = game.level().id;
    let mut wrong_answers = 0;
    for step in game.level().solution {
        if step.starts_with("answer ") {
            let prompt = game.prompt().expect("a prompt is open").clone();
            for choice in prompt.choices.iter().filter(|choice| !choice.right) {
                let text = refused(game, &choice.key);
                assert!(
                    names(&text),
                    "{id}: {:?} names no {what}: {text}",
                    choice.key
                );
                wrong_answers += 1;
            }
        }
        game.play(step).expect("plays");
    }
    assert!(wrong_answers > 0, "{id} refuses nothing");
    assert_eq!(game.goal(), Goal::Reached, "mistakes do not block: {id}");
    assert_eq!(game.memory().mistakes.len(), wrong_answers);
}

#[test]
fn every_reference_solution_reaches_its_goal_without_a_mistake() {
    for level in levels::ACT1 {
        let mut game = mount(level.id);
        assert_eq!(game.goal(), Goal::Open, "{}", level.id);
        play(&mut game, level.solution);
        assert_eq!(game.goal(), Goal::Reached, "{}", level.id);
        assert!(game.memory().passed, "{}", level.id);
        assert!(game.memory().mistakes.is_empty(), "{}", level.id);
        assert!(check::safety(game.world()).is_empty(), "{}", level.id);
    }
}

#[test]
fn every_reference_solution_answers_at_least_one_prompt() {
    for level in levels::ACT1 {
        assert!(
            level
                .solution
                .iter()
                .any(|step| step.starts_with("answer ")),
            "{} asks the player nothing",
            level.id
        );
    }
}

/// What undo must restore exactly, in either act: the world, the prompt, the stage, the
/// cluster and the message ids.
fn snapshot<B: Board>(game: &Game<B>) -> (u64, String) {
    let view = View::of(game);
    let shown = serde_json::json!({
        "nodes": serde_json::to_value(&view.nodes).unwrap(),
        "messages": serde_json::to_value(&view.messages).unwrap(),
        "controls": serde_json::to_value(&view.controls).unwrap(),
        "prompt": serde_json::to_value(&view.prompt).unwrap(),
        "stage": serde_json::to_value(&view.stage).unwrap(),
        "cluster": serde_json::to_value(&view.cluster).unwrap(),
        "log": view.log,
    });
    (game.fingerprint(), shown.to_string())
}

#[test]
fn undo_takes_back_every_move_of_every_solution_exactly() {
    for level in levels::ACT1 {
        let mut game = mount(level.id);
        let mut before_each_move = Vec::new();
        for step in level.solution {
            if *step == "undo" {
                game.undo().expect("undo");
                let expected = before_each_move.pop().expect("a move to undo");
                assert_eq!(snapshot(&game), expected, "{}: undo", level.id);
            } else {
                before_each_move.push(snapshot(&game));
                game.play(step).expect("plays");
            }
        }
        while let Some(expected) = before_each_move.pop() {
            game.undo().expect("undo");
            assert_eq!(snapshot(&game), expected, "{}", level.id);
        }
        assert_eq!(game.undo().unwrap_err(), PlayError::NothingToUndo);
        assert!(game.memory().passed, "undo keeps the pass: {}", level.id);
    }
}

#[test]
fn every_wrong_choice_of_every_solution_prompt_is_refused_and_names_a_ballot() {
    let ballot = |text: &str| {
        text.split(|c: char| !(c.is_alphanumeric() || c == '.'))
            .any(|word| {
                word.split_once('.').is_some_and(|(round, owner)| {
                    round.parse::<u32>().is_ok() && owner.starts_with('P')
                })
            })
    };
    for level in levels::ACT1 {
        let mut game = mount(level.id);
        refuse_every_wrong_choice(&mut game, "ballot", ballot);
    }
}

#[test]
fn a_hint_answers_the_mistake_made() {
    let mut game = mount("act1/be-the-acceptor");
    let solution = game.level().solution;
    let accept = solution
        .iter()
        .position(|step| *step == "answer accepted")
        .expect("the solution votes");
    play(&mut game, &solution[..accept]);
    refused(&mut game, "nack");
    let hints = View::of(&game).hints;
    assert_eq!(hints.len(), 1);
    assert!(
        hints[0].starts_with("The vote rule"),
        "a wrong vote earns the vote rule's hint first: {hints:?}"
    );

    let mut duel = mount("act1/the-duel");
    play(
        &mut duel,
        &["deliver P2->A1 Prepare", "deliver P1->A1 Prepare"],
    );
    play(&mut duel, &["deliver A1->P1 Nack", "retry P1"]);
    refused(&mut duel, "2.P2");
    let hints = View::of(&duel).hints;
    assert_eq!(hints.len(), 1);
    assert!(
        hints[0].starts_with("A ballot is a round and an owner"),
        "taking another proposer's ballot earns the ownership hint: {hints:?}"
    );
}

#[test]
fn choose_a_value_asks_whether_x_is_chosen_after_each_vote() {
    let mut game = mount("act1/choose-a-value");
    play(
        &mut game,
        &[
            "deliver P1->A1 Prepare",
            "deliver P1->A2 Prepare",
            "deliver A1->P1 Promise",
            "deliver A2->P1 Promise",
            "deliver P1->A1 Accept",
        ],
    );
    let text = refused(&mut game, "yes");
    assert!(text.contains("Only {A1} has voted for 1.P1"), "{text}");
    assert_eq!(
        View::of(&game).hints.len(),
        1,
        "a hint after the first mistake"
    );
    play(&mut game, &["answer no", "deliver P1->A2 Accept"]);
    let text = refused(&mut game, "no");
    assert!(text.contains("{A1, A2} voted for 1.P1"), "{text}");
    assert_eq!(
        View::of(&game).hints.len(),
        2,
        "a second hint after the second"
    );
    assert!(
        game.world().proposers()[0].learned().is_none(),
        "chosen before learned"
    );
}

#[test]
fn choose_a_value_never_delivers_on_the_silent_acceptors_wire() {
    let mut game = mount("act1/choose-a-value");
    let view = View::of(&game);
    let cut = view
        .messages
        .iter()
        .find(|message| message.to == "A3")
        .unwrap();
    assert!(cut.cut && cut.actions.is_empty());
    let action = parse_action(
        game.world(),
        &format!(r#"{{"kind":"deliver","message":{}}}"#, cut.id),
    );
    let error = game.act(action.unwrap()).unwrap_err();
    assert!(error.to_string().contains("cut wire"), "{error}");
}

#[test]
fn be_the_acceptor_refuses_a_promise_below_the_one_held() {
    let mut game = mount("act1/be-the-acceptor");
    play(
        &mut game,
        &[
            "deliver P2->A1 Prepare",
            "answer promise",
            "deliver P1->A1 Prepare",
        ],
    );
    let prompt = game.prompt().unwrap();
    assert_eq!(prompt.kind, PromptKind::PromiseOrNack);
    assert!(prompt.facts.contains(&"A1 has promised 1.P2".to_string()));
    let text = refused(&mut game, "promise");
    assert!(text.contains("A1 has promised 1.P2, above 1.P1"), "{text}");
    assert!(
        text.contains("{A1, A2} could choose x at 1.P1 while {A1, A3} choose y at 1.P2"),
        "{text}"
    );
}

#[test]
fn be_the_acceptor_refuses_a_second_promise_to_a_duplicate_prepare() {
    let mut game = mount("act1/be-the-acceptor");
    play(
        &mut game,
        &[
            "duplicate P1->A1 Prepare",
            "deliver P1->A1 Prepare",
            "answer promise",
            "deliver P1->A1 Prepare",
        ],
    );
    let text = refused(&mut game, "promise");
    assert!(text.contains("A1 already promised 1.P1"), "{text}");
    play(&mut game, &["answer nack"]);
}

#[test]
fn be_the_acceptor_votes_at_exactly_the_promise_and_refuses_below_it() {
    let mut game = mount("act1/be-the-acceptor");
    play(
        &mut game,
        &[
            "deliver P1->A1 Prepare",
            "answer promise",
            "deliver P1->A2 Prepare",
            "answer promise",
            "deliver A1->P1 Promise",
            "deliver A2->P1 Promise",
            "deliver P1->A1 Accept",
        ],
    );
    let text = refused(&mut game, "nack");
    assert!(text.contains("A1 promised exactly 1.P1"), "{text}");
    play(
        &mut game,
        &[
            "answer accepted",
            "deliver P2->A2 Prepare",
            "answer promise",
            "deliver P1->A2 Accept",
        ],
    );
    let text = refused(&mut game, "accepted");
    assert!(text.contains("A2 has promised 1.P2, above 1.P1"), "{text}");
    assert!(
        text.contains("help {A1, A2} choose x at 1.P1 while {A2, A3} choose y at 1.P2"),
        "{text}"
    );
    play(&mut game, &["answer nack"]);
    assert_eq!(game.goal(), Goal::Open, "nothing is chosen yet");
}

#[test]
fn adopt_the_value_names_the_quorum_that_may_have_chosen_the_reported_value() {
    let mut game = mount("act1/adopt-the-value");
    let solution = game.level().solution;
    play(&mut game, &solution[..4]);
    assert_eq!(game.run().stage(), 1);
    play(
        &mut game,
        &["deliver A1->P2 Promise", "deliver A2->P2 Promise"],
    );
    let text = refused(&mut game, "y");
    assert!(
        text.contains(
            "cannot rule out that x was chosen at 1.P1 by {A1, A3}: A3 is outside your quorum {A1, A2}"
        ),
        "{text}"
    );
    play(
        &mut game,
        &[
            "answer x",
            "next-stage",
            "deliver A1->P3 Promise",
            "deliver A2->P3 Promise",
        ],
    );
    let text = refused(&mut game, "x");
    assert!(
        text.contains("cannot rule out that y was chosen at 1.P2 by {A2, A3}"),
        "{text}"
    );
    assert!(text.contains("(1.P1, x) is older than (1.P2, y)"), "{text}");
}

#[test]
fn adopt_the_value_opens_the_next_stage_only_when_this_one_is_won() {
    let mut game = mount("act1/adopt-the-value");
    assert!(matches!(
        game.act(GameAction::NextStage),
        Err(PlayError::NotEnabled(_))
    ));
    play(
        &mut game,
        &[
            "deliver A1->P2 Promise",
            "deliver A2->P2 Promise",
            "answer y",
        ],
    );
    assert_eq!(game.goal(), Goal::Open, "the level goes on");
    assert!(game.next_stage_open());
    let view = View::of(&game);
    assert!(
        view.controls
            .iter()
            .any(|control| control.label == "Next: One vote reported")
    );
    play(&mut game, &["next-stage"]);
    assert_eq!(View::of(&game).stage.title, "One vote reported");
}

#[test]
fn the_duel_asks_for_the_retry_ballot() {
    let mut game = mount("act1/the-duel");
    let solution = game.level().solution;
    play(&mut game, &solution[..5]);
    let prompt = game.prompt().unwrap();
    assert_eq!(prompt.kind, PromptKind::RetryBallot);
    assert_eq!(prompt.right_key(), "2.P1");
    let text = refused(&mut game, "1.P2");
    assert!(text.contains("1.P2 belongs to P2"), "{text}");
    let text = refused(&mut game, "1.P1");
    assert!(text.contains("1.P1 is not above 1.P2"), "{text}");
}

/// Each proposer pre-empts the other until every retry is spent.
const LIVELOCK: &[&str] = &[
    "deliver P1->A1 Prepare",
    "deliver P1->A2 Prepare",
    "deliver P2->A1 Prepare",
    "deliver P2->A2 Prepare",
    "retry P1",
    "answer 2.P1",
    "deliver P1->A1 Prepare(2.P1)",
    "deliver P1->A2 Prepare(2.P1)",
    "retry P2",
    "answer 2.P2",
    "deliver P2->A1 Prepare(2.P2)",
    "deliver P2->A2 Prepare(2.P2)",
    "retry P1",
    "answer 3.P1",
    "deliver P1->A1 Prepare(3.P1)",
    "deliver P1->A2 Prepare(3.P1)",
    "retry P2",
    "answer 3.P2",
    "deliver P2->A1 Prepare(3.P2)",
];

#[test]
fn the_duel_asks_whether_two_values_were_chosen_once_one_is() {
    let mut game = mount("act1/the-duel");
    let solution = game.level().solution;
    play(&mut game, &solution[..solution.len() - 1]);
    let prompt = game.prompt().expect("the safety question is open").clone();
    assert!(
        prompt
            .question
            .starts_with("x is chosen at 2.P1 by {A1, A3}"),
        "{}",
        prompt.question
    );
    assert_eq!(game.goal(), Goal::Open, "the question is still open");
    let text = refused(&mut game, "yes");
    assert!(text.contains("Only {A1, A3} did, for x at 2.P1"), "{text}");
    play(&mut game, &["answer no"]);
    assert_eq!(game.goal(), Goal::Reached);
}

#[test]
fn the_duel_is_not_won_without_a_round_of_the_duel() {
    let mut game = mount("act1/the-duel");
    play(
        &mut game,
        &[
            "deliver P1->A1 Prepare",
            "deliver P1->A2 Prepare",
            "deliver A1->P1 Promise",
            "deliver A2->P1 Promise",
            "deliver P1->A1 Accept",
            "deliver P1->A2 Accept",
            "answer no",
        ],
    );
    assert!(!game.world().chosen().is_empty());
    assert_eq!(
        game.goal(),
        Goal::Open,
        "a value chosen without either proposer pre-empted teaches no duel"
    );
}

#[test]
fn the_duel_fails_on_livelock_with_safety_held() {
    let mut game = mount("act1/the-duel");
    play(&mut game, LIVELOCK);
    assert_eq!(game.goal(), Goal::Open, "3.P1 still holds A2");
    play(&mut game, &["deliver P2->A2 Prepare(3.P2)"]);
    let Goal::Failed(reason) = game.goal() else {
        panic!("expected a livelock, got {:?}", game.goal());
    };
    assert!(
        reason.starts_with("livelock: every retry is spent"),
        "{reason}"
    );
    assert!(reason.contains("3.P1 was pre-empted by 3.P2"), "{reason}");
    assert!(
        reason.ends_with("liveness failed, safety held."),
        "{reason}"
    );
    assert!(check::safety(game.world()).is_empty());
    assert!(
        game.enabled().is_empty(),
        "a failed level takes no more moves"
    );
    let view = View::of(&game);
    assert_eq!(view.goal.status, "failed");
    assert_eq!(view.hints.len(), 1, "a failure earns a hint");
    assert!(matches!(
        game.play("deliver A1->P2 Promise(3.P2)"),
        Err(PlayError::NotEnabled(_))
    ));
    game.undo().unwrap();
    assert_eq!(game.goal(), Goal::Open, "undo leaves the failed state");
    assert!(
        View::of(&game).checklist[0].done,
        "the livelock seen stays seen after undo"
    );
}

#[test]
fn quorum_intersection_counts_each_phase1_quorum_once_and_keeps_tries_across_undo() {
    let mut game = mount("act1/quorum-intersection");
    let solution = game.level().solution;
    play(&mut game, &solution[..5]);
    let text = refused(&mut game, "neither");
    assert!(
        text.contains("{A1, A2} and {A1, A2} share A1 and A2"),
        "{text}"
    );
    play(&mut game, &["answer both"]);
    let done = |game: &Game<DecreeWorld>| {
        View::of(game)
            .checklist
            .iter()
            .filter(|item| item.done)
            .count()
    };
    assert_eq!(done(&game), 1);
    play(&mut game, &["undo", "undo"]);
    assert_eq!(done(&game), 1, "tries live in the game, not the world");
    play(&mut game, &["deliver P2->A3 Prepare"]);
    let text = refused(&mut game, "A3");
    assert!(text.contains("A3 never voted for 1.P1"), "{text}");
    let text = refused(&mut game, "neither");
    assert!(text.contains("{A1, A3} and {A1, A2} share A1"), "{text}");
    play(&mut game, &["answer A1"]);
    assert_eq!(done(&game), 2);
    assert_eq!(game.goal(), Goal::Open);
    game.restart();
    assert_eq!(done(&game), 0, "a restart begins a run with no tries");
    assert!(
        game.memory().mistakes.len() >= 3,
        "mistakes outlive a restart"
    );
}

#[test]
fn quorum_intersection_asks_before_p2_hears_a_promise() {
    let mut game = mount("act1/quorum-intersection");
    let solution = game.level().solution;
    play(&mut game, &solution[..5]);
    let prompt = game.prompt().expect("the question is open").clone();
    let world = game.world();
    let p2 = &world.proposers()[1];
    assert!(p2.promises().is_empty(), "P2 holds no Promise yet");
    assert_eq!(p2.proposal(), None, "P2 has picked no value yet");
    assert!(
        prompt.facts.iter().all(|fact| !fact.contains("reports")),
        "the facts name no report: {:?}",
        prompt.facts
    );
}

#[test]
fn recovery_asks_whether_the_adopted_value_was_chosen_before() {
    let mut game = mount("act1/recovery-is-not-catch-up");
    let solution = game.level().solution;
    play(&mut game, &solution[..4]);
    let text = refused(&mut game, "y");
    assert!(
        text.contains("cannot rule out that x was chosen at 1.P1 by {A1, A3}: A3 is outside"),
        "{text}"
    );
    play(&mut game, &solution[4..7]);
    assert_eq!(game.prompt().unwrap().kind, PromptKind::Question);
    let text = refused(&mut game, "yes");
    assert!(
        text.contains("x had only these votes: {A1} at 1.P1"),
        "{text}"
    );
    assert!(
        text.contains("chosen only now, at 1.P2, by {A1, A2}"),
        "{text}"
    );
}

#[test]
fn a_prompt_blocks_other_moves_until_answered_or_undone() {
    let mut game = mount("act1/be-the-acceptor");
    play(&mut game, &["deliver P1->A1 Prepare"]);
    assert!(game.enabled().is_empty());
    assert_eq!(
        game.play("deliver P1->A2 Prepare").unwrap_err(),
        PlayError::PromptOpen
    );
    assert!(
        View::of(&game)
            .messages
            .iter()
            .all(|message| message.actions.is_empty())
    );
    game.undo().unwrap();
    assert!(game.prompt().is_none());
    assert_eq!(game.answer(0).unwrap_err(), PlayError::NoPrompt);
    play(&mut game, &["deliver P1->A1 Prepare"]);
    assert_eq!(game.answer(7).unwrap_err(), PlayError::NoSuchChoice(7, 2));
}

#[test]
fn automation_follows_what_is_earned_and_what_the_level_pins() {
    let level = levels::find("act1/the-duel").unwrap();
    let mut by_hand = Game::new(level, &[]).unwrap();
    play(&mut by_hand, &["deliver P1->A1 Prepare"]);
    assert_eq!(by_hand.prompt().unwrap().kind, PromptKind::PromiseOrNack);
    assert_eq!(
        by_hand.set_automation(Automation::AcceptorReplies, true),
        Err(PlayError::Locked(Automation::AcceptorReplies))
    );

    let mut earned = Game::new(level, &[Automation::AcceptorReplies]).unwrap();
    play(&mut earned, &["deliver P1->A1 Prepare"]);
    assert!(earned.prompt().is_none(), "the acceptor answered by itself");
    earned
        .set_automation(Automation::AcceptorReplies, false)
        .unwrap();
    play(&mut earned, &["deliver P1->A2 Prepare"]);
    assert!(
        earned.prompt().is_some(),
        "switched off, the player answers again"
    );

    let mut pinned = mount("act1/be-the-acceptor");
    assert_eq!(
        pinned.set_automation(Automation::AcceptorReplies, true),
        Err(PlayError::Pinned(Automation::AcceptorReplies))
    );
    let toggle = &View::of(&pinned).automation[0];
    assert_eq!(
        (toggle.name, toggle.on, toggle.pinned),
        ("acceptor-replies", false, Some("off"))
    );
}

#[test]
fn restart_rewinds_the_world_and_keeps_the_players_memory() {
    let mut game = mount("act1/choose-a-value");
    let start = game.fingerprint();
    let solution = game.level().solution;
    play(&mut game, &solution[..5]);
    refused(&mut game, "yes");
    game.restart();
    assert_eq!(game.fingerprint(), start);
    assert!(game.log().is_empty());
    assert_eq!(game.memory().mistakes.len(), 1);
    assert_eq!(View::of(&game).hints.len(), 1);
}

#[test]
fn the_catalog_keeps_the_contract_with_the_book() {
    let summaries = catalog();
    let rows: Vec<(&str, &str, &str, Option<&str>)> = summaries
        .iter()
        .map(|level| (level.id, level.chapter, level.scenario, level.unlocks))
        .collect();
    let how = "How Paxos chooses one value";
    let why = "Why one value is safe";
    let crash = "Crash and restart safety";
    let stable = "The stable leader";
    assert_eq!(
        rows,
        [
            ("act1/choose-a-value", how, "act1-choose-a-value", None),
            (
                "act1/be-the-acceptor",
                how,
                "act1-duel",
                Some("acceptor-replies")
            ),
            (
                "act1/adopt-the-value",
                why,
                "act1-adopt-the-value",
                Some("p2c")
            ),
            ("act1/the-duel", how, "act1-duel", None),
            (
                "act1/quorum-intersection",
                why,
                "act1-quorum-intersection",
                None
            ),
            ("act1/recovery-is-not-catch-up", why, "act1-recovery", None),
            (
                "act2/persist-before-send",
                crash,
                "act2-persist-before-send",
                None
            ),
            (
                "act2/a-log-of-decisions",
                "From one value to a log",
                "act2-log-of-decisions",
                Some("apply-walk")
            ),
            ("act2/elect-a-leader", stable, "act2-elect-a-leader", None),
            (
                "act2/steady-state",
                stable,
                "act2-steady-state",
                Some("heartbeats")
            ),
            ("act2/the-permanent-gap", stable, "act2-permanent-gap", None),
            (
                "act2/what-survives-a-crash",
                crash,
                "act2-what-survives-a-crash",
                None
            ),
            (
                "act2/the-read-that-lies",
                "Why reads are not free",
                "act2-read-that-lies",
                None
            ),
            (
                "act3/truncate-by-consensus",
                "Truncation and the trim point",
                "act3-truncate-by-consensus",
                None
            ),
            (
                "act3/the-stranded-node",
                "Truncation and the trim point",
                "act3-stranded-node",
                None
            ),
            (
                "act3/the-fresh-leader-trap",
                "Why reads are not free",
                "act3-fresh-leader-trap",
                None
            ),
            (
                "act3/linearizable-or-not",
                "Why reads are not free",
                "act3-linearizable-or-not",
                None
            ),
            (
                "act3/chosen-is-not-applied",
                "Why reads are not free",
                "act3-chosen-is-not-applied",
                None
            ),
            (
                "act4/flexible-quorums",
                "Beyond Multi-Paxos",
                "act4-flexible-quorums",
                None
            ),
            ("act4/the-grid", "Beyond Multi-Paxos", "act4-grid", None),
            (
                "act4/quorum-reads",
                "Beyond Multi-Paxos",
                "act4-quorum-reads",
                None
            ),
            ("act4/the-handoff", "The handoff", "act4-handoff", None),
            (
                "act4/proxy-leaders",
                "Compartmentalized Paxos's proxy leaders",
                "act4-proxy-leaders",
                None
            ),
            (
                "act4/matchmaking",
                "Reconfiguration with Matchmaker Paxos",
                "act4-matchmaker",
                None
            ),
            (
                "act4/reconfigure",
                "Reconfiguration with Matchmaker Paxos",
                "act4-matchmaker",
                None
            ),
            (
                "act4/garbage-collection",
                "Reconfiguration with Matchmaker Paxos",
                "act4-matchmaker",
                None
            ),
            (
                "act4/matchmaker-generations",
                "Reconfiguration with Matchmaker Paxos",
                "act4-matchmaker-replacement",
                None
            ),
            (
                "act4/faulty-records",
                "Disks that lie",
                "act4-faulty-records",
                None
            ),
            (
                "act4/the-wiped-node",
                "Disks that lie",
                "act4-the-wiped-node",
                None
            ),
        ]
    );
    assert!(summaries.iter().all(|level| {
        Some(level.act)
            == level
                .id
                .strip_prefix("act")
                .and_then(|rest| rest.split('/').next())
                .and_then(|act| act.parse().ok())
            && !level.teaches.is_empty()
            && !level.by_hand.is_empty()
    }));
    let json = serde_json::to_value(&summaries).unwrap();
    assert_eq!(json[1]["unlocks"], "acceptor-replies");
    assert_eq!(json[0]["unlocks"], serde_json::Value::Null);
    // Each level names the wasm module that mounts it: the one built with its world's feature.
    for level in &summaries {
        let module = match level.act {
            1 => "one-value",
            _ if levels::find_matchmaker(level.id).is_some() => "matchmaker",
            _ => "log",
        };
        assert_eq!(level.module, module, "{}", level.id);
    }
    assert!(summaries.iter().any(|level| level.module == "matchmaker"));
}

#[test]
fn the_view_json_has_the_fields_the_browser_reads() {
    let mut game = mount("act1/be-the-acceptor");
    play(&mut game, &["deliver P2->A1 Prepare"]);
    let json: serde_json::Value = serde_json::from_str(&View::of(&game).to_json()).unwrap();
    for key in [
        "level",
        "stage",
        "nodes",
        "messages",
        "controls",
        "prompt",
        "outcome",
        "goal",
        "passed",
        "checklist",
        "hints",
        "mistakes",
        "automation",
        "chosen",
        "moves",
        "can_undo",
        "log",
        "fingerprint",
    ] {
        assert!(json.get(key).is_some(), "missing {key}");
    }
    assert_eq!(json["prompt"]["kind"], "promise-or-nack");
    assert_eq!(json["prompt"]["node"], "A1");
    assert_eq!(json["prompt"]["choices"][0]["key"], "promise");
    assert!(
        json["prompt"]["choices"][0].get("right").is_none(),
        "the answer is not in the view"
    );
    assert_eq!(json["outcome"]["kind"], "prompt");
    let a1 = &json["nodes"][0];
    assert_eq!(
        (a1["name"].as_str(), a1["role"].as_str()),
        (Some("A1"), Some("acceptor"))
    );
    assert_eq!(a1["promised"], serde_json::Value::Null);
    assert_eq!(a1["slots"][0]["state"], "empty");
    assert!(
        a1.get("phase").is_none(),
        "proposer fields are absent on an acceptor"
    );
    let p1 = &json["nodes"][3];
    assert_eq!(
        (p1["phase"].as_str(), p1["ballot"].as_str()),
        (Some("preparing"), Some("1.P1"))
    );
    assert_eq!(json["fingerprint"].as_str().unwrap().len(), 16);
    assert_eq!(json["level"]["briefing"], game.level().briefing);
}

#[test]
fn a_chosen_value_turns_the_voters_slot_boxes_green() {
    let mut game = mount("act1/choose-a-value");
    let solution = game.level().solution;
    play(&mut game, solution);
    let view = View::of(&game);
    let states: Vec<&str> = view.nodes[..3]
        .iter()
        .map(|node| node.slots[0].state)
        .collect();
    assert_eq!(states, ["chosen", "chosen", "empty"]);
    let chosen = view.chosen.unwrap();
    assert_eq!(
        (chosen.value.as_str(), chosen.ballot.as_str()),
        ("x", "1.P1")
    );
    assert_eq!(chosen.by, ["A1", "A2"]);
}

#[test]
fn bad_input_is_an_error_and_changes_nothing() {
    let mut game = mount("act1/the-duel");
    let world = game.world().clone();
    for json in [
        "",
        "{}",
        r#"{"kind":"teleport"}"#,
        r#"{"kind":"deliver"}"#,
        r#"{"kind":"deliver","message":"m1"}"#,
        r#"{"kind":"start","node":"P9"}"#,
        r#"{"kind":"deliver","message":1,"extra":true}"#,
    ] {
        let error = parse_action(&world, json).unwrap_err();
        assert!(matches!(error, PlayError::BadInput(_)), "{json}: {error}");
    }
    let not_in_flight = parse_action(&world, r#"{"kind":"deliver","message":99}"#).unwrap();
    assert_eq!(
        game.act(not_in_flight).unwrap_err().to_string(),
        "no message m99 is in flight"
    );
    let started = parse_action(&world, r#"{"kind":"start","node":"P1"}"#).unwrap();
    assert!(game.act(started).is_err());
    let dropped = parse_action(&world, r#"{"kind":"drop","message":1}"#).unwrap();
    assert_eq!(
        game.act(dropped).unwrap_err().to_string(),
        "the drop budget is spent"
    );
    assert_eq!(
        game.fingerprint(),
        Game::new(game.level(), &[]).unwrap().fingerprint()
    );
    assert!(game.log().is_empty());

    assert_eq!(
        Mounted::new("act9/nowhere", &[]).unwrap_err(),
        PlayError::UnknownLevel("act9/nowhere".into())
    );
    assert_eq!(
        parse_unlocked(r#"["p2c","warp-drive"]"#).unwrap(),
        [Automation::P2c]
    );
    assert!(parse_unlocked(r#"{"p2c":true}"#).is_err());
}

/// A tiny deterministic generator (xorshift64*), so the random play below replays exactly.
struct Dice(u64);

impl Dice {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let roll = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32;
        usize::try_from(roll).unwrap() % bound.max(1)
    }
}

/// Plays `moves` random moves of `level` (answers, deliveries, faults, controls and undos),
/// checking after each that a wrong answer changed nothing and `is_safe` holds; then undoes
/// everything and checks the world is back where it began. Shared with Act II's tests.
fn random_play<B: paros_play::Board>(
    level: &'static paros_play::Level<B>,
    unlocked: &[Automation],
    seed: u64,
    moves: usize,
    is_safe: impl Fn(&B) -> bool,
) {
    let mut dice = Dice(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut game = Game::new(level, unlocked).unwrap();
    let start = game.fingerprint();
    for _ in 0..moves {
        let view = View::of(&game);
        if let Some(prompt) = &view.prompt {
            let before = game.fingerprint();
            let kind = game.answer(dice.below(prompt.choices.len())).unwrap().kind;
            if kind == OutcomeKind::Wrong {
                assert_eq!(game.fingerprint(), before, "{} seed {seed}", level.id);
            }
        } else if game.log().is_empty() || dice.below(8) != 0 {
            let mut actions: Vec<String> =
                view.messages
                    .iter()
                    .flat_map(|message| {
                        message.actions.iter().map(move |verb| {
                            format!(r#"{{"kind":"{verb}","message":{}}}"#, message.id)
                        })
                    })
                    .collect();
            actions.extend(
                view.controls
                    .iter()
                    .map(|control| serde_json::to_string(&control.action).unwrap()),
            );
            if actions.is_empty() {
                break;
            }
            let json = &actions[dice.below(actions.len())];
            let action = parse_action(game.world(), json).unwrap();
            game.act(action)
                .unwrap_or_else(|error| panic!("{} seed {seed}: {json}: {error}", level.id));
        } else {
            game.undo().unwrap();
        }
        assert!(is_safe(game.world()), "{} seed {seed}", level.id);
    }
    while game.undo().is_ok() {}
    assert_eq!(game.fingerprint(), start, "{} seed {seed}", level.id);
}

#[test]
fn random_play_never_panics_keeps_safety_and_undoes_to_the_start() {
    let earned: [&[Automation]; 2] = [&[], &Automation::ALL];
    for level in levels::ACT1 {
        for seed in 1..=40u64 {
            let unlocked = earned[usize::try_from(seed % 2).unwrap()];
            random_play(level, unlocked, seed, 80, |world| {
                check::safety(world).is_empty()
            });
        }
    }
}

#[path = "levels/act2.rs"]
mod act2;
#[path = "levels/act3_truncation.rs"]
mod act3_truncation;

/// Fails if a wrong choice of `prompt` reads or answers as a right one: the player would be
/// offered the same answer twice, once right and once wrong.
fn assert_no_wrong_choice_equals_a_right_one(prompt: &paros_play::Prompt, at: &str) {
    for right in prompt.choices.iter().filter(|choice| choice.right) {
        for wrong in prompt.choices.iter().filter(|choice| !choice.right) {
            assert!(
                wrong.key != right.key && wrong.label != right.label,
                "{at}: {:?} offers {:?} ({}) both right and wrong",
                prompt.question,
                right.label,
                right.key
            );
        }
    }
}

/// A seeded walk over the game's enabled moves: on an even seed from a random prefix of the
/// reference solution, on an odd one from the start with nothing earned (every role by hand).
/// Every prompt that opens is checked, then answered (right most often, so the walk goes
/// deep); now and then a move is undone. Returns how many prompts it checked.
fn walk_checking_prompts<B: Board>(
    level: &'static paros_play::Level<B>,
    seed: u64,
    moves: usize,
) -> usize {
    let mut dice = Dice(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut game = if seed.is_multiple_of(2) {
        let mut game = Game::new(level, level.solution_unlocked).unwrap();
        let prefix = dice.below(level.solution.len() + 1);
        play(&mut game, &level.solution[..prefix]);
        game
    } else {
        Game::new(level, &[]).unwrap()
    };
    let at = format!("{} seed {seed}", level.id);
    let mut checked = 0;
    for _ in 0..moves {
        if let Some(prompt) = game.prompt().cloned() {
            assert_no_wrong_choice_equals_a_right_one(&prompt, &at);
            checked += 1;
            let right = prompt.choices.iter().position(|choice| choice.right);
            let index = match right {
                Some(index) if dice.below(4) != 0 => index,
                _ => dice.below(prompt.choices.len()),
            };
            game.answer(index).unwrap();
        } else if game.next_stage_open() && dice.below(2) == 0 {
            game.act(GameAction::NextStage).unwrap();
        } else {
            let enabled = game.enabled();
            if enabled.is_empty() || dice.below(10) == 0 {
                if game.undo().is_err() {
                    break;
                }
                continue;
            }
            let action = enabled[dice.below(enabled.len())].clone();
            game.act(GameAction::World(action))
                .unwrap_or_else(|error| panic!("{at}: {error}"));
        }
    }
    checked
}

#[test]
fn no_wrong_choice_equals_a_right_one_in_random_play() {
    for level in levels::ACT1 {
        let checked: usize = (1..=30)
            .map(|seed| walk_checking_prompts(level, seed, 80))
            .sum();
        assert!(checked > 0, "{}: no prompt opened", level.id);
    }
    for level in levels::log_levels() {
        let checked: usize = (1..=30)
            .map(|seed| walk_checking_prompts(level, seed, 80))
            .sum();
        assert!(checked > 0, "{}: no prompt opened", level.id);
    }
}

#[path = "levels/act3_reads.rs"]
mod act3_reads;
#[path = "levels/act3_retry.rs"]
mod act3_retry;
#[path = "levels/act4_faulty_records.rs"]
mod act4_faulty_records;
#[path = "levels/act4_flexible.rs"]
mod act4_flexible;
#[path = "levels/act4_grid.rs"]
mod act4_grid;
#[path = "levels/act4_handoff.rs"]
mod act4_handoff;
#[path = "levels/act4_matchmaker.rs"]
mod act4_matchmaker;
#[path = "levels/act4_proxy_leaders.rs"]
mod act4_proxy_leaders;
#[path = "levels/act4_quorum_reads.rs"]
mod act4_quorum_reads;
#[path = "levels/act4_wiped_node.rs"]
mod act4_wiped_node;

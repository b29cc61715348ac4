//! Positions as text: every position of every reference solution plays back to the same
//! stage, and a position that does not (a move not offered, a wrong answer, a question skipped
//! or invented) is refused at that move, with the level back at its start.

use paros_play::{Board, Game, Mounted, PromptKind, View, levels};

/// Mounts a level of any act (as the browser does), plays `steps` of its solution, and
/// returns it with its position.
fn played(id: &str, steps: &[&str]) -> (Mounted, String) {
    let unlocked = solution_unlocked(id);
    let mut mounted = Mounted::new(id, unlocked).expect("mounts");
    for step in steps {
        mounted.play(step).expect("the solution plays");
    }
    let position = mounted.position();
    (mounted, position)
}

fn solution_unlocked(id: &str) -> &'static [paros_play::Automation] {
    if let Some(level) = levels::find(id) {
        return level.solution_unlocked;
    }
    if let Some(level) = levels::find_matchmaker(id) {
        return level.solution_unlocked;
    }
    levels::find_act2(id).expect("a level").solution_unlocked
}

fn solution(id: &str) -> &'static [&'static str] {
    if let Some(level) = levels::find(id) {
        return level.solution;
    }
    if let Some(level) = levels::find_matchmaker(id) {
        return level.solution;
    }
    levels::find_act2(id).expect("a level").solution
}

/// What the player sees of a game: its world, stage, prompt, log and counts.
fn shown(mounted: &Mounted) -> String {
    let view: View = mounted.view();
    serde_json::json!({
        "fingerprint": view.fingerprint,
        "nodes": view.nodes,
        "messages": view.messages,
        "prompt": view.prompt,
        "cluster": view.cluster,
        "matchmaking": view.matchmaking,
        "log": view.log,
        "moves": view.moves,
        "mistakes": view.mistakes.len(),
    })
    .to_string()
}

fn all_ids() -> Vec<&'static str> {
    let act1 = levels::ACT1.iter().map(|level| level.id);
    let matchmaker = levels::ACT4_MATCHMAKER.iter().map(|level| level.id);
    act1.chain(levels::log_levels().map(|level| level.id))
        .chain(matchmaker)
        .collect()
}

#[test]
fn every_position_of_every_solution_plays_back_to_the_same_stage() {
    for id in all_ids() {
        let steps = solution(id);
        for count in 0..=steps.len() {
            let (original, position) = played(id, &steps[..count]);
            let mut reopened = Mounted::new(id, solution_unlocked(id)).expect("mounts");
            reopened
                .play_position(&position)
                .unwrap_or_else(|error| panic!("{id} after {count} steps: {error}\n{position}"));
            assert_eq!(
                shown(&reopened),
                shown(&original),
                "{id} after {count} steps"
            );
            // The goal too, unless it counts tries the player undid (a position is one line
            // of play; what other lines recorded stays with the player who played them).
            if !steps[..count].contains(&"undo") {
                let (reopened, original) = (reopened.view(), original.view());
                assert_eq!(
                    reopened.goal.status, original.goal.status,
                    "{id} after {count}"
                );
            }
        }
    }
}

#[test]
fn a_position_plays_back_whatever_toggles_its_reader_has_earned() {
    // Written by a player with every toggle earned, read by one with none: the prompts the
    // writer's moves opened open again, since each held move names its prompt.
    for id in ["act2/the-permanent-gap", "act3/the-stranded-node"] {
        let (original, position) = played(id, solution(id));
        let mut reader = Mounted::new(id, &[]).expect("mounts");
        reader.play_position(&position).expect("plays back");
        let (read, written) = (reader.view(), original.view());
        assert_eq!(read.fingerprint, written.fingerprint, "{id}");
        assert_eq!(read.log, written.log, "{id}");
        assert_eq!(read.goal.status, written.goal.status, "{id}");
    }
}

#[test]
fn positions_are_short_tokens() {
    let (_, position) = played("act2/the-permanent-gap", solution("act2/the-permanent-gap"));
    let tokens: Vec<&str> = position.lines().collect();
    assert!(tokens.contains(&"tick N2"), "{position}");
    assert!(tokens.contains(&"crash N1"), "{position}");
    assert!(
        tokens
            .iter()
            .any(|token| token.starts_with("deliver m") && token.split_whitespace().count() <= 3),
        "{position}"
    );
    assert!(
        tokens.iter().any(|token| token.starts_with("answer ")),
        "{position}"
    );
}

/// The refusal of `position` in level `id`: which move, and why; the level is at its start.
fn refusal(id: &str, position: &str) -> (usize, String) {
    let mut mounted = Mounted::new(id, solution_unlocked(id)).expect("mounts");
    let start = shown(&mounted);
    let error = mounted
        .play_position(position)
        .expect_err("the position is refused");
    assert_eq!(
        shown(&mounted),
        start,
        "a refused position leaves the level at its start"
    );
    (error.number, error.reason)
}

#[test]
fn a_move_the_game_does_not_offer_is_refused_at_its_number() {
    let id = "act2/the-permanent-gap";
    let (_, position) = played(id, &solution(id)[..6]);
    let tampered = format!("{position}\ndeliver m999");
    let (number, reason) = refusal(id, &tampered);
    assert_eq!(number, position.lines().count() + 1);
    assert!(reason.contains("m999"), "{reason}");
}

#[test]
fn a_wrong_answer_in_a_position_is_refused_and_counts_no_mistake() {
    let id = "act3/the-fresh-leader-trap";
    let (_, position) = played(id, &solution(id)[..2]);
    let last = position.lines().last().expect("a move");
    assert!(last.ends_with("!serve-or-wait"), "{position}");
    let tampered = format!("{position}\nanswer serve");
    let mut mounted = Mounted::new(id, solution_unlocked(id)).expect("mounts");
    let error = mounted.play_position(&tampered).expect_err("refused");
    assert_eq!(error.number, position.lines().count() + 1);
    assert!(
        error.reason.contains("not a right answer"),
        "{}",
        error.reason
    );
    assert_eq!(
        mounted.view().mistakes.len(),
        0,
        "a refused link counts no mistake"
    );
}

#[test]
fn a_position_can_neither_skip_a_question_nor_invent_one() {
    let id = "act3/the-fresh-leader-trap";
    let (_, position) = played(id, &solution(id)[..2]);
    let lines: Vec<&str> = position.lines().collect();
    let held = lines.last().expect("a held move");
    let unmarked = held.split(" !").next().expect("the move");
    let mut skipping = lines.clone();
    *skipping.last_mut().expect("a move") = unmarked;
    let (number, reason) = refusal(id, &skipping.join("\n"));
    assert_eq!(number, lines.len());
    assert!(reason.contains("serve-or-wait"), "{reason}");

    let first = lines[0];
    assert!(!first.contains(" !"), "{position}");
    let invented = format!("{first} !{}\n", PromptKind::ApplyWalk.name());
    let (number, reason) = refusal(id, &invented);
    assert_eq!(number, 1);
    assert!(reason.contains("opens no apply-walk question"), "{reason}");
}

#[test]
fn every_prompt_kind_has_a_name_that_reads_back() {
    for kind in PromptKind::ALL {
        assert_eq!(PromptKind::from_name(kind.name()), Some(kind));
        assert_eq!(
            serde_json::to_value(kind).unwrap(),
            serde_json::json!(kind.name()),
            "the name is the one the browser's JSON uses"
        );
    }
}

#[test]
fn a_position_replays_on_the_game_too() {
    // The same position, read by the generic Game (not just the mounted handle).
    let id = "act1/choose-a-value";
    let level = levels::find(id).expect("a level");
    let mut game = Game::new(level, level.solution_unlocked).expect("mounts");
    for step in level.solution {
        game.play(step).expect("plays");
    }
    let tokens = game.position();
    let mut again = Game::new(level, level.solution_unlocked).expect("mounts");
    again.play_position(&tokens).expect("plays back");
    assert_eq!(again.fingerprint(), game.fingerprint());
    assert_eq!(again.log(), game.log());
    assert!(again.world().moves() == game.world().moves());
}

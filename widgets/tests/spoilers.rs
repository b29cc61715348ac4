//! The answer is never on screen before its question: every prompt of every level, along its
//! reference solution and along seeded random play, is checked against everything the view
//! gives the page to draw (nodes, messages, the chosen line, the briefing, the stage note, the
//! goal), and fails if that text holds what tells the right choice apart from the wrong ones.
//!
//! What tells a choice apart is read off the choices themselves: each clause of the right
//! choice's label (split at `;` and `:`) that no wrong label contains, reduced to its words that
//! no wrong label, the question or the facts contain (the prompt states those to every choice
//! alike) and that can tell anything apart on their own (four letters or more, or a digit); a
//! clause counts when two such words remain, or one that names something of the world
//! (`x=1`). A view's string leaks when it holds every word of such a clause.
//!
//! A fact is a premise, and the answer often repeats it: "N1 proposed x=1" stands beside
//! "What does the resend carry?", whose answer is `x=1`. So what the step behind a level
//! question added to the stage is read again with no fact taken as stated, all of it at once
//! (an answer may be spread over three messages): it must not hold the names of a clause
//! telling the right choice apart. The planted leaks at the end show both checks fail on the
//! views the game drew before the view kept back what a question's step changed.

use paros_play::{Board, Game, GameAction, Level, Prompt, View, levels};
use serde_json::Value;

/// The words of `text`, lower-cased: runs of letters, digits and `.=#+` (so `1.N3`, `x=1`,
/// `C1#1` and `N3+N4` stay whole), a trailing `.` dropped.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || ".=#+".contains(c)))
        .map(|word| word.trim_end_matches('.').to_lowercase())
        .filter(|word| !word.is_empty())
        .collect()
}

/// Whether a word can tell choices apart on its own: one with a digit (`1.N3`, `x=1`), or of
/// four letters or more. Shorter words (`its`, `no`, `yes`) are the grammar of a sentence, and a
/// briefing or a card holds them whatever the answer.
fn telling(word: &str) -> bool {
    word.chars().any(|c| c.is_ascii_digit()) || word.chars().count() >= 4
}

/// Whether a word names something of the world (`1.N3`, `x=1`, `C1#1`, `N3+N4`): letters and
/// digits together. A lone number or a lone common word (`order`, `nothing`) is on every page
/// whatever the answer, so a clause that is only that tells nothing apart.
fn is_data(word: &str) -> bool {
    word.chars().any(|c| c.is_ascii_digit()) && word.chars().any(char::is_alphabetic)
}

/// What tells the right choice of `prompt` apart: one word set per clause of its label that
/// no wrong label shares, reduced to its telling words that no wrong label, the question or a
/// fact holds. A clause counts when two such words remain, or one that names something of the
/// world (`x=1`) or that the label quotes as a node's answer (`"Unknown"`).
fn distinguishing(prompt: &Prompt) -> Vec<Vec<String>> {
    let facts: Vec<&str> = prompt.facts.iter().map(String::as_str).collect();
    distinguishing_given(prompt, &facts)
}

/// What tells the right choice of `prompt` apart when only `facts` are taken as stated to
/// every choice alike (the question and the wrong labels always are).
fn distinguishing_given(prompt: &Prompt, facts: &[&str]) -> Vec<Vec<String>> {
    let wrong: Vec<&str> = (prompt.choices.iter())
        .filter(|choice| !choice.right)
        .map(|choice| choice.label.as_str())
        .collect();
    let mut stated: Vec<String> = wrong.iter().flat_map(|label| words(label)).collect();
    stated.extend(words(&prompt.question));
    stated.extend(facts.iter().flat_map(|fact| words(fact)));
    let Some(right) = prompt.choices.iter().find(|choice| choice.right) else {
        return Vec::new();
    };
    // A word the label quotes alone names what a node says (`"Unknown" in slot 1`): an answer of the
    // protocol, which tells the right choice apart even alone.
    // A quoted sentence is a message's text, held to the two-word rule like any clause.
    let quoted: Vec<String> = (right.label.split('"').skip(1).step_by(2))
        .map(words)
        .filter(|quote| quote.len() <= 2)
        .flatten()
        .collect();
    right
        .label
        .split([';', ':'])
        .filter(|clause| !clause.trim().is_empty())
        .filter(|clause| wrong.iter().all(|label| !label.contains(clause.trim())))
        .map(|clause| {
            let mut own: Vec<String> = words(clause)
                .into_iter()
                .filter(|word| telling(word) && !stated.contains(word))
                .collect();
            own.dedup();
            own
        })
        .filter(|own| {
            own.len() >= 2
                || own
                    .iter()
                    .any(|word| is_data(word) || quoted.contains(word))
        })
        .collect()
}

/// Every string of the view the page draws or reads aloud, with where it is: all of it but the
/// prompt itself, the moves already made (`log`), what answers a mistake already made
/// (`mistakes`, `hints`, a `wrong` or `undone` outcome) and the ids the page never shows.
fn drawn(view: &View) -> Vec<(String, String)> {
    let mut json = serde_json::to_value(view).expect("a view serializes");
    let object = json.as_object_mut().expect("an object");
    for hidden in ["prompt", "log", "mistakes", "hints", "fingerprint"] {
        object.remove(hidden);
    }
    if let Some(outcome) = object.get("outcome")
        && matches!(outcome["kind"].as_str(), Some("wrong" | "undone"))
    {
        object.remove("outcome");
    }
    if let Some(level) = object.get_mut("level").and_then(Value::as_object_mut) {
        level.remove("id");
        level.remove("scenario");
    }
    let mut found = Vec::new();
    strings(&json, String::new(), &mut found);
    found
}

fn strings(value: &Value, at: String, found: &mut Vec<(String, String)>) {
    match value {
        Value::String(text) => found.push((at, text.clone())),
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                strings(item, format!("{at}[{index}]"), found);
            }
        }
        Value::Object(fields) => {
            for (name, field) in fields {
                strings(field, format!("{at}.{name}"), found);
            }
        }
        _ => {}
    }
}

/// The first place `view` shows what tells `prompt`'s right choice apart, as `where: text
/// (clause)`. `before` holds the strings of the stage as the world stood before the step that
/// raised a level question (none for a role prompt, held before its world steps).
fn leak(prompt: &Prompt, view: &View, before: Option<&[(String, String)]>) -> Option<String> {
    let drawn_leak = || {
        let clauses = distinguishing(prompt);
        drawn(view).into_iter().find_map(|(at, text)| {
            let shown = words(&text);
            (clauses.iter())
                .find(|clause| clause.iter().all(|word| shown.contains(word)))
                .map(|clause| format!("{at}: {text:?} holds {clause:?}"))
        })
    };
    drawn_leak().or_else(|| before.and_then(|before| step_leak(prompt, view, before)))
}

/// What the step that raised a level question added to the stage, read against the right
/// choice with no fact taken as stated: a fact may restate a premise (`N1 proposed x=1`)
/// that the step's own messages then carry as the answer (`N1->P1 Accept(..., x=1)`). What
/// the step added is read as one: an answer may be spread over several messages (`R1->M1`,
/// `R1->M2`, `R1->M3`) or a card's fields. It leaks when it holds the names of the world (or,
/// with none, the words) of a clause telling the right choice apart, or every name of the
/// right label when no wrong label holds them all (a history of two configurations against
/// each one alone). A configuration is named by its members as well as its name (`C1`).
fn step_leak(prompt: &Prompt, view: &View, before: &[(String, String)]) -> Option<String> {
    let names_of = |clause: Vec<String>| {
        let names: Vec<String> = clause
            .iter()
            .filter(|word| is_data(word))
            .cloned()
            .collect();
        if names.is_empty() { clause } else { names }
    };
    let mut clauses: Vec<Vec<String>> = (distinguishing_given(prompt, &[]).into_iter())
        .map(names_of)
        .collect();
    let right = prompt.choices.iter().find(|choice| choice.right)?;
    let whole: Vec<String> = words(&right.label)
        .into_iter()
        .filter(|word| is_data(word))
        .collect();
    let held_by_a_wrong_one = (prompt.choices.iter().filter(|choice| !choice.right))
        .any(|choice| whole.iter().all(|word| words(&choice.label).contains(word)));
    if !whole.is_empty() && !held_by_a_wrong_one {
        clauses.push(whole);
    }
    let added: Vec<(String, String)> = (stage(view).into_iter())
        .filter(|item| !before.contains(item))
        .collect();
    let mut shown: Vec<String> = added.iter().flat_map(|(_, text)| words(text)).collect();
    for (name, members) in configurations(view) {
        if !members.is_empty() && members.iter().all(|member| shown.contains(member)) {
            shown.push(name);
        }
    }
    let clause = clauses
        .iter()
        .find(|clause| clause.iter().all(|word| shown.contains(word)))?;
    let holding: Vec<String> = (added.iter())
        .filter(|(_, text)| words(text).iter().any(|word| clause.contains(word)))
        .map(|(at, text)| format!("{at}: {text:?}"))
        .collect();
    Some(format!(
        "what the step added holds {clause:?}: {}",
        holding.join("; ")
    ))
}

/// Each configuration the matchmaker stage draws, lower-cased: its name and its members.
fn configurations(view: &View) -> Vec<(String, Vec<String>)> {
    (view
        .matchmaking
        .iter()
        .flat_map(|matchmaking| &matchmaking.configurations))
    .map(|config| {
        let members = config.members.iter().map(|member| member.to_lowercase());
        (config.name.to_lowercase(), members.collect())
    })
    .collect()
}

/// The stage's strings, with where they are: nodes, the chosen line, the cluster, the
/// matchmakers, and each message as the row the page draws (`N1->P1 Accept(...)`), placed by
/// its id (so a delivery elsewhere moves no row).
fn stage(view: &View) -> Vec<(String, String)> {
    let json = serde_json::json!({
        "nodes": view.nodes,
        "chosen": view.chosen,
        "cluster": view.cluster,
        "matchmaking": view.matchmaking,
    });
    let mut found = Vec::new();
    strings(&json, String::new(), &mut found);
    (view.messages.iter()).for_each(|message| {
        found.push((
            format!(".row[{}]", message.id),
            format!("{}->{} {}", message.from, message.to, message.text),
        ));
    });
    found
}

/// While a level question is open, the stage's strings as the world stood before its step.
fn stage_before<B: Board>(game: &Game<B>) -> Option<Vec<(String, String)>> {
    let before = game.run().before_question()?;
    let mut view = View::of(game);
    view.nodes = before.nodes(&game.by_hand());
    view.messages = before.messages(&[]);
    view.chosen = before.chosen();
    view.cluster = before.cluster();
    view.matchmaking = before.matchmaking();
    Some(stage(&view))
}

/// Fails if the open prompt's answer is on the view now.
fn assert_no_leak<B: Board>(game: &Game<B>, at: &str) {
    let prompt = game.prompt().expect("a prompt is open");
    let before = stage_before(game);
    if let Some(leak) = leak(prompt, &View::of(game), before.as_deref()) {
        panic!(
            "{at}: the answer to {:?} is on screen before it: {leak}",
            prompt.question
        );
    }
}

/// Plays `level`'s reference solution, checking every prompt before it is answered. Returns
/// how many prompts had something to check.
fn walk_solution<B: Board>(level: &'static Level<B>) -> usize {
    let mut game = Game::new(level, level.solution_unlocked).expect("mounts");
    let mut checked = 0;
    for (index, step) in level.solution.iter().enumerate() {
        if let Some(prompt) = game.prompt() {
            checked += usize::from(!distinguishing(prompt).is_empty());
            assert_no_leak(&game, &format!("{} step {index}", level.id));
        }
        game.play(step)
            .unwrap_or_else(|error| panic!("{}: {step}: {error}", level.id));
    }
    checked
}

/// A tiny deterministic generator (xorshift64*), so a failing seed replays exactly.
struct Dice(u64);

impl Dice {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let roll = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32;
        usize::try_from(roll).expect("32 bits") % bound.max(1)
    }
}

/// Seeded random play: on an even seed from a random prefix of the reference solution, on an
/// odd one from the start with nothing earned (every role by hand). Every prompt is checked
/// before it is answered, right most often, wrong now and then; now and then a move is undone.
fn walk_random<B: Board>(level: &'static Level<B>, seed: u64, moves: usize) {
    let mut dice = Dice(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut game = if seed.is_multiple_of(2) {
        let mut game = Game::new(level, level.solution_unlocked).expect("mounts");
        for step in &level.solution[..dice.below(level.solution.len() + 1)] {
            game.play(step).expect("the solution plays");
        }
        game
    } else {
        Game::new(level, &[]).expect("mounts")
    };
    let at = format!("{} seed {seed}", level.id);
    for _ in 0..moves {
        if let Some(prompt) = game.prompt() {
            assert_no_leak(&game, &at);
            let right = prompt.choices.iter().position(|choice| choice.right);
            let index = match right {
                Some(index) if dice.below(4) != 0 => index,
                _ => dice.below(prompt.choices.len()),
            };
            game.answer(index).expect("answers");
        } else if game.next_stage_open() && dice.below(2) == 0 {
            game.act(GameAction::NextStage).expect("next stage");
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
}

#[test]
fn no_reference_solution_shows_an_answer_before_its_question() {
    let mut checked = 0;
    for level in levels::ACT1 {
        checked += walk_solution(level);
    }
    for level in levels::log_levels() {
        checked += walk_solution(level);
    }
    for level in levels::ACT4_MATCHMAKER {
        checked += walk_solution(level);
    }
    assert!(
        checked >= 12,
        "only {checked} prompts had anything to check"
    );
}

/// How many seeds random play walks each level with.
const SEEDS: u64 = 12;

#[test]
fn no_random_play_shows_an_answer_before_its_question() {
    for seed in 1..=SEEDS {
        for level in levels::ACT1 {
            walk_random(level, seed, 60);
        }
        for level in levels::log_levels() {
            walk_random(level, seed, 60);
        }
        for level in levels::ACT4_MATCHMAKER {
            walk_random(level, seed, 60);
        }
    }
}

/// The view as the page got it before the view kept anything back: the world's own nodes,
/// messages, chosen line and cluster, as a planted leak.
fn unmasked<B: Board>(game: &Game<B>) -> View {
    let mut view = View::of(game);
    let world = game.world();
    view.nodes = world.nodes(&game.by_hand());
    view.messages = world.messages(&[]);
    view.chosen = world.chosen();
    view.cluster = world.cluster();
    view.matchmaking = world.matchmaking();
    view.kept_back = None;
    view
}

/// The prompts along `level`'s solution whose answer the unmasked view shows.
fn planted_leaks<B: Board>(level: &'static Level<B>) -> Vec<String> {
    let mut game = Game::new(level, level.solution_unlocked).expect("mounts");
    let mut leaks = Vec::new();
    for step in level.solution {
        if let Some(prompt) = game.prompt()
            && let Some(leak) = leak(prompt, &unmasked(&game), stage_before(&game).as_deref())
        {
            leaks.push(format!("{}: {leak}", level.id));
        }
        game.play(step).expect("the solution plays");
    }
    leaks
}

#[test]
fn the_check_finds_the_answers_the_view_keeps_back() {
    let mut leaks = Vec::new();
    for level in levels::log_levels() {
        leaks.extend(planted_leaks(level));
    }
    for level in levels::ACT4_MATCHMAKER {
        leaks.extend(planted_leaks(level));
    }
    // The Accept a crash left on the wire; the Promise that answers "unknown" while the
    // question asks what it answers; and what the step sent where a fact states the premise
    // the answer repeats: the resend through the other proxy (`x=1`), the Prepares that
    // follow a leader's history, the reconfigurer's Bootstraps and its Successor Prepares to
    // the old set. All were drawn before the view kept them back.
    let planted = [
        ("act2/what-survives-a-crash", "Accept(1.N2, slot 1"),
        ("act4/faulty-records", "unknown"),
        ("act4/proxy-leaders", "N1->P1 Accept"),
        ("act4/matchmaking", "L3->A4 Prepare"),
        ("act4/matchmaker-generations", "Bootstrap"),
        ("act4/matchmaker-generations", "SuccessorPrepare"),
    ];
    for (level, shown) in planted {
        assert!(
            (leaks.iter()).any(|leak| leak.starts_with(level) && leak.contains(shown)),
            "the check finds no {shown:?} of {level} that the view keeps back: {leaks:?}"
        );
    }
}

/// A briefing that states the answer is caught: along every reference solution, each prompt
/// with something to check is shown a briefing that holds its right choice's words.
#[test]
fn the_check_reads_the_briefing() {
    fn plant<B: Board>(level: &'static Level<B>) -> usize {
        let mut game = Game::new(level, level.solution_unlocked).expect("mounts");
        let mut planted = 0;
        for step in level.solution {
            if let Some(prompt) = game.prompt()
                && !distinguishing(prompt).is_empty()
            {
                let right = prompt.choices.iter().find(|choice| choice.right);
                let mut view = View::of(&game);
                view.level.briefing = Box::leak(
                    format!("Remember: {}.", right.expect("a right choice").label).into_boxed_str(),
                );
                assert!(
                    leak(prompt, &view, None).is_some(),
                    "{}: {:?}",
                    level.id,
                    prompt.question
                );
                planted += 1;
            }
            game.play(step).expect("the solution plays");
        }
        planted
    }
    let planted: usize = (levels::ACT1.iter().map(|level| plant(level)))
        .chain(levels::log_levels().map(plant))
        .chain(levels::ACT4_MATCHMAKER.iter().map(|level| plant(level)))
        .sum();
    assert!(planted >= 12, "only {planted} briefings planted");
}

//! A mistake earns the hint about the question just missed: along every level's reference
//! solution, every wrong choice of every prompt is answered on a copy of the game, and the hint
//! it earns must exist, must be one the level keys to that prompt, and must not be the hint the
//! question before it earns. The planted levels at the end key every question to one hint, or
//! give none, as a level did before hints were keyed by question, and the check fails on them.

use paros_play::{
    Board, Change, ChecklistItem, Game, Goal, Hint, HintFor, Level, Memory, Prompt, PromptKind,
    Rules, Run, View, levels,
};

/// Whether a word names something of the world, which changes from one asking of the same
/// question to the next: `1.N3`, `x=1`, `N2`, `2`.
fn names_the_world(word: &str) -> bool {
    word.chars().any(|c| c.is_ascii_digit())
}

/// What a prompt asks, its situation left out: its kind, and for a level question the last
/// sentence of its text with every word that names something of the world masked. Two prompts
/// ask the same question when these are equal ("Is x=1 chosen now?" at two slots), and
/// different ones otherwise ("What is its history H?", "Is Phase 1 of 3.L3 complete?").
fn asked(prompt: &Prompt) -> (PromptKind, String) {
    if prompt.kind != PromptKind::Question {
        return (prompt.kind, String::new());
    }
    let text = prompt.question.trim_end_matches(['?', '.', ' ']);
    let last = text.rsplit(['.', '?']).next().unwrap_or(text);
    let masked: Vec<&str> = (last.split_whitespace())
        .map(|word| if names_the_world(word) { "#" } else { word })
        .collect();
    (prompt.kind, masked.join(" "))
}

/// The hints a wrong answer with choice `index` earns on a copy of `game`: those new to its
/// view.
fn earned<B: Board>(game: &Game<B>, index: usize) -> Vec<&'static str> {
    let before = View::of(game).hints;
    let mut copy = game.clone();
    copy.answer(index).expect("a wrong choice answers");
    (View::of(&copy).hints.into_iter())
        .filter(|hint| !before.contains(hint))
        .collect()
}

/// Whether `level` keys `hint` to a wrong answer of `prompt`.
fn keyed_to<B: Board>(level: &Level<B>, hint: &str, prompt: &Prompt) -> bool {
    (level.hints.iter())
        .filter(|known| known.text == hint)
        .any(|known| known.about.earned_by(Some((prompt.kind, prompt.topic))))
}

/// Every fault of `level`'s hints along its reference solution, and how many wrong choices
/// were tried.
fn hint_faults<B: Board>(level: &'static Level<B>) -> (usize, Vec<String>) {
    let mut game = Game::new(level, level.solution_unlocked).expect("mounts");
    let (mut tried, mut faults) = (0, Vec::new());
    let mut previous: Option<((PromptKind, String), &'static str)> = None;
    for (step, move_text) in level.solution.iter().enumerate() {
        if let Some(prompt) = game.prompt() {
            let question = asked(prompt);
            let at = format!("{} step {step}, {:?}", level.id, prompt.question);
            for (index, choice) in prompt.choices.iter().enumerate() {
                if choice.right {
                    continue;
                }
                tried += 1;
                let hints = earned(&game, index);
                let Some(&hint) = hints.first() else {
                    faults.push(format!("{at}: {:?} earns no hint", choice.label));
                    continue;
                };
                if !keyed_to(level, hint, prompt) {
                    faults.push(format!(
                        "{at}: {:?} earns {hint:?}, about another prompt",
                        choice.label
                    ));
                }
                if let Some((before, before_hint)) = &previous
                    && *before != question
                    && *before_hint == hint
                {
                    faults.push(format!(
                        "{at}: {:?} earns the previous question's hint {hint:?}",
                        choice.label
                    ));
                }
                previous = Some((question.clone(), hint));
            }
        }
        game.play(move_text)
            .unwrap_or_else(|error| panic!("{}: {move_text}: {error}", level.id));
    }
    (tried, faults)
}

#[test]
fn every_wrong_choice_earns_a_hint_about_its_own_question() {
    let mut tried = 0;
    let mut faults = Vec::new();
    let mut collect = |(count, found): (usize, Vec<String>)| {
        tried += count;
        faults.extend(found);
    };
    for level in levels::ACT1 {
        collect(hint_faults(level));
    }
    for level in levels::log_levels() {
        collect(hint_faults(level));
    }
    for level in levels::ACT4_MATCHMAKER {
        collect(hint_faults(level));
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    assert!(tried >= 100, "only {tried} wrong choices tried");
}

/// A level's rules with every level question's topic replaced by one: what a level with one
/// hint for "any mistake" did.
struct OneTopic<B: Board + 'static>(&'static dyn Rules<B>);

impl<B: Board + 'static> Rules<B> for OneTopic<B> {
    fn goal(&self, run: &Run<B>, memory: &Memory) -> Goal {
        self.0.goal(run, memory)
    }

    fn question(&self, change: &Change<'_, B>) -> Option<Prompt> {
        let mut prompt = self.0.question(change)?;
        prompt.topic = "any";
        Some(prompt)
    }

    fn checklist(&self, run: &Run<B>, memory: &Memory) -> Vec<ChecklistItem> {
        self.0.checklist(run, memory)
    }
}

/// `level` with its questions' hints keyed to any question, in the level's order.
fn keyed_to_any<B: Board + 'static>(level: &'static Level<B>) -> &'static Level<B> {
    let hints: Vec<Hint> = (level.hints.iter())
        .map(|hint| Hint {
            about: match hint.about {
                HintFor::Question(_) => HintFor::Question("any"),
                about => about,
            },
            text: hint.text,
        })
        .collect();
    Box::leak(Box::new(Level {
        hints: hints.leak(),
        rules: Box::leak(Box::new(OneTopic(level.rules))),
        ..*level
    }))
}

#[test]
fn the_check_finds_a_hint_about_the_previous_question() {
    for id in ["act4/matchmaking", "act4/garbage-collection"] {
        let level = levels::find_matchmaker(id).expect("the level");
        let (_, faults) = hint_faults(keyed_to_any(level));
        assert!(
            faults
                .iter()
                .any(|fault| fault.contains("the previous question's hint")),
            "{id}: {faults:?}"
        );
    }
}

#[test]
fn the_check_finds_a_mistake_with_no_hint() {
    let level = levels::find_matchmaker("act4/matchmaking").expect("the level");
    let hintless = Box::leak(Box::new(Level {
        hints: &[],
        ..*level
    }));
    let (_, faults) = hint_faults(hintless);
    assert!(
        faults.iter().any(|fault| fault.contains("earns no hint")),
        "{faults:?}"
    );
}

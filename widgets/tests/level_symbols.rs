//! Each level declares the paros-core symbols its words name (`Level::symbols`), and the book's
//! build resolves them against paros-core. These tests keep the declaration from falling behind
//! the words: every code name a level shows, from its own file or from the prompts its reference
//! solution opens, is declared, and every declared symbol is named.
//!
//! A code name is a word no prose uses, backticked or not: one with an underscore or a `::`
//! (`read_may_be_served`, `ColocatedNode::learn_chosen`); or a backticked capitalised name, a
//! type (`Ready`). A backticked lower-case word alone (`persist`, `send`) is a move of the
//! game's script language, not a symbol.

use std::collections::BTreeSet;
use std::path::Path;

use paros_play::{Board, Game, Level, View, levels};

/// Whether `word` reads as a Rust path.
fn is_path(word: &str) -> bool {
    !word.is_empty()
        && word.split("::").all(|segment| {
            let mut chars = segment.chars();
            chars
                .next()
                .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}

/// Whether `word` is a code name wherever it stands: an underscore or a `::` in a path.
fn is_code(word: &str) -> bool {
    (word.contains('_') || word.contains("::")) && is_path(word)
}

/// The code names in `text`.
fn code_names(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (index, part) in text.split('`').enumerate() {
        let capitalised = part.starts_with(|c: char| c.is_ascii_uppercase());
        if index % 2 == 1 && (is_code(part) || capitalised && is_path(part)) {
            names.insert(part.to_string());
        }
    }
    let bare = text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'));
    for word in bare.map(|word| word.trim_matches(':')) {
        if is_code(word) {
            names.insert(word.to_string());
        }
    }
    names
}

/// The string literals of a Rust file (escapes read, comments left out), without format
/// arguments (`{vote_text}`) and the briefing's file name.
fn string_literals(source: &str) -> Vec<String> {
    let mut literals = Vec::new();
    let mut inside = None::<String>;
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        match (&mut inside, c) {
            (None, '/') if chars.peek() == Some(&'/') => {
                chars.by_ref().find(|&c| c == '\n');
            }
            (None, '"') => inside = Some(String::new()),
            (None, _) => {}
            (Some(literal), '"') => {
                if !literal.ends_with(".md") {
                    literals.push(without_format_arguments(literal));
                }
                inside = None;
            }
            (Some(literal), '\\') => match chars.next() {
                Some('n' | 't' | '\n') => literal.push(' '),
                Some(escaped) => literal.push(escaped),
                None => {}
            },
            (Some(literal), c) => literal.push(c),
        }
    }
    literals
}

/// `text` with every `{...}` left out.
fn without_format_arguments(text: &str) -> String {
    let mut kept = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = usize::saturating_sub(depth, 1),
            c if depth == 0 => kept.push(c),
            _ => {}
        }
    }
    kept
}

/// The level's own file, `src/levels/act2/the_read_that_lies.rs` for `act2/the-read-that-lies`,
/// without its `symbols` list: the declaration must not count as naming what it declares.
fn level_source<B: Board>(level: &Level<B>) -> String {
    let file = format!("src/levels/{}.rs", level.id.replace('-', "_"));
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(&file);
    let source = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{file}: {error}"));
    without_symbols_list(&source)
        .unwrap_or_else(|| panic!("{file}: no `symbols: native_only(&[...])` list"))
}

/// `source` with its `symbols: native_only(&[...])` field left out, or `None` when it has none.
fn without_symbols_list(source: &str) -> Option<String> {
    const FIELD: &str = "symbols: native_only(&[";
    let start = source.find(FIELD)?;
    let end = start + FIELD.len() + source[start + FIELD.len()..].find(']')? + 1;
    Some(format!("{}{}", &source[..start], &source[end..]))
}

/// Every string in what the browser is shown.
fn shown(view: &View, into: &mut Vec<String>) {
    fn strings(value: &serde_json::Value, into: &mut Vec<String>) {
        match value {
            serde_json::Value::String(text) => into.push(text.clone()),
            serde_json::Value::Array(items) => items.iter().for_each(|item| strings(item, into)),
            serde_json::Value::Object(fields) => fields.values().for_each(|v| strings(v, into)),
            _ => {}
        }
    }
    strings(
        &serde_json::to_value(view).expect("a view serializes"),
        into,
    );
}

/// Everything the level says: its file's literals, its briefing, and every view of its reference
/// solution, with each prompt's choices and their explanations.
fn level_words<B: Board>(level: &'static Level<B>) -> Vec<String> {
    let mut words = string_literals(&level_source(level));
    words.push(level.briefing.to_string());
    words.extend(level.hints.iter().map(|hint| hint.text.to_string()));
    let mut game = Game::new(level, level.solution_unlocked).expect("mounts");
    shown(&View::of(&game), &mut words);
    for step in level.solution {
        game.play(step)
            .unwrap_or_else(|error| panic!("{}: {step}: {error}", level.id));
        shown(&View::of(&game), &mut words);
    }
    words
}

fn covers(declared: &str, name: &str) -> bool {
    declared == name
        || declared.ends_with(&format!("::{name}"))
        || name.ends_with(&format!("::{declared}"))
}

/// The level's undeclared code names and its declared symbols it never names.
fn mismatches<B: Board>(level: &'static Level<B>) -> (Vec<String>, Vec<&'static str>) {
    let words = level_words(level);
    let named: BTreeSet<String> = words.iter().flat_map(|text| code_names(text)).collect();
    let undeclared = named
        .iter()
        .filter(|name| !level.symbols.iter().any(|declared| covers(declared, name)))
        .cloned()
        .collect();
    let unnamed = level
        .symbols
        .iter()
        .copied()
        .filter(|declared| !named.iter().any(|name| covers(declared, name)))
        .collect();
    (undeclared, unnamed)
}

#[test]
fn code_names_are_backticked_paths_and_words_no_prose_uses() {
    // Proves the scan finds what the levels write, in either form, and skips prose.
    let text = "The node waits (read_may_be_served): a `Ready` batch, `x = 1`, `persist`, \
                ColocatedNode::learn_chosen. Phase-1 quorum, 2.N1, N1->N2.";
    assert_eq!(
        code_names(text),
        BTreeSet::from([
            "ColocatedNode::learn_chosen".to_string(),
            "Ready".to_string(),
            "read_may_be_served".to_string(),
        ])
    );
    let source = "// `ignored` in a comment\nlet a = \"names `chosen_index`\"; \
                  let b = \"c \\\"d\\\" {vote_text}\"; include_str!(\"a_level.md\")";
    assert_eq!(
        string_literals(source),
        vec!["names `chosen_index`".to_string(), "c \"d\" ".to_string()]
    );
    // The declaration itself is not a naming: a symbol only listed is found unnamed.
    let level = "id: \"a\",\n    symbols: native_only(&[\"log::phase1_complete\"]),\n    hints: [\"`Ready`\"],";
    let scanned = without_symbols_list(level).expect("has a list");
    let named: BTreeSet<String> = string_literals(&scanned)
        .iter()
        .flat_map(|text| code_names(text))
        .collect();
    assert_eq!(named, BTreeSet::from(["Ready".to_string()]));
}

#[test]
fn every_code_name_a_level_shows_is_declared_and_every_declared_symbol_is_named() {
    let mut problems = Vec::new();
    let mut check = |id: &str, (undeclared, unnamed): (Vec<String>, Vec<&str>)| {
        if !undeclared.is_empty() {
            problems.push(format!("{id} names undeclared {undeclared:?}"));
        }
        if !unnamed.is_empty() {
            problems.push(format!("{id} declares {unnamed:?} but never names them"));
        }
    };
    for level in levels::ACT1 {
        check(level.id, mismatches(level));
    }
    for level in levels::log_levels() {
        check(level.id, mismatches(level));
    }
    for level in levels::ACT4_MATCHMAKER {
        check(level.id, mismatches(level));
    }
    assert!(
        problems.is_empty(),
        "add them to the level's `symbols` (or drop them):\n{}",
        problems.join("\n")
    );
}

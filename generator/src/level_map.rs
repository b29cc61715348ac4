//! `chapters/level-map.toml`: the game's level map as designed, act by act, and the
//! `{{ level-map }}` embed that states it from the game's own catalog.
//!
//! The file lists every designed level in order, playable or not:
//!
//! ```toml
//! [[act]]
//! number = 1
//! world = "three acceptors, one or two proposers, one value"
//! adds = "the two phases, the acceptor's two rules"
//! levels = [
//!     { id = "act1/choose-a-value", title = "Choose a value" },
//! ]
//! ```
//!
//! A level is playable when the game's catalog has it; every catalog level must be in the map,
//! under its act, or the build fails naming the map's line. The embed renders the acts with
//! how many of their levels are playable, every playable level with its chapter, and the
//! designed levels the game does not have yet, so no count or list is written by hand.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use serde::Deserialize;
use toml::Spanned;

use crate::diagnostic::{Diagnostic, LineIndex};
use crate::embeds::escape;
use crate::levels::{Level, LevelCatalog};
use crate::markdown::page_path;

/// The map's file name under `chapters/`.
pub const LEVEL_MAP: &str = "level-map.toml";

/// Chapters by their SUMMARY.md title: the page's source, `None` for a draft.
pub type ChaptersByTitle = BTreeMap<String, Option<String>>;

/// One designed level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DesignedLevel {
    /// Its stable id, `act1/choose-a-value`.
    pub id: String,
    /// Its title; a playable level shows the game's own.
    pub title: String,
    /// Its line in the map.
    pub line: usize,
}

/// One act of the map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Act {
    /// From 1.
    pub number: u8,
    /// The world the act is played in, in a few words.
    pub world: String,
    /// What the act adds to the protocol.
    pub adds: String,
    /// Its designed levels, in order.
    pub levels: Vec<DesignedLevel>,
    /// The line of its `[[act]]` table.
    pub line: usize,
}

/// The parsed map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelMap {
    /// How errors name the file (`chapters/level-map.toml`).
    pub file: String,
    /// The acts, in order.
    pub acts: Vec<Act>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    act: Vec<Spanned<ActEntry>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActEntry {
    number: u8,
    world: String,
    adds: String,
    levels: Vec<Spanned<LevelEntry>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LevelEntry {
    id: String,
    title: String,
}

impl LevelMap {
    /// Parses the map and checks its ids; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<LevelMap, Vec<Diagnostic>> {
        let lines = LineIndex::new(text);
        let at = |offset: usize, message: String| {
            let (line, column) = lines.locate(text, offset);
            Diagnostic::new(file, line, column, message)
        };
        let parsed: MapFile = toml::from_str(text).map_err(|error| {
            let offset = error.span().map_or(0, |span| span.start);
            vec![at(
                offset,
                format!("invalid level map: {}", error.message()),
            )]
        })?;
        let mut errors = Vec::new();
        let mut acts = Vec::new();
        let mut seen_acts = BTreeSet::new();
        let mut seen_ids = BTreeSet::new();
        for act in parsed.act {
            let act_offset = act.span().start;
            let act = act.into_inner();
            if !seen_acts.insert(act.number) {
                errors.push(at(
                    act_offset,
                    format!("act {} is listed twice", act.number),
                ));
            }
            let mut levels = Vec::new();
            for level in act.levels {
                let offset = level.span().start;
                let level = level.into_inner();
                if let Err(why) = check_id(&level.id, act.number) {
                    errors.push(at(offset, why));
                } else if !seen_ids.insert(level.id.clone()) {
                    errors.push(at(offset, format!("level `{}` is listed twice", level.id)));
                }
                levels.push(DesignedLevel {
                    id: level.id,
                    title: level.title,
                    line: lines.locate(text, offset).0,
                });
            }
            acts.push(Act {
                number: act.number,
                world: act.world,
                adds: act.adds,
                levels,
                line: lines.locate(text, act_offset).0,
            });
        }
        if errors.is_empty() {
            Ok(LevelMap {
                file: file.to_string(),
                acts,
            })
        } else {
            Err(errors)
        }
    }

    /// Checks that every level of the game's catalog is in the map, under its own act: each
    /// one missing names the line of its act (or the file's first line, for an act the map
    /// lacks).
    pub fn check_catalog(&self, catalog: &LevelCatalog) -> Vec<Diagnostic> {
        catalog
            .levels()
            .iter()
            .filter_map(|level| self.misplaced(level))
            .collect()
    }

    fn misplaced(&self, level: &Level) -> Option<Diagnostic> {
        let act = self.acts.iter().find(|act| act.number == level.act);
        if act.is_some_and(|act| act.levels.iter().any(|designed| designed.id == level.id)) {
            return None;
        }
        let line = act.map_or(1, |act| act.line);
        let elsewhere = self
            .designed(&level.id)
            .map(|(act, designed)| {
                format!(
                    " (line {} lists it under act {})",
                    designed.line, act.number
                )
            })
            .unwrap_or_default();
        Some(Diagnostic::new(
            &self.file,
            line,
            1,
            format!(
                "level `{}` of act {} is in the game but not in the level map under act {}{elsewhere}",
                level.id, level.act, level.act
            ),
        ))
    }

    fn designed(&self, id: &str) -> Option<(&Act, &DesignedLevel)> {
        self.acts.iter().find_map(|act| {
            act.levels
                .iter()
                .find(|level| level.id == id)
                .map(|level| (act, level))
        })
    }
}

/// Why `id` is not a level id of act `act`: `actN/` and then lower-case words joined by single
/// hyphens.
fn check_id(id: &str, act: u8) -> Result<(), String> {
    let prefix = format!("act{act}/");
    let Some(name) = id.strip_prefix(&prefix) else {
        return Err(format!(
            "malformed level id `{id}`: a level of act {act} starts with `{prefix}`"
        ));
    };
    let well_formed = !name.is_empty()
        && name.split('-').all(|word| {
            !word.is_empty()
                && word
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        });
    if well_formed {
        Ok(())
    } else {
        Err(format!(
            "malformed level id `{id}`: after `{prefix}` come lower-case words joined by single hyphens"
        ))
    }
}

/// An act's number as the book writes it: I, II, III, IV, ...
pub fn roman(number: u8) -> String {
    const NUMERALS: [(u8, &str); 7] = [
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    let mut rest = number;
    let mut written = String::new();
    for (value, numeral) in NUMERALS {
        while rest >= value {
            written.push_str(numeral);
            rest -= value;
        }
    }
    written
}

/// Escapes text for HTML and sets its backquoted spans as code.
fn with_code_spans(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(index, part)| {
            if index % 2 == 1 {
                format!("<code>{}</code>", escape(part))
            } else {
                escape(part)
            }
        })
        .collect()
}

/// The HTML of the `{{ level-map }}` embed. `root` leads from the page to the site's root.
/// A level whose chapter title is not in SUMMARY.md is an error naming the level.
pub fn render(
    map: &LevelMap,
    catalog: &LevelCatalog,
    chapters: &ChaptersByTitle,
    root: &str,
) -> Result<String, String> {
    let mut html = String::from("<div class=\"level-map-embed\">\n");
    html.push_str(&acts_table(map, catalog));
    html.push_str(&playable_table(catalog, chapters, root)?);
    html.push_str(&not_yet_playable(map, catalog));
    html.push_str("</div>\n");
    Ok(html)
}

/// Each act, its world, what it adds and how many of its designed levels are playable.
fn acts_table(map: &LevelMap, catalog: &LevelCatalog) -> String {
    let mut html = String::from(
        "<table class=\"level-map-acts\">\n<thead><tr><th>act</th><th>the world</th>\
         <th>what it adds</th><th>levels playable</th></tr></thead>\n<tbody>\n",
    );
    for act in &map.acts {
        let playable = act
            .levels
            .iter()
            .filter(|level| catalog.get(&level.id).is_some())
            .count();
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{playable} of {}</td></tr>",
            roman(act.number),
            with_code_spans(&act.world),
            with_code_spans(&act.adds),
            act.levels.len()
        );
    }
    html.push_str("</tbody>\n</table>\n");
    html
}

/// Every level of the game, in its order: a link to play it, what the player does by hand and
/// a link to its chapter.
fn playable_table(
    catalog: &LevelCatalog,
    chapters: &ChaptersByTitle,
    root: &str,
) -> Result<String, String> {
    let mut html = String::from(
        "<table class=\"level-map-playable\">\n<thead><tr><th>level</th>\
         <th>what you do by hand</th><th>chapter</th></tr></thead>\n<tbody>\n",
    );
    for level in catalog.levels() {
        let chapter = chapter_link(level, chapters, root)?;
        let _ = writeln!(
            html,
            "<tr><td><a href=\"{root}play/#{id}\"><code>{id}</code></a></td><td>{}</td><td>{chapter}</td></tr>",
            with_code_spans(&level.by_hand),
            id = escape(&level.id),
        );
    }
    html.push_str("</tbody>\n</table>\n");
    Ok(html)
}

/// A link to the level's chapter; a draft chapter (listed, no page yet) is its title alone.
fn chapter_link(level: &Level, chapters: &ChaptersByTitle, root: &str) -> Result<String, String> {
    let title = escape(&level.chapter);
    match chapters.get(&level.chapter) {
        Some(Some(source)) => Ok(format!(
            "<a href=\"{root}{}\">{title}</a>",
            escape(&page_path(source))
        )),
        Some(None) => Ok(title),
        None => Err(format!(
            "level `{}` belongs to chapter “{}”, which SUMMARY.md does not list",
            level.id, level.chapter
        )),
    }
}

/// The designed levels the game does not have yet, act by act, by title.
fn not_yet_playable(map: &LevelMap, catalog: &LevelCatalog) -> String {
    let items: Vec<String> = map
        .acts
        .iter()
        .filter_map(|act| {
            let titles: Vec<String> = act
                .levels
                .iter()
                .filter(|level| catalog.get(&level.id).is_none())
                .map(|level| escape(&level.title))
                .collect();
            (!titles.is_empty())
                .then(|| format!("<li>Act {}: {}</li>", roman(act.number), titles.join(", ")))
        })
        .collect();
    if items.is_empty() {
        return "<p class=\"level-map-designed\">Every designed level is playable.</p>\n".into();
    }
    format!(
        "<p>Designed, and not playable yet:</p>\n<ul class=\"level-map-designed\">\n{}\n</ul>\n",
        items.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAP: &str = r#"# A fixture map.
[[act]]
number = 1
world = "one value"
adds = "the two phases"
levels = [
    { id = "act1/first", title = "First" },
    { id = "act1/second", title = "Second" },
]

[[act]]
number = 2
world = "a log"
adds = "a `Ready` batch"
levels = [
    { id = "act2/third", title = "Third" },
    { id = "act2/fourth", title = "Fourth & last" },
    { id = "act2/fifth", title = "Fifth" },
]
"#;

    fn level(id: &str, act: u8, chapter: &str) -> Level {
        Level {
            id: id.into(),
            act,
            title: format!("Game's {id}"),
            by_hand: format!("Play `{id}` by hand"),
            teaches: String::new(),
            chapter: chapter.into(),
            scenario: String::new(),
            symbols: Vec::new(),
            unlocks: None,
            briefing: String::new(),
            module: String::new(),
            worlds: Vec::new(),
        }
    }

    fn catalog(levels: Vec<Level>) -> LevelCatalog {
        LevelCatalog::new(levels)
    }

    fn chapters() -> ChaptersByTitle {
        BTreeMap::from([
            ("One".to_string(), Some("one.md".to_string())),
            ("Log".to_string(), Some("act2/log.md".to_string())),
            ("Later".to_string(), None),
        ])
    }

    fn map() -> LevelMap {
        LevelMap::parse(MAP, "chapters/level-map.toml").expect("the fixture parses")
    }

    fn errors(text: &str) -> Vec<String> {
        LevelMap::parse(text, "chapters/level-map.toml")
            .unwrap_err()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn the_map_keeps_acts_and_levels_in_order_with_their_lines() {
        let map = map();
        let numbers: Vec<u8> = map.acts.iter().map(|act| act.number).collect();
        assert_eq!(numbers, vec![1, 2]);
        assert_eq!(map.acts[1].line, 11);
        let ids: Vec<(&str, usize)> = map.acts[1]
            .levels
            .iter()
            .map(|level| (level.id.as_str(), level.line))
            .collect();
        assert_eq!(
            ids,
            vec![("act2/third", 16), ("act2/fourth", 17), ("act2/fifth", 18)]
        );
    }

    #[test]
    fn malformed_and_repeated_ids_name_their_line() {
        // Proves an id under the wrong act, a badly spelled one and a repeated one each fail at
        // the line that holds it.
        let text = MAP
            .replace("act1/second", "act2/second")
            .replace("act2/fourth", "act2/Fourth_Level")
            .replace("act2/fifth", "act2/third");
        assert_eq!(
            errors(&text),
            vec![
                "chapters/level-map.toml:8:5: malformed level id `act2/second`: a level of act 1 \
                 starts with `act1/`",
                "chapters/level-map.toml:17:5: malformed level id `act2/Fourth_Level`: after \
                 `act2/` come lower-case words joined by single hyphens",
                "chapters/level-map.toml:18:5: level `act2/third` is listed twice",
            ]
        );
        assert!(check_id("act3/a--b", 3).is_err());
        assert!(check_id("act3/", 3).is_err());
        assert!(check_id("act3/the-2x2-grid", 3).is_ok());
    }

    #[test]
    fn a_map_that_is_not_the_expected_toml_names_its_line() {
        let unknown_key = MAP.replace("title = \"Third\"", "name = \"Third\"");
        let found = errors(&unknown_key);
        assert_eq!(found.len(), 1);
        assert!(
            found[0].starts_with("chapters/level-map.toml:16:") && found[0].contains("name"),
            "{found:?}"
        );
        let broken = errors("[[act]]\nnumber = \n");
        assert!(
            broken[0].starts_with("chapters/level-map.toml:2:"),
            "{broken:?}"
        );
    }

    #[test]
    fn a_game_level_missing_from_the_map_names_its_act_line() {
        // Proves a level of the game the map lacks fails at its act's line, one listed under
        // another act says where, and a level of an act the map lacks fails at line 1.
        let game = catalog(vec![
            level("act1/first", 1, "One"),
            level("act2/sixth", 2, "Log"),
            level("act1/third", 2, "Log"),
            level("act5/new", 5, "Log"),
        ]);
        let found: Vec<String> = map()
            .check_catalog(&game)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            found,
            vec![
                "chapters/level-map.toml:11:1: level `act2/sixth` of act 2 is in the game but not \
                 in the level map under act 2",
                "chapters/level-map.toml:11:1: level `act1/third` of act 2 is in the game but not \
                 in the level map under act 2",
                "chapters/level-map.toml:1:1: level `act5/new` of act 5 is in the game but not in \
                 the level map under act 5",
            ]
        );
        let placed = catalog(vec![level("act1/second", 1, "One")]);
        let mut moved = map();
        let second = moved.acts[0].levels.remove(1);
        moved.acts[1].levels.push(second);
        assert_eq!(
            moved.check_catalog(&placed)[0].message,
            "level `act1/second` of act 1 is in the game but not in the level map under act 1 \
             (line 8 lists it under act 2)"
        );
        assert!(map().check_catalog(&placed).is_empty());
    }

    #[test]
    fn the_embed_counts_lists_and_links_from_the_game() {
        // Proves the act table counts the game's levels against the designed ones, the playable
        // table has one row per game level with its play and chapter links, and only the
        // designed levels the game lacks are listed as not playable yet.
        let game = catalog(vec![
            level("act1/first", 1, "One"),
            level("act1/second", 1, "One"),
            level("act2/fourth", 2, "Log"),
            level("act2/fifth", 2, "Later"),
        ]);
        let html = render(&map(), &game, &chapters(), "../").unwrap();
        assert!(
            html.contains(
                "<tr><td>I</td><td>one value</td><td>the two phases</td><td>2 of 2</td></tr>"
            ),
            "{html}"
        );
        assert!(
            html.contains("<td>a <code>Ready</code> batch</td><td>2 of 3</td>"),
            "{html}"
        );
        assert!(html.contains(
            "<tr><td><a href=\"../play/#act1/first\"><code>act1/first</code></a></td>\
             <td>Play <code>act1/first</code> by hand</td><td><a href=\"../one.html\">One</a></td></tr>"
        ));
        assert!(html.contains("<td><a href=\"../act2/log.html\">Log</a></td>"));
        assert!(
            html.contains("</td><td>Later</td></tr>"),
            "a draft chapter is its title alone"
        );
        assert_eq!(html.matches("play/#").count(), 4);
        assert!(
            html.contains("<ul class=\"level-map-designed\">\n<li>Act II: Third</li>\n</ul>"),
            "{html}"
        );
        let everything = catalog(vec![
            level("act1/first", 1, "One"),
            level("act1/second", 1, "One"),
            level("act2/third", 2, "Log"),
            level("act2/fourth", 2, "Log"),
            level("act2/fifth", 2, "Log"),
        ]);
        let html = render(&map(), &everything, &chapters(), "").unwrap();
        assert!(html.contains("<td>3 of 3</td>"));
        assert!(html.contains("Every designed level is playable."));
        assert!(!html.contains("<li>"));
    }

    #[test]
    fn the_not_yet_playable_list_escapes_titles_and_groups_by_act() {
        let game = catalog(vec![level("act2/third", 2, "Log")]);
        let html = render(&map(), &game, &chapters(), "").unwrap();
        assert!(
            html.contains(
                "<li>Act I: First, Second</li>\n<li>Act II: Fourth &amp; last, Fifth</li>"
            ),
            "{html}"
        );
    }

    #[test]
    fn a_chapter_title_summary_does_not_list_is_an_error_naming_the_level() {
        let game = catalog(vec![level("act1/first", 1, "Chapter one")]);
        assert_eq!(
            render(&map(), &game, &chapters(), "").unwrap_err(),
            "level `act1/first` belongs to chapter “Chapter one”, which SUMMARY.md does not list"
        );
    }

    #[test]
    fn acts_are_numbered_in_roman_numerals() {
        let numerals: Vec<String> = (1..=10).map(roman).collect();
        assert_eq!(
            numerals,
            ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]
        );
    }
}

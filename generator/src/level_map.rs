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
//! under its act, or the build fails naming the map's line. The `{{ level-map }}` directive
//! (`directives/level_map.rs`) renders it.

use std::collections::BTreeSet;

use serde::Deserialize;
use toml::Spanned;

use crate::diagnostic::{Diagnostic, LineIndex};
use crate::levels::{Level, LevelCatalog};

/// The map's file name under `chapters/`.
pub const LEVEL_MAP: &str = "level-map.toml";

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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::summary::ChaptersByTitle;
    use std::collections::BTreeMap;

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

    pub(crate) fn level(id: &str, act: u8, chapter: &str) -> Level {
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

    pub(crate) fn catalog(levels: Vec<Level>) -> LevelCatalog {
        LevelCatalog::new(levels)
    }

    pub(crate) fn chapters() -> ChaptersByTitle {
        BTreeMap::from([
            ("One".to_string(), Some("one.md".to_string())),
            ("Log".to_string(), Some("act2/log.md".to_string())),
            ("Later".to_string(), None),
        ])
    }

    pub(crate) fn map() -> LevelMap {
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
}

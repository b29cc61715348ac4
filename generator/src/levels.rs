//! The game's level catalog, as the book needs it: ids, titles, what each level teaches and
//! unlocks, the chapter it belongs to and the simulator scenario that checks its world.
//!
//! The catalog comes from paros-play's `catalog()` when the generator is built with the game,
//! or from a `levels.json` of the same shape (fixtures, benchmarks).
//!
//! [`Level`] holds the fields of paros-play's `LevelSummary` as owned strings. The game's type
//! borrows `'static` strings and only serializes, so it cannot be read from a `levels.json`;
//! the book converts it once, with `Level::from`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::symbols::SymbolIndex;

/// Where the built book keeps [`LevelCatalog::play_json`].
pub const PLAY_CATALOG: &str = "play/levels.json";

/// One level of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Level {
    /// Stable id, `act1/choose-a-value`; `play/#<id>` opens it.
    pub id: String,
    /// Act number, from 1.
    pub act: u8,
    /// Title shown on the level map.
    pub title: String,
    /// The role the player answers for by hand.
    pub by_hand: String,
    /// What the level teaches.
    pub teaches: String,
    /// The chapter that explains it.
    pub chapter: String,
    /// The paros-sim scenario whose report sits beside the level.
    pub scenario: String,
    /// The paros-core symbols the level's words name; each must resolve like a chapter's link.
    #[serde(default)]
    pub symbols: Vec<String>,
    /// The automation passing it unlocks, if any.
    #[serde(default)]
    pub unlocks: Option<String>,
    /// The briefing, markdown; search indexes it.
    #[serde(default)]
    pub briefing: String,
    /// The game's wasm module that plays it (`play/pkg/<module>/`).
    #[serde(default)]
    pub module: String,
    /// The name of each stage's world (paros-sim's `level_worlds`), which "Copy as command"
    /// writes into `paros-sim replay WORLD ...`.
    #[serde(default)]
    pub worlds: Vec<String>,
}

impl From<paros_play::LevelSummary> for Level {
    fn from(level: paros_play::LevelSummary) -> Level {
        Level {
            id: level.id.to_string(),
            act: level.act,
            title: level.title.to_string(),
            by_hand: level.by_hand.to_string(),
            teaches: level.teaches.to_string(),
            chapter: level.chapter.to_string(),
            scenario: level.scenario.to_string(),
            symbols: level
                .symbols
                .iter()
                .map(|symbol| symbol.to_string())
                .collect(),
            unlocks: level.unlocks.map(str::to_string),
            briefing: String::new(),
            module: level.module.to_string(),
            worlds: level.worlds.iter().map(|world| world.to_string()).collect(),
        }
    }
}

/// Every level, in the level map's order.
#[derive(Clone, Debug, Default)]
pub struct LevelCatalog {
    levels: Vec<Level>,
    by_id: BTreeMap<String, usize>,
}

impl LevelCatalog {
    /// A catalog of `levels`, in the order given.
    pub fn new(levels: Vec<Level>) -> LevelCatalog {
        let by_id = levels
            .iter()
            .enumerate()
            .map(|(index, level)| (level.id.clone(), index))
            .collect();
        LevelCatalog { levels, by_id }
    }

    /// The level with this id.
    pub fn get(&self, id: &str) -> Option<&Level> {
        self.by_id.get(id).map(|&index| &self.levels[index])
    }

    /// All levels, by act then in catalog order.
    pub fn by_act(&self) -> BTreeMap<u8, Vec<&Level>> {
        let mut acts: BTreeMap<u8, Vec<&Level>> = BTreeMap::new();
        for level in &self.levels {
            acts.entry(level.act).or_default().push(level);
        }
        acts
    }

    /// All levels, in the level map's order.
    pub fn levels(&self) -> &[Level] {
        &self.levels
    }

    /// What the browser reads before it loads any of the game's modules: every level with the
    /// module that plays it, and every automation toggle. Written to [`PLAY_CATALOG`].
    pub fn play_json(&self) -> String {
        #[derive(Serialize)]
        struct PlayCatalog<'a> {
            levels: &'a [Level],
            automations: Vec<paros_play::AutomationInfo>,
        }
        let catalog = PlayCatalog {
            levels: &self.levels,
            automations: paros_play::automations(),
        };
        serde_json::to_string(&catalog).expect("the catalog always serializes")
    }

    /// Number of levels.
    pub fn len(&self) -> usize {
        self.levels.len()
    }

    /// Whether there are no levels.
    pub fn is_empty(&self) -> bool {
        self.levels.is_empty()
    }

    /// Checks that every symbol a level names resolves in paros-core, as a chapter's link
    /// must; each problem names the level and the symbol.
    pub fn check_symbols(&self, symbols: &SymbolIndex) -> anyhow::Result<()> {
        let problems: Vec<String> = self
            .levels
            .iter()
            .flat_map(|level| {
                level.symbols.iter().filter_map(|name| {
                    symbols
                        .find(name)
                        .err()
                        .map(|why| format!("level `{}`: {why}", level.id))
                })
            })
            .collect();
        if problems.is_empty() {
            Ok(())
        } else {
            anyhow::bail!("{}", problems.join("\n"))
        }
    }

    /// The ids closest to `wanted`.
    pub fn nearest(&self, wanted: &str) -> Vec<String> {
        let mut scored: Vec<(usize, &String)> = self
            .by_id
            .keys()
            .map(|id| (crate::symbols::edit_distance(wanted, id), id))
            .collect();
        scored.sort();
        scored
            .into_iter()
            .take(3)
            .map(|(_, id)| id.clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbols::{Kind, Symbol};

    fn level(id: &str, symbols: &[&str]) -> Level {
        Level {
            id: id.into(),
            act: 2,
            title: "A level".into(),
            by_hand: "the leader".into(),
            teaches: "recovery".into(),
            chapter: "The log".into(),
            scenario: "act2".into(),
            symbols: symbols.iter().map(|symbol| symbol.to_string()).collect(),
            unlocks: None,
            briefing: String::new(),
            module: "log".into(),
            worlds: vec![id.into()],
        }
    }

    #[test]
    fn a_level_naming_a_missing_symbol_fails_with_its_id_and_the_symbol() {
        // Proves a declared symbol is resolved like a chapter link: found passes, a missing one
        // fails naming the level and the symbol with the nearest names.
        let index = SymbolIndex::from_symbols(
            "paros_core",
            vec![Symbol::new("log::recover_slot", Kind::Function)],
        );
        let good = LevelCatalog::new(vec![level("act2/good", &["recover_slot"])]);
        assert!(good.check_symbols(&index).is_ok());
        let bad = LevelCatalog::new(vec![level("act2/bad", &["recover_slots"])]);
        let error = bad.check_symbols(&index).unwrap_err().to_string();
        assert_eq!(
            error,
            "level `act2/bad`: unknown symbol `recover_slots` in paros_core; nearest: log::recover_slot"
        );
    }
}

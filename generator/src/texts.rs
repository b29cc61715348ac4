//! The book's own sources, read once per build: SUMMARY.md, the glossary, the level map, the
//! theme's templates and the chapters' text. Each is checked as it is read, and every problem
//! names its `FILE:LINE:COL`.

use std::path::Path;

use crate::diagnostic::{Diagnostic, Diagnostics, decode_utf8};
use crate::glossary::Glossary;
use crate::level_map::{LEVEL_MAP, LevelMap};
use crate::levels::LevelCatalog;
use crate::paths::{BookPaths, NAMES_PAGE, page_path};
use crate::summary::{self, ChaptersByTitle, Summary};
use crate::symbols::SymbolIndex;
use crate::templates::Templates;

/// The book's sources besides its chapters, read and checked.
pub struct BookTexts {
    /// Where they are.
    pub paths: BookPaths,
    /// SUMMARY.md.
    pub summary: Summary,
    /// `chapters/glossary.toml`; empty without one.
    pub glossary: Glossary,
    /// `chapters/level-map.toml`, if the book has one.
    pub level_map: Option<LevelMap>,
    /// Every chapter SUMMARY.md lists, by title.
    pub chapters_by_title: ChaptersByTitle,
    /// The theme's templates.
    pub templates: Templates,
}

impl BookTexts {
    /// Reads SUMMARY.md, the glossary (its names resolved in `symbols`), the level map (checked
    /// against `levels`) and the theme.
    pub fn load(
        paths: BookPaths,
        symbols: &SymbolIndex,
        levels: &LevelCatalog,
    ) -> Result<BookTexts, Diagnostics> {
        let (summary, summary_label) =
            load_summary(&paths).map_err(|error| Diagnostics(vec![error]))?;
        let mut errors = check_summary_pages(&summary, &summary_label, &paths);
        let glossary = load_glossary(&paths, symbols, &mut errors);
        let level_map = load_level_map(&paths, levels, &mut errors);
        let templates = match Templates::load(&paths.theme, &paths.label(&paths.theme)) {
            Ok(templates) => Some(templates),
            Err(error) => {
                errors.push(error);
                None
            }
        };
        if !errors.is_empty() {
            return Err(Diagnostics(errors));
        }
        Ok(BookTexts {
            chapters_by_title: summary.chapters_by_title(),
            paths,
            summary,
            glossary,
            level_map,
            templates: templates.expect("no errors"),
        })
    }

    /// The text of a chapter, by its path under `chapters/`.
    pub fn chapter(&self, source: &str) -> Result<String, Diagnostic> {
        let path = self.paths.chapters.join(source);
        read_text(&self.paths, &path, &self.chapter_label(source))
    }

    /// How errors name a chapter: `chapters/x.md`.
    pub fn chapter_label(&self, source: &str) -> String {
        self.paths.label(&self.paths.chapters.join(source))
    }
}

/// Reads a file of `chapters/`, refusing one whose real path leaves it.
fn read_text(paths: &BookPaths, path: &Path, label: &str) -> Result<String, Diagnostic> {
    let folder_label = paths.label(&paths.chapters);
    if let Some(why) = crate::confine::escapes(&paths.chapters, &folder_label, path) {
        return Err(Diagnostic::new(label, 1, 1, why));
    }
    let bytes = std::fs::read(path)
        .map_err(|error| Diagnostic::new(label, 1, 1, format!("cannot read: {error}")))?;
    decode_utf8(bytes, label)
}

/// Reads and parses SUMMARY.md; returns it with the name errors give its file.
fn load_summary(paths: &BookPaths) -> Result<(Summary, String), Diagnostic> {
    let path = paths.chapters.join("SUMMARY.md");
    let label = paths.label(&path);
    let text = read_text(paths, &path, &label)?;
    let summary = summary::parse(&text, &label)?;
    Ok((summary, label))
}

/// Every page SUMMARY.md lists must exist and must not take the generated page's place.
fn check_summary_pages(summary: &Summary, label: &str, paths: &BookPaths) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    for chapter in summary.pages() {
        let source = chapter.source.as_deref().expect("pages have sources");
        let error_at = |message| Diagnostic::new(label, chapter.line, chapter.column, message);
        if !paths.chapters.join(source).is_file() {
            errors.push(error_at(format!(
                "chapter file `{source}` not found in chapters/"
            )));
        }
        if page_path(source) == NAMES_PAGE {
            errors.push(error_at(format!(
                "`{source}` would replace the generated {NAMES_PAGE}"
            )));
        }
    }
    errors
}

/// Reads `chapters/glossary.toml` if there is one; its problems go to `errors`.
fn load_glossary(
    paths: &BookPaths,
    symbols: &SymbolIndex,
    errors: &mut Vec<Diagnostic>,
) -> Glossary {
    let path = paths.chapters.join("glossary.toml");
    if !path.is_file() {
        return Glossary::default();
    }
    let label = paths.label(&path);
    let parsed = read_text(paths, &path, &label)
        .map_err(|error| vec![error])
        .and_then(|text| Glossary::parse(&text, &label, symbols));
    parsed.unwrap_or_else(|mut found| {
        errors.append(&mut found);
        Glossary::default()
    })
}

/// Reads `chapters/level-map.toml` if there is one and checks it against the game's catalog;
/// its problems go to `errors`.
fn load_level_map(
    paths: &BookPaths,
    levels: &LevelCatalog,
    errors: &mut Vec<Diagnostic>,
) -> Option<LevelMap> {
    let path = paths.chapters.join(LEVEL_MAP);
    if !path.is_file() {
        return None;
    }
    let label = paths.label(&path);
    let parsed = read_text(paths, &path, &label)
        .map_err(|error| vec![error])
        .and_then(|text| LevelMap::parse(&text, &label));
    match parsed {
        Ok(map) => {
            errors.extend(map.check_catalog(levels));
            Some(map)
        }
        Err(mut found) => {
            errors.append(&mut found);
            None
        }
    }
}

//! The one trait every directive implements, and what a directive is handed.
//!
//! A directive is a form a chapter writes that the book resolves against the code, the game or
//! the simulator: `{{ level "id" }}` as a paragraph of its own, `{{ figure "scenario" "field" }}`
//! inside a sentence, or a link such as ``[`Acceptor`]`` whose destination is a symbol. Each one is
//! a module of `directives/` implementing [`Directive`], registered in
//! [`crate::directives::TABLE`]; Markdown rendering finds the forms, asks the table which
//! directive a form belongs to and places what it renders, knowing none by name.

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::Path;

use paros_sim::report::Report;

use crate::diagnostic::Problem;
use crate::glossary::Glossary;
use crate::level_map::LevelMap;
use crate::levels::LevelCatalog;
use crate::reports::ReportCache;
use crate::summary::ChaptersByTitle;
use crate::symbols::SymbolIndex;

/// Where a directive stands in a chapter, and how it is written.
#[derive(Clone, Copy, Debug)]
pub enum Form {
    /// A paragraph of its own: `{{ keyword "argument" }}`.
    Paragraph {
        /// Its keyword.
        keyword: &'static str,
        /// What each quoted argument names, in order (none, or one).
        arguments: &'static [&'static str],
    },
    /// Inside a sentence: `{{ keyword "a" "b" }}`; what it renders is text.
    Inline {
        /// Its keyword.
        keyword: &'static str,
        /// What each quoted argument names, in order.
        arguments: &'static [&'static str],
    },
    /// A link whose destination `claims` accepts; what it renders is the link's URL.
    Link {
        /// Whether a link's destination is this directive's.
        claims: fn(&str) -> bool,
    },
}

impl Form {
    /// How the list of known forms writes it: `{{ level "id" }}`; `None` for a link.
    pub fn usage(&self) -> Option<String> {
        let (Form::Paragraph { keyword, arguments } | Form::Inline { keyword, arguments }) = self
        else {
            return None;
        };
        let mut usage = format!("{{{{ {keyword} ");
        for argument in *arguments {
            usage.push_str(&format!("\"{argument}\" "));
        }
        usage.push_str("}}");
        Some(usage)
    }
}

/// The scheme a reference link (`[name]`) Markdown could not resolve gets, for the link
/// directives to resolve.
pub const UNRESOLVED_REFERENCE: &str = "paros-reference:";

/// What every chapter is rendered against.
pub struct Context<'book> {
    /// paros-core's items.
    pub symbols: &'book SymbolIndex,
    /// Protocol names.
    pub glossary: &'book Glossary,
    /// The game's levels.
    pub levels: &'book LevelCatalog,
    /// `chapters/level-map.toml`, if the book has one.
    pub level_map: Option<&'book LevelMap>,
    /// Every chapter SUMMARY.md lists, by title.
    pub chapters_by_title: &'book ChaptersByTitle,
    /// Scenario reports.
    pub reports: &'book ReportCache,
    /// Sources of the chapters that have a page, relative to `chapters/`.
    pub pages: &'book BTreeSet<String>,
    /// The chapters folder, to check links to files beside the chapters.
    pub chapters_dir: &'book Path,
}

impl Context<'_> {
    /// A scenario's report from this build's cache, the one every directive reads, once it has
    /// passed [`crate::verdict::validate`].
    pub fn report(&self, scenario: &str) -> Result<Report, String> {
        let report = self
            .reports
            .get(scenario)
            .map_err(|error| format!("the simulator failed on scenario `{scenario}`: {error}"))?
            .ok_or_else(|| {
                let nearest = self.reports.nearest(scenario);
                if nearest.is_empty() {
                    format!("unknown report: no scenario named `{scenario}`")
                } else {
                    format!(
                        "unknown report: no scenario named `{scenario}`; nearest: {}",
                        nearest.join(", ")
                    )
                }
            })?;
        crate::verdict::validate(&report)?;
        Ok(report)
    }
}

/// One use of a directive in a chapter.
pub struct Call<'call> {
    /// Its arguments: the quoted words of a brace form, or a link's destination.
    pub arguments: &'call [String],
    /// The chapter's path under `chapters/`.
    pub source: &'call str,
    /// The relative path from the chapter's page to the site's root.
    pub root: &'call str,
}

/// What a directive rendered.
#[derive(Clone, Debug, Default)]
pub struct Rendered {
    /// HTML for a paragraph, text for an inline form, a URL for a link.
    pub output: String,
    /// Whether the page needs the game's script (a level, or a replay).
    pub loads_game: bool,
    /// The scenario whose report it shows, if any.
    pub cites: Option<String>,
}

impl Rendered {
    /// Output that needs no game and cites no report.
    pub fn plain(output: String) -> Rendered {
        Rendered {
            output,
            ..Rendered::default()
        }
    }
}

/// A run of a chapter's prose text, as it reads and where it starts.
#[derive(Clone, Debug)]
pub struct TextRun {
    /// Its byte offset in the chapter.
    pub start: usize,
    /// Its text, escapes resolved.
    pub text: String,
    /// Whether the text is its source as written, so offsets inside it are exact.
    pub exact: bool,
}

impl TextRun {
    /// The offset in the chapter of byte `at` of the run: exact, or the run's start where
    /// escapes make the text differ from its source.
    pub fn offset(&self, at: usize) -> usize {
        if self.exact {
            self.start + at
        } else {
            self.start
        }
    }
}

/// A rendered chapter's prose and what it cites, for the checks a directive makes once the
/// whole chapter is read.
#[derive(Clone, Debug, Default)]
pub struct Prose {
    /// Every run of prose text, in order.
    pub runs: Vec<TextRun>,
    /// The scenarios whose reports the chapter shows.
    pub cited: BTreeSet<String>,
}

/// A directive: a form a chapter writes, resolved and rendered by this module alone.
pub trait Directive: Sync {
    /// Where it stands and how it is written.
    fn form(&self) -> Form;

    /// Resolves and renders one use; an error says what is wrong, and the chapter places it at
    /// the use's file:line:column.
    fn render(&self, call: &Call<'_>, context: &Context<'_>) -> Result<Rendered, Problem>;

    /// Problems only this directive sees once the whole chapter is read, each at its byte
    /// offset in the chapter. None by default.
    fn check_prose(&self, _prose: &Prose, _context: &Context<'_>) -> Vec<(usize, Problem)> {
        Vec::new()
    }
}

/// Every `{{ ... }}` of a run of text: its byte range, and its inside (`None` when it never
/// ends). A `{{` right after a backslash is text.
pub fn braces(text: &str) -> Vec<(Range<usize>, Option<&str>)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(start) = text[from..].find("{{").map(|at| from + at) {
        if text[..start].ends_with('\\') {
            from = start + 2;
            continue;
        }
        let Some(length) = text[start..].find("}}") else {
            found.push((start..text.len(), None));
            break;
        };
        let end = start + length + 2;
        found.push((start..end, Some(&text[start + 2..end - 2])));
        from = end;
    }
    found
}

/// The quoted words of `"a" "b"`, or `None` when they are malformed.
pub fn quoted_words(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let (word, after) = rest.strip_prefix('"')?.split_once('"')?;
        if word.is_empty() || word.chars().any(char::is_whitespace) {
            return None;
        }
        words.push(word.to_string());
        rest = after.trim_start();
    }
    Some(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn braces_are_found_with_their_ranges_and_escapes_are_text() {
        // Proves the scanner every inline form and the hand-written-number check share.
        let text = r#"a {{ x "y" }} b \{{ z }} c {{ open"#;
        let found = braces(text);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(&text[found[0].0.clone()], r#"{{ x "y" }}"#);
        assert_eq!(found[0].1, Some(r#" x "y" "#));
        assert_eq!(found[1], (27..text.len(), None));
    }

    #[test]
    fn usages_are_written_from_the_form() {
        // Proves the list of known forms is written from each directive's own form.
        let level = Form::Paragraph {
            keyword: "level",
            arguments: &["id"],
        };
        assert_eq!(level.usage().as_deref(), Some("{{ level \"id\" }}"));
        let map = Form::Paragraph {
            keyword: "level-map",
            arguments: &[],
        };
        assert_eq!(map.usage().as_deref(), Some("{{ level-map }}"));
        assert_eq!(
            quoted_words(r#" "a" "b" "#),
            Some(vec!["a".into(), "b".into()])
        );
        assert_eq!(quoted_words(r#""a b""#), None);
    }
}

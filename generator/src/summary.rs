//! `chapters/SUMMARY.md` in mdBook's format: the order of the book and its sidebar.
//!
//! The grammar, one construct per line:
//!
//! - `# Title` before any chapter names the book; a later `# Heading` starts a part;
//! - `[Title](file.md)` outside a list is a prefix chapter (before the numbered ones) or a
//!   suffix chapter (after them), both unnumbered;
//! - `- [Title](file.md)` (or `*`) is a numbered chapter, nested by indentation;
//! - `- [Title]()` is a draft: listed in the sidebar, no page;
//! - `---` separates prefix or suffix chapters.
//!
//! The parser is line based so every error names `SUMMARY.md:LINE:COL`.

use std::collections::BTreeMap;

use crate::diagnostic::Diagnostic;

/// Chapters by their SUMMARY.md title: the page's source, `None` for a draft.
pub type ChaptersByTitle = BTreeMap<String, Option<String>>;

/// One line of the table of contents, in reading order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A part heading (`# Part`).
    Part {
        /// The part's heading.
        title: String,
    },
    /// A separator between prefix or suffix chapters.
    Separator,
    /// A chapter; `source` is `None` for a draft.
    Chapter(ChapterRef),
}

/// A chapter as SUMMARY.md names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChapterRef {
    /// Title shown in the sidebar and on the page.
    pub title: String,
    /// Path relative to `chapters/`, with `/` separators; `None` for a draft.
    pub source: Option<String>,
    /// Section number such as `2.1.`; `None` for prefix and suffix chapters.
    pub number: Option<String>,
    /// Nesting depth, 0 for top-level chapters.
    pub depth: usize,
    /// Line of the entry in SUMMARY.md, for errors.
    pub line: usize,
    /// Column of the link target, for errors.
    pub column: usize,
}

/// A parsed SUMMARY.md.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// The book's title (the first `# ` line), if any.
    pub title: Option<String>,
    /// Entries in reading order.
    pub entries: Vec<Entry>,
}

impl Summary {
    /// Chapters with a page, in reading order.
    pub fn pages(&self) -> impl Iterator<Item = &ChapterRef> {
        self.entries.iter().filter_map(|entry| match entry {
            Entry::Chapter(chapter) if chapter.source.is_some() => Some(chapter),
            _ => None,
        })
    }

    /// Every chapter by its title: its source, `None` for a draft.
    pub fn chapters_by_title(&self) -> ChaptersByTitle {
        self.entries
            .iter()
            .filter_map(|entry| match entry {
                Entry::Chapter(chapter) => Some((chapter.title.clone(), chapter.source.clone())),
                _ => None,
            })
            .collect()
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Region {
    Prefix,
    Numbered,
    Suffix,
}

/// Parses SUMMARY.md; `file` names it in errors.
pub fn parse(text: &str, file: &str) -> Result<Summary, Diagnostic> {
    let mut summary = Summary::default();
    let mut region = Region::Prefix;
    // Indentation of each open list level, and the counter at each level.
    let mut indents: Vec<usize> = Vec::new();
    let mut counters: Vec<usize> = Vec::new();
    let mut in_comment = false;
    for (index, raw) in text.lines().enumerate() {
        let line_number = index + 1;
        let error =
            |column: usize, message: String| Diagnostic::new(file, line_number, column, message);
        let trimmed = raw.trim();
        if in_comment {
            in_comment = !trimmed.contains("-->");
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        if trimmed.starts_with("<!--") {
            in_comment = !trimmed.contains("-->");
            continue;
        }
        let indent = raw.len() - raw.trim_start().len();
        let column = indent + 1;
        if let Some(heading) = trimmed.strip_prefix("# ") {
            let heading = heading.trim().to_string();
            if summary.title.is_none() && summary.entries.is_empty() {
                summary.title = Some(heading);
            } else {
                if region == Region::Suffix {
                    return Err(error(column, "a part cannot follow suffix chapters".into()));
                }
                region = Region::Numbered;
                summary.entries.push(Entry::Part { title: heading });
            }
            continue;
        }
        if trimmed.chars().all(|c| c == '-') && trimmed.len() >= 3 {
            if region == Region::Numbered {
                region = Region::Suffix;
            }
            summary.entries.push(Entry::Separator);
            continue;
        }
        let list_item = trimmed
            .strip_prefix("- ")
            .or_else(|| trimmed.strip_prefix("* "));
        let (link_text, link_column) = match list_item {
            Some(rest) => (rest.trim(), column + 2),
            None => (trimmed, column),
        };
        let (title, source) = parse_link(link_text).ok_or_else(|| {
            error(
                link_column,
                format!("expected `[Title](file.md)`, found `{trimmed}`"),
            )
        })?;
        let target_column = link_column + title.len() + 3;
        if let Some(source) = &source {
            if !source.ends_with(".md") {
                return Err(error(
                    target_column,
                    format!("chapter `{source}` is not a .md file"),
                ));
            }
            if source.starts_with('/') || source.split('/').any(|part| part == "..") {
                return Err(error(
                    target_column,
                    format!("chapter `{source}` is outside chapters/"),
                ));
            }
            if source == "index.md" {
                return Err(error(
                    target_column,
                    "`index.md` would replace the home page; rename it".into(),
                ));
            }
        }
        let number = match list_item {
            None => {
                if region == Region::Numbered {
                    region = Region::Suffix;
                }
                indents.clear();
                counters.clear();
                None
            }
            Some(_) => {
                if region == Region::Suffix {
                    return Err(error(
                        column,
                        "a numbered chapter cannot follow suffix chapters".into(),
                    ));
                }
                region = Region::Numbered;
                while indents.last().is_some_and(|&open| indent < open) {
                    indents.pop();
                    counters.pop();
                }
                match indents.last() {
                    Some(&open) if indent == open => *counters.last_mut().expect("paired") += 1,
                    Some(_) if indents.len() >= 8 => {
                        return Err(error(column, "chapters nest at most 8 deep".into()));
                    }
                    _ => {
                        indents.push(indent);
                        counters.push(1);
                    }
                }
                let mut number = String::new();
                for counter in &counters {
                    number.push_str(&format!("{counter}."));
                }
                Some(number)
            }
        };
        let depth = if number.is_some() {
            indents.len() - 1
        } else {
            0
        };
        summary.entries.push(Entry::Chapter(ChapterRef {
            title,
            source,
            number,
            depth,
            line: line_number,
            column: target_column,
        }));
    }
    // Top-level counters continue across parts, as in mdBook.
    renumber_top_level(&mut summary);
    Ok(summary)
}

/// Numbers top-level chapters 1, 2, 3, ... across parts, keeping the nested suffixes.
fn renumber_top_level(summary: &mut Summary) {
    let mut top = 0usize;
    for entry in &mut summary.entries {
        if let Entry::Chapter(chapter) = entry
            && let Some(number) = &chapter.number
        {
            let rest = number.split_once('.').map(|(_, rest)| rest).unwrap_or("");
            if chapter.depth == 0 {
                top += 1;
            }
            chapter.number = Some(format!("{top}.{rest}"));
        }
    }
}

/// Splits `[Title](target)`; an empty target is a draft.
fn parse_link(text: &str) -> Option<(String, Option<String>)> {
    let rest = text.strip_prefix('[')?;
    let close = rest.find("](")?;
    let title = &rest[..close];
    let target = rest[close + 2..].strip_suffix(')')?;
    if title.trim().is_empty() || target.contains(['(', ')', ' ']) {
        return None;
    }
    let target = target.trim();
    let source = (!target.is_empty()).then(|| target.to_string());
    Some((title.to_string(), source))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chapters(summary: &Summary) -> Vec<(String, Option<String>, Option<String>, usize)> {
        summary
            .entries
            .iter()
            .filter_map(|entry| match entry {
                Entry::Chapter(c) => {
                    Some((c.title.clone(), c.source.clone(), c.number.clone(), c.depth))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn parses_prefix_parts_numbered_nested_drafts_and_suffix() {
        // Proves each mdBook construct lands in the right place with the right number.
        let text = "# The Book\n\n[Intro](intro.md)\n\n# Part one\n\n- [One](one.md)\n  - [One a](one/a.md)\n  - [Draft]()\n- [Two](two.md)\n\n# Part two\n\n- [Three](three.md)\n\n---\n\n[Credits](credits.md)\n";
        let summary = parse(text, "SUMMARY.md").unwrap();
        assert_eq!(summary.title.as_deref(), Some("The Book"));
        let got = chapters(&summary);
        let want = vec![
            ("Intro".into(), Some("intro.md".into()), None, 0),
            ("One".into(), Some("one.md".into()), Some("1.".into()), 0),
            (
                "One a".into(),
                Some("one/a.md".into()),
                Some("1.1.".into()),
                1,
            ),
            ("Draft".into(), None, Some("1.2.".into()), 1),
            ("Two".into(), Some("two.md".into()), Some("2.".into()), 0),
            (
                "Three".into(),
                Some("three.md".into()),
                Some("3.".into()),
                0,
            ),
            ("Credits".into(), Some("credits.md".into()), None, 0),
        ];
        assert_eq!(got, want);
        assert!(summary.entries.contains(&Entry::Part {
            title: "Part two".into()
        }));
        assert_eq!(summary.pages().count(), 6);
    }

    #[test]
    fn malformed_entry_names_its_line_and_column() {
        // Proves a broken entry is an error at its own line, not a silent skip.
        let error = parse(
            "# Book\n\n- [One](one.md)\n  - One without link\n",
            "chapters/SUMMARY.md",
        )
        .unwrap_err();
        assert_eq!((error.line, error.column), (4, 5));
        assert!(
            error.to_string().starts_with("chapters/SUMMARY.md:4:5:"),
            "{error}"
        );
    }

    #[test]
    fn numbered_after_suffix_is_refused() {
        // Proves the prefix/numbered/suffix order is enforced.
        let error = parse(
            "- [One](one.md)\n\n[Suffix](s.md)\n- [Two](two.md)\n",
            "S.md",
        )
        .unwrap_err();
        assert_eq!(error.line, 4);
    }
}

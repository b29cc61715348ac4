//! The search index: a compact inverted index, written once per build and fetched by the page
//! only when search first opens.
//!
//! It holds each section's page, anchor, heading and sentences, and for each word the list of
//! sections it occurs in, as gaps between section numbers. The page matches typed words as
//! prefixes of indexed words, ranks sections by how many of the words they contain, and shows
//! under each result the sentence that holds the most of them, the words marked. The levels are
//! sections of the play page, anchored by their ids.
//!
//! ```json
//! {"pages":[["intro.html","Introduction"]],"sections":[[0,"","Introduction",["A ballot."]]],"words":{"ballot":[0,3,1]}}
//! ```

use std::collections::BTreeMap;

use serde_json::json;

use crate::book::Book;
use crate::levels::LevelCatalog;
use crate::paths::page_path;
use crate::sections::{Section, plain_text};

/// The page the levels open on; a level's section is anchored by its id (`play/#act1/the-duel`).
pub const PLAY_PAGE: &str = "play/";

/// The levels as sections of the play page: each one's title, what it teaches and its briefing.
pub fn level_sections(levels: &LevelCatalog) -> Vec<Section> {
    levels
        .levels()
        .iter()
        .map(|level| {
            let text = format!(
                "{}\n{}",
                plain_text(&level.teaches),
                plain_text(&level.briefing)
            );
            Section::of_text(level.id.clone(), level.title.clone(), text)
        })
        .collect()
}

/// The sentences of a text, each on one line with its spaces collapsed. A line of the text (a
/// block: a paragraph, an item, a cell) ends a sentence, and so does a word ending in `.`, `?`
/// or `!`, or in one of them and a closing quote or bracket.
pub fn sentences(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for block in text.lines() {
        let mut sentence: Vec<&str> = Vec::new();
        for word in block.split_whitespace() {
            sentence.push(word);
            let bare = word.trim_end_matches(['"', '\'', ')', ']', '”', '’']);
            if bare.ends_with(['.', '?', '!']) {
                found.push(sentence.join(" "));
                sentence.clear();
            }
        }
        if !sentence.is_empty() {
            found.push(sentence.join(" "));
        }
    }
    found
}

/// One page's part of the index.
pub struct PageEntry<'page> {
    /// The page's path from the site root.
    pub path: &'page str,
    /// The page's title.
    pub title: &'page str,
    /// Its sections.
    pub sections: &'page [Section],
}

/// The search index of a book: every chapter's sections, then the levels as sections of the
/// play page.
pub fn search_index(book: &Book, levels: &LevelCatalog) -> String {
    let pages: Vec<String> = book
        .chapters()
        .iter()
        .map(|chapter| page_path(&chapter.source))
        .collect();
    let mut entries: Vec<PageEntry<'_>> = pages
        .iter()
        .zip(book.chapters())
        .map(|(path, chapter)| PageEntry {
            path,
            title: &chapter.title,
            sections: &chapter.rendered.sections,
        })
        .collect();
    let level_sections = level_sections(levels);
    if !level_sections.is_empty() {
        entries.push(PageEntry {
            path: PLAY_PAGE,
            title: "Play",
            sections: &level_sections,
        });
    }
    build(&entries)
}

/// Builds the index JSON for the pages, in the order given.
pub fn build(pages: &[PageEntry<'_>]) -> String {
    let mut page_rows = Vec::with_capacity(pages.len());
    let mut section_rows = Vec::new();
    let mut postings: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for (page_number, page) in pages.iter().enumerate() {
        page_rows.push(json!([page.path, page.title]));
        for section in page.sections {
            if section.anchor.is_empty() && section.text.trim().is_empty() {
                continue;
            }
            let section_number = section_rows.len() as u32;
            let title = if section.anchor.is_empty() {
                page.title
            } else {
                section.title.as_str()
            };
            section_rows.push(json!([
                page_number,
                section.anchor,
                title,
                sentences(&section.text)
            ]));
            for word in &section.words {
                match postings.get_mut(word.as_str()) {
                    Some(list) => list.push(section_number),
                    None => {
                        postings.insert(word.clone(), vec![section_number]);
                    }
                }
            }
        }
    }
    let words: serde_json::Map<String, serde_json::Value> = postings
        .into_iter()
        .map(|(word, sections)| {
            let mut previous = 0;
            let gaps: Vec<u32> = sections
                .into_iter()
                .map(|section| {
                    let gap = section - previous;
                    previous = section;
                    gap
                })
                .collect();
            (word, json!(gaps))
        })
        .collect();
    json!({"pages": page_rows, "sections": section_rows, "words": words}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_lists_sections_by_word_as_gaps() {
        // Proves the encoding the page decodes: word -> gaps between section numbers.
        let sections = vec![
            Section {
                anchor: String::new(),
                title: String::new(),
                text: "The ballot grows".into(),
                words: vec!["ballot".into(), "grows".into()],
            },
            Section {
                anchor: "votes".into(),
                title: "Votes".into(),
                text: "a ballot and a vote".into(),
                words: vec!["ballot".into(), "vote".into(), "votes".into()],
            },
        ];
        let json = build(&[PageEntry {
            path: "one.html",
            title: "One",
            sections: &sections,
        }]);
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["words"]["ballot"], json!([0, 1]));
        assert_eq!(value["words"]["votes"], json!([1]));
        assert!(value["words"].get("the").is_none());
        assert_eq!(
            value["sections"][1],
            json!([0, "votes", "Votes", ["a ballot and a vote"]])
        );
    }

    #[test]
    fn sentences_end_at_stops_and_at_blocks() {
        // Proves the teaser's unit: stops end a sentence, a ballot's dot does not, and a new
        // block starts a new sentence even without a stop.
        assert_eq!(
            sentences("Vote at 1.P1 now.  Is it chosen? Yes (\"it is.\")\nA list item\n\n"),
            [
                "Vote at 1.P1 now.",
                "Is it chosen?",
                "Yes (\"it is.\")",
                "A list item"
            ]
        );
    }
}

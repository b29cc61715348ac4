//! The search index: a compact inverted index, written once per build and fetched by the page
//! only when search first opens.
//!
//! It holds no text, only each section's page, anchor and heading, and for each word the list of
//! sections it occurs in, as gaps between section numbers. The page matches typed words as
//! prefixes of indexed words and ranks sections by how many of the words they contain.
//!
//! ```json
//! {"pages":[["intro.html","Introduction"]],"sections":[[0,"","Introduction"]],"words":{"ballot":[0,3,1]}}
//! ```

use std::collections::BTreeMap;

use serde_json::json;

use crate::markdown::Section;

/// Words too common to help find a section.
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "from", "has", "have", "if",
    "in", "into", "is", "it", "its", "not", "of", "on", "or", "so", "that", "the", "their", "then",
    "there", "these", "this", "to", "was", "we", "were", "when", "which", "will", "with", "you",
];

/// The words of `text` worth indexing: lower-case, 2 to 32 characters, no stop words.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric() && c != '_')
        .filter(|word| (2..=32).contains(&word.chars().count()))
        .map(str::to_lowercase)
        .filter(|word| !STOP_WORDS.contains(&word.as_str()))
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
            section_rows.push(json!([page_number, section.anchor, title]));
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
    fn words_are_lower_case_without_stop_words() {
        // Proves what the index keeps of a text: the page tokenises queries the same way.
        let kept: Vec<String> = words("The Ballot, a vote_rule x P2c").collect();
        assert_eq!(kept, ["ballot", "vote_rule", "p2c"]);
    }

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
        assert_eq!(value["sections"][1], json!([0, "votes", "Votes"]));
    }
}

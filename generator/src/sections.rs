//! A page's text as search reads it: runs of text under their headings, and their words.

use pulldown_cmark::{BrokenLink, CowStr, Event, Options, Parser, TagEnd};

/// A run of text under one heading, for search: its words, and its sentences for the teaser.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Section {
    /// The heading's id; empty for the text before the first heading.
    pub anchor: String,
    /// The heading's text.
    pub title: String,
    /// The words under it, a line per block of text.
    pub text: String,
    /// The indexable words of the title and text, sorted and without repeats.
    pub words: Vec<String>,
}

impl Section {
    /// An empty section under a heading, to be filled and then [`Section::finish`]ed.
    pub fn new(anchor: String, title: String) -> Section {
        Section {
            anchor,
            title,
            text: String::new(),
            words: Vec::new(),
        }
    }

    /// A finished section of `text` (a line per block), under a heading `title`.
    pub fn of_text(anchor: String, title: String, text: String) -> Section {
        Section {
            text,
            ..Section::new(anchor, title)
        }
        .finish()
    }

    /// Fills `words` from the title and text.
    pub fn finish(mut self) -> Section {
        let mut words: Vec<String> = words(&self.title).chain(words(&self.text)).collect();
        words.sort_unstable();
        words.dedup();
        self.words = words;
        self
    }
}

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

/// The text of a markdown snippet (a level's briefing), a line per block of text.
pub fn plain_text(markdown: &str) -> String {
    let mut text = String::new();
    // A symbol link (`[`recover_slot`]`) has no target here; its text is what counts.
    let mut as_link = |_: BrokenLink<'_>| Some((CowStr::from(""), CowStr::from("")));
    for event in
        Parser::new_with_broken_link_callback(markdown, Options::empty(), Some(&mut as_link))
    {
        match &event {
            Event::Text(content) | Event::Code(content) => text.push_str(content),
            Event::SoftBreak | Event::HardBreak => text.push(' '),
            Event::End(end) if ends_a_block_of_text(end) || matches!(end, TagEnd::Heading(_)) => {
                text.push('\n')
            }
            _ => {}
        }
    }
    text
}

/// Whether the end of this element ends a block of text, so no sentence runs across it.
pub fn ends_a_block_of_text(end: &TagEnd) -> bool {
    matches!(
        end,
        TagEnd::Paragraph
            | TagEnd::Item
            | TagEnd::TableCell
            | TagEnd::BlockQuote(_)
            | TagEnd::FootnoteDefinition
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_keeps_words_and_blocks() {
        // Proves a briefing's search text: markup and link targets go, words and code stay,
        // and every block is a line of its own.
        assert_eq!(
            plain_text(
                "# Goal\n\nDeliver **two** Prepares;\nsee [`recover_slot`].\n\n- one\n- two\n"
            ),
            "Goal\nDeliver two Prepares; see recover_slot.\none\ntwo\n"
        );
    }

    #[test]
    fn words_are_lower_case_without_stop_words() {
        // Proves what the index keeps of a text: the page tokenises queries the same way.
        let kept: Vec<String> = words("The Ballot, a vote_rule x P2c").collect();
        assert_eq!(kept, ["ballot", "vote_rule", "p2c"]);
    }
}

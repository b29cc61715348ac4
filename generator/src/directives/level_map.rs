//! `{{ level-map }}`: the game's level map from two sources, the game's catalog and
//! `chapters/level-map.toml` ([`crate::level_map`]): the acts with how many of their designed
//! levels are playable, every playable level with its chapter (by SUMMARY.md title) and the
//! designed levels the game does not have yet, so no count or list is written by hand.

use std::fmt::Write;

use crate::diagnostic::Problem;
use crate::directive::{Call, Context, Directive, Form, Rendered};
use crate::html::escape;
use crate::level_map::{LEVEL_MAP, LevelMap};
use crate::levels::{Level, LevelCatalog};
use crate::paths::page_path;
use crate::summary::ChaptersByTitle;

/// The `level-map` directive.
pub struct LevelMapEmbed;

impl Directive for LevelMapEmbed {
    fn form(&self) -> Form {
        Form::Paragraph {
            keyword: "level-map",
            arguments: &[],
        }
    }

    fn render(&self, call: &Call<'_>, context: &Context<'_>) -> Result<Rendered, Problem> {
        let map = context.level_map.ok_or_else(|| {
            format!("`{{{{ level-map }}}}` needs chapters/{LEVEL_MAP}, the level map as designed")
        })?;
        render(map, context.levels, context.chapters_by_title, call.root)
            .map(Rendered::plain)
            .map_err(Problem::from)
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
    use crate::level_map::tests::{catalog, chapters, level, map};

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

//! One chapter from markdown to HTML: symbol links, chapter links, heading anchors, highlighted
//! code, embeds, and the text the search index needs.
//!
//! Rendering one chapter reads nothing but its own source and the shared [`RenderContext`], so
//! chapters render in parallel and `serve` re-renders only the chapter that changed. Links into
//! other chapters' anchors are recorded as [`LinkCheck`]s and checked once every chapter's
//! anchors are known.

use std::collections::BTreeSet;
use std::path::Path;

use pulldown_cmark::{
    BrokenLink, CodeBlockKind, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd,
};

use crate::diagnostic::{Diagnostic, LineIndex};
use crate::embeds::{self, Embed};
use crate::glossary::Glossary;
use crate::level_map::{ChaptersByTitle, LevelMap};
use crate::levels::LevelCatalog;
use crate::links::{self, LinkCheck, LinkSite, REFERENCE_SCHEME};
use crate::reports::ReportCache;
use crate::symbols::SymbolIndex;
use paros_sim::report::Report;

/// What every chapter is rendered against.
pub struct RenderContext<'book> {
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

/// An entry of the "on this page" list.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TocEntry {
    /// 2 or 3.
    pub level: u8,
    /// The heading's id.
    pub id: String,
    /// The heading's text.
    pub title: String,
}

/// A run of text under one heading, for search: its words, and its sentences for the teaser.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    fn new(anchor: String, title: String) -> Section {
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
    fn finish(mut self) -> Section {
        let mut words: Vec<String> = crate::search::words(&self.title)
            .chain(crate::search::words(&self.text))
            .collect();
        words.sort_unstable();
        words.dedup();
        self.words = words;
        self
    }
}

/// A heading being read: its level, explicit id, classes, inner events and plain text.
type OpenHeading<'text> = (
    HeadingLevel,
    Option<String>,
    Vec<String>,
    Vec<Event<'text>>,
    String,
);

/// A rendered chapter.
#[derive(Clone, Debug, Default)]
pub struct RenderedChapter {
    /// The page's body.
    pub html: String,
    /// Headings of level 2 and 3.
    pub toc: Vec<TocEntry>,
    /// Text for search, by heading.
    pub sections: Vec<Section>,
    /// Every heading id on the page.
    pub anchors: BTreeSet<String>,
    /// Links to anchors, checked later.
    pub link_checks: Vec<LinkCheck>,
    /// Whether the page embeds a level or a replay (and so loads the game's script).
    pub has_levels: bool,
}

/// The relative path from a page to the site's root: `""`, `"../"`, ...
pub fn root_prefix(source: &str) -> String {
    "../".repeat(source.matches('/').count())
}

/// The page a chapter becomes: `a/b.md` -> `a/b.html`.
pub fn page_path(source: &str) -> String {
    format!("{}.html", source.strip_suffix(".md").unwrap_or(source))
}

/// Turns heading text into an id: lower-case letters, digits, `-` and `_`.
pub fn slug(text: &str) -> String {
    let mut slug = String::new();
    for c in text.trim().chars() {
        if c.is_alphanumeric() || c == '_' || c == '-' {
            slug.extend(c.to_lowercase());
        } else if c.is_whitespace() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug = slug.trim_matches('-').to_string();
    if slug.is_empty() {
        "section".into()
    } else {
        slug
    }
}

/// Renders one chapter. `file` names it in errors (`chapters/x.md`), `source` is its path
/// under `chapters/`.
pub fn render(
    text: &str,
    source: &str,
    file: &str,
    context: &RenderContext<'_>,
) -> Result<RenderedChapter, Vec<Diagnostic>> {
    let lines = LineIndex::new(text);
    let root = root_prefix(source);
    let mut errors: Vec<Diagnostic> = Vec::new();
    let error_at = |offset: usize, message: String| {
        let (line, column) = lines.locate(text, offset);
        Diagnostic::new(file, line, column, message)
    };

    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_HEADING_ATTRIBUTES;
    let mut callback = |link: BrokenLink<'_>| -> Option<(CowStr<'_>, CowStr<'_>)> {
        Some((
            format!("{REFERENCE_SCHEME}{}", link.reference).into(),
            "".into(),
        ))
    };
    let parser = Parser::new_with_broken_link_callback(text, options, Some(&mut callback))
        .into_offset_iter();

    let mut chapter = RenderedChapter::default();
    let mut out: Vec<Event<'_>> = Vec::new();
    let mut heading: Option<OpenHeading<'_>> = None;
    let mut code: Option<(String, String)> = None;
    let mut skipping_embed = false;
    let mut section = Section::new(String::new(), String::new());
    let mut used_ids: BTreeSet<String> = BTreeSet::new();
    let mut cited: BTreeSet<String> = BTreeSet::new();
    let mut hand_numbers: Vec<(usize, u64)> = Vec::new();

    for (event, range) in parser {
        if skipping_embed {
            if matches!(event, Event::End(TagEnd::Paragraph)) {
                skipping_embed = false;
            }
            continue;
        }
        if let Some((_, buffer)) = &mut code {
            match event {
                Event::Text(content) => {
                    buffer.push_str(&content);
                    let found = embeds::mdbook_directives(&text[range.clone()]);
                    errors.extend(
                        found
                            .into_iter()
                            .map(|(at, why)| error_at(range.start + at, why)),
                    );
                }
                Event::End(TagEnd::CodeBlock) => {
                    let (language, buffer) = code.take().expect("inside a code block");
                    let buffer = embeds::unescape_code(&buffer);
                    let class = if language.is_empty() {
                        String::new()
                    } else {
                        format!(" class=\"language-{}\"", embeds::escape(&language))
                    };
                    let body = crate::highlight::highlight(&buffer, &language);
                    out.push(Event::Html(
                        format!(
                            "<pre class=\"code\" tabindex=\"0\"><code{class}>{body}</code></pre>\n"
                        )
                        .into(),
                    ));
                }
                _ => {}
            }
            continue;
        }
        if let Event::Text(content) = &event {
            note_text(
                content,
                text_source(text, &range),
                &mut cited,
                &mut hand_numbers,
            );
        }
        let event = match event {
            Event::Start(Tag::Paragraph) => match embeds::parse(&text[range.clone()]) {
                Some(parsed) => {
                    skipping_embed = true;
                    if let Ok(embed) = &parsed {
                        cited.extend(embed_scenario(embed, context));
                    }
                    match parsed.and_then(|embed| {
                        let (html, loads_game) = render_embed(&embed, &root, context)?;
                        chapter.has_levels |= loads_game;
                        Ok(html)
                    }) {
                        Ok(html) => out.push(Event::Html(html.into())),
                        Err(message) => errors.push(error_at(range.start, message)),
                    }
                    continue;
                }
                None => Event::Start(Tag::Paragraph),
            },
            Event::Text(content) if content.contains("{{") => {
                let (start, source) = text_source(text, &range);
                match expand_figures(&content, source, context) {
                    Ok(expanded) => Event::Text(expanded.into()),
                    Err(located) => {
                        errors.extend(
                            located
                                .into_iter()
                                .map(|(at, message)| error_at(start + at, message)),
                        );
                        Event::Text(content)
                    }
                }
            }
            Event::Start(Tag::CodeBlock(kind)) => {
                let language = match kind {
                    CodeBlockKind::Fenced(info) => info
                        .split([',', ' '])
                        .next()
                        .unwrap_or("")
                        .trim()
                        .to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                code = Some((language, String::new()));
                continue;
            }
            Event::Start(Tag::Heading {
                level, id, classes, ..
            }) => {
                heading = Some((
                    level,
                    id.map(|id| id.to_string()),
                    classes.iter().map(|class| class.to_string()).collect(),
                    Vec::new(),
                    String::new(),
                ));
                continue;
            }
            Event::End(TagEnd::Heading(_)) => {
                let Some((level, explicit_id, classes, inner, title)) = heading.take() else {
                    continue;
                };
                let base = explicit_id.clone().unwrap_or_else(|| slug(&title));
                let mut id = base.clone();
                let mut suffix = 1;
                while used_ids.contains(&id) {
                    if explicit_id.is_some() {
                        errors.push(error_at(
                            range.start,
                            format!("heading id `{base}` is used twice on this page"),
                        ));
                        break;
                    }
                    id = format!("{base}-{suffix}");
                    suffix += 1;
                }
                used_ids.insert(id.clone());
                let mut inner_html = String::new();
                pulldown_cmark::html::push_html(&mut inner_html, inner.into_iter());
                let level_number = level as u8;
                let class_attribute = if classes.is_empty() {
                    String::new()
                } else {
                    format!(" class=\"{}\"", embeds::escape(&classes.join(" ")))
                };
                out.push(Event::Html(
                    format!(
                        "<h{level_number} id=\"{id}\"{class_attribute}><a class=\"anchor\" href=\"#{id}\" aria-hidden=\"true\" tabindex=\"-1\"></a>{inner_html}</h{level_number}>\n",
                        id = embeds::escape(&id)
                    )
                    .into(),
                ));
                if matches!(level_number, 2 | 3) {
                    chapter.toc.push(TocEntry {
                        level: level_number,
                        id: id.clone(),
                        title: title.clone(),
                    });
                }
                let finished = std::mem::replace(&mut section, Section::new(id.clone(), title));
                chapter.sections.push(finished.finish());
                chapter.anchors.insert(id);
                continue;
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                let site = LinkSite {
                    source,
                    root: &root,
                    text,
                    lines: &lines,
                    offset: range.start,
                };
                let destination = links::resolve_link(&dest_url, &site, context, &mut chapter)
                    .unwrap_or_else(|message| {
                        errors.push(error_at(range.start, message));
                        dest_url.to_string()
                    });
                Event::Start(Tag::Link {
                    link_type,
                    dest_url: destination.into(),
                    title,
                    id,
                })
            }
            Event::Start(Tag::Image {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                if let Err(message) = links::check_asset(&dest_url, source, context) {
                    errors.push(error_at(range.start, message));
                }
                Event::Start(Tag::Image {
                    link_type,
                    dest_url,
                    title,
                    id,
                })
            }
            other => other,
        };
        match (&event, &mut heading) {
            (Event::Text(content) | Event::Code(content), Some((.., title))) => {
                title.push_str(content)
            }
            (Event::Text(content) | Event::Code(content), None) => section.text.push_str(content),
            (Event::SoftBreak | Event::HardBreak, None) => section.text.push(' '),
            (Event::End(end), None) if ends_a_block_of_text(end) => section.text.push('\n'),
            _ => {}
        }
        match &mut heading {
            Some((_, _, _, inner, _)) => inner.push(event),
            None => out.push(event),
        }
    }
    chapter.sections.push(section.finish());
    let hand_written = hand_written_figures(&hand_numbers, &cited, context);
    errors.extend(
        hand_written
            .into_iter()
            .map(|(at, message)| error_at(at, message)),
    );
    if !errors.is_empty() {
        return Err(errors);
    }
    pulldown_cmark::html::push_html(&mut chapter.html, out.into_iter());
    Ok(chapter)
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
fn ends_a_block_of_text(end: &TagEnd) -> bool {
    matches!(
        end,
        TagEnd::Paragraph
            | TagEnd::Item
            | TagEnd::TableCell
            | TagEnd::BlockQuote(_)
            | TagEnd::FootnoteDefinition
    )
}

/// Notes what a run of prose text cites and which numbers it writes in digits, with their
/// offsets in the chapter (the run's start where escapes make the text differ from its source).
fn note_text(
    content: &str,
    (start, source): (usize, &str),
    cited: &mut BTreeSet<String>,
    numbers: &mut Vec<(usize, u64)>,
) {
    let exact = content == source;
    let offset = |at: usize| if exact { start + at } else { start };
    numbers.extend(
        embeds::numbers_in(content)
            .into_iter()
            .map(|(at, number)| (offset(at), number)),
    );
    for (_, figure) in embeds::find_figures(content) {
        cited.extend(figure.ok().map(|figure| figure.scenario));
    }
}

/// The source of a run of text and where it starts: its range, with the backslash before it
/// when its first character was escaped (the parser leaves that backslash out).
fn text_source<'text>(text: &'text str, range: &std::ops::Range<usize>) -> (usize, &'text str) {
    let start = if text[..range.start].ends_with('\\') {
        range.start - 1
    } else {
        range.start
    };
    (start, &text[start..range.end])
}

/// The scenario whose report an embed shows.
fn embed_scenario(embed: &Embed, context: &RenderContext<'_>) -> Option<String> {
    match embed {
        Embed::Proven(scenario) => Some(scenario.clone()),
        Embed::Level(id) => context.levels.get(id).map(|level| level.scenario.clone()),
        Embed::Code(_) | Embed::LevelMap => None,
    }
}

/// Numbers written by hand that equal a figure of a report the chapter cites: each must be a
/// `figure`, or it drifts from the report. Errors carry their offset in the chapter.
fn hand_written_figures(
    numbers: &[(usize, u64)],
    cited: &BTreeSet<String>,
    context: &RenderContext<'_>,
) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for scenario in cited {
        let Ok(report) = report_for(scenario, context) else {
            continue;
        };
        for (field, value) in embeds::stated_figures(&report) {
            for (at, _) in numbers.iter().filter(|(_, number)| *number == value) {
                found.push((
                    *at,
                    format!(
                        "{} is the `{field}` of report `{scenario}`, written by hand; write \
                         `{{{{ figure \"{scenario}\" \"{field}\" }}}}` so the sentence follows the report",
                        embeds::count(value)
                    ),
                ));
            }
        }
    }
    found.sort();
    found
}

/// A scenario's report from this build's cache, the one every embed and figure reads, once it
/// has passed [`embeds::validate`].
fn report_for(scenario: &str, context: &RenderContext<'_>) -> Result<Report, String> {
    let report = context
        .reports
        .get(scenario)
        .map_err(|error| format!("the simulator failed on scenario `{scenario}`: {error}"))?
        .ok_or_else(|| {
            let nearest = context.reports.nearest(scenario);
            if nearest.is_empty() {
                format!("unknown report: no scenario named `{scenario}`")
            } else {
                format!(
                    "unknown report: no scenario named `{scenario}`; nearest: {}",
                    nearest.join(", ")
                )
            }
        })?;
    embeds::validate(&report)?;
    Ok(report)
}

/// Replaces the inline figures in one run of text with their values. `source_text` is the
/// run's markdown source: a figure is read only where the two are equal, so offsets are exact
/// and an escaped `\{{` stays text. Errors carry their byte offset in the source.
fn expand_figures(
    content: &str,
    source_text: &str,
    context: &RenderContext<'_>,
) -> Result<String, Vec<(usize, String)>> {
    if content != source_text {
        return match embeds::find_figures(source_text).into_iter().next() {
            Some((range, Err(message))) => Err(vec![(range.start, message)]),
            Some((range, Ok(_))) => Err(vec![(
                range.start,
                "an inline figure cannot share a run of text with a backslash escape or an entity"
                    .into(),
            )]),
            None => Ok(content.to_string()),
        };
    }
    let mut expanded = String::new();
    let mut errors = Vec::new();
    let mut copied = 0;
    for (range, parsed) in embeds::find_figures(content) {
        expanded.push_str(&content[copied..range.start]);
        copied = range.end;
        let value = parsed.and_then(|figure| {
            embeds::render_figure(&figure, &report_for(&figure.scenario, context)?)
        });
        match value {
            Ok(value) => expanded.push_str(&value),
            Err(message) => errors.push((range.start, message)),
        }
    }
    expanded.push_str(&content[copied..]);
    if errors.is_empty() {
        Ok(expanded)
    } else {
        Err(errors)
    }
}

/// An embed's HTML, and whether it needs the game's script (a level, or a replay).
fn render_embed(
    embed: &Embed,
    root: &str,
    context: &RenderContext<'_>,
) -> Result<(String, bool), String> {
    match embed {
        Embed::Level(id) => {
            let level = context.levels.get(id).ok_or_else(|| {
                let nearest = context.levels.nearest(id);
                if context.levels.is_empty() {
                    format!("unknown level `{id}`: the level catalog is empty")
                } else {
                    format!("unknown level `{id}`; nearest: {}", nearest.join(", "))
                }
            })?;
            let report = report_for(&level.scenario, context)
                .map_err(|message| format!("level `{id}`: {message}"))?;
            Ok((embeds::render_level(level, &report, root), true))
        }
        Embed::Proven(scenario) => {
            let report = report_for(scenario, context)?;
            let replay = embeds::replay_counterexample(&report)?;
            Ok((embeds::render_proven(&report, replay), replay.is_some()))
        }
        Embed::Code(name) => Ok((embeds::render_code(name, context.symbols, root)?, false)),
        Embed::LevelMap => {
            let map = context.level_map.ok_or_else(|| {
                format!(
                    "`{{{{ level-map }}}}` needs chapters/{}, the level map as designed",
                    crate::level_map::LEVEL_MAP
                )
            })?;
            let html =
                crate::level_map::render(map, context.levels, context.chapters_by_title, root)?;
            Ok((html, false))
        }
    }
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
    fn slugs_are_stable_ids() {
        // Proves heading ids are predictable from their text.
        assert_eq!(slug("Why one value is safe"), "why-one-value-is-safe");
        assert_eq!(slug("  P2c: the rule!  "), "p2c-the-rule");
        assert_eq!(slug("???"), "section");
    }

    #[test]
    fn paths_between_pages_are_relative() {
        // Proves pages in folders reach the root and each other relatively.
        assert_eq!(root_prefix("intro.md"), "");
        assert_eq!(root_prefix("act1/duel.md"), "../");
        assert_eq!(page_path("act1/duel.md"), "act1/duel.html");
    }
}

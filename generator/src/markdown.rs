//! One chapter from markdown to HTML: headings and their anchors, highlighted code, links
//! between chapters, every directive's output in its place, and the text search needs.
//!
//! Rendering knows no directive by name: it finds the forms a directive may take (a paragraph
//! `{{ ... }}`, a `{{ ... }}` inside a sentence, a link) and asks [`crate::directives`] which
//! directive each is, places what it renders, and locates its error at `FILE:LINE:COL`.
//!
//! Rendering one chapter reads nothing but its own source and the shared [`Context`], so
//! chapters render in parallel and `serve` re-renders only the chapter that changed. Links into
//! other chapters' anchors are recorded as [`LinkCheck`]s and checked once every chapter's
//! anchors are known.

use std::collections::BTreeSet;

use pulldown_cmark::{
    BrokenLink, CodeBlockKind, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd,
};

use crate::diagnostic::{Diagnostic, LineIndex, Problem};
use crate::directive::{Call, Context, Prose, Rendered, TextRun, UNRESOLVED_REFERENCE};
use crate::directives::{self, Matched};
use crate::html::escape;
use crate::links::{self, LinkCheck, LinkSite};
use crate::paths::root_prefix;
use crate::sections::{Section, ends_a_block_of_text};

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

/// One chapter being rendered: where it is, what it is rendered against, and what it found.
struct Chapter<'text, 'book> {
    text: &'text str,
    source: &'text str,
    file: &'text str,
    root: String,
    lines: LineIndex,
    context: &'text Context<'book>,
    errors: Vec<Diagnostic>,
    prose: Prose,
}

impl Chapter<'_, '_> {
    fn error_at(&mut self, offset: usize, problem: impl Into<Problem>) {
        let (line, column) = self.lines.locate(self.text, offset);
        self.errors
            .push(Diagnostic::of(self.file, line, column, problem.into()));
    }

    /// Renders one matched directive, noting what it cites.
    fn call(&mut self, matched: &Matched) -> Result<Rendered, Problem> {
        let call = Call {
            arguments: &matched.arguments,
            source: self.source,
            root: &self.root,
        };
        let rendered = matched.directive.render(&call, self.context)?;
        self.prose.cited.extend(rendered.cites.clone());
        Ok(rendered)
    }

    /// A link's destination: a link directive's, or a link between the book's pages.
    fn link(&mut self, destination: &str, offset: usize, checks: &mut Vec<LinkCheck>) -> String {
        let resolved = match directives::link(destination) {
            Some(directive) => {
                let arguments = [destination.to_string()];
                let call = Call {
                    arguments: &arguments,
                    source: self.source,
                    root: &self.root,
                };
                directive
                    .render(&call, self.context)
                    .map(|rendered| rendered.output)
            }
            None => {
                let site = LinkSite {
                    source: self.source,
                    root: &self.root,
                    text: self.text,
                    lines: &self.lines,
                    offset,
                };
                links::resolve_link(destination, &site, self.context, checks).map_err(Problem::from)
            }
        };
        resolved.unwrap_or_else(|message| {
            self.error_at(offset, message);
            destination.to_string()
        })
    }

    /// Replaces the inline directives in one run of text with what they render. A directive is
    /// read only where the run is its source as written, so offsets are exact and an escaped
    /// `\{{` stays text.
    fn expand_inline(&mut self, content: &str, (start, source): (usize, &str)) -> String {
        if content != source {
            match directives::inline(source).into_iter().next() {
                Some((range, Err(message))) => self.error_at(start + range.start, message),
                Some((range, Ok(_))) => self.error_at(
                    start + range.start,
                    "an inline figure cannot share a run of text with a backslash escape or an entity",
                ),
                None => {}
            }
            return content.to_string();
        }
        let mut expanded = String::new();
        let mut failed = false;
        let mut copied = 0;
        for (range, matched) in directives::inline(content) {
            expanded.push_str(&content[copied..range.start]);
            copied = range.end;
            match matched.and_then(|matched| self.call(&matched)) {
                Ok(rendered) => expanded.push_str(&rendered.output),
                Err(message) => {
                    self.error_at(start + range.start, message);
                    failed = true;
                }
            }
        }
        expanded.push_str(&content[copied..]);
        if failed {
            content.to_string()
        } else {
            expanded
        }
    }

    /// Notes a run of prose text for the checks directives make once the chapter is read.
    fn note_text(&mut self, content: &str, (start, source): (usize, &str)) {
        self.prose.runs.push(TextRun {
            start,
            text: content.to_string(),
            exact: content == source,
        });
    }
}

/// What a walk over one chapter's events builds: the page's events, the open heading or code
/// block, the search section being filled, and the rendered chapter's other parts.
#[derive(Default)]
struct Page<'text> {
    out: Vec<Event<'text>>,
    heading: Option<OpenHeading<'text>>,
    code: Option<(String, String)>,
    skipping_embed: bool,
    section: Section,
    used_ids: BTreeSet<String>,
    rendered: RenderedChapter,
}

impl<'text> Page<'text> {
    /// Takes an event inside a code block: its text is kept (and checked for mdBook's
    /// directives), its end becomes the highlighted block.
    fn code_event(&mut self, chapter: &mut Chapter<'_, '_>, event: Event<'text>, range: Range) {
        let Some((_, buffer)) = &mut self.code else {
            return;
        };
        match event {
            Event::Text(content) => {
                buffer.push_str(&content);
                for (at, why) in directives::mdbook_directives(&chapter.text[range.clone()]) {
                    chapter.error_at(range.start + at, why);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                let (language, buffer) = self.code.take().expect("inside a code block");
                self.out
                    .push(Event::Html(code_block(&language, &buffer).into()));
            }
            _ => {}
        }
    }

    /// A paragraph that is a directive of its own is rendered in its place, and its events are
    /// skipped; `false` for any other paragraph.
    fn paragraph_directive(&mut self, chapter: &mut Chapter<'_, '_>, range: Range) -> bool {
        let Some(matched) = directives::paragraph(&chapter.text[range.clone()]) else {
            return false;
        };
        self.skipping_embed = true;
        match matched.and_then(|matched| chapter.call(&matched)) {
            Ok(embed) => {
                self.rendered.has_levels |= embed.loads_game;
                self.out.push(Event::Html(embed.output.into()));
            }
            Err(problem) => chapter.error_at(range.start, problem),
        }
        true
    }

    /// Closes the open heading: gives it an id unique on the page, writes it with its anchor,
    /// lists it on the page's contents and starts a search section under it.
    fn close_heading(&mut self, chapter: &mut Chapter<'_, '_>, offset: usize) {
        let Some((level, explicit_id, classes, inner, title)) = self.heading.take() else {
            return;
        };
        let base = explicit_id.clone().unwrap_or_else(|| slug(&title));
        let mut id = base.clone();
        let mut suffix = 1;
        while self.used_ids.contains(&id) {
            if explicit_id.is_some() {
                chapter.error_at(
                    offset,
                    format!("heading id `{base}` is used twice on this page"),
                );
                break;
            }
            id = format!("{base}-{suffix}");
            suffix += 1;
        }
        self.used_ids.insert(id.clone());
        let level_number = level as u8;
        self.out.push(Event::Html(
            heading_html(level_number, &id, &classes, inner).into(),
        ));
        if matches!(level_number, 2 | 3) {
            self.rendered.toc.push(TocEntry {
                level: level_number,
                id: id.clone(),
                title: title.clone(),
            });
        }
        let finished = std::mem::replace(&mut self.section, Section::new(id.clone(), title));
        self.rendered.sections.push(finished.finish());
        self.rendered.anchors.insert(id);
    }

    /// Keeps an event: its text for search (or the open heading's title), the event for the
    /// page (or the open heading).
    fn keep(&mut self, event: Event<'text>) {
        match (&event, &mut self.heading) {
            (Event::Text(content) | Event::Code(content), Some((.., title))) => {
                title.push_str(content)
            }
            (Event::Text(content) | Event::Code(content), None) => {
                self.section.text.push_str(content)
            }
            (Event::SoftBreak | Event::HardBreak, None) => self.section.text.push(' '),
            (Event::End(end), None) if ends_a_block_of_text(end) => self.section.text.push('\n'),
            _ => {}
        }
        match &mut self.heading {
            Some((_, _, _, inner, _)) => inner.push(event),
            None => self.out.push(event),
        }
    }
}

/// A byte range of the chapter's text.
type Range = std::ops::Range<usize>;

/// Renders one chapter. `file` names it in errors (`chapters/x.md`), `source` is its path
/// under `chapters/`.
pub fn render(
    text: &str,
    source: &str,
    file: &str,
    context: &Context<'_>,
) -> Result<RenderedChapter, Vec<Diagnostic>> {
    let mut chapter = Chapter {
        text,
        source,
        file,
        root: root_prefix(source),
        lines: LineIndex::new(text),
        context,
        errors: Vec::new(),
        prose: Prose::default(),
    };
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_HEADING_ATTRIBUTES;
    let mut callback = |link: BrokenLink<'_>| -> Option<(CowStr<'_>, CowStr<'_>)> {
        Some((
            format!("{UNRESOLVED_REFERENCE}{}", link.reference).into(),
            "".into(),
        ))
    };
    let parser = Parser::new_with_broken_link_callback(text, options, Some(&mut callback))
        .into_offset_iter();
    let mut page = Page::default();
    for (event, range) in parser {
        if page.skipping_embed {
            page.skipping_embed = !matches!(event, Event::End(TagEnd::Paragraph));
            continue;
        }
        if page.code.is_some() {
            page.code_event(&mut chapter, event, range);
            continue;
        }
        if let Event::Text(content) = &event {
            chapter.note_text(content, text_source(text, &range));
        }
        let event = match event {
            Event::Start(Tag::Paragraph)
                if page.paragraph_directive(&mut chapter, range.clone()) =>
            {
                continue;
            }
            Event::Text(content) if content.contains("{{") => {
                let expanded = chapter.expand_inline(&content, text_source(text, &range));
                Event::Text(expanded.into())
            }
            Event::Start(Tag::CodeBlock(kind)) => {
                page.code = Some((code_language(&kind), String::new()));
                continue;
            }
            Event::Start(Tag::Heading {
                level, id, classes, ..
            }) => {
                page.heading = Some((
                    level,
                    id.map(|id| id.to_string()),
                    classes.iter().map(|class| class.to_string()).collect(),
                    Vec::new(),
                    String::new(),
                ));
                continue;
            }
            Event::End(TagEnd::Heading(_)) => {
                page.close_heading(&mut chapter, range.start);
                continue;
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                let destination =
                    chapter.link(&dest_url, range.start, &mut page.rendered.link_checks);
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
                    chapter.error_at(range.start, message);
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
        page.keep(event);
    }
    let mut rendered = page.rendered;
    rendered.sections.push(page.section.finish());
    for directive in directives::TABLE {
        for (at, problem) in directive.check_prose(&chapter.prose, context) {
            chapter.error_at(at, problem);
        }
    }
    if !chapter.errors.is_empty() {
        return Err(chapter.errors);
    }
    pulldown_cmark::html::push_html(&mut rendered.html, page.out.into_iter());
    Ok(rendered)
}

/// A code block's language: the first word of a fence's info string.
fn code_language(kind: &CodeBlockKind<'_>) -> String {
    match kind {
        CodeBlockKind::Fenced(info) => info
            .split([',', ' '])
            .next()
            .unwrap_or("")
            .trim()
            .to_string(),
        CodeBlockKind::Indented => String::new(),
    }
}

/// A fenced or indented code block, highlighted; mdBook's escape `\{{#` loses its backslash.
fn code_block(language: &str, buffer: &str) -> String {
    let buffer = directives::unescape_code(buffer);
    let class = if language.is_empty() {
        String::new()
    } else {
        format!(" class=\"language-{}\"", escape(language))
    };
    let body = crate::highlight::highlight(&buffer, language);
    format!("<pre class=\"code\" tabindex=\"0\"><code{class}>{body}</code></pre>\n")
}

/// A heading with its id and its anchor link.
fn heading_html(level: u8, id: &str, classes: &[String], inner: Vec<Event<'_>>) -> String {
    let mut inner_html = String::new();
    pulldown_cmark::html::push_html(&mut inner_html, inner.into_iter());
    let class_attribute = if classes.is_empty() {
        String::new()
    } else {
        format!(" class=\"{}\"", escape(&classes.join(" ")))
    };
    format!(
        "<h{level} id=\"{id}\"{class_attribute}><a class=\"anchor\" href=\"#{id}\" aria-hidden=\"true\" tabindex=\"-1\"></a>{inner_html}</h{level}>\n",
        id = escape(id)
    )
}

/// The source of a run of text and where it starts: its range, with the backslash before it
/// when its first character was escaped (the parser leaves that backslash out).
fn text_source<'text>(text: &'text str, range: &Range) -> (usize, &'text str) {
    let start = if text[..range.start].ends_with('\\') {
        range.start - 1
    } else {
        range.start
    };
    (start, &text[start..range.end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_stable_ids() {
        // Proves heading ids are predictable from their text.
        assert_eq!(slug("Why one value is safe"), "why-one-value-is-safe");
        assert_eq!(slug("  P2c: the rule!  "), "p2c-the-rule");
        assert_eq!(slug("???"), "section");
    }
}

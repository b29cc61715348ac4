//! `print.html`: the whole book on one page, for printing or saving as PDF, as mdBook readers
//! expect. Every chapter of SUMMARY.md in reading order, with the part headings; a chapter's ids
//! are prefixed by its page so anchors stay apart, and its links are rewritten to point into
//! this page (another chapter's section) or, from the root, into the site. Each level embed
//! shows a still of the level's first stage as plain HTML, no script needed, beside the link
//! that plays it.

use std::collections::BTreeMap;

use paros_play::{Mounted, NodeView, View};

use crate::book::Chapter;
use crate::diagnostic::Diagnostic;
use crate::html::escape;
use crate::markdown::TocEntry;
use crate::pages::Frame;
use crate::paths::{join_relative, page_path};
use crate::summary::Entry;

/// The print page's path.
pub const PRINT_PAGE: &str = "print.html";

/// Where a level embed mounts the game; the print page puts the level's still there instead.
const LEVEL_MOUNT: &str = "<div class=\"paros-level\" data-level=\"";

/// The print page.
pub fn render_print(frame: &Frame<'_>) -> Result<String, Diagnostic> {
    let book = frame.book;
    let anchors: BTreeMap<String, String> = book
        .chapters()
        .iter()
        .map(|chapter| (page_path(&chapter.source), chapter_anchor(&chapter.source)))
        .collect();
    let mut content = String::new();
    for entry in &book.summary().entries {
        match entry {
            Entry::Part { title } => {
                content.push_str(&format!(
                    "<h1 class=\"print-part\">{}</h1>\n",
                    escape(title)
                ));
            }
            Entry::Chapter(reference) => {
                let chapter = reference
                    .source
                    .as_deref()
                    .and_then(|source| book.chapter(source));
                if let Some(chapter) = chapter {
                    content.push_str(&print_chapter(chapter, &anchors));
                }
            }
            Entry::Separator => {}
        }
    }
    let mut context = frame.base_context("", PRINT_PAGE);
    context.insert("title", "The whole book");
    context.insert("content", &content);
    context.insert("toc", &Vec::<TocEntry>::new());
    frame.render("print.html", &context)
}

/// What a chapter's ids are prefixed with on the print page: its page, `/` as `-`. Its
/// section's id is `chapter-` and this, apart from the ids of the page's frame (`search`).
fn chapter_anchor(source: &str) -> String {
    source
        .strip_suffix(".md")
        .unwrap_or(source)
        .replace('/', "-")
}

/// One chapter's section: its levels as stills, its ids and links made to work on this page.
fn print_chapter(chapter: &Chapter, anchors: &BTreeMap<String, String>) -> String {
    let anchor = chapter_anchor(&chapter.source);
    let body = with_level_stills(&chapter.rendered.html);
    format!(
        "<section class=\"print-chapter\" id=\"chapter-{anchor}\" data-page=\"{page}\">\n{}</section>\n",
        rewrite_references(&body, &chapter.source, &anchor, anchors),
        anchor = escape(&anchor),
        page = escape(&page_path(&chapter.source)),
    )
}

/// The attributes whose values name places, each with the space before it: rewritten for the
/// print page.
const PLACES: [&str; 3] = [" id", " href", " src"];

/// A chapter's HTML with every id prefixed by its anchor, in-page links following them, links to
/// other chapters pointing to their sections here, and relative links made relative to the root.
/// One pass over the attributes (`name="`), so a long chapter costs its length.
fn rewrite_references(
    html: &str,
    source: &str,
    anchor: &str,
    anchors: &BTreeMap<String, String>,
) -> String {
    let mut out = String::with_capacity(html.len() + html.len() / 16);
    let mut copied = 0;
    let mut from = 0;
    while let Some(at) = html[from..].find("=\"").map(|at| from + at) {
        let value_start = at + 2;
        let Some(length) = html[value_start..].find('"') else {
            break;
        };
        let value_end = value_start + length;
        from = value_end + 1;
        let Some(place) = PLACES.iter().find(|place| html[..at].ends_with(*place)) else {
            continue;
        };
        let value = &html[value_start..value_end];
        out.push_str(&html[copied..value_start]);
        out.push_str(&rewritten(place, value, source, anchor, anchors));
        copied = value_end;
    }
    out.push_str(&html[copied..]);
    out
}

/// One attribute's value on the print page.
fn rewritten(
    place: &str,
    value: &str,
    source: &str,
    anchor: &str,
    anchors: &BTreeMap<String, String>,
) -> String {
    if place == PLACES[0] {
        return format!("{anchor}--{value}");
    }
    if let Some(fragment) = value.strip_prefix('#') {
        return format!("#{anchor}--{fragment}");
    }
    let outside = value.contains("://")
        || value.starts_with('/')
        || value.starts_with("data:")
        || value.starts_with("mailto:");
    if outside {
        return value.to_string();
    }
    let Some(from_root) = join_relative(source, value) else {
        return value.to_string();
    };
    let (path, fragment) = match from_root.split_once('#') {
        Some((path, fragment)) => (path.to_string(), Some(fragment.to_string())),
        None => (from_root.clone(), None),
    };
    match (place == PLACES[1]).then(|| anchors.get(&path)).flatten() {
        Some(target) => match fragment {
            Some(fragment) => format!("#{target}--{fragment}"),
            None => format!("#chapter-{target}"),
        },
        None => from_root,
    }
}

/// The chapter's HTML with each level's mount point replaced by a still of its first stage.
fn with_level_stills(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find(LEVEL_MOUNT) {
        let id_start = at + LEVEL_MOUNT.len();
        let Some(id_length) = rest[id_start..].find('"') else {
            break;
        };
        let id = &rest[id_start..id_start + id_length];
        let close = "\"></div>";
        if !rest[id_start + id_length..].starts_with(close) {
            break;
        }
        out.push_str(&rest[..at]);
        out.push_str(&level_still(id));
        rest = &rest[id_start + id_length + close.len()..];
    }
    out.push_str(rest);
    out
}

/// A still of a level's first stage, as the game sets it up: the stage's title, each node and
/// the messages in flight. A level the game does not know (a prepared sources folder) gets a
/// sentence instead.
fn level_still(id: &str) -> String {
    let Ok(mounted) = Mounted::new(id, &[]) else {
        return format!(
            "<p class=\"level-still\">The stage of level <code>{}</code> is drawn when it is played.</p>\n",
            escape(id)
        );
    };
    still_of(&mounted.view())
}

/// The HTML of a stage as it begins.
fn still_of(view: &View) -> String {
    let mut html = format!(
        "<div class=\"level-still\" role=\"group\" aria-label=\"The first stage of “{title}”, as it begins\">\n\
         <p class=\"still-stage\">Stage 1 of {count}: {stage}</p>\n<ul class=\"still-nodes\">\n",
        title = escape(view.level.title),
        count = view.stage.count,
        stage = escape(view.stage.title),
    );
    for node in &view.nodes {
        html.push_str(&format!(
            "<li><strong>{}</strong> {}</li>\n",
            escape(&node.name),
            escape(&node_words(node))
        ));
    }
    html.push_str("</ul>\n");
    if view.messages.is_empty() {
        html.push_str("<p class=\"still-messages\">No message in flight.</p>\n");
    } else {
        html.push_str(
            "<p class=\"still-messages\">In flight:</p>\n<ol class=\"still-messages\">\n",
        );
        for message in &view.messages {
            html.push_str(&format!(
                "<li><code>{} → {} {}</code></li>\n",
                escape(&message.from),
                escape(&message.to),
                escape(&message.text)
            ));
        }
        html.push_str("</ol>\n");
    }
    html.push_str("</div>\n");
    html
}

/// A node's role and what it holds, in a few words.
fn node_words(node: &NodeView) -> String {
    let mut words = vec![node.role.to_string()];
    if node.up == Some(false) {
        words.push("down".into());
    }
    match &node.promised {
        Some(Some(ballot)) => words.push(format!("promised {ballot}")),
        Some(None) => words.push("no promise".into()),
        None => {}
    }
    match &node.accepted {
        Some(Some(vote)) => words.push(format!("voted {} at {}", vote.value, vote.ballot)),
        Some(None) => words.push("no vote".into()),
        None => {}
    }
    if let Some(value) = &node.value {
        words.push(format!("proposes {value}"));
    }
    if let Some(Some(leader)) = &node.leader {
        words.push(format!("follows {leader}"));
    }
    if let Some(chosen) = node.chosen_index {
        words.push(format!("chosen up to {chosen}"));
    }
    if node.silent {
        words.push("cut off".into());
    }
    words.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anchors() -> BTreeMap<String, String> {
        BTreeMap::from([
            ("intro.html".to_string(), "intro".to_string()),
            ("part/one.html".to_string(), "part-one".to_string()),
        ])
    }

    #[test]
    fn ids_and_links_are_made_to_work_on_one_page() {
        // Proves a chapter's ids are its own on the print page, a link to another chapter goes
        // to its section, and links from a folder reach the site from the root.
        let html = r##"<h2 id="rules"><a class="anchor" href="#rules"></a>Rules</h2>
<a href="../intro.html#links">x</a> <a href="../intro.html">y</a> <a href="../play/#act1/a">z</a>
<img src="../figures/p.svg"> <a href="https://example.org/a">w</a> <a href="../api/paros_core/index.html">v</a>"##;
        let printed = rewrite_references(html, "part/one.md", "part-one", &anchors());
        assert_eq!(
            printed,
            r##"<h2 id="part-one--rules"><a class="anchor" href="#part-one--rules"></a>Rules</h2>
<a href="#intro--links">x</a> <a href="#chapter-intro">y</a> <a href="play/#act1/a">z</a>
<img src="figures/p.svg"> <a href="https://example.org/a">w</a> <a href="api/paros_core/index.html">v</a>"##
        );
    }

    #[test]
    fn a_level_becomes_a_still_of_its_first_stage() {
        // Proves the still is plain HTML of the real level as it begins: its stage, its nodes
        // and its messages, with no mount point left for a script.
        let html = format!(
            "<figure>{LEVEL_MOUNT}act1/choose-a-value\"></div><figcaption>x</figcaption></figure>"
        );
        let still = with_level_stills(&html);
        assert!(!still.contains("paros-level"), "{still}");
        assert!(still.contains("<div class=\"level-still\""), "{still}");
        assert!(still.contains("Stage 1 of "), "{still}");
        assert!(still.contains("<strong>A1</strong> acceptor"), "{still}");
        assert!(
            still.ends_with("<figcaption>x</figcaption></figure>"),
            "{still}"
        );
        let unknown = with_level_stills(&format!("{LEVEL_MOUNT}act9/none\"></div>"));
        assert!(unknown.contains("is drawn when it is played"), "{unknown}");
    }
}

//! Links, resolved and checked, each problem as a diagnostic: symbol links and protocol names
//! against paros-core, links to other chapters and to files beside them, and anchors.
//!
//! A chapter resolves its own links while it renders (`resolve_link`); a link to an anchor
//! is recorded as a [`LinkCheck`] and checked once every chapter's anchors are known
//! (`Book::check_links`).

use std::collections::BTreeSet;

use crate::book::{Book, Chapter};
use crate::diagnostic::{Diagnostic, LineIndex};
use crate::markdown::{RenderContext, RenderedChapter, page_path};
use crate::symbols::{Symbol, looks_like_path};

/// Scheme that marks a reference link pulldown-cmark could not resolve, for us to resolve.
pub(crate) const REFERENCE_SCHEME: &str = "paros-reference:";

/// A link to an anchor in some chapter, checked once all anchors are known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkCheck {
    /// Where the link is.
    pub line: usize,
    /// Where the link is.
    pub column: usize,
    /// The chapter it points into.
    pub target: String,
    /// The anchor it needs.
    pub anchor: String,
}

/// Where a link is: the chapter it is in, and its place in that chapter's text.
pub(crate) struct LinkSite<'text> {
    /// The chapter's path under `chapters/`.
    pub source: &'text str,
    /// The relative path from the chapter's page to the site's root.
    pub root: &'text str,
    /// The chapter's text.
    pub text: &'text str,
    /// Its lines.
    pub lines: &'text LineIndex,
    /// The link's byte offset in `text`.
    pub offset: usize,
}

impl LinkSite<'_> {
    /// Records a link to `anchor` in `target` for checking once every anchor is known.
    fn check_later(&self, chapter: &mut RenderedChapter, target: &str, anchor: &str) {
        let (line, column) = self.lines.locate(self.text, self.offset);
        chapter.link_checks.push(LinkCheck {
            line,
            column,
            target: target.to_string(),
            anchor: anchor.to_string(),
        });
    }
}

/// Joins `relative` onto the folder of `source`, refusing to leave `chapters/`.
pub(crate) fn join_relative(source: &str, relative: &str) -> Option<String> {
    let mut parts: Vec<&str> = source.split('/').collect();
    parts.pop();
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

fn symbol_href(symbol: &Symbol, root: &str, context: &RenderContext<'_>) -> String {
    format!("{root}api/{}", context.symbols.url(symbol))
}

/// Resolves a link's destination to the URL the page uses, or says why it is broken.
pub(crate) fn resolve_link(
    destination: &str,
    site: &LinkSite<'_>,
    context: &RenderContext<'_>,
    chapter: &mut RenderedChapter,
) -> Result<String, String> {
    if let Some(reference) = destination.strip_prefix(REFERENCE_SCHEME) {
        return resolve_reference(reference, site.root, context);
    }
    if destination.contains("://")
        || destination.starts_with("mailto:")
        || destination.starts_with("//")
    {
        return Ok(destination.to_string());
    }
    let (path, anchor) = destination.split_once('#').unwrap_or((destination, ""));
    if path.is_empty() {
        site.check_later(chapter, site.source, anchor);
        return Ok(destination.to_string());
    }
    if path.ends_with(".md") {
        return resolve_chapter_link(destination, site, context, chapter);
    }
    if looks_like_path(path) && anchor.is_empty() {
        return resolve_symbol(path, site.root, context);
    }
    check_asset(destination, site.source, context)?;
    Ok(destination.to_string())
}

/// `[name]` alone: a protocol name of the glossary, else a symbol.
fn resolve_reference(
    reference: &str,
    root: &str,
    context: &RenderContext<'_>,
) -> Result<String, String> {
    let name = reference.trim().trim_matches('`');
    if let Some(term) = context.glossary.get(name) {
        return Ok(symbol_href(&term.symbol, root, context));
    }
    if looks_like_path(name) {
        return resolve_symbol(name, root, context);
    }
    let nearest = context.glossary.nearest(name);
    let hint = if nearest.is_empty() {
        String::new()
    } else {
        format!("; nearest names: {}", nearest.join(", "))
    };
    Err(format!(
        "`[{name}]` is neither a glossary name nor a symbol{hint}"
    ))
}

/// A link to another chapter's markdown file becomes a link to its page.
fn resolve_chapter_link(
    destination: &str,
    site: &LinkSite<'_>,
    context: &RenderContext<'_>,
    chapter: &mut RenderedChapter,
) -> Result<String, String> {
    let (path, anchor) = destination.split_once('#').unwrap_or((destination, ""));
    let target = join_relative(site.source, path)
        .ok_or_else(|| format!("link `{destination}` leaves chapters/"))?;
    if !context.pages.contains(&target) {
        let why = if context.chapters_dir.join(&target).is_file() {
            "is not listed in SUMMARY.md"
        } else {
            "does not exist"
        };
        return Err(format!("broken link: chapter `{target}` {why}"));
    }
    if anchor.is_empty() {
        return Ok(format!("{}{}", site.root, page_path(&target)));
    }
    site.check_later(chapter, &target, anchor);
    Ok(format!("{}{}#{anchor}", site.root, page_path(&target)))
}

fn resolve_symbol(name: &str, root: &str, context: &RenderContext<'_>) -> Result<String, String> {
    let symbol = context.symbols.find(name)?;
    Ok(symbol_href(symbol, root, context))
}

/// A relative link to a file beside the chapters must name a file that exists.
pub(crate) fn check_asset(
    destination: &str,
    source: &str,
    context: &RenderContext<'_>,
) -> Result<(), String> {
    if destination.contains("://")
        || destination.starts_with("data:")
        || destination.starts_with('/')
    {
        return Ok(());
    }
    let path = destination.split(['#', '?']).next().unwrap_or("");
    let is_file_like = path
        .rsplit('/')
        .next()
        .is_some_and(|name| name.contains('.'));
    if !is_file_like {
        return Ok(());
    }
    match join_relative(source, path) {
        // Links above chapters/ point at the site's own folders (play/, api/), built elsewhere.
        None => Ok(()),
        Some(target) if context.chapters_dir.join(&target).is_file() => {
            let file = context.chapters_dir.join(&target);
            match crate::confine::escapes(context.chapters_dir, "chapters", &file) {
                Some(why) => Err(format!("`{target}`: {why}")),
                None => Ok(()),
            }
        }
        Some(target)
            if target.ends_with(".html")
                && context.pages.contains(&target.replace(".html", ".md")) =>
        {
            Ok(())
        }
        Some(target) if target.starts_with("play/") || target.starts_with("api/") => Ok(()),
        Some(target) => Err(format!(
            "broken link: `{target}` is not a file in chapters/"
        )),
    }
}

impl Book {
    /// Checks every chapter's links to anchors, except links into the `unchecked` chapters.
    pub(crate) fn check_links(&self, unchecked: &BTreeSet<String>) -> Vec<Diagnostic> {
        let mut errors = Vec::new();
        for chapter in &self.chapters {
            errors.extend(
                self.check_chapter_links(chapter)
                    .into_iter()
                    .filter(|(target, _)| !unchecked.contains(target))
                    .map(|(_, error)| error),
            );
        }
        errors
    }

    /// The chapter's broken links to anchors, each with the chapter it points into.
    pub(crate) fn check_chapter_links(&self, chapter: &Chapter) -> Vec<(String, Diagnostic)> {
        let label = self.paths.label(&self.paths.chapters.join(&chapter.source));
        chapter
            .rendered
            .link_checks
            .iter()
            .filter(|check| !self.anchor_exists(check))
            .map(|check| {
                let message = format!(
                    "broken link: no heading `#{}` in `{}`",
                    check.anchor, check.target
                );
                (
                    check.target.clone(),
                    Diagnostic::new(&label, check.line, check.column, message),
                )
            })
            .collect()
    }

    fn anchor_exists(&self, check: &LinkCheck) -> bool {
        self.by_source.get(&check.target).is_some_and(|&index| {
            self.chapters[index]
                .rendered
                .anchors
                .contains(&check.anchor)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_links_stay_inside_chapters() {
        // Proves a link climbs out of a chapter's folder and no further than chapters/.
        assert_eq!(
            join_relative("act1/duel.md", "../intro.md").as_deref(),
            Some("intro.md")
        );
        assert_eq!(join_relative("intro.md", "../outside.md"), None);
    }
}

//! Links between the book's own pages, resolved and checked: links to other chapters and to
//! files beside them, and anchors. (Symbol links are a directive: `directives/symbol_link.rs`.)
//!
//! A chapter resolves its own links while it renders ([`resolve_link`]); a link to an anchor
//! is recorded as a [`LinkCheck`] and checked once every chapter's anchors are known
//! (`Book::check_links`).

use crate::diagnostic::LineIndex;
use crate::directive::Context;
use crate::paths::{join_relative, page_path};

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
pub struct LinkSite<'text> {
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
    fn check_later(&self, checks: &mut Vec<LinkCheck>, target: &str, anchor: &str) {
        let (line, column) = self.lines.locate(self.text, self.offset);
        checks.push(LinkCheck {
            line,
            column,
            target: target.to_string(),
            anchor: anchor.to_string(),
        });
    }
}

/// Resolves a link's destination to the URL the page uses, or says why it is broken; links to
/// anchors go to `checks`.
pub fn resolve_link(
    destination: &str,
    site: &LinkSite<'_>,
    context: &Context<'_>,
    checks: &mut Vec<LinkCheck>,
) -> Result<String, String> {
    if destination.contains("://")
        || destination.starts_with("mailto:")
        || destination.starts_with("//")
    {
        return Ok(destination.to_string());
    }
    let (path, anchor) = destination.split_once('#').unwrap_or((destination, ""));
    if path.is_empty() {
        site.check_later(checks, site.source, anchor);
        return Ok(destination.to_string());
    }
    if path.ends_with(".md") {
        return resolve_chapter_link(destination, site, context, checks);
    }
    check_asset(destination, site.source, context)?;
    Ok(destination.to_string())
}

/// A link to another chapter's markdown file becomes a link to its page.
fn resolve_chapter_link(
    destination: &str,
    site: &LinkSite<'_>,
    context: &Context<'_>,
    checks: &mut Vec<LinkCheck>,
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
    site.check_later(checks, &target, anchor);
    Ok(format!("{}{}#{anchor}", site.root, page_path(&target)))
}

/// A relative link to a file beside the chapters must name a file that exists.
pub fn check_asset(destination: &str, source: &str, context: &Context<'_>) -> Result<(), String> {
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

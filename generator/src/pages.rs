//! The site's pages, rendered from a loaded [`Book`] with the theme's templates: the frame every
//! page shares ([`Frame`]: sidebar, previous and next), every chapter, the contents page, the 404
//! page, the protocol names and the sitemap of levels (`play/`).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use tera::Context;

use crate::book::{Book, Chapter};
use crate::diagnostic::Diagnostic;
use crate::html::escape;
use crate::levels::{Level, LevelCatalog};
use crate::markdown::TocEntry;
use crate::paths::{NAMES_PAGE, page_path, root_prefix};
use crate::summary::Entry;
use crate::symbols::SymbolIndex;

/// One line of the sidebar and the contents page.
#[derive(Clone, Debug, Serialize)]
pub struct SidebarEntry {
    kind: &'static str,
    title: String,
    number: String,
    href: String,
    depth: usize,
}

/// A link to another page: its title and where it is.
#[derive(Clone, Debug, Serialize)]
pub struct PageLink {
    title: String,
    href: String,
}

/// A level on the level map.
#[derive(Serialize)]
struct LevelView {
    id: String,
    title: String,
    by_hand: String,
    teaches: String,
    unlocks: String,
    chapter: String,
    chapter_href: String,
    scenario: String,
}

/// One act of the level map.
#[derive(Serialize)]
struct Act {
    act: u8,
    levels: Vec<LevelView>,
}

/// The site URL as a path prefix: `/`, `/paros/` (a full URL keeps its scheme and host).
pub fn site_root(site_url: &str) -> String {
    let trimmed = site_url.trim().trim_end_matches('/');
    if trimmed.contains("://") || trimmed.starts_with('/') {
        format!("{trimmed}/")
    } else {
        format!("/{trimmed}/").replace("//", "/")
    }
}

/// The sidebar line of one SUMMARY.md entry.
fn sidebar_entry(entry: &Entry) -> SidebarEntry {
    let heading = |kind, title: &str| SidebarEntry {
        kind,
        title: title.to_string(),
        number: String::new(),
        href: String::new(),
        depth: 0,
    };
    match entry {
        Entry::Part { title } => heading("part", title),
        Entry::Separator => heading("separator", ""),
        Entry::Chapter(chapter) => SidebarEntry {
            kind: if chapter.source.is_some() {
                "chapter"
            } else {
                "draft"
            },
            title: chapter.title.clone(),
            number: chapter.number.clone().unwrap_or_default(),
            href: chapter.source.as_deref().map(page_path).unwrap_or_default(),
            depth: chapter.depth,
        },
    }
}

/// Whether the book has a protocol names page: whether its glossary names anything.
pub fn has_names_page(book: &Book) -> bool {
    book.texts.glossary.terms().next().is_some()
}

/// The sidebar's lines: SUMMARY.md's entries, and the protocol names page.
fn sidebar_entries(book: &Book) -> Vec<SidebarEntry> {
    let mut entries: Vec<SidebarEntry> = book.summary().entries.iter().map(sidebar_entry).collect();
    if has_names_page(book) {
        entries.push(SidebarEntry {
            kind: "chapter",
            title: "Protocol names".into(),
            number: String::new(),
            href: NAMES_PAGE.into(),
            depth: 0,
        });
    }
    entries
}

/// What every page of the site shares: the book, its sidebar rendered once per folder depth,
/// and the reading order.
pub struct Frame<'book> {
    /// The book.
    pub book: &'book Book,
    /// The sidebar's lines.
    pub entries: Vec<SidebarEntry>,
    sidebar_by_root: BTreeMap<String, String>,
}

impl<'book> Frame<'book> {
    /// Renders the sidebar once per folder depth; pages mark their own entry.
    pub fn new(book: &'book Book) -> Result<Frame<'book>, Diagnostic> {
        let entries = sidebar_entries(book);
        let mut roots: BTreeSet<String> = book
            .chapters()
            .iter()
            .map(|chapter| root_prefix(&chapter.source))
            .collect();
        roots.insert(String::new());
        roots.insert("../".into());
        let mut sidebar_by_root = BTreeMap::new();
        for root in roots {
            let mut context = Context::new();
            context.insert("root", &root);
            context.insert("entries", &entries);
            sidebar_by_root.insert(root, book.texts.templates.render("sidebar.html", &context)?);
        }
        Ok(Frame {
            book,
            entries,
            sidebar_by_root,
        })
    }

    /// Renders a template of the theme.
    pub fn render(&self, template: &str, context: &Context) -> Result<String, Diagnostic> {
        self.book.texts.templates.render(template, context)
    }

    fn sidebar(&self, root: &str, current: &str) -> String {
        let sidebar = self.sidebar_by_root.get(root).cloned().unwrap_or_default();
        let marker = format!("data-page=\"{current}\"");
        sidebar.replacen(&marker, &format!("{marker} aria-current=\"page\""), 1)
    }

    /// What every template is given: the book's title, the way to the root, the sidebar with
    /// `current` marked, and whether to load the live-reload and game scripts.
    pub fn base_context(&self, root: &str, current: &str) -> Context {
        let mut context = Context::new();
        context.insert("book_title", &self.book.title());
        context.insert("root", root);
        context.insert("sidebar", &self.sidebar(root, current));
        context.insert("live_reload", &self.book.options.live_reload);
        context.insert("has_levels", &false);
        context.insert("page", current);
        context
    }

    /// Sequence of (href, title) pages for previous/next, in reading order.
    fn reading_order(&self) -> Vec<(String, String)> {
        let mut order: Vec<(String, String)> = self
            .book
            .chapters()
            .iter()
            .map(|chapter| (page_path(&chapter.source), chapter.title.clone()))
            .collect();
        if has_names_page(self.book) {
            order.push((NAMES_PAGE.into(), "Protocol names".into()));
        }
        order
    }

    /// The previous and next pages of `href`, linked from `root`.
    pub fn neighbours(&self, href: &str, root: &str) -> (Option<PageLink>, Option<PageLink>) {
        let order = self.reading_order();
        let link = |(href, title): &(String, String)| PageLink {
            title: title.clone(),
            href: format!("{root}{href}"),
        };
        match order.iter().position(|(page, _)| page == href) {
            Some(0) => (
                Some(PageLink {
                    title: "Contents".into(),
                    href: format!("{root}index.html"),
                }),
                order.get(1).map(link),
            ),
            Some(position) => (
                order.get(position - 1).map(link),
                order.get(position + 1).map(link),
            ),
            None => (None, order.first().map(link)),
        }
    }

    /// A chapter's page.
    pub fn render_chapter_page(&self, chapter: &Chapter) -> Result<String, Diagnostic> {
        let href = page_path(&chapter.source);
        let root = root_prefix(&chapter.source);
        let mut context = self.base_context(&root, &href);
        let (previous, next) = self.neighbours(&href, &root);
        context.insert("title", &chapter.title);
        context.insert("number", &chapter.number.clone().unwrap_or_default());
        context.insert("content", &chapter.rendered.html);
        context.insert("toc", &chapter.rendered.toc);
        context.insert("previous", &previous);
        context.insert("next", &next);
        context.insert("has_levels", &chapter.rendered.has_levels);
        self.render("chapter.html", &context)
    }

    /// The body of the protocol names page: one table row per glossary name.
    fn names_table(&self, symbols: &SymbolIndex) -> String {
        let mut content = String::from(
            "<h1 id=\"protocol-names\">Protocol names</h1>\n<p>Every protocol name a chapter may link with <code>[name]</code>, \
             and the item of paros-core it stands for. The build checks each one against the code.</p>\n\
             <table class=\"names\">\n<thead><tr><th>Name</th><th>Symbol</th><th>Kind</th></tr></thead>\n<tbody>\n",
        );
        for term in self.book.texts.glossary.terms() {
            content.push_str(&format!(
                "<tr><td>{name}</td><td><a href=\"api/{url}\"><code>{crate_name}::{path}</code></a></td><td>{kind}</td></tr>\n",
                name = escape(&term.name),
                url = symbols.url(&term.symbol),
                crate_name = symbols.crate_name,
                path = term.symbol.path,
                kind = term.symbol.kind.word(),
            ));
        }
        content.push_str("</tbody>\n</table>\n");
        content
    }

    /// The protocol names page.
    pub fn render_names_page(&self, symbols: &SymbolIndex) -> Result<String, Diagnostic> {
        let mut context = self.base_context("", NAMES_PAGE);
        let (previous, next) = self.neighbours(NAMES_PAGE, "");
        context.insert("title", "Protocol names");
        context.insert("number", "");
        context.insert("content", &self.names_table(symbols));
        context.insert("toc", &Vec::<TocEntry>::new());
        context.insert("previous", &previous);
        context.insert("next", &next);
        self.render("chapter.html", &context)
    }

    /// The contents page.
    pub fn render_home(&self) -> Result<String, Diagnostic> {
        let mut context = self.base_context("", "index.html");
        let (_, next) = self.neighbours("index.html", "");
        context.insert("title", &self.book.title());
        context.insert("entries", &self.entries);
        context.insert("next", &next);
        self.render("index.html", &context)
    }

    /// The 404 page, with absolute links.
    pub fn render_not_found(&self) -> Result<String, Diagnostic> {
        let root = site_root(&self.book.options.site_url);
        let mut context = self.base_context(&root, "404.html");
        // The 404 page is served at any depth, so its links are absolute.
        let sidebar = self.sidebar_by_root.get("").cloned().unwrap_or_default();
        context.insert(
            "sidebar",
            &sidebar.replace("href=\"", &format!("href=\"{root}")),
        );
        context.insert("title", "Page not found");
        self.render("404.html", &context)
    }

    /// The page of the chapter a level belongs to, by title or source, from `play/`.
    fn level_chapter_href(&self, level: &Level) -> String {
        self.book
            .chapters()
            .iter()
            .find(|chapter| chapter.title == level.chapter || chapter.source == level.chapter)
            .map(|chapter| format!("../{}", page_path(&chapter.source)))
            .unwrap_or_default()
    }

    fn level_view(&self, level: &Level) -> LevelView {
        LevelView {
            id: level.id.clone(),
            title: level.title.clone(),
            by_hand: level.by_hand.clone(),
            teaches: level.teaches.clone(),
            unlocks: level.unlocks.clone().unwrap_or_default(),
            chapter: level.chapter.clone(),
            chapter_href: self.level_chapter_href(level),
            scenario: level.scenario.clone(),
        }
    }

    /// The sitemap of levels: every level of the game by act, with its chapter.
    pub fn render_play(&self, levels: &LevelCatalog) -> Result<String, Diagnostic> {
        let acts: Vec<Act> = levels
            .by_act()
            .into_iter()
            .map(|(act, levels)| Act {
                act,
                levels: levels
                    .into_iter()
                    .map(|level| self.level_view(level))
                    .collect(),
            })
            .collect();
        let mut context = self.base_context("../", "play/index.html");
        context.insert("title", "Play");
        context.insert("acts", &acts);
        context.insert("has_levels", &true);
        self.render("play.html", &context)
    }
}

#[cfg(test)]
mod tests {
    use super::site_root;

    #[test]
    fn site_urls_become_path_prefixes() {
        // Proves the 404 page's prefix is absolute and ends with one slash, however it is given.
        assert_eq!(site_root("/"), "/");
        assert_eq!(site_root(""), "/");
        assert_eq!(site_root("/paros"), "/paros/");
        assert_eq!(site_root("paros/"), "/paros/");
        assert_eq!(site_root("/paros/"), "/paros/");
        assert_eq!(
            site_root("https://example.org/paros"),
            "https://example.org/paros/"
        );
    }
}

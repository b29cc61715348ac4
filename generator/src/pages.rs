//! The site's pages, rendered from a loaded [`Book`] with the theme's templates: every chapter,
//! the contents page, the 404 page, the level map, the protocol names, the search index and the
//! code stylesheet.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use tera::Context;

use crate::book::{Book, Chapter, Inputs};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::levels::{Level, LevelCatalog};
use crate::markdown::{TocEntry, page_path, root_prefix};
use crate::search;
use crate::summary::Entry;
use crate::symbols::SymbolIndex;

/// The generated appendix listing every protocol name.
pub const NAMES_PAGE: &str = "protocol-names.html";
/// The search index.
pub const SEARCH_INDEX: &str = "search-index.json";
/// The generated code stylesheet.
pub const HIGHLIGHT_CSS: &str = "static/highlight.css";

/// One line of the sidebar and the contents page.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct SidebarEntry {
    kind: &'static str,
    title: String,
    number: String,
    href: String,
    depth: usize,
}

#[derive(Clone, Debug, Serialize)]
struct PageLink {
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

impl Book {
    fn title(&self) -> String {
        self.summary.title.clone().unwrap_or_else(|| "Book".into())
    }

    fn has_names_page(&self) -> bool {
        self.glossary.terms().next().is_some()
    }

    pub(crate) fn build_sidebar_entries(&self) -> Vec<SidebarEntry> {
        let mut entries: Vec<SidebarEntry> =
            self.summary.entries.iter().map(sidebar_entry).collect();
        if self.has_names_page() {
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

    /// Renders the sidebar once per folder depth; pages mark their own entry.
    pub(crate) fn render_sidebars(&mut self) -> Result<(), Diagnostic> {
        let mut roots: BTreeSet<String> = self
            .chapters
            .iter()
            .map(|chapter| root_prefix(&chapter.source))
            .collect();
        roots.insert(String::new());
        roots.insert("../".into());
        let mut sidebars = BTreeMap::new();
        for root in roots {
            let mut context = Context::new();
            context.insert("root", &root);
            context.insert("entries", &self.sidebar_entries);
            sidebars.insert(root, self.templates.render("sidebar.html", &context)?);
        }
        self.sidebar_by_root = sidebars;
        Ok(())
    }

    fn sidebar(&self, root: &str, current: &str) -> String {
        let sidebar = self.sidebar_by_root.get(root).cloned().unwrap_or_default();
        let marker = format!("data-page=\"{current}\"");
        sidebar.replacen(&marker, &format!("{marker} aria-current=\"page\""), 1)
    }

    fn base_context(&self, root: &str, current: &str) -> Context {
        let mut context = Context::new();
        context.insert("book_title", &self.title());
        context.insert("root", root);
        context.insert("sidebar", &self.sidebar(root, current));
        context.insert("live_reload", &self.options.live_reload);
        context.insert("has_levels", &false);
        context.insert("page", current);
        context
    }

    /// Sequence of (href, title) pages for previous/next, in reading order.
    fn reading_order(&self) -> Vec<(String, String)> {
        let mut order: Vec<(String, String)> = self
            .chapters
            .iter()
            .map(|chapter| (page_path(&chapter.source), chapter.title.clone()))
            .collect();
        if self.has_names_page() {
            order.push((NAMES_PAGE.into(), "Protocol names".into()));
        }
        order
    }

    fn neighbours(&self, href: &str, root: &str) -> (Option<PageLink>, Option<PageLink>) {
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

    fn render_chapter_page(&self, chapter: &Chapter) -> Result<String, Diagnostic> {
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
        self.templates.render("chapter.html", &context)
    }

    /// The body of the protocol names page: one table row per glossary name.
    fn names_table(&self, symbols: &SymbolIndex) -> String {
        let mut content = String::from(
            "<h1 id=\"protocol-names\">Protocol names</h1>\n<p>Every protocol name a chapter may link with <code>[name]</code>, \
             and the item of paros-core it stands for. The build checks each one against the code.</p>\n\
             <table class=\"names\">\n<thead><tr><th>Name</th><th>Symbol</th><th>Kind</th></tr></thead>\n<tbody>\n",
        );
        for term in self.glossary.terms() {
            content.push_str(&format!(
                "<tr><td>{name}</td><td><a href=\"api/{url}\"><code>{crate_name}::{path}</code></a></td><td>{kind}</td></tr>\n",
                name = crate::embeds::escape(&term.name),
                url = symbols.url(&term.symbol),
                crate_name = symbols.crate_name,
                path = term.symbol.path,
                kind = term.symbol.kind.word(),
            ));
        }
        content.push_str("</tbody>\n</table>\n");
        content
    }

    fn render_names_page(&self, symbols: &SymbolIndex) -> Result<String, Diagnostic> {
        let mut context = self.base_context("", NAMES_PAGE);
        let (previous, next) = self.neighbours(NAMES_PAGE, "");
        context.insert("title", "Protocol names");
        context.insert("number", "");
        context.insert("content", &self.names_table(symbols));
        context.insert("toc", &Vec::<TocEntry>::new());
        context.insert("previous", &previous);
        context.insert("next", &next);
        self.templates.render("chapter.html", &context)
    }

    fn render_home(&self) -> Result<String, Diagnostic> {
        let mut context = self.base_context("", "index.html");
        let (_, next) = self.neighbours("index.html", "");
        context.insert("title", &self.title());
        context.insert("entries", &self.sidebar_entries);
        context.insert("next", &next);
        self.templates.render("index.html", &context)
    }

    fn render_not_found(&self) -> Result<String, Diagnostic> {
        let root = site_root(&self.options.site_url);
        let mut context = self.base_context(&root, "404.html");
        // The 404 page is served at any depth, so its links are absolute.
        let sidebar = self.sidebar_by_root.get("").cloned().unwrap_or_default();
        context.insert(
            "sidebar",
            &sidebar.replace("href=\"", &format!("href=\"{root}")),
        );
        context.insert("title", "Page not found");
        self.templates.render("404.html", &context)
    }

    /// The page of the chapter a level belongs to, by title or source, from `play/`.
    fn level_chapter_href(&self, level: &Level) -> String {
        self.chapters
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

    fn render_play(&self, levels: &LevelCatalog) -> Result<String, Diagnostic> {
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
        self.templates.render("play.html", &context)
    }

    fn search_index(&self) -> String {
        let pages: Vec<(String, &Chapter)> = self
            .chapters
            .iter()
            .map(|chapter| (page_path(&chapter.source), chapter))
            .collect();
        let mut entries: Vec<search::PageEntry<'_>> = pages
            .iter()
            .map(|(path, chapter)| search::PageEntry {
                path,
                title: &chapter.title,
                sections: &chapter.rendered.sections,
            })
            .collect();
        if !self.level_sections.is_empty() {
            entries.push(search::PageEntry {
                path: search::PLAY_PAGE,
                title: "Play",
                sections: &self.level_sections,
            });
        }
        search::build(&entries)
    }

    /// Every generated file, by path under the site, as bytes.
    pub fn outputs(&self, inputs: &Inputs) -> Result<BTreeMap<String, Vec<u8>>, Diagnostics> {
        let mut pages: Vec<(String, Result<String, Diagnostic>)> = self
            .chapters
            .iter()
            .map(|chapter| {
                (
                    page_path(&chapter.source),
                    self.render_chapter_page(chapter),
                )
            })
            .collect();
        pages.push(("index.html".into(), self.render_home()));
        pages.push(("404.html".into(), self.render_not_found()));
        pages.push(("play/index.html".into(), self.render_play(&inputs.levels)));
        if self.has_names_page() {
            pages.push((NAMES_PAGE.into(), self.render_names_page(&inputs.symbols)));
        }
        let mut files = BTreeMap::new();
        let mut errors = Vec::new();
        for (path, result) in pages {
            match result {
                Ok(html) => {
                    files.insert(path, html.into_bytes());
                }
                Err(error) => errors.push(error),
            }
        }
        if !errors.is_empty() {
            return Err(Diagnostics(errors));
        }
        files.insert(SEARCH_INDEX.into(), self.search_index().into_bytes());
        files.insert(
            crate::levels::PLAY_CATALOG.into(),
            inputs.levels.play_json().into_bytes(),
        );
        files.insert(
            HIGHLIGHT_CSS.into(),
            crate::highlight::stylesheet().into_bytes(),
        );
        Ok(files)
    }

    /// The page of one chapter, after [`Book::update_chapter`].
    pub fn chapter_page(&self, source: &str) -> Result<(String, Vec<u8>), Diagnostics> {
        let chapter = &self.chapters[*self.by_source.get(source).expect("a chapter of the book")];
        let page = self
            .render_chapter_page(chapter)
            .map_err(|error| Diagnostics(vec![error]))?;
        Ok((page_path(source), page.into_bytes()))
    }

    /// The search index, as a file of the site.
    pub fn search_index_file(&self) -> (String, Vec<u8>) {
        (SEARCH_INDEX.into(), self.search_index().into_bytes())
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

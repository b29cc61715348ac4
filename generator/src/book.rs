//! The book: SUMMARY.md, the glossary, the theme and every rendered chapter, held in memory so
//! `serve` can re-render one chapter and write only what changed.
//!
//! Architecture invariant: rendering reads no clock and walks folders in sorted order, so the
//! same sources give the same bytes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Serialize;
use tera::Context;

use crate::diagnostic::{Diagnostic, Diagnostics, decode_utf8};
use crate::glossary::Glossary;
use crate::levels::LevelCatalog;
use crate::markdown::{
    self, LinkCheck, RenderContext, RenderedChapter, ReportCache, page_path, root_prefix,
};
use crate::search;
use crate::summary::{self, Entry, Summary};
use crate::symbols::SymbolIndex;
use crate::templates::Templates;

/// Where the book's sources are.
#[derive(Clone, Debug)]
pub struct BookPaths {
    /// The repository (or book) root; errors name files relative to it.
    pub root: PathBuf,
    /// `chapters/`.
    pub chapters: PathBuf,
    /// `theme/`.
    pub theme: PathBuf,
}

impl BookPaths {
    /// The standard layout under `root`.
    pub fn under(root: &Path) -> BookPaths {
        BookPaths {
            root: root.to_path_buf(),
            chapters: root.join("chapters"),
            theme: root.join("theme"),
        }
    }

    /// How errors name `path`: relative to the root, with `/`.
    pub fn label(&self, path: &Path) -> String {
        path.strip_prefix(&self.root)
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/")
    }
}

/// What the chapters are checked against, built outside the book (rustdoc, the game, the simulator).
pub struct Inputs {
    /// paros-core's items.
    pub symbols: SymbolIndex,
    /// The game's levels.
    pub levels: LevelCatalog,
    /// Scenario reports.
    pub reports: ReportCache,
}

/// Rendering options.
#[derive(Clone, Debug)]
pub struct RenderOptions {
    /// Absolute URL path the site is published under (`/paros/`); only the 404 page uses it.
    pub site_url: String,
    /// Whether pages load the live-reload script of `serve`.
    pub live_reload: bool,
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions {
            site_url: "/".into(),
            live_reload: false,
        }
    }
}

/// The generated appendix listing every protocol name.
pub const NAMES_PAGE: &str = "protocol-names.html";
/// The search index.
pub const SEARCH_INDEX: &str = "search-index.json";
/// The generated code stylesheet.
pub const HIGHLIGHT_CSS: &str = "static/highlight.css";

#[derive(Clone, Debug, Serialize)]
struct SidebarEntry {
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

/// A chapter's page: its place in SUMMARY.md and its rendered body.
#[derive(Clone, Debug)]
pub struct Chapter {
    /// Path under `chapters/`.
    pub source: String,
    /// Title from SUMMARY.md.
    pub title: String,
    /// Section number, if numbered.
    pub number: Option<String>,
    /// The rendered body.
    pub rendered: RenderedChapter,
}

/// A loaded and rendered book.
pub struct Book {
    /// Where its sources are.
    pub paths: BookPaths,
    options: RenderOptions,
    summary: Summary,
    glossary: Glossary,
    templates: Templates,
    /// Chapters in reading order.
    chapters: Vec<Chapter>,
    by_source: BTreeMap<String, usize>,
    sidebar_entries: Vec<SidebarEntry>,
    sidebar_by_root: BTreeMap<String, String>,
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

/// One chapter's rendering, or every problem found in it.
type ChapterResult = Result<RenderedChapter, Vec<Diagnostic>>;

fn read_text(path: &Path, label: &str) -> Result<String, Diagnostic> {
    let bytes = std::fs::read(path)
        .map_err(|error| Diagnostic::new(label, 1, 1, format!("cannot read: {error}")))?;
    decode_utf8(bytes, label)
}

impl Book {
    /// Loads SUMMARY.md, the glossary and the theme, and renders every chapter.
    pub fn load(
        paths: BookPaths,
        options: RenderOptions,
        inputs: &Inputs,
    ) -> Result<Book, Diagnostics> {
        let summary_path = paths.chapters.join("SUMMARY.md");
        let summary_label = paths.label(&summary_path);
        let summary_text =
            read_text(&summary_path, &summary_label).map_err(|error| Diagnostics(vec![error]))?;
        let summary = summary::parse(&summary_text, &summary_label)
            .map_err(|error| Diagnostics(vec![error]))?;
        let mut errors = Vec::new();
        for chapter in summary.pages() {
            let source = chapter.source.as_deref().expect("pages have sources");
            if !paths.chapters.join(source).is_file() {
                errors.push(Diagnostic::new(
                    &summary_label,
                    chapter.line,
                    chapter.column,
                    format!("chapter file `{source}` not found in chapters/"),
                ));
            }
            if page_path(source) == NAMES_PAGE {
                errors.push(Diagnostic::new(
                    &summary_label,
                    chapter.line,
                    chapter.column,
                    format!("`{source}` would replace the generated {NAMES_PAGE}"),
                ));
            }
        }
        let glossary_path = paths.chapters.join("glossary.toml");
        let glossary = if glossary_path.is_file() {
            let label = paths.label(&glossary_path);
            match read_text(&glossary_path, &label) {
                Ok(text) => {
                    Glossary::parse(&text, &label, &inputs.symbols).unwrap_or_else(|mut found| {
                        errors.append(&mut found);
                        Glossary::default()
                    })
                }
                Err(error) => {
                    errors.push(error);
                    Glossary::default()
                }
            }
        } else {
            Glossary::default()
        };
        let templates = match Templates::load(&paths.theme, &paths.label(&paths.theme)) {
            Ok(templates) => Some(templates),
            Err(error) => {
                errors.push(error);
                None
            }
        };
        if !errors.is_empty() {
            return Err(Diagnostics(errors));
        }
        let templates = templates.expect("no errors");

        let mut chapters: Vec<Chapter> = summary
            .pages()
            .map(|chapter| Chapter {
                source: chapter.source.clone().expect("pages have sources"),
                title: chapter.title.clone(),
                number: chapter.number.clone(),
                rendered: RenderedChapter::default(),
            })
            .collect();
        let by_source = chapters
            .iter()
            .enumerate()
            .map(|(index, chapter)| (chapter.source.clone(), index))
            .collect();
        let mut book = Book {
            paths,
            options,
            summary,
            glossary,
            templates,
            chapters: Vec::new(),
            by_source,
            sidebar_entries: Vec::new(),
            sidebar_by_root: BTreeMap::new(),
        };
        let results = book.render_all(&chapters, inputs);
        let mut failed = BTreeSet::new();
        for (chapter, result) in chapters.iter_mut().zip(results) {
            match result {
                Ok(rendered) => chapter.rendered = rendered,
                Err(mut found) => {
                    errors.append(&mut found);
                    failed.insert(chapter.source.clone());
                }
            }
        }
        book.chapters = chapters;
        // A chapter that failed has no anchors yet: links into it are not broken, only unchecked.
        errors.extend(book.check_links(&failed));
        if !errors.is_empty() {
            return Err(Diagnostics(errors));
        }
        book.sidebar_entries = book.build_sidebar_entries();
        book.render_sidebars()
            .map_err(|error| Diagnostics(vec![error]))?;
        Ok(book)
    }

    fn page_sources(&self) -> BTreeSet<String> {
        self.by_source.keys().cloned().collect()
    }

    /// Renders chapters on two threads; results come back in the chapters' order.
    fn render_all(&self, chapters: &[Chapter], inputs: &Inputs) -> Vec<ChapterResult> {
        crate::highlight::warm_up();
        let pages = self.page_sources();
        let context = self.context(inputs, &pages);
        let next = AtomicUsize::new(0);
        let worker_count = std::thread::available_parallelism()
            .map_or(1, |count| count.get())
            .clamp(1, 4);
        let mut results: Vec<Option<ChapterResult>> = vec![None; chapters.len()];
        let finished: Vec<Vec<(usize, ChapterResult)>> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..worker_count)
                .map(|_| {
                    scope.spawn(|| {
                        let mut done = Vec::new();
                        loop {
                            let index = next.fetch_add(1, Ordering::Relaxed);
                            let Some(chapter) = chapters.get(index) else {
                                break;
                            };
                            done.push((index, self.render_chapter(&chapter.source, &context)));
                        }
                        done
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|worker| worker.join().expect("a render thread panicked"))
                .collect()
        });
        for (index, result) in finished.into_iter().flatten() {
            results[index] = Some(result);
        }
        results
            .into_iter()
            .map(|result| result.expect("every chapter rendered"))
            .collect()
    }

    fn context<'book>(
        &'book self,
        inputs: &'book Inputs,
        pages: &'book BTreeSet<String>,
    ) -> RenderContext<'book> {
        RenderContext {
            symbols: &inputs.symbols,
            glossary: &self.glossary,
            levels: &inputs.levels,
            reports: &inputs.reports,
            pages,
            chapters_dir: &self.paths.chapters,
        }
    }

    fn render_chapter(&self, source: &str, context: &RenderContext<'_>) -> ChapterResult {
        let path = self.paths.chapters.join(source);
        let label = self.paths.label(&path);
        let text = read_text(&path, &label).map_err(|error| vec![error])?;
        markdown::render(&text, source, &label, context)
    }

    /// Checks every chapter's links to anchors, except links into the `unchecked` chapters.
    fn check_links(&self, unchecked: &BTreeSet<String>) -> Vec<Diagnostic> {
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
    fn check_chapter_links(&self, chapter: &Chapter) -> Vec<(String, Diagnostic)> {
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

    /// Re-renders one chapter after an edit. On success the book holds the new chapter and the
    /// caller writes [`Book::chapter_page`] and [`Book::search_index_file`]; on failure the book is unchanged.
    pub fn update_chapter(&mut self, source: &str, inputs: &Inputs) -> Result<(), Diagnostics> {
        let &index = self.by_source.get(source).ok_or_else(|| {
            Diagnostics(vec![Diagnostic::new(
                source,
                1,
                1,
                "not a chapter of SUMMARY.md",
            )])
        })?;
        let pages = self.page_sources();
        let rendered = {
            let context = self.context(inputs, &pages);
            self.render_chapter(source, &context).map_err(Diagnostics)?
        };
        let previous = std::mem::replace(&mut self.chapters[index].rendered, rendered);
        // Other chapters may link to anchors this edit removed.
        let errors = if previous.anchors == self.chapters[index].rendered.anchors {
            self.check_chapter_links(&self.chapters[index])
                .into_iter()
                .map(|(_, error)| error)
                .collect()
        } else {
            self.check_links(&BTreeSet::new())
        };
        if !errors.is_empty() {
            self.chapters[index].rendered = previous;
            return Err(Diagnostics(errors));
        }
        Ok(())
    }

    /// The chapter a source path belongs to, if any.
    pub fn has_chapter(&self, source: &str) -> bool {
        self.by_source.contains_key(source)
    }

    fn title(&self) -> String {
        self.summary.title.clone().unwrap_or_else(|| "Book".into())
    }

    fn build_sidebar_entries(&self) -> Vec<SidebarEntry> {
        let mut entries = Vec::new();
        for entry in &self.summary.entries {
            entries.push(match entry {
                Entry::Part { title } => SidebarEntry {
                    kind: "part",
                    title: title.clone(),
                    number: String::new(),
                    href: String::new(),
                    depth: 0,
                },
                Entry::Separator => SidebarEntry {
                    kind: "separator",
                    title: String::new(),
                    number: String::new(),
                    href: String::new(),
                    depth: 0,
                },
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
            });
        }
        if self.glossary.terms().next().is_some() {
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
    fn render_sidebars(&mut self) -> Result<(), Diagnostic> {
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
        if self.glossary.terms().next().is_some() {
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
            Some(position) => (
                if position == 0 {
                    Some(PageLink {
                        title: "Contents".into(),
                        href: format!("{root}index.html"),
                    })
                } else {
                    order.get(position - 1).map(link)
                },
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

    fn render_names_page(&self, symbols: &SymbolIndex) -> Result<String, Diagnostic> {
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
        let mut context = self.base_context("", NAMES_PAGE);
        let (previous, next) = self.neighbours(NAMES_PAGE, "");
        context.insert("title", "Protocol names");
        context.insert("number", "");
        context.insert("content", &content);
        context.insert("toc", &Vec::<markdown::TocEntry>::new());
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
        context.insert(
            "sidebar",
            &self
                .sidebar_by_root
                .get("")
                .cloned()
                .unwrap_or_default()
                .replace("href=\"", &format!("href=\"{root}")),
        );
        context.insert("title", "Page not found");
        self.templates.render("404.html", &context)
    }

    fn render_play(&self, levels: &LevelCatalog) -> Result<String, Diagnostic> {
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
        #[derive(Serialize)]
        struct Act {
            act: u8,
            levels: Vec<LevelView>,
        }
        let acts: Vec<Act> = levels
            .by_act()
            .into_iter()
            .map(|(act, levels)| Act {
                act,
                levels: levels
                    .into_iter()
                    .map(|level| LevelView {
                        id: level.id.clone(),
                        title: level.title.clone(),
                        by_hand: level.by_hand.clone(),
                        teaches: level.teaches.clone(),
                        unlocks: level.unlocks.clone().unwrap_or_default(),
                        chapter: level.chapter.clone(),
                        chapter_href: self
                            .chapters
                            .iter()
                            .find(|chapter| {
                                chapter.title == level.chapter || chapter.source == level.chapter
                            })
                            .map(|chapter| format!("../{}", page_path(&chapter.source)))
                            .unwrap_or_default(),
                        scenario: level.scenario.clone(),
                    })
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
        let entries: Vec<search::PageEntry<'_>> = pages
            .iter()
            .map(|(path, chapter)| search::PageEntry {
                path,
                title: &chapter.title,
                sections: &chapter.rendered.sections,
            })
            .collect();
        search::build(&entries)
    }

    /// Every generated file, by path under the site, as bytes.
    pub fn outputs(&self, inputs: &Inputs) -> Result<BTreeMap<String, Vec<u8>>, Diagnostics> {
        let mut files = BTreeMap::new();
        let mut errors = Vec::new();
        for chapter in &self.chapters {
            match self.render_chapter_page(chapter) {
                Ok(html) => {
                    files.insert(page_path(&chapter.source), html.into_bytes());
                }
                Err(error) => errors.push(error),
            }
        }
        let mut add = |path: &str, result: Result<String, Diagnostic>| match result {
            Ok(html) => {
                files.insert(path.to_string(), html.into_bytes());
            }
            Err(error) => errors.push(error),
        };
        add("index.html", self.render_home());
        add("404.html", self.render_not_found());
        add("play/index.html", self.render_play(&inputs.levels));
        if self.glossary.terms().next().is_some() {
            add(NAMES_PAGE, self.render_names_page(&inputs.symbols));
        }
        if !errors.is_empty() {
            return Err(Diagnostics(errors));
        }
        files.insert(SEARCH_INDEX.into(), self.search_index().into_bytes());
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

    /// Chapter sources in reading order.
    pub fn chapter_sources(&self) -> impl Iterator<Item = &str> {
        self.chapters.iter().map(|chapter| chapter.source.as_str())
    }

    /// The rendered chapters.
    pub fn chapters(&self) -> &[Chapter] {
        &self.chapters
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

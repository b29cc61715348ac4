//! The book: SUMMARY.md, the glossary, the theme and every rendered chapter, held in memory so
//! `serve` can re-render one chapter and write only what changed.
//!
//! This file loads the book and renders its chapters; `links.rs` checks the links between
//! chapters and `pages.rs` turns the book into the site's files.
//!
//! Architecture invariant: rendering reads no clock and walks folders in sorted order, so the
//! same sources give the same bytes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::diagnostic::{Diagnostic, Diagnostics, decode_utf8};
use crate::glossary::Glossary;
use crate::level_map::{ChaptersByTitle, LEVEL_MAP, LevelMap};
use crate::levels::LevelCatalog;
use crate::markdown::{self, RenderContext, RenderedChapter, Section, page_path};
use crate::pages::{NAMES_PAGE, SidebarEntry};
use crate::reports::ReportCache;
use crate::summary::{self, Summary};
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
    pub(crate) options: RenderOptions,
    pub(crate) summary: Summary,
    pub(crate) glossary: Glossary,
    pub(crate) level_map: Option<LevelMap>,
    pub(crate) chapters_by_title: ChaptersByTitle,
    pub(crate) templates: Templates,
    /// Chapters in reading order.
    pub(crate) chapters: Vec<Chapter>,
    /// Invariant: maps each chapter's source to its index in `chapters`.
    pub(crate) by_source: BTreeMap<String, usize>,
    pub(crate) sidebar_entries: Vec<SidebarEntry>,
    pub(crate) sidebar_by_root: BTreeMap<String, String>,
    /// The levels, as search sees them.
    pub(crate) level_sections: Vec<Section>,
}

/// One chapter's rendering, or every problem found in it.
type ChapterResult = Result<RenderedChapter, Vec<Diagnostic>>;

/// Reads a file of `chapters/`, refusing one whose real path leaves it.
fn read_text(paths: &BookPaths, path: &Path, label: &str) -> Result<String, Diagnostic> {
    let folder_label = paths.label(&paths.chapters);
    if let Some(why) = crate::confine::escapes(&paths.chapters, &folder_label, path) {
        return Err(Diagnostic::new(label, 1, 1, why));
    }
    let bytes = std::fs::read(path)
        .map_err(|error| Diagnostic::new(label, 1, 1, format!("cannot read: {error}")))?;
    decode_utf8(bytes, label)
}

/// Reads and parses SUMMARY.md; returns it with the name errors give its file.
fn load_summary(paths: &BookPaths) -> Result<(Summary, String), Diagnostic> {
    let path = paths.chapters.join("SUMMARY.md");
    let label = paths.label(&path);
    let text = read_text(paths, &path, &label)?;
    let summary = summary::parse(&text, &label)?;
    Ok((summary, label))
}

/// Every page SUMMARY.md lists must exist and must not take the generated page's place.
fn check_summary_pages(summary: &Summary, label: &str, paths: &BookPaths) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    for chapter in summary.pages() {
        let source = chapter.source.as_deref().expect("pages have sources");
        let error_at = |message| Diagnostic::new(label, chapter.line, chapter.column, message);
        if !paths.chapters.join(source).is_file() {
            errors.push(error_at(format!(
                "chapter file `{source}` not found in chapters/"
            )));
        }
        if page_path(source) == NAMES_PAGE {
            errors.push(error_at(format!(
                "`{source}` would replace the generated {NAMES_PAGE}"
            )));
        }
    }
    errors
}

/// Reads `chapters/glossary.toml` if there is one; its problems go to `errors`.
fn load_glossary(
    paths: &BookPaths,
    symbols: &SymbolIndex,
    errors: &mut Vec<Diagnostic>,
) -> Glossary {
    let path = paths.chapters.join("glossary.toml");
    if !path.is_file() {
        return Glossary::default();
    }
    let label = paths.label(&path);
    let parsed = read_text(paths, &path, &label)
        .map_err(|error| vec![error])
        .and_then(|text| Glossary::parse(&text, &label, symbols));
    parsed.unwrap_or_else(|mut found| {
        errors.append(&mut found);
        Glossary::default()
    })
}

/// Reads `chapters/level-map.toml` if there is one and checks it against the game's catalog;
/// its problems go to `errors`.
fn load_level_map(
    paths: &BookPaths,
    levels: &LevelCatalog,
    errors: &mut Vec<Diagnostic>,
) -> Option<LevelMap> {
    let path = paths.chapters.join(LEVEL_MAP);
    if !path.is_file() {
        return None;
    }
    let label = paths.label(&path);
    let parsed = read_text(paths, &path, &label)
        .map_err(|error| vec![error])
        .and_then(|text| LevelMap::parse(&text, &label));
    match parsed {
        Ok(map) => {
            errors.extend(map.check_catalog(levels));
            Some(map)
        }
        Err(mut found) => {
            errors.append(&mut found);
            None
        }
    }
}

/// The chapters SUMMARY.md lists, in reading order, not yet rendered.
fn unrendered_chapters(summary: &Summary) -> Vec<Chapter> {
    summary
        .pages()
        .map(|chapter| Chapter {
            source: chapter.source.clone().expect("pages have sources"),
            title: chapter.title.clone(),
            number: chapter.number.clone(),
            rendered: RenderedChapter::default(),
        })
        .collect()
}

impl Book {
    /// Loads SUMMARY.md, the glossary and the theme, and renders every chapter.
    pub fn load(
        paths: BookPaths,
        options: RenderOptions,
        inputs: &Inputs,
    ) -> Result<Book, Diagnostics> {
        let (summary, summary_label) =
            load_summary(&paths).map_err(|error| Diagnostics(vec![error]))?;
        let mut errors = check_summary_pages(&summary, &summary_label, &paths);
        let glossary = load_glossary(&paths, &inputs.symbols, &mut errors);
        let level_map = load_level_map(&paths, &inputs.levels, &mut errors);
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
        let chapters_by_title = summary.chapters_by_title();
        let mut book = Book {
            paths,
            options,
            summary,
            glossary,
            level_map,
            chapters_by_title,
            templates: templates.expect("no errors"),
            chapters: Vec::new(),
            by_source: BTreeMap::new(),
            sidebar_entries: Vec::new(),
            sidebar_by_root: BTreeMap::new(),
            level_sections: crate::search::level_sections(&inputs.levels),
        };
        book.render_chapters(inputs)?;
        book.sidebar_entries = book.build_sidebar_entries();
        book.render_sidebars()
            .map_err(|error| Diagnostics(vec![error]))?;
        Ok(book)
    }

    /// Renders every chapter of the summary and checks the links between them.
    fn render_chapters(&mut self, inputs: &Inputs) -> Result<(), Diagnostics> {
        let mut chapters = unrendered_chapters(&self.summary);
        self.by_source = chapters
            .iter()
            .enumerate()
            .map(|(index, chapter)| (chapter.source.clone(), index))
            .collect();
        let results = self.render_all(&chapters, inputs);
        let mut errors = Vec::new();
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
        self.chapters = chapters;
        // A chapter that failed has no anchors yet: links into it are not broken, only unchecked.
        errors.extend(self.check_links(&failed));
        if errors.is_empty() {
            Ok(())
        } else {
            Err(Diagnostics(errors))
        }
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
        let finished: Vec<Vec<(usize, ChapterResult)>> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..worker_count)
                .map(|_| scope.spawn(|| self.render_claimed(chapters, &next, &context)))
                .collect();
            workers
                .into_iter()
                .map(|worker| worker.join().expect("a render thread panicked"))
                .collect()
        });
        let mut results: Vec<Option<ChapterResult>> = vec![None; chapters.len()];
        for (index, result) in finished.into_iter().flatten() {
            results[index] = Some(result);
        }
        results
            .into_iter()
            .map(|result| result.expect("every chapter rendered"))
            .collect()
    }

    /// One render thread's work: claims the next chapter until none is left.
    fn render_claimed(
        &self,
        chapters: &[Chapter],
        next: &AtomicUsize,
        context: &RenderContext<'_>,
    ) -> Vec<(usize, ChapterResult)> {
        let mut done = Vec::new();
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(chapter) = chapters.get(index) else {
                break;
            };
            done.push((index, self.render_chapter(&chapter.source, context)));
        }
        done
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
            level_map: self.level_map.as_ref(),
            chapters_by_title: &self.chapters_by_title,
            reports: &inputs.reports,
            pages,
            chapters_dir: &self.paths.chapters,
        }
    }

    fn render_chapter(&self, source: &str, context: &RenderContext<'_>) -> ChapterResult {
        let path = self.paths.chapters.join(source);
        let label = self.paths.label(&path);
        let text = read_text(&self.paths, &path, &label).map_err(|error| vec![error])?;
        markdown::render(&text, source, &label, context)
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

    /// Chapter sources in reading order.
    pub fn chapter_sources(&self) -> impl Iterator<Item = &str> {
        self.chapters.iter().map(|chapter| chapter.source.as_str())
    }

    /// The rendered chapters.
    pub fn chapters(&self) -> &[Chapter] {
        &self.chapters
    }
}

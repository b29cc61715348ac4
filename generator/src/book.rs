//! The book: its sources read once ([`BookTexts`]) and every chapter rendered, held in memory
//! so `serve` can re-render one chapter and write only what changed.
//!
//! This file renders the chapters and checks the links between them; the outputs (`pages.rs`,
//! `search.rs`, `print.rs`, gathered by `outputs.rs`) are made from the rendered chapters.
//!
//! Architecture invariant: rendering reads no clock and walks folders in sorted order, so the
//! same sources give the same bytes.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::directive::Context;
use crate::links::LinkCheck;
use crate::markdown::{self, RenderedChapter};
use crate::summary::Summary;
use crate::texts::BookTexts;

pub use crate::inputs::Inputs;
pub use crate::paths::BookPaths;

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
    /// Its sources besides the chapters.
    pub texts: BookTexts,
    /// How it is rendered.
    pub options: RenderOptions,
    /// Chapters in reading order.
    chapters: Vec<Chapter>,
    /// Invariant: maps each chapter's source to its index in `chapters`.
    by_source: BTreeMap<String, usize>,
}

/// One chapter's rendering, or every problem found in it.
type ChapterResult = Result<RenderedChapter, Vec<Diagnostic>>;

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
    /// Reads the book's sources and renders every chapter.
    pub fn load(
        paths: BookPaths,
        options: RenderOptions,
        inputs: &Inputs,
    ) -> Result<Book, Diagnostics> {
        let texts = BookTexts::load(paths, &inputs.symbols, &inputs.levels)?;
        let mut book = Book {
            texts,
            options,
            chapters: Vec::new(),
            by_source: BTreeMap::new(),
        };
        book.render_chapters(inputs)?;
        Ok(book)
    }

    /// Renders every chapter of the summary and checks the links between them.
    fn render_chapters(&mut self, inputs: &Inputs) -> Result<(), Diagnostics> {
        let mut chapters = unrendered_chapters(&self.texts.summary);
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
        context: &Context<'_>,
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
    ) -> Context<'book> {
        Context {
            symbols: &inputs.symbols,
            glossary: &self.texts.glossary,
            levels: &inputs.levels,
            level_map: self.texts.level_map.as_ref(),
            chapters_by_title: &self.texts.chapters_by_title,
            reports: &inputs.reports,
            pages,
            chapters_dir: &self.texts.paths.chapters,
        }
    }

    fn render_chapter(&self, source: &str, context: &Context<'_>) -> ChapterResult {
        let text = self.texts.chapter(source).map_err(|error| vec![error])?;
        markdown::render(&text, source, &self.texts.chapter_label(source), context)
    }

    /// Re-renders one chapter after an edit. On success the book holds the new chapter and the
    /// caller writes the chapter's page and the search index (`outputs.rs`); on failure the book is unchanged.
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

    /// The chapter of a source path, if any.
    pub fn chapter(&self, source: &str) -> Option<&Chapter> {
        self.by_source
            .get(source)
            .map(|&index| &self.chapters[index])
    }

    /// The book's title, from SUMMARY.md.
    pub fn title(&self) -> String {
        self.texts
            .summary
            .title
            .clone()
            .unwrap_or_else(|| "Book".into())
    }

    /// SUMMARY.md.
    pub fn summary(&self) -> &Summary {
        &self.texts.summary
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
        let label = self.texts.chapter_label(&chapter.source);
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
        self.chapter(&check.target)
            .is_some_and(|chapter| chapter.rendered.anchors.contains(&check.anchor))
    }
}

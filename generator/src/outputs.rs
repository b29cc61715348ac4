//! Every file a build writes, made from the rendered book: the pages (`pages.rs`), the search
//! index (`search.rs`), the print page (`print.rs`), the game's level catalog and the code
//! stylesheet.

use std::collections::BTreeMap;

use crate::book::Book;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::inputs::Inputs;
use crate::pages::{Frame, has_names_page};
use crate::paths::{NAMES_PAGE, page_path};
use crate::print::{PRINT_PAGE, render_print};
use crate::search::search_index;

/// The search index.
pub const SEARCH_INDEX: &str = "search-index.json";
/// The generated code stylesheet.
pub const HIGHLIGHT_CSS: &str = "static/highlight.css";

impl Book {
    /// Every generated file, by path under the site, as bytes.
    pub fn outputs(&self, inputs: &Inputs) -> Result<BTreeMap<String, Vec<u8>>, Diagnostics> {
        let frame = Frame::new(self).map_err(|error| Diagnostics(vec![error]))?;
        let mut pages: Vec<(String, Result<String, Diagnostic>)> = self
            .chapters()
            .iter()
            .map(|chapter| {
                (
                    page_path(&chapter.source),
                    frame.render_chapter_page(chapter),
                )
            })
            .collect();
        pages.push(("index.html".into(), frame.render_home()));
        pages.push(("404.html".into(), frame.render_not_found()));
        pages.push(("play/index.html".into(), frame.render_play(&inputs.levels)));
        if has_names_page(self) {
            pages.push((NAMES_PAGE.into(), frame.render_names_page(&inputs.symbols)));
        }
        pages.push((PRINT_PAGE.into(), render_print(&frame)));
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
        files.insert(
            SEARCH_INDEX.into(),
            search_index(self, &inputs.levels).into_bytes(),
        );
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
        let chapter = self.chapter(source).expect("a chapter of the book");
        let page = Frame::new(self)
            .and_then(|frame| frame.render_chapter_page(chapter))
            .map_err(|error| Diagnostics(vec![error]))?;
        Ok((page_path(source), page.into_bytes()))
    }

    /// The print page, after [`Book::update_chapter`]: every chapter is on it.
    pub fn print_page(&self) -> Result<(String, Vec<u8>), Diagnostics> {
        let page = Frame::new(self)
            .and_then(|frame| render_print(&frame))
            .map_err(|error| Diagnostics(vec![error]))?;
        Ok((PRINT_PAGE.into(), page.into_bytes()))
    }

    /// The search index, as a file of the site.
    pub fn search_index_file(&self, inputs: &Inputs) -> (String, Vec<u8>) {
        (
            SEARCH_INDEX.into(),
            search_index(self, &inputs.levels).into_bytes(),
        )
    }
}

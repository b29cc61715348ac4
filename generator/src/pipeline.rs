//! One build, start to end: prepare the inputs, load and render the book, list what to copy.

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::book::{Book, BookPaths, Inputs, RenderOptions};
use crate::inputs::{self, Sources, Wanted};
use crate::site::{self, Copy};

/// What a build needs to know.
#[derive(Clone, Debug)]
pub struct BuildPlan {
    /// The book's sources.
    pub paths: BookPaths,
    /// Where inputs come from.
    pub sources: Sources,
    /// Rendering options.
    pub options: RenderOptions,
    /// Which costly inputs to prepare.
    pub wanted: Wanted,
}

impl BuildPlan {
    /// A plan for the book at `root`, with inputs from the repository or from `sources`.
    pub fn new(
        root: &Path,
        sources: Option<PathBuf>,
        options: RenderOptions,
        wanted: Wanted,
    ) -> BuildPlan {
        let sources = match sources {
            Some(folder) => Sources::Folder(folder),
            None => Sources::Repository(root.to_path_buf()),
        };
        BuildPlan {
            paths: BookPaths::under(root),
            sources,
            options,
            wanted,
        }
    }
}

/// A rendered book with its inputs and the folders to copy.
pub struct Built {
    /// The book.
    pub book: Book,
    /// Its inputs, kept for incremental updates.
    pub inputs: Inputs,
    /// Folders copied into the site.
    pub copies: Vec<Copy>,
}

/// Files beside the chapters that pages may use (images, data), not sources.
fn chapter_asset_skip(path: &str) -> bool {
    path.ends_with(".md")
        || path == "glossary.toml"
        || path == crate::level_map::LEVEL_MAP
        || path.split('/').any(|part| part.starts_with('.'))
}

/// Prepares inputs and renders the book.
pub fn render(plan: &BuildPlan) -> anyhow::Result<Built> {
    let (inputs, assets) = inputs::prepare(&plan.sources, plan.wanted)?;
    render_with(plan, inputs, assets.copies)
}

/// Renders the book from prepared inputs.
pub fn render_with(plan: &BuildPlan, inputs: Inputs, copies: Vec<Copy>) -> anyhow::Result<Built> {
    let book = Book::load(plan.paths.clone(), plan.options.clone(), &inputs)?;
    Ok(Built {
        book,
        inputs,
        copies: site_copies(&plan.paths, copies),
    })
}

/// The input folders plus the theme's static files and the files beside the chapters.
pub fn site_copies(paths: &BookPaths, mut copies: Vec<Copy>) -> Vec<Copy> {
    let static_folder = paths.theme.join("static");
    if static_folder.is_dir() {
        copies.push(Copy {
            from: static_folder,
            to: "static".into(),
            skip: site::keep_all,
        });
    }
    copies.push(Copy {
        from: paths.chapters.clone(),
        to: String::new(),
        skip: chapter_asset_skip,
    });
    copies
}

/// Writes a rendered book to `out`, swapping the whole site in.
pub fn write(built: &Built, out: &Path) -> anyhow::Result<()> {
    let files = built.book.outputs(&built.inputs)?;
    site::write_site(out, &files, &built.copies)
        .with_context(|| format!("writing the site to {}", out.display()))
}

//! `paros-book check`: everything `build` validates, writing nothing.

use paros_book::book::RenderOptions;
use paros_book::inputs::Wanted;
use paros_book::pipeline::{self, BuildPlan};

use super::Common;

/// Options of `check`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    common: Common,
}

/// Runs `check`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let root = args.common.root()?;
    let wanted = Wanted {
        api_docs: false,
        wasm: false,
    };
    let plan = BuildPlan::new(
        &root,
        args.common.sources.clone(),
        RenderOptions::default(),
        wanted,
    );
    let built = pipeline::render(&plan)?;
    // Rendering the pages checks the templates too.
    built.book.outputs(&built.inputs)?;
    // Writing nothing, it still refuses what `build` would refuse to copy.
    paros_book::site::check_copies(&built.copies)?;
    eprintln!(
        "paros-book: {} chapters check out",
        built.book.chapters().len()
    );
    Ok(())
}

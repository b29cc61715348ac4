//! `paros-book build`: renders the book into `site/`, swapped in whole.

use std::path::PathBuf;
use std::time::Instant;

use paros_book::book::RenderOptions;
use paros_book::inputs::Wanted;
use paros_book::pipeline::{self, BuildPlan};

use super::Common;

/// Options of `build`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    common: Common,
    /// Output folder (default: `site` under the root).
    #[arg(long)]
    out: Option<PathBuf>,
    /// URL path the site is published under; only the 404 page needs it.
    #[arg(long, default_value = "/")]
    site_url: String,
}

/// Runs `build`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let started = Instant::now();
    let root = args.common.root()?;
    let out = args.out.unwrap_or_else(|| root.join("site"));
    let options = RenderOptions {
        site_url: args.site_url,
        live_reload: false,
    };
    let wanted = Wanted {
        api_docs: true,
        wasm: args.common.sources.is_none(),
    };
    if wanted.wasm {
        // Before anything is served or written: a toolchain without the target is fixed or
        // named here, not found out as a compiler error halfway through the build.
        paros_book::wasm::ensure_target(&root)?;
    }
    let plan = BuildPlan::new(&root, args.common.sources.clone(), options, wanted);
    let built = pipeline::render(&plan)?;
    pipeline::write(&built, &out)?;
    eprintln!(
        "paros-book: wrote {} chapters to {} in {:.2} s",
        built.book.chapters().len(),
        out.display(),
        started.elapsed().as_secs_f64()
    );
    for game in paros_book::wasm::site_summary(&out)? {
        eprintln!("paros-book: {game}");
    }
    Ok(())
}

//! `paros-book serve`: build, serve on 127.0.0.1, rebuild on edits, reload open pages.

use std::net::IpAddr;

use paros_book::book::RenderOptions;
use paros_book::inputs::Wanted;
use paros_book::pipeline::BuildPlan;
use paros_book::server::{self, ServeConfig};

use super::Common;

/// Options of `serve`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    common: Common,
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 3000)]
    port: u16,
    /// Open the book in a browser.
    #[arg(long)]
    open: bool,
    /// Address to listen on; other machines can reach the book only if this says so.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
}

/// Runs `serve`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let root = args.common.root()?;
    let options = RenderOptions {
        site_url: "/".into(),
        live_reload: true,
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
    let out = root.join("target/book-serve/site");
    server::serve(
        ServeConfig {
            plan,
            out,
            host: args.host,
            port: args.port,
        },
        args.open,
    )
}

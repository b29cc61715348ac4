//! One module per subcommand.

pub mod bench;
pub mod build;
pub mod check;
pub mod serve;

use std::path::PathBuf;

use clap::Args as ClapArgs;

/// Options every subcommand takes.
#[derive(ClapArgs, Clone, Debug)]
pub struct Common {
    /// The book's root: the folder holding chapters/ and theme/ (a copy of the repository).
    #[arg(long, default_value = ".")]
    pub root: PathBuf,
    /// Read symbols, levels and reports from a prepared folder instead of building them.
    #[arg(long, hide = true)]
    pub sources: Option<PathBuf>,
}

impl Common {
    /// The root as an absolute path.
    pub fn root(&self) -> anyhow::Result<PathBuf> {
        use anyhow::Context;
        std::fs::canonicalize(&self.root)
            .with_context(|| format!("book root {}", self.root.display()))
    }
}

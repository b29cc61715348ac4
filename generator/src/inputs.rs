//! Where the book's inputs come from: paros-core's rustdoc JSON and HTML docs, the game's level
//! catalog and wasm package, and the simulator's reports.
//!
//! In a repository they are built with nested cargo calls, each with its own `--target-dir`
//! under `target/` so they never wait on the lock of the cargo that built paros-book. A
//! prepared folder (`--sources DIR`, for fixtures and benchmarks) holds the same inputs as files:
//! `symbols.json`, `levels.json`, `reports/<scenario>.json` and optional `api/` and `play/`.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

use crate::levels::{Level, LevelCatalog};
use crate::reports::{FolderReports, ReportCache, ReportSource};
use crate::site::{Copy, keep_all};
use crate::symbols::{Symbol, SymbolIndex};

/// What the chapters are checked against, built outside the book (rustdoc, the game, the simulator).
pub struct Inputs {
    /// paros-core's items.
    pub symbols: SymbolIndex,
    /// The game's levels.
    pub levels: LevelCatalog,
    /// Scenario reports.
    pub reports: ReportCache,
}

/// Where inputs come from.
#[derive(Clone, Debug)]
pub enum Sources {
    /// Built from the repository at this root.
    Repository(PathBuf),
    /// Read from a prepared folder.
    Folder(PathBuf),
}

/// Which parts to prepare.
#[derive(Clone, Copy, Debug)]
pub struct Wanted {
    /// The HTML API docs (not needed by `check`).
    pub api_docs: bool,
    /// The wasm package of the game (not needed by `check`).
    pub wasm: bool,
}

/// Folders copied into the site besides the rendered pages.
#[derive(Clone, Debug, Default)]
pub struct Assets {
    /// Copies into the site.
    pub copies: Vec<Copy>,
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Runs a nested cargo command, showing its output only when it fails.
fn run(mut command: Command, what: &str) -> anyhow::Result<()> {
    eprintln!("paros-book: {what}");
    let output = command
        .output()
        .with_context(|| format!("{what}: cannot start cargo"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr
            .lines()
            .rev()
            .take(40)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        bail!("{what} failed ({}):\n{}", output.status, tail.join("\n"));
    }
    Ok(())
}

/// The paros-core features the book documents: its whole public API, batched Accepts included
/// (the game's build leaves them off), without the negative controls' broken rules.
const CORE_FEATURES: [&str; 2] = ["--features", "accept-batch"];

/// Builds paros-core's rustdoc JSON and reads its symbols.
pub fn repository_symbols(root: &Path) -> anyhow::Result<SymbolIndex> {
    let target = root.join("target/book-rustdoc");
    let mut command = cargo();
    command
        .current_dir(root)
        .env("RUSTC_BOOTSTRAP", "1")
        .args(["rustdoc", "-q", "-p", "paros-core", "--lib"])
        .args(CORE_FEATURES)
        .arg("--target-dir")
        .arg(&target)
        .args(["--", "-Z", "unstable-options", "--output-format", "json"]);
    run(command, "building paros-core's rustdoc JSON")?;
    let json_path = target.join("doc/paros_core.json");
    let bytes =
        std::fs::read(&json_path).with_context(|| format!("reading {}", json_path.display()))?;
    let index = SymbolIndex::from_rustdoc_json(&bytes)
        .with_context(|| format!("reading {}", json_path.display()))?;
    Ok(index.with_source_root(root))
}

/// Builds paros-core's HTML API docs; returns the folder to publish as `api/`.
pub fn repository_api_docs(root: &Path) -> anyhow::Result<PathBuf> {
    let target = root.join("target/book-api");
    let mut command = cargo();
    command
        .current_dir(root)
        .args(["doc", "-q", "-p", "paros-core", "--no-deps"])
        .args(CORE_FEATURES)
        .arg("--target-dir")
        .arg(&target);
    run(command, "building paros-core's API docs")?;
    Ok(target.join("doc"))
}

/// Left out of the published API docs: cargo's lock file and build bookkeeping.
fn api_skip(path: &str) -> bool {
    path == ".lock" || path.ends_with(".json") && !path.contains('/')
}

/// Reads a prepared folder's symbols; their spans name files under the folder.
pub fn folder_symbols(folder: &Path) -> anyhow::Result<SymbolIndex> {
    let path = folder.join("symbols.json");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let symbols: Vec<Symbol> =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    Ok(SymbolIndex::from_symbols("paros_core", symbols).with_source_root(folder))
}

/// Reads a prepared folder's levels, if it has any.
pub fn folder_levels(folder: &Path) -> anyhow::Result<LevelCatalog> {
    let path = folder.join("levels.json");
    if !path.exists() {
        return Ok(LevelCatalog::default());
    }
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let levels: Vec<Level> =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    Ok(LevelCatalog::new(levels))
}

/// Prepares every input, and the folders to copy into the site.
pub fn prepare(sources: &Sources, wanted: Wanted) -> anyhow::Result<(Inputs, Assets)> {
    let mut assets = Assets::default();
    let inputs = match sources {
        Sources::Folder(folder) => {
            for (name, to) in [("api", "api"), ("play", "play")] {
                if folder.join(name).is_dir() {
                    assets.copies.push(Copy {
                        from: folder.join(name),
                        to: to.into(),
                        skip: keep_all,
                    });
                }
            }
            let reports: Box<dyn ReportSource> = Box::new(FolderReports {
                folder: folder.join("reports"),
            });
            Inputs {
                symbols: folder_symbols(folder)?,
                levels: folder_levels(folder)?,
                reports: ReportCache::new(reports),
            }
        }
        Sources::Repository(root) => {
            let symbols = repository_symbols(root)?;
            if wanted.api_docs {
                let docs = repository_api_docs(root)?;
                assets.copies.push(Copy {
                    from: docs,
                    to: "api".into(),
                    skip: api_skip,
                });
            }
            if wanted.wasm {
                assets.copies.extend(crate::wasm::build(root)?);
            }
            Inputs {
                symbols,
                levels: crate::game::catalog(),
                reports: ReportCache::new(crate::game::reports(root)),
            }
        }
    };
    inputs.levels.check_symbols(&inputs.symbols)?;
    Ok((inputs, assets))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_docs_leave_out_cargo_bookkeeping() {
        // Proves the lock file and rustdoc JSON are not published, and the docs are.
        assert!(api_skip(".lock"));
        assert!(api_skip("paros_core.json"));
        assert!(!api_skip("paros_core/index.html"));
        assert!(!api_skip("static.files/main.js"));
    }
}

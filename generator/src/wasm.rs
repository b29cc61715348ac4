//! The game's wasm package: cargo builds paros-play for `wasm32-unknown-unknown` with the `wasm`
//! profile, wasm-bindgen's library writes the JS glue, and `wasm-opt -Oz` (from npm's
//! `binaryen`) shrinks the module when it is installed. No separate install step exists.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

use crate::site::{Copy, keep_all};

/// The crate and the files the page loads.
const GAME_PACKAGE: &str = "paros-play";
const WASM_NAME: &str = "paros_play";

/// Builds the package; returns the folders to copy: `play/pkg` and the game's `widgets/www`.
pub fn build(root: &Path) -> anyhow::Result<Vec<Copy>> {
    if !root.join("widgets/Cargo.toml").is_file() {
        bail!(
            "cannot build the game: widgets/Cargo.toml (crate {GAME_PACKAGE}) not found under {}",
            root.display()
        );
    }
    let target = root.join("target/book-wasm");
    eprintln!("paros-book: building the game for wasm32");
    let output = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .current_dir(root)
        .args([
            "build",
            "-q",
            "-p",
            GAME_PACKAGE,
            "--lib",
            "--target",
            "wasm32-unknown-unknown",
            "--profile",
            "wasm",
            "--target-dir",
        ])
        .arg(&target)
        .output()
        .context("building the game: cannot start cargo")?;
    if !output.status.success() {
        bail!(
            "building the game for wasm32 failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let module = target.join(format!("wasm32-unknown-unknown/wasm/{WASM_NAME}.wasm"));
    let package = target.join("pkg");
    if package.exists() {
        std::fs::remove_dir_all(&package)
            .with_context(|| format!("clearing {}", package.display()))?;
    }
    std::fs::create_dir_all(&package).with_context(|| format!("creating {}", package.display()))?;
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(&module)
        .web(true)
        .and_then(|bindgen| {
            bindgen
                .omit_default_module_path(false)
                .remove_name_section(true)
                .typescript(false)
                .generate(&package)
        })
        .map_err(|error| anyhow::anyhow!("{error:#}"))
        .with_context(|| format!("running wasm-bindgen on {}", module.display()))?;
    optimise(root, &package.join(format!("{WASM_NAME}_bg.wasm")))?;
    let mut copies = vec![Copy {
        from: package,
        to: "play/pkg".into(),
        skip: keep_all,
    }];
    let www = root.join("widgets/www");
    if www.is_dir() {
        copies.push(Copy {
            from: www,
            to: "play".into(),
            skip: keep_all,
        });
    }
    Ok(copies)
}

/// `wasm-opt -Oz` from npm's binaryen, when installed in the repository or on PATH.
fn find_wasm_opt(root: &Path) -> Option<PathBuf> {
    let local = root.join("node_modules/.bin/wasm-opt");
    if local.is_file() {
        return Some(local);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|folder| folder.join("wasm-opt"))
        .find(|candidate| candidate.is_file())
}

fn optimise(root: &Path, module: &Path) -> anyhow::Result<()> {
    let Some(wasm_opt) = find_wasm_opt(root) else {
        return Ok(());
    };
    let optimised = module.with_extension("opt.wasm");
    let status = Command::new(&wasm_opt)
        .args([
            "-Oz",
            "--enable-bulk-memory",
            "--enable-nontrapping-float-to-int",
            "--enable-sign-ext",
            "--enable-mutable-globals",
            "-o",
        ])
        .arg(&optimised)
        .arg(module)
        .status()
        .with_context(|| format!("running {}", wasm_opt.display()))?;
    if status.success() {
        std::fs::rename(&optimised, module)
            .with_context(|| format!("replacing {}", module.display()))?;
    } else {
        eprintln!("paros-book: wasm-opt failed ({status}); keeping the unoptimised module");
        let _ = std::fs::remove_file(&optimised);
    }
    Ok(())
}

//! The game's wasm package: cargo builds paros-play for `wasm32-unknown-unknown` with the `wasm`
//! profile, wasm-bindgen's library writes the JS glue, and `wasm-opt -Oz` (from npm's
//! `binaryen`) shrinks the module when it is installed. No separate install step exists: like
//! wasm-pack, [`ensure_target`] adds the wasm32 target with rustup when the toolchain lacks it
//! (rustup installs a toolchain file's targets only when it installs the toolchain itself).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

use crate::site::{Copy, keep_all};

/// The crate and the files the page loads.
const GAME_PACKAGE: &str = "paros-play";
const WASM_NAME: &str = "paros_play";

/// The target the game compiles to.
pub const TARGET: &str = "wasm32-unknown-unknown";

/// The command that installs [`TARGET`].
pub const ADD_TARGET: &str = "rustup target add wasm32-unknown-unknown";

/// What to do about the wasm32 target before building the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetStep {
    /// It is installed: build.
    Build,
    /// It is missing and rustup is here: add it, saying so.
    Add,
    /// It is missing and nothing here can add it: stop, naming the command to run.
    Stop,
}

/// Decides what to do from whether the target is installed and whether rustup is on hand.
pub fn target_step(installed: bool, rustup: bool) -> TargetStep {
    match (installed, rustup) {
        (true, _) => TargetStep::Build,
        (false, true) => TargetStep::Add,
        (false, false) => TargetStep::Stop,
    }
}

/// Whether the toolchain that builds the repository at `root` has the wasm32 standard library.
fn target_installed(root: &Path) -> anyhow::Result<bool> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let output = Command::new(rustc)
        .current_dir(root)
        .args(["--print", "sysroot"])
        .output()
        .context("cannot run rustc to find its sysroot")?;
    if !output.status.success() {
        bail!(
            "`rustc --print sysroot` failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let sysroot = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
    Ok(sysroot.join("lib/rustlib").join(TARGET).is_dir())
}

fn rustup_present() -> bool {
    Command::new("rustup")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success())
}

/// Makes sure the game can be compiled: adds the wasm32 target with rustup when it is missing,
/// or fails with one line naming the command to run.
pub fn ensure_target(root: &Path) -> anyhow::Result<()> {
    let installed = target_installed(root)?;
    // rustup is looked for only when the target is missing.
    let rustup = !installed && rustup_present();
    match target_step(installed, rustup) {
        TargetStep::Build => Ok(()),
        TargetStep::Add => add_target(root),
        TargetStep::Stop => bail!(
            "the Rust toolchain has no {TARGET} target, which the game needs, and rustup is not \
             here to add it: run `{ADD_TARGET}` (or install that target your toolchain's way), \
             then run paros-book again"
        ),
    }
}

fn add_target(root: &Path) -> anyhow::Result<()> {
    eprintln!("paros-book: the toolchain has no {TARGET} target; running `{ADD_TARGET}`");
    let output = Command::new("rustup")
        .current_dir(root)
        .args(["target", "add", TARGET])
        .output()
        .context("cannot run rustup")?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        bail!(
            "`{ADD_TARGET}` failed ({}): {}; run it yourself, then run paros-book again",
            output.status,
            stderr.trim().lines().last().unwrap_or("")
        );
    }
    Ok(())
}

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
            TARGET,
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
    let module = target.join(format!("{TARGET}/wasm/{WASM_NAME}.wasm"));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_target_is_added_with_rustup_or_stops_the_build() {
        // Proves the three cases: installed builds, missing with rustup adds it, missing without
        // rustup stops before building.
        assert_eq!(target_step(true, true), TargetStep::Build);
        assert_eq!(target_step(true, false), TargetStep::Build);
        assert_eq!(target_step(false, true), TargetStep::Add);
        assert_eq!(target_step(false, false), TargetStep::Stop);
    }
}

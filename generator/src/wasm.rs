//! The game's wasm package: one module per world ([`paros_play::MODULES`]: Act I's single
//! decree, and the replicated log of every later act), so a reader loads only the module the
//! level in front of them plays on. For each, cargo builds paros-play for
//! `wasm32-unknown-unknown` with the `wasm` profile and only that world's feature, wasm-bindgen's
//! library writes the JS glue (without the name section) into `play/pkg/<module>/`, and
//! `wasm-opt` (from npm's `binaryen`) shrinks the module when it is installed and that pays
//! once gzipped. [`ModuleSize`] measures each against [`BUDGET_GZIPPED`]. No separate install step exists: like
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

/// Builds the package; returns the folders to copy: `play/pkg` (a folder per module) and the
/// game's `widgets/www`.
pub fn build(root: &Path) -> anyhow::Result<Vec<Copy>> {
    if !root.join("widgets/Cargo.toml").is_file() {
        bail!(
            "cannot build the game: widgets/Cargo.toml (crate {GAME_PACKAGE}) not found under {}",
            root.display()
        );
    }
    let target = root.join("target/book-wasm");
    let packages = target.join("pkg");
    if packages.exists() {
        std::fs::remove_dir_all(&packages)
            .with_context(|| format!("clearing {}", packages.display()))?;
    }
    for module in paros_play::MODULES {
        build_module(root, &target, module)?;
    }
    let mut copies = vec![Copy {
        from: packages,
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

/// Builds one world's module into `target/pkg/<module>`.
fn build_module(root: &Path, target: &Path, module: &str) -> anyhow::Result<()> {
    eprintln!("paros-book: building the game's {module} module for wasm32");
    let output = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .current_dir(root)
        .args([
            "build",
            "-q",
            "-p",
            GAME_PACKAGE,
            "--lib",
            "--no-default-features",
            "--features",
            module,
            "--target",
            TARGET,
            "--profile",
            "wasm",
            "--target-dir",
        ])
        .arg(target)
        .output()
        .context("building the game: cannot start cargo")?;
    if !output.status.success() {
        bail!(
            "building the game's {module} module for wasm32 failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let wasm = target.join(format!("{TARGET}/wasm/{WASM_NAME}.wasm"));
    let package = target.join("pkg").join(module);
    std::fs::create_dir_all(&package).with_context(|| format!("creating {}", package.display()))?;
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(&wasm)
        .web(true)
        .and_then(|bindgen| {
            bindgen
                .omit_default_module_path(false)
                .remove_name_section(true)
                .typescript(false)
                .generate(&package)
        })
        .map_err(|error| anyhow::anyhow!("{error:#}"))
        .with_context(|| format!("running wasm-bindgen on {}", wasm.display()))?;
    optimise(
        root,
        &package.join(format!("{WASM_NAME}_bg.wasm")),
        &target.join("wasm-opt").join(module),
    )
}

/// Where npm's `binaryen` package puts `wasm-opt`, under the repository or on PATH.
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

/// The passes run on the module: `-O2` without inlining functions into their one caller.
/// Binaryen's size levels inline every function that has one caller, whatever its size, which
/// shrinks the raw module and grows the gzipped one: measured on the log module with binaryen
/// 132, `-O2`, `-O3`, `-Os` and `-Oz` each added 14 to 19 KB gzipped, and `-O1` saved 2 KB.
/// With that inlining off (`--one-caller-inline-max-function-size 0`), `-O2` saves 4.4 KB
/// gzipped, 2.7 KB more than `-O1` on the log module and 1.3 KB more on the one-value module.
const WASM_OPT_PASSES: &[&str] = &[
    "-O2",
    "--one-caller-inline-max-function-size",
    "0",
    "--enable-bulk-memory",
    "--enable-nontrapping-float-to-int",
    "--enable-sign-ext",
    "--enable-mutable-globals",
    // Sections only tools read: wasm-bindgen has used the target features by now, and no
    // browser reads either (0.3 KB gzipped on the log module).
    "--strip-producers",
    "--strip-target-features",
    // Runs the passes again while they still shrink the module (0.1 KB gzipped on the log
    // module, for some seconds more of build).
    "--converge",
];

/// What a build without `wasm-opt` costs, as measured with [`WASM_OPT_PASSES`].
const WITHOUT_WASM_OPT: &str = "about 4 KB gzipped (30 KB raw)";

/// Runs `wasm-opt` on `module` when it is installed, and keeps its output only when that is
/// smaller gzipped; says what it did, or that it was not found and what that costs. The module
/// kept is remembered in `cache` by the bytes it came from, so an unchanged game is not
/// optimised again (wasm-opt takes a minute).
fn optimise(root: &Path, module: &Path, cache: &Path) -> anyhow::Result<()> {
    let Some(wasm_opt) = find_wasm_opt(root) else {
        eprintln!(
            "paros-book: wasm-opt not found (`npm install binaryen` in the repository puts it in \
             node_modules/.bin); the game's module is left as wasm-bindgen wrote it, \
             {WITHOUT_WASM_OPT} larger"
        );
        return Ok(());
    };
    let input = std::fs::read(module).with_context(|| format!("reading {}", module.display()))?;
    let cached = cache.join(format!("{:016x}.wasm", cache_key(&input, &wasm_opt)));
    if cached.is_file() {
        std::fs::copy(&cached, module)
            .with_context(|| format!("copying {} to {}", cached.display(), module.display()))?;
        return Ok(());
    }
    let optimised = module.with_extension("opt.wasm");
    let status = Command::new(&wasm_opt)
        .args(WASM_OPT_PASSES)
        .arg("-o")
        .arg(&optimised)
        .arg(module)
        .status()
        .with_context(|| format!("running {}", wasm_opt.display()))?;
    if !status.success() {
        eprintln!("paros-book: wasm-opt failed ({status}); keeping the unoptimised module");
        let _ = std::fs::remove_file(&optimised);
        return Ok(());
    }
    let before = ModuleSize::of(&input);
    let after = ModuleSize::of_file(&optimised)?;
    if after.gzipped < before.gzipped {
        eprintln!("paros-book: wasm-opt: the game's module from {before} to {after}");
        std::fs::rename(&optimised, module)
            .with_context(|| format!("replacing {}", module.display()))?;
    } else {
        eprintln!(
            "paros-book: wasm-opt made the game's module {after}, not smaller than {before} \
             gzipped; keeping the module wasm-bindgen wrote"
        );
        std::fs::remove_file(&optimised)
            .with_context(|| format!("removing {}", optimised.display()))?;
    }
    remember(module, cache, &cached)
}

/// What the cached result of optimising `input` depends on.
fn cache_key(input: &[u8], wasm_opt: &Path) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (input, wasm_opt, WASM_OPT_PASSES).hash(&mut hasher);
    hasher.finish()
}

/// Keeps only the latest module in `cache`, as `entry`.
fn remember(module: &Path, cache: &Path, entry: &Path) -> anyhow::Result<()> {
    if cache.exists() {
        std::fs::remove_dir_all(cache).with_context(|| format!("clearing {}", cache.display()))?;
    }
    std::fs::create_dir_all(cache).with_context(|| format!("creating {}", cache.display()))?;
    std::fs::copy(module, entry)
        .with_context(|| format!("copying {} to {}", module.display(), entry.display()))?;
    Ok(())
}

/// Where the game's `module` lands in a built site.
pub fn site_module(module: &str) -> String {
    format!("play/pkg/{module}/{WASM_NAME}_bg.wasm")
}

/// The most one of the game's modules may weigh gzipped, in bytes, with every level of its
/// world in it: what a reader downloads to play any level.
pub const BUDGET_GZIPPED: u64 = 250_000;

/// A module's size as served: raw, and gzipped at the best level (as `gzip -9`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModuleSize {
    /// Bytes on disk.
    pub raw: u64,
    /// Bytes once gzipped.
    pub gzipped: u64,
}

impl ModuleSize {
    /// Measures `bytes`.
    pub fn of(bytes: &[u8]) -> ModuleSize {
        use std::io::Write;
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder
            .write_all(bytes)
            .expect("writing into a Vec cannot fail");
        let gzipped = encoder.finish().expect("writing into a Vec cannot fail");
        ModuleSize {
            raw: bytes.len() as u64,
            gzipped: gzipped.len() as u64,
        }
    }

    /// Measures the file at `path`.
    pub fn of_file(path: &Path) -> anyhow::Result<ModuleSize> {
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        Ok(ModuleSize::of(&bytes))
    }

    /// Whether it fits [`BUDGET_GZIPPED`].
    pub fn within_budget(self) -> bool {
        self.gzipped <= BUDGET_GZIPPED
    }
}

impl std::fmt::Display for ModuleSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} gzipped ({} raw)",
            kilobytes(self.gzipped),
            kilobytes(self.raw)
        )
    }
}

/// `217.4 KB`: bytes in thousands, one decimal.
pub fn kilobytes(bytes: u64) -> String {
    format!("{}.{} KB", bytes / 1000, bytes % 1000 / 100)
}

/// The summary line of each game module in a built site; none when the site has no game.
pub fn site_summary(site: &Path) -> anyhow::Result<Vec<String>> {
    let mut lines = Vec::new();
    for module in paros_play::MODULES {
        let path = site_module(module);
        if !site.join(&path).is_file() {
            continue;
        }
        let size = ModuleSize::of_file(&site.join(&path))?;
        let verdict = if size.within_budget() {
            "within"
        } else {
            "OVER"
        };
        lines.push(format!(
            "game module {path}: {size}, {verdict} its budget of {} gzipped",
            kilobytes(BUDGET_GZIPPED)
        ));
    }
    Ok(lines)
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

    /// Bytes that gzip cannot shrink: a linear congruential sequence's high bytes.
    fn incompressible(length: usize) -> Vec<u8> {
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        (0..length)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (state >> 56) as u8
            })
            .collect()
    }

    #[test]
    fn a_module_over_its_gzipped_budget_is_reported_over() {
        // Proves the budget judges the gzipped size, not the raw one: a large module that
        // compresses well is within it, a smaller one that does not compress is over it.
        let compressible = ModuleSize::of(&vec![7u8; 2 * BUDGET_GZIPPED as usize]);
        assert!(compressible.raw > BUDGET_GZIPPED && compressible.within_budget());
        let dense = ModuleSize::of(&incompressible(BUDGET_GZIPPED as usize + 1_000));
        assert!(dense.gzipped > BUDGET_GZIPPED, "{dense}");
        assert!(!dense.within_budget());
    }

    #[test]
    fn a_site_summary_names_the_module_its_size_and_the_budget() {
        let site = std::env::temp_dir().join(format!("paros-wasm-summary-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&site);
        assert!(
            site_summary(&site).unwrap().is_empty(),
            "a site without the game"
        );
        let module = site.join(site_module("log"));
        std::fs::create_dir_all(module.parent().unwrap()).unwrap();
        std::fs::write(&module, incompressible(260_000)).unwrap();
        let lines = site_summary(&site).unwrap();
        std::fs::remove_dir_all(&site).unwrap();
        let [line] = lines.as_slice() else {
            panic!("one module, one line: {lines:?}");
        };
        assert!(
            line.starts_with("game module play/pkg/log/paros_play_bg.wasm: 26"),
            "{line}"
        );
        assert!(
            line.contains("(260.0 KB raw), OVER its budget of 250.0 KB gzipped"),
            "{line}"
        );
    }

    #[test]
    fn kilobytes_are_thousands_with_one_decimal() {
        assert_eq!(kilobytes(217_389), "217.3 KB");
        assert_eq!(kilobytes(999), "0.9 KB");
        assert_eq!(kilobytes(250_000), "250.0 KB");
    }
}

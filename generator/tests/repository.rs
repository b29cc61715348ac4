//! The book against the real repository: paros-core's rustdoc JSON (built by nested cargo), the
//! game's catalog, the simulator's scenario names and the wasm package.
//!
//! Slower than `tests/fixtures.rs`: the first run compiles paros-core's docs and the game for
//! wasm32 into `target/book-rustdoc` and `target/book-wasm`; later runs reuse them.

use std::path::{Path, PathBuf};

use paros_book::book::{Book, BookPaths, Inputs, RenderOptions};
use paros_book::reports::{ReportCache, ReportSource};
use paros_book::symbols::{Resolution, SymbolIndex};
use paros_sim::report::{Mode, Report, Verdict};
use paros_sim::scenarios::BookMode;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn url(index: &SymbolIndex, target: &str) -> String {
    match index.resolve(target) {
        Resolution::Found(symbol) => index.url(symbol),
        other => panic!("{target}: {other:?}"),
    }
}

/// Reports for every scenario the simulator knows, without running them: a PASS for each name
/// `input_hash` accepts, nothing for the others.
struct NamesOnly;

impl ReportSource for NamesOnly {
    /// A blank report in the mode the book runs the scenario in, so figures that only one mode
    /// counts are checked against the right one.
    fn report(&self, scenario: &str) -> anyhow::Result<Option<Report>> {
        let Ok(found) = paros_sim::scenarios::find(scenario) else {
            return Ok(None);
        };
        let (mode, verdict) = match found.book_mode {
            BookMode::Exhaustive => (Mode::Exhaustive, Verdict::Pass),
            BookMode::Simulation { .. } => (Mode::Simulation, Verdict::Incomplete),
        };
        Ok(
            paros_sim::scenarios::input_hash(scenario).map(|hash| Report {
                input_hash: hash,
                ..Report::empty(scenario, "checked by name only", mode, verdict)
            }),
        )
    }
}

#[test]
fn rustdoc_json_of_paros_core_gives_rustdoc_urls() {
    // Proves the pinned toolchain's JSON is read and items land on rustdoc's pages and anchors,
    // methods included (they are not in rustdoc's `paths`).
    let index = paros_book::inputs::repository_symbols(&repository()).expect("rustdoc JSON");
    assert_eq!(index.crate_name, "paros_core");
    assert_eq!(url(&index, "Acceptor"), "paros_core/struct.Acceptor.html");
    assert_eq!(
        url(&index, "Acceptor::on_prepare"),
        "paros_core/struct.Acceptor.html#method.on_prepare"
    );
    assert_eq!(
        url(&index, "promise_rule"),
        "paros_core/fn.promise_rule.html"
    );
    assert_eq!(
        url(&index, "Message::Prepare"),
        "paros_core/enum.Message.html#variant.Prepare"
    );
    assert_eq!(
        url(&index, "QuorumSystem"),
        "paros_core/trait.QuorumSystem.html"
    );
    assert!(
        url(&index, "QuorumSystem::is_phase1_quorum")
            .starts_with("paros_core/trait.QuorumSystem.html#")
    );
    assert!(matches!(
        index.resolve("Acceptor::no_such_method"),
        Resolution::Unknown { .. }
    ));

    // Every chapter of the real book resolves its symbols, protocol names, levels and scenario
    // names (the scenarios themselves run in `paros-book build`), and every level the symbols
    // its words name.
    let inputs = Inputs {
        symbols: index,
        levels: paros_book::game::catalog(),
        reports: ReportCache::new(Box::new(NamesOnly)),
    };
    assert!(inputs.levels.len() >= 6, "the game's catalog lists Act I");
    inputs
        .levels
        .check_symbols(&inputs.symbols)
        .expect("every symbol a level names is in paros-core");
    let book = Book::load(
        BookPaths::under(&repository()),
        RenderOptions::default(),
        &inputs,
    )
    .unwrap_or_else(|errors| panic!("the book does not check against the code:\n{errors}"));
    assert!(book.chapters().len() >= 3);
    let files = book.outputs(&inputs).expect("every page renders");
    let play = String::from_utf8(files["play/index.html"].clone()).unwrap();
    assert!(
        play.contains(r#"<div id="paros-play">"#)
            && play.contains(r#"data-level="act1/choose-a-value""#)
    );
    // The browser's catalog: every level with the module that plays it, and the toggles.
    let catalog: serde_json::Value = serde_json::from_slice(&files["play/levels.json"]).unwrap();
    let levels = catalog["levels"].as_array().unwrap();
    assert_eq!(levels.len(), inputs.levels.len());
    assert_eq!(levels[0]["id"], "act1/choose-a-value");
    assert_eq!(levels[0]["module"], "one-value");
    assert!(
        levels
            .iter()
            .all(|level| paros_play::MODULES.contains(&level["module"].as_str().unwrap())),
        "every level names a module the build makes"
    );
    assert_eq!(
        catalog["automations"].as_array().unwrap().len(),
        paros_play::Automation::ALL.len()
    );
}

#[test]
fn the_game_builds_for_the_browser() {
    // Proves `build` makes the wasm package itself, a module per world: cargo for wasm32, then
    // wasm-bindgen's library with the web target, so each module loads with a default `init()`.
    let copies = paros_book::wasm::build(&repository()).expect("the wasm build");
    let packages = copies
        .iter()
        .find(|copy| copy.to == "play/pkg")
        .expect("a play/pkg copy");
    for module in paros_play::MODULES {
        let package = packages.from.join(module);
        let glue = std::fs::read_to_string(package.join("paros_play.js")).unwrap();
        assert!(
            glue.contains("as default"),
            "the web target exports init() as the default"
        );
        assert!(
            glue.contains("paros_play_bg.wasm"),
            "the default module path is kept"
        );
        let wasm = std::fs::read(package.join("paros_play_bg.wasm")).unwrap();
        assert_eq!(&wasm[..4], b"\0asm");
    }
    assert!(
        copies
            .iter()
            .any(|copy| copy.to == "play" && copy.from.join("mount.js").is_file()),
        "widgets/www is published"
    );
}

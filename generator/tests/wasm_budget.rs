//! The game's wasm modules against their budget: every level of every act must load in at most
//! `BUDGET_GZIPPED` bytes gzipped, so each world's module must fit it. Builds the package the
//! way `paros-book build` does (cargo for wasm32 into `target/book-wasm`, one module per world,
//! wasm-bindgen, and wasm-opt when installed, kept only when it makes a module smaller gzipped,
//! so a machine without it measures the larger modules). `widgets/API.md` ("What the module
//! spends its bytes on") says where the bytes go.

use std::path::Path;

use paros_book::wasm::{self, BUDGET_GZIPPED, ModuleSize};

#[test]
fn every_game_module_fits_its_gzipped_budget() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let copies = wasm::build(root).expect("the wasm build");
    let packages = copies
        .iter()
        .find(|copy| copy.to == "play/pkg")
        .expect("a play/pkg copy");
    for module in paros_play::MODULES {
        let path = packages.from.join(module).join("paros_play_bg.wasm");
        let size = ModuleSize::of_file(&path).unwrap();
        eprintln!("{module}/paros_play_bg.wasm: {size}");
        assert!(
            size.within_budget(),
            "the game's {module} module is {size}, over its budget of {} gzipped; \
             widgets/API.md says where its bytes go",
            wasm::kilobytes(BUDGET_GZIPPED)
        );
    }
}

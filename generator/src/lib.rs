//! paros-book: turns `chapters/` and `theme/` into the field guide's static site, and keeps the
//! book honest against the code: symbol links resolve against paros-core's rustdoc JSON, level
//! embeds against the game's catalog, and "proven" sections come from the simulator's reports.
//!
//! The binary's subcommands (`build`, `check`, `serve`) are thin; the work is here so tests can
//! drive it on fixture books. The modules form a stack, each importing only from those below
//! it (ARCHITECTURE.md lists the layers): inputs at the bottom, then the directives, then
//! Markdown rendering and the book, then the outputs.

pub mod book;
pub mod confine;
pub mod diagnostic;
pub mod directive;
pub mod directives;
pub mod game;
pub mod glossary;
pub mod highlight;
pub mod html;
pub mod inputs;
pub mod level_map;
pub mod levels;
pub mod links;
pub mod markdown;
pub mod outputs;
pub mod pages;
pub mod paths;
pub mod pipeline;
pub mod print;
pub mod reports;
pub mod search;
pub mod sections;
pub mod server;
pub mod site;
pub mod summary;
pub mod symbols;
pub mod synthetic;
pub mod templates;
pub mod texts;
pub mod verdict;
pub mod wasm;

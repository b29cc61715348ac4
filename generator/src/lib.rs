//! paros-book: turns `chapters/` and `theme/` into the field guide's static site, and keeps the
//! book honest against the code: symbol links resolve against paros-core's rustdoc JSON, level
//! embeds against the game's catalog, and "proven" sections come from the simulator's reports.
//!
//! The binary's subcommands (`build`, `check`, `serve`) are thin; the work is here so tests can
//! drive it on fixture books.

pub mod book;
pub mod confine;
pub mod diagnostic;
pub mod embeds;
pub mod game;
pub mod glossary;
pub mod highlight;
pub mod inputs;
pub mod level_map;
pub mod levels;
pub mod links;
pub mod markdown;
pub mod pages;
pub mod pipeline;
pub mod reports;
pub mod search;
pub mod server;
pub mod site;
pub mod summary;
pub mod symbols;
pub mod synthetic;
pub mod templates;
pub mod wasm;

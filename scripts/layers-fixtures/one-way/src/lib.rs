//! One direction: `node/state.rs` <- `node/mod.rs` <- `node/vote.rs`, and `top.rs` above all.
//! The facade's re-exports, test code, comments and strings are no edges.
mod node;
mod top;

pub use node::{Node, Vote};

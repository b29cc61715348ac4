//! A parent that uses an item its child defines, while the child names the parent's type.
pub mod node;

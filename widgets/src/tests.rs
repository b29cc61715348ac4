//! Unit tests of the engine's pieces; the levels are played end to end in `tests/levels.rs`.

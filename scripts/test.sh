#!/usr/bin/env bash
# Runs every check and test of paros, on a fresh machine as on a developer's: it installs what
# it needs (the wasm target, Debian's Chromium, the browser tests' npm packages) when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "toolchain (pinned in rust-toolchain.toml)"
rustup show active-toolchain >/dev/null 2>&1 || rustup toolchain install
rustup target add wasm32-unknown-unknown >/dev/null

step "format"
cargo fmt --all --check

step "lints"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "API docs"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked

step "paros-play's modules import one way (no cycle)"
python3 scripts/widgets-layers.py

step "unit, conformance, scenario and fixture tests"
cargo test --workspace --locked

if [ -x tests/e2e/run.sh ]; then
  step "browser tests (headless Chromium)"
  tests/e2e/run.sh
fi

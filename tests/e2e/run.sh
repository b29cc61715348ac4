#!/usr/bin/env bash
# Browser tests of paros play: builds the site with `paros-book build` into a temporary folder,
# then runs the Playwright tests (node's test runner) in Debian's headless Chromium against it.
# Installs what is missing on a fresh machine: the chromium package and the npm packages.
#
#   tests/e2e/run.sh                       build, then test
#   PAROS_E2E_SITE=DIR tests/e2e/run.sh    test an already built site in DIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

if [ ! -x /usr/bin/chromium ]; then
  echo "e2e: installing Debian's chromium"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
fi

if [ ! -d "$here/node_modules/playwright-core" ]; then
  echo "e2e: installing the npm packages (npm ci)"
  (cd "$here" && npm ci --no-audit --no-fund)
fi

if [ -z "${PAROS_E2E_SITE:-}" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  echo "e2e: building the site into $work/site"
  (cd "$root" && cargo run --release --locked -q -p paros-book -- build --out "$work/site")
  export PAROS_E2E_SITE="$work/site"
fi

for file in play/mount.js play/play.css play/levels.json \
  play/pkg/one-value/paros_play.js play/pkg/one-value/paros_play_bg.wasm \
  play/pkg/log/paros_play.js play/pkg/log/paros_play_bg.wasm \
  play/pkg/matchmaker/paros_play.js play/pkg/matchmaker/paros_play_bg.wasm; do
  if [ ! -f "$PAROS_E2E_SITE/$file" ]; then
    echo "e2e: the site has no $file: the build did not include the game" >&2
    exit 1
  fi
done

cd "$here"
# Not exec: the EXIT trap must still remove the temporary site.
node --test --test-concurrency=1 "$here"/*.test.js

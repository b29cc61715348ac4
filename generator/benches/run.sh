#!/usr/bin/env bash
# Benchmarks paros-book on synthetic books of 30 and 300 chapters (3,100 words, 10 Rust code
# blocks and 20 headings each): full build (median, peak memory), edit-to-reload (median) and
# the page's script size gzipped. Compiling paros-core and the game is not part of the figures.
# When mdBook 0.5.4 is installed (MDBOOK=/path/to/mdbook), it builds the same chapters too.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
cargo build --release -q -p paros-book
binary="${CARGO_TARGET_DIR:-$root/target}/release/paros-book"
"$binary" bench --folder target/book-bench --theme theme "$@"

if [[ -n "${MDBOOK:-}" ]]; then
  for count in 30 300; do
    book="target/book-bench/book-$count"
    printf '[book]\ntitle = "Synthetic"\nsrc = "chapters"\n[build]\nbuild-dir = "mdbook-out"\n' > "$book/book.toml"
    for run in 1 2 3; do
      /usr/bin/time -f "mdbook $count chapters: %e s, %M KB" "$MDBOOK" build "$book" 2>&1 >/dev/null | tail -1
    done
  done
fi

#!/usr/bin/env python3
"""Fails when cargo-mutants missed a mutant that sim/mutants-missed.md does not list.

Usage: scripts/mutants-missed.py sim/mutants-missed.md MISSED.txt...

Each MISSED.txt is a cargo-mutants `missed.txt` (one mutant a line, `FILE:LINE:COL: WHAT`).
A mutant is keyed by WHAT alone (`replace > with >= in promise_rule`): the function and the
mutation, not the file or the line, so the list survives code moving between files. The list
holds one key per line, in backquotes at the start of a table row: | `WHAT` | why |, with
each `|` of WHAT written `\\|`, as a Markdown table needs.
"""

import re
import sys

LOCATION = re.compile(r"^[^:]+:\d+:\d+: ")
LISTED = re.compile(r"^\|\s*`([^`]+)`\s*\|")


def key(line: str) -> str:
    """A missed.txt line without its file, line and column."""
    return LOCATION.sub("", line.strip(), count=1)


def listed(path: str) -> set[str]:
    with open(path, encoding="utf-8") as tracked:
        return {
            found.group(1).replace("\\|", "|")
            for found in map(LISTED.match, tracked)
            if found
        }


def main(args: list[str]) -> int:
    if len(args) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 1
    known = listed(args[0])
    unlisted = []
    for path in args[1:]:
        with open(path, encoding="utf-8") as missed:
            unlisted += [line.strip() for line in missed if line.strip() and key(line) not in known]
    for line in unlisted:
        print(f"missed, and not in {args[0]}: {line}")
    return 1 if unlisted else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

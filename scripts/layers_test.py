#!/usr/bin/env python3
"""Tests of scripts/layers.py on the small crates in scripts/layers-fixtures/: a planted circle
and a parent that uses its child's item are refused and named; a one-way crate passes, with
re-exports, test code, comments and strings counted as no edge.

Usage: python3 scripts/layers_test.py
"""

import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def run(fixture):
    result = subprocess.run(
        [sys.executable, os.path.join(HERE, "layers.py"), os.path.join(HERE, "layers-fixtures", fixture)],
        capture_output=True,
        text=True,
    )
    return result.returncode, result.stdout


class Layers(unittest.TestCase):
    def test_a_planted_circle_is_refused_and_named(self):
        code, out = run("circle")
        self.assertEqual(code, 1, out)
        self.assertIn("circle of 3 files: a.rs, b.rs, c.rs", out)
        self.assertIn("a.rs -> b.rs (by crate::b::B) -> c.rs (by crate::c::C) -> a.rs (by super::a)", out)

    def test_a_parent_using_its_childs_item_is_a_circle(self):
        code, out = run("parent-uses-child")
        self.assertEqual(code, 1, out)
        self.assertIn("node/mod.rs -> node/vote.rs (by vote::Vote) -> node/mod.rs (by super::Node)", out)

    def test_one_way_files_pass_in_layers(self):
        code, out = run("one-way")
        self.assertEqual(code, 0, out)
        self.assertIn("0: lib.rs, node/state.rs\n    1: node/mod.rs\n    2: node/vote.rs, top.rs", out)


if __name__ == "__main__":
    unittest.main()

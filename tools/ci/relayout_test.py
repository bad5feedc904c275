#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tools/ci/relayout_test.py — the rewrite rules of tools/ci/relayout.py on
small texts: an old path is rewritten where it stands as a path of its own,
never inside a longer one, and a rewritten text is left alone by a second
pass. Run by tools/ci/check_layout.sh (CI). Standard library only."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import relayout  # noqa: E402


def rw(text):
    return relayout.rewrite_text(text, relayout.path_rules())


class RewriteTest(unittest.TestCase):
    def test_labels_includes_and_paths(self):
        self.assertEqual(rw('deps = ["//tests/pipeline:test_util"]'), 'deps = ["//tests/async/pipeline:test_util"]')
        self.assertEqual(rw('#include "tests/handoff/handoff.h"'), '#include "tests/stress/handoff/handoff.h"')
        self.assertEqual(rw("see `tests/collectives/`."), "see `tests/cg/collectives/`.")
        self.assertEqual(rw("(tests/layering)"), "(tests/build/layering)")
        self.assertEqual(rw("@cgc//tests/consumer"), "@cgc//tests/build/consumer")

    def test_build_output_and_runfiles_roots(self):
        self.assertEqual(rw("bazel-bin/tests/sass/x"), "bazel-bin/tests/build/sass/x")
        self.assertEqual(rw("bazel-testlogs/tests/host/y"), "bazel-testlogs/tests/base/status/y")
        self.assertEqual(rw("$d.runfiles/cgc/tests/tools/z"), "$d.runfiles/cgc/tests/build/tools/z")

    def test_not_inside_a_longer_path_or_name(self):
        for text in ("bench/tools/check_chart.sh", "xtests/pipeline", "tests/pipelines", "my/tests/generic/a",
                     "tests/generic_x", "tests/tensor.old"):
            self.assertEqual(rw(text), text, text)

    def test_file_patterns(self):
        self.assertEqual(rw("tools/check_spdx.sh"), "tools/ci/check_spdx.sh")
        self.assertEqual(rw("tools/ptxdiff.sh OLD NEW"), "tools/ptx/ptxdiff.sh OLD NEW")
        self.assertEqual(rw("tools/bench_chart.py"), "bench/tools/bench_chart.py")
        self.assertEqual(rw('#include "bench/designs_release_elected.cuh"'),
                         '#include "bench/designs/release_elected.cuh"')

    def test_a_second_pass_changes_nothing(self):
        text = ('//tests/pipeline:a tools/check_chart.sh tools/test_summary.sh bench/designs_grid_flat.cu '
                'bazel-testlogs/tests/wide_tile/ tools/compile_time/common.h')
        once = rw(text)
        self.assertNotEqual(once, text)
        self.assertEqual(rw(once), once)

    def test_plan_moves_new_files_of_an_old_folder(self):
        moves = dict(relayout.plan(["tests/pipeline/new_test.c", "tests/cg/x.c", "tools/check_new.sh",
                                    "bench/designs_new.cu", "tools/setup.sh"]))
        self.assertEqual(moves, {
            "tests/pipeline/new_test.c": "tests/async/pipeline/new_test.c",
            "tools/check_new.sh": "tools/ci/check_new.sh",
            "bench/designs_new.cu": "bench/designs/new.cu",
        })


if __name__ == "__main__":
    unittest.main()

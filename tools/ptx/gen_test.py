#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tools/ptx/gen_test.py — the generator's own checks (tools/ptx/check_ptx_gen.sh
runs them): what a row becomes, the mbarrier naming rule, the data format's
errors. Python 3 standard library only."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402


def row(line, comment=()):
    return gen.Row([c.strip() for c in line.split(gen.SEP)], list(comment), "test:1")


class Forms(unittest.TestCase):
    def test_value_form_is_one_function_with_its_gate_and_ptx_line(self):
        out = gen.form_function(row("VALUE | cg_x_ | 78 | 90 | PURE | uint32_t | =r | void | mov.u32 %0, %%laneid; | -",
                                    ["The lane."]))
        self.assertIn("/* The lane.\n * mov.u32 %0, %laneid;   PTX ISA 7.8, sm_90 */\n", out)
        self.assertIn("CG_DEVICE_SM90 uint32_t cg_x_(void)\n{\n    CG_PTX_ISA_CHECK_(78);\n", out)
        self.assertIn('    CG_AT_SM90_(asm("mov.u32 %0, %%laneid;" : "=r"(d_));)\n    return d_;\n}\n', out)

    def test_void_form_without_operands_stays_extended_asm(self):
        out = gen.form_function(row("VOID | cg_f_ | 60 | 70 | VOLATILE | void | nanosleep.u32 0; | -"))
        self.assertIn('    asm volatile("nanosleep.u32 0;" :);\n', out)  # a colon: %% means %
        out = gen.form_function(row("VOID | cg_f_ | 60 | 70 | MEM | void | fence.acq_rel.gpu; | -"))
        self.assertIn('    asm volatile("fence.acq_rel.gpu;" : : : "memory");\n', out)

    def test_sm_columns_pick_attribute_and_gate(self):
        for sm, attr, gate in (("70", "CG_DEVICE ", None), ("80", "CG_DEVICE ", "CG_AT_SM80_("),
                               ("90a", "CG_DEVICE ", "CG_AT_MULTICAST_(")):
            out = gen.form_function(row("VOID | cg_f_ | 80 | %s | MEM | uint32_t a | op [%%0]; | \"r\"(a)" % sm))
            self.assertIn(attr + "void cg_f_(uint32_t a)", out)
            if gate:
                self.assertIn(gate + "asm volatile(", out)
            else:
                self.assertIn("    asm volatile(", out)

    def test_a_multi_line_block_is_one_literal_per_ptx_line(self):
        ptx = "{\\n\\t.reg .pred p;\\n\\tsetp.ne.b32 p, %1, 0;\\n\\t}"
        self.assertEqual(gen.ptx_literal(ptx, 4), '"{\\n\\t"\n    ".reg .pred p;\\n\\t"\n    "setp.ne.b32 p, %1, 0;\\n\\t"\n    "}"')
        self.assertEqual(gen.ptx_display(ptx), "{ .reg .pred p; setp.ne.b32 p, %1, 0; }")

    def test_bad_columns_are_refused(self):
        for line in ("VALUE | cg_f_ | 60 | 70 | MEM | void | x; | -",  # too few columns
                     "VOID | cg_f_ | 60 | 75 | MEM | void | x; | -",  # no such sm
                     "VOID | cg_f_ | 60 | 70 | WEAK | void | x; | -",  # no such flavor
                     "CALL | cg_f_ | 60 | 70 | MEM | void | x; | -"):  # no such shape
            with self.assertRaises(SystemExit):
                gen.form_function(row(line))


class MbarrierNames(unittest.TestCase):
    def test_names_follow_the_ptx_in_one_order(self):
        cases = {
            "mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1], %2;": "cg_mbarrier_ptx_arrive_n_release_cta_",
            "mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%0], %1;":
                "cg_mbarrier_ptx_arrive_tx_remote_release_cluster_",
            "{\\n\\t.reg .pred p;\\n\\t@p mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%0];\\n\\t}":
                "cg_mbarrier_ptx_arrive_remote_relaxed_cluster_if_",
            "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2, %3;":
                "cg_mbarrier_ptx_try_wait_parity_acquire_cta_hint_",
            "mbarrier.arrive_drop.noComplete.shared.b64 %0, [%1], %2;":
                "cg_mbarrier_ptx_arrive_drop_no_complete_sm80_",
        }
        for ptx, name in cases.items():
            self.assertEqual(gen.mbarrier_form_name(ptx), name, ptx)

    def test_a_row_named_otherwise_is_refused(self):
        with self.assertRaises(SystemExit):
            gen.form_function(row("VOID | cg_mbarrier_ptx_expect_tx_cta_ | 80 | 90 | VOLATILE | uint32_t addr, "
                                  "uint32_t tx | mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1; | "
                                  "\"r\"(addr), \"r\"(tx)"))


class DataFiles(unittest.TestCase):
    def read(self, text):
        with tempfile.TemporaryDirectory() as d:
            old = gen.ROOT
            gen.ROOT = d
            try:
                with open(os.path.join(d, "x_forms.tbl"), "w") as f:
                    f.write(text)
                return gen.read_table("x_forms.tbl")
            finally:
                gen.ROOT = old

    def test_head_notes_banners_and_row_comments(self):
        t = self.read("# SPDX-License-Identifier: BSD-3-Clause\n# The head.\n\n## A banner\n# Alone.\n\n"
                      "# Of the row.\nVOID | cg_f_ | 60 | 70 | MEM | void | x; | -\n")
        self.assertEqual(t.head, ["The head."])
        kinds = [k for k, _ in t.items]
        self.assertEqual(kinds, ["banner", "note", "row"])
        self.assertEqual(gen.rows(t)[0].comment, ["Of the row."])

    def test_every_checked_in_file_is_what_its_data_gives(self):
        for path, text in gen.outputs().items():
            with open(os.path.join(gen.ROOT, path)) as f:
                self.assertEqual(f.read(), text, path)


if __name__ == "__main__":
    unittest.main()

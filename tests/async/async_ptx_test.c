/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/async/async_ptx_test.c — CI, no GPU: each async/bulk.h and
 * async/copy.h wrapper emits exactly its PTX instruction form; the bulk path
 * of cg_memcpy_async is fence -> bulk copy -> expect_tx, in that order, with
 * nothing that could complete the phase early. Probes: async_probe.cu. */
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

TestSuite(async_ptx, .timeout = 30);

/* Each wrapper's one form, the copies' sizes, the bulk store's and the bulk
 * path's order, the staged copy's instructions: rows of async_ptx.tbl. */
Test(async_ptx, each_wrapper_emits_exactly_its_form)
{
    cgt_check_expectations("tests/async/async_probe.ptx", "tests/async/async_ptx.tbl");
}

/* Issue 34: in a debug build the alignment-stated copies check the promise
 * with an out-of-line report (a call, no printf in the copy's kernel); the
 * report prints and traps. */
Test(async_ptx, aligned_copies_report_out_of_line)
{
    char *ptx = cgt_ptx_read("tests/async/copy_debug_probe.ptx");
    static const char *kernels[] = {"cdt_staged_kernel", "cdt_bar_kernel", "cdt_thread_kernel"};
    for (int i = 0; i < 3; ++i) {
        char *body = cgt_ptx_function(ptx, kernels[i]);
        cr_expect_eq(cgt_count(body, "vprintf"), 0, "%s: no printf inline (the report is out of line)", kernels[i]);
        cr_expect_geq(cgt_count(body, "cg_async_report_aligned_"), 1, "%s: calls the aligned report", kernels[i]);
        free(body);
    }
    size_t found = cgt_expect_reports_print_and_trap(ptx, "cg_async_report_aligned_");
    cr_expect_geq(found, 1u, "the aligned report is a function of its own");
    free(ptx);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/async/async_ptx_test.c — CI, no GPU: each async/bulk.h and
 * async/copy.h wrapper emits exactly its PTX instruction form; the bulk path
 * of cg_memcpy_async is fence -> bulk copy -> expect_tx, in that order, with
 * nothing that could complete the phase early. Probes: async_probe.cu. */
#include <string.h>

#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

static const cgt_probe_t k_probes[] = {
    {"asyp_bulk_copy_g2s", "cg_bulk_copy_g2s"},
    {"asyp_bulk_copy_g2s_multicast",
     "cg_bulk_copy_g2s_multicast"},
    {"asyp_bulk_copy_s2g", "cg_bulk_copy_s2g"},
    {"asyp_bulk_commit_group", "cg_bulk_commit_group"},
    {"asyp_bulk_wait_group", "cp.async.bulk.wait_group"},
    {"asyp_bulk_wait_group_read", "cp.async.bulk.wait_group.read"},
    {"asyp_cp_async_4", "cg_cp_async_4"},
    {"asyp_cp_async_8", "cg_cp_async_8"},
    {"asyp_cp_async_16", "cg_cp_async_16"},
    {"asyp_cp_async_mbarrier_arrive", "cg_cp_async_mbarrier_arrive"},
    {"asyp_cp_async_wait_all", "cg_cp_async_wait_all"},
    {"asyp_memcpy_async_tx", "cg_bulk_copy_g2s"},
    {"asyp_memcpy_async_multicast_tx",
     "cg_bulk_copy_g2s_multicast"},
    {"asyp_elect_sync", "elect.sync"},
};

TestSuite(async_ptx, .timeout = 30);

Test(async_ptx, each_wrapper_emits_exactly_its_form)
{
    cgt_check_probe_table("tests/async/async_probe.ptx", k_probes, sizeof k_probes / sizeof k_probes[0]);
}

Test(async_ptx, cp_async_sizes_are_4_8_16)
{
    char *ptx = cgt_ptx_read("tests/async/async_probe.ptx");
    static const char *names[] = {"asyp_cp_async_4", "asyp_cp_async_8", "asyp_cp_async_16"};
    static const char *sizes[] = {"], 4;", "], 8;", "], 16;"};
    for (int i = 0; i < 3; ++i) {
        char *body = cgt_ptx_function(ptx, names[i]);
        cr_expect_eq(cgt_count(body, sizes[i]), 1, "%s copies %s", names[i], sizes[i]);
        free(body);
    }
    free(ptx);
}

Test(async_ptx, bulk_store_is_copy_then_commit)
{
    static const char *const order[] = {"cg_bulk_copy_s2g", "cg_bulk_commit_group", "cp.async.bulk.wait_group 0;"};
    char *ptx = cgt_ptx_read("tests/async/async_probe.ptx");
    char *ins = cgt_ptx_probe(ptx, "asyp_bulk_store");
    cgt_expect_in_order(ins, "bulk store: copy, commit, wait", order, 3);
    free(ins);
    free(ptx);
}

Test(async_ptx, memcpy_async_bulk_path_fences_copies_then_expects)
{
    char *ptx = cgt_ptx_read("tests/async/async_probe.ptx");
    char *ins = cgt_ptx_probe(ptx, "asyp_memcpy_async_block");
    static const char *const order[] = {"cg_fence_proxy_async_smem", "cg_bulk_copy_g2s",
                                        "cg_mbarrier_ptx_expect_tx_relaxed_cta_"};
    cgt_expect_in_order(ins, "bulk path: proxy fence, bulk copy, expect_tx", order, 3);
    cr_expect_eq(cgt_count_mnemonic(ins, "cg_bulk_copy_g2s"), 1, "one bulk copy");
    cr_expect_eq(cgt_count_mnemonic(ins, "cg_mbarrier_ptx_expect_tx_relaxed_cta_"), 1, "one expect_tx");
    /* fallback path: each thread waits for its own cp.async copies before it
     * returns (so its later arrive publishes them); no cp.async arrive-on the
     * barrier, which synccheck books as the thread's own arrival ("Missing
     * wait" at its real arrive), and no .noinc arrive, which would consume one
     * of the expected arrivals */
    cr_expect_gt(cgt_count_mnemonic(ins, "cp.async.wait_all"), 0, "cp.async path waits for its copies");
    cr_expect_eq(cgt_count(ins, "cp.async.mbarrier.arrive"), 0, "no cp.async arrive-on the barrier");
    cr_expect_eq(cgt_count(ins, ".noinc"), 0, "no .noinc arrive");
    /* the expect_tx is the only tx update of the call: no arrive_tx there */
    cr_expect_eq(cgt_count(ins, "mbarrier.arrive.expect_tx"), 0, "no arrive inside the copy call");
    free(ins);
    free(ptx);
}

/* The staged copy (issue 23). A 4-byte copy with aligned pointers is one
 * cp.async of 4: no byte load or store in the kernel's own code (the plain
 * form keeps the misaligned fallback out of line, a call the aligned path
 * never takes); with the alignment stated, the cp.async is all there is. */
static void expect_no_byte_copy(const char *ins, const char *name)
{
    cr_expect_eq(cgt_count(ins, ".u8 "), 0, "%s: byte loads/stores in the kernel:\n%s", name, ins);
    cr_expect_eq(cgt_count(ins, ".b8 "), 0, "%s: byte loads/stores in the kernel:\n%s", name, ins);
}

Test(async_ptx, staged_4_byte_copy_is_cp_async)
{
    char *ptx = cgt_ptx_read("tests/async/async_probe.ptx");
    char *ins = cgt_ptx_probe(ptx, "asyp_stage_plain4");
    cr_expect_gt(cgt_count(ins, "cp.async.ca.shared::cta.global "), 0, "plain 4-byte stage: no cp.async:\n%s", ins);
    cr_expect(strstr(ins, "], 4;") != NULL, "plain 4-byte stage: no 4-byte cp.async:\n%s", ins);
    expect_no_byte_copy(ins, "asyp_stage_plain4");
    cr_expect_eq(cgt_count(ins, "cp.async.commit_group;"), 1, "one commit per stage:\n%s", ins);
    free(ins);

    ins = cgt_ptx_probe(ptx, "asyp_stage_aligned4");
    cr_expect_eq(cgt_count(ins, "cp.async.ca.shared::cta.global "), 1, "aligned 4-byte stage: one cp.async:\n%s", ins);
    cr_expect_eq(cgt_count(ins, "cp.async.cg."), 0, "aligned 4-byte stage: no 16-byte cp.async:\n%s", ins);
    cr_expect(strstr(ins, "], 4;") != NULL, "aligned 4-byte stage: the cp.async copies 4 bytes:\n%s", ins);
    cr_expect_eq(cgt_count(ins, "call"), 0, "aligned 4-byte stage: no call:\n%s", ins);
    expect_no_byte_copy(ins, "asyp_stage_aligned4");
    free(ins);

    ins = cgt_ptx_probe(ptx, "asyp_stage_aligned16");
    cr_expect_eq(cgt_count(ins, "cp.async.cg.shared::cta.global "), 1, "aligned 16: one cp.async.cg:\n%s", ins);
    cr_expect_eq(cgt_count(ins, "cp.async.ca."), 0, "aligned 16: no narrower cp.async:\n%s", ins);
    cr_expect_eq(cgt_count(ins, "call"), 0, "aligned 16: no call:\n%s", ins);
    expect_no_byte_copy(ins, "asyp_stage_aligned16");
    cr_expect_eq(cgt_count(ins, "cp.async.wait_group 0;"), 1, "wait_prior(0):\n%s", ins);
    free(ins);
    free(ptx);
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

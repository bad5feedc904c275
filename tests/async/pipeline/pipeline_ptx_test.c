/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/async/pipeline/pipeline_ptx_test.c — CI, no GPU: each async/pipeline.h call
 * compiles to the mbarrier forms it promises, with the memory order, the
 * scope and the state space spelled out (.acquire/.release, .cta/.cluster,
 * shared::cta / shared::cluster), and to no other mbarrier, fence or copy
 * form. Probes: pipeline_probe.cu (release build).
 */
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

TestSuite(pipeline_ptx, .timeout = 30);

#define MAXF 4
typedef struct {
    const char *probe;
    const char *forms[MAXF]; /* each exactly once (at least once when `loop`) */
    int loop;                /* a loop over the stages: the compiler may unroll it */
} expect_t;

/* Every form the pipeline may emit: a probe emits those it lists, no others. */
static const char *const k_all[] = {
    "cg_mbarrier_ptx_init_",
    "cg_mbarrier_init_fence_cluster",
    "cg_mbarrier_ptx_try_wait_parity_acquire_cta_",
    "cg_mbarrier_ptx_try_wait_parity_acquire_cluster_",
    "cg_fence_proxy_async_smem",
    "cg_bulk_copy_g2s",
    "cg_bulk_copy_g2s_multicast",
    "cg_mbarrier_ptx_expect_tx_relaxed_cta_",
    "cg_mbarrier_ptx_arrive_tx_release_cta_",
    "cg_mbarrier_ptx_arrive_tx_remote_release_cluster_",
    "cg_mbarrier_ptx_arrive_release_cta_",
    "cg_mbarrier_ptx_arrive_remote_release_cluster_",
    "bar.warp.sync",
    /* the consumers' release to another CTA: restricted fence + relaxed arrive */
    "cg_fence_proxy_async_release_smem_cluster",
    "cg_mbarrier_ptx_arrive_remote_relaxed_cluster_",
    /* forms that must never appear: the unordered or default-scope ones */
    "mbarrier.try_wait.parity.shared::cta.b64",
    "mbarrier.try_wait.parity.shared.b64",
    "cg_mbarrier_ptx_arrive_sm80_",
    "cg_mbarrier_ptx_arrive_relaxed_cta_",
    "mbarrier.arrive.release.cta.shared::cluster.b64",
    "cg_fence_release_smem_cluster",
    "cg_mbarrier_ptx_test_wait_parity_acquire_cta_",
};

static const expect_t k_expect[] = {
    {"plp_producer_acquire",
     {"cg_mbarrier_ptx_try_wait_parity_acquire_cta_", "cg_fence_proxy_async_smem"}, 0},
    {"plp_producer_copy", {"cg_bulk_copy_g2s"}, 0},
    {"plp_memcpy_async",
     {"cg_mbarrier_ptx_expect_tx_relaxed_cta_",
      "cg_bulk_copy_g2s"}, 0},
    {"plp_producer_commit", {"cg_mbarrier_ptx_arrive_tx_release_cta_"}, 0},
    {"plp_producer_tail", {"cg_mbarrier_ptx_try_wait_parity_acquire_cta_"}, 1},
    {"plp_consumer_wait", {"cg_mbarrier_ptx_try_wait_parity_acquire_cta_"}, 0},
    {"plp_consumer_release", {"cg_mbarrier_ptx_arrive_release_cta_"}, 0},
    /* the warp releases: one bar.warp.sync on each of two paths (a block of
     * whole warps, a block with a partial last warp) */
    {"plp_consumer_release_warp", {"bar.warp.sync", "cg_mbarrier_ptx_arrive_release_cta_"}, 1},
    {"plp_cluster_producer_acquire",
     {"cg_mbarrier_ptx_try_wait_parity_acquire_cluster_", "cg_fence_proxy_async_smem"}, 0},
    {"plp_cluster_producer_copy",
     {"cg_bulk_copy_g2s_multicast"}, 0},
    {"plp_cluster_producer_commit", {"cg_mbarrier_ptx_arrive_tx_remote_release_cluster_"}, 0},
    {"plp_cluster_producer_tail", {"cg_mbarrier_ptx_try_wait_parity_acquire_cluster_"}, 1},
    {"plp_cluster_consumer_wait", {"cg_mbarrier_ptx_try_wait_parity_acquire_cluster_"}, 0},
    {"plp_cluster_consumer_release", {"cg_fence_proxy_async_release_smem_cluster", "cg_mbarrier_ptx_arrive_remote_relaxed_cluster_"}, 0},
    {"plp_cluster_consumer_release_warp", {"bar.warp.sync", "cg_fence_proxy_async_release_smem_cluster", "cg_mbarrier_ptx_arrive_remote_relaxed_cluster_"}, 1},
    /* the sliced cluster form */
    {"plp_cluster_producer_copy_slice",
     {"cg_bulk_copy_g2s_multicast"}, 0},
    {"plp_cluster_producer_commit_local", {"cg_mbarrier_ptx_arrive_tx_release_cta_"}, 0},
    {"plp_cluster_consumer_release_all", {"cg_fence_proxy_async_release_smem_cluster", "cg_mbarrier_ptx_arrive_remote_relaxed_cluster_"}, 1},
    {"plp_cluster_consumer_release_all_warp", {"bar.warp.sync", "cg_fence_proxy_async_release_smem_cluster", "cg_mbarrier_ptx_arrive_remote_relaxed_cluster_"}, 1},
    {"plp_cluster_consumer_release_all_whole_warp", {"bar.warp.sync", "cg_fence_proxy_async_release_smem_cluster", "cg_mbarrier_ptx_arrive_remote_relaxed_cluster_"}, 0},
};

static int listed(const expect_t *e, const char *form)
{
    for (int i = 0; i < MAXF && e->forms[i]; ++i)
        if (strcmp(e->forms[i], form) == 0)
            return 1;
    return 0;
}

Test(pipeline_ptx, each_call_emits_its_mbarrier_forms_with_order_and_scope)
{
    char *ptx = cgt_ptx_read("tests/async/pipeline/pipeline_probe.ptx");
    for (size_t i = 0; i < sizeof k_expect / sizeof k_expect[0]; ++i) {
        const expect_t *e = &k_expect[i];
        char *body = cgt_ptx_function(ptx, e->probe);
        char *ins = cgt_ptx_instructions(body);
        for (size_t f = 0; f < sizeof k_all / sizeof k_all[0]; ++f) {
            const size_t n = cgt_count_mnemonic(ins, k_all[f]);
            if (listed(e, k_all[f]) && e->loop)
                cr_expect_geq(n, 1, "%s: want at least one %s; instructions:\n%s", e->probe, k_all[f], ins);
            else if (listed(e, k_all[f]))
                cr_expect_eq(n, 1, "%s: want exactly one %s, found %zu; instructions:\n%s", e->probe, k_all[f], n,
                             ins);
            else
                cr_expect_eq(n, 0, "%s: unexpected %s (%zu); instructions:\n%s", e->probe, k_all[f], n, ins);
        }
        free(ins);
        free(body);
    }
    free(ptx);
}

/* Debug build: every blocking pipeline wait reads %globaltimer (the bound)
 * and can trap; the release build's waits do neither. */
Test(pipeline_ptx, debug_waits_are_bounded_release_waits_are_bare)
{
    static const char *const waits[] = {"plp_producer_acquire", "plp_producer_tail", "plp_consumer_wait",
                                        "plp_cluster_producer_acquire", "plp_cluster_producer_tail",
                                        "plp_cluster_consumer_wait"};
    char *dbg = cgt_ptx_read("tests/async/pipeline/pipeline_probe_debug.ptx");
    char *rel = cgt_ptx_read("tests/async/pipeline/pipeline_probe.ptx");
    for (size_t i = 0; i < sizeof waits / sizeof waits[0]; ++i) {
        char *d = cgt_ptx_function(dbg, waits[i]);
        char *r = cgt_ptx_function(rel, waits[i]);
        cgt_expect_bounded_wait(d, waits[i], 1, "cg_pipeline_report_deadlock_");
        cgt_expect_no_debug_code(r, waits[i]);
        free(d);
        free(r);
    }
    /* the report (a .func of its own, its name mangled: static) prints and traps */
    cr_expect_geq(cgt_expect_reports_print_and_trap(dbg, "cg_pipeline_report_deadlock_"), 1,
                  "no .func for cg_pipeline_report_deadlock_ in the debug PTX");
    free(dbg);
    free(rel);
}

/* The warp releases' order, the group copy's, init, the sliced warp
 * release's one predicated remote arrive per path, the slice copy's rank:
 * rows of pipeline_ptx.tbl. */
Test(pipeline_ptx, shapes_follow_the_table)
{
    cgt_check_expectations("tests/async/pipeline/pipeline_probe.ptx", "tests/async/pipeline/pipeline_ptx.tbl");
}

/* The sliced form's branches: the caller-declared whole-warp form has none
 * (no test of the block's shape, no loop); the per-thread form loops over
 * the mask (a branch back). */
Test(pipeline_ptx, sliced_release_branches_only_where_it_loops)
{
    char *ptx = cgt_ptx_read("tests/async/pipeline/pipeline_probe.ptx");
    char *ins = cgt_ptx_probe(ptx, "plp_cluster_consumer_release_all_whole_warp");
    cr_expect_eq(cgt_count_mnemonic(ins, "bra.uni") + cgt_count_mnemonic(ins, "bra"), 0,
                 "whole warp: no branch:\n%s", ins);
    free(ins);
    ins = cgt_ptx_probe(ptx, "plp_cluster_consumer_release_all");
    cr_expect_geq(cgt_count_mnemonic(ins, "bra.uni") + cgt_count_mnemonic(ins, "bra"), 1,
                  "the per-thread release loops over the mask:\n%s", ins);
    free(ins);
    free(ptx);
}

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

/* The warp releases: lane 0 alone arrives, after bar.warp.sync; the cluster
 * one puts the shared-memory-restricted proxy release fence between the sync
 * and the arrive, and predicates the remote arrive (no branch around it). */
Test(pipeline_ptx, warp_release_syncs_the_warp_before_the_arrive)
{
    static const char *const k[][4] = {
        {"plp_consumer_release_warp", "bar.warp.sync", "cg_mbarrier_ptx_arrive_release_cta_"},
        {"plp_cluster_consumer_release_warp", "bar.warp.sync", "cg_mbarrier_ptx_arrive_remote_relaxed_cluster_"},
        {"plp_cluster_consumer_release_warp", "bar.warp.sync", "cg_fence_proxy_async_release_smem_cluster",
         "cg_mbarrier_ptx_arrive_remote_relaxed_cluster_if_"},
    };
    char *ptx = cgt_ptx_read("tests/async/pipeline/pipeline_probe.ptx");
    for (size_t i = 0; i < sizeof k / sizeof k[0]; ++i) {
        char *ins = cgt_ptx_probe(ptx, k[i][0]);
        cgt_expect_in_order(ins, k[i][0], k[i] + 1, k[i][3] ? 3 : 2);
        free(ins);
    }
    free(ptx);
}

/* The group copy raises the expected bytes before it starts the copy. */
Test(pipeline_ptx, memcpy_async_expects_then_copies)
{
    static const char *const order[] = {"cg_mbarrier_ptx_expect_tx_relaxed_cta_", "cp.async.bulk.shared::cluster.global"};
    char *ptx = cgt_ptx_read("tests/async/pipeline/pipeline_probe.ptx");
    char *ins = cgt_ptx_probe(ptx, "plp_memcpy_async");
    cgt_expect_in_order(ins, "expect_tx comes before the copy", order, 2);
    free(ins);
    free(ptx);
}

/* init: 2 barriers per stage (a loop), and the cluster form's init fence. */
Test(pipeline_ptx, init_initializes_and_the_cluster_form_fences)
{
    char *ptx = cgt_ptx_read("tests/async/pipeline/pipeline_probe.ptx");
    char *a = cgt_ptx_probe(ptx, "plp_init_barriers");
    char *b = cgt_ptx_probe(ptx, "plp_init_barriers_cluster");
    cr_expect_geq(cgt_count_mnemonic(a, "mbarrier.init.shared::cta.b64"), 2, "init:\n%s", a);
    cr_expect_eq(cgt_count_mnemonic(a, "fence.mbarrier_init.release.cluster"), 0, "init:\n%s", a);
    cr_expect_geq(cgt_count_mnemonic(b, "mbarrier.init.shared::cta.b64"), 2, "cluster init:\n%s", b);
    cr_expect_eq(cgt_count_mnemonic(b, "fence.mbarrier_init.release.cluster"), 1, "cluster init:\n%s", b);
    free(a);
    free(b);
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

/* The sliced form's warp release: after bar.warp.sync over the active
 * lanes, ONE remote arrive instruction, predicated, aimed at a per-lane
 * address (one mapa of a rank from the lane id); a whole warp takes it
 * once (lane i for CTA i), a partial warp in a loop (lane k of the a lanes
 * the block gives the warp: ranks k, k + a, ...), so a partial warp still
 * covers every CTA of the mask (issue 26). The lanes come from the block's shape, never from
 * activemask (after divergence it names only the lanes of one group). */
Test(pipeline_ptx, sliced_warp_release_is_one_predicated_remote_arrive)
{
    char *ptx = cgt_ptx_read("tests/async/pipeline/pipeline_probe.ptx");
    static const char *const order[] = {"bar.warp.sync", "cg_fence_proxy_async_release_smem_cluster",
                                        "cg_mbarrier_ptx_arrive_remote_relaxed_cluster_if_"};
    char *ins = cgt_ptx_probe(ptx, "plp_cluster_consumer_release_all_warp");
    cgt_expect_in_order(ins, "the warp syncs, fences, then arrives (predicated)", order, 3);
    /* two paths: a whole warp (one predicated arrive, lane i for CTA i, no
     * loop) and a partial warp (the same instruction in a loop over ranks) */
    cr_expect_eq(cgt_count_mnemonic(ins, "cg_mbarrier_ptx_arrive_remote_relaxed_cluster_if_"), 2,
                 "one remote arrive instruction per path:\n%s", ins);
    cr_expect_eq(cgt_count_mnemonic(ins, "cg_smem_map_rank_addr"), 2, "one mapa per path (per-lane rank):\n%s",
                 ins);
    cr_expect(strstr(ins, "activemask.b32") == NULL && strstr(ins, "%laneid") != NULL && strstr(ins, "%ntid") != NULL,
              "the rank comes from the lane id, the lanes from the block's shape (no activemask):\n%s", ins);
    free(ins);
    /* the caller-declared whole-warp form: the whole-warp path alone, in the
     * same order, one arrive, one mapa, and no branch at all (no test of the
     * block's shape, no loop) */
    ins = cgt_ptx_probe(ptx, "plp_cluster_consumer_release_all_whole_warp");
    cgt_expect_in_order(ins, "whole warp: the warp syncs, fences, then arrives (predicated)", order, 3);
    cr_expect_eq(cgt_count_mnemonic(ins, "cg_smem_map_rank_addr"), 1, "whole warp: one mapa:\n%s", ins);
    cr_expect_eq(cgt_count_mnemonic(ins, "bra.uni") + cgt_count_mnemonic(ins, "bra"), 0,
                 "whole warp: no branch:\n%s", ins);
    free(ins);
    /* the per-thread form loops over the mask (a branch back) */
    ins = cgt_ptx_probe(ptx, "plp_cluster_consumer_release_all");
    cr_expect_geq(cgt_count_mnemonic(ins, "bra.uni") + cgt_count_mnemonic(ins, "bra"), 1,
                  "the per-thread release loops over the mask:\n%s", ins);
    free(ins);
    free(ptx);
}

/* The slice copy takes its slice from the CTA's rank in the cluster. */
Test(pipeline_ptx, slice_copy_reads_the_cluster_rank)
{
    char *ptx = cgt_ptx_read("tests/async/pipeline/pipeline_probe.ptx");
    char *ins = cgt_ptx_probe(ptx, "plp_cluster_producer_copy_slice");
    cr_expect(strstr(ins, "%cluster_ctarank") != NULL, "reads %%cluster_ctarank:\n%s", ins);
    free(ins);
    free(ptx);
}

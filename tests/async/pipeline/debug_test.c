/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/async/pipeline/debug_test.c — GPU, debug build (kernels in
 * debug_kernels.cu, -DCG_DEBUG=1 and a 0.3 s wait bound): a pipeline wait
 * that can never complete must print a report naming the pipeline, the stage
 * and the phase, then trap, within bounded time:
 *   - the producer commits more bytes than its copies deliver;
 *   - a consumer waits on a stage nobody fills (block and cluster forms);
 *   - the producer acquires a stage nobody released;
 *   - sliced cluster form: consumers release to their own CTA only, so each
 *     producer's acquire waits for the peer's release forever.
 * Each test is its own process (Criterion), so the trapped context dies with
 * it; cgt_gpu_exclusive runs one trapping kernel on the GPU at a time, and
 * every test skips under compute-sanitizer (memcheck counts each trapping
 * thread as an error).
 */
#include <stdio.h>

#include "tests/async/pipeline/pipeline_test_util.h"
#include "tests/support/cgtest.h"

TestSuite(pipeline_debug, .timeout = 180);

static const uint32_t *g_src;

/* A 4 KiB source of copies (every byte 0x5a) for the launchers that take one. */
static void alloc_src(void)
{
    uint32_t *src = NULL;
    CGT_CUDA(cudaMalloc((void **)&src, 4096));
    CGT_CUDA(cudaMemset(src, 0x5a, 4096));
    g_src = src;
}

static int launch_overcommit(void) { return plt_debug_overcommit(g_src); }

CGT_TRAP_TEST(pipeline_debug, commit_of_more_bytes_than_copied_traps,
              "commit of 512 bytes for a 256-byte copy: the consumer's wait is bounded", alloc_src, "over-commit",
              launch_overcommit, "cgc: cg_pipeline_consumer_wait: deadlock", "pipeline at shared 0x",
              "2 stages of 256 bytes", "stage 0", "parity 0 of its full barrier")

CGT_TRAP_TEST(pipeline_debug, wait_on_a_stage_nobody_fills_traps, "consumer wait on a stage nobody fills: bounded",
              NULL, "unfilled stage", plt_debug_unfilled, "cgc: cg_pipeline_consumer_wait: deadlock",
              "pipeline at shared 0x", "3 stages of 256 bytes", "stage 0", "parity 0 of its full barrier")

CGT_TRAP_TEST(pipeline_debug, acquire_of_a_stage_nobody_released_traps,
              "producer acquire of a stage nobody released: bounded", NULL, "unreleased stage", plt_debug_unreleased,
              "cgc: cg_pipeline_producer_acquire: deadlock", "pipeline at shared 0x", "1 stages of 256 bytes",
              "stage 0", "parity 0 of its empty barrier")

CGT_TRAP_TEST(pipeline_debug, cluster_wait_on_a_stage_nobody_fills_traps,
              "cluster-form consumer wait on a stage nobody multicasts: bounded", NULL, "cluster unfilled stage",
              plt_debug_cluster_unfilled, "cgc: cg_pipeline_cluster_consumer_wait: deadlock", "pipeline at shared 0x",
              "stage 0", "parity 0 of its full barrier", "block 1,0,0")

static int launch_sliced_unreleased(void) { return plt_debug_sliced_unreleased(g_src); }

CGT_TRAP_TEST(pipeline_debug, sliced_acquire_missing_a_peer_release_traps,
              "sliced-form producer acquire missing the peer CTA's release: bounded", alloc_src,
              "sliced missing peer release", launch_sliced_unreleased,
              "cgc: cg_pipeline_cluster_producer_acquire: deadlock", "pipeline at shared 0x", "1 stages of 256 bytes",
              "stage 0", "parity 0 of its empty barrier")

CGT_TRAP_TEST(pipeline_debug, whole_warp_release_in_a_partial_warp_traps,
              "caller-declared whole-warp release in a block of 48 threads: misuse reported", NULL,
              "whole-warp release, partial warp", plt_debug_whole_warp_partial,
              "cgc: cg_pipeline_cluster_consumer_release_all_whole_warp: misuse", "48 threads, not a multiple of 32",
              "block 0,0,0")

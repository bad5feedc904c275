/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/stress/contracts/contracts_test.c — GPU, release build: the contracts that
 * issue 26 found unsaid (kernels in contracts_kernels.cu).
 *   - cg_pipeline_cluster_consumer_release_all_warp from a partial warp (4
 *     and 3 lanes, clusters of 8 and 16: fewer lanes than the mask's CTAs):
 *     the warp arrives once on every CTA of the mask, so the sliced pipeline
 *     runs to the end and every word of every stage use is right. (Before:
 *     lane i arrived for CTA i only, CTAs 4..7 were short one arrival a use
 *     and the producers waited forever; this test then times out.)
 *   - cg_pipeline_consumer_release_warp from the partial last warp of a
 *     block (block form). The lanes of a branch are not a warp for the warp
 *     forms (they name the lanes that exist, not __activemask(): after
 *     divergence a warp reaches the call in several groups, and one election
 *     per group arrived several times: tests/async/pipeline's delayed consumers
 *     ended in a launch failure on an H200); a branch uses the per-thread
 *     releases.
 *   - cg_thread_group_tiled_partition of a tile of at most n threads: a
 *     coalesced group (cg_thread_group_as_coalesced non-NULL) with the
 *     tile's threads, rank and meta rank/size, as C++ CG's
 *     tiled_partition(thread_group, n) in the same kernel. (Before: the
 *     tile itself, kind tile, as_coalesced NULL.)
 */
#include <stdio.h>
#include <stdlib.h>

#include "tests/stress/contracts/contracts.h"
#include "tests/support/cgtest.h"

TestSuite(contracts, .timeout = 120);

static uint32_t *random_source(uint32_t uses, uint32_t **host)
{
    const size_t words = (size_t)uses * 256u;
    uint64_t s = cgt_seed();
    uint32_t *h = malloc(words * 4u), *d = NULL;
    cr_assert(h != NULL, "host allocation failed");
    for (size_t k = 0; k < words; ++k)
        h[k] = (uint32_t)cgt_rand(&s);
    CGT_CUDA(cudaMalloc((void **)&d, words * 4u));
    CGT_CUDA(cudaMemcpy(d, h, words * 4u, cudaMemcpyHostToDevice));
    *host = h;
    return d;
}

/* Runs one launch with a 20 s deadline (a missing arrival hangs the
 * producers) and checks the counts. */
static void finish(const char *what, int launched, uint32_t *bad, uint64_t want_seen)
{
    cr_assert_eq(launched, 0, "%s: launch failed: %s", what, cudaGetErrorString((cudaError_t)launched));
    cudaError_t e = cgt_stream_wait_deadline(20.0);
    cr_assert_neq(e, cudaErrorNotReady, "%s: the kernel did not finish in 20 s (a release short of an arrival?)",
                  what);
    CGT_SYNC();
    uint32_t h[2];
    CGT_CUDA(cudaMemcpy(h, bad, sizeof h, cudaMemcpyDeviceToHost));
    cr_expect_eq(h[0], 0u, "%s: %u words differ from the source", what, h[0]);
    cr_expect_eq((uint64_t)h[1], want_seen, "%s: %u words checked, want %llu", what, h[1],
                 (unsigned long long)want_seen);
}

/* The kernels' two counters on the device, zeroed: [0] words that differ
 * from the source, [1] words checked. */
static uint32_t *counters(void)
{
    uint32_t *bad = NULL;
    CGT_CUDA(cudaMalloc((void **)&bad, 2 * sizeof(uint32_t)));
    CGT_CUDA(cudaMemset(bad, 0, 2 * sizeof(uint32_t)));
    return bad;
}

static void sliced_case(uint32_t csize, uint32_t lanes)
{
    cgt_require_sm90();
    cgt_skip_under_sanitizer("racecheck", "racecheck has no model of a remote mbarrier arrive before a multicast refill");
    const uint32_t uses = 200;
    uint32_t *h = NULL, *bad = counters();
    uint32_t *src = random_source(uses, &h);
    char what[96];
    snprintf(what, sizeof what, "sliced pipeline, cluster %u, consumer warp of %u lanes", csize, lanes);
    int st = ctr_sliced_partial_warp(src, uses, csize, lanes, bad);
    if (st == -1)
        cr_skip_test("%s: the device cannot hold one cluster of this shape", what);
    finish(what, st, bad, (uint64_t)csize * uses * 256u);
    CGT_CUDA_FREE(src, bad);
    free(h);
}

Test(contracts, release_all_warp_from_a_4_lane_warp_cluster_8) { sliced_case(8, 4); }
Test(contracts, release_all_warp_from_a_3_lane_warp_cluster_16) { sliced_case(16, 3); }
Test(contracts, release_all_warp_from_a_full_warp_cluster_8) { sliced_case(8, 32); }

static void block_case(const char *what, uint32_t first, uint32_t lanes)
{
    cgt_require_sm90();
    cgt_skip_under_sanitizer("racecheck", "racecheck has no model of a warp's mbarrier arrive before a bulk copy refills the stage");
    const uint32_t uses = 300;
    uint32_t *h = NULL, *bad = counters();
    uint32_t *src = random_source(uses, &h);
    finish(what, ctr_block_partial_warp(src, uses, first, lanes, bad), bad, 2ull * uses * 256u);
    CGT_CUDA_FREE(src, bad);
    free(h);
}

Test(contracts, release_warp_from_a_partial_warp_block_form)
{
    block_case("block pipeline, consumer warp of 5 lanes", 0, 5);
}

Test(contracts, tiled_partition_of_a_small_tile_is_coalesced_as_cxx_cg)
{
    cgt_require_sm90();
    static const uint32_t shapes[][3] = {{64, 8, 16}, {64, 8, 8}, {64, 4, 32}, {40, 16, 32}, {24, 32, 32}, {96, 1, 2}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        const uint32_t threads = shapes[s][0], tile = shapes[s][1], n = shapes[s][2];
        uint32_t *out = NULL, h[6 * 96];
        CGT_CUDA(cudaMalloc((void **)&out, sizeof h));
        CGT_CUDA(cudaMemset(out, CGT_POISON_BYTE, sizeof h));
        CGT_CUDA((cudaError_t)ctr_small_tile_partition(threads, tile, n, out));
        CGT_SYNC();
        CGT_CUDA(cudaMemcpy(h, out, 6u * threads * 4u, cudaMemcpyDeviceToHost));
        for (uint32_t t = 0; t < threads; ++t) {
            const uint32_t *o = h + 6u * t;
            /* the tile's threads that exist (a partial last tile of a partial warp) */
            const uint32_t first = t - t % tile, size = threads - first < tile ? threads - first : tile;
            const uint32_t meta = (t / tile) * 256u + (threads + tile - 1u) / tile;
            cr_expect_eq(o[0], 1u, "block %u, tile %u, n %u, thread %u: not a coalesced group", threads, tile, n, t);
            cr_expect_eq(o[1], o[3], "block %u, tile %u, n %u, thread %u: size %u, C++ CG %u", threads, tile, n, t,
                         o[1], o[3]);
            cr_expect_eq(o[2], o[4], "block %u, tile %u, n %u, thread %u: rank %u, C++ CG %u", threads, tile, n, t,
                         o[2], o[4]);
            cr_expect_eq(o[1], size, "block %u, tile %u, n %u, thread %u: size %u, want %u", threads, tile, n, t,
                         o[1], size);
            cr_expect_eq(o[5], meta, "block %u, tile %u, n %u, thread %u: meta rank/size 0x%x, want 0x%x", threads,
                         tile, n, t, o[5], meta);
        }
        CGT_CUDA(cudaFree(out));
    }
}

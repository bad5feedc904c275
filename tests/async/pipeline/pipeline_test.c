/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/async/pipeline/pipeline_test.c — GPU: async/pipeline.h under load (kernels
 * in pipeline_kernels.cu). Every word of every stage use is compared on the
 * device with the hash the host wrote at that source word (fresh seed per
 * run), with random producer and consumer delays; the host checks that no
 * word mismatched, that exactly the expected number of words was checked, and
 * prints the first mismatch (block, cluster rank, use, stage, word, thread,
 * value read, value wanted) when one did.
 *
 *   warp_specialized_*   stages 1..8 x stage sizes 16 B .. the shared-memory
 *                        limit x 1..4 consumer warps, releases per warp and
 *                        per thread; and millions of stage uses (wrap-around)
 *   block_form_*         every thread produces and consumes (libcu++ shape),
 *                        odd and 3-D block shapes
 *   cluster_multicast_*  clusters of 2..16, a random root, multicast masks
 *                        (all, random subsets, one CTA)
 *   sliced_cluster_*     the sliced form (every CTA loads a slice of each
 *                        stage and multicasts it): clusters 2/4/8/16 x
 *                        stages 1..4 x 100000 uses, every CTA checks every
 *                        word; consumer warps 1..7, per-thread releases,
 *                        masks that leave CTAs out; the caller-declared
 *                        whole-warp release
 * CGT_QUICK=1 (sanitizer runs) shortens every stream, launches 8 blocks (1
 * cluster) instead of one per SM, and runs a third of the first matrix.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/async/pipeline/pipeline_test_util.h"
#include "tests/support/cgtest.h"

TestSuite(pipeline, .timeout = 600);

static int quick(void)
{
    const char *q = getenv("CGT_QUICK");
    return q != NULL && q[0] != '\0' && q[0] != '0';
}

/* The source (PLT_SRC_WORDS words of plt_hash(i + seed)) and a report. */
typedef struct {
    uint32_t seed;
    uint32_t *src;
    plt_report_t *rep;
} fixture_t;

/* Why the ring tests do not run under racecheck (they run plain, under
 * memcheck, synccheck and initcheck, every word of every stage use checked). */
#define PLT_RACECHECK_NO_MODEL                                                                                  \
    "a stage is reused when the consumers' release (an arrive on its empty mbarrier, one lane per warp or a "  \
    "remote arrive from another CTA) is acquired by the producer's wait, which then fences the async proxy "  \
    "and issues the next bulk copy; racecheck does not follow that edge to the bulk copy's async-proxy "      \
    "writes and reports each consumer read against them (measured on an H100, 2026-11-24)"

/* Every ring test's start: skips without an sm_90 device and under racecheck
 * (PLT_RACECHECK_NO_MODEL), then the source and a report. */
static fixture_t setup(void)
{
    cgt_require_sm90();
    cgt_skip_under_sanitizer("racecheck", PLT_RACECHECK_NO_MODEL);
    fixture_t f;
    uint64_t s = cgt_seed();
    f.seed = (uint32_t)cgt_rand(&s);
    uint32_t *h = malloc((size_t)PLT_SRC_WORDS * 4u);
    cr_assert(h != NULL, "host allocation of the source failed");
    for (uint32_t i = 0; i < PLT_SRC_WORDS; ++i)
        h[i] = plt_hash(i + f.seed);
    CGT_CUDA(cudaMalloc((void **)&f.src, (size_t)PLT_SRC_WORDS * 4u));
    CGT_CUDA(cudaMemcpy(f.src, h, (size_t)PLT_SRC_WORDS * 4u, cudaMemcpyHostToDevice));
    free(h);
    CGT_CUDA(cudaMalloc((void **)&f.rep, sizeof(plt_report_t)));
    return f;
}

static void teardown(fixture_t *f)
{
    CGT_CUDA(cudaFree(f->src));
    CGT_CUDA(cudaFree(f->rep));
}

static void clear_report(fixture_t *f) { CGT_CUDA(cudaMemset(f->rep, 0, sizeof(plt_report_t))); }

/* Synchronize, read the report, and expect no mismatch and exactly
 * `want_checked` words checked; `what` names the configuration. */
static int expect_report(fixture_t *f, unsigned long long want_checked, const char *what)
{
    CGT_SYNC();
    plt_report_t r;
    CGT_CUDA(cudaMemcpy(&r, f->rep, sizeof r, cudaMemcpyDeviceToHost));
    cr_expect_eq(r.bad, 0u,
                 "%s: %u words wrong; first: block %u, cluster rank %u, use %u, stage %u, word %u%s, thread %u: "
                 "read 0x%08x, want 0x%08x",
                 what, r.bad, r.block, r.rank, r.use, r.stage, r.word,
                 r.word == 0xffffffffu ? " (acquire returned the wrong stage pointer)" : "", r.thread, r.got,
                 r.want);
    cr_expect_eq(r.checked, want_checked, "%s: %llu words checked, want %llu", what, r.checked, want_checked);
    return r.bad == 0 && r.checked == want_checked;
}

static size_t smem_limit(void) { return cgt_device_props()->sharedMemPerBlockOptin; }

/* The largest stage (multiple of 16) that `stages` stages fit in. */
static uint32_t max_stage_bytes(uint32_t stages)
{
    size_t per = (smem_limit() - 16u * stages) / stages;
    per &= ~(size_t)15u;
    return per > 0xFFFF0u ? 0xFFFF0u : (uint32_t)per;
}

static uint32_t clamp_u32(uint64_t v, uint32_t lo, uint32_t hi) { return v < lo ? lo : v > hi ? hi : (uint32_t)v; }

// --- warp-specialized ------------------------------------------------------

/* Blocks per launch: one per SM, 8 under CGT_QUICK (sanitizers are slow). */
static unsigned grid_blocks(unsigned per_sm)
{
    return quick() ? 8u : per_sm * (unsigned)cgt_device_props()->multiProcessorCount;
}

Test(pipeline, warp_specialized_stages_sizes_warps)
{
    fixture_t f = setup();
    const unsigned blocks = grid_blocks(1);
    const uint32_t sizes[] = {16, 48, 240, 1024, 4112, 16384, 65536, 0 /* the largest that fits */};
    const size_t nsizes = sizeof sizes / sizeof sizes[0];
    const uint64_t budget = quick() ? (256u << 10) : (4u << 20); /* bytes streamed per block */
    int bad = 0, runs = 0;
    for (uint32_t stages = 1; stages <= 8; ++stages)
        for (uint32_t warps = 1; warps <= 4; ++warps)
            for (size_t si = 0; si < nsizes; ++si) {
                if (quick() && (stages + warps + si) % 3u != 0) /* a third of the matrix */
                    continue;
                const uint32_t bytes = sizes[si] ? sizes[si] : max_stage_bytes(stages);
                if (bytes > max_stage_bytes(stages))
                    continue;
                const uint32_t uses = clamp_u32(budget / bytes, 2u * stages + 5u, quick() ? 256u : 2048u);
                const uint32_t per_warp = (uint32_t)((stages + warps + si) & 1u);
                char what[200];
                snprintf(what, sizeof what,
                         "warp-specialized: %u stages of %u B, %u consumer warps, release per %s, %u uses x %u "
                         "blocks",
                         stages, bytes, warps, per_warp ? "warp" : "thread", uses, blocks);
                clear_report(&f);
                CGT_CUDA((cudaError_t)plt_ws(blocks, f.src, f.seed, stages, bytes, uses, warps, per_warp,
                                             PLT_DELAY_CONSUMERS | PLT_DELAY_PRODUCER, f.rep));
                bad += !expect_report(&f, (unsigned long long)blocks * uses * (bytes / 4u), what);
                ++runs;
            }
    cr_log_info("warp-specialized: %d configurations, %d wrong (seed printed above)", runs, bad);
    cr_expect_gt(runs, 0, "warp-specialized: no configuration fit on this device: nothing was tested");
    teardown(&f);
}

Test(pipeline, warp_specialized_millions_of_stage_uses)
{
    fixture_t f = setup();
    const unsigned blocks = grid_blocks(2);
    const uint32_t uses = quick() ? 1024u : (1u << 16);
    static const uint32_t stage_counts[] = {1, 2, 3, 4, 8};
    for (size_t i = 0; i < sizeof stage_counts / sizeof stage_counts[0]; ++i) {
        const uint32_t stages = stage_counts[i], bytes = (i & 1u) ? 64u : 16u, warps = 1u + (uint32_t)(i % 4u);
        char what[200];
        snprintf(what, sizeof what, "wrap-around: %u stages of %u B, %u consumer warps, %u uses x %u blocks (%llu)",
                 stages, bytes, warps, uses, blocks, (unsigned long long)uses * blocks);
        clear_report(&f);
        CGT_CUDA((cudaError_t)plt_ws(blocks, f.src, f.seed, stages, bytes, uses, warps, (uint32_t)(i & 1u),
                                     (i % 3u == 0) ? PLT_DELAY_CONSUMERS : PLT_DELAY_NONE, f.rep));
        expect_report(&f, (unsigned long long)blocks * uses * (bytes / 4u), what);
    }
    teardown(&f);
}

// --- plain block -----------------------------------------------------------

Test(pipeline, block_form_every_thread_produces_and_consumes)
{
    fixture_t f = setup();
    const unsigned blocks = grid_blocks(1);
    static const unsigned shapes[][3] = {{32, 1, 1}, {33, 1, 1}, {96, 1, 1}, {160, 1, 1},
                                         {1024, 1, 1}, {8, 4, 3}, {7, 5, 3}, {16, 16, 2}};
    static const uint32_t sizes[] = {16, 256, 4096, 65536};
    static const uint32_t stage_counts[] = {1, 2, 3, 4, 8};
    const uint64_t budget = quick() ? (128u << 10) : (2u << 20);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        for (size_t c = 0; c < sizeof stage_counts / sizeof stage_counts[0]; ++c) {
            const uint32_t stages = stage_counts[c];
            const uint32_t bytes = sizes[(s + c) % 4u];
            if (bytes > max_stage_bytes(stages))
                continue;
            const uint32_t uses = clamp_u32(budget / bytes, 2u * stages + 3u, quick() ? 128u : 1024u);
            char what[200];
            snprintf(what, sizeof what, "block form %ux%ux%u: %u stages of %u B, %u uses x %u blocks", shapes[s][0],
                     shapes[s][1], shapes[s][2], stages, bytes, uses, blocks);
            clear_report(&f);
            CGT_CUDA((cudaError_t)plt_block(blocks, shapes[s][0], shapes[s][1], shapes[s][2], f.src, f.seed, stages,
                                            bytes, uses, PLT_DELAY_CONSUMERS | PLT_DELAY_PRODUCER, f.rep));
            expect_report(&f, (unsigned long long)blocks * uses * (bytes / 4u), what);
        }
    teardown(&f);
}

// --- cluster form ----------------------------------------------------------

static void run_cluster(fixture_t *f, unsigned csize, uint32_t root, uint32_t mask, uint32_t stages, uint32_t bytes,
                        uint32_t warps, uint32_t uses)
{
    const unsigned nclusters = quick() ? 1u : (unsigned)cgt_device_props()->multiProcessorCount / csize + 1u;
    char what[220];
    snprintf(what, sizeof what, "cluster of %u, root %u, mask 0x%x: %u stages of %u B, %u consumer warps, %u uses x %u "
             "clusters", csize, root, mask, stages, bytes, warps, uses, nclusters);
    clear_report(f);
    int rc = plt_cluster(nclusters, csize, root, mask, f->src, f->seed, stages, bytes, uses, warps,
                         PLT_DELAY_CONSUMERS | PLT_DELAY_PRODUCER, f->rep);
    if (rc == -1) {
        cr_expect(csize > 8, "%s: the device cannot hold one cluster of %u (portable sizes must fit)", what, csize);
        cr_log_warn("%s: does not fit on this device; not run", what);
        return;
    }
    CGT_CUDA((cudaError_t)rc);
    expect_report(f, (unsigned long long)nclusters * (unsigned)__builtin_popcount(mask) * uses * (bytes / 4u), what);
}

Test(pipeline, cluster_multicast_masks_sizes_2_to_16)
{
    fixture_t f = setup();
    uint64_t rs = cgt_seed() ^ 0x5eedu;
    const uint32_t uses = quick() ? 48u : 768u;
    for (unsigned csize = 2; csize <= 16; ++csize) {
        const uint32_t all = (1u << csize) - 1u;
        const uint32_t root = (uint32_t)(cgt_rand(&rs) % csize);
        uint32_t sub = (uint32_t)cgt_rand(&rs) & all;
        if (sub == 0)
            sub = 1u;
        const uint32_t one = 1u << (uint32_t)(cgt_rand(&rs) % csize);
        const uint32_t stages = 2u + csize % 3u, warps = 1u + csize % 3u;
        const uint32_t bytes = csize % 2u ? 4096u : 8192u;
        run_cluster(&f, csize, root, all, stages, bytes, warps, uses);      /* every CTA */
        run_cluster(&f, csize, root, sub, stages, bytes, warps, uses);      /* a random subset */
        run_cluster(&f, csize, root, one, stages, 1024u, 1u, uses);        /* one CTA (the root or not) */
        run_cluster(&f, csize, root, all & ~(1u << root), 1u, 16u, 2u, uses); /* all but the root, tiny stages */
    }
    teardown(&f);
}

// --- sliced cluster form ---------------------------------------------------

/* One launch of the sliced form; expects every word of every stage use
 * checked by every CTA of the mask and none wrong. Returns 0 when the
 * cluster does not fit (sizes above 8 only), else 1. */
static int run_sliced(fixture_t *f, unsigned csize, uint32_t mask, uint32_t stages, uint32_t bytes, uint32_t warps,
                      uint32_t per_warp, uint32_t uses, uint32_t delays)
{
    const unsigned nclusters = quick() ? 1u : (unsigned)cgt_device_props()->multiProcessorCount / csize + 1u;
    char what[240];
    snprintf(what, sizeof what,
             "sliced cluster form, cluster of %u, mask 0x%x: %u stages of %u B, %u consumer warps, release per %s, "
             "%u uses x %u clusters",
             csize, mask, stages, bytes, warps,
             per_warp == PLT_RELEASE_WHOLE_WARP ? "whole warp (caller-declared)" : per_warp ? "warp" : "thread", uses,
             nclusters);
    clear_report(f);
    int rc = plt_sliced(nclusters, csize, mask, f->src, f->seed, stages, bytes, uses, warps, per_warp, delays,
                        f->rep);
    if (rc == -1) {
        cr_expect(csize > 8, "%s: the device cannot hold one cluster of %u (portable sizes must fit)", what, csize);
        cr_log_warn("%s: does not fit on this device; not run", what);
        return 0;
    }
    CGT_CUDA((cudaError_t)rc);
    expect_report(f, (unsigned long long)nclusters * (unsigned)__builtin_popcount(mask) * uses * (bytes / 4u), what);
    return 1;
}

/* Clusters of 2, 4, 8, 16 (16: the non-portable size, which the launcher
 * opts into) x 1..4 stages, `uses` stage uses each, random producer and
 * consumer delays; stage sizes whose slices are large, uneven (4144 B: the
 * last slice shorter) and smaller than the cluster (48 B: most CTAs load
 * nothing); 4 consumer warps, or 1..5 when `vary_warps`. Whether clusters
 * of 16 ran. */
static int sliced_matrix(fixture_t *f, uint32_t per_warp, uint32_t uses, int vary_warps)
{
    static const uint32_t sizes[] = {1024, 4144, 16384, 48};
    int ran16 = 0;
    for (unsigned csize = 2; csize <= 16; csize *= 2)
        for (uint32_t stages = 1; stages <= 4; ++stages) {
            const uint32_t bytes = sizes[(csize / 2u + stages) % 4u];
            const uint32_t warps = vary_warps ? 1u + stages % 5u : 4u;
            const int ran = run_sliced(f, csize, (1u << csize) - 1u, stages, bytes, warps, per_warp, uses,
                                       PLT_DELAY_CONSUMERS | PLT_DELAY_PRODUCER);
            ran16 |= csize == 16 && ran;
        }
    if (!ran16)
        cr_log_warn("sliced cluster form: clusters of 16 did not fit on this device; not run");
    return ran16;
}

/* The matrix above with the warp release, 100000 stage uses each. */
Test(pipeline, sliced_cluster_sizes_2_to_16_stages_1_to_4)
{
    fixture_t f = setup();
    (void)sliced_matrix(&f, 1u, quick() ? 512u : 100000u, 0);
    teardown(&f);
}

/* The caller-declared whole-warp release
 * (cg_pipeline_cluster_consumer_release_all_whole_warp): the matrix above
 * with 1..5 consumer warps (lanes reach the call diverged by the random
 * delays), and a mask that leaves CTAs out; every word checked. */
Test(pipeline, sliced_cluster_whole_warp_release)
{
    fixture_t f = setup();
    const uint32_t uses = quick() ? 512u : 50000u;
    (void)sliced_matrix(&f, PLT_RELEASE_WHOLE_WARP, uses, 1);
    run_sliced(&f, 8u, 0x5au, 2u, 4096u, 4u, PLT_RELEASE_WHOLE_WARP, uses / 4u,
               PLT_DELAY_CONSUMERS | PLT_DELAY_PRODUCER);
    teardown(&f);
}

/* Consumer warp counts other than 4 (1, 2, 3, 5, 7), releases per warp and
 * per thread (empty then counts threads of every CTA), a mask that leaves
 * CTAs out (they neither load nor receive), and stages up to 4. */
Test(pipeline, sliced_cluster_warp_counts_thread_releases_and_subsets)
{
    fixture_t f = setup();
    uint64_t rs = cgt_seed() ^ 0x511cedu;
    static const uint32_t warp_counts[] = {1, 2, 3, 5, 7};
    const uint32_t uses = quick() ? 256u : 20000u;
    for (size_t i = 0; i < sizeof warp_counts / sizeof warp_counts[0]; ++i) {
        const uint32_t warps = warp_counts[i];
        const unsigned csize = 2u << (i % 3u); /* 2, 4, 8 */
        const uint32_t stages = 1u + (uint32_t)(i % 4u);
        const uint32_t all = (1u << csize) - 1u;
        run_sliced(&f, csize, all, stages, 2048u, warps, 1u, uses, PLT_DELAY_CONSUMERS | PLT_DELAY_PRODUCER);
        /* per-thread releases: n x warps x 32 arrivals per use on every CTA's
         * empty barrier; fewer uses (each thread arrives n times per use) */
        run_sliced(&f, csize > 4 ? 4u : csize, csize > 4 ? 0xfu : all, stages, 1040u, warps, 0u, uses / 8u,
                   PLT_DELAY_CONSUMERS);
        /* a random subset of at least 2 CTAs of a cluster of 8 */
        uint32_t sub = (uint32_t)cgt_rand(&rs) & 0xffu;
        if (__builtin_popcount(sub) < 2)
            sub |= 0x81u;
        run_sliced(&f, 8u, sub, stages, 4096u, warps, (uint32_t)(i & 1u), uses / 4u,
                   PLT_DELAY_CONSUMERS | PLT_DELAY_PRODUCER);
    }
    teardown(&f);
}

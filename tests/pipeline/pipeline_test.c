/* tests/pipeline/pipeline_test.c — async/pipeline.h on a real GPU.
 *
 * Warp-specialized rings (one producer thread, 1..8 consumer warps) and
 * block-shaped rings (every thread produces and consumes) with 1..8 stages,
 * stage sizes from 16 bytes to nearly all of the block's shared memory,
 * copies in pieces through every producer path, consumers releasing per
 * thread or per warp, random delays on both sides, and millions of stage
 * fills in all (so every stage's barriers wrap through their phases many
 * times). The source is a fresh hash fill (seeded per run); every fill of
 * every stage is checked on the host through a position-sensitive checksum
 * per consumer warp, and in one test byte for byte. Outputs are poisoned
 * first. Every launch is bounded: a hang fails the test.
 * Kernels: pipeline_kernels.cu. CGT_QUICK=1 scales the fill counts / 100.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/pipeline/pipeline_test_util.h"
#include "tests/support/cgtest.h"

int plt_fill(void *dst, size_t bytes, uint32_t seed);
int plt_ws(const plt_cfg_t *c, int blocks, const void *src, unsigned long long *sums, void *copy, unsigned *errs);
int plt_block(const plt_cfg_t *c, int blocks, const void *src, unsigned long long *sums, unsigned *errs);

TestSuite(pipeline, .timeout = 300);

/* Seconds a launch may take before the test calls it a hang. */
#define PLT_DEADLINE_S 60.0

static int quick(void)
{
    const char *q = getenv("CGT_QUICK");
    return q && *q && *q != '0';
}

/* Fill counts scale down 100x under CGT_QUICK, keeping a few passes over the ring. */
static uint32_t scaled_tiles(uint32_t tiles, uint32_t stages)
{
    if (!quick())
        return tiles;
    uint32_t t = tiles / 100u;
    return t < 3u * stages + 2u ? 3u * stages + 2u : t;
}

static int sm_count(void)
{
    return cgt_device_props()->multiProcessorCount;
}

/* Largest dynamic shared memory a block of these kernels may ask for: the
 * opt-in limit less room for the kernel's static ring (192 bytes) and slack. */
static uint32_t max_dynamic_smem(void)
{
    return (uint32_t)cgt_device_props()->sharedMemPerBlockOptin - 1024u;
}

/* The device source for c: nsrc tiles of stage_bytes, hash-filled. */
static void *make_source(const plt_cfg_t *c, size_t *bytes)
{
    *bytes = ((size_t)c->nsrc * c->stage_bytes + 15u) & ~(size_t)15u;
    void *d = NULL;
    CGT_CUDA(cudaMalloc(&d, *bytes));
    CGT_CUDA((cudaError_t)plt_fill(d, *bytes, c->seed));
    return d;
}

/* Host reference: for each source tile k and each of `nparts` parts, the sum
 * of plt_term over the stage's units owned by that part. part_of(i) says
 * which part owns unit i: every unit for the warp-specialized consumers
 * (each warp sums the whole stage: nparts = 1), unit i's thread's warp for
 * the block shape. */
static unsigned long long *reference_sums(const plt_cfg_t *c, uint32_t nparts, uint32_t threads)
{
    unsigned long long *ref = calloc((size_t)c->nsrc * nparts, sizeof *ref);
    cr_assert(ref != NULL);
    const uint32_t unit = plt_unit(c->stage_bytes), units = c->stage_bytes / unit;
    for (uint32_t k = 0; k < c->nsrc; ++k)
        for (uint32_t i = 0; i < units; ++i) {
            const size_t off = (size_t)k * c->stage_bytes + (size_t)i * unit;
            const uint32_t v = unit == 4u ? plt_src_word(c->seed, (uint32_t)(off / 4u)) : plt_src_byte(c->seed, off);
            const uint32_t part = nparts == 1u ? 0u : (i % threads) / 32u;
            ref[(size_t)k * nparts + part] += plt_term(v, i);
        }
    return ref;
}

/* Waits for the launch within the deadline, then checks for errors. */
static void finish_launch(const char *what)
{
    cudaError_t q = cgt_stream_wait_deadline(PLT_DEADLINE_S);
    cr_assert_neq(q, cudaErrorNotReady, "%s: the kernel did not finish in %.0f s (a pipeline hang)", what,
                  PLT_DEADLINE_S);
    CGT_SYNC();
}

/* Block shape: compares every (block, fill, warp) checksum with the
 * reference of the fill's source tile and that warp's units; reports the
 * first few mismatches and the count. */
static void check_sums(const plt_cfg_t *c, int blocks, uint32_t nparts, const unsigned long long *got,
                       const unsigned long long *ref, const char *what)
{
    size_t bad = 0;
    for (int b = 0; b < blocks; ++b)
        for (uint32_t t = 0; t < c->tiles; ++t) {
            const uint32_t k = plt_src_tile((uint32_t)b, t, c->nsrc);
            for (uint32_t w = 0; w < nparts; ++w) {
                const unsigned long long g = got[((size_t)b * c->tiles + t) * nparts + w];
                const unsigned long long want = ref[(size_t)k * nparts + w];
                if (g != want && bad++ < 6)
                    cr_expect_eq(g, want, "%s: block %d fill %u (stage %u, pass %u) warp %u: checksum 0x%llx, want 0x%llx%s",
                                 what, b, t, t % c->stages, t / c->stages, w, g, want,
                                 g == 0xA5A5A5A5A5A5A5A5ull ? " (never written)" : "");
            }
        }
    cr_expect_eq(bad, (size_t)0, "%s: %zu of %zu checksums wrong", what, bad,
                 (size_t)blocks * c->tiles * nparts);
}

// --- warp-specialized -------------------------------------------------------------

/* Runs one warp-specialized configuration and checks it; returns the fills. */
static uint64_t run_ws(plt_cfg_t c, uint64_t *rng, const char *what)
{
    c.tiles = scaled_tiles(c.tiles, c.stages);
    c.seed = (uint32_t)cgt_rand(rng);
    const int blocks = sm_count();
    size_t src_bytes = 0;
    void *src = make_source(&c, &src_bytes);
    /* ws: every consumer warp sums the whole stage, so one reference per tile,
     * compared against each warp's sum. */
    unsigned long long *ref = reference_sums(&c, 1u, 0u);
    const size_t nsums = (size_t)blocks * c.tiles * c.cwarps;
    unsigned long long *dsums = NULL, *hsums = malloc(nsums * sizeof *hsums);
    unsigned *derrs = NULL, herrs[2] = {0, 0};
    unsigned char *dcopy = NULL;
    cr_assert(hsums != NULL);
    CGT_CUDA(cudaMalloc((void **)&dsums, nsums * sizeof *dsums));
    CGT_CUDA(cudaMemset(dsums, CGT_POISON_BYTE, nsums * sizeof *dsums));
    CGT_CUDA(cudaMalloc((void **)&derrs, sizeof herrs));
    CGT_CUDA(cudaMemset(derrs, 0, sizeof herrs));
    const size_t copy_bytes = c.copy_out ? (size_t)blocks * c.tiles * c.stage_bytes : 0;
    if (c.copy_out) {
        CGT_CUDA(cudaMalloc((void **)&dcopy, copy_bytes));
        CGT_CUDA(cudaMemset(dcopy, CGT_POISON_BYTE, copy_bytes));
    }
    char name[256];
    snprintf(name, sizeof name,
             "%s: ws %u stages x %u B, %u consumer warps (release per %s), %u piece(s) via %s, %u fills/block%s", what,
             c.stages, c.stage_bytes, c.cwarps, c.per_thread ? "thread" : "warp", c.pieces,
             c.copy_mode ? "cg_memcpy_async_tx" : "cg_pipeline_copy", c.tiles, c.delay ? ", random delays" : "");
    CGT_CUDA((cudaError_t)plt_ws(&c, blocks, src, dsums, dcopy, derrs));
    finish_launch(name);
    CGT_CUDA(cudaMemcpy(hsums, dsums, nsums * sizeof *hsums, cudaMemcpyDeviceToHost));
    CGT_CUDA(cudaMemcpy(herrs, derrs, sizeof herrs, cudaMemcpyDeviceToHost));
    cr_expect_eq(herrs[0], 0u, "%s: producer position queries disagreed %u times", name, herrs[0]);
    cr_expect_eq(herrs[1], 0u, "%s: consumer position queries disagreed %u times", name, herrs[1]);
    /* Spread the single reference over the warps: compare each warp with it. */
    size_t bad = 0;
    for (int b = 0; b < blocks; ++b)
        for (uint32_t t = 0; t < c.tiles; ++t) {
            const unsigned long long want = ref[plt_src_tile((uint32_t)b, t, c.nsrc)];
            for (uint32_t w = 0; w < c.cwarps; ++w) {
                const unsigned long long g = hsums[((size_t)b * c.tiles + t) * c.cwarps + w];
                if (g != want && bad++ < 6)
                    cr_expect_eq(g, want,
                                 "%s: block %d fill %u (stage %u, pass %u) consumer warp %u: checksum 0x%llx, want "
                                 "0x%llx%s",
                                 name, b, t, t % c.stages, t / c.stages, w, g, want,
                                 g == 0xA5A5A5A5A5A5A5A5ull ? " (never written)" : "");
            }
        }
    cr_expect_eq(bad, (size_t)0, "%s: %zu of %zu checksums wrong", name, bad, nsums);
    if (c.copy_out) {
        /* Byte for byte: consumer warp 0's copy of every fill. */
        unsigned char *hcopy = malloc(copy_bytes), *hsrc = malloc(src_bytes);
        cr_assert(hcopy != NULL && hsrc != NULL);
        CGT_CUDA(cudaMemcpy(hcopy, dcopy, copy_bytes, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < src_bytes; ++i)
            hsrc[i] = (unsigned char)plt_src_byte(c.seed, i);
        size_t wrong = 0;
        for (int b = 0; b < blocks; ++b)
            for (uint32_t t = 0; t < c.tiles; ++t) {
                const unsigned char *want = hsrc + (size_t)plt_src_tile((uint32_t)b, t, c.nsrc) * c.stage_bytes;
                const unsigned char *g = hcopy + ((size_t)b * c.tiles + t) * c.stage_bytes;
                for (uint32_t i = 0; i < c.stage_bytes; ++i)
                    if (g[i] != want[i] && wrong++ < 6)
                        cr_expect_eq(g[i], want[i], "%s: block %d fill %u byte %u: 0x%02x, want 0x%02x", name, b, t,
                                     i, g[i], want[i]);
            }
        cr_expect_eq(wrong, (size_t)0, "%s: %zu of %zu copied bytes wrong", name, wrong, copy_bytes);
        free(hcopy);
        free(hsrc);
        cudaFree(dcopy);
    }
    cudaFree(src);
    cudaFree(dsums);
    cudaFree(derrs);
    free(hsums);
    free(ref);
    return (uint64_t)blocks * c.tiles;
}

/* stages, bytes, cwarps, per_thread, pieces, copy_mode, tiles, nsrc, delay, copy_out */
#define WS(s, b, cw, pt, pc, cm, t, n, d) {(s), (b), (cw), (pt), (pc), (cm), (t), (n), (d), 0, 0, 0}

Test(pipeline, ws_every_depth_size_and_consumer_count)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    static const plt_cfg_t cases[] = {
        WS(1, 16, 1, 0, 1, 0, 4000, 13, 0),     WS(1, 4096, 8, 1, 4, 1, 2000, 13, 1),
        WS(2, 16, 8, 1, 1, 1, 4000, 61, 1),     WS(2, 2048, 3, 0, 2, 0, 3000, 13, 0),
        WS(3, 48, 2, 0, 3, 0, 4000, 61, 0),     WS(3, 32768, 4, 0, 2, 0, 1500, 13, 0),
        WS(4, 1024, 4, 1, 2, 0, 4000, 61, 1),   WS(4, 16384, 5, 0, 1, 1, 2000, 13, 0),
        WS(5, 4096, 6, 0, 3, 0, 3000, 29, 1),   WS(6, 8192, 7, 1, 4, 1, 2000, 29, 0),
        WS(7, 112, 1, 0, 7, 0, 4000, 61, 1),    WS(8, 24576, 8, 0, 8, 0, 1500, 13, 0),
        WS(8, 16, 2, 1, 1, 0, 4000, 61, 0),
    };
    uint64_t fills = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        fills += run_ws(cases[i], &rng, "sweep");
    cr_log_info("warp-specialized sweep: %llu stage fills checked", (unsigned long long)fills);
    if (!quick())
        cr_expect_geq(fills, 1000000ull, "the sweep must wrap the rings through >= 10^6 fills (did %llu)",
                      (unsigned long long)fills);
}

Test(pipeline, ws_stages_filling_shared_memory)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    const uint32_t room = max_dynamic_smem();
    static const uint32_t depths[] = {1, 2, 3, 8};
    for (size_t i = 0; i < sizeof depths / sizeof depths[0]; ++i) {
        const uint32_t s = depths[i];
        uint32_t bytes = (room / s) & ~15u;
        if (bytes > ((1u << 20) - 16u))
            bytes = (1u << 20) - 16u;
        plt_cfg_t c = WS(s, bytes, i % 2 ? 8u : 4u, (uint32_t)(i % 2), i % 2 ? 5u : 1u, (uint32_t)(i == 2), 200, 13,
                         (uint32_t)(i == 3));
        run_ws(c, &rng, "shared-memory-sized stages");
    }
}

Test(pipeline, ws_copies_every_byte_out)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    static const plt_cfg_t cases[] = {
        {3, 4096, 2, 0, 2, 0, 64, 13, 1, 1, 0, 0},
        {1, 16, 1, 1, 1, 1, 300, 61, 0, 1, 0, 0},
        {5, 1040, 3, 0, 5, 0, 120, 29, 1, 1, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        run_ws(cases[i], &rng, "copy out");
}

// --- block shape --------------------------------------------------------------------

static uint64_t run_block(plt_cfg_t c, uint64_t *rng, const char *what)
{
    c.tiles = scaled_tiles(c.tiles, c.stages);
    c.seed = (uint32_t)cgt_rand(rng);
    const int blocks = sm_count();
    const uint32_t nwarps = c.threads / 32u;
    size_t src_bytes = 0;
    void *src = make_source(&c, &src_bytes);
    unsigned long long *ref = reference_sums(&c, nwarps, c.threads);
    const size_t nsums = (size_t)blocks * c.tiles * nwarps;
    unsigned long long *dsums = NULL, *hsums = malloc(nsums * sizeof *hsums);
    unsigned *derrs = NULL, herrs[2] = {0, 0};
    cr_assert(hsums != NULL);
    CGT_CUDA(cudaMalloc((void **)&dsums, nsums * sizeof *dsums));
    CGT_CUDA(cudaMemset(dsums, CGT_POISON_BYTE, nsums * sizeof *dsums));
    CGT_CUDA(cudaMalloc((void **)&derrs, sizeof herrs));
    CGT_CUDA(cudaMemset(derrs, 0, sizeof herrs));
    char name[256];
    snprintf(name, sizeof name, "%s: block %u threads, %u stages x %u B, %s, %u fills/block%s", what, c.threads,
             c.stages, c.stage_bytes,
             c.copy_mode ? "cg_memcpy_async_pipeline (block)" : "cg_pipeline_producer_copy (thread 0)", c.tiles,
             c.delay ? ", random delays" : "");
    CGT_CUDA((cudaError_t)plt_block(&c, blocks, src, dsums, derrs));
    finish_launch(name);
    CGT_CUDA(cudaMemcpy(hsums, dsums, nsums * sizeof *hsums, cudaMemcpyDeviceToHost));
    CGT_CUDA(cudaMemcpy(herrs, derrs, sizeof herrs, cudaMemcpyDeviceToHost));
    cr_expect_eq(herrs[1], 0u, "%s: position queries disagreed %u times", name, herrs[1]);
    check_sums(&c, blocks, nwarps, hsums, ref, name);
    cudaFree(src);
    cudaFree(dsums);
    cudaFree(derrs);
    free(hsums);
    free(ref);
    return (uint64_t)blocks * c.tiles;
}

/* stages, bytes, threads, pieces, copy_mode, tiles, nsrc, delay */
#define BLK(s, b, th, pc, cm, t, n, d) {(s), (b), 0, 0, (pc), (cm), (t), (n), (d), 0, (th), 0}

Test(pipeline, block_shape_every_depth_and_copy_path)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    static const plt_cfg_t cases[] = {
        BLK(1, 16, 64, 1, 0, 3000, 13, 0),      /* one 16-byte bulk copy */
        BLK(2, 4096, 256, 2, 0, 2000, 61, 1),   /* thread 0's bulk copies, in two pieces */
        BLK(3, 1000, 128, 1, 1, 2000, 13, 0),   /* group copy: cp.async 8 */
        BLK(4, 1004, 256, 1, 1, 1500, 13, 1),   /* group copy: cp.async 4 */
        BLK(5, 1001, 96, 1, 1, 1500, 13, 0),    /* group copy: plain bytes */
        BLK(6, 8192, 1024, 3, 0, 1000, 29, 0),  /* 1024 producers and consumers */
        BLK(7, 2048, 512, 1, 1, 1500, 29, 1),   /* group copy: bulk */
        BLK(8, 16384, 256, 4, 0, 1000, 13, 0),
    };
    uint64_t fills = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        fills += run_block(cases[i], &rng, "block");
    cr_log_info("block-shape sweep: %llu stage fills checked", (unsigned long long)fills);
}

Test(pipeline, block_shape_stages_filling_shared_memory)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    const uint32_t room = max_dynamic_smem();
    plt_cfg_t a = BLK(1, (room / 1u) & ~15u, 256, 3, 0, 200, 13, 0);
    plt_cfg_t b = BLK(2, (room / 2u) & ~15u, 512, 1, 1, 200, 13, 1);
    run_block(a, &rng, "shared-memory-sized stage");
    run_block(b, &rng, "shared-memory-sized stages");
}

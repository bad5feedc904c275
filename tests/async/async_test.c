/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/async/async_test.c — async/copy.h on a real GPU: cg_memcpy_async on
 * every path (bulk, cp.async 8 and 4, plain bytes) with a thread block and
 * with tiles, cg_memcpy_async_tx in pieces, multicast into every CTA of
 * clusters of 2..8 and 16, and the bulk store round trip. Every byte is
 * checked against a host reference. Kernels: async_kernels.cu. */
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"

#define CGT_CLUSTER_DOES_NOT_FIT (-1)

int asyt_memcpy(const unsigned char *src, unsigned char *out, uint32_t src_off, uint32_t dst_off, uint32_t bytes,
                uint32_t stride, uint32_t win, int batches, int group, int threads);
int asyt_tx(const void *src, void *out, uint32_t bytes, int pieces, uint32_t *early);
int asyt_multicast(int csize, int nclusters, const void *in, void *out, uint32_t S, uint32_t *status);
int asyt_store(const uint32_t *in, uint32_t *out1, uint32_t *out2, uint32_t bytes);
int asyt_bw(const void *src, size_t per_block, int blocks, int mode, uint32_t *sink, float *ms);
int asyt_fill_words(void *dst, size_t n);
uint32_t asyt_host_word(uint64_t i);

TestSuite(async, .timeout = 120);

static int quick(void)
{
    const char *q = getenv("CGT_QUICK");
    return q && *q && *q != '0';
}

static unsigned char *rand_bytes(size_t n, uint64_t *rng)
{
    unsigned char *h = malloc(n);
    cr_assert(h != NULL);
    for (size_t i = 0; i < n; ++i)
        h[i] = (unsigned char)cgt_rand(rng);
    return h;
}

static void *dev_copy(const void *h, size_t n)
{
    void *d = NULL;
    CGT_CUDA(cudaMalloc(&d, n));
    CGT_CUDA(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));
    return d;
}

static void *dev_poisoned(size_t n)
{
    void *d = NULL;
    CGT_CUDA(cudaMalloc(&d, n));
    CGT_CUDA(cudaMemset(d, CGT_POISON_BYTE, n));
    return d;
}

// --- cg_memcpy_async --------------------------------------------------------------

typedef struct {
    uint32_t src_off, dst_off, bytes;
    int group; /* 0 block, 1 tiles (quarters) */
    const char *path;
} memcpy_case_t;

static void run_memcpy_case(const memcpy_case_t *c, uint64_t *rng)
{
    const int batches = quick() ? 2 : 4, threads = 256;
    const uint32_t stride = (c->bytes + 15u) & ~15u;
    const uint32_t win = (c->dst_off + c->bytes + 64u + 15u) & ~15u;
    const size_t src_len = c->src_off + (size_t)stride * batches + 16;
    unsigned char *hsrc = rand_bytes(src_len, rng), *hout = malloc((size_t)win * batches);
    cr_assert(hout != NULL);
    unsigned char *dsrc = dev_copy(hsrc, src_len), *dout = dev_poisoned((size_t)win * batches);
    CGT_CUDA((cudaError_t)asyt_memcpy(dsrc, dout, c->src_off, c->dst_off, c->bytes, stride, win, batches, c->group,
                                      threads));
    CGT_SYNC();
    CGT_CUDA(cudaMemcpy(hout, dout, (size_t)win * batches, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int b = 0; b < batches; ++b)
        for (uint32_t i = 0; i < win; ++i) {
            const int inside = i >= c->dst_off && i < c->dst_off + c->bytes;
            const unsigned char want = inside ? hsrc[c->src_off + (size_t)b * stride + (i - c->dst_off)] : 0xA5;
            const unsigned char got = hout[(size_t)b * win + i];
            if (got != want && bad++ < 8)
                cr_expect_eq(got, want, "%s path, %u bytes src+%u dst+%u %s: batch %d byte %u (%s)", c->path,
                             c->bytes, c->src_off, c->dst_off, c->group ? "tiles" : "block", b, i,
                             inside ? "copied" : "outside the copy: must stay untouched");
        }
    cr_expect_eq(bad, 0, "%s path, %u bytes, %s: %d bytes wrong", c->path, c->bytes, c->group ? "tiles" : "block",
                 bad);
    cudaFree(dsrc);
    cudaFree(dout);
    free(hsrc);
    free(hout);
}

Test(async, memcpy_async_every_path_block_and_tiles)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    static const memcpy_case_t cases[] = {
        {0, 0, 4096, 0, "bulk"},
        {16, 48, 16, 0, "bulk (one 16-byte unit)"},
        {32, 128, 98304, 0, "bulk (96 KiB: the phase must wait for all of it)"},
        {0, 0, 4096, 1, "bulk, four tile copies on one phase"},
        {8, 24, 1000, 0, "cp.async 8"},
        {4, 12, 1204, 0, "cp.async 4"},
        {4, 8, 4112, 1, "cp.async 4, tiles (1028-byte quarters)"},
        {3, 5, 1001, 0, "plain bytes"},
        {1, 0, 77, 0, "plain bytes (short)"},
        {0, 0, 1028, 1, "plain bytes, tiles (257-byte quarters)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        run_memcpy_case(&cases[i], &rng);
}

// --- cg_memcpy_async_tx --------------------------------------------------------------

Test(async, memcpy_async_tx_pieces_complete_one_phase)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    static const int pieces[] = {1, 2, 7};
    const uint32_t bytes = 65536;
    for (int k = 0; k < 3; ++k) {
        unsigned char *hin = rand_bytes(bytes, &rng), *hout = malloc(bytes);
        void *din = dev_copy(hin, bytes), *dout = dev_poisoned(bytes);
        uint32_t *dearly = dev_poisoned(4), early = 0;
        CGT_CUDA((cudaError_t)asyt_tx(din, dout, bytes, pieces[k], dearly));
        CGT_SYNC();
        CGT_CUDA(cudaMemcpy(hout, dout, bytes, cudaMemcpyDeviceToHost));
        CGT_CUDA(cudaMemcpy(&early, dearly, 4, cudaMemcpyDeviceToHost));
        int bad = 0;
        for (uint32_t i = 0; i < bytes; ++i)
            if (hout[i] != hin[i] && bad++ < 8)
                cr_expect_eq(hout[i], hin[i], "%d pieces: byte %u", pieces[k], i);
        cr_expect_eq(bad, 0, "%d pieces: %d bytes wrong", pieces[k], bad);
        cr_expect(early == 0u || early == 1u, "early flag not written (%u)", early);
        /* Legal, and checked above (every byte landed): under a slow tool the
         * copy often lands before the check. Info, not a warning: Criterion
         * 2.4 exits 1 after a warning even when every test passed (seen
         * under racecheck and synccheck), which bazel would count as a
         * failure. */
        if (early)
            cr_log_info("%d pieces: the 64 KiB phase was already complete right after the arrive "
                        "(legal: the copy had landed, every byte is checked above)",
                        pieces[k]);
        cudaFree(din);
        cudaFree(dout);
        cudaFree(dearly);
        free(hin);
        free(hout);
    }
}

// --- multicast --------------------------------------------------------------------

Test(async, multicast_reaches_every_cta_every_cluster_size)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    static const int sizes[] = {2, 3, 4, 5, 6, 7, 8, 16};
    const int ncl = 3;
    const uint32_t S = 1024;
    int ran = 0, skipped = 0;
    for (int s = 0; s < 8; ++s) {
        const int n = sizes[s], nb = n * ncl;
        const size_t in_len = (size_t)nb * S, out_len = (size_t)nb * n * S;
        unsigned char *hin = rand_bytes(in_len, &rng), *hout = malloc(out_len);
        uint32_t hst[64];
        void *din = dev_copy(hin, in_len), *dout = dev_poisoned(out_len);
        uint32_t *dst = dev_poisoned(64 * 4);
        int err = asyt_multicast(n, ncl, din, dout, S, dst);
        if (err == CGT_CLUSTER_DOES_NOT_FIT) {
            cr_log_warn("cluster size %d does not fit on this device: not tested", n);
            ++skipped;
        } else {
            ++ran;
            CGT_CUDA((cudaError_t)err);
            CGT_SYNC();
            CGT_CUDA(cudaMemcpy(hout, dout, out_len, cudaMemcpyDeviceToHost));
            CGT_CUDA(cudaMemcpy(hst, dst, (size_t)nb * 4, cudaMemcpyDeviceToHost));
            int bad = 0;
            for (int b = 0; b < nb; ++b) {
                cr_expect_eq(hst[b], 0u, "size %d block %d: phase never completed (%u)", n, b, hst[b]);
                const int first = b - b % n;
                for (size_t i = 0; i < (size_t)n * S; ++i) {
                    const unsigned char want = hin[(size_t)first * S + i];
                    const unsigned char got = hout[(size_t)b * n * S + i];
                    if (got != want && bad++ < 8)
                        cr_expect_eq(got, want, "size %d block %d byte %zu (slice from rank %zu)", n, b, i, i / S);
                }
            }
            cr_expect_eq(bad, 0, "cluster size %d: %d bytes wrong", n, bad);
        }
        cudaFree(din);
        cudaFree(dout);
        cudaFree(dst);
        free(hin);
        free(hout);
    }
    /* A device that fits no cluster size tested nothing: fail, do not pass. */
    cr_expect_gt(ran, 0, "multicast: no cluster size fit on this device (%d skipped): nothing was tested", skipped);
}

// --- bulk store --------------------------------------------------------------------

Test(async, bulk_store_round_trip_and_read_completion)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    const uint32_t bytes = 32768, n = bytes / 4;
    uint32_t *hin = malloc(bytes), *h1 = malloc(bytes), *h2 = malloc(bytes);
    cr_assert(hin && h1 && h2);
    for (uint32_t i = 0; i < n; ++i)
        hin[i] = (uint32_t)cgt_rand(&rng);
    uint32_t *din = dev_copy(hin, bytes), *d1 = dev_poisoned(bytes), *d2 = dev_poisoned(bytes);
    CGT_CUDA((cudaError_t)asyt_store(din, d1, d2, bytes));
    CGT_SYNC();
    CGT_CUDA(cudaMemcpy(h1, d1, bytes, cudaMemcpyDeviceToHost));
    CGT_CUDA(cudaMemcpy(h2, d2, bytes, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t w1 = hin[i] * 3u + 1u, w2 = w1 ^ 0x5A5A5A5Au;
        if (h1[i] != w1 && bad++ < 8)
            cr_expect_eq(h1[i], w1, "first store, word %u", i);
        if (h2[i] != w2 && bad++ < 8)
            cr_expect_eq(h2[i], w2, "second store, word %u", i);
    }
    cr_expect_eq(bad, 0, "%d words wrong", bad);
    cudaFree(din);
    cudaFree(d1);
    cudaFree(d2);
    CGT_FREE(hin, h1, h2);
}

// --- throughput (logged for TARGETS.md; the benchmark owns the verdict) -------------------

Test(async, global_to_shared_throughput_logged)
{
    cgt_require_sm90();
    const int blocks = 2 * cgt_device_props()->multiProcessorCount;
    const size_t per_block = quick() ? (1u << 20) : (8u << 20);
    void *src = dev_poisoned(per_block * blocks);
    uint32_t *sink = dev_poisoned((size_t)blocks * 256 * 4);
    CGT_CUDA((cudaError_t)asyt_fill_words(src, per_block * blocks / 4));
    CGT_SYNC();
    /* What every thread must have summed: word 4 * tid of each 32 KiB tile
     * of its block's part of the source (asyt_bw_kernel). */
    const size_t tiles = per_block / 32768u, nthr = (size_t)blocks * 256;
    uint32_t *want = malloc(nthr * 4), *got = malloc(nthr * 4);
    cr_assert(want && got);
    for (size_t g = 0; g < nthr; ++g) {
        const size_t b = g / 256, t = g % 256;
        uint32_t sum = 0;
        for (size_t k = 0; k < tiles; ++k)
            sum += asyt_host_word((b * per_block + k * 32768u) / 4u + 4u * t);
        want[g] = sum;
    }
    float ms[2] = {0, 0};
    for (int mode = 0; mode < 2; ++mode) {
        CGT_CUDA(cudaMemset(sink, CGT_POISON_BYTE, nthr * 4));
        CGT_CUDA((cudaError_t)asyt_bw(src, per_block, blocks, mode, sink, &ms[mode]));
        CGT_SYNC();
        CGT_CUDA(cudaMemcpy(got, sink, nthr * 4, cudaMemcpyDeviceToHost));
        size_t bad = 0;
        for (size_t g = 0; g < nthr; ++g)
            if (got[g] != want[g] && bad++ < 4)
                cr_expect_eq(got[g], want[g], "%s: thread %zu of the grid summed %#x, want %#x",
                             mode ? "cg_memcpy_async" : "int4 loads", g, got[g], want[g]);
        cr_expect_eq(bad, 0u, "%s: %zu of %zu threads' sums wrong", mode ? "cg_memcpy_async" : "int4 loads", bad,
                     nthr);
    }
    free(want);
    free(got);
    const double gb = (double)per_block * blocks / 1e9;
    cr_log_info("global -> shared, %d blocks x %zu MiB: int4 loads %.2f TB/s, cg_memcpy_async (bulk) %.2f TB/s "
                "(%.2fx)",
                blocks, per_block >> 20, gb / ms[0], gb / ms[1], ms[0] / ms[1]);
    cudaFree(src);
    cudaFree(sink);
}

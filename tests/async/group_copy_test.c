/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/async/group_copy_test.c — every byte of cg_memcpy_async(&group, ...)
 * and cg_dsmem_push(&group, ...) for tiles of every size (partial last tiles
 * included: blocks of 40 threads in tiles of 32, 20 in tiles of 16, 7x5x3 in
 * tiles of 8, 16 and 32, ...) and for the whole block, on every alignment
 * path (bulk / 16-byte, 8, 4, byte), with fresh random sources, poisoned
 * destinations and random sizes and offsets. Kernels: group_copy_kernels.cu.
 *
 * Before the fix (issue 10, defect 4) the partial tiles' cases failed: their
 * threads split the bytes by the tile's size n, so the shares of the ranks
 * that do not exist were never copied (and a push never completed: status 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"

#define GCT_REGION 2048u

int gct_memcpy(const unsigned char *src, unsigned char *out, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
               uint32_t n, uint32_t off, uint32_t bytes, int group);
int gct_push(const unsigned char *src, unsigned char *out, uint32_t *status, unsigned blocks, unsigned bx,
             unsigned by, unsigned bz, uint32_t n, uint32_t off, uint32_t bytes, int group);

TestSuite(group_copy, .timeout = 120);

typedef struct shape {
    unsigned bx, by, bz, n;
} shape_t;

/* Block shapes and tile sizes; most leave a partial last tile. */
static const shape_t shapes[] = {
    {40, 1, 1, 32}, {20, 1, 1, 16}, {7, 5, 3, 8},  {7, 5, 3, 16}, {7, 5, 3, 32}, {100, 1, 1, 32},
    {33, 1, 1, 4},  {2, 3, 11, 32}, {64, 1, 1, 32}, {45, 1, 1, 1}, {9, 1, 1, 2},  {128, 2, 1, 16},
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

/* A random (offset, size) pair of alignment class `align` (16, 8, 4 or 1):
 * the offset and the size are multiples of `align` and no finer class fits
 * both, so each class takes its own path. */
static void pick(uint32_t align, uint64_t *rng, uint32_t *off, uint32_t *bytes)
{
    uint32_t o = (uint32_t)(cgt_rand(rng) % 4u) * 16u, b;
    if (align == 16u) {
        b = 16u * (1u + (uint32_t)(cgt_rand(rng) % 110u));
    } else {
        o += align; /* odd multiple of align: the next class up does not fit */
        b = align * (1u + 2u * (uint32_t)(cgt_rand(rng) % (700u / align)));
    }
    *off = o;
    *bytes = b;
}

/* Checks the dump of `blocks` blocks against src: in every region that a
 * copy targets, bytes [off, off + bytes) come from src, every other byte is
 * still the poison. Returns the number of bad bytes (reports the first). */
static size_t check(const unsigned char *src, const unsigned char *out, unsigned blocks, uint32_t ntiles,
                    uint32_t copied_regions, uint32_t off, uint32_t bytes, const char *what)
{
    size_t bad = 0;
    const uint32_t win = ntiles * GCT_REGION;
    for (unsigned b = 0; b < blocks; ++b)
        for (uint32_t r = 0; r < ntiles; ++r)
            for (uint32_t j = 0; j < GCT_REGION; ++j) {
                const size_t i = (size_t)b * win + (size_t)r * GCT_REGION + j;
                const int in = r < copied_regions && j >= off && j < off + bytes;
                const unsigned char want = in ? src[i] : 0xA5;
                if (out[i] != want) {
                    if (bad == 0)
                        cr_log_error("%s: block %u region %u byte %u: got 0x%02x, want 0x%02x (%s)", what, b, r, j,
                                     out[i], want, in ? "copied" : "untouched");
                    ++bad;
                }
            }
    return bad;
}

static void run(int push)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    const char *q = getenv("CGT_QUICK");
    const int rounds = (q && *q && *q != '0') ? 1 : 4;
    const uint32_t aligns_copy[] = {16, 8, 4, 1}, aligns_push[] = {16, 8, 4};
    const uint32_t *aligns = push ? aligns_push : aligns_copy;
    const int naligns = push ? 3 : 4;
    const unsigned blocks = 4; /* two clusters of 2 for the push */
    const size_t cap = (size_t)blocks * 64u * GCT_REGION;
    unsigned char *h_src = malloc(cap), *h_out = malloc(cap), *d_src, *d_out;
    uint32_t *d_status, h_status[4];
    cr_assert(h_src && h_out);
    CGT_CUDA(cudaMalloc((void **)&d_src, cap));
    CGT_CUDA(cudaMalloc((void **)&d_out, cap));
    CGT_CUDA(cudaMalloc((void **)&d_status, sizeof h_status));
    size_t cases = 0, failed = 0;
    for (int round = 0; round < rounds; ++round)
        for (size_t s = 0; s < NSHAPES; ++s)
            for (int group = 0; group < 2; ++group)
                for (int a = 0; a < naligns; ++a) {
                    const shape_t *sh = &shapes[s];
                    const uint32_t nthreads = sh->bx * sh->by * sh->bz;
                    const uint32_t ntiles = (push && group == 1) ? 1u : (nthreads + sh->n - 1u) / sh->n;
                    const size_t total = (size_t)blocks * ntiles * GCT_REGION;
                    uint32_t off, bytes;
                    pick(aligns[a], &rng, &off, &bytes);
                    for (size_t i = 0; i < total; ++i)
                        h_src[i] = (unsigned char)cgt_rand(&rng);
                    CGT_CUDA(cudaMemcpy(d_src, h_src, total, cudaMemcpyHostToDevice));
                    CGT_CUDA(cudaMemset(d_out, 0x5A, total));
                    CGT_CUDA(cudaMemset(d_status, 0xFF, sizeof h_status));
                    int err = push ? gct_push(d_src, d_out, d_status, blocks, sh->bx, sh->by, sh->bz, sh->n, off,
                                              bytes, group)
                                   : gct_memcpy(d_src, d_out, blocks, sh->bx, sh->by, sh->bz, sh->n, off, bytes,
                                                group);
                    CGT_CUDA((cudaError_t)err);
                    CGT_SYNC();
                    CGT_CUDA(cudaMemcpy(h_out, d_out, total, cudaMemcpyDeviceToHost));
                    char what[160];
                    snprintf(what, sizeof what, "%s %ux%ux%u %s%u, offset %u, %u bytes",
                             push ? "push" : "memcpy_async", sh->bx, sh->by, sh->bz, group ? "block, tiles of " : "tiles of ",
                             sh->n, off, bytes);
                    /* A push's receiver gets its peer's regions: compare with the peer's source. */
                    size_t bad;
                    if (push) {
                        CGT_CUDA(cudaMemcpy(h_status, d_status, sizeof h_status, cudaMemcpyDeviceToHost));
                        for (unsigned b = 0; b < blocks; ++b)
                            cr_expect_eq(h_status[b], 0u, "%s: block %u never received all its bytes", what, b);
                        const size_t win = (size_t)ntiles * GCT_REGION;
                        unsigned char *peer = malloc(total);
                        cr_assert(peer);
                        for (unsigned b = 0; b < blocks; ++b)
                            memcpy(peer + b * win, h_src + (b ^ 1u) * win, win);
                        bad = check(peer, h_out, blocks, ntiles, ntiles, off, bytes, what);
                        free(peer);
                    } else {
                        bad = check(h_src, h_out, blocks, ntiles, group ? 1u : ntiles, off, bytes, what);
                    }
                    cr_expect_eq(bad, 0, "%s: %zu bytes wrong", what, bad);
                    ++cases;
                    failed += bad != 0;
                }
    cr_log_info("%zu cases, %zu failed", cases, failed);
    free(h_src);
    free(h_out);
    cudaFree(d_src);
    cudaFree(d_out);
    cudaFree(d_status);
}

Test(group_copy, memcpy_async_every_byte_every_group_shape) { run(0); }

Test(group_copy, dsmem_push_every_byte_every_group_shape) { run(1); }

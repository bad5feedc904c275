/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/async/staged_copy_test.c — the staged group copy (issue 23). GPU:
 *
 *   - overlap: the copy call returns before its bytes land. Each of 256
 *     threads issues a copy of a cold source (4 bytes per thread through the
 *     tile of one thread, the port of globalToShmemAsyncCopy that found the
 *     defect; 16 bytes per thread; a block's contiguous 4 KiB), reads the
 *     destination at once and again after the wait. A synchronous copy (the
 *     old 4-byte path: byte loads and stores before returning) has always
 *     written it by the first read; an asynchronous one almost never has,
 *     the source being hundreds of cycles away. The test wants the poison
 *     in at least half of the threads' first reads and the data in every
 *     thread's second, and the call's median time (clock cycles) below the
 *     median time of one ordinary load + shared store of another cold word;
 *   - cg_memcpy_async_aligned(&block, ..., N) beside C++ CG's
 *     memcpy_async(block, ..., cuda::aligned_size_t<N>) in the same kernel,
 *     N = 4, 8, 16, random offsets and sizes (multiples of N), 1-D and 3-D
 *     blocks, every byte of both against the host (poison outside); and
 *     with a size that is not a multiple of N (outside the contract, release
 *     builds): the whole pieces land, nothing past dst + bytes changes;
 *   - the barrier forms (issue 34): cg_memcpy_async_aligned(&g, ..., N, &bar)
 *     for the block and for tiles of 32 (partial last tiles included), and
 *     the group-less cg_memcpy_async_thread(..., N, &bar) by single threads,
 *     beside libcu++'s cuda::memcpy_async(..., aligned_size_t<N>, barrier)
 *     in the same kernel (block and one-thread forms), random per-thread
 *     delays before the calls, every byte against the host; and the
 *     over-size case as above.
 *
 * The overlap test reads a destination before its wait on purpose (a race
 * by design) and times with clock64: it skips under compute-sanitizer.
 * Kernels: staged_copy_kernels.cu.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/async/staged_copy_kernels.h"
#include "tests/support/cgtest.h"

TestSuite(staged_copy, .timeout = 120);

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static uint32_t median(uint32_t *v, size_t n)
{
    qsort(v, n, sizeof v[0], cmp_u32);
    return v[n / 2];
}

Test(staged_copy, the_call_returns_before_the_bytes_land)
{
    cgt_require_sm90();
    cgt_skip_under_sanitizer("any", "reads a copy's destination before its wait on purpose, and times with clock64");
    /* 256 MiB, written once from the host: the lines read first are long out
     * of L2 (50-60 MiB) by the time the kernel runs. One word per 128-byte
     * line per thread (stride 32 words; 16-byte pieces stay in their line). */
    const uint32_t stride = 32u;
    const size_t words = (size_t)64u << 20;
    const size_t used = 4u * SCT_OVERLAP_THREADS * stride; /* 2 rounds x (copy + reference) lines */
    uint32_t *h = malloc(words * sizeof *h), *d_src;
    sct_overlap_out_t out[SCT_OVERLAP_THREADS], *d_out;
    cr_assert(h);
    uint64_t rng = cgt_seed();
    for (size_t i = 0; i < words; ++i)
        h[i] = (uint32_t)cgt_rand(&rng) | 1u; /* odd: never the poison (0xDEADBEEF is odd too: see below) */
    for (size_t i = 0; i < used; ++i)
        if (h[i] == SCT_POISON)
            h[i] = 1u;
    CGT_CUDA(cudaMalloc((void **)&d_src, words * sizeof *h));
    CGT_CUDA(cudaMalloc((void **)&d_out, sizeof out));
    static const char *const forms[] = {"cg_memcpy_async(&one_thread, dst, src, 4)",
                                        "cg_memcpy_async_aligned(&one_thread, dst, src, 4, 4)",
                                        "cg_memcpy_async(&one_thread, dst, src, 16)",
                                        "cg_memcpy_async_aligned(&one_thread, dst, src, 16, 16)",
                                        "cg_memcpy_async(&block, dst, src, 4096)",
                                        "cg_memcpy_async_aligned(&block, dst, src, 4096, 16)"};
    for (uint32_t form = 0; form < 6; ++form) {
        /* A fresh upload per form, so no form finds its lines in L2. */
        CGT_CUDA(cudaMemcpy(d_src, h, words * sizeof *h, cudaMemcpyHostToDevice));
        CGT_CUDA(cudaMemset(d_out, 0, sizeof out));
        CGT_CUDA((cudaError_t)sct_overlap(d_src, d_out, form, stride));
        CGT_SYNC();
        CGT_CUDA(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
        uint32_t issue[SCT_OVERLAP_THREADS], sync[SCT_OVERLAP_THREADS], waits[SCT_OVERLAP_THREADS];
        uint32_t poisoned = 0, wrong = 0, torn = 0;
        const size_t base = 2u * SCT_OVERLAP_THREADS * stride; /* round 1 */
        for (uint32_t t = 0; t < SCT_OVERLAP_THREADS; ++t) {
            const uint32_t want = form >= 4u ? h[base + 4u * t] : h[base + (size_t)t * stride];
            const uint32_t want_ref = h[base + (size_t)(SCT_OVERLAP_THREADS + t) * stride];
            poisoned += out[t].early == SCT_POISON;
            if (out[t].late != want || out[t].ref != want_ref) {
                if (wrong++ < 5)
                    cr_log_error("%s: thread %u: after the wait 0x%08x (want 0x%08x), reference 0x%08x (want 0x%08x)",
                                 forms[form], t, out[t].late, want, out[t].ref, want_ref);
            }
            if (out[t].early != SCT_POISON && out[t].early != want && torn++ < 5)
                cr_log_error("%s: thread %u read 0x%08x before the wait: neither poison nor the data", forms[form],
                             t, out[t].early);
            issue[t] = out[t].issue;
            sync[t] = out[t].sync;
            waits[t] = out[t].wait;
        }
        const uint32_t mi = median(issue, SCT_OVERLAP_THREADS), ms = median(sync, SCT_OVERLAP_THREADS),
                       mw = median(waits, SCT_OVERLAP_THREADS);
        cr_log_info("%s: %u of %u threads saw the poison before the wait; median cycles: call %u, wait %u, "
                    "synchronous load+store %u",
                    forms[form], poisoned, SCT_OVERLAP_THREADS, mi, mw, ms);
        cr_expect_eq(wrong, 0u, "%s: %u threads read wrong data after the wait", forms[form], wrong);
        /* Before the wait a word is the poison or the data, nothing else (a
         * 4-byte copy lands whole): a third value is a copy into the wrong
         * place or a torn word. */
        cr_expect_eq(torn, 0u, "%s: %u threads read a value before the wait that is neither the poison nor the data",
                     forms[form], torn);
        cr_expect_geq(poisoned, SCT_OVERLAP_THREADS / 2u,
                      "%s: only %u of %u threads found the destination unwritten right after the call: the copy "
                      "is synchronous (it completes at the call, not at the wait)",
                      forms[form], poisoned, SCT_OVERLAP_THREADS);
        cr_expect_lt(mi, ms,
                     "%s: the call takes %u cycles (median), an ordinary load + store %u: it waits for its data",
                     forms[form], mi, ms);
    }
    CGT_CUDA(cudaFree(d_src));
    CGT_CUDA(cudaFree(d_out));
    free(h);
}

/* The buffers of the aligned-copy cases: a source of up to SCT_MAX_CHUNKS
 * chunks and the kernel's dump of both halves, on the host and the device. */
typedef struct sct_bufs {
    unsigned char *h_src, *h_out, *d_src, *d_out;
    size_t cases, bad;
} sct_bufs_t;

static void bufs_alloc(sct_bufs_t *b)
{
    const size_t cap = (size_t)2u * SCT_MAX_CHUNKS * SCT_CHUNK;
    memset(b, 0, sizeof *b);
    b->h_src = malloc(cap);
    b->h_out = malloc(cap);
    cr_assert(b->h_src && b->h_out);
    CGT_CUDA(cudaMalloc((void **)&b->d_src, cap));
    CGT_CUDA(cudaMalloc((void **)&b->d_out, cap));
}

static void bufs_free(sct_bufs_t *b)
{
    cr_log_info("%zu cases", b->cases);
    cr_expect_eq(b->bad, 0, "%zu chunks wrong (first 10 above)", b->bad);
    CGT_CUDA(cudaFree(b->d_src));
    CGT_CUDA(cudaFree(b->d_out));
    free(b->h_src);
    free(b->h_out);
}

/* Random offsets and chunk count; `extra` bytes for cgc's calls in the
 * rounds that test a size outside the contract (release builds only: a
 * debug build traps there by design). */
static void random_params(sct_aligned_params_t *p, uint64_t *rng, uint32_t align, uint32_t min_chunks, int oversize)
{
    memset(p, 0, sizeof *p);
    p->align = align;
    p->doff = align * (uint32_t)(cgt_rand(rng) % (64u / align));
    p->soff = align * (uint32_t)(cgt_rand(rng) % (64u / align));
    p->nchunks = min_chunks + (uint32_t)(cgt_rand(rng) % (SCT_MAX_CHUNKS + 1u - min_chunks));
    p->extra = oversize && !sct_debug_build() ? 1u + (uint32_t)(cgt_rand(rng) % (align - 1u)) : 0u;
}

/* Fresh source bytes, poisoned output, one launch, the dump back. */
static void run_case(sct_bufs_t *b, uint64_t *rng, const sct_aligned_params_t *p, const unsigned *shape,
                     int (*launch)(const unsigned char *, unsigned char *, const sct_aligned_params_t *, unsigned,
                                   unsigned, unsigned))
{
    const size_t half = (size_t)p->nchunks * SCT_CHUNK;
    for (size_t i = 0; i < half; ++i)
        b->h_src[i] = (unsigned char)cgt_rand(rng);
    CGT_CUDA(cudaMemcpy(b->d_src, b->h_src, half, cudaMemcpyHostToDevice));
    CGT_CUDA(cudaMemset(b->d_out, 0x5A, 2 * half));
    CGT_CUDA((cudaError_t)launch(b->d_src, b->d_out, p, shape[0], shape[1], shape[2]));
    CGT_SYNC();
    CGT_CUDA(cudaMemcpy(b->h_out, b->d_out, 2 * half, cudaMemcpyDeviceToHost));
    b->cases++;
}

/* Chunk k of side `side` (0 cgc, 1 C++): p->bytes[k] source bytes at doff
 * when `copied`, the kernel's poison 0xA5 everywhere else (so nothing past
 * dst + bytes, whatever extra cgc was given). Logs the first 10 bad. */
static void check_chunk(sct_bufs_t *b, const sct_aligned_params_t *p, int side, uint32_t k, int copied,
                        const char *what, const unsigned *shape)
{
    const size_t half = (size_t)p->nchunks * SCT_CHUNK;
    size_t wrong = 0;
    for (uint32_t j = 0; j < SCT_CHUNK; ++j) {
        const int in = copied && j >= p->doff && j < p->doff + p->bytes[k];
        const unsigned char want = in ? b->h_src[(size_t)k * SCT_CHUNK + p->soff + (j - p->doff)] : 0xA5;
        wrong += b->h_out[side * half + (size_t)k * SCT_CHUNK + j] != want;
    }
    if (wrong && b->bad++ < 10)
        cr_log_error("%s, align %u, block %ux%ux%u, chunk %u: %u bytes (+%u extra to cgc) at dst +%u from src +%u, "
                     "delays %s: %zu bytes wrong",
                     what, p->align, shape[0], shape[1], shape[2], k, p->bytes[k], p->extra, p->doff, p->soff,
                     p->seed ? "on" : "off", wrong);
}

Test(staged_copy, aligned_form_matches_cpp_cg_aligned_size_t)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    static const unsigned shapes[][3] = {{256, 1, 1}, {96, 1, 1}, {7, 5, 3}, {32, 1, 1}, {1024, 1, 1}};
    sct_bufs_t b;
    bufs_alloc(&b);
    for (int round = 0; round < 8; ++round)
        for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; ++sh)
            for (uint32_t align = 4; align <= 16; align *= 2) {
                sct_aligned_params_t p;
                /* Rounds 4..7 (release builds): cgc's size is not a multiple
                 * of align; it must still deliver exactly the whole pieces. */
                random_params(&p, &rng, align, 2u, round >= 4);
                for (uint32_t k = 0; k < p.nchunks; ++k) {
                    const uint32_t room = (SCT_CHUNK - 64u) / align;
                    const uint32_t pick = (uint32_t)(cgt_rand(&rng) % 4u);
                    p.bytes[k] = align * (pick == 0 ? (uint32_t)(cgt_rand(&rng) % 4u) /* 0..3 pieces */
                                                    : (uint32_t)(cgt_rand(&rng) % room));
                }
                run_case(&b, &rng, &p, shapes[sh], sct_aligned);
                for (int side = 0; side < 2; ++side)
                    for (uint32_t k = 0; k < p.nchunks; ++k)
                        check_chunk(&b, &p, side, k, 1, side ? "C++ CG aligned_size_t" : "cg_memcpy_async_aligned",
                                    shapes[sh]);
            }
    bufs_free(&b);
}

/* The barrier forms beside libcu++ (issue 34). Every chunk of every case:
 * the bytes of the chunk's copy, poison elsewhere, on both sides. */
Test(staged_copy, barrier_forms_match_libcuxx_aligned_size_t)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    static const unsigned shapes[][3] = {{256, 1, 1}, {96, 1, 1}, {7, 5, 3}, {32, 1, 1}, {1024, 1, 1}, {33, 1, 1}};
    static const char *modes[][2] = {{"cgc block", "libcu++ block"},
                                     {"cgc tiles of 32", "(none)"},
                                     {"cgc one thread (cg_memcpy_async_thread)", "libcu++ one thread"}};
    /* Under synccheck the libcu++ side's 4- and 8-byte barrier copies stay
     * out: libcu++ completes them with cp.async.mbarrier.arrive, which
     * synccheck books as the thread's own arrival and aborts the kernel on
     * (async/copy.h says why cgc waits for its pieces instead). cgc's side
     * always runs. */
    const char *san = getenv("CGT_SANITIZER");
    const int under_synccheck = san != NULL && strcmp(san, "synccheck") == 0;
    sct_bufs_t b;
    bufs_alloc(&b);
    for (int round = 0; round < 6; ++round)
        for (uint32_t mode = 0; mode < 3u; ++mode)
            for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; ++sh)
                for (uint32_t align = 4; align <= 16; align *= 2) {
                    const unsigned nt = shapes[sh][0] * shapes[sh][1] * shapes[sh][2];
                    sct_aligned_params_t p;
                    random_params(&p, &rng, align, 1u, round >= 4);
                    p.mode = mode;
                    p.seed = round & 1 ? (uint32_t)cgt_rand(&rng) | 1u : 0u;
                    p.no_cxx = under_synccheck && align < 16u;
                    for (uint32_t k = 0; k < p.nchunks; ++k)
                        p.bytes[k] = align * (1u + (uint32_t)(cgt_rand(&rng) % ((SCT_CHUNK - 128u) / align)));
                    run_case(&b, &rng, &p, shapes[sh], sct_bar);
                    const unsigned ntiles = (nt + 31u) / 32u;
                    for (int side = 0; side < 2; ++side)
                        for (uint32_t k = 0; k < p.nchunks; ++k) {
                            /* Which chunks each side copied: the block form all;
                             * tiles (cgc only) chunk k when tile k exists; one
                             * thread, chunk k when thread k exists. */
                            const int copied = (side == 0 || !p.no_cxx) &&
                                               (mode == 0u || (mode == 1u && side == 0 && k < ntiles) ||
                                                (mode == 2u && k < nt));
                            check_chunk(&b, &p, side, k, copied, modes[mode][side], shapes[sh]);
                        }
                }
    bufs_free(&b);
}

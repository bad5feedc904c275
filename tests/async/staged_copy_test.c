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
 *     blocks, every byte of both against the host (poison outside).
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

Test(staged_copy, aligned_form_matches_cpp_cg_aligned_size_t)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    static const unsigned shapes[][3] = {{256, 1, 1}, {96, 1, 1}, {7, 5, 3}, {32, 1, 1}, {1024, 1, 1}};
    const size_t cap = (size_t)2u * SCT_MAX_CHUNKS * SCT_CHUNK;
    unsigned char *h_src = malloc(cap), *h_out = malloc(cap), *d_src, *d_out;
    cr_assert(h_src && h_out);
    CGT_CUDA(cudaMalloc((void **)&d_src, cap));
    CGT_CUDA(cudaMalloc((void **)&d_out, cap));
    size_t cases = 0, bad = 0;
    for (int round = 0; round < 8; ++round)
        for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; ++sh)
            for (uint32_t align = 4; align <= 16; align *= 2) {
                sct_aligned_params_t p;
                memset(&p, 0, sizeof p);
                p.align = align;
                p.doff = align * (uint32_t)(cgt_rand(&rng) % (64u / align));
                p.soff = align * (uint32_t)(cgt_rand(&rng) % (64u / align));
                p.nchunks = 2u + (uint32_t)(cgt_rand(&rng) % (SCT_MAX_CHUNKS - 1u));
                for (uint32_t k = 0; k < p.nchunks; ++k) {
                    const uint32_t room = (SCT_CHUNK - 64u) / align;
                    const uint32_t pick = (uint32_t)(cgt_rand(&rng) % 4u);
                    p.bytes[k] = align * (pick == 0 ? (uint32_t)(cgt_rand(&rng) % 4u) /* 0..3 pieces */
                                                    : (uint32_t)(cgt_rand(&rng) % room));
                }
                const size_t half = (size_t)p.nchunks * SCT_CHUNK;
                for (size_t i = 0; i < half; ++i)
                    h_src[i] = (unsigned char)cgt_rand(&rng);
                CGT_CUDA(cudaMemcpy(d_src, h_src, half, cudaMemcpyHostToDevice));
                CGT_CUDA(cudaMemset(d_out, 0x5A, 2 * half));
                CGT_CUDA((cudaError_t)sct_aligned(d_src, d_out, &p, shapes[sh][0], shapes[sh][1], shapes[sh][2]));
                CGT_SYNC();
                CGT_CUDA(cudaMemcpy(h_out, d_out, 2 * half, cudaMemcpyDeviceToHost));
                ++cases;
                for (int side = 0; side < 2; ++side)
                    for (uint32_t k = 0; k < p.nchunks; ++k) {
                        size_t wrong = 0;
                        for (uint32_t j = 0; j < SCT_CHUNK; ++j) {
                            const int in = j >= p.doff && j < p.doff + p.bytes[k];
                            const unsigned char want = in ? h_src[(size_t)k * SCT_CHUNK + p.soff + (j - p.doff)] : 0xA5;
                            wrong += h_out[side * half + (size_t)k * SCT_CHUNK + j] != want;
                        }
                        if (wrong && bad++ < 10)
                            cr_log_error("%s, align %u, block %ux%ux%u, chunk %u: %u bytes at dst +%u from src +%u: "
                                         "%zu bytes wrong",
                                         side ? "C++ CG aligned_size_t" : "cg_memcpy_async_aligned", align,
                                         shapes[sh][0], shapes[sh][1], shapes[sh][2], k, p.bytes[k], p.doff, p.soff,
                                         wrong);
                    }
            }
    cr_log_info("%zu cases", cases);
    cr_expect_eq(bad, 0, "%zu chunks wrong (first 10 above)", bad);
    CGT_CUDA(cudaFree(d_src));
    CGT_CUDA(cudaFree(d_out));
    free(h_src);
    free(h_out);
}

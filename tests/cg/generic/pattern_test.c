/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/generic/pattern_test.c — docs/PORTING.md's patterns run as written
 * (pattern_kernels.cu):
 *   - the thread-scope pipeline: libcu++'s cuda::make_pipeline() loop (3
 *     stages, producer_commit, consumer_wait) and its cgc port with
 *     cg_this_thread(), cg_memcpy_async and cg_wait_prior in the same kernel
 *     on the same fresh random input; every thread's result must equal the
 *     other's and the host's (small-integer inputs: exact sums), for several
 *     chunk counts, including fewer chunks than stages;
 *   - the per-thread copy: cg_memcpy_async(&me, ...) + cg_wait(&me) of 1..48
 *     bytes at every alignment of source and destination; every byte of each
 *     thread's 64-byte slot checked (the copied bytes, and the poison around
 *     them).
 * Seeds printed (CGC_SEED replays). Without an sm_90 device both skip and
 * say why.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/cg/generic/pattern_kernels.h"
#include "tests/support/cgtest.h"

TestSuite(generic_patterns, .timeout = 300);

Test(generic_patterns, thread_scope_pipeline_port_matches_libcuxx)
{
    cgt_require_sm90();
    uint64_t st = cgt_seed();
    const unsigned blocks = 24, T = CGP_PIPE_THREADS;
    static const int iter_counts[] = {1, 2, 3, 5, 64};
    for (size_t c = 0; c < sizeof iter_counts / sizeof iter_counts[0]; ++c) {
        const int iters = iter_counts[c];
        const size_t chunk = (size_t)blocks * T, n4 = chunk * (size_t)iters;
        float *in = malloc(n4 * 4 * sizeof(float));
        float *oc = malloc(chunk * sizeof(float)), *op = malloc(chunk * sizeof(float));
        cr_assert(in && oc && op);
        for (size_t i = 0; i < n4 * 4; ++i)
            in[i] = (float)(cgt_rand(&st) % 16u);
        float *din, *doc, *dop;
        CGT_CUDA(cudaMalloc((void **)&din, n4 * 4 * sizeof(float)));
        CGT_CUDA(cudaMalloc((void **)&doc, chunk * sizeof(float)));
        CGT_CUDA(cudaMalloc((void **)&dop, chunk * sizeof(float)));
        CGT_CUDA(cudaMemcpy(din, in, n4 * 4 * sizeof(float), cudaMemcpyHostToDevice));
        CGT_CUDA(cudaMemset(doc, 0xA5, chunk * sizeof(float)));
        CGT_CUDA(cudaMemset(dop, 0xA5, chunk * sizeof(float)));
        CGT_CUDA(cgp_thread_pipeline(blocks, iters, din, doc, dop));
        CGT_SYNC();
        CGT_CUDA(cudaMemcpy(oc, doc, chunk * sizeof(float), cudaMemcpyDeviceToHost));
        CGT_CUDA(cudaMemcpy(op, dop, chunk * sizeof(float), cudaMemcpyDeviceToHost));
        unsigned bad = 0;
        for (unsigned b = 0; b < blocks; ++b)
            for (unsigned t = 0; t < T; ++t) {
                float want = 0.0f;
                for (int k = 0; k < iters; ++k) {
                    const float *v = in + 4 * ((size_t)k * chunk + (size_t)b * T + (t + (unsigned)k) % T);
                    want += v[0] + 2.0f * v[1] + 3.0f * v[2] + 4.0f * v[3];
                }
                const size_t g = (size_t)b * T + t;
                if ((oc[g] != want || op[g] != want) && ++bad <= 8)
                    cr_log_error("iters %d block %u thread %u: cgc %g, libcu++ %g, host %g", iters, b, t, oc[g], op[g],
                                 want);
            }
        cr_expect_eq(bad, 0u, "thread-scope pipeline, %d chunks: %u threads wrong (first ones above)", iters, bad);
        CGT_CUDA(cudaFree(din));
        CGT_CUDA(cudaFree(doc));
        CGT_CUDA(cudaFree(dop));
        free(in);
        free(oc);
        free(op);
    }
}

Test(generic_patterns, per_thread_copy_of_any_size_and_alignment)
{
    cgt_require_sm90();
    uint64_t st = cgt_seed();
    const unsigned blocks = 8, threads = 96; /* a partial warp's worth of odd lanes too */
    const size_t total = (size_t)blocks * threads, src_bytes = 64 * total;
    unsigned char *src = malloc(src_bytes), *out = malloc(64 * total);
    uint32_t *off = malloc(total * 4), *soff = malloc(total * 4), *len = malloc(total * 4);
    cr_assert(src && out && off && soff && len);
    for (size_t i = 0; i < src_bytes; ++i) {
        src[i] = (unsigned char)cgt_rand(&st);
        if (src[i] == 0xA5) /* never the poison, so a missed byte shows */
            src[i] = 0x5A;
    }
    for (size_t g = 0; g < total; ++g) {
        len[g] = 1u + (uint32_t)(cgt_rand(&st) % 48u);
        soff[g] = (uint32_t)(cgt_rand(&st) % (64u - len[g] + 1u));
        /* every alignment of source and destination, 16-byte congruent ones too */
        off[g] = (uint32_t)(64 * g) + (cgt_rand(&st) % 4u == 0 ? soff[g] % 16u : (uint32_t)(cgt_rand(&st) % 16u));
        if (off[g] + len[g] > src_bytes)
            off[g] = (uint32_t)(src_bytes - len[g]);
    }
    unsigned char *dsrc, *dout;
    uint32_t *doff, *dsoff, *dlen;
    CGT_CUDA(cudaMalloc((void **)&dsrc, src_bytes));
    CGT_CUDA(cudaMalloc((void **)&dout, 64 * total));
    CGT_CUDA(cudaMalloc((void **)&doff, total * 4));
    CGT_CUDA(cudaMalloc((void **)&dsoff, total * 4));
    CGT_CUDA(cudaMalloc((void **)&dlen, total * 4));
    CGT_CUDA(cudaMemcpy(dsrc, src, src_bytes, cudaMemcpyHostToDevice));
    CGT_CUDA(cudaMemcpy(doff, off, total * 4, cudaMemcpyHostToDevice));
    CGT_CUDA(cudaMemcpy(dsoff, soff, total * 4, cudaMemcpyHostToDevice));
    CGT_CUDA(cudaMemcpy(dlen, len, total * 4, cudaMemcpyHostToDevice));
    CGT_CUDA(cudaMemset(dout, 0x11, 64 * total));
    CGT_CUDA(cgp_thread_copy(blocks, threads, dsrc, doff, dsoff, dlen, dout));
    CGT_SYNC();
    CGT_CUDA(cudaMemcpy(out, dout, 64 * total, cudaMemcpyDeviceToHost));
    unsigned bad = 0;
    for (size_t g = 0; g < total; ++g)
        for (uint32_t i = 0; i < 64; ++i) {
            const int inside = i >= soff[g] && i < soff[g] + len[g];
            const unsigned char want = inside ? src[off[g] + (i - soff[g])] : 0xA5;
            if (out[64 * g + i] != want && ++bad <= 8)
                cr_log_error("thread %zu (len %u, src offset %u, slot offset %u): byte %u is 0x%02x, expected 0x%02x", g,
                             len[g], off[g], soff[g], i, out[64 * g + i], want);
        }
    cr_expect_eq(bad, 0u, "per-thread copy: %u bytes wrong (first ones above)", bad);
    CGT_CUDA(cudaFree(dsrc));
    CGT_CUDA(cudaFree(dout));
    CGT_CUDA(cudaFree(doff));
    CGT_CUDA(cudaFree(dsoff));
    CGT_CUDA(cudaFree(dlen));
    free(src);
    free(out);
    free(off);
    free(soff);
    free(len);
}

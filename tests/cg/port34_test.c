/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/port34_test.c — GPU: issue 34's contracts against C++ CG in the
 * same kernel (port34_kernels.cu), every thread checked against C++ CG and
 * against a host model; outputs poisoned first, inputs random (CGC_SEED).
 * Skips without an sm_90 device.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/cg/port34_kernels.h"
#include "tests/support/cgtest.h"

TestSuite(cg_port34, .timeout = 60);

/* labeled_partition(g, bool) is binary_partition in C++ CG and in cgc: the
 * same group for every lane, and the group the host expects (the threads of
 * the warp with the same flag; meta rank = the flag, meta size 2, as
 * binary_partition, or 0 of 1 when every lane has the same flag; a labeled
 * partition by 0/1 would number the labels by their lowest lane instead).
 * 1000 threads: the last warp partial. Rounds: random flags; lane 0 of each
 * warp set and the rest clear (labels by lowest lane would give the set
 * group meta rank 0); the reverse. */
Test(cg_port34, labeled_partition_with_a_bool_is_binary_partition)
{
    cgt_require_sm90();
    const uint32_t n = 1000;
    uint64_t seed = cgt_seed();
    int *flags;
    uint32_t *out;
    CGT_CUDA(cudaMallocManaged((void **)&flags, n * sizeof *flags, cudaMemAttachGlobal));
    CGT_CUDA(cudaMallocManaged((void **)&out, 8u * n * sizeof *out, cudaMemAttachGlobal));
    for (int round = 0; round < 3; ++round) {
        for (uint32_t i = 0; i < n; ++i) /* round 0: random; 1: lane 0 set (labels would agree); 2: lane 0 clear */
            flags[i] = round == 0 ? (int)(cgt_rand(&seed) & 1u) : ((i % 32u == 0) == (round == 1)) ? 1 : 0;
        memset(out, CGT_POISON_BYTE, 8u * n * sizeof *out);
        CGT_CUDA(cgt_labeled_bool(flags, out, n));
        CGT_SYNC();
        uint32_t bad = 0;
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t *o = out + 8u * i;
            const uint32_t warp0 = i & ~31u, end = warp0 + 32u < n ? warp0 + 32u : n;
            uint32_t size = 0, rank = 0;
            for (uint32_t j = warp0; j < end; ++j)
                if ((flags[j] != 0) == (flags[i] != 0)) {
                    rank += j < i;
                    ++size;
                }
            /* binary_partition's meta group: (flag, 2), or (0, 1) when the
             * whole warp has one flag */
            const int split = size != end - warp0;
            const uint32_t want[4] = {size, rank, split && flags[i] != 0 ? 1u : 0u, split ? 2u : 1u};
            for (int k = 0; k < 4; ++k) {
                bad += o[k] != o[4 + k] || o[k] != want[k];
                if ((o[k] != o[4 + k] || o[k] != want[k]) && bad <= 6)
                    cr_expect(0, "round %d thread %u word %d: C++ CG %u, cgc %u, expected %u", round, i, k, o[k],
                              o[4 + k], want[k]);
            }
        }
        cr_expect_eq(bad, 0u, "round %d: %u words differ", round, bad);
    }
    CGT_CUDA(cudaFree(flags));
    CGT_CUDA(cudaFree(out));
}

/* A kernel written with const groups, ported with pointers to const and the
 * typed map_shared_rank: every thread's result equals the C++ original's and
 * the host's (the peer CTA's value, reduced over the tile of 16, plus the
 * tile's meta rank). */
Test(cg_port34, const_group_port_matches_cpp)
{
    cgt_require_sm90();
    const uint32_t blocks = 8, threads = 256, n = blocks * threads;
    uint64_t seed = cgt_seed();
    int *in, *out;
    CGT_CUDA(cudaMallocManaged((void **)&in, n * sizeof *in, cudaMemAttachGlobal));
    CGT_CUDA(cudaMallocManaged((void **)&out, 2u * n * sizeof *out, cudaMemAttachGlobal));
    for (uint32_t i = 0; i < n; ++i)
        in[i] = (int)(cgt_rand(&seed) % 2001u) - 1000;
    memset(out, CGT_POISON_BYTE, 2u * n * sizeof *out);
    CGT_CUDA(cgt_const_port(in, out, blocks));
    CGT_SYNC();
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t blk = i / threads, r = i % threads, peer = (blk ^ 1u) * threads, t0 = r & ~15u;
        int want = (int)(r / 16u);
        for (uint32_t j = 0; j < 16u; ++j)
            want += in[peer + t0 + j];
        bad += out[2u * i] != want || out[2u * i + 1u] != want;
        if ((out[2u * i] != want || out[2u * i + 1u] != want) && bad <= 6)
            cr_expect(0, "thread %u: C++ CG %d, cgc %d, expected %d", i, out[2u * i], out[2u * i + 1u], want);
    }
    cr_expect_eq(bad, 0u, "%u of %u threads wrong", bad, n);
    CGT_CUDA(cudaFree(in));
    CGT_CUDA(cudaFree(out));
}

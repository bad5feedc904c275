/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/build/debugbuild/every_wait_test.c — GPU: a debug build launches every
 * kernel shape its release build launches. The every-wait kernel
 * (every_wait_kernels.cu: block split barrier, cg_barrier_t, mbarrier waits
 * at CTA and cluster scope, the block pipeline, a DSMEM push with its wait
 * and release, the cluster barrier, the grid barrier, the device barrier)
 * is built as a release object and as a CG_DEBUG=1 object; both launch
 * through cg_launch with 1024 threads a block in clusters of 2,
 * cooperatively, and every output word is checked against the host's
 * reference (fresh random input, outputs poisoned first). The debug build's
 * register count must allow 1024 threads (64 a thread at most).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/build/debugbuild/every_wait.h"
#include "tests/support/cgtest.h"

TestSuite(every_wait, .timeout = 120);

#define EW_BLOCKS 4u

static uint32_t rounds_for_run(void)
{
    const char *q = getenv("CGT_QUICK");
    return (q != NULL && q[0] != '\0' && q[0] != '0') ? 6u : 64u;
}

/* The kernel's steps, on the host (see every_wait_kernels.cu). */
static void reference(const uint32_t *in, uint32_t nb, uint32_t rounds, uint32_t *want)
{
    const uint32_t T = EW_THREADS, n = EW_CLUSTER;
    size_t plane = (size_t)nb * T;
    uint32_t *v = malloc(plane * 4u), *y = malloc(plane * 4u), *z = malloc(plane * 4u);
    cr_assert(v != NULL && y != NULL && z != NULL, "host allocation failed");
    memset(want, 0, plane * 4u);
    for (uint32_t t = 0; t < rounds; ++t) {
        for (uint32_t b = 0; b < nb; ++b)
            for (uint32_t i = 0; i < T; ++i)
                v[(size_t)b * T + i] = in[((size_t)b * rounds + t) * T + i];
        for (uint32_t b = 0; b < nb; ++b) {
            uint32_t r = b % n, base = b - r, next = base + (r + 1u) % n;
            uint32_t nprev = base + ((next - base) + n - 1u) % n; /* next's sender: b */
            for (uint32_t i = 0; i < T; ++i) {
                /* y = (v ^ w) of the next rank; w of rank q = v of q's previous rank, thread i + 1 */
                uint32_t wn = v[(size_t)nprev * T + (i + 1u) % T];
                y[(size_t)b * T + i] = v[(size_t)next * T + i] ^ wn;
            }
        }
        for (uint32_t b = 0; b < nb; ++b)
            for (uint32_t i = 0; i < T; ++i)
                z[(size_t)b * T + i] = y[(size_t)((b + 1u) % nb) * T + i];
        for (uint32_t b = 0; b < nb; ++b) {
            uint32_t r = b % n, prev = b - r + (r + n - 1u) % n;
            for (uint32_t i = 0; i < T; ++i) {
                size_t k = (size_t)b * T + i;
                uint32_t w = v[(size_t)prev * T + (i + 1u) % T];
                uint32_t h = z[(size_t)((b + nb - 1u) % nb) * T + i] + 1u;
                want[k] = want[k] * 31u + v[k] + 3u * w + 5u * y[k] + 7u * z[k] + 11u * h;
            }
        }
    }
    CGT_FREE(v, y, z);
}

typedef int (*ew_launch_fn)(const uint32_t *, uint32_t *, uint32_t *, uint32_t *, cg_device_barrier_t *, uint32_t,
                            uint32_t, char *, size_t);

static void run(const char *build, ew_launch_fn launch)
{
    cgt_require_sm90();
    const uint32_t nb = EW_BLOCKS, rounds = rounds_for_run(), T = EW_THREADS;
    const size_t plane = (size_t)nb * T, in_words = plane * rounds;
    uint64_t s = cgt_seed();
    uint32_t *h_in = malloc(in_words * 4u), *want = malloc(plane * 4u), *got = malloc(plane * 4u);
    cr_assert(h_in != NULL && want != NULL && got != NULL, "host allocation failed");
    for (size_t k = 0; k < in_words; ++k)
        h_in[k] = (uint32_t)cgt_rand(&s);
    reference(h_in, nb, rounds, want);

    uint32_t *in = NULL, *out = NULL, *gslot = NULL, *hslot = NULL;
    cg_device_barrier_t *dbar = NULL;
    CGT_CUDA(cudaMalloc((void **)&in, in_words * 4u));
    CGT_CUDA(cudaMalloc((void **)&out, plane * 4u));
    CGT_CUDA(cudaMalloc((void **)&gslot, plane * 4u));
    CGT_CUDA(cudaMalloc((void **)&hslot, plane * 4u));
    CGT_CUDA(cudaMalloc((void **)&dbar, sizeof *dbar));
    CGT_CUDA(cudaMemcpy(in, h_in, in_words * 4u, cudaMemcpyHostToDevice));
    CGT_CUDA(cudaMemset(out, CGT_POISON_BYTE, plane * 4u));
    CGT_CUDA(cudaMemset(gslot, CGT_POISON_BYTE, plane * 4u));
    CGT_CUDA(cudaMemset(hslot, CGT_POISON_BYTE, plane * 4u));
    CGT_OK(cg_device_barrier_init_host(dbar, nb * T));

    char detail[512] = "";
    int st = launch(in, out, gslot, hslot, dbar, nb, rounds, detail, sizeof detail);
    cr_assert_eq(st, 0, "%s build: cg_launch of the every-wait kernel (%u blocks of %u threads, clusters of %u, "
                        "cooperative) failed: %s", build, nb, T, EW_CLUSTER, detail);
    CGT_SYNC();
    CGT_CUDA(cudaMemcpy(got, out, plane * 4u, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t k = 0; k < plane; ++k)
        if (got[k] != want[k] && bad++ < 8)
            cr_log_error("%s build: block %zu thread %zu: got 0x%08x, want 0x%08x", build, k / T, k % T, got[k],
                         want[k]);
    cr_expect_eq(bad, 0, "%s build: %zu of %zu results wrong (%u rounds)", build, bad, plane, rounds);
    CGT_CUDA_FREE(in, out, gslot, hslot, dbar);
    CGT_FREE(h_in, want, got);
}

Test(every_wait, release_build_runs_1024_threads)
{
    run("release", ew_every_wait_launch);
}

Test(every_wait, debug_build_runs_1024_threads)
{
    run("debug", ewd_every_wait_launch);
}

/* The registers the driver reports for each build: the debug build must fit
 * a 1024-thread block (65536 registers an SM: 64 a thread). */
Test(every_wait, debug_build_registers_allow_1024_threads)
{
    cgt_require_sm90();
    int rel = ew_every_wait_registers(), dbg = ewd_every_wait_registers();
    cr_assert(rel > 0 && dbg > 0, "cudaFuncGetAttributes failed (release %d, debug %d)", rel, dbg);
    cr_log_info("every-wait kernel: %d registers (release), %d (debug)", rel, dbg);
    cr_expect_leq(dbg, 64, "the debug build needs %d registers a thread (release: %d): a 1024-thread block "
                           "allows 64", dbg, rel);
}

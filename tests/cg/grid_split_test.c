/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/grid_split_test.c — the grid split barrier with work between
 * arrive and wait (the release-reduction arrive, barrier/grid_barrier.h):
 * random pauses per thread before the arrive and per block between arrive
 * and wait, thousands of phases, 1 to 16 blocks per SM and the full
 * cooperative grid, 3-D grids and blocks, a partial last warp and blocks
 * smaller than a warp, phases spread over three const cg_grid_t. Every
 * thread checks four words of a thread of another block every phase. And
 * the positive control: the same kernel with the wait's acquire weakened
 * (relaxed polls, no fence), whose stale reads are reported beside the real
 * form's 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "barrier/grid_barrier.h"
#include "cg/launch.h"
#include "tests/cg/grid_split_kernels.h"
#include "tests/support/cgtest.h"

TestSuite(cg_grid_split, .timeout = 600);

static int quick(void)
{
    const char *q = getenv("CGT_QUICK");
    return q && *q && *q != '0';
}

typedef cg_status_t (*launch_fn)(const cgt_grid_shape_t *, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t *,
                                 uint32_t *, cgt_fail_t *);

/* One launch: fresh, poisoned buffers; returns the kernel's counts. */
static cgt_fail_t run(launch_fn fn, const cgt_grid_shape_t *s, uint32_t iters, uint32_t seed, uint32_t objects,
                      uint32_t delays)
{
    const size_t blocks = (size_t)s->grid[0] * s->grid[1] * s->grid[2];
    const size_t threads = blocks * s->block[0] * s->block[1] * s->block[2];
    uint32_t *buf = NULL, *ring = NULL;
    cgt_fail_t *f = NULL;
    CGT_CUDA(cudaMalloc((void **)&buf, 2u * 4u * threads * sizeof(uint32_t)));
    CGT_CUDA(cudaMemset(buf, CGT_POISON_BYTE, 2u * 4u * threads * sizeof(uint32_t)));
    CGT_CUDA(cudaMalloc((void **)&ring, blocks * sizeof(uint32_t)));
    CGT_CUDA(cudaMemset(ring, 0, blocks * sizeof(uint32_t)));
    CGT_CUDA(cudaMallocManaged((void **)&f, sizeof *f, cudaMemAttachGlobal));
    memset(f, 0, sizeof *f);
    CGT_CUDA(cudaDeviceSynchronize());
    CGT_OK(fn(s, iters, seed, objects, delays, buf, ring, f));
    CGT_SYNC();
    cgt_fail_t out = *f;
    CGT_CUDA(cudaFree(buf));
    CGT_CUDA(cudaFree(ring));
    CGT_CUDA(cudaFree(f));
    return out;
}

/* A grid of `blocks` blocks: 3-D (blocks/6 x 3 x 2) when it divides. */
static cgt_grid_shape_t shape(uint32_t blocks, uint32_t bx, uint32_t by, uint32_t bz, int three_d)
{
    cgt_grid_shape_t s = {{blocks, 1, 1}, {bx, by, bz}};
    if (three_d && blocks % 6u == 0) {
        s.grid[0] = blocks / 6u;
        s.grid[1] = 3;
        s.grid[2] = 2;
    }
    return s;
}

static void expect_ok(const cgt_fail_t *f, const char *what, unsigned long long threads, uint32_t iters)
{
    cr_expect_eq(f->errors, 0u, "%s: %u wrong reads; first: phase %u block %u thread %u got 0x%08x want 0x%08x",
                 what, f->errors, f->first_iter, f->first_block, f->first_thread, f->got, f->want);
    cr_expect_eq(f->timeouts, 0u, "%s: %u blocks waited in vain between arrive and wait for the next block's arrive",
                 what, f->timeouts);
    cr_expect_eq(f->checks, threads * iters, "%s: %llu checks, want %llu", what, f->checks, threads * iters);
    cr_expect_eq(f->phases, (unsigned long long)iters, "%s: %llu phases, want %u", what, f->phases, iters);
}

/* Work between arrive and wait at 1, 2, 4, 8, 16 blocks per SM and the full
 * grid, 1-D and 3-D grids and blocks (a 3-D block of 105 threads: a partial
 * last warp; 15 threads: a block smaller than a warp), one or three const
 * objects. */
Test(cg_grid_split, work_between_arrive_and_wait_every_shape)
{
    cgt_require_sm90();
    const uint32_t sms = (uint32_t)cgt_device_props()->multiProcessorCount;
    uint64_t rng = cgt_seed();
    const uint32_t iters = quick() ? 40 : 2000;
    static const struct {
        uint32_t per_sm; /* 0: the full cooperative grid */
        uint32_t bx, by, bz;
        int three_d;
        uint32_t objects;
    } cases[] = {
        {1, 256, 1, 1, 0, 1},  {1, 7, 5, 3, 1, 3},   {2, 256, 1, 1, 1, 3},  {4, 128, 2, 1, 0, 1},
        {8, 256, 1, 1, 1, 3},  {8, 7, 5, 3, 0, 1},   {16, 128, 1, 1, 0, 3}, {16, 4, 4, 8, 1, 1},
        {0, 64, 1, 1, 0, 3},   {0, 5, 3, 1, 1, 1},   {0, 1024, 1, 1, 1, 3},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        const uint32_t bt = cases[c].bx * cases[c].by * cases[c].bz;
        uint32_t full = 0;
        CGT_OK(cg_max_cooperative_blocks(cgt_grid_work_kernel(), bt, 0, &full));
        uint32_t blocks = cases[c].per_sm ? cases[c].per_sm * sms : full;
        if (blocks > full) {
            cr_log_info("case %zu: %u blocks of %u threads do not fit (at most %u): run at %u", c, blocks, bt, full,
                        full);
            blocks = full;
        }
        const cgt_grid_shape_t s = shape(blocks, cases[c].bx, cases[c].by, cases[c].bz, cases[c].three_d);
        char what[160];
        snprintf(what, sizeof what, "grid %ux%ux%u of %ux%ux%u (%u/SM), %u object(s), %u phases", s.grid[0],
                 s.grid[1], s.grid[2], s.block[0], s.block[1], s.block[2], blocks / sms, cases[c].objects, iters);
        const cgt_fail_t f = run(cgt_launch_grid_work, &s, iters, (uint32_t)cgt_rand(&rng), cases[c].objects, 1);
        expect_ok(&f, what, (unsigned long long)blocks * bt, iters);
        cr_log_info("%s: %llu checks, %u wrong", what, f.checks, f.errors);
    }
}

/* Many phases with the pauses: 1 block per SM (flat) and the full
 * cooperative grid of 128 threads (spread: the kernel's registers allow
 * about 9 blocks of 128 per SM on an H200, so the grid is sized from the
 * occupancy, not asked for at 16 per SM). */
Test(cg_grid_split, many_phases_with_random_pauses)
{
    cgt_require_sm90();
    const uint32_t sms = (uint32_t)cgt_device_props()->multiProcessorCount;
    uint64_t rng = cgt_seed();
    const uint32_t iters = quick() ? 100 : 100000;
    static const uint32_t threads[2] = {256, 128};
    for (int k = 0; k < 2; ++k) {
        uint32_t full = 0;
        CGT_OK(cg_max_cooperative_blocks(cgt_grid_work_kernel(), threads[k], 0, &full));
        const uint32_t blocks = k == 0 ? sms : full;
        cr_assert_geq(full, blocks, "%u blocks of %u threads are not co-resident (at most %u)", blocks, threads[k],
                      full);
        const cgt_grid_shape_t s = shape(blocks, threads[k], 1, 1, k == 1);
        char what[96];
        snprintf(what, sizeof what, "%u blocks (%u/SM) x %u threads, %u phases", blocks, blocks / sms, threads[k],
                 iters);
        const cgt_fail_t f = run(cgt_launch_grid_work, &s, iters, (uint32_t)cgt_rand(&rng), 3, 1);
        expect_ok(&f, what, (unsigned long long)blocks * threads[k], iters);
        cr_log_info("%s: %llu checks, %u wrong", what, f.checks, f.errors);
    }
}

/* The positive control: the same handoff with the wait's acquire weakened
 * (relaxed polls and no fence: the waiter's SM keeps serving the lines it
 * cached two phases before; flat barrier, 1 and 4 blocks per SM, no pauses).
 * Its stale reads are logged as a rate beside the real form's, which must be
 * 0. When the control fails nowhere, the test logs that there is no
 * detector on this GPU and claims nothing beyond "the library's form was not
 * wrong in practice" (as tests/stress/handoff). (A relaxed arrive, the control
 * before 2026-11-28, failed 0 times in 3.4G checks on an H200: a relaxed
 * reduction after __syncthreads still lands after the block's writes
 * there.) */
Test(cg_grid_split, relaxed_poll_control_beside_the_acquire)
{
    cgt_require_sm90();
    cgt_skip_under_sanitizer("any", "the control races on purpose");
    const uint32_t sms = (uint32_t)cgt_device_props()->multiProcessorCount;
    uint64_t rng = cgt_seed();
    const uint32_t iters = quick() ? 100 : 20000;
    static const uint32_t per_sm[2] = {1, 4};
    unsigned long long control_wrong = 0;
    for (int k = 0; k < 2; ++k) {
        const cgt_grid_shape_t s = shape(per_sm[k] * sms, 256, 1, 1, 0);
        const uint32_t seed = (uint32_t)cgt_rand(&rng);
        const cgt_fail_t control = run(cgt_launch_grid_work_control, &s, iters, seed, 1, 0);
        const cgt_fail_t real = run(cgt_launch_grid_work, &s, iters, seed, 1, 0);
        char what[96];
        snprintf(what, sizeof what, "%u/SM x 256, %u phases", per_sm[k], iters);
        expect_ok(&real, what, (unsigned long long)per_sm[k] * sms * 256u, iters);
        cr_log_info("%s: relaxed polls, no fence (control) %u wrong of %llu checks (%.3g%%); acquire polls %u wrong", what,
                    control.errors, control.checks,
                    control.checks ? 100.0 * control.errors / (double)control.checks : 0.0, real.errors);
        cr_expect_eq(control.phases, (unsigned long long)iters, "%s: the control still completes every phase", what);
        control_wrong += control.errors;
    }
    if (control_wrong == 0)
        cr_log_info("no control failed: no detector on this GPU. This test claims nothing beyond \"the library's "
                    "form was not wrong in practice\"; the PTX model argument is what requires the acquire");
    else
        cr_log_info("the control failed %llu times: the test detects a missing acquire", control_wrong);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/barrier_test.c — split barriers of the block, cluster and grid
 * groups: visibility of data across arrive/wait, real overlap of the block
 * barrier, millions of grid phases, and the >= 10^7-phase stress over block
 * sizes 32..1024 and cluster sizes 1..16 with random arrival order.
 * GPU tests: skip without an sm_90 device. CGT_QUICK=1 scales loops down. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "barrier/grid_barrier.h"
#include "cg/launch.h"
#include "tests/cg/barrier_kernels.h"
#include "tests/support/cgtest.h"

TestSuite(cg_barriers, .timeout = 300);

static int quick(void)
{
    const char *q = getenv("CGT_QUICK");
    return q && *q && *q != '0';
}

static cgt_fail_t *new_fail(void)
{
    cgt_fail_t *f;
    CGT_CUDA(cudaMallocManaged((void **)&f, sizeof *f, cudaMemAttachGlobal));
    memset(f, 0, sizeof *f);
    return f;
}

/* No wrong value, and exactly the checks and barrier phases the test asked
 * for, as the kernel counted them (cgt_fail_t). */
static void expect_clean(const cgt_fail_t *f, const char *what, unsigned long long want_checks,
                         unsigned long long want_phases)
{
    cr_expect_eq(f->errors, 0u, "%s: %u wrong values; first: phase %u block %u thread %u got 0x%08x want 0x%08x",
                 what, f->errors, f->first_iter, f->first_block, f->first_thread, f->got, f->want);
    cr_assert_gt(want_checks, 0ull, "%s: the test asks for no checks", what);
    cr_expect_eq(f->checks, want_checks, "%s: %llu checks made, want %llu", what, f->checks, want_checks);
    cr_expect_eq(f->phases, want_phases, "%s: %llu barrier phases counted, want %llu", what, f->phases, want_phases);
}

static const uint32_t k_threads[] = {32, 64, 128, 256, 512, 1024};
#define N_THREADS (sizeof k_threads / sizeof k_threads[0])

Test(cg_barriers, block_split_visibility_every_block_size)
{
    uint64_t rng = cgt_seed();
    uint32_t iters = quick() ? 40 : 5000;
    cgt_require_sm90();
    for (int prepare = 0; prepare < 2; prepare++)
        for (size_t t = 0; t < N_THREADS; t++) {
            cgt_fail_t *f = new_fail();
            char what[64];
            snprintf(what, sizeof what, "block of %u%s", k_threads[t], prepare ? ", prepared" : "");
            CGT_OK(cgt_launch_block_split(8, k_threads[t], iters, (uint32_t)cgt_rand(&rng), prepare, f));
            CGT_SYNC();
            expect_clean(f, what, 8ull * k_threads[t] * iters, 8ull * iters);
            CGT_CUDA(cudaFree(f));
        }
}

Test(cg_barriers, block_split_overlaps)
{
    static const uint32_t threads[] = {64, 256, 1024};
    cgt_require_sm90();
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        cgt_fail_t *f = new_fail();
        CGT_OK(cgt_launch_block_overlap(threads[t], f));
        CGT_SYNC();
        /* A timeout means a thread could not get past arrive, or a wait held
         * on until every thread reached its wait: no overlap. */
        cr_expect_eq(f->timeouts, 0u, "block of %u: %u bounded spins expired (arrive or wait blocked)", threads[t],
                     f->timeouts);
        cr_expect_gt(f->progress, 0u, "block of %u: no thread did work between arrive and wait", threads[t]);
        CGT_CUDA(cudaFree(f));
    }
}

Test(cg_barriers, cluster_split_visibility_every_cluster_size)
{
    uint64_t rng = cgt_seed();
    uint32_t iters = quick() ? 20 : 2000;
    cgt_require_sm90();
    /* Quick (sanitizer) runs: cluster sizes 1, 4, 9, 16 and one block size. */
    for (uint32_t c = 1; c <= 16; c += quick() ? (c == 1 ? 3 : c == 4 ? 5 : 7) : 1)
        for (size_t t = quick() ? 2 : 0; t < N_THREADS; t += quick() ? N_THREADS : 2) {
            cgt_fail_t *f = new_fail();
            char what[64];
            uint32_t blocks = c * 4;
            snprintf(what, sizeof what, "cluster %u, block of %u", c, k_threads[t]);
            CGT_OK(cgt_launch_cluster_split(blocks, k_threads[t], c, iters, (uint32_t)cgt_rand(&rng), (int)(c & 1),
                                            f));
            CGT_SYNC();
            expect_clean(f, what, (unsigned long long)blocks * k_threads[t] * iters,
                         (unsigned long long)(blocks / c) * iters);
            CGT_CUDA(cudaFree(f));
        }
}

/* The relaxed cluster barrier orders no memory, but its wait must still not
 * return before every thread of the cluster arrived: each thread's arrival
 * count, read through DSMEM after the wait in every CTA of the cluster, is
 * the phase's (or one more). Every cluster size, random delays before and
 * after the arrive; with and without a cluster-scope fence before it (with
 * it, the PTX model orders the count's store before the arrival; without
 * it, as users write the relaxed barrier, a short count could also be a
 * store not yet visible, which the fenced run then tells apart). */
Test(cg_barriers, cluster_relaxed_wait_waits_for_every_arrival)
{
    uint64_t rng = cgt_seed();
    uint32_t iters = quick() ? 20 : 2000;
    cgt_require_sm90();
    cgt_skip_under_sanitizer("racecheck", "a relaxed arrive orders no memory: the arrival stamps read through DSMEM race "
                                          "by design (the test checks counts, not data)");
    for (int fenced = 0; fenced < 2; fenced++)
        for (uint32_t c = 1; c <= 16; c += quick() ? (c == 1 ? 3 : c == 4 ? 5 : 7) : 1) {
            const uint32_t threads = 128, blocks = c * 4;
            cgt_fail_t *f = new_fail();
            char what[96];
            snprintf(what, sizeof what, "relaxed cluster barrier, cluster %u%s", c, fenced ? ", fenced" : "");
            CGT_OK(cgt_launch_cluster_relaxed_arrivals(blocks, threads, c, iters, (uint32_t)cgt_rand(&rng), fenced, f));
            CGT_SYNC();
            cr_expect_eq(f->errors, 0u,
                         "%s: %u arrival counts below the phase after a wait (or more than one ahead); first: "
                         "phase %u block %u thread %u read %u, want %u or %u",
                         what, f->errors, f->first_iter, f->first_block, f->first_thread, f->got, f->want,
                         f->want + 1u);
            expect_clean(f, what, (unsigned long long)blocks * threads * iters * c, (unsigned long long)4 * iters);
            CGT_CUDA(cudaFree(f));
        }
}

Test(cg_barriers, cluster_barrier_without_cluster_launch)
{
    uint64_t rng = cgt_seed();
    cgt_fail_t *f;
    cgt_require_sm90();
    f = new_fail();
    /* cluster 0: no cluster shape, implicit 1-block clusters. */
    CGT_OK(cgt_launch_cluster_split(64, 256, 0, 500, (uint32_t)cgt_rand(&rng), 1, f));
    CGT_SYNC();
    /* Implicit clusters of one block: 64 barrier objects. */
    expect_clean(f, "no cluster shape", 64ull * 256 * 500, 64ull * 500);
    CGT_CUDA(cudaFree(f));
}

/* Writes before the grid arrive are seen by every thread after the wait, at
 * full occupancy for each block size: 16 (a block smaller than a warp: the
 * spread barrier's watcher runs on warp 0's lanes) and 32 threads (32 blocks
 * per SM) and 128 (16 per SM) take the spread barrier, 1024 the flat one. */
Test(cg_barriers, grid_split_visibility)
{
    static const uint32_t threads[] = {16, 32, 128, 1024};
    uint64_t rng = cgt_seed();
    uint32_t iters = quick() ? 10 : 1000;
    cgt_require_sm90();
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        uint32_t blocks = 0;
        uint32_t *buf;
        cgt_fail_t *f = new_fail();
        char what[64];
        CGT_OK(cg_max_cooperative_blocks(cgt_grid_split_kernel(), threads[t], 0, &blocks));
        cr_assert_gt(blocks, 0u);
        CGT_CUDA(cudaMalloc((void **)&buf, sizeof(uint32_t) * 2 * blocks * threads[t]));
        CGT_CUDA(cudaMemset(buf, CGT_POISON_BYTE, sizeof(uint32_t) * 2 * blocks * threads[t]));
        snprintf(what, sizeof what, "grid %u x %u", blocks, threads[t]);
        CGT_OK(cgt_launch_grid_split(blocks, threads[t], iters, (uint32_t)cgt_rand(&rng), buf, f));
        CGT_SYNC();
        expect_clean(f, what, (unsigned long long)blocks * threads[t] * iters, iters);
        CGT_CUDA(cudaFree(buf));
        CGT_CUDA(cudaFree(f));
    }
}

/* Millions of back-to-back grid syncs (the re-arrival race of cuml#458 would
 * show as a wrong slot or a hang): one block per SM, then full occupancy. */
Test(cg_barriers, grid_sync_millions_of_phases, .timeout = 600)
{
    const struct cudaDeviceProp *p;
    uint32_t configs[2][3];
    cgt_require_sm90();
    p = cgt_device_props();
    {
        uint32_t full = 0;
        CGT_OK(cg_max_cooperative_blocks(cgt_grid_phases_kernel(), 128, 0, &full));
        configs[0][0] = (uint32_t)p->multiProcessorCount;
        configs[0][1] = 128;
        configs[0][2] = quick() ? 2000 : 2000000;
        configs[1][0] = full;
        configs[1][1] = 128;
        configs[1][2] = quick() ? 200 : 250000;
    }
    for (int c = 0; c < 2; c++) {
        uint32_t *slots;
        cgt_fail_t *f = new_fail();
        char what[64];
        CGT_CUDA(cudaMalloc((void **)&slots, sizeof(uint32_t) * 2 * configs[c][0]));
        CGT_CUDA(cudaMemset(slots, CGT_POISON_BYTE, sizeof(uint32_t) * 2 * configs[c][0]));
        snprintf(what, sizeof what, "grid %u x %u, %u phases", configs[c][0], configs[c][1], configs[c][2]);
        CGT_OK(cgt_launch_grid_phases(configs[c][0], configs[c][1], configs[c][2], 1, slots, f, NULL, 0));
        CGT_SYNC();
        /* One check per block (thread 0) per phase; one grid barrier. */
        expect_clean(f, what, (unsigned long long)configs[c][0] * configs[c][2], configs[c][2]);
        CGT_CUDA(cudaFree(slots));
        CGT_CUDA(cudaFree(f));
    }
}

/* One launch of the grid-phases kernel on `stream` with fresh buffers; the
 * caller synchronizes, then checks with grid_run_finish. */
typedef struct grid_run {
    uint32_t blocks, threads, iters;
    uint32_t *slots;
    cgt_fail_t *f;
    unsigned long long *info; /* device: [workspace, algorithm bits] */
} grid_run_t;

static grid_run_t grid_run_start(uint32_t blocks, uint32_t threads, uint32_t iters, uint32_t objects,
                                 cudaStream_t stream)
{
    grid_run_t r = {blocks, threads, iters, NULL, new_fail(), NULL};
    CGT_CUDA(cudaMalloc((void **)&r.slots, sizeof(uint32_t) * 2 * blocks));
    CGT_CUDA(cudaMemset(r.slots, CGT_POISON_BYTE, sizeof(uint32_t) * 2 * blocks));
    CGT_CUDA(cudaMalloc((void **)&r.info, 2 * sizeof(unsigned long long)));
    CGT_CUDA(cudaMemset(r.info, 0, 2 * sizeof(unsigned long long)));
    /* The memsets above ran on the legacy stream, which a non-blocking
     * stream does not wait for. */
    CGT_CUDA(cudaDeviceSynchronize());
    CGT_OK(cgt_launch_grid_phases(blocks, threads, iters, objects, r.slots, r.f, r.info, stream));
    return r;
}

/* Checks every phase's result; returns the launch's workspace address, and
 * in *spread whether the grid's size calls for the spread barrier (at least
 * CG_GRID_SPREAD_MIN_BLOCKS_PER_SM blocks per SM, barrier/grid_barrier.h;
 * which algorithm a block took is the barrier's own business, not visible
 * here). */
static unsigned long long grid_run_finish(grid_run_t *r, const char *what, int *spread)
{
    unsigned long long info[2];
    CGT_CUDA(cudaMemcpy(info, r->info, sizeof info, cudaMemcpyDeviceToHost));
    expect_clean(r->f, what, (unsigned long long)r->blocks * r->iters, r->iters);
    cr_expect_neq(info[0], 0ull, "%s: no grid workspace in a cooperative launch", what);
    *spread = r->blocks >= (uint32_t)CG_GRID_SPREAD_MIN_BLOCKS_PER_SM * (uint32_t)cgt_device_props()->multiProcessorCount &&
              r->blocks <= (uint32_t)CG_GRID_SPREAD_MAX_BLOCKS;
    CGT_CUDA(cudaFree(r->slots));
    CGT_CUDA(cudaFree(r->info));
    CGT_CUDA(cudaFree(r->f));
    return info[0];
}

/* Launches of different sizes one after another (the spread barrier from 7
 * blocks per SM, flat below: both on one workspace and one slot), each
 * with a fresh run of phases; every block of a launch must take the same
 * algorithm, and a spread launch must start clean after any earlier one. Logs
 * the addresses and algorithms. */
Test(cg_barriers, grid_sync_across_launches_of_different_sizes, .timeout = 300)
{
    uint32_t full = 0, sms, iters = quick() ? 20 : 401; /* odd: a launch ends with the top bit set */
    unsigned long long ws[24];
    unsigned distinct = 0, spreads = 0;
    cgt_require_sm90();
    sms = (uint32_t)cgt_device_props()->multiProcessorCount;
    CGT_OK(cg_max_cooperative_blocks(cgt_grid_phases_kernel(), 128, 0, &full));
    for (int k = 0; k < 24; k++) {
        const uint32_t sizes[6] = {full, full / 2u, 2u * sms, full - 3u, sms, 3u * sms + 5u};
        uint32_t blocks = sizes[k % 6] < full ? sizes[k % 6] : full;
        char what[64];
        int spread = 0, seen = 0;
        grid_run_t r = grid_run_start(blocks, 128, iters + (uint32_t)k, 1, 0);
        CGT_SYNC();
        snprintf(what, sizeof what, "launch %d: grid %u x 128, %u phases", k, blocks, iters + (uint32_t)k);
        ws[k] = grid_run_finish(&r, what, &spread);
        spreads += (unsigned)spread;
        for (int j = 0; j < k; j++)
            seen |= ws[j] == ws[k];
        distinct += !seen;
    }
    cr_log_info("24 launches in sequence: %u took the spread barrier; %u distinct workspace address(es), first "
                "0x%llx",
                spreads, distinct, ws[0]);
}

/* k_grid_phases at full occupancy and at one block per SM (`objects`, 128
 * threads): every phase correct; logs which algorithm the size calls for. */
static void grid_phases_both_sizes(uint32_t objects, uint32_t iters, const char *label)
{
    uint32_t full = 0, sms;
    cgt_require_sm90();
    sms = (uint32_t)cgt_device_props()->multiProcessorCount;
    CGT_OK(cg_max_cooperative_blocks(cgt_grid_phases_kernel(), 128, 0, &full));
    const uint32_t sizes[2] = {full, sms};
    for (int k = 0; k < 2; k++) {
        char what[96];
        int spread = 0;
        grid_run_t r = grid_run_start(sizes[k], 128, iters, objects, 0);
        CGT_SYNC();
        snprintf(what, sizeof what, "%s: grid %u x 128, %u phases", label, sizes[k], iters);
        grid_run_finish(&r, what, &spread);
        cr_log_info("%s: the %s barrier's size", what, spread ? "spread" : "flat");
    }
}

/* Phases spread over three cg_grid_t of one kernel (two kept throughout, one
 * made fresh for its phase), at full occupancy (the spread barrier, whose
 * phase count and slot the block keeps in shared memory) and at one block
 * per SM (flat), split arrive/wait and cg_grid_sync mixed (two phases of
 * four each, every order of the two): every phase correct. */
Test(cg_barriers, grid_sync_three_objects, .timeout = 300)
{
    grid_phases_both_sizes(3, quick() ? 30 : 30000, "three objects");
}

/* cg_grid_sync mixed with C++ CG's grid.sync() in one launch (one phase of
 * four is C++ CG's), at one block per SM (the flat barrier: cgc's sync reads
 * the phase's sense from its atom, so the two agree on the word) and at full
 * occupancy (the spread barrier: cgc's phases never touch the word after the
 * first): every phase correct. */
Test(cg_barriers, grid_sync_mixed_with_cpp_cg_grid_sync, .timeout = 300)
{
    grid_phases_both_sizes(0, quick() ? 40 : 20000, "cgc and C++ CG syncs");
}

/* Two cooperative launches at once on two streams, half the grid each: both
 * complete every phase correctly (on an H200 the driver gave them workspaces
 * 64 bytes apart). With 256 threads each half is 4 blocks per SM (flat
 * barrier, each on its own workspace word); with 64 threads, 16 per SM (the
 * spread barrier, each in its own slot). */
static void grid_two_at_once(uint32_t threads)
{
    uint32_t full = 0, iters = quick() ? 200 : 20000;
    cudaStream_t s[2];
    grid_run_t r[2];
    unsigned long long ws[2];
    int spread[2];
    cgt_require_sm90();
    CGT_OK(cg_max_cooperative_blocks(cgt_grid_phases_kernel(), threads, 0, &full));
    for (int i = 0; i < 2; i++)
        CGT_CUDA(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
    for (int i = 0; i < 2; i++)
        r[i] = grid_run_start(full / 2u, threads, iters, 1, s[i]);
    CGT_SYNC();
    for (int i = 0; i < 2; i++) {
        char what[64];
        snprintf(what, sizeof what, "launch %d of 2 at once: grid %u x %u", i, full / 2u, threads);
        ws[i] = grid_run_finish(&r[i], what, &spread[i]);
        CGT_CUDA(cudaStreamDestroy(s[i]));
    }
    /* Not asserted: the driver may run the two one after the other, and then
     * hand both the same workspace. */
    cr_log_info("two launches of %u x %u at once: workspaces 0x%llx and 0x%llx, %s and %s", full / 2u, threads,
                ws[0], ws[1], spread[0] ? "spread" : "flat", spread[1] ? "spread" : "flat");
}

Test(cg_barriers, grid_sync_two_launches_at_once, .timeout = 300) { grid_two_at_once(256); }

Test(cg_barriers, grid_sync_two_spread_launches_at_once, .timeout = 300) { grid_two_at_once(64); }

/* >= 10^7 barrier phases: block split barrier and cluster split barrier every
 * iteration, every block size 32..1024 x every cluster size 1..16, random
 * delays before writing, between arrive and wait. Phases counted: one per
 * block barrier phase of each block plus one per cluster barrier phase of
 * each cluster. */
Test(cg_barriers, stress_ten_million_phases, .timeout = 900)
{
    uint64_t rng = cgt_seed();
    uint32_t iters = quick() ? 4 : 1600;
    unsigned long long phases = 0;
    cgt_require_sm90();
    for (uint32_t c = 1; c <= 16; c++)
        for (size_t t = 0; t < N_THREADS; t++) {
            uint32_t blocks = c * (64u / c > 0 ? 64u / c : 1u);
            cgt_fail_t *f = new_fail();
            char what[64];
            snprintf(what, sizeof what, "stress cluster %u block %u", c, k_threads[t]);
            CGT_OK(cgt_launch_stress(blocks, k_threads[t], c, iters, (uint32_t)cgt_rand(&rng), f));
            CGT_SYNC();
            /* Two checks per thread and iteration (block, cluster); one
             * barrier per block, one per cluster. */
            expect_clean(f, what, 2ull * blocks * k_threads[t] * iters, (unsigned long long)blocks * iters);
            cr_expect_eq(f->cluster_phases, (unsigned long long)(blocks / c) * iters,
                         "%s: %llu cluster barrier phases counted, want %llu", what, f->cluster_phases,
                         (unsigned long long)(blocks / c) * iters);
            phases += f->phases + f->cluster_phases;
            CGT_CUDA(cudaFree(f));
        }
    cr_log_info("stress: %llu barrier phases checked (device-counted)", phases);
    if (!quick())
        cr_expect_geq(phases, 10000000ull, "stress ran only %llu phases", phases);
}

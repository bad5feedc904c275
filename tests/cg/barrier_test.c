/* tests/cg/barrier_test.c — split barriers of the block, cluster and grid
 * groups: visibility of data across arrive/wait, real overlap of the block
 * barrier, millions of grid phases, and the >= 10^7-phase stress over block
 * sizes 32..1024 and cluster sizes 1..16 with random arrival order.
 * GPU tests: skip without an sm_90 device. CGT_QUICK=1 scales loops down. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void expect_clean(const cgt_fail_t *f, const char *what, unsigned long long want_iterations)
{
    cr_expect_eq(f->errors, 0u, "%s: %u wrong values; first: phase %u block %u thread %u got 0x%08x want 0x%08x",
                 what, f->errors, f->first_iter, f->first_block, f->first_thread, f->got, f->want);
    cr_expect_eq(f->iterations_done, want_iterations, "%s: %llu block-iterations done, want %llu", what,
                 f->iterations_done, want_iterations);
}

static const uint32_t k_threads[] = {32, 64, 128, 256, 512, 1024};
#define N_THREADS (sizeof k_threads / sizeof k_threads[0])

Test(cg_barriers, block_split_visibility_every_block_size)
{
    uint64_t rng = cgt_seed();
    uint32_t iters = quick() ? 40 : 5000;
    cgt_require_sm90();
    for (size_t t = 0; t < N_THREADS; t++) {
        cgt_fail_t *f = new_fail();
        char what[64];
        snprintf(what, sizeof what, "block of %u", k_threads[t]);
        CGT_OK(cgt_launch_block_split(8, k_threads[t], iters, (uint32_t)cgt_rand(&rng), f));
        CGT_SYNC();
        expect_clean(f, what, 8ull * iters);
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
            expect_clean(f, what, (unsigned long long)blocks * iters);
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
    expect_clean(f, "no cluster shape", 64ull * 500);
    CGT_CUDA(cudaFree(f));
}

Test(cg_barriers, grid_split_visibility)
{
    static const uint32_t threads[] = {32, 128, 1024};
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
        expect_clean(f, what, (unsigned long long)blocks * iters);
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
        CGT_OK(cgt_launch_grid_phases(configs[c][0], configs[c][1], configs[c][2], slots, f));
        CGT_SYNC();
        expect_clean(f, what, (unsigned long long)configs[c][0] * configs[c][2]);
        CGT_CUDA(cudaFree(slots));
        CGT_CUDA(cudaFree(f));
    }
}

/* One launch of the mode kernel on `stream` with fresh buffers; the caller
 * synchronizes, then checks with grid_mode_finish. */
typedef struct grid_mode_run {
    uint32_t blocks, iters;
    uint32_t *slots;
    cgt_fail_t *f;
    unsigned long long *info; /* device: [workspace, mode bits] */
} grid_mode_run_t;

static grid_mode_run_t grid_mode_start(int one_slot, uint32_t blocks, uint32_t iters, cudaStream_t stream)
{
    grid_mode_run_t r = {blocks, iters, NULL, new_fail(), NULL};
    CGT_CUDA(cudaMalloc((void **)&r.slots, sizeof(uint32_t) * 2 * blocks));
    CGT_CUDA(cudaMemset(r.slots, CGT_POISON_BYTE, sizeof(uint32_t) * 2 * blocks));
    CGT_CUDA(cudaMalloc((void **)&r.info, 2 * sizeof(unsigned long long)));
    CGT_CUDA(cudaMemset(r.info, 0, 2 * sizeof(unsigned long long)));
    if (one_slot)
        CGT_OK(cgt_launch_grid_mode_one_slot(blocks, 128, iters, r.slots, r.f, r.info, stream));
    else
        CGT_OK(cgt_launch_grid_mode(blocks, 128, iters, r.slots, r.f, r.info, stream));
    return r;
}

/* Checks every phase's result and that all blocks took the same algorithm;
 * returns the mode bits (1 flags, 2 flat) and the workspace address. */
static unsigned grid_mode_finish(grid_mode_run_t *r, const char *what, unsigned long long *workspace)
{
    unsigned long long info[2];
    CGT_CUDA(cudaMemcpy(info, r->info, sizeof info, cudaMemcpyDeviceToHost));
    expect_clean(r->f, what, (unsigned long long)r->blocks * r->iters);
    cr_expect(info[1] == 1 || info[1] == 2, "%s: blocks disagreed on the algorithm (mode bits %llu)", what,
              info[1]);
    *workspace = info[0];
    CGT_CUDA(cudaFree(r->slots));
    CGT_CUDA(cudaFree(r->info));
    CGT_CUDA(cudaFree(r->f));
    return (unsigned)info[1];
}

/* The flag barrier's memory outlives a launch: launches of different sizes one
 * after another must each start clean (flags tagged with %gridid), and every
 * block of a launch must take the same algorithm. Logs which one each took and
 * the workspace addresses the driver handed out. */
Test(cg_barriers, grid_sync_across_launches_of_different_sizes, .timeout = 300)
{
    const struct cudaDeviceProp *p;
    uint32_t full = 0, sms, iters = quick() ? 20 : 400;
    unsigned long long ws[24];
    unsigned flags = 0, distinct = 0;
    cgt_require_sm90();
    p = cgt_device_props();
    sms = (uint32_t)p->multiProcessorCount;
    CGT_OK(cg_max_cooperative_blocks(cgt_grid_mode_kernel(), 128, 0, &full));
    for (int k = 0; k < 24; k++) {
        const uint32_t sizes[6] = {full, full / 2u, 2u * sms, full - 3u, sms, 3u * sms + 5u};
        uint32_t blocks = sizes[k % 6] < full ? sizes[k % 6] : full;
        char what[64];
        grid_mode_run_t r = grid_mode_start(0, blocks, iters, 0);
        CGT_SYNC();
        snprintf(what, sizeof what, "launch %d: grid %u x 128, %u phases", k, blocks, iters);
        unsigned mode = grid_mode_finish(&r, what, &ws[k]);
        flags += mode == 1;
        int seen = 0;
        for (int j = 0; j < k; j++)
            seen |= ws[j] == ws[k];
        distinct += !seen;
        cr_log_info("%s: %s, workspace 0x%llx", what, mode == 1 ? "flag barrier" : "flat", ws[k]);
    }
    cr_log_info("24 launches: %u took the flag barrier; %u distinct workspace addresses", flags, distinct);
}

/* Two cooperative launches at once on two streams, each half the grid: both
 * correct, each consistent (each owns its own slot, or falls back to flat). */
static void grid_concurrent(int one_slot)
{
    uint32_t full = 0, iters = quick() ? 200 : 20000;
    cudaStream_t s[2];
    grid_mode_run_t r[2];
    unsigned long long ws[2];
    unsigned mode[2];
    cgt_require_sm90();
    CGT_OK(cg_max_cooperative_blocks(one_slot ? cgt_grid_mode_one_slot_kernel() : cgt_grid_mode_kernel(), 128, 0,
                                     &full));
    for (int i = 0; i < 2; i++)
        CGT_CUDA(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
    for (int i = 0; i < 2; i++)
        r[i] = grid_mode_start(one_slot, full / 2u, iters, s[i]);
    CGT_SYNC();
    for (int i = 0; i < 2; i++) {
        char what[96];
        snprintf(what, sizeof what, "%s launch %d of 2 at once: grid %u x 128", one_slot ? "one-slot" : "default",
                 i, full / 2u);
        mode[i] = grid_mode_finish(&r[i], what, &ws[i]);
        cr_log_info("%s: %s, workspace 0x%llx", what, mode[i] == 1 ? "flag barrier" : "flat", ws[i]);
        CGT_CUDA(cudaStreamDestroy(s[i]));
    }
    if (ws[0] != ws[1] && one_slot)
        cr_expect(mode[0] == 2 || mode[1] == 2, "one slot, two workspaces: both took the flag barrier");
}

Test(cg_barriers, grid_sync_two_launches_at_once, .timeout = 300) { grid_concurrent(0); }

Test(cg_barriers, grid_sync_falls_back_when_slots_run_out, .timeout = 300) { grid_concurrent(1); }

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
            expect_clean(f, what, (unsigned long long)blocks * iters);
            phases += (unsigned long long)iters * (blocks + blocks / c);
            CGT_CUDA(cudaFree(f));
        }
    cr_log_info("stress: %llu barrier phases checked", phases);
    if (!quick())
        cr_expect_geq(phases, 10000000ull, "stress ran only %llu phases", phases);
}

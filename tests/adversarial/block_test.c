/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/adversarial/block_test.c — the block split barrier, cg_barrier_t,
 * the completion-function barrier, the warp-aggregated mbarrier arrive, the
 * cluster barrier and the grid barrier under what their contracts allow (see
 * block_kernels.cu): at least 10^6 phases per barrier kind in a run (phases
 * summed over the barrier objects), data checked every phase, random delays,
 * odd and 3-D shapes, divergent call sites. The seed is printed; CGC_SEED=<n>
 * replays it. Every kernel is bounded: one that does not finish fails.
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/status.h"
#include "tests/support/cgtest.h"

typedef struct abt_report {
    unsigned long long errors;
    unsigned long long checks;
    unsigned long long first[4];
    unsigned long long claimed;
} abt_report_t;

int abt_block_split(unsigned blocks, unsigned bx, unsigned by, unsigned bz, void *rep, uint64_t seed,
                    uint32_t phases, uint32_t mode, uint32_t max_ns);
int abt_barrier_objects(unsigned blocks, unsigned bx, unsigned by, unsigned bz, void *rep, uint64_t seed,
                        uint32_t phases, uint32_t drop_at, uint32_t max_ns);
int abt_barrier_fn(unsigned blocks, unsigned bx, unsigned by, unsigned bz, void *rep, uint64_t seed, uint32_t phases,
                   uint32_t max_ns);
int abt_arrive_warp(unsigned blocks, unsigned threads, void *rep, uint64_t seed, uint32_t phases);
int abt_cluster(unsigned clusters, unsigned csize, unsigned threads, void *rep, uint64_t seed, uint32_t phases,
                uint32_t max_ns);
int abt_grid(unsigned per_sm, unsigned bx, unsigned by, unsigned bz, void *rep, uint32_t *slots, uint64_t seed,
             uint32_t phases, uint32_t max_ns, unsigned *blocks_out);

TestSuite(adversarial_barriers, .timeout = 400);

typedef struct shape {
    unsigned bx, by, bz;
} shape_t;

/* Odd sizes (partial warps), 3-D shapes, a full 1024. */
static const shape_t shapes[] = {{33, 1, 1}, {40, 1, 1}, {7, 5, 3}, {2, 3, 11}, {100, 1, 1}, {1024, 1, 1}};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static int quick(void)
{
    const char *q = getenv("CGT_QUICK");
    return q && *q && *q != '0';
}

static abt_report_t *new_report(void)
{
    abt_report_t *r = NULL;
    CGT_CUDA(cudaMalloc((void **)&r, sizeof *r));
    CGT_CUDA(cudaMemset(r, 0, sizeof *r));
    return r;
}

/* Bounded wait, then the report: no wrong value, and the expected number of
 * checks (every thread took every phase it had to). */
static void finish(const char *what, abt_report_t *d, unsigned long long want)
{
    /* A sanitizer slows these kernels down by 100x and more. */
    const char *tool = getenv("CGT_SANITIZER");
    const double deadline = (tool && *tool) ? 150.0 : 60.0;
    cudaError_t q = cgt_stream_wait_deadline(deadline);
    cr_assert_neq(q, cudaErrorNotReady, "%s: did not finish in %.0f s (a barrier that never released)", what,
                  deadline);
    CGT_CUDA(q);
    CGT_SYNC();
    abt_report_t r;
    CGT_CUDA(cudaMemcpy(&r, d, sizeof r, cudaMemcpyDeviceToHost));
    cr_log_info("%s: %llu checks, %llu errors", what, r.checks, r.errors);
    cr_expect_eq(r.errors, 0ull, "%s: %llu wrong values after a wait; first: phase %llu block %llu thread %llu got %#llx",
                 what, r.errors, r.first[0], r.first[1], r.first[2], r.first[3]);
    if (want)
        cr_expect_eq(r.checks, want, "%s: %llu checks, want %llu", what, r.checks, want);
    cudaFree(d);
}

Test(adversarial_barriers, block_split_barrier_every_shape_and_call_site)
{
    cgt_require_sm90();
    uint64_t seed = cgt_seed();
    const unsigned blocks = quick() ? 24 : 264;
    const uint32_t phases = quick() ? 40 : 4000;
    unsigned long long total = 0;
    for (size_t s = 0; s < NSHAPES; ++s)
        for (uint32_t mode = 0; mode < 2; ++mode) {
            if (mode == 1 && s % 2 == 1)
                continue;
            const shape_t *sh = &shapes[s];
            const unsigned n = sh->bx * sh->by * sh->bz;
            abt_report_t *rep = new_report();
            CGT_CUDA((cudaError_t)abt_block_split(blocks, sh->bx, sh->by, sh->bz, rep, seed + s, phases, mode, 400));
            char what[96];
            snprintf(what, sizeof what, "block split %ux%ux%u%s", sh->bx, sh->by, sh->bz, mode ? " prepared" : "");
            finish(what, rep, (unsigned long long)blocks * n * phases);
            total += (unsigned long long)blocks * phases;
        }
    cr_log_info("block split barrier: %llu phases", total);
    cr_expect_geq(total, quick() ? 900ull : 1000000ull);
}

Test(adversarial_barriers, barrier_objects_several_per_warp_with_drops)
{
    cgt_require_sm90();
    uint64_t seed = cgt_seed();
    const unsigned blocks = quick() ? 24 : 132;
    const uint32_t phases = quick() ? 40 : 3000;
    unsigned long long total = 0;
    for (size_t s = 0; s < NSHAPES; ++s) {
        const shape_t *sh = &shapes[s];
        abt_report_t *rep = new_report();
        CGT_CUDA((cudaError_t)abt_barrier_objects(blocks, sh->bx, sh->by, sh->bz, rep, seed + s, phases, phases / 2,
                                                  300));
        char what[96];
        snprintf(what, sizeof what, "cg_barrier_t x3 %ux%ux%u", sh->bx, sh->by, sh->bz);
        finish(what, rep, 0);
        total += 3ull * blocks * phases;
    }
    cr_log_info("cg_barrier_t: %llu phases (3 barriers per block)", total);
}

Test(adversarial_barriers, completion_function_runs_once_per_phase_after_every_arrival)
{
    cgt_skip_under_sanitizer("racecheck",
                             "the completion function reads the arriving threads' slots after the last "
                             "arrive.noComplete and a fence.acq_rel.cta; racecheck models only the mbarrier's "
                             "arrive -> wait edge (barrier/barrier_fn.h, memory model step 3)");
    cgt_require_sm90();
    uint64_t seed = cgt_seed();
    const unsigned blocks = quick() ? 24 : 264;
    const uint32_t phases = quick() ? 40 : 1300;
    static const shape_t fn_shapes[] = {{33, 1, 1}, {7, 5, 3}, {40, 1, 1}};
    unsigned long long total = 0;
    for (size_t s = 0; s < 3; ++s) {
        const shape_t *sh = &fn_shapes[s];
        const unsigned n = sh->bx * sh->by * sh->bz;
        abt_report_t *rep = new_report();
        CGT_CUDA((cudaError_t)abt_barrier_fn(blocks, sh->bx, sh->by, sh->bz, rep, seed + s, phases, 300));
        char what[96];
        snprintf(what, sizeof what, "cg_barrier_fn_t %ux%ux%u", sh->bx, sh->by, sh->bz);
        finish(what, rep, (unsigned long long)blocks * n * phases);
        total += (unsigned long long)blocks * phases;
    }
    cr_log_info("completion barrier: %llu phases", total);
    cr_expect_geq(total, quick() ? 900ull : 1000000ull);
}

Test(adversarial_barriers, warp_aggregated_arrive_lanes_on_two_mbarriers)
{
    cgt_skip_under_sanitizer("racecheck",
                             "cg_mbarrier_arrive_warp: one lane arrives for its peers, whose writes are ordered "
                             "before that release by bar.warp.sync (__syncwarp); racecheck models only each "
                             "thread's own mbarrier arrive -> wait edge");
    cgt_require_sm90();
    uint64_t seed = cgt_seed();
    const unsigned blocks = 264, threads = 96;
    const uint32_t phases = quick() ? 40 : 2000;
    abt_report_t *rep = new_report();
    CGT_CUDA((cudaError_t)abt_arrive_warp(blocks, threads, rep, seed, phases));
    finish("arrive_warp on two mbarriers", rep, (unsigned long long)blocks * threads * phases);
    cr_log_info("warp-aggregated arrive: %llu phases", 2ull * blocks * phases);
}

Test(adversarial_barriers, cluster_barrier_every_cluster_size)
{
    cgt_require_sm90();
    uint64_t seed = cgt_seed();
    const uint32_t phases = quick() ? 100 : 8000;
    static const unsigned sizes[] = {1, 2, 3, 4, 8, 16};
    unsigned long long total = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        const unsigned cs = sizes[i], clusters = (cs >= 8 ? 64u : 128u) / cs * 2u, threads = 100;
        abt_report_t *rep = new_report();
        int st = abt_cluster(clusters, cs, threads, rep, seed + i, phases, 300);
        if (st != 0) {
            cr_log_warn("cluster size %u: cg_launch: %s (skipped)", cs, cg_status_string((cg_status_t)st));
            cudaFree(rep);
            continue;
        }
        char what[64];
        snprintf(what, sizeof what, "cluster of %u", cs);
        finish(what, rep, (unsigned long long)clusters * cs * threads * phases);
        total += (unsigned long long)clusters * phases;
    }
    cr_log_info("cluster barrier: %llu phases", total);
    cr_expect_geq(total, quick() ? 10000ull : 1000000ull);
}

Test(adversarial_barriers, grid_barrier_split_and_sync_every_occupancy)
{
    cgt_require_sm90();
    uint64_t seed = cgt_seed();
    static const struct {
        unsigned per_sm, bx, by, bz;
        uint32_t phases;
    } runs[] = {{1, 7, 5, 3, 500000}, {4, 4, 4, 4, 200000}, {8, 33, 1, 1, 150000}, {16, 16, 1, 1, 150000}};
    unsigned long long total = 0;
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; ++i) {
        const uint32_t phases = quick() ? runs[i].phases / 1000 : runs[i].phases;
        const unsigned bt = runs[i].bx * runs[i].by * runs[i].bz;
        const size_t n = (size_t)runs[i].per_sm * (size_t)cgt_device_props()->multiProcessorCount * bt;
        uint32_t *slots = NULL;
        CGT_CUDA(cudaMalloc((void **)&slots, 2 * n * sizeof(uint32_t)));
        CGT_CUDA(cudaMemset(slots, 0, 2 * n * sizeof(uint32_t)));
        abt_report_t *rep = new_report();
        unsigned blocks = 0;
        int st = abt_grid(runs[i].per_sm, runs[i].bx, runs[i].by, runs[i].bz, rep, slots, seed + i, phases, 300,
                          &blocks);
        cr_assert_eq(st, 0, "cg_launch (cooperative, %u per SM): %s", runs[i].per_sm,
                     cg_status_string((cg_status_t)st));
        char what[64];
        snprintf(what, sizeof what, "grid %u per SM (%u blocks of %u)", runs[i].per_sm, blocks, bt);
        finish(what, rep, (unsigned long long)blocks * bt * phases);
        total += phases;
        cudaFree(slots);
    }
    cr_log_info("grid barrier: %llu phases", total);
    cr_expect_geq(total, quick() ? 1000ull : 1000000ull);
}

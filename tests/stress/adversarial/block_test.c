/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/stress/adversarial/block_test.c — the block split barrier, cg_barrier_t,
 * the completion-function barrier, the warp-aggregated mbarrier arrive, the
 * cluster barrier and the grid barrier under what their contracts allow (see
 * block_kernels.cu): at least 10^6 phases per barrier kind in a run (phases
 * summed over the barrier objects, as the kernels counted them: one thread
 * per object counts the phases it saw complete; clusters of 2..16 alone for
 * the cluster barrier), data checked every phase, random delays, odd and 3-D
 * shapes, divergent call sites. Every block's record of its checks and of
 * each object's phases is poisoned before and compared after with what the
 * test asked for. The seed is printed; CGC_SEED=<n> replays it. Every kernel
 * is bounded: one that does not finish fails.
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/status.h"
#include "tests/support/cgtest.h"

typedef struct abt_report {
    unsigned long long errors;
    unsigned long long first[4];
    unsigned long long claimed;
} abt_report_t;

/* What each block counted on the device (adversarial.cuh, adv_block_rec):
 * its threads' data checks and each barrier object's completed phases. */
#define ABT_OBJECTS 4
typedef struct abt_block_rec {
    unsigned long long checks;
    unsigned long long phases[ABT_OBJECTS];
} abt_block_rec_t;

int abt_block_split(unsigned blocks, unsigned bx, unsigned by, unsigned bz, void *rep, void *recs, uint64_t seed,
                    uint32_t phases, uint32_t mode, uint32_t max_ns);
int abt_barrier_objects(unsigned blocks, unsigned bx, unsigned by, unsigned bz, void *rep, void *recs, uint64_t seed,
                        uint32_t phases, uint32_t drop_at, uint32_t max_ns);
int abt_barrier_fn(unsigned blocks, unsigned bx, unsigned by, unsigned bz, void *rep, void *recs, uint64_t seed,
                   uint32_t phases, uint32_t max_ns);
int abt_arrive_warp(unsigned blocks, unsigned threads, void *rep, void *recs, uint64_t seed, uint32_t phases);
int abt_cluster(unsigned clusters, unsigned csize, unsigned threads, void *rep, void *recs, uint64_t seed,
                uint32_t phases, uint32_t max_ns);
int abt_grid(unsigned per_sm, unsigned bx, unsigned by, unsigned bz, void *rep, void *recs, uint32_t *slots,
             uint64_t seed, uint32_t phases, uint32_t max_ns, unsigned *blocks_out);
uint32_t abt_host_mix(uint64_t seed, uint64_t a, uint64_t b);

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

/* One run's device buffers: the error report (zeroed: its error count is a
 * counter) and one record per block, poisoned (a block that never wrote its
 * record leaves 0xA5A5... there, which matches no count). */
typedef struct run {
    abt_report_t *rep;
    abt_block_rec_t *recs;
    unsigned blocks;
} run_t;

static run_t new_run(unsigned blocks)
{
    run_t r = {NULL, NULL, blocks};
    CGT_CUDA(cudaMalloc((void **)&r.rep, sizeof *r.rep));
    CGT_CUDA(cudaMemset(r.rep, 0, sizeof *r.rep));
    CGT_CUDA(cudaMalloc((void **)&r.recs, blocks * sizeof *r.recs));
    CGT_CUDA(cudaMemset(r.recs, CGT_POISON_BYTE, blocks * sizeof *r.recs));
    return r;
}

/* Bounded wait, then the report: no wrong value, and in every block exactly
 * the checks and, for each barrier object, the phases the kernel was meant
 * to make (`want_phases[k]` for k < nobj), as the kernel itself counted them.
 * Adds each object's phases over the blocks into sums[k] (when not NULL). */
static void finish(const char *what, run_t *run, unsigned long long want_checks, const unsigned long long *want_phases,
                   unsigned nobj, unsigned long long *sums)
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
    CGT_CUDA(cudaMemcpy(&r, run->rep, sizeof r, cudaMemcpyDeviceToHost));
    abt_block_rec_t *recs = malloc(run->blocks * sizeof *recs);
    cr_assert(recs != NULL);
    CGT_CUDA(cudaMemcpy(recs, run->recs, run->blocks * sizeof *recs, cudaMemcpyDeviceToHost));
    cr_expect_eq(r.errors, 0ull,
                 "%s: %llu wrong values after a wait; first: phase %llu block %llu thread %llu got %#llx", what, r.errors, r.first[0], r.first[1], r.first[2], r.first[3]);
    cr_assert_gt(want_checks, 0ull, "%s: the test asks for no checks", what);
    unsigned bad = 0, first_bad = 0;
    unsigned long long checks = 0;
    for (unsigned b = 0; b < run->blocks; ++b) {
        int ok = recs[b].checks == want_checks;
        checks += recs[b].checks;
        for (unsigned k = 0; k < nobj; ++k) {
            ok &= recs[b].phases[k] == want_phases[k];
            if (sums)
                sums[k] += recs[b].phases[k];
        }
        if (!ok && bad++ == 0)
            first_bad = b;
    }
    cr_log_info("%s: %llu checks in %u blocks, %llu errors", what, checks, run->blocks, r.errors);
    if (bad) {
        const abt_block_rec_t *x = &recs[first_bad];
        cr_expect_fail("%s: %u of %u blocks did not count what they were meant to; first: block %u counted %llu "
                       "checks (want %llu) and phases %llu/%llu/%llu/%llu (want %llu/%llu/%llu/%llu for its %u "
                       "object(s)); 0xa5a5a5a5a5a5a5a5 is the poison a block that never wrote its record leaves",
                       what, bad, run->blocks, first_bad, x->checks, want_checks, x->phases[0], x->phases[1],
                       x->phases[2], x->phases[3], nobj > 0 ? want_phases[0] : 0ull, nobj > 1 ? want_phases[1] : 0ull,
                       nobj > 2 ? want_phases[2] : 0ull, nobj > 3 ? want_phases[3] : 0ull, nobj);
    }
    free(recs);
    cudaFree(run->rep);
    cudaFree(run->recs);
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
            run_t run = new_run(blocks);
            CGT_CUDA((cudaError_t)abt_block_split(blocks, sh->bx, sh->by, sh->bz, run.rep, run.recs, seed + s, phases,
                                                  mode, 400));
            char what[96];
            snprintf(what, sizeof what, "block split %ux%ux%u%s", sh->bx, sh->by, sh->bz, mode ? " prepared" : "");
            const unsigned long long want_phases[1] = {phases};
            finish(what, &run, (unsigned long long)n * phases, want_phases, 1, &total);
        }
    /* Phases of the blocks' barriers as their thread 0 counted them. */
    cr_log_info("block split barrier: %llu phases (device-counted)", total);
    cr_expect_geq(total, quick() ? 900ull : 1000000ull, "block split barrier: only %llu phases", total);
}

Test(adversarial_barriers, barrier_objects_several_per_warp_with_drops)
{
    cgt_require_sm90();
    uint64_t seed = cgt_seed();
    const unsigned blocks = quick() ? 24 : 132;
    const uint32_t phases = quick() ? 40 : 3000, drop_at = phases / 2;
    unsigned long long total = 0;
    for (size_t s = 0; s < NSHAPES; ++s) {
        const shape_t *sh = &shapes[s];
        const unsigned n = sh->bx * sh->by * sh->bz;
        /* The kernel's choices, replayed: thread t uses barrier
         * mix(seed, 77, t) % 3 and drops at drop_at when mix(seed, 78, t) & 3
         * is 0; a dropper checks drop_at phases, a stayer every phase. A
         * barrier's phases: every phase with a stayer; drop_at + 1 with only
         * droppers, the last completed by their drops but waited by none, so
         * drop_at counted; none without members. */
        unsigned count[3] = {0, 0, 0}, stay[3] = {0, 0, 0};
        unsigned long long want_checks = 0;
        for (unsigned t = 0; t < n; ++t) {
            const unsigned k = abt_host_mix(seed + s, 77u, t) % 3u;
            const int dropper = (abt_host_mix(seed + s, 78u, t) & 3u) == 0u;
            count[k]++;
            stay[k] += !dropper;
            want_checks += dropper ? drop_at : phases;
        }
        unsigned long long want_phases[3];
        for (unsigned k = 0; k < 3; ++k)
            want_phases[k] = count[k] == 0 ? 0u : stay[k] ? phases : drop_at;
        run_t run = new_run(blocks);
        CGT_CUDA((cudaError_t)abt_barrier_objects(blocks, sh->bx, sh->by, sh->bz, run.rep, run.recs, seed + s, phases,
                                                  drop_at, 300));
        char what[128];
        snprintf(what, sizeof what, "cg_barrier_t x3 %ux%ux%u (members %u/%u/%u, stayers %u/%u/%u)", sh->bx, sh->by,
                 sh->bz, count[0], count[1], count[2], stay[0], stay[1], stay[2]);
        unsigned long long sums[3] = {0, 0, 0};
        finish(what, &run, want_checks, want_phases, 3, sums);
        total += sums[0] + sums[1] + sums[2];
    }
    cr_log_info("cg_barrier_t: %llu phases (3 barriers per block, device-counted)", total);
    cr_expect_geq(total, quick() ? 10000ull : 1000000ull, "cg_barrier_t: only %llu phases", total);
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
        run_t run = new_run(blocks);
        CGT_CUDA((cudaError_t)abt_barrier_fn(blocks, sh->bx, sh->by, sh->bz, run.rep, run.recs, seed + s, phases,
                                             300));
        char what[96];
        snprintf(what, sizeof what, "cg_barrier_fn_t %ux%ux%u", sh->bx, sh->by, sh->bz);
        /* The phases as the completion function counted its own runs. */
        const unsigned long long want_phases[1] = {phases};
        finish(what, &run, (unsigned long long)n * phases, want_phases, 1, &total);
    }
    cr_log_info("completion barrier: %llu phases (device-counted)", total);
    cr_expect_geq(total, quick() ? 900ull : 1000000ull, "completion barrier: only %llu phases", total);
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
    run_t run = new_run(blocks);
    CGT_CUDA((cudaError_t)abt_arrive_warp(blocks, threads, run.rep, run.recs, seed, phases));
    const unsigned long long want_phases[2] = {phases, phases};
    unsigned long long sums[2] = {0, 0};
    finish("arrive_warp on two mbarriers", &run, (unsigned long long)threads * phases, want_phases, 2, sums);
    cr_log_info("warp-aggregated arrive: %llu phases (device-counted)", sums[0] + sums[1]);
    cr_expect_geq(sums[0] + sums[1], quick() ? 10000ull : 1000000ull, "warp-aggregated arrive: only %llu phases",
                  sums[0] + sums[1]);
}

Test(adversarial_barriers, cluster_barrier_every_cluster_size)
{
    cgt_require_sm90();
    uint64_t seed = cgt_seed();
    const uint32_t phases = quick() ? 100 : 8000;
    static const unsigned sizes[] = {1, 2, 3, 4, 8, 16};
    unsigned long long total = 0, multi = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        const unsigned cs = sizes[i], clusters = (cs >= 8 ? 64u : 128u) / cs * 2u, threads = 100;
        run_t run = new_run(clusters * cs);
        int st = abt_cluster(clusters, cs, threads, run.rep, run.recs, seed + i, phases, 300);
        /* Every size runs on sm_90 (16 with the non-portable opt-in that
         * cg_launch sets): a launch that fails is a failure, not a skip. */
        cr_assert_eq(st, 0, "cluster size %u: cg_launch: %s", cs, cg_status_string((cg_status_t)st));
        char what[64];
        snprintf(what, sizeof what, "cluster of %u", cs);
        /* Both loops' counters (threads 0 and 1) saw every phase of their
         * cluster's barrier, in every CTA. */
        const unsigned long long want_phases[2] = {phases, phases};
        unsigned long long sums[2] = {0, 0};
        finish(what, &run, (unsigned long long)threads * phases, want_phases, 2, sums);
        /* One barrier per cluster: its phases, counted in each of its CTAs. */
        total += sums[0] / cs;
        if (cs > 1)
            multi += sums[0] / cs;
    }
    cr_log_info("cluster barrier: %llu phases (device-counted), %llu of them in clusters of 2 or more", total, multi);
    /* The count is met without cluster size 1 (which never leaves its CTA). */
    cr_expect_geq(multi, quick() ? 10000ull : 1000000ull, "cluster barrier: only %llu phases in clusters of 2..16",
                  multi);
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
        CGT_CUDA(cudaMemset(slots, CGT_POISON_BYTE, 2 * n * sizeof(uint32_t)));
        const unsigned blocks_want = runs[i].per_sm * (unsigned)cgt_device_props()->multiProcessorCount;
        run_t run = new_run(blocks_want);
        unsigned blocks = 0;
        int st = abt_grid(runs[i].per_sm, runs[i].bx, runs[i].by, runs[i].bz, run.rep, run.recs, slots, seed + i,
                          phases, 300, &blocks);
        cr_assert_eq(st, 0, "cg_launch (cooperative, %u per SM): %s", runs[i].per_sm,
                     cg_status_string((cg_status_t)st));
        cr_assert_eq(blocks, blocks_want);
        char what[64];
        snprintf(what, sizeof what, "grid %u per SM (%u blocks of %u)", runs[i].per_sm, blocks, bt);
        const unsigned long long want_phases[1] = {phases};
        unsigned long long sum = 0;
        finish(what, &run, (unsigned long long)bt * phases, want_phases, 1, &sum);
        /* One grid barrier: its phases, counted in each block. */
        total += sum / blocks;
        cudaFree(slots);
    }
    cr_log_info("grid barrier: %llu phases (device-counted)", total);
    cr_expect_geq(total, quick() ? 1000ull : 1000000ull, "grid barrier: only %llu phases", total);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/stress/adversarial/dbar_test.c — cg_device_barrier_t under what its
 * contract allows (issue 10): see dbar_kernels.cu for each scenario. Every
 * run prints its seed; CGC_SEED=<n> replays it. Every kernel is bounded: one
 * that does not finish fails its test instead of stalling the suite.
 *
 * Before the device barrier's rewrite (commit 9879ae5) the first three tests
 * reproduce issue 10's defects 1-3: the kernels never finished (defects 1
 * and 3) or the two-barrier run read wrong data and hung (defect 2).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "barrier/device_barrier.h"
#include "tests/support/cgtest.h"

typedef struct dbt_report {
    unsigned long long errors;
    unsigned long long checks;
    unsigned long long first[5];
    unsigned long long first_claimed;
} dbt_report_t;

int dbt_launch_drops(unsigned blocks, unsigned threads, void *bar, uint32_t *slots, void *rep, uint32_t *prog,
                     uint64_t seed, uint32_t phases, uint32_t drop_at, uint32_t max_delay_ns);
int dbt_launch_two_bars(unsigned blocks, unsigned threads, void *bars, uint32_t *slots, void *rep, uint64_t seed,
                        uint32_t phases, uint32_t max_delay_ns);
int dbt_launch_mixed_tokens(unsigned blocks, unsigned threads, void *bar, uint32_t *slots, void *rep, uint64_t seed,
                            uint32_t phases);
int dbt_launch_mix(unsigned blocks, unsigned bx, unsigned by, unsigned bz, void *bars, uint32_t nbars,
                   const uint32_t *by_owner, const uint32_t *start, uint32_t *slots, void *rep, uint64_t seed,
                   uint32_t phases, uint32_t max_delay_ns);
int dbt_max_blocks_per_sm(int which, unsigned threads, int *per_sm);
uint32_t dbt_host_mix(uint64_t seed, uint64_t a, uint64_t b);

/* Each test: at most 60 s of kernel time, then the test fails. */
#define DBT_DEADLINE_S 60.0

TestSuite(adversarial_device_barrier, .timeout = 200);

static int quick(void)
{
    const char *q = getenv("CGT_QUICK");
    return q && *q && *q != '0';
}

static void *dev_zero(size_t bytes)
{
    void *p = NULL;
    CGT_CUDA(cudaMalloc(&p, bytes));
    CGT_CUDA(cudaMemset(p, 0, bytes));
    return p;
}

/* Waits for the kernel (bounded), then reads and checks the report. */
static void finish(const char *what, dbt_report_t *d_rep, unsigned long long want_checks)
{
    cudaError_t q = cgt_stream_wait_deadline(DBT_DEADLINE_S);
    cr_assert_neq(q, cudaErrorNotReady, "%s: the kernel did not finish in %.0f s (a barrier that never released)",
                  what, DBT_DEADLINE_S);
    CGT_CUDA(q);
    CGT_SYNC();
    dbt_report_t rep;
    CGT_CUDA(cudaMemcpy(&rep, d_rep, sizeof rep, cudaMemcpyDeviceToHost));
    cr_log_info("%s: %llu checks, %llu errors", what, rep.checks, rep.errors);
    cr_expect_eq(rep.errors, 0ull,
                 "%s: %llu wrong values read after a wait; first: phase %llu, thread %llu read peer %llu: got %#llx, "
                 "want %#llx",
                 what, rep.errors, rep.first[0], rep.first[1], rep.first[2], rep.first[3], rep.first[4]);
    cr_assert_gt(want_checks, 0ull, "%s: the test asks for no checks", what);
    cr_expect_eq(rep.checks, want_checks, "%s: %llu checks, want %llu (a thread left early?)", what, rep.checks,
                 want_checks);
}

/* The phases each of `nbars` barriers completed, as the barriers themselves
 * counted them (the phase number in bits 41..63 of the state word,
 * barrier/device_barrier.h; it wraps at 2^23): each must be `want`. Returns
 * the sum. */
static unsigned long long expect_barrier_phases(const char *what, const void *d_bars, unsigned nbars,
                                                unsigned long long want)
{
    cg_device_barrier_t bars[8];
    cr_assert_leq(nbars, 8u);
    CGT_CUDA(cudaMemcpy(bars, d_bars, nbars * sizeof bars[0], cudaMemcpyDeviceToHost));
    unsigned long long sum = 0;
    for (unsigned k = 0; k < nbars; ++k) {
        const unsigned long long phase = bars[k]._state >> 41;
        cr_expect_eq(phase, want % (1ull << 23), "%s: barrier %u is in phase %llu after the run, want %llu", what, k,
                     phase, want);
        sum += phase;
    }
    return sum;
}

static unsigned sms(void) { return (unsigned)cgt_device_props()->multiProcessorCount; }

/* Defect 1: 2 blocks of 100 threads per SM, 1,500 phases, a quarter of the
 * threads drop half-way, random delays of up to 2 us, per-thread choice of
 * wait / try_wait_for loop / arrive_and_wait. */
/* Where the drops kernel's threads are, from its prog[] records (see
 * dbar_kernels.cu), and the barrier's word, read while the kernel still runs
 * (a copy on a non-blocking stream): what a hang report needs. */
static void drops_hang_report(const void *bar, const uint32_t *d_prog, uint32_t n, char *out, size_t cap)
{
    cudaStream_t s;
    uint32_t *prog = NULL;
    uint64_t state[2] = {0, 0};
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess ||
        cudaMallocHost((void **)&prog, n * sizeof *prog) != cudaSuccess ||
        cudaMemcpyAsync(prog, d_prog, n * sizeof *prog, cudaMemcpyDeviceToHost, s) != cudaSuccess ||
        cudaMemcpyAsync(state, bar, sizeof state, cudaMemcpyDeviceToHost, s) != cudaSuccess ||
        cudaStreamSynchronize(s) != cudaSuccess) {
        snprintf(out, cap, "(no snapshot: the copy failed)");
        return;
    }
    const uint32_t phase = (uint32_t)(state[0] >> 41), expected = (uint32_t)(state[0] & 0xFFFFFu);
    const uint32_t count = (uint32_t)((state[0] >> 20) & ((1u << 21) - 1u));
    unsigned behind = 0, arriving = 0, waiting = 0, ahead = 0, gone = 0, first = ~0u;
    for (uint32_t g = 0; g < n; ++g) {
        const uint32_t p = prog[g] >> 4, at = prog[g] & 15u;
        if (at == 4u || at == 5u)
            ++gone;
        else if (p < phase)
            ++behind;
        else if (p > phase)
            ++ahead;
        else if (at == 1u)
            ++arriving, first = first == ~0u ? g : first;
        else
            ++waiting;
    }
    snprintf(out, cap,
             "barrier in phase %u, counter %u (%u arrivals to go of %u from the next phase on); threads: %u still to "
             "arrive in it (first: %u), %u arrived or checking, %u behind it, %u ahead of it, %u dropped or done",
             phase, count, (1u << 21) - count, expected, arriving, first, waiting, behind, ahead, gone);
}

/* One drops run: `per_sm` blocks of `threads` per SM, a quarter of the
 * threads drop at half-way, random delays of up to 2 us, per-thread choice of
 * wait / try_wait_for loop / arrive_and_wait. */
static void drops_run(uint64_t seed, unsigned per_sm, unsigned threads, uint32_t phases)
{
    const unsigned blocks = per_sm * sms();
    int fit = 0;
    CGT_CUDA((cudaError_t)dbt_max_blocks_per_sm(0, threads, &fit));
    cr_assert_geq(fit, (int)per_sm, "only %d blocks of %u fit per SM", fit, threads);
    const uint32_t n = blocks * threads;
    void *bar = dev_zero(sizeof(cg_device_barrier_t));
    CGT_OK(cg_device_barrier_init_host(bar, n));
    uint32_t *slots = dev_zero(2u * n * sizeof(uint32_t));
    uint32_t *prog = dev_zero(n * sizeof(uint32_t));
    dbt_report_t *rep = dev_zero(sizeof *rep);
    CGT_CUDA((cudaError_t)dbt_launch_drops(blocks, threads, bar, slots, rep, prog, seed, phases, phases / 2, 2000));
    char what[160];
    snprintf(what, sizeof what, "drops, %u x %u threads per SM, seed %llu", per_sm, threads,
             (unsigned long long)seed);
    if (cgt_stream_wait_deadline(DBT_DEADLINE_S) == cudaErrorNotReady) {
        char where[400];
        drops_hang_report(bar, prog, n, where, sizeof where);
        cr_assert_fail("%s: the kernel did not finish in %.0f s: %s", what, DBT_DEADLINE_S, where);
    }
    unsigned long long want = 0;
    for (uint32_t g = 0; g < n; ++g)
        want += (dbt_host_mix(seed, 7u, g) & 3u) == 0u ? phases / 2 : phases;
    finish(what, rep, want);
    expect_barrier_phases(what, bar, 1, phases);
    cudaFree(bar);
    cudaFree(slots);
    cudaFree(prog);
    cudaFree(rep);
}

/* Defect 1, in four shapes (partial warps in the last), each with its own
 * seed. The hang this test found after the rewrite (a warp-aggregated arrive
 * whose lanes met the wrong shuffle, docs/design/device_barrier.md) showed
 * in 2 of 5 runs of the first shape alone; a hang reports where every thread
 * is. */
Test(adversarial_device_barrier, drops_delays_and_every_wait_form)
{
    cgt_require_sm90();
    const uint64_t seed = cgt_seed();
    const uint32_t phases = quick() ? 40 : 1500;
    drops_run(seed, 2, 100, phases);
    if (!getenv("CGT_SANITIZER")) /* 135,168 threads: too slow under racecheck */
        drops_run(seed + 1u, 1, 1024, phases);
    drops_run(seed + 2u, 4, 250, phases);
    drops_run(seed + 3u, 3, 33, quick() ? 40 : 3000);
}

/* Defect 2: the lanes of every converged warp arrive on bars[lane & 1]. */
Test(adversarial_device_barrier, lanes_of_one_warp_on_two_barriers)
{
    cgt_require_sm90();
    uint64_t seed = cgt_seed();
    const unsigned threads = 128, blocks = 2 * sms();
    const uint32_t phases = quick() ? 100 : 4000, n = blocks * threads;
    cg_device_barrier_t *bars = dev_zero(2 * sizeof(cg_device_barrier_t));
    CGT_OK(cg_device_barrier_init_host(&bars[0], n / 2));
    CGT_OK(cg_device_barrier_init_host(&bars[1], n / 2));
    uint32_t *slots = dev_zero(2u * n * sizeof(uint32_t));
    dbt_report_t *rep = dev_zero(sizeof *rep);
    CGT_CUDA((cudaError_t)dbt_launch_two_bars(blocks, threads, bars, slots, rep, seed, phases, 1000));
    finish("two barriers in one warp", rep, (unsigned long long)n * phases);
    expect_barrier_phases("two barriers in one warp", bars, 2, phases);
    cudaFree(bars);
    cudaFree(slots);
    cudaFree(rep);
}

/* Defect 3: lane 0 one phase ahead of its warp, then one converged wait. */
Test(adversarial_device_barrier, one_converged_wait_with_tokens_of_two_phases)
{
    cgt_require_sm90();
    uint64_t seed = cgt_seed();
    const unsigned threads = 96, blocks = 2 * sms();
    const uint32_t phases = quick() ? 50 : 3000, n = blocks * threads;
    void *bar = dev_zero(sizeof(cg_device_barrier_t));
    CGT_OK(cg_device_barrier_init_host(bar, n));
    uint32_t *slots = dev_zero(2u * n * sizeof(uint32_t));
    dbt_report_t *rep = dev_zero(sizeof *rep);
    CGT_CUDA((cudaError_t)dbt_launch_mixed_tokens(blocks, threads, bar, slots, rep, seed, phases));
    /* lane 0: 2 checks per loop trip; lanes 1..31: 1 per trip and 1 at the end. */
    const unsigned long long warps = n / 32u;
    const unsigned long long want = warps * (2ull * (phases - 1u) + 31ull * phases);
    finish("mixed tokens in one wait", rep, want);
    /* Every thread arrives once per phase: `phases` arrives each. */
    expect_barrier_phases("mixed tokens in one wait", bar, 1, phases);
    cudaFree(bar);
    cudaFree(slots);
    cudaFree(rep);
}

/* The random mix, >= 10^6 barrier phases in all: 3-D blocks of 105 threads
 * (a partial warp in each), several barriers in every warp, two call sites. */
Test(adversarial_device_barrier, random_mix_of_barriers_shapes_and_call_sites)
{
    cgt_require_sm90();
    uint64_t seed = cgt_seed();
    const unsigned bx = 7, by = 5, bz = 3, threads = bx * by * bz, blocks = 16;
    const uint32_t nbars = 4, phases = quick() ? 2500 : 250000, n = blocks * threads;
    uint32_t *owner_list = malloc(n * sizeof(uint32_t)), start[5] = {0, 0, 0, 0, 0};
    cr_assert(owner_list);
    for (uint32_t g = 0; g < n; ++g)
        start[dbt_host_mix(seed, 99u, g) % nbars + 1]++;
    for (uint32_t k = 0; k < nbars; ++k) {
        cr_assert_gt(start[k + 1], 0u, "barrier %u has no thread (seed)", k);
        start[k + 1] += start[k];
    }
    uint32_t fill[4] = {start[0], start[1], start[2], start[3]};
    for (uint32_t g = 0; g < n; ++g)
        owner_list[fill[dbt_host_mix(seed, 99u, g) % nbars]++] = g;
    cg_device_barrier_t *bars = dev_zero(nbars * sizeof(cg_device_barrier_t));
    for (uint32_t k = 0; k < nbars; ++k)
        CGT_OK(cg_device_barrier_init_host(&bars[k], start[k + 1] - start[k]));
    uint32_t *d_owner = dev_zero(n * sizeof(uint32_t)), *d_start = dev_zero(sizeof start);
    CGT_CUDA(cudaMemcpy(d_owner, owner_list, n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CGT_CUDA(cudaMemcpy(d_start, start, sizeof start, cudaMemcpyHostToDevice));
    uint32_t *slots = dev_zero(2u * n * sizeof(uint32_t));
    dbt_report_t *rep = dev_zero(sizeof *rep);
    CGT_CUDA((cudaError_t)dbt_launch_mix(blocks, bx, by, bz, bars, nbars, d_owner, d_start, slots, rep, seed, phases,
                                         1500));
    finish("random mix", rep, (unsigned long long)n * phases);
    /* >= 10^6 phases as the barriers counted them, not as the loop bounds say. */
    const unsigned long long total = expect_barrier_phases("random mix", bars, nbars, phases);
    cr_log_info("random mix: %llu barrier phases in all (the barriers' own counts)", total);
    if (!quick())
        cr_expect_geq(total, 1000000ull, "random mix: only %llu barrier phases", total);
    free(owner_list);
    cudaFree(bars);
    cudaFree(d_owner);
    cudaFree(d_start);
    cudaFree(slots);
    cudaFree(rep);
}

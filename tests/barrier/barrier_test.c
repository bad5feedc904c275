/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/barrier/barrier_test.c — GPU tests of the mbarrier core and the
 * barrier objects (kernels in barrier_kernels.cu). Every test starts with
 * cgt_require_sm90(), draws fresh random inputs, poisons its outputs and
 * checks every element against a host reference. CGT_QUICK=1 (the sanitizer
 * runs) scales the long loops down.
 *
 * Sanitizers: every test here is racecheck-clean except two constructs that
 * racecheck has no model of, each isolated in its own tests, which skip under
 * racecheck only (RACECHECK_NO_MODEL_* below say exactly what and why) and
 * still run in the plain, memcheck and synccheck passes:
 *   - the warp-aggregated arrive (cg_mbarrier_arrive_warp);
 *   - cg_barrier_fn_t, whose arrivals meet in a shared atomic counter.
 * Every other arrive here is one mbarrier arrive per thread (or arrive_drop)
 * and every wait an mbarrier try_wait (token or parity), which racecheck
 * follows.
 */
#include <stdlib.h>
#include <string.h>

#include "barrier/device_barrier.h"
#include "tests/barrier/barrier_test_util.h"
#include "tests/support/cgtest.h"

TestSuite(barrier, .timeout = 300);

/* What racecheck cannot follow (the reason printed with the skip). */
#define RACECHECK_NO_MODEL_WARP_ARRIVE                                                             \
    "cg_mbarrier_arrive_warp: each lane's writes are ordered by bar.warp.sync (__syncwarp) "        \
    "before ONE lane's mbarrier.arrive.release.cta with count = lanes; racecheck credits an "      \
    "mbarrier arrival only to the thread that executes it and does not chain bar.warp.sync into "  \
    "another lane's arrive, so it reports the other lanes' writes against the waiters' reads"
#define RACECHECK_NO_MODEL_FN_BARRIER                                                              \
    "cg_barrier_fn_t: the last arrival acquires the phase's arrivals with fence.acq_rel.cta after "  \
    "its own mbarrier.arrive.noComplete (the arrive is the RMW that tells it it is last) and runs " \
    "the completion function before the phase ends; racecheck credits mbarrier synchronization " \
    "only to arrive -> wait on phase completion, so it reports the arrivers' writes against the " \
    "function's reads"

static int quick(void)
{
    const char *q = getenv("CGT_QUICK");
    return q != NULL && *q != '\0' && strcmp(q, "0") != 0;
}

/* Device buffer of n words, poisoned. */
static void *dev_poisoned(size_t bytes)
{
    void *p = NULL;
    CGT_CUDA(cudaMalloc(&p, bytes));
    CGT_CUDA(cudaMemset(p, CGT_POISON_BYTE, bytes));
    return p;
}

static void *host_copy(const void *dev, size_t bytes)
{
    void *h = malloc(bytes);
    cr_assert(h != NULL);
    CGT_CUDA(cudaMemcpy(h, dev, bytes, cudaMemcpyDeviceToHost));
    return h;
}

static const int block_sizes[] = {32, 64, 128, 256, 512, 1024};
#define NSIZES (sizeof block_sizes / sizeof block_sizes[0])

static const char *mode_name(int m)
{
    static const char *names[] = {"barrier token", "mbarrier parity", "warp-aggregated",
                                  "arrive_and_wait", "random mix", "random per-thread mix"};
    return m >= 0 && m < BT_MODES ? names[m] : "?";
}

/* Runs the phase kernel and checks every thread: no wrong read or parity
 * during the run, and the last value read is the host's. */
static void run_phases(int blocks, int threads, int phases, int mode, int jitter, uint64_t *rng)
{
    uint32_t seed = (uint32_t)cgt_rand(rng);
    size_t n = (size_t)blocks * (size_t)threads, bytes = n * sizeof(uint32_t);
    uint32_t *d_err = dev_poisoned(bytes), *d_last = dev_poisoned(bytes);
    CGT_CUDA((cudaError_t)bt_launch_phases(blocks, threads, seed, phases, mode, jitter, d_err, d_last));
    CGT_SYNC();
    uint32_t *err = host_copy(d_err, bytes), *last = host_copy(d_last, bytes);
    size_t bad = 0;
    uint32_t k = (uint32_t)phases - 1u;
    for (size_t g = 0; g < n; ++g) {
        uint32_t b = (uint32_t)(g / (size_t)threads), t = (uint32_t)(g % (size_t)threads);
        uint32_t bseed = bt_block_seed(seed, b);
        uint32_t j = bt_partner(bseed, k, t, (uint32_t)threads);
        uint32_t want = bt_hash3(bseed, k, j);
        if ((err[g] != 0 || last[g] != want) && bad++ < 8)
            cr_expect(0, "%s, %d threads, block %u thread %u: %u bad phases, last read %#x want %#x",
                      mode_name(mode), threads, b, t, err[g], last[g], want);
    }
    cr_expect_eq(bad, 0, "%s, %d threads x %d blocks: %zu of %zu threads wrong", mode_name(mode),
                 threads, blocks, bad, n);
    free(err);
    free(last);
    cudaFree(d_err);
    cudaFree(d_last);
}

/* Every per-thread arrive/wait form, every block size, many phases: data
 * written before an arrive is seen after the wait, and the parity flips once
 * per phase. */
Test(barrier, phases_and_parity_every_mode_and_block_size)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    static const int modes[] = {BT_BARRIER_TOKEN, BT_MBARRIER_PARITY, BT_ARRIVE_AND_WAIT,
                                BT_RANDOM_THREAD_MIX};
    int phases = quick() ? 100 : 20000;
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; ++m)
        for (size_t s = 0; s < NSIZES; ++s)
            run_phases(4, block_sizes[s], phases, modes[m], 0, &rng);
}

/* The same with the warp-aggregated arrive: alone, and mixed at random with
 * the per-thread forms (lanes of one warp diverge between forms). */
Test(barrier, warp_aggregated_arrive_every_block_size)
{
    cgt_skip_under_sanitizer("racecheck", RACECHECK_NO_MODEL_WARP_ARRIVE);
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    int phases = quick() ? 100 : 20000;
    for (size_t s = 0; s < NSIZES; ++s) {
        run_phases(4, block_sizes[s], phases, BT_WARP_AGGREGATED, 0, &rng);
        run_phases(4, block_sizes[s], phases, BT_RANDOM_MIX, 0, &rng);
    }
}

/* Millions of phases in one block: the parity keeps flipping correctly far
 * past any small counter width. */
Test(barrier, millions_of_phases_one_block)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    run_phases(1, 128, quick() ? 20000 : 2000000, BT_BARRIER_TOKEN, 0, &rng);
    run_phases(1, 32, quick() ? 20000 : 2000000, BT_MBARRIER_PARITY, 0, &rng);
}

/* Randomized arrival order: each thread spins a random time before each
 * arrive and picks its arrive/wait form at random; >= 10^7 block-phases over
 * all block sizes in the full run. */
static void stress(int mode, uint64_t *rng)
{
    int blocks = cgt_device_props()->multiProcessorCount;
    int phases = quick() ? 40 : 16000;
    for (size_t s = 0; s < NSIZES; ++s)
        run_phases(blocks, block_sizes[s], phases, mode, 512, rng);
    cr_log_info("stress (%s): %d blocks x %d phases x %zu block sizes = %lld block-phases",
                mode_name(mode), blocks, phases, NSIZES, (long long)blocks * phases * (long long)NSIZES);
}

/* Per-thread forms (token, parity, arrive_and_wait). */
Test(barrier, stress_random_arrival_order)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    stress(BT_RANDOM_THREAD_MIX, &rng);
}

/* All four forms, the warp-aggregated arrive included. */
Test(barrier, stress_random_arrival_order_with_warp_aggregated_arrive)
{
    cgt_skip_under_sanitizer("racecheck", RACECHECK_NO_MODEL_WARP_ARRIVE);
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    stress(BT_RANDOM_MIX, &rng);
}

/* arrive_and_drop: threads leave at random phases; the remaining ones keep
 * synchronizing (a count that did not shrink would hang: the suite's timeout
 * fails it), and a phase never completes early (stale reads are counted). */
static void run_drop(int use_fn, uint64_t *rng)
{
    int phases = quick() ? 64 : 512;
    for (size_t s = 0; s < NSIZES; ++s) {
        int threads = block_sizes[s];
        uint32_t seed = (uint32_t)cgt_rand(rng);
        size_t bytes = (size_t)threads * sizeof(uint32_t);
        uint32_t *d_err = dev_poisoned(bytes), *d_runs = dev_poisoned(sizeof(uint32_t));
        CGT_CUDA((cudaError_t)bt_launch_drop(threads, seed, phases, use_fn, d_err, d_runs));
        CGT_SYNC();
        uint32_t *err = host_copy(d_err, bytes), *runs = host_copy(d_runs, sizeof(uint32_t));
        for (int t = 0; t < threads; ++t)
            cr_expect_eq(err[t], 0, "%s, %d threads: thread %d saw %u stale reads",
                         use_fn ? "cg_barrier_fn_t" : "cg_barrier_t", threads, t, err[t]);
        /* thread 0 never leaves: the completion function ran once per phase */
        if (use_fn)
            cr_expect_eq(runs[0], (uint32_t)phases, "%d threads: completion ran %u times for %d phases",
                         threads, runs[0], phases);
        free(err);
        free(runs);
        cudaFree(d_err);
        cudaFree(d_runs);
    }
}

/* cg_barrier_t (mbarrier.arrive_drop). */
Test(barrier, arrive_and_drop_shrinks_the_expected_count)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    run_drop(0, &rng);
}

/* cg_barrier_fn_t (the counter's expected count shrinks). */
Test(barrier, completion_barrier_arrive_and_drop_shrinks_the_expected_count)
{
    cgt_skip_under_sanitizer("racecheck", RACECHECK_NO_MODEL_FN_BARRIER);
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    run_drop(1, &rng);
}

/* tx-count: a phase completes only when both its arrivals and its bytes are
 * done, whichever comes last, with bytes completed by other threads. */
Test(barrier, tx_count_needs_arrivals_and_bytes)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    for (int rep = 0; rep < 8; ++rep) {
        int threads = 32 << (rep % 6); /* 32 .. 1024 */
        int nchunks = 2 + (int)(cgt_rand(&rng) % (uint64_t)(threads - 2));
        uint32_t chunks[1024];
        uint32_t total = 0;
        for (int i = 0; i < nchunks; ++i) {
            chunks[i] = 1u + (uint32_t)(cgt_rand(&rng) % 512u); /* total < 2^20 */
            total += chunks[i];
        }
        uint32_t *d_chunks = NULL;
        CGT_CUDA(cudaMalloc((void **)&d_chunks, sizeof chunks));
        CGT_CUDA(cudaMemcpy(d_chunks, chunks, (size_t)nchunks * sizeof(uint32_t), cudaMemcpyHostToDevice));
        uint32_t *d_flags = dev_poisoned(BT_TX_FLAGS * sizeof(uint32_t));
        CGT_CUDA((cudaError_t)bt_launch_tx(threads, d_chunks, nchunks, d_flags));
        CGT_SYNC();
        uint32_t *f = host_copy(d_flags, BT_TX_FLAGS * sizeof(uint32_t));
        static const uint32_t want[14] = {0, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0 /* see below */, 1, 1, 1};
        static const char *what[14] = {
            "A: complete before the last chunk (token)", "A: complete before the last chunk (parity)",
            "A: complete after the last chunk", "B: complete with 2 arrivals pending, tx < 0",
            "B: complete with 1 arrival pending", "B: complete after the last arrival",
            "C: barrier complete with bytes pending", "C: barrier completed",
            "D: complete with expect_tx bytes pending", "D: completed", "E", "E: completed",
            "F: re-initialized barrier, token", "F: re-initialized barrier, parity"};
        for (int i = 0; i < 14; ++i) {
            if (i == 10) { /* pending count of a noComplete token: before (2) or after (1) */
                cr_expect(f[10] == 1u || f[10] == 2u, "E: pending_count of a noComplete token is %u",
                          f[10]);
                cr_log_info("pending_count(arrive.noComplete(1) on a count-2 phase) = %u", f[10]);
                continue;
            }
            cr_expect_eq(f[i], want[i], "%d threads, %d chunks, %u bytes: %s: got %u, want %u", threads,
                         nchunks, total, what[i], f[i], want[i]);
        }
        cr_expect_eq(f[14], 0xC0FFEEu, "the kernel ran to its end");
        free(f);
        cudaFree(d_chunks);
        cudaFree(d_flags);
    }
}

/* Remote arrive across a cluster: each CTA writes into every CTA's shared
 * memory and arrives on its barrier (release.cluster); receivers wait on their
 * own barrier (acquire.cluster) and check every word. Cluster sizes 2..8. */
Test(barrier, remote_arrive_across_a_cluster)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    static const int sizes[] = {2, 3, 4, 8};
    int rounds = quick() ? 50 : 2000;
    for (int mode = 0; mode < 3; ++mode) {
        for (size_t s = 0; s < 4; ++s) {
            int C = sizes[s], clusters = 16;
            uint32_t seed = (uint32_t)cgt_rand(&rng);
            size_t n = (size_t)clusters * (size_t)C * 8u, bytes = n * sizeof(uint32_t);
            uint32_t *d_err = dev_poisoned(bytes), *d_last = dev_poisoned(bytes);
            CGT_CUDA((cudaError_t)bt_launch_remote(clusters, C, seed, rounds, mode, d_err, d_last));
            CGT_SYNC();
            uint32_t *err = host_copy(d_err, bytes), *last = host_copy(d_last, bytes);
            size_t bad = 0;
            uint32_t r = (uint32_t)rounds - 1u;
            for (size_t i = 0; i < n; ++i) {
                uint32_t cta = (uint32_t)(i / 8u), t = (uint32_t)(i % 8u);
                uint32_t me = cta % (uint32_t)C;
                uint32_t cseed = seed ^ (cta / (uint32_t)C) * 0x01000193u;
                uint32_t want_last = t < (uint32_t)C ? bt_hash3(cseed, r, t * 8u + me) : 0u;
                if ((err[i] != 0 || last[i] != want_last) && bad++ < 8)
                    cr_expect(0, "mode %d, cluster %d: cta %u thread %u: %u bad rounds, last %#x want %#x",
                              mode, C, cta, t, err[i], last[i], want_last);
            }
            cr_expect_eq(bad, 0, "mode %d, cluster of %d: %zu of %zu receivers wrong", mode, C, bad, n);
            free(err);
            free(last);
            cudaFree(d_err);
            cudaFree(d_last);
        }
    }
}

/* One run of bt_completion_kernel in `mode` (names: modes[]): fresh random
 * inputs, poisoned outputs; counts the phases whose sum or run count is
 * wrong and the threads that read a wrong phase count or sum after a wait
 * (their errors summed into *waiter_errors). With `report`, each wrong one is
 * a failed expectation (the first 8). Returns the number of wrong ones. */
static const char *const completion_modes[] = {
    "stored function", "arrive_elect inline", "arrive_and_wait", "arrive_with (function named at the arrive)",
    "CG_BARRIER_FN_DEFINE type: arrive, work, wait (slow function)",
    "CG_BARRIER_FN_DEFINE type: arrive_and_wait (slow function)"};
#define NCOMPLETION_MODES ((int)(sizeof completion_modes / sizeof completion_modes[0]))

static int run_completion(int mode, int threads, int phases, int jitter, uint64_t *rng, int report,
                          unsigned long long *waiter_errors)
{
    const char *name = completion_modes[mode];
    size_t nin = (size_t)phases * (size_t)threads;
    int *in = malloc(nin * sizeof(int));
    cr_assert(in != NULL);
    cgt_fill_random_int(in, nin, -100000, 100000, rng);
    int *d_in = NULL;
    CGT_CUDA(cudaMalloc((void **)&d_in, nin * sizeof(int)));
    CGT_CUDA(cudaMemcpy(d_in, in, nin * sizeof(int), cudaMemcpyHostToDevice));
    int *d_results = dev_poisoned((size_t)phases * sizeof(int));
    uint32_t *d_runs = NULL;
    CGT_CUDA(cudaMalloc((void **)&d_runs, (size_t)phases * sizeof(uint32_t)));
    CGT_CUDA(cudaMemset(d_runs, 0, (size_t)phases * sizeof(uint32_t)));
    uint32_t *d_err = dev_poisoned((size_t)threads * sizeof(uint32_t));
    int *d_seen = dev_poisoned((size_t)threads * sizeof(int));
    CGT_CUDA((cudaError_t)bt_launch_completion(threads, d_in, phases, mode, jitter, d_results, d_runs, d_err,
                                               d_seen));
    CGT_SYNC();
    int *res = host_copy(d_results, (size_t)phases * sizeof(int));
    uint32_t *runs = host_copy(d_runs, (size_t)phases * sizeof(uint32_t));
    uint32_t *err = host_copy(d_err, (size_t)threads * sizeof(uint32_t));
    int *seen = host_copy(d_seen, (size_t)threads * sizeof(int));
    int bad = 0;
    int want_last = 0;
    *waiter_errors = 0;
    for (int k = 0; k < phases; ++k) {
        long long sum = 0;
        for (int t = 0; t < threads; ++t)
            sum += in[(size_t)k * (size_t)threads + (size_t)t];
        want_last = (int)sum;
        if ((res[k] != (int)sum || runs[k] != 1u) && bad++ < 8 && report)
            cr_expect(0, "%s, %d threads, phase %d: sum %d want %lld, ran %u times", name, threads, k, res[k],
                      sum, runs[k]);
    }
    for (int t = 0; t < threads; ++t) {
        *waiter_errors += err[t];
        if ((err[t] != 0 || seen[t] != want_last) && bad++ < 8 && report)
            cr_expect(0, "%s, %d threads: thread %d: %u bad phases, last sum %d want %d", name, threads, t, err[t],
                      seen[t], want_last);
    }
    free(in);
    free(res);
    free(runs);
    free(err);
    free(seen);
    cudaFree(d_in);
    cudaFree(d_results);
    cudaFree(d_runs);
    cudaFree(d_err);
    cudaFree(d_seen);
    return bad;
}

/* Completion function: runs exactly once per phase, sees every arriving
 * thread's write (its sum is the host's), and its writes are visible to every
 * waiter. Every way to use it (the stored pointer, the inline step,
 * arrive_and_wait, the function named at the arrive, and the type whose
 * function is fixed at compile time, with a function slow enough that a
 * waiter released before it ends would read the phase before), every block
 * size, random arrival order. */
Test(barrier, completion_function_once_per_phase_sees_every_write)
{
    cgt_skip_under_sanitizer("racecheck", RACECHECK_NO_MODEL_FN_BARRIER);
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    int phases = quick() ? 50 : 1000;
    for (int mode = 0; mode < NCOMPLETION_MODES; ++mode)
        for (size_t s = 0; s < NSIZES; ++s) {
            unsigned long long werr = 0;
            int bad = run_completion(mode, block_sizes[s], phases, (s % 2) ? 300 : 0, &rng, 1, &werr);
            cr_expect_eq(bad, 0, "%s, %d threads: %d wrong", completion_modes[mode], block_sizes[s], bad);
        }
}

/* A timed wait on a phase that cannot complete returns false after about the
 * bound (never hangs); once the missing arrival comes it returns true. */
Test(barrier, try_wait_times_out_instead_of_hanging)
{
    cgt_require_sm90();
    static const char *what[4] = {"cg_barrier_try_wait_for", "cg_barrier_try_wait_parity_for",
                                  "cg_barrier_fn_try_wait_for", "cg_device_barrier_try_wait_for"};
    const uint64_t bound = 2000000ull; /* 2 ms */
    const uint64_t slack = 200000000ull; /* generous: suspension and scheduling */
    int sizes[] = {32, 256, 1024};
    for (int s = 0; s < 3; ++s) {
        int threads = sizes[s];
        size_t nf = (size_t)threads * 8u, ne = (size_t)threads * 4u;
        uint32_t *d_flags = dev_poisoned(nf * sizeof(uint32_t));
        uint64_t *d_el = dev_poisoned(ne * sizeof(uint64_t));
        CGT_CUDA((cudaError_t)bt_launch_timeout(threads, bound, d_flags, d_el));
        CGT_SYNC();
        uint32_t *f = host_copy(d_flags, nf * sizeof(uint32_t));
        uint64_t *el = host_copy(d_el, ne * sizeof(uint64_t));
        int bad = 0;
        for (int t = 0; t < threads; ++t) {
            for (int i = 0; i < 4; ++i) {
                uint32_t timed = f[t * 4 + i], later = f[(threads + t) * 4 + i];
                uint64_t e = el[t * 4 + i];
                if ((timed != 0u || later != 1u || e < bound || e > bound + slack) && bad++ < 8)
                    cr_expect(0, "%d threads, thread %d, %s: timed out=%s after %llu ns (bound %llu), "
                                 "then completed=%s",
                              threads, t, what[i], timed == 0u ? "yes" : "NO", (unsigned long long)e,
                              (unsigned long long)bound, later == 1u ? "yes" : "NO");
            }
        }
        cr_expect_eq(bad, 0, "%d threads: %d wrong", threads, bad);
        free(f);
        free(el);
        cudaFree(d_flags);
        cudaFree(d_el);
    }
}

/* Device-scope barrier across co-resident blocks (cooperative launch). */
Test(barrier, device_barrier_across_blocks)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    const int threads = 256;
    int blocks = cgt_device_props()->multiProcessorCount;
    int phases = quick() ? 50 : 5000;
    uint32_t seed = (uint32_t)cgt_rand(&rng);
    size_t N = (size_t)blocks * threads;
    cg_device_barrier_t *d_bar = NULL;
    CGT_CUDA(cudaMalloc((void **)&d_bar, sizeof *d_bar));
    CGT_OK(cg_device_barrier_init_host(d_bar, (uint32_t)N));
    uint32_t *d_data = dev_poisoned(2 * N * sizeof(uint32_t));
    uint32_t *d_err = dev_poisoned(N * sizeof(uint32_t)), *d_last = dev_poisoned(N * sizeof(uint32_t));
    CGT_CUDA((cudaError_t)bt_launch_device_barrier(blocks, threads, seed, phases, d_bar, d_data, d_err,
                                                   d_last));
    CGT_SYNC();
    uint32_t *err = host_copy(d_err, N * sizeof(uint32_t)), *last = host_copy(d_last, N * sizeof(uint32_t));
    size_t bad = 0;
    uint32_t k = (uint32_t)phases - 1u;
    for (size_t g = 0; g < N; ++g) {
        uint32_t j = bt_partner(seed, k, (uint32_t)g, (uint32_t)N);
        uint32_t want = bt_hash3(seed, k, j);
        if ((err[g] != 0 || last[g] != want) && bad++ < 8)
            cr_expect(0, "thread %zu: %u bad phases, last %#x want %#x", g, err[g], last[g], want);
    }
    cr_expect_eq(bad, 0, "%zu of %zu threads wrong", bad, N);
    free(err);
    free(last);
    cudaFree(d_bar);
    cudaFree(d_data);
    cudaFree(d_err);
    cudaFree(d_last);
}

/* Host init rejects what it must (no GPU needed for the argument checks). */
Test(barrier, device_barrier_host_init_arguments)
{
    cr_expect_eq(cg_device_barrier_init_host(NULL, 4), CG_ERROR_INVALID_ARGUMENT);
    cg_device_barrier_t *fake = (cg_device_barrier_t *)(uintptr_t)0x1000;
    cr_expect_eq(cg_device_barrier_init_host(fake, 0), CG_ERROR_COUNT_RANGE);
    cr_expect_eq(cg_device_barrier_init_host(fake, 1u << 20), CG_ERROR_COUNT_RANGE);
}

/* cg_barrier_fn_t re-initialized with another function and argument: every
 * thread reads the stored pair before its arrive, so after each re-init every
 * phase must run the new function on the new argument exactly once (or none
 * for a NULL function), on odd, partial-warp and 3-D blocks with random
 * arrival order. Host replay: epoch e, phase k, thread t wrote
 * bt_hash3(seed, e * phases + k, t); function A stores their xor, B their
 * sum. */
Test(barrier, completion_barrier_reinit_calls_the_new_function)
{
    cgt_skip_under_sanitizer("racecheck", RACECHECK_NO_MODEL_FN_BARRIER);
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    static const unsigned shapes[][3] = {{7, 5, 3}, {33, 1, 1}, {32, 4, 2}, {1000, 1, 1}, {17, 3, 2}, {1, 1, 1}};
    const int epochs = 7, phases = quick() ? 20 : 200;
    const size_t cells = (size_t)epochs * (size_t)phases;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        const unsigned bx = shapes[s][0], by = shapes[s][1], bz = shapes[s][2], n = bx * by * bz;
        const uint32_t seed = (uint32_t)cgt_rand(&rng);
        const int jitter = (s % 2) ? 0 : 200;
        uint32_t *d_runs = NULL;
        CGT_CUDA(cudaMalloc((void **)&d_runs, cells * sizeof(uint32_t)));
        CGT_CUDA(cudaMemset(d_runs, 0, cells * sizeof(uint32_t)));
        int *d_res = dev_poisoned(cells * sizeof(int));
        uint32_t *d_err = dev_poisoned((size_t)n * sizeof(uint32_t));
        CGT_CUDA((cudaError_t)bt_launch_fn_reinit(bx, by, bz, seed, epochs, phases, jitter, d_runs, d_res, d_err));
        CGT_SYNC();
        uint32_t *runs = host_copy(d_runs, cells * sizeof(uint32_t));
        int *res = host_copy(d_res, cells * sizeof(int));
        uint32_t *err = host_copy(d_err, (size_t)n * sizeof(uint32_t));
        int bad = 0;
        for (int e = 0; e < epochs; ++e) {
            const int kind = e % 3;
            static const char *const kinds[] = {"A (xor)", "B (sum)", "none"};
            for (int k = 0; k < phases; ++k) {
                uint32_t x = 0, sum = 0;
                for (unsigned t = 0; t < n; ++t) {
                    const uint32_t h = bt_hash3(seed, (uint32_t)(e * phases + k), t);
                    x ^= h;
                    sum += h;
                }
                const size_t i = (size_t)e * (size_t)phases + (size_t)k;
                const uint32_t want_runs = kind == 0 ? 1u : kind == 1 ? 0x10000u : 0u;
                const int want_res = kind == 0 ? (int)x : kind == 1 ? (int)sum : CGT_POISON_INT;
                if ((runs[i] != want_runs || res[i] != want_res) && bad++ < 8)
                    cr_expect(0,
                              "block %ux%ux%u, epoch %d (function %s), phase %d: runs mark %#x want %#x "
                              "(1 per run of A, 0x10000 per run of B), result %#x want %#x",
                              bx, by, bz, e, kinds[kind], k, runs[i], want_runs, (unsigned)res[i],
                              (unsigned)want_res);
            }
        }
        for (unsigned t = 0; t < n; ++t)
            if (err[t] != 0 && bad++ < 8)
                cr_expect(0, "block %ux%ux%u: thread %u saw the wrong run count after %u of its waits", bx, by, bz,
                          t, err[t]);
        cr_expect_eq(bad, 0, "block %ux%ux%u: %d wrong", bx, by, bz, bad);
        free(runs);
        free(res);
        free(err);
        cudaFree(d_runs);
        cudaFree(d_res);
        cudaFree(d_err);
    }
}

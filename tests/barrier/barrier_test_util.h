/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/barrier/barrier_test_util.h — what the barrier tests' kernels (.cu)
 * and their host checks (.c) must compute identically: the value hash and the
 * launcher prototypes. Plain C; the hash is __host__ __device__ under nvcc.
 */
#ifndef CGT_BARRIER_TEST_UTIL_H
#define CGT_BARRIER_TEST_UTIL_H

#include <stdint.h>

#if defined(__CUDACC__)
#define BT_HD __host__ __device__
#else
#define BT_HD
#endif

/* A well-mixed 32-bit value of three words: every (seed, phase, thread)
 * writes a different value, so a read of a stale phase or of the wrong slot
 * is caught. */
static BT_HD inline uint32_t bt_hash3(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u ^ (c + 0x165667B1u) * 0xC2B2AE3Du;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    return h;
}

/* The seed of block b of a launch seeded with `seed`. */
static BT_HD inline uint32_t bt_block_seed(uint32_t seed, uint32_t b)
{
    return bt_hash3(seed, b, 0xB10Cu);
}

/* The slot thread t of a block of n reads in phase k. */
static BT_HD inline uint32_t bt_partner(uint32_t bseed, uint32_t k, uint32_t t, uint32_t n)
{
    return bt_hash3(bseed ^ 0x5555u, k, t) % n;
}

/* The phase at which thread t of the drop test leaves (phases: never). */
static BT_HD inline uint32_t bt_leave_phase(uint32_t seed, uint32_t t, uint32_t phases)
{
    uint32_t h = bt_hash3(seed, t, 0xD209u);
    return (t == 0 || (h & 3u) == 0) ? phases : (h >> 2) % phases;
}

#ifdef __cplusplus
extern "C" {
#endif

/* Every launcher returns the cudaError_t of its launch (as int). */

/* Modes of the phase kernel: how each thread arrives and waits. */
enum bt_mode {
    BT_BARRIER_TOKEN = 0, /* cg_barrier_arrive_one + cg_barrier_wait_token */
    BT_MBARRIER_PARITY,   /* cg_mbarrier_arrive + cg_mbarrier_wait_parity */
    BT_WARP_AGGREGATED,   /* cg_mbarrier_arrive_warp + cg_mbarrier_wait */
    BT_ARRIVE_AND_WAIT,   /* cg_barrier_arrive_and_wait */
    BT_RANDOM_MIX,        /* per thread and phase, one of the four above at random */
    BT_RANDOM_THREAD_MIX, /* per thread and phase, token, parity or arrive_and_wait: every
                             thread arrives itself (no warp-aggregated arrive) */
    BT_MODES
};

/* Each block: `phases` phases of write, arrive, (jitter), wait, check a
 * partner's slot. errors[g] counts wrong reads and wrong parities of thread
 * g; last[g] is the last value it read. jitter: max random spin (cycles)
 * before each arrive. */
int bt_launch_phases(int blocks, int threads, uint32_t seed, int phases, int mode, int jitter,
                     uint32_t *errors, uint32_t *last);

/* One block; thread t leaves (arrive_and_drop) at bt_leave_phase(t). use_fn:
 * 0 cg_barrier_t, 1 cg_barrier_fn_t (whose function counts phases in *runs). */
int bt_launch_drop(int threads, uint32_t seed, int phases, int use_fn, uint32_t *errors,
                   uint32_t *runs);

/* One block: the tx-count scenarios. chunks[0..nchunks) are byte counts
 * (nchunks <= threads - 1); flags[] gets the observed completion states. */
#define BT_TX_FLAGS 16
int bt_launch_tx(int threads, const uint32_t *chunks, int nchunks, uint32_t *flags);

/* Clusters of `cluster` CTAs (2..8), `clusters` of them, `rounds` rounds of
 * remote writes + remote arrives. mode 0: arrive_remote, 1: complete_tx_remote
 * + arrive_tx_remote, 2: arrive_remote_if with a false twin and relaxed
 * remote no-ops. errors[cta * 8 + t], last[...] per receiving thread. */
int bt_launch_remote(int clusters, int cluster, uint32_t seed, int rounds, int mode,
                     uint32_t *errors, uint32_t *last);

/* Completion function test. inputs[k * threads + t]; results[k] = the sum the
 * function computed in phase k; runs[k] = times it ran in phase k; errors[t]
 * per thread; seen[t] = the sum thread t read after its last wait. mode 0:
 * stored function, 1: arrive_elect inline, 2: arrive_and_wait, 3: arrive_with
 * (the function named at the arrive). */
int bt_launch_completion(int threads, const int *inputs, int phases, int mode, int jitter,
                         int *results, uint32_t *runs, uint32_t *errors, int *seen);

/* cg_barrier_fn_t re-initialized every epoch with function A (epoch % 3 == 0:
 * runs[k] += 1, results[k] = xor of the block's words), B (1: runs[k] +=
 * 0x10000, results[k] = their sum) or none (2); runs/results are
 * [epochs][phases]; errors[t]: phases after which thread t saw the wrong
 * count of runs. One block of bx * by * bz threads. */
int bt_launch_fn_reinit(unsigned bx, unsigned by, unsigned bz, uint32_t seed, int epochs, int phases, int jitter,
                        uint32_t *runs, int *results, uint32_t *errors);

/* Timed waits: a phase that cannot complete; flags[t*4 + i], elapsed[t*4 + i]. */
int bt_launch_timeout(int threads, uint64_t bound_ns, uint32_t *flags, uint64_t *elapsed);

/* Device-scope barrier, cooperative launch. data: 2 * blocks * threads words. */
int bt_launch_device_barrier(int blocks, int threads, uint32_t seed, int phases, void *bar,
                             uint32_t *data, uint32_t *errors, uint32_t *last);

/* Debug-build misuse kernels (debug_kernels.cu, -DCG_DEBUG=1). */
int bt_launch_debug_wait_token(void);
int bt_launch_debug_wait_parity(void);
int bt_launch_debug_bad_count(void);
int bt_launch_debug_fn_overflow(void);
int bt_launch_debug_device_wait(void *bar);
int bt_launch_debug_device_over_arrival(void *bar);
int bt_launch_debug_device_future_token(void *bar);

#ifdef __cplusplus
}
#endif

#endif /* CGT_BARRIER_TEST_UTIL_H */

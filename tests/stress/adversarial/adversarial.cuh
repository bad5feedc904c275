/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/stress/adversarial/adversarial.cuh — what the adversarial kernels share: the
 * hash that makes every per-thread, per-phase value, delay and choice from the
 * run's seed (so the host can recompute any of them), and a delay on the
 * global timer.
 */
#ifndef CGT_ADVERSARIAL_CUH
#define CGT_ADVERSARIAL_CUH

#include <stdint.h>

#include "base/sreg.h"

/* A 32-bit hash of (seed, a, b); the host side mirrors it (dbt_host_mix). */
static __host__ __device__ __forceinline__ uint32_t adv_mix(uint64_t seed, uint64_t a, uint64_t b)
{
    uint64_t x = seed ^ (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full);
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDull;
    x ^= x >> 33;
    return (uint32_t)x;
}

/* Spin on %globaltimer for `ns` nanoseconds. */
static __device__ __forceinline__ void adv_spin_ns(uint32_t ns)
{
    const uint64_t t0 = cg_sreg_globaltimer_ns();
    while (cg_sreg_globaltimer_ns() - t0 < ns) {
    }
}

/* --- per-block tally: what was checked and which phases completed ----------
 *
 * Each thread counts the data checks it made; one thread per barrier object
 * counts the phases it saw complete (after each of its waits). When a thread
 * leaves the kernel it adds its counts into the block's shared tally; the
 * last thread of the block to leave writes the tally over the block's record
 * in global memory, which the host poisoned. So the host compares what the
 * kernel itself counted, block by block and object by object, with what the
 * test meant to run: a block that never ran, stopped early or skipped its
 * checks leaves poison or a short count, never a pass. Mirrored in
 * block_test.c (abt_block_rec_t). */
#define ADV_OBJECTS 4
struct adv_block_rec {
    unsigned long long checks;              /* data checks made by the block's threads */
    unsigned long long phases[ADV_OBJECTS]; /* phases each barrier object completed, device-counted */
};

struct adv_tally {
    unsigned long long checks;
    unsigned long long phases[ADV_OBJECTS];
    unsigned left; /* threads that have left */
};

/* Thread 0, before a block barrier that every thread passes first. */
static __device__ __forceinline__ void adv_tally_init(adv_tally *s)
{
    s->checks = 0;
    for (int k = 0; k < ADV_OBJECTS; ++k)
        s->phases[k] = 0;
    s->left = 0;
}

/* Every thread of the block, once, as it leaves: its checks and, when it is
 * the phase counter of object `obj` (>= 0), the phases it counted. */
static __device__ __forceinline__ void adv_tally_leave(adv_tally *s, adv_block_rec *rec, uint32_t nthreads,
                                                       unsigned long long checks, int obj,
                                                       unsigned long long phases)
{
    if (checks)
        atomicAdd(&s->checks, checks);
    if (obj >= 0)
        atomicAdd(&s->phases[obj], phases);
    __threadfence_block();
    if (atomicAdd(&s->left, 1u) + 1u == nthreads) { /* the last one out */
        __threadfence_block();
        rec->checks = atomicAdd(&s->checks, 0ull);
        for (int k = 0; k < ADV_OBJECTS; ++k)
            rec->phases[k] = atomicAdd(&s->phases[k], 0ull);
    }
}

#endif /* CGT_ADVERSARIAL_CUH */

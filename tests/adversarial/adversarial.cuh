/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/adversarial/adversarial.cuh — what the adversarial kernels share: the
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

#endif /* CGT_ADVERSARIAL_CUH */

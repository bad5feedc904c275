/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/support/hash.h — the 32-bit integer hash the tests' kernels and host
 * checks share (plain C; __host__ __device__ under nvcc), so a value written
 * on the device and the one the host expects come from one function.
 */
#ifndef CGT_HASH_H
#define CGT_HASH_H

#include <stdint.h>

#if defined(__CUDACC__)
#define CGT_HD static __host__ __device__ __forceinline__
#else
#define CGT_HD static inline
#endif

/* xorshift-multiply rounds: every input bit reaches every output bit, so
 * neighbouring indices, rounds and seeds give unrelated values. */
CGT_HD uint32_t cgt_hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

#endif /* CGT_HASH_H */

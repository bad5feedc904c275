/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/support/oracle.cuh — the one oracle helper: what every GPU test that
 * runs C++ CG beside cgc in the same kernel, on the same values, shares. C++
 * CG's headers with the namespace as `cpp`, and a value's bits moved into and
 * out of the uint64_t slots in which those kernels hand every result to the
 * host (so one host check compares any type bit for bit).
 * Test code only (C++ templates: the library's names stay C).
 */
#ifndef CGT_SUPPORT_ORACLE_CUH
#define CGT_SUPPORT_ORACLE_CUH

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <stdint.h>
#include <string.h>
#include <type_traits>

namespace cpp = cooperative_groups;

/* The value of type T whose bits are the low sizeof(T) bytes of b. */
template <typename T>
__device__ __forceinline__ T cgt_from_bits(uint64_t b)
{
    T v;
    memcpy(&v, &b, sizeof v);
    return v;
}

/* v's bits in the low sizeof(T) bytes, the rest 0. */
template <typename T>
__device__ __forceinline__ uint64_t cgt_to_bits(T v)
{
    uint64_t b = 0;
    memcpy(&b, &v, sizeof v);
    return b;
}

#endif /* CGT_SUPPORT_ORACLE_CUH */

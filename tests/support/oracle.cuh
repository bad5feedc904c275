/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/support/oracle.cuh — the one oracle helper: what every GPU test that
 * runs C++ CG beside cgc in the same kernel, on the same values, shares. C++
 * CG's headers with the namespace as `cpp`, and a value's bits moved into and
 * out of the uint64_t slots in which those kernels hand every result to the
 * host (so one host check compares any type bit for bit); each thread's slot;
 * and the host's step from a run-time type number or tile size to the
 * template instantiation that serves it.
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

/* The caller's global linear thread id (blocks in linear order, x fastest):
 * the index of its slot in every per-thread input and output array. */
__device__ __forceinline__ size_t cgt_gid(void)
{
    size_t blk = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    size_t nt = (size_t)blockDim.x * blockDim.y * blockDim.z;
    return blk * nt + (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}

/* ---- cgc's typed calls by overload (test code only: the library's names are C) ---- */

/* cgc_<name>(const G *g, T v, A x) calls <call>_<sfx>(g, v, x): one typed
 * call of one group kind as an overload on (G, T), so that a kernel
 * templated over T names one cgc call for every type, as it names C++ CG's. */
#define CGT_OVERLOAD_VX(name, G, call, sfx, T, A)                                                            \
    __device__ __forceinline__ T name(const G *g, T v, A x)                                                  \
    {                                                                                                        \
        return call##_##sfx(g, v, x);                                                                        \
    }

/* Reduce, the two scans and shfl of group kind G (its calls prefixed lib):
 * cgc_reduce, cgc_incl, cgc_excl, cgc_shfl. */
#define CGT_SCAN_OVERLOADS(G, lib, sfx, T)                                                                   \
    CGT_OVERLOAD_VX(cgc_reduce, G, lib##_reduce, sfx, T, cg_op_t)                                            \
    CGT_OVERLOAD_VX(cgc_incl, G, lib##_inclusive_scan, sfx, T, cg_op_t)                                      \
    CGT_OVERLOAD_VX(cgc_excl, G, lib##_exclusive_scan, sfx, T, cg_op_t)                                      \
    CGT_OVERLOAD_VX(cgc_shfl, G, lib##_shfl, sfx, T, uint32_t)

/* X(sfx, T) for the six types with typed calls, in cgc's suffix order (the
 * order of every test's type enum): one list for every overload set. */
#define CGT_FOR_EACH_TYPE(X)                                                                                 \
    X(i32, int32_t) X(u32, uint32_t) X(i64, int64_t) X(u64, uint64_t) X(f32, float) X(f64, double)

/* ---- host: from a run-time type number or tile size to an instantiation ---- */

/* A type carried as a value, so that a generic lambda can name it:
 * `[&](auto tag) { using T = typename decltype(tag)::type; ... }`. */
template <typename T>
struct cgt_type_tag {
    using type = T;
};

/* A list of types, as a value. */
template <typename... Ts>
struct cgt_type_list {
};

/* f(cgt_type_tag<T>()) for T the ty-th of Ts (from 0); `none` when there is
 * no such T. */
template <typename R, typename F, typename... Ts>
static R cgt_pick_type(int ty, R none, F f, cgt_type_list<Ts...>)
{
    R r = none;
    int i = 0;
    (void)((ty == i++ ? (r = f(cgt_type_tag<Ts>()), true) : false) || ...);
    return r;
}

/* f(cgt_type_tag<T>()) for the element type numbered ty in the order every
 * test's type enum uses (i32, u32, i64, u64, f32, f64, then i16, u8 for the
 * tests that also run the widened types: NT = 8); `none` when ty is not one
 * of the first NT. One list for every per-type kernel table, so no test
 * spells it again. */
template <int NT, typename R, typename F>
static R cgt_with_type(int ty, R none, F f)
{
    static_assert(NT == 6 || NT == 8, "six typed-call types, or those and i16, u8");
    if constexpr (NT == 8)
        return cgt_pick_type(ty, none, f,
                             cgt_type_list<int32_t, uint32_t, int64_t, uint64_t, float, double, int16_t, uint8_t>());
    else
        return cgt_pick_type(ty, none, f, cgt_type_list<int32_t, uint32_t, int64_t, uint64_t, float, double>());
}

/* f(std::integral_constant<unsigned, N>()) for the N among Ns equal to n
 * (a tile size known at run time to a template argument); `none` when n is
 * none of them. */
template <unsigned... Ns, typename R, typename F>
static R cgt_with_size(unsigned n, R none, F f)
{
    R r = none;
    (void)((n == Ns ? (r = f(std::integral_constant<unsigned, Ns>()), true) : false) || ...);
    return r;
}

/* A kernel that takes each thread's value and argument words and writes its
 * output slots (the oracle kernels of tests/cg/wide_tile and tests/cg/generic). */
typedef void (*cgt_vao_kernel_t)(const uint64_t *val, const uint32_t *arg, uint64_t *out);

/* Launches of(std::integral_constant<unsigned, N>(), cgt_type_tag<T>()), the
 * (val, arg, out) kernel for tile size N and element type T, for the n and
 * type given at run time (n one of Ns, type one of the first NT types):
 * `blocks` blocks shaped (bx, by, bz). Returns the launch error, or
 * cudaErrorInvalidValue for an n or type not instantiated. */
template <int NT, unsigned... Ns, typename Of>
static cudaError_t cgt_launch_vao(Of of, unsigned n, int type, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
                                  const uint64_t *val, const uint32_t *arg, uint64_t *out)
{
    cgt_vao_kernel_t none = nullptr;
    cgt_vao_kernel_t k = cgt_with_size<Ns...>(n, none, [&](auto size) {
        return cgt_with_type<NT>(type, none, [&](auto tag) { return (cgt_vao_kernel_t)of(size, tag); });
    });
    if (!k)
        return cudaErrorInvalidValue;
    k<<<blocks, dim3(bx, by, bz)>>>(val, arg, out);
    return cudaGetLastError();
}

#endif /* CGT_SUPPORT_ORACLE_CUH */

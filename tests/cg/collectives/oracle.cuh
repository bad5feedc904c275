/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/collectives/oracle.cuh — device helpers the two oracle kernel files
 * share: bit-pattern moves, the cgc calls by overload (test code only: the
 * library's names are C), and the run of every operator through cgc and
 * through C++ CG on the same group and value.
 */
#ifndef CGT_ORACLE_CUH
#define CGT_ORACLE_CUH

#include "cg/groups.h"
#include "tests/support/oracle.cuh"
#include "cg/launch.h"
#include "tests/cg/collectives/collectives_kernels.h"

/* ---- bit patterns: cgt_from_bits, cgt_to_bits (tests/support/oracle.cuh) ---- */

/* The label a labeled partition takes for T: the key's bits, 32 or 64 wide. */
template <typename T>
using label_t = typename std::conditional<sizeof(T) == 4, uint32_t, uint64_t>::type;

/* Objects for the byte shuffles: 12 bytes (3 words) and 3 bytes (a partial
 * word). Made from the thread's val (8 bytes) and key (low 4 bytes). */
struct b12 {
    unsigned char b[12];
};
struct b3 {
    unsigned char b[3];
};

__device__ __forceinline__ b12 make_b12(uint64_t val, uint64_t key)
{
    b12 s;
    memcpy(s.b, &val, 8);
    memcpy(s.b + 8, &key, 4);
    return s;
}

__device__ __forceinline__ b3 make_b3(uint64_t val)
{
    b3 s;
    memcpy(s.b, &val, 3);
    return s;
}

/* A 12-byte object into two output fields (8 bytes, then 4 zero-extended). */
__device__ __forceinline__ void store_b12(uint64_t *o, b12 s)
{
    uint64_t lo = 0, hi = 0;
    memcpy(&lo, s.b, 8);
    memcpy(&hi, s.b + 8, 4);
    o[0] = lo;
    o[1] = hi;
}

__device__ __forceinline__ uint64_t b3_bits(b3 s)
{
    uint64_t v = 0;
    memcpy(&v, s.b, 3);
    return v;
}

/* ---- the cgc calls, by overload ------------------------------------------- */

/* Everything both kinds share (CGT_SCAN_OVERLOADS, tests/support/oracle.cuh),
 * then shfl_up/down and match, then the tile's shfl_xor. */
#define CGT_GROUP_OVERLOADS_(G, lib, sfx, T)                                                               \
    CGT_SCAN_OVERLOADS(G, lib, sfx, T)                                                                     \
    CGT_OVERLOAD_VX(cgc_shfl_up, G, lib##_shfl_up, sfx, T, uint32_t)                                       \
    CGT_OVERLOAD_VX(cgc_shfl_down, G, lib##_shfl_down, sfx, T, uint32_t)                                   \
    __device__ __forceinline__ uint32_t cgc_match_any(const G *g, T v)                                     \
    {                                                                                                      \
        return lib##_match_any_##sfx(g, v);                                                                \
    }                                                                                                      \
    __device__ __forceinline__ uint32_t cgc_match_all(const G *g, T v, int *p)                             \
    {                                                                                                      \
        return lib##_match_all_##sfx(g, v, p);                                                             \
    }

#define CGT_CGC_OVERLOADS(sfx, T)                                                                          \
    CGT_GROUP_OVERLOADS_(cg_tile_t, cg_tile, sfx, T)                                                       \
    CGT_GROUP_OVERLOADS_(cg_coalesced_group_t, cg_coalesced, sfx, T)                                       \
    CGT_OVERLOAD_VX(cgc_shfl_xor, cg_tile_t, cg_tile_shfl_xor, sfx, T, uint32_t)

CGT_FOR_EACH_TYPE(CGT_CGC_OVERLOADS)

__device__ __forceinline__ cg_coalesced_group_t cgc_labeled(const cg_tile_t *t, uint32_t l)
{
    return cg_tile_labeled_partition(t, l);
}
__device__ __forceinline__ cg_coalesced_group_t cgc_labeled(const cg_tile_t *t, uint64_t l)
{
    return cg_tile_labeled_partition_u64(t, l);
}
__device__ __forceinline__ cg_coalesced_group_t cgc_labeled(const cg_coalesced_group_t *g, uint32_t l)
{
    return cg_coalesced_labeled_partition(g, l);
}
__device__ __forceinline__ cg_coalesced_group_t cgc_labeled(const cg_coalesced_group_t *g, uint64_t l)
{
    return cg_coalesced_labeled_partition_u64(g, l);
}

/* ---- every operator, both libraries --------------------------------------- */

/* reduce, inclusive_scan, exclusive_scan with one operator: cgc's results to
 * oc[field + OP], C++ CG's to op[field + OP] when do_cpp (see cgt_do_cpp).
 * OP is a template constant, so each cgc call sees a constant operator, as a
 * user's would. */
template <cg_op_t OP, typename T, typename G, typename CG, typename F>
__device__ __forceinline__ void one_op(const G *g, const CG &cg, bool do_cpp, T v, uint64_t *oc, uint64_t *op,
                                       int f_reduce, int f_incl, int f_excl, F fn)
{
    oc[f_reduce + OP] = cgt_to_bits(cgc_reduce(g, v, OP));
    oc[f_incl + OP] = cgt_to_bits(cgc_incl(g, v, OP));
    oc[f_excl + OP] = cgt_to_bits(cgc_excl(g, v, OP));
    if (do_cpp) {
        op[f_reduce + OP] = cgt_to_bits(cpp::reduce(cg, v, fn));
        op[f_incl + OP] = cgt_to_bits(cpp::inclusive_scan(cg, v, fn));
        op[f_excl + OP] = cgt_to_bits(cpp::exclusive_scan(cg, v, fn));
    }
}

/* Every operator the type has (bit operators for integers only, as C++ CG). */
template <typename T, typename G, typename CG>
__device__ __forceinline__ void all_ops(const G *g, const CG &cg, bool do_cpp, T v, uint64_t *oc, uint64_t *op,
                                        int f_reduce, int f_incl, int f_excl)
{
    one_op<CG_OP_PLUS>(g, cg, do_cpp, v, oc, op, f_reduce, f_incl, f_excl, cpp::plus<T>());
    one_op<CG_OP_LESS>(g, cg, do_cpp, v, oc, op, f_reduce, f_incl, f_excl, cpp::less<T>());
    one_op<CG_OP_GREATER>(g, cg, do_cpp, v, oc, op, f_reduce, f_incl, f_excl, cpp::greater<T>());
    if constexpr (std::is_integral<T>::value) {
        one_op<CG_OP_BIT_AND>(g, cg, do_cpp, v, oc, op, f_reduce, f_incl, f_excl, cpp::bit_and<T>());
        one_op<CG_OP_BIT_OR>(g, cg, do_cpp, v, oc, op, f_reduce, f_incl, f_excl, cpp::bit_or<T>());
        one_op<CG_OP_BIT_XOR>(g, cg, do_cpp, v, oc, op, f_reduce, f_incl, f_excl, cpp::bit_xor<T>());
    }
}

/* A coalesced group's size, thread rank, meta group rank and meta group
 * size to o[f] .. o[f + 3], from cgc (then its mask to o[f + 4]) or from
 * C++ CG. */
__device__ __forceinline__ void coalesced_queries(uint64_t *o, int f, const cg_coalesced_group_t *g)
{
    o[f] = cg_coalesced_num_threads(g);
    o[f + 1] = cg_coalesced_thread_rank(g);
    o[f + 2] = cg_coalesced_meta_group_rank(g);
    o[f + 3] = cg_coalesced_meta_group_size(g);
    o[f + 4] = cg_coalesced_mask(g);
}
__device__ __forceinline__ void coalesced_queries(uint64_t *o, int f, const cpp::coalesced_group &c)
{
    o[f] = c.num_threads();
    o[f + 1] = c.thread_rank();
    o[f + 2] = c.meta_group_rank();
    o[f + 3] = c.meta_group_size();
}

/* Whether this thread runs the C++ CG side. C++ CG's tiles name every lane of
 * the tile in their warp-sync masks, lanes past the end of the block
 * included; compute-sanitizer's synccheck may object to such masks, so the
 * host passes cpp_partial = 0 under synccheck and C++ CG is then not run (nor
 * compared) in partial warps. Uniform across each warp. */
__device__ __forceinline__ bool cgt_do_cpp(int cpp_partial)
{
    uint32_t nt = blockDim.x * blockDim.y * blockDim.z;
    uint32_t rank = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    return cpp_partial || nt - (rank & ~31u) >= 32u;
}

#endif /* CGT_ORACLE_CUH */

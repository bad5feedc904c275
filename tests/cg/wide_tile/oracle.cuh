/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/wide_tile/oracle.cuh — the oracle kernel: cgc's wide tile and C++
 * CG's thread_block_tile<N> (N > 32) on the same values in the same kernel.
 * Included by the .cu files that instantiate it for their tile sizes.
 */
#ifndef CGW_ORACLE_CUH
#define CGW_ORACLE_CUH

#include "cg/groups.h"
#include "tests/support/oracle.cuh"
#include "tests/cg/wide_tile/wide_kernels.h"

/* cgc's calls by overload: cgc_reduce, cgc_incl, cgc_excl, cgc_shfl
 * (tests/support/oracle.cuh). */
#define CGW_OVERLOADS(sfx, T) CGT_SCAN_OVERLOADS(cg_wide_tile_t, cg_wide_tile, sfx, T)
CGT_FOR_EACH_TYPE(CGW_OVERLOADS)

/* One operator through cgc (side 0) and C++ CG (side 1). */
template <cg_op_t OP, typename T, typename CT, typename F>
__device__ __forceinline__ void cgw_one_op(const cg_wide_tile_t *t, const CT &ct, T v, uint64_t *oc, uint64_t *op, F fn)
{
    oc[CGW_REDUCE + OP] = cgt_to_bits(cgc_reduce(t, v, OP));
    op[CGW_REDUCE + OP] = cgt_to_bits(cpp::reduce(ct, v, fn));
    oc[CGW_INCL + OP] = cgt_to_bits(cgc_incl(t, v, OP));
    op[CGW_INCL + OP] = cgt_to_bits(cpp::inclusive_scan(ct, v, fn));
    oc[CGW_EXCL + OP] = cgt_to_bits(cgc_excl(t, v, OP));
    op[CGW_EXCL + OP] = cgt_to_bits(cpp::exclusive_scan(ct, v, fn));
}

/* cgc's value to oc[f], C++ CG's to op[f]. */
__device__ __forceinline__ void cgw_both(uint64_t *oc, uint64_t *op, int f, uint64_t mine, uint64_t cpp)
{
    oc[f] = mine;
    op[f] = cpp;
}

template <unsigned N, typename T>
__global__ void __launch_bounds__(1024) cgw_oracle_kernel(const uint64_t *val, const uint32_t *arg, uint64_t *out)
{
    size_t gid = cgt_gid();
    uint64_t *oc = out + gid * 2 * CGW_FIELDS;
    uint64_t *op = oc + CGW_FIELDS;
    T v = cgt_from_bits<T>(val[gid]);
    uint32_t a = arg[gid];
    uint32_t src = a & 0x3ffu;
    int pany = (int)((a >> 16) & 1u), pall = (int)((a >> 17) & 1u);

    cg_thread_block_t b = cg_this_thread_block();
    cg_wide_tile_t t = cg_wide_tiled_partition(&b, N);
    cpp::thread_block cb = cpp::this_thread_block();
    auto ct = cpp::tiled_partition<N>(cb);

    cgw_one_op<CG_OP_PLUS>(&t, ct, v, oc, op, cpp::plus<T>());
    cgw_one_op<CG_OP_LESS>(&t, ct, v, oc, op, cpp::less<T>());
    cgw_one_op<CG_OP_GREATER>(&t, ct, v, oc, op, cpp::greater<T>());
    if constexpr (std::is_integral<T>::value) {
        cgw_one_op<CG_OP_BIT_AND>(&t, ct, v, oc, op, cpp::bit_and<T>());
        cgw_one_op<CG_OP_BIT_OR>(&t, ct, v, oc, op, cpp::bit_or<T>());
        cgw_one_op<CG_OP_BIT_XOR>(&t, ct, v, oc, op, cpp::bit_xor<T>());
    }
    oc[CGW_SHFL] = cgt_to_bits(cgc_shfl(&t, v, src));
    op[CGW_SHFL] = cgt_to_bits(ct.shfl(v, src));
    oc[CGW_ANY] = (uint64_t)(int64_t)cg_wide_tile_any(&t, pany);
    op[CGW_ANY] = (uint64_t)(int64_t)ct.any(pany);
    oc[CGW_ALL] = (uint64_t)(int64_t)cg_wide_tile_all(&t, pall);
    op[CGW_ALL] = (uint64_t)(int64_t)ct.all(pall);
    cgw_both(oc, op, CGW_RANK, cg_wide_tile_thread_rank(&t), ct.thread_rank());
    cgw_both(oc, op, CGW_NTHREADS, cg_wide_tile_num_threads(&t), ct.num_threads());
    cgw_both(oc, op, CGW_META_RANK, cg_wide_tile_meta_group_rank(&t), ct.meta_group_rank());
    cgw_both(oc, op, CGW_META_SIZE, cg_wide_tile_meta_group_size(&t), ct.meta_group_size());
    cgw_both(oc, op, CGW_GEN_RANK, cg_thread_rank(&t), ct.thread_rank());
    cgw_both(oc, op, CGW_GEN_NTHREADS, cg_num_threads(&t), ct.num_threads());
}

/* The oracle kernel for a tile size and a type (cgt_launch_vao's `of`). */
struct cgw_oracle_of {
    template <typename S, typename Tag>
    cgt_vao_kernel_t operator()(S, Tag) const
    {
        return cgw_oracle_kernel<S::value, typename Tag::type>;
    }
};

#endif /* CGW_ORACLE_CUH */

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/generic/port_kernels.cuh — a C++ CG kernel templated over the
 * element type and the tile size, and its cgc port, in one kernel.
 *
 * The port is what issue 24 asked for: the C++ code calls
 * tiled_partition<N>, cg::reduce, cg::inclusive_scan, cg::exclusive_scan,
 * shfl, any, all and the queries for every T and every N from 16 to 512;
 * the cgc code calls CG_TILED_PARTITION, cg_reduce, cg_inclusive_scan,
 * cg_exclusive_scan, cg_shfl, cg_any, cg_all, cg_thread_rank, ... with the
 * same template parameters: no wrapper per type or per size and no branch
 * at 32 (N <= 32 gets a cg_tile_t, N > 32 a cg_wide_tile_t, and the generic
 * calls take both). Layout: port_kernels.h.
 */
#ifndef CGP_PORT_KERNELS_CUH
#define CGP_PORT_KERNELS_CUH

#include "cg/cg.h"
#include "tests/support/oracle.cuh"
#include "tests/cg/generic/port_kernels.h"

template <typename T, unsigned N>
__global__ void __launch_bounds__(512) cgp_port_kernel(const uint64_t *val, const uint32_t *arg, uint64_t *out)
{
    size_t gid = cgt_gid();
    uint64_t *oc = out + gid * 2 * CGP_FIELDS;
    uint64_t *op = oc + CGP_FIELDS;
    const T v = cgt_from_bits<T>(val[gid]);
    const uint32_t a = arg[gid];
    const uint32_t src = a & 0x3ffu;
    const int pany = (int)((a >> 16) & 1u), pall = (int)((a >> 17) & 1u);

    /* ---- the cgc port: one body for every T and N ---- */
    cg_thread_block_t b = cg_this_thread_block();
    CG_TILE_T(N) t = CG_TILED_PARTITION(&b, N);
    oc[CGP_REDUCE + CGP_PLUS] = cgt_to_bits(cg_reduce(&t, v, CG_OP_PLUS));
    oc[CGP_REDUCE + CGP_LESS] = cgt_to_bits(cg_reduce(&t, v, CG_OP_LESS));
    oc[CGP_REDUCE + CGP_GREATER] = cgt_to_bits(cg_reduce(&t, v, CG_OP_GREATER));
    oc[CGP_INCL + CGP_PLUS] = cgt_to_bits(cg_inclusive_scan(&t, v, CG_OP_PLUS));
    oc[CGP_INCL + CGP_LESS] = cgt_to_bits(cg_inclusive_scan(&t, v, CG_OP_LESS));
    oc[CGP_INCL + CGP_GREATER] = cgt_to_bits(cg_inclusive_scan(&t, v, CG_OP_GREATER));
    oc[CGP_EXCL + CGP_PLUS] = cgt_to_bits(cg_exclusive_scan(&t, v, CG_OP_PLUS));
    oc[CGP_EXCL + CGP_LESS] = cgt_to_bits(cg_exclusive_scan(&t, v, CG_OP_LESS));
    oc[CGP_EXCL + CGP_GREATER] = cgt_to_bits(cg_exclusive_scan(&t, v, CG_OP_GREATER));
    if constexpr (std::is_integral<T>::value) {
        oc[CGP_REDUCE + CGP_XOR] = cgt_to_bits(cg_reduce(&t, v, CG_OP_BIT_XOR));
        oc[CGP_INCL + CGP_XOR] = cgt_to_bits(cg_inclusive_scan(&t, v, CG_OP_BIT_XOR));
        oc[CGP_EXCL + CGP_XOR] = cgt_to_bits(cg_exclusive_scan(&t, v, CG_OP_BIT_XOR));
    }
    oc[CGP_SHFL] = cgt_to_bits(cg_shfl(&t, v, src));
    oc[CGP_ANY] = (uint64_t)(cg_any(&t, pany) != 0);
    oc[CGP_ALL] = (uint64_t)(cg_all(&t, pall) != 0);
    cg_sync(&t);
    oc[CGP_RANK] = cg_thread_rank(&t);
    oc[CGP_NTHREADS] = cg_num_threads(&t);
    oc[CGP_META_RANK] = cg_meta_group_rank(&t);
    oc[CGP_META_SIZE] = cg_meta_group_size(&t);

    /* ---- the C++ CG original ---- */
    auto ct = cpp::tiled_partition<N>(cpp::this_thread_block());
    op[CGP_REDUCE + CGP_PLUS] = cgt_to_bits(cpp::reduce(ct, v, cpp::plus<T>()));
    op[CGP_REDUCE + CGP_LESS] = cgt_to_bits(cpp::reduce(ct, v, cpp::less<T>()));
    op[CGP_REDUCE + CGP_GREATER] = cgt_to_bits(cpp::reduce(ct, v, cpp::greater<T>()));
    op[CGP_INCL + CGP_PLUS] = cgt_to_bits(cpp::inclusive_scan(ct, v, cpp::plus<T>()));
    op[CGP_INCL + CGP_LESS] = cgt_to_bits(cpp::inclusive_scan(ct, v, cpp::less<T>()));
    op[CGP_INCL + CGP_GREATER] = cgt_to_bits(cpp::inclusive_scan(ct, v, cpp::greater<T>()));
    op[CGP_EXCL + CGP_PLUS] = cgt_to_bits(cpp::exclusive_scan(ct, v, cpp::plus<T>()));
    op[CGP_EXCL + CGP_LESS] = cgt_to_bits(cpp::exclusive_scan(ct, v, cpp::less<T>()));
    op[CGP_EXCL + CGP_GREATER] = cgt_to_bits(cpp::exclusive_scan(ct, v, cpp::greater<T>()));
    if constexpr (std::is_integral<T>::value) {
        op[CGP_REDUCE + CGP_XOR] = cgt_to_bits(cpp::reduce(ct, v, cpp::bit_xor<T>()));
        op[CGP_INCL + CGP_XOR] = cgt_to_bits(cpp::inclusive_scan(ct, v, cpp::bit_xor<T>()));
        op[CGP_EXCL + CGP_XOR] = cgt_to_bits(cpp::exclusive_scan(ct, v, cpp::bit_xor<T>()));
    }
    op[CGP_SHFL] = cgt_to_bits(ct.shfl(v, src));
    op[CGP_ANY] = (uint64_t)(ct.any(pany) != 0);
    op[CGP_ALL] = (uint64_t)(ct.all(pall) != 0);
    ct.sync();
    op[CGP_RANK] = ct.thread_rank();
    op[CGP_NTHREADS] = ct.num_threads();
    op[CGP_META_RANK] = ct.meta_group_rank();
    op[CGP_META_SIZE] = ct.meta_group_size();
}

/* The ported kernel for a tile size and a type (cgt_launch_vao's `of`). */
struct cgp_port_of {
    template <typename S, typename Tag>
    cgt_vao_kernel_t operator()(S, Tag) const
    {
        return cgp_port_kernel<typename Tag::type, S::value>;
    }
};

#endif /* CGP_PORT_KERNELS_CUH */

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/port34_kernels.cu — issue 34's contracts against C++ CG in the
 * same kernel (the oracle), for tests/cg/port34_test.c:
 *   - labeled_partition(tile, bool): C++ CG makes it binary_partition; cgc's
 *     generic cg_labeled_partition(&t, flag) must give the same group (size,
 *     rank, meta rank, meta size) for every lane;
 *   - a kernel written with const groups (C++ CG's calls are const): sync,
 *     ranks, a tile reduce and the typed map_shared_rank through pointers to
 *     const, against the same C++ CG code.
 * Each thread writes 4 words for C++ CG and 4 for cgc; the host compares them
 * and checks them against its own model.
 */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "cg/cg.h"
#include "tests/cg/port34_kernels.h"

namespace cpp = cooperative_groups;

/* out[8 t + 0..3]: C++ CG's size, thread_rank, meta_group_rank,
 * meta_group_size of labeled_partition(tile32, flag); out[8 t + 4..7]: cgc's. */
__global__ void k_labeled_bool(const int *flags, uint32_t *out, uint32_t n)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return; /* the partial last warp: the lanes past n do not take part */
    const bool flag = flags[i] != 0;
    cpp::coalesced_group cc = cpp::coalesced_threads();
    cpp::coalesced_group cp = cpp::labeled_partition(cc, flag);
    const cg_coalesced_group_t c = cg_coalesced_threads();
    cg_coalesced_group_t g = cg_labeled_partition(&c, flag);
    uint32_t *o = out + 8u * i;
    o[0] = cp.num_threads();
    o[1] = cp.thread_rank();
    o[2] = cp.meta_group_rank();
    o[3] = cp.meta_group_size();
    o[4] = cg_coalesced_num_threads(&g);
    o[5] = cg_coalesced_thread_rank(&g);
    o[6] = cg_coalesced_meta_group_rank(&g);
    o[7] = cg_coalesced_meta_group_size(&g);
}

/* The C++ original: const references to its groups. */
static __device__ int cpp_body(const cpp::thread_block &b, const cpp::thread_block_tile<16> &t, const cpp::cluster_group &cl,
                               int *buf, int v)
{
    buf[b.thread_rank()] = v;
    cl.sync();
    const int *peer = cl.map_shared_rank(buf, cl.block_rank() ^ 1u);
    const int s = cpp::reduce(t, peer[b.thread_rank()], cpp::plus<int>());
    t.sync();
    b.sync();
    return s + (int)t.meta_group_rank();
}

/* The port: pointers to const groups, the typed map, no cast. */
static __device__ int cgc_body(const cg_thread_block_t *b, const cg_tile_t *t, const cg_cluster_t *cl, int *buf, int v)
{
    buf[cg_thread_rank(b)] = v;
    cg_sync(cl);
    const int *peer = CG_CLUSTER_MAP_SHARED_RANK(cl, buf, cg_cluster_block_rank(cl) ^ 1u);
    const int s = cg_reduce(t, peer[cg_thread_rank(b)], CG_OP_PLUS);
    cg_sync(t);
    cg_sync(b);
    return s + (int)cg_meta_group_rank(t);
}

/* Clusters of 2: out[2 i] the C++ result of thread i, out[2 i + 1] cgc's. */
__global__ void __cluster_dims__(2, 1, 1) k_const_port(const int *in, int *out)
{
    __shared__ int buf_cpp[256], buf_cgc[256];
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    const cpp::thread_block cb = cpp::this_thread_block();
    const cpp::thread_block_tile<16> ct = cpp::tiled_partition<16>(cb);
    const cpp::cluster_group ccl = cpp::this_cluster();
    const cg_thread_block_t b = cg_this_thread_block();
    const cg_tile_t t = cg_tiled_partition(&b, 16);
    const cg_cluster_t cl = cg_this_cluster();
    out[2u * i] = cpp_body(cb, ct, ccl, buf_cpp, in[i]);
    out[2u * i + 1u] = cgc_body(&b, &t, &cl, buf_cgc, in[i]);
    cg_cluster_exit_sync(&cl);
}

extern "C" cudaError_t cgt_labeled_bool(const int *flags, uint32_t *out, uint32_t n)
{
    k_labeled_bool<<<(n + 95u) / 96u, 96>>>(flags, out, n);
    return cudaGetLastError();
}

extern "C" cudaError_t cgt_const_port(const int *in, int *out, uint32_t blocks)
{
    k_const_port<<<blocks, 256>>>(in, out);
    return cudaGetLastError();
}

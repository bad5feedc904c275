/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/groupapi/groupapi_kernels.cu — cg_thread_group_t, invoke_one, the
 * staged group copies with wait / wait_prior and the new queries, each beside
 * C++ CG in the same kernel on the same inputs (C++ CG is the oracle; the
 * host test also checks against its own reference). Layouts:
 * groupapi_kernels.h.
 */
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include <type_traits>

#include "cg/groups.h"
#include "tests/cg/groupapi/groupapi_kernels.h"

namespace ccg = cooperative_groups;

static __device__ uint32_t gat_rank(void)
{
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
static __device__ uint32_t gat_nthreads(void) { return blockDim.x * blockDim.y * blockDim.z; }
static __device__ uint32_t gat_block_linear(void)
{
    return (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
}

/* cgc's value to o[f], C++ CG's beside it (o[f + 1]): the (cgc, C++) pairs
 * of every layout in groupapi_kernels.h. */
static __device__ __forceinline__ void gat_pair(uint64_t *o, int f, uint64_t mine, uint64_t cpp)
{
    o[f] = mine;
    o[f + 1] = cpp;
}

/* Calls body<N>(args...) for n in 1..32 (C++ CG's tile size is a template
 * argument; cgc's is a value). */
#define GAT_DISPATCH_(n, call)                                                                     \
    switch (n) {                                                                                   \
    case 1: call(1); break;                                                                        \
    case 2: call(2); break;                                                                        \
    case 4: call(4); break;                                                                        \
    case 8: call(8); break;                                                                        \
    case 16: call(16); break;                                                                      \
    default: call(32); break;                                                                      \
    }

/* ------------------------------------------------------------------------- */
/* thread_group                                                              */
/* ------------------------------------------------------------------------- */

/* One shared buffer for every instantiation of gat_tg_body (a __shared__
 * array in the template would be one per tile size: 6 x 8 KB). */
static __device__ uint32_t *gat_tg_smem(void)
{
    __shared__ uint32_t s[2048];
    return s;
}

template <unsigned N>
static __device__ void gat_tg_body(const uint32_t *in, uint64_t *o)
{
    uint32_t *sm = gat_tg_smem(), *sm2 = sm + 1024;
    const uint32_t rank = gat_rank(), nt = gat_nthreads();
    const uint64_t gid = (uint64_t)gat_block_linear() * nt + rank;
    const uint32_t v = in[gid];

    /* A thread block through thread_group. */
    cg_thread_block_t b = cg_this_thread_block();
    cg_thread_group_t bg = cg_thread_group(&b);
    ccg::thread_block cb = ccg::this_thread_block();
    ccg::thread_group cbg = cb;
    gat_pair(o, TG_BLOCK_RANK, cg_thread_group_thread_rank(&bg), cbg.thread_rank());
    gat_pair(o, TG_BLOCK_SIZE, cg_thread_group_num_threads(&bg), cbg.size());

    /* Its sync orders the block: read the next rank's value. */
    sm[rank] = v;
    cg_thread_group_sync(&bg);
    o[TG_SYNC_BLOCK] = sm[(rank + 1u) % nt];
    cg_thread_group_sync(&bg);

    /* A tile of N through thread_group. */
    cg_tile_t t = cg_tiled_partition(&b, N);
    cg_thread_group_t tg = cg_thread_group(&t);
    ccg::thread_block_tile<N> ct = ccg::tiled_partition<N>(cb);
    ccg::thread_group ctg = ct;
    gat_pair(o, TG_TILE_RANK, cg_thread_group_thread_rank(&tg), ctg.thread_rank());
    gat_pair(o, TG_TILE_SIZE, cg_thread_group_size(&tg), ctg.size());
    gat_pair(o, TG_GENERIC_RANK, cg_thread_rank(&tg), cg_thread_group_thread_rank(&tg));
    o[TG_TYPE] = cg_thread_group_get_type(&tg);

    /* The tile's sync through the generic call: read the next present rank's value. */
    {
        const uint32_t r = cg_tile_thread_rank(&t), present = cg_tile_num_present(&t), base = rank - r;
        sm2[rank] = v ^ 0x5a5a5a5au;
        cg_sync(&tg);
        o[TG_SYNC_TILE] = sm2[base + (r + 1u) % present];
    }

    /* tiled_partition of a thread_group holding the block. */
    cg_thread_group_t part = cg_thread_group_tiled_partition(&bg, N);
    ccg::thread_group cpart = ccg::tiled_partition(cbg, N);
    gat_pair(o, TG_PART_RANK, cg_thread_group_thread_rank(&part), cpart.thread_rank());
    gat_pair(o, TG_PART_SIZE, cg_thread_group_num_threads(&part), cpart.size());
    o[TG_TYPE2] = cg_thread_group_get_type(&part);

    /* tiled_partition of a thread_group holding a tile (N / 2). */
    if (N >= 2) {
        /* N / 2 is 0 where N is 1: this branch is dead there, but a constant
         * bad size is a compile error wherever it is written (issue 34.7), as
         * C++ CG's tiled_partition<0> is; hence the guard on the constant. */
        cg_thread_group_t sub = cg_thread_group_tiled_partition(&tg, N >= 2 ? N / 2u : 1u);
        ccg::thread_group csub = ccg::tiled_partition(ctg, N / 2u);
        gat_pair(o, TG_SUB_RANK, cg_thread_group_thread_rank(&sub), csub.thread_rank());
        gat_pair(o, TG_SUB_SIZE, cg_thread_group_num_threads(&sub), csub.size());
    } else {
        o[TG_SUB_RANK] = o[TG_SUB_RANK + 1] = o[TG_SUB_SIZE] = o[TG_SUB_SIZE + 1] = TG_NOT_IN;
    }

    /* A coalesced group of a data-dependent branch. */
    o[TG_COAL_RANK] = o[TG_COAL_RANK + 1] = o[TG_COAL_SIZE] = o[TG_COAL_SIZE + 1] = TG_NOT_IN;
    if (v % 3u != 0u) {
        ccg::coalesced_group cc = ccg::coalesced_threads();
        cg_coalesced_group_t c = cg_coalesced_threads();
        cg_thread_group_t cgt = cg_thread_group(&c);
        ccg::thread_group ccgt = cc;
        gat_pair(o, TG_COAL_RANK, cg_thread_group_thread_rank(&cgt), ccgt.thread_rank());
        gat_pair(o, TG_COAL_SIZE, cg_num_threads(&cgt), ccgt.size());
    }

    /* The grid (queries only: no cooperative launch here). */
    cg_grid_t g = cg_this_grid();
    cg_thread_group_t gg = cg_thread_group(&g);
    /* The oracle is grid_group's own query, not thread_group's: C++ CG keeps
     * a grid_group's workspace pointer in the bits where thread_group keeps
     * its kind (cooperative_groups.h, gg_data over group_data), so a
     * thread_group made from this_grid() has lost its kind and answers 0 for
     * size() and thread_rank() (measured on an H100, CUDA 13.0). */
    ccg::grid_group cgg = ccg::this_grid();
    gat_pair(o, TG_GRID_RANK, cg_thread_group_thread_rank(&gg), cgg.thread_rank());
    gat_pair(o, TG_GRID_SIZE, cg_thread_group_num_threads(&gg), cgg.size());
}

extern "C" __global__ void gat_tg_kernel(const uint32_t *in, uint64_t *out, uint32_t n)
{
    const uint64_t gid = (uint64_t)gat_block_linear() * gat_nthreads() + gat_rank();
    uint64_t *o = out + gid * NTG_FIELDS;
#define GAT_TG_CALL_(k) gat_tg_body<k>(in, o)
    GAT_DISPATCH_(n, GAT_TG_CALL_)
#undef GAT_TG_CALL_
}

extern "C" int gat_thread_group(const uint32_t *in, uint64_t *out, unsigned blocks, unsigned bx, unsigned by,
                                unsigned bz, uint32_t n)
{
    gat_tg_kernel<<<blocks, dim3(bx, by, bz)>>>(in, out, n);
    return (int)cudaGetLastError();
}

extern "C" __global__ void gat_tg_cluster_kernel(uint64_t *out)
{
    const uint64_t gid = (uint64_t)gat_block_linear() * gat_nthreads() + gat_rank();
    uint64_t *o = out + gid * NTGC_FIELDS;
    cg_cluster_t c = cg_this_cluster();
    cg_thread_group_t tg = cg_thread_group(&c);
    ccg::cluster_group cc = ccg::this_cluster();
    ccg::thread_group ctg = cc;
    o[0] = cg_thread_group_thread_rank(&tg);
    o[1] = ctg.thread_rank();
    o[2] = cg_thread_group_num_threads(&tg);
    o[3] = ctg.size();
    cg_dim3_t ti = cg_cluster_thread_index(&c);
    dim3 cti = cc.thread_index();
    o[4] = ti.x;
    o[5] = cti.x;
    o[6] = ti.y;
    o[7] = cti.y;
    o[8] = ti.z;
    o[9] = cti.z;
    o[10] = cg_cluster_size(&c);
    o[11] = cc.size();
    /* The cluster's sync through thread_group: every block leaves only once
     * all have arrived (a hang here fails the test by its timeout). */
    cg_thread_group_sync(&tg);
}

extern "C" int gat_thread_group_cluster(uint64_t *out, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                        unsigned by, unsigned bz, unsigned cx, unsigned cy, unsigned cz)
{
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = cx;
    attr[0].val.clusterDim.y = cy;
    attr[0].val.clusterDim.z = cz;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(gx, gy, gz);
    cfg.blockDim = dim3(bx, by, bz);
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    void *args[] = {&out};
    return (int)cudaLaunchKernelExC(&cfg, (const void *)gat_tg_cluster_kernel, args);
}

/* ------------------------------------------------------------------------- */
/* thread_group over a wide tile                                             */
/* ------------------------------------------------------------------------- */

/* C++ CG's thread_group cannot hold a tile of more than 32 threads
 * (thread_block_tile<N> for N > 32 does not derive from thread_group), so
 * the oracle is thread_block_tile<N>'s own queries and sync, and
 * tiled_partition<M> of it. */

/* invoke_one's function: counts the runs and records the runner's block rank. */
static __device__ void gat_wide_invoke_fn(void *p)
{
    uint32_t *c = (uint32_t *)p;
    atomicAdd(&c[0], 1u);
    atomicExch(&c[1], gat_rank());
}

/* A delay of a few hundred ns, from the thread's input: without the barrier
 * the neighbour's value would be read before it is written. */
static __device__ void gat_wide_delay(uint32_t v) { __nanosleep((v >> 3) & 1023u); }

/* Shared buffers for every instantiation of gat_tgw_body (a __shared__
 * array in the template would be one per (N, M): 18 copies). */
static __device__ uint32_t *gat_tgw_smem(void)
{
    __shared__ uint32_t s[1024];
    return s;
}
static __device__ uint32_t *gat_tgw_copybuf(void)
{
    __shared__ __align__(16) uint32_t s[512];
    return s;
}
static __device__ uint32_t *gat_tgw_invbuf(void)
{
    __shared__ uint32_t s[8 * 4];
    return s;
}

template <unsigned N, unsigned M>
static __device__ void gat_tgw_body(const uint32_t *in, uint64_t *o)
{
    uint32_t *sm = gat_tgw_smem(), *cp = gat_tgw_copybuf(), *inv = gat_tgw_invbuf();
    const uint32_t rank = gat_rank(), nt = gat_nthreads();
    const uint64_t boff = (uint64_t)gat_block_linear() * nt;
    const uint32_t v = in[boff + rank];

    cg_thread_block_t b = cg_this_thread_block();
    cg_wide_tile_t w = cg_wide_tiled_partition(&b, N);
    cg_thread_group_t tg = cg_thread_group(&w);
    ccg::thread_block cb = ccg::this_thread_block();
    ccg::thread_block_tile<N, ccg::thread_block> ct = ccg::tiled_partition<N>(cb);

    const uint32_t r = (uint32_t)cg_thread_group_thread_rank(&tg);
    const uint32_t base = rank - (rank % N);
    gat_pair(o, TGW_RANK, r, ct.thread_rank());
    gat_pair(o, TGW_SIZE, cg_thread_group_num_threads(&tg), ct.num_threads());
    {
        cg_wide_tile_t *wv = cg_thread_group_as_wide_tile(&tg);
        gat_pair(o, TGW_META, wv ? cg_wide_tile_meta_group_rank(wv) : TG_NOT_IN, ct.meta_group_rank());
        gat_pair(o, TGW_META_SIZE, wv ? cg_wide_tile_meta_group_size(wv) : TG_NOT_IN, ct.meta_group_size());
        o[TGW_VIEWS] = (wv != 0 ? 1u : 0u) | (cg_thread_group_as_tile(&tg) == 0 ? 2u : 0u) |
                       (cg_thread_group_as_thread_block(&tg) == 0 ? 4u : 0u) |
                       (cg_thread_group_as_coalesced(&tg) == 0 ? 8u : 0u) |
                       (cg_thread_group_as_grid(&tg) == 0 ? 16u : 0u);
    }
    o[TGW_TYPE] = cg_thread_group_get_type(&tg);
    o[TGW_GENERIC_RANK] = cg_thread_rank(&tg);
    o[TGW_GENERIC_SIZE] = cg_num_threads(&tg);

    /* The sync through thread_group, then C++ CG's tile sync, each ordering
     * the tile: read the next tile rank's value. */
    gat_wide_delay(v);
    sm[rank] = v;
    cg_thread_group_sync(&tg);
    o[TGW_SYNC] = sm[base + (r + 1u) % N];
    cg_thread_group_sync(&tg);
    gat_wide_delay(v * 7u);
    sm[rank] = v ^ 0x0f0f0f0fu; /* a value the slot did not hold: a stale read shows */
    ct.sync();
    o[TGW_SYNC + 1] = sm[base + (r + 1u) % N] ^ 0x0f0f0f0fu;
    ct.sync();

    /* barrier_arrive / barrier_wait through thread_group (split arrive, with
     * the generic cg_sync closing the phase). */
    gat_wide_delay(v * 13u);
    sm[rank] = v ^ 0x33333333u;
    cg_token_t tok = cg_thread_group_barrier_arrive(&tg);
    cg_thread_group_barrier_wait(&tg, tok);
    o[TGW_ARRIVE] = sm[base + (r + 3u) % N];
    cg_sync(&tg);

    /* tiled_partition(M) of the thread_group against tiled_partition<M>(tile). */
    cg_thread_group_t part = cg_thread_group_tiled_partition(&tg, M);
    ccg::thread_block_tile<M, ccg::thread_block_tile<N, ccg::thread_block>> cpart = ccg::tiled_partition<M>(ct);
    gat_pair(o, TGW_PART_RANK, cg_thread_group_thread_rank(&part), cpart.thread_rank());
    gat_pair(o, TGW_PART_SIZE, cg_thread_group_num_threads(&part), cpart.num_threads());
    {
        cg_coalesced_group_t *pc = cg_thread_group_as_coalesced(&part);
        gat_pair(o, TGW_PART_META, pc ? cg_coalesced_meta_group_rank(pc) : TG_NOT_IN, cpart.meta_group_rank());
        gat_pair(o, TGW_PART_META_SIZE, pc ? cg_coalesced_meta_group_size(pc) : TG_NOT_IN, cpart.meta_group_size());
    }
    o[TGW_TYPE2] = cg_thread_group_get_type(&part);
    {
        const uint32_t pr = (uint32_t)cg_thread_group_thread_rank(&part), pbase = rank - pr;
        gat_wide_delay(v * 5u);
        sm[512 + rank] = v + 1u;
        cg_thread_group_sync(&part);
        o[TGW_PART_SYNC] = sm[512 + pbase + (pr + 1u) % M];
    }
    cg_sync(&tg);

    /* invoke_one: one thread of each tile runs the function (cgc through
     * thread_group; C++ CG on the tile). */
    if (rank < 8u * 4u)
        inv[rank] = 0u;
    __syncthreads();
    const uint32_t mr = rank / N;
    cg_invoke_one(&tg, gat_wide_invoke_fn, &inv[mr * 4u]);
    ccg::invoke_one(ct, gat_wide_invoke_fn, (void *)&inv[mr * 4u + 2u]);
    __syncthreads();
    gat_pair(o, TGW_INV_COUNT, inv[mr * 4u], inv[mr * 4u + 2u]);
    gat_pair(o, TGW_INV_RUNNER, inv[mr * 4u + 1u], inv[mr * 4u + 3u]);
    __syncthreads();

    /* A group copy through thread_group: the tile copies its N inputs into
     * shared memory, cg_wait (wait_group 0, then the tile's sync). */
    cg_memcpy_async(&tg, cp + base, in + boff + base, N * sizeof(uint32_t));
    cg_wait(&tg);
    o[TGW_COPY] = cp[base + (r + 5u) % N];
}

template <unsigned N>
static __device__ void gat_tgw_dispatch(const uint32_t *in, uint64_t *o, uint32_t m)
{
#define GAT_TGW_CALL_(k) gat_tgw_body<N, k>(in, o)
    GAT_DISPATCH_(m, GAT_TGW_CALL_)
#undef GAT_TGW_CALL_
}

extern "C" __global__ void gat_tgw_kernel(const uint32_t *in, uint64_t *out, uint32_t n, uint32_t m)
{
    const uint64_t gid = (uint64_t)gat_block_linear() * gat_nthreads() + gat_rank();
    uint64_t *o = out + gid * NTGW_FIELDS;
    switch (n) {
    case 64: gat_tgw_dispatch<64>(in, o, m); break;
    case 128: gat_tgw_dispatch<128>(in, o, m); break;
    default: gat_tgw_dispatch<256>(in, o, m); break;
    }
}

extern "C" int gat_thread_group_wide(const uint32_t *in, uint64_t *out, unsigned blocks, unsigned bx, unsigned by,
                                     unsigned bz, uint32_t n, uint32_t m)
{
    gat_tgw_kernel<<<blocks, dim3(bx, by, bz)>>>(in, out, n, m);
    return (int)cudaGetLastError();
}

/* ------------------------------------------------------------------------- */
/* invoke_one / invoke_one_broadcast                                         */
/* ------------------------------------------------------------------------- */

typedef struct gat12 {
    uint32_t a, b, c;
} gat12_t;

/* What each thread offers; fn reads the elected thread's. */
typedef struct gat_vals {
    uint32_t u32;
    int32_t i32;
    uint64_t u64;
    int64_t i64;
    float f32;
    double f64;
    gat12_t s;
} gat_vals_t;

/* The same formulas as the host test's gat_vals_of(). */
static __device__ gat_vals_t gat_vals_of(uint32_t v, uint64_t gid)
{
    gat_vals_t x;
    x.u32 = v;
    x.i32 = (int32_t)(v * 3u) - 7;
    x.u64 = (uint64_t)v * 0x100000001ull + gid;
    x.i64 = -(int64_t)v * 1000003ll;
    x.f32 = (float)(v & 0xffffu) * 0.5f;
    x.f64 = (double)v * 0.25;
    x.s.a = v;
    x.s.b = v ^ (uint32_t)gid;
    x.s.c = ~v;
    return x;
}

static __device__ void gat_fn_count(void *p) { atomicAdd((unsigned *)p, 1u); }
static __device__ uint32_t gat_fn_u32(void *p) { return ((const gat_vals_t *)p)->u32; }
static __device__ int32_t gat_fn_i32(void *p) { return ((const gat_vals_t *)p)->i32; }
static __device__ uint64_t gat_fn_u64(void *p) { return ((const gat_vals_t *)p)->u64; }
static __device__ int64_t gat_fn_i64(void *p) { return ((const gat_vals_t *)p)->i64; }
static __device__ float gat_fn_f32(void *p) { return ((const gat_vals_t *)p)->f32; }
static __device__ double gat_fn_f64(void *p) { return ((const gat_vals_t *)p)->f64; }
static __device__ void gat_fn_s(void *p, void *r) { memcpy(r, &((const gat_vals_t *)p)->s, sizeof(gat12_t)); }

static __device__ uint64_t gat_fold12(gat12_t s) { return ((uint64_t)(s.a ^ s.c) << 32) | (uint64_t)(s.b + s.c); }
static __device__ uint64_t gat_fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static __device__ uint64_t gat_dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* cgc's broadcasts through the generic names (typed for the tile, to cover
 * both). */
template <typename G>
static __device__ void gat_cgc_broadcasts(G *g, gat_vals_t *mine, uint64_t *o)
{
    gat12_t s;
    o[0] = cg_invoke_one_broadcast_u32(g, gat_fn_u32, mine);
    o[2] = (uint64_t)(uint32_t)cg_invoke_one_broadcast_i32(g, gat_fn_i32, mine);
    o[4] = cg_invoke_one_broadcast_u64(g, gat_fn_u64, mine);
    o[6] = (uint64_t)cg_invoke_one_broadcast_i64(g, gat_fn_i64, mine);
    o[8] = gat_fbits(cg_invoke_one_broadcast_f32(g, gat_fn_f32, mine));
    o[10] = gat_dbits(cg_invoke_one_broadcast_f64(g, gat_fn_f64, mine));
    cg_invoke_one_broadcast_bytes(g, gat_fn_s, mine, &s, sizeof s);
    o[12] = gat_fold12(s);
}

/* C++ CG's, same values. */
template <typename G>
static __device__ void gat_cpp_broadcasts(const G &g, const gat_vals_t *mine, uint64_t *o)
{
    o[1] = ccg::invoke_one_broadcast(g, [&]() { return mine->u32; });
    o[3] = (uint64_t)(uint32_t)ccg::invoke_one_broadcast(g, [&]() { return mine->i32; });
    o[5] = ccg::invoke_one_broadcast(g, [&]() { return mine->u64; });
    o[7] = (uint64_t)ccg::invoke_one_broadcast(g, [&]() { return mine->i64; });
    o[9] = gat_fbits(ccg::invoke_one_broadcast(g, [&]() { return mine->f32; }));
    o[11] = gat_dbits(ccg::invoke_one_broadcast(g, [&]() { return mine->f64; }));
    o[13] = gat_fold12(ccg::invoke_one_broadcast(g, [&]() { return mine->s; }));
}

static __device__ void gat_not_in(uint64_t *o, int cpp_side)
{
    for (int f = cpp_side; f < 2 * NINV_FORMS; f += 2)
        o[f] = TG_NOT_IN;
}

/* The counter slot of a group: one per (block, warp, the group's lowest
 * lane in the warp), the lowest set bit of its lane mask. */
static __device__ uint64_t gat_inv_slot(uint32_t rank, uint32_t nt, uint32_t mask)
{
    const uint32_t warps = (nt + 31u) / 32u;
    return ((uint64_t)gat_block_linear() * warps + rank / 32u) * 32u + (uint32_t)(__ffs((int)mask) - 1);
}

/* C++ CG's invoke_one on g (counted in *count), then its broadcasts. */
template <typename CG>
static __device__ void gat_cpp_invoke(const CG &g, uint32_t *count, const gat_vals_t *mine, uint64_t *o)
{
    ccg::invoke_one(g, [&]() { atomicAdd(count, 1u); });
    gat_cpp_broadcasts(g, mine, o);
}

template <unsigned N>
static __device__ void gat_invoke_tile(const uint32_t *in, uint64_t *o, uint32_t *counts)
{
    const uint32_t rank = gat_rank(), nt = gat_nthreads();
    const uint64_t gid = (uint64_t)gat_block_linear() * nt + rank;
    gat_vals_t mine = gat_vals_of(in[gid], gid);
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t t = cg_tiled_partition(&b, N);
    const uint64_t slot = gat_inv_slot(rank, nt, cg_tile_mask(&t));
    o[NINV_SLOT] = slot;
    /* A data-dependent delay before the call: threads arrive apart. */
    for (uint32_t i = 0; i < (in[gid] & 7u) * 16u; ++i)
        __nanosleep(1);
    cg_invoke_one(&t, gat_fn_count, &counts[2 * slot]);
    gat_cgc_broadcasts(&t, &mine, o);
    /* The typed tile form too (must equal the generic one). */
    if (cg_tile_invoke_one_broadcast_u32(&t, gat_fn_u32, &mine) != (uint32_t)o[0])
        o[0] = TG_NOT_IN - 1u; /* the host reports this value */
    const int full_warp = (rank & ~31u) + 32u <= nt;
    if (full_warp) {
        ccg::thread_block_tile<N> ct = ccg::tiled_partition<N>(ccg::this_thread_block());
        gat_cpp_invoke(ct, &counts[2 * slot + 1], &mine, o);
    } else {
        gat_not_in(o, 1);
    }
}

/* The coalesced group of the lanes in this branch, by cgc (c) and C++ CG
 * (cc), made by the caller at the same point: cgc's invoke_one and
 * broadcasts on g (c itself, through the typed call; or a cg_thread_group_t
 * of c, through the generic one), then C++ CG's on cc. */
template <typename G>
static __device__ void gat_invoke_coalesced_as(G *g, const cg_coalesced_group_t *c, const ccg::coalesced_group &cc,
                                               gat_vals_t *mine, uint64_t *o, uint32_t *counts)
{
    const uint64_t slot = gat_inv_slot(gat_rank(), gat_nthreads(), cg_coalesced_mask(c));
    o[NINV_SLOT] = slot;
    if constexpr (std::is_same<G, cg_coalesced_group_t>::value)
        cg_coalesced_invoke_one(g, gat_fn_count, &counts[2 * slot]);
    else
        cg_invoke_one(g, gat_fn_count, &counts[2 * slot]);
    gat_cgc_broadcasts(g, mine, o);
    gat_cpp_invoke(cc, &counts[2 * slot + 1], mine, o);
}

static __device__ void gat_invoke_coalesced(const uint32_t *in, uint64_t *o, uint32_t *counts)
{
    const uint64_t gid = (uint64_t)gat_block_linear() * gat_nthreads() + gat_rank();
    gat_vals_t mine = gat_vals_of(in[gid], gid);
    if (in[gid] % 3u != 0u) {
        ccg::coalesced_group cc = ccg::coalesced_threads();
        cg_coalesced_group_t c = cg_coalesced_threads();
        gat_invoke_coalesced_as(&c, &c, cc, &mine, o, counts);
    } else {
        /* The other side of the branch, through a cg_thread_group_t. */
        ccg::coalesced_group cc = ccg::coalesced_threads();
        cg_coalesced_group_t c = cg_coalesced_threads();
        cg_thread_group_t tg = cg_thread_group(&c);
        gat_invoke_coalesced_as(&tg, &c, cc, &mine, o, counts);
    }
}

extern "C" __global__ void gat_invoke_kernel(const uint32_t *in, uint64_t *out, uint32_t *counts, uint32_t n,
                                             int coalesced)
{
    const uint64_t gid = (uint64_t)gat_block_linear() * gat_nthreads() + gat_rank();
    uint64_t *o = out + gid * NINV_FIELDS;
    if (coalesced) {
        gat_invoke_coalesced(in, o, counts);
        return;
    }
#define GAT_INV_CALL_(k) gat_invoke_tile<k>(in, o, counts)
    GAT_DISPATCH_(n, GAT_INV_CALL_)
#undef GAT_INV_CALL_
}

extern "C" int gat_invoke(const uint32_t *in, uint64_t *out, uint32_t *counts, unsigned blocks, unsigned bx,
                          unsigned by, unsigned bz, uint32_t n, int coalesced)
{
    gat_invoke_kernel<<<blocks, dim3(bx, by, bz)>>>(in, out, counts, n, coalesced);
    return (int)cudaGetLastError();
}

/* ------------------------------------------------------------------------- */
/* reduce_store                                                              */
/* ------------------------------------------------------------------------- */

/* Each form stores into its own 64-bit slot, zeroed first by the host, so a
 * 32-bit store leaves the high half 0. */
template <typename G>
static __device__ void gat_rs_cgc(const G *g, const gat_vals_t *m, uint64_t *o);
/* The specialization for group type G, whose typed calls are prefixed P. */
#define GAT_RS_CGC_(G, P)                                                                          \
    template <>                                                                                    \
    __device__ void gat_rs_cgc<G>(const G *g, const gat_vals_t *m, uint64_t *o)                    \
    {                                                                                              \
        P##_reduce_store_u32(g, (uint32_t *)&o[0], m->u32, CG_OP_PLUS);                            \
        P##_reduce_store_i32(g, (int32_t *)&o[2], m->i32, CG_OP_LESS);                             \
        P##_reduce_store_u64(g, &o[4], m->u64, CG_OP_BIT_XOR);                                     \
        P##_reduce_store_i64(g, (int64_t *)&o[6], m->i64, CG_OP_GREATER);                          \
        P##_reduce_store_f32(g, (float *)&o[8], m->f32, CG_OP_PLUS);                               \
        P##_reduce_store_f64(g, (double *)&o[10], m->f64, CG_OP_LESS);                             \
    }
GAT_RS_CGC_(cg_tile_t, cg_tile)
GAT_RS_CGC_(cg_coalesced_group_t, cg_coalesced)
#undef GAT_RS_CGC_
template <typename G>
static __device__ void gat_rs_cpp(const G &g, const gat_vals_t *m, uint64_t *o)
{
    ccg::reduce_store_async(g, (uint32_t *)&o[1], m->u32, ccg::plus<uint32_t>());
    ccg::reduce_store_async(g, (int32_t *)&o[3], m->i32, ccg::less<int32_t>());
    ccg::reduce_store_async(g, (uint64_t *)&o[5], m->u64, ccg::bit_xor<uint64_t>());
    ccg::reduce_store_async(g, (int64_t *)&o[7], m->i64, ccg::greater<int64_t>());
    ccg::reduce_store_async(g, (float *)&o[9], m->f32, ccg::plus<float>());
    ccg::reduce_store_async(g, (double *)&o[11], m->f64, ccg::less<double>());
}

template <unsigned N>
static __device__ void gat_rs_tile(const uint32_t *in, uint64_t *out)
{
    const uint32_t rank = gat_rank(), nt = gat_nthreads();
    const uint64_t gid = (uint64_t)gat_block_linear() * nt + rank;
    gat_vals_t mine = gat_vals_of(in[gid], gid);
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t t = cg_tiled_partition(&b, N);
    const uint64_t slot =
        ((uint64_t)gat_block_linear() * 32u + rank / 32u) * 32u + (uint32_t)(__ffs((int)cg_tile_mask(&t)) - 1);
    uint64_t *o = out + slot * 2u * NRS_FORMS;
    gat_rs_cgc(&t, &mine, o);
    if ((rank & ~31u) + 32u <= nt)
        gat_rs_cpp(ccg::tiled_partition<N>(ccg::this_thread_block()), &mine, o);
}

extern "C" __global__ void gat_rs_kernel(const uint32_t *in, uint64_t *out, uint32_t n, int coalesced)
{
    if (coalesced) {
        const uint32_t rank = gat_rank(), nt = gat_nthreads();
        const uint64_t gid = (uint64_t)gat_block_linear() * nt + rank;
        gat_vals_t mine = gat_vals_of(in[gid], gid);
        if (in[gid] % 3u != 0u) {
            ccg::coalesced_group cc = ccg::coalesced_threads();
            cg_coalesced_group_t c = cg_coalesced_threads();
            const uint64_t slot = ((uint64_t)gat_block_linear() * 32u + rank / 32u) * 32u +
                                  (uint32_t)(__ffs((int)cg_coalesced_mask(&c)) - 1);
            uint64_t *o = out + slot * 2u * NRS_FORMS;
            gat_rs_cgc(&c, &mine, o);
            gat_rs_cpp(cc, &mine, o);
        }
        return;
    }
#define GAT_RS_CALL_(k) gat_rs_tile<k>(in, out)
    GAT_DISPATCH_(n, GAT_RS_CALL_)
#undef GAT_RS_CALL_
}

extern "C" int gat_reduce_store(const uint32_t *in, uint64_t *out, unsigned blocks, unsigned bx, unsigned by,
                                unsigned bz, uint32_t n, int coalesced)
{
    gat_rs_kernel<<<blocks, dim3(bx, by, bz)>>>(in, out, n, coalesced);
    return (int)cudaGetLastError();
}

/* ------------------------------------------------------------------------- */
/* Staged group copies with wait / wait_prior                                */
/* ------------------------------------------------------------------------- */

/* wait_prior with a literal n (the constant path of cg_wait_prior). */
template <typename G>
static __device__ void gat_wait_prior_const(G *g, uint32_t n)
{
    switch (n) {
    case 0: cg_wait_prior(g, 0); break;
    case 1: cg_wait_prior(g, 1); break;
    case 2: cg_wait_prior(g, 2); break;
    default: cg_wait_prior(g, 3); break;
    }
}

/* The group's pipeline over its region: at most `stages` copies in flight;
 * right after the wait that completes chunk k, the group dumps chunk k's
 * whole slot to out (bytes other threads of the group copied). */
template <typename G>
static __device__ void gat_pipeline(G *g, uint32_t grank, uint32_t gcount, const gat_copy_params_t &p,
                                    unsigned char *region, const unsigned char *src, unsigned char *out)
{
    const uint32_t S = p.stages, K = p.nchunks;
    uint32_t consumed = 0;
    for (uint32_t k = 0; k < K; ++k) {
        cg_memcpy_async(g, region + k * GAT_CAP + p.doff, src + (size_t)k * GAT_CAP + p.soff, p.bytes[k]);
        if (k + 1u >= S) {
            /* S copies in flight: all but the newest S - 1 must land. */
            if (p.constant)
                gat_wait_prior_const(g, S - 1u);
            else
                cg_wait_prior(g, S - 1u);
            for (uint32_t j = grank; j < GAT_CAP; j += gcount)
                out[(size_t)consumed * GAT_CAP + j] = region[consumed * GAT_CAP + j];
            ++consumed;
        }
    }
    cg_wait(g);
    for (; consumed < K; ++consumed)
        for (uint32_t j = grank; j < GAT_CAP; j += gcount)
            out[(size_t)consumed * GAT_CAP + j] = region[consumed * GAT_CAP + j];
}

extern "C" __global__ void gat_copy_kernel(const unsigned char *src, unsigned char *out, gat_copy_params_t p)
{
    extern __shared__ __align__(128) unsigned char sm[];
    const uint32_t rank = gat_rank(), nt = gat_nthreads();
    const uint32_t win = p.nregions * p.nchunks * GAT_CAP;
    const size_t bbase = (size_t)gat_block_linear() * win;
    for (uint32_t i = rank; i < win; i += nt)
        sm[i] = 0xA5;
    cg_thread_block_t b = cg_this_thread_block();
    cg_sync(&b);
    if (p.kind == 0) {
        cg_tile_t t = cg_tiled_partition(&b, p.n);
        const uint32_t r = cg_tile_meta_group_rank(&t) * p.nchunks * GAT_CAP;
        gat_pipeline(&t, cg_tile_thread_rank(&t), cg_tile_num_present(&t), p, sm + r, src + bbase + r,
                     out + bbase + r);
    } else if (p.kind == 3) {
        /* Tiles again, through a cg_thread_group_t (its switch picks the tile's share and sync). */
        cg_tile_t t = cg_tiled_partition(&b, p.n);
        cg_thread_group_t tg = cg_thread_group(&t);
        const uint32_t r = cg_tile_meta_group_rank(&t) * p.nchunks * GAT_CAP;
        gat_pipeline(&tg, cg_tile_thread_rank(&t), cg_tile_num_present(&t), p, sm + r, src + bbase + r,
                     out + bbase + r);
    } else if (p.kind == 1) {
        /* The typed block calls once, then the generic pipeline. */
        cg_thread_block_wait(&b);
        cg_thread_block_wait_prior(&b, 0u);
        gat_pipeline(&b, rank, nt, p, sm, src + bbase, out + bbase);
    } else {
        const uint32_t v = (rank * 2654435761u + p.bytes[0] * 40503u) >> 7;
        if (v % 3u != 0u) {
            cg_coalesced_group_t c = cg_coalesced_threads();
            const uint32_t r = (rank / 32u) * p.nchunks * GAT_CAP;
            gat_pipeline(&c, cg_coalesced_thread_rank(&c), cg_coalesced_num_threads(&c), p, sm + r,
                         src + bbase + r, out + bbase + r);
        }
    }
}

extern "C" int gat_copy(const unsigned char *src, unsigned char *out, const gat_copy_params_t *p, unsigned blocks,
                        unsigned bx, unsigned by, unsigned bz)
{
    const uint32_t win = p->nregions * p->nchunks * GAT_CAP;
    cudaError_t err =
        cudaFuncSetAttribute((const void *)gat_copy_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)win);
    if (err != cudaSuccess)
        return (int)err;
    gat_copy_kernel<<<blocks, dim3(bx, by, bz), win>>>(src, out, *p);
    return (int)cudaGetLastError();
}

/* ------------------------------------------------------------------------- */
/* The new queries                                                           */
/* ------------------------------------------------------------------------- */

/* A dim3 from both libraries: x to the pair at f, y at f + 2, z at f + 4. */
static __device__ __forceinline__ void gat_q_dim3(uint64_t *o, int f, cg_dim3_t mine, dim3 cpp)
{
    gat_pair(o, f, mine.x, cpp.x);
    gat_pair(o, f + 2, mine.y, cpp.y);
    gat_pair(o, f + 4, mine.z, cpp.z);
}

/* A tile's four queries from both libraries: thread_rank to the pair at f,
 * num_threads at f + 2, meta_group_rank at f + 4, meta_group_size at f + 6. */
template <typename CT>
static __device__ __forceinline__ void gat_q_tile(uint64_t *o, int f, const cg_tile_t *t, const CT &ct)
{
    gat_pair(o, f, cg_tile_thread_rank(t), ct.thread_rank());
    gat_pair(o, f + 2, cg_tile_num_threads(t), ct.num_threads());
    gat_pair(o, f + 4, cg_tile_meta_group_rank(t), ct.meta_group_rank());
    gat_pair(o, f + 6, cg_tile_meta_group_size(t), ct.meta_group_size());
}

template <unsigned N>
static __device__ void gat_q_body(uint64_t *o)
{
    cg_thread_block_t b = cg_this_thread_block();
    ccg::thread_block cb = ccg::this_thread_block();
    gat_pair(o, Q_BLOCK_SIZE, cg_thread_block_size(&b), cb.size());
    gat_q_dim3(o, Q_BLOCK_GDIM_X, cg_thread_block_group_dim(&b), cb.group_dim());

    cg_tile_t t = cg_tiled_partition(&b, N);
    ccg::thread_block_tile<N> ct = ccg::tiled_partition<N>(cb);
    gat_pair(o, Q_TILE_SIZE, cg_tile_size(&t), ct.size());

    cg_tile_t me = cg_this_thread();
    auto cme = ccg::this_thread();
    gat_q_tile(o, Q_THIS_THREAD_RANK, &me, cme);

    if constexpr (N >= 2) {
        constexpr unsigned H = N / 2;
        cg_tile_t s = cg_tile_tiled_partition(&t, H);
        auto cs = ccg::tiled_partition<H>(ct);
        gat_q_tile(o, Q_SUB_RANK, &s, cs);
    } else {
        for (int f = Q_SUB_RANK; f < Q_SUB_META_SIZE + 2; ++f)
            o[f] = TG_NOT_IN;
    }

    ccg::coalesced_group cc = ccg::coalesced_threads();
    cg_coalesced_group_t c = cg_coalesced_threads();
    gat_pair(o, Q_COAL_SIZE, cg_coalesced_size(&c), cc.size());

    cg_grid_t g = cg_this_grid();
    ccg::grid_group cgr = ccg::this_grid();
    gat_pair(o, Q_GRID_SIZE, cg_grid_size(&g), cgr.size());
    gat_q_dim3(o, Q_GRID_GDIM_X, cg_grid_group_dim(&g), cgr.group_dim());
    gat_q_dim3(o, Q_GRID_TIDX_X, cg_grid_thread_index(&g), cgr.thread_index());
}

extern "C" __global__ void gat_q_kernel(uint64_t *out, uint32_t n)
{
    const uint64_t gid = (uint64_t)gat_block_linear() * gat_nthreads() + gat_rank();
    uint64_t *o = out + gid * NQ_FIELDS;
#define GAT_Q_CALL_(k) gat_q_body<k>(o)
    GAT_DISPATCH_(n, GAT_Q_CALL_)
#undef GAT_Q_CALL_
}

extern "C" int gat_queries(uint64_t *out, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                           unsigned bz, uint32_t n)
{
    gat_q_kernel<<<dim3(gx, gy, gz), dim3(bx, by, bz)>>>(out, n);
    return (int)cudaGetLastError();
}

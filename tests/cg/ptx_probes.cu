/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/ptx_probes.cu — probe kernels whose PTX tests/cg/ptx_test.c reads:
 * what the group calls compile to, and typed == generic. extern "C" keeps the
 * names unmangled. Each typed_X has a generic_X twin with the same body
 * written with the generic macros. */
#include "async/bulk.h"
#include "cg/groups.h"

/* ---- forms ---------------------------------------------------------------- */

extern "C" __global__ void probe_block_sync(void)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_thread_block_sync(&b);
}

extern "C" __global__ void probe_syncthreads(void) { __syncthreads(); }

/* The cluster's split barrier with the given arrive, then its wait. */
#define CLUSTER_ARRIVE_WAIT(name, arrive)                                                          \
    extern "C" __global__ void name(void)                                                          \
    {                                                                                              \
        cg_cluster_t cl = cg_this_cluster();                                                       \
        cg_token_t t = arrive(&cl);                                                                \
        cg_cluster_barrier_wait(&cl, t);                                                           \
    }
CLUSTER_ARRIVE_WAIT(probe_cluster_arrive_wait, cg_cluster_barrier_arrive)
CLUSTER_ARRIVE_WAIT(probe_cluster_relaxed, cg_cluster_barrier_arrive_relaxed)
CLUSTER_ARRIVE_WAIT(probe_cluster_smem, cg_cluster_barrier_arrive_smem)

extern "C" __global__ void probe_cluster_sync_smem(void)
{
    cg_cluster_t cl = cg_this_cluster();
    cg_cluster_sync_smem(&cl);
}

extern "C" __global__ void probe_block_split(int *o)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_token_t t = cg_thread_block_barrier_arrive(&b);
    o[threadIdx.x] = 1;
    cg_thread_block_barrier_wait(&b, t);
}

extern "C" __global__ void probe_grid_sync(void)
{
    cg_grid_t g = cg_this_grid();
    cg_grid_sync(&g);
}

/* ---- typed vs generic ------------------------------------------------------- */

#define TWINS(name, params, typed_body, generic_body)                   \
    extern "C" __global__ void typed_##name params { typed_body }       \
    extern "C" __global__ void generic_##name params { generic_body }

/* The typed calls of group kind `kind` against the generic ones, on the group
 * g that `decl` makes: sync; split barrier (arrive, a store of v, wait);
 * rank and size (one group per pair, as a caller writes them). */
#define SYNC_TWINS(name, decl, kind) TWINS(name, (void), decl kind##_sync(&g);, decl cg_sync(&g);)
#define SPLIT_TWINS(name, decl, kind, v)                                                           \
    TWINS(name, (int *o), decl cg_token_t k = kind##_barrier_arrive(&g); o[threadIdx.x] = v;       \
          kind##_barrier_wait(&g, k);, decl cg_token_t k = cg_barrier_arrive(&g); o[threadIdx.x] = v; \
          cg_barrier_wait(&g, k);)
#define RANK_TWINS(name, decl, kind)                                                               \
    TWINS(name, (unsigned long long *o), decl o[0] = kind##_thread_rank(&g); o[1] = kind##_num_threads(&g);, \
          decl o[0] = cg_thread_rank(&g); o[1] = cg_num_threads(&g);)
#define BLOCK_G cg_thread_block_t g = cg_this_thread_block();
#define CLUSTER_G cg_cluster_t g = cg_this_cluster();
#define GRID_G cg_grid_t g = cg_this_grid();
#define TILE_G(n) cg_thread_block_t b = cg_this_thread_block(); cg_tile_t g = cg_tiled_partition(&b, n);
#define WIDE_G(n) cg_thread_block_t b = cg_this_thread_block(); cg_wide_tile_t g = cg_wide_tiled_partition(&b, n);

SYNC_TWINS(block_sync, BLOCK_G, cg_thread_block)
SPLIT_TWINS(block_split, BLOCK_G, cg_thread_block, 2)
SYNC_TWINS(cluster_sync, CLUSTER_G, cg_cluster)
SPLIT_TWINS(cluster_split, CLUSTER_G, cg_cluster, 3)
SYNC_TWINS(grid_sync, GRID_G, cg_grid)
SPLIT_TWINS(grid_split, GRID_G, cg_grid, 4)
SYNC_TWINS(tile_sync, TILE_G(16), cg_tile)
SYNC_TWINS(wide_tile_sync, WIDE_G(128), cg_wide_tile)
SPLIT_TWINS(wide_tile_split, WIDE_G(256), cg_wide_tile, 5)
RANK_TWINS(ranks_block, BLOCK_G, cg_thread_block)
RANK_TWINS(ranks_cluster, CLUSTER_G, cg_cluster)
RANK_TWINS(ranks_grid, GRID_G, cg_grid)
RANK_TWINS(ranks_tile, TILE_G(8), cg_tile)
RANK_TWINS(ranks_wide_tile, WIDE_G(64), cg_wide_tile)

/* Issue 34.9: a bool label is C++ CG's binary_partition (its labeled_partition
 * dispatches bool there), not a labeled partition by 0/1. */
TWINS(labeled_bool, (const int *in, unsigned *o),
      cg_thread_block_t b = cg_this_thread_block(); cg_tile_t t = cg_tiled_partition(&b, 16);
      cg_coalesced_group_t p = cg_tile_binary_partition(&t, in[threadIdx.x] > 0);
      o[threadIdx.x] = cg_coalesced_thread_rank(&p) + 100u * cg_coalesced_meta_group_rank(&p);,
      cg_thread_block_t b = cg_this_thread_block(); cg_tile_t t = cg_tiled_partition(&b, 16);
      bool label = in[threadIdx.x] > 0; cg_coalesced_group_t p = cg_labeled_partition(&t, label);
      o[threadIdx.x] = cg_coalesced_thread_rank(&p) + 100u * cg_coalesced_meta_group_rank(&p);)

/* Issue 34.8: the typed map_shared_rank is the untyped call and its cast
 * (one shared buffer for both, so its PTX name is the same). */
__shared__ float map_buf[64];
TWINS(cluster_map_typed, (float *o),
      float *buf = map_buf; const cg_cluster_t c = cg_this_cluster(); buf[threadIdx.x] = (float)threadIdx.x;
      cg_cluster_sync(&c); float *peer = (float *)cg_cluster_map_shared_rank(&c, buf, threadIdx.x & 1u);
      const float *cp = (const float *)cg_cluster_map_shared_rank(&c, &buf[1], 0);
      o[threadIdx.x] = peer[threadIdx.x] + cp[0]; cg_cluster_sync(&c);,
      float *buf = map_buf; const cg_cluster_t c = cg_this_cluster(); buf[threadIdx.x] = (float)threadIdx.x;
      cg_cluster_sync(&c); float *peer = CG_CLUSTER_MAP_SHARED_RANK(&c, buf, threadIdx.x & 1u);
      const float *src = &buf[1]; const float *cp = CG_CLUSTER_MAP_SHARED_RANK(&c, src, 0);
      o[threadIdx.x] = peer[threadIdx.x] + cp[0]; cg_cluster_sync(&c);)

/* Issue 34.4: two bulk stores, one commit, one wait, without the raw
 * wrappers: cg_bulk_store_issue twice, then the commit and the wait. */
extern "C" __global__ void probe_bulk_store_two_one_commit(float *a, float *b)
{
    __shared__ __align__(16) float tile[2][64];
    tile[0][threadIdx.x] = (float)threadIdx.x;
    tile[1][threadIdx.x] = 2.0f * (float)threadIdx.x;
    cg_fence_proxy_async_smem();
    __syncthreads();
    if (threadIdx.x == 0) {
        cg_bulk_store_issue(a, tile[0], sizeof tile[0]);
        cg_bulk_store_issue(b, tile[1], sizeof tile[1]);
        cg_bulk_commit_group();
        cg_bulk_wait_group_read(0);
    }
}

/* ---- through a pointer to const (issue 34.1) -------------------------------- */

/* constg_X: typed_X's generic body on a const group (C++ CG's sync() and
 * friends are const): the generic call picks the same typed call for a
 * const and a non-const pointer, so ptx_test.c finds constg_X's PTX equal to
 * typed_X's. Not for the grid and the block's split barrier, whose typed
 * calls change the group (they cache their set-up in it). */
#define CONST_TWIN(name, params, body) extern "C" __global__ void constg_##name params { body }

CONST_TWIN(block_sync, (void), const cg_thread_block_t b = cg_this_thread_block(); cg_sync(&b);)
CONST_TWIN(cluster_sync, (void), const cg_cluster_t c = cg_this_cluster(); cg_sync(&c);)
CONST_TWIN(cluster_split, (int *o),
           const cg_cluster_t c = cg_this_cluster(); cg_token_t t = cg_barrier_arrive(&c);
           o[threadIdx.x] = 3; cg_barrier_wait(&c, t);)
CONST_TWIN(tile_sync, (void),
           const cg_thread_block_t b = cg_this_thread_block(); const cg_tile_t t = cg_tiled_partition(&b, 16);
           cg_sync(&t);)
CONST_TWIN(wide_tile_sync, (void),
           const cg_thread_block_t b = cg_this_thread_block();
           const cg_wide_tile_t t = cg_wide_tiled_partition(&b, 128); cg_sync(&t);)
CONST_TWIN(wide_tile_split, (int *o),
           const cg_thread_block_t b = cg_this_thread_block();
           const cg_wide_tile_t t = cg_wide_tiled_partition(&b, 256);
           cg_token_t k = cg_barrier_arrive(&t); o[threadIdx.x] = 5; cg_barrier_wait(&t, k);)
CONST_TWIN(ranks_block, (unsigned long long *o),
           const cg_thread_block_t b = cg_this_thread_block();
           o[0] = cg_thread_rank(&b); o[1] = cg_num_threads(&b);)
CONST_TWIN(ranks_cluster, (unsigned long long *o),
           const cg_cluster_t c = cg_this_cluster(); o[0] = cg_thread_rank(&c); o[1] = cg_num_threads(&c);)
CONST_TWIN(ranks_grid, (unsigned long long *o),
           const cg_grid_t g = cg_this_grid(); o[0] = cg_thread_rank(&g); o[1] = cg_num_threads(&g);)
CONST_TWIN(ranks_tile, (unsigned long long *o),
           const cg_thread_block_t b = cg_this_thread_block(); const cg_tile_t t = cg_tiled_partition(&b, 8);
           o[0] = cg_thread_rank(&t); o[1] = cg_num_threads(&t);)

/* Every typed call that does not change its group, through a pointer to
 * const: builds (the header's signatures take const), and the PTX test finds
 * the kernel (so a signature that loses its const fails the build here). */
extern "C" __global__ void probe_every_call_on_const(int *o, unsigned long long *q, void *sm)
{
    const cg_thread_block_t b = cg_this_thread_block();
    const cg_tile_t t = cg_tiled_partition(&b, 16);
    const cg_wide_tile_t w = cg_wide_tiled_partition(&b, 64);
    const cg_coalesced_group_t c = cg_coalesced_threads();
    const cg_cluster_t cl = cg_this_cluster();
    const cg_grid_t g = cg_this_grid();
    const cg_thread_block_t *pb = &b;
    const cg_tile_t *pt = &t;
    const cg_wide_tile_t *pw = &w;
    const cg_coalesced_group_t *pc = &c;
    const cg_cluster_t *pcl = &cl;
    const cg_grid_t *pg = &g;
    cg_thread_block_sync(pb);
    cg_tile_sync(pt);
    cg_tile_barrier_wait(pt, cg_tile_barrier_arrive(pt));
    cg_wide_tile_sync(pw);
    cg_wide_tile_barrier_wait(pw, cg_wide_tile_barrier_arrive(pw));
    cg_coalesced_sync(pc);
    cg_coalesced_barrier_wait(pc, cg_coalesced_barrier_arrive(pc));
    cg_cluster_sync(pcl);
    cg_cluster_sync_smem(pcl);
    cg_cluster_barrier_wait(pcl, cg_cluster_barrier_arrive(pcl));
    cg_cluster_barrier_wait(pcl, cg_cluster_barrier_arrive_relaxed(pcl));
    cg_cluster_barrier_wait(pcl, cg_cluster_barrier_arrive_smem(pcl));
    cg_thread_block_wait(pb);
    cg_tile_wait_prior(pt, 1);
    cg_coalesced_wait(pc);
    o[0] = (int)cg_tile_reduce_i32(pt, o[1], CG_OP_PLUS) + cg_wide_tile_reduce_i32(pw, o[2], CG_OP_PLUS) +
           cg_coalesced_reduce_i32(pc, o[3], CG_OP_PLUS) + (int)cg_tile_shfl_xor_u32(pt, 1u, 1u);
    o[1] = cg_reduce(pt, o[4], CG_OP_LESS) + cg_inclusive_scan(pw, o[5], CG_OP_PLUS) +
           cg_exclusive_scan(pc, o[6], CG_OP_PLUS) + cg_shfl(pt, o[7], 0u) + cg_shfl_up(pc, o[8], 1u) +
           cg_shfl_down(pt, o[9], 1u) + cg_shfl_xor(pt, o[10], 1u) + cg_any(pw, 1) + cg_all(pc, 1) +
           (int)cg_ballot(pt, 1) + (int)cg_match_any(pc, o[11]);
    cg_coalesced_group_t lp = cg_labeled_partition(pt, (unsigned)o[12]);
    cg_coalesced_group_t bp = cg_binary_partition(pc, o[13] > 0);
    cg_sync(pb);
    cg_sync(pt);
    cg_sync(pw);
    cg_sync(pc);
    cg_sync(pcl);
    cg_barrier_wait(pt, cg_barrier_arrive(pt));
    cg_barrier_wait(pw, cg_barrier_arrive(pw));
    cg_barrier_wait(pc, cg_barrier_arrive(pc));
    cg_barrier_wait(pcl, cg_barrier_arrive(pcl));
    q[0] = cg_thread_rank(pb) + cg_num_threads(pt) + cg_thread_rank(pw) + cg_num_threads(pc) +
           cg_thread_rank(pcl) + cg_num_threads(pg) + cg_meta_group_rank(pt) + cg_meta_group_size(pw) +
           cg_coalesced_num_threads(&lp) + cg_coalesced_num_threads(&bp) + cg_grid_block_rank(pg) +
           cg_cluster_block_rank(pcl) + cg_cluster_query_shared_rank(pcl, sm);
    const cg_tile_t sub = CG_TILED_PARTITION(pt, 4);
    const cg_wide_tile_t wide = CG_TILED_PARTITION(pb, 128);
    q[1] = cg_thread_rank(&sub) + cg_thread_rank(&wide) + (unsigned long long)cg_cluster_map_shared_rank(pcl, sm, 0);
    cg_cluster_exit_sync(pcl);
}

/* ---- the split block barrier in a loop, shaped like bench/cgc_rows.cu ------- */

/* The benchmark's loop: one value made before the loop, arrive + wait each
 * iteration; `prepare`: cg_thread_block_barrier_prepare first. ptx_test.c
 * checks that the steady state (every iteration after the first) of
 * probe_block_split_loop is the raw sequence of probe_raw_split_loop, and that
 * probe_block_split_prepared's whole loop is that sequence. */
#define SPLIT_LOOP_PROBE(name, prepare)                                \
    extern "C" __global__ void name(long long iters, unsigned *o)      \
    {                                                                  \
        cg_thread_block_t b = cg_this_thread_block();                  \
        if (prepare)                                                   \
            cg_thread_block_barrier_prepare(&b);                       \
        unsigned acc = threadIdx.x;                                    \
        for (long long i = 0; i < iters; ++i) {                        \
            acc += (unsigned)i;                                        \
            cg_token_t t = cg_thread_block_barrier_arrive(&b);         \
            cg_thread_block_barrier_wait(&b, t);                       \
        }                                                              \
        o[threadIdx.x] = acc;                                          \
    }
SPLIT_LOOP_PROBE(probe_block_split_loop, 0)
SPLIT_LOOP_PROBE(probe_block_split_prepared, 1)

/* The floor: a bare mbarrier initialized before the loop. */
extern "C" __global__ void probe_raw_split_loop(long long iters, unsigned *o)
{
    __shared__ cg_mbarrier_t bar;
    if (threadIdx.x == 0)
        cg_mbarrier_init(&bar, blockDim.x);
    __syncthreads();
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < iters; ++i) {
        acc += (unsigned)i;
        cg_token_t t = cg_mbarrier_arrive(&bar);
        cg_mbarrier_wait(&bar, t);
    }
    o[threadIdx.x] = acc;
}

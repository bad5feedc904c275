/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/ptx_probes.cu — probe kernels whose PTX tests/cg/ptx_test.c reads:
 * what the group calls compile to, and typed == generic. extern "C" keeps the
 * names unmangled. Each typed_X has a generic_X twin with the same body
 * written with the generic macros. */
#include "cg/groups.h"

/* ---- forms ---------------------------------------------------------------- */

extern "C" __global__ void probe_block_sync(void)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_thread_block_sync(&b);
}

extern "C" __global__ void probe_syncthreads(void) { __syncthreads(); }

extern "C" __global__ void probe_cluster_arrive_wait(void)
{
    cg_cluster_t cl = cg_this_cluster();
    cg_token_t t = cg_cluster_barrier_arrive(&cl);
    cg_cluster_barrier_wait(&cl, t);
}

extern "C" __global__ void probe_cluster_relaxed(void)
{
    cg_cluster_t cl = cg_this_cluster();
    cg_token_t t = cg_cluster_barrier_arrive_relaxed(&cl);
    cg_cluster_barrier_wait(&cl, t);
}

extern "C" __global__ void probe_cluster_smem(void)
{
    cg_cluster_t cl = cg_this_cluster();
    cg_token_t t = cg_cluster_barrier_arrive_smem(&cl);
    cg_cluster_barrier_wait(&cl, t);
}

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

TWINS(block_sync, (void),
      cg_thread_block_t b = cg_this_thread_block(); cg_thread_block_sync(&b);,
      cg_thread_block_t b = cg_this_thread_block(); cg_sync(&b);)

TWINS(block_split, (int *o),
      cg_thread_block_t b = cg_this_thread_block(); cg_token_t t = cg_thread_block_barrier_arrive(&b);
      o[threadIdx.x] = 2; cg_thread_block_barrier_wait(&b, t);,
      cg_thread_block_t b = cg_this_thread_block(); cg_token_t t = cg_barrier_arrive(&b);
      o[threadIdx.x] = 2; cg_barrier_wait(&b, t);)

TWINS(cluster_sync, (void),
      cg_cluster_t c = cg_this_cluster(); cg_cluster_sync(&c);,
      cg_cluster_t c = cg_this_cluster(); cg_sync(&c);)

TWINS(cluster_split, (int *o),
      cg_cluster_t c = cg_this_cluster(); cg_token_t t = cg_cluster_barrier_arrive(&c);
      o[threadIdx.x] = 3; cg_cluster_barrier_wait(&c, t);,
      cg_cluster_t c = cg_this_cluster(); cg_token_t t = cg_barrier_arrive(&c);
      o[threadIdx.x] = 3; cg_barrier_wait(&c, t);)

TWINS(grid_sync, (void),
      cg_grid_t g = cg_this_grid(); cg_grid_sync(&g);,
      cg_grid_t g = cg_this_grid(); cg_sync(&g);)

TWINS(grid_split, (int *o),
      cg_grid_t g = cg_this_grid(); cg_token_t t = cg_grid_barrier_arrive(&g);
      o[threadIdx.x] = 4; cg_grid_barrier_wait(&g, t);,
      cg_grid_t g = cg_this_grid(); cg_token_t t = cg_barrier_arrive(&g);
      o[threadIdx.x] = 4; cg_barrier_wait(&g, t);)

TWINS(tile_sync, (void),
      cg_thread_block_t b = cg_this_thread_block(); cg_tile_t t = cg_tiled_partition(&b, 16); cg_tile_sync(&t);,
      cg_thread_block_t b = cg_this_thread_block(); cg_tile_t t = cg_tiled_partition(&b, 16); cg_sync(&t);)

TWINS(wide_tile_sync, (void),
      cg_thread_block_t b = cg_this_thread_block(); cg_wide_tile_t t = cg_wide_tiled_partition(&b, 128);
      cg_wide_tile_sync(&t);,
      cg_thread_block_t b = cg_this_thread_block(); cg_wide_tile_t t = cg_wide_tiled_partition(&b, 128);
      cg_sync(&t);)

TWINS(wide_tile_split, (int *o),
      cg_thread_block_t b = cg_this_thread_block(); cg_wide_tile_t t = cg_wide_tiled_partition(&b, 256);
      cg_token_t k = cg_wide_tile_barrier_arrive(&t); o[threadIdx.x] = 5; cg_wide_tile_barrier_wait(&t, k);,
      cg_thread_block_t b = cg_this_thread_block(); cg_wide_tile_t t = cg_wide_tiled_partition(&b, 256);
      cg_token_t k = cg_barrier_arrive(&t); o[threadIdx.x] = 5; cg_barrier_wait(&t, k);)

/* Ranks and sizes, one group per pair (as a caller writes them). */
TWINS(ranks_block, (unsigned long long *o),
      cg_thread_block_t b = cg_this_thread_block();
      o[0] = cg_thread_block_thread_rank(&b); o[1] = cg_thread_block_num_threads(&b);,
      cg_thread_block_t b = cg_this_thread_block();
      o[0] = cg_thread_rank(&b); o[1] = cg_num_threads(&b);)

TWINS(ranks_cluster, (unsigned long long *o),
      cg_cluster_t c = cg_this_cluster();
      o[0] = cg_cluster_thread_rank(&c); o[1] = cg_cluster_num_threads(&c);,
      cg_cluster_t c = cg_this_cluster();
      o[0] = cg_thread_rank(&c); o[1] = cg_num_threads(&c);)

TWINS(ranks_grid, (unsigned long long *o),
      cg_grid_t g = cg_this_grid();
      o[0] = cg_grid_thread_rank(&g); o[1] = cg_grid_num_threads(&g);,
      cg_grid_t g = cg_this_grid();
      o[0] = cg_thread_rank(&g); o[1] = cg_num_threads(&g);)

TWINS(ranks_tile, (unsigned long long *o),
      cg_thread_block_t b = cg_this_thread_block(); cg_tile_t t = cg_tiled_partition(&b, 8);
      o[0] = cg_tile_thread_rank(&t); o[1] = cg_tile_num_threads(&t);,
      cg_thread_block_t b = cg_this_thread_block(); cg_tile_t t = cg_tiled_partition(&b, 8);
      o[0] = cg_thread_rank(&t); o[1] = cg_num_threads(&t);)

TWINS(ranks_wide_tile, (unsigned long long *o),
      cg_thread_block_t b = cg_this_thread_block(); cg_wide_tile_t t = cg_wide_tiled_partition(&b, 64);
      o[0] = cg_wide_tile_thread_rank(&t); o[1] = cg_wide_tile_num_threads(&t);,
      cg_thread_block_t b = cg_this_thread_block(); cg_wide_tile_t t = cg_wide_tiled_partition(&b, 64);
      o[0] = cg_thread_rank(&t); o[1] = cg_num_threads(&t);)

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

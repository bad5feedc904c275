/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/groups_kernels.h — launchers of groups_kernels.cu (C linkage). */
#ifndef CGT_GROUPS_KERNELS_H
#define CGT_GROUPS_KERNELS_H

#include "base/dim3.h"
#include "base/status.h"

/* What a query kernel found: the number of mismatches and the first one. */
typedef struct cgt_query_result {
    uint32_t errors;
    uint32_t first_what; /* a cgt_query_t */
    uint64_t first_got, first_want;
    uint32_t first_block, first_thread;
} cgt_query_result_t;

typedef enum cgt_query {
    CGT_Q_BLOCK_THREAD_RANK = 1,
    CGT_Q_BLOCK_NUM_THREADS,
    CGT_Q_BLOCK_GROUP_INDEX,
    CGT_Q_BLOCK_THREAD_INDEX,
    CGT_Q_BLOCK_DIM_THREADS,
    CGT_Q_CLUSTER_BLOCK_RANK,
    CGT_Q_CLUSTER_NUM_BLOCKS,
    CGT_Q_CLUSTER_THREAD_RANK,
    CGT_Q_CLUSTER_NUM_THREADS,
    CGT_Q_CLUSTER_DIM_BLOCKS,
    CGT_Q_CLUSTER_BLOCK_INDEX,
    CGT_Q_CLUSTER_DIM_THREADS,
    CGT_Q_GENERIC,
    CGT_Q_MAP_SHARED_RANK,
    CGT_Q_QUERY_SHARED_RANK,
    CGT_Q_GRID_VALID,
    CGT_Q_GRID_THREAD_RANK,
    CGT_Q_GRID_NUM_THREADS,
    CGT_Q_GRID_BLOCK_RANK,
    CGT_Q_GRID_NUM_BLOCKS,
    CGT_Q_GRID_DIM_BLOCKS,
    CGT_Q_GRID_BLOCK_INDEX,
    CGT_Q_GRID_DIM_THREADS,
    CGT_Q_GRID_CLUSTERS
} cgt_query_t;

/* Fields per thread written by the tile kernel. */
#define CGT_TILE_FIELDS 24

CG_EXTERN_C_BEGIN
/* ranks: 2 per block (cluster block rank, cluster size). */
cg_status_t cgt_launch_block_cluster_queries(cg_dim3_t grid, cg_dim3_t block, cg_dim3_t cluster,
                                             cgt_query_result_t *r, uint32_t *ranks);
cg_status_t cgt_launch_dsmem_map(uint32_t blocks, uint32_t threads, uint32_t cluster, cgt_query_result_t *r,
                                 uint32_t salt);
cg_status_t cgt_launch_grid_queries(cg_dim3_t grid, cg_dim3_t block, cgt_query_result_t *r);
/* The grid's cluster queries against C++ CG, a cluster launch of `cluster`. */
cg_status_t cgt_launch_grid_cluster_queries(cg_dim3_t grid, cg_dim3_t block, cg_dim3_t cluster,
                                            cgt_query_result_t *r);
cg_status_t cgt_launch_tiles(uint32_t blocks, uint32_t threads, uint32_t n, const int *in_i, const float *in_f,
                             uint32_t *out);
CG_EXTERN_C_END

#endif /* CGT_GROUPS_KERNELS_H */

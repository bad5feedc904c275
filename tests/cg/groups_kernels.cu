/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/groups_kernels.cu — every group query against CUDA's built-ins and
 * C++ cooperative groups, for the launchers of groups_test.c. */
#include <cooperative_groups.h>

#include "cg/groups.h"
#include "cg/launch.h"
#include "tests/cg/groups_kernels.h"

namespace cpp_cg = cooperative_groups;

/* A mismatch: count it and keep the first one's description. */
__device__ static void report(cgt_query_result_t *r, uint32_t what, uint64_t got, uint64_t want)
{
    if (atomicAdd(&r->errors, 1u) == 0) {
        r->first_what = what;
        r->first_got = got;
        r->first_want = want;
        r->first_block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
        r->first_thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    }
}

#define CHECK(r, what, got, want)                                       \
    do {                                                                \
        uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want);           \
        if (g_ != w_)                                                   \
            report((r), (what), g_, w_);                                \
    } while (0)

/* CHECK on each of x, y and z. */
__device__ static void check_dim3(cgt_query_result_t *r, uint32_t what, cg_dim3_t got, dim3 want)
{
    CHECK(r, what, got.x, want.x);
    CHECK(r, what, got.y, want.y);
    CHECK(r, what, got.z, want.z);
}

/* The rank, count and shape queries a cluster and a grid both have: cgc's
 * (calls prefixed P, on g) against C++ CG's (on c), into the CGT_Q fields
 * prefixed Q. */
#define CHECK_BLOCKS_OF(r, P, g, c, Q)                                                  \
    do {                                                                                \
        CHECK(r, Q##_BLOCK_RANK, P##_block_rank(g), (c).block_rank());                  \
        CHECK(r, Q##_NUM_BLOCKS, P##_num_blocks(g), (c).num_blocks());                  \
        CHECK(r, Q##_THREAD_RANK, P##_thread_rank(g), (c).thread_rank());               \
        CHECK(r, Q##_NUM_THREADS, P##_num_threads(g), (c).num_threads());               \
        check_dim3(r, Q##_DIM_BLOCKS, P##_dim_blocks(g), (c).dim_blocks());             \
        check_dim3(r, Q##_BLOCK_INDEX, P##_block_index(g), (c).block_index());          \
        check_dim3(r, Q##_DIM_THREADS, P##_dim_threads(g), (c).dim_threads());          \
    } while (0)

/* ---- block and cluster queries ------------------------------------------ */

__global__ void k_block_cluster_queries(cgt_query_result_t *r, uint32_t *ranks)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_cluster_t cl = cg_this_cluster();
    cpp_cg::thread_block cb = cpp_cg::this_thread_block();
    cpp_cg::cluster_group cc = cpp_cg::this_cluster();

    CHECK(r, CGT_Q_BLOCK_THREAD_RANK, cg_thread_block_thread_rank(&b), cb.thread_rank());
    CHECK(r, CGT_Q_BLOCK_NUM_THREADS, cg_thread_block_num_threads(&b), cb.num_threads());
    CHECK(r, CGT_Q_BLOCK_THREAD_RANK, cg_thread_block_thread_rank(&b),
          (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x);
    cg_dim3_t gi = cg_thread_block_group_index(&b), ti = cg_thread_block_thread_index(&b),
              dt = cg_thread_block_dim_threads(&b);
    check_dim3(r, CGT_Q_BLOCK_GROUP_INDEX, gi, blockIdx);
    check_dim3(r, CGT_Q_BLOCK_THREAD_INDEX, ti, threadIdx);
    check_dim3(r, CGT_Q_BLOCK_DIM_THREADS, dt, blockDim);

    CHECK_BLOCKS_OF(r, cg_cluster, &cl, cc, CGT_Q_CLUSTER);

    /* Generic calls agree with the typed ones. */
    CHECK(r, CGT_Q_GENERIC, cg_thread_rank(&b), cg_thread_block_thread_rank(&b));
    CHECK(r, CGT_Q_GENERIC, cg_num_threads(&b), cg_thread_block_num_threads(&b));
    CHECK(r, CGT_Q_GENERIC, cg_thread_rank(&cl), cg_cluster_thread_rank(&cl));
    CHECK(r, CGT_Q_GENERIC, cg_num_threads(&cl), cg_cluster_num_threads(&cl));

    /* The host checks the cluster ranks against its own reference. */
    if (cg_thread_block_thread_rank(&b) == 0) {
        uint32_t blk = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
        ranks[2 * blk] = cg_cluster_block_rank(&cl);
        ranks[2 * blk + 1] = cg_cluster_num_blocks(&cl);
    }
    cg_cluster_exit_sync(&cl);
}

extern "C" cg_status_t cgt_launch_block_cluster_queries(cg_dim3_t grid, cg_dim3_t block, cg_dim3_t cluster,
                                                        cgt_query_result_t *r, uint32_t *ranks)
{
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    void *args[] = {&r, &ranks};
    cfg.grid = grid;
    cfg.block = block;
    cfg.cluster = cluster;
    return cg_launch(&cfg, (const void *)k_block_cluster_queries, args);
}

/* ---- DSMEM mapping -------------------------------------------------------- */

#define CGT_DSMEM_INTS 256

/* Each block fills its shared array with (rank, i) codes; after a cluster
 * barrier every thread reads every other block's array through
 * cg_cluster_map_shared_rank and checks cg_cluster_query_shared_rank. */
__global__ void k_dsmem_map(cgt_query_result_t *r, uint32_t salt)
{
    __shared__ uint32_t data[CGT_DSMEM_INTS];
    cg_cluster_t cl = cg_this_cluster();
    uint32_t me = cg_cluster_block_rank(&cl), n = cg_cluster_num_blocks(&cl);
    uint32_t cluster_id = cg_hw_clusterid_x() + 1000u * (cg_hw_clusterid_y() + 1000u * cg_hw_clusterid_z());
    for (uint32_t i = threadIdx.x; i < CGT_DSMEM_INTS; i += blockDim.x)
        data[i] = salt ^ (cluster_id * 4099u + me * 257u + i);
    cg_cluster_sync(&cl);
    for (uint32_t peer = 0; peer < n; peer++) {
        const uint32_t *remote = (const uint32_t *)cg_cluster_map_shared_rank(&cl, data, peer);
        CHECK(r, CGT_Q_QUERY_SHARED_RANK, cg_cluster_query_shared_rank(&cl, remote), peer);
        for (uint32_t i = threadIdx.x; i < CGT_DSMEM_INTS; i += blockDim.x)
            CHECK(r, CGT_Q_MAP_SHARED_RANK, remote[i], salt ^ (cluster_id * 4099u + peer * 257u + i));
    }
    CHECK(r, CGT_Q_QUERY_SHARED_RANK, cg_cluster_query_shared_rank(&cl, data), me);
    cg_cluster_exit_sync(&cl);
}

extern "C" cg_status_t cgt_launch_dsmem_map(uint32_t blocks, uint32_t threads, uint32_t cluster,
                                            cgt_query_result_t *r, uint32_t salt)
{
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    void *args[] = {&r, &salt};
    cfg.grid.x = blocks;
    cfg.block.x = threads;
    cfg.cluster.x = cluster;
    return cg_launch(&cfg, (const void *)k_dsmem_map, args);
}

/* ---- grid queries --------------------------------------------------------- */

__global__ void k_grid_queries(cgt_query_result_t *r)
{
    cg_grid_t g = cg_this_grid();
    cpp_cg::grid_group cgg = cpp_cg::this_grid();
    CHECK(r, CGT_Q_GRID_VALID, cg_grid_is_valid(&g) != 0, cgg.is_valid());
    CHECK_BLOCKS_OF(r, cg_grid, &g, cgg, CGT_Q_GRID);
    CHECK(r, CGT_Q_GENERIC, cg_thread_rank(&g), cg_grid_thread_rank(&g));
    CHECK(r, CGT_Q_GENERIC, cg_num_threads(&g), cg_grid_num_threads(&g));
    cg_grid_sync(&g);
}

extern "C" cg_status_t cgt_launch_grid_queries(cg_dim3_t grid, cg_dim3_t block, cgt_query_result_t *r)
{
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    void *args[] = {&r};
    cfg.grid = grid;
    cfg.block = block;
    cfg.cooperative = 1;
    return cg_launch(&cfg, (const void *)k_grid_queries, args);
}

/* The grid's cluster queries (sm_90) against C++ CG's, in a cluster launch. */
__global__ void k_grid_cluster_queries(cgt_query_result_t *r)
{
    cg_grid_t g = cg_this_grid();
    cpp_cg::grid_group cgg = cpp_cg::this_grid();
    CHECK(r, CGT_Q_GRID_CLUSTERS, cg_grid_num_clusters(&g), cgg.num_clusters());
    CHECK(r, CGT_Q_GRID_CLUSTERS, cg_grid_cluster_rank(&g), cgg.cluster_rank());
    cg_dim3_t dc = cg_grid_dim_clusters(&g), ci = cg_grid_cluster_index(&g);
    dim3 cdc = cgg.dim_clusters(), cci = cgg.cluster_index();
    check_dim3(r, CGT_Q_GRID_CLUSTERS, dc, cdc);
    check_dim3(r, CGT_Q_GRID_CLUSTERS, ci, cci);
    /* The host's arithmetic: the block index over the cluster shape. */
    CHECK(r, CGT_Q_GRID_CLUSTERS, ci.x, blockIdx.x / cg_hw_cluster_nctaid_x());
    CHECK(r, CGT_Q_GRID_CLUSTERS, ci.z, blockIdx.z / cg_hw_cluster_nctaid_z());
    CHECK(r, CGT_Q_GRID_CLUSTERS, dc.y, gridDim.y / cg_hw_cluster_nctaid_y());
}

extern "C" cg_status_t cgt_launch_grid_cluster_queries(cg_dim3_t grid, cg_dim3_t block, cg_dim3_t cluster,
                                                       cgt_query_result_t *r)
{
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    void *args[] = {&r};
    cfg.grid = grid;
    cfg.block = block;
    cfg.cluster = cluster;
    return cg_launch(&cfg, (const void *)k_grid_cluster_queries, args);
}

/* ---- warp tiles ----------------------------------------------------------- */

/* Per thread, for tile size n: out[t * CGT_TILE_FIELDS + f]. The host
 * recomputes every field from the inputs. */
/* The deprecated _int/_uint/_float tile names (cg/tile.h) still work: this
 * kernel checks them beside the new ones; their deprecation warning (#1444,
 * which names the call to use instead) is expected here. */
#pragma nv_diagnostic push
#pragma nv_diag_suppress 1444
__global__ void k_tiles(uint32_t n, const int *in_i, const float *in_f, uint32_t *out)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t t = cg_tiled_partition(&b, n);
    uint32_t tid = cg_thread_block_thread_rank(&b);
    uint32_t gid = blockIdx.x * blockDim.x + tid;
    int vi = in_i[gid];
    float vf = in_f[gid];
    uint32_t *o = out + (size_t)gid * CGT_TILE_FIELDS;
    uint32_t r = cg_tile_thread_rank(&t);
    o[0] = r;
    o[1] = cg_tile_num_threads(&t);
    o[2] = cg_tile_meta_group_rank(&t);
    o[3] = cg_tile_meta_group_size(&t);
    o[4] = (uint32_t)cg_tile_shfl_int(&t, vi, (r * 3u + 1u) % n);
    o[5] = cg_tile_shfl_uint(&t, (unsigned)vi, 0u);
    o[6] = __float_as_uint(cg_tile_shfl_float(&t, vf, n - 1u));
    o[7] = (uint32_t)cg_tile_shfl_down_int(&t, vi, 1u);
    o[8] = cg_tile_shfl_up_uint(&t, (unsigned)vi, 1u);
    o[9] = __float_as_uint(cg_tile_shfl_xor_float(&t, vf, n > 1 ? n / 2u : 0u));
    o[10] = cg_tile_ballot(&t, vi & 1);
    o[11] = (uint32_t)(cg_tile_any(&t, vi % 7 == 0) != 0);
    o[12] = (uint32_t)(cg_tile_all(&t, vi % 5 != 0) != 0);
    o[13] = (uint32_t)cg_tile_reduce_sum_int(&t, vi);
    o[14] = (uint32_t)cg_tile_reduce_min_int(&t, vi);
    o[15] = (uint32_t)cg_tile_reduce_max_int(&t, vi);
    o[16] = __float_as_uint(cg_tile_reduce_sum_float(&t, vf));
    o[17] = __float_as_uint(cg_tile_reduce_min_float(&t, vf));
    o[18] = __float_as_uint(cg_tile_reduce_max_float(&t, vf));
    o[19] = (uint32_t)cg_thread_rank(&t);
    o[20] = (uint32_t)cg_num_threads(&t);
    o[21] = __float_as_uint(cg_tile_shfl_down_float(&t, vf, 2u));
    o[22] = (uint32_t)cg_tile_shfl_up_int(&t, vi, 2u);
    o[23] = cg_tile_shfl_xor_uint(&t, (unsigned)vi, 1u % n);
    cg_sync(&t);
    cg_tile_sync(&t);
}
#pragma nv_diagnostic pop

extern "C" cg_status_t cgt_launch_tiles(uint32_t blocks, uint32_t threads, uint32_t n, const int *in_i,
                                        const float *in_f, uint32_t *out)
{
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    void *args[] = {&n, &in_i, &in_f, &out};
    cfg.grid.x = blocks;
    cfg.block.x = threads;
    return cg_launch(&cfg, (const void *)k_tiles, args);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/cluster_neighbor.cu — the C port of the CUDA guide's cluster
 * barrier_arrive / barrier_wait example (seeds/002): every block of a cluster
 * initializes its shared memory, arrives on the cluster barrier, does local
 * work while the others catch up, maps its neighbour's shared memory, waits,
 * then consumes the neighbour's data through DSMEM, and synchronizes the
 * cluster once more so no block exits while a neighbour still reads it.
 *
 *   C++ CG                                   cgc
 *   auto cluster = this_cluster();           cg_cluster_t cl = cg_this_cluster();
 *   auto token = cluster.barrier_arrive();   cg_token_t t = cg_cluster_barrier_arrive(&cl);
 *   cluster.map_shared_rank(p, r)            cg_cluster_map_shared_rank(&cl, p, r)
 *   cluster.barrier_wait(std::move(token));  cg_cluster_barrier_wait(&cl, t);
 *   cluster.sync();                          cg_cluster_exit_sync(&cl);
 *
 * Contract (docs/ARCHITECTURE.md): cgx_cluster_neighbor() returns 0 when every
 * output element matched the host reference, 1 on a wrong result, 2 when it
 * could not run; `detail` gets a one-line summary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cgc/cg/cg.h>

#include "example_util.h"

#define CLUSTER_SIZE 4u
#define CLUSTERS 32u
#define THREADS 256u
#define INTS_PER_BLOCK 2048u /* 8 KB of dynamic shared memory per block */

/* Load this block's slice of the input into shared memory. */
__device__ static void init_shared_data(cg_thread_block_t *block, int *data, const int *in)
{
    const int *src = in + (size_t)blockIdx.x * INTS_PER_BLOCK;
    for (uint32_t i = cg_thread_block_thread_rank(block); i < INTS_PER_BLOCK; i += cg_thread_block_num_threads(block))
        data[i] = src[i];
}

/* Work that needs only this block's data: its sum (hides the barrier's latency). */
__device__ static void local_processing(cg_thread_block_t *block, const int *data, unsigned *sum)
{
    unsigned s = 0;
    for (uint32_t i = cg_thread_block_thread_rank(block); i < INTS_PER_BLOCK; i += cg_thread_block_num_threads(block))
        s += (unsigned)data[i];
    atomicAdd(sum, s);
}

/* Read the neighbour's data through DSMEM. */
__device__ static void process_shared_data(cg_thread_block_t *block, const int *dsmem, unsigned local_sum, int *out)
{
    int *dst = out + (size_t)blockIdx.x * INTS_PER_BLOCK;
    for (uint32_t i = cg_thread_block_thread_rank(block); i < INTS_PER_BLOCK; i += cg_thread_block_num_threads(block))
        dst[i] = (int)((unsigned)dsmem[i] * 3u + local_sum);
}

__global__ void cluster_neighbor_kernel(const int *in, int *out)
{
    extern __shared__ int array[];
    __shared__ unsigned local_sum;
    cg_cluster_t cluster = cg_this_cluster();
    cg_thread_block_t block = cg_this_thread_block();

    if (cg_thread_block_thread_rank(&block) == 0)
        local_sum = 0;
    init_shared_data(&block, &array[0], in);

    /* Let the other blocks know this block runs and its data is written. */
    cg_token_t token = cg_cluster_barrier_arrive(&cluster);

    /* Local work while the barrier completes. The block's own __syncthreads
     * orders local_sum's reset before the atomics. */
    cg_thread_block_sync(&block);
    local_processing(&block, &array[0], &local_sum);

    /* The next block's copy of `array`. */
    uint32_t next = (cg_cluster_block_rank(&cluster) + 1u) % cg_cluster_num_blocks(&cluster);
    const int *dsmem = (const int *)cg_cluster_map_shared_rank(&cluster, &array[0], next);

    /* Every block of the cluster has initialized its data past this point. */
    cg_cluster_barrier_wait(&cluster, token);
    cg_thread_block_sync(&block); /* local_sum complete */

    process_shared_data(&block, dsmem, local_sum, out);

    /* The neighbour may still be reading `array`: do not exit before it is done. */
    cg_cluster_exit_sync(&cluster);
}

/* xorshift64* for the input. */
static uint64_t next_random(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

extern "C" int cgx_cluster_neighbor(char *detail, size_t detail_len)
{
    const size_t n = (size_t)CLUSTER_SIZE * CLUSTERS * INTS_PER_BLOCK;
    const uint32_t blocks = CLUSTER_SIZE * CLUSTERS;
    int *h_in = (int *)malloc(n * sizeof(int)), *h_out = (int *)malloc(n * sizeof(int));
    int *d_in = NULL, *d_out = NULL;
    int rc = 2;
    size_t wrong = 0, first_wrong = 0;
    uint64_t seed = (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull ^ (uint64_t)clock() ^ 0xC0FFEEull;
    cudaError_t e;
    cg_status_t st;
    if (!h_in || !h_out) {
        snprintf(detail, detail_len, "cluster_neighbor: host allocation failed");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        h_in[i] = (int)(uint32_t)next_random(&seed);
    if ((e = cudaMalloc((void **)&d_in, n * sizeof(int))) != cudaSuccess ||
        (e = cudaMalloc((void **)&d_out, n * sizeof(int))) != cudaSuccess ||
        (e = cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice)) != cudaSuccess ||
        (e = cudaMemset(d_out, 0xA5, n * sizeof(int))) != cudaSuccess) {
        snprintf(detail, detail_len, "cluster_neighbor: CUDA setup failed: %s", cudaGetErrorString(e));
        goto done;
    }
    {
        cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
        void *args[] = {&d_in, &d_out};
        cfg.grid.x = blocks;
        cfg.block.x = THREADS;
        cfg.cluster.x = CLUSTER_SIZE;
        cfg.dynamic_smem = INTS_PER_BLOCK * sizeof(int);
        st = cg_launch(&cfg, (const void *)cluster_neighbor_kernel, args);
        if (st == CG_SUCCESS)
            st = cg_stream_synchronize(0);
        if (st != CG_SUCCESS) {
            snprintf(detail, detail_len, "cluster_neighbor: %s: %s", cg_status_name(st), cg_last_error_detail());
            goto done;
        }
    }
    if ((e = cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost)) != cudaSuccess) {
        snprintf(detail, detail_len, "cluster_neighbor: copy back failed: %s", cudaGetErrorString(e));
        goto done;
    }
    /* Host reference: block b reads block (b's cluster base + (rank + 1) % size). */
    for (uint32_t b = 0; b < blocks; b++) {
        uint32_t rank = b % CLUSTER_SIZE, neighbour = b - rank + (rank + 1u) % CLUSTER_SIZE;
        unsigned sum = 0;
        for (uint32_t i = 0; i < INTS_PER_BLOCK; i++)
            sum += (unsigned)h_in[(size_t)b * INTS_PER_BLOCK + i];
        for (uint32_t i = 0; i < INTS_PER_BLOCK; i++) {
            size_t at = (size_t)b * INTS_PER_BLOCK + i;
            int want = (int)((unsigned)h_in[(size_t)neighbour * INTS_PER_BLOCK + i] * 3u + sum);
            if (h_out[at] != want && wrong++ == 0)
                first_wrong = at;
        }
    }
    if (wrong) {
        snprintf(detail, detail_len, "cluster_neighbor: %zu of %zu elements wrong (first at %zu)", wrong, n,
                 first_wrong);
        rc = 1;
    } else {
        snprintf(detail, detail_len,
                 "cluster_neighbor: %u clusters of %u blocks, %zu elements read from the neighbour's shared "
                 "memory, all correct",
                 CLUSTERS, CLUSTER_SIZE, n);
        rc = 0;
    }
done:
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    return rc;
}

CGX_MAIN(cgx_cluster_neighbor)

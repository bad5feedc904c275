/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/examples.h — the runnable examples of cgc, one function each.
 *
 * Every example allocates its own data, fills it with fresh random values,
 * launches its kernel(s), checks every output element against a host
 * reference, frees everything, and writes a one-line summary into `detail`.
 * Returns 0 when the result was verified, 1 when it was wrong, 2 when it could
 * not run (no sm_90 device, or a CUDA error; `detail` says which).
 */
#ifndef CGX_EXAMPLES_H
#define CGX_EXAMPLES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* seed 000: psum with a barrier completion function */
int cgx_psum_completion(char *detail, size_t detail_len);
/* seed 004: split arrive/wait with independent work between */
int cgx_split_arrive_wait(char *detail, size_t detail_len);
/* seed 002: cluster arrive, local work, map the neighbour's smem, wait, consume */
int cgx_cluster_neighbor(char *detail, size_t detail_len);
/* seed 001 (first example): two TMA loads, arrive_tx with a token */
int cgx_tma_two_buffers(char *detail, size_t detail_len);
/* seed 001 (second example): leader-only arrive_tx, everyone waits on parity */
int cgx_tma_parity(char *detail, size_t detail_len);
/* seed 003: batches copied with cg_memcpy_async completing on a barrier */
int cgx_memcpy_async_batches(char *detail, size_t detail_len);
/* workload: a histogram distributed over a cluster's shared memory (DSMEM) */
int cgx_dsmem_histogram(char *detail, size_t detail_len);
/* workload: a 2-D transpose, tiles loaded and stored with tensor TMA */
int cgx_tensor_transpose(char *detail, size_t detail_len);
/* port of CUDA sample warpAggregatedAtomicsCG: coalesced-group aggregated atomics, filter and buckets */
int cgx_warp_aggregated_atomics(char *detail, size_t detail_len);
/* port of CUDA sample binaryPartitionCG: odd/even binary partition of warp tiles, group sums */
int cgx_binary_partition_odd_even(char *detail, size_t detail_len);
/* port of the coalesced-group partition step of CUDA sample cdpAdvancedQuicksort: a host-driven quicksort */
int cgx_quicksort_partition(char *detail, size_t detail_len);
/* port of CUDA sample conjugateGradientMultiBlockCG: a CG solve in one cooperative kernel, grid syncs */
int cgx_conjugate_gradient(char *detail, size_t detail_len);
/* workload: a 1 GiB streaming reduction through a warp-specialized cg_pipeline_t */
int cgx_pipeline_stream(char *detail, size_t detail_len);
/* workload: tiles multicast to a cluster through the pipeline's cluster form, vs each CTA loading them */
int cgx_pipeline_multicast(char *detail, size_t detail_len);
/* workload: a bf16 GEMM (wgmma) fed by tensor TMA multicast in 2x2 and 1x2 clusters, vs each CTA loading its tiles */
int cgx_gemm_multicast(char *detail, size_t detail_len);
/* workload: a persistent 2-D Jacobi in shared memory, DSMEM halos in clusters, split grid barrier between */
int cgx_jacobi_cluster(char *detail, size_t detail_len);

typedef int (*cgx_example_fn)(char *detail, size_t detail_len);

typedef struct cgx_example {
    const char *name;
    const char *origin; /* what the example shows, as the C++ program it ports does */
    cgx_example_fn run;
} cgx_example_t;

/* The examples in tour order; a null run marks the end. */
#define CGX_EXAMPLE_TABLE(X)                                                                  \
    X(psum_completion, "cuda::barrier with a completion function: a prefix sum")                 \
    X(split_arrive_wait, "split arrive/wait with independent work between")                 \
    X(cluster_neighbor, "cluster barrier_arrive/barrier_wait, reading the neighbour by DSMEM")          \
    X(tma_two_buffers, "1-D TMA load of two buffers, waited on by token")            \
    X(tma_parity, "1-D TMA load of two buffers, waited on by phase parity")             \
    X(memcpy_async_batches, "memcpy_async of a block's batch, completing on a barrier")                         \
    X(dsmem_histogram, "a histogram spread over a cluster's DSMEM")                           \
    X(tensor_transpose, "a 2-D transpose: tensor TMA tile loads (swizzled) and bulk tensor stores") \
    X(warp_aggregated_atomics, "warpAggregatedAtomicsCG: coalesced-group aggregated atomics")  \
    X(binary_partition_odd_even, "binaryPartitionCG: odd/even partitions of warp tiles")         \
    X(quicksort_partition, "cdpAdvancedQuicksort: coalesced-group quicksort partition")         \
    X(conjugate_gradient, "conjugateGradientMultiBlockCG: CG solve with grid sync") \
    X(pipeline_stream, "a 1 GiB reduction streamed through a 4-stage TMA pipeline")                   \
    X(pipeline_multicast, "tiles multicast once to a cluster, each CTA computing its own result") \
    X(gemm_multicast, "a bf16 GEMM main loop: wgmma fed by tensor TMA multicast along cluster rows and columns") \
    X(jacobi_cluster, "a persistent Jacobi solver: bands in shared memory, DSMEM halos, split grid barrier")

/* The examples that need a Hopper (sm_90) feature, with what they use. A
 * build for an older target (bazel --define=cuda_arch=compute_80; CGX_ARCH_MAJOR
 * is then 8) leaves them out (examples/BUILD.bazel's HOPPER_EXAMPLES), and the
 * tour skips them by name. */
#define CGX_HOPPER_EXAMPLES(X)                                                                     \
    X(cluster_neighbor, "a cluster barrier and DSMEM")                                           \
    X(tma_two_buffers, "bulk (TMA) copies and tx-count barriers")                                \
    X(tma_parity, "bulk (TMA) copies, elect.sync and tx-count barriers")                         \
    X(dsmem_histogram, "clusters and DSMEM")                                                     \
    X(tensor_transpose, "tensor (TMA) copies and tx-count barriers")                             \
    X(pipeline_stream, "bulk (TMA) copies and tx-count barriers")                                \
    X(pipeline_multicast, "clusters, multicast bulk copies and remote arrives")                  \
    X(gemm_multicast, "wgmma, clusters and tensor TMA multicast")                                \
    X(jacobi_cluster, "clusters, DSMEM loads and a cooperative grid barrier")

/* The oldest compute capability (major) this build's device code targets:
 * 9 (sm_90a) unless the build says otherwise (as in example_util.h). */
#if !defined(CGX_ARCH_MAJOR)
#define CGX_ARCH_MAJOR 9
#endif

#ifdef __cplusplus
}
#endif

#endif /* CGX_EXAMPLES_H */

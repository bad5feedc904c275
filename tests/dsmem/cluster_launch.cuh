/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/dsmem/cluster_launch.cuh — launch a kernel in clusters for the DSMEM
 * and async-copy tests (nvcc only). Returns a cudaError_t as int; returns
 * CGT_CLUSTER_DOES_NOT_FIT when the device cannot hold one cluster of that
 * shape, so a test can log and skip that size instead of failing.
 */
#ifndef CGT_CLUSTER_LAUNCH_CUH
#define CGT_CLUSTER_LAUNCH_CUH

#include <cuda_runtime.h>

#define CGT_CLUSTER_DOES_NOT_FIT (-1)

/* Prepares a launch of fn: nblocks blocks of `threads` threads in clusters
 * of csize (x only), with `smem` bytes of dynamic shared memory, on the
 * default stream. Sizes above 8 get the non-portable opt-in (the hardware
 * allows 16 on sm_90), more than 48 KiB of dynamic shared memory its opt-in.
 * Fills *cfg and attr[0] (cfg points to attr: keep both alive until the
 * launch) and *fits, the clusters of this shape the device holds at once
 * (0: not even one). */
static inline cudaError_t cgt_cluster_config(const void *fn, unsigned nblocks, unsigned csize, unsigned threads,
                                             size_t smem, cudaLaunchConfig_t *cfg, cudaLaunchAttribute *attr,
                                             int *fits)
{
    cudaError_t err;
    *fits = 0;
    if (csize > 8) {
        err = cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
        if (err != cudaSuccess)
            return err;
    }
    if (smem > 48 * 1024) {
        err = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
        if (err != cudaSuccess)
            return err;
    }
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = csize;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    *cfg = cudaLaunchConfig_t{};
    cfg->gridDim = dim3(nblocks, 1, 1);
    cfg->blockDim = dim3(threads, 1, 1);
    cfg->dynamicSmemBytes = smem;
    cfg->stream = 0;
    cfg->attrs = attr;
    cfg->numAttrs = 1;
    return cudaOccupancyMaxActiveClusters(fits, fn, cfg);
}

/* Launches fn as cgt_cluster_config describes, with its arguments `args`. */
static inline int cgt_launch_cluster(const void *fn, unsigned nblocks, unsigned csize, unsigned threads, size_t smem,
                                     void **args)
{
    cudaLaunchAttribute attr[1];
    cudaLaunchConfig_t cfg;
    int fits = 0;
    const cudaError_t err = cgt_cluster_config(fn, nblocks, csize, threads, smem, &cfg, attr, &fits);
    if (err != cudaSuccess)
        return (int)err;
    if (fits == 0)
        return CGT_CLUSTER_DOES_NOT_FIT;
    return (int)cudaLaunchKernelExC(&cfg, fn, args);
}

/* Spin bound for the tests' bounded waits, in clock64() cycles (~1-2 s):
 * a wait that never completes reports an error instead of hanging. */
#define CGT_SPIN_CYCLES 2000000000ll

#endif /* CGT_CLUSTER_LAUNCH_CUH */

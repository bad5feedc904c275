/* SPDX-License-Identifier: BSD-3-Clause */
/* cg/launch.c — host launch helpers: validate a launch, do the opt-ins it
 * needs, launch it with cudaLaunchKernelExC. Plain C11, linked with cudart. */
#include "launch.h"

#include <string.h> /* memset */


/* --- hardware limits the device-free checks rely on ---------------------- */

/* Every CUDA device: at most 1024 threads per block, 1024 x 1024 x 64 per
 * dimension, grids of (2^31-1) x 65535 x 65535 blocks. */
#define CG_MAX_BLOCK_THREADS_ 1024u
#define CG_MAX_BLOCK_X_ 1024u
#define CG_MAX_BLOCK_Y_ 1024u
#define CG_MAX_BLOCK_Z_ 64u
#define CG_MAX_GRID_X_ 2147483647u
#define CG_MAX_GRID_YZ_ 65535u
/* sm_90: 8 blocks per cluster portably, 16 with the non-portable opt-in. */
#define CG_CLUSTER_PORTABLE_MAX_ 8u
#define CG_CLUSTER_MAX_ 16u
/* Dynamic shared memory above this needs cudaFuncAttributeMaxDynamicSharedMemorySize. */
#define CG_SMEM_DEFAULT_LIMIT_ (48u * 1024u)

/* --- the configuration, normalized ---------------------------------------- */

typedef struct cg_launch_ {
    cg_dim3_t grid, block, cluster;
    uint64_t blocks; /* grid.x * y * z */
    uint32_t threads; /* per block */
    uint32_t cluster_blocks; /* 0: no cluster shape */
    int device;
    struct cudaDeviceProp prop;
    struct cudaFuncAttributes fa;
} cg_launch_t_;

static uint32_t cg_or1_(uint32_t v) { return v ? v : 1u; }
/* A shape whose x is set (checked nonzero), y and z 0 read as 1. */
static cg_dim3_t cg_shape_yz_or1_(cg_dim3_t d)
{
    d.y = cg_or1_(d.y);
    d.z = cg_or1_(d.z);
    return d;
}

/* The checks that need no device. */
static cg_status_t cg_check_shape_(const cg_launch_config_t *cfg, const void *kernel, cg_launch_t_ *l)
{
    if (!cfg)
        return cg_status_fail_(CG_ERROR_INVALID_ARGUMENT, "the launch configuration pointer is NULL");
    if (!kernel)
        return cg_status_fail_(CG_ERROR_KERNEL_NULL, "the kernel pointer is NULL");

    if (cfg->block.x == 0)
        return cg_status_fail_(CG_ERROR_BLOCK_SIZE, "block.x is 0: a block needs at least one thread");
    l->block = cg_shape_yz_or1_(cfg->block);
    if (l->block.x > CG_MAX_BLOCK_X_ || l->block.y > CG_MAX_BLOCK_Y_ || l->block.z > CG_MAX_BLOCK_Z_)
        return cg_status_fail_(CG_ERROR_BLOCK_SIZE, "block %ux%ux%u exceeds the per-dimension limit %ux%ux%u",
                        l->block.x, l->block.y, l->block.z, CG_MAX_BLOCK_X_, CG_MAX_BLOCK_Y_, CG_MAX_BLOCK_Z_);
    {
        uint64_t t = (uint64_t)l->block.x * l->block.y * l->block.z;
        if (t > CG_MAX_BLOCK_THREADS_)
            return cg_status_fail_(CG_ERROR_BLOCK_SIZE, "block %ux%ux%u has %llu threads; the limit is %u", l->block.x,
                            l->block.y, l->block.z, (unsigned long long)t, CG_MAX_BLOCK_THREADS_);
        l->threads = (uint32_t)t;
    }

    if (cfg->grid.x == 0)
        return cg_status_fail_(CG_ERROR_GRID_SIZE, "grid.x is 0: a grid needs at least one block");
    l->grid = cg_shape_yz_or1_(cfg->grid);
    if (l->grid.x > CG_MAX_GRID_X_ || l->grid.y > CG_MAX_GRID_YZ_ || l->grid.z > CG_MAX_GRID_YZ_)
        return cg_status_fail_(CG_ERROR_GRID_SIZE, "grid %ux%ux%u exceeds the limit %ux%ux%u", l->grid.x, l->grid.y,
                        l->grid.z, CG_MAX_GRID_X_, CG_MAX_GRID_YZ_, CG_MAX_GRID_YZ_);
    l->blocks = (uint64_t)l->grid.x * l->grid.y * l->grid.z;

    l->cluster_blocks = 0;
    l->cluster.x = l->cluster.y = l->cluster.z = 0;
    if (cfg->cluster.x | cfg->cluster.y | cfg->cluster.z) {
        uint64_t n;
        l->cluster.x = cg_or1_(cfg->cluster.x);
        l->cluster.y = cg_or1_(cfg->cluster.y);
        l->cluster.z = cg_or1_(cfg->cluster.z);
        /* Each side first: the product of three large sides overflows. */
        if (l->cluster.x > CG_CLUSTER_MAX_ || l->cluster.y > CG_CLUSTER_MAX_ || l->cluster.z > CG_CLUSTER_MAX_)
            return cg_status_fail_(CG_ERROR_CLUSTER_TOO_LARGE, "cluster %ux%ux%u has a side above %u; sm_90 allows at most %u "
                            "blocks per cluster", l->cluster.x, l->cluster.y, l->cluster.z, CG_CLUSTER_MAX_,
                            CG_CLUSTER_MAX_);
        n = (uint64_t)l->cluster.x * l->cluster.y * l->cluster.z;
        if (n > CG_CLUSTER_MAX_)
            return cg_status_fail_(CG_ERROR_CLUSTER_TOO_LARGE, "cluster %ux%ux%u has %llu blocks; sm_90 allows at most %u",
                            l->cluster.x, l->cluster.y, l->cluster.z, (unsigned long long)n, CG_CLUSTER_MAX_);
        l->cluster_blocks = (uint32_t)n;
        if (l->grid.x % l->cluster.x || l->grid.y % l->cluster.y || l->grid.z % l->cluster.z) {
            const char *dim = l->grid.x % l->cluster.x ? "x" : (l->grid.y % l->cluster.y ? "y" : "z");
            return cg_status_fail_(CG_ERROR_CLUSTER_SHAPE, "cluster %ux%ux%u does not divide grid %ux%ux%u in %s",
                            l->cluster.x, l->cluster.y, l->cluster.z, l->grid.x, l->grid.y, l->grid.z, dim);
        }
    }
    return CG_SUCCESS;
}

/* The current device and the kernel's attributes on it. */
static cg_status_t cg_check_device_(const void *kernel, cg_launch_t_ *l)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        (void)cudaGetLastError(); /* do not leave the error for the caller's next check */
        return cg_status_fail_(CG_ERROR_NO_DEVICE, "no CUDA device: %s",
                        e != cudaSuccess ? cudaGetErrorString(e) : "the device count is 0");
    }
    if ((e = cudaGetDevice(&l->device)) != cudaSuccess ||
        (e = cudaGetDeviceProperties(&l->prop, l->device)) != cudaSuccess)
        return cg_status_fail_(CG_ERROR_CUDA, "querying the current device failed: %s", cudaGetErrorString(e));
    if (l->prop.major < 8)
        return cg_status_fail_(CG_ERROR_DEVICE_TOO_OLD, "device %d (%s) is sm_%d%d; cgc needs sm_80 or newer", l->device,
                        l->prop.name, l->prop.major, l->prop.minor);
    if (l->prop.major < 9 && l->cluster_blocks)
        return cg_status_fail_(CG_ERROR_DEVICE_TOO_OLD, "device %d (%s) is sm_%d%d; a cluster launch needs sm_90 or newer",
                        l->device, l->prop.name, l->prop.major, l->prop.minor);
    if ((e = cudaFuncGetAttributes(&l->fa, kernel)) != cudaSuccess) {
        (void)cudaGetLastError();
        return cg_status_fail_(CG_ERROR_KERNEL_IMAGE, "cudaFuncGetAttributes on the kernel failed: %s (device %d is sm_%d%d)",
                        cudaGetErrorString(e), l->device, l->prop.major, l->prop.minor);
    }
    return CG_SUCCESS;
}

/* Limits that depend on the kernel and the device; the opt-ins. */
static cg_status_t cg_check_resources_(const cg_launch_config_t *cfg, const void *kernel, cg_launch_t_ *l)
{
    cudaError_t e;
    size_t smem_total = l->fa.sharedSizeBytes + cfg->dynamic_smem;

    if ((int)l->threads > l->fa.maxThreadsPerBlock)
        return cg_status_fail_(CG_ERROR_BLOCK_SIZE,
                        "block of %u threads exceeds this kernel's limit of %d (its registers: %d per thread)",
                        l->threads, l->fa.maxThreadsPerBlock, l->fa.numRegs);
    if (l->grid.x > (uint32_t)l->prop.maxGridSize[0] || l->grid.y > (uint32_t)l->prop.maxGridSize[1] ||
        l->grid.z > (uint32_t)l->prop.maxGridSize[2])
        return cg_status_fail_(CG_ERROR_GRID_SIZE, "grid %ux%ux%u exceeds the device's %dx%dx%d", l->grid.x, l->grid.y,
                        l->grid.z, l->prop.maxGridSize[0], l->prop.maxGridSize[1], l->prop.maxGridSize[2]);

    if (smem_total > l->prop.sharedMemPerBlockOptin)
        return cg_status_fail_(CG_ERROR_SHARED_MEMORY,
                        "%zu bytes of dynamic + %zu static shared memory exceed the device's %zu per block",
                        cfg->dynamic_smem, (size_t)l->fa.sharedSizeBytes, (size_t)l->prop.sharedMemPerBlockOptin);
    if (cfg->dynamic_smem > CG_SMEM_DEFAULT_LIMIT_ || cfg->dynamic_smem > (size_t)l->fa.maxDynamicSharedSizeBytes) {
        e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)cfg->dynamic_smem);
        if (e != cudaSuccess) {
            (void)cudaGetLastError();
            return cg_status_fail_(CG_ERROR_SHARED_MEMORY, "allowing %zu bytes of dynamic shared memory failed: %s",
                            cfg->dynamic_smem, cudaGetErrorString(e));
        }
    }

    if (l->cluster_blocks > CG_CLUSTER_PORTABLE_MAX_) {
        e = cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
        if (e != cudaSuccess) {
            (void)cudaGetLastError();
            return cg_status_fail_(CG_ERROR_CLUSTER_NONPORTABLE_DENIED,
                            "cluster of %u blocks needs the non-portable opt-in, which failed: %s", l->cluster_blocks,
                            cudaGetErrorString(e));
        }
    }
    return CG_SUCCESS;
}

/* The cudaLaunchConfig_t of `l` (attrs must hold 2). */
static void cg_to_cuda_(const cg_launch_config_t *cfg, const cg_launch_t_ *l, cudaLaunchConfig_t *lc,
                        cudaLaunchAttribute *attrs, int with_cooperative)
{
    unsigned n = 0;
    lc->gridDim.x = l->grid.x;
    lc->gridDim.y = l->grid.y;
    lc->gridDim.z = l->grid.z;
    lc->blockDim.x = l->block.x;
    lc->blockDim.y = l->block.y;
    lc->blockDim.z = l->block.z;
    lc->dynamicSmemBytes = cfg->dynamic_smem;
    lc->stream = cfg->stream;
    if (l->cluster_blocks) {
        attrs[n].id = cudaLaunchAttributeClusterDimension;
        attrs[n].val.clusterDim.x = l->cluster.x;
        attrs[n].val.clusterDim.y = l->cluster.y;
        attrs[n].val.clusterDim.z = l->cluster.z;
        n++;
    }
    if (with_cooperative && cfg->cooperative) {
        attrs[n].id = cudaLaunchAttributeCooperative;
        attrs[n].val.cooperative = 1;
        n++;
    }
    lc->attrs = n ? attrs : NULL;
    lc->numAttrs = n;
}

/* Clusters must fit on a GPC; a cooperative grid must be co-resident. */
static cg_status_t cg_check_residency_(const cg_launch_config_t *cfg, const void *kernel, cg_launch_t_ *l)
{
    cudaError_t e;
    uint64_t resident = 0;

    if (l->cluster_blocks) {
        cudaLaunchConfig_t lc;
        cudaLaunchAttribute attrs[2];
        int clusters = 0;
        cg_to_cuda_(cfg, l, &lc, attrs, 0);
        e = cudaOccupancyMaxActiveClusters(&clusters, kernel, &lc);
        if (e != cudaSuccess) {
            (void)cudaGetLastError();
            return cg_status_fail_(CG_ERROR_CLUSTER_UNSCHEDULABLE,
                            "cudaOccupancyMaxActiveClusters for cluster %ux%ux%u of %u-thread blocks with %zu bytes "
                            "dynamic shared memory failed: %s",
                            l->cluster.x, l->cluster.y, l->cluster.z, l->threads, cfg->dynamic_smem,
                            cudaGetErrorString(e));
        }
        if (clusters == 0)
            return cg_status_fail_(CG_ERROR_CLUSTER_UNSCHEDULABLE,
                            "no cluster %ux%ux%u of %u-thread blocks with %zu bytes dynamic shared memory fits on one "
                            "GPC",
                            l->cluster.x, l->cluster.y, l->cluster.z, l->threads, cfg->dynamic_smem);
        resident = (uint64_t)clusters * l->cluster_blocks;
    }

    if (cfg->cooperative) {
        int coop = 0, per_sm = 0;
        if ((e = cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, l->device)) != cudaSuccess)
            return cg_status_fail_(CG_ERROR_CUDA, "querying cooperative launch support failed: %s", cudaGetErrorString(e));
        if (!coop)
            return cg_status_fail_(CG_ERROR_COOPERATIVE_UNSUPPORTED, "device %d (%s) does not support cooperative launch",
                            l->device, l->prop.name);
        if (!l->cluster_blocks) {
            e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)l->threads, cfg->dynamic_smem);
            if (e != cudaSuccess)
                return cg_status_fail_(CG_ERROR_CUDA, "cudaOccupancyMaxActiveBlocksPerMultiprocessor failed: %s",
                                cudaGetErrorString(e));
            resident = (uint64_t)per_sm * (uint64_t)l->prop.multiProcessorCount;
        }
        if (l->blocks > resident)
            return cg_status_fail_(CG_ERROR_COOPERATIVE_TOO_LARGE,
                            "cooperative grid of %llu blocks (%u threads, %zu bytes dynamic shared memory each) "
                            "exceeds the %llu that can be co-resident on device %d",
                            (unsigned long long)l->blocks, l->threads, cfg->dynamic_smem,
                            (unsigned long long)resident, l->device);
    }
    return CG_SUCCESS;
}

static cg_status_t cg_check_all_(const cg_launch_config_t *cfg, const void *kernel, cg_launch_t_ *l)
{
    cg_status_t st;
    if ((st = cg_check_shape_(cfg, kernel, l)) != CG_SUCCESS)
        return st;
    if ((st = cg_check_device_(kernel, l)) != CG_SUCCESS)
        return st;
    if ((st = cg_check_resources_(cfg, kernel, l)) != CG_SUCCESS)
        return st;
    return cg_check_residency_(cfg, kernel, l);
}

cg_status_t cg_launch_check(const cg_launch_config_t *cfg, const void *kernel)
{
    cg_launch_t_ l;
    cg_status_t st = cg_check_all_(cfg, kernel, &l);
    return st == CG_SUCCESS ? cg_status_ok_() : st;
}

/* Whether the kernel takes parameters: cudaFuncGetParamInfo for the first
 * one (a kernel without parameters makes that call fail, which
 * compute-sanitizer memcheck lists; only a NULL args array asks). Leaves no
 * error pending. */
static int cg_takes_params_(const void *kernel)
{
    size_t offset = 0, size = 0;
    const int yes = cudaFuncGetParamInfo(kernel, 0, &offset, &size) == cudaSuccess;
    (void)cudaGetLastError();
    return yes;
}

/* The status for a launch the runtime refused. */
static cg_status_t cg_launch_status_(cudaError_t e)
{
    switch (e) {
    case cudaErrorMemoryAllocation:
        return CG_ERROR_OUT_OF_MEMORY;
    case cudaErrorNotSupported:
        return CG_ERROR_NOT_SUPPORTED;
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorInvalidDeviceFunction:
        return CG_ERROR_KERNEL_IMAGE;
    default:
        return CG_ERROR_LAUNCH_FAILED;
    }
}

cg_status_t cg_launch(const cg_launch_config_t *cfg, const void *kernel, void **args)
{
    cg_launch_t_ l;
    cudaLaunchConfig_t lc;
    cudaLaunchAttribute attrs[2];
    cudaError_t e;
    cg_status_t st = cg_check_all_(cfg, kernel, &l);
    if (st != CG_SUCCESS)
        return st;
    if (!args && cg_takes_params_(kernel))
        return cg_status_fail_(CG_ERROR_INVALID_ARGUMENT,
                        "args is NULL but the kernel takes parameters: pass an array with a pointer to each argument");
    cg_to_cuda_(cfg, &l, &lc, attrs, 1);
    e = cudaLaunchKernelExC(&lc, kernel, args);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return cg_status_fail_(cg_launch_status_(e), "cudaLaunchKernelExC (grid %ux%ux%u, block %ux%ux%u, cluster %u, %zu "
                        "bytes dynamic shared memory%s) failed: %s (%s)",
                        l.grid.x, l.grid.y, l.grid.z, l.block.x, l.block.y, l.block.z, l.cluster_blocks,
                        cfg->dynamic_smem, cfg->cooperative ? ", cooperative" : "", cudaGetErrorString(e),
                        cudaGetErrorName(e));
    }
    return cg_status_ok_();
}

/* --- the launch handle ------------------------------------------------------ */

/* "cgc lnch": a prepared handle (a zeroed or stale one has anything else). */
#define CG_LAUNCH_HANDLE_MAGIC_ 0x6367632d6c6e6368ull

cg_status_t cg_launch_prepare(cg_launch_handle_t *h, const cg_launch_config_t *cfg, const void *kernel)
{
    cg_launch_t_ l;
    cg_status_t st;
    if (!h)
        return cg_status_fail_(CG_ERROR_INVALID_ARGUMENT, "the launch handle pointer is NULL");
    memset(h, 0, sizeof *h);
    if ((st = cg_check_all_(cfg, kernel, &l)) != CG_SUCCESS)
        return st;
    h->_kernel = kernel;
    h->_device = l.device;
    h->_takes_params = cg_takes_params_(kernel);
    cg_to_cuda_(cfg, &l, &h->_lc, h->_attrs, 1);
    h->_magic = CG_LAUNCH_HANDLE_MAGIC_;
    return cg_status_ok_();
}

cg_status_t cg_launch_prepared(const cg_launch_handle_t *h, void **args)
{
    cudaLaunchConfig_t lc;
    int device = -1;
    cudaError_t e;
    if (!h)
        return cg_status_fail_(CG_ERROR_INVALID_ARGUMENT, "the launch handle pointer is NULL");
    if (h->_magic != CG_LAUNCH_HANDLE_MAGIC_ || !h->_kernel)
        return cg_status_fail_(CG_ERROR_LAUNCH_HANDLE_INVALID,
                               "the handle was not filled by a successful cg_launch_prepare");
    if ((e = cudaGetDevice(&device)) != cudaSuccess || device != h->_device) {
        (void)cudaGetLastError();
        return cg_status_fail_(CG_ERROR_LAUNCH_HANDLE_DEVICE, "the handle was prepared on device %d; the current device is %d",
                               h->_device, device);
    }
    if (!args && h->_takes_params)
        return cg_status_fail_(CG_ERROR_INVALID_ARGUMENT,
                               "args is NULL but the kernel takes parameters: pass an array with a pointer to each argument");
    /* A copy whose attrs point into *h (the handle may have been copied since
     * it was prepared, so its own _lc.attrs may point into the original). */
    lc = h->_lc;
    lc.attrs = lc.numAttrs ? (cudaLaunchAttribute *)h->_attrs : NULL;
    e = cudaLaunchKernelExC(&lc, h->_kernel, args);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return cg_status_fail_(cg_launch_status_(e), "cudaLaunchKernelExC of a prepared handle (grid %ux%ux%u, block "
                               "%ux%ux%u) failed: %s (%s)", lc.gridDim.x, lc.gridDim.y, lc.gridDim.z, lc.blockDim.x,
                               lc.blockDim.y, lc.blockDim.z, cudaGetErrorString(e), cudaGetErrorName(e));
    }
    return cg_status_ok_();
}

cg_status_t cg_launch_cooperative(const void *kernel, cg_dim3_t grid, cg_dim3_t block, void **args,
                                  size_t dynamic_smem, cudaStream_t stream)
{
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    cfg.grid = grid;
    cfg.block = block;
    cfg.dynamic_smem = dynamic_smem;
    cfg.stream = stream;
    cfg.cooperative = 1;
    return cg_launch(&cfg, kernel, args);
}

cg_status_t cg_max_cooperative_blocks(const void *kernel, uint32_t block_threads, size_t dynamic_smem,
                                      uint32_t *blocks)
{
    cg_launch_t_ l;
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    cg_status_t st;
    int per_sm = 0;
    cudaError_t e;
    if (!blocks)
        return cg_status_fail_(CG_ERROR_INVALID_ARGUMENT, "the result pointer is NULL");
    *blocks = 0;
    cfg.grid.x = 1;
    cfg.block.x = block_threads;
    cfg.dynamic_smem = dynamic_smem;
    if ((st = cg_check_shape_(&cfg, kernel, &l)) != CG_SUCCESS || (st = cg_check_device_(kernel, &l)) != CG_SUCCESS ||
        (st = cg_check_resources_(&cfg, kernel, &l)) != CG_SUCCESS)
        return st;
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)block_threads, dynamic_smem);
    if (e != cudaSuccess)
        return cg_status_fail_(CG_ERROR_CUDA, "cudaOccupancyMaxActiveBlocksPerMultiprocessor failed: %s", cudaGetErrorString(e));
    *blocks = (uint32_t)per_sm * (uint32_t)l.prop.multiProcessorCount;
    return cg_status_ok_();
}

cg_status_t cg_max_active_clusters(const cg_launch_config_t *cfg, const void *kernel, uint32_t *clusters)
{
    cg_launch_t_ l;
    cg_launch_config_t c;
    cudaLaunchConfig_t lc;
    cudaLaunchAttribute attrs[2];
    cg_status_t st;
    int n = 0;
    cudaError_t e;
    if (!clusters)
        return cg_status_fail_(CG_ERROR_INVALID_ARGUMENT, "the result pointer is NULL");
    *clusters = 0;
    if (!cfg)
        return cg_status_fail_(CG_ERROR_INVALID_ARGUMENT, "the launch configuration pointer is NULL");
    c = *cfg;
    c.cooperative = 0;
    /* The grid does not matter here: one cluster's worth. */
    c.grid.x = cg_or1_(c.cluster.x);
    c.grid.y = cg_or1_(c.cluster.y);
    c.grid.z = cg_or1_(c.cluster.z);
    if ((st = cg_check_shape_(&c, kernel, &l)) != CG_SUCCESS || (st = cg_check_device_(kernel, &l)) != CG_SUCCESS ||
        (st = cg_check_resources_(&c, kernel, &l)) != CG_SUCCESS)
        return st;
    if (!l.cluster_blocks) { /* no cluster shape: 1-block clusters */
        l.cluster.x = l.cluster.y = l.cluster.z = 1;
        l.cluster_blocks = 1;
    }
    cg_to_cuda_(&c, &l, &lc, attrs, 0);
    e = cudaOccupancyMaxActiveClusters(&n, kernel, &lc);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return cg_status_fail_(CG_ERROR_CLUSTER_UNSCHEDULABLE, "cudaOccupancyMaxActiveClusters failed: %s",
                        cudaGetErrorString(e));
    }
    *clusters = (uint32_t)n;
    if (n == 0)
        return cg_status_fail_(CG_ERROR_CLUSTER_UNSCHEDULABLE,
                        "no cluster %ux%ux%u of %u-thread blocks with %zu bytes dynamic shared memory fits on one GPC",
                        l.cluster.x, l.cluster.y, l.cluster.z, l.threads, c.dynamic_smem);
    return cg_status_ok_();
}

cg_status_t cg_stream_synchronize(cudaStream_t stream)
{
    cudaError_t e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess)
        return cg_status_fail_(CG_ERROR_KERNEL_FAILED, "the stream reported: %s (%s)", cudaGetErrorString(e),
                        cudaGetErrorName(e));
    return cg_status_ok_();
}

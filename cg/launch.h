/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/launch.h — launch cgc kernels from plain C (host code, linked with cudart).
 *
 *   cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
 *   cfg.grid = (cg_dim3_t){.x = 128};
 *   cfg.block = (cg_dim3_t){.x = 256};
 *   cfg.cluster = (cg_dim3_t){.x = 16};     // > 8: non-portable opt-in is done for you
 *   cfg.dynamic_smem = 100 * 1024;          // > 48 KB: the opt-in is done for you
 *   void *args[] = {&out, &n};
 *   cg_status_t st = cg_launch(&cfg, (const void *)my_kernel, args);
 *   if (st != CG_SUCCESS) fprintf(stderr, "%s: %s\n", cg_status_string(st), cg_last_error_detail());
 *
 * Launching the same kernel and shape many times: validate once, then launch
 * at the runtime's cost:
 *   cg_launch_handle_t h;
 *   st = cg_launch_prepare(&h, &cfg, (const void *)my_kernel);
 *   for (int i = 0; i < iters && st == CG_SUCCESS; ++i)
 *       st = cg_launch_prepared(&h, args);
 * One cooperative launch in one line (cudaLaunchCooperativeKernel's order):
 *   st = cg_launch_cooperative((const void *)my_kernel, (cg_dim3_t){128, 1, 1}, (cg_dim3_t){256, 1, 1}, args, 0, 0);
 *
 * cg_launch validates the whole configuration against the kernel and the
 * current device before it launches, so a bad one returns its own status
 * instead of failing inside the driver or hanging (a cooperative grid larger
 * than what can be co-resident, a cluster shape that does not divide the
 * grid, ...). It uses cudaLaunchKernelExC (the C entry point; cudaLaunchKernelEx
 * is a C++ template). A kernel that needs grid sync sets .cooperative = 1.
 *
 * Statuses of cg_launch / cg_launch_check, in the order they are checked:
 *   CG_ERROR_INVALID_ARGUMENT        cfg is NULL
 *   CG_ERROR_KERNEL_NULL             kernel is NULL
 *   CG_ERROR_BLOCK_SIZE              block.x is 0, or more than 1024 threads, or a
 *                                    dimension above 1024/1024/64, or above the
 *                                    kernel's own limit (registers)
 *   CG_ERROR_GRID_SIZE               grid.x is 0, or a dimension above the limits
 *   CG_ERROR_CLUSTER_TOO_LARGE       more than 16 blocks in a cluster
 *   CG_ERROR_CLUSTER_SHAPE           the cluster shape does not divide the grid
 *   CG_ERROR_NO_DEVICE               no CUDA device (or no driver)
 *   CG_ERROR_DEVICE_TOO_OLD          the device is below sm_80, or below sm_90 for a cluster
 *   CG_ERROR_KERNEL_IMAGE            the kernel has no code for this device
 *   CG_ERROR_SHARED_MEMORY           static + dynamic shared memory above the
 *                                    device's per-block opt-in limit
 *   CG_ERROR_CLUSTER_NONPORTABLE_DENIED  more than 8 blocks and the non-portable
 *                                    opt-in was refused
 *   CG_ERROR_CLUSTER_UNSCHEDULABLE   no cluster of this shape fits on a GPC
 *   CG_ERROR_COOPERATIVE_UNSUPPORTED the device cannot launch cooperatively
 *   CG_ERROR_COOPERATIVE_TOO_LARGE   the cooperative grid exceeds co-residency
 *   CG_ERROR_LAUNCH_FAILED           the runtime rejected the launch anyway
 *   CG_ERROR_CUDA                    a runtime query failed
 * cg_last_error_detail() then says what was wrong, with the numbers.
 */
#ifndef CG_CG_LAUNCH_H
#define CG_CG_LAUNCH_H

#include "../base/config.h"
#include "../base/dim3.h"
#include "../base/status.h"

#if CG_HOST_API /* host only: nothing here under NVRTC */
#include <cuda_runtime_api.h>

/* A launch. Zero means default in every field; fields are only ever appended,
 * so CG_LAUNCH_CONFIG_INIT or designated initializers keep compiling.
 *   grid          blocks; x must be set, a zero y or z means 1
 *   block         threads per block; x must be set, a zero y or z means 1
 *   cluster       cluster shape in blocks; all zero: no cluster shape (the
 *                 kernel runs in implicit 1-block clusters); otherwise a zero
 *                 dimension means 1. At most 16 blocks; above 8 cg_launch
 *                 sets cudaFuncAttributeNonPortableClusterSizeAllowed.
 *   dynamic_smem  bytes of dynamic shared memory per block; above 48 KB
 *                 cg_launch sets cudaFuncAttributeMaxDynamicSharedMemorySize.
 *   stream        0: the default stream
 *   cooperative   nonzero: cooperative launch (needed by cg_grid_sync); the
 *                 whole grid must be co-resident */
typedef struct cg_launch_config {
    cg_dim3_t grid;
    cg_dim3_t block;
    cg_dim3_t cluster;
    size_t dynamic_smem;
    cudaStream_t stream;
    int cooperative;
} cg_launch_config_t;

/* Every field zero (defaults); set grid and block after it. */
#define CG_LAUNCH_CONFIG_INIT {{0u, 0u, 0u}, {0u, 0u, 0u}, {0u, 0u, 0u}, 0u, (cudaStream_t)0, 0}

CG_EXTERN_C_BEGIN

/* Validate `cfg` for `kernel` on the current device (every check listed
 * above, including the opt-in attributes it will need), then launch it with
 * the kernel's arguments `args` (as for cudaLaunchKernel: one pointer per
 * parameter; NULL for a kernel without parameters: a NULL args for a kernel
 * that takes parameters is CG_ERROR_INVALID_ARGUMENT, found by asking
 * cudaFuncGetParamInfo for its first parameter, a call that fails (and that
 * compute-sanitizer memcheck lists) for a kernel without any). Returns once
 * the launch is enqueued; errors the kernel meets while running come from
 * cg_stream_synchronize. */
cg_status_t cg_launch(const cg_launch_config_t *cfg, const void *kernel, void **args);

/* Everything cg_launch checks and sets up, without launching. */
cg_status_t cg_launch_check(const cg_launch_config_t *cfg, const void *kernel);

/* The largest grid (in blocks) of `kernel` with `block_threads` threads and
 * `dynamic_smem` bytes per block that can be co-resident on the current
 * device, i.e. the largest cooperative launch: blocks per SM x SMs. */
cg_status_t cg_max_cooperative_blocks(const void *kernel, uint32_t block_threads, size_t dynamic_smem,
                                      uint32_t *blocks);

/* How many clusters of cfg's shape (cluster, block, dynamic_smem; grid is
 * ignored) can be active at once on the current device
 * (cudaOccupancyMaxActiveClusters; does the >8 opt-in first). 0 clusters is
 * reported as CG_ERROR_CLUSTER_UNSCHEDULABLE with *clusters = 0. */
cg_status_t cg_max_active_clusters(const cg_launch_config_t *cfg, const void *kernel, uint32_t *clusters);

/* cudaStreamSynchronize, with a fault or trap in the kernel reported as
 * CG_ERROR_KERNEL_FAILED (the runtime's message in cg_last_error_detail). */
cg_status_t cg_stream_synchronize(cudaStream_t stream);

/* ---- Launch once, launch often: a checked launch handle ---------------- */

/* A launch validated once: cg_launch_prepare runs every check of cg_launch
 * (and the opt-ins) and fills the handle; cg_launch_prepared then launches
 * it with only what must be looked at per launch (the handle is prepared,
 * the current device is the one it was prepared on, args is not NULL for a
 * kernel with parameters), then cudaLaunchKernelExC: a loop launching the
 * same kernel and shape pays the runtime's cost, not the checks' (cg_launch
 * re-queries the device, the kernel's attributes and its occupancy on every
 * call). Plain data: copy it, keep it as long as the kernel and device live.
 * The fields are internal. */
typedef struct cg_launch_handle {
    uint64_t _magic; /* set by a successful cg_launch_prepare */
    const void *_kernel;
    cudaLaunchConfig_t _lc; /* _lc.attrs points into _attrs: see cg_launch_prepared */
    cudaLaunchAttribute _attrs[2];
    int _device;
    int _takes_params;
} cg_launch_handle_t;

/* Validate `cfg` for `kernel` on the current device, exactly as cg_launch
 * does (the same statuses, in the same order), do the opt-ins it needs, and
 * fill *h. On failure *h is left unprepared (a launch through it returns
 * CG_ERROR_LAUNCH_HANDLE_INVALID). h NULL: CG_ERROR_INVALID_ARGUMENT. */
cg_status_t cg_launch_prepare(cg_launch_handle_t *h, const cg_launch_config_t *cfg, const void *kernel);

/* Launch the prepared handle with the kernel's arguments `args` (as for
 * cg_launch), on the stream of its configuration. Statuses:
 *   CG_ERROR_INVALID_ARGUMENT        h is NULL, or args is NULL for a kernel
 *                                    that takes parameters
 *   CG_ERROR_LAUNCH_HANDLE_INVALID   h was not prepared (zeroed, failed
 *                                    cg_launch_prepare, overwritten)
 *   CG_ERROR_LAUNCH_HANDLE_DEVICE    the current device is not the one h was
 *                                    prepared on
 *   as cg_launch                     the runtime refused the launch
 * No device query, no attribute, no occupancy call: the cost is
 * cudaLaunchKernelExC's and cudaGetDevice's. */
cg_status_t cg_launch_prepared(const cg_launch_handle_t *h, void **args);

/* The common cooperative launch in one line, cudaLaunchCooperativeKernel's
 * arguments in its order:
 *   cg_launch_cooperative((const void *)k, grid, block, args, 0, stream)
 * is cg_launch with {.grid, .block, .dynamic_smem, .stream, .cooperative = 1}
 * (every check; the co-residency one included). For a loop, prepare a
 * handle instead. */
cg_status_t cg_launch_cooperative(const void *kernel, cg_dim3_t grid, cg_dim3_t block, void **args,
                                  size_t dynamic_smem, cudaStream_t stream);

/* cg_last_error_detail() (base/status.h) says what the last failure was. */

CG_EXTERN_C_END

#endif /* CG_HOST_API */
#endif /* CG_CG_LAUNCH_H */

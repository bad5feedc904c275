/* SPDX-License-Identifier: BSD-3-Clause */
/* barrier/device_barrier.c — host side of cg_device_barrier_t (plain C, gcc). */
#include "device_barrier.h"

#include <stdint.h>

#include <cuda_runtime_api.h>

cg_status_t cg_device_barrier_init_host(cg_device_barrier_t *dev_bar, uint32_t expected)
{
    if (dev_bar == NULL)
        return cg_status_fail_(CG_ERROR_INVALID_ARGUMENT, "cg_device_barrier_init_host: the barrier pointer is NULL");
    if (expected < 1u || expected > CG_DEVICE_BARRIER_MAX)
        return cg_status_fail_(CG_ERROR_COUNT_RANGE, "cg_device_barrier_init_host: expected count %u is outside 1..%u",
                               expected, (unsigned)CG_DEVICE_BARRIER_MAX);
    if (((uintptr_t)dev_bar & 7u) != 0u)
        return cg_status_fail_(CG_ERROR_INVALID_ARGUMENT,
                               "cg_device_barrier_init_host: barrier %p is not 8-byte aligned", (void *)dev_bar);
    /* A host pointer would make the copy below fail with cudaErrorInvalidValue:
     * say so instead, and leave no error pending. */
    struct cudaPointerAttributes attr;
    cudaError_t e = cudaPointerGetAttributes(&attr, dev_bar);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return cg_status_fail_(CG_ERROR_CUDA, "cg_device_barrier_init_host: cudaPointerGetAttributes(%p) failed: %s",
                               (void *)dev_bar, cudaGetErrorString(e));
    }
    if (attr.devicePointer == NULL)
        return cg_status_fail_(CG_ERROR_INVALID_ARGUMENT,
                               "cg_device_barrier_init_host: %p is not memory the device can reach (a host pointer? "
                               "allocate the barrier with cudaMalloc)",
                               (void *)dev_bar);
    /* Phase 0, no arrival yet. */
    cg_device_barrier_t init = {CG_DBAR_INIT_STATE_(expected), 0};
    if ((e = cudaMemcpy(attr.devicePointer, &init, sizeof init, cudaMemcpyHostToDevice)) != cudaSuccess) {
        (void)cudaGetLastError();
        return cg_status_fail_(CG_ERROR_CUDA, "cg_device_barrier_init_host: cudaMemcpy to %p failed: %s",
                               (void *)dev_bar, cudaGetErrorString(e));
    }
    return cg_status_ok_();
}

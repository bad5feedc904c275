/* barrier/device_barrier.c — host side of cg_device_barrier_t (plain C, gcc). */
#include "barrier/device_barrier.h"

#include <cuda_runtime_api.h>

cg_status_t cg_device_barrier_init_host(cg_device_barrier_t *dev_bar, uint32_t expected)
{
    if (dev_bar == NULL)
        return CG_ERROR_INVALID_ARGUMENT;
    if (expected < 1u || expected > CG_DEVICE_BARRIER_MAX)
        return CG_ERROR_COUNT_RANGE;
    /* Phase 0, no arrival yet. */
    cg_device_barrier_t init = {CG_DBAR_INIT_STATE_(expected), 0};
    if (cudaMemcpy(dev_bar, &init, sizeof init, cudaMemcpyHostToDevice) != cudaSuccess)
        return CG_ERROR_CUDA;
    return CG_SUCCESS;
}

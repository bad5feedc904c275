/*
 * async/tensor.c — the host side of async/tensor.h: checks a tensor map's
 * description field by field (one status per kind of mistake, before the
 * driver is asked) and builds the map with the driver's
 * cuTensorMapEncodeTiled, found through the runtime
 * (cudaGetDriverEntryPointByVersion), so programs need not link libcuda.
 * The rules are the driver's (cuda.h, cuTensorMapEncodeTiled), for tiled
 * maps without interleave.
 */
#include "async/tensor.h"

#include <cuda.h> /* CUtensorMap and its enums only: nothing from libcuda is linked */
#include <cuda_runtime_api.h>

_Static_assert(sizeof(cg_tensor_map_t) == sizeof(CUtensorMap), "cg_tensor_map_t must be a CUtensorMap");
_Static_assert(_Alignof(cg_tensor_map_t) == 64, "a tensor map is 64-byte aligned");
_Static_assert((int)CG_TENSOR_TFLOAT32_FTZ == (int)CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ &&
                   (int)CG_TENSOR_BFLOAT16 == (int)CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
               "cg_tensor_dtype_t mirrors CUtensorMapDataType");
_Static_assert((int)CG_TENSOR_SWIZZLE_128B == (int)CU_TENSOR_MAP_SWIZZLE_128B,
               "cg_tensor_swizzle_t mirrors CUtensorMapSwizzle");

uint32_t cg_tensor_dtype_size(cg_tensor_dtype_t dtype)
{
    switch (dtype) {
    case CG_TENSOR_UINT8:
        return 1;
    case CG_TENSOR_UINT16:
    case CG_TENSOR_FLOAT16:
    case CG_TENSOR_BFLOAT16:
        return 2;
    case CG_TENSOR_UINT32:
    case CG_TENSOR_INT32:
    case CG_TENSOR_FLOAT32:
    case CG_TENSOR_FLOAT32_FTZ:
    case CG_TENSOR_TFLOAT32:
    case CG_TENSOR_TFLOAT32_FTZ:
        return 4;
    case CG_TENSOR_UINT64:
    case CG_TENSOR_INT64:
    case CG_TENSOR_FLOAT64:
        return 8;
    }
    return 0;
}

static int is_float(cg_tensor_dtype_t dtype)
{
    return dtype == CG_TENSOR_FLOAT16 || dtype == CG_TENSOR_FLOAT32 || dtype == CG_TENSOR_FLOAT64 ||
           dtype == CG_TENSOR_BFLOAT16 || dtype == CG_TENSOR_FLOAT32_FTZ || dtype == CG_TENSOR_TFLOAT32 ||
           dtype == CG_TENSOR_TFLOAT32_FTZ;
}

/* Checks d; on success fills the byte strides of dimensions 1 .. rank-1
 * (packed ones computed) and the element strides (0 -> 1). */
static cg_status_t check_desc(const cg_tensor_desc_t *d, uint64_t strides[4], uint32_t esteps[5])
{
    if (d == NULL)
        return CG_ERROR_INVALID_ARGUMENT;
    if (d->rank < 1 || d->rank > CG_TENSOR_MAX_RANK)
        return CG_ERROR_TENSOR_RANK;
    const uint32_t esize = cg_tensor_dtype_size(d->dtype);
    if (esize == 0)
        return CG_ERROR_TENSOR_TYPE;
    if (d->base == NULL || ((uintptr_t)d->base & 15u) != 0)
        return CG_ERROR_TENSOR_ALIGNMENT;
    for (uint32_t i = 0; i < d->rank; ++i)
        if (d->dims[i] == 0 || d->dims[i] > CG_TENSOR_MAX_DIM)
            return CG_ERROR_TENSOR_DIM;
    for (uint32_t k = 0; k + 1 < d->rank; ++k) {
        /* stride of dimension k + 1; packed: the whole of dimension k */
        uint64_t s = d->strides[k];
        if (s == 0)
            s = k == 0 ? d->dims[0] * esize : strides[k - 1] * d->dims[k];
        if (s == 0 || s % 16u != 0 || s >= CG_TENSOR_MAX_STRIDE)
            return CG_ERROR_TENSOR_STRIDE;
        strides[k] = s;
    }
    for (uint32_t i = 0; i < d->rank; ++i)
        if (d->box[i] == 0 || d->box[i] > CG_TENSOR_MAX_BOX)
            return CG_ERROR_TENSOR_BOX;
    if ((d->box[0] * esize) % 16u != 0)
        return CG_ERROR_TENSOR_BOX_ROW;
    for (uint32_t i = 0; i < d->rank; ++i) {
        const uint32_t e = d->element_strides[i] ? d->element_strides[i] : 1u;
        if (e > CG_TENSOR_MAX_ELEMENT_STRIDE)
            return CG_ERROR_TENSOR_ELEMENT_STRIDE;
        esteps[i] = e;
    }
    if ((unsigned)d->swizzle > (unsigned)CG_TENSOR_SWIZZLE_128B)
        return CG_ERROR_TENSOR_SWIZZLE;
    if (d->swizzle != CG_TENSOR_SWIZZLE_NONE && d->box[0] * esize > (16u << (unsigned)d->swizzle))
        return CG_ERROR_TENSOR_SWIZZLE; /* spans: 32, 64, 128 bytes */
    if (d->l2_promotion != 0 && d->l2_promotion != 64 && d->l2_promotion != 128 && d->l2_promotion != 256)
        return CG_ERROR_TENSOR_OPTION;
    if (d->oob_nan > 1 || (d->oob_nan && !is_float(d->dtype)))
        return CG_ERROR_TENSOR_OPTION;
    return CG_SUCCESS;
}

uint64_t cg_tensor_box_bytes(const cg_tensor_desc_t *desc)
{
    uint64_t strides[4];
    uint32_t esteps[5];
    if (check_desc(desc, strides, esteps) != CG_SUCCESS)
        return 0;
    uint64_t bytes = (uint64_t)desc->box[0] * cg_tensor_dtype_size(desc->dtype);
    for (uint32_t i = 1; i < desc->rank; ++i)
        bytes *= (desc->box[i] + esteps[i] - 1u) / esteps[i];
    return bytes;
}

typedef CUresult (*encode_tiled_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                    const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                                    CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

cg_status_t cg_tensor_map_encode(cg_tensor_map_t *map, const cg_tensor_desc_t *desc)
{
    if (map == NULL || desc == NULL)
        return CG_ERROR_INVALID_ARGUMENT;
    uint64_t strides[4] = {0, 0, 0, 0};
    uint32_t esteps[5] = {1, 1, 1, 1, 1};
    cg_status_t st = check_desc(desc, strides, esteps);
    if (st != CG_SUCCESS)
        return st;

    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    /* 12000: the ABI of cuTensorMapEncodeTiled as CUDA 12.0 introduced it. */
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found) !=
            cudaSuccess ||
        found != cudaDriverEntryPointSuccess || fn == NULL) {
        (void)cudaGetLastError();
        return CG_ERROR_DRIVER;
    }
    cuuint64_t dims[5] = {0, 0, 0, 0, 0}, gstrides[4] = {0, 0, 0, 0};
    cuuint32_t box[5] = {0, 0, 0, 0, 0}, steps[5] = {1, 1, 1, 1, 1};
    for (uint32_t i = 0; i < desc->rank; ++i) {
        dims[i] = desc->dims[i];
        box[i] = desc->box[i];
        steps[i] = esteps[i];
        if (i + 1 < desc->rank)
            gstrides[i] = strides[i];
    }
    const CUtensorMapL2promotion l2 = desc->l2_promotion == 64    ? CU_TENSOR_MAP_L2_PROMOTION_L2_64B
                                      : desc->l2_promotion == 128 ? CU_TENSOR_MAP_L2_PROMOTION_L2_128B
                                      : desc->l2_promotion == 256 ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B
                                                                  : CU_TENSOR_MAP_L2_PROMOTION_NONE;
    const CUresult r = ((encode_tiled_fn)fn)(
        (CUtensorMap *)map, (CUtensorMapDataType)desc->dtype, (cuuint32_t)desc->rank, (void *)(uintptr_t)desc->base,
        dims, gstrides, box, steps, CU_TENSOR_MAP_INTERLEAVE_NONE, (CUtensorMapSwizzle)desc->swizzle, l2,
        desc->oob_nan ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? CG_SUCCESS : CG_ERROR_DRIVER;
}

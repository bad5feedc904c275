/* SPDX-License-Identifier: BSD-3-Clause */
/* async/tensor_map.c — cg_tensor_map_encode: every documented rule of
 * cuTensorMapEncodeTiled checked here, then the driver call, reached through
 * the runtime's entry-point query so users need not link libcuda. */
#include "tensor_map.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdalign.h>
#include <stdio.h>
#include <string.h>

/* cuTensorMapEncodeTiled's signature in CUDA 13.0's cuda.h. */
typedef CUresult (*cg_encode_tiled_fn_)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                        const cuuint64_t *, const cuuint32_t *, const cuuint32_t *,
                                        CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion,
                                        CUtensorMapFloatOOBfill);

/* The map is a CUtensorMap in all but name; the enums are the driver's
 * (the dtype shifted by one so that zero can mean "not set"). */
_Static_assert(sizeof(cg_tensor_map_t) == sizeof(CUtensorMap), "cg_tensor_map_t must be a CUtensorMap");
_Static_assert(alignof(cg_tensor_map_t) == alignof(CUtensorMap), "cg_tensor_map_t must align as CUtensorMap");
_Static_assert(sizeof(cg_tensor_map_t) == 128, "tensor maps are 128 bytes");
_Static_assert(sizeof(cg_encode_tiled_fn_) == sizeof(void *), "function and object pointers are the same size");
_Static_assert(CG_TENSOR_U8 - 1 == CU_TENSOR_MAP_DATA_TYPE_UINT8, "dtype");
_Static_assert(CG_TENSOR_U64 - 1 == CU_TENSOR_MAP_DATA_TYPE_UINT64, "dtype");
_Static_assert(CG_TENSOR_F32 - 1 == CU_TENSOR_MAP_DATA_TYPE_FLOAT32, "dtype");
_Static_assert(CG_TENSOR_TF32_FTZ - 1 == CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ, "dtype");
_Static_assert((int)CG_TENSOR_SWIZZLE_128B == (int)CU_TENSOR_MAP_SWIZZLE_128B, "swizzle");
_Static_assert((int)CG_TENSOR_INTERLEAVE_32B == (int)CU_TENSOR_MAP_INTERLEAVE_32B, "interleave");
_Static_assert((int)CG_TENSOR_L2_256B == (int)CU_TENSOR_MAP_L2_PROMOTION_L2_256B, "l2 promotion");
_Static_assert((int)CG_TENSOR_OOB_NAN == (int)CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA, "oob fill");


uint32_t cg_tensor_dtype_size(cg_tensor_dtype_t dtype)
{
    switch (dtype) {
    case CG_TENSOR_U8:
        return 1;
    case CG_TENSOR_U16:
    case CG_TENSOR_F16:
    case CG_TENSOR_BF16:
        return 2;
    case CG_TENSOR_U32:
    case CG_TENSOR_I32:
    case CG_TENSOR_F32:
    case CG_TENSOR_F32_FTZ:
    case CG_TENSOR_TF32:
    case CG_TENSOR_TF32_FTZ:
        return 4;
    case CG_TENSOR_U64:
    case CG_TENSOR_I64:
    case CG_TENSOR_F64:
        return 8;
    case CG_TENSOR_DTYPE_UNSET:
        break;
    }
    return 0;
}

static int cg_dtype_is_float_(cg_tensor_dtype_t t)
{
    return t == CG_TENSOR_F16 || t == CG_TENSOR_F32 || t == CG_TENSOR_F64 || t == CG_TENSOR_BF16 ||
           t == CG_TENSOR_F32_FTZ || t == CG_TENSOR_TF32 || t == CG_TENSOR_TF32_FTZ;
}

/* Bytes of one swizzle span; 0 for none. */
static uint32_t cg_swizzle_span_(cg_tensor_swizzle_t s)
{
    return s == CG_TENSOR_SWIZZLE_32B ? 32u : s == CG_TENSOR_SWIZZLE_64B ? 64u : s == CG_TENSOR_SWIZZLE_128B ? 128u : 0u;
}

/* The encoded arguments, once every rule holds. */
typedef struct {
    cuuint64_t dim[CG_TENSOR_MAX_RANK];
    cuuint64_t stride[CG_TENSOR_MAX_RANK - 1];
    cuuint32_t box[CG_TENSOR_MAX_RANK];
    cuuint32_t estride[CG_TENSOR_MAX_RANK];
} cg_encode_args_;

static cg_status_t cg_tensor_validate_(const cg_tensor_map_desc_t *d, cg_encode_args_ *a)
{
    const uint32_t esize = cg_tensor_dtype_size(d->dtype);
    if (esize == 0)
        return cg_status_fail_(CG_ERROR_TENSOR_DTYPE, "dtype = %d is not a cg_tensor_dtype_t (CG_TENSOR_U8 .. "
                                                      "CG_TENSOR_TF32_FTZ; 0 means it was never set)",
                               (int)d->dtype);
    if ((unsigned)d->interleave > (unsigned)CG_TENSOR_INTERLEAVE_32B)
        return cg_status_fail_(CG_ERROR_TENSOR_INTERLEAVE, "interleave = %d is not a cg_tensor_interleave_t (0..2)",
                               (int)d->interleave);
    const int inter = d->interleave != CG_TENSOR_INTERLEAVE_NONE;
    if (d->rank < 1 || d->rank > CG_TENSOR_MAX_RANK)
        return cg_status_fail_(CG_ERROR_TENSOR_RANK, "rank = %u is outside 1..5", d->rank);
    if (inter && d->rank < 3)
        return cg_status_fail_(CG_ERROR_TENSOR_RANK, "rank = %u with interleave = %d: interleaved layouts need rank 3..5",
                               d->rank, (int)d->interleave);
    const uintptr_t addr = (uintptr_t)d->global_address;
    const uint32_t addr_align = d->interleave == CG_TENSOR_INTERLEAVE_32B ? 32u : 16u;
    if (addr == 0)
        return cg_status_fail_(CG_ERROR_TENSOR_ALIGNMENT, "global_address is NULL");
    if (addr % addr_align != 0)
        return cg_status_fail_(CG_ERROR_TENSOR_ALIGNMENT, "global_address = %p is not %u-byte aligned%s",
                               d->global_address, addr_align, inter ? " (32-byte interleave)" : "");
    if ((unsigned)d->swizzle > (unsigned)CG_TENSOR_SWIZZLE_128B)
        return cg_status_fail_(CG_ERROR_TENSOR_SWIZZLE, "swizzle = %d is not a cg_tensor_swizzle_t (0..3)",
                               (int)d->swizzle);
    if (d->interleave == CG_TENSOR_INTERLEAVE_32B && d->swizzle != CG_TENSOR_SWIZZLE_32B)
        return cg_status_fail_(CG_ERROR_TENSOR_SWIZZLE,
                               "swizzle = %d with interleave = CG_TENSOR_INTERLEAVE_32B: that layout needs "
                               "CG_TENSOR_SWIZZLE_32B",
                               (int)d->swizzle);
    if ((unsigned)d->l2_promotion > (unsigned)CG_TENSOR_L2_256B)
        return cg_status_fail_(CG_ERROR_TENSOR_OPTION, "l2_promotion = %d is not a cg_tensor_l2_promotion_t (0..3)",
                               (int)d->l2_promotion);
    if ((unsigned)d->oob_fill > (unsigned)CG_TENSOR_OOB_NAN)
        return cg_status_fail_(CG_ERROR_TENSOR_OPTION, "oob_fill = %d is not a cg_tensor_oob_fill_t (0..1)",
                               (int)d->oob_fill);
    if (d->oob_fill == CG_TENSOR_OOB_NAN && !cg_dtype_is_float_(d->dtype))
        return cg_status_fail_(CG_ERROR_TENSOR_OPTION, "oob_fill = CG_TENSOR_OOB_NAN with dtype = %d: NaN fill needs a "
                                                       "floating-point type",
                               (int)d->dtype);

    for (uint32_t i = 0; i < d->rank; ++i) {
        if (d->shape[i] == 0 || d->shape[i] > (1ull << 32))
            return cg_status_fail_(CG_ERROR_TENSOR_SHAPE, "shape[%u] = %llu is outside 1..2^32", i,
                                   (unsigned long long)d->shape[i]);
        a->dim[i] = d->shape[i];
    }
    /* Strides: the given ones, or packed. Each at least what the dimension
     * below spans (the driver's globalStrides[i] = globalStrides[i-1] *
     * (globalDim[i] + padding[i])). */
    const uint32_t stride_align = d->interleave == CG_TENSOR_INTERLEAVE_32B ? 32u : 16u;
    uint64_t below = d->shape[0] * esize; /* bytes dimension 0 spans */
    int wrapped = 0;                      /* below is past 2^64 (shape product overflow) */
    for (uint32_t i = 0; i + 1 < d->rank; ++i) {
        const int packed = d->stride_bytes[i] == 0;
        const uint64_t s = packed ? below : d->stride_bytes[i];
        if (packed && wrapped)
            return cg_status_fail_(CG_ERROR_TENSOR_STRIDE,
                                   "stride_bytes[%u] (packed, from stride_bytes 0) would be the bytes that "
                                   "dimensions 0..%u span: shape[0] x .. x shape[%u] x %u-byte elements is 2^64 or "
                                   "more (a tensor map stride must be below 2^40)",
                                   i, i, i, esize);
        if (packed && s >= (1ull << 40))
            return cg_status_fail_(CG_ERROR_TENSOR_STRIDE,
                                   "stride_bytes[%u] = %llu (packed, from stride_bytes 0: the bytes that dimensions "
                                   "0..%u span) is 2^40 or more",
                                   i, (unsigned long long)s, i);
        if (s % stride_align != 0)
            return cg_status_fail_(CG_ERROR_TENSOR_STRIDE, "stride_bytes[%u] = %llu%s is not a multiple of %u bytes", i,
                                   (unsigned long long)s, packed ? " (packed, from stride_bytes 0)" : "", stride_align);
        if (s >= (1ull << 40))
            return cg_status_fail_(CG_ERROR_TENSOR_STRIDE, "stride_bytes[%u] = %llu%s is 2^40 or more", i,
                                   (unsigned long long)s, packed ? " (packed, from stride_bytes 0)" : "");
        if (wrapped)
            return cg_status_fail_(CG_ERROR_TENSOR_STRIDE,
                                   "stride_bytes[%u] = %llu is smaller than the 2^64 or more bytes that dimension %u "
                                   "spans (shape[%u] x stride_bytes[%u] overflows; rows would overlap)",
                                   i, (unsigned long long)s, i, i, i - 1u);
        if (s < below)
            return cg_status_fail_(CG_ERROR_TENSOR_STRIDE,
                                   "stride_bytes[%u] = %llu is smaller than the %llu bytes that dimension %u spans "
                                   "(rows would overlap)",
                                   i, (unsigned long long)s, (unsigned long long)below, i);
        a->stride[i] = s;
        wrapped = d->shape[i + 1] > UINT64_MAX / s;
        below = s * d->shape[i + 1];
    }
    const uint32_t span = cg_swizzle_span_(d->swizzle);
    for (uint32_t i = 0; i < d->rank; ++i) {
        if (d->box[i] == 0 || d->box[i] > CG_TENSOR_MAX_BOX)
            return cg_status_fail_(CG_ERROR_TENSOR_BOX, "box[%u] = %u is outside 1..256", i, d->box[i]);
        a->box[i] = d->box[i];
    }
    const uint32_t row = d->box[0] * esize;
    if (!inter && row % 16u != 0)
        return cg_status_fail_(CG_ERROR_TENSOR_BOX,
                               "box[0] = %u elements of %u bytes = %u bytes is not a multiple of 16 bytes", d->box[0],
                               esize, row);
    if (!inter && span != 0 && row > span)
        return cg_status_fail_(CG_ERROR_TENSOR_SWIZZLE,
                               "box[0] = %u elements of %u bytes = %u bytes is wider than the %u-byte swizzle span",
                               d->box[0], esize, row, span);
    for (uint32_t i = 0; i < d->rank; ++i) {
        const uint32_t e = d->element_stride[i] == 0 ? 1u : d->element_stride[i];
        if (e > 8)
            return cg_status_fail_(CG_ERROR_TENSOR_ELEMENT_STRIDE, "element_stride[%u] = %u is outside 1..8", i, e);
        a->estride[i] = e;
    }
    return CG_SUCCESS;
}

/* The driver's encoder, or a status saying why there is none. */
static cg_status_t cg_find_encoder_(cg_encode_tiled_fn_ *fn)
{
    void *p = NULL;
    enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    /* 12000: the ABI of cuTensorMapEncodeTiled as introduced in CUDA 12.0,
     * which is the one this file's typedef spells. */
    cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
    if (e != cudaSuccess) {
        (void)cudaGetLastError(); /* nothing left pending for the caller */
        if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver || e == cudaErrorInitializationError ||
            e == cudaErrorSystemDriverMismatch || e == cudaErrorCompatNotSupportedOnDevice)
            return cg_status_fail_(CG_ERROR_NO_DEVICE, "no CUDA driver to encode a tensor map with: %s (%s)",
                                   cudaGetErrorName(e), cudaGetErrorString(e));
        return cg_status_fail_(CG_ERROR_CUDA, "cudaGetDriverEntryPointByVersion(cuTensorMapEncodeTiled) failed: %s (%s)",
                               cudaGetErrorName(e), cudaGetErrorString(e));
    }
    if (p == NULL || q != cudaDriverEntryPointSuccess)
        return cg_status_fail_(CG_ERROR_NOT_SUPPORTED,
                               "the CUDA driver has no cuTensorMapEncodeTiled (query result %d); it needs CUDA 12.0+",
                               (int)q);
    /* ISO C has no cast from object to function pointer; the bytes are the
     * same on every platform CUDA runs on (POSIX dlsym relies on it). */
    memcpy(fn, &p, sizeof *fn);
    return CG_SUCCESS;
}

/* The name of a driver result (cuGetErrorName, looked up like the encoder);
 * "an unnamed CUresult" when the driver has none for it. */
static const char *cg_curesult_name_(CUresult r)
{
    typedef CUresult (*name_fn_)(CUresult, const char **);
    void *p = NULL;
    enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    const char *name = NULL;
    if (cudaGetDriverEntryPointByVersion("cuGetErrorName", &p, 12000, cudaEnableDefault, &q) != cudaSuccess) {
        (void)cudaGetLastError();
        return "an unnamed CUresult";
    }
    if (p == NULL || q != cudaDriverEntryPointSuccess)
        return "an unnamed CUresult";
    name_fn_ fn;
    memcpy(&fn, &p, sizeof fn);
    return fn(r, &name) == CUDA_SUCCESS && name != NULL ? name : "an unnamed CUresult";
}

cg_status_t cg_tensor_map_encode(cg_tensor_map_t *out, const cg_tensor_map_desc_t *desc)
{
    if (out == NULL || desc == NULL)
        return cg_status_fail_(CG_ERROR_INVALID_ARGUMENT, "cg_tensor_map_encode(out = %p, desc = %p): NULL argument",
                               (void *)out, (const void *)desc);
    if ((uintptr_t)out % 64u != 0)
        return cg_status_fail_(CG_ERROR_TENSOR_ALIGNMENT, "out = %p is not 64-byte aligned (tensor maps must be)",
                               (void *)out);
    cg_encode_args_ a;
    memset(&a, 0, sizeof a);
    cg_status_t st = cg_tensor_validate_(desc, &a);
    if (st != CG_SUCCESS)
        return st;
    cg_encode_tiled_fn_ encode = NULL;
    if ((st = cg_find_encoder_(&encode)) != CG_SUCCESS)
        return st;
    CUtensorMap tmp;
    memset(&tmp, 0, sizeof tmp);
    CUresult r = CUDA_ERROR_NOT_INITIALIZED;
    for (int attempt = 0; attempt < 2; ++attempt) {
        r = encode(&tmp, (CUtensorMapDataType)(desc->dtype - 1), desc->rank, desc->global_address, a.dim, a.stride,
                   a.box, a.estride, (CUtensorMapInterleave)desc->interleave, (CUtensorMapSwizzle)desc->swizzle,
                   (CUtensorMapL2promotion)desc->l2_promotion, (CUtensorMapFloatOOBfill)desc->oob_fill);
        if (attempt > 0 || (r != CUDA_ERROR_NOT_INITIALIZED && r != CUDA_ERROR_INVALID_CONTEXT))
            break;
        /* No context current yet on this thread (nothing else of CUDA ran):
         * make the runtime's primary context current, then try once more. */
        if (cudaFree(NULL) != cudaSuccess) {
            (void)cudaGetLastError();
            break;
        }
    }
    if (r != CUDA_SUCCESS) {
        /* Say what was refused, every argument, and the result's name. */
        char args[384];
        size_t o = 0;
        const char *sep[] = {"shape ", "; strides ", "; box ", "; element strides "};
        for (int part = 0; part < 4 && o < sizeof args; ++part) {
            o += (size_t)snprintf(args + o, sizeof args - o, "%s", sep[part]);
            const uint32_t n = part == 1 ? desc->rank - 1u : desc->rank;
            for (uint32_t i = 0; i < n && o < sizeof args; ++i) {
                const unsigned long long v = part == 0   ? (unsigned long long)a.dim[i]
                                             : part == 1 ? (unsigned long long)a.stride[i]
                                             : part == 2 ? (unsigned long long)a.box[i]
                                                         : (unsigned long long)a.estride[i];
                o += (size_t)snprintf(args + o, sizeof args - o, "%s%llu", i ? " x " : "", v);
            }
        }
        return cg_status_fail_(CG_ERROR_CUDA,
                               "cuTensorMapEncodeTiled refused the map: %s (CUresult %d) (rank %u, dtype %d, swizzle "
                               "%d, interleave %d; %s)%s",
                               cg_curesult_name_(r), (int)r, desc->rank, (int)desc->dtype, (int)desc->swizzle,
                               (int)desc->interleave, args,
                               desc->interleave != CG_TENSOR_INTERLEAVE_NONE
                                   ? ". Interleaved layout: cgc checked the rules the driver documents for it (rank "
                                     "3..5, 32-byte address and strides and 32-byte swizzle for the 32-byte "
                                     "interleave, box 1..256); the driver's limits on an interleaved box beyond "
                                     "those are not documented"
                                   : "");
    }
    memcpy(out, &tmp, sizeof tmp);
    return cg_status_ok_();
}

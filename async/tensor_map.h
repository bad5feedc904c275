/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * async/tensor_map.h — the tensor map (TMA descriptor) that the tensor copies
 * of async/tensor.h read, and the host call that builds one.
 *
 *   cg_tensor_map_desc_t d = CG_TENSOR_MAP_DESC_INIT;
 *   d.dtype = CG_TENSOR_F32;  d.rank = 2;  d.global_address = dev_ptr;
 *   d.shape[0] = width;  d.shape[1] = height;        (dimension 0 is innermost)
 *   d.box[0] = 32;  d.box[1] = 32;                   (the tile one copy moves)
 *   cg_tensor_map_t map;                             (aligned by its type)
 *   cg_status_t st = cg_tensor_map_encode(&map, &d);
 *   kernel<<<g, b>>>(map);   with   __global__ void kernel(const __grid_constant__ cg_tensor_map_t map)
 *
 * cg_tensor_map_encode checks every rule cuTensorMapEncodeTiled documents
 * (CUDA 13.0 cuda.h) itself, so each mistake gets its own status and
 * cg_last_error_detail() names the field and its value; then it calls the
 * driver's cuTensorMapEncodeTiled, found at run time through
 * cudaGetDriverEntryPointByVersion (no -lcuda). `*out` is written only on
 * success.
 *
 * Where the map may live (PTX ISA, tensormap operands): a kernel parameter
 * declared `const __grid_constant__ cg_tensor_map_t` (the usual way: pass it by
 * value; the copies take its address), or const / global memory. A map that a
 * kernel reads from global memory after the host or another kernel changed it
 * needs cg_tensor_map_fence_acquire (async/tensor.h) before the first copy
 * that uses it; never a map in shared or local memory, or a copy of the
 * parameter in a local variable.
 */
#ifndef CG_ASYNC_TENSOR_MAP_H
#define CG_ASYNC_TENSOR_MAP_H

#include "../base/config.h"
#include "../base/status.h"

/* The map: 128 opaque bytes laid out exactly as the driver's CUtensorMap
 * (tensor_map.c checks size and alignment at build time), so a CUtensorMap
 * built elsewhere can be copied into one. The hardware needs 64-byte
 * alignment; the type asks for 128, as CUtensorMap does, so the two are
 * interchangeable in structs and kernel parameters. */
#if defined(__cplusplus)
#define CG_TENSOR_MAP_ALIGN_ alignas(128)
#else
#define CG_TENSOR_MAP_ALIGN_ _Alignas(128)
#endif
typedef struct cg_tensor_map {
    CG_TENSOR_MAP_ALIGN_ uint64_t _opaque[16];
} cg_tensor_map_t;

/* Element types (CUtensorMapDataType plus one: 0 means "not set", an error),
 * grouped by element size. */
/* clang-format off */
typedef enum cg_tensor_dtype {
    CG_TENSOR_DTYPE_UNSET = 0,
    CG_TENSOR_U8 = 1,                                                                /* 1 byte */
    CG_TENSOR_U16 = 2, CG_TENSOR_F16 = 7, CG_TENSOR_BF16 = 10,                       /* 2 bytes */
    CG_TENSOR_U32 = 3, CG_TENSOR_I32 = 4, CG_TENSOR_F32 = 8, CG_TENSOR_F32_FTZ = 11, /* 4 bytes */
    CG_TENSOR_TF32 = 12, CG_TENSOR_TF32_FTZ = 13,                                    /* 4 bytes */
    CG_TENSOR_U64 = 5, CG_TENSOR_I64 = 6, CG_TENSOR_F64 = 9,                         /* 8 bytes */
} cg_tensor_dtype_t;
/* clang-format on */

/* Shared-memory swizzle: 16-byte chunks of each box row are permuted within
 * a span of 32, 64 or 128 bytes (0 = none). The box's inner row
 * (box[0] * element size) must fit in the span. */
typedef enum cg_tensor_swizzle {
    CG_TENSOR_SWIZZLE_NONE = 0,
    CG_TENSOR_SWIZZLE_32B = 1,
    CG_TENSOR_SWIZZLE_64B = 2,
    CG_TENSOR_SWIZZLE_128B = 3,
} cg_tensor_swizzle_t;

/* Interleaved layouts (NC/8HWC8 with 16 B, NC/16HWC16 with 32 B); rank >= 3. */
typedef enum cg_tensor_interleave {
    CG_TENSOR_INTERLEAVE_NONE = 0,
    CG_TENSOR_INTERLEAVE_16B = 1,
    CG_TENSOR_INTERLEAVE_32B = 2,
} cg_tensor_interleave_t;

/* The granularity at which L2 fills from DRAM for these copies. */
typedef enum cg_tensor_l2_promotion {
    CG_TENSOR_L2_NONE = 0,
    CG_TENSOR_L2_64B = 1,
    CG_TENSOR_L2_128B = 2,
    CG_TENSOR_L2_256B = 3,
} cg_tensor_l2_promotion_t;

/* What a load returns for elements outside the tensor: zero, or (floating
 * point types only) a NaN that FMA units read as zero. Stores skip them. */
typedef enum cg_tensor_oob_fill {
    CG_TENSOR_OOB_ZERO = 0,
    CG_TENSOR_OOB_NAN = 1,
} cg_tensor_oob_fill_t;

#define CG_TENSOR_MAX_RANK 5
#define CG_TENSOR_MAX_BOX 256 /* elements per box dimension */

/* What a tensor map describes. Zero means the default where a field has one;
 * fields are only ever appended. Dimension 0 is the innermost (contiguous).
 *   dtype           element type (required)
 *   rank            1..5 (3..5 with interleave)
 *   global_address  the tensor's first element in device memory, 16-byte
 *                   aligned (32 with CG_TENSOR_INTERLEAVE_32B)
 *   shape[i]        elements along dimension i, 1..2^32 (i < rank)
 *   stride_bytes[i] bytes from one index of dimension i+1 to the next
 *                   (i < rank-1); 0 = packed (shape[0] * element size, then
 *                   stride_bytes[i-1] * shape[i]). Multiples of 16 (32 with
 *                   32-byte interleave), below 2^40, and at least what the
 *                   dimension below spans.
 *   box[i]          elements one copy moves along dimension i, 1..256; the
 *                   inner row box[0] * element size a multiple of 16 bytes
 *                   (without interleave) and no wider than the swizzle span
 *   element_stride[i]  0 or 1 = every element; 2..8 = every n-th (the copy
 *                   moves ceil(box[i] / n) elements; ignored for dimension 0
 *                   without interleave)
 *   swizzle, interleave, l2_promotion, oob_fill   see the enums; 0 = none /
 *                   none / none / zero fill. */
typedef struct cg_tensor_map_desc {
    cg_tensor_dtype_t dtype;
    uint32_t rank;
    void *global_address;
    uint64_t shape[CG_TENSOR_MAX_RANK];
    uint64_t stride_bytes[CG_TENSOR_MAX_RANK - 1];
    uint32_t box[CG_TENSOR_MAX_RANK];
    uint32_t element_stride[CG_TENSOR_MAX_RANK];
    cg_tensor_swizzle_t swizzle;
    cg_tensor_interleave_t interleave;
    cg_tensor_l2_promotion_t l2_promotion;
    cg_tensor_oob_fill_t oob_fill;
} cg_tensor_map_desc_t;

/* Every field zero: set dtype, rank, global_address, shape and box after it. */
#define CG_TENSOR_MAP_DESC_INIT                                                                         \
    {(cg_tensor_dtype_t)0, 0u, NULL, {0u, 0u, 0u, 0u, 0u}, {0u, 0u, 0u, 0u}, {0u, 0u, 0u, 0u, 0u}, \
     {0u, 0u, 0u, 0u, 0u}, CG_TENSOR_SWIZZLE_NONE, CG_TENSOR_INTERLEAVE_NONE, CG_TENSOR_L2_NONE,      \
     CG_TENSOR_OOB_ZERO}

#if CG_HOST_API
CG_EXTERN_C_BEGIN

/* Bytes per element of a dtype; 0 for a value outside cg_tensor_dtype_t. */
uint32_t cg_tensor_dtype_size(cg_tensor_dtype_t dtype);

/* Builds *out from *desc. Statuses, checked in this order, each with a
 * detail naming the field and value ("box[1] = 300 is outside 1..256"):
 *   CG_ERROR_INVALID_ARGUMENT       out or desc is NULL
 *   CG_ERROR_TENSOR_ALIGNMENT       out not 64-byte aligned; global_address
 *                                   null or misaligned
 *   CG_ERROR_TENSOR_DTYPE, _RANK, _INTERLEAVE, _SWIZZLE, _OPTION, _SHAPE,
 *   _STRIDE, _BOX, _ELEMENT_STRIDE  as base/status.h says
 *   CG_ERROR_NO_DEVICE              no CUDA driver or device to encode with
 *   CG_ERROR_NOT_SUPPORTED          the driver has no cuTensorMapEncodeTiled
 *   CG_ERROR_CUDA                   the driver refused the map (its CUresult
 *                                   in the detail)
 * On any failure *out is left as it was and the CUDA runtime's last error is
 * cleared (a later cudaGetLastError() of the caller does not see it). */
cg_status_t cg_tensor_map_encode(cg_tensor_map_t *out, const cg_tensor_map_desc_t *desc);

CG_EXTERN_C_END
#endif /* CG_HOST_API */

#endif /* CG_ASYNC_TENSOR_MAP_H */

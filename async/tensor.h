/*
 * async/tensor.h — tensor (TMA) copies: boxes of a 1-D to 5-D tensor moved
 * between global and shared memory by the bulk copy engine, described by a
 * tensor map that the host builds.
 *
 * Host (plain C):
 *   cg_tensor_desc_t d = {.base = ptr, .dtype = CG_TENSOR_FLOAT32, .rank = 2,
 *                         .dims = {W, H}, .box = {32, 8}};   // zero fields: defaults
 *   cg_tensor_map_t map;
 *   cg_status_t st = cg_tensor_map_encode(&map, &d);         // every bad input: its own status
 *   kernel<<<...>>>(map);                                    // by value, as a __grid_constant__ parameter
 *
 * Device (one thread issues; the copies are asynchronous):
 *   __global__ void kernel(const __grid_constant__ cg_tensor_map_t map) {
 *       ... cg_tensor_load_2d(smem, &map, x, y, &mbar);       // completes box bytes on mbar
 *       ... cg_tensor_store_2d(&map, x, y, smem); cg_bulk_commit_group(); cg_bulk_wait_group(0);
 *   }
 *
 * Coordinates are element indices, innermost dimension first (c0 runs along
 * the contiguous dimension), signed: a box may hang over any edge of the
 * tensor, even start before it. A load fills the box elements outside the
 * tensor with zeros (or NaN for floats with .oob_nan) and always delivers,
 * and completes on the mbarrier, the box's full size in bytes:
 *   box bytes = box[0] * element size * prod_{i>0} ceil(box[i] / element_strides[i]).
 * A store writes only the elements inside the tensor.
 *
 * Shared memory layout of a box: dense, innermost dimension first, rows of
 * box[0] * element size bytes. With a swizzle mode of span S (32, 64 or 128
 * bytes; the inner row may be at most S bytes) and rows of exactly S bytes
 * (the layout the tests check), the 16-byte chunk at byte offset o of the
 * box is stored at o ^ (((o >> 7) & (S/16 - 1)) << 4): the chunk index is
 * XORed with bits 7.. of the offset (CUTLASS's Swizzle<1|2|3, 4, 3>). The
 * engine computes it from shared-memory address bits, so the formula holds
 * for a box whose address is aligned to S * 8 bytes (256, 512, 1024).
 *
 * Requirements (PTX ISA, cp.async.bulk.tensor; the debug build checks the
 * address): the shared-memory box address 128-byte aligned; the tensor map
 * in .param (a __grid_constant__ kernel parameter), .const or .global memory
 * and not modified while copies use it; a load's mbarrier in the CTA whose
 * shared memory receives the box; bytes per mbarrier phase below 2^20.
 *
 * Memory order: as for the 1-D bulk copies (async/bulk.h, async/fence.h):
 * a load's writes are visible to threads that observe its mbarrier phase
 * complete (try_wait.acquire); generic writes a store will read need
 * cg_fence_proxy_async_smem() by each writer and a barrier before the issuing
 * thread's store, and the store's global writes are visible to others after
 * cg_bulk_wait_group(0) and the end of the kernel (or a release fence after
 * fence.proxy.async.global, for readers in the same kernel).
 */
#ifndef CG_ASYNC_TENSOR_H
#define CG_ASYNC_TENSOR_H

#include "async/bulk.h"
#include "async/fence.h"
#include "barrier/mbarrier.h"
#include "cg/config.h"
#include "cg/status.h"
#include "dsmem/address.h"

/* A tensor map: the 128-byte, 64-byte aligned descriptor the bulk copy
 * engine reads (the driver's CUtensorMap). Opaque: build it with
 * cg_tensor_map_encode. */
#if defined(__cplusplus)
#define CG_ALIGNAS_(n) alignas(n)
#else
#define CG_ALIGNAS_(n) _Alignas(n)
#endif
typedef struct cg_tensor_map {
    CG_ALIGNAS_(64) uint64_t opaque_[16];
} cg_tensor_map_t;

/* Element types (the same values as CUtensorMapDataType). */
typedef enum cg_tensor_dtype {
    CG_TENSOR_UINT8 = 0,
    CG_TENSOR_UINT16 = 1,
    CG_TENSOR_UINT32 = 2,
    CG_TENSOR_INT32 = 3,
    CG_TENSOR_UINT64 = 4,
    CG_TENSOR_INT64 = 5,
    CG_TENSOR_FLOAT16 = 6,
    CG_TENSOR_FLOAT32 = 7,
    CG_TENSOR_FLOAT64 = 8,
    CG_TENSOR_BFLOAT16 = 9,
    CG_TENSOR_FLOAT32_FTZ = 10,
    CG_TENSOR_TFLOAT32 = 11,
    CG_TENSOR_TFLOAT32_FTZ = 12
} cg_tensor_dtype_t;

/* Shared-memory swizzle of a box (the same values as CUtensorMapSwizzle). */
typedef enum cg_tensor_swizzle {
    CG_TENSOR_SWIZZLE_NONE = 0,
    CG_TENSOR_SWIZZLE_32B = 1,
    CG_TENSOR_SWIZZLE_64B = 2,
    CG_TENSOR_SWIZZLE_128B = 3
} cg_tensor_swizzle_t;

/* Limits of a tiled tensor map (CUDA driver, cuTensorMapEncodeTiled). */
#define CG_TENSOR_MAX_RANK 5u
#define CG_TENSOR_MAX_BOX 256u           /* elements per box dimension */
#define CG_TENSOR_MAX_ELEMENT_STRIDE 8u
#define CG_TENSOR_MAX_DIM (1ull << 32)   /* elements per tensor dimension */
#define CG_TENSOR_MAX_STRIDE (1ull << 40) /* bytes, exclusive */

/* What a tensor map describes. Zero fields take the default noted. */
typedef struct cg_tensor_desc {
    const void *base;                  /* global address of element (0, 0, ...), 16-byte aligned */
    cg_tensor_dtype_t dtype;           /* element type (default CG_TENSOR_UINT8 = 0) */
    uint32_t rank;                     /* dimensions, 1 .. 5 */
    uint64_t dims[5];                  /* elements per dimension, innermost first, 1 .. 2^32 */
    uint64_t strides[4];               /* bytes from index i to i + 1 of dimension k + 1 (k = 0 .. rank-2):
                                          multiples of 16, below 2^40; 0 = packed (dims[k] elements
                                          of the dimension below, times its stride) */
    uint32_t box[5];                   /* box elements per dimension, 1 .. 256; box[0] * element
                                          size a multiple of 16 bytes */
    uint32_t element_strides[5];       /* traversal step per dimension, 1 .. 8 (0 = 1; entry 0 is
                                          ignored by the hardware) */
    cg_tensor_swizzle_t swizzle;       /* default none; 32/64/128B need box[0] * size <= 32/64/128 */
    uint32_t l2_promotion;             /* L2 fetch granularity in bytes: 0 (none), 64, 128, 256 */
    uint32_t oob_nan;                  /* 1: out-of-tensor float elements load as NaN (default zero) */
} cg_tensor_desc_t;

CG_EXTERN_C_BEGIN
/* Checks every field of `desc` (each kind of mistake returns its own
 * status, before the driver is asked) and builds the tensor map through the
 * driver's cuTensorMapEncodeTiled, found with cudaGetDriverEntryPointByVersion
 * (no link against libcuda). Statuses: CG_SUCCESS; CG_ERROR_INVALID_ARGUMENT
 * (a null pointer); CG_ERROR_TENSOR_RANK, _TYPE, _ALIGNMENT, _DIM, _STRIDE,
 * _BOX, _BOX_ROW, _ELEMENT_STRIDE, _SWIZZLE, _OPTION; CG_ERROR_DRIVER when
 * the driver cannot be reached or refuses the map. */
cg_status_t cg_tensor_map_encode(cg_tensor_map_t *map, const cg_tensor_desc_t *desc);

/* Bytes of one element of `dtype` (0 for an unknown type). */
uint32_t cg_tensor_dtype_size(cg_tensor_dtype_t dtype);

/* Bytes a load of one box of `desc` delivers (and completes on its
 * mbarrier); 0 if desc is invalid. */
uint64_t cg_tensor_box_bytes(const cg_tensor_desc_t *desc);
CG_EXTERN_C_END

#if CG_DEVICE_CODE_VISIBLE

#if CG_DEBUG
/* Debug build: tensor copies need a 128-byte aligned shared-memory box. */
CG_DEVICE void cg_tensor_check_smem_(const char *what, const void *p)
{
    if (((uintptr_t)p & 127u) != 0 || !__isShared(p)) {
        printf("cgc: %s(shared %p): the box's shared-memory address must be 128-byte aligned shared memory "
               "(block %d,%d,%d thread %d,%d,%d)\n",
               what, p, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);
        __trap();
    }
}
#define CG_TENSOR_CHECK_SMEM_(what, p) cg_tensor_check_smem_((what), (p))
#else
#define CG_TENSOR_CHECK_SMEM_(what, p) ((void)0)
#endif

/* ------------------------------------------------------------------------ */
/* Loads: global -> shared, complete on an mbarrier                          */
/* ------------------------------------------------------------------------ */

/* cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [dst], [tmap, {c0}], [mbar];
 * PTX ISA 8.0, sm_90. One thread: the box at (c0) of the tensor lands at dst
 * (this CTA's shared memory); the copy completes the box's bytes on mbar. */
CG_DEVICE void cg_tensor_load_1d(void *dst, const cg_tensor_map_t *map, int32_t c0, cg_mbarrier_t *mbar)
{
    CG_TENSOR_CHECK_SMEM_("cg_tensor_load_1d", dst);
#if CG_ARCH_HAS_SM90
    asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                 "[%0], [%1, {%3}], [%2];" ::"r"(cg_smem_addr(dst)),
                 "l"(map), "r"(cg_smem_addr(mbar)), "r"(c0)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#else
    (void)dst;
    (void)map;
    (void)mbar;
    (void)c0;
#endif
}

/* cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [dst], [tmap, {c0, c1}], [mbar];
 * PTX ISA 8.0, sm_90. One thread: the box at (c0, ...) of the tensor lands at dst
 * (this CTA's shared memory); the copy completes the box's bytes on mbar. */
CG_DEVICE void cg_tensor_load_2d(void *dst, const cg_tensor_map_t *map, int32_t c0, int32_t c1, cg_mbarrier_t *mbar)
{
    CG_TENSOR_CHECK_SMEM_("cg_tensor_load_2d", dst);
#if CG_ARCH_HAS_SM90
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                 "[%0], [%1, {%3, %4}], [%2];" ::"r"(cg_smem_addr(dst)),
                 "l"(map), "r"(cg_smem_addr(mbar)), "r"(c0), "r"(c1)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#else
    (void)dst;
    (void)map;
    (void)mbar;
    (void)c0;
    (void)c1;
#endif
}

/* cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [dst], [tmap, {c0, c1, c2}], [mbar];
 * PTX ISA 8.0, sm_90. One thread: the box at (c0, ...) of the tensor lands at dst
 * (this CTA's shared memory); the copy completes the box's bytes on mbar. */
CG_DEVICE void cg_tensor_load_3d(void *dst, const cg_tensor_map_t *map, int32_t c0, int32_t c1, int32_t c2,
                                 cg_mbarrier_t *mbar)
{
    CG_TENSOR_CHECK_SMEM_("cg_tensor_load_3d", dst);
#if CG_ARCH_HAS_SM90
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                 "[%0], [%1, {%3, %4, %5}], [%2];" ::"r"(cg_smem_addr(dst)),
                 "l"(map), "r"(cg_smem_addr(mbar)), "r"(c0), "r"(c1), "r"(c2)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#else
    (void)dst;
    (void)map;
    (void)mbar;
    (void)c0;
    (void)c1;
    (void)c2;
#endif
}

/* cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [dst], [tmap, {c0, c1, c2, c3}], [mbar];
 * PTX ISA 8.0, sm_90. One thread: the box at (c0, ...) of the tensor lands at dst
 * (this CTA's shared memory); the copy completes the box's bytes on mbar. */
CG_DEVICE void cg_tensor_load_4d(void *dst, const cg_tensor_map_t *map, int32_t c0, int32_t c1, int32_t c2,
                                 int32_t c3, cg_mbarrier_t *mbar)
{
    CG_TENSOR_CHECK_SMEM_("cg_tensor_load_4d", dst);
#if CG_ARCH_HAS_SM90
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                 "[%0], [%1, {%3, %4, %5, %6}], [%2];" ::"r"(cg_smem_addr(dst)),
                 "l"(map), "r"(cg_smem_addr(mbar)), "r"(c0), "r"(c1), "r"(c2), "r"(c3)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#else
    (void)dst;
    (void)map;
    (void)mbar;
    (void)c0;
    (void)c1;
    (void)c2;
    (void)c3;
#endif
}

/* cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [dst], [tmap, {c0, c1, c2, c3, c4}], [mbar];
 * PTX ISA 8.0, sm_90. One thread: the box at (c0, ...) of the tensor lands at dst
 * (this CTA's shared memory); the copy completes the box's bytes on mbar. */
CG_DEVICE void cg_tensor_load_5d(void *dst, const cg_tensor_map_t *map, int32_t c0, int32_t c1, int32_t c2,
                                 int32_t c3, int32_t c4, cg_mbarrier_t *mbar)
{
    CG_TENSOR_CHECK_SMEM_("cg_tensor_load_5d", dst);
#if CG_ARCH_HAS_SM90
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                 "[%0], [%1, {%3, %4, %5, %6, %7}], [%2];" ::"r"(cg_smem_addr(dst)),
                 "l"(map), "r"(cg_smem_addr(mbar)), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#else
    (void)dst;
    (void)map;
    (void)mbar;
    (void)c0;
    (void)c1;
    (void)c2;
    (void)c3;
    (void)c4;
#endif
}

/* ------------------------------------------------------------------------ */
/* Multicast loads: one box into several CTAs of the cluster (sm_90a)        */
/* ------------------------------------------------------------------------ */

/* cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [dst], [tmap, {...}], [mbar], ctaMask;
 * PTX ISA 8.0, sm_90a. One thread: the box lands at dst's offset in every CTA
 * of the cluster whose bit is set in cta_mask, each completing the box's
 * bytes on its own mbarrier at mbar's offset. */
CG_DEVICE void cg_tensor_load_1d_multicast(void *dst, const cg_tensor_map_t *map, int32_t c0, cg_mbarrier_t *mbar,
                                            uint16_t cta_mask)
{
    CG_TENSOR_CHECK_SMEM_("cg_tensor_load_1d_multicast", dst);
#if CG_ARCH_HAS_MULTICAST
    asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster "
                 "[%0], [%1, {%4}], [%2], %3;" ::"r"(cg_smem_addr(dst)),
                 "l"(map), "r"(cg_smem_addr(mbar)), "h"(cta_mask), "r"(c0)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    cgc_error__bulk_multicast_needs_an_arch_specific_target__compile_for_sm_90a();
#else
    (void)dst;
    (void)map;
    (void)mbar;
    (void)cta_mask;
    (void)c0;
#endif
}

/* cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [dst], [tmap, {...}], [mbar], ctaMask;
 * PTX ISA 8.0, sm_90a. One thread: the box lands at dst's offset in every CTA
 * of the cluster whose bit is set in cta_mask, each completing the box's
 * bytes on its own mbarrier at mbar's offset. */
CG_DEVICE void cg_tensor_load_2d_multicast(void *dst, const cg_tensor_map_t *map, int32_t c0, int32_t c1,
                                           cg_mbarrier_t *mbar,
                                            uint16_t cta_mask)
{
    CG_TENSOR_CHECK_SMEM_("cg_tensor_load_2d_multicast", dst);
#if CG_ARCH_HAS_MULTICAST
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster "
                 "[%0], [%1, {%4, %5}], [%2], %3;" ::"r"(cg_smem_addr(dst)),
                 "l"(map), "r"(cg_smem_addr(mbar)), "h"(cta_mask), "r"(c0), "r"(c1)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    cgc_error__bulk_multicast_needs_an_arch_specific_target__compile_for_sm_90a();
#else
    (void)dst;
    (void)map;
    (void)mbar;
    (void)cta_mask;
    (void)c0;
    (void)c1;
#endif
}

/* cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [dst], [tmap, {...}], [mbar], ctaMask;
 * PTX ISA 8.0, sm_90a. One thread: the box lands at dst's offset in every CTA
 * of the cluster whose bit is set in cta_mask, each completing the box's
 * bytes on its own mbarrier at mbar's offset. */
CG_DEVICE void cg_tensor_load_3d_multicast(void *dst, const cg_tensor_map_t *map, int32_t c0, int32_t c1,
                                           int32_t c2, cg_mbarrier_t *mbar,
                                            uint16_t cta_mask)
{
    CG_TENSOR_CHECK_SMEM_("cg_tensor_load_3d_multicast", dst);
#if CG_ARCH_HAS_MULTICAST
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster "
                 "[%0], [%1, {%4, %5, %6}], [%2], %3;" ::"r"(cg_smem_addr(dst)),
                 "l"(map), "r"(cg_smem_addr(mbar)), "h"(cta_mask), "r"(c0), "r"(c1), "r"(c2)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    cgc_error__bulk_multicast_needs_an_arch_specific_target__compile_for_sm_90a();
#else
    (void)dst;
    (void)map;
    (void)mbar;
    (void)cta_mask;
    (void)c0;
    (void)c1;
    (void)c2;
#endif
}

/* cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [dst], [tmap, {...}], [mbar], ctaMask;
 * PTX ISA 8.0, sm_90a. One thread: the box lands at dst's offset in every CTA
 * of the cluster whose bit is set in cta_mask, each completing the box's
 * bytes on its own mbarrier at mbar's offset. */
CG_DEVICE void cg_tensor_load_4d_multicast(void *dst, const cg_tensor_map_t *map, int32_t c0, int32_t c1,
                                           int32_t c2, int32_t c3, cg_mbarrier_t *mbar,
                                            uint16_t cta_mask)
{
    CG_TENSOR_CHECK_SMEM_("cg_tensor_load_4d_multicast", dst);
#if CG_ARCH_HAS_MULTICAST
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster "
                 "[%0], [%1, {%4, %5, %6, %7}], [%2], %3;" ::"r"(cg_smem_addr(dst)),
                 "l"(map), "r"(cg_smem_addr(mbar)), "h"(cta_mask), "r"(c0), "r"(c1), "r"(c2), "r"(c3)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    cgc_error__bulk_multicast_needs_an_arch_specific_target__compile_for_sm_90a();
#else
    (void)dst;
    (void)map;
    (void)mbar;
    (void)cta_mask;
    (void)c0;
    (void)c1;
    (void)c2;
    (void)c3;
#endif
}

/* cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [dst], [tmap, {...}], [mbar], ctaMask;
 * PTX ISA 8.0, sm_90a. One thread: the box lands at dst's offset in every CTA
 * of the cluster whose bit is set in cta_mask, each completing the box's
 * bytes on its own mbarrier at mbar's offset. */
CG_DEVICE void cg_tensor_load_5d_multicast(void *dst, const cg_tensor_map_t *map, int32_t c0, int32_t c1,
                                           int32_t c2, int32_t c3, int32_t c4, cg_mbarrier_t *mbar,
                                            uint16_t cta_mask)
{
    CG_TENSOR_CHECK_SMEM_("cg_tensor_load_5d_multicast", dst);
#if CG_ARCH_HAS_MULTICAST
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster "
                 "[%0], [%1, {%4, %5, %6, %7, %8}], [%2], %3;" ::"r"(cg_smem_addr(dst)),
                 "l"(map), "r"(cg_smem_addr(mbar)), "h"(cta_mask), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    cgc_error__bulk_multicast_needs_an_arch_specific_target__compile_for_sm_90a();
#else
    (void)dst;
    (void)map;
    (void)mbar;
    (void)cta_mask;
    (void)c0;
    (void)c1;
    (void)c2;
    (void)c3;
    (void)c4;
#endif
}

/* ------------------------------------------------------------------------ */
/* Stores: shared -> global, complete through bulk async-groups              */
/* ------------------------------------------------------------------------ */

/* cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [tmap, {...}], [src];
 * PTX ISA 8.0, sm_90. One thread: the box at src (this CTA's shared memory)
 * is stored to the tensor at (c0); elements outside the tensor are not
 * written. Commit and wait as for cg_bulk_store (cg_bulk_commit_group, then
 * cg_bulk_wait_group_read / cg_bulk_wait_group); writers of src fence first
 * (cg_fence_proxy_async_smem) and synchronize with this thread. */
CG_DEVICE void cg_tensor_store_1d(const cg_tensor_map_t *map, int32_t c0, const void *src)
{
    CG_TENSOR_CHECK_SMEM_("cg_tensor_store_1d", src);
#if CG_ARCH_HAS_SM90
    asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group "
                 "[%0, {%2}], [%1];" ::"l"(map), "r"(cg_smem_addr(src)),
                 "r"(c0)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#else
    (void)map;
    (void)src;
    (void)c0;
#endif
}

/* cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [tmap, {...}], [src];
 * PTX ISA 8.0, sm_90. One thread: the box at src (this CTA's shared memory)
 * is stored to the tensor at (c0, ...); elements outside the tensor are not
 * written. Commit and wait as for cg_bulk_store (cg_bulk_commit_group, then
 * cg_bulk_wait_group_read / cg_bulk_wait_group); writers of src fence first
 * (cg_fence_proxy_async_smem) and synchronize with this thread. */
CG_DEVICE void cg_tensor_store_2d(const cg_tensor_map_t *map, int32_t c0, int32_t c1, const void *src)
{
    CG_TENSOR_CHECK_SMEM_("cg_tensor_store_2d", src);
#if CG_ARCH_HAS_SM90
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group "
                 "[%0, {%2, %3}], [%1];" ::"l"(map), "r"(cg_smem_addr(src)),
                 "r"(c0), "r"(c1)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#else
    (void)map;
    (void)src;
    (void)c0;
    (void)c1;
#endif
}

/* cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [tmap, {...}], [src];
 * PTX ISA 8.0, sm_90. One thread: the box at src (this CTA's shared memory)
 * is stored to the tensor at (c0, ...); elements outside the tensor are not
 * written. Commit and wait as for cg_bulk_store (cg_bulk_commit_group, then
 * cg_bulk_wait_group_read / cg_bulk_wait_group); writers of src fence first
 * (cg_fence_proxy_async_smem) and synchronize with this thread. */
CG_DEVICE void cg_tensor_store_3d(const cg_tensor_map_t *map, int32_t c0, int32_t c1, int32_t c2, const void *src)
{
    CG_TENSOR_CHECK_SMEM_("cg_tensor_store_3d", src);
#if CG_ARCH_HAS_SM90
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group "
                 "[%0, {%2, %3, %4}], [%1];" ::"l"(map), "r"(cg_smem_addr(src)),
                 "r"(c0), "r"(c1), "r"(c2)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#else
    (void)map;
    (void)src;
    (void)c0;
    (void)c1;
    (void)c2;
#endif
}

/* cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group [tmap, {...}], [src];
 * PTX ISA 8.0, sm_90. One thread: the box at src (this CTA's shared memory)
 * is stored to the tensor at (c0, ...); elements outside the tensor are not
 * written. Commit and wait as for cg_bulk_store (cg_bulk_commit_group, then
 * cg_bulk_wait_group_read / cg_bulk_wait_group); writers of src fence first
 * (cg_fence_proxy_async_smem) and synchronize with this thread. */
CG_DEVICE void cg_tensor_store_4d(const cg_tensor_map_t *map, int32_t c0, int32_t c1, int32_t c2, int32_t c3,
                                  const void *src)
{
    CG_TENSOR_CHECK_SMEM_("cg_tensor_store_4d", src);
#if CG_ARCH_HAS_SM90
    asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group "
                 "[%0, {%2, %3, %4, %5}], [%1];" ::"l"(map), "r"(cg_smem_addr(src)),
                 "r"(c0), "r"(c1), "r"(c2), "r"(c3)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#else
    (void)map;
    (void)src;
    (void)c0;
    (void)c1;
    (void)c2;
    (void)c3;
#endif
}

/* cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group [tmap, {...}], [src];
 * PTX ISA 8.0, sm_90. One thread: the box at src (this CTA's shared memory)
 * is stored to the tensor at (c0, ...); elements outside the tensor are not
 * written. Commit and wait as for cg_bulk_store (cg_bulk_commit_group, then
 * cg_bulk_wait_group_read / cg_bulk_wait_group); writers of src fence first
 * (cg_fence_proxy_async_smem) and synchronize with this thread. */
CG_DEVICE void cg_tensor_store_5d(const cg_tensor_map_t *map, int32_t c0, int32_t c1, int32_t c2, int32_t c3,
                                  int32_t c4, const void *src)
{
    CG_TENSOR_CHECK_SMEM_("cg_tensor_store_5d", src);
#if CG_ARCH_HAS_SM90
    asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group "
                 "[%0, {%2, %3, %4, %5, %6}], [%1];" ::"l"(map), "r"(cg_smem_addr(src)),
                 "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#else
    (void)map;
    (void)src;
    (void)c0;
    (void)c1;
    (void)c2;
    (void)c3;
    (void)c4;
#endif
}

/* ------------------------------------------------------------------------ */
/* Prefetch into L2                                                          */
/* ------------------------------------------------------------------------ */

/* prefetch.tensormap [a];   PTX ISA 8.0, sm_90.
 * A hint: fetch the tensor map itself (generic address of a
 * __grid_constant__ parameter, .const or .global) ahead of the first copy. */
CG_DEVICE void cg_tensor_map_prefetch(const cg_tensor_map_t *map)
{
#if CG_ARCH_HAS_SM90
    asm volatile("prefetch.tensormap [%0];" ::"l"(map));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#else
    (void)map;
#endif
}

/* cp.async.bulk.prefetch.tensor.1d.L2.global.tile [tmap, {...}];   PTX ISA 8.0, sm_90.
 * A hint: bring the box at (c0) into L2; no completion, no ordering. */
CG_DEVICE void cg_tensor_prefetch_1d(const cg_tensor_map_t *map, int32_t c0)
{
#if CG_ARCH_HAS_SM90
    asm volatile("cp.async.bulk.prefetch.tensor.1d.L2.global.tile "
                 "[%0, {%1}];" ::"l"(map), "r"(c0));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#else
    (void)map;
    (void)c0;
#endif
}

/* cp.async.bulk.prefetch.tensor.2d.L2.global.tile [tmap, {...}];   PTX ISA 8.0, sm_90.
 * A hint: bring the box at (c0, ...) into L2; no completion, no ordering. */
CG_DEVICE void cg_tensor_prefetch_2d(const cg_tensor_map_t *map, int32_t c0, int32_t c1)
{
#if CG_ARCH_HAS_SM90
    asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile "
                 "[%0, {%1, %2}];" ::"l"(map), "r"(c0), "r"(c1));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#else
    (void)map;
    (void)c0;
    (void)c1;
#endif
}

/* cp.async.bulk.prefetch.tensor.3d.L2.global.tile [tmap, {...}];   PTX ISA 8.0, sm_90.
 * A hint: bring the box at (c0, ...) into L2; no completion, no ordering. */
CG_DEVICE void cg_tensor_prefetch_3d(const cg_tensor_map_t *map, int32_t c0, int32_t c1, int32_t c2)
{
#if CG_ARCH_HAS_SM90
    asm volatile("cp.async.bulk.prefetch.tensor.3d.L2.global.tile "
                 "[%0, {%1, %2, %3}];" ::"l"(map), "r"(c0), "r"(c1), "r"(c2));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#else
    (void)map;
    (void)c0;
    (void)c1;
    (void)c2;
#endif
}

/* cp.async.bulk.prefetch.tensor.4d.L2.global.tile [tmap, {...}];   PTX ISA 8.0, sm_90.
 * A hint: bring the box at (c0, ...) into L2; no completion, no ordering. */
CG_DEVICE void cg_tensor_prefetch_4d(const cg_tensor_map_t *map, int32_t c0, int32_t c1, int32_t c2, int32_t c3)
{
#if CG_ARCH_HAS_SM90
    asm volatile("cp.async.bulk.prefetch.tensor.4d.L2.global.tile "
                 "[%0, {%1, %2, %3, %4}];" ::"l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(c3));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#else
    (void)map;
    (void)c0;
    (void)c1;
    (void)c2;
    (void)c3;
#endif
}

/* cp.async.bulk.prefetch.tensor.5d.L2.global.tile [tmap, {...}];   PTX ISA 8.0, sm_90.
 * A hint: bring the box at (c0, ...) into L2; no completion, no ordering. */
CG_DEVICE void cg_tensor_prefetch_5d(const cg_tensor_map_t *map, int32_t c0, int32_t c1, int32_t c2,
                                     int32_t c3, int32_t c4)
{
#if CG_ARCH_HAS_SM90
    asm volatile("cp.async.bulk.prefetch.tensor.5d.L2.global.tile "
                 "[%0, {%1, %2, %3, %4, %5}];" ::"l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#else
    (void)map;
    (void)c0;
    (void)c1;
    (void)c2;
    (void)c3;
    (void)c4;
#endif
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_ASYNC_TENSOR_H */

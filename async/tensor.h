/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * async/tensor.h — tensor (TMA) copies of 1-D to 5-D boxes between global
 * memory and shared memory, described by a tensor map (async/tensor_map.h).
 * One call per PTX form; each is issued by ONE thread.
 *
 *   cg_tensor_load_2d(tile, &map, x, y, &mbar)            global -> shared, completes on mbar
 *   cg_tensor_load_multicast_2d(tile, &map, x, y, &mbar, mask)   ... into every CTA in mask
 *   cg_tensor_store_2d(&map, x, y, tile)                  shared -> global, bulk async-group
 *   cg_tensor_prefetch_2d(&map, x, y)                     warm L2 with a box
 *   cg_tensor_load(tile, &map, rank, coords, &mbar)       the same, rank at run time
 *   cg_tensor_map_prefetch(&map)                          warm the descriptor cache
 *   cg_tensor_map_fence_acquire(&map)                     before using a map in global
 *                                                         memory that was just written
 *
 * Coordinates are signed element indices of the box's first element,
 * dimension 0 first (x is the contiguous dimension). A box may hang over any
 * edge of the tensor, negative coordinates included: loads fill the elements
 * outside with the map's OOB fill (zero or NaN), stores skip them.
 * The x coordinate times the element size must be a multiple of 16 bytes
 * (negative ones too). The copy engine does not report a box that breaks
 * the rule in one way: on an H100 a box starting 3 bytes in faulted with
 * "an illegal instruction was encountered" in one kernel (measured
 * 2026-11-24; 0, 16 and -16 bytes work) and, in another (a release build),
 * never completed its bytes, so the wait on its barrier hung. Nothing here
 * refuses such a box in a release build (the map's element size is not
 * readable on the device): a debug build (CG_DEBUG=1) traps at the copy on
 * an odd x (a multiple of 16 bytes for no element size) and, for any other
 * misplaced box, its bounded wait on the barrier reports the barrier and the
 * phase and traps instead of hanging. The tests move swizzled boxes only at multiples of the
 * swizzle span. A store's box must not start before the tensor: on an H100
 * a store at x = -16 bytes (or at (-16, -1)) faults the same way, while one
 * hanging over the end is clipped (measured 2026-11-24); loads take
 * negative coordinates and fill. The clip of a store is 16 bytes coarse in
 * x: a box hanging over the end of a row writes its bytes up to the row's
 * next 16-byte boundary (the row's padding, which a stride that is a
 * multiple of 16 always leaves; measured: a row of 100 bytes got bytes
 * 100..111 written).
 *
 * Completion of loads: like cg_memcpy_async_tx, the box's bytes
 * (box[0] * ... * box[rank-1] * element size, with element strides:
 * the elements actually moved, out-of-bounds ones included) complete on the
 * mbarrier as transaction bytes, so the phase must expect them
 * (cg_mbarrier_arrive_tx / cg_mbarrier_expect_tx, below 2^20 per phase).
 * A waiter that saw the phase complete (acquire) reads the tile with ordinary
 * loads; no fence is needed in that direction.
 *
 * Stores and the async proxy: the engine reads the source tile through the
 * async proxy, so threads that wrote it with ordinary stores must each call
 * cg_fence_proxy_async_smem() (base/fence.h) and then synchronize (block
 * barrier or mbarrier) with the issuing thread before it stores. The issuing
 * thread then commits and waits with async/bulk.h: cg_bulk_commit_group();
 * cg_bulk_wait_group_read(0) before the tile is overwritten;
 * cg_bulk_wait_group(0) before the kernel exits or another thread relies on
 * the global data (plus cg_fence_proxy_async_global() before this thread
 * reads it back with ordinary loads). Reusing a tile for a new load after
 * threads read it: the same fence by the thread that issues the load, after
 * the barrier.
 *
 * The map operand: the address of a `const __grid_constant__ cg_tensor_map_t`
 * kernel parameter (never of a local copy), or of a map in global or
 * constant memory. A map written to global memory by the device, or by the
 * host after earlier kernels used that memory, needs
 * cg_tensor_map_fence_acquire(&map) by each using thread first.
 *
 * Shared memory layout: the box is stored densely, dimension 0 fastest
 * (box[0] * element size bytes per row). dst/src must be 128-byte aligned
 * (checked with CG_DEBUG). With a swizzle of S bytes (32/64/128), the
 * 16-byte chunk at byte offset o of the tile is stored at
 *     o ^ (((o >> 7) % (S / 16)) << 4)
 * (the chunk's index within its S-byte span XOR the 128-byte line number,
 * modulo S / 16). The hardware applies it to shared-memory address bits, so
 * a swizzled tile must be aligned to the pattern's period 8 * S: 256, 512 or
 * 1024 bytes for 32, 64 or 128-byte swizzle.
 *
 * Multicast forms need an arch-specific target (sm_90a), like the 1-D
 * multicast of async/bulk.h; the rest need sm_90.
 */
#ifndef CG_ASYNC_TENSOR_H
#define CG_ASYNC_TENSOR_H

#include "bulk.h"
#include "tensor_map.h"
#include "../barrier/mbarrier.h"
#include "../base/address.h"
#include "../base/config.h"
#include "../base/ptx_form.h"

#if CG_DEVICE_CODE_VISIBLE

/* ------------------------------------------------------------------------ */
/* Debug checks                                                              */
/* ------------------------------------------------------------------------ */

#if CG_DEBUG
/* The debug reports, out of line (base/config.h, CG_REPORT_). */
CG_REPORT_ void cg_tensor_report_tile_(const char *what, const void *smem, const void *map)
{
    printf("cgc: %s(smem %p, map %p): the shared tile must be 128-byte aligned shared memory (swizzled tiles: "
           "256/512/1024 for 32/64/128-byte swizzle) and the tensor map 64-byte aligned (block %d,%d,%d thread "
           "%d)\n",
           what, smem, map, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x);
    __trap();
}
CG_REPORT_ void cg_tensor_report_x_(const char *what, int32_t c0)
{
    printf("cgc: %s: x coordinate %d is odd: x times the element size must be a multiple of 16 bytes, which no "
           "odd x is for any element size (1..8 bytes); such a copy faults or never completes its bytes "
           "(block %d,%d,%d thread %d)\n",
           what, (int)c0, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x);
    __trap();
}
CG_REPORT_ void cg_tensor_report_rank_(const char *what, uint32_t rank)
{
    printf("cgc: %s: rank %u is outside 1..5 (block %d,%d,%d thread %d)\n", what, rank, blockIdx.x, blockIdx.y,
           blockIdx.z, threadIdx.x);
    __trap();
}
/* Traps with a message unless the shared tile is 128-byte aligned shared
 * memory and the map 64-byte aligned. */
CG_DEVICE void cg_tensor_check_(const char *what, const void *smem, const void *map)
{
    if (CG_UNLIKELY_(!__isShared(smem) || ((uintptr_t)smem & 127u) != 0 || ((uintptr_t)map & 63u) != 0))
        cg_tensor_report_tile_(what, smem, map);
}
#define CG_TENSOR_CHECK_(what, smem, map) cg_tensor_check_((what), (smem), (map))
/* The x coordinate: an odd one is a multiple of 16 bytes for no element
 * size (the map's element size is not readable on the device, so this is
 * the part of the rule a debug build can check). */
#define CG_TENSOR_CHECK_X_(what, c0)                                                                                   \
    do {                                                                                                               \
        if (CG_UNLIKELY_(((c0) & 1) != 0))                                                                             \
            cg_tensor_report_x_((what), (c0));                                                                         \
    } while (0)
/* A rank outside 1..5 in the run-time-rank forms. */
#define CG_TENSOR_BAD_RANK_(what, rank) cg_tensor_report_rank_((what), (rank))
#else
#define CG_TENSOR_CHECK_(what, smem, map) ((void)0)
#define CG_TENSOR_CHECK_X_(what, c0) ((void)0)
#define CG_TENSOR_BAD_RANK_(what, rank) ((void)(rank))
#endif

/* ------------------------------------------------------------------------ */
/* The forms                                                                 */
/* ------------------------------------------------------------------------ */

/* One generated function per PTX form (tensor_forms.h); every one is asm
 * volatile with a "memory" clobber. The map operand is a generic address
 * (of a __grid_constant__ parameter, a const or a global map). The loads'
 * and stores' forms (name_<r>d_ptx_) are the unchecked forms inside the
 * public calls below, which check their operands in a debug build first;
 * the other forms are public calls. */
/* The forms: tensor_forms.h, written by tools/ptx/gen.py from tensor_forms.tbl. */
#include "tensor_forms.h"

/* ------------------------------------------------------------------------ */
/* Per-rank copies: loads, multicast loads, stores                           */
/* ------------------------------------------------------------------------ */

/* cg_tensor_load_<r>d, r = 1..5: one thread; the box of `map` whose first
 * element sits at coordinates (c0, .., c<r-1>) lands in this CTA's shared
 * memory at dst; `mbar` (this CTA) gets complete_tx of the box's bytes
 * (out-of-bounds elements, filled, included).
 *
 * cg_tensor_load_multicast_<r>d (sm_90a): one thread; the same box lands at
 * dst's offset in every CTA of the cluster whose bit is set in cta_mask
 * (bit i = cluster rank i); each gets complete_tx of the box's bytes on its
 * mbarrier at mbar's offset.
 *
 * cg_tensor_store_<r>d: one thread; the box at src (this CTA's shared
 * memory, laid out as a load of the same map puts it) is written to the
 * tensor at (c0, .., c<r-1>); elements outside the tensor are skipped. Joins
 * this thread's open bulk async-group: cg_bulk_commit_group(), then
 * cg_bulk_wait_group_read(0) before src is reused, cg_bulk_wait_group(0)
 * before the data is relied on.
 *
 * Each checks its tile, map and x in a debug build (above), then issues its
 * unchecked form cg_tensor_*_<r>d_ptx_ (tensor_forms.h). Defined rank by
 * rank, load, multicast load, store: the order a debug build's PTX lists the
 * strings of their checks in. */
/* ---- generated by tools/ptx/gen.py from tensor_calls.tbl [copies]; do not edit ---- */

/* ---- rank 1 ---- */

/* cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];   PTX ISA 8.0, sm_90 (cg_tensor_load_1d_ptx_) */
CG_DEVICE_SM90 void cg_tensor_load_1d(void *dst, const cg_tensor_map_t *map, int32_t c0, cg_mbarrier_t *mbar)
{
    CG_TENSOR_CHECK_("cg_tensor_load_1d", dst, map);
    CG_TENSOR_CHECK_X_("cg_tensor_load_1d", c0);
    cg_tensor_load_1d_ptx_(dst, map, c0, mbar);
}

/* cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2}], [%3], %4;   PTX ISA 8.0, sm_90a (cg_tensor_load_multicast_1d_ptx_) */
CG_DEVICE void cg_tensor_load_multicast_1d(void *dst, const cg_tensor_map_t *map, int32_t c0, cg_mbarrier_t *mbar,
                                           uint16_t cta_mask)
{
    CG_TENSOR_CHECK_("cg_tensor_load_multicast_1d", dst, map);
    CG_TENSOR_CHECK_X_("cg_tensor_load_multicast_1d", c0);
    cg_tensor_load_multicast_1d_ptx_(dst, map, c0, mbar, cta_mask);
}

/* cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%0, {%2}], [%1];   PTX ISA 8.0, sm_90 (cg_tensor_store_1d_ptx_) */
CG_DEVICE_SM90 void cg_tensor_store_1d(const cg_tensor_map_t *map, int32_t c0, const void *src)
{
    CG_TENSOR_CHECK_("cg_tensor_store_1d", src, map);
    CG_TENSOR_CHECK_X_("cg_tensor_store_1d", c0);
    cg_tensor_store_1d_ptx_(map, c0, src);
}

/* ---- rank 2 ---- */

/* cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];   PTX ISA 8.0, sm_90 (cg_tensor_load_2d_ptx_) */
CG_DEVICE_SM90 void cg_tensor_load_2d(void *dst, const cg_tensor_map_t *map, int32_t c0, int32_t c1,
                                      cg_mbarrier_t *mbar)
{
    CG_TENSOR_CHECK_("cg_tensor_load_2d", dst, map);
    CG_TENSOR_CHECK_X_("cg_tensor_load_2d", c0);
    cg_tensor_load_2d_ptx_(dst, map, c0, c1, mbar);
}

/* cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;   PTX ISA 8.0, sm_90a (cg_tensor_load_multicast_2d_ptx_) */
CG_DEVICE void cg_tensor_load_multicast_2d(void *dst, const cg_tensor_map_t *map, int32_t c0, int32_t c1,
                                           cg_mbarrier_t *mbar, uint16_t cta_mask)
{
    CG_TENSOR_CHECK_("cg_tensor_load_multicast_2d", dst, map);
    CG_TENSOR_CHECK_X_("cg_tensor_load_multicast_2d", c0);
    cg_tensor_load_multicast_2d_ptx_(dst, map, c0, c1, mbar, cta_mask);
}

/* cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%2, %3}], [%1];   PTX ISA 8.0, sm_90 (cg_tensor_store_2d_ptx_) */
CG_DEVICE_SM90 void cg_tensor_store_2d(const cg_tensor_map_t *map, int32_t c0, int32_t c1, const void *src)
{
    CG_TENSOR_CHECK_("cg_tensor_store_2d", src, map);
    CG_TENSOR_CHECK_X_("cg_tensor_store_2d", c0);
    cg_tensor_store_2d_ptx_(map, c0, c1, src);
}

/* ---- rank 3 ---- */

/* cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];   PTX ISA 8.0, sm_90 (cg_tensor_load_3d_ptx_) */
CG_DEVICE_SM90 void cg_tensor_load_3d(void *dst, const cg_tensor_map_t *map, int32_t c0, int32_t c1, int32_t c2,
                                      cg_mbarrier_t *mbar)
{
    CG_TENSOR_CHECK_("cg_tensor_load_3d", dst, map);
    CG_TENSOR_CHECK_X_("cg_tensor_load_3d", c0);
    cg_tensor_load_3d_ptx_(dst, map, c0, c1, c2, mbar);
}

/* cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3, %4}], [%5], %6;   PTX ISA 8.0, sm_90a (cg_tensor_load_multicast_3d_ptx_) */
CG_DEVICE void cg_tensor_load_multicast_3d(void *dst, const cg_tensor_map_t *map, int32_t c0, int32_t c1, int32_t c2,
                                           cg_mbarrier_t *mbar, uint16_t cta_mask)
{
    CG_TENSOR_CHECK_("cg_tensor_load_multicast_3d", dst, map);
    CG_TENSOR_CHECK_X_("cg_tensor_load_multicast_3d", c0);
    cg_tensor_load_multicast_3d_ptx_(dst, map, c0, c1, c2, mbar, cta_mask);
}

/* cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%2, %3, %4}], [%1];   PTX ISA 8.0, sm_90 (cg_tensor_store_3d_ptx_) */
CG_DEVICE_SM90 void cg_tensor_store_3d(const cg_tensor_map_t *map, int32_t c0, int32_t c1, int32_t c2, const void *src)
{
    CG_TENSOR_CHECK_("cg_tensor_store_3d", src, map);
    CG_TENSOR_CHECK_X_("cg_tensor_store_3d", c0);
    cg_tensor_store_3d_ptx_(map, c0, c1, c2, src);
}

/* ---- rank 4 ---- */

/* cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];   PTX ISA 8.0, sm_90 (cg_tensor_load_4d_ptx_) */
CG_DEVICE_SM90 void cg_tensor_load_4d(void *dst, const cg_tensor_map_t *map, int32_t c0, int32_t c1, int32_t c2,
                                      int32_t c3, cg_mbarrier_t *mbar)
{
    CG_TENSOR_CHECK_("cg_tensor_load_4d", dst, map);
    CG_TENSOR_CHECK_X_("cg_tensor_load_4d", c0);
    cg_tensor_load_4d_ptx_(dst, map, c0, c1, c2, c3, mbar);
}

/* cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3, %4, %5}], [%6], %7;   PTX ISA 8.0, sm_90a (cg_tensor_load_multicast_4d_ptx_) */
CG_DEVICE void cg_tensor_load_multicast_4d(void *dst, const cg_tensor_map_t *map, int32_t c0, int32_t c1, int32_t c2,
                                           int32_t c3, cg_mbarrier_t *mbar, uint16_t cta_mask)
{
    CG_TENSOR_CHECK_("cg_tensor_load_multicast_4d", dst, map);
    CG_TENSOR_CHECK_X_("cg_tensor_load_multicast_4d", c0);
    cg_tensor_load_multicast_4d_ptx_(dst, map, c0, c1, c2, c3, mbar, cta_mask);
}

/* cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group [%0, {%2, %3, %4, %5}], [%1];   PTX ISA 8.0, sm_90 (cg_tensor_store_4d_ptx_) */
CG_DEVICE_SM90 void cg_tensor_store_4d(const cg_tensor_map_t *map, int32_t c0, int32_t c1, int32_t c2, int32_t c3,
                                       const void *src)
{
    CG_TENSOR_CHECK_("cg_tensor_store_4d", src, map);
    CG_TENSOR_CHECK_X_("cg_tensor_store_4d", c0);
    cg_tensor_store_4d_ptx_(map, c0, c1, c2, c3, src);
}

/* ---- rank 5 ---- */

/* cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];   PTX ISA 8.0, sm_90 (cg_tensor_load_5d_ptx_) */
CG_DEVICE_SM90 void cg_tensor_load_5d(void *dst, const cg_tensor_map_t *map, int32_t c0, int32_t c1, int32_t c2,
                                      int32_t c3, int32_t c4, cg_mbarrier_t *mbar)
{
    CG_TENSOR_CHECK_("cg_tensor_load_5d", dst, map);
    CG_TENSOR_CHECK_X_("cg_tensor_load_5d", c0);
    cg_tensor_load_5d_ptx_(dst, map, c0, c1, c2, c3, c4, mbar);
}

/* cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3, %4, %5, %6}], [%7], %8;   PTX ISA 8.0, sm_90a (cg_tensor_load_multicast_5d_ptx_) */
CG_DEVICE void cg_tensor_load_multicast_5d(void *dst, const cg_tensor_map_t *map, int32_t c0, int32_t c1, int32_t c2,
                                           int32_t c3, int32_t c4, cg_mbarrier_t *mbar, uint16_t cta_mask)
{
    CG_TENSOR_CHECK_("cg_tensor_load_multicast_5d", dst, map);
    CG_TENSOR_CHECK_X_("cg_tensor_load_multicast_5d", c0);
    cg_tensor_load_multicast_5d_ptx_(dst, map, c0, c1, c2, c3, c4, mbar, cta_mask);
}

/* cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group [%0, {%2, %3, %4, %5, %6}], [%1];   PTX ISA 8.0, sm_90 (cg_tensor_store_5d_ptx_) */
CG_DEVICE_SM90 void cg_tensor_store_5d(const cg_tensor_map_t *map, int32_t c0, int32_t c1, int32_t c2, int32_t c3,
                                       int32_t c4, const void *src)
{
    CG_TENSOR_CHECK_("cg_tensor_store_5d", src, map);
    CG_TENSOR_CHECK_X_("cg_tensor_store_5d", c0);
    cg_tensor_store_5d_ptx_(map, c0, c1, c2, c3, c4, src);
}

/* ---- end of generated part ---- */

/* ------------------------------------------------------------------------ */
/* Rank chosen at run time: coords[0 .. rank-1], dimension 0 first            */
/* ------------------------------------------------------------------------ */

/* Each is a switch over the ranks, calling the copy of that rank; a rank
 * outside 1..5 traps with CG_DEBUG and does nothing otherwise. */
/* ---- generated by tools/ptx/gen.py from tensor_calls.tbl [by_rank]; do not edit ---- */

/* cg_tensor_load_<rank>d with the coordinates in an array, coords[0 .. rank-1]. */
CG_DEVICE_SM90 void cg_tensor_load(void *dst, const cg_tensor_map_t *map, uint32_t rank, const int32_t *coords,
                                   cg_mbarrier_t *mbar)
{
    const int32_t *c = coords;
    switch (rank) {
    case 1: cg_tensor_load_1d(dst, map, c[0], mbar); break;
    case 2: cg_tensor_load_2d(dst, map, c[0], c[1], mbar); break;
    case 3: cg_tensor_load_3d(dst, map, c[0], c[1], c[2], mbar); break;
    case 4: cg_tensor_load_4d(dst, map, c[0], c[1], c[2], c[3], mbar); break;
    case 5: cg_tensor_load_5d(dst, map, c[0], c[1], c[2], c[3], c[4], mbar); break;
    default: CG_TENSOR_BAD_RANK_("cg_tensor_load", rank);
    }
}

/* cg_tensor_load_multicast_<rank>d with the coordinates in an array, coords[0 .. rank-1]. */
CG_DEVICE void cg_tensor_load_multicast(void *dst, const cg_tensor_map_t *map, uint32_t rank, const int32_t *coords,
                                        cg_mbarrier_t *mbar, uint16_t cta_mask)
{
    const int32_t *c = coords;
    switch (rank) {
    case 1: cg_tensor_load_multicast_1d(dst, map, c[0], mbar, cta_mask); break;
    case 2: cg_tensor_load_multicast_2d(dst, map, c[0], c[1], mbar, cta_mask); break;
    case 3: cg_tensor_load_multicast_3d(dst, map, c[0], c[1], c[2], mbar, cta_mask); break;
    case 4: cg_tensor_load_multicast_4d(dst, map, c[0], c[1], c[2], c[3], mbar, cta_mask); break;
    case 5: cg_tensor_load_multicast_5d(dst, map, c[0], c[1], c[2], c[3], c[4], mbar, cta_mask); break;
    default: CG_TENSOR_BAD_RANK_("cg_tensor_load_multicast", rank);
    }
}

/* cg_tensor_store_<rank>d with the coordinates in an array, coords[0 .. rank-1]. */
CG_DEVICE_SM90 void cg_tensor_store(const cg_tensor_map_t *map, uint32_t rank, const int32_t *coords, const void *src)
{
    const int32_t *c = coords;
    switch (rank) {
    case 1: cg_tensor_store_1d(map, c[0], src); break;
    case 2: cg_tensor_store_2d(map, c[0], c[1], src); break;
    case 3: cg_tensor_store_3d(map, c[0], c[1], c[2], src); break;
    case 4: cg_tensor_store_4d(map, c[0], c[1], c[2], c[3], src); break;
    case 5: cg_tensor_store_5d(map, c[0], c[1], c[2], c[3], c[4], src); break;
    default: CG_TENSOR_BAD_RANK_("cg_tensor_store", rank);
    }
}

/* cg_tensor_prefetch_<rank>d with the coordinates in an array, coords[0 .. rank-1]. */
CG_DEVICE_SM90 void cg_tensor_prefetch(const cg_tensor_map_t *map, uint32_t rank, const int32_t *coords)
{
    const int32_t *c = coords;
    switch (rank) {
    case 1: cg_tensor_prefetch_1d(map, c[0]); break;
    case 2: cg_tensor_prefetch_2d(map, c[0], c[1]); break;
    case 3: cg_tensor_prefetch_3d(map, c[0], c[1], c[2]); break;
    case 4: cg_tensor_prefetch_4d(map, c[0], c[1], c[2], c[3]); break;
    case 5: cg_tensor_prefetch_5d(map, c[0], c[1], c[2], c[3], c[4]); break;
    default: CG_TENSOR_BAD_RANK_("cg_tensor_prefetch", rank);
    }
}

/* ---- end of generated part ---- */


#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_ASYNC_TENSOR_H */

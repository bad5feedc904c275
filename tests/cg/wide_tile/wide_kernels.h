/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/wide_tile/wide_kernels.h — what the wide-tile kernels (wide_kernels.cu)
 * and the host checks (wide_test.c) share: types, output fields, launchers
 * (C linkage).
 *
 * Oracle kernel: every thread runs the cgc call and the C++ CG
 * thread_block_tile<n> call on the same inputs and writes both, as uint64_t
 * bit patterns (a 32-bit type in the low 4 bytes, zero above):
 *   val[gid]   the value the collectives combine
 *   arg[gid]   bits 0-9: shfl source rank (uniform over the tile); bit 16:
 *              pred for any; bit 17: pred for all
 *   out[(gid * 2 + side) * CGW_FIELDS + f]   side 0: cgc, side 1: C++ CG
 * with gid = block linear index * threads per block + block rank.
 */
#ifndef CGW_WIDE_KERNELS_H
#define CGW_WIDE_KERNELS_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element types, in the order of cgc's name suffixes. */
enum { CGW_I32 = 0, CGW_U32, CGW_I64, CGW_U64, CGW_F32, CGW_F64, CGW_NTYPES };

#define CGW_NOPS 6 /* cg_op_t: PLUS LESS GREATER BIT_AND BIT_OR BIT_XOR */

enum {
    CGW_REDUCE = 0, /* + op; bit operators poisoned for float/double */
    CGW_INCL = CGW_REDUCE + CGW_NOPS, /* + op */
    CGW_EXCL = CGW_INCL + CGW_NOPS, /* + op */
    CGW_SHFL = CGW_EXCL + CGW_NOPS, /* val of rank arg.src */
    CGW_ANY,
    CGW_ALL,
    CGW_RANK, /* thread_rank */
    CGW_NTHREADS, /* num_threads */
    CGW_META_RANK,
    CGW_META_SIZE,
    CGW_GEN_RANK, /* cgc side: generic cg_thread_rank; C++ side: thread_rank again */
    CGW_GEN_NTHREADS, /* cgc side: generic cg_num_threads */
    CGW_FIELDS
};

/* One oracle launch: n in 64..1024, `type` a CGW_ type, grid of `blocks`
 * blocks shaped `block`. Returns the launch error. */
cudaError_t cgw_oracle(unsigned n, int type, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
                       const uint64_t *val, const uint32_t *arg, uint64_t *out);

/* Sync stress: every tile of n threads loops iters * (meta_group_rank + 1)
 * times: each thread waits a random per-warp delay, writes a value of
 * (iteration, rank, seed) to its block-rank slot in shared memory, syncs the
 * tile (cgc), reads the slot of a thread in another warp of its tile (the
 * partner changes every iteration) and checks it, then syncs again. With
 * mixed != 0 each iteration does the same once more through a tile of 2n
 * threads built over the same warps (tiles of two sizes in use at once).
 * Per thread: err[gid] = number of bad reads; first[gid*4 + 0..3] =
 * iteration, partner block rank, expected, got of the first bad read
 * (0xffffffff when none); done[gid] = iterations run. */
cudaError_t cgw_sync_stress(unsigned n, unsigned blocks, unsigned bx, unsigned by, unsigned bz, unsigned iters,
                            int mixed, uint64_t seed, uint32_t *err, uint32_t *first, uint32_t *done);

/* The named barrier each thread's tile uses (cg_wide_tile_barrier_id) for a
 * tile size n; ids[gid]. */
cudaError_t cgw_barrier_ids(unsigned n, unsigned blocks, unsigned threads, uint32_t *ids);

/* cg_memcpy_async(&wide_tile, ...): in each block, tile i copies `bytes`
 * bytes at offset `off` of region i (CGW_MEMCPY_REGION bytes) of src (the
 * block's window: blocks x tiles x region) into the same place of a shared
 * buffer poisoned with 0xA5, completing on a block barrier; out gets the
 * whole buffer. */
#define CGW_MEMCPY_REGION 4096u
cudaError_t cgw_memcpy(unsigned n, unsigned blocks, unsigned bx, unsigned by, unsigned bz, const unsigned char *src,
                       unsigned char *out, uint32_t off, uint32_t bytes);

#ifdef __cplusplus
}
#endif

#endif /* CGW_WIDE_KERNELS_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/collectives/collectives_kernels.h — what the oracle kernels
 * (tile_kernels.cu, coalesced_kernels.cu) and the host checks
 * (collectives_test.c) share: element types, per-thread input and output
 * layouts, launchers (C linkage).
 *
 * Every kernel runs the cgc call and the C++ CG call on the same inputs in the
 * same kernel and writes both. Values travel as uint64_t bit patterns: a
 * 32-bit type in the low 4 bytes, zero above; outputs are poisoned by the host
 * (CGT_POISON_BYTE) before each launch.
 *
 * Per thread (global linear id gid = block linear index * threads per block
 * + block rank):
 *   val[gid]   the value the collectives combine
 *   key[gid]   a value from a small set: match_any/match_all and the labels
 *              of labeled partitions (its bits)
 *   arg[gid]   bits 0-7: shuffle source rank; 8-15: shuffle up/down delta;
 *              16-23: shuffle xor lane mask; bit 24: pred (binary partition,
 *              divergence); bit 25: pred2 (votes, second partition)
 *   out[(gid * 2 + side) * fields + f]   side 0: cgc, side 1: C++ CG
 */
#ifndef CGT_COLLECTIVES_KERNELS_H
#define CGT_COLLECTIVES_KERNELS_H

#include "base/dim3.h"
#include "base/status.h"

/* Element types, in the order of cgc's name suffixes. */
typedef enum cgt_type {
    CGT_I32 = 0,
    CGT_U32,
    CGT_I64,
    CGT_U64,
    CGT_F32,
    CGT_F64,
    CGT_NTYPES
} cgt_type_t;

/* cg_op_t values (cg/collectives.h), repeated for host C without the header. */
#define CGT_NOPS 6

/* Output fields of the tile kernel. [op] runs over the six operators
 * (CG_OP_PLUS .. CG_OP_BIT_XOR); bit operators are left poisoned for float
 * and double. */
enum {
    CGT_T_REDUCE = 0, /* + op */
    CGT_T_INCL = CGT_T_REDUCE + CGT_NOPS, /* + op */
    CGT_T_EXCL = CGT_T_INCL + CGT_NOPS, /* + op */
    CGT_T_SHFL = CGT_T_EXCL + CGT_NOPS, /* val from rank arg.src (mod n) */
    CGT_T_SHFL_UP, /* val from rank - arg.delta */
    CGT_T_SHFL_DOWN, /* val from rank + arg.delta */
    CGT_T_SHFL_XOR, /* val from rank ^ arg.xmask */
    CGT_T_MATCH_ANY, /* of key */
    CGT_T_MATCH_ALL,
    CGT_T_MATCH_ALL_PRED,
    CGT_T_BP_SIZE, /* binary partition of the tile by pred */
    CGT_T_BP_RANK,
    CGT_T_BP_META_RANK,
    CGT_T_BP_META_SIZE,
    CGT_T_BP_MASK, /* cgc only: the group's lanes */
    CGT_T_LP_SIZE, /* labeled partition of the tile by key's bits */
    CGT_T_LP_RANK,
    CGT_T_LP_META_RANK,
    CGT_T_LP_META_SIZE,
    CGT_T_LP_MASK, /* cgc only */
    CGT_T_LP_REDUCE, /* plus over the labeled partition */
    CGT_T_LP_INCL, /* plus */
    CGT_T_LP_EXCL, /* plus */
    CGT_T_LP_SHFL0, /* val of the partition's rank 0 */
    CGT_T_B12_SHFL, /* 12-byte object (val's 8 bytes, key's low 4): 2 fields each */
    CGT_T_B12_SHFL_UP = CGT_T_B12_SHFL + 2,
    CGT_T_B12_SHFL_DOWN = CGT_T_B12_SHFL_UP + 2,
    CGT_T_B12_SHFL_XOR = CGT_T_B12_SHFL_DOWN + 2,
    CGT_T_B3_SHFL = CGT_T_B12_SHFL_XOR + 2, /* 3-byte object (val's low 3 bytes), from rank arg.src */
    CGT_T_FIELDS
};

/* How the coalesced kernel makes its group (mode argument). Modes marked
 * "under pred" run only in the threads whose pred is set (data-dependent
 * divergence); the others run in every thread. */
typedef enum cgt_cmode {
    CGT_C_DIVERGED = 0, /* coalesced_threads() under pred */
    CGT_C_CONVERGED, /* coalesced_threads() in every thread */
    CGT_C_TILE_BINARY, /* binary_partition(tile of 32, pred) */
    CGT_C_TILE_LABELED, /* labeled_partition(tile of 32, key bits) */
    CGT_C_DIVERGED_TILED, /* tiled_partition(coalesced_threads() under pred, sz) */
    CGT_C_DIVERGED_LABELED, /* labeled_partition(coalesced_threads() under pred, key bits) */
    CGT_C_DIVERGED_BINARY, /* binary_partition(coalesced_threads() under pred, pred2) */
    CGT_C_CONVERGED_TILED, /* tiled_partition(coalesced_threads(), sz) */
    CGT_C_NMODES
} cgt_cmode_t;

/* Output fields of the coalesced kernel. */
enum {
    CGT_C_MASK = 0, /* cgc only: the group's lanes */
    CGT_C_SIZE,
    CGT_C_RANK,
    CGT_C_META_RANK,
    CGT_C_META_SIZE,
    CGT_C_REDUCE, /* + op */
    CGT_C_INCL = CGT_C_REDUCE + CGT_NOPS, /* + op */
    CGT_C_EXCL = CGT_C_INCL + CGT_NOPS, /* + op */
    CGT_C_SHFL = CGT_C_EXCL + CGT_NOPS, /* val from rank arg.src % size */
    CGT_C_SHFL_UP, /* val from rank - arg.delta */
    CGT_C_SHFL_DOWN, /* val from rank + arg.delta */
    CGT_C_BALLOT, /* of pred2 */
    CGT_C_ANY,
    CGT_C_ALL,
    CGT_C_MATCH_ANY, /* of key */
    CGT_C_MATCH_ALL,
    CGT_C_MATCH_ALL_PRED,
    CGT_C_B12_SHFL, /* the 12-byte object: 2 fields each */
    CGT_C_B12_SHFL_UP = CGT_C_B12_SHFL + 2,
    CGT_C_B12_SHFL_DOWN = CGT_C_B12_SHFL_UP + 2,
    CGT_C_FIELDS = CGT_C_B12_SHFL_DOWN + 2
};

CG_EXTERN_C_BEGIN
/* Tile of n threads (1..32), element type ty. cpp_partial = 0: C++ CG is
 * not run in partial warps (its tile masks name lanes past the end of the
 * block; for synccheck runs), its output there stays poisoned. */
cg_status_t cgt_launch_tile_collectives(uint32_t n, cgt_type_t ty, int cpp_partial, cg_dim3_t grid,
                                        cg_dim3_t block, const uint64_t *val, const uint64_t *key,
                                        const uint32_t *arg, uint64_t *out);
/* Coalesced group made by `mode` (sz: the tile size of the *_TILED modes).
 * cpp_partial = 0: the C++ CG side of the two tile-partition modes is not
 * run in partial warps. */
cg_status_t cgt_launch_coalesced_collectives(cgt_cmode_t mode, uint32_t sz, cgt_type_t ty, int cpp_partial,
                                             cg_dim3_t grid, cg_dim3_t block, const uint64_t *val,
                                             const uint64_t *key, const uint32_t *arg, uint64_t *out);
CG_EXTERN_C_END

#endif /* CGT_COLLECTIVES_KERNELS_H */

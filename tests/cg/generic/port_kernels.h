/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/generic/port_kernels.h — what the ported kernel (port_kernels.cuh,
 * instantiated in port_small.cu and port_large.cu) and the host checks
 * (port_test.c) share.
 *
 * The kernel is C++ CG code templated over the element type T and the tile
 * size N (16..512), ported to cgc with the generic calls: one body, no
 * per-type or per-size wrapper, no branch at 32. Every thread runs the cgc
 * port and the C++ CG original on the same inputs and writes both, as
 * uint64_t bit patterns (a narrower type in the low bytes, zero above):
 *   val[gid]   the value the collectives combine
 *   arg[gid]   bits 0-9: shfl source rank (uniform over the tile);
 *              bit 16: pred for any; bit 17: pred for all
 *   out[(gid * 2 + side) * CGP_FIELDS + f]   side 0: cgc, side 1: C++ CG
 * with gid = block linear index * threads per block + block rank.
 */
#ifndef CGP_PORT_KERNELS_H
#define CGP_PORT_KERNELS_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element types: the six with typed calls and two that the generic calls
 * widen (int16_t to _i32, uint8_t to _u32). */
enum { CGP_I32 = 0, CGP_U32, CGP_I64, CGP_U64, CGP_F32, CGP_F64, CGP_I16, CGP_U8, CGP_NTYPES };

/* Operators the kernel runs: plus, less, greater, and bit_xor (integers). */
enum { CGP_PLUS = 0, CGP_LESS, CGP_GREATER, CGP_XOR, CGP_NOPS };

enum {
    CGP_REDUCE = 0, /* + op; bit_xor poisoned for float/double */
    CGP_INCL = CGP_REDUCE + CGP_NOPS, /* + op */
    CGP_EXCL = CGP_INCL + CGP_NOPS, /* + op */
    CGP_SHFL = CGP_EXCL + CGP_NOPS, /* val of rank arg.src */
    CGP_ANY,
    CGP_ALL,
    CGP_RANK, /* thread_rank */
    CGP_NTHREADS, /* num_threads */
    CGP_META_RANK,
    CGP_META_SIZE,
    CGP_FIELDS
};

/* The tile sizes the test instantiates. */
#define CGP_NSIZES 6
static const unsigned cgp_sizes[CGP_NSIZES] = {16, 32, 64, 128, 256, 512};

/* One launch: n one of cgp_sizes, `type` a CGP_ type, `blocks` blocks
 * shaped (bx, by, bz). Returns the launch error (cudaErrorInvalidValue for
 * an n or type not instantiated). */
cudaError_t cgp_port(unsigned n, int type, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
                     const uint64_t *val, const uint32_t *arg, uint64_t *out);

#ifdef __cplusplus
}
#endif

#endif /* CGP_PORT_KERNELS_H */

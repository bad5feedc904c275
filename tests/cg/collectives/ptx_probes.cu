/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/collectives/ptx_probes.cu — probe kernels whose PTX ptx_test.c reads:
 * each cgc collective beside the C++ CG call it stands for, so the test can
 * check that a constant operator folds to its one instruction form and that
 * cgc issues the same warp instructions (redux.sync, shuffles) as C++ CG.
 * extern "C" keeps the names unmangled. The tile (or group) is made before
 * the value is loaded, as in a real kernel. */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include "cg/groups.h"

namespace cpp = cooperative_groups;

/* cgc_<name> and cpp_<name>: one tile collective of n threads on o[tid]. */
#define TILE_PAIR(name, N, T, cgc_call, cpp_call)                                        \
    extern "C" __global__ void cgc_##name(T *o)                                          \
    {                                                                                    \
        cg_thread_block_t b = cg_this_thread_block();                                    \
        cg_tile_t t = cg_tiled_partition(&b, N);                                         \
        T v = o[threadIdx.x];                                                            \
        o[threadIdx.x] = cgc_call;                                                       \
    }                                                                                    \
    extern "C" __global__ void cpp_##name(T *o)                                          \
    {                                                                                    \
        cpp::thread_block_tile<N, cpp::thread_block> t = cpp::tiled_partition<N>(cpp::this_thread_block()); \
        T v = o[threadIdx.x];                                                            \
        o[threadIdx.x] = cpp_call;                                                       \
    }

/* 32-bit integer reductions of tiles of 32: one redux.sync each. */
TILE_PAIR(reduce_plus_i32, 32, int32_t, cg_tile_reduce_i32(&t, v, CG_OP_PLUS), cpp::reduce(t, v, cpp::plus<int32_t>()))
TILE_PAIR(reduce_less_i32, 32, int32_t, cg_tile_reduce_i32(&t, v, CG_OP_LESS), cpp::reduce(t, v, cpp::less<int32_t>()))
TILE_PAIR(reduce_greater_i32, 32, int32_t, cg_tile_reduce_i32(&t, v, CG_OP_GREATER),
          cpp::reduce(t, v, cpp::greater<int32_t>()))
TILE_PAIR(reduce_plus_u32, 32, uint32_t, cg_tile_reduce_u32(&t, v, CG_OP_PLUS), cpp::reduce(t, v, cpp::plus<uint32_t>()))
TILE_PAIR(reduce_less_u32, 32, uint32_t, cg_tile_reduce_u32(&t, v, CG_OP_LESS), cpp::reduce(t, v, cpp::less<uint32_t>()))
TILE_PAIR(reduce_greater_u32, 32, uint32_t, cg_tile_reduce_u32(&t, v, CG_OP_GREATER),
          cpp::reduce(t, v, cpp::greater<uint32_t>()))
TILE_PAIR(reduce_and_u32, 32, uint32_t, cg_tile_reduce_u32(&t, v, CG_OP_BIT_AND),
          cpp::reduce(t, v, cpp::bit_and<uint32_t>()))
TILE_PAIR(reduce_or_i32, 32, int32_t, cg_tile_reduce_i32(&t, v, CG_OP_BIT_OR), cpp::reduce(t, v, cpp::bit_or<int32_t>()))
TILE_PAIR(reduce_xor_u32, 16, uint32_t, cg_tile_reduce_u32(&t, v, CG_OP_BIT_XOR),
          cpp::reduce(t, v, cpp::bit_xor<uint32_t>()))
/* A tile of 8: C++ CG uses a butterfly; cgc too, and redux.sync only for a
 * partial tile. */
TILE_PAIR(reduce_plus_i32_n8, 8, int32_t, cg_tile_reduce_i32(&t, v, CG_OP_PLUS), cpp::reduce(t, v, cpp::plus<int32_t>()))
/* Floats and 64-bit: butterflies of the same length. */
TILE_PAIR(reduce_plus_f32, 32, float, cg_tile_reduce_f32(&t, v, CG_OP_PLUS), cpp::reduce(t, v, cpp::plus<float>()))
TILE_PAIR(reduce_less_f64, 32, double, cg_tile_reduce_f64(&t, v, CG_OP_LESS), cpp::reduce(t, v, cpp::less<double>()))
TILE_PAIR(reduce_plus_i64, 16, int64_t, cg_tile_reduce_i64(&t, v, CG_OP_PLUS), cpp::reduce(t, v, cpp::plus<int64_t>()))
/* Scans. */
TILE_PAIR(incl_plus_f32, 32, float, cg_tile_inclusive_scan_f32(&t, v, CG_OP_PLUS),
          cpp::inclusive_scan(t, v, cpp::plus<float>()))
TILE_PAIR(excl_plus_i32, 32, int32_t, cg_tile_exclusive_scan_i32(&t, v, CG_OP_PLUS),
          cpp::exclusive_scan(t, v, cpp::plus<int32_t>()))
TILE_PAIR(excl_greater_f64, 16, double, cg_tile_exclusive_scan_f64(&t, v, CG_OP_GREATER),
          cpp::exclusive_scan(t, v, cpp::greater<double>()))

/* The benchmark's calls (bench/cgc_rows.cu "reduce" and "inclusive_scan"
 * rows): a plus over tiles of 32 and 16, every type it measures. ptx_test
 * finds cgc's whole-tile path among its basic blocks and compares it with
 * C++ CG's code: the same warp instructions, no more, and on a tile of 32
 * the constant full mask. docs/design/collectives.md. */
TILE_PAIR(fast_reduce32_i32, 32, int32_t, cg_tile_reduce_i32(&t, v, CG_OP_PLUS), cpp::reduce(t, v, cpp::plus<int32_t>()))
TILE_PAIR(fast_reduce32_f32, 32, float, cg_tile_reduce_f32(&t, v, CG_OP_PLUS), cpp::reduce(t, v, cpp::plus<float>()))
TILE_PAIR(fast_reduce32_f64, 32, double, cg_tile_reduce_f64(&t, v, CG_OP_PLUS), cpp::reduce(t, v, cpp::plus<double>()))
TILE_PAIR(fast_reduce16_i32, 16, int32_t, cg_tile_reduce_i32(&t, v, CG_OP_PLUS), cpp::reduce(t, v, cpp::plus<int32_t>()))
TILE_PAIR(fast_reduce16_f32, 16, float, cg_tile_reduce_f32(&t, v, CG_OP_PLUS), cpp::reduce(t, v, cpp::plus<float>()))
TILE_PAIR(fast_reduce16_f64, 16, double, cg_tile_reduce_f64(&t, v, CG_OP_PLUS), cpp::reduce(t, v, cpp::plus<double>()))
TILE_PAIR(fast_scan32_i32, 32, int32_t, cg_tile_inclusive_scan_i32(&t, v, CG_OP_PLUS),
          cpp::inclusive_scan(t, v, cpp::plus<int32_t>()))
TILE_PAIR(fast_scan32_f32, 32, float, cg_tile_inclusive_scan_f32(&t, v, CG_OP_PLUS),
          cpp::inclusive_scan(t, v, cpp::plus<float>()))
TILE_PAIR(fast_scan32_f64, 32, double, cg_tile_inclusive_scan_f64(&t, v, CG_OP_PLUS),
          cpp::inclusive_scan(t, v, cpp::plus<double>()))
TILE_PAIR(fast_scan16_i32, 16, int32_t, cg_tile_inclusive_scan_i32(&t, v, CG_OP_PLUS),
          cpp::inclusive_scan(t, v, cpp::plus<int32_t>()))
TILE_PAIR(fast_scan16_f32, 16, float, cg_tile_inclusive_scan_f32(&t, v, CG_OP_PLUS),
          cpp::inclusive_scan(t, v, cpp::plus<float>()))
TILE_PAIR(fast_scan16_f64, 16, double, cg_tile_inclusive_scan_f64(&t, v, CG_OP_PLUS),
          cpp::inclusive_scan(t, v, cpp::plus<double>()))
/* A minimum: the same path with the other operator. */
TILE_PAIR(fast_reduce32_less_f32, 32, float, cg_tile_reduce_f32(&t, v, CG_OP_LESS),
          cpp::reduce(t, v, cpp::less<float>()))

/* cgc_<name> and cpp_<name>: one collective of the converged lanes, under a
 * data-dependent branch. */
#define COALESCED_PAIR(name, T, cgc_call, cpp_call)                                      \
    extern "C" __global__ void cgc_##name(T *o)                                          \
    {                                                                                    \
        T v = o[threadIdx.x];                                                            \
        if (v != (T)0) {                                                                 \
            cg_coalesced_group_t g = cg_coalesced_threads();                             \
            o[threadIdx.x] = cgc_call;                                                   \
        }                                                                                \
    }                                                                                    \
    extern "C" __global__ void cpp_##name(T *o)                                          \
    {                                                                                    \
        T v = o[threadIdx.x];                                                            \
        if (v != (T)0) {                                                                 \
            cpp::coalesced_group g = cpp::coalesced_threads();                           \
            o[threadIdx.x] = cpp_call;                                                   \
        }                                                                                \
    }

COALESCED_PAIR(coalesced_reduce_plus_i32, int32_t, cg_coalesced_reduce_i32(&g, v, CG_OP_PLUS),
               cpp::reduce(g, v, cpp::plus<int32_t>()))
COALESCED_PAIR(coalesced_ballot, uint32_t, cg_coalesced_ballot(&g, v & 1u), g.ballot(v & 1u))

/* cgc_<name> and cpp_<name>: a reduction in a loop, each input made from the
 * previous result (the benchmark's shape). C++ CG's loop is its butterfly
 * unrolled; cgc's must be the same loop once NVVM has taken the block-size
 * test out of it (docs/design/collectives.md: 64-bit values). */
#define LOOP_PAIR(name, N, T, cgc_call, cpp_call)                                        \
    extern "C" __global__ void cgc_##name(T *o, int iters)                               \
    {                                                                                    \
        cg_thread_block_t b = cg_this_thread_block();                                    \
        cg_tile_t t = cg_tiled_partition(&b, N);                                         \
        T v = o[threadIdx.x];                                                            \
        for (int i = 0; i < iters; ++i)                                                  \
            v = cgc_call + (T)i;                                                         \
        o[threadIdx.x] = v;                                                              \
    }                                                                                    \
    extern "C" __global__ void cpp_##name(T *o, int iters)                               \
    {                                                                                    \
        cpp::thread_block_tile<N, cpp::thread_block> t = cpp::tiled_partition<N>(cpp::this_thread_block()); \
        T v = o[threadIdx.x];                                                            \
        for (int i = 0; i < iters; ++i)                                                  \
            v = cpp_call + (T)i;                                                         \
        o[threadIdx.x] = v;                                                              \
    }

LOOP_PAIR(loop_reduce32_f64, 32, double, cg_tile_reduce_f64(&t, v, CG_OP_PLUS), cpp::reduce(t, v, cpp::plus<double>()))
LOOP_PAIR(loop_reduce16_f64, 16, double, cg_tile_reduce_f64(&t, v, CG_OP_PLUS), cpp::reduce(t, v, cpp::plus<double>()))
LOOP_PAIR(loop_reduce8_f64, 8, double, cg_tile_reduce_f64(&t, v, CG_OP_PLUS), cpp::reduce(t, v, cpp::plus<double>()))
LOOP_PAIR(loop_reduce16_i64, 16, int64_t, cg_tile_reduce_i64(&t, v, CG_OP_PLUS), cpp::reduce(t, v, cpp::plus<int64_t>()))
LOOP_PAIR(loop_reduce32_f32, 32, float, cg_tile_reduce_f32(&t, v, CG_OP_PLUS), cpp::reduce(t, v, cpp::plus<float>()))

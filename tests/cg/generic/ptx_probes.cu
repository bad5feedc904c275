/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/generic/ptx_probes.cu — typed/generic twins whose PTX
 * tests/cg/generic/ptx_test.c compares: for every group kind, collective and
 * element type the generic calls take (cg/generic.h), a kernel that makes
 * the typed call (typed_<kind>_<verb>_<type>) and one that makes the generic
 * call (generic_<kind>_<verb>_<type>) on the same values. The operator and
 * the shuffle argument are kernel parameters, so every path of the call is
 * in the PTX. extern "C" keeps the names unmangled.
 *
 * Also: the value types that have no typed call of their own (8/16-bit
 * integers, long long, unsigned long) against the typed call their row
 * names, written by hand; CG_TILED_PARTITION against the typed
 * constructors; and a body templated over the element type and the tile
 * size (the port of a C++ CG kernel, no wrapper, no branch at 32) against
 * the same body written with typed calls.
 */
#include "cg/groups.h"
#include "tests/cg/generic/each_type.h"

/* ---- the groups ---------------------------------------------------------- */

#define SETUP_tile                                                                                 \
    cg_thread_block_t b = cg_this_thread_block();                                                  \
    cg_tile_t g = cg_tiled_partition(&b, 16);
#define SETUP_coal cg_coalesced_group_t g = cg_coalesced_threads();
#define SETUP_wide                                                                                 \
    cg_thread_block_t b = cg_this_thread_block();                                                  \
    cg_wide_tile_t g = cg_wide_tiled_partition(&b, 128);

/* ---- twins, by call shape -------------------------------------------------- */

/* verb(&g, v, op) */
#define TWIN_OP(kind, prefix, verb, sfx, T)                                                        \
    extern "C" __global__ void typed_##kind##_##verb##_##sfx(const T *in, T *out, cg_op_t op)     \
    {                                                                                              \
        SETUP_##kind out[threadIdx.x] = prefix##_##verb##_##sfx(&g, in[threadIdx.x], op);          \
    }                                                                                              \
    extern "C" __global__ void generic_##kind##_##verb##_##sfx(const T *in, T *out, cg_op_t op)   \
    {                                                                                              \
        SETUP_##kind out[threadIdx.x] = cg_##verb(&g, in[threadIdx.x], op);                        \
    }

/* verb(&g, v, a): shuffles */
#define TWIN_ARG(kind, prefix, verb, sfx, T)                                                       \
    extern "C" __global__ void typed_##kind##_##verb##_##sfx(const T *in, T *out, uint32_t a)     \
    {                                                                                              \
        SETUP_##kind out[threadIdx.x] = prefix##_##verb##_##sfx(&g, in[threadIdx.x], a);           \
    }                                                                                              \
    extern "C" __global__ void generic_##kind##_##verb##_##sfx(const T *in, T *out, uint32_t a)   \
    {                                                                                              \
        SETUP_##kind out[threadIdx.x] = cg_##verb(&g, in[threadIdx.x], a);                         \
    }

/* match_any(&g, v), match_all(&g, v, &pred) */
#define TWIN_MATCH(kind, prefix, sfx, T)                                                           \
    extern "C" __global__ void typed_##kind##_match_any_##sfx(const T *in, uint32_t *out)         \
    {                                                                                              \
        SETUP_##kind out[threadIdx.x] = prefix##_match_any_##sfx(&g, in[threadIdx.x]);             \
    }                                                                                              \
    extern "C" __global__ void generic_##kind##_match_any_##sfx(const T *in, uint32_t *out)       \
    {                                                                                              \
        SETUP_##kind out[threadIdx.x] = cg_match_any(&g, in[threadIdx.x]);                         \
    }                                                                                              \
    extern "C" __global__ void typed_##kind##_match_all_##sfx(const T *in, uint32_t *out)         \
    {                                                                                              \
        SETUP_##kind int p = 0;                                                                    \
        uint32_t m = prefix##_match_all_##sfx(&g, in[threadIdx.x], &p);                            \
        out[threadIdx.x] = m + (uint32_t)p;                                                        \
    }                                                                                              \
    extern "C" __global__ void generic_##kind##_match_all_##sfx(const T *in, uint32_t *out)       \
    {                                                                                              \
        SETUP_##kind int p = 0;                                                                    \
        uint32_t m = cg_match_all(&g, in[threadIdx.x], &p);                                        \
        out[threadIdx.x] = m + (uint32_t)p;                                                        \
    }

/* verb(&g, pred) and verb(&g): votes and meta-group queries */
#define TWIN_PRED(kind, prefix, verb)                                                              \
    extern "C" __global__ void typed_##kind##_##verb##_int(const int *in, uint32_t *out)          \
    {                                                                                              \
        SETUP_##kind out[threadIdx.x] = (uint32_t)prefix##_##verb(&g, in[threadIdx.x]);            \
    }                                                                                              \
    extern "C" __global__ void generic_##kind##_##verb##_int(const int *in, uint32_t *out)        \
    {                                                                                              \
        SETUP_##kind out[threadIdx.x] = (uint32_t)cg_##verb(&g, in[threadIdx.x]);                  \
    }
#define TWIN_QUERY(kind, prefix, verb)                                                             \
    extern "C" __global__ void typed_##kind##_##verb##_none(uint32_t *out)                        \
    {                                                                                              \
        SETUP_##kind out[threadIdx.x] = prefix##_##verb(&g);                                       \
    }                                                                                              \
    extern "C" __global__ void generic_##kind##_##verb##_none(uint32_t *out)                      \
    {                                                                                              \
        SETUP_##kind out[threadIdx.x] = cg_##verb(&g);                                             \
    }

/* binary_partition(&g, pred), labeled_partition(&g, label): the partition's
 * size and rank, so the group is used. */
#define TWIN_PARTITION(kind, prefix)                                                               \
    extern "C" __global__ void typed_##kind##_binary_partition_int(const int *in, uint32_t *out)  \
    {                                                                                              \
        SETUP_##kind cg_coalesced_group_t p = prefix##_binary_partition(&g, in[threadIdx.x]);      \
        out[threadIdx.x] = cg_coalesced_num_threads(&p) * 64u + cg_coalesced_thread_rank(&p);      \
    }                                                                                              \
    extern "C" __global__ void generic_##kind##_binary_partition_int(const int *in, uint32_t *out) \
    {                                                                                              \
        SETUP_##kind cg_coalesced_group_t p = cg_binary_partition(&g, in[threadIdx.x]);            \
        out[threadIdx.x] = cg_coalesced_num_threads(&p) * 64u + cg_coalesced_thread_rank(&p);      \
    }                                                                                              \
    extern "C" __global__ void typed_##kind##_labeled_partition_u32(const uint32_t *in, uint32_t *out) \
    {                                                                                              \
        SETUP_##kind cg_coalesced_group_t p = prefix##_labeled_partition_u32(&g, in[threadIdx.x]); \
        out[threadIdx.x] = cg_coalesced_num_threads(&p) * 64u + cg_coalesced_meta_group_rank(&p);  \
    }                                                                                              \
    extern "C" __global__ void generic_##kind##_labeled_partition_u32(const uint32_t *in, uint32_t *out) \
    {                                                                                              \
        SETUP_##kind cg_coalesced_group_t p = cg_labeled_partition(&g, in[threadIdx.x]);           \
        out[threadIdx.x] = cg_coalesced_num_threads(&p) * 64u + cg_coalesced_meta_group_rank(&p);  \
    }                                                                                              \
    extern "C" __global__ void typed_##kind##_labeled_partition_u64(const uint64_t *in, uint32_t *out) \
    {                                                                                              \
        SETUP_##kind cg_coalesced_group_t p = prefix##_labeled_partition_u64(&g, in[threadIdx.x]); \
        out[threadIdx.x] = cg_coalesced_num_threads(&p) * 64u + cg_coalesced_meta_group_rank(&p);  \
    }                                                                                              \
    extern "C" __global__ void generic_##kind##_labeled_partition_u64(const uint64_t *in, uint32_t *out) \
    {                                                                                              \
        SETUP_##kind cg_coalesced_group_t p = cg_labeled_partition(&g, in[threadIdx.x]);           \
        out[threadIdx.x] = cg_coalesced_num_threads(&p) * 64u + cg_coalesced_meta_group_rank(&p);  \
    }


/* ---- tiles of 1..32: every collective ---------------------------------------- */
EACH_TYPE(TWIN_OP, tile, cg_tile, reduce)
EACH_TYPE(TWIN_OP, tile, cg_tile, inclusive_scan)
EACH_TYPE(TWIN_OP, tile, cg_tile, exclusive_scan)
EACH_TYPE(TWIN_ARG, tile, cg_tile, shfl)
EACH_TYPE(TWIN_ARG, tile, cg_tile, shfl_up)
EACH_TYPE(TWIN_ARG, tile, cg_tile, shfl_down)
EACH_TYPE(TWIN_ARG, tile, cg_tile, shfl_xor)
EACH_TYPE(TWIN_MATCH, tile, cg_tile)
TWIN_PRED(tile, cg_tile, any)
TWIN_PRED(tile, cg_tile, all)
TWIN_PRED(tile, cg_tile, ballot)
TWIN_QUERY(tile, cg_tile, meta_group_rank)
TWIN_QUERY(tile, cg_tile, meta_group_size)
TWIN_PARTITION(tile, cg_tile)

/* ---- coalesced groups ------------------------------------------------------- */
EACH_TYPE(TWIN_OP, coal, cg_coalesced, reduce)
EACH_TYPE(TWIN_OP, coal, cg_coalesced, inclusive_scan)
EACH_TYPE(TWIN_OP, coal, cg_coalesced, exclusive_scan)
EACH_TYPE(TWIN_ARG, coal, cg_coalesced, shfl)
EACH_TYPE(TWIN_ARG, coal, cg_coalesced, shfl_up)
EACH_TYPE(TWIN_ARG, coal, cg_coalesced, shfl_down)
EACH_TYPE(TWIN_MATCH, coal, cg_coalesced)
TWIN_PRED(coal, cg_coalesced, any)
TWIN_PRED(coal, cg_coalesced, all)
TWIN_PRED(coal, cg_coalesced, ballot)
TWIN_QUERY(coal, cg_coalesced, meta_group_rank)
TWIN_QUERY(coal, cg_coalesced, meta_group_size)
TWIN_PARTITION(coal, cg_coalesced)

/* ---- tiles of 64..1024 -------------------------------------------------------- */
EACH_TYPE(TWIN_OP, wide, cg_wide_tile, reduce)
EACH_TYPE(TWIN_OP, wide, cg_wide_tile, inclusive_scan)
EACH_TYPE(TWIN_OP, wide, cg_wide_tile, exclusive_scan)
EACH_TYPE(TWIN_ARG, wide, cg_wide_tile, shfl)
TWIN_PRED(wide, cg_wide_tile, any)
TWIN_PRED(wide, cg_wide_tile, all)
TWIN_QUERY(wide, cg_wide_tile, meta_group_rank)
TWIN_QUERY(wide, cg_wide_tile, meta_group_size)

/* ---- value types without a typed call of their own: the row's call by hand --- */
#define TWIN_ALT(name, T, W, verb_typed, verb_generic)                                             \
    extern "C" __global__ void typed_alt_##name(const T *in, T *out, cg_op_t op)                  \
    {                                                                                              \
        SETUP_tile out[threadIdx.x] = (T)verb_typed(&g, (W)in[threadIdx.x], op);                   \
    }                                                                                              \
    extern "C" __global__ void generic_alt_##name(const T *in, T *out, cg_op_t op)                \
    {                                                                                              \
        SETUP_tile out[threadIdx.x] = verb_generic(&g, in[threadIdx.x], op);                       \
    }
TWIN_ALT(schar_reduce, signed char, int32_t, cg_tile_reduce_i32, cg_reduce)
TWIN_ALT(uchar_reduce, unsigned char, uint32_t, cg_tile_reduce_u32, cg_reduce)
TWIN_ALT(short_scan, short, int32_t, cg_tile_inclusive_scan_i32, cg_inclusive_scan)
TWIN_ALT(ushort_excl, unsigned short, uint32_t, cg_tile_exclusive_scan_u32, cg_exclusive_scan)
TWIN_ALT(llong_reduce, long long, int64_t, cg_tile_reduce_i64, cg_reduce)
TWIN_ALT(ulong_reduce, unsigned long, uint64_t, cg_tile_reduce_u64, cg_reduce)

/* ---- CG_TILED_PARTITION: the typed constructor for each size class --------- */
extern "C" __global__ void typed_static_16(const float *in, float *out)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t t = cg_tiled_partition(&b, 16);
    out[threadIdx.x] = cg_tile_reduce_f32(&t, in[threadIdx.x], CG_OP_PLUS) + (float)cg_tile_meta_group_rank(&t);
}
extern "C" __global__ void generic_static_16(const float *in, float *out)
{
    cg_thread_block_t b = cg_this_thread_block();
    CG_TILE_T(16) t = CG_TILED_PARTITION(&b, 16);
    out[threadIdx.x] = cg_reduce(&t, in[threadIdx.x], CG_OP_PLUS) + (float)cg_meta_group_rank(&t);
}
extern "C" __global__ void typed_static_256(const float *in, float *out)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_wide_tile_t t = cg_wide_tiled_partition(&b, 256);
    out[threadIdx.x] = cg_wide_tile_reduce_f32(&t, in[threadIdx.x], CG_OP_PLUS) +
                       (float)cg_wide_tile_meta_group_rank(&t);
}
extern "C" __global__ void generic_static_256(const float *in, float *out)
{
    cg_thread_block_t b = cg_this_thread_block();
    CG_TILE_T(256) t = CG_TILED_PARTITION(&b, 256);
    out[threadIdx.x] = cg_reduce(&t, in[threadIdx.x], CG_OP_PLUS) + (float)cg_meta_group_rank(&t);
}
extern "C" __global__ void typed_static_tile_of_tile(const int *in, int *out)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t w = cg_tiled_partition(&b, 32);
    cg_tile_t t = cg_tile_tiled_partition(&w, 8);
    out[threadIdx.x] = cg_tile_reduce_i32(&t, in[threadIdx.x], CG_OP_GREATER);
}
extern "C" __global__ void generic_static_tile_of_tile(const int *in, int *out)
{
    cg_thread_block_t b = cg_this_thread_block();
    CG_TILE_T(32) w = CG_TILED_PARTITION(&b, 32);
    CG_TILE_T(8) t = CG_TILED_PARTITION(&w, 8);
    out[threadIdx.x] = cg_reduce(&t, in[threadIdx.x], CG_OP_GREATER);
}

/* ---- a C++ CG kernel templated over T and N, ported: no wrapper, no branch --- */

/* What a templated C++ CG kernel does with thread_block_tile<N>: reduce,
 * scans, shfl, a vote and the queries; written once for every T and N. */
template <typename T, unsigned N>
__device__ __forceinline__ void port_body(const T *in, T *out, uint32_t src)
{
    cg_thread_block_t b = cg_this_thread_block();
    CG_TILE_T(N) t = CG_TILED_PARTITION(&b, N);
    T v = in[threadIdx.x];
    T s = cg_reduce(&t, v, CG_OP_PLUS);
    T lo = cg_inclusive_scan(&t, v, CG_OP_LESS);
    T ex = cg_exclusive_scan(&t, v, CG_OP_PLUS);
    T x = cg_shfl(&t, s, src);
    int any = cg_any(&t, v > (T)0);
    cg_sync(&t);
    out[threadIdx.x] = s + lo + ex + x + (T)any + (T)cg_thread_rank(&t) + (T)cg_meta_group_size(&t);
}

/* The same, typed, for a tile of up to 32 and for a wide tile. */
#define PORT_TYPED_TILE(sfx, T, N)                                                                 \
    extern "C" __global__ void typed_port_##sfx##_##N(const T *in, T *out, uint32_t src)          \
    {                                                                                              \
        cg_thread_block_t b = cg_this_thread_block();                                              \
        cg_tile_t t = cg_tiled_partition(&b, N);                                                   \
        T v = in[threadIdx.x];                                                                     \
        T s = cg_tile_reduce_##sfx(&t, v, CG_OP_PLUS);                                             \
        T lo = cg_tile_inclusive_scan_##sfx(&t, v, CG_OP_LESS);                                    \
        T ex = cg_tile_exclusive_scan_##sfx(&t, v, CG_OP_PLUS);                                    \
        T x = cg_tile_shfl_##sfx(&t, s, src);                                                      \
        int any = cg_tile_any(&t, v > (T)0);                                                       \
        cg_tile_sync(&t);                                                                          \
        out[threadIdx.x] =                                                                         \
            s + lo + ex + x + (T)any + (T)cg_tile_thread_rank(&t) + (T)cg_tile_meta_group_size(&t); \
    }                                                                                              \
    extern "C" __global__ void generic_port_##sfx##_##N(const T *in, T *out, uint32_t src)        \
    {                                                                                              \
        port_body<T, N>(in, out, src);                                                             \
    }
#define PORT_TYPED_WIDE(sfx, T, N)                                                                 \
    extern "C" __global__ void typed_port_##sfx##_##N(const T *in, T *out, uint32_t src)          \
    {                                                                                              \
        cg_thread_block_t b = cg_this_thread_block();                                              \
        cg_wide_tile_t t = cg_wide_tiled_partition(&b, N);                                         \
        T v = in[threadIdx.x];                                                                     \
        T s = cg_wide_tile_reduce_##sfx(&t, v, CG_OP_PLUS);                                        \
        T lo = cg_wide_tile_inclusive_scan_##sfx(&t, v, CG_OP_LESS);                               \
        T ex = cg_wide_tile_exclusive_scan_##sfx(&t, v, CG_OP_PLUS);                               \
        T x = cg_wide_tile_shfl_##sfx(&t, s, src);                                                 \
        int any = cg_wide_tile_any(&t, v > (T)0);                                                  \
        cg_wide_tile_sync(&t);                                                                     \
        out[threadIdx.x] = s + lo + ex + x + (T)any + (T)cg_wide_tile_thread_rank(&t) +            \
                           (T)cg_wide_tile_meta_group_size(&t);                                    \
    }                                                                                              \
    extern "C" __global__ void generic_port_##sfx##_##N(const T *in, T *out, uint32_t src)        \
    {                                                                                              \
        port_body<T, N>(in, out, src);                                                             \
    }

PORT_TYPED_TILE(i32, int32_t, 16)
PORT_TYPED_TILE(f64, double, 32)
PORT_TYPED_WIDE(f32, float, 64)
PORT_TYPED_WIDE(u64, uint64_t, 512)

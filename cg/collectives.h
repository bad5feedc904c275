/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/collectives.h — every collective of a warp tile (1..32 threads), for
 * every arithmetic type and operator: C++ CG's cg::reduce,
 * cg::inclusive_scan, cg::exclusive_scan, the four shuffles, shuffles of any
 * object by size, match_any and match_all.
 *
 *   cg_tile_t t = cg_tiled_partition(&b, 16);
 *   int64_t s  = cg_tile_reduce_i64(&t, v, CG_OP_PLUS);
 *   double  m  = cg_tile_reduce_f64(&t, x, CG_OP_LESS);        (minimum)
 *   uint32_t o = cg_tile_exclusive_scan_u32(&t, n, CG_OP_PLUS);  (offsets)
 *   double  y  = cg_tile_shfl_down_f64(&t, x, 1);
 *   my_struct_t s2;  cg_tile_shfl_bytes(&t, &s2, &s, sizeof s, 0);
 *
 * Names: cg_tile_<verb>_<type>, the type one of
 *   _i32 int32_t   _u32 uint32_t   _i64 int64_t   _u64 uint64_t
 *   _f32 float     _f64 double
 * and the operator a cg_op_t value (CG_OP_PLUS, CG_OP_LESS = minimum,
 * CG_OP_GREATER = maximum, CG_OP_BIT_AND, CG_OP_BIT_OR, CG_OP_BIT_XOR). Every
 * call is inlined, so an operator written as a constant folds: the code is
 * that operator's alone (the switch over operators exists only for an
 * operator known at run time). Why one name per type and verb with the
 * operator as a value, not one name per operator: docs/PORTING.md.
 *
 * Results are C++ CG's, bit for bit, in whole tiles: the same operator
 * definitions (less(a, b) = b < a ? b : a, greater(a, b) = a < b ? b : a,
 * applied as op(own value, value from another rank), which decides which of
 * two equal floats such as +0 and -0 wins) and the same order of combination:
 *   reduce           32-bit integers on sm_80+ and tiles of 16 or 32: one
 *                    redux.sync (integer results do not depend on order);
 *                    everything else: a butterfly, op(v, shfl_xor(v, o)) for
 *                    o = n/2, n/4, ..., 1 (every rank gets the same bits).
 *   inclusive_scan   Hillis-Steele: for i = 1, 2, 4, ... < n, ranks >= i do
 *                    v = op(v, shfl_up(v, i)).
 *   exclusive_scan   integers with CG_OP_PLUS: inclusive - own value; every
 *                    other case: the inclusive result of rank - 1, and rank 0
 *                    gets 0 for EVERY operator (C++ CG returns T{}, a zero,
 *                    not the operator's identity).
 * Integer sums wrap (computed unsigned); no signed overflow is undefined.
 *
 * Bit operators are for the integer types only (C++ CG does not compile them
 * for float/double): passed to an _f32/_f64 call they are a contract
 * violation; a debug build (CG_DEBUG=1) traps with a message, a release build
 * treats the operator as "keep own value".
 *
 * Partial tiles. In a block whose thread count is not a multiple of 32 the
 * last warp is partial, and a tile there may hold fewer than n threads (its
 * mask holds only the threads that exist; num_threads stays n, as in C++ CG).
 * There every collective here is defined over the threads that exist:
 *   reduce           32-bit integers on sm_80+: redux.sync over the mask;
 *                    everything else: the butterfly with the missing ranks
 *                    skipped (rank r combines with rank r ^ o, or with rank
 *                    (r ^ o) mod 2o when r ^ o is missing, or keeps its value
 *                    when both are; cg_tile_reduce_partial_). In a block with
 *                    a partial warp every tile takes that path, chosen by one
 *                    block-uniform test, and in a whole tile it IS the
 *                    butterfly, bit for bit. Float results of a partial tile
 *                    follow that order (not a sequential one).
 *   scans            as in whole tiles (a rank reads only lower ranks).
 *   match_any/all    over the threads that exist.
 *   shuffles         defined when the source rank exists.
 * C++ CG uses the whole tile's mask there: its scans, match_any and its
 * redux.sync reductions give the same results as cgc's, its butterfly
 * reductions and its shuffles from missing ranks read undefined values.
 *
 * Shuffles of any object: cg_tile_shfl{,_up,_down,_xor}_bytes(&t, dst, src,
 * size, arg) move `size` bytes (any size, any trivially copyable object: a
 * double, a uint4, a struct) in 4-byte words, one shuffle per word (a
 * trailing partial word is one more). `dst` may be `src`; otherwise the two
 * must not overlap. With `size` a constant (sizeof), the word loop unrolls
 * and objects in registers stay there. C++ CG limits its templated shfl to 32
 * bytes; these have no limit.
 *
 * match_any / match_all compare bit patterns (a float +0 and -0 differ, equal
 * NaN bits match), as __match_any_sync does; results are tile-rank bit masks.
 * match_all writes 1 to *pred (when pred is not NULL) when every thread of the
 * tile holds the same value, else 0; it returns the tile's rank mask then,
 * else 0.
 */
#ifndef CG_CG_COLLECTIVES_H
#define CG_CG_COLLECTIVES_H

#include "../base/config.h"
#include "../base/sreg.h"
#include "tile.h"

/* The operators of C++ CG's cooperative_groups/functional.h. */
typedef enum cg_op {
    CG_OP_PLUS = 0, /* cg::plus: a + b (integers wrap) */
    CG_OP_LESS = 1, /* cg::less: the minimum, b < a ? b : a */
    CG_OP_GREATER = 2, /* cg::greater: the maximum, a < b ? b : a */
    CG_OP_BIT_AND = 3, /* cg::bit_and (integer types only) */
    CG_OP_BIT_OR = 4, /* cg::bit_or (integer types only) */
    CG_OP_BIT_XOR = 5 /* cg::bit_xor (integer types only) */
} cg_op_t;

#if CG_DEVICE_CODE_VISIBLE

#if !defined(__CUDACC_RTC__) /* NVRTC declares memcpy itself */
#include <string.h>               /* memcpy: the byte shuffles move words through registers */
#endif

/* ------------------------------------------------------------------------- */
/* A bit operator on a float or double: a compile error when it is constant  */
/* ------------------------------------------------------------------------- */

/* CG_OP_VALUE_CHECK_(v, op) (internal): when `op` is a constant at the call
 * (CG_OP_BIT_AND, a literal, an enum) that is a bit operator and `v` is a
 * float or a double, the build stops at the caller's line naming the rule:
 * the check's overload on a pointer to float/double (a pointer: an int
 * must not convert to it) has an incomplete return type whose name is the
 * message, and sizeof asks for it. Anything else (an integer
 * value, a constant arithmetic operator, an operator only known at run time)
 * reaches the `...` overload: nothing happens, nothing is emitted (sizeof
 * evaluates nothing). A run-time bit operator on a float is reported by a
 * debug build (cg_op_not_for_floats_ below). Declared, never defined. */
#if defined(__CUDACC_RTC__) /* NVRTC has no __builtin_constant_p: the debug build's run-time report only */
#define CG_OP_IS_CONSTANT_BIT_(op) 0
#else
#define CG_OP_IS_CONSTANT_BIT_(op) (__builtin_constant_p(op) && (int)(op) >= (int)CG_OP_BIT_AND)
#endif
/* The type of a value, without reference or top-level const/volatile
 * (decltype of an lvalue is a reference), for a null pointer of it:
 * CG_VALUE_TYPE_(v) *. Declared only; named in unevaluated operands. A
 * template, internal: C++ only (nvcc compiles every .cu file as C++). */
template <class T> __device__ T cg_value_of_(T);
#define CG_VALUE_TYPE_(v) decltype(cg_value_of_(v))
CG_GROUP_CATCH_ALLS_BEGIN_
struct cg_op_bit_and_bit_or_bit_xor_take_an_integer_value_not_a_float_or_double;
static __device__ struct cg_op_bit_and_bit_or_bit_xor_take_an_integer_value_not_a_float_or_double
cg_op_value_check_(const volatile float *, char (*)[2]);
static __device__ struct cg_op_bit_and_bit_or_bit_xor_take_an_integer_value_not_a_float_or_double
cg_op_value_check_(const volatile double *, char (*)[2]);
static __device__ char cg_op_value_check_(...);
CG_GROUP_CATCH_ALLS_END_
#define CG_OP_VALUE_CHECK_(v, op)                                                                  \
    ((void)sizeof(cg_op_value_check_((CG_VALUE_TYPE_(v) *)0, (char(*)[1 + CG_OP_IS_CONSTANT_BIT_(op)])0)))

/* A typed float/double collective `fn` (element type T) as a macro of the
 * same name that runs the check, then calls the function (internal; each
 * such macro follows its function's definition). */
#define CG_OP_FLOAT_CALL_(fn, T, g, v, op) (CG_OP_VALUE_CHECK_((T)0, op), fn((g), (v), (op)))

/* ------------------------------------------------------------------------- */
/* Operators, one function per type (internal)                               */
/* ------------------------------------------------------------------------- */

/* An integer operator. Sums are formed unsigned so they wrap, never overflow. */
#define CG_INT_OP_(sfx, T, UT)                                                  \
    CG_DEVICE T cg_op_##sfx##_(cg_op_t op, T a, T b)                            \
    {                                                                           \
        switch (op) {                                                           \
        case CG_OP_PLUS:                                                        \
            return (T)((UT)a + (UT)b);                                          \
        case CG_OP_LESS:                                                        \
            return b < a ? b : a;                                               \
        case CG_OP_GREATER:                                                     \
            return a < b ? b : a;                                               \
        case CG_OP_BIT_AND:                                                     \
            return a & b;                                                       \
        case CG_OP_BIT_OR:                                                      \
            return a | b;                                                       \
        default:                                                                \
            return a ^ b;                                                       \
        }                                                                       \
    }                                                                           \
    /* inclusive - own value, for the integer-plus exclusive scan */           \
    CG_DEVICE T cg_unplus_##sfx##_(T s, T v) { return (T)((UT)s - (UT)v); }

CG_INT_OP_(i32, int32_t, uint32_t)
CG_INT_OP_(u32, uint32_t, uint32_t)
CG_INT_OP_(i64, int64_t, uint64_t)
CG_INT_OP_(u64, uint64_t, uint64_t)

/* A bit operator reached a float/double collective (debug build: out of
 * line, base/config.h, CG_REPORT_). */
#if CG_DEBUG
CG_REPORT_ void cg_op_not_for_floats_(cg_op_t op)
{
    printf("cgc: collective on float/double with operator %d: bit_and/bit_or/bit_xor are for integer types only\n",
           (int)op);
    __trap();
}
#else
CG_DEVICE void cg_op_not_for_floats_(cg_op_t op) { (void)op; }
#endif

/* A floating-point operator: C++ CG's definitions, argument order kept. */
#define CG_FLOAT_OP_(sfx, T)                                                    \
    CG_DEVICE T cg_op_##sfx##_(cg_op_t op, T a, T b)                            \
    {                                                                           \
        switch (op) {                                                           \
        case CG_OP_PLUS:                                                        \
            return a + b;                                                       \
        case CG_OP_LESS:                                                        \
            return b < a ? b : a;                                               \
        case CG_OP_GREATER:                                                     \
            return a < b ? b : a;                                               \
        default:                                                                \
            cg_op_not_for_floats_(op);                                          \
            return a;                                                           \
        }                                                                       \
    }                                                                           \
    /* never called: exclusive scans of floats shuffle (C++ CG does too) */    \
    CG_DEVICE T cg_unplus_##sfx##_(T s, T v) { return s - v; }

CG_FLOAT_OP_(f32, float)
CG_FLOAT_OP_(f64, double)

/* 1 for the integer types: their CG_OP_PLUS exclusive scan subtracts. */
#define CG_INTEGRAL_i32_ 1
#define CG_INTEGRAL_u32_ 1
#define CG_INTEGRAL_i64_ 1
#define CG_INTEGRAL_u64_ 1
#define CG_INTEGRAL_f32_ 0
#define CG_INTEGRAL_f64_ 0

/* ------------------------------------------------------------------------- */
/* redux.sync (internal)                                                     */
/* ------------------------------------------------------------------------- */

/* 1 where a type's reductions can be one redux.sync: 32-bit integers, sm_80+.
 *   redux.sync.op.type dst, src, membermask;  .op = {.add, .min, .max},
 *                                             .type = {.u32, .s32}
 *   redux.sync.op.b32  dst, src, membermask;  .op = {.and, .or, .xor}
 * PTX ISA 7.0, sm_80. Reduces over the non-exited threads of membermask, so
 * a partial tile's mask gives the reduction of the threads that exist. (The
 * .f32 min/max forms need sm_100a; sm_90 has no float or 64-bit redux.) The
 * __reduce_*_sync intrinsics emit exactly these. */
#define CG_REDUX_i32_ CG_ARCH_HAS_SM80
#define CG_REDUX_u32_ CG_ARCH_HAS_SM80
#define CG_REDUX_i64_ 0
#define CG_REDUX_u64_ 0
#define CG_REDUX_f32_ 0
#define CG_REDUX_f64_ 0

/* Defines cg_redux_<sfx>_(mask, v, op): op over the threads of mask, one
 * redux.sync (the __reduce_*_sync intrinsics, by v's type T: .s32 or .u32
 * for add, min and max; .b32 for and, or and xor). */
#define CG_REDUX_FORMS_(sfx, T)                                                 \
    CG_DEVICE T cg_redux_##sfx##_(uint32_t mask, T v, cg_op_t op)               \
    {                                                                           \
        switch (op) {                                                           \
        case CG_OP_PLUS:                                                        \
            return __reduce_add_sync(mask, v);                                  \
        case CG_OP_LESS:                                                        \
            return __reduce_min_sync(mask, v);                                  \
        case CG_OP_GREATER:                                                     \
            return __reduce_max_sync(mask, v);                                  \
        case CG_OP_BIT_AND:                                                     \
            return (T)__reduce_and_sync(mask, (uint32_t)v);                     \
        case CG_OP_BIT_OR:                                                      \
            return (T)__reduce_or_sync(mask, (uint32_t)v);                      \
        default:                                                                \
            return (T)__reduce_xor_sync(mask, (uint32_t)v);                     \
        }                                                                       \
    }
/* Defines cg_redux_<sfx>_ for a type or target without redux: never called
 * (CG_REDUX_<sfx>_ is 0); it keeps the shape of the calls. */
#define CG_REDUX_NONE_(sfx, T)                                                  \
    CG_DEVICE T cg_redux_##sfx##_(uint32_t mask, T v, cg_op_t op)               \
    {                                                                           \
        (void)mask;                                                             \
        (void)op;                                                               \
        return v;                                                               \
    }

#if CG_ARCH_HAS_SM80
CG_REDUX_FORMS_(i32, int32_t)
CG_REDUX_FORMS_(u32, uint32_t)
#else
CG_REDUX_NONE_(i32, int32_t)
CG_REDUX_NONE_(u32, uint32_t)
#endif
CG_REDUX_NONE_(i64, int64_t)
CG_REDUX_NONE_(u64, uint64_t)
CG_REDUX_NONE_(f32, float)
CG_REDUX_NONE_(f64, double)

/* ------------------------------------------------------------------------- */
/* Tile helpers (internal)                                                   */
/* ------------------------------------------------------------------------- */

/* The caller's rank in its tile: lane & (n - 1) (a tile never spans warps and
 * a warp's lanes are consecutive block ranks, so this equals
 * cg_tile_thread_rank; %laneid is one register read in any block shape). */
CG_DEVICE uint32_t cg_tile_rank_(const cg_tile_t *t) { return cg_sreg_laneid() & (t->_size - 1u); }

/* The tile's first lane in the warp. */
CG_DEVICE uint32_t cg_tile_base_(const cg_tile_t *t) { return cg_sreg_laneid() & ~(t->_size - 1u); }

/* 1 when every one of the tile's n threads exists (not the partial tile of a
 * partial last warp). */
CG_DEVICE int cg_tile_whole_(const cg_tile_t *t) { return (uint32_t)__popc(t->_mask) == t->_size; }

/* The member mask for a *_sync instruction that reads only lanes that exist
 * (redux.sync; shuffles from existing ranks): all 32 lanes for a tile of 32,
 * else the tile's mask. Why all 32 is right in a partial last warp too: the
 * lanes past the end never launched, they count as exited, and these
 * instructions wait for and combine only the non-exited threads of the mask
 * (PTX ISA, shfl.sync / redux.sync). Why: a constant mask lets ptxas drop the
 * warp synchronisation a register mask costs (C++ CG's tile of 32 passes the
 * constant too). docs/design/collectives.md. */
CG_DEVICE uint32_t cg_tile_sync_mask_(const cg_tile_t *t) { return t->_size == 32u ? 0xffffffffu : t->_mask; }

/* 1 when the block's thread count is a multiple of 32: no partial warp, so
 * every tile is whole. Read from %ntid (block-uniform), so a branch on it is
 * uniform to ptxas, unlike a branch on the tile's mask. */
CG_DEVICE int cg_block_warps_whole_(void) { return ((blockDim.x * blockDim.y * blockDim.z) & 31u) == 0u; }

/* ------------------------------------------------------------------------- */
/* Shuffles of one value, per type (internal)                                */
/* ------------------------------------------------------------------------- */

/* 32-bit types: the CUDA intrinsics (one shfl.sync each). */
#define CG_SHFL32_(sfx, T)                                                      \
    CG_DEVICE T cg_shfl_idx_##sfx##_(uint32_t m, T v, uint32_t a, uint32_t w)   \
    {                                                                           \
        return __shfl_sync(m, v, (int)a, (int)w);                               \
    }                                                                           \
    CG_DEVICE T cg_shfl_up_##sfx##_(uint32_t m, T v, uint32_t a, uint32_t w)    \
    {                                                                           \
        return __shfl_up_sync(m, v, a, (int)w);                                 \
    }                                                                           \
    CG_DEVICE T cg_shfl_down_##sfx##_(uint32_t m, T v, uint32_t a, uint32_t w)  \
    {                                                                           \
        return __shfl_down_sync(m, v, a, (int)w);                               \
    }                                                                           \
    CG_DEVICE T cg_shfl_xor_##sfx##_(uint32_t m, T v, uint32_t a, uint32_t w)   \
    {                                                                           \
        return __shfl_xor_sync(m, v, (int)a, (int)w);                           \
    }
CG_SHFL32_(i32, int32_t)
CG_SHFL32_(u32, uint32_t)
CG_SHFL32_(f32, float)

/* 64-bit types: two shfl.sync.b32, high word then low word, as CUDA's own
 * 64-bit __shfl_*_sync overloads do. The words are split and joined with
 * __double2hiint / __double2loint / __hiloint2double (NVVM builtins, plain
 * bit moves that become a register pair in SASS) instead of those overloads,
 * which split with `asm volatile("mov.b64 ...")`: an opaque volatile asm in
 * a caller's loop stops NVVM from unswitching that loop on the whole-block
 * test of cg_tile_reduce and from unrolling it, which left a per-call
 * branch, a BSSY/BSYNC pair and a BRA.DIV in the SASS of every double
 * reduction (docs/design/collectives.md). i64/u64 go through the same code
 * as a double's bits (__longlong_as_double is a bit cast). */
#define CG_SHFL64_KIND_(kind, call)                                             \
    CG_DEVICE double cg_shfl_##kind##_f64_(uint32_t m, double v, uint32_t a, uint32_t w) \
    {                                                                           \
        int hi = call(m, __double2hiint(v), a, w);                              \
        int lo = call(m, __double2loint(v), a, w);                              \
        return __hiloint2double(hi, lo);                                        \
    }                                                                           \
    CG_DEVICE int64_t cg_shfl_##kind##_i64_(uint32_t m, int64_t v, uint32_t a, uint32_t w) \
    {                                                                           \
        return (int64_t)__double_as_longlong(cg_shfl_##kind##_f64_(m, __longlong_as_double((long long)v), a, w)); \
    }                                                                           \
    CG_DEVICE uint64_t cg_shfl_##kind##_u64_(uint32_t m, uint64_t v, uint32_t a, uint32_t w) \
    {                                                                           \
        return (uint64_t)__double_as_longlong(cg_shfl_##kind##_f64_(m, __longlong_as_double((long long)v), a, w)); \
    }
#define CG_SHFL_IDX32_(m, x, a, w) __shfl_sync(m, x, (int)(a), (int)(w))
#define CG_SHFL_UP32_(m, x, a, w) __shfl_up_sync(m, x, a, (int)(w))
#define CG_SHFL_DOWN32_(m, x, a, w) __shfl_down_sync(m, x, a, (int)(w))
#define CG_SHFL_XOR32_(m, x, a, w) __shfl_xor_sync(m, x, (int)(a), (int)(w))
CG_SHFL64_KIND_(idx, CG_SHFL_IDX32_)
CG_SHFL64_KIND_(up, CG_SHFL_UP32_)
CG_SHFL64_KIND_(down, CG_SHFL_DOWN32_)
CG_SHFL64_KIND_(xor, CG_SHFL_XOR32_)

/* ------------------------------------------------------------------------- */
/* Every tile collective of one type                                         */
/* ------------------------------------------------------------------------- */

/* The steps of a Hillis-Steele inclusive scan of v (type T, operator
 * cg_op_<sfx>_ of the variable op) over ranks 0..n-1, the caller at rank r:
 * at step i every thread reads `up`, an expression of i giving v of the rank
 * i below its own, and combines it where i <= r. A statement; v is updated
 * in place. The scans of tiles, coalesced groups and wide tiles' warps. */
#define CG_SCAN_STEPS_(T, sfx, n, r, up)                                        \
    for (uint32_t i = 1; i < (n); i <<= 1) {                                    \
        T u = up;                                                               \
        if (i <= (r))                                                           \
            v = cg_op_##sfx##_(op, v, u);                                       \
    }

/* The shuffles, match, scans and reduce of every value type, one function
 * each, written from cg/collectives.tbl (the one list of value types and of
 * each kind's verbs) by tools/ptx/gen_collectives.py. */
/* ---- generated by tools/ptx/gen_collectives.py from cg/collectives.tbl [tile]; do not edit ---- */
/* The value of v in tile rank src (taken modulo n). */
CG_DEVICE int32_t cg_tile_shfl_i32(const cg_tile_t *t, int32_t v, uint32_t src)
{
    return cg_shfl_idx_i32_(cg_tile_sync_mask_(t), v, src, t->_size);
}

/* The value of v in rank - delta; ranks below delta get their own. */
CG_DEVICE int32_t cg_tile_shfl_up_i32(const cg_tile_t *t, int32_t v, uint32_t delta)
{
    return cg_shfl_up_i32_(cg_tile_sync_mask_(t), v, delta, t->_size);
}

/* The value of v in rank + delta; ranks past the end get their own. */
CG_DEVICE int32_t cg_tile_shfl_down_i32(const cg_tile_t *t, int32_t v, uint32_t delta)
{
    return cg_shfl_down_i32_(cg_tile_sync_mask_(t), v, delta, t->_size);
}

/* The value of v in rank ^ lane_mask. */
CG_DEVICE int32_t cg_tile_shfl_xor_i32(const cg_tile_t *t, int32_t v, uint32_t lane_mask)
{
    return cg_shfl_xor_i32_(cg_tile_sync_mask_(t), v, lane_mask, t->_size);
}

/* Tile ranks whose v has the same bits as the caller's. */
CG_DEVICE uint32_t cg_tile_match_any_i32(const cg_tile_t *t, int32_t v)
{
    return __match_any_sync(t->_mask, v) >> cg_tile_base_(t);
}

/* __match_all_sync over mask, its predicate in *pred when pred is not
 * NULL (internal; a tile's and a coalesced group's match_all). */
CG_DEVICE uint32_t cg_match_all_i32_(uint32_t mask, int32_t v, int *pred)
{
    int p;
    uint32_t m = __match_all_sync(mask, v, &p);
    if (pred)
        *pred = p;
    return m;
}

/* The tile's rank mask if every thread's v has the same bits, else 0;
 * *pred (if pred is not NULL) gets 1 or 0 alike. */
CG_DEVICE uint32_t cg_tile_match_all_i32(const cg_tile_t *t, int32_t v, int *pred)
{
    return cg_match_all_i32_(t->_mask, v, pred) >> cg_tile_base_(t);
}

/* op(v of ranks 0..r) in rank r (Hillis-Steele; see the top). */
CG_DEVICE int32_t cg_tile_inclusive_scan_i32(const cg_tile_t *t, int32_t v, cg_op_t op)
{
    uint32_t r = cg_tile_rank_(t);
    CG_SCAN_STEPS_(int32_t, i32, t->_size, r, cg_tile_shfl_up_i32(t, v, i))
    return v;
}

/* op(v of ranks 0..r-1) in rank r; 0 in rank 0 (see the top). */
CG_DEVICE int32_t cg_tile_exclusive_scan_i32(const cg_tile_t *g, int32_t v, cg_op_t op)
{
    int32_t s = cg_tile_inclusive_scan_i32(g, v, op);
    if (CG_INTEGRAL_i32_ && op == CG_OP_PLUS)
        return cg_unplus_i32_(s, v);
    int32_t u = cg_tile_shfl_up_i32(g, s, 1u);
    return cg_tile_rank_(g) == 0u ? (int32_t)0 : u;
}

/* op over a whole tile, o = n/2, ..., 1 (see the top). */
CG_DEVICE int32_t cg_tile_butterfly_i32_(const cg_tile_t *t, int32_t v, cg_op_t op)
{
    for (uint32_t o = t->_size >> 1; o; o >>= 1)
        v = cg_op_i32_(op, v, cg_tile_shfl_xor_i32(t, v, o));
    return v;
}

/* The butterfly over the tile's threads that exist, ranks 0..c-1
 * (c = popc(mask)): before the step of offset o, rank r holds op over the
 * existing ranks j = r (mod 2o). Its partner class is that of r ^ o; it
 * reads rank r ^ o if it exists, else rank (r ^ o) mod 2o (same class),
 * else the class is empty and it keeps its value. In a whole tile every
 * partner exists: exactly the butterfly, bit for bit. Kept rolled: rare,
 * and small code lets NVVM unswitch a caller's loop on the block test. */
CG_DEVICE int32_t cg_tile_reduce_partial_i32_(const cg_tile_t *t, int32_t v, cg_op_t op)
{
    uint32_t r = cg_tile_rank_(t), c = (uint32_t)__popc(t->_mask);
    _Pragma("unroll 1") for (uint32_t o = t->_size >> 1; o; o >>= 1)
    {
        uint32_t q = r ^ o;
        q = q < c ? q : (q & (2u * o - 1u));
        int32_t u = cg_tile_shfl_i32(t, v, q);
        v = q < c ? cg_op_i32_(op, v, u) : v;
    }
    return v;
}

/* op over every thread of the tile, in every thread (see the top). */
CG_DEVICE int32_t cg_tile_reduce_i32(const cg_tile_t *t, int32_t v, cg_op_t op)
{
    if (CG_REDUX_i32_ && t->_size >= 16u)
        return cg_redux_i32_(cg_tile_sync_mask_(t), v, op);
    /* No partial warp: every tile is whole, C++ CG's butterfly. The test
     * is block-uniform, so ptxas branches on it without reconvergence,
     * and NVVM can take it out of a caller's loop. */
    if (__builtin_expect(cg_block_warps_whole_(), 1))
        return cg_tile_butterfly_i32_(t, v, op);
    /* A block with a partial warp: no branch on the tile (a divergent
     * branch here would cost every call in a loop that is not unswitched
     * a BSSY/BSYNC pair and a BRA.DIV). 32-bit integers: redux.sync over
     * the threads that exist. Others: the butterfly with ranks that do
     * not exist skipped (cg_tile_reduce_partial_), which in a whole tile
     * is the butterfly itself. */
    if (CG_REDUX_i32_)
        return cg_redux_i32_(t->_mask, v, op);
    return cg_tile_reduce_partial_i32_(t, v, op);
}

/* The value of v in tile rank src (taken modulo n). */
CG_DEVICE uint32_t cg_tile_shfl_u32(const cg_tile_t *t, uint32_t v, uint32_t src)
{
    return cg_shfl_idx_u32_(cg_tile_sync_mask_(t), v, src, t->_size);
}

/* The value of v in rank - delta; ranks below delta get their own. */
CG_DEVICE uint32_t cg_tile_shfl_up_u32(const cg_tile_t *t, uint32_t v, uint32_t delta)
{
    return cg_shfl_up_u32_(cg_tile_sync_mask_(t), v, delta, t->_size);
}

/* The value of v in rank + delta; ranks past the end get their own. */
CG_DEVICE uint32_t cg_tile_shfl_down_u32(const cg_tile_t *t, uint32_t v, uint32_t delta)
{
    return cg_shfl_down_u32_(cg_tile_sync_mask_(t), v, delta, t->_size);
}

/* The value of v in rank ^ lane_mask. */
CG_DEVICE uint32_t cg_tile_shfl_xor_u32(const cg_tile_t *t, uint32_t v, uint32_t lane_mask)
{
    return cg_shfl_xor_u32_(cg_tile_sync_mask_(t), v, lane_mask, t->_size);
}

/* Tile ranks whose v has the same bits as the caller's. */
CG_DEVICE uint32_t cg_tile_match_any_u32(const cg_tile_t *t, uint32_t v)
{
    return __match_any_sync(t->_mask, v) >> cg_tile_base_(t);
}

/* __match_all_sync over mask, its predicate in *pred when pred is not
 * NULL (internal; a tile's and a coalesced group's match_all). */
CG_DEVICE uint32_t cg_match_all_u32_(uint32_t mask, uint32_t v, int *pred)
{
    int p;
    uint32_t m = __match_all_sync(mask, v, &p);
    if (pred)
        *pred = p;
    return m;
}

/* The tile's rank mask if every thread's v has the same bits, else 0;
 * *pred (if pred is not NULL) gets 1 or 0 alike. */
CG_DEVICE uint32_t cg_tile_match_all_u32(const cg_tile_t *t, uint32_t v, int *pred)
{
    return cg_match_all_u32_(t->_mask, v, pred) >> cg_tile_base_(t);
}

/* op(v of ranks 0..r) in rank r (Hillis-Steele; see the top). */
CG_DEVICE uint32_t cg_tile_inclusive_scan_u32(const cg_tile_t *t, uint32_t v, cg_op_t op)
{
    uint32_t r = cg_tile_rank_(t);
    CG_SCAN_STEPS_(uint32_t, u32, t->_size, r, cg_tile_shfl_up_u32(t, v, i))
    return v;
}

/* op(v of ranks 0..r-1) in rank r; 0 in rank 0 (see the top). */
CG_DEVICE uint32_t cg_tile_exclusive_scan_u32(const cg_tile_t *g, uint32_t v, cg_op_t op)
{
    uint32_t s = cg_tile_inclusive_scan_u32(g, v, op);
    if (CG_INTEGRAL_u32_ && op == CG_OP_PLUS)
        return cg_unplus_u32_(s, v);
    uint32_t u = cg_tile_shfl_up_u32(g, s, 1u);
    return cg_tile_rank_(g) == 0u ? (uint32_t)0 : u;
}

/* op over a whole tile, o = n/2, ..., 1 (see the top). */
CG_DEVICE uint32_t cg_tile_butterfly_u32_(const cg_tile_t *t, uint32_t v, cg_op_t op)
{
    for (uint32_t o = t->_size >> 1; o; o >>= 1)
        v = cg_op_u32_(op, v, cg_tile_shfl_xor_u32(t, v, o));
    return v;
}

/* The butterfly over the tile's threads that exist, ranks 0..c-1
 * (c = popc(mask)): before the step of offset o, rank r holds op over the
 * existing ranks j = r (mod 2o). Its partner class is that of r ^ o; it
 * reads rank r ^ o if it exists, else rank (r ^ o) mod 2o (same class),
 * else the class is empty and it keeps its value. In a whole tile every
 * partner exists: exactly the butterfly, bit for bit. Kept rolled: rare,
 * and small code lets NVVM unswitch a caller's loop on the block test. */
CG_DEVICE uint32_t cg_tile_reduce_partial_u32_(const cg_tile_t *t, uint32_t v, cg_op_t op)
{
    uint32_t r = cg_tile_rank_(t), c = (uint32_t)__popc(t->_mask);
    _Pragma("unroll 1") for (uint32_t o = t->_size >> 1; o; o >>= 1)
    {
        uint32_t q = r ^ o;
        q = q < c ? q : (q & (2u * o - 1u));
        uint32_t u = cg_tile_shfl_u32(t, v, q);
        v = q < c ? cg_op_u32_(op, v, u) : v;
    }
    return v;
}

/* op over every thread of the tile, in every thread (see the top). */
CG_DEVICE uint32_t cg_tile_reduce_u32(const cg_tile_t *t, uint32_t v, cg_op_t op)
{
    if (CG_REDUX_u32_ && t->_size >= 16u)
        return cg_redux_u32_(cg_tile_sync_mask_(t), v, op);
    /* No partial warp: every tile is whole, C++ CG's butterfly. The test
     * is block-uniform, so ptxas branches on it without reconvergence,
     * and NVVM can take it out of a caller's loop. */
    if (__builtin_expect(cg_block_warps_whole_(), 1))
        return cg_tile_butterfly_u32_(t, v, op);
    /* A block with a partial warp: no branch on the tile (a divergent
     * branch here would cost every call in a loop that is not unswitched
     * a BSSY/BSYNC pair and a BRA.DIV). 32-bit integers: redux.sync over
     * the threads that exist. Others: the butterfly with ranks that do
     * not exist skipped (cg_tile_reduce_partial_), which in a whole tile
     * is the butterfly itself. */
    if (CG_REDUX_u32_)
        return cg_redux_u32_(t->_mask, v, op);
    return cg_tile_reduce_partial_u32_(t, v, op);
}

/* The value of v in tile rank src (taken modulo n). */
CG_DEVICE int64_t cg_tile_shfl_i64(const cg_tile_t *t, int64_t v, uint32_t src)
{
    return cg_shfl_idx_i64_(cg_tile_sync_mask_(t), v, src, t->_size);
}

/* The value of v in rank - delta; ranks below delta get their own. */
CG_DEVICE int64_t cg_tile_shfl_up_i64(const cg_tile_t *t, int64_t v, uint32_t delta)
{
    return cg_shfl_up_i64_(cg_tile_sync_mask_(t), v, delta, t->_size);
}

/* The value of v in rank + delta; ranks past the end get their own. */
CG_DEVICE int64_t cg_tile_shfl_down_i64(const cg_tile_t *t, int64_t v, uint32_t delta)
{
    return cg_shfl_down_i64_(cg_tile_sync_mask_(t), v, delta, t->_size);
}

/* The value of v in rank ^ lane_mask. */
CG_DEVICE int64_t cg_tile_shfl_xor_i64(const cg_tile_t *t, int64_t v, uint32_t lane_mask)
{
    return cg_shfl_xor_i64_(cg_tile_sync_mask_(t), v, lane_mask, t->_size);
}

/* Tile ranks whose v has the same bits as the caller's. */
CG_DEVICE uint32_t cg_tile_match_any_i64(const cg_tile_t *t, int64_t v)
{
    return __match_any_sync(t->_mask, v) >> cg_tile_base_(t);
}

/* __match_all_sync over mask, its predicate in *pred when pred is not
 * NULL (internal; a tile's and a coalesced group's match_all). */
CG_DEVICE uint32_t cg_match_all_i64_(uint32_t mask, int64_t v, int *pred)
{
    int p;
    uint32_t m = __match_all_sync(mask, v, &p);
    if (pred)
        *pred = p;
    return m;
}

/* The tile's rank mask if every thread's v has the same bits, else 0;
 * *pred (if pred is not NULL) gets 1 or 0 alike. */
CG_DEVICE uint32_t cg_tile_match_all_i64(const cg_tile_t *t, int64_t v, int *pred)
{
    return cg_match_all_i64_(t->_mask, v, pred) >> cg_tile_base_(t);
}

/* op(v of ranks 0..r) in rank r (Hillis-Steele; see the top). */
CG_DEVICE int64_t cg_tile_inclusive_scan_i64(const cg_tile_t *t, int64_t v, cg_op_t op)
{
    uint32_t r = cg_tile_rank_(t);
    CG_SCAN_STEPS_(int64_t, i64, t->_size, r, cg_tile_shfl_up_i64(t, v, i))
    return v;
}

/* op(v of ranks 0..r-1) in rank r; 0 in rank 0 (see the top). */
CG_DEVICE int64_t cg_tile_exclusive_scan_i64(const cg_tile_t *g, int64_t v, cg_op_t op)
{
    int64_t s = cg_tile_inclusive_scan_i64(g, v, op);
    if (CG_INTEGRAL_i64_ && op == CG_OP_PLUS)
        return cg_unplus_i64_(s, v);
    int64_t u = cg_tile_shfl_up_i64(g, s, 1u);
    return cg_tile_rank_(g) == 0u ? (int64_t)0 : u;
}

/* op over a whole tile, o = n/2, ..., 1 (see the top). */
CG_DEVICE int64_t cg_tile_butterfly_i64_(const cg_tile_t *t, int64_t v, cg_op_t op)
{
    for (uint32_t o = t->_size >> 1; o; o >>= 1)
        v = cg_op_i64_(op, v, cg_tile_shfl_xor_i64(t, v, o));
    return v;
}

/* The butterfly over the tile's threads that exist, ranks 0..c-1
 * (c = popc(mask)): before the step of offset o, rank r holds op over the
 * existing ranks j = r (mod 2o). Its partner class is that of r ^ o; it
 * reads rank r ^ o if it exists, else rank (r ^ o) mod 2o (same class),
 * else the class is empty and it keeps its value. In a whole tile every
 * partner exists: exactly the butterfly, bit for bit. Kept rolled: rare,
 * and small code lets NVVM unswitch a caller's loop on the block test. */
CG_DEVICE int64_t cg_tile_reduce_partial_i64_(const cg_tile_t *t, int64_t v, cg_op_t op)
{
    uint32_t r = cg_tile_rank_(t), c = (uint32_t)__popc(t->_mask);
    _Pragma("unroll 1") for (uint32_t o = t->_size >> 1; o; o >>= 1)
    {
        uint32_t q = r ^ o;
        q = q < c ? q : (q & (2u * o - 1u));
        int64_t u = cg_tile_shfl_i64(t, v, q);
        v = q < c ? cg_op_i64_(op, v, u) : v;
    }
    return v;
}

/* op over every thread of the tile, in every thread (see the top). */
CG_DEVICE int64_t cg_tile_reduce_i64(const cg_tile_t *t, int64_t v, cg_op_t op)
{
    if (CG_REDUX_i64_ && t->_size >= 16u)
        return cg_redux_i64_(cg_tile_sync_mask_(t), v, op);
    /* No partial warp: every tile is whole, C++ CG's butterfly. The test
     * is block-uniform, so ptxas branches on it without reconvergence,
     * and NVVM can take it out of a caller's loop. */
    if (__builtin_expect(cg_block_warps_whole_(), 1))
        return cg_tile_butterfly_i64_(t, v, op);
    /* A block with a partial warp: no branch on the tile (a divergent
     * branch here would cost every call in a loop that is not unswitched
     * a BSSY/BSYNC pair and a BRA.DIV). 32-bit integers: redux.sync over
     * the threads that exist. Others: the butterfly with ranks that do
     * not exist skipped (cg_tile_reduce_partial_), which in a whole tile
     * is the butterfly itself. */
    if (CG_REDUX_i64_)
        return cg_redux_i64_(t->_mask, v, op);
    return cg_tile_reduce_partial_i64_(t, v, op);
}

/* The value of v in tile rank src (taken modulo n). */
CG_DEVICE uint64_t cg_tile_shfl_u64(const cg_tile_t *t, uint64_t v, uint32_t src)
{
    return cg_shfl_idx_u64_(cg_tile_sync_mask_(t), v, src, t->_size);
}

/* The value of v in rank - delta; ranks below delta get their own. */
CG_DEVICE uint64_t cg_tile_shfl_up_u64(const cg_tile_t *t, uint64_t v, uint32_t delta)
{
    return cg_shfl_up_u64_(cg_tile_sync_mask_(t), v, delta, t->_size);
}

/* The value of v in rank + delta; ranks past the end get their own. */
CG_DEVICE uint64_t cg_tile_shfl_down_u64(const cg_tile_t *t, uint64_t v, uint32_t delta)
{
    return cg_shfl_down_u64_(cg_tile_sync_mask_(t), v, delta, t->_size);
}

/* The value of v in rank ^ lane_mask. */
CG_DEVICE uint64_t cg_tile_shfl_xor_u64(const cg_tile_t *t, uint64_t v, uint32_t lane_mask)
{
    return cg_shfl_xor_u64_(cg_tile_sync_mask_(t), v, lane_mask, t->_size);
}

/* Tile ranks whose v has the same bits as the caller's. */
CG_DEVICE uint32_t cg_tile_match_any_u64(const cg_tile_t *t, uint64_t v)
{
    return __match_any_sync(t->_mask, v) >> cg_tile_base_(t);
}

/* __match_all_sync over mask, its predicate in *pred when pred is not
 * NULL (internal; a tile's and a coalesced group's match_all). */
CG_DEVICE uint32_t cg_match_all_u64_(uint32_t mask, uint64_t v, int *pred)
{
    int p;
    uint32_t m = __match_all_sync(mask, v, &p);
    if (pred)
        *pred = p;
    return m;
}

/* The tile's rank mask if every thread's v has the same bits, else 0;
 * *pred (if pred is not NULL) gets 1 or 0 alike. */
CG_DEVICE uint32_t cg_tile_match_all_u64(const cg_tile_t *t, uint64_t v, int *pred)
{
    return cg_match_all_u64_(t->_mask, v, pred) >> cg_tile_base_(t);
}

/* op(v of ranks 0..r) in rank r (Hillis-Steele; see the top). */
CG_DEVICE uint64_t cg_tile_inclusive_scan_u64(const cg_tile_t *t, uint64_t v, cg_op_t op)
{
    uint32_t r = cg_tile_rank_(t);
    CG_SCAN_STEPS_(uint64_t, u64, t->_size, r, cg_tile_shfl_up_u64(t, v, i))
    return v;
}

/* op(v of ranks 0..r-1) in rank r; 0 in rank 0 (see the top). */
CG_DEVICE uint64_t cg_tile_exclusive_scan_u64(const cg_tile_t *g, uint64_t v, cg_op_t op)
{
    uint64_t s = cg_tile_inclusive_scan_u64(g, v, op);
    if (CG_INTEGRAL_u64_ && op == CG_OP_PLUS)
        return cg_unplus_u64_(s, v);
    uint64_t u = cg_tile_shfl_up_u64(g, s, 1u);
    return cg_tile_rank_(g) == 0u ? (uint64_t)0 : u;
}

/* op over a whole tile, o = n/2, ..., 1 (see the top). */
CG_DEVICE uint64_t cg_tile_butterfly_u64_(const cg_tile_t *t, uint64_t v, cg_op_t op)
{
    for (uint32_t o = t->_size >> 1; o; o >>= 1)
        v = cg_op_u64_(op, v, cg_tile_shfl_xor_u64(t, v, o));
    return v;
}

/* The butterfly over the tile's threads that exist, ranks 0..c-1
 * (c = popc(mask)): before the step of offset o, rank r holds op over the
 * existing ranks j = r (mod 2o). Its partner class is that of r ^ o; it
 * reads rank r ^ o if it exists, else rank (r ^ o) mod 2o (same class),
 * else the class is empty and it keeps its value. In a whole tile every
 * partner exists: exactly the butterfly, bit for bit. Kept rolled: rare,
 * and small code lets NVVM unswitch a caller's loop on the block test. */
CG_DEVICE uint64_t cg_tile_reduce_partial_u64_(const cg_tile_t *t, uint64_t v, cg_op_t op)
{
    uint32_t r = cg_tile_rank_(t), c = (uint32_t)__popc(t->_mask);
    _Pragma("unroll 1") for (uint32_t o = t->_size >> 1; o; o >>= 1)
    {
        uint32_t q = r ^ o;
        q = q < c ? q : (q & (2u * o - 1u));
        uint64_t u = cg_tile_shfl_u64(t, v, q);
        v = q < c ? cg_op_u64_(op, v, u) : v;
    }
    return v;
}

/* op over every thread of the tile, in every thread (see the top). */
CG_DEVICE uint64_t cg_tile_reduce_u64(const cg_tile_t *t, uint64_t v, cg_op_t op)
{
    if (CG_REDUX_u64_ && t->_size >= 16u)
        return cg_redux_u64_(cg_tile_sync_mask_(t), v, op);
    /* No partial warp: every tile is whole, C++ CG's butterfly. The test
     * is block-uniform, so ptxas branches on it without reconvergence,
     * and NVVM can take it out of a caller's loop. */
    if (__builtin_expect(cg_block_warps_whole_(), 1))
        return cg_tile_butterfly_u64_(t, v, op);
    /* A block with a partial warp: no branch on the tile (a divergent
     * branch here would cost every call in a loop that is not unswitched
     * a BSSY/BSYNC pair and a BRA.DIV). 32-bit integers: redux.sync over
     * the threads that exist. Others: the butterfly with ranks that do
     * not exist skipped (cg_tile_reduce_partial_), which in a whole tile
     * is the butterfly itself. */
    if (CG_REDUX_u64_)
        return cg_redux_u64_(t->_mask, v, op);
    return cg_tile_reduce_partial_u64_(t, v, op);
}

/* The value of v in tile rank src (taken modulo n). */
CG_DEVICE float cg_tile_shfl_f32(const cg_tile_t *t, float v, uint32_t src)
{
    return cg_shfl_idx_f32_(cg_tile_sync_mask_(t), v, src, t->_size);
}

/* The value of v in rank - delta; ranks below delta get their own. */
CG_DEVICE float cg_tile_shfl_up_f32(const cg_tile_t *t, float v, uint32_t delta)
{
    return cg_shfl_up_f32_(cg_tile_sync_mask_(t), v, delta, t->_size);
}

/* The value of v in rank + delta; ranks past the end get their own. */
CG_DEVICE float cg_tile_shfl_down_f32(const cg_tile_t *t, float v, uint32_t delta)
{
    return cg_shfl_down_f32_(cg_tile_sync_mask_(t), v, delta, t->_size);
}

/* The value of v in rank ^ lane_mask. */
CG_DEVICE float cg_tile_shfl_xor_f32(const cg_tile_t *t, float v, uint32_t lane_mask)
{
    return cg_shfl_xor_f32_(cg_tile_sync_mask_(t), v, lane_mask, t->_size);
}

/* Tile ranks whose v has the same bits as the caller's. */
CG_DEVICE uint32_t cg_tile_match_any_f32(const cg_tile_t *t, float v)
{
    return __match_any_sync(t->_mask, v) >> cg_tile_base_(t);
}

/* __match_all_sync over mask, its predicate in *pred when pred is not
 * NULL (internal; a tile's and a coalesced group's match_all). */
CG_DEVICE uint32_t cg_match_all_f32_(uint32_t mask, float v, int *pred)
{
    int p;
    uint32_t m = __match_all_sync(mask, v, &p);
    if (pred)
        *pred = p;
    return m;
}

/* The tile's rank mask if every thread's v has the same bits, else 0;
 * *pred (if pred is not NULL) gets 1 or 0 alike. */
CG_DEVICE uint32_t cg_tile_match_all_f32(const cg_tile_t *t, float v, int *pred)
{
    return cg_match_all_f32_(t->_mask, v, pred) >> cg_tile_base_(t);
}

/* op(v of ranks 0..r) in rank r (Hillis-Steele; see the top). */
CG_DEVICE float cg_tile_inclusive_scan_f32(const cg_tile_t *t, float v, cg_op_t op)
{
    uint32_t r = cg_tile_rank_(t);
    CG_SCAN_STEPS_(float, f32, t->_size, r, cg_tile_shfl_up_f32(t, v, i))
    return v;
}

/* op(v of ranks 0..r-1) in rank r; 0 in rank 0 (see the top). */
CG_DEVICE float cg_tile_exclusive_scan_f32(const cg_tile_t *g, float v, cg_op_t op)
{
    float s = cg_tile_inclusive_scan_f32(g, v, op);
    if (CG_INTEGRAL_f32_ && op == CG_OP_PLUS)
        return cg_unplus_f32_(s, v);
    float u = cg_tile_shfl_up_f32(g, s, 1u);
    return cg_tile_rank_(g) == 0u ? (float)0 : u;
}

/* op over a whole tile, o = n/2, ..., 1 (see the top). */
CG_DEVICE float cg_tile_butterfly_f32_(const cg_tile_t *t, float v, cg_op_t op)
{
    for (uint32_t o = t->_size >> 1; o; o >>= 1)
        v = cg_op_f32_(op, v, cg_tile_shfl_xor_f32(t, v, o));
    return v;
}

/* The butterfly over the tile's threads that exist, ranks 0..c-1
 * (c = popc(mask)): before the step of offset o, rank r holds op over the
 * existing ranks j = r (mod 2o). Its partner class is that of r ^ o; it
 * reads rank r ^ o if it exists, else rank (r ^ o) mod 2o (same class),
 * else the class is empty and it keeps its value. In a whole tile every
 * partner exists: exactly the butterfly, bit for bit. Kept rolled: rare,
 * and small code lets NVVM unswitch a caller's loop on the block test. */
CG_DEVICE float cg_tile_reduce_partial_f32_(const cg_tile_t *t, float v, cg_op_t op)
{
    uint32_t r = cg_tile_rank_(t), c = (uint32_t)__popc(t->_mask);
    _Pragma("unroll 1") for (uint32_t o = t->_size >> 1; o; o >>= 1)
    {
        uint32_t q = r ^ o;
        q = q < c ? q : (q & (2u * o - 1u));
        float u = cg_tile_shfl_f32(t, v, q);
        v = q < c ? cg_op_f32_(op, v, u) : v;
    }
    return v;
}

/* op over every thread of the tile, in every thread (see the top). */
CG_DEVICE float cg_tile_reduce_f32(const cg_tile_t *t, float v, cg_op_t op)
{
    if (CG_REDUX_f32_ && t->_size >= 16u)
        return cg_redux_f32_(cg_tile_sync_mask_(t), v, op);
    /* No partial warp: every tile is whole, C++ CG's butterfly. The test
     * is block-uniform, so ptxas branches on it without reconvergence,
     * and NVVM can take it out of a caller's loop. */
    if (__builtin_expect(cg_block_warps_whole_(), 1))
        return cg_tile_butterfly_f32_(t, v, op);
    /* A block with a partial warp: no branch on the tile (a divergent
     * branch here would cost every call in a loop that is not unswitched
     * a BSSY/BSYNC pair and a BRA.DIV). 32-bit integers: redux.sync over
     * the threads that exist. Others: the butterfly with ranks that do
     * not exist skipped (cg_tile_reduce_partial_), which in a whole tile
     * is the butterfly itself. */
    if (CG_REDUX_f32_)
        return cg_redux_f32_(t->_mask, v, op);
    return cg_tile_reduce_partial_f32_(t, v, op);
}

/* The value of v in tile rank src (taken modulo n). */
CG_DEVICE double cg_tile_shfl_f64(const cg_tile_t *t, double v, uint32_t src)
{
    return cg_shfl_idx_f64_(cg_tile_sync_mask_(t), v, src, t->_size);
}

/* The value of v in rank - delta; ranks below delta get their own. */
CG_DEVICE double cg_tile_shfl_up_f64(const cg_tile_t *t, double v, uint32_t delta)
{
    return cg_shfl_up_f64_(cg_tile_sync_mask_(t), v, delta, t->_size);
}

/* The value of v in rank + delta; ranks past the end get their own. */
CG_DEVICE double cg_tile_shfl_down_f64(const cg_tile_t *t, double v, uint32_t delta)
{
    return cg_shfl_down_f64_(cg_tile_sync_mask_(t), v, delta, t->_size);
}

/* The value of v in rank ^ lane_mask. */
CG_DEVICE double cg_tile_shfl_xor_f64(const cg_tile_t *t, double v, uint32_t lane_mask)
{
    return cg_shfl_xor_f64_(cg_tile_sync_mask_(t), v, lane_mask, t->_size);
}

/* Tile ranks whose v has the same bits as the caller's. */
CG_DEVICE uint32_t cg_tile_match_any_f64(const cg_tile_t *t, double v)
{
    return __match_any_sync(t->_mask, v) >> cg_tile_base_(t);
}

/* __match_all_sync over mask, its predicate in *pred when pred is not
 * NULL (internal; a tile's and a coalesced group's match_all). */
CG_DEVICE uint32_t cg_match_all_f64_(uint32_t mask, double v, int *pred)
{
    int p;
    uint32_t m = __match_all_sync(mask, v, &p);
    if (pred)
        *pred = p;
    return m;
}

/* The tile's rank mask if every thread's v has the same bits, else 0;
 * *pred (if pred is not NULL) gets 1 or 0 alike. */
CG_DEVICE uint32_t cg_tile_match_all_f64(const cg_tile_t *t, double v, int *pred)
{
    return cg_match_all_f64_(t->_mask, v, pred) >> cg_tile_base_(t);
}

/* op(v of ranks 0..r) in rank r (Hillis-Steele; see the top). */
CG_DEVICE double cg_tile_inclusive_scan_f64(const cg_tile_t *t, double v, cg_op_t op)
{
    uint32_t r = cg_tile_rank_(t);
    CG_SCAN_STEPS_(double, f64, t->_size, r, cg_tile_shfl_up_f64(t, v, i))
    return v;
}

/* op(v of ranks 0..r-1) in rank r; 0 in rank 0 (see the top). */
CG_DEVICE double cg_tile_exclusive_scan_f64(const cg_tile_t *g, double v, cg_op_t op)
{
    double s = cg_tile_inclusive_scan_f64(g, v, op);
    if (CG_INTEGRAL_f64_ && op == CG_OP_PLUS)
        return cg_unplus_f64_(s, v);
    double u = cg_tile_shfl_up_f64(g, s, 1u);
    return cg_tile_rank_(g) == 0u ? (double)0 : u;
}

/* op over a whole tile, o = n/2, ..., 1 (see the top). */
CG_DEVICE double cg_tile_butterfly_f64_(const cg_tile_t *t, double v, cg_op_t op)
{
    for (uint32_t o = t->_size >> 1; o; o >>= 1)
        v = cg_op_f64_(op, v, cg_tile_shfl_xor_f64(t, v, o));
    return v;
}

/* The butterfly over the tile's threads that exist, ranks 0..c-1
 * (c = popc(mask)): before the step of offset o, rank r holds op over the
 * existing ranks j = r (mod 2o). Its partner class is that of r ^ o; it
 * reads rank r ^ o if it exists, else rank (r ^ o) mod 2o (same class),
 * else the class is empty and it keeps its value. In a whole tile every
 * partner exists: exactly the butterfly, bit for bit. Kept rolled: rare,
 * and small code lets NVVM unswitch a caller's loop on the block test. */
CG_DEVICE double cg_tile_reduce_partial_f64_(const cg_tile_t *t, double v, cg_op_t op)
{
    uint32_t r = cg_tile_rank_(t), c = (uint32_t)__popc(t->_mask);
    _Pragma("unroll 1") for (uint32_t o = t->_size >> 1; o; o >>= 1)
    {
        uint32_t q = r ^ o;
        q = q < c ? q : (q & (2u * o - 1u));
        double u = cg_tile_shfl_f64(t, v, q);
        v = q < c ? cg_op_f64_(op, v, u) : v;
    }
    return v;
}

/* op over every thread of the tile, in every thread (see the top). */
CG_DEVICE double cg_tile_reduce_f64(const cg_tile_t *t, double v, cg_op_t op)
{
    if (CG_REDUX_f64_ && t->_size >= 16u)
        return cg_redux_f64_(cg_tile_sync_mask_(t), v, op);
    /* No partial warp: every tile is whole, C++ CG's butterfly. The test
     * is block-uniform, so ptxas branches on it without reconvergence,
     * and NVVM can take it out of a caller's loop. */
    if (__builtin_expect(cg_block_warps_whole_(), 1))
        return cg_tile_butterfly_f64_(t, v, op);
    /* A block with a partial warp: no branch on the tile (a divergent
     * branch here would cost every call in a loop that is not unswitched
     * a BSSY/BSYNC pair and a BRA.DIV). 32-bit integers: redux.sync over
     * the threads that exist. Others: the butterfly with ranks that do
     * not exist skipped (cg_tile_reduce_partial_), which in a whole tile
     * is the butterfly itself. */
    if (CG_REDUX_f64_)
        return cg_redux_f64_(t->_mask, v, op);
    return cg_tile_reduce_partial_f64_(t, v, op);
}
/* ---- end of generated part ---- */

/* ------------------------------------------------------------------------- */
/* Shuffles of any object, by size                                           */
/* ------------------------------------------------------------------------- */

/* The shuffle kinds, for the word loops below and in cg/coalesced.h. */
typedef enum cg_shfl_kind_ {
    CG_SHFL_IDX_ = 0,
    CG_SHFL_UP_ = 1,
    CG_SHFL_DOWN_ = 2,
    CG_SHFL_XOR_ = 3
} cg_shfl_kind_t_;

/* One 32-bit word through the tile shuffle of `kind`. */
CG_DEVICE uint32_t cg_tile_shfl_word_(const cg_tile_t *t, uint32_t w, cg_shfl_kind_t_ kind, uint32_t arg)
{
    switch (kind) {
    case CG_SHFL_IDX_:
        return cg_tile_shfl_u32(t, w, arg);
    case CG_SHFL_UP_:
        return cg_tile_shfl_up_u32(t, w, arg);
    case CG_SHFL_DOWN_:
        return cg_tile_shfl_down_u32(t, w, arg);
    default:
        return cg_tile_shfl_xor_u32(t, w, arg);
    }
}

/* `size` bytes from src, word by word through the shuffle, to dst. Word i is
 * read before it is written, so dst == src works. */
CG_DEVICE void cg_tile_shfl_bytes_(const cg_tile_t *t, void *dst, const void *src, size_t size,
                                   cg_shfl_kind_t_ kind, uint32_t arg)
{
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    for (size_t o = 0; o < size; o += 4) {
        size_t k = size - o < 4 ? size - o : 4;
        uint32_t w = 0;
        memcpy(&w, s + o, k);
        w = cg_tile_shfl_word_(t, w, kind, arg);
        memcpy(d + o, &w, k);
    }
}

/* dst = the `size` bytes at src in tile rank src_rank (modulo n). */
CG_DEVICE void cg_tile_shfl_bytes(const cg_tile_t *t, void *dst, const void *src, size_t size, uint32_t src_rank)
{
    cg_tile_shfl_bytes_(t, dst, src, size, CG_SHFL_IDX_, src_rank);
}
/* ... in rank - delta (ranks below delta get their own bytes). */
CG_DEVICE void cg_tile_shfl_up_bytes(const cg_tile_t *t, void *dst, const void *src, size_t size, uint32_t delta)
{
    cg_tile_shfl_bytes_(t, dst, src, size, CG_SHFL_UP_, delta);
}
/* ... in rank + delta (ranks past the end get their own bytes). */
CG_DEVICE void cg_tile_shfl_down_bytes(const cg_tile_t *t, void *dst, const void *src, size_t size, uint32_t delta)
{
    cg_tile_shfl_bytes_(t, dst, src, size, CG_SHFL_DOWN_, delta);
}
/* ... in rank ^ lane_mask. */
CG_DEVICE void cg_tile_shfl_xor_bytes(const cg_tile_t *t, void *dst, const void *src, size_t size,
                                      uint32_t lane_mask)
{
    cg_tile_shfl_bytes_(t, dst, src, size, CG_SHFL_XOR_, lane_mask);
}

/* A constant bit operator on the float/double collectives stops the build
 * (CG_OP_VALUE_CHECK_ above). */
#define cg_tile_reduce_f32(t, v, op) CG_OP_FLOAT_CALL_(cg_tile_reduce_f32, float, t, v, op)
#define cg_tile_reduce_f64(t, v, op) CG_OP_FLOAT_CALL_(cg_tile_reduce_f64, double, t, v, op)
#define cg_tile_inclusive_scan_f32(t, v, op) CG_OP_FLOAT_CALL_(cg_tile_inclusive_scan_f32, float, t, v, op)
#define cg_tile_inclusive_scan_f64(t, v, op) CG_OP_FLOAT_CALL_(cg_tile_inclusive_scan_f64, double, t, v, op)
#define cg_tile_exclusive_scan_f32(t, v, op) CG_OP_FLOAT_CALL_(cg_tile_exclusive_scan_f32, float, t, v, op)
#define cg_tile_exclusive_scan_f64(t, v, op) CG_OP_FLOAT_CALL_(cg_tile_exclusive_scan_f64, double, t, v, op)

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_CG_COLLECTIVES_H */

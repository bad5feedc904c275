/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/wide_tile/wide_test.c — cgc's tiles wider than a warp (cg/wide_tile.h)
 * on the GPU:
 *   - oracle: reduce, inclusive/exclusive scan (every type and operator),
 *     shfl, any, all, ranks and sizes, generic rank/size, against C++ CG's
 *     thread_block_tile<N> in the same kernel and against a host reference
 *     that repeats C++ CG's order of combination (so float results must
 *     match bit for bit); N = 64, 128, 256, 512, 1024; 1-D and 3-D blocks
 *     (x not a multiple of 32 included); fresh random inputs; every thread,
 *     every field checked;
 *   - sync: a write / sync / read-another-warp / sync round under random
 *     per-warp delays, many iterations, every read checked; tile i loops
 *     (i + 1) times as many iterations as tile 0 (independent barriers);
 *     tiles of n and 2n threads synced alternately (ids of two sizes);
 *   - the named barrier id of every tile (documented layout).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/cg/wide_tile/wide_kernels.h"

TestSuite(wide_tile, .timeout = 600);

/* ---- host reference: C++ CG's order of combination ------------------------ */

static const char *const type_name[CGW_NTYPES] = {"i32", "u32", "i64", "u64", "f32", "f64"};

/* Operators, argument order as C++ CG's functors: op(a, b) with a the own
 * value. Integer sums wrap (computed unsigned). */
#define CGW_REF_INT_OP(sfx, T, UT)                                                                     \
    static T op_##sfx(int op, T a, T b)                                                                \
    {                                                                                                  \
        switch (op) {                                                                                  \
        case 0:                                                                                        \
            return (T)((UT)a + (UT)b);                                                                 \
        case 1:                                                                                        \
            return b < a ? b : a;                                                                      \
        case 2:                                                                                        \
            return a < b ? b : a;                                                                      \
        case 3:                                                                                        \
            return a & b;                                                                              \
        case 4:                                                                                        \
            return a | b;                                                                              \
        default:                                                                                       \
            return a ^ b;                                                                              \
        }                                                                                              \
    }                                                                                                  \
    static T unplus_##sfx(T s, T v) { return (T)((UT)s - (UT)v); }                                     \
    enum { integral_##sfx = 1 };
#define CGW_REF_FLOAT_OP(sfx, T)                                                                       \
    static T op_##sfx(int op, T a, T b)                                                                \
    {                                                                                                  \
        switch (op) {                                                                                  \
        case 0:                                                                                        \
            return a + b;                                                                              \
        case 1:                                                                                        \
            return b < a ? b : a;                                                                      \
        default:                                                                                       \
            return a < b ? b : a;                                                                      \
        }                                                                                              \
    }                                                                                                  \
    static T unplus_##sfx(T s, T v) { return s - v; }                                                  \
    enum { integral_##sfx = 0 };

CGW_REF_INT_OP(i32, int32_t, uint32_t)
CGW_REF_INT_OP(u32, uint32_t, uint32_t)
CGW_REF_INT_OP(i64, int64_t, uint64_t)
CGW_REF_INT_OP(u64, uint64_t, uint64_t)
CGW_REF_FLOAT_OP(f32, float)
CGW_REF_FLOAT_OP(f64, double)

/* One tile of n values (tile rank order) -> reduce, inclusive and exclusive
 * scan per rank, as C++ CG forms them:
 *   warp reduce: butterfly op(v[l], v[l ^ o]), o = 16..1 (32-bit integer
 *     redux gives the same values); warp w's total = its lane 0's;
 *   totals: butterfly over W lanes; warp w's threads get lane w's result;
 *   warp scan: Hillis-Steele; warp exclusive: shfl_up by 1 (lane 0 keeps
 *     its own); totals: Hillis-Steele over W lanes made exclusive (integer
 *     plus: minus own; else lower lane's, 0 in lane 0); result op(warp scan,
 *     prefix) for warps > 0, the prefix alone in lane 0 (exclusive). */
#define CGW_REF_TILE(sfx, T)                                                                           \
    static void ref_tile_##sfx(unsigned n, const T *v, int op, T *red, T *incl, T *excl)               \
    {                                                                                                  \
        unsigned nw = n / 32u;                                                                         \
        T tot_red[32] = {0}, tot_scan[32] = {0}, ws[1024], wx[1024]; /* totals past nw: copied, unread */ \
        for (unsigned w = 0; w < nw; w++) {                                                            \
            T a[32], b[32];                                                                            \
            memcpy(a, v + w * 32u, sizeof a);                                                          \
            for (unsigned o = 16; o; o >>= 1) {                                                        \
                for (unsigned l = 0; l < 32; l++)                                                      \
                    b[l] = op_##sfx(op, a[l], a[l ^ o]);                                               \
                memcpy(a, b, sizeof a);                                                                \
            }                                                                                          \
            tot_red[w] = a[0];                                                                         \
            memcpy(a, v + w * 32u, sizeof a);                                                          \
            for (unsigned i = 1; i < 32; i <<= 1) {                                                    \
                for (unsigned l = 0; l < 32; l++)                                                      \
                    b[l] = l >= i ? op_##sfx(op, a[l], a[l - i]) : a[l];                               \
                memcpy(a, b, sizeof a);                                                                \
            }                                                                                          \
            tot_scan[w] = a[31];                                                                       \
            for (unsigned l = 0; l < 32; l++) {                                                        \
                ws[w * 32u + l] = a[l];                                                                \
                wx[w * 32u + l] = l == 0 ? a[0] : a[l - 1];                                            \
            }                                                                                          \
        }                                                                                              \
        T x[32], y[32], e[32];                                                                         \
        memcpy(x, tot_red, sizeof x);                                                                  \
        for (unsigned o = nw >> 1; o; o >>= 1) {                                                       \
            for (unsigned l = 0; l < nw; l++)                                                          \
                y[l] = op_##sfx(op, x[l], x[l ^ o]);                                                   \
            memcpy(x, y, sizeof x);                                                                    \
        }                                                                                              \
        memcpy(y, tot_scan, sizeof y);                                                                 \
        for (unsigned i = 1; i < nw; i <<= 1) {                                                        \
            T z[32];                                                                                   \
            for (unsigned l = 0; l < nw; l++)                                                          \
                z[l] = l >= i ? op_##sfx(op, y[l], y[l - i]) : y[l];                                   \
            memcpy(y, z, sizeof y);                                                                    \
        }                                                                                              \
        for (unsigned l = 0; l < nw; l++) {                                                            \
            if (integral_##sfx && op == 0)                                                             \
                e[l] = unplus_##sfx(y[l], tot_scan[l]);                                                \
            else                                                                                       \
                e[l] = l == 0 ? (T)0 : y[l - 1];                                                       \
        }                                                                                              \
        for (unsigned r = 0; r < n; r++) {                                                             \
            unsigned w = r / 32u, l = r % 32u;                                                         \
            red[r] = x[w];                                                                             \
            incl[r] = w == 0 ? ws[r] : op_##sfx(op, ws[r], e[w]);                                      \
            if (l == 0)                                                                                \
                excl[r] = e[w];                                                                        \
            else                                                                                       \
                excl[r] = w == 0 ? wx[r] : op_##sfx(op, wx[r], e[w]);                                  \
        }                                                                                              \
    }

CGW_REF_TILE(i32, int32_t)
CGW_REF_TILE(u32, uint32_t)
CGW_REF_TILE(i64, int64_t)
CGW_REF_TILE(u64, uint64_t)
CGW_REF_TILE(f32, float)
CGW_REF_TILE(f64, double)

/* A type's value from / to its uint64_t bit pattern (low bytes). */
#define CGW_BITS(sfx, T)                                                                               \
    static T from_##sfx(uint64_t b)                                                                    \
    {                                                                                                  \
        T v;                                                                                           \
        memcpy(&v, &b, sizeof v);                                                                      \
        return v;                                                                                      \
    }                                                                                                  \
    static uint64_t bits_##sfx(T v)                                                                    \
    {                                                                                                  \
        uint64_t b = 0;                                                                                \
        memcpy(&b, &v, sizeof v);                                                                      \
        return b;                                                                                      \
    }                                                                                                  \
    /* One tile's reference fields (bits) for operator op. */                                         \
    static void ref_bits_##sfx(unsigned n, const uint64_t *val, int op, uint64_t *red, uint64_t *incl, \
                               uint64_t *excl)                                                         \
    {                                                                                                  \
        T v[1024], r[1024], i[1024], e[1024];                                                          \
        for (unsigned k = 0; k < n; k++)                                                               \
            v[k] = from_##sfx(val[k]);                                                                 \
        ref_tile_##sfx(n, v, op, r, i, e);                                                             \
        for (unsigned k = 0; k < n; k++) {                                                             \
            red[k] = bits_##sfx(r[k]);                                                                 \
            incl[k] = bits_##sfx(i[k]);                                                                \
            excl[k] = bits_##sfx(e[k]);                                                                \
        }                                                                                              \
    }

CGW_BITS(i32, int32_t)
CGW_BITS(u32, uint32_t)
CGW_BITS(i64, int64_t)
CGW_BITS(u64, uint64_t)
CGW_BITS(f32, float)
CGW_BITS(f64, double)

/* The reference for a CGW_ type, by type (its enum order is the list above). */
typedef void (*ref_bits_fn)(unsigned n, const uint64_t *val, int op, uint64_t *red, uint64_t *incl, uint64_t *excl);
static const ref_bits_fn ref_bits_of[CGW_NTYPES] = {ref_bits_i32, ref_bits_u32, ref_bits_i64,
                                                    ref_bits_u64, ref_bits_f32, ref_bits_f64};

static void ref_bits(int type, unsigned n, const uint64_t *val, int op, uint64_t *red, uint64_t *incl,
                     uint64_t *excl)
{
    ref_bits_of[type >= 0 && type < CGW_NTYPES ? type : CGW_F64](n, val, op, red, incl, excl);
}

/* The reference on a hand-checkable case: 64 threads of ones (integer plus):
 * reduce 64, inclusive r + 1, exclusive r; and of floats 1.0: same values. */
Test(wide_tile, reference_self_check)
{
    uint64_t val[64], red[64], incl[64], excl[64];
    for (int t = 0; t < CGW_NTYPES; t++) {
        for (unsigned r = 0; r < 64; r++) {
            if (t == CGW_F32)
                val[r] = bits_f32(1.0f);
            else if (t == CGW_F64)
                val[r] = bits_f64(1.0);
            else
                val[r] = 1;
        }
        ref_bits(t, 64, val, 0, red, incl, excl);
        for (unsigned r = 0; r < 64; r++) {
            uint64_t want_red = t == CGW_F32 ? bits_f32(64.0f) : t == CGW_F64 ? bits_f64(64.0) : 64u;
            uint64_t want_incl =
                t == CGW_F32 ? bits_f32((float)(r + 1)) : t == CGW_F64 ? bits_f64((double)(r + 1)) : r + 1u;
            uint64_t want_excl = t == CGW_F32 ? bits_f32((float)r) : t == CGW_F64 ? bits_f64((double)r) : r;
            cr_expect_eq(red[r], want_red, "%s reduce rank %u", type_name[t], r);
            cr_expect_eq(incl[r], want_incl, "%s inclusive rank %u", type_name[t], r);
            cr_expect_eq(excl[r], want_excl, "%s exclusive rank %u", type_name[t], r);
        }
    }
    /* min over distinct values: the smallest, everywhere. */
    for (unsigned r = 0; r < 64; r++)
        val[r] = (uint64_t)(uint32_t)(int32_t)(100 - (int)((r * 37u) % 64u));
    ref_bits(CGW_I32, 64, val, 1, red, incl, excl);
    for (unsigned r = 0; r < 64; r++)
        cr_expect_eq((int32_t)(uint32_t)red[r], 37, "i32 less rank %u: %d", r, (int32_t)(uint32_t)red[r]);
}

/* ---- random inputs -------------------------------------------------------- */

/* A random nonzero finite value of the type, as bits; mode 1 draws from a few
 * values (ties with equal bits, bit operators that do not collapse). */
static uint64_t random_value(int type, int mode, uint64_t *st)
{
    uint64_t r = cgt_rand(st);
    switch (type) {
    case CGW_I32:
    case CGW_U32:
        return mode ? (uint64_t)(uint32_t)(0xF0F0F0F0u ^ (uint32_t)(r & 0x1007u)) : (uint64_t)(uint32_t)r;
    case CGW_I64:
    case CGW_U64:
        return mode ? (0xF0F0F0F0F0F0F0F0ull ^ (r & 0x8000000000001007ull)) : r;
    case CGW_F32: {
        static const float few[4] = {1.5f, -2.25f, 3.0f, 0.125f};
        float f = mode ? few[r & 3u]
                       : ldexpf((float)((r >> 8) % 16777215u + 1u) / 16777216.0f, (int)((r >> 40) % 40u) - 20) *
                             ((r & 1u) ? -1.0f : 1.0f);
        return bits_f32(f);
    }
    default: {
        static const double few[4] = {1.5, -2.25, 3.0, 0.125};
        double d = mode ? few[r & 3u]
                        : ldexp((double)((r >> 8) % 9007199254740991ull + 1u) / 9007199254740992.0,
                                (int)((cgt_rand(st) >> 40) % 80u) - 40) *
                              ((r & 1u) ? -1.0 : 1.0);
        return bits_f64(d);
    }
    }
}

/* ---- the oracle ----------------------------------------------------------- */

static const char *const field_name[CGW_FIELDS] = {
    "reduce+plus", "reduce+less", "reduce+greater", "reduce+bit_and", "reduce+bit_or", "reduce+bit_xor",
    "incl+plus",   "incl+less",   "incl+greater",   "incl+bit_and",   "incl+bit_or",   "incl+bit_xor",
    "excl+plus",   "excl+less",   "excl+greater",   "excl+bit_and",   "excl+bit_or",   "excl+bit_xor",
    "shfl",        "any",         "all",            "thread_rank",    "num_threads",   "meta_group_rank",
    "meta_group_size", "generic thread_rank", "generic num_threads"};

typedef struct shape {
    unsigned x, y, z;
} shape_t;

/* Block shapes; each N uses those whose thread count is a multiple of N with
 * at most 8 tiles (the default barrier range, cg/wide_tile.h). */
static const shape_t shapes[] = {
    {64, 1, 1},  {128, 1, 1}, {192, 1, 1}, {256, 1, 1}, {320, 1, 1}, {384, 1, 1}, {448, 1, 1}, {512, 1, 1},
    {640, 1, 1}, {768, 1, 1}, {1024, 1, 1}, {4, 4, 4},  {3, 8, 8},   {12, 4, 4},  {5, 8, 8},   {6, 8, 8},
    {7, 2, 32},  {8, 8, 8},   {10, 8, 8},  {12, 8, 8},  {16, 8, 8},  {1, 1024, 1}, {96, 2, 4}, {3, 2, 64},
};

/* CGT_QUICK=1 (sanitizer passes): fewer shapes, blocks and iterations. */
static int quick(void)
{
    const char *q = getenv("CGT_QUICK");
    return q && *q && *q != '0';
}

static int shape_ok(shape_t s, unsigned n)
{
    unsigned t = s.x * s.y * s.z;
    return t <= 1024u && t % n == 0 && t / n <= 8u;
}

/* One launch: every thread, every field; returns the number of bad fields. */
static unsigned oracle_case(unsigned n, int type, shape_t s, uint64_t *st)
{
    const unsigned blocks = 3;
    unsigned nt = s.x * s.y * s.z;
    size_t total = (size_t)blocks * nt;
    uint64_t *val = malloc(total * sizeof *val);
    uint32_t *arg = malloc(total * sizeof *arg);
    uint64_t *out = malloc(total * 2 * CGW_FIELDS * sizeof *out);
    cr_assert(val && arg && out);

    /* Inputs, tile by tile: a value mode, one shfl source, vote patterns. */
    for (size_t t0 = 0; t0 < total; t0 += n) {
        int mode = (int)(cgt_rand(st) % 3u == 0u);
        uint32_t src = (uint32_t)(cgt_rand(st) % n);
        unsigned any_mode = (unsigned)(cgt_rand(st) % 3u), all_mode = (unsigned)(cgt_rand(st) % 3u);
        unsigned one = (unsigned)(cgt_rand(st) % n);
        for (unsigned r = 0; r < n; r++) {
            uint32_t pany = any_mode == 0 ? 0u : any_mode == 1 ? (r == one) : (uint32_t)(cgt_rand(st) & 1u);
            uint32_t pall = all_mode == 0 ? 1u : all_mode == 1 ? (r != one) : (uint32_t)((cgt_rand(st) & 7u) != 0u);
            val[t0 + r] = random_value(type, mode, st);
            arg[t0 + r] = src | (pany << 16) | (pall << 17);
        }
    }

    cgt_vao_run(cgw_oracle, n, type, blocks, s.x, s.y, s.z, total, 2 * CGW_FIELDS, val, arg, out);

    unsigned bad = 0;
    int nops = type >= CGW_F32 ? 3 : CGW_NOPS;
    static uint64_t red[CGW_NOPS][1024], incl[CGW_NOPS][1024], excl[CGW_NOPS][1024];
    for (size_t t0 = 0; t0 < total; t0 += n) {
        for (int op = 0; op < nops; op++)
            ref_bits(type, n, val + t0, op, red[op], incl[op], excl[op]);
        uint32_t src = arg[t0] & 0x3ffu;
        int any = 0, all = 1;
        for (unsigned r = 0; r < n; r++) {
            any |= (int)((arg[t0 + r] >> 16) & 1u);
            all &= (int)((arg[t0 + r] >> 17) & 1u);
        }
        for (unsigned r = 0; r < n; r++) {
            size_t gid = t0 + r;
            unsigned brank = (unsigned)(gid % nt);
            const uint64_t *oc = out + gid * 2 * CGW_FIELDS, *oq = oc + CGW_FIELDS;
            uint64_t ref[CGW_FIELDS];
            int check[CGW_FIELDS];
            for (int f = 0; f < CGW_FIELDS; f++)
                check[f] = 1;
            for (int op = 0; op < CGW_NOPS; op++) {
                int has = op < nops;
                check[CGW_REDUCE + op] = check[CGW_INCL + op] = check[CGW_EXCL + op] = has;
                if (has) {
                    ref[CGW_REDUCE + op] = red[op][r];
                    ref[CGW_INCL + op] = incl[op][r];
                    ref[CGW_EXCL + op] = excl[op][r];
                }
            }
            ref[CGW_SHFL] = val[t0 + src];
            ref[CGW_ANY] = (uint64_t)any;
            ref[CGW_ALL] = (uint64_t)all;
            ref[CGW_RANK] = ref[CGW_GEN_RANK] = brank % n;
            ref[CGW_NTHREADS] = ref[CGW_GEN_NTHREADS] = n;
            ref[CGW_META_RANK] = brank / n;
            ref[CGW_META_SIZE] = nt / n;
            for (int f = 0; f < CGW_FIELDS; f++) {
                if (!check[f] || (oc[f] == ref[f] && oq[f] == ref[f]))
                    continue;
                if (bad < 24)
                    cr_log_error("N=%u block=(%u,%u,%u) type=%s %s: block %zu rank %u (tile %u, tile rank %u, "
                                 "warp %u lane %u): cgc=0x%016" PRIx64 " C++=0x%016" PRIx64 " ref=0x%016" PRIx64
                                 " (input 0x%016" PRIx64 ")",
                                 n, s.x, s.y, s.z, type_name[type], field_name[f], gid / nt, brank, brank / n,
                                 brank % n, (brank % n) / 32u, brank % 32u, oc[f], oq[f], ref[f], val[gid]);
                bad++;
            }
        }
    }
    free(val);
    free(arg);
    free(out);
    return bad;
}

static void oracle_n(unsigned n)
{
    cgt_require_sm90();
    cgt_skip_under_sanitizer("racecheck", "the C++ CG oracle's wide tiles sync through atomics and spin loops in "
                                          "reserved shared memory, which racecheck does not model (cgc's own "
                                          "barriers are checked by the sync tests)");
    uint64_t st = cgt_seed();
    unsigned cases = 0, fits = 0;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        if (!shape_ok(shapes[i], n))
            continue;
        if (quick() && fits++ % 4u != 0)
            continue; /* sanitizer pass: every fourth shape */
        for (int type = 0; type < CGW_NTYPES; type++) {
            unsigned bad = oracle_case(n, type, shapes[i], &st);
            cr_expect_eq(bad, 0u, "N=%u block=(%u,%u,%u) type=%s: %u bad fields (first ones logged above)", n,
                         shapes[i].x, shapes[i].y, shapes[i].z, type_name[type], bad);
            cases++;
        }
    }
    cr_assert_gt(cases, 0u, "no block shape for N=%u", n);
}

Test(wide_tile, oracle_64) { oracle_n(64); }
Test(wide_tile, oracle_128) { oracle_n(128); }
Test(wide_tile, oracle_256) { oracle_n(256); }
Test(wide_tile, oracle_512) { oracle_n(512); }
Test(wide_tile, oracle_1024) { oracle_n(1024); }

/* ---- sync under random delays --------------------------------------------- */

static unsigned stress_iters(void) { return quick() ? 16u : 150u; }

/* One stress launch; every thread's reads checked. */
static void stress_case(unsigned n, shape_t s, int mixed, uint64_t seed)
{
    const unsigned blocks = quick() ? 2u : 132u;
    unsigned nt = s.x * s.y * s.z, iters = stress_iters();
    size_t total = (size_t)blocks * nt;
    uint32_t *err = malloc(total * sizeof *err), *first = malloc(total * 4 * sizeof *first),
             *done = malloc(total * sizeof *done);
    cr_assert(err && first && done);
    uint32_t *derr, *dfirst, *ddone;
    CGT_CUDA(cudaMalloc((void **)&derr, total * sizeof *err));
    CGT_CUDA(cudaMalloc((void **)&dfirst, total * 4 * sizeof *first));
    CGT_CUDA(cudaMalloc((void **)&ddone, total * sizeof *done));
    CGT_CUDA(cudaMemset(derr, CGT_POISON_BYTE, total * sizeof *err));
    CGT_CUDA(cudaMemset(dfirst, CGT_POISON_BYTE, total * 4 * sizeof *first));
    CGT_CUDA(cudaMemset(ddone, CGT_POISON_BYTE, total * sizeof *done));
    CGT_CUDA(cgw_sync_stress(n, blocks, s.x, s.y, s.z, iters, mixed, seed, derr, dfirst, ddone));
    cudaError_t e = cgt_stream_wait_deadline(60.0);
    cr_assert_eq(e, cudaSuccess,
                 "sync stress N=%u block=(%u,%u,%u) mixed=%d: kernel did not finish cleanly in 60 s (%s): a tile "
                 "barrier deadlocked or trapped (colliding barrier ids?)",
                 n, s.x, s.y, s.z, mixed, cudaGetErrorString(e));
    CGT_SYNC();
    CGT_CUDA(cudaMemcpy(err, derr, total * sizeof *err, cudaMemcpyDeviceToHost));
    CGT_CUDA(cudaMemcpy(first, dfirst, total * 4 * sizeof *first, cudaMemcpyDeviceToHost));
    CGT_CUDA(cudaMemcpy(done, ddone, total * sizeof *done, cudaMemcpyDeviceToHost));
    CGT_CUDA(cudaFree(derr));
    CGT_CUDA(cudaFree(dfirst));
    CGT_CUDA(cudaFree(ddone));
    unsigned bad = 0;
    for (size_t g = 0; g < total; g++) {
        unsigned brank = (unsigned)(g % nt);
        unsigned rate_tile = mixed ? brank / (2u * n) : brank / n;
        uint32_t want_done = iters * (rate_tile + 1u);
        if (err[g] == 0u && done[g] == want_done)
            continue;
        if (bad < 24)
            cr_log_error("sync stress N=%u block=(%u,%u,%u) mixed=%d: block %zu rank %u (tile %u, warp %u): %u bad "
                         "reads, %u iterations run (expected %u); first bad: iteration %u, partner rank %u, "
                         "expected 0x%08x, read 0x%08x",
                         n, s.x, s.y, s.z, mixed, g / nt, brank, brank / n, (brank % n) / 32u, err[g], done[g],
                         want_done, first[g * 4], first[g * 4 + 1], first[g * 4 + 2], first[g * 4 + 3]);
        bad++;
    }
    cr_expect_eq(bad, 0u, "sync stress N=%u block=(%u,%u,%u) mixed=%d: %u threads saw a bad read (seed %" PRIu64 ")",
                 n, s.x, s.y, s.z, mixed, bad, seed);
    free(err);
    free(first);
    free(done);
}

/* Every N, every tile count up to 8, 1-D and 3-D, one size alone. */
Test(wide_tile, sync_under_random_delays)
{
    cgt_require_sm90();
    uint64_t st = cgt_seed();
    static const unsigned ns[] = {64, 128, 256, 512, 1024};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        unsigned n = ns[i];
        for (unsigned c = 1; c <= 8u && c * n <= 1024u; c++) {
            shape_t one_d = {c * n, 1, 1};
            stress_case(n, one_d, 0, cgt_rand(&st));
            if (c * n % 32u == 0 && c * n >= 64u) {
                shape_t three_d = {c * n / 32u, 4, 8}; /* x not a multiple of 32 for most c */
                stress_case(n, three_d, 0, cgt_rand(&st));
            }
        }
    }
}

/* Tiles of n and 2n over the same warps, synced alternately, the 2n tiles at
 * different rates: the two sizes' barrier ids must not collide. */
Test(wide_tile, sync_two_sizes_at_once)
{
    cgt_require_sm90();
    uint64_t st = cgt_seed();
    static const unsigned ns[] = {64, 128, 256, 512};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        unsigned n = ns[i];
        for (unsigned c = 2; c <= 8u && c * n <= 1024u; c += 2) {
            shape_t one_d = {c * n, 1, 1};
            stress_case(n, one_d, 1, cgt_rand(&st));
        }
    }
}

/* ---- barrier ids ------------------------------------------------------------ */

/* id = BASE + (tiles - 1) + tile index, BASE = 1 by default: within 1..15 and
 * disjoint between sizes in one block. */
Test(wide_tile, barrier_ids_follow_the_heap_layout)
{
    cgt_require_sm90();
    static const unsigned ns[] = {64, 128, 256, 512, 1024};
    for (unsigned threads = 64; threads <= 1024u; threads += 64) {
        int used[16] = {0}; /* which size (index + 1) took each id */
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            unsigned n = ns[i];
            if (threads % n != 0 || threads / n > 8u)
                continue;
            uint32_t *d, *ids = malloc(2 * threads * sizeof *ids);
            cr_assert(ids != NULL);
            CGT_CUDA(cudaMalloc((void **)&d, 2 * threads * sizeof *d));
            CGT_CUDA(cudaMemset(d, CGT_POISON_BYTE, 2 * threads * sizeof *d));
            CGT_CUDA(cgw_barrier_ids(n, 2, threads, d));
            CGT_SYNC();
            CGT_CUDA(cudaMemcpy(ids, d, 2 * threads * sizeof *ids, cudaMemcpyDeviceToHost));
            CGT_CUDA(cudaFree(d));
            for (unsigned g = 0; g < 2 * threads; g++) {
                unsigned r = g % threads, want = 1u + threads / n - 1u + r / n;
                cr_expect_eq(ids[g], want, "N=%u block %u threads: rank %u got barrier %u, expected %u", n, threads,
                             r, ids[g], want);
                cr_expect(ids[g] >= 1u && ids[g] <= 15u, "N=%u: barrier %u out of 1..15", n, ids[g]);
                if (ids[g] < 16u) {
                    cr_expect(used[ids[g]] == 0 || used[ids[g]] == (int)i + 1,
                              "block %u threads: barrier %u used by tiles of %u and of %u threads", threads, ids[g],
                              ns[used[ids[g]] - 1], n);
                    used[ids[g]] = (int)i + 1;
                }
            }
            free(ids);
        }
    }
}

/* ---- cg_memcpy_async through a wide tile ------------------------------------ */

/* Every byte of every region: the copied range equals the source, the rest
 * keeps the poison. Offsets and sizes pick each engine path: 16-byte aligned
 * (one bulk copy by rank 0), 8- and 4-byte aligned (cp.async split among the
 * tile's ranks by rank and count), odd (plain copy). */
Test(wide_tile, memcpy_async_through_a_wide_tile)
{
    cgt_require_sm90();
    uint64_t st = cgt_seed();
    static const unsigned ns[] = {64, 128, 256, 512, 1024};
    static const uint32_t offs[] = {0, 16, 8, 4, 3, 0};
    static const uint32_t sizes[] = {4096, 1024, 2040, 1236, 1001, 37};
    static const shape_t blocks_shapes[] = {{256, 1, 1}, {8, 4, 8}, {1024, 1, 1}};
    const unsigned blocks = 4;
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        for (size_t s = 0; s < sizeof blocks_shapes / sizeof blocks_shapes[0]; s++) {
            shape_t sh = blocks_shapes[s];
            unsigned nt = sh.x * sh.y * sh.z, n = ns[i];
            if (nt % n != 0 || nt / n > 8u)
                continue;
            size_t win = (size_t)nt / n * CGW_MEMCPY_REGION, total = win * blocks;
            unsigned char *src = malloc(total), *out = malloc(total), *dsrc, *dout;
            cr_assert(src && out);
            for (size_t k = 0; k < total; k++) { /* any byte but the poison 0xA5 */
                unsigned b = (unsigned)(cgt_rand(&st) % 255u);
                src[k] = (unsigned char)(b >= 0xA5u ? b + 1u : b);
            }
            CGT_CUDA(cudaMalloc((void **)&dsrc, total));
            CGT_CUDA(cudaMalloc((void **)&dout, total));
            CGT_CUDA(cudaMemcpy(dsrc, src, total, cudaMemcpyHostToDevice));
            for (size_t c = 0; c < sizeof offs / sizeof offs[0]; c++) {
                uint32_t off = offs[c], bytes = sizes[c];
                if (off + bytes > CGW_MEMCPY_REGION)
                    bytes = CGW_MEMCPY_REGION - off;
                CGT_CUDA(cudaMemset(dout, 0, total));
                CGT_CUDA(cgw_memcpy(n, blocks, sh.x, sh.y, sh.z, dsrc, dout, off, bytes));
                CGT_SYNC();
                CGT_CUDA(cudaMemcpy(out, dout, total, cudaMemcpyDeviceToHost));
                unsigned bad = 0;
                for (size_t k = 0; k < total; k++) {
                    size_t in_region = k % CGW_MEMCPY_REGION;
                    int copied = in_region >= off && in_region < (size_t)off + bytes;
                    unsigned char want = copied ? src[k] : 0xA5;
                    if (out[k] == want)
                        continue;
                    if (bad < 16)
                        cr_log_error("memcpy N=%u block=(%u,%u,%u) off=%u bytes=%u: block %zu tile %zu byte %zu: "
                                     "got 0x%02x, expected 0x%02x (%s)",
                                     n, sh.x, sh.y, sh.z, off, bytes, k / win, (k % win) / CGW_MEMCPY_REGION,
                                     in_region, out[k], want, copied ? "copied" : "untouched");
                    bad++;
                }
                cr_expect_eq(bad, 0u, "memcpy N=%u block=(%u,%u,%u) off=%u bytes=%u: %u bad bytes", n, sh.x, sh.y,
                             sh.z, off, bytes, bad);
            }
            CGT_CUDA(cudaFree(dsrc));
            CGT_CUDA(cudaFree(dout));
            free(src);
            free(out);
        }
    }
}

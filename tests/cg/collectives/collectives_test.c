/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/collectives/collectives_test.c — the oracle tests of cgc's tile and
 * coalesced-group collectives (cg/collectives.h, cg/coalesced.h).
 *
 * Every GPU test runs the cgc call and the C++ CG call in the same kernel on
 * the same fresh random inputs (tile_kernels.cu, coalesced_kernels.cu) and
 * checks every thread of both against a host reference: every type (int32,
 * uint32, int64, uint64, float, double), every operator (plus, less,
 * greater; bit_and, bit_or, bit_xor for integers), every tile size 1..32,
 * whole and partial last warps (blocks of 40, 100, 30, 105 threads), 1-D,
 * 2-D and 3-D blocks, coalesced groups made by data-dependent divergence and
 * by binary, labeled and tiled partitions.
 *
 * Floats are compared BIT-EXACTLY, against C++ CG and against the host: the
 * host reference repeats the order of combination both libraries use
 * (butterfly for reductions of whole tiles and groups of 32, Hillis-Steele
 * scans, the butterfly with missing ranks skipped for partial tiles,
 * scan-then-last-rank for other coalesced reductions; see cg/collectives.h),
 * with C++ CG's operator definitions and argument order, in IEEE single and
 * double arithmetic (x86-64 SSE, no contraction: the kernels only add and
 * compare). No tolerance is used anywhere. Inputs include +0 and -0 and
 * repeated values, so a min/max that took its arguments in another order
 * would show.
 *
 * Where C++ CG is undefined, only cgc is checked (against the host): in a
 * partial tile of a partial last warp, C++ CG's butterfly reductions (all
 * but 32-bit integer redux of tiles >= 16), its shuffles from missing ranks
 * (cgc's are undefined there too, so neither is checked), its match_all, and
 * its binary partition of a tile (C++ CG partitions the whole tile's mask,
 * lanes past the end of the block included). Its scans, match_any, labeled
 * partitions and redux reductions there ARE compared: they read only lanes
 * that exist.
 *
 * Without an sm_90 device the GPU tests skip with the reason; the reference
 * self-check runs everywhere.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/cg/collectives/collectives_kernels.h"
#include "tests/support/cgtest.h"

#include <criterion/parameterized.h> /* after criterion.h (cgtest.h), which it needs first */

TestSuite(collectives, .timeout = 600);

enum { OP_PLUS = 0, OP_LESS, OP_GREATER, OP_AND, OP_OR, OP_XOR };

static const char *const type_names[CGT_NTYPES] = {"int32", "uint32", "int64", "uint64", "float", "double"};
static const char *const op_names[CGT_NOPS] = {"plus", "less", "greater", "bit_and", "bit_or", "bit_xor"};
static const char *const mode_names[CGT_C_NMODES] = {
    "coalesced_threads under pred",   "coalesced_threads converged",
    "binary_partition(tile32, pred)", "labeled_partition(tile32, key)",
    "tiled_partition(diverged, sz)",  "labeled_partition(diverged, key)",
    "binary_partition(diverged, pred2)", "tiled_partition(converged, sz)",
};

#define POISON64 0xA5A5A5A5A5A5A5A5ull

/* ---- values as bit patterns ----------------------------------------------- */

static int is_int(cgt_type_t ty) { return ty <= CGT_U64; }
static int is_32(cgt_type_t ty) { return ty == CGT_I32 || ty == CGT_U32 || ty == CGT_F32; }
static int nops(cgt_type_t ty) { return is_int(ty) ? CGT_NOPS : 3; }
static uint64_t width_mask(cgt_type_t ty) { return is_32(ty) ? 0xffffffffull : ~0ull; }

/* A 64-bit slot's bits as the float in its low 4 bytes or the double in all
 * 8, and back (zero above a float), as the kernels move values; little-endian,
 * as every CUDA host is. */
typedef union slot_bits {
    uint64_t u;
    float f;
    double d;
} slot_bits_t;
static float b2f(uint64_t b) { return ((slot_bits_t){.u = b}).f; }
static uint64_t f2b(float f) { return ((slot_bits_t){.f = f}).u & 0xffffffffull; }
static double b2d(uint64_t b) { return ((slot_bits_t){.u = b}).d; }
static uint64_t d2b(double d) { return ((slot_bits_t){.d = d}).u; }

/* C++ CG's operator op(a, b) (functional.h): plus a + b (integers wrap),
 * less b < a ? b : a, greater a < b ? b : a, the bit operators. */
static uint64_t ref_op(cgt_type_t ty, int op, uint64_t a, uint64_t b)
{
    switch (ty) {
    case CGT_I32: {
        int32_t x = (int32_t)(uint32_t)a, y = (int32_t)(uint32_t)b;
        uint32_t r = op == OP_PLUS      ? (uint32_t)x + (uint32_t)y
                     : op == OP_LESS    ? (uint32_t)(y < x ? y : x)
                     : op == OP_GREATER ? (uint32_t)(x < y ? y : x)
                     : op == OP_AND     ? (uint32_t)(x & y)
                     : op == OP_OR      ? (uint32_t)(x | y)
                                        : (uint32_t)(x ^ y);
        return r;
    }
    case CGT_U32: {
        uint32_t x = (uint32_t)a, y = (uint32_t)b;
        uint32_t r = op == OP_PLUS      ? x + y
                     : op == OP_LESS    ? (y < x ? y : x)
                     : op == OP_GREATER ? (x < y ? y : x)
                     : op == OP_AND     ? (x & y)
                     : op == OP_OR      ? (x | y)
                                        : (x ^ y);
        return r;
    }
    case CGT_I64: {
        int64_t x = (int64_t)a, y = (int64_t)b;
        return op == OP_PLUS      ? a + b
               : op == OP_LESS    ? (uint64_t)(y < x ? y : x)
               : op == OP_GREATER ? (uint64_t)(x < y ? y : x)
               : op == OP_AND     ? (a & b)
               : op == OP_OR      ? (a | b)
                                  : (a ^ b);
    }
    case CGT_U64:
        return op == OP_PLUS      ? a + b
               : op == OP_LESS    ? (b < a ? b : a)
               : op == OP_GREATER ? (a < b ? b : a)
               : op == OP_AND     ? (a & b)
               : op == OP_OR      ? (a | b)
                                  : (a ^ b);
    case CGT_F32: {
        float x = b2f(a), y = b2f(b);
        return f2b(op == OP_PLUS ? x + y : op == OP_LESS ? (y < x ? y : x) : (x < y ? y : x));
    }
    default: {
        double x = b2d(a), y = b2d(b);
        return d2b(op == OP_PLUS ? x + y : op == OP_LESS ? (y < x ? y : x) : (x < y ? y : x));
    }
    }
}

/* Butterfly over n ranks (n a power of two): for o = n/2 .. 1, every rank r
 * takes op(own, value of r ^ o) at once. Each rank's result. */
static void ref_butterfly(cgt_type_t ty, int op, const uint64_t *in, uint32_t n, uint64_t *out)
{
    uint64_t cur[32], nxt[32];
    memcpy(cur, in, n * sizeof cur[0]);
    for (uint32_t o = n / 2; o; o >>= 1) {
        for (uint32_t r = 0; r < n; r++)
            nxt[r] = ref_op(ty, op, cur[r], cur[r ^ o]);
        memcpy(cur, nxt, n * sizeof cur[0]);
    }
    memcpy(out, cur, n * sizeof cur[0]);
}

/* Hillis-Steele inclusive scan over count ranks: for i = 1, 2, 4, ..., ranks
 * r >= i take op(own, value of r - i) at once. */
static void ref_scan(cgt_type_t ty, int op, const uint64_t *in, uint32_t count, uint64_t *out)
{
    uint64_t cur[32], nxt[32];
    memcpy(cur, in, count * sizeof cur[0]);
    for (uint32_t i = 1; i < count; i <<= 1) {
        for (uint32_t r = 0; r < count; r++)
            nxt[r] = r >= i ? ref_op(ty, op, cur[r], cur[r - i]) : cur[r];
        memcpy(cur, nxt, count * sizeof cur[0]);
    }
    memcpy(out, cur, count * sizeof cur[0]);
}

/* Exclusive scan from the inclusive one: integers with plus subtract the own
 * value; otherwise rank r gets rank r-1's inclusive result, rank 0 a zero. */
static uint64_t ref_excl(cgt_type_t ty, int op, const uint64_t *in, const uint64_t *incl, uint32_t r)
{
    if (is_int(ty) && op == OP_PLUS)
        return (incl[r] - in[r]) & width_mask(ty);
    return r == 0 ? 0 : incl[r - 1];
}

/* The reduce result of each of count ranks: a butterfly when `butterfly` (a
 * whole tile, or a coalesced group of 32), else the scan's last rank. */
static void ref_reduce(cgt_type_t ty, int op, const uint64_t *in, uint32_t count, int butterfly, uint64_t *out)
{
    if (butterfly) {
        ref_butterfly(ty, op, in, count, out);
    } else {
        uint64_t s[32];
        ref_scan(ty, op, in, count, s);
        for (uint32_t r = 0; r < count; r++)
            out[r] = s[count - 1];
    }
}

/* A tile reduce where only ranks 0..count-1 of a tile of n exist (the
 * partial tile of a partial last warp; cg/collectives.h,
 * cg_tile_reduce_partial_): the butterfly, o = n/2 .. 1, where rank r
 * combines op(own, value of q) with q = r ^ o if that rank exists, else
 * (r ^ o) mod 2o if that one does, else keeps its own value. With count == n
 * it is ref_butterfly. Each rank's result. */
static void ref_partial_tile_reduce(cgt_type_t ty, int op, const uint64_t *in, uint32_t count, uint32_t n,
                                    uint64_t *out)
{
    uint64_t cur[32], nxt[32];
    memcpy(cur, in, count * sizeof cur[0]);
    for (uint32_t o = n / 2; o; o >>= 1) {
        for (uint32_t r = 0; r < count; r++) {
            uint32_t q = r ^ o;
            if (q >= count)
                q &= 2 * o - 1;
            nxt[r] = q < count ? ref_op(ty, op, cur[r], cur[q]) : cur[r];
        }
        memcpy(cur, nxt, count * sizeof cur[0]);
    }
    memcpy(out, cur, count * sizeof cur[0]);
}

/* Low `bits` ones (bits <= 32). */
static uint32_t low_ones(uint32_t bits) { return bits >= 32 ? 0xffffffffu : (1u << bits) - 1u; }

/* ---- inputs --------------------------------------------------------------- */

/* A value for ty: signed integers small enough that 32 of them never
 * overflow (C++ CG adds them as signed), unsigned integers over the whole
 * range (they wrap), floats with varied exponents (so the order of additions
 * shows in the bits), +0, -0 and repeats of the previous value. */
static uint64_t rand_value(cgt_type_t ty, uint64_t prev, uint64_t *rng)
{
    uint64_t r = cgt_rand(rng);
    switch (ty) {
    case CGT_I32:
        return (uint32_t)(int32_t)((int64_t)(r % (1u << 27)) - (1 << 26));
    case CGT_U32:
        return (uint32_t)r;
    case CGT_I64:
        return (uint64_t)((int64_t)(r >> 5) - (int64_t)(1ull << 58));
    case CGT_U64:
        return r;
    default:
        break;
    }
    switch (r % 16) {
    case 0:
        return ty == CGT_F32 ? f2b(0.0f) : d2b(0.0);
    case 1:
        return ty == CGT_F32 ? f2b(-0.0f) : d2b(-0.0);
    case 2:
        return prev;
    default:
        break;
    }
    if (ty == CGT_F32) {
        int32_t m = (int32_t)((r >> 8) % (1u << 24)) - (1 << 23);
        int e = (int)((r >> 40) % 17) - 20;
        return f2b(ldexpf((float)m, e));
    } else {
        int64_t m = (int64_t)((r >> 8) % (1ull << 53)) - (1ll << 52);
        int e = (int)((r >> 61) * 3) - 60;
        return d2b(ldexp((double)m, e));
    }
}

/* A key from a set of four: integers 0, 1, 2 and 3 (64-bit: 2^32, equal to
 * 0 in its low word, so 64-bit matching and labels are tested), floats 0, 1,
 * 2 and -0 (bits differ from +0). */
static uint64_t rand_key(cgt_type_t ty, uint64_t *rng)
{
    uint32_t k = (uint32_t)(cgt_rand(rng) % 4);
    switch (ty) {
    case CGT_I32:
    case CGT_U32:
        return k;
    case CGT_I64:
    case CGT_U64:
        return k == 3 ? 1ull << 32 : k;
    case CGT_F32:
        return f2b(k == 3 ? -0.0f : (float)k);
    default:
        return d2b(k == 3 ? -0.0 : (double)k);
    }
}

typedef struct inputs {
    uint32_t total; /* threads in the launch */
    uint32_t nt; /* threads per block */
    uint64_t *val, *key;
    uint32_t *arg;
    uint64_t *out;
    size_t out_words;
} inputs_t;

/* Fresh inputs; keys equal across each group of `keygroup` threads with
 * probability 1/3 (so match_all and one-group labels happen). Arguments:
 * src in [0, src_span), delta in [0, delta_span), xor mask in [0, xor_span). */
static void make_inputs(inputs_t *in, cgt_type_t ty, cg_dim3_t grid, cg_dim3_t block, uint32_t fields,
                        uint32_t keygroup, uint32_t src_span, uint32_t delta_span, uint32_t xor_span, uint64_t *rng)
{
    in->nt = block.x * block.y * block.z;
    in->total = in->nt * grid.x * grid.y * grid.z;
    in->out_words = (size_t)in->total * 2 * fields;
    CGT_CUDA(cudaMallocManaged((void **)&in->val, in->total * sizeof(uint64_t), cudaMemAttachGlobal));
    CGT_CUDA(cudaMallocManaged((void **)&in->key, in->total * sizeof(uint64_t), cudaMemAttachGlobal));
    CGT_CUDA(cudaMallocManaged((void **)&in->arg, in->total * sizeof(uint32_t), cudaMemAttachGlobal));
    CGT_CUDA(cudaMallocManaged((void **)&in->out, in->out_words * sizeof(uint64_t), cudaMemAttachGlobal));
    uint64_t prev = 0, k = 0;
    int same = 0;
    for (uint32_t g = 0; g < in->total; g++) {
        uint32_t rank = g % in->nt;
        in->val[g] = prev = rand_value(ty, prev, rng);
        if (rank % keygroup == 0)
            same = cgt_rand(rng) % 3 == 0;
        if (!same || rank % keygroup == 0)
            k = rand_key(ty, rng);
        in->key[g] = k;
        uint64_t r = cgt_rand(rng);
        uint32_t src = (uint32_t)(r % src_span), delta = (uint32_t)((r >> 16) % delta_span),
                 xm = (uint32_t)((r >> 32) % xor_span);
        in->arg[g] = src | delta << 8 | xm << 16 | (uint32_t)((r >> 48) & 1u) << 24 | (uint32_t)((r >> 49) & 1u) << 25;
    }
    memset(in->out, CGT_POISON_BYTE, in->out_words * sizeof(uint64_t));
}

static void free_inputs(inputs_t *in)
{
    CGT_CUDA(cudaFree(in->val));
    CGT_CUDA(cudaFree(in->key));
    CGT_CUDA(cudaFree(in->arg));
    CGT_CUDA(cudaFree(in->out));
}

/* ---- checking ------------------------------------------------------------- */

typedef struct checker {
    char what[200];
    unsigned errors;
} checker_t;

#define MAX_REPORTS 16

/* got must equal want; reports the first MAX_REPORTS mismatches of a launch
 * one by one, and counts all. */
static void check(checker_t *c, const char *field, uint32_t gid, int side, int partial, uint64_t got, uint64_t want)
{
    if (got == want)
        return;
    if (c->errors < MAX_REPORTS)
        cr_expect(0, "%s: %s, thread %u%s: %s gave 0x%llx, want 0x%llx", c->what, field, gid,
                  partial ? " (partial tile/warp)" : "", side ? "C++ CG" : "cgc", (unsigned long long)got,
                  (unsigned long long)want);
    c->errors++;
}

static void check_done(const checker_t *c)
{
    cr_expect_eq(c->errors, 0u, "%s: %u mismatches in all (first %d shown)", c->what, c->errors, MAX_REPORTS);
}

/* Both sides of one field: cgc always, C++ CG where it is defined. */
static void check2(checker_t *c, const char *field, uint32_t gid, const uint64_t *oc, const uint64_t *op, uint32_t f,
                   int cpp_defined, int partial, uint64_t want)
{
    check(c, field, gid, 0, partial, oc[f], want);
    if (cpp_defined)
        check(c, field, gid, 1, partial, op[f], want);
}

/* A shuffle from input slot src checked three ways: the value (want v) in
 * field f, and the 12-byte object (the source's val, then the low 4 bytes of
 * its key) in fields fb and fb + 1; labelled "<name>", "<name>_bytes(12)<note>"
 * and "<name>_bytes(12) hi". */
static void check_shfl(checker_t *c, const char *name, const char *note, uint32_t gid, const uint64_t *oc,
                       const uint64_t *op, uint32_t f, uint32_t fb, int cpp_run, int partial, uint64_t v,
                       const inputs_t *in, size_t src)
{
    char bytes[64], hi[64];
    snprintf(bytes, sizeof bytes, "%s_bytes(12)%s", name, note);
    snprintf(hi, sizeof hi, "%s_bytes(12) hi", name);
    check2(c, name, gid, oc, op, f, cpp_run, partial, v);
    check2(c, bytes, gid, oc, op, fb, cpp_run, partial, in->val[src]);
    check2(c, hi, gid, oc, op, fb + 1, cpp_run, partial, in->key[src] & 0xffffffffu);
}

/* 1 unless this run is under compute-sanitizer's synccheck: C++ CG's tiles
 * name lanes past the end of the block in their masks (see cgt_do_cpp in
 * oracle.cuh), so under synccheck the kernels run C++ CG in whole warps
 * only and the host compares it there only. */
static int cpp_partial(void)
{
    const char *tool = getenv("CGT_SANITIZER");
    return !(tool && strcmp(tool, "synccheck") == 0);
}

/* ---- tiles ---------------------------------------------------------------- */

static void run_tile(uint32_t n, cgt_type_t ty, cg_dim3_t grid, cg_dim3_t block, uint64_t *rng)
{
    inputs_t in;
    checker_t c = {{0}, 0};
    const uint64_t wm = width_mask(ty);
    make_inputs(&in, ty, grid, block, CGT_T_FIELDS, n, 2 * n, n + 1, n, rng);
    snprintf(c.what, sizeof c.what, "tile %u, %s, grid %ux%ux%u, block %ux%ux%u", n, type_names[ty], grid.x, grid.y,
             grid.z, block.x, block.y, block.z);
    CGT_OK(cgt_launch_tile_collectives(n, ty, cpp_partial(), grid, block, in.val, in.key, in.arg, in.out));
    CGT_SYNC();

    for (uint32_t g0 = 0; g0 < in.total; g0 += in.nt) { /* each block */
        for (uint32_t t0 = 0; t0 < in.nt; t0 += n) { /* each tile: block ranks [t0, t0 + n) */
            uint32_t count = in.nt - t0 < n ? in.nt - t0 : n;
            int whole = count == n, partial = !whole;
            /* C++ CG ran here (see cpp_partial). */
            int cpp_run = cpp_partial() || in.nt - (t0 & ~31u) >= 32;
            uint32_t base_lane = t0 % 32;
            uint64_t v[32], k[32], red[CGT_NOPS][32], inc[CGT_NOPS][32];
            for (uint32_t r = 0; r < count; r++) {
                v[r] = in.val[g0 + t0 + r] & wm;
                k[r] = in.key[g0 + t0 + r] & wm;
            }
            for (int op = 0; op < nops(ty); op++) {
                if (whole)
                    ref_butterfly(ty, op, v, count, red[op]);
                else
                    ref_partial_tile_reduce(ty, op, v, count, n, red[op]);
                ref_scan(ty, op, v, count, inc[op]);
            }
            /* Binary partition by pred and labeled partition by key. */
            uint32_t exist = low_ones(count), pset = 0;
            for (uint32_t r = 0; r < count; r++)
                pset |= ((in.arg[g0 + t0 + r] >> 24) & 1u) << r;
            uint32_t leaders = 0;
            for (uint32_t r = 0; r < count; r++) {
                uint32_t q = 0;
                while (k[q] != k[r])
                    q++;
                leaders |= 1u << q;
            }
            int keys_equal = 1;
            for (uint32_t r = 1; r < count; r++)
                keys_equal &= k[r] == k[0];

            for (uint32_t r = 0; r < count; r++) {
                uint32_t gid = g0 + t0 + r, a = in.arg[gid];
                const uint64_t *oc = in.out + (size_t)gid * 2 * CGT_T_FIELDS, *op = oc + CGT_T_FIELDS;
                char f[64];
                for (int o = 0; o < nops(ty); o++) {
                    int redux = (ty == CGT_I32 || ty == CGT_U32) && n >= 16;
                    snprintf(f, sizeof f, "reduce[%s]", op_names[o]);
                    check2(&c, f, gid, oc, op, CGT_T_REDUCE + o, (whole || redux) && cpp_run, partial, red[o][r]);
                    snprintf(f, sizeof f, "inclusive_scan[%s]", op_names[o]);
                    check2(&c, f, gid, oc, op, CGT_T_INCL + o, cpp_run, partial, inc[o][r]);
                    snprintf(f, sizeof f, "exclusive_scan[%s]", op_names[o]);
                    check2(&c, f, gid, oc, op, CGT_T_EXCL + o, cpp_run, partial, ref_excl(ty, o, v, inc[o], r));
                }
                for (int o = nops(ty); o < CGT_NOPS; o++) { /* not written for float/double */
                    check2(&c, "unused bit-operator slot", gid, oc, op, CGT_T_REDUCE + o, 1, partial, POISON64);
                }
                /* Shuffles: checked where the source rank exists. */
                uint32_t src = (a & 0xffu) % n, d = (a >> 8) & 0xffu, xm = (a >> 16) & 0xffu;
                uint32_t up = r >= d ? r - d : r, down = r + d < n ? r + d : r, bfly = r ^ xm;
                if (src < count) {
                    check_shfl(&c, "shfl", "", gid, oc, op, CGT_T_SHFL, CGT_T_B12_SHFL, cpp_run, partial, v[src], &in,
                               g0 + t0 + src);
                    check2(&c, "shfl_bytes(3)", gid, oc, op, CGT_T_B3_SHFL, cpp_run, partial,
                           in.val[g0 + t0 + src] & 0xffffffu);
                }
                check_shfl(&c, "shfl_up", "", gid, oc, op, CGT_T_SHFL_UP, CGT_T_B12_SHFL_UP, cpp_run, partial, v[up],
                           &in, g0 + t0 + up);
                if (down < count)
                    check_shfl(&c, "shfl_down", "", gid, oc, op, CGT_T_SHFL_DOWN, CGT_T_B12_SHFL_DOWN, cpp_run, partial,
                               v[down], &in, g0 + t0 + down);
                if (bfly < count)
                    check_shfl(&c, "shfl_xor", ", in place", gid, oc, op, CGT_T_SHFL_XOR, CGT_T_B12_SHFL_XOR, cpp_run,
                               partial, v[bfly], &in, g0 + t0 + bfly);
                /* Match. */
                uint32_t same = 0;
                for (uint32_t q = 0; q < count; q++)
                    same |= (uint32_t)(k[q] == k[r]) << q;
                check2(&c, "match_any", gid, oc, op, CGT_T_MATCH_ANY, cpp_run, partial, same);
                check2(&c, "match_all", gid, oc, op, CGT_T_MATCH_ALL, whole && cpp_run, partial,
                       keys_equal ? exist : 0);
                check2(&c, "match_all pred", gid, oc, op, CGT_T_MATCH_ALL_PRED, whole && cpp_run, partial,
                       (uint64_t)keys_equal);
                /* Binary partition. */
                uint32_t set = pset & exist, grp, mrank, msize;
                if (set == exist || set == 0) {
                    grp = exist, mrank = 0, msize = 1;
                } else if ((set >> r) & 1u) {
                    grp = set, mrank = 1, msize = 2;
                } else {
                    grp = exist & ~set, mrank = 0, msize = 2;
                }
                check2(&c, "binary_partition size", gid, oc, op, CGT_T_BP_SIZE, whole && cpp_run, partial,
                       (uint64_t)__builtin_popcount(grp));
                check2(&c, "binary_partition rank", gid, oc, op, CGT_T_BP_RANK, whole && cpp_run, partial,
                       (uint64_t)__builtin_popcount(grp & low_ones(r)));
                check2(&c, "binary_partition meta rank", gid, oc, op, CGT_T_BP_META_RANK, whole && cpp_run, partial,
                       mrank);
                check2(&c, "binary_partition meta size", gid, oc, op, CGT_T_BP_META_SIZE, whole && cpp_run, partial,
                       msize);
                check(&c, "binary_partition mask", gid, 0, partial, oc[CGT_T_BP_MASK], (uint64_t)grp << base_lane);
                /* Labeled partition, and plus over it. */
                uint32_t leader = (uint32_t)__builtin_ctz(same);
                uint32_t lrank = (uint32_t)__builtin_popcount(same & low_ones(r));
                uint32_t lsize = (uint32_t)__builtin_popcount(same);
                check2(&c, "labeled_partition size", gid, oc, op, CGT_T_LP_SIZE, cpp_run, partial, lsize);
                check2(&c, "labeled_partition rank", gid, oc, op, CGT_T_LP_RANK, cpp_run, partial, lrank);
                check2(&c, "labeled_partition meta rank", gid, oc, op, CGT_T_LP_META_RANK, cpp_run, partial,
                       (uint64_t)__builtin_popcount(leaders & low_ones(leader)));
                check2(&c, "labeled_partition meta size", gid, oc, op, CGT_T_LP_META_SIZE, cpp_run, partial,
                       (uint64_t)__builtin_popcount(leaders));
                check(&c, "labeled_partition mask", gid, 0, partial, oc[CGT_T_LP_MASK],
                      (uint64_t)same << base_lane);
                uint64_t mv[32], mred[32], minc[32];
                uint32_t m = 0;
                for (uint32_t q = 0; q < count; q++)
                    if ((same >> q) & 1u)
                        mv[m++] = v[q];
                ref_reduce(ty, OP_PLUS, mv, lsize, lsize == 32, mred);
                ref_scan(ty, OP_PLUS, mv, lsize, minc);
                check2(&c, "labeled_partition reduce[plus]", gid, oc, op, CGT_T_LP_REDUCE, cpp_run, partial,
                       mred[lrank]);
                check2(&c, "labeled_partition inclusive_scan[plus]", gid, oc, op, CGT_T_LP_INCL, cpp_run, partial,
                       minc[lrank]);
                check2(&c, "labeled_partition exclusive_scan[plus]", gid, oc, op, CGT_T_LP_EXCL, cpp_run, partial,
                       ref_excl(ty, OP_PLUS, mv, minc, lrank));
                check2(&c, "labeled_partition shfl(rank 0)", gid, oc, op, CGT_T_LP_SHFL0, cpp_run, partial, mv[0]);
            }
        }
    }
    check_done(&c);
    free_inputs(&in);
}

/* A cg_dim3_t from three values (a C compound literal). */
#define d3(x, y, z) ((cg_dim3_t){(x), (y), (z)})

/* Block shapes: whole warps and partial last warps (40, 100, 30, 105), 1-D,
 * 2-D and 3-D. CGT_QUICK (sanitizer passes) keeps three: whole warps, a
 * partial 1-D warp, a partial 3-D one. */
static const uint32_t shapes[][6] = {
    {3, 1, 1, 32, 1, 1}, {2, 1, 1, 64, 1, 1}, {3, 1, 1, 40, 1, 1}, {2, 1, 1, 100, 1, 1}, {2, 2, 1, 96, 1, 1},
    {2, 1, 1, 8, 4, 1},  {3, 1, 1, 5, 3, 2},  {2, 1, 1, 7, 5, 3},  {1, 2, 2, 16, 2, 3},
};
static const uint32_t quick_shapes[] = {0, 3, 7};

static size_t nshapes(void)
{
    return cgt_quick() ? sizeof quick_shapes / sizeof quick_shapes[0] : sizeof shapes / sizeof shapes[0];
}
static const uint32_t *shape(size_t i) { return shapes[cgt_quick() ? quick_shapes[i] : i]; }

static void tiles_of_type(cgt_type_t ty)
{
    uint64_t rng = cgt_seed();
    cgt_require_sm90();
    for (uint32_t n = 1; n <= 32; n *= 2)
        for (size_t i = 0; i < nshapes(); i++) {
            const uint32_t *s = shape(i);
            run_tile(n, ty, d3(s[0], s[1], s[2]), d3(s[3], s[4], s[5]), &rng);
        }
}

/* Every element type, each in a process of its own (a test per type; the
 * type is in every message). */
static cgt_type_t every_type[CGT_NTYPES] = {CGT_I32, CGT_U32, CGT_I64, CGT_U64, CGT_F32, CGT_F64};

ParameterizedTestParameters(collectives, tile)
{
    return cr_make_param_array(cgt_type_t, every_type, CGT_NTYPES);
}
ParameterizedTest(cgt_type_t *ty, collectives, tile) { tiles_of_type(*ty); }

/* ---- coalesced groups ----------------------------------------------------- */

/* The group (lane mask) and meta rank/size of `lane` under `mode`, in a warp
 * whose existing lanes are `exist`, with pred lanes P, pred2 lanes P2 and
 * keys k[32]. */
static void ref_group(cgt_cmode_t mode, uint32_t sz, uint32_t exist, uint32_t P, uint32_t P2, const uint64_t *k,
                      uint32_t lane, uint32_t *mask, uint32_t *mrank, uint32_t *msize)
{
    uint32_t parent = exist, bin = P;
    *mrank = 0;
    *msize = 1;
    switch (mode) {
    case CGT_C_DIVERGED:
        *mask = exist & P;
        return;
    case CGT_C_CONVERGED:
        *mask = exist;
        return;
    case CGT_C_DIVERGED_BINARY:
        parent = exist & P;
        bin = P2;
        /* fall through */
    case CGT_C_TILE_BINARY: {
        uint32_t set = parent & bin;
        if (set == parent || set == 0) {
            *mask = parent;
        } else if ((set >> lane) & 1u) {
            *mask = set, *mrank = 1, *msize = 2;
        } else {
            *mask = parent & ~set, *mrank = 0, *msize = 2;
        }
        return;
    }
    case CGT_C_DIVERGED_LABELED:
        parent = exist & P;
        /* fall through */
    case CGT_C_TILE_LABELED: {
        uint32_t same = 0, leaders = 0;
        for (uint32_t l = 0; l < 32; l++) {
            if (!((parent >> l) & 1u))
                continue;
            if (k[l] == k[lane])
                same |= 1u << l;
            uint32_t q = 0;
            while (!((parent >> q) & 1u) || k[q] != k[l])
                q++;
            leaders |= 1u << q;
        }
        uint32_t leader = (uint32_t)__builtin_ctz(same);
        *mask = same;
        *mrank = (uint32_t)__builtin_popcount(leaders & low_ones(leader));
        *msize = (uint32_t)__builtin_popcount(leaders);
        return;
    }
    case CGT_C_DIVERGED_TILED:
        parent = exist & P;
        /* fall through */
    default: { /* CGT_C_CONVERGED_TILED */
        uint32_t size = (uint32_t)__builtin_popcount(parent);
        if (size <= sz) {
            *mask = parent;
            return;
        }
        uint32_t r = (uint32_t)__builtin_popcount(parent & low_ones(lane)), lo = r & ~(sz - 1), m = 0, q = 0;
        for (uint32_t l = 0; l < 32; l++)
            if ((parent >> l) & 1u) {
                if (q >= lo && q < lo + sz)
                    m |= 1u << l;
                q++;
            }
        *mask = m;
        *mrank = r / sz;
        *msize = (size + sz - 1) / sz;
        return;
    }
    }
}

static int under_pred(cgt_cmode_t mode)
{
    return mode == CGT_C_DIVERGED || mode == CGT_C_DIVERGED_TILED || mode == CGT_C_DIVERGED_LABELED ||
           mode == CGT_C_DIVERGED_BINARY;
}

/* The bits of `lanes` at the lanes of `mask`, packed in rank order. */
static uint32_t pack(uint32_t mask, uint32_t lanes)
{
    uint32_t out = 0, r = 0;
    for (uint32_t l = 0; l < 32; l++)
        if ((mask >> l) & 1u)
            out |= ((lanes >> l) & 1u) << r++;
    return out;
}

static void run_coalesced(cgt_cmode_t mode, uint32_t sz, cgt_type_t ty, cg_dim3_t grid, cg_dim3_t block,
                          uint64_t *rng)
{
    inputs_t in;
    checker_t c = {{0}, 0};
    const uint64_t wm = width_mask(ty);
    make_inputs(&in, ty, grid, block, CGT_C_FIELDS, 32, 256, 33, 1, rng);
    snprintf(c.what, sizeof c.what, "coalesced %s (sz %u), %s, grid %ux%ux%u, block %ux%ux%u", mode_names[mode], sz,
             type_names[ty], grid.x, grid.y, grid.z, block.x, block.y, block.z);
    CGT_OK(cgt_launch_coalesced_collectives(mode, sz, ty, cpp_partial(), grid, block, in.val, in.key, in.arg, in.out));
    CGT_SYNC();

    for (uint32_t g0 = 0; g0 < in.total; g0 += in.nt) { /* each block */
        for (uint32_t w0 = 0; w0 < in.nt; w0 += 32) { /* each warp: block ranks [w0, w0 + 32) */
            uint32_t count = in.nt - w0 < 32 ? in.nt - w0 : 32;
            uint32_t exist = low_ones(count), P = 0, P2 = 0;
            uint64_t k[32] = {0}, v[32] = {0};
            for (uint32_t l = 0; l < count; l++) {
                uint32_t a = in.arg[g0 + w0 + l];
                P |= ((a >> 24) & 1u) << l;
                P2 |= ((a >> 25) & 1u) << l;
                k[l] = in.key[g0 + w0 + l] & wm;
                v[l] = in.val[g0 + w0 + l] & wm;
            }
            int partial = count < 32;
            /* C++ CG's binary partition of a tile of a partial warp counts
             * lanes that do not exist: not compared there; neither tile
             * partition's C++ side runs there without cpp_partial. */
            int tile_mode = mode == CGT_C_TILE_BINARY || mode == CGT_C_TILE_LABELED;
            int cpp_ok = !(partial && (mode == CGT_C_TILE_BINARY || (tile_mode && !cpp_partial())));
            for (uint32_t lane = 0; lane < count; lane++) {
                uint32_t gid = g0 + w0 + lane;
                const uint64_t *oc = in.out + (size_t)gid * 2 * CGT_C_FIELDS, *op = oc + CGT_C_FIELDS;
                if (under_pred(mode) && !((P >> lane) & 1u)) { /* took no part: wrote nothing */
                    check(&c, "no write outside the branch", gid, 0, partial, oc[CGT_C_SIZE], POISON64);
                    check(&c, "no write outside the branch", gid, 1, partial, op[CGT_C_SIZE], POISON64);
                    continue;
                }
                uint32_t M, mrank, msize;
                ref_group(mode, sz, exist, P, P2, k, lane, &M, &mrank, &msize);
                uint32_t size = (uint32_t)__builtin_popcount(M), r = (uint32_t)__builtin_popcount(M & low_ones(lane));
                uint64_t mv[32], mk[32], red[32], inc[32];
                uint32_t lanes[32], m = 0;
                for (uint32_t l = 0; l < 32; l++)
                    if ((M >> l) & 1u) {
                        lanes[m] = l;
                        mk[m] = k[l];
                        mv[m++] = v[l];
                    }
                char f[64];
                check(&c, "group mask", gid, 0, partial, oc[CGT_C_MASK], M);
                check2(&c, "num_threads", gid, oc, op, CGT_C_SIZE, cpp_ok, partial, size);
                check2(&c, "thread_rank", gid, oc, op, CGT_C_RANK, cpp_ok, partial, r);
                check2(&c, "meta_group_rank", gid, oc, op, CGT_C_META_RANK, cpp_ok, partial, mrank);
                check2(&c, "meta_group_size", gid, oc, op, CGT_C_META_SIZE, cpp_ok, partial, msize);
                for (int o = 0; o < nops(ty); o++) {
                    ref_reduce(ty, o, mv, size, size == 32, red);
                    ref_scan(ty, o, mv, size, inc);
                    snprintf(f, sizeof f, "reduce[%s]", op_names[o]);
                    check2(&c, f, gid, oc, op, CGT_C_REDUCE + o, cpp_ok, partial, red[r]);
                    snprintf(f, sizeof f, "inclusive_scan[%s]", op_names[o]);
                    check2(&c, f, gid, oc, op, CGT_C_INCL + o, cpp_ok, partial, inc[r]);
                    snprintf(f, sizeof f, "exclusive_scan[%s]", op_names[o]);
                    check2(&c, f, gid, oc, op, CGT_C_EXCL + o, cpp_ok, partial, ref_excl(ty, o, mv, inc, r));
                }
                for (int o = nops(ty); o < CGT_NOPS; o++)
                    check2(&c, "unused bit-operator slot", gid, oc, op, CGT_C_REDUCE + o, 1, partial, POISON64);
                uint32_t a = in.arg[gid], src = (a & 0xffu) % size, d = (a >> 8) & 0xffu;
                uint32_t up = r >= d ? r - d : r, down = r + d < size ? r + d : r;
                check2(&c, "shfl", gid, oc, op, CGT_C_SHFL, cpp_ok, partial, mv[src]);
                check2(&c, "shfl_up", gid, oc, op, CGT_C_SHFL_UP, cpp_ok, partial, mv[up]);
                check2(&c, "shfl_down", gid, oc, op, CGT_C_SHFL_DOWN, cpp_ok, partial, mv[down]);
                check2(&c, "shfl_bytes(12)", gid, oc, op, CGT_C_B12_SHFL, cpp_ok, partial,
                       in.val[g0 + w0 + lanes[src]]);
                check2(&c, "shfl_bytes(12) hi", gid, oc, op, CGT_C_B12_SHFL + 1, cpp_ok, partial,
                       in.key[g0 + w0 + lanes[src]] & 0xffffffffu);
                check2(&c, "shfl_up_bytes(12)", gid, oc, op, CGT_C_B12_SHFL_UP, cpp_ok, partial,
                       in.val[g0 + w0 + lanes[up]]);
                check2(&c, "shfl_up_bytes(12) hi", gid, oc, op, CGT_C_B12_SHFL_UP + 1, cpp_ok, partial,
                       in.key[g0 + w0 + lanes[up]] & 0xffffffffu);
                check2(&c, "shfl_down_bytes(12)", gid, oc, op, CGT_C_B12_SHFL_DOWN, cpp_ok, partial,
                       in.val[g0 + w0 + lanes[down]]);
                check2(&c, "shfl_down_bytes(12) hi", gid, oc, op, CGT_C_B12_SHFL_DOWN + 1, cpp_ok, partial,
                       in.key[g0 + w0 + lanes[down]] & 0xffffffffu);
                uint32_t ballot = pack(M, P2), all = low_ones(size);
                check2(&c, "ballot", gid, oc, op, CGT_C_BALLOT, cpp_ok, partial, ballot);
                check2(&c, "any", gid, oc, op, CGT_C_ANY, cpp_ok, partial, ballot != 0);
                check2(&c, "all", gid, oc, op, CGT_C_ALL, cpp_ok, partial, ballot == all);
                uint32_t same = 0;
                for (uint32_t q = 0; q < size; q++)
                    same |= (uint32_t)(mk[q] == mk[r]) << q;
                check2(&c, "match_any", gid, oc, op, CGT_C_MATCH_ANY, cpp_ok, partial, same);
                check2(&c, "match_all", gid, oc, op, CGT_C_MATCH_ALL, cpp_ok, partial, same == all ? all : 0);
                check2(&c, "match_all pred", gid, oc, op, CGT_C_MATCH_ALL_PRED, cpp_ok, partial, same == all);
            }
        }
    }
    check_done(&c);
    free_inputs(&in);
}

static void coalesced_of_type(cgt_type_t ty)
{
    uint64_t rng = cgt_seed();
    cgt_require_sm90();
    for (int mode = 0; mode < CGT_C_NMODES; mode++) {
        int tiled = mode == CGT_C_DIVERGED_TILED || mode == CGT_C_CONVERGED_TILED;
        /* CGT_QUICK: tiles of 2, 8 and 32 only. */
        for (uint32_t sz = cgt_quick() ? 2 : 1; sz <= 32; sz *= cgt_quick() ? 4 : 2) {
            for (size_t i = 0; i < nshapes(); i++) {
                const uint32_t *s = shape(i);
                run_coalesced((cgt_cmode_t)mode, sz, ty, d3(s[0], s[1], s[2]), d3(s[3], s[4], s[5]), &rng);
            }
            if (!tiled)
                break; /* sz matters only to the tiled modes */
        }
    }
}

ParameterizedTestParameters(collectives, coalesced)
{
    return cr_make_param_array(cgt_type_t, every_type, CGT_NTYPES);
}
ParameterizedTest(cgt_type_t *ty, collectives, coalesced) { coalesced_of_type(*ty); }

/* ---- the reference itself (no GPU) ---------------------------------------- */

/* The host reference against sums, minima and prefix sums computed the plain
 * way, and the float order rules on a case where order shows: runs
 * everywhere, so a wrong reference cannot pass the GPU tests silently. */
Test(collectives, reference_selfcheck)
{
    uint64_t rng = 12345, in[32], out[32], inc[32];
    for (uint32_t n = 1; n <= 32; n *= 2) {
        uint64_t sum = 0, mn = ~0ull, pre = 0;
        for (uint32_t i = 0; i < n; i++) {
            in[i] = cgt_rand(&rng) & 0xffffffffu;
            sum += in[i];
            mn = in[i] < mn ? in[i] : mn;
        }
        ref_reduce(CGT_U32, OP_PLUS, in, n, 1, out);
        for (uint32_t i = 0; i < n; i++)
            cr_expect_eq(out[i], sum & 0xffffffffu, "butterfly sum n=%u rank %u", n, i);
        ref_reduce(CGT_U32, OP_LESS, in, n, 0, out);
        for (uint32_t i = 0; i < n; i++)
            cr_expect_eq(out[i], mn, "scan-last min n=%u rank %u", n, i);
        ref_scan(CGT_U32, OP_PLUS, in, n, inc);
        for (uint32_t i = 0; i < n; i++) {
            cr_expect_eq(ref_excl(CGT_U32, OP_PLUS, in, inc, i), pre & 0xffffffffu, "exclusive n=%u rank %u", n, i);
            pre += in[i];
            cr_expect_eq(inc[i], pre & 0xffffffffu, "inclusive n=%u rank %u", n, i);
        }
    }
    /* Float: the butterfly of {1, 2^-24, 2^-24, 2^-24} is (1 + 2^-24) + (2^-24 + 2^-24)
     * = 1 + 2^-23 in every rank (the first pair rounds to 1, then
     * 1 + 2^-23 is exact); a sequential sum gives 1. */
    in[0] = f2b(1.0f);
    in[1] = in[2] = in[3] = f2b(ldexpf(1.0f, -24));
    ref_reduce(CGT_F32, OP_PLUS, in, 4, 1, out);
    cr_expect_eq(out[0], f2b(1.0f + ldexpf(1.0f, -23)), "butterfly order: 0x%llx", (unsigned long long)out[0]);
    ref_scan(CGT_F32, OP_PLUS, in, 4, inc);
    cr_expect_eq(inc[3], f2b(1.0f + ldexpf(1.0f, -23)), "scan order: 0x%llx", (unsigned long long)inc[3]);
    /* A partial tile: 3 of 4 ranks. Step o = 2: rank 0 takes rank 2, rank 1
     * (partner 3 missing, 3 mod 4 too) keeps its own, rank 2 takes rank 0;
     * step o = 1: rank 2's partner 3 is missing, it reads rank 1 (3 mod 2).
     * Every rank: (1 + 2^-24) + 2^-24 = 1 in float (each add rounds back). */
    ref_partial_tile_reduce(CGT_F32, OP_PLUS, in, 3, 4, out);
    for (uint32_t i = 0; i < 3; i++)
        cr_expect_eq(out[i], f2b(1.0f), "partial tile rank %u: 0x%llx", i, (unsigned long long)out[i]);
    for (uint32_t count = 1; count <= 32; count++) { /* integers: the total in every rank */
        uint64_t sum = 0;
        for (uint32_t i = 0; i < count; i++) {
            in[i] = cgt_rand(&rng) & 0xffffu;
            sum += in[i];
        }
        uint32_t n = 1;
        while (n < count)
            n *= 2;
        for (uint32_t tile = n; tile <= 32; tile *= 2) {
            ref_partial_tile_reduce(CGT_U32, OP_PLUS, in, count, tile, out);
            for (uint32_t i = 0; i < count; i++)
                cr_expect_eq(out[i], sum, "partial tile sum count=%u n=%u rank %u", count, tile, i);
        }
    }
    /* less keeps its first argument on a tie: less(+0, -0) = +0, less(-0, +0) = -0. */
    cr_expect_eq(ref_op(CGT_F32, OP_LESS, f2b(0.0f), f2b(-0.0f)), f2b(0.0f));
    cr_expect_eq(ref_op(CGT_F32, OP_LESS, f2b(-0.0f), f2b(0.0f)), f2b(-0.0f));
    /* Float exclusive scans give rank 0 a zero for every operator. */
    in[0] = f2b(5.0f);
    ref_scan(CGT_F32, OP_GREATER, in, 1, inc);
    cr_expect_eq(ref_excl(CGT_F32, OP_GREATER, in, inc, 0), 0u);
    /* Packing lane bits to ranks. */
    cr_expect_eq(pack(0xf0f0f0f0u, 0x10101010u), 0x1111u);
}

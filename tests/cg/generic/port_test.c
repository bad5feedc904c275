/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/generic/port_test.c — a C++ CG kernel templated over the element
 * type and the tile size, ported to cgc's generic calls, against the
 * original in the same kernel and against a host reference
 * (port_kernels.cuh).
 *
 * For every element type (int32, uint32, int64, uint64, float, double, and
 * int16 and uint8, which the generic calls widen), every tile size 16..512,
 * three block shapes (512x1x1, 8x8x8, 32x4x4; 3 blocks) and two kinds of
 * input, every lane's reduce, inclusive and exclusive scan (plus, less,
 * greater; bit_xor for integers), shfl, any, all, thread_rank, num_threads,
 * meta_group_rank and meta_group_size must equal C++ CG's bit for bit, and
 * the host's: integers always (wrapping sums, signed or unsigned order),
 * floats when the inputs are small integers (every partial sum exact, so
 * the order of combination cannot change a bit). With random floats
 * (varied exponents, no zeros, repeated values) cgc is compared with C++ CG
 * alone, bit for bit, as tests/cg/collectives and tests/cg/wide_tile do. Outputs
 * are poisoned first (0xA5 bytes); the bit_xor fields of float types must
 * still hold the poison on both sides afterwards, and every other field must
 * not (a field neither side wrote would otherwise match itself: no value
 * the kernels write is 0xA5A5A5A5A5A5A5A5 but with odds of 2^-64 for a
 * random 64-bit integer; the narrower types are zero-extended to 64 bits).
 *
 * Inputs are fresh per run (seed printed; CGC_SEED=<n> replays). Without an
 * sm_90 device the test skips and says why; the reference's self-check runs
 * everywhere.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/cg/generic/port_kernels.h"
#include "tests/support/cgtest.h"

#include <criterion/parameterized.h> /* after criterion.h (cgtest.h), which it needs first */

TestSuite(generic_port, .timeout = 600);

#define POISON64 0xA5A5A5A5A5A5A5A5ull
#define BLOCKS 3u
#define THREADS 512u

static const char *const type_name[CGP_NTYPES] = {"int32", "uint32", "int64", "uint64",
                                                  "float", "double", "int16", "uint8"};
static const unsigned type_bytes[CGP_NTYPES] = {4, 4, 8, 8, 4, 8, 2, 1};
static int is_float(int ty) { return ty == CGP_F32 || ty == CGP_F64; }
static int is_signed(int ty) { return ty == CGP_I32 || ty == CGP_I64 || ty == CGP_I16; }
static uint64_t width_mask(int ty) { return type_bytes[ty] == 8 ? ~0ull : (1ull << (8 * type_bytes[ty])) - 1ull; }

/* A value's bits as a signed 64-bit integer (sign-extended from its width). */
static int64_t as_signed(int ty, uint64_t b)
{
    unsigned bits = 8 * type_bytes[ty];
    if (bits == 64)
        return (int64_t)b;
    uint64_t sign = 1ull << (bits - 1);
    return (int64_t)((b ^ sign) - sign);
}

/* A 64-bit slot's bits as the float in its low 4 bytes or the double in all
 * 8 (little-endian, as every CUDA host is). */
typedef union slot_bits {
    uint64_t u;
    float f;
    double d;
} slot_bits_t;

/* A float or double value's bits as a double. */
static double as_double(int ty, uint64_t b)
{
    slot_bits_t v = {.u = b};
    return ty == CGP_F32 ? (double)v.f : v.d;
}

/* A double as a value of type ty (a float rounded), its bits zero-extended. */
static uint64_t from_double(int ty, double d)
{
    if (ty == CGP_F32)
        return ((slot_bits_t){.f = (float)d}).u & 0xffffffffull;
    return ((slot_bits_t){.d = d}).u;
}

/* C++ CG's op(a, b) on bit patterns: plus (integers wrap at their width),
 * less b < a ? b : a, greater a < b ? b : a, bit_xor. Floats only in the
 * exact mode (integer values: the double result is the float's). */
static uint64_t ref_op(int ty, int op, uint64_t a, uint64_t b)
{
    const uint64_t m = width_mask(ty);
    if (is_float(ty)) {
        double x = as_double(ty, a), y = as_double(ty, b);
        double r = op == CGP_PLUS ? x + y : op == CGP_LESS ? (y < x ? y : x) : (x < y ? y : x);
        return from_double(ty, r);
    }
    int lt_ba, lt_ab; /* b < a, a < b in the type's order */
    if (is_signed(ty)) {
        lt_ba = as_signed(ty, b) < as_signed(ty, a);
        lt_ab = as_signed(ty, a) < as_signed(ty, b);
    } else {
        lt_ba = (b & m) < (a & m);
        lt_ab = (a & m) < (b & m);
    }
    switch (op) {
    case CGP_PLUS: return (a + b) & m;
    case CGP_LESS: return (lt_ba ? b : a) & m;
    case CGP_GREATER: return (lt_ab ? b : a) & m;
    default: return (a ^ b) & m;
    }
}

/* The reduce, inclusive and exclusive results of each of the n ranks of one
 * tile, in order of rank (any order of combination gives these bits for
 * integers and for the exact float inputs). */
static void ref_tile(int ty, int op, const uint64_t *in, unsigned n, uint64_t *red, uint64_t *incl, uint64_t *excl)
{
    uint64_t acc = in[0];
    incl[0] = acc;
    for (unsigned r = 1; r < n; ++r) {
        acc = ref_op(ty, op, acc, in[r]);
        incl[r] = acc;
    }
    for (unsigned r = 0; r < n; ++r) {
        red[r] = acc;
        excl[r] = r == 0 ? 0 : incl[r - 1];
    }
}

Test(generic_port, the_host_reference_checks_itself)
{
    uint64_t in[4] = {5, (uint64_t)-3 & 0xffffffffull, 7, 1}, red[4], incl[4], excl[4];
    ref_tile(CGP_I32, CGP_PLUS, in, 4, red, incl, excl);
    cr_expect_eq(red[2], 10u);
    cr_expect_eq(incl[1], 2u);
    cr_expect_eq(excl[0], 0u);
    cr_expect_eq(excl[3], 9u);
    ref_tile(CGP_I32, CGP_LESS, in, 4, red, incl, excl);
    cr_expect_eq(red[0], (uint64_t)-3 & 0xffffffffull, "signed minimum");
    ref_tile(CGP_U32, CGP_LESS, in, 4, red, incl, excl);
    cr_expect_eq(red[0], 1u, "unsigned minimum");
    uint64_t b8[3] = {200, 100, 7};
    ref_tile(CGP_U8, CGP_PLUS, b8, 3, red, incl, excl);
    cr_expect_eq(red[0], (200u + 100u + 7u) & 0xffu, "uint8 sums wrap");
    uint64_t h[2] = {0x7fff, 1};
    ref_tile(CGP_I16, CGP_GREATER, h, 2, red, incl, excl);
    cr_expect_eq(red[0], 0x7fffu, "int16 maximum");
    uint64_t f[3] = {from_double(CGP_F32, 2.0), from_double(CGP_F32, -5.0), from_double(CGP_F32, 3.0)};
    ref_tile(CGP_F32, CGP_PLUS, f, 3, red, incl, excl);
    cr_expect_eq(as_double(CGP_F32, red[0]), 0.0);
    ref_tile(CGP_F32, CGP_GREATER, f, 3, red, incl, excl);
    cr_expect_eq(as_double(CGP_F32, incl[1]), 2.0);
}

/* A random value of the type's bits. exact: a small integer (floats: an
 * integer value in [-1000, 1000]); otherwise any integer bits, or a float
 * with a random sign, exponent (2^-20 .. 2^20) and mantissa, never 0. */
static uint64_t random_value(int ty, int exact, uint64_t *st)
{
    uint64_t r = cgt_rand(st);
    if (is_float(ty)) {
        if (exact)
            return from_double(ty, (double)((int64_t)(r % 2001u) - 1000));
        double mant = 1.0 + (double)(r >> 12) / 4503599627370496.0; /* [1, 2) */
        int e = (int)((r >> 4) % 41u) - 20;
        return from_double(ty, ((r & 1u) ? -1.0 : 1.0) * ldexp(mant, e));
    }
    if (exact)
        return (is_signed(ty) ? (uint64_t)((int64_t)(r % 2001u) - 1000) : r % 2001u) & width_mask(ty);
    return r & width_mask(ty);
}

/* One launch: fresh inputs, the kernel, every lane of every field checked. */
static unsigned run_case(unsigned n, int ty, unsigned bx, unsigned by, unsigned bz, int exact, uint64_t *st)
{
    const unsigned nt = bx * by * bz;
    const size_t total = (size_t)BLOCKS * nt;
    uint64_t *val = malloc(total * sizeof *val);
    uint32_t *arg = malloc(total * sizeof *arg);
    uint64_t *out = malloc(total * 2 * CGP_FIELDS * sizeof *out);
    cr_assert(val && arg && out);
    for (size_t base = 0; base < total; base += n) {
        uint32_t src = (uint32_t)(cgt_rand(st) % n);
        unsigned pattern = (unsigned)(cgt_rand(st) % 4u); /* 0: all false, 1: all true, else random */
        for (unsigned r = 0; r < n; ++r) {
            /* a repeat of an earlier value now and then (ties in min/max) */
            val[base + r] = r > 0 && cgt_rand(st) % 8u == 0 ? val[base + cgt_rand(st) % r] : random_value(ty, exact, st);
            uint32_t pa = pattern == 0 ? 0u : pattern == 1 ? 1u : (uint32_t)(cgt_rand(st) % 3u != 0);
            uint32_t pl = pattern == 0 ? 0u : pattern == 1 ? 1u : (uint32_t)(cgt_rand(st) % 64u != 0);
            arg[base + r] = src | (pa << 16) | (pl << 17);
        }
    }
    cgt_vao_run(cgp_port, n, ty, BLOCKS, bx, by, bz, total, 2 * CGP_FIELDS, val, arg, out);

    static const char *const field_name[CGP_FIELDS] = {
        "reduce plus", "reduce less", "reduce greater", "reduce bit_xor", "inclusive plus", "inclusive less",
        "inclusive greater", "inclusive bit_xor", "exclusive plus", "exclusive less", "exclusive greater",
        "exclusive bit_xor", "shfl", "any", "all", "thread_rank", "num_threads", "meta_group_rank",
        "meta_group_size"};
    const int nops = is_float(ty) ? 3 : 4;
    const int host_collectives = !is_float(ty) || exact;
    unsigned bad = 0;
    uint64_t red[CGP_NOPS][512], incl[CGP_NOPS][512], excl[CGP_NOPS][512];
    for (size_t base = 0; base < total; base += n) {
        for (int op = 0; op < nops; ++op)
            if (host_collectives)
                ref_tile(ty, op, val + base, n, red[op], incl[op], excl[op]);
        int any = 0, all = 1;
        for (unsigned r = 0; r < n; ++r) {
            any |= (int)((arg[base + r] >> 16) & 1u);
            all &= (int)((arg[base + r] >> 17) & 1u);
        }
        for (unsigned r = 0; r < n; ++r) {
            const size_t gid = base + r;
            const uint64_t *oc = out + gid * 2 * CGP_FIELDS, *op = oc + CGP_FIELDS;
            const size_t block_rank = gid % nt;
            uint64_t want[CGP_FIELDS];
            int have[CGP_FIELDS] = {0};
            for (int o = 0; o < nops; ++o) {
                want[CGP_REDUCE + o] = red[o][r];
                want[CGP_INCL + o] = incl[o][r];
                want[CGP_EXCL + o] = excl[o][r];
                have[CGP_REDUCE + o] = have[CGP_INCL + o] = have[CGP_EXCL + o] = host_collectives;
            }
            want[CGP_SHFL] = val[base + (arg[gid] & 0x3ffu)];
            want[CGP_ANY] = (uint64_t)any;
            want[CGP_ALL] = (uint64_t)all;
            want[CGP_RANK] = block_rank % n;
            want[CGP_NTHREADS] = n;
            want[CGP_META_RANK] = block_rank / n;
            want[CGP_META_SIZE] = nt / n;
            for (int f = CGP_SHFL; f < CGP_FIELDS; ++f)
                have[f] = 1;
            for (int f = 0; f < CGP_FIELDS; ++f) {
                const int xor_of_float = nops == 3 && (f == CGP_REDUCE + CGP_XOR || f == CGP_INCL + CGP_XOR ||
                                                       f == CGP_EXCL + CGP_XOR);
                int ok;
                if (xor_of_float)
                    ok = oc[f] == POISON64 && op[f] == POISON64;
                else /* never the poison: a field both sides left unwritten would match */
                    ok = oc[f] != POISON64 && op[f] != POISON64 && oc[f] == op[f] && (!have[f] || oc[f] == want[f]);
                if (!ok && ++bad <= 8)
                    cr_log_error("N=%u %s block=(%u,%u,%u) %s: gid %zu (tile rank %u) %s: cgc 0x%" PRIx64
                                 ", C++ CG 0x%" PRIx64 ", host %s0x%" PRIx64,
                                 n, type_name[ty], bx, by, bz, exact ? "exact" : "random", gid, r, field_name[f],
                                 oc[f], op[f], have[f] ? "" : "(not checked) ", have[f] ? want[f] : 0);
            }
        }
    }
    free(val);
    free(arg);
    free(out);
    return bad;
}

static void run_type(int ty)
{
    cgt_require_sm90();
    /* C++ CG is the oracle in the same kernel: its tiles above 32 threads
     * exchange through shared memory with synchronization racecheck has no
     * model of (it reports races inside cooperative_groups.h, not in cgc). */
    cgt_skip_under_sanitizer("racecheck", "the C++ CG oracle's tiles above 32 threads (races reported inside cooperative_groups.h)");
    uint64_t st = cgt_seed();
    static const unsigned shapes[3][3] = {{512, 1, 1}, {8, 8, 8}, {32, 4, 4}};
    unsigned cases = 0;
    for (unsigned s = 0; s < CGP_NSIZES; ++s)
        for (unsigned sh = 0; sh < 3; ++sh)
            for (int exact = 0; exact < 2; ++exact) {
                const unsigned n = cgp_sizes[s];
                unsigned bad = run_case(n, ty, shapes[sh][0], shapes[sh][1], shapes[sh][2], exact, &st);
                cr_expect_eq(bad, 0u, "N=%u %s block=(%u,%u,%u) %s inputs: %u bad fields (first ones logged above)",
                             n, type_name[ty], shapes[sh][0], shapes[sh][1], shapes[sh][2],
                             exact ? "exact" : "random", bad);
                ++cases;
            }
    cr_log_info("%s: %u launches checked, every lane of every field", type_name[ty], cases);
}

/* Every element type (int16 and uint8 through the widened calls), each in a
 * process of its own (a test per type; the type is in every message). */
ParameterizedTestParameters(generic_port, each_type)
{
    static int types[CGP_NTYPES] = {CGP_I32, CGP_U32, CGP_I64, CGP_U64, CGP_F32, CGP_F64, CGP_I16, CGP_U8};
    return cr_make_param_array(int, types, CGP_NTYPES);
}
ParameterizedTest(int *ty, generic_port, each_type) { run_type(*ty); }

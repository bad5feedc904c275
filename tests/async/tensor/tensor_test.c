/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/async/tensor/tensor_test.c — GPU: tensor (TMA) copies through maps built by
 * cg_tensor_map_encode, every byte checked against a host model.
 *
 *  - loads of every rank 1..5 x every swizzle (none, 32, 64, 128 B) x element
 *    sizes 1, 2, 4, 8 bytes, with padded strides and boxes hanging over the
 *    start and the end of every dimension: each byte of the raw shared tile is
 *    compared with the model (dense box, 16-byte chunks permuted by the
 *    swizzle; out-of-bounds elements zero), both the per-rank and the
 *    coordinate-array calls; the map prefetch and the L2 box prefetch run
 *    before each load; one case reads the map from global memory;
 *  - NaN fill: out-of-bounds float elements come back NaN, the rest exact;
 *  - element strides (2 and 3 in dimensions 1 and 2): the moved elements;
 *  - stores: each tile loaded, every byte changed, stored back through a
 *    second map: every byte of the output tensor (padding included) is either
 *    the changed input (inside some box and the tensor) or its poison;
 *  - multicast loads in clusters of 2 and 4: each CTA holds every CTA's box.
 * Inputs are fresh random bytes (seed printed; CGC_SEED=<n> replays).
 * CGT_QUICK=1 (sanitizer passes) keeps one element size per rank and swizzle.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "async/tensor_map.h"
#include "tests/support/cgtest.h"
#include "tests/async/tensor/tensor_kernels.h"

#define NBOXES 6 /* boxes per configuration (one block each) */

/* One tensor and its box. */
typedef struct {
    char name[96];
    cg_tensor_dtype_t dtype;
    uint32_t esize, rank;
    cg_tensor_swizzle_t swizzle;
    cg_tensor_oob_fill_t fill;
    uint64_t shape[5];
    uint64_t stride[5]; /* stride[0] = esize; stride[i] bytes of dimension i */
    uint32_t box[5];
    uint32_t estride[5]; /* element strides (0 or 1: every element) */
    size_t bytes;      /* global buffer */
    uint32_t box_bytes; /* one tile */
} tcfg_t;

/* CGT_QUICK=1 (the sanitizer passes): one element size per rank and swizzle,
 * rotating, instead of all four. */
static int keep_esize(uint32_t rank, int sw, uint32_t esize)
{
    const char *q = getenv("CGT_QUICK");
    if (q == NULL || q[0] == '\0' || q[0] == '0')
        return 1;
    return esize == 1u << ((rank + (uint32_t)sw) % 4u);
}

static uint32_t rnd(uint64_t *s, uint32_t lo, uint32_t hi) { return lo + (uint32_t)(cgt_rand(s) % (hi - lo + 1u)); }

static cg_tensor_dtype_t dtype_of(uint32_t esize)
{
    return esize == 1 ? CG_TENSOR_U8 : esize == 2 ? CG_TENSOR_U16 : esize == 4 ? CG_TENSOR_U32 : CG_TENSOR_U64;
}

static uint32_t span_of(cg_tensor_swizzle_t s) { return s == 0 ? 0u : 16u << (unsigned)s; }

static uint32_t moved(const tcfg_t *c, uint32_t i);

/* Shapes a little larger than the box (1 .. box + 3 more), padded strides,
 * the buffer size and the tile size, from rank, esize, box and estride. */
static void lay_out(uint64_t *rs, tcfg_t *c)
{
    const uint32_t rank = c->rank, esize = c->esize;
    for (uint32_t i = 0; i < rank; ++i)
        c->shape[i] = c->box[i] + rnd(rs, 1, c->box[i] + 3);
    c->stride[0] = esize;
    uint64_t s = ((c->shape[0] * esize + 15u) / 16u) * 16u + 16u * rnd(rs, 0, 2);
    for (uint32_t i = 1; i < rank; ++i) {
        c->stride[i] = s;
        s = s * c->shape[i] + 16u * rnd(rs, 0, 1);
    }
    c->bytes = rank == 1 ? (size_t)(((c->shape[0] * esize + 15u) / 16u) * 16u)
                         : (size_t)(c->stride[rank - 1] * c->shape[rank - 1]);
    c->box_bytes = esize;
    for (uint32_t i = 0; i < rank; ++i)
        c->box_bytes *= moved(c, i);
}

/* A random tensor of this rank, element size and swizzle; the box rows are
 * the whole swizzle span (or 16..64 bytes without swizzle). */
static tcfg_t make_cfg(uint64_t *rs, uint32_t rank, uint32_t esize, cg_tensor_swizzle_t sw)
{
    tcfg_t c;
    memset(&c, 0, sizeof c);
    c.rank = rank;
    c.esize = esize;
    c.dtype = dtype_of(esize);
    c.swizzle = sw;
    const uint32_t row = sw ? span_of(sw) : 16u * rnd(rs, 1, 4);
    c.box[0] = row / esize;
    static const uint32_t lo[5][5] = {{0}, {0, 8}, {0, 4, 2}, {0, 3, 2, 2}, {0, 3, 2, 2, 2}};
    static const uint32_t hi[5][5] = {{0}, {0, 20}, {0, 9, 4}, {0, 5, 3, 2}, {0, 3, 2, 2, 3}};
    for (uint32_t i = 1; i < rank; ++i)
        c.box[i] = rnd(rs, lo[rank - 1][i], hi[rank - 1][i]);
    for (uint32_t i = 0; i < 5; ++i)
        c.estride[i] = 1;
    lay_out(rs, &c);
    c.fill = CG_TENSOR_OOB_ZERO;
    snprintf(c.name, sizeof c.name, "rank %u, %u-byte elements, swizzle %u B, box %ux%ux%ux%ux%u", rank, esize,
             span_of(sw), c.box[0], rank > 1 ? c.box[1] : 1, rank > 2 ? c.box[2] : 1, rank > 3 ? c.box[3] : 1,
             rank > 4 ? c.box[4] : 1);
    return c;
}

/* Encodes c's map over dmem; a refusal fails the test but only this
 * configuration (returns 0), so one surprise does not hide the others. */
static int encode(const tcfg_t *c, void *dmem, cg_tensor_map_t *m)
{
    cg_tensor_map_desc_t d = CG_TENSOR_MAP_DESC_INIT;
    d.dtype = c->dtype;
    d.rank = c->rank;
    d.global_address = dmem;
    for (uint32_t i = 0; i < c->rank; ++i) {
        d.shape[i] = c->shape[i];
        d.box[i] = c->box[i];
        if (i > 0)
            d.stride_bytes[i - 1] = c->stride[i];
    }
    for (uint32_t i = 0; i < c->rank; ++i)
        d.element_stride[i] = c->estride[i];
    d.swizzle = c->swizzle;
    d.oob_fill = c->fill;
    const cg_status_t st = cg_tensor_map_encode(m, &d);
    cr_expect_eq(st, CG_SUCCESS, "%s: cg_tensor_map_encode: %s (%s); configuration skipped", c->name,
                 cg_status_name(st), cg_last_error_detail());
    return st == CG_SUCCESS;
}

/* Where the byte at dense offset o of a tile lands under the swizzle. */
static uint32_t swizzled(uint32_t o, cg_tensor_swizzle_t sw)
{
    const uint32_t chunks = span_of(sw) / 16u; /* 0, 2, 4, 8 */
    return chunks ? o ^ (((o >> 7) % chunks) << 4) : o;
}

/* Coordinates of box k: 0 at the origin, 1 over the start of every
 * dimension, 2 over the end, then random ones that keep at least one element
 * inside in every dimension. */
/* v rounded down (towards minus infinity) to a multiple of `bytes` / esize
 * elements: the innermost coordinate's byte offset a multiple of `bytes`. */
static int32_t cgt_tensor_inner_(int32_t v, uint32_t esize, uint32_t bytes)
{
    const int32_t q = (int32_t)(bytes / esize);
    return v >= 0 ? v - v % q : -((-v + q - 1) / q) * q;
}

static void make_coords(uint64_t *rs, const tcfg_t *c, int32_t *coords)
{
    for (int k = 0; k < NBOXES; ++k)
        for (uint32_t i = 0; i < 5; ++i) {
            int32_t v = 0;
            if (i < c->rank) {
                const int32_t b = (int32_t)c->box[i], s = (int32_t)c->shape[i];
                if (k == 1)
                    v = -(b / 2);
                else if (k == 2)
                    v = s - (b + 1) / 2;
                else if (k > 2)
                    v = (int32_t)rnd(rs, 0, (uint32_t)(s + b - 2)) - (b - 1);
                /* The innermost coordinate's byte offset must be a multiple
                 * of 16 (async/tensor.h: an H100 faults with an illegal
                 * instruction otherwise); with a swizzle the tests keep it a
                 * multiple of the swizzle span, the only offsets measured. */
                if (i == 0)
                    v = cgt_tensor_inner_(v, c->esize, c->swizzle ? span_of(c->swizzle) : 16u);
            }
            coords[k * 5 + (int)i] = v;
        }
}

/* The element of box position p[] for a box at coords c0[]: its global byte
 * offset, or -1 when it lies outside the tensor. */
static long long global_offset(const tcfg_t *c, const int32_t *c0, const uint32_t *p)
{
    long long off = 0;
    for (uint32_t i = 0; i < c->rank; ++i) {
        const long long g = (long long)c0[i] + (long long)p[i] * (c->estride[i] ? c->estride[i] : 1u);
        if (g < 0 || g >= (long long)c->shape[i])
            return -1;
        off += g * (long long)c->stride[i];
    }
    return off;
}

/* Elements a box moves along dimension i: ceil(box / element stride). */
static uint32_t moved(const tcfg_t *c, uint32_t i)
{
    const uint32_t s = c->estride[i] ? c->estride[i] : 1u;
    return i < c->rank ? (c->box[i] + s - 1u) / s : 1u;
}

/* Box position of element index e (dimension 0 fastest), in moved elements. */
static void box_pos(const tcfg_t *c, uint32_t e, uint32_t *p)
{
    for (uint32_t i = 0; i < 5; ++i) {
        const uint32_t b = moved(c, i);
        p[i] = e % b;
        e /= b;
    }
}

static int is_nan_bits(const unsigned char *b, uint32_t esize)
{
    if (esize == 4) {
        uint32_t u;
        memcpy(&u, b, 4);
        return (u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu) != 0;
    }
    return 0;
}

/* Compares one raw tile with the model; returns the number of bad elements
 * and reports bad elements in detail while *budget lasts (each costs one),
 * with everything needed to see why; the caller sums up the rest. */
static int check_tile(const tcfg_t *c, const char *what, int k, const int32_t *c0, const unsigned char *host,
                      const unsigned char *tile, int *budget)
{
    int bad = 0;
    const uint32_t n = c->box_bytes / c->esize;
    for (uint32_t e = 0; e < n; ++e) {
        uint32_t p[5];
        box_pos(c, e, p);
        const long long g = global_offset(c, c0, p);
        const uint32_t dense = e * c->esize;
        const uint32_t at = swizzled(dense, c->swizzle);
        int ok;
        unsigned char want[8];
        if (g >= 0) {
            memcpy(want, host + g, c->esize);
            ok = memcmp(tile + at, want, c->esize) == 0;
        } else if (c->fill == CG_TENSOR_OOB_NAN) {
            memset(want, 0xff, sizeof want);
            ok = is_nan_bits(tile + at, c->esize);
        } else {
            memset(want, 0, sizeof want);
            ok = memcmp(tile + at, want, c->esize) == 0;
        }
        if (!ok) {
            ++bad;
            if (*budget > 0) {
                --*budget;
                char w[20] = "", got[20] = "";
                for (uint32_t b = 0; b < c->esize; ++b) {
                    snprintf(w + 2 * b, 3, "%02x", want[b]);
                    snprintf(got + 2 * b, 3, "%02x", tile[at + b]);
                }
                cr_expect(0,
                          "%s, %s, box %d at (%d,%d,%d,%d,%d): element (%u,%u,%u,%u,%u) %s: want %s%s, got %s at "
                          "tile byte %u (dense byte %u)",
                          c->name, what, k, c0[0], c0[1], c0[2], c0[3], c0[4], p[0], p[1], p[2], p[3], p[4],
                          g >= 0 ? "inside the tensor" : "outside (fill)", g >= 0 || c->fill == CG_TENSOR_OOB_ZERO ? "" : "NaN ~",
                          w, got, at, dense);
            }
        }
    }
    return bad;
}

/* Loads NBOXES boxes of one configuration and checks every tile. */
static void run_load(uint64_t *rs, tcfg_t *c, int via_global_map)
{
    unsigned char *host = malloc(c->bytes);
    for (size_t i = 0; i < c->bytes; ++i)
        host[i] = (unsigned char)cgt_rand(rs);
    void *dmem, *dout;
    int32_t coords[NBOXES * 5], *dcoords;
    uint32_t *dstatus, status[NBOXES];
    cg_tensor_map_t *dmap = NULL;
    CGT_CUDA(cudaMalloc(&dmem, c->bytes));
    CGT_CUDA(cudaMemcpy(dmem, host, c->bytes, cudaMemcpyHostToDevice));
    cg_tensor_map_t map;
    if (!encode(c, dmem, &map)) {
        CGT_CUDA(cudaFree(dmem));
        free(host);
        return;
    }
    if (via_global_map) {
        CGT_CUDA(cudaMalloc((void **)&dmap, sizeof map));
        CGT_CUDA(cudaMemcpy(dmap, &map, sizeof map, cudaMemcpyHostToDevice));
    }
    make_coords(rs, c, coords);
    const size_t out_bytes = (size_t)NBOXES * c->box_bytes;
    unsigned char *out = malloc(out_bytes);
    CGT_CUDA(cudaMalloc(&dout, out_bytes));
    CGT_CUDA(cudaMalloc((void **)&dcoords, sizeof coords));
    CGT_CUDA(cudaMalloc((void **)&dstatus, sizeof status));
    CGT_CUDA(cudaMemcpy(dcoords, coords, sizeof coords, cudaMemcpyHostToDevice));
    for (int form = 0; form < 2; ++form) {
        CGT_CUDA(cudaMemset(dout, CGT_POISON_BYTE, out_bytes));
        CGT_CUDA(cudaMemset(dstatus, 0xff, sizeof status));
        cr_log_info("launch: %s, form %d%s", c->name, form, dmap ? ", map in global memory" : "");
        CGT_CUDA((cudaError_t)tnst_load(&map, dmap, c->rank, dcoords, NBOXES, c->box_bytes, form, dout, dstatus));
        CGT_SYNC();
        CGT_CUDA(cudaMemcpy(out, dout, out_bytes, cudaMemcpyDeviceToHost));
        CGT_CUDA(cudaMemcpy(status, dstatus, sizeof status, cudaMemcpyDeviceToHost));
        const char *what = form ? "cg_tensor_load_<rank>d" : "cg_tensor_load (coordinate array)";
        int budget = 6, bad = 0, bad_tiles = 0;
        for (int k = 0; k < NBOXES; ++k) {
            cr_expect_eq(status[k], 0u, "%s, %s, box %d: the mbarrier phase never completed (status %u)", c->name,
                         what, k, status[k]);
            const int b = check_tile(c, what, k, coords + 5 * k, host, out + (size_t)k * c->box_bytes, &budget);
            bad += b;
            bad_tiles += b > 0;
        }
        if (bad)
            cr_expect(0, "%s, %s: %d bad elements in %d of %d tiles (%u elements each)", c->name, what, bad,
                      bad_tiles, NBOXES, c->box_bytes / c->esize);
    }
    CGT_CUDA_FREE(dmem, dout, dcoords, dstatus);
    if (dmap)
        CGT_CUDA(cudaFree(dmap));
    free(out);
    free(host);
}

TestSuite(tensor, .timeout = 240);

/* run(rs, c) on a fresh random configuration of every rank 1..5, swizzle
 * none/32/64/128 and element size 1/2/4/8 that keep_esize keeps. */
static void every_rank_swizzle_esize(void (*run)(uint64_t *rs, tcfg_t *c))
{
    cgt_require_sm90();
    uint64_t rs = cgt_seed();
    for (uint32_t rank = 1; rank <= 5; ++rank)
        for (int sw = 0; sw <= 3; ++sw)
            for (uint32_t esize = 1; esize <= 8; esize *= 2) {
                if (!keep_esize(rank, sw, esize))
                    continue;
                tcfg_t c = make_cfg(&rs, rank, esize, (cg_tensor_swizzle_t)sw);
                run(&rs, &c);
            }
}

/* run_load with the map passed by value (a kernel parameter). */
static void run_load_param_map(uint64_t *rs, tcfg_t *c) { run_load(rs, c, 0); }

Test(tensor, loads_every_rank_swizzle_and_element_size) { every_rank_swizzle_esize(run_load_param_map); }

Test(tensor, load_through_a_map_in_global_memory)
{
    cgt_require_sm90();
    uint64_t rs = cgt_seed();
    tcfg_t c = make_cfg(&rs, 3, 2, CG_TENSOR_SWIZZLE_64B);
    strcat(c.name, ", map in global memory");
    run_load(&rs, &c, 1);
}

Test(tensor, nan_fill_outside_the_tensor)
{
    cgt_require_sm90();
    uint64_t rs = cgt_seed();
    for (int sw = 0; sw <= 3; sw += 3) {
        tcfg_t c = make_cfg(&rs, 2, 4, (cg_tensor_swizzle_t)sw);
        c.dtype = CG_TENSOR_F32;
        c.fill = CG_TENSOR_OOB_NAN;
        strcat(c.name, ", f32 NaN fill");
        run_load(&rs, &c, 0);
    }
}

/* Store: the output tensor holds in ^ 0x5A wherever some box covered an
 * element inside the tensor, and its poison everywhere else. */
static void run_store(uint64_t *rs, tcfg_t *c)
{
    unsigned char *host = malloc(c->bytes), *want = malloc(c->bytes), *got = malloc(c->bytes);
    for (size_t i = 0; i < c->bytes; ++i)
        host[i] = (unsigned char)cgt_rand(rs);
    void *din, *dout;
    int32_t coords[NBOXES * 5], *dcoords;
    uint32_t *dstatus, status[NBOXES];
    CGT_CUDA(cudaMalloc(&din, c->bytes));
    CGT_CUDA(cudaMalloc(&dout, c->bytes));
    CGT_CUDA(cudaMemcpy(din, host, c->bytes, cudaMemcpyHostToDevice));
    cg_tensor_map_t min, mout;
    if (!encode(c, din, &min) || !encode(c, dout, &mout)) {
        CGT_CUDA(cudaFree(din));
        CGT_CUDA(cudaFree(dout));
        CGT_FREE(host, want, got);
        return;
    }
    make_coords(rs, c, coords);
    /* A store's box must not start before the tensor (async/tensor.h: an
     * H100 faults there with an illegal instruction); over the end it is
     * clipped, so those boxes stay. */
    for (int k = 0; k < NBOXES * 5; ++k)
        if (coords[k] < 0)
            coords[k] = 0;
    memset(want, CGT_POISON_BYTE, c->bytes);
    unsigned char *may = calloc(c->bytes, 1); /* 1: 0x5A is allowed here too (row padding) */
    for (int k = 0; k < NBOXES; ++k)
        for (uint32_t e = 0; e < c->box_bytes / c->esize; ++e) {
            uint32_t p[5];
            box_pos(c, e, p);
            const long long g = global_offset(c, coords + 5 * k, p);
            if (g >= 0) {
                for (uint32_t b = 0; b < c->esize; ++b)
                    want[g + b] = host[g + b] ^ 0x5A;
                continue;
            }
            /* Past the end of a row, up to its next 16-byte boundary, a
             * store may write the tile's bytes (the load's zero fill ^ 0x5A):
             * an H100 clips stores at 16-byte granularity (async/tensor.h). */
            long long off = 0;
            int in_rows = 1;
            for (uint32_t d = 1; d < c->rank; ++d) {
                const long long x = (long long)coords[5 * k + (int)d] + p[d];
                in_rows &= x >= 0 && x < (long long)c->shape[d];
                off += x * (long long)c->stride[d];
            }
            const long long x0 = (long long)coords[5 * k] + p[0];
            const long long row_end = (long long)((c->shape[0] * c->esize + 15u) / 16u) * 16;
            if (in_rows && x0 >= (long long)c->shape[0] && x0 * (long long)c->esize < row_end)
                for (uint32_t b = 0; b < c->esize; ++b)
                    may[off + x0 * c->esize + b] = 1;
        }
    CGT_CUDA(cudaMalloc((void **)&dcoords, sizeof coords));
    CGT_CUDA(cudaMalloc((void **)&dstatus, sizeof status));
    CGT_CUDA(cudaMemcpy(dcoords, coords, sizeof coords, cudaMemcpyHostToDevice));
    for (int form = 0; form < 2; ++form) {
        const char *what = form ? "cg_tensor_store_<rank>d" : "cg_tensor_store (coordinate array)";
        CGT_CUDA(cudaMemset(dout, CGT_POISON_BYTE, c->bytes));
        CGT_CUDA(cudaMemset(dstatus, 0xff, sizeof status));
        cr_log_info("launch: store %s, form %d", c->name, form);
        CGT_CUDA((cudaError_t)tnst_store(&min, &mout, c->rank, dcoords, NBOXES, c->box_bytes, form, dstatus));
        CGT_SYNC();
        CGT_CUDA(cudaMemcpy(got, dout, c->bytes, cudaMemcpyDeviceToHost));
        CGT_CUDA(cudaMemcpy(status, dstatus, sizeof status, cudaMemcpyDeviceToHost));
        for (int k = 0; k < NBOXES; ++k)
            cr_expect_eq(status[k], 0u, "%s, %s, box %d: the load's phase never completed (status %u)", c->name, what,
                         k, status[k]);
        int bad = 0;
        for (size_t i = 0; i < c->bytes; ++i)
            if (got[i] != want[i] && !(may[i] && got[i] == 0x5A) && ++bad <= 6) {
                /* Which element (or padding) byte i is. */
                char where[96] = "padding";
                uint64_t rest = i;
                uint32_t idx[5] = {0, 0, 0, 0, 0};
                for (int d = (int)c->rank - 1; d >= 1; --d) {
                    idx[d] = (uint32_t)(rest / c->stride[d]);
                    rest %= c->stride[d];
                }
                if (rest / c->esize < c->shape[0]) {
                    idx[0] = (uint32_t)(rest / c->esize);
                    snprintf(where, sizeof where, "element (%u,%u,%u,%u,%u) byte %u", idx[0], idx[1], idx[2], idx[3],
                             idx[4], (unsigned)(rest % c->esize));
                }
                cr_expect(0, "%s, %s: output byte %zu (%s): want 0x%02x (%s), got 0x%02x", c->name, what, i, where,
                          want[i], want[i] == CGT_POISON_BYTE ? "poison: no box stores here" : "input ^ 0x5A", got[i]);
            }
        if (bad > 6)
            cr_expect(0, "%s, %s: %d bad output bytes in all", c->name, what, bad);
    }
    CGT_CUDA_FREE(din, dout, dcoords, dstatus);
    CGT_FREE(host, want, may, got);
}

Test(tensor, stores_every_rank_swizzle_and_element_size) { every_rank_swizzle_esize(run_store); }

/* Multicast: clusters of 2 and 4, swizzle none and 128 B; a 2-D u32 tensor
 * whose boxes (32 x 8 elements, 1 KiB) overhang the left and bottom edges. */
Test(tensor, multicast_loads_in_clusters_of_2_and_4)
{
    cgt_require_sm90();
    uint64_t rs = cgt_seed();
    const int nclusters = 3;
    int ran = 0, skipped = 0;
    for (int csize = 2; csize <= 4; csize *= 2)
        for (int sw = 0; sw <= 3; sw += 3) {
            tcfg_t c;
            memset(&c, 0, sizeof c);
            c.rank = 2;
            c.esize = 4;
            c.dtype = CG_TENSOR_U32;
            c.swizzle = (cg_tensor_swizzle_t)sw;
            c.box[0] = 32;
            c.box[1] = 8;
            c.shape[0] = 40 + rnd(&rs, 0, 20);
            c.shape[1] = 8u * (uint32_t)csize - 3u; /* the last rank's box hangs over the bottom */
            c.stride[0] = 4;
            c.stride[1] = ((c.shape[0] * 4 + 15) / 16) * 16 + 16;
            c.bytes = (size_t)(c.stride[1] * c.shape[1]);
            c.box_bytes = 32 * 8 * 4;
            c.fill = CG_TENSOR_OOB_ZERO;
            snprintf(c.name, sizeof c.name, "multicast, cluster of %d, swizzle %u B", csize, span_of(c.swizzle));
            unsigned char *host = malloc(c.bytes);
            for (size_t i = 0; i < c.bytes; ++i)
                host[i] = (unsigned char)cgt_rand(&rs);
            void *dmem, *dout;
            int32_t coords[2 * 3], *dcoords;
            for (int k = 0; k < nclusters; ++k) {
                coords[2 * k] = cgt_tensor_inner_((int32_t)rnd(&rs, 0, 24) - 12, c.esize, c.swizzle ? span_of(c.swizzle) : 16u); /* over the left edge, or the right */
                coords[2 * k + 1] = (int32_t)rnd(&rs, 0, 4) - 1;     /* -1 hangs over the top */
            }
            const int nblocks = csize * nclusters;
            const size_t per_block = (size_t)csize * c.box_bytes, out_bytes = per_block * (size_t)nblocks;
            unsigned char *out = malloc(out_bytes);
            uint32_t *dstatus, status[16];
            CGT_CUDA(cudaMalloc(&dmem, c.bytes));
            CGT_CUDA(cudaMemcpy(dmem, host, c.bytes, cudaMemcpyHostToDevice));
            cg_tensor_map_t map;
            if (!encode(&c, dmem, &map)) {
                CGT_CUDA(cudaFree(dmem));
                free(out);
                free(host);
                continue;
            }
            CGT_CUDA(cudaMalloc(&dout, out_bytes));
            CGT_CUDA(cudaMalloc((void **)&dcoords, sizeof coords));
            CGT_CUDA(cudaMalloc((void **)&dstatus, sizeof status));
            CGT_CUDA(cudaMemcpy(dcoords, coords, sizeof coords, cudaMemcpyHostToDevice));
            for (int form = 0; form < 2; ++form) {
                const char *what = form ? "cg_tensor_load_multicast_2d" : "cg_tensor_load_multicast (array)";
                CGT_CUDA(cudaMemset(dout, CGT_POISON_BYTE, out_bytes));
                CGT_CUDA(cudaMemset(dstatus, 0xff, sizeof status));
                cr_log_info("launch: multicast %s, cluster %d, form %d", c.name, csize, form);
                const int err = tnst_multicast(csize, nclusters, &map, dcoords, c.box_bytes, 8, form, dout, dstatus);
                if (err == -1) {
                    cr_log_warn("%s: the device cannot hold one such cluster; skipped", c.name);
                    ++skipped;
                    break;
                }
                CGT_CUDA((cudaError_t)err);
                CGT_SYNC();
                ++ran;
                CGT_CUDA(cudaMemcpy(out, dout, out_bytes, cudaMemcpyDeviceToHost));
                CGT_CUDA(cudaMemcpy(status, dstatus, sizeof(uint32_t) * (size_t)nblocks, cudaMemcpyDeviceToHost));
                int budget = 6, bad = 0;
                for (int b = 0; b < nblocks; ++b) {
                    const int k = b / csize;
                    cr_expect_eq(status[b], 0u, "%s, %s, block %d (cluster rank %d): phase never completed", c.name,
                                 what, b, b % csize);
                    for (int r = 0; r < csize; ++r) {
                        const int32_t c0[5] = {coords[2 * k], coords[2 * k + 1] + 8 * r, 0, 0, 0};
                        char w[96];
                        snprintf(w, sizeof w, "%s, block %d (rank %d) slot %d (from rank %d)", what, b, b % csize, r,
                                 r);
                        bad += check_tile(&c, w, k, c0, host, out + (size_t)b * per_block + (size_t)r * c.box_bytes,
                                          &budget);
                    }
                }
                if (bad)
                    cr_expect(0, "%s, %s: %d bad elements over %d blocks x %d slots", c.name, what, bad, nblocks,
                              csize);
            }
            CGT_CUDA_FREE(dmem, dout, dcoords, dstatus);
            free(out);
            free(host);
        }
    /* Every configuration skipped (no cluster fits): nothing was tested. */
    cr_expect_gt(ran, 0, "tensor multicast: no configuration ran (%d skipped: the device holds no such cluster)",
                 skipped);
}

/* Element strides: every 2nd row and every 3rd plane of a 3-D box (the
 * copy moves ceil(box / stride) of each; dimension 0 takes no stride
 * without interleave). The tile holds the moved elements densely. */
Test(tensor, element_strides_skip_rows_and_planes)
{
    cgt_require_sm90();
    uint64_t rs = cgt_seed();
    for (int sw = 0; sw <= 3; sw += 3) {
        tcfg_t c = make_cfg(&rs, 3, 4, (cg_tensor_swizzle_t)sw);
        c.box[1] = 9;
        c.box[2] = 7;
        c.estride[1] = 2;
        c.estride[2] = 3;
        lay_out(&rs, &c); /* shapes, strides and tile size for the new box */
        snprintf(c.name, sizeof c.name, "rank 3, 4-byte elements, swizzle %u B, box %ux9x7, element strides 1x2x3",
                 span_of(c.swizzle), c.box[0]);
        run_load(&rs, &c, 0);
    }
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/groupapi/groupapi_test.c — GPU: cg_thread_group_t over every group
 * kind, cg_invoke_one / broadcast under divergence and partial warps, the
 * staged group copies with cg_wait / cg_wait_prior (1..4 stages in flight,
 * tiles 1..32 with partial last tiles, whole blocks, coalesced groups, 3-D
 * blocks, odd sizes and alignments; every byte, poisoned destinations) and
 * the new queries, each against C++ CG in the same kernel (the oracle) and,
 * where a host formula exists, against the host. Kernels:
 * groupapi_kernels.cu. Fresh random inputs per run (the seed is printed).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/cg/groupapi/groupapi_kernels.h"
#include "tests/support/cgtest.h"

TestSuite(groupapi, .timeout = 240);

typedef struct shape {
    unsigned bx, by, bz, n;
} shape_t;

/* Block shapes and tile sizes; many leave a partial last warp or tile. */
static const shape_t shapes[] = {
    {40, 1, 1, 32}, {20, 1, 1, 16}, {7, 5, 3, 8},   {7, 5, 3, 16}, {7, 5, 3, 32}, {100, 1, 1, 32}, {33, 1, 1, 4},
    {2, 3, 11, 32}, {64, 1, 1, 32}, {45, 1, 1, 1},  {9, 1, 1, 2},  {128, 2, 1, 16}, {96, 1, 1, 4}, {32, 4, 2, 8},
    {1, 1, 1, 1},   {31, 1, 1, 2},  {256, 1, 1, 32}, {5, 7, 9, 4},
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

/* The outputs are poisoned with 0xA5 bytes before every launch. A pair
 * (cgc, C++ CG or cgc, cgc) whose two sides are equal still fails when they
 * hold the poison: neither side wrote it. */
#define GAT_POISON64 0xA5A5A5A5A5A5A5A5ull

static int quick(void)
{
    const char *q = getenv("CGT_QUICK");
    return q && *q && *q != '0';
}

/* Every thread's (cgc, C++ CG) pairs in h (total threads, blocks of nt,
 * nf slots each): the two sides equal and not the poison (neither side
 * wrote it). Each bad pair counted in *bad; the first 20 logged with the
 * case (`where`), the thread and the pair's name (names[slot / 2]). */
static void expect_pairs(const uint64_t *h, size_t total, size_t nt, int nf, const char *const *names,
                         const char *where, size_t *bad)
{
    for (size_t i = 0; i < total; ++i)
        for (int f = 0; f < nf; f += 2) {
            const uint64_t *o = h + i * (size_t)nf;
            if ((o[f] != o[f + 1] || o[f] == GAT_POISON64) && (*bad)++ < 20)
                cr_log_error("%s thread %zu (block %zu rank %zu): %s: cgc %llu, C++ CG %llu", where, i, i / nt, i % nt,
                             names[f / 2], (unsigned long long)o[f], (unsigned long long)o[f + 1]);
        }
}

/* n output slots on the host (returned) and on the device (*d), the
 * device's poisoned. */
static uint64_t *out_new(size_t n, uint64_t **d)
{
    uint64_t *h = malloc(n * sizeof *h);
    cr_assert(h);
    CGT_CUDA(cudaMalloc((void **)d, n * sizeof *h));
    CGT_CUDA(cudaMemset(*d, CGT_POISON_BYTE, n * sizeof *h));
    return h;
}

/* After a launch: its completion (checked), then n output slots from d
 * into h. */
static void out_fetch(uint64_t *h, const uint64_t *d, size_t n)
{
    CGT_SYNC();
    CGT_CUDA(cudaMemcpy(h, d, n * sizeof *h, cudaMemcpyDeviceToHost));
}

/* A test's buffers: input words (one a thread) and 64-bit output slots, each
 * on the host and on the device. */
typedef struct io {
    uint32_t *h_in, *d_in;
    uint64_t *h_out, *d_out;
} io_t;

static io_t io_new(size_t in_words, size_t out_slots)
{
    io_t io;
    io.h_in = malloc(in_words * sizeof *io.h_in);
    io.h_out = malloc(out_slots * sizeof *io.h_out);
    cr_assert(io.h_in && io.h_out);
    CGT_CUDA(cudaMalloc((void **)&io.d_in, in_words * sizeof *io.h_in));
    CGT_CUDA(cudaMalloc((void **)&io.d_out, out_slots * sizeof *io.h_out));
    return io;
}

/* Fresh random words into the first n inputs, on the host and the device;
 * the first out_n output slots poisoned. */
static void io_fill(io_t *io, size_t n, size_t out_n, uint64_t *rng)
{
    for (size_t i = 0; i < n; ++i)
        io->h_in[i] = (uint32_t)cgt_rand(rng);
    CGT_CUDA(cudaMemcpy(io->d_in, io->h_in, n * sizeof *io->h_in, cudaMemcpyHostToDevice));
    CGT_CUDA(cudaMemset(io->d_out, CGT_POISON_BYTE, out_n * sizeof *io->h_out));
}

/* After a launch: its completion (checked), then the first out_n output
 * slots back on the host. */
static void io_fetch(io_t *io, size_t out_n) { out_fetch(io->h_out, io->d_out, out_n); }

static void io_free(io_t *io)
{
    CGT_CUDA(cudaFree(io->d_in));
    CGT_CUDA(cudaFree(io->d_out));
    free(io->h_in);
    free(io->h_out);
}

/* ------------------------------------------------------------------------- */
/* thread_group                                                              */
/* ------------------------------------------------------------------------- */

static const char *const tg_names[] = {
    [TG_BLOCK_RANK] = "block thread_rank", [TG_BLOCK_SIZE] = "block size",
    [TG_TILE_RANK] = "tile thread_rank",   [TG_TILE_SIZE] = "tile size",
    [TG_PART_RANK] = "tiled_partition(thread_group(block), n) thread_rank",
    [TG_PART_SIZE] = "tiled_partition(thread_group(block), n) size",
    [TG_COAL_RANK] = "coalesced thread_rank", [TG_COAL_SIZE] = "coalesced size",
    [TG_SUB_RANK] = "tiled_partition(thread_group(tile n), n/2) thread_rank",
    [TG_SUB_SIZE] = "tiled_partition(thread_group(tile n), n/2) size",
    [TG_GRID_RANK] = "grid thread_rank",   [TG_GRID_SIZE] = "grid size",
    [TG_GENERIC_RANK] = "cg_thread_rank(&tg) vs cg_thread_group_thread_rank(&tg)",
};

Test(groupapi, thread_group_over_every_group_kind_matches_cpp_cg)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    const unsigned blocks = 3;
    const size_t cap = (size_t)blocks * 1024u;
    io_t io = io_new(cap, cap * NTG_FIELDS);
    size_t bad = 0;
    for (size_t s = 0; s < NSHAPES; ++s) {
        const shape_t *sh = &shapes[s];
        const uint32_t nt = sh->bx * sh->by * sh->bz, n = sh->n;
        const size_t total = (size_t)blocks * nt;
        io_fill(&io, total, total * NTG_FIELDS, &rng);
        CGT_CUDA((cudaError_t)gat_thread_group(io.d_in, io.d_out, blocks, sh->bx, sh->by, sh->bz, n));
        io_fetch(&io, total * NTG_FIELDS);
        for (unsigned b = 0; b < blocks; ++b)
            for (uint32_t r = 0; r < nt; ++r) {
                const size_t gid = (size_t)b * nt + r;
                const uint64_t *o = io.h_out + gid * NTG_FIELDS;
                const int full_warp = (r & ~31u) + 32u <= nt;
                /* Pairs: cgc vs C++ CG. The sub-partition only in full warps:
                 * C++ CG counts lanes past the end of a partial warp there. */
                for (int f = 0; f < TG_SYNC_BLOCK; f += 2) {
                    if (f == TG_SUB_RANK || f == TG_SUB_SIZE) {
                        if (!full_warp)
                            continue;
                    }
                    if (o[f] != o[f + 1] || o[f] == GAT_POISON64) {
                        if (bad++ < 20)
                            cr_log_error("thread_group %ux%ux%u n=%u block %u rank %u: %s: cgc %llu, C++ CG %llu", sh->bx,
                                         sh->by, sh->bz, n, b, r, tg_names[f], (unsigned long long)o[f],
                                         (unsigned long long)o[f + 1]);
                    }
                }
                /* Host references. */
                const uint32_t tr = r % n, base = r - tr;
                const uint32_t present = nt - base < n ? nt - base : n;
                const uint64_t want_block = io.h_in[(size_t)b * nt + (r + 1u) % nt];
                const uint64_t want_tile = io.h_in[(size_t)b * nt + base + (tr + 1u) % present] ^ 0x5a5a5a5au;
                const uint64_t want[][2] = {
                    {TG_BLOCK_RANK, r},
                    {TG_BLOCK_SIZE, nt},
                    {TG_TILE_RANK, tr},
                    {TG_TILE_SIZE, n},
                    {TG_PART_RANK, tr},
                    {TG_PART_SIZE, present},
                    {TG_GRID_RANK, gid},
                    {TG_GRID_SIZE, (uint64_t)blocks * nt},
                    /* the cgc-vs-cgc pair: both against the host */
                    {TG_GENERIC_RANK, tr},
                    {TG_GENERIC_RANK + 1, tr},
                    {TG_SYNC_BLOCK, want_block},
                    {TG_SYNC_TILE, want_tile},
                    {TG_TYPE, 4 /* CG_GROUP_TILE */},
                    {TG_TYPE2, 5 /* CG_GROUP_COALESCED */},
                };
                for (size_t k = 0; k < sizeof want / sizeof want[0]; ++k)
                    if (o[want[k][0]] != want[k][1]) {
                        if (bad++ < 20)
                            cr_log_error("thread_group %ux%ux%u n=%u block %u rank %u: field %llu: got %llu, want %llu "
                                         "(host reference)",
                                         sh->bx, sh->by, sh->bz, n, b, r, (unsigned long long)want[k][0],
                                         (unsigned long long)o[want[k][0]], (unsigned long long)want[k][1]);
                    }
                const int in_branch = io.h_in[gid] % 3u != 0u;
                if (in_branch != (o[TG_COAL_SIZE] != TG_NOT_IN)) {
                    if (bad++ < 20)
                        cr_log_error("thread_group %ux%ux%u n=%u block %u rank %u: in the coalesced branch: %d, got %s",
                                     sh->bx, sh->by, sh->bz, n, b, r, in_branch,
                                     o[TG_COAL_SIZE] == TG_NOT_IN ? "no group" : "a group");
                }
            }
    }
    cr_expect_eq(bad, 0, "%zu thread_group values wrong (first 20 above)", bad);
    io_free(&io);
}

/* cg_thread_group_t holding a wide tile (cg/wide_tile.h) of n = 64/128/256
 * in blocks of 256/512 threads (1-D and 3-D), each partitioned in tiles of m
 * = 1..32: every field of every thread against C++ CG's thread_block_tile<n>
 * (pairs) and the host. */
static const char *const tgw_names[] = {
    [TGW_RANK] = "thread_rank",
    [TGW_SIZE] = "num_threads",
    [TGW_META] = "meta_group_rank",
    [TGW_META_SIZE] = "meta_group_size",
    [TGW_SYNC] = "value of rank r+1 read after the sync",
    [TGW_PART_RANK] = "tiled_partition(m) thread_rank",
    [TGW_PART_SIZE] = "tiled_partition(m) num_threads",
    [TGW_PART_META] = "tiled_partition(m) meta_group_rank",
    [TGW_PART_META_SIZE] = "tiled_partition(m) meta_group_size",
    [TGW_INV_COUNT] = "invoke_one: threads that ran the function",
    [TGW_INV_RUNNER] = "invoke_one: block rank of the thread that ran it",
    [TGW_TYPE] = "get_type (want 6, CG_GROUP_WIDE_TILE)",
    [TGW_TYPE2] = "get_type of the partition (want 5, CG_GROUP_COALESCED)",
    [TGW_VIEWS] = "views (bits: as_wide_tile set 1, as_tile/block/coalesced/grid NULL 2/4/8/16)",
    [TGW_GENERIC_RANK] = "cg_thread_rank(&tg)",
    [TGW_GENERIC_SIZE] = "cg_num_threads(&tg)",
    [TGW_ARRIVE] = "value of rank r+3 (^0x33333333) read after barrier_arrive + barrier_wait",
    [TGW_PART_SYNC] = "value of partition rank pr+1 (+1) read after the partition's sync",
    [TGW_COPY] = "value of rank r+5 after cg_memcpy_async(&tg) + cg_wait(&tg)",
};

Test(groupapi, thread_group_of_a_wide_tile_matches_cpp_cg)
{
    cgt_require_sm90();
    cgt_skip_under_sanitizer("racecheck", "the C++ CG oracle's thread_block_tile<N> (N > 32) syncs through atomics "
                                          "and spin loops in reserved shared memory, which racecheck does not model: "
                                          "it reports the reads after ct.sync() (measured on an H100); cgc's own wide-"
                                          "tile sync runs under racecheck in tests/cg/wide_tile");
    typedef struct wshape {
        unsigned bx, by, bz;
    } wshape_t;
    static const wshape_t ws[] = {{256, 1, 1}, {512, 1, 1}, {8, 8, 4}, {16, 4, 8}, {32, 2, 4}, {4, 8, 16}};
    static const unsigned ns[] = {64, 128, 256};
    static const unsigned ms[] = {1, 2, 4, 8, 16, 32};
    uint64_t rng = cgt_seed();
    const unsigned blocks = 3;
    const size_t cap = (size_t)blocks * 512u;
    io_t io = io_new(cap, cap * NTGW_FIELDS);
    size_t bad = 0, cases = 0;
    for (size_t s = 0; s < sizeof ws / sizeof ws[0]; ++s)
        for (size_t in = 0; in < sizeof ns / sizeof ns[0]; ++in)
            for (size_t im = 0; im < sizeof ms / sizeof ms[0]; ++im) {
                const wshape_t *sh = &ws[s];
                const uint32_t nt = sh->bx * sh->by * sh->bz, n = ns[in], m = ms[im];
                /* Quick runs: one partition size per shape and n. */
                if (quick() && im != (s + in) % (sizeof ms / sizeof ms[0]))
                    continue;
                const size_t total = (size_t)blocks * nt;
                ++cases;
                io_fill(&io, total, total * NTGW_FIELDS, &rng);
                CGT_CUDA((cudaError_t)gat_thread_group_wide(io.d_in, io.d_out, blocks, sh->bx, sh->by, sh->bz, n, m));
                io_fetch(&io, total * NTGW_FIELDS);
                for (unsigned b = 0; b < blocks; ++b)
                    for (uint32_t r = 0; r < nt; ++r) {
                        const size_t gid = (size_t)b * nt + r;
                        const uint64_t *o = io.h_out + gid * NTGW_FIELDS;
                        const uint32_t *bin = io.h_in + (size_t)b * nt;
                        for (int f = 0; f < TGW_PAIRS_END; f += 2)
                            if ((o[f] != o[f + 1] || o[f] == GAT_POISON64) && bad++ < 30)
                                cr_log_error("wide thread_group block %ux%ux%u n=%u m=%u: block %u rank %u: %s: cgc "
                                             "%llu, C++ CG %llu",
                                             sh->bx, sh->by, sh->bz, n, m, b, r, tgw_names[f], (unsigned long long)o[f],
                                             (unsigned long long)o[f + 1]);
                        const uint32_t tr = r % n, base = r - tr, pr = tr % m, pbase = r - pr;
                        const uint64_t want[][2] = {
                            {TGW_RANK, tr},
                            {TGW_SIZE, n},
                            {TGW_META, r / n},
                            {TGW_META_SIZE, nt / n},
                            {TGW_SYNC, bin[base + (tr + 1u) % n]},
                            {TGW_SYNC + 1, bin[base + (tr + 1u) % n]},
                            {TGW_PART_RANK, pr},
                            {TGW_PART_SIZE, m},
                            {TGW_PART_META, tr / m},
                            {TGW_PART_META_SIZE, n / m},
                            {TGW_INV_COUNT, 1},
                            {TGW_INV_COUNT + 1, 1},
                            {TGW_INV_RUNNER, base},
                            {TGW_INV_RUNNER + 1, base},
                            {TGW_TYPE, 6 /* CG_GROUP_WIDE_TILE */},
                            {TGW_TYPE2, 5 /* CG_GROUP_COALESCED */},
                            {TGW_VIEWS, 31},
                            {TGW_GENERIC_RANK, tr},
                            {TGW_GENERIC_SIZE, n},
                            {TGW_ARRIVE, bin[base + (tr + 3u) % n] ^ 0x33333333u},
                            {TGW_PART_SYNC, (uint32_t)(bin[pbase + (pr + 1u) % m] + 1u)},
                            {TGW_COPY, bin[base + (tr + 5u) % n]},
                        };
                        for (size_t k = 0; k < sizeof want / sizeof want[0]; ++k) {
                            const int f = (int)want[k][0];
                            if (o[f] != want[k][1] && bad++ < 30)
                                cr_log_error("wide thread_group block %ux%ux%u n=%u m=%u: block %u rank %u: %s%s: got "
                                             "%llu, want %llu (host reference)",
                                             sh->bx, sh->by, sh->bz, n, m, b, r,
                                             tgw_names[f < TGW_PAIRS_END ? (f & ~1) : f],
                                             f < TGW_PAIRS_END ? ((f & 1) ? " (C++ CG side)" : " (cgc side)") : "",
                                             (unsigned long long)o[f], (unsigned long long)want[k][1]);
                        }
                    }
            }
    cr_log_info("wide thread_group: %zu launches checked", cases);
    cr_expect_eq(bad, 0, "%zu wide-tile thread_group values wrong (first 30 above)", bad);
    io_free(&io);
}

Test(groupapi, thread_group_of_a_cluster_and_cluster_queries_match_cpp_cg)
{
    cgt_require_sm90();
    typedef struct cshape {
        unsigned gx, gy, gz, bx, by, bz, cx, cy, cz;
    } cshape_t;
    static const cshape_t cs[] = {
        {2, 1, 1, 64, 1, 1, 2, 1, 1},  {4, 2, 1, 7, 5, 3, 2, 2, 1}, {2, 2, 2, 3, 4, 5, 2, 2, 2},
        {8, 1, 1, 33, 1, 1, 8, 1, 1},  {3, 3, 1, 16, 2, 1, 1, 3, 1}, {4, 1, 2, 8, 8, 2, 4, 1, 2},
    };
    size_t bad = 0;
    for (size_t s = 0; s < sizeof cs / sizeof cs[0]; ++s) {
        const cshape_t *c = &cs[s];
        const size_t nt = (size_t)c->bx * c->by * c->bz, total = nt * c->gx * c->gy * c->gz;
        uint64_t *d, *h = out_new(total * NTGC_FIELDS, &d);
        CGT_CUDA((cudaError_t)gat_thread_group_cluster(d, c->gx, c->gy, c->gz, c->bx, c->by, c->bz, c->cx, c->cy,
                                                       c->cz));
        out_fetch(h, d, total * NTGC_FIELDS);
        static const char *const what[] = {"thread_group rank", "thread_group size", "thread_index.x",
                                           "thread_index.y", "thread_index.z", "cluster size"};
        char where[160];
        snprintf(where, sizeof where, "cluster grid %ux%ux%u block %ux%ux%u cluster %ux%ux%u", c->gx, c->gy, c->gz,
                 c->bx, c->by, c->bz, c->cx, c->cy, c->cz);
        expect_pairs(h, total, nt, NTGC_FIELDS, what, where, &bad);
        for (size_t i = 0; i < total; ++i) {
            const uint64_t *o = h + i * NTGC_FIELDS;
            const uint64_t csize = nt * c->cx * c->cy * c->cz;
            if ((o[2] != csize || o[10] != csize) && bad++ < 20)
                cr_log_error("cluster thread %zu: size %llu / %llu, want %llu", i, (unsigned long long)o[2],
                             (unsigned long long)o[10], (unsigned long long)csize);
        }
        CGT_CUDA(cudaFree(d));
        free(h);
    }
    cr_expect_eq(bad, 0, "%zu cluster values wrong (first 20 above)", bad);
}

/* ------------------------------------------------------------------------- */
/* invoke_one / invoke_one_broadcast                                         */
/* ------------------------------------------------------------------------- */

/* The same formulas as the kernels' gat_vals_of(), folded as they fold. */
static void vals_of(uint32_t v, uint64_t gid, uint64_t out[NINV_FORMS])
{
    const float f = (float)(v & 0xffffu) * 0.5f;
    const double d = (double)v * 0.25;
    uint32_t fb;
    uint64_t db;
    memcpy(&fb, &f, 4);
    memcpy(&db, &d, 8);
    const uint32_t a = v, b = v ^ (uint32_t)gid, c = ~v;
    out[0] = v;
    out[1] = (uint64_t)(uint32_t)((int32_t)(v * 3u) - 7);
    out[2] = (uint64_t)v * 0x100000001ull + gid;
    out[3] = (uint64_t)(-(int64_t)v * 1000003ll);
    out[4] = fb;
    out[5] = db;
    out[6] = ((uint64_t)(a ^ c) << 32) | (uint64_t)(b + c);
}

static void invoke_case(int coalesced)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    const unsigned blocks = 3;
    const size_t cap = (size_t)blocks * 1024u;
    const size_t ncount = (size_t)blocks * 32u * 32u * 2u;
    io_t io = io_new(cap, cap * NINV_FIELDS);
    uint32_t *h_counts = malloc(ncount * sizeof *h_counts), *d_counts;
    cr_assert(h_counts);
    CGT_CUDA(cudaMalloc((void **)&d_counts, ncount * sizeof *h_counts));
    static const char *const forms[NINV_FORMS] = {"u32", "i32", "u64", "i64", "f32", "f64", "bytes(12)"};
    size_t bad = 0;
    const int rounds = quick() ? 1 : 3;
    for (int round = 0; round < rounds; ++round)
        for (size_t s = 0; s < NSHAPES; ++s) {
            const shape_t *sh = &shapes[s];
            const uint32_t nt = sh->bx * sh->by * sh->bz, n = sh->n, warps = (nt + 31u) / 32u;
            const size_t total = (size_t)blocks * nt;
            io_fill(&io, total, total * NINV_FIELDS, &rng);
            CGT_CUDA(cudaMemset(d_counts, 0, ncount * sizeof *h_counts));
            CGT_CUDA(
                (cudaError_t)gat_invoke(io.d_in, io.d_out, d_counts, blocks, sh->bx, sh->by, sh->bz, n, coalesced));
            io_fetch(&io, total * NINV_FIELDS);
            CGT_CUDA(cudaMemcpy(h_counts, d_counts, ncount * sizeof *h_counts, cudaMemcpyDeviceToHost));
            const char *kind = coalesced ? "coalesced" : "tile";
            for (unsigned b = 0; b < blocks; ++b)
                for (uint32_t r = 0; r < nt; ++r) {
                    const size_t gid = (size_t)b * nt + r;
                    const uint64_t *o = io.h_out + gid * NINV_FIELDS;
                    const uint64_t slot = o[NINV_SLOT];
                    const uint64_t wbase = ((uint64_t)b * warps + r / 32u) * 32u;
                    if (slot < wbase || slot >= wbase + 32u || slot - wbase > r % 32u) {
                        if (bad++ < 20)
                            cr_log_error("%s %ux%ux%u n=%u block %u rank %u: group slot %llu is not a lane of its warp "
                                         "at or below its own",
                                         kind, sh->bx, sh->by, sh->bz, n, b, r, (unsigned long long)slot);
                        continue;
                    }
                    /* Exactly one thread of the group ran fn, for cgc and for C++ CG. */
                    const int full_warp = (r & ~31u) + 32u <= nt;
                    if (h_counts[2 * slot] != 1u && bad++ < 20)
                        cr_log_error("%s %ux%ux%u n=%u block %u rank %u: cg_invoke_one ran fn %u times in the group "
                                     "led by lane %llu (want 1)",
                                     kind, sh->bx, sh->by, sh->bz, n, b, r, h_counts[2 * slot],
                                     (unsigned long long)(slot - wbase));
                    if ((coalesced || full_warp) && h_counts[2 * slot + 1] != 1u && bad++ < 20)
                        cr_log_error("%s %ux%ux%u n=%u block %u rank %u: C++ invoke_one ran fn %u times in the group "
                                     "led by lane %llu (want 1)",
                                     kind, sh->bx, sh->by, sh->bz, n, b, r, h_counts[2 * slot + 1],
                                     (unsigned long long)(slot - wbase));
                    /* Against C++ CG, every form, every lane. */
                    for (int f = 0; f < NINV_FORMS; ++f) {
                        if (!coalesced && !full_warp)
                            break;
                        if ((o[2 * f] != o[2 * f + 1] || o[2 * f] == GAT_POISON64) && bad++ < 20)
                            cr_log_error("%s %ux%ux%u n=%u block %u rank %u: invoke_one_broadcast %s: cgc 0x%llx, C++ "
                                         "CG 0x%llx",
                                         kind, sh->bx, sh->by, sh->bz, n, b, r, forms[f], (unsigned long long)o[2 * f],
                                         (unsigned long long)o[2 * f + 1]);
                    }
                    /* Host: the result is the value of a member of the group
                     * (same slot), the same member for every form. */
                    int found = 0;
                    for (uint32_t q = r & ~31u; q < nt && q < (r & ~31u) + 32u && !found; ++q) {
                        const size_t qg = (size_t)b * nt + q;
                        if (io.h_out[qg * NINV_FIELDS + NINV_SLOT] != slot)
                            continue;
                        uint64_t v[NINV_FORMS];
                        vals_of(io.h_in[qg], qg, v);
                        int all = 1;
                        for (int f = 0; f < NINV_FORMS; ++f)
                            all &= o[2 * f] == v[f];
                        found = all;
                    }
                    if (!found && bad++ < 20)
                        cr_log_error("%s %ux%ux%u n=%u block %u rank %u: the broadcasts (u32 0x%llx, u64 0x%llx, bytes "
                                     "0x%llx) are not all one member's values",
                                     kind, sh->bx, sh->by, sh->bz, n, b, r, (unsigned long long)o[0],
                                     (unsigned long long)o[4], (unsigned long long)o[12]);
                }
        }
    cr_expect_eq(bad, 0, "%zu invoke_one values wrong (first 20 above)", bad);
    io_free(&io);
    CGT_CUDA(cudaFree(d_counts));
    free(h_counts);
}

Test(groupapi, invoke_one_on_tiles_with_partial_warps_matches_cpp_cg) { invoke_case(0); }

Test(groupapi, invoke_one_on_coalesced_groups_of_a_divergent_branch_matches_cpp_cg) { invoke_case(1); }

/* ------------------------------------------------------------------------- */
/* reduce_store                                                              */
/* ------------------------------------------------------------------------- */

/* reduce_store's forms 0 (u32), 1 (i32) and 4 (f32) store 32 bits into the
 * low half of their 64-bit slot; the high half keeps the poison. The value a
 * slot holds, and whether it still holds the poison (nobody wrote it). */
static int rs_is32(int f) { return f == 0 || f == 1 || f == 4; }
static uint64_t rs_value(uint64_t slot, int f) { return rs_is32(f) ? (uint64_t)(uint32_t)slot : slot; }
static int rs_unwritten(uint64_t slot, int f)
{
    return rs_is32(f) ? (uint32_t)slot == (uint32_t)GAT_POISON64 : slot == GAT_POISON64;
}

static void reduce_store_case(int coalesced)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    const unsigned blocks = 3;
    const size_t cap = (size_t)blocks * 1024u, nslots = (size_t)blocks * 32u * 32u;
    const size_t outn = nslots * 2u * NRS_FORMS;
    io_t io = io_new(cap, outn);
    static const char *const forms[NRS_FORMS] = {"u32 plus", "i32 less", "u64 bit_xor", "i64 greater", "f32 plus",
                                                 "f64 less"};
    size_t bad = 0, groups = 0;
    for (size_t s = 0; s < NSHAPES; ++s) {
        const shape_t *sh = &shapes[s];
        const uint32_t nt = sh->bx * sh->by * sh->bz, n = sh->n;
        const size_t total = (size_t)blocks * nt;
        io_fill(&io, total, outn, &rng);
        CGT_CUDA((cudaError_t)gat_reduce_store(io.d_in, io.d_out, blocks, sh->bx, sh->by, sh->bz, n, coalesced));
        io_fetch(&io, outn);
        const char *kind = coalesced ? "coalesced" : "tile";
        for (unsigned b = 0; b < blocks; ++b)
            for (uint32_t r = 0; r < nt; ++r) {
                /* One check per group, at its lowest thread. */
                uint32_t lead;
                if (coalesced) {
                    if (io.h_in[(size_t)b * nt + r] % 3u == 0u)
                        continue;
                    lead = r;
                    for (uint32_t q = r & ~31u; q < r; ++q)
                        if (io.h_in[(size_t)b * nt + q] % 3u != 0u) {
                            lead = q;
                            break;
                        }
                } else {
                    lead = r - r % n;
                }
                if (lead != r)
                    continue;
                ++groups;
                const size_t slot = ((size_t)b * 32u + r / 32u) * 32u + (r % 32u);
                const uint64_t *o = io.h_out + slot * 2u * NRS_FORMS;
                const int full_warp = (r & ~31u) + 32u <= nt;
                if (coalesced || full_warp)
                    for (int f = 0; f < NRS_FORMS; ++f)
                        if ((rs_value(o[2 * f], f) != rs_value(o[2 * f + 1], f) || rs_unwritten(o[2 * f], f)) &&
                            bad++ < 20)
                            cr_log_error("reduce_store %s %ux%ux%u n=%u block %u group at rank %u: %s: cgc 0x%llx, C++ "
                                         "CG 0x%llx",
                                         kind, sh->bx, sh->by, sh->bz, n, b, r, forms[f], (unsigned long long)o[2 * f],
                                         (unsigned long long)o[2 * f + 1]);
                if (coalesced)
                    continue;
                /* Host reference for the integer forms over the tile's threads that exist. */
                uint32_t su = 0;
                int32_t mi = INT32_MAX;
                uint64_t x = 0;
                int64_t ma = INT64_MIN;
                for (uint32_t q = r; q < r + n && q < nt; ++q) {
                    const size_t qg = (size_t)b * nt + q;
                    uint64_t v[NINV_FORMS];
                    vals_of(io.h_in[qg], qg, v);
                    su += (uint32_t)v[0];
                    mi = (int32_t)(uint32_t)v[1] < mi ? (int32_t)(uint32_t)v[1] : mi;
                    x ^= v[2];
                    ma = (int64_t)v[3] > ma ? (int64_t)v[3] : ma;
                }
                const uint64_t want[4] = {su, (uint32_t)mi, x, (uint64_t)ma};
                for (int f = 0; f < 4; ++f)
                    if (rs_value(o[2 * f], f) != want[f] && bad++ < 20)
                        cr_log_error("reduce_store tile %ux%ux%u n=%u block %u tile at rank %u: %s: cgc 0x%llx, host "
                                     "0x%llx",
                                     sh->bx, sh->by, sh->bz, n, b, r, forms[f], (unsigned long long)o[2 * f],
                                     (unsigned long long)want[f]);
            }
    }
    cr_expect_gt(groups, 100, "only %zu groups checked", groups);
    cr_expect_eq(bad, 0, "%zu reduce_store values wrong (first 20 above)", bad);
    io_free(&io);
}

Test(groupapi, reduce_store_on_tiles_matches_cpp_cg_and_the_host) { reduce_store_case(0); }

Test(groupapi, reduce_store_on_coalesced_groups_matches_cpp_cg) { reduce_store_case(1); }

/* ------------------------------------------------------------------------- */
/* Staged group copies with wait / wait_prior                                */
/* ------------------------------------------------------------------------- */

/* The coalesced kernel's branch (the same formula as gat_copy_kernel). */
static int copy_pred(uint32_t rank, uint32_t bytes0) { return ((rank * 2654435761u + bytes0 * 40503u) >> 7) % 3u != 0u; }

Test(groupapi, staged_group_copies_deliver_every_byte_at_every_wait_prior)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    const unsigned blocks = 2;
    const int rounds = quick() ? 1 : 2;
    const size_t cap = (size_t)blocks * 64u * GAT_MAX_CHUNKS * GAT_CAP;
    unsigned char *h_src = malloc(cap), *h_out = malloc(cap), *d_src, *d_out;
    cr_assert(h_src && h_out);
    CGT_CUDA(cudaMalloc((void **)&d_src, cap));
    CGT_CUDA(cudaMalloc((void **)&d_out, cap));
    static const char *const kinds[] = {"tiles", "block", "coalesced", "tiles as thread_group"};
    size_t bad = 0, cases = 0;
    for (int round = 0; round < rounds; ++round)
        for (size_t s = 0; s < NSHAPES; ++s)
            for (uint32_t kind = 0; kind < 4; ++kind)
                for (uint32_t stages = 1; stages <= 4; ++stages) {
                    const shape_t *sh = &shapes[s];
                    const uint32_t nt = sh->bx * sh->by * sh->bz, warps = (nt + 31u) / 32u;
                    gat_copy_params_t p;
                    memset(&p, 0, sizeof p);
                    p.n = sh->n;
                    p.kind = kind;
                    p.stages = stages;
                    p.nchunks = stages + 1u + (uint32_t)(cgt_rand(&rng) % 3u);
                    p.nregions = (kind == 0 || kind == 3) ? (nt + sh->n - 1u) / sh->n : kind == 1 ? 1u : warps;
                    if (p.nregions * p.nchunks * GAT_CAP > 200u * 1024u)
                        p.nchunks = (200u * 1024u) / (p.nregions * GAT_CAP);
                    if (p.nchunks < stages)
                        continue; /* does not fit in shared memory */
                    /* a quarter of the cases 16-byte aligned at both ends (with the
                     * multiples of 16 below: async/copy.h's aligned fast path) */
                    const int aligned16 = cgt_rand(&rng) % 4u == 0;
                    p.doff = aligned16 ? 0u : (uint32_t)(cgt_rand(&rng) % 16u);
                    p.soff = aligned16 ? 0u : (uint32_t)(cgt_rand(&rng) % 4u == 0 ? p.doff : cgt_rand(&rng) % 16u);
                    p.constant = (uint32_t)(cgt_rand(&rng) & 1u);
                    for (uint32_t k = 0; k < p.nchunks; ++k) {
                        const uint32_t pick = (uint32_t)(cgt_rand(&rng) % 5u);
                        p.bytes[k] = pick == 0 ? (uint32_t)(cgt_rand(&rng) % 16u)            /* tiny, maybe 0 */
                                     : pick == 1 ? 16u * (1u + (uint32_t)(cgt_rand(&rng) % 37u)) /* multiple of 16 */
                                                 : (uint32_t)(cgt_rand(&rng) % (GAT_CAP - 16u)); /* anything */
                    }
                    const size_t win = (size_t)p.nregions * p.nchunks * GAT_CAP, total = blocks * win;
                    for (size_t i = 0; i < total; ++i)
                        h_src[i] = (unsigned char)cgt_rand(&rng);
                    CGT_CUDA(cudaMemcpy(d_src, h_src, total, cudaMemcpyHostToDevice));
                    CGT_CUDA(cudaMemset(d_out, 0x5A, total));
                    CGT_CUDA((cudaError_t)gat_copy(d_src, d_out, &p, blocks, sh->bx, sh->by, sh->bz));
                    CGT_SYNC();
                    CGT_CUDA(cudaMemcpy(h_out, d_out, total, cudaMemcpyDeviceToHost));
                    ++cases;
                    for (unsigned b = 0; b < blocks; ++b)
                        for (uint32_t reg = 0; reg < p.nregions; ++reg) {
                            int active = 1;
                            if (kind == 2) { /* a warp with no thread in the branch copies nothing */
                                active = 0;
                                for (uint32_t q = reg * 32u; q < nt && q < reg * 32u + 32u; ++q)
                                    active |= copy_pred(q, p.bytes[0]);
                            }
                            for (uint32_t k = 0; k < p.nchunks; ++k) {
                                size_t wrong = 0, first = 0;
                                unsigned char got = 0, want = 0;
                                for (uint32_t j = 0; j < GAT_CAP; ++j) {
                                    const size_t slot = (size_t)b * win + ((size_t)reg * p.nchunks + k) * GAT_CAP;
                                    unsigned char w;
                                    if (!active)
                                        w = 0x5A; /* never dumped */
                                    else if (j >= p.doff && j < p.doff + p.bytes[k])
                                        w = h_src[slot + p.soff + (j - p.doff)];
                                    else
                                        w = 0xA5; /* the shared poison, untouched */
                                    if (h_out[slot + j] != w) {
                                        if (wrong++ == 0) {
                                            first = j;
                                            got = h_out[slot + j];
                                            want = w;
                                        }
                                    }
                                }
                                if (wrong && bad++ < 20)
                                    cr_log_error("copy %s %ux%ux%u n=%u, %u stages (%s wait_prior), block %u region %u "
                                                 "chunk %u of %u: %u bytes, dst offset %u, src offset %u: %zu bytes "
                                                 "wrong, first at slot byte %zu: got 0x%02x, want 0x%02x (%s)",
                                                 kinds[kind], sh->bx, sh->by, sh->bz, sh->n, stages,
                                                 p.constant ? "constant" : "run-time", b, reg, k, p.nchunks,
                                                 p.bytes[k], p.doff, p.soff, wrong, first, got, want,
                                                 want == 0xA5 ? "poison expected" : "copied byte expected");
                            }
                        }
                }
    cr_log_info("%zu copy cases", cases);
    cr_expect_gt(cases, 100, "only %zu copy cases ran", cases);
    cr_expect_eq(bad, 0, "%zu chunks wrong (first 20 above)", bad);
    CGT_CUDA(cudaFree(d_src));
    CGT_CUDA(cudaFree(d_out));
    free(h_src);
    free(h_out);
}

/* ------------------------------------------------------------------------- */
/* The new queries                                                           */
/* ------------------------------------------------------------------------- */

Test(groupapi, new_queries_match_cpp_cg)
{
    cgt_require_sm90();
    static const char *const names[NQ_FIELDS / 2] = {
        "thread_block size", "block group_dim.x", "block group_dim.y", "block group_dim.z", "tile size",
        "this_thread rank", "this_thread size", "this_thread meta rank", "this_thread meta size",
        "tile-of-tile rank", "tile-of-tile size", "tile-of-tile meta rank", "tile-of-tile meta size",
        "coalesced size", "grid size", "grid group_dim.x", "grid group_dim.y", "grid group_dim.z",
        "grid thread_index.x", "grid thread_index.y", "grid thread_index.z",
    };
    typedef struct gshape {
        unsigned gx, gy, gz;
    } gshape_t;
    static const gshape_t grids[] = {{2, 1, 1}, {3, 2, 1}, {2, 2, 3}};
    size_t bad = 0;
    for (size_t s = 0; s < NSHAPES; ++s)
        for (size_t gi = 0; gi < sizeof grids / sizeof grids[0]; ++gi) {
            const shape_t *sh = &shapes[s];
            const gshape_t *g = &grids[gi];
            const size_t nt = (size_t)sh->bx * sh->by * sh->bz, total = nt * g->gx * g->gy * g->gz;
            uint64_t *d, *h = out_new(total * NQ_FIELDS, &d);
            CGT_CUDA((cudaError_t)gat_queries(d, g->gx, g->gy, g->gz, sh->bx, sh->by, sh->bz, sh->n));
            out_fetch(h, d, total * NQ_FIELDS);
            char where[128];
            snprintf(where, sizeof where, "queries grid %ux%ux%u block %ux%ux%u n=%u", g->gx, g->gy, g->gz, sh->bx,
                     sh->by, sh->bz, sh->n);
            expect_pairs(h, total, nt, NQ_FIELDS, names, where, &bad);
            for (size_t i = 0; i < total; ++i) {
                const uint64_t *o = h + i * NQ_FIELDS;
                if ((o[Q_BLOCK_SIZE] != nt || o[Q_TILE_SIZE] != sh->n || o[Q_GRID_SIZE] != total) && bad++ < 20)
                    cr_log_error("queries thread %zu: block size %llu (want %zu), tile size %llu (want %u), grid size "
                                 "%llu (want %zu)",
                                 i, (unsigned long long)o[Q_BLOCK_SIZE], nt, (unsigned long long)o[Q_TILE_SIZE], sh->n,
                                 (unsigned long long)o[Q_GRID_SIZE], total);
            }
            CGT_CUDA(cudaFree(d));
            free(h);
        }
    cr_expect_eq(bad, 0, "%zu query values wrong (first 20 above)", bad);
}

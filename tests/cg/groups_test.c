/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/groups_test.c — every group query against CUDA's built-ins and C++
 * cooperative groups (block, cluster 1..16, grid), DSMEM mapping, warp tiles
 * against a host reference. GPU tests: skip without an sm_90 device. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/cg/groups_kernels.h"
#include "tests/support/cgtest.h"

TestSuite(cg_groups, .timeout = 120);

/* A cg_dim3_t from three values (a C compound literal). */
#define d3(x, y, z) ((cg_dim3_t){(x), (y), (z)})

static cgt_query_result_t *new_result(void)
{
    cgt_query_result_t *r;
    CGT_CUDA(cudaMallocManaged((void **)&r, sizeof *r, cudaMemAttachGlobal));
    memset(r, 0, sizeof *r);
    return r;
}

static void expect_clean(const cgt_query_result_t *r, const char *what)
{
    cr_expect_eq(r->errors, 0u,
                 "%s: %u mismatches; first: query %u got %llu want %llu (block %u thread %u)", what, r->errors,
                 r->first_what, (unsigned long long)r->first_got, (unsigned long long)r->first_want, r->first_block,
                 r->first_thread);
}

/* One launch of the block/cluster query kernel; host reference for ranks. */
static void run_block_cluster(cg_dim3_t grid, cg_dim3_t block, cg_dim3_t cluster)
{
    cgt_query_result_t *r = new_result();
    uint32_t nblocks = grid.x * grid.y * grid.z;
    uint32_t *ranks;
    char what[160];
    CGT_CUDA(cudaMallocManaged((void **)&ranks, sizeof(uint32_t) * 2 * nblocks, cudaMemAttachGlobal));
    memset(ranks, CGT_POISON_BYTE, sizeof(uint32_t) * 2 * nblocks);
    snprintf(what, sizeof what, "grid %ux%ux%u block %ux%ux%u cluster %ux%ux%u", grid.x, grid.y, grid.z, block.x,
             block.y, block.z, cluster.x, cluster.y, cluster.z);
    CGT_OK(cgt_launch_block_cluster_queries(grid, block, cluster, r, ranks));
    CGT_SYNC();
    expect_clean(r, what);
    {
        uint32_t cx = cluster.x ? cluster.x : 1, cy = cluster.y ? cluster.y : 1, cz = cluster.z ? cluster.z : 1;
        if (cluster.x == 0 && cluster.y == 0 && cluster.z == 0)
            cx = cy = cz = 1;
        for (uint32_t bz = 0; bz < grid.z; bz++)
            for (uint32_t by = 0; by < grid.y; by++)
                for (uint32_t bx = 0; bx < grid.x; bx++) {
                    uint32_t b = (bz * grid.y + by) * grid.x + bx;
                    uint32_t want = (bx % cx) + (by % cy) * cx + (bz % cz) * cx * cy;
                    cr_expect_eq(ranks[2 * b], want, "%s: block %u,%u,%u rank %u want %u", what, bx, by, bz,
                                 ranks[2 * b], want);
                    cr_expect_eq(ranks[2 * b + 1], cx * cy * cz, "%s: block %u num_blocks %u want %u", what, b,
                                 ranks[2 * b + 1], cx * cy * cz);
                }
    }
    CGT_CUDA(cudaFree(ranks));
    CGT_CUDA(cudaFree(r));
}

Test(cg_groups, block_and_cluster_queries_every_cluster_size)
{
    static const uint32_t threads[] = {32, 64, 128, 256, 512, 1024};
    /* CGT_QUICK (sanitizer passes): every cluster size, two block sizes
     * (racecheck took 64 s of the 120 s limit with all six). */
    static const uint32_t quick[] = {32, 256};
    const uint32_t *list = cgt_quick() ? quick : threads;
    size_t n = cgt_quick() ? sizeof quick / sizeof quick[0] : sizeof threads / sizeof threads[0];
    cgt_require_sm90();
    for (uint32_t c = 1; c <= 16; c++)
        for (size_t t = 0; t < n; t++)
            run_block_cluster(d3(c * 3, 1, 1), d3(list[t], 1, 1), d3(c, 1, 1));
}

Test(cg_groups, block_and_cluster_queries_3d_shapes)
{
    cgt_require_sm90();
    /* No cluster shape: implicit 1-block clusters. */
    run_block_cluster(d3(5, 3, 2), d3(8, 4, 2), d3(0, 0, 0));
    run_block_cluster(d3(4, 4, 4), d3(16, 8, 8), d3(1, 1, 1));
    run_block_cluster(d3(4, 6, 2), d3(32, 2, 1), d3(2, 2, 1));
    run_block_cluster(d3(4, 4, 4), d3(8, 8, 2), d3(2, 2, 2));
    run_block_cluster(d3(8, 4, 4), d3(64, 1, 1), d3(4, 2, 2));
    run_block_cluster(d3(3, 9, 2), d3(7, 5, 3), d3(1, 3, 1));
    run_block_cluster(d3(2, 2, 8), d3(32, 1, 1), d3(1, 1, 8));
    run_block_cluster(d3(4, 8, 2), d3(128, 1, 1), d3(2, 4, 2));
}

Test(cg_groups, dsmem_map_and_query_rank_every_cluster_size)
{
    uint64_t rng = cgt_seed();
    cgt_require_sm90();
    for (uint32_t c = 1; c <= 16; c++) {
        cgt_query_result_t *r = new_result();
        char what[64];
        snprintf(what, sizeof what, "cluster %u", c);
        CGT_OK(cgt_launch_dsmem_map(c * 4, 128, c, r, (uint32_t)cgt_rand(&rng)));
        CGT_SYNC();
        expect_clean(r, what);
        CGT_CUDA(cudaFree(r));
    }
}

Test(cg_groups, grid_queries)
{
    static const uint32_t shapes[][6] = {
        {132, 1, 1, 128, 1, 1}, {4, 3, 2, 8, 4, 2}, {7, 5, 1, 32, 3, 1}, {2, 2, 2, 1024, 1, 1}, {1, 1, 1, 1, 1, 1},
    };
    cgt_require_sm90();
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const uint32_t *s = shapes[i];
        cgt_query_result_t *r = new_result();
        char what[96];
        snprintf(what, sizeof what, "grid %ux%ux%u block %ux%ux%u", s[0], s[1], s[2], s[3], s[4], s[5]);
        CGT_OK(cgt_launch_grid_queries(d3(s[0], s[1], s[2]), d3(s[3], s[4], s[5]), r));
        CGT_SYNC();
        expect_clean(r, what);
        CGT_CUDA(cudaFree(r));
    }
}

/* The grid's cluster queries against C++ CG: 1-D to 3-D clusters, and a
 * launch without a cluster shape (1-block clusters). */
Test(cg_groups, grid_cluster_queries)
{
    static const uint32_t shapes[][9] = {
        {8, 2, 1, 64, 1, 1, 2, 1, 1}, {4, 6, 2, 32, 2, 1, 2, 3, 1}, {6, 2, 4, 96, 1, 1, 1, 2, 2},
        {16, 1, 1, 128, 1, 1, 16, 1, 1}, {5, 3, 2, 64, 1, 1, 0, 0, 0},
    };
    cgt_require_sm90();
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const uint32_t *s = shapes[i];
        cgt_query_result_t *r = new_result();
        char what[128];
        snprintf(what, sizeof what, "grid %ux%ux%u block %ux%ux%u cluster %ux%ux%u", s[0], s[1], s[2], s[3], s[4],
                 s[5], s[6], s[7], s[8]);
        CGT_OK(cgt_launch_grid_cluster_queries(d3(s[0], s[1], s[2]), d3(s[3], s[4], s[5]), d3(s[6], s[7], s[8]), r));
        CGT_SYNC();
        expect_clean(r, what);
        CGT_CUDA(cudaFree(r));
    }
}

/* ---- tiles: host reference ------------------------------------------------ */

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* The reference of every field of one thread (block-local rank `tid`). */
static void tile_reference(uint32_t n, uint32_t threads, uint32_t tid, const int *vi, const float *vf,
                           uint32_t *want)
{
    uint32_t r = tid & (n - 1), first = tid - r;
    float fs[32], fmn[32], fmx[32];
    want[0] = r;
    want[1] = n;
    want[2] = tid / n;
    want[3] = (threads + n - 1) / n;
    want[4] = (uint32_t)vi[first + (r * 3 + 1) % n];
    want[5] = (uint32_t)vi[first];
    want[6] = f2u(vf[first + n - 1]);
    want[7] = (uint32_t)(r + 1 < n ? vi[first + r + 1] : vi[tid]);
    want[8] = (uint32_t)(r >= 1 ? vi[first + r - 1] : vi[tid]);
    want[9] = f2u(vf[first + (r ^ (n > 1 ? n / 2 : 0))]);
    {
        uint32_t bal = 0, any = 0, all = 1, sum = 0;
        int mn = vi[first], mx = vi[first];
        for (uint32_t j = 0; j < n; j++) {
            int v = vi[first + j];
            bal |= (uint32_t)(v & 1) << j;
            any |= (v % 7 == 0);
            all &= (v % 5 != 0);
            sum += (uint32_t)v;
            mn = v < mn ? v : mn;
            mx = v > mx ? v : mx;
        }
        want[10] = bal;
        want[11] = any;
        want[12] = all;
        want[13] = sum;
        want[14] = (uint32_t)mn;
        want[15] = (uint32_t)mx;
    }
    /* Butterfly order, as the device computes it. */
    for (uint32_t j = 0; j < n; j++)
        fs[j] = fmn[j] = fmx[j] = vf[first + j];
    for (uint32_t o = n / 2; o; o /= 2) {
        float a[32], b[32], c[32];
        for (uint32_t j = 0; j < n; j++) {
            a[j] = fs[j] + fs[j ^ o];
            b[j] = fminf(fmn[j], fmn[j ^ o]);
            c[j] = fmaxf(fmx[j], fmx[j ^ o]);
        }
        memcpy(fs, a, sizeof a);
        memcpy(fmn, b, sizeof b);
        memcpy(fmx, c, sizeof c);
    }
    want[16] = f2u(fs[r]);
    want[17] = f2u(fmn[r]);
    want[18] = f2u(fmx[r]);
    want[19] = r;
    want[20] = n;
    want[21] = f2u(r + 2 < n ? vf[first + r + 2] : vf[tid]);
    want[22] = (uint32_t)(r >= 2 ? vi[first + r - 2] : vi[tid]);
    want[23] = (uint32_t)vi[first + (r ^ (1 % n))];
}

Test(cg_groups, tiles_against_host_reference)
{
    static const uint32_t threads[] = {32, 48, 64, 96, 128, 256, 512, 1024};
    uint64_t rng = cgt_seed();
    const uint32_t blocks = 2;
    cgt_require_sm90();
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++)
        for (uint32_t n = 1; n <= 32; n *= 2) {
            uint32_t nt = threads[t], total = blocks * nt, bad = 0;
            int *vi;
            float *vf;
            uint32_t *out;
            if (nt % n)
                continue; /* partial tile: shuffles would read missing lanes */
            CGT_CUDA(cudaMallocManaged((void **)&vi, sizeof(int) * total, cudaMemAttachGlobal));
            CGT_CUDA(cudaMallocManaged((void **)&vf, sizeof(float) * total, cudaMemAttachGlobal));
            CGT_CUDA(cudaMallocManaged((void **)&out, sizeof(uint32_t) * total * CGT_TILE_FIELDS,
                                       cudaMemAttachGlobal));
            cgt_fill_random_int(vi, total, -100000, 100000, &rng);
            for (uint32_t i = 0; i < total; i++)
                vf[i] = (float)((int)(cgt_rand(&rng) % 200001) - 100000) / 97.0f;
            memset(out, CGT_POISON_BYTE, sizeof(uint32_t) * total * CGT_TILE_FIELDS);
            CGT_OK(cgt_launch_tiles(blocks, nt, n, vi, vf, out));
            CGT_SYNC();
            for (uint32_t b = 0; b < blocks; b++)
                for (uint32_t tid = 0; tid < nt; tid++) {
                    uint32_t want[CGT_TILE_FIELDS];
                    const uint32_t *got = out + (size_t)(b * nt + tid) * CGT_TILE_FIELDS;
                    tile_reference(n, nt, tid, vi + b * nt, vf + b * nt, want);
                    for (uint32_t f = 0; f < CGT_TILE_FIELDS; f++)
                        if (got[f] != want[f] && bad++ < 8)
                            cr_expect_fail("block %u threads n=%u thread %u field %u: got 0x%08x want 0x%08x", nt,
                                           n, b * nt + tid, f, got[f], want[f]);
                }
            cr_expect_eq(bad, 0u, "block %u n=%u: %u wrong fields", nt, n, bad);
            CGT_CUDA(cudaFree(vi));
            CGT_CUDA(cudaFree(vf));
            CGT_CUDA(cudaFree(out));
        }
}

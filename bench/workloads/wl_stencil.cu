/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/workloads/wl_stencil.cu — workload 3 of issue 22: a persistent 2-D
 * Jacobi solver (5-point, fp32) whose CTAs keep their band of rows in shared
 * memory for every sweep (examples/jacobi_cluster.cuh), against the
 * strongest kernels a C++ Cooperative Groups user writes for it.
 *
 *   wl_stencil [--csv PATH] [--quick] [--repeats R] [--list]
 *
 * Problem: 2048 x 2048 points, 1000 sweeps (--quick: 100), random values in
 * [0, 1) from a printed seed (CGC_SEED repeats one), the boundary fixed.
 * G = 128 CTAs of 16 rows (fewer, with bands of uneven height, if 128 of the
 * cluster shape cannot be co-resident: 120 at clusters 4 and 8 on an H200),
 * 32 + 512 threads, one per SM. A grid barrier every sweep (the halos are
 * one row deep; wl_stencil_deep has the family with deeper halos).
 *
 * One series per cluster size C (2, 4, 8), every kernel at the G of the
 * cluster rows, the kernels' timed launches interleaved (A B C .. A B C ..,
 * --repeats rounds, median per kernel):
 *   cgc            the example: each CTA publishes its edge rows in its own
 *                  shared memory, its neighbours in the cluster load them
 *                  with ld.shared::cluster (32-bit cluster addresses from
 *                  cg_dsmem_addr), between clusters through global rows;
 *                  cgc's grid barrier split: arrive once the band's edge
 *                  rows are out, wait at the next sweep's start, the
 *                  interior rows computed in between. The barrier of every
 *                  sweep orders the DSMEM rows too (no mbarrier).
 *   anchor         the fastest, in this series, of four C++ CG kernels, all
 *                  with C++ CG's split grid barrier (barrier_arrive after the
 *                  edge rows, barrier_wait at the next sweep's start):
 *                  (a) every halo through global rows, no cluster;
 *                  (b) halos inside a cluster read with
 *                      cluster.map_shared_rank from the neighbour's
 *                      published row, plus cluster.barrier_arrive /
 *                      barrier_wait around them (the textbook form);
 *                  (c) as (b) without the cluster barrier (the grid barrier
 *                      orders the DSMEM reads as well: its release and
 *                      acquire are at gpu scope);
 *                  (d) halos inside a cluster stored with map_shared_rank
 *                      into the neighbour's halo buffer (push), ordered by
 *                      the grid barrier.
 *                  The row names the one that won and gives all four.
 *   info rows      each anchor candidate; cgc with DSMEM stores
 *                  (st.shared::cluster, as (d)) instead of loads; cgc's
 *                  loads through generic pointers (cg_cluster_map_shared_rank,
 *                  addressed as C++ CG (c) is: the addressing's share);
 *                  C++ CG (c) with cgc's cluster addresses instead (the
 *                  barrier's share; not an anchor candidate);
 *                  C++ CG grid.sync() with global halos (the anchor before
 *                  issue 31); cgc with every halo global and no cluster; a
 *                  probe with no exchange and no grid barrier (each band's
 *                  halos stay at level 0: the arithmetic and shared-memory
 *                  floor), launched without and with clusters (what the
 *                  cluster launch's placement alone costs); and, alone
 *                  after the series, one launch per sweep in a CUDA graph
 *                  (no persistent kernel). The st.async push with
 *                  full/empty mbarriers (the example until 2026-11-28) and
 *                  its no-overlap form are gone: they lost in every series
 *                  (docs/design/workloads.md has their numbers).
 * Columns: ns per sweep (a launch's time / sweeps), each launch held behind
 * wl.h's blocking kernel so that cg_launch's host checks are not timed.
 * --list names the rows without touching CUDA (CI). Target (TARGETS.md,
 * issue 32): cgc <= 1.00x the anchor at clusters 2, 4, 8.
 *
 * Checks: every kernel writes its own output array. Each kernel's first
 * launch of a series (untimed, a warm-up) is checked; before its last timed
 * launch its output is poisoned (NaN), and after the series every point that
 * launch left is compared with a host Jacobi of the same arithmetic
 * (st_point, threads on the host), which it must equal bit for bit; the
 * probe against the host's frozen-halo model. A self-check first runs every
 * kernel at small sizes (256 x 256, 384 x 250 with bands of uneven height,
 * 2048 x 256) against the host. The largest |u - mean of neighbours| of the
 * result is printed beside the input's. A failed check prints the first bad
 * (row, col), expected and got, marks the row WRONG, and the binary exits 3.
 */
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/workloads/wl.h"
#include "bench/workloads/wl_stencil_common.cuh"
#include "cg/launch.h"
#include "examples/jacobi_cluster.cuh"

/* --- kernels ------------------------------------------------------------------ */

/* The persistent kernels run at most nx = 2048 here (544 threads): the bound
 * lets ptxas count on 65536 / 544 registers a thread. */
#define WS_MAX_THREADS ST_THREADS(2048u)

/* cgc, as the example: DSMEM loads (ld.shared::cluster) of the neighbours'
 * published rows inside clusters, split grid barrier. */
__global__ void __launch_bounds__(WS_MAX_THREADS) kw_st_cgc(st_problem_t pr) { st_jacobi(&pr, ST_HALO_PULL, 0); }
/* info: DSMEM stores (st.shared::cluster) into the neighbour's halo buffer. */
__global__ void __launch_bounds__(WS_MAX_THREADS) kw_st_cgc_store(st_problem_t pr) { st_jacobi(&pr, ST_HALO_STORE, 0); }
/* info: the example's loads through generic pointers (cg_cluster_map_shared_rank), as C++ CG (c) addresses them. */
__global__ void __launch_bounds__(WS_MAX_THREADS) kw_st_cgc_generic(st_problem_t pr) { st_jacobi(&pr, ST_HALO_PULL, 1); }
/* info: every halo global, split cgc grid barrier (launched without a cluster). */
__global__ void __launch_bounds__(WS_MAX_THREADS) kw_st_cgc_global(st_problem_t pr) { st_jacobi(&pr, ST_HALO_GLOBAL, 0); }
/* probe: no exchange, no grid barrier: halos frozen at level 0 (launched with and without clusters). */
__global__ void __launch_bounds__(WS_MAX_THREADS) kw_st_frozen(st_problem_t pr) { st_jacobi(&pr, ST_HALO_FROZEN, 0); }

/* The C++ CG kernels: the example's pieces with C++ CG's grid barrier,
 * grid.sync() at each sweep's start (SPLIT 0) or barrier_arrive after the
 * edge rows and barrier_wait at the next sweep's start (SPLIT 1); HALO one of
 * ST_HALO_GLOBAL, ST_HALO_PULL, ST_HALO_STORE, the DSMEM windows mapped with
 * cluster.map_shared_rank; CLBAR: a split cluster barrier too (arrive after
 * the edge rows, wait at the next sweep's start). st_init's one cluster
 * barrier (the neighbours are running before anyone maps their memory) is
 * the same barrier.cluster.arrive / wait pair C++ CG's cluster.sync() is.
 * GENERIC 0 (an info row, not an anchor): cgc's 32-bit cluster addresses
 * for the DSMEM halos instead of map_shared_rank's generic pointers, to
 * tell the barrier's share of a difference from the addressing's. */
template <int SPLIT, int HALO, int CLBAR, int GENERIC = 1>
__global__ void __launch_bounds__(WS_MAX_THREADS) kw_st_cg(st_problem_t pr)
{
    namespace ccg = cooperative_groups;
    st_state_t s;
    st_init(&s, &pr, HALO, GENERIC); /* generic pointers are remapped below with C++ CG */
    ccg::grid_group grid = ccg::this_grid();
    if (HALO != ST_HALO_GLOBAL && GENERIC) {
        ccg::cluster_group cluster = ccg::this_cluster();
        if (s.peer_up)
            s.peer_up = cluster.map_shared_rank(s.hb, (int)s.rank - 1);
        if (s.peer_dn)
            s.peer_dn = cluster.map_shared_rank(s.hb, (int)s.rank + 1);
    }
    ccg::grid_group::arrival_token tok = 0;
    for (uint32_t sweep = 0; sweep < s.S; ++sweep) {
        float4 top, bot;
        if (sweep > 0) {
            if (SPLIT)
                grid.barrier_wait(static_cast<ccg::grid_group::arrival_token &&>(tok));
            else
                grid.sync();
            if (CLBAR)
                ccg::this_cluster().barrier_wait();
        }
        if (s.compute) {
            st_halos(&s, sweep, &top, &bot);
            st_edge_rows(&s, sweep, top, bot);
        }
        if (SPLIT && sweep + 1u < s.S)
            tok = grid.barrier_arrive();
        if (CLBAR && sweep + 1u < s.S)
            (void)ccg::this_cluster().barrier_arrive();
        if (s.compute)
            st_interior(&s, sweep);
    }
    if (s.compute)
        st_store(&s);
    if (HALO != ST_HALO_GLOBAL)
        ccg::this_cluster().sync(); /* no CTA leaves while a neighbour may read its memory */
}

/* One sweep from global `in` to global `out` (the CUDA graph's node):
 * thread (x, y) updates columns 4x .. 4x+3 of row y with st_point, as the
 * persistent kernels do. nx / 4 threads in x, ny rows in y. */
__global__ void kw_st_sweep(const float *in, float *out, uint32_t nx, uint32_t ny)
{
    const uint32_t c0 = 4u * (blockIdx.x * blockDim.x + threadIdx.x), i = blockIdx.y;
    if (c0 >= nx || i >= ny)
        return;
    const float4 cur = *(const float4 *)(in + (size_t)i * nx + c0);
    float4 v = cur;
    if (i > 0 && i + 1u < ny) {
        const float4 up = *(const float4 *)(in + (size_t)(i - 1u) * nx + c0),
                     dn = *(const float4 *)(in + (size_t)(i + 1u) * nx + c0);
        const float left = c0 > 0 ? in[(size_t)i * nx + c0 - 1u] : 0.f,
                    right = c0 + 4u < nx ? in[(size_t)i * nx + c0 + 4u] : 0.f;
        v = st_point4(up, cur, dn, left, right, c0, nx);
    }
    *(float4 *)(out + (size_t)i * nx + c0) = v;
}

/* --- the variants ------------------------------------------------------------- */

#define WS_OP "workload: Jacobi 2-D, persistent, bands in shared memory"
#define WS_OP_INFO(what) "workload: Jacobi 2-D (info: " what ")"
#define WS_NX 2048u
#define WS_NY 2048u
#define WS_SWEEPS(quick) ((quick) ? 100u : 1000u)

typedef struct ws_kernel {
    const void *fn;
    int cluster;      /* launched in clusters of the series' size (else no cluster) */
    int frozen;       /* checked against the frozen-halo model */
    const char *anchor; /* a candidate for the target row's anchor: its letter (else NULL) */
    const char *name; /* for messages and rows */
    const char *op;   /* its info row's operation */
} ws_kernel_t;

static const ws_kernel_t WS_CGC = {(const void *)kw_st_cgc, 1, 0, NULL,
                                   "cgc: DSMEM loads (ld.shared::cluster) of published rows in clusters, split cg grid "
                                   "barrier",
                                   WS_OP};
static const ws_kernel_t WS_CG_GLOBAL = {(const void *)kw_st_cg<1, ST_HALO_GLOBAL, 0>, 0, 0, "a",
                                         "C++ CG (a): every halo global, split grid barrier, no cluster",
                                         WS_OP_INFO("anchor candidate a")};
static const ws_kernel_t WS_CG_PULL_CLBAR = {(const void *)kw_st_cg<1, ST_HALO_PULL, 1>, 1, 0, "b",
                                             "C++ CG (b): map_shared_rank loads + split cluster barrier, split grid barrier",
                                             WS_OP_INFO("anchor candidate b")};
static const ws_kernel_t WS_CG_PULL = {(const void *)kw_st_cg<1, ST_HALO_PULL, 0>, 1, 0, "c",
                                       "C++ CG (c): map_shared_rank loads, split grid barrier",
                                       WS_OP_INFO("anchor candidate c")};
static const ws_kernel_t WS_CG_STORE = {(const void *)kw_st_cg<1, ST_HALO_STORE, 0>, 1, 0, "d",
                                        "C++ CG (d): map_shared_rank stores (push), split grid barrier",
                                        WS_OP_INFO("anchor candidate d")};
static const ws_kernel_t WS_CGC_STORE = {(const void *)kw_st_cgc_store, 1, 0, NULL,
                                         "cgc: DSMEM stores (st.shared::cluster) in clusters, split cg grid barrier",
                                         WS_OP_INFO("cgc, DSMEM stores instead of loads")};
static const ws_kernel_t WS_CGC_GENERIC = {(const void *)kw_st_cgc_generic, 1, 0, NULL,
                                           "cgc: DSMEM loads through generic pointers in clusters, split cg grid "
                                           "barrier",
                                           WS_OP_INFO("cgc, generic DSMEM pointers as C++ CG (c)")};
static const ws_kernel_t WS_CG_PULL_CA = {(const void *)kw_st_cg<1, ST_HALO_PULL, 0, 0>, 1, 0, NULL,
                                          "C++ CG (c) with cgc's cluster-address loads (mixed: C++ CG's grid barrier)",
                                          WS_OP_INFO("C++ CG (c) with cluster addresses")};
static const ws_kernel_t WS_CG_SYNC = {(const void *)kw_st_cg<0, ST_HALO_GLOBAL, 0>, 0, 0, NULL,
                                       "C++ CG: every halo global, grid.sync() per sweep, no cluster",
                                       WS_OP_INFO("C++ CG grid.sync, the old anchor")};
static const ws_kernel_t WS_CGC_GLOBAL = {(const void *)kw_st_cgc_global, 0, 0, NULL,
                                          "cgc: every halo global, split cg grid barrier, no cluster",
                                          WS_OP_INFO("overlap, no DSMEM")};
static const ws_kernel_t WS_FROZEN = {(const void *)kw_st_frozen, 0, 1, NULL,
                                      "probe: no exchange, no grid barrier (halos frozen at level 0)",
                                      WS_OP_INFO("probe: no exchange, no grid barrier")};
static const ws_kernel_t WS_FROZEN_CL = {(const void *)kw_st_frozen, 1, 1, NULL,
                                         "probe as above, launched in clusters (it uses no cluster feature)",
                                         WS_OP_INFO("probe in a cluster launch: the placement's cost")};

/* A series: the target kernel first, then the anchor candidates, then the
 * info kernels; the rows come out in this order. */
static const ws_kernel_t *const ws_series[] = {&WS_CGC,        &WS_CG_GLOBAL,   &WS_CG_PULL_CLBAR, &WS_CG_PULL,
                                               &WS_CG_STORE,   &WS_CGC_STORE,   &WS_CGC_GENERIC,   &WS_CG_PULL_CA,
                                               &WS_CG_SYNC,    &WS_CGC_GLOBAL,  &WS_FROZEN,        &WS_FROZEN_CL};
#define WS_NSERIES (sizeof ws_series / sizeof ws_series[0])
#define WS_TARGET 1.00
#define WS_GRAPH_OP WS_OP_INFO("one launch per sweep, CUDA graph")
#define WS_GRAPH_NAME "one launch per sweep, captured in a CUDA graph (global memory)"
#define WS_ANCHOR_NAME "the fastest C++ CG anchor of the series (a-d)"

static const uint32_t ws_clusters[3] = {2, 4, 8};

/* A row's config: the size, the sweeps and the series' cluster size (C = 0: none). */
static void ws_config_name(char *buf, size_t len, uint32_t sweeps, uint32_t C)
{
    if (C)
        snprintf(buf, len, "%ux%u, %u sweeps, cluster %u", WS_NX, WS_NY, sweeps, C);
    else
        snprintf(buf, len, "%ux%u, %u sweeps", WS_NX, WS_NY, sweeps);
}

static const char *ws_info_op(size_t i) { return ws_series[i]->op; }

/* --list: the rows a run makes, in its order, without a GPU. */
static void ws_list(int quick)
{
    char config[96];
    for (size_t i = 0; i < 3; ++i) {
        ws_config_name(config, sizeof config, WS_SWEEPS(quick), ws_clusters[i]);
        wsc_list_series(WS_OP, WS_TARGET, config, ws_info_op, WS_NSERIES);
    }
    ws_config_name(config, sizeof config, WS_SWEEPS(quick), 0);
    printf("%s | %s | info\n", WS_GRAPH_OP, config);
}

typedef struct ws_ctx {
    wl_opts_t *o;
    wsc_field_t f;       /* dout[k]: kernel k of the series */
    float *dxch, *dtmp;  /* the exchange rows; the graph's second buffer */
    float *want_frozen;  /* the probe's model for frozen_G bands (0: not computed) */
    uint32_t frozen_G;
    wsc_timer_t timer;
    uint32_t G, csize;   /* the series' grid and cluster size */
    /* the launch being made */
    const ws_kernel_t *k;
    float *out;
    cudaGraphExec_t graph;
} ws_ctx_t;

static cudaError_t ws_launch(void *vctx)
{
    ws_ctx_t *c = (ws_ctx_t *)vctx;
    st_problem_t pr = {c->f.din, c->out, c->dxch, c->f.nx, c->f.ny, c->f.sweeps};
    void *args[] = {&pr};
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    cfg.grid.x = c->G;
    cfg.block.x = ST_THREADS(c->f.nx);
    if (c->k->cluster)
        cfg.cluster.x = c->csize;
    cfg.dynamic_smem = st_smem_bytes(c->f.nx, c->f.ny, c->G);
    cfg.cooperative = 1;
    cg_status_t st = cg_launch(&cfg, c->k->fn, args);
    if (st != CG_SUCCESS) {
        fprintf(stderr, "wl_stencil: cg_launch (%s, %u CTAs, cluster %u): %s: %s\n", c->k->name, c->G,
                c->k->cluster ? c->csize : 1u, cg_status_string(st), cg_last_error_detail());
        return cudaErrorLaunchFailure;
    }
    return cudaGetLastError();
}

static cudaError_t ws_launch_graph(void *vctx)
{
    ws_ctx_t *c = (ws_ctx_t *)vctx;
    return cudaGraphLaunch(c->graph, 0);
}

static size_t ws_smem_of(const void *arg, uint32_t G)
{
    const ws_ctx_t *c = (const ws_ctx_t *)arg;
    return st_smem_bytes(c->f.nx, c->f.ny, G);
}

/* The G of a series with clusters of C: the largest <= 128 that the cluster
 * kernels can run co-resident (every kernel of the series runs at it). */
static uint32_t ws_grid(ws_ctx_t *c, uint32_t C)
{
    return wsc_grid(c->o, WS_CGC.fn, WS_CGC.name, ST_THREADS(c->f.nx), C, 128u, ws_smem_of, c);
}

/* The series' callbacks (wsc_series_t): kernel i of ws_series at the
 * series' G and cluster size, writing f.dout[i]. */
static int ws_select(void *vctx, size_t i)
{
    ws_ctx_t *c = (ws_ctx_t *)vctx;
    const char *bad = st_problem_error(c->f.nx, c->f.ny, c->G);
    c->k = ws_series[i];
    c->out = c->f.dout[i];
    if (bad) {
        fprintf(stderr, "wl_stencil: %s: %s\n", c->k->name, bad);
        ++c->o->errors;
        return 1;
    }
    return 0;
}

static int ws_verify(void *vctx)
{
    ws_ctx_t *c = (ws_ctx_t *)vctx;
    char what[224];
    snprintf(what, sizeof what, "%s (%u CTAs, cluster %u, %u sweeps)", c->k->name, c->G, c->k->cluster ? c->csize : 1u,
             c->f.sweeps);
    const float *want = c->f.want;
    if (c->k->frozen) { /* the frozen-halo model for G bands, computed once per G */
        if (c->frozen_G != c->G &&
            st_host_jacobi(c->f.hin, c->want_frozen, c->f.nx, c->f.ny, c->f.sweeps, c->G, c->f.host_threads) != 0) {
            fprintf(stderr, "wl_stencil: host memory ran out\n");
            exit(1);
        }
        c->frozen_G = c->G;
        want = c->want_frozen;
    }
    return wsc_verify(c->o, &c->f, c->out, want, what);
}

static int ws_clustered(const void *vctx, size_t i)
{
    (void)vctx;
    return ws_series[i]->cluster;
}

static wsc_series_t ws_series_of(ws_ctx_t *c)
{
    wsc_series_t s = {c->o, &c->timer, &c->f, c, ws_select, ws_launch, ws_verify};
    return s;
}

static int ws_setup(ws_ctx_t *c, wl_opts_t *o, uint32_t nx, uint32_t ny, uint32_t sweeps, uint64_t *x)
{
    memset(c, 0, sizeof *c);
    c->o = o;
    c->want_frozen = (float *)malloc((size_t)nx * ny * 4u);
    if (!c->want_frozen) {
        fprintf(stderr, "wl_stencil: host memory ran out\n");
        exit(1);
    }
    return wsc_field_setup(&c->f, o, nx, ny, sweeps, WS_NSERIES, x) ||
           WL_CHECK(o, cudaMalloc((void **)&c->dtmp, (size_t)nx * ny * 4u)) ||
           WL_CHECK(o, cudaMalloc((void **)&c->dxch, st_xch_floats(nx, 128u) * 4u)) || wsc_timer_init(&c->timer, o);
}

static void ws_teardown(ws_ctx_t *c)
{
    wsc_field_free(&c->f);
    cudaFree(c->dtmp);
    cudaFree(c->dxch);
    free(c->want_frozen);
    if (c->graph)
        cudaGraphExecDestroy(c->graph);
    wsc_timer_free(&c->timer);
    memset(c, 0, sizeof *c);
}

/* --- self-check: every kernel at small sizes ----------------------------------- */

static int ws_self_check(wl_opts_t *o, uint64_t seed)
{
    static const struct {
        uint32_t nx, ny, sweeps;
    } sizes[] = {{256, 256, 300}, {384, 250, 97}, {2048, 256, 60}};
    uint64_t x = seed * 0x9e3779b97f4a7c15ull | 1u;
    int wrong = 0;
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; ++z) {
        ws_ctx_t c;
        if (ws_setup(&c, o, sizes[z].nx, sizes[z].ny, sizes[z].sweeps, &x)) {
            ws_teardown(&c);
            return wrong + 1;
        }
        const wsc_series_t s = ws_series_of(&c);
        c.G = 16u;
        const int w = wsc_check_all(&s, &c.csize, ws_clusters, 3, ws_clustered,
                                    "on 16 CTAs every kernel (each cluster kernel in clusters of 2, 4, 8)");
        wrong += w;
        ws_teardown(&c);
    }
    return wrong;
}

/* --- the full size --------------------------------------------------------------- */

static double ws_ns_per_sweep(const ws_ctx_t *c, double ms) { return ms > 0 ? ms * 1e6 / c->f.sweeps : 0; }

/* Capture the per-sweep kernels (in -> out, then ping-pong out / dtmp so
 * the last lands in out) in one graph. 0 or 1. */
static int ws_build_graph(ws_ctx_t *c)
{
    cudaStream_t s;
    cudaGraph_t g;
    const uint32_t S = c->f.sweeps;
    if (WL_CHECK(c->o, cudaStreamCreate(&s)))
        return 1;
    if (WL_CHECK(c->o, cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal)))
        return 1;
    const dim3 block(128), grid((c->f.nx / 4u + 127u) / 128u, c->f.ny);
    for (uint32_t i = 0; i < S; ++i) {
        /* sweep i writes out when S - 1 - i is even, so the last is out */
        const float *src = i == 0 ? c->f.din : ((S - i) % 2u == 0 ? c->out : c->dtmp);
        float *dst = (S - 1u - i) % 2u == 0 ? c->out : c->dtmp;
        kw_st_sweep<<<grid, block, 0, s>>>(src, dst, c->f.nx, c->f.ny);
    }
    if (WL_CHECK(c->o, cudaStreamEndCapture(s, &g)) || WL_CHECK(c->o, cudaGraphInstantiate(&c->graph, g, 0)))
        return 1;
    cudaGraphDestroy(g);
    cudaStreamDestroy(s);
    return 0;
}

/* The rows of one series (G CTAs, clusters of C): the target row, then one
 * info row per other kernel, all against the fastest anchor candidate.
 * Returns that anchor's ns per sweep (0: none ran right). */
static double ws_series_rows(ws_ctx_t *c, FILE *csv, const double *ns, const int *wrong, const char *extra)
{
    size_t best = 0;
    int anc_wrong = 0;
    char cands[256] = "";
    for (size_t k = 0; k < WS_NSERIES; ++k) {
        if (!ws_series[k]->anchor)
            continue;
        anc_wrong |= wrong[k];
        snprintf(cands + strlen(cands), sizeof cands - strlen(cands), "%s%s %.0f", cands[0] ? ", " : "",
                 ws_series[k]->anchor, ns[k]);
        if (ns[k] > 0 && (best == 0 || ns[k] < ns[best]))
            best = k;
    }
    const double anc = best ? ns[best] : 0, pts = (double)c->f.nx * c->f.ny;
    char config[96], note[448];
    ws_config_name(config, sizeof config, c->f.sweeps, c->csize);
    for (size_t k = 0; k < WS_NSERIES; ++k) {
        const ws_kernel_t *kk = ws_series[k];
        snprintf(note, sizeof note,
                 "%u CTAs; %.1f vs %.1f Gpoint/s; every point of the last timed launch = host%s; anchor = %s "
                 "(ns/sweep: %s)%s%s",
                 c->G, ns[k] > 0 ? pts / ns[k] : 0.0, anc > 0 ? pts / anc : 0.0,
                 kk->frozen ? " (frozen-halo model)" : "", best ? ws_series[best]->name : "none", cands,
                 k == 0 ? "; " : "", k == 0 ? extra : "");
        wsc_row(c->o, csv, k == 0 ? WS_OP : kk->op, config, kk->name, best ? ws_series[best]->name : WS_ANCHOR_NAME,
                ns[k], anc, k == 0 ? WS_TARGET : 0, wrong[k] || (k == 0 && anc_wrong), note);
    }
    return anc;
}

static void ws_full(wl_opts_t *o, FILE *csv, uint64_t *x)
{
    ws_ctx_t c;
    const uint32_t nx = WS_NX, ny = WS_NY, sweeps = WS_SWEEPS(o->quick);
    if (ws_setup(&c, o, nx, ny, sweeps, x)) {
        ws_teardown(&c);
        return;
    }
    printf("# wl_stencil: %ux%u, %u sweeps: host reference computed on %u threads\n", nx, ny, sweeps,
           c.f.host_threads);
    char extra[128];
    snprintf(extra, sizeof extra, "max |u - mean of neighbours| %.3g at the start, %.3g after",
             st_host_residual(c.f.hin, nx, ny), st_host_residual(c.f.want, nx, ny));
    const wsc_series_t s = ws_series_of(&c);
    double anc_last = 0;
    for (size_t i = 0; i < 3; ++i) {
        c.csize = ws_clusters[i];
        c.G = ws_grid(&c, c.csize);
        if (c.G == 0)
            continue;
        double ns[WS_NSERIES];
        int wrong[WS_NSERIES];
        wsc_run_series(&s, ns, wrong);
        for (size_t k = 0; k < WS_NSERIES; ++k)
            ns[k] = ws_ns_per_sweep(&c, ns[k]);
        anc_last = ws_series_rows(&c, csv, ns, wrong, extra);
    }
    /* one launch per sweep, in a CUDA graph, timed alone */
    {
        char config[96];
        int wrong = 1;
        double ns = 0;
        ws_config_name(config, sizeof config, sweeps, 0);
        c.out = c.f.dout[0];
        if (!ws_build_graph(&c) && !WL_CHECK(o, cudaMemset(c.out, 0xff, (size_t)nx * ny * 4u)) &&
            !WL_CHECK(o, ws_launch_graph(&c))) {
            wrong = wsc_verify(o, &c.f, c.out, c.f.want, WS_GRAPH_NAME);
            if (!wrong)
                ns = ws_ns_per_sweep(&c, wl_time_ms_blocked(o, ws_launch_graph, &c));
        }
        wsc_row(o, csv, WS_GRAPH_OP, config, WS_GRAPH_NAME, "the anchor of the cluster-8 series", ns, anc_last, 0,
                wrong, "checked: every point of a separate launch = host");
    }
    ws_teardown(&c);
}

int main(int argc, char **argv)
{
    return wsc_main(argc, argv, "wl_stencil", WS_OP, ws_list, ws_self_check, ws_full);
}

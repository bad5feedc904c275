/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/workloads/wl_stencil.cu — workload 3 of issue 22: a persistent 2-D
 * Jacobi solver (5-point, fp32) whose CTAs keep their band of rows in shared
 * memory for every sweep (examples/jacobi_cluster.cuh), against the same
 * kernel with every halo through global memory and C++ CG's grid.sync().
 *
 *   wl_stencil [--csv PATH] [--quick] [--repeats R] [--list]
 *
 * Problem: 2048 x 2048 points, 1000 sweeps (--quick: 100), random values in
 * [0, 1) from a printed seed (CGC_SEED repeats one), the boundary fixed.
 * G = 128 CTAs of 16 rows (fewer, with bands of uneven height, if 128 of the
 * cluster shape cannot be co-resident), 32 + 512 threads, one per SM.
 *
 * Kernels (one persistent cooperative launch runs all sweeps):
 *   cgc          halos between the CTAs of a cluster by DSMEM push (st.async
 *                into the neighbour's halo buffer, full/empty mbarriers),
 *                between clusters through global rows; cgc's grid barrier
 *                split: arrive once the band's edge rows are out, wait at the
 *                next sweep's start, the interior rows computed in between.
 *                Clusters of 2, 4, 8.
 *   anchor       every halo through global rows, C++ CG grid.sync() at each
 *                sweep's start (what a C++ CG user writes).
 *   info rows    the cgc kernel with cg_grid_sync at each sweep's start (no
 *                overlap: what DSMEM alone buys); the cgc kernel with every
 *                halo global and no cluster (what the split barrier alone
 *                buys); C++ CG's own barrier_arrive / barrier_wait in the
 *                anchor (the same overlap in C++ CG); one launch per sweep
 *                in a CUDA graph (no persistent kernel); and a probe with
 *                no exchange and no grid barrier (each band's halos stay at
 *                level 0: the arithmetic and shared-memory floor).
 * Columns: ns per sweep (a launch's time / sweeps, median of --repeats
 * launches, each held behind wl.h's blocking kernel so that cg_launch's host
 * checks are not timed). --list names the rows without touching CUDA (CI). Target (TARGETS.md): cgc <= 0.80x the anchor at clusters 2, 4, 8.
 *
 * Checks, each in a launch of its own before the kernel is timed (the timed
 * launches are not checked): the output is poisoned (NaN) first, then every
 * point is compared with a host Jacobi of the same arithmetic (st_point,
 * threads on the host), which it must equal bit for bit; the probe against
 * the host's frozen-halo model. A self-check first runs every kernel at
 * small sizes (256 x 256, 384 x 250 with bands of uneven height, 2048 x 256)
 * against the host. The largest |u - mean of neighbours| of the result is
 * printed beside the input's. A failed check prints the first bad (row, col),
 * expected and got, marks the row WRONG, and the binary exits 3.
 */
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/workloads/wl.h"
#include "cg/launch.h"
#include "examples/jacobi_cluster.cuh"

/* --- kernels ------------------------------------------------------------------ */

/* The persistent kernels run at most nx = 2048 here (544 threads): the bound
 * lets ptxas count on 65536 / 544 registers a thread. */
#define WS_MAX_THREADS ST_THREADS(2048u)

/* cgc, as the example: DSMEM inside clusters, split grid barrier. */
__global__ void __launch_bounds__(WS_MAX_THREADS) kw_st_cgc(st_problem_t pr) { st_jacobi(&pr, ST_HALO_CLUSTER, 1); }
/* info: the same with cg_grid_sync at each sweep's start (no overlap). */
__global__ void __launch_bounds__(WS_MAX_THREADS) kw_st_cgc_sync(st_problem_t pr) { st_jacobi(&pr, ST_HALO_CLUSTER, 0); }
/* info: every halo global, split cgc grid barrier (launched without a cluster). */
__global__ void __launch_bounds__(WS_MAX_THREADS) kw_st_cgc_global(st_problem_t pr) { st_jacobi(&pr, ST_HALO_GLOBAL, 1); }
/* probe: no exchange, no grid barrier: halos frozen at level 0. */
__global__ void __launch_bounds__(WS_MAX_THREADS) kw_st_frozen(st_problem_t pr) { st_jacobi(&pr, ST_HALO_FROZEN, 1); }

/* The anchor: the same pieces, every halo global, C++ CG's grid barrier:
 * grid.sync() at each sweep's start (SPLIT 0), or barrier_arrive after the
 * edge rows and barrier_wait at the next sweep's start (SPLIT 1, info). */
template <int SPLIT> __global__ void __launch_bounds__(WS_MAX_THREADS) kw_st_cg(st_problem_t pr)
{
    namespace ccg = cooperative_groups;
    st_state_t s;
    st_init(&s, &pr, ST_HALO_GLOBAL);
    ccg::grid_group grid = ccg::this_grid();
    ccg::grid_group::arrival_token tok = 0;
    for (uint32_t sweep = 0; sweep < s.S; ++sweep) {
        float4 top, bot;
        if (sweep > 0) {
            if (SPLIT)
                grid.barrier_wait(static_cast<ccg::grid_group::arrival_token &&>(tok));
            else
                grid.sync();
        }
        if (s.compute) {
            st_halos(&s, sweep, &top, &bot);
            st_edge_rows(&s, sweep, top, bot);
        }
        if (SPLIT && sweep + 1u < s.S)
            tok = grid.barrier_arrive();
        if (s.compute)
            st_interior(&s, sweep);
    }
    if (s.compute)
        st_store(&s);
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
        v.x = c0 == 0 ? cur.x : st_point(up.x, dn.x, left, cur.y);
        v.y = st_point(up.y, dn.y, cur.x, cur.z);
        v.z = st_point(up.z, dn.z, cur.y, cur.w);
        v.w = c0 + 4u == nx ? cur.w : st_point(up.w, dn.w, cur.z, right);
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
    int cluster;      /* launched in clusters of the row's size (else no cluster) */
    int frozen;       /* checked against the frozen-halo model */
    const char *name; /* for messages and rows */
    const char *op;   /* its row's operation */
} ws_kernel_t;

static const ws_kernel_t WS_CGC = {(const void *)kw_st_cgc, 1, 0, "cgc: DSMEM halos in clusters, split cg grid barrier",
                                   WS_OP};
static const ws_kernel_t WS_CGC_SYNC = {(const void *)kw_st_cgc_sync, 1, 0,
                                        "cgc: DSMEM halos in clusters, cg_grid_sync per sweep (no overlap)",
                                        WS_OP_INFO("DSMEM halos, no overlap")};
static const ws_kernel_t WS_CGC_GLOBAL = {(const void *)kw_st_cgc_global, 0, 0,
                                          "cgc: every halo global, split cg grid barrier, no cluster",
                                          WS_OP_INFO("overlap, no DSMEM")};
static const ws_kernel_t WS_FROZEN = {(const void *)kw_st_frozen, 0, 1,
                                      "probe: no exchange, no grid barrier (halos frozen at level 0)",
                                      WS_OP_INFO("probe: no exchange, no grid barrier")};
static const ws_kernel_t WS_CG = {(const void *)kw_st_cg<0>, 0, 0, "same kernel, every halo global, C++ CG grid.sync()",
                                  WS_OP};
static const ws_kernel_t WS_CG_SPLIT = {(const void *)kw_st_cg<1>, 0, 0,
                                       "same kernel, every halo global, C++ CG barrier_arrive / barrier_wait",
                                       WS_OP_INFO("C++ CG split barrier")};
#define WS_GRAPH_OP WS_OP_INFO("one launch per sweep, CUDA graph")

static const uint32_t ws_clusters[3] = {2, 4, 8};
static const ws_kernel_t *const ws_info[] = {&WS_CGC_GLOBAL, &WS_CG_SPLIT, &WS_FROZEN};
#define WS_GRAPH_NAME "one launch per sweep, captured in a CUDA graph (global memory)"
static const char *ws_op(const ws_kernel_t *k) { return k->op; }

/* A row's config: the size, the sweeps and, for the cluster rows, the
 * cluster size (C = 0: none). */
static void ws_config_name(char *buf, size_t len, uint32_t sweeps, uint32_t C)
{
    if (C)
        snprintf(buf, len, "%ux%u, %u sweeps, cluster %u", WS_NX, WS_NY, sweeps, C);
    else
        snprintf(buf, len, "%ux%u, %u sweeps", WS_NX, WS_NY, sweeps);
}

/* --list: the rows a run makes, in its order, without a GPU. */
static void ws_list(int quick)
{
    char config[96];
    for (size_t i = 0; i < 3; ++i) {
        ws_config_name(config, sizeof config, WS_SWEEPS(quick), ws_clusters[i]);
        printf("%s | %s | target <=0.80\n", WS_OP, config);
        printf("%s | %s | info\n", ws_op(&WS_CGC_SYNC), config);
    }
    ws_config_name(config, sizeof config, WS_SWEEPS(quick), 0);
    for (size_t i = 0; i < sizeof ws_info / sizeof ws_info[0]; ++i)
        printf("%s | %s | info\n", ws_op(ws_info[i]), config);
    printf("%s | %s | info\n", WS_GRAPH_OP, config);
}

typedef struct ws_ctx {
    wl_opts_t *o;
    uint32_t nx, ny, sweeps;
    float *din, *dout, *dxch, *dtmp; /* dtmp: the graph's second buffer */
    float *hin, *want, *want_frozen, *got;
    uint32_t frozen_G;               /* G of want_frozen (0: not computed) */
    unsigned host_threads;
    /* the launch being timed */
    const ws_kernel_t *k;
    uint32_t G, csize;
    cudaGraphExec_t graph;
} ws_ctx_t;

static uint64_t ws_seed(void)
{
    const char *s = getenv("CGC_SEED");
    return s ? strtoull(s, NULL, 0) : (uint64_t)time(NULL);
}

static cudaError_t ws_launch(void *vctx)
{
    ws_ctx_t *c = (ws_ctx_t *)vctx;
    st_problem_t pr = {c->din, c->dout, c->dxch, c->nx, c->ny, c->sweeps};
    void *args[] = {&pr};
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    cfg.grid.x = c->G;
    cfg.block.x = ST_THREADS(c->nx);
    if (c->k->cluster)
        cfg.cluster.x = c->csize;
    cfg.dynamic_smem = st_smem_bytes(c->nx, c->ny, c->G);
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

/* The largest G <= 128 (a multiple of the cluster size) whose CTAs of this
 * kernel, cluster shape and shared memory can all be resident; 0 if none. */
static uint32_t ws_grid(ws_ctx_t *c, const ws_kernel_t *k, uint32_t csize)
{
    uint32_t G = 128u;
    const uint32_t C = k->cluster ? csize : 1u;
    G -= G % C;
    for (int iter = 0; iter < 3 && G > 0; ++iter) {
        const size_t smem = st_smem_bytes(c->nx, c->ny, G);
        uint32_t resident = 0;
        cg_status_t st;
        if (k->cluster) {
            cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
            cfg.block.x = ST_THREADS(c->nx);
            cfg.cluster.x = C;
            cfg.dynamic_smem = smem;
            st = cg_max_active_clusters(&cfg, k->fn, &resident);
            resident *= C;
        } else {
            st = cg_max_cooperative_blocks(k->fn, ST_THREADS(c->nx), smem, &resident);
        }
        if (st != CG_SUCCESS) {
            fprintf(stderr, "wl_stencil: %s, cluster %u, %zu B shared memory: %s: %s\n", k->name, C, smem,
                    cg_status_string(st), cg_last_error_detail());
            ++c->o->errors;
            return 0;
        }
        if (G <= resident)
            return G;
        G = resident - resident % C;
    }
    fprintf(stderr, "wl_stencil: %s: no grid of whole clusters of %u that fits the band height can be co-resident\n",
            k->name, C);
    ++c->o->errors;
    return 0;
}

/* Every point of the host copy `got` against `want`; 0, or 1 after printing
 * the first bad one. */
static int ws_compare(const ws_ctx_t *c, const float *want, const char *what)
{
    const size_t n = (size_t)c->nx * c->ny;
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; ++i)
        if (!(c->got[i] == want[i]) && bad++ == 0)
            first = i;
    if (bad == 0)
        return 0;
    printf("wl_stencil: WRONG %s, %ux%u, %u sweeps, %u CTAs: %zu of %zu points differ from the host; first u[%zu][%zu] "
           "= %.9g, expected %.9g\n",
           what, c->nx, c->ny, c->sweeps, c->G, bad, n, first / c->nx, first % c->nx, c->got[first], want[first]);
    return 1;
}

/* The frozen-halo model for G bands, computed once per G. */
static const float *ws_want_frozen(ws_ctx_t *c)
{
    if (c->frozen_G != c->G) {
        if (st_host_jacobi(c->hin, c->want_frozen, c->nx, c->ny, c->sweeps, c->G, c->host_threads) != 0) {
            fprintf(stderr, "wl_stencil: host reference: out of memory\n");
            exit(1);
        }
        c->frozen_G = c->G;
    }
    return c->want_frozen;
}

/* Check one launch of kernel k (G CTAs, clusters of csize when k->cluster):
 * poison, run, compare every point. 0 ok, 1 wrong or failed. */
static int ws_check(ws_ctx_t *c, const ws_kernel_t *k, uint32_t G, uint32_t csize)
{
    char what[192];
    c->k = k;
    c->G = G;
    c->csize = csize;
    snprintf(what, sizeof what, "%s (cluster %u)", k->name, k->cluster ? csize : 1u);
    const size_t n = (size_t)c->nx * c->ny;
    const char *bad = st_problem_error(c->nx, c->ny, G);
    if (bad) {
        fprintf(stderr, "wl_stencil: %s: %s\n", what, bad);
        ++c->o->errors;
        return 1;
    }
    if (WL_CHECK(c->o, cudaMemset(c->dout, 0xff, n * 4u)) || WL_CHECK(c->o, ws_launch(c)) ||
        WL_CHECK(c->o, cudaDeviceSynchronize()) || WL_CHECK(c->o, cudaMemcpy(c->got, c->dout, n * 4u, cudaMemcpyDeviceToHost)))
        return 1;
    return ws_compare(c, k->frozen ? ws_want_frozen(c) : c->want, what);
}

static int ws_setup(ws_ctx_t *c, wl_opts_t *o, uint32_t nx, uint32_t ny, uint32_t sweeps, uint64_t *x)
{
    memset(c, 0, sizeof *c);
    c->o = o;
    c->nx = nx, c->ny = ny, c->sweeps = sweeps;
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    c->host_threads = cpus < 1 ? 1u : cpus > 16 ? 16u : (unsigned)cpus;
    const size_t n = (size_t)nx * ny;
    c->hin = (float *)malloc(n * 4u);
    c->want = (float *)malloc(n * 4u);
    c->want_frozen = (float *)malloc(n * 4u);
    c->got = (float *)malloc(n * 4u);
    if (!c->hin || !c->want || !c->want_frozen || !c->got) {
        fprintf(stderr, "wl_stencil: host allocation failed\n");
        exit(1);
    }
    for (size_t i = 0; i < n; ++i) {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        c->hin[i] = (float)(*x >> 40) / 16777216.0f;
    }
    if (st_host_jacobi(c->hin, c->want, nx, ny, sweeps, 0, c->host_threads) != 0) {
        fprintf(stderr, "wl_stencil: host reference: out of memory\n");
        exit(1);
    }
    return WL_CHECK(o, cudaMalloc((void **)&c->din, n * 4u)) || WL_CHECK(o, cudaMalloc((void **)&c->dout, n * 4u)) ||
           WL_CHECK(o, cudaMalloc((void **)&c->dtmp, n * 4u)) ||
           WL_CHECK(o, cudaMalloc((void **)&c->dxch, st_xch_floats(nx, 128u) * 4u)) ||
           WL_CHECK(o, cudaMemcpy(c->din, c->hin, n * 4u, cudaMemcpyHostToDevice));
}

static void ws_teardown(ws_ctx_t *c)
{
    cudaFree(c->din);
    cudaFree(c->dout);
    cudaFree(c->dtmp);
    cudaFree(c->dxch);
    free(c->hin);
    free(c->want);
    free(c->want_frozen);
    free(c->got);
    if (c->graph)
        cudaGraphExecDestroy(c->graph);
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
        const uint32_t G = 16u;
        static const uint32_t clusters[] = {2, 4, 8};
        int w = 0;
        for (size_t i = 0; i < 3; ++i)
            w += ws_check(&c, &WS_CGC, G, clusters[i]);
        w += ws_check(&c, &WS_CGC_SYNC, G, 4);
        w += ws_check(&c, &WS_CGC_GLOBAL, G, 1);
        w += ws_check(&c, &WS_FROZEN, G, 1);
        w += ws_check(&c, &WS_CG, G, 1);
        w += ws_check(&c, &WS_CG_SPLIT, G, 1);
        if (w == 0)
            printf("wl_stencil: self-check %ux%u, %u sweeps, %u CTAs: every kernel (cgc in clusters of 2, 4, 8; "
                   "without overlap; without DSMEM; the probe; C++ CG sync and split) equals the host bit for bit\n",
                   c.nx, c.ny, c.sweeps, G);
        wrong += w;
        ws_teardown(&c);
    }
    return wrong;
}

/* --- the full size --------------------------------------------------------------- */

static double ws_ns_per_sweep(const ws_ctx_t *c, float ms) { return ms > 0 ? ms * 1e6 / c->sweeps : 0; }

/* Check then time kernel k; ns per sweep (0 when wrong or failed), *wrong set. */
static double ws_measure(ws_ctx_t *c, const ws_kernel_t *k, uint32_t G, uint32_t csize, int *wrong)
{
    *wrong = ws_check(c, k, G, csize);
    if (*wrong)
        return 0;
    return ws_ns_per_sweep(c, wl_time_ms_blocked(c->o, ws_launch, c));
}

static void ws_row(wl_opts_t *o, FILE *csv, const ws_ctx_t *c, const char *op, const char *config, const char *cgc_what,
                   const char *anc_what, double cgc_ns, double anc_ns, double target, int wrong, uint32_t G,
                   const char *extra)
{
    char note[448], ctas[32] = "";
    const double pts = (double)c->nx * c->ny;
    if (G)
        snprintf(ctas, sizeof ctas, "%u CTAs; ", G);
    snprintf(note, sizeof note, "%s%.0f vs %.0f sweeps/s (%.1f vs %.1f Gpoint/s); checked: every point = host%s%s",
             ctas, cgc_ns > 0 ? 1e9 / cgc_ns : 0.0, anc_ns > 0 ? 1e9 / anc_ns : 0.0, cgc_ns > 0 ? pts / cgc_ns : 0.0,
             anc_ns > 0 ? pts / anc_ns : 0.0, extra ? "; " : "", extra ? extra : "");
    wl_row_t r;
    memset(&r, 0, sizeof r);
    r.op = op;
    r.config = config;
    r.cgc_what = cgc_what;
    r.anc_what = anc_what;
    r.cgc_ns = cgc_ns;
    r.anc_ns = anc_ns;
    r.max_ratio = target;
    r.min_speedup = target > 0 ? 1.0 / target : 0;
    r.wrong = wrong;
    r.note = note;
    wl_row(o, csv, &r);
}

/* Capture the per-sweep kernels (in -> dout, then ping-pong dout / dtmp so
 * the last lands in dout) in one graph. 0 or 1. */
static int ws_build_graph(ws_ctx_t *c)
{
    cudaStream_t s;
    cudaGraph_t g;
    if (WL_CHECK(c->o, cudaStreamCreate(&s)))
        return 1;
    if (WL_CHECK(c->o, cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal)))
        return 1;
    const dim3 block(128), grid((c->nx / 4u + 127u) / 128u, c->ny);
    for (uint32_t i = 0; i < c->sweeps; ++i) {
        /* sweep i writes dout when sweeps - 1 - i is even, so the last is dout */
        const float *src = i == 0 ? c->din : ((c->sweeps - i) % 2u == 0 ? c->dout : c->dtmp);
        float *dst = (c->sweeps - 1u - i) % 2u == 0 ? c->dout : c->dtmp;
        kw_st_sweep<<<grid, block, 0, s>>>(src, dst, c->nx, c->ny);
    }
    if (WL_CHECK(c->o, cudaStreamEndCapture(s, &g)) || WL_CHECK(c->o, cudaGraphInstantiate(&c->graph, g, 0)))
        return 1;
    cudaGraphDestroy(g);
    cudaStreamDestroy(s);
    return 0;
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
           c.host_threads);
    char extra[192];
    snprintf(extra, sizeof extra, "max |u - mean of neighbours| %.3g at the start, %.3g after",
             st_host_residual(c.hin, nx, ny), st_host_residual(c.want, nx, ny));

    /* the anchor, timed once per G */
    uint32_t anc_G = 0;
    double anc_ns = 0;
    int anc_wrong = 0;
    for (size_t i = 0; i < 3; ++i) {
        const uint32_t C = ws_clusters[i], G = ws_grid(&c, &WS_CGC, C);
        if (G == 0)
            continue;
        if (G != anc_G) {
            anc_ns = ws_measure(&c, &WS_CG, G, 1, &anc_wrong);
            anc_G = G;
        }
        char config[96];
        ws_config_name(config, sizeof config, sweeps, C);
        int wrong = 0, wrong2 = 0;
        const double ns = ws_measure(&c, &WS_CGC, G, C, &wrong);
        ws_row(o, csv, &c, WS_CGC.op, config, WS_CGC.name, WS_CG.name, ns, anc_ns, 0.80, wrong || anc_wrong, G, extra);
        const double ns2 = ws_measure(&c, &WS_CGC_SYNC, G, C, &wrong2);
        ws_row(o, csv, &c, WS_CGC_SYNC.op, config, WS_CGC_SYNC.name, WS_CG.name, ns2, anc_ns, 0, wrong2 || anc_wrong, G, NULL);
    }
    if (anc_G == 0) {
        fprintf(stderr, "wl_stencil: no cluster shape could be launched\n");
        ++o->errors;
        ws_teardown(&c);
        return;
    }
    const uint32_t G = anc_G;
    char config[96];
    ws_config_name(config, sizeof config, sweeps, 0);
    for (size_t i = 0; i < sizeof ws_info / sizeof ws_info[0]; ++i) {
        int wrong = 0;
        const double ns = ws_measure(&c, ws_info[i], G, 1, &wrong);
        ws_row(o, csv, &c, ws_info[i]->op, config, ws_info[i]->name, WS_CG.name, ns, anc_ns, 0, wrong || anc_wrong, G,
               ws_info[i]->frozen ? "the probe is checked against the host's frozen-halo model" : NULL);
    }
    /* one launch per sweep, in a CUDA graph */
    {
        const size_t n = (size_t)nx * ny;
        int wrong = 1;
        double ns = 0;
        if (!ws_build_graph(&c) && !WL_CHECK(o, cudaMemset(c.dout, 0xff, n * 4u)) &&
            !WL_CHECK(o, ws_launch_graph(&c)) && !WL_CHECK(o, cudaDeviceSynchronize()) &&
            !WL_CHECK(o, cudaMemcpy(c.got, c.dout, n * 4u, cudaMemcpyDeviceToHost))) {
            c.G = 0;
            wrong = ws_compare(&c, c.want, "CUDA graph of per-sweep launches");
            if (!wrong)
                ns = ws_ns_per_sweep(&c, wl_time_ms_blocked(o, ws_launch_graph, &c));
        }
        ws_row(o, csv, &c, WS_GRAPH_OP, config, WS_GRAPH_NAME, WS_CG.name, ns, anc_ns, 0, wrong || anc_wrong, 0, NULL);
    }
    ws_teardown(&c);
}

int main(int argc, char **argv)
{
    wl_list_if_asked(argc, argv, ws_list);
    wl_opts_t o = wl_parse(argc, argv, "wl_stencil");
    FILE *csv = wl_open_csv(&o);
    const uint64_t seed = ws_seed();
    printf("# wl_stencil: seed %llu (CGC_SEED=%llu repeats it)\n", (unsigned long long)seed,
           (unsigned long long)seed);
    int major = 0;
    if (WL_CHECK(&o, cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0)) || major < 9) {
        fprintf(stderr, "wl_stencil: needs an sm_90 device (clusters, DSMEM, st.async)\n");
        return 2;
    }
    const int self = ws_self_check(&o, seed);
    if (self) {
        wl_row_t r;
        memset(&r, 0, sizeof r);
        r.op = WS_OP;
        r.config = "self-check (small sizes)";
        r.cgc_what = "every kernel vs the host";
        r.anc_what = "check";
        r.wrong = 1;
        r.note = "a check failed (see the WRONG lines above)";
        wl_row(&o, csv, &r);
        return wl_exit(&o);
    }
    uint64_t x = seed * 0x2545f4914f6cdd1dull | 1u;
    ws_full(&o, csv, &x);
    if (csv)
        fclose(csv);
    return wl_exit(&o);
}

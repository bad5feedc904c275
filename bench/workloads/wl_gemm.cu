/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/workloads/wl_gemm.cu — workload 2 of issue 22: the main loop of a bf16
 * GEMM fed by cgc's cluster multicast pipeline (examples/gemm_multicast.cuh),
 * against the identical kernel where every CTA loads its own A and B tiles,
 * with cuBLAS (cublasGemmEx, bf16 in, fp32 compute and out) as information.
 *
 *   wl_gemm [--csv PATH] [--quick] [--repeats R] [--list]
 *
 * Sizes M x N x K: 8192^3 and 4096 x 4096 x 1024 (--quick: 2048^3 and
 * 2048 x 2048 x 512). Clusters 1 x 2 (A shared by the two CTAs of a cluster
 * row), 2 x 1 (B shared along a column) and 2 x 2 (both). Persistent grids:
 * as many CTAs as can be resident (cg_max_active_clusters, or one per SM
 * without a cluster launch), each walking its share of the tiles in the same
 * order for the multicast kernel and its twins.
 *
 * --list names the rows a run makes without touching CUDA (CI).
 *
 * Forms: the kernel is built with 128 x 128 tiles (here) and 128 x 256 tiles
 * (wl_gemm_256.cu); per width, the twin without a cluster launch and, per
 * cluster shape, the twin launched in clusters and the multicast kernel.
 *
 * Timing (issue 31): every form of a size is timed in interleaved rounds,
 * A B C ... A B C ..., each timed launch held behind wl.h's blocking kernel
 * (wl_time_ms_blocked, one untimed launch of the same form right before it);
 * the row reports the median of --repeats rounds.
 *
 * Rows (bench.cu's CSV format, bench/workloads/wl.h):
 *   "workload: GEMM bf16, multicast pipeline"   cgc = the faster of the two
 *        widths' multicast kernels, anchor = the FASTEST of the four twins
 *        (either width; launched in the same clusters or without: the
 *        cluster launch cost the 128 x 128 twin up to 10%); target <= 0.91
 *        (TARGETS.md: >= 10% faster). The note names both and every twin's
 *        time.
 *   "workload: GEMM bf16, one tile width: multicast vs its faster twin (info)"
 *   "workload: GEMM bf16 vs cuBLAS (info)"      cgc = the faster multicast
 *        kernel, anchor = cublasGemmEx; and each width's twin without a
 *        cluster launch.
 *
 * Checks: each form writes its own C; C is poisoned (NaN) before the last
 * timed round, so what is checked is what the LAST timed launch left: every
 * element, on the device, against cuBLAS's C, |c - ref| <= 1e-3 (|ref| +
 * sqrt(K)). Why that tolerance: the inputs are multiples of 1/256 in
 * [-1, 1), exact in bf16, so every product is exact in fp32 (8 + 8
 * significant bits); both kernels add K of them in fp32 in different orders,
 * each add rounding by at most 2^-24 of a partial sum whose magnitude is
 * about sqrt(K) / 3 (random signs), so two orders differ by far less than
 * 1e-3 sqrt(K) (even K 2^-24 sqrt(K), every rounding the same way, is
 * 5e-4 sqrt(K) at K = 8192), while a wrong box, swizzle or stage moves an
 * element by about |ref|, i.e. about sqrt(K) / 3. cuBLAS's own C is
 * checked first against a host double-precision reference on 4096 sampled
 * elements (and the first and last rows), so a misread cuBLAS call cannot
 * hide a wrong kernel. A self-check at a small size (512 x 1024 x 448, two
 * clusters, so every CTA walks several tiles and the ring wraps) compares
 * every element of every kernel form with the host before anything is
 * timed. Inputs: multiples of 1/256 in [-1, 1), exact in bf16, from a
 * printed seed (CGC_SEED to repeat one). A failed check prints the first bad
 * (row, col), expected and got, marks the row WRONG,
 * and the binary exits 3.
 */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/workloads/wl.h"
#include "cg/launch.h"
#include "examples/gemm_multicast.cuh"
#include "bench/workloads/wl_gemm_forms.h"

__global__ void __launch_bounds__(GM_THREADS, 1)
    kw_gemm(const __grid_constant__ cg_tensor_map_t map_a, const __grid_constant__ cg_tensor_map_t map_b,
            gm_problem_t pr)
{
    gm_gemm(&map_a, &map_b, pr);
}

/* The two builds of the kernel: 128 x 128 tiles (this file) and 128 x 256
 * (wl_gemm_256.cu). */
#define WG_TILES 2
static void wg_kernel_of(int wide, wg_kernel_t *k)
{
    if (wide) {
        wg_kernel_256(k);
        return;
    }
    k->fn = (const void *)kw_gemm;
    k->smem = GM_SMEM_BYTES;
    k->threads = GM_THREADS;
    k->bn = GM_BN;
    k->stages = GM_STAGES;
}

/* Elements of c that differ from ref by more than 1e-3 (|ref| + sqrt(K)) (or
 * are NaN): their count, and the smallest index among them. */
__global__ void kw_compare(const float *c, const float *ref, size_t n, float atol, unsigned long long *bad,
                           unsigned long long *first)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const float g = c[i], r = ref[i];
        if (!(fabsf(g - r) <= atol + 1e-3f * fabsf(r))) {
            atomicAdd(bad, 1ull);
            atomicMin(first, (unsigned long long)i);
        }
    }
}

/* --- rows ----------------------------------------------------------------------- */

#define WG_OP "workload: GEMM bf16, multicast pipeline"
#define WG_OP_INFO "workload: GEMM bf16 vs cuBLAS (info)"
#define WG_OP_TILE "workload: GEMM bf16, one tile width: multicast vs its faster twin (info)"
/* TARGETS.md: the multicast kernel >= 10% faster than the faster twin. */
#define WG_TARGET 0.91

static const uint32_t wg_full[2][3] = {{8192, 8192, 8192}, {4096, 4096, 1024}};
static const uint32_t wg_quick[2][3] = {{2048, 2048, 2048}, {2048, 2048, 512}};
static const uint32_t wg_shapes[3][2] = {{1, 2}, {2, 1}, {2, 2}}; /* cluster cm x cn */

static void wg_size_name(char *buf, size_t len, const uint32_t *s) { snprintf(buf, len, "%ux%ux%u", s[0], s[1], s[2]); }

static void wg_config_name(char *buf, size_t len, const char *size, uint32_t cm, uint32_t cn)
{
    snprintf(buf, len, "%s, cluster %u (%ux%u)", size, cm * cn, cm, cn);
}

/* --list: the rows a run makes, in its order, without a GPU. */
static void wg_list(int quick)
{
    for (int i = 0; i < 2; ++i) {
        char size[48], config[96];
        wg_size_name(size, sizeof size, quick ? wg_quick[i] : wg_full[i]);
        for (int s = 0; s < 3; ++s) {
            wg_config_name(config, sizeof config, size, wg_shapes[s][0], wg_shapes[s][1]);
            printf("%s | %s | target <=%.2f\n", WG_OP, config, WG_TARGET);
            for (int w = 0; w < WG_TILES; ++w)
                printf("%s | %s, 128x%u tiles | info\n", WG_OP_TILE, config, w ? 256u : 128u);
            printf("%s | %s | info\n", WG_OP_INFO, config);
        }
        for (int w = 0; w < WG_TILES; ++w)
            printf("%s | %s, 128x%u tiles | info\n", WG_OP_INFO, size, w ? 256u : 128u);
    }
}

/* --- inputs ------------------------------------------------------------------- */

static uint64_t wg_seed(void)
{
    const char *s = getenv("CGC_SEED");
    return s ? strtoull(s, NULL, 0) : (uint64_t)time(NULL);
}

/* n bf16 values, multiples of 1/256 in [-1, 1) (exact in bf16), from x. */
static void wg_fill(uint16_t *h, float *f, size_t n, uint64_t *x)
{
    for (size_t i = 0; i < n; ++i) {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        const float v = (float)((int)(*x >> 55) - 256) / 256.0f;
        uint32_t u;
        memcpy(&u, &v, 4);
        h[i] = (uint16_t)(u >> 16);
        f[i] = v;
    }
}

/* --- one problem on the device ------------------------------------------------- */

typedef struct wg_ctx {
    wl_opts_t *o;
    uint32_t m, n, k;
    void *da, *db;        /* A (m x k), Bt (n x k), bf16 */
    float *dc, *dref;     /* C from the kernel under test; cuBLAS's C */
    float *fa, *fb;       /* the same inputs on the host, as float */
    cg_tensor_map_t ma, mb;
    cublasHandle_t blas;
    unsigned long long *dbad; /* [0] count, [1] first index */
    /* the launch being timed */
    wg_kernel_t kern;
    gm_problem_t pr;
    uint32_t grid;
    int cluster_launch;
} wg_ctx_t;

static cudaError_t wg_launch_kernel(void *vctx)
{
    wg_ctx_t *c = (wg_ctx_t *)vctx;
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    void *args[] = {(void *)&c->ma, (void *)&c->mb, (void *)&c->pr};
    cfg.grid.x = c->grid;
    cfg.block.x = c->kern.threads;
    if (c->cluster_launch)
        cfg.cluster.x = c->pr.cm * c->pr.cn;
    cfg.dynamic_smem = c->kern.smem;
    cg_status_t st = cg_launch(&cfg, c->kern.fn, args);
    if (st != CG_SUCCESS) {
        fprintf(stderr, "wl_gemm: cg_launch (grid %u, cluster %ux%u): %s: %s\n", c->grid, c->pr.cm, c->pr.cn,
                cg_status_string(st), cg_last_error_detail());
        return cudaErrorLaunchFailure;
    }
    return cudaGetLastError();
}

static cudaError_t wg_launch_cublas(void *vctx)
{
    wg_ctx_t *c = (wg_ctx_t *)vctx;
    const float one = 1.0f, zero = 0.0f;
    /* Column-major view: C^T (n x m, ld n) = op(Bt) * op(A) with Bt read as
     * the k x n column-major B (ld k) transposed, A as the k x m column-major
     * A^T (ld k): element (j, i) = sum_kk Bt[j][kk] A[i][kk] = C[i][j]. */
    cublasStatus_t s =
        cublasGemmEx(c->blas, CUBLAS_OP_T, CUBLAS_OP_N, (int)c->n, (int)c->m, (int)c->k, &one, c->db, CUDA_R_16BF,
                     (int)c->k, c->da, CUDA_R_16BF, (int)c->k, &zero, c->dref, CUDA_R_32F, (int)c->n,
                     CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (s != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "wl_gemm: cublasGemmEx: status %d\n", (int)s);
        return cudaErrorUnknown;
    }
    return cudaGetLastError();
}

/* Every element of c->dc against `ref` on the device; 0 when all pass, else
 * 1 after printing the first bad (row, col). */
static int wg_check_device(wg_ctx_t *c, const float *ref, const char *what)
{
    const size_t n = (size_t)c->m * c->n;
    unsigned long long h[2] = {0, ~0ull};
    if (WL_CHECK(c->o, cudaMemcpy(c->dbad, h, sizeof h, cudaMemcpyHostToDevice)))
        return 1;
    kw_compare<<<1024, 256>>>(c->dc, ref, n, 1e-3f * sqrtf((float)c->k), &c->dbad[0], &c->dbad[1]);
    if (WL_CHECK(c->o, cudaGetLastError()) || WL_CHECK(c->o, cudaMemcpy(h, c->dbad, sizeof h, cudaMemcpyDeviceToHost)))
        return 1;
    if (h[0] == 0)
        return 0;
    float got = 0, want = 0;
    cudaMemcpy(&got, c->dc + h[1], 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(&want, ref + h[1], 4, cudaMemcpyDeviceToHost);
    printf("wl_gemm: WRONG %s %ux%ux%u: %llu of %zu elements off; first C[%llu][%llu] = %.6f, expected %.6f\n", what,
           c->m, c->n, c->k, h[0], n, h[1] / c->n, h[1] % c->n, got, want);
    return 1;
}

/* C[i][j] from the host inputs, in double. */
static double wg_host_dot(const wg_ctx_t *c, uint32_t i, uint32_t j)
{
    double s = 0;
    const float *a = c->fa + (size_t)i * c->k, *b = c->fb + (size_t)j * c->k;
    for (uint32_t kk = 0; kk < c->k; ++kk)
        s += (double)a[kk] * b[kk];
    return s;
}

/* `got` against the host reference: got[t] is element idx[t] (element t
 * when idx is NULL) of n_idx (all m x n when idx is NULL); `ref`, when not
 * NULL, holds the reference of every element (else each is computed here).
 * 0, or 1 after printing the first bad one. */
static int wg_check_host(const wg_ctx_t *c, const float *got, const size_t *idx, size_t n_idx, const double *ref,
                         const char *what)
{
    const size_t total = idx ? n_idx : (size_t)c->m * c->n;
    size_t bad = 0, first = 0;
    double first_want = 0;
    for (size_t t = 0; t < total; ++t) {
        const size_t e = idx ? idx[t] : t;
        const double want = ref ? ref[e] : wg_host_dot(c, (uint32_t)(e / c->n), (uint32_t)(e % c->n));
        if (!(fabs((double)got[t] - want) <= 1e-3 * (fabs(want) + sqrt((double)c->k))) && bad++ == 0) {
            first = t;
            first_want = want;
        }
    }
    if (bad == 0)
        return 0;
    const size_t e = idx ? idx[first] : first;
    printf("wl_gemm: WRONG %s %ux%ux%u: %zu of %zu checked elements off the host reference; first C[%zu][%zu] = "
           "%.6f, expected %.6f\n",
           what, c->m, c->n, c->k, bad, total, e / c->n, e % c->n, got[first], first_want);
    return 1;
}

static int wg_alloc(wg_ctx_t *c, uint32_t m, uint32_t n, uint32_t k, uint64_t *x)
{
    c->m = m, c->n = n, c->k = k;
    uint16_t *ha = (uint16_t *)malloc((size_t)m * k * 2u), *hb = (uint16_t *)malloc((size_t)n * k * 2u);
    c->fa = (float *)malloc((size_t)m * k * 4u);
    c->fb = (float *)malloc((size_t)n * k * 4u);
    if (!ha || !hb || !c->fa || !c->fb) {
        fprintf(stderr, "wl_gemm: host allocation failed (%ux%ux%u)\n", m, n, k);
        exit(1);
    }
    wg_fill(ha, c->fa, (size_t)m * k, x);
    wg_fill(hb, c->fb, (size_t)n * k, x);
    int err = WL_CHECK(c->o, cudaMalloc(&c->da, (size_t)m * k * 2u)) ||
              WL_CHECK(c->o, cudaMalloc(&c->db, (size_t)n * k * 2u)) ||
              WL_CHECK(c->o, cudaMalloc((void **)&c->dc, (size_t)m * n * 4u)) ||
              WL_CHECK(c->o, cudaMalloc((void **)&c->dref, (size_t)m * n * 4u)) ||
              WL_CHECK(c->o, cudaMemcpy(c->da, ha, (size_t)m * k * 2u, cudaMemcpyHostToDevice)) ||
              WL_CHECK(c->o, cudaMemcpy(c->db, hb, (size_t)n * k * 2u, cudaMemcpyHostToDevice));
    free(ha);
    free(hb);
    if (err)
        return 1;
    cg_status_t st;
    if ((st = gm_encode_map(&c->ma, c->da, m, k)) != CG_SUCCESS || (st = gm_encode_map(&c->mb, c->db, n, k)) != CG_SUCCESS) {
        fprintf(stderr, "wl_gemm: cg_tensor_map_encode: %s: %s\n", cg_status_string(st), cg_last_error_detail());
        ++c->o->errors;
        return 1;
    }
    return 0;
}

static void wg_free(wg_ctx_t *c)
{
    cudaFree(c->da);
    cudaFree(c->db);
    cudaFree(c->dc);
    cudaFree(c->dref);
    free(c->fa);
    free(c->fb);
    c->da = c->db = NULL;
    c->dc = c->dref = NULL;
    c->fa = c->fb = NULL;
}

/* Set up c->kern / pr / grid for a kernel form: the 128 x 128 or (`wide`)
 * 128 x 256 build, clusters of cm x cn (cluster launch when
 * `cluster_launch`), as many clusters as are resident, at most one per
 * cluster tile (`max_clusters` > 0 caps it further). 0, or 1 when the
 * configuration cannot launch. */
static int wg_configure(wg_ctx_t *c, int wide, uint32_t cm, uint32_t cn, int mode, int cluster_launch,
                        uint32_t max_clusters)
{
    gm_problem_t pr = {c->dc, c->m, c->n, c->k, cm, cn, mode};
    wg_kernel_t kern;
    wg_kernel_of(wide, &kern);
    const char *bad = wide ? wg_problem_error_256(&pr) : gm_problem_error(&pr);
    if (bad) {
        fprintf(stderr, "wl_gemm: %ux%ux%u in %ux%u clusters: %s\n", c->m, c->n, c->k, cm, cn, bad);
        ++c->o->errors;
        return 1;
    }
    uint32_t clusters = 0;
    cg_status_t st;
    if (cluster_launch) {
        cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
        cfg.block.x = kern.threads;
        cfg.cluster.x = cm * cn;
        cfg.dynamic_smem = kern.smem;
        st = cg_max_active_clusters(&cfg, kern.fn, &clusters);
    } else {
        st = cg_max_cooperative_blocks(kern.fn, kern.threads, kern.smem, &clusters);
    }
    if (st != CG_SUCCESS || clusters == 0) {
        fprintf(stderr, "wl_gemm: no resident %ux%u cluster: %s: %s\n", cm, cn, cg_status_string(st),
                cg_last_error_detail());
        ++c->o->errors;
        return 1;
    }
    const uint32_t tiles = c->m / (GM_BM * cm) * (c->n / (kern.bn * cn));
    if (clusters > tiles)
        clusters = tiles;
    if (max_clusters && clusters > max_clusters)
        clusters = max_clusters;
    c->kern = kern;
    c->pr = pr;
    c->grid = clusters * cm * cn;
    c->cluster_launch = cluster_launch;
    return 0;
}

/* Poison C, run the configured kernel once, synchronize. 0 or 1. */
static int wg_run_once(wg_ctx_t *c)
{
    return WL_CHECK(c->o, cudaMemset(c->dc, 0xff, (size_t)c->m * c->n * 4u)) || WL_CHECK(c->o, wg_launch_kernel(c)) ||
           WL_CHECK(c->o, cudaDeviceSynchronize());
}

static const char *wg_mode_name(int mode) { return mode == GM_MULTICAST ? "multicast" : "twin"; }

/* --- the self-check: every element of every form against the host ------------ */

static int wg_self_check(wl_opts_t *o, uint64_t seed)
{
    wg_ctx_t c;
    memset(&c, 0, sizeof c);
    c.o = o;
    uint64_t x = seed * 0x9e3779b97f4a7c15ull | 1u;
    const uint32_t m = 512, n = 1024, k = 448; /* n: 2 x 2 clusters of 128 x 256 tiles fit */
    static const struct {
        uint32_t cm, cn;
        int mode, cluster;
    } forms[] = {{1, 2, GM_MULTICAST, 1}, {2, 2, GM_MULTICAST, 1}, {1, 2, GM_TWIN, 1},
                 {2, 2, GM_TWIN, 1},      {2, 1, GM_MULTICAST, 1}, {1, 1, GM_TWIN, 0}};
    const size_t nforms = sizeof forms / sizeof forms[0];
    int wrong = 0;
    if (wg_alloc(&c, m, n, k, &x))
        return 0;
    float *got = (float *)malloc((size_t)m * n * 4u);
    double *ref = (double *)malloc((size_t)m * n * sizeof(double));
    for (size_t e = 0; ref && e < (size_t)m * n; ++e)
        ref[e] = wg_host_dot(&c, (uint32_t)(e / n), (uint32_t)(e % n));
    for (size_t g = 0; g < WG_TILES * nforms && got && ref; ++g) {
        const size_t f = g % nforms;
        const int wide = (int)(g / nforms);
        char what[128];
        snprintf(what, sizeof what, "self-check 128x%u tiles, %s %ux%u%s", wide ? 256u : 128u,
                 wg_mode_name(forms[f].mode), forms[f].cm, forms[f].cn, forms[f].cluster ? "" : " (no cluster launch)");
        /* two clusters: every CTA walks several tiles */
        if (wg_configure(&c, wide, forms[f].cm, forms[f].cn, forms[f].mode, forms[f].cluster, 2) || wg_run_once(&c) ||
            WL_CHECK(o, cudaMemcpy(got, c.dc, (size_t)m * n * 4u, cudaMemcpyDeviceToHost)))
            break;
        if (wg_check_host(&c, got, NULL, 0, ref, what))
            ++wrong;
        else
            printf("wl_gemm: %s, %ux%ux%u: every element matches the host\n", what, m, n, k);
    }
    free(got);
    free(ref);
    wg_free(&c);
    return wrong;
}

/* --- one size ------------------------------------------------------------------- */

static double wg_tflops(const wg_ctx_t *c, double ms) { return 2.0 * c->m * c->n * c->k / (ms * 1e-3) / 1e12; }

/* One row: times in ms (<= 0: not timed), target 0 for info. */
static void wg_emit(wl_opts_t *o, FILE *csv, const char *op, const char *config, const char *cgc_what,
                    const char *anc_what, float cgc_ms, float anc_ms, double target, int wrong, const char *note)
{
    wl_row_t r;
    memset(&r, 0, sizeof r);
    r.op = op;
    r.config = config;
    r.cgc_what = cgc_what;
    r.anc_what = anc_what;
    r.cgc_ns = cgc_ms > 0 ? cgc_ms * 1e6 : 0;
    r.anc_ns = anc_ms > 0 ? anc_ms * 1e6 : 0;
    r.max_ratio = target;
    r.min_speedup = target > 0 ? 1.0 / target : 0.0;
    r.wrong = wrong;
    r.note = note;
    wl_row(o, csv, &r);
}

static void wg_row_wrong(wl_opts_t *o, FILE *csv, const char *config, const char *what)
{
    wg_emit(o, csv, WG_OP, config, what, "check", 0.0f, 0.0f, 0.0, 1, "a check failed (see the WRONG line above)");
}

/* The kernel forms of one size, timed together. Per tile width w (0: 128 x
 * 128, 1: 128 x 256), WG_PER_TILE forms: the twin without a cluster launch
 * (one CTA per SM, tiles in the same order), then for each cluster shape s
 * the twin launched in clusters (1 + 2 s) and the multicast kernel (2 + 2 s).
 * Each form writes its own C, so after the timed rounds every buffer holds
 * what that form's LAST timed launch left. */
#define WG_SHAPES 3
#define WG_PER_TILE (1 + 2 * WG_SHAPES)
#define WG_FORMS (WG_TILES * WG_PER_TILE)
#define WG_FORM(w, i) ((w) * WG_PER_TILE + (i))

typedef struct wg_form {
    int wide;         /* 128 x 256 tiles */
    gm_problem_t pr;
    uint32_t grid;
    int cluster_launch;
    wg_kernel_t kern;
    int ok;           /* configured, launched and checked without error */
    int wrong;        /* its last timed launch's C failed the check */
    float ms;         /* median of the timed launches */
    float t[64];
} wg_form_t;

/* A form's median when it ran and passed its check, else -1. */
static float wg_form_ms(const wg_form_t *f) { return f->ok && !f->wrong ? f->ms : -1.0f; }

static const char *wg_form_name(const wg_form_t *f, char *buf, size_t len)
{
    snprintf(buf, len, "128x%u %s %ux%u%s", f->kern.bn, f->pr.mode == GM_MULTICAST ? "multicast" : "twin", f->pr.cm,
             f->pr.cn, f->cluster_launch ? "" : " (no cluster launch)");
    return buf;
}

/* The fastest correct form among `idx` (n of them): its index, or -1. */
static int wg_fastest(const wg_form_t *forms, const int *idx, int n)
{
    int best = -1;
    for (int i = 0; i < n; ++i) {
        const float ms = wg_form_ms(&forms[idx[i]]);
        if (ms > 0 && (best < 0 || ms < wg_form_ms(&forms[best])))
            best = idx[i];
    }
    return best;
}

static float wg_median(float *t, int n)
{
    qsort(t, (size_t)n, sizeof t[0], wl_cmp_float_);
    return n % 2 ? t[n / 2] : 0.5f * (t[n / 2 - 1] + t[n / 2]);
}

/* Time every configured form in rounds, A B C ... A B C ... (each timed launch
 * held behind wl.h's blocking kernel and preceded by one untimed launch of
 * the same form), poison each C before the last round, then check every
 * element of what the last timed launch left against cuBLAS's C. */
static void wg_time_forms(wg_ctx_t *c, wg_form_t *f, float **dcf, int nforms)
{
    wl_opts_t *o = c->o;
    const int repeats = o->repeats < 64 ? o->repeats : 64, saved = o->repeats;
    o->repeats = 1; /* wl_time_ms_blocked: one untimed + one timed launch per call */
    for (int r = 0; r < repeats; ++r)
        for (int i = 0; i < nforms; ++i) {
            if (!f[i].ok)
                continue;
            c->kern = f[i].kern;
            c->pr = f[i].pr;
            c->grid = f[i].grid;
            c->cluster_launch = f[i].cluster_launch;
            c->dc = dcf[i];
            if (r == repeats - 1 && WL_CHECK(o, cudaMemset(dcf[i], 0xff, (size_t)c->m * c->n * 4u))) {
                f[i].ok = 0;
                continue;
            }
            f[i].t[r] = wl_time_ms_blocked(o, wg_launch_kernel, c);
            if (f[i].t[r] < 0)
                f[i].ok = 0;
        }
    o->repeats = saved;
    for (int i = 0; i < nforms; ++i) {
        if (!f[i].ok)
            continue;
        f[i].ms = wg_median(f[i].t, repeats);
        char name[96], what[160];
        snprintf(what, sizeof what, "%s (its last timed launch)", wg_form_name(&f[i], name, sizeof name));
        c->dc = dcf[i];
        f[i].wrong = wg_check_device(c, c->dref, what);
    }
}

static void wg_size(wl_opts_t *o, FILE *csv, cublasHandle_t blas, uint32_t m, uint32_t n, uint32_t k, uint64_t *x)
{
    wg_ctx_t c;
    memset(&c, 0, sizeof c);
    c.o = o;
    c.blas = blas;
    char size[48];
    const uint32_t dims[3] = {m, n, k};
    wg_size_name(size, sizeof size, dims);
    float *dcf[WG_FORMS];
    memset(dcf, 0, sizeof dcf);
    if (wg_alloc(&c, m, n, k, x) || WL_CHECK(o, cudaMalloc((void **)&c.dbad, 16))) {
        wg_free(&c);
        return;
    }

    /* the reference: cuBLAS, checked on samples against the host */
    int ref_ok = 0;
    if (!WL_CHECK(o, cudaMemset(c.dref, 0xff, (size_t)m * n * 4u)) && !WL_CHECK(o, wg_launch_cublas(&c)) &&
        !WL_CHECK(o, cudaDeviceSynchronize())) {
        const size_t ns = 4096u + 2u * n;
        size_t *idx = (size_t *)malloc(ns * sizeof(size_t));
        float *got = (float *)malloc(ns * 4u), *all = (float *)malloc((size_t)m * n * 4u);
        if (idx && got && all && !WL_CHECK(o, cudaMemcpy(all, c.dref, (size_t)m * n * 4u, cudaMemcpyDeviceToHost))) {
            for (size_t t = 0; t < ns; ++t) {
                if (t < 4096u) {
                    *x ^= *x << 13;
                    *x ^= *x >> 7;
                    *x ^= *x << 17;
                    idx[t] = (size_t)(*x % ((uint64_t)m * n));
                } else {
                    const size_t j = t - 4096u; /* the first and last rows */
                    idx[t] = j < n ? j : (size_t)(m - 1u) * n + (j - n);
                }
                got[t] = all[idx[t]];
            }
            ref_ok = !wg_check_host(&c, got, idx, ns, NULL, "cuBLAS reference");
        }
        free(idx);
        free(got);
        free(all);
    }
    const float ms_blas = ref_ok ? wl_time_ms_blocked(o, wg_launch_cublas, &c) : -1.0f;
    if (!ref_ok)
        wg_row_wrong(o, csv, size, "cuBLAS reference (sampled host check)");

    /* configure every form, each with its own C */
    wg_form_t forms[WG_FORMS];
    memset(forms, 0, sizeof forms);
    for (int g = 0; g < WG_FORMS && ref_ok; ++g) {
        const int wide = g / WG_PER_TILE, i = g % WG_PER_TILE, s = i == 0 ? 0 : (i - 1) / 2;
        const uint32_t cm = i == 0 ? 1u : wg_shapes[s][0], cn = i == 0 ? 1u : wg_shapes[s][1];
        const int mode = i == 0 || i % 2 == 1 ? GM_TWIN : GM_MULTICAST;
        if (WL_CHECK(o, cudaMalloc((void **)&dcf[g], (size_t)m * n * 4u)))
            break;
        c.dc = dcf[g];
        if (wg_configure(&c, wide, cm, cn, mode, i != 0, 0))
            continue;
        forms[g].wide = wide;
        forms[g].kern = c.kern;
        forms[g].pr = c.pr;
        forms[g].grid = c.grid;
        forms[g].cluster_launch = c.cluster_launch;
        forms[g].ok = 1;
    }
    if (ref_ok)
        wg_time_forms(&c, forms, dcf, WG_FORMS);

    const double tf_bl = ms_blas > 0 ? wg_tflops(&c, ms_blas) : 0;
    for (int s = 0; s < WG_SHAPES && ref_ok; ++s) {
        const uint32_t cm = wg_shapes[s][0], cn = wg_shapes[s][1];
        char config[96], cfg_tile[128], name_mc[96], name_tw[96], note[512];
        wg_config_name(config, sizeof config, size, cm, cn);
        /* the target: the fastest multicast kernel of this shape (either tile
         * width) against the fastest twin of all (either width, in this
         * shape's clusters or without a cluster launch) */
        const int mcs[WG_TILES] = {WG_FORM(0, 2 + 2 * s), WG_FORM(1, 2 + 2 * s)};
        const int tws[2 * WG_TILES] = {WG_FORM(0, 0), WG_FORM(0, 1 + 2 * s), WG_FORM(1, 0), WG_FORM(1, 1 + 2 * s)};
        const int bm = wg_fastest(forms, mcs, WG_TILES), bt = wg_fastest(forms, tws, 2 * WG_TILES);
        int any_wrong = 0;
        for (int i = 0; i < WG_TILES; ++i)
            any_wrong |= forms[mcs[i]].wrong;
        for (int i = 0; i < 2 * WG_TILES; ++i)
            any_wrong |= forms[tws[i]].wrong;
        const float ms_mc = bm >= 0 ? wg_form_ms(&forms[bm]) : -1.0f, ms_tw = bt >= 0 ? wg_form_ms(&forms[bt]) : -1.0f;
        snprintf(note, sizeof note,
                 "%.0f vs %.0f TFLOP/s (%.2f / %.2f of cuBLAS's %.0f); fastest multicast: %s; fastest twin: %s; "
                 "twins 128x128 %.3f / %.3f ms, 128x256 %.3f / %.3f ms (no cluster launch / in clusters); %d "
                 "interleaved repeats; checked: every element of each form's last timed launch vs cuBLAS (tol 1e-3 "
                 "(|ref| + sqrt K)): %s",
                 ms_mc > 0 ? wg_tflops(&c, ms_mc) : 0, ms_tw > 0 ? wg_tflops(&c, ms_tw) : 0,
                 tf_bl > 0 && ms_mc > 0 ? wg_tflops(&c, ms_mc) / tf_bl : 0.0,
                 tf_bl > 0 && ms_tw > 0 ? wg_tflops(&c, ms_tw) / tf_bl : 0.0, tf_bl,
                 bm >= 0 ? wg_form_name(&forms[bm], name_mc, sizeof name_mc) : "none",
                 bt >= 0 ? wg_form_name(&forms[bt], name_tw, sizeof name_tw) : "none",
                 wg_form_ms(&forms[tws[0]]), wg_form_ms(&forms[tws[1]]), wg_form_ms(&forms[tws[2]]),
                 wg_form_ms(&forms[tws[3]]), o->repeats, any_wrong ? "WRONG (see above)" : "all ok");
        wg_emit(o, csv, WG_OP, config, "wgmma + cg_pipeline sliced multicast (A per cluster row, B per column), "
                "the faster tile width",
                "the fastest twin: same kernel, every CTA loads its own A and B (either tile width, with or without "
                "a cluster launch)", ms_mc, ms_tw, WG_TARGET, any_wrong, note);

        /* per tile width: its multicast kernel against its own faster twin */
        for (int w = 0; w < WG_TILES; ++w) {
            const wg_form_t *mc = &forms[WG_FORM(w, 2 + 2 * s)];
            const int mine[2] = {WG_FORM(w, 0), WG_FORM(w, 1 + 2 * s)};
            const int b = wg_fastest(forms, mine, 2);
            const float ms_b = b >= 0 ? wg_form_ms(&forms[b]) : -1.0f, ms_m = wg_form_ms(mc);
            snprintf(cfg_tile, sizeof cfg_tile, "%s, 128x%u tiles", config, w ? 256u : 128u);
            snprintf(note, sizeof note,
                     "%.0f vs %.0f TFLOP/s; anchor: %s; %u CTAs; L2->SM per CTA per K step: %u KiB vs %u KiB",
                     ms_m > 0 ? wg_tflops(&c, ms_m) : 0, ms_b > 0 ? wg_tflops(&c, ms_b) : 0,
                     b >= 0 ? wg_form_name(&forms[b], name_tw, sizeof name_tw) : "none", mc->grid,
                     16u / cn + (w ? 32u : 16u) / cm, w ? 48u : 32u);
            wg_emit(o, csv, WG_OP_TILE, cfg_tile, "wgmma + cg_pipeline sliced multicast",
                    "its faster twin (same tile width)", ms_m, ms_b, 0.0,
                    mc->wrong || forms[mine[0]].wrong || forms[mine[1]].wrong, note);
        }

        snprintf(note, sizeof note, "%.0f vs %.0f TFLOP/s: the fastest multicast kernel reaches %.2f of cuBLAS",
                 ms_mc > 0 ? wg_tflops(&c, ms_mc) : 0, tf_bl, tf_bl > 0 && ms_mc > 0 ? wg_tflops(&c, ms_mc) / tf_bl : 0.0);
        wg_emit(o, csv, WG_OP_INFO, config, "wgmma + cg_pipeline sliced multicast, the faster tile width",
                "cublasGemmEx (bf16 in, fp32 compute and out)", ms_mc, ms_blas, 0.0, bm >= 0 && forms[bm].wrong, note);
    }

    /* info: each width's twin without a cluster launch against cuBLAS */
    for (int w = 0; w < WG_TILES && ref_ok; ++w) {
        const wg_form_t *solo = &forms[WG_FORM(w, 0)];
        const float ms = wg_form_ms(solo);
        char cfg_tile[96], note[192];
        snprintf(cfg_tile, sizeof cfg_tile, "%s, 128x%u tiles", size, w ? 256u : 128u);
        snprintf(note, sizeof note,
                 "%.0f vs %.0f TFLOP/s (%.2f of cuBLAS); %u CTAs, %u stages; checked: every element of its last "
                 "timed launch vs cuBLAS",
                 ms > 0 ? wg_tflops(&c, ms) : 0, tf_bl, ms > 0 && ms_blas > 0 ? ms_blas / ms : 0.0, solo->grid,
                 solo->kern.stages);
        wg_emit(o, csv, WG_OP_INFO, cfg_tile, "same kernel, no multicast, no cluster launch",
                "cublasGemmEx (bf16 in, fp32 compute and out)", ms, ms_blas, 0.0, solo->wrong, note);
    }
    for (int i = 0; i < WG_FORMS; ++i)
        cudaFree(dcf[i]);
    c.dc = NULL;
    cudaFree(c.dbad);
    wg_free(&c);
}

int main(int argc, char **argv)
{
    wl_list_if_asked(argc, argv, wg_list);
    wl_opts_t o = wl_parse(argc, argv, "wl_gemm");
    FILE *csv = wl_open_csv(&o);
    const uint64_t seed = wg_seed();
    wg_kernel_t k128, k256;
    wg_kernel_of(0, &k128);
    wg_kernel_of(1, &k256);
    printf("# wl_gemm: seed %llu (CGC_SEED=%llu repeats it); 128x128 tiles: %u-stage pipeline, %zu B shared memory; "
           "128x256 tiles: %u stages, %zu B; %u threads\n",
           (unsigned long long)seed, (unsigned long long)seed, k128.stages, k128.smem, k256.stages, k256.smem,
           k128.threads);
    if (gm_device_error() != NULL) {
        fprintf(stderr, "wl_gemm: needs an sm_90 device: %s\n", gm_device_error());
        return 2;
    }
    if (wg_self_check(&o, seed)) {
        wg_row_wrong(&o, csv, "self-check 512x1024x448", "every kernel form vs the host");
        return wl_exit(&o);
    }
    cublasHandle_t blas;
    if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "wl_gemm: cublasCreate failed\n");
        return 2;
    }
    uint64_t x = seed * 0x2545f4914f6cdd1dull | 1u;
    for (int i = 0; i < 2; ++i) {
        const uint32_t *s = o.quick ? wg_quick[i] : wg_full[i];
        wg_size(&o, csv, blas, s[0], s[1], s[2], &x);
    }
    cublasDestroy(blas);
    if (csv)
        fclose(csv);
    return wl_exit(&o);
}

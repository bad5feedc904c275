/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/workloads/wl_stencil_deep.cu — the Jacobi workload where the cluster
 * features can pay (issue 32, item 2): halos k rows deep, so that a grid
 * barrier is needed only every k-th sweep, while the CTAs of a cluster trade
 * one row a sweep through distributed shared memory.
 *
 *   wl_stencil_deep [--csv PATH] [--quick] [--repeats R] [--list]
 *
 * Problem: 512 x 1024 points (bands of 8 or 9 rows: a shape whose sweep is
 * short, so synchronization is most of its time), 2000 sweeps (--quick:
 * 200), random values in [0, 1) from a printed seed (CGC_SEED), the boundary
 * fixed; 5-point Jacobi with the arithmetic of examples/jacobi_cluster.cuh
 * (st_point4), so every result equals the host's plain Jacobi bit for bit.
 *
 * The scheme (every kernel): a "group" of CTAs (a cluster of C, or one CTA)
 * owns a band of rows. Every k sweeps (an epoch) the CTAs at the group's top
 * and bottom read the k rows beyond it from global memory (written there by
 * their owners at the epoch's start, before a split grid barrier) and then
 * run k sweeps without global traffic, computing each sweep one ghost row
 * fewer (sweep j of an epoch of depth d computes d - 1 - j rows beyond the
 * band: redundant work that buys the rarer barrier). Inside a group, the
 * CTAs trade their edge rows every sweep. Each CTA holds its rows, the
 * ghost rows and the halo rows in shared memory, two levels (ping-pong),
 * nx / 4 threads of 4 columns. A sweep: the rows that need nothing from
 * outside the CTA first (while the barrier and the DSMEM rows travel), then
 * the wait for the cluster neighbours' halo rows, the rows that need them
 * and the sends to the neighbours; then, at an epoch's start, the grid
 * barrier's wait, the ghost rows and the rows that need them (after the
 * sends: the in-cluster chain of one row a sweep does not wait for the
 * grid barrier); at an epoch's end the rows other groups need, to global
 * memory, and the grid barrier's arrive.
 *
 * Kernels (one persistent cooperative launch runs all sweeps, one CTA per
 * SM: the shared memory asked for keeps a second CTA off every SM, so all
 * kernels are placed alike), each at k = 1, 2, 4, 8, 16:
 *   cgc        groups are clusters; the edge rows go to the neighbours by
 *              DSMEM push (st.async into the neighbour's halo row,
 *              completing on its "full" mbarrier of that side, one per
 *              neighbour, so each side's rows go as soon as that
 *              neighbour's row is in): only neighbours wait for each
 *              other, no cluster-wide barrier, no GPU-wide fence and no
 *              handshake a sweep (the data dependence orders the reuse of a
 *              halo row: see steps 2-4 in kw_dj); cgc's split grid
 *              barrier every k sweeps. With balanced bands (the cluster's
 *              first and last CTAs own fewer rows: they also compute the
 *              ghost rows, (k - 1) / 2 a sweep on average, dj_band_lo) and
 *              with uniform ones.
 *   anchor     the fastest, over k, bands and the three kinds, of the C++
 *              CG kernels, all with C++ CG's split grid barrier:
 *              (a) groups of one CTA: every halo through global memory,
 *                  k deep (no cluster);
 *              (b) groups are clusters: the neighbours' edge rows read with
 *                  cluster.map_shared_rank, a split cluster barrier
 *                  (barrier_arrive after the sweep's rows, barrier_wait
 *                  before the next sweep's reads) every sweep;
 *              (c) as (b), the edge rows stored into the neighbours' halo
 *                  rows with map_shared_rank (push) instead;
 *              (b) and (c) with uniform and with balanced bands.
 *   info       every kind at its best k; cgc with the receivers handing
 *              each halo row back on the sender's "empty" mbarrier
 *              (cg_dsmem_release; the form of 2026-11-28: what the
 *              handshake costs); cgc with groups of one CTA (cgc's grid
 *              barrier, global halos k deep); a probe with no exchange and
 *              no barrier at all (each band's halo rows stay at level 0: the
 *              floor of this shape's arithmetic and shared memory, checked
 *              against the host's frozen-halo model).
 * Series: per cluster size C (2, 4, 8), every (kernel, k) at the G of the
 * cluster kernels (the largest <= 128 that is co-resident), their timed
 * launches interleaved (--repeats rounds, median per kernel). Columns: ns per
 * sweep. Target (TARGETS.md): cgc at its best k (and bands) <= 0.85x the
 * anchor, the fastest C++ CG (kind, k, bands).
 *
 * Checks: every (kernel, k) writes its own output. Its warm-up launch is
 * checked; before its last timed launch the output is poisoned (NaN) and
 * after the series every point that launch left is compared with the host's
 * plain Jacobi (st_host_jacobi): a point computed redundantly by two CTAs,
 * or read from a ghost row, has the same four operands in the same order,
 * so it is the same float. A self-check first runs every kernel at small
 * sizes (bands of 2 and 3 rows under halos 8 and 16 deep, sweeps not a
 * multiple of k, k = 3) against the host. WRONG and exit 3 on any
 * difference. The row ranges are also replayed without a GPU by
 * wl_stencil_deep_rows.py (keep it in step with dj_band_lo,
 * dj_buffer_rows and kw_dj).
 */
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/workloads/wl.h"
#include "bench/workloads/wl_stencil_common.cuh"
#include "cg/launch.h"
#include "examples/jacobi_cluster.cuh"

/* --- the problem and the kernels --------------------------------------------------- */

typedef struct dj_problem {
    const float *in; /* ny x nx, level 0 */
    float *out;      /* ny x nx, level `sweeps` */
    float *xg;       /* ghost rows through global memory: [2 epoch parities][ny][nx] */
    uint32_t nx, ny, sweeps, k;
    uint32_t nr;      /* rows of each level buffer: dj_buffer_rows of the launch */
    uint32_t balance; /* clustered kinds: the cluster's edge CTAs get fewer rows (dj_band_lo) */
} dj_problem_t;

/* Kernel kinds. */
#define DJ_CGC 0        /* cgc: clusters, DSMEM push (st.async onto full mbarriers), cgc grid barrier every k */
#define DJ_CG_GLOBAL 1  /* C++ CG (a): one-CTA groups, global halos k deep, split grid barrier */
#define DJ_CG_PULL 2    /* C++ CG (b): clusters, map_shared_rank loads + split cluster barrier */
#define DJ_CG_PUSH 3    /* C++ CG (c): clusters, map_shared_rank stores + split cluster barrier */
#define DJ_CGC_GLOBAL 4 /* cgc, one-CTA groups (info) */
#define DJ_FROZEN 5     /* probe: no exchange, no barrier; each band's halo rows stay at level 0 (k unused) */
#define DJ_CGC_EMPTY 6  /* cgc as DJ_CGC, plus the receivers handing each halo row back on an empty mbarrier (info) */
#define DJ_IS_CGC(mode) ((mode) == DJ_CGC || (mode) == DJ_CGC_EMPTY)
#define DJ_CLUSTERED(mode) (DJ_IS_CGC(mode) || (mode) == DJ_CG_PULL || (mode) == DJ_CG_PUSH)
#define DJ_CPP(mode) ((mode) == DJ_CG_GLOBAL || (mode) == DJ_CG_PULL || (mode) == DJ_CG_PUSH)

/* Sides of a CTA's rows. */
#define DJ_NONE 0   /* the domain's edge */
#define DJ_DSMEM 1  /* a CTA of the same cluster: one row a sweep */
#define DJ_GLOBAL 2 /* another group: k rows every k sweeps through global memory */
#define DJ_FIXED 3  /* the probe: the neighbour's level-0 row, never renewed */

#define DJ_MAX_NX 1024u
#define DJ_MAX_K 16u
#define DJ_THREADS(nx) ((nx) / 4u)
/* Dynamic shared memory asked for at least: more than half of an SM's 228
 * KiB, so one CTA per SM in every kernel and every k. */
#define DJ_SMEM_ONE_PER_SM (116u * 1024u)

/* In a group (cluster) of C CTAs whose rows are [GLO, GLO + N), T = 2 N +
 * e0 + e1: the first row of rank r (0 < r < C), GLO + (r T / C - e0) / 2
 * rounded to the nearest row. */
static __host__ __device__ __forceinline__ int dj_group_lo(int GLO, int T, int e0, uint32_t r, uint32_t C)
{
    return GLO + ((int)r * T - e0 * (int)C + (int)C) / (2 * (int)C);
}

/* The first row of CTA g's band. Groups (clusters of C) always own rows
 * [g0 ny / G, (g0 + C) ny / G), g0 = g - g % C. Uniform (balance 0, or C =
 * 1): CTA g owns from g ny / G. Balanced: the group's first and last CTAs
 * also compute ghost rows every sweep, (k - 1) / 2 rows on average where
 * that side is another group, so they own that many rows fewer and the
 * other CTAs of the group more (e0, e1: twice that average, 0 at the
 * domain's edge); where that would leave a band below 2 rows, uniform. */
static __host__ __device__ __forceinline__ int dj_band_lo(uint32_t g, uint32_t ny, uint32_t G, uint32_t C, uint32_t k,
                                                          uint32_t balance)
{
    const int uniform = (int)((uint64_t)g * ny / G);
    if (!balance || C < 2u || g % C == 0u)
        return uniform;
    const uint32_t r = g % C, g0 = g - r;
    const int GLO = (int)((uint64_t)g0 * ny / G), GHI = (int)((uint64_t)(g0 + C) * ny / G);
    const int e0 = g0 > 0u ? (int)k - 1 : 0, e1 = g0 + C < G ? (int)k - 1 : 0, T = 2 * (GHI - GLO) + e0 + e1;
    int prev = GLO;
    for (uint32_t q = 1; q <= C; ++q) {
        const int next = q == C ? GHI : dj_group_lo(GLO, T, e0, q, C);
        if (next - prev < 2)
            return uniform;
        prev = next;
    }
    return dj_group_lo(GLO, T, e0, r, C);
}

/* Rows of every CTA's level buffer in a launch (clusters of C; 1 for the
 * kinds without clusters): the widest band, k ghost rows and a halo row on
 * each side (local row 0 is the band's first row - k - 1). */
static __host__ __device__ __forceinline__ uint32_t dj_buffer_rows(uint32_t ny, uint32_t G, uint32_t C, uint32_t k,
                                                                   uint32_t balance)
{
    int wide = 0;
    for (uint32_t g = 0; g < G; ++g) {
        const int r = dj_band_lo(g + 1u, ny, G, C, k, balance) - dj_band_lo(g, ny, G, C, k, balance);
        wide = r > wide ? r : wide;
    }
    return (uint32_t)wide + 2u * k + 2u;
}

/* 6 mbarriers (in 64 bytes), then two level buffers of nr rows. */
static inline size_t dj_smem_bytes(uint32_t nx, uint32_t nr)
{
    const size_t need = 64u + 2u * 4u * (size_t)nr * nx;
    return need > DJ_SMEM_ONE_PER_SM ? need : DJ_SMEM_ONE_PER_SM;
}

/* NULL when the problem can run with level buffers of nr rows, else why not. */
static inline const char *dj_problem_error(uint32_t nx, uint32_t ny, uint32_t G, uint32_t k, uint32_t nr)
{
    if (nx < 128u || nx > DJ_MAX_NX || nx % 128u)
        return "nx must be a multiple of 128 from 128 to 1024 (nx / 4 threads per CTA, whole warps)";
    if (G == 0 || ny / G < 2u)
        return "every CTA needs at least 2 rows (ny >= 2 G)";
    if (k < 1u || k > DJ_MAX_K)
        return "the halo depth k must be 1 .. 16";
    if (dj_smem_bytes(nx, nr) > 227u * 1024u)
        return "the band, ghost and halo rows do not fit a CTA's shared memory";
    return NULL;
}

/* Rows [i0, i1) of level dst from level src, both buffers whose local row 0
 * is global row `base`; this thread's columns c0 .. c0+3. */
static __device__ __forceinline__ void dj_rows(const float *src, float *dst, int base, uint32_t nx, uint32_t c0,
                                               int i0, int i1)
{
    if (i0 >= i1)
        return;
    const float *s = src + (size_t)(i0 - base) * nx + c0;
    float *d = dst + (size_t)(i0 - base) * nx + c0;
    float4 up = *(const float4 *)(s - nx), cur = *(const float4 *)s;
    for (int i = i0; i < i1; ++i, s += nx, d += nx) {
        const float4 dn = *(const float4 *)(s + nx);
        const float left = c0 > 0 ? s[-1] : 0.f, right = c0 + 4u < nx ? s[4] : 0.f;
        *(float4 *)d = st_point4(up, cur, dn, left, right, c0, nx);
        up = cur;
        cur = dn;
    }
}

static __device__ __forceinline__ float4 *dj_at(float *buf, int base, uint32_t nx, uint32_t c0, int i)
{
    return (float4 *)(buf + (size_t)(i - base) * nx + c0);
}

static __device__ __forceinline__ uint4 dj_bits(float4 v)
{
    return make_uint4(__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w));
}

/* The kernel, every kind (MODE). Launch cooperatively with DJ_THREADS(nx)
 * threads, dj_smem_bytes of dynamic shared memory, a 1-D grid of G CTAs in
 * clusters of C along x for the clustered kinds (none for the others). */
template <int MODE> __global__ void __launch_bounds__(DJ_THREADS(DJ_MAX_NX)) kw_dj(dj_problem_t pr)
{
    namespace ccg = cooperative_groups;
    extern __shared__ __align__(16) unsigned char dj_smem[];
    const uint32_t nx = pr.nx, ny = pr.ny, S = pr.sweeps, k = pr.k, G = gridDim.x, g = blockIdx.x;
    const uint32_t c0 = 4u * threadIdx.x, NR = pr.nr;
    uint32_t rank = 0, C = 1;
    if (DJ_IS_CGC(MODE)) {
        cg_cluster_t cl = cg_this_cluster();
        rank = cg_cluster_block_rank(&cl);
        C = cg_cluster_num_blocks(&cl);
    } else if (DJ_CLUSTERED(MODE)) {
        ccg::cluster_group cl = ccg::this_cluster();
        rank = cl.block_rank();
        C = cl.num_blocks();
    }
    /* rows: this band [lo, hi), its group's [GLO, GHI) */
    const int lo = dj_band_lo(g, ny, G, C, k, pr.balance), hi = dj_band_lo(g + 1u, ny, G, C, k, pr.balance);
    const int GLO = (int)((uint64_t)(g - rank) * ny / G), GHI = (int)((uint64_t)(g - rank + C) * ny / G);
    const int top = g == 0 ? DJ_NONE : MODE == DJ_FROZEN ? DJ_FIXED : rank > 0 ? DJ_DSMEM : DJ_GLOBAL;
    const int bot = g + 1u == G ? DJ_NONE : MODE == DJ_FROZEN ? DJ_FIXED : rank + 1u < C ? DJ_DSMEM : DJ_GLOBAL;
    const int base = lo - (int)k - 1; /* global row of local row 0 */
    /* cgc: full[2 b + side]: buffer b's halo row on that side (0 top, 1
     * bottom) holds the level it waits for (one mbarrier per neighbour, so
     * each side's rows go as soon as that neighbour's row is in);
     * empty[b] (DJ_CGC_EMPTY): both neighbours released buffer b */
    cg_mbarrier_t *full = (cg_mbarrier_t *)dj_smem, *empty = full + 4;
    /* the two level buffers (level L in buf0 for even L); scalars, not an
     * array indexed by parity, which would live in local memory */
    float *const buf0 = (float *)(dj_smem + 64), *const buf1 = buf0 + (size_t)NR * nx;
    /* the neighbours' local row 0 (their buffers have this layout) */
    const int base_up = (g > 0 ? dj_band_lo(g - 1u, ny, G, C, k, pr.balance) : 0) - (int)k - 1,
              base_dn = hi - (int)k - 1;
    const uint32_t peers = (top == DJ_DSMEM) + (bot == DJ_DSMEM), row_bytes = nx * 4u;
    /* bit 2 b + side: the parity to wait for on full[2 b + side]; bit b: on
     * empty[b] (its first use reads as complete) */
    uint32_t full_ph = 0u, empty_ph = 3u;

    if (DJ_IS_CGC(MODE) && threadIdx.x == 0 && peers) {
        for (uint32_t b = 0; b < 2u; ++b) {
            if (top == DJ_DSMEM)
                cg_mbarrier_init(&full[2u * b], 1u); /* this thread's arm, plus the row's bytes */
            if (bot == DJ_DSMEM)
                cg_mbarrier_init(&full[2u * b + 1u], 1u);
            if (MODE == DJ_CGC_EMPTY)
                cg_mbarrier_init(&empty[b], peers);
        }
        cg_mbarrier_init_fence_cluster();
        for (uint32_t L = 1u; L <= 2u && L < S; ++L) { /* levels 1 and 2, if they are sent */
            if (top == DJ_DSMEM)
                (void)cg_mbarrier_arrive_tx(&full[2u * (L & 1u)], row_bytes);
            if (bot == DJ_DSMEM)
                (void)cg_mbarrier_arrive_tx(&full[2u * (L & 1u) + 1u], row_bytes);
        }
    }
    /* level 0: every row of the window that exists; the domain's first and
     * last rows (never computed), and the probe's fixed halo rows, in both
     * buffers */
    for (int i = base < 0 ? 0 : base; i < base + (int)NR && i < (int)ny; ++i) {
        const float4 v = *(const float4 *)(pr.in + (size_t)i * nx + c0);
        *dj_at(buf0, base, nx, c0, i) = v;
        if (i == 0 || i + 1 == (int)ny || (MODE == DJ_FROZEN && (i == lo - 1 || i == hi)))
            *dj_at(buf1, base, nx, c0, i) = v;
    }
    if (DJ_IS_CGC(MODE)) {
        cg_cluster_t cl = cg_this_cluster();
        cg_cluster_sync(&cl); /* the neighbours' mbarriers are initialized */
    } else if (DJ_CLUSTERED(MODE)) {
        ccg::this_cluster().sync();
    } else {
        __syncthreads();
    }
    /* C++ kinds: the neighbours' level buffers, mapped with C++ CG */
    float *up0 = NULL, *up1 = NULL, *dn0 = NULL, *dn1 = NULL;
    if (MODE == DJ_CG_PULL || MODE == DJ_CG_PUSH) {
        ccg::cluster_group cl = ccg::this_cluster();
        if (top == DJ_DSMEM) {
            up0 = cl.map_shared_rank(buf0, (int)rank - 1);
            up1 = cl.map_shared_rank(buf1, (int)rank - 1);
        }
        if (bot == DJ_DSMEM) {
            dn0 = cl.map_shared_rank(buf0, (int)rank + 1);
            dn1 = cl.map_shared_rank(buf1, (int)rank + 1);
        }
    }
    cg_grid_t cgrid = cg_this_grid();
    cg_token_t ctok;
    ctok._opaque = 0;
    ccg::grid_group grid = ccg::this_grid();
    ccg::grid_group::arrival_token tok = 0;

    for (uint32_t m = 0; m < S; ++m) { /* level m -> m + 1 */
        const uint32_t e = m / k, j = m % k, L = e * k, d = k < S - L ? k : S - L;
        float *src = (m & 1u) ? buf1 : buf0, *dst = (m & 1u) ? buf0 : buf1;
        if (m > 0) {
            __syncthreads(); /* level m complete; every read of level m - 1 done */
            /* cgc: re-arm the level m - 1 halo mbarrier for level m + 1 (if
             * that is sent; its bytes may land first: the phase cannot
             * complete before this arrival). DJ_CGC_EMPTY also hands the
             * halo rows back to their senders. */
            if (DJ_IS_CGC(MODE) && threadIdx.x == 0 && m >= 2u && m + 1u < S && peers) {
                const uint32_t b = (m - 1u) & 1u;
                if (top == DJ_DSMEM)
                    (void)cg_mbarrier_arrive_tx(&full[2u * b], row_bytes);
                if (bot == DJ_DSMEM)
                    (void)cg_mbarrier_arrive_tx(&full[2u * b + 1u], row_bytes);
                if (MODE == DJ_CGC_EMPTY && top == DJ_DSMEM)
                    cg_dsmem_release(&empty[b], rank - 1u);
                if (MODE == DJ_CGC_EMPTY && bot == DJ_DSMEM)
                    cg_dsmem_release(&empty[b], rank + 1u);
            }
        }
        const int epoch_start = j == 0 && m > 0 && MODE != DJ_FROZEN;
        const int reach = (int)(d - 1u - j); /* ghost rows computed beyond the band this sweep */
        const int r0 = top == DJ_NONE                        ? 1
                       : top == DJ_DSMEM || top == DJ_FIXED ? lo
                                                            : (lo - reach > 1 ? lo - reach : 1);
        const int r1 = bot == DJ_NONE                        ? (int)ny - 1
                       : bot == DJ_DSMEM || bot == DJ_FIXED ? hi
                                                            : (hi + reach < (int)ny - 1 ? hi + reach : (int)ny - 1);
        const int tdep = top == DJ_DSMEM || (top == DJ_GLOBAL && epoch_start);
        const int bdep = bot == DJ_DSMEM || (bot == DJ_GLOBAL && epoch_start);
        /* 1. the rows that need nothing from outside this CTA */
        dj_rows(src, dst, base, nx, c0, tdep ? lo + 1 : r0, bdep ? hi - 1 : r1);
        const uint32_t nb = (m + 1u) & 1u;
        const int send = m + 1u < S; /* level m + 1 is read by a neighbour (level S by nobody) */
        if (DJ_IS_CGC(MODE)) {
            /* 2-4, per side: the wait for that neighbour's row of level m,
             * the rows that need it, this CTA's edge row of level m + 1 to
             * it by st.async (onto its full mbarrier of that side). Before
             * an epoch's grid barrier wait and ghost rows (5), so that the
             * in-cluster chain of one row a sweep never waits for them.
             * No handshake before a push into buffer nb: each receiver
             * thread read its columns of that halo row (level m - 1, this
             * block of sweep m - 1) before it pushed its own edge row of
             * level m to this CTA (same thread, later), whose complete_tx
             * is a cluster-scope release, and this CTA's wait for level m
             * from that neighbour (acquire) comes first. So the reuse is
             * ordered by the data; DJ_CGC_EMPTY keeps the old handshake (a
             * wait on both receivers' releases before the first push) as
             * an info row. */
            const int wait_empty = send && MODE == DJ_CGC_EMPTY && peers;
            if (top == DJ_DSMEM) {
                if (m > 0) {
                    const uint32_t q = 2u * (m & 1u);
                    cg_mbarrier_wait_parity_cluster(&full[q], (full_ph >> q) & 1u);
                    full_ph ^= 1u << q;
                }
                dj_rows(src, dst, base, nx, c0, r0, lo + 1);
                if (send && wait_empty) {
                    cg_mbarrier_wait_parity_cluster(&empty[nb], (empty_ph >> nb) & 1u);
                    empty_ph ^= 1u << nb;
                }
                if (send) /* my first row -> the upper CTA's bottom halo row */
                    cg_dsmem_st_async_v4_b32(cg_dsmem_addr(dj_at(dst, base_up, nx, c0, lo), rank - 1u),
                                             dj_bits(*dj_at(dst, base, nx, c0, lo)),
                                             cg_dsmem_addr(&full[2u * nb + 1u], rank - 1u));
            }
            if (bot == DJ_DSMEM) {
                if (m > 0) {
                    const uint32_t q = 2u * (m & 1u) + 1u;
                    cg_mbarrier_wait_parity_cluster(&full[q], (full_ph >> q) & 1u);
                    full_ph ^= 1u << q;
                }
                dj_rows(src, dst, base, nx, c0, hi - 1, r1);
                if (send && wait_empty && top != DJ_DSMEM) {
                    cg_mbarrier_wait_parity_cluster(&empty[nb], (empty_ph >> nb) & 1u);
                    empty_ph ^= 1u << nb;
                }
                if (send) /* my last row -> the lower CTA's top halo row */
                    cg_dsmem_st_async_v4_b32(cg_dsmem_addr(dj_at(dst, base_dn, nx, c0, hi - 1), rank + 1u),
                                             dj_bits(*dj_at(dst, base, nx, c0, hi - 1)),
                                             cg_dsmem_addr(&full[2u * nb], rank + 1u));
            }
        } else {
            /* 2. the halo rows (level m) from the neighbours in the cluster */
            if (m > 0 && (MODE == DJ_CG_PULL || MODE == DJ_CG_PUSH)) {
                ccg::this_cluster().barrier_wait();
                if (MODE == DJ_CG_PULL && top == DJ_DSMEM) /* the upper CTA's last row */
                    *dj_at(src, base, nx, c0, lo - 1) = *dj_at((m & 1u) ? up1 : up0, base_up, nx, c0, lo - 1);
                if (MODE == DJ_CG_PULL && bot == DJ_DSMEM) /* the lower CTA's first row */
                    *dj_at(src, base, nx, c0, hi) = *dj_at((m & 1u) ? dn1 : dn0, base_dn, nx, c0, hi);
            }
            /* 3. the rows that needed them */
            if (top == DJ_DSMEM)
                dj_rows(src, dst, base, nx, c0, r0, lo + 1);
            if (bot == DJ_DSMEM)
                dj_rows(src, dst, base, nx, c0, hi - 1, r1);
            /* 4. the edge rows of level m + 1 to the neighbours, the cluster
             * barrier's arrive (before 5, as cgc's pushes) */
            if (send && (MODE == DJ_CG_PULL || MODE == DJ_CG_PUSH)) {
                if (MODE == DJ_CG_PUSH && top == DJ_DSMEM)
                    *dj_at(nb ? up1 : up0, base_up, nx, c0, lo) = *dj_at(dst, base, nx, c0, lo);
                if (MODE == DJ_CG_PUSH && bot == DJ_DSMEM)
                    *dj_at(nb ? dn1 : dn0, base_dn, nx, c0, hi - 1) = *dj_at(dst, base, nx, c0, hi - 1);
                (void)ccg::this_cluster().barrier_arrive();
            }
        }
        /* 5. at an epoch's start: the grid barrier's wait, the epoch's ghost
         * rows (level L = m) from global memory, the rows that need them */
        if (epoch_start) {
            if (DJ_IS_CGC(MODE) || MODE == DJ_CGC_GLOBAL)
                cg_grid_barrier_wait(&cgrid, ctok);
            else
                grid.barrier_wait(static_cast<ccg::grid_group::arrival_token &&>(tok));
            const float *xg = pr.xg + (size_t)(e & 1u) * ny * nx + c0;
            if (top == DJ_GLOBAL)
                for (int i = lo - (int)d > 1 ? lo - (int)d : 1; i < lo; ++i)
                    *dj_at(src, base, nx, c0, i) = __ldcg((const float4 *)(xg + (size_t)i * nx));
            if (bot == DJ_GLOBAL)
                for (int i = hi; i < hi + (int)d && i < (int)ny - 1; ++i)
                    *dj_at(src, base, nx, c0, i) = __ldcg((const float4 *)(xg + (size_t)i * nx));
            if (d >= 2u && (top == DJ_GLOBAL || bot == DJ_GLOBAL))
                __syncthreads(); /* ghost rows beyond the first are read across columns */
            if (top == DJ_GLOBAL)
                dj_rows(src, dst, base, nx, c0, r0, lo + 1);
            if (bot == DJ_GLOBAL)
                dj_rows(src, dst, base, nx, c0, hi - 1, r1);
        }
        if (m + 1u >= S)
            break;
        /* 6. at an epoch's end: the rows other groups need as ghosts, then
         * the grid barrier's arrive (its wait: the next epoch's start, step 5) */
        if (j + 1u == d && MODE != DJ_FROZEN) {
            const uint32_t d2 = k < S - (m + 1u) ? k : S - (m + 1u);
            float *xg = pr.xg + (size_t)((e + 1u) & 1u) * ny * nx + c0;
            for (int i = lo; i < hi; ++i)
                if ((GLO > 0 && i < GLO + (int)d2) || (GHI < (int)ny && i >= GHI - (int)d2))
                    *(float4 *)(xg + (size_t)i * nx) = *dj_at(dst, base, nx, c0, i);
            if (DJ_IS_CGC(MODE) || MODE == DJ_CGC_GLOBAL)
                ctok = cg_grid_barrier_arrive(&cgrid);
            else
                tok = grid.barrier_arrive();
        }
    }
    for (int i = lo; i < hi; ++i)
        *(float4 *)(pr.out + (size_t)i * nx + c0) = *dj_at((S & 1u) ? buf1 : buf0, base, nx, c0, i);
    /* no CTA leaves while a neighbour may still touch its shared memory */
    if (DJ_IS_CGC(MODE)) {
        cg_cluster_t cl = cg_this_cluster();
        cg_cluster_exit_sync(&cl);
    } else if (DJ_CLUSTERED(MODE)) {
        ccg::this_cluster().sync();
    }
}

/* --- the variants ------------------------------------------------------------------ */

#define DJ_OP "workload: Jacobi 2-D, halos k deep, grid barrier every k sweeps"
#define DJ_OP_INFO(what) "workload: Jacobi 2-D halos k deep (info: " what ")"
#define DJ_NX 512u
#define DJ_NY 1024u
#define DJ_SWEEPS(quick) ((quick) ? 200u : 2000u)
#define DJ_TARGET 0.85

typedef struct dj_kind {
    const void *fn;
    int mode;
    uint32_t balance; /* clustered kinds: bands balanced for the ghost rows (dj_band_lo) */
    const char *name;
    const char *op;   /* its info row's operation */
} dj_kind_t;

/* The kinds; the target row takes the fastest (kind, k) of the cgc kinds
 * (mode DJ_CGC: the first two), the anchor the fastest of the C++ ones. */
static const dj_kind_t dj_kinds[] = {
    {(const void *)kw_dj<DJ_CGC>, DJ_CGC, 1,
     "cgc: clusters, DSMEM push (st.async onto the neighbour's full mbarrier) every sweep, the cluster's edge CTAs "
     "with fewer rows, cg grid barrier every k",
     DJ_OP_INFO("cgc, balanced bands, at its best k")},
    {(const void *)kw_dj<DJ_CGC>, DJ_CGC, 0, "cgc: as above, uniform bands", DJ_OP_INFO("cgc, uniform bands, at its best k")},
    {(const void *)kw_dj<DJ_CGC_EMPTY>, DJ_CGC_EMPTY, 1,
     "cgc, balanced bands, with the empty-mbarrier handshake (the 2026-11-28 form)",
     DJ_OP_INFO("cgc with the empty handshake, balanced, at its best k")},
    {(const void *)kw_dj<DJ_CG_GLOBAL>, DJ_CG_GLOBAL, 0,
     "C++ CG (a): global halos k deep, split grid barrier every k, no cluster", DJ_OP_INFO("anchor kind a at its best k")},
    {(const void *)kw_dj<DJ_CG_PULL>, DJ_CG_PULL, 0,
     "C++ CG (b): clusters, map_shared_rank loads + split cluster barrier every sweep, split grid barrier every k",
     DJ_OP_INFO("anchor kind b at its best k")},
    {(const void *)kw_dj<DJ_CG_PULL>, DJ_CG_PULL, 1, "C++ CG (b), the cluster's edge CTAs with fewer rows",
     DJ_OP_INFO("anchor kind b, balanced bands, at its best k")},
    {(const void *)kw_dj<DJ_CG_PUSH>, DJ_CG_PUSH, 0,
     "C++ CG (c): clusters, map_shared_rank stores + split cluster barrier every sweep, split grid barrier every k",
     DJ_OP_INFO("anchor kind c at its best k")},
    {(const void *)kw_dj<DJ_CG_PUSH>, DJ_CG_PUSH, 1, "C++ CG (c), the cluster's edge CTAs with fewer rows",
     DJ_OP_INFO("anchor kind c, balanced bands, at its best k")},
    {(const void *)kw_dj<DJ_CGC_GLOBAL>, DJ_CGC_GLOBAL, 0,
     "cgc: global halos k deep, cg grid barrier every k, no cluster", DJ_OP_INFO("cgc without clusters at its best k")},
    {(const void *)kw_dj<DJ_FROZEN>, DJ_FROZEN, 0,
     "probe: no exchange, no barrier, halos frozen at level 0 (k unused; checked against the frozen-halo model)",
     DJ_OP_INFO("probe: no exchange, no barrier")},
};
#define DJ_NKINDS (sizeof dj_kinds / sizeof dj_kinds[0])
static const uint32_t dj_ks[] = {1, 2, 4, 8, 16};
#define DJ_NK (sizeof dj_ks / sizeof dj_ks[0])
#define DJ_NCOMBO (DJ_NKINDS * DJ_NK)
static const uint32_t dj_clusters[3] = {2, 4, 8};

static void dj_config_name(char *buf, size_t len, uint32_t sweeps, uint32_t C)
{
    snprintf(buf, len, "%ux%u, %u sweeps, k 1/2/4/8/16, cluster %u", DJ_NX, DJ_NY, sweeps, C);
}

/* The rows of a series: the target row, then one info row per kind. */
static const char *dj_info_op(size_t i) { return dj_kinds[i - 1u].op; }

/* --list: the rows a run makes, in its order, without a GPU. */
static void dj_list(int quick)
{
    char config[96];
    for (size_t i = 0; i < 3; ++i) {
        dj_config_name(config, sizeof config, DJ_SWEEPS(quick), dj_clusters[i]);
        wsc_list_series(DJ_OP, DJ_TARGET, config, dj_info_op, DJ_NKINDS + 1u);
    }
}

typedef struct dj_ctx {
    wl_opts_t *o;
    wsc_field_t f; /* dout[i]: (kind i / DJ_NK, k dj_ks[i % DJ_NK]) of the series */
    float *dxg;
    float *want_frozen; /* the probe's model for frozen_G bands (0: not computed) */
    uint32_t frozen_G;
    wsc_timer_t timer;
    uint32_t G, C;        /* the series' grid and cluster size */
    const uint32_t *ks;   /* the series' k values (dj_ks, or the self-check's) */
    size_t nk;
    /* the launch being made */
    const dj_kind_t *kind;
    uint32_t k, nr;
    float *out;
} dj_ctx_t;

static cudaError_t dj_launch(void *vctx)
{
    dj_ctx_t *c = (dj_ctx_t *)vctx;
    dj_problem_t pr = {c->f.din, c->out, c->dxg, c->f.nx, c->f.ny, c->f.sweeps, c->k, c->nr, c->kind->balance};
    void *args[] = {&pr};
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    cfg.grid.x = c->G;
    cfg.block.x = DJ_THREADS(c->f.nx);
    if (DJ_CLUSTERED(c->kind->mode))
        cfg.cluster.x = c->C;
    cfg.dynamic_smem = dj_smem_bytes(c->f.nx, c->nr);
    cfg.cooperative = 1;
    cg_status_t st = cg_launch(&cfg, c->kind->fn, args);
    if (st != CG_SUCCESS) {
        fprintf(stderr, "wl_stencil_deep: cg_launch (%s, k %u, %u CTAs, cluster %u): %s: %s\n", c->kind->name, c->k,
                c->G, DJ_CLUSTERED(c->kind->mode) ? c->C : 1u, cg_status_string(st), cg_last_error_detail());
        return cudaErrorLaunchFailure;
    }
    return cudaGetLastError();
}

/* The series' callbacks (wsc_series_t): launch i is kind i / nk at k =
 * ks[i % nk], writing f.dout[i]. */
static int dj_select(void *vctx, size_t i)
{
    dj_ctx_t *c = (dj_ctx_t *)vctx;
    c->kind = &dj_kinds[i / c->nk];
    c->k = c->ks[i % c->nk];
    c->out = c->f.dout[i];
    c->nr = dj_buffer_rows(c->f.ny, c->G, DJ_CLUSTERED(c->kind->mode) ? c->C : 1u, c->k, c->kind->balance);
    const char *bad = dj_problem_error(c->f.nx, c->f.ny, c->G, c->k, c->nr);
    if (bad) {
        fprintf(stderr, "wl_stencil_deep: %s, k %u, %u CTAs: %s\n", c->kind->name, c->k, c->G, bad);
        ++c->o->errors;
        return 1;
    }
    return 0;
}

static int dj_verify(void *vctx)
{
    dj_ctx_t *c = (dj_ctx_t *)vctx;
    char what[256];
    snprintf(what, sizeof what, "%s (k %u, %u CTAs, cluster %u, %u sweeps%s)", c->kind->name, c->k, c->G,
             DJ_CLUSTERED(c->kind->mode) ? c->C : 1u, c->f.sweeps, c->kind->balance ? ", balanced bands" : "");
    const float *want = c->f.want;
    if (c->kind->mode == DJ_FROZEN) { /* the frozen-halo model for G bands, computed once per G */
        if (c->frozen_G != c->G &&
            st_host_jacobi(c->f.hin, c->want_frozen, c->f.nx, c->f.ny, c->f.sweeps, c->G, c->f.host_threads) != 0) {
            fprintf(stderr, "wl_stencil_deep: host memory ran out\n");
            exit(1);
        }
        c->frozen_G = c->G;
        want = c->want_frozen;
    }
    return wsc_verify(c->o, &c->f, c->out, want, what);
}

static int dj_setup(dj_ctx_t *c, wl_opts_t *o, uint32_t nx, uint32_t ny, uint32_t sweeps, const uint32_t *ks,
                    size_t nk, uint64_t *x)
{
    memset(c, 0, sizeof *c);
    c->o = o;
    c->ks = ks;
    c->nk = nk;
    c->want_frozen = (float *)malloc((size_t)nx * ny * 4u);
    if (!c->want_frozen) {
        fprintf(stderr, "wl_stencil_deep: host memory ran out\n");
        exit(1);
    }
    return wsc_field_setup(&c->f, o, nx, ny, sweeps, DJ_NKINDS * nk, x) ||
           WL_CHECK(o, cudaMalloc((void **)&c->dxg, 2u * (size_t)nx * ny * 4u)) || wsc_timer_init(&c->timer, o);
}

static void dj_teardown(dj_ctx_t *c)
{
    wsc_field_free(&c->f);
    cudaFree(c->dxg);
    free(c->want_frozen);
    wsc_timer_free(&c->timer);
    memset(c, 0, sizeof *c);
}

static int dj_clustered(const void *vctx, size_t i)
{
    return DJ_CLUSTERED(dj_kinds[i / ((const dj_ctx_t *)vctx)->nk].mode);
}

static wsc_series_t dj_series_of(dj_ctx_t *c)
{
    wsc_series_t s = {c->o, &c->timer, &c->f, c, dj_select, dj_launch, dj_verify};
    return s;
}

/* --- self-check: every kernel at small sizes ------------------------------------------ */

static int dj_self_check(wl_opts_t *o, uint64_t seed)
{
    static const struct {
        uint32_t nx, ny, sweeps;
    } sizes[] = {{256, 256, 300}, {384, 250, 97}, {128, 40, 53}};
    static const uint32_t ks[] = {1, 2, 3, 4, 8, 16};
    const size_t nk = sizeof ks / sizeof ks[0];
    uint64_t x = seed * 0x9e3779b97f4a7c15ull | 1u;
    int wrong = 0;
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; ++z) {
        dj_ctx_t c;
        if (dj_setup(&c, o, sizes[z].nx, sizes[z].ny, sizes[z].sweeps, ks, nk, &x)) {
            dj_teardown(&c);
            return wrong + 1;
        }
        const wsc_series_t s = dj_series_of(&c);
        c.G = 16u;
        const int w = wsc_check_all(&s, &c.C, dj_clusters, 3, dj_clustered,
                                    "on 16 CTAs every kernel at k = 1, 2, 3, 4, 8, 16 (the clustered ones in clusters "
                                    "of 2, 4, 8)");
        wrong += w;
        dj_teardown(&c);
    }
    return wrong;
}

/* --- the full size ----------------------------------------------------------------------- */

static size_t dj_smem_of(const void *arg, uint32_t G)
{
    const dj_ctx_t *c = (const dj_ctx_t *)arg;
    uint32_t nr = 0;
    for (uint32_t bal = 0; bal < 2u; ++bal) { /* the widest buffer any kind of the series asks for */
        const uint32_t a = dj_buffer_rows(c->f.ny, G, c->C, DJ_MAX_K, bal), b = dj_buffer_rows(c->f.ny, G, 1u, DJ_MAX_K, 0);
        nr = a > nr ? a : nr;
        nr = b > nr ? b : nr;
    }
    return dj_smem_bytes(c->f.nx, nr);
}

/* The fastest (kind, k) of a series among the kinds `pick` accepts: its
 * index in ns[], or -1 when none ran right; *w: one of them was wrong. */
static int dj_fastest(const double *ns, const int *wrong, int (*pick)(size_t q), int *w)
{
    int best = -1;
    *w = 0;
    for (size_t i = 0; i < DJ_NCOMBO; ++i) {
        if (!pick(i / DJ_NK))
            continue;
        *w |= wrong[i];
        if (ns[i] > 0 && (best < 0 || ns[i] < ns[best]))
            best = (int)i;
    }
    return best;
}

static size_t dj_pick_q; /* the kind dj_pick_one accepts */
static int dj_pick_cgc(size_t q) { return dj_kinds[q].mode == DJ_CGC; }
static int dj_pick_cpp(size_t q) { return DJ_CPP(dj_kinds[q].mode); }
static int dj_pick_one(size_t q) { return q == dj_pick_q; }

/* "name, at k K" of combo i, or `none` when i < 0. */
static void dj_combo_name(char *buf, size_t len, int i, const char *none)
{
    if (i >= 0)
        snprintf(buf, len, "%s, at k %u", dj_kinds[i / (int)DJ_NK].name, dj_ks[i % (int)DJ_NK]);
    else
        snprintf(buf, len, "%s", none);
}

/* The rows of one series: cgc at its best (kind, k) against the fastest C++
 * (kind, k), then every kind at its best k against the same anchor, with
 * its time at each k in the note. */
static void dj_series_rows(dj_ctx_t *c, FILE *csv, const double *ns, const int *wrong)
{
    int anc_wrong = 0, cgc_wrong = 0;
    const int anc = dj_fastest(ns, wrong, dj_pick_cpp, &anc_wrong), best = dj_fastest(ns, wrong, dj_pick_cgc, &cgc_wrong);
    const double anc_ns = anc >= 0 ? ns[anc] : 0;
    char anc_what[224], what[224], config[96], note[512];
    dj_combo_name(anc_what, sizeof anc_what, anc, "the fastest C++ CG kernel (none ran right)");
    dj_config_name(config, sizeof config, c->f.sweeps, c->C);
    dj_combo_name(what, sizeof what, best, "cgc (none ran right)");
    snprintf(note, sizeof note,
             "%u CTAs; the fastest of the cgc kinds and of the C++ CG kinds over k = 1, 2, 4, 8, 16 (per kind and k: the "
             "info rows); every point of each last timed launch = host (plain Jacobi, bit for bit)",
             c->G);
    wsc_row(c->o, csv, DJ_OP, config, what, anc_what, best >= 0 ? ns[best] : 0, anc_ns, DJ_TARGET,
            cgc_wrong || anc_wrong, note);
    for (size_t q = 0; q < DJ_NKINDS; ++q) {
        int w = 0;
        dj_pick_q = q;
        const int b = dj_fastest(ns, wrong, dj_pick_one, &w);
        size_t len = (size_t)snprintf(note, sizeof note, "%u CTAs; ns/sweep at k = 1, 2, 4, 8, 16:", c->G);
        for (size_t ki = 0; ki < DJ_NK; ++ki)
            len += (size_t)snprintf(note + len, sizeof note - len, " %.0f", ns[q * DJ_NK + ki]);
        snprintf(note + len, sizeof note - len, "; every point of each last timed launch = host%s",
                 dj_kinds[q].mode == DJ_FROZEN ? " (frozen-halo model)" : " (plain Jacobi, bit for bit)");
        dj_combo_name(what, sizeof what, b, dj_kinds[q].name);
        wsc_row(c->o, csv, dj_kinds[q].op, config, what, anc_what, b >= 0 ? ns[b] : 0, anc_ns, 0, w, note);
    }
}

static void dj_full(wl_opts_t *o, FILE *csv, uint64_t *x)
{
    dj_ctx_t c;
    if (dj_setup(&c, o, DJ_NX, DJ_NY, DJ_SWEEPS(o->quick), dj_ks, DJ_NK, x)) {
        dj_teardown(&c);
        return;
    }
    const wsc_series_t s = dj_series_of(&c);
    for (size_t ci = 0; ci < 3; ++ci) {
        c.C = dj_clusters[ci];
        c.G = wsc_grid(o, dj_kinds[0].fn, dj_kinds[0].name, DJ_THREADS(DJ_NX), c.C, 128u, dj_smem_of, &c);
        if (c.G == 0)
            continue;
        double ns[DJ_NCOMBO];
        int wrong[DJ_NCOMBO];
        wsc_run_series(&s, ns, wrong);
        for (size_t i = 0; i < DJ_NCOMBO; ++i)
            ns[i] = ns[i] * 1e6 / c.f.sweeps;
        dj_series_rows(&c, csv, ns, wrong);
    }
    dj_teardown(&c);
}

int main(int argc, char **argv)
{
    return wsc_main(argc, argv, "wl_stencil_deep", DJ_OP, dj_list, dj_self_check, dj_full);
}

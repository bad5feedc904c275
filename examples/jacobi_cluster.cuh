/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/jacobi_cluster.cuh — a persistent 2-D Jacobi solver whose CTAs keep
 * their part of the grid in shared memory for every sweep; halo rows move
 * between the CTAs of a cluster through distributed shared memory (DSMEM)
 * and between clusters through global memory, one split grid barrier a
 * sweep ordering both. Shared by the example (examples/jacobi_cluster.cu)
 * and the workload benchmark (bench/workloads/wl_stencil.cu), whose anchors
 * are built from the same pieces with C++ Cooperative Groups.
 *
 * The problem: u (ny rows x nx columns, fp32, row-major); one sweep replaces
 * every interior point by the mean of its four neighbours,
 *     u'[i][j] = 0.25 * ((u[i-1][j] + u[i+1][j]) + (u[i][j-1] + u[i][j+1])),
 * and keeps the boundary (rows 0 and ny-1, columns 0 and nx-1) fixed.
 * (st_point: the one expression, in this order, used by device and host, so
 * their results agree bit for bit.)
 *
 * Decomposition: G CTAs (gridDim.x), CTA g owns rows [g ny / G, (g+1) ny / G)
 * (its band, R rows), all columns. A CTA has 32 + nx / 4 threads: warp 0
 * does the CTA's synchronization (the grid barrier's arrival), so that
 * waiting on an atomic never delays the arithmetic; compute thread t
 * (threadIdx.x - 32) owns columns 4t .. 4t+3 of every row of the band. The
 * band lives in shared memory; each sweep updates it in place, walking down
 * the rows with the old row above and below in registers, so a thread never
 * reads a value another thread has already replaced:
 *   - vertical neighbours: the thread's own columns (registers);
 *   - horizontal neighbours inside a warp: __shfl_up/down of the old row;
 *   - across a warp boundary: a small "edge" array that holds, for every warp
 *     and row, the old first and last column (written by lanes 0 and 31 when
 *     they produce the values, double-buffered by sweep parity; one block
 *     barrier per sweep orders it);
 *   - the rows just above and below the band (halos): from the neighbouring
 *     CTAs, as below.
 *
 * One sweep s (level s -> level s + 1) of CTA g:
 *   1. cg_grid_barrier_wait (s > 0): every CTA's level-s edge rows are out;
 *      read the level-s halos: from a neighbour in the same cluster, a DSMEM
 *      load (ld.shared::cluster) of the row it published in its own shared
 *      memory; from a neighbour in another cluster, the row it wrote to
 *      global memory;
 *   2. compute the band's first and last rows (they need the halos) and
 *      publish them at once: into this CTA's own shared memory for a
 *      neighbour in the cluster, to global memory for one outside; then
 *      cg_grid_barrier_arrive;
 *   3. compute the interior rows while the barrier travels.
 * The grid barrier is split: its latency hides behind step 3.
 *
 * Halo modes (st_init's `halo`): ST_HALO_PULL is the example's (above).
 * ST_HALO_STORE writes the edge rows into the neighbour's halo buffer with
 * DSMEM stores (st.shared::cluster) instead, so the reads of step 1 are
 * local; ST_HALO_GLOBAL sends every halo through global memory;
 * ST_HALO_FROZEN exchanges nothing (a timing floor). `generic` (st_init)
 * addresses the neighbour's shared memory through generic pointers (what
 * C++ CG's cluster.map_shared_rank returns) instead of 32-bit
 * shared::cluster addresses (cg_dsmem_addr): the benchmark's comparison.
 * Until 2026-11-28 the example pushed its halos with st.async onto the
 * neighbour's mbarriers (full/empty handshake); with a grid barrier every
 * sweep that handshake orders nothing the barrier does not, and it cost
 * ~10% on an H200 (docs/design/workloads.md, Jacobi).
 *
 * Memory order (no mbarrier: the grid barrier of every sweep is the order).
 * Its arrive is a block barrier and then a gpu-scope release by thread 0;
 * its wait a gpu-scope acquire by thread 0 and then a block barrier. gpu
 * scope contains the cluster, so it orders shared::cluster accesses as it
 * orders global ones:
 *   - RAW: a level-L row is written (step 2 of sweep L - 1) before the
 *     writer's arrive of that sweep, and read (step 1 of sweep L) after the
 *     reader's wait of the same phase;
 *   - WAR: rows and halo buffers are double-buffered by level parity. The
 *     next write into the buffer that held level L is level L + 2's, in
 *     sweep L + 1, after the writer's wait of sweep L + 1's phase; the read
 *     of level L (sweep L) precedes the reader's arrive of that phase.
 * Global halo rows: plain stores, loads with ld.global.cg (L2: no stale L1
 * line) after the wait. Nothing is sent in the last sweep; a CTA of a
 * cluster exits through cg_cluster_exit_sync, so no CTA leaves while a
 * neighbour may still read its shared memory.
 */
#ifndef CGX_JACOBI_CLUSTER_CUH
#define CGX_JACOBI_CLUSTER_CUH

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cgc/cg/cg.h>

/* The one update, device and host. */
static __host__ __device__ __forceinline__ float st_point(float up, float dn, float left, float right)
{
    return 0.25f * ((up + dn) + (left + right));
}

#if defined(__CUDACC__)
/* A thread's four columns c0 .. c0+3 of one row: the old row above (up), the
 * row itself (cur), below (dn), and the columns just left and right of the
 * four (ignored at the domain's edge); nx columns in all. The first and last
 * columns of the domain keep their values. */
static __host__ __device__ __forceinline__ float4 st_point4(float4 up, float4 cur, float4 dn, float left, float right,
                                                          uint32_t c0, uint32_t nx)
{
    float4 v;
    v.x = c0 == 0 ? cur.x : st_point(up.x, dn.x, left, cur.y);
    v.y = st_point(up.y, dn.y, cur.x, cur.z);
    v.z = st_point(up.z, dn.z, cur.y, cur.w);
    v.w = c0 + 4u == nx ? cur.w : st_point(up.w, dn.w, cur.z, right);
    return v;
}
#endif

/* Halo kinds, per side of a band. */
#define ST_NONE 0   /* the domain's edge: no neighbour */
#define ST_GLOBAL 1 /* a neighbour in another cluster: global memory */
#define ST_PULL 2   /* a neighbour in this cluster: it reads this CTA's published row by DSMEM */
#define ST_STORE 3  /* a neighbour in this cluster: this CTA stores into its halo buffer by DSMEM */

/* How a kernel moves halos (st_init's `halo`). Every mode leans on the grid
 * barrier of every sweep for its order (see the top of this file). */
#define ST_HALO_PULL 0   /* DSMEM loads of the neighbour's published rows inside a cluster (the example) */
#define ST_HALO_STORE 1  /* DSMEM stores into the neighbour's halo buffer inside a cluster */
#define ST_HALO_GLOBAL 2 /* global for every neighbour */
#define ST_HALO_FROZEN 3 /* no exchange: every sweep reuses the level-0 halos (a timing probe) */

/* The halo modes that use the cluster's shared memory. */
#define ST_HALO_USES_CLUSTER(halo) ((halo) == ST_HALO_PULL || (halo) == ST_HALO_STORE)

#define ST_MAX_NX 3968u /* 32 + nx / 4 threads, at most 1024 */

/* Threads of a CTA for nx columns. */
#define ST_THREADS(nx) (32u + (nx) / 4u)

/* What one launch solves. */
typedef struct st_problem {
    const float *in; /* ny x nx, level 0 */
    float *out;      /* ny x nx, level `sweeps` */
    float *xch;      /* global halo rows: [2 parities][G][2: top, bottom row][nx] */
    uint32_t nx, ny, sweeps;
} st_problem_t;

/* Rows of the largest band of G. */
static __host__ __device__ __forceinline__ uint32_t st_rows_max(uint32_t ny, uint32_t G) { return (ny + G - 1u) / G; }

/* Dynamic shared memory of a CTA: the band (rows_max x nx), the halo
 * buffers [2][2][nx], the edge array [2][2][nx / 128][rows_max]. */
static __host__ __device__ __forceinline__ size_t st_smem_bytes(uint32_t nx, uint32_t ny, uint32_t G)
{
    const size_t rm = st_rows_max(ny, G);
    return 4u * (rm * nx + 4u * (size_t)nx + 4u * (nx / 128u) * rm);
}

/* Floats of the global exchange array for G CTAs. */
static inline size_t st_xch_floats(uint32_t nx, uint32_t G) { return (size_t)4u * G * nx; }

/* NULL when (nx, ny, G) can run, else why not. */
static inline const char *st_problem_error(uint32_t nx, uint32_t ny, uint32_t G)
{
    if (nx < 128u || nx > ST_MAX_NX || nx % 128u)
        return "nx must be a multiple of 128 from 128 to 3968 (32 + nx / 4 threads per CTA, whole warps)";
    if (G == 0 || ny / G < 2u)
        return "every CTA needs at least 2 rows (ny >= 2 G)";
    return NULL;
}

#if CG_DEVICE_CODE_VISIBLE

/* One thread's view of its CTA's part of the solve. */
typedef struct st_state {
    float *u;              /* the band in shared memory, R rows of nx */
    float *hb;             /* halo buffers [2][2][nx]: [parity][0 top / 1 bottom]; ST_PULL:
                            * this CTA's published [parity][0 first / 1 last row] */
    float *peer_up, *peer_dn; /* generic: the upper / lower neighbour's hb (the caller may
                               * remap them with its own call) */
    uint32_t ca_up, ca_dn; /* not generic: the same as shared::cluster addresses */
    float *edge;           /* [2 parity][2: 0 first / 1 last column][nw][rows_max] */
    float *xch, *out;      /* the problem's exchange rows and output */
    uint32_t nx, ny, S, rows_max;
    uint32_t g, G, lo, R;  /* this band: rows lo .. lo + R - 1 */
    int compute;           /* a compute thread (warps 1..); warp 0 synchronizes */
    uint32_t lane, w, nw, c0; /* w: compute warp 0 .. nw-1 */
    uint32_t rank, csize;  /* in the cluster */
    int up, dn;            /* halo kinds (ST_NONE / ST_GLOBAL / ST_PULL / ST_STORE) */
    int frozen, generic;
    float4 old0, oldR;     /* old rows 0 and R-1 (the interior's first up / last down) */
    float4 top0, bot0;     /* the level-0 halos */
} st_state_t;

static __device__ __forceinline__ float4 *st_row_ptr(const st_state_t *s, uint32_t r)
{
    return (float4 *)(s->u + (size_t)r * s->nx) + (s->c0 / 4u);
}

static __device__ __forceinline__ float *st_edge(const st_state_t *s, uint32_t par, uint32_t side, uint32_t w,
                                                 uint32_t r)
{
    return s->edge + (((size_t)par * 2u + side) * s->nw + w) * s->rows_max + r;
}

/* This thread's four floats at float offset `off` of a neighbour's hb
 * (up: the upper one), loaded / stored by DSMEM. */
static __device__ __forceinline__ float4 st_peer_ld(const st_state_t *s, int up, uint32_t off)
{
    if (s->generic)
        return *(const float4 *)((up ? s->peer_up : s->peer_dn) + off);
    const uint4 v = cg_dsmem_ld_v4((up ? s->ca_up : s->ca_dn) + 4u * off);
    return make_float4(__uint_as_float(v.x), __uint_as_float(v.y), __uint_as_float(v.z), __uint_as_float(v.w));
}

static __device__ __forceinline__ void st_peer_st(const st_state_t *s, int up, uint32_t off, float4 v)
{
    if (s->generic)
        *(float4 *)((up ? s->peer_up : s->peer_dn) + off) = v;
    else
        cg_dsmem_st_v4((up ? s->ca_up : s->ca_dn) + 4u * off,
                       make_uint4(__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z),
                                  __float_as_uint(v.w)));
}

/* Every thread: geometry, shared memory carve-up, the band and the level-0
 * halos from pr->in, the level-0 edge array. `generic`: reach the
 * neighbours' shared memory through generic pointers (else shared::cluster
 * addresses). Ends with a cluster barrier (the halo modes that use the
 * cluster: the neighbours are then running, so their shared memory may be
 * touched) or a block barrier. */
static __device__ __forceinline__ void st_init(st_state_t *s, const st_problem_t *pr, int halo, int generic)
{
    extern __shared__ __align__(16) unsigned char st_smem[];
    cg_cluster_t cl = cg_this_cluster();
    s->xch = pr->xch;
    s->out = pr->out;
    s->nx = pr->nx;
    s->ny = pr->ny;
    s->S = pr->sweeps;
    s->G = gridDim.x;
    s->g = blockIdx.x;
    s->rows_max = st_rows_max(s->ny, s->G);
    s->lo = (uint32_t)((uint64_t)s->g * s->ny / s->G);
    s->R = (uint32_t)((uint64_t)(s->g + 1u) * s->ny / s->G) - s->lo;
    s->compute = threadIdx.x >= 32u;
    s->lane = threadIdx.x % 32u;
    s->w = threadIdx.x / 32u - (s->compute ? 1u : 0u);
    s->nw = s->nx / 128u;
    s->c0 = s->compute ? 4u * (threadIdx.x - 32u) : 0u;
    s->rank = cg_cluster_block_rank(&cl);
    s->csize = cg_cluster_num_blocks(&cl);
    s->frozen = halo == ST_HALO_FROZEN;
    s->generic = generic;
    s->u = (float *)st_smem;
    s->hb = s->u + (size_t)s->rows_max * s->nx;
    s->edge = s->hb + 4u * (size_t)s->nx;
    const int dsmem = ST_HALO_USES_CLUSTER(halo);
    const int kind = halo == ST_HALO_STORE ? ST_STORE : ST_PULL;
    s->up = s->g == 0 ? ST_NONE : (dsmem && s->rank > 0 ? kind : ST_GLOBAL);
    s->dn = s->g + 1u == s->G ? ST_NONE : (dsmem && s->rank + 1u < s->csize ? kind : ST_GLOBAL);
    const int pu = s->up == ST_PULL || s->up == ST_STORE, pd = s->dn == ST_PULL || s->dn == ST_STORE;
    s->peer_up = pu && generic ? (float *)cg_cluster_map_shared_rank(&cl, s->hb, s->rank - 1u) : (float *)0;
    s->peer_dn = pd && generic ? (float *)cg_cluster_map_shared_rank(&cl, s->hb, s->rank + 1u) : (float *)0;
    s->ca_up = pu && !generic ? cg_dsmem_addr(s->hb, s->rank - 1u) : 0u;
    s->ca_dn = pd && !generic ? cg_dsmem_addr(s->hb, s->rank + 1u) : 0u;
    /* the band, the level-0 halos, the level-0 edges */
    const float4 *in = (const float4 *)pr->in + s->c0 / 4u;
    const size_t row4 = s->nx / 4u;
    for (uint32_t r = 0; s->compute && r < s->R; ++r) {
        const float4 v = in[(size_t)(s->lo + r) * row4];
        *st_row_ptr(s, r) = v;
        if (s->lane == 0)
            *st_edge(s, 0, 0, s->w, r) = v.x;
        if (s->lane == 31)
            *st_edge(s, 0, 1, s->w, r) = v.w;
    }
    const float4 zero = make_float4(0.f, 0.f, 0.f, 0.f);
    s->top0 = s->compute && s->up != ST_NONE ? in[(size_t)(s->lo - 1u) * row4] : zero;
    s->bot0 = s->compute && s->dn != ST_NONE ? in[(size_t)(s->lo + s->R) * row4] : zero;
    s->old0 = s->oldR = zero;
    if (dsmem)
        cg_cluster_sync(&cl);
    else
        __syncthreads();
}

/* 1. (compute threads, after the grid barrier's wait) The level-`sweep`
 * halos: level 0 from the input; a cluster neighbour's from this CTA's halo
 * buffer (ST_STORE) or from its published row (ST_PULL: a DSMEM load); a
 * global neighbour's from the exchange rows. Frozen: level 0. */
static __device__ __forceinline__ void st_halos(const st_state_t *s, uint32_t sweep, float4 *top, float4 *bot)
{
    *top = s->top0;
    *bot = s->bot0;
    if (sweep == 0 || s->frozen)
        return;
    const uint32_t b = sweep & 1u;
    const float4 *xch = (const float4 *)s->xch;
    const size_t row4 = s->nx / 4u, q = s->c0 / 4u;
    if (s->up == ST_STORE)
        *top = *(const float4 *)(s->hb + ((size_t)b * 2u + 0u) * s->nx + s->c0);
    else if (s->up == ST_PULL) /* the upper band's published last row */
        *top = st_peer_ld(s, 1, (b * 2u + 1u) * s->nx + s->c0);
    else if (s->up == ST_GLOBAL) /* the upper band's bottom row */
        *top = __ldcg(xch + (((size_t)b * s->G + (s->g - 1u)) * 2u + 1u) * row4 + q);
    if (s->dn == ST_STORE)
        *bot = *(const float4 *)(s->hb + ((size_t)b * 2u + 1u) * s->nx + s->c0);
    else if (s->dn == ST_PULL) /* the lower band's published first row */
        *bot = st_peer_ld(s, 0, (b * 2u + 0u) * s->nx + s->c0);
    else if (s->dn == ST_GLOBAL) /* the lower band's top row */
        *bot = __ldcg(xch + (((size_t)b * s->G + (s->g + 1u)) * 2u + 0u) * row4 + q);
}

/* Row r's new values from the old rows up / cur / dn of this thread's four
 * columns; `par` = the edge array of the old level. Every lane calls it
 * (shuffles). Lanes 0 and 31 record the new first / last column in the edge
 * array of the next level. */
static __device__ __forceinline__ float4 st_row(const st_state_t *s, uint32_t par, uint32_t r, float4 up, float4 cur,
                                                float4 dn)
{
    float left = __shfl_up_sync(0xffffffffu, cur.w, 1);
    float right = __shfl_down_sync(0xffffffffu, cur.x, 1);
    if (s->lane == 0)
        left = s->w > 0 ? *st_edge(s, par, 1, s->w - 1u, r) : 0.f;
    if (s->lane == 31)
        right = s->w + 1u < s->nw ? *st_edge(s, par, 0, s->w + 1u, r) : 0.f;
    const float4 v = st_point4(up, cur, dn, left, right, s->c0, s->nx);
    if (s->lane == 0)
        *st_edge(s, par ^ 1u, 0, s->w, r) = v.x;
    if (s->lane == 31)
        *st_edge(s, par ^ 1u, 1, s->w, r) = v.w;
    return v;
}

/* 2. (compute threads) The band's first and last rows of level sweep + 1,
 * stored in place and sent to the neighbours that will read them (none in
 * the last sweep). */
static __device__ __forceinline__ void st_edge_rows(st_state_t *s, uint32_t sweep, float4 top, float4 bot)
{
    const uint32_t par = sweep & 1u, R = s->R;
    const float4 o0 = *st_row_ptr(s, 0), o1 = *st_row_ptr(s, 1), oR2 = *st_row_ptr(s, R - 2u),
                 oR = *st_row_ptr(s, R - 1u);
    /* the domain's first and last rows stay (uniform per CTA: no divergence
     * around the shuffles) */
    const float4 n0 = s->lo == 0 ? o0 : st_row(s, par, 0, top, o0, o1);
    const float4 nR = s->lo + R == s->ny ? oR : st_row(s, par, R - 1u, oR2, oR, bot);
    if (s->lo == 0 && s->lane == 0)
        *st_edge(s, par ^ 1u, 0, s->w, 0) = n0.x;
    if (s->lo == 0 && s->lane == 31)
        *st_edge(s, par ^ 1u, 1, s->w, 0) = n0.w;
    if (s->lo + R == s->ny && s->lane == 0)
        *st_edge(s, par ^ 1u, 0, s->w, R - 1u) = nR.x;
    if (s->lo + R == s->ny && s->lane == 31)
        *st_edge(s, par ^ 1u, 1, s->w, R - 1u) = nR.w;
    *st_row_ptr(s, 0) = n0;
    *st_row_ptr(s, R - 1u) = nR;
    s->old0 = o0;
    s->oldR = oR;
    if (s->frozen || sweep + 1u >= s->S)
        return; /* level sweep + 1 is read by nobody else */
    const uint32_t nb = (sweep + 1u) & 1u;
    /* ST_STORE: into the neighbour's halo buffer; ST_PULL: into this CTA's
     * own, where the neighbour reads it (the grid barrier orders both) */
    if (s->up == ST_STORE) /* my first row -> the upper CTA's bottom halo */
        st_peer_st(s, 1, (nb * 2u + 1u) * s->nx + s->c0, n0);
    else if (s->up == ST_PULL)
        *(float4 *)(s->hb + ((size_t)nb * 2u + 0u) * s->nx + s->c0) = n0;
    if (s->dn == ST_STORE) /* my last row -> the lower CTA's top halo */
        st_peer_st(s, 0, (nb * 2u + 0u) * s->nx + s->c0, nR);
    else if (s->dn == ST_PULL)
        *(float4 *)(s->hb + ((size_t)nb * 2u + 1u) * s->nx + s->c0) = nR;
    float4 *xch = (float4 *)s->xch;
    const size_t row4 = s->nx / 4u, q = s->c0 / 4u;
    if (s->up == ST_GLOBAL)
        xch[(((size_t)nb * s->G + s->g) * 2u + 0u) * row4 + q] = n0;
    if (s->dn == ST_GLOBAL)
        xch[(((size_t)nb * s->G + s->g) * 2u + 1u) * row4 + q] = nR;
}

/* 3. (compute threads) Rows 1 .. R-2 of level sweep + 1, in place: the old row above in a
 * register (row 0's from st_edge_rows), the one below loaded before it is
 * replaced (row R-1's kept by st_edge_rows). None of them is the domain's
 * first or last row. */
static __device__ __forceinline__ void st_interior(const st_state_t *s, uint32_t sweep)
{
    const uint32_t par = sweep & 1u, R = s->R;
    if (R < 3u)
        return;
    float4 up = s->old0, cur = *st_row_ptr(s, 1);
    for (uint32_t r = 1; r + 1u < R; ++r) {
        const float4 dn = r + 2u == R ? s->oldR : *st_row_ptr(s, r + 1u);
        *st_row_ptr(s, r) = st_row(s, par, r, up, cur, dn);
        up = cur;
        cur = dn;
    }
}

/* (compute threads) The band to pr->out. */
static __device__ __forceinline__ void st_store(const st_state_t *s)
{
    float4 *out = (float4 *)s->out + s->c0 / 4u;
    const size_t row4 = s->nx / 4u;
    for (uint32_t r = 0; r < s->R; ++r)
        out[(size_t)(s->lo + r) * row4] = *st_row_ptr(s, r);
}

/* The cgc kernel body: launch cooperatively (cg_launch .cooperative = 1)
 * with ST_THREADS(nx) threads, st_smem_bytes(nx, ny, G) of dynamic shared
 * memory, a 1-D grid of G CTAs in clusters of any size along x (cluster 1:
 * every halo goes through global memory). The grid barrier is split: arrive
 * as soon as the band's edge rows are out, wait at the next sweep's start
 * (the interior's work hides the barrier). `generic`: as st_init (the
 * example passes 0). */
static __device__ __forceinline__ void st_jacobi(const st_problem_t *pr, int halo, int generic)
{
    st_state_t s;
    st_init(&s, pr, halo, generic);
    cg_grid_t grid = cg_this_grid();
    cg_token_t tok;
    tok._opaque = 0;
    for (uint32_t sweep = 0; sweep < s.S; ++sweep) {
        float4 top, bot;
        if (sweep > 0) {
            if (s.frozen)
                __syncthreads(); /* the edge array of the last level is complete */
            else
                cg_grid_barrier_wait(&grid, tok); /* every band's rows of level `sweep` are out */
        }
        if (s.compute) {
            st_halos(&s, sweep, &top, &bot);
            st_edge_rows(&s, sweep, top, bot);
        }
        if (!s.frozen && sweep + 1u < s.S)
            tok = cg_grid_barrier_arrive(&grid); /* a block barrier first: every halo read is done */
        if (s.compute)
            st_interior(&s, sweep);
    }
    if (s.compute)
        st_store(&s);
    if (ST_HALO_USES_CLUSTER(halo)) {
        cg_cluster_t cl = cg_this_cluster();
        cg_cluster_exit_sync(&cl);
    }
}

#endif /* CG_DEVICE_CODE_VISIBLE */

/* ---------------------------------------------------------------------------
 * Host reference (plain C; pthreads when `threads` > 1)
 * ------------------------------------------------------------------------- */

#include <pthread.h>

typedef struct st_host_job {
    const float *in, *src;
    float *dst;
    const unsigned char *top; /* frozen: row i is a band's first row (its upper neighbour stays at level 0) */
    const unsigned char *bot; /* frozen: row i is a band's last row */
    uint32_t nx, ny, r0, r1;
} st_host_job_t;

/* One sweep of rows r0 .. r1-1 from src to dst. */
static void *st_host_rows(void *arg)
{
    const st_host_job_t *j = (const st_host_job_t *)arg;
    const uint32_t nx = j->nx, ny = j->ny;
    for (uint32_t i = j->r0; i < j->r1; ++i) {
        const float *row = j->src + (size_t)i * nx;
        float *o = j->dst + (size_t)i * nx;
        if (i == 0 || i + 1u == ny) {
            memcpy(o, row, nx * sizeof(float));
            continue;
        }
        const float *up = (j->top && j->top[i] ? j->in : j->src) + (size_t)(i - 1u) * nx;
        const float *dn = (j->bot && j->bot[i] ? j->in : j->src) + (size_t)(i + 1u) * nx;
        o[0] = row[0];
        for (uint32_t c = 1; c + 1u < nx; ++c)
            o[c] = st_point(up[c], dn[c], row[c - 1u], row[c + 1u]);
        o[nx - 1u] = row[nx - 1u];
    }
    return NULL;
}

/* out = `sweeps` Jacobi sweeps of in (ny x nx), each sweep split over
 * `threads` host threads (a thread that cannot be started leaves its rows to
 * the caller's thread). frozen_G > 0: the timing probe's problem instead, G
 * bands that never see their neighbours' new rows (each band's halos stay at
 * level 0). Returns 0, or -1 when memory ran out. */
static inline int st_host_jacobi(const float *in, float *out, uint32_t nx, uint32_t ny, uint32_t sweeps,
                                 uint32_t frozen_G, unsigned threads)
{
    const size_t n = (size_t)nx * ny;
    float *a = (float *)malloc(n * sizeof(float)), *b = (float *)malloc(n * sizeof(float));
    unsigned char *top = NULL, *bot = NULL;
    pthread_t *tid = NULL;
    unsigned char *started = NULL;
    st_host_job_t *jobs = NULL;
    int rc = -1;
    if (threads == 0)
        threads = 1;
    if (threads > ny)
        threads = ny;
    tid = (pthread_t *)calloc(threads, sizeof(pthread_t));
    started = (unsigned char *)calloc(threads, 1);
    jobs = (st_host_job_t *)calloc(threads, sizeof(st_host_job_t));
    if (!a || !b || !tid || !started || !jobs)
        goto done;
    memcpy(a, in, n * sizeof(float));
    if (frozen_G) {
        top = (unsigned char *)calloc(ny, 1);
        bot = (unsigned char *)calloc(ny, 1);
        if (!top || !bot)
            goto done;
        for (uint32_t g = 0; g < frozen_G; ++g) {
            const uint32_t lo = (uint32_t)((uint64_t)g * ny / frozen_G),
                           hi = (uint32_t)((uint64_t)(g + 1u) * ny / frozen_G);
            top[lo] = 1;
            bot[hi - 1u] = 1;
        }
    }
    for (uint32_t s = 0; s < sweeps; ++s) {
        for (unsigned t = 0; t < threads; ++t) {
            st_host_job_t *j = &jobs[t];
            j->in = in;
            j->src = (s & 1u) ? b : a;
            j->dst = (s & 1u) ? a : b;
            j->top = top;
            j->bot = bot;
            j->nx = nx;
            j->ny = ny;
            j->r0 = (uint32_t)((uint64_t)t * ny / threads);
            j->r1 = (uint32_t)((uint64_t)(t + 1u) * ny / threads);
            started[t] = t > 0 && pthread_create(&tid[t], NULL, st_host_rows, j) == 0;
        }
        for (unsigned t = 0; t < threads; ++t)
            if (!started[t])
                st_host_rows(&jobs[t]);
        for (unsigned t = 1; t < threads; ++t)
            if (started[t])
                pthread_join(tid[t], NULL);
    }
    memcpy(out, (sweeps & 1u) ? b : a, n * sizeof(float));
    rc = 0;
done:
    free(a);
    free(b);
    free(top);
    free(bot);
    free(tid);
    free(started);
    free(jobs);
    return rc;
}

/* max |u - (the mean of its four neighbours)| over the interior: how far u is
 * from a fixed point of the sweep. */
static inline double st_host_residual(const float *u, uint32_t nx, uint32_t ny)
{
    double m = 0;
    for (uint32_t i = 1; i + 1u < ny; ++i)
        for (uint32_t c = 1; c + 1u < nx; ++c) {
            const size_t k = (size_t)i * nx + c;
            const double d = (double)u[k] - 0.25 * ((double)u[k - nx] + u[k + nx] + u[k - 1u] + u[k + 1u]);
            if (d > m || -d > m)
                m = d > 0 ? d : -d;
        }
    return m;
}

#endif /* CGX_JACOBI_CLUSTER_CUH */

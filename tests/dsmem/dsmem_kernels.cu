/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/dsmem/dsmem_kernels.cu — kernels and extern "C" launchers for the
 * DSMEM tests (dsmem_test.c). Every kernel runs in clusters of any size; CTA
 * r talks to its neighbour p = (r + 1) % n, so it receives from (r - 1) % n.
 * Launchers return a cudaError_t as int, or CGT_CLUSTER_DOES_NOT_FIT.
 * Waits are bounded (test_wait spin on clock64): a phase that never completes
 * writes an error code to `status` instead of hanging the test.
 */
#include <cuda_runtime.h>

#include "barrier/mbarrier.h"
#include "cluster/cluster.h"
#include "cg/groups.h"
#include "dsmem/dsmem.h"
#include "tests/dsmem/cluster_launch.cuh"

// --- helpers ------------------------------------------------------------------

/* A full cluster barrier: release then acquire at cluster scope. */
static __device__ __forceinline__ void t_cluster_sync(void)
{
    cg_hw_cluster_arrive_release();
    cg_hw_cluster_wait_acquire();
}

/* Bounded wait for the phase of `parity`, acquire at cluster scope.
 * Returns 1 when it completed, 0 after CGT_SPIN_CYCLES. */
static __device__ int t_wait_parity_cluster(cg_mbarrier_t *mb, uint32_t parity)
{
    long long t0 = clock64();
    while (!cg_mbarrier_try_wait_parity_cluster(mb, parity)) {
        if (clock64() - t0 > CGT_SPIN_CYCLES)
            return 0;
    }
    return 1;
}

/* Status codes a kernel writes into status[blockIdx.x] (0 = fine). */
#define T_OK 0
#define T_PHASE0_TIMEOUT 1  /* fewer bytes arrived than expected, or none */
#define T_PHASE1_STUCK 2    /* more bytes were completed than the sender sent */
#define T_EARLY 3           /* the phase completed before the bytes landed */
#define T_FLAG_TIMEOUT 4

static __device__ __forceinline__ uint32_t t_rank(void) { return cg_hw_cluster_ctarank(); }
static __device__ __forceinline__ uint32_t t_nranks(void) { return cg_hw_cluster_nctarank(); }

/* After phase 0 of `mb` (count 1) completed: arrive with no bytes; phase 1
 * must complete at once unless extra complete_tx leaked into it. Thread 0. */
static __device__ int t_check_no_leftover_tx(cg_mbarrier_t *mb)
{
    (void)cg_mbarrier_arrive_cluster(mb);
    return t_wait_parity_cluster(mb, 1);
}

/* The end of a kernel whose block waited for phase 0 of bar (ok: it
 * completed in time): once every thread has written its outputs, thread 0
 * writes the block's status (T_PHASE0_TIMEOUT; T_PHASE1_STUCK when bytes
 * were left over for the next phase; else T_OK), then the cluster syncs (no
 * CTA exits while a peer may still write into it). */
static __device__ void t_finish_tx(int ok, cg_mbarrier_t *bar, uint32_t *status)
{
    __syncthreads();
    if (threadIdx.x == 0)
        status[blockIdx.x] = !ok ? T_PHASE0_TIMEOUT : (t_check_no_leftover_tx(bar) ? T_OK : T_PHASE1_STUCK);
    t_cluster_sync();
}

// --- weak loads and stores ------------------------------------------------------

/* W = 4 * blockDim.x words per CTA. Thread t moves words 4t..4t+3 with form
 * t % 3: b32 x4, b64 x2, v4 x1. Pull: read the neighbour's `mine`. Push:
 * store into the neighbour's `inbox`. */
extern "C" __global__ void dsmt_ldst_kernel(const uint32_t *in, uint32_t *out_pull, uint32_t *out_push)
{
    extern __shared__ __align__(16) uint32_t sm[];
    const uint32_t W = 4u * blockDim.x, t = threadIdx.x;
    uint32_t *mine = sm, *inbox = sm + W;
    const uint32_t p = (t_rank() + 1) % t_nranks();
    const size_t base = (size_t)blockIdx.x * W;
    for (uint32_t i = t; i < W; i += blockDim.x) {
        mine[i] = in[base + i];
        inbox[i] = 0xDEADBEEFu;
    }
    t_cluster_sync();
    const uint32_t pm = cg_dsmem_addr(mine, p) + 16u * t;
    const uint32_t pi = cg_dsmem_addr(inbox, p) + 16u * t;
    uint32_t *op = out_pull + base + 4u * t;
    const uint32_t *my = mine + 4u * t;
    switch (t % 3u) {
    case 0:
        for (uint32_t k = 0; k < 4; ++k) {
            op[k] = cg_dsmem_ld_b32(pm + 4u * k);
            cg_dsmem_st_b32(pi + 4u * k, my[k]);
        }
        break;
    case 1:
        for (uint32_t k = 0; k < 2; ++k) {
            uint64_t v = cg_dsmem_ld_b64(pm + 8u * k);
            op[2 * k] = (uint32_t)v;
            op[2 * k + 1] = (uint32_t)(v >> 32);
            cg_dsmem_st_b64(pi + 8u * k, (uint64_t)my[2 * k] | ((uint64_t)my[2 * k + 1] << 32));
        }
        break;
    default: {
        uint4 v = cg_dsmem_ld_v4(pm);
        op[0] = v.x;
        op[1] = v.y;
        op[2] = v.z;
        op[3] = v.w;
        cg_dsmem_st_v4(pi, make_uint4(my[0], my[1], my[2], my[3]));
    }
    }
    t_cluster_sync(); /* stores landed; nobody reads remote memory after this */
    for (uint32_t i = t; i < W; i += blockDim.x)
        out_push[base + i] = inbox[i];
}

extern "C" int dsmt_ldst(int csize, int nclusters, int threads, const uint32_t *in, uint32_t *out_pull,
                         uint32_t *out_push)
{
    void *args[] = {(void *)&in, (void *)&out_pull, (void *)&out_push};
    return cgt_launch_cluster((const void *)dsmt_ldst_kernel, (unsigned)(csize * nclusters), (unsigned)csize,
                              (unsigned)threads, 2u * 4u * 4u * (size_t)threads, args);
}

// --- release/acquire flags --------------------------------------------------------

#define T_MSG_WORDS 64

/* Thread 0 sends 64 words to the neighbour with relaxed stores, then raises
 * the neighbour's flag with a release store; it waits for its own flag with
 * acquire loads and reads its message with relaxed loads. */
extern "C" __global__ void dsmt_flags_kernel(const uint32_t *in, uint32_t *out, uint32_t *status)
{
    __shared__ uint32_t box[T_MSG_WORDS];
    __shared__ uint32_t flag;
    const uint32_t p = (t_rank() + 1) % t_nranks();
    if (threadIdx.x == 0) {
        flag = 0;
        for (int i = 0; i < T_MSG_WORDS; ++i)
            box[i] = 0xDEADBEEFu;
    }
    t_cluster_sync();
    if (threadIdx.x == 0) {
        const uint32_t pb = cg_dsmem_addr(box, p);
        for (uint32_t i = 0; i < T_MSG_WORDS; ++i)
            cg_dsmem_st_relaxed_u32(pb + 4u * i, in[(size_t)blockIdx.x * T_MSG_WORDS + i]);
        cg_dsmem_st_release_u32(cg_dsmem_addr(&flag, p), 1u);
        const uint32_t myflag = cg_smem_addr(&flag); /* own shared::cta address is a shared::cluster one */
        long long t0 = clock64();
        uint32_t st = T_OK;
        while (cg_dsmem_ld_acquire_u32(myflag) != 1u) {
            if (clock64() - t0 > CGT_SPIN_CYCLES) {
                st = T_FLAG_TIMEOUT;
                break;
            }
        }
        status[blockIdx.x] = st;
        const uint32_t mb = cg_smem_addr(box);
        for (uint32_t i = 0; i < T_MSG_WORDS; ++i)
            out[(size_t)blockIdx.x * T_MSG_WORDS + i] = cg_dsmem_ld_relaxed_u32(mb + 4u * i);
    }
    t_cluster_sync();
}

extern "C" int dsmt_flags(int csize, int nclusters, const uint32_t *in, uint32_t *out, uint32_t *status)
{
    void *args[] = {(void *)&in, (void *)&out, (void *)&status};
    return cgt_launch_cluster((const void *)dsmt_flags_kernel, (unsigned)(csize * nclusters), (unsigned)csize, 32u,
                              0, args);
}

// --- atomics and reductions -------------------------------------------------------

/* Counter words of each CTA (DSMT_CTR_WORDS in dsmem_test.c must match). */
#define C_ADD 0      /* atom add relaxed u32: sum v */
#define C_ADD_AR 1   /* atom add acq_rel u32: sum (v ^ 0x5555) */
#define C_TICKET 2   /* atom add relaxed u32 of 1: returned olds are 0..k-1 */
#define C_MIN 3      /* atom min u32 */
#define C_MAX 4      /* atom max u32 */
#define C_EXCH 5     /* atom exch: starts 0xFFFFFFFF */
#define C_CAS 6      /* cas-loop increments: k */
#define C_RED 7      /* red add relaxed u32: sum (v >> 3) */
#define C_RED_REL 8  /* red add release u32: k */
#define C_ADD64 10   /* atom add relaxed u64 (words 10-11): sum (v << 20) */
#define C_RED64 12   /* red add relaxed u64 (words 12-13): sum v */
#define C_ADDF 14    /* atom add f32: sum (v & 255) */
#define C_REDF 15    /* red add f32: sum ((v >> 8) & 255) */
#define C_WORDS 16

/* Thread t of CTA r targets CTA (r + t) % n. */
extern "C" __global__ void dsmt_atomics_kernel(const uint32_t *in, uint32_t *tickets, uint32_t *exch_old,
                                               uint32_t *out)
{
    __shared__ __align__(8) uint32_t c[C_WORDS];
    if (threadIdx.x < C_WORDS)
        c[threadIdx.x] = (threadIdx.x == C_MIN || threadIdx.x == C_EXCH) ? 0xFFFFFFFFu : 0u;
    t_cluster_sync();
    const uint32_t gid = blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t v = in[gid];
    const uint32_t a = cg_dsmem_addr(c, (t_rank() + threadIdx.x) % t_nranks());
    cg_dsmem_atom_add_relaxed_u32(a + 4u * C_ADD, v);
    cg_dsmem_atom_add_acq_rel_u32(a + 4u * C_ADD_AR, v ^ 0x5555u);
    tickets[gid] = cg_dsmem_atom_add_relaxed_u32(a + 4u * C_TICKET, 1u);
    cg_dsmem_atom_min_relaxed_u32(a + 4u * C_MIN, v);
    cg_dsmem_atom_max_relaxed_u32(a + 4u * C_MAX, v);
    exch_old[gid] = cg_dsmem_atom_exch_relaxed_b32(a + 4u * C_EXCH, gid);
    {
        uint32_t old = cg_dsmem_ld_relaxed_u32(a + 4u * C_CAS), seen;
        while ((seen = cg_dsmem_atom_cas_relaxed_b32(a + 4u * C_CAS, old, old + 1u)) != old)
            old = seen;
    }
    cg_dsmem_red_add_relaxed_u32(a + 4u * C_RED, v >> 3);
    cg_dsmem_red_add_release_u32(a + 4u * C_RED_REL, 1u);
    cg_dsmem_atom_add_relaxed_u64(a + 4u * C_ADD64, (uint64_t)v << 20);
    cg_dsmem_red_add_relaxed_u64(a + 4u * C_RED64, (uint64_t)v);
    cg_dsmem_atom_add_relaxed_f32(a + 4u * C_ADDF, (float)(v & 255u));
    cg_dsmem_red_add_relaxed_f32(a + 4u * C_REDF, (float)((v >> 8) & 255u));
    t_cluster_sync();
    if (threadIdx.x < C_WORDS)
        out[(size_t)blockIdx.x * C_WORDS + threadIdx.x] = c[threadIdx.x];
}

extern "C" int dsmt_atomics(int csize, int nclusters, int threads, const uint32_t *in, uint32_t *tickets,
                            uint32_t *exch_old, uint32_t *out)
{
    void *args[] = {(void *)&in, (void *)&tickets, (void *)&exch_old, (void *)&out};
    return cgt_launch_cluster((const void *)dsmt_atomics_kernel, (unsigned)(csize * nclusters), (unsigned)csize,
                              (unsigned)threads, 0, args);
}

// --- st.async -----------------------------------------------------------------------

/* Thread t pushes words 4t..4t+3 of its CTA's input into the neighbour's
 * inbox with form t % 4: b32 x4, b64 x2, v2.b32 x2, v4.b32 x1 (16 bytes each
 * way). The receiver expects exactly 16 * blockDim.x bytes. */
extern "C" __global__ void dsmt_st_async_kernel(const uint32_t *in, uint32_t *out, uint32_t *status)
{
    extern __shared__ __align__(16) uint32_t inbox[];
    __shared__ cg_mbarrier_t bar;
    const uint32_t W = 4u * blockDim.x, t = threadIdx.x;
    const uint32_t p = (t_rank() + 1) % t_nranks();
    for (uint32_t i = t; i < W; i += blockDim.x)
        inbox[i] = 0xDEADBEEFu;
    if (t == 0) {
        cg_mbarrier_init(&bar, 1);
        cg_mbarrier_init_fence_cluster();
    }
    t_cluster_sync();
    if (t == 0)
        (void)cg_mbarrier_arrive_tx_cluster(&bar, 16u * blockDim.x);
    const uint32_t d = cg_dsmem_addr(inbox, p) + 16u * t;
    const uint32_t m = cg_dsmem_addr(&bar, p);
    const uint32_t *my = in + (size_t)blockIdx.x * W + 4u * t;
    switch (t % 4u) {
    case 0:
        for (uint32_t k = 0; k < 4; ++k)
            cg_dsmem_st_async_b32(d + 4u * k, my[k], m);
        break;
    case 1:
        for (uint32_t k = 0; k < 2; ++k)
            cg_dsmem_st_async_b64(d + 8u * k, (uint64_t)my[2 * k] | ((uint64_t)my[2 * k + 1] << 32), m);
        break;
    case 2:
        for (uint32_t k = 0; k < 2; ++k)
            cg_dsmem_st_async_v2_b32(d + 8u * k, make_uint2(my[2 * k], my[2 * k + 1]), m);
        break;
    default:
        cg_dsmem_st_async_v4_b32(d, make_uint4(my[0], my[1], my[2], my[3]), m);
    }
    const int ok = t_wait_parity_cluster(&bar, 0);
    for (uint32_t i = t; i < W; i += blockDim.x)
        out[(size_t)blockIdx.x * W + i] = inbox[i];
    t_finish_tx(ok, &bar, status);
}

extern "C" int dsmt_st_async(int csize, int nclusters, int threads, const uint32_t *in, uint32_t *out,
                             uint32_t *status)
{
    void *args[] = {(void *)&in, (void *)&out, (void *)&status};
    return cgt_launch_cluster((const void *)dsmt_st_async_kernel, (unsigned)(csize * nclusters), (unsigned)csize,
                              (unsigned)threads, 16u * (size_t)threads, args);
}

// --- red.async ------------------------------------------------------------------------

/* Counter words (DSMT_RA_* in dsmem_test.c must match). */
#define RA_ADD 0   /* add.u32 v */
#define RA_ADDS 1  /* add.s32 ((int)v >> 8) */
#define RA_ADD64 2 /* add.u64 (u64)v * 3 (words 2-3) */
#define RA_MIN 4   /* min.u32 v */
#define RA_MAX 5   /* max.u32 v */
#define RA_MINS 6  /* min.s32 (int)v */
#define RA_MAXS 7  /* max.s32 (int)v */
#define RA_INC 8   /* inc.u32 0xFFFFFFFF: +1 each */
#define RA_DEC 9   /* dec.u32 0xFFFFFFFF: -1 each, from 1000000 */
#define RA_AND 10  /* and.b32 ~(1 << (t % 32)) */
#define RA_OR 11   /* or.b32 1 << (v % 32) */
#define RA_XOR 12  /* xor.b32 v */
#define RA_WORDS 16
#define RA_BYTES_PER_THREAD (11u * 4u + 8u)

extern "C" __global__ void dsmt_red_async_kernel(const uint32_t *in, uint32_t *out, uint32_t *status)
{
    __shared__ __align__(8) uint32_t c[RA_WORDS];
    __shared__ cg_mbarrier_t bar;
    const uint32_t t = threadIdx.x;
    if (t < RA_WORDS) {
        uint32_t init = 0;
        if (t == RA_MIN || t == RA_AND)
            init = 0xFFFFFFFFu;
        else if (t == RA_MINS)
            init = 0x7FFFFFFFu;
        else if (t == RA_MAXS)
            init = 0x80000000u;
        else if (t == RA_DEC)
            init = 1000000u;
        c[t] = init;
    }
    if (t == 0) {
        cg_mbarrier_init(&bar, 1);
        cg_mbarrier_init_fence_cluster();
    }
    t_cluster_sync();
    if (t == 0)
        (void)cg_mbarrier_arrive_tx_cluster(&bar, RA_BYTES_PER_THREAD * blockDim.x);
    const uint32_t p = (t_rank() + 1) % t_nranks();
    const uint32_t a = cg_dsmem_addr(c, p), m = cg_dsmem_addr(&bar, p);
    const uint32_t v = in[blockIdx.x * blockDim.x + t];
    cg_dsmem_red_async_add_u32(a + 4u * RA_ADD, v, m);
    cg_dsmem_red_async_add_s32(a + 4u * RA_ADDS, (int32_t)v >> 8, m);
    cg_dsmem_red_async_add_u64(a + 4u * RA_ADD64, (uint64_t)v * 3u, m);
    cg_dsmem_red_async_min_u32(a + 4u * RA_MIN, v, m);
    cg_dsmem_red_async_max_u32(a + 4u * RA_MAX, v, m);
    cg_dsmem_red_async_min_s32(a + 4u * RA_MINS, (int32_t)v, m);
    cg_dsmem_red_async_max_s32(a + 4u * RA_MAXS, (int32_t)v, m);
    cg_dsmem_red_async_inc_u32(a + 4u * RA_INC, 0xFFFFFFFFu, m);
    cg_dsmem_red_async_dec_u32(a + 4u * RA_DEC, 0xFFFFFFFFu, m);
    cg_dsmem_red_async_and_b32(a + 4u * RA_AND, ~(1u << (t % 32u)), m);
    cg_dsmem_red_async_or_b32(a + 4u * RA_OR, 1u << (v % 32u), m);
    cg_dsmem_red_async_xor_b32(a + 4u * RA_XOR, v, m);
    const int ok = t_wait_parity_cluster(&bar, 0);
    if (t < RA_WORDS)
        out[(size_t)blockIdx.x * RA_WORDS + t] = c[t];
    t_finish_tx(ok, &bar, status);
}

extern "C" int dsmt_red_async(int csize, int nclusters, int threads, const uint32_t *in, uint32_t *out,
                              uint32_t *status)
{
    void *args[] = {(void *)&in, (void *)&out, (void *)&status};
    return cgt_launch_cluster((const void *)dsmt_red_async_kernel, (unsigned)(csize * nclusters), (unsigned)csize,
                              (unsigned)threads, 0, args);
}

// --- bulk push and the exchange helpers, several rounds ---------------------------------

/* Round k: every CTA fills `send` (W words) with in ^ (k * 0x9E3779B9), then
 * pushes it into the neighbour's `recv`, and receives its own from the rank
 * before. mode 0: cg_dsmem_push_bulk in chunks of 16, 32, 48, ... bytes (one
 * thread; the receiver's byte count must add up exactly); mode 1:
 * cg_dsmem_push (the block's threads, st.async). A cluster barrier between
 * rounds frees the buffers. out: [rounds][blocks][W]. */
extern "C" __global__ void dsmt_push_kernel(const uint32_t *in, uint32_t *out, uint32_t *status, int rounds,
                                            int mode)
{
    extern __shared__ __align__(16) uint32_t sm[];
    __shared__ cg_mbarrier_t bar;
    const uint32_t W = 4u * blockDim.x, t = threadIdx.x, bytes = 4u * W;
    uint32_t *send = sm, *recv = sm + W;
    const uint32_t p = (t_rank() + 1) % t_nranks();
    if (t == 0) {
        cg_mbarrier_init(&bar, 1);
        cg_mbarrier_init_fence_cluster();
    }
    uint32_t st = T_OK;
    for (int k = 0; k < rounds; ++k) {
        for (uint32_t i = t; i < W; i += blockDim.x) {
            send[i] = in[(size_t)blockIdx.x * W + i] ^ ((uint32_t)k * 0x9E3779B9u);
            recv[i] = 0xDEADBEEFu;
        }
        /* Generic writes of send (read by the bulk engine in mode 0) and of
         * recv (overwritten by the pushes) before the async side touches them. */
        cg_fence_proxy_async_smem();
        t_cluster_sync(); /* every CTA: buffers ready, barrier initialised */
        if (t == 0)
            (void)cg_mbarrier_arrive_tx_cluster(&bar, bytes);
        if (mode == 0) {
            if (t == 0) {
                uint32_t off = 0, chunk = 16;
                while (off < bytes) {
                    uint32_t n = bytes - off < chunk ? bytes - off : chunk;
                    cg_dsmem_push_bulk((char *)recv + off, (const char *)send + off, n, &bar, p);
                    off += n;
                    chunk = chunk % 256u + 16u;
                }
            }
        } else {
            cg_thread_block_t blk = cg_this_thread_block();
            cg_dsmem_push(&blk, recv, send, bytes, &bar, p);
        }
        if (!t_wait_parity_cluster(&bar, (uint32_t)k & 1u))
            st = T_PHASE0_TIMEOUT;
        for (uint32_t i = t; i < W; i += blockDim.x)
            out[((size_t)k * gridDim.x + blockIdx.x) * W + i] = recv[i];
        t_cluster_sync(); /* all reads of recv done, all pushes complete */
        if (st != T_OK)
            break;
    }
    if (t == 0)
        status[blockIdx.x] = st;
}

extern "C" int dsmt_push(int csize, int nclusters, int threads, int rounds, int mode, const uint32_t *in,
                         uint32_t *out, uint32_t *status)
{
    void *args[] = {(void *)&in, (void *)&out, (void *)&status, (void *)&rounds, (void *)&mode};
    return cgt_launch_cluster((const void *)dsmt_push_kernel, (unsigned)(csize * nclusters), (unsigned)csize,
                              (unsigned)threads, 2u * 16u * (size_t)threads, args);
}

// --- a push whose phase must not complete before its bytes land ---------------------------

/* The receiver arrives with the expected bytes first; its phase must then
 * still be open (test_wait false), checked after a pause in which a phase that
 * ignored its tx-count would long have completed. No push can have landed by
 * then whatever the timing: each CTA raises the "go" flag of the CTA that
 * sends to it only after that check, and a sender pushes only after it has
 * seen its own go flag (release/acquire at cluster scope). Then the phase
 * completes with the data. Every CTA is both: receiver of q = r - 1, sender
 * to p = r + 1; it raises q's flag before waiting for its own, so no cycle. */
extern "C" __global__ void dsmt_not_early_kernel(const uint32_t *in, uint32_t *out, uint32_t *status)
{
    __shared__ __align__(16) uint32_t send[64], recv[64];
    __shared__ cg_mbarrier_t bar;
    __shared__ uint32_t go; /* raised by p: "my phase is armed and checked, push" */
    const uint32_t t = threadIdx.x;
    const uint32_t p = (t_rank() + 1) % t_nranks();
    const uint32_t q = (t_rank() + t_nranks() - 1) % t_nranks();
    send[t] = in[blockIdx.x * 64u + t];
    send[t + 32] = in[blockIdx.x * 64u + t + 32];
    recv[t] = recv[t + 32] = 0xDEADBEEFu;
    if (t == 0) {
        go = 0;
        cg_mbarrier_init(&bar, 1);
        cg_mbarrier_init_fence_cluster();
    }
    cg_fence_proxy_async_smem();
    t_cluster_sync();
    uint32_t st = T_OK;
    if (t == 0) {
        (void)cg_mbarrier_arrive_tx_cluster(&bar, sizeof recv);
        long long t0 = clock64();
        while (clock64() - t0 < 20000) {
        }
        if (cg_mbarrier_test_wait_parity_cluster(&bar, 0))
            st = T_EARLY; /* completed on the arrival alone: nobody has pushed yet */
        cg_dsmem_st_release_u32(cg_dsmem_addr(&go, q), 1u); /* q may push to us now */
        const uint32_t mygo = cg_smem_addr(&go);
        t0 = clock64();
        while (cg_dsmem_ld_acquire_u32(mygo) != 1u) {
            if (clock64() - t0 > CGT_SPIN_CYCLES) {
                st = st == T_OK ? T_FLAG_TIMEOUT : st;
                break;
            }
        }
        cg_dsmem_push_bulk(recv, send, sizeof send, &bar, p);
    }
    if (!t_wait_parity_cluster(&bar, 0) && st == T_OK)
        st = T_PHASE0_TIMEOUT;
    out[blockIdx.x * 64u + t] = recv[t];
    out[blockIdx.x * 64u + t + 32] = recv[t + 32];
    if (t == 0)
        status[blockIdx.x] = st;
    t_cluster_sync();
}

extern "C" int dsmt_not_early(int csize, int nclusters, const uint32_t *in, uint32_t *out, uint32_t *status)
{
    void *args[] = {(void *)&in, (void *)&out, (void *)&status};
    return cgt_launch_cluster((const void *)dsmt_not_early_kernel, (unsigned)(csize * nclusters), (unsigned)csize,
                              32u, 0, args);
}

// --- bandwidth: pull vs push of the same bytes (rates logged; data checked) ---------------

/* Every CTA moves `W` words from its ring predecessor (rank - 1) into itself
 * `iters` times. mode 0: naive pull, int4 loads through a mapped pointer (the
 * anchor); mode 1: cg_dsmem_push (st.async v4 from every thread) by the
 * predecessor; mode 2: cg_dsmem_push_bulk (one thread, bulk engine). A
 * cluster barrier per iteration in every mode, so the modes differ only in
 * how bytes move. Checked: every round, the word each thread reads must be
 * the predecessor's; after the last round, every word of dst. status[block]:
 * the wrong words this block saw (the host poisons it; 0 is the pass). */
static __device__ __forceinline__ uint32_t dsmt_bw_word(uint32_t i, uint32_t block) { return i * 2654435761u + block; }

extern "C" __global__ void dsmt_bw_kernel(int iters, int mode, uint32_t *sink, uint32_t *status)
{
    extern __shared__ __align__(16) uint32_t sm[];
    __shared__ cg_mbarrier_t bar;
    const uint32_t W = 16u * blockDim.x, t = threadIdx.x, bytes = 4u * W;
    uint32_t *src = sm, *dst = sm + W;
    const uint32_t p = (t_rank() + 1) % t_nranks();
    const uint32_t q = (t_rank() + t_nranks() - 1) % t_nranks();
    const uint32_t from = blockIdx.x - t_rank() + q; /* the block whose words land here */
    __shared__ uint32_t wrong;
    for (uint32_t i = t; i < W; i += blockDim.x) {
        src[i] = dsmt_bw_word(i, blockIdx.x);
        dst[i] = ~dsmt_bw_word(i, from); /* poison: never the right word */
    }
    if (t == 0) {
        wrong = 0;
        cg_mbarrier_init(&bar, 1);
        cg_mbarrier_init_fence_cluster();
    }
    cg_fence_proxy_async_smem();
    t_cluster_sync();
    uint32_t acc = 0, bad = 0;
    for (int it = 0; it < iters; ++it) {
        if (mode == 0) {
            const uint4 *r = (const uint4 *)cg_smem_map_rank_ptr(src, q);
            uint4 *d = (uint4 *)dst;
#pragma unroll 4
            for (uint32_t i = t; i < W / 4u; i += blockDim.x)
                d[i] = r[i];
        } else {
            if (t == 0)
                (void)cg_mbarrier_arrive_tx_cluster(&bar, bytes);
            if (mode == 1) {
                cg_thread_block_t blk = cg_this_thread_block();
                cg_dsmem_push(&blk, dst, src, bytes, &bar, p);
            } else if (t == 0) {
                cg_dsmem_push_bulk(dst, src, bytes, &bar, p);
            }
            cg_mbarrier_wait_parity_cluster(&bar, (uint32_t)it & 1u);
        }
        /* A word this thread wrote itself in mode 0 (uint4 t of dst, t < W / 4;
         * no block barrier between the copy and this read, so never another
         * thread's word), any landed word in modes 1 and 2 (after the wait). */
        const uint32_t k = 4u * t + ((uint32_t)it & 3u), v = dst[k];
        acc += v;
        bad += v != dsmt_bw_word(k, from);
        t_cluster_sync();
    }
    if (iters > 0) /* the last round's bytes, every word */
        for (uint32_t i = t; i < W; i += blockDim.x)
            bad += dst[i] != dsmt_bw_word(i, from);
    if (bad)
        atomicAdd(&wrong, bad);
    __syncthreads();
    if (t == 0)
        status[blockIdx.x] = wrong;
    sink[blockIdx.x * blockDim.x + t] = acc;
}

extern "C" int dsmt_bw(int csize, int nclusters, int threads, int iters, int mode, uint32_t *sink, uint32_t *status,
                       float *ms)
{
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    void *args[] = {(void *)&iters, (void *)&mode, (void *)&sink, (void *)&status};
    const size_t smem = 2u * 64u * (size_t)threads;
    int err = cgt_launch_cluster((const void *)dsmt_bw_kernel, (unsigned)(csize * nclusters), (unsigned)csize,
                                 (unsigned)threads, smem, args); /* warm-up */
    if (err == 0) {
        cudaEventRecord(a, 0);
        err = cgt_launch_cluster((const void *)dsmt_bw_kernel, (unsigned)(csize * nclusters), (unsigned)csize,
                                 (unsigned)threads, smem, args);
        cudaEventRecord(b, 0);
        cudaEventSynchronize(b);
        cudaEventElapsedTime(ms, a, b);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return err;
}

// --- a ring exchange: per-warp release, pushes ahead of reading -----------------------------

/*
 * The protocol docs/design/dsmem_exchange.md argues (the benchmark's probes):
 * a ring of T_RING_SLOTS receive slots of blockDim x 16 B per CTA, `full[s]`
 * in the receiver (count 1: its thread 0 expects the slot's bytes), `empty[s]`
 * in the sender (count: the receiver's warps, each releasing after its own
 * reads, no block barrier), and each CTA producing unit j while it consumes
 * unit j - T_RING_AHEAD. Unit u carries in[sender's words] ^ (u * 0x9E3779B9).
 * mode 0: every thread st.async's its 16 bytes; 1: staged locally, each
 * warp's lane 0 bulk-pushes the warp's 512 bytes; 2: staged, each warp's lane
 * 0 arrives on staged[s], thread 0 waits and bulk-pushes the whole slot.
 * mode 3: dsmem/dsmem.h's recommended protocol, the double buffer pushed
 * ahead: 2 slots, unit j pushed (st.async) before unit j - 1 is read, the
 * whole block reads, a block barrier, thread 0 makes the one release (empty
 * counts 1). mode 4, its positive control: thread 0 releases the slot right
 * after the full wait, BEFORE the block reads it (a release that orders
 * nothing): the sender's push of unit c + 2 may land on unit c unread.
 * Modes 3 and 4 stall the odd ranks' readers T_RING_STALL cycles before they
 * read (after the control's early release), so a sender that may refill does.
 * Every warp waits a random 0..1023 cycles before its produce and its consume
 * step (seeded), so warps and CTAs drift apart. Each consumer copies what it
 * read to out[(unit * grid + block) * 4T + 4t ..] for the host to check.
 */
#define T_RING_SLOTS 3u
#define T_RING_AHEAD 1u
#define T_RING_STALL 20000ll /* modes 3 and 4: odd ranks' readers, cycles before each read (~10 us) */
#define T_RELEASE_TIMEOUT 5 /* the receiver's release never came */
#define T_STAGED_TIMEOUT 6  /* a warp never staged its part */

static __device__ __forceinline__ void t_ring_delay(uint32_t seed, uint32_t unit, uint32_t side)
{
    uint32_t h = seed ^ (blockIdx.x * 0x9E3779B1u) ^ ((threadIdx.x >> 5) * 0x85EBCA77u) ^ (unit * 0xC2B2AE3Du) ^ side;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    if ((h & 3u) == 0u) /* a quarter of the steps without delay */
        return;
    const long long t0 = clock64();
    while (clock64() - t0 < (long long)(h >> 22)) {
    }
}

extern "C" __global__ void dsmt_ring_kernel(const uint32_t *in, uint32_t *out, uint32_t *status, int units, int mode,
                                            uint32_t seed)
{
    extern __shared__ __align__(16) uint4 ring_sm[]; /* recv[R][T] then send[R][T] */
    __shared__ cg_mbarrier_t full[T_RING_SLOTS], empty[T_RING_SLOTS], staged[T_RING_SLOTS];
    __shared__ uint32_t block_status;
    const uint32_t T = blockDim.x, W = T / 32u, t = threadIdx.x, warp = t >> 5, lane = t & 31u;
    const uint32_t n = t_nranks(), me = t_rank(), p = (me + 1u) % n, q = (me + n - 1u) % n;
    const bool dbuf = mode >= 3; /* the double buffer pushed ahead (3) or its control (4) */
    const uint32_t R = dbuf ? 2u : T_RING_SLOTS;
    uint4 *recv = ring_sm, *send = ring_sm + T_RING_SLOTS * T;
    const uint4 mine = ((const uint4 *)in)[(size_t)blockIdx.x * T + t];
    for (uint32_t s = 0; s < T_RING_SLOTS; ++s)
        recv[s * T + t] = send[s * T + t] = make_uint4(0xDEADBEEFu, 0xDEADBEEFu, 0xDEADBEEFu, 0xDEADBEEFu);
    if (t == 0) {
        block_status = T_OK;
        for (uint32_t s = 0; s < T_RING_SLOTS; ++s) {
            cg_mbarrier_init(&full[s], 1);
            cg_mbarrier_init(&empty[s], dbuf ? 1u : W);
            cg_mbarrier_init(&staged[s], W);
        }
        cg_mbarrier_init_fence_cluster();
    }
    t_cluster_sync(); /* barriers and poison in place before anyone pushes */
    const uint32_t dst = cg_dsmem_addr(recv, p), fullp = cg_dsmem_addr(full, p);
    uint32_t st = T_OK;
    for (uint32_t j = 0; j < (uint32_t)units + T_RING_AHEAD; ++j) {
        if (j < (uint32_t)units) { /* produce unit j into slot s of CTA p */
            const uint32_t s = j % R, ph = (j / R) & 1u, h = j * 0x9E3779B9u;
            t_ring_delay(seed, j, 0u);
            /* After a timeout a thread waits no more (its data is then wrong
             * and reported), so a broken protocol ends in bounded time. */
            if (j >= R && st == T_OK && !t_wait_parity_cluster(&empty[s], ph ^ 1u))
                st = T_RELEASE_TIMEOUT;
            const uint4 d = make_uint4(mine.x ^ h, mine.y ^ h, mine.z ^ h, mine.w ^ h);
            if (mode == 0 || dbuf) {
                cg_dsmem_st_async_v4_b32(dst + (s * T + t) * 16u, d, fullp + s * 8u);
            } else {
                send[s * T + t] = d;
                cg_fence_proxy_async_smem();
                __syncwarp();
                if (mode == 1) {
                    if (lane == 0) {
                        cg_dsmem_fence_proxy_async();
                        cg_dsmem_bulk_copy(dst + (s * T + warp * 32u) * 16u, cg_smem_addr(send + s * T + warp * 32u),
                                           512u, fullp + s * 8u);
                    }
                } else {
                    if (lane == 0)
                        (void)cg_mbarrier_arrive(&staged[s]);
                    if (t == 0) {
                        const long long t0 = clock64();
                        while (!cg_mbarrier_try_wait_parity(&staged[s], ph)) {
                            if (clock64() - t0 > CGT_SPIN_CYCLES) {
                                st = T_STAGED_TIMEOUT;
                                break;
                            }
                        }
                        cg_dsmem_fence_proxy_async();
                        cg_dsmem_bulk_copy(dst + s * T * 16u, cg_smem_addr(send + s * T), T * 16u, fullp + s * 8u);
                    }
                }
            }
        }
        if (j >= T_RING_AHEAD) { /* consume unit c from slot s of this CTA */
            const uint32_t c = j - T_RING_AHEAD, s = c % R, ph = (c / R) & 1u;
            t_ring_delay(seed, c, 1u);
            if (t == 0)
                (void)cg_mbarrier_arrive_tx(&full[s], T * 16u);
            if (st == T_OK && !t_wait_parity_cluster(&full[s], ph))
                st = T_PHASE0_TIMEOUT;
            if (mode == 4 && t == 0)
                cg_dsmem_release(&empty[s], q); /* the control's defect: released before the block read it */
            if (dbuf && (me & 1u)) { /* odd ranks read late: a refill that may come, comes */
                const long long t0 = clock64();
                while (clock64() - t0 < T_RING_STALL) {
                }
            }
            const uint4 v = recv[s * T + t];
            uint32_t *o = out + ((size_t)c * gridDim.x + blockIdx.x) * 4u * T + 4u * t;
            o[0] = v.x;
            o[1] = v.y;
            o[2] = v.z;
            o[3] = v.w;
            if (dbuf) {
                __syncthreads(); /* the whole block has read slot s */
                if (mode == 3 && t == 0)
                    cg_dsmem_release(&empty[s], q);
            } else {
                __syncwarp(); /* the warp's reads of slot s, before lane 0's release */
                if (lane == 0)
                    cg_dsmem_release(&empty[s], q);
            }
        }
    }
    if (st != T_OK)
        atomicMax(&block_status, st);
    t_cluster_sync(); /* no CTA exits while another may push to it or read its send slots */
    if (t == 0)
        status[blockIdx.x] = block_status;
}

extern "C" int dsmt_ring(int csize, int nclusters, int threads, int units, int mode, uint32_t seed, const uint32_t *in,
                         uint32_t *out, uint32_t *status)
{
    void *args[] = {(void *)&in, (void *)&out, (void *)&status, (void *)&units, (void *)&mode, (void *)&seed};
    return cgt_launch_cluster((const void *)dsmt_ring_kernel, (unsigned)(csize * nclusters), (unsigned)csize,
                              (unsigned)threads, 2u * T_RING_SLOTS * 16u * (size_t)threads, args);
}

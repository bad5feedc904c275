/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/barrier/barrier_kernels.cu — kernels of the GPU barrier tests and
 * their extern "C" launchers (barrier_test_util.h says what each checks).
 * Every kernel checks on the device what only the device can see (each
 * phase's reads, parities) and writes per-thread results the host checks
 * element by element.
 */
#include <cuda_runtime.h>
#include <string.h>

#include "barrier/barrier.h"
#include "tests/barrier/barrier_test_util.h"

/* Spin `cycles` SM clocks: randomizes the arrival order within a phase. */
static __device__ void bt_spin(uint32_t cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < (long long)cycles) {
    }
}

/* ------------------------------------------------------------------------ */
/* Phases and parity                                                         */
/* ------------------------------------------------------------------------ */

extern "C" __global__ void bt_phases_kernel(uint32_t seed, int phases, int mode, int jitter,
                                            uint32_t *errors, uint32_t *last)
{
    extern __shared__ uint32_t buf[]; /* two slots per thread: phase k uses half k & 1 */
    __shared__ cg_barrier_t bar;
    const uint32_t n = blockDim.x, t = threadIdx.x;
    const uint32_t bseed = bt_block_seed(seed, blockIdx.x);
    cg_mbarrier_t *mb = cg_barrier_native_handle(&bar);
    if (t == 0)
        cg_barrier_init(&bar, n);
    __syncthreads();

    uint32_t errs = 0, seen = 0;
    for (uint32_t k = 0; k < (uint32_t)phases; ++k) {
        uint32_t *cur = buf + (k & 1u) * n;
        uint32_t h = bt_hash3(bseed, k, t);
        if (jitter > 0)
            bt_spin(h % (uint32_t)jitter);
        cur[t] = h;
        int m = mode;
        if (mode == BT_RANDOM_MIX) {
            m = (int)((h >> 8) % 4u);
        } else if (mode == BT_RANDOM_THREAD_MIX) { /* token, parity, arrive_and_wait */
            m = (int)((h >> 8) % 3u);
            m = m == 2 ? BT_ARRIVE_AND_WAIT : m;
        }
        switch (m) {
        case BT_BARRIER_TOKEN: {
            cg_token_t tok = cg_barrier_arrive_one(&bar);
            cg_barrier_wait_token(&bar, tok);
            break;
        }
        case BT_MBARRIER_PARITY:
            (void)cg_mbarrier_arrive(mb);
            cg_mbarrier_wait_parity(mb, k & 1u);
            break;
        case BT_WARP_AGGREGATED: {
            cg_token_t tok = cg_mbarrier_arrive_warp(mb);
            cg_mbarrier_wait(mb, tok);
            break;
        }
        default:
            cg_barrier_arrive_and_wait(&bar);
            break;
        }
        /* Phase k (parity k & 1) is complete; phase k + 1 cannot be, since
         * this thread has not arrived in it: the parity must have flipped once. */
        if (!cg_mbarrier_test_wait_parity(mb, k & 1u))
            ++errs;
        if (cg_mbarrier_test_wait_parity(mb, (k + 1u) & 1u))
            ++errs;
        uint32_t j = bt_partner(bseed, k, t, n);
        uint32_t v = cur[j];
        if (v != bt_hash3(bseed, k, j))
            ++errs;
        seen = v;
    }
    uint32_t g = blockIdx.x * n + t;
    errors[g] = errs;
    last[g] = seen;
}

extern "C" int bt_launch_phases(int blocks, int threads, uint32_t seed, int phases, int mode,
                                int jitter, uint32_t *errors, uint32_t *last)
{
    size_t smem = 2u * (size_t)threads * sizeof(uint32_t);
    bt_phases_kernel<<<blocks, threads, smem>>>(seed, phases, mode, jitter, errors, last);
    return (int)cudaGetLastError();
}

/* ------------------------------------------------------------------------ */
/* arrive_and_drop                                                           */
/* ------------------------------------------------------------------------ */

/* Completion function: counts the phases (runs only in the completer, so the
 * plain increment is ordered by the barrier itself). */
static __device__ void bt_count_run(void *arg)
{
    *(uint32_t *)arg += 1u;
}

extern "C" __global__ void bt_drop_kernel(uint32_t seed, int phases, int use_fn, uint32_t *errors,
                                          uint32_t *runs)
{
    extern __shared__ uint32_t buf[];
    __shared__ cg_barrier_t bar;
    __shared__ cg_barrier_fn_t fbar;
    const uint32_t n = blockDim.x, t = threadIdx.x, P = (uint32_t)phases;
    if (t == 0) {
        *runs = 0;
        cg_barrier_init(&bar, n);
        cg_barrier_fn_init(&fbar, n, bt_count_run, runs);
    }
    __syncthreads();

    const uint32_t leave = bt_leave_phase(seed, t, P);
    uint32_t errs = 0;
    for (uint32_t k = 0; k < P; ++k) {
        uint32_t *cur = buf + (k & 1u) * n;
        cur[t] = bt_hash3(seed, k, t);
        if (k == leave) { /* arrives in phase k, gone from phase k + 1 on */
            if (use_fn)
                cg_barrier_fn_arrive_and_drop(&fbar);
            else
                cg_barrier_arrive_and_drop(&bar);
            break;
        }
        if (use_fn)
            cg_barrier_fn_wait(&fbar, cg_barrier_fn_arrive(&fbar));
        else
            cg_barrier_arrive_and_wait(&bar);
        /* Read a thread that wrote in phase k (left at k or later; thread 0
         * never leaves, so the search ends). */
        uint32_t j = bt_partner(seed, k, t, n);
        while (bt_leave_phase(seed, j, P) < k)
            j = (j + 1u) % n;
        if (cur[j] != bt_hash3(seed, k, j))
            ++errs;
    }
    errors[t] = errs;
}

extern "C" int bt_launch_drop(int threads, uint32_t seed, int phases, int use_fn, uint32_t *errors,
                              uint32_t *runs)
{
    size_t smem = 2u * (size_t)threads * sizeof(uint32_t);
    bt_drop_kernel<<<1, threads, smem>>>(seed, phases, use_fn, errors, runs);
    return (int)cudaGetLastError();
}

/* ------------------------------------------------------------------------ */
/* Transaction counts                                                        */
/* ------------------------------------------------------------------------ */

extern "C" __global__ void bt_tx_kernel(const uint32_t *chunks, int nchunks, uint32_t *flags)
{
    __shared__ cg_mbarrier_t a, b;
    __shared__ cg_barrier_t c;
    __shared__ cg_token_t tok_a, tok_b;
    const uint32_t t = threadIdx.x, n = blockDim.x;
    uint32_t total = 0;
    for (int i = 0; i < nchunks; ++i)
        total += chunks[i];
    /* Threads 1..nchunks each hold one chunk of bytes; thread nchunks the last. */
    const uint32_t mine = (t >= 1u && t <= (uint32_t)nchunks) ? chunks[t - 1u] : 0u;
    const bool has_last = t == (uint32_t)nchunks;
    if (t == 0) {
        cg_mbarrier_init(&a, 1);
        cg_mbarrier_init(&b, 2);
        cg_barrier_init(&c, n + 1u);
    }
    __syncthreads();

    /* A: the arrival comes first with the byte count; other threads complete
     * the bytes; the phase ends only with the last chunk. */
    if (t == 0)
        tok_a = cg_mbarrier_arrive_tx(&a, total);
    __syncthreads();
    if (mine != 0u && !has_last)
        cg_mbarrier_complete_tx(&a, mine);
    __syncthreads();
    if (t == 0) {
        flags[0] = cg_mbarrier_test_wait(&a, tok_a);     /* 0: last chunk pending */
        flags[1] = cg_mbarrier_test_wait_parity(&a, 0u); /* 0 */
    }
    __syncthreads();
    if (has_last)
        cg_mbarrier_complete_tx(&a, mine);
    cg_mbarrier_wait(&a, tok_a);
    if (t == 0)
        flags[2] = cg_mbarrier_test_wait_parity(&a, 0u); /* 1 */

    /* B: bytes complete before they are expected (tx-count below zero), and
     * the phase still needs its second arrival. */
    if (mine != 0u)
        cg_mbarrier_complete_tx(&b, mine);
    __syncthreads();
    if (t == 0) {
        flags[3] = cg_mbarrier_test_wait_parity(&b, 0u); /* 0: two arrivals pending */
        tok_b = cg_mbarrier_arrive_tx(&b, total);        /* tx back to 0, one arrival pending */
    }
    __syncthreads();
    if (t == 0)
        flags[4] = cg_mbarrier_test_wait(&b, tok_b); /* 0 */
    __syncthreads();
    if (t == 1)
        (void)cg_mbarrier_arrive(&b);
    cg_mbarrier_wait_parity(&b, 0u);
    if (t == 0)
        flags[5] = cg_mbarrier_test_wait(&b, tok_b); /* 1 */

    /* C: cg_barrier_t, thread 0 arrives for two with the bytes. */
    cg_token_t tc = t == 0 ? cg_barrier_arrive_tx(&c, 2u, total) : cg_barrier_arrive_one(&c);
    __syncthreads();
    if (t == 0)
        flags[6] = cg_barrier_try_wait_for(&c, tc, 2000u); /* 0: bytes pending */
    __syncthreads();
    if (mine != 0u)
        cg_mbarrier_complete_tx(cg_barrier_native_handle(&c), mine);
    cg_barrier_wait_token(&c, tc);
    if (t == 0)
        flags[7] = 1u;

    /* D: expect_tx without an arrival, then all arrivals: still the bytes. */
    if (t == 0)
        cg_barrier_expect_tx(&c, total);
    __syncthreads();
    cg_token_t td = t == 0 ? cg_barrier_arrive_n(&c, 2u) : cg_barrier_arrive_one(&c);
    __syncthreads();
    if (t == 0)
        flags[8] = cg_barrier_try_wait_parity_for(&c, 1u, 2000u); /* 0 */
    __syncthreads();
    if (mine != 0u)
        cg_mbarrier_complete_tx(cg_barrier_native_handle(&c), mine);
    cg_barrier_wait_token(&c, td);
    if (t == 0)
        flags[9] = cg_mbarrier_test_wait_parity(cg_barrier_native_handle(&c), 1u); /* 1 */

    /* E: pending count of a noComplete arrival (b is in phase 1, count 2). */
    __syncthreads();
    if (t == 0)
        flags[10] = cg_mbarrier_pending_count(cg_mbarrier_arrive_no_complete(&b, 1u));
    __syncthreads();
    if (t == 1)
        (void)cg_mbarrier_arrive(&b);
    cg_mbarrier_wait_parity(&b, 1u);
    if (t == 0)
        flags[11] = cg_mbarrier_test_wait_parity(&b, 1u); /* 1 */

    /* F: inval, re-init: a fresh phase 0. */
    __syncthreads();
    if (t == 0) {
        cg_mbarrier_inval(&a);
        cg_mbarrier_init(&a, 1u);
        cg_token_t tf = cg_mbarrier_arrive(&a);
        flags[12] = cg_mbarrier_test_wait(&a, tf);         /* 1 */
        flags[13] = cg_mbarrier_test_wait_parity(&a, 0u); /* 1 */
        flags[14] = 0xC0FFEEu;                             /* ran to the end */
    }
}

extern "C" int bt_launch_tx(int threads, const uint32_t *chunks, int nchunks, uint32_t *flags)
{
    bt_tx_kernel<<<1, threads>>>(chunks, nchunks, flags);
    return (int)cudaGetLastError();
}

/* ------------------------------------------------------------------------ */
/* Remote arrivals across a cluster                                          */
/* ------------------------------------------------------------------------ */

/* Thread t < C of CTA `me` sends one word per round into CTA t's slot for
 * `me` and arrives on CTA t's barrier; then it waits on its own barrier
 * (acquire.cluster) and checks the word CTA t sent it. A cluster barrier
 * between rounds keeps round r + 1's arrivals out of phase r. */
extern "C" __global__ void bt_remote_kernel(uint32_t seed, int rounds, int mode, uint32_t *errors,
                                            uint32_t *last)
{
    __shared__ cg_mbarrier_t mb;
    __shared__ uint32_t slot[2][8];
    const uint32_t C = __clusterSizeInBlocks(), me = __clusterRelativeBlockRank();
    const uint32_t t = threadIdx.x, cseed = seed ^ (blockIdx.x / C) * 0x01000193u;
    if (t == 0) {
        cg_mbarrier_init(&mb, C);
        cg_mbarrier_init_fence_cluster();
    }
    __cluster_barrier_arrive(); /* release.cluster: the init and its fence */
    __cluster_barrier_wait();   /* acquire.cluster */

    uint32_t errs = 0, seen = 0;
    for (uint32_t r = 0; r < (uint32_t)rounds; ++r) {
        const uint32_t par = r & 1u;
        if (t < C) {
            uint32_t *dst = (uint32_t *)cg_smem_map_rank_ptr(&slot[par][me], t);
            *dst = bt_hash3(cseed, r, me * 8u + t);
            if (mode == 0) {
                cg_mbarrier_arrive_remote(&mb, t);
            } else if (mode == 1) {
                cg_mbarrier_complete_tx_remote(&mb, t, 4u);
                cg_mbarrier_arrive_tx_remote(&mb, t, 4u);
            } else {
                cg_mbarrier_arrive_remote_if(&mb, t, 0u);         /* must not arrive */
                cg_mbarrier_arrive_tx_remote_if(&mb, t, 4u, 0u);  /* must not arrive */
                cg_mbarrier_arrive_remote_if(&mb, t, 1u);         /* the arrival */
            }
            cg_mbarrier_wait_parity_cluster(&mb, par);
            uint32_t v = slot[par][t];
            if (v != bt_hash3(cseed, r, t * 8u + me))
                ++errs;
            seen = v;
        }
        __cluster_barrier_arrive();
        __cluster_barrier_wait();
    }
    /* The last cluster barrier above also keeps every CTA alive until no one
     * can touch its shared memory any more. */
    if (t < 8u) {
        errors[blockIdx.x * 8u + t] = errs;
        last[blockIdx.x * 8u + t] = seen;
    }
}

extern "C" int bt_launch_remote(int clusters, int cluster, uint32_t seed, int rounds, int mode,
                                uint32_t *errors, uint32_t *last)
{
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute attr;
    memset(&cfg, 0, sizeof cfg);
    memset(&attr, 0, sizeof attr);
    cfg.gridDim = dim3((unsigned)(clusters * cluster), 1, 1);
    cfg.blockDim = dim3(32, 1, 1);
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = (unsigned)cluster;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    void *args[] = {&seed, &rounds, &mode, &errors, &last};
    return (int)cudaLaunchKernelExC(&cfg, (const void *)bt_remote_kernel, args);
}

/* ------------------------------------------------------------------------ */
/* Completion function                                                       */
/* ------------------------------------------------------------------------ */

typedef struct bt_ctx {
    const int *smem;
    uint32_t n;
    uint32_t phase; /* phases completed: written only by completers */
    int last_sum;
    int *results;
    uint32_t *runs;
} bt_ctx_t;

/* Seed 000's completion step: sum the block's shared words. */
static __device__ void bt_sum_completion(void *arg)
{
    bt_ctx_t *c = (bt_ctx_t *)arg;
    int s = 0;
    for (uint32_t i = 0; i < c->n; ++i)
        s += c->smem[i];
    c->results[c->phase] = s;
    atomicAdd(&c->runs[c->phase], 1u);
    c->last_sum = s;
    c->phase += 1u;
}

/* The same step after a delay, for the barrier whose function is fixed at
 * compile time (modes 4, 5): a waiter released before the step ends would
 * find the phase count or the sum of the phase before. */
static __device__ void bt_sum_completion_slow(void *arg)
{
    bt_spin(500);
    bt_sum_completion(arg);
}
CG_BARRIER_FN_DEFINE(bt_fixed_bar, bt_sum_completion_slow);

extern "C" __global__ void bt_completion_kernel(const int *inputs, int phases, int mode, int jitter,
                                                int *results, uint32_t *runs, uint32_t *errors,
                                                int *seen)
{
    extern __shared__ int sm[];
    __shared__ cg_barrier_fn_t bar;
    __shared__ bt_fixed_bar_t fixed;
    __shared__ bt_ctx_t ctx;
    const uint32_t n = blockDim.x, t = threadIdx.x;
    if (t == 0) {
        ctx.smem = sm;
        ctx.n = n;
        ctx.phase = 0;
        ctx.last_sum = 0;
        ctx.results = results;
        ctx.runs = runs;
        /* mode 1 (inline step) and 3 (function named at the arrive) must not
         * call the stored one: there is none. */
        cg_barrier_fn_init(&bar, n, (mode == 1 || mode == 3) ? NULL : bt_sum_completion, &ctx);
        bt_fixed_bar_init(&fixed, n, &ctx);
    }
    __syncthreads();

    uint32_t errs = 0;
    int last_seen = 0;
    for (uint32_t k = 0; k < (uint32_t)phases; ++k) {
        if (jitter > 0)
            bt_spin(bt_hash3((uint32_t)inputs[k * n + t], k, t) % (uint32_t)jitter);
        sm[t] = inputs[k * n + t];
        if (mode == 0) {
            cg_barrier_fn_wait(&bar, cg_barrier_fn_arrive(&bar));
        } else if (mode == 1) {
            cg_token_t tok;
            if (cg_barrier_fn_arrive_elect(&bar, &tok)) {
                bt_sum_completion(&ctx);
                cg_barrier_fn_complete(&bar, tok);
            }
            cg_barrier_fn_wait(&bar, tok);
        } else if (mode == 2) {
            cg_barrier_fn_arrive_and_wait(&bar);
        } else if (mode == 3) {
            cg_barrier_fn_wait(&bar, cg_barrier_fn_arrive_with(&bar, bt_sum_completion, &ctx));
        } else if (mode == 4) {
            cg_token_t tok = bt_fixed_bar_arrive(&fixed);
            bt_spin(bt_hash3((uint32_t)inputs[k * n + t], k, t + 1u) % 64u); /* work between arrive and wait */
            bt_fixed_bar_wait(&fixed, tok);
        } else {
            bt_fixed_bar_arrive_and_wait(&fixed);
        }
        /* The function ran exactly once for each phase so far, and its
         * writes (shared and global) are visible after the wait. */
        if (ctx.phase != k + 1u)
            ++errs;
        last_seen = ctx.last_sum;
        if (last_seen != results[k])
            ++errs;
    }
    errors[t] = errs;
    seen[t] = last_seen;
}

extern "C" int bt_launch_completion(int threads, const int *inputs, int phases, int mode, int jitter,
                                    int *results, uint32_t *runs, uint32_t *errors, int *seen)
{
    size_t smem = (size_t)threads * sizeof(int);
    bt_completion_kernel<<<1, threads, smem>>>(inputs, phases, mode, jitter, results, runs, errors,
                                               seen);
    return (int)cudaGetLastError();
}

/* ------------------------------------------------------------------------ */
/* Timed waits on a phase that cannot complete                               */
/* ------------------------------------------------------------------------ */

static __device__ cg_device_barrier_t bt_timeout_dbar;

extern "C" __global__ void bt_timeout_kernel(uint64_t bound_ns, uint32_t *flags, uint64_t *elapsed)
{
    __shared__ cg_barrier_t bar;
    __shared__ cg_barrier_fn_t fbar;
    __shared__ uint32_t runs;
    const uint32_t n = blockDim.x, t = threadIdx.x;
    if (t == 0) {
        runs = 0;
        cg_barrier_init(&bar, n + 1u); /* one arrival more than the block has */
        cg_barrier_fn_init(&fbar, n + 1u, bt_count_run, &runs);
        cg_device_barrier_init(&bt_timeout_dbar, n + 1u);
    }
    __syncthreads();

    cg_token_t tb = cg_barrier_arrive_one(&bar);
    cg_token_t tf = cg_barrier_fn_arrive(&fbar);
    cg_token_t td = cg_device_barrier_arrive(&bt_timeout_dbar);
    uint32_t *f = flags + t * 4u, *f2 = flags + (n + t) * 4u;
    uint64_t *e = elapsed + t * 4u;
    uint64_t t0;

    t0 = cg_sreg_globaltimer_ns();
    f[0] = cg_barrier_try_wait_for(&bar, tb, bound_ns);
    e[0] = cg_sreg_globaltimer_ns() - t0;
    t0 = cg_sreg_globaltimer_ns();
    f[1] = cg_barrier_try_wait_parity_for(&bar, 0u, bound_ns);
    e[1] = cg_sreg_globaltimer_ns() - t0;
    t0 = cg_sreg_globaltimer_ns();
    f[2] = cg_barrier_fn_try_wait_for(&fbar, tf, bound_ns);
    e[2] = cg_sreg_globaltimer_ns() - t0;
    t0 = cg_sreg_globaltimer_ns();
    f[3] = cg_device_barrier_try_wait_for(&bt_timeout_dbar, td, bound_ns);
    e[3] = cg_sreg_globaltimer_ns() - t0;

    __syncthreads();
    if (t == 0) { /* the missing arrival of each barrier */
        (void)cg_barrier_arrive_one(&bar);
        (void)cg_barrier_fn_arrive(&fbar);
        (void)cg_device_barrier_arrive(&bt_timeout_dbar);
    }
    const uint64_t second = 1000000000ull;
    f2[0] = cg_barrier_try_wait_for(&bar, tb, second);
    f2[1] = cg_barrier_try_wait_parity_for(&bar, 0u, second);
    f2[2] = cg_barrier_fn_try_wait_for(&fbar, tf, second) && runs == 1u;
    f2[3] = cg_device_barrier_try_wait_for(&bt_timeout_dbar, td, second);
}

extern "C" int bt_launch_timeout(int threads, uint64_t bound_ns, uint32_t *flags, uint64_t *elapsed)
{
    bt_timeout_kernel<<<1, threads>>>(bound_ns, flags, elapsed);
    return (int)cudaGetLastError();
}

/* ------------------------------------------------------------------------ */
/* Device-scope barrier across co-resident blocks                            */
/* ------------------------------------------------------------------------ */

extern "C" __global__ void bt_device_kernel(uint32_t seed, int phases, cg_device_barrier_t *bar,
                                            uint32_t *data, uint32_t *errors, uint32_t *last)
{
    const uint32_t N = gridDim.x * blockDim.x;
    const uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t errs = 0, seen = 0;
    for (uint32_t k = 0; k < (uint32_t)phases; ++k) {
        uint32_t *cur = data + (k & 1u) * N;
        uint32_t h = bt_hash3(seed, k, g);
        cur[g] = h;
        cg_token_t tok = cg_device_barrier_arrive(bar);
        bt_spin(h % 64u); /* independent work between arrive and wait */
        cg_device_barrier_wait(bar, tok);
        uint32_t j = bt_partner(seed, k, g, N);
        uint32_t v = cur[j];
        if (v != bt_hash3(seed, k, j))
            ++errs;
        seen = v;
    }
    errors[g] = errs;
    last[g] = seen;
}

extern "C" int bt_launch_device_barrier(int blocks, int threads, uint32_t seed, int phases, void *bar,
                                        uint32_t *data, uint32_t *errors, uint32_t *last)
{
    cg_device_barrier_t *b = (cg_device_barrier_t *)bar;
    void *args[] = {&seed, &phases, &b, &data, &errors, &last};
    return (int)cudaLaunchCooperativeKernel((const void *)bt_device_kernel, dim3((unsigned)blocks),
                                            dim3((unsigned)threads), args, 0, 0);
}

/* ------------------------------------------------------------------------ */
/* cg_barrier_fn_t re-initialized with another function and argument         */
/* ------------------------------------------------------------------------ */

/* Every thread reads the stored function and argument before its arrive
 * (CG_BARRIER_FN_READ_BEFORE_ARRIVE): after a re-init, each must call the
 * new pair, never the old one. Epoch e uses function kind e % 3 (A, B or
 * none) and context e & 1, so a stale function or argument shows up in the
 * other kind's mark or in the other epoch's context. */
typedef struct bt_reinit_ctx {
    const int *smem;
    uint32_t n;
    uint32_t phase;    /* phases this context's function ran */
    uint32_t *runs;    /* [phases] of this epoch: A adds 1, B adds 0x10000 */
    int *results;      /* [phases] of this epoch: A the xor, B the sum of smem */
} bt_reinit_ctx_t;

static __device__ void bt_reinit_fn_a(void *arg)
{
    bt_reinit_ctx_t *c = (bt_reinit_ctx_t *)arg;
    int x = 0;
    for (uint32_t i = 0; i < c->n; ++i)
        x ^= c->smem[i];
    c->results[c->phase] = x;
    c->runs[c->phase] += 1u;
    c->phase += 1u;
}

static __device__ void bt_reinit_fn_b(void *arg)
{
    bt_reinit_ctx_t *c = (bt_reinit_ctx_t *)arg;
    uint32_t s = 0;
    for (uint32_t i = 0; i < c->n; ++i)
        s += (uint32_t)c->smem[i];
    c->results[c->phase] = (int)s;
    c->runs[c->phase] += 0x10000u;
    c->phase += 1u;
}

extern "C" __global__ void bt_fn_reinit_kernel(uint32_t seed, int epochs, int phases, int jitter, uint32_t *runs,
                                               int *results, uint32_t *errors)
{
    extern __shared__ int sm[];
    __shared__ cg_barrier_fn_t bar;
    __shared__ bt_reinit_ctx_t ctx[2];
    const uint32_t n = blockDim.x * blockDim.y * blockDim.z;
    const uint32_t t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const uint32_t P = (uint32_t)phases;
    uint32_t errs = 0;
    for (uint32_t e = 0; e < (uint32_t)epochs; ++e) {
        const uint32_t kind = e % 3u;
        bt_reinit_ctx_t *c = &ctx[e & 1u];
        if (t == 0) {
            if (e > 0)
                cg_mbarrier_inval(&bar._mbar); /* every thread is past the last phase */
            c->smem = sm;
            c->n = n;
            c->phase = 0;
            c->runs = runs + (size_t)e * P;
            c->results = results + (size_t)e * P;
            cg_barrier_fn_init(&bar, n, kind == 0 ? bt_reinit_fn_a : kind == 1 ? bt_reinit_fn_b : NULL,
                               kind == 2 ? NULL : c);
        }
        __syncthreads();
        for (uint32_t k = 0; k < P; ++k) {
            const uint32_t h = bt_hash3(seed, e * P + k, t);
            if (jitter > 0)
                bt_spin(h % (uint32_t)jitter);
            sm[t] = (int)h;
            cg_barrier_fn_wait(&bar, cg_barrier_fn_arrive(&bar));
            /* This epoch's function ran once per phase so far (none: never). */
            if (c->phase != (kind == 2 ? 0u : k + 1u))
                ++errs;
        }
        __syncthreads(); /* nobody uses the barrier or ctx[e & 1] when thread 0 re-initializes */
    }
    errors[t] = errs;
}

extern "C" int bt_launch_fn_reinit(unsigned bx, unsigned by, unsigned bz, uint32_t seed, int epochs, int phases,
                                   int jitter, uint32_t *runs, int *results, uint32_t *errors)
{
    size_t smem = (size_t)bx * by * bz * sizeof(int);
    bt_fn_reinit_kernel<<<1, dim3(bx, by, bz), smem>>>(seed, epochs, phases, jitter, runs, results, errors);
    return (int)cudaGetLastError();
}

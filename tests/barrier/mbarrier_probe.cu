/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/barrier/mbarrier_probe.cu — one probe kernel per wrapper of
 * barrier/mbarrier.h and barrier/barrier.h, compiled to PTX only (cuda_ptx)
 * and read by mbarrier_ptx_test.c: each probe's body must hold exactly the
 * instruction its wrapper names. Built twice: release and -DCG_DEBUG=1.
 * Never launched.
 */
#include "barrier/barrier.h"

/* PROBE_TOKEN(name, expr): kernel probe_<name> storing the token of expr. */
#define PROBE_TOKEN(name, expr)                                                                    \
    extern "C" __global__ void probe_##name(uint64_t *out, uint32_t v)                             \
    {                                                                                              \
        __shared__ cg_mbarrier_t mb;                                                               \
        out[0] = (expr)._opaque;                                                                   \
        (void)v;                                                                                   \
    }
/* PROBE_VOID(name, stmt): kernel probe_<name> running stmt. */
#define PROBE_VOID(name, stmt)                                                                     \
    extern "C" __global__ void probe_##name(uint64_t *out, uint32_t v)                             \
    {                                                                                              \
        __shared__ cg_mbarrier_t mb;                                                               \
        stmt;                                                                                      \
        (void)out;                                                                                 \
        (void)v;                                                                                   \
        (void)mb;                                                                                  \
    }
/* PROBE_PARITY(name, stmt): kernel probe_<name> naming the phase by parity v. */
#define PROBE_PARITY(name, stmt)                                                                   \
    extern "C" __global__ void probe_##name(uint64_t *out, uint32_t v)                             \
    {                                                                                              \
        __shared__ cg_mbarrier_t mb;                                                               \
        stmt;                                                                                      \
    }
/* PROBE_WAIT(name, stmt): kernel probe_<name> with a token from memory. */
#define PROBE_WAIT(name, stmt)                                                                     \
    extern "C" __global__ void probe_##name(uint64_t *out, uint32_t v)                             \
    {                                                                                              \
        __shared__ cg_mbarrier_t mb;                                                               \
        cg_token_t tok;                                                                            \
        tok._opaque = out[1];                                                                      \
        stmt;                                                                                      \
        (void)tok;                                                                                 \
        (void)v;                                                                                   \
    }
/* PROBE_BOOL(name, expr): kernel probe_<name> storing a bool result. */
#define PROBE_BOOL(name, expr) PROBE_WAIT(name, out[0] = (expr) ? 1u : 0u)

/* --- init, fence, inval ------------------------------------------------- */
PROBE_VOID(init, cg_mbarrier_init(&mb, v))
extern "C" __global__ void probe_init_fence_cluster(void)
{
    cg_mbarrier_init_fence_cluster();
}
PROBE_VOID(inval, cg_mbarrier_inval(&mb))

/* --- local arrives ------------------------------------------------------ */
PROBE_TOKEN(arrive, cg_mbarrier_arrive(&mb))
PROBE_TOKEN(arrive_n, cg_mbarrier_arrive_n(&mb, v))
PROBE_TOKEN(arrive_cluster, cg_mbarrier_arrive_cluster(&mb))
PROBE_TOKEN(arrive_n_cluster, cg_mbarrier_arrive_n_cluster(&mb, v))
PROBE_TOKEN(arrive_relaxed, cg_mbarrier_arrive_relaxed(&mb))
PROBE_TOKEN(arrive_n_relaxed, cg_mbarrier_arrive_n_relaxed(&mb, v))
PROBE_TOKEN(arrive_relaxed_cluster, cg_mbarrier_arrive_relaxed_cluster(&mb))
PROBE_TOKEN(arrive_n_relaxed_cluster, cg_mbarrier_arrive_n_relaxed_cluster(&mb, v))
PROBE_TOKEN(arrive_no_complete, cg_mbarrier_arrive_no_complete(&mb, v))
PROBE_TOKEN(arrive_drop_no_complete, cg_mbarrier_arrive_drop_no_complete(&mb, v))
PROBE_TOKEN(arrive_warp, cg_mbarrier_arrive_warp(&mb))
extern "C" __global__ void probe_pending_count(uint64_t *out)
{
    cg_token_t t;
    t._opaque = out[1];
    out[0] = cg_mbarrier_pending_count(t);
}

/* --- transaction counts ------------------------------------------------- */
PROBE_TOKEN(arrive_tx, cg_mbarrier_arrive_tx(&mb, v))
PROBE_TOKEN(arrive_tx_cluster, cg_mbarrier_arrive_tx_cluster(&mb, v))
PROBE_TOKEN(arrive_tx_relaxed, cg_mbarrier_arrive_tx_relaxed(&mb, v))
PROBE_TOKEN(arrive_tx_relaxed_cluster, cg_mbarrier_arrive_tx_relaxed_cluster(&mb, v))
PROBE_VOID(expect_tx, cg_mbarrier_expect_tx(&mb, v))
PROBE_VOID(expect_tx_cluster, cg_mbarrier_expect_tx_cluster(&mb, v))
PROBE_VOID(complete_tx, cg_mbarrier_complete_tx(&mb, v))
PROBE_VOID(complete_tx_cluster, cg_mbarrier_complete_tx_cluster(&mb, v))

/* --- drops -------------------------------------------------------------- */
PROBE_TOKEN(arrive_drop, cg_mbarrier_arrive_drop(&mb))
PROBE_TOKEN(arrive_drop_n, cg_mbarrier_arrive_drop_n(&mb, v))
PROBE_TOKEN(arrive_drop_cluster, cg_mbarrier_arrive_drop_cluster(&mb))
PROBE_TOKEN(arrive_drop_relaxed, cg_mbarrier_arrive_drop_relaxed(&mb))
PROBE_TOKEN(arrive_drop_tx, cg_mbarrier_arrive_drop_tx(&mb, v))

/* --- remote (shared::cluster) ------------------------------------------- */
PROBE_VOID(arrive_remote, cg_mbarrier_arrive_remote(&mb, v))
PROBE_VOID(arrive_remote_n, cg_mbarrier_arrive_remote_n(&mb, v, (uint32_t)out[1]))
PROBE_VOID(arrive_remote_relaxed, cg_mbarrier_arrive_remote_relaxed(&mb, v))
PROBE_VOID(arrive_remote_if, cg_mbarrier_arrive_remote_if(&mb, v, (uint32_t)out[1]))
PROBE_VOID(arrive_remote_relaxed_if, cg_mbarrier_arrive_remote_relaxed_if(&mb, v, (uint32_t)out[1]))
/* the handoff composites: a shared-memory-restricted release fence + a relaxed remote arrive */
PROBE_VOID(release_smem_remote, cg_mbarrier_release_smem_remote(&mb, v))
PROBE_VOID(release_smem_remote_if, cg_mbarrier_release_smem_remote_if(&mb, v, (uint32_t)out[1]))
PROBE_VOID(release_smem_remote_async, cg_mbarrier_release_smem_remote_async(&mb, v))
PROBE_VOID(release_smem_remote_async_if, cg_mbarrier_release_smem_remote_async_if(&mb, v, (uint32_t)out[1]))
PROBE_VOID(arrive_tx_remote, cg_mbarrier_arrive_tx_remote(&mb, v, (uint32_t)out[1]))
PROBE_VOID(arrive_tx_remote_if,
           cg_mbarrier_arrive_tx_remote_if(&mb, v, (uint32_t)out[1], (uint32_t)out[2]))
PROBE_VOID(arrive_drop_remote, cg_mbarrier_arrive_drop_remote(&mb, v))
PROBE_VOID(expect_tx_remote, cg_mbarrier_expect_tx_remote(&mb, v, (uint32_t)out[1]))
PROBE_VOID(complete_tx_remote, cg_mbarrier_complete_tx_remote(&mb, v, (uint32_t)out[1]))

/* --- tests and tries ---------------------------------------------------- */
PROBE_BOOL(test_wait, cg_mbarrier_test_wait(&mb, tok))
PROBE_BOOL(test_wait_cluster, cg_mbarrier_test_wait_cluster(&mb, tok))
PROBE_PARITY(test_wait_parity, out[0] = cg_mbarrier_test_wait_parity(&mb, v))
PROBE_PARITY(test_wait_parity_cluster, out[0] = cg_mbarrier_test_wait_parity_cluster(&mb, v))
PROBE_BOOL(try_wait, cg_mbarrier_try_wait(&mb, tok))
PROBE_BOOL(try_wait_cluster, cg_mbarrier_try_wait_cluster(&mb, tok))
PROBE_BOOL(try_wait_hint, cg_mbarrier_try_wait_hint(&mb, tok, v))
PROBE_BOOL(try_wait_hint_cluster, cg_mbarrier_try_wait_hint_cluster(&mb, tok, v))
PROBE_PARITY(try_wait_parity, out[0] = cg_mbarrier_try_wait_parity(&mb, v))
PROBE_PARITY(try_wait_parity_cluster, out[0] = cg_mbarrier_try_wait_parity_cluster(&mb, v))
PROBE_PARITY(try_wait_parity_relaxed_cluster, out[0] = cg_mbarrier_try_wait_parity_relaxed_cluster(&mb, v))
PROBE_PARITY(try_wait_parity_hint, out[0] = cg_mbarrier_try_wait_parity_hint(&mb, v, (uint32_t)out[2]))
PROBE_PARITY(try_wait_parity_hint_cluster, out[0] = 
           cg_mbarrier_try_wait_parity_hint_cluster(&mb, v, (uint32_t)out[2]))

/* --- blocking waits ----------------------------------------------------- */
PROBE_WAIT(wait, cg_mbarrier_wait(&mb, tok))
PROBE_WAIT(wait_cluster, cg_mbarrier_wait_cluster(&mb, tok))
PROBE_PARITY(wait_parity, cg_mbarrier_wait_parity(&mb, v))
PROBE_PARITY(wait_parity_cluster, cg_mbarrier_wait_parity_cluster(&mb, v))

/* PROBE_ON(type, name, body): kernel probe_<name> running body on a shared
 * barrier object `bar` of the given type. */
#define PROBE_ON(type, name, ...)                                                                  \
    extern "C" __global__ void probe_##name(uint64_t *out, uint32_t v)                             \
    {                                                                                              \
        __shared__ type bar;                                                                       \
        __VA_ARGS__                                                                                \
    }

/* --- cg_barrier_t: must be exactly the mbarrier call it forwards to ------ */
PROBE_ON(cg_barrier_t, barrier_arrive, out[0] = cg_barrier_arrive_one(&bar)._opaque; (void)v;)
PROBE_ON(cg_barrier_t, barrier_wait, cg_token_t tok; tok._opaque = out[1]; cg_barrier_wait_token(&bar, tok); (void)v;)
PROBE_ON(cg_barrier_t, barrier_arrive_tx1, out[0] = cg_barrier_arrive_tx(&bar, 1, v)._opaque;)
PROBE_ON(cg_barrier_t, barrier_native_arrive, out[0] = cg_mbarrier_arrive(cg_barrier_native_handle(&bar))._opaque;
         (void)v;)

/* --- cg_barrier_fn_t ---------------------------------------------------- */
static __device__ void probe_completion(void *arg)
{
    *(volatile int *)arg += 1;
}
PROBE_ON(cg_barrier_fn_t, barrier_fn_arrive, out[0] = cg_barrier_fn_arrive(&bar)._opaque; (void)v;)
PROBE_ON(cg_barrier_fn_t, barrier_fn_elect, cg_token_t t; if (cg_barrier_fn_arrive_elect(&bar, &t)) {
    out[2] += v;
    cg_barrier_fn_complete(&bar, t);
} cg_barrier_fn_wait(&bar, t);)
PROBE_ON(cg_barrier_fn_t, barrier_fn_init, cg_barrier_fn_init(&bar, v, probe_completion, out);)

/* --- cg_device_barrier_t ------------------------------------------------ */
extern "C" __global__ void probe_device_barrier_arrive(cg_device_barrier_t *b, uint64_t *out)
{
    out[0] = cg_device_barrier_arrive(b)._opaque;
}
extern "C" __global__ void probe_device_barrier_wait(cg_device_barrier_t *b, uint64_t *out)
{
    cg_token_t t;
    t._opaque = out[1];
    cg_device_barrier_wait(b, t);
}

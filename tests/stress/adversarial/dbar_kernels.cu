/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/stress/adversarial/dbar_kernels.cu — cg_device_barrier_t under everything
 * its contract (std::barrier's, per thread) allows: random per-thread delays,
 * threads that drop out and exit, a per-thread choice of wait form, lanes of
 * one warp on different barriers, tokens of different phases in one
 * converged wait, partial warps, 3-D blocks, divergent call sites.
 *
 * Every phase publishes and checks data. Before arriving for phase p a
 * thread writes val(p, g) into slot [p & 1][g]; after its wait for p returns
 * it reads the slot of a peer that arrived on the same barrier in phase p and
 * compares. A slot is rewritten only for phase p + 2, which needs phase p + 1
 * complete, which needs the reader's arrival in p + 1, which comes after its
 * check. Errors are counted, and the first one is recorded (phase, thread,
 * peer, got, want).
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "barrier/device_barrier.h"
#include "tests/stress/adversarial/adversarial.cuh"

/* --- helpers ------------------------------------------------------------- */

struct dbt_report {
    unsigned long long errors;
    unsigned long long checks;
    unsigned long long first[5]; /* phase, thread, peer, got, want of the first error */
    unsigned long long first_claimed;
};

static __device__ __forceinline__ uint32_t dbt_mix(uint64_t seed, uint64_t a, uint64_t b)
{
    return adv_mix(seed, a, b);
}

static __device__ __forceinline__ uint32_t dbt_val(uint64_t seed, uint32_t phase, uint32_t g)
{
    return dbt_mix(seed, phase + 1u, g) | 1u;
}

/* A random spin of 0 .. max_ns on the global timer. */
static __device__ __forceinline__ void dbt_delay(uint32_t r, uint32_t max_ns)
{
    if (max_ns == 0)
        return;
    adv_spin_ns(r % (max_ns + 1u));
}

static __device__ __forceinline__ uint32_t dbt_gtid(void)
{
    const uint32_t b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    const uint32_t t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    return b * (blockDim.x * blockDim.y * blockDim.z) + t;
}

static __device__ void dbt_check(dbt_report *rep, const uint32_t *slots, uint32_t n, uint64_t seed, uint32_t phase,
                                 uint32_t g, uint32_t peer)
{
    const uint32_t got = *(const volatile uint32_t *)&slots[(size_t)(phase & 1u) * n + peer];
    const uint32_t want = dbt_val(seed, phase, peer);
    if (got != want) {
        atomicAdd(&rep->errors, 1ull);
        if (atomicCAS(&rep->first_claimed, 0ull, 1ull) == 0ull) {
            rep->first[0] = phase;
            rep->first[1] = g;
            rep->first[2] = peer;
            rep->first[3] = got;
            rep->first[4] = want;
        }
    }
}

/* --- 1. drops, delays and three wait forms (issue 10, defect 1) ------------ */

/* Every thread of a cooperative grid on one barrier. Threads whose hash says
 * so (a quarter) arrive_and_drop in phase drop_at and return. Each thread
 * picks per phase one of: wait(token); try_wait_for in a loop;
 * arrive_and_wait. Peers are chosen among the threads that never drop (or any
 * thread before drop_at). Each thread also records where it is in prog[g]
 * (phase << 4 | DBT_AT_*), which the host reads if the kernel hangs. */
enum { DBT_AT_ARRIVING = 1, DBT_AT_WAITING = 2, DBT_AT_CHECKING = 3, DBT_AT_DROPPED = 4, DBT_AT_DONE = 5 };

static __device__ __forceinline__ void dbt_at(uint32_t *prog, uint32_t g, uint32_t p, uint32_t where)
{
    *(volatile uint32_t *)&prog[g] = (p << 4) | where;
}

extern "C" __global__ void dbt_drops_kernel(cg_device_barrier_t *bar, uint32_t *slots, dbt_report *rep, uint32_t *prog,
                                            uint64_t seed, uint32_t phases, uint32_t drop_at, uint32_t max_delay_ns)
{
    const uint32_t n = gridDim.x * blockDim.x, g = dbt_gtid();
    const bool dropper = (dbt_mix(seed, 7u, g) & 3u) == 0u;
    unsigned long long checks = 0;
    for (uint32_t p = 0; p < phases; ++p) {
        dbt_at(prog, g, p, DBT_AT_ARRIVING);
        dbt_delay(dbt_mix(seed, p, g), max_delay_ns);
        slots[(size_t)(p & 1u) * n + g] = dbt_val(seed, p, g);
        if (dropper && p == drop_at) {
            cg_device_barrier_arrive_and_drop(bar);
            dbt_at(prog, g, p, DBT_AT_DROPPED);
            atomicAdd(&rep->checks, checks);
            return; /* leaves the barrier and exits */
        }
        const uint32_t form = dbt_mix(seed, p, g ^ 0x55555555u) % 3u;
        if (form == 0) {
            cg_token_t t = cg_device_barrier_arrive(bar);
            dbt_at(prog, g, p, DBT_AT_WAITING);
            dbt_delay(dbt_mix(seed, p, g + 1u), max_delay_ns);
            cg_device_barrier_wait(bar, t);
        } else if (form == 1) {
            cg_token_t t = cg_device_barrier_arrive(bar);
            dbt_at(prog, g, p, DBT_AT_WAITING);
            while (!cg_device_barrier_try_wait_for(bar, t, 500u)) {
            }
        } else {
            cg_device_barrier_arrive_and_wait(bar);
        }
        dbt_at(prog, g, p, DBT_AT_CHECKING);
        uint32_t peer = dbt_mix(seed, p, g + 2u) % n;
        if (p >= drop_at)
            while ((dbt_mix(seed, 7u, peer) & 3u) == 0u)
                peer = (peer + 1u) % n;
        dbt_check(rep, slots, n, seed, p, g, peer);
        ++checks;
        dbt_delay(dbt_mix(seed, p, g + 3u), max_delay_ns);
    }
    dbt_at(prog, g, phases, DBT_AT_DONE);
    atomicAdd(&rep->checks, checks);
}

/* --- 2. lanes of one warp on different barriers (defect 2) ------------------ */

/* bars[k] (k = lane & 1) expects the threads of its lane parity. Peers are
 * threads of the same parity (the other barrier's phases run on their own). */
extern "C" __global__ void dbt_two_bars_kernel(cg_device_barrier_t *bars, uint32_t *slots, dbt_report *rep,
                                               uint64_t seed, uint32_t phases, uint32_t max_delay_ns)
{
    const uint32_t n = gridDim.x * blockDim.x, g = dbt_gtid(), k = g & 1u;
    cg_device_barrier_t *bar = &bars[k];
    unsigned long long checks = 0;
    for (uint32_t p = 0; p < phases; ++p) {
        if ((p & 7u) == 0u)
            dbt_delay(dbt_mix(seed, p, g), max_delay_ns);
        slots[(size_t)(p & 1u) * n + g] = dbt_val(seed, p, g);
        cg_token_t t = cg_device_barrier_arrive(bar); /* converged warp, two barriers */
        cg_device_barrier_wait(bar, t);
        const uint32_t peer = ((dbt_mix(seed, p, g + 2u) % n) & ~1u) | k;
        dbt_check(rep, slots, n, seed, p, g, peer < n ? peer : k);
        ++checks;
    }
    atomicAdd(&rep->checks, checks);
}

/* --- 3. one converged wait with tokens of different phases (defect 3) ------ */

/* Lane 0 of every warp is one phase ahead: it waits for its token of phase p
 * and arrives for p + 1 before the warp's converged wait, in which lane 0
 * waits for p + 1 and lanes 1..31 for p. Lanes 1..31 arrive for p + 1 only
 * after that wait returns to them, so a wait that polled lane 0's token for
 * the whole warp never returns. */
extern "C" __global__ void dbt_mixed_tokens_kernel(cg_device_barrier_t *bar, uint32_t *slots, dbt_report *rep,
                                                   uint64_t seed, uint32_t phases)
{
    const uint32_t n = gridDim.x * blockDim.x, g = dbt_gtid(), lane = threadIdx.x & 31u;
    unsigned long long checks = 0;
    uint32_t ph = 0; /* the phase of t */
    slots[g] = dbt_val(seed, 0u, g);
    cg_token_t t = cg_device_barrier_arrive(bar);
    for (uint32_t i = 0; i + 1u < phases; ++i) {
        if (lane == 0u) {
            cg_device_barrier_wait(bar, t);
            dbt_check(rep, slots, n, seed, ph, g, dbt_mix(seed, ph, g) % n);
            ++checks;
            ++ph;
            slots[(size_t)(ph & 1u) * n + g] = dbt_val(seed, ph, g);
            t = cg_device_barrier_arrive(bar);
        }
        __syncwarp();
        cg_device_barrier_wait(bar, t); /* converged: lane 0 waits for ph + 1, the others for ph */
        dbt_check(rep, slots, n, seed, ph, g, dbt_mix(seed, ph, g + 5u) % n);
        ++checks;
        if (lane != 0u) {
            ++ph;
            slots[(size_t)(ph & 1u) * n + g] = dbt_val(seed, ph, g);
            t = cg_device_barrier_arrive(bar);
        }
    }
    if (lane != 0u) {
        cg_device_barrier_wait(bar, t);
        dbt_check(rep, slots, n, seed, ph, g, dbt_mix(seed, ph, g) % n);
        ++checks;
    }
    atomicAdd(&rep->checks, checks);
}

/* --- 4. random mix: several barriers per warp, 3-D blocks, partial warps,
 *        divergent call sites, long runs (>= 10^6 barrier phases) ----------- */

/* Thread g uses bars[owner(g)] for the whole run (the host counts each
 * barrier's threads); odd and even threads arrive from different call sites;
 * a few phases take random delays. Peers: threads with the same owner
 * (peer_of lists them, grouped by owner: start[k] .. start[k+1]). */
extern "C" __global__ void dbt_mix_kernel(cg_device_barrier_t *bars, uint32_t nbars, const uint32_t *by_owner,
                                          const uint32_t *start, uint32_t *slots, dbt_report *rep, uint64_t seed,
                                          uint32_t phases, uint32_t max_delay_ns)
{
    const uint32_t n = gridDim.x * gridDim.y * gridDim.z * blockDim.x * blockDim.y * blockDim.z, g = dbt_gtid();
    const uint32_t k = dbt_mix(seed, 99u, g) % nbars;
    cg_device_barrier_t *bar = &bars[k];
    const uint32_t lo = start[k], cnt = start[k + 1] - lo;
    unsigned long long checks = 0;
    for (uint32_t p = 0; p < phases; ++p) {
        const uint32_t r = dbt_mix(seed, p, g);
        if ((r & 63u) == 0u)
            dbt_delay(r >> 6, max_delay_ns);
        slots[(size_t)(p & 1u) * n + g] = dbt_val(seed, p, g);
        cg_token_t t;
        if (g & 1u) {
            t = cg_device_barrier_arrive(bar);
            if ((r & 255u) == 1u)
                dbt_delay(r >> 8, max_delay_ns);
            cg_device_barrier_wait(bar, t);
        } else {
            t = cg_device_barrier_arrive(bar);
            while (!cg_device_barrier_test_wait(bar, t)) {
            }
        }
        dbt_check(rep, slots, n, seed, p, g, by_owner[lo + (r >> 3) % cnt]);
        ++checks;
    }
    atomicAdd(&rep->checks, checks);
}

/* --- launchers ----------------------------------------------------------- */

extern "C" int dbt_launch_drops(unsigned blocks, unsigned threads, void *bar, uint32_t *slots, void *rep,
                                uint32_t *prog, uint64_t seed, uint32_t phases, uint32_t drop_at, uint32_t max_delay_ns)
{
    void *args[] = {&bar, &slots, &rep, &prog, &seed, &phases, &drop_at, &max_delay_ns};
    return (int)cudaLaunchCooperativeKernel((const void *)dbt_drops_kernel, dim3(blocks), dim3(threads), args, 0, 0);
}

extern "C" int dbt_launch_two_bars(unsigned blocks, unsigned threads, void *bars, uint32_t *slots, void *rep,
                                   uint64_t seed, uint32_t phases, uint32_t max_delay_ns)
{
    void *args[] = {&bars, &slots, &rep, &seed, &phases, &max_delay_ns};
    return (int)cudaLaunchCooperativeKernel((const void *)dbt_two_bars_kernel, dim3(blocks), dim3(threads), args, 0,
                                            0);
}

extern "C" int dbt_launch_mixed_tokens(unsigned blocks, unsigned threads, void *bar, uint32_t *slots, void *rep,
                                       uint64_t seed, uint32_t phases)
{
    void *args[] = {&bar, &slots, &rep, &seed, &phases};
    return (int)cudaLaunchCooperativeKernel((const void *)dbt_mixed_tokens_kernel, dim3(blocks), dim3(threads), args,
                                            0, 0);
}

extern "C" int dbt_launch_mix(unsigned blocks, unsigned bx, unsigned by, unsigned bz, void *bars, uint32_t nbars,
                              const uint32_t *by_owner, const uint32_t *start, uint32_t *slots, void *rep,
                              uint64_t seed, uint32_t phases, uint32_t max_delay_ns)
{
    void *args[] = {&bars, &nbars, &by_owner, &start, &slots, &rep, &seed, &phases, &max_delay_ns};
    return (int)cudaLaunchCooperativeKernel((const void *)dbt_mix_kernel, dim3(blocks), dim3(bx, by, bz), args, 0, 0);
}

extern "C" int dbt_max_blocks_per_sm(int which, unsigned threads, int *per_sm)
{
    const void *fns[] = {(const void *)dbt_drops_kernel, (const void *)dbt_two_bars_kernel,
                         (const void *)dbt_mixed_tokens_kernel, (const void *)dbt_mix_kernel};
    return (int)cudaOccupancyMaxActiveBlocksPerMultiprocessor(per_sm, fns[which], (int)threads, 0);
}

/* The host's mirror of the owner hash (mix kernel) and of the dropper hash. */
extern "C" uint32_t dbt_host_mix(uint64_t seed, uint64_t a, uint64_t b)
{
    return adv_mix(seed, a, b);
}

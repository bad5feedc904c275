/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/grid_split_kernels.cuh — the grid split barrier's test kernel,
 * built twice: grid_split_kernels.cu with the library's barrier and
 * grid_split_control_kernels.cu with the positive control's (the acquire
 * side weakened: CG_GRID_POLL_ACQUIRE 0, relaxed polls and no fence, so a
 * waiter's SM may serve lines it cached in an earlier phase). The includer
 * defines GS_NAME(x), the suffix of its launcher. */
#include "cg/groups.h"
#include "cg/launch.h"
#include "tests/cg/barrier_kernels.h"
#include "tests/cg/grid_split_kernels.h"

__device__ static uint32_t GS_NAME(gs_mix)(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u ^ (c + 0x165667B1u) * 0xC2B2AE3Du ^ d * 0x27D4EB2Fu;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return h;
}

/* The value grid thread t publishes in word k of phase i. */
__device__ static uint32_t GS_NAME(gs_code)(uint32_t seed, uint32_t i, uint32_t k, uint32_t t)
{
    return GS_NAME(gs_mix)(seed, i, k, t) | 1u;
}

__device__ static void GS_NAME(gs_fail)(cgt_fail_t *f, uint32_t iter, uint32_t got, uint32_t want)
{
    if (atomicAdd(&f->errors, 1u) == 0) {
        f->first_iter = iter;
        f->first_block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
        f->first_thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
        f->got = got;
        f->want = want;
    }
}

/* Each phase i: every thread stores GS_WORDS words (each in its own
 * stretch of buf, so they sit in different lines) after a random pause,
 * arrives on one of `objects` const cg_grid_t (1: one for the kernel; 3:
 * two kept and one made fresh for the phase), works between arrive and
 * wait (GS_DELAYS: a random pause per block, up to ~4 us, in one phase of
 * four; thread 0 also publishes that its block arrived and waits, bounded,
 * until the next block says the same: an arrive that waited for another
 * block's wait would stall it), waits, and reads the GS_WORDS words of a
 * thread of another block: the same thread of the block `off` ranks on,
 * where off changes every fourth phase, so phases i and i + 2 (one buffer)
 * read the same addresses and a waiter whose SM kept the lines of phase i
 * would read them stale in phase i + 2 (what the control's missing acquire
 * allows); a warp reads whole lines (a block's reads fit its SM's L1). A
 * wrong word is counted (the control's are expected), one check per thread
 * and phase; thread 0 of block 0 counts the phases. buf: 2 * GS_WORDS * (grid threads) words; ring: one word per
 * block, zeroed. */
#define GS_WORDS 4u
__global__ void GS_NAME(k_grid_work)(uint32_t iters, uint32_t seed, uint32_t objects, uint32_t delays,
                                     uint32_t *buf, uint32_t *ring, cgt_fail_t *f)
{
    const cg_grid_t kept[2] = {cg_this_grid(), cg_this_grid()};
    const uint32_t gt = (uint32_t)cg_grid_thread_rank(&kept[0]), total = (uint32_t)cg_grid_num_threads(&kept[0]);
    const uint32_t b = (uint32_t)cg_grid_block_rank(&kept[0]), nb = (uint32_t)cg_grid_num_blocks(&kept[0]);
    const uint32_t bsize = total / nb, tid = gt - b * bsize;
    unsigned long long checks = 0, phases = 0;
    for (uint32_t i = 0; i < iters; i++) {
        const uint32_t h = GS_NAME(gs_mix)(seed, i, b, tid);
        if (delays && (h & 7u) == 0)
            __nanosleep((h >> 3) & 511u);
        for (uint32_t k = 0; k < GS_WORDS; k++)
            buf[((i & 1u) * GS_WORDS + k) * total + gt] = GS_NAME(gs_code)(seed, i, k, gt);
        const cg_grid_t fresh = cg_this_grid();
        const uint32_t which = objects == 3u ? i % 3u : 0u;
        const cg_grid_t *g = which == 2u ? &fresh : &kept[which];
        const cg_token_t t = cg_grid_barrier_arrive(g);
        if (delays) {
            const uint32_t hb = GS_NAME(gs_mix)(seed ^ 0xB10Cu, i, b, 0);
            if ((hb & 3u) == 0)
                __nanosleep((hb >> 2) & 4095u);
            if (tid == 0) {
                volatile uint32_t *r = ring;
                atomicMax(&ring[b], i + 1u);
                uint32_t spins = 0;
                while (r[(b + 1u) % nb] < i + 1u && ++spins < (1u << 22))
                    __nanosleep(64);
                if (spins >= (1u << 22))
                    atomicAdd(&f->timeouts, 1u);
            }
        }
        cg_grid_barrier_wait(g, t);
        phases += gt == 0;
        const uint32_t off = nb > 1 ? 1u + GS_NAME(gs_mix)(seed ^ 0x0FFu, i >> 2, 0, 0) % (nb - 1u) : 0u;
        const uint32_t peer = ((b + off) % nb) * bsize + tid;
        for (uint32_t k = 0; k < GS_WORDS; k++) {
            const uint32_t got = buf[((i & 1u) * GS_WORDS + k) * total + peer];
            const uint32_t want = GS_NAME(gs_code)(seed, i, k, peer);
            if (got != want) {
                GS_NAME(gs_fail)(f, i, got, want);
                break;
            }
        }
        ++checks;
    }
    if (checks)
        atomicAdd(&f->checks, checks);
    if (phases)
        atomicAdd(&f->phases, phases);
}

extern "C" cg_status_t GS_NAME(cgt_launch_grid_work)(const cgt_grid_shape_t *s, uint32_t iters, uint32_t seed,
                                                     uint32_t objects, uint32_t delays, uint32_t *buf, uint32_t *ring,
                                                     cgt_fail_t *f)
{
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    void *args[] = {&iters, &seed, &objects, &delays, &buf, &ring, &f};
    cfg.grid.x = s->grid[0];
    cfg.grid.y = s->grid[1];
    cfg.grid.z = s->grid[2];
    cfg.block.x = s->block[0];
    cfg.block.y = s->block[1];
    cfg.block.z = s->block[2];
    cfg.cooperative = 1;
    return cg_launch(&cfg, (const void *)GS_NAME(k_grid_work), args);
}

extern "C" const void *GS_NAME(cgt_grid_work_kernel)(void) { return (const void *)GS_NAME(k_grid_work); }

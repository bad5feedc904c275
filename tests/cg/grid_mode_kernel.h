/* tests/cg/grid_mode_kernel.h — the failure record the barrier kernels share,
 * and the grid-phases kernel that also reports which
 * barrier algorithm its launch used, built by barrier_kernels.cu (library
 * defaults) and grid_one_slot_kernels.cu (CG_GRID_FLAGS_SLOTS=1). */
#ifndef CGT_GRID_MODE_KERNEL_H
#define CGT_GRID_MODE_KERNEL_H

#include "cg/groups.h"
#include "tests/cg/barrier_kernels.h"

/* Count a mismatch; the first one is kept with where it happened. */
__device__ static void fail(cgt_fail_t *f, uint32_t iter, uint32_t got, uint32_t want)
{
    if (atomicAdd(&f->errors, 1u) == 0) {
        f->first_iter = iter;
        f->first_block = blockIdx.x;
        f->first_thread = threadIdx.x;
        f->got = got;
        f->want = want;
    }
}

/* As k_grid_phases (slots[2][blocks], checked every phase), and:
 *   info[0] = the launch's workspace address (block 0);
 *   info[1] |= 1 for each block whose first arrival took the flag barrier,
 *              2 for each that took the flat one (3: the blocks disagreed). */
#define CGT_GRID_MODE_KERNEL(kname)                                             \
    __global__ void kname(uint32_t iters, uint32_t *slots, cgt_fail_t *f,                \
                          unsigned long long *info)                                      \
    {                                                                                    \
        cg_grid_t g = cg_this_grid();                                                    \
        uint32_t b = (uint32_t)cg_grid_block_rank(&g), n = (uint32_t)cg_grid_num_blocks(&g); \
        volatile uint32_t *s = slots;                                                    \
        for (uint32_t i = 0; i < iters; i++) {                                           \
            if (threadIdx.x == 0)                                                        \
                s[(i & 1) * n + b] = i;                                                  \
            cg_token_t t = cg_grid_barrier_arrive(&g);                                   \
            if (i == 0 && threadIdx.x == 0) {                                            \
                atomicOr(&info[1], (t._opaque & CG__GRID_TOK_FLAGS) ? 1ull : 2ull);      \
                if (b == 0)                                                              \
                    info[0] = (unsigned long long)(uintptr_t)g._barrier;                 \
            }                                                                            \
            cg_grid_barrier_wait(&g, t);                                                 \
            if (threadIdx.x == 0) {                                                      \
                uint32_t peer = (b + 1u + i) % n, got = s[(i & 1) * n + peer];           \
                if (got != i)                                                            \
                    fail(f, i, got, i);                                                  \
            }                                                                            \
        }                                                                                \
        if (threadIdx.x == 0)                                                            \
            atomicAdd(&f->iterations_done, (unsigned long long)iters);                   \
    }

#endif /* CGT_GRID_MODE_KERNEL_H */

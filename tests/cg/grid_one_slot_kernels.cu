/* tests/cg/grid_one_slot_kernels.cu — the grid-mode kernel in a module whose
 * grid barrier has a single flag slot (CG_GRID_FLAGS_SLOTS=1), so a second
 * launch running beside the first must fall back to the flat barrier. */
#define CG_GRID_FLAGS_SLOTS 1
#include "cg/launch.h"
#include "tests/cg/grid_mode_kernel.h"

CGT_GRID_MODE_KERNEL(k_grid_mode_one_slot)

extern "C" cg_status_t cgt_launch_grid_mode_one_slot(uint32_t blocks, uint32_t threads, uint32_t iters,
                                                     uint32_t *slots, cgt_fail_t *f, unsigned long long *info,
                                                     cudaStream_t stream)
{
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    void *args[] = {&iters, &slots, &f, &info};
    cfg.grid.x = blocks;
    cfg.block.x = threads;
    cfg.cooperative = 1;
    cfg.stream = stream;
    return cg_launch(&cfg, (const void *)k_grid_mode_one_slot, args);
}

extern "C" const void *cgt_grid_mode_one_slot_kernel(void) { return (const void *)k_grid_mode_one_slot; }

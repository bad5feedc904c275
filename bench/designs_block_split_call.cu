/*
 * bench/designs_block_split_call.cu — the block group's split barrier with its
 * one-time setup in an out-of-line function (CG_THREAD_BLOCK_SETUP_CALL=1),
 * so the steady-state loop may keep no branch around it, against the
 * library's inline setup (cg/thread_block.h, "The per-phase path").
 */
#define CG_THREAD_BLOCK_SETUP_CALL 1
#include "bench/cgc_kernels.h"

BENCH_BLOCK_SPLIT_KERNEL(kd_block_split_call, 0)
BENCH_EXPORT(d_block_split_call, kd_block_split_call)

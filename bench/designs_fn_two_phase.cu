/*
 * bench/designs_fn_two_phase.cu — cg_barrier_fn_t's other design, for the
 * benchmark's comparison (barrier/barrier.h, "Designs measured"): the
 * collecting phase is an mbarrier phase of its own, which the completer ends
 * and acquires with the mbarrier's arrive -> wait edge; waiters wait for two
 * mbarrier phases per barrier phase.
 */
#define CG_BARRIER_FN_TWO_PHASE 1
#include "bench/cgc_kernels.h"

BENCH_COMPL_LIGHT_KERNEL(kd_barrier_compl_light_two_phase)
BENCH_EXPORT(d_barrier_compl_light_two_phase, kd_barrier_compl_light_two_phase)

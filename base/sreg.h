/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * base/sreg.h — every read of a PTX special register in the library: the
 * thread's and warp's registers, clocks and timers, the grid workspace's
 * %envreg1/2 and the cluster registers (sm_90). One wrapper per register,
 * here only: one generated function each (sreg_forms.h).
 */
#ifndef CG_BASE_SREG_H
#define CG_BASE_SREG_H

#include "config.h"
#include "ptx_form.h"

#if CG_DEVICE_CODE_VISIBLE

/* The registers (sreg_forms.h, written by tools/ptx/gen.py from sreg_forms.tbl). The timers are
 * VOLATILE: two reads must not merge. The others are PURE, constant for the
 * thread's life (the cluster ones for the CTA's), so the compiler may merge
 * repeated reads (as it does for threadIdx). */
#include "sreg_forms.h"

/* mov.u32 d, %envreg1; mov.u32 d, %envreg2;   PTX ISA 2.1, sm_20.
 * The driver's grid workspace address in a launch, high word in %envreg1,
 * low word in %envreg2 (the ABI C++ cooperative groups reads too); 0 when
 * the launch has none. The two registers are only ever read together, so
 * they are one hand-written wrapper, not two forms. */
CG_DEVICE uint64_t cg_sreg_grid_workspace_(void)
{
    uint32_t hi, lo;
    asm("mov.u32 %0, %%envreg1;" : "=r"(hi));
    asm("mov.u32 %0, %%envreg2;" : "=r"(lo));
    return ((uint64_t)hi << 32) | lo;
}

/* mov.pred p, %is_explicit_cluster;          PTX ISA 7.8, sm_90
 * 1 when the launch named a cluster shape (even 1x1x1), 0 for the implicit
 * 1-CTA clusters of a launch without one. Hand-written: the predicate is
 * turned into the result inside the asm. Not volatile, as the generated
 * cluster registers. */
CG_DEVICE_SM90 uint32_t cg_hw_is_explicit_cluster(void)
{
    uint32_t r = 0;
    CG_AT_SM90_(asm("{\n\t.reg .pred p;\n\t"
                    "mov.pred p, %%is_explicit_cluster;\n\t"
                    "selp.u32 %0, 1, 0, p;\n\t}"
                    : "=r"(r));)
    return r;
}

/* The debug-build wait bound, in one 32-bit register: %globaltimer in units
 * of 1024 ns (2^32 of them are 73 minutes, far above any bound), so a wait
 * site keeps one register for its start time instead of two. Start, then
 * test after each failed try; CG_DEBUG_WAIT_TIMEOUT_NS rounds down to
 * 1024 ns. */
#define CG_DEBUG_TIMER_SHIFT_ 10
CG_DEVICE uint32_t cg_debug_timer_start_(void)
{
    return (uint32_t)(cg_sreg_globaltimer_ns() >> CG_DEBUG_TIMER_SHIFT_);
}
CG_DEVICE bool cg_debug_timer_expired_(uint32_t t0)
{
    return cg_debug_timer_start_() - t0 > (uint32_t)((uint64_t)CG_DEBUG_WAIT_TIMEOUT_NS >> CG_DEBUG_TIMER_SHIFT_);
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_BASE_SREG_H */

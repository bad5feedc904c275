/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * base/smem.h — shared::cta accesses in forms C does not give: a move of a
 * shared address the compiler cannot look into, and a predicated pair of
 * loads. Each steers the code ptxas makes on a hot path (the thread block's
 * split barrier, cg/thread_block.h, says where and why).
 */
#ifndef CG_BASE_SMEM_H
#define CG_BASE_SMEM_H

#include "config.h"
#include "ptx_form.h"

#if CG_DEVICE_CODE_VISIBLE

/* The forms: smem_forms.h (the opaque address move), written by tools/ptx/gen.py from smem_forms.tbl. */
#include "smem_forms.h"

/* @p ld.shared.u64 d64, [a64]; @p ld.shared.u32 d32, [a32];   PTX ISA 2.0, sm_20.
 * With `pred` nonzero, loads *v64 from shared::cta address a64 and *v32
 * from a32; with it zero, leaves both as they are and touches no memory.
 * Predicated rather than branched, so ptxas sees no branch. Hand-written:
 * two results and a predicate built inside the asm. */
CG_DEVICE void cg_smem_ld_pred_u64_u32_(uint32_t pred, uint32_t a64, uint32_t a32, uint64_t *v64, uint32_t *v32)
{
    uint64_t g = *v64;
    uint32_t k = *v32;
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.ne.u32 p, %2, 0;\n\t"
                 "@p ld.shared.u64 %0, [%3];\n\t"
                 "@p ld.shared.u32 %1, [%4];\n\t}"
                 : "+l"(g), "+r"(k)
                 : "r"(pred), "r"(a64), "r"(a32)
                 : "memory");
    *v64 = g;
    *v32 = k;
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_BASE_SMEM_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * base/gpu_scope.h — memory operations on words in global memory at
 * .gpu scope, for the barriers whose state lives there: the device-scope
 * barrier (barrier/device_barrier.h) and the grid barrier (barrier/grid_barrier.h).
 *
 * One table row per PTX form (base/ptx_form.h stamps the wrappers); the
 * order and scope are in the instruction and every one has a "memory"
 * clobber, so the compiler moves no access across it.
 */
#ifndef CG_BASE_GPU_SCOPE_H
#define CG_BASE_GPU_SCOPE_H

#include "config.h"
#include "ptx_form.h"

#if CG_DEVICE_CODE_VISIBLE

/* The forms (base/ptx_form.h reads the columns). The atomics return the old
 * value; max stores max(old, v); cas stores v where old == cmp. */
/* clang-format off */
#define CG_GPU_SCOPE_FORMS(X) \
    X(VALUE, cg_gpu_atom_add_release_u32, 60, 70, MEM, uint32_t, "=r", (uint32_t *p, uint32_t v),               "atom.release.gpu.global.add.u32 %0, [%1], %2;",     ("l"(p), "r"(v))) \
    X(VALUE, cg_gpu_atom_add_acq_rel_u32, 60, 70, MEM, uint32_t, "=r", (uint32_t *p, uint32_t v),               "atom.add.acq_rel.gpu.global.u32 %0, [%1], %2;",     ("l"(p), "r"(v))) \
    X(VALUE, cg_gpu_atom_add_release_u64, 60, 70, MEM, uint64_t, "=l", (uint64_t *p, uint64_t v),               "atom.release.gpu.global.add.u64 %0, [%1], %2;",     ("l"(p), "l"(v))) \
    X(VALUE, cg_gpu_atom_add_acq_rel_u64, 60, 70, MEM, uint64_t, "=l", (uint64_t *p, uint64_t v),               "atom.acq_rel.gpu.global.add.u64 %0, [%1], %2;",     ("l"(p), "l"(v))) \
    X(VALUE, cg_gpu_atom_add_relaxed_u64, 60, 70, MEM, uint64_t, "=l", (uint64_t *p, uint64_t v),               "atom.relaxed.gpu.global.add.u64 %0, [%1], %2;",     ("l"(p), "l"(v))) \
    X(VALUE, cg_gpu_atom_max_acquire_u64, 60, 70, MEM, uint64_t, "=l", (uint64_t *p, uint64_t v),               "atom.acquire.gpu.global.max.u64 %0, [%1], %2;",     ("l"(p), "l"(v))) \
    X(VALUE, cg_gpu_atom_cas_relaxed_u64, 60, 70, MEM, uint64_t, "=l", (uint64_t *p, uint64_t cmp, uint64_t v), "atom.relaxed.gpu.global.cas.b64 %0, [%1], %2, %3;", ("l"(p), "l"(cmp), "l"(v))) \
    X(VALUE, cg_gpu_ld_relaxed_u32,       60, 70, MEM, uint32_t, "=r", (const uint32_t *p),                     "ld.relaxed.gpu.global.u32 %0, [%1];",               ("l"(p))) \
    X(VALUE, cg_gpu_ld_relaxed_u64,       60, 70, MEM, uint64_t, "=l", (const uint64_t *p),                     "ld.relaxed.gpu.global.u64 %0, [%1];",               ("l"(p))) \
    X(VALUE, cg_gpu_ld_acquire_u32,       60, 70, MEM, uint32_t, "=r", (const uint32_t *p),                     "ld.acquire.gpu.global.u32 %0, [%1];",               ("l"(p))) \
    X(VALUE, cg_gpu_ld_acquire_u64,       60, 70, MEM, uint64_t, "=l", (const uint64_t *p),                     "ld.acquire.gpu.global.u64 %0, [%1];",               ("l"(p))) \
    X(VOID,  cg_gpu_st_relaxed_u32,       60, 70, MEM,                 (uint32_t *p, uint32_t v),               "st.relaxed.gpu.global.u32 [%0], %1;",               ("l"(p), "r"(v))) \
    X(VOID,  cg_gpu_st_relaxed_u64,       60, 70, MEM,                 (uint64_t *p, uint64_t v),               "st.relaxed.gpu.global.u64 [%0], %1;",               ("l"(p), "l"(v))) \
    X(VOID,  cg_gpu_st_release_u32,       60, 70, MEM,                 (uint32_t *p, uint32_t v),               "st.release.gpu.global.u32 [%0], %1;",               ("l"(p), "r"(v))) \
    X(VOID,  cg_gpu_st_release_u64,       60, 70, MEM,                 (uint64_t *p, uint64_t v),               "st.release.gpu.global.u64 [%0], %1;",               ("l"(p), "l"(v))) \
    X(VOID,  cg_gpu_red_add_release_u32,  60, 70, MEM,                 (uint32_t *p, uint32_t v),               "red.release.gpu.global.add.u32 [%0], %1;",          ("l"(p), "r"(v))) \
    X(VOID,  cg_gpu_red_add_relaxed_u32,  60, 70, MEM,                 (uint32_t *p, uint32_t v),               "red.relaxed.gpu.global.add.u32 [%0], %1;",          ("l"(p), "r"(v))) \
    X(VOID,  cg_gpu_red_add_relaxed_u64,  60, 70, MEM,                 (uint64_t *p, uint64_t v),               "red.relaxed.gpu.global.add.u64 [%0], %1;",          ("l"(p), "l"(v))) \
    X(VOID,  cg_gpu_fence_acq_rel,        60, 70, MEM,                 (void),                                  "fence.acq_rel.gpu;",                                ())
/* clang-format on */

CG_GPU_SCOPE_FORMS(CG_PTX_FORM)

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_BASE_GPU_SCOPE_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * base/gpu_scope.h — memory operations on words in global memory at
 * .gpu scope, for the barriers whose state lives there: the device-scope
 * barrier (barrier/device_barrier.h) and the grid barrier (barrier/grid_barrier.h).
 *
 * One wrapper per PTX form; the order and scope are in the instruction and
 * every one has a "memory" clobber, so the compiler moves no access across it.
 */
#ifndef CG_BASE_GPU_SCOPE_H
#define CG_BASE_GPU_SCOPE_H

#include "config.h"

#if CG_DEVICE_CODE_VISIBLE

/* atom.release.gpu.global.add.u32 d, [a], v;   PTX ISA 6.0, sm_70. */
CG_DEVICE uint32_t cg_gpu_atom_add_release_u32(uint32_t *p, uint32_t v)
{
    uint32_t old;
    asm volatile("atom.release.gpu.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}

/* atom.add.acq_rel.gpu.global.u32 d, [a], v;   PTX ISA 6.0, sm_70 (the operation first, as emitted). */
CG_DEVICE uint32_t cg_gpu_atom_add_acq_rel_u32(uint32_t *p, uint32_t v)
{
    uint32_t old;
    asm volatile("atom.add.acq_rel.gpu.global.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}

/* atom.release.gpu.global.add.u64 d, [a], v;   PTX ISA 6.0, sm_70. */
CG_DEVICE uint64_t cg_gpu_atom_add_release_u64(uint64_t *p, uint64_t v)
{
    uint64_t old;
    asm volatile("atom.release.gpu.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(p), "l"(v) : "memory");
    return old;
}

/* atom.acq_rel.gpu.global.add.u64 d, [a], v;   PTX ISA 6.0, sm_70. */
CG_DEVICE uint64_t cg_gpu_atom_add_acq_rel_u64(uint64_t *p, uint64_t v)
{
    uint64_t old;
    asm volatile("atom.acq_rel.gpu.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(p), "l"(v) : "memory");
    return old;
}

/* atom.relaxed.gpu.global.add.u64 d, [a], v;   PTX ISA 6.0, sm_70. */
CG_DEVICE uint64_t cg_gpu_atom_add_relaxed_u64(uint64_t *p, uint64_t v)
{
    uint64_t old;
    asm volatile("atom.relaxed.gpu.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(p), "l"(v) : "memory");
    return old;
}

/* atom.acquire.gpu.global.max.u64 d, [a], v;   PTX ISA 6.0, sm_70.
 * d = old; new = max(old, v). */
CG_DEVICE uint64_t cg_gpu_atom_max_acquire_u64(uint64_t *p, uint64_t v)
{
    uint64_t old;
    asm volatile("atom.acquire.gpu.global.max.u64 %0, [%1], %2;" : "=l"(old) : "l"(p), "l"(v) : "memory");
    return old;
}

/* atom.relaxed.gpu.global.cas.b64 d, [a], cmp, v;   PTX ISA 6.0, sm_70. */
CG_DEVICE uint64_t cg_gpu_atom_cas_relaxed_u64(uint64_t *p, uint64_t cmp, uint64_t v)
{
    uint64_t old;
    asm volatile("atom.relaxed.gpu.global.cas.b64 %0, [%1], %2, %3;"
                 : "=l"(old)
                 : "l"(p), "l"(cmp), "l"(v)
                 : "memory");
    return old;
}

/* ld.relaxed.gpu.global.u64 d, [a];   PTX ISA 6.0, sm_70. */
CG_DEVICE uint64_t cg_gpu_ld_relaxed_u64(const uint64_t *p)
{
    uint64_t v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

/* st.relaxed.gpu.global.u32 [a], v;   PTX ISA 6.0, sm_70. */
CG_DEVICE void cg_gpu_st_relaxed_u32(uint32_t *p, uint32_t v)
{
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/* st.relaxed.gpu.global.u64 [a], v;   PTX ISA 6.0, sm_70. */
CG_DEVICE void cg_gpu_st_relaxed_u64(uint64_t *p, uint64_t v)
{
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

/* red.release.gpu.global.add.u32 [a], v;   PTX ISA 6.0, sm_70. */
CG_DEVICE void cg_gpu_red_add_release_u32(uint32_t *p, uint32_t v)
{
    asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/* red.relaxed.gpu.global.add.u32 [a], v;   PTX ISA 6.0, sm_70. */
CG_DEVICE void cg_gpu_red_add_relaxed_u32(uint32_t *p, uint32_t v)
{
    asm volatile("red.relaxed.gpu.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/* red.relaxed.gpu.global.add.u64 [a], v;   PTX ISA 6.0, sm_70. */
CG_DEVICE void cg_gpu_red_add_relaxed_u64(uint64_t *p, uint64_t v)
{
    asm volatile("red.relaxed.gpu.global.add.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

/* fence.acq_rel.gpu;   PTX ISA 6.0, sm_70. */
CG_DEVICE void cg_gpu_fence_acq_rel(void)
{
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
}

/* ld.acquire.gpu.global.u32 d, [a];   PTX ISA 6.0, sm_70. */
CG_DEVICE uint32_t cg_gpu_ld_acquire_u32(const uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

/* ld.acquire.gpu.global.u64 d, [a];   PTX ISA 6.0, sm_70. */
CG_DEVICE uint64_t cg_gpu_ld_acquire_u64(const uint64_t *p)
{
    uint64_t v;
    asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

/* ld.relaxed.gpu.global.u32 d, [a];   PTX ISA 6.0, sm_70. */
CG_DEVICE uint32_t cg_gpu_ld_relaxed_u32(const uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

/* st.release.gpu.global.u32 [a], v;   PTX ISA 6.0, sm_70. */
CG_DEVICE void cg_gpu_st_release_u32(uint32_t *p, uint32_t v)
{
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/* st.release.gpu.global.u64 [a], v;   PTX ISA 6.0, sm_70. */
CG_DEVICE void cg_gpu_st_release_u64(uint64_t *p, uint64_t v)
{
    asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_BASE_GPU_SCOPE_H */

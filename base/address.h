/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * base/address.h — the address-space conversions of cgc, in one place.
 *
 * Every other header that needs a shared::cta or shared::cluster address gets
 * it from here; this is where the debug checks on addresses live.
 *
 *   shared::cta address     32-bit offset of this CTA's shared window
 *   shared::cluster address 32-bit address into the cluster's distributed window
 *   generic address         a plain C pointer
 */
#ifndef CG_BASE_ADDRESS_H
#define CG_BASE_ADDRESS_H

#include "config.h"
#include "ptx_form.h"
#include "sreg.h"

#if CG_DEVICE_CODE_VISIBLE

/* A generic pointer into this CTA's shared memory -> its 32-bit shared::cta
 * address (cvta.to.shared, PTX ISA 2.0, sm_20). The shared::cta window is also
 * a valid shared::cluster address of the executing CTA. */
#if CG_DEBUG
CG_REPORT_ void cg_report_not_shared_(const char *what, const void *ptr)
{
    printf("cgc: %s(%p): pointer is not in shared memory (block %d,%d,%d thread %d)\n", what, ptr, blockIdx.x,
           blockIdx.y, blockIdx.z, threadIdx.x);
    __trap();
}

CG_REPORT_ void cg_report_rank_outside_(const void *ptr, uint32_t rank, uint32_t n)
{
    printf("cgc: map_shared_rank(%p, rank %u): the cluster has %u blocks\n", ptr, rank, n);
    __trap();
}
#endif

CG_DEVICE uint32_t cg_smem_addr(const void *ptr)
{
#if CG_DEBUG
    if (CG_UNLIKELY_(!__isShared(ptr)))
        cg_report_not_shared_("cg_smem_addr", ptr);
#endif
    return (uint32_t)__cvta_generic_to_shared(ptr);
}

/* cvta.shared.u64 d, a (PTX ISA 2.0, sm_20): the generic pointer of a
 * shared::cta address of this CTA (the inverse of cg_smem_addr; the debug
 * reports use it to read a barrier they were handed by address). */
CG_DEVICE void *cg_smem_generic(uint32_t smem_addr)
{
    return __cvta_shared_to_generic((size_t)smem_addr);
}

/* The forms (address_forms.h, written by tools/ptx/gen.py from address_forms.tbl): VOLATILE, no "memory"
 * clobber (they compute an address and touch no memory). */
#include "address_forms.h"

/* mapa.u64 d, a, rank (PTX ISA 7.8, sm_90): a generic pointer to the
 * same-offset location in CTA `rank` of this cluster; loads and stores through
 * it reach that CTA's shared memory (DSMEM). */
CG_DEVICE_SM90 void *cg_smem_map_rank_ptr(const void *ptr, uint32_t rank)
{
#if CG_DEBUG && CG_ARCH_HAS_SM90
    {
        uint32_t n = cg_hw_cluster_nctarank();
        if (CG_UNLIKELY_(rank >= n))
            cg_report_rank_outside_(ptr, rank, n);
        if (CG_UNLIKELY_(!__isShared(ptr)))
            cg_report_not_shared_("map_shared_rank", ptr);
    }
#endif
    return (void *)(uintptr_t)cg_smem_mapa_u64_((uint64_t)(uintptr_t)ptr, rank);
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_BASE_ADDRESS_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * base/ptx_form.h — how cgc writes a PTX instruction: as one row of its
 * family's table, from which a wrapper function is stamped.
 *
 * Every family header (base/gpu_scope.h, barrier/mbarrier.h, ...) lists its
 * forms in one X-macro table, one row per form:
 *
 *   #define CG_GPU_SCOPE_FORMS(X) \
 *       X(VALUE, cg_gpu_ld_acquire_u32, 60, 70, MEM, uint32_t, "=r", (const uint32_t *p), "ld.acquire...", ("l"(p)))
 *   CG_GPU_SCOPE_FORMS(CG_PTX_FORM)
 *
 * one row per line, the columns of neighbouring rows aligned
 * (tools/format_ptx_tables.py lays a table out; CI checks it).
 *
 * The columns, in order:
 *   shape   VALUE (one result, returned) or VOID (none)
 *   name    the wrapper's name
 *   isa     the lowest PTX ISA version with the form, times ten (86 = 8.6):
 *           a static_assert stops a toolkit that is too old at the row
 *   sm      the lowest target with the form: 70, 80, 90 or 90a. A form above
 *           70 is gated with the arch idiom below, and an sm_90 form is
 *           CG_DEVICE_SM90 (a call compiled for an older target stops the
 *           build at the caller's line, base/config.h). 90a: the forms of
 *           the arch-specific targets only (multicast copies), gated with
 *           CG_AT_MULTICAST_; CG_DEVICE, so a fat build's older passes
 *           compile them and ptxas names the missing feature
 *   flavor  MEM:      asm volatile, "memory" clobber (every form that orders
 *                     or touches memory);
 *           VOLATILE: asm volatile, no clobber (a register that changes, a
 *                     timer);
 *           PURE:     plain asm, no clobber (a value constant for the
 *                     thread's life: the compiler may merge repeated reads)
 *   type, constraint   (VALUE only) the result's C type and asm output
 *           constraint ("=r" for 32 bits, "=l" for 64)
 *   params  the wrapper's parameter list, in parentheses
 *   ptx     the instruction, exactly as emitted (%0 is the result of a VALUE
 *           form, then the operands in order)
 *   operands  the asm inputs, in parentheses: ("l"(p), "r"(v))
 *
 * So the PTX line a reader sees in the table is the line the compiler
 * emits: documentation and code are one string.
 *
 * Forms that a table cannot say (more than one result, a predicate built
 * inside the asm, a loop) are written out by hand in the family's header,
 * with the same gates (below) and a comment giving the
 * PTX line, ISA version and SM. The layering test allows `asm` only in the
 * family headers it lists.
 *
 * The arch-gating idiom, for every form and every hand-written asm:
 *   CG_AT_SM90_(statement)   the statement in a device pass for sm_90 or
 *                            newer; below sm_90, the call whose unresolved
 *                            name is the message (CG_REQUIRE_SM90); nothing
 *                            in the host pass
 *   CG_AT_SM80_(statement)   the same for sm_80
 *   CG_AT_MULTICAST_(statement)  the same for the arch-specific targets
 *                            (sm_90a, sm_100a: CG_ARCH_HAS_MULTICAST)
 *   CG_AT_SM90_ELSE_SM80_(sm90, sm80)  a form with an sm_80 fallback
 * (defined in base/config.h, next to the feature macros.)
 */
#ifndef CG_BASE_PTX_FORM_H
#define CG_BASE_PTX_FORM_H

#include "config.h"

#if CG_DEVICE_CODE_VISIBLE

/* The PTX ISA version this toolkit emits, times ten (the CUDA 12.x and 13.x
 * release notes); unknown (NVRTC without the version macros): no check. */
#if !defined(__CUDACC_VER_MAJOR__)
#define CG_PTX_ISA_AVAILABLE_ 999
#elif __CUDACC_VER_MAJOR__ >= 13
#define CG_PTX_ISA_AVAILABLE_ 90
#elif __CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 9
#define CG_PTX_ISA_AVAILABLE_ 88
#elif __CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 8
#define CG_PTX_ISA_AVAILABLE_ 87
#elif __CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 5
#define CG_PTX_ISA_AVAILABLE_ 85
#elif __CUDACC_VER_MAJOR__ == 12
#define CG_PTX_ISA_AVAILABLE_ (80 + __CUDACC_VER_MINOR__)
#else
#define CG_PTX_ISA_AVAILABLE_ 78
#endif

#define CG_PTX_LIST_(...) __VA_ARGS__

/* The function's attribute and its body's gate, by the row's sm column. */
#define CG_PTX_DEVICE_70_ CG_DEVICE
#define CG_PTX_DEVICE_80_ CG_DEVICE
#define CG_PTX_DEVICE_90_ CG_DEVICE_SM90
#define CG_PTX_DEVICE_90a_ CG_DEVICE
#define CG_PTX_AT_70_(...) __VA_ARGS__
#define CG_PTX_AT_80_(...) CG_AT_SM80_(__VA_ARGS__)
#define CG_PTX_AT_90_(...) CG_AT_SM90_(__VA_ARGS__)
#define CG_PTX_AT_90a_(...) CG_AT_MULTICAST_(__VA_ARGS__)

/* The asm statement's qualifier and clobber, by the row's flavor column. */
#define CG_PTX_QUAL_MEM_ volatile
#define CG_PTX_QUAL_VOLATILE_ volatile
#define CG_PTX_QUAL_PURE_
#define CG_PTX_CLOBBER_MEM_ : "memory"
#define CG_PTX_CLOBBER_VOLATILE_
#define CG_PTX_CLOBBER_PURE_

#define CG_PTX_ISA_CHECK_(isa)                                                                                       \
    static_assert(CG_PTX_ISA_AVAILABLE_ >= (isa), "cgc: this PTX form needs a newer PTX ISA (its table row's isa "    \
                                                  "column) than this CUDA toolkit emits")

#define CG_PTX_FORM_VALUE_(name, isa, sm, flavor, type, constraint, params, ptx, operands)                            \
    CG_PTX_DEVICE_##sm##_ type name params                                                                            \
    {                                                                                                                  \
        CG_PTX_ISA_CHECK_(isa);                                                                                        \
        type d_ = 0;                                                                                                   \
        CG_PTX_AT_##sm##_(asm CG_PTX_QUAL_##flavor##_(ptx : constraint(d_) : CG_PTX_LIST_ operands                 \
                                                          CG_PTX_CLOBBER_##flavor##_);)                               \
        return d_;                                                                                                     \
    }

#define CG_PTX_FORM_VOID_(name, isa, sm, flavor, params, ptx, operands)                                               \
    CG_PTX_DEVICE_##sm##_ void name params                                                                            \
    {                                                                                                                  \
        CG_PTX_ISA_CHECK_(isa);                                                                                        \
        CG_PTX_AT_##sm##_(asm CG_PTX_QUAL_##flavor##_(ptx : : CG_PTX_LIST_ operands CG_PTX_CLOBBER_##flavor##_);)    \
    }

/* Stamp one row: pass this as the table's X. */
#define CG_PTX_FORM(shape, ...) CG_PTX_FORM_##shape##_(__VA_ARGS__)

#endif /* CG_DEVICE_CODE_VISIBLE */

#endif /* CG_BASE_PTX_FORM_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * base/ptx_form.h — what every PTX form of cgc stands on: the PTX ISA check.
 *
 * How cgc writes a PTX instruction: each family (base/gpu_scope.h,
 * barrier/mbarrier.h, ...) lists its forms in a data file beside its header,
 * one row a line (<family>_forms.tbl), and tools/ptx/gen.py writes them as
 * plain C into <family>_forms.h, which the family's header includes: one
 * CG_DEVICE function per form, its name spelled out, the PTX line, ISA
 * version and lowest SM in its comment, the gate and the asm statement
 * written out. The data file's columns and how to add a form:
 * tools/ptx/README.md. CI regenerates and fails on a diff
 * (tools/ptx/check_ptx_gen.sh).
 *
 * Forms a row cannot say (more than one result, a predicate built inside
 * the asm around more than one instruction, a loop, an immediate operand)
 * are written out by hand in the family's header, with the same gates
 * (below) and a comment giving the PTX line, ISA version and SM. The
 * layering test allows `asm` only in the files it lists.
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
 * (defined in base/config.h, next to the feature macros). A form for sm_90
 * is CG_DEVICE_SM90, so a call compiled for an older target stops the build
 * at the caller's line (base/config.h); a form of the arch-specific targets
 * (multicast) is CG_DEVICE, so a fat build's older passes compile it and
 * ptxas names the missing feature.
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

/* The first statement of every form: a toolkit that emits an older PTX ISA
 * than the form's (its row's isa column, times ten) stops at the form. */
#define CG_PTX_ISA_CHECK_(isa)                                                                                       \
    static_assert(CG_PTX_ISA_AVAILABLE_ >= (isa), "cgc: this PTX form needs a newer PTX ISA (its table row's isa "    \
                                                  "column) than this CUDA toolkit emits")

#endif /* CG_DEVICE_CODE_VISIBLE */

#endif /* CG_BASE_PTX_FORM_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * base/gpu_scope.h — memory operations on words in global memory at
 * .gpu scope, for the barriers whose state lives there: the device-scope
 * barrier (barrier/device_barrier.h) and the grid barrier (barrier/grid_barrier.h).
 *
 * One generated function per PTX form (gpu_scope_forms.h); the
 * order and scope are in the instruction and every one has a "memory"
 * clobber, so the compiler moves no access across it.
 */
#ifndef CG_BASE_GPU_SCOPE_H
#define CG_BASE_GPU_SCOPE_H

#include "config.h"
#include "ptx_form.h"

#if CG_DEVICE_CODE_VISIBLE

/* The forms (gpu_scope_forms.h, written by tools/ptx/gen.py from gpu_scope_forms.tbl). The atomics return the old
 * value; max stores max(old, v); cas stores v where old == cmp. */
#include "gpu_scope_forms.h"

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_BASE_GPU_SCOPE_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/launch_kernels.h — kernels of launch_kernels.cu for launch_gpu_test.c. */
#ifndef CGT_LAUNCH_KERNELS_H
#define CGT_LAUNCH_KERNELS_H

#include "base/config.h"

CG_EXTERN_C_BEGIN
/* Writes a pattern over all `bytes` of dynamic shared memory, reads it back
 * and stores the number of mismatches + 1 (so 0 means "did not run") in *out. */
const void *cgt_k_big_smem(void);
/* out[block] = cluster size seen by the block. */
const void *cgt_k_cluster_size(void);
/* A grid sync, then out[block] = 1. */
const void *cgt_k_coop(void);
/* Declared __launch_bounds__(64): refuses 128-thread blocks. */
const void *cgt_k_bounded64(void);
/* (in, partial, out, salt): partial[b] = in[b] ^ salt, grid sync,
 * out[b] = partial[(b + 1) % blocks]. */
const void *cgt_k_coop_pass(void);
/* __trap(). */
const void *cgt_k_trap(void);
CG_EXTERN_C_END

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/port34_kernels.h — the kernels of port34_kernels.cu for port34_test.c. */
#ifndef CGT_PORT34_KERNELS_H
#define CGT_PORT34_KERNELS_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#include "base/config.h"

CG_EXTERN_C_BEGIN
/* 96-thread blocks over n threads; 8 words a thread (C++ CG then cgc: size,
 * rank, meta rank, meta size of labeled_partition(coalesced, flag != 0)). */
cudaError_t cgt_labeled_bool(const int *flags, uint32_t *out, uint32_t n);
/* Clusters of 2 of 256-thread blocks; out[2 i], out[2 i + 1]: C++ CG's and
 * cgc's result of thread i (the const-group port). */
cudaError_t cgt_const_port(const int *in, int *out, uint32_t blocks);
CG_EXTERN_C_END

#endif

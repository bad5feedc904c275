/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/dim3.h — a 3-D extent or index as a plain C struct.
 *
 * CUDA's dim3/uint3 are C++ types with constructors; the group queries that
 * return a shape (block_index, dim_threads, dim_blocks, ...) return this
 * instead. Field for field it matches uint3, so `cg_dim3_t v = ...; v.x` reads
 * the way threadIdx.x does.
 */
#ifndef CG_BASE_DIM3_H
#define CG_BASE_DIM3_H

#include "config.h"

typedef struct cg_dim3_s {
    uint32_t x, y, z;
} cg_dim3_t;

#if CG_DEVICE_CODE_VISIBLE
/* Builds a cg_dim3_t from three values (C has no constructors). */
CG_DEVICE cg_dim3_t cg_dim3(uint32_t x, uint32_t y, uint32_t z)
{
    cg_dim3_t d;
    d.x = x;
    d.y = y;
    d.z = z;
    return d;
}
#endif

#endif /* CG_BASE_DIM3_H */

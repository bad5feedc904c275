/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/group_header.h — the first member of every group struct.
 *
 * It holds the group's kind (a cg_group_kind_t: one per row of
 * cg/group_kinds.h), which a cg_thread_group_t switches on at run time
 * (cg/thread_group.h). The generic calls (cg/generic.h) pick the typed call
 * from the static type instead and never read it.
 */
#ifndef CG_CG_GROUP_HEADER_H
#define CG_CG_GROUP_HEADER_H

#include "../base/config.h"
#include "group_kinds.h"

/* CG_GROUP_THREAD_BLOCK = 1, CG_GROUP_CLUSTER = 2, ...: one per row of
 * cg/group_kinds.h. */
#define CG_GROUP_ENUM_ROW_(KIND, n, type, name, arch, reach, share, unused) CG_GROUP_##KIND = n,
typedef enum cg_group_kind { CG_GROUP_KINDS(CG_GROUP_ENUM_ROW_, ) } cg_group_kind_t;

typedef struct cg_group_header {
    uint32_t kind; /* a cg_group_kind_t */
} cg_group_header_t;

#if CG_DEVICE_CODE_VISIBLE
/* The token of a split barrier whose arrive hands nothing to its wait (the
 * hardware tracks the phase, or the arrive is the whole sync): zero
 * (internal). */
CG_DEVICE cg_token_t cg_token_none_(void)
{
    cg_token_t t;
    t._opaque = 0;
    return t;
}

/* Defines `fn`, a call on a group of `type` that reads the launch, not the
 * group: reg (blockIdx, threadIdx, blockDim, gridDim) as a cg_dim3_t
 * (internal; the caller includes base/dim3.h). */
#define CG_GROUP_DIM3_CALL_(type, fn, reg)                                                         \
    CG_DEVICE cg_dim3_t fn(const type *g)                                                          \
    {                                                                                              \
        (void)g;                                                                                   \
        return cg_dim3(reg.x, reg.y, reg.z);                                                       \
    }
#endif

#endif /* CG_CG_GROUP_HEADER_H */

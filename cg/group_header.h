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

#endif /* CG_CG_GROUP_HEADER_H */

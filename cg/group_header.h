/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/group_header.h — the first member of every group struct.
 *
 * Generic group calls (cg_sync(&g), cg_thread_rank(&g), ...) are macros that
 * take &(g)->_hdr, so passing something that is not a group is a compile error,
 * and switch on its kind. The kind is a constant the compiler sees after
 * inlining the constructor, so the switch folds away: a generic call costs
 * exactly what the typed call does.
 */
#ifndef CG_CG_GROUP_HEADER_H
#define CG_CG_GROUP_HEADER_H

#include "../base/config.h"

typedef enum cg_group_kind {
    CG_GROUP_THREAD_BLOCK = 1,
    CG_GROUP_CLUSTER = 2,
    CG_GROUP_GRID = 3,
    CG_GROUP_TILE = 4,
    CG_GROUP_COALESCED = 5,
    CG_GROUP_WIDE_TILE = 6 /* cg/wide_tile.h: tiles of 64..1024 threads */
} cg_group_kind_t;

typedef struct cg_group_header {
    uint32_t kind; /* a cg_group_kind_t */
} cg_group_header_t;

#endif /* CG_CG_GROUP_HEADER_H */

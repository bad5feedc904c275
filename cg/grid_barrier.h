/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/grid_barrier.h — the grid group's barrier calls, cg_grid_barrier_arrive,
 * cg_grid_barrier_wait and cg_grid_sync: they are declared in cg/grid.h (with
 * the group they take), on the group-free barrier of barrier/grid_barrier.h.
 * This file includes cg/grid.h, so an include of it keeps working.
 */
#ifndef CG_CG_GRID_BARRIER_H
#define CG_CG_GRID_BARRIER_H

#include "grid.h"

#endif /* CG_CG_GRID_BARRIER_H */

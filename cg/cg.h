/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/cg.h — everything cgc offers, in one include.
 *
 *   #include <cgc/cg/cg.h>
 *
 * Device side (nvcc): groups (thread block, cluster, grid, warp tiles) and
 * their typed and generic calls, the mbarrier core and the barrier object,
 * cluster hardware, distributed shared memory, async copies.
 * Host side (gcc/clang or nvcc): status codes and the launch helpers.
 * Each folder's header can also be included alone.
 */
#ifndef CG_CG_CG_H
#define CG_CG_CG_H

#include "../base/config.h"
#include "../base/status.h"
#include "group_header.h"
#include "../base/dim3.h"
#include "../base/address.h"
#include "../barrier/mbarrier.h"
#include "../barrier/barrier.h"
#include "../cluster/cluster.h"
#include "groups.h"
#include "launch.h"
#include "../dsmem/dsmem.h"
#include "../async/copy.h"
#include "../async/tensor.h"
#include "../async/pipeline.h"
#include "pipeline_group.h"

#endif /* CG_CG_CG_H */

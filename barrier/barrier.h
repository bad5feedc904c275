/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * barrier/barrier.h — barrier objects built on the mbarrier core.
 *
 *   cg_barrier_t     C form of cuda::barrier<thread_scope_block> (in __shared__):
 *                    arrive -> token, wait(token), arrive_and_wait,
 *                    arrive_and_drop, wait_parity, timed try_wait, tx-count
 *                    variants, native handle. Exactly one mbarrier: each call
 *                    is the mbarrier instruction it names, nothing more.
 *   cg_barrier_fn_t  the same with a completion function (cuda::barrier<block, F>):
 *                    a function run once per phase, after the last arrival and
 *                    before any waiter returns (barrier/barrier_fn.h).
 *   cg_device_barrier_t   C form of cuda::barrier<thread_scope_device>, in global
 *                    memory, across co-resident blocks (barrier/device_barrier.h).
 *
 * This header includes all three (barrier/block_barrier.h,
 * barrier/barrier_fn.h, barrier/device_barrier.h).
 */
#ifndef CG_BARRIER_BARRIER_H
#define CG_BARRIER_BARRIER_H

#include "device_barrier.h"
#include "block_barrier.h"
#include "barrier_fn.h"

#endif /* CG_BARRIER_BARRIER_H */

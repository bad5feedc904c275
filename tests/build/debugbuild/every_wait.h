/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/build/debugbuild/every_wait.h — the every-wait kernel's launchers, built
 * once as a release object (ew_*) and once with CG_DEBUG=1 (ewd_*). */
#ifndef CGT_EVERY_WAIT_H
#define CGT_EVERY_WAIT_H

#include <stddef.h>
#include <stdint.h>

#include "barrier/device_barrier.h"

#define EW_THREADS 1024u
#define EW_CLUSTER 2u

#if defined(CG_DEBUG) && CG_DEBUG
#define EW_KERNEL_NAME ewd_every_wait_kernel
#define EW_LAUNCHER_NAME ewd_every_wait_launch
#define EW_REGS_NAME ewd_every_wait_registers
#else
#define EW_KERNEL_NAME ew_every_wait_kernel
#define EW_LAUNCHER_NAME ew_every_wait_launch
#define EW_REGS_NAME ew_every_wait_registers
#endif

#ifdef __cplusplus
extern "C" {
#endif
int ew_every_wait_launch(const uint32_t *in, uint32_t *out, uint32_t *gslot, uint32_t *hslot,
                         cg_device_barrier_t *dbar, uint32_t blocks, uint32_t rounds, char *detail,
                         size_t detail_len);
int ewd_every_wait_launch(const uint32_t *in, uint32_t *out, uint32_t *gslot, uint32_t *hslot,
                          cg_device_barrier_t *dbar, uint32_t blocks, uint32_t rounds, char *detail,
                          size_t detail_len);
int ew_every_wait_registers(void);
int ewd_every_wait_registers(void);
#ifdef __cplusplus
}
#endif

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/generic/pattern_kernels.h — the PORTING patterns' kernels
 * (pattern_kernels.cu) and their host checks (pattern_test.c).
 */
#ifndef CGP_PATTERN_KERNELS_H
#define CGP_PATTERN_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CGP_PIPE_THREADS 128u /* threads per block */
#define CGP_PIPE_STAGES 3

/* The thread-scope pipeline pattern, ported (cgc) and original (libcu++'s
 * cuda::pipeline<thread_scope_thread>), in the same kernel: `iters` chunks
 * of blocks * CGP_PIPE_THREADS float4 each; in every chunk k, thread t of
 * block b copies element b*T + t of the chunk into its slot of a 3-stage
 * shared ring, and after the wait and a block sync reads the slot of thread
 * (t + k) % T, adding x + 2y + 3z + 4w. out_cgc / out_cpp[b*T + t] get the
 * sums. */
cudaError_t cgp_thread_pipeline(unsigned blocks, int iters, const void *in /* float4 */, float *out_cgc,
                                float *out_cpp);

/* The per-thread copy pattern: thread g copies len[g] bytes from src + off[g]
 * to its own 64-byte shared slot at offset soff[g] with
 * cg_memcpy_async(&me, ...) (me = cg_this_thread()), waits with cg_wait(&me)
 * and writes the slot's 64 bytes to out + 64 g (the slot is first filled
 * with 0xA5). */
cudaError_t cgp_thread_copy(unsigned blocks, unsigned threads, const unsigned char *src, const uint32_t *off,
                            const uint32_t *soff, const uint32_t *len, unsigned char *out);

#ifdef __cplusplus
}
#endif

#endif /* CGP_PATTERN_KERNELS_H */

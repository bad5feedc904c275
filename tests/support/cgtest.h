/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/support/cgtest.h — what every cgc Criterion test shares.
 *
 * Host C (gcc). GPU tests call cgt_require_sm90() first: on a machine with no
 * CUDA device, or one below sm_90, the test is skipped with the reason, never
 * passed vacuously. Every CUDA call goes through CGT_CUDA so a failure names
 * the call, the file, the line and the runtime's message.
 */
#ifndef CGT_CGTEST_H
#define CGT_CGTEST_H

#include <criterion/criterion.h>
#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

/* Skip the current test (with the reason) unless an sm_90+ device is present. */
void cgt_require_sm90(void);

/* 1 when an sm_90+ device is visible, 0 otherwise (never skips). */
int cgt_have_sm90(void);

/* The properties of device 0 (the test must have called cgt_require_sm90). */
const struct cudaDeviceProp *cgt_device_props(void);

/* Fail the test with the call's text and the runtime's message unless it
 * returned cudaSuccess. Exists so no test silently ignores a CUDA error. */
#define CGT_CUDA(call) cgt_check_cuda((call), #call, __FILE__, __LINE__)
void cgt_check_cuda(cudaError_t err, const char *what, const char *file, int line);

/* Same for a cgc host call: a status other than CG_SUCCESS fails the test. */
#define CGT_OK(call) cgt_check_status((call), #call, __FILE__, __LINE__)
void cgt_check_status(cg_status_t st, const char *what, const char *file, int line);

/* Launch-then-check: the last launch error and then the synchronize error. */
#define CGT_SYNC() cgt_sync(__FILE__, __LINE__)
void cgt_sync(const char *file, int line);

/* Skip the current test when it runs under the named compute-sanitizer tool
 * ("memcheck", "racecheck", "synccheck", "initcheck", or "any"); tools/gpu/run.sh sets
 * CGT_SANITIZER=<tool> for its sanitizer passes. For tests whose subject the
 * tool cannot judge: kernels that trap or make failing API calls on purpose,
 * or synchronization the tool has no model of (say which in `reason`). The
 * skip and its reason show in the sanitizer log. */
void cgt_skip_under_sanitizer(const char *tool, const char *reason);

/* For tests whose kernels trap on purpose: one such test on the GPU at a
 * time, across processes (Criterion runs a binary's tests in parallel
 * processes, and trapping kernels of several processes at once were seen to
 * leave another process's kernel running past its trap). Takes an exclusive
 * lock held until the calling process exits. */
void cgt_gpu_exclusive(void);

/* Waits for the default stream at most `seconds` by polling: returns what
 * cudaStreamQuery last said (cudaErrorNotReady when the work is still running
 * at the deadline, so a kernel that neither traps nor ends cannot hang the
 * test). */
cudaError_t cgt_stream_wait_deadline(double seconds);

/* For kernels that trap on purpose (debug-build reports): runs launch()
 * (it returns a cudaError_t) with this process's stdout in a temporary file,
 * waits at most 30 s for the default stream (a kernel that neither traps nor
 * ends fails the test), synchronizes and restores stdout. Then requires: the
 * launch itself succeeded (a debug kernel that cannot launch fails), the
 * kernel ended with the trap's cudaErrorLaunchFailure (not another fault: an
 * illegal address, an illegal instruction), within 30 s, with a report on
 * stdout (the driver flushes device printf at the synchronize) holding each
 * of the `nneedles` strings (at least one: the call, the barrier, the phase).
 * `what` names the case in every message. */
void cgt_expect_trap_report(const char *what, int (*launch)(void), const char *const *needles, int nneedles);

/* A fresh seed per test run (time and pid mixed), printed so a failure can be
 * replayed with CGC_SEED=<n> in the environment (CGT_SEED=<n>, its older
 * name, works too). */
/* The toolkit's nvcc ($CUDA_PATH/bin/nvcc, else /usr/local/cuda/bin/nvcc);
 * fails the test when there is none. For tests that compile at run time. */
const char *cgt_nvcc(void);

/* Runs a shell command (popen); returns its exit status and its output,
 * truncated to `cap` bytes, in `log`. For tests that compile at run time. */
int cgt_run(const char *cmd, char *log, size_t cap);

/* A scratch directory for the test ($TEST_TMPDIR under Bazel, else /tmp). */
const char *cgt_tmpdir(void);

uint64_t cgt_seed(void);

/* Nonzero when CGT_QUICK asks for a quick pass (the compute-sanitizer passes
 * of tools/gpu/run.sh set CGT_QUICK=1): set, non-empty and not "0", so
 * CGT_QUICK=0 means the full pass. */
int cgt_quick(void);

/* xorshift64* stream; state must start non-zero (cgt_seed() is). */
uint64_t cgt_rand(uint64_t *state);

/* Fill n ints with random values in [lo, hi]. */
void cgt_fill_random_int(int *dst, size_t n, int lo, int hi, uint64_t *state);

/* Bytes of poison written over outputs before a kernel runs. */
#define CGT_POISON_BYTE 0xA5
#define CGT_POISON_INT ((int)0xA5A5A5A5)

/* An oracle launcher of tests/cg (wide tiles, the generic port): n-thread
 * tiles of element type `type`, `blocks` blocks shaped (bx, by, bz), one
 * value and one argument word per thread in, output slots out. */
typedef cudaError_t (*cgt_vao_launcher_t)(unsigned n, int type, unsigned blocks, unsigned bx, unsigned by,
                                          unsigned bz, const uint64_t *val, const uint32_t *arg, uint64_t *out);

/* One checked run of such a launcher on `total` threads: val and arg to the
 * device, the out_slots x total output poisoned (CGT_POISON_BYTE), the
 * launch, its completion, the output back into out; every CUDA call checked
 * (CGT_CUDA), the device arrays freed. */
static inline void cgt_vao_run(cgt_vao_launcher_t launch, unsigned n, int type, unsigned blocks, unsigned bx,
                               unsigned by, unsigned bz, size_t total, size_t out_slots, const uint64_t *val,
                               const uint32_t *arg, uint64_t *out)
{
    uint64_t *dval, *dout;
    uint32_t *darg;
    CGT_CUDA(cudaMalloc((void **)&dval, total * sizeof *val));
    CGT_CUDA(cudaMalloc((void **)&darg, total * sizeof *arg));
    CGT_CUDA(cudaMalloc((void **)&dout, total * out_slots * sizeof *out));
    CGT_CUDA(cudaMemcpy(dval, val, total * sizeof *val, cudaMemcpyHostToDevice));
    CGT_CUDA(cudaMemcpy(darg, arg, total * sizeof *arg, cudaMemcpyHostToDevice));
    CGT_CUDA(cudaMemset(dout, CGT_POISON_BYTE, total * out_slots * sizeof *out));
    CGT_CUDA(launch(n, type, blocks, bx, by, bz, dval, darg, dout));
    CGT_SYNC();
    CGT_CUDA(cudaMemcpy(out, dout, total * out_slots * sizeof *out, cudaMemcpyDeviceToHost));
    CGT_CUDA(cudaFree(dval));
    CGT_CUDA(cudaFree(darg));
    CGT_CUDA(cudaFree(dout));
}

#endif /* CGT_CGTEST_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/release_trap_test.c — GPU: in a RELEASE build, a grid sync in a
 * kernel launched without a cooperative launch reports the cause with a
 * device printf and traps (it used to die with an illegal address: the
 * barrier's atomics on the missing workspace). The test captures the
 * process's stdout around the kernel to find the report, and tells a trap
 * (cudaErrorLaunchFailure) from the old fault (cudaErrorIllegalAddress).
 * Skips without an sm_90 device and under compute-sanitizer (traps on
 * purpose). Serialized with the other trapping tests (cgt_gpu_exclusive). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cg/launch.h"
#include "tests/support/cgtest.h"

cudaError_t cgt_release_grid_sync_plain(unsigned blocks, unsigned threads, unsigned long long *seen);

TestSuite(cg_release_trap, .timeout = 120);

#define TRAP_DEADLINE_S 30.0
#define BLOCKS 2u
#define THREADS 64u

Test(cg_release_trap, grid_sync_in_a_plain_launch_reports_and_traps)
{
    cgt_skip_under_sanitizer("any", "traps on purpose");
    cgt_require_sm90();
    cgt_gpu_exclusive();

    unsigned long long *seen = NULL;
    cr_assert_eq(cudaMalloc((void **)&seen, BLOCKS * sizeof *seen), cudaSuccess);
    cr_assert_eq(cudaMemset(seen, 0xff, BLOCKS * sizeof *seen), cudaSuccess);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);

    /* Device printf goes to this process's stdout at synchronization:
     * point fd 1 at a file for the kernel's lifetime. */
    char path[600];
    snprintf(path, sizeof path, "%s/release_trap_%d.out", cgt_tmpdir(), (int)getpid());
    fflush(stdout);
    int saved = dup(1);
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    cr_assert(saved >= 0 && fd >= 0, "cannot redirect stdout to %s", path);
    dup2(fd, 1);
    close(fd);

    cudaError_t launch = cgt_release_grid_sync_plain(BLOCKS, THREADS, seen);
    cudaError_t q = cgt_stream_wait_deadline(TRAP_DEADLINE_S);
    cudaError_t sync = cudaDeviceSynchronize();
    fflush(stdout);
    dup2(saved, 1);
    close(saved);

    char out[8192] = {0};
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(out, 1, sizeof out - 1, f) : 0;
    out[n] = '\0';
    if (f)
        fclose(f);
    remove(path);
    cr_log_info("kernel output (%zu bytes):\n%s", n, out);

    cr_expect_eq(launch, cudaSuccess, "the plain launch itself failed: %s", cudaGetErrorString(launch));
    cr_assert_neq(q, cudaErrorNotReady, "the kernel neither trapped nor finished in %.0f s (a hang in grid sync)",
                  TRAP_DEADLINE_S);
    if (q == cudaSuccess) {
        unsigned long long ws[BLOCKS];
        cudaMemcpy(ws, seen, sizeof ws, cudaMemcpyDeviceToHost);
        cr_assert_fail("the kernel finished without trapping: block 0 saw grid workspace %#llx, block 1 %#llx "
                       "(the driver gave this plain launch a grid workspace, so there was nothing to report)",
                       ws[0], ws[1]);
    } else {
        cr_expect_eq(q, cudaErrorLaunchFailure,
                     "want the trap's cudaErrorLaunchFailure, got %s (%d)%s", cudaGetErrorName(q), (int)q,
                     q == cudaErrorIllegalAddress ? ": the old fault on the missing workspace, no report" : "");
        cr_expect_neq(sync, cudaSuccess, "the context should hold the trap's error");
        cr_expect(strstr(out, "cgc: grid sync in a kernel launched without a grid workspace") != NULL,
                  "the report is missing from the kernel's output; got:\n%s", out);
        cr_expect(strstr(out, "cooperative launch") != NULL, "the report does not name the fix; got:\n%s", out);
        cr_expect(strstr(out, "(block 0,0,0)") != NULL || strstr(out, "(block 1,0,0)") != NULL,
                  "the report does not name a block; got:\n%s", out);
    }
}

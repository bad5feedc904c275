/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/support/cgtest.c — device gating, CUDA checks, random inputs and the
 * per-binary results (JUnit XML for Bazel, a summary line for tools/gpu/run.sh). */
#include "tests/support/cgtest.h"

#include <criterion/output.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct cudaDeviceProp g_props;

#if !defined(CGT_REPOSITORY)
#define CGT_REPOSITORY "@"
#endif

/* cgc's tests open their data (PTX probes, headers, sources) by paths
 * relative to cgc's root. Bazel starts a test in the runfiles directory of
 * the main workspace; when that is another project's (bazel test
 * @cgc//tests/...), cgc's files lie in the sibling directory named after the
 * repository, $TEST_SRCDIR/cgc: enter it before any test (and Criterion's
 * per-test processes) runs. In cgc's own workspace nothing changes. */
__attribute__((constructor)) static void cgt_enter_repository_runfiles(void)
{
    const char *repo = CGT_REPOSITORY;
    const char *srcdir = getenv("TEST_SRCDIR");
    if (repo[0] == '@')
        ++repo;
    if (!*repo || !srcdir || !*srcdir)
        return;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", srcdir, repo);
    if (chdir(dir) != 0)
        fprintf(stderr, "cgc tests: cannot enter %s, the runfiles of repository %s: %s\n", dir, CGT_REPOSITORY,
                strerror(errno));
}

int cgt_have_sm90(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        cudaGetLastError();
        return 0;
    }
    if (cudaGetDeviceProperties(&g_props, 0) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return g_props.major >= 9;
}

void cgt_require_sm90(void)
{
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess || n == 0) {
        cudaGetLastError();
        cr_skip_test("no CUDA device (%s): GPU test needs an sm_90 device",
                     err != cudaSuccess ? cudaGetErrorString(err) : "device count is 0");
    }
    CGT_CUDA(cudaGetDeviceProperties(&g_props, 0));
    if (g_props.major < 9)
        cr_skip_test("device %s is sm_%d%d, below sm_90: GPU test needs Hopper or newer",
                     g_props.name, g_props.major, g_props.minor);
}

const struct cudaDeviceProp *cgt_device_props(void) { return &g_props; }

void cgt_check_cuda(cudaError_t err, const char *what, const char *file, int line)
{
    if (err != cudaSuccess)
        cr_assert_fail("%s:%d: %s failed: %s (%s)", file, line, what, cudaGetErrorName(err),
                       cudaGetErrorString(err));
}

void cgt_check_status(cg_status_t st, const char *what, const char *file, int line)
{
    if (st != CG_SUCCESS)
        cr_assert_fail("%s:%d: %s returned %s: %s", file, line, what, cg_status_name(st),
                       cg_status_string(st));
}

void cgt_sync(const char *file, int line)
{
    cgt_check_cuda(cudaGetLastError(), "kernel launch", file, line);
    cgt_check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize", file, line);
}

void cgt_cuda_free_list(void *const *ptrs, size_t n, const char *file, int line)
{
    for (size_t i = 0; i < n; ++i)
        cgt_check_cuda(cudaFree(ptrs[i]), "cudaFree", file, line);
}

void cgt_free_list(void *const *ptrs, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        free(ptrs[i]);
}

int cgt_each_library_header(void (*visit)(const char *folder, const char *file, void *arg), void *arg)
{
    static const char *const folders[] = {"base", "barrier", "cluster", "dsmem", "async", "cg"};
    int headers = 0;
    for (size_t i = 0; i < sizeof folders / sizeof *folders; ++i) {
        DIR *d = opendir(folders[i]);
        cr_assert(d != NULL, "cannot list %s/ in the runfiles", folders[i]);
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            const size_t len = strlen(e->d_name);
            if (len > 2 && strcmp(e->d_name + len - 2, ".h") == 0) {
                visit(folders[i], e->d_name, arg);
                ++headers;
            }
        }
        closedir(d);
    }
    return headers;
}

void cgt_skip_under_sanitizer(const char *tool, const char *reason)
{
    const char *active = getenv("CGT_SANITIZER");
    if (active == NULL || *active == '\0')
        return;
    if (strcmp(tool, "any") == 0 || strcmp(tool, active) == 0)
        cr_skip_test("not run under compute-sanitizer %s: %s", active, reason);
}

void cgt_gpu_exclusive(void)
{
    int fd = open("/tmp/cgc-tests-trapping-kernels.lock", O_CREAT | O_RDWR, 0666);
    cr_assert(fd >= 0, "cannot open the lock file");
    cr_assert_eq(flock(fd, LOCK_EX), 0, "cannot take the lock");
    /* fd stays open on purpose: the lock lives as long as the process. */
}

void cgt_trapping_test(const char *what)
{
    char reason[256];
    snprintf(reason, sizeof reason, "traps on purpose (%s); memcheck counts every trapping thread as an error",
             what);
    cgt_skip_under_sanitizer("any", reason);
    cgt_require_sm90();
    cgt_gpu_exclusive();
}

void cgt_trap_case(const char *why, void (*prepare)(void), const char *label, int (*launch)(void),
                   const char *const *needles, int nneedles)
{
    cgt_trapping_test(why);
    if (prepare)
        prepare();
    cgt_expect_trap_report(label, launch, needles, nneedles);
}

cudaError_t cgt_stream_wait_deadline(double seconds)
{
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        cudaError_t q = cudaStreamQuery(0);
        clock_gettime(CLOCK_MONOTONIC, &now);
        double spent = (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) * 1e-9;
        if (q != cudaErrorNotReady || spent >= seconds)
            return q;
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
}

const char *cgt_nvcc(void)
{
    static char nvcc[1024];
    const char *cuda = getenv("CUDA_PATH");
    snprintf(nvcc, sizeof nvcc, "%s/bin/nvcc", (cuda && cuda[0]) ? cuda : "/usr/local/cuda");
    cr_assert(access(nvcc, X_OK) == 0, "no nvcc at %s (set CUDA_PATH)", nvcc);
    return nvcc;
}

int cgt_run(const char *cmd, char *log, size_t cap)
{
    FILE *p = popen(cmd, "r");
    cr_assert(p != NULL, "popen failed: %s", cmd);
    size_t used = 0;
    char line[512];
    log[0] = '\0';
    while (fgets(line, sizeof line, p)) {
        const size_t n = strlen(line);
        if (used + n + 1 < cap) {
            memcpy(log + used, line, n + 1);
            used += n;
        }
    }
    return pclose(p);
}

const char *cgt_tmpdir(void)
{
    const char *t = getenv("TEST_TMPDIR");
    return t && *t ? t : "/tmp";
}

int cgt_quick(void)
{
    const char *q = getenv("CGT_QUICK");
    return q && *q && strcmp(q, "0") != 0;
}

uint64_t cgt_seed(void)
{
    const char *env = getenv("CGC_SEED");
    if (!env || !*env)
        env = getenv("CGT_SEED");
    uint64_t s;
    if (env && *env) {
        s = strtoull(env, NULL, 0);
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        s = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40);
    }
    if (s == 0)
        s = 0x9E3779B97F4A7C15ull;
    cr_log_info("random seed %llu (replay with CGC_SEED=%llu)", (unsigned long long)s, (unsigned long long)s);
    return s;
}

uint64_t cgt_rand(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

void cgt_fill_random_int(int *dst, size_t n, int lo, int hi, uint64_t *state)
{
    uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo) + 1u;
    for (size_t i = 0; i < n; ++i)
        dst[i] = (int)((int64_t)lo + (int64_t)(cgt_rand(state) % span));
}

/* JUnit XML where Bazel asks for it: Bazel 4.2.3 sets XML_OUTPUT_FILE for
 * every test, and keeps a test's own file there (bazel-testlogs/.../test.xml)
 * instead of writing one testcase per target; Criterion's "xml" output has
 * every case with its status, skipped ones included. .ci/run and
 * tools/ci/test_summary.sh sum these files. Outside Bazel (no XML_OUTPUT_FILE)
 * nothing changes; --xml=FILE on the command line still works. */
ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
    (void)set;
    const char *xml = getenv("XML_OUTPUT_FILE");
    if (xml && *xml)
        criterion_add_output("xml", xml);
}

/* One line per test binary, for tools/gpu/run.sh, which reads it (CI reads
 * the JUnit XML above): cases passed, failed (crashed included) and skipped
 * (Criterion's own Synthesis line does not count skipped tests). */
ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
    printf("cgc-summary: passed=%zu failed=%zu skipped=%zu\n", stats->tests_passed,
           stats->tests_failed + stats->tests_crashed, stats->tests_skipped);
    /* Bazel counts a binary whose every case skipped (a GPU test on a machine
     * without an sm_90 device) as a passed target: say so in its log, with
     * the first case's reason (tools/ci/test_summary.sh lists these lines). */
    if (stats->tests_skipped > 0) {
        const char *reason = "";
        for (struct criterion_suite_stats *ss = stats->suites; ss && !*reason; ss = ss->next)
            for (struct criterion_test_stats *ts = ss->tests; ts && !*reason; ts = ts->next)
                if (ts->test_status == CR_STATUS_SKIPPED && ts->message)
                    reason = ts->message;
        if (stats->tests_skipped == stats->nb_tests)
            printf("cgc: all %zu cases SKIPPED (%s): nothing ran, though bazel reports this target as passed\n",
                   stats->tests_skipped, reason);
        else
            printf("cgc: %zu of %zu cases SKIPPED (first: %s)\n", stats->tests_skipped, stats->nb_tests, reason);
    }
    fflush(stdout);
}

// --- trapping kernels: the report they print ------------------------------------

static double cgt_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Runs launch() with stdout in a temporary file; returns what the kernel
 * printed (caller frees), the launch's error, the launch's or the
 * synchronize's error and the time taken. */
static char *cgt_run_captured(int (*launch)(void), cudaError_t *launch_err_out, cudaError_t *sync_err,
                              double *seconds)
{
    char path[] = "/tmp/cgc_trap_report_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0, "mkstemp failed");
    fflush(stdout);
    int saved = dup(1);
    cr_assert(saved >= 0);
    dup2(fd, 1);
    double t0 = cgt_now_s();
    cudaError_t launch_err = (cudaError_t)launch();
    *launch_err_out = launch_err;
    if (launch_err == cudaSuccess) {
        /* Bounded: a kernel that neither traps nor ends fails the test. */
        cudaError_t q = cgt_stream_wait_deadline(30.0);
        cr_assert_neq(q, cudaErrorNotReady, "the kernel neither trapped nor finished in 30 s");
    }
    *sync_err = launch_err != cudaSuccess ? launch_err : cudaDeviceSynchronize();
    *seconds = cgt_now_s() - t0;
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    lseek(fd, 0, SEEK_SET);
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap + 1);
    cr_assert(out != NULL);
    ssize_t got;
    while (len < cap && (got = read(fd, out + len, cap - len)) > 0)
        len += (size_t)got;
    out[len] = '\0';
    close(fd);
    unlink(path);
    return out;
}

void cgt_expect_trap_report(const char *what, int (*launch)(void), const char *const *needles, int nneedles)
{
    cudaError_t launch_err = cudaSuccess, err;
    double secs;
    char *out = cgt_run_captured(launch, &launch_err, &err, &secs);
    cr_log_info("%s: %s (%s) after %.2f s", what, cudaGetErrorName(err), cudaGetErrorString(err), secs);
    /* A debug kernel that could not even launch (too many registers or too
     * much shared memory with the debug checks, a bad configuration) is a
     * failure, not the trap. */
    cr_expect_eq(launch_err, cudaSuccess, "%s: the kernel did not launch: %s (%s); want it to run and trap", what,
                 cudaGetErrorName(launch_err), cudaGetErrorString(launch_err));
    if (launch_err == cudaSuccess) {
        cr_expect_neq(err, cudaSuccess, "%s: the kernel finished instead of trapping", what);
        /* __trap() ends the kernel with cudaErrorLaunchFailure; an illegal
         * address, a misaligned access or an illegal instruction is another
         * fault, not the report-and-trap this test is about. */
        cr_expect(err == cudaSuccess || err == cudaErrorLaunchFailure,
                  "%s: the kernel failed with %s (%s), not the trap's cudaErrorLaunchFailure", what,
                  cudaGetErrorName(err), cudaGetErrorString(err));
    }
    cr_expect_lt(secs, 30.0, "%s: took %.1f s to report", what, secs);
    /* The report is the contract: the driver flushes device printf at the
     * synchronize that returns the trap (tests/cg:release_trap_test relies on
     * the same), so a trap with nothing printed fails. */
    cr_expect(out[0] != '\0', "%s: the kernel printed nothing (no report before the trap)", what);
    cr_log_info("%s report: %.400s", what, out);
    cr_expect_gt(nneedles, 0, "%s: the test names no report text to look for", what);
    for (int i = 0; i < nneedles; ++i)
        cr_expect(strstr(out, needles[i]) != NULL, "%s: the report lacks \"%s\": %.400s", what, needles[i], out);
    free(out);
}

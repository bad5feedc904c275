/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/bench.cu — the cgc benchmark runner.
 *
 * Every row of TARGETS.md is one entry of the row table below: a cgc kernel,
 * its anchor kernel (NVIDIA's C++ or a PTX floor), the launch shape and the
 * target for the ratio cgc / anchor. Both kernels of a row loop the same
 * operation a.iters times in the same grid (one block per SM unless the row
 * says otherwise) and are started by the same launcher, so launch cost cannot
 * differ between them; each is timed with CUDA events and the time of an
 * otherwise identical launch with iters = 0 (launch, setup, teardown, cluster
 * scheduling) is subtracted, so what remains is the loop alone.
 *
 *   bench [--quick] [--iters N] [--repeats R] [--csv PATH] [--filter TEXT]
 *         [--work CYCLES] [--slow CYCLES] [--row-timeout S] [--list] [--strict]
 *
 * Exit status: 0 when every row ran (PASS or MISS), 2 on any CUDA error,
 * 3 when a row hung past --row-timeout or a checked row computed a WRONG
 * result, 1 on bad usage, 4 with --strict when
 * a target was missed or a cgc kernel was missing. With --self-test: 0 only
 * when every self-test row (each a row's own kernel with a defect switch
 * on, selftest.cu) printed WRONG by the kernel's own check (its wrong
 * count, the replay of its chains or its checksum; not "no checks" or a
 * phase shortfall); 6 when one did not (the lines "self-test: NOT CAUGHT:
 * ..." name them), or none ran; 2 and 3 as above (3 then: a row hung).
 * The GPU's clocks are left as they are: nothing here sets or locks them.
 */
#include <cuda_runtime.h>

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/workloads/wl.h"

// --- errors ---------------------------------------------------------------

static const char *g_current_row = "(setup)";

/* Every CUDA call goes through CK: a failure names the call, the row being
 * measured and the runtime's message, and ends the run with status 2. */
#define CK(call) bench_check((call), #call, __FILE__, __LINE__)
static void bench_check(cudaError_t err, const char *what, const char *file, int line)
{
    if (err == cudaSuccess)
        return;
    fprintf(stderr, "\nbench: CUDA error in row '%s': %s\n  at %s:%d: %s (%s)\n", g_current_row,
            what, file, line, cudaGetErrorString(err), cudaGetErrorName(err));
    fflush(NULL);
    exit(2);
}

/* A hung barrier would otherwise hang the one device call the benchmark gets:
 * SIGALRM fires after --row-timeout seconds in one row, names it, exits 3. */
static char g_alarm_msg[512];
static void on_alarm(int sig)
{
    (void)sig;
    ssize_t r = write(2, g_alarm_msg, strlen(g_alarm_msg));
    (void)r;
    _exit(3);
}

// --- options --------------------------------------------------------------

typedef struct options {
    long long iters;    /* base loop count per kernel launch */
    int repeats;        /* timed launches per kernel (median) */
    const char *csv;    /* CSV output path or NULL */
    const char *filter; /* only rows whose name contains this */
    unsigned work;      /* rotating-slow-warp: cycles every warp works */
    unsigned slow;      /* rotating-slow-warp: extra cycles of the slow warp */
    int row_timeout;    /* seconds */
    int list;
    int strict;
    int self_test;
} options_t;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: bench [--quick] [--iters N] [--repeats R] [--csv PATH] [--filter TEXT]\n"
            "             [--work CYCLES] [--slow CYCLES] [--row-timeout S] [--list] [--strict] [--self-test]\n"
            "  --quick        iterations / 10 and 3 repeats (a fast smoke run)\n"
            "  --iters N      base iterations per launch (default 100000; rows scale it)\n"
            "  --repeats R    timed launches per kernel, median reported (default 5)\n"
            "  --csv PATH     also write every row as CSV, and as JSON Lines with each side's\n"
            "                 samples, median and noise to PATH.json (x.csv: x.json)\n"
            "  --filter TEXT  only rows whose operation or config contains TEXT\n"
            "  --work/--slow  rotating-slow-warp cycles (default 256 / 2048)\n"
            "  --row-timeout  seconds before a hung row aborts the run (default 30)\n"
            "  --list         print the rows (those --filter selects) and exit (no GPU needed)\n"
            "  --strict       exit 4 if any target is missed or a cgc kernel is missing\n"
            "  --self-test    run only the self-test rows: one deliberately broken variant per\n"
            "                 checked family (block, cluster, relaxed cluster, grid and device\n"
            "                 barriers, copies, staged copies, DSMEM, double-buffered DSMEM,\n"
            "                 pipeline, multicast, collectives); exit 0 only when every one\n"
            "                 printed WRONG by its own check, else 6 and the ones not caught\n");
}

static long long parse_ll(const char *s, const char *flag)
{
    char *end = NULL;
    long long v = strtoll(s ? s : "", &end, 10);
    if (!s || *end != '\0' || v < 0) {
        fprintf(stderr, "bench: %s needs a non-negative integer, got '%s'\n", flag, s ? s : "");
        usage(stderr);
        exit(1);
    }
    return v;
}

static options_t parse_options(int argc, char **argv)
{
    options_t o = {100000, 5, NULL, NULL, 256, 2048, 30, 0, 0, 0};
    int quick = 0;
    long long iters = -1, repeats = -1;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--quick"))
            quick = 1;
        else if (!strcmp(a, "--list"))
            o.list = 1;
        else if (!strcmp(a, "--strict"))
            o.strict = 1;
        else if (!strcmp(a, "--self-test"))
            o.self_test = 1;
        else if (!strcmp(a, "--iters"))
            iters = parse_ll(next, a), ++i;
        else if (!strcmp(a, "--repeats"))
            repeats = parse_ll(next, a), ++i;
        else if (!strcmp(a, "--work"))
            o.work = (unsigned)parse_ll(next, a), ++i;
        else if (!strcmp(a, "--slow"))
            o.slow = (unsigned)parse_ll(next, a), ++i;
        else if (!strcmp(a, "--row-timeout"))
            o.row_timeout = (int)parse_ll(next, a), ++i;
        else if (!strcmp(a, "--csv") && next)
            o.csv = next, ++i;
        else if (!strcmp(a, "--filter") && next)
            o.filter = next, ++i;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else {
            fprintf(stderr, "bench: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            exit(1);
        }
    }
    if (quick) {
        o.iters /= 10;
        o.repeats = 3;
    }
    if (iters >= 0)
        o.iters = iters;
    if (repeats > 0)
        o.repeats = (int)repeats;
    if (o.iters < 1)
        o.iters = 1;
    if (o.row_timeout < 1)
        o.row_timeout = 1;
    return o;
}

// --- the row table -------------------------------------------------------------

/* How a row's grid is shaped. */
typedef enum shape_kind {
    SHAPE_BLOCK,   /* blocks_per_sm blocks per SM */
    SHAPE_CLUSTER, /* clusters of `cluster` blocks, as many as fit at once, at most one block per SM */
    SHAPE_GRID,    /* cooperative launch, blocks_per_sm per SM (all co-resident) */
} shape_kind_t;

/* What the "note" column reports besides ns. */
typedef enum metric {
    METRIC_NS,    /* ns per iteration only */
    METRIC_COPY,  /* TB/s: blocks * tile_bytes per iteration, global -> shared */
    METRIC_DSMEM, /* TB/s: blocks * xfer_bytes per iteration, CTA -> CTA */
    METRIC_STREAM, /* bench/stream.cu measures: >= 1 GiB per launch, TB/s, roofline, checksums */
} metric_t;

/* What the host checks after a row besides each kernel's wrong count and
 * phases (bench.h, BENCH_CHK_*). */
typedef enum check_kind {
    CHK_COUNTS,    /* wrong == 0, phases == launches x iters x blocks */
    CHK_SUM,       /* and the completion function's sums (seed-000 shape) replayed */
    CHK_REDUCE32,  /* and the sampled threads' chains replayed: reduce, tile 32 */
    CHK_REDUCE16,  /* reduce, tile 16 */
    CHK_REDUCE8,   /* reduce, tile 8 */
    CHK_SCAN32,    /* inclusive scan, tile 32 */
    CHK_SCAN16,    /* inclusive scan, tile 16 */
    CHK_COALESCED, /* reduce over the odd-x lanes of each warp */
} check_kind_t;

typedef struct row {
    const char *op;        /* operation, as TARGETS.md names it */
    const char *cgc_what;  /* the cgc call measured */
    const char *anc_what;  /* the anchor measured */
    bench_kernel_fn cgc;   /* kernel getters (bench.h) */
    bench_kernel_fn anchor;
    shape_kind_t shape;
    unsigned threads;       /* per block */
    unsigned cluster;       /* SHAPE_CLUSTER: blocks per cluster */
    unsigned blocks_per_sm; /* SHAPE_BLOCK / SHAPE_GRID */
    unsigned bytes;         /* copy rows: tile bytes; DSMEM rows: bytes per CTA per iteration */
    unsigned iter_div;      /* iterations = --iters / iter_div (long operations) */
    double max_ratio;       /* target: cgc / anchor (time) <= max_ratio; 0 = no target (info) */
    double speedup;         /* the same target as a throughput factor, for display; 0 = none */
    metric_t metric;
    int (*checked)(unsigned long long *); /* device-barrier rows: the cgc kernel's stats (bench_dbar_stats_*) */
    unsigned xfers;         /* double-buffered DSMEM rows: messages per sync; staged copy rows: stages */
    check_kind_t check;     /* what the host replays besides the counts (CHK_COUNTS for most rows) */
    int (*prepare)(bench_args_t *, char *, size_t); /* optional: set up before launching (nonzero: SKIP, note says why) */
    int (*verify)(const bench_args_t *, unsigned, char *, size_t); /* optional: check results after (nonzero: WRONG) */
    bench_kernel_fn floor;  /* optional (split grid rows): the same loop with no barrier, measured with the two;
                               the row's ratio is then (cgc - floor) / (anchor - floor), the cost over the floor */
} row_t;

/* Rows share shapes; these keep each table line short. */
#define BLK(thr) SHAPE_BLOCK, (thr), 0, 1, 0
#define CLU(cs) SHAPE_CLUSTER, 128, (cs), 1, 0
#define GRD(bps, thr) SHAPE_GRID, (thr), 0, (bps), 0
/* Split grid rows: `w` dependent FMAs per thread between arrive and wait (in
 * the bytes column; a.xfers). */
#define GRDW(bps, thr, w) SHAPE_GRID, (thr), 0, (bps), (w)
#define CPY(thr, tile) SHAPE_BLOCK, (thr), 0, 1, (tile)
#define DSM(cs, thr, xfer) SHAPE_CLUSTER, (thr), (cs), 1, (xfer)
/* Targets: time ratio at most r; or throughput at least s (ratio <= 1/s). */
#define LE(r) (r), 0.0
#define THR(s) (1.0 / (s)), (s)
#define INFO 0.0, 0.0

#define TILE (64u * 1024u) /* copy rows: bytes per tile (one tile in flight per SM) */
#define XFER (32u * 1024u) /* DSMEM rows: bytes each CTA moves per iteration */

/* Rows at several block sizes (the issue-33 rows): 128/256/1024 threads,
 * 256/1024, 128/256; a device-barrier row at its seven grid shapes. */
#define ROWS_BLK3(op, what, anc, c, an, div, tgt)                                                      \
    {op, what, anc, c, an, BLK(128), div, tgt, METRIC_NS}, {op, what, anc, c, an, BLK(256), div, tgt, METRIC_NS}, \
        {op, what, anc, c, an, BLK(1024), div, tgt, METRIC_NS},
#define ROWS_BLK2(op, what, anc, c, an, div, tgt, lo, hi)                                              \
    {op, what, anc, c, an, BLK(lo), div, tgt, METRIC_NS}, {op, what, anc, c, an, BLK(hi), div, tgt, METRIC_NS},
#define DBAR_ROW_(what, c, stats, bps, thr)                                                             \
    {"device barrier arrive+wait", what, "cuda::barrier<device>", c, a_cuda_device_barrier, GRD(bps, thr), 20, INFO, METRIC_NS, stats},
#define ROWS_DBAR7(what, c, stats)                                                                     \
    DBAR_ROW_(what, c, stats, 1, 128) DBAR_ROW_(what, c, stats, 2, 128) DBAR_ROW_(what, c, stats, 4, 128)     \
    DBAR_ROW_(what, c, stats, 8, 128) DBAR_ROW_(what, c, stats, 1, 256) DBAR_ROW_(what, c, stats, 4, 256)     \
    DBAR_ROW_(what, c, stats, 8, 256)

static const row_t k_rows[] = {
    /* op, cgc call, anchor, cgc kernel, anchor kernel, shape, iter_div, target, metric */
    {"block sync", "cg_thread_block_sync", "__syncthreads", c_block_sync, a_syncthreads, BLK(128), 1, LE(1.02), METRIC_NS},
    {"block sync", "cg_thread_block_sync", "__syncthreads", c_block_sync, a_syncthreads, BLK(256), 1, LE(1.02), METRIC_NS},
    {"block sync", "cg_thread_block_sync", "__syncthreads", c_block_sync, a_syncthreads, BLK(1024), 1, LE(1.02), METRIC_NS},

    {"block split arrive+wait", "cg_thread_block_barrier_arrive/wait", "cuda::barrier<block>", c_block_split, a_cuda_barrier_split, BLK(128), 1, LE(1.00), METRIC_NS},
    {"block split arrive+wait", "cg_thread_block_barrier_arrive/wait", "cuda::barrier<block>", c_block_split, a_cuda_barrier_split, BLK(256), 1, LE(1.00), METRIC_NS},
    {"block split arrive+wait", "cg_thread_block_barrier_arrive/wait", "cuda::barrier<block>", c_block_split, a_cuda_barrier_split, BLK(1024), 1, LE(1.00), METRIC_NS},
    {"block split arrive+wait", "cg_thread_block_barrier_arrive/wait", "raw mbarrier floor", c_block_split, a_mbarrier_raw, BLK(128), 1, LE(1.05), METRIC_NS},
    {"block split arrive+wait", "cg_thread_block_barrier_arrive/wait", "raw mbarrier floor", c_block_split, a_mbarrier_raw, BLK(256), 1, LE(1.05), METRIC_NS},
    {"block split arrive+wait", "cg_thread_block_barrier_arrive/wait", "raw mbarrier floor", c_block_split, a_mbarrier_raw, BLK(1024), 1, LE(1.05), METRIC_NS},
    {"block split arrive+wait", "cg_thread_block_barrier_arrive/wait", "CG barrier_arrive/wait (=__syncthreads)", c_block_split, a_cg_block_split, BLK(256), 1, INFO, METRIC_NS},
    {"block split arrive+wait", "cg_thread_block_barrier_prepare, then arrive/wait", "raw mbarrier floor", c_block_split_prepared, a_mbarrier_raw, BLK(128), 1, LE(1.05), METRIC_NS},
    {"block split arrive+wait", "cg_thread_block_barrier_prepare, then arrive/wait", "raw mbarrier floor", c_block_split_prepared, a_mbarrier_raw, BLK(256), 1, LE(1.05), METRIC_NS},
    {"block split arrive+wait", "cg_thread_block_barrier_prepare, then arrive/wait", "raw mbarrier floor", c_block_split_prepared, a_mbarrier_raw, BLK(1024), 1, LE(1.05), METRIC_NS},
    {"block split arrive+wait", "cg_barrier_arrive_one/wait_token", "cuda::barrier<block>", c_barrier_split, a_cuda_barrier_split, BLK(128), 1, LE(1.00), METRIC_NS},
    {"block split arrive+wait", "cg_barrier_arrive_one/wait_token", "cuda::barrier<block>", c_barrier_split, a_cuda_barrier_split, BLK(1024), 1, LE(1.00), METRIC_NS},
    {"block split arrive+wait", "cg_barrier_arrive_one/wait_token", "raw mbarrier floor", c_barrier_split, a_mbarrier_raw, BLK(128), 1, LE(1.05), METRIC_NS},
    {"block split arrive+wait", "cg_barrier_arrive_one/wait_token", "raw mbarrier floor", c_barrier_split, a_mbarrier_raw, BLK(1024), 1, LE(1.05), METRIC_NS},

    {"rotating slow warp", "cg_thread_block_barrier_arrive/wait", "CG barrier_arrive/wait", c_block_rotating, a_cg_block_rotating, BLK(256), 20, THR(2.0), METRIC_NS},
    {"rotating slow warp", "cg_thread_block_barrier_arrive/wait", "CG barrier_arrive/wait", c_block_rotating, a_cg_block_rotating, BLK(1024), 20, THR(2.0), METRIC_NS},
    {"rotating slow warp", "cg_thread_block_barrier_arrive/wait", "cuda::barrier<block>", c_block_rotating, a_cuda_barrier_rotating, BLK(256), 20, INFO, METRIC_NS},
    /* Issue 33: the floor of this workload, the same work on the raw mbarrier,
     * against C++ CG (what any split barrier can reach here), and cgc against
     * that floor. */
    ROWS_BLK2("rotating slow warp", "probe: raw mbarrier arrive/try_wait (the floor)", "CG barrier_arrive/wait", a_mbarrier_raw_rotating, a_cg_block_rotating, 20, INFO, 256, 1024)
    ROWS_BLK2("rotating slow warp", "cg_thread_block_barrier_arrive/wait", "raw mbarrier floor, same work", c_block_rotating, a_mbarrier_raw_rotating, 20, LE(1.02), 256, 1024)

    /* Light completion function (one thread: counter += 1, read by every
     * waiter): the barrier's own cost, what TARGETS.md's 254/284/592 ns are.
     * The seed-000 sum over the block's words is one info row: there the
     * serial sum, not the barrier, is most of the time. */
    /* Issue 23: the barrier type whose function is fixed at compile time
     * (CG_BARRIER_FN_DEFINE), what a port of barrier<block, F> writes;
     * target <= 1.00, 0.6 the stretch (TARGETS.md). */
    {"barrier with completion", "CG_BARRIER_FN_DEFINE type + light fn (fixed: inlined)", "cuda::barrier<block,F> light F", c_barrier_compl_light_defined, a_cuda_barrier_compl_light, BLK(128), 4, LE(1.00), METRIC_NS},
    {"barrier with completion", "CG_BARRIER_FN_DEFINE type + light fn (fixed: inlined)", "cuda::barrier<block,F> light F", c_barrier_compl_light_defined, a_cuda_barrier_compl_light, BLK(256), 4, LE(1.00), METRIC_NS},
    {"barrier with completion", "CG_BARRIER_FN_DEFINE type + light fn (fixed: inlined)", "cuda::barrier<block,F> light F", c_barrier_compl_light_defined, a_cuda_barrier_compl_light, BLK(1024), 4, LE(1.00), METRIC_NS},
    /* Issue 33: the stored-function form's anchor is the C++ barrier whose F
     * calls through a function pointer (the function chosen at run time, as
     * here); against the inlined F (CG_BARRIER_FN_DEFINE's counterpart) it
     * stays as info. */
    ROWS_BLK3("barrier with completion", "cg_barrier_fn_t + light fn (pointer)", "cuda::barrier<block,F> F calls a fn pointer", c_barrier_compl_light, a_cuda_barrier_compl_light_ptr, 4, LE(1.00))
    ROWS_BLK3("barrier with completion", "cg_barrier_fn_t + light fn (pointer)", "cuda::barrier<block,F> light F", c_barrier_compl_light, a_cuda_barrier_compl_light, 4, INFO)
    /* Issue 33: the floor of the last-arrival election every split form of
     * this barrier pays (election + the completer's fence, no step), against
     * the same anchor as the <= 0.60 rows, in the same run. */
    ROWS_BLK3("barrier with completion", "probe: election + fence.acq_rel.cta (the floor)", "cuda::barrier<block,F> light F", c_fn_elect_fence_probe, a_cuda_barrier_compl_light, 4, INFO)
    ROWS_BLK3("barrier with completion", "CG_BARRIER_FN_DEFINE type + light fn (fixed: inlined)", "probe: election + fence (the floor)", c_barrier_compl_light_defined, c_fn_elect_fence_probe, 4, LE(1.05))
    {"barrier with completion", "cg_barrier_fn_arrive_with + light fn (named: inlined)", "cuda::barrier<block,F> light F", c_barrier_compl_light_with, a_cuda_barrier_compl_light, BLK(128), 4, LE(0.60), METRIC_NS},
    {"barrier with completion", "cg_barrier_fn_arrive_with + light fn (named: inlined)", "cuda::barrier<block,F> light F", c_barrier_compl_light_with, a_cuda_barrier_compl_light, BLK(256), 4, LE(0.60), METRIC_NS},
    {"barrier with completion", "cg_barrier_fn_arrive_with + light fn (named: inlined)", "cuda::barrier<block,F> light F", c_barrier_compl_light_with, a_cuda_barrier_compl_light, BLK(1024), 4, LE(0.60), METRIC_NS},
    {"barrier with completion", "cg_barrier_fn arrive_elect + light step (inline)", "cuda::barrier<block,F> light F", c_barrier_compl_light_elect, a_cuda_barrier_compl_light, BLK(128), 4, LE(0.60), METRIC_NS},
    {"barrier with completion", "cg_barrier_fn arrive_elect + light step (inline)", "cuda::barrier<block,F> light F", c_barrier_compl_light_elect, a_cuda_barrier_compl_light, BLK(1024), 4, LE(0.60), METRIC_NS},
    {"barrier with completion", "probe: election only (noComplete + last arrive)", "raw mbarrier floor", c_fn_elect_probe, a_mbarrier_raw, BLK(128), 1, INFO, METRIC_NS},
    {"barrier with completion", "probe: election + fence.acq_rel.cta", "raw mbarrier floor", c_fn_elect_fence_probe, a_mbarrier_raw, BLK(128), 1, INFO, METRIC_NS},
    {"barrier with completion", "probe: election only (noComplete + last arrive)", "raw mbarrier floor", c_fn_elect_probe, a_mbarrier_raw, BLK(1024), 1, INFO, METRIC_NS},
    {"barrier with completion", "probe: election + fence.acq_rel.cta", "raw mbarrier floor", c_fn_elect_fence_probe, a_mbarrier_raw, BLK(1024), 1, INFO, METRIC_NS},
    {"barrier with completion", "cg_barrier_fn_t + seed-000 sum fn (pointer)", "cuda::barrier<block,F> sum F", c_barrier_compl, a_cuda_barrier_compl, BLK(256), 4, INFO, METRIC_NS, NULL, 0, CHK_SUM},
    /* Issue 14's candidates (docs/design/completion_barrier.md): the NULL
     * handling the library row above does not use, in its own module (the
     * H100 showed 6-12 ns between modules either way: placement), and an
     * election in which thread 0 completes every phase on two mbarriers.
     * The two read placements that lost on the H200 (after / by the
     * completer before the fence) are gone; their numbers are in that page. */
    {"barrier with completion", "setting: fn/arg read before the arrive, empty fn instead of a NULL test", "cuda::barrier<block,F> light F", d_fn_empty_call, a_cuda_barrier_compl_light, BLK(128), 4, INFO, METRIC_NS},
    {"barrier with completion", "setting: fn/arg read before the arrive, empty fn instead of a NULL test", "cuda::barrier<block,F> light F", d_fn_empty_call, a_cuda_barrier_compl_light, BLK(256), 4, INFO, METRIC_NS},
    {"barrier with completion", "setting: fn/arg read before the arrive, empty fn instead of a NULL test", "cuda::barrier<block,F> light F", d_fn_empty_call, a_cuda_barrier_compl_light, BLK(1024), 4, INFO, METRIC_NS},
    {"barrier with completion", "probe: thread 0 completes, 2 mbarriers, inline step (arrive_and_wait only)", "cuda::barrier<block,F> light F", c_fn_fixed_completer_probe, a_cuda_barrier_compl_light, BLK(128), 4, INFO, METRIC_NS},
    {"barrier with completion", "probe: thread 0 completes, 2 mbarriers, inline step (arrive_and_wait only)", "cuda::barrier<block,F> light F", c_fn_fixed_completer_probe, a_cuda_barrier_compl_light, BLK(256), 4, INFO, METRIC_NS},
    {"barrier with completion", "probe: thread 0 completes, 2 mbarriers, inline step (arrive_and_wait only)", "cuda::barrier<block,F> light F", c_fn_fixed_completer_probe, a_cuda_barrier_compl_light, BLK(1024), 4, INFO, METRIC_NS},
    {"barrier with completion", "probe: arrive_with a __noinline__ fn (direct call)", "cuda::barrier<block,F> light F", c_fn_direct_call_probe, a_cuda_barrier_compl_light, BLK(128), 4, INFO, METRIC_NS},
    {"barrier with completion", "probe: arrive_with a __noinline__ fn (direct call)", "cuda::barrier<block,F> light F", c_fn_direct_call_probe, a_cuda_barrier_compl_light, BLK(256), 4, INFO, METRIC_NS},
    {"barrier with completion", "probe: arrive_with a __noinline__ fn (direct call)", "cuda::barrier<block,F> light F", c_fn_direct_call_probe, a_cuda_barrier_compl_light, BLK(1024), 4, INFO, METRIC_NS},

#define CLUSTER_ROWS(cs)                                                                                              \
    {"cluster sync", "cg_cluster_sync", "CG cluster.sync()", c_cluster_sync, a_cg_cluster_sync, CLU(cs), 2, LE(1.02), METRIC_NS}, \
    {"cluster arrive+wait", "cg_cluster_barrier_arrive/wait", "CG cluster barrier_arrive/wait", c_cluster_split, a_cg_cluster_split, CLU(cs), 2, LE(1.02), METRIC_NS}, \
    {"cluster relaxed arrive+wait", "cg_cluster_barrier_arrive_relaxed/wait", "CG cluster barrier_arrive/wait", c_cluster_relaxed, a_cg_cluster_split, CLU(cs), 2, INFO, METRIC_NS}, \
    {"cluster relaxed arrive+wait", "cg_cluster_barrier_arrive_relaxed/wait", "PTX relaxed.aligned floor", c_cluster_relaxed, a_ptx_cluster_relaxed, CLU(cs), 2, LE(1.02), METRIC_NS}, \
    /* The target is on the same-semantics floor (the restricted fence + a    \
     * relaxed barrier: what ordering shared memory alone needs); C++ CG's    \
     * cluster.sync() orders all memory (a stronger, slower anchor) and the   \
     * bare relaxed barrier orders none (a weaker floor): both info. */       \
    {"cluster sync, shared memory only", "cg_cluster_barrier_arrive_smem/wait", "PTX fence + relaxed.aligned floor", c_cluster_smem, a_ptx_cluster_smem, CLU(cs), 2, LE(1.02), METRIC_NS}, \
    {"cluster sync, shared memory only", "cg_cluster_barrier_arrive_smem/wait", "CG cluster.sync() (orders all memory)", c_cluster_smem, a_cg_cluster_sync, CLU(cs), 2, INFO, METRIC_NS}, \
    {"cluster sync, shared memory only", "cg_cluster_barrier_arrive_smem/wait", "PTX relaxed.aligned floor (orders nothing)", c_cluster_smem, a_ptx_cluster_relaxed, CLU(cs), 2, INFO, METRIC_NS},
    CLUSTER_ROWS(1) CLUSTER_ROWS(2) CLUSTER_ROWS(4) CLUSTER_ROWS(8) CLUSTER_ROWS(16)
#undef CLUSTER_ROWS

    /* Device-scope barrier: the whole grid co-resident (cooperative launch),
     * every thread arrive + wait per phase, every phase checked. */
    {"device barrier arrive+wait", "cg_device_barrier_arrive/wait", "cuda::barrier<device>", c_device_barrier, a_cuda_device_barrier, GRD(1, 128), 20, LE(1.00), METRIC_NS, bench_dbar_stats_cgc},
    {"device barrier arrive+wait", "cg_device_barrier_arrive/wait", "cuda::barrier<device>", c_device_barrier, a_cuda_device_barrier, GRD(2, 128), 20, LE(1.00), METRIC_NS, bench_dbar_stats_cgc},
    {"device barrier arrive+wait", "cg_device_barrier_arrive/wait", "cuda::barrier<device>", c_device_barrier, a_cuda_device_barrier, GRD(4, 128), 20, LE(1.00), METRIC_NS, bench_dbar_stats_cgc},
    {"device barrier arrive+wait", "cg_device_barrier_arrive/wait", "cuda::barrier<device>", c_device_barrier, a_cuda_device_barrier, GRD(8, 128), 20, LE(1.00), METRIC_NS, bench_dbar_stats_cgc},
    {"device barrier arrive+wait", "cg_device_barrier_arrive/wait", "cuda::barrier<device>", c_device_barrier, a_cuda_device_barrier, GRD(1, 256), 20, LE(1.00), METRIC_NS, bench_dbar_stats_cgc},
    {"device barrier arrive+wait", "cg_device_barrier_arrive/wait", "cuda::barrier<device>", c_device_barrier, a_cuda_device_barrier, GRD(4, 256), 20, LE(1.00), METRIC_NS, bench_dbar_stats_cgc},
    {"device barrier arrive+wait", "cg_device_barrier_arrive/wait", "cuda::barrier<device>", c_device_barrier, a_cuda_device_barrier, GRD(8, 256), 20, LE(1.00), METRIC_NS, bench_dbar_stats_cgc},

    /* Issue 33: the library marks the completing arrive's token (its wait
     * skips the load) and paces the other waiters' polls with %globaltimer.
     * The settings: the pacing without the token, the design before issue 33
     * (neither), and libcu++'s loop shape (16 polls first). Numbers of the settings
     * dropped after the H200 run: docs/design/device_barrier.md. */
    ROWS_DBAR7("setting: paced polls, no done token", d_dbar_no_done, bench_dbar_stats_no_done)
    ROWS_DBAR7("setting: no done token, polls back to back (before issue 33)", d_dbar_poll_all, bench_dbar_stats_poll_all)
    ROWS_DBAR7("setting: 16 polls, then %globaltimer on every poll", d_dbar_spin16_paced, bench_dbar_stats_spin16_paced)
    {"self-test: broken barrier", "device barrier whose waits return at once", "cuda::barrier<device>", d_dbar_broken, a_cuda_device_barrier, GRD(1, 128), 20, INFO, METRIC_NS, bench_dbar_stats_broken},
    {"self-test: broken barrier", "device barrier whose waits return at once", "cuda::barrier<device>", d_dbar_broken, a_cuda_device_barrier, GRD(8, 256), 20, INFO, METRIC_NS, bench_dbar_stats_broken},

    {"grid sync", "cg_grid_sync", "CG grid.sync()", c_grid_sync, a_cg_grid_sync, GRD(1, 128), 20, LE(1.00), METRIC_NS},
    {"grid sync", "cg_grid_sync", "CG grid.sync()", c_grid_sync, a_cg_grid_sync, GRD(8, 256), 20, LE(1.00), METRIC_NS},
    {"grid sync", "cg_grid_sync", "CG grid.sync()", c_grid_sync, a_cg_grid_sync, GRD(16, 128), 20, LE(0.50), METRIC_NS},
    {"grid sync", "cg_grid_sync", "CG grid.sync()", c_grid_sync, a_cg_grid_sync, GRD(2, 256), 20, LE(1.00), METRIC_NS},
    {"grid sync", "cg_grid_sync", "CG grid.sync()", c_grid_sync, a_cg_grid_sync, GRD(4, 256), 20, LE(1.00), METRIC_NS},
    {"grid sync", "cg_grid_sync", "CG grid.sync()", c_grid_sync, a_cg_grid_sync, GRD(12, 128), 20, LE(1.00), METRIC_NS},
    {"grid sync", "cg_grid_sync", "CG grid.sync()", c_grid_sync, a_cg_grid_sync, GRD(32, 64), 20, LE(0.50), METRIC_NS},
    /* The spread barrier at 8 blocks per SM (the switch point: 10 per SM,
     * docs/design/grid_barrier.md) and its pollers spinning as they did
     * before 2026-11-28 (now they sleep 32 ns: 0.663 / 0.492 / 0.347 of C++
     * CG against spinning's 0.682 / 0.512 / 0.351 at 12 / 16 / 32 per SM,
     * H200, 0267475). Settings that lost clearly are gone; their numbers are
     * in docs/design/grid_barrier.md. */
    {"grid sync", "setting: spread barrier at every size", "CG grid.sync()", d_grid_sync_spread, a_cg_grid_sync, GRD(8, 256), 20, INFO, METRIC_NS},
    {"grid sync", "setting: spread pollers spin (before 2026-11-28)", "CG grid.sync()", d_grid_sync_spread_spin, a_cg_grid_sync, GRD(12, 128), 20, INFO, METRIC_NS},
    {"grid sync", "setting: spread pollers spin (before 2026-11-28)", "CG grid.sync()", d_grid_sync_spread_spin, a_cg_grid_sync, GRD(16, 128), 20, INFO, METRIC_NS},
    {"grid sync", "setting: spread pollers spin (before 2026-11-28)", "CG grid.sync()", d_grid_sync_spread_spin, a_cg_grid_sync, GRD(32, 64), 20, INFO, METRIC_NS},

    /* Split grid barrier, work between (issue 32): arrive, W dependent FMAs
     * per thread, wait; every phase's data checked (BENCH_GRID_SPLIT_BODY).
     * The floor (the same loop, no barrier) is timed with both sides; the
     * ratio is the cost over it, (cgc - floor) / (CG - floor), <= 1.00 at
     * every W against C++ CG's split. Where C++ CG's cost over the floor is
     * under ten times the three timings' summed spread (in ns) the ratio is
     * noise (W 4096 at 2-16 per SM measured so on an H200): the row turns
     * info and says so (bench.cu, run_row). The <= 0.70 target of TARGETS.md
     * at W 512 and 4096 is out of reach of a release-based arrive: the
     * release's fence (MEMBAR, ~1700 cycles) is on the releasing warp's path
     * before its work, in C++ CG too, and the cost over the floor is then
     * about that fence plus one acquire poll and the block barriers (probe
     * rows below; docs/design/grid_barrier.md). The note also gives the
     * whole loop's ratio. 16 blocks/SM run 128 threads (2048 a SM at most). */
#define GRID_SPLIT_ROW(cgc_what, kern, bps, thr, w, div, ...)                                                                          \
    {"split grid barrier, work between", cgc_what, "CG barrier_arrive/barrier_wait", kern, a_cg_grid_split, GRDW(bps, thr, w), div, __VA_ARGS__, METRIC_NS, NULL, 0, CHK_COUNTS, NULL, NULL, a_grid_split_floor},
#define GRID_SPLIT_ROWS(w, div, ...)                                                                                   \
    GRID_SPLIT_ROW("cg_grid_barrier_arrive/wait", c_grid_split, 1, 256, w, div, __VA_ARGS__)                                   \
    GRID_SPLIT_ROW("cg_grid_barrier_arrive/wait", c_grid_split, 2, 256, w, div, __VA_ARGS__)                                   \
    GRID_SPLIT_ROW("cg_grid_barrier_arrive/wait", c_grid_split, 4, 256, w, div, __VA_ARGS__)                                   \
    GRID_SPLIT_ROW("cg_grid_barrier_arrive/wait", c_grid_split, 8, 256, w, div, __VA_ARGS__)                                   \
    GRID_SPLIT_ROW("cg_grid_barrier_arrive/wait", c_grid_split, 16, 128, w, div, __VA_ARGS__)
    GRID_SPLIT_ROWS(0, 20, LE(1.00)) GRID_SPLIT_ROWS(64, 20, LE(1.00)) GRID_SPLIT_ROWS(512, 100, LE(1.00))
    GRID_SPLIT_ROWS(4096, 500, LE(1.00))
#undef GRID_SPLIT_ROWS
    /* The settings, same loop and floor (info): the split's flat arrive as
     * it was (an atom tested in the arrive), and the spread pollers spinning. */
    GRID_SPLIT_ROW("setting: atom arrive tested at once (before 2026-11-28)", d_grid_split_arrive_eager, 1, 256, 0, 20, INFO)
    GRID_SPLIT_ROW("setting: atom arrive tested at once (before 2026-11-28)", d_grid_split_arrive_eager, 1, 256, 512, 100, INFO)
    GRID_SPLIT_ROW("setting: atom arrive tested at once (before 2026-11-28)", d_grid_split_arrive_eager, 8, 256, 512, 100, INFO)
    GRID_SPLIT_ROW("setting: spread pollers spin (before 2026-11-28)", d_grid_split_spread_spin, 16, 128, 512, 100, INFO)
    GRID_SPLIT_ROW("setting: spread pollers spin (before 2026-11-28)", d_grid_split_spread_spin, 16, 128, 4096, 500, INFO)
#undef GRID_SPLIT_ROW
    /* Where the split barrier's time goes (the Jacobi question: cgc's split
     * cost ~300 ns a sweep over C++ CG's ~61 at one block per SM): thread 0's
     * and warp 1's cycles in arrive, work and wait, per phase, cgc or a
     * setting beside C++ CG in one row (bench/grid_split.cu prints them in
     * the note). W 1536 is about the Jacobi interior's 3.4 us a sweep. These
     * rows show the floor of a release-based arrive: thread 0's arrive is
     * the release's fence (cgc and C++ CG alike), its wait one acquire poll
     * and the block barrier. */
#define GRID_PROBE_ROW(cgc_what, kern, bps, thr, w, div)                                                                \
    {"split grid barrier, probe", cgc_what, "CG barrier_arrive/barrier_wait", kern, a_cg_grid_split_probe, GRDW(bps, thr, w), div, INFO, METRIC_NS, NULL, 0, CHK_COUNTS, bench_grid_probe_prepare, bench_grid_probe_verify},
#define GRID_PROBE_ROWS(bps, thr, w, div)                                                                               \
    GRID_PROBE_ROW("cg_grid_barrier_arrive/wait", c_grid_split_probe, bps, thr, w, div)                                \
    GRID_PROBE_ROW("setting: atom arrive tested at once (before 2026-11-28)", d_grid_probe_arrive_eager, bps, thr, w, div)
    GRID_PROBE_ROWS(1, 256, 1536, 200) GRID_PROBE_ROWS(1, 256, 0, 20) GRID_PROBE_ROWS(8, 256, 512, 100)
#undef GRID_PROBE_ROWS
#undef GRID_PROBE_ROW

    /* 32 KiB per CTA per round, both sides closing every round with a
     * cluster barrier: the shape before the double-buffered protocol, kept
     * as info (TARGETS.md's DSMEM target is on the double-buffered rows,
     * which measure the protocol dsmem/dsmem.h recommends). */
#define DSMEM_ROWS(cs)                                                                                                \
    {"DSMEM exchange", "cg_dsmem_push (st.async, block)", "map_shared_rank int4 pull", c_dsmem_push, a_dsmem_pull, DSM(cs, 512, XFER), 20, INFO, METRIC_DSMEM}, \
    {"DSMEM exchange", "cg_dsmem_push_bulk (1 thread)", "map_shared_rank int4 pull", c_dsmem_push_bulk, a_dsmem_pull, DSM(cs, 512, XFER), 20, INFO, METRIC_DSMEM},
    DSMEM_ROWS(2) DSMEM_ROWS(4) DSMEM_ROWS(8)
#undef DSMEM_ROWS

    /* One tile in flight, drained every iteration: a latency figure, not
     * what a streaming kernel does (the staged rows below and stream.cu are). */
    {"latency: global->shared copy", "cg_memcpy_async_tx (TMA bulk)", "plain int4 loads", c_copy_tma, a_copy_plain, CPY(1024, TILE), 100, THR(0.95), METRIC_COPY},
    {"latency: global->shared copy", "cg_memcpy_async_tx (TMA bulk)", "cuda::memcpy_async + barrier", c_copy_tma, a_copy_memcpy_async, CPY(1024, TILE), 100, THR(1.05), METRIC_COPY},
    {"latency: global->shared copy", "cg_memcpy_async(&block,..,&bar)", "plain int4 loads", c_copy_memcpy_async, a_copy_plain, CPY(1024, TILE), 100, THR(0.95), METRIC_COPY},
    {"latency: global->shared copy", "cg_memcpy_async(&block,..,&bar)", "cuda::memcpy_async + barrier", c_copy_memcpy_async, a_copy_memcpy_async, CPY(1024, TILE), 100, THR(1.05), METRIC_COPY},
    /* Issue 34: the barrier copy with the alignment stated (libcu++'s PTX, no
     * proxy fence, as the anchor); issue 33: the tx kernel without its proxy
     * fence (what the fence costs; the piece settings measured are in
     * docs/design/measurements_log.md). */
    {"latency: global->shared copy", "cg_memcpy_async_aligned(&block,..,16,&bar)", "plain int4 loads", c_copy_memcpy_async_aligned, a_copy_plain, CPY(1024, TILE), 100, THR(0.95), METRIC_COPY},
    {"latency: global->shared copy", "cg_memcpy_async_aligned(&block,..,16,&bar)", "cuda::memcpy_async + barrier", c_copy_memcpy_async_aligned, a_copy_memcpy_async, CPY(1024, TILE), 100, THR(1.05), METRIC_COPY},
    {"latency: global->shared copy", "setting: cg_memcpy_async_tx kernel without the proxy fence", "plain int4 loads", d_copy_tx_nofence, a_copy_plain, CPY(1024, TILE), 100, INFO, METRIC_COPY},
    {"latency: global->shared copy", "setting: cg_memcpy_async_tx kernel without the proxy fence", "cg_memcpy_async_tx (TMA bulk)", d_copy_tx_nofence, c_copy_tma, CPY(1024, TILE), 100, INFO, METRIC_COPY},
    {"latency: global->shared copy", "probe: cuda::memcpy_async + barrier (the one-bulk-copy floor)", "plain int4 loads", a_copy_memcpy_async, a_copy_plain, CPY(1024, TILE), 100, INFO, METRIC_COPY},

    /* DSMEM exchange as users write it (dsmem/dsmem.h's double-buffered push,
     * round i + 1 pushed before round i is read: no cluster barrier in the
     * loop) against the double-buffered pull, X messages of 8 KiB (512
     * threads x 16 B) per synchronization. Both pulls carry the target (the
     * user's C++ CG loop, and the same with round i + 1 written while round
     * i's loads are in flight): the push has to beat the faster. */
#define DSMEM_DB_ROW(cs, anc_what, c, an, x, ...) /* ...: the target (LE / THR expand to two values) */               \
    {"DSMEM exchange, double-buffered", "st.async push pushed ahead, full/empty mbarriers", anc_what, c, an, DSM(cs, 512, (x) * 8192u), 20, __VA_ARGS__, METRIC_DSMEM, NULL, (x), CHK_COUNTS},
#define DSMEM_DB_ROWS(cs, ...)                                                                                         \
    DSMEM_DB_ROW(cs, "map_shared_rank pull + cluster.sync", c_dsmem_push_db1, a_dsmem_pull_db1, 1, __VA_ARGS__)         \
    DSMEM_DB_ROW(cs, "map_shared_rank pull + cluster.sync", c_dsmem_push_db8, a_dsmem_pull_db8, 8, __VA_ARGS__)         \
    DSMEM_DB_ROW(cs, "map_shared_rank pull, next round written during the reads", c_dsmem_push_db1, a_dsmem_pull_db_ahead1, 1, __VA_ARGS__) \
    DSMEM_DB_ROW(cs, "map_shared_rank pull, next round written during the reads", c_dsmem_push_db8, a_dsmem_pull_db_ahead8, 8, __VA_ARGS__) \
    {"DSMEM exchange, double-buffered", "info: the phase-A loop (push after reading)", "map_shared_rank pull + cluster.sync", p_dsmem_push_after1, a_dsmem_pull_db1, DSM(cs, 512, 8192u), 20, INFO, METRIC_DSMEM, NULL, 1, CHK_COUNTS}, \
    {"DSMEM exchange, double-buffered", "info: the phase-A loop (push after reading)", "map_shared_rank pull + cluster.sync", p_dsmem_push_after8, a_dsmem_pull_db8, DSM(cs, 512, 65536u), 20, INFO, METRIC_DSMEM, NULL, 8, CHK_COUNTS},
    DSMEM_DB_ROWS(2, THR(1.0)) DSMEM_DB_ROWS(4, THR(1.2)) DSMEM_DB_ROWS(8, THR(1.2))
#undef DSMEM_DB_ROWS
#undef DSMEM_DB_ROW

    /* Collectives (issue 12): the cgc call against C++ CG's, each result
     * feeding the next input, the sampled threads' chains replayed here. */
#define COLL_ROWS(tile, chk, op, call, c_i32, c_f32, c_f64, a_i32, a_f32, a_f64)                                         \
    {op, call "_i32", "cg::" op " int", c_i32, a_i32, BLK(256), 4, LE(1.02), METRIC_NS, NULL, 0, chk},                   \
    {op, call "_f32", "cg::" op " float", c_f32, a_f32, BLK(256), 4, LE(1.02), METRIC_NS, NULL, 0, chk},                 \
    {op, call "_f64", "cg::" op " double", c_f64, a_f64, BLK(256), 4, LE(1.02), METRIC_NS, NULL, 0, chk},
    COLL_ROWS(32, CHK_REDUCE32, "reduce", "tile 32: cg_tile_reduce", c_reduce32_i32, c_reduce32_f32, c_reduce32_f64, a_reduce32_i32, a_reduce32_f32, a_reduce32_f64)
    COLL_ROWS(16, CHK_REDUCE16, "reduce", "tile 16: cg_tile_reduce", c_reduce16_i32, c_reduce16_f32, c_reduce16_f64, a_reduce16_i32, a_reduce16_f32, a_reduce16_f64)
    COLL_ROWS(8, CHK_REDUCE8, "reduce", "tile 8: cg_tile_reduce", c_reduce8_i32, c_reduce8_f32, c_reduce8_f64, a_reduce8_i32, a_reduce8_f32, a_reduce8_f64)
    COLL_ROWS(32, CHK_SCAN32, "inclusive_scan", "tile 32: cg_tile_inclusive_scan", c_scan32_i32, c_scan32_f32, c_scan32_f64, a_scan32_i32, a_scan32_f32, a_scan32_f64)
    COLL_ROWS(16, CHK_SCAN16, "inclusive_scan", "tile 16: cg_tile_inclusive_scan", c_scan16_i32, c_scan16_f32, c_scan16_f64, a_scan16_i32, a_scan16_f32, a_scan16_f64)
#undef COLL_ROWS
    {"reduce", "coalesced: cg_coalesced_reduce_i32", "cg::reduce(coalesced_threads()) int", c_coalesced_reduce, a_coalesced_reduce, BLK(256), 4, LE(1.02), METRIC_NS, NULL, 0, CHK_COALESCED},
    /* 2 and 4 tiles per block: within any named-barrier budget cg/wide_tile.h may have. */
    {"tile-64 sync", "cg_wide_tile_sync", "thread_block_tile<64>::sync", c_tile64_sync, a_tile64_sync, BLK(128), 1, INFO, METRIC_NS},
    {"tile-64 sync", "cg_wide_tile_sync", "thread_block_tile<64>::sync", c_tile64_sync, a_tile64_sync, BLK(256), 1, INFO, METRIC_NS},
    /* Judged against the PTX floor (C++ CG's tile<64> sync is 16x it: info above). */
    {"tile-64 sync", "cg_wide_tile_sync", "bar.sync id, 64 (PTX floor)", c_tile64_sync, a_bar_sync64, BLK(128), 1, LE(1.02), METRIC_NS},
    {"tile-64 sync", "cg_wide_tile_sync", "bar.sync id, 64 (PTX floor)", c_tile64_sync, a_bar_sync64, BLK(256), 1, LE(1.02), METRIC_NS},
    /* Issue 33: cgc's sync is the non-aligned barrier.sync (a diverged warp's
     * lanes may arrive separately); bar.sync is the aligned form. Its own
     * floor, and the aligned floor against it (what the contract costs; cgc
     * built aligned measured 1.004 / 1.028 of bar.sync: wide_tile.md). */
    ROWS_BLK2("tile-64 sync", "cg_wide_tile_sync", "barrier.sync id, 64 (non-aligned PTX floor)", c_tile64_sync, a_barrier_sync64, 1, LE(1.02), 128, 256)
    ROWS_BLK2("tile-64 sync", "probe: barrier.sync id, 64 (non-aligned floor)", "bar.sync id, 64 (PTX floor)", a_barrier_sync64, a_bar_sync64, 1, INFO, 128, 256)

    /* Group copy pipeline (issue 12): S stages of 16 KiB, one batch per
     * iteration, wait_prior<S - 1>; every int4 of every tile checked. Issue
     * 23: the alignment stated on both sides (16, 8, 4-byte cp.async), and
     * cgc's plain form (alignment tested at run time) as info. */
    {"group memcpy_async + wait_prior", "cg_memcpy_async_aligned(&b,..,16) + cg_wait_prior", "cg::memcpy_async(block, aligned_size_t<16>) + wait_prior", c_memcpy_stages2, a_memcpy_stages2, CPY(512, 16384u), 100, LE(1.02), METRIC_COPY, NULL, 2, CHK_COUNTS},
    {"group memcpy_async + wait_prior", "cg_memcpy_async_aligned(&b,..,16) + cg_wait_prior", "cg::memcpy_async(block, aligned_size_t<16>) + wait_prior", c_memcpy_stages3, a_memcpy_stages3, CPY(512, 16384u), 100, LE(1.02), METRIC_COPY, NULL, 3, CHK_COUNTS},
    {"group memcpy_async + wait_prior", "cg_memcpy_async_aligned(&b,..,16) + cg_wait_prior", "cg::memcpy_async(block, aligned_size_t<16>) + wait_prior", c_memcpy_stages4, a_memcpy_stages4, CPY(512, 16384u), 100, LE(1.02), METRIC_COPY, NULL, 4, CHK_COUNTS},
    {"group memcpy_async + wait_prior", "cg_memcpy_async_aligned(&b,..,8) + cg_wait_prior", "cg::memcpy_async(block, aligned_size_t<8>) + wait_prior", c_memcpy_stages2_a8, a_memcpy_stages2_a8, CPY(512, 16384u), 100, LE(1.02), METRIC_COPY, NULL, 2, CHK_COUNTS},
    {"group memcpy_async + wait_prior", "cg_memcpy_async_aligned(&b,..,8) + cg_wait_prior", "cg::memcpy_async(block, aligned_size_t<8>) + wait_prior", c_memcpy_stages3_a8, a_memcpy_stages3_a8, CPY(512, 16384u), 100, LE(1.02), METRIC_COPY, NULL, 3, CHK_COUNTS},
    {"group memcpy_async + wait_prior", "cg_memcpy_async_aligned(&b,..,8) + cg_wait_prior", "cg::memcpy_async(block, aligned_size_t<8>) + wait_prior", c_memcpy_stages4_a8, a_memcpy_stages4_a8, CPY(512, 16384u), 100, LE(1.02), METRIC_COPY, NULL, 4, CHK_COUNTS},
    {"group memcpy_async + wait_prior", "cg_memcpy_async_aligned(&b,..,4) + cg_wait_prior", "cg::memcpy_async(block, aligned_size_t<4>) + wait_prior", c_memcpy_stages2_a4, a_memcpy_stages2_a4, CPY(512, 16384u), 100, LE(1.02), METRIC_COPY, NULL, 2, CHK_COUNTS},
    {"group memcpy_async + wait_prior", "cg_memcpy_async_aligned(&b,..,4) + cg_wait_prior", "cg::memcpy_async(block, aligned_size_t<4>) + wait_prior", c_memcpy_stages3_a4, a_memcpy_stages3_a4, CPY(512, 16384u), 100, LE(1.02), METRIC_COPY, NULL, 3, CHK_COUNTS},
    {"group memcpy_async + wait_prior", "cg_memcpy_async_aligned(&b,..,4) + cg_wait_prior", "cg::memcpy_async(block, aligned_size_t<4>) + wait_prior", c_memcpy_stages4_a4, a_memcpy_stages4_a4, CPY(512, 16384u), 100, LE(1.02), METRIC_COPY, NULL, 4, CHK_COUNTS},
    {"group memcpy_async + wait_prior", "cg_memcpy_async(&b,4 args: alignment tested) + cg_wait_prior", "cg::memcpy_async(block, aligned_size_t<16>) + wait_prior", c_memcpy_stages3_plain, a_memcpy_stages3, CPY(512, 16384u), 100, INFO, METRIC_COPY, NULL, 3, CHK_COUNTS},

    /* What the per-phase check adds to both sides of a row: the checked
     * anchor in the cgc column against the same anchor unchecked. */
    {"check cost", "__syncthreads, checked", "__syncthreads, unchecked", a_syncthreads, a_syncthreads_nochk, BLK(128), 1, INFO, METRIC_NS},
    {"check cost", "__syncthreads, checked", "__syncthreads, unchecked", a_syncthreads, a_syncthreads_nochk, BLK(1024), 1, INFO, METRIC_NS},
    {"check cost", "CG cluster.sync(), checked", "CG cluster.sync(), unchecked", a_cg_cluster_sync, a_cg_cluster_sync_nochk, CLU(2), 2, INFO, METRIC_NS},
    {"check cost", "CG cluster.sync(), checked", "CG cluster.sync(), unchecked", a_cg_cluster_sync, a_cg_cluster_sync_nochk, CLU(8), 2, INFO, METRIC_NS},
    {"check cost", "CG grid.sync(), checked", "CG grid.sync(), unchecked", a_cg_grid_sync, a_cg_grid_sync_nochk, GRD(1, 128), 20, INFO, METRIC_NS},
    {"check cost", "CG grid.sync(), checked", "CG grid.sync(), unchecked", a_cg_grid_sync, a_cg_grid_sync_nochk, GRD(8, 256), 20, INFO, METRIC_NS},

    /* Self-test (--self-test only): a block barrier released one phase early. */
    {"self-test: broken block barrier", "block split barrier released a phase early", "cuda::barrier<block>", d_block_broken, a_cuda_barrier_split, BLK(256), 1, INFO, METRIC_NS},
    /* One broken variant per checked family (bench.h, BENCH_SELFTEST_KERNELS;
     * selftest.cu, stream.cu): each must print WRONG. */
    {"self-test: broken cluster barrier", "cluster sync, even phases read before the barrier", "CG cluster.sync()", d_cluster_broken, a_cg_cluster_sync, CLU(2), 2, INFO, METRIC_NS},
    {"self-test: broken relaxed cluster barrier", "relaxed arrive, counts read before the wait", "PTX relaxed.aligned floor", d_cluster_relaxed_broken, a_ptx_cluster_relaxed, CLU(4), 2, INFO, METRIC_NS},
    {"self-test: broken grid barrier", "grid sync, even phases read before the barrier", "CG grid.sync()", d_grid_broken, a_cg_grid_sync, GRD(4, 256), 20, INFO, METRIC_NS},
    {"self-test: broken copy", "TMA bulk copy, the tile read before its wait", "plain int4 loads", d_copy_broken, a_copy_plain, CPY(1024, TILE), 100, INFO, METRIC_COPY},
    {"self-test: broken DSMEM exchange", "st.async push, each round read before its wait", "map_shared_rank int4 pull", d_dsmem_push_broken, a_dsmem_pull, DSM(2, 512, XFER), 20, INFO, METRIC_DSMEM},
    {"self-test: broken DSMEM double buffer", "two-buffer st.async push, each round read before its full wait", "map_shared_rank pull + cluster.sync", d_dsmem_push_db_broken, a_dsmem_pull_db1, DSM(2, 512, 8192u), 20, INFO, METRIC_DSMEM, NULL, 1, CHK_COUNTS},
    {"self-test: broken staged copy", "cg_memcpy_async 2 stages, each stage read before its wait", "C++ CG memcpy_async, 2 stages", d_memcpy_stages_broken, a_memcpy_stages2, CPY(512, 16384u), 100, INFO, METRIC_COPY, NULL, 2, CHK_COUNTS},
    {"self-test: broken collective", "tile 32: reduce off by one outside warp 0", "cg::reduce int", d_reduce32_broken, a_reduce32_i32, BLK(256), 4, INFO, METRIC_NS, NULL, 0, CHK_REDUCE32},

    /* Tensor TMA (bench/tensor.cu): 64x64 u32 tiles of a 2-D matrix, reduced; both kernels' sums checked. */
    {"2-D tile load", "cg_tensor_load_2d (TMA tile)", "same kernel, plain int4 loads", c_tensor_tile_tma, a_tensor_tile_plain, CPY(256, 16384u), 100, INFO, METRIC_COPY, NULL, 0, CHK_COUNTS, bench_tensor_prepare, bench_tensor_verify},
    {"2-D tile load", "cg_tensor_load_2d (TMA tile)", "same kernel, plain int4 loads", c_tensor_tile_tma, a_tensor_tile_plain, CPY(1024, 16384u), 100, INFO, METRIC_COPY, NULL, 0, CHK_COUNTS, bench_tensor_prepare, bench_tensor_verify},

    /* Streaming rows (bench/stream.cu): time per launch of >= 1 GiB; shapes are the kernels' own. */
#define STR(thr) SHAPE_BLOCK, (thr), 0, 2, 24576
#define STRC(cs) SHAPE_CLUSTER, 160, (cs), 1, 16384
    {"streaming global->shared", "cg_pipeline 2 stages (TMA + 4 warps)", "plain int4 loads", c_stream_pipeline2, a_stream_plain, STR(160), 1, THR(0.98), METRIC_STREAM},
    {"streaming global->shared", "cg_pipeline 3 stages (TMA + 4 warps)", "plain int4 loads", c_stream_pipeline3, a_stream_plain, STR(160), 1, THR(0.98), METRIC_STREAM},
    {"streaming global->shared", "cg_pipeline 4 stages (TMA + 4 warps)", "plain int4 loads", c_stream_pipeline4, a_stream_plain, STR(160), 1, THR(0.98), METRIC_STREAM},
    {"streaming global->shared", "cg_pipeline 2 stages (TMA + 4 warps)", "cuda::pipeline 2 stages", c_stream_pipeline2, a_stream_cuda_pipeline2, STR(160), 1, THR(1.0), METRIC_STREAM},
    {"streaming global->shared", "cg_pipeline 3 stages (TMA + 4 warps)", "cuda::pipeline 3 stages", c_stream_pipeline3, a_stream_cuda_pipeline3, STR(160), 1, THR(1.0), METRIC_STREAM},
    {"streaming global->shared", "cg_pipeline 4 stages (TMA + 4 warps)", "cuda::pipeline 4 stages", c_stream_pipeline4, a_stream_cuda_pipeline4, STR(160), 1, THR(1.0), METRIC_STREAM},
    /* The multicast example's kernel (examples/pipeline_project.cuh) against
     * its twin; the anchor is the FASTER of the twin launched in the row's
     * clusters and the twin launched without (bench_stream_row times both,
     * interleaved). Every cluster launch gets one wave of co-resident
     * clusters (bench/stream.cu, bs_one_wave_grid) unless the row says
     * "every SM". MC3: clusters 2, 4, 8. */
#define MC3(op, what, anc_what, cgc, anc, t2, t4, t8)                                                  \
    {op, what, anc_what, cgc, anc, STRC(2), 1, t2, METRIC_STREAM},                                     \
    {op, what, anc_what, cgc, anc, STRC(4), 1, t4, METRIC_STREAM},                                     \
    {op, what, anc_what, cgc, anc, STRC(8), 1, t8, METRIC_STREAM},
/* the same with the kernel's block size in the config (8 consumer warps: 288) */
#define MC3T(op, what, anc_what, cgc, anc, thr)                                                        \
    {op, what, anc_what, cgc, anc, SHAPE_CLUSTER, (thr), 2, 1, 16384, 1, INFO, METRIC_STREAM},         \
    {op, what, anc_what, cgc, anc, SHAPE_CLUSTER, (thr), 4, 1, 16384, 1, INFO, METRIC_STREAM},         \
    {op, what, anc_what, cgc, anc, SHAPE_CLUSTER, (thr), 8, 1, 16384, 1, INFO, METRIC_STREAM},
#define MC_TWIN "the faster twin: same kernel, every CTA loads (in clusters or without)"
#define MC_TWIN_ALL "the faster twin, every SM in clusters too (in clusters or without)"
    /* HBM-bound stream: multicast can only cost here (issue 32 item 4's targets) */
    MC3("multicast tile sharing", "cg_pipeline sliced multicast (every CTA loads 1/C; whole-warp release)", MC_TWIN, c_project_sliced, c_project_local, LE(1.05), LE(1.05), LE(1.15))
    MC3("multicast tile sharing", "cg_pipeline cluster form, one root CTA multicasts", MC_TWIN, c_project_multicast, c_project_local, INFO, INFO, INFO)
    MC3("multicast tile sharing", "design: sliced, grid of every SM (the first run's sizing: a partial second wave)", MC_TWIN_ALL, d_project_sliced_every_sm, d_project_local_every_sm, INFO, INFO, INFO)
    /* L2-resident input (8 MiB read again and again): the twin waits on L2 ->
     * SM bandwidth, the case multicast is for (issue 32 item 4: >= 10% faster) */
    MC3("multicast, L2-resident shared input", "cg_pipeline sliced multicast (every CTA loads 1/C; whole-warp release)", MC_TWIN, c_project_sliced_l2, c_project_local_l2, LE(0.91), LE(0.91), LE(0.91))
    MC3("multicast, L2-resident shared input", "design: sliced, grid of every SM (the first run's sizing)", MC_TWIN_ALL, d_project_sliced_every_sm_l2, d_project_local_every_sm_l2, INFO, INFO, INFO)
    /* 8 consumer warps (bench/designs/pipeline_warps8.cu): the consumers twice as
     * fast per tile, so that the twin waits on L2 -> SM bandwidth, where multicast
     * can pay; and the same with clock64 per step of a stage use
     * (bench/designs/pipeline_timed.cu): cycles in the notes */
    MC3T("multicast tile sharing", "design: sliced, 8 consumer warps", "the faster twin, 8 consumer warps (in clusters or without)", d_project_sliced_w8, d_project_local_w8, 288)
    MC3T("multicast, L2-resident shared input", "design: sliced, 8 consumer warps", "the faster twin, 8 consumer warps (in clusters or without)", d_project_sliced_w8_l2, d_project_local_w8_l2, 288)
    MC3T("multicast tile sharing", "probe: sliced, 8 consumer warps, clock64 per step (cycles in the note)", "the faster twin, 8 warps, clock64 per step", p_project_timed_sliced, p_project_timed_local, 288)
    MC3T("multicast, L2-resident shared input", "probe: sliced, 8 consumer warps, clock64 per step (cycles in the note)", "the faster twin, 8 warps, clock64 per step", p_project_timed_sliced_l2, p_project_timed_local_l2, 288)
#undef MC3
#undef MC3T
#undef MC_TWIN
#undef MC_TWIN_ALL
    {"self-test: broken pipeline", "cg_pipeline 2 stages, stages read before the wait", "plain int4 loads", d_stream_pipeline_broken, a_stream_plain, STR(160), 1, INFO, METRIC_STREAM},
    {"self-test: broken multicast", "sliced multicast, stages read before the wait", "same kernel, every CTA loads", d_project_sliced_broken, c_project_local, STRC(2), 1, INFO, METRIC_STREAM},
#undef STR
#undef STRC
};
#define NROWS ((int)(sizeof(k_rows) / sizeof(k_rows[0])))

// --- device state ------------------------------------------------------------------

typedef struct device {
    cudaDeviceProp prop;
    int sms;
    cudaStream_t stream;
    cudaEvent_t ev0, ev1;
    unsigned long long *sink; /* sms * 2048 slots: every thread the largest grid can hold */
    unsigned long long *acc;  /* sms * 32 slots: one per block */
    int4 *src;                /* copy source, several times L2 */
    size_t src_bytes;
    unsigned char *dbar_lines; /* two 128-byte lines for the device-barrier rows */
    unsigned long long *chk;   /* MAXK x BENCH_CHK_WORDS: each kernel's check words */
    unsigned *slots;           /* grid rows' per-phase check: 2 x sms x 2048 words */
    unsigned nonce;            /* the last launch's a.nonce */
} device_t;

/* The global -> shared copy rows read a buffer much larger than L2 so every
 * tile comes from DRAM: 1 GiB, or a quarter of free memory if that is less. */
static void ensure_src(device_t *d)
{
    if (d->src)
        return;
    size_t free_b = 0, total_b = 0;
    CK(cudaMemGetInfo(&free_b, &total_b));
    size_t want = (size_t)1 << 30;
    if (want > free_b / 4)
        want = (free_b / 4) / TILE * TILE;
    CK(cudaMalloc((void **)&d->src, want));
    /* Every int4 a hash of its index (bench_src_vec): the copy rows check
     * what lands in shared memory against it. */
    CK((cudaError_t)bench_fill_src(d->src, want / sizeof(int4), d->stream));
    CK(cudaStreamSynchronize(d->stream));
    d->src_bytes = want;
}

// --- launching and timing -------------------------------------------------------------

typedef struct launch {
    unsigned grid, block, cluster, smem;
    int coop;
} launch_t;

/* The one launcher of the benchmark: cgc kernels and anchors go through it
 * alike. Cluster shape and cooperative launch are launch attributes. */
static cudaError_t launch(const device_t *d, const void *fn, const launch_t *L, bench_args_t args)
{
    cudaLaunchConfig_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDim = dim3(L->grid, 1, 1);
    cfg.blockDim = dim3(L->block, 1, 1);
    cfg.dynamicSmemBytes = L->smem;
    cfg.stream = d->stream;
    cudaLaunchAttribute attr[2];
    memset(attr, 0, sizeof attr);
    unsigned n = 0;
    if (L->cluster) {
        attr[n].id = cudaLaunchAttributeClusterDimension;
        attr[n].val.clusterDim.x = L->cluster;
        attr[n].val.clusterDim.y = 1;
        attr[n].val.clusterDim.z = 1;
        ++n;
    }
    if (L->coop) {
        attr[n].id = cudaLaunchAttributeCooperative;
        attr[n].val.cooperative = 1;
        ++n;
    }
    cfg.attrs = attr;
    cfg.numAttrs = n;
    void *params[1] = {&args};
    return cudaLaunchKernelExC(&cfg, fn, params);
}

/* Milliseconds of one launch, between two events on the benchmark's stream.
 * Every launch gets a new a.nonce (the checks' values differ per launch). */
static float time_once(device_t *d, const void *fn, const launch_t *L, bench_args_t args)
{
    float ms = 0.f;
    args.nonce = ++d->nonce;
    CK(cudaEventRecord(d->ev0, d->stream));
    CK(launch(d, fn, L, args));
    CK(cudaEventRecord(d->ev1, d->stream));
    CK(cudaEventSynchronize(d->ev1));
    CK(cudaGetLastError());
    CK(cudaEventElapsedTime(&ms, d->ev0, d->ev1));
    return ms;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static float median(float *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_float);
    return n % 2 ? v[n / 2] : 0.5f * (v[n / 2 - 1] + v[n / 2]);
}

/* ns per iteration of a set of kernels measured together: a warm-up launch of
 * each, then `repeats` rounds in which every kernel is timed at `iters` and
 * at 0 iterations, interleaved so clock drift hits all alike; the result is
 * (median(t_iters) - median(t_0)) / iters. */
#define MAXK 3 /* cgc, anchor and (split grid rows) the floor */
static void measure(device_t *d, int nk, const void *const *fns, const launch_t *L, bench_args_t args,
                    int repeats, double *ns_out, double *spread_out, double (*samples_out)[64])
{
    float t[MAXK][64], t0[MAXK][64];
    if (repeats > 64)
        repeats = 64;
    /* Each kernel its own check words (d->chk + k * BENCH_CHK_WORDS). */
    bench_args_t ka[MAXK], zero[MAXK];
    for (int k = 0; k < nk; ++k) {
        ka[k] = args;
        ka[k].chk = d->chk + (size_t)k * BENCH_CHK_WORDS;
        zero[k] = ka[k];
        zero[k].iters = 0;
    }
    for (int k = 0; k < nk; ++k)
        (void)time_once(d, fns[k], L, ka[k]);
    for (int r = 0; r < repeats; ++r)
        for (int k = 0; k < nk; ++k) {
            t[k][r] = time_once(d, fns[k], L, ka[k]);
            t0[k][r] = time_once(d, fns[k], L, zero[k]);
        }
    for (int k = 0; k < nk; ++k) {
        /* Each timed launch's ns per iteration, net of the 0-iteration
         * launches' median: the samples the JSON output carries. */
        const double med0 = (double)median(t0[k], repeats);
        for (int r = 0; r < repeats; ++r)
            samples_out[k][r] = ((double)t[k][r] - med0) * 1e6 / (double)args.iters;
        double med = (double)median(t[k], repeats); /* sorts t[k] */
        double net = med - med0;
        if (net < 0)
            net = 0;
        ns_out[k] = net * 1e6 / (double)args.iters;
        /* Spread of the timed launches, (max - min) / median, in percent:
         * a ratio target tighter than this is within noise. */
        spread_out[k] = med > 0 ? 100.0 * (double)(t[k][repeats - 1] - t[k][0]) / med : 0.0;
    }
}

// --- output -------------------------------------------------------------------------

typedef struct result {
    int ran;           /* 1 measured, 0 skipped */
    int cgc_missing;   /* the cgc kernel is not built */
    int caught;        /* the cgc kernel's own check said wrong: its wrong count, the host's replay of its
                        * chains, its checksum (not "no checks", not a phase shortfall); the self-test
                        * counts a broken row caught only then */
    char config[96];
    char note[512];
    double cgc_ns, anc_ns, ratio;
    const char *verdict;
    double samples[MAXK][128]; /* each timed launch's ns per iteration, cgc first (JSON) */
    int nsamples;              /* per kernel */
} result_t;

/* The JSON Lines file beside the CSV (bench/workloads/wl.h writes it), or NULL. */
static FILE *g_json;

static void target_text(const row_t *r, char *buf, size_t n)
{
    if (r->max_ratio <= 0)
        snprintf(buf, n, "info");
    else if (r->speedup > 0)
        snprintf(buf, n, "<=%.3f (>=%.2fx thr)", r->max_ratio, r->speedup);
    else
        snprintf(buf, n, "<=%.2f", r->max_ratio);
}

static void csv_field(FILE *f, const char *s, int last)
{
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
    fputc(last ? '\n' : ',', f);
}

static void print_row(FILE *csv, const row_t *r, const result_t *res)
{
    char target[48], cgc_ns[24], anc_ns[24], ratio[24];
    target_text(r, target, sizeof target);
    snprintf(cgc_ns, sizeof cgc_ns, res->ran && !res->cgc_missing ? "%.1f" : "-", res->cgc_ns);
    snprintf(anc_ns, sizeof anc_ns, res->ran ? "%.1f" : "-", res->anc_ns);
    snprintf(ratio, sizeof ratio, res->ran && !res->cgc_missing ? "%.3f" : "-", res->ratio);
    printf("%-28s | %-34s | %9s | %9s | %7s | %-22s | %-7s | %s vs %s%s%s\n", r->op, res->config, cgc_ns, anc_ns,
           ratio, target, res->verdict, r->cgc_what, r->anc_what, res->note[0] ? "; " : "", res->note);
    fflush(stdout);
    if (csv) {
        char speed[24];
        snprintf(speed, sizeof speed, res->ran && !res->cgc_missing && res->cgc_ns > 0 ? "%.3f" : "",
                 res->cgc_ns > 0 ? res->anc_ns / res->cgc_ns : 0.0);
        csv_field(csv, r->op, 0);
        csv_field(csv, res->config, 0);
        csv_field(csv, r->cgc_what, 0);
        csv_field(csv, r->anc_what, 0);
        csv_field(csv, cgc_ns, 0);
        csv_field(csv, anc_ns, 0);
        csv_field(csv, ratio, 0);
        csv_field(csv, speed, 0);
        csv_field(csv, target, 0);
        csv_field(csv, res->verdict, 0);
        csv_field(csv, res->note, 1);
        fflush(csv);
    }
    const int has_cgc = res->ran && !res->cgc_missing;
    const wl_json_row_t j = {r->op, res->config, r->cgc_what, r->anc_what, target, res->verdict, res->note,
                             has_cgc ? res->cgc_ns : -1.0, res->ran ? res->anc_ns : -1.0,
                             has_cgc ? res->ratio : -1.0, r->max_ratio, has_cgc ? res->samples[0] : NULL,
                             res->ran ? res->samples[has_cgc ? 1 : 0] : NULL, res->nsamples, res->nsamples};
    wl_json_row(g_json, &j);
}

// --- one row ------------------------------------------------------------------------

static int row_selected(const options_t *o, const row_t *r, const char *config)
{
    /* The self-test rows run only under --self-test, and then alone. */
    if ((strncmp(r->op, "self-test", 9) == 0) != (o->self_test != 0))
        return 0;
    return !o->filter || strstr(r->op, o->filter) || strstr(config, o->filter) || strstr(r->cgc_what, o->filter) ||
           strstr(r->anc_what, o->filter);
}

static void describe_config(const row_t *r, int sms, char *buf, size_t n)
{
    switch (r->shape) {
    case SHAPE_CLUSTER:
        if (r->bytes && r->xfers)
            snprintf(buf, n, "cluster %u, %u thr, %u x %u KiB/sync", r->cluster, r->threads, r->xfers,
                     r->bytes / r->xfers / 1024);
        else if (r->bytes)
            snprintf(buf, n, "cluster %u, %u thr, %u KiB/CTA", r->cluster, r->threads, r->bytes / 1024);
        else
            snprintf(buf, n, "cluster %u, %u thr", r->cluster, r->threads);
        break;
    case SHAPE_GRID:
        if (r->bytes || r->floor || r->prepare == bench_grid_probe_prepare) /* split grid rows: W FMAs */
            snprintf(buf, n, "%u x %u (%u/SM), W %u", (unsigned)sms * r->blocks_per_sm, r->threads, r->blocks_per_sm,
                     r->bytes);
        else
            snprintf(buf, n, "%u x %u (%u/SM)", (unsigned)sms * r->blocks_per_sm, r->threads, r->blocks_per_sm);
        break;
    default:
        if (r->bytes && r->xfers)
            snprintf(buf, n, "%u thr, %u stages x %u KiB", r->threads, r->xfers, r->bytes / 1024);
        else if (r->bytes)
            snprintf(buf, n, "%u thr, %u KiB tiles", r->threads, r->bytes / 1024);
        else
            snprintf(buf, n, "%u thr", r->threads);
        break;
    }
}

/* Per-function attributes a shape needs: dynamic shared memory above 48 KiB,
 * clusters above 8 blocks (non-portable, sm_90 allows 16). */
static cudaError_t prepare_fn(const void *fn, const row_t *r, unsigned smem)
{
    cudaError_t e = cudaSuccess;
    if (smem > 48u * 1024u)
        e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e == cudaSuccess && r->shape == SHAPE_CLUSTER && r->cluster > 8)
        e = cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    return e;
}

/* How many clusters of the row's shape fit at once for fn (in *n). */
static cudaError_t max_active_clusters(const device_t *d, const void *fn, const launch_t *L, int *n)
{
    cudaLaunchConfig_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDim = dim3(L->cluster, 1, 1);
    cfg.blockDim = dim3(L->block, 1, 1);
    cfg.dynamicSmemBytes = L->smem;
    cfg.stream = d->stream;
    cudaLaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = L->cluster;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    *n = 0;
    return cudaOccupancyMaxActiveClusters(n, fn, &cfg);
}

/* A configuration the device refuses (an attribute, an occupancy query) skips
 * the row with the runtime's message instead of ending the run; such errors
 * are not sticky, so the next row starts clean. */
static int skip_on_error(cudaError_t e, const char *what, result_t *res)
{
    if (e == cudaSuccess)
        return 0;
    (void)cudaGetLastError();
    res->verdict = "SKIP";
    snprintf(res->note, sizeof res->note, "%s: %s", what, cudaGetErrorString(e));
    return 1;
}

// --- host replays of what a kernel computed ---------------------------------------------

/* bench_device.h's bench_coll_seed / bench_coll_next, on the host. */
static unsigned coll_seed(unsigned long long g) { return (unsigned)((g + 1ull) * 0x9E3779B97F4A7C15ull >> 32); }
static unsigned coll_next(unsigned r, unsigned s) { return (r * 0x9E3779B1u + s) >> 16; }

/* The final x of the 32 lanes of the warp whose lane 0 is grid thread
 * `first`, after `iters` iterations of the row's collective (every value
 * below 2^16, sums exact in every type). */
static void coll_replay(check_kind_t kind, unsigned long long first, long long iters, unsigned out[32])
{
    unsigned seed[32], x[32], r[32];
    for (unsigned l = 0; l < 32; ++l) {
        seed[l] = coll_seed(first + l);
        x[l] = seed[l] >> 16;
    }
    const unsigned n = (kind == CHK_REDUCE16 || kind == CHK_SCAN16) ? 16u : kind == CHK_REDUCE8 ? 8u : 32u;
    for (long long i = 0; i < iters; ++i) {
        if (kind == CHK_COALESCED) {
            unsigned sum = 0;
            for (unsigned l = 0; l < 32; ++l)
                sum += (x[l] & 1u) ? x[l] : 0u;
            for (unsigned l = 0; l < 32; ++l)
                r[l] = (x[l] & 1u) ? sum : x[l] + 1u;
        } else {
            for (unsigned base = 0; base < 32; base += n) {
                unsigned sum = 0;
                for (unsigned l = base; l < base + n; ++l) {
                    sum += x[l];
                    r[l] = sum; /* inclusive scan */
                }
                if (kind == CHK_REDUCE32 || kind == CHK_REDUCE16 || kind == CHK_REDUCE8)
                    for (unsigned l = base; l < base + n; ++l)
                        r[l] = sum;
            }
        }
        for (unsigned l = 0; l < 32; ++l)
            x[l] = coll_next(r[l], seed[l] + (unsigned)i);
    }
    for (unsigned l = 0; l < 32; ++l)
        out[l] = x[l];
}

/* The seed-000 completion rows: each phase every thread t writes
 * (int)(i ^ t) + (int)acc, F adds the block's words into acc. */
static unsigned long long compl_sum_replay(unsigned threads, long long iters)
{
    unsigned long long acc = 0;
    for (long long i = 0; i < iters; ++i) {
        unsigned sum = 0;
        for (unsigned t = 0; t < threads; ++t)
            sum += ((unsigned)i ^ t) + (unsigned)acc;
        acc += (unsigned long long)sum;
    }
    return acc;
}

/* The row's replayed check (CHK_SUM, CHK_REDUCE*, CHK_SCAN*, CHK_COALESCED)
 * on one kernel's check words; `why` stays empty when it matches. */
static void replay_check(const row_t *r, const bench_args_t *a, unsigned grid, unsigned long long launches,
                         const unsigned long long *x, char *why, size_t n)
{
    if (r->check == CHK_SUM) {
        const unsigned long long want = launches * grid * compl_sum_replay(r->threads, a->iters);
        if (x[BENCH_CHK_SUM] != want)
            snprintf(why, n, "completion sums %llu, want %llu", x[BENCH_CHK_SUM], want);
        return;
    }
    if (r->check == CHK_COUNTS)
        return;
    /* The sampled warps (bench_device.h, bench_coll_sample): warp
     * s * (warps - 1) / 3 of block s * (grid - 1) / 3; a pair met before is
     * not sampled again (the kernel writes its state once). */
    const unsigned warps = r->threads / 32u;
    unsigned bs[BENCH_COLL_SAMPLES], ws[BENCH_COLL_SAMPLES];
    for (unsigned s = 0; s < BENCH_COLL_SAMPLES; ++s) {
        bs[s] = s * (grid - 1u) / (BENCH_COLL_SAMPLES - 1u);
        ws[s] = s * (warps - 1u) / (BENCH_COLL_SAMPLES - 1u);
        int seen = 0;
        for (unsigned t = 0; t < s; ++t)
            seen |= bs[t] == bs[s] && ws[t] == ws[s];
        if (seen)
            continue;
        unsigned want[32];
        coll_replay(r->check, (unsigned long long)bs[s] * r->threads + 32u * ws[s], a->iters, want);
        for (unsigned l = 0; l < 32; ++l)
            if (x[BENCH_CHK_STATE + 32u * s + l] != want[l]) {
                snprintf(why, n, "block %u thread %u: x = %llu after %lld iterations, want %u", bs[s],
                         32u * ws[s] + l, x[BENCH_CHK_STATE + 32u * s + l], (long long)a->iters, want[l]);
                return;
            }
    }
}

static void run_row(device_t *d, const options_t *o, const row_t *r, result_t *res)
{
    const void *fns[MAXK];
    int nk = 0;
    const void *cgc_fn = r->cgc();
    const void *anc_fn = r->anchor();
    res->cgc_missing = cgc_fn == NULL;
    if (cgc_fn)
        fns[nk++] = cgc_fn;
    const int ianc = nk; /* the anchor's index in fns; the floor's after it */
    fns[nk++] = anc_fn;
    const void *floor_fn = r->floor ? r->floor() : NULL;
    if (floor_fn)
        fns[nk++] = floor_fn;

    if (r->metric == METRIC_STREAM) { /* bench/stream.cu runs and checks the whole row */
        bench_stream_result_t s;
        CK((cudaError_t)bench_stream_row(r->cgc, r->anchor, r->shape == SHAPE_CLUSTER ? r->cluster : 0, o->repeats, &s));
        snprintf(res->note, sizeof res->note, "%s", s.note);
        if (s.skip) {
            res->verdict = "SKIP";
            return;
        }
        res->ran = 1;
        res->caught = s.cgc_wrong;
        res->cgc_ns = s.cgc_ns;
        res->anc_ns = s.anc_ns;
        res->ratio = s.anc_ns > 0 ? s.cgc_ns / s.anc_ns : INFINITY;
        res->verdict = s.wrong ? "WRONG" : r->max_ratio <= 0 ? "info" : (res->ratio <= r->max_ratio ? "PASS" : "MISS");
        return;
    }

    launch_t L;
    memset(&L, 0, sizeof L);
    L.block = r->threads;
    bench_args_t a;
    memset(&a, 0, sizeof a);
    a.iters = o->iters / (long long)(r->iter_div ? r->iter_div : 1);
    if (a.iters < 1)
        a.iters = 1;
    a.work = o->work;
    a.slow = o->slow;
    a.sink = d->sink;
    a.acc = d->acc;
    if (r->shape == SHAPE_GRID)
        a.xfers = r->bytes; /* split grid rows: FMAs between arrive and wait (0 elsewhere) */

    switch (r->metric) {
    case METRIC_COPY:
        ensure_src(d);
        L.smem = r->bytes * (r->xfers ? r->xfers : 1u); /* staged rows: xfers stages */
        a.src = d->src;
        a.tile_bytes = r->bytes;
        a.ntiles = d->src_bytes / r->bytes;
        break;
    case METRIC_DSMEM:
        L.smem = BENCH_DSMEM_SMEM(r->bytes);
        a.xfer_bytes = r->bytes;
        a.xfers = r->xfers;
        break;
    default:
        break;
    }
    /* The kernels' unrolled loops assume these divisions are exact. */
    unsigned vecs = r->bytes / 16u;
    const unsigned data_threads = r->threads;
    if ((r->metric == METRIC_COPY && (vecs % r->threads || vecs / r->threads > 4)) ||
        (r->metric == METRIC_DSMEM && !r->xfers && vecs % (4u * r->threads)) ||
        (r->metric == METRIC_DSMEM && r->xfers && vecs != r->xfers * data_threads)) {
        res->verdict = "SKIP";
        snprintf(res->note, sizeof res->note, "row shape: %u bytes do not split evenly over %u threads", r->bytes,
                 r->threads);
        return;
    }
    if (r->prepare && r->prepare(&a, res->note, sizeof res->note) != 0) {
        res->verdict = "SKIP";
        return;
    }
    for (int k = 0; k < nk; ++k)
        if (skip_on_error(prepare_fn(fns[k], r, L.smem), "cudaFuncSetAttribute", res))
            return;

    /* Grid: every block of the row resident at once, identical for both kernels. */
    unsigned need_per_sm = r->blocks_per_sm ? r->blocks_per_sm : 1;
    if (r->shape == SHAPE_CLUSTER) {
        L.cluster = r->cluster;
        int fit = d->sms / (int)r->cluster;
        for (int k = 0; k < nk; ++k) {
            int m = 0;
            if (skip_on_error(max_active_clusters(d, fns[k], &L, &m), "cudaOccupancyMaxActiveClusters", res))
                return;
            if (m < fit)
                fit = m;
        }
        if (fit < 1) {
            res->verdict = "SKIP";
            snprintf(res->note, sizeof res->note, "no cluster of %u x %u threads fits", r->cluster, r->threads);
            return;
        }
        L.grid = (unsigned)fit * r->cluster;
        snprintf(res->config + strlen(res->config), sizeof res->config - strlen(res->config), ", %u blk", L.grid);
    } else {
        for (int k = 0; k < nk; ++k) {
            int per = 0;
            if (skip_on_error(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, fns[k], (int)L.block, L.smem),
                              "cudaOccupancyMaxActiveBlocksPerMultiprocessor", res))
                return;
            if ((unsigned)per < need_per_sm) {
                res->verdict = "SKIP";
                snprintf(res->note, sizeof res->note, "%s: only %d blocks/SM fit, the row needs %u",
                         k == 0 && cgc_fn ? "cgc kernel" : k == ianc ? "anchor" : "floor", per, need_per_sm);
                return;
            }
        }
        L.grid = (unsigned)d->sms * need_per_sm;
        L.coop = r->shape == SHAPE_GRID;
    }

    if (r->checked && (unsigned long long)L.grid * L.block > BENCH_DBAR_MAX_THREADS) {
        res->verdict = "SKIP";
        snprintf(res->note, sizeof res->note, "grid of %u x %u threads is larger than the check buffers", L.grid,
                 L.block);
        return;
    }
    /* Device-barrier rows: two passes, the two barriers swapping their
     * lines, each pass set up (iters < 0) and checked; the times are the
     * passes' mean. */
    double ns[MAXK] = {0, 0, 0}, spread[MAXK] = {0, 0, 0};
    unsigned long long st[2][2] = {{0, 0}, {0, 0}}, want = 0;
    int bad = 0;
    const unsigned passes = r->checked ? 2u : 1u;
    a.dbar_lines = d->dbar_lines;
    a.slots = d->slots;
    if (!r->checked && (unsigned long long)L.grid * L.block > (unsigned long long)d->sms * 2048u) {
        res->verdict = "SKIP";
        snprintf(res->note, sizeof res->note, "grid of %u x %u threads is larger than the check slots", L.grid,
                 L.block);
        return;
    }
    CK(cudaMemsetAsync(d->chk, 0, (size_t)MAXK * BENCH_CHK_WORDS * sizeof(unsigned long long), d->stream));
    for (unsigned pass = 0; pass < passes; ++pass) {
        a.dbar_swap = pass;
        if (r->checked) {
            bench_args_t init = a;
            init.iters = -1;
            for (int k = 0; k < nk; ++k)
                if (skip_on_error(launch(d, fns[k], &L, init), "set-up launch", res))
                    return;
            if (skip_on_error(cudaStreamSynchronize(d->stream), "set-up launch", res))
                return;
        }
        double pns[MAXK], pspread[MAXK], psamples[MAXK][64];
        measure(d, nk, fns, &L, a, o->repeats, pns, pspread, psamples);
        const int np = o->repeats > 64 ? 64 : o->repeats;
        for (int k = 0; k < nk; ++k)
            for (int i = 0; i < np && res->nsamples + i < 128; ++i)
                res->samples[k][res->nsamples + i] = psamples[k][i];
        res->nsamples = res->nsamples + np < 128 ? res->nsamples + np : 128;
        for (int k = 0; k < nk; ++k) {
            ns[k] += pns[k] / passes;
            spread[k] = pspread[k] > spread[k] ? pspread[k] : spread[k];
        }
        if (r->checked) {
            /* Every timed launch is checked: no wrong value read after any
             * wait, and thread 0 completed every phase of every launch (the
             * warm-up and `repeats` timed launches; the 0-iteration ones
             * have none). */
            const unsigned long long pwant = (unsigned long long)(1 + (o->repeats > 64 ? 64 : o->repeats)) * a.iters;
            unsigned long long p[2][2] = {{0, 0}, {0, 0}};
            (void)cudaStreamSynchronize(d->stream);
            bad |= bench_dbar_stats_anchor(p[1]) != 0 || p[1][0] != 0 || p[1][1] != pwant;
            if (cgc_fn)
                bad |= r->checked(p[0]) != 0 || p[0][0] != 0 || p[0][1] != pwant;
            for (int k = 0; k < 2; ++k)
                for (int j = 0; j < 2; ++j)
                    st[k][j] += p[k][j];
            want += pwant;
        }
    }
    /* Every other row: each kernel's own check words (bench.h, BENCH_CHK_*). */
    char chk_note[320] = "";
    if (!r->checked) {
        unsigned long long w[MAXK][BENCH_CHK_WORDS];
        CK(cudaStreamSynchronize(d->stream));
        CK(cudaMemcpy(w, d->chk, sizeof w, cudaMemcpyDeviceToHost));
        const unsigned long long launches = (unsigned long long)(1 + (o->repeats > 64 ? 64 : o->repeats));
        const unsigned long long pwant = launches * (unsigned long long)a.iters * L.grid;
        int used_c = 0;
        for (int k = 0; k < nk; ++k) {
            const char *side = (k == 0 && cgc_fn) ? "cgc" : k == ianc ? "anchor" : "floor";
            const unsigned long long *x = w[k];
            char why[96] = "";
            if (x[BENCH_CHK_PHASES] == 0 && x[BENCH_CHK_WRONG] == 0 && r->check == CHK_COUNTS) {
                /* A kernel that reported nothing: fine only where that is the
                 * design (the row's verify hook checks it, or it is one of the
                 * check-cost rows' unchecked anchors); anything else is a
                 * kernel whose checks never ran, and WRONG. */
                const int nochk = fns[k] == a_syncthreads_nochk() || fns[k] == a_cg_cluster_sync_nochk() ||
                                  fns[k] == a_cg_grid_sync_nochk();
                if (!r->verify && !nochk)
                    bad = 1;
                used_c += snprintf(chk_note + used_c, sizeof chk_note - (size_t)used_c, "%s%s %s",
                                   used_c ? ", " : "", side,
                                   r->verify ? "by the row's verify"
                                             : nochk ? "unchecked (the check-cost baseline)"
                                                     : "reported no checks (WRONG)");
                if (used_c >= (int)sizeof chk_note)
                    used_c = (int)sizeof chk_note - 1;
                continue;
            }
            if (x[BENCH_CHK_WRONG]) {
                snprintf(why, sizeof why, "%llu wrong", x[BENCH_CHK_WRONG]);
                res->caught |= k == 0 && cgc_fn;
            } else if (x[BENCH_CHK_PHASES] != pwant) {
                snprintf(why, sizeof why, "%llu phases, want %llu", x[BENCH_CHK_PHASES], pwant);
            } else {
                replay_check(r, &a, L.grid, launches, x, why, sizeof why);
                res->caught |= k == 0 && cgc_fn && why[0];
            }
            if (why[0])
                bad = 1;
            used_c += snprintf(chk_note + used_c, sizeof chk_note - (size_t)used_c, "%s%s %s", used_c ? ", " : "",
                               side, why[0] ? why : "ok");
            if (x[BENCH_CHK_STALE])
                used_c += snprintf(chk_note + used_c, sizeof chk_note - (size_t)used_c,
                                   " (%llu stale reads: relaxed arrive, allowed)", x[BENCH_CHK_STALE]);
            if (used_c >= (int)sizeof chk_note)
                used_c = (int)sizeof chk_note - 1;
        }
    }
    res->ran = 1;
    res->anc_ns = ns[ianc];
    double ill_over = 0, ill_noise = 0; /* set when the cost over the floor is within the timing noise */
    if (cgc_fn) {
        res->cgc_ns = ns[0];
        res->ratio = res->anc_ns > 0 ? res->cgc_ns / res->anc_ns : INFINITY;
        if (floor_fn) {
            /* The cost over the floor: what the barrier adds to the loop. */
            const double over_c = res->cgc_ns > ns[ianc + 1] ? res->cgc_ns - ns[ianc + 1] : 0.0;
            const double over_a = res->anc_ns - ns[ianc + 1];
            res->ratio = over_a > 1.0 ? over_c / over_a : INFINITY;
            /* The three timings' spreads in ns, summed: a cost over the floor
             * under ten times that is noise, not judged (a long W, where the
             * floor is most of the loop). */
            const double noise = (res->cgc_ns * spread[0] + res->anc_ns * spread[ianc] + ns[ianc + 1] * spread[ianc + 1]) / 100.0;
            if (over_a < 10.0 * noise) {
                ill_over = over_a;
                ill_noise = noise;
            }
        }
        res->verdict = r->max_ratio <= 0 || ill_noise > 0 ? "info" : (res->ratio <= r->max_ratio ? "PASS" : "MISS");
    } else {
        res->verdict = "MISSING";
    }

    char *note = res->note;
    size_t room = sizeof res->note;
    int used = cgc_fn ? snprintf(note, room, "%lld iters, spread %.1f%%/%.1f%%", (long long)a.iters, spread[0],
                                 spread[ianc])
                      : snprintf(note, room, "%lld iters, spread %.1f%%", (long long)a.iters, spread[ianc]);
    if (floor_fn && used < (int)room)
        used += snprintf(note + used, room - (size_t)used,
                         ", ratio over the floor: floor %.1f ns (spread %.1f%%), whole loop cgc/anchor %.3f",
                         ns[ianc + 1], spread[ianc + 1], res->anc_ns > 0 ? res->cgc_ns / res->anc_ns : 0.0);
    if (ill_noise > 0 && used < (int)room)
        used += snprintf(note + used, room - (size_t)used,
                         ", not judged: the anchor's cost over the floor (%.0f ns) is under 10x the timings' summed "
                         "spread (%.0f ns)",
                         ill_over, ill_noise);
    if (r->metric != METRIC_NS) {
        double bytes = (double)L.grid * (double)r->bytes; /* per iteration, whole grid */
        if (cgc_fn && res->cgc_ns > 0)
            used += snprintf(note + used, room - (size_t)used, ", cgc %.2f TB/s", bytes / res->cgc_ns / 1e3);
        if (res->anc_ns > 0)
            used += snprintf(note + used, room - (size_t)used, ", anchor %.2f TB/s", bytes / res->anc_ns / 1e3);
    }
    if (res->cgc_missing)
        used += snprintf(note + used, room - (size_t)used, ", cgc kernel not built: %s", bench_cgc_missing(r->cgc));
    if (used >= (int)room)
        used = (int)room - 1;
    if (!r->checked) {
        if (bad)
            res->verdict = "WRONG";
        used += snprintf(note + used, room - (size_t)used, ", checked: %s", chk_note);
        if (used >= (int)room)
            used = (int)room - 1;
    }
    if (r->checked) {
        if (bad)
            res->verdict = "WRONG";
        res->caught |= cgc_fn && st[0][0] > 0; /* wrong values read after a wait */
        snprintf(note + used, room - (size_t)used,
                 ", lines swapped, checked: cgc %llu wrong / %llu phases, anchor %llu / %llu (want %llu)", st[0][0],
                 st[0][1], st[1][0], st[1][1], want);
    }
    if (r->verify) {
        const size_t len = strlen(res->note);
        if (r->verify(&a, L.grid, res->note + len, sizeof res->note - len) != 0) {
            res->verdict = "WRONG";
            res->caught = 1;
        }
    }
}

// --- main ----------------------------------------------------------------------------

int main(int argc, char **argv)
{
    options_t o = parse_options(argc, argv);
    static result_t res[NROWS];

    if (o.list) {
        for (int i = 0; i < NROWS; ++i) {
            char cfg[96], target[48];
            describe_config(&k_rows[i], 132, cfg, sizeof cfg);
            const row_t *r = &k_rows[i];
            if (o.filter && !strstr(r->op, o.filter) && !strstr(cfg, o.filter) && !strstr(r->cgc_what, o.filter) &&
                !strstr(r->anc_what, o.filter))
                continue; /* --list --filter TEXT: the rows a run with that filter would run */
            target_text(&k_rows[i], target, sizeof target);
            printf("%-28s | %-34s | %-22s | %s vs %s%s\n", k_rows[i].op, cfg, target, k_rows[i].cgc_what,
                   k_rows[i].anc_what, k_rows[i].cgc() ? "" : "  [cgc kernel not built]");
        }
        return 0;
    }

    signal(SIGALRM, on_alarm);
    device_t d;
    memset(&d, 0, sizeof d);
    int ndev = 0;
    CK(cudaGetDeviceCount(&ndev));
    CK(cudaSetDevice(0));
    CK(cudaGetDeviceProperties(&d.prop, 0));
    if (d.prop.major < 9) {
        fprintf(stderr, "bench: %s is sm_%d%d; cgc's benchmark needs sm_90 (Hopper)\n", d.prop.name, d.prop.major,
                d.prop.minor);
        return 2;
    }
    d.sms = d.prop.multiProcessorCount;
    int clock_khz = 0, mem_khz = 0;
    CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    CK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0));
    int rt = 0, drv = 0;
    CK(cudaRuntimeGetVersion(&rt));
    CK(cudaDriverGetVersion(&drv));
    printf("cgc bench: %s, sm_%d%d, %d SMs, L2 %d MiB, SM clock %d MHz (max, not locked), runtime %d, driver %d\n",
           d.prop.name, d.prop.major, d.prop.minor, d.sms, d.prop.l2CacheSize >> 20, clock_khz / 1000, rt, drv);
    printf("iters %lld (rows divide it), %d repeats, median net of a 0-iteration launch; rotating warp: work %u, "
           "slow %u cycles\n\n",
           o.iters, o.repeats, o.work, o.slow);

    if (bench_cgc_debug_build())
        printf("WARNING: the cgc kernels were built with CG_DEBUG=1 (--config=cgdebug): bounded waits and "
               "argument checks are in the timed loops; these are not release figures\n\n");

    CK(cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking));
    CK(cudaEventCreate(&d.ev0));
    CK(cudaEventCreate(&d.ev1));
    CK(cudaMalloc((void **)&d.sink, (size_t)d.sms * 2048 * sizeof(unsigned long long)));
    CK(cudaMalloc((void **)&d.acc, (size_t)d.sms * 32 * sizeof(unsigned long long)));
    CK(cudaMalloc((void **)&d.dbar_lines, 256));
    CK(cudaMalloc((void **)&d.chk, (size_t)MAXK * BENCH_CHK_WORDS * sizeof(unsigned long long)));
    CK(cudaMalloc((void **)&d.slots, (size_t)2 * d.sms * 2048 * sizeof(unsigned)));
    CK(cudaMemset(d.acc, 0, (size_t)d.sms * 32 * sizeof(unsigned long long)));

    FILE *csv = NULL;
    if (o.csv) {
        csv = fopen(o.csv, "w");
        if (!csv) {
            fprintf(stderr, "bench: cannot write %s\n", o.csv);
            return 1;
        }
        /* Which GPU, driver, clocks and commit the rows come from: "# "
         * comment lines first, as the workload binaries write them
         * (bench/workloads/wl.h; CGC_COMMIT from tools/gpu/run.sh). */
        wl_metadata(csv, "# ");
        fprintf(csv, "operation,config,cgc,anchor,cgc_ns,anchor_ns,ratio,speedup,target,verdict,note\n");
        /* And the same rows with their samples as JSON Lines beside it (PATH.json). */
        char json_path[4096];
        wl_json_path(o.csv, json_path, sizeof json_path);
        remove(json_path);
        g_json = wl_open_json(o.csv, "bench");
    }

    printf("%-28s | %-34s | %9s | %9s | %7s | %-22s | %-7s | %s\n", "operation", "config", "cgc ns", "anchor ns",
           "ratio", "target (cgc/anchor)", "verdict", "what / note");
    struct timespec t_start, t_end;
    clock_gettime(CLOCK_MONOTONIC, &t_start);
    for (int i = 0; i < NROWS; ++i) {
        const row_t *r = &k_rows[i];
        result_t *x = &res[i];
        describe_config(r, d.sms, x->config, sizeof x->config);
        x->verdict = "filtered";
        if (!row_selected(&o, r, x->config))
            continue;
        snprintf(g_alarm_msg, sizeof g_alarm_msg,
                 "\nbench: row '%s | %s' did not finish within %d s (hung barrier?); aborting\n", r->op, x->config,
                 o.row_timeout);
        g_current_row = r->op;
        alarm((unsigned)o.row_timeout);
        run_row(&d, &o, r, x);
        alarm(0);
        print_row(csv, r, x);
    }
    clock_gettime(CLOCK_MONOTONIC, &t_end);

    /* The short table: one line per row that ran, then the counts. */
    int pass = 0, miss = 0, info = 0, missing = 0, skipped = 0, wrong = 0;
    printf("\nsummary (ratio = cgc ns / anchor ns; lower is better)\n");
    for (int i = 0; i < NROWS; ++i) {
        const result_t *x = &res[i];
        if (!strcmp(x->verdict, "filtered"))
            continue;
        char target[48];
        target_text(&k_rows[i], target, sizeof target);
        if (x->ran && !x->cgc_missing)
            printf("  %-7s %-28s %-34s %7.3f  %s\n", x->verdict, k_rows[i].op, x->config, x->ratio, target);
        else
            printf("  %-7s %-28s %-34s %7s  %s\n", x->verdict, k_rows[i].op, x->config, "-", target);
        if (!strcmp(x->verdict, "PASS"))
            ++pass;
        else if (!strcmp(x->verdict, "MISS"))
            ++miss;
        else if (!strcmp(x->verdict, "info"))
            ++info;
        else if (!strcmp(x->verdict, "MISSING"))
            ++missing;
        else if (!strcmp(x->verdict, "WRONG"))
            ++wrong;
        else
            ++skipped;
    }
    double secs = (double)(t_end.tv_sec - t_start.tv_sec) + 1e-9 * (double)(t_end.tv_nsec - t_start.tv_nsec);
    printf("%d PASS, %d MISS, %d WRONG, %d info, %d cgc kernel missing, %d skipped; %.1f s\n", pass, miss, wrong,
           info, missing, skipped, secs);

    if (csv)
        fclose(csv);
    if (g_json)
        fclose(g_json);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaFree(d.src));
    CK(cudaFree(d.sink));
    CK(cudaFree(d.dbar_lines));
    CK(cudaFree(d.chk));
    CK(cudaFree(d.slots));
    CK(cudaFree(d.acc));
    if (o.self_test) {
        /* Every self-test row is a broken variant: each must be WRONG, and
         * by its own check (res.caught): a row WRONG only because its
         * kernel reported no checks or too few phases, or because the
         * anchor's check failed, has not shown that the check catches the
         * defect. */
        int rows = 0, caught = 0;
        for (int i = 0; i < NROWS; ++i) {
            const result_t *x = &res[i];
            if (!strcmp(x->verdict, "filtered"))
                continue;
            ++rows;
            if (!strcmp(x->verdict, "WRONG") && x->caught)
                ++caught;
            else
                printf("self-test: NOT CAUGHT: %s | %s | %s: %s%s\n", k_rows[i].op, x->config, k_rows[i].cgc_what,
                       x->verdict,
                       !strcmp(x->verdict, "WRONG") ? " (but not by the kernel's own check: no checks, a phase "
                                                      "shortfall or the anchor's check; see the row's note)"
                                                    : "");
        }
        printf("self-test: caught %d of %d broken variants\n", caught, rows);
        if (rows == 0)
            printf("self-test: NOT CAUGHT: no self-test row ran (a --filter that matches none?)\n");
        return rows > 0 && caught == rows ? 0 : 6;
    }
    if (wrong) {
        fprintf(stderr, "bench: %d row(s) computed a WRONG result\n", wrong);
        return 3;
    }
    return o.strict && (miss || missing) ? 4 : 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/workloads/wl.h — what every workload benchmark shares: options, the
 * device's metadata, timing by CUDA events (median of repeats), and one
 * output line / CSV row per configuration in the format of bench/bench.cu
 * (operation,config,cgc,anchor,cgc_ns,anchor_ns,ratio,speedup,target,verdict,note),
 * so bench/tools/bench_chart.py draws them.
 *
 * A workload binary times the cgc kernel and its anchor in the same process,
 * checks every output in a separate launch (the timed launches run
 * unchecked), and prints WRONG and exits 3 when a check fails.
 *
 *   wl_list_if_asked(argc, argv, my_list);         // --list [--quick]: rows, no GPU
 *   wl_opts_t o = wl_parse(argc, argv, "gemm");   // --csv PATH --quick --repeats R
 *   FILE *csv = wl_open_csv(&o);                   // metadata comment lines + header
 *   float ms = wl_time_ms(&o, launch_fn, ctx);     // warm-up + median of repeats
 *   wl_time_ms_blocked_n(&o, n, fns, ctxs, ms);    // n launches interleaved, host work hidden
 *   wl_row(csv, &row);                             // print + CSV (+ JSON)
 *   return wl_exit(&o);                            // 3 on any WRONG, 2 on CUDA errors
 *
 * Beside every CSV (PATH.csv, or PATH) goes PATH.json: JSON Lines, one object
 * a line, a "metadata" object first, then one "row" object per row with what
 * the CSV row says plus the timed samples of each side (ns of one unit, as
 * cgc_ns), their median and their noise ((max - min) / median, percent), so
 * bench/tools/bench_compare.py can compare two runs row by row. bench/bench.cu
 * writes its rows with the same writer (wl_json_row).
 */
#ifndef CGC_BENCH_WORKLOADS_WL_H
#define CGC_BENCH_WORKLOADS_WL_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- options ----------------------------------------------------------------- */

typedef struct wl_opts {
    const char *name; /* the binary's family name, for messages */
    const char *csv;  /* --csv PATH: append rows here (metadata + header written first) */
    FILE *json;       /* the JSON Lines file beside the CSV (wl_open_csv opens it) */
    int quick;        /* --quick: smaller sizes / fewer repeats (a smoke run) */
    int repeats;      /* --repeats R: timed launches per kernel, median reported (default 5) */
    int wrong;        /* rows that printed WRONG */
    int errors;       /* CUDA errors seen */
} wl_opts_t;

static inline wl_opts_t wl_parse(int argc, char **argv, const char *name)
{
    wl_opts_t o;
    memset(&o, 0, sizeof o);
    o.name = name;
    o.repeats = 5;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--csv") && i + 1 < argc)
            o.csv = argv[++i];
        else if (!strcmp(argv[i], "--quick"))
            o.quick = 1, o.repeats = 3;
        else if (!strcmp(argv[i], "--repeats") && i + 1 < argc)
            o.repeats = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 1;
        else {
            fprintf(stderr, "usage: %s [--csv PATH] [--quick] [--repeats R] | --list [--quick]\n", name);
            exit(1);
        }
    }
    return o;
}

/* --list [--quick]: `list` prints the rows a run would make (no GPU needed:
 * CI's list_test), then the binary exits 0. The first call in main. */
typedef void (*wl_list_fn)(int quick);
static inline void wl_list_if_asked(int argc, char **argv, wl_list_fn list)
{
    int want = 0, quick = 0;
    for (int i = 1; i < argc; ++i) {
        want |= !strcmp(argv[i], "--list");
        quick |= !strcmp(argv[i], "--quick");
    }
    if (want) {
        list(quick);
        exit(0);
    }
}

/* --- CUDA errors: name the call, count it, go on where that makes sense -------- */

static inline int wl_check_(wl_opts_t *o, cudaError_t e, const char *what, const char *file, int line)
{
    if (e == cudaSuccess)
        return 0;
    fprintf(stderr, "%s: %s failed at %s:%d: %s\n", o->name, what, file, line, cudaGetErrorString(e));
    ++o->errors;
    return 1;
}
/* WL_CHECK(o, call): nonzero (and counted) when the call failed. */
#define WL_CHECK(o, call) wl_check_((o), (call), #call, __FILE__, __LINE__)

/* --- metadata: which GPU, driver, clocks and commit a CSV came from ------------ */

static inline void wl_metadata(FILE *f, const char *prefix)
{
    int dev = 0, drv = 0, rt = 0, clk = 0, mclk = 0;
    cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    cudaGetDevice(&dev);
    cudaGetDeviceProperties(&p, dev);
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, dev);        /* kHz, max SM clock */
    cudaDeviceGetAttribute(&mclk, cudaDevAttrMemoryClockRate, dev); /* kHz */
    const char *commit = getenv("CGC_COMMIT");
    fprintf(f, "%sgpu=%s sm=%d.%d sms=%d driver=%d runtime=%d sm_clock_max_mhz=%d mem_clock_mhz=%d commit=%s\n",
            prefix, p.name, p.major, p.minor, p.multiProcessorCount, drv, rt, clk / 1000, mclk / 1000,
            commit ? commit : "unknown");
}

/* --- JSON Lines beside the CSV ------------------------------------------------------ */

/* The JSON file of a CSV path: "x.csv" -> "x.json", anything else + ".json". */
static inline void wl_json_path(const char *csv, char *buf, size_t n)
{
    size_t len = strlen(csv);
    if (len > 4 && !strcmp(csv + len - 4, ".csv"))
        snprintf(buf, n, "%.*s.json", (int)(len - 4), csv);
    else
        snprintf(buf, n, "%s.json", csv);
}

static inline void wl_json_str_(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; ++s) {
        const unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* A number, or null where there is none (negative, NaN or infinite). */
static inline void wl_json_num_(FILE *f, double v)
{
    if (v >= 0 && v < 1e300)
        fprintf(f, "%.6g", v);
    else
        fputs("null", f);
}

static inline int wl_cmp_double_(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One side's samples: the list, its median and its noise ((max - min) /
 * median, in percent); null median and noise when there are no samples. */
static inline void wl_json_side_(FILE *f, const char *key, const double *v, int n)
{
    double sorted[256];
    if (n > 256)
        n = 256;
    fprintf(f, "\"%s\":{\"samples\":[", key);
    for (int i = 0; i < n; ++i) {
        sorted[i] = v[i];
        fputs(i ? "," : "", f);
        wl_json_num_(f, v[i]);
    }
    fputs("],\"median\":", f);
    if (n > 0) {
        qsort(sorted, (size_t)n, sizeof sorted[0], wl_cmp_double_);
        const double med = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
        wl_json_num_(f, med);
        fputs(",\"noise_pct\":", f);
        wl_json_num_(f, med > 0 ? 100.0 * (sorted[n - 1] - sorted[0]) / med : -1.0);
    } else {
        fputs("null,\"noise_pct\":null", f);
    }
    fputc('}', f);
}

/* What one JSON row holds (the CSV row's fields, the samples of each side). */
typedef struct wl_json_row {
    const char *op, *config, *cgc_what, *anc_what, *target, *verdict, *note;
    double cgc_ns, anc_ns, ratio, max_ratio; /* negative: none */
    const double *cgc_samples, *anc_samples; /* ns of one unit per timed launch, or NULL */
    int cgc_n, anc_n;
} wl_json_row_t;

/* ,"key":"string" and ,"key":number (null where there is none). */
static inline void wl_json_kv_str_(FILE *f, const char *key, const char *s)
{
    fprintf(f, ",\"%s\":", key);
    wl_json_str_(f, s);
}
static inline void wl_json_kv_num_(FILE *f, const char *key, double v)
{
    fprintf(f, ",\"%s\":", key);
    wl_json_num_(f, v);
}

static inline void wl_json_row(FILE *f, const wl_json_row_t *r)
{
    if (!f)
        return;
    fputs("{\"kind\":\"row\"", f);
    wl_json_kv_str_(f, "operation", r->op);
    wl_json_kv_str_(f, "config", r->config);
    wl_json_kv_str_(f, "cgc", r->cgc_what);
    wl_json_kv_str_(f, "anchor", r->anc_what);
    wl_json_kv_num_(f, "cgc_ns", r->cgc_ns);
    wl_json_kv_num_(f, "anchor_ns", r->anc_ns);
    wl_json_kv_num_(f, "ratio", r->ratio);
    wl_json_kv_str_(f, "target", r->target);
    wl_json_kv_num_(f, "max_ratio", r->max_ratio > 0 ? r->max_ratio : -1.0);
    wl_json_kv_str_(f, "verdict", r->verdict);
    wl_json_kv_str_(f, "note", r->note);
    fputc(',', f);
    wl_json_side_(f, "cgc_samples", r->cgc_samples, r->cgc_samples ? r->cgc_n : 0);
    fputc(',', f);
    wl_json_side_(f, "anchor_samples", r->anc_samples, r->anc_samples ? r->anc_n : 0);
    fputs("}\n", f);
    fflush(f);
}

/* Opens the JSON Lines file beside `csv` (appending, as the CSV) and writes
 * the metadata object: the same fields as the CSV's "# " line. */
static inline FILE *wl_open_json(const char *csv, const char *name)
{
    char path[4096], meta[1024] = "";
    wl_json_path(csv, path, sizeof path);
    FILE *f = fopen(path, "a");
    if (!f) {
        fprintf(stderr, "%s: cannot write %s\n", name, path);
        exit(1);
    }
    FILE *m = tmpfile();
    if (m) {
        wl_metadata(m, "");
        rewind(m);
        if (!fgets(meta, sizeof meta, m))
            meta[0] = '\0';
        fclose(m);
        meta[strcspn(meta, "\n")] = '\0';
    }
    fputs("{\"kind\":\"metadata\"", f);
    wl_json_kv_str_(f, "program", name);
    wl_json_kv_str_(f, "metadata", meta);
    fputs("}\n", f);
    fflush(f);
    return f;
}

static inline FILE *wl_open_csv(wl_opts_t *o)
{
    wl_metadata(stdout, "# ");
    if (!o->csv)
        return NULL;
    o->json = wl_open_json(o->csv, o->name);
    FILE *f = fopen(o->csv, "a");
    if (!f) {
        fprintf(stderr, "%s: cannot write %s\n", o->name, o->csv);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    if (ftell(f) == 0) {
        wl_metadata(f, "# ");
        fprintf(f, "operation,config,cgc,anchor,cgc_ns,anchor_ns,ratio,speedup,target,verdict,note\n");
    }
    return f;
}

/* --- timing ---------------------------------------------------------------------- */

/* A launch of the kernel being timed; returns the launch's error. */
typedef cudaError_t (*wl_launch_fn)(void *ctx);

static inline int wl_cmp_float_(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* One warm-up launch, then o->repeats launches each timed by events; the
 * median in milliseconds (negative after a CUDA error). */
static inline float wl_time_ms(wl_opts_t *o, wl_launch_fn launch, void *ctx)
{
    float t[64];
    const int n = o->repeats < 64 ? o->repeats : 64;
    cudaEvent_t a, b;
    if (WL_CHECK(o, cudaEventCreate(&a)) || WL_CHECK(o, cudaEventCreate(&b)))
        return -1.0f;
    if (WL_CHECK(o, launch(ctx)) || WL_CHECK(o, cudaDeviceSynchronize()))
        return -1.0f;
    for (int i = 0; i < n; ++i) {
        cudaEventRecord(a);
        if (WL_CHECK(o, launch(ctx)))
            return -1.0f;
        cudaEventRecord(b);
        if (WL_CHECK(o, cudaEventSynchronize(b)))
            return -1.0f;
        cudaEventElapsedTime(&t[i], a, b);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    qsort(t, (size_t)n, sizeof t[0], wl_cmp_float_);
    return t[n / 2];
}

/* --- rows -------------------------------------------------------------------------- */

typedef struct wl_row {
    const char *op;       /* family, e.g. "workload: GEMM (bf16, multicast pipeline)" */
    const char *config;   /* e.g. "8192^3, cluster 2" */
    const char *cgc_what; /* what the cgc side is */
    const char *anc_what; /* what the anchor is */
    double cgc_ns;        /* time of one unit (an iteration, a launch), ns */
    double anc_ns;
    double max_ratio;     /* target: cgc_ns / anc_ns <= max_ratio (0: info) */
    double min_speedup;   /* the same target as a throughput factor, for display (0: none) */
    int wrong;            /* nonzero: a check failed (prints WRONG) */
    const char *note;     /* throughput, checks, anything a reader needs */
    const double *cgc_samples; /* optional: each timed launch's cgc_ns, for the JSON (NULL: none) */
    const double *anc_samples; /* optional: the same for the anchor */
    int nsamples;              /* how many of each */
} wl_row_t;

static inline void wl_csv_field_(FILE *f, const char *s, int last)
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

static inline void wl_row(wl_opts_t *o, FILE *csv, const wl_row_t *r)
{
    char cn[32], an[32], ratio[32], speed[32], target[32];
    const char *verdict;
    const int timed = r->cgc_ns > 0 && r->anc_ns > 0;
    snprintf(cn, sizeof cn, "%.1f", r->cgc_ns);
    snprintf(an, sizeof an, "%.1f", r->anc_ns);
    snprintf(ratio, sizeof ratio, timed ? "%.3f" : "", timed ? r->cgc_ns / r->anc_ns : 0.0);
    snprintf(speed, sizeof speed, timed ? "%.3f" : "", timed ? r->anc_ns / r->cgc_ns : 0.0);
    if (r->max_ratio > 0)
        snprintf(target, sizeof target, "<=%.2f", r->max_ratio);
    else
        snprintf(target, sizeof target, "info");
    if (r->wrong)
        verdict = "WRONG";
    else if (!timed)
        verdict = "SKIP";
    else if (r->max_ratio <= 0)
        verdict = "info";
    else
        verdict = r->cgc_ns / r->anc_ns <= r->max_ratio ? "PASS" : "MISS";
    if (r->wrong)
        ++o->wrong;
    printf("%-44s %-28s %10s %10s %7s %7s %-5s %s | %s vs %s\n", r->op, r->config, cn, an, ratio, target, verdict,
           r->note ? r->note : "", r->cgc_what, r->anc_what);
    fflush(stdout);
    if (csv) {
        wl_csv_field_(csv, r->op, 0);
        wl_csv_field_(csv, r->config, 0);
        wl_csv_field_(csv, r->cgc_what, 0);
        wl_csv_field_(csv, r->anc_what, 0);
        wl_csv_field_(csv, cn, 0);
        wl_csv_field_(csv, an, 0);
        wl_csv_field_(csv, ratio, 0);
        wl_csv_field_(csv, speed, 0);
        wl_csv_field_(csv, target, 0);
        wl_csv_field_(csv, verdict, 0);
        wl_csv_field_(csv, r->note ? r->note : "", 1);
        fflush(csv);
    }
    const wl_json_row_t j = {r->op, r->config, r->cgc_what, r->anc_what, target, verdict, r->note ? r->note : "",
                             timed ? r->cgc_ns : -1.0, timed ? r->anc_ns : -1.0,
                             timed ? r->cgc_ns / r->anc_ns : -1.0, r->max_ratio, r->cgc_samples, r->anc_samples,
                             r->nsamples, r->nsamples};
    wl_json_row(o->json, &j);
}

/* --- timing with the host's launch work hidden (nvcc only) ------------------------ */
#ifdef __CUDACC__
/* wl_time_ms measures from an event recorded BEFORE the launch call, so the
 * host's work inside the call (cg_launch validates every launch: device
 * properties, function attributes, occupancy; CUB queries the device and its
 * occupancy before each of its launches) is timed too whenever the GPU is
 * idle meanwhile: tens of microseconds against kernels of a few hundred.
 * wl_time_ms_blocked first enqueues a one-thread kernel that spins until the
 * host sets a flag in mapped host memory, records the start event, calls the
 * launch, records the stop event, and only then sets the flag: the events
 * time the GPU work alone (nvbench's blocking-kernel method). The spin gives
 * up after WL_BLOCK_TIMEOUT_NS in case a launch call waited for the stream
 * (it would then wait for the spin): the call then says so on stderr and
 * times the rest of its launches as wl_time_ms does. */

#define WL_BLOCK_TIMEOUT_NS 20000000ull /* 20 ms: a launch call's host work is far shorter */

/* A template only so that a translation unit that never uses it gets no
 * copy and no unused-function warning, and two that do share one. */
template <int Unused_>
__global__ void wl_blocking_kernel(const volatile unsigned *flag, unsigned long long timeout_ns, unsigned *timed_out)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    for (;;) {
        if (*flag != 0u)
            return;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        if (t - t0 > timeout_ns) {
            *timed_out = 1u;
            return;
        }
        __nanosleep(500);
    }
}

/* Interleaved timing of n launches (A B A B ..., what the primitive rows
 * of bench/bench.cu do): one warm-up launch of each, then o->repeats rounds,
 * each launching launch[0], launch[1], ..., launch[n-1] once in that order,
 * every timed launch held behind the blocking kernel. ms_out[k] is the median
 * of launch k's times. A drift of the GPU's clocks or of the L2's contents
 * over the series then falls on every launch alike. The last launch of the
 * series is launch[n-1]'s; each launch[k]'s last timed launch is the last one
 * it made (the outputs a caller checks after the series). 0, or -1 after a
 * CUDA error (every ms_out[k] then negative). n at most 16. */
static inline int wl_time_ms_blocked_n(wl_opts_t *o, int n, const wl_launch_fn *launch, void *const *ctx,
                                       float *ms_out)
{
    float t[16][64];
    const int reps = o->repeats < 64 ? o->repeats : 64;
    unsigned *hflag = NULL, *dflag = NULL, *htimeout = NULL, *dtimeout = NULL;
    cudaEvent_t a = NULL, b = NULL;
    int rc = -1, timeouts = 0;
    for (int k = 0; k < n; ++k)
        ms_out[k] = -1.0f;
    if (n < 1 || n > 16)
        return -1;
    if (WL_CHECK(o, cudaHostAlloc((void **)&hflag, 2 * sizeof(unsigned), cudaHostAllocMapped)))
        return -1;
    htimeout = hflag + 1;
    if (WL_CHECK(o, cudaHostGetDevicePointer((void **)&dflag, hflag, 0)) || WL_CHECK(o, cudaEventCreate(&a)) ||
        WL_CHECK(o, cudaEventCreate(&b)))
        goto out;
    dtimeout = dflag + 1;
    for (int k = 0; k < n; ++k)
        if (WL_CHECK(o, launch[k](ctx[k])) || WL_CHECK(o, cudaDeviceSynchronize()))
            goto out;
    for (int i = 0; i < reps && !timeouts; ++i)
        for (int k = 0; k < n && !timeouts; ++k) {
            *(volatile unsigned *)hflag = 0u;
            *(volatile unsigned *)htimeout = 0u;
            wl_blocking_kernel<0><<<1, 1>>>(dflag, WL_BLOCK_TIMEOUT_NS, dtimeout);
            if (WL_CHECK(o, cudaGetLastError()) || WL_CHECK(o, cudaEventRecord(a)))
                goto out;
            if (WL_CHECK(o, launch[k](ctx[k]))) {
                *(volatile unsigned *)hflag = 1u;
                cudaDeviceSynchronize();
                goto out;
            }
            if (WL_CHECK(o, cudaEventRecord(b))) {
                *(volatile unsigned *)hflag = 1u;
                cudaDeviceSynchronize();
                goto out;
            }
            __sync_synchronize();
            *(volatile unsigned *)hflag = 1u;
            if (WL_CHECK(o, cudaEventSynchronize(b)))
                goto out;
            cudaEventElapsedTime(&t[k][i], a, b);
            timeouts = *(volatile unsigned *)htimeout != 0u;
        }
    if (timeouts) {
        fprintf(stderr, "%s: a launch call waited for the blocking kernel (for the stream); timing without it "
                        "(the host's launch work included, one launch after the other)\n", o->name);
        rc = 0;
        for (int k = 0; k < n; ++k)
            if ((ms_out[k] = wl_time_ms(o, launch[k], ctx[k])) < 0)
                rc = -1;
        goto out;
    }
    for (int k = 0; k < n; ++k) {
        qsort(t[k], (size_t)reps, sizeof t[k][0], wl_cmp_float_);
        ms_out[k] = t[k][reps / 2];
    }
    rc = 0;
out:
    if (a)
        cudaEventDestroy(a);
    if (b)
        cudaEventDestroy(b);
    cudaFreeHost(hflag);
    return rc;
}

/* As wl_time_ms (one warm-up launch, then o->repeats timed launches, the
 * median in ms, negative after a CUDA error), each timed launch held behind
 * the blocking kernel. */
static inline float wl_time_ms_blocked(wl_opts_t *o, wl_launch_fn launch, void *ctx)
{
    float ms = -1.0f;
    (void)wl_time_ms_blocked_n(o, 1, &launch, &ctx, &ms);
    return ms;
}
#endif /* __CUDACC__ */

/* Exit status: 3 when any row was WRONG, 2 after CUDA errors, else 0. */
static inline int wl_exit(const wl_opts_t *o)
{
    if (o->wrong) {
        printf("%s: %d WRONG row(s)\n", o->name, o->wrong);
        return 3;
    }
    return o->errors ? 2 : 0;
}

#endif /* CGC_BENCH_WORKLOADS_WL_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/generic/misuse_test.c — no GPU: a generic call given something that
 * is not a pointer to a group it takes (a group passed by value, another
 * pointer, a wrong value or operator) stops nvcc at the caller's line, in at
 * most 5 lines of output, with a message that names the accepted types.
 *
 * A kernel holds the calls from line 9 on; nvcc (the toolkit's, on the
 * runfiles' copy of the headers) compiles it. Three misuses alone: the build
 * fails, the first line is "misuse.cu(9): error", the output has at most 5
 * lines and names what the call accepts. Every misuse: one error at its own
 * line naming the accepted types, no notes or warnings (nvcc reports a given
 * catch-all once per file, so the misuses go in rounds that share none; a
 * case's first needle names its catch-all). A control kernel with correct
 * calls must build, so each failure is the misuse's. The report is the
 * catch-all overload's (cg/generic.h): an incomplete return type whose name
 * is the message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "tests/support/cgtest.h"

TestSuite(generic_misuse, .timeout = 600);

/* The lines the cases share; the call goes on line 9. */
static const char prologue[] = "#include \"cg/cg.h\"\n"                                   /* 1 */
                               "__global__ void k(int *o, float *f)\n"                    /* 2 */
                               "{\n"                                                       /* 3 */
                               "    cg_thread_block_t cta = cg_this_thread_block();\n"   /* 4 */
                               "    cg_tile_t t = cg_tiled_partition(&cta, 16);\n"       /* 5 */
                               "    cg_wide_tile_t w = cg_wide_tiled_partition(&cta, 64);\n" /* 6 */
                               "    cg_coalesced_group_t c = cg_coalesced_threads();\n"  /* 7 */
                               "    extern __shared__ int sm[];\n";                       /* 8 */

/* Compiles the kernel with calls[0..n-1] on lines 9, 10, ...; returns nvcc's
 * status, its output in log. */
static int build(const char *const *calls, size_t n, char *log, size_t cap)
{
    char dir[512], src[600], cmd[4096];
    snprintf(dir, sizeof dir, "%s/misuse_%d", cgt_tmpdir(), (int)getpid());
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    cr_assert_eq(system(cmd), 0);
    snprintf(src, sizeof src, "%s/misuse.cu", dir);
    FILE *f = fopen(src, "w");
    cr_assert(f != NULL, "cannot write %s", src);
    fputs(prologue, f);
    for (size_t i = 0; i < n; ++i)
        fprintf(f, "    %s\n", calls[i]);
    fputs("    o[0] = (int)sm[0] + (int)f[0] + (int)cg_tile_thread_rank(&t) + (int)cg_wide_tile_thread_rank(&w) + "
          "(int)cg_coalesced_thread_rank(&c);\n}\n",
          f);
    fclose(f);
    /* In the source's folder, so nvcc names the file as a user's build does. */
    char root[1024];
    cr_assert(getcwd(root, sizeof root) != NULL);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && timeout 200 '%s' -std=c++17 -gencode=arch=compute_90a,code=sm_90a -include cuda_fp16.h -I'%s' -c "
             "misuse.cu -o misuse.o 2>&1; rc=$?; rm -f misuse.o; exit $rc",
             dir, cgt_nvcc(), root);
    return cgt_run(cmd, log, cap);
}

/* Lines of s that contain needle. */
static size_t cgt_count_lines_with(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = s; *p;) {
        size_t len = strcspn(p, "\n");
        const char *hit = strstr(p, needle);
        n += hit != NULL && hit < p + len;
        p += len + (p[len] == '\n');
    }
    return n;
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (const char *p = s; *p; ++p)
        n += *p == '\n';
    if (*s && s[strlen(s) - 1] != '\n')
        ++n;
    return n;
}

typedef struct misuse {
    const char *call;
    const char *needles[8];
} misuse_t;

/* The accepted types of the calls that take any group. */
#define ANY_GROUP                                                                                  \
    "cg_thread_block_t", "cg_cluster_t", "cg_grid_t", "cg_tile_t", "cg_wide_tile_t", "cg_coalesced_group_t", \
        "cg_thread_group_t"

static const misuse_t cases[] = {
    {"cg_sync(cta);", {"cg_sync_takes_a_pointer_to_a_group", ANY_GROUP}},
    {"cg_sync(o);", {"cg_sync_takes_a_pointer_to_a_group", ANY_GROUP}},
    {"o[1] = (int)cg_thread_rank(cta);", {"cg_thread_rank_takes_a_pointer_to_a_group", ANY_GROUP}},
    {"o[1] = (int)cg_num_threads(t);", {"cg_num_threads_takes_a_pointer_to_a_group", ANY_GROUP}},
    {"cg_token_t tok = cg_barrier_arrive(cta); (void)tok;", {"cg_barrier_arrive_takes_a_pointer", ANY_GROUP}},
    {"cg_thread_group_t tg = cg_thread_group(cta); (void)tg;", {"cg_thread_group_takes_a_pointer_to_a_group", ANY_GROUP}},
    {"cg_memcpy_async(cta, sm, o, 64); cg_wait(&cta);", {"cg_memcpy_async_takes_a_pointer_to_a_group", ANY_GROUP}},
    {"cg_wait(cta);", {"cg_sync_takes_a_pointer_to_a_group", ANY_GROUP}},
    {"o[1] = cg_reduce(t, o[2], CG_OP_PLUS);",
     {"cg_reduce_takes_a_pointer", "cg_reduce_takes_a_pointer_to_a_cg_tile_t_cg_wide_tile_t_or_cg_coalesced_group_t",
      "cg_op_t"}},
    {"o[1] = cg_reduce(&cta, o[2], CG_OP_PLUS);", {"cg_reduce_takes_a_pointer", "cg_tile_t", "cg_wide_tile_t",
                                                   "cg_coalesced_group_t"}},
    {"o[1] = cg_reduce(&t, o[2], 0);", {"cg_reduce_takes_a_pointer", "cg_op_t"}},
    {"o[1] = cg_inclusive_scan(&o, o[2], CG_OP_PLUS);", {"cg_inclusive_scan_takes_a_pointer", "cg_tile_t"}},
    {"f[1] = cg_exclusive_scan(c, f[2], CG_OP_LESS);", {"cg_exclusive_scan_takes_a_pointer", "cg_coalesced_group_t"}},
    {"f[1] = cg_shfl(w, f[2], 0);", {"cg_shfl_takes_a_pointer", "cg_wide_tile_t"}},
    {"f[1] = cg_shfl_down(&w, f[2], 1);", {"cg_shfl_down_takes_a_pointer_to_a_cg_tile_t_or_cg_coalesced_group_t",
                                          "not_a_wide_tile"}},
    {"f[1] = cg_shfl_xor(&c, f[2], 1);", {"cg_shfl_xor_takes_a_pointer_to_a_cg_tile_t"}},
    {"o[1] = (int)cg_ballot(t, 1);", {"cg_ballot_takes_a_pointer", "cg_tile_t", "cg_coalesced_group_t"}},
    {"o[1] = (int)cg_match_any(&cta, o[2]);", {"cg_match_any_takes_a_pointer", "cg_tile_t"}},
    {"o[1] = cg_any(t, 1);", {"cg_any_takes_a_pointer", "cg_tile_t", "cg_wide_tile_t"}},
    {"o[1] = (int)cg_meta_group_rank(&cta);", {"cg_meta_group_rank_takes_a_pointer", "cg_tile_t"}},
    {"auto z = CG_TILED_PARTITION(&cta, 48); (void)z;", {"CG_TILED_PARTITION_takes", "power_of_two_1_to_1024"}},
    {"auto z2 = CG_TILED_PARTITION(cta, 16); (void)z2;", {"CG_TILED_PARTITION_takes", "cg_thread_block_t"}},
    {"cg_invoke_one(t, 0, 0);", {"cg_invoke_one_takes_a_pointer_to_a_group", ANY_GROUP}},
    {"cg_coalesced_group_t p = cg_labeled_partition(&w, 3u); (void)p;",
     {"cg_labeled_partition_takes_a_pointer", "cg_tile_t", "cg_coalesced_group_t", "integer_label"}},
    {"cg_coalesced_group_t q = cg_binary_partition(cta, 1); (void)q;",
     {"cg_binary_partition_takes_a_pointer", "cg_tile_t", "cg_coalesced_group_t"}},
    /* Issue 34: a constant bad tile size in the typed constructor (34.7), a
     * constant bit operator on a float (34.7), a __half value (34.9: the
     * named message, not an ambiguity among the rows; the kernel is built
     * with cuda_fp16.h pre-included), a block's split barrier through a
     * pointer to const (34.1: it caches its set-up in the group). */
    {"cg_tile_t z3 = cg_tiled_partition(&cta, 48); (void)z3;", {"cg_tiled_partition_n_must_be_a_power_of_two_in_1_to_32"}},
    {"cg_wide_tile_t z4 = cg_wide_tiled_partition(&cta, 96); (void)z4;",
     {"cg_wide_tiled_partition_n_must_be_a_power_of_two_in_64_to_1024"}},
    {"f[1] = cg_reduce(&t, f[2], CG_OP_BIT_AND);",
     {"cg_op_bit_and_bit_or_bit_xor_take_an_integer_value_not_a_float_or_double"}},
    {"f[1] = cg_reduce(&t, __float2half(f[2]), CG_OP_PLUS);",
     {"cg_reduce_takes_a_pointer", "cg_tile_t", "an_arithmetic_value_and_a_cg_op_t"}},
    {"const cg_thread_block_t *cb = &cta; cg_token_t tk = cg_barrier_arrive(cb); (void)tk;",
     {"cg_barrier_arrive_takes_a_pointer", "const_only_where_its_typed_call_takes_const"}},
};

#define NCASES (sizeof cases / sizeof cases[0])

Test(generic_misuse, a_correct_call_builds)
{
    static const char *const ok[] = {
        "cg_sync(&cta); o[1] = cg_reduce(&t, o[2], CG_OP_PLUS) + cg_reduce(&w, o[3], CG_OP_PLUS);",
        "f[1] = cg_shfl_down(&c, f[2], 1u) + cg_shfl(&w, f[3], 0u); cg_memcpy_async(&cta, sm, o, 64); cg_wait(&cta);",
    };
    char log[16384];
    int rc = build(ok, 2, log, sizeof log);
    cr_assert_eq(rc, 0, "the control kernel did not build:\n%s", log);
}

/* The whole report of one misuse, alone in its kernel: at most 5 lines. */
Test(generic_misuse, one_misuse_is_a_report_of_at_most_5_lines)
{
    static const size_t which[] = {0, 8, 20}; /* cg_sync(cta), cg_reduce(t, ...), CG_TILED_PARTITION(&cta, 48) */
    for (size_t i = 0; i < sizeof which / sizeof which[0]; ++i) {
        const misuse_t *m = &cases[which[i]];
        char log[16384];
        int rc = build(&m->call, 1, log, sizeof log);
        cr_expect_neq(rc, 0, "`%s` built", m->call);
        cr_expect(strncmp(log, "misuse.cu(9): error", 19) == 0,
                  "`%s`: the first line is not an error at the caller's line misuse.cu(9):\n%s", m->call, log);
        size_t n = count_lines(log);
        cr_expect_leq(n, 5u, "`%s`: %zu lines of errors (at most 5):\n%s", m->call, n, log);
        for (size_t k = 0; k < 8 && m->needles[k]; ++k)
            cr_expect(strstr(log, m->needles[k]) != NULL, "`%s`: the report does not name %s:\n%s", m->call,
                      m->needles[k], log);
        cr_log_info("`%s` alone: %zu lines", m->call, n);
    }
}

/* Every misuse, one per line of a kernel: each is one error at its own line
 * naming the accepted types, with nothing but its source line and caret
 * after it (no notes, no warnings), so alone it would be the 5-line report
 * above. nvcc reports one call to a given catch-all once per file, so the
 * cases go in rounds in which no two share a catch-all (the first needle). */
Test(generic_misuse, every_misuse_is_one_error_at_its_line)
{
    int done[NCASES] = {0};
    size_t left = NCASES, rounds = 0;
    static char log[1 << 17];
    while (left > 0) {
        const char *calls[NCASES];
        size_t idx[NCASES], n = 0;
        for (size_t i = 0; i < NCASES; ++i) {
            int clash = done[i];
            for (size_t j = 0; j < n && !clash; ++j)
                clash = strcmp(cases[idx[j]].needles[0], cases[i].needles[0]) == 0;
            if (!clash) {
                idx[n] = i;
                calls[n++] = cases[i].call;
            }
        }
        ++rounds;
        int rc = build(calls, n, log, sizeof log);
        cr_assert_neq(rc, 0, "round %zu: the misuses built", rounds);
        cr_expect(strstr(log, "note") == NULL && strstr(log, "warning") == NULL, "notes or warnings:\n%s", log);
        size_t errors = cgt_count_lines_with(log, ": error");
        cr_expect_eq(errors, n, "round %zu: %zu errors for %zu misuses:\n%s", rounds, errors, n, log);
        /* error line, source line, caret, blank per misuse; "N errors detected" */
        size_t nl = count_lines(log);
        cr_expect_leq(nl, 4 * n + 1, "round %zu: %zu lines for %zu misuses:\n%s", rounds, nl, n, log);
        for (size_t j = 0; j < n; ++j) {
            const misuse_t *m = &cases[idx[j]];
            char at[64];
            snprintf(at, sizeof at, "misuse.cu(%zu): error", 9 + j);
            const char *line = strstr(log, at);
            cr_expect(line != NULL, "`%s`: no error at its line (%s):\n%s", m->call, at, log);
            done[idx[j]] = 1;
            --left;
            if (line == NULL)
                continue;
            size_t len = strcspn(line, "\n");
            for (size_t k = 0; k < 8 && m->needles[k]; ++k) {
                const char *hit = strstr(line, m->needles[k]);
                cr_expect(hit != NULL && hit < line + len, "`%s`: its error does not name %s:\n%.*s", m->call,
                          m->needles[k], (int)len, line);
            }
        }
    }
    cr_log_info("%zu misuses in %zu nvcc runs", (size_t)NCASES, rounds);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/group_kinds_test.c — no GPU: the table of group kinds
 * (cg/group_kinds.h, CG_GROUP_KINDS) is the one list of kinds in cg/.
 *
 * Every list over kinds (the enum, the cg_thread_group_t union, the switches,
 * the _Generic rows, the C++ overload sets) is stamped from the table, so a
 * kind can be missing from one only if someone writes a list by hand, or
 * adds a kind's file without its row. This test reads the table and cg/'s
 * sources and fails, naming the file and line, when:
 *   - a group struct (first member a cg_group_header_t) has no row, or a
 *     row's type has no such struct, or a constructor stores a kind that is
 *     not a row;
 *   - two rows share a number, a kind or a name, or a column holds a word
 *     the stamping macros do not know;
 *   - the any-group misuse message (CG_GROUP_KINDS_ANY_NAMES_) does not name
 *     exactly the rows' types and cg_thread_group_t;
 *   - a file other than the table writes a switch case on a kind by hand
 *     (`case CG_GROUP_TILE:`), a _Generic selection that names three or more
 *     kinds' types, or a set of three or more overloads of one function on
 *     kinds' types, whether they take `const G *` or `G *`;
 *   - a generic call (cg_sync, cg_reduce, ...) does not compile, with nvcc,
 *     on a pointer to a group of a kind it applies to (the reach column),
 *     mutable or (once CGT_CONST_GROUPS_EXPECTED is 1) const.
 */
#include <ctype.h>
#include <dirent.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "cg/group_kinds.h"
#include "tests/support/cgtest.h"

TestSuite(group_kinds, .timeout = 300); /* one nvcc compile (every_generic_call_...) */

/* ---- the table, as data -------------------------------------------------------- */

typedef struct row {
    const char *kind, *type, *name, *arch, *reach, *share;
    int n;
} row_t;

#define ROW(KIND, n, type, name, arch, reach, share, unused) {#KIND, #type, #name, #arch, #reach, #share, n},
static const row_t rows[] = {CG_GROUP_KINDS(ROW, )};
#undef ROW
#define NROWS (sizeof rows / sizeof rows[0])

static int row_of_type(const char *type)
{
    for (size_t i = 0; i < NROWS; ++i)
        if (strcmp(rows[i].type, type) == 0)
            return (int)i;
    return -1;
}

static int row_of_kind(const char *kind)
{
    for (size_t i = 0; i < NROWS; ++i)
        if (strcmp(rows[i].kind, kind) == 0)
            return (int)i;
    return -1;
}

static int one_of(const char *w, const char *const *words)
{
    for (; *words; ++words)
        if (strcmp(w, *words) == 0)
            return 1;
    return 0;
}

Test(group_kinds, rows_are_well_formed)
{
    static const char *const archs[] = {"ALL", "SM90", NULL};
    static const char *const reaches[] = {"NONE", "PART", "WARP", "TILE", NULL};
    static const char *const shares[] = {"BLOCK", "THREADS", "PRESENT", NULL};
    cr_assert_gt(NROWS, 0u, "the table has no rows");
    for (size_t i = 0; i < NROWS; ++i) {
        const row_t *r = &rows[i];
        cr_expect_gt(r->n, 0, "%s: number %d", r->kind, r->n);
        cr_expect(one_of(r->arch, archs), "%s: arch %s", r->kind, r->arch);
        cr_expect(one_of(r->reach, reaches), "%s: reach %s", r->kind, r->reach);
        cr_expect(one_of(r->share, shares), "%s: share %s", r->kind, r->share);
        size_t tl = strlen(r->type);
        cr_expect(strncmp(r->type, "cg_", 3) == 0 && tl > 5 && strcmp(r->type + tl - 2, "_t") == 0,
                  "%s: type %s is not cg_..._t", r->kind, r->type);
        /* KIND is name in capitals (CG_GROUP_WIDE_TILE, wide_tile). */
        char up[64];
        size_t k = 0;
        for (; r->name[k] && k + 1 < sizeof up; ++k)
            up[k] = (char)toupper((unsigned char)r->name[k]);
        up[k] = '\0';
        cr_expect_str_eq(up, r->kind, "%s: name %s", r->kind, r->name);
        for (size_t j = 0; j < i; ++j) {
            cr_expect_neq(r->n, rows[j].n, "%s and %s share number %d", r->kind, rows[j].kind, r->n);
            cr_expect_str_neq(r->kind, rows[j].kind, "two rows of kind %s", r->kind);
            cr_expect_str_neq(r->type, rows[j].type, "two rows of type %s", r->type);
        }
    }
}

/* The misuse message's type list: exactly the rows' types, then
 * cg_thread_group_t. */
#define STR2(x) #x
#define STR(x) STR2(x)
Test(group_kinds, the_any_group_message_names_every_kind)
{
    const char *names = STR(CG_GROUP_KINDS_ANY_NAMES_);
    size_t named = 0;
    for (const char *p = names; (p = strstr(p, "cg_")) != NULL; p += 3)
        ++named;
    for (size_t i = 0; i < NROWS; ++i)
        cr_expect(strstr(names, rows[i].type) != NULL, "CG_GROUP_KINDS_ANY_NAMES_ lacks %s: %s", rows[i].type,
                  names);
    cr_expect(strstr(names, "_or_cg_thread_group_t") != NULL, "no cg_thread_group_t: %s", names);
    cr_expect_eq(named, NROWS + 1, "CG_GROUP_KINDS_ANY_NAMES_ names %zu types, the table has %zu rows (+ "
                                   "cg_thread_group_t): %s",
                 named, NROWS, names);
}

/* ---- cg/'s sources ------------------------------------------------------------- */

typedef struct file {
    char path[512];
    char *text;
} file_t;

static file_t files[64];
static size_t nfiles;

static void read_sources(void)
{
    DIR *d = opendir("cg");
    cr_assert(d != NULL, "cannot open cg/ (run from the workspace root)");
    struct dirent *e;
    nfiles = 0;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l < 3 || strcmp(e->d_name + l - 2, ".h") != 0)
            continue;
        cr_assert_lt(nfiles, sizeof files / sizeof files[0], "too many files in cg/");
        file_t *f = &files[nfiles++];
        snprintf(f->path, sizeof f->path, "cg/%s", e->d_name);
        FILE *fp = fopen(f->path, "r");
        cr_assert(fp != NULL, "cannot read %s", f->path);
        fseek(fp, 0, SEEK_END);
        long n = ftell(fp);
        fseek(fp, 0, SEEK_SET);
        f->text = malloc((size_t)n + 1);
        cr_assert(f->text != NULL);
        size_t got = fread(f->text, 1, (size_t)n, fp);
        f->text[got] = '\0';
        fclose(fp);
    }
    closedir(d);
    cr_assert_geq(nfiles, 10u, "read %zu headers of cg/", nfiles);
}

static int line_of(const file_t *f, const char *at)
{
    int line = 1;
    for (const char *p = f->text; p < at; ++p)
        line += *p == '\n';
    return line;
}

/* The identifier that starts at p, copied into out. */
static void ident_at(const char *p, char *out, size_t size)
{
    size_t k = 0;
    while ((isalnum((unsigned char)p[k]) || p[k] == '_') && k + 1 < size) {
        out[k] = p[k];
        ++k;
    }
    out[k] = '\0';
}

Test(group_kinds, every_group_struct_has_a_row_and_every_row_a_struct)
{
    read_sources();
    int found[NROWS] = {0};
    for (size_t i = 0; i < nfiles; ++i) {
        const file_t *f = &files[i];
        /* typedef struct x { cg_group_header_t _hdr; ... } T; */
        for (const char *p = f->text; (p = strstr(p, "cg_group_header_t _hdr;")) != NULL; ++p) {
            const char *close = strstr(p, "\n} ");
            cr_assert(close != NULL, "%s:%d: a group struct without its closing `} name;`", f->path, line_of(f, p));
            char type[128];
            ident_at(close + 3, type, sizeof type);
            if (strcmp(type, "cg_thread_group_t") == 0)
                continue; /* the holder of any kind, not a kind */
            int r = row_of_type(type);
            cr_expect(r >= 0, "%s:%d: %s is a group struct (a cg_group_header_t first) with no row in CG_GROUP_KINDS "
                              "(cg/group_kinds.h)",
                      f->path, line_of(f, p), type);
            if (r >= 0)
                ++found[r];
        }
        /* Constructors: `x._hdr.kind = CG_GROUP_<KIND>;` */
        for (const char *p = f->text; (p = strstr(p, "_hdr.kind = CG_GROUP_")) != NULL; ++p) {
            char kind[64];
            ident_at(p + strlen("_hdr.kind = CG_GROUP_"), kind, sizeof kind);
            if (kind[0] == '\0')
                continue; /* CG_GROUP_##KIND in a stamping macro */
            cr_expect(row_of_kind(kind) >= 0, "%s:%d: stores kind CG_GROUP_%s, which is not a row of CG_GROUP_KINDS",
                      f->path, line_of(f, p), kind);
        }
    }
    for (size_t r = 0; r < NROWS; ++r)
        cr_expect_eq(found[r], 1, "row %s: %d structs of type %s in cg/ (want its own, once)", rows[r].kind, found[r],
                     rows[r].type);
}

/* The text of the macro or statement that starts at p: up to the end of the
 * line, following backslash continuations. */
static size_t logical_line_len(const char *p)
{
    const char *q = p;
    for (;;) {
        const char *nl = strchr(q, '\n');
        if (nl == NULL)
            return strlen(p);
        const char *b = nl;
        while (b > q && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\r'))
            --b;
        if (b > q && b[-1] == '\\') {
            q = nl + 1;
            continue;
        }
        return (size_t)(nl - p);
    }
}

/* Rows whose type is named in text[0..len). */
static size_t kinds_named(const char *text, size_t len)
{
    size_t n = 0;
    for (size_t r = 0; r < NROWS; ++r) {
        size_t tl = strlen(rows[r].type);
        for (const char *p = text; p + tl <= text + len; ++p) {
            if (strncmp(p, rows[r].type, tl) == 0 && (p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
                !(isalnum((unsigned char)p[tl]) || p[tl] == '_')) {
                ++n;
                break;
            }
        }
    }
    return n;
}

Test(group_kinds, no_list_of_kinds_is_written_by_hand)
{
    read_sources();
    regex_t overload;
    /* name(const <type> *  : the first parameter of a function on a group. */
    /* name(<type> * or name(const <type> *: the first parameter of a function
     * on a group, a pointer to it const or not (a hand-written set of
     * mutable overloads counts as much as a const one). */
    cr_assert_eq(regcomp(&overload, "([A-Za-z_][A-Za-z0-9_]*)\\((const )?(cg_[a-z0-9_]*_t) \\*", REG_EXTENDED), 0);
    for (size_t i = 0; i < nfiles; ++i) {
        const file_t *f = &files[i];
        if (strcmp(f->path, "cg/group_kinds.h") == 0)
            continue;
        /* A hand-written case on a kind. */
        for (const char *p = f->text; (p = strstr(p, "case CG_GROUP_")) != NULL; ++p) {
            char kind[64];
            ident_at(p + strlen("case CG_GROUP_"), kind, sizeof kind);
            cr_expect(kind[0] == '\0', "%s:%d: `case CG_GROUP_%s` by hand: stamp the switch from CG_GROUP_KINDS",
                      f->path, line_of(f, p), kind);
        }
        /* A hand-written _Generic list of kinds. */
        for (const char *p = f->text; (p = strstr(p, "_Generic(")) != NULL; ++p) {
            size_t n = kinds_named(p, logical_line_len(p));
            cr_expect_lt(n, 3u, "%s:%d: a _Generic selection names %zu kinds' types by hand: stamp it from "
                                "CG_GROUP_KINDS",
                         f->path, line_of(f, p), n);
        }
        /* A hand-written overload set on kinds: one function name whose
         * first parameter is a pointer to three or more kinds' types. */
        struct {
            char fn[96];
            unsigned seen; /* a bit per row */
            int line;
        } fns[256];
        size_t nfns = 0;
        regmatch_t m[4];
        for (const char *p = f->text; regexec(&overload, p, 4, m, 0) == 0; p += m[0].rm_eo) {
            char fn[96], type[96];
            size_t fl = (size_t)(m[1].rm_eo - m[1].rm_so), tl = (size_t)(m[3].rm_eo - m[3].rm_so);
            if (fl >= sizeof fn || tl >= sizeof type)
                continue;
            memcpy(fn, p + m[1].rm_so, fl);
            fn[fl] = '\0';
            memcpy(type, p + m[3].rm_so, tl);
            type[tl] = '\0';
            int r = row_of_type(type);
            if (r < 0)
                continue;
            size_t k = 0;
            while (k < nfns && strcmp(fns[k].fn, fn) != 0)
                ++k;
            if (k == nfns) {
                cr_assert_lt(nfns, sizeof fns / sizeof fns[0]);
                snprintf(fns[k].fn, sizeof fns[k].fn, "%s", fn);
                fns[k].seen = 0;
                fns[k].line = line_of(f, p + m[0].rm_so);
                ++nfns;
            }
            fns[k].seen |= 1u << r;
        }
        for (size_t k = 0; k < nfns; ++k) {
            int n = __builtin_popcount(fns[k].seen);
            cr_expect_lt(n, 3, "%s:%d: %s is overloaded by hand on %d kinds' types: stamp the set from CG_GROUP_KINDS",
                         f->path, fns[k].line, fns[k].fn, n);
        }
    }
    regfree(&overload);
}

/* ---- every generic call on a pointer to a group, const and not ---------------- */

/* 1 once every generic call takes a pointer to a const group (the `porting`
 * branch makes the group calls take const pointers): the lead sets it at that
 * merge, and from then on a generic call that refuses `const G *` fails
 * here. While 0, the calls that refuse one are logged (and must be exactly
 * the ones that still take a mutable group), and only a refused non-const
 * pointer fails. */
#ifndef CGT_CONST_GROUPS_EXPECTED
#define CGT_CONST_GROUPS_EXPECTED 0
#endif

/* The generic calls (cg/generic.h), each with the reach a kind needs for it
 * (the table's reach column: NONE 0 < PART 1 < WARP 2 < TILE 3) and a call
 * on `g`. */
static const struct {
    const char *verb;
    int reach;
    const char *call;
} generic_calls[] = {
    {"sync", 0, "cg_sync(g)"},
    {"barrier_arrive", 0, "(void)cg_barrier_arrive(g)"},
    {"barrier_wait", 0, "cg_barrier_wait(g, tok)"},
    {"thread_rank", 0, "(void)cg_thread_rank(g)"},
    {"num_threads", 0, "(void)cg_num_threads(g)"},
    {"meta_group_rank", 1, "(void)cg_meta_group_rank(g)"},
    {"meta_group_size", 1, "(void)cg_meta_group_size(g)"},
    {"reduce", 1, "(void)cg_reduce(g, 1, CG_OP_PLUS)"},
    {"inclusive_scan", 1, "(void)cg_inclusive_scan(g, 1, CG_OP_PLUS)"},
    {"exclusive_scan", 1, "(void)cg_exclusive_scan(g, 1, CG_OP_PLUS)"},
    {"shfl", 1, "(void)cg_shfl(g, 1, 0u)"},
    {"any", 1, "(void)cg_any(g, 1)"},
    {"all", 1, "(void)cg_all(g, 1)"},
    {"shfl_up", 2, "(void)cg_shfl_up(g, 1, 1u)"},
    {"shfl_down", 2, "(void)cg_shfl_down(g, 1, 1u)"},
    {"ballot", 2, "(void)cg_ballot(g, 1)"},
    {"match_any", 2, "(void)cg_match_any(g, 1u)"},
    {"match_all", 2, "(void)cg_match_all(g, 1u, &pred)"},
    {"binary_partition", 2, "(void)cg_binary_partition(g, 1)"},
    {"labeled_partition", 2, "(void)cg_labeled_partition(g, 1u)"},
    {"shfl_xor", 3, "(void)cg_shfl_xor(g, 1, 1u)"},
};
#define NCALLS (sizeof generic_calls / sizeof generic_calls[0])

static int reach_rank(const char *reach)
{
    static const char *const order[] = {"NONE", "PART", "WARP", "TILE"};
    for (int i = 0; i < 4; ++i)
        if (strcmp(reach, order[i]) == 0)
            return i;
    return -1;
}

/* One probe per (call, kind the call applies to, constness), one line each,
 * in one file compiled once by nvcc: a line nvcc reports an error on is a
 * call that refused that pointer. */
Test(group_kinds, every_generic_call_takes_a_const_and_a_mutable_group)
{
    char src[512], log[1 << 16], cmd[2048];
    snprintf(src, sizeof src, "%s/group_kinds_probe_%d.cu", cgt_tmpdir(), (int)getpid());
    FILE *f = fopen(src, "w");
    cr_assert(f != NULL, "cannot write %s", src);
    fprintf(f, "#include \"cg/cg.h\"\n"); /* line 1; probes from line 2 on */
    struct {
        int call, row, is_const;
    } probe[NCALLS * NROWS * 2];
    int nprobes = 0;
    for (size_t c = 0; c < NCALLS; ++c)
        for (size_t r = 0; r < NROWS; ++r) {
            if (reach_rank(rows[r].reach) < generic_calls[c].reach)
                continue;
            for (int k = 0; k < 2; ++k) {
                fprintf(f,
                        "__device__ void probe_%d(%s%s *g, cg_token_t tok) { int pred = 0; (void)pred; (void)tok; "
                        "%s; }\n",
                        nprobes, k ? "const " : "", rows[r].type, generic_calls[c].call);
                probe[nprobes].call = (int)c;
                probe[nprobes].row = (int)r;
                probe[nprobes].is_const = k;
                ++nprobes;
            }
        }
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "timeout 280 '%s' -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I. -Iinclude -c '%s' -o /dev/null "
             "2>&1",
             cgt_nvcc(), src);
    const int rc = cgt_run(cmd, log, sizeof log);
    unlink(src);
    cr_assert(strstr(log, "error limit") == NULL, "nvcc stopped at its error limit: split the probe file\n%s", log);
    int refused[NCALLS * NROWS * 2] = {0};
    const char *tag = "group_kinds_probe_";
    for (const char *p = log; (p = strstr(p, tag)) != NULL; ++p) {
        const char *paren = strstr(p, ".cu(");
        if (paren == NULL || strchr(p, '\n') < paren)
            continue;
        const int line = atoi(paren + 4), i = line - 2;
        if (i >= 0 && i < nprobes && strstr(paren, "): error") == paren + strcspn(paren, ")"))
            refused[i] = 1;
    }
    int n_refused = 0;
    for (int i = 0; i < nprobes; ++i) {
        if (!refused[i])
            continue;
        ++n_refused;
        const char *verb = generic_calls[probe[i].call].verb, *type = rows[probe[i].row].type;
        if (probe[i].is_const && !CGT_CONST_GROUPS_EXPECTED)
            cr_log_info("cg_%s refuses a pointer to const %s (allowed until CGT_CONST_GROUPS_EXPECTED = 1)", verb,
                        type);
        else
            cr_expect(0, "cg_%s does not compile on a pointer to %s%s", verb, probe[i].is_const ? "const " : "",
                      type);
    }
    cr_expect(rc == 0 || n_refused > 0, "nvcc failed (exit %d) on no probe line:\n%s", rc, log);
    cr_log_info("%d probes (%zu generic calls x the kinds they apply to x const / mutable), %d refused", nprobes,
                NCALLS, n_refused);
}

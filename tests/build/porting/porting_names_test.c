/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/build/porting/porting_names_test.c — no GPU: every cg_ / CG_ name that
 * docs/PORTING.md mentions exists in the library.
 *
 * What "exists" means: the name is an identifier of cg/cg.h after nvcc has
 * preprocessed it (so the functions that macros generate, such as
 * cg_tile_reduce_i32, count), or a macro it defines (nvcc -E -dM). Every
 * cg_/CG_ identifier in the headers is defined there (they compile alone,
 * tests/build/headers), so presence is definition. A name the page writes with a
 * trailing underscore (cg_tile_reduce_<type>, cg_dsmem_st_*) stands for a
 * family: some longer name must start with it. A missing name fails the test
 * with the name and the line of the page.
 *
 * And the other way: every typed name of the library (one that ends in a type
 * suffix, _i32 _u32 _i64 _u64 _f32 _f64) and every public name that no
 * header spells out (made by token pasting) is written out literally on the
 * page, so a grep of the page finds it. Internal names (ending in _) and the
 * generic calls' misuse messages (..._takes_a_...) are not public.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

TestSuite(porting_names, .timeout = 240);

/* A growing set of names (linear search is fine: a few thousand). */
typedef struct names {
    char **v;
    size_t n, cap;
} names_t;

static int has(const names_t *s, const char *w)
{
    for (size_t i = 0; i < s->n; ++i)
        if (strcmp(s->v[i], w) == 0)
            return 1;
    return 0;
}

static void add(names_t *s, const char *w, size_t len)
{
    char buf[256];
    if (len >= sizeof buf)
        len = sizeof buf - 1;
    memcpy(buf, w, len);
    buf[len] = '\0';
    if (has(s, buf))
        return;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        cr_assert(s->v != NULL);
    }
    s->v[s->n++] = strdup(buf);
}

static int is_ident(int c) { return isalnum(c) || c == '_'; }

/* Every cg_ / CG_ identifier of `text` into `s`. */
static void scan(names_t *s, const char *text)
{
    for (const char *p = text; *p; ++p) {
        if ((p == text || !is_ident((unsigned char)p[-1])) &&
            (strncmp(p, "cg_", 3) == 0 || strncmp(p, "CG_", 3) == 0)) {
            const char *q = p;
            while (is_ident((unsigned char)*q))
                ++q;
            add(s, p, (size_t)(q - p));
            p = q - 1;
        }
    }
}

/* The names the library defines: nvcc -E of cg/cg.h, and its macros. */
static void library_names(names_t *lib)
{
    char src[512], pre[512], mac[512], cmd[4096], log[8192];
    const char *tmp = cgt_tmpdir();
    snprintf(src, sizeof src, "%s/porting_names_%d.cu", tmp, (int)getpid());
    snprintf(pre, sizeof pre, "%s/porting_names_%d.i", tmp, (int)getpid());
    snprintf(mac, sizeof mac, "%s/porting_names_%d.dm", tmp, (int)getpid());
    FILE *f = fopen(src, "w");
    cr_assert(f != NULL, "cannot write %s", src);
    fputs("#include \"cg/cg.h\"\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "timeout 200 '%s' -E -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I. '%s' -o '%s' 2>&1 && "
             "timeout 200 '%s' -E -Xcompiler -dM -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I. '%s' -o '%s' 2>&1",
             cgt_nvcc(), src, pre, cgt_nvcc(), src, mac);
    int rc = cgt_run(cmd, log, sizeof log);
    cr_assert_eq(rc, 0, "nvcc -E of cg/cg.h failed:\n%s", log);
    char *text = cgt_read_file(pre);
    scan(lib, text);
    free(text);
    text = cgt_read_file(mac);
    scan(lib, text);
    free(text);
    unlink(src);
    unlink(pre);
    unlink(mac);
}

/* Names the page mentions as gone on purpose (a rename's old name). */
static const char *const former_names[] = {
    "cg_version", /* renamed cgc_version (CGNS exports a cg_version) */
};

static int is_former(const char *w)
{
    for (size_t i = 0; i < sizeof former_names / sizeof former_names[0]; ++i)
        if (strcmp(former_names[i], w) == 0)
            return 1;
    return 0;
}

/* Some library name starts with `prefix` and is longer. */
static int has_prefix(const names_t *lib, const char *prefix)
{
    const size_t n = strlen(prefix);
    for (size_t i = 0; i < lib->n; ++i)
        if (strlen(lib->v[i]) > n && strncmp(lib->v[i], prefix, n) == 0)
            return 1;
    return 0;
}

Test(porting_names, every_name_on_the_porting_page_is_defined)
{
    names_t lib = {0};
    library_names(&lib);
    cr_assert(has(&lib, "cg_this_thread_block") && has(&lib, "CG_VERSION") && has(&lib, "cg_tile_reduce_i32"),
              "the preprocessed headers lack cg_this_thread_block, CG_VERSION or the generated cg_tile_reduce_i32 "
              "(%zu names read)",
              lib.n);
    /* The check can fail: a name no header defines is not found. */
    cr_assert(!has(&lib, "cg_no_such_call") && !has_prefix(&lib, "cg_no_such_family_"),
              "the name set holds cg_no_such_call");

    FILE *f = fopen("docs/PORTING.md", "r");
    cr_assert(f != NULL, "cannot read docs/PORTING.md");
    char line[8192];
    int lineno = 0, checked = 0, missing = 0;
    while (fgets(line, sizeof line, f)) {
        ++lineno;
        names_t here = {0};
        scan(&here, line);
        for (size_t i = 0; i < here.n; ++i) {
            const char *w = here.v[i];
            const size_t len = strlen(w);
            if (is_former(w))
                continue;
            const int ok = has(&lib, w) || (w[len - 1] == '_' && has_prefix(&lib, w));
            ++checked;
            if (!ok) {
                ++missing;
                cr_log_error("docs/PORTING.md:%d names %s%s, which the library does not define", lineno, w,
                             w[len - 1] == '_' ? "<...> (no name starts with it)" : "");
            }
        }
    }
    fclose(f);
    cr_expect_gt(checked, 200, "only %d names found on the porting page", checked);
    cr_expect_eq(missing, 0, "%d of %d names on docs/PORTING.md are not defined by the library (listed above)",
                 missing, checked);
}

/* Every cg_/CG_ identifier of the library's header files as written (their
 * text, comments included), from the runfiles. */
static void header_text_names(names_t *out)
{
    static const char *const folders[] = {"base", "barrier", "cluster", "dsmem", "async", "cg"};
    int files = 0;
    for (size_t i = 0; i < sizeof folders / sizeof folders[0]; ++i) {
        DIR *d = opendir(folders[i]);
        cr_assert(d != NULL, "cannot list %s/ in the runfiles", folders[i]);
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            size_t len = strlen(e->d_name);
            if (len < 3 || strcmp(e->d_name + len - 2, ".h") != 0)
                continue;
            char path[512];
            snprintf(path, sizeof path, "%s/%s", folders[i], e->d_name);
            char *text = cgt_read_file(path);
            scan(out, text);
            free(text);
            ++files;
        }
        closedir(d);
    }
    cr_assert_geq(files, 20, "only %d headers found in the runfiles", files);
}

static int ends_with_type_suffix(const char *w)
{
    static const char *const sfx[] = {"_i32", "_u32", "_i64", "_u64", "_f32", "_f64"};
    size_t n = strlen(w);
    for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; ++i)
        if (n > 4 && strcmp(w + n - 4, sfx[i]) == 0)
            return 1;
    return 0;
}

Test(porting_names, every_typed_and_generated_name_is_written_out_on_the_page)
{
    names_t lib = {0}, text = {0}, page = {0};
    library_names(&lib);
    header_text_names(&text);
    char *doc = cgt_read_file("docs/PORTING.md");
    scan(&page, doc);
    free(doc);
    /* The check can fail: a token-pasted name the headers never spell (one
     * stamped from the kind table, cg/group_kinds.h). */
    cr_assert(has(&lib, "cg_tile_invoke_one_broadcast_u64") && !has(&text, "cg_tile_invoke_one_broadcast_u64"),
              "cg_tile_invoke_one_broadcast_u64 is not a generated name (the headers spell it, or it is gone)");
    int checked = 0, missing = 0;
    for (size_t i = 0; i < lib.n; ++i) {
        const char *w = lib.v[i];
        const size_t len = strlen(w);
        if (w[len - 1] == '_' || strstr(w, "_takes_a_") != NULL)
            continue; /* internal, or a misuse message */
        if (!ends_with_type_suffix(w) && has(&text, w))
            continue; /* spelled out in a header */
        ++checked;
        if (!has(&page, w)) {
            ++missing;
            cr_log_error("%s (%s) is not written out on docs/PORTING.md", w,
                         ends_with_type_suffix(w) ? "a typed name" : "made by token pasting");
        }
    }
    cr_expect_gt(checked, 150, "only %d typed or generated names found in the library", checked);
    cr_expect_eq(missing, 0, "%d of the library's %d typed or generated names are not written out on docs/PORTING.md "
                 "(listed above; add them to its \"Every typed name\" section)",
                 missing, checked);
}

/* The public names a header may leave to token pasting: the ones stamped
 * per group kind from CG_GROUP_KINDS (cg/group_kinds.h: a new kind is one
 * row, docs/design/group_api.md), the invoke_one family and the
 * cg_thread_group_t conversions. Every other public name, the typed
 * collectives included (written from cg/collectives.tbl), is spelled out in a
 * header, so grep and go-to-definition find it. */
static int stamped_per_kind(const char *w)
{
    return strstr(w, "_invoke_one") != NULL || strncmp(w, "cg_thread_group_as_", 19) == 0 ||
           strncmp(w, "cg_thread_group_from_", 21) == 0;
}

Test(porting_names, every_public_name_but_the_per_kind_stamps_is_spelled_in_a_header)
{
    names_t lib = {0}, text = {0};
    library_names(&lib);
    header_text_names(&text);
    /* The check can fail: the typed collectives are in the set, and spelled. */
    cr_assert(has(&lib, "cg_wide_tile_exclusive_scan_f64") && has(&text, "cg_wide_tile_exclusive_scan_f64"),
              "cg_wide_tile_exclusive_scan_f64 is missing from the library or from the header text");
    int checked = 0, missing = 0;
    for (size_t i = 0; i < lib.n; ++i) {
        const char *w = lib.v[i];
        const size_t len = strlen(w);
        if (strncmp(w, "cg_", 3) != 0 || w[len - 1] == '_' || strstr(w, "_takes_a_") != NULL)
            continue; /* not a public function name, internal, or a misuse message */
        ++checked;
        if (!has(&text, w) && !stamped_per_kind(w)) {
            ++missing;
            cr_log_error("%s is public but no header spells it (token pasting): write it out, or generate it "
                         "(tools/ptx/gen.py, tools/ptx/gen_collectives.py)",
                         w);
        }
    }
    cr_expect_gt(checked, 300, "only %d public names found in the library", checked);
    cr_expect_eq(missing, 0, "%d of the library's %d public names are not spelled in a header (listed above)", missing,
                 checked);
}

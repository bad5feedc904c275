/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/support/ptxcheck.c — small PTX text helpers for instruction checks. */
#include "tests/support/ptxcheck.h"

#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *cgt_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    cr_assert(buf != NULL);
    size_t got = fread(buf, 1, (size_t)n, f);
    fclose(f);
    cr_assert_eq(got, (size_t)n, "short read of %s", path);
    buf[n] = '\0';
    return buf;
}

char *cgt_ptx_read(const char *path)
{
    return cgt_read_file(path);
}

char *cgt_span(const char *from, const char *to)
{
    size_t n = (size_t)(to - from);
    char *s = malloc(n + 1);
    cr_assert(s != NULL);
    memcpy(s, from, n);
    s[n] = '\0';
    return s;
}

/* Finds ".entry NAME(" / ".func NAME(" or with the return-value form
 * ".func (...) NAME(" and returns the text up to the matching closing brace. */
char *cgt_ptx_function(const char *ptx, const char *name)
{
    size_t nlen = strlen(name);
    const char *p = ptx;
    while ((p = strstr(p, name)) != NULL) {
        int starts = (p == ptx) || isspace((unsigned char)p[-1]);
        char after = p[nlen];
        if (starts && (after == '(' || isspace((unsigned char)after))) {
            const char *line = p;
            while (line > ptx && line[-1] != '\n')
                --line;
            if (strstr(line, ".entry") == NULL && strstr(line, ".func") == NULL) {
                p += nlen;
                continue;
            }
            const char *open = strchr(p, '{');
            const char *semi = strchr(p, ';');
            if (open == NULL || (semi != NULL && semi < open)) {
                p += nlen; /* a declaration, not the definition */
                continue;
            }
            int depth = 0;
            const char *q = open;
            for (; *q; ++q) {
                if (*q == '{')
                    ++depth;
                else if (*q == '}' && --depth == 0)
                    break;
            }
            cr_assert(*q == '}', "unbalanced braces in PTX function %s", name);
            size_t len = (size_t)(q - line) + 1;
            char *out = malloc(len + 1);
            cr_assert(out != NULL);
            memcpy(out, line, len);
            out[len] = '\0';
            return out;
        }
        p += nlen;
    }
    cr_assert_fail("PTX function %s not found", name);
    return NULL;
}

size_t cgt_count(const char *text, const char *needle)
{
    size_t n = 0, len = strlen(needle);
    if (len == 0)
        return 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p += len)
        ++n;
    return n;
}

char *cgt_ptx_instructions(const char *body)
{
    size_t cap = strlen(body) + 1;
    char *out = malloc(cap);
    cr_assert(out != NULL);
    size_t o = 0;
    const char *p = body;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *s = p;
        while (s < p + len && isspace((unsigned char)*s))
            ++s;
        size_t slen = (size_t)(p + len - s);
        int keep = slen > 0 && *s != '/' && *s != '.' && *s != '{' && *s != '}' && *s != '$' &&
                   !(slen > 0 && s[slen - 1] == ':');
        /* ".reg" etc. start with '.', labels end with ':' or start with '$' */
        if (keep) {
            memcpy(out + o, s, slen);
            o += slen;
            out[o++] = '\n';
        }
        p += len;
        if (*p == '\n')
            ++p;
    }
    out[o] = '\0';
    return out;
}

char *cgt_ptx_normalized(const char *ptx, const char *name)
{
    char *body = cgt_ptx_function(ptx, name);
    char *ins = cgt_ptx_instructions(body);
    size_t nlen = strlen(name), o = 0;
    char *out = malloc(strlen(ins) + 1);
    cr_assert(out != NULL);
    for (const char *p = ins; *p;) {
        if (strncmp(p, name, nlen) == 0) {
            out[o++] = '@';
            p += nlen;
        } else if (strncmp(p, "$L__BB", 6) == 0) {
            memcpy(out + o, "$L__BB", 6);
            o += 6;
            p += 6;
            while (isdigit((unsigned char)*p))
                p++;
        } else {
            out[o++] = *p++;
        }
    }
    out[o] = '\0';
    free(body);
    free(ins);
    return out;
}

/* ---- The expected lines: from the PTX form data ---- */

static const cgt_form_t k_forms[] = {
#define CGT_FORM_LINE(name, mnemonic, text, predicated, operands) {name, mnemonic, text, predicated, operands},
#include "tests/support/ptx_form_lines.h"
#undef CGT_FORM_LINE
};

const cgt_form_t *cgt_find_form(const char *name)
{
    for (size_t i = 0; i < sizeof k_forms / sizeof k_forms[0]; ++i)
        if (strcmp(k_forms[i].name, name) == 0)
            return &k_forms[i];
    return NULL;
}

const cgt_form_t *cgt_form(const char *name)
{
    const cgt_form_t *f = cgt_find_form(name);
    if (f != NULL)
        return f;
    cr_assert_fail("%s is no PTX form (tests/support/ptx_form_lines.h, from the *_forms.tbl files)", name);
    return NULL;
}

const char *cgt_line(const char *what)
{
    return strncmp(what, "cg_", 3) == 0 ? cgt_form(what)->mnemonic : what;
}

const char *cgt_text(const char *what)
{
    return strncmp(what, "cg_", 3) == 0 ? cgt_form(what)->text : what;
}

size_t cgt_count_mnemonic(const char *instrs, const char *what)
{
    const char *form = cgt_line(what);
    size_t n = 0, flen = strlen(form);
    for (const char *p = instrs; *p;) {
        const char *eol = strchr(p, '\n');
        const char *end = eol ? eol : p + strlen(p);
        const char *s = p;
        if (*s == '@') { /* predicate guard */
            while (s < end && *s != ' ' && *s != '\t')
                ++s;
            while (s < end && (*s == ' ' || *s == '\t'))
                ++s;
        }
        const char *t = s;
        while (t < end && *t != ' ' && *t != '\t' && *t != ';')
            ++t;
        if ((size_t)(t - s) == flen && memcmp(s, form, flen) == 0)
            ++n;
        p = eol ? eol + 1 : end;
    }
    return n;
}

char *cgt_ptx_probe(const char *ptx, const char *name)
{
    char *body = cgt_ptx_function(ptx, name);
    char *ins = cgt_ptx_instructions(body);
    free(body);
    return ins;
}

void cgt_check_probe_table(const char *ptx_path, const cgt_probe_t *probes, size_t n)
{
    char *ptx = cgt_ptx_read(ptx_path);
    for (size_t i = 0; i < n; ++i) {
        const char *own = cgt_line(probes[i].form);
        char *ins = cgt_ptx_probe(ptx, probes[i].probe);
        cr_expect_eq(cgt_count_mnemonic(ins, own), 1, "%s: want exactly one %s (%s); instructions:\n%s",
                     probes[i].probe, own, probes[i].form, ins);
        for (size_t j = 0; j < n; ++j) {
            const char *other = cgt_line(probes[j].form);
            if (strcmp(other, own) == 0)
                continue;
            cr_expect_eq(cgt_count_mnemonic(ins, other), 0, "%s: unexpected %s", probes[i].probe, other);
        }
        free(ins);
    }
    free(ptx);
}

int cgt_expect_in_order(const char *text, const char *who, const char *const *lines, size_t n)
{
    const char *prev = NULL;
    int ok = 1;
    for (size_t i = 0; i < n; ++i) {
        const char *line = cgt_text(lines[i]);
        const char *at = strstr(text, line);
        cr_expect(at != NULL, "%s: no %s in:\n%s", who, line, text);
        if (at != NULL && prev != NULL)
            cr_expect(prev < at, "%s: want %s after %s in:\n%s", who, line, cgt_text(lines[i - 1]), text);
        ok = ok && at != NULL && (prev == NULL || prev < at);
        prev = at;
        if (at == NULL)
            break;
    }
    return ok;
}

size_t cgt_expect_reports_print_and_trap(const char *ptx, const char *part)
{
    size_t found = 0;
    for (const char *f = strstr(ptx, ".func"); f != NULL; f = strstr(f + 5, ".func")) {
        const char *eol = strchr(f, '\n');
        const char *name = strstr(f, part);
        if (name == NULL || eol == NULL || name > eol)
            continue;
        const char *open = strchr(name, '{'), *semi = strchr(name, ';');
        if (open == NULL || (semi != NULL && semi < open))
            continue; /* a declaration */
        const char *end = strstr(open, "\n}");
        cr_assert(end != NULL, "unterminated .func %s", part);
        const char *v = strstr(open, "vprintf"), *t = strstr(open, "trap;");
        cr_expect(v != NULL && v < end, "report %s (%.*s): does not print", part, (int)(eol - f), f);
        cr_expect(t != NULL && t < end, "report %s (%.*s): does not trap", part, (int)(eol - f), f);
        ++found;
    }
    return found;
}

void cgt_expect_no_debug_code(const char *body, const char *who)
{
    cr_expect_eq(cgt_count(body, "globaltimer"), 0, "%s: reads %%globaltimer in a release build", who);
    cr_expect_eq(cgt_count(body, "vprintf"), 0, "%s: printf in a release build", who);
    cr_expect_eq(cgt_count(body, "trap;"), 0, "%s: trap in a release build", who);
}

void cgt_expect_bounded_wait(const char *body, const char *who, size_t timer_reads, const char *report)
{
    cr_expect_geq(cgt_count(body, "%globaltimer"), timer_reads, "%s (debug): bounded by %%globaltimer", who);
    /* the report is out of line (base/config.h, CG_REPORT_): a call to it,
     * whose body prints and traps (cgt_expect_reports_print_and_trap) */
    cr_expect_geq(cgt_count(body, report), 1, "%s (debug): no call to %s", who, report);
    cr_expect_eq(cgt_count(body, "vprintf"), 0, "%s (debug): no printf inline (the report is out of line)", who);
}

void cgt_expect_counts(const char *text, const char *who, const cgt_count_t *rows, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        const cgt_count_t *r = &rows[i];
        const int form = cgt_find_form(r->what) != NULL;
        const size_t got = form ? cgt_count_mnemonic(text, r->what) : cgt_count(text, r->what);
        if (r->max == CGT_ANY)
            cr_expect_geq(got, r->min, "%s: %s: want at least %zu of '%s', found %zu:\n%s", who, r->why, r->min,
                          form ? cgt_line(r->what) : r->what, got, text);
        else
            cr_expect(got >= r->min && got <= r->max, "%s: %s: want %zu..%zu of '%s', found %zu:\n%s", who, r->why,
                      r->min, r->max, form ? cgt_line(r->what) : r->what, got, text);
    }
}

size_t cgt_lines(const char *text)
{
    return cgt_count(text, "\n");
}

int cgt_expect_same_code(const char *ptx, const char *a, const char *b, size_t min_lines)
{
    char *ia = cgt_ptx_normalized(ptx, a), *ib = cgt_ptx_normalized(ptx, b);
    cr_expect_gt(cgt_lines(ia), min_lines, "%s: empty body", a);
    const int same = strcmp(ia, ib) == 0;
    cr_expect(same, "%s and %s differ:\n--- %s\n%s\n--- %s\n%s", a, b, a, ia, b, ib);
    free(ia);
    free(ib);
    return same;
}

/* s..e trimmed, and unquoted where it stands in double quotes (spaces kept,
 * \t a tab, \n a newline), into a fresh string. */
static char *unquote(const char *s, const char *e)
{
    while (s < e && isspace((unsigned char)*s))
        ++s;
    while (e > s && isspace((unsigned char)e[-1]))
        --e;
    char *out = malloc((size_t)(e - s) + 1);
    cr_assert(out != NULL);
    size_t o = 0;
    const int quoted = e - s >= 2 && *s == '"' && e[-1] == '"';
    for (const char *q = s + quoted; q < e - quoted; ++q) {
        if (quoted && *q == '\\' && q + 1 < e - 1 && (q[1] == 't' || q[1] == 'n')) {
            out[o++] = q[1] == 't' ? '\t' : '\n';
            ++q;
        } else {
            out[o++] = *q;
        }
    }
    out[o] = '\0';
    return out;
}

/* The text of one column; *p moves past its " | " (or to the line's end). */
static void take_column(const char **p, const char *end, const char **s, const char **e)
{
    const char *bar = strstr(*p, " | ");
    *s = *p;
    *e = (bar != NULL && bar < end) ? bar : end;
    *p = (bar != NULL && bar < end) ? bar + 3 : end;
}

#define CGT_MAX_FORMS 512 /* "its form" rows of one table */

/* One row, for every probe it names. */
static void check_row(const char *ptx, const char *where, char *probes, const char *in, const char *ws, const char *we,
                      const char *count, const char *why)
{
    const char *items[16];
    char *owned[16];
    size_t n = 0;
    const int order = strcmp(count, "in order") == 0, same = strcmp(count, "same code") == 0;
    const int length = strcmp(count, "same length") == 0;
    size_t min = 0, max = 0;
    if (order) { /* what: needles joined by " >> " */
        for (const char *s = ws; s < we && n < 16;) {
            const char *sep = strstr(s, " >> ");
            const char *e = (sep != NULL && sep < we) ? sep : we;
            owned[n] = unquote(s, e);
            items[n] = owned[n];
            ++n;
            s = e == we ? we : e + 4;
        }
    } else if (same || length) {
        cr_assert(!same || strcmp(in, "norm") == 0, "%s: 'same code' compares norm texts", where);
        owned[n] = unquote(ws, we);
        items[n++] = owned[0];
    } else {
        cr_assert(isdigit((unsigned char)count[0]), "%s: count '%s' is not N, N..M, N.., 'in order', 'same code' or "
                  "'its form'", where, count);
        const char *dots = strstr(count, "..");
        min = (size_t)strtoul(count, NULL, 10);
        max = dots == NULL ? min : dots[2] ? (size_t)strtoul(dots + 2, NULL, 10) : CGT_ANY;
        owned[n] = unquote(ws, we);
        items[n++] = owned[0];
    }
    for (char *save = NULL, *probe = strtok_r(probes, " ", &save); probe; probe = strtok_r(NULL, " ", &save)) {
        if (same) {
            cgt_expect_same_code(ptx, probe, items[0], 1);
            continue;
        }
        char *text = NULL;
        if (strcmp(in, "body") == 0)
            text = cgt_ptx_function(ptx, probe);
        else if (strcmp(in, "ins") == 0)
            text = cgt_ptx_probe(ptx, probe);
        else if (strcmp(in, "norm") == 0)
            text = cgt_ptx_normalized(ptx, probe);
        cr_assert(text != NULL, "%s: in '%s' is not body, ins or norm", where, in);
        if (length) {
            char *other = strcmp(in, "body") == 0   ? cgt_ptx_function(ptx, items[0])
                          : strcmp(in, "ins") == 0 ? cgt_ptx_probe(ptx, items[0])
                                                   : cgt_ptx_normalized(ptx, items[0]);
            cr_expect_eq(cgt_lines(text), cgt_lines(other), "%s (%s): %s: %zu lines, %s %zu", probe, where, why,
                         cgt_lines(text), items[0], cgt_lines(other));
            free(other);
            free(text);
            continue;
        }
        char who[384];
        snprintf(who, sizeof who, order ? "%s (%s): %s" : "%s (%s)", probe, where, why);
        if (order) {
            cgt_expect_in_order(text, who, items, n);
        } else {
            const cgt_count_t row = {items[0], min, max, why};
            cgt_expect_counts(text, who, &row, 1);
        }
        free(text);
    }
    for (size_t i = 0; i < n; ++i)
        free(owned[i]);
}

void cgt_check_expectations(const char *ptx_path, const char *tbl_path)
{
    char *ptx = cgt_ptx_read(ptx_path), *tbl = cgt_read_file(tbl_path);
    size_t rows = 0, lineno = 0, nforms = 0;
    cgt_probe_t *forms = malloc(CGT_MAX_FORMS * sizeof *forms);
    cr_assert(forms != NULL);
    for (const char *line = tbl; *line;) {
        const char *eol = strchr(line, '\n'), *end = eol ? eol : line + strlen(line);
        ++lineno;
        const char *s = line;
        while (s < end && isspace((unsigned char)*s))
            ++s;
        if (s < end && *s != '#') {
            const char *p = s, *c[5][2];
            for (int k = 0; k < 5; ++k)
                take_column(&p, end, &c[k][0], &c[k][1]);
            char where[256];
            snprintf(where, sizeof where, "%s:%zu", tbl_path, lineno);
            char *probes = unquote(c[0][0], c[0][1]), *in = unquote(c[1][0], c[1][1]);
            char *count = unquote(c[3][0], c[3][1]), *why = unquote(c[4][0], c[4][1]);
            cr_assert(*probes && *in && c[2][0] < c[2][1] && *count && *why && p == end,
                      "%s: want 'probe | in | what | count | why'", where);
            if (strcmp(count, "its form") == 0) { /* checked together below */
                cr_assert(strcmp(in, "ins") == 0 && strchr(probes, ' ') == NULL && nforms < CGT_MAX_FORMS,
                          "%s: an 'its form' row names one probe, in ins (at most %d rows)", where, CGT_MAX_FORMS);
                forms[nforms].probe = unquote(c[0][0], c[0][1]);
                forms[nforms++].form = unquote(c[2][0], c[2][1]);
            } else {
                check_row(ptx, where, probes, in, c[2][0], c[2][1], count, why);
            }
            free(probes);
            free(in);
            free(count);
            free(why);
            ++rows;
        }
        line = eol ? eol + 1 : end;
    }
    cr_expect_gt(rows, 0u, "%s: no expectations", tbl_path);
    if (nforms > 0)
        cgt_check_probe_table(ptx_path, forms, nforms);
    for (size_t i = 0; i < nforms; ++i) {
        free((char *)forms[i].probe);
        free((char *)forms[i].form);
    }
    free(forms);
    free(tbl);
    free(ptx);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/support/ptxcheck.c — small PTX text helpers for instruction checks. */
#include "tests/support/ptxcheck.h"

#include "tests/support/cgtest.h"

#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *cgt_ptx_read(const char *path)
{
    return cgt_read_file(path);
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

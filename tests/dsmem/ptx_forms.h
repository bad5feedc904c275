/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/dsmem/ptx_forms.h — "this probe emits exactly its instruction form":
 * counts instruction lines of a PTX function whose mnemonic (first token,
 * after an optional @predicate) equals a form exactly, so a form is never
 * matched inside a longer one (wait_group vs wait_group.read).
 */
#ifndef CGT_PTX_FORMS_H
#define CGT_PTX_FORMS_H

#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

typedef struct {
    const char *probe; /* extern "C" kernel name */
    const char *form;  /* its one instruction form (a PTX mnemonic) */
} probe_t;

/* Lines of `instrs` (cgt_ptx_instructions output) whose mnemonic is `form`. */
static inline size_t cgt_count_mnemonic(const char *instrs, const char *form)
{
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

/* Each probe: exactly one line of its own form, none of any other form of
 * the table (different from its own). */
static inline void cgt_check_probe_table(const char *ptx_path, const probe_t *probes, size_t n)
{
    char *ptx = cgt_ptx_read(ptx_path);
    for (size_t i = 0; i < n; ++i) {
        char *body = cgt_ptx_function(ptx, probes[i].probe);
        char *ins = cgt_ptx_instructions(body);
        cr_expect_eq(cgt_count_mnemonic(ins, probes[i].form), 1, "%s: want exactly one %s; instructions:\n%s",
                     probes[i].probe, probes[i].form, ins);
        for (size_t j = 0; j < n; ++j) {
            if (strcmp(probes[j].form, probes[i].form) == 0)
                continue;
            cr_expect_eq(cgt_count_mnemonic(ins, probes[j].form), 0, "%s: unexpected %s", probes[i].probe,
                         probes[j].form);
        }
        free(ins);
        free(body);
    }
    free(ptx);
}

#endif /* CGT_PTX_FORMS_H */

/* Host tests of the status table: every code has a distinct name and message,
 * and unknown codes get a safe answer. No GPU needed. */
#include <string.h>

#include "tests/support/cgtest.h"

static const cg_status_t all_codes[] = {
#define CG_LIST_(name, value, message) name,
    CG_STATUS_TABLE(CG_LIST_)
#undef CG_LIST_
};
static const size_t n_codes = sizeof(all_codes) / sizeof(all_codes[0]);

TestSuite(status, .timeout = 10);

Test(status, success_is_zero)
{
    cr_assert_eq(CG_SUCCESS, 0);
    cr_assert_str_eq(cg_status_name(CG_SUCCESS), "CG_SUCCESS");
}

Test(status, names_match_enumerators_and_are_distinct)
{
    cr_assert_geq(n_codes, 12, "at least a dozen distinct statuses");
    for (size_t i = 0; i < n_codes; ++i) {
        const char *ni = cg_status_name(all_codes[i]);
        cr_expect(strncmp(ni, "CG_", 3) == 0, "name %s lacks the CG_ prefix", ni);
        for (size_t j = i + 1; j < n_codes; ++j) {
            cr_expect(all_codes[i] != all_codes[j], "codes %zu and %zu share a value", i, j);
            cr_expect_str_neq(ni, cg_status_name(all_codes[j]));
            cr_expect_str_neq(cg_status_string(all_codes[i]), cg_status_string(all_codes[j]));
        }
    }
}

Test(status, messages_are_sentences)
{
    for (size_t i = 0; i < n_codes; ++i) {
        const char *m = cg_status_string(all_codes[i]);
        cr_expect(m != NULL && strlen(m) > 5, "status %s has no message", cg_status_name(all_codes[i]));
    }
}

Test(status, unknown_codes_are_safe)
{
    cr_expect_str_eq(cg_status_name((cg_status_t)9999), "CG_STATUS_UNKNOWN");
    cr_expect_str_eq(cg_status_string((cg_status_t)-1), "unknown cgc status code");
}

Test(status, version_matches_headers)
{
    cr_expect_eq(cg_version(), CG_VERSION);
}

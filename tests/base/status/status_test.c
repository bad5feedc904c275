/* SPDX-License-Identifier: BSD-3-Clause */
/* Host tests of the status table: every code has a distinct name and message,
 * and unknown codes get a safe answer. No GPU needed. */
#include <stdint.h>
#include <string.h>

#include "barrier/device_barrier.h"
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
    cr_expect_eq(cgc_version(), CG_VERSION);
}

/* The host checks of cg_device_barrier_init_host need no device: each bad
 * input gets its status and a detail naming the value (issue 15). */
Test(status, device_barrier_init_host_says_what_is_wrong)
{
    cr_expect_eq(cg_device_barrier_init_host(NULL, 4), CG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(cg_last_error_detail(), "NULL") != NULL, "detail: %s", cg_last_error_detail());
    cg_device_barrier_t *fake = (cg_device_barrier_t *)(uintptr_t)0x1000;
    cr_expect_eq(cg_device_barrier_init_host(fake, 0), CG_ERROR_COUNT_RANGE);
    cr_expect(strstr(cg_last_error_detail(), "expected count 0 is outside 1..") != NULL, "detail: %s",
              cg_last_error_detail());
    cr_expect_eq(cg_device_barrier_init_host(fake, 1u << 20), CG_ERROR_COUNT_RANGE);
    cr_expect(strstr(cg_last_error_detail(), "1048576") != NULL, "detail: %s", cg_last_error_detail());
    cr_expect_eq(cg_device_barrier_init_host((cg_device_barrier_t *)(uintptr_t)0x1004, 4), CG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(cg_last_error_detail(), "not 8-byte aligned") != NULL, "detail: %s", cg_last_error_detail());
}

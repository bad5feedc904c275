/* Every example, as a GPU test: it must verify its own result on the device
 * (each example checks every output element against a host reference). */
#include "examples/examples.h"
#include "tests/support/cgtest.h"

TestSuite(examples, .timeout = 120);

#define CGX__TEST(name, origin)                                          \
    Test(examples, name, .description = origin)                          \
    {                                                                    \
        cgt_require_sm90();                                              \
        char detail[512] = "";                                           \
        int rc = cgx_##name(detail, sizeof detail);                      \
        cr_log_info("%s: %s", #name, detail);                            \
        cr_expect_eq(rc, 0, "%s returned %d: %s", #name, rc, detail);    \
    }
CGX_EXAMPLE_TABLE(CGX__TEST)

/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/build/consumer/main.c — host C against the installed cgc: the host
 * library links and answers without a GPU. Exit 0 when every answer is right. */
#include <stdio.h>
#include <string.h>

#include <cgc/cg/cg.h>

/* cgc's headers sit under the cgc/ prefix only: its generic folder names are
 * not on this project's include path, where they would shadow its own. */
#if defined(__has_include)
#if __has_include(<barrier/barrier.h>) || __has_include(<cg/cg.h>) || __has_include(<base/config.h>)
#error "cgc's folders are on the include path without the cgc/ prefix"
#endif
#endif

const void *consumer_kernel_ptr(void);

int main(void)
{
    int bad = 0;
    if (cgc_version() != CG_VERSION) {
        printf("cgc_version %d, headers %d\n", cgc_version(), CG_VERSION);
        bad = 1;
    }
    if (cg_device_barrier_init_host(NULL, 4) != CG_ERROR_INVALID_ARGUMENT ||
        strstr(cg_last_error_detail(), "NULL") == NULL) {
        printf("init_host(NULL): %s\n", cg_last_error_detail());
        bad = 1;
    }
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    cfg.grid.x = 4;
    cfg.block.x = 0;
    if (cg_launch_check(&cfg, consumer_kernel_ptr()) != CG_ERROR_BLOCK_SIZE) {
        printf("launch_check: %s\n", cg_last_error_detail());
        bad = 1;
    }
    printf("%s: %s\n", cg_status_name(CG_ERROR_BLOCK_SIZE), cg_last_error_detail());
    return bad;
}

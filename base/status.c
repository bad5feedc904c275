/* SPDX-License-Identifier: BSD-3-Clause */
/* base/status.c — names and messages of cg_status_t, generated from one
 * table, and the per-thread detail of the last failure. */
#include "status.h"

#include <stdarg.h>
#include <stdio.h>

const char *cg_status_name(cg_status_t status)
{
    switch (status) {
#define CG_STATUS_NAME_(name, value, message) \
    case name:                                \
        return #name;
        CG_STATUS_TABLE(CG_STATUS_NAME_)
#undef CG_STATUS_NAME_
    }
    return "CG_STATUS_UNKNOWN";
}

const char *cg_status_string(cg_status_t status)
{
    switch (status) {
#define CG_STATUS_STRING_(name, value, message) \
    case name:                                  \
        return message;
        CG_STATUS_TABLE(CG_STATUS_STRING_)
#undef CG_STATUS_STRING_
    }
    return "unknown cgc status code";
}

int cgc_version(void) { return CG_VERSION; }

static _Thread_local char cg_detail_[320];

cg_status_t cg_status_fail_(cg_status_t status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cg_detail_, sizeof cg_detail_, fmt, ap);
    va_end(ap);
    return status;
}

cg_status_t cg_status_ok_(void)
{
    cg_detail_[0] = '\0';
    return CG_SUCCESS;
}

const char *cg_last_error_detail(void) { return cg_detail_; }

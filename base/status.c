/* cg/status.c — names and messages of cg_status_t, generated from one table. */
#include "base/status.h"

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

int cg_version(void) { return CG_VERSION; }

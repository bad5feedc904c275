/* cg/status.c — names and messages of cg_status_t, generated from one table. */
#include "base/status.h"

const char *cg_status_name(cg_status_t status)
{
    switch (status) {
#define CG__STATUS_NAME(name, value, message) \
    case name:                                \
        return #name;
        CG_STATUS_TABLE(CG__STATUS_NAME)
#undef CG__STATUS_NAME
    }
    return "CG_STATUS_UNKNOWN";
}

const char *cg_status_string(cg_status_t status)
{
    switch (status) {
#define CG__STATUS_STRING(name, value, message) \
    case name:                                  \
        return message;
        CG_STATUS_TABLE(CG__STATUS_STRING)
#undef CG__STATUS_STRING
    }
    return "unknown cgc status code";
}

int cg_version(void) { return CG_VERSION; }

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * base/status.h — host-side status codes.
 *
 * Every host function of cgc returns a cg_status_t. The codes, their names and
 * their messages come from the one table below, so the enum, cg_status_name()
 * and cg_status_string() can never disagree. New codes are appended only: a
 * value, once shipped, never changes meaning.
 */
#ifndef CG_BASE_STATUS_H
#define CG_BASE_STATUS_H

#include "config.h"

/* X(enum name, value, message) */
#define CG_STATUS_TABLE(X) \
    X(CG_SUCCESS,                          0,  "success") \
    X(CG_ERROR_INVALID_ARGUMENT,           1,  "an argument is invalid (null pointer or out of range)") \
    X(CG_ERROR_NO_DEVICE,                  2,  "no CUDA device is visible to this process") \
    X(CG_ERROR_DEVICE_TOO_OLD,             3,  "the device is too old: cgc needs sm_80; clusters, DSMEM and tx counts need sm_90 (Hopper)") \
    X(CG_ERROR_CUDA,                       4,  "a CUDA runtime call failed (cg_last_error_detail() names it and the cause)") \
    X(CG_ERROR_CLUSTER_SHAPE,              5,  "the cluster shape does not divide the grid in every dimension") \
    X(CG_ERROR_CLUSTER_TOO_LARGE,          6,  "the cluster has more than 16 blocks, the sm_90 maximum") \
    X(CG_ERROR_CLUSTER_NONPORTABLE_DENIED, 7,  "the cluster has more than 8 blocks and the non-portable cluster size opt-in failed") \
    X(CG_ERROR_CLUSTER_UNSCHEDULABLE,      8,  "no cluster of this shape fits on one GPC with this block size and shared memory") \
    X(CG_ERROR_SHARED_MEMORY,              9,  "the dynamic shared memory asked for exceeds the per-block limit of the device") \
    X(CG_ERROR_BLOCK_SIZE,                 10, "the block size is zero or exceeds the kernel's or device's threads-per-block limit") \
    X(CG_ERROR_GRID_SIZE,                  11, "the grid size is zero or exceeds the device's grid limits") \
    X(CG_ERROR_COOPERATIVE_UNSUPPORTED,    12, "the device does not support cooperative launch") \
    X(CG_ERROR_COOPERATIVE_TOO_LARGE,      13, "the cooperative grid is larger than the blocks that can be co-resident on the device") \
    X(CG_ERROR_KERNEL_NULL,                14, "the kernel function pointer is null") \
    X(CG_ERROR_LAUNCH_FAILED,              15, "the kernel launch was rejected by the CUDA runtime") \
    X(CG_ERROR_KERNEL_FAILED,              16, "the kernel faulted or trapped while running") \
    X(CG_ERROR_COUNT_RANGE,                17, "an arrival or transaction count is outside 1..2^20-1") \
    X(CG_ERROR_OUT_OF_MEMORY,              18, "a device or host allocation failed") \
    X(CG_ERROR_NOT_SUPPORTED,              19, "the operation is not supported in this configuration") \
    X(CG_ERROR_KERNEL_IMAGE,               20, "the kernel has no code for this device (built for another architecture) or is not a kernel") \
    X(CG_ERROR_TENSOR_DTYPE,               21, "the tensor map's element type is not one of cg_tensor_dtype_t") \
    X(CG_ERROR_TENSOR_RANK,                22, "the tensor rank is outside 1..5, or below 3 with an interleaved layout") \
    X(CG_ERROR_TENSOR_ALIGNMENT,           23, "the tensor's global address is null or not 16-byte aligned (32 with 32-byte interleave), " "or the tensor map is not 64-byte aligned") \
    X(CG_ERROR_TENSOR_SHAPE,               24, "a tensor dimension is 0 or larger than 2^32 elements") \
    X(CG_ERROR_TENSOR_STRIDE,              25, "a tensor stride is not a multiple of 16 bytes (32 with 32-byte interleave), is 2^40 or " "more, or is smaller than the dimension below it spans") \
    X(CG_ERROR_TENSOR_BOX,                 26, "a box dimension is outside 1..256, or the box's inner row is not a multiple of 16 bytes") \
    X(CG_ERROR_TENSOR_ELEMENT_STRIDE,      27, "a tensor element stride is outside 1..8") \
    X(CG_ERROR_TENSOR_SWIZZLE,             28, "the swizzle mode is unknown, narrower than the box's inner row, or not 32 B with " "32-byte interleave") \
    X(CG_ERROR_TENSOR_INTERLEAVE,          29, "the tensor interleave mode is not one of cg_tensor_interleave_t") \
    X(CG_ERROR_TENSOR_OPTION,              30, "the L2 promotion or out-of-bounds fill is unknown, or NaN fill was asked for an integer type") \
    X(CG_ERROR_LAUNCH_HANDLE_INVALID,      31, "the launch handle was not prepared by a successful cg_launch_prepare (or was overwritten)") \
    X(CG_ERROR_LAUNCH_HANDLE_DEVICE,       32, "the launch handle was prepared on another device than the current one")

typedef enum cg_status {
#define CG_STATUS_ENUM_(name, value, message) name = value,
    CG_STATUS_TABLE(CG_STATUS_ENUM_)
#undef CG_STATUS_ENUM_
} cg_status_t;

#if CG_HOST_API
CG_EXTERN_C_BEGIN

/* "CG_ERROR_CLUSTER_SHAPE" for CG_ERROR_CLUSTER_SHAPE; "CG_STATUS_UNKNOWN" otherwise. */
const char *cg_status_name(cg_status_t status);

/* A sentence describing the status; "unknown cgc status code" for values
 * outside the table. Never NULL. */
const char *cg_status_string(cg_status_t status);

/* The library's version as CG_VERSION encodes it, for comparing with the
 * headers a program was compiled against. (Not cg_version: CGNS, the CFD
 * I/O library many CUDA codes link, exports a function of that name.) */
int cgc_version(void);

/* A sentence about the last failure of a cg_* host call on this thread, with
 * the numbers involved ("cluster 3x1x1 does not divide grid 128x1x1 in x");
 * "" after a success. Never NULL; valid until the thread's next cg_* call. */
const char *cg_last_error_detail(void);

/* Internal: record `status` with a printf-style detail and return it; and
 * clear the detail and return CG_SUCCESS. For cgc's own host files. */
cg_status_t cg_status_fail_(cg_status_t status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
cg_status_t cg_status_ok_(void);

CG_EXTERN_C_END
#endif /* CG_HOST_API */

#endif /* CG_BASE_STATUS_H */

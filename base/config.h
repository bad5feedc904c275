/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * base/config.h — the macros every cgc header stands on.
 *
 * Plain C: this header compiles as C11 (gcc, host only) and as CUDA C++ (nvcc).
 * Device-only parts of cgc headers sit behind CG_DEVICE_CODE_VISIBLE so a host
 * C compiler sees only types, enums and host prototypes.
 */
#ifndef CG_BASE_CONFIG_H
#define CG_BASE_CONFIG_H

#if defined(__CUDACC_RTC__)
/* NVRTC has no C library headers: the fixed-width types by hand (device code
 * only; every CUDA target is 64-bit), the same types as libcu++'s
 * <cuda/std/cstdint> gives under NVRTC, so either may come first. No limit
 * macros (UINT32_MAX, ...): cgc's device code needs none, and libcu++
 * defines them with other tokens, which NVRTC reports as an incompatible
 * redefinition (#47-D) whichever header comes first (tests/build/nvrtc). */
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef unsigned long long uintptr_t;
typedef decltype(sizeof(0)) size_t;
#ifndef NULL
#define NULL nullptr
#endif
#else
#include <stddef.h>
#include <stdint.h>
#if !defined(__cplusplus)
#include <stdbool.h>
#endif
#endif

/* Version of the headers; cgc_version() returns the library's (base/status.h). */
#define CG_VERSION_MAJOR 0
#define CG_VERSION_MINOR 2
#define CG_VERSION_PATCH 0
#define CG_VERSION (CG_VERSION_MAJOR * 10000 + CG_VERSION_MINOR * 100 + CG_VERSION_PATCH)

/* Host declarations keep C linkage when a .cu (C++) file includes them. */
#if defined(__cplusplus)
#define CG_EXTERN_C_BEGIN extern "C" {
#define CG_EXTERN_C_END }
#else
#define CG_EXTERN_C_BEGIN
#define CG_EXTERN_C_END
#endif

/* True when nvcc compiles this translation unit (host or device pass): the
 * device wrappers are declared only then, so gcc never sees __device__. */
#if defined(__CUDACC__)
#define CG_DEVICE_CODE_VISIBLE 1
#else
#define CG_DEVICE_CODE_VISIBLE 0
#endif

/* Host prototypes (the status strings, launch helpers, host-side init) are
 * declared except under NVRTC, which compiles device code only. */
#if defined(__CUDACC_RTC__)
#define CG_HOST_API 0
#else
#define CG_HOST_API 1
#endif

/* Every device wrapper is inlined into its caller: the library adds no call
 * and no stack frame, and needs no -rdc. */
#if CG_DEVICE_CODE_VISIBLE
#define CG_DEVICE static __device__ __forceinline__
#endif

/* Architecture feature macros, one per feature family. They are 1 only in the
 * device pass for a target that has the feature (0 for older targets and in
 * the host pass). For users too: a fat build that includes a pre-Hopper
 * target (sm_80 + sm_90a) guards the Hopper part of a kernel with
 *   #if CG_ARCH_HAS_SM90  ...clusters, DSMEM, TMA...  #else  ...fallback...  #endif
 * so the sm_80 pass never sees a call that needs sm_90 (README, "Fat builds";
 * tools/ci/check_cmake.sh and tools/ci/check_readme.sh build such a kernel). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define CG_ARCH_HAS_SM90 1 /* clusters, DSMEM, mbarrier tx-count, bulk copies */
#else
#define CG_ARCH_HAS_SM90 0
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define CG_ARCH_HAS_SM80 1 /* mbarrier, cp.async */
#else
#define CG_ARCH_HAS_SM80 0
#endif

/* Multicast bulk and tensor copies (.multicast::cluster) exist only on the
 * arch-specific targets (sm_90a, sm_100a), not on plain sm_90: nvcc defines
 * __CUDA_ARCH_FEAT_SM90_ALL for -arch=sm_90a (__CUDA_ARCH_FEAT_SM100_ALL for
 * sm_100a). */
#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || defined(__CUDA_ARCH_FEAT_SM100_ALL)
#define CG_ARCH_HAS_MULTICAST 1
#else
#define CG_ARCH_HAS_MULTICAST 0
#endif

/*
 * What needs sm_90 says so at the caller's line. In the device pass for a
 * target below sm_90, every sm_90-only wrapper (declared CG_DEVICE_SM90) is
 * marked unavailable, so a call to one stops the front end at the calling line,
 * in SASS and PTX-only builds alike, and NVRTC too:
 *
 *   app.cu(12): error: function "cg_cluster_sync" was declared unavailable
 *   ("cgc: needs sm_90 or newer (clusters, DSMEM, tx counts, bulk copies): ...")
 *
 * A wrapper that calls one is itself CG_DEVICE_SM90 (uses inside an unavailable
 * function are allowed), so only code that is compiled for the old target
 * and calls the feature is reported. (NVRTC: a warning, see below.) Between sm_80 and sm_90 the fallback
 * below is unavailable too: a function that reaches CG_REQUIRE_SM90() without
 * being marked fails an sm_80 build of its header (tests/cg:sm80_compile_test).
 */
#define CG_SM90_MESSAGE_                                                                                               \
    "cgc: needs sm_90 or newer (clusters, DSMEM, tx counts, bulk copies): compile this call for sm_90 or newer "    \
    "(sm_90a only for multicast copies), or keep it out of the older target's device pass"
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900 && !defined(__CUDACC_RTC__)
#define CG_SM90_ONLY_ __attribute__((unavailable(CG_SM90_MESSAGE_)))
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
/* NVRTC's front end has no "unavailable": the same message, at the same
 * line, as a deprecation warning (#1444); NVRTC's -diag-error=1444 makes it
 * the error nvcc gives (else the load fails on the fallback's extern). */
#define CG_SM90_ONLY_ __attribute__((deprecated(CG_SM90_MESSAGE_)))
#else
#define CG_SM90_ONLY_
#endif

/* A public name kept for older code and going away: a use compiles with a
 * warning (nvcc and NVRTC: #1444) whose text names the call to use instead;
 * the definition says which. */
#define CG_DEPRECATED_(message) __attribute__((deprecated(message)))
#if CG_DEVICE_CODE_VISIBLE
#define CG_DEVICE_SM90 CG_SM90_ONLY_ CG_DEVICE
#endif

/* The fallback inside each sm_90-only wrapper: a call to a __device__
 * function declared and never defined, whose name is the message. Below
 * sm_80 (not marked unavailable there) ptxas stops an SASS build with
 * "Unresolved extern function '<name>'", without a source line. */
#if CG_DEVICE_CODE_VISIBLE
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && !defined(__CUDACC_RTC__)
extern "C" __device__ void cg_error_this_feature_needs_sm90_or_newer_(void) CG_SM90_ONLY_;
#else
extern "C" __device__ void cg_error_this_feature_needs_sm90_or_newer_(void);
#endif
extern "C" __device__ void cg_error_this_feature_needs_sm80_or_newer_(void);
/* The multicast forms' fallback, on every target without multicast (plain
 * sm_90 included): not marked unavailable, so ptxas stops an SASS build
 * with this name, and a PTX-only build fails when the driver loads it. */
extern "C" __device__ void cg_error_bulk_multicast_needs_an_arch_specific_target_compile_for_sm_90a_(void);
#define CG_REQUIRE_SM90() cg_error_this_feature_needs_sm90_or_newer_()
#define CG_REQUIRE_SM80() cg_error_this_feature_needs_sm80_or_newer_()
#define CG_REQUIRE_MULTICAST() cg_error_bulk_multicast_needs_an_arch_specific_target_compile_for_sm_90a_()
#endif

/* The one arch gate of every asm statement (tools/ptx/gen.py writes it into
 * each generated form; hand-written forms use it too):
 *   CG_AT_SM90_(stmt)   stmt in a device pass for sm_90 or newer, the
 *                       CG_REQUIRE_SM90() call below it, nothing on the host
 *   CG_AT_SM80_(stmt)   the same for sm_80
 *   CG_AT_MULTICAST_(stmt)  the same for CG_ARCH_HAS_MULTICAST, with
 *                       CG_REQUIRE_MULTICAST() below it
 *   CG_AT_SM90_ELSE_SM80_(sm90, sm80)  a form with an sm_80 fallback of its
 *                       own: sm90 on sm_90, sm80 on sm_80, the requirement
 *                       below, nothing on the host
 * A function that uses CG_AT_SM90_ is declared CG_DEVICE_SM90; one with an
 * sm_80 fallback is CG_DEVICE. What stays `#if CG_ARCH_HAS_SM80` in the
 * library is not a gate but another algorithm for older targets (a shuffle
 * loop where sm_80 has redux.sync, a plain copy where it has cp.async). */
#if CG_DEVICE_CODE_VISIBLE
#if CG_ARCH_HAS_SM90
#define CG_AT_SM90_(...) __VA_ARGS__
#elif defined(__CUDA_ARCH__)
#define CG_AT_SM90_(...) CG_REQUIRE_SM90();
#else
#define CG_AT_SM90_(...)
#endif
#if CG_ARCH_HAS_SM80
#define CG_AT_SM80_(...) __VA_ARGS__
#elif defined(__CUDA_ARCH__)
#define CG_AT_SM80_(...) CG_REQUIRE_SM80();
#else
#define CG_AT_SM80_(...)
#endif
#if CG_ARCH_HAS_MULTICAST
#define CG_AT_MULTICAST_(...) __VA_ARGS__
#elif defined(__CUDA_ARCH__)
#define CG_AT_MULTICAST_(...) CG_REQUIRE_MULTICAST();
#else
#define CG_AT_MULTICAST_(...)
#endif
#if CG_ARCH_HAS_SM90
#define CG_AT_SM90_ELSE_SM80_(sm90, sm80) sm90
#elif CG_ARCH_HAS_SM80
#define CG_AT_SM90_ELSE_SM80_(sm90, sm80) sm80
#elif defined(__CUDA_ARCH__)
#define CG_AT_SM90_ELSE_SM80_(sm90, sm80) CG_REQUIRE_SM90();
#else
#define CG_AT_SM90_ELSE_SM80_(sm90, sm80)
#endif
#endif

/*
 * Debug checks on the device. CG_DEBUG=1 turns on bounded waits that report a
 * deadlocking barrier (its address and phase) and trap, plus argument checks.
 * Off by default so release kernels carry no extra instructions; build with
 * -DCG_DEBUG=1 (bazel: --config=cgdebug) to enable.
 */
/* The hardware limit every count of the library stands on: an mbarrier
 * phase's arrival count and transaction count lie in 0 .. 2^20 - 1 (PTX ISA,
 * mbarrier). The block barriers, the device barrier and the copy sizes are
 * all bounded by it. */
#define CG_HW_COUNT_MAX ((1u << 20) - 1u)

#if !defined(CG_DEBUG)
#define CG_DEBUG 0
#endif
#if CG_DEVICE_CODE_VISIBLE
#if !defined(__CUDACC_RTC__) /* NVRTC declares printf itself */
#include <stdio.h>                /* device printf: the debug reports, the grid's cold misuse report */
#endif
#endif

/* How long (in %globaltimer nanoseconds) a debug-build wait spins before it
 * reports a deadlock and traps. Two seconds is far above any legitimate phase. */
#if !defined(CG_DEBUG_WAIT_TIMEOUT_NS)
#define CG_DEBUG_WAIT_TIMEOUT_NS 2000000000ull
#endif

/*
 * Misuse reports are out of line. Every report (a debug build's deadlock
 * report or argument check, the release build's grid-sync-without-workspace
 * report) is a CG_REPORT_ function: not inlined, marked cold and noreturn,
 * it takes the few values it prints, reads the block and thread indices
 * itself, prints one line and traps. The site keeps only its test, written
 * CG_UNLIKELY_(cond), and a call that is never taken: no printf argument
 * block, no value kept alive across a call (the callee never returns), so a
 * debug build's kernel needs about the registers of its release build and
 * launches every shape the release build launches (a 1024-thread block
 * allows 64 registers a thread; docs/design/debug_builds.md has the
 * numbers). `static`: each translation unit has its own copy, so no -rdc is
 * needed and an unused one costs nothing.
 */
#if CG_DEVICE_CODE_VISIBLE
#define CG_REPORT_ static __device__ __noinline__ __attribute__((noreturn, cold))
#define CG_UNLIKELY_(cond) __builtin_expect(!!(cond), 0)
#endif

/*
 * The arrival token. A wait consumes the token its own arrive returned. Its
 * meaning depends on the barrier that made it (an mbarrier state word for
 * block barriers, a phase word for grid barriers); code outside cgc treats it
 * as opaque.
 */
typedef struct cg_token {
    uint64_t _opaque;
} cg_token_t;

#endif /* CG_BASE_CONFIG_H */

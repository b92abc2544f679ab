/* clsa: suffix arrays and the indexes built from them, on any OpenCL device.
 *
 * Every function returns a clsa_status (CLSA_OK == 0, errors < 0).  On an
 * error, clsa_last_error(ctx) gives a one-line message naming what failed
 * (OpenCL call, kernel, build log for a failed build).  The library never
 * prints, exits or aborts.  A context may be shared between threads: calls on
 * one context are serialised by a lock inside it.
 *
 * Index width: each index-producing call has a 32-bit twin (n < 2^31) and a
 * 64-bit twin (any n the device can hold).
 */
#ifndef CLSA_H
#define CLSA_H

#include <stddef.h>
#include <stdint.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CLSA_VERSION_MAJOR 0
#define CLSA_VERSION_MINOR 1
#define CLSA_VERSION_PATCH 0
#define CLSA_VERSION_STRING "0.1.0"

#if defined(_WIN32)
#define CLSA_API
#else
#define CLSA_API __attribute__((visibility("default")))
#endif

typedef enum clsa_status {
    CLSA_OK = 0,
    CLSA_ERR_INVALID_ARG = -1,    /* NULL pointer, bad size, bad option */
    CLSA_ERR_HOST_MEMORY = -2,    /* malloc failed */
    CLSA_ERR_DEVICE_MEMORY = -3,  /* the device (or mem_limit / CLSA_DEVICE_MEM_LIMIT) cannot hold the working set */
    CLSA_ERR_TOO_LARGE = -4,      /* n does not fit the index width: use the 64-bit call */
    CLSA_ERR_NO_DEVICE = -5,      /* no OpenCL device matches / none at all */
    CLSA_ERR_OPENCL = -6,         /* an OpenCL call failed */
    CLSA_ERR_BUILD = -7,          /* kernel compilation failed: message holds the build log */
    CLSA_ERR_IO = -8,             /* file could not be read or written */
    CLSA_ERR_FORMAT = -9,         /* corrupt, truncated or foreign file */
    CLSA_ERR_UNSUPPORTED = -10,   /* operation not available on this context/backend */
    CLSA_ERR_CANCELLED = -11,     /* the progress callback asked the call to stop */
    CLSA_ERR_DEVICE_LOST = -12    /* the device faulted (a kernel's bad access, ...) and its
                                     OpenCL context is lost: a clsa_create context makes a new
                                     one itself, a clsa_create_with_queue one must be made
                                     again by the application (docs/RELIABILITY.md) */
} clsa_status;

/* Where the work runs. AUTO: device, except inputs below the measured
 * host-fallback threshold and contexts without an OpenCL device. */
typedef enum clsa_backend {
    CLSA_BACKEND_DEFAULT = -1,  /* take env CLSA_BACKEND, else AUTO */
    CLSA_BACKEND_AUTO = 0,
    CLSA_BACKEND_DEVICE = 1,
    CLSA_BACKEND_HOST = 2
} clsa_backend;

typedef struct clsa_context clsa_context;

typedef struct clsa_options {
    /* Device selector: "gpu", "cpu", or "<substring>[:<index>]" matched
     * case-insensitively against platform name, platform vendor and device
     * name.  NULL: env CLSA_DEVICE, else the GPU with the most global
     * memory, else the first CPU device. */
    const char *device;
    /* clsa_backend; CLSA_BACKEND_DEFAULT reads env CLSA_BACKEND. */
    int backend;
    /* Nonzero: time every kernel with OpenCL profiling events (clsa_get_stats).
     * The events are read when each call ends, so kernels are not made to
     * wait for one another; copies between host and device are blocking
     * with or without profiling. */
    int profile;
    /* Optional log sink (debug messages such as program cache hits). */
    void (*log)(void *user, const char *message);
    void *log_user;
    /* Optional progress callback, copied into the context at creation.
     * Long calls (suffix array, BWT, LCP, FM-index build) call it between
     * steps, never from inside a kernel and at most a few hundred times
     * per call: phase names the step ("initial sort", "doubling", ...),
     * fraction in [0, 1] is an estimate of the whole call's progress,
     * non-decreasing within one call; a successful call ends with
     * fraction 1.  Returning nonzero stops the call at that point: it
     * frees what it allocated and returns CLSA_ERR_CANCELLED (outputs
     * are then unspecified).  It runs with the context locked: it must
     * not call clsa on the same context. */
    int (*progress)(void *user, const char *phase, double fraction);
    void *progress_user;
    /* Bytes of device memory the context's calls may use; 0: env
     * CLSA_DEVICE_MEM_LIMIT (a number with an optional K, M or G suffix),
     * else the device's global memory.  Every device buffer clsa makes is
     * counted against it.  A suffix array (clsa_sa32/64 and the integer
     * alphabet twins, host pointers, device backend) whose in-memory
     * working set (about 20 bytes per symbol) would pass it is built out
     * of core instead: ranks and SA in host memory, the device sorting
     * chunks sized to the limit (docs/DESIGN.md); the result is the same.
     * A limit too small for one chunk gives CLSA_ERR_DEVICE_MEMORY with
     * the minimum in the message. */
    size_t mem_limit;
    /* Host threads of the host backend's suffix sorting (SA, BWT, LCP and
     * what builds on them, and the drop-in libraries' CPU path); 0: env
     * CLSA_THREADS, else the cores the process may run on (its affinity
     * mask, capped by a cgroup v2 cpu.max quota).  Results do not depend
     * on it. */
    int threads;
    /* Device suffix array construction, a clsa_sa_algorithm (0..4; other
     * values are refused by clsa_create with CLSA_ERR_INVALID_ARG): AUTO
     * (0, the default) reads env CLSA_ALGORITHM (auto, doubling, skew,
     * hybrid, runlen), and where that is unset or auto picks per text by a
     * cheap measurement of its runs and repeats (docs/SA.md "Choosing the
     * algorithm").
     * Generalized suffix arrays, ranks (ISA, BWT) and the out-of-core
     * route always use prefix doubling; the result never depends on it. */
    int algorithm;
} clsa_options;

/* clsa_options.algorithm. */
typedef enum clsa_sa_algorithm {
    CLSA_ALGORITHM_AUTO = 0,     /* runlen where the sampled mean run is 4 or more,
                                    else skew where sampled suffixes mostly share their
                                    first 256 symbols with one another (periodic,
                                    Fibonacci, Thue-Morse, many copies of a short
                                    block), else prefix doubling */
    CLSA_ALGORITHM_DOUBLING = 1, /* prefix doubling (docs/SA.md) */
    CLSA_ALGORITHM_SKEW = 2,     /* skew / DC3, recursion to the end */
    CLSA_ALGORITHM_HYBRID = 3,   /* one skew level, then prefix doubling on the
                                    reduced text */
    CLSA_ALGORITHM_RUNLEN = 4    /* run-length reduction: the suffixes at run
                                    starts sorted as a text of one symbol a run,
                                    the others placed from them (texts of long
                                    runs; mean run below 2: prefix doubling) */
} clsa_sa_algorithm;

/* Fills *opt with the defaults (all NULL/0, backend DEFAULT). */
CLSA_API void clsa_options_init(clsa_options *opt);

/* Creates a context on the chosen device (see clsa_options.device).
 * opt may be NULL for the defaults.  On failure *out is NULL; the message of
 * the failure is available through clsa_last_error(NULL) only in the form of
 * clsa_status_string, so prefer clsa_create_ex when the text matters. */
CLSA_API clsa_status clsa_create(const clsa_options *opt, clsa_context **out);

/* As clsa_create, but on failure writes the message into err (cap bytes). */
CLSA_API clsa_status clsa_create_ex(const clsa_options *opt, clsa_context **out, char *err, size_t cap);

/* Adopts an application's command queue (its context and device).  The
 * queue is retained, not owned: the caller still releases its reference. */
CLSA_API clsa_status clsa_create_with_queue(cl_command_queue queue, const clsa_options *opt,
                                            clsa_context **out);

/* Releases everything the context holds.  NULL is allowed. */
CLSA_API void clsa_destroy(clsa_context *ctx);

/* A context keeps the device memory a call freed for the calls after it
 * (taken whole or in parts by a later request it fits; so repeated calls
 * of similar sizes make and release no buffers): what the next call
 * leaves unused is released as that call ends, the rest by clsa_destroy
 * or here, now.  peak_device_bytes counts it.  NULL is allowed. */
CLSA_API void clsa_trim(clsa_context *ctx);

/* Message of the last failure on ctx ("" if none). Valid until the next call on ctx. */
CLSA_API const char *clsa_last_error(const clsa_context *ctx);

/* Short constant text for a status ("invalid argument", ...). */
CLSA_API const char *clsa_status_string(clsa_status status);

/* Library version string, e.g. "0.1.0". */
CLSA_API const char *clsa_version(void);

/* Whether the OpenCL library could be loaded.  clsa does not link it: it is
 * loaded on first use (env CLSA_OPENCL_LIBRARY names it, else the process's
 * own OpenCL symbols, else libOpenCL.so.1), so a machine without OpenCL
 * still runs everything the host backend does (NULL context).  CLSA_OK if
 * loaded, else CLSA_ERR_NO_DEVICE with the reason in why (cap bytes; why
 * may be NULL); "" when loaded. */
CLSA_API clsa_status clsa_opencl_available(char *why, size_t cap);

/* ---- device description --------------------------------------------- */

typedef struct clsa_device_info {
    char platform[128];
    char vendor[128];
    char name[128];
    char driver[64];
    char version[128];
    int is_gpu;
    int host_unified_memory;
    uint64_t global_mem;
    uint64_t max_alloc;
    uint64_t local_mem;
    size_t max_work_group;
    unsigned compute_units;
    int is_default;   /* set by clsa_list_devices for the device clsa_create would pick */
} clsa_device_info;

/* Lists every OpenCL device of every platform into out[0..cap); *count gets
 * the total number (which may exceed cap).  No device at all is not an
 * error: *count = 0. */
CLSA_API clsa_status clsa_list_devices(clsa_device_info *out, size_t cap, size_t *count);

/* The device of ctx; CLSA_ERR_UNSUPPORTED for a host-only context. */
CLSA_API clsa_status clsa_get_device_info(const clsa_context *ctx, clsa_device_info *info);
/* Overrides tuning keys of ctx's device as env CLSA_TUNE does
 * ("key=value,key=value"; docs/TUNING.md lists the keys), for the calls
 * after it.  CLSA_ERR_INVALID_ARG with a message naming an unknown key or a
 * value that is not a number, and nothing changed; CLSA_ERR_UNSUPPORTED on
 * a host-only context. */
CLSA_API clsa_status clsa_set_tuning(clsa_context *ctx, const char *spec);

/* ---- statistics -------------------------------------------------------- */

typedef enum clsa_phase {
    CLSA_PHASE_TRANSFER = 0,   /* host<->device copies */
    CLSA_PHASE_INITIAL_SORT,   /* SA: first radix sort on 8-byte keys */
    CLSA_PHASE_SORT_S,         /* SA: small groups (bitonic, local memory) */
    CLSA_PHASE_SORT_M,         /* SA: medium groups (merge path) */
    CLSA_PHASE_SORT_L,         /* SA: large groups (radix) */
    CLSA_PHASE_ISA_UPDATE,     /* SA: ranks, ISA scatter */
    CLSA_PHASE_GROUPS,         /* SA: head flags, split, compaction */
    CLSA_PHASE_PRIMITIVE,      /* scan/compact/sort called directly */
    CLSA_PHASE_INDEX,          /* ISA/BWT/LCP/FM kernels */
    CLSA_PHASE_COUNT
} clsa_phase;

typedef struct clsa_stats {
    uint64_t peak_device_bytes;     /* highest device memory held at once by clsa
                                       (the kept memory of clsa_trim included) */
    uint64_t current_device_bytes;
    double phase_ms[CLSA_PHASE_COUNT]; /* kernel/copy time by phase (needs options.profile) */
    uint64_t kernel_launches;
    unsigned doubling_passes;        /* of the last suffix array built */
    unsigned programs_built;         /* compiled from source */
    unsigned programs_loaded;        /* loaded from the on-disk binary cache */
    int last_backend;                /* CLSA_BACKEND_DEVICE or _HOST for the last call */
    unsigned skew_levels;            /* skew (DC3) levels of the last suffix array built
                                        on the device (0: prefix doubling alone) */
    int sa_algorithm;                /* the clsa_sa_algorithm the last device suffix array
                                        ran (auto resolved) */
    char sa_algorithm_why[112];      /* why: auto's measurement, or "asked for" */
} clsa_stats;

/* Kernel-cache entries this context refused and removed (a bad tag, not a
 * regular file, or a binary the driver would not load): they were built
 * from source again (docs/RELIABILITY.md, "Kernel cache"). */
CLSA_API unsigned clsa_programs_rejected(const clsa_context *ctx);

/* Name of a phase ("transfer", "initial_sort", ...). */
CLSA_API const char *clsa_phase_name(int phase);
CLSA_API clsa_status clsa_get_stats(const clsa_context *ctx, clsa_stats *stats);
/* Zeroes the timings and the peak (the current device bytes stay). */
CLSA_API void clsa_reset_stats(clsa_context *ctx);
/* Profiled time per kernel (or copy) name since the last reset, entry i in
 * order of first use (needs options.profile; at most 96 names): name into
 * name[0..cap) (NUL-terminated, may be NULL), total milliseconds and launch
 * count.  CLSA_ERR_INVALID_ARG past the last entry, so a loop from i = 0
 * lists them all.  The entry named "(idle)" is no kernel: the time the
 * device's queue sat between commands within the calls (their span from
 * the first start to the last end, less what ran), with one "launch" a
 * call. */
CLSA_API clsa_status clsa_get_kernel_time(const clsa_context *ctx, size_t i, char *name,
                                          size_t cap, double *ms, uint64_t *launches);

/* ---- suffix arrays ------------------------------------------------------ */

/* Suffix array of text[0..n): sa[i] = start of the i-th smallest suffix.
 * No sentinel is added; suffix order is plain lexicographic order of
 * unsigned bytes, a proper prefix sorting first (libdivsufsort's order).
 * n = 0 is valid (nothing written).  32-bit: n < 2^31, else
 * CLSA_ERR_TOO_LARGE.  ctx may be NULL: host backend.  On the device,
 * n >= 2^32 (clsa_sa64) is built out of core (SA and ranks in host memory,
 * 64-bit; the device sorts chunks): clsa_sa_plan says the route and its
 * memory beforehand.  In memory, clsa_sa64 of n < 2^32 needs on the device
 * what clsa_sa32 needs (32-bit entries, widened as they come down). */
CLSA_API clsa_status clsa_sa32(clsa_context *ctx, const uint8_t *text, int32_t *sa, int64_t n);
CLSA_API clsa_status clsa_sa64(clsa_context *ctx, const uint8_t *text, int64_t *sa, int64_t n);

/* Integer alphabets: the same for a text of n 16- or 32-bit symbols (token
 * ids, words, ...).  Symbols are any values of the type, compared as
 * unsigned numbers, a proper prefix sorting first; no alphabet size or
 * unused sentinel is needed.  The device takes any n (n >= 2^32 out of
 * core, with 64-bit host arrays: docs/DESIGN.md); the host backend here
 * (prefix doubling with counting sorts; libdivsufsort takes bytes only)
 * takes n < 2^32, larger n is CLSA_ERR_TOO_LARGE there.  ctx may be NULL:
 * host backend. */
CLSA_API clsa_status clsa_sa32_u16(clsa_context *ctx, const uint16_t *text, int32_t *sa,
                                   int64_t n);
CLSA_API clsa_status clsa_sa64_u16(clsa_context *ctx, const uint16_t *text, int64_t *sa,
                                   int64_t n);
CLSA_API clsa_status clsa_sa32_u32(clsa_context *ctx, const uint32_t *text, int32_t *sa,
                                   int64_t n);
CLSA_API clsa_status clsa_sa64_u32(clsa_context *ctx, const uint32_t *text, int64_t *sa,
                                   int64_t n);

/* 64-bit symbols (hashes, k-mer codes, ids of a large vocabulary): any
 * uint64_t values, compared as unsigned numbers.  The symbols are first
 * replaced, on the host, by their dense ranks among the distinct values
 * (order kept, so the suffix order is the same; at most n distinct, so they
 * fit 32 bits): a copy is LSD radix sorted one byte at a time (passes over
 * a byte that is the same in every symbol are skipped), repeats dropped,
 * and each symbol binary-searched, O(n * (passes + log distinct)) time and
 * 20 bytes per symbol of host work space at the peak; then the 32-bit
 * symbol path above.  n < 2^32, else CLSA_ERR_TOO_LARGE.  ctx may be NULL:
 * host backend. */
CLSA_API clsa_status clsa_sa32_u64(clsa_context *ctx, const uint64_t *text, int32_t *sa,
                                   int64_t n);
CLSA_API clsa_status clsa_sa64_u64(clsa_context *ctx, const uint64_t *text, int64_t *sa,
                                   int64_t n);

/* The memory plan of a suffix array: what clsa_sa32/64 (and the integer
 * alphabet twins) would do for n symbols on ctx now, without doing it. */
typedef enum clsa_sa_route {
    CLSA_ROUTE_HOST = 0,       /* the host backend (libdivsufsort, host/cpu) */
    CLSA_ROUTE_DEVICE = 1,     /* the device pipeline, everything in device memory */
    CLSA_ROUTE_DEVICE_OOC = 2  /* out of core: SA and ranks in host memory, the device
                                  sorting chunks sized to the budget (always for
                                  n >= 2^32 on the device) */
} clsa_sa_route;

/* Why the plan takes its route (clsa_sa_plan_info.why). */
typedef enum clsa_sa_plan_why {
    CLSA_WHY_HOST = 0,         /* host route: the backend, the host threshold or no device */
    CLSA_WHY_FITS = 1,         /* in memory: the working set fits the budget and every
                                  buffer the largest allocation */
    CLSA_WHY_PAST_2_32 = 2,    /* out of core: n >= 2^32 */
    CLSA_WHY_FORCED = 3,       /* out of core: CLSA_TUNE ooc=1 */
    CLSA_WHY_MAX_ALLOC = 4,    /* out of core: an n-entry array of the in-memory route
                                  would pass CL_DEVICE_MAX_MEM_ALLOC_SIZE (or CLSA_TUNE
                                  max_alloc) */
    CLSA_WHY_BUDGET = 5        /* out of core: the in-memory need passes the budget */
} clsa_sa_plan_why;

typedef struct clsa_sa_plan_info {
    int route;                 /* a clsa_sa_route */
    int index64_host;          /* out of core: 1 when its host arrays are 64-bit
                                  (n >= 2^32, or CLSA_TUNE ooc64=1), else 0 */
    uint64_t in_memory_bytes;  /* estimated device bytes the in-memory path needs
                                  (text + SA + the doubling's working set) */
    uint64_t budget_bytes;     /* free device memory under the limit (mem_limit,
                                  CLSA_DEVICE_MEM_LIMIT or the device's global
                                  memory, less what clsa holds now); 0 without a device */
    uint64_t chunk_items;      /* out of core: (key, position) pairs per device chunk;
                                  0 for the other routes */
    uint64_t device_bytes;     /* device bytes the route holds at its peak (estimate;
                                  out of core: at most budget_bytes) */
    uint64_t host_bytes;       /* host bytes the route allocates besides the caller's
                                  text and SA (estimate; out of core: ISA, any host SA
                                  copy and one chunk's staging; a group larger than a
                                  chunk, as in periodic texts, adds staging for it) */
    int why;                   /* a clsa_sa_plan_why: why this route */
    uint64_t max_alloc_bytes;  /* the largest allocation planned with (the device's
                                  CL_DEVICE_MAX_MEM_ALLOC_SIZE or CLSA_TUNE max_alloc);
                                  0 without a device */
    int algorithm;             /* the clsa_sa_algorithm of the route: in memory,
                                  clsa_options.algorithm (AUTO: picked when the call
                                  sees the text; clsa_stats.sa_algorithm and
                                  sa_algorithm_why say what and why); out of core
                                  DOUBLING; -1 on the host */
} clsa_sa_plan_info;

/* Fills *out with the plan for a suffix array of n symbols of sym_bytes
 * (1, 2 or 4) bytes each, with 64-bit (index64 = 1) or 32-bit entries:
 * the same routing the call takes (backend, host threshold, budget,
 * CLSA_TUNE), so out->route is the route the call would take now.  (One
 * exception the plan cannot see: an in-memory run that still finds the
 * device full is retried out of core.)
 *   ctx: a context (NULL: the host backend).
 *   n: symbols (0 allowed).
 *   sym_bytes: 1, 2 or 4, else CLSA_ERR_INVALID_ARG.
 *   index64: 0 or 1.
 *   out: written on success.
 * Returns the error the call would return for these arguments before
 * doing any work (CLSA_ERR_TOO_LARGE for a 32-bit SA of n >= 2^31 or an
 * integer alphabet of n >= 2^32 on the host, CLSA_ERR_NO_DEVICE for a
 * forced device backend without one, CLSA_ERR_DEVICE_MEMORY when the
 * budget is below even the out-of-core minimum, CLSA_ERR_HOST_MEMORY when
 * the out-of-core host bytes pass the machine's physical memory), else
 * CLSA_OK; *out is filled in those last two cases too. */
CLSA_API clsa_status clsa_sa_plan(clsa_context *ctx, int64_t n, int sym_bytes, int index64,
                                  clsa_sa_plan_info *out);

/* Device-resident twins: text is a buffer of at least n bytes, sa of at
 * least n entries (4 or 8 bytes each), both on ctx's OpenCL context.
 * Their bytes count as held by clsa for the call: the same memory plan,
 * 20 (32-bit) / 40 (64-bit) bytes per input byte in all, and the same
 * peak_device_bytes as the host-pointer call, whose copies of text and SA
 * they replace. */
CLSA_API clsa_status clsa_sa32_mem(clsa_context *ctx, cl_mem text, cl_mem sa, int64_t n);
CLSA_API clsa_status clsa_sa64_mem(clsa_context *ctx, cl_mem text, cl_mem sa, int64_t n);

/* Several devices of one process: the suffix array of text[0..n), the same
 * as clsa_sa32/64 gives, one thread per member.  No MPI is needed.
 * When every entry of ctxs is its own device context with room for a
 * member's working set (about 5 + 16 / k bytes per position for k members,
 * against about 21 for one device) and n < 2^32, each
 * member sorts the suffixes of one range of first-8-byte keys on its device
 * (the whole text is copied to every device; with two members each peaks at
 * about 11 bytes per position) and the members exchange the
 * ranks their passes read; an input whose initial sort would leave more
 * than 1/32 of the suffixes unsorted (text-like inputs) is built on
 * ctxs[0] alone, where those exchanges would cost more than a second
 * device saves (docs/DESIGN.md, "The device engine").  Otherwise the
 * distributed engine of clsa_mpi.h runs with threads for ranks: member i
 * owns positions [i*ceil(n/k), ...) and sorts its share of every pass on
 * ctxs[i], the sample sorts and ranking on the host's side (slow: for a
 * NULL member, a context given twice, a device too small, or Oclgrind).
 * Where either runs out of device memory (a split less even than planned,
 * or an input handed to ctxs[0] alone that its device cannot hold), the
 * call runs as clsa_sa32/64(ctxs[0], ...), which goes out of core under
 * its device's limit.
 *   ctxs: k contexts, one per member.  An entry may be NULL (that member
 *         sorts on the host) and the same context may appear more than once
 *         (its calls are serialised by its lock, so the members sharing it
 *         take turns on its device).  Not NULL.
 *   k:    number of members (threads), >= 1.  k == 1 is exactly
 *         clsa_sa32/64(ctxs[0], text, sa, n).  k > n is allowed (the
 *         members past the text own nothing but still take part).
 *   text: n bytes, read by every member; not NULL when n > 0.
 *   sa:   out, n entries; not NULL when n > 0.
 *   n:    text length, >= 0; < 2^31 for the 32-bit call, else
 *         CLSA_ERR_TOO_LARGE.
 * Host memory beyond text and sa: none for the device engine; about 100
 * bytes per position at the peak for the distributed engine, plus 8 per
 * position for its 32-bit call.  Bad arguments give
 * CLSA_ERR_INVALID_ARG; a failure of any member (out of memory, a device
 * error) is agreed by all members and returned once, the lowest failing
 * member's message winning.  On failure the message is clsa_last_error(c)
 * for every non-NULL c in ctxs. */
CLSA_API clsa_status clsa_sa32_multi(clsa_context *const *ctxs, int k, const uint8_t *text,
                                     int32_t *sa, int64_t n);
CLSA_API clsa_status clsa_sa64_multi(clsa_context *const *ctxs, int k, const uint8_t *text,
                                     int64_t *sa, int64_t n);

/* Checks that sa is the suffix array of text in O(n) time and O(sigma)
 * extra space a thread; arrays of 2^21 entries or more are checked by up to
 * one thread a core (16 at most), with the same answer and reason.  *valid
 * = 1 if correct, 0 if not; the return is an error only for bad arguments.
 * When invalid and why is not NULL, a short reason is written to why (cap
 * bytes). */
CLSA_API clsa_status clsa_check_sa32(const uint8_t *text, const int32_t *sa, int64_t n, int *valid,
                                     char *why, size_t cap);
CLSA_API clsa_status clsa_check_sa64(const uint8_t *text, const int64_t *sa, int64_t n, int *valid,
                                     char *why, size_t cap);

/* ---- generalized suffix array (a set of strings) ---------------------------
 * Generalized suffix array of k strings, in libsais's gsa order but with no
 * separator byte to pick: text holds the strings back to back (sum of
 * lengths[0..k) symbols, no separators), lengths[i] >= 0 is the length of
 * string i (empty strings allowed), k >= 0.  Positions refer to the virtual
 * text
 *     s_0 $_0 s_1 $_1 ... s_{k-1} $_{k-1}
 * of N = sum(lengths) + k symbols, where every $_i is smaller than every
 * symbol and $_i < $_j for i < j (so a suffix that reaches the end of its
 * string sorts before one that goes on, and ties between strings go by
 * string index).  sa receives the N suffixes of the virtual text in order:
 * the k separator suffixes come first, by string.  doc, if not NULL, receives
 * N entries too: doc[i] = the index of the string that position sa[i] lies
 * in (its $ included).  sa and doc must not overlap text or each other.
 * k = 0 (or N = 0) is valid and writes nothing; lengths may then be NULL,
 * and text may be NULL when all lengths are 0.  A negative k or length, a
 * NULL pointer with something to read or write, or a sum that overflows is
 * CLSA_ERR_INVALID_ARG.  32-bit: N < 2^31, else CLSA_ERR_TOO_LARGE; both
 * widths run through the integer-alphabet suffix array (each $_i and symbol
 * becomes one 32-bit symbol), so N < 2^32 for the 64-bit call too.  The
 * work space is 4 bytes per virtual symbol on the host besides the device's
 * own.  The document array is filled on the host.  ctx may be NULL: host
 * backend. */
CLSA_API clsa_status clsa_gsa32(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                                int64_t k, int32_t *sa, int32_t *doc);
CLSA_API clsa_status clsa_gsa64(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                                int64_t k, int64_t *sa, int64_t *doc);
/* The same for 16- and 32-bit symbols (compared as unsigned numbers; any
 * values, 0 and the maximum included).  Where the largest symbol + k does
 * not fit 32 bits, the symbols are ranked first as for clsa_sa32_u64. */
CLSA_API clsa_status clsa_gsa32_u16(clsa_context *ctx, const uint16_t *text,
                                    const int64_t *lengths, int64_t k, int32_t *sa, int32_t *doc);
CLSA_API clsa_status clsa_gsa64_u16(clsa_context *ctx, const uint16_t *text,
                                    const int64_t *lengths, int64_t k, int64_t *sa, int64_t *doc);
CLSA_API clsa_status clsa_gsa32_u32(clsa_context *ctx, const uint32_t *text,
                                    const int64_t *lengths, int64_t k, int32_t *sa, int32_t *doc);
CLSA_API clsa_status clsa_gsa64_u32(clsa_context *ctx, const uint32_t *text,
                                    const int64_t *lengths, int64_t k, int64_t *sa, int64_t *doc);

/* 64-bit symbols: ranked as for clsa_sa32_u64 (the ranks of the strings'
 * symbols together, the same extra host work space), then as above. */
CLSA_API clsa_status clsa_gsa32_u64(clsa_context *ctx, const uint64_t *text,
                                    const int64_t *lengths, int64_t k, int32_t *sa, int32_t *doc);
CLSA_API clsa_status clsa_gsa64_u64(clsa_context *ctx, const uint64_t *text,
                                    const int64_t *lengths, int64_t k, int64_t *sa, int64_t *doc);

/* LCP array of a generalized suffix array: text, lengths and k as for
 * clsa_gsa32, sa its N entries (as clsa_gsa32/64 wrote them); lcp[0] = 0
 * and lcp[i] = the length of the longest common prefix of the suffixes at
 * sa[i-1] and sa[i] in the virtual text, where a separator matches nothing,
 * not even another separator (so no common prefix runs past the end of a
 * string).  sa must be a permutation of 0..N-1 (CLSA_ERR_INVALID_ARG if
 * not; it is not checked to be sorted, a wrong order gives wrong values but
 * never out-of-bounds access).  lcp must not overlap sa or text.  Runs on
 * the host (Kasai, N entries of work space) whatever the backend. */
CLSA_API clsa_status clsa_gsa_lcp32(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                                    int64_t k, const int32_t *sa, int32_t *lcp);
CLSA_API clsa_status clsa_gsa_lcp64(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                                    int64_t k, const int64_t *sa, int64_t *lcp);
CLSA_API clsa_status clsa_gsa_lcp32_u16(clsa_context *ctx, const uint16_t *text,
                                        const int64_t *lengths, int64_t k, const int32_t *sa,
                                        int32_t *lcp);
CLSA_API clsa_status clsa_gsa_lcp64_u16(clsa_context *ctx, const uint16_t *text,
                                        const int64_t *lengths, int64_t k, const int64_t *sa,
                                        int64_t *lcp);
CLSA_API clsa_status clsa_gsa_lcp32_u32(clsa_context *ctx, const uint32_t *text,
                                        const int64_t *lengths, int64_t k, const int32_t *sa,
                                        int32_t *lcp);
CLSA_API clsa_status clsa_gsa_lcp64_u32(clsa_context *ctx, const uint32_t *text,
                                        const int64_t *lengths, int64_t k, const int64_t *sa,
                                        int64_t *lcp);

CLSA_API clsa_status clsa_gsa_lcp32_u64(clsa_context *ctx, const uint64_t *text,
                                        const int64_t *lengths, int64_t k, const int32_t *sa,
                                        int32_t *lcp);
CLSA_API clsa_status clsa_gsa_lcp64_u64(clsa_context *ctx, const uint64_t *text,
                                        const int64_t *lengths, int64_t k, const int64_t *sa,
                                        int64_t *lcp);

/* ---- scan and compaction (32-bit values) ---------------------------------- */

/* out[i] = sum of in[0..i) (exclusive) or in[0..i] (inclusive), mod 2^32.
 * in and out may be the same array. */
CLSA_API clsa_status clsa_scan_u32(clsa_context *ctx, const uint32_t *in, uint32_t *out, size_t n,
                                   int inclusive);
CLSA_API clsa_status clsa_scan_u32_mem(clsa_context *ctx, cl_mem in, cl_mem out, size_t n,
                                       int inclusive);

/* Stream compaction: out gets, in order, every in[i] whose flags[i] != 0;
 * *count gets how many.  out must hold n values. */
CLSA_API clsa_status clsa_compact_u32(clsa_context *ctx, const uint32_t *in, const uint32_t *flags,
                                      size_t n, uint32_t *out, size_t *count);
CLSA_API clsa_status clsa_compact_u32_mem(clsa_context *ctx, cl_mem in, cl_mem flags, size_t n,
                                          cl_mem out, size_t *count);

/* ---- page-locked host memory ---------------------------------------------- */

/* Host memory that the device copies to and from at its full rate
 * (page-locked pages move several times faster than malloc'd ones,
 * and no page faults in untouched pages during the copy).  *ptr gets bytes
 * (> 0) of host memory, readable and writable by the caller, valid until
 * clsa_host_free or clsa_destroy.  Pass it (or any range inside it) as the
 * text, SA, BWT or LCP array of the host-pointer calls (clsa_sa32, clsa_bwt,
 * clsa_lcp32, ...): they recognise it and copy at the page-locked rate.
 * It is a mapped OpenCL buffer (CL_MEM_ALLOC_HOST_PTR); where the context
 * has no device, or the device cannot give one that large, it is ordinary
 * memory, so the call never fails for want of page-locked memory alone. */
CLSA_API clsa_status clsa_host_alloc(clsa_context *ctx, size_t bytes, void **ptr);
/* Frees memory from clsa_host_alloc on the same context.  NULL is allowed;
 * a pointer clsa_host_alloc did not return is CLSA_ERR_INVALID_ARG. */
CLSA_API clsa_status clsa_host_free(clsa_context *ctx, void *ptr);

#include "clsa_prim.h"
#include "clsa_index.h"
#include "clsa_fm.h"
#include "clsa_bwa.h"
#include "clsa_batch.h"

#ifdef __cplusplus
}
#endif
#endif

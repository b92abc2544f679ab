/* The context: struct clsa_context, its locks and the frame of a public call (context.c). */
#ifndef CLSA_RT_CONTEXT_H
#define CLSA_RT_CONTEXT_H

#include "clsa.h"
#include "cl_loader.h" /* OpenCL loaded at run time: calls renamed */
#include "tuning.h"
#include "progress.h"
#include <pthread.h>

/* Most loop iterations one work-item runs in a kernel whose trip counts
 * grow with the input: llvmpipe (rusticl) ends every loop of an invocation
 * once 65535 iterations have run in all, silently (docs/DESIGN.md). */
#define CLSA_LOOP_BUDGET 16384
#define CLSA_MAX_PROGRAMS 128
#define CLSA_MAX_KERNELS 512
/* Extra queues for copies split over threads (copy_threads.c). */
#define CLSA_COPY_QUEUES 7
#define CLSA_MSG_CAP 8192

typedef struct clsa_program_slot {
    const char *name;     /* kernel file base name, e.g. "scan" */
    char options[256];    /* build options it was built with */
    cl_program program;
    char *pending_save;   /* "path\nkey" until the binary is cached, else NULL */
    char *cached_from;    /* the cache entry it was loaded from, else NULL */
} clsa_program_slot;

typedef struct clsa_kernel_slot {
    int program;          /* index into programs */
    const char *name;     /* kernel function name (static string) */
    cl_kernel kernel;
    int logged;           /* its launch is in CLSA_TEST_LAUNCH_LOG (launch.c) */
} clsa_kernel_slot;

#define CLSA_KERNEL_NAME_CAP 40
#define CLSA_KERNEL_TIMES 96

struct clsa_context {
    pthread_mutex_t lock;
    int has_device;       /* 0: host-only context */
    int backend;          /* clsa_backend resolved (never DEFAULT) */
    cl_platform_id platform;
    cl_device_id device;
    cl_context cl;
    cl_command_queue queue;
    cl_command_queue copy_queue[CLSA_COPY_QUEUES]; /* copy_threads.c, made when first used */
    int profiling;        /* queue has CL_QUEUE_PROFILING_ENABLE */
    int oclgrind;         /* the Oclgrind simulator (oclgrind.c) */
    int made_cl;          /* cl was created by clsa_create, on thread creator */
    pthread_t creator;
    cl_context oclgrind_hold; /* oclgrind.c: held for the call under way */
    int want_profile;
    clsa_tuning tune;
    clsa_device_info info;
    char message[CLSA_MSG_CAP];
    clsa_program_slot programs[CLSA_MAX_PROGRAMS];
    int nprograms;
    clsa_kernel_slot kernels[CLSA_MAX_KERNELS];
    int nkernels;
    uint64_t mem_limit;   /* clsa_options.mem_limit, else CLSA_DEVICE_MEM_LIMIT, else 0 =
                             the device's own */
    const char *mem_limit_name; /* where mem_limit came from, for messages */
    int threads;          /* clsa_options.threads (0: CLSA_THREADS or the cores) */
    int algorithm;        /* clsa_options.algorithm (CLSA_ALGORITHM resolved; auto per text) */
    int sa_ran;           /* the algorithm the last device SA ran (dispatch.c) */
    clsa_stats stats;
    unsigned programs_rejected; /* cache entries dropped (program.c; clsa_programs_rejected) */
    int phase;            /* clsa_phase charged by clsa__launch */
    void (*log)(void *, const char *);
    void *log_user;
    /* clsa_options.progress, and the state of the public call under way
     * (progress.c): the slice [lo, hi] of the call its current step fills,
     * the last fraction reported (reports never go back), reports made. */
    int (*progress)(void *, const char *, double);
    void *progress_user;
    double progress_lo, progress_hi, progress_last;
    unsigned progress_calls;
    /* Sizes of the buffers clsa__alloc made that are still alive, so that
     * clsa__free's accounting never depends on a query that can fail. */
    struct clsa_live_buffer {
        cl_mem mem;
        size_t bytes;
        int poolable; /* small device memory: pooled when freed (buffer.c) */
    } *live;
    size_t nlive, live_cap;
    /* Device memory kept for reuse (buffer_pool.c): parents, each handed
     * out whole or in sub-buffer regions (sorted by offset).  call: the
     * last public call that used it (ctx->calls). */
    struct clsa_pooled {
        cl_mem mem;
        size_t bytes;
        uint64_t call;
        int whole;
        struct clsa_carved {
            cl_mem mem;
            size_t off, len;
            int idle; /* freed: kept for a request it fits, its region free */
        } *sub;
        size_t nsub, sub_cap;
    } *pool;
    size_t npool, pool_cap;
    size_t mem_align;    /* sub-buffer origins: CL_DEVICE_MEM_BASE_ADDR_ALIGN bytes */
    uint64_t pool_bytes; /* the parents' bytes */
    uint64_t pool_used;  /* of those, handed out (and counted as held) */
    uint64_t high_water; /* most bytes ever held at once: the pool's bound */
    uint64_t calls;      /* public calls ended (clsa__unlock) */
    int pool_suspect;    /* an OpenCL call failed: the call's end releases the pool */
    /* clsa_host_alloc's arrays: mapped page-locked buffers (mem != NULL)
     * or malloc'd fall-backs (host_mem.c). */
    struct clsa_pinned {
        void *ptr;
        size_t bytes;
        cl_mem mem;
    } *pinned;
    size_t npinned, pinned_cap;
    /* Page-locked slots of staged copies (staged_copy.c), made when first
     * used, kept until clsa_destroy. */
    struct clsa_pinned stage[2 * CLSA_STAGE_THREADS];
    unsigned nstage;
    /* Profiling events not read yet (launch.c): read when the public call
     * ends, so that timing does not make each kernel wait for the last. */
    struct clsa_pending_event {
        cl_event ev;
        int phase;
        char what[CLSA_KERNEL_NAME_CAP];
    } *pending;
    size_t npending, pending_cap;
    /* Time per kernel (or copy) name while profiling, for
     * clsa_get_kernel_time; reset with the stats. */
    struct clsa_kernel_time {
        char name[CLSA_KERNEL_NAME_CAP];
        double ms;
        uint64_t launches;
    } ktime[CLSA_KERNEL_TIMES];
    size_t nktime;
    /* scan_onepass's look-back state (scan.c), kept from one scan to the
     * next within a public call: room for scan_cap tiles; the last scan,
     * of parity scan_epoch - 1, published tiles [0, scan_tiles); words
     * [scan_tiles, scan_dirty) may hold older scans' words. */
    cl_mem scan_state;
    size_t scan_cap, scan_tiles, scan_dirty;
    unsigned scan_epoch;
    /* A device fault (status.c): the context is lost; the call's end makes
     * a new one where clsa made it (context.c).  last_kernel: the name of
     * the last launch, for the fault's message. */
    int lost;
    char last_kernel[CLSA_KERNEL_NAME_CAP];
};

/* ---- context life cycle (context.c): the work behind clsa_list_devices,
 * clsa_create_ex, clsa_create_with_queue, clsa_trim and clsa_destroy
 * (host/api_context.c), their arguments checked there (clsa__trim and
 * clsa__destroy: ctx not NULL). */
clsa_status clsa__list_devices(clsa_device_info *out, size_t cap, size_t *count);
clsa_status clsa__create_ex(const clsa_options *opt, clsa_context **out, char *err, size_t cap);
clsa_status clsa__create_with_queue(cl_command_queue queue, const clsa_options *opt,
                                    clsa_context **out);
void clsa__trim(clsa_context *ctx);
void clsa__destroy(clsa_context *ctx);

/* ---- context helpers (context.c) ----------------------------------------- */
/* CLSA_OK if the context can run kernels, else a clear error. */
clsa_status clsa__need_device(clsa_context *ctx);
/* Resolves AUTO for an input of n units: 1 = use device, 0 = host. */
int clsa__use_device(clsa_context *ctx, uint64_t n);
void clsa__lock(clsa_context *ctx);
void clsa__unlock(clsa_context *ctx);
/* The frame of a public call on ctx (NULL allowed: the host, no lock):
 * begin locks and clears the last message; end reports the progress's end
 * on success, unlocks and returns st. */
static inline void clsa__call_begin(clsa_context *ctx)
{
    clsa__lock(ctx);
    if (ctx) ctx->message[0] = 0;
}
static inline clsa_status clsa__call_end(clsa_context *ctx, clsa_status st)
{
    st = clsa__progress_end(ctx, st);
    clsa__unlock(ctx);
    return st;
}

#endif

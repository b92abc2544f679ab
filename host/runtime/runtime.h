/* Internal runtime layer shared by every host file: the context, errors,
 * programs/kernels, device buffers with accounting, launches with profiling.
 * Nothing here is public API. */
#ifndef CLSA_RUNTIME_H
#define CLSA_RUNTIME_H

#include "clsa.h"
#include "cl_loader.h" /* OpenCL loaded at run time: calls renamed */
#include <pthread.h>
#include <stdarg.h>

/* Per-device tuning record, filled at context creation from device limits,
 * then overridden by env CLSA_TUNE="key=value,key=value" (see tuning.c). */
/* Default bits per local split round of the radix tile ranking
 * (radix_rank.cl; tune.radix_sub). */
#define CLSA_RADIX_SUB_BITS 4

typedef struct clsa_tuning {
    uint64_t local_mem;       /* CL_DEVICE_LOCAL_MEM_SIZE */
    size_t max_wg;            /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    unsigned compute_units;
    uint64_t max_alloc;
    uint64_t global_mem;
    int is_gpu;
    int host_unified;
    size_t wg;                /* default work-group size for 1-D kernels (power of two) */
    size_t scan_items;        /* items per work-item in scan/compact tiles */
    size_t scan_serial;       /* scans of up to this many values (and more than one
                                 tile) run in one work-group: one launch, not three */
    size_t scan_sums_raw;     /* scans of up to this many tiles (and more than
                                 scan_serial values) in two launches: the downsweep
                                 adds up the tile sums itself */
    size_t sort_wg;           /* work-group size for radix sort */
    unsigned radix_bits;      /* LSD radix sort digit width, 4..8 bits */
    size_t radix_items;       /* keys per work-item in LSD radix sort tiles */
    size_t radix_blind;       /* radix sorts of up to this many keys run every digit of
                               * their bit range instead of first reading back which
                               * digits vary (a blocking read costs a GPU more than a
                               * pass over so few keys); 0: always read */
    size_t summary_max;       /* a split counts its new groups by class for the next
                                 pass (no read there) up to this many groups */
    size_t starts_read;       /* a doubling pass's first scan (the marked heads) reads
                               * its total, so that it can take the single pass, from
                               * this many slots on; 0: always */
    unsigned radix_reg;       /* 1: the radix ranking counts digits in registers
                                 (packed 8-bit counters), 0: in local memory */
    unsigned warp_nv;         /* CL_DEVICE_WARP_SIZE_NV where the device has
                                 cl_nv_device_attribute_query, else 0 */
    unsigned radix_warp;      /* radix scatter's ranking: 0 split rounds of radix_sub
                                 bits, 1 one 8-bit round by warp match (NVIDIA PTX,
                                 warps of 32), 2 the same emulated with work-group
                                 barriers (any device; tests) */
    unsigned radix_match;     /* warp ranking on NVIDIA: 0 PTX match.any, 1 one ballot
                                 a digit bit, 2 only the bits that vary in the
                                 warp (redux.sync, sm_80), 3 through a word of
                                 local memory a digit (atomic OR) */
    unsigned radix_regs;      /* NVIDIA warp ranking: register cap of the radix
                                 programs (-cl-nv-maxrregcount), 0 none */
    unsigned radix_shfl;      /* NVIDIA warp ranking: the counters' scan by warp
                                 shuffles (1) or serial chunks (0) */
    unsigned radix_vtile;     /* warp ranking: the values get a local tile of their
                                 own where local memory allows (radix_rank.cl
                                 VAL_TILE) in 1 the single pass, 2 both passes'
                                 kinds; 0 they reuse the keys' tile */
    unsigned radix_sub;       /* bits per local split round of the radix tile
                                 ranking, 1..8 (its counter matrix has 2^radix_sub
                                 rows per work-item) */
    size_t r1;                /* S/M boundary: largest group sorted in local memory */
    size_t r2;                /* M/L boundary */
    uint64_t host_threshold;  /* AUTO: inputs shorter than this go to the host */
    unsigned zero_copy;       /* host-pointer calls wrap the caller's memory instead of
                                 copying (devices sharing memory with the host: APUs) */
    unsigned sa_path;         /* SA doubling sorts: 0 auto, 1 one radix sort of all
                                 unsorted suffixes, 2 by group length class, 3 as 1
                                 without the combined key; + 4 half-size working
                                 set; + 8 integer alphabets start from one symbol
                                 instead of packed codes; + 16 group heads by
                                 gathering old ranks, not marks in u; + 32 ISA
                                 inverted by the plain scatter; + 64 ISA and BWT
                                 from the SA, not the final ranks; + 128 never
                                 direct mode (SA written as suffixes finish, no
                                 ISA^-1); + 512 direct mode whatever the 5 iw
                                 budget; + 1024 global sorts restore groups by
                                 rank; + 2048 global sorts in halves and a merge;
                                 + 4096 the split gathers key2 instead of reading
                                 the sorts' new-group flags (docs/SA.md); + 8192
                                 the split's ranks, keep scan and compaction in
                                 three launches where the single pass would
                                 take them in one (groups.c rank_compact);
                                 + 16384 each pass reads its class counts,
                                 not the split's summary (groups.c) */
    unsigned onesweep;        /* radix sort: 1 single pass with decoupled look-back
                                 (radix_onesweep.cl), 0 reduce-then-scan; cleared
                                 when a single pass faults (radix_sort.c) */
    size_t onesweep_max;      /* the single pass only below this many keys */
    unsigned scan_onepass;    /* scans of flags with a total: 1 single pass with
                                 decoupled look-back (scan.cl scan_onepass), 0
                                 reduce-then-scan; cleared when one faults */
    unsigned scan_fault;      /* tests only: t > 1 makes tile t - 1 of every single-pass
                                 scan fault (and keeps scan_onepass on) */
    unsigned init_msd;        /* SA initial sort: 1 a short key first where the
                                 alphabet's entropy and a sample say it sets most
                                 suffixes apart (prefix_doubling.c initial_sort_msd),
                                 0 never, 2 always, 3 as 1 with a sample at any n
                                 (tests) */
    unsigned isa_lazy;        /* SA: after such a sort that sorted its tied ones
                                 apart, the initial ranks of the unsorted
                                 suffixes only, the rest filled as the passes
                                 read them (host/sa/groups.h lazy); 0 never, 2
                                 whenever it ran (tests) */
    unsigned lazy_shift;      /* tests: s > 0 makes a bit of its need bitmap cover
                               * 2^(s - 1) positions (0: by size, prefix_doubling.c) */
    unsigned lookback;        /* its look-back reads this many tiles' words at once */
    unsigned onesweep_fault;  /* tests only: p > 0 makes single pass p - 1 fault;
                               * p + 16 only in unchecked sorts (radix_sort.h) */
    unsigned onesweep_tables; /* its look-back tables: 0 one a pass where they fit
                               * (radix_onesweep.c), 1 one for all, 2 one a pass */
    unsigned out_of_core;     /* 1: host-pointer device SAs always take the out-of-core
                                 path (tests, comparisons); 0: only past the limit */
    unsigned copy_threads;    /* host threads (and queues) of a copy of copy_min bytes
                               * or more (copy_threads.c); 1: one */
    size_t copy_min;          /* below it one enqueue (threads would cost more) */
    size_t chunk;             /* CLSA_TUNE chunk=BYTES: copy and fill pieces (0: CLSA_CHUNK) */
    size_t pack_min;          /* byte texts of at least this many bytes with at most
                               * 2^pack_bits distinct bytes cross to the device packed
                               * through staged writes (text_pack.c); 0: never */
    unsigned pack_bits;       /* 1, 2 or 4 */
    size_t stage_min;         /* copies of at least this many bytes between pageable
                               * memory and the device go through page-locked slots
                               * (staged_copy.c); 0: never, and no packed texts */
    unsigned stage_threads;   /* host threads filling and emptying them */
    size_t stage_slot;        /* bytes of one slot (two a thread) */
    unsigned idle_by;         /* profiles: the device's idle time also by the commands
                               * around it, "(BEFORE>AFTER)", and by host or launch
                               * (launch.c) */
    unsigned flush;           /* 1: clFlush after every kernel launch (an experiment) */
    unsigned stage_stream;    /* 1: staged reads empty their slots with streaming
                               * (non-temporal) stores where the host has them;
                               * 0: memcpy */
    unsigned part_decline;    /* several devices: one device instead when more than
                               * n / part_decline suffixes are unsorted after the initial
                               * sort (host/sa/pd_part.c); 0: never */
    unsigned part_sample;     /* suffixes sampled for that before anything is sorted
                               * (clsa__pd_part_worth); 0: only the check after */
    unsigned sa64_narrow;     /* 1: a 64-bit SA of n < 2^32 read into host memory is
                               * built in 32-bit entries on the device and widened as
                               * it comes down (api.c); 0: the 64-bit pipeline */
    unsigned pack_once;       /* several devices: 1 the text packed once on the host
                               * for all members' uploads, 0 each packs its own */
    unsigned pool;            /* 1: small scratch buffers are kept and reused within a
                                 public call (buffer.c), 0: created and released each
                                 time */
    unsigned ooc64;           /* 1: the out-of-core path keeps SA/ISA/groups in 64 bits
                                 at any n (tests); else only for n > UINT32_MAX */
    uint64_t ooc_groups;      /* out-of-core: most groups in one batch (0: as many as
                                 the tag bits allow); tests use small values */
    unsigned ooc_threads;     /* out-of-core host threads (0: one per core, up to 16);
                                 set, it splits even small loops (tests) */
} clsa_tuning;

/* Most loop iterations one work-item runs in a kernel whose trip counts
 * grow with the input: llvmpipe (rusticl) ends every loop of an invocation
 * once 65535 iterations have run in all, silently (docs/DESIGN.md). */
#define CLSA_LOOP_BUDGET 16384
#define CLSA_MAX_PROGRAMS 128
#define CLSA_MAX_KERNELS 512
/* Extra queues for copies split over threads (copy_threads.c). */
#define CLSA_COPY_QUEUES 7
/* Most host threads of a staged copy (staged_copy.c). */
#define CLSA_STAGE_THREADS 16
#define CLSA_MSG_CAP 8192

typedef struct clsa_program_slot {
    const char *name;     /* kernel file base name, e.g. "scan" */
    char options[256];    /* build options it was built with */
    cl_program program;
    char *pending_save;   /* "path\nkey" until the binary is cached, else NULL */
} clsa_program_slot;

typedef struct clsa_kernel_slot {
    int program;          /* index into programs */
    const char *name;     /* kernel function name (static string) */
    cl_kernel kernel;
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
    clsa_stats stats;
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

/* ---- errors (status.c) --------------------------------------------------
 * Each returns the status it was given, so "return clsa__fail(...)". */
clsa_status clsa__fail(clsa_context *ctx, clsa_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* err != CL_SUCCESS: sets "<call> failed: <CL error name>[ (kernel <k>)]"
 * and returns CLSA_ERR_OPENCL (CLSA_ERR_DEVICE_MEMORY for allocation
 * failures).  err == CL_SUCCESS returns CLSA_OK. */
clsa_status clsa__cl(clsa_context *ctx, cl_int err, const char *call, const char *kernel);
const char *clsa__cl_error_name(cl_int err);
void clsa__log(clsa_context *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Shorthand inside functions that have a `clsa_status st` and a `done:`
 * clean-up label. */
#define CLSA_TRY(expr)                 \
    do {                               \
        st = (expr);                   \
        if (st != CLSA_OK) goto done;  \
    } while (0)
#define CLSA_CL(ctx, expr, call, kernel)                          \
    do {                                                          \
        st = clsa__cl((ctx), (expr), (call), (kernel));           \
        if (st != CLSA_OK) goto done;                             \
    } while (0)

/* ---- programs and kernels (program.c) -----------------------------------
 * name: base name of a cl_kernels/ file ("scan"); the embedded common.cl is
 * prepended.  "prelude+file" ("radix_rank+radix_sort") also prepends the
 * family's shared prelude file after common.cl.  index64: builds with -DCLSA_IDX64=1 (idx_t = ulong, else uint).
 * extra: further build options or NULL.  Kernels are created once per
 * (program, name) and kept in the context. */
clsa_status clsa__kernel(clsa_context *ctx, const char *file, int index64, const char *extra,
                         const char *kernel, cl_kernel *out);
/* Embedded sources (generated kernels.c). */
typedef struct clsa_embedded_source {
    const char *name;
    const unsigned char *data;
    size_t size;
    const char *sha256;
} clsa_embedded_source;
const clsa_embedded_source *clsa__find_source(const char *name);
/* Test hook: replace an embedded source by text (NULL restores). */
void clsa__override_source(const char *name, const char *text);

/* The program cache folder (program.c): 0 when caching is off (CLSA_CACHE=0),
 * the folder is unsafe (not private to the user) or the path does not fit. */
int clsa__cache_dir(char *dir, size_t cap);

/* Whether hay contains needle[0..nlen), ignoring ASCII case (selectors). */
int clsa__contains_nocase(const char *hay, const char *needle, size_t nlen);

/* ---- device buffers (buffer.c) ------------------------------------------
 * All device memory goes through here so the peak is counted and the limit
 * (device global memory, or env CLSA_DEVICE_MEM_LIMIT) is enforced. */
clsa_status clsa__alloc(clsa_context *ctx, size_t bytes, cl_mem *out);
/* Zero copy: a buffer over the caller's memory (CL_MEM_USE_HOST_PTR), counted
 * like any other; clsa__sync_host makes the device's writes visible there. */
clsa_status clsa__alloc_host(clsa_context *ctx, void *host, size_t bytes, cl_mem *out);
clsa_status clsa__sync_host(clsa_context *ctx, cl_mem mem, size_t bytes);
/* Un-counts and drops; NULL is ignored.  Sets *mem to NULL.  Device
 * buffers go to the context's pool, for the next clsa__alloc of their size
 * in this call or the next, instead of clReleaseMemObject (see
 * clsa_context.pool). */
void clsa__free(clsa_context *ctx, cl_mem *mem);
/* clReleaseMemObject (m may be NULL), its host time profiled. */
void clsa__release_mem(clsa_context *ctx, cl_mem m);
/* The pool (buffer_pool.c): take serves c bytes from it (1) or not (0);
 * make_room releases free parents so that c more bytes keep within its
 * bound; adopt makes a new buffer a parent (0: no room in the list);
 * give_back returns one (0: not the pool's).  drain at a public call's
 * end releases the free parents no call used since the one before (all =
 * 1: every free one; 2: every one, clsa_destroy). */
int clsa__pool_take(clsa_context *ctx, size_t c, cl_mem *out);
void clsa__pool_make_room(clsa_context *ctx, size_t c);
int clsa__pool_adopt(clsa_context *ctx, cl_mem m, size_t bytes);
int clsa__pool_give_back(clsa_context *ctx, cl_mem m);
void clsa__pool_drain(clsa_context *ctx, int all);
/* Would `bytes` more fit?  CLSA_ERR_DEVICE_MEMORY with a message if not. */
/* The limit in force (mem_limit, else the device's global memory) and the
 * bytes of it not held now. */
/* Counts (hold) or stops counting bytes of the caller's own device buffers
 * as held: a call working in them keeps the same budget (5 iw bytes per
 * input byte, text and SA included) and reports the same peak as when it
 * allocates them itself. */
void clsa__hold_caller(clsa_context *ctx, uint64_t bytes, int hold);
uint64_t clsa__mem_limit(const clsa_context *ctx);
uint64_t clsa__mem_free(const clsa_context *ctx);
clsa_status clsa__reserve_check(clsa_context *ctx, uint64_t bytes, const char *what);
/* Host<->device copies, copies and fills are issued in pieces of at most
 * 1 GiB: one command over more than 4 GiB left NVIDIA's OpenCL context
 * unusable (CL_OUT_OF_RESOURCES on every later call) on the H200. */
#define CLSA_CHUNK ((size_t)1 << 30)
/* ctx's piece size: CLSA_CHUNK, or CLSA_TUNE chunk=BYTES (a multiple of 8),
 * which splits small buffers' copies and fills at offsets as large ones are. */
#define CLSA_CHUNK_OF(ctx) ((ctx)->tune.chunk ? (ctx)->tune.chunk : CLSA_CHUNK)
static inline size_t clsa__piece(size_t done, size_t bytes, size_t chunk)
{
    return bytes - done < chunk ? bytes - done : chunk;
}
clsa_status clsa__write(clsa_context *ctx, cl_mem dst, size_t off, const void *src, size_t bytes);
clsa_status clsa__read(clsa_context *ctx, cl_mem src, size_t off, void *dst, size_t bytes);
/* dst[i] = the 32-bit entry src[i], i < count, from the front: src may be
 * dst's own upper half (entry i's 4 bytes lie at or after entry i's 8). */
void clsa__widen_u32(int64_t *dst, const void *src, size_t count);
/* dst[0, count) = the 32-bit entries src[0, count), widened to 64 bits. */
clsa_status clsa__read_wide(clsa_context *ctx, cl_mem src, int64_t *dst, size_t count);
/* A small write (up to CLSA_NOWAIT_MAX bytes) that does not wait for the
 * queue: src must stay valid until a later blocking call on the queue
 * (Oclgrind, or larger: clsa__write). */
#define CLSA_NOWAIT_MAX 4096
clsa_status clsa__write_nowait(clsa_context *ctx, cl_mem dst, size_t off, const void *src,
                               size_t bytes);
/* A large copy split over ctx->tune.copy_threads threads and queues
 * (copy_threads.c); *done = 0 when it is not worth it (the caller copies). */
clsa_status clsa__copy_threads(clsa_context *ctx, cl_mem buf, size_t off, void *host,
                               size_t bytes, int write, int *done);
void clsa__copy_queues_release(clsa_context *ctx);
/* run(parts + i * size) for every i < t: part 0 on this thread, the
 * others each on a thread of its own (up to 16 threads; on this one
 * afterwards where a thread cannot start); returns when all are done. */
void clsa__run_team(void *(*run)(void *), void *parts, size_t size, unsigned t);
/* clsa_check_sa32/64's check (host/cpu/check.c) over `parts` stretches of
 * the SA, each on a thread (1..16): 1 valid, else 0 and why. */
int clsa__check_sa_parts(const uint8_t *text, const void *sa, int64_t n, int index64,
                         unsigned parts, char *why, size_t cap);
/* Large copies between pageable memory and the device through the
 * context's page-locked slots, several host threads filling or emptying
 * them while the bus moves the pieces before (staged_copy.c).  Available
 * on a context with a device that does not share memory with the host
 * (or where CLSA_TUNE stage_min forces it), not on Oclgrind; *done = 0
 * when not available (the caller copies otherwise). */
int clsa__staged_ready(clsa_context *ctx);
clsa_status clsa__staged_read(clsa_context *ctx, cl_mem src, size_t off, void *dst, size_t bytes,
                              int *done);
/* The same for count 32-bit entries of src into count 64-bit ones at dst
 * (each thread widens its pieces as it empties its slots). */
clsa_status clsa__staged_read_wide(clsa_context *ctx, cl_mem src, int64_t *dst, size_t count,
                                   int *done);
/* The bytes [from, from + len) of what a staged write writes, put into
 * slot; 0 stops the write (*done = 0: the filler's state says why). */
typedef int (*clsa__stage_fill)(void *arg, size_t from, size_t len, void *slot);
clsa_status clsa__staged_write(clsa_context *ctx, cl_mem dst, size_t off, size_t bytes,
                               clsa__stage_fill fill, void *arg, int *done);
void clsa__stage_release(clsa_context *ctx);

/* ---- byte texts crossing to the device (text_pack.c) ------------------------
 * dst[0, n) = text.  Texts of at most 16 distinct bytes go up packed to 1, 2
 * or 4 bits a byte (host threads pack one piece while the last is copied)
 * and a kernel unpacks them, where ctx's tuning says it gains (pack_min);
 * else clsa__write. */
clsa_status clsa__write_text(clsa_context *ctx, cl_mem dst, const void *text, size_t n);
/* A text packed on the host once for the uploads of several contexts (the
 * members of clsa_sa32_multi), a block at a time by whichever upload needs
 * the block first, so the packing is spread over every upload's staging
 * threads and overlaps the copies; into the caller's memory at into (room
 * for n / 2 + 1 bytes, not read by anyone until every upload is done) or a
 * malloc'd array where into is NULL.  NULL where ctx's uploads would not
 * pack the text, or out of host memory. */
typedef struct clsa__text_share clsa__text_share;
clsa__text_share *clsa__text_share_new(const clsa_context *ctx, const void *text, size_t n,
                                       void *into);
void clsa__text_share_free(clsa__text_share *s);
/* clsa__write_text through s (NULL, or made for another text: as
 * clsa__write_text); a byte outside the sampled alphabet sends the text up
 * as it is.  Safe from several threads and contexts at once. */
clsa_status clsa__write_text_shared(clsa_context *ctx, cl_mem dst, const void *text, size_t n,
                                    clsa__text_share *s);
clsa_status clsa__fill_zero(clsa_context *ctx, cl_mem dst, size_t off, size_t bytes);
clsa_status clsa__copy(clsa_context *ctx, cl_mem src, size_t src_off, cl_mem dst, size_t dst_off,
                       size_t bytes);

/* ---- launches (launch.c) ----------------------------------------------------
 * 1-D launch; global is rounded up to a multiple of local.  Time is charged
 * to ctx->phase when profiling. */
clsa_status clsa__launch(clsa_context *ctx, cl_kernel k, const char *name, size_t global,
                         size_t local);
/* clSetKernelArg with error reporting; CLSA_ARG(k, i, value) for scalars/mem. */
clsa_status clsa__arg(clsa_context *ctx, cl_kernel k, const char *kname, cl_uint i, size_t size,
                      const void *value);
#define CLSA_ARG(ctx, k, kname, i, v) clsa__arg((ctx), (k), (kname), (i), sizeof(v), &(v))
/* Local-memory argument of `bytes`. */
clsa_status clsa__arg_local(clsa_context *ctx, cl_kernel k, const char *kname, cl_uint i,
                            size_t bytes);
clsa_status clsa__finish(clsa_context *ctx);
/* Adds ms (a host-timed step, such as a copy over threads) to `phase` and
 * to the times of `what`. */
void clsa__charge_ms(clsa_context *ctx, int phase, const char *what, double ms);
/* Seconds on a monotonic clock (host-side step times). */
double clsa__now(void);
/* Waits for a profiled command, adds its time to `phase`, releases the event. */
clsa_status clsa__charge_event(clsa_context *ctx, cl_event ev, int phase, const char *what);
/* Sets the phase later launches are charged to; returns the previous one. */
int clsa__set_phase(clsa_context *ctx, int phase);

/* ---- progress and cancellation (progress.c) ---------------------------------
 * A public call's progress runs from 0 to 1.  clsa__lock starts it afresh
 * (the whole call = [0, 1]); a step that runs inside a larger call (the
 * suffix array inside the BWT) is given its slice with clsa__progress_slice
 * and reports its own fraction f in [0, 1], reported as lo + f (hi - lo).
 * clsa__progress returns CLSA_ERR_CANCELLED (message set, queue drained so
 * no kernel still uses the caller's memory) when the callback says stop;
 * the caller unwinds through its clean-up label.  Never call it from a
 * point where the device holds half-written caller data the caller still
 * relies on. */
void clsa__progress_begin(clsa_context *ctx);
void clsa__progress_slice(clsa_context *ctx, double lo, double hi);
clsa_status clsa__progress(clsa_context *ctx, const char *phase, double fraction);
/* The successful end of a public call: reports fraction 1 ("done"). */
clsa_status clsa__progress_end(clsa_context *ctx, clsa_status st);

/* ---- the Oclgrind simulator (oclgrind.c), only where ctx->oclgrind ------------
 * enter/leave: around every call on the context, inside its lock;
 * released_here: before clsa_destroy releases the context; new_buffer: on
 * every buffer clsa makes, host_buffer on one over the caller's memory;
 * copy and write: see below. */
void clsa__oclgrind_enter(clsa_context *ctx);
void clsa__oclgrind_leave(clsa_context *ctx);
void clsa__oclgrind_released_here(clsa_context *ctx);
cl_int clsa__oclgrind_new_buffer(clsa_context *ctx, cl_mem m);
cl_int clsa__oclgrind_host_buffer(clsa_context *ctx, cl_mem m, size_t bytes);
/* copy: clsa__copy's command; write: clsa__write's of part of dst. */
cl_int clsa__oclgrind_copy(clsa_context *ctx, cl_mem src, size_t soff, cl_mem dst, size_t doff,
                           size_t bytes);
cl_int clsa__oclgrind_write(clsa_context *ctx, cl_mem dst, size_t off, const void *src,
                            size_t bytes);

/* ---- page-locked host memory (host_mem.c) ----------------------------------
 * 1 if [p, p + bytes) lies inside one clsa_host_alloc array of a device. */
int clsa__is_pinned(const clsa_context *ctx, const void *p, size_t bytes);
/* A mapped page-locked buffer of bytes, or NULL; its unmapping and release
 * (waits for the commands that use it; a NULL mem frees a malloc'd ptr). */
cl_mem clsa__map_pinned(clsa_context *ctx, size_t bytes, void **ptr);
void clsa__unmap_pinned(clsa_context *ctx, struct clsa_pinned *p);
/* Frees every array clsa_host_alloc gave (clsa_destroy). */
void clsa__host_free_all(clsa_context *ctx);
/* Reads the profiling events still pending into the phase times. */
/* Host time (ms) under name in the kernel table, no phase (profiling). */
void clsa__charge_host(clsa_context *ctx, const char *name, double ms);
void clsa__profile_drain(clsa_context *ctx);

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
/* Tuning defaults from limits, then env CLSA_TUNE overrides (tuning.c). */
void clsa__tuning_init(clsa_tuning *t);

/* Rounds up x to a multiple of m. */
static inline size_t clsa__round_up(size_t x, size_t m) { return (x + m - 1) / m * m; }
static inline size_t clsa__div_up(size_t x, size_t m) { return (x + m - 1) / m; }
/* Number of bits of x: 0 for 0, else floor(log2 x) + 1. */
static inline unsigned clsa__bits_of(uint64_t x)
{
    unsigned b = 0;
    while (x) {
        b++;
        x >>= 1;
    }
    return b;
}

/* 64-bit FNV-1a of n bytes, continuing from h (start: CLSA_FNV_SEED):
 * program cache checksums and the ICD fingerprint; not cryptographic. */
#define CLSA_FNV_SEED 0xcbf29ce484222325ull
static inline uint64_t clsa__fnv1a(const void *data, size_t n, uint64_t h)
{
    const unsigned char *p = (const unsigned char *)data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

#endif

/* Per-device tuning: the clsa_tuning record and its defaults (tuning.c). */
#ifndef CLSA_RT_TUNING_H
#define CLSA_RT_TUNING_H

#include <stddef.h>
#include <stdint.h>

/* Most host threads of a staged copy (staged_copy.c). */
#define CLSA_STAGE_THREADS 16

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
    size_t small_min;         /* byte texts of small_min .. small_max bytes take the
                                 small-input suffix array (host/sa/small.c) */
    size_t small_max;
    size_t small_long;        /* ... unless a group of the initial sort has this
                                 many suffixes or more */
    size_t small_cap;         /* keys of its window sort (a power of two, at most
                                 4096; 0: what local memory holds): tests */
    unsigned small_check;     /* its doubling passes between two reads of the
                                 control words */
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
                                 RADIX_VTILE) in 1 the single pass, 2 both passes'
                                 kinds; 0 they reuse the keys' tile */
    unsigned radix_sub;       /* bits per local split round of the radix tile
                                 ranking, 1..8 (its counter matrix has 2^radix_sub
                                 rows per work-item) */
    size_t r1;                /* S/M boundary: largest group sorted in local memory */
    size_t r2;                /* M/L boundary */
    uint64_t host_threshold;  /* AUTO: inputs shorter than this go to the host */
    unsigned host_par_threads; /* host backend: byte texts sorted by libdivsufsort
                                  below this many threads, else by par_sa.c */
    unsigned host_par_blocks; /* host sorter: the block induction from this many threads
                                 (0: never), else runs of filled entries */
    unsigned zero_copy;       /* host-pointer calls wrap the caller's memory instead of
                                 copying (devices sharing memory with the host: APUs) */
    unsigned sa_path;         /* SA doubling: a mode (CLSA_SA_MODE) and flags
                                 forcing one path or another (clsa_sa_path) */
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
                                 suffixes apart (pd_init.c initial_sort_msd),
                                 0 never, 2 always, 3 as 1 with a sample at any n
                                 (tests) */
    unsigned isa_lazy;        /* SA: after such a sort that sorted its tied ones
                                 apart, the initial ranks of the unsorted
                                 suffixes only, the rest filled as the passes
                                 read them (host/sa/groups.h lazy); 0 never, 2
                                 whenever it ran (tests) */
    unsigned lazy_shift;      /* tests: s > 0 makes a bit of its need bitmap cover
                               * 2^(s - 1) positions (0: by size, pd_lazy.c) */
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
    unsigned skew_tied;       /* algorithm auto: skew where at least this percent of
                               * sampled suffixes share their first skew_window
                               * symbols with another suffix (host/sa/skew_auto.c) */
    unsigned skew_window;     /* that window, symbols */
    uint64_t skew_min;        /* auto: prefix doubling below this many symbols */
    unsigned skew_pick;       /* what auto picks past skew_tied: 2 skew, 3 hybrid */
    uint64_t skew_host;       /* skew: reduced texts shorter than this sorted on the host */
    unsigned runlen_min_run;  /* algorithm auto: runlen where the sampled mean run is at
                               * least this many symbols (0: never) */
    unsigned runlen_floor;    /* runlen: prefix doubling instead below this mean run
                               * (the memory bound; 0: never) */
    unsigned runlen_inner;    /* runlen's reduced text by 0 auto's measurement of
                               * repeats, 1 prefix doubling, 2 skew */
    unsigned pack_once;       /* several devices: 1 the text packed once on the host
                               * for all members' uploads, 0 each packs its own */
    unsigned pool;            /* 1: small scratch buffers are kept and reused within a
                                 public call (buffer.c), 0: created and released each
                                 time */
    unsigned ooc64;           /* 1: the out-of-core path keeps SA/ISA/groups in 64 bits
                                 at any n (tests); else only for n > UINT32_MAX */
    uint64_t ooc_groups;      /* out-of-core: most groups in one batch (0: as many as
                                 the tag bits allow); tests use small values */
    unsigned dc_bwt;          /* BWT by buckets over a difference-cover sample
                                 (host/index/dc_bwt.c): 0 never, 1 where the suffix
                                 array would leave the device, 2 always (tests) */
    uint64_t dc_bwt_bucket;   /* its bucket cap in suffixes (0: what the device holds) */
    unsigned ooc_threads;     /* out-of-core host threads (0: one per core, up to 16);
                                 set, it splits even small loops (tests) */
} clsa_tuning;


/* sa_path: its low two bits force the doubling sorts' mode, the other
 * bits each force or forbid one path (CLSA_TUNE sa_path=NAME+NAME or the
 * sum of their numbers; docs/SA.md says what each path is). */
enum clsa_sa_path {
    CLSA_SA_MODE = 3,             /* 0 auto, else one of the three below */
    CLSA_SA_GLOBAL = 1,           /* "global": one radix sort of all unsorted suffixes */
    CLSA_SA_CLASSES = 2,          /* "classes": by group length class */
    CLSA_SA_GLOBAL_PLAIN = 3,     /* "global_plain": global, never the combined key */
    CLSA_SA_HALF = 4,             /* "half": the half-size working set */
    CLSA_SA_ONE_SYMBOL = 8,       /* "one_symbol": integer alphabets start from h = 1 */
    CLSA_SA_HEADS_GATHER = 16,    /* "heads_gather": heads by old ranks, not marks in u */
    CLSA_SA_PLAIN_INVERT = 32,    /* "plain_invert": ISA by the plain scatter */
    CLSA_SA_FROM_SA = 64,         /* "from_sa": ISA and BWT from the SA, not the ranks */
    CLSA_SA_NO_DIRECT = 128,      /* "no_direct": never direct mode */
    CLSA_SA_LONG_SEGSORT = 256,   /* "long_segsort": long groups by the segmented sort */
    CLSA_SA_DIRECT = 512,         /* "direct": direct mode whatever the 5 iw budget */
    CLSA_SA_RESTORE_RANK = 1024,  /* "restore_rank": global sorts restore groups by rank */
    CLSA_SA_HALVES = 2048,        /* "halves": global sorts in halves and a merge */
    CLSA_SA_SPLIT_GATHER = 4096,  /* "split_gather": the split gathers key2 */
    CLSA_SA_RANK_APART = 8192,    /* "rank_apart": ranks, scan and compaction in 3 launches */
    CLSA_SA_READ_COUNTS = 16384,  /* "read_counts": each pass reads its class counts */
    CLSA_SA_TWO_SORTS = 32768     /* "two_sorts": large groups by two sorts, no joint key */
};

/* One CLSA_TUNE key: the field it sets, how its value is read and bounded. */
typedef enum clsa_tune_kind {
    CLSA_TUNE_NUM,   /* a number, clamped to [lo, hi] */
    CLSA_TUNE_FLAG,  /* any value but 0 is 1 */
    CLSA_TUNE_POW2,  /* rounded down to a power of two */
    CLSA_TUNE_PATH,  /* sa_path: a number or flag names joined by '+' */
    CLSA_TUNE_CAP    /* a number that can only lower the device's value */
} clsa_tune_kind;

typedef struct clsa_tune_key {
    const char *key;
    size_t offset;      /* of the field in clsa_tuning */
    unsigned size;      /* bytes of the field */
    clsa_tune_kind kind;
    int zero_ok;        /* 0 is a value; else CLSA_TUNE's 0 leaves the default */
    uint64_t lo, hi;
    const char *meaning;
} clsa_tune_key;

/* Every key (its table: tuning_keys.c); *count gets their number. */
const clsa_tune_key *clsa__tune_keys(size_t *count);
/* Sets key's field to v, bounded as its row says: 1, else 0 (no such key). */
int clsa__tune_set(clsa_tuning *t, const char *key, uint64_t v);
/* Applies "key=value,key=value" to t: 1, else 0 with why (an unknown key
 * or a value that is not a number) and t as far as it got. */
int clsa__tune_apply(clsa_tuning *t, const char *spec, char *why, size_t cap);
/* Tuning defaults for the device class the limits in t describe, then env
 * CLSA_TUNE's overrides: 1, else 0 with why. */
int clsa__tuning_init(clsa_tuning *t, char *why, size_t cap);

#endif

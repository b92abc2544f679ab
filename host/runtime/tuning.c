/* The per-device tuning record: defaults as rows per device class, each
 * with the measurement that chose it (docs/bench/log), a few sizes
 * derived from device limits, then env CLSA_TUNE="wg=128,r1=1024,..."
 * through the key table (tuning_keys.c). */
#include "tuning.h"
#include "arith.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Device classes a default row applies to. */
enum {
    ANY,      /* every device */
    GPU,      /* CL_DEVICE_TYPE_GPU */
    CPU,      /* not a GPU */
    NV_WARP,  /* a GPU with NVIDIA's 32-lane warps (cl_nv_device_attribute_query) */
    DISCRETE, /* not sharing memory with the host */
    APU       /* a GPU sharing memory with the host */
};

typedef struct default_row {
    int cls;
    const char *key;
    uint64_t value;
    const char *why; /* the run or reason that chose it */
} default_row;

/* Applied in order: a later row of a class the device is in wins. */
static const default_row defaults[] = {
    {ANY, "scan_items", 16, "H100 run 24: 2^28 compaction scan 1.77 -> 1.06 ms at 8 -> 16"},
    {ANY, "scan_serial", 1 << 15, "H200 run 10: text@1M 4.5 / 5.1 ms at 2^15 / 2^16"},
    {ANY, "scan_sums_raw", 256, "a downsweep adds up at most 1 KB of tile sums"},
    {ANY, "radix_bits", 8, "4 passes over u32 keys, ranked in two 4-bit splits"},
    {ANY, "radix_items", 16, "digit table at 1/16 of the keys, a 256-wide tile in ~35 KB"},
    {ANY, "radix_sub", 4, "the tile ranking's counter matrix of 16 rows"},
    {ANY, "radix_reg", 1, "counters packed 8 bits a digit in registers (no run recorded)"},
    {NV_WARP, "radix_warp", 1, "H100 run 17: one 8-bit round by warp match"},
    {ANY, "radix_match", 3, "H100 run 19f: single passes 12.7 -> 12.0 ms (19b: ballots)"},
    {ANY, "radix_shfl", 1, "run 19i: 12.0 -> 11.7 ms"},
    {ANY, "radix_vtile", 1, "run 19b: single pass 13.6 -> 12.7 ms, scatter 12.0 -> 13.4"},
    {ANY, "radix_blind", 0, "CPU devices pay little for a read"},
    {GPU, "radix_blind", 1 << 20, "a pass over 2^20 keys costs about a blocking read"},
    {ANY, "starts_read", 0, "CPU devices always read"},
    {GPU, "starts_read", 1 << 24, "a blocking read costs about a read of 2^24 slots"},
    {ANY, "summary_max", 1 << 18, "H100 run 33e: text@1M +9% with no bound, text@10M -5%"},
    {ANY, "small_min", 1 << 16, "below it the general path's one-work-group sort and few passes"},
    {ANY, "small_max", 1 << 19, "H200 small_bench: text@256K 0.7 / 1.2 ms, text@1M 1.9 / 1.7 (long groups)"},
    {ANY, "small_long", 1 << 15, "one work-group sorts a long group; past this the general path"},
    {ANY, "small_check", 2, "an empty pass costs two launches, a read about four"},
    {ANY, "host_threshold", UINT64_MAX, "cpu_bench.sh: host sorter faster than PoCL on 3 of 4 rows at 16 cores, all at 2"},
    {ANY, "host_par_blocks", 8, "run 43b, 16 threads: blocks 22-30 MB/s, runs 22-25 (within noise)"},
    {ANY, "host_par_threads", 4, "cpu_bench.sh: 20 MB text, 2 threads 5.5 s CPU against libdivsufsort's 2.1 s"},
    {GPU, "host_threshold", 1 << 15, "H200: the device wins from 8-32 KB (BENCHMARKS host fallback)"},
    {APU, "zero_copy", 1, "an integrated GPU reads host memory: no copies"},
    {NV_WARP, "onesweep", 1, "H100 run 19b: 2^28 pairs 15.2 against 16.2 ms"},
    {NV_WARP, "scan_onepass", 1, "run 24: 1.06 against 1.23 ms at 2^28"},
    {ANY, "onesweep_max", UINT64_MAX, "no bound"},
    {ANY, "init_msd", 1, "H100 run 20a: random bytes 100 MB 6.0 -> 9.4 GB/s"},
    {ANY, "isa_lazy", 1, "with init_msd: only the unsorted suffixes' ranks"},
    {ANY, "lookback", 1, "H100 run 35e: 2^28 pairs 10.7 ms at 1, 11.1 at 2"},
    {ANY, "pool", 1, "scratch buffers reused within a call (no run recorded)"},
    {ANY, "copy_threads", 1, "one enqueue unless set (no run recorded)"},
    {ANY, "copy_min", 64 << 20, "below it one enqueue"},
    {DISCRETE, "stage_min", 4 << 20, "H100 run 16b: text@10M 0.0113 -> 0.0104 s against 16 MB"},
    {ANY, "stage_slot", 2 << 20, "run 14d: 2 MiB slots, two a thread"},
    {ANY, "stage_stream", 1, "run 31: 64-bit SA of 1 GB DNA 0.39 -> 0.30 s"},
    {ANY, "pack_bits", 2, "run 14b: 4 bits lost on real DNA at 32 MiB"},
    {ANY, "part_decline", 32, "pd_part.c: exchanges do not pay past n / 32 unsorted"},
    {ANY, "part_sample", 65536, "a sample of 2^16 suffixes"},
    {ANY, "skew_tied", 50, "H200 skew_bench: Fibonacci, Thue-Morse, periodic 2.3-3.1x by skew; mutated 1 MB x 50 0.8x"},
    {ANY, "skew_window", 256, "Thue-Morse has about 3 x 256 such factors: 4096 samples tie"},
    {ANY, "skew_min", 12 << 20, "H200 run 42: the measurement costs about 1-1.5 ms, 20% of text@10M"},
    {ANY, "skew_pick", 2, "skew to the end"},
    {ANY, "skew_host", 4096, "a level's launches and reads cost more than the host's sort below it"},
    {ANY, "runlen_min_run", 4, "no run recorded: n / 4 suffixes left to sort (issue 50's guess)"},
    {ANY, "runlen_floor", 2, "memory: the reduced text's sort of n / 2 symbols fits 20 B/n beside the n arrays"},
    {ANY, "runlen_inner", 0, "the reduced text of a periodic text with runs is periodic: skew where measured so"},
    {ANY, "pack_once", 1, "several devices: one packing for all uploads"},
    {ANY, "dc_bwt", 1, "no 64-bit suffix array in host memory past the device's (issue 44)"},
    {ANY, "sa64_narrow", 1, "32-bit entries halve memory and the download (33 -> 17-20 B/n)"},
};

/* Whether the device t describes is of class cls. */
static int in_class(const clsa_tuning *t, int cls)
{
    switch (cls) {
    case GPU: return t->is_gpu;
    case CPU: return !t->is_gpu;
    case NV_WARP: return t->is_gpu && t->warp_nv == 32;
    case DISCRETE: return !t->host_unified;
    case APU: return t->host_unified && t->is_gpu;
    default: return 1;
    }
}

static void apply_rows(clsa_tuning *t)
{
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
        if (in_class(t, defaults[i].cls)) clsa__tune_set(t, defaults[i].key, defaults[i].value);
}

/* Work-group sizes from the device's limit: 256 suits NVIDIA/AMD/Intel
 * GPUs; on GPUs the 4096-key radix tile as 128 x 32 (H200, 2^28 u32 pairs:
 * 1.27e10 against 9.9e9 pairs/s), with the warp ranking 256 x 20 (H200 run
 * 36b: single passes 8.6 -> 7.7 ms; 64-bit keys fall back in radix_sort.c). */
static void derive_work_groups(clsa_tuning *t)
{
    size_t maxwg = t->max_wg ? t->max_wg : 1;
    t->wg = clsa__pow2_floor(maxwg < 256 ? maxwg : 256);
    t->sort_wg = t->wg;
    if (t->is_gpu && t->sort_wg >= 128) {
        t->sort_wg = 128;
        t->radix_items = 32;
    }
    if (t->radix_warp && t->wg >= 256) {
        t->sort_wg = 256;
        t->radix_items = 20;
    }
}

/* R1: the largest power of two of 12-byte elements (8-byte key, 4-byte
 * index) in half the local memory, so that two work-groups share a compute
 * unit: 2048 with 48 KiB. */
static void derive_group_classes(clsa_tuning *t)
{
    size_t lm = (size_t)(t->local_mem ? t->local_mem : 16384);
    t->r1 = clsa__pow2_floor(lm / 2 / 12);
    if (t->r1 > 2048) t->r1 = 2048;
    if (t->r1 < 16) t->r1 = 16;
    t->r2 = t->r1 * 256;
}

/* Staging threads: all cores up to 8, half of them past 16 cores (H100
 * runs 14b, 26e); packing pays from 4 threads (run 14b: random DNA 100 MB
 * 0.0751 -> 0.0700 s). */
static void derive_host_threads(clsa_tuning *t)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    long half = cores / 2 > CLSA_STAGE_THREADS ? CLSA_STAGE_THREADS : cores / 2;
    t->stage_threads = cores < 1    ? 1
                       : cores <= 8 ? (unsigned)cores
                       : half > 8   ? (unsigned)half
                                    : 8;
    t->pack_min = t->stage_threads < 4 ? 0 : (size_t)8 << 20;
}

int clsa__tuning_init(clsa_tuning *t, char *why, size_t cap)
{
    apply_rows(t);
    derive_work_groups(t);
    derive_group_classes(t);
    derive_host_threads(t);
    const char *env = getenv("CLSA_TUNE");
    return !env || clsa__tune_apply(t, env, why, cap);
}

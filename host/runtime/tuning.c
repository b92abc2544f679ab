/* The per-device tuning record: every size a kernel launch depends on is
 * derived here from device limits, in one place, and can be overridden for
 * experiments with env CLSA_TUNE="wg=128,r1=1024,...". */
#include "runtime.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t pow2_floor(size_t x)
{
    size_t p = 1;
    while (p * 2 <= x) p *= 2;
    return p;
}

static void override(clsa_tuning *t, const char *key, unsigned long long v)
{
    if (!strcmp(key, "wg")) t->wg = pow2_floor(v);
    else if (!strcmp(key, "scan_items")) t->scan_items = v;
    else if (!strcmp(key, "scan_serial")) t->scan_serial = v;
    else if (!strcmp(key, "scan_sums_raw")) t->scan_sums_raw = v;
    else if (!strcmp(key, "sort_wg")) t->sort_wg = pow2_floor(v);
    else if (!strcmp(key, "radix_bits")) t->radix_bits = v < 4 ? 4 : v > 8 ? 8 : (unsigned)v;
    else if (!strcmp(key, "radix_items")) t->radix_items = v;
    else if (!strcmp(key, "radix_reg")) t->radix_reg = v != 0;
    else if (!strcmp(key, "radix_blind")) t->radix_blind = (size_t)v;
    else if (!strcmp(key, "starts_read")) t->starts_read = (size_t)v;
    else if (!strcmp(key, "summary_max")) t->summary_max = (size_t)v;
    else if (!strcmp(key, "radix_warp")) t->radix_warp = v > 2 ? 2 : (unsigned)v;
    else if (!strcmp(key, "radix_match")) t->radix_match = v > 3 ? 3 : (unsigned)v;
    else if (!strcmp(key, "radix_regs")) t->radix_regs = (unsigned)v;
    else if (!strcmp(key, "radix_shfl")) t->radix_shfl = v != 0;
    else if (!strcmp(key, "radix_vtile")) t->radix_vtile = v > 2 ? 2 : (unsigned)v;
    else if (!strcmp(key, "radix_sub")) t->radix_sub = v < 1 ? 1 : v > 8 ? 8 : (unsigned)v;
    else if (!strcmp(key, "r1")) t->r1 = v;
    else if (!strcmp(key, "r2")) t->r2 = v;
    else if (!strcmp(key, "host_threshold")) t->host_threshold = v;
    else if (!strcmp(key, "zero_copy")) t->zero_copy = (unsigned)v;
    else if (!strcmp(key, "sa_path")) t->sa_path = (unsigned)v;
    else if (!strcmp(key, "onesweep")) t->onesweep = v != 0;
    else if (!strcmp(key, "scan_onepass")) t->scan_onepass = v != 0;
    else if (!strcmp(key, "scan_fault")) t->scan_fault = (unsigned)v;
    else if (!strcmp(key, "init_msd")) t->init_msd = v > 3 ? 3 : (unsigned)v;
    else if (!strcmp(key, "isa_lazy")) t->isa_lazy = v > 2 ? 2 : (unsigned)v;
    else if (!strcmp(key, "lazy_shift")) t->lazy_shift = v > 16 ? 16 : (unsigned)v;
    else if (!strcmp(key, "onesweep_fault")) t->onesweep_fault = (unsigned)v;
    else if (!strcmp(key, "onesweep_tables")) t->onesweep_tables = v > 2 ? 2 : (unsigned)v;
    else if (!strcmp(key, "onesweep_max")) t->onesweep_max = (size_t)v;
    else if (!strcmp(key, "lookback")) t->lookback = v < 1 ? 1 : v > 32 ? 32 : (unsigned)v;
    else if (!strcmp(key, "ooc")) t->out_of_core = v != 0;
    else if (!strcmp(key, "pool")) t->pool = v != 0;
    else if (!strcmp(key, "copy_threads")) t->copy_threads = v > 8 ? 8 : (unsigned)v;
    else if (!strcmp(key, "copy_min")) t->copy_min = (size_t)v;
    else if (!strcmp(key, "pack_min")) t->pack_min = (size_t)v;
    else if (!strcmp(key, "pack_bits")) t->pack_bits = (unsigned)v;
    else if (!strcmp(key, "stage_min")) t->stage_min = (size_t)v;
    else if (!strcmp(key, "stage_threads"))
        t->stage_threads = v > CLSA_STAGE_THREADS ? CLSA_STAGE_THREADS : (unsigned)v;
    else if (!strcmp(key, "stage_slot")) t->stage_slot = (size_t)v;
    else if (!strcmp(key, "stage_stream")) t->stage_stream = v != 0;
    else if (!strcmp(key, "part_decline")) t->part_decline = (unsigned)v;
    else if (!strcmp(key, "part_sample")) t->part_sample = (unsigned)v;
    else if (!strcmp(key, "pack_once")) t->pack_once = v != 0;
    else if (!strcmp(key, "sa64_narrow")) t->sa64_narrow = v != 0;
    else if (!strcmp(key, "ooc64")) t->ooc64 = v != 0;
    else if (!strcmp(key, "ooc_groups")) t->ooc_groups = v;
    else if (!strcmp(key, "idle_by")) t->idle_by = v != 0;
    else if (!strcmp(key, "flush")) t->flush = v != 0;
    else if (!strcmp(key, "ooc_threads")) t->ooc_threads = v > 16 ? 16 : (unsigned)v;
    /* a smaller largest allocation than the device's (tests: the routes
     * around CL_DEVICE_MAX_MEM_ALLOC_SIZE at small sizes) */
    else if (!strcmp(key, "max_alloc")) t->max_alloc = v < t->max_alloc ? v : t->max_alloc;
    /* pieces of copies and fills: a multiple of 8 (whole entries) */
    else if (!strcmp(key, "chunk")) t->chunk = v < 8 ? 8 : (size_t)(v / 8 * 8);
}

/* Keys whose value 0 means something (others ignore 0). */
static int zero_allowed(const char *key)
{
    return !strcmp(key, "onesweep") || !strcmp(key, "scan_onepass") || !strcmp(key, "init_msd") || !strcmp(key, "isa_lazy") || !strcmp(key, "scan_serial") || !strcmp(key, "scan_sums_raw") || !strcmp(key, "radix_reg") ||
           !strcmp(key, "radix_blind") || !strcmp(key, "starts_read") ||
           !strcmp(key, "summary_max") || !strcmp(key, "radix_warp") ||
           !strcmp(key, "radix_match") || !strcmp(key, "radix_vtile") ||
           !strcmp(key, "radix_shfl") ||
           !strcmp(key, "pool") || !strcmp(key, "part_decline") || !strcmp(key, "pack_min") ||
           !strcmp(key, "stage_min") || !strcmp(key, "stage_stream") || !strcmp(key, "flush") ||
           !strcmp(key, "part_sample") || !strcmp(key, "pack_once") ||
           !strcmp(key, "sa64_narrow");
}

static void apply_env(clsa_tuning *t)
{
    const char *env = getenv("CLSA_TUNE");
    if (!env) return;
    char buf[512];
    strncpy(buf, env, sizeof buf - 1);
    buf[sizeof buf - 1] = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) continue;
        *eq = 0;
        char *end;
        unsigned long long v = strtoull(eq + 1, &end, 10);
        if (*end == 0 && (v > 0 || zero_allowed(tok))) override(t, tok, v);
    }
}

void clsa__tuning_init(clsa_tuning *t)
{
    size_t maxwg = t->max_wg ? t->max_wg : 1;
    /* 256 is a good 1-D size on NVIDIA/AMD/Intel GPUs; CPUs run one
     * work-group per core at a time, where larger groups amortise barriers. */
    t->wg = pow2_floor(maxwg < 256 ? maxwg : 256);
    /* Scan tiles of 16 values a work-item: the single-pass scan's waits
     * are per tile, so larger tiles hide them (H100, BENCHMARKS.md run 24,
     * a 2^28 compaction's scan: 1.77 ms at 8, 1.06 at 16; reduce-then-scan
     * 1.34 and 1.23). */
    t->scan_items = 16;
    /* One work-group scans 2^15 values in about the time of the three
     * launches the tiled scan needs; from 2^16 on it is slower (H200,
     * BENCHMARKS.md run 10: text@1M 4.5 / 5.1 / 5.4 ms at 2^15 / 2^16 /
     * 2^17, 4.6 ms with the tiled scan only). */
    t->scan_serial = (size_t)1 << 15;
    /* Up to 256 tiles (2^20 values at 4096 a tile), each downsweep
     * work-group adds up the tile sums before its own (at most 1 KB, read
     * from cache) in place of a launch that scans them. */
    t->scan_sums_raw = 256;
    t->sort_wg = t->wg;
    /* 8-bit digits: 4 passes over u32 keys; the tile's local ranking does
     * them as two 4-bit splits, so local memory does not grow with it. */
    t->radix_bits = 8;
    /* Tiles of 16 keys per work-item: the per-pass digit table (2^bits
     * counts per tile) stays at 1/16 of the keys, and the local memory of a
     * 256-wide tile (about 35 KB for u32 pairs) still lets several
     * work-groups share a GPU core; smaller local memories shrink it. */
    t->radix_items = 16;
    t->radix_sub = CLSA_RADIX_SUB_BITS;
    t->radix_reg = 1;
    /* Where the device has 32-lane warps and NVIDIA's compiler (PTX
     * match.any), the scatter ranks a tile in one 8-bit round instead of two
     * 4-bit split rounds (radix_rank.cl rank_warp; docs/BENCHMARKS.md run 17). */
    t->radix_warp = t->is_gpu && t->warp_nv == 32;
    /* Its warp match through a word of local memory a digit, as CUB's
     * (H100, run 19f, 2^28 u32 pairs: single passes 12.7 -> 12.0 ms), not
     * match.any (run 19b: eight ballots took the scatters from 14.6 to
     * 12.0 ms; match.any's time grows with the digits a warp holds). */
    t->radix_match = 3;
    /* Its counters' scan by warp shuffles (run 19i: 12.0 -> 11.7 ms). */
    t->radix_shfl = 1;
    /* The values' own local tile helps the single pass, whose value loads
     * then overlap its look-back (run 19b: 13.6 -> 12.7 ms), and slows the
     * scatter (12.0 -> 13.4): 1 = the single pass only. */
    t->radix_vtile = 1;
    /* On a GPU a pass over 2^20 keys takes about what the blocking read of
     * the key masks costs (the queue drains, the next launch waits for the
     * host), and the SA's small sorts (key2 over bits(n), group numbers)
     * vary in every digit anyway; CPU devices pay little for a read. */
    t->radix_blind = t->is_gpu ? (size_t)1 << 20 : 0;
    /* The single pass saves a read of the slots and two launches over
     * reduce-then-scan; a GPU's blocking read (tens of microseconds, the
     * queue drained) costs about a read of 2^24 slots.  CPU devices (and
     * the tests' forced single passes there) always read. */
    t->starts_read = t->is_gpu ? (size_t)1 << 24 : 0;
    /* The split's class counts (groups.c summary_wanted) probe two words
     * near each new group's head; past about 2^18 groups that costs more
     * than the read it saves (H100, BENCHMARKS.md run 33e: text@1M +9%,
     * text@10M -5% with no bound). */
    t->summary_max = (size_t)1 << 18;
    /* GPUs: the same 4096-key tile as 128 work-items x 32 keys ranks
     * faster (H200, 2^28 u32 pairs: 1.27e10 vs 9.9e9 pairs/s). */
    if (t->is_gpu && t->sort_wg >= 128) {
        t->sort_wg = 128;
        t->radix_items = 32;
    }
    /* The warp ranking keeps no counters per work-item, so the tile takes
     * more work-items with fewer keys each (H100, run 17b, 2^28 u32 pairs:
     * 19.6 against 21.0 ms at 128 x 32; xml.txt@16Mi on the device +14%). */
    if (t->radix_warp && t->wg >= 256) {
        t->sort_wg = 256;
        /* 20 keys (a tile of 5120): fewer tiles to look back over, and
         * with the single pass's counters in the value tile u32 pairs fit
         * 48 KB (H200, BENCHMARKS.md run 36b, 2^28 u32 pairs: single
         * passes 8.6 -> 7.7 ms; 64 registers, still four work-groups a
         * core).  Only where local memory takes it: 64-bit keys fall back
         * to 16 (radix_sort.c). */
        t->radix_items = 20;
    }
    /* S groups are sorted in local memory (bitonic_segsort.cl; the merge
     * passes of merge_segsort.cl use the same tile), which holds a key of
     * up to 8 bytes and a 4-byte index per element: values are gathered
     * from global memory by that index, not carried.  R1 is the largest
     * power of two whose 12-byte elements fit in half the local memory
     * (the other half lets a second work-group run on the compute unit):
     * 2048 with 48 KiB. */
    size_t lm = (size_t)(t->local_mem ? t->local_mem : 16384);
    t->r1 = pow2_floor(lm / 2 / 12);
    if (t->r1 > 2048) t->r1 = 2048;
    if (t->r1 < 16) t->r1 = 16;
    t->r2 = t->r1 * 256;
    /* AUTO sends inputs below this to libdivsufsort on the host.  GPU:
     * measured on an H200 (docs/BENCHMARKS.md, "Host fallback threshold"):
     * with transfers, the device wins from 8-16 KB on random DNA and from
     * 32 KB on English text.  CPU devices: PoCL on the 2-core development
     * machine was slower than libdivsufsort at every size tried, so AUTO
     * keeps them on the host; CLSA_BACKEND=device or host_threshold=
     * overrides for a many-core CPU where that may differ. */
    t->host_threshold = t->is_gpu ? (1u << 15) : UINT64_MAX;
    /* An integrated GPU reads host memory directly: wrapping the caller's
     * arrays saves both copies.  CPU devices share memory too, but there the
     * host backend runs small inputs and a copy is a memcpy; zero_copy=1
     * forces the path (tests use it on PoCL). */
    t->zero_copy = t->host_unified && t->is_gpu;
    /* The single-pass radix sort lets a work-group wait (spin) on tiles of
     * work-groups that took their ticket before it, which needs only that
     * a started work-group keeps running; a wait an implementation cuts
     * short (llvmpipe's loop limit: rusticl's old wrong orders) faults the
     * sort, which reduce-then-scan finishes (radix_onesweep.c).  On where
     * the NVIDIA warp ranking runs: with the ballot match and the value
     * tile the single passes beat the scatters with their histograms and
     * table scans (H100, BENCHMARKS.md run 19b: 2^28 pairs 15.2 against
     * 16.2 ms, 2^24 1.3 against 1.5; run 18j, with match.any: 19.2
     * against 18.7).  Elsewhere unmeasured, so off. */
    t->onesweep = t->radix_warp == 1;
    /* The scans whose total the host reads (the SA's head and keep flags,
     * compactions) in one pass with the same look-back, where the single
     * pass sorts (scan.c; run 24: 1.06 against 1.23 ms at 2^28). */
    t->scan_onepass = t->onesweep;
    t->onesweep_max = SIZE_MAX;
    /* The SA's initial sort by a short key first where it sets most
     * suffixes apart (H100, BENCHMARKS.md run 20a: random bytes 100 MB on
     * the device 6.0 -> 9.4 GB/s, random DNA 3.5 -> 4.8). */
    t->init_msd = 1;
    t->isa_lazy = 1;
    /* Its look-back reads the words of this many tiles at once: one (H100,
     * BENCHMARKS.md run 35e, 2^28 pairs: single passes 10.74 / 10.70 ms at
     * 1 against 11.08 / 11.11 at 2; the SA's rows within their spread).
     * With the 110-register kernel of before, 2 had been faster (runs 18i,
     * 25a). */
    t->lookback = 1;
    t->pool = 1;
    t->copy_threads = 1;
    t->copy_min = (size_t)64 << 20;
    /* Copies of pageable memory run at one core's memcpy rate through the
     * driver's own staging, page-locked memory moves at bus speed: large
     * copies on a device that does not share memory with the host go
     * through page-locked slots that several threads fill and empty
     * (staged_copy.c; H100, BENCHMARKS.md run 14d, plain -> staged and
     * packed: random DNA 1 GB 0.847 -> 0.642 s, text 100 MB 0.125 -> 0.104
     * s).  Slots of 2 MiB, two a thread: 32 MiB of page-locked memory with 8
     * threads, made once a context (page-locking costs about 0.4 ms a MB);
     * 16 threads measured no faster than 8 on a 16-core host (run 14b), so
     * up to 8, or half the cores where that is more: on the 32-core host of
     * two H100s 16 threads took random DNA 1 GB from 0.338-0.357 to
     * 0.297-0.302 s and text 100 MB from 0.075-0.082 to 0.076-0.078 s (run
     * 26e, alternating).
     * From 4 MB: since a copy's pieces are spread over every thread
     * (staged_copy.c piece_of), a 10 MB text goes up through eight threads
     * instead of one driver copy (H100, run 16b: text@10M 0.0113 -> 0.0104 s
     * against a 16 MB threshold).  stage_min=1 forces it (tests, on the
     * CPU devices). */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    long half = cores / 2 > CLSA_STAGE_THREADS ? CLSA_STAGE_THREADS : cores / 2;
    t->stage_threads = cores < 1   ? 1
                       : cores <= 8 ? (unsigned)cores
                       : half > 8   ? (unsigned)half
                                    : 8;
    t->stage_min = t->host_unified ? 0 : (size_t)4 << 20;
    t->stage_slot = (size_t)2 << 20;
    /* 64-bit SA of 1 GB of DNA on one H100 0.39 -> 0.30 s, 32-bit 1-5% (run 31) */
    t->stage_stream = 1;
    /* Staged writes of a text of at most 4 distinct bytes pack it 4 to a
     * byte in the same pass (text_pack.c); one thread packs DNA at about
     * 2 GB/s, so it gains where at least 4 threads pack (H100, run 14b:
     * random DNA 100 MB 0.0751 -> 0.0700 s).  4 bits a byte for up to 16
     * symbols (pack_bits=4) lost on real DNA at 32 MiB (0.0285 -> 0.0308 s). */
    t->pack_min = t->stage_threads < 4 ? 0 : (size_t)8 << 20;
    t->pack_bits = 2;
    t->part_decline = 32;
    t->part_sample = 65536;
    t->pack_once = 1;
    /* The device path counts in 32 bits anyway (n < 2^32): 32-bit entries
     * halve its memory (33 -> 17-20 B/n) and the bus's share of the download */
    t->sa64_narrow = 1;
    /* the out-of-core path: 64-bit host arrays only where n needs them;
     * batches as large as the tags allow; one host thread per core */
    t->ooc64 = 0;
    t->ooc_groups = 0;
    t->ooc_threads = 0;
    apply_env(t);
}

/* CLSA_TUNE's keys as one table: each names the clsa_tuning field it sets,
 * how its value is read and bounded and what it means; the parser, the
 * clamping and docs/TUNING.md (tools/tune_keys.py) all come from it. */
#include "tuning.h"
#include "arith.h"
#include "parse_num.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELD(f) offsetof(clsa_tuning, f), sizeof(((clsa_tuning *)0)->f)
/* key, field, kind, 0 is a value, lo, hi, meaning */
#define NUM(k, f, z, lo, hi, m) {k, FIELD(f), CLSA_TUNE_NUM, z, lo, hi, m}
#define FLAG(k, f, z, m) {k, FIELD(f), CLSA_TUNE_FLAG, z, 0, 1, m}
#define POW2(k, f, m) {k, FIELD(f), CLSA_TUNE_POW2, 0, 1, UINT64_MAX, m}
#define CAP(k, f, lo, m) {k, FIELD(f), CLSA_TUNE_CAP, 0, lo, UINT64_MAX, m}

static const clsa_tune_key key_table[] = {
    POW2("wg", wg, "work-group size of 1-D kernels"),
    NUM("scan_items", scan_items, 0, 0, UINT64_MAX, "items per work-item in scan and compaction tiles (a lone tile: what n needs)"),
    NUM("scan_serial", scan_serial, 1, 0, UINT64_MAX, "scans of up to this many values in one work-group"),
    NUM("scan_sums_raw", scan_sums_raw, 1, 0, UINT64_MAX, "scans of up to this many tiles in two launches"),
    POW2("sort_wg", sort_wg, "work-group size of the radix sort"),
    NUM("radix_bits", radix_bits, 0, 4, 8, "radix sort digit width in bits"),
    NUM("radix_items", radix_items, 0, 0, UINT64_MAX, "keys per work-item of a radix tile (kernel RADIX_ITEMS)"),
    FLAG("radix_reg", radix_reg, 1, "radix ranking counts digits in registers (kernel RADIX_REG)"),
    NUM("radix_blind", radix_blind, 1, 0, UINT64_MAX, "radix sorts of up to this many keys skip the digit read"),
    NUM("starts_read", starts_read, 1, 0, UINT64_MAX, "a doubling pass reads its heads' total from this many slots"),
    NUM("small_min", small_min, 1, 0, UINT64_MAX, "byte texts from this many bytes take the small-input SA"),
    NUM("small_max", small_max, 1, 0, 1 << 24, "byte texts up to this many bytes take the small-input SA (0: never)"),
    NUM("small_long", small_long, 0, 2, UINT64_MAX, "small-input SA: a group this long after the initial sort sends the text to the general path"),
    NUM("small_cap", small_cap, 1, 0, 4096, "small-input SA: keys of the window sort (0: what local memory holds; tests)"),
    NUM("small_check", small_check, 0, 1, 64, "small-input SA: doubling passes between two reads"),
    NUM("summary_max", summary_max, 1, 0, UINT64_MAX, "the split counts new groups by class up to this many"),
    NUM("radix_warp", radix_warp, 1, 0, 2, "ranking: 0 split rounds, 1 warp match (NVIDIA), 2 emulated (kernel RADIX_WARP)"),
    NUM("radix_match", radix_match, 1, 0, 3, "warp match: 0 match.any, 1 ballots, 2 redux, 3 local word (kernel RADIX_MATCH)"),
    NUM("radix_regs", radix_regs, 0, 0, UINT32_MAX, "NVIDIA register cap of the radix programs"),
    FLAG("radix_shfl", radix_shfl, 1, "warp ranking's counter scan by shuffles (kernel RADIX_SHFL)"),
    NUM("radix_vtile", radix_vtile, 1, 0, 2, "values' own local tile: 1 single pass, 2 both (kernel RADIX_VTILE)"),
    NUM("radix_sub", radix_sub, 0, 1, 8, "bits per local split round of the ranking (kernel RADIX_SUB)"),
    NUM("r1", r1, 0, 0, UINT64_MAX, "largest group sorted in local memory"),
    NUM("r2", r2, 0, 0, UINT64_MAX, "largest group of the middle class"),
    NUM("host_threshold", host_threshold, 0, 0, UINT64_MAX, "AUTO: inputs shorter than this go to the host"),
    NUM("host_par_threads", host_par_threads, 0, 0, UINT32_MAX, "host backend: byte texts below this many threads go to libdivsufsort"),
    NUM("host_par_blocks", host_par_blocks, 0, 0, UINT32_MAX, "host sorter: the block induction from this many threads (0: never)"),
    NUM("zero_copy", zero_copy, 0, 0, UINT32_MAX, "host-pointer calls wrap the caller's memory"),
    {"sa_path", FIELD(sa_path), CLSA_TUNE_PATH, 0, 0, UINT32_MAX,
     "SA doubling paths forced: a number or names joined by + (clsa_sa_path)"},
    FLAG("onesweep", onesweep, 1, "radix sort by a single pass with look-back"),
    FLAG("scan_onepass", scan_onepass, 1, "scans of flags with a total in a single pass"),
    NUM("scan_fault", scan_fault, 0, 0, UINT32_MAX, "tests: tile t - 1 of every single-pass scan faults"),
    NUM("init_msd", init_msd, 1, 0, 3, "SA initial sort by a short key first: 0 never, 1 auto, 2 always, 3 any n"),
    NUM("isa_lazy", isa_lazy, 1, 0, 2, "initial ranks of the unsorted suffixes only: 0 never, 1 auto, 2 always"),
    NUM("lazy_shift", lazy_shift, 0, 0, 16, "tests: a need bit covers 2^(s - 1) positions"),
    NUM("onesweep_fault", onesweep_fault, 0, 0, UINT32_MAX, "tests: single pass p - 1 faults (kernel ONESWEEP_FAULT)"),
    NUM("onesweep_tables", onesweep_tables, 0, 0, 2, "look-back tables: 0 auto, 1 one for all, 2 one a pass"),
    NUM("onesweep_max", onesweep_max, 0, 0, UINT64_MAX, "the single pass only below this many keys"),
    NUM("lookback", lookback, 0, 1, 32, "tiles whose words one look-back reads at once (kernel LOOKBACK)"),
    FLAG("ooc", out_of_core, 0, "host-pointer device SAs always take the out-of-core path"),
    FLAG("pool", pool, 1, "small scratch buffers kept and reused within a call"),
    NUM("copy_threads", copy_threads, 0, 0, 8, "host threads and queues of a large copy"),
    NUM("copy_min", copy_min, 0, 0, UINT64_MAX, "copies over threads from this many bytes"),
    NUM("pack_min", pack_min, 1, 0, UINT64_MAX, "texts of few symbols go up packed from this many bytes"),
    NUM("pack_bits", pack_bits, 0, 0, UINT32_MAX, "bits a symbol of a packed text: 1, 2 or 4"),
    NUM("stage_min", stage_min, 1, 0, UINT64_MAX, "copies through page-locked slots from this many bytes"),
    NUM("stage_threads", stage_threads, 0, 0, CLSA_STAGE_THREADS, "host threads of a staged copy"),
    NUM("stage_slot", stage_slot, 0, 0, UINT64_MAX, "bytes of one page-locked slot"),
    FLAG("stage_stream", stage_stream, 1, "staged reads empty slots by streaming stores"),
    NUM("part_decline", part_decline, 1, 0, UINT32_MAX, "several devices: one builds it all past n / this unsorted"),
    NUM("part_sample", part_sample, 1, 0, UINT32_MAX, "suffixes sampled for that before sorting"),
    NUM("skew_tied", skew_tied, 1, 0, 101, "algorithm auto: skew from this percent of sampled suffixes sharing a window"),
    NUM("skew_window", skew_window, 0, 1, 1 << 20, "auto: that window (a prefix), in symbols"),
    NUM("skew_min", skew_min, 1, 0, UINT64_MAX, "auto: prefix doubling below this many symbols"),
    NUM("skew_pick", skew_pick, 0, 2, 3, "auto past skew_tied: 2 skew, 3 hybrid"),
    NUM("skew_host", skew_host, 1, 0, UINT32_MAX, "skew, runlen: reduced texts shorter than this sorted on the host"),
    NUM("runlen_min_run", runlen_min_run, 1, 0, UINT32_MAX, "algorithm auto: runlen from this sampled mean run (symbols)"),
    NUM("runlen_floor", runlen_floor, 1, 0, UINT32_MAX, "runlen: prefix doubling below this mean run (memory bound)"),
    NUM("runlen_inner", runlen_inner, 1, 0, 2, "runlen's reduced text: 0 measured, 1 doubling, 2 skew"),
    FLAG("pack_once", pack_once, 1, "several devices: the text packed once for all uploads"),
    FLAG("sa64_narrow", sa64_narrow, 1, "64-bit SAs of n < 2^32 built in 32 bits, widened on the way down"),
    FLAG("ooc64", ooc64, 0, "out of core: 64-bit arrays at any n (tests)"),
    NUM("ooc_groups", ooc_groups, 0, 0, UINT64_MAX, "out of core: most groups in one batch"),
    FLAG("idle_by", idle_by, 0, "profiles: the device's idle time by the commands around it"),
    FLAG("flush", flush, 1, "clFlush after every kernel launch"),
    NUM("dc_bwt", dc_bwt, 1, 0, 2, "BWT by buckets over a difference-cover sample: 0 never, 1 past the device's memory, 2 always"),
    NUM("dc_bwt_bucket", dc_bwt_bucket, 1, 0, UINT32_MAX, "that route's bucket cap in suffixes (0: what the device holds; tests)"),
    NUM("ooc_threads", ooc_threads, 0, 0, 16, "out of core: host threads (0: one a core)"),
    CAP("max_alloc", max_alloc, 1, "tests: a largest allocation below the device's (routes around it at small sizes)"),
    NUM("chunk", chunk, 0, 8, UINT64_MAX, "bytes of a piece of every copy and fill, rounded down to 8 (0: 1 GiB)"),
};

const clsa_tune_key *clsa__tune_keys(size_t *count)
{
    *count = sizeof key_table / sizeof key_table[0];
    return key_table;
}

static const struct {
    const char *name;
    unsigned bits;
} path_names[] = {
    {"global", CLSA_SA_GLOBAL},           {"classes", CLSA_SA_CLASSES},
    {"global_plain", CLSA_SA_GLOBAL_PLAIN}, {"half", CLSA_SA_HALF},
    {"one_symbol", CLSA_SA_ONE_SYMBOL},   {"heads_gather", CLSA_SA_HEADS_GATHER},
    {"plain_invert", CLSA_SA_PLAIN_INVERT}, {"from_sa", CLSA_SA_FROM_SA},
    {"no_direct", CLSA_SA_NO_DIRECT},     {"long_segsort", CLSA_SA_LONG_SEGSORT},
    {"direct", CLSA_SA_DIRECT},           {"restore_rank", CLSA_SA_RESTORE_RANK},
    {"halves", CLSA_SA_HALVES},           {"split_gather", CLSA_SA_SPLIT_GATHER},
    {"rank_apart", CLSA_SA_RANK_APART},   {"read_counts", CLSA_SA_READ_COUNTS},
    {"two_sorts", CLSA_SA_TWO_SORTS},
};

static const clsa_tune_key *find_key(const char *name)
{
    for (size_t i = 0; i < sizeof key_table / sizeof key_table[0]; i++)
        if (!strcmp(key_table[i].key, name)) return &key_table[i];
    return NULL;
}

/* One number, all of s (clsa__parse_u64's plain form): 1, else 0. */
static int number(const char *s, unsigned long long *v)
{
    uint64_t u;
    char why[96];
    if (clsa__parse_u64(s, CLSA_NUM_PLAIN, 0, UINT64_MAX, &u, why, sizeof why)) return 0;
    *v = u;
    return 1;
}

/* sa_path's value: a number or names (or numbers) joined by '+'. */
static int path_value(const char *s, unsigned long long *v)
{
    *v = 0;
    while (*s) {
        size_t len = strcspn(s, "+"), i = 0;
        char part[32];
        unsigned long long n;
        if (!len || len >= sizeof part) return 0;
        memcpy(part, s, len);
        part[len] = 0;
        while (i < sizeof path_names / sizeof path_names[0] && strcmp(path_names[i].name, part)) i++;
        if (i < sizeof path_names / sizeof path_names[0]) *v |= path_names[i].bits;
        else if (number(part, &n)) *v |= n;
        else return 0;
        s += len + (s[len] == '+');
    }
    return 1;
}

/* Stores v, bounded as k says, into k's field of t. */
static void set_field(clsa_tuning *t, const clsa_tune_key *k, uint64_t v)
{
    if (k->kind == CLSA_TUNE_FLAG) v = v != 0;
    if (k->kind == CLSA_TUNE_POW2) v = clsa__pow2_floor(v);
    v = v < k->lo ? k->lo : v > k->hi ? k->hi : v;
    char *f = (char *)t + k->offset;
    if (k->kind == CLSA_TUNE_CAP) {
        uint64_t old = 0;
        memcpy(&old, f, k->size);
        if (v > old) v = old;
    }
    if (k->size == 4) {
        uint32_t w = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
        memcpy(f, &w, 4);
    } else {
        memcpy(f, &v, 8);
    }
}

int clsa__tune_set(clsa_tuning *t, const char *key, uint64_t v)
{
    const clsa_tune_key *k = find_key(key);
    if (k) set_field(t, k, v);
    return k != NULL;
}

/* One "key=value": 1, else 0 and why. */
static int apply_one(clsa_tuning *t, char *tok, char *why, size_t cap)
{
    char *eq = strchr(tok, '=');
    if (eq) *eq = 0;
    const clsa_tune_key *k = find_key(tok);
    unsigned long long v;
    if (!k) {
        snprintf(why, cap, "CLSA_TUNE: unknown key '%s' (docs/TUNING.md lists them)", tok);
        return 0;
    }
    if (!eq || !(k->kind == CLSA_TUNE_PATH ? path_value(eq + 1, &v) : number(eq + 1, &v))) {
        snprintf(why, cap, "CLSA_TUNE: %s wants %s", tok,
                 k->kind == CLSA_TUNE_PATH ? "a number or names joined by +" : "a number");
        return 0;
    }
    if (v > 0 || k->zero_ok) set_field(t, k, v);
    return 1;
}

int clsa__tune_apply(clsa_tuning *t, const char *spec, char *why, size_t cap)
{
    char *buf = strdup(spec), *save = NULL;
    int ok = buf != NULL;
    if (!ok) snprintf(why, cap, "CLSA_TUNE: out of host memory");
    for (char *tok = ok ? strtok_r(buf, ",", &save) : NULL; tok && ok;
         tok = strtok_r(NULL, ",", &save))
        ok = apply_one(t, tok, why, cap);
    free(buf);
    return ok;
}

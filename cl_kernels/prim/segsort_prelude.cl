/* Prelude of the segmented sort family (bitonic_segsort.cl,
 * merge_segsort.cl and their dispatcher segmented_sort.cl): element types,
 * the float key order and segment lengths.  Prepended by the host (clsa__kernel "segsort_prelude+...").
 *
 * Build options (host/prim/segsort_layout.c, clsa__segsort_options):
 * KEY_BYTES 4|8, VAL_BYTES 0|4|8, KEY_FLOAT (keys are floats: order of
 * their flipped bits), SEG_CSR (segment s = [offs[s], offs[s+1])), TILE and
 * WG (powers of two, TILE >= 2 WG). */
#if KEY_BYTES == 8
typedef ulong key_t;
#define KEY_MAX 0xFFFFFFFFFFFFFFFFUL
#else
typedef uint key_t;
#define KEY_MAX 0xFFFFFFFFu
#endif
#if VAL_BYTES == 8
typedef ulong val_t;
#else
typedef uint val_t;
#endif
#define HAS_VALUES (VAL_BYTES != 0)
#define ITEMS (TILE / WG)

/* Floats: flip to an unsigned order (negatives reversed below positives). */
static key_t key_in(key_t k)
{
#if KEY_FLOAT
    return k ^ ((k >> 31) ? 0xFFFFFFFFu : 0x80000000u);
#else
    return k;
#endif
}

static key_t key_out(key_t k)
{
#if KEY_FLOAT
    return k ^ ((k >> 31) ? 0x80000000u : 0xFFFFFFFFu);
#else
    return k;
#endif
}

static ulong seg_len(const __global idx_t *offs, const __global idx_t *lens, ulong s)
{
#if SEG_CSR
    (void)lens;
    return (ulong)offs[s + 1] - (ulong)offs[s];
#else
    (void)offs;
    return lens[s];
#endif
}

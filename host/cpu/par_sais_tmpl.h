/* Parallel SA-IS (induced sorting of the LMS substrings, recursion on
 * their names), instantiated by par_sa.c for each (symbol, index) pair:
 *   SYM   symbol type of the text (unsigned at the top, IDX below)
 *   IDX   signed index type of the suffix array
 *   FN(x) the instance's name for x; REC(x) the reduced texts' instance
 * No type array: a suffix's type comes from the symbols (scans from the
 * right) or, inside the suffix array, from its place in its bucket.  The
 * sentinel is virtual: suffix n-1 is L-type.  The induction scans flag
 * the entries whose predecessor is S-type (see FLAG): on one thread each
 * entry's predecessor is placed at once; on several, in runs of filled
 * entries (whatever a run places lands outside it), the threads step their
 * shares, then place them from per-thread, per-symbol offsets (small
 * alphabets) or from destinations computed in order.  Stage 1 from n >=
 * IDX_MAX / 2 goes unflagged in blocks: the threads read each block's
 * entries and their preceding symbols, then the caller places them in
 * order, redoing the entries that land inside the block being placed. */

typedef struct FN(lv) {
    const SYM *t;
    IDX *sa, n, k;
    IDX *head; /* k + 1 bucket starts */
    IDX *sstart; /* where each bucket's S-type suffixes start */
    IDX *b; /* bucket pointers of the scan under way */
    clsa_par_env *env;
    IDX lo, hi; /* the block under way */
    IDX *cq; /* per block entry: the suffix to place, or -1 */
    SYM *cs; /* and its first symbol */
    IDX *cd; /* and where it goes when outside the block (else -1) */
    int defer; /* the block's writes outside it by the threads (cd) */
    int scan_l; /* the scan under way: L (1) or S */
    int mark; /* the S scan marks (stage 1) */
    IDX *cnt; /* runs: per thread, a count or offset of each symbol */
    int parts; /* chunks of the text scans (one a thread) */
    IDX lms[CLSA_PAR_MAX_THREADS], first[CLSA_PAR_MAX_THREADS]; /* per chunk: LMS
                 suffixes, the leftmost one (-1: none) */
    IDX *hist; /* per chunk: 3 k counters (symbols, S-type, LMS), or NULL */
    IDX m; /* LMS suffixes (naming: lengths at sa[m + p/2]) */
} FN(lv);

/* Type of suffix i (1: S) from the symbols after it. */
static int FN(type_at)(const SYM *t, IDX n, IDX i)
{
    while (i + 1 < n && t[i] == t[i + 1]) i++;
    return i + 1 < n && t[i] < t[i + 1];
}

/* Chunk `part` of the text scans. */
static void FN(chunk)(const FN(lv) *L, int part, IDX *a, IDX *z)
{
    *a = (IDX)((int64_t)L->n * part / L->parts);
    *z = (IDX)((int64_t)L->n * (part + 1) / L->parts);
}

/* BODY for every LMS suffix x of [a, z), right to left (x in a variable
 * named x). */
#define LMS_SCAN(L, a, z, BODY)                                                                 \
    do {                                                                                        \
        const SYM *t_ = (L)->t;                                                                 \
        if ((a) >= (z)) break;                                                                  \
        int s_ = FN(type_at)(t_, (L)->n, (z) - 1);                                              \
        for (IDX i_ = (z) - 2; i_ >= ((a) > 0 ? (a) - 1 : 0); i_--) {                           \
            int was_ = s_;                                                                      \
            if (t_[i_] != t_[i_ + 1]) s_ = t_[i_] < t_[i_ + 1];                                 \
            if (was_ && !s_) {                                                                  \
                IDX x = i_ + 1;                                                                 \
                BODY;                                                                           \
            }                                                                                   \
        }                                                                                       \
    } while (0)

static void FN(run_parts)(FN(lv) *L, clsa_pool_fn fn)
{
    if (L->parts > 1) clsa__pool_run(L->env->pool, fn, L);
    else fn(L, 0, 1);
}

/* Per chunk: its LMS suffixes and the leftmost. */
static void FN(lms_info)(void *arg, int tid, int threads)
{
    FN(lv) *L = arg;
    IDX a, z, c = 0, f = -1;
    (void)threads;
    FN(chunk)(L, tid, &a, &z);
    LMS_SCAN(L, a, z, (c++, f = x));
    L->lms[tid] = c;
    L->first[tid] = f;
}

/* Per chunk: symbol, S-type and LMS counts (hist). */
static void FN(count_part)(void *arg, int tid, int threads)
{
    FN(lv) *L = arg;
    const SYM *t = L->t;
    IDX a, z, k = L->k, *h = L->hist + (size_t)tid * 3 * (size_t)k;
    (void)threads;
    FN(chunk)(L, tid, &a, &z);
    memset(h, 0, 3 * (size_t)k * sizeof(IDX));
    if (a >= z) return;
    int s = FN(type_at)(t, L->n, z - 1);
    for (IDX i = z - 1; i >= a; i--) {
        if (i < z - 1 && t[i] != t[i + 1]) s = t[i] < t[i + 1];
        h[t[i]]++;
        h[k + t[i]] += s;
    }
    LMS_SCAN(L, a, z, h[2 * k + t[x]]++);
}

/* Per chunk: its LMS suffixes at the ends of their buckets, below those
 * of the chunks after it (hist's LMS counters turned into ends). */
static void FN(place_part)(void *arg, int tid, int threads)
{
    FN(lv) *L = arg;
    IDX a, z, *e = L->hist + (size_t)tid * 3 * (size_t)L->k + 2 * (size_t)L->k;
    (void)threads;
    FN(chunk)(L, tid, &a, &z);
    LMS_SCAN(L, a, z, L->sa[--e[L->t[x]]] = x);
}

/* Bucket starts and the S-type starts: from the chunks' counters (hist),
 * else one scan from the right. */
static void FN(buckets)(FN(lv) *L)
{
    const SYM *t = L->t;
    IDX n = L->n, k = L->k;
    memset(L->head, 0, ((size_t)k + 1) * sizeof(IDX));
    memset(L->sstart, 0, (size_t)k * sizeof(IDX));
    if (L->hist) {
        FN(run_parts)(L, FN(count_part));
        for (int p = 0; p < L->parts; p++)
            for (IDX c = 0, *h = L->hist + (size_t)p * 3 * (size_t)k; c < k; c++) {
                L->head[c + 1] += h[c];
                L->sstart[c] += h[k + c];
            }
    } else {
        int s = 0;
        for (IDX i = n - 1; i >= 0; i--) {
            if (i + 1 < n && t[i] != t[i + 1]) s = t[i] < t[i + 1];
            L->head[t[i] + 1]++;
            L->sstart[t[i]] += s;
        }
    }
    for (IDX c = 0; c < k; c++) {
        L->head[c + 1] += L->head[c];
        L->sstart[c] = L->head[c + 1] - L->sstart[c];
    }
}

/* ---- block-wise induction ------------------------------------------- */

/* The entry at i of the L scan: its predecessor to place when L-type. */
static inline void FN(gather_l_at)(FN(lv) *L, IDX i)
{
    IDX p = L->sa[i];
    IDX j = i - L->lo;
    L->cq[j] = -1;
    if (p > 0 && L->t[p - 1] >= L->t[p]) {
        L->cq[j] = p - 1;
        L->cs[j] = L->t[p - 1];
    }
}

/* The entry at i of the S scan: its predecessor to place when S-type
 * (equal symbols: when the suffix itself lies in its bucket's S part);
 * -2 for an LMS suffix (S-type, larger predecessor), else -1. */
static inline void FN(gather_s_at)(FN(lv) *L, IDX i)
{
    IDX p = L->sa[i];
    IDX j = i - L->lo;
    L->cq[j] = -1;
    if (p <= 0) return;
    SYM c = L->t[p], d = L->t[p - 1];
    int s = i >= L->sstart[c];
    if (d < c || (d == c && s)) {
        L->cq[j] = p - 1;
        L->cs[j] = d;
    } else if (s) {
        L->cq[j] = -2;
    }
}

/* The share of [lo, hi) of thread tid. */
static void FN(share)(IDX lo, IDX hi, int tid, int threads, IDX *a, IDX *z)
{
    IDX len = hi - lo;
    *a = lo + (IDX)((int64_t)len * tid / threads);
    *z = lo + (IDX)((int64_t)len * (tid + 1) / threads);
}

/* A thread's share of the block's entries (the L or the S scan). */
static void FN(gather_part)(void *arg, int tid, int threads)
{
    FN(lv) *L = arg;
    IDX a, z;
    FN(share)(L->lo, L->hi, tid, threads, &a, &z);
    for (IDX i = a; i < z; i++) {
        if (i + PF_DIST < z) PREFETCH(&L->t[L->sa[i + PF_DIST] - 1]);
        if (L->scan_l) FN(gather_l_at)(L, i);
        else FN(gather_s_at)(L, i);
    }
}

/* The destination of entry i's suffix q: written now inside the block
 * (and its entry redone by redo), else now or by scatter (defer). */
#define PLACE(j, inside, redo)                                                                  \
    do {                                                                                        \
        L->cd[i - lo] = -1;                                                                     \
        if (inside) {                                                                           \
            sa[j] = q;                                                                          \
            redo(L, j);                                                                         \
        } else if (L->defer) {                                                                  \
            L->cd[i - lo] = j;                                                                  \
        } else {                                                                                \
            sa[j] = q;                                                                          \
        }                                                                                       \
    } while (0)

/* Place the block's L-type predecessors in scan order. */
static void FN(place_l)(FN(lv) *L)
{
    IDX lo = L->lo, hi = L->hi, *sa = L->sa, *b = L->b;
    for (IDX i = lo; i < hi; i++) {
        IDX q = L->cq[i - lo];
        if (q < 0) {
            L->cd[i - lo] = -1;
            continue;
        }
        IDX j = b[L->cs[i - lo]]++;
        PLACE(j, j < hi, FN(gather_l_at));
    }
}

/* The deferred writes of a block, shared out. */
static void FN(scatter)(void *arg, int tid, int threads)
{
    FN(lv) *L = arg;
    IDX a, z;
    FN(share)(0, L->hi - L->lo, tid, threads, &a, &z);
    for (IDX i = a; i < z; i++)
        if (L->cd[i] >= 0) L->sa[L->cd[i]] = L->cq[i];
}

/* The same right to left; mark: every entry left final that is not an LMS
 * suffix becomes ~p (stage 1's compaction keeps the others). */
static void FN(place_s)(FN(lv) *L, int mark)
{
    IDX lo = L->lo, hi = L->hi, *sa = L->sa, *b = L->b;
    for (IDX i = hi - 1; i >= lo; i--) {
        IDX q = L->cq[i - lo];
        if (mark && q != -2) sa[i] = ~sa[i];
        if (q < 0) {
            L->cd[i - lo] = -1;
            continue;
        }
        IDX j = --b[L->cs[i - lo]];
        PLACE(j, j >= lo, FN(gather_s_at));
    }
}

/* Blocks of a scan: several threads only where there is work enough;
 * then the writes outside the block are theirs too. */
static void FN(gather)(FN(lv) *L, int scan_l)
{
    clsa_pool_fn fn = FN(gather_part);
    L->scan_l = scan_l;
    L->defer = (size_t)(L->hi - L->lo) * 16 >= L->env->grain &&
               clsa__pool_threads(L->env->pool) > 1;
    if (L->defer) clsa__pool_run(L->env->pool, fn, L);
    else fn(L, 0, 1);
}

static void FN(scatter_block)(FN(lv) *L)
{
    if (L->defer) clsa__pool_run(L->env->pool, FN(scatter), L);
}

/* ---- flagged scans: one thread, or runs of filled entries ------------ */

/* An entry these scans place carries a flag (the sign bit, FLAG) when its
 * predecessor is S-type, so each scan reads the text only for the entries
 * whose predecessor it places.  Entries are >= 0 (placed, predecessor
 * L-type or none), FLAG | p, or -1 (empty); stage 1's S scan also leaves
 * the LMS suffixes it places as ~p (in [-n, -2], below every flagged
 * entry while n < IDX_MAX / 2) and flips every entry it passes, so that
 * the entries left >= 0 are the LMS suffixes (see place_s). */
#define FLAG (-IDX_MAX - 1)

/* Entry i of the L scan: 1 with its predecessor to place (*q, flagged)
 * and that one's symbol (*c), else 0. */
static inline int FN(step_l)(const SYM *t, const IDX *sa, IDX i, IDX *q, SYM *c)
{
    IDX p = sa[i] - 1;
    if (p < 0) return 0;
    *c = t[p];
    *q = p | (p > 0 && t[p - 1] < *c ? FLAG : 0);
    return 1;
}

/* Entry i of the S scan, unflagged (or flipped: mark) in place; the same. */
static inline int FN(step_s)(const SYM *t, IDX *sa, IDX n, int mark, IDX i, IDX *q, SYM *c)
{
    IDX p = sa[i];
    if (mark) {
        sa[i] = ~p;
        if (p >= -n) return 0;
        p &= IDX_MAX;
        sa[i] = ~p--;
        *c = t[p];
        *q = p == 0 ? 0 : t[p - 1] <= *c ? p | FLAG : ~p;
        return 1;
    }
    if (p >= -1) return 0;
    p &= IDX_MAX;
    sa[i] = p--;
    *c = t[p];
    *q = p | (p > 0 && t[p - 1] <= *c ? FLAG : 0);
    return 1;
}

/* Prefetch the text of the entry at i, flag or not. */
#define PF_ENTRY(t, sa, i) PREFETCH(&(t)[((sa)[i] & IDX_MAX) - 2])

/* The L scan over [lo, hi) on one thread, each predecessor placed at once. */
static void FN(flag_l)(FN(lv) *L, IDX lo, IDX hi)
{
    const SYM *t = L->t;
    IDX q, *sa = L->sa, *b = L->b;
    SYM c;
    for (IDX i = lo; i < hi; i++) {
        if (i + PF_DIST < hi) PF_ENTRY(t, sa, i + PF_DIST);
        if (FN(step_l)(t, sa, i, &q, &c)) sa[b[c]++] = q;
    }
}

/* The S scan over [lo, hi), right to left (mark: a constant). */
static inline void FN(flag_s_as)(FN(lv) *L, IDX lo, IDX hi, int mark)
{
    const SYM *t = L->t;
    IDX q, *sa = L->sa, *b = L->b, n = L->n;
    SYM c;
    for (IDX i = hi - 1; i >= lo; i--) {
        if (i - PF_DIST >= lo) PF_ENTRY(t, sa, i - PF_DIST);
        if (FN(step_s)(t, sa, n, mark, i, &q, &c)) sa[--b[c]] = q;
    }
}

static void FN(flag_s)(FN(lv) *L, IDX lo, IDX hi)
{
    if (L->mark) FN(flag_s_as)(L, lo, hi, 1);
    else FN(flag_s_as)(L, lo, hi, 0);
}

/* A thread's share of the run: each entry's step into the block cache
 * (cq, -1: none; cs), and its count of each symbol (cnt, k a thread, when
 * the alphabet is small). */
static inline void FN(count_as)(FN(lv) *L, int tid, int threads, int scan, int mark)
{
    const SYM *t = L->t;
    IDX a, z, q, *cnt = L->cnt + (size_t)tid * (size_t)L->k, lo = L->lo, *sa = L->sa, n = L->n;
    IDX *cq = L->cq;
    SYM c = 0, *cs = L->cs;
    FN(share)(L->lo, L->hi, tid, threads, &a, &z);
    if (L->cnt) memset(cnt, 0, (size_t)L->k * sizeof(IDX));
    for (IDX i = a; i < z; i++) {
        if (i + PF_DIST < z) PF_ENTRY(t, sa, i + PF_DIST);
        int go = scan ? FN(step_l)(t, sa, i, &q, &c) : FN(step_s)(t, sa, n, mark, i, &q, &c);
        cq[i - lo] = go ? q : -1;
        cs[i - lo] = c;
        if (L->cnt) cnt[c] += go;
    }
}

static void FN(run_count)(void *arg, int tid, int threads)
{
    FN(lv) *L = arg;
    if (L->scan_l) FN(count_as)(L, tid, threads, 1, 0);
    else if (L->mark) FN(count_as)(L, tid, threads, 0, 1);
    else FN(count_as)(L, tid, threads, 0, 0);
}
#undef PF_ENTRY

/* The counts turned into each thread's first destination in each bucket:
 * threads in scan order, the L scan upwards, the S scan downwards. */
static void FN(run_offsets)(FN(lv) *L, int threads)
{
    IDX k = L->k, *b = L->b;
    for (int p = 0; p < threads; p++) {
        IDX *cnt = L->cnt + (size_t)(L->scan_l ? p : threads - 1 - p) * (size_t)k;
        for (IDX c = 0; c < k; c++) {
            IDX v = cnt[c];
            cnt[c] = b[c];
            b[c] += L->scan_l ? v : -v;
        }
    }
}

/* Large alphabets: each entry's destination (cd) in scan order. */
static void FN(run_dest)(FN(lv) *L)
{
    IDX len = L->hi - L->lo, *b = L->b, *cq = L->cq, *cd = L->cd;
    if (L->scan_l) {
        for (IDX j = 0; j < len; j++)
            if (cq[j] != -1) cd[j] = b[L->cs[j]]++;
        return;
    }
    for (IDX j = len - 1; j >= 0; j--)
        if (cq[j] != -1) cd[j] = --b[L->cs[j]];
}

/* A thread's share placed from its offsets, or from cd. */
static void FN(run_place)(void *arg, int tid, int threads)
{
    FN(lv) *L = arg;
    IDX a, z, *cnt = L->cnt + (size_t)tid * (size_t)L->k, *sa = L->sa, lo = L->lo;
    FN(share)(L->lo, L->hi, tid, threads, &a, &z);
    if (!L->cnt) {
        for (IDX i = a; i < z; i++)
            if (L->cq[i - lo] != -1) sa[L->cd[i - lo]] = L->cq[i - lo];
        return;
    }
    if (L->scan_l) {
        for (IDX i = a; i < z; i++)
            if (L->cq[i - lo] != -1) sa[cnt[L->cs[i - lo]]++] = L->cq[i - lo];
        return;
    }
    for (IDX i = z - 1; i >= a; i--)
        if (L->cq[i - lo] != -1) sa[--cnt[L->cs[i - lo]]] = L->cq[i - lo];
}

/* One run [lo, hi) of filled entries: every entry it places lands in an
 * empty one outside it, so the threads share it without redoing any. */
static void FN(run_block)(FN(lv) *L)
{
    if ((size_t)(L->hi - L->lo) * 16 < L->env->grain) {
        if (L->scan_l) FN(flag_l)(L, L->lo, L->hi);
        else FN(flag_s)(L, L->lo, L->hi);
        return;
    }
    clsa__pool_run(L->env->pool, FN(run_count), L);
    if (L->cnt) FN(run_offsets)(L, clsa__pool_threads(L->env->pool));
    else FN(run_dest)(L);
    clsa__pool_run(L->env->pool, FN(run_place), L);
}

/* The L scan in runs of filled entries (-1: empty), a block at most. */
static void FN(runs_l)(FN(lv) *L)
{
    IDX n = L->n, blk = (IDX)L->env->block, *sa = L->sa;
    L->scan_l = 1;
    for (L->lo = 0; L->lo < n; L->lo = L->hi) {
        IDX cap = n - L->lo > blk ? L->lo + blk : n;
        for (L->hi = L->lo; L->hi < cap && sa[L->hi] != -1; L->hi++) {}
        if (L->hi == L->lo) L->hi++;
        else FN(run_block)(L);
    }
}

/* The S scan the same way, right to left, after the S parts of the
 * buckets are emptied (their LMS suffixes are induced again). */
static void FN(runs_s)(FN(lv) *L)
{
    IDX blk = (IDX)L->env->block, *sa = L->sa;
    for (IDX c = 0; c < L->k; c++)
        memset(sa + L->sstart[c], 0xff, (size_t)(L->head[c + 1] - L->sstart[c]) * sizeof(IDX));
    L->scan_l = 0;
    for (L->hi = L->n; L->hi > 0; L->hi = L->lo) {
        IDX cap = L->hi > blk ? L->hi - blk : 0;
        for (L->lo = L->hi; L->lo > cap && sa[L->lo - 1] != -1; L->lo--) {}
        if (L->hi == L->lo) L->lo--;
        else FN(run_block)(L);
    }
}

/* Both flagged scans; the first entry placed is suffix n - 1 (L-type). */
static void FN(flagged)(FN(lv) *L)
{
    const SYM *t = L->t;
    IDX n = L->n;
    memcpy(L->b, L->head, (size_t)L->k * sizeof(IDX));
    L->sa[L->b[t[n - 1]]++] = (n - 1) | (t[n - 2] < t[n - 1] ? FLAG : 0);
    if (L->parts > 1) FN(runs_l)(L);
    else FN(flag_l)(L, 0, n);
    memcpy(L->b, L->head + 1, (size_t)L->k * sizeof(IDX));
    if (L->parts > 1) FN(runs_s)(L);
    else FN(flag_s)(L, 0, n);
}
#undef FLAG

/* ---- unflagged blocks: stage 1 from n >= IDX_MAX / 2 ------------------ */

/* L-type suffixes from the placed ones, left to right.  Every suffix in
 * the array during this scan is L-type or LMS, so a predecessor is L-type
 * exactly when its symbol is not smaller. */
static void FN(induce_l)(FN(lv) *L)
{
    IDX n = L->n, blk = (IDX)L->env->block;
    memcpy(L->b, L->head, (size_t)L->k * sizeof(IDX));
    L->sa[L->b[L->t[n - 1]]++] = n - 1;
    for (L->lo = 0; L->lo < n; L->lo = L->hi) {
        L->hi = n - L->lo > blk ? L->lo + blk : n;
        FN(gather)(L, 1);
        FN(place_l)(L);
        FN(scatter_block)(L);
    }
}

/* S-type suffixes, right to left. */
static void FN(induce_s)(FN(lv) *L, int mark)
{
    IDX blk = (IDX)L->env->block;
    memcpy(L->b, L->head + 1, (size_t)L->k * sizeof(IDX));
    for (L->hi = L->n; L->hi > 0; L->hi = L->lo) {
        L->lo = L->hi > blk ? L->hi - blk : 0;
        FN(gather)(L, 0);
        FN(place_s)(L, mark);
        FN(scatter_block)(L);
    }
}

/* Both scans; mark: stage 1's.  Flagged (stage 1 while n < IDX_MAX / 2),
 * else in blocks. */
static void FN(induce)(FN(lv) *L, int mark)
{
    L->mark = mark;
    if (!L->env->blocks && (!mark || L->n < IDX_MAX / 2)) {
        FN(flagged)(L);
        return;
    }
    FN(induce_l)(L);
    FN(induce_s)(L, mark);
}

/* ---- parallel maps over ranges ------------------------------------- */

typedef struct FN(map) {
    FN(lv) *L;
    IDX lo, hi, m;
    const IDX *src;
    IDX *cnt; /* per thread */
} FN(map);

static void FN(fill_neg)(void *arg, int tid, int threads)
{
    FN(map) *M = arg;
    IDX a, z;
    FN(share)(M->lo, M->hi, tid, threads, &a, &z);
    for (IDX i = a; i < z; i++) M->L->sa[i] = -1;
}

static void FN(run_map)(FN(lv) *L, clsa_pool_fn fn, FN(map) *M)
{
    M->L = L;
    if ((size_t)(M->hi - M->lo) >= L->env->grain) clsa__pool_run(L->env->pool, fn, M);
    else fn(M, 0, 1);
}

static void FN(clear)(FN(lv) *L, IDX lo, IDX hi)
{
    FN(map) M = {.lo = lo, .hi = hi};
    FN(run_map)(L, FN(fill_neg), &M);
}

/* ---- stage 1: the LMS substrings sorted ------------------------------ */

/* LMS suffixes at their buckets' ends (any order within a bucket). */
static IDX FN(place_lms)(FN(lv) *L)
{
    if (L->hist) {
        IDX k = L->k;
        for (IDX c = 0; c < k; c++)
            for (int p = L->parts - 1, end = 0; p >= 0; p--) {
                IDX *e = L->hist + (size_t)p * 3 * (size_t)k + 2 * (size_t)k + c;
                IDX cnt = *e;
                *e = L->head[c + 1] - end;
                end += cnt;
            }
        FN(run_parts)(L, FN(place_part));
        return 0;
    }
    const SYM *t = L->t;
    IDX n = L->n, m = 0, *b = L->b;
    memcpy(b, L->head + 1, (size_t)L->k * sizeof(IDX));
    int s = 0;
    for (IDX i = n - 2; i >= 0; i--) {
        int was = s;
        if (t[i] != t[i + 1]) s = t[i] < t[i + 1];
        if (was && !s) {
            L->sa[--b[t[i + 1]]] = i + 1;
            m++;
        }
    }
    return m;
}

/* Per share: its entries >= 0 packed at its start (M->m == 0) or end;
 * their count in cnt[tid]. */
static void FN(pack_part)(void *arg, int tid, int threads)
{
    FN(map) *M = arg;
    IDX a, z, *sa = M->L->sa, c = 0;
    FN(share)(M->lo, M->hi, tid, threads, &a, &z);
    if (!M->m) {
        for (IDX i = a; i < z; i++)
            if (sa[i] >= 0) sa[a + c++] = sa[i];
    } else {
        for (IDX i = z - 1; i >= a; i--)
            if (sa[i] >= 0) sa[z - 1 - c++] = sa[i];
    }
    M->cnt[tid] = c;
}

/* The entries >= 0 of [lo, hi), in order, packed at lo (up = 0) or at hi;
 * returns their count.  Shares are packed in place, then moved together. */
static IDX FN(pack)(FN(lv) *L, IDX lo, IDX hi, int up)
{
    IDX cnt[CLSA_PAR_MAX_THREADS], a, z, total = 0;
    FN(map) M = {.lo = lo, .hi = hi, .m = up, .cnt = cnt};
    int threads = (size_t)(hi - lo) >= L->env->grain ? clsa__pool_threads(L->env->pool) : 1;
    FN(run_map)(L, FN(pack_part), &M);
    for (int p = 0; p < threads; p++) {
        int q = up ? threads - 1 - p : p;
        FN(share)(lo, hi, q, threads, &a, &z);
        IDX *from = L->sa + (up ? z - cnt[q] : a);
        IDX *to = L->sa + (up ? hi - total - cnt[q] : lo + total);
        memmove(to, from, (size_t)cnt[q] * sizeof(IDX));
        total += cnt[q];
    }
    return total;
}

static IDX FN(compact_lms)(FN(lv) *L)
{
    return FN(pack)(L, 0, L->n, 0);
}

/* ---- naming ----------------------------------------------------------- */

/* Length of every LMS substring (up to the next LMS suffix, inclusive) at
 * sa[m + p/2]; the last one's reaches past the end: 0, "unique". */
static void FN(lengths_part)(void *arg, int tid, int threads)
{
    FN(lv) *L = arg;
    IDX a, z, next = 0, m = L->m;
    (void)threads;
    for (int p = tid + 1; p < L->parts && !next; p++) next = L->first[p] < 0 ? 0 : L->first[p];
    FN(chunk)(L, tid, &a, &z);
    LMS_SCAN(L, a, z, (L->sa[m + x / 2] = next ? next - x + 1 : 0, next = x));
}

static void FN(lms_lengths)(FN(lv) *L, IDX m)
{
    L->m = m;
    FN(run_parts)(L, FN(lengths_part));
}

static int FN(lms_equal)(const FN(lv) *L, IDX m, IDX p, IDX q)
{
    IDX lp = L->sa[m + p / 2], lq = L->sa[m + q / 2];
    if (lp != lq || lp == 0) return 0;
    for (IDX d = 0; d < lp; d++)
        if (L->t[p + d] != L->t[q + d]) return 0;
    return 1;
}

/* Pass 1: first entry of each thread's share remembered (cnt[2 tid + 1]);
 * pass 2 flags the entries that start a new name (~p) and counts them;
 * pass 3 writes the names. */
static void FN(name_prev)(void *arg, int tid, int threads)
{
    FN(map) *M = arg;
    IDX a, z;
    FN(share)(M->lo, M->hi, tid, threads, &a, &z);
    M->cnt[2 * tid + 1] = a > 0 && a < z ? M->L->sa[a - 1] : -1;
}

static void FN(name_flag)(void *arg, int tid, int threads)
{
    FN(map) *M = arg;
    FN(lv) *L = M->L;
    IDX a, z, prev = M->cnt[2 * tid + 1], c = 0;
    FN(share)(M->lo, M->hi, tid, threads, &a, &z);
    for (IDX i = a; i < z; i++) {
        IDX p = L->sa[i];
        if (i + PF_DIST < z) {
            PREFETCH(&L->sa[M->m + L->sa[i + PF_DIST] / 2]);
            PREFETCH(&L->t[L->sa[i + PF_DIST]]);
        }
        if (prev < 0 || !FN(lms_equal)(L, M->m, p, prev)) {
            L->sa[i] = ~p;
            c++;
        }
        prev = p;
    }
    M->cnt[2 * tid] = c;
}

static void FN(name_write)(void *arg, int tid, int threads)
{
    FN(map) *M = arg;
    FN(lv) *L = M->L;
    IDX a, z, name = M->cnt[2 * tid] - 1;
    FN(share)(M->lo, M->hi, tid, threads, &a, &z);
    for (IDX i = a; i < z; i++) {
        IDX p = L->sa[i];
        if (p < 0) {
            p = ~p;
            name++;
            L->sa[i] = p;
        }
        L->sa[M->m + p / 2] = name;
    }
}

/* On one thread: each LMS substring's length read, compared with the one
 * before and replaced by its name in the same pass.  Returns the names. */
static IDX FN(name_serial)(FN(lv) *L, IDX m)
{
    IDX *sa = L->sa, *len = L->sa + m, names = 0, prev = -1, lprev = 0;
    for (IDX i = 0; i < m; i++) {
        IDX p = sa[i], lp = len[p / 2];
        if (i + PF_DIST < m) {
            PREFETCH(&len[sa[i + PF_DIST] / 2]);
            PREFETCH(&L->t[sa[i + PF_DIST]]);
        }
        int same = prev >= 0 && lp == lprev && lp != 0;
        for (IDX d = 0; same && d < lp; d++) same = L->t[p + d] == L->t[prev + d];
        names += !same;
        len[p / 2] = names - 1;
        prev = p;
        lprev = lp;
    }
    return names;
}

/* Sorted LMS substrings in sa[0..m) -> names in sa[n-m..n) in text order.
 * Returns the number of names. */
static IDX FN(name_lms)(FN(lv) *L, IDX m)
{
    IDX n = L->n, cnt[2 * CLSA_PAR_MAX_THREADS];
    FN(clear)(L, m, n);
    FN(lms_lengths)(L, m);
    FN(map) M = {.lo = 0, .hi = m, .m = m, .cnt = cnt};
    int threads = (size_t)m >= L->env->grain ? clsa__pool_threads(L->env->pool) : 1;
    if (threads == 1) {
        IDX names = FN(name_serial)(L, m);
        FN(pack)(L, m, n, 1);
        return names;
    }
    for (int i = 0; i < threads; i++) cnt[2 * i] = 0;
    FN(run_map)(L, FN(name_prev), &M);
    FN(run_map)(L, FN(name_flag), &M);
    IDX names = 0;
    for (int i = 0; i < threads; i++) {
        IDX c = cnt[2 * i];
        cnt[2 * i] = names;
        names += c;
    }
    FN(run_map)(L, FN(name_write), &M);
    FN(pack)(L, m, n, 1);
    return names;
}

/* ---- recursion and stage 3 ------------------------------------------ */

static int FN(sais)(const SYM *t, IDX *sa, IDX n, IDX k, IDX *spare, IDX spare_len,
                    clsa_par_env *env, int depth);

static void FN(unname)(void *arg, int tid, int threads)
{
    FN(map) *M = arg;
    IDX a, z;
    FN(share)(M->lo, M->hi, tid, threads, &a, &z);
    for (IDX i = a; i < z; i++) M->L->sa[i] = M->src[M->L->sa[i]];
}

static void FN(inverse)(void *arg, int tid, int threads)
{
    FN(map) *M = arg;
    IDX a, z;
    FN(share)(M->lo, M->hi, tid, threads, &a, &z);
    for (IDX i = a; i < z; i++) M->L->sa[M->src[i]] = i;
}

/* Per chunk: its LMS suffixes in text order into sa[n - m..n), after
 * those of the chunks before it. */
static void FN(list_part)(void *arg, int tid, int threads)
{
    FN(lv) *L = arg;
    IDX a, z, j = L->n - L->m;
    (void)threads;
    for (int p = 0; p <= tid; p++) j += L->lms[p];
    FN(chunk)(L, tid, &a, &z);
    LMS_SCAN(L, a, z, L->sa[--j] = x);
}

/* The LMS suffixes sorted into sa[0..m): from their names directly when
 * all differ, else by recursion on the reduced text. */
static int FN(sort_lms)(FN(lv) *L, IDX m, IDX names, int depth)
{
    IDX n = L->n, *s1 = L->sa + n - m;
    if (names < m) {
        int rc = REC(sais)(s1, L->sa, m, names, L->sa + m, n - 2 * m, L->env, depth + 1);
        if (rc) return rc;
    } else {
        FN(map) M = {.lo = 0, .hi = m, .src = s1};
        FN(run_map)(L, FN(inverse), &M);
    }
    L->m = m;
    FN(run_parts)(L, FN(list_part));
    FN(map) M = {.lo = 0, .hi = m, .src = s1};
    FN(run_map)(L, FN(unname), &M);
    return 0;
}

/* Sorted LMS suffixes in sa[0..m) -> bucket ends, then the full order. */
static void FN(stage3)(FN(lv) *L, IDX m)
{
    IDX *sa = L->sa, *b = L->b;
    FN(clear)(L, m, L->n);
    memcpy(b, L->head + 1, (size_t)L->k * sizeof(IDX));
    for (IDX i = m - 1; i >= 0; i--) {
        IDX j = sa[i];
        if (i >= PF_DIST) PREFETCH(&L->t[sa[i - PF_DIST]]);
        sa[i] = -1;
        sa[--b[L->t[j]]] = j;
    }
    FN(induce)(L, 0);
}

static int FN(tick)(FN(lv) *L, int depth, double f)
{
    return depth == 0 && clsa__par_tick(L->env, f);
}

static int FN(run)(FN(lv) *L, int depth)
{
    FN(run_parts)(L, FN(lms_info));
    FN(buckets)(L);
    FN(clear)(L, 0, L->n);
    FN(place_lms)(L);
    FN(induce)(L, 1);
    if (FN(tick)(L, depth, 0.3)) return -3;
    IDX m = FN(compact_lms)(L);
    IDX names = FN(name_lms)(L, m);
    int rc = FN(sort_lms)(L, m, names, depth);
    if (rc || FN(tick)(L, depth, 0.6)) return rc ? rc : -3;
    FN(stage3)(L, m);
    return 0;
}

/* sa[0..n) = suffix array of t[0..n) over symbols [0, k).  spare: free
 * entries the bucket arrays may use.  0, -2 without memory, -3 stopped. */
static int FN(sais)(const SYM *t, IDX *sa, IDX n, IDX k, IDX *spare, IDX spare_len,
                    clsa_par_env *env, int depth)
{
    if (n == 1) sa[0] = 0;
    if (n <= 1) return 0;
    IDX need = 3 * k + 1, *mem = spare_len >= need ? spare : malloc((size_t)need * sizeof(IDX));
    if (!mem) return -2;
    int rc;
    FN(lv) L = {.t = t, .sa = sa, .n = n, .k = k, .head = mem, .sstart = mem + k + 1,
                .b = mem + 2 * k + 1, .env = env, .cq = env->cache, .cs = env->cache_sym,
                .cd = env->cache_dst};
    int threads = clsa__pool_threads(env->pool);
    L.parts = (size_t)n >= env->grain ? threads : 1;
    size_t hist = (size_t)L.parts * 3 * (size_t)k;
    size_t cnt = (size_t)threads * (size_t)k;
    if (L.parts > 1 && hist <= (size_t)n / 4 && !(L.hist = malloc(hist * sizeof(IDX)))) rc = -2;
    else if (L.parts > 1 && (cnt * 8 <= env->block || cnt <= 4096) &&
             !(L.cnt = malloc(cnt * sizeof(IDX))))
        rc = -2;
    else rc = FN(run)(&L, depth);
    free(L.hist);
    free(L.cnt);
    if (mem != spare) free(mem);
    return rc;
}
#undef LMS_SCAN

/* SA-IS suffix sorting (induced sorting of the LMS substrings, recursion on
 * their names), instantiated by cpu_sa.c for each (symbol, index) type pair:
 *   SYM   symbol type of the text (uint8_t at the top level, IDX below)
 *   IDX   signed index type of the suffix array
 *   FN(x) the instance's name for x
 * The sentinel is virtual: suffix n-1 is L-type and seeds the L induction.
 * Types are one byte per symbol (1: S, 0: L). */

/* Bucket heads (end = 0) or ends (end = 1) from the counts. */
static void FN(buckets)(const IDX *count, IDX *b, IDX k, int end)
{
    IDX sum = 0;
    for (IDX c = 0; c < k; c++) {
        sum += count[c];
        b[c] = end ? sum : sum - count[c];
    }
}

static void FN(types)(const SYM *t, uint8_t *s, IDX n)
{
    s[n - 1] = 0;
    for (IDX i = n - 2; i >= 0; i--)
        s[i] = t[i] < t[i + 1] || (t[i] == t[i + 1] && s[i + 1]);
}

/* sstart[c]: where the S-type suffixes of bucket c begin. */
static void FN(s_starts)(const SYM *t, const uint8_t *s, const IDX *count, IDX *sstart, IDX n,
                         IDX k)
{
    for (IDX i = 0; i < n; i++) sstart[t[i]] -= s[i];
    for (IDX c = 0, end = 0; c < k; c++) {
        end += count[c];
        sstart[c] += end;
    }
}

#define IS_LMS(s, i) ((i) > 0 && (s)[i] && !(s)[(i) - 1])

/* L-type suffixes from the placed ones, left to right.  Every suffix in sa
 * during this pass is L-type or LMS, so its predecessor is L-type exactly
 * when its byte is not smaller: no type lookups. */
static void FN(induce_l)(const SYM *t, IDX *sa, const IDX *count, IDX *b, IDX n, IDX k)
{
    FN(buckets)(count, b, k, 0);
    sa[b[t[n - 1]]++] = n - 1;
    for (IDX i = 0; i < n; i++) {
        IDX p = sa[i];
        if (p > 0 && t[p - 1] >= t[p]) sa[b[t[p - 1]]++] = p - 1;
    }
}

/* S-type suffixes, right to left.  The suffix at i is S-type exactly when
 * i lies in the S part of its bucket (from sstart), which with the bytes
 * gives its predecessor's type. */
static void FN(induce_s)(const SYM *t, IDX *sa, const IDX *count, const IDX *sstart, IDX *b,
                         IDX n, IDX k)
{
    FN(buckets)(count, b, k, 1);
    for (IDX i = n - 1; i >= 0; i--) {
        IDX p = sa[i];
        if (p <= 0) continue;
        SYM c = t[p], d = t[p - 1];
        if (d < c || (d == c && i >= sstart[c])) sa[--b[d]] = p - 1;
    }
}

/* Whether the LMS substrings at p and q differ (the end of the text is a
 * unique symbol, so a substring reaching it differs from every other). */
static int FN(lms_differ)(const SYM *t, const uint8_t *s, IDX n, IDX p, IDX q)
{
    for (IDX d = 0;; d++) {
        if (p + d == n || q + d == n) return 1;
        if (t[p + d] != t[q + d] || s[p + d] != s[q + d]) return 1;
        if (d > 0 && (IS_LMS(s, p + d) || IS_LMS(s, q + d)))
            return !(IS_LMS(s, p + d) && IS_LMS(s, q + d));
    }
}

/* Sorted LMS substrings in sa[0..m) -> names in sa[n-m..n) in text order.
 * Returns the number of names. */
static IDX FN(name_lms)(const SYM *t, IDX *sa, const uint8_t *s, IDX n, IDX m)
{
    for (IDX i = m; i < n; i++) sa[i] = -1;
    IDX names = 0, prev = -1;
    for (IDX i = 0; i < m; i++) {
        IDX p = sa[i];
        if (prev < 0 || FN(lms_differ)(t, s, n, p, prev)) names++;
        prev = p;
        sa[m + p / 2] = names - 1;
    }
    for (IDX i = n - 1, j = n - 1; i >= m; i--)
        if (sa[i] >= 0) sa[j--] = sa[i];
    return names;
}

static int FN(sais)(const SYM *t, IDX *sa, IDX n, IDX k);

/* The LMS suffixes sorted into sa[0..m): from their names directly when
 * all differ, else by recursion on the reduced text. */
static int FN(sort_lms)(const SYM *t, IDX *sa, const uint8_t *s, IDX n, IDX m, IDX names)
{
    IDX *s1 = sa + n - m;
    if (names < m) {
        if (REC(sais)(s1, sa, m, names)) return -2;
    } else {
        for (IDX i = 0; i < m; i++) sa[s1[i]] = i;
    }
    for (IDX i = 1, j = 0; i < n; i++)
        if (IS_LMS(s, i)) s1[j++] = i;
    for (IDX i = 0; i < m; i++) sa[i] = s1[sa[i]];
    (void)t;
    return 0;
}

/* Stage 1: LMS substrings sorted by induction, compacted to sa[0..m). */
static IDX FN(stage1)(const SYM *t, IDX *sa, const uint8_t *s, const IDX *count, IDX *b,
                      IDX n, IDX k)
{
    for (IDX i = 0; i < n; i++) sa[i] = -1;
    FN(buckets)(count, b, k, 1);
    for (IDX i = 1; i < n; i++)
        if (IS_LMS(s, i)) sa[--b[t[i]]] = i;
    FN(induce_l)(t, sa, count, b, n, k);
    FN(induce_s)(t, sa, count, count + 2 * k, b, n, k);
    IDX m = 0;
    for (IDX i = 0; i < n; i++)
        if (IS_LMS(s, sa[i])) sa[m++] = sa[i];
    return m;
}

/* Sorted LMS suffixes in sa[0..m) -> bucket ends, then the full order. */
static void FN(stage3)(const SYM *t, IDX *sa, const IDX *count, IDX *b,
                       IDX n, IDX k, IDX m)
{
    for (IDX i = m; i < n; i++) sa[i] = -1;
    FN(buckets)(count, b, k, 1);
    for (IDX i = m - 1; i >= 0; i--) {
        IDX j = sa[i];
        sa[i] = -1;
        sa[--b[t[j]]] = j;
    }
    FN(induce_l)(t, sa, count, b, n, k);
    FN(induce_s)(t, sa, count, count + 2 * k, b, n, k);
}

/* sa[0..n) = suffix array of t[0..n) over symbols [0, k).  0, or -2
 * without memory. */
static int FN(sais)(const SYM *t, IDX *sa, IDX n, IDX k)
{
    if (n == 1) sa[0] = 0;
    if (n <= 1) return 0;
    uint8_t *s = malloc((size_t)n);
    IDX *count = calloc((size_t)k * 3, sizeof *count);
    int rc = -2;
    if (s && count) {
        IDX *b = count + k;
        for (IDX i = 0; i < n; i++) count[t[i]]++;
        FN(types)(t, s, n);
        FN(s_starts)(t, s, count, count + 2 * k, n, k);
        IDX m = FN(stage1)(t, sa, s, count, b, n, k);
        IDX names = FN(name_lms)(t, sa, s, n, m);
        rc = FN(sort_lms)(t, sa, s, n, m, names);
        if (rc == 0) FN(stage3)(t, sa, count, b, n, k, m);
    }
    free(count);
    free(s);
    return rc;
}

#undef IS_LMS

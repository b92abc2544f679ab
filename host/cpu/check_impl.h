/* One checker body for both index widths (included by check.c with SA_T
 * and CHECK_NAME defined).  The scans run over `parts` stretches of SA on
 * threads of their own (check.c); a part's walk of (c) starts each
 * bucket's pointer where the walk of all parts before it would leave it:
 * the bucket's start plus the successors of that first character the
 * earlier parts hold, counted in the scan of (a) and (b).  The reason
 * given is the one the sequential walk meets first: the lowest failing
 * part's first failure. */
#define CK_CAT2(a, b) a##_##b
#define CK_CAT(a, b) CK_CAT2(a, b)
#define CK(x) CK_CAT(CHECK_NAME, x)

/* (a) entries in range, (b) first characters in order over [lo, hi), and
 * the first characters of the successors (suffix - 1) counted.  The pair
 * across lo is the part's too, unless SA[lo - 1] is out of range (the part
 * before reports that). */
static void *CK(scan)(void *arg)
{
    check_part *p = arg;
    const SA_T *sa = p->sa;
    const uint8_t *t = p->t;
    int64_t n = p->n;
    memset(p->count, 0, sizeof p->count);
    for (int64_t i = p->lo; i < p->hi; i++) {
        if (sa[i] < 0 || (int64_t)sa[i] >= n) {
            check_fail(p, i, "SA[%lld] = %lld is out of range [0, %lld)", (long long)i,
                       (long long)sa[i], (long long)n);
            return NULL;
        }
        if (i > 0 && sa[i - 1] >= 0 && (int64_t)sa[i - 1] < n && t[sa[i - 1]] > t[sa[i]]) {
            check_fail(p, i, "first characters out of order at SA[%lld]", (long long)i);
            return NULL;
        }
        if (sa[i] > 0) p->count[t[sa[i] - 1]]++;
    }
    return NULL;
}

/* (c) over [lo, hi) from the part's pointers (p->ptr). */
static void *CK(walk)(void *arg)
{
    check_part *p = arg;
    const SA_T *sa = p->sa;
    const uint8_t *t = p->t;
    const int64_t *start = p->start;
    for (int64_t i = p->lo; i < p->hi; i++) {
        if (sa[i] == 0) continue;
        int64_t j = (int64_t)sa[i] - 1;
        int c = t[j];
        if (p->ptr[c] >= start[c + 1] || (int64_t)sa[p->ptr[c]] != j) {
            check_fail(p, i, "suffix %lld is not where its successor's rank puts it (SA[%lld])",
                       (long long)j, (long long)p->ptr[c]);
            return NULL;
        }
        p->ptr[c]++;
    }
    return NULL;
}

static int CHECK_NAME(const uint8_t *t, const SA_T *sa, int64_t n, unsigned parts, char *why,
                      size_t cap)
{
    if (why && cap) why[0] = 0;
    if (n == 0) return 1;
    check_part one, *p = parts > 1 ? malloc(parts * sizeof *p) : NULL;
    int64_t start[257];
    if (!p) { /* one part needs no memory beyond the stack's */
        p = &one;
        parts = 1;
    }
    check_parts(p, parts, t, sa, n, start);
    int ok = check_run(p, parts, CK(scan), why, cap);
    int last = t[n - 1];
    if (ok && (int64_t)sa[p->start[last]] != n - 1)
        ok = check_say(why, cap, "suffix %lld should open its bucket at SA[%lld]",
                       (long long)(n - 1), (long long)p->start[last]);
    if (ok) {
        check_pointers(p, parts, last);
        ok = check_run(p, parts, CK(walk), why, cap) && check_complete(p, parts, why, cap);
    }
    if (p != &one) free(p);
    return ok;
}
#undef CK
#undef CK_CAT
#undef CK_CAT2

/* One checker body for both index widths (included by check.c with SA_T
 * and CHECK_NAME defined). */
static int CHECK_NAME(const uint8_t *t, const SA_T *sa, int64_t n, char *why, size_t cap)
{
#define FAIL(...)                                           \
    do {                                                    \
        if (why && cap) snprintf(why, cap, __VA_ARGS__);    \
        return 0;                                           \
    } while (0)
    if (why && cap) why[0] = 0;
    if (n == 0) return 1;
    int64_t start[257], ptr[256];
    memset(start, 0, sizeof start);
    for (int64_t i = 0; i < n; i++) start[t[i] + 1]++;
    for (int c = 0; c < 256; c++) start[c + 1] += start[c];
    for (int64_t i = 0; i < n; i++) {
        if (sa[i] < 0 || (int64_t)sa[i] >= n)
            FAIL("SA[%lld] = %lld is out of range [0, %lld)", (long long)i, (long long)sa[i],
                 (long long)n);
        if (i > 0 && t[sa[i - 1]] > t[sa[i]])
            FAIL("first characters out of order at SA[%lld]", (long long)i);
    }
    for (int c = 0; c < 256; c++) ptr[c] = start[c];
    int last = t[n - 1];
    if ((int64_t)sa[ptr[last]] != n - 1)
        FAIL("suffix %lld should open its bucket at SA[%lld]", (long long)(n - 1),
             (long long)ptr[last]);
    ptr[last]++;
    for (int64_t i = 0; i < n; i++) {
        if (sa[i] == 0) continue;
        int64_t j = (int64_t)sa[i] - 1;
        int c = t[j];
        if (ptr[c] >= start[c + 1] || (int64_t)sa[ptr[c]] != j)
            FAIL("suffix %lld is not where its successor's rank puts it (SA[%lld])",
                 (long long)j, (long long)ptr[c]);
        ptr[c]++;
    }
    for (int c = 0; c < 256; c++)
        if (ptr[c] != start[c + 1]) FAIL("SA is not a permutation (bucket %d incomplete)", c);
    return 1;
#undef FAIL
}

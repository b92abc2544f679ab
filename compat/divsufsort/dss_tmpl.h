/* The libdivsufsort 2.0.1 API on the CPU, for one index width:
 *   IDX   saidx_t (int32_t or int64_t)     FMT  its printf conversion
 *   FN(x) the instance's name for x        SA_CPU the CPU suffix sorter
 * Every argument check, return code, message and output byte follows
 * libdivsufsort 2.0.1 (the differential tests hold it to that), including
 * the probe order of the searches on arrays that are not suffix arrays. */

/* The suffix array, n >= 3 (the public entry answers smaller n). */
static int32_t FN(cpu_sa)(const uint8_t *t, IDX *sa, IDX n)
{
    return SA_CPU(t, sa, n) ? -2 : 0;
}

/* dev: whether the device may take it (never for clsa's own host calls). */
static int32_t FN(sa_any)(const uint8_t *t, IDX *sa, IDX n, int dev)
{
    if (!t || !sa || n < 0) return -1;
    if (n == 0) return 0;
    if (n == 1) {
        sa[0] = 0;
        return 0;
    }
    if (n == 2) {
        IDX m = t[0] < t[1];
        sa[m ^ 1] = 0;
        sa[m] = 1;
        return 0;
    }
    if (dev && DEVICE_SA(t, sa, n)) return 0;
    return FN(cpu_sa)(t, sa, n);
}

int32_t FN(divsufsort)(const uint8_t *t, IDX *sa, IDX n)
{
    return FN(sa_any)(t, sa, n, 1);
}

int32_t FN(divsufsort_host)(const uint8_t *t, IDX *sa, IDX n)
{
    return FN(sa_any)(t, sa, n, 0);
}

/* u[0..n) = BWT (divbwt convention) from the suffix array in b, which is
 * overwritten; t and u may be the same.  Returns the primary index. */
static IDX FN(bwt_from_sa)(const uint8_t *t, uint8_t *u, IDX *b, IDX n)
{
    IDX primary = 0;
    for (IDX i = 0; i < n; i++) {
        if (b[i] == 0) primary = i;
        else b[i] = t[b[i] - 1];
    }
    uint8_t last = t[n - 1];
    for (IDX i = n - 1; i > primary; i--) u[i] = (uint8_t)b[i];
    for (IDX i = primary; i > 0; i--) u[i] = (uint8_t)b[i - 1];
    u[0] = last;
    return primary + 1;
}

static IDX FN(bwt_any)(const uint8_t *t, uint8_t *u, IDX *a, IDX n, int dev)
{
    if (!t || !u || n < 0) return -1;
    if (n <= 1) {
        if (n == 1) u[0] = t[0];
        return n;
    }
    IDX p;
    if (dev && DEVICE_BWT(t, u, n, &p)) return p;
    IDX *b = a ? a : malloc((size_t)(n + 1) * sizeof *b);
    if (!b) return -2;
    if (n == 2) {
        IDX m = t[0] < t[1];
        b[m ^ 1] = 0;
        b[m] = 1;
        p = 0;
    } else {
        p = FN(cpu_sa)(t, b, n);
    }
    if (p == 0) p = FN(bwt_from_sa)(t, u, b, n);
    if (!a) free(b);
    return p;
}

IDX FN(divbwt)(const uint8_t *t, uint8_t *u, IDX *a, IDX n)
{
    return FN(bwt_any)(t, u, a, n, 1);
}

IDX FN(divbwt_host)(const uint8_t *t, uint8_t *u, IDX *a, IDX n)
{
    return FN(bwt_any)(t, u, a, n, 0);
}

/* In place (t == u): libdivsufsort's walk, which leaves the replaced text
 * bytes in sa. */
static void FN(bwt_in_place)(const uint8_t *t, uint8_t *u, IDX *a, IDX n, IDX *idx)
{
    IDX j = 0, next = n, i;
    for (i = 0; i <= n; i++) {
        IDX p = next - 1;
        if (i < n) next = a[i];
        if (p < 0) {
            *idx = i;
            continue;
        }
        int32_t c = t[j];
        u[j] = j <= p ? t[p] : (uint8_t)a[p];
        a[j] = c;
        j++;
        if (i == n) break;
    }
}

int32_t FN(bw_transform)(const uint8_t *t, uint8_t *u, IDX *sa, IDX n, IDX *idx)
{
    if (!t || !u || n < 0 || !idx) return -1;
    if (n <= 1) {
        if (n == 1) u[0] = t[0];
        *idx = n;
        return 0;
    }
    if (!sa) {
        IDX i = FN(divbwt)(t, u, NULL, n);
        if (i < 0) return (int32_t)i;
        *idx = i;
        return 0;
    }
    if (t == u) {
        FN(bwt_in_place)(t, u, sa, n, idx);
        return 0;
    }
    IDX i = 0;
    u[0] = t[n - 1];
    for (; sa[i] != 0; i++) u[i + 1] = t[sa[i] - 1];
    *idx = i + 1;
    for (i++; i < n; i++) u[i] = t[sa[i] - 1];
    return 0;
}

/* First index of c[0..size) (increasing) that is >= value. */
static IDX FN(lower)(const IDX *c, IDX size, IDX value)
{
    IDX lo = 0;
    while (size > 0) {
        IDX half = size / 2;
        if (c[lo + half] < value) {
            lo += half + 1;
            size -= half + 1;
        } else {
            size = half;
        }
    }
    return lo;
}

/* LF links of the BWT t with primary idx into b; the first bucket index
 * of each present symbol into c[0..d), the symbols into sym.  Returns d. */
static int32_t FN(unbwt_links)(const uint8_t *t, IDX *b, IDX n, IDX idx, IDX *c, uint8_t *sym)
{
    IDX count[256] = {0}, start[256];
    int32_t d = 0;
    for (IDX i = 0; i < n; i++) count[t[i]]++;
    for (IDX i = 0, c0 = 0; c0 < 256; c0++) {
        start[c0] = i;
        i += count[c0];
        if (count[c0] > 0) sym[d++] = (uint8_t)c0;
    }
    for (IDX i = 0; i < n; i++) b[start[t[i]]++] = i < idx ? i : i + 1;
    for (int32_t k = 0; k < d; k++) c[k] = start[sym[k]];
    return d;
}

int32_t FN(inverse_bw_transform)(const uint8_t *t, uint8_t *u, IDX *a, IDX n, IDX idx)
{
    if (!t || !u || n < 0 || idx < 0 || n < idx || (n > 0 && idx == 0)) return -1;
    if (n <= 1) return 0;
    IDX *b = a ? a : malloc((size_t)n * sizeof *b);
    if (!b) return -2;
    IDX c[256];
    uint8_t sym[256];
    int32_t d = FN(unbwt_links)(t, b, n, idx, c, sym);
    for (IDX i = 0, p = idx; i < n; i++) {
        u[i] = sym[FN(lower)(c, d, p)];
        p = b[p - 1];
    }
    if (!a) free(b);
    return 0;
}

/* sufcheck's messages, as libdivsufsort prints them. */
static int32_t FN(range_fail)(IDX n, IDX i, IDX v, int32_t verbose)
{
    if (verbose)
        fprintf(stderr, "Out of the range [0,%" FMT "].\n  SA[%" FMT "]=%" FMT "\n", n - 1, i, v);
    return -2;
}

static int32_t FN(order_fail)(const uint8_t *t, const IDX *sa, IDX i, int32_t verbose)
{
    if (verbose)
        fprintf(stderr,
                "Suffixes in wrong order.\n  T[SA[%" FMT "]=%" FMT "]=%d > T[SA[%" FMT "]=%" FMT
                "]=%d\n",
                i - 1, sa[i - 1], t[sa[i - 1]], i, sa[i], t[sa[i]]);
    return -3;
}

static int32_t FN(position_fail)(const IDX *sa, IDX at, IDX i, int32_t verbose)
{
    if (verbose)
        fprintf(stderr, "Suffix in wrong position.\n  SA[%" FMT "]=%" FMT " or\n  SA[%" FMT
                        "]=%" FMT "\n",
                at, at >= 0 ? sa[at] : (IDX)-1, i, sa[i]);
    return -4;
}

/* Every suffix's predecessor is where the bucket counts put it. */
static int32_t FN(check_links)(const uint8_t *t, const IDX *sa, IDX n, int32_t verbose)
{
    IDX c[256] = {0};
    for (IDX i = 0; i < n; i++) c[t[i]]++;
    for (IDX k = 0, sum = 0; k < 256; k++) {
        IDX x = c[k];
        c[k] = sum;
        sum += x;
    }
    IDX q = c[t[n - 1]]++;
    for (IDX i = 0; i < n; i++) {
        IDX p = sa[i] > 0 ? sa[i] - 1 : n - 1;
        int32_t ch = t[p];
        IDX at = sa[i] > 0 ? c[ch] : q;
        if (at < 0 || p != sa[at]) return FN(position_fail)(sa, at, i, verbose);
        if (at != q) {
            c[ch]++;
            if (n <= c[ch] || t[sa[c[ch]]] != ch) c[ch] = -1;
        }
    }
    return 0;
}

int32_t FN(sufcheck)(const uint8_t *t, const IDX *sa, IDX n, int32_t verbose)
{
    if (verbose) fprintf(stderr, "sufcheck: ");
    if (!t || !sa || n < 0) {
        if (verbose) fprintf(stderr, "Invalid arguments.\n");
        return -1;
    }
    if (n == 0) {
        if (verbose) fprintf(stderr, "Done.\n");
        return 0;
    }
    for (IDX i = 0; i < n; i++)
        if (sa[i] < 0 || n <= sa[i]) return FN(range_fail)(n, i, sa[i], verbose);
    for (IDX i = 1; i < n; i++)
        if (t[sa[i - 1]] > t[sa[i]]) return FN(order_fail)(t, sa, i, verbose);
    int32_t rc = FN(check_links)(t, sa, n, verbose);
    if (rc == 0 && verbose >= 1) fprintf(stderr, "Done.\n");
    return rc;
}

/* Pattern p against the suffix at suf, skipping the *match bytes known
 * equal; *match gets the new common length.  <0: suffix smaller (or a
 * proper prefix of p), 0: p is a prefix of it, >0: larger. */
static int32_t FN(cmp)(const uint8_t *t, IDX tn, const uint8_t *p, IDX pn, IDX suf, IDX *match)
{
    IDX j = *match;
    int32_t r = 0;
    for (IDX i = suf + j; i < tn && j < pn; i++, j++)
        if ((r = t[i] - p[j]) != 0) break;
    *match = j;
    return r == 0 ? -(j != pn) : r;
}

/* The halving probe of libdivsufsort's searches: lo moves past a probe at
 * half when go_right, size becomes half either way. */
#define HALVE(lo, size, half, go_right)                                                      \
    do {                                                                                   \
        if (go_right) {                                                                    \
            (lo) += (half) + 1;                                                            \
            (half) -= ((size) & 1) ^ 1;                                                    \
        }                                                                                  \
        (size) = (half);                                                                   \
        (half) >>= 1;                                                                      \
    } while (0)

/* First suffix in sa[j..j+size) not below p (lm, rm: bytes matched at the
 * edges). */
static IDX FN(left_edge)(const uint8_t *t, IDX tn, const uint8_t *p, IDX pn, const IDX *sa,
                         IDX j, IDX size, IDX lm, IDX rm)
{
    for (IDX half = size >> 1; size > 0;) {
        IDX m = lm < rm ? lm : rm;
        int32_t r = FN(cmp)(t, tn, p, pn, sa[j + half], &m);
        if (r < 0) lm = m;
        else rm = m;
        HALVE(j, size, half, r < 0);
    }
    return j;
}

/* First suffix in sa[k..k+size) above every match of p. */
static IDX FN(right_edge)(const uint8_t *t, IDX tn, const uint8_t *p, IDX pn, const IDX *sa,
                          IDX k, IDX size, IDX lm, IDX rm)
{
    for (IDX half = size >> 1; size > 0;) {
        IDX m = lm < rm ? lm : rm;
        int32_t r = FN(cmp)(t, tn, p, pn, sa[k + half], &m);
        if (r <= 0) lm = m;
        else rm = m;
        HALVE(k, size, half, r <= 0);
    }
    return k;
}

IDX FN(sa_search)(const uint8_t *t, IDX tn, const uint8_t *p, IDX pn, const IDX *sa, IDX sn,
                  IDX *idx)
{
    if (idx) *idx = -1;
    if (!t || !p || !sa || tn < 0 || pn < 0 || sn < 0) return -1;
    if (tn == 0 || sn == 0) return 0;
    if (pn == 0) {
        if (idx) *idx = 0;
        return sn;
    }
    IDX i = 0, j = 0, k = 0, lm = 0, rm = 0, size = sn, half = size >> 1;
    while (size > 0) {
        IDX m = lm < rm ? lm : rm;
        int32_t r = FN(cmp)(t, tn, p, pn, sa[i + half], &m);
        if (r == 0) {
            j = FN(left_edge)(t, tn, p, pn, sa, i, half, lm, m);
            k = FN(right_edge)(t, tn, p, pn, sa, i + half + 1, size - half - 1, m, rm);
            break;
        }
        if (r < 0) lm = m;
        else rm = m;
        HALVE(i, size, half, r < 0);
    }
    if (idx) *idx = k - j > 0 ? j : i;
    return k - j;
}

/* The byte at suffix q against c (a suffix past the text is smaller). */
static int32_t FN(byte_cmp)(const uint8_t *t, IDX tn, IDX q, int32_t c)
{
    return q < tn ? t[q] - c : -1;
}

IDX FN(sa_simplesearch)(const uint8_t *t, IDX tn, const IDX *sa, IDX sn, int32_t c, IDX *idx)
{
    if (idx) *idx = -1;
    if (!t || !sa || tn < 0 || sn < 0) return -1;
    if (tn == 0 || sn == 0) return 0;
    IDX i = 0, j = 0, k = 0, size = sn, half = size >> 1;
    while (size > 0) {
        int32_t r = FN(byte_cmp)(t, tn, sa[i + half], c);
        if (r == 0) {
            IDX ls = half, rs = size - half - 1, h;
            for (j = i, h = ls >> 1; ls > 0;)
                HALVE(j, ls, h, FN(byte_cmp)(t, tn, sa[j + h], c) < 0);
            for (k = i + half + 1, h = rs >> 1; rs > 0;)
                HALVE(k, rs, h, FN(byte_cmp)(t, tn, sa[k + h], c) <= 0);
            break;
        }
        HALVE(i, size, half, r < 0);
    }
    if (idx) *idx = k - j > 0 ? j : i;
    return k - j;
}

#undef HALVE

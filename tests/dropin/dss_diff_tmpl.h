/* One width of the differential test: every libdivsufsort function of the
 * drop-in against the stock library, same arguments, same results.
 *   IDX the index type, W the width (32/64), S(x) the symbol name of x. */

typedef struct {
    int32_t (*sort)(const uint8_t *, IDX *, IDX);
    IDX (*bwt)(const uint8_t *, uint8_t *, IDX *, IDX);
    const char *(*version)(void);
    int32_t (*bwtr)(const uint8_t *, uint8_t *, IDX *, IDX, IDX *);
    int32_t (*unbwt)(const uint8_t *, uint8_t *, IDX *, IDX, IDX);
    int32_t (*check)(const uint8_t *, const IDX *, IDX, int32_t);
    IDX (*search)(const uint8_t *, IDX, const uint8_t *, IDX, const IDX *, IDX, IDX *);
    IDX (*simple)(const uint8_t *, IDX, const IDX *, IDX, int32_t, IDX *);
} T(api);

static void *T(sym)(void *h, const char *name)
{
    char full[64];
    snprintf(full, sizeof full, "%s%s", name, W == 64 ? "64" : "");
    if (!strcmp(name, "divsufsort_version"))
        snprintf(full, sizeof full, "%s", W == 64 ? "divsufsort64_version" : name);
    void *f = dlsym(h, full);
    EXPECT(f != NULL, "dlsym %s", full);
    return f;
}

static int T(load)(void *h, T(api) *a)
{
    *(void **)&a->sort = T(sym)(h, "divsufsort");
    *(void **)&a->bwt = T(sym)(h, "divbwt");
    *(void **)&a->version = T(sym)(h, "divsufsort_version");
    *(void **)&a->bwtr = T(sym)(h, "bw_transform");
    *(void **)&a->unbwt = T(sym)(h, "inverse_bw_transform");
    *(void **)&a->check = T(sym)(h, "sufcheck");
    *(void **)&a->search = T(sym)(h, "sa_search");
    *(void **)&a->simple = T(sym)(h, "sa_simplesearch");
    return a->sort && a->bwt && a->version && a->bwtr && a->unbwt && a->check && a->search &&
           a->simple;
}

/* divsufsort: return code, SA, and nothing written past n. */
static void T(sort)(const T(api) *r, const T(api) *o, const uint8_t *t, IDX n)
{
    IDX *a = malloc(((size_t)n + 1) * sizeof *a), *b = malloc(((size_t)n + 1) * sizeof *b);
    for (IDX i = 0; i <= n; i++) a[i] = b[i] = -7;
    int32_t ra = r->sort(t, a, n), rb = o->sort(t, b, n);
    EXPECT(ra == rb, "divsufsort%d n=%lld rc %d vs %d", W, (long long)n, ra, rb);
    EXPECT(!memcmp(a, b, ((size_t)n + 1) * sizeof *a), "divsufsort%d n=%lld SA differs", W,
           (long long)n);
    free(a);
    free(b);
}

/* divbwt with and without the work array, and in place. */
static void T(bwt)(const T(api) *r, const T(api) *o, const uint8_t *t, IDX n, int mode)
{
    size_t sz = (size_t)n + 1;
    uint8_t *ua = calloc(sz, 1), *ub = calloc(sz, 1);
    IDX *wa = mode == 1 ? malloc(sz * sizeof *wa) : NULL;
    IDX *wb = mode == 1 ? malloc(sz * sizeof *wb) : NULL;
    if (mode == 2) {
        memcpy(ua, t, (size_t)n);
        memcpy(ub, t, (size_t)n);
    }
    IDX pa = r->bwt(mode == 2 ? ua : t, ua, wa, n);
    IDX pb = o->bwt(mode == 2 ? ub : t, ub, wb, n);
    EXPECT(pa == pb, "divbwt%d n=%lld mode %d primary %lld vs %lld", W, (long long)n, mode,
           (long long)pa, (long long)pb);
    EXPECT(!memcmp(ua, ub, sz), "divbwt%d n=%lld mode %d output differs", W, (long long)n, mode);
    free(ua);
    free(ub);
    free(wa);
    free(wb);
}

/* bw_transform from a suffix array (kept, or replaced in place) or from
 * none; then inverse_bw_transform of the result, both work-array modes. */
static void T(transforms)(const T(api) *r, const T(api) *o, const uint8_t *t, IDX n, int mode)
{
    size_t sz = (size_t)n + 1;
    IDX *sa = malloc(sz * sizeof *sa), *sb = malloc(sz * sizeof *sb);
    uint8_t *ua = calloc(sz, 1), *ub = calloc(sz, 1);
    r->sort(t, sa, n);
    memcpy(sb, sa, sz * sizeof *sa);
    if (mode == 2) {
        memcpy(ua, t, (size_t)n);
        memcpy(ub, t, (size_t)n);
    }
    IDX ia = -9, ib = -9;
    int32_t ra = r->bwtr(mode == 2 ? ua : t, ua, mode ? sa : NULL, n, &ia);
    int32_t rb = o->bwtr(mode == 2 ? ub : t, ub, mode ? sb : NULL, n, &ib);
    EXPECT(ra == rb && ia == ib, "bw_transform%d n=%lld mode %d: %d/%lld vs %d/%lld", W,
           (long long)n, mode, ra, (long long)ia, rb, (long long)ib);
    EXPECT(!memcmp(ua, ub, sz) && !memcmp(sa, sb, (size_t)n * sizeof *sa),
           "bw_transform%d n=%lld mode %d output differs", W, (long long)n, mode);
    uint8_t *va = calloc(sz, 1), *vb = calloc(sz, 1);
    ra = r->unbwt(ua, va, mode ? sa : NULL, n, ia);
    rb = o->unbwt(ub, vb, mode ? sb : NULL, n, ib);
    EXPECT(ra == rb && !memcmp(va, vb, sz), "inverse_bw_transform%d n=%lld mode %d", W,
           (long long)n, mode);
    EXPECT(ra != 0 || n < 2 || !memcmp(va, t, (size_t)n), "inverse%d n=%lld not the text", W,
           (long long)n);
    free(sa);
    free(sb);
    free(ua);
    free(ub);
    free(va);
    free(vb);
}

typedef struct {
    const T(api) *a;
    const uint8_t *t;
    const IDX *sa;
    IDX n;
    int32_t verbose, rc;
} T(check_call);

static void T(do_check)(void *p)
{
    T(check_call) *c = p;
    c->rc = c->a->check(c->t, c->sa, c->n, c->verbose);
}

/* sufcheck: return code and the exact text on stderr. */
static void T(check)(const T(api) *r, const T(api) *o, const uint8_t *t, const IDX *sa, IDX n,
                     int32_t verbose)
{
    char ea[512], eb[512];
    T(check_call) ca = {r, t, sa, n, verbose, 0}, cb = {o, t, sa, n, verbose, 0};
    capture_stderr(T(do_check), &ca, ea, sizeof ea);
    capture_stderr(T(do_check), &cb, eb, sizeof eb);
    EXPECT(ca.rc == cb.rc, "sufcheck%d n=%lld v=%d rc %d vs %d", W, (long long)n, verbose,
           ca.rc, cb.rc);
    EXPECT(!strcmp(ea, eb), "sufcheck%d n=%lld messages differ:\n%s---\n%s", W, (long long)n,
           ea, eb);
}

/* sufcheck on the SA and on damaged copies of it (swap, out of range). */
static void T(checks)(const T(api) *r, const T(api) *o, const uint8_t *t, IDX n, uint64_t *s)
{
    IDX *sa = malloc(((size_t)n + 1) * sizeof *sa);
    r->sort(t, sa, n);
    T(check)(r, o, t, sa, n, (int32_t)(rnd(s) % 3) - 1);
    if (n >= 2) {
        IDX i = (IDX)(rnd(s) % (uint64_t)n), j = (IDX)(rnd(s) % (uint64_t)n), x = sa[i];
        sa[i] = sa[j];
        sa[j] = x;
        T(check)(r, o, t, sa, n, 1);
        sa[j] = sa[i]; /* a duplicate */
        T(check)(r, o, t, sa, n, 1);
        sa[i] = rnd(s) & 1 ? n : -1;
        T(check)(r, o, t, sa, n, 1);
    }
    free(sa);
}

/* sa_search / sa_simplesearch of patterns taken from the text, random
 * ones and the empty one, on the SA, a prefix of it and a shuffled copy
 * (the probe order must match too). */
static void T(searches)(const T(api) *r, const T(api) *o, const uint8_t *t, IDX n, uint64_t *s)
{
    IDX *sa = malloc(((size_t)n + 1) * sizeof *sa);
    r->sort(t, sa, n);
    uint8_t p[24];
    for (int q = 0; q < 24; q++) {
        if (q == 12 && n > 1) /* shuffled: not a suffix array */
            for (IDX i = n - 1; i > 0; i--) {
                IDX j = (IDX)(rnd(s) % (uint64_t)(i + 1)), x = sa[i];
                sa[i] = sa[j];
                sa[j] = x;
            }
        IDX pn = (IDX)(rnd(s) % 8), sn = q % 5 == 4 ? (IDX)(rnd(s) % (uint64_t)(n + 1)) : n;
        IDX at = n ? (IDX)(rnd(s) % (uint64_t)n) : 0;
        for (IDX i = 0; i < pn; i++)
            p[i] = q & 1 && at + i < n ? t[at + i] : (uint8_t)(rnd(s) % 4 + 'a');
        IDX ia = -5, ib = -5;
        IDX ca = r->search(t, n, p, pn, sa, sn, q % 7 ? &ia : NULL);
        IDX cb = o->search(t, n, p, pn, sa, sn, q % 7 ? &ib : NULL);
        EXPECT(ca == cb && ia == ib, "sa_search%d n=%lld pn=%lld: %lld/%lld vs %lld/%lld", W,
               (long long)n, (long long)pn, (long long)ca, (long long)ia, (long long)cb,
               (long long)ib);
        int32_t c = (int32_t)(rnd(s) % 260) - 2;
        ca = r->simple(t, n, sa, sn, c, &ia);
        cb = o->simple(t, n, sa, sn, c, &ib);
        EXPECT(ca == cb && ia == ib, "sa_simplesearch%d n=%lld c=%d", W, (long long)n, c);
    }
    free(sa);
}

/* Bad arguments and the tiny sizes, one call per function each. */
static void T(edges)(const T(api) *r, const T(api) *o)
{
    uint8_t t[3] = {'b', 'a', 'b'}, u[3];
    IDX sa[3] = {0}, idx;
    EXPECT(!strcmp(r->version(), o->version()), "version %s vs %s", r->version(), o->version());
    EXPECT(r->sort(NULL, sa, 3) == o->sort(NULL, sa, 3), "divsufsort NULL T");
    EXPECT(r->sort(t, NULL, 3) == o->sort(t, NULL, 3), "divsufsort NULL SA");
    EXPECT(r->sort(t, sa, -1) == o->sort(t, sa, -1), "divsufsort n<0");
    EXPECT(r->bwt(NULL, u, NULL, 3) == o->bwt(NULL, u, NULL, 3), "divbwt NULL T");
    EXPECT(r->bwt(t, NULL, NULL, 3) == o->bwt(t, NULL, NULL, 3), "divbwt NULL U");
    EXPECT(r->bwt(t, u, NULL, -2) == o->bwt(t, u, NULL, -2), "divbwt n<0");
    EXPECT(r->bwtr(t, u, sa, 3, NULL) == o->bwtr(t, u, sa, 3, NULL), "bw_transform NULL idx");
    EXPECT(r->bwtr(NULL, u, sa, 3, &idx) == o->bwtr(NULL, u, sa, 3, &idx), "bw_transform T");
    EXPECT(r->bwtr(t, u, sa, -1, &idx) == o->bwtr(t, u, sa, -1, &idx), "bw_transform n<0");
    static const IDX bad[][2] = {{3, 0}, {3, 4}, {3, -1}, {-1, 0}, {0, 0}, {1, 1}, {0, 1}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        uint8_t ua[3] = {7, 7, 7}, ub[3] = {7, 7, 7};
        int32_t ra = r->unbwt(t, ua, NULL, bad[i][0], bad[i][1]);
        int32_t rb = o->unbwt(t, ub, NULL, bad[i][0], bad[i][1]);
        EXPECT(ra == rb && !memcmp(ua, ub, 3), "inverse_bw_transform n=%lld idx=%lld",
               (long long)bad[i][0], (long long)bad[i][1]);
    }
    EXPECT(r->unbwt(NULL, u, NULL, 3, 1) == o->unbwt(NULL, u, NULL, 3, 1), "inverse NULL T");
    EXPECT(r->unbwt(t, NULL, NULL, 3, 1) == o->unbwt(t, NULL, NULL, 3, 1), "inverse NULL U");
    for (int v = -1; v <= 2; v++) {
        T(check)(r, o, NULL, sa, 3, v);
        T(check)(r, o, t, NULL, 3, v);
        T(check)(r, o, t, sa, -1, v);
        T(check)(r, o, t, sa, 0, v);
    }
    IDX ia = 5, ib = 5;
    EXPECT(r->search(NULL, 3, t, 1, sa, 3, &ia) == o->search(NULL, 3, t, 1, sa, 3, &ib) &&
               ia == ib, "sa_search NULL T");
    EXPECT(r->search(t, 3, t, -1, sa, 3, &ia) == o->search(t, 3, t, -1, sa, 3, &ib) && ia == ib,
           "sa_search Psize<0");
    EXPECT(r->search(t, 0, t, 0, sa, 3, &ia) == o->search(t, 0, t, 0, sa, 3, &ib) && ia == ib,
           "sa_search Tsize 0");
    EXPECT(r->simple(t, 3, NULL, 3, 'a', &ia) == o->simple(t, 3, NULL, 3, 'a', &ib) && ia == ib,
           "sa_simplesearch NULL SA");
    EXPECT(r->simple(t, 3, sa, -3, 'a', &ia) == o->simple(t, 3, sa, -3, 'a', &ib) && ia == ib,
           "sa_simplesearch SAsize<0");
}

/* Every byte pair, then `cases` generated texts up to max_n bytes. */
int T(run)(void *ref, void *our, int cases, int64_t max_n)
{
    T(api) r, o;
    if (!T(load)(ref, &r) || !T(load)(our, &o)) return 1;
    T(edges)(&r, &o);
    uint64_t s = 0x9e3779b97f4a7c15ull + W;
    uint8_t *t = malloc((size_t)max_n + 1);
    for (int i = 0; i < 3 * 3 + 4 * 4; i++) { /* n = 0, 1, 2 over small alphabets */
        IDX n = i < 9 ? (IDX)(i / 3) : 2;
        t[0] = (uint8_t)(i % 4 + 'a');
        t[1] = (uint8_t)(i / 4 % 4 + 'a');
        T(sort)(&r, &o, t, n);
        T(bwt)(&r, &o, t, n, i % 3);
        T(transforms)(&r, &o, t, n, i % 3);
    }
    for (int c = 0; c < cases; c++) {
        IDX n = (IDX)(3 + rnd(&s) % (uint64_t)(c % 10 == 9 ? max_n - 2 : (max_n < 64 ? max_n - 2 : 62)));
        gen_text(t, n, c % 6, &s);
        T(sort)(&r, &o, t, n);
        T(bwt)(&r, &o, t, n, c % 3);
        T(transforms)(&r, &o, t, n, (c / 3) % 3);
        if (!device_mode || c % 8 == 0) {
            T(checks)(&r, &o, t, n, &s);
            T(searches)(&r, &o, t, n, &s);
        }
    }
    free(t);
    return 0;
}

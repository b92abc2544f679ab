/* clsa lcs over k strings and clsa index --set / count / locate through the
 * command line, on the device under test, with generated FASTA files,
 * lines files and one file per string (fixed seeds): lcs against the
 * library's clsa_lcs_k on the host and a naive check of the substring,
 * count and locate against a naive search of each string, names from the
 * sequence table; usage errors (exit 2), runtime errors (exit 3) and no
 * output files left behind by a failed run. */
#include "cli_util.h"
#include "fasta_gen.h"

static char *read_text(const char *name)
{
    size_t n;
    return (char *)read_file(in_dir(name), &n);
}

/* The residues back to back and the lengths, as the library takes them. */
typedef struct flat {
    uint8_t *text;
    int64_t *len;
    int64_t k, total;
} flat;

/* Whether the last run's stderr holds s. */
static int stderr_has(const char *s)
{
    char *err = read_text("stderr");
    int has = strstr(err, s) != NULL;
    free(err);
    return has;
}

static flat flatten(const fg_set *e)
{
    flat f = {0};
    f.k = e->k;
    f.len = tu_malloc((size_t)e->k * 8 + 8);
    for (int i = 0; i < e->k; i++) f.total += (int64_t)e->r[i].len;
    f.text = tu_malloc((size_t)f.total + 1);
    int64_t at = 0;
    for (int i = 0; i < e->k; i++) {
        memcpy(f.text + at, e->r[i].seq, e->r[i].len);
        f.len[i] = (int64_t)e->r[i].len;
        at += f.len[i];
    }
    return f;
}

static void flat_free(flat *f)
{
    free(f->text);
    free(f->len);
}

static int holds(const fg_record *r, const uint8_t *p, size_t len)
{
    for (size_t o = 0; o + len <= r->len; o++)
        if (!memcmp(r->seq + o, p, len)) return 1;
    return 0;
}

static int shared_by(const fg_set *e, const uint8_t *p, size_t len)
{
    int c = 0;
    for (int i = 0; i < e->k; i++) c += holds(&e->r[i], p, len);
    return c;
}

/* The longest length shared by m strings, by brute force. */
static size_t naive_lcs_len(const fg_set *e, int m)
{
    size_t best = 0;
    for (int i = 0; i < e->k; i++)
        for (size_t o = 0; o < e->r[i].len; o++)
            while (o + best + 1 <= e->r[i].len && shared_by(e, e->r[i].seq + o, best + 1) >= m)
                best++;
    return best;
}

/* What clsa lcs prints for the k-string form, from the library on the host,
 * after the naive check of its answer.  names[i] NULL: the index. */
static char *expect_lcs(const fg_set *e, int m, const char *const *names)
{
    flat f = flatten(e);
    int64_t len = -1, *off = tu_malloc((size_t)f.k * 8 + 8);
    TU_OK(NULL, clsa_lcs_k(NULL, f.text, f.len, f.k, m, &len, off));
    assert_int_equal((size_t)len, naive_lcs_len(e, m));
    const uint8_t *sub = NULL;
    int holding = 0;
    for (int i = 0; i < e->k; i++)
        if (off[i] >= 0 && !sub) sub = e->r[i].seq + off[i];
    for (int i = 0; i < e->k; i++) {
        if (len == 0) break;
        int in = holds(&e->r[i], sub, (size_t)len);
        if (in != (off[i] >= 0)) fail_msg("lcs_k: string %d reported %lld, holds %d", i,
                                          (long long)off[i], in);
        if (off[i] >= 0 && memcmp(e->r[i].seq + off[i], sub, (size_t)len))
            fail_msg("lcs_k: string %d at %lld does not hold the substring", i,
                     (long long)off[i]);
        holding += in;
    }
    assert_true(len == 0 || holding >= m);
    char *out = tu_malloc(64 + (size_t)e->k * 200), *w = out;
    w += sprintf(w, "length=%lld strings=%d\n", (long long)len, len ? holding : 0);
    for (int i = 0; i < e->k; i++)
        w += names[i] ? sprintf(w, "index=%d offset=%lld name=%s\n", i, (long long)off[i],
                                names[i])
                      : sprintf(w, "index=%d offset=%lld name=%d\n", i, (long long)off[i], i);
    free(off);
    flat_free(&f);
    return out;
}

static void write_fasta(const char *path, const fg_set *s, uint64_t seed)
{
    fg_layout l = {-1, 0, 1, 1};
    fg_buf b = fg_render(s, l, seed);
    write_file(path, b.p, b.n);
    free(b.p);
}

static void write_lines(const char *path, const fg_set *e, int final_eol)
{
    fg_buf b = {0};
    for (int i = 0; i < e->k; i++) {
        fg_put(&b, e->r[i].seq, e->r[i].len);
        if (i + 1 < e->k || final_eol) fg_puts(&b, "\n");
    }
    write_file(path, b.p ? b.p : (uint8_t *)"", b.n);
    free(b.p);
}

static void check_stdout(const char *want, const char *what)
{
    char *got = read_text("stdout");
    if (strcmp(got, want)) fail_msg("%s: stdout\n%s\nexpected\n%s", what, got, want);
    free(got);
}

static void lcs_k(void **state)
{
    (void)state;
    for (int round = 0; round < 3; round++) {
        int k = 3 + round * 2;
        fg_set s = fg_make(500 + (uint64_t)round, k, tu_size(60, 25));
        fg_set e = fg_expected(&s, 0, 0);
        const char **names = tu_malloc(sizeof *names * (size_t)k);
        write_fasta(in_dir("in.fa"), &s, 9);
        for (int i = 0; i < k; i++) names[i] = e.r[i].name;
        for (int m = 1; m <= k; m += (m == 1 ? 1 : k - 2)) {
            char *want = expect_lcs(&e, m, names);
            assert_int_equal(run("lcs --backend device --min %d --fasta %s", m, in_dir("in.fa")),
                             0);
            check_stdout(want, "lcs --fasta");
            free(want);
        }
        /* default: all k */
        char *want = expect_lcs(&e, k, names);
        assert_int_equal(run("lcs -d \"$CLSA_DEVICE\" --fasta %s", in_dir("in.fa")), 0);
        check_stdout(want, "lcs --fasta, all");
        free(want);
        /* the same strings as lines, named by index */
        for (int i = 0; i < k; i++) names[i] = NULL;
        write_lines(in_dir("in.txt"), &e, round != 1);
        want = expect_lcs(&e, 2, names);
        assert_int_equal(run("lcs --backend device --min 2 --lines %s", in_dir("in.txt")), 0);
        check_stdout(want, "lcs --lines");
        free(want);
        /* one file per string, named by path */
        char args[1400] = "", files[16][300];
        size_t at = 0;
        for (int i = 0; i < k; i++) {
            char nm[16];
            snprintf(nm, sizeof nm, "s%d", i);
            snprintf(files[i], sizeof files[i], "%s", in_dir(nm));
            write_file(files[i], e.r[i].seq, e.r[i].len);
            names[i] = files[i];
            at += (size_t)snprintf(args + at, sizeof args - at, " %s", files[i]);
        }
        want = expect_lcs(&e, k - 1, names);
        assert_int_equal(run("lcs --backend device --min %d%s", k - 1, args), 0);
        check_stdout(want, "lcs FILE...");
        free(want);
        /* two files without --min: the two-string form */
        int64_t len, pa, pb;
        TU_OK(NULL, clsa_lcs(NULL, e.r[0].seq, (int64_t)e.r[0].len, e.r[1].seq,
                             (int64_t)e.r[1].len, &len, &pa, &pb));
        char two[128];
        snprintf(two, sizeof two, "length=%lld a=%lld b=%lld\n", (long long)len, (long long)pa,
                 (long long)pb);
        assert_int_equal(run("lcs --backend device %s %s", files[0], files[1]), 0);
        check_stdout(two, "lcs A B");
        free(names);
        fg_free(&s);
        fg_free(&e);
    }
}

/* count and locate lines for the patterns, naive search; names[i] NULL:
 * strings named by index. */
static void expect_queries(const fg_set *e, const char *const *pats, int np, int named,
                           char *counts, char *locs)
{
    for (int p = 0; p < np; p++) {
        size_t len = strlen(pats[p]);
        unsigned long long c = 0;
        int first = 1;
        for (int i = 0; i < e->k; i++)
            for (size_t o = 0; o < e->r[i].len && o + len <= e->r[i].len; o++)
                if (!memcmp(e->r[i].seq + o, pats[p], len)) {
                    locs += named ? sprintf(locs, "%s%s:%zu", first ? "" : " ", e->r[i].name, o)
                                  : sprintf(locs, "%s%d:%zu", first ? "" : " ", i, o);
                    first = 0;
                    c++;
                }
        counts += sprintf(counts, "%llu\n", c);
        locs += sprintf(locs, "\n");
    }
}

static void set_index(void **state)
{
    (void)state;
    fg_set s = fg_make(77, 9, tu_size(80, 30));
    fg_set e = fg_expected(&s, 0, 0);
    write_fasta(in_dir("set.fa"), &s, 3);
    write_lines(in_dir("set.txt"), &e, 1);
    /* patterns: pieces of records, one across a record end, absent, empty */
    const char *pats[12];
    char pbuf[12][16], pfile[256] = "";
    int np = 0;
    tu_rng r = {5};
    for (int i = 0; i < e.k && np < 8; i++) {
        if (e.r[i].len < 4) continue;
        size_t len = 1 + tu_below(&r, 4), o = tu_below(&r, (uint32_t)(e.r[i].len - len + 1));
        memcpy(pbuf[np], e.r[i].seq + o, len);
        pbuf[np][len] = 0;
        pats[np] = pbuf[np];
        np++;
    }
    snprintf(pbuf[np], 16, "%c%c", e.r[0].len ? e.r[0].seq[e.r[0].len - 1] : 'A',
             e.r[1].len ? e.r[1].seq[0] : 'C');
    pats[np] = pbuf[np];
    np++;
    pats[np++] = "QQQ";
    pats[np++] = "A";
    pats[np++] = "";
    size_t at = 0;
    for (int p = 0; p < np; p++) at += (size_t)sprintf(pfile + at, "%s\n", pats[p]);
    write_file(in_dir("pats"), pfile, at);
    size_t cap = 64 * 1024;
    char *counts = tu_malloc(cap), *locs = tu_malloc(cap), *locs_ix = tu_malloc(cap);
    expect_queries(&e, pats, np, 1, counts, locs);
    expect_queries(&e, pats, np, 0, counts, locs_ix);
    const char *const forms[2] = {"--fasta", "--lines"};
    const char *const inputs[2] = {"set.fa", "set.txt"};
    for (int f = 0; f < 2; f++) {
        assert_int_equal(run("index --backend device --set %s --sample-rate %d %s %s", forms[f],
                             3 + f, in_dir(inputs[f]), in_dir("set.idx")),
                         0);
        assert_true(exists(in_dir("set.idx.seqs")));
        assert_int_equal(run("count %s %s", in_dir("set.idx"), in_dir("pats")), 0);
        check_stdout(counts, "count on a set index");
        assert_int_equal(run("locate -d \"$CLSA_DEVICE\" %s %s", in_dir("set.idx"),
                             in_dir("pats")),
                         0);
        check_stdout(f == 0 ? locs : locs_ix, "locate on a set index");
    }
    /* the table elsewhere (--seqs on both sides); without it, indexes */
    assert_int_equal(run("index --set --fasta --seqs %s %s %s", in_dir("names.tsv"),
                         in_dir("set.fa"), in_dir("b.idx")),
                     0);
    assert_false(exists(in_dir("b.idx.seqs")));
    assert_int_equal(run("locate --seqs %s %s %s", in_dir("names.tsv"), in_dir("b.idx"),
                         in_dir("pats")),
                     0);
    check_stdout(locs, "locate --seqs");
    assert_int_equal(run("locate %s %s", in_dir("b.idx"), in_dir("pats")), 0);
    check_stdout(locs_ix, "locate without a table");
    /* a table of another set: exit 3, nothing on stdout */
    write_lines(in_dir("other.txt"), &e, 1);
    write_file(in_dir("short.txt"), "ACGT\n", 5);
    assert_int_equal(run("index --set --lines %s %s", in_dir("short.txt"), in_dir("c.idx")), 0);
    assert_int_equal(run("locate --seqs %s %s %s", in_dir("c.idx.seqs"), in_dir("b.idx"),
                         in_dir("pats")),
                     3);
    check_stdout("", "locate with a foreign table");
    /* the plain index still counts through the same commands */
    assert_int_equal(run("index %s %s", in_dir("short.txt"), in_dir("plain.idx")), 0);
    assert_int_equal(run("count %s %s", in_dir("plain.idx"), in_dir("pats")), 0);
    assert_int_equal(run("locate --seqs %s %s %s", in_dir("c.idx.seqs"), in_dir("plain.idx"),
                         in_dir("pats")),
                     2);
    free(counts);
    free(locs);
    free(locs_ix);
    fg_free(&s);
    fg_free(&e);
}

static void errors(void **state)
{
    (void)state;
    write_file(in_dir("x.fa"), ">a\nACGT\n>b\nCGTA\n", 16);
    write_file(in_dir("bad.fa"), "ACGT\n", 5);
    /* lcs usage errors: exit 2 */
    assert_int_equal(run("lcs --min 0 --fasta %s", in_dir("x.fa")), 2);
    assert_int_equal(run("lcs --min 3 --fasta %s", in_dir("x.fa")), 2);
    assert_true(stderr_has("--min 3"));
    assert_int_equal(run("lcs --fasta %s %s", in_dir("x.fa"), in_dir("x.fa")), 2);
    assert_int_equal(run("lcs --fasta --lines %s", in_dir("x.fa")), 2);
    assert_int_equal(run("lcs %s", in_dir("x.fa")), 2);
    assert_int_equal(run("lcs --revcomp %s %s", in_dir("x.fa"), in_dir("x.fa")), 2);
    assert_int_equal(run("lcs --fasta %s", in_dir("bad.fa")), 2);
    assert_int_equal(run("lcs - - %s", in_dir("x.fa")), 2);
    assert_int_equal(run("lcs --lines %s", in_dir("missing")), 3);
    /* index --set: usage errors and no outputs */
    assert_int_equal(run("index --set %s %s", in_dir("x.fa"), in_dir("o.idx")), 2);
    assert_int_equal(run("index --set --fasta --lines %s %s", in_dir("x.fa"), in_dir("o.idx")),
                     2);
    assert_int_equal(run("index --set --lines --revcomp %s %s", in_dir("x.fa"),
                         in_dir("o.idx")),
                     2);
    assert_int_equal(run("index --set --fasta %s %s", in_dir("bad.fa"), in_dir("o.idx")), 2);
    assert_int_equal(run("index --set --fasta %s -", in_dir("x.fa")), 2);
    assert_int_equal(run("index --set --fasta --seqs %s %s %s", in_dir("x.fa"), in_dir("x.fa"),
                         in_dir("o.idx")),
                     2);
    assert_false(exists(in_dir("o.idx")));
    assert_false(exists(in_dir("o.idx.seqs")));
    /* the table cannot be written: the index is taken away again (exit 3) */
    assert_int_equal(run("index --set --fasta --seqs %s %s %s", in_dir("nodir/t.seqs"),
                         in_dir("x.fa"), in_dir("o.idx")),
                     3);
    assert_false(exists(in_dir("o.idx")));
    assert_int_equal(run("index --set --fasta %s %s", in_dir("x.fa"), in_dir("nodir/o.idx")),
                     3);
    /* a damaged set index: exit 3 with the reason */
    assert_int_equal(run("index --set --fasta %s %s", in_dir("x.fa"), in_dir("o.idx")), 0);
    size_t n;
    uint8_t *b = read_file(in_dir("o.idx"), &n);
    b[n / 2] ^= 1;
    write_file(in_dir("d.idx"), b, n);
    write_file(in_dir("d.idx.seqs"), "", 0);
    free(b);
    write_file(in_dir("p"), "AC\n", 3);
    assert_int_equal(run("count %s %s", in_dir("d.idx"), in_dir("p")), 3);
    assert_true(stderr_has("not a valid clsa set FM-index file"));
}

static int setup(void **state)
{
    (void)state;
    return cli_dir_create("clsa-cli-sets");
}

static int teardown(void **state)
{
    (void)state;
    return cli_dir_remove();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lcs_k),
        cmocka_unit_test(set_index),
        cmocka_unit_test(errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/* clsa sa --fasta through the command line, on the device under test:
 * generated multi-FASTA files (wrapped lines of several widths, CRLF,
 * blank lines, lower case, empty records, gzip, standard input) against a
 * naive generalized suffix sort of the records, the document array and the
 * .seqs table against the generated records, --revcomp against a naive
 * reverse complement, and malformed inputs (exit 2, the line named, no
 * output left). */
#include <dirent.h>

#include "cli_util.h"
#include "fasta_gen.h"
#ifdef CLSA_HAVE_ZLIB
#include <zlib.h>
#endif

static void put(const char *path, const fg_buf *b) { write_file(path, b->p ? (const void *)b->p : "", b->n); }

/* dir/name in the caller's buffer (in_dir's rotate, and inputs outlive them). */
#define PATH(var, name)  \
    char var[512];       \
    snprintf(var, sizeof var, "%s/%s", dir, name)

/* The entries of a little-endian int32/int64 file as int64. */
static int64_t *read_array(const char *path, int width, size_t *n)
{
    size_t bytes;
    uint8_t *raw = read_file(path, &bytes);
    assert_int_equal(bytes % (size_t)(width / 8), 0);
    *n = bytes / (size_t)(width / 8);
    int64_t *v = tu_malloc(*n * sizeof *v);
    for (size_t i = 0; i < *n; i++) {
        uint64_t x = 0;
        for (int b = width / 8 - 1; b >= 0; b--) x = x << 8 | raw[i * (size_t)(width / 8) + (size_t)b];
        v[i] = width == 32 ? (int64_t)(int32_t)(uint32_t)x : (int64_t)x;
    }
    free(raw);
    return v;
}

static void same_array(const char *path, int width, const int64_t *want, int64_t n, const char *what)
{
    size_t got_n;
    int64_t *got = read_array(path, width, &got_n);
    if ((int64_t)got_n != n) fail_msg("%s: %zu entries, want %lld", what, got_n, (long long)n);
    for (int64_t i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("%s (--index %d): [%lld] = %lld, want %lld", what, width, (long long)i,
                     (long long)got[i], (long long)want[i]);
    free(got);
}

/* The table the records should give. */
static void same_table(const char *path, const fg_set *e)
{
    fg_buf t = {0};
    fg_puts(&t, "index\tname\toffset\tlength\n");
    int64_t offset = 0;
    for (int i = 0; i < e->k; i++) {
        char row[200];
        snprintf(row, sizeof row, "%d\t%s\t%lld\t%zu\n", i, e->r[i].name, (long long)offset, e->r[i].len);
        fg_puts(&t, row);
        offset += (int64_t)e->r[i].len + 1;
    }
    fg_put(&t, "", 1);
    size_t n;
    uint8_t *got = read_file(path, &n);
    if (strcmp((char *)got, (char *)t.p)) fail_msg("%s:\n%s\nwant:\n%s", path, got, t.p);
    free(got);
    free(t.p);
}

/* Runs clsa sa --fasta on input (with extra options) and checks all it
 * wrote against the expected records e. */
static void run_and_check(const char *input, const char *opts, int width, const fg_set *e,
                          const char *what)
{
    PATH(out, "out.sa");
    PATH(doc, "out.doc");
    char seqs[600];
    snprintf(seqs, sizeof seqs, "%s.seqs", out);
    int rc = run("sa --backend device --fasta --index %d --doc %s %s %s %s", width, doc, opts, input, out);
    if (rc != 0) fail_msg("%s: exit %d: %s", what, rc, read_file(in_dir("stderr"), &(size_t){0}));
    int64_t *sa, *d, n = fg_naive_gsa(e, &sa, &d);
    same_array(out, width, sa, n, what);
    same_array(doc, width, d, n, what);
    same_table(seqs, e);
    free(sa);
    free(d);
    remove(out);
    remove(doc);
    remove(seqs);
}

#ifdef CLSA_HAVE_ZLIB
static void put_gzip(const char *path, const fg_buf *b)
{
    gzFile g = gzopen(path, "wb");
    assert_non_null(g);
    assert_int_equal(gzwrite(g, b->p, (unsigned)b->n), (int)b->n);
    assert_int_equal(gzclose(g), Z_OK);
}
#endif

static void gsa_matches_naive(void **state)
{
    (void)state;
    fg_set s = fg_make(2024, 12, tu_size(3000, 40));
    fg_set e = fg_expected(&s, 0, 0);
    fg_layout lf = {60, 0, 0, 1}, crlf = {-1, 1, 1, 0};
    fg_buf a = fg_render(&s, lf, 1), b = fg_render(&s, crlf, 2);
    PATH(pa, "a.fa");
    PATH(pb, "b.fa");
    put(pa, &a);
    put(pb, &b);
    run_and_check(pa, "", 32, &e, "LF, width 60");
    run_and_check(pb, "", 64, &e, "CRLF, widths 1-80, blank lines");
#ifdef CLSA_HAVE_ZLIB
    PATH(pz, "b.fa.gz");
    put_gzip(pz, &b);
    run_and_check(pz, "", 32, &e, "gzip");
#endif
    if (!tu_small()) { /* standard input: the same reader, so once is enough under Oclgrind */
        char in[700];
        snprintf(in, sizeof in, "- < %s", pb);
        run_and_check(in, "", 64, &e, "standard input");
    }
    free(a.p);
    free(b.p);
    fg_free(&e);
    fg_free(&s);
}

static void revcomp_and_case(void **state)
{
    (void)state;
    fg_set s = fg_make(99, 7, tu_size(2000, 30));
    fg_layout l = {70, 0, 1, 1};
    fg_buf b = fg_render(&s, l, 3);
    PATH(p, "r.fa");
    put(p, &b);
    fg_set rc = fg_expected(&s, 0, 1), kc = fg_expected(&s, 1, 0);
    run_and_check(p, "--revcomp", 32, &rc, "--revcomp");
    run_and_check(p, "--keep-case", tu_small() ? 32 : 64, &kc, "--keep-case");
    fg_free(&rc);
    fg_free(&kc);
    free(b.p);
    fg_free(&s);
}

/* SA to standard output, the table to --seqs. */
static void standard_output(void **state)
{
    (void)state;
    fg_set s = fg_make(5, 5, tu_size(500, 20));
    fg_set e = fg_expected(&s, 0, 0);
    fg_layout l = {0, 0, 0, 1};
    fg_buf b = fg_render(&s, l, 4);
    PATH(p, "s.fa");
    PATH(t, "s.tsv");
    put(p, &b);
    assert_int_equal(run("sa --backend device --fasta --seqs %s %s -", t, p), 0);
    int64_t *sa, *d, n = fg_naive_gsa(&e, &sa, &d);
    same_array(in_dir("stdout"), 32, sa, n, "standard output");
    same_table(t, &e);
    free(sa);
    free(d);
    free(b.p);
    fg_free(&e);
    fg_free(&s);
}

/* Nothing of an output in the folder: not it, not its table, no temporary. */
static void nothing_written(void)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *de;
    while ((de = readdir(d)))
        if (!strncmp(de->d_name, "out", 3)) fail_msg("'%s' left behind", de->d_name);
    closedir(d);
}

/* input (written to bad.fa) fails with exit 2 and one line naming bad.fa:line. */
static void malformed(const fg_buf *input, const char *opts, int64_t line, const char *reason)
{
    PATH(p, "bad.fa");
    put(p, input);
    int rc = run("sa --backend device --fasta %s %s %s", opts, p, in_dir("out.sa"));
    size_t n;
    char *err = (char *)read_file(in_dir("stderr"), &n), want[600];
    snprintf(want, sizeof want, "clsa: error: %s:%lld: ", p, (long long)line);
    if (rc != 2 || strncmp(err, want, strlen(want)) || !strstr(err, reason) || strchr(err, '\n') != err + n - 1)
        fail_msg("exit %d, stderr '%s'; want exit 2 and one line '%s... %s'", rc, err, want, reason);
    free(err);
    nothing_written();
}

static void malformed_inputs(void **state)
{
    (void)state;
    fg_set s = fg_make(31, 5, 100);
    fg_layout l = {25, 1, 0, 1};
    fg_buf b = fg_render(&s, l, 9);
    /* A NUL put into a random sequence line: the line counted here. */
    tu_rng g = {17};
    size_t at;
    do at = tu_below(&g, (uint32_t)b.n);
    while (at == 0 || b.p[at - 1] != '\n' || b.p[at] == '>' || b.p[at] == '\r');
    int64_t line = 1;
    for (size_t i = 0; i < at; i++) line += b.p[i] == '\n';
    b.p[at] = 0;
    malformed(&b, "", line, "byte 0x00");
    free(b.p);
    struct { const char *text; const char *opts; int64_t line; const char *reason; } cases[] = {
        {"", "", 1, "empty input"},
        {"ACGT\n>x\nAC\n", "", 1, "before the first header"},
        {">x\nAC\n>\nAC\n", "", 3, "header with no name"},
        {">x\nACGT\n>y\nACEG\n", "--revcomp", 4, "has no complement"},
        {">x\nAC\rGT\n", "", 2, "carriage return"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        fg_buf c = {0};
        fg_puts(&c, cases[i].text);
        malformed(&c, cases[i].opts, cases[i].line, cases[i].reason);
        free(c.p);
    }
    fg_free(&s);
}

/* A reference reader for the plain files real_files() reads: LF or CRLF
 * line breaks, a header per record, no blank lines (asserted). */
static fg_set simple_read(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fg_set s = {tu_malloc(sizeof(fg_record) * 1000), 0};
    static char line[1 << 16];
    size_t cap = 0;
    while (fgets(line, sizeof line, f)) {
        size_t n = strcspn(line, "\r\n");
        if (n == 0 || (line[n] == '\r' && line[n + 1] != '\n')) fail_msg("%s: a line the reference does not read", path);
        line[n] = 0;
        if (line[0] == '>') {
            assert_true(s.k < 1000);
            fg_record *r = &s.r[s.k++];
            line[1 + strcspn(line + 1, " \t")] = 0;
            assert_true(strlen(line + 1) <= 40);
            snprintf(r->name, sizeof r->name, "%.40s", line + 1);
            r->seq = NULL;
            r->len = cap = 0;
            continue;
        }
        fg_record *r = &s.r[s.k - 1];
        if (r->len + n + 1 > cap) r->seq = realloc(r->seq, cap = 2 * (r->len + n + 1));
        for (size_t i = 0; i < n; i++) {
            uint8_t c = (uint8_t)line[i];
            r->seq[r->len++] = c >= 'a' && c <= 'z' ? (uint8_t)(c - 32) : c;
        }
    }
    fclose(f);
    return s;
}

/* Held-out real input: the example FASTA files of the Debian package
 * python-pyfaidx-examples (tools/setup.sh installs it; skipped when it is
 * absent): 20 human mRNAs, some of them variants of one gene, as plain
 * text, gzip, lower case and CRLF, which must all give the same arrays. */
#define PYFAIDX "/usr/share/doc/python-pyfaidx-examples/examples/"
static void real_files(void **state)
{
    (void)state;
    if (!exists(PYFAIDX "genes.fasta") || tu_small()) {
        printf("real_files: skipped (%s)\n", tu_small() ? "too big for Oclgrind" : "no " PYFAIDX);
        return;
    }
    fg_set e = simple_read(PYFAIDX "genes.fasta");
    assert_true(e.k >= 2);
    const char *files[] = {"genes.fasta", "genes.fasta.gz", "genes.fasta.lower", "issue_141.fasta"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[300];
        snprintf(path, sizeof path, PYFAIDX "%s", files[i]);
#ifndef CLSA_HAVE_ZLIB
        if (strstr(files[i], ".gz")) continue;
#endif
        if (!exists(path)) continue;
        run_and_check(path, "", i % 2 ? 64 : 32, &e, files[i]);
    }
    fg_free(&e);
}

static void bad_usage(void **state)
{
    (void)state;
    fg_buf ok = {0};
    fg_puts(&ok, ">x\nACGT\n");
    PATH(p, "ok.fa");
    PATH(o, "out.sa");
    put(p, &ok);
    free(ok.p);
    assert_int_equal(run("sa --revcomp %s %s", p, o), 2);
    assert_int_equal(run("sa --keep-case %s %s", p, o), 2);
    assert_int_equal(run("sa --doc %s %s %s", in_dir("out.doc"), p, o), 2);
    assert_int_equal(run("sa --fasta --doc %s %s", p, o), 2);             /* --doc eats INPUT */
    assert_int_equal(run("sa --fasta %s -", p), 2);                      /* no place for the table */
    assert_int_equal(run("sa --fasta --seqs - --doc - %s %s", p, o), 2); /* two on stdout */
    assert_int_equal(run("sa --fasta --doc %s %s %s", p, p, o), 2);      /* doc over the input */
    assert_int_equal(run("sa --fasta --seqs %s %s %s", o, p, o), 2);     /* table over the SA */
    assert_int_equal(run("sa --fasta --index 16 %s %s", p, o), 2);
    assert_int_equal(run("sa --fasta %s/missing.fa %s", dir, o), 3);
#ifndef CLSA_HAVE_ZLIB
    /* A build without zlib names what it cannot read. */
    fg_buf gz = {(uint8_t *)"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10, 10};
    PATH(pz, "x.fa.gz");
    put(pz, &gz);
    assert_int_equal(run("sa --fasta %s %s", pz, o), 3);
    assert_non_null(strstr((char *)read_file(in_dir("stderr"), &(size_t){0}), "without zlib"));
#endif
    nothing_written();
    assert_int_equal(run("sa --fasta --help"), 0);
}

int main(void)
{
    if (cli_dir_create("clsa-cli-fasta")) return 1;
    clsa_destroy(tu_context()); /* skips cleanly when the device is missing */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gsa_matches_naive), cmocka_unit_test(revcomp_and_case),
        cmocka_unit_test(standard_output),   cmocka_unit_test(malformed_inputs),
        cmocka_unit_test(real_files),        cmocka_unit_test(bad_usage),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (cli_dir_remove()) rc = 1;
    return rc;
}

/* The CLI's FASTA reader (tools/cli/fasta.c) alone: generated multi-FASTA
 * files in every layout against the records they were made from, fed
 * whole and in pieces of every size; files, gzip (one and several
 * members); malformed inputs made by damaging a generated file at a
 * random line, which the reader must name. */
#include "fasta.h"
#include "fasta_gen.h"

#include <unistd.h>
#ifdef CLSA_HAVE_ZLIB
#include <zlib.h>
#endif

/* Parses b in pieces of 1..piece bytes (0: whole); returns the result. */
static int parse(const fg_buf *b, unsigned flags, size_t piece, uint64_t seed, fasta_set *out,
                 int64_t *line, char *why)
{
    fasta_parser *p = tu_malloc(sizeof *p);
    fasta_init(p, flags);
    tu_rng g = {seed};
    int rc = FASTA_OK;
    for (size_t at = 0; at < b->n && rc == FASTA_OK;) {
        size_t take = piece ? 1 + tu_below(&g, (uint32_t)piece) : b->n;
        if (take > b->n - at) take = b->n - at;
        rc = fasta_feed(p, b->p + at, take);
        at += take;
    }
    if (rc == FASTA_OK) rc = fasta_finish(p);
    *line = p->line;
    strcpy(why, p->why);
    memset(out, 0, sizeof *out);
    if (rc == FASTA_OK) fasta_take(p, out);
    fasta_set_free(&p->set);
    free(p);
    return rc;
}

static void same_records(const fasta_set *got, const fg_set *want, const char *what)
{
    if (got->k != want->k) fail_msg("%s: %lld records, want %d", what, (long long)got->k, want->k);
    int64_t at = 0;
    for (int i = 0; i < want->k; i++) {
        const fg_record *r = &want->r[i];
        if (strcmp(fasta_name(got, i), r->name))
            fail_msg("%s: record %d named '%s', want '%s'", what, i, fasta_name(got, i), r->name);
        if (got->len[i] != (int64_t)r->len)
            fail_msg("%s: record %d has %lld residues, want %zu", what, i, (long long)got->len[i], r->len);
        if (r->len && memcmp(got->seq + at, r->seq, r->len))
            fail_msg("%s: record %d residues differ", what, i);
        at += (int64_t)r->len;
    }
    assert_int_equal(got->n, at);
}

static const fg_layout layouts[] = {
    {60, 0, 0, 1}, {70, 1, 0, 1}, {1, 0, 1, 1}, {0, 0, 0, 0}, {-1, 1, 1, 0}, {-1, 0, 1, 1}, {13, 1, 1, 1},
};
#define NLAYOUTS (sizeof layouts / sizeof *layouts)

static void layouts_give_the_records(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        fg_set s = fg_make(seed, 3 + (int)seed * 3, seed == 4 ? 5000 : 300);
        for (size_t l = 0; l < NLAYOUTS; l++) {
            fg_buf b = fg_render(&s, layouts[l], seed * 31 + l);
            for (unsigned flags = 0; flags < 4; flags++) {
                fg_set want = fg_expected(&s, flags & FASTA_KEEP_CASE, flags & FASTA_REVCOMP);
                for (size_t piece = 0; piece <= 40; piece += 13) {
                    fasta_set got;
                    int64_t line;
                    char why[256], what[128];
                    int rc = parse(&b, flags, piece, seed + piece, &got, &line, why);
                    snprintf(what, sizeof what, "seed %llu layout %zu flags %u piece %zu",
                             (unsigned long long)seed, l, flags, piece);
                    if (rc != FASTA_OK) fail_msg("%s: rc %d at line %lld: %s", what, rc, (long long)line, why);
                    same_records(&got, &want, what);
                    fasta_set_free(&got);
                }
                fg_free(&want);
            }
            free(b.p);
        }
        fg_free(&s);
    }
}

/* A generated file with one byte put into a random line of the given kind
 * (header or sequence); the reader must fail on that line. */
static void damaged(uint64_t seed, int header, const char *bad, size_t bad_n, unsigned flags,
                    const char *reason)
{
    fg_set s = fg_make(seed, 6, 200);
    fg_layout l = {17, (int)(seed & 1), 1, 1};
    fg_buf b = fg_render(&s, l, seed);
    tu_rng g = {seed * 7 + 1};
    /* The lines of the kind wanted: where each starts and its number. */
    size_t starts[4096], nums[4096], nl = 0, line = 1;
    for (size_t i = 0; i < b.n && nl < 4096; i++) {
        int at_start = i == 0 || b.p[i - 1] == '\n';
        if (at_start && (b.p[i] == '>') == header && b.p[i] != '\n' && b.p[i] != '\r' && b.p[i] != ' ') {
            starts[nl] = i;
            nums[nl++] = line;
        }
        if (b.p[i] == '\n') line++;
    }
    assert_true(nl > 0);
    size_t pick = tu_below(&g, (uint32_t)nl), at = starts[pick] + 1;
    fg_buf d = {0};
    fg_put(&d, b.p, at);
    fg_put(&d, bad, bad_n);
    fg_put(&d, b.p + at, b.n - at);
    fasta_set got;
    int64_t got_line;
    char why[256];
    int rc = parse(&d, flags, 7, seed, &got, &got_line, why);
    if (rc != FASTA_MALFORMED || got_line != (int64_t)nums[pick] || !strstr(why, reason))
        fail_msg("seed %llu, byte 0x%02X put in line %zu: rc %d, line %lld, '%s' (want '%s')",
                 (unsigned long long)seed, (uint8_t)bad[0], nums[pick], rc, (long long)got_line, why,
                 reason);
    free(d.p);
    free(b.p);
    fg_free(&s);
}

static void damage_is_named_by_line(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        damaged(seed, 0, "\0", 1, 0, "control character) in a sequence line");
        damaged(seed, 0, "\x01", 1, 0, "byte 0x01");
        damaged(seed, 0, "\x80", 1, 0, "not ASCII");
        damaged(seed, 0, "\xff", 1, 0, "byte 0xFF");
        damaged(seed, 0, ">", 1, 0, "'>' inside a sequence line");
        damaged(seed, 0, "\rA", 2, 0, "carriage return not followed");
        damaged(seed, 0, "E", 1, FASTA_REVCOMP, "'E' has no complement");
        damaged(seed, 1, "\x07", 1, 0, "in a header");
        damaged(seed, 1, "\x1b", 1, FASTA_KEEP_CASE, "in a header");
    }
}

static void expect_error(const char *text, unsigned flags, int64_t line, const char *reason)
{
    fg_buf b = {0};
    fg_puts(&b, text);
    for (size_t piece = 0; piece <= 3; piece++) {
        fasta_set got;
        int64_t got_line;
        char why[256];
        int rc = parse(&b, flags, piece, 1, &got, &got_line, why);
        if (rc != FASTA_MALFORMED || got_line != line || !strstr(why, reason))
            fail_msg("'%s' (pieces of %zu): rc %d, line %lld, '%s'; want line %lld, '%s'", text, piece,
                     rc, (long long)got_line, why, (long long)line, reason);
    }
    free(b.p);
}

static void structure(void **state)
{
    (void)state;
    expect_error("", 0, 1, "empty input");
    expect_error("\n\n \t\n", 0, 3, "no FASTA record");
    expect_error("\nACGT\n>x\nAC\n", 0, 2, "before the first header");
    expect_error("  ACGT\n>x\n", 0, 1, "before the first header");
    expect_error(">x\nAC\n>\nAC\n", 0, 3, "header with no name");
    expect_error(">x\nAC\n> y\nAC\n", 0, 3, "header with no name");
    expect_error(">x\r\nAC\r\n>\r\n", 0, 3, "header with no name");
    expect_error(">x\nAC\n>", 0, 3, "header with no name");
    expect_error(">x\nAC\r", 0, 2, "carriage return at the end");
    expect_error(">x\nAC\n >y\n", 0, 3, "'>' inside");
    /* Allowed: an empty record, even the last one without a line break,
     * and a header that ends the file; lower case kept with KEEP_CASE. */
    fg_buf b = {0};
    fg_puts(&b, ">a\n>b x\nacgtn\n\n>c\tdesc\r\nNN nn\r\n>d");
    fasta_set got;
    int64_t line;
    char why[256];
    assert_int_equal(parse(&b, FASTA_KEEP_CASE, 0, 1, &got, &line, why), FASTA_OK);
    assert_int_equal(got.k, 4);
    assert_int_equal(got.len[0], 0);
    assert_int_equal(got.len[3], 0);
    assert_string_equal(fasta_name(&got, 2), "c");
    assert_memory_equal(got.seq, "acgtnNNnn", 9);
    fasta_set_free(&got);
    free(b.p);
}

/* ---- whole files ------------------------------------------------------------ */

static char dir[256];

static void put_file(const char *path, const fg_buf *b)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b->p, 1, b->n, f), b->n);
    fclose(f);
}

#ifdef CLSA_HAVE_ZLIB
/* gzip in `members` members (bgzip and `cat a.gz b.gz` make several). */
static void put_gzip(const char *path, const fg_buf *b, int members)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fclose(f);
    size_t part = b->n / (size_t)members + 1;
    for (size_t at = 0; at < b->n; at += part) {
        gzFile g = gzopen(path, "ab");
        assert_non_null(g);
        size_t take = b->n - at < part ? b->n - at : part;
        assert_int_equal(gzwrite(g, b->p + at, (unsigned)take), (int)take);
        assert_int_equal(gzclose(g), Z_OK);
    }
}
#endif

static void files_plain_and_gzip(void **state)
{
    (void)state;
    fg_set s = fg_make(77, 11, 3000);
    fg_layout l = {60, 1, 1, 1};
    fg_buf b = fg_render(&s, l, 5);
    fg_set want = fg_expected(&s, 0, 0);
    char path[400], why[512];
    int64_t line;
    fasta_set got;
    snprintf(path, sizeof path, "%s/x.fa", dir);
    put_file(path, &b);
    assert_int_equal(fasta_read_path(path, 0, &got, why, sizeof why, &line), FASTA_OK);
    same_records(&got, &want, "plain file");
    fasta_set_free(&got);
    snprintf(path, sizeof path, "%s/x.fa.gz", dir);
#ifdef CLSA_HAVE_ZLIB
    for (int members = 1; members <= 3; members += 2) {
        put_gzip(path, &b, members);
        assert_int_equal(fasta_read_path(path, 0, &got, why, sizeof why, &line), FASTA_OK);
        same_records(&got, &want, members == 1 ? "gzip" : "gzip, 3 members");
        fasta_set_free(&got);
    }
    /* Cut short: an error, not a shorter set of records. */
    size_t n;
    FILE *f = fopen(path, "rb");
    uint8_t *gz = tu_malloc(1 << 20);
    n = fread(gz, 1, 1 << 20, f);
    fclose(f);
    fg_buf cut = {gz, n / 2, 1 << 20};
    put_file(path, &cut);
    assert_int_equal(fasta_read_path(path, 0, &got, why, sizeof why, &line), FASTA_MALFORMED);
    assert_non_null(strstr(why, "gzip data"));
    free(gz);
#else
    fg_buf gz = {(uint8_t *)"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10, 10};
    put_file(path, &gz);
    assert_int_equal(fasta_read_path(path, 0, &got, why, sizeof why, &line), FASTA_NO_ZLIB);
    assert_non_null(strstr(why, "without zlib"));
#endif
    snprintf(path, sizeof path, "%s/missing.fa", dir);
    assert_int_equal(fasta_read_path(path, 0, &got, why, sizeof why, &line), FASTA_IO);
    assert_non_null(strstr(why, "missing.fa"));
    assert_int_equal(fasta_read_path(dir, 0, &got, why, sizeof why, &line), FASTA_IO);
    fg_free(&want);
    fg_free(&s);
    free(b.p);
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/clsa-fasta-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(layouts_give_the_records), cmocka_unit_test(damage_is_named_by_line),
        cmocka_unit_test(structure), cmocka_unit_test(files_plain_and_gzip),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) rc = 1;
    return rc;
}

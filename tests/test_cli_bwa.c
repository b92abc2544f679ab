/* clsa index --format bwa against bwa 0.7.17 itself (Debian's `bwa`,
 * tools/setup.sh): the five index files byte for byte, and the SAM of
 * `bwa mem` (single and paired reads, @PG line dropped) with either index,
 * on the lambda phage of bowtie2-examples (gzip reference and reads) and on
 * generated multi-record genomes with N runs, soft-masked lower case,
 * IUPAC codes, empty records, long headers and CRLF line breaks.  Bad
 * FASTA: exit 2 naming FILE:LINE, no output file made or changed and no
 * temporary left.  Skipped (with a message) where bwa is not installed. */
#include "cli_util.h"
#include "gen.h"

#include <dirent.h>
#include <string.h>

static const char *const ext[] = {".pac", ".ann", ".amb", ".bwt", ".sa"};

static int have_bwa(void) { return system("command -v bwa >/dev/null 2>&1") == 0; }

/* A shell command in the scratch folder; its exit code. */
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char args[2048], cmd[2400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "cd %s && %s", dir, args);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void same_file(const char *a, const char *b)
{
    size_t na, nb;
    uint8_t *x = read_file(in_dir(a), &na), *y = read_file(in_dir(b), &nb);
    if (na != nb || memcmp(x, y, na)) fail_msg("%s and %s differ (%zu and %zu bytes)", a, b, na, nb);
    free(x);
    free(y);
}

/* bwa index in a/, clsa in b/ (the same FASTA name in both); then every
 * file compared and bwa mem's SAM of reads (and mates, if any) too. */
static void compare(const char *fa, const char *reads, const char *mates, const char *extra)
{
    assert_int_equal(sh("rm -rf a b && mkdir a b && cp %s a/ && cp %s b/", fa, fa), 0);
    assert_int_equal(sh("bwa index a/%s 2>bwa.log", fa), 0);
    assert_int_equal(run("index --format bwa %s %s/b/%s", extra, dir, fa), 0);
    for (int i = 0; i < 5; i++) {
        char x[256], y[256];
        snprintf(x, sizeof x, "a/%s%s", fa, ext[i]);
        snprintf(y, sizeof y, "b/%s%s", fa, ext[i]);
        same_file(x, y);
    }
    for (int paired = 0; paired < 2 && reads; paired++) {
        if (paired && !mates) break;
        const char *m = paired ? mates : "";
        assert_int_equal(sh("bwa mem -t 1 a/%s %s %s 2>>bwa.log | grep -v '^@PG' >a.sam", fa, reads, m), 0);
        assert_int_equal(sh("bwa mem -t 1 b/%s %s %s 2>>bwa.log | grep -v '^@PG' >b.sam", fa, reads, m), 0);
        assert_int_equal(sh("grep -vc '^@' a.sam >/dev/null"), 0); /* some alignments */
        same_file("a.sam", "b.sam");
    }
}

/* The lambda phage and its reads as bowtie2-examples ships them (gzip). */
#define BT2 "/usr/share/doc/bowtie2/examples/"
static void lambda_phage(void **state)
{
    (void)state;
    if (!have_bwa() || access(BT2 "reference/lambda_virus.fa.gz", R_OK) || tu_small()) {
        printf("lambda_phage: skipped (%s)\n", tu_small() ? "too big for Oclgrind"
                                               : !have_bwa() ? "no bwa" : "no " BT2);
        return;
    }
    assert_int_equal(sh("cp " BT2 "reference/lambda_virus.fa.gz lambda.fa.gz && "
                        "zcat " BT2 "reads/reads_1.fq.gz | head -8000 >r1.fq && "
                        "zcat " BT2 "reads/reads_2.fq.gz | head -8000 >r2.fq"), 0);
    compare("lambda.fa.gz", "r1.fq", "r2.fq", "--backend device");
}

/* A generated genome of n bases in FASTA with every feature bwa treats
 * specially, and read pairs of len bases from it. */
static void make_genome(size_t n, size_t len, int crlf, uint64_t seed)
{
    uint8_t *g = tu_malloc(n);
    gen_genome(g, n, GEN_GENOME_SOFTMASK | GEN_GENOME_IUPAC, seed);
    for (size_t i = n / 7; i < n / 7 + n / 50; i++) g[i] = 'N';         /* an N run */
    for (size_t i = n / 3; i < n / 3 + n / 100; i++) g[i] = 'n';         /* a lower-case one */
    memcpy(g + n / 2, "NNnnRRYNNN-.*", 13);                             /* runs of mixed codes */
    FILE *f = fopen(in_dir("g.fa"), "wb");
    assert_non_null(f);
    assert_int_equal(fputs(crlf ? ">empty first\r\n" : ">empty first\n", f) < 0, 0);
    assert_int_equal(gen_genome_fasta(f, g, n, 7, GEN_FASTA_MIXED | (crlf ? GEN_FASTA_CRLF : 0), seed), 0);
    assert_int_equal(fputs(crlf ? ">empty_last \r\n" : ">empty_last\t\n", f) < 0, 0);
    fclose(f);
    FILE *r1 = fopen(in_dir("g1.fq"), "wb"), *r2 = fopen(in_dir("g2.fq"), "wb");
    assert_int_equal(gen_reads(r1, r2, g, n, tu_small() ? 20 : 600, len, seed), 0);
    fclose(r1);
    fclose(r2);
    free(g);
}

static void generated_genomes(void **state)
{
    (void)state;
    if (!have_bwa()) {
        printf("generated_genomes: skipped (no bwa)\n");
        return;
    }
    size_t n = tu_size(120000, 800);
    for (int crlf = tu_small(); crlf < 2; crlf++) { /* Oclgrind: the CRLF one alone */
        make_genome(n, tu_small() ? 40 : 100, crlf, 11 + (uint64_t)crlf);
        compare("g.fa", "g1.fq", "g2.fq", "--backend device");
    }
    /* the host backend from standard input, and the device out of core
     * under --mem (not on Oclgrind: slow there), give the same files */
    for (int k = 0; k < 2 - tu_small(); k++) {
        if (k == 0) assert_int_equal(run("index --format bwa --backend host - %s/b/h <%s", dir, in_dir("g.fa")), 0);
        else assert_int_equal(run("index --format bwa --backend device --mem 3M - %s/b/o <%s", dir, in_dir("g.fa")), 0);
        for (int i = 0; i < 5; i++) {
            char x[64], y[64];
            snprintf(x, sizeof x, "a/g.fa%s", ext[i]);
            snprintf(y, sizeof y, "b/%s%s", k ? "o" : "h", ext[i]);
            same_file(x, y);
        }
    }
}

/* Nothing in the folder but what the test put there: no output, no temporary. */
static void only_files(const char *keep1, const char *keep2)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));) {
        const char *s = e->d_name;
        if (!strcmp(s, ".") || !strcmp(s, "..") || !strcmp(s, "stdout") || !strcmp(s, "stderr") ||
            !strcmp(s, keep1) || !strcmp(s, keep2))
            continue;
        fail_msg("left behind: %s", s);
    }
    closedir(d);
}

static void bad_fasta(void **state)
{
    (void)state;
    static const struct { const char *text; int line; } bad[] = {
        {">a\nAC GT\n", 2},          {">a\nACGT\n@b\nAC\n", 3},   {"ACGT\n>a\nAC\n", 1},
        {">\nACGT\n", 1},            {">a\nAC\x01GT\n", 2},      {">a\nAC\rGT\n", 2},
        {">a\n>b\n\n", 3},           {">a\n\r\nACGT\n", 2},       {">a\nAC>GT\n", 2},
        {">a\nACGT\n+\nIIII\n", 3},  {">a x\x80y\nACGT\n", 1},   {"", 1},
    };
    assert_int_equal(sh("rm -rf a b"), 0);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        write_file(in_dir("bad.fa"), bad[i].text, strlen(bad[i].text));
        write_file(in_dir("bad.fa.bwt"), "old", 3); /* an older index stays as it was */
        assert_int_equal(run("index --format bwa %s", in_dir("bad.fa")), 2);
        size_t n;
        char *err = (char *)read_file(in_dir("stderr"), &n), want[300];
        snprintf(want, sizeof want, "bad.fa:%d: ", bad[i].line);
        if (!strstr(err, want)) fail_msg("case %zu: '%s' does not name %s", i, err, want);
        free(err);
        uint8_t *old = read_file(in_dir("bad.fa.bwt"), &n);
        assert_true(n == 3 && !memcmp(old, "old", 3));
        free(old);
        only_files("bad.fa", "bad.fa.bwt");
    }
    write_file(in_dir("bad.fa"), "BZh91AY&SY", 10); /* another compression: named */
    assert_int_equal(run("index --format bwa %s", in_dir("bad.fa")), 2);
    assert_int_equal(run("index --format bwa %s/missing.fa", dir), 3);
    assert_int_equal(run("index --format fm %s", in_dir("bad.fa")), 2);
    assert_int_equal(run("index --format bwa - "), 2);                /* stdin needs a prefix */
    /* an output (PREFIX.bwt) that is the input */
    assert_int_equal(run("index --format bwa %s %s", in_dir("bad.fa.bwt"), in_dir("bad.fa")), 2);
    only_files("bad.fa", "bad.fa.bwt");
}

/* The library call: from memory through the read function (mem_read,
 * cli_util.h), and a cancel by the progress callback after the first
 * file's temporary is written, which leaves nothing. */
static int writes_seen;
static int stop_in_write(void *user, const char *phase, double f)
{
    (void)user, (void)f;
    return !strcmp(phase, "write") && ++writes_seen == 2;
}

static void library_call(void **state)
{
    (void)state;
    static const char fa[] = ">a desc\nACGTNNacgtRYACGGTTAACCGGTTTTAAAACCCCGGGG\n>b\nTTGACCA\n";
    clsa_options o;
    clsa_options_init(&o);
    o.progress = stop_in_write;
    clsa_context *ctx = NULL;
    assert_int_equal(clsa_create(&o, &ctx), CLSA_OK);
    mem_input m = {fa, sizeof fa - 1};
    char *prefix = in_dir("lib");
    assert_int_equal(clsa_bwa_index(ctx, mem_read, &m, "mem", prefix), CLSA_ERR_CANCELLED);
    assert_int_equal(writes_seen, 2);
    only_files("", "");
    m = (mem_input){fa, sizeof fa - 1};
    assert_int_equal(clsa_bwa_index(ctx, mem_read, &m, "mem", prefix), CLSA_OK); /* writes_seen > 2 */
    size_t n;
    char *ann = (char *)read_file(in_dir("lib.ann"), &n);
    assert_string_equal(ann, "47 2 11\n0 a desc\n0 40 3\n0 b (null)\n40 7 0\n"); /* as bwa index */
    free(ann);
    /* two steps; a reference is indexed once */
    clsa_bwa_ref *ref = NULL;
    m = (mem_input){">x\nAC GT\n", 9};
    char err[200];
    assert_int_equal(clsa_bwa_ref_read(mem_read, &m, "mem", &ref, err, sizeof err), CLSA_ERR_FORMAT);
    assert_null(ref);
    assert_non_null(strstr(err, "mem:2: whitespace"));
    m = (mem_input){fa, sizeof fa - 1};
    assert_int_equal(clsa_bwa_ref_read(mem_read, &m, NULL, &ref, err, sizeof err), CLSA_OK);
    assert_int_equal(clsa_bwa_ref_index(ctx, ref, in_dir("two")), CLSA_OK);
    assert_int_equal(clsa_bwa_ref_index(ctx, ref, in_dir("two")), CLSA_ERR_INVALID_ARG);
    clsa_bwa_ref_free(ref);
    for (int i = 0; i < 5; i++) {
        char x[32], y[32];
        snprintf(x, sizeof x, "lib%s", ext[i]);
        snprintf(y, sizeof y, "two%s", ext[i]);
        same_file(x, y);
    }
    clsa_destroy(ctx);
    assert_int_equal(sh("rm -f lib.* two.*"), 0);
}

int main(void)
{
    if (cli_dir_create("clsa-cli-bwa")) return 1;
    clsa_destroy(tu_context()); /* skips cleanly when the device is missing */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(library_call),
        cmocka_unit_test(bad_fasta),
        cmocka_unit_test(generated_genomes),
        cmocka_unit_test(lambda_phage),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (cli_dir_remove()) rc = 1;
    return rc;
}

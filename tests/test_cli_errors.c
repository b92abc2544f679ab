/* The CLI under bad usage and failing files: exit codes (2 usage, 3 runtime,
 * 1 check failed, 0 help/version), one error line on stderr, and never a
 * partial output file (neither the output nor a temporary beside it).
 * Host backend (no device needed): the file handling is the same for all. */
#include "testutil.h"

#include <divsufsort.h>

#include <dirent.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[256];

/* Runs `clsa ARGS` with stdout/stderr captured; `prefix` is shell put
 * before the command (ulimit, env). */
static int run_with(const char *prefix, const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s %s %s >%s/stdout 2>%s/stderr", prefix, CLSA_CLI, args, dir, dir);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + (WIFSIGNALED(rc) ? WTERMSIG(rc) : 0);
}

static int run(const char *args) { return run_with("", args); }

static char *slurp(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* stderr is exactly one line mentioning `words` (if given). */
static void one_error_line(const char *words)
{
    const char *e = slurp("stderr");
    const char *nl = strchr(e, '\n');
    if (!nl || nl[1] != 0) fail_msg("stderr is not one line: '%s'", e);
    if (!strstr(e, "error")) fail_msg("stderr lacks 'error': '%s'", e);
    if (words && !strstr(e, words)) fail_msg("stderr lacks '%s': '%s'", words, e);
}

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

static int exists(const char *path)
{
    struct stat s;
    return lstat(path, &s) == 0;
}

/* No file in folder d whose name contains ".tmp" (the CLI's temporaries). */
static void no_temporaries(const char *d)
{
    DIR *dd = opendir(d);
    if (!dd) return;
    struct dirent *e;
    while ((e = readdir(dd)))
        if (strstr(e->d_name, ".tmp")) fail_msg("temporary left behind: %s/%s", d, e->d_name);
    closedir(dd);
}

static char in[300], out[300];

static void usage_errors(void **state)
{
    (void)state;
    static const char *bad[] = {
        "",                          /* no command */
        "frobnicate",                /* unknown command */
        "sa --no-such-option IN OUT", "sa -x IN OUT", "sa IN",   "sa IN OUT EXTRA",
        "sa --index 48 IN OUT",      "sa --index IN OUT",        "sa --index= IN OUT",
        "sa --backend gpu IN OUT",   "sa -d",                    "sa --device",
        "check IN",                  "check --index 16 IN OUT",  "devices extra",
        "sa --stats=yes IN OUT",     "check --stats IN OUT",     "bwt IN",
        "unbwt IN OUT",              /* missing --primary */
        "unbwt --primary x IN OUT",  "lcp --index 8 IN OUT",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char args[600];
        /* IN/OUT -> real paths, so only the usage is wrong. */
        snprintf(args, sizeof args, "%s", bad[i]);
        char expanded[1200] = "";
        for (char *tok = strtok(args, " "); tok; tok = strtok(NULL, " ")) {
            const char *w = !strcmp(tok, "IN") ? in : !strcmp(tok, "OUT") ? out : tok;
            strcat(expanded, w);
            strcat(expanded, " ");
        }
        int rc = run(expanded);
        if (rc != 2) fail_msg("'clsa %s' exited %d, want 2 (stderr: %s)", bad[i], rc, slurp("stderr"));
        if (*bad[i]) one_error_line(NULL); /* bare 'clsa' prints the usage */
        assert_false(exists(out));
    }
    no_temporaries(dir);
}

static void help_and_version(void **state)
{
    (void)state;
    static const char *ok[] = {"--help", "-h", "help", "--version", "-V", "sa --help",
                               "check -h", "devices --help", "bwt --help", "lcp --help"};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        int rc = run(ok[i]);
        if (rc != 0) fail_msg("'clsa %s' exited %d", ok[i], rc);
        if (!*slurp("stdout")) fail_msg("'clsa %s' printed nothing on stdout", ok[i]);
    }
    run("--version");
    assert_non_null(strstr(slurp("stdout"), CLSA_VERSION_STRING));
}

static void bad_inputs(void **state)
{
    (void)state;
    char args[1200];
    /* Missing input. */
    snprintf(args, sizeof args, "sa --backend host %s/missing.bin %s", dir, out);
    assert_int_equal(run(args), 3);
    one_error_line("missing.bin");
    assert_false(exists(out));
    /* A folder as input. */
    snprintf(args, sizeof args, "sa --backend host %s %s", dir, out);
    assert_int_equal(run(args), 3);
    one_error_line(NULL);
    assert_false(exists(out));
    /* Unreadable input (only meaningful when not root: root reads anything). */
    if (geteuid() != 0) {
        char locked[300];
        snprintf(locked, sizeof locked, "%s/locked.bin", dir);
        write_file(locked, "abc", 3);
        chmod(locked, 0);
        snprintf(args, sizeof args, "sa --backend host %s %s", locked, out);
        assert_int_equal(run(args), 3);
        one_error_line(NULL);
        assert_false(exists(out));
        unlink(locked);
    }
    /* check: a suffix array of the wrong length or content is "invalid" (1),
     * a missing one a runtime error (3). */
    char sa[300];
    snprintf(sa, sizeof sa, "%s/bad.sa", dir);
    write_file(sa, "\0\0\0\0", 4);
    snprintf(args, sizeof args, "check %s %s", in, sa);
    assert_int_equal(run(args), 1);
    assert_non_null(strstr(slurp("stdout"), "invalid"));
    snprintf(args, sizeof args, "check %s %s/none.sa", in, dir);
    assert_int_equal(run(args), 3);
    unlink(sa);
    /* unbwt: primary out of range is a usage error with the valid range. */
    snprintf(args, sizeof args, "unbwt --backend host --primary 0 %s %s", in, out);
    int rc = run(args);
    if (rc != 2 && rc != 3) fail_msg("unbwt --primary 0 exited %d", rc);
    assert_false(exists(out));
    snprintf(args, sizeof args, "unbwt --backend host --primary 999999 %s %s", in, out);
    rc = run(args);
    if (rc != 2 && rc != 3) fail_msg("unbwt --primary 999999 exited %d", rc);
    assert_false(exists(out));
    no_temporaries(dir);
}

static void bad_outputs(void **state)
{
    (void)state;
    char args[1200], target[400];
    /* Output folder missing. */
    snprintf(target, sizeof target, "%s/no/such/folder/out.sa", dir);
    snprintf(args, sizeof args, "sa --backend host %s %s", in, target);
    assert_int_equal(run(args), 3);
    one_error_line(NULL);
    /* Output is an existing folder: refused as no output (exit 2); no
     * temporary made. */
    snprintf(target, sizeof target, "%s/adir", dir);
    mkdir(target, 0700);
    snprintf(args, sizeof args, "sa --backend host %s %s", in, target);
    assert_int_equal(run(args), 2);
    one_error_line(NULL);
    rmdir(target);
    /* Output folder not writable (root writes anyway: then a folder on a
     * read-only path such as /proc stands in). */
    snprintf(target, sizeof target, "%s/ro", dir);
    mkdir(target, 0500);
    if (geteuid() != 0) {
        snprintf(args, sizeof args, "sa --backend host %s %s/out.sa", in, target);
        assert_int_equal(run(args), 3);
        one_error_line(NULL);
        no_temporaries(target);
    }
    rmdir(target);
    snprintf(args, sizeof args, "sa --backend host %s /proc/clsa-test-out.sa", in);
    assert_int_equal(run(args), 3);
    one_error_line(NULL);
    /* A full disk, simulated with a file size limit: the write fails
     * (EFBIG, SIGXFSZ ignored) after the temporary was created. */
    snprintf(args, sizeof args, "sa --backend host %s %s", in, out);
    int rc = run_with("trap '' XFSZ; ulimit -f 1;", args);
    if (rc != 3) fail_msg("full disk (ulimit -f): exit %d, stderr %s", rc, slurp("stderr"));
    one_error_line(NULL);
    assert_false(exists(out));
    no_temporaries(dir);
    /* The same output written successfully afterwards (nothing stale). */
    assert_int_equal(run(args), 0);
    assert_true(exists(out));
    unlink(out);
}

/* A real full file system: a 64 KiB tmpfs (needs root and mount rights;
 * skipped otherwise).  The output (200 KB) does not fit. */
static void full_tmpfs(void **state)
{
    (void)state;
    char mnt[300];
    snprintf(mnt, sizeof mnt, "%s/mnt", dir);
    mkdir(mnt, 0700);
    if (geteuid() != 0 || mount("tmpfs", mnt, "tmpfs", 0, "size=64k") != 0) {
        rmdir(mnt);
        skip();
    }
    char args[1200], big[300], target[400];
    snprintf(big, sizeof big, "%s/big.bin", dir);
    size_t n = 50000;
    uint8_t *t = tu_malloc(n);
    for (size_t i = 0; i < n; i++) t[i] = (uint8_t)(i * 7 % 13);
    write_file(big, t, n);
    free(t);
    snprintf(target, sizeof target, "%s/out.sa", mnt);
    snprintf(args, sizeof args, "sa --backend host %s %s", big, target);
    int rc = run(args);
    no_temporaries(mnt);
    int left = exists(target);
    umount(mnt);
    rmdir(mnt);
    unlink(big);
    if (rc != 3) fail_msg("full tmpfs: exit %d, stderr %s", rc, slurp("stderr"));
    one_error_line(NULL);
    assert_false(left);
}

/* No OpenCL platform at all (ICD loader pointed at an empty folder):
 * auto falls back to the host, a forced device is a clear error. */
static void no_icd(void **state)
{
    (void)state;
    char empty[300], prefix[700], args[1200];
    snprintf(empty, sizeof empty, "%s/no-icd", dir);
    mkdir(empty, 0700);
    snprintf(prefix, sizeof prefix, "env -u CLSA_DEVICE -u CLSA_BACKEND OCL_ICD_VENDORS=%s", empty);
    snprintf(args, sizeof args, "sa %s %s", in, out);
    assert_int_equal(run_with(prefix, args), 0);
    assert_true(exists(out));
    unlink(out);
    snprintf(args, sizeof args, "sa --backend device %s %s", in, out);
    assert_int_equal(run_with(prefix, args), 3);
    one_error_line("device");
    assert_false(exists(out));
    assert_int_equal(run_with(prefix, "devices"), 0);
    assert_non_null(strstr(slurp("stdout"), "no OpenCL device"));
    snprintf(args, sizeof args, "sa -d gpu %s %s", in, out);
    assert_int_equal(run_with(prefix, args), 3);
    assert_false(exists(out));
    rmdir(empty);
}


/* The whole of dir/name (static buffer of the size of the file + 1). */
static uint8_t *whole(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = tu_malloc(*n + 1);
    assert_int_equal(fread(buf, 1, *n, f), *n);
    fclose(f);
    return buf;
}

static void same_bytes(const char *path, const uint8_t *want, size_t n, const char *what)
{
    size_t got_n;
    uint8_t *got = whole(path, &got_n);
    if (got_n != n || memcmp(got, want, n)) fail_msg("%s: %s changed or wrong", what, path);
    free(got);
}

/* Issue 16: an output that names an input (same path, a link to it, another
 * spelling) is refused before any work, and the input stays as it was. */
static void output_names_input(void **state)
{
    (void)state;
    static const char *cmds[] = {"sa --backend host", "bwt --backend host",
                                 "unbwt --backend host --primary 1", "lcp --backend host",
                                 "index --backend host"};
    size_t n;
    uint8_t *orig = whole(in, &n);
    char link[400], prefix[400], args[1600];
    snprintf(link, sizeof link, "%s/link.bin", dir);
    assert_int_equal(symlink(in, link), 0);
    snprintf(prefix, sizeof prefix, "cd '%s' &&", dir);
    for (size_t c = 0; c < sizeof cmds / sizeof *cmds; c++) {
        const char *spellings[][2] = {
            {in, in},              /* the same path */
            {in, link},            /* a symbolic link to the input */
            {link, in},            /* the input through the link */
            {"in.bin", in},        /* relative and absolute */
            {"./in.bin", "in.bin"} /* ./x and x */
        };
        for (size_t k = 0; k < sizeof spellings / sizeof *spellings; k++) {
            snprintf(args, sizeof args, "%s %s %s", cmds[c], spellings[k][0], spellings[k][1]);
            int rc = run_with(prefix, args);
            if (rc != 2) fail_msg("'clsa %s' exited %d, want 2", args, rc);
            one_error_line("same file");
            const char *e = slurp("stderr");
            if (!strstr(e, spellings[k][0]) || !strstr(e, spellings[k][1]))
                fail_msg("'clsa %s': the error does not name both paths: %s", args, e);
            same_bytes(in, orig, n, args);
            struct stat ls;
            assert_int_equal(lstat(link, &ls), 0);
            assert_true(S_ISLNK(ls.st_mode));
        }
    }
    /* check reads two inputs: standard input only once. */
    assert_int_equal(run("check - -"), 2);
    one_error_line("standard input");
    /* A new output beside the input is fine. */
    snprintf(args, sizeof args, "sa --backend host in.bin ./new.sa");
    assert_int_equal(run_with(prefix, args), 0);
    same_bytes(in, orig, n, "sa into a new file");
    unlink(link);
    char fresh[400];
    snprintf(fresh, sizeof fresh, "%s/new.sa", dir);
    unlink(fresh);
    no_temporaries(dir);
    free(orig);
}

/* Issue 14.2: "-" reads standard input and writes standard output, for every
 * whole-file command; each result is checked against libdivsufsort, and the
 * three ways the CLI moves big arrays (CLSA_CLI_IO) agree. */
static void streams(void **state)
{
    (void)state;
    size_t n;
    uint8_t *t = whole(in, &n);
    int32_t *ref = tu_malloc(n * 4);
    assert_int_equal(divsufsort(t, ref, (saidx_t)n), 0);
    uint8_t *bwt = tu_malloc(n);
    saidx_t primary = divbwt(t, bwt, NULL, (saidx_t)n);
    char args[1600], path[400];
    snprintf(path, sizeof path, "%s/stdout", dir);
    /* sa: stdin -> file, file -> stdout, stdin -> stdout */
    snprintf(args, sizeof args, "sa --backend host - %s < %s", out, in);
    assert_int_equal(run(args), 0);
    same_bytes(out, (const uint8_t *)ref, n * 4, "sa - OUT");
    snprintf(args, sizeof args, "sa --backend host %s -", in);
    assert_int_equal(run(args), 0);
    same_bytes(path, (const uint8_t *)ref, n * 4, "sa IN -");
    snprintf(args, sizeof args, "sa --backend host - - < %s", in);
    assert_int_equal(run(args), 0);
    same_bytes(path, (const uint8_t *)ref, n * 4, "sa - -");
    /* check: the text from stdin */
    snprintf(args, sizeof args, "check - %s < %s", out, in);
    assert_int_equal(run(args), 0);
    snprintf(args, sizeof args, "check %s - < %s", in, out);
    assert_int_equal(run(args), 0);
    unlink(out);
    /* bwt to stdout: the primary index goes to stderr */
    snprintf(args, sizeof args, "bwt --backend host - - < %s", in);
    assert_int_equal(run(args), 0);
    same_bytes(path, bwt, n, "bwt - -");
    char want[64];
    snprintf(want, sizeof want, "primary=%d", (int)primary);
    assert_non_null(strstr(slurp("stderr"), want));
    /* unbwt back from stdin */
    char bwt_file[400];
    snprintf(bwt_file, sizeof bwt_file, "%s/in.bwt", dir);
    write_file(bwt_file, bwt, n);
    snprintf(args, sizeof args, "unbwt --backend host --primary %d - - < %s", (int)primary,
             bwt_file);
    assert_int_equal(run(args), 0);
    same_bytes(path, t, n, "unbwt - -");
    unlink(bwt_file);
    /* lcp to stdout, from stdin, against Kasai */
    int32_t *rank = tu_malloc(n * 4), *lcp = tu_malloc(n * 4);
    tu_kasai32(t, ref, lcp, rank, n);
    snprintf(args, sizeof args, "lcp --backend host - - < %s", in);
    assert_int_equal(run(args), 0);
    same_bytes(path, (const uint8_t *)lcp, n * 4, "lcp - -");
    /* index from stdin; count with the patterns from stdin (the FM-index
     * needs a device: the default one) */
    char idx[400];
    snprintf(idx, sizeof idx, "%s/in.fm", dir);
    snprintf(args, sizeof args, "index - %s < %s", idx, in);
    assert_int_equal(run(args), 0);
    snprintf(args, sizeof args, "index --backend host %s -", in);
    assert_int_equal(run(args), 2); /* the index is a file */
    char pats[400];
    snprintf(pats, sizeof pats, "%s/pats.txt", dir);
    write_file(pats, "acg\nt\n", 6);
    size_t want_acg = 0, want_t = 0;
    for (size_t i = 0; i < n; i++) {
        want_t += t[i] == 't';
        want_acg += i + 3 <= n && !memcmp(t + i, "acg", 3);
    }
    snprintf(args, sizeof args, "count %s - < %s", idx, pats);
    assert_int_equal(run(args), 0);
    snprintf(want, sizeof want, "%zu\n%zu\n", want_acg, want_t);
    assert_string_equal(slurp("stdout"), want);
    unlink(idx);
    unlink(pats);
    /* The ways of moving big arrays give the same files. */
    static const char *modes[] = {"mmap", "pinned", "plain"};
    for (size_t m = 0; m < 3; m++) {
        snprintf(args, sizeof args, "env CLSA_CLI_IO=%s", modes[m]);
        char cmd[1600];
        snprintf(cmd, sizeof cmd, "sa --backend host %s %s", in, out);
        assert_int_equal(run_with(args, cmd), 0);
        same_bytes(out, (const uint8_t *)ref, n * 4, modes[m]);
        unlink(out);
    }
    no_temporaries(dir);
    free(t);
    free(ref);
    free(bwt);
    free(rank);
    free(lcp);
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/clsa-cli-errors-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) return 1;
    snprintf(in, sizeof in, "%s/in.bin", dir);
    snprintf(out, sizeof out, "%s/out.sa", dir);
    uint8_t text[2000];
    for (size_t i = 0; i < sizeof text; i++) text[i] = (uint8_t)("acgt"[(i * i + 3 * i) % 4]);
    write_file(in, text, sizeof text);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(usage_errors), cmocka_unit_test(help_and_version),
        cmocka_unit_test(bad_inputs),   cmocka_unit_test(bad_outputs),
        cmocka_unit_test(full_tmpfs),   cmocka_unit_test(no_icd),
        cmocka_unit_test(output_names_input), cmocka_unit_test(streams),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) rc = 1;
    return rc;
}

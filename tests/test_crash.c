/* Crash consistency of the CLI's outputs (issue 46, docs/RELIABILITY.md):
 * `clsa sa`, `bwt` and `index` killed with SIGKILL at random moments, some
 * hundreds of times on small generated inputs.  After every kill OUTPUT is
 * absent (when it was), the old file, or the complete correct file, never
 * a part; the temporaries the kills leave are gone after the next run.
 *
 * Hundreds of trials on PoCL, which starts fastest; a few dozen on rusticl
 * (what is tested is the CLI's file handling, the same on every
 * implementation; its device runs are slower); on Oclgrind (CLSA_TEST_LEAN)
 * a dozen on two inputs of a few hundred bytes, for the
 * simulator's checks of the CLI's device runs.  index runs
 * on the device; sa and bwt one trial in eight (--backend device), else on
 * the host backend, which starts no OpenCL: more kills a second. */
#define _GNU_SOURCE
#include <dirent.h>
#include <divsufsort.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>

#include "cli_util.h"
#include "gen.h"

#define NINPUTS 4
#define NCMDS 3
#define MAX_TRIALS 400
#define MIN_TRIALS 250
#define BUDGET_S 45.0
#define SLOW_MIN_TRIALS 24 /* rusticl and Oclgrind */
#define SLOW_BUDGET_S 15.0
#define LEAN_INPUTS 2 /* Oclgrind */
#define LEAN_TRIALS 12
#define LEAN_BUDGET_S 5.0

static const char *cmds[NCMDS] = {"sa", "bwt", "index"};

/* The inputs the trials use: all, or under Oclgrind the first two. */
static int ninputs(void)
{
    return tu_lean() ? LEAN_INPUTS : NINPUTS;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Starts `clsa CMD [--backend device] IN OUT`, streams to /dev/null. */
static pid_t start(int c, int device, const char *in, const char *out)
{
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        dup2(fd, 1);
        dup2(fd, 2);
        execl(CLSA_CLI, "clsa", cmds[c], "-q", "--backend", device ? "device" : "host", in, out,
              (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* The file's bytes equal those of ref (both read whole). */
static int same_as(const char *path, const char *ref)
{
    size_t n, m;
    uint8_t *a = read_file(path, &n), *b = read_file(ref, &m);
    int same = n == m && !memcmp(a, b, n);
    free(a);
    free(b);
    return same;
}

static int temps_left(void)
{
    DIR *d = opendir(dir);
    int k = 0;
    for (struct dirent *e; d && (e = readdir(d));) k += strstr(e->d_name, ".tmp.") != NULL;
    if (d) closedir(d);
    return k;
}

/* References: each command's output of each input, run to the end (the
 * suffix arrays checked against libdivsufsort); their times in secs. */
static void references(double secs[NINPUTS][NCMDS][2])
{
    static const size_t full[NINPUTS] = {3000, 40000, 200000, 600000};
    static const size_t lean[LEAN_INPUTS] = {200, 600};
    const size_t *sizes = tu_lean() ? lean : full;
    for (int i = 0; i < ninputs(); i++) {
        char in[32];
        snprintf(in, sizeof in, "in%d", i);
        uint8_t *t = tu_malloc(sizes[i]);
        gen_fill(t, sizes[i], GEN_RANDOM, i % 2 ? 4 : 256, 460 + (uint32_t)i);
        write_file(in_dir(in), t, sizes[i]);
        for (int c = 0; c < NCMDS; c++)
            for (int dev = 1; dev >= (c == 2 ? 1 : 0); dev--) {
                char ref[32];
                snprintf(ref, sizeof ref, dev ? "ref%d.%d" : "host%d.%d", i, c);
                double t0 = now_s();
                int st;
                waitpid(start(c, dev, in_dir(in), in_dir(ref)), &st, 0);
                secs[i][c][dev] = now_s() - t0;
                assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
                char dref[32];
                snprintf(dref, sizeof dref, "ref%d.%d", i, c);
                if (!dev) assert_true(same_as(in_dir(ref), in_dir(dref))); /* host = device */
            }
        char ref[32];
        snprintf(ref, sizeof ref, "ref%d.0", i);
        size_t bytes;
        uint8_t *sa = read_file(in_dir(ref), &bytes);
        int32_t *want = tu_malloc(sizes[i] * 4);
        assert_int_equal(divsufsort(t, want, (int32_t)sizes[i]), 0);
        assert_int_equal(bytes, sizes[i] * 4);
        assert_memory_equal(sa, want, bytes);
        free(sa);
        free(want);
        free(t);
    }
}

/* One trial: OUTPUT old (3 bytes) or absent, the command killed after a
 * random delay; returns 1 if the kill came while it ran. */
static int trial(tu_rng *r, const double secs[NINPUTS][NCMDS][2])
{
    /* index (on a device only: the FM-index is built there) one trial in
     * eight, the others sa and bwt, on the device one in eight */
    uint32_t pick = tu_below(r, 16);
    int i = (int)tu_below(r, (uint32_t)ninputs()), c = pick < 2 ? 2 : (int)(pick & 1);
    int device = c == 2 || tu_below(r, 8) == 0, old = (int)tu_below(r, 2);
    char in[32], ref[32];
    snprintf(in, sizeof in, "in%d", i);
    snprintf(ref, sizeof ref, "ref%d.%d", i, c);
    const char *out = in_dir("out");
    unlink(out);
    if (old) write_file(out, "OLD", 3);
    double span = secs[i][c][device] * 1.2;
    pid_t pid = start(c, device, in_dir(in), out);
    usleep((useconds_t)(1e6 * span * (double)tu_below(r, 1000) / 1000.0));
    kill(pid, SIGKILL);
    int st;
    waitpid(pid, &st, 0);
    int killed = WIFSIGNALED(st);
    if (!killed && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
        fail_msg("clsa %s %s: exit %d", cmds[c], in, WEXITSTATUS(st));
    if (!exists(out)) {
        if (old || !killed) fail_msg("clsa %s %s: OUTPUT gone (old %d, killed %d)", cmds[c], in, old, killed);
        return killed;
    }
    size_t n;
    uint8_t *b = read_file(out, &n);
    int is_old = old && n == 3 && !memcmp(b, "OLD", 3);
    free(b);
    if (is_old && killed) return 1;
    if (!same_as(out, in_dir(ref)))
        fail_msg("clsa %s %s (%s, killed %d): OUTPUT is neither the old file nor the result",
                 cmds[c], in, device ? "device" : "host", killed);
    return killed;
}

static void kill_at_random(void **state)
{
    (void)state;
    double secs[NINPUTS][NCMDS][2];
    references(secs);
    tu_rng r = {46};
    double t0 = now_s();
    const char *dev = getenv("CLSA_DEVICE");
    int slow = !dev || strcmp(dev, "pocl");
    int min_trials = tu_lean() ? LEAN_TRIALS : slow ? SLOW_MIN_TRIALS : MIN_TRIALS;
    double budget = tu_lean() ? LEAN_BUDGET_S : slow ? SLOW_BUDGET_S : BUDGET_S;
    int trials = 0, kills = 0, stale = 0;
    while (trials < MAX_TRIALS && (trials < min_trials || now_s() - t0 < budget)) {
        kills += trial(&r, secs);
        trials++;
        stale += temps_left() > 1; /* each run removes those of the dead before it */
    }
    print_message("%d trials, %d killed mid-run, %.1f s\n", trials, kills, now_s() - t0);
    assert_true(kills > trials / 4);
    assert_int_equal(stale, 0);
    /* the last kill's temporary goes with the next run in the folder */
    assert_int_equal(run("sa --backend host %s %s", in_dir("in0"), in_dir("last.sa")), 0);
    assert_int_equal(temps_left(), 0);
}

int main(void)
{
    if (cli_dir_create("clsa-crash")) return 1;
    clsa_destroy(tu_context()); /* skips cleanly when the device is missing */
    const struct CMUnitTest tests[] = {cmocka_unit_test(kill_at_random)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (cli_dir_remove()) rc = 1;
    return rc;
}

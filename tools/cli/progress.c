/* The CLI's side of the library's progress callback: a one-line display on
 * a terminal, phase times for -v, and Ctrl-C turned into a clean stop (the
 * callback asks the library to cancel; outputs are only temporaries until
 * committed, so nothing partial is left).  One process runs one command
 * at a time (`clsa serve` too: its requests queue), so the state is one
 * static record. */
#include "cli.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_PHASES 32
#define REDRAW_S 0.1 /* at most ten redraws a second */

static struct {
    int display, verbose;
    double t0, last_draw, phase_t0;
    size_t n;
    int drawn;
    char phase[64];
    struct { char name[64]; double s; } times[MAX_PHASES];
    int ntimes;
} P;

/* Atomic rather than sig_atomic_t: inside `clsa serve` the request's
 * watcher thread sets it (a lock-free atomic is also signal-safe). */
static atomic_int interrupted;

/* A signal that ends the process: the temporaries of its outputs go first
 * (safe_out.h), then the signal is taken again with its default action. */
static void on_fatal(int sig)
{
    clsa__sout_signal_cleanup();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_sigint(int sig)
{
    if (atomic_exchange(&interrupted, 1)) on_fatal(sig); /* a second Ctrl-C kills at once */
}

void cli_signals_install(void)
{
    static const int fatal[] = {SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ, SIGXCPU,
                                SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++) {
        struct sigaction old;
        /* a signal ignored by whoever started us stays ignored */
        if (sigaction(fatal[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        sigaction(fatal[i], &sa, NULL);
    }
}

void cli_interrupt(void) { atomic_store(&interrupted, 1); }
void cli_interrupt_reset(void) { atomic_store(&interrupted, 0); }

static void end_phase(double now)
{
    if (!P.phase[0] || !strcmp(P.phase, "done")) return;
    if (P.ntimes > 0 && !strcmp(P.times[P.ntimes - 1].name, P.phase)) {
        P.times[P.ntimes - 1].s += now - P.phase_t0;
    } else if (P.ntimes < MAX_PHASES) {
        snprintf(P.times[P.ntimes].name, sizeof P.times[0].name, "%s", P.phase);
        P.times[P.ntimes++].s = now - P.phase_t0;
    }
    P.phase_t0 = now;
}

static void draw(double now, double fraction)
{
    double el = now - P.t0;
    double mbs = el > 0 ? fraction * (double)P.n / el / 1e6 : 0.0;
    fprintf(stderr, "\rclsa: %-22s %3.0f%%  %8.1f MB/s  %7.1f s ", P.phase, 100.0 * fraction, mbs,
            el);
    fflush(stderr);
    P.drawn = 1;
    P.last_draw = now;
}

static int on_progress(void *user, const char *phase, double fraction)
{
    (void)user;
    double now = cli_now();
    if (strcmp(phase, P.phase)) {
        end_phase(now);
        snprintf(P.phase, sizeof P.phase, "%s", phase);
        if (P.display) draw(now, fraction);
    } else if (P.display && (now - P.last_draw >= REDRAW_S || fraction >= 1.0)) {
        draw(now, fraction);
    }
    return atomic_load(&interrupted) != 0;
}

void cli_progress_install(const cli_args *a, clsa_options *o)
{
    memset(&P, 0, sizeof P);
    P.display = a->progress && !a->quiet && isatty(STDERR_FILENO);
    P.verbose = a->verbose;
    P.t0 = P.phase_t0 = cli_now();
    o->progress = on_progress;
    o->progress_user = NULL;
    if (cli_serving()) return; /* the server's Ctrl-C stops the server (serve.c) */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

void cli_progress_input(size_t n)
{
    P.n = n;
    P.t0 = P.phase_t0 = cli_now(); /* rates count from the start of the work */
}

clsa_status cli_progress_done(clsa_status st)
{
    double now = cli_now();
    end_phase(now);
    if (P.drawn) fputc('\n', stderr);
    P.drawn = 0;
    if (P.verbose && st == CLSA_OK) {
        for (int i = 0; i < P.ntimes; i++)
            fprintf(stderr, "clsa: phase %-22s %9.3f s\n", P.times[i].name, P.times[i].s);
        double el = now - P.t0;
        fprintf(stderr, "clsa: total %zu bytes in %.3f s, %.1f MB/s\n", P.n, el,
                el > 0 ? (double)P.n / el / 1e6 : 0.0);
    }
    /* Ctrl-C after the library's last report: still no output. */
    return st == CLSA_OK && atomic_load(&interrupted) ? CLSA_ERR_CANCELLED : st;
}

int cli_interrupted(void) { return atomic_load(&interrupted) != 0; }

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

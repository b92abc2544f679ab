/* Several devices for one `clsa sa` (issue 12): `-d nvidia:0,nvidia:1`,
 * `-d pocl,pocl` (one device twice: two contexts on it) or `-d all` (every
 * GPU device OpenCL lists), one context per entry, opened in parallel, then
 * clsa_sa32_multi / clsa_sa64_multi over them (sa.c).
 * Rules: entries are separated by commas, blanks around an entry are
 * dropped; an empty entry, "all" beside other entries, a ':' not followed by
 * an index or too many entries is a usage error (exit 2) naming the entry;
 * an entry that matches no device fails when its context is opened (exit 3,
 * as a single -d that matches nothing) with the entry and the library's
 * reason.  `all` where OpenCL lists no GPU is exit 3 too: CPU devices are
 * never taken silently in its place; they can be named (-d cpu,cpu). */
#include "cli.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_devlist_is_list(const char *spec) { return strchr(spec, ',') || !strcmp(spec, "all"); }

/* "NAME:INDEX" needs digits after its last ':' (the library's rule; checked
 * here so that a list fails before any work). */
static int index_ok(const char *sel)
{
    const char *colon = strrchr(sel, ':');
    if (!colon) return 1;
    if (!colon[1]) return 0;
    for (const char *p = colon + 1; *p; p++)
        if (!isdigit((unsigned char)*p)) return 0;
    return 1;
}

/* Entry no (from 1) is spec[from, to): trimmed and checked into l. */
static int add_entry(const char *spec, size_t from, size_t to, int no, cli_devlist *l)
{
    while (from < to && isspace((unsigned char)spec[from])) from++;
    while (to > from && isspace((unsigned char)spec[to - 1])) to--;
    size_t len = to - from;
    if (len == 0) {
        cli_error("-d '%s': entry %d is empty (expected SEL,SEL,... or all)", spec, no);
        return CLI_USAGE;
    }
    if (l->k == CLI_MAX_DEVICES || len >= CLI_SELECTOR_MAX) {
        cli_error("-d '%s': %s (at most %d entries of %d bytes)", spec,
                  len >= CLI_SELECTOR_MAX ? "an entry is too long" : "too many entries",
                  CLI_MAX_DEVICES, CLI_SELECTOR_MAX - 1);
        return CLI_USAGE;
    }
    char *sel = l->sel[l->k];
    memcpy(sel, spec + from, len);
    sel[len] = 0;
    if (!index_ok(sel)) {
        cli_error("-d '%s': entry %d '%s' names no device (expected gpu, cpu or "
                  "NAME[:INDEX], INDEX a number)", spec, no, sel);
        return CLI_USAGE;
    }
    l->k++;
    return CLI_OK;
}

int cli_devlist_parse(const char *spec, cli_devlist *l)
{
    memset(l, 0, sizeof *l);
    size_t from = 0, len = strlen(spec);
    for (int no = 1;; no++) {
        size_t to = from + strcspn(spec + from, ",");
        int rc = add_entry(spec, from, to, no, l);
        if (rc) return rc;
        if (!strcmp(l->sel[l->k - 1], "all") && strcmp(spec, "all")) {
            cli_error("-d '%s': 'all' stands alone (it already names every GPU)", spec);
            return CLI_USAGE;
        }
        if (to == len) return CLI_OK;
        from = to + 1;
    }
}

/* ---- all: every GPU device, each by a selector the library resolves ---- */

static int expand_all(cli_devlist *l)
{
    size_t count = 0;
    clsa_device_info *d = NULL;
    clsa_status st = clsa_list_devices(NULL, 0, &count);
    if (!st && count && !(d = calloc(count, sizeof *d))) st = CLSA_ERR_HOST_MEMORY;
    if (!st && count) st = clsa_list_devices(d, count, &count);
    if (st) {
        free(d);
        return cli_fail(NULL, st, "-d all");
    }
    l->k = 0;
    for (size_t i = 0; i < count && l->k < CLI_MAX_DEVICES; i++)
        if (d[i].is_gpu) cli_device_selector(d, i, l->sel[l->k++], CLI_SELECTOR_MAX);
    free(d);
    if (l->k == 0) {
        cli_error("-d all: no GPU device found (%zu OpenCL device%s, none a GPU); name CPU "
                  "devices to use them (-d cpu,cpu), see 'clsa devices'",
                  count, count == 1 ? "" : "s");
        return CLI_RUNTIME;
    }
    return CLI_OK;
}

/* ---- the contexts, opened in parallel ------------------------------------ */

typedef struct opener {
    clsa_options o;
    clsa_context **ctx;
    clsa_status st;
    char err[512];
    pthread_t thread;
    int started;
} opener;

static void *open_one(void *p)
{
    opener *w = p;
    w->st = clsa_create_ex(&w->o, w->ctx, w->err, sizeof w->err);
    return NULL;
}

/* Every entry's clsa_create on a thread of its own (entry 0 on this one):
 * each driver start (a quarter of a second per GPU) overlaps the others. */
static int open_all(const cli_args *a, cli_devlist *l, opener *w)
{
    for (int i = 0; i < l->k; i++) {
        cli_options(a, &w[i].o);
        w[i].o.device = l->sel[i];
        w[i].ctx = &l->ctx[i];
        /* One progress display: the callback's state is one static record. */
        if (i == 0) cli_progress_install(a, &w[i].o);
    }
    for (int i = 1; i < l->k; i++)
        w[i].started = pthread_create(&w[i].thread, NULL, open_one, &w[i]) == 0;
    open_one(&w[0]);
    int rc = CLI_OK;
    for (int i = 0; i < l->k; i++) {
        if (i > 0 && w[i].started) pthread_join(w[i].thread, NULL);
        else if (i > 0) open_one(&w[i]); /* no thread to be had: in turn */
        if (w[i].st == CLSA_OK) continue;
        cli_error("device %d of %d ('%s'): %s", i + 1, l->k, l->sel[i],
                  *w[i].err ? w[i].err : clsa_status_string(w[i].st));
        rc = CLI_RUNTIME;
    }
    return rc;
}

int cli_devlist_open(const cli_args *a, cli_devlist *l)
{
    int rc = cli_devlist_parse(a->device, l);
    if (!rc && !strcmp(l->sel[0], "all")) rc = expand_all(l);
    if (rc) return rc;
    opener *w = calloc((size_t)l->k, sizeof *w);
    if (!w) {
        cli_error("out of memory opening %d devices", l->k);
        return CLI_RUNTIME;
    }
    rc = open_all(a, l, w);
    free(w);
    if (rc) cli_devlist_close(l);
    return rc;
}

void cli_devlist_close(cli_devlist *l)
{
    for (int i = 0; i < l->k; i++) {
        clsa_destroy(l->ctx[i]);
        l->ctx[i] = NULL;
    }
}

void cli_devlist_stats(const cli_devlist *l, uint64_t n, double seconds)
{
    fprintf(stderr, "stats: devices %d, n %llu bytes, wall %.3f s, %.1f MB/s\n", l->k,
            (unsigned long long)n, seconds, seconds > 0 ? (double)n / seconds / 1e6 : 0.0);
    for (int i = 0; i < l->k; i++) {
        clsa_stats s;
        clsa_device_info info;
        if (clsa_get_stats(l->ctx[i], &s) != CLSA_OK) continue;
        int dev = clsa_get_device_info(l->ctx[i], &info) == CLSA_OK;
        double ms = 0;
        for (int p = 0; p < CLSA_PHASE_COUNT; p++) ms += s.phase_ms[p];
        fprintf(stderr,
                "stats: device %d '%s': %s, peak device memory %llu bytes, kernel launches "
                "%llu, kernel time %.3f ms, programs built %u, loaded from cache %u\n",
                i, l->sel[i], dev ? info.name : "(none: host backend)",
                (unsigned long long)s.peak_device_bytes, (unsigned long long)s.kernel_launches,
                ms, s.programs_built, s.programs_loaded);
    }
}

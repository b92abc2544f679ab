/* Argument parsing and the context a command opens, for the CLI. */
#include "cli.h"
#include "parse_num.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The value of a numeric option (parse_num.h), in [min, max]; a bad one is
 * reported here, naming the option and the value (-4: already said). */
static int num_value(const char *opt, const char *v, int flags, uint64_t min, uint64_t max,
                     uint64_t *x)
{
    char why[96];
    if (clsa__parse_u64(v, flags, min, max, x, why, sizeof why) == 0) return 0;
    size_t len = strcspn(opt, "=");
    cli_error("bad value '%s' for %.*s: %s", v, (int)len, opt, why);
    return -4;
}

static int value_of(int argc, char **argv, int *i, const char **v)
{
    const char *arg = argv[*i];
    const char *eq = strchr(arg, '=');
    if (arg[1] == '-' && eq) {
        *v = eq + 1;
        return 0;
    }
    if (*i + 1 >= argc) return -1;
    *v = argv[++*i];
    return 0;
}

static int is_opt(const char *arg, const char *shortname, const char *longname)
{
    size_t len = strlen(longname);
    if (shortname && !strcmp(arg, shortname)) return 1;
    return !strncmp(arg, longname, len) && (arg[len] == 0 || arg[len] == '=');
}

static int parse_option(int argc, char **argv, int *i, unsigned allowed, cli_args *a)
{
    const char *arg = argv[*i], *v = NULL;
    uint64_t x;
    if ((allowed & OPT_DEVICE) && is_opt(arg, "-d", "--device")) {
        if (value_of(argc, argv, i, &v)) return -1;
        a->device = v;
    } else if ((allowed & OPT_DEVICE) && is_opt(arg, NULL, "--backend")) {
        if (value_of(argc, argv, i, &v)) return -1;
        if (!strcmp(v, "auto")) a->backend = CLSA_BACKEND_AUTO;
        else if (!strcmp(v, "device")) a->backend = CLSA_BACKEND_DEVICE;
        else if (!strcmp(v, "host")) a->backend = CLSA_BACKEND_HOST;
        else return -2;
    } else if ((allowed & OPT_DEVICE) && is_opt(arg, NULL, "--threads")) {
        if (value_of(argc, argv, i, &v)) return -1;
        if (num_value(arg, v, CLSA_NUM_PLAIN, 1, 4096, &x)) return -4;
        a->threads = (int)x;
    } else if ((allowed & OPT_INDEX) && is_opt(arg, NULL, "--index")) {
        if (value_of(argc, argv, i, &v)) return -1;
        if (num_value(arg, v, CLSA_NUM_PLAIN, 32, 64, &x)) return -4;
        if (x != 32 && x != 64) return -2;
        a->index_bits = (int)x;
    } else if ((allowed & OPT_STATS) && !strcmp(arg, "--stats")) {
        a->stats = 1;
    } else if ((allowed & OPT_PROGRESS) && (!strcmp(arg, "-q") || !strcmp(arg, "--quiet"))) {
        a->quiet = 1;
    } else if ((allowed & OPT_PROGRESS) && (!strcmp(arg, "-v") || !strcmp(arg, "--verbose"))) {
        a->verbose = 1;
    } else if ((allowed & OPT_PRIMARY) && is_opt(arg, NULL, "--primary")) {
        if (value_of(argc, argv, i, &v)) return -1;
        if (num_value(arg, v, CLSA_NUM_PLAIN, 0, INT64_MAX, &x)) return -4;
        a->primary = (int64_t)x;
        a->has_primary = 1;
    } else if ((allowed & OPT_RATE) && is_opt(arg, NULL, "--sample-rate")) {
        if (value_of(argc, argv, i, &v)) return -1;
        if (num_value(arg, v, CLSA_NUM_PLAIN, 1, INT64_MAX, &x)) return -4;
        a->sample_rate = (int64_t)x;
    } else if ((allowed & OPT_MEM) && is_opt(arg, NULL, "--mem")) {
        if (value_of(argc, argv, i, &v)) return -1;
        if (num_value(arg, v, CLSA_NUM_SIZE, 1, SIZE_MAX, &x)) return -4;
        a->mem_limit = (size_t)x;
    } else if ((allowed & OPT_ALGO) && is_opt(arg, NULL, "--algorithm")) {
        static const char *names[] = {"auto", "doubling", "skew", "hybrid", "runlen"};
        if (value_of(argc, argv, i, &v)) return -1;
        a->algorithm = -1;
        for (int k = 0; k < 5; k++)
            if (!strcmp(v, names[k])) a->algorithm = k;
        if (a->algorithm < 0) return -2;
    } else if ((allowed & OPT_BATCH) && is_opt(arg, NULL, "--batch")) {
        if (value_of(argc, argv, i, &v)) return -1;
        if (!*v) return -2;
        a->batch = v;
    } else if ((allowed & OPT_FASTA) && !strcmp(arg, "--fasta")) {
        a->fasta = 1;
    } else if ((allowed & OPT_FASTA) && !strcmp(arg, "--keep-case")) {
        a->keep_case = 1;
    } else if ((allowed & OPT_FASTA) && !strcmp(arg, "--revcomp")) {
        a->revcomp = 1;
    } else if ((allowed & OPT_FASTA) && is_opt(arg, NULL, "--doc")) {
        if (value_of(argc, argv, i, &v)) return -1;
        if (!*v) return -2;
        a->doc = v;
    } else if ((allowed & OPT_SET) && !strcmp(arg, "--set")) {
        a->set = 1;
    } else if ((allowed & OPT_SET) && !strcmp(arg, "--lines")) {
        a->lines = 1;
    } else if ((allowed & OPT_MIN) && is_opt(arg, NULL, "--min")) {
        if (value_of(argc, argv, i, &v)) return -1;
        if (num_value(arg, v, CLSA_NUM_PLAIN, 1, INT64_MAX, &x)) return -4;
        a->min = (int64_t)x;
    } else if ((allowed & (OPT_FASTA | OPT_SEQS)) && is_opt(arg, NULL, "--seqs")) {
        if (value_of(argc, argv, i, &v)) return -1;
        if (!*v) return -2;
        a->seqs = v;
    } else if ((allowed & OPT_SERVE) && is_opt(arg, NULL, "--socket")) {
        if (value_of(argc, argv, i, &v)) return -1;
        if (!*v) return -2;
        a->socket = v;
    } else if ((allowed & OPT_SERVE) && is_opt(arg, NULL, "--idle")) {
        char *end;
        if (value_of(argc, argv, i, &v)) return -1;
        a->idle = strtod(v, &end);
        if (end == v || *end || !(a->idle > 0) || a->idle > 1e9) return -2;
    } else if ((allowed & OPT_SERVE) && !strcmp(arg, "--stop")) {
        a->stop = 1;
    } else if ((allowed & OPT_SERVE) && !strcmp(arg, "--status")) {
        a->status = 1;
    } else {
        return -3;
    }
    return 0;
}

/* "clsa sa" from "clsa sa [-d DEV] ...": the first two words of a usage. */
static int command_len(const char *usage)
{
    const char *sp = strchr(usage, ' ');
    return sp ? (int)(sp + 1 - usage + strcspn(sp + 1, " ")) : (int)strlen(usage);
}

/* -d (or CLSA_DEVICE, which the library would read) naming several devices:
 * checked here, so that every command refuses a list the same way and a
 * malformed one fails before any work.  The library never sees a list. */
static int device_list(unsigned allowed, const char *usage, cli_args *a)
{
    /* serve's own CLSA_DEVICE selects nothing: each request brings its own */
    const char *env = allowed & OPT_SERVE ? NULL : getenv("CLSA_DEVICE");
    const char *spec = a->device ? a->device : env;
    if (!spec || !cli_devlist_is_list(spec)) return CLI_OK;
    if (!(allowed & OPT_DEVICES)) {
        cli_error("%.*s: several devices ('%s'%s): only `clsa sa` takes a list", command_len(usage),
                  usage, spec, a->device ? "" : " from CLSA_DEVICE");
        return CLI_USAGE;
    }
    cli_devlist *l = malloc(sizeof *l);
    if (!l) {
        cli_error("out of memory");
        return CLI_RUNTIME;
    }
    int rc = cli_devlist_parse(spec, l);
    free(l);
    a->device = spec;
    a->multi = 1;
    return rc;
}

int cli_parse(int argc, char **argv, unsigned allowed, int npos_min, int npos_max,
              const char *usage, cli_args *a, int *help)
{
    memset(a, 0, sizeof *a);
    a->backend = CLSA_BACKEND_DEFAULT;
    a->index_bits = 32;
    a->progress = (allowed & OPT_PROGRESS) != 0;
    *help = 0;
    int only_pos = 0;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (!only_pos && (!strcmp(arg, "-h") || !strcmp(arg, "--help"))) {
            printf("usage: %s\n", usage);
            *help = 1;
            return CLI_OK;
        }
        if (!only_pos && !strcmp(arg, "--")) {
            only_pos = 1;
            continue;
        }
        if (!only_pos && arg[0] == '-' && arg[1] != 0) {
            int rc = parse_option(argc, argv, &i, allowed, a);
            if (rc == -1) cli_error("option %s needs a value (usage: %s)", arg, usage);
            else if (rc == -2) cli_error("bad value for %s (usage: %s)", arg, usage);
            else if (rc == -3) cli_error("unknown option %s (usage: %s)", arg, usage);
            if (rc) return CLI_USAGE;
            continue;
        }
        if (a->npos >= npos_max || a->npos >= CLI_MAX_POS) {
            cli_error("unexpected argument '%s' (usage: %s)", arg, usage);
            return CLI_USAGE;
        }
        a->pos[a->npos++] = arg;
    }
    if (a->npos < npos_min) {
        cli_error("missing argument (usage: %s)", usage);
        return CLI_USAGE;
    }
    return (allowed & OPT_DEVICE) ? device_list(allowed, usage, a) : CLI_OK;
}

int cli_open(const cli_args *a, clsa_context **ctx)
{
    clsa_options o;
    cli_options(a, &o);
    cli_progress_install(a, &o);
    char *key, err[1024];
    if ((*ctx = cli_cache_take(&o, &key))) return CLI_OK;
    clsa_status st = clsa_create_ex(&o, ctx, err, sizeof err);
    if (st != CLSA_OK) {
        free(key);
        cli_error("%s", *err ? err : clsa_status_string(st));
        return st == CLSA_ERR_INVALID_ARG ? CLI_USAGE : CLI_RUNTIME;
    }
    cli_cache_put(key, *ctx);
    return CLI_OK;
}

void cli_print_stats(clsa_context *ctx, uint64_t n, double seconds)
{
    clsa_stats s;
    if (clsa_get_stats(ctx, &s) != CLSA_OK) return;
    clsa_device_info info;
    int dev = clsa_get_device_info(ctx, &info) == CLSA_OK;
    fprintf(stderr, "stats: device %s\n", dev ? info.name : "(none: host backend)");
    fprintf(stderr, "stats: backend %s\n",
            s.last_backend == CLSA_BACKEND_DEVICE ? "device" : "host");
    fprintf(stderr, "stats: n %llu bytes, wall %.3f s, %.1f MB/s\n", (unsigned long long)n,
            seconds, seconds > 0 ? (double)n / seconds / 1e6 : 0.0);
    fprintf(stderr, "stats: peak device memory %llu bytes (%.2f bytes per input byte)\n",
            (unsigned long long)s.peak_device_bytes,
            n ? (double)s.peak_device_bytes / (double)n : 0.0);
    static const char *algos[] = {"auto", "doubling", "skew", "hybrid", "runlen"};
    if (s.last_backend == CLSA_BACKEND_DEVICE && s.sa_algorithm_why[0] && s.sa_algorithm >= 0 &&
        s.sa_algorithm < 5)
        fprintf(stderr, "stats: algorithm %s, skew levels %u (%s)\n", algos[s.sa_algorithm],
                s.skew_levels, s.sa_algorithm_why);
    fprintf(stderr, "stats: doubling passes %u, kernel launches %llu\n", s.doubling_passes,
            (unsigned long long)s.kernel_launches);
    fprintf(stderr, "stats: programs built %u, loaded from cache %u, cache entries rejected %u\n",
            s.programs_built, s.programs_loaded, clsa_programs_rejected(ctx));
    for (int p = 0; p < CLSA_PHASE_COUNT; p++)
        if (s.phase_ms[p] > 0)
            fprintf(stderr, "stats: phase %-12s %10.3f ms\n", clsa_phase_name(p), s.phase_ms[p]);
}

void cli_print_bwt_route(clsa_context *ctx)
{
    clsa_stats s;
    if (clsa_get_stats(ctx, &s) == CLSA_OK && !strncmp(s.sa_algorithm_why, "BWT by ", 7))
        fprintf(stderr, "plan: bwt route buckets over a difference-cover sample, no suffix "
                        "array in host memory (the route above was not taken)\n");
}

/* The memory plan of a suffix array (clsa_sa_plan), taken before the call
 * so the budget is the one the call saw. */
int cli_sa_plan(clsa_context *ctx, uint64_t n, int sym, int index64, clsa_sa_plan_info *p)
{
    return clsa_sa_plan(ctx, (int64_t)n, sym, index64, p) == CLSA_OK;
}

void cli_print_plan(const clsa_sa_plan_info *p)
{
    static const char *routes[] = {"host", "device, in memory", "device, out of core"};
    int r = p->route >= 0 && p->route <= 2 ? p->route : 0;
    static const char *whys[] = {"the backend, the host threshold or no device",
                                 "fits the budget and the largest allocation", "n >= 2^32",
                                 "CLSA_TUNE ooc=1",
                                 "an n-entry array would pass the largest allocation",
                                 "the in-memory need passes the budget"};
    int w = p->why >= 0 && p->why <= 5 ? p->why : 0;
    fprintf(stderr, "plan: route %s%s: %s\n", routes[r],
            r == CLSA_ROUTE_DEVICE_OOC ? (p->index64_host ? " (64-bit host arrays)"
                                                          : " (32-bit host arrays)") : "",
            whys[w]);
    static const char *algos[] = {"auto (picked when the text is read; --stats says what)",
                                  "prefix doubling", "skew", "hybrid",
                                  "run-length reduction"};
    if (p->algorithm >= 0 && p->algorithm < 5)
        fprintf(stderr, "plan: algorithm %s\n", algos[p->algorithm]);
    if (p->max_alloc_bytes)
        fprintf(stderr, "plan: largest allocation %llu bytes\n",
                (unsigned long long)p->max_alloc_bytes);
    fprintf(stderr, "plan: in-memory need %llu bytes of device memory\n",
            (unsigned long long)p->in_memory_bytes);
    fprintf(stderr, "plan: budget %llu bytes (free device memory under the limit)\n",
            (unsigned long long)p->budget_bytes);
    if (r == CLSA_ROUTE_DEVICE_OOC)
        fprintf(stderr, "plan: chunk %llu items (%llu bytes of device memory)\n",
                (unsigned long long)p->chunk_items, (unsigned long long)p->device_bytes);
    fprintf(stderr, "plan: host memory %llu bytes besides the text and the suffix array\n",
            (unsigned long long)p->host_bytes);
}

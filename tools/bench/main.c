/* clsa-bench: runs operations over inputs, several repetitions each, and
 * reports times, throughput, peak device memory, the phase breakdown and
 * libdivsufsort's time on the same input in the same run.  See usage() and
 * docs/bench/method.md. */
#include "anchors.h"
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Each CUDA anchor runs just before the clsa op it is compared with, on the
 * same input (report.c puts the ratio on clsa's row). */
static const char *const text_ops[] = {"cubwt-sa", "sa32", "sa64", "sa32-u32", "gsa32", "sa32-multi", "sa64-multi", "cubwt-bwt", "bwt", "lcp",
                                       "fm-count", "sa32-batch", "bwt-batch", "sa32-each",
                                       "cubwt-each"};
static const char *const prim_ops[] = {"cub-radix", "radix", "compact", "segsort", "batched"};
#define NTEXT (sizeof text_ops / sizeof *text_ops)
#define NPRIM (sizeof prim_ops / sizeof *prim_ops)

static void usage(FILE *f)
{
    fprintf(f,
"usage: clsa-bench [options] OPS [INPUT...]\n"
"  OPS     comma-separated: sa32 sa64 sa32-u32 gsa32 bwt lcp fm-count (over each\n"
"          INPUT; sa32-u32: the input's words as 32-bit token ids; gsa32: the\n"
"          generalized SA of its lines, or of its records if it is FASTA),\n"
"          sa32-multi sa64-multi (clsa_sa32/64_multi over the devices env\n"
"          CLSA_BENCH_DEVICES lists, default nvidia:0,nvidia:1; not in 'all'),\n"
"          radix compact segsort batched (generated data, no INPUT), or 'all'\n"
"          sa32-batch bwt-batch sa32-each cubwt-each: the INPUT cut into texts of\n"
"          --item bytes, all in one clsa_sa32_batch/clsa_bwt_batch call, or one\n"
"          clsa_sa32 / libcubwt_sa call per text (not in 'all')\n"
"          CUDA anchors (build with -DCLSA_BENCH_CUDA=ON; each runs just before\n"
"          the clsa op it is compared with): cubwt-sa (libcubwt 1.0.0, beside\n"
"          sa32), cubwt-bwt (libcubwt 1.6.3, beside bwt), cub-radix (CUB\n"
"          DeviceRadixSort::SortPairs, beside radix); 'all' includes them if built\n"
"  INPUT   [LABEL=]SOURCE[@SIZE] with SOURCE one of\n"
"            FILE               a file (first SIZE bytes); relative names also under --dir\n"
"            cat:F1+F2+...      files back to back (cut at SIZE)\n"
"            repeat:FILE        a file repeated up to SIZE\n"
"            random:4 random:256 equal periodic:3 fibonacci thue-morse mutated:65536 runs:8\n"
"            words[:VOCAB]      generated English-like text (tools/gen gen_words)\n"
"          SIZE: 100M = 10^6 bytes x 100, 16Mi = 2^20 x 16, 1G, 2^28, 12345;\n"
"          A..B doubles from A up to B (scaling series; stops growing after a failure\n"
"          or a row slower than --stop-after)\n"
"options:\n"
"  -d, --device DEV     device selector as CLSA_DEVICE (gpu, cpu, pocl, nvidia, ...)\n"
"  -r, --reps N         timed repetitions per measurement (default 5)\n"
"  --row-budget S       stop repeating once a measurement has used S seconds (default 20)\n"
"  --ref-reps N         libdivsufsort repetitions (default 1; 0 = no reference)\n"
"  --ref-max SIZE       no host reference above SIZE bytes (default: always)\n"
"  --deadline-in S      skip what would start more than S seconds from now\n"
"  --stop-after S       ranges: stop growing once a row takes more than S s (default 30)\n"
"  --no-check           do not verify results (default: verify every result once)\n"
"  --check-max SIZE     verify only inputs up to SIZE\n"
"  --no-profile         no profiled run (no phase breakdown)\n"
"  --no-resident        sa32/sa64: no device-resident repetitions\n"
"  --backend B          auto|device|host (default device: the kernels are measured)\n"
"  --radix-n N          radix pairs, compact values (default 2^28)\n"
"  --segsort-n N        segmented sort array length (default 2^26)\n"
"  --batch A:L          batched: A arrays of L keys (default 2000000:1000)\n"
"  --item SIZE          sa32-batch ...: bytes per text (default 100K)\n"
"  --fm-patterns N      fm-count patterns (default 1000000), --fm-len M (default 20)\n"
"  --dir DIR            folder for relative input file names\n"
"  --csv FILE           write CSV rows (header first) to FILE; --append adds rows\n"
"  --json FILE          write JSON {meta, rows} to FILE (rewritten after every row)\n"
"  --seed N             seed for generated primitive data (inputs use seed 1)\n"
"environment: CLSA_BENCH_COMMIT is recorded as the commit; CLSA_DEVICE as -d.\n"
"exit: 0 done (failed operations are rows with a status), 1 some result was WRONG,\n"
"      2 usage, 3 no device\n");
}

typedef struct opts {
    bench_cfg cfg;
    const char *ops;
    const char *csv, *json;
    int append;
    double stop_after;
    char **inputs;
    int ninputs;
} opts;

static int want(const char *ops, const char *op)
{
    /* 'all': not the several-device op, which needs the devices it names */
    if (!strcmp(ops, "all"))
        return !strstr(op, "-multi") && !strstr(op, "-batch") && !strstr(op, "-each") &&
               (!op_is_anchor(op) || anchors_built());
    size_t l = strlen(op);
    for (const char *p = ops; (p = strstr(p, op)) != NULL; p += l)
        if ((p == ops || p[-1] == ',') && (p[l] == 0 || p[l] == ',')) return 1;
    return 0;
}

static int known_ops(const char *ops)
{
    if (!strcmp(ops, "all")) return 1;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", ops);
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
        int ok = 0;
        for (size_t i = 0; i < NTEXT; i++) ok |= !strcmp(t, text_ops[i]);
        for (size_t i = 0; i < NPRIM; i++) ok |= !strcmp(t, prim_ops[i]);
        if (!ok) return 0;
    }
    return 1;
}

static int parse_args(int argc, char **argv, opts *o)
{
    bench_cfg *c = &o->cfg;
    memset(o, 0, sizeof *o);
    c->reps = 5;
    c->ref_reps = 1;
    c->row_budget_s = 20;
    c->check = 1;
    c->profile = 1;
    c->backend = CLSA_BACKEND_DEVICE;
    c->radix_n = (uint64_t)1 << 28;
    c->segsort_n = (uint64_t)1 << 26;
    c->batch_arrays = 2000000;
    c->batch_len = 1000;
    c->fm_patterns = 1000000;
    c->fm_len = 20;
    c->seed = 12345;
    o->stop_after = 30;
    o->inputs = calloc((size_t)argc, sizeof *o->inputs);
    if (!o->inputs) return -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || !a[1]) { /* OPS first, then inputs, options anywhere */
            if (!o->ops) o->ops = a;
            else o->inputs[o->ninputs++] = argv[i];
            continue;
        }
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define ARG(name) (!strcmp(a, name) && v && ++i)
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--no-check")) c->check = 0;
        else if (!strcmp(a, "--no-profile")) c->profile = 0;
        else if (!strcmp(a, "--no-resident")) c->no_resident = 1;
        else if (!strcmp(a, "--append")) o->append = 1;
        else if (ARG("-d") || ARG("--device")) c->device = v;
        else if (ARG("-r") || ARG("--reps")) c->reps = atoi(v);
        else if (ARG("--row-budget")) c->row_budget_s = atof(v);
        else if (ARG("--ref-reps")) c->ref_reps = atoi(v);
        else if (ARG("--ref-max")) c->ref_max_bytes = (double)parse_count(v);
        else if (ARG("--check-max")) c->check_max = (double)parse_count(v);
        else if (ARG("--deadline-in")) c->deadline = bench_wall() + atof(v);
        else if (ARG("--stop-after")) o->stop_after = atof(v);
        else if (ARG("--radix-n")) c->radix_n = parse_count(v);
        else if (ARG("--segsort-n")) c->segsort_n = parse_count(v);
        else if (ARG("--fm-patterns")) c->fm_patterns = parse_count(v);
        else if (ARG("--fm-len")) c->fm_len = (unsigned)atoi(v);
        else if (ARG("--dir")) input_set_dir(v);
        else if (ARG("--csv")) o->csv = v;
        else if (ARG("--json")) o->json = v;
        else if (ARG("--seed")) c->seed = strtoull(v, NULL, 10);
        else if (ARG("--item")) c->item = parse_count(v);
        else if (ARG("--batch")) {
            const char *colon = strchr(v, ':');
            c->batch_arrays = parse_count(v);
            if (colon) {
                char head[64];
                snprintf(head, sizeof head, "%.*s", (int)(colon - v), v);
                c->batch_arrays = parse_count(head);
                c->batch_len = parse_count(colon + 1);
            }
        } else if (ARG("--backend")) {
            c->backend = !strcmp(v, "auto")     ? CLSA_BACKEND_AUTO
                         : !strcmp(v, "host")   ? CLSA_BACKEND_HOST
                         : !strcmp(v, "device") ? CLSA_BACKEND_DEVICE
                                                : -2;
            if (c->backend == -2) return -1;
        } else return -1;
#undef ARG
    }
    if (!o->ops || !known_ops(o->ops)) return -1;
    if (c->reps < 1 || !c->radix_n || !c->segsort_n || !c->batch_arrays || !c->batch_len)
        return -1;
    return 0;
}

static void skipped_row(bench_report *rep, const char *op, const char *input, const char *why)
{
    bench_row row;
    row_init(&row, op, NULL);
    snprintf(row.input, sizeof row.input, "%s", input);
    row.status = 1;
    snprintf(row.error, sizeof row.error, "%.250s", why);
    report_add(rep, &row);
}

static int wrong;

static void add(bench_report *rep, const bench_row *row)
{
    if (row->valid == 0) wrong = 1;
    report_add(rep, row);
}

/* Every selected text op on one input; returns the slowest row time (s), or
 * -1 if some row failed. */
static double text_ops_on(bench_env *env, const opts *o, bench_report *rep, const bench_input *in)
{
    double slowest = 0;
    for (size_t k = 0; k < NTEXT; k++) {
        const char *op = text_ops[k];
        if (!want(o->ops, op)) continue;
        if (bench_past_deadline(&o->cfg)) {
            skipped_row(rep, op, in->name, "skipped: deadline reached");
            continue;
        }
        bench_progress("%s on %s (%lld bytes)", op, in->name, (long long)in->n);
        bench_row row;
        double t0 = bench_now();
        if (!strcmp(op, "sa32") || !strcmp(op, "sa64")) op_sa(env, &o->cfg, in, op[2] == '6', &row);
        else if (!strcmp(op, "sa32-u32")) op_tokens(env, &o->cfg, in, &row);
        else if (!strcmp(op, "gsa32")) op_gsa(env, &o->cfg, in, &row);
        else if (!strcmp(op, "sa32-multi") || !strcmp(op, "sa64-multi"))
            op_multi(env, &o->cfg, in, op[2] == '6', &row);
        else if (strstr(op, "-batch") || strstr(op, "-each")) op_batch(env, &o->cfg, op, in, &row);
        else if (op_is_anchor(op)) op_anchor_text(&o->cfg, op, in, &row);
        else op_index(env, &o->cfg, op, in, &row);
        add(rep, &row);
        if (row.status && row.status != CLSA_ERR_UNSUPPORTED) slowest = -1;
        if (slowest >= 0 && row.t_min > slowest) slowest = row.t_min;
        bench_progress("  done in %.1f s: %s", bench_now() - t0,
                       row.status ? row.error : "ok");
    }
    return slowest;
}

static void run_input(bench_env *env, const opts *o, bench_report *rep, const char *spec)
{
    char base[1024];
    int64_t sizes[64];
    int ns = input_range(spec, base, sizeof base, sizes, 64);
    if (ns < 0) {
        skipped_row(rep, "input", spec, "bad size range");
        return;
    }
    for (int s = 0; s < (ns ? ns : 1); s++) {
        char err[512];
        bench_input in;
        if (bench_past_deadline(&o->cfg)) {
            skipped_row(rep, "input", spec, "skipped: deadline reached");
            return;
        }
        bench_progress("loading %s%s", ns ? base : spec, ns ? " (range)" : "");
        if (input_load(ns ? base : spec, ns ? sizes[s] : 0, &in, err, sizeof err)) {
            bench_progress("  %s", err);
            skipped_row(rep, "input", spec, err);
            return;
        }
        double slowest = text_ops_on(env, o, rep, &in);
        input_free(&in);
        if (ns && (slowest < 0 || slowest > o->stop_after)) {
            bench_progress("range %s stops at %lld bytes (%s)", base, (long long)sizes[s],
                           slowest < 0 ? "a row failed" : "slower than --stop-after");
            return;
        }
    }
}

static void run_prims(bench_env *env, const opts *o, bench_report *rep)
{
    for (size_t k = 0; k < NPRIM; k++) {
        const char *op = prim_ops[k];
        if (!want(o->ops, op)) continue;
        if (bench_past_deadline(&o->cfg)) {
            skipped_row(rep, op, "-", "skipped: deadline reached");
            continue;
        }
        bench_progress("%s", op);
        bench_row row;
        double t0 = bench_now();
        if (!strcmp(op, "cub-radix")) op_cub_radix(&o->cfg, &row);
        else if (!strcmp(op, "radix")) op_radix(env, &o->cfg, &row);
        else if (!strcmp(op, "compact")) op_compact(env, &o->cfg, &row);
        else if (!strcmp(op, "segsort")) op_segsort(env, &o->cfg, &row);
        else op_batched(env, &o->cfg, &row);
        add(rep, &row);
        bench_progress("  done in %.1f s: %s", bench_now() - t0, row.status ? row.error : "ok");
    }
}

int main(int argc, char **argv)
{
    opts o;
    if (parse_args(argc, argv, &o)) {
        usage(stderr);
        return 2;
    }
    int text = 0;
    for (size_t k = 0; k < NTEXT; k++) text |= want(o.ops, text_ops[k]);
    if (text && o.ninputs == 0 && strcmp(o.ops, "all")) {
        fprintf(stderr, "clsa-bench: %s needs at least one INPUT\n", o.ops);
        return 2;
    }
    bench_env env;
    char err[512];
    if (env_open(&env, &o.cfg, err, sizeof err)) {
        fprintf(stderr, "clsa-bench: %s\n", err);
        return 3;
    }
    bench_report rep = {0};
    if (o.csv && !(rep.csv = fopen(o.csv, o.append ? "a" : "w"))) {
        fprintf(stderr, "clsa-bench: cannot write %s\n", o.csv);
        env_close(&env);
        return 2;
    }
    rep.json_path = o.json;
    report_meta(&rep, &env, argc, argv);
    if (o.append && rep.csv && fseek(rep.csv, 0, SEEK_END) == 0 && ftell(rep.csv) > 0) {
        FILE *keep = rep.csv;
        rep.csv = NULL;
        report_header(&rep);
        rep.csv = keep;
    } else report_header(&rep);
    for (int i = 0; i < o.ninputs; i++) run_input(&env, &o, &rep, o.inputs[i]);
    run_prims(&env, &o, &rep);
    report_close(&rep);
    env_close(&env);
    free(o.inputs);
    bench_progress("finished%s", wrong ? " (SOME RESULTS WERE WRONG)" : "");
    return wrong ? 1 : 0;
}

/* Results: a human table on stdout (one row as it completes), CSV appended
 * and flushed row by row, JSON rewritten after every row (so a run cut
 * short still leaves valid files). */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *status_text(int st)
{
    return st > 0 ? "skipped" : st ? clsa_status_string((clsa_status)st) : "ok";
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

static void json_esc(char *out, size_t cap, const char *s)
{
    FILE *f = fmemopen(out, cap, "w");
    if (!f) {
        snprintf(out, cap, "\"\"");
        return;
    }
    json_str(f, s);
    fclose(f);
}

void report_meta(bench_report *r, const bench_env *env, int argc, char **argv)
{
    char cmd[1000] = "", date[64], buf[6][2100];
    for (int i = 0; i < argc; i++) {
        size_t l = strlen(cmd);
        snprintf(cmd + l, sizeof cmd - l, "%s%s", i ? " " : "", argv[i]);
    }
    snprintf(r->device, sizeof r->device, "%s", env->info.name);
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    const char *commit = getenv("CLSA_BENCH_COMMIT");
    json_esc(buf[0], sizeof buf[0], env->info.name);
    json_esc(buf[1], sizeof buf[1], env->info.platform);
    json_esc(buf[2], sizeof buf[2], env->info.driver);
    json_esc(buf[3], sizeof buf[3], env->info.version);
    json_esc(buf[4], sizeof buf[4], commit ? commit : "unknown");
    json_esc(buf[5], sizeof buf[5], cmd);
    snprintf(r->meta, sizeof r->meta,
             "{\"date\": \"%s\", \"device\": %s, \"platform\": %s, \"driver\": %s, "
             "\"device_version\": %s, \"global_mem\": %llu, \"compute_units\": %u, "
             "\"commit\": %s, \"clsa_version\": \"%s\", \"command\": %s}",
             date, buf[0], buf[1], buf[2], buf[3], (unsigned long long)env->info.global_mem,
             env->info.compute_units, buf[4], clsa_version(), buf[5]);
    printf("# clsa-bench %s | %s\n# device: %s | %s | driver %s | %.1f GB | commit %s\n",
           clsa_version(), date, env->info.name, env->info.platform, env->info.driver,
           (double)env->info.global_mem / 1e9, commit ? commit : "unknown");
}

/* ---- CSV ---------------------------------------------------------------- */

static void csv_str(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
    fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
    if (isnan(v) || isinf(v)) fputs("", f);
    else fprintf(f, "%.6g", v);
}

void report_header(bench_report *r)
{
    if (r->csv) {
        fputs("op,input,kind,source,n,reps,status,error,note,t_min_s,t_med_s,mb_s,t_dev_min_s,"
              "t_dev_med_s,mb_s_dev,peak_bytes,peak_B_per_n,peak_B_per_n_dev,ref,ref_s,x_ref,"
              "x_ref_dev,anchor,anchor_s,anchor_dev_s,x_anchor,x_anchor_dev,valid,passes,backend,elems_per_s,gb_s,copy_gb_s,copy_s,launches,"
              "profiled_ms",
              r->csv);
        for (int p = 0; p < CLSA_PHASE_COUNT; p++) fprintf(r->csv, ",ph_%s_ms", clsa_phase_name(p));
        fputs(",device,commit\n", r->csv);
        fflush(r->csv);
    }
    printf("%-9s %-34s %12s %4s %-8s %9s %9s %9s %9s %6s %9s %7s %6s %6s %4s %s\n", "op", "input",
           "n", "reps", "status", "t_min[s]", "t_med[s]", "MB/s", "devMB/s", "B/n", "ref[s]", "x_ref",
           "x_anc", "x_ancD", "pass", "ok");
    fflush(stdout);
}

static void csv_row(bench_report *r, const bench_row *w, const char *device, const char *commit)
{
    FILE *f = r->csv;
    csv_str(f, w->op), fputc(',', f);
    csv_str(f, w->input), fputc(',', f);
    csv_str(f, w->kind), fputc(',', f);
    csv_str(f, w->source), fputc(',', f);
    fprintf(f, "%lld,%d,", (long long)w->n, w->reps);
    csv_str(f, status_text(w->status)), fputc(',', f);
    csv_str(f, w->error), fputc(',', f);
    csv_str(f, w->note), fputc(',', f);
    double nums[] = {w->t_min, w->t_med, w->mbps, w->t_dev_min, w->t_dev_med, w->mbps_dev};
    for (size_t i = 0; i < sizeof nums / sizeof *nums; i++) csv_num(f, nums[i]), fputc(',', f);
    fprintf(f, "%llu,", (unsigned long long)w->peak_bytes);
    csv_num(f, w->peak_per_n), fputc(',', f);
    csv_num(f, w->peak_per_n_dev), fputc(',', f);
    csv_str(f, w->ref_name), fputc(',', f);
    double more[] = {w->ref_s, w->speedup, w->speedup_dev};
    for (size_t i = 0; i < 3; i++) csv_num(f, more[i]), fputc(',', f);
    csv_str(f, w->anchor), fputc(',', f);
    double anc[] = {w->anchor_s, w->anchor_dev_s, w->x_anchor, w->x_anchor_dev};
    for (size_t i = 0; i < 4; i++) csv_num(f, anc[i]), fputc(',', f);
    fprintf(f, "%d,%u,%s,", w->valid, w->passes,
            w->backend == CLSA_BACKEND_DEVICE ? "device"
            : w->backend == CLSA_BACKEND_HOST ? "host" : "");
    double prim[] = {w->elems_per_s, w->gbps, w->copy_gbps, w->copy_s};
    for (size_t i = 0; i < 4; i++) csv_num(f, prim[i]), fputc(',', f);
    fprintf(f, "%llu,", (unsigned long long)w->launches);
    csv_num(f, w->profiled_ms);
    for (int p = 0; p < CLSA_PHASE_COUNT; p++) fputc(',', f), csv_num(f, w->phase_ms[p]);
    fputc(',', f);
    csv_str(f, device);
    fputc(',', f);
    csv_str(f, commit);
    fputc('\n', f);
    fflush(f);
}

/* ---- JSON ----------------------------------------------------------------- */

static void json_num(FILE *f, const char *key, double v)
{
    fprintf(f, ", \"%s\": ", key);
    if (isnan(v) || isinf(v)) fputs("null", f);
    else fprintf(f, "%.6g", v);
}

static void json_field(FILE *f, const char *key, const char *s)
{
    fprintf(f, ", \"%s\": ", key);
    json_str(f, s);
}

typedef struct json_kv {
    const char *key;
    double v;
} json_kv;

static void json_nums(FILE *f, const json_kv *kv, size_t k)
{
    for (size_t i = 0; i < k; i++) json_num(f, kv[i].key, kv[i].v);
}

static void json_row(FILE *f, const bench_row *w)
{
    fputs("    {\"op\": ", f);
    json_str(f, w->op);
    json_field(f, "input", w->input);
    json_field(f, "kind", w->kind);
    json_field(f, "source", w->source);
    fprintf(f, ", \"n\": %lld, \"reps\": %d", (long long)w->n, w->reps);
    json_field(f, "status", status_text(w->status));
    json_field(f, "error", w->error);
    json_field(f, "note", w->note);
    const json_kv times[] = {{"t_min_s", w->t_min},         {"t_med_s", w->t_med},
                             {"mb_s", w->mbps},             {"t_dev_min_s", w->t_dev_min},
                             {"t_dev_med_s", w->t_dev_med}, {"mb_s_dev", w->mbps_dev}};
    json_nums(f, times, sizeof times / sizeof *times);
    fprintf(f, ", \"peak_bytes\": %llu", (unsigned long long)w->peak_bytes);
    json_num(f, "peak_B_per_n", w->peak_per_n);
    json_num(f, "peak_B_per_n_dev", w->peak_per_n_dev);
    json_field(f, "ref", w->ref_name);
    const json_kv ref[] = {{"ref_s", w->ref_s}, {"x_ref", w->speedup}, {"x_ref_dev", w->speedup_dev}};
    json_nums(f, ref, sizeof ref / sizeof *ref);
    json_field(f, "anchor", w->anchor);
    const json_kv anchor[] = {{"anchor_s", w->anchor_s},
                              {"anchor_dev_s", w->anchor_dev_s},
                              {"x_anchor", w->x_anchor},
                              {"x_anchor_dev", w->x_anchor_dev}};
    json_nums(f, anchor, sizeof anchor / sizeof *anchor);
    fprintf(f, ", \"valid\": %d, \"passes\": %u, \"backend\": %d", w->valid, w->passes,
            w->backend);
    const json_kv prim[] = {{"elems_per_s", w->elems_per_s},
                            {"gb_s", w->gbps},
                            {"copy_gb_s", w->copy_gbps},
                            {"copy_s", w->copy_s}};
    json_nums(f, prim, sizeof prim / sizeof *prim);
    fprintf(f, ", \"launches\": %llu", (unsigned long long)w->launches);
    json_num(f, "profiled_ms", w->profiled_ms);
    fputs(", \"phase_ms\": {", f);
    for (int p = 0; p < CLSA_PHASE_COUNT; p++) {
        fprintf(f, "%s\"%s\": ", p ? ", " : "", clsa_phase_name(p));
        if (isnan(w->phase_ms[p])) fputs("null", f);
        else fprintf(f, "%.6g", w->phase_ms[p]);
    }
    fputs("}", f);
    json_field(f, "kernels", w->kernels);
    fputs("}", f);
}

static void json_write(bench_report *r)
{
    if (!r->json_path) return;
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", r->json_path);
    FILE *f = fopen(tmp, "w");
    if (!f) return;
    fprintf(f, "{\"meta\": %s,\n  \"rows\": [\n", r->meta);
    for (size_t i = 0; i < r->nrows; i++) {
        json_row(f, &r->rows[i]);
        fputs(i + 1 < r->nrows ? ",\n" : "\n", f);
    }
    fputs("  ]}\n", f);
    if (fclose(f) == 0) rename(tmp, r->json_path);
}

/* ---- table ----------------------------------------------------------------- */

static void cell(double v, const char *fmt, int width)
{
    if (isnan(v) || isinf(v)) printf(" %*s", width, "-");
    else printf(" %*.*f", width, fmt[0] - '0', v);
}

static void table_row(const bench_row *w)
{
    printf("%-9s %-34.34s %12lld %4d %-8.8s", w->op, w->input, (long long)w->n, w->reps,
           status_text(w->status));
    cell(w->t_min, "4", 9);
    cell(w->t_med, "4", 9);
    cell(w->mbps, "1", 9);
    cell(w->mbps_dev, "1", 9);
    cell(w->peak_per_n, "1", 6);
    cell(w->ref_s, "3", 9);
    cell(w->speedup, "2", 7);
    cell(w->x_anchor, "2", 6);
    cell(w->x_anchor_dev, "2", 6);
    printf(" %4u %s\n", w->passes, w->valid < 0 ? "-" : w->valid ? "yes" : "NO");
    if (!isnan(w->elems_per_s) || !isnan(w->copy_gbps))
        printf("         device-resident %.4f s: %.3g elements/s, %.1f GB/s; "
               "%s of the same bytes %.1f GB/s (sort = %.1f copies)\n",
               w->t_dev_min, w->elems_per_s, w->gbps,
               op_is_anchor(w->op) ? "cudaMemcpy" : "clEnqueueCopyBuffer", w->copy_gbps,
               w->t_dev_min / w->copy_s);
    if (!isnan(w->profiled_ms) && w->profiled_ms > 0) {
        printf("         phases [ms]:");
        for (int p = 0; p < CLSA_PHASE_COUNT; p++)
            if (w->phase_ms[p] > 0) printf(" %s %.2f", clsa_phase_name(p), w->phase_ms[p]);
        printf(" (total %.2f, %llu launches)\n", w->profiled_ms,
               (unsigned long long)w->launches);
        if (w->kernels[0]) printf("         kernels [ms/launches]: %s\n", w->kernels);
    }
    if (w->note[0]) printf("         note: %s\n", w->note);
    if (w->error[0]) printf("         error: %s\n", w->error);
    fflush(stdout);
}

/* clsa's row gets the speed ratio over its CUDA anchor: the latest correct
 * anchor row on the same input (the driver runs the anchor just before). */
static void anchor_ratio(const bench_report *r, bench_row *w)
{
    const char *anchor = op_anchor_of(w->op);
    for (size_t i = r->nrows - 1; anchor && i-- > 0;) {
        const bench_row *a = &r->rows[i];
        if (strcmp(a->op, anchor) || strcmp(a->input, w->input) || a->n != w->n) continue;
        if (a->status || a->valid == 0) return;
        snprintf(w->anchor, sizeof w->anchor, "%s", anchor);
        w->anchor_s = a->t_min;
        w->anchor_dev_s = a->t_dev_min;
        w->x_anchor = a->t_min / w->t_min;
        w->x_anchor_dev = a->t_dev_min / w->t_dev_min;
        return;
    }
}

int report_add(bench_report *r, const bench_row *row)
{
    if (r->nrows == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        bench_row *g = realloc(r->rows, cap * sizeof *g);
        if (!g) return -1;
        r->rows = g;
        r->cap = cap;
    }
    bench_row *w = &r->rows[r->nrows++];
    *w = *row;
    anchor_ratio(r, w);
    table_row(w);
    if (r->csv) {
        const char *commit = getenv("CLSA_BENCH_COMMIT");
        csv_row(r, w, r->device, commit ? commit : "unknown");
    }
    json_write(r);
    return 0;
}

void report_close(bench_report *r)
{
    json_write(r);
    if (r->csv && r->csv != stdout) fclose(r->csv);
    free(r->rows);
    memset(r, 0, sizeof *r);
}

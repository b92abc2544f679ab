/* Shared pieces of the clsa command-line tool: argument parsing, files
 * written atomically, contexts, error reporting, exit codes. */
#ifndef CLSA_CLI_H
#define CLSA_CLI_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "clsa.h"
#include "safe_out.h"

/* CLI_INTERRUPTED: Ctrl-C stopped the work (128 + SIGINT, as shells do). */
enum { CLI_OK = 0, CLI_INVALID = 1, CLI_USAGE = 2, CLI_RUNTIME = 3, CLI_INTERRUPTED = 130 };

/* Options a subcommand accepts (bit mask for cli_parse). */
enum {
    OPT_DEVICE = 1 << 0,   /* -d/--device DEV, --backend auto|device|host, --threads N (together) */
    OPT_INDEX = 1 << 1,    /* --index 32|64 */
    OPT_STATS = 1 << 2,    /* --stats */
    OPT_PRIMARY = 1 << 3,  /* --primary P */
    OPT_RATE = 1 << 4,     /* --sample-rate R */
    OPT_PROGRESS = 1 << 5, /* -q/--quiet, -v/--verbose: the long commands */
    OPT_FASTA = 1 << 6,    /* --fasta, --keep-case, --revcomp, --doc FILE, --seqs FILE */
    OPT_MEM = 1 << 7,      /* --mem SIZE: device memory limit (clsa_options.mem_limit) */
    OPT_BATCH = 1 << 8,    /* --batch LIST: many INPUT OUTPUT pairs in one process */
    OPT_SET = 1 << 9,      /* --set, --lines: a set of strings (index, lcs) */
    OPT_MIN = 1 << 10,     /* --min M: strings that must share the substring (lcs) */
    OPT_SEQS = 1 << 11,    /* --seqs FILE alone (count, locate) */
    OPT_DEVICES = 1 << 12, /* -d may name several devices (clsa sa: devlist.c) */
    OPT_SERVE = 1 << 13,   /* --socket PATH, --idle SECONDS, --stop, --status (serve) */
    OPT_ALGO = 1 << 14     /* --algorithm auto|doubling|skew|hybrid (clsa_options.algorithm) */
};

/* clsa sa -d LIST: at most this many entries; an entry at most
 * CLI_SELECTOR_MAX - 1 bytes. */
#define CLI_MAX_DEVICES 64
#define CLI_SELECTOR_MAX 256

/* lcs takes its strings as files, one per argument */
#define CLI_MAX_POS 4096

typedef struct cli_args {
    const char *device;    /* -d DEV, or CLSA_DEVICE when that names several devices */
    int multi;             /* device names several devices (a list or "all": devlist.c) */
    int backend;           /* clsa_backend, DEFAULT if not given */
    int threads;           /* --threads N: host threads (clsa_options.threads); 0: not given */
    int index_bits;        /* 32 (default) or 64 */
    int stats;
    int64_t primary;
    int has_primary;
    int64_t sample_rate;   /* 0: default */
    int progress;          /* the command shows progress (OPT_PROGRESS allowed) */
    int quiet, verbose;    /* -q: no progress display; -v: phase times after the run */
    int fasta;             /* --fasta: INPUT is (multi-)FASTA, one string per record */
    int keep_case, revcomp;
    const char *doc;       /* --doc FILE: the document array; NULL: none */
    const char *seqs;      /* --seqs FILE: the sequence table; NULL: OUTPUT.seqs */
    size_t mem_limit;      /* --mem SIZE in bytes; 0: not given */
    int algorithm;         /* --algorithm as a clsa_sa_algorithm; 0: not given (auto) */
    const char *batch;     /* --batch LIST: the file of pairs ("-": standard input); NULL: none */
    int set;               /* --set: index a set of strings */
    int lines;             /* --lines: INPUT's lines are the strings */
    int64_t min;           /* --min M (lcs); 0: not given */
    const char *socket;    /* --socket PATH (serve); NULL: the default path */
    double idle;           /* --idle SECONDS (serve), > 0; 0: not given */
    int stop, status;      /* --stop, --status (serve) */
    const char *pos[CLI_MAX_POS];
    int npos;
} cli_args;

/* ---- report.c: errors on stderr, failed calls, options --------------------- */
/* "clsa: error: ..." on stderr, one line. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Reports a failed library call: prints the context's message (or the
 * status text) and returns the exit code for it. */
int cli_fail(clsa_context *ctx, clsa_status st, const char *what);

/* Fills o from a's device, backend, --stats and --mem (no progress callback). */
void cli_options(const cli_args *a, clsa_options *o);

/* ---- common.c: arguments, the context a command opens ---------------------- */
/* Parses argv[0..argc) (the words after the subcommand name).  Returns
 * CLI_OK, or CLI_USAGE after printing one line to stderr.  `usage` is the
 * subcommand's synopsis, printed for --help (then *help is set). */
int cli_parse(int argc, char **argv, unsigned allowed, int npos_min, int npos_max,
              const char *usage, cli_args *a, int *help);

/* Opens the context for a->device / a->backend; profile for --stats.
 * Inside `clsa serve` it may be a cached one (ctx_cache.c). */
int cli_open(const cli_args *a, clsa_context **ctx);
/* Ends a context cli_open gave: clsa_destroy, or back to the server's
 * cache.  NULL-safe. */
void cli_close(clsa_context *ctx);

/* ---- ctx_cache.c: contexts kept by `clsa serve` between commands ----------- */
/* Whether this process is the server (then contexts are cached and Ctrl-C
 * belongs to the server, not to the command). */
int cli_serving(void);
void cli_set_serving(int on);
/* A cached context for o's key (in use until cli_close), or NULL with the
 * key to give cli_cache_put for the context opened instead (NULL: none). */
clsa_context *cli_cache_take(const clsa_options *o, char **key);
void cli_cache_put(char *key, clsa_context *ctx);
/* A failed call on ctx: unless the failure was its input's, the context is
 * dropped from the cache when given back. */
void cli_cache_note(clsa_context *ctx, clsa_status st);
/* After each request: every entry free again, failed ones destroyed. */
void cli_cache_after_request(void);
void cli_cache_clear(void);
void cli_cache_describe(char *out, size_t cap);


/* ---- devlist.c: several devices (clsa sa -d LIST / -d all) ----------------- */
typedef struct cli_devlist {
    int k;                                        /* entries (contexts) */
    char sel[CLI_MAX_DEVICES][CLI_SELECTOR_MAX];  /* each entry's selector */
    clsa_context *ctx[CLI_MAX_DEVICES];           /* one context per entry */
} cli_devlist;
/* Whether spec names several devices: a comma anywhere, or "all". */
int cli_devlist_is_list(const char *spec);
/* Splits spec into l->sel (entries trimmed; "all" left as one entry).
 * CLI_OK, or CLI_USAGE after one line naming the bad entry. */
int cli_devlist_parse(const char *spec, cli_devlist *l);
/* Parses a->device, expands "all" into every GPU device and opens one
 * context per entry, the entries in parallel (entry 0 gets the progress
 * callback).  CLI_OK, or CLI_RUNTIME with every failing entry named on
 * stderr and no context left open. */
int cli_devlist_open(const cli_args *a, cli_devlist *l);
void cli_devlist_close(cli_devlist *l);
/* devsel.c: a selector that clsa_create resolves to device i of d[0..i]
 * (clsa_list_devices' order): "PLATFORM:j", into out (cap bytes). */
void cli_device_selector(const clsa_device_info *d, size_t i, char *out, size_t cap);
/* --stats for several devices: the totals, then one line per device. */
void cli_devlist_stats(const cli_devlist *l, uint64_t n, double seconds);

/* ---- ctx_async.c: the context opened beside the file work ------------------ */
typedef struct cli_ctx_job {
    const cli_args *a;
    clsa_context *ctx;  /* the context; with several devices, list->ctx[0] */
    cli_devlist *list;  /* a->multi: the devices and their contexts; else NULL */
    int rc;    /* cli_open's exit code */
    int state; /* idle, running, done */
    pthread_t thread;
} cli_ctx_job;
void cli_ctx_init(cli_ctx_job *j, const cli_args *a);
/* Starts cli_open on a second thread (once; later calls do nothing). */
void cli_ctx_start(cli_ctx_job *j);
/* Starts it if not started, waits for it: CLI_OK with *ctx, or cli_open's
 * exit code (its message already printed). */
int cli_ctx_wait(cli_ctx_job *j, clsa_context **ctx);
/* CLSA_CLI_SERIAL=1: open the context before the file work (no overlap). */
int cli_ctx_serial(void);
/* Whether the context was tried and failed. */
int cli_ctx_failed(const cli_ctx_job *j);
/* Waits, then destroys the context (CLSA_CLI_EXIT=fast: leaves it to exit). */
void cli_ctx_end(cli_ctx_job *j);

/* ---- io.c: whole files, "-" for the standard streams --------------------- */
/* Reads a whole file (NULL-safe for empty files: *data is a valid pointer). */
int cli_read_file(const char *path, uint8_t **data, size_t *n);
/* Writes data to path via a temporary file in the same folder, renamed on
 * success; on any failure the temporary is removed and path is untouched. */
int cli_write_file(const char *path, const void *data, size_t n);
/* For streamed outputs: opens a temporary beside path (host/runtime/
 * safe_out.h: links followed, devices and FIFOs written in place, the old
 * file's mode kept); commit renames it, abort removes it.  open returns
 * CLI_USAGE for an output that cannot be one (a folder). */
typedef struct cli_out {
    clsa__sout s;
    const char *path;
    void *file; /* FILE* */
} cli_out;
int cli_out_open(cli_out *o, const char *path);
int cli_out_commit(cli_out *o);
void cli_out_abort(cli_out *o);

/* 1 if path is "-" (standard input or output). */
int cli_is_stream(const char *path);
/* Array files are little-endian whatever the host: n entries of width bytes
 * swapped in place on a big-endian host. */
void cli_to_le(void *v, size_t n, int width);
/* Exit 2 with one line when an output names the same file as an input or an
 * earlier output (links followed; an output not there yet is fine), or when
 * "-" is read twice.  Call before any work. */
int cli_distinct_paths(const char *const *in, int nin, const char *const *out, int nout);
/* A big array: page-locked memory of ctx (clsa_host_alloc) with
 * CLSA_CLI_IO=pinned, else malloc (io.c). */
typedef struct cli_buf {
    void *p;
    size_t n;
    clsa_context *ctx; /* owner for clsa_host_free; NULL: malloc or mapped */
    int mapped;        /* a file mapping (munmap) */
} cli_buf;
int cli_buf_alloc(clsa_context *ctx, size_t bytes, cli_buf *b, const char *what);
/* Whether big arrays are the context's page-locked memory (CLSA_CLI_IO=pinned):
 * then inputs and outputs wait for the context; else they need none. */
int cli_io_pinned(void);
void cli_buf_free(cli_buf *b);
/* A whole input in two steps: open (errors before the device starts), then
 * read into a cli_buf of ctx.  "-" reads standard input. */
typedef struct cli_in {
    void *f; /* FILE* */
    const char *path;
    size_t size;
    uint8_t *data; /* a file whose size read 0 (/proc): read whole at open */
} cli_in;
int cli_in_open(cli_in *in, const char *path);
int cli_in_read(cli_in *in, clsa_context *ctx, cli_buf *b);
void cli_in_close(cli_in *in);
/* Reads the opened file whole into buf (in->size bytes) and closes it. */
int cli_in_fill(cli_in *in, void *buf);
/* An output array the library fills, then committed to path (atomically
 * for files; "-" writes standard output): the output's temporary file
 * mapped, or a buffer written out (CLSA_CLI_IO, io.c). */
typedef struct cli_result {
    cli_buf b;
    cli_out o;
    const char *path;
    int open; /* o holds the mapped temporary */
} cli_result;
int cli_result_open(clsa_context *ctx, const char *path, size_t bytes, cli_result *r,
                    const char *what);
int cli_result_commit(cli_result *r);
/* Frees the array; removes a temporary not committed. */
void cli_result_close(cli_result *r);
int cli_read_stream(FILE *f, uint8_t **data, size_t *n);
int cli_write_stream(const void *data, size_t n);

/* ---- progress.c: the progress display, -v phase times, Ctrl-C -------------- */
/* Puts the CLI's callback into o (every command: Ctrl-C cancels the work);
 * the display shows only when stderr is a terminal and -q is not given. */
void cli_progress_install(const cli_args *a, clsa_options *o);
/* The input's size, for MB/s; restarts the clock. */
void cli_progress_input(size_t n);
/* After the library call: ends the display line, prints -v's phase times;
 * returns CLSA_ERR_CANCELLED for a success that Ctrl-C came after. */
clsa_status cli_progress_done(clsa_status st);
int cli_interrupted(void);
/* Seconds on a monotonic clock. */
double cli_now(void);
/* Handlers that remove the outputs' temporaries before a fatal signal
 * (SIGTERM, SIGHUP, SIGPIPE, a driver's abort or crash, ...) ends the
 * process; main installs them before any command. */
void cli_signals_install(void);
/* The server's side of Ctrl-C: a client's interrupt message (or its
 * disappearance) sets the flag cli_interrupted reads; reset per request.
 * Both are async-signal-safe. */
void cli_interrupt(void);
void cli_interrupt_reset(void);

/* --stats: peak device bytes per input byte, phase times, passes, cache. */
void cli_print_stats(clsa_context *ctx, uint64_t n, double seconds);
/* --stats of a suffix array: its memory plan (clsa_sa_plan) into *p before
 * the call (0: none, the call reports the error), printed after it. */
int cli_sa_plan(clsa_context *ctx, uint64_t n, int sym, int index64, clsa_sa_plan_info *p);
void cli_print_plan(const clsa_sa_plan_info *p);
/* After a BWT: a line where it took the buckets over a difference-cover
 * sample (host/index/dc_bwt.c) instead of the plan printed before. */
void cli_print_bwt_route(clsa_context *ctx);

/* Subcommands: each takes the words after its name and returns an exit code. */
int cli_sa(int argc, char **argv);
/* clsa sa --fasta (sa_fasta.c): a generalized suffix array of the records. */
int cli_sa_fasta(const cli_args *a);
/* One byte input's suffix array into out_path on j's context (sa.c). */
int cli_sa_one(const cli_args *a, cli_ctx_job *j, const char *in_path, const char *out_path);
/* clsa sa --batch LIST, clsa bwt --batch LIST (sa_batch.c). */
int cli_sa_batch(const cli_args *a);
int cli_bwt_batch(const cli_args *a);
/* A batch's list of pairs: the list's text, cut into NUL-terminated paths
 * in place, and the n pairs' input and output paths. */
typedef struct cli_batch_list {
    uint8_t *text;
    const char **in, **out;
    size_t n;
} cli_batch_list;
/* The pairs of b in groups, one library call a group (batch_run.c); bwt:
 * BWTs, else suffix arrays of a->index_bits. */
int cli_batch_run(const cli_args *a, const cli_batch_list *b, cli_ctx_job *j, int bwt);
int cli_check(int argc, char **argv);
int cli_devices(int argc, char **argv);
int cli_bwt(int argc, char **argv);
int cli_unbwt(int argc, char **argv);
int cli_lcp(int argc, char **argv);
int cli_index(int argc, char **argv);
/* clsa index --format bwa (bwa.c): whether argv asks for it, and the command. */
int cli_index_wants_bwa(int argc, char **argv);
int cli_index_bwa(int argc, char **argv);
int cli_count(int argc, char **argv);
int cli_locate(int argc, char **argv);
int cli_lcs(int argc, char **argv);
/* clsa --version (version.c). */
int cli_version(void);
/* clsa serve (serve.c): the resident server; its client (serve_client.c)
 * returns the command's exit code when a server ran it, -1 to run it here. */
int cli_serve(int argc, char **argv);
int cli_serve_client(int argc, char **argv);
/* The command table of tools/clsa.c: argv[1] is the command; never exits. */
int cli_dispatch(int argc, char **argv);
#endif

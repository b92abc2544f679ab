/* Contexts kept between commands by `clsa serve` (issue 15): the OpenCL
 * platform, context, queue and programs are what a process pays for at
 * start-up, so a resident server keeps up to CACHE_MAX of them, keyed by
 * everything that shapes a context (the selector, backend, --mem, --stats'
 * profiling and every CLSA_* variable).  Outside the server nothing is
 * cached and cli_close is clsa_destroy.  The table is locked because the
 * context may be opened on ctx_async.c's thread. */
#include "cli.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define CACHE_MAX 4

extern char **environ;

typedef struct entry {
    char *key;
    clsa_context *ctx;
    int in_use; /* handed to the running command */
    int bad;    /* failed other than on its input: dropped when given back */
    uint64_t used; /* LRU clock */
} entry;

static entry cache[CACHE_MAX];
static uint64_t clock_;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int serving;

int cli_serving(void) { return atomic_load(&serving); }
void cli_set_serving(int on) { atomic_store(&serving, on); }

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static char *append(char *s, size_t *len, const char *add)
{
    size_t n = strlen(add);
    char *grown = realloc(s, *len + n + 2);
    if (!grown) {
        free(s);
        return NULL;
    }
    memcpy(grown + *len, add, n);
    *len += n;
    grown[(*len)++] = '\n';
    grown[*len] = 0;
    return grown;
}

/* The options and the CLSA_* variables, sorted so their order in the
 * environment does not matter.  NULL when out of memory (then no caching). */
static char *make_key(const clsa_options *o)
{
    char head[CLI_SELECTOR_MAX + 128];
    snprintf(head, sizeof head, "device=%s backend=%d profile=%d mem=%zu threads=%d algorithm=%d",
             o->device ? o->device : "(none)", o->backend, o->profile, o->mem_limit, o->threads,
             o->algorithm);
    size_t nvars = 0, len = 0;
    for (char **e = environ; e && *e; e++) nvars += !strncmp(*e, "CLSA_", 5);
    const char **vars = calloc(nvars + 1, sizeof *vars);
    if (!vars) return NULL;
    size_t k = 0;
    for (char **e = environ; e && *e && k < nvars; e++)
        if (!strncmp(*e, "CLSA_", 5)) vars[k++] = *e;
    qsort(vars, k, sizeof *vars, by_name);
    char *key = append(NULL, &len, head);
    for (size_t i = 0; key && i < k; i++) key = append(key, &len, vars[i]);
    free(vars);
    return key;
}

static void drop(entry *e)
{
    clsa_destroy(e->ctx);
    free(e->key);
    memset(e, 0, sizeof *e);
}

clsa_context *cli_cache_take(const clsa_options *o, char **key_out)
{
    *key_out = NULL;
    if (!cli_serving()) return NULL;
    char *key = make_key(o);
    if (!key) return NULL;
    clsa_context *ctx = NULL;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < CACHE_MAX && !ctx; i++) {
        entry *e = &cache[i];
        if (!e->ctx || e->in_use || e->bad || strcmp(e->key, key)) continue;
        e->in_use = 1;
        e->used = ++clock_;
        ctx = e->ctx;
    }
    pthread_mutex_unlock(&lock);
    if (ctx) {
        free(key);
        clsa_reset_stats(ctx); /* --stats reports this command alone */
    } else {
        *key_out = key;
    }
    return ctx;
}

/* A fresh context enters the table in use; the least recently used idle
 * one makes room.  With every slot busy it stays outside (destroyed at
 * cli_close).  Takes the key. */
void cli_cache_put(char *key, clsa_context *ctx)
{
    if (!key) return;
    entry *victim = NULL;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < CACHE_MAX; i++) {
        entry *e = &cache[i];
        if (!e->ctx) {
            victim = e;
            break;
        }
        if (!e->in_use && (!victim || e->used < victim->used)) victim = e;
    }
    if (victim) {
        if (victim->ctx) drop(victim);
        victim->key = key;
        victim->ctx = ctx;
        victim->in_use = 1;
        victim->used = ++clock_;
        key = NULL;
    }
    pthread_mutex_unlock(&lock);
    free(key);
}

static entry *find(const clsa_context *ctx)
{
    for (int i = 0; i < CACHE_MAX; i++)
        if (ctx && cache[i].ctx == ctx) return &cache[i];
    return NULL;
}

/* Errors that say nothing about the context: its input, sizes, Ctrl-C. */
static int context_sound_after(clsa_status st)
{
    return st == CLSA_OK || st == CLSA_ERR_INVALID_ARG || st == CLSA_ERR_TOO_LARGE ||
           st == CLSA_ERR_FORMAT || st == CLSA_ERR_IO || st == CLSA_ERR_CANCELLED;
}

void cli_cache_note(clsa_context *ctx, clsa_status st)
{
    if (context_sound_after(st)) return;
    pthread_mutex_lock(&lock);
    entry *e = find(ctx);
    if (e) e->bad = 1;
    pthread_mutex_unlock(&lock);
}

void cli_close(clsa_context *ctx)
{
    if (!ctx) return;
    pthread_mutex_lock(&lock);
    entry *e = find(ctx);
    if (e) {
        e->in_use = 0;
        if (e->bad) drop(e);
    }
    pthread_mutex_unlock(&lock);
    if (!e) clsa_destroy(ctx);
}

void cli_cache_after_request(void)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < CACHE_MAX; i++) {
        cache[i].in_use = 0; /* a command that kept one has ended anyway */
        if (cache[i].ctx && cache[i].bad) drop(&cache[i]);
    }
    pthread_mutex_unlock(&lock);
}

void cli_cache_clear(void)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < CACHE_MAX; i++)
        if (cache[i].ctx) drop(&cache[i]);
    pthread_mutex_unlock(&lock);
}

/* "pocl-cpu, (host)": the devices of the cached contexts, for --status. */
void cli_cache_describe(char *out, size_t cap)
{
    size_t len = 0;
    out[0] = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < CACHE_MAX; i++) {
        if (!cache[i].ctx) continue;
        clsa_device_info info;
        const char *name = clsa_get_device_info(cache[i].ctx, &info) == CLSA_OK ? info.name
                                                                                : "(host)";
        int w = snprintf(out + len, cap - len, "%s%s", len ? ", " : "", name);
        if (w < 0 || (size_t)w >= cap - len) break;
        len += (size_t)w;
    }
    pthread_mutex_unlock(&lock);
    if (!len) snprintf(out, cap, "(none)");
}

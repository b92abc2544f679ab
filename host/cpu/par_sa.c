/* Parallel SA-IS instances and their entry points (par_sa.h). */
#include "par_sa.h"
#include "par_pool.h"

#include <stdlib.h>
#include <string.h>

/* What every level of one construction shares: the threads, the block
 * cache of the induction scans and the progress callback. */
typedef struct clsa_par_env {
    clsa_pool *pool;
    size_t block, grain; /* scan block; least entries shared out */
    int blocks; /* the block induction at any n (tests) */
    void *cache, *cache_sym, *cache_dst;
    int (*tick)(void *arg, double fraction);
    void *tick_arg;
} clsa_par_env;

/* Reads this many entries ahead of the scans (prefetches never fault). */
#define PF_DIST 32
#define PREFETCH(p) __builtin_prefetch(p)

static int clsa__par_tick(clsa_par_env *env, double f)
{
    return env->tick && env->tick(env->tick_arg, f);
}

#define SYM int32_t
#define IDX int32_t
#define IDX_MAX INT32_MAX
#define FN(x) x##_i32
#define REC(x) x##_i32
#include "par_sais_tmpl.h"
#undef SYM
#undef FN

#define SYM uint8_t
#define FN(x) x##_u8_32
#include "par_sais_tmpl.h"
#undef SYM
#undef FN

#define SYM uint16_t
#define FN(x) x##_u16_32
#include "par_sais_tmpl.h"
#undef SYM
#undef FN

#define SYM uint32_t
#define FN(x) x##_u32_32
#include "par_sais_tmpl.h"
#undef SYM
#undef IDX
#undef IDX_MAX
#undef FN
#undef REC

#define SYM int64_t
#define IDX int64_t
#define IDX_MAX INT64_MAX
#define FN(x) x##_i64
#define REC(x) x##_i64
#include "par_sais_tmpl.h"
#undef SYM
#undef FN

#define SYM uint8_t
#define FN(x) x##_u8_64
#include "par_sais_tmpl.h"
#undef SYM
#undef FN

#define SYM uint16_t
#define FN(x) x##_u16_64
#include "par_sais_tmpl.h"
#undef SYM
#undef FN

#define SYM uint32_t
#define FN(x) x##_u32_64
#include "par_sais_tmpl.h"
#undef SYM
#undef IDX
#undef IDX_MAX
#undef FN
#undef REC

static int64_t grain_of(const clsa_par_opts *o)
{
    return o && o->grain > 0 ? o->grain : 65536;
}

/* Threads for n entries: one below the grain (nothing to share). */
static int threads_for(const clsa_par_opts *o, int64_t n)
{
    int t = o && o->threads > 0 ? o->threads : clsa__cpu_threads();
    if (n < grain_of(o)) t = 1;
    return t > CLSA_PAR_MAX_THREADS ? CLSA_PAR_MAX_THREADS : t;
}

/* Entries of a scan block: 32 Ki a thread, 64 Ki at least, n at most. */
static size_t block_for(int threads, int64_t n)
{
    size_t b = (size_t)32768 * (size_t)threads;
    if (b < 65536) b = 65536;
    if ((int64_t)b > n) b = n > 0 ? (size_t)n : 1;
    return b;
}

uint64_t clsa__par_sa_work_bytes(int64_t n, int threads)
{
    clsa_par_opts o = {threads, NULL, NULL, 0, 0, 0};
    return 24 * (uint64_t)block_for(threads_for(&o, n), n) + (3 * 256 + 1) * 8;
}

static void env_free(clsa_par_env *e)
{
    clsa__pool_free(e->pool);
    free(e->cache);
    free(e->cache_sym);
    free(e->cache_dst);
}

/* The pool and the block cache (8-byte entries and symbols at most). */
static int env_init(clsa_par_env *e, const clsa_par_opts *o, int64_t n)
{
    int t = threads_for(o, n);
    memset(e, 0, sizeof *e);
    e->block = o && o->grain > 0 ? (size_t)o->grain : block_for(t, n);
    e->grain = (size_t)grain_of(o);
    e->blocks = o && o->blocks;
    e->pool = clsa__pool_new(t);
    e->cache = malloc(e->block * 8);
    e->cache_sym = malloc(e->block * 8);
    e->cache_dst = malloc(e->block * 8);
    e->tick = o ? o->tick : NULL;
    e->tick_arg = o ? o->tick_arg : NULL;
    if (e->pool && e->cache && e->cache_sym && e->cache_dst) return 0;
    env_free(e);
    return -2;
}

typedef struct widen_arg {
    void *sa;
    int64_t lo, hi;
} widen_arg;

static void widen_part(void *arg, int tid, int threads)
{
    widen_arg *w = arg;
    int64_t len = w->hi - w->lo, a = w->lo + len * tid / threads;
    int64_t z = w->lo + len * (tid + 1) / threads;
    for (int64_t i = a; i < z; i++) ((int64_t *)w->sa)[i] = ((int32_t *)w->sa)[i];
}

/* 32-bit entries widened in place to 64: the top half at a time, whose
 * 64-bit entries lie past every 32-bit one it reads; the last few from the
 * top down, each write on entries already read. */
static void widen(clsa_pool *pool, void *sa, int64_t n, int64_t grain)
{
    int64_t hi = n;
    for (; hi > 1 && hi >= grain; hi = (hi + 1) / 2) {
        widen_arg w = {sa, (hi + 1) / 2, hi};
        clsa__pool_run(pool, widen_part, &w);
    }
    for (int64_t i = hi - 1; i >= 0; i--) ((int64_t *)sa)[i] = ((int32_t *)sa)[i];
}

/* One construction of a text of sym-byte symbols < k: 32-bit entries
 * where n allows, widened when 64 are asked for. */
static int run(const void *t, int sym, int64_t k, void *sa, int64_t n, int index64,
               const clsa_par_opts *o)
{
    clsa_par_env e;
    if (env_init(&e, o, n)) return -2;
    int rc, narrow = n <= INT32_MAX && !(index64 && o && o->wide);
    if (narrow) {
        int32_t *s = sa, m = (int32_t)n, kk = (int32_t)k;
        rc = sym == 1   ? sais_u8_32(t, s, m, kk, NULL, 0, &e, 0)
             : sym == 2 ? sais_u16_32(t, s, m, kk, NULL, 0, &e, 0)
             : sym == 4 ? sais_u32_32(t, s, m, kk, NULL, 0, &e, 0)
                        : sais_i32(t, s, m, kk, NULL, 0, &e, 0);
    } else {
        int64_t *s = sa;
        rc = sym == 1   ? sais_u8_64(t, s, n, k, NULL, 0, &e, 0)
             : sym == 2 ? sais_u16_64(t, s, n, k, NULL, 0, &e, 0)
             : sym == 4 ? sais_u32_64(t, s, n, k, NULL, 0, &e, 0)
                        : sais_i64(t, s, n, k, NULL, 0, &e, 0);
    }
    if (rc == 0 && narrow && index64) widen(e.pool, sa, n, (int64_t)e.grain);
    env_free(&e);
    return rc;
}

int clsa__par_sa_bytes(const uint8_t *text, void *sa, int64_t n, int index64,
                       const clsa_par_opts *opts)
{
    if ((!text || !sa) && n > 0) return -1;
    if (n < 0 || (!index64 && n > INT32_MAX)) return -1;
    return n ? run(text, 1, 256, sa, n, index64, opts) : 0;
}

int clsa__par_sa_sym(const void *text, int sym, int64_t k, void *sa, int64_t n, int index64,
                     const clsa_par_opts *opts)
{
    if ((!text || !sa) && n > 0) return -1;
    if (n < 0 || (sym != 2 && sym != 4) || k < 1 || (!index64 && n > INT32_MAX)) return -1;
    return n ? run(text, sym, k, sa, n, index64, opts) : 0;
}

int clsa__par_sa_int32(const int32_t *text, int32_t *sa, int32_t n, int32_t k,
                       const clsa_par_opts *opts)
{
    if ((!text || !sa) && n > 0) return -1;
    if (n < 0 || k < 1) return -1;
    return n ? run(text, -4, k, sa, n, 0, opts) : 0;
}

int clsa__par_sa_int64(const int64_t *text, int64_t *sa, int64_t n, int64_t k,
                       const clsa_par_opts *opts)
{
    if ((!text || !sa) && n > 0) return -1;
    if (n < 0 || k < 1) return -1;
    if (!n) return 0;
    clsa_par_env e;
    if (env_init(&e, opts, n)) return -2;
    int rc = sais_i64(text, sa, n, k, NULL, 0, &e, 0);
    env_free(&e);
    return rc;
}

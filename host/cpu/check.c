/* Suffix array checker in O(n) time and O(sigma) extra space a thread
 * (papers/lightweight-prefix-doubling-and-sa-checker.txt, section 5.3).
 *
 * Conditions: (a) entries in range, (b) first characters non-decreasing,
 * (c) inside each first-character bucket, suffixes are in the order of their
 * successors (suffix + 1), the suffix n-1 (empty successor) first.  (c) is
 * checked by one scan over SA that walks a pointer through each bucket;
 * requiring every bucket to be walked exactly to its end also proves SA is
 * a permutation: n-1 occurs once, and each value v < n-1 occurs as often
 * as v+1.  Large arrays are checked by several threads (check_impl.h): the
 * scans are random reads of the text, slow for one thread on large arrays. */
#include "buffer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Entries a part gets at least; most parts (clsa__run_team's limit). */
#define CHECK_PART_MIN ((int64_t)1 << 20)
#define CHECK_PARTS 16

typedef struct check_part {
    const uint8_t *t;
    const void *sa;
    int64_t n, lo, hi;     /* the part: SA[lo, hi), and text[lo, hi) for the histogram */
    int64_t *start;        /* shared: start[c] = first slot of bucket c, start[256] = n */
    int64_t count[256];    /* the histogram, then the successors' first characters */
    int64_t ptr[256];      /* (c): where the part's walk starts each bucket */
    int64_t bad;           /* the part's first failing entry, or -1 */
    char why[200];
} check_part;

static void check_fail(check_part *p, int64_t i, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->why, sizeof p->why, fmt, ap);
    va_end(ap);
    p->bad = i;
}

static int check_say(char *why, size_t cap, const char *fmt, ...)
{
    if (why && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, cap, fmt, ap);
        va_end(ap);
    }
    return 0;
}

static void *check_hist(void *arg)
{
    check_part *p = arg;
    memset(p->count, 0, sizeof p->count);
    for (int64_t i = p->lo; i < p->hi; i++) p->count[p->t[i]]++;
    return NULL;
}

/* Runs step over the parts; 0 with the lowest failing part's reason. */
static int check_run(check_part *p, unsigned parts, void *(*step)(void *), char *why, size_t cap)
{
    for (unsigned k = 0; k < parts; k++) p[k].bad = -1;
    clsa__run_team(step, p, sizeof *p, parts);
    for (unsigned k = 0; k < parts; k++)
        if (p[k].bad >= 0) return check_say(why, cap, "%s", p[k].why);
    return 1;
}

/* The parts' ranges and the buckets' starts (from a histogram by parts). */
static void check_parts(check_part *p, unsigned parts, const uint8_t *t, const void *sa,
                        int64_t n, int64_t *start)
{
    for (unsigned k = 0; k < parts; k++) {
        p[k].t = t;
        p[k].sa = sa;
        p[k].n = n;
        p[k].lo = n / parts * k;
        p[k].hi = k + 1 == parts ? n : n / parts * (k + 1);
        p[k].start = start;
    }
    clsa__run_team(check_hist, p, sizeof *p, parts);
    start[0] = 0;
    for (int c = 0; c < 256; c++) {
        int64_t in = 0;
        for (unsigned k = 0; k < parts; k++) in += p[k].count[c];
        start[c + 1] = start[c] + in;
    }
}

/* Each part's pointers from the successor counts of the parts before it;
 * bucket `last` starts one further on (suffix n - 1 opens it). */
static void check_pointers(check_part *p, unsigned parts, int last)
{
    for (int c = 0; c < 256; c++) {
        int64_t at = p->start[c] + (c == last);
        for (unsigned k = 0; k < parts; k++) {
            p[k].ptr[c] = at;
            at += p[k].count[c];
        }
    }
}

/* Every bucket walked exactly to its end. */
static int check_complete(const check_part *p, unsigned parts, char *why, size_t cap)
{
    const check_part *z = &p[parts - 1];
    for (int c = 0; c < 256; c++)
        if (z->ptr[c] != z->start[c + 1])
            return check_say(why, cap, "SA is not a permutation (bucket %d incomplete)", c);
    return 1;
}

#define SA_T int32_t
#define CHECK_NAME check32
#include "check_impl.h"
#undef SA_T
#undef CHECK_NAME
#define SA_T int64_t
#define CHECK_NAME check64
#include "check_impl.h"
#undef SA_T
#undef CHECK_NAME

/* Threads for n entries: one a core, up to CHECK_PARTS, none below
 * CHECK_PART_MIN entries. */
static unsigned check_threads(int64_t n)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int64_t by_n = n / CHECK_PART_MIN;
    int64_t t = cores < 1 ? 1 : cores;
    if (t > CHECK_PARTS) t = CHECK_PARTS;
    if (t > by_n) t = by_n;
    return t < 1 ? 1 : (unsigned)t;
}

int clsa__check_sa_parts(const uint8_t *text, const void *sa, int64_t n, int index64,
                         unsigned parts, char *why, size_t cap)
{
    if (parts < 1) parts = 1;
    if (parts > CHECK_PARTS) parts = CHECK_PARTS;
    if ((int64_t)parts > n && n > 0) parts = (unsigned)n;
    return index64 ? check64(text, sa, n, parts, why, cap) : check32(text, sa, n, parts, why, cap);
}

int clsa__check_sa(const uint8_t *text, const void *sa, int64_t n, int index64, char *why,
                   size_t cap)
{
    return clsa__check_sa_parts(text, sa, n, index64, check_threads(n), why, cap);
}

/* The number parser of parse_num.h. */
#include "parse_num.h"

#include <stdio.h>
#include <string.h>

/* The suffix at s: its power of 1024 in *shift, its length; 0 if none. */
static size_t suffix_at(const char *s, unsigned *shift)
{
    static const char units[] = "KMGTPE";
    const char *u = *s ? strchr(units, *s >= 'a' && *s <= 'z' ? *s - 32 : *s) : NULL;
    if (!u) return 0;
    *shift = 10u * (unsigned)(u - units + 1);
    if (!strcmp(s + 1, "") || !strcmp(s + 1, "B") || !strcmp(s + 1, "iB") ||
        !strcmp(s + 1, "b") || !strcmp(s + 1, "ib"))
        return strlen(s);
    return 0;
}

/* Decimal digits at *s into *x (at most keep of them; overflow: -1);
 * *digits counts those kept. */
static int digits_at(const char **s, uint64_t *x, int *digits, int keep)
{
    *x = 0;
    *digits = 0;
    for (; **s >= '0' && **s <= '9'; (*s)++) {
        unsigned d = (unsigned)(**s - '0');
        if (*digits >= keep) continue;
        if (*x > (UINT64_MAX - d) / 10) return -1;
        *x = *x * 10 + d;
        (*digits)++;
    }
    return 0;
}

/* (whole + frac / 10^fdigits) << shift, rounded down. */
static int scale(uint64_t whole, uint64_t frac, int fdigits, unsigned shift, uint64_t *v)
{
    if (shift && whole > (UINT64_MAX >> shift)) return -1;
    long double den = 1;
    for (int i = 0; i < fdigits; i++) den *= 10;
    uint64_t part = (uint64_t)((long double)((uint64_t)1 << shift) * (long double)frac / den);
    uint64_t base = whole << shift;
    if (base > UINT64_MAX - part) return -1;
    *v = base + part;
    return 0;
}

int clsa__parse_u64(const char *s, int flags, uint64_t min, uint64_t max, uint64_t *v, char *why,
                    size_t cap)
{
    const char *p = s;
    uint64_t whole = 0, frac = 0, x;
    int wd = 0, fd = 0, over = 0;
    unsigned shift = 0;
    if (!s || !*s) return snprintf(why, cap, "empty"), -1;
    over |= digits_at(&p, &whole, &wd, 64);
    if ((flags & CLSA_NUM_SIZE) && *p == '.') {
        p++;
        over |= digits_at(&p, &frac, &fd, 18);
        if (!fd) wd = 0; /* "1." */
    }
    size_t sl = (flags & CLSA_NUM_SIZE) ? suffix_at(p, &shift) : 0;
    if (!wd || p[sl] || (fd && !sl)) {
        snprintf(why, cap, (flags & CLSA_NUM_SIZE) ? "not a size (a whole number of bytes, "
                                                     "or with K, M, G, T or P)"
                                                   : "not a whole number");
        return -1;
    }
    if (over || scale(whole, frac, fd, shift, &x) || x < min || x > max) {
        snprintf(why, cap, "out of range %llu..%llu", (unsigned long long)min,
                 (unsigned long long)max);
        return -1;
    }
    *v = x;
    return 0;
}

/* The selector of one listed device, for `clsa sa -d all` (devlist.c): the
 * library chooses devices by selector only ("gpu", "cpu" or
 * "SUBSTRING[:INDEX]", host/runtime/context.c), so each GPU is named by its
 * platform's name and its place among the devices that name matches.
 * Kept apart from devlist.c so that tests/test_cli_multi.c can check it
 * against clsa_create on every device of the machine, GPU or not. */
#include "cli.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The library's match: needle anywhere in hay, case ignored. */
static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    if (n == 0) return 1;
    for (; *hay; hay++)
        if (!strncasecmp(hay, needle, n)) return 1;
    return 0;
}

/* j counts the devices before i that "PLATFORM" also matches (in platform,
 * vendor or name), in the order that clsa_list_devices and clsa_create
 * both enumerate; the platform name may hold ':' (the index is after the
 * last one). */
void cli_device_selector(const clsa_device_info *d, size_t i, char *out, size_t cap)
{
    const char *p = d[i].platform;
    size_t j = 0;
    for (size_t e = 0; e < i; e++)
        j += contains_nocase(d[e].platform, p) || contains_nocase(d[e].vendor, p) ||
             contains_nocase(d[e].name, p);
    snprintf(out, cap, "%s:%zu", p, j);
}

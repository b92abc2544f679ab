/* clsa --version: the library version, then what OpenCL this machine has.
 * Never fails for want of OpenCL: a machine without it still runs the host
 * backend, and saying so is the point of the lines after the first. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line per platform (the public API describes devices: a platform is
 * listed with the OpenCL version its first device reports, and how many
 * devices it has). */
static void print_platforms(const clsa_device_info *d, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        int seen = 0, devices = 0;
        for (size_t j = 0; j < count; j++) {
            if (strcmp(d[j].platform, d[i].platform)) continue;
            if (j < i) seen = 1;
            devices++;
        }
        if (!seen)
            printf("platform: %s | %s | %d device%s\n", d[i].platform, d[i].version, devices,
                   devices == 1 ? "" : "s");
    }
}

int cli_version(void)
{
    printf("clsa %s\n", clsa_version());
    char why[512];
    if (clsa_opencl_available(why, sizeof why) != CLSA_OK) {
        printf("OpenCL: not found (%s); the host backend is used\n", *why ? why : "no loader");
        return CLI_OK;
    }
    size_t count = 0;
    clsa_device_info *d = NULL;
    if (clsa_list_devices(NULL, 0, &count) == CLSA_OK && count > 0 &&
        (d = calloc(count, sizeof *d)) && clsa_list_devices(d, count, &count) == CLSA_OK) {
        printf("OpenCL: loader found, %zu device%s\n", count, count == 1 ? "" : "s");
        print_platforms(d, count);
    } else {
        printf("OpenCL: loader found, no device; the host backend is used\n");
    }
    free(d);
    return CLI_OK;
}

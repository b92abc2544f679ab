/* clsa devices: what OpenCL sees, and which device clsa would pick. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>

int cli_devices(int argc, char **argv)
{
    cli_args a;
    int help, rc = cli_parse(argc, argv, 0, 0, 0, "clsa devices", &a, &help);
    if (rc || help) return rc;
    size_t count = 0;
    clsa_status st = clsa_list_devices(NULL, 0, &count);
    if (st) return cli_fail(NULL, st, "devices");
    if (count == 0) {
        printf("no OpenCL device found (the host backend will be used)\n");
        return CLI_OK;
    }
    clsa_device_info *d = calloc(count, sizeof *d);
    if (!d) return cli_fail(NULL, CLSA_ERR_HOST_MEMORY, "devices");
    st = clsa_list_devices(d, count, &count);
    for (size_t i = 0; st == CLSA_OK && i < count; i++)
        printf("%c %zu: %s | %s | %s | %s, %.1f GiB global, %llu KiB local, %u CUs, driver %s\n",
               d[i].is_default ? '*' : ' ', i, d[i].platform, d[i].name,
               d[i].is_gpu ? "GPU" : "CPU", d[i].version, (double)d[i].global_mem / 1073741824.0,
               (unsigned long long)(d[i].local_mem / 1024), d[i].compute_units, d[i].driver);
    free(d);
    if (st) return cli_fail(NULL, st, "devices");
    printf("(* = default; choose with -d or CLSA_DEVICE: gpu, cpu, or a name substring[:index];\n"
           " clsa sa also takes a comma-separated list, one context each, the same device may\n"
           " appear twice: -d nvidia:0,nvidia:1; or -d all: every GPU above, an error if none)\n");
    return CLI_OK;
}

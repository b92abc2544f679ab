/* clsa devices: what OpenCL sees, and which device clsa would pick. */
#include "cli.h"

#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    printf("(* = default; choose with -d or CLSA_DEVICE: gpu, cpu, or a name substring[:index])\n");
    return CLI_OK;
}

/* Start-up: the ICD loader initialises every installed OpenCL platform on
 * the first OpenCL call, whichever one is used (PoCL alone costs ~0.1-0.2 s).
 * When the selector names exactly one vendor file (-d nvidia and
 * /etc/OpenCL/vendors/nvidia.icd) and the loader is ocl-icd, which accepts
 * one .icd file in OCL_ICD_VENDORS, only that platform is loaded.  Never
 * when OCL_ICD_VENDORS is already set, or CLSA_CLI_ALL_PLATFORMS=1. */
void cli_narrow_platforms(const char *sel)
{
    const char *all = getenv("CLSA_CLI_ALL_PLATFORMS");
    if (!sel || !*sel || getenv("OCL_ICD_VENDORS") || (all && !strcmp(all, "1")) ||
        !strcmp(sel, "gpu") || !strcmp(sel, "cpu") ||
        !dlsym(RTLD_DEFAULT, "clGetICDLoaderInfoOCLICD"))
        return;
    char want[64];
    size_t len = 0;
    for (; sel[len] && sel[len] != ':' && len + 1 < sizeof want; len++)
        want[len] = (char)tolower((unsigned char)sel[len]);
    want[len] = 0;
    if (len < 3) return;
    static const char folder[] = "/etc/OpenCL/vendors";
    DIR *d = opendir(folder);
    if (!d) return;
    char found[512] = "";
    int matches = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 5 || n >= 256 || strcmp(e->d_name + n - 4, ".icd")) continue;
        char stem[256];
        for (size_t i = 0; i + 4 < n; i++) stem[i] = (char)tolower((unsigned char)e->d_name[i]);
        stem[n - 4] = 0;
        if (!strstr(stem, want)) continue;
        matches++;
        snprintf(found, sizeof found, "%s/%s", folder, e->d_name);
    }
    closedir(d);
    if (matches == 1) setenv("OCL_ICD_VENDORS", found, 1);
}

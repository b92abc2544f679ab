/* clsa-memloop: repeated suffix arrays of one input on one context, with
 * the device memory in use after each call as nvidia-smi reports it (the
 * driver's view, not clsa's): tells a driver holding freed buffers from a
 * leak.  Benchmark diagnostic only (docs/bench/method.md).
 *
 *   clsa-memloop N CALLS [SELECTOR]    random DNA of N bytes, CALLS calls */
#include <clsa.h>

#include <stdio.h>
#include <stdlib.h>

static void gpu_memory(void)
{
    FILE *p = popen("nvidia-smi --query-gpu=memory.used --format=csv,noheader | tr '\\n' ' '", "r");
    char line[256] = "";
    if (p && fgets(line, sizeof line, p)) printf("  nvidia-smi used: %s\n", line);
    if (p) pclose(p);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: clsa-memloop N CALLS [SELECTOR]\n");
        return 2;
    }
    long long n = atoll(argv[1]);
    int calls = atoi(argv[2]);
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_DEVICE;
    if (argc > 3) o.device = argv[3];
    clsa_context *c = NULL;
    if (n <= 0 || clsa_create(&o, &c)) return 3;
    unsigned char *t = malloc((size_t)n);
    int *sa = malloc((size_t)n * 4);
    if (!t || !sa) return 4;
    srand(1);
    for (long long i = 0; i < n; i++) t[i] = "ACGT"[rand() & 3];
    gpu_memory();
    for (int r = 0; r < calls; r++) {
        clsa_status st = clsa_sa32(c, t, sa, n);
        clsa_stats s;
        clsa_get_stats(c, &s);
        printf("call %d: %s%s%s, clsa peak %.2f GB, clsa live %.2f GB\n", r, clsa_status_string(st),
               st ? ": " : "", st ? clsa_last_error(c) : "", s.peak_device_bytes / 1e9,
               s.current_device_bytes / 1e9);
        gpu_memory();
    }
    clsa_destroy(c);
    gpu_memory();
    free(t);
    free(sa);
    return 0;
}

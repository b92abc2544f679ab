/* Opens only the vendor ICD library a device selector names (icd_direct.h
 * says why and when), and keeps the dispatch tables of such libraries so
 * that cl_loader.c can send calls on their objects straight to them. */
#define _GNU_SOURCE /* dladdr, RTLD_NOLOAD */
#include "icd_direct.h"
#include "arith.h"
#include "program.h"

#include <pthread.h>
#include <dirent.h>
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The dispatch table's member, not the renamed call (cl_loader.h). */
#undef clGetDeviceInfo

#define CACHE_FILE "icd-direct.txt"
#define CACHE_TAG "clsa-icd-v1"
#define CACHE_MAX_LINES 16
#define LINE_MAX_LEN 1024

typedef cl_int(CL_API_CALL *icd_get_platforms_fn)(cl_uint, cl_platform_id *, cl_uint *);
typedef void *(CL_API_CALL *get_extension_fn)(const char *);

/* ---- dispatch tables of directly opened libraries ------------------------ */

/* A vendor may use one table for all its objects or one per kind; either
 * way there are few.  Readers take no lock: an entry is written before the
 * count that publishes it. */
#define MAX_TABLES 32
static const void *_Atomic tables[MAX_TABLES];
static atomic_int ntables;
static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;

static int known_table(const void *t)
{
    int n = atomic_load_explicit(&ntables, memory_order_acquire);
    for (int i = 0; i < n; i++)
        if (atomic_load_explicit(&tables[i], memory_order_relaxed) == t) return 1;
    return 0;
}

const struct _cl_icd_dispatch *clsa__icd_direct_table(const void *obj)
{
    /* Nothing opened directly (the usual case): never look inside objects,
     * which need not even be ICD objects then (Oclgrind's runtime). */
    if (!obj || atomic_load_explicit(&ntables, memory_order_acquire) == 0) return NULL;
    const void *t = *(const void *const *)obj;
    return known_table(t) ? (const struct _cl_icd_dispatch *)t : NULL;
}

void clsa__icd_direct_learn(const void *obj)
{
    if (!obj) return;
    const void *t = *(const void *const *)obj;
    if (!t || known_table(t)) return;
    pthread_mutex_lock(&tables_lock);
    int n = atomic_load_explicit(&ntables, memory_order_relaxed);
    if (!known_table(t) && n < MAX_TABLES) {
        atomic_store_explicit(&tables[n], t, memory_order_relaxed);
        atomic_store_explicit(&ntables, n + 1, memory_order_release);
    }
    pthread_mutex_unlock(&tables_lock);
}

/* ---- the loader's variables as the process started ------------------------
 * CUDA's OpenCL loader cuts OCL_ICD_FILENAMES at its first ':' in place
 * while it loads the drivers (seen on the H200 machine: "libpocl.so.2:
 * libnvidia-opencl.so.1" reads "libpocl.so.2" afterwards).  Read after the
 * loader ran, the fingerprint a process writes with its cache entry would
 * never be the one the next process computes before the loader, and the
 * cache route would never engage.  So the variables are read once, before
 * anything loads OpenCL: cl_loader.c calls clsa__icd_direct_snapshot first. */
enum { V_VENDORS, V_VENDOR_PATH, V_FILENAMES, V_LAYERS, NVARS };
static const char *const var_names[NVARS] = {"OCL_ICD_VENDORS", "OPENCL_VENDOR_PATH",
                                             "OCL_ICD_FILENAMES", "OPENCL_LAYERS"};
/* Static copies, not strdup: a library that is unloaded (the drop-in
 * libdivsufsort under dlclose) must leave nothing allocated behind. */
static char snapshot_buf[NVARS][4096];
static char *snapshot[NVARS];
static pthread_once_t snapshot_once = PTHREAD_ONCE_INIT;

static void take_snapshot(void)
{
    for (int i = 0; i < NVARS; i++) {
        const char *v = getenv(var_names[i]);
        /* longer than a path: unset, a fingerprint miss at worst */
        snapshot[i] = v && strlen(v) < sizeof snapshot_buf[i] ? strcpy(snapshot_buf[i], v) : NULL;
    }
}

void clsa__icd_direct_snapshot(void) { pthread_once(&snapshot_once, take_snapshot); }

static const char *loader_var(int i)
{
    clsa__icd_direct_snapshot();
    return snapshot[i];
}

/* ---- which selectors, which vendor folder ------------------------------ */

int clsa__icd_direct_wanted(const char *sel)
{
    const char *off = getenv("CLSA_ICD_DIRECT");
    if (off && !strcmp(off, "0")) return 0;
    if (!sel || !*sel || *sel == ':' || !strcmp(sel, "gpu") || !strcmp(sel, "cpu")) return 0;
    return clsa__cl_direct_allowed();
}

/* The selector's substring part (before ":index"). */
static size_t sel_len(const char *sel)
{
    const char *colon = strrchr(sel, ':');
    return colon ? (size_t)(colon - sel) : strlen(sel);
}

/* The folder of .icd files the loader reads (ocl-icd and the Khronos
 * loader agree on these variables), or NULL when OCL_ICD_VENDORS names
 * something else (one .icd file, a library). */
static const char *vendor_dir(void)
{
    const char *v = loader_var(V_VENDORS);
    if (v && *v) {
        struct stat s;
        return stat(v, &s) == 0 && S_ISDIR(s.st_mode) ? v : NULL;
    }
    const char *p = loader_var(V_VENDOR_PATH);
    return p && *p ? p : "/etc/OpenCL/vendors";
}

static int is_icd_name(const char *name)
{
    size_t n = strlen(name);
    return name[0] != '.' && n > 4 && !strcmp(name + n - 4, ".icd");
}

/* ---- fingerprint of the installed drivers ------------------------------ */

static uint64_t fnv_str(uint64_t h, const char *s) { return clsa__fnv1a(s, strlen(s) + 1, h); }

/* Changes when a driver is installed, removed or updated, or the loader's
 * environment differs: a cached choice is then not trusted. */
static uint64_t fingerprint(void)
{
    uint64_t h = CLSA_FNV_SEED, files = 0;
    for (int i = 0; i < NVARS; i++) {
        const char *v = loader_var(i);
        h = fnv_str(fnv_str(h, var_names[i]), v ? v : "\001unset");
    }
    const char *dir = vendor_dir();
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d) return h;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (!is_icd_name(e->d_name)) continue;
        char path[4096];
        struct stat s;
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path ||
            stat(path, &s) != 0)
            continue;
        uint64_t f = fnv_str(CLSA_FNV_SEED, e->d_name);
        int64_t meta[3] = {(int64_t)s.st_size, (int64_t)s.st_mtime, (int64_t)s.st_ino};
        files += clsa__fnv1a(meta, sizeof meta, f); /* a sum: readdir's order does not matter */
    }
    closedir(d);
    return h ^ files;
}

/* ---- the cache file ------------------------------------------------------ */

typedef struct cache_entry {
    char selector[256];
    char library[1024];
    char platform[128];
    char device[128];
} cache_entry;

static int cache_path(char *path, size_t cap)
{
    char dir[4096];
    if (!clsa__cache_dir(dir, sizeof dir)) return 0;
    int len = snprintf(path, cap, "%s/%s", dir, CACHE_FILE);
    return len > 0 && (size_t)len < cap;
}

static int copy_field(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap) return 0;
    memcpy(dst, src, n + 1);
    return 1;
}

/* Parses "TAG \t FINGERPRINT \t selector \t library \t platform \t device";
 * anything else (an older format, garbage, a truncated line) is no entry. */
static int parse_line(char *line, uint64_t fp, cache_entry *e)
{
    char *f[6];
    size_t n = 0;
    line[strcspn(line, "\n")] = 0;
    for (char *p = line; n < 6; n++) {
        f[n] = p;
        p = strchr(p, '\t');
        if (!p) {
            n++;
            break;
        }
        *p++ = 0;
    }
    if (n != 6 || strchr(f[5], '\t') || strcmp(f[0], CACHE_TAG)) return 0;
    char *end;
    unsigned long long v = strtoull(f[1], &end, 16);
    if (*end || end == f[1] || v != fp) return 0;
    return copy_field(e->selector, sizeof e->selector, f[2]) &&
           copy_field(e->library, sizeof e->library, f[3]) && f[3][0] == '/' &&
           copy_field(e->platform, sizeof e->platform, f[4]) &&
           copy_field(e->device, sizeof e->device, f[5]);
}

/* Reads the valid entries (this fingerprint) into e[0..cap). */
static size_t cache_read(uint64_t fp, cache_entry *e, size_t cap)
{
    char path[4200], line[LINE_MAX_LEN];
    if (!cache_path(path, sizeof path)) return 0;
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = 0;
    while (n < cap && fgets(line, sizeof line, f))
        if (parse_line(line, fp, &e[n])) n++;
    fclose(f);
    return n;
}

/* Replaces the file with e[0..n) at once (temporary file, rename): a
 * process reading it meanwhile sees the old or the new one, never half. */
static void cache_write(uint64_t fp, const cache_entry *e, size_t n)
{
    char path[4200], tmp[4300];
    if (!cache_path(path, sizeof path)) return;
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) return;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(tmp);
        return;
    }
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s\t%016llx\t%s\t%s\t%s\t%s\n", CACHE_TAG, (unsigned long long)fp,
                e[i].selector, e[i].library, e[i].platform, e[i].device);
    if (fclose(f) != 0 || rename(tmp, path) != 0) unlink(tmp);
}

/* ---- opening one vendor library ----------------------------------------- */

static icd_get_platforms_fn platforms_entry(void *h)
{
    void *f = dlsym(h, "clIcdGetPlatformIDsKHR");
    if (!f) {
        /* What the loaders fall back to for an ICD that only exposes it
         * as an extension function. */
        get_extension_fn ext;
        void *g = dlsym(h, "clGetExtensionFunctionAddress");
        memcpy(&ext, &g, sizeof g);
        if (g) f = ext("clIcdGetPlatformIDsKHR");
    }
    icd_get_platforms_fn fn;
    memcpy(&fn, &f, sizeof f);
    return f ? fn : NULL;
}

/* Opens `library` and takes its platforms.  The library stays open for the
 * process, as the loader keeps it: its objects may live that long. */
static int open_vendor(const char *library, clsa_icd_route *r)
{
    void *h = dlopen(library, RTLD_LAZY | RTLD_LOCAL);
    if (!h) return 0;
    icd_get_platforms_fn get = platforms_entry(h);
    cl_uint n = 0;
    if (!get || get(0, NULL, &n) != CL_SUCCESS || n == 0) return 0;
    if (n > CLSA_ICD_MAX_PLATFORMS) n = CLSA_ICD_MAX_PLATFORMS;
    if (get(n, r->platforms, NULL) != CL_SUCCESS) return 0;
    for (cl_uint i = 0; i < n; i++) {
        if (!r->platforms[i]) return 0;
        clsa__icd_direct_learn(r->platforms[i]);
    }
    r->count = n;
    return 1;
}

/* ---- finding the library from the .icd file names ---------------------- */

/* The library named on the first line of dir/name, in lib. */
static int icd_library(const char *dir, const char *name, char *lib, size_t cap)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) return 0;
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int ok = fgets(lib, (int)cap, f) != NULL;
    fclose(f);
    if (!ok) return 0;
    size_t n = strcspn(lib, "\r\n");
    while (n && (lib[n - 1] == ' ' || lib[n - 1] == '\t')) n--;
    lib[n] = 0;
    return n > 0;
}

/* Whether the .icd file's name or its library's base name (up to the first
 * dot: "libnvidia-opencl", not the version digits) contains the selector. */
static int icd_matches(const char *name, const char *lib, const char *sel, size_t len)
{
    char stem[256], base[1024];
    snprintf(stem, sizeof stem, "%.*s", (int)(strlen(name) > 4 ? strlen(name) - 4 : 0), name);
    const char *slash = strrchr(lib, '/');
    snprintf(base, sizeof base, "%s", slash ? slash + 1 : lib);
    base[strcspn(base, ".")] = 0;
    return clsa__contains_nocase(stem, sel, len) || clsa__contains_nocase(base, sel, len);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Counts a matching library; the same file named twice (an .icd file and
 * OCL_ICD_FILENAMES, say, as the H200 machine's set-up does) counts once. */
static void candidate(const char *lib, char *out, size_t cap, size_t *found)
{
    if (*found && !strcmp(base_name(out), base_name(lib))) return;
    if ((*found)++ == 0) snprintf(out, cap, "%s", lib);
}

/* The libraries OCL_ICD_FILENAMES names (both loaders open them besides, or
 * instead of, the vendor folder's) that match the selector. */
static void libraries_from_list(const char *sel, size_t len, char *out, size_t cap,
                                size_t *found)
{
    const char *list = loader_var(V_FILENAMES);
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, ":");
        char lib[1024];
        if (n && n < sizeof lib) {
            memcpy(lib, p, n);
            lib[n] = 0;
            if (icd_matches("", lib, sel, len)) candidate(lib, out, cap, found);
        }
        p += n + (p[n] == ':');
    }
}

/* The one library whose .icd file (or OCL_ICD_FILENAMES entry) matches; 0
 * for none or several. */
static int library_by_name(const char *sel, char *out, size_t cap)
{
    const char *dir = vendor_dir();
    DIR *d = dir ? opendir(dir) : NULL;
    size_t len = sel_len(sel), found = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        char lib[1024];
        if (!is_icd_name(e->d_name) || !icd_library(dir, e->d_name, lib, sizeof lib)) continue;
        if (icd_matches(e->d_name, lib, sel, len)) candidate(lib, out, cap, &found);
    }
    if (d) closedir(d);
    libraries_from_list(sel, len, out, cap, &found);
    return found == 1;
}

/* ---- the route ------------------------------------------------------------ */

static int from_cache(const char *sel, uint64_t fp, clsa_icd_route *r)
{
    cache_entry e[CACHE_MAX_LINES];
    size_t n = cache_read(fp, e, CACHE_MAX_LINES);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(e[i].selector, sel)) continue;
        /* A stale entry (library gone, no platform) sends the caller to the
         * full enumeration, which rewrites it. */
        if (!open_vendor(e[i].library, r)) return 0;
        r->cached = 1;
        snprintf(r->platform, sizeof r->platform, "%s", e[i].platform);
        snprintf(r->device, sizeof r->device, "%s", e[i].device);
        return 1;
    }
    return -1; /* no entry: the file names may still tell */
}

int clsa__icd_direct_find(const char *sel, clsa_icd_route *r)
{
    memset(r, 0, sizeof *r);
    if (!clsa__icd_direct_wanted(sel)) return 0;
    int c = from_cache(sel, fingerprint(), r);
    if (c >= 0) return c;
    char lib[1024];
    return library_by_name(sel, lib, sizeof lib) && open_vendor(lib, r);
}

int clsa__icd_direct_confirms(const clsa_icd_route *r, const char *sel,
                              const clsa_device_info *chosen)
{
    if (r->cached)
        return !strcmp(chosen->platform, r->platform) && !strcmp(chosen->name, r->device);
    size_t len = sel_len(sel);
    return clsa__contains_nocase(chosen->platform, sel, len) ||
           clsa__contains_nocase(chosen->vendor, sel, len);
}

/* ---- remembering a full enumeration's choice ------------------------------ */

/* The file of the library that made platform p: where its dispatch table's
 * functions live.  Only for an ICD platform (cl_khr_icd), whose first word
 * is a dispatch table, and a library that can be opened the direct way. */
static int library_of(cl_platform_id p, char *out, size_t cap)
{
    char ext[4096] = "";
    if (clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS, sizeof ext, ext, NULL) != CL_SUCCESS)
        return 0;
    ext[sizeof ext - 1] = 0;
    if (!strstr(ext, "cl_khr_icd")) return 0;
    const struct _cl_icd_dispatch *t = *(const struct _cl_icd_dispatch *const *)p;
    void *fn;
    memcpy(&fn, &t->clGetDeviceInfo, sizeof fn);
    Dl_info info;
    if (!fn || !dladdr(fn, &info) || !info.dli_fname || info.dli_fname[0] != '/') return 0;
    void *h = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
    int ok = h && platforms_entry(h);
    if (h) dlclose(h); /* only drops the reference RTLD_NOLOAD took */
    return ok && copy_field(out, cap, info.dli_fname);
}

static int plain(const char *s) { return !strpbrk(s, "\t\n\r"); }

void clsa__icd_direct_remember(const char *sel, cl_platform_id p, const clsa_device_info *chosen)
{
    cache_entry now;
    if (!clsa__icd_direct_wanted(sel) || !plain(sel) || !plain(chosen->platform) ||
        !plain(chosen->name) || !copy_field(now.selector, sizeof now.selector, sel) ||
        !library_of(p, now.library, sizeof now.library))
        return;
    snprintf(now.platform, sizeof now.platform, "%s", chosen->platform);
    snprintf(now.device, sizeof now.device, "%s", chosen->name);
    uint64_t fp = fingerprint();
    cache_entry e[CACHE_MAX_LINES + 1];
    size_t n = cache_read(fp, e, CACHE_MAX_LINES), keep = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(e[i].selector, sel)) {
            e[keep++] = e[i];
        } else if (!strcmp(e[i].library, now.library) && !strcmp(e[i].platform, now.platform) &&
                   !strcmp(e[i].device, now.device)) {
            return; /* already there */
        }
    }
    if (keep == CACHE_MAX_LINES) memmove(e, e + 1, --keep * sizeof *e); /* oldest out */
    e[keep++] = now;
    cache_write(fp, e, keep);
}

/* Programs: embedded sources compiled at run time, binaries cached on disk.
 *
 * The cache is code that will run on the device, so it is trusted only when
 * the folder and the entry belong to the user and nobody else can write
 * them, when the entry is a regular file, and when its stored key (device,
 * driver, options, sources) and its tag match exactly.  The tag is a keyed
 * hash (SipHash-2-4) under a secret of the folder (its file "key", 0600):
 * only binaries this library wrote itself are ever given to a driver (some
 * crash on crafted ones).  Any doubt, and any failure of the driver on a
 * cached binary, means the entry is removed and the program built from
 * source. */
#include "arith.h"
#include "context.h"
#include "program.h"
#include "status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_MAGIC "CLSABIN2"
#define CACHE_FORMAT 2u

static const char *overrides_name[8];
static const char *overrides_text[8];

void clsa__override_source(const char *name, const char *text)
{
    for (int i = 0; i < 8; i++)
        if (overrides_name[i] && !strcmp(overrides_name[i], name)) {
            overrides_text[i] = text;
            if (!text) overrides_name[i] = NULL;
            return;
        }
    for (int i = 0; i < 8 && text; i++)
        if (!overrides_name[i]) {
            overrides_name[i] = name;
            overrides_text[i] = text;
            return;
        }
}

static const char *override_of(const char *name)
{
    for (int i = 0; i < 8; i++)
        if (overrides_name[i] && !strcmp(overrides_name[i], name)) return overrides_text[i];
    return NULL;
}


/* ---- cache folder ------------------------------------------------------- */

static int private_dir(const char *path)
{
    struct stat s;
    if (stat(path, &s) != 0) {
        if (mkdir(path, 0700) != 0 && errno != EEXIST) return 0;
        if (stat(path, &s) != 0) return 0;
    }
    return S_ISDIR(s.st_mode) && s.st_uid == geteuid() && (s.st_mode & 022) == 0;
}

/* Fills dir with the cache folder; 0 if caching is off, unsafe, or the
 * path does not fit (a truncated path must never be used). */
int clsa__cache_dir(char *dir, size_t cap)
{
    const char *off = getenv("CLSA_CACHE");
    if (off && !strcmp(off, "0")) return 0;
    const char *explicit_dir = getenv("CLSA_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int len;
    if (explicit_dir && *explicit_dir) {
        len = snprintf(dir, cap, "%s", explicit_dir);
    } else if (xdg && *xdg) {
        len = snprintf(dir, cap, "%s/clsa", xdg);
    } else {
        if (!home || !*home) return 0;
        len = snprintf(dir, cap, "%s/.cache", home);
        if (len < 0 || (size_t)len >= cap) return 0;
        mkdir(dir, 0700); /* may exist already; the clsa folder's safety is checked below */
        len = snprintf(dir, cap, "%s/.cache/clsa", home);
    }
    if (len < 0 || (size_t)len >= cap) return 0;
    return private_dir(dir);
}

/* ---- the entries' tag -------------------------------------------------------- */

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND                                                                   \
    do {                                                                           \
        v0 += v1, v1 = ROTL(v1, 13), v1 ^= v0, v0 = ROTL(v0, 32);                  \
        v2 += v3, v3 = ROTL(v3, 16), v3 ^= v2;                                     \
        v0 += v3, v3 = ROTL(v3, 21), v3 ^= v0;                                     \
        v2 += v1, v1 = ROTL(v1, 17), v1 ^= v2, v2 = ROTL(v2, 32);                  \
    } while (0)

static uint64_t le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* Byte i of a (na bytes) followed by b. */
static unsigned char byte_at(const unsigned char *a, size_t na, const unsigned char *b, size_t i)
{
    return i < na ? a[i] : b[i - na];
}

/* SipHash-2-4 of a (na bytes) then b (nb bytes) under the 16-byte k. */
static uint64_t siphash(const unsigned char k[16], const void *a, size_t na, const void *b,
                        size_t nb)
{
    uint64_t k0 = le64(k), k1 = le64(k + 8);
    uint64_t v0 = k0 ^ 0x736f6d6570736575ull, v1 = k1 ^ 0x646f72616e646f6dull;
    uint64_t v2 = k0 ^ 0x6c7967656e657261ull, v3 = k1 ^ 0x7465646279746573ull;
    size_t n = na + nb, full = n / 8 * 8;
    unsigned char w[8];
    for (size_t i = 0; i <= full; i += 8) {
        memset(w, 0, 8);
        size_t len = i < full ? 8 : n - full;
        for (size_t j = 0; j < len; j++) w[j] = byte_at(a, na, b, i + j);
        if (i == full) w[7] = (unsigned char)n;
        uint64_t m = le64(w);
        v3 ^= m;
        SIPROUND;
        SIPROUND;
        v0 ^= m;
    }
    v2 ^= 0xff;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

/* The folder's secret (made on first use): 0, or -1 when there is none
 * that is safe (then nothing is cached). */
static int cache_secret(const char *dir, unsigned char k[16])
{
    char path[1100];
    snprintf(path, sizeof path, "%s/key", dir);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT && getrandom(k, 16, 0) == 16) {
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0) {
            int ok = write(fd, k, 16) == 16;
            if (close(fd) == 0 && ok) return 0;
            unlink(path);
            return -1;
        }
        fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC); /* another won */
    }
    if (fd < 0) return -1;
    struct stat s;
    int ok = fstat(fd, &s) == 0 && S_ISREG(s.st_mode) && s.st_uid == geteuid() &&
             (s.st_mode & 077) == 0 && s.st_size == 16 && read(fd, k, 16) == 16;
    close(fd);
    return ok ? 0 : -1;
}

/* An entry refused: removed, counted (clsa_programs_rejected), logged. */
static void reject_entry(clsa_context *ctx, const char *path, const char *why)
{
    unlink(path);
    ctx->programs_rejected++;
    clsa__log(ctx, "kernel cache entry %s rejected (%s); building from source", path, why);
}

static void entry_path(char *path, size_t cap, const char *dir, const char *key)
{
    snprintf(path, cap, "%s/%016llx.bin", dir,
             (unsigned long long)clsa__fnv1a(key, strlen(key), CLSA_FNV_SEED));
}

/* Returns a malloc'ed binary whose stored key equals key and whose tag
 * is ours, else NULL (*bad: there was an entry, refused). */
static unsigned char *cache_load(const char *path, const char *key, const unsigned char secret[16],
                                 size_t *size, int *bad_entry)
{
    *bad_entry = 0;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        *bad_entry = errno != ENOENT; /* a link (ELOOP), unreadable, ... */
        return NULL;
    }
    unsigned char *bin = NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return NULL;
    }
    struct stat s;
    char magic[8];
    uint32_t fmt, keylen;
    uint64_t binsize, tag;
    size_t klen = strlen(key);
    char *stored = NULL;
    *bad_entry = 1;
    if (fstat(fd, &s) != 0 || !S_ISREG(s.st_mode) || s.st_uid != geteuid() ||
        (s.st_mode & 022) != 0)
        goto bad;
    if (fread(magic, 1, 8, f) != 8 || memcmp(magic, CACHE_MAGIC, 8) ||
        fread(&fmt, 4, 1, f) != 1 || fmt != CACHE_FORMAT || fread(&keylen, 4, 1, f) != 1 ||
        keylen != klen)
        goto bad;
    stored = malloc(klen + 1);
    if (!stored || fread(stored, 1, klen, f) != klen || memcmp(stored, key, klen)) goto bad;
    if (fread(&binsize, 8, 1, f) != 1 || fread(&tag, 8, 1, f) != 1 || binsize == 0 ||
        binsize > (uint64_t)s.st_size)
        goto bad;
    bin = malloc(binsize);
    if (!bin || fread(bin, 1, binsize, f) != binsize ||
        siphash(secret, key, klen, bin, binsize) != tag || fgetc(f) != EOF)
        goto bad;
    free(stored);
    fclose(f);
    *size = binsize;
    *bad_entry = 0;
    return bin;
bad:
    free(stored);
    free(bin);
    fclose(f);
    return NULL;
}

/* Written under a temporary name and renamed: readers never see half a file. */
static void cache_save(const char *path, const char *key, const unsigned char secret[16],
                       const unsigned char *bin, size_t size)
{
    char tmp[1200];
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) return;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        close(fd);
        unlink(tmp);
        return;
    }
    uint32_t fmt = CACHE_FORMAT, keylen = (uint32_t)strlen(key);
    uint64_t binsize = size, tag = siphash(secret, key, keylen, bin, size);
    int ok = fwrite(CACHE_MAGIC, 1, 8, f) == 8 && fwrite(&fmt, 4, 1, f) == 1 &&
             fwrite(&keylen, 4, 1, f) == 1 && fwrite(key, 1, keylen, f) == keylen &&
             fwrite(&binsize, 8, 1, f) == 1 && fwrite(&tag, 8, 1, f) == 1 &&
             fwrite(bin, 1, size, f) == size;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) unlink(tmp);
}

/* ---- building ----------------------------------------------------------- */

/* The path under cl_kernels/ of a program's own file (after the last '+'). */
static const char *file_path(const char *file)
{
    const char *plus = strrchr(file, '+');
    const clsa_embedded_source *s = clsa__find_source(plus ? plus + 1 : file);
    return s ? s->path : "?";
}

static clsa_status build_log_error(clsa_context *ctx, cl_program prog, const char *file,
                                   cl_int err)
{
    size_t len = 0;
    clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = malloc(len + 1);
    if (log) {
        log[0] = 0;
        clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, len, log, NULL);
        log[len] = 0;
        /* One line per message is easier to read in a terminal; keep the log whole. */
        for (char *p = log; *p; p++)
            if (*p == '\r') *p = ' ';
    }
    clsa_status st = clsa__fail(ctx, CLSA_ERR_BUILD,
                                "clBuildProgram failed for cl_kernels/%s: %s (%d); build log:\n%s",
                                file_path(file), clsa__cl_error_name(err), (int)err,
                                log ? log : "(none)");
    free(log);
    return st;
}

static clsa_status from_binary(clsa_context *ctx, const unsigned char *bin, size_t size,
                               const char *options, cl_program *out)
{
    cl_int err, bstat;
    cl_program p = clCreateProgramWithBinary(ctx->cl, 1, &ctx->device, &size, &bin, &bstat, &err);
    if (err != CL_SUCCESS || bstat != CL_SUCCESS) {
        if (p) clReleaseProgram(p);
        return CLSA_ERR_BUILD;
    }
    if (clBuildProgram(p, 1, &ctx->device, options, NULL, NULL) != CL_SUCCESS) {
        clReleaseProgram(p);
        return CLSA_ERR_BUILD;
    }
    *out = p;
    return CLSA_OK;
}

/* A program's sources: common.cl, then (for "prelude+file" names) the
 * family's preludes in order, then the file itself.  A prelude holds what a
 * family of kernel files shares (types, helpers), so each file keeps only
 * its own kernels.  Returns the number of parts, 0 if one is missing. */
#define MAX_PARTS 4
typedef struct source_parts {
    const char *text[MAX_PARTS];
    size_t len[MAX_PARTS];
    const char *sha[MAX_PARTS];
    int count;
} source_parts;

static int part_of(const char *name, size_t len, source_parts *sp)
{
    char base[128];
    if (len >= sizeof base || sp->count >= MAX_PARTS) return 0;
    memcpy(base, name, len);
    base[len] = 0;
    const clsa_embedded_source *src = clsa__find_source(base);
    const char *over = override_of(base);
    if (!src && !over) return 0;
    sp->text[sp->count] = over ? over : (const char *)src->data;
    sp->len[sp->count] = over ? strlen(over) : src->size;
    sp->sha[sp->count] = over ? "override" : src->sha256;
    sp->count++;
    return 1;
}

static int get_parts(const char *file, source_parts *sp)
{
    const clsa_embedded_source *common = clsa__find_source("common");
    sp->text[0] = common ? (const char *)common->data : "";
    sp->len[0] = common ? common->size : 0;
    sp->sha[0] = common ? common->sha256 : "?";
    sp->count = 1;
    for (const char *s = file;; s++) {
        size_t len = strcspn(s, "+");
        if (!part_of(s, len, sp)) return 0;
        s += len;
        if (!*s) return sp->count;
    }
}

/* Whether any part of the program is overridden by a test (never cached). */
static int overridden(const char *file)
{
    char base[128];
    for (const char *s = file;; s++) {
        size_t len = strcspn(s, "+");
        if (len < sizeof base) {
            memcpy(base, s, len);
            base[len] = 0;
            if (override_of(base)) return 1;
        }
        s += len;
        if (!*s) return 0;
    }
}

static clsa_status from_source(clsa_context *ctx, const char *file, const char *options,
                               cl_program *out)
{
    source_parts sp;
    if (!get_parts(file, &sp))
        return clsa__fail(ctx, CLSA_ERR_BUILD, "no embedded kernel source cl_kernels/%s.cl", file);
    cl_int err;
    cl_program p =
        clCreateProgramWithSource(ctx->cl, (cl_uint)sp.count, sp.text, sp.len, &err);
    if (err != CL_SUCCESS) return clsa__cl(ctx, err, "clCreateProgramWithSource", file);
    err = clBuildProgram(p, 1, &ctx->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        clsa_status st = build_log_error(ctx, p, file, err);
        clReleaseProgram(p);
        return st;
    }
    *out = p;
    return CLSA_OK;
}

static void make_key(clsa_context *ctx, const char *file, const char *options, char *key,
                     size_t cap)
{
    source_parts sp;
    if (!get_parts(file, &sp)) sp.count = 0;
    char shas[MAX_PARTS * 80] = "";
    for (int i = 1; i < sp.count; i++) {
        size_t at = strlen(shas);
        snprintf(shas + at, sizeof shas - at, "%s%s", i > 1 ? "+" : "", sp.sha[i]);
    }
    char plat_version[128] = "";
    clGetPlatformInfo(ctx->platform, CL_PLATFORM_VERSION, sizeof plat_version, plat_version,
                      NULL);
    plat_version[sizeof plat_version - 1] = 0;
    snprintf(key, cap, "clsa %s|cache %u|%s %s|common %s|%s|%s|%s|%s|%s", CLSA_VERSION_STRING,
             CACHE_FORMAT, file, sp.count ? shas : "?", sp.count ? sp.sha[0] : "?", options,
             ctx->info.platform, plat_version, ctx->info.name, ctx->info.driver);
}

static void save_binary(clsa_context *ctx, cl_program p, const char *path, const char *key)
{
    char dir[1024];
    unsigned char secret[16];
    if (!clsa__cache_dir(dir, sizeof dir) || cache_secret(dir, secret)) return;
    size_t size = 0;
    if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS ||
        size == 0)
        return;
    unsigned char *bin = malloc(size);
    if (!bin) return;
    if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) == CL_SUCCESS) {
        cache_save(path, key, secret, bin, size);
        clsa__log(ctx, "program binary cached in %s", path);
    }
    free(bin);
}

static clsa_status get_program(clsa_context *ctx, const char *file, const char *options,
                               int *slot, int *fresh)
{
    for (int i = 0; i < ctx->nprograms; i++)
        if (!strcmp(ctx->programs[i].name, file) && !strcmp(ctx->programs[i].options, options)) {
            *slot = i;
            *fresh = 0;
            return CLSA_OK;
        }
    if (ctx->nprograms >= CLSA_MAX_PROGRAMS)
        return clsa__fail(ctx, CLSA_ERR_OPENCL, "too many programs in one context");
    char key[1024], dir[1024], path[1100];
    make_key(ctx, file, options, key, sizeof key);
    int cached = !overridden(file) && clsa__cache_dir(dir, sizeof dir);
    cl_program p = NULL;
    *fresh = 0;
    unsigned char secret[16];
    int from_cache = 0;
    if (cached && cache_secret(dir, secret)) cached = 0;
    if (cached) {
        entry_path(path, sizeof path, dir, key);
        size_t size = 0;
        int bad;
        unsigned char *bin = cache_load(path, key, secret, &size, &bad);
        if (bad) reject_entry(ctx, path, "not an entry of ours");
        if (bin && from_binary(ctx, bin, size, options, &p) == CLSA_OK) {
            ctx->stats.programs_loaded++;
            from_cache = 1;
            clsa__log(ctx, "program %s loaded from cache %s", file, path);
        } else if (bin) {
            reject_entry(ctx, path, "the driver refused the binary");
        }
        free(bin);
    }
    if (!p) {
        clsa_status st = from_source(ctx, file, options, &p);
        if (st) return st;
        ctx->stats.programs_built++;
        clsa__log(ctx, "program %s built from source (%s)", file, options);
        *fresh = cached;
    }
    clsa_program_slot *s = &ctx->programs[ctx->nprograms];
    s->name = file;
    snprintf(s->options, sizeof s->options, "%s", options);
    s->program = p;
    s->pending_save = NULL;
    s->cached_from = from_cache ? strdup(path) : NULL;
    if (*fresh) {
        /* Kept so clsa__kernel can save once a kernel exists. */
        size_t len = strlen(path) + strlen(key) + 2;
        s->pending_save = malloc(len);
        if (s->pending_save) snprintf(s->pending_save, len, "%s\n%s", path, key);
    }
    *slot = ctx->nprograms++;
    return CLSA_OK;
}

/* A program from the cache whose kernel the driver would not create (a
 * damaged binary that passed the checks): the entry goes, the program is
 * built from source in its slot (saved again with the first kernel). */
static clsa_status rebuild(clsa_context *ctx, clsa_program_slot *ps, const char *options)
{
    reject_entry(ctx, ps->cached_from, "the driver could not create a kernel from it");
    free(ps->cached_from);
    ps->cached_from = NULL;
    cl_program p;
    clsa_status st = from_source(ctx, ps->name, options, &p);
    if (st) return st;
    clReleaseProgram(ps->program);
    ps->program = p;
    ctx->stats.programs_built++;
    return CLSA_OK;
}

clsa_status clsa__kernel(clsa_context *ctx, const char *file, int index64, const char *extra,
                         const char *kernel, cl_kernel *out)
{
    clsa_status st = clsa__need_device(ctx);
    if (st) return st;
    char options[256];
    snprintf(options, sizeof options, "-cl-std=CL1.2 -DCLSA_IDX64=%d%s%s", index64 ? 1 : 0,
             extra ? " " : "", extra ? extra : "");
    for (int i = 0; i < ctx->nkernels; i++) {
        clsa_kernel_slot *k = &ctx->kernels[i];
        if (!strcmp(k->name, kernel) && !strcmp(ctx->programs[k->program].name, file) &&
            !strcmp(ctx->programs[k->program].options, options)) {
            *out = k->kernel;
            return CLSA_OK;
        }
    }
    if (ctx->nkernels >= CLSA_MAX_KERNELS)
        return clsa__fail(ctx, CLSA_ERR_OPENCL, "too many kernels in one context");
    int slot, fresh;
    st = get_program(ctx, file, options, &slot, &fresh);
    if (st) return st;
    cl_int err;
    clsa_program_slot *ps = &ctx->programs[slot];
    cl_kernel k = clCreateKernel(ps->program, kernel, &err);
    if (err != CL_SUCCESS && ps->cached_from && (st = rebuild(ctx, ps, options)) == CLSA_OK)
        k = clCreateKernel(ps->program, kernel, &err);
    if (st) return st;
    if (err != CL_SUCCESS) return clsa__cl(ctx, err, "clCreateKernel", kernel);
    if (ps->pending_save) {
        /* Some drivers compile lazily: the binary is complete only now. */
        char *nl = strchr(ps->pending_save, '\n');
        *nl = 0;
        save_binary(ctx, ps->program, ps->pending_save, nl + 1);
        free(ps->pending_save);
        ps->pending_save = NULL;
    }
    ctx->kernels[ctx->nkernels].program = slot;
    ctx->kernels[ctx->nkernels].name = kernel;
    ctx->kernels[ctx->nkernels].kernel = k;
    ctx->kernels[ctx->nkernels].logged = 0;
    ctx->nkernels++;
    *out = k;
    return CLSA_OK;
}

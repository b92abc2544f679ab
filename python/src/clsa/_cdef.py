"""C declarations of libclsa for cffi (ABI mode), kept in step with include/*.h."""

CDEF = r"""
typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef struct _cl_mem *cl_mem;
typedef struct _cl_command_queue *cl_command_queue;

typedef enum clsa_status {
    CLSA_OK = 0, CLSA_ERR_INVALID_ARG = -1, CLSA_ERR_HOST_MEMORY = -2,
    CLSA_ERR_DEVICE_MEMORY = -3, CLSA_ERR_TOO_LARGE = -4, CLSA_ERR_NO_DEVICE = -5,
    CLSA_ERR_OPENCL = -6, CLSA_ERR_BUILD = -7, CLSA_ERR_IO = -8, CLSA_ERR_FORMAT = -9,
    CLSA_ERR_UNSUPPORTED = -10, CLSA_ERR_CANCELLED = -11, CLSA_ERR_DEVICE_LOST = -12
} clsa_status;

typedef struct clsa_context clsa_context;
typedef struct clsa_options {
    const char *device;
    int backend;
    int profile;
    void (*log)(void *user, const char *message);
    void *log_user;
    int (*progress)(void *user, const char *phase, double fraction);
    void *progress_user;
    size_t mem_limit;
    int threads;
    int algorithm;
} clsa_options;

void clsa_options_init(clsa_options *opt);
clsa_status clsa_create_ex(const clsa_options *opt, clsa_context **out, char *err, size_t cap);
clsa_status clsa_create_with_queue(cl_command_queue queue, const clsa_options *opt,
                                   clsa_context **out);
void clsa_destroy(clsa_context *ctx);
void clsa_trim(clsa_context *ctx);
const char *clsa_last_error(const clsa_context *ctx);
const char *clsa_status_string(clsa_status status);
const char *clsa_version(void);
clsa_status clsa_opencl_available(char *why, size_t cap);

typedef struct clsa_device_info {
    char platform[128]; char vendor[128]; char name[128]; char driver[64]; char version[128];
    int is_gpu; int host_unified_memory;
    uint64_t global_mem; uint64_t max_alloc; uint64_t local_mem;
    size_t max_work_group; unsigned compute_units; int is_default;
} clsa_device_info;
clsa_status clsa_list_devices(clsa_device_info *out, size_t cap, size_t *count);
clsa_status clsa_get_device_info(const clsa_context *ctx, clsa_device_info *info);

clsa_status clsa_sa32(clsa_context *ctx, const uint8_t *text, int32_t *sa, int64_t n);
clsa_status clsa_sa64(clsa_context *ctx, const uint8_t *text, int64_t *sa, int64_t n);
clsa_status clsa_sa32_mem(clsa_context *ctx, cl_mem text, cl_mem sa, int64_t n);
clsa_status clsa_sa64_mem(clsa_context *ctx, cl_mem text, cl_mem sa, int64_t n);
clsa_status clsa_check_sa32(const uint8_t *text, const int32_t *sa, int64_t n, int *valid,
                            char *why, size_t cap);
clsa_status clsa_check_sa64(const uint8_t *text, const int64_t *sa, int64_t n, int *valid,
                            char *why, size_t cap);

clsa_status clsa_radix_sort_u32(clsa_context *ctx, uint32_t *keys, uint32_t *values,
                                size_t n, unsigned begin_bit, unsigned end_bit);
clsa_status clsa_radix_sort_u64(clsa_context *ctx, uint64_t *keys, uint32_t *values,
                                size_t n, unsigned begin_bit, unsigned end_bit);
clsa_status clsa_radix_sort_u64_v64(clsa_context *ctx, uint64_t *keys, uint64_t *values,
                                    size_t n, unsigned begin_bit, unsigned end_bit);
clsa_status clsa_radix_sort_mem(clsa_context *ctx, cl_mem keys, cl_mem values, size_t n,
                                int key_bits, int value_bits, unsigned begin_bit,
                                unsigned end_bit);
clsa_status clsa_segmented_sort_u32(clsa_context *ctx, uint32_t *keys, uint32_t *values,
                                    size_t n, const uint32_t *offsets,
                                    const uint32_t *lengths, size_t nsegments);
clsa_status clsa_segmented_sort_u64(clsa_context *ctx, uint64_t *keys, uint64_t *values,
                                    size_t n, const uint64_t *offsets,
                                    const uint64_t *lengths, size_t nsegments);
clsa_status clsa_batched_sort_u32(clsa_context *ctx, uint32_t *keys, uint32_t *values,
                                  const uint64_t *starts, size_t narrays);
clsa_status clsa_batched_sort_f32(clsa_context *ctx, float *keys, uint32_t *values,
                                  const uint64_t *starts, size_t narrays);

clsa_status clsa_isa32(clsa_context *ctx, const uint8_t *text, int32_t *isa, int64_t n);
clsa_status clsa_isa64(clsa_context *ctx, const uint8_t *text, int64_t *isa, int64_t n);
clsa_status clsa_isa_from_sa32(clsa_context *ctx, const int32_t *sa, int32_t *isa, int64_t n);
clsa_status clsa_isa_from_sa64(clsa_context *ctx, const int64_t *sa, int64_t *isa, int64_t n);
clsa_status clsa_isa32_mem(clsa_context *ctx, cl_mem sa, cl_mem isa, int64_t n);
clsa_status clsa_isa64_mem(clsa_context *ctx, cl_mem sa, cl_mem isa, int64_t n);
clsa_status clsa_bwt(clsa_context *ctx, const uint8_t *text, uint8_t *bwt, int64_t n,
                     int64_t *primary);
clsa_status clsa_bwt_mem(clsa_context *ctx, cl_mem text, cl_mem bwt, int64_t n,
                         int64_t *primary);
clsa_status clsa_unbwt(clsa_context *ctx, const uint8_t *bwt, uint8_t *text, int64_t n,
                       int64_t primary);
clsa_status clsa_unbwt_mem(clsa_context *ctx, cl_mem bwt, cl_mem text, int64_t n,
                           int64_t primary);
clsa_status clsa_lcp32(clsa_context *ctx, const uint8_t *text, int32_t *lcp, int64_t n);
clsa_status clsa_lcp64(clsa_context *ctx, const uint8_t *text, int64_t *lcp, int64_t n);
clsa_status clsa_lcp_from_sa32(clsa_context *ctx, const uint8_t *text, const int32_t *sa,
                               int32_t *lcp, int64_t n);
clsa_status clsa_lcp_from_sa64(clsa_context *ctx, const uint8_t *text, const int64_t *sa,
                               int64_t *lcp, int64_t n);
clsa_status clsa_lcp32_mem(clsa_context *ctx, cl_mem text, cl_mem sa, cl_mem lcp, int64_t n);
clsa_status clsa_lcp64_mem(clsa_context *ctx, cl_mem text, cl_mem sa, cl_mem lcp, int64_t n);

typedef struct clsa_fm clsa_fm;
clsa_status clsa_fm_create(clsa_context *ctx, const uint8_t *text, int64_t n,
                           int64_t sample_rate, clsa_fm **out);
void clsa_fm_free(clsa_fm *fm);
clsa_status clsa_fm_info(const clsa_fm *fm, int64_t *n, int64_t *sample_rate);
clsa_status clsa_fm_save(clsa_fm *fm, const char *path);
clsa_status clsa_fm_load(clsa_context *ctx, const char *path, clsa_fm **out);
clsa_status clsa_fm_count(clsa_fm *fm, const uint8_t *patterns, const uint64_t *offsets,
                          size_t npatterns, uint64_t *counts);
clsa_status clsa_fm_locate(clsa_fm *fm, const uint8_t *patterns, const uint64_t *offsets,
                           size_t npatterns, uint64_t max_total, uint64_t *starts,
                           int64_t **positions);
void clsa_fm_positions_free(int64_t *positions);
clsa_status clsa_lcs(clsa_context *ctx, const uint8_t *a, int64_t na, const uint8_t *b,
                     int64_t nb, int64_t *length, int64_t *pos_a, int64_t *pos_b);
"""

# Integer alphabets (issue 11): looked up when used, so that this package
# also works with a libclsa that does not have them yet.
CDEF_INT_ALPHABETS = r"""
clsa_status clsa_sa32_u16(clsa_context *ctx, const uint16_t *text, int32_t *sa, int64_t n);
clsa_status clsa_sa64_u16(clsa_context *ctx, const uint16_t *text, int64_t *sa, int64_t n);
clsa_status clsa_sa32_u32(clsa_context *ctx, const uint32_t *text, int32_t *sa, int64_t n);
clsa_status clsa_sa64_u32(clsa_context *ctx, const uint32_t *text, int64_t *sa, int64_t n);
clsa_status clsa_sa32_u64(clsa_context *ctx, const uint64_t *text, int32_t *sa, int64_t n);
clsa_status clsa_sa64_u64(clsa_context *ctx, const uint64_t *text, int64_t *sa, int64_t n);
clsa_status clsa_bwt_u16(clsa_context *ctx, const uint16_t *text, uint16_t *bwt,
                         int64_t n, int64_t *primary);
clsa_status clsa_bwt_u32(clsa_context *ctx, const uint32_t *text, uint32_t *bwt,
                         int64_t n, int64_t *primary);
clsa_status clsa_bwt_u64(clsa_context *ctx, const uint64_t *text, uint64_t *bwt,
                         int64_t n, int64_t *primary);
clsa_status clsa_unbwt_u16(clsa_context *ctx, const uint16_t *bwt, uint16_t *text,
                           int64_t n, int64_t primary);
clsa_status clsa_unbwt_u32(clsa_context *ctx, const uint32_t *bwt, uint32_t *text,
                           int64_t n, int64_t primary);
clsa_status clsa_unbwt_u64(clsa_context *ctx, const uint64_t *bwt, uint64_t *text,
                           int64_t n, int64_t primary);
"""

# Generalized suffix arrays (issue 11): looked up when used, like the
# integer alphabets.
CDEF_GSA = r"""
clsa_status clsa_gsa32(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                       int64_t k, int32_t *sa, int32_t *doc);
clsa_status clsa_gsa64(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                       int64_t k, int64_t *sa, int64_t *doc);
clsa_status clsa_gsa32_u16(clsa_context *ctx, const uint16_t *text, const int64_t *lengths,
                           int64_t k, int32_t *sa, int32_t *doc);
clsa_status clsa_gsa64_u16(clsa_context *ctx, const uint16_t *text, const int64_t *lengths,
                           int64_t k, int64_t *sa, int64_t *doc);
clsa_status clsa_gsa32_u32(clsa_context *ctx, const uint32_t *text, const int64_t *lengths,
                           int64_t k, int32_t *sa, int32_t *doc);
clsa_status clsa_gsa64_u32(clsa_context *ctx, const uint32_t *text, const int64_t *lengths,
                           int64_t k, int64_t *sa, int64_t *doc);
clsa_status clsa_gsa_lcp32(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                           int64_t k, const int32_t *sa, int32_t *lcp);
clsa_status clsa_gsa_lcp64(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                           int64_t k, const int64_t *sa, int64_t *lcp);
clsa_status clsa_gsa_lcp32_u16(clsa_context *ctx, const uint16_t *text, const int64_t *lengths,
                               int64_t k, const int32_t *sa, int32_t *lcp);
clsa_status clsa_gsa_lcp64_u16(clsa_context *ctx, const uint16_t *text, const int64_t *lengths,
                               int64_t k, const int64_t *sa, int64_t *lcp);
clsa_status clsa_gsa_lcp32_u32(clsa_context *ctx, const uint32_t *text, const int64_t *lengths,
                               int64_t k, const int32_t *sa, int32_t *lcp);
clsa_status clsa_gsa_lcp64_u32(clsa_context *ctx, const uint32_t *text, const int64_t *lengths,
                               int64_t k, const int64_t *sa, int64_t *lcp);
"""

# Sets of strings, part 2 (issue 11): 64-bit symbols, the longest common
# substring of k strings and the FM-index over a set; looked up when used.
CDEF_SETS = r"""
clsa_status clsa_gsa32_u64(clsa_context *ctx, const uint64_t *text, const int64_t *lengths,
                           int64_t k, int32_t *sa, int32_t *doc);
clsa_status clsa_gsa64_u64(clsa_context *ctx, const uint64_t *text, const int64_t *lengths,
                           int64_t k, int64_t *sa, int64_t *doc);
clsa_status clsa_gsa_lcp32_u64(clsa_context *ctx, const uint64_t *text, const int64_t *lengths,
                               int64_t k, const int32_t *sa, int32_t *lcp);
clsa_status clsa_gsa_lcp64_u64(clsa_context *ctx, const uint64_t *text, const int64_t *lengths,
                               int64_t k, const int64_t *sa, int64_t *lcp);
clsa_status clsa_lcs_k(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                       int64_t k, int64_t m, int64_t *length, int64_t *offsets);
clsa_status clsa_lcs_k_u16(clsa_context *ctx, const uint16_t *text, const int64_t *lengths,
                           int64_t k, int64_t m, int64_t *length, int64_t *offsets);
clsa_status clsa_lcs_k_u32(clsa_context *ctx, const uint32_t *text, const int64_t *lengths,
                           int64_t k, int64_t m, int64_t *length, int64_t *offsets);
clsa_status clsa_lcs_k_u64(clsa_context *ctx, const uint64_t *text, const int64_t *lengths,
                           int64_t k, int64_t m, int64_t *length, int64_t *offsets);
typedef struct clsa_fm_set clsa_fm_set;
clsa_status clsa_fm_set_create(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                               int64_t k, int64_t sample_rate, clsa_fm_set **out);
void clsa_fm_set_free(clsa_fm_set *set);
clsa_status clsa_fm_set_info(const clsa_fm_set *set, int64_t *k, int64_t *total,
                             int64_t *sample_rate);
clsa_status clsa_fm_set_count(clsa_fm_set *set, const uint8_t *patterns,
                              const uint64_t *offsets, size_t npatterns, uint64_t *counts);
clsa_status clsa_fm_set_locate(clsa_fm_set *set, const uint8_t *patterns,
                               const uint64_t *offsets, size_t npatterns, uint64_t max_total,
                               uint64_t *starts, int64_t **strings, int64_t **positions);
clsa_status clsa_fm_set_save(clsa_fm_set *set, const char *path);
clsa_status clsa_fm_set_load(clsa_context *ctx, const char *path, clsa_fm_set **out);
"""

# Several devices of one process (issue 12): the distributed engine with one
# thread per context; looked up when used.
CDEF_MULTI = r"""
clsa_status clsa_sa32_multi(clsa_context *const *ctxs, int k, const uint8_t *text,
                            int32_t *sa, int64_t n);
clsa_status clsa_sa64_multi(clsa_context *const *ctxs, int k, const uint8_t *text,
                            int64_t *sa, int64_t n);
"""

# include/clsa_bwa.h
CDEF_BWA = r"""
typedef long long (*clsa_bwa_read_fn)(void *user, void *buf, size_t cap);
clsa_status clsa_bwa_index(clsa_context *ctx, clsa_bwa_read_fn read, void *user,
                           const char *name, const char *prefix);
typedef struct clsa_bwa_ref clsa_bwa_ref;
clsa_status clsa_bwa_ref_read(clsa_bwa_read_fn read, void *user, const char *name,
                              clsa_bwa_ref **out, char *err, size_t cap);
clsa_status clsa_bwa_ref_index(clsa_context *ctx, clsa_bwa_ref *ref, const char *prefix);
void clsa_bwa_ref_free(clsa_bwa_ref *ref);
"""

# Batched suffix arrays and BWTs (issue 48): looked up when used.
CDEF_BATCH = r"""
clsa_status clsa_sa32_batch(clsa_context *ctx, const uint8_t *text,
                            const int64_t *lengths, int64_t k, int32_t *sa);
clsa_status clsa_sa64_batch(clsa_context *ctx, const uint8_t *text,
                            const int64_t *lengths, int64_t k, int64_t *sa);
clsa_status clsa_sa32_batch_u16(clsa_context *ctx, const uint16_t *text,
                                const int64_t *lengths, int64_t k, int32_t *sa);
clsa_status clsa_sa64_batch_u16(clsa_context *ctx, const uint16_t *text,
                                const int64_t *lengths, int64_t k, int64_t *sa);
clsa_status clsa_sa32_batch_u32(clsa_context *ctx, const uint32_t *text,
                                const int64_t *lengths, int64_t k, int32_t *sa);
clsa_status clsa_sa64_batch_u32(clsa_context *ctx, const uint32_t *text,
                                const int64_t *lengths, int64_t k, int64_t *sa);
clsa_status clsa_sa32_batch_u64(clsa_context *ctx, const uint64_t *text,
                                const int64_t *lengths, int64_t k, int32_t *sa);
clsa_status clsa_sa64_batch_u64(clsa_context *ctx, const uint64_t *text,
                                const int64_t *lengths, int64_t k, int64_t *sa);
clsa_status clsa_bwt_batch(clsa_context *ctx, const uint8_t *text,
                           const int64_t *lengths, int64_t k, uint8_t *bwt,
                           int64_t *primary);
clsa_status clsa_bwt_batch_u16(clsa_context *ctx, const uint16_t *text,
                               const int64_t *lengths, int64_t k, uint16_t *bwt,
                               int64_t *primary);
clsa_status clsa_bwt_batch_u32(clsa_context *ctx, const uint32_t *text,
                               const int64_t *lengths, int64_t k, uint32_t *bwt,
                               int64_t *primary);
clsa_status clsa_bwt_batch_u64(clsa_context *ctx, const uint64_t *text,
                               const int64_t *lengths, int64_t k, uint64_t *bwt,
                               int64_t *primary);
"""

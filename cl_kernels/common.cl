/* Prepended to every clsa program.  OpenCL C 1.2 core only.
 * CLSA_IDX64 (build option): 1 gives 64-bit suffix indexes. */
#if CLSA_IDX64
typedef ulong idx_t;
typedef long sidx_t;
#else
typedef uint idx_t;
typedef int sidx_t;
#endif

/* Prepended to every clsa program.  OpenCL C 1.2 core only.
 * CLSA_IDX64 (build option): 1 gives 64-bit suffix indexes. */
#if CLSA_IDX64
typedef ulong idx_t;
typedef long sidx_t;
#else
typedef uint idx_t;
typedef int sidx_t;
#endif

/* A word other work-groups write with atomics (the look-back tables of
 * radix_onesweep.cl and scan.cl), read at device scope.  NVIDIA (the
 * programs whose PTX the warp ranking uses, or CLSA_PTX_LOAD): a relaxed
 * load, not a read-modify-write at L2. */
static uint status_load(volatile __global uint *p)
{
#if (defined(RADIX_WARP) && RADIX_WARP == 1) || CLSA_PTX_LOAD
    uint v;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
#else
    return atomic_or(p, 0u);
#endif
}

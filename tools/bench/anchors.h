/* The CUDA anchors of clsa-bench: libcubwt 1.0.0 (suffix array), libcubwt
 * 1.6.3 (BWT) and CUB's DeviceRadixSort::SortPairs, behind a small C
 * interface (anchors.cu; built only with -DCLSA_BENCH_CUDA=ON, see
 * anchors.cmake).  Benchmark only: never part of the library.
 *
 * Every function returns CLSA_OK or a clsa_status whose text is in
 * anchor_error(a) (CLSA_ERR_DEVICE_MEMORY: the device cannot hold it;
 * CLSA_ERR_INVALID_ARG: the library refuses the size; CLSA_ERR_OPENCL: a
 * CUDA call failed; CLSA_ERR_UNSUPPORTED: built without the option).
 * All calls are synchronous: when one returns, the device is idle. */
#ifndef CLSA_BENCH_ANCHORS_H
#define CLSA_BENCH_ANCHORS_H

#include "clsa.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum anchor_kind { ANCHOR_SA = 0, ANCHOR_BWT = 1, ANCHOR_RADIX = 2 } anchor_kind;

typedef struct anchor anchor;

/* 1 when clsa-bench was built with the anchors. */
int anchors_built(void);

/* Allocates, on CUDA device 0, what the anchor needs for inputs of up to n
 * elements (text bytes, or key/value pairs): libcubwt's reusable device
 * storage, or the sort's double buffers and temporary storage.  Done once per
 * input, outside the timings, as the libraries' own APIs intend.  *a is set
 * even on failure (for anchor_error); anchor_free it either way. */
clsa_status anchor_create(anchor **a, anchor_kind kind, int64_t n);
void anchor_free(anchor *a);
const char *anchor_error(const anchor *a);
/* "libcubwt 1.0.0 (CUDA 13.0, NVIDIA H200)" and the like. */
const char *anchor_describe(const anchor *a);
/* Device bytes taken by anchor_create (cudaMemGetInfo before and after), and
 * those of the device-resident buffers (anchor_dev_load). */
uint64_t anchor_bytes(const anchor *a);
uint64_t anchor_dev_bytes(const anchor *a);
/* Seconds anchor_create took (CUDA context excluded). */
double anchor_create_seconds(const anchor *a);

/* Transfers included: one library call from pageable host memory.  SA:
 * libcubwt_sa (copies the text in and the SA out itself).  BWT: libcubwt_bwt
 * (same; *primary: its primary index).  Radix: cudaMemcpy of keys and values
 * in, SortPairs, cudaMemcpy of both out; sorts keys/values in place.
 * n may be smaller than the size given to anchor_create (warm-up). */
clsa_status anchor_sa_host(anchor *a, const uint8_t *text, uint32_t *sa, int64_t n);
clsa_status anchor_bwt_host(anchor *a, const uint8_t *text, uint8_t *bwt, int64_t n,
                            int64_t *primary);
clsa_status anchor_radix_host(anchor *a, uint32_t *keys, uint32_t *values, int64_t n);

/* On device.  anchor_dev_load (untimed) puts the input (text, or keys and
 * values) into device-resident buffers: managed memory for libcubwt (its API
 * reads a few text bytes through the host pointer, so plain device memory
 * cannot be passed), cudaMalloc for CUB.  anchor_dev_prepare (untimed, before
 * every run) moves the managed pages to the device, or restores the unsorted
 * keys and values from a pristine device copy.  anchor_dev_run is the timed
 * call; anchor_dev_result copies its result to the host for checking
 * (out: SA, BWT or keys; out2: values; *primary: BWT primary index). */
clsa_status anchor_dev_load(anchor *a, const void *in, const void *in2);
clsa_status anchor_dev_prepare(anchor *a);
clsa_status anchor_dev_run(anchor *a);
clsa_status anchor_dev_result(anchor *a, void *out, void *out2, int64_t *primary);

/* Best-of-reps seconds of a device-to-device cudaMemcpy of `bytes`: the
 * device's own copy bandwidth, as clsa's primitive rows report for OpenCL. */
double anchor_copy_seconds(anchor *a, uint64_t bytes, int reps);

#ifdef __cplusplus
}
#endif

#endif

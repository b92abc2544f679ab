/* Opening only the OpenCL platform a device selector names (icd_direct.c).
 *
 * Why: through the ICD loader, the first clGetPlatformIDs initialises every
 * installed driver (tenths of a second each on some machines) although a
 * selector such as "nvidia" or "pocl" will use only one of them.  A vendor
 * ICD library exports clIcdGetPlatformIDsKHR, and every object it makes
 * starts with a pointer to its dispatch table (cl_khr_icd), so the library
 * can open that vendor's library itself and call through the objects'
 * tables, which is all the loader does after start-up.
 *
 * Which library (first that applies; anything else: the loader as before):
 *   the cache file       "icd-direct.txt" in the program cache folder,
 *                        written after a full enumeration chose a device for
 *                        the selector: selector -> library, platform and
 *                        device names, tied to a fingerprint of the
 *                        installed .icd files and the loader's environment
 *   the .icd file names  exactly one library among the loader's vendor
 *                        folder's .icd files (file or library name) and the
 *                        OCL_ICD_FILENAMES entries contains the selector
 * The device picked among that library's platforms must then still be what
 * the cache recorded, or (from a file name) belong to a platform whose name
 * or vendor contains the selector; else the caller enumerates everything.
 * Never used: CLSA_ICD_DIRECT=0, CLSA_OPENCL_LIBRARY set, a process whose
 * own OpenCL is not the system loader (Oclgrind's preloaded runtime). */
#ifndef CLSA_ICD_DIRECT_H
#define CLSA_ICD_DIRECT_H

#include "clsa.h"

#include <CL/cl_icd.h>

#define CLSA_ICD_MAX_PLATFORMS 16

typedef struct clsa_icd_route {
    cl_platform_id platforms[CLSA_ICD_MAX_PLATFORMS];
    cl_uint count;
    int cached;         /* 1: from the cache file, which names the device */
    char platform[128]; /* the cached device's platform name */
    char device[128];   /* the cached device's name */
} clsa_icd_route;

/* The platforms of the one vendor library that `sel` names, opened without
 * the loader; 0 when that cannot be decided or fails (the caller then
 * enumerates through the loader).  Never for "gpu", "cpu" or no selector. */
int clsa__icd_direct_find(const char *sel, clsa_icd_route *route);

/* Whether the device chosen among route's platforms is the one the
 * selector means (see above); 0 sends the caller to the full enumeration. */
int clsa__icd_direct_confirms(const clsa_icd_route *route, const char *sel,
                              const clsa_device_info *chosen);

/* After a full enumeration chose platform p's device `chosen` for `sel`:
 * records the vendor library for the next process (no-op when `sel` names
 * no platform, the cache is off, or the entry is already there). */
void clsa__icd_direct_remember(const char *sel, cl_platform_id p, const clsa_device_info *chosen);

/* The dispatch table to call obj through when it (or an object of the same
 * vendor) came from a directly opened library, else NULL: the loader. */
const struct _cl_icd_dispatch *clsa__icd_direct_table(const void *obj);

/* Notes obj's dispatch table as one of a directly opened library. */
void clsa__icd_direct_learn(const void *obj);

/* Reads the loader's environment variables (fingerprint, vendor folder,
 * OCL_ICD_FILENAMES) once, for the whole process: before anything loads
 * OpenCL, since a loader may rewrite them in place (CUDA's cuts
 * OCL_ICD_FILENAMES at its first ':').  Called again, it does nothing. */
void clsa__icd_direct_snapshot(void);

/* Whether `sel` is one the direct route may serve: a platform substring,
 * not "gpu"/"cpu"/empty, and CLSA_ICD_DIRECT is not "0". */
int clsa__icd_direct_wanted(const char *sel);

#endif

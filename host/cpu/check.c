/* Suffix array checker in O(n) time and O(sigma) extra space
 * (papers/lightweight-prefix-doubling-and-sa-checker.txt, section 5.3).
 *
 * Conditions: (a) entries in range, (b) first characters non-decreasing,
 * (c) inside each first-character bucket, suffixes are in the order of their
 * successors (suffix + 1), the suffix n-1 (empty successor) first.  (c) is
 * checked by one scan over SA that walks a pointer through each bucket;
 * requiring every bucket to be walked exactly to its end also proves SA is
 * a permutation: n-1 occurs once, and each value v < n-1 occurs as often
 * as v+1. */
#include "runtime.h"

#include <stdio.h>
#include <string.h>

#define SA_T int32_t
#define CHECK_NAME check32
#include "check_impl.h"
#undef SA_T
#undef CHECK_NAME
#define SA_T int64_t
#define CHECK_NAME check64
#include "check_impl.h"

static clsa_status check_args(const uint8_t *text, const void *sa, int64_t n, int *valid)
{
    if (!valid || n < 0 || (n > 0 && (!text || !sa))) return CLSA_ERR_INVALID_ARG;
    return CLSA_OK;
}

clsa_status clsa_check_sa32(const uint8_t *text, const int32_t *sa, int64_t n, int *valid,
                            char *why, size_t cap)
{
    clsa_status st = check_args(text, sa, n, valid);
    if (st) return st;
    if (n > INT32_MAX) return CLSA_ERR_TOO_LARGE;
    *valid = check32(text, sa, n, why, cap);
    return CLSA_OK;
}

clsa_status clsa_check_sa64(const uint8_t *text, const int64_t *sa, int64_t n, int *valid,
                            char *why, size_t cap)
{
    clsa_status st = check_args(text, sa, n, valid);
    if (st) return st;
    *valid = check64(text, sa, n, why, cap);
    return CLSA_OK;
}

/* Longest common substring scans over the suffix order of a + b
 * (host/index/lcs.c).  Rows are split into runs of `run` rows, one
 * work-item each; the host chains the runs (a few values per run).
 *
 * Side values: for a row r with suffix position pos, it belongs to a when
 * pos < na, with len = na - pos (suffixes of a are clamped at the end of a),
 * else to b with len = n - pos.  The forward recurrence per side s is
 * x_s = max(min(x_s, lcp[r]), r in s ? len : 0): the best clamped lcp of
 * the current row with any earlier row of side s.  One row's step is the
 * function x -> max(min(x, a), b); a run composes them into one (a, b). */

#define LCS_NONE ((idx_t)~(idx_t)0)

static idx_t lcs_min(idx_t x, idx_t y) { return x < y ? x : y; }
static idx_t lcs_max(idx_t x, idx_t y) { return x > y ? x : y; }

/* out[3j..3j+2] = (a, b for side a, b for side b) of run j. */
__kernel void lcs_compose(const __global idx_t *sa, const __global idx_t *lcp, idx_t n, idx_t na,
                          idx_t run, idx_t nruns, __global idx_t *out)
{
    idx_t j = get_global_id(0);
    if (j >= nruns) return;
    idx_t lo = j * run, hi = lcs_min(lo + run, n);
    idx_t a = LCS_NONE, ba = 0, bb = 0;
    for (idx_t r = lo; r < hi; r++) {
        idx_t l = r == 0 ? 0 : lcp[r];
        idx_t pos = sa[r];
        a = lcs_min(a, l);
        ba = lcs_min(ba, l);
        bb = lcs_min(bb, l);
        if (pos < na) ba = lcs_max(ba, na - pos);
        else bb = lcs_max(bb, n - pos);
    }
    out[3 * j] = a;
    out[3 * j + 1] = ba;
    out[3 * j + 2] = bb;
}

/* best[j] = the longest clamped match of run j's rows with earlier rows of
 * the other side, given the incoming side values xin[2j], xin[2j+1]. */
__kernel void lcs_best(const __global idx_t *sa, const __global idx_t *lcp, idx_t n, idx_t na,
                       idx_t run, idx_t nruns, const __global idx_t *xin, __global idx_t *best)
{
    idx_t j = get_global_id(0);
    if (j >= nruns) return;
    idx_t lo = j * run, hi = lcs_min(lo + run, n);
    idx_t xa = xin[2 * j], xb = xin[2 * j + 1], m = 0;
    for (idx_t r = lo; r < hi; r++) {
        idx_t l = r == 0 ? 0 : lcp[r];
        idx_t pos = sa[r];
        xa = lcs_min(xa, l);
        xb = lcs_min(xb, l);
        if (pos < na) {
            m = lcs_max(m, lcs_min(na - pos, xb));
            xa = lcs_max(xa, na - pos);
        } else {
            m = lcs_max(m, xa);
            xb = lcs_max(xb, n - pos);
        }
    }
    best[j] = m;
}

/* Ties, for the maximum L: groups are maximal row ranges with lcp >= L
 * inside.  Per run, 7 values: first and last group pieces (cut by the run's
 * ends) as (min a position with len >= L, min b position), whether a group
 * starts inside the run, and the best complete group inside the run (min a
 * position of a group that also holds a b suffix, with that group's min b).
 * LCS_NONE marks "none". */
__kernel void lcs_groups(const __global idx_t *sa, const __global idx_t *lcp, idx_t n, idx_t na,
                         idx_t run, idx_t nruns, idx_t L, __global idx_t *out)
{
    idx_t j = get_global_id(0);
    if (j >= nruns) return;
    idx_t lo = j * run, hi = lcs_min(lo + run, n);
    idx_t fa = LCS_NONE, fb = LCS_NONE, ga = LCS_NONE, gb = LCS_NONE;
    idx_t ia = LCS_NONE, ib = LCS_NONE, cut = 0;
    for (idx_t r = lo; r < hi; r++) {
        if (r == 0 || lcp[r] < L) { /* a group starts at r */
            if (cut && ga != LCS_NONE && gb != LCS_NONE && ga < ia) {
                ia = ga;
                ib = gb;
            }
            if (!cut) {
                fa = ga;
                fb = gb;
            }
            cut = 1;
            ga = gb = LCS_NONE;
        }
        idx_t pos = sa[r];
        if (pos < na) {
            if (na - pos >= L) ga = lcs_min(ga, pos);
        } else {
            gb = lcs_min(gb, pos - na);
        }
    }
    if (!cut) {
        fa = ga;
        fb = gb;
        ga = gb = LCS_NONE;
    }
    __global idx_t *o = out + 7 * j;
    o[0] = fa;
    o[1] = fb;
    o[2] = cut;
    o[3] = ga;
    o[4] = gb;
    o[5] = ia;
    o[6] = ib;
}

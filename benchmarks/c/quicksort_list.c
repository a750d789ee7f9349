#include <stdlib.h>
#include "bench.h"

/* kernels_workloads.quicksort_list: n LCG ints appended to a growable array, sorted by an
 * iterative Hoare quicksort whose explicit stack is a growable array too. */
typedef struct { int64_t *p, len, cap; } vec;

static void push(vec *v, int64_t x) {
    if (v->len == v->cap) { v->cap = v->cap ? 2 * v->cap : 4; v->p = realloc(v->p, sizeof(int64_t) * v->cap); }
    v->p[v->len++] = x;
}

static int64_t quicksort_list(int64_t n, int64_t seed) {
    vec a = {0}, st = {0};
    int64_t x = seed;
    for (int64_t i = 0; i < n; i++) { x = (x * 1103515245 + 12345) % 2147483648; push(&a, x); }
    push(&st, 0);
    push(&st, n - 1);
    while (st.len > 0) {
        int64_t hi = st.p[--st.len], lo = st.p[--st.len];
        if (lo < hi) {
            int64_t pivot = a.p[(lo + hi) / 2], i = lo, j = hi;
            while (i <= j) {
                while (a.p[i] < pivot) i++;
                while (a.p[j] > pivot) j--;
                if (i <= j) { int64_t t = a.p[i]; a.p[i] = a.p[j]; a.p[j] = t; i++; j--; }
            }
            push(&st, lo); push(&st, j); push(&st, i); push(&st, hi);
        }
    }
    int64_t s = 0;
    for (int64_t i = 0; i < n; i++) s += a.p[i] * (i % 7);
    free(a.p);
    free(st.p);
    return s;
}

double bench_quicksort_list(int64_t n, int64_t seed, int reps, double *check) {
    int64_t res = 0;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        int64_t m = n;
        LAUNDER(m);
        res = quicksort_list(m, seed);
        LAUNDER(res);
    }
    double t1 = bench_now();
    *check = (double)res;
    return (t1 - t0) / reps;
}

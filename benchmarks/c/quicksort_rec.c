#include <string.h>
#include "bench.h"

/* kernels_shapes.quicksort_rec: recursive Lomuto quicksort of a copy. */
static int64_t partition(int64_t *a, int64_t lo, int64_t hi) {
    int64_t pivot = a[hi], i = lo;
    for (int64_t j = lo; j < hi; j++)
        if (a[j] < pivot) {
            int64_t t = a[i]; a[i] = a[j]; a[j] = t;
            i++;
        }
    int64_t t = a[i]; a[i] = a[hi]; a[hi] = t;
    return i;
}

static void quicksort(int64_t *a, int64_t lo, int64_t hi) {
    if (lo < hi) {
        int64_t p = partition(a, lo, hi);
        quicksort(a, lo, p - 1);
        quicksort(a, p + 1, hi);
    }
}

double bench_quicksort_rec(const int64_t *x, int64_t *a, int64_t n, int reps, double *check) {
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const int64_t *p = x;
        LAUNDER(p);
        memcpy(a, p, sizeof(int64_t) * n);
        quicksort(a, 0, n - 1);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    double s = 0.0;
    for (int64_t i = 0; i < n; i++) s += (double)a[i] * (double)(i % 7 + 1);
    *check = s;
    return (t1 - t0) / reps;
}

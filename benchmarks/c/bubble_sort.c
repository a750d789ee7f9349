#include <stdlib.h>
#include "bench.h"

/* kernels_workloads.bubble_sort: n LCG ints bubble-sorted, early exit on a pass without swaps. */
static int64_t bubble_sort(int64_t n, int64_t seed) {
    int64_t *a = malloc(sizeof(int64_t) * n);
    int64_t x = seed;
    for (int64_t i = 0; i < n; i++) { x = (x * 1103515245 + 12345) % 2147483648; a[i] = x % 100000; }
    for (int64_t end = n - 1; end > 0; end--) {
        int swapped = 0;
        for (int64_t i = 0; i < end; i++)
            if (a[i] > a[i + 1]) { int64_t t = a[i]; a[i] = a[i + 1]; a[i + 1] = t; swapped = 1; }
        if (!swapped) break;
    }
    int64_t s = 0;
    for (int64_t i = 0; i < n; i++) s += a[i] * (i % 7);
    free(a);
    return s;
}

double bench_bubble_sort(int64_t n, int64_t seed, int reps, double *check) {
    int64_t res = 0;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        int64_t m = n;
        LAUNDER(m);
        res = bubble_sort(m, seed);
        LAUNDER(res);
    }
    double t1 = bench_now();
    *check = (double)res;
    return (t1 - t0) / reps;
}

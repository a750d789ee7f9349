#include <string.h>
#include "bench.h"

/* kernels_classic.insertion_sort: a sorted copy of an int64 array. */
static void insertion_sort(const int64_t *a, int64_t *b, int64_t n) {
    memcpy(b, a, sizeof(int64_t) * n);
    for (int64_t i = 1; i < n; i++) {
        int64_t x = b[i];
        int64_t j = i - 1;
        while (j >= 0 && b[j] > x) {
            b[j + 1] = b[j];
            j--;
        }
        b[j + 1] = x;
    }
}

double bench_insertion_sort(const int64_t *a, int64_t *b, int64_t n, int reps, double *check) {
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const int64_t *p = a;
        LAUNDER(p);
        insertion_sort(p, b, n);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    double s = 0.0;
    for (int64_t i = 0; i < n; i++) s += (double)b[i] * (double)(i % 7);
    *check = s;
    return (t1 - t0) / reps;
}

#include "bench.h"

/* kernels_workloads.nqueens: solutions from `row` on, by bitmask recursion. */
static int64_t nqueens(int64_t n, int64_t row, int64_t cols, int64_t d1, int64_t d2) {
    if (row == n) return 1;
    int64_t count = 0;
    int64_t avail = ~(cols | d1 | d2) & (((int64_t)1 << n) - 1);
    while (avail) {
        int64_t bit = avail & -avail;
        avail -= bit;
        count += nqueens(n, row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1);
    }
    return count;
}

double bench_nqueens(int64_t n, int reps, double *check) {
    int64_t res = 0;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        int64_t m = n;
        LAUNDER(m);
        res = nqueens(m, 0, 0, 0, 0);
        LAUNDER(res);
    }
    double t1 = bench_now();
    *check = (double)res;
    return (t1 - t0) / reps;
}

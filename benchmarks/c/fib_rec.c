#include "bench.h"

/* kernels_shapes.fib_rec: naive recursion. */
static int64_t fib_rec(int64_t n) {
    if (n < 2)
        return n;
    return fib_rec(n - 1) + fib_rec(n - 2);
}

double bench_fib_rec(int64_t n, int reps, double *check) {
    int64_t res = 0;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        int64_t m = n;
        LAUNDER(m);
        res = fib_rec(m);
        LAUNDER(res);
    }
    double t1 = bench_now();
    *check = (double)res;
    return (t1 - t0) / reps;
}

#include "bench.h"

static int64_t fib(int64_t n) {
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

double bench_fib(int64_t n, int reps, int64_t *out) {
    int64_t r = 0;
    double t0 = bench_now();
    for (int k = 0; k < reps; k++) {
        int64_t m = n;
        LAUNDER(m);
        r = fib(m);
        LAUNDER(r);
    }
    double t1 = bench_now();
    *out = r;
    return (t1 - t0) / reps;
}

#include "bench.h"

/* A loop whose body takes one of three branches, picked with % and ^. */
static int64_t branchy(int64_t n) {
    int64_t total = 0;
    for (int64_t i = 0; i < n; i++) {
        if (i % 3 == 0)
            total += i ^ (i >> 1);
        else if ((i ^ total) % 5 == 1)
            total += i % 7;
        else
            total ^= i;
    }
    return total;
}

double bench_branchy(int64_t n, int reps, int64_t *out) {
    int64_t r = 0;
    double t0 = bench_now();
    for (int k = 0; k < reps; k++) {
        int64_t m = n;
        LAUNDER(m);
        r = branchy(m);
        LAUNDER(r);
    }
    double t1 = bench_now();
    *out = r;
    return (t1 - t0) / reps;
}

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"

/* kernels_workloads.csv_builder: n lines "i,x % 1000,x % 7 - 3" of an LCG x formatted into
 * a buffer that grows by doubling (snprintf per line, as each f-string makes a str), joined
 * by newlines; returns the length times 1000 plus a sum of every 7th byte modulo 1000. */
static int64_t csv_builder(int64_t n) {
    int64_t cap = 64, len = 0;
    char *buf = malloc(cap);
    int64_t x = 12345;
    for (int64_t i = 0; i < n; i++) {
        x = (x * 1103515245 + 12345) % 2147483648;
        if (len + 64 > cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
        if (i > 0) buf[len++] = '\n';
        len += snprintf(buf + len, 64, "%lld,%lld,%lld", (long long)i, (long long)(x % 1000),
                        (long long)(x % 7 - 3));
    }
    int64_t s = 0;
    for (int64_t k = 0; k < len; k += 7) s += (unsigned char)buf[k];
    free(buf);
    return len * 1000 + s % 1000;
}

double bench_csv_builder(int64_t n, int reps, double *check) {
    int64_t res = 0;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        int64_t m = n;
        LAUNDER(m);
        res = csv_builder(m);
        LAUNDER(res);
    }
    double t1 = bench_now();
    *check = (double)res;
    return (t1 - t0) / reps;
}

#include "bench.h"
#include "strtable.h"

/* kernels_workloads.word_count: a hash-table word count of a space-separated ASCII text
 * (strtable.h); returns the sum of squared counts plus the number of distinct words. */
static int64_t word_count(const char *s, int64_t n) {
    strtable tb;
    table_init(&tb);
    int64_t i = 0;
    for (;;) {
        while (i < n && s[i] == ' ') i++;
        if (i >= n) break;
        int64_t b = i;
        while (i < n && s[i] != ' ') i++;
        table_count(&tb, s + b, i - b);
    }
    return table_total(&tb);
}

double bench_word_count(const char *s, int64_t n, int reps, double *check) {
    int64_t res = 0;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const char *p = s;
        LAUNDER(p);
        res = word_count(p, n);
        LAUNDER(res);
    }
    double t1 = bench_now();
    *check = (double)res;
    return (t1 - t0) / reps;
}

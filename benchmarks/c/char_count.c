#include "bench.h"

/* kernels_workloads.char_count: counts of 'a'..'z' in an ASCII text, weighted by letter number. */
static int64_t char_count(const char *s, int64_t n) {
    int64_t counts[26] = {0};
    for (int64_t i = 0; i < n; i++) {
        int64_t k = (int64_t)(unsigned char)s[i] - 97;
        if (0 <= k && k < 26) counts[k]++;
    }
    int64_t total = 0;
    for (int64_t i = 0; i < 26; i++) total += counts[i] * (i + 1);
    return total;
}

double bench_char_count(const char *s, int64_t n, int reps, double *check) {
    int64_t res = 0;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const char *p = s;
        LAUNDER(p);
        res = char_count(p, n);
        LAUNDER(res);
    }
    double t1 = bench_now();
    *check = (double)res;
    return (t1 - t0) / reps;
}

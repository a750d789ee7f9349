#include <string.h>
#include "bench.h"

#define MIN(a, b) ((b) < (a) ? (b) : (a))

/* kernels_shapes.levenshtein: edit distance over the full (n+1) x (m+1) table, zeroed
   first as the kernel's np.zeros is (the table itself is allocated once, outside). */
static int64_t levenshtein(const uint8_t *a, int64_t n, const uint8_t *b, int64_t m, int64_t *d) {
    int64_t w = m + 1;
    memset(d, 0, sizeof(int64_t) * (n + 1) * w);
    for (int64_t i = 0; i <= n; i++) d[i * w] = i;
    for (int64_t j = 0; j <= m; j++) d[j] = j;
    for (int64_t i = 1; i <= n; i++)
        for (int64_t j = 1; j <= m; j++) {
            int64_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i * w + j] = MIN(MIN(d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1), d[(i - 1) * w + j - 1] + cost);
        }
    return d[n * w + m];
}

double bench_levenshtein(const uint8_t *a, int64_t n, const uint8_t *b, int64_t m, int64_t *d,
                         int reps, double *check) {
    int64_t res = 0;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const uint8_t *p = a;
        LAUNDER(p);
        res = levenshtein(p, n, b, m, d);
        LAUNDER(res);
    }
    double t1 = bench_now();
    *check = (double)res;
    return (t1 - t0) / reps;
}

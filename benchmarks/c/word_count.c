#include <stdlib.h>
#include <string.h>
#include "bench.h"

/* kernels_workloads.word_count: a hash-table word count of a space-separated ASCII text
 * (open addressing, FNV-1a, the table grown at 2/3 load as a dict is); returns the sum of
 * squared counts plus the number of distinct words. */
typedef struct { const char *w; int64_t len, count; uint64_t h; } slot;

static uint64_t fnv(const char *s, int64_t n) {
    uint64_t h = 1469598103934665603ull;
    for (int64_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static int64_t word_count(const char *s, int64_t n) {
    int64_t cap = 8, used = 0;
    slot *t = calloc(cap, sizeof(slot));
    int64_t i = 0;
    for (;;) {
        while (i < n && s[i] == ' ') i++;
        if (i >= n) break;
        int64_t b = i;
        while (i < n && s[i] != ' ') i++;
        int64_t len = i - b;
        uint64_t h = fnv(s + b, len);
        int64_t k = (int64_t)(h & (uint64_t)(cap - 1));
        while (t[k].w && !(t[k].h == h && t[k].len == len && memcmp(t[k].w, s + b, len) == 0))
            k = (k + 1) & (cap - 1);
        if (t[k].w) { t[k].count++; continue; }
        t[k] = (slot){s + b, len, 1, h};
        if (3 * ++used >= 2 * cap) {
            int64_t nc = cap * 4;
            slot *nt = calloc(nc, sizeof(slot));
            for (int64_t q = 0; q < cap; q++)
                if (t[q].w) {
                    int64_t z = (int64_t)(t[q].h & (uint64_t)(nc - 1));
                    while (nt[z].w) z = (z + 1) & (nc - 1);
                    nt[z] = t[q];
                }
            free(t);
            t = nt;
            cap = nc;
        }
    }
    int64_t total = 0;
    for (int64_t q = 0; q < cap; q++)
        if (t[q].w) total += t[q].count * t[q].count;
    free(t);
    return total + used;
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

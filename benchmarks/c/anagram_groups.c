#include <stdlib.h>
#include <string.h>
#include "bench.h"

/* kernels_workloads.anagram_groups: words of a space-separated ASCII text grouped by their
 * letters sorted (insertion sort of the bytes), counted in an open-addressing table keyed by
 * the sorted letters (FNV-1a, grown at 2/3 load, keys copied into an arena as a dict keeps
 * its key strs); returns the sum of squared group sizes plus the number of groups. */
typedef struct { const char *k; int64_t len, count; uint64_t h; } slot;

static uint64_t fnv(const char *s, int64_t n) {
    uint64_t h = 1469598103934665603ull;
    for (int64_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static int64_t anagram_groups(const char *s, int64_t n, char *arena) {
    int64_t cap = 8, used = 0, top = 0;
    slot *t = calloc(cap, sizeof(slot));
    char key[256];
    int64_t i = 0;
    for (;;) {
        while (i < n && s[i] == ' ') i++;
        if (i >= n) break;
        int64_t b = i;
        while (i < n && s[i] != ' ') i++;
        int64_t len = i - b;
        for (int64_t p = 0; p < len; p++) {
            char c = s[b + p];
            int64_t q = p - 1;
            while (q >= 0 && key[q] > c) { key[q + 1] = key[q]; q--; }
            key[q + 1] = c;
        }
        uint64_t h = fnv(key, len);
        int64_t k = (int64_t)(h & (uint64_t)(cap - 1));
        while (t[k].k && !(t[k].h == h && t[k].len == len && memcmp(t[k].k, key, len) == 0))
            k = (k + 1) & (cap - 1);
        if (t[k].k) { t[k].count++; continue; }
        memcpy(arena + top, key, len);
        t[k] = (slot){arena + top, len, 1, h};
        top += len;
        if (3 * ++used >= 2 * cap) {
            int64_t nc = cap * 4;
            slot *nt = calloc(nc, sizeof(slot));
            for (int64_t q = 0; q < cap; q++)
                if (t[q].k) {
                    int64_t z = (int64_t)(t[q].h & (uint64_t)(nc - 1));
                    while (nt[z].k) z = (z + 1) & (nc - 1);
                    nt[z] = t[q];
                }
            free(t);
            t = nt;
            cap = nc;
        }
    }
    int64_t total = 0;
    for (int64_t q = 0; q < cap; q++)
        if (t[q].k) total += t[q].count * t[q].count;
    free(t);
    return total + used;
}

double bench_anagram_groups(const char *s, int64_t n, int reps, double *check) {
    int64_t res = 0;
    char *arena = malloc(n + 1);
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const char *p = s;
        LAUNDER(p);
        res = anagram_groups(p, n, arena);
        LAUNDER(res);
    }
    double t1 = bench_now();
    free(arena);
    *check = (double)res;
    return (t1 - t0) / reps;
}

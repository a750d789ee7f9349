/* Shared by word_count.c and anagram_groups.c: a counting hash table of byte strings, as a
 * dict of strs to ints is (open addressing, FNV-1a, grown fourfold before an insertion would
 * bring it to 2/3 load). The table keeps the caller's pointer to each key's bytes. */
#ifndef STRTABLE_H
#define STRTABLE_H

#include <stdlib.h>
#include <string.h>
#include <stdint.h>

typedef struct { const char *w; int64_t len, count; uint64_t h; } slot;
typedef struct { slot *t; int64_t cap, used; } strtable;

static uint64_t fnv(const char *s, int64_t n) {
    uint64_t h = 1469598103934665603ull;
    for (int64_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static void table_init(strtable *tb) {
    tb->cap = 8;
    tb->used = 0;
    tb->t = calloc(tb->cap, sizeof(slot));
}

static void table_grow(strtable *tb) {
    int64_t nc = tb->cap * 4;
    slot *nt = calloc(nc, sizeof(slot));
    for (int64_t q = 0; q < tb->cap; q++)
        if (tb->t[q].w) {
            int64_t z = (int64_t)(tb->t[q].h & (uint64_t)(nc - 1));
            while (nt[z].w) z = (z + 1) & (nc - 1);
            nt[z] = tb->t[q];
        }
    free(tb->t);
    tb->t = nt;
    tb->cap = nc;
}

/* Count one more of the key s[0..n); a new key's slot is returned with count 1 (its `w` is
 * `s`: the caller may point it at a copy that outlives `s`), an old key's with its count. */
static slot *table_count(strtable *tb, const char *s, int64_t n) {
    uint64_t h = fnv(s, n);
    int64_t k = (int64_t)(h & (uint64_t)(tb->cap - 1));
    slot *t = tb->t;
    while (t[k].w && !(t[k].h == h && t[k].len == n && memcmp(t[k].w, s, n) == 0))
        k = (k + 1) & (tb->cap - 1);
    if (t[k].w) {
        t[k].count++;
        return &t[k];
    }
    if (3 * (tb->used + 1) >= 2 * tb->cap) {
        table_grow(tb);
        return table_count(tb, s, n);
    }
    tb->used++;
    t[k] = (slot){s, n, 1, h};
    return &t[k];
}

/* The sum of the squared counts plus the number of keys; frees the table. */
static int64_t table_total(strtable *tb) {
    int64_t total = 0;
    for (int64_t q = 0; q < tb->cap; q++)
        if (tb->t[q].w) total += tb->t[q].count * tb->t[q].count;
    free(tb->t);
    return total + tb->used;
}

#endif

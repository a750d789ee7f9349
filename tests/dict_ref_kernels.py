"""Kernels for tests/test_dicts_refs.py: dicts and sets whose keys or values hold references
(str keys, list and str values), each run compiled and in CPython."""

import collections
from collections import Counter, defaultdict


def word_count(text):
    d = {}
    for w in text.split():
        d[w] = d.get(w, 0) + 1
    return d


def group(xs):
    d = {}
    for x in xs:
        k = x % 3
        if k not in d:
            d[k] = []
        d[k].append(x)
    return d


def names(n):
    d = {1: "a", 2: "b"}
    return d[n]


def uniq(words):
    return len(set(words))


def anagrams(words):
    groups = {}
    for w in words:
        key = "".join(sorted(w))
        groups.setdefault(key, []).append(w)
    return [g for g in groups.values() if len(g) > 1]


def adjacency(edges, n):
    adj = {i: [] for i in range(n)}
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    return adj


def churn(words, rounds):
    """Stores, overwrites and deletes of str keys, so that tables are rebuilt with strs in them."""
    d = {}
    for r in range(rounds):
        for w in words:
            d[w] = d.get(w, 0) + r
        for i in range(0, len(words), 2):
            if words[i] in d:
                del d[words[i]]
        d[str(r)] = r
    return d


def list_values(xs):
    """Lists as values: created, appended to through d[k], popped, overwritten, deleted."""
    d = {}
    for i, x in enumerate(xs):
        d.setdefault(x % 5, []).append(i)
        if x % 7 == 0:
            d.pop(x % 5, [])
        elif x % 11 == 0:
            d[x % 5] = [x, x]
        elif x % 13 == 0 and x % 5 in d:
            del d[x % 5]
    total = 0
    for k, v in d.items():
        total += k * len(v)
    return d, total


def str_values(xs):
    d = {}
    for x in xs:
        d[x] = str(x) * (x % 3)
        d[x] = d[x] + "!"
        if x % 4 == 0:
            d[x] += "?"
    return d


def tuple_keys(words):
    d = {}
    for i, w in enumerate(words):
        d[(w, len(w))] = i
    return d, (words[0], len(words[0])) in d, d.get(("zz", 9), -1)


def set_ops(words):
    a = set(words)
    b = {w for w in words if len(w) > 1}
    c = set()
    for w in words:
        c.add(w + w)
    return sorted(a - b), sorted(a & b), len(a | b), sorted(a ^ c), "a" in a, sorted(c)


def shared_lists(xs):
    """A list taken out of a dict is the dict's list; a copy of the dict shares its lists."""
    d = {}
    for x in xs:
        lst = d.setdefault(x % 4, [])
        lst.append(x)
    e = d.copy()
    for k in e:
        e[k].append(-1)
    f = dict(d)
    f[99] = [1]
    return d, len(f), len(e)


def pops(words):
    d = {}
    for w in words:
        d[w] = [len(w)]
    out = []
    while d:
        k, v = d.popitem()
        out.append(k)
        v.append(0)
        out.append(str(len(v)))
        if len(d) > 3:
            first = ""
            for k in d:
                first = k
                break
            out.append(str(d.pop(first)[0]))
    d["x"] = [1]
    d.clear()
    d["y"] = [2]
    return out, d


def lookups(d, words):
    """A str-keyed dict argument (read-only), with str values."""
    out = []
    for w in words:
        out.append(d.get(w, "-"))
        if w in d:
            out.append(d[w] + w)
    return out, len(d), sorted(d)


def str_set_arg(s, words):
    return [w in s for w in words], len(s)


def keyed_by_str(words):
    return {w: i for i, w in enumerate(words)}


def returned_in_tuple(words):
    d = {}
    for w in words:
        d.setdefault(w[:1], []).append(w)
    return len(d), d, set(words)


def missing(words, k):
    d = {w: [len(w)] for w in words}
    return d[k]


def dd_count(words):
    d = defaultdict(int)
    for w in words:
        d[w] += 1
    return d


def dd_lists(xs):
    d = collections.defaultdict(list)
    for x in xs:
        d[x % 3].append(x)
    return d


def dd_read(words):
    d = defaultdict(float)
    t = 0.0
    for w in words:
        t += d[w]
        d[w] += 0.5
    return d, t


def dd_str(xs):
    d = defaultdict(str)
    for x in xs:
        d[x % 4] += str(x)
    return d


def counter(words):
    c = Counter(words)
    return c


def counter_most(words, n):
    c = collections.Counter(words)
    return c.most_common(n)


def counter_update(xs):
    c = Counter()
    for x in xs:
        c[x % 5] += 1
    return c[1], c[99], len(c), c.most_common(2)


def counter_chars(text):
    return Counter(text)


def counter_all(words):
    return Counter(w[:1] for w in words).most_common()


def dd_lambda(words):
    d = defaultdict(lambda: [0])
    for w in words:
        d[len(w)][0] += 1
        d[len(w)].append(len(d))
    return dict(d)      # (returned as it is, a defaultdict of a lambda is a CompileError: python_classes.py)


def sum_lists(d):
    return sum(len(v) for v in d.values())


def append_or_start(xs):
    """The value is read (appended to) above the first store that types it."""
    d = {}
    for x in xs:
        if x % 4 in d:
            d[x % 4].append(str(x))
        else:
            d[x % 4] = [str(x)]
    return d


def never_stored(k):
    d = {}
    if k in d:
        return d[k] + 1
    return len(d)


def empty_lists(xs):
    return {x: [] for x in xs}


def dd_annotated(words):
    d: dict[str, int] = defaultdict(int)
    for w in words:
        d[w] += len(w)
    return d


def lists_param(d: dict[int, list[int]]) -> int:
    return len(d)


def bfs_order(adj, start):
    """A graph as a dict of adjacency lists, the common way: read, never written."""
    seen = {start}
    order = []
    queue = [start]
    while queue:
        u = queue.pop(0)
        order.append(u)
        for v in adj.get(u, []):
            if v not in seen:
                seen.add(v)
                queue.append(v)
    return order


def longest_names(groups):
    """A dict of lists of strs: the longest name of each group, and all of them sorted."""
    best = {k: max(names, key=len) if names else "" for k, names in groups.items()}
    return best, sorted(n for names in groups.values() for n in names)


def pick_rows(table, key):
    rows = table[key] if key in table else []
    return [r[0] + r[1] for r in rows]


def append_to_argument_list(adj, u):
    adj[u].append(0)         # a write to the caller's list, written back
    return len(adj[u])


def extend_through_alias(adj, u):
    vs = adj.get(u, [])
    vs.extend([1, 2])
    return vs


def two_sum(nums, target):
    # the dict's values are read (in a returned tuple) before the store that types them
    seen = {}
    for i, x in enumerate(nums):
        if target - x in seen:
            return (seen[target - x], i)
        seen[x] = i
    return (-1, -1)


def first_repeated_word(words):
    seen = {}
    for i, w in enumerate(words):
        if w in seen:
            return seen[w], w
        seen[w] = i
    return -1, ""


# ---- a defaultdict or Counter passed to (or returned by) another function keeps its default


def _frequency_of(freq, ch):
    return freq[ch]


def _tally(counts, word, i):
    if i == len(word):
        return counts
    counts[word[i]] += 1
    return _tally(counts, word, i + 1)


def counter_to_helper(text, letters):
    freq = Counter(text)
    return [_frequency_of(freq, ch) for ch in letters] + [_frequency_of(Counter(text), "?")]


def dd_to_helper(words):
    groups = defaultdict(list)
    for w in words:
        _append_to(groups, len(w), w)
    return sorted(groups.items())


def _append_to(groups, key, value):
    groups[key].append(value)


def counter_from_helper(a, b):
    ca, cb = dd_count(a), dd_count(b)          # (a defaultdict(int) of each letter)
    return all(ca[ch] == cb[ch] for ch in a + b), len(ca), len(cb)


def counter_recursive(word):
    c = _tally(Counter(), word, 0)
    return c["a"], c["?"], len(c)


def counter_from_mapping(n):
    """Counter(mapping) takes the mapping's counts (not one per key)."""
    exponents = {2: n, 3: 1}
    factors = Counter(exponents)
    factors.update(Counter({5: 2}))
    return factors[2], factors[3], factors[5], factors[7], sorted(factors.items())


def counter_algebra(a, b):
    """Two Counters: + - | & keep counts above zero (| the larger, & the smaller), and == counts
    a missing key as zero (Python 3.10 on)."""
    ca, cb = Counter(a), Counter(b)
    both = ca & cb
    either = ca | cb
    more = ca + cb
    less = ca - cb
    cb["?"] += 0                         # a zero count: still equal to Counter(b)
    return (sorted(both.items()), sorted(either.items()), sorted(more.items()), sorted(less.items()),
            both["?"], ca == Counter(a), Counter(b) == cb, Counter(a) == cb, len(cb))

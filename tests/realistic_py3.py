"""A probe corpus of pure-Python functions as they appear in real code (LeetCode, Rosetta Code,
textbooks): strings, lists, lists of lists, dicts, sets, tuples, sorting, DP tables, graph
search, parsing, number theory. Run compiled against CPython by tests/test_realistic_py3.py."""

import bisect
import heapq
import math
from collections import Counter, defaultdict, deque


# ---- lists of lists, transposes, sorting with keys ------------------------------------------

def transpose(matrix):
    return [list(row) for row in zip(*matrix)]


def rotate_clockwise(matrix):
    return [list(r) for r in zip(*matrix[::-1])]


def column_sums(matrix):
    return [sum(col) for col in zip(*matrix)]


def spiral_order(matrix):
    out = []
    if not matrix:
        return out
    top, bottom, left, right = 0, len(matrix) - 1, 0, len(matrix[0]) - 1
    while top <= bottom and left <= right:
        for j in range(left, right + 1):
            out.append(matrix[top][j])
        top += 1
        for i in range(top, bottom + 1):
            out.append(matrix[i][right])
        right -= 1
        if top <= bottom:
            for j in range(right, left - 1, -1):
                out.append(matrix[bottom][j])
            bottom -= 1
        if left <= right:
            for i in range(bottom, top - 1, -1):
                out.append(matrix[i][left])
            left += 1
    return out


def sort_rows_by_sum(matrix):
    rows = [list(r) for r in matrix]
    rows.sort(key=lambda r: sum(r), reverse=True)
    return rows


def sort_intervals(intervals):
    """Merge overlapping intervals given as a list of (start, end) tuples."""
    merged = []
    for start, end in sorted(intervals, key=lambda p: p[0]):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def sort_pairs_desc(pairs):
    return sorted(pairs, key=lambda p: (p[1], p[0]), reverse=True)


def sort_lists(rows):
    return sorted(rows), sorted(rows, reverse=True)


def best_pair(xs):
    return max((x * y, i, j) for i, x in enumerate(xs) for j, y in enumerate(xs) if i < j)


def closest_to(xs, target):
    return min(((abs(x - target), x) for x in xs), default=(0, 0))


def farthest_point(points):
    return max(points, key=lambda p: p[0] * p[0] + p[1] * p[1])


def product_of_evens(xs):
    return math.prod(x for x in xs if x % 2 == 0)


def kth_largest(xs, k):
    return sorted(xs, reverse=True)[k - 1]


# ---- strings ----------------------------------------------------------------------------

def parse_key_values(text):
    out = {}
    for line in text.split(";"):
        if "=" not in line:
            continue
        key, _, value = line.partition("=")
        out[key.strip()] = value.strip(" .")
    return out


def split_header(line):
    head, rest = (line.split(":", 1) + [""])[:2] if ":" in line else (line, "")
    return head.strip(), rest.lstrip()


def parse_ints(text):
    return [int(tok) for tok in text.replace(",", " ").split() if tok.lstrip("-").isdigit()]


def word_frequencies(text):
    counts = {}
    for w in text.lower().split():
        w = w.strip(".,;!?")
        if w:
            counts[w] = counts.get(w, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def rle_encode(s):
    out = ""
    i = 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        out += str(j - i) + s[i]
        i = j
    return out


def rle_decode(s):
    out = []
    num = 0
    for c in s:
        if c.isdigit():
            num = num * 10 + ord(c) - ord("0")
        else:
            out.append(c * num)
            num = 0
    return "".join(out)


def caesar_shift(text, k):
    out = []
    for c in text:
        if "a" <= c <= "z":
            out.append(chr((ord(c) - ord("a") + k) % 26 + ord("a")))
        elif "A" <= c <= "Z":
            out.append(chr((ord(c) - ord("A") + k) % 26 + ord("A")))
        else:
            out.append(c)
    return "".join(out)


def format_table(rows):
    width = max((len(name) for name, _ in rows), default=0)
    lines = []
    for name, value in rows:
        lines.append(name.ljust(width) + " | " + str(value).zfill(4))
    return "\n".join(lines)


def banner(title, width):
    return "[" + title.center(width, "*") + "]"


def find_all(text, sub):
    if not sub:
        return []
    hits = []
    i = text.find(sub)
    while i != -1:
        hits.append(i)
        i = text.find(sub, i + 1)
    return hits


def last_extension(path):
    dot = path.rfind(".")
    slash = path.rfind("/")
    return path[dot + 1:] if dot > slash + 1 else ""


def classify_tokens(tokens):
    kinds = []
    for t in tokens:
        if t.isdigit():
            kinds.append("int")
        elif t.isalpha():
            kinds.append("word")
        elif t.startswith(("+", "-", "*", "/")):
            kinds.append("op")
        else:
            kinds.append("other")
    return kinds


def vowel_positions(s):
    return [(i, c) for i, c in enumerate(s) if c in "aeiouAEIOU"]


def is_anagram(a, b):
    return sorted(a.replace(" ", "").lower()) == sorted(b.replace(" ", "").lower())


def longest_common_prefix(words):
    if not words:
        return ""
    prefix = words[0]
    for w in words[1:]:
        while not w.startswith(prefix):
            prefix = prefix[:-1]
    return prefix


def count_substrings(text, subs):
    return {s: text.count(s) for s in subs if s}


def evaluate_rpn(tokens):
    stack = []
    for t in tokens:
        if t in ("+", "-", "*"):
            b = stack.pop()
            a = stack.pop()
            if t == "+":
                stack.append(a + b)
            elif t == "-":
                stack.append(a - b)
            else:
                stack.append(a * b)
        else:
            stack.append(int(t))
    return stack[-1]


def balanced(s):
    pairs = {")": "(", "]": "[", "}": "{"}
    stack = []
    for c in s:
        if c in "([{":
            stack.append(c)
        elif c in pairs:
            if not stack or stack.pop() != pairs[c]:
                return False
    return not stack


def to_roman(n):
    table = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
             (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = ""
    for value, sym in table:
        while n >= value:
            out += sym
            n -= value
    return out


def from_roman(s):
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    for i, c in enumerate(s):
        v = values[c]
        if i + 1 < len(s) and values[s[i + 1]] > v:
            total -= v
        else:
            total += v
    return total


# ---- dicts and sets ------------------------------------------------------------------------

def invert_dict(d):
    return {v: k for k, v in d.items()}


def top_scores(scores, n):
    ranked = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)
    return [name for name, _ in ranked[:n]]


def group_by_length(words):
    groups = {}
    for w in words:
        groups.setdefault(len(w), []).append(w)
    return {k: sorted(v) for k, v in groups.items()}


def set_algebra(a, b):
    sa, sb = set(a), set(b)
    return (sorted(sa | sb), sorted(sa & sb), sorted(sa - sb), sorted(sa ^ sb),
            sa.issubset(sb), sa <= sb | sa)


def first_unique_char(s):
    counts = {}
    for c in s:
        counts[c] = counts.get(c, 0) + 1
    for i, c in enumerate(s):
        if counts[c] == 1:
            return i
    return -1


def two_sum_pairs(nums, target):
    seen = {}
    pairs = []
    for i, x in enumerate(nums):
        if target - x in seen:
            pairs.append((seen[target - x], i))
        seen[x] = i
    return pairs


# ---- deque, BFS, graphs -----------------------------------------------------------------------

def bfs_grid(grid, sr, sc):
    """Shortest path lengths from (sr, sc) over '.' cells of a grid of strs."""
    rows, cols = len(grid), len(grid[0])
    dist = [[-1] * cols for _ in range(rows)]
    if grid[sr][sc] != ".":
        return dist
    dist[sr][sc] = 0
    q = deque()
    q.append((sr, sc))
    while q:
        r, c = q.popleft()
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and grid[nr][nc] == "." and dist[nr][nc] == -1:
                dist[nr][nc] = dist[r][c] + 1
                q.append((nr, nc))
    return dist


def sliding_window_max(xs, k):
    q = deque()
    out = []
    for i, x in enumerate(xs):
        while q and xs[q[-1]] <= x:
            q.pop()
        q.append(i)
        if q[0] <= i - k:
            q.popleft()
        if i >= k - 1:
            out.append(xs[q[0]])
    return out


def topo_sort(n, edges):
    indeg = [0] * n
    adj = [[] for _ in range(n)]
    for a, b in edges:
        adj[a].append(b)
        indeg[b] += 1
    q = deque(i for i in range(n) if indeg[i] == 0)
    order = []
    while q:
        u = q.popleft()
        order.append(u)
        for v in adj[u]:
            indeg[v] -= 1
            if indeg[v] == 0:
                q.append(v)
    return order if len(order) == n else []


def palindrome_deque(s):
    d = deque(c.lower() for c in s if c.isalnum())
    while len(d) > 1:
        if d.popleft() != d.pop():
            return False
    return True


def rotate_left(xs, k):
    d = deque(xs)
    for _ in range(k):
        d.append(d.popleft())
    d.appendleft(-1)
    return list(d)


def connected_components(n, edges):
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in edges:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
    return len({find(i) for i in range(n)})


def dfs_order(n, edges, start):
    adj = {i: [] for i in range(n)}
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    seen = set()
    order = []

    def visit(u):
        seen.add(u)
        order.append(u)
        for v in sorted(adj[u]):
            if v not in seen:
                visit(v)

    visit(start)
    return order


# ---- DP tables, memo dicts, recursion -------------------------------------------------------

def lcs_string(a, b):
    n, m = len(a), len(b)
    dp = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n):
        for j in range(m):
            dp[i + 1][j + 1] = dp[i][j] + 1 if a[i] == b[j] else max(dp[i][j + 1], dp[i + 1][j])
    out = []
    i, j = n, m
    while i > 0 and j > 0:
        if a[i - 1] == b[j - 1]:
            out.append(a[i - 1])
            i -= 1
            j -= 1
        elif dp[i - 1][j] >= dp[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return "".join(reversed(out))


def knapsack(weights, values, cap):
    n = len(weights)
    dp = [[0] * (cap + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        w, v = weights[i - 1], values[i - 1]
        for c in range(cap + 1):
            dp[i][c] = dp[i - 1][c]
            if w <= c and dp[i - 1][c - w] + v > dp[i][c]:
                dp[i][c] = dp[i - 1][c - w] + v
    return dp[n][cap]


def coin_change_ways(coins, amount):
    ways = [1] + [0] * amount
    for c in coins:
        for a in range(c, amount + 1):
            ways[a] += ways[a - c]
    return ways[amount]


def fib_memo(n):
    memo = {0: 0, 1: 1}

    def fib(k):
        if k not in memo:
            memo[k] = fib(k - 1) + fib(k - 2)
        return memo[k]

    return fib(n)


def count_paths(grid):
    rows, cols = len(grid), len(grid[0])
    dp = [[0] * cols for _ in range(rows)]
    for i in range(rows):
        for j in range(cols):
            if grid[i][j] == 1:
                continue
            if i == 0 and j == 0:
                dp[i][j] = 1
            else:
                dp[i][j] = (dp[i - 1][j] if i > 0 else 0) + (dp[i][j - 1] if j > 0 else 0)
    return dp[-1][-1]


def permutations_of(xs):
    if len(xs) <= 1:
        return [list(xs)]
    out = []
    for i in range(len(xs)):
        for rest in permutations_of(xs[:i] + xs[i + 1:]):
            out.append([xs[i]] + rest)
    return out


def subsets(xs):
    out = [[]]
    for x in xs:
        out += [s + [x] for s in out]
    return out


# ---- generators nested in functions ---------------------------------------------------------

def chunked_sums(xs, k):
    def chunks():
        for i in range(0, len(xs), k):
            yield xs[i:i + k]

    return [sum(c) for c in chunks()]


def primes_below(n):
    def candidates():
        yield 2
        x = 3
        while x < n:
            yield x
            x += 2

    out = []
    for p in candidates():
        if p >= n:
            break
        if all(p % q for q in out if q * q <= p):
            out.append(p)
    return out


# ---- numbers ---------------------------------------------------------------------------------

def mod_pow_table(base, exp, mod):
    return pow(base, exp, mod), base ** 3 // 7, -base // 3, -base % 7, divmod(base, 5), divmod(-base, 5)


def digit_stats(n):
    n = abs(n)
    digits = [int(c) for c in str(n)]
    return sum(digits), max(digits), digits.count(0), round(sum(digits) / len(digits), 2)


def collatz_longest(limit):
    best, best_n = 0, 1
    for n in range(1, limit):
        steps, x = 0, n
        while x != 1:
            x = x // 2 if x % 2 == 0 else 3 * x + 1
            steps += 1
        if steps > best:
            best, best_n = steps, n
    return best_n, best


def find_first_square(xs):
    for i, x in enumerate(xs):
        r = math.isqrt(x) if x >= 0 else -1
        if r * r == x:
            break
    else:
        return -1
    return i


def search_pair(xs, total):
    i = 0
    while i < len(xs):
        j = i + 1
        while j < len(xs):
            if xs[i] + xs[j] == total:
                break
            j += 1
        else:
            i += 1
            continue
        return i, j
    else:
        return -1, -1


def in_band(xs, lo, hi):
    return [x for x in xs if lo <= x < hi], any(x > hi for x in xs), all(lo <= x for x in xs)


def base_convert(n, b):
    if n == 0:
        return "0"
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    sign = "-" if n < 0 else ""
    n = abs(n)
    out = ""
    while n:
        n, r = divmod(n, b)
        out = digits[r] + out
    return sign + out


def list_surgery(xs, x):
    a = list(xs)
    a.insert(1, x)
    a.append(x)
    first = a.index(x)
    n = a.count(x)
    a.remove(x)
    last = a.pop(0) if a else None
    tail = a.pop(-1) if a else None
    return a, first, n, last, tail


def mean_std(xs):
    n = len(xs)
    mu = sum(xs) / n
    var = sum((x - mu) ** 2 for x in xs) / n
    return round(mu, 3), round(math.sqrt(var), 3)


def sort_by_closure(words, vowels_first):
    def key(w):
        v = sum(1 for c in w if c in "aeiou")
        return (-v if vowels_first else v, w)

    return sorted(words, key=key)


def pairs_to_strings(pairs):
    return [f"{a}-{b}" for a, b in pairs], [(b, a) for a, b in pairs]


def name_lengths(people):
    return [(name, len(name)) for name, _ in people], max(people, key=lambda p: p[1])[0]


# ---- added with the fixes: zip(*words), monotonic stacks, records of strs -------------------

def common_prefix_zip(words):
    out = []
    for chars in zip(*words):
        if len(set(chars)) != 1:
            break
        out.append(chars[0])
    return "".join(out)


def read_columns(grid):
    return ["".join(col) for col in zip(*grid)], max(("".join(c) for c in zip(*grid)), default="")


def daily_temperatures(temps):
    answer = [0] * len(temps)
    stack = []
    for i, t in enumerate(temps):
        while stack and temps[stack[-1]] < t:
            j = stack.pop()
            answer[j] = i - j
        stack.append(i)
    return answer


def rank_records(records):
    """records: a list of (name, score, weight) tuples."""
    best = sorted(records, key=lambda r: (r[1] * r[2], r[0]), reverse=True)
    names = [name.title() for name, _, _ in best]
    total = {name: score for name, score, _ in records}
    return names, max(records, key=lambda r: r[1]), sorted(total.items()), min((s, n) for n, s, _ in records)


def sorted_rows(rows):
    return sorted(rows), max(rows), min(rows, key=len), sorted(rows, key=lambda r: (len(r), r), reverse=True)


# ---- a second batch: graphs with heaps, parsers, number formatting, bits --------------------

def dijkstra(n, edges, src):
    adj = [[] for _ in range(n)]
    for u, v, w in edges:
        adj[u].append((v, w))
        adj[v].append((u, w))
    dist = [math.inf] * n
    dist[src] = 0
    pq = [(0, src)]
    while pq:
        d, u = heapq.heappop(pq)
        if d > dist[u]:
            continue
        for v, w in adj[u]:
            nd = d + w
            if nd < dist[v]:
                dist[v] = nd
                heapq.heappush(pq, (nd, v))
    return [d if d < math.inf else -1 for d in dist]


def word_break(s, words):
    ws = set(words)
    ok = [True] + [False] * len(s)
    for i in range(1, len(s) + 1):
        for j in range(i):
            if ok[j] and s[j:i] in ws:
                ok[i] = True
                break
    return ok[-1]


def group_anagrams(words):
    groups = defaultdict(list)
    for w in words:
        groups["".join(sorted(w))].append(w)
    return sorted(sorted(g) for g in groups.values())


def most_common_chars(s, k):
    return Counter(s).most_common(k)


def matrix_mult(a, b):
    return [[sum(x * y for x, y in zip(row, col)) for col in zip(*b)] for row in a]


def flatten(rows):
    return [x for row in rows for x in row]


def pascal(n):
    rows = [[1]]
    for _ in range(n - 1):
        prev = rows[-1]
        rows.append([1] + [prev[i] + prev[i + 1] for i in range(len(prev) - 1)] + [1])
    return rows


def tokenize(expr):
    tokens = []
    i = 0
    while i < len(expr):
        c = expr[i]
        if c.isspace():
            i += 1
        elif c.isdigit():
            j = i
            while j < len(expr) and expr[j].isdigit():
                j += 1
            tokens.append(("num", expr[i:j]))
            i = j
        else:
            tokens.append(("op", c))
            i += 1
    return tokens


def evaluate(expr):
    def parse_expr(toks, pos):
        val, pos = parse_term(toks, pos)
        while pos < len(toks) and toks[pos] in ("+", "-"):
            op = toks[pos]
            rhs, pos = parse_term(toks, pos + 1)
            val = val + rhs if op == "+" else val - rhs
        return val, pos

    def parse_term(toks, pos):
        val, pos = parse_atom(toks, pos)
        while pos < len(toks) and toks[pos] in ("*", "/"):
            op = toks[pos]
            rhs, pos = parse_atom(toks, pos + 1)
            val = val * rhs if op == "*" else val // rhs
        return val, pos

    def parse_atom(toks, pos):
        return int(toks[pos]), pos + 1

    toks = expr.replace("+", " + ").replace("-", " - ").replace("*", " * ").replace("/", " / ").split()
    return parse_expr(toks, 0)[0]


def gcd_lcm(nums):
    g = 0
    l = 1
    for x in nums:
        g = math.gcd(g, x)
        l = l * x // math.gcd(l, x) if x else l
    return g, l


def sieve_factor(n):
    spf = list(range(n + 1))
    for i in range(2, int(n ** 0.5) + 1):
        if spf[i] == i:
            for j in range(i * i, n + 1, i):
                if spf[j] == j:
                    spf[j] = i
    def factors(x):
        out = []
        while x > 1:
            out.append(spf[x])
            x //= spf[x]
        return out
    return [factors(x) for x in range(2, n + 1)]


def binary_search(xs, target):
    lo, hi = 0, len(xs) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if xs[mid] == target:
            return mid
        elif xs[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -(lo + 1)


def longest_increasing(xs):
    tails = []
    for x in xs:
        i = bisect.bisect_left(tails, x)
        if i == len(tails):
            tails.append(x)
        else:
            tails[i] = x
    return len(tails)


def title_case(s):
    small = {"a", "an", "the", "of", "and"}
    words = s.split()
    return " ".join(w.capitalize() if i == 0 or w not in small else w for i, w in enumerate(words))


def format_money(cents):
    sign = "-" if cents < 0 else ""
    d, c = divmod(abs(cents), 100)
    return f"{sign}${d:,}.{c:02d}"


def histogram_bars(xs):
    counts = Counter(xs)
    return "\n".join(f"{k:>3} {'#' * v}" for k, v in sorted(counts.items()))


def tuple_stats(pairs):
    xs, ys = zip(*pairs)
    return sum(xs), max(ys)


def enumerate_tuples(s):
    return [(i, c, c.isupper()) for i, c in enumerate(s, 1) if c != " "]


def swap_case_count(s):
    up = sum(1 for c in s if c.isupper())
    low = sum(c.islower() for c in s)
    return s.swapcase(), up, low


def interleave(a, b):
    out = []
    for x, y in zip(a, b):
        out += [x, y]
    out.extend(a[len(b):] or b[len(a):])
    return out


def reverse_words(s):
    return " ".join(reversed(s.split()))


def is_valid_ip(s):
    parts = s.split(".")
    if len(parts) != 4:
        return False
    for p in parts:
        if not p.isdigit() or (len(p) > 1 and p[0] == "0") or int(p) > 255:
            return False
    return True


def char_grid_neighbors(grid):
    h, w = len(grid), len(grid[0])
    out = [[0] * w for _ in range(h)]
    for i in range(h):
        for j in range(w):
            out[i][j] = sum(grid[a][b] == "#" for a in range(max(0, i - 1), min(h, i + 2))
                            for b in range(max(0, j - 1), min(w, j + 2)) if (a, b) != (i, j))
    return out


def merge_sorted(a, b):
    i = j = 0
    out = []
    while i < len(a) and j < len(b):
        if a[i] <= b[j]:
            out.append(a[i]); i += 1
        else:
            out.append(b[j]); j += 1
    return out + a[i:] + b[j:]


def quicksort(xs):
    if len(xs) <= 1:
        return xs
    pivot = xs[len(xs) // 2]
    return quicksort([x for x in xs if x < pivot]) + [x for x in xs if x == pivot] + quicksort([x for x in xs if x > pivot])


def running_totals(xs):
    total = 0
    out = []
    for x in xs:
        total += x
        out.append(total)
    return out, max(enumerate(out), key=lambda p: p[1])


def dict_of_tuples(pairs):
    d = {}
    for a, b in pairs:
        d[(a, b)] = d.get((a, b), 0) + 1
    return {k: v for k, v in d.items() if v > 1}, sorted(d, key=lambda k: (-d[k], k))


def string_tuple_sort(names):
    people = [(n.split()[-1], n.split()[0]) for n in names]
    people.sort()
    return [f"{last}, {first}" for last, first in people]


def count_islands(grid):
    g = [list(row) for row in grid]
    h, w = len(g), len(g[0]) if g else 0
    count = 0
    for i in range(h):
        for j in range(w):
            if g[i][j] == "1":
                count += 1
                stack = [(i, j)]
                while stack:
                    a, b = stack.pop()
                    if 0 <= a < h and 0 <= b < w and g[a][b] == "1":
                        g[a][b] = "0"
                        stack.extend([(a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1)])
    return count


def power_set_sums(xs):
    sums = {0}
    for x in xs:
        sums |= {s + x for s in sums}
    return sorted(sums)


def any_all_mix(rows):
    return any(all(v > 0 for v in r) for r in rows), all(any(v > 0 for v in r) for r in rows if r)


def chained(a, b, c):
    return a < b < c, a == b == c, a != b != c, 0 <= a <= 10 < c


def round_and_fmt(x):
    return round(x, 2), round(x), f"{x:.3f}", "%.1f%%" % (x * 100), str(round(x, 1))


def bit_tricks(n):
    return bin(n), n.bit_length(), bin(n).count("1"), n & (n - 1), n ^ (n >> 1), hex(n), oct(n)


def str_int_conv(xs):
    return [int(x) for x in xs.split(",")], ",".join(str(x * 2) for x in range(5)), int("ff", 16)


# ---- parsing with try/except around CPython's own conversions ----------------------------------

def parse_safely(tokens):
    out = []
    for t in tokens:
        try:
            out.append(int(t))
        except ValueError:
            continue
    return out


def to_number(text):
    try:
        return float(text), ""
    except ValueError as e:
        return -1.0, str(e)


def parse_records(lines):
    good, bad = [], []
    for line in lines:
        name, _, value = line.partition("=")
        try:
            good.append((name.strip(), int(value)))
        except ValueError:
            bad.append(name)
        finally:
            name = name.upper()
    return good, bad

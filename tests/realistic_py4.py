"""A fourth probe corpus of pure-Python functions as people write them: the `statistics`
module on lists of numbers, `collections` (Counter, deque with maxlen, defaultdict,
OrderedDict), heapq with tuples, bisect, string processing and formatting, dynamic
programming, graphs, parsers, simulations, sorting with keys, comprehensions, math and
itertools. Run compiled against CPython by tests/test_realistic_py4.py."""

import bisect
import heapq
import itertools
import math
import statistics
from collections import Counter, OrderedDict, defaultdict, deque
from itertools import accumulate, chain, combinations, groupby, islice, pairwise, permutations, product


# ---- statistics ------------------------------------------------------------------------------

def summary_stats(xs):
    return statistics.mean(xs), statistics.median(xs), statistics.pstdev(xs)


def sample_spread(xs):
    return statistics.stdev(xs), statistics.variance(xs)


def population_variance(xs):
    return statistics.pvariance(xs)


def median_bounds(xs):
    return statistics.median_low(xs), statistics.median_high(xs)


def most_frequent(xs):
    return statistics.mode(xs)


def all_modes(xs):
    return statistics.multimode(xs)


def fast_mean(xs):
    return statistics.fmean(xs)


def growth_rate(ratios):
    return statistics.geometric_mean(ratios)


def average_speed(speeds):
    return statistics.harmonic_mean(speeds)


def quartiles(xs):
    return statistics.quantiles(xs, n=4)


def zscores(xs):
    mu = statistics.mean(xs)
    sd = statistics.pstdev(xs)
    if sd == 0:
        return [0.0 for _ in xs]
    return [(x - mu) / sd for x in xs]


def remove_outliers(xs, k):
    med = statistics.median(xs)
    deviations = [abs(x - med) for x in xs]
    mad = statistics.median(deviations)
    return [x for x in xs if mad == 0 or abs(x - med) <= k * mad]


def moving_average(xs, window):
    out = []
    for i in range(len(xs) - window + 1):
        out.append(statistics.fmean(xs[i:i + window]))
    return out


def grade_report(scores):
    avg = statistics.mean(scores)
    top = max(scores)
    low = min(scores)
    return f"avg={avg:.2f} top={top} low={low} n={len(scores)}"


# ---- collections: Counter, deque, defaultdict, OrderedDict -----------------------------------

def top_words(text, n):
    counts = Counter(text.lower().split())
    return [w for w, _ in counts.most_common(n)]


def letter_histogram(text):
    c = Counter(ch for ch in text if ch.isalpha())
    return sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))


def can_build(note, magazine):
    need = Counter(note)
    have = Counter(magazine)
    return all(have[ch] >= k for ch, k in need.items())


def counter_update(batches):
    total = Counter()
    for b in batches:
        total.update(b)
    return sorted(total.items())


def counter_arith(a, b):
    ca = Counter(a)
    cb = Counter(b)
    return sorted((ca + cb).items()), sorted((ca - cb).items())


def counter_total(xs):
    c = Counter(xs)
    return c.total(), len(c), sorted(c.elements())


def last_n_lines(text, n):
    tail = deque(maxlen=n)
    for line in text.splitlines():
        tail.append(line)
    return list(tail)


def moving_window_sum(xs, k):
    window = deque()
    total = 0
    out = []
    for x in xs:
        window.append(x)
        total += x
        if len(window) > k:
            total -= window.popleft()
        out.append(total)
    return out


def rotate_deque(xs, k):
    d = deque(xs)
    d.rotate(k)
    return list(d)


def recent_unique(events, k):
    seen = deque(maxlen=k)
    out = []
    for e in events:
        if e not in seen:
            out.append(e)
        seen.append(e)
    return out


def josephus(n, k):
    people = deque(range(1, n + 1))
    order = []
    while people:
        people.rotate(-(k - 1))
        order.append(people.popleft())
    return order


def deque_both_ends(xs):
    d = deque()
    for i, x in enumerate(xs):
        if i % 2 == 0:
            d.append(x)
        else:
            d.appendleft(x)
    out = []
    while d:
        out.append(d.pop())
        if d:
            out.append(d.popleft())
    return out


def index_words(text):
    index = defaultdict(list)
    for lineno, line in enumerate(text.splitlines(), 1):
        for word in line.split():
            index[word.lower()].append(lineno)
    return dict(index)


def group_by_first_letter(words):
    groups = defaultdict(set)
    for w in words:
        groups[w[0]].add(w)
    return {k: sorted(v) for k, v in groups.items()}


def adjacency_degrees(edges):
    deg = defaultdict(int)
    for a, b in edges:
        deg[a] += 1
        deg[b] += 1
    return sorted(deg.items())


def lru_simulation(requests, capacity):
    cache = OrderedDict()
    hits = 0
    for r in requests:
        if r in cache:
            hits += 1
            cache.move_to_end(r)
        else:
            cache[r] = True
            if len(cache) > capacity:
                cache.popitem(last=False)
    return hits, list(cache)


def ordered_dedupe(words):
    return list(OrderedDict.fromkeys(words))


def first_seen_order(xs):
    return list(dict.fromkeys(xs))


# ---- heapq and bisect ------------------------------------------------------------------------

def k_smallest_pairs(xs, k):
    return heapq.nsmallest(k, xs)


def k_largest(xs, k):
    return heapq.nlargest(k, xs)


def merge_k_sorted(lists):
    heap = [(lst[0], i, 0) for i, lst in enumerate(lists) if lst]
    heapq.heapify(heap)
    out = []
    while heap:
        val, i, j = heapq.heappop(heap)
        out.append(val)
        if j + 1 < len(lists[i]):
            heapq.heappush(heap, (lists[i][j + 1], i, j + 1))
    return out


def task_schedule(tasks):
    """tasks: (priority, name)"""
    heap = []
    for pri, name in tasks:
        heapq.heappush(heap, (pri, name))
    order = []
    while heap:
        order.append(heapq.heappop(heap)[1])
    return order


def running_median(xs):
    lo = []   # max-heap (negated)
    hi = []
    out = []
    for x in xs:
        heapq.heappush(lo, -x)
        heapq.heappush(hi, -heapq.heappop(lo))
        if len(hi) > len(lo):
            heapq.heappush(lo, -heapq.heappop(hi))
        if len(lo) > len(hi):
            out.append(float(-lo[0]))
        else:
            out.append((-lo[0] + hi[0]) / 2)
    return out


def sorted_insert(xs):
    out = []
    for x in xs:
        bisect.insort(out, x)
    return out


def grade_letters(scores):
    breakpoints = [60, 70, 80, 90]
    grades = "FDCBA"
    return [grades[bisect.bisect(breakpoints, s)] for s in scores]


def count_in_range(xs, lo, hi):
    s = sorted(xs)
    return bisect.bisect_right(s, hi) - bisect.bisect_left(s, lo)


def heap_replace_top(xs, ys):
    h = list(xs)
    heapq.heapify(h)
    for y in ys:
        heapq.heapreplace(h, y)
    return sorted(h)


# ---- string processing -----------------------------------------------------------------------

def parse_log_line(line):
    date, time, level, msg = line.split(" ", 3)
    return level.strip("[]"), msg


def split_path(path):
    head, _, tail = path.rpartition("/")
    name, dot, ext = tail.partition(".")
    return head, name, ext if dot else ""


def rsplit_once(s):
    parts = s.rsplit(".", 1)
    return parts[0], (parts[1] if len(parts) > 1 else "")


def is_comment_or_blank(lines):
    return [ln for ln in lines if ln.strip() and not ln.lstrip().startswith(("#", "//"))]


def slugify(title):
    out = []
    for ch in title.lower():
        if ch.isalnum():
            out.append(ch)
        elif out and out[-1] != "-":
            out.append("-")
    return "".join(out).strip("-")


def camel_to_snake(name):
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i > 0:
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


def snake_to_camel(name):
    first, *rest = name.split("_")
    return first + "".join(w.capitalize() for w in rest)


def count_vowels(text):
    return sum(text.lower().count(v) for v in "aeiou")


def word_lengths(text):
    return {w: len(w) for w in text.split()}


def pad_table(rows):
    width = max(len(name) for name, _ in rows)
    return "\n".join(name.ljust(width) + " | " + str(val).rjust(5) for name, val in rows)


def center_title(title, width):
    return title.center(width, "*")


def zero_pad_ids(ids):
    return [str(i).zfill(6) for i in ids]


def mask_card(number):
    digits = number.replace(" ", "").replace("-", "")
    return "*" * (len(digits) - 4) + digits[-4:]


def is_palindrome_sentence(s):
    cleaned = [c.lower() for c in s if c.isalnum()]
    return cleaned == cleaned[::-1]


def swap_and_title(s):
    return s.swapcase(), s.title(), s.capitalize(), s.upper(), s.lower()


def find_positions(text, sub):
    first = text.find(sub)
    last = text.rfind(sub)
    return first, last, text.count(sub)


def strip_punctuation(text):
    table = str.maketrans("", "", ",.;:!?")
    return text.translate(table)


def replace_many(text, pairs):
    for old, new in pairs:
        text = text.replace(old, new)
    return text


def char_classes(s):
    return (sum(c.isdigit() for c in s), sum(c.isalpha() for c in s),
            sum(c.isspace() for c in s), sum(c.isupper() for c in s))


def wrap_text(text, width):
    lines = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = line + " " + word if line else word
    if line:
        lines.append(line)
    return lines


def parse_csv_line(line):
    return [field.strip() for field in line.split(",")]


def split_max(s, n):
    return s.split(None, n), s.split(",", n), s.rsplit(",", n)


def endswith_any(names, exts):
    return [n for n in names if n.endswith(tuple(exts))]


def remove_prefix_suffix(s):
    return s.removeprefix("pre_").removesuffix(".txt")


def expand_tabs_lines(text):
    return [ln.expandtabs(4) for ln in text.splitlines(keepends=True)]


def ascii_codes(s):
    return [ord(c) for c in s], "".join(chr(ord(c) + 1) for c in s)


# ---- formatting ------------------------------------------------------------------------------

def fmt_columns(name, qty, price):
    return f"{name:<10}|{qty:>5}|{price:>10.2f}|{qty * price:,.2f}"


def fmt_numbers(n):
    return f"{n:08d} {n:x} {n:X} {n:o} {n:b} {n:#x} {n:#b} {n:,}"


def fmt_float(x):
    return f"{x:08.3f} {x:+.1f} {x:e} {x:.2%} {x:g} {x:^12.4f}"


def fmt_with_width(x, w):
    return f"{x:>{w}}", f"{x:<{w}.2f}"


def format_method(a, b):
    return "{} + {} = {}".format(a, b, a + b), "{0:>4}|{1:<4}|".format(a, b), "{:5.1f}".format(a / 3)


def percent_bar(done, total):
    pct = done / total if total else 0.0
    filled = int(pct * 20)
    return "[" + "#" * filled + "-" * (20 - filled) + "]" + f" {pct:6.1%}"


def format_bytes(n):
    units = ["B", "KB", "MB", "GB", "TB"]
    size = float(n)
    for unit in units:
        if size < 1024 or unit == units[-1]:
            return f"{size:.1f} {unit}"
        size /= 1024
    return ""


def format_duration(seconds):
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h:02d}:{m:02d}:{s:02d}"


def hex_dump(data):
    return " ".join(f"{b:02x}" for b in data)


def to_binary_strings(xs, width):
    return [format(x, f"0{width}b") for x in xs]


# ---- dynamic programming ---------------------------------------------------------------------

def edit_distance(a, b):
    m, n = len(a), len(b)
    dp = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(m + 1):
        dp[i][0] = i
    for j in range(n + 1):
        dp[0][j] = j
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            dp[i][j] = min(dp[i - 1][j] + 1, dp[i][j - 1] + 1, dp[i - 1][j - 1] + cost)
    return dp[m][n]


def lcs_length(a, b):
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def knapsack_01(items, cap):
    """items: (weight, value) tuples."""
    best = [0] * (cap + 1)
    for w, v in items:
        for c in range(cap, w - 1, -1):
            best[c] = max(best[c], best[c - w] + v)
    return best[cap]


def min_coins(coins, amount):
    dp = [0] + [math.inf] * amount
    for a in range(1, amount + 1):
        for c in coins:
            if c <= a and dp[a - c] + 1 < dp[a]:
                dp[a] = dp[a - c] + 1
    return -1 if dp[amount] == math.inf else int(dp[amount])


def count_decodings(s):
    memo = {}

    def go(i):
        if i == len(s):
            return 1
        if s[i] == "0":
            return 0
        if i in memo:
            return memo[i]
        ways = go(i + 1)
        if i + 1 < len(s) and int(s[i:i + 2]) <= 26:
            ways += go(i + 2)
        memo[i] = ways
        return ways

    return go(0)


def max_subarray(xs):
    best = cur = xs[0]
    for x in xs[1:]:
        cur = max(x, cur + x)
        best = max(best, cur)
    return best


def climb_stairs(n, steps):
    ways = {0: 1}
    for i in range(1, n + 1):
        ways[i] = sum(ways.get(i - s, 0) for s in steps)
    return ways[n]


def grid_min_path(grid):
    rows, cols = len(grid), len(grid[0])
    cost = {}
    for r in range(rows):
        for c in range(cols):
            if r == 0 and c == 0:
                cost[(r, c)] = grid[r][c]
            else:
                up = cost.get((r - 1, c), math.inf)
                left = cost.get((r, c - 1), math.inf)
                cost[(r, c)] = grid[r][c] + min(up, left)
    return cost[(rows - 1, cols - 1)]


def longest_palindrome_sub(s):
    best = ""
    for center in range(len(s)):
        for lo, hi in ((center, center), (center, center + 1)):
            while lo >= 0 and hi < len(s) and s[lo] == s[hi]:
                lo -= 1
                hi += 1
            if hi - lo - 1 > len(best):
                best = s[lo + 1:hi]
    return best


# ---- graphs ----------------------------------------------------------------------------------

def bfs_shortest(graph, start, goal):
    """graph: dict of str to list of str."""
    queue = deque([(start, [start])])
    seen = {start}
    while queue:
        node, path = queue.popleft()
        if node == goal:
            return path
        for nxt in graph.get(node, []):
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, path + [nxt]))
    return []


def dfs_reachable(graph, start):
    seen = set()
    stack = [start]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        stack.extend(graph[node])
    return sorted(seen)


def dijkstra_dict(graph, src):
    """graph: dict of int to list of (neighbour, weight)."""
    dist = {src: 0}
    heap = [(0, src)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist.get(u, math.inf):
            continue
        for v, w in graph.get(u, []):
            nd = d + w
            if nd < dist.get(v, math.inf):
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    return sorted(dist.items())


def kahn_toposort(deps):
    """deps: dict of task to list of tasks it depends on."""
    indeg = {t: 0 for t in deps}
    users = defaultdict(list)
    for t, ds in deps.items():
        for d in ds:
            indeg.setdefault(d, 0)
            indeg[t] += 1
            users[d].append(t)
    ready = sorted(t for t, k in indeg.items() if k == 0)
    order = []
    while ready:
        t = ready.pop(0)
        order.append(t)
        for u in users[t]:
            indeg[u] -= 1
            if indeg[u] == 0:
                bisect.insort(ready, u)
    if len(order) != len(indeg):
        raise ValueError("cycle")
    return order


def has_cycle(n, edges):
    adj = [[] for _ in range(n)]
    for a, b in edges:
        adj[a].append(b)
    state = [0] * n

    def visit(u):
        state[u] = 1
        for v in adj[u]:
            if state[v] == 1:
                return True
            if state[v] == 0 and visit(v):
                return True
        state[u] = 2
        return False

    return any(state[u] == 0 and visit(u) for u in range(n))


def union_find_groups(n, pairs):
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
    groups = defaultdict(list)
    for i in range(n):
        groups[find(i)].append(i)
    return sorted(groups.values())


def grid_bfs_steps(grid):
    rows, cols = len(grid), len(grid[0])
    dist = {(0, 0): 0}
    q = deque([(0, 0)])
    while q:
        r, c = q.popleft()
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and grid[nr][nc] != "#" and (nr, nc) not in dist:
                dist[(nr, nc)] = dist[(r, c)] + 1
                q.append((nr, nc))
    return dist.get((rows - 1, cols - 1), -1)


def prim_mst(n, edges):
    adj = defaultdict(list)
    for u, v, w in edges:
        adj[u].append((w, v))
        adj[v].append((w, u))
    seen = {0}
    heap = list(adj[0])
    heapq.heapify(heap)
    total = 0
    while heap and len(seen) < n:
        w, v = heapq.heappop(heap)
        if v in seen:
            continue
        seen.add(v)
        total += w
        for e in adj[v]:
            heapq.heappush(heap, e)
    return total if len(seen) == n else -1


# ---- parsing ---------------------------------------------------------------------------------

def tokenize_expr(src):
    tokens = []
    num = ""
    for ch in src:
        if ch.isdigit() or ch == ".":
            num += ch
            continue
        if num:
            tokens.append(num)
            num = ""
        if ch in "+-*/()":
            tokens.append(ch)
        elif not ch.isspace():
            raise ValueError(f"bad character {ch!r}")
    if num:
        tokens.append(num)
    return tokens


def roman_to_int(s):
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    for a, b in zip(s, s[1:] + " "):
        v = values[a]
        total += -v if b != " " and values[b] > v else v
    return total


def int_to_roman(n):
    table = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
             (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = []
    for value, sym in table:
        count, n = divmod(n, value)
        out.append(sym * count)
    return "".join(out)


def run_length(s):
    return [(ch, len(list(g))) for ch, g in groupby(s)]


def run_length_str(s):
    return "".join(f"{len(list(g))}{ch}" for ch, g in groupby(s))


def base_convert_all(s, base):
    n = int(s, base)
    return n, bin(n), oct(n), hex(n), format(n, "b")


def to_base(n, base):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    if n == 0:
        return "0"
    sign = "-" if n < 0 else ""
    n = abs(n)
    out = []
    while n:
        n, r = divmod(n, base)
        out.append(digits[r])
    return sign + "".join(reversed(out))


def parse_ini(text):
    sections = {}
    current = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1]
            sections[current] = {}
        elif "=" in line:
            key, _, value = line.partition("=")
            sections.setdefault(current, {})[key.strip()] = value.strip()
    return sections


def parse_query(qs):
    out = {}
    for part in qs.split("&"):
        if not part:
            continue
        k, sep, v = part.partition("=")
        out.setdefault(k, []).append(v)
    return out


def safe_int_sum(tokens):
    total = 0
    bad = 0
    for t in tokens:
        try:
            total += int(t)
        except ValueError:
            bad += 1
    return total, bad


def parse_version(v):
    parts = []
    for p in v.split("."):
        try:
            parts.append(int(p))
        except ValueError:
            parts.append(0)
    while len(parts) < 3:
        parts.append(0)
    return tuple(parts[:3])


def compare_versions(a, b):
    return (parse_version(a) > parse_version(b)) - (parse_version(a) < parse_version(b))


def parse_duration(s):
    units = {"h": 3600, "m": 60, "s": 1}
    total = 0
    num = ""
    for ch in s:
        if ch.isdigit():
            num += ch
        elif ch in units and num:
            total += int(num) * units[ch]
            num = ""
        else:
            return -1
    return total if not num else -1


# ---- simulation ------------------------------------------------------------------------------

def life_step(board):
    rows, cols = len(board), len(board[0])
    new = [[0] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            n = sum(board[rr][cc] for rr in range(max(0, r - 1), min(rows, r + 2))
                    for cc in range(max(0, c - 1), min(cols, c + 2)) if (rr, cc) != (r, c))
            new[r][c] = 1 if n == 3 or (n == 2 and board[r][c]) else 0
    return new


def life_generations(board, steps):
    live = {(r, c) for r, row in enumerate(board) for c, v in enumerate(row) if v}
    for _ in range(steps):
        counts = Counter((r + dr, c + dc) for r, c in live
                         for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
        live = {cell for cell, n in counts.items() if n == 3 or (n == 2 and cell in live)}
    return sorted(live)


def random_walk_bounds(moves):
    x = y = 0
    xs, ys = [0], [0]
    step = {"U": (0, 1), "D": (0, -1), "L": (-1, 0), "R": (1, 0)}
    for m in moves:
        dx, dy = step[m]
        x += dx
        y += dy
        xs.append(x)
        ys.append(y)
    return min(xs), max(xs), min(ys), max(ys)


def bank_account(ops):
    balance = 0
    history = []
    for kind, amount in ops:
        if kind == "deposit":
            balance += amount
        elif kind == "withdraw":
            if amount > balance:
                history.append(f"declined {amount}")
                continue
            balance -= amount
        history.append(f"{kind} {amount} -> {balance}")
    return balance, history


def elevator(requests, start):
    pos = start
    travelled = 0
    for floor in requests:
        travelled += abs(floor - pos)
        pos = floor
    return travelled


# ---- sorting ---------------------------------------------------------------------------------

def sort_by_value_desc(d):
    return sorted(d.items(), key=lambda kv: kv[1], reverse=True)


def sort_people(people):
    """people: (name, age)"""
    return sorted(people, key=lambda p: (-p[1], p[0]))


def sort_case_insensitive(words):
    return sorted(words, key=str.lower)


def sort_by_length_then_alpha(words):
    words = list(words)
    words.sort(key=lambda w: (len(w), w))
    return words


def rank_scores(scores):
    ordered = sorted(set(scores), reverse=True)
    rank = {s: i + 1 for i, s in enumerate(ordered)}
    return [rank[s] for s in scores]


def argsort(xs):
    return sorted(range(len(xs)), key=lambda i: xs[i])


def median_of_three_sort(xs):
    xs = xs[:]
    xs.sort(reverse=True)
    return xs, sorted(xs, key=abs)


# ---- comprehensions and builtins -------------------------------------------------------------

def pythagorean_triples(n):
    return [(a, b, c) for a in range(1, n) for b in range(a, n) for c in range(b, n) if a * a + b * b == c * c]


def squares_dict(n):
    return {i: i * i for i in range(n) if i % 2}


def unique_lengths(words):
    return {len(w) for w in words}


def all_positive_any_zero(xs):
    return all(x > 0 for x in xs), any(x == 0 for x in xs), sum(x for x in xs if x > 0)


def enumerate_matches(xs, target):
    return [i for i, x in enumerate(xs) if x == target]


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def matrix_transpose_zip(m):
    return [list(col) for col in zip(*m)]


def tuple_key_counts(pairs):
    d = {}
    for a, b in pairs:
        key = (min(a, b), max(a, b))
        d[key] = d.get(key, 0) + 1
    return sorted(d.items())


def first_duplicate(xs):
    seen = set()
    i = 0
    while i < len(xs):
        if xs[i] in seen:
            return xs[i]
        seen.add(xs[i])
        i += 1
    return None


def min_max_avg(xs):
    return min(xs), max(xs), round(sum(xs) / len(xs), 2)


def nested_counter(n):
    def make_counter():
        count = 0

        def inc():
            nonlocal count
            count += 1
            return count

        return inc

    c = make_counter()
    return [c() for _ in range(n)]


def map_filter(xs):
    return list(map(lambda x: x * 2, filter(lambda x: x % 3, xs)))


def reversed_enumerate(xs):
    return [(i, x) for i, x in reversed(list(enumerate(xs)))]


# ---- numbers ---------------------------------------------------------------------------------

def number_theory(a, b):
    return math.gcd(a, b), math.lcm(a, b), math.isqrt(abs(a * b))


def combinatorics(n, k):
    return math.comb(n, k), math.perm(n, k), math.factorial(k)


def modpow_inverse(a, m):
    return pow(a, m - 2, m), pow(a, -1, m)


def digits_sum_and_reverse(n):
    s = 0
    r = 0
    n = abs(n)
    while n:
        n, d = divmod(n, 10)
        s += d
        r = r * 10 + d
    return s, r


def is_prime(n):
    if n < 2:
        return False
    for p in range(2, math.isqrt(n) + 1):
        if n % p == 0:
            return False
    return True


def prime_factors(n):
    out = []
    d = 2
    while d * d <= n:
        while n % d == 0:
            out.append(d)
            n //= d
        d += 1
    if n > 1:
        out.append(n)
    return out


def rounding_table(xs):
    return [(round(x), round(x, 1), math.floor(x), math.ceil(x), math.trunc(x)) for x in xs]


def perfect_numbers(limit):
    return [n for n in range(2, limit) if sum(d for d in range(1, n // 2 + 1) if n % d == 0) == n]


def luhn_valid(number):
    digits = [int(c) for c in number if c.isdigit()]
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def float_stats(xs):
    return math.fsum(xs), math.hypot(*xs[:2]) if len(xs) >= 2 else 0.0, math.prod(xs)


# ---- itertools -------------------------------------------------------------------------------

def pair_sums(xs, target):
    return [(a, b) for a, b in combinations(xs, 2) if a + b == target]


def all_orderings(s):
    return sorted({"".join(p) for p in permutations(s)})


def dice_outcomes(sides):
    return Counter(a + b for a, b in product(range(1, sides + 1), repeat=2)).most_common(3)


def flatten_chain(lists):
    return list(chain.from_iterable(lists)), list(chain(lists[0], lists[-1]))


def group_consecutive(xs):
    return [(k, list(g)) for k, g in groupby(sorted(xs), key=lambda x: x // 10)]


def deltas(xs):
    return [b - a for a, b in pairwise(xs)]


def first_n_evens(xs, n):
    return list(islice((x for x in xs if x % 2 == 0), n))


def count_until(limit):
    total = 0
    for i in itertools.count(1):
        total += i
        if total > limit:
            return i
    return -1


def round_robin(names, k):
    out = []
    for i, name in enumerate(itertools.cycle(names)):
        if i >= k:
            break
        out.append(name)
    return out


def prefix_sums(xs):
    return list(accumulate(xs)), list(accumulate(xs, max))


def subsets_of_size(xs, k):
    return [sum(c) for c in combinations(xs, k)]


def zip_longest_fill(a, b):
    return list(itertools.zip_longest(a, b, fillvalue=0))

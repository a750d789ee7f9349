"""Lists whose elements are of several types CPython keeps apart (`[1, "one"]`), made in
compiled code or passed from Python (tests/test_union_lists.py). Shapes from doctested
public code: validation loops, mixed tokens, error paths."""


def validate(xs):
    for x in xs:
        if not isinstance(x, int):
            raise ValueError(f"Expected a list of numbers as input, found {type(x).__name__}")
    return sum(xs)


def xor_all(arr):
    r = 0
    for x in arr:
        r ^= x
    return r


def describe(xs):
    return [str(x) for x in xs], [x for x in xs if isinstance(x, str)], str(xs), repr(xs), f"{xs}"


def search(xs, v):
    try:
        at = str(xs.index(v))
    except ValueError as e:
        at = str(e)
    return v in xs, xs.count(v), at


def search_chosen(xs, n):
    v = None if n < 0 else n if n % 2 else n + 0.5 if n < 4 else "a"
    try:
        return xs.index(v)
    except ValueError as e:
        return str(e)


def ordered(xs):
    try:
        out = sorted(xs)
    except TypeError as e:
        return xs[:0], str(e)
    return out, ""


def extremes(xs):
    try:
        low, high = min(xs), max(xs)
    except (TypeError, ValueError) as e:
        return str(e)
    return f"{low!r} {high!r}"


def total(xs):
    try:
        return repr(sum(xs))
    except TypeError as e:
        return str(e)


def edited(xs):
    ys = xs[:]
    ys.append("end")
    ys.insert(0, 0)
    first = ys.pop(0)
    ys.reverse()
    ys.extend([1, "b"])
    return ys, first, ys[1:3], ys * 2, ys + xs, len(ys), ys == xs, ys != xs


def written(xs):
    if xs:
        xs[0] = "changed"
    xs.append(1)
    return len(xs)


def made(n):
    out = []
    for i in range(n):
        if i % 3 == 0:
            out.append(str(i))
        elif i % 3 == 1:
            out.append(i)
        else:
            out.append(i / 2)
    return out


def display(n):
    xs = [n, "n", n * 0.5]
    return xs, xs[0], xs[-1], (xs[1], len(xs))


def tokens(text):
    """Numbers and operators of an expression, numbers as ints (a tokenizer)."""
    out = []
    num = ""
    for ch in text:
        if ch.isdigit():
            num += ch
        else:
            if num:
                out.append(int(num))
                num = ""
            if ch != " ":
                out.append(ch)
    if num:
        out.append(int(num))
    return out


def evaluate(text):
    stack = []
    for tok in tokens(text):
        if isinstance(tok, int):
            stack.append(tok)
        elif tok == "+":
            b = stack.pop()
            a = stack.pop()
            stack.append(a + b)
        elif tok == "*":
            b = stack.pop()
            a = stack.pop()
            stack.append(a * b)
    return stack


def joined(xs):
    try:
        return ", ".join(xs)
    except TypeError as e:
        return str(e)


def pairs(xs):
    return [(i, x) for i, x in enumerate(xs)], list(zip(xs, xs[1:])), list(reversed(xs))


def compare_lists(xs, ys):
    try:
        less = str(xs < ys)
    except TypeError as e:
        less = str(e)
    return xs == ys, less


def tally(xs):
    """A dict keyed by ints and strs (a dict of their union)."""
    d = {}
    for x in xs:
        d[x] = d.get(x, 0) + 1
    return sorted(d.values()), 1 in d, "a" in d, len(set(xs))


def kinds(xs):
    return [type(x).__name__ for x in xs], list(x for x in xs if x), [x * 2 for x in xs]


def by_kind(xs):
    out = {}
    for x in xs:
        out[type(x).__name__] = x
    return out


def members(xs):
    s = set(xs)
    return len(s), list(s), {x for x in xs}, 1.0 in s, "a" in s


def missing(xs, k):
    d = {x: i for i, x in enumerate(xs)}
    return d[k]


def board_cells(board):
    """A board a function validates (TheAlgorithms backtracking/word_search.py shape)."""
    for row in board:
        for cell in row:
            if not isinstance(cell, str) or len(cell) != 1:
                raise ValueError("The board should be a non empty matrix of single chars strings.")
    board[0].append("z")
    return sum(len(row) for row in board)


def combinations_by_table(items, k):
    """Tuples of every length built by extending shorter ones: tuples of run-time length."""
    table = [[] for _ in range(len(items) + 1)]
    table[0].append(())
    for i in range(1, len(items) + 1):
        for j in range(i, 0, -1):
            for shorter in table[j - 1]:
                table[j].append((*shorter, items[i - 1]))
    return table[k] if k <= len(items) else []


def ragged(n):
    rows = [(n,), (n, n + 1), ()]
    rows.append((1, 2, 3))
    return rows, [len(r) for r in rows], sorted(rows), (*rows[1], *rows[0])


def mapped(xs):
    longest = max(xs, key=lambda v: len(str(v))) if xs else ""
    return list(map(str, xs)), sorted(xs, key=str), longest


def consumed(xs):
    """Generator expressions of a union given to their consumers one alternative at a time."""
    strs = set(x for x in xs if isinstance(x, str))
    try:
        low = repr(min(x for x in xs))
    except (TypeError, ValueError) as e:
        low = str(e)
    return all(x for x in xs), any(x for x in xs), sorted(strs), low, list(x for x in xs)


def ranked(words):
    counts = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0])))


def zigzag_rows(items, key):
    # TheAlgorithms ciphers/rail_fence_cipher.py: rows annotated `list[list[str]]`, given
    # whatever `items` holds (an annotation is a hint: ints stored make rows of both)
    rows: list[list[str]] = [[] for _ in range(key)]
    lowest = key - 1
    for position, item in enumerate(items):
        num = position % (lowest * 2)
        num = min(num, lowest * 2 - num)
        rows[num].append(item)
    try:
        joined = "".join("".join(row) for row in rows)
    except TypeError as e:
        joined = str(e)
    return rows, joined

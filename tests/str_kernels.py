"""Functions over strs, compiled by tests/test_strings.py and compared with CPython."""

import string


def edit_distance(a: str, b: str) -> int:
    n = len(a)
    m = len(b)
    prev = list(range(m + 1))
    for i in range(1, n + 1):
        cur = [i] + [0] * m
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
        prev = cur
    return prev[m]


def lcs_length(a, b):
    m = len(b)
    prev = [0] * (m + 1)
    for i in range(1, len(a) + 1):
        cur = [0] * (m + 1)
        for j in range(1, m + 1):
            if a[i - 1] == b[j - 1]:
                cur[j] = prev[j - 1] + 1
            else:
                cur[j] = max(prev[j], cur[j - 1])
        prev = cur
    return prev[m]


def is_palindrome(s):
    i = 0
    j = len(s) - 1
    while i < j:
        if s[i] != s[j]:
            return False
        i += 1
        j -= 1
    return True


def count_chars(s, c):
    n = 0
    for ch in s:
        if ch == 'a':
            n += 1
        if ch == c:
            n += 100
    return n


def vowels(s):
    return sum(1 for c in s if c in "aeioué")


def digit_value(s):
    v = 0
    for ch in s:
        if '0' <= ch <= '9':
            v = v * 10 + ord(ch) - ord('0')
    return v


def index(s, i):
    return s[i]


def slices(s, a, b, c):
    return s[a:b], s[a:], s[:b], s[::c], s[a:b:c]


def concat(a, b, n):
    t = a + b
    t += a
    return t, a * n, n * b, len(t)


def compare(a, b):
    return a == b, a != b, a < b, a <= b, a > b, a >= b


def contains(a, b):
    return a in b, a not in b, b in a


def chars(s):
    out = []
    for ch in s:
        out.append(ch)
    return out


def codes(s):
    return [ord(c) for c in s]


def from_codes(xs: list[int]) -> str:
    out = ""
    for x in xs:
        out += chr(x)
    return out


def search(s, sub, start, end):
    return (s.find(sub), s.find(sub, start), s.find(sub, start, end), s.rfind(sub, start, end),
            s.count(sub), s.count(sub, start, end), s.startswith(sub), s.startswith(sub, start, end),
            s.endswith(sub), s.endswith(sub, start, end))


def index_of(s, sub):
    return s.index(sub) + s.rindex(sub)


def cases(s):
    return s.lower(), s.upper(), s.casefold(), s.title(), s.capitalize(), s.swapcase()


def classes(s):
    return (s.isdigit(), s.isalpha(), s.isalnum(), s.isspace(), s.isupper(), s.islower(),
            s.isdecimal(), s.isnumeric(), s.isidentifier(), s.isprintable(), s.isascii())


def strips(s, chars):
    return s.strip(), s.lstrip(), s.rstrip(), s.strip(chars), s.lstrip(chars), s.rstrip(chars)


def splits(s, sep, n):
    return s.split(), s.split(sep), s.split(sep, n), s.rsplit(sep, n), s.split(None, n), s.rsplit(maxsplit=n)


def join_words(s, sep):
    words = s.split()
    return sep.join(words), "".join(reversed_list(words)), sep.join(("x", s))


def reversed_list(xs: list[str]) -> list[str]:
    out = []
    for k in range(len(xs) - 1, -1, -1):
        out.append(xs[k])
    return out


def replaces(s, old, new, n):
    return s.replace(old, new), s.replace(old, new, n)


def justify(s, w):
    return s.ljust(w), s.rjust(w, '*'), s.center(w, 'é'), s.zfill(w)


def tabs(s, w):
    return s.expandtabs(), s.expandtabs(w), s.expandtabs(tabsize=w - 3), (s + "\n\t" + s).expandtabs(3)


def to_text(i: int, x: float, b: bool):
    return str(i), str(x), str(b), repr(x), f"{i}:{x}:{b}", f"[{i:>6}|{x:.3f}|{i:x}]"


def fstring(s, i):
    return f"<{s}>{s!r}{i * 2}{s:>8}{s:^7}"


def parse_int(s):
    return int(s)


def parse_float(s):
    return float(s)


def chr_of(i):
    return chr(i)


def ord_of(s):
    return ord(s)


def truth(s):
    if s:
        return len(s)
    return -1


def word_lengths(text):
    out = []
    for w in text.split():
        if len(w) > 1:
            out.append(w.upper())
    return out


def sort_words(text: str):
    words = text.split(",")
    words.sort()
    return words, sorted(text.split())


def build_number_list(n):
    parts = []
    for i in range(n):
        parts.append(str(i * i))
    return ",".join(parts)


def caesar(s, k):
    out = ""
    for ch in s:
        if 'a' <= ch <= 'z':
            out += chr((ord(ch) - 97 + k) % 26 + 97)
        else:
            out += ch
    return out


def list_ops(words: list[str], w: str):
    xs = list(words)
    xs.append(w)
    xs.insert(0, w + w)
    found = w in xs
    n = xs.count(w)
    xs[len(xs) - 1] = "last"
    last = xs.pop()
    return xs, found, n, last, len(xs)


def tuple_of(s: str, i: int):
    return (s, i), (s[:1], (s, s))


def hashes_agree(a: str, b: str) -> bool:
    return a != b or hash(a) == hash(b)


def max_word(text):
    best = ""
    for w in text.split():
        if len(w) > len(best) or len(w) == len(best) and w < best:
            best = w
    return best


def print_it(s: str, i: int) -> int:
    print(s, i, s + "!")
    return len(s)


GREETING = "héllo"
NAMES = ("ann", "bob")


def use_globals(i: int):
    return GREETING[i % len(GREETING)], NAMES[i % 2] + GREETING


def mode(x: float, how="fast") -> float:
    if how == "fast":
        return x * 2.0
    return x


def call_with_mode(x: float) -> float:
    return mode(x) + mode(x, "slow")


def shout(s: str) -> str:
    s = s.upper()
    return s + "!"


def call_shout() -> str:
    return shout("hey")


def extremes(a: str, b: str):
    return max(a, b), min(a, b, "m"), max(a.split() + [b]), min([a, b])


def last_word(s: str):
    for w in s.split():
        last = w
    return last          # UnboundLocalError when there is no word


def largest_char(s: str):
    best = ""
    i = 0
    while i < len(s):
        cur = s[i]
        if cur > best:
            best = cur
        i += 1
    return best


def build_by_appending(n: int, s: str):
    out = ""
    for i in range(n):
        out += chr(97 + i % 26)
    t = s + ""
    t += t                  # the same string on both sides
    kept = t
    t += "x"                # kept still sees the old text
    return out, t, kept


def reverse_recursive(s: str) -> str:
    if len(s) <= 1:
        return s
    return reverse_recursive(s[1:]) + s[0]


def run_length(s: str) -> str:
    i = 0
    out = []
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        out.append(s[i] + str(j - i))
        i = j
    return "".join(out)


def run_length_decode(s: str) -> str:
    out = ""
    i = 0
    while i < len(s):
        ch = s[i]
        j = i + 1
        n = 0
        while j < len(s) and s[j].isdigit():
            n = n * 10 + int(s[j])
            j += 1
        out += ch * n
        i = j
    return out


def with_closures(s: str, n: int):
    suffix = "!" * n

    def add(x):
        return x + suffix

    words = s.split()
    return add(s), [add(w) for w in words], sorted(words, key=lambda w: len(w))


def unpacking(s: str):
    a, b = s.split(",", 1) if "," in s else [s, ""]
    first, *rest = s.split(",")
    return b, a, first, rest, s or "empty", s and "full"


def parse_int_base(s: str, base: int) -> int:
    return int(s, base)


def partitions(s: str, sep: str):
    return (s.partition(sep), s.rpartition(sep), s.removeprefix(sep), s.removesuffix(sep),
            s.splitlines(), s.splitlines(True), s.splitlines(keepends=False))


def formats(s: str, i: int, x: float):
    return ("{} and {}".format(s, i), "{1}-{0}-{1}".format(s, x), "{name:>8}|{v:.2f}".format(name=s, v=x),
            "{!r}".format(s), "{{literal}} {}".format(i), "[{:^9}]".format(s))


def longest_or_none(text: str):
    best = None
    for w in text.split():
        if best is None or len(w) > len(best):
            best = w
    return best


def first_with(text: str, prefix: str):
    for w in text.split():
        if w.startswith(prefix):
            return w
    return None


def optional_ops(text: str, prefix: str):
    w = first_with(text, prefix)
    if w is None:
        return "none", False, "!"
    best = longest_or_none(text)
    return w.upper(), best == w, (best or "") + "!"


def argument_order(s):
    """CPython evaluates a call's arguments once each, in the order written (keywords in any
    order; str.format's whether its template uses them or not, and however often)."""
    seen = []

    def a(v):
        seen.append(str(v))
        return v
    parts = s.split(maxsplit=a(1), sep=a(" "))
    data = s.encode(errors=a("strict"), encoding=a("utf-8"))
    text = "{x}{y}{x}".format(y=a("1"), x=a("2"), z=a("unused"))
    raw = (5).to_bytes(byteorder=a("big"), length=a(2))
    n = int.from_bytes(signed=a(True), bytes=raw, byteorder=a("little"))
    return parts, data, text, raw, n, seen


def join_optional(n: int, hole: int, sep: str):
    """`sep.join` of strs that may be None: CPython's TypeError at the first None."""
    r = [None] * n
    for i in range(n):
        if i != hole:
            r[i] = chr(97 + i) * (i % 3)
    pair = (sep, None if hole == 0 else sep)
    return sep.join(r), "".join(x for x in r), sep.join(pair)


def caesar_by_module_alphabet(message, key):
    """`string.ascii_uppercase.find(c)` assigned to a name: a str's method of a module's
    constant (once refused as 'the bound method str.find is not a value')."""
    out = ""
    for symbol in message:
        if symbol in string.ascii_uppercase:
            num = string.ascii_uppercase.find(symbol)
            num = num - key
            if num < 0:
                num = num + len(string.ascii_uppercase)
            out = out + string.ascii_uppercase[num]
        else:
            n = string.digits.index(symbol) if symbol in string.digits else -1
            out = out + str(n)
    return out

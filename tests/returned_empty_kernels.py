"""Functions returning an empty container on one path and a typed one on another
(test_returned_empty.py)."""


def scaled(xs):
    if not xs:
        return []
    return [x * 0.5 for x in xs]


def scaled_after(xs):
    if len(xs) > 2:
        return [x * 0.5 for x in xs]
    return []


def run_lengths(s):
    if not s:
        return []
    out = []
    prev, count = s[0], 1
    for c in s[1:]:
        if c == prev:
            count += 1
        else:
            out.append((prev, count))
            prev, count = c, 1
    out.append((prev, count))
    return out


def early_out(words):
    found = []
    if not words:
        return found          # returned before anything is stored into it
    for w in words:
        if w.startswith("a"):
            found.append(w.upper())
    return found


def weights(words):
    if not words:
        return {}
    return {w: len(w) / 2 for w in words}


def letters(words):
    if not words:
        return set()
    return {w[0] for w in words if w}


def split_evens(xs):
    if not xs:
        return [], 0.0
    evens = [x for x in xs if x % 2 == 0]
    return [str(x) for x in evens], sum(xs) / len(xs)


def annotated(n: int) -> list[float]:
    if n <= 0:
        return []
    return [i / 3 for i in range(n)]


def only_empty(n):
    if n > 0:
        return []
    return []


def shout_all(xs):
    return [(x + 1).upper() for x in xs]     # no element type compiles: an annotation is needed

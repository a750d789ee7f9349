"""Regular expressions in compiled code, written in the compiled subset: CPython's `re` runs
each match (the `str_py.re_call` op: script.pyhooks.re_text), and these functions carry its
results into compiled values (lists of strs, tuples of groups, `Match` records).

The op takes and gives one str: a list of strs packed as netstrings (``"5:hello3:abc"``,
`pack`/`unpack`), so any text, NUL and every code point included, passes unchanged. The
frontend (re_calls.py) lowers ``re.split(p, s)``, ``re.search(p, s)``, ``pat.sub(r, s)``, ...
to these functions with the pattern's text and flags; the hook compiles the pattern through
`re`'s own cache, so a pattern used in a loop is compiled once.
"""

from script.lib.python.strlib import _py


def pack(parts: list[str]) -> str:
    out = ""
    for p in parts:
        out += str(len(p)) + ":" + p
    return out


def unpack(s: str) -> list[str]:
    out: list[str] = []
    n = len(s)
    i = 0
    while i < n:
        k = 0
        while s[i] != ":":
            k = k * 10 + ord(s[i]) - 48
            i += 1
        out.append(s[i + 1:i + 1 + k])
        i += 1 + k
    return out


def _call(parts: list[str]) -> list[str]:
    return unpack(_py("re_call", pack(parts)))


class Match:
    """What ``re.search`` and the others give: the string searched, each group's span
    (start and end, -1 for a group that did not take part), as CPython's `Match.regs`, and
    each group's name ("" for none)."""

    def __init__(self, string: str, spans: list[int], names: list[str]):
        self.string = string
        self.spans = spans
        self.names = names

    def _index(self, k) -> int:
        if isinstance(k, str):
            for i in range(1, len(self.names)):
                if self.names[i] == k:
                    return 2 * i
            raise IndexError("no such group")
        if k < 0 or 2 * k >= len(self.spans):
            raise IndexError("no such group")
        return 2 * k

    def group(self, k=0):
        i = self._index(k)
        start = self.spans[i]
        if start < 0:
            return None
        return self.string[start:self.spans[i + 1]]

    def __getitem__(self, k):
        return self.group(k)

    def start(self, k=0) -> int:
        return self.spans[self._index(k)]

    def end(self, k=0) -> int:
        return self.spans[self._index(k) + 1]

    def groups(self):
        return tuple([self.group(k) for k in range(1, len(self.spans) // 2)])

    def groupdict(self):
        out = {}
        for k in range(1, len(self.names)):
            if self.names[k] != "":
                out[self.names[k]] = self.group(k)
        return out

    def span(self, k=0) -> tuple[int, int]:
        i = self._index(k)
        return self.spans[i], self.spans[i + 1]


def _match_of(string: str, parts: list[str], at: int, count: int) -> Match:
    """The Match of `count` parts from `at`: 2 spans and 1 name a group, group 0 first."""
    groups = count // 3
    spans = [int(parts[at + k]) for k in range(2 * groups)]
    return Match(string, spans, parts[at + 2 * groups:at + count])


def search(how: str, pattern: str, flags: int, string: str):
    """``re.search`` (`how` "search"), ``re.match`` or ``re.fullmatch``: a Match or None."""
    parts = _call([how, pattern, str(flags), string])
    if len(parts) == 0:
        return None
    return _match_of(string, parts, 0, len(parts))


def finditer(pattern: str, flags: int, string: str) -> list[Match]:
    parts = _call(["finditer", pattern, str(flags), string])
    out: list[Match] = []
    if len(parts) == 0:
        return out
    per = int(parts[0])
    for at in range(1, len(parts), per):
        out.append(_match_of(string, parts, at, per))
    return out


def split(pattern: str, flags: int, string: str, maxsplit: int) -> list[str]:
    return _call(["split", pattern, str(flags), string, str(maxsplit)])


def findall(pattern: str, flags: int, string: str) -> list[str]:
    """``re.findall`` of a pattern of at most one group (the hook refuses others)."""
    return _call(["findall", pattern, str(flags), string, "1"])


def findall_groups(pattern: str, flags: int, string: str, groups: int) -> list[tuple[str, ...]]:
    """``re.findall`` of a pattern of several groups: a tuple of them for each match."""
    flat = _call(["findall", pattern, str(flags), string, str(groups)])
    return [tuple(flat[i:i + groups]) for i in range(0, len(flat), groups)]


def sub(pattern: str, flags: int, repl: str, string: str, count: int) -> str:
    return _call(["sub", pattern, str(flags), string, repl, str(count)])[0]


def subn(pattern: str, flags: int, repl: str, string: str, count: int) -> tuple[str, int]:
    parts = _call(["subn", pattern, str(flags), string, repl, str(count)])
    return parts[0], int(parts[1])


def sub_function(pattern: str, flags: int, string: str, count: int, repl) -> str:
    """``re.sub`` with a function as the replacement: its text for each match, as CPython's
    sub, which replaces the matches finditer finds (empty ones included), `count` first."""
    return subn_function(pattern, flags, string, count, repl)[0]


def subn_function(pattern: str, flags: int, string: str, count: int, repl) -> tuple[str, int]:
    out = ""
    last = 0
    n = 0
    for m in finditer(pattern, flags, string):
        if 0 < count <= n:
            break
        out += string[last:m.start()] + repl(m)
        last = m.end()
        n += 1
    return out + string[last:], n


def escape(text: str) -> str:
    return _call(["escape", text, "0", ""])[0]


class Pattern:
    """What ``re.compile(p, flags)`` gives in compiled code: its text and flags (the hook
    compiles it through `re`'s cache). Its `findall` gives strs: a pattern of several groups
    is a `GroupsPattern` (re_calls.py decides from the pattern's text)."""

    def __init__(self, pattern: str, flags: int):
        self.pattern = pattern
        self.flags = flags

    def search(self, string: str):
        return search("search", self.pattern, self.flags, string)

    def match(self, string: str):
        return search("match", self.pattern, self.flags, string)

    def fullmatch(self, string: str):
        return search("fullmatch", self.pattern, self.flags, string)

    def finditer(self, string: str) -> list[Match]:
        return finditer(self.pattern, self.flags, string)

    def split(self, string: str, maxsplit: int = 0) -> list[str]:
        return split(self.pattern, self.flags, string, maxsplit)

    def sub(self, repl, string: str, count: int = 0) -> str:
        if callable(repl):          # (decided when compiling: a function bound to `repl`)
            return sub_function(self.pattern, self.flags, string, count, repl)
        return sub(self.pattern, self.flags, repl, string, count)

    def subn(self, repl, string: str, count: int = 0) -> tuple[str, int]:
        if callable(repl):
            return subn_function(self.pattern, self.flags, string, count, repl)
        return subn(self.pattern, self.flags, repl, string, count)

    def findall(self, string: str) -> list[str]:
        return findall(self.pattern, self.flags, string)


def _groups_init(self, pattern: str, flags: int, groups: int):
    self.pattern = pattern
    self.flags = flags
    self.groups = groups


def _groups_findall(self, string: str) -> list[tuple[str, ...]]:
    return findall_groups(self.pattern, self.flags, string, self.groups)


# A `Pattern` of `groups` >= 2 groups, whose findall gives a tuple of them per match: Pattern's
# methods but these two (a class of its own, not a subclass: records derive from user classes).
GroupsPattern = type("GroupsPattern", (), {
    **{k: v for k, v in vars(Pattern).items() if callable(v)}, "__init__": _groups_init,
    "findall": _groups_findall, "__module__": __name__, "__qualname__": "GroupsPattern",
    "__doc__": "re.compile(p) of a pattern of several groups (re_calls.py)."})


def compile_pattern(pattern: str, flags: int) -> Pattern:
    return Pattern(pattern, flags)


def compile_groups(pattern: str, flags: int, groups: int) -> GroupsPattern:
    return GroupsPattern(pattern, flags, groups)


RECORDS = (Match, Pattern, GroupsPattern)      # classes compiled code makes records of (builtins_lowering)

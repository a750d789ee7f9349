"""Functions that use `re`, compiled by tests/test_re.py and compared with CPython."""

import re

WORD = re.compile(r"\w+")
PAIR = re.compile(r"(\w)(\d)")
KEY_VALUE = re.compile(r"(?P<key>[a-z]+)\s*=\s*(?P<value>\d*)", re.IGNORECASE)


def split_input(str_: str) -> list:
    """TheAlgorithms' strings/string_switch_case.py, as written there."""
    return [char.split() for char in re.split(r"[^ a-z A-Z 0-9 \s]", str_)]


def natural_key(key: str) -> list:
    return [s.lower() for s in re.split("([0-9]+)", key)]


def is_dna(dna: str) -> bool:
    return len(re.findall("[ATCG]", dna)) == len(dna)


def indian_phone_validator(phone: str) -> bool:
    """TheAlgorithms' strings/indian_phone_validator.py, as written there."""
    pat = re.compile(r"^(\+91[\-\s]?)?[0]?(91)?[789]\d{9}$")
    if match := re.search(pat, phone):
        return match.string == phone
    return False


def finds(s: str):
    return (re.findall(r"\d+", s), re.findall(r"(\w)(\d)", s), WORD.findall(s), PAIR.findall(s),
            re.findall(r"[a-z]", s, re.IGNORECASE | re.MULTILINE))


def search_groups(s: str):
    m = re.search(r"(\d+)-(\d+)?", s)
    if m:
        return m.group(), m.group(1), m.group(2), m.start(), m.end(1), m.span(2), m[0], m.groups()
    return None


def named(s: str):
    m = KEY_VALUE.search(s)
    if m is None:
        return "none"
    return m.group("key") + "|" + m["value"] + "|" + str(m.start("value")) + "|" + m.string, m.groupdict()


def matches(s: str):
    return (re.match(r"\s*\w", s) is not None, bool(re.fullmatch(r"[a-z ]*", s)),
            WORD.match(s) is None, WORD.fullmatch(s) is None)


def subs(s: str):
    return (re.sub(r"\s+", " ", s), re.subn("a", "b", s), re.sub(r"(\w)(\d)", r"\2\1", s, count=1),
            WORD.sub("_", s), PAIR.subn(r"<\1>", s))


def splits(s: str, n: int):
    return re.split(r"\W+", s), re.split(r"(\d)", s, maxsplit=n), WORD.split(s, n)


def iterate(s: str):
    return [m.group(0) for m in re.finditer(r"\d+", s)], [m.span() for m in WORD.finditer(s)]


def escaped(s: str):
    return re.escape(s), re.findall(re.escape("a.b"), s)


def local_pattern(s: str):
    p = re.compile(r"(\w)(\d)")
    return (p.findall(s), re.findall(p, s), p.sub("-", s), p.split(s), [m.group(2) for m in p.finditer(s)],
            p.sub(lambda m: m.group(2) + m.group(1), s), p.subn(_upper, s, 1))


def bad_pattern(s: str):
    return re.findall("(", s)


def bad_group(s: str):
    m = re.search("a", s)
    return m.group(1) if m else ""


def none_in_split(s: str):
    return re.split("(a)|b", s)


def returns_match(s: str):
    return re.search("a", s)


def emails(text: str, domain: str) -> list:
    """TheAlgorithms' web_programming/emails_from_url.py's pattern: made when it runs."""
    return re.findall("[a-zA-Z0-9]+@" + domain, text)


def dynamic_groups(text: str, pattern: str) -> list:
    return re.findall(pattern, text)


def dna(dna: str) -> str:
    """TheAlgorithms' strings/dna.py, as written there (maketrans through an instance)."""
    if len(re.findall("[ATCG]", dna)) != len(dna):
        raise ValueError("Invalid Strand")
    return dna.translate(dna.maketrans("ATCG", "TAGC"))


def _upper(m):
    return m.group(0).upper()


def function_replacements(s: str):
    return (re.sub(r"[a-z]+", lambda m: m.group().upper(), s), re.sub(r"\d", _upper, s, count=1),
            re.subn("a*", lambda m: "<" + m.group() + ">", s), WORD.sub(lambda m: m.group()[::-1], s))


def module_pattern_as_argument(s: str):
    return re.findall(WORD, s), re.search(PAIR, s) is not None, re.sub(WORD, "w", s)


def argument_order(s: str):
    """CPython evaluates re.sub's arguments as written: the replacement before the string."""
    seen = []

    def replacement():
        seen.append("repl")
        return "-"

    def text():
        seen.append("string")
        return s

    def shout(m):
        return m.group().upper()
    return re.sub("a", replacement(), text()), seen, re.sub("[a-z]", shout, s)

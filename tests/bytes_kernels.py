"""Functions over bytes, compiled by tests/test_bytes.py and compared with CPython."""


def total(b: bytes) -> int:
    t = 0
    for x in b:
        t = t * 31 + x
    return t % 1000003


def item(b: bytes, i: int) -> int:
    return b[i]


def piece(b: bytes, i: int, j: int, k: int):
    return b[i:j], b[i:], b[:j], b[::k] if k else b[::-1]


def joined(a: bytes, b: bytes, n: int):
    return a + b, a * n, n * b, (a + b)[n:]


def compare(a: bytes, b: bytes):
    return a == b, a != b, a < b, a <= b, a > b, a >= b, a in b, b in a


def with_str(b: bytes, s: str):
    return b == s, b != s, len(b) + len(s)


def ordered_with_str(b: bytes, s: str) -> bool:
    return b < s


def concat_str(b: bytes, s: str):
    return b + s


def contains_int(b: bytes, x: int) -> bool:
    return x in b


def truth(b: bytes) -> str:
    return "yes" if b else "no"


def text(b: bytes) -> str:
    return str(b) + "|" + repr(b) + "|" + f"{b}" + f"{b!r}" + "|" + str([b, b[:1]]) + str((b, 1))


def show(b: bytes) -> None:
    print(b, len(b))


def searches(b: bytes, sub: bytes, start: int):
    return (b.find(sub), b.rfind(sub), b.count(sub), b.find(sub, start), b.count(sub, start, -1),
            b.startswith(sub), b.endswith(sub), b.startswith(sub, start), b.startswith((sub, b"a")))


def search_int(b: bytes, x: int):
    return b.find(x), b.count(x), b.rfind(x)


def index_of(b: bytes, sub: bytes) -> int:
    return b.index(sub) + b.rindex(sub)


def classes(b: bytes):
    return (b.isdigit(), b.isalpha(), b.isalnum(), b.isspace(), b.isupper(), b.islower(), b.isascii(),
            b.upper(), b.lower())


def split_strip(b: bytes, sep: bytes, n: int):
    return (b.split(), b.split(None, n), b.rsplit(None, n), b.strip(), b.lstrip(), b.rstrip(),
            b.strip(sep), b.split(sep), b.rsplit(sep, n))


def join_replace(b: bytes, sep: bytes):
    parts = b.split(sep)
    return sep.join(parts), b"-".join(parts[::-1]), b.replace(sep, b"<>"), b.replace(sep, b"", 1)


def shapes(b: bytes, sep: bytes):
    return (b.partition(sep), b.rpartition(sep), b.removeprefix(sep), b.removesuffix(sep),
            b.ljust(6), b.rjust(6, b"*"), b.center(7, b"."), b.zfill(5))


def hex_round_trip(b: bytes):
    h = b.hex()
    return h, bytes.fromhex(h) == b, bytes.fromhex(h.upper())


def from_hex(s: str) -> bytes:
    return bytes.fromhex(s)


def encode(s: str) -> bytes:
    return s.encode()


def encode_with(s: str, encoding: str, errors: str) -> bytes:
    return s.encode(encoding, errors)


def decode(b: bytes) -> str:
    return b.decode("utf-8")


def decode_with(b: bytes, encoding: str, errors: str) -> str:
    return b.decode(encoding=encoding, errors=errors)


def round_trip(s: str):
    b = s.encode("utf-8")
    return b, len(b), b.decode(), bytes(s, "utf-8") == b


def from_ints(xs: list[int]) -> bytes:
    return bytes(xs)


def from_range(n: int) -> bytes:
    return bytes(range(n)) + bytes(x * 2 for x in range(n))


def zeros(n: int) -> bytes:
    return bytes(n)


def empty() -> bytes:
    return bytes() + b""


def str_without_encoding(s: str) -> bytes:
    return bytes(s)


def ints_of(b: bytes):
    return list(b), sorted(b), sum(b), max(b) if b else -1, [x ^ 0x55 for x in b], tuple(b)


def from_bytes(b: bytes, big: bool, signed: bool) -> int:
    return int.from_bytes(b, "big" if big else "little", signed=signed)


def from_bytes_order(b: bytes, order: str) -> int:
    return int.from_bytes(b, order)


def to_bytes(x: int, n: int, big: bool, signed: bool) -> bytes:
    return x.to_bytes(n, "big" if big else "little", signed=signed)


def fletcher16(text: str) -> int:
    """TheAlgorithms' hashes/fletcher16.py, as written there."""
    data = bytes(text, "ascii")
    sum1 = 0
    sum2 = 0
    for character in data:
        sum1 = (sum1 + character) % 255
        sum2 = (sum1 + sum2) % 255
    return (sum2 << 8) | sum1


def base16_encode(data: bytes) -> str:
    return "".join([hex(byte)[2:].zfill(2).upper() for byte in list(data)])


def base16_decode(data: str) -> bytes:
    if (len(data) % 2) != 0:
        raise ValueError("Data does not have an even number of hex digits.")
    if not set(data) <= set("0123456789ABCDEF"):
        raise ValueError("Data is not uppercase hex or it contains invalid characters.")
    return bytes(int(data[i] + data[i + 1], 16) for i in range(0, len(data), 2))


def xor_cipher(data: bytes, key: bytes) -> bytes:
    out = []
    for i in range(len(data)):
        out.append(data[i] ^ key[i % len(key)])
    return bytes(out)


def bytes_list(b: bytes) -> list[bytes]:
    return [b, b[1:], b""]


def numbers(b: bytes, base: int):
    return int(b, base), int(b), float(b)


def keyed(words: list[str]):
    """Bytes as dict keys and set elements: CPython's hash, so a set iterates in its order."""
    d = {}
    for w in words:
        k = w.encode()
        d[k] = d.get(k, 0) + 1
    s = {w.encode()[:2] for w in words}
    return d, list(s), hash(words[0].encode()) if words else 0, ord(b"a"[0:1])


def missing_key(words: list[str], k: str) -> int:
    d = {w.encode(): i for i, w in enumerate(words)}
    return d[k.encode()]


def longest_encoded(words: list[str]):
    """A value that is bytes or None (returned, tested, in a list and a dict)."""
    best = None
    for w in words:
        if best is None or len(w) > len(best):
            best = w.encode()
    marks = [None] * 2
    marks[0] = best
    return best, (len(best) if best is not None else -1), best or b"none", marks, {"b": best}


def ordered(words: list[str], a: bytes, b: bytes):
    bs = [w.encode() for w in words]
    bs.sort()
    return (bs, sorted(bs, reverse=True), min(bs) if bs else b"", max(bs, default=b"-"),
            sorted([(x, len(x)) for x in bs]), max(a, b), min(a, b, b"m"))


def more_methods(b: bytes, frm: bytes, to: bytes, keep: bool):
    table = bytes.maketrans(frm, to)
    return (b.capitalize(), b.title(), b.swapcase(), b.istitle(), b.splitlines(), b.splitlines(keep),
            b.splitlines(keepends=True), b.translate(table), b.translate(None, frm), b.translate(table, to))


def bad_table(b: bytes) -> bytes:
    return b.translate(b"x")

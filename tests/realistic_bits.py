"""A corpus of real-world 64-bit integer code written with Python masks: hashes (FNV-1a,
djb2, sdbm, murmur3's fmix64, Zobrist XOR), PRNGs (splitmix64, xorshift64/64*, xoshiro256**,
PCG32, a 64-bit LCG) and bit tricks (popcount, bit reversal, rotations, parity). Run compiled
against CPython by tests/test_realistic_bits.py; frontend/int_consts.py says how they compile."""

import script

MASK64 = 0xFFFFFFFFFFFFFFFF
MASK = (1 << 64) - 1                # a frozen global computed by Python: 2**64 - 1, a u64
MASK32 = 0xFFFFFFFF
FNV_OFFSET = 0xcbf29ce484222325
FNV_PRIME = 0x100000001b3
GOLDEN = 0x9E3779B97F4A7C15


# ---- hashes -----------------------------------------------------------------------------------

def fnv1a_64(s):
    h = 0xcbf29ce484222325
    for c in s:
        h ^= ord(c)
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def fnv1a_64_ints(data):
    h = FNV_OFFSET
    for b in data:
        h ^= b & 0xFF
        h = (h * FNV_PRIME) & MASK64
    return h


def fnv1_64_ints(data):
    """FNV-1 (multiply, then xor) over raw ints, which may be negative: the xor of a
    negative int is negative in Python, and the mask makes it a 64-bit value again."""
    h = FNV_OFFSET
    for b in data:
        h = (h * FNV_PRIME) & MASK
        h = (h ^ b) & MASK
    return h


def fnv1a_32(s):
    h = 0x811c9dc5
    for c in s:
        h ^= ord(c)
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def djb2(s):
    h = 5381
    for c in s:
        h = ((h << 5) + h + ord(c)) & 0xFFFFFFFFFFFFFFFF
    return h


def djb2_32(s):
    h = 5381
    for c in s:
        h = ((h << 5) + h + ord(c)) & 0xFFFFFFFF
    return h


def sdbm(s):
    h = 0
    for c in s:
        h = (ord(c) + (h << 6) + (h << 16) - h) & MASK64
    return h


def sdbm_mod(s):
    h = 0
    for c in s:
        h = (ord(c) + (h << 6) + (h << 16) - h) % 2**64
    return h


def fmix64(k):
    k ^= k >> 33
    k = (k * 0xff51afd7ed558ccd) & MASK64
    k ^= k >> 33
    k = (k * 0xc4ceb9fe1a85ec53) & MASK64
    k ^= k >> 33
    return k


def fmix64_of_int(k):
    """fmix64 of any int, negative ones too: first brought to 64 bits as Python code does."""
    k = k % (1 << 64)
    return fmix64(k)


def hash_combine(seed, v):
    """boost::hash_combine, 64-bit."""
    seed ^= (v + 0x9e3779b97f4a7c15 + ((seed << 6) & MASK64) + (seed >> 2)) & MASK64
    return seed & MASK64


def hash_ints(data):
    h = 0
    for v in data:
        h = hash_combine(h, v & MASK64)
    return h


def zobrist(table, pieces):
    """XOR of the table's entries for the occupied squares (Zobrist hashing)."""
    h = 0
    for sq in range(len(pieces)):
        if pieces[sq]:
            h ^= table[sq]
    return h & MASK64


def zobrist_seeded(pieces):
    """Zobrist with a table of 64-bit keys made by splitmix64 inside the function."""
    keys = []
    s = 12345
    for _ in range(len(pieces)):
        s = (s + GOLDEN) & MASK64
        keys.append(splitmix_mix(s))
    h = 0
    for sq in range(len(pieces)):
        if pieces[sq]:
            h ^= keys[sq]
    return h


# ---- generators -------------------------------------------------------------------------------

def splitmix_mix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def splitmix64(seed, n):
    """The sum (mod 2**64) and xor of the first n outputs of splitmix64."""
    state = seed & MASK64
    total = 0
    acc = 0
    for _ in range(n):
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = splitmix_mix(state)
        total = (total + z) & MASK64
        acc ^= z
    return total, acc


def splitmix64_last(seed, n):
    state = seed
    z = 0
    for _ in range(n):
        state = (state + GOLDEN) % 2**64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        z = z ^ (z >> 31)
    return z


def xorshift64(x, n):
    x &= MASK64
    for _ in range(n):
        x ^= (x << 13) & MASK64
        x ^= x >> 7
        x ^= (x << 17) & MASK64
    return x


def xorshift64_star(x, n):
    x &= MASK64
    out = 0
    for _ in range(n):
        x ^= x >> 12
        x ^= (x << 25) & MASK64
        x ^= x >> 27
        out = (x * 0x2545F4914F6CDD1D) & MASK64
    return out


def rotl64(x, r):
    return ((x << r) | (x >> (64 - r))) & MASK64


def rotr64(x, r):
    r &= 63
    return ((x >> r) | (x << (64 - r))) & MASK64


def xoshiro256ss_step(s):
    """One step of xoshiro256** on a list of 4 states; returns the output."""
    result = (rotl64((s[1] * 5) & MASK64, 7) * 9) & MASK64
    t = (s[1] << 17) & MASK64
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl64(s[3], 45)
    return result


def xoshiro256ss(seed, n):
    z = seed & MASK64
    s = []
    for _ in range(4):
        z = (z + GOLDEN) & MASK64
        s.append(splitmix_mix(z))
    outs = []
    for _ in range(n):
        outs.append(xoshiro256ss_step(s))
    return outs, s


def pcg32(state, inc, n):
    """n outputs of PCG32 (XSH RR), state and increment as 64-bit values."""
    inc = (inc << 1 | 1) & MASK64
    state &= MASK64
    outs = []
    for _ in range(n):
        oldstate = state
        state = (oldstate * 6364136223846793005 + inc) & MASK64
        xorshifted = (((oldstate >> 18) ^ oldstate) >> 27) & 0xFFFFFFFF
        rot = oldstate >> 59
        outs.append(((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF)
    return outs


def lcg64(seed, n):
    """Knuth's MMIX LCG, the top 32 bits of each state."""
    x = seed % (1 << 64)
    total = 0
    for _ in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        total += x >> 32
    return total


def lcg32(seed, n):
    x = seed & 0xFFFFFFFF
    for _ in range(n):
        x = (1103515245 * x + 12345) & 0x7FFFFFFF
    return x


# ---- bit tricks -------------------------------------------------------------------------------

def popcount(x):
    x &= MASK64
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


def popcount_swar(x):
    x &= MASK64
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) & MASK64) >> 56


def reverse_bits64(x):
    x &= MASK64
    r = 0
    for _ in range(64):
        r = ((r << 1) | (x & 1)) & MASK64
        x >>= 1
    return r


def reverse_bits64_swap(x):
    x &= MASK64
    x = ((x >> 1) & 0x5555555555555555) | ((x & 0x5555555555555555) << 1)
    x = ((x >> 2) & 0x3333333333333333) | ((x & 0x3333333333333333) << 2)
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0F) | ((x & 0x0F0F0F0F0F0F0F0F) << 4)
    x = ((x >> 8) & 0x00FF00FF00FF00FF) | ((x & 0x00FF00FF00FF00FF) << 8)
    x = ((x >> 16) & 0x0000FFFF0000FFFF) | ((x & 0x0000FFFF0000FFFF) << 16)
    x = (x >> 32) | (x << 32)
    return x & MASK64


def parity64(x):
    x &= MASK64
    x ^= x >> 32
    x ^= x >> 16
    x ^= x >> 8
    x ^= x >> 4
    x ^= x >> 2
    x ^= x >> 1
    return x & 1


def lowest_set_bit(x):
    x &= MASK64
    return x & ((-x) & MASK64)


def highest_bit_index(x):
    x &= MASK64
    n = -1
    while x:
        x >>= 1
        n += 1
    return n


def bswap64(x):
    x &= MASK64
    r = 0
    for _ in range(8):
        r = (r << 8) | (x & 0xFF)
        x >>= 8
    return r


def to_signed64(x):
    """A 64-bit pattern read back as a signed int, as struct.unpack('q') would. Compiled, a
    variable or result that is an int on one path and a u64 on another is a u64 (a negative
    int there would read back as 2**64 + it): `int(x)` keeps this one an int."""
    x &= MASK64
    return x - (1 << 64) if x >= 1 << 63 else int(x)     # int(): an int on both paths


def to_unsigned64(x):
    return x % 2**64


def mask_inside():
    m = (1 << 64) - 1
    return m, m >> 1, m ^ (1 << 63)


def wraps_like_c(a, b):
    """uint64 arithmetic as C does it, the masks written at each step."""
    s = (a + b) & MASK64
    d = (a - b) & MASK64
    p = (a * b) & MASK64
    return s, d, p, (s ^ d ^ p) >> 3


def compare_u64(x, y):
    """A 64-bit value compared with a Python int that may be negative."""
    u = x & MASK64
    return u < y, u > y, u == y, u >= y, u < -1, y < u


def mix32(x):
    """Murmur3's fmix32."""
    x &= 0xFFFFFFFF
    x ^= x >> 16
    x = (x * 0x85ebca6b) & 0xFFFFFFFF
    x ^= x >> 13
    x = (x * 0xc2b2ae35) & 0xFFFFFFFF
    x ^= x >> 16
    return x


def rotl32(x, r):
    x &= 0xFFFFFFFF
    r &= 31
    return ((x << r) | (x >> (32 - r))) & 0xFFFFFFFF


def bloom_bits(words, m):
    """Indices set in a Bloom filter of m bits by two FNV-derived hashes of each word."""
    out = []
    for w in words:
        h = fnv1a_64(w)
        h1 = h & MASK32
        h2 = h >> 32
        for k in range(3):
            out.append((h1 + k * h2) % m)
    return out


def _table(n, seed):
    out = []
    s = seed
    for _ in range(n):
        s = (s + GOLDEN) & MASK64
        out.append(splitmix_mix(s))
    return out


ZOBRIST = _table(64, 1)             # 64-bit keys, about half of them 2**63 or more
ZOBRIST_SHORT = _table(4, 2)


def zobrist_global(squares):
    """Zobrist hashing with a module-level table of 64-bit keys (frozen when compiled)."""
    h = 0
    for sq in squares:
        h ^= ZOBRIST[sq % 64]
    for k in range(len(ZOBRIST_SHORT)):
        if len(squares) > k:
            h ^= ZOBRIST_SHORT[k]
    return h


def hex_digest(s):
    h = fnv1a_64(s)
    return f"{h:016x}", hex(h), "%016X" % h, str(h), repr(h), h.bit_length(), h.bit_count(), "%d" % h


def bit_counts(x):
    return x.bit_count(), (x & MASK64).bit_count(), x.bit_length(), (x & MASK64).bit_length()


def fmix64_arg(k: script.u64):
    """fmix64 of a full 64-bit argument: a Python int up to 2**64 - 1 passes to a `script.u64`
    parameter (an unannotated one takes ints of int64's range)."""
    return fmix64(k)


def digits_and_divmod(h: script.u64):
    q, r = divmod(h, 1 << 40)
    return q, r, h // 10, h % 1000, h >> 63, h > 2**63, h == 2**64 - 1

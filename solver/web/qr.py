"""A QR code for the address ``yatzy serve`` prints, so a phone at the table
opens the page by pointing its camera at the terminal.

A small encoder of the QR Code model 2 standard, enough for a URL: byte
mode, error correction level M (15 % of the code may be lost), versions 1 to
10 (up to 213 bytes), the mask of least penalty.  ``matrix`` gives the
modules (True: dark), ``terminal`` draws them with half-block characters,
two module rows to a line, dark on light whatever the terminal's colours::

    >>> m = matrix("http://192.168.1.20:8000/")
    >>> len(m), len(m[0])                     # version 2: 25 x 25 modules
    (25, 25)
    >>> [m[0][i] for i in range(8)]           # a finder pattern's top edge, then light
    [True, True, True, True, True, True, True, False]
"""

from __future__ import annotations

# Error correction level M, per version: EC codewords per block and the
# blocks' data codewords.
_BLOCKS = {1: (10, [16]), 2: (16, [28]), 3: (26, [44]), 4: (18, [32, 32]),
           5: (24, [43, 43]), 6: (16, [27] * 4), 7: (18, [31] * 4),
           8: (22, [38, 38, 39, 39]), 9: (22, [36, 36, 36, 37, 37]),
           10: (26, [43, 43, 43, 43, 44])}
_ALIGN = {1: [], 2: [6, 18], 3: [6, 22], 4: [6, 26], 5: [6, 30], 6: [6, 34],
          7: [6, 22, 38], 8: [6, 24, 42], 9: [6, 26, 46], 10: [6, 28, 50]}
_LEVEL_M = 0b00                                  # the format's bits for level M

# GF(256) with the polynomial x^8 + x^4 + x^3 + x^2 + 1
_EXP = [0] * 512
_LOG = [0] * 256
_x = 1
for _i in range(255):
    _EXP[_i] = _EXP[_i + 255] = _x
    _LOG[_x] = _i
    _x <<= 1
    if _x & 0x100:
        _x ^= 0x11D


def _mul(a: int, b: int) -> int:
    return 0 if a == 0 or b == 0 else _EXP[_LOG[a] + _LOG[b]]


def _ec_codewords(data: list[int], n: int) -> list[int]:
    """The ``n`` Reed-Solomon check codewords of ``data``."""
    generator = [1]
    for i in range(n):                           # the product of (x + a^i)
        generator = [c ^ _mul(g, _EXP[i]) for c, g in
                     zip(generator + [0], [0] + generator)]
    rest = list(data) + [0] * n
    for i in range(len(data)):
        factor = rest[i]
        if factor:
            for j in range(1, n + 1):
                rest[i + j] ^= _mul(generator[j], factor)
    return rest[len(data):]


def _codewords(text: bytes) -> tuple[int, list[int]]:
    """The smallest version that holds ``text`` and its codewords, data and
    check codewords interleaved as placed."""
    for version, (ec, blocks) in _BLOCKS.items():
        capacity = sum(blocks) * 8
        count_bits = 8 if version < 10 else 16
        if 4 + count_bits + 8 * len(text) <= capacity:
            break
    else:
        raise ValueError(f"{len(text)} bytes do not fit a QR code of version 10")
    bits = [0, 1, 0, 0] + [len(text) >> i & 1 for i in reversed(range(count_bits))]
    for byte in text:
        bits += [byte >> i & 1 for i in reversed(range(8))]
    bits += [0] * min(4, capacity - len(bits))
    bits += [0] * (-len(bits) % 8)
    data = [int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8)]
    data += [0xEC, 0x11] * ((capacity // 8 - len(data)) // 2 + 1)
    data = data[:capacity // 8]
    pieces, at = [], 0
    for size in blocks:
        pieces.append(data[at:at + size])
        at += size
    checks = [_ec_codewords(p, ec) for p in pieces]
    out = [p[i] for i in range(max(blocks)) for p in pieces if i < len(p)]
    out += [c[i] for i in range(ec) for c in checks]
    return version, out


def _bch(value: int, bits: int, generator: int) -> int:
    """``value`` followed by its BCH remainder (the format and version words)."""
    rest = value << bits
    top = generator.bit_length() - 1
    for shift in reversed(range(rest.bit_length() - top)):
        if rest >> (shift + top) & 1:
            rest ^= generator << shift
    return value << bits | rest


_MASKS = [lambda x, y: (x + y) % 2 == 0, lambda x, y: y % 2 == 0, lambda x, y: x % 3 == 0,
          lambda x, y: (x + y) % 3 == 0, lambda x, y: (x // 3 + y // 2) % 2 == 0,
          lambda x, y: x * y % 2 + x * y % 3 == 0,
          lambda x, y: (x * y % 2 + x * y % 3) % 2 == 0,
          lambda x, y: ((x + y) % 2 + x * y % 3) % 2 == 0]


class _Grid:
    def __init__(self, version: int):
        self.version = version
        self.size = 17 + 4 * version
        self.dark = [[False] * self.size for _ in range(self.size)]
        self.fixed = [[False] * self.size for _ in range(self.size)]

    def put(self, x: int, y: int, dark: bool) -> None:
        self.dark[y][x] = dark
        self.fixed[y][x] = True

    def patterns(self) -> None:
        n = self.size
        for i in range(n):                           # timing
            self.put(6, i, i % 2 == 0)
            self.put(i, 6, i % 2 == 0)
        for cx, cy in ((3, 3), (n - 4, 3), (3, n - 4)):   # finders and their separators
            for dy in range(-4, 5):
                for dx in range(-4, 5):
                    x, y = cx + dx, cy + dy
                    if 0 <= x < n and 0 <= y < n:
                        self.put(x, y, max(abs(dx), abs(dy)) not in (2, 4))
        centres = _ALIGN[self.version]
        last = len(centres) - 1
        for i, cx in enumerate(centres):
            for j, cy in enumerate(centres):
                if (i, j) in ((0, 0), (0, last), (last, 0)):
                    continue
                for dy in range(-2, 3):
                    for dx in range(-2, 3):
                        self.put(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1)
        self.format(0)                               # reserved now, written with the mask
        if self.version >= 7:
            word = _bch(self.version, 12, 0x1F25)
            for i in range(18):
                a, b = n - 11 + i % 3, i // 3
                self.put(a, b, bool(word >> i & 1))
                self.put(b, a, bool(word >> i & 1))

    def format(self, mask: int) -> None:
        n = self.size
        word = _bch(_LEVEL_M << 3 | mask, 10, 0x537) ^ 0x5412
        bit = [bool(word >> i & 1) for i in range(15)]
        for i in range(6):
            self.put(8, i, bit[i])
        self.put(8, 7, bit[6])
        self.put(8, 8, bit[7])
        self.put(7, 8, bit[8])
        for i in range(9, 15):
            self.put(14 - i, 8, bit[i])
        for i in range(8):
            self.put(n - 1 - i, 8, bit[i])
        for i in range(8, 15):
            self.put(8, n - 15 + i, bit[i])
        self.put(8, n - 8, True)                     # the dark module

    def data(self, codewords: list[int]) -> None:
        bits = [c >> (7 - k) & 1 for c in codewords for k in range(8)]
        at, n = 0, self.size
        right = n - 1
        while right > 0:
            if right == 6:                           # skip the vertical timing pattern
                right = 5
            upward = (right + 1) & 2 == 0
            for step in range(n):
                y = n - 1 - step if upward else step
                for x in (right, right - 1):
                    if not self.fixed[y][x]:
                        self.dark[y][x] = at < len(bits) and bits[at] == 1
                        at += 1
            right -= 2

    def masked(self, mask: int) -> list[list[bool]]:
        test = _MASKS[mask]
        return [[d ^ (not f and test(x, y)) for x, (d, f) in enumerate(zip(row, fixed))]
                for y, (row, fixed) in enumerate(zip(self.dark, self.fixed))]


def _penalty(m: list[list[bool]]) -> int:
    """Runs of five or more alike, 2 x 2 blocks alike, and dark/light
    imbalance (rules 1, 2 and 4 of the standard; enough to pick a mask)."""
    n, score = len(m), 0
    for lines in (m, [list(col) for col in zip(*m)]):
        for line in lines:
            run = 1
            for a, b in zip(line, line[1:]):
                run = run + 1 if a == b else 1
                score += 3 if run == 5 else 1 if run > 5 else 0
    score += 3 * sum(m[y][x] == m[y][x + 1] == m[y + 1][x] == m[y + 1][x + 1]
                     for y in range(n - 1) for x in range(n - 1))
    dark = sum(map(sum, m))
    score += 10 * (abs(dark * 20 - n * n * 10) // (n * n))
    return score


def matrix(text: str) -> list[list[bool]]:
    """The QR code of ``text`` (UTF-8) as rows of modules, True dark."""
    version, codewords = _codewords(text.encode())
    grid = _Grid(version)
    grid.patterns()
    grid.data(codewords)
    best = None
    for mask in range(8):
        grid.format(mask)
        m = grid.masked(mask)
        score = _penalty(m)
        if best is None or score < best[0]:
            best = (score, m)
    return best[1]


def terminal(text: str, quiet: int = 2) -> str:
    """The QR code of ``text`` drawn for a terminal: half blocks, black on
    white (ANSI colours), ``quiet`` light modules around."""
    m = matrix(text)
    n = len(m) + 2 * quiet
    rows = [[False] * n for _ in range(quiet)]
    rows += [[False] * quiet + row + [False] * quiet for row in m]
    rows += [[False] * n for _ in range(quiet + (2 * quiet + len(m)) % 2)]
    glyph = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
    lines = ["".join(glyph[top, bottom] for top, bottom in zip(rows[y], rows[y + 1]))
             for y in range(0, len(rows) - 1, 2)]
    return "\n".join(f"\x1b[30;47m{line}\x1b[0m" for line in lines)


__all__ = ["matrix", "terminal"]

"""png.py - an RGB image as PNG bytes, compressed by this file's own deflate.

zlib's compressor may choose other matches from one version (or fork) to the next, and then
the same picture would be other bytes. This encoder's choices are its own, so that a figure is
redrawn byte for byte anywhere: each row goes unfiltered, and is coded as runs of one repeated
pixel (matches 3 bytes back) or stretches equal to the row above (matches one row back),
whichever costs fewer bits; what is left is searched for earlier occurrences (4 bytes and more,
through a table of earlier positions) and sent as literals where there is none; then one
dynamic-Huffman block (RFC 1951), its codes limited to 15 bits by package-merge. The checksums (CRC-32, Adler-32) come from zlib: they are
fixed functions of the bytes.
"""

import re
import struct
import zlib

# The length codes of RFC 1951 (3.2.5): (first length, extra bits) for codes 257..285.
_LEN_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
             163, 195, 227, 258]
_LEN_EXTRA = [0] * 8 + [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4 + [5] * 4 + [0]
_DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049,
              3073, 4097, 6145, 8193, 12289, 16385, 24577]
_DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
_CL_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

_LEN_CODE = [0] * 259
for _i, _b in enumerate(_LEN_BASE):
    for _l in range(_b, (_LEN_BASE[_i + 1] if _i + 1 < len(_LEN_BASE) else 259)):
        _LEN_CODE[_l] = _i
_LEN_CODE[258] = 28


def _dist_code(d):
    lo, hi = 0, len(_DIST_BASE) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _DIST_BASE[mid] <= d:
            lo = mid
        else:
            hi = mid - 1
    return lo


_RUN = re.compile(rb'(...)\1{2,}', re.S)       # a pixel repeated: at least 9 bytes
_SAME = re.compile(rb'\x00{24,}')               # at least 24 bytes equal to the row above


def _matches(out, start, length, dist):
    """Matches of `dist` back covering `length` bytes (length >= 3) from `start`."""
    while length > 0:
        n = 258 if length > 260 else length if length <= 258 else length - 3
        out.append((n, dist))
        length -= n


def _row_tokens(row, prev, stride):
    """Tokens for one row (its filter byte first): (byte,) a literal, (length, distance) a match.
    Both codings are tried (runs of a pixel; the same and stretches equal to the row above) and
    the one with the fewer estimated bits kept."""
    candidates = []
    # 1. runs of one pixel, literals between them
    toks, at = [], 0
    for m in _RUN.finditer(row):
        s, e = m.start(), m.end()
        if s < at:
            continue
        toks.extend((b,) for b in row[at:s + 3])
        _matches(toks, s + 3, e - s - 3, 3)
        at = e
    toks.extend((b,) for b in row[at:])
    candidates.append(toks)
    # 2. stretches equal to the row above (as matches one row back), runs elsewhere
    if prev is not None:
        diff = (int.from_bytes(row, 'big') ^ int.from_bytes(prev, 'big')).to_bytes(len(row), 'big')
        toks, at = [], 0
        for m in _SAME.finditer(diff):
            s, e = m.start(), m.end()
            toks.extend(_row_tokens_runs(row, at, s))
            _matches(toks, s, e - s, stride)
            at = e
        toks.extend(_row_tokens_runs(row, at, len(row)))
        candidates.append(toks)
    return min(candidates, key=lambda t: sum(9 if len(x) == 1 else (6 if x[1] == 3 else 18) for x in t))


def _row_tokens_runs(row, lo, hi):
    toks, at = [], lo
    for m in _RUN.finditer(row, lo, hi):
        s, e = m.start(), m.end()
        toks.extend((b,) for b in row[at:s + 3])
        _matches(toks, s + 3, e - s - 3, 3)
        at = e
    toks.extend((b,) for b in row[at:hi])
    return toks


def _lengths(freqs, limit):
    """Code lengths at most `limit` for symbols with these frequencies (package-merge), as a
    list over the alphabet; ties are broken by symbol, so the result is always the same."""
    syms = sorted((f, s) for s, f in enumerate(freqs) if f)
    lengths = [0] * len(freqs)
    if len(syms) == 1:
        lengths[syms[0][1]] = 1
        return lengths
    leaves = [(f, (s,)) for f, s in syms]
    current = list(leaves)
    for _ in range(limit - 1):
        packages = [(current[i][0] + current[i + 1][0], current[i][1] + current[i + 1][1])
                    for i in range(0, len(current) - 1, 2)]
        current = sorted(leaves + packages, key=lambda item: item[0])
    for _, members in current[:2 * len(syms) - 2]:
        for s in members:
            lengths[s] += 1
    return lengths


def _codes(lengths):
    """Canonical Huffman codes (RFC 1951 3.2.2), bit-reversed for LSB-first output."""
    max_len = max(lengths)
    count = [0] * (max_len + 1)
    for n in lengths:
        if n:
            count[n] += 1
    code, nxt = 0, [0] * (max_len + 2)
    for bits in range(1, max_len + 1):
        code = (code + count[bits - 1]) << 1
        nxt[bits] = code
    out = [(0, 0)] * len(lengths)
    for s, n in enumerate(lengths):
        if n:
            c = nxt[n]
            nxt[n] += 1
            out[s] = (int(format(c, '0%db' % n)[::-1], 2), n)
    return out


class _Bits:
    def __init__(self):
        self.out, self.acc, self.n = bytearray(), 0, 0

    def put(self, value, nbits):
        self.acc |= value << self.n
        self.n += nbits
        while self.n >= 8:
            self.out.append(self.acc & 255)
            self.acc >>= 8
            self.n -= 8

    def flush(self):
        if self.n:
            self.out.append(self.acc & 255)
        self.acc = self.n = 0
        return bytes(self.out)


CHAIN = 8   # earlier positions tried for a match


def _common(data, p, i, most):
    """The length of the common prefix of data[p:] and data[i:], at most `most` (slices compare in C)."""
    lo, hi = 0, most
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if data[p:p + mid] == data[i:i + mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _literals(data, start, end, table, out):
    """Tokens for the literal stretch data[start:end] (what the runs and the row above left): matches
    of 4 bytes or more found through `table` (4 bytes -> their positions in earlier stretches; the
    last CHAIN are tried), literals for the rest. The longest match wins, the nearest of equals:
    the same choice every time."""
    i = start
    while i < end:
        key = data[i:i + 4]
        best, dist = 0, 0
        cands = table.get(key) if end - i >= 4 else None
        if cands:
            for p in reversed(cands[-CHAIN:]):
                if i - p > 32768:
                    break
                n = _common(data, p, i, min(258, end - i))
                if n > best:
                    best, dist = n, i - p
        if best >= 4:
            out.append((best, dist))
            for q in range(i, i + best):
                table.setdefault(data[q:q + 4], []).append(q)
            i += best
            continue
        if len(key) == 4:
            table.setdefault(key, []).append(i)
        out.append((data[i],))
        i += 1


def deflate(rows, stride):
    """The zlib stream of the rows (each its filter byte and pixels, `stride` bytes)."""
    data = b''.join(rows)
    tokens, prev, table = [], None, {}
    for y, row in enumerate(rows):
        at = y * stride
        lit_from = None
        for t in _row_tokens(row, prev, stride):
            if len(t) == 1:
                if lit_from is None:
                    lit_from = at
                at += 1
                continue
            if lit_from is not None:
                _literals(data, lit_from, at, table, tokens)
                lit_from = None
            tokens.append(t)
            at += t[0]
        if lit_from is not None:
            _literals(data, lit_from, at, table, tokens)
        prev = row
    lit = [0] * 286
    dist = [0] * 30
    for t in tokens:
        if len(t) == 1:
            lit[t[0]] += 1
        else:
            lit[257 + _LEN_CODE[t[0]]] += 1
            dist[_dist_code(t[1])] += 1
    lit[256] = 1
    if not any(dist):
        dist[0] = 1
    lit_len, dist_len = _lengths(lit, 15), _lengths(dist, 15)
    hlit = max(257, max(i for i, n in enumerate(lit_len) if n) + 1)
    hdist = max(1, max(i for i, n in enumerate(dist_len) if n) + 1)
    seq = lit_len[:hlit] + dist_len[:hdist]
    cl_freq = [0] * 19
    for n in seq:
        cl_freq[n] += 1
    cl_len = _lengths(cl_freq, 7)
    hclen = max(4, max(i for i, sym in enumerate(_CL_ORDER) if cl_len[sym]) + 1)
    lit_code, dist_code, cl_code = _codes(lit_len), _codes(dist_len), _codes(cl_len)

    bits = _Bits()
    bits.put(1, 1)          # the final block
    bits.put(2, 2)          # dynamic Huffman codes
    bits.put(hlit - 257, 5)
    bits.put(hdist - 1, 5)
    bits.put(hclen - 4, 4)
    for sym in _CL_ORDER[:hclen]:
        bits.put(cl_len[sym], 3)
    for n in seq:
        bits.put(*cl_code[n])
    for t in tokens:
        if len(t) == 1:
            bits.put(*lit_code[t[0]])
        else:
            length, d = t
            lc = _LEN_CODE[length]
            bits.put(*lit_code[257 + lc])
            if _LEN_EXTRA[lc]:
                bits.put(length - _LEN_BASE[lc], _LEN_EXTRA[lc])
            dc = _dist_code(d)
            bits.put(*dist_code[dc])
            if _DIST_EXTRA[dc]:
                bits.put(d - _DIST_BASE[dc], _DIST_EXTRA[dc])
    bits.put(*lit_code[256])
    return b'\x78\xda' + bits.flush() + struct.pack('>I', zlib.adler32(data) & 0xffffffff)


def _chunk(kind, data):
    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)


def encode_rgb(w, h, pixels):
    """PNG bytes of a w x h image, pixels row by row, 3 bytes (R, G, B) a pixel."""
    stride = 3 * w + 1
    rows = [b'\x00' + bytes(pixels[y * 3 * w:(y + 1) * 3 * w]) for y in range(h)]
    ihdr = struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)
    return b'\x89PNG\r\n\x1a\n' + _chunk(b'IHDR', ihdr) + _chunk(b'IDAT', deflate(rows, stride)) + \
        _chunk(b'IEND', b'')

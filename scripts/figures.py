#!/usr/bin/env python3
"""figures.py - a picture of each lesson's idea, drawn from the constants the steps report.

`make figures` runs it: it reads `./stepN --describe` for steps 1 to 6 (their tiles, thread
tiles, k-tile depth, stages, step 6's unrolled loop, its track's tiles and the plans of the
shapes its lesson draws) and draws ten figures, each an SVG and a PNG beside its lesson:

    step1_tiling/tiling            a block's tile of C, a thread's small tile, a warp's coalesced row
    step2_shared/shared            the k-tiles of A and B staged through shared memory
    step3_registers/registers      a thread's 8 x 8 register tile and the fragments it is built from
    step4_vectorize/vectorize      the 128-bit loads, and A transposed in shared memory
    step5_pipeline/pipeline        the ring of stages over time: copies in flight beside the FMAs
    step6_unroll/unroll            the loop before and after unrolling, each stage index resolved
    step6_unroll/going_further/warp_tiles, split_k, wide_tiles, stream_k   the track's four parts

A figure is a pure function of those constants (drawing/: no dates, no versions, the same bytes
on every machine), so it cannot disagree with the code, and the tests redraw it byte for byte.

    python3 scripts/figures.py [--steps DIR] [--out DIR]

--steps: where ./step1 .. ./step6 are (default: the repository root); --out: where the lesson
folders are written (default: the repository itself). A step that is not built (steps 5 and 6
before sm_80) leaves its figures as they are, saying so. A --describe line that lacks a constant
a figure needs gets one line on stderr naming it, and exit code 2; a figure whose shapes would
reach past its edges (nothing may be cut off) names the shape, and exit code 1.
"""
import argparse
import os
import subprocess
import sys

sys.dont_write_bytecode = True
from drawing.canvas import Canvas   # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCALE = 2          # PNG pixels a unit of the SVG
WIDTH = 900        # every figure's width, in SVG units

# Colours: one for each thing a figure tells apart, the same thing the same colour in every figure.
INK, GREY, GRID, FAINT = '#222222', '#666666', '#c9c9c9', '#ececec'
A_FILL, A_INK = '#d3e6f6', '#0b6aa8'          # A, and its loads
B_FILL, B_INK = '#d4efe2', '#08875f'          # B
C_FILL, C_INK = '#fdebcd', '#b86e00'          # C and the accumulators
THREAD = '#d55e00'                            # one thread's elements
WARP, WARP_FILL = '#8e3b8a', '#ead3e8'        # one warp's
SHARED = '#f4f1e8'                            # shared memory, as a place
BARRIER = '#333333'
# k-tiles (or stages, or ranks) told apart by colour, in order
SERIES = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#7f7f2a', '#6a51a3']
SERIES_FILL = ['#cce3f2', '#fbe6bf', '#c7ebdf', '#f3ddea', '#d8eefa', '#f8d9c4', '#e6e6c8', '#e2dcef']


class Fail(Exception):
    pass


# --- what the steps say ------------------------------------------------------------------------

def describe(steps_dir, n):
    """The key=value words of ./stepN --describe, or None when the step is not built."""
    binary = os.path.join(steps_dir, 'step%d' % n)
    if not os.access(binary, os.X_OK):
        return None
    p = subprocess.run([binary, '--describe'], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise Fail('%s --describe failed (exit %d): %s' % (binary, p.returncode, p.stderr.strip()))
    words = dict(w.split('=', 1) for w in p.stdout.split() if '=' in w)
    words['_binary'] = binary
    return words


def need(d, key):
    if key not in d or d[key] == '':
        raise Fail('%s --describe gives no %s= (a figure needs it): rebuild the step (make)' % (d['_binary'], key))
    return d[key]


def ints(text, sep, d, key):
    try:
        return [int(v) for v in text.split(sep)]
    except ValueError:
        raise Fail('%s --describe: %s=%s is not what a figure can read' % (d['_binary'], key, d[key]))


def shapes(d, key='shapes'):
    """shapes=BMxBNxBK:TMxTN:piece:a_pad,... as dicts."""
    out = []
    for item in need(d, key).split(','):
        parts = item.split(':')
        if len(parts) != 4:
            raise Fail('%s --describe: %s=%s is not BMxBNxBK:TMxTN:piece:a_pad' % (d['_binary'], key, d[key]))
        bm, bn, bk = ints(parts[0], 'x', d, key)
        tm, tn = ints(parts[1], 'x', d, key)
        out.append(dict(bm=bm, bn=bn, bk=bk, tm=tm, tn=tn, piece=int(parts[2]), a_pad=int(parts[3])))
    return out


def track_tiles(d):
    """track_tiles=name:BMxBNxBK:WMxWN:TMxTN:threads:min_blocks,... as a dict by name."""
    out = {}
    for item in need(d, 'track_tiles').split(','):
        p = item.split(':')
        if len(p) != 6:
            raise Fail('%s --describe: track_tiles=%s is not name:BMxBNxBK:WMxWN:TMxTN:threads:min_blocks'
                       % (d['_binary'], d['track_tiles']))
        bm, bn, bk = ints(p[1], 'x', d, 'track_tiles')
        wm, wn = ints(p[2], 'x', d, 'track_tiles')
        tm, tn = ints(p[3], 'x', d, 'track_tiles')
        out[p[0]] = dict(bm=bm, bn=bn, bk=bk, wm=wm, wn=wn, tm=tm, tn=tn, threads=int(p[4]), min_blocks=int(p[5]))
    return out


def example(d, key):
    """split_k_example=MxNxK,tile:small,split:4,... as a dict (m, n, k and each named figure)."""
    parts = need(d, key).split(',')
    m, n, k = ints(parts[0], 'x', d, key)
    out = dict(m=m, n=n, k=k)
    for p in parts[1:]:
        name, _, value = p.partition(':')
        out[name] = value if name == 'tile' else int(value)
    return out


def shown_words(value, *left_out):
    """An example's words without those the figure does not use ("...," in their place)."""
    words = [w for w in value.split(',') if w.partition(':')[0] not in left_out]
    return ','.join(words)


# --- layout helpers -------------------------------------------------------------------------------

def wrap(text, width, size):
    lines, cur = [], ''
    for word in text.split(' '):
        trial = word if not cur else cur + ' ' + word
        if Canvas.text_width(trial, size) <= width or not cur:
            cur = trial
        else:
            lines.append(cur)
            cur = word
    if cur:
        lines.append(cur)
    return lines


def para(c, x, y, text, width, size=12.5, color=INK, gap=1.38, bold=False):
    """Wrapped text from baseline y; returns the baseline after its last line."""
    for line in wrap(text, width, size):
        c.text(x, y, line, size, color, bold=bold)
        y += size * gap
    return y


def nb(text):
    """Text that a line must not break inside (a code fragment, "8 x 8")."""
    return text.replace(' ', '\u00a0')


def a_n(number):
    """The article before a number said aloud: 'an' 8, 11, 18, 80..."""
    return 'an' if str(number)[0] == '8' or str(number) in ('11', '18') or str(number).startswith('18') else 'a'


def header(c, title, source):
    c.text(24, 32, title, 17, INK, bold=True)
    c.text(24, 52, source, 11.5, GREY)


def swatch(c, x, y, fill, stroke=None, width=1.0):
    """A key's square, its bottom on baseline y."""
    c.rect(x, y - 11, 14, 14, fill=fill, stroke=stroke, width=width)


def key(c, x, y, fill, text, width, stroke=None, stroke_width=1.0, size=12.5):
    """A swatch and its wrapped words; returns the baseline after them."""
    swatch(c, x, y, fill, stroke, stroke_width)
    return para(c, x + 22, y, text, width - 22, size)


def grid(c, x, y, rows, cols, cell_w, cell_h, color=FAINT, strong=None, strong_every=0):
    """Hairlines between cells, stronger ones every `strong_every` cells (the outline is the caller's)."""
    faint, bold = [], []
    for r in range(1, rows):
        (bold if strong and strong_every and r % strong_every == 0 else faint).append(
            (x, y + r * cell_h, x + cols * cell_w, y + r * cell_h))
    for q in range(1, cols):
        (bold if strong and strong_every and q % strong_every == 0 else faint).append(
            (x + q * cell_w, y, x + q * cell_w, y + rows * cell_h))
    if faint:
        c.rules(faint, color, 0.5)
    if bold:
        c.rules(bold, strong, 1)


def runs_of(values):
    """Sorted integers as runs (first, count) of consecutive ones."""
    out = []
    for v in sorted(set(values)):
        if out and out[-1][0] + out[-1][1] == v:
            out[-1][1] += 1
        else:
            out.append([v, 1])
    return out


def cells(c, x, y, e, rows, cols, fill):
    """The cells rows x cols of a grid of e-unit cells at (x, y), as few rectangles as runs allow."""
    for r0, nr in runs_of(rows):
        for q0, nq in runs_of(cols):
            c.rect(x + q0 * e, y + r0 * e, nq * e, nr * e, fill=fill)


def thread_rows(t, ty, threads_m):
    """The rows of its tile that thread row ty owns: runs of `piece` rows, piece * threads_m apart."""
    p = t['piece']
    return [(i // p) * p * threads_m + ty * p + i % p for i in range(t['tm'])]


def thread_cols(t, tx, threads_n):
    p = t['piece']
    return [(j // p) * p * threads_n + tx * p + j % p for j in range(t['tn'])]


# --- step 1: tiling --------------------------------------------------------------------------------

def fig_tiling(d1):
    t = shapes(d1)[0]
    bm, bn, tm, tn = t['bm'], t['bn'], t['tm'], t['tn']
    threads_m, threads_n = bm // tm, bn // tn
    threads = threads_m * threads_n
    warp_rows = 32 // threads_n          # rows of threads a warp spans
    cell = 384 / max(bm, bn)
    x0, y0 = 170, 128                    # the tile of C
    ax, bw = x0 - 26, 12                 # A's column, B's row: 12 units thick
    by = y0 - 34
    c = Canvas(WIDTH, 560, 'Step 1: a block\'s tile of C, a thread\'s tile, a warp\'s coalesced loads')
    header(c, 'Step 1: a block per tile of C, a thread per small tile, warps that coalesce',
           'make figures, from ./step1 --describe: shapes=%s' % d1['shapes'])

    rows0 = thread_rows(t, 0, threads_m)
    cols0 = thread_cols(t, 0, threads_n)
    warp_r = sorted({r for ty in range(warp_rows) for r in thread_rows(t, ty, threads_m)})
    # C: the block's tile, warp 0's elements, thread (0, 0)'s
    c.rect(x0, y0, bn * cell, bm * cell, fill=C_FILL)
    for r in warp_r:
        c.rect(x0, y0 + r * cell, bn * cell, cell, fill=WARP_FILL)
    grid(c, x0, y0, bm, bn, cell, cell, color='#f3dfc0', strong=GRID, strong_every=threads_m)
    for r in rows0:
        for q in cols0:
            c.rect(x0 + q * cell, y0 + r * cell, cell, cell, fill=THREAD)
    c.rect(x0, y0, threads_n * cell, warp_rows * cell, stroke=WARP, width=2)
    c.rect(x0, y0, bn * cell, bm * cell, stroke=INK, width=1.2)
    # B's row p and A's column p, with what thread (0, 0) and warp 0 load from them
    c.rect(x0, by, bn * cell, bw, fill=B_FILL)
    c.rect(x0, by, threads_n * cell, bw, fill=WARP_FILL)
    for q in cols0:
        c.rect(x0 + q * cell, by, cell, bw, fill=THREAD)
    grid(c, x0, by, 1, bn, cell, bw, color='#b9dcc9')
    c.rect(x0, by, bn * cell, bw, stroke=B_INK, width=1.2)
    c.rect(x0, by, threads_n * cell, bw, stroke=WARP, width=2)
    c.rect(ax, y0, bw, bm * cell, fill=A_FILL)
    for r in range(warp_rows):
        c.rect(ax, y0 + r * cell, bw, cell, fill=WARP_FILL)
    for r in rows0:
        c.rect(ax, y0 + r * cell, bw, cell, fill=THREAD)
    grid(c, ax, y0, bm, 1, bw, cell, color='#bcd6ea')
    c.rect(ax, y0, bw, bm * cell, stroke=A_INK, width=1.2)
    c.rect(ax, y0, bw, warp_rows * cell, stroke=WARP, width=2)
    # labels
    c.text(x0, by - 9, 'row p of B: B[p][tile_col + c], c = 0..%d' % (bn - 1), 12.5, B_INK)
    c.text(ax - 8, y0 + 10, 'column p of A:', 12.5, A_INK, anchor='end')
    c.text(ax - 8, y0 + 26, 'A[tile_row + r][p],', 12.5, A_INK, anchor='end')
    c.text(ax - 8, y0 + 42, 'r = 0..%d' % (bm - 1), 12.5, A_INK, anchor='end')
    for q in range(0, bn, threads_n):
        c.text(x0 + q * cell + cell / 2, y0 - 8, str(q), 10.5, GREY, anchor='middle')
    for r in range(threads_m, bm, threads_m):
        c.text(ax - 8, y0 + r * cell + cell, str(r), 10.5, GREY, anchor='end')
    c.text(x0 + bn * cell / 2, y0 + bm * cell + 22, 'the block\'s %d x %d tile of C: %d x %d = %d threads'
           % (bm, bn, threads_m, threads_n, threads), 12.5, INK, anchor='middle')
    c.text(x0 + bn * cell / 2, y0 + bm * cell + 40, '(tx = threadIdx.x %% %d across, ty = threadIdx.x / %d down)'
           % (threads_n, threads_n), 12, GREY, anchor='middle')

    # the key
    kx, kw, y = 580, 300, 100
    y = key(c, kx, y, THREAD, 'thread (ty, tx) = (0, 0): its %d x %d elements of C, %d rows and %d columns '
            'apart. At step p it loads A[row][p] for its %d rows and B[p][col] for its %d columns, once, '
            'and does %d FMAs with them.' % (tm, tn, threads_m, threads_n, tm, tn, tm * tn), kw) + 10
    y = key(c, kx, y, WARP_FILL, 'warp 0: threads 0..31, ty = 0..%d and tx = 0..%d: consecutive threads '
            'take consecutive columns.' % (warp_rows - 1, threads_n - 1), kw) + 10
    y = key(c, kx, y, None, 'what one load instruction of warp 0 touches (i = j = 0). In B: %d consecutive '
            'floats, %d bytes, %d whole 32-byte sectors, the same for both rows of threads. In A: %d addresses, '
            'each broadcast to %d threads.' % (threads_n, 4 * threads_n, 4 * threads_n // 32, warp_rows, threads_n),
            kw, stroke=WARP, stroke_width=2) + 10
    y = para(c, kx, y, 'Each value a thread loads feeds %d FMAs (A) or %d (B): %d FMAs for %d loads, where '
             'step 0 did one FMA for two.' % (tn, tm, tm * tn, tm + tn), kw, color=GREY) + 24
    # the grid: a block per tile, blockIdx.x numbering C's tiles row by row
    y = para(c, kx, y, 'C, cut into %d x %d tiles: blockIdx.x numbers them row by row' % (bm, bn), kw)
    rows, cols, sz = 3, 6, 30
    gy = y - 6
    for r in range(rows):
        for q in range(cols):
            here = (r, q) == (1, 2)
            c.rect(kx + q * sz, gy + r * sz, sz, sz, fill=C_INK if here else C_FILL, stroke='#d9b88a', width=1)
            c.text(kx + q * sz + sz / 2, gy + r * sz + sz / 2 + 4.5, str(r * cols + q), 11.5,
                   '#ffffff' if here else GREY, anchor='middle')
    c.rect(kx, gy, cols * sz, rows * sz, stroke=INK, width=1.2)
    c.text(kx + cols * sz + 12, gy + sz * 1.5 + 4, 'the tile drawn', 12, C_INK)
    c.text(kx + cols * sz + 12, gy + sz * 1.5 + 20, 'here: one block', 12, C_INK)
    return c


# --- step 2: shared memory -----------------------------------------------------------------------

A_NOW, B_NOW = '#8ec3ea', '#8cd9b8'   # the k-tile being copied and used


def fig_shared(d2):
    t = shapes(d2)[0]
    bm, bn, bk, tm, tn = t['bm'], t['bn'], t['bk'], t['tm'], t['tn']
    threads_m, threads_n = bm // tm, bn // tn
    threads = threads_m * threads_n
    u = 128 / max(bm, bn)             # units an element, in global memory
    v = 224 / max(bm, bn)             # and in shared memory
    kt, now, p = 5, 1, 5              # k-tiles drawn, the one being used, the step p marked
    kw = bk * u
    c = Canvas(WIDTH, 660, 'Step 2: the k-tiles of A and B staged through shared memory')
    header(c, 'Step 2: k-tiles of A and B staged in shared memory, two barriers a k-tile',
           'make figures, from ./step2 --describe: shapes=%s' % d2['shapes'])
    # shared memory: its box first, the k-tiles in it placed level with their copies
    sx, sy = 480, 92
    sw = WIDTH - 24 - sx
    c.text(24, 84, 'global memory', 13, GREY, bold=True)
    copy_words = ('Each k-tile is copied by all %d threads, %d floats of A and %d of B each, consecutive '
                  'threads taking consecutive floats (coalesced).' % (threads, bm * bk // threads, bk * bn // threads))
    copy_y = sy + 42 + len(wrap(copy_words, sw - 24, 12)) * 12 * 1.38
    bt_x, bt_y = sx + sw - 16 - bn * v, copy_y + 10
    # global memory: B's column panel above C, A's row panel left of it
    bx = 300
    by = bt_y + bk * v / 2 - (now + 0.5) * kw
    cx, cy = bx, by + kt * kw + 20
    ax, ay = cx - 20 - kt * kw, cy
    at_x, at_y = sx + 16, bt_y + bk * v + 22
    sh = max(at_y + bm * v, ay + bm * u) + 12 - sy
    c.rect(sx, sy, sw, sh, fill=SHARED, stroke='#b5ab8c', width=1.2)
    c.text(sx + 12, sy + 20, 'shared memory (the block\'s)', 13, GREY, bold=True)
    para(c, sx + 12, sy + 42, copy_words, sw - 24, 12)
    for i in range(kt):
        c.rect(bx, by + i * kw, bn * u, kw, fill=B_NOW if i == now else B_FILL, stroke='#ffffff', width=1)
        c.rect(ax + i * kw, ay, kw, bm * u, fill=A_NOW if i == now else A_FILL, stroke='#ffffff', width=1)
        c.text(bx - 6, by + i * kw + kw / 2 + 4, 'k-tile %d' % i, 11, B_INK if i == now else GREY, anchor='end')
        c.text(ax + i * kw + kw / 2, ay - 6, str(i), 11, A_INK if i == now else GREY, anchor='middle')
    c.rect(bx, by, bn * u, kt * kw, stroke=B_INK, width=1.2)
    c.rect(ax, ay, kt * kw, bm * u, stroke=A_INK, width=1.2)
    c.rect(cx, cy, bn * u, bm * u, fill=C_FILL, stroke=INK, width=1.2)
    c.text(cx + bn * u / 2, cy + bm * u / 2 - 4, "the block's", 12, C_INK, anchor='middle')
    c.text(cx + bn * u / 2, cy + bm * u / 2 + 12, '%d x %d tile of C' % (bm, bn), 12, C_INK, anchor='middle')
    para(c, 24, by + 14, 'B (K x N): the block\'s %d columns, in k-tiles of %d rows' % (bn, bk), 180, 12, B_INK)
    para(c, 24, ay - 60, 'A (M x K): the block\'s %d rows, in k-tiles of %d columns:' % (bm, bk),
         bx - 110, 12, A_INK)

    # the k-tiles in shared memory, and what thread (0, 0) reads of them at step p
    c.rect(bt_x, bt_y, bn * v, bk * v, fill=B_NOW)
    c.rect(at_x, at_y, bk * v, bm * v, fill=A_NOW)
    grid(c, bt_x, bt_y, bk, bn, v, v, color='#b8e4cf', strong='#6fbf9b', strong_every=threads_n)
    grid(c, at_x, at_y, bm, bk, v, v, color='#b7d7ef', strong='#72a9d8', strong_every=threads_m)
    c.rect(bt_x, bt_y + p * v, bn * v, v, fill='#5cbf95')
    c.rect(at_x + p * v, at_y, v, bm * v, fill='#5aa5dc')
    for j in range(tn):
        c.rect(bt_x + j * threads_n * v, bt_y + p * v, v, v, fill=THREAD)
    for i in range(tm):
        c.rect(at_x + p * v, at_y + i * threads_m * v, v, v, fill=THREAD)
    c.rect(bt_x, bt_y, bn * v, bk * v, stroke=B_INK, width=1.2)
    c.rect(at_x, at_y, bk * v, bm * v, stroke=A_INK, width=1.2)
    c.text(bt_x, bt_y - 8, 'b_tile[%d][%d]' % (bk, bn), 12, B_INK)
    c.text(bt_x - 6, bt_y + p * v + v, 'row p', 11, B_INK, anchor='end')
    c.text(at_x, at_y - 8, 'a_tile[%d][%d]: column p' % (bm, bk), 12, A_INK)
    # the copies
    c.arrow([(bx + bn * u + 2, bt_y + bk * v / 2), (bt_x - 4, bt_y + bk * v / 2)], B_INK, 1.6)
    ya = max(ay + bm * u, at_y + bm * v) + 30
    c.arrow([(ax + now * kw + kw / 2, ay + bm * u + 2), (ax + now * kw + kw / 2, ya),
             (at_x + bk * v / 2, ya), (at_x + bk * v / 2, at_y + bm * v + 4)], A_INK, 1.6)
    c.text(bx + bn * u + 10, bt_y + bk * v / 2 - 7, 'copy', 12, B_INK)
    c.text(ax + now * kw + kw / 2 + 8, ya - 6, 'copy', 12, A_INK)
    x1 = at_x + bk * v + 20
    y = para(c, x1, at_y + 14, 'Then %d steps p. At each, thread (ty, tx) reads a_tile[ty + %di][p] and '
             'b_tile[p][tx + %dj], i,\u00a0j\u00a0=\u00a00..%d (thread (0, 0)\'s are marked): %d + %d values from shared '
             'memory for %d FMAs.' % (bk, threads_m, threads_n, tm - 1, tm, tn, tm * tn), sx + sw - x1 - 12, 12)
    para(c, x1, y + 8, '%d KiB copied from global memory a k-tile, for %d FMAs: %d FMAs a float copied.'
         % ((bm + bn) * bk * 4 // 1024, bm * bn * bk, bm * bn * bk // ((bm + bn) * bk)), sx + sw - x1 - 12, 12,
         GREY)

    # the loop over k-tiles: copy, barrier, compute, barrier
    ly = ya + 54
    c.text(24, ly - 22, 'the loop over k-tiles, in time:', 13, GREY, bold=True)
    x, h = 24, 34
    for k in range(3):
        c.rect(x, ly, 84, h / 2, fill=A_NOW if k == now else A_FILL)
        c.rect(x, ly + h / 2, 84, h / 2, fill=B_NOW if k == now else B_FILL)
        c.text(x + 42, ly + h / 2 + 4.5, 'copy k-tile %d' % k, 11.5, INK, anchor='middle')
        x += 84
        for mark, dx in (('1', 0), ('2', 172)):
            c.rect(x + dx + 1, ly - 6, 4, h + 12, fill=BARRIER)
            c.text(x + dx + 3, ly - 10, mark, 11, INK, anchor='middle', bold=True)
        x += 6
        c.rect(x, ly, 166, h, fill=C_FILL)
        c.text(x + 83, ly + h / 2 + 4.5, '%d steps p: FMAs' % bk, 11.5, INK, anchor='middle')
        x += 176
    c.text(x, ly + h / 2 + 4, '...', 13, GREY)
    c.text(24, ly + h + 30, '1', 11.5, INK, bold=True)
    c.text(40, ly + h + 30, '__syncthreads(): the tiles are complete before anyone reads them', 11.5, INK)
    c.text(24, ly + h + 48, '2', 11.5, INK, bold=True)
    c.text(40, ly + h + 48, '__syncthreads(): everyone is done reading them before the next copy overwrites '
           'them', 11.5, INK)
    c.height = ly + h + 64
    return c

# --- step 3: registers -----------------------------------------------------------------------------

def fig_registers(d2, d3):
    before = shapes(d2)[0]
    tiles = shapes(d3)
    t = tiles[0]
    bm, bn, bk, tm, tn = t['bm'], t['bn'], t['bk'], t['tm'], t['tn']
    threads_m, threads_n = bm // tm, bn // tn
    ty, tx, p = 2, 5, 3                 # the thread drawn, and the step p
    fi, fj = 1, 2                       # one accumulator, and its element of C
    e = 384 / max(bm, bn)               # units an element of C
    kd = 56 / bk                        # units a k of the tiles in shared memory (7 for 8-deep k-tiles)
    x0, y0 = 184, 184
    bx, by = x0, y0 - 18 - bk * kd
    ax, ay = x0 - 18 - bk * kd, y0
    rows = thread_rows(t, ty, threads_m)
    cols = thread_cols(t, tx, threads_n)
    c = Canvas(WIDTH, 640, "Step 3: a thread's register tile and the fragments it is built from")
    header(c, 'Step 3: each thread accumulates %s %d x %d tile of C in registers' % (a_n(tm), tm, tn),
           'make figures, from ./step3 --describe: shapes=%s (the larger tile is drawn)' % d3['shapes'])
    # shared memory: b_tile above, a_tile left, row and column p
    c.rect(bx, by, bn * e, bk * kd, fill=B_FILL)
    c.rect(ax, ay, bk * kd, bm * e, fill=A_FILL)
    c.rect(bx, by + p * kd, bn * e, kd, fill='#a6dfc4')
    c.rect(ax + p * kd, ay, kd, bm * e, fill='#a9cfee')
    for q in cols:
        c.rect(bx + q * e, by + p * kd, e, kd, fill=B_INK)
    for r in rows:
        c.rect(ax + p * kd, ay + r * e, kd, e, fill=A_INK)
    grid(c, bx, by, bk, 1, bn * e, kd, color='#b8e4cf')
    grid(c, ax, ay, 1, bk, kd, bm * e, color='#b7d7ef')
    c.rect(bx, by, bn * e, bk * kd, stroke=B_INK, width=1.2)
    c.rect(ax, ay, bk * kd, bm * e, stroke=A_INK, width=1.2)
    c.text(bx, by - 8, 'b_tile[%d][%d] in shared memory; row p: %d values at tx + %dj' % (bk, bn, tn, threads_n),
           12, B_INK)
    for i, line in enumerate(['a_tile[%d][%d]' % (bm, bk), 'in shared', 'memory;', 'column p:', '%d values' % tm,
                              'at ty + %di' % threads_m]):
        c.text(ax - 8, ay + 12 + 16 * i, line, 12, A_INK, anchor='end')
    # the block's tile of C and the thread's elements
    c.rect(x0, y0, bn * e, bm * e, fill=C_FILL)
    grid(c, x0, y0, bm // threads_m, bn // threads_n, threads_n * e, threads_m * e, color='#e7cfa9')
    for r in rows:
        for q in cols:
            c.rect(x0 + q * e, y0 + r * e, e, e, fill=THREAD)
    c.rect(x0 + cols[fj] * e - 2, y0 + rows[fi] * e - 2, e + 4, e + 4, stroke=INK, width=1.5)
    c.rect(x0, y0, bn * e, bm * e, stroke=INK, width=1.2)
    c.text(x0 + bn * e / 2, y0 + bm * e + 22, "the block's %d x %d tile of C: thread (ty, tx) = (%d, %d) owns the "
           'marked %d' % (bm, bn, ty, tx, tm * tn), 12.5, INK, anchor='middle')
    c.text(x0 + bn * e / 2, y0 + bm * e + 40, 'elements, rows ty + %di and columns tx + %dj, i, j = 0..%d'
           % (threads_m, threads_n, tm - 1), 12.5, INK, anchor='middle')

    # the thread's registers
    rx, cell = 664, 22
    c.text(rx - 40, by + 10, 'the registers of thread (%d, %d)' % (ty, tx), 13, GREY, bold=True)
    fy = by + 52
    ay2 = fy + cell + 12
    c.text(rx + tn * cell / 2, fy - 8, 'b_frag[%d]: b_tile[p][tx + %dj]' % (tn, threads_n), 12, B_INK,
           anchor='middle')
    for j in range(tn):
        c.rect(rx + j * cell, fy, cell, cell, fill=B_INK, stroke='#ffffff', width=1)
    for i in range(tm):
        c.rect(rx - cell - 12, ay2 + i * cell, cell, cell, fill=A_INK, stroke='#ffffff', width=1)
        for j in range(tn):
            c.rect(rx + j * cell, ay2 + i * cell, cell, cell, fill=THREAD, stroke='#ffffff', width=1)
    c.rect(rx + fj * cell - 1, ay2 + fi * cell - 1, cell + 2, cell + 2, stroke=INK, width=2)
    c.text(rx - cell - 12 + cell / 2, ay2 + tm * cell + 18, 'a_frag[%d]' % tm, 12, A_INK, anchor='middle')
    c.text(rx + tn * cell / 2, ay2 + tm * cell + 18, 'acc[%d][%d]' % (tm, tn), 12, C_INK, anchor='middle')
    y = ay2 + tm * cell + 48
    kw = WIDTH - 24 - (rx - 40)
    y = para(c, rx - 40, y, 'At each step p: %d loads of a_frag from %s, %d of b_frag from %s, then %s: %d FMAs '
             'for %d loads from shared memory (step 2: %d for %d).'
             % (tm, nb('a_tile[ty + %di][p]' % threads_m), tn, nb('b_tile[p][tx + %dj]' % threads_n),
                nb('acc[i][j] += a_frag[i] * b_frag[j]'), tm * tn, tm + tn, before['tm'] * before['tn'],
                before['tm'] + before['tn']), kw, 12) + 8
    y = key(c, rx - 40, y, '#ffffff', 'acc[%d][%d] accumulates %s: the element marked in the tile'
            % (fi, fj, nb('C[ty + %d][tx + %d]' % (rows[fi] - ty, cols[fj] - tx))), kw, stroke=INK, stroke_width=2,
            size=12) + 8
    if len(tiles) > 1:
        s2 = tiles[1]
        y = para(c, rx - 40, y, 'Where %s tiles are fewer than the SMs, the launch takes %s tiles of %s a thread '
                 'instead.' % (nb('%d x %d' % (bm, bn)), nb('%d x %d' % (s2['bm'], s2['bn'])),
                               nb('%d x %d' % (s2['tm'], s2['tn']))), kw, 12, GREY)
    c.height = max(y, y0 + bm * e + 40 + 12) + 6
    return c

# --- step 4: 128-bit loads, A transposed -------------------------------------------------------------

PAD_FILL = '#dcdcdc'


def fig_vectorize(d3, d4):
    t3, t = shapes(d3)[0], shapes(d4)[0]
    bm, bn, bk, tm, tn, piece, pad = t['bm'], t['bn'], t['bk'], t['tm'], t['tn'], t['piece'], t['a_pad']
    if pad < 0:
        raise Fail('%s --describe: shapes=%s: A is not stored transposed, and this figure shows it so'
                   % (d4['_binary'], d4['shapes']))
    threads_m, threads_n = bm // tm, bn // tn
    ty, tx, p = 3, 5, 9                  # the thread drawn, the step p
    r0, k4 = 40, 1                       # the row of A whose float4 k4 is followed into a_tile
    brow, b4 = 1, 2                      # the row of B and its float4 followed into b_tile
    c = Canvas(WIDTH, 800, 'Step 4: 128-bit loads and stores, A transposed in shared memory')
    header(c, 'Step 4: four floats an instruction, A transposed in shared memory',
           'make figures, from ./step4 --describe: shapes=%s (the larger tile is drawn)' % d4['shapes'])
    # global A: its k-tile's first rows, in float4 pieces
    g, gx, gy, grows, first = 14, 40, 108, 6, r0 - 2
    c.text(24, 82, 'global memory: A\'s k-tile, %d rows of %d, row-major (rows %d..%d drawn)'
           % (bm, bk, first, first + grows - 1), 12.5, A_INK)
    c.rect(gx, gy, bk * g, grows * g, fill=A_FILL)
    c.rect(gx + k4 * piece * g, gy + (r0 - first) * g, piece * g, g, fill=A_INK)
    grid(c, gx, gy, grows, bk, g, g, color='#b7d7ef', strong=A_INK, strong_every=piece)
    c.rect(gx, gy, bk * g, grows * g, stroke=A_INK, width=1.2)
    for r in range(grows):
        c.text(gx - 6, gy + r * g + g - 3, str(first + r), 10, GREY, anchor='end')
    tx1 = gx + bk * g + 24
    para(c, tx1, gy + 10, 'One LDG.E.128 loads %d consecutive k of one row of A (k = %d..%d of row %d, dark). '
         'In shared memory A\'s k-tile is stored transposed, a_tile[p][r] = A[r][p], so that the %d values of A '
         'a thread needs at step p lie side by side, like B\'s: its %d stores go down column %d of a_tile.'
         % (piece, k4 * piece, k4 * piece + piece - 1, r0, tm, piece, r0), 400, 12)
    # the thread's tile of C, in float4-wide pieces
    cs = 1.1
    cx, cy = WIDTH - 24 - bn * cs, 70
    rows, cols = thread_rows(t, ty, threads_m), thread_cols(t, tx, threads_n)
    c.rect(cx, cy, bn * cs, bm * cs, fill=C_FILL)
    for r in rows:
        for q in cols:
            c.rect(cx + q * cs, cy + r * cs, cs, cs, fill=THREAD)
    c.rect(cx, cy, bn * cs, bm * cs, stroke=INK, width=1)
    para(c, cx - 4, cy + bm * cs + 16, 'thread (%d, %d)\'s %s tile of C: %d pieces of %s, stored with STG.E.128'
         % (ty, tx, nb('%d x %d' % (tm, tn)), (tm // piece) * (tn // piece), nb('%d x %d' % (piece, piece))),
         bn * cs + 8, 11.5, C_INK)

    # a_tile[BK][BM + pad]
    w, h = 5.0, 12
    ax, ay = 100, 300
    cols_a = bm + pad
    c.text(ax, ay + bk * h + 18, 'a_tile[%d][%d] in shared memory: A\'s k-tile transposed, each row padded by '
           'A_PAD = %d floats' % (bk, cols_a, pad), 12.5, A_INK)
    c.rect(ax, ay, bm * w, bk * h, fill=A_FILL)
    c.rect(ax + bm * w, ay, pad * w, bk * h, fill=PAD_FILL)
    c.rect(ax + r0 * w, ay + k4 * piece * h, w, piece * h, fill=A_INK)
    grid(c, ax, ay, bk, cols_a, w, h, color='#c4ddf0')
    for q in range(0, bm + 1, 32):
        c.text(ax + q * w, ay - 8, 'r = %d' % q if q == 0 else str(q), 10, GREY, anchor='start' if q == 0 else 'middle')
    for pp in range(bk):
        c.text(ax - 6, ay + pp * h + h - 2.5, 'p = %d' % pp if pp == 0 else str(pp), 10, GREY, anchor='end')
    for q4 in range(tm // piece):
        c.rect(ax + (q4 * piece * threads_m + ty * piece) * w, ay + p * h, piece * w, h, fill=THREAD)
    c.rect(ax, ay, cols_a * w, bk * h, stroke=A_INK, width=1.2)
    c.text(ax + cols_a * w + 6, ay + bk * h / 2 + 4, 'pad', 11, GREY)
    # the float4 of A into its column
    fx = gx + (k4 * piece + piece / 2) * g
    ym = gy + grows * g + 24
    c.arrow([(fx, gy + (r0 - first) * g + g), (fx, ym), (ax + r0 * w + w / 2, ym),
             (ax + r0 * w + w / 2, ay + k4 * piece * h - 1)], A_INK, 1.5, head=6)
    c.text(ax + r0 * w + 12, ym + 22, '%d stores (STS.32) down column r = %d, rows p = %d..%d'
           % (piece, r0, k4 * piece, k4 * piece + piece - 1), 11.5, A_INK)

    # b_tile[BK][BN], and a float4 of B into it
    bw, bh = 4.5, 8
    bx, by = WIDTH - 24 - bn * bw, ay + bk * h + 80
    c.rect(bx, by, bn * bw, bk * bh, fill=B_FILL)
    c.rect(bx + b4 * piece * bw, by + brow * bh, piece * bw, bh, fill=B_INK)
    for q4 in range(tn // piece):
        c.rect(bx + (q4 * piece * threads_n + tx * piece) * bw, by + p * bh, piece * bw, bh, fill=THREAD)
    grid(c, bx, by, bk, bn // piece, piece * bw, bh, color='#b8e4cf')
    c.rect(bx, by, bn * bw, bk * bh, stroke=B_INK, width=1.2)
    c.text(bx, by - 8, 'b_tile[%d][%d] in shared memory (float4 pieces marked)' % (bk, bn), 12.5, B_INK)
    gbx, gby = 40, by + 22
    c.text(24, by - 8, 'global memory: B\'s k-tile (a corner)', 12.5, B_INK)
    c.rect(gbx, gby, 12 * g, 3 * g, fill=B_FILL)
    c.rect(gbx + b4 * piece * g, gby + brow * g, piece * g, g, fill=B_INK)
    grid(c, gbx, gby, 3, 12, g, g, color='#b8e4cf', strong=B_INK, strong_every=piece)
    c.rect(gbx, gby, 12 * g, 3 * g, stroke=B_INK, width=1.2)
    c.arrow([(gbx + (b4 + 1) * piece * g, gby + brow * g + g / 2), (bx - 30, gby + brow * g + g / 2),
             (bx - 30, by + brow * bh + bh / 2), (bx + b4 * piece * bw - 2, by + brow * bh + bh / 2)], B_INK, 1.5,
            head=6)
    para(c, 24, gby + 3 * g + 22, 'B is not transposed: its float4 goes to shared memory as it is, one STS.128.',
         bx - 70, 12)

    # the key
    ky = by + bk * bh + 36
    y = key(c, 24, ky, THREAD, 'thread (ty, tx) = (%d, %d) at step p = %d: its fragments are %d float4 of a_tile '
            '(rows %s) and %d of b_tile (columns likewise): %d LDS.128 for %d FMAs, where step 3 made %d 32-bit '
            'loads for %d.' % (ty, tx, p, tm // piece, nb('%d*ty + {0..%d}' % (piece, piece - 1)) +
                               (' and %s' % nb('%d + %d*ty + {0..%d}' % (piece * threads_m, piece, piece - 1))
                                if tm // piece > 1 else ''),
                               tn // piece, (tm + tn) // piece, tm * tn, t3['tm'] + t3['tn'], t3['tm'] * t3['tn']),
            WIDTH - 48)
    y = para(c, 46, y + 2, 'Rows of %d + %d = %d floats (%d mod 32): a warp\'s transposed stores spread over the '
             'shared-memory banks.' % (bm, pad, cols_a, cols_a % 32), WIDTH - 70, 12, GREY)
    c.height = y + 2
    return c

# --- step 5: the pipeline --------------------------------------------------------------------------

def pipeline_panel(c, y, stages, bk, kt_count, x0, tile_w, pro_w, title):
    """The ring of `stages` stages over time, k-tiles 0 .. kt_count - 1 (k-tile t in SERIES[t]):
    the copies in flight, what each stage holds, the FMAs, and the one barrier a k-tile.
    Returns the y below it."""
    c.text(24, y, title, 13, INK, bold=True)
    y += 14
    sl = tile_w / bk
    start = x0 + pro_w                                   # the main loop's first slice
    end = start + kt_count * tile_w

    def at(t, slice_):                                   # the start of slice `slice_` of k-tile t
        return start + t * tile_w + slice_ * sl

    def barrier(t):                                      # the wait and barrier before k-tile t's frags
        return x0 + pro_w - 8 if t == 0 else at(t - 1, bk - 1)

    lanes = max(1, stages - 1)                           # copies in flight at once
    rows = [('copies in flight', lanes)] + [('stage s%d' % s, 1) for s in range(stages)] + [('FMAs', 1)]
    h, gap = 22, 6
    ys, yy = {}, y
    for name, n in rows:
        ys[name] = yy
        c.rect(x0, yy, end - x0, n * h + (n - 1) * 2, fill='#f7f7f7')
        c.text(x0 - 10, yy + (n * h + (n - 1) * 2) / 2 + 4.5, name, 12, INK, anchor='end')
        yy += n * h + (n - 1) * 2 + gap
    bottom = yy - gap
    total = kt_count + stages                            # k-tiles whose copies are drawn
    for t in range(total):
        col, fill = SERIES[t % len(SERIES)], SERIES_FILL[t % len(SERIES_FILL)]
        issue = x0 + 8 + t * 16 if t <= stages - 2 else at(t - (stages - 1), 0)
        land = barrier(t)
        if issue >= end:
            continue
        lane = t % lanes
        cy = ys['copies in flight'] + lane * (h + 2)
        c.rect(issue, cy + 3, min(land, end) - issue, h - 6, fill=col)
        label_x = max(issue, barrier(0)) + 5          # clear of the prefetch's barrier
        if min(land, end) - label_x > 70:
            c.text(label_x, cy + h / 2 + 4, 'k-tile %d \u2192 s%d' % (t, t % stages), 11, '#ffffff')
        # the stage: filling, then read until the barrier of its own k-tile frees it
        sy = ys['stage s%d' % (t % stages)]
        c.rect(issue, sy + 3, min(land, end) - issue, h - 6, fill=fill)
        if land < end:
            free = min(barrier(t + 1), end)
            c.rect(land, sy + 3, free - land, h - 6, fill=col)
            if free - land > 40:
                c.text(land + 5, sy + h / 2 + 4, 'k-tile %d' % t, 11, '#ffffff')
    for t in range(kt_count):
        col = SERIES[t % len(SERIES)]
        fy = ys['FMAs']
        c.rect(at(t, 0), fy + 3, tile_w, h - 6, fill=col)
        for q in range(1, bk):
            c.rect(at(t, q) - 0.5, fy + 3, 1, h - 6, fill='#ffffff')
        c.text(at(t, 0) + tile_w / 2, y - 3, 'k-tile %d' % t, 11, col, anchor='middle')
    c.text(x0 + pro_w / 2, y - 3, 'prefetch', 11, GREY, anchor='middle')
    for t in range(kt_count + 1):
        bxx = barrier(t)
        if bxx < end:
            c.rect(bxx - 1, y + 1, 2, bottom - y + 5, fill=BARRIER)
    c.text(end + 6, ys['FMAs'] + h / 2 + 4, '...', 12, GREY)
    return bottom


def fig_pipeline(d5):
    t = shapes(d5)[0]
    bk = t['bk']
    default, most = int(need(d5, 'default_stages')), int(need(d5, 'max_stages'))
    shown = [default] + ([default + 1] if default + 1 <= most else [])
    c = Canvas(WIDTH, 700, 'Step 5: the ring of shared-memory stages over time')
    header(c, 'Step 5: a ring of stages, the copies in flight beside the FMAs, one barrier a k-tile',
           'make figures, from ./step5 --describe: shapes=%s default_stages=%d max_stages=%d'
           % (d5['shapes'], default, most))
    x0, pro_w, kt_count = 150, 64, 4
    tile_w = (WIDTH - 40 - x0 - pro_w) / kt_count
    y = 92
    for stages in shown:
        title = '%d stages%s: %d cop%s in flight while a k-tile\'s %d slices of FMAs run' % (
            stages, ' (the default, --stages %d)' % stages if stages == default else ' (--stages %d)' % stages,
            stages - 1, 'y' if stages == 2 else 'ies', bk)
        y = pipeline_panel(c, y, stages, bk, kt_count, x0, tile_w, pro_w, title) + 44
    y -= 14
    y = key(c, 24, y, BARRIER, 'at the last slice of each k-tile: wait until the next k-tile\'s copy has landed '
            '(cp.async.wait_group), then the one barrier (__syncthreads()): it makes that k-tile visible to every '
            'thread, and frees the stage just read, which the copy issued at the next slice 0 refills.',
            WIDTH - 48) + 6
    y = key(c, 24, y, SERIES[1], 'a copy of k-tile t (cp.async, global to shared, no register in between) goes '
            'into stage t mod S, issued at slice 0 of k-tile t - (S - 1): S - 1 k-tiles ahead of its FMAs.',
            WIDTH - 48) + 6
    y = key(c, 24, y, SERIES_FILL[1], 'a stage being filled (lighter), then read (darker) until the barrier of its '
            'own k-tile.', WIDTH - 48) + 6
    y = para(c, 24, y, 'Not drawn: the fragments of slice p + 1 load from shared memory into registers while slice '
             'p\'s FMAs run, across k-tiles too (two sets of registers).', WIDTH - 48, 12, GREY)
    c.height = y + 4
    return c

# --- step 6: the loop unrolled -------------------------------------------------------------------------

def code_box(c, x, y, w, title, lines, size=12):
    """A box of code lines under a bold title; returns its bottom."""
    c.text(x, y, title, 12.5, INK, bold=True)
    h = 14 + len(lines) * size * 1.45
    c.rect(x, y + 8, w, h, fill='#f6f6f6', stroke='#d0d0d0', width=1)
    for i, line in enumerate(lines):
        c.text(x + 12, y + 8 + 8 + (i + 1) * size * 1.45 - 4, line, size, INK)
    return y + 8 + h


def fig_unroll(d6):
    stages_list = ints(need(d6, 'unrolled_stages'), ',', d6, 'unrolled_stages')
    S = stages_list[0]
    bk = shapes(d6, 'unrolled_shapes')[0]['bk']
    rolled_bk = shapes(d6)[0]['bk']
    default = int(need(d6, 'default_stages'))
    most = int(need(d6, 'max_stages'))
    n = 3 * S                                           # k-tiles drawn: three trips
    c = Canvas(WIDTH, 640, 'Step 6: the pipeline\'s loop unrolled by its stage count')
    header(c, 'Step 6: the loop unrolled by its %d stages: every stage index a constant' % S,
           'make figures, from ./step6 --describe: unrolled_stages=%s unrolled_shapes=%s default_stages=%d'
           % (d6['unrolled_stages'], d6['unrolled_shapes'], default))

    def write_of(pipe):
        return S - 1 if pipe == 0 else pipe - 1

    def next_of(pipe):
        return 0 if pipe + 1 == S else pipe + 1

    w = (WIDTH - 48 - 20) / 2
    y1 = code_box(c, 24, 80, w, "step 5's loop: one body, the stages in registers",
                  ['for (k_tile = 0; k_tile < k_tile_count; k_tile++) {',
                   '    next = read + 1 == %d ? 0 : read + 1;' % S,
                   '    k_tile_body(read, write, next, ...);',
                   '    write = read;',
                   '    read = next;',
                   '}'])
    y2 = code_box(c, 24 + w + 20, 80, w, 'step 6: %d bodies a trip, each stage a constant' % S,
                  ['for (base = 0; base < k_tile_count; base += %d) {' % S] +
                  ['    k_tile_body(%d, %d, %d, ...);   // pipe %d' % (p, write_of(p), next_of(p), p) for p in range(S)] +
                  ['}'] + [''] * max(0, 6 - S - 2))
    y = max(y1, y2) + 40

    # the k-tiles, and the stages each body reads, refills and takes its next slice 0 from
    x0, cw = 230, (WIDTH - 24 - 230) / n
    sub = ['reads', 'refills for k-tile + %d' % (S - 1), 'next from']
    c.text(x0 - 10, y, 'k-tile', 12, GREY, anchor='end')
    for k in range(n):
        c.text(x0 + k * cw + cw / 2, y, str(k), 12, GREY, anchor='middle')
    y += 12
    rh = 20
    for variant in ('step 5', 'step 6'):
        c.text(24, y + 15, variant + "'s loop" if variant == 'step 5' else 'step 6, unrolled', 12.5, INK, bold=True)
        for i, name in enumerate(sub):
            c.text(x0 - 10, y + i * rh + 14, name, 12, INK, anchor='end')
        for k in range(n):
            pipe = k % S
            vals = [pipe, write_of(pipe), next_of(pipe)]
            for i, v in enumerate(vals):
                bx, by = x0 + k * cw + 4, y + i * rh + 2
                if variant == 'step 5':
                    c.rect(bx, by, cw - 8, rh - 4, fill='#ffffff', stroke='#bdbdbd', width=1)
                    c.text(bx + (cw - 8) / 2, by + rh - 8, ['read', 'write', 'next'][i], 10.5, GREY,
                           anchor='middle')
                else:
                    c.rect(bx, by, cw - 8, rh - 4, fill=SERIES[v])
                    c.text(bx + (cw - 8) / 2, by + rh - 8, 's%d' % v, 11, '#ffffff', anchor='middle', bold=True)
        y += 3 * rh + 4
        # the loop: back after every body (step 5), after every S bodies (step 6)
        span = 1 if variant == 'step 5' else S
        for k in range(0, n, span):
            lx0, lx1 = x0 + k * cw + 6, x0 + (k + span) * cw - 6
            c.arrow([(lx1, y), (lx1, y + 10), (lx0, y + 10), (lx0, y + 1)], GREY, 1.2, head=5)
            if variant == 'step 6':
                c.text((lx0 + lx1) / 2, y + 26, 'trip: base = %d' % k, 11, GREY, anchor='middle')
        y += 46 if variant == 'step 6' else 30
    keyw = WIDTH - 48
    y = key(c, 24, y, '#ffffff', 'step 5: the same machine code for every k-tile; which stage it reads, refills and '
            'loads the next slice 0 from are registers, worked out and stepped round the ring each k-tile, and every '
            'shared-memory address is built from them.', keyw, stroke='#bdbdbd') + 6
    y = key(c, 24, y, SERIES[0], 'step 6: one body for each stage, %d a trip; in the body for pipe p the stage '
            'read is s(p), the stage refilled the one before it and the next one after it: constants folded into the '
            'addresses.' % S, keyw) + 6
    others = [s_ for s_ in range(2, most + 1) if s_ not in stages_list]
    y = para(c, 24, y, 'Each body is one k-tile of %d slices (k-tiles %d deep at %s stages, where step 6 unrolls; '
             'step 5\'s are %d deep): the copy at slice 0, the wait and the one barrier at slice %d. At %s stages '
             'step 6 keeps step 5\'s loop.' % (bk, bk, ' and '.join(map(str, stages_list)), rolled_bk, bk - 1,
                                                  ' and '.join(map(str, others)) or 'other'), keyw, 12, GREY)
    c.height = y + 4
    return c

# --- going further, 1: warp tiles -------------------------------------------------------------------

def wavefronts(float4s):
    """Shared-memory wavefronts (128 bytes each) for a warp's LDS.128 of this many distinct float4."""
    return (16 * float4s + 127) // 128


def tile_panel(c, x, y, e, bm, bn, rows_of, cols_of, warp_rows, warp_cols, title, outlines=()):
    """A block tile with warp 0's elements (light) and lane 0's (thread 0's, dark); outlines: warp tiles."""
    c.rect(x, y, bn * e, bm * e, fill=C_FILL)
    cells(c, x, y, e, warp_rows, warp_cols, WARP_FILL)
    grid(c, x, y, bm // 4, bn // 4, 4 * e, 4 * e, color='#f1dbb8')
    cells(c, x, y, e, rows_of, cols_of, THREAD)
    for (r0, q0, h, w, label) in outlines:
        c.rect(x + q0 * e, y + r0 * e, w * e, h * e, stroke=WARP, width=1.2)
        c.text(x + (q0 + w / 2) * e, y + (r0 + h / 2) * e + 4, label, 11, WARP, anchor='middle')
    c.rect(x, y, bn * e, bm * e, stroke=INK, width=1.2)
    c.text(x, y - 10, title, 12.5, INK, bold=True)


def fig_warp_tiles(d6):
    core = shapes(d6)[0]
    wt = track_tiles(d6)['large']
    bm, bn = core['bm'], core['bn']
    e = 2.9
    c = Canvas(WIDTH, 700, 'Going further, 1: warp tiles')
    header(c, 'Going further, 1: warp tiles: a warp\'s fragment loads in one wavefront',
           'make figures, from ./step6 --describe: shapes=%s track_tiles=large:%dx%dx%d:%dx%d:%dx%d:...'
           % (d6['shapes'], wt['bm'], wt['bn'], wt['bk'], wt['wm'], wt['wn'], wt['tm'], wt['tn']))
    # the core: threads laid over the whole tile, as in step 5
    threads_m, threads_n = core['bm'] // core['tm'], core['bn'] // core['tn']
    warp_ty = 32 // threads_n
    c_rows = thread_rows(core, 0, threads_m)
    c_cols = thread_cols(core, 0, threads_n)
    c_wrows = sorted({r for ty in range(warp_ty) for r in thread_rows(core, ty, threads_m)})
    c_wcols = sorted({q for tx in range(threads_n) for q in thread_cols(core, tx, threads_n)})
    x1, x2, y0 = 44, WIDTH - 44 - bn * e, 104
    tile_panel(c, x1, y0, e, bm, bn, c_rows, c_cols, c_wrows, c_wcols, "step 6's core: threads across the tile")
    # warp tiles: warp w owns a WM x WN tile, its lanes a grid of thread tiles in it
    lanes_m, lanes_n = wt['wm'] // wt['tm'], wt['wn'] // wt['tn']
    warps_n = wt['bn'] // wt['wn']
    pw = dict(piece=4, tm=wt['tm'], tn=wt['tn'])
    w_rows = thread_rows(pw, 0, lanes_m)
    w_cols = thread_cols(pw, 0, lanes_n)
    w_wrows = list(range(wt['wm']))
    w_wcols = list(range(wt['wn']))
    outlines = [((w // warps_n) * wt['wm'], (w % warps_n) * wt['wn'], wt['wm'], wt['wn'], '' if w == 0 else 'warp %d' % w)
                for w in range((wt['bm'] // wt['wm']) * warps_n)]
    tile_panel(c, x2, y0, e, wt['bm'], wt['bn'], w_rows, w_cols, w_wrows, w_wcols,
               'warp tiles: warp w owns a %s tile' % nb('%d x %d' % (wt['wm'], wt['wn'])), outlines)

    # one LDS.128 of B across the warp (its first float4 of each thread)
    def b_strip(x, cols_read, float4s):
        sy = y0 + bm * e + 26
        c.rect(x, sy, bn * e, 12, fill=B_FILL)
        for q in cols_read:
            c.rect(x + q * e, sy, e, 12, fill=B_INK)
        grid(c, x, sy, 1, bn // 4, 4 * e, 12, color='#ffffff')
        c.rect(x, sy, bn * e, 12, stroke=B_INK, width=1)
        y = para(c, x, sy + 30, 'a row of b_stage: what one LDS.128 of B reads across the warp: %d float4, %d bytes, '
                 '%d wavefront%s' % (float4s, 16 * float4s, wavefronts(float4s), '' if wavefronts(float4s) == 1 else 's'),
                 bn * e, 12, B_INK)
        return y
    core_b = sorted({tx * 4 + q for tx in range(threads_n) for q in range(4)})
    warp_b = sorted({ln * 4 + q for ln in range(lanes_n) for q in range(4)})
    ya = b_strip(x1, core_b, threads_n)
    yb = b_strip(x2, warp_b, lanes_n)
    y = max(ya, yb) + 10
    core_wf = (core['tm'] // 4) * wavefronts(warp_ty) + (core['tn'] // 4) * wavefronts(threads_n)
    warp_wf = (wt['tm'] // 4) * wavefronts(lanes_m) + (wt['tn'] // 4) * wavefronts(lanes_n)
    y = key(c, 24, y, THREAD, 'thread 0\'s %s tile: four %s pieces, as in step 5; and warp 0\'s threads (light):'
            ' in the core two %d-row bands across all %d columns, in warp tiles a %s tile, its lanes a %s grid.'
            % (nb('%d x %d' % (core['tm'], core['tn'])), nb('4 x 4'), 4 * warp_ty, bn,
               nb('%d x %d' % (wt['wm'], wt['wn'])), nb('%d x %d' % (lanes_m, lanes_n))), WIDTH - 48) + 6
    y = para(c, 24, y, 'A k-slice\'s fragments then cost a warp %d wavefronts of shared memory instead of %d, for the '
             'same %d FMAs a thread.' % (warp_wf, core_wf, core['tm'] * core['tn']), WIDTH - 48, 12.5)
    c.height = y + 4
    return c


# --- going further, 2: split K over a cluster ----------------------------------------------------------

def fig_split_k(d6):
    ex = example(d6, 'split_k_example')
    tiles_ = track_tiles(d6)
    t = tiles_[ex['tile']]
    sms = int(need(d6, 'example_sms'))
    split, k_tiles = ex['split'], ex['k_tiles']
    each = (k_tiles + split - 1) // split
    rows_each = t['bm'] // split
    c = Canvas(WIDTH, 700, 'Going further, 2: split K over a cluster')
    header(c, 'Going further, 2: K split over the %d blocks of a cluster' % split,
           'make figures, from ./step6 --describe: split_k_example=%s example_sms=%d'
           % (shown_words(d6['split_k_example'], 'parts', 'runs'), sms))
    # C and its tiles
    m, n = ex['m'], ex['n']
    tm_, tn_ = (m + t['bm'] - 1) // t['bm'], (n + t['bn'] - 1) // t['bn']
    cs = 200 / max(tm_, tn_)
    cx, cy = 24, 96
    for r in range(tm_):
        for q in range(tn_):
            c.rect(cx + q * cs, cy + r * cs, cs, cs, fill=C_INK if (r, q) == (0, 0) else C_FILL, stroke='#ffffff',
                   width=1)
    c.rect(cx, cy, tn_ * cs, tm_ * cs, stroke=INK, width=1.2)
    y = para(c, cx, cy + tm_ * cs + 20, '%s: %d tiles of %s for %d SMs. Each tile is one cluster of %d blocks: '
             '%d blocks.' % (nb('%d x %d x %d' % (m, n, ex['k'])), ex['tiles'], nb('%d x %d' % (t['bm'], t['bn'])), sms,
                             split, ex['blocks']), 200, 12)
    # the tile's k-tiles, shared by the blocks of its cluster
    kx, ky, kw = 270, 96, WIDTH - 24 - 270
    c.text(kx, ky + 10, "the tile's K: %d k-tiles of %d, a share of %d k-tiles to each block (rank r)"
           % (k_tiles, t['bk'], each), 12.5, INK)
    seg = kw / k_tiles
    for r in range(split):
        lo, hi = r * each, min(k_tiles, (r + 1) * each)
        c.rect(kx + lo * seg, ky + 20, (hi - lo) * seg, 22, fill=SERIES[r])
    grid(c, kx, ky + 20, 1, k_tiles, seg, 22, color='#ffffff')
    for r in range(split):
        lo, hi = r * each, min(k_tiles, (r + 1) * each)
        c.rect(kx + (lo + hi) / 2 * seg - 62, ky + 24, 124, 14, fill=SERIES[r])
        c.text(kx + (lo + hi) / 2 * seg, ky + 35, 'block %d: k-tiles %d..%d' % (r, lo, hi - 1), 11, '#ffffff',
               anchor='middle')
    # each block's partial tile in its own shared memory, and the rows block 1 adds up
    py = ky + 80
    c.text(kx, py, 'one cluster: %d blocks at once on one GPC, each with its partial tile p(r) in its own shared '
           'memory' % split, 12.5, INK)
    pw_ = 112
    gapx = (kw - split * pw_) / max(1, split - 1)
    ps = pw_ / t['bn']
    ph = t['bm'] * ps
    mine = 1                                            # the block whose sum is drawn
    for r in range(split):
        bx = kx + r * (pw_ + gapx)
        c.rect(bx - 8, py + 12, pw_ + 16, ph + 40, fill=SHARED, stroke='#b5ab8c', width=1)
        c.text(bx + pw_ / 2, py + 28, 'block %d' % r, 11.5, INK, anchor='middle', bold=True)
        c.rect(bx, py + 36, pw_, ph, fill=SERIES_FILL[r])
        c.rect(bx, py + 36 + mine * rows_each * ps, pw_, rows_each * ps, fill='#ffffff')
        c.rect(bx, py + 36 + mine * rows_each * ps, pw_, rows_each * ps, stroke=SERIES[mine], width=1.5)
        c.text(bx + pw_ / 2, py + 36 + (mine + 0.5) * rows_each * ps + 4, 'rows %d..%d' % (
            mine * rows_each, (mine + 1) * rows_each - 1), 10.5, SERIES[mine], anchor='middle')
        c.rect(bx, py + 36, pw_, ph, stroke=SERIES[r], width=1.2)
        c.text(bx + pw_ / 2, py + 36 + ph - 6, 'p%d' % r, 12, INK, anchor='middle', bold=True)
    # block 1's sum of those rows, in rank order, into its rows of C
    oty = py + 36 + ph + 24 + 80
    sbx, sbw, sbh = kx, 290, 30
    sby = oty + (mine + 0.5) * rows_each * ps - sbh / 2
    c.rect(sbx, sby, sbw, sbh, fill='#ffffff', stroke=SERIES[mine], width=1.5)
    c.text(sbx + sbw / 2, sby + sbh / 2 + 4.5, 'block %d, rows %d..%d: %s' % (
        mine, mine * rows_each, (mine + 1) * rows_each - 1, ' + '.join('p%d' % r for r in range(split))),
           12.5, INK, anchor='middle')
    for r in range(split):
        bx = kx + r * (pw_ + gapx)
        c.arrow([(bx + pw_ / 2, py + 36 + ph + 10), (sbx + sbw * (r + 0.5) / split, sby - 3)], SERIES[mine], 1.3,
                head=6)
    ox = sbx + sbw + 70
    for r in range(split):
        c.rect(ox, oty + r * rows_each * ps, pw_, rows_each * ps, fill=SERIES[r] if r == mine else SERIES_FILL[r])
        c.text(ox + pw_ + 10, oty + (r + 0.5) * rows_each * ps + 4, 'rows %d..%d: block %d' % (
            r * rows_each, (r + 1) * rows_each - 1, r), 11.5, SERIES[r])
    c.rect(ox, oty, pw_, ph, stroke=INK, width=1.2)
    c.text(ox + pw_ / 2, oty - 8, 'the tile of C', 12, C_INK, anchor='middle')
    c.arrow([(sbx + sbw + 2, sby + sbh / 2), (ox - 3, sby + sbh / 2)], SERIES[mine], 1.6)
    y2 = oty + ph + 26
    y2 = key(c, kx, y2, SERIES[mine], 'after cluster.sync(), block r adds rows %s of every partial tile, read '
             'through distributed shared memory (cluster.map_shared_rank), in rank order, and writes them to C: the '
             'same sum every launch; no workspace, no second kernel.'
             % nb('%d r .. %d r + %d' % (rows_each, rows_each, rows_each - 1)), kw)
    c.height = max(y, y2) + 4
    return c


# --- going further, 3: wide tiles in a lean loop ------------------------------------------------------

def fig_wide_tiles(d6):
    tiles_ = track_tiles(d6)
    wt, lt = tiles_['wide'], tiles_['large']
    a_parts, b_parts = ints(need(d6, 'wide_copies'), ':', d6, 'wide_copies')
    stages = int(need(d6, 'default_stages'))
    bk = wt['bk']
    c = Canvas(WIDTH, 700, 'Going further, 3: wide tiles in a lean loop')
    header(c, 'Going further, 3: %s tiles of %s a thread, in a lean loop' % (nb('%d x %d' % (wt['bm'], wt['bn'])),
                                                                                nb('%d x %d' % (wt['tm'], wt['tn']))),
           'make figures, from ./step6 --describe: track_tiles=...,wide:%dx%dx%d:%dx%d:%dx%d:%d:%d,... wide_copies=%s'
           % (wt['bm'], wt['bn'], wt['bk'], wt['wm'], wt['wn'], wt['tm'], wt['tn'], wt['threads'], wt['min_blocks'],
              d6['wide_copies']))
    e = 1.6
    x0, y0 = 24, 96
    lanes_m, lanes_n = wt['wm'] // wt['tm'], wt['wn'] // wt['tn']
    warps_n = wt['bn'] // wt['wn']
    pw = dict(piece=4, tm=wt['tm'], tn=wt['tn'])
    outlines = [((w // warps_n) * wt['wm'], (w % warps_n) * wt['wn'], wt['wm'], wt['wn'], '' if w == 0 else 'warp %d' % w)
                for w in range((wt['bm'] // wt['wm']) * warps_n)]
    tile_panel(c, x0, y0 + 16, e, wt['bm'], wt['bn'], thread_rows(pw, 0, lanes_m), thread_cols(pw, 0, lanes_n),
               range(wt['wm']), range(wt['wn']), 'a wide tile: %d warps of %s, one block an SM'
               % (len(outlines), nb('%d x %d' % (wt['wm'], wt['wn']))), outlines)
    tx = x0 + wt['bn'] * e + 30
    tw = WIDTH - 24 - tx
    y = key(c, tx, y0 + 18, THREAD, 'thread 0: %d accumulators (%s), where the %s tiles have %d (%s).'
            % (wt['tm'] * wt['tn'], nb('%d x %d' % (wt['tm'], wt['tn'])), nb('%d x %d' % (lt['bm'], lt['bn'])),
               lt['tm'] * lt['tn'], nb('%d x %d' % (lt['tm'], lt['tn']))), tw) + 6
    fma_w, lds_w = wt['tm'] * wt['tn'], (wt['tm'] + wt['tn']) // 4
    fma_l, lds_l = lt['tm'] * lt['tn'], (lt['tm'] + lt['tn']) // 4
    y = para(c, tx, y, 'A k-slice: %d FMAs for %d LDS.128, where it was %d for %d; a block reads %d floats a k '
             'for %d FMAs instead of %d for %d.' % (fma_w, lds_w, fma_l, lds_l, wt['bm'] + wt['bn'],
                                                    wt['bm'] * wt['bn'], lt['bm'] + lt['bn'], lt['bm'] * lt['bn']),
             tw, 12.5) + 6
    y = para(c, tx, y, 'Up to 255 registers a thread: one block of %d threads an SM.' % wt['threads'], tw, 12.5,
             GREY)

    # one k-tile of the two loops, slice by slice
    ly = max(y, y0 + 16 + wt['bm'] * e) + 44
    parts = ['A%d' % i for i in range(a_parts)] + ['B%d' % i for i in range(b_parts)]
    lx, sw_ = 190, (WIDTH - 24 - 190) / bk
    c.text(24, ly, 'one k-tile, slice by slice (%d slices; %d stages):' % (bk, stages), 13, INK, bold=True)
    ly += 16
    for q in range(bk):
        c.text(lx + q * sw_ + sw_ / 2, ly + 4, 'slice %d' % q, 11, GREY, anchor='middle')
    ly += 12
    h = 24
    for name, spread in (("step 6's unrolled pipeline", False), ('the lean loop', True)):
        c.text(24, ly + 4, name, 12.5, INK, bold=True)
        ly += 12
        c.text(lx - 10, ly + h / 2 + 4, 'copies', 12, INK, anchor='end')
        c.text(lx - 10, ly + h + 4 + h / 2 + 4, 'FMAs', 12, INK, anchor='end')
        for q in range(bk):
            c.rect(lx + q * sw_ + 1, ly + h + 4, sw_ - 2, h, fill=C_FILL)
        if spread:
            for i, part in enumerate(parts):
                c.rect(lx + i * sw_ + 3, ly + 3, sw_ - 6, h - 6, fill=A_INK if part[0] == 'A' else B_INK)
                c.text(lx + i * sw_ + sw_ / 2, ly + h / 2 + 4, part, 11, '#ffffff', anchor='middle', bold=True)
            note = 'a part (a row pass) a slice, among the FMAs; one commit at slice %d' % (len(parts) - 1)
            c.text(lx + len(parts) * sw_ + 6, ly + h / 2 + 4, 'commit', 11, GREY)
        else:
            part_w = (sw_ - 6) / len(parts)
            for i, part in enumerate(parts):
                c.rect(lx + 3 + i * part_w, ly + 3, part_w - 1, h - 6, fill=A_INK if part[0] == 'A' else B_INK)
            note = 'all %d parts at slice 0, right after the barrier' % len(parts)
        c.text(lx + sw_ + 8, ly + h / 2 + 4, note if not spread else '', 11, GREY)
        c.rect(lx + (bk - 1) * sw_ - 1, ly - 4, 2.5, 2 * h + 12, fill=BARRIER)
        ly += 2 * h + 4 + 22
    y = key(c, 24, ly, BARRIER, 'slice %d: wait for the next k-tile\'s copy, one barrier. Issued all at once after the '
            'barrier, the copies stalled both warps of a scheduler together; in the lean loop, one k-tile a trip, the '
            'stages it reads and writes are offsets stepping round the ring of %d.' % (bk - 1, stages), WIDTH - 48)
    c.height = y + 4
    return c


# --- going further, 4: the last wave in runs of k-tiles --------------------------------------------------

def fig_stream_k(d6):
    ex = example(d6, 'stream_k_example')
    sms = int(need(d6, 'example_sms'))
    t = track_tiles(d6)[ex['tile']]
    tiles, whole, runs, k_tiles = ex['tiles'], ex['blocks'], ex['runs'], ex['k_tiles']
    left = tiles - whole
    waves = whole // sms
    c = Canvas(WIDTH, 700, 'Going further, 4: the last wave in runs of k-tiles')
    header(c, 'Going further, 4: the last wave, in runs of k-tiles (stream-K)',
           'make figures, from ./step6 --describe: stream_k_example=%s example_sms=%d'
           % (shown_words(d6['stream_k_example'], 'split', 'parts'), sms))
    x0 = 130
    cw = (WIDTH - 24 - x0) / sms
    wh = 30                                            # a wave's height: one tile's k-tiles

    def panel(y, title, tail):
        c.text(24, y, title, 13, INK, bold=True)
        y += 18
        c.text(x0 + cw / 2, y - 2, '0', 10, GREY, anchor='middle')
        c.text(x0 + (sms - 0.5) * cw, y - 2, str(sms - 1), 10, GREY, anchor='middle')
        c.text(x0 + sms * cw / 2, y - 2, 'SM', 10, GREY, anchor='middle')
        y += 6
        for wv in range(waves):
            c.rect(x0, y + wv * wh, sms * cw, wh, fill=SERIES_FILL[wv % 2 * 2])
            c.text(x0 - 10, y + wv * wh + wh / 2 + 4, 'wave %d' % (wv + 1), 11.5, INK, anchor='end')
        c.rules([(x0 + s_ * cw, y, x0 + s_ * cw, y + waves * wh) for s_ in range(1, sms)], '#ffffff', 0.5)
        c.rules([(x0, y + wv * wh, x0 + sms * cw, y + wv * wh) for wv in range(1, waves)], '#ffffff', 1)
        y += waves * wh
        return tail(y)

    def k_whole(y):
        c.rect(x0, y, left * cw, wh, fill=SERIES[0])
        c.rules([(x0 + s_ * cw, y, x0 + s_ * cw, y + wh) for s_ in range(1, left)], '#ffffff', 0.5)
        c.rules([(x0 + s_ * cw, y, x0 + s_ * cw, y + wh) for s_ in range(left + 1, sms)], '#d9d9d9', 0.5)
        c.text(x0 - 10, y + wh / 2 + 4, 'wave %d' % (waves + 1), 11.5, INK, anchor='end')
        c.rect(x0 + left * cw, y, (sms - left) * cw, wh, stroke=THREAD, width=1.2)
        c.text(x0 + sms * cw - 4, y + wh + 14, '%d SMs idle' % (sms - left), 11.5, THREAD, anchor='end')
        c.text(x0, y + wh + 14, '%d tiles left, one block each' % left, 11.5, INK)
        return y + wh + 22

    total = left * k_tiles

    def in_runs(y):
        for r in range(runs):
            a, b = r * total // runs, (r + 1) * total // runs
            at = a
            while at < b:
                tile = at // k_tiles
                nxt = min(b, (tile + 1) * k_tiles)
                y0 = y + (at - a) * wh / k_tiles
                c.rect(x0 + r * cw, y0, cw, (nxt - at) * wh / k_tiles, fill=SERIES[tile % 4])
                if at > a:
                    c.rect(x0 + r * cw, y0 - 0.5, cw, 1, fill='#ffffff')
                at = nxt
        c.text(x0 - 10, y + wh / 2 + 4, 'runs', 11.5, INK, anchor='end')
        hmax = (total + runs - 1) // runs * wh / k_tiles
        c.line([(x0 - 4, y + wh), (x0 + sms * cw + 4, y + wh)], INK, 1.2, dash=(5, 4))
        c.text(x0 + sms * cw, y + wh + 18, 'where K whole ends', 11.5, INK, anchor='end')
        c.text(x0, y + wh + 18, '%d tiles\' k-tiles in one row, cut into %d runs of equal length, a block each'
               % (left, runs), 11.5, INK)
        return y + wh + 30

    y = panel(92, 'K whole: %d tiles of %s, one block a tile, %d waves of %d SMs' % (tiles, nb('%d x %d' % (t['bm'], t['bn'])),
                                                                                  waves + 1, sms), k_whole)
    y = panel(y + 24, 'the last wave in runs: %d tiles as before (%d waves), then %d runs' % (whole, waves, runs), in_runs)
    # the first runs, enlarged
    c.text(24, y + 16, 'the first runs, enlarged (a column: one block; its height: one tile\'s %d k-tiles):' % k_tiles,
           12.5, INK)
    y += 30
    zw, zh, zn = 120, 150, 6
    for r in range(zn):
        a, b = r * total // runs, (r + 1) * total // runs
        at, zx = a, 24 + r * (zw + 20)
        c.text(zx + zw / 2, y + 10, 'run %d' % r, 11.5, GREY, anchor='middle')
        while at < b:
            tile = at // k_tiles
            nxt = min(b, (tile + 1) * k_tiles)
            zy = y + 16 + (at - a) * zh / k_tiles
            c.rect(zx, zy, zw, (nxt - at) * zh / k_tiles, fill=SERIES[tile % 4], stroke='#ffffff', width=1)
            c.text(zx + zw / 2, zy + (nxt - at) * zh / k_tiles / 2 + 4, 'tile %d: %d..%d' % (
                whole + tile, at - tile * k_tiles, nxt - 1 - tile * k_tiles), 10.5, '#ffffff', anchor='middle')
            at = nxt
    y += 16 + zh
    y = key(c, 24, y + 24, SERIES[0], 'the colours of the last wave tell its tiles apart: a run crosses into the next '
            'tile, and a tile cut between runs has each piece leave its sums in a slot of a workspace; the last piece '
            'to finish adds them up in k order and writes C.', WIDTH - 48) + 4
    y = para(c, 24, y, 'Time: %d whole waves and %d of %d k-tiles, %.2f waves, instead of %d.'
             % (waves, (total + runs - 1) // runs, k_tiles, waves + total / runs / k_tiles, waves + 1),
             WIDTH - 48, 12.5)
    c.height = y + 4
    return c

FIGURES = [
    # (path without extension, the steps it reads, the function)
    ('step1_tiling/tiling', (1,), fig_tiling),
    ('step2_shared/shared', (2,), fig_shared),
    ('step3_registers/registers', (2, 3), fig_registers),
    ('step4_vectorize/vectorize', (3, 4), fig_vectorize),
    ('step5_pipeline/pipeline', (5,), fig_pipeline),
    ('step6_unroll/unroll', (6,), fig_unroll),
    ('step6_unroll/going_further/warp_tiles', (6,), fig_warp_tiles),
    ('step6_unroll/going_further/split_k', (6,), fig_split_k),
    ('step6_unroll/going_further/wide_tiles', (6,), fig_wide_tiles),
    ('step6_unroll/going_further/stream_k', (6,), fig_stream_k),
]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--steps', default=ROOT, help='where ./step1 .. ./step6 are')
    ap.add_argument('--out', default=ROOT, help='where the lesson folders are written')
    ap.add_argument('--only', default='', help='draw only the figures whose paths contain this')
    a = ap.parse_args(argv)
    try:
        described = {}
        for path, steps, draw in FIGURES:
            if a.only and a.only not in path:
                continue
            for n in steps:
                if n not in described:
                    described[n] = describe(a.steps, n)
            missing = [n for n in steps if described[n] is None]
            if missing:
                print('figures: ./step%d is not built here: %s.{svg,png} left as it is' % (missing[0], path))
                continue
            canvas = draw(*[described[n] for n in steps])
            canvas.check()
            os.makedirs(os.path.join(a.out, os.path.dirname(path)), exist_ok=True)
            for ext, data in (('.svg', canvas.svg().encode()), ('.png', canvas.png(SCALE))):
                target = os.path.join(a.out, path + ext)
                old = open(target, 'rb').read() if os.path.exists(target) else None
                if old != data:
                    with open(target + '.tmp', 'wb') as f:
                        f.write(data)
                    os.replace(target + '.tmp', target)
                    print('figures: wrote %s' % os.path.relpath(target))
    except Fail as e:
        print('figures: %s' % e, file=sys.stderr)
        return 2
    except ValueError as e:          # a figure drawn past its edges: a bug of this file's layout
        print('figures: %s' % e, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""figures.py - a picture of each lesson's idea, drawn from the constants the steps report.

`make figures` runs it: from what ./step1 .. ./step6 and ./further --describe print it draws the ten FIGURES
(below; the track's four are drawn in going_further/track_figures.py), each an SVG beside its lesson, a
pure function of those constants (no dates, no versions): it cannot disagree with the code, and the
tests redraw it byte for byte. Its text names a font family (FONT). Each PNG, the picture a lesson
embeds, is rendered from its SVG by rsvg-convert where the SVG changed, and is tested for its size, not
its bytes.

A program not built (steps 5 and 6 and the track's ./further before sm_80) leaves its figures as they are, saying so. A
--describe line without a constant a figure needs: one line naming it, exit code 2; a shape past
its figure's edges (nothing may be cut off): exit code 1.
"""
import argparse
import itertools
import math
import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET

from course import Fail
from course.describe import describe, need, records

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WIDTH = 900        # every figure's width, in SVG units; its PNG has ZOOM pixels a unit
ZOOM = 2
FONT = 'DejaVu Sans, Liberation Sans, Arial, sans-serif'
# A line's width, assumed for wrapping and the edge check: EM ems a character. DejaVu Sans, the
# widest of FONT, averages 0.5 em a character on these labels, 0.55 in bold.
EM = 0.6
LEADING = 1.38     # a paragraph's line spacing, in ems

# Colours: one for each thing a figure tells apart, the same thing the same colour in every figure.
INK, GREY, GRID, FAINT, WHITE = '#222222', '#666666', '#c9c9c9', '#ececec', '#ffffff'
A_FILL, A_INK = '#d3e6f6', '#0b6aa8'          # A, and its loads
B_FILL, B_INK = '#d4efe2', '#08875f'          # B
C_FILL, C_INK = '#fdebcd', '#b86e00'          # C and the accumulators
THREAD = '#d55e00'                            # one thread's elements
WARP, WARP_FILL = '#8e3b8a', '#ead3e8'        # one warp's
SHARED, SHARED_INK = '#f4f1e8', '#b5ab8c'     # shared memory, as a place
BARRIER = '#333333'
# k-tiles (or stages, or ranks) told apart by colour, in order
SERIES = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#7f7f2a', '#6a51a3']
SERIES_FILL = ['#cce3f2', '#fbe6bf', '#c7ebdf', '#f3ddea', '#d8eefa', '#f8d9c4', '#e6e6c8', '#e2dcef']


# --- the SVG ------------------------------------------------------------------------------------

def num(v):
    """A coordinate as the SVG writes it: at most two decimals, no trailing zeros, no -0."""
    return '%g' % (round(v, 2) + 0.0)


def wrap(text, width, size):
    """text in lines of at most width units, counting EM ems a character."""
    return textwrap.wrap(text, int(width / (size * EM)))


class Figure:
    """SVG elements in user units (x right, y down) under a title and its source line (below which
    all moves down as that wraps), and each one's extent: svg() fails (exit code 1: a bug of this
    file's layout) at the first one past an edge (nothing may be cut off). ElementTree writes the
    markup, one element a line."""

    def __init__(self, title, source):
        self.title, self.top, self.elements, self.extents = title, 0, [], []
        self.text(24, 32, title, 17, INK, bold=True)
        self.top = self.para(24, 52, 'make figures, from ' + source, 11.5, GREY) - 52 - 11.5 * LEADING
        self.header = len(self.elements)

    def end(self, bottom):
        self.height = math.ceil(bottom + self.top)
        return self

    def add(self, tag, attrs, x0, y0, x1, y1, what):
        """An element: attrs in the order given, those that are None left out."""
        element = ET.Element(tag, {k: v for k, v in attrs.items() if v is not None})
        self.elements.append(element)
        self.extents.append((x0, y0 + self.top, x1, y1 + self.top, what))
        return element

    def rect(self, x, y, w, h, fill=None, stroke=None, width=1.0):
        """A rectangle; its outline (stroke) is centred on its edges."""
        m = width / 2 if stroke else 0
        self.add('rect', {'x': num(x), 'y': num(y), 'width': num(w), 'height': num(h), 'fill': fill or 'none',
                          'stroke': stroke, 'stroke-width': num(width) if stroke else None},
                 x - m, y - m, x + w + m, y + h + m, 'a rectangle at (%g, %g)' % (x, y))

    def lines(self, polylines, color, width=1.0, dash=None, fill='none'):
        """Polylines [(x, y), ...] as one path, stroked (dash=(on, off) cuts them into dashes) or
        filled (a closed one: fill, its colour)."""
        if not polylines or not color:
            return
        d = ''.join('M' + 'L'.join('%s %s' % (num(x), num(y)) for x, y in line) for line in polylines)
        xs, ys = [x for ln in polylines for x, y in ln], [y for ln in polylines for x, y in ln]
        m = width / 2
        self.add('path', {'d': d, 'fill': fill, 'stroke': color, 'stroke-width': num(width),
                          'stroke-dasharray': '%s %s' % dash if dash else None},
                 min(xs) - m, min(ys) - m, max(xs) + m, max(ys) + m, 'a line')

    def arrow(self, points, color, width=1.5, head=7.0):
        """A polyline ending in a filled arrowhead `head` units long, its tip at the last point."""
        (x0, y0), (x1, y1) = points[-2], points[-1]
        n = math.sqrt((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0))
        ux, uy, half = (x1 - x0) / n, (y1 - y0) / n, head * 0.45
        bx, by = x1 - ux * head, y1 - uy * head                     # the head's base
        self.lines([points[:-1] + [(bx, by)]], color, width)
        self.lines([[(x1, y1), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half), (x1, y1)]],
                   color, 0, fill=color)

    def text(self, x, y, lines, size=12.5, color=INK, anchor='start', bold=False, gap=None):
        """Text with its first baseline at y, a line each `gap` units (LEADING ems) further down;
        anchor: start, middle or end at x. lines: a string (one line) or a list of them."""
        lines, gap = [lines] if isinstance(lines, str) else lines, gap or size * LEADING
        w = max(len(s) for s in lines) * size * EM
        x0 = x - {'start': 0, 'middle': w / 2, 'end': w}[anchor]
        element = self.add('text', {'font-size': num(size), 'fill': color,
                                    'text-anchor': anchor if anchor != 'start' else None,
                                    'font-weight': 'bold' if bold else None},
                           x0, y - 0.8 * size, x0 + w, y + (len(lines) - 1) * gap + 0.25 * size,
                           'the text %r' % lines[0])
        for i, s in enumerate(lines):
            ET.SubElement(element, 'tspan', {'x': num(x), 'y': num(y + i * gap)}).text = s

    def para(self, x, y, text, size=12.5, color=INK, width=None):
        """text from baseline y, wrapped to width (else to the right margin); returns the baseline
        after its last line."""
        lines = wrap(text, width or WIDTH - 24 - x, size)
        self.text(x, y, lines, size, color)
        return y + len(lines) * size * LEADING

    def svg(self):
        for x0, y0, x1, y1, what in self.extents:
            if x0 < 0 or y0 < 0 or x1 > WIDTH or y1 > self.height:
                raise Fail('%s: %s reaches outside its %d x %d figure (%.1f, %.1f .. %.1f, %.1f)'
                           % (self.title, what, WIDTH, self.height, x0, y0, x1, y1), 1)
        root = ET.Element('svg', {'xmlns': 'http://www.w3.org/2000/svg', 'width': str(WIDTH),
                                  'height': str(self.height), 'viewBox': '0 0 %d %d' % (WIDTH, self.height),
                                  'font-family': FONT, 'xml:space': 'preserve', 'role': 'img'})
        ET.SubElement(root, 'title').text = self.title
        ET.SubElement(root, 'rect', {'width': '100%', 'height': '100%', 'fill': WHITE})
        root.extend(self.elements[:self.header])
        moved = ET.SubElement(root, 'g', {'transform': 'translate(0 %s)' % num(self.top)})
        moved.extend(self.elements[self.header:])
        for parent in (root, moved):      # one element a line, as a diff reads best
            parent.text = '\n'
            for child in parent:
                child.tail = '\n'
        return ET.tostring(root, encoding='unicode') + '\n'


# --- what the steps say ------------------------------------------------------------------------

def step_words(steps_dir, name):
    """The key=value words of ./NAME --describe (course.describe), or None when it is not built."""
    binary = os.path.join(steps_dir, name)
    if not os.access(binary, os.X_OK):
        return None
    words = describe(binary)
    if not words:
        raise Fail('%s --describe failed: run it to see why' % binary)
    return words


def shapes(d, key='shapes'):
    """A step's tiles, each with its threads' grid (threads_m x threads_n)."""
    out = records(d, key, 'BMxBNxBK:TMxTN:piece:a_pad')
    for t in out:
        t.threads_m, t.threads_n = t.bm // t.tm, t.bn // t.tn
    return out


# --- layout helpers -------------------------------------------------------------------------------

def nb(text):
    """Text that a line must not break inside (a code fragment)."""
    return text.replace(' ', '\u00a0')


def dims(*sizes):
    """'8 x 8' (or '64 x 64 x 16'), that a line must not break inside."""
    return '\u00a0x\u00a0'.join(str(v) for v in sizes)


def key(c, x, y, fill, text, stroke=None, size=12.5):
    """A swatch (its bottom on baseline y; stroke: outlined) and its words, wrapped to the right
    margin; returns the baseline of what may follow them."""
    c.rect(x, y - 11, 14, 14, fill=fill, stroke=stroke, width=2)
    return c.para(x + 22, y, text, size) + 6


def grid(c, x, y, rows, cols, cell_w, cell_h, color=FAINT, strong=None, every=0):
    """Hairlines between cells, stronger ones (in `strong`, else `color`) every `every` cells; the
    outline is the caller's."""
    faint, bold = [], []
    for r in range(1, rows):
        (bold if every and r % every == 0 else faint).append(
            [(x, y + r * cell_h), (x + cols * cell_w, y + r * cell_h)])
    for q in range(1, cols):
        (bold if every and q % every == 0 else faint).append(
            [(x + q * cell_w, y), (x + q * cell_w, y + rows * cell_h)])
    c.lines(faint, color, 0.5)
    c.lines(bold, strong or color, 1)


def runs(values):
    """Integers as runs (first, count) of consecutive ones: in a run, value - position is the same."""
    groups = itertools.groupby(enumerate(sorted(set(values))), lambda iv: iv[1] - iv[0])
    return [(run[0][1], len(run)) for run in (list(g) for _, g in groups)]


def cells(c, x, y, w, h, rows, cols, fill):
    """The cells rows x cols of a grid of w x h cells at (x, y), a rectangle a run of them."""
    for r0, nr in runs(rows):
        for q0, nq in runs(cols):
            c.rect(x + q0 * w, y + r0 * h, nq * w, nr * h, fill=fill)


def tile(c, x, y, rows, cols, cell_w, cell_h, fill, ink, hairlines=None, strong=None, every=0, marks=()):
    """A grid of rows x cols cells: its fill, then marks [(rows, cols, fill)] as cells() draws them,
    the hairlines between cells (a colour; `strong` every `every` cells) and an outline in ink."""
    c.rect(x, y, cols * cell_w, rows * cell_h, fill=fill)
    for mark_rows, mark_cols, mark_fill in marks:
        cells(c, x, y, cell_w, cell_h, mark_rows, mark_cols, mark_fill)
    grid(c, x, y, rows, cols, cell_w, cell_h, hairlines, strong, every)
    c.rect(x, y, cols * cell_w, rows * cell_h, stroke=ink, width=1.2)


def owned(piece, count, index, threads):
    """The rows (or columns) of a tile that thread row (or column) `index` of `threads` owns: its
    `count` of them, in runs of `piece`, piece * threads apart."""
    return [(k // piece) * piece * threads + index * piece + k % piece for k in range(count)]


WARP_SIZE, SECTOR = 32, 8            # threads a warp; floats a 32-byte sector


def one_element(d, t):
    """Fails unless tile t of step d gives each thread one element of C, as its figure shows."""
    if t.tm * t.tn != 1:
        raise Fail('%s --describe: shapes=%s: a thread computes %s elements of C, and this figure shows one'
                   % (d['_binary'], d['shapes'], dims(t.tm, t.tn)))


def several(n, one, many):
    """'one address' or '2 addresses': the words for n of a thing."""
    return one if n == 1 else '%d %s' % (n, many)


def elements(t):
    """'one element' or '4 x 4 elements': a thread's part of tile t of C."""
    return 'one element' if t.tm * t.tn == 1 else dims(t.tm, t.tn) + ' elements'


def fig_tiling(d1):
    t = shapes(d1)[0]
    one_element(d1, t)
    bm, bn = t.bm, t.bn
    warp_n = min(WARP_SIZE, bn)          # the columns a warp spans, and its rows
    warp_m = WARP_SIZE // warp_n
    sectors = max(1, 4 * warp_n // 32)   # B's row p, as warp 0 loads it
    e = 384 / max(bm, bn)
    x0, y0, ax, by = 176, 128, 150, 94   # the tile of C, A's column (12 units wide), B's row
    warp = (range(warp_m), range(warp_n))
    c = Figure('Step 1: a block per tile of C, one element a thread, warps that coalesce',
               './step1 --describe: shapes=%s' % d1['shapes'])
    # C, B's row p and A's column p: warp 0's elements and loads, thread (0, 0)'s; strong lines every sector
    tile(c, x0, y0, bm, bn, e, e, C_FILL, INK, '#f3dfc0', GRID, SECTOR,
         marks=[(warp[0], warp[1], WARP_FILL), ([0], [0], THREAD)])
    tile(c, x0, by, 1, bn, e, 12, B_FILL, B_INK, '#b9dcc9', B_INK, SECTOR,
         marks=[([0], warp[1], WARP_FILL), ([0], [0], THREAD)])
    tile(c, ax, y0, bm, 1, 12, e, A_FILL, A_INK, '#bcd6ea', marks=[(warp[0], [0], WARP_FILL), ([0], [0], THREAD)])
    for x, y, w, h in ((x0, y0, warp_n * e, warp_m * e), (x0, by, warp_n * e, 12), (ax, y0, 12, warp_m * e)):
        c.rect(x, y, w, h, stroke=WARP, width=2)
    c.text(x0, by - 9, 'row p of B: B[p][tile_col + c], c = 0..%d' % (bn - 1), 12.5, B_INK)
    c.text(ax - 8, y0 + 10, ['column p of A:', 'A[tile_row + r][p],', 'r = 0..%d' % (bm - 1)], 12, A_INK, 'end')
    for q in range(0, bn, SECTOR):
        c.text(x0 + q * e + e / 2, y0 - 8, str(q), 10.5, GREY, 'middle')
    c.text(ax - 8, y0 + (SECTOR + 1) * e - 1.5, [str(r) for r in range(SECTOR, bm, SECTOR)], 10.5, GREY, 'end',
           gap=SECTOR * e)
    c.text(x0 + bn * e / 2, y0 + bm * e + 22, "the block's %s tile of C: %d threads, an element each"
           % (dims(bm, bn), bm * bn), 12.5, INK, 'middle')
    c.text(x0 + bn * e / 2, y0 + bm * e + 40, '(tx = threadIdx.x %% %d across, ty = threadIdx.x / %d down)'
           % (bn, bn), 12, GREY, 'middle')

    # the key, and the grid: a block per tile, blockIdx.x numbering C's tiles row by row
    kx = 580
    y = key(c, kx, 100, THREAD, 'thread (ty, tx) = (0, 0): its one element of C. At each step p it loads '
            'A[row][p] and B[p][col], %s and %s, and does one FMA with them.'
            % (nb('row = tile_row + ty'), nb('col = tile_col + tx')))
    y = key(c, kx, y, WARP_FILL, 'warp 0: threads 0..%d, %s and %s: consecutive threads take consecutive '
            'columns, and a warp is %s of the tile.'
            % (WARP_SIZE - 1, nb('ty = 0' if warp_m == 1 else 'ty = 0..%d' % (warp_m - 1)),
               nb('tx = 0..%d' % (warp_n - 1)), several(warp_m, 'one row', 'rows')))
    y = key(c, kx, y, None, 'what one load instruction of warp 0 touches at step p. In B: %d consecutive floats, '
            '%d bytes, %d whole 32-byte sectors (between the strong lines). In A: %s, broadcast to %d threads.'
            % (warp_n, 4 * warp_n, sectors, several(warp_m, 'one address', 'addresses, each'), warp_n),
            stroke=WARP)
    y = c.para(kx, y, "Each FMA still needs two loads, as in step 0; but where step 0's warp, %d rows of one column, "
               'touched %d sectors of A and one of B at each step p, this one touches %d of A and %d of B.'
               % (WARP_SIZE, WARP_SIZE, warp_m, sectors), color=GREY) + 16
    gy = c.para(kx, y, 'C, cut into %s tiles: blockIdx.x numbers them row by row' % dims(bm, bn)) - 6
    tile(c, kx, gy, 3, 6, 30, 30, C_FILL, INK, '#d9b88a', every=1, marks=[([1], [2], C_INK)])
    for i in range(18):                  # the one drawn here: 8
        c.text(kx + i % 6 * 30 + 15, gy + i // 6 * 30 + 19.5, str(i), 11.5, WHITE if i == 8 else GREY, 'middle')
    c.text(kx + 192, gy + 49, ['the tile drawn', 'here: one block'], 12, C_INK)
    return c.end(max(gy + 90, y0 + bm * e + 40) + 12)


A_NOW, B_NOW = '#8ec3ea', '#8cd9b8'   # the k-tile being copied and used


def fig_shared(d2):
    t = shapes(d2)[0]
    one_element(d2, t)
    bm, bn, bk = t.bm, t.bn, t.bk
    threads = bm * bn
    copies_a, copies_b = bm * bk // threads, bk * bn // threads      # floats a thread copies a k-tile
    kt, now, p = 4, 1, 5                            # k-tiles drawn, the one being used, the step p marked
    u = min(128 / max(bm, bn), 320 / (kt * bk))     # units an element in global memory
    v = min(224 / max(bm, bn), 128 / bk)            # and in shared memory
    kw = bk * u
    c = Figure('Step 2: k-tiles of A and B staged in shared memory, two barriers a k-tile',
               './step2 --describe: shapes=%s' % d2['shapes'])
    # shared memory's box and words; its k-tiles, and global memory's level with them
    sx, sy, sw = 480, 92, WIDTH - 24 - 480
    copy_words = wrap('Each k-tile is copied by all %d threads, BM*BK/THREADS = %s of A and %d of B each: '
                      'consecutive threads take consecutive floats of a row (coalesced).'
                      % (threads, several(copies_a, '1 float', 'floats'), copies_b), sw - 24, 12)
    bt_x, bt_y = sx + sw - 16 - bn * v, sy + 52 + len(copy_words) * 12 * LEADING
    at_x, at_y = sx + 16, bt_y + bk * v + 22
    x1 = at_x + bk * v + 20                         # the words beside a_tile
    step_words = wrap("Then %d steps p. At each, thread (ty, tx) reads a_tile[ty][p] and b_tile[p][tx] (thread "
                      "(0, 0)'s are marked): 2 values from shared memory for one FMA. A warp, one row of the tile, "
                      'reads one word of a_tile, broadcast, and %d consecutive words of b_tile.'
                      % (bk, min(WARP_SIZE, bn)), WIDTH - 36 - x1, 12)
    cost_words = wrap('%d KiB copied from global memory a k-tile, for %d FMAs: %d FMAs a float copied.'
                      % ((bm + bn) * bk * 4 // 1024, bm * bn * bk, bm * bn // (bm + bn)), WIDTH - 36 - x1, 12)
    ax = 24
    bx, by = ax + kt * kw + 20, bt_y + bk * v / 2 - (now + 0.5) * kw
    ay = by + kt * kw + 20
    words_end = at_y + 14 + (len(step_words) + len(cost_words)) * 12 * LEADING + 8
    ya = max(ay + bm * u, at_y + bm * v, words_end) + 30            # the A copy's arrow
    c.rect(sx, sy, sw, ya - 18 - sy, fill=SHARED, stroke=SHARED_INK, width=1.2)
    c.text(sx + 12, sy + 20, "shared memory (the block's)", 13, GREY, bold=True)
    c.text(sx + 12, sy + 42, copy_words, 12)
    c.text(24, 84, 'global memory', 13, GREY, bold=True)
    tile(c, bx, by, kt, 1, bn * u, kw, B_FILL, B_INK, WHITE, every=1, marks=[([now], [0], B_NOW)])
    tile(c, ax, ay, 1, kt, kw, bm * u, A_FILL, A_INK, WHITE, every=1, marks=[([0], [now], A_NOW)])
    for i in range(kt):
        c.text(bx - 6, by + i * kw + kw / 2 + 4, 'k-tile %d' % i, 11, B_INK if i == now else GREY, 'end')
        c.text(ax + i * kw + kw / 2, ay - 6, str(i), 11, A_INK if i == now else GREY, 'middle')
    c.rect(bx, ay, bn * u, bm * u, fill=C_FILL, stroke=INK, width=1.2)
    c.text(bx + bn * u / 2, ay + bm * u / 2 - 12, ["the block's", dims(bm, bn), 'tile of C'], 11.5, C_INK, 'middle')
    c.para(24, by + 14, "B (K x N): the block's %d columns, in k-tiles of %d rows" % (bn, bk), 12, B_INK, width=180)
    c.para(24, ay - 60, "A (M x K): the block's %d rows, in k-tiles of %d columns:" % (bm, bk), 12, A_INK, width=190)

    # the k-tiles in shared memory, what thread (0, 0) reads of them at step p, and the copies
    tile(c, bt_x, bt_y, bk, bn, v, v, B_NOW, B_INK, '#b8e4cf', marks=[([p], range(bn), '#5cbf95'), ([p], [0], THREAD)])
    tile(c, at_x, at_y, bm, bk, v, v, A_NOW, A_INK, '#b7d7ef', marks=[(range(bm), [p], '#5aa5dc'), ([0], [p], THREAD)])
    c.text(bt_x, bt_y - 8, 'b_tile[%d][%d]' % (bk, bn), 12, B_INK)
    c.text(bt_x - 6, bt_y + p * v + v, 'row p', 11, B_INK, 'end')
    c.text(at_x, at_y - 8, 'a_tile[%d][%d]: column p' % (bm, bk), 12, A_INK)
    c.arrow([(bx + bn * u + 2, bt_y + bk * v / 2), (bt_x - 4, bt_y + bk * v / 2)], B_INK, 1.6)
    c.text(bx + bn * u + 10, bt_y + bk * v / 2 - 7, 'copy', 12, B_INK)
    from_x, to_x = ax + now * kw + kw / 2, at_x + bk * v / 2
    c.arrow([(from_x, ay + bm * u + 2), (from_x, ya), (to_x, ya), (to_x, at_y + bm * v + 4)], A_INK, 1.6)
    c.text(from_x + 8, ya - 6, 'copy', 12, A_INK)
    c.text(x1, at_y + 14, step_words, 12)
    c.text(x1, at_y + 22 + len(step_words) * 12 * LEADING, cost_words, 12, GREY)

    # the loop over k-tiles: copy, barrier, compute, barrier
    ly, h = ya + 54, 34
    c.text(24, ly - 22, 'the loop over k-tiles, in time:', 13, GREY, bold=True)
    for k in range(3):
        x = 24 + k * 266
        c.rect(x, ly, 84, h / 2, fill=A_NOW if k == now else A_FILL)
        c.rect(x, ly + h / 2, 84, h / 2, fill=B_NOW if k == now else B_FILL)
        c.rect(x + 90, ly, 166, h, fill=C_FILL)
        c.text(x + 42, ly + h / 2 + 4.5, 'copy k-tile %d' % k, 11.5, INK, 'middle')
        c.text(x + 173, ly + h / 2 + 4.5, '%d steps p: FMAs' % bk, 11.5, INK, 'middle')
        for mark, dx in (('1', 85), ('2', 257)):
            c.rect(x + dx, ly - 6, 4, h + 12, fill=BARRIER)
            c.text(x + dx + 2, ly - 10, mark, 11, INK, 'middle', bold=True)
    c.text(24 + 3 * 266, ly + h / 2 + 4, '...', 13, GREY)
    c.text(24, ly + h + 30, ['1', '2'], 11.5, INK, bold=True, gap=18)
    c.text(40, ly + h + 30, ['__syncthreads(): the tiles are complete before anyone reads them',
                             '__syncthreads(): everyone is done reading them before the next copy overwrites them'],
           11.5, INK, gap=18)
    return c.end(ly + h + 64)


def fig_registers(d2, d3):
    before, tiles = shapes(d2)[0], shapes(d3)
    t = tiles[0]
    bm, bn, bk, tm, tn, threads_m, threads_n = t.bm, t.bn, t.bk, t.tm, t.tn, t.threads_m, t.threads_n
    ty, tx, p = 2, 5, 3                 # the thread drawn, and the step p
    fi, fj = 1, 2                       # one accumulator, and its element of C
    e, kd = 384 / max(bm, bn), 48 / bk  # units an element of C, a k of the tiles in shared memory
    x0, y0 = 184, 184
    bx, by, ax, ay = x0, y0 - 18 - bk * kd, x0 - 18 - bk * kd, y0
    rows, cols = owned(t.piece, tm, ty, threads_m), owned(t.piece, tn, tx, threads_n)
    c = Figure('Step 3: each thread accumulates %s %s tile of C in registers'   # 'an 8 x 8', 'a 4 x 4'
               % ('an' if str(tm)[0] == '8' else 'a', dims(tm, tn)),
               './step3 --describe: shapes=%s (the larger tile is drawn)' % d3['shapes'])
    # shared memory: b_tile above, a_tile left, row and column p; the block's tile of C
    tile(c, bx, by, bk, 1, bn * e, kd, B_FILL, B_INK, '#b8e4cf', marks=[([p], [0], '#a6dfc4')])
    tile(c, ax, ay, 1, bk, kd, bm * e, A_FILL, A_INK, '#b7d7ef', marks=[([0], [p], '#a9cfee')])
    cells(c, bx, by, e, kd, [p], cols, B_INK)
    cells(c, ax, ay, kd, e, rows, [p], A_INK)
    c.text(bx, by - 8, 'b_tile[%d][%d] in shared memory; row p: %d values at tx + %dj' % (bk, bn, tn, threads_n),
           12, B_INK)
    c.text(ax - 8, ay + 12, ['a_tile[%d][%d]' % (bm, bk), 'in shared', 'memory;', 'column p:', '%d values' % tm,
                             'at ty + %di' % threads_m], 12, A_INK, 'end')
    tile(c, x0, y0, bm // threads_m, bn // threads_n, threads_n * e, threads_m * e, C_FILL, INK, '#e7cfa9')
    cells(c, x0, y0, e, e, rows, cols, THREAD)
    c.rect(x0 + cols[fj] * e - 2, y0 + rows[fi] * e - 2, e + 4, e + 4, stroke=INK, width=1.5)
    c.text(x0 + bn * e / 2, y0 + bm * e + 22, ["the block's %s tile of C: thread (ty, tx) = (%d, %d) owns the marked %d"
                                                % (dims(bm, bn), ty, tx, tm * tn), 'elements, rows ty + %di and '
                                                'columns tx + %dj, i, j = 0..%d' % (threads_m, threads_n, tm - 1)],
           12.5, INK, 'middle')

    # the thread's registers
    rx, cell, kx = 664, 22, 624
    fy, ay2 = by + 52, by + 86
    c.text(kx, by + 10, 'the registers of thread (%d, %d)' % (ty, tx), 13, GREY, bold=True)
    c.text(rx + tn * cell / 2, fy - 8, 'b_frag[%d]: b_tile[p][tx + %dj]' % (tn, threads_n), 12, B_INK, 'middle')
    tile(c, rx, fy, 1, tn, cell, cell, B_INK, WHITE, WHITE, every=1)
    tile(c, rx - cell - 12, ay2, tm, 1, cell, cell, A_INK, WHITE, WHITE, every=1)
    tile(c, rx, ay2, tm, tn, cell, cell, THREAD, WHITE, WHITE, every=1)
    c.rect(rx + fj * cell - 1, ay2 + fi * cell - 1, cell + 2, cell + 2, stroke=INK, width=2)
    c.text(rx - cell / 2 - 12, ay2 + tm * cell + 18, 'a_frag[%d]' % tm, 12, A_INK, 'middle')
    c.text(rx + tn * cell / 2, ay2 + tm * cell + 18, 'acc[%d][%d]' % (tm, tn), 12, C_INK, 'middle')
    y = c.para(kx, ay2 + tm * cell + 48, 'At each step p: %d loads of a_frag from %s, %d of b_frag from %s, then %s: '
               '%d FMAs for %d loads from shared memory (step 2, %s a thread: %d for %d).'
               % (tm, nb('a_tile[ty + %di][p]' % threads_m), tn, nb('b_tile[p][tx + %dj]' % threads_n),
                  nb('acc[i][j] += a_frag[i] * b_frag[j]'), tm * tn, tm + tn, elements(before),
                  before.tm * before.tn, before.tm + before.tn), 12) + 8
    y = key(c, kx, y, WHITE, 'acc[%d][%d] accumulates %s: the element marked in the tile'
            % (fi, fj, nb('C[ty + %d][tx + %d]' % (rows[fi] - ty, cols[fj] - tx))), INK, 12) + 2
    for s in tiles[1:2]:
        y = c.para(kx, y, 'Where %s tiles are fewer than the SMs, the launch takes %s tiles of %s a thread, %d '
                   'threads, instead.' % (dims(bm, bn), dims(s.bm, s.bn), dims(s.tm, s.tn), s.threads_m * s.threads_n),
                   12, GREY)
    return c.end(max(y, y0 + bm * e + 52) + 6)


PAD_FILL = '#dcdcdc'


def fig_vectorize(d3, d4):
    t3, t = shapes(d3)[0], shapes(d4)[0]
    bm, bn, bk, tm, tn, piece, pad = t.bm, t.bn, t.bk, t.tm, t.tn, t.piece, t.a_pad
    if pad < 0:
        raise Fail('%s --describe: shapes=%s: A is not stored transposed, and this figure shows it so'
                   % (d4['_binary'], d4['shapes']))
    threads_m, threads_n = t.threads_m, t.threads_n
    ty, tx, p = 3, 5, 9                  # the thread drawn, the step p
    r0, k4 = 40, 1                       # the row of A whose float4 k4 is followed into a_tile
    brow, b4 = 1, 2                      # the row of B and its float4 followed into b_tile
    rows, cols = owned(piece, tm, ty, threads_m), owned(piece, tn, tx, threads_n)
    k4s = range(k4 * piece, (k4 + 1) * piece)
    c = Figure('Step 4: four floats an instruction, A transposed in shared memory',
               './step4 --describe: shapes=%s (the larger tile is drawn)' % d4['shapes'])
    # global A: its k-tile's first rows, in float4 pieces
    g, gx, gy, grows, first = 14, 40, 108, 6, r0 - 2
    c.text(24, 82, "global memory: A's k-tile, %d rows of %d, row-major (rows %d..%d drawn)"
           % (bm, bk, first, first + grows - 1), 12.5, A_INK)
    tile(c, gx, gy, grows, bk, g, g, A_FILL, A_INK, '#b7d7ef', A_INK, piece, marks=[([r0 - first], k4s, A_INK)])
    c.text(gx - 6, gy + g - 3, [str(first + r) for r in range(grows)], 10, GREY, 'end', gap=g)
    c.para(gx + bk * g + 24, gy + 10, "One LDG.E.128 loads %d consecutive k of one row of A (%s of row %d, dark). "
           "In shared memory A's k-tile is stored transposed, a_tile[p][r] = A[r][p], so that the %d values of "
           "A a thread needs at step p lie side by side, like B's: its %d stores go down column %d of a_tile."
           % (piece, nb('k = %d..%d' % (k4s[0], k4s[-1])), r0, tm, piece, r0), 12, width=400)
    # the thread's tile of C, in float4-wide pieces
    cs = 1.1
    cx, cy = WIDTH - 24 - bn * cs, 70
    tile(c, cx, cy, bm, bn, cs, cs, C_FILL, INK, marks=[(rows, cols, THREAD)])
    c.para(cx - 40, cy + bm * cs + 16, "thread (%d, %d)'s %s tile of C: %d pieces of %s, stored with STG.E.128"
           % (ty, tx, dims(tm, tn), (tm // piece) * (tn // piece), dims(piece, piece)), 11.5, C_INK, width=bn * cs + 40)

    # a_tile[BK][BM + pad]: the float4 of A down its column, thread (ty, tx)'s float4 at step p
    w, h, ax, ay = 5.0, 12, 100, 300
    tile(c, ax, ay, bk, bm + pad, w, h, A_FILL, A_INK, '#c4ddf0', marks=[(range(bk), range(bm, bm + pad), PAD_FILL),
                                                                        (k4s, [r0], A_INK), ([p], rows, THREAD)])
    for q in range(0, bm + 1, 32):
        c.text(ax + q * w, ay - 8, str(q) if q else 'r = 0', 10, GREY, 'middle' if q else 'start')
    c.text(ax - 6, ay + h - 2.5, ['p = 0'] + [str(pp) for pp in range(1, bk)], 10, GREY, 'end', gap=h)
    c.text(ax + (bm + pad) * w + 6, ay + bk * h / 2 + 4, 'pad', 11, GREY)
    c.text(ax, ay + bk * h + 18, "a_tile[%d][%d] in shared memory: A's k-tile transposed, each row padded by "
           'A_PAD = %d floats' % (bk, bm + pad, pad), 12.5, A_INK)
    fx, ym = gx + (k4 * piece + piece / 2) * g, gy + grows * g + 24
    c.arrow([(fx, gy + (r0 - first) * g + g), (fx, ym), (ax + r0 * w + w / 2, ym),
             (ax + r0 * w + w / 2, ay + k4 * piece * h - 1)], A_INK, 1.5, head=6)
    c.text(ax + r0 * w + 12, ym + 22, '%d stores (STS.32) down column r = %d, rows p = %d..%d'
           % (piece, r0, k4s[0], k4s[-1]), 11.5, A_INK)

    # b_tile[BK][BN], and a float4 of B into it from a corner of B's k-tile
    bw, bh = 4.5, 8
    bx, by = WIDTH - 24 - bn * bw, ay + bk * h + 80
    gbx, gby = 40, by + 22
    b4s = range(b4 * piece, (b4 + 1) * piece)
    tile(c, bx, by, bk, bn // piece, piece * bw, bh, B_FILL, B_INK, '#b8e4cf')
    cells(c, bx, by, bw, bh, [brow], b4s, B_INK)
    cells(c, bx, by, bw, bh, [p], cols, THREAD)
    c.text(bx, by - 8, 'b_tile[%d][%d] in shared memory (float4 pieces marked)' % (bk, bn), 12.5, B_INK)
    tile(c, gbx, gby, 3, 12, g, g, B_FILL, B_INK, '#b8e4cf', B_INK, piece, marks=[([brow], b4s, B_INK)])
    c.text(24, by - 8, "global memory: B's k-tile (a corner)", 12.5, B_INK)
    c.arrow([(gbx + (b4 + 1) * piece * g, gby + brow * g + g / 2), (bx - 30, gby + brow * g + g / 2),
             (bx - 30, by + brow * bh + bh / 2), (bx + b4 * piece * bw - 2, by + brow * bh + bh / 2)], B_INK, 1.5,
            head=6)
    c.para(24, gby + 3 * g + 22, 'B is not transposed: its float4 goes to shared memory as it is, one STS.128.', 12,
           width=bx - 70)

    # the key
    a_rows = nb('%d*ty + {0..%d}' % (piece, piece - 1))
    if tm // piece > 1:
        a_rows += ' and ' + nb('%d + %d*ty + {0..%d}' % (piece * threads_m, piece, piece - 1))
    y = key(c, 24, by + bk * bh + 36, THREAD, 'thread (ty, tx) = (%d, %d) at step p = %d: its fragments are %d '
            'float4 of a_tile (rows %s) and %d of b_tile (columns likewise): %d LDS.128 for %d FMAs, where step 3 '
            'made %d 32-bit loads for %d.' % (ty, tx, p, tm // piece, a_rows, tn // piece, (tm + tn) // piece,
                                              tm * tn, t3.tm + t3.tn, t3.tm * t3.tn))
    y = c.para(46, y - 4, "Rows of %d + %d = %d floats (%d mod 32): a warp's transposed stores spread over the "
               'shared-memory banks.' % (bm, pad, bm + pad, (bm + pad) % 32), 12, GREY)
    return c.end(y + 2)


def pipeline_panel(c, y, stages, bk, title):
    """The ring of `stages` stages over time, k-tiles 0..3 (k-tile t in SERIES[t]) after the
    prefetch: the copies in flight, what each stage holds, the FMAs, and the one barrier a k-tile.
    Returns the y below it."""
    x0, start, tile_w, h = 150, 214, (WIDTH - 40 - 214) / 4, 22     # 64 units of prefetch, 4 k-tiles
    end = start + 4 * tile_w
    c.text(24, y, title, 13, INK, bold=True)
    c.text(x0 + 32, y + 15, 'prefetch', 11, GREY, 'middle')
    y += 18

    def at(t, slice_):                                   # the start of slice `slice_` of k-tile t
        return start + t * tile_w + slice_ * tile_w / bk

    def barrier(t):                                      # the wait and barrier before k-tile t's frags
        return min(end, start - 8 if t == 0 else at(t - 1, bk - 1))

    lanes = max(1, stages - 1)                           # copies in flight at once
    tops = [y] + [y + lanes * (h + 2) + 4 + s * (h + 6) for s in range(stages + 1)]   # copies, stages, FMAs
    for i, name in enumerate(['copies in flight'] + ['stage s%d' % s for s in range(stages)] + ['FMAs']):
        rh = lanes * (h + 2) - 2 if i == 0 else h
        c.rect(x0, tops[i], end - x0, rh, fill='#f7f7f7')
        c.text(x0 - 10, tops[i] + rh / 2 + 4.5, name, 12, INK, 'end')
    for t in range(4 + stages):                          # the k-tiles whose copies are drawn
        issue = x0 + 8 + t * 16 if t <= stages - 2 else at(t - (stages - 1), 0)
        land, free = barrier(t), barrier(t + 1)          # the copy lands; its stage is read until free
        if issue >= end:
            continue
        cy, sy = y + t % lanes * (h + 2), tops[1 + t % stages]
        col, fill = SERIES[t % len(SERIES)], SERIES_FILL[t % len(SERIES)]
        c.rect(issue, cy + 3, land - issue, h - 6, fill=col)
        c.rect(issue, sy + 3, land - issue, h - 6, fill=fill)
        c.rect(land, sy + 3, free - land, h - 6, fill=col)
        if land - max(issue, barrier(0)) > 75:           # clear of the prefetch's barrier
            c.text(max(issue, barrier(0)) + 5, cy + h / 2 + 4, 'k-tile %d \u2192 s%d' % (t, t % stages), 11, WHITE)
        if free - land > 40:
            c.text(land + 5, sy + h / 2 + 4, 'k-tile %d' % t, 11, WHITE)
    for t in range(4):
        c.rect(at(t, 0), tops[-1] + 3, tile_w, h - 6, fill=SERIES[t])
        grid(c, at(t, 0), tops[-1] + 3, 1, bk, tile_w / bk, h - 6, WHITE, every=1)
        c.text(at(t, 0) + tile_w / 2, y - 3, 'k-tile %d' % t, 11, SERIES[t], 'middle')
    for t in range(5):
        c.rect(barrier(t) - 1, y + 1, 2, tops[-1] + h - y + 5, fill=BARRIER)
    c.text(end + 6, tops[-1] + h / 2 + 4, '...', 12, GREY)
    return tops[-1] + h


def fig_pipeline(d5):
    bk = shapes(d5)[0].bk
    default, most = int(need(d5, 'default_stages')), int(need(d5, 'max_stages'))
    c = Figure('Step 5: a ring of stages, the copies in flight beside the FMAs, one barrier a k-tile',
               './step5 --describe: shapes=%s default_stages=%d max_stages=%d' % (d5['shapes'], default, most))
    y = 92
    for stages in [default] + ([default + 1] if default + 1 <= most else []):
        title = "%d stages (%s--stages %d): %d cop%s in flight while a k-tile's %d slices of FMAs run" % (
            stages, 'the default, ' if stages == default else '', stages, stages - 1, 'y' if stages == 2 else 'ies', bk)
        y = pipeline_panel(c, y, stages, bk, title) + 30
    y = key(c, 24, y, BARRIER, "at the last slice of each k-tile: wait until the next k-tile's copy has landed "
            '(cp.async.wait_group), then the one barrier (__syncthreads()): it makes that k-tile visible to every '
            'thread, and frees the stage just read, which the copy issued at the next slice 0 refills.')
    y = key(c, 24, y, SERIES[1], 'a copy of k-tile t (cp.async, global to shared, no register in between) goes '
            'into stage t mod S, issued at slice 0 of k-tile t - (S - 1): S - 1 k-tiles ahead of its FMAs.')
    y = key(c, 24, y, SERIES_FILL[1], 'a stage being filled (lighter), then read (darker) until the barrier of its '
            'own k-tile.')
    y = c.para(24, y, "Not drawn: the fragments of slice p + 1 load from shared memory into registers while slice "
               "p's FMAs run, across k-tiles too (two sets of registers).", 12, GREY)
    return c.end(y + 4)


def code_box(c, x, y, w, title, lines, size=12):
    """A box of code lines under a bold title; returns its bottom."""
    c.text(x, y, title, 12.5, INK, bold=True)
    c.rect(x, y + 8, w, 14 + len(lines) * size * LEADING, fill='#f6f6f6', stroke='#d0d0d0')
    c.text(x + 12, y + 12 + size * LEADING, lines, size, INK)
    return y + 22 + len(lines) * size * LEADING


def fig_unroll(d5, d6):
    unrolled = [s.stages for s in records(d6, 'unrolled_stages', 'stages')]
    S, bk, rolled_bk = unrolled[0], shapes(d6)[0].bk, shapes(d5)[0].bk
    most, n = int(need(d6, 'max_stages')), 3 * unrolled[0]        # n: k-tiles drawn, three trips
    c = Figure('Step 6: the loop unrolled by its %d stages: every stage index a constant' % S,
               './further --describe: unrolled_stages=%s shapes=%s default_stages=%s; ./step5 --describe: shapes=%s'
               % (d6['unrolled_stages'], d6['shapes'], need(d6, 'default_stages'), d5['shapes']))

    def stages_of(pipe):                  # the stage read, refilled, and taken the next slice 0 from
        return [pipe, (pipe - 1) % S, (pipe + 1) % S]

    w = (WIDTH - 68) / 2
    code_box(c, 24, 80, w, "step 5's loop: one body, the stages in registers",
             ['for (k_tile = 0; k_tile < k_tile_count; k_tile++) {', '    next = read + 1 == %d ? 0 : read + 1;' % S,
              '    k_tile_body(read, write, next, ...);', '    write = read;', '    read = next;', '}'])
    y = code_box(c, 44 + w, 80, w, 'step 6: %d bodies a trip, each stage a constant' % S,
                 ['for (base = 0; base < k_tile_count; base += %d) {' % S] +
                 ['    k_tile_body(%d, %d, %d, ...);   // pipe %d' % (*stages_of(p), p) for p in range(S)] +
                 ['}'] + [''] * (4 - S)) + 40     # as tall as step 5's

    # the k-tiles, and the stages each body reads, refills and takes its next slice 0 from
    x0, cw, rh = 230, (WIDTH - 24 - 230) / n, 20
    c.text(x0 - 10, y, 'k-tile', 12, GREY, 'end')
    for k in range(n):
        c.text(x0 + k * cw + cw / 2, y, str(k), 12, GREY, 'middle')
    for step6, title in ((False, "step 5's loop"), (True, 'step 6, unrolled')):
        y += 12
        c.text(24, y + 15, title, 12.5, INK, bold=True)
        c.text(x0 - 10, y + 14, ['reads', 'refills for k-tile + %d' % (S - 1), 'next from'], 12, INK, 'end', gap=rh)
        for k in range(n):
            for i, stage in enumerate(stages_of(k % S)):
                bx, by = x0 + k * cw + 4, y + i * rh + 2
                if step6:
                    c.rect(bx, by, cw - 8, rh - 4, fill=SERIES[stage])
                    c.text(bx + cw / 2 - 4, by + rh - 8, 's%d' % stage, 11, WHITE, 'middle', bold=True)
                else:
                    c.rect(bx, by, cw - 8, rh - 4, fill=WHITE, stroke='#bdbdbd')
                    c.text(bx + cw / 2 - 4, by + rh - 8, ['read', 'write', 'next'][i], 10.5, GREY, 'middle')
        y += 3 * rh + 4
        span = S if step6 else 1                    # the loop goes back after every body, or every S
        for k in range(0, n, span):
            lx0, lx1 = x0 + k * cw + 6, x0 + (k + span) * cw - 6
            c.arrow([(lx1, y), (lx1, y + 10), (lx0, y + 10), (lx0, y + 1)], GREY, 1.2, head=5)
            if step6:
                c.text((lx0 + lx1) / 2, y + 26, 'trip: base = %d' % k, 11, GREY, 'middle')
        y += 18
    y = key(c, 24, y + 28, WHITE, 'step 5: the same machine code for every k-tile; which stage it reads, refills and '
            'loads the next slice 0 from are registers, worked out and stepped round the ring each k-tile, and every '
            'shared-memory address is built from them.', stroke='#bdbdbd')
    y = key(c, 24, y, SERIES[0], 'step 6: one body for each stage, %d a trip; in the body for pipe p the stage '
            'read is s(p), the stage refilled the one before it and the next one after it: constants folded into the '
            'addresses.' % S)
    others = ' and '.join(str(s) for s in range(2, most + 1) if s not in unrolled) or 'other'
    y = c.para(24, y, "Each body is one k-tile of %d slices (step 6's k-tiles are %d deep, step 5's %d): the copy "
               "at slice 0, the wait and the one barrier at slice %d. Step 6 unrolls at %s stages; at %s stages it "
               "keeps step 5's loop." % (bk, bk, rolled_bk, bk - 1, ' and '.join(map(str, unrolled)), others),
               12, GREY)
    return c.end(y + 4)


# The track's figures live beside its chapters and draw with this engine, which they import as `figures`.
sys.modules.setdefault('figures', sys.modules[__name__])
sys.path.insert(0, os.path.join(ROOT, 'going_further'))
from track_figures import TRACK_FIGURES  # noqa: E402 (it needs the engine above)

FIGURES = [
    # (path without extension, the programs whose --describe it draws, the function)
    ('step1_tiling/tiling', ('step1',), fig_tiling),
    ('step2_shared/shared', ('step2',), fig_shared),
    ('step3_registers/registers', ('step2', 'step3'), fig_registers),
    ('step4_vectorize/vectorize', ('step3', 'step4'), fig_vectorize),
    ('step5_pipeline/pipeline', ('step5',), fig_pipeline),
    ('step6_unroll/unroll', ('step5', 'further'), fig_unroll),   # step 6's constants, as ./further (built on it) describes them
] + TRACK_FIGURES


def write(target, svg):
    """target.svg, and target.png rendered from it where the SVG changed or the PNG is missing:
    a second run writes nothing, and a PNG changes only with its picture."""
    os.makedirs(os.path.dirname(target), exist_ok=True)
    old = open(target + '.svg', encoding='utf-8').read() if os.path.exists(target + '.svg') else None
    if old == svg and os.path.exists(target + '.png'):
        return
    if old != svg:
        with open(target + '.svg', 'w', encoding='utf-8') as f:
            f.write(svg)
        print('figures: wrote %s.svg' % os.path.relpath(target))
    p = subprocess.run(['rsvg-convert', '--zoom', str(ZOOM), '--output', target + '.png.tmp', target + '.svg'],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise Fail('rsvg-convert could not render %s.svg: %s' % (target, p.stderr.strip()))
    os.replace(target + '.png.tmp', target + '.png')           # no half-written PNG left behind
    print('figures: wrote %s.png' % os.path.relpath(target))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--steps', default=ROOT, help='where ./step1 .. ./step6 and ./further are')
    ap.add_argument('--out', default=ROOT, help='where the lesson folders are written')
    ap.add_argument('--only', default='', help='draw only the figures whose paths contain this')
    a = ap.parse_args(argv)
    try:
        wanted = [f for f in FIGURES if a.only in f[0]]
        described = {name: step_words(a.steps, name) for name in dict.fromkeys(n for _, ns, _ in wanted for n in ns)}
        for path, names, draw in wanted:
            args = [described[n] for n in names]
            if None in args:
                print('figures: ./%s is not built here: %s.{svg,png} left as they are' % (names[args.index(None)], path))
            else:
                write(os.path.join(a.out, path), draw(*args).svg())
    except (Fail, OSError) as e:     # OSError: no rsvg-convert here (make need-rsvg), or no room to write
        print('figures: %s' % e, file=sys.stderr)
        return e.code if isinstance(e, Fail) else 2
    return 0


if __name__ == '__main__':
    sys.exit(main())

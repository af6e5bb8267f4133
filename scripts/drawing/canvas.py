"""canvas.py - one drawing, two files: an SVG and a PNG of the same shapes.

A figure draws on a Canvas in user units (x right, y down): rectangles, lines, arrows,
polygons and text (font.py's strokes). `svg()` writes the shapes as SVG elements, `png()`
rasterizes the same shapes (anti-aliased) at `scale` pixels a unit and encodes them (png.py).
Both are pure functions of the shapes: no dates, ids or versions, and only IEEE arithmetic that
every machine rounds alike (+, -, *, /, math.sqrt; no pow, sin or cos from the C library, which
may differ in the last bit), so that a figure is the same bytes on every machine.
"""

import math

from . import font
from . import png as png_file


def _hex(color):
    return '#%02x%02x%02x' % color


def rgb(spec):
    """'#rrggbb' as a tuple."""
    return tuple(int(spec[i:i + 2], 16) for i in (1, 3, 5))


def _num(v):
    """A coordinate as the SVG writes it: at most two decimals, no trailing zeros."""
    s = '%.2f' % v
    s = s.rstrip('0').rstrip('.')
    return '0' if s in ('-0', '') else s


class Canvas:
    def __init__(self, width, height, title, background='#ffffff'):
        self.width, self.height, self.title = width, height, title
        self.background = rgb(background)
        self.items = []

    # --- drawing ---------------------------------------------------------------------------

    def rect(self, x, y, w, h, fill=None, stroke=None, width=1.0, opacity=1.0):
        """An axis-aligned rectangle; its outline (stroke) is centred on its edges."""
        self.items.append(('rect', x, y, w, h, fill and rgb(fill), stroke and rgb(stroke), width, opacity))

    def line(self, points, color, width=1.0, dash=None):
        """A polyline with round ends and joins; dash=(on, off) cuts it into dashes."""
        color = rgb(color)
        if dash:
            for seg in _dashes(points, dash):
                self.items.append(('path', [seg], color, width, None))
        else:
            self.items.append(('path', [list(points)], color, width, None))

    def rules(self, lines, color, width=0.5):
        """Axis-aligned lines (x0, y0, x1, y1) with square-cut ends, as one shape: a grid's."""
        self.items.append(('rules', [tuple(l) for l in lines], rgb(color), width))

    def polygon(self, points, fill, opacity=1.0):
        self.items.append(('poly', list(points), rgb(fill), opacity))

    def arrow(self, points, color, width=1.5, head=7.0, dash=None):
        """A polyline ending in a filled arrowhead `head` units long, its tip at the last point."""
        (x0, y0), (x1, y1) = points[-2], points[-1]
        dx, dy = x1 - x0, y1 - y0
        n = math.sqrt(dx * dx + dy * dy)
        ux, uy = dx / n, dy / n
        bx, by = x1 - ux * head, y1 - uy * head         # the base of the head
        half = head * 0.45
        line = list(points[:-1]) + [(x1 - ux * head * 0.6, y1 - uy * head * 0.6)]
        self.line(line, color, width, dash)
        self.polygon([(x1, y1), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)], color)

    def text(self, x, y, s, size=13.0, color='#222222', anchor='start', bold=False):
        """Text with its baseline at y; anchor: start, middle or end at x. Returns its width."""
        w = font.width(s, size)
        x0 = x - (w / 2 if anchor == 'middle' else w if anchor == 'end' else 0)
        self.items.append(('text', x0, y, s, size, rgb(color), bold))
        return w

    @staticmethod
    def text_width(s, size=13.0):
        return font.width(s, size)

    def check(self):
        """Raises ValueError naming the first shape that reaches outside the canvas: nothing is cut off."""
        for item in self.items:
            kind = item[0]
            if kind == 'rect':
                _, x, y, w, h, _f, stroke, width, _o = item
                m = width / 2 if stroke else 0
                box, what = (x - m, y - m, x + w + m, y + h + m), 'a rectangle at (%g, %g)' % (x, y)
            elif kind == 'text':
                _, x0, y, s, size, _c, bold = item
                u = size / font.UNITS_PER_EM
                box, what = (x0, y - 11 * u, x0 + font.width(s, size), y + 3 * u), 'the text %r' % s
            elif kind == 'rules':
                _, lines, _c, width = item
                m = width / 2
                box = (min(min(l[0], l[2]) for l in lines) - m, min(min(l[1], l[3]) for l in lines) - m,
                       max(max(l[0], l[2]) for l in lines) + m, max(max(l[1], l[3]) for l in lines) + m)
                what = 'a grid'
            else:
                pts = [p for s in item[1] for p in s] if kind == 'path' else item[1]
                m = item[3] / 2 if kind == 'path' else 0
                box = (min(p[0] for p in pts) - m, min(p[1] for p in pts) - m, max(p[0] for p in pts) + m,
                       max(p[1] for p in pts) + m)
                what = 'a line' if kind == 'path' else 'a polygon'
            if box[0] < 0 or box[1] < 0 or box[2] > self.width or box[3] > self.height:
                raise ValueError('%s: %s reaches outside its %g x %g canvas (%.1f, %.1f .. %.1f, %.1f)'
                                 % (self.title, what, self.width, self.height, *box))

    # --- SVG -------------------------------------------------------------------------------

    def svg(self):
        """The SVG: each glyph's strokes once (font units, in <defs>), each label a <use> of them."""
        self.check()
        out = ['<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="%s" '
               'height="%s" viewBox="0 0 %s %s" role="img">'
               % (_num(self.width), _num(self.height), _num(self.width), _num(self.height)),
               '<title>%s</title>' % _escape(self.title)]
        used = sorted({ch for item in self.items if item[0] == 'text' for ch in item[3] if font.strokes(ch)})
        if used:
            out.append('<defs>')
            for ch in used:
                out.append('<path id="g%x" d="%s"/>' % (ord(ch), _path([[(x, -y) for x, y in s]
                                                                       for s in font.strokes(ch)])))
            out.append('</defs>')
        out.append('<rect width="100%%" height="100%%" fill="%s"/>' % _hex(self.background))
        for item in self.items:
            kind = item[0]
            if kind == 'rect':
                _, x, y, w, h, fill, stroke, width, opacity = item
                attrs = 'x="%s" y="%s" width="%s" height="%s" fill="%s"' % (
                    _num(x), _num(y), _num(w), _num(h), _hex(fill) if fill else 'none')
                if stroke:
                    attrs += ' stroke="%s" stroke-width="%s"' % (_hex(stroke), _num(width))
                if opacity < 1:
                    attrs += ' opacity="%s"' % _num(opacity)
                out.append('<rect %s/>' % attrs)
            elif kind == 'path':
                _, strokes, color, width, label = item
                out.append('<path d="%s" fill="none" stroke="%s" stroke-width="%s" stroke-linecap="round" '
                           'stroke-linejoin="round"/>' % (_path(strokes), _hex(color), _num(width)))
            elif kind == 'rules':
                _, lines, color, width = item
                d = ''.join('M%s %s%s%s' % (_num(a), _num(b), 'H' if b == d_ else 'V', _num(c_ if b == d_ else d_))
                            for a, b, c_, d_ in lines)
                out.append('<path d="%s" fill="none" stroke="%s" stroke-width="%s"/>' % (d, _hex(color), _num(width)))
            elif kind == 'poly':
                _, pts, fill, opacity = item
                out.append('<path d="%sZ" fill="%s"%s/>' % (_path([pts]), _hex(fill),
                                                           ' opacity="%s"' % _num(opacity) if opacity < 1 else ''))
            elif kind == 'text':
                _, x0, y, s, size, color, bold = item
                u = size / font.UNITS_PER_EM
                uses, x = [], 0.0
                for ch in s:
                    if font.strokes(ch):
                        uses.append('<use xlink:href="#g%x"%s/>' % (ord(ch), ' x="%s"' % _num(x) if x else ''))
                    x += font.advance(ch)
                if uses:
                    out.append('<g aria-label="%s" transform="translate(%s %s) scale(%s)" fill="none" stroke="%s" '
                               'stroke-width="%s" stroke-linecap="round" stroke-linejoin="round">%s</g>'
                               % (_escape(s), _num(x0), _num(y), _num4(u), _hex(color),
                                  _num(font.pen(size, bold) / u), ''.join(uses)))
        out.append('</svg>')
        return '\n'.join(out) + '\n'

    # --- PNG -------------------------------------------------------------------------------

    def png(self, scale=2):
        self.check()
        r = _Raster(int(round(self.width * scale)), int(round(self.height * scale)), self.background)
        for item in self.items:
            kind = item[0]
            if kind == 'rect':
                _, x, y, w, h, fill, stroke, width, opacity = item
                if fill:
                    r.fill_rect(x * scale, y * scale, (x + w) * scale, (y + h) * scale, fill, opacity)
                if stroke:
                    hw = width / 2
                    for (ax, ay, bx, by) in ((x - hw, y - hw, x + w + hw, y + hw),
                                             (x - hw, y + h - hw, x + w + hw, y + h + hw),
                                             (x - hw, y + hw, x + hw, y + h - hw),
                                             (x + w - hw, y + hw, x + w + hw, y + h - hw)):
                        r.fill_rect(ax * scale, ay * scale, bx * scale, by * scale, stroke, opacity)
            elif kind == 'path':
                _, strokes, color, width, _label = item
                r.stroke([[(px * scale, py * scale) for px, py in s] for s in strokes], width * scale / 2, color)
            elif kind == 'rules':
                _, lines, color, width = item
                hw = width / 2
                for a, b, c_, d_ in lines:
                    if b == d_:   # across
                        r.fill_rect(min(a, c_) * scale, (b - hw) * scale, max(a, c_) * scale, (b + hw) * scale, color)
                    else:         # down
                        r.fill_rect((a - hw) * scale, min(b, d_) * scale, (a + hw) * scale, max(b, d_) * scale, color)
            elif kind == 'poly':
                _, pts, fill, opacity = item
                r.fill_polygon([(px * scale, py * scale) for px, py in pts], fill, opacity)
            elif kind == 'text':
                _, x0, y, s, size, color, bold = item
                r.text(x0 * scale, y * scale, s, size * scale, color, font.pen(size, bold) * scale / 2)
        return png_file.encode_rgb(r.w, r.h, r.pixels)


def _escape(s):
    return s.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;').replace('"', '&quot;')


def _num4(v):
    s = ('%.4f' % v).rstrip('0').rstrip('.')
    return s


def _path(strokes):
    parts = []
    for s in strokes:
        parts.append('M' + ' '.join('%s %s' % (_num(x), _num(y)) for x, y in s[:1]))
        if len(s) > 1:
            parts.append('L' + ' '.join('%s %s' % (_num(x), _num(y)) for x, y in s[1:]))
    return ''.join(parts)


def _dashes(points, dash):
    on, off = dash
    out, cur, left, drawing = [], [points[0]], on, True
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        n = math.sqrt((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0))
        t = 0.0
        while n - t > left:
            t += left
            p = (x0 + (x1 - x0) * t / n, y0 + (y1 - y0) * t / n)
            if drawing:
                cur.append(p)
                out.append(cur)
            else:
                cur = [p]
            drawing = not drawing
            left = on if drawing else off
        left -= n - t
        if drawing:
            cur.append((x1, y1))
    if drawing and len(cur) > 1:
        out.append(cur)
    return out


def _px(v):
    """A bound to the nearest pixel edge, halves up (not to even, which would make a one-pixel
    line at an odd edge vanish)."""
    return int(math.floor(v + 0.5))


class _Raster:
    """An RGB image, and the few ways the figures paint it. Coverage is exact for pixel-aligned
    rectangles and estimated from the distance to the pen's path for strokes (a pixel whose
    centre is d from the path of a pen of half-width r is covered r + 0.5 - d, clamped)."""

    def __init__(self, w, h, background):
        self.w, self.h = w, h
        self.pixels = bytearray(bytes(background) * (w * h))
        self.glyphs = {}

    def _blend_tables(self, color, alpha8):
        return [bytes((v * (255 - alpha8) + c * alpha8 + 127) // 255 for v in range(256)) for c in color]

    def fill_rect(self, x0, y0, x1, y1, color, opacity=1.0):
        """Pixels [x0, x1) x [y0, y1), the bounds rounded to whole pixels."""
        x0, y0, x1, y1 = max(0, _px(x0)), max(0, _px(y0)), min(self.w, _px(x1)), min(self.h, _px(y1))
        if x1 <= x0 or y1 <= y0:
            return
        n = x1 - x0
        if opacity >= 1:
            run = bytes(color) * n
            for yy in range(y0, y1):
                at = (yy * self.w + x0) * 3
                self.pixels[at:at + 3 * n] = run
            return
        tables = self._blend_tables(color, int(round(opacity * 255)))
        for yy in range(y0, y1):
            at = (yy * self.w + x0) * 3
            row = self.pixels[at:at + 3 * n]
            for c in range(3):
                row[c::3] = row[c::3].translate(tables[c])
            self.pixels[at:at + 3 * n] = row

    def _paint(self, cover, color, opacity=1.0):
        """cover: {pixel index: coverage 0..1}."""
        px, (cr, cg, cb) = self.pixels, color
        for idx in sorted(cover):
            a = int(cover[idx] * opacity * 255 + 0.5)
            if a <= 0:
                continue
            at, b = idx * 3, 255 - a
            px[at] = (px[at] * b + cr * a + 127) // 255
            px[at + 1] = (px[at + 1] * b + cg * a + 127) // 255
            px[at + 2] = (px[at + 2] * b + cb * a + 127) // 255

    def _cover_strokes(self, strokes, r, cover, ox=0, oy=0, w=None, h=None):
        """Adds to `cover` the coverage of a pen of half-width r along each stroke."""
        w = self.w if w is None else w
        h = self.h if h is None else h
        for s in strokes:
            segs = list(zip(s, s[1:])) or [(s[0], s[0])]
            for (ax, ay), (bx, by) in segs:
                ax, ay, bx, by = ax - ox, ay - oy, bx - ox, by - oy
                x_lo = max(0, int(min(ax, bx) - r - 1))
                x_hi = min(w - 1, int(max(ax, bx) + r + 1))
                y_lo = max(0, int(min(ay, by) - r - 1))
                y_hi = min(h - 1, int(max(ay, by) + r + 1))
                dx, dy = bx - ax, by - ay
                ll = dx * dx + dy * dy
                for yy in range(y_lo, y_hi + 1):
                    py = yy + 0.5
                    for xx in range(x_lo, x_hi + 1):
                        px = xx + 0.5
                        if ll > 0:
                            t = ((px - ax) * dx + (py - ay) * dy) / ll
                            t = 0.0 if t < 0 else 1.0 if t > 1 else t
                            qx, qy = ax + t * dx - px, ay + t * dy - py
                        else:
                            qx, qy = ax - px, ay - py
                        c = r + 0.5 - math.sqrt(qx * qx + qy * qy)
                        if c > 0:
                            c = 1.0 if c > 1 else c
                            idx = yy * w + xx
                            if c > cover.get(idx, 0.0):
                                cover[idx] = c

    def stroke(self, strokes, r, color):
        cover = {}
        self._cover_strokes(strokes, r, cover)
        self._paint(cover, color)

    def fill_polygon(self, pts, color, opacity=1.0):
        """Even-odd fill, 4 x 4 samples a pixel."""
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        cover = {}
        edges = list(zip(pts, pts[1:] + pts[:1]))
        for yy in range(max(0, int(min(ys))), min(self.h, int(max(ys)) + 1)):
            for xx in range(max(0, int(min(xs))), min(self.w, int(max(xs)) + 1)):
                inside = 0
                for sy in range(4):
                    py = yy + (sy + 0.5) / 4
                    for sx in range(4):
                        px = xx + (sx + 0.5) / 4
                        odd = False
                        for (ax, ay), (bx, by) in edges:
                            if (ay > py) != (by > py) and px < ax + (py - ay) * (bx - ax) / (by - ay):
                                odd = not odd
                        inside += odd
                if inside:
                    cover[yy * self.w + xx] = inside / 16
        self._paint(cover, color, opacity)

    def text(self, x0, y, s, size, color, r):
        """A string at pixel position x0 (its start) and y (its baseline); each glyph is
        rasterized once per size and pen (at a whole-pixel origin) and then copied."""
        u = size / font.UNITS_PER_EM
        x = x0
        cover = {}
        for ch in s:
            ox, oy = int(round(x)), int(round(y))
            glyph = self._glyph(ch, size, r)
            for dx, dy, c in glyph:
                xx, yy = ox + dx, oy + dy
                if 0 <= xx < self.w and 0 <= yy < self.h:
                    idx = yy * self.w + xx
                    if c > cover.get(idx, 0.0):
                        cover[idx] = c
            x += font.advance(ch) * u
        self._paint(cover, color)

    def _glyph(self, ch, size, r):
        key = (ch, size, r)
        if key not in self.glyphs:
            u = size / font.UNITS_PER_EM
            pad = int(r + 2)
            strokes = [[(px * u, -py * u) for px, py in s] for s in font.strokes(ch)]
            if not strokes:
                self.glyphs[key] = []
                return self.glyphs[key]
            left = int(min(p[0] for s in strokes for p in s) - r) - pad
            top = int(min(p[1] for s in strokes for p in s) - r) - pad
            right = int(max(p[0] for s in strokes for p in s) + r) + pad
            bottom = int(max(p[1] for s in strokes for p in s) + r) + pad
            cover = {}
            w, h = right - left + 1, bottom - top + 1
            self._cover_strokes(strokes, r, cover, left, top, w, h)
            self.glyphs[key] = [(idx % w + left, idx // w + top, c) for idx, c in sorted(cover.items())]
        return self.glyphs[key]

"""track_figures.py - the going-further track's figures: warp tiles, split-K, wide tiles and stream-K.

Each is drawn from what ./further --describe prints, by the course's figure engine (scripts/figures.py,
which `make figures` runs: it draws these with the steps' figures, and the tests redraw them byte for byte).
"""
from course.describe import describe, need, records, track_tiles
from figures import (
    A_INK, BARRIER, B_FILL, B_INK, C_FILL, C_INK, Figure, GREY, INK, SERIES, SERIES_FILL, SHARED,
    SHARED_INK, THREAD, WARP, WARP_FILL, WHITE, WIDTH, cells, dims, elements, grid, key, nb, owned,
    runs, shapes, tile)


def example(d, key):
    """split_k_example=MxNxK,tile:small,split:4,... as one record (m, n, k and each named number)."""
    first, *named = need(d, key).split(',')
    out = records({key: first, '_binary': d['_binary']}, key, 'MxNxK')[0]
    for p in named:
        name, _, value = p.partition(':')
        setattr(out, name, value if name == 'tile' else int(value))
    return out


def wavefronts(float4s):
    """Shared-memory wavefronts (128 bytes each) for a warp's LDS.128 of this many distinct float4."""
    return (16 * float4s + 127) // 128


def tile_panel(c, x, y, e, t, title):
    """A block tile with warp 0's elements (light) and thread 0's (dark). Step 6's core lays its
    threads across the tile; a track tile (t.wm x t.wn warp tiles) gives each warp a tile of its
    own, outlined and named, its 32 lanes a grid of 4 x 4 pieces in it."""
    bm, bn = t.bm, t.bn
    warp_tiles = hasattr(t, 'wm')
    piece, grid_m, grid_n = (4, t.wm // t.tm, t.wn // t.tn) if warp_tiles else (t.piece, t.threads_m, t.threads_n)
    c.rect(x, y, bn * e, bm * e, fill=C_FILL)
    cells(c, x, y, e, e, {r for ty in range(32 // grid_n) for r in owned(piece, t.tm, ty, grid_m)},
          {q for tx in range(grid_n) for q in owned(piece, t.tn, tx, grid_n)}, WARP_FILL)
    cells(c, x, y, e, e, owned(piece, t.tm, 0, grid_m), owned(piece, t.tn, 0, grid_n), THREAD)
    grid(c, x, y, bm // 4, bn // 4, 4 * e, 4 * e, '#f1dbb8')
    if warp_tiles:
        grid(c, x, y, bm // t.wm, bn // t.wn, t.wn * e, t.wm * e, WARP, every=1)
        for w in range(1, (bm // t.wm) * (bn // t.wn)):
            r0, q0 = (w // (bn // t.wn)) * t.wm, (w % (bn // t.wn)) * t.wn
            c.text(x + (q0 + t.wn / 2) * e, y + (r0 + t.wm / 2) * e + 4, 'warp %d' % w, 11, WARP, 'middle')
    c.rect(x, y, bn * e, bm * e, stroke=INK, width=1.2)
    c.text(x, y - 10, title, 12.5, INK, bold=True)


def fig_warp_tiles(gf):
    core, wt = shapes(gf)[0], track_tiles(gf)['large']   # gf: ./further --describe (shapes=: step 6's)
    bm, bn, e = core.bm, core.bn, 2.9
    lanes_m, lanes_n = wt.wm // wt.tm, wt.wn // wt.tn
    warp_ty = 32 // core.threads_n                      # rows of threads a warp spans in the core
    c = Figure("Going further, 1: warp tiles: a warp's fragment loads in one wavefront",
               './further --describe: shapes=%s track_tiles=large:%dx%dx%d:%dx%d:%dx%d:...'
               % (gf['shapes'], wt.bm, wt.bn, wt.bk, wt.wm, wt.wn, wt.tm, wt.tn))
    x1, x2, y0 = 44, WIDTH - 44 - bn * e, 104
    tile_panel(c, x1, y0, e, core, "step 6's core: threads across the tile")
    tile_panel(c, x2, y0, e, wt, 'warp tiles: warp w owns a %s tile' % dims(wt.wm, wt.wn))
    # one LDS.128 of B across the warp (its first float4 of each thread)
    y = y0
    for x, n in ((x1, core.threads_n), (x2, lanes_n)):
        tile(c, x, y0 + bm * e + 26, 1, bn // 4, 4 * e, 12, B_FILL, B_INK, WHITE, marks=[([0], range(n), B_INK)])
        y = max(y, c.para(x, y0 + bm * e + 56, 'a row of b_stage: what one LDS.128 of B reads across the warp: %d '
                          'float4, %d bytes, %d wavefront%s' % (n, 16 * n, wavefronts(n), 's' * (wavefronts(n) > 1)),
                          12, B_INK, width=bn * e))
    core_wf = (core.tm // 4) * wavefronts(warp_ty) + (core.tn // 4) * wavefronts(core.threads_n)
    warp_wf = (wt.tm // 4) * wavefronts(lanes_m) + (wt.tn // 4) * wavefronts(lanes_n)
    y = key(c, 24, y + 10, THREAD, "thread 0's %s tile: four %s pieces, as in step 5; and warp 0's threads (light):"
            ' in the core two %d-row bands across all %d columns, in warp tiles a %s tile, its lanes a %s grid.'
            % (dims(core.tm, core.tn), dims(4, 4), 4 * warp_ty, bn, dims(wt.wm, wt.wn), dims(lanes_m, lanes_n)))
    y = c.para(24, y, "A k-slice's fragments then cost a warp %d wavefronts of shared memory instead of %d, for the "
               'same %d FMAs a thread.' % (warp_wf, core_wf, core.tm * core.tn))
    return c.end(y + 4)


def fig_split_k(gf):
    ex = example(gf, 'split_k_example')
    t = track_tiles(gf)[ex.tile]
    sms = int(need(gf, 'example_sms'))
    split, k_tiles, mine = ex.split, ex.k_tiles, 1      # mine: the block whose sum is drawn
    each, rows_each = -(-k_tiles // split), t.bm // split
    rows = ['rows %d..%d' % (r * rows_each, (r + 1) * rows_each - 1) for r in range(split)]
    c = Figure('Going further, 2: K split over the %d blocks of a cluster' % split,
               './further --describe: split_k_example=%s example_sms=%d' % (gf['split_k_example'], sms))
    # C and its tiles
    tiles_m, tiles_n = -(-ex.m // t.bm), -(-ex.n // t.bn)
    cs = 200 / max(tiles_m, tiles_n)
    tile(c, 24, 96, tiles_m, tiles_n, cs, cs, C_FILL, INK, WHITE, every=1, marks=[([0], [0], C_INK)])
    y = c.para(24, 96 + tiles_m * cs + 20, '%s: %d tiles of %s for %d SMs. Each tile is one cluster of %d blocks: '
               '%d blocks.' % (dims(ex.m, ex.n, ex.k), ex.tiles, dims(t.bm, t.bn), sms, split, ex.blocks), 12,
               width=200)
    # the tile's k-tiles, shared by the blocks of its cluster
    kx, ky, kw = 270, 96, WIDTH - 24 - 270
    seg = kw / k_tiles
    c.text(kx, ky + 10, "the tile's K: %d k-tiles of %d, a share of %d k-tiles to each block (rank r)"
           % (k_tiles, t.bk, each), 12.5, INK)
    for r in range(split):
        c.rect(kx + r * each * seg, ky + 20, (min(k_tiles, (r + 1) * each) - r * each) * seg, 22, fill=SERIES[r])
    grid(c, kx, ky + 20, 1, k_tiles, seg, 22, WHITE)
    for r in range(split):
        lo, hi = r * each, min(k_tiles, (r + 1) * each)
        c.rect(kx + (lo + hi) / 2 * seg - 62, ky + 24, 124, 14, fill=SERIES[r])
        c.text(kx + (lo + hi) / 2 * seg, ky + 35, 'block %d: k-tiles %d..%d' % (r, lo, hi - 1), 10, WHITE, 'middle')
    # each block's partial tile in its own shared memory, and the rows block 1 adds up
    py = c.para(kx, ky + 80, 'one cluster: %d blocks at once on one GPC, each with its partial tile p(r) in its own '
                'shared memory' % split) - 17
    pw = 112
    gapx, ps = (kw - split * pw) / max(1, split - 1), pw / t.bn
    ph, rh = t.bm * ps, rows_each * ps
    oty = py + 36 + ph + 24 + 80                        # the tile of C
    sbx, sbw, sbh = kx, 290, 30                         # the sum
    sby = oty + (mine + 0.5) * rh - sbh / 2
    for r in range(split):
        bx = kx + r * (pw + gapx)
        c.rect(bx - 8, py + 12, pw + 16, ph + 40, fill=SHARED, stroke=SHARED_INK)
        c.text(bx + pw / 2, py + 28, 'block %d' % r, 11.5, INK, 'middle', bold=True)
        c.rect(bx, py + 36, pw, ph, fill=SERIES_FILL[r])
        c.rect(bx, py + 36 + mine * rh, pw, rh, fill=WHITE, stroke=SERIES[mine], width=1.5)
        c.rect(bx, py + 36, pw, ph, stroke=SERIES[r], width=1.2)
        c.text(bx + pw / 2, py + 36 + (mine + 0.5) * rh + 4, rows[mine], 10.5, SERIES[mine], 'middle')
        c.text(bx + pw / 2, py + 36 + ph - 6, 'p%d' % r, 12, INK, 'middle', bold=True)
        c.arrow([(bx + pw / 2, py + 36 + ph + 10), (sbx + sbw * (r + 0.5) / split, sby - 3)], SERIES[mine], 1.3, 6)
    # block 1's sum of those rows, in rank order, into its rows of C
    c.rect(sbx, sby, sbw, sbh, fill=WHITE, stroke=SERIES[mine], width=1.5)
    c.text(sbx + sbw / 2, sby + sbh / 2 + 4.5, 'block %d, %s: %s' % (
        mine, rows[mine], ' + '.join('p%d' % r for r in range(split))), 12.5, INK, 'middle')
    ox = sbx + sbw + 70
    for r in range(split):
        c.rect(ox, oty + r * rh, pw, rh, fill=SERIES[r] if r == mine else SERIES_FILL[r])
        c.text(ox + pw + 10, oty + (r + 0.5) * rh + 4, '%s: block %d' % (rows[r], r), 11.5, SERIES[r])
    c.rect(ox, oty, pw, ph, stroke=INK, width=1.2)
    c.text(ox + pw / 2, oty - 8, 'the tile of C', 12, C_INK, 'middle')
    c.arrow([(sbx + sbw + 2, sby + sbh / 2), (ox - 3, sby + sbh / 2)], SERIES[mine], 1.6)
    y2 = key(c, kx, oty + ph + 26, SERIES[mine], 'after cluster.sync(), block r adds rows %s of every partial tile, '
             'read through distributed shared memory (cluster.map_shared_rank), in rank order, and writes them to C: '
             'the same sum every launch; no workspace, no second kernel.'
             % nb('%d r .. %d r + %d' % (rows_each, rows_each, rows_each - 1)))
    return c.end(max(y, y2))


def fig_wide_tiles(gf):
    tiles = track_tiles(gf)
    wt, lt = tiles['wide'], tiles['large']
    copies = records(gf, 'wide_copies', 'a:b')[0]
    parts = [('A%d' % i, A_INK) for i in range(copies.a)] + [('B%d' % i, B_INK) for i in range(copies.b)]
    stages = int(need(gf, 'default_stages'))
    bk, e, y0, tx = wt.bk, 1.6, 112, 24 + wt.bn * 1.6 + 30
    c = Figure('Going further, 3: %s tiles of %s a thread, in a lean loop' % (dims(wt.bm, wt.bn), dims(wt.tm, wt.tn)),
               './further --describe: track_tiles=...,wide:%dx%dx%d:%dx%d:%dx%d:%d:%d,... wide_copies=%s'
               % (wt.bm, wt.bn, wt.bk, wt.wm, wt.wn, wt.tm, wt.tn, wt.threads, wt.min_blocks, gf['wide_copies']))
    tile_panel(c, 24, y0, e, wt, 'a wide tile: %d warps of %s, one block an SM'
               % ((wt.bm // wt.wm) * (wt.bn // wt.wn), dims(wt.wm, wt.wn)))
    y = key(c, tx, y0 + 2, THREAD, 'thread 0: %d accumulators (%s), where the %s tiles have %d (%s).'
            % (wt.tm * wt.tn, dims(wt.tm, wt.tn), dims(lt.bm, lt.bn), lt.tm * lt.tn, dims(lt.tm, lt.tn)))
    y = c.para(tx, y, 'A k-slice: %d FMAs for %d LDS.128, where it was %d for %d; a block reads %d floats a k for %d '
               'FMAs instead of %d for %d.' % (wt.tm * wt.tn, (wt.tm + wt.tn) // 4, lt.tm * lt.tn, (lt.tm + lt.tn) // 4,
                                              wt.bm + wt.bn, wt.bm * wt.bn, lt.bm + lt.bn, lt.bm * lt.bn)) + 6
    y = c.para(tx, y, 'Up to 255 registers a thread: one block of %d threads an SM.' % wt.threads, 12.5, GREY)

    # one k-tile of the two loops, slice by slice
    ly, h, lx = max(y, y0 + wt.bm * e) + 44, 24, 190
    sw = (WIDTH - 24 - lx) / bk
    c.text(24, ly, 'one k-tile, slice by slice (%d slices; %d stages):' % (bk, stages), 13, INK, bold=True)
    for q in range(bk):
        c.text(lx + q * sw + sw / 2, ly + 20, 'slice %d' % q, 11, GREY, 'middle')
    for name, spread in (("step 6's unrolled pipeline", False), ('the lean loop', True)):
        ly += 40
        c.text(24, ly - 8, name, 12.5, INK, bold=True)
        c.text(lx - 10, ly + h / 2 + 4, ['copies', 'FMAs'], 12, INK, 'end', gap=h + 4)
        for q in range(bk):
            c.rect(lx + q * sw + 1, ly + h + 4, sw - 2, h, fill=C_FILL)
        for i, (part, ink) in enumerate(parts):
            if spread:                                  # a part a slice, among the FMAs; one commit
                c.rect(lx + i * sw + 3, ly + 3, sw - 6, h - 6, fill=ink)
                c.text(lx + i * sw + sw / 2, ly + h / 2 + 4, part, 11, WHITE, 'middle', bold=True)
            else:                                       # every part in slice 0
                c.rect(lx + 3 + i * (sw - 6) / len(parts), ly + 3, (sw - 6) / len(parts) - 1, h - 6, fill=ink)
        if spread:
            c.text(lx + len(parts) * sw + 6, ly + h / 2 + 4, 'commit', 11, GREY)
        else:
            c.text(lx + sw + 8, ly + h / 2 + 4, 'all %d parts at slice 0, right after the barrier' % len(parts),
                   11, GREY)
        c.rect(lx + (bk - 1) * sw - 1, ly - 4, 2.5, 2 * h + 12, fill=BARRIER)
        ly += 2 * h + 2
    y = key(c, 24, ly + 24, BARRIER, "slice %d: wait for the next k-tile's copy, one barrier. Issued all at once after "
            'the barrier, the copies stalled both warps of a scheduler together; in the lean loop, one k-tile a trip, '
            'the stages it reads and writes are offsets stepping round the ring of %d.' % (bk - 1, stages))
    return c.end(y)


def fig_stream_k(gf):
    ex = example(gf, 'stream_k_example')
    sms = int(need(gf, 'example_sms'))
    t = track_tiles(gf)[ex.tile]
    runs, k_tiles, left, waves = ex.runs, ex.k_tiles, ex.tiles - ex.blocks, ex.blocks // sms
    total = left * k_tiles                             # the last wave's k-tiles, in runs
    x0, wh = 130, 30                                   # wh: a wave's height, one tile's k-tiles
    cw = (WIDTH - 24 - x0) / sms
    c = Figure('Going further, 4: the last wave, in runs of k-tiles (stream-K)',
               './further --describe: stream_k_example=%s example_sms=%d' % (gf['stream_k_example'], sms))

    def pieces(r):
        """Run r's pieces of tiles: (the tile, its first k-tile, k-tiles, k-tiles into the run)."""
        a, b = r * total // runs, (r + 1) * total // runs
        for tile in range(a // k_tiles, -(-b // k_tiles)):
            lo, hi = max(a, tile * k_tiles), min(b, (tile + 1) * k_tiles)
            yield tile, lo - tile * k_tiles, hi - lo, lo - a

    def waves_panel(y, title, last):
        """The whole waves, one block an SM, above the last row, named `last`; returns its top."""
        c.text(24, y, title, 13, INK, bold=True)
        for x, s in ((x0 + cw / 2, '0'), (x0 + (sms - 0.5) * cw, str(sms - 1)), (x0 + sms * cw / 2, 'SM')):
            c.text(x, y + 16, s, 10, GREY, 'middle')
        for wv in range(waves):
            c.rect(x0, y + 24 + wv * wh, sms * cw, wh, fill=SERIES_FILL[wv % 2 * 2])
        grid(c, x0, y + 24, waves, sms, cw, wh, WHITE)
        c.text(x0 - 10, y + 28 + wh / 2, ['wave %d' % (wv + 1) for wv in range(waves)] + [last], 11.5, INK, 'end',
               gap=wh)
        return y + 24 + waves * wh

    y = waves_panel(92, 'K whole: %d tiles of %s, one block a tile, %d waves of %d SMs'
                    % (ex.tiles, dims(t.bm, t.bn), waves + 1, sms), 'wave %d' % (waves + 1))
    c.rect(x0, y, left * cw, wh, fill=SERIES[0])
    grid(c, x0, y, 1, left, cw, wh, WHITE)
    grid(c, x0 + left * cw, y, 1, sms - left, cw, wh, '#d9d9d9')
    c.rect(x0 + left * cw, y, (sms - left) * cw, wh, stroke=THREAD, width=1.2)
    c.text(x0 + sms * cw - 4, y + wh + 14, '%d SMs idle' % (sms - left), 11.5, THREAD, 'end')
    c.text(x0, y + wh + 14, '%d tiles left, one block each' % left, 11.5, INK)

    y = waves_panel(y + wh + 46, 'the last wave in runs: %d tiles as before (%d waves), then %d runs'
                    % (ex.blocks, waves, runs), 'runs')
    for r in range(runs):
        for tile, _, n, into in pieces(r):
            c.rect(x0 + r * cw, y + into * wh / k_tiles, cw, n * wh / k_tiles, fill=SERIES[tile % 4])
            if into:
                c.rect(x0 + r * cw, y + into * wh / k_tiles - 0.5, cw, 1, fill=WHITE)
    c.lines([[(x0 - 4, y + wh), (x0 + sms * cw + 4, y + wh)]], INK, 1.2, dash=(5, 4))
    c.text(x0 + sms * cw, y + wh + 18, 'where K whole ends', 11.5, INK, 'end')
    c.text(x0, y + wh + 18, "%d tiles' k-tiles in one row, cut into %d runs of equal length, a block each"
           % (left, runs), 11.5, INK)
    # the first runs, enlarged
    c.text(24, y + wh + 46, "the first runs, enlarged (a column: one block; its height: one tile's %d k-tiles):"
           % k_tiles, 12.5, INK)
    y, zw, zh = y + wh + 60, 120, 150
    for r in range(6):
        zx = 24 + r * (zw + 20)
        c.text(zx + zw / 2, y + 10, 'run %d' % r, 11.5, GREY, 'middle')
        for tile, first, n, into in pieces(r):
            zy = y + 16 + into * zh / k_tiles
            c.rect(zx, zy, zw, n * zh / k_tiles, fill=SERIES[tile % 4], stroke=WHITE)
            c.text(zx + zw / 2, zy + n * zh / k_tiles / 2 + 4, 'tile %d: %d..%d' % (ex.blocks + tile, first,
                                                                                 first + n - 1), 10.5, WHITE, 'middle')
    y = key(c, 24, y + zh + 40, SERIES[0], 'the colours of the last wave tell its tiles apart: a run crosses into '
            'the next tile, and a tile cut between runs has each piece leave its sums in a slot of a workspace; the '
            'last piece to finish adds them up in k order and writes C.')
    y = c.para(24, y, 'Time: %d whole waves and %d of %d k-tiles, %.2f waves, instead of %d.'
               % (waves, -(-total // runs), k_tiles, waves + total / runs / k_tiles, waves + 1))
    return c.end(y + 4)


TRACK_FIGURES = [
    # (path without extension, the programs whose --describe it draws, the function)
    ('going_further/warp_tiles', ('further',), fig_warp_tiles),
    ('going_further/split_k', ('further',), fig_split_k),
    ('going_further/wide_tiles', ('further',), fig_wide_tiles),
    ('going_further/stream_k', ('further',), fig_stream_k),
]

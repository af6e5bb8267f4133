"""The charts: the data each plots/NAME.gp draws, prepared from a results CSV, and gnuplot run on it (make chart,
make sweep-chart, make shapes-chart, and after their runs make plots, make sweep, make shapes)."""
import math, os, shutil, subprocess, sys, tempfile
from pathlib import Path

from . import Fail
from .results import (ROOT, cublas_median, dates, find, in_order, least, mean_ratio_text, ratio_text, read_peak,
                      read_results, size_of, sizes_in, step_no, steps_in, sweep_step, values)


def gp(v):
    """A gnuplot literal."""
    if not isinstance(v, str):
        return repr(v)
    return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def flops(r):
    return 2 * int(r["m"]) * int(r["n"]) * int(r["k"])


def tflops(r):
    return f"{float(r['gflops']) / 1000:.4f}" if r and r["ok"] else "NaN"


def series(groups, xs, pick, title, where, more=lambda g, x: ()):
    """gnuplot data blocks (series i is `index i`): one per group with a valid run, a title line, then a
    line "x TFLOPS ratio ..." per x (NaN where the run failed: a gap), more(group, x) after; and the groups
    with none."""
    blocks, lost = [], []
    for g in groups:
        at = [(x, pick(g, x)) for x in xs if pick(g, x)]
        if not any(r["ok"] for _, r in at):
            lost.append(str(g))
            continue
        bad = ", ".join(f"{r['verdict'].split()[0]} at {where(r)}" for _, r in at if not r["ok"])
        pts = ""
        for x, r in at:
            ratio = r["ratio"] if r["ok"] else "NaN"
            pts += "\t".join(map(str, (x, tflops(r), ratio) + more(g, x))) + "\n"
        blocks.append(title(g) + (f" ({bad})" if bad else "") + "\n" + pts)
    return blocks, lost


def tic_label(step):
    """A step's name under its bar, a line for each word: "going\nfurther\n(part=core)"."""
    return step.replace("_", "\n", 1).replace(" (", "\n(")


def linetype(step):
    """The linetype (plots/style.gp: a colour and a marker) a series draws in, the same in every chart: step n (with
    options too) in n % 9 + 1, the going-further track in 8, the track with options (a part of it) in 9."""
    n = step_no(step)
    if n < 99:
        return n % 9 + 1
    return 9 if " (" in step else 8


def legend(steps, lost):
    """The linetypes of the steps drawn, and a note naming those with no valid run."""
    return dict(linetypes=" ".join(str(linetype(s)) for s in steps if s not in lost),
                note="no run passed: " + ", ".join(lost) if lost else "")


def passing_squares(rows, chart):
    passing = sorted({size_of(r) for r in rows if r["ok"]} - {0})
    if not passing:
        raise Fail(f"no PASS row has M = N = K: the {chart} chart needs square runs")
    return passing


def step_bars(rows, size, value):
    """The bars of a bar chart at one size, a line each step: "x value ratio linetype verdict" (value(row) of a
    valid run, NaN otherwise), the rows, and the x tics naming the steps."""
    steps = steps_in(rows)
    at = [find(rows, step=s, size=size) for s in steps]
    data = ""
    for x, (s, r) in enumerate(zip(steps, at)):
        valid = r and r["ok"]
        bar = value(r) if valid else "NaN"
        ratio = ratio_text(r["ratio"]) if valid else "NaN"
        data += f"{x}\t{bar}\t{ratio}\t{linetype(s)}\t{r['verdict'] if r else 'not run'}\n"
    tics = ", ".join(f"{gp(tic_label(s))} {x}" for x, s in enumerate(steps))
    return data, at, f"set xtics ({tics})"


def extent(rows, cublas=()):
    """The ranges of the TFLOPS (the valid runs' and cuBLAS's; 0 where there is none) and of the ratios to cuBLAS
    (1 included)."""
    tf = [float(r["gflops"]) / 1000 for r in rows if r["ok"]] + list(cublas)
    ratios = [float(r["ratio"]) for r in rows if r["ok"]] + [1.0]
    return dict(ymin=min(tf, default=0), ymax=max(tf, default=0), rmin=min(ratios), rmax=max(ratios))


# Each chart's data: (the data file, gnuplot's variables, a line of gnuplot after them) from the rows, the size the
# progression chart shows and the FMA peak.

def chart_progression(rows, size, _):
    passing = passing_squares(rows, "progression")
    if size not in passing:
        print(f"chart: note: no run passed at {size}; the progression chart shows {passing[-1]} instead", file=sys.stderr)
        size = passing[-1]
    cublas = cublas_median(rows, size) / 1000
    data, at, tics = step_bars(rows, size, tflops)
    top = max([cublas] + [float(r["gflops"]) / 1000 for r in at if r and r["ok"]])
    return data, dict(size=size, nsteps=len(at), cublas=cublas, ymax=top * 1.3), tics


def chart_peak(rows, _, peak):
    """Each step's share of the FP32 FMA peak at the largest square size, a bar each, labelled with its ratio to
    cuBLAS; cuBLAS's share as a dashed line (render draws it only with a peak from the same run)."""
    size = passing_squares(rows, "peak")[-1]
    pct = lambda g: 100 * float(g) / peak["fma_gflops"]
    data, at, tics = step_bars(rows, size, lambda r: pct(r["gflops"]))
    return data, dict(size=size, nsteps=len(at), cublas=pct(cublas_median(rows, size)),
                      peak_tflops=peak["fma_gflops"] / 1000), tics


def chart_sizes(rows, *_):
    sizes, steps = sizes_in(rows), steps_in(rows)
    blocks, lost = series(steps, sizes, lambda g, x: find(rows, step=g, size=x), str, lambda r: r["m"])
    cublas = [(s, cublas_median(rows, s) / 1000) for s in sizes if cublas_median(rows, s)]
    blocks.append("cuBLAS\n" + "".join(f"{s}\t{t:.4f}\t1\n" for s, t in cublas))
    return "\n\n\n".join(blocks), dict(extent(rows, [t for _, t in cublas]), nsteps=len(blocks) - 1, xmin=sizes[0],
                                       xmax=sizes[-1], **legend(steps, lost)), "set xtics (" + ", ".join(map(str, sizes)) + ")"


def chart_sweep(rows, *_):
    step, stages = sweep_step(rows)
    cublas = lambda size, _=None: (f"{cublas_median(rows, size) / 1000:.4f}",)
    blocks, lost = series(sizes_in(rows), stages, lambda g, x: find(rows, size=g, stages=x), str,
                          lambda r: f"S={r['stages']}", cublas)
    return "\n\n\n".join(blocks), dict(
        extent(rows, [float(cublas(s)[0]) for s in sizes_in(rows)]), step=step, nsizes=len(blocks), smin=stages[0],
        smax=stages[-1], note="no run passed at size " + ", ".join(lost) if lost else ""), \
        "set xtics (" + ", ".join(map(str, stages)) + ")"


NONSQUARE = "skinny, deep K, layer, small K, matrix-vector, tall and thin, tiny C or primes"


def square_rows(rows):
    return [r for r in rows if size_of(r) and r.get("family", "square") == "square"]


def nonsquare_rows(rows):
    """The rows of make shapes' named families but the squares (skinny, deep K, layer, small K, matrix-vector, tall
    and thin, tiny C, primes), in the order they ran; not the random shapes, which shapes_random draws."""
    return [r for r in rows if r.get("family", "square") not in ("square", "random")]


def random_rows(rows):
    """The rows of make shapes' random family (M, N and K drawn at random; the shape column names the seed)."""
    return [r for r in rows if r.get("family") == "random"]


def chart_shapes(rows, *_):
    """The squares of make shapes: each step's ratio to cuBLAS against the size, and the sizes where 128 x 128
    tiles fill whole waves of the GPU's SMs."""
    squares = square_rows(rows)
    sizes, steps = sizes_in(squares), steps_in(squares)
    blocks, lost = series(steps, sizes, lambda g, x: find(squares, step=g, size=x), str, lambda r: r["m"])
    sms = {int(r["sm_count"]) for r in squares if r.get("sm_count", "").isdigit()}
    if len(sms) != 1:
        raise Fail(f"the square runs name {len(sms)} SM counts ({sorted(sms)}): one GPU's waves are drawn")
    sm = sms.pop()
    waves = [128 * math.sqrt(w * sm) for w in range(1, 10_000) if 128 * math.sqrt(w * sm) <= sizes[-1]]
    return "\n\n\n".join(blocks), dict(
        extent(squares), nsteps=len(blocks), xmax=sizes[-1], waves=" ".join(f"{x:.1f}" for x in waves),
        wave_note=f"128x128 tiles fill whole waves of {sm} SMs", **legend(steps, lost)), ""


def head_and_name(shape):
    """A shape's heading and its name under it: "BERT-base 512 tokens: qkv" is ("BERT-base 512 tokens", "qkv");
    without ": " the whole is the heading."""
    if ": " not in shape:
        return shape, ""
    head, _, name = shape.rpartition(": ")
    return head, name


def chart_shapes_nonsquare(rows, *_):
    """The named families of make shapes but the squares: each step's ratio to cuBLAS at each shape, a row
    each, top to bottom in the order they ran. The shapes of one family and one name (the part of it before a
    ": ": a model's layers, "M small") sit together under a heading; a row is named by the rest and M x N x K.
    The data: a block a step, "row TFLOPS ratio name" a shape."""
    others = nonsquare_rows(rows)
    shapes = list(dict.fromkeys((r["family"], r.get("shape", ""), r["m"], r["n"], r["k"]) for r in others))
    groups = list(dict.fromkeys((family, head_and_name(shape)[0]) for family, shape, *_ in shapes))
    shapes.sort(key=lambda sh: groups.index((sh[0], head_and_name(sh[1])[0])))   # stable: each group's shapes as they ran
    at, names, heads, group = {}, {}, [], None
    for family, shape, m, n, k in shapes:
        head, name = head_and_name(shape)
        if (family, head) != group:
            group = family, head
            heads.append((len(at) + len(heads), f"{family}: {head}" if head else family))
        y = len(at) + len(heads)
        at[y], names[y] = dict(m=m, n=n, k=k), (name + "   " if name else "") + f"{m} x {n} x {k}"
    steps = in_order(r["step"] for r in others)
    blocks, lost = series(steps, list(at), lambda g, y: find(others, step=g, **at[y]), str,
                          lambda r: f"{r['m']}x{r['n']}x{r['k']}", lambda g, y: (names[y],))
    return "\n\n\n".join(blocks), dict(
        extent(others), nsteps=len(blocks), nrows=len(at) + len(heads),
        head_rows=" ".join(str(y) for y, _ in heads), heads=" ".join(gp(h.replace('"', "'")) for _, h in heads),
        **legend(steps, lost)), ""


def chart_shapes_random(rows, *_):
    """The random shapes of make shapes: each step's ratio to cuBLAS against the shape's FLOPs (2 M N K), a point a
    shape; each step's geometric mean and least ratio in its key entry. The data: a block a step, a title line, then
    "FLOPs TFLOPS ratio MxNxK" a shape, by FLOPs."""
    rand = random_rows(rows)
    ok = [r for r in rand if r["ok"]]
    steps = in_order(r["step"] for r in rand)
    blocks, lost = [], []
    for step in steps:
        mine = [r for r in rand if r["step"] == step]
        passed = [r for r in mine if r["ok"]]
        if not passed:
            lost.append(step)
            continue
        low = least(passed)   # as shapes_summary: the first of equals in the order they ran
        title = (f"{step}: geometric mean {mean_ratio_text(passed)}, minimum {ratio_text(low['ratio'])} "
                 f"at {low['m']} x {low['n']} x {low['k']}")
        if len(passed) < len(mine):
            title += f" ({len(mine) - len(passed)} of {len(mine)} not PASS, not drawn)"
        points = ""
        for r in sorted(mine, key=flops):
            ratio = r["ratio"] if r["ok"] else "NaN"
            points += f"{flops(r)}\t{tflops(r)}\t{ratio}\t{r['m']}x{r['n']}x{r['k']}\n"
        blocks.append(title + "\n" + points)
    return "\n\n\n".join(blocks), dict(
        extent(ok), nsteps=len(blocks), nshapes=len({(r["m"], r["n"], r["k"]) for r in rand}),
        seeds=values(rand, "shape"), xmin=min(map(flops, ok)), xmax=max(map(flops, ok)), **legend(steps, lost)), ""


CHARTS = {"progression": chart_progression, "sizes": chart_sizes, "sweep": chart_sweep, "shapes": chart_shapes,
          "shapes_nonsquare": chart_shapes_nonsquare, "shapes_random": chart_shapes_random, "peak": chart_peak}
# make shapes-chart draws the three charts of make shapes, each from the rows its function here picks; a CSV of some
# families only (make shapes SHAPES_ONLY=..., or one from before the random family) gets the ones its rows make, and a
# note for each other; one with none of them, an error.
SHAPE_CHARTS = {"shapes": (square_rows, "square (M = N = K)"), "shapes_nonsquare": (nonsquare_rows, NONSQUARE),
                "shapes_random": (lambda rows: [r for r in random_rows(rows) if r["ok"]], "passing random")}


def render(csv_path, outdir, charts, gnuplot="gnuplot", size=4096, keep=None, optional=None):
    """Each chart as OUTDIR/NAME.png and .svg, drawn by plots/NAME.gp; nothing is written unless all render.
    Without gnuplot: an error, or (optional, on the GPU machine) how to draw them elsewhere."""
    sweep = charts == ["sweep"]
    rows = read_results(csv_path, make="sweep", var="SWEEP_CSV") if sweep else read_results(csv_path)
    if not shutil.which(gnuplot):
        how = (f"make sweep-chart SWEEP_CSV={csv_path}" if sweep else f"make shapes-chart SHAPES_CSV={csv_path}"
               if charts == list(SHAPE_CHARTS) else f"make chart CSV={csv_path}; make table CSV={csv_path}")
        why = f"gnuplot is not installed here (`make deps` installs it): run `{how}` where it is (no GPU needed)"
        if not optional:
            raise Fail(why)
        print(f"{optional}: {csv_path} is written, the charts are not: {why}")
        return
    plotdir = os.path.join(ROOT, "plots")
    os.makedirs(outdir, exist_ok=True)
    peak, why = read_peak(csv_path, rows) if "peak" in charts else (None, None)
    if "peak" in charts and not peak:
        print(f"chart: note: {why}: no peak chart")
        charts = [c for c in charts if c != "peak"]
    lacking = [c for c in charts if c in SHAPE_CHARTS and not SHAPE_CHARTS[c][0](rows)]
    if lacking and len(lacking) == len([c for c in charts if c in SHAPE_CHARTS]):
        raise Fail(f"no {SHAPE_CHARTS[lacking[0]][1]} shape in {csv_path} (its family column): nothing to draw in "
                   f"the {lacking[0]} chart")
    for c in lacking:
        print(f"chart: note: no {SHAPE_CHARTS[c][1]} shape in {csv_path}: no {c} chart")
    charts = [c for c in charts if c not in lacking]
    with tempfile.TemporaryDirectory(dir=outdir, prefix=".chart.") as tmp:
        for name in charts:
            data, var, tics = CHARTS[name](rows, size, peak)
            Path(tmp, f"{name}.dat").write_text(data)
            var.update(device=values(rows, "device"), cuda=values(rows, "cuda_runtime"), commits=values(rows, "commit"),
                       dates=dates(rows), plotdir=plotdir, data=f"{tmp}/{name}.dat")
            for fmt in ("png", "svg"):
                picture = Path(tmp, f"{name}.{fmt}")
                Path(tmp, f"{name}.vars.gp").write_text("".join(f"{k} = {gp(v)}\n" for k, v in var.items()) +
                                                        f"fmt = {gp(fmt)}\noutfile = {gp(str(picture))}\n{tics}\n")
                p = subprocess.run([gnuplot, f"{tmp}/{name}.vars.gp", f"{plotdir}/{name}.gp"], capture_output=True, text=True)
                # gnuplot warns and goes on when data is missing: a warning is a broken picture.
                if p.returncode or "warning:" in p.stderr:
                    raise Fail(f"gnuplot {'failed' if p.returncode else 'warned'} on {name}.{fmt}:\n{p.stderr}", 1)
                if (b"\x89PNG" if fmt == "png" else b"<svg") not in picture.read_bytes()[:4096]:
                    raise Fail(f"gnuplot wrote no valid {fmt} for {name}", 1)
            svg = Path(tmp, f"{name}.svg")   # gnuplot's svg terminal names a bold font "Sans:Bold", which no browser knows
            svg.write_text(svg.read_text().replace('font-family="Sans:Bold"', 'font-family="sans-serif" font-weight="bold"'))
        if keep:   # the data files gnuplot read, for a look or a test
            shutil.copytree(tmp, keep, ignore=shutil.ignore_patterns("*.gp", "*.png", "*.svg"), dirs_exist_ok=True)
        written = [f"{outdir}/{n}.{fmt}" for n in charts for fmt in ("png", "svg")]
        for path in written:
            os.replace(Path(tmp, os.path.basename(path)), path)
    print(f"chart: wrote {' '.join(written)} (from {csv_path})")


def cmd_chart(a):
    render(a.csv, a.out, a.charts, a.gnuplot, a.size, a.keep_data, a.optional)

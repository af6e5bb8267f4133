"""The measured tables: written into a README between its markers (make table), or printed (make ablation-table,
make shapes-summary)."""
import os, re, statistics, sys

from . import Fail
from .results import (cublas_median, find, g0, geomean, identity, in_order, least, positive, ratio_text, read_peak,
                      read_results, shown, size_of, sizes_in, stage_counts, stages_of, step_no, steps_in, sweep_step,
                      write_whole)

MARKERS = "<!-- {}:begin -->", "<!-- {}:end -->"
STEP_SIZES = [1024, 2048, 4096, 8192]   # the sizes of a step README's own table


def cell(r, text):
    """A table cell: text(r) for a valid run, the verdict of another, – where none ran."""
    return " – |" if not r else f" {text(r)} |" if r["ok"] else f" {r['verdict']} |"


def cublas_row(rows, sizes, text):
    return "| cuBLAS (median) |" + "".join(f" {text(v)} |" if v else " – |" for v in (cublas_median(rows, s) for s in sizes))


def share(gflops, peak):
    """GFLOPS as a share of the FMA peak, in percent, to two significant figures below 10%."""
    pct = 100 * float(gflops) / peak["fma_gflops"]
    return f"{pct:.2g}%" if pct < 10 else f"{pct:.0f}%"


def peak_table(rows, peak):
    """Each step's share of the FMA peak at each size, beside its ratio to cuBLAS."""
    sizes = sizes_in(rows)
    out = ["| step |" + "".join(f" {s} |" for s in sizes), "|:-----|" + "-----:|" * len(sizes)]
    for step in steps_in(rows):
        out.append(f"| {step} |" + "".join(cell(find(rows, step=step, size=s),
                                                lambda r: f"{share(r['gflops'], peak)} · {ratio_text(r['ratio'])}")
                                           for s in sizes))
    out.append(cublas_row(rows, sizes, lambda v: f"{share(v, peak)} · 1×"))
    return out + ["", f"Each step's GFLOPS as a share of the GPU's FP32 FMA peak, {peak['fma_gflops']:.0f} GFLOPS as "
                  f"`./fma_peak` measured it in the same run (one FMA = 2 FLOPs), then (after ·) its ratio to cuBLAS."]


def results_table(rows, source, _):
    peak, why = read_peak(source, rows)
    if not peak:
        print(f"table: note: {why}: the results table has no share of the FMA peak")
    sizes = sizes_in(rows)
    out = ["| step |" + "".join(f" {s} GFLOPS | vs cuBLAS |" for s in sizes) + " verdict |",
           "|:-----|" + "-----:|-----:|" * len(sizes) + ":-----|"]
    for step in steps_in(rows):
        line, bad = f"| {step} |", []
        for s, r in ((s, find(rows, step=step, size=s)) for s in sizes):
            line += " – | – |" if not r else f" {g0(r['gflops'])} | {ratio_text(r['ratio'])} |" if r["ok"] else f" {r['verdict']} | – |"
            bad += [f"{r['verdict']} at {s}"] if r and not r["ok"] else []
        out.append(line + f" {'; '.join(bad) or 'PASS'} |")
    medians = [cublas_median(rows, s) for s in sizes]
    out.append("| cuBLAS (median) |" + "".join(f" {g0(v)} | 1× |" if v else " – | – |" for v in medians) + " reference |")
    out += ["", f"Measured on {identity(rows)}: M = N = K, FP32, GFLOPS = 2·M·N·K / median time; \"vs cuBLAS\" is "
            f"cuBLAS's time over the step's, both timed in the same run. Written by `make table` from {source}."]
    return out + (["", "The same runs against the hardware's limit:", ""] + peak_table(rows, peak) if peak else [])


def step_table(rows, source, step_dir):
    mine = [r for r in rows if step_no(r["step"]) == step_no(step_dir) and not r.get("variant")]
    if not mine:
        return None
    ms = lambda t: f"{t:.3f}" if t < 1 else f"{t:.2f}" if t < 100 else f"{t:.1f}"
    out = ["| M = N = K | time, ms (median) | GFLOPS | cuBLAS GFLOPS | ratio to cuBLAS | verdict |",
           "|-----:|-----:|-----:|-----:|-----:|:-----|"]
    for s, r in ((s, find(mine, size=s)) for s in STEP_SIZES):
        cublas = g0(r["cublas_gflops"]) if r and positive(r["cublas_gflops"]) else "–"
        out.append(f"| {s} | – | – | – | – | not run |" if not r else
                   f"| {s} | {ms(float(r['median_ms']))} | {g0(r['gflops'])} | {cublas} | {ratio_text(r['ratio'])} | {r['verdict']} |"
                   if r["ok"] else f"| {s} | – | – | {cublas} | – | {r['verdict']} |")
    return out + ["", f"{mine[0]['step']}, M = N = K, FP32: measured on {identity(mine)}; GFLOPS = 2·M·N·K / median time, "
                  f"and cuBLAS timed in the same run. Written by `make table` from {source}."]


def sweep_table(rows, source, _=None):
    step, stages = sweep_step(rows)
    out = ["| M = N = K |" + "".join(f" S = {s} |" for s in stages) + " cuBLAS GFLOPS | best S |",
           "|-----:|" + "-----:|" * len(stages) + "-----:|:-----:|"]
    for size in sizes_in(rows):
        at = [find(rows, size=size, stages=s) for s in stages]
        top = max((r for r in at if r and r["ok"]), key=lambda r: float(r["gflops"]), default=None)   # the first of equals
        cublas = cublas_median(rows, size)
        bold = lambda r: f"**{g0(r['gflops'])}**" if r is top else g0(r["gflops"])
        out.append(f"| {size} |" + "".join(cell(r, lambda r: f"{bold(r)} ({ratio_text(r['ratio'])})") for r in at) +
                   (f" {g0(cublas)} |" if cublas else " – |") + f" {top['stages'] if top else '–'} |")
    return out + ["", f"{step} at each pipeline depth S (`--stages S`; S = 1 overlaps nothing): GFLOPS, and in brackets the "
                  f"ratio to cuBLAS timed in the same run; the best S per size in bold. Measured on {identity(rows)}: "
                  f"M = N = K, FP32. Written by `make sweep` (`make table` copies it here) from {source}."]


def run_label(r):
    """A run of `make ablation` as its command: `./step5 --stages 2`, `./step6 --track core --stages 3 --unroll no`."""
    variant = r.get("variant", "").split()
    words = [f"./step{step_no(r['step'])}"] + (["--track", variant[0]] if variant else []) + \
        ([f"--stages {r['stages']}"] if stages_of(r) else []) + [f"--{w.replace('=', ' ')}" for w in variant[1:]]
    return "`" + " ".join(words) + "`"


def gflops_table(rows, runs, note, make, source):
    """A table of runs, each (its label, its rows): GFLOPS and the ratio to cuBLAS at each size, then cuBLAS's median."""
    sizes = sizes_in(rows)
    out = ["| run |" + "".join(f" {s} |" for s in sizes), "|:-----|" + "-----:|" * len(sizes)]
    for label, mine in runs:
        out.append(f"| {label} |" + "".join(cell(find(mine, size=s), lambda r: f"{g0(r['gflops'])} ({ratio_text(r['ratio'])})")
                                            for s in sizes))
    return out + [cublas_row(rows, sizes, g0), "", f"GFLOPS, and in brackets the ratio to cuBLAS timed in the same process"
                  f"{note} Measured on {identity(rows)}: M = N = K, FP32. Written by `make {make}` (`make table` copies "
                  f"it here) from {source}."]


def runs_in(rows, key):
    """The square runs' rows grouped by key(row), the groups in the order they first ran."""
    groups = {}
    for r in rows:
        if size_of(r):
            groups.setdefault(key(r), []).append(r)
    return list(groups.items())


def ablation_table(rows, source, _=None):
    """Step 6 against step 5 as it is (`make ablation`): a row for each run, named by its command, in the order they
    ran, grouped by stage count (a stable sort)."""
    runs = runs_in(rows, lambda r: (r["step"].split(" (")[0], r.get("variant", ""), stages_of(r)))
    runs = sorted(((run_label(mine[0]), mine) for _, mine in runs), key=lambda run: stages_of(run[1][0]))
    return gflops_table(rows, runs, ".", "ablation", source)


# The runs of step 6's going-further track, by the variant their rows carry ("" for ./step6 itself): what each
# run of `make track-ablation` is in its table, and (by a short name) in a table of ratios of the track's lesson.
TRACK_NAMES = {
    "core": "step 6's core (`--track core`)",
    "warp-tiles": "+ warp tiles, rasterization, serpentine FMAs (`--track warp-tiles`)",
    "split-k": "+ K split over a cluster (`--track split-k`)",
    "wide-tiles": "+ wide tiles in a lean loop (`--track wide-tiles`)",
    "": "+ the last wave in runs of k-tiles: the whole track, `./step6`",
    "stream-k unroll=no": "the whole track, no stage loop unrolled (`--unroll no`)",
    "stream-k unroll=yes": "the whole track, every loop unrolled (`--unroll yes`)",
}
RATIO_RUNS = {   # short name: (variant, label)
    "core": ("core", "step 6's core (`--track core`)"),
    "warp-tiles": ("warp-tiles", "+ warp tiles (`--track warp-tiles`)"),
    "split-k": ("split-k", "+ split K (`--track split-k`)"),
    "wide-tiles": ("wide-tiles", "+ wide tiles in the lean loop (`--track wide-tiles`)"),
    "all": ("", "+ the last wave in runs: the whole track (`./step6`)"),
    "all-rolled": ("stream-k unroll=no", "the whole track, no stage loop unrolled (`--unroll no`)"),
    "all-unrolled": ("stream-k unroll=yes", "the whole track, every loop unrolled (`--unroll yes`)"),
}


def track_table(rows, source, _=None):
    """A row for each run of `make track-ablation`, in the order it ran them: GFLOPS and the ratio to cuBLAS at each size."""
    runs = runs_in(rows, lambda r: (r["step"].split(" (")[0], r.get("variant", "")))
    stages = ", ".join(str(s) for s in stage_counts(rows))
    note = "; each part of the track is added to the ones above it." + (f" Stages: {stages}." if stages else "")
    return gflops_table(rows, [(TRACK_NAMES.get(v, f"{step} {v}"), mine) for (step, v), mine in runs], note,
                        "track-ablation", source)


def track_shapes_table(rows, source, _=None):
    """`make track-shapes`: each shape, the ratio to cuBLAS without the track's last part and with it."""
    shapes = list(dict.fromkeys((r["m"], r["n"], r["k"]) for r in rows))
    runs = list(dict.fromkeys(r.get("variant", "") for r in rows))
    out = ["| family | M x N x K |" + "".join(f" {f'`--track {v}`' if v else '`./step6`'} |" for v in runs),
           "|---|---|" + "---:|" * len(runs)]
    for m, n, k in shapes:
        mine = [r for r in rows if (r["m"], r["n"], r["k"]) == (m, n, k)]
        cells = (next((r for r in mine if r.get("variant", "") == v), None) for v in runs)
        out.append(f"| {mine[0].get('family', '')} | {m} x {n} x {k} |" + "".join(cell(r, ratio_2f) for r in cells))
    return out + ["", f"Ratios to cuBLAS, timed in the same process; {identity(rows)}; written by `make track-shapes` "
                  f"(`make table` copies it here) from {source}."]


def ratio_2f(r):
    return f"{float(r['ratio']):.2f}"


def ratio_markers(path):
    """The names of the ratio tables a README asks for ("ratios core,warp-tiles 1024,2048")."""
    with open(path) as f:
        return re.findall(r"^<!-- (ratios [^:]*):begin -->\s*$", f.read(), re.M)


def ratio_table(rows, source, name):
    """The ratios to cuBLAS of the named runs (RATIO_RUNS) at the named sizes, a row a run."""
    m = re.fullmatch(r"ratios ([\w,-]+) ([\d,]+)", name)
    if not m or any(r not in RATIO_RUNS for r in m[1].split(",")):
        raise Fail(f"'{name}': expected 'ratios RUN,RUN,... SIZE,SIZE,...', RUN one of {', '.join(RATIO_RUNS)}")
    sizes = [int(x) for x in m[2].split(",")]
    out = ["| |" + "".join(f" {s} |" for s in sizes), "|---|" + "---:|" * len(sizes)]
    for run in m[1].split(","):
        variant, label = RATIO_RUNS[run]
        mine = [r for r in rows if r["step"].startswith("step6") and r.get("variant", "") == variant]
        cells = [find(mine, size=s) for s in sizes]
        if not any(cells):
            raise Fail(f"'{name}': {source} has no row of {label}")
        out.append(f"| {label} |" + "".join(cell(r, ratio_2f) for r in cells))
    return out + ["", f"Ratios to cuBLAS, timed in the same process; {identity(rows)}; from {source}."]


def markers(path, name):
    """The line indices of NAME's begin and end markers, and the file's lines; None when it has neither marker;
    Fail when they are broken."""
    b, e = (m.format(name) for m in MARKERS)
    if not os.path.isfile(path):
        raise Fail(f"{path} does not exist; the table goes in it, between the lines {b} and {e}")
    with open(path) as f:
        lines = f.read().split("\n")
    at_b, at_e = ([i for i, l in enumerate(lines) if l.strip(" \t\r") == m] for m in (b, e))
    if not at_b and not at_e:
        return None
    if len(at_b) != 1 or len(at_e) != 1:
        raise Fail(f"{path} has {len(at_b)} '{b}' and {len(at_e)} '{e}' lines; it needs exactly one of each")
    if at_b[0] > at_e[0]:
        raise Fail(f"{path} has {e} (line {at_e[0] + 1}) before {b} (line {at_b[0] + 1})")
    return at_b[0], at_e[0], lines


def fill(path, name, table, source):
    """Puts table between the file's NAME markers; nothing else in the file changes."""
    b, e, lines = markers(path, name)
    note = f"<!-- Written by `make table` from {source}: rerun it rather than editing these lines. -->"
    write_whole(path, "\n".join(lines[:b + 1] + [note, ""] + table + [""] + lines[e:]), like=path)


# The tables `make table` writes, by the name of their markers: the option that names their CSV, what they are, and
# the function that makes one of the CSV's rows, its path and the README's folder (None: the CSV has no row of it).
TABLES = [("results-table", "csv", "results table", results_table),
          ("step-results", "csv", "step's results table", step_table),
          ("sweep-results", "sweep_csv", "stage sweep table", sweep_table),
          ("ablation-results", "ablation_csv", "step 6 against step 5 table", ablation_table),
          ("track-results", "track_csv", "going-further table", track_table),
          ("track-shapes", "track_shapes_csv", "going-further shapes table", track_shapes_table)]


def cmd_table(a):
    if markers(a.readme, "results-table") is None:
        b, e = (m.format("results-table") for m in MARKERS)
        raise Fail(f"{a.readme} has no results-table markers: put the lines {b} and {e} (each on a line of its own) where the table goes")
    read_results(a.csv)   # refused when missing or unsound, unlike the other CSVs, which may not exist yet
    status = 0
    for readme in [a.readme] + a.step_readmes:
        step_dir, found = os.path.basename(os.path.dirname(readme)), False
        for name, option, label, make in TABLES:
            source = getattr(a, option)
            try:
                if markers(readme, name) is None:
                    continue
                found = True
                table = os.path.exists(source) and make(read_results(source), source, step_dir)
                if table:
                    fill(readme, name, table, source)
                why = f"{source} is not there" if table is False else f"{source} has no row of {step_dir}"
                print(f"table: wrote the {label} (from {source}) into {readme}" if table else
                      f"table: note: {why}: the {label} in {readme} is left as it was")
            except Fail as err:
                print(f"table: {err}", file=sys.stderr)
                status = 2
        for name in ratio_markers(readme) if os.path.exists(a.track_csv) else []:
            found = True
            try:
                fill(readme, name, ratio_table(read_results(a.track_csv), a.track_csv, name), a.track_csv)
                print(f"table: wrote the {name} table (from {a.track_csv}) into {readme}")
            except Fail as err:
                print(f"table: {readme}: {err}", file=sys.stderr)
                status = 2
        if not found:
            print(f"table: note: {readme} has no table markers ({', '.join(t[0] for t in TABLES[1:])}), skipped")
    return status


def cmd_ablation_table(a):
    make, var, table = ("track-ablation", "TRACK_CSV", track_table) if a.track else ("ablation", "ABLATION_CSV", ablation_table)
    print("\n".join(table(read_results(a.csv, make=make, var=var), a.csv)))


# --- make shapes' summary ------------------------------------------------------------------------

# Step 6's kernel line: its estimate, and the runner-up's (commas, not spaces, where the line sits in a CSV).
ESTIMATE = re.compile(r"est\. ([\d.]+) us(?:[,\s]+next: ([^,\s]+)[,\s]+est\. ([\d.]+) us)?")


def family_of(r):
    """A row's family of make shapes; the random family named with its seed: "random (seed 1)"."""
    family = r.get("family") or "square"
    return f"{family} ({r['shape']})" if family == "random" and r.get("shape") else family


def shapes_summary(rows, source):
    """Each step's ratio to cuBLAS over each family of make shapes, in the order they ran, and over every shape: how
    many shapes passed, their geometric mean and their least ratio (at which shape); only PASS rows count, and the
    others are counted apart."""
    families = list(dict.fromkeys(family_of(r) for r in rows))
    out = ["| step | family | PASS shapes | geometric mean | minimum | at M x N x K | not PASS |",
           "|:-----|:-----|-----:|-----:|-----:|:-----|-----:|"]
    for step in in_order(r["step"] for r in rows):
        mine = [r for r in rows if r["step"] == step]
        for family in families + ["every shape"]:
            got = [r for r in mine if family in ("every shape", family_of(r))]
            ok = [r for r in got if r["ok"]]
            if not got:
                continue
            low = least(ok) if ok else None
            cells = (f"{ratio_text(geomean(float(r['ratio']) for r in ok))} | {ratio_text(low['ratio'])} | "
                     f"{low['m']} x {low['n']} x {low['k']}" if ok else "– | – | –")
            out.append(f"| {shown(step)} | {family} | {len(ok)} | {cells} | {len(got) - len(ok)} |")
    failed = [r for r in rows if not r["ok"]]
    listed = ", ".join(f"{shown(r['step'])} {r['m']} x {r['n']} x {r['k']} ({r['verdict']})" for r in failed[:10])
    return out + ["", f"Each step's ratio to cuBLAS (cuBLAS's time over the step's, timed in the same process) over the "
                  f"PASS rows of each family, and of every shape: their geometric mean, their minimum and its shape. "
                  f"Measured on {identity(rows)}; from {source}.",
                  "", f"Every one of the {len(rows)} rows passed." if not failed else
                  f"{len(failed)} of the {len(rows)} rows did not pass and are not counted: {listed}"
                  f"{f' and {len(failed) - 10} more' if len(failed) > 10 else ''}."] + estimate_summary(rows)


def spread(q):
    """Sorted ratios of estimated to measured time, in words: their median, and the 10% and 90% points."""
    return f"median {statistics.median(q):.2f}, 10% to 90% {q[len(q) // 10]:.2f} to {q[(9 * len(q)) // 10]:.2f}"


def estimate_summary(rows):
    """Step 6's estimate (its kernel line's "est. X us") over its measured median, over the PASS rows that give one:
    as make plan-check summarizes its choices, and apart for a few rows of C (kernel lines "a block of ...")."""
    est = sorted(((float(e[1]) / (1000 * float(r["median_ms"])), r) for r in rows
                  if r["ok"] and (e := ESTIMATE.search(r.get("kernel", "")))), key=lambda x: x[0])
    if not est:
        return []
    q = [x for x, _ in est]
    few = [x for x, r in est if r["kernel"].startswith("a block of")]
    at = lambda x: f"{x[1]['m']} x {x[1]['n']} x {x[1]['k']}"
    return ["", f"Step 6's estimate over its measured time (the kernel line's \"est.\" over the median), over the "
            f"{len(q)} PASS rows that give one: {spread(q)}, least {q[0]:.2f} ({at(est[0])}), most {q[-1]:.2f} "
            f"({at(est[-1])})"
            + (f"; a few rows of C: median {statistics.median(few):.2f} ({len(few)} row{'s' * (len(few) > 1)})." if few else ".")]


def cmd_shapes_summary(a):
    print("\n".join(shapes_summary(read_results(a.csv, make="shapes", var="SHAPES_CSV"), a.csv)))

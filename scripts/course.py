#!/usr/bin/env python3
"""course.py - the course's tooling in one program, on Python 3's standard library alone.

The make targets run it (plots/plots.mk, scripts/tools.mk); `python3 scripts/course.py -h` lists
its commands: run the steps into a CSV, write the tables, prepare the data gnuplot draws
(plots/NAME.gp), sweep stages, measure step 6's going-further track part by part, count a step's
SASS listing, check ptxas's logs for spills, profile and diff.

A CSV is one run: written to a temporary file, it replaces the old one only when the run is
complete. A row is a valid result when its verdict is PASS; any other row keeps its verdict and
is never drawn or counted. A row of a step run with part of its track (step 6's `--track`,
`--unroll`) is named after both: "step6_unroll (core)". Bad input gets
one line on stderr, "COMMAND: what is wrong", and exit code 2.
"""
import argparse, calendar, collections, csv, difflib, glob, math, os, re, shutil, statistics, subprocess, sys, tempfile
import textwrap, time

NEEDED = "step m n k gflops cublas_gflops ratio verdict device cuda_runtime commit date_utc".split()
MARKERS = "<!-- {}:begin -->", "<!-- {}:end -->"
STEP_SIZES = [1024, 2048, 4096, 8192]   # the sizes of a step README's own table


class Fail(Exception):
    """One line for stderr, and the exit code: 2 for bad input, 1 when the runs or a tool failed."""

    def __init__(self, message, code=2):
        super().__init__(message)
        self.code = code


# --- reading a results CSV -------------------------------------------------------------------

def positive(text):
    """The number text holds when it is finite and above 0, else 0."""
    v = float(text) if re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", text) else 0.0
    return v if 0 < v < math.inf else 0.0


def read_results(path, valid=("PASS",), make="results", var="CSV"):
    """The rows of a CSV of ./stepN --csv rows, as dicts, each with "ok": a valid result."""
    if not os.path.exists(path):
        raise Fail(f"{path}: no such file: `make {make}` on a GPU machine writes it (or pass {var}=path)")
    with open(path, newline="") as f:
        lines = [(no, l) for no, l in enumerate(f.read().splitlines(), 1) if l.strip() and not l.lstrip().startswith("#")]
    if not lines:
        raise Fail(f"{path}: empty: expected a header line and one row per run (./stepN M N K --csv)")
    header = next(csv.reader([lines[0][1]]))
    missing = [c for c in NEEDED if c not in header]
    if missing:
        raise Fail(f"{path}: missing column(s) {' '.join(missing)} (header: {lines[0][1]})")
    rows = []
    for no, fields in ((no, next(csv.reader([l]))) for no, l in lines[1:]):
        if fields == header:   # CSVs pasted together: the header again is not a row
            continue
        if len(fields) != len(header):
            raise Fail(f"{path}: line {no}: {len(fields)} fields, but the header has {len(header)}")
        r = dict(zip(header, fields))
        if r.get("variant"):   # a part of a step's track: a row of its own in every table and chart
            r["step"] = f"{r['step']} ({r['variant']})"
        r["ok"] = r["verdict"] in valid
        # The harness writes GFLOPS to one decimal: a shape of a few thousand FLOPs (make shapes' random ones) runs
        # at "0.0", a rate too small to print, not a failed run; its ratio to cuBLAS is what is drawn.
        bad = [c for c in ("m", "n", "k", "gflops", "cublas_gflops", "ratio") if r["ok"] and not positive(r[c]) and
               not (c.endswith("gflops") and re.fullmatch(r"0+\.?0*", r[c]))]
        if bad:
            raise Fail(f"{path}: line {no}: {bad[0]} is '{r[bad[0]]}', not a positive number, in a {r['verdict']} row")
        rows.append(r)
    tracked = {r["step"].split(" (")[0] for r in rows if r.get("variant")}
    for r in rows:   # beside its parts, a step run as it is by default is its whole track
        if not r.get("variant") and r["step"] in tracked:
            r["step"] += " (whole track)"
    if not any(r["ok"] for r in rows):
        raise Fail(f"{path}: no {' or '.join(valid)} rows ({len(rows)} rows, none a valid result): nothing valid to draw")
    devices = values(rows, "device").split(", ")
    if len(devices) > 1:
        raise Fail(f"{path}: rows from {len(devices)} devices ({'; '.join(devices)}): a chart compares runs on one device")
    return rows


def size_of(r):
    """M for a square run (M = N = K), else 0."""
    return int(r["m"]) if r["m"] == r["n"] == r["k"] and r["m"].isdigit() else 0


def stages_of(r):
    s = r.get("stages", "")
    return int(s) if s.isdigit() else 0


def step_no(name):
    m = re.search(r"\d+", name)
    return int(m.group()) if m else 99


def sizes_in(rows):
    return sorted({size_of(r) for r in rows} - {0})


def steps_in(rows):
    """The steps in order, a step's parts of its track (named "step (part)") before the step itself."""
    return sorted({r["step"] for r in rows if size_of(r)}, key=lambda s: (step_no(s), "(" not in s, s))


def stage_counts(rows):
    return sorted({stages_of(r) for r in rows if size_of(r)} - {0})


def find(rows, **want):
    """The last row whose fields match want (size= and stages= compare numbers), or None."""
    get = {"size": size_of, "stages": stages_of}
    hits = [r for r in rows if all((get[k](r) if k in get else r[k]) == v for k, v in want.items())]
    return hits[-1] if hits else None


def best(rows):
    """The valid row with the most GFLOPS (the first of equals), or None."""
    return max((r for r in rows if r and r["ok"]), key=lambda r: float(r["gflops"]), default=None)


def values(rows, col):
    return ", ".join(dict.fromkeys(r[col] for r in rows if r[col])) or "unknown"


def dates(rows):
    days = sorted(r["date_utc"][:10] for r in rows if r["date_utc"][:10])
    return "date unknown" if not days else days[0] if days[0] == days[-1] else f"{days[0]} to {days[-1]}"


def identity(rows):
    """The run in words: "NVIDIA H200 (CUDA 13.0) on 2026-11-22, commit 2296bb9ebb"."""
    return f"{values(rows, 'device')} (CUDA {values(rows, 'cuda_runtime')}) on {dates(rows)}, commit {values(rows, 'commit')}"


def cublas_median(rows, size):
    """cuBLAS's median GFLOPS over every row at this size that timed it (a FAIL run did too)."""
    v = [positive(r["cublas_gflops"]) for r in rows if size_of(r) == size and positive(r["cublas_gflops"])]
    return statistics.median(v) if v else 0


def ratio_text(r):
    r = float(r)
    return f"{r:.2g}×" if r < 0.1 else f"{r:.2f}×"


def g0(v):
    return f"{float(v):.0f}"


# --- the FP32 FMA peak (./fma_peak) beside a results CSV ---------------------------------------

PEAK_NEEDED = "device fma_gflops commit date_utc".split()


def read_peak(results_path, rows):
    """The FMA peak `make results` measured in the same run as the rows: peak.csv beside the results CSV, as a
    dict (fma_gflops a number); or None and why not. Same run: the same device and commit, measured no later
    than the last row and at most an hour before the first."""
    path = os.path.join(os.path.dirname(results_path), "peak.csv")
    if not os.path.exists(path):
        return None, f"{path} is not there (`make results` measures it first)"
    with open(path, newline="") as f:
        lines = [l for l in f.read().splitlines() if l.strip() and not l.lstrip().startswith("#")]
    head = next(csv.reader(lines[:1]), [])
    got = [dict(zip(head, next(csv.reader([l])))) for l in lines[1:]]
    if len(got) != 1 or any(c not in head for c in PEAK_NEEDED) or not positive(got[0]["fma_gflops"]):
        return None, f"{path} is not one row of ./fma_peak --csv with a positive fma_gflops"
    peak = dict(got[0], fma_gflops=positive(got[0]["fma_gflops"]))
    when = sorted(r["date_utc"] for r in rows if r["date_utc"])
    stamp = lambda d: calendar.timegm(time.strptime(d, "%Y-%m-%dT%H:%M:%SZ")) if re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:]{8}Z", d) else None
    first, last, at = stamp(when[0]) if when else None, stamp(when[-1]) if when else None, stamp(peak["date_utc"])
    same = (peak["device"] == values(rows, "device") and peak["commit"] == values(rows, "commit") and None not in (first, at)
            and first - 3600 <= at <= last)
    if not same:
        return None, (f"{path} is from another run ({peak['device']}, commit {peak['commit']}, {peak['date_utc']}) than "
                      f"{results_path} ({identity(rows)})")
    return peak, None


def share(gflops, peak):
    """GFLOPS as a share of the FMA peak, in percent, to two significant figures below 10%."""
    pct = 100 * float(gflops) / peak["fma_gflops"]
    return f"{pct:.2g}%" if pct < 10 else f"{pct:.0f}%"


def peak_table(rows, peak):
    """Each step's share of the FMA peak at each size, beside its ratio to cuBLAS."""
    sizes = sizes_in(rows)
    out = ["| step |" + "".join(f" {s} |" for s in sizes), "|:-----|" + "-----:|" * len(sizes)]
    for step in steps_in(rows):
        at = [find(rows, step=step, size=s) for s in sizes]
        out.append(f"| {step} |" + "".join(" – |" if not r else f" {share(r['gflops'], peak)} · {ratio_text(r['ratio'])} |"
                                            if r["ok"] else f" {r['verdict']} |" for r in at))
    medians = [cublas_median(rows, s) for s in sizes]
    out.append("| cuBLAS (median) |" + "".join(f" {share(v, peak)} · 1× |" if v else " – |" for v in medians))
    return out + ["", f"Each step's GFLOPS as a share of the GPU's FP32 FMA peak, {peak['fma_gflops']:.0f} GFLOPS as "
                  f"`./fma_peak` measured it in the same run (one FMA = 2 FLOPs), then (after ·) its ratio to cuBLAS."]


# --- the Markdown tables ---------------------------------------------------------------------

def results_table(rows, source, _=None):
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


def sweep_step(rows):
    """The one step a sweep CSV holds, and its stage counts."""
    steps = steps_in(rows)
    if len(steps) != 1:
        raise Fail(f"a sweep is one step's rows, this CSV holds {len(steps)} steps")
    if not stage_counts(rows):
        raise Fail("no row has a stage count (no stages column, or it is empty or 0): a sweep is rows of ./stepN --stages S")
    return steps[0], stage_counts(rows)


def sweep_table(rows, source, _=None):
    step, stages = sweep_step(rows)
    out = ["| M = N = K |" + "".join(f" S = {s} |" for s in stages) + " cuBLAS GFLOPS | best S |",
           "|-----:|" + "-----:|" * len(stages) + "-----:|:-----:|"]
    for size in sizes_in(rows):
        at = [find(rows, size=size, stages=s) for s in stages]
        top, cublas = best(at), cublas_median(rows, size)
        bold = lambda r: f"**{g0(r['gflops'])}**" if r is top else g0(r["gflops"])
        cells = [" – |" if not r else f" {r['verdict']} |" if not r["ok"] else f" {bold(r)} ({ratio_text(r['ratio'])}) |" for r in at]
        out.append(f"| {size} |" + "".join(cells) + (f" {g0(cublas)} |" if cublas else " – |") + f" {top['stages'] if top else '–'} |")
    return out + ["", f"{step} at each pipeline depth S (`--stages S`; S = 1 overlaps nothing): GFLOPS, and in brackets the "
                  f"ratio to cuBLAS timed in the same run; the best S per size in bold. Measured on {identity(rows)}: "
                  f"M = N = K, FP32. Written by `make sweep` (`make table` copies it here) from {source}."]


def run_label(r):
    """A run of `make ablation` as its command: `./step5 --stages 2`, `./step6 --track core --stages 3 --unroll no`."""
    variant = r.get("variant", "").split()
    words = [f"./step{step_no(r['step'])}"] + (["--track", variant[0]] if variant else []) + \
        ([f"--stages {r['stages']}"] if stages_of(r) else []) + [f"--{w.replace('=', ' ')}" for w in variant[1:]]
    return "`" + " ".join(words) + "`"


def gflops_rows(rows, runs, sizes):
    """The rows of a table of runs: a run is (its label, its rows); GFLOPS and the ratio to cuBLAS at each size,
    then cuBLAS's median."""
    out = ["| run |" + "".join(f" {s} |" for s in sizes), "|:-----|" + "-----:|" * len(sizes)]
    for label, mine in runs:
        cells = (find(mine, size=size) for size in sizes)
        out.append(f"| {label} |" + "".join(" – |" if not r else f" {g0(r['gflops'])} ({ratio_text(r['ratio'])}) |"
                                            if r["ok"] else f" {r['verdict']} |" for r in cells))
    out.append("| cuBLAS (median) |" + "".join(f" {g0(v)} |" if v else " – |" for v in (cublas_median(rows, s) for s in sizes)))
    return out


def ablation_table(rows, source, _=None):
    """Step 6 against step 5 as it is (`make ablation`): a row for each run, named by its command, in the order they
    ran, grouped by stage count."""
    keys = list(dict.fromkeys((r["step"].split(" (")[0], r.get("variant", ""), r.get("stages", "")) for r in rows if size_of(r)))
    keys.sort(key=lambda key: int(key[2]) if key[2].isdigit() else 0)   # stable: by stage count, then as they ran
    runs = []
    for step, variant, stages in keys:
        mine = [x for x in rows if x["step"].startswith(step) and x.get("variant", "") == variant and x.get("stages", "") == stages]
        runs.append((run_label(mine[0]), mine))
    return gflops_rows(rows, runs, sizes_in(rows)) + [
        "", f"GFLOPS, and in brackets the ratio to cuBLAS timed in the same process. Measured on {identity(rows)}: "
        f"M = N = K, FP32. Written by `make ablation` (`make table` copies it here) from {source}."]


# What each run of `make track-ablation` is, by the variant its rows carry ("" for ./step6 itself).
TRACK_NAMES = {
    "core": "step 6's core (`--track core`)",
    "warp-tiles": "+ warp tiles, rasterization, serpentine FMAs (`--track warp-tiles`)",
    "split-k": "+ K split over a cluster (`--track split-k`)",
    "wide-tiles": "+ wide tiles in a lean loop (`--track wide-tiles`)",
    "": "+ the last wave in runs of k-tiles: the whole track, `./step6`",
    "stream-k unroll=no": "the whole track, no stage loop unrolled (`--unroll no`)",
    "stream-k unroll=yes": "the whole track, every loop unrolled (`--unroll yes`)",
}


def track_table(rows, source, _=None):
    """A row for each run of `make track-ablation`, in the order it ran them: GFLOPS and the ratio to cuBLAS at each size."""
    keys = list(dict.fromkeys((r["step"].split(" (")[0], r.get("variant", "")) for r in rows if size_of(r)))
    runs = [(TRACK_NAMES.get(variant, f"{step} {variant}"),
             [x for x in rows if x.get("variant", "") == variant and x["step"].startswith(step)]) for step, variant in keys]
    st = ", ".join(str(s) for s in stage_counts(rows))
    stages = f"Stages: {st}. " if st else ""
    return gflops_rows(rows, runs, sizes_in(rows)) + [
        "", f"GFLOPS, and in brackets the ratio to cuBLAS timed in the same process; each part of the track is added to "
        f"the ones above it. {stages}Measured on {identity(rows)}: M = N = K, FP32. Written by `make track-ablation` "
        f"(`make table` copies it here) from {source}."]


def track_shapes_table(rows, source, _=None):
    """`make track-shapes`: each shape, the ratio to cuBLAS without the track's last part and with it."""
    shapes = list(dict.fromkeys((r["m"], r["n"], r["k"]) for r in rows))
    runs = list(dict.fromkeys(r.get("variant", "") for r in rows))
    names = {"": "`./step6`"}
    out = ["| family | M x N x K |" + "".join(f" {names.get(v, f'`--track {v}`')} |" for v in runs),
           "|---|---|" + "---:|" * len(runs)]
    for m, n, k in shapes:
        mine = [r for r in rows if (r["m"], r["n"], r["k"]) == (m, n, k)]
        cells = [next((r for r in mine if r.get("variant", "") == v), None) for v in runs]
        out.append(f"| {mine[0].get('family', '')} | {m} x {n} x {k} |" + "".join(
            " – |" if not r else f" {float(r['ratio']):.2f} |" if r["ok"] else f" {r['verdict']} |" for r in cells))
    return out + ["", f"Ratios to cuBLAS, timed in the same process; {identity(rows)}; written by `make track-shapes` "
                  f"(`make table` copies it here) from {source}."]


# A small table of ratios in the track's lesson: <!-- ratios RUN,RUN,... SIZE,SIZE,...:begin --> names the
# runs of `make track-ablation` (these short names) and the sizes; `make table` writes the rows from its CSV.
RATIO_RUNS = {
    "core": ("step6", "core", "step 6's core (`--track core`)"),
    "warp-tiles": ("step6", "warp-tiles", "+ warp tiles (`--track warp-tiles`)"),
    "split-k": ("step6", "split-k", "+ split K (`--track split-k`)"),
    "wide-tiles": ("step6", "wide-tiles", "+ wide tiles in the lean loop (`--track wide-tiles`)"),
    "all": ("step6", "", "+ the last wave in runs: the whole track (`./step6`)"),
    "all-rolled": ("step6", "stream-k unroll=no", "the whole track, no stage loop unrolled (`--unroll no`)"),
    "all-unrolled": ("step6", "stream-k unroll=yes", "the whole track, every loop unrolled (`--unroll yes`)"),
}


def ratio_markers(path):
    """The names of the ratio tables a README asks for ("ratios core,warp-tiles 1024,2048")."""
    with open(path) as f:
        return re.findall(r"^<!-- (ratios [^:]*):begin -->\s*$", f.read(), re.M)


def ratio_table(rows, source, name):
    """The ratios to cuBLAS of the named runs at the named sizes, a row a run."""
    m = re.fullmatch(r"ratios ([\w,-]+) ([\d,]+)", name)
    if not m or any(r not in RATIO_RUNS for r in m[1].split(",")):
        raise Fail(f"'{name}': expected 'ratios RUN,RUN,... SIZE,SIZE,...', RUN one of {', '.join(RATIO_RUNS)}")
    sizes = [int(x) for x in m[2].split(",")]
    out = ["| |" + "".join(f" {s} |" for s in sizes), "|---|" + "---:|" * len(sizes)]
    for run in m[1].split(","):
        step, variant, label = RATIO_RUNS[run]
        mine = [r for r in rows if r["step"].startswith(step) and r.get("variant", "") == variant]
        cells = [find(mine, size=s) for s in sizes]
        if not any(cells):
            raise Fail(f"'{name}': {source} has no row of {label}")
        out.append(f"| {label} |" + "".join(" – |" if not r else f" {float(r['ratio']):.2f} |" if r["ok"] else
                                           f" {r['verdict']} |" for r in cells))
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


def write_whole(path, text, like=None):
    """Writes path through a temporary file beside it (keeping the mode of `like`): never half written."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path) or ".", prefix=".tmp.")
    with os.fdopen(fd, "w", newline="") as f:
        f.write(text)
    if like:
        shutil.copymode(like, tmp)
    os.replace(tmp, path)


def fill(path, name, table, source):
    """Puts table between the file's NAME markers; nothing else in the file changes."""
    b, e, lines = markers(path, name)
    note = f"<!-- Written by `make table` from {source}: rerun it rather than editing these lines. -->"
    write_whole(path, "\n".join(lines[:b + 1] + [note, ""] + table + [""] + lines[e:]), like=path)


def cmd_table(a):
    if markers(a.readme, "results-table") is None:
        b, e = (m.format("results-table") for m in MARKERS)
        raise Fail(f"{a.readme} has no results-table markers: put the lines {b} and {e} (each on a line of its own) where the table goes")
    read_results(a.csv)   # refused when missing or unsound, unlike the other CSVs, which may not exist yet
    status, kinds = 0, [("results-table", a.csv, "results table", ("PASS",), results_table),
                        ("step-results", a.csv, "step's results table", ("PASS",), step_table),
                        ("sweep-results", a.sweep_csv, "stage sweep table", ("PASS",), sweep_table),
                        ("ablation-results", a.ablation_csv, "step 6 against step 5 table", ("PASS",), ablation_table),
                        ("track-results", a.track_csv, "going-further table", ("PASS",), track_table),
                        ("track-shapes", a.track_shapes_csv, "going-further shapes table", ("PASS",), track_shapes_table)]
    for readme in [a.readme] + a.step_readmes:
        step_dir, found = os.path.basename(os.path.dirname(readme)), False
        for name, source, label, valid, make in kinds:
            try:
                if markers(readme, name) is None:
                    continue
                found = True
                table = os.path.exists(source) and make(read_results(source, valid), source, step_dir)
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
            print(f"table: note: {readme} has no table markers ({', '.join(k[0] for k in kinds[1:])}), skipped")
    return status


# --- running the steps into a CSV ------------------------------------------------------------

def describe(binary):
    """What `./stepN --describe` says, as a dict ({} when it cannot say)."""
    p = subprocess.run([binary, "--describe"], capture_output=True, text=True, timeout=60)
    return dict(w.split("=", 1) for w in p.stdout.split() if "=" in w) if p.returncode == 0 else {}


def max_stages(binary, what):
    if not shutil.which(binary):
        raise Fail(f"{binary} is not built (make builds it)")
    n = describe(binary).get("max_stages", "0")
    if not n.isdigit() or int(n) < 1:
        raise Fail(f"{binary} --describe gives no max_stages of 1 or more: it has no pipeline stages to {what}")
    return int(n)


def run_steps(out, runs, sizes, reps, extra="", label=None, valid=("PASS",), timeout=900, tags=None):
    """Runs each RUN ("BINARY [OPTION...]") at each size (M, or MxNxK), then writes OUT whole, or keeps it. With a
    label, the rows have a first column of that name: the name of the folder the binary is in. With tags (a
    function of the size, giving a dict), the rows begin with its columns."""
    plan = [run.split() for run in runs]
    for words in plan:
        if not words or not shutil.which(words[0]):
            raise Fail(f"'{' '.join(words)}' is not an executable step (make builds them)")
    header, rows, total = None, [], len(sizes.split()) * len(plan)
    for i, (size, (binary, *opts)) in enumerate(((s, p) for s in sizes.split() for p in plan), 1):
        lab = os.path.basename(os.path.dirname(binary)) if label else ""
        print(f"[{i}/{total}] {lab + ': ' if lab else ''}{' '.join([os.path.basename(binary)] + opts)} {size} ... ", end="")
        opts = opts + extra.split()
        try:
            dims = (size.split("x") + [size, size])[:3] if "x" in size else [size] * 3
            p = subprocess.run([binary, *dims, "--reps", str(reps)] + opts + ["--csv-header"],
                               capture_output=True, text=True, timeout=timeout or None)
            rc, lines, err = p.returncode, p.stdout.splitlines() + [""], p.stderr
        except subprocess.TimeoutExpired as e:
            rc, lines, err = None, [""], (e.stderr or b"").decode(errors="replace")
        head, row = next(((l, lines[j + 1]) for j, l in enumerate(lines) if l.startswith("step,")), (None, None))
        header = header or (row and head)
        problem = ("ERROR stale build" if row and head != header else f"TIMEOUT {timeout} s" if rc is None else
                   f"CRASH signal {-rc}" if rc < 0 else f"ERROR exit {rc}" if rc > 1 else
                   f"ERROR exit {rc}, no CSV row" if not row else None)
        if problem == "ERROR stale build":
            err += f"its CSV columns differ from the other steps' (rebuild with make):\n  {head}\n"
        if problem:   # a row of its own: the step's name, the size and stages, what happened, when
            st = re.findall(r"--stages[ =](\d+)", " ".join(opts))
            r = dict(step=describe(binary).get("name", os.path.basename(binary)), m=dims[0], n=dims[1], k=dims[2],
                     stages=st[-1] if st else "", verdict=problem, date_utc=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
            print(problem)
        else:
            r = dict(zip(head.split(","), next(csv.reader([row]))))
            g, ratio = positive(r.get("gflops", "")), positive(r.get("ratio", ""))
            speed = f"{g / 1000:.1f} TFLOPS" if g >= 1000 else f"{g:.0f} GFLOPS"
            timing = (" (timing disturbed in all {} measurements)".format(r.get("measurements")) if r.get("disturbed") == "yes"
                      else " (measured {} times)".format(r["measurements"]) if r.get("measurements", "1") not in ("1", "") else "")
            print(f"{speed} ({f'{ratio:.2g}' if ratio < 0.1 else f'{ratio:.2f}'} of cuBLAS) {r['verdict']}{timing}" if g else r["verdict"])
        if (problem or rc) and err.strip():
            print("\n".join("      " + l for l in err.rstrip("\n").split("\n")[-20:]))
        if label:
            r[label] = lab
        r.update(tags(size) if tags else {})
        rows.append(r)
    counts = collections.Counter(r["verdict"] for r in rows)
    summary = f"{len(rows)} rows: " + ", ".join(f"{n} {v}" for v, n in counts.items())
    failed = [f"{r[label] + ': ' if label else ''}{r['step']} {r['m']}{' S=' + r['stages'] if stages_of(r) else ''} ({r['verdict']})"
              for r in rows if r["verdict"] not in valid]
    if len(failed) == len(rows):
        raise Fail(f"no run gave a valid result ({' or '.join(valid)}; {summary}: is there a GPU? see above); {out} left as it was", 1)
    known = next(r for r in rows if "device" in r)   # a run that printed no row: the others' device, CUDA, commit
    cols = list(tags(sizes.split()[0]) if tags else []) + ([label] if label else []) + header.split(",")
    ident = ("device", "sm_count", "cuda_runtime", "cuda_driver", "commit")
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    lines = [cols] + [[r.get(c, known[c] if c in ident else "") for c in cols] for r in rows]
    write_whole(out, "".join(",".join(line) + "\n" for line in lines))
    print(f"run: wrote {out}, {summary}")
    if failed:
        print(f"run: not drawn (no valid result): {', '.join(failed)}")


# make shapes: the families of shapes besides the course's squares (issue: "what about my shape?").
# Transformer layers: a model's hidden size H and feed-forward size F, T tokens a batch; the
# projections are T x 3H x H (q, k and v together), T x H x H (attention out), T x F x H (up) and
# T x H x F (down).
LAYERS = [("BERT-base 512 tokens", 512, 768, 3072), ("Llama-2-7B 2048 tokens", 2048, 4096, 11008),
          ("Llama-2-7B 16 tokens (decode)", 16, 4096, 11008)]


# Shapes nobody tuned for: M, N and K each log-uniform in 1...16384 (a seeded draw, the seed written
# in the CSV's shape column), redrawn while 2 M N K is over RANDOM_FLOPS, so that one run stays short.
RANDOM_SHAPES, RANDOM_FLOPS = 100, 2 ** 38
PRIMES = (701, 1009, 1499, 2003, 2503, 3001, 3499, 4099)


def random_shapes(seed, count=RANDOM_SHAPES):
    import random
    rng, out = random.Random(seed), []
    while len(out) < count:
        m, n, k = (max(1, round(math.exp(rng.uniform(0, math.log(16384))))) for _ in range(3))
        if 2 * m * n * k <= RANDOM_FLOPS:
            out.append(f"{m}x{n}x{k}")
    return out


def shape_list(seed=1):
    """(family, name, "MxNxK") of every shape make shapes runs; the random family drawn with `seed`."""
    out = [("square", "", f"{s}x{s}x{s}") for s in range(128, 8193, 128)]
    for nk in (4096, 8192):
        for m in (16, 64, 128, 256):
            out += [("skinny", "M small", f"{m}x{nk}x{nk}"), ("skinny", "N small", f"{nk}x{m}x{nk}")]
    out += [("deep K", "", f"{mn}x{mn}x{k}") for mn in (256, 512, 1024) for k in (16384, 65536)]
    for name, t, h, f in LAYERS:
        out += [("layer", f"{name}: qkv", f"{t}x{3 * h}x{h}"), ("layer", f"{name}: attention out", f"{t}x{h}x{h}"),
                ("layer", f"{name}: mlp up", f"{t}x{f}x{h}"), ("layer", f"{name}: mlp down", f"{t}x{h}x{f}")]
    out += [("small K", "", f"{mn}x{mn}x{k}") for mn in (4096, 16384) for k in (8, 16, 32, 64, 128)]
    for a, b in ((4096, 4096), (8192, 8192), (16384, 16384), (4096, 16384), (16384, 4096)):
        out += [("matrix-vector", "M = 1", f"1x{a}x{b}"), ("matrix-vector", "N = 1", f"{a}x1x{b}")]
    out += [("tall and thin", "", f"{m}x{n}x{k}") for m, n, k in
            ((65536, 64, 64), (65536, 128, 128), (262144, 64, 128), (262144, 128, 64), (64, 65536, 64), (128, 262144, 128))]
    out += [("tiny C", "deep K", f"{mn}x{mn}x{k}") for mn, k in ((16, 65536), (64, 65536), (64, 262144), (128, 65536))]
    out += [("primes", "", f"{p}x{p}x{p}") for p in PRIMES] + [("primes", "", f"{m}x{n}x{k}") for m, n, k in
                                                             ((1009, 2003, 3001), (4099, 701, 1499), (3499, 2503, 1009))]
    out += [("random", f"seed {seed}", size) for size in random_shapes(seed)]
    seen = set()   # a shape in two families (16 x 4096 x 4096: skinny, and a decode layer) runs once
    return [sh for sh in out if not (sh[2] in seen or seen.add(sh[2]))]


def cmd_shapes(a):
    shapes = shape_list(a.seed)
    if a.only:
        shapes = [sh for sh in shapes if sh[0] in a.only.split(",")]
        if not shapes:
            families = ", ".join(dict.fromkeys(sh[0] for sh in shape_list()))
            raise Fail(f"--only '{a.only}': no such family ({families})")
    names = {size: (family, name) for family, name, size in shapes}
    run_steps(a.csv, a.runs, " ".join(size for _, _, size in shapes), a.reps, a.extra, timeout=a.timeout,
              tags=lambda size: dict(family=names[size][0], shape=names[size][1]))
    print("\n" + "\n".join(shapes_summary(read_results(a.csv, make="shapes", var="SHAPES_CSV"), a.csv)))


def geomean(xs):
    return math.exp(statistics.fmean(math.log(x) for x in xs))


def least(rows):
    """The valid row with the least ratio to cuBLAS (the first of equals)."""
    return min((r for r in rows if r["ok"]), key=lambda r: float(r["ratio"]))


def family_of(r):
    """A row's family of make shapes; the random family named with its seed: "random (seed 1)"."""
    family = r.get("family") or "square"
    return f"{family} ({r['shape']})" if family == "random" and r.get("shape") else family


def shapes_summary(rows, source):
    """Each step's ratio to cuBLAS over each family of make shapes, in the order they ran, and over every shape: how
    many shapes passed, their geometric mean and their least ratio (at which shape); only PASS rows count, and the
    others are counted apart."""
    steps = sorted({r["step"] for r in rows}, key=lambda s: (step_no(s), "(" not in s, s))   # as steps_in
    families = list(dict.fromkeys(family_of(r) for r in rows))
    out = ["| step | family | PASS shapes | geometric mean | minimum | at M x N x K | not PASS |",
           "|:-----|:-----|-----:|-----:|-----:|:-----|-----:|"]
    for step in steps:
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
    est = [(float(e.group(1)) / (1000 * float(r["median_ms"])), r) for r in rows
           if r["ok"] and (e := ESTIMATE.search(r.get("kernel", "")))]
    if not est:
        return []
    est.sort(key=lambda x: x[0])
    q = [x for x, _ in est]
    few = [x for x, r in est if r["kernel"].startswith("a block of")]
    at = lambda x: f"{x[1]['m']} x {x[1]['n']} x {x[1]['k']}"
    return ["", f"Step 6's estimate over its measured time (the kernel line's \"est.\" over the median), over the "
            f"{len(q)} PASS rows that give one: {spread(q)}, least {q[0]:.2f} ({at(est[0])}), most {q[-1]:.2f} "
            f"({at(est[-1])})"
            + (f"; a few rows of C: median {statistics.median(few):.2f} ({len(few)} row{'s' * (len(few) > 1)})." if few else ".")]


def cmd_shapes_summary(a):
    print("\n".join(shapes_summary(read_results(a.csv, make="shapes", var="SHAPES_CSV"), a.csv)))


# make plan-costs: the constants of step 6's estimate (plan.h, plan_costs), each from two runs of one
# candidate (--plan) that differ only in K, so that the difference is the k-tiles' own time. A block's fixed
# cost is a difference of a few microseconds between runs: each run's time is its median over rounds.
PLAN_DEPTHS = (16, 256)   # k-tiles a block, the two runs of each tile: the line through both ends of the depths
#                           the plan meets (128 x 32 bends between them: its fixed cost read 11 us from 64 and 256)


def plan_run(binary, m, n, k, plan, reps):
    """One run of step 6 with --plan: (median microseconds, blocks an SM from its kernel line, its CSV row)."""
    r = step_row(binary, str(m), str(n), str(k), reps, ("--plan", plan))
    if not r:
        raise Fail(f"{binary} {m} {n} {k} --plan {plan} did not pass (see above)", 1)
    per_sm = re.search(r"(\d+) blocks? an SM", r.get("kernel", ""))
    print(f"  {m} x {n} x {k} --plan {plan}: {1000 * float(r['median_ms']):.1f} us")
    return 1000 * float(r["median_ms"]), int(per_sm.group(1)) if per_sm else 1, r


def plan_costs_from(a, run, by_round=()):
    """The header's text, a line of its values and its fixed costs [(name, us)], from run(m, n, k, plan):
    (microseconds, blocks an SM, CSV row). by_round: each round's fixed costs alone, their spread told in the header."""
    d = describe(a.step6)
    if "track_tiles" not in d:
        raise Fail(f"{a.step6} --describe names no track_tiles: is it step 6?")
    launch, _, row = run(1, 1, 1, "64x64")
    bare_launch = run(1, 1, 1, "flat")[0]   # K = 1's kernel: no tile, no prologue (N = 1 and a few columns' too)
    sms, device, commit = int(row["sm_count"]), row["device"], row["commit"]
    mn = 16384
    t = run(mn, mn, 8, "64x64")[0]
    bytes_per_us = 4.0 * mn * mn / (t - launch)
    shapes = {word.split(":")[0]: tuple(map(int, word.split(":")[1].split("x"))) for word in d["track_tiles"].split(",")}
    # K in parts' second kernel: one tile of 128 x 64 in 2 parts, two blocks side by side, against K whole in one
    # block as deep; the sums it adds are a few KiB
    bm, bn, bk = shapes["tall"]
    whole = run(bm, bn, bk * PLAN_DEPTHS[0], f"{bm}x{bn}")[0]
    add_up_us = max(0.0, run(bm, bn, 2 * bk * PLAN_DEPTHS[0], f"{bm}x{bn}/parts2")[0] - whole)
    tiles = []
    for name, (bm, bn, bk) in shapes.items():
        parts = 2 if name == "short" else 1   # built for K in parts only
        plan = f"{bm}x{bn}" + (f"/parts{parts}" if parts > 1 else "")
        def at(b):   # b blocks an SM: (microseconds, blocks an SM) at each depth
            return [run(bm * sms * b // parts, bn, bk * depth * parts, plan)[:2]
                    for depth in PLAN_DEPTHS]
        runs = [at(1)]   # its kernel line says how many blocks an SM holds
        runs += [at(b) for b in range(2, runs[0][0][1] + 1)]
        span = PLAN_DEPTHS[1] - PLAN_DEPTHS[0]
        k_tile_us = [(deep[0] - shallow[0]) / span for shallow, deep in runs]
        # B copied a float at a time (N % 4 != 0, 3 columns fewer), at the most blocks an SM: its k-tiles' time over theirs
        b = len(runs)
        scalar = [run(bm * sms * b // parts, bn - 3, bk * depth * parts, plan)[0]
                  for depth in PLAN_DEPTHS]
        scalar_b = (scalar[1] - scalar[0]) / span / k_tile_us[-1]
        extra = 0.0
        if parts > 1:   # the second kernel: reads both parts' slices, writes C
            m = bm * sms // parts
            extra = add_up_us + 4.0 * m * bn * (parts + 1) / bytes_per_us
        block_us = max(0.0, runs[0][0][0] - launch - extra - PLAN_DEPTHS[0] * k_tile_us[0])
        tiles.append((f"{bm}x{bn}", k_tile_us, block_us, scalar_b))
    # a few rows: one block of 4 columns (its threads, few_threads, take a row of B each in turn) with K whole, at 2
    # and 32 rows of B a thread (1 and 16 rounds of loads where rows go in pairs, 1 and 4 where 8 are in flight:
    # few_in_flight), at each M the kernel takes (1 to 16): up to about 8, a block's latency hides its rows of A,
    # beyond they show, and the line runs through all; at M = 8, a wave of as many blocks as the SMs hold, at one
    # round (each block after an SM's first), in the columns a block the plan gives M = 8 there (32 tried first;
    # then those its kernel line names), and one block in 8 parts
    rounds, one, held = [], {}, {}
    in_flight = [int(w) for w in d.get("few_in_flight", "2").split(",")]
    threads = [int(w) for w in d.get("few_threads", ",".join(["256"] * len(in_flight))).split(",")]
    rows = range(1, len(in_flight) + 1)
    for rows_a in rows:
        block = threads[rows_a - 1]
        one[rows_a], held[rows_a], _ = run(rows_a, 4, 2 * block, "few-rows")   # held: blocks an SM at this M
        trips = 32 // in_flight[rows_a - 1] - 1
        rounds.append((run(rows_a, 4, 32 * block, "few-rows")[0] - one[rows_a]) / trips)
    few_row_us = max(0.0, statistics.linear_regression(rows, rounds).slope)   # a round: the line through them
    few_round_us = statistics.fmean(rounds) - statistics.fmean(rows) * few_row_us
    per_sm = held[8]
    wave, _, row = run(8, 32 * sms * per_sm, 2 * threads[7] // 8, "few-rows")
    named = re.search(r"(\d+) columns of C", row.get("kernel", ""))
    cols = int(named.group(1)) if named else 32
    if cols != 32:   # a wave of the plan's width (K: two rows of B for each of M = 8's threads of cols / 4 lanes)
        wave, _, row = run(8, cols * sms * per_sm, 2 * threads[7] * 4 // cols, "few-rows")
    if f"{cols} columns of C" not in row.get("kernel", ""):
        raise Fail(f"{a.step6} at 8 rows takes no steady columns a block: {row.get('kernel', '')}")
    at_8 = few_round_us + 8 * few_row_us
    few_block_us = max(0.0, wave - launch - at_8) / (per_sm - 1) if per_sm > 1 else 0.0
    few_sum_us = max(0.0, run(8, 4, 8 * 2 * threads[7], "few-rows/parts8")[0] - one[8] - at_8)
    # a few columns: a block of its rows (its kernel line says how many, and K's chunk), one and two blocks an SM
    row = run(2, 16, 256, "few-cols")[2]
    block = re.search(r"(\d+) rows of A.*chunks of (\d+)", row.get("kernel", ""))
    if not block:
        raise Fail(f"{a.step6}'s few columns name no rows of A and chunks of K: {row.get('kernel', '')}")
    rows_a, chunk = map(int, block.groups())
    col_chunk_us = [(run(rows_a * sms * b, 16, chunk * PLAN_DEPTHS[1], "few-cols")[0] -
                     run(rows_a * sms * b, 16, chunk * PLAN_DEPTHS[0], "few-cols")[0]) /
                    (PLAN_DEPTHS[1] - PLAN_DEPTHS[0]) for b in (1, 2)]
    m = 64 * sms // 2
    split = run(m, 128, 8 * 2 * PLAN_DEPTHS[0], "64x128/split2")[0]
    whole = run(2 * m, 128, 8 * PLAN_DEPTHS[0], "64x128")[0]
    cluster_us = max(0.0, split - whole) / (64 * 128 / 1024)   # a block's share, for each 1024 floats of its tile
    fixed = [("launch", launch), ("without tiles", bare_launch), ("parts' sum", add_up_us), ("cluster", cluster_us)]
    fixed += [(f"{name}'s block", bl) for name, _, bl, _ in tiles]
    ends = [(name, f"{min(r[i][1] for r in by_round):.2f}", f"{max(r[i][1] for r in by_round):.2f}")
            for i, (name, _) in enumerate(fixed)] if len(by_round) > 1 else []
    spread = ", ".join(f"{name} {lo}" + (f" to {hi}" if hi != lo else "") for name, lo, hi in ends)
    spread = "".join(f" * {line}\n" for line in textwrap.wrap(   # the header tells how far they moved
        f"A fixed cost is a difference of a few microseconds between runs; read from each round alone: {spread} us.",
        110)) if spread else ""
    date = time.strftime("%Y-%m-%d", time.gmtime())
    rows = "".join(f"        {{{{{', '.join(f'{us:.4f}' for us in kt)}}}, {bl:.3f}, {sb:.3f}}},   /* {name} */\n"
                   for name, kt, bl, sb in tiles)
    text = (f"/* plan_costs.h - the constants of the plan's estimate (plan.c), written by `make plan-costs`\n"
            f" * (scripts/course.py plan-costs): measured on {device} ({sms} SMs), commit {commit}, {date}.\n"
            f" * Each run's time is its median over {a.rounds} rounds of the whole list, taken in turn.\n"
            f"{spread}"
            f" * What each one is: plan.h (plan_costs). A GPU of other SMs, clocks or memory has other\n"
            f" * costs; `make plan-costs` there writes its own. */\n"
            f"static const plan_costs PLAN_COSTS = {{\n"
            f"    {launch:.2f}, {bare_launch:.2f}, {add_up_us:.2f}, {bytes_per_us:.4g}, {cluster_us:.4f},\n"
            f"    {few_block_us:.3f}, {few_round_us:.4f}, {few_row_us:.4f}, {few_sum_us:.3f},\n"
            f"    {{{col_chunk_us[0]:.4f}, {col_chunk_us[1]:.4f}}},\n"
            f"    {{\n{rows}    }},\n}};\n")
    return text, (f"launch {launch:.1f} us ({bare_launch:.1f} without tiles), parts' sum {add_up_us:.2f} us, "
          f"{bytes_per_us / 1e6:.2f} TB/s, "
          f"cluster {cluster_us:.3f} us, "
          f"a few rows' block {few_block_us:.2f} us, round {few_round_us:.3f} us + {few_row_us:.4f} a row of A, "
          f"sum {few_sum_us:.2f} us, a few columns' chunk {col_chunk_us[0]:.3f} us alone, "
          f"{col_chunk_us[1]:.3f} two an SM"), fixed


def cmd_plan_costs(a):
    """Every run of the list in each of a.rounds rounds (interleaved: drift over minutes spreads over all of them),
    then the constants from each run's median over the rounds."""
    seen = {}
    def measure(m, n, k, plan):
        us, per_sm, row = plan_run(a.step6, m, n, k, plan, a.reps)
        seen.setdefault((m, n, k, plan), (per_sm, row, []))[2].append(us)
        return us, per_sm, row
    rounds = []
    for r in range(a.rounds):
        print(f"plan-costs: round {r + 1} of {a.rounds}")
        rounds.append(plan_costs_from(a, measure)[2])
    text, values, _ = plan_costs_from(a, lambda *key: (statistics.median(seen[key][2]), *seen[key][:2]), rounds)
    write_whole(a.out, text)
    print(f"plan-costs: wrote {a.out} (each run's median of {a.rounds} rounds): {values}")


# make plan-check: at each shape of make shapes, step 6's choice and the runner-up its kernel line names
# ("next:", run with --plan), one after the other: how often the choice was the faster, and how close each
# estimate came to its measured time. The two run in separate processes: where cuBLAS, timed in each, moved by
# more than UNSTEADY between them, the GPU itself ran at another pace, and the pair is timed again (up to RETRIES
# times, keeping the pair whose cuBLAS times agree best); a pair still unsteady is left out of the count.
ESTIMATE = re.compile(r"est\. ([\d.]+) us(?:[,\s]+next: ([^,\s]+)[,\s]+est\. ([\d.]+) us)?")   # commas: spaces in a CSV
PLAN_CHECK_COLUMNS = ("family,shape,m,n,k,ratio,choice_us,choice_est_us,next,next_us,next_est_us,"
                      "device,commit,date_utc,choice_cublas_us,next_cublas_us").split(",")
PLAN_CHECK_OLD = PLAN_CHECK_COLUMNS[:-2]   # a CSV written before cuBLAS's times were kept: its summary still reads
UNSTEADY, RETRIES = 1.25, 2


def cublas_moved(r):
    """How far cuBLAS's time moved between the choice's run and the runner-up's (1: not at all), or None."""
    a, b = (float(r[c]) if r.get(c) else 0 for c in ("choice_cublas_us", "next_cublas_us"))
    return max(a, b) / min(a, b) if a > 0 and b > 0 else None


def step_row(binary, m, n, k, reps, more=()):
    """One run's CSV row as a dict, or None (its error on stderr) when it did not pass."""
    p = subprocess.run([binary, m, n, k, "--reps", str(reps), "--csv-header", *more], capture_output=True, text=True,
                       timeout=600)
    lines = p.stdout.strip().splitlines()
    r = dict(zip(lines[-2].split(","), next(csv.reader([lines[-1]])))) if len(lines) >= 2 else {}
    if p.returncode != 0 or r.get("verdict") != "PASS":
        print(f"    {binary} {m} {n} {k} {' '.join(more)}: exit {p.returncode} {p.stderr.strip()[-300:]}")
        return None
    return r


def us(row, column):
    """A run's time in the column (ms) as microseconds for a CSV, or "" where the run or the column is missing."""
    return f"{1000 * float(row[column]):.3f}" if row and row.get(column) else ""


def plan_check_summary(rows, source):
    """How often the choice ran faster than its runner-up, and the estimates against the measured times."""
    paired = [r for r in rows if r["next_us"]]
    both = [r for r in paired if (cublas_moved(r) or 1) <= UNSTEADY]
    won = [r for r in both if float(r["choice_us"]) <= float(r["next_us"])]
    close = [r for r in both if float(r["choice_us"]) <= 1.01 * float(r["next_us"])]
    out = [f"The choice ran faster than its runner-up at {len(won)} of {len(both)} shapes (within 1% at "
           f"{len(close)}); {len(rows) - len(paired)} of {len(rows)} had no runner-up."]
    if len(both) < len(paired):
        out.append(f"Left out: {len(paired) - len(both)} of {len(paired)} pairs, cuBLAS's time having moved by more than "
                   f"{UNSTEADY:.2f}x between the two runs after {RETRIES} more tries (the GPU's pace, not the plan).")
    for label, est, meas in (("the choice", "choice_est_us", "choice_us"), ("the runner-up", "next_est_us", "next_us")):
        q = sorted(float(r[est]) / float(r[meas]) for r in rows if r[meas] and r[est])
        if q:
            out.append(f"Estimated over measured time, {label}: {spread(q)}, least {q[0]:.2f}, most {q[-1]:.2f} "
                       f"({len(q)} shapes).")
    worst = sorted(both, key=lambda r: float(r["next_us"]) / float(r["choice_us"]))[:5]
    faster = "; ".join(f"{r['m']} x {r['n']} x {r['k']} {r['next']} {float(r['choice_us']) / float(r['next_us']):.2f}x as fast"
                       for r in worst if float(r["next_us"]) < float(r["choice_us"]))
    out += [f"Where the runner-up ran fastest against the choice: {faster or 'nowhere'}."]
    return out + [f"Measured on {rows[0]['device']}, commit {rows[0]['commit']}; from {source}." if rows else ""]


def cmd_plan_check(a):
    shapes = shape_list(a.seed)
    if a.only:
        shapes = [sh for sh in shapes if sh[0] in a.only.split(",")]
        if not shapes:
            raise Fail(f"--only '{a.only}': no such family")
    done = {}   # --resume: the rows of a run cut short, by shape
    if a.resume and os.path.exists(a.csv):
        with open(a.csv, newline="") as f:
            old = list(csv.DictReader(f))
        if old and any(c not in old[0] for c in PLAN_CHECK_OLD):
            raise Fail(f"--resume: {a.csv} is not a CSV of make plan-check")
        if old and any(c not in old[0] for c in PLAN_CHECK_COLUMNS):
            raise Fail(f"--resume: {a.csv} keeps no cuBLAS times (an older make plan-check): run it without --resume")
        done = {(r["family"], r["m"], r["n"], r["k"]): r for r in old}
    rows = []
    for i, (family, name, size) in enumerate(shapes, 1):
        m, n, k = size.split("x")
        if (family, m, n, k) in done:
            print(f"[{i}/{len(shapes)}] {size}: kept from {a.csv}")
            rows.append(done[(family, m, n, k)])
            continue
        print(f"[{i}/{len(shapes)}] {size}")
        c = step_row(a.step6, m, n, k, a.reps)
        e = c and ESTIMATE.search(c.get("kernel", ""))
        if c and not e:
            raise Fail(f"{a.step6}'s kernel line gives no estimate ('est. ... us'): is it step 6 with its track?")
        if not c:
            continue
        r = dict(family=family, shape=name, m=m, n=n, k=k, choice_est_us=e[1], next=e[2] or "", next_est_us=e[3] or "",
                 device=c["device"], commit=c["commit"], date_utc=c["date_utc"])
        best = None   # of the pairs run (the choice, then the runner-up), the one whose cuBLAS times agree best
        for again in range(RETRIES + 1 if e[2] else 1):
            if again:
                print(f"    cuBLAS's time moved {cublas_moved(best):.2f}x between the two runs: both again")
                c = step_row(a.step6, m, n, k, a.reps)
            x = e[2] and c and step_row(a.step6, m, n, k, a.reps, ("--plan", e[2]))
            t = dict(r, ratio=c["ratio"] if c else "", choice_us=us(c, "median_ms"),
                     choice_cublas_us=us(c, "cublas_median_ms"), next_us=us(x, "median_ms"),
                     next_cublas_us=us(x, "cublas_median_ms"))
            if not best or (cublas_moved(t) or UNSTEADY + 1) < (cublas_moved(best) or UNSTEADY + 1):
                best = t
            if (cublas_moved(best) or 1) <= UNSTEADY:
                break
        r = best
        kept = next(iter(done.values()), r)
        if (kept["device"], kept["commit"]) != (r["device"], r["commit"]):
            raise Fail(f"--resume: {a.csv} was measured on {kept['device']} at commit {kept['commit']}, {a.step6} runs on "
                       f"{r['device']} at {r['commit']}: run it without --resume")
        rows.append(r)
        # after each shape: a run cut short leaves the shapes it measured, and --resume goes on from there
        write_whole(a.csv, "".join(",".join(line) + "\n" for line in
                                   [PLAN_CHECK_COLUMNS] + [[row[c] for c in PLAN_CHECK_COLUMNS] for row in rows]))
    if not rows:
        raise Fail("no shape passed: is there a GPU?", 1)
    print(f"plan-check: wrote {a.csv}, {len(rows)} of {len(shapes)} shapes")
    print("\n".join(plan_check_summary(rows, a.csv)))


def cmd_plan_check_summary(a):
    with open(a.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or any(c not in rows[0] for c in PLAN_CHECK_OLD):
        raise Fail(f"{a.csv} is not a CSV of make plan-check (its columns: {','.join(PLAN_CHECK_COLUMNS)})")
    print("\n".join(plan_check_summary(rows, a.csv)))


def cmd_run(a):
    return run_steps(a.out, a.runs, a.sizes, a.reps, a.extra, timeout=a.timeout)


def cmd_sweep(a):
    top = max_stages(a.step, "sweep")
    print(f"sweep: {os.path.basename(a.step)} at S = 1..{top}, sizes {a.sizes}, {a.reps} reps")
    run_steps(a.csv, [f"{a.step} --stages {s}" for s in range(1, top + 1)], a.sizes, a.reps, a.extra, timeout=a.timeout)
    print("\n" + "\n".join(sweep_table(read_results(a.csv), a.csv)) + "\n")
    return render(a.csv, a.out, ["sweep"], a.gnuplot, optional="sweep")


def cmd_ablation(a):
    print(f"ablation: {len(a.runs)} runs x sizes {a.sizes}, {a.reps} reps, each checked")
    run_steps(a.csv, a.runs, a.sizes, a.reps, a.extra, timeout=a.timeout)
    table = track_table if a.track else ablation_table
    print("\n" + "\n".join(table(read_results(a.csv), a.csv)))


def cmd_ablation_table(a):
    make, var, table = ("track-ablation", "TRACK_CSV", track_table) if a.track else ("ablation", "ABLATION_CSV", ablation_table)
    print("\n".join(table(read_results(a.csv, make=make, var=var), a.csv)))


# --- the data of the charts, and gnuplot -----------------------------------------------------

def gp(v):
    """A gnuplot literal."""
    return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"' if isinstance(v, str) else repr(v)


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
        pts = "".join("\t".join(map(str, (x, tflops(r), r["ratio"] if r["ok"] else "NaN") + more(g, x))) + "\n" for x, r in at)
        blocks.append(title(g) + (f" ({bad})" if bad else "") + "\n" + pts)
    return blocks, lost


def tic_label(step):
    """A step's name under its bar, a line for each word: "step6\nunroll\n(whole track)"."""
    return step.replace("_", "\n", 1).replace(" (", "\n(")


def shown(step):
    """A step's name in a chart. A step run as it is, whose folder holds a going-further track
    (step6_unroll/going_further), runs that whole track, and is named so, as read_results names it beside its
    parts: "step6_unroll (whole track)", in a CSV with its core or without (make shapes runs ./step6 alone)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    whole = "(" not in step and os.path.isdir(os.path.join(root, step, "going_further"))
    return f"{step} (whole track)" if whole else step


def linetype(step):
    """The linetype (plots/style.gp: a colour and a marker) a step's series draws in, the same in every chart:
    step n in n % 9 + 1, a step's core too; its whole going-further track in 8, any other part of it in 9. So step
    6's core and its whole track are never drawn alike."""
    part = step[step.index("(") + 1:-1] if step.endswith(")") and " (" in step else ""
    return 8 if part == "whole track" else 9 if part and part != "core" else step_no(step) % 9 + 1


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
    data = "".join(f"{x}\t{value(r) if r and r['ok'] else 'NaN'}\t{ratio_text(r['ratio']) if r and r['ok'] else 'NaN'}\t"
                   f"{linetype(shown(s))}\t{r['verdict'] if r else 'not run'}\n" for x, (s, r) in enumerate(zip(steps, at)))
    tics = ", ".join(f"{gp(tic_label(shown(s)))} {x}" for x, s in enumerate(steps))
    return data, at, f"set xtics ({tics})"


def chart_progression(rows, size):
    passing = passing_squares(rows, "progression")
    if size not in passing:
        print(f"chart: note: no run passed at {size}; the progression chart shows {passing[-1]} instead", file=sys.stderr)
        size = passing[-1]
    cublas = cublas_median(rows, size) / 1000
    data, at, tics = step_bars(rows, size, tflops)
    top = max([cublas] + [float(r["gflops"]) / 1000 for r in at if r and r["ok"]])
    return data, dict(size=size, nsteps=len(at), cublas=cublas, ymax=top * 1.3), tics


def extent(rows, cublas):
    """The ranges of the TFLOPS (the valid runs' and cuBLAS's) and of the ratios to cuBLAS (1 included)."""
    tf = [float(r["gflops"]) / 1000 for r in rows if r["ok"]] + cublas
    ratios = [float(r["ratio"]) for r in rows if r["ok"]] + [1.0]
    return dict(ymin=min(tf), ymax=max(tf), rmin=min(ratios), rmax=max(ratios))


def chart_sizes(rows, _):
    sizes, steps = sizes_in(rows), steps_in(rows)
    blocks, lost = series(steps, sizes, lambda g, x: find(rows, step=g, size=x), shown, lambda r: r["m"])
    cublas = [(s, cublas_median(rows, s) / 1000) for s in sizes if cublas_median(rows, s)]
    blocks.append("cuBLAS\n" + "".join(f"{s}\t{t:.4f}\t1\n" for s, t in cublas))
    return "\n\n\n".join(blocks), dict(
        extent(rows, [t for _, t in cublas]), nsteps=len(blocks) - 1, xmin=sizes[0], xmax=sizes[-1],
        linetypes=" ".join(str(linetype(shown(s))) for s in steps if s not in lost),
        note="no run passed: " + ", ".join(lost) if lost else ""), "set xtics (" + ", ".join(map(str, sizes)) + ")"


def chart_sweep(rows, _):
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


def passing_random_rows(rows):
    return [r for r in random_rows(rows) if r["ok"]]


def chart_shapes(rows, _):
    """The squares of make shapes: each step's ratio to cuBLAS against the size, and the sizes where 128 x 128
    tiles fill whole waves of the GPU's SMs."""
    squares = square_rows(rows)
    if not squares:
        raise Fail("no square (M = N = K) run: the shapes chart draws the squares of make shapes")
    sizes, steps = sizes_in(squares), steps_in(squares)
    blocks, lost = series(steps, sizes, lambda g, x: find(squares, step=g, size=x), shown, lambda r: r["m"])
    sms = {int(r["sm_count"]) for r in squares if r.get("sm_count", "").isdigit()}
    if len(sms) != 1:
        raise Fail(f"the square runs name {len(sms)} SM counts ({sorted(sms)}): one GPU's waves are drawn")
    sm = sms.pop()
    waves = [128 * math.sqrt(w * sm) for w in range(1, 10_000) if 128 * math.sqrt(w * sm) <= sizes[-1]]
    return "\n\n\n".join(blocks), dict(
        extent(squares, []), nsteps=len(blocks), xmax=sizes[-1], waves=" ".join(f"{x:.1f}" for x in waves),
        wave_note=f"128x128 tiles fill whole waves of {sm} SMs",
        linetypes=" ".join(str(linetype(shown(s))) for s in steps if s not in lost),
        note="no run passed: " + ", ".join(lost) if lost else ""), ""


def chart_shapes_nonsquare(rows, _):
    """The named families of make shapes but the squares: each step's ratio to cuBLAS at each shape, a row
    each, top to bottom in the order they ran. The shapes of one family and one name (the part of it before a
    ": ": a model's layers, "M small") sit together under a heading; a row is named by the rest and M x N x K.
    The data: a block a step, "row TFLOPS ratio name" a shape."""
    others = nonsquare_rows(rows)
    if not others:
        raise Fail(f"no {NONSQUARE} run (the CSV's family column): the shapes_nonsquare chart draws "
                   "the named families of make shapes but the squares")
    shapes = list(dict.fromkeys((r["family"], r.get("shape", ""), r["m"], r["n"], r["k"]) for r in others))
    split = lambda shape: shape.rpartition(": ") if ": " in shape else (shape, "", "")
    groups = list(dict.fromkeys((family, split(shape)[0]) for family, shape, *_ in shapes))
    shapes.sort(key=lambda sh: groups.index((sh[0], split(sh[1])[0])))   # stable: each group's shapes as they ran
    at, names, heads, group = {}, {}, [], None
    for family, shape, m, n, k in shapes:
        head, _, name = split(shape)
        if (family, head) != group:
            group = family, head
            heads.append((len(at) + len(heads), f"{family}: {head}" if head else family))
        y = len(at) + len(heads)
        at[y], names[y] = dict(m=m, n=n, k=k), (name + "   " if name else "") + f"{m} x {n} x {k}"
    steps = sorted({r["step"] for r in others}, key=lambda s: (step_no(s), "(" not in s, s))   # as steps_in
    blocks, lost = series(steps, list(at), lambda g, y: find(others, step=g, **at[y]), shown,
                          lambda r: f"{r['m']}x{r['n']}x{r['k']}", lambda g, y: (names[y],))
    ratios = [float(r["ratio"]) for r in others if r["ok"]] + [1.0]
    return "\n\n\n".join(blocks), dict(
        nsteps=len(blocks), nrows=len(at) + len(heads), rmax=max(ratios),
        head_rows=" ".join(str(y) for y, _ in heads), heads=" ".join(gp(h.replace('"', "'")) for _, h in heads),
        linetypes=" ".join(str(linetype(shown(s))) for s in steps if s not in lost),
        note="no run passed: " + ", ".join(lost) if lost else ""), ""


def chart_shapes_random(rows, _):
    """The random shapes of make shapes: each step's ratio to cuBLAS against the shape's FLOPs (2 M N K), a point a
    shape; each step's geometric mean and least ratio in its key entry. The data: a block a step, a title line, then
    "FLOPs TFLOPS ratio MxNxK" a shape, by FLOPs."""
    rand = random_rows(rows)
    if not any(r["ok"] for r in rand):
        raise Fail("no random run that passed (the CSV's family column): the shapes_random chart draws the random "
                   "shapes of make shapes")
    steps = sorted({r["step"] for r in rand}, key=lambda s: (step_no(s), "(" not in s, s))   # as steps_in
    flops = lambda r: 2 * int(r["m"]) * int(r["n"]) * int(r["k"])
    blocks, lost = [], []
    for step in steps:
        mine = [r for r in rand if r["step"] == step]
        ok = [r for r in mine if r["ok"]]
        if not ok:
            lost.append(step)
            continue
        low = least(ok)   # as shapes_summary: the first of equals in the order they ran
        mine.sort(key=flops)
        title = (f"{shown(step)}: geometric mean {ratio_text(geomean(float(r['ratio']) for r in ok))}, minimum "
                 f"{ratio_text(low['ratio'])} at {low['m']} x {low['n']} x {low['k']}" +
                 (f" ({len(mine) - len(ok)} of {len(mine)} not PASS, not drawn)" if len(ok) < len(mine) else ""))
        blocks.append(title + "\n" + "".join(f"{flops(r)}\t{tflops(r)}\t{r['ratio'] if r['ok'] else 'NaN'}\t"
                                             f"{r['m']}x{r['n']}x{r['k']}\n" for r in mine))
    ok = [r for r in rand if r["ok"]]
    ratios = [float(r["ratio"]) for r in ok] + [1.0]
    return "\n\n\n".join(blocks), dict(
        nsteps=len(blocks), nshapes=len({(r["m"], r["n"], r["k"]) for r in rand}), seeds=values(rand, "shape"),
        xmin=min(map(flops, ok)), xmax=max(map(flops, ok)), rmin=min(ratios), rmax=max(ratios),
        linetypes=" ".join(str(linetype(shown(s))) for s in steps if s not in lost),
        note="no run passed: " + ", ".join(lost) if lost else ""), ""


def chart_peak(rows, _, peak):
    """Each step's share of the FP32 FMA peak at the largest square size, a bar each, labelled with its ratio to
    cuBLAS; cuBLAS's share as a dashed line (render draws it only with a peak from the same run)."""
    size = passing_squares(rows, "peak")[-1]
    pct = lambda g: 100 * float(g) / peak["fma_gflops"]
    data, at, tics = step_bars(rows, size, lambda r: pct(r["gflops"]))
    return data, dict(size=size, nsteps=len(at), cublas=pct(cublas_median(rows, size)),
                      peak_tflops=peak["fma_gflops"] / 1000), tics


CHARTS = {"progression": chart_progression, "sizes": chart_sizes, "sweep": chart_sweep, "shapes": chart_shapes,
          "shapes_nonsquare": chart_shapes_nonsquare, "shapes_random": chart_shapes_random, "peak": chart_peak}
# make shapes-chart draws the three charts of make shapes; a CSV of some families only (make shapes SHAPES_ONLY=...,
# or one from before the random family) gets the ones its rows make, and a note for each other.
SHAPE_CHARTS = {"shapes": (square_rows, "square (M = N = K)"), "shapes_nonsquare": (nonsquare_rows, NONSQUARE),
                "shapes_random": (passing_random_rows, "passing random")}


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
    plotdir = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "plots")
    os.makedirs(outdir, exist_ok=True)
    peak, why = read_peak(csv_path, rows) if "peak" in charts else (None, None)
    if "peak" in charts and not peak:
        print(f"chart: note: {why}: no peak chart")
        charts = [c for c in charts if c != "peak"]
    lacking = [c for c in charts if c in SHAPE_CHARTS and not SHAPE_CHARTS[c][0](rows)]
    if lacking and len(lacking) < len([c for c in charts if c in SHAPE_CHARTS]):
        for c in lacking:
            print(f"chart: note: no {SHAPE_CHARTS[c][1]} shape in {csv_path}: no {c} chart")
        charts = [c for c in charts if c not in lacking]
    with tempfile.TemporaryDirectory(dir=outdir, prefix=".chart.") as tmp:
        for name in charts:
            data, var, tics = CHARTS[name](rows, size, peak) if name == "peak" else CHARTS[name](rows, size)
            with open(f"{tmp}/{name}.dat", "w") as f:
                f.write(data)
            var.update(device=values(rows, "device"), cuda=values(rows, "cuda_runtime"), commits=values(rows, "commit"),
                       dates=dates(rows), plotdir=plotdir, data=f"{tmp}/{name}.dat")
            for fmt in ("png", "svg"):
                with open(f"{tmp}/{name}.vars.gp", "w") as f:
                    f.write("".join(f"{k} = {gp(v)}\n" for k, v in dict(var, fmt=fmt, outfile=f"{tmp}/{name}.{fmt}").items()) + tics + "\n")
                p = subprocess.run([gnuplot, f"{tmp}/{name}.vars.gp", f"{plotdir}/{name}.gp"], capture_output=True, text=True)
                # gnuplot warns and goes on when data is missing: a warning is a broken picture.
                if p.returncode or "warning:" in p.stderr:
                    raise Fail(f"gnuplot {'failed' if p.returncode else 'warned'} on {name}.{fmt}:\n{p.stderr}", 1)
                with open(f"{tmp}/{name}.{fmt}", "rb") as f:
                    if (b"\x89PNG" if fmt == "png" else b"<svg") not in f.read(4096):
                        raise Fail(f"gnuplot wrote no valid {fmt} for {name}", 1)
                if fmt == "svg":   # gnuplot's svg terminal writes a bold font as the family "Sans:Bold"
                    with open(f"{tmp}/{name}.svg", encoding="utf-8") as f:
                        svg = f.read()
                    with open(f"{tmp}/{name}.svg", "w", encoding="utf-8") as f:
                        f.write(svg.replace('font-family="Sans:Bold"', 'font-family="sans-serif" font-weight="bold"'))
        if keep:   # the data files gnuplot read, for a look or a test
            shutil.copytree(tmp, keep, ignore=shutil.ignore_patterns("*.gp", "*.png", "*.svg"), dirs_exist_ok=True)
        written = [f"{outdir}/{n}.{fmt}" for n in charts for fmt in ("png", "svg")]
        for path in written:
            os.replace(f"{tmp}/{os.path.basename(path)}", path)
    print(f"chart: wrote {' '.join(written)} (from {csv_path})")


def cmd_chart(a):
    return render(a.csv, a.out, a.charts, a.gnuplot, a.size, a.keep_data, a.optional)


# --- reading a step: SASS, profile, diff -----------------------------------------------------

def provenance(binary=None):
    """What the evidence files record besides their figures: the commit the binary was built from (its
    --describe says), else that of this repository, as the build stamps it into the CSV rows; and the UTC
    date now."""
    built = describe(binary).get("commit", "") if binary and os.path.exists(binary) else ""
    if built and built != "unknown":
        return built, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    try:
        commit = subprocess.run(["git", "describe", "--always", "--dirty", "--abbrev=10"], capture_output=True,
                                text=True, cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    except OSError:
        commit = ""
    return commit or "unknown", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def gpu_names(texts):
    """The GPUs named in what ncu printed (the step's own `device` line), in order; else the
    GPU nvidia-smi names, where there is one; else unknown."""
    names = [m[1] for t in texts for m in re.finditer(r"^\s*device\s+(.+?), \d+ SMs", t, re.M)]
    if not names and shutil.which("nvidia-smi"):
        said = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True, text=True)
        names = said.stdout.strip().splitlines()[:1] if said.returncode == 0 else []
    return " / ".join(dict.fromkeys(n.strip() for n in names if n.strip())) or "unknown"


def measured_on(texts, binary=None):
    commit, date = provenance(binary)
    return f"measured on {gpu_names(texts)}, {date} (UTC), commit {commit}"


def one_bank(loop):
    """The FFMAs of a loop (its instructions' text) that read all three operands from one of the register
    file's two banks (register number mod 2, as measured on Volta and later): three reads from one bank take
    an extra cycle. An operand that the instruction before marked .reuse, in the same place, comes from the
    operand reuse cache instead, and RZ and constants are no reads."""
    count, cache = 0, {}
    for text in loop:
        op, _, args = text.partition(" ")
        if not op.startswith("FFMA"):
            cache = {}
            continue
        reads, kept = [], {}
        for place, arg in enumerate(a.strip() for a in args.split(",")[1:4]):
            m = re.fullmatch(r"-?\|?R(\d+)\|?(\.reuse)?", arg)
            if not m:
                continue
            if m[2]:
                kept[place] = int(m[1])
            if cache.get(place) != int(m[1]):
                reads.append(int(m[1]))
        cache = kept
        count += len(reads) == 3 and len({r % 2 for r in reads}) == 1
    return count


def sass_summary(text):
    """Per kernel of a `cuobjdump --dump-sass` listing, the static counts that matter here."""
    kernels, arch = [], ""
    for line in text.splitlines():
        if m := re.match(r"\s*code for (sm_\w+)", line):
            arch = m[1]
        elif m := re.match(r"\s*Function\s*:\s*(.*?)\s*$", line):
            kernels.append((m[1], arch, []))
        elif kernels and (m := re.match(r"\s*/\*([0-9a-f]{4,})\*/\s*(.*?);", line)):
            words = [w for w in m[2].split() if not w.startswith("@")]   # @P0: a predicate
            kernels[-1][2].extend([(int(m[1], 16), words[0], words[-1], " ".join(words))] if words else [])
    if not kernels:
        raise Fail("no kernel (no \"Function :\" line): is it the output of cuobjdump --dump-sass?")
    pct = lambda a, b: f"{100 * a / b:.1f}%" if b else "–"
    out = []
    for n, (fn, arch, code) in enumerate(kernels, 1):
        ops = collections.Counter(op for _, op, _, _ in code)
        count = lambda cls: sum(k for op, k in ops.items() if op.split(".")[0] == cls)
        widths = lambda cls, usual: ", ".join([f"{v} {ops[v]}" for v in usual.split()] + [
            f"{v} {k}" for v, k in ops.items() if v.split(".")[0] == cls and v not in usual.split()]) or f"{cls} 0"
        out += [f"[{n}] {fn}{f'  ({arch})' if arch else ''}",
                f"    {len(code)} instructions: FFMA {count('FFMA')} ({pct(count('FFMA'), len(code))}), BAR {count('BAR')}, "
                f"LDL {count('LDL')}, STL {count('STL')}{'  <- local memory: spills?' if count('LDL') + count('STL') else ''}",
                f"    global  {widths('LDG', 'LDG.E LDG.E.64 LDG.E.128')} | {widths('STG', 'STG.E STG.E.64 STG.E.128')} | {widths('LDGSTS', '')}",
                f"    shared  {widths('LDS', 'LDS LDS.64 LDS.128')} | {widths('STS', 'STS STS.64 STS.128')}"]
        # A backward branch closes a loop; the widest such span is the kernel's main loop.
        loops = [(int(t, 16), a) for a, op, t, _ in code if op.startswith("BRA") and re.fullmatch(r"0x[0-9a-f]+", t) and int(t, 16) < a]
        lo, hi = max(loops, key=lambda l: l[1] - l[0], default=(0, -1))
        body = [op.split(".")[0] for a, op, _, _ in code if lo <= a <= hi]
        out.append(f"    longest loop 0x{lo:04x}-0x{hi:04x}: {len(body)} instructions, FFMA {body.count('FFMA')} "
                   f"({pct(body.count('FFMA'), len(body))}), {one_bank([t for a, _, _, t in code if lo <= a <= hi])} "
                   f"of them reading all three operands from one register bank" if loops else "    no loop (no backward branch)")
    return "\n".join(out) + "\n"


def cmd_sass(a):
    with open(a.listing) as f:
        listing = f.read()
    summary = sass_summary(listing)
    if shutil.which("c++filt"):   # kernel names demangled
        summary = subprocess.run(["c++filt"], input=summary, capture_output=True, text=True).stdout
    arch = ", ".join(dict.fromkeys(re.findall(r"^\s*code for (sm_\w+)", listing, re.M))) or "unknown"
    commit, date = provenance(a.binary)
    print(f"sass: the SASS of each kernel in {a.listing}, counted (static counts: instructions in the code, "
          f"not executed)\nsass: binary {a.binary or 'unknown'}, code for {arch}, {date} (UTC), commit {commit}\n\n{summary}", end="")


def ptxas_kernels(text):
    """Per kernel of a `ptxas -v` log: (name, arch, registers, stack frame, spill stores, spill loads)."""
    kernels, warnings = [], []
    for line in text.splitlines():
        if m := re.search(r"Compiling entry function '([^']+)' for '(sm_\w+)'", line):
            kernels.append([m[1], m[2], None, 0, 0, 0])
        elif kernels and (m := re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)):
            kernels[-1][3:6] = [int(v) for v in m.groups()]
        elif kernels and (m := re.search(r"Used (\d+) registers", line)):
            kernels[-1][2] = int(m[1])
        if "ptxas warning" in line or "ptxas error" in line:
            warnings.append(line.strip())
    return kernels, warnings


def cmd_spills(a):
    """One row per log (an architecture and a step): its kernels, their registers, and every
    kernel that spills or uses local memory. Exit 1 if any does, or ptxas warned."""
    bad, rows = [], []
    for path in a.logs:
        try:
            with open(path) as f:
                kernels, warnings = ptxas_kernels(f.read())
        except OSError as e:
            raise Fail(f"{path}: {e.strerror}")
        if not kernels:
            raise Fail(f"{path}: no kernel in it (is it the output of nvcc -Xptxas -v?)")
        arch = kernels[0][1]
        step = os.path.splitext(os.path.basename(path))[0]
        regs = [k[2] for k in kernels if k[2] is not None]
        local = [k for k in kernels if k[3] or k[4] or k[5]]
        bad += [f"{arch} {step}: {k[0]}: {k[3]} bytes stack frame, {k[4]} bytes spill stores, {k[5]} bytes spill loads"
                for k in local] + [f"{arch} {step}: {w}" for w in warnings]
        rows.append((arch, step, len(kernels), f"{min(regs)}-{max(regs)}" if regs else "?",
                     sum(k[4] for k in kernels), len(local), len(warnings)))
    print("arch    step   kernels  registers  spill stores (bytes)  kernels with local memory  ptxas warnings")
    for r in rows:
        print(f"{r[0]:<7} {r[1]:<6} {r[2]:>7}  {r[3]:>9}  {r[4]:>20}  {r[5]:>25}  {r[6]:>14}")
    if bad:
        if shutil.which("c++filt"):
            bad = subprocess.run(["c++filt"], input="\n".join(bad), capture_output=True, text=True).stdout.splitlines()
        raise Fail("local memory or a ptxas warning:\n  " + "\n  ".join(bad), code=1)
    print(f"spills: {sum(r[2] for r in rows)} kernels in {len(rows)} build{'s' * (len(rows) != 1)}, "
          "none spills or uses local memory")


# Nsight Compute's metrics that explain the steps: (metric, short name, what it tells).
METRICS = [("gpu__time_duration.sum", "time", "kernel time"),
           ("dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM %", "DRAM bandwidth used, % of peak"),
           ("lts__t_bytes.sum", "L2 bytes", "bytes through L2"),
           ("lts__throughput.avg.pct_of_peak_sustained_elapsed", "L2 %", "L2 bandwidth used, % of peak"),
           ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "smem ld confl.", "shared-memory load bank conflicts"),
           ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "smem st confl.", "shared-memory store bank conflicts"),
           ("sm__warps_active.avg.pct_of_peak_sustained_active", "occupancy", "achieved occupancy: warps active, % of the SM's maximum"),
           ("smsp__issue_active.avg.pct_of_peak_sustained_active", "issue %", "cycles an instruction issued, % of active cycles"),
           ("sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", "FMA pipe %", "FMA pipe busy, % of active cycles"),
           ("smsp__inst_executed.sum", "instructions", "warp instructions executed"),
           ("smsp__warps_active.avg.per_cycle_active", "warps/sched.", "warps a scheduler holds, on average"),
           ("smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio", "wait: fetch",
            "warps waiting for their next instruction to be fetched (instruction cache), per instruction issued"),
           ("smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", "wait: memory",
            "warps waiting for data from global memory (cp.async too), per instruction issued"),
           ("smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio", "wait: barrier",
            "warps waiting at a barrier, per instruction issued"),
           ("launch__registers_per_thread", "regs", "registers per thread"),
           ("launch__occupancy_limit_registers", "blocks (regs)", "blocks per SM the registers allow")]


def read_ncu(path):
    """The first launch in what `ncu --csv --page raw` printed: {metric: its value, made readable}."""
    with open(path) as f:
        rows = list(csv.reader(l for l in f.read().splitlines() if not re.match(r"==[A-Z]+==", l)))
    at = next((i for i, r in enumerate(rows) if r and r[0] == "ID"), len(rows))
    head, body = rows[at] if at < len(rows) else [], [r for r in rows[at + 1:] if len(r) == len(rows[at])]
    if not any(r[0] for r in body):
        raise Fail(f"{path}: no metrics of a kernel launch in it (did ncu profile one? see the file)", 1)
    units = body[0] if body[0][0] == "" else [""] * len(head)   # a row of units, then a row per launch
    return {k: readable(v, u) for k, v, u in zip(head, next(r for r in body if r[0]), units)}


def readable(value, unit):
    """Nanoseconds as ms, bytes as MB, percentages with one decimal; 1,234 is 1234."""
    try:
        v = float(value.replace(",", "") if re.fullmatch(r"-?\d[\d,]*(\.\d+)?", value) else value)
    except ValueError:
        return value or "–"
    ms = {"nsecond": 1e-6, "ns": 1e-6, "usecond": 1e-3, "us": 1e-3, "msecond": 1, "ms": 1}
    return f"{v * ms[unit]:.3f} ms" if unit in ms else f"{v / 1e6:.1f} MB" if unit == "byte" else \
        f"{v:.1f} %" if unit == "%" else f"{v:.0f}" if v == int(v) else f"{v:.2f}"


def cmd_profile_table(a):
    texts = []
    for path in a.paths:
        with open(path) as f:
            texts.append(f.read())
    print(measured_on(texts))
    print("step  " + "".join(f"  {s:>14}" for _, s, _ in METRICS))
    for path in a.paths:
        got, step = read_ncu(path), re.search(r"step\d+", path)
        print(f"{step[0] if step else path:<6}" + "".join(f"  {got.get(m, '–'):>14}" for m, _, _ in METRICS))
    print("\n" + "\n".join(f"  {s:<14} {m}: {w}" for m, s, w in METRICS))


def cmd_profile(a):
    step, size, base = a.step, a.size, a.base   # ./stepN, M = N = K, and the path of the files it writes, less .txt
    if not re.fullmatch(r"[1-9]\d*", size):
        raise Fail(f"SIZE '{size}' is not a positive whole number")
    os.makedirs(os.path.dirname(base) or ".", exist_ok=True)
    name, args = os.path.basename(step), [step, size, "--reps", "1", "--warmup", "0", "--no-check"] + a.args.split()
    print(f"profile: {name} at M = N = K = {size}: ncu on the first launch of its sgemm_ kernel (the GPU's counters; this takes a while)")
    # Only the step's own kernel (they are all sgemm_*, cuBLAS's are not), once, without the check's launches.
    ncu = [a.ncu, "--csv", "--page", "raw", "--print-units", "base", "--metrics", ",".join(m for m, _, _ in METRICS),
           "-k", "regex:^sgemm_", "-c", "1"]
    with open(f"{base}.ncu.csv", "w") as f:
        rc = subprocess.run(ncu + args, stdout=f, stderr=subprocess.STDOUT).returncode
    if rc:
        said = open(f"{base}.ncu.csv").read()
        root = ("\nprofile: the GPU's counters are reserved to root here: run as root, or see "
                "https://developer.nvidia.com/ERR_NVGPUCTRPERM") if "ERR_NVGPUCTRPERM" in said else ""
        raise Fail(f"ncu exited {rc}; the end of what it said ({base}.ncu.csv):\n" +
                   "\n".join("    " + l for l in said.splitlines()[-15:]) + root, 1)
    got = read_ncu(f"{base}.ncu.csv")
    with open(f"{base}.ncu.csv") as f:
        on = measured_on([f.read()], step)
    text = (f"{name}, M = N = K = {size} ({' '.join(args)} under ncu)\n{on}\nkernel: {got['Kernel Name']} (the first launch)\n\n"
            f"  {'metric':<74} {'value':>16}  what it tells\n" + "".join(f"  {m:<74} {got.get(m, '–'):>16}  {w}\n" for m, _, w in METRICS))
    write_whole(f"{base}.txt", text)
    print(text + f"profile: wrote {base}.txt (and what ncu printed: {base}.ncu.csv)")


def cmd_profile_runs(a):
    """Each RUN ("./stepN [OPTION...]") profiled at each size, their reports one after the other in OUT with a
    table of the figures that differ most first (make unroll-profile)."""
    texts, raw, table = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for size in a.sizes.split():
            for i, run in enumerate(a.runs):
                step, *opts = run.split()
                base = os.path.join(tmp, f"{i}_{size}")
                cmd_profile(argparse.Namespace(step=step, size=size, base=base, ncu=a.ncu, args=" ".join(opts)))
                got = read_ncu(f"{base}.ncu.csv")
                table.append((f"{os.path.basename(step)} {' '.join(opts)}".strip(), size, got))
                texts.append(open(f"{base}.txt").read())
                raw.append(open(f"{base}.ncu.csv").read())
    short = [("gpu__time_duration.sum", "time"), ("smsp__inst_executed.sum", "instructions"),
             ("smsp__issue_active.avg.pct_of_peak_sustained_active", "issue %"),
             ("sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", "FMA pipe %"),
             ("smsp__warps_active.avg.per_cycle_active", "warps/sched."),
             ("smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio", "wait: fetch"),
             ("smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", "wait: memory"),
             ("smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio", "wait: barrier")]
    width = max(len(r) for r, _, _ in table)
    head = [f"# Nsight Compute on the first launch of each run's kernel (clocks locked at base by ncu: compare",
            f"# times within this file only). {measured_on(raw, a.runs[-1].split()[0])}", "",
            f"{'run':<{width}}  {'M=N=K':>5}" + "".join(f"  {n:>13}" for _, n in short)]
    head += [f"{r:<{width}}  {size:>5}" + "".join(f"  {got.get(m, '–'):>13}" for m, _ in short) for r, size, got in table]
    write_whole(a.out, "\n".join(head) + "\n\n" + "\n".join(texts))
    print("\n".join(head[3:]) + f"\nprofile-runs: wrote {a.out}")


def code_only(lines):
    """The lines without their C comments: lines that held only a comment go, blank runs become one."""
    text = re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                  lambda m: m[0] if m[0][0] in "\"'" else "\n" * m[0].count("\n"), "\n".join(lines), flags=re.S)
    out = []
    for before, after in zip(lines, (l.rstrip() for l in text.split("\n"))):
        if after or (not before.strip() and out and out[-1]):
            out.append(after)
    return out


def cmd_quotes(a):
    """Every ```cuda block of each lesson appears, line for line, in its step's sources (stepN.cu and the
    headers beside it): a lesson quotes code, it never paraphrases it."""
    bad = []
    for readme in a.readmes:
        folder = os.path.dirname(readme) or "."
        sources = "".join(open(f).read() + "\n" for f in sorted(glob.glob(f"{folder}/*.cu") + glob.glob(f"{folder}/*.cuh")))
        for no, block in enumerate(re.findall(r"```cuda\n(.*?)```", open(readme).read(), re.S), 1):
            if block not in sources:
                first = block.split("\n")[0].strip()
                bad.append(f"{readme}: code block {no} ({first[:60]}) is not in {folder}/*.cu, *.cuh as quoted")
    if bad:
        raise Fail("\n".join(bad), 1)
    print(f"quotes: every code block of {len(a.readmes)} lessons is in its step's sources")


def unified_ignoring_indentation(old, new, old_name, new_name, context=3):
    """A unified diff of two lists of lines in which a line that only changed its indentation (or
    other white space) is not a change: it shows as context, as the new file has it."""
    key = lambda lines: [" ".join(l.split()) for l in lines]
    out = []
    for group in difflib.SequenceMatcher(None, key(old), key(new), autojunk=False).get_grouped_opcodes(context):
        if not out:
            out += [f"--- {old_name}", f"+++ {new_name}"]
        (_, i1, _, j1, _), (_, _, i2, _, j2) = group[0], group[-1]
        out.append(f"@@ -{i1 + 1},{i2 - i1} +{j1 + 1},{j2 - j1} @@")
        for tag, a1, a2, b1, b2 in group:
            if tag == "equal":
                out += [" " + l for l in new[b1:b2]]
                continue
            out += ["-" + l for l in old[a1:a2]] + ["+" + l for l in new[b1:b2]]
    return out


# A file name that carries an issue or run number, or a commit hash (7 or more hex digits, a letter among them).
BAD_EVIDENCE_NAME = re.compile(r"issue[_-]?\d|run[_-]?\d|(?<![0-9a-z])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?![0-9a-z])", re.I)
MAX_EVIDENCE = 12


def cmd_evidence(a):
    """Each lesson's evidence folder (beside its README.md) holds at most MAX_EVIDENCE files, each cited by the
    lesson as evidence/NAME and named for what it shows; every evidence/NAME a lesson cites is there."""
    bad, checked = [], 0
    for readme in a.readmes:
        if os.path.basename(os.path.dirname(os.path.abspath(readme))) == "evidence":
            continue   # an evidence folder's own index, not a lesson
        folder = os.path.join(os.path.dirname(readme) or ".", "evidence")
        text = open(readme).read()
        cited = set(re.findall(r"evidence/([A-Za-z0-9_.-]*[A-Za-z0-9_-])", text))
        files = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
        if len(files) > MAX_EVIDENCE:
            bad.append(f"{folder}: {len(files)} files, more than {MAX_EVIDENCE}")
        for name in files:
            checked += 1
            if os.path.isdir(os.path.join(folder, name)):
                bad.append(f"{folder}/{name}: a folder; evidence is files")
            elif name != "README.md" and name not in cited:
                bad.append(f"{folder}/{name}: not cited by {readme}")
            if BAD_EVIDENCE_NAME.search(name):
                bad.append(f"{folder}/{name}: named by an issue, a run or a commit, not by what it shows")
        for name in sorted(cited):
            if name not in files:
                bad.append(f"{readme} cites evidence/{name}, which {folder} does not hold")
        if files and "README.md" not in files:
            bad.append(f"{folder}: no README.md giving each file's GPU, commit and date")
    if bad:
        raise Fail("\n".join(bad), 1)
    print(f"evidence: {len(a.readmes)} lessons, {checked} files, each cited and named for what it shows")


def cmd_diff(a):
    found, n = {step_no(os.path.basename(f)): f for f in glob.glob("step[0-9]*_*/step[0-9]*.cu")}, a.step
    if n not in found or n - 1 not in found:
        raise Fail(f"step {n} is the first step: there is nothing before it to compare with" if n in found else
                   f"there is no step {n} (no step{n}_*/step{n}.cu)")
    old, new = (open(found[i]).read().splitlines() for i in (n - 1, n))
    label = " (code only: comments left out)" if a.code else ""
    if a.code:
        old, new = code_only(old), code_only(new)
    print("\n".join(unified_ignoring_indentation(old, new, found[n - 1] + label, found[n] + label)))


# --- the command line ------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description="The course's tooling: runs, tables, chart data, SASS, profile, diff.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    runs = argparse.ArgumentParser(add_help=False)   # the options of the commands that run steps
    runs.add_argument("--sizes", default="256 512 1024 2048 4096 8192")
    runs.add_argument("--reps", type=int, default=10)
    runs.add_argument("--extra", default="", help="more options for every run (RUN_ARGS)")
    runs.add_argument("--timeout", type=int, default=900, help="seconds a run may take, 0 for no limit")
    p = sub.add_parser("run", parents=[runs], help="every run at every size into OUT.csv")
    p.add_argument("out"), p.add_argument("runs", nargs="+", help='"./stepN [OPTION...]"')
    p = sub.add_parser("shapes", parents=[runs], help="each RUN at every shape of make shapes into CSV")
    p.add_argument("csv"), p.add_argument("runs", nargs="+", help='"./stepN [OPTION...]"')
    p.add_argument("--only", help="families, comma-separated (square,skinny,deep K,layer,small K,matrix-vector,tall and thin,"
                                  "tiny C,primes,random)")
    p.add_argument("--seed", type=int, default=1, help="the random family's seed (make shapes SHAPES_SEED=)")
    p = sub.add_parser("shapes-summary", help="each step's ratio to cuBLAS over each family of a CSV of make shapes")
    p.add_argument("csv")
    p = sub.add_parser("plan-check", help="step 6's choice and its runner-up at every shape of make shapes into CSV")
    p.add_argument("step6"), p.add_argument("csv"), p.add_argument("--reps", type=int, default=10)
    p.add_argument("--only", help="families, comma-separated"), p.add_argument("--seed", type=int, default=1)
    p.add_argument("--resume", action="store_true", help="keep the CSV's rows (a run cut short) and measure the rest")
    sub.add_parser("plan-check-summary", help="the summary of a CSV of make plan-check").add_argument("csv")
    p = sub.add_parser("plan-costs", help="step 6's plan's costs, measured, into a header (plan_costs.h)")
    p.add_argument("step6"), p.add_argument("out"), p.add_argument("--reps", type=int, default=10)
    p.add_argument("--rounds", type=int, default=3, help="each run's time: its median over this many rounds")
    p = sub.add_parser("table", help="the measured tables into the READMEs, between their markers")
    p.add_argument("csv"), p.add_argument("readme"), p.add_argument("step_readmes", nargs="*")
    p.add_argument("--sweep-csv", default="plots/sweep.csv")
    p.add_argument("--ablation-csv", default="plots/ablation.csv")
    p.add_argument("--track-csv", default="plots/track.csv")
    p.add_argument("--track-shapes-csv", default="plots/track_shapes.csv")
    p = sub.add_parser("chart", help="OUT/CHART.png and .svg from a CSV, drawn by plots/CHART.gp")
    p.add_argument("csv"), p.add_argument("out"), p.add_argument("charts", nargs="+", choices=sorted(CHARTS))
    p.add_argument("--size", type=int, default=4096, help="the progression chart's size")
    p.add_argument("--gnuplot", default="gnuplot"), p.add_argument("--keep-data", help="a folder to keep the .dat files in")
    p.add_argument("--optional", metavar="WHAT", help="without gnuplot, say how to draw the charts elsewhere, and exit 0")
    p = sub.add_parser("sweep", parents=[runs], help="a step at every --stages S it describes, then its table and chart")
    p.add_argument("step"), p.add_argument("csv"), p.add_argument("out"), p.add_argument("--gnuplot", default="gnuplot")
    p = sub.add_parser("ablation", parents=[runs], help="step 5 against step 6's core (--track: the track part by part) into CSV, then the table")
    p.add_argument("csv"), p.add_argument("runs", nargs="+", help='"./stepN [OPTION...]"')
    p.add_argument("--track", action="store_true", help="the runs are step 6's track, part by part")
    p = sub.add_parser("ablation-table", help="the table of an ablation CSV")
    p.add_argument("csv"), p.add_argument("--track", action="store_true", help="a CSV of make track-ablation")
    p = sub.add_parser("sass", help="count per kernel in a listing of cuobjdump --dump-sass")
    p.add_argument("listing"), p.add_argument("--binary", help="the binary the listing is of, for the header")
    sub.add_parser("spills", help="a table of ptxas -v logs; exit 1 if a kernel spills or uses local memory").add_argument(
        "logs", nargs="+")
    p = sub.add_parser("profile", help="ncu on a step's kernel: OUTBASE.txt and OUTBASE.ncu.csv")
    p.add_argument("step"), p.add_argument("size"), p.add_argument("base"), p.add_argument("--ncu", default="ncu")
    p.add_argument("--args", default="", help="more options for the step (ARGS): --stages 3 --track core")
    sub.add_parser("profile-table", help="a table (step x metric) of profiles").add_argument("paths", nargs="+")
    p = sub.add_parser("profile-runs", help="each RUN profiled at each size: their reports and a table into OUT")
    p.add_argument("out"), p.add_argument("runs", nargs="+", help='"./stepN [OPTION...]"')
    p.add_argument("--sizes", default="1024 4096"), p.add_argument("--ncu", default="ncu")
    sub.add_parser("quotes", help="every ```cuda block of the lessons is in its step's sources").add_argument(
        "readmes", nargs="+")
    sub.add_parser("evidence", help="each lesson's evidence folder: every file cited, well named, at most 12").add_argument(
        "readmes", nargs="+")
    p = sub.add_parser("diff", help="what step N changed in its kernel file")
    p.add_argument("step", type=int), p.add_argument("--code", action="store_true", help="leave the comments of both files out")
    a = ap.parse_args()
    sys.stdout.reconfigure(line_buffering=True)   # progress and errors in the order they happen
    try:
        return globals()["cmd_" + a.cmd.replace("-", "_")](a) or 0
    except Fail as e:
        print(f"{a.cmd}: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print(f"\n{a.cmd}: interrupted; every CSV is left as it was", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

"""The measured tables: written into a README between its markers (make table), or printed (make ablation-table,
make shapes-summary). The going-further track's own tables are its tools.py's (going_further/)."""
import os, sys

from . import Fail
from .results import (cublas_median, find, g0, identity, in_order, least, mean_ratio_text, positive, ratio_text,
                      read_peak, read_results, size_of, sizes_in, stages_of, step_no, steps_in, sweep_step, write_whole)

MARKERS = "<!-- {}:begin -->", "<!-- {}:end -->"
STEP_SIZES = [1024, 2048, 4096, 8192]   # the sizes of a step README's own table


def cell(r, text):
    """A table cell: text(r) for a valid run, the verdict of another, – where none ran."""
    if not r:
        return " – |"
    return f" {text(r)} |" if r["ok"] else f" {r['verdict']} |"


def size_table(rows, head, runs, text, cublas_text):
    """A column a size: a row for each run (its label, its rows), a cell() of text at each size, then cuBLAS's
    median at each size, as cublas_text(GFLOPS)."""
    sizes = sizes_in(rows)
    out = [f"| {head} |" + "".join(f" {s} |" for s in sizes), "|:-----|" + "-----:|" * len(sizes)]
    out += [f"| {label} |" + "".join(cell(find(mine, size=s), text) for s in sizes) for label, mine in runs]
    medians = (cublas_median(rows, s) for s in sizes)
    return out + ["| cuBLAS (median) |" + "".join(f" {cublas_text(v)} |" if v else " – |" for v in medians)]


def share(gflops, peak):
    """GFLOPS as a share of the FMA peak, in percent, to two significant figures below 10%."""
    pct = 100 * float(gflops) / peak["fma_gflops"]
    return f"{pct:.2g}%" if pct < 10 else f"{pct:.0f}%"


def peak_table(rows, peak):
    """Each step's share of the FMA peak at each size, beside its ratio to cuBLAS."""
    steps = [(step, [r for r in rows if r["step"] == step]) for step in steps_in(rows)]
    out = size_table(rows, "step", steps, lambda r: f"{share(r['gflops'], peak)} · {ratio_text(r['ratio'])}",
                     lambda v: f"{share(v, peak)} · 1×")
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
            if not r:
                line += " – | – |"
            elif r["ok"]:
                line += f" {g0(r['gflops'])} | {ratio_text(r['ratio'])} |"
            else:
                line += f" {r['verdict']} | – |"
                bad.append(f"{r['verdict']} at {s}")
        out.append(line + f" {'; '.join(bad) or 'PASS'} |")
    medians = [cublas_median(rows, s) for s in sizes]
    out.append("| cuBLAS (median) |" + "".join(f" {g0(v)} | 1× |" if v else " – | – |" for v in medians) + " reference |")
    out += ["", f"Measured on {identity(rows)}: M = N = K, FP32, GFLOPS = 2·M·N·K / median time; \"vs cuBLAS\" is "
            f"cuBLAS's time over the step's, both timed in the same run. Written by `make table` from {source}."]
    return out + (["", "The same runs against the hardware's limit:", ""] + peak_table(rows, peak) if peak else [])


def ms_text(t):
    """A time in ms to about four figures: 0.123, 12.34, 123.4."""
    if t < 1:
        return f"{t:.3f}"
    return f"{t:.2f}" if t < 100 else f"{t:.1f}"


def step_table(rows, source, step_dir):
    """A step's own table: its time, GFLOPS and ratio to cuBLAS at each size, beside the step before it as built,
    from the same run (the speed-up is the step's idea, measured), where that step ran too."""
    no = step_no(step_dir)
    mine = [r for r in rows if step_no(r["step"]) == no and not r.get("variant")]
    if not mine:
        return None
    before = [r for r in rows if step_no(r["step"]) == no - 1 and not r.get("variant")]
    prev_head = f" step {no - 1} GFLOPS | × step {no - 1} |" if before else ""
    out = [f"| M = N = K | time, ms (median) | GFLOPS |{prev_head} cuBLAS GFLOPS | ratio to cuBLAS | verdict |",
           "|-----:|-----:|-----:|" + ("-----:|-----:|" if before else "") + "-----:|-----:|:-----|"]
    for s, r in ((s, find(mine, size=s)) for s in STEP_SIZES):
        cublas = g0(r["cublas_gflops"]) if r and positive(r["cublas_gflops"]) else "–"
        prev = ""
        if before:
            b = find(before, size=s)
            b_ok = b and b["ok"] and positive(b["gflops"])
            speedup = f"{float(r['gflops']) / float(b['gflops']):.2f}×" if b_ok and r and r["ok"] else "–"
            prev = f" {g0(b['gflops']) if b_ok else '–'} | {speedup} |"
        if not r:
            out.append(f"| {s} | – | – |{prev} – | – | not run |")
        elif r["ok"]:
            out.append(f"| {s} | {ms_text(float(r['median_ms']))} | {g0(r['gflops'])} |{prev} {cublas} | "
                       f"{ratio_text(r['ratio'])} | {r['verdict']} |")
        else:
            out.append(f"| {s} | – | – |{prev} {cublas} | – | {r['verdict']} |")
    against = f", beside {before[0]['step']} (the step before, as built) from the same run" if before else ""
    return out + ["", f"{mine[0]['step']}, M = N = K, FP32{against}: measured on {identity(mine + before)}; GFLOPS = "
                  f"2·M·N·K / median time, and cuBLAS timed in the same run. Written by `make table` from {source}."]


def sweep_table(rows, source, _=None):
    step, stages = sweep_step(rows)
    out = ["| M = N = K |" + "".join(f" S = {s} |" for s in stages) + " cuBLAS GFLOPS | best S |",
           "|-----:|" + "-----:|" * len(stages) + "-----:|:-----:|"]
    for size in sizes_in(rows):
        at = [find(rows, size=size, stages=s) for s in stages]
        top = max((r for r in at if r and r["ok"]), key=lambda r: float(r["gflops"]), default=None)   # the first of equals

        def text(r):
            gflops = f"**{g0(r['gflops'])}**" if r is top else g0(r["gflops"])   # the best S in bold
            return f"{gflops} ({ratio_text(r['ratio'])})"

        cublas = cublas_median(rows, size)
        line = f"| {size} |" + "".join(cell(r, text) for r in at)
        line += f" {g0(cublas)} |" if cublas else " – |"
        line += f" {top['stages']} |" if top else " – |"
        out.append(line)
    return out + ["", f"{step} at each pipeline depth S (`--stages S`; S = 1 overlaps nothing): GFLOPS, and in brackets the "
                  f"ratio to cuBLAS timed in the same run; the best S per size in bold. Measured on {identity(rows)}: "
                  f"M = N = K, FP32. Written by `make sweep` (`make table` copies it here) from {source}."]


BINARIES = {"going_further": "./further"}   # a program whose binary is not named as its rows (its folder is)


def run_label(r, stages=True):
    """A row's run as its command: its binary (./stepN for stepN_idea, ./further for going_further), --stages S (with
    stages, where the row has them), then --NAME VALUE for each NAME=VALUE of its variant: `./further --unroll no`."""
    name, n = r["step"].split(" (")[0], step_no(r["step"])
    words = [f"./step{n}" if n < 99 else BINARIES.get(name, f"./{name}")] + \
        ([f"--stages {r['stages']}"] if stages and stages_of(r) else [])
    return "`" + " ".join(words + [f"--{w.replace('=', ' ', 1)}" for w in r.get("variant", "").split()]) + "`"


def gflops_table(rows, runs, note, make, source):
    """A table of runs, each (its label, its rows): GFLOPS and the ratio to cuBLAS at each size, then cuBLAS's median."""
    out = size_table(rows, "run", runs, lambda r: f"{g0(r['gflops'])} ({ratio_text(r['ratio'])})", g0)
    return out + ["", f"GFLOPS, and in brackets the ratio to cuBLAS timed in the same process"
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


# The tables `make table` writes into the course's READMEs, by the name of their markers: the option that names their
# CSV, what they are, and the function that makes one of the CSV's rows, its path and the README's folder (None: the
# CSV has no row of it). The going-further track's lesson has tables of its own, which its tools.py writes.
TABLES = [("results-table", "csv", "results table", results_table),
          ("step-results", "csv", "step's results table", step_table),
          ("sweep-results", "sweep_csv", "stage sweep table", sweep_table),
          ("ablation-results", "ablation_csv", "step 6 against step 5 table", ablation_table)]


def fill_tables(readme, tables):
    """Fills each of tables [(marker name, CSV, what it is, make)] whose markers the README has, as TABLES says
    (a CSV that is not there, or has no row of it, leaves its table as it was). Returns whether the README has any
    of their markers, and the exit code: 2 when markers were broken or a table could not be made, else 0."""
    step_dir, found, status = os.path.basename(os.path.dirname(readme)), False, 0
    for name, source, label, make in tables:
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
    return found, status


def cmd_table(a):
    if markers(a.readme, "results-table") is None:
        b, e = (m.format("results-table") for m in MARKERS)
        raise Fail(f"{a.readme} has no results-table markers: put the lines {b} and {e} (each on a line of its own) where the table goes")
    read_results(a.csv)   # refused when missing or unsound, unlike the other CSVs, which may not exist yet
    status = 0
    for readme in [a.readme] + a.step_readmes:
        found, failed = fill_tables(readme, [(name, getattr(a, option), label, make) for name, option, label, make in TABLES])
        status = max(status, failed)
        if not found:
            print(f"table: note: {readme} has no table markers ({', '.join(t[0] for t in TABLES[1:])}), skipped")
    return status


def cmd_ablation_table(a):
    print("\n".join(ablation_table(read_results(a.csv, make="ablation", var="ABLATION_CSV"), a.csv)))


# --- make shapes' summary ------------------------------------------------------------------------

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
            if ok:
                low = least(ok)
                cells = f"{mean_ratio_text(ok)} | {ratio_text(low['ratio'])} | {low['m']} x {low['n']} x {low['k']}"
            else:
                cells = "– | – | –"
            out.append(f"| {step} | {family} | {len(ok)} | {cells} | {len(got) - len(ok)} |")
    failed = [r for r in rows if not r["ok"]]
    listed = ", ".join(f"{r['step']} {r['m']} x {r['n']} x {r['k']} ({r['verdict']})" for r in failed[:10])
    return out + ["", f"Each step's ratio to cuBLAS (cuBLAS's time over the step's, timed in the same process) over the "
                  f"PASS rows of each family, and of every shape: their geometric mean, their minimum and its shape. "
                  f"Measured on {identity(rows)}; from {source}.",
                  "", f"Every one of the {len(rows)} rows passed." if not failed else
                  f"{len(failed)} of the {len(rows)} rows did not pass and are not counted: {listed}"
                  f"{f' and {len(failed) - 10} more' if len(failed) > 10 else ''}."]


def cmd_shapes_summary(a):
    print("\n".join(shapes_summary(read_results(a.csv, make="shapes", var="SHAPES_CSV"), a.csv)))

#!/usr/bin/env python3
"""tools.py - the going-further track's tools: its plan's costs measured (make plan-costs) and its choices checked
against their runners-up (make plan-check), on a GPU. They run ./further with --plan and read its kernel line.
And its tables, no GPU: the runs of make track-ablation (make track-table), the tables make table writes into the
track's lesson, and the plan's estimate over its measured time at the shapes of make shapes (make shapes-summary ends
with it), and drawn as a chart (make estimate-chart).

    python3 going_further/tools.py plan-costs ./further going_further/plan_costs.h
    python3 going_further/tools.py plan-check ./further plots/plan_check.csv [--only primes] [--resume]
    python3 going_further/tools.py track-table plots/track.csv
    python3 going_further/tools.py table going_further/README.md
    python3 going_further/tools.py estimate-summary plots/shapes.csv
    python3 going_further/tools.py estimate-chart plots/shapes.csv plots
"""
import argparse, csv, functools, os, re, shutil, statistics, subprocess, sys, textwrap, time

# The course's tooling (scripts/course): make shapes' list of shapes, the reading of --describe and of a results CSV,
# how a CSV is written, the course's tables that the track's are built like.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from course import Fail, charts, main
from course.describe import describe, track_tiles
from course.results import find, identity, read_results, stage_counts, write_csv, write_whole
from course.runs import shape_list
from course.tables import cell, fill_tables, gflops_table, run_label, runs_in

# The track's kernel line: its plan's estimate, and the runner-up's (commas, not spaces, where the line sits in a CSV).
ESTIMATE = re.compile(r"est\. ([\d.]+) us(?:[,\s]+next: ([^,\s]+)[,\s]+est\. ([\d.]+) us)?")


def spread(q):
    """Sorted ratios of estimated to measured time, in words: their median, and the 10% and 90% points."""
    return f"median {statistics.median(q):.2f}, 10% to 90% {q[len(q) // 10]:.2f} to {q[(9 * len(q)) // 10]:.2f}"


# make plan-costs: the constants of the plan's estimate (plan.h, plan_costs), each from two runs of one
# candidate (--plan) that differ only in K, so that the difference is the k-tiles' own time. A block's fixed
# cost is a difference of a few microseconds between runs: each run's time is its median over rounds.
PLAN_DEPTHS = (16, 256)   # k-tiles a block, the two runs of each tile: the line through both ends of the depths
#                           the plan meets (128 x 32 bends between them: its fixed cost read 11 us from 64 and 256)


def plan_run(binary, m, n, k, plan, reps):
    """One run of ./further with --plan: (median microseconds, blocks an SM from its kernel line, its CSV row)."""
    r = step_row(binary, str(m), str(n), str(k), reps, ("--plan", plan))
    if not r:
        raise Fail(f"{binary} {m} {n} {k} --plan {plan} did not pass (see above)", 1)
    per_sm = re.search(r"(\d+) blocks? an SM", r.get("kernel", ""))
    print(f"  {m} x {n} x {k} --plan {plan}: {1000 * float(r['median_ms']):.1f} us")
    return 1000 * float(r["median_ms"]), int(per_sm.group(1)) if per_sm else 1, r


def plan_costs_from(a, run, by_round=()):
    """The header's text, a line of its values and its fixed costs [(name, us)], from run(m, n, k, plan):
    (microseconds, blocks an SM, CSV row). by_round: each round's fixed costs alone, their spread told in the header."""
    d = describe(a.binary)
    shapes = {name: (t.bm, t.bn, t.bk) for name, t in track_tiles(d).items()}
    launch, _, row = run(1, 1, 1, "64x64")
    bare_launch = run(1, 1, 1, "flat")[0]   # K = 1's kernel: no tile, no prologue (N = 1 and a few columns' too)
    sms, device, commit = int(row["sm_count"]), row["device"], row["commit"]
    mn = 16384
    t = run(mn, mn, 8, "64x64")[0]
    bytes_per_us = 4.0 * mn * mn / (t - launch)
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
        raise Fail(f"{a.binary} at 8 rows takes no steady columns a block: {row.get('kernel', '')}")
    at_8 = few_round_us + 8 * few_row_us
    few_block_us = max(0.0, wave - launch - at_8) / (per_sm - 1) if per_sm > 1 else 0.0
    few_sum_us = max(0.0, run(8, 4, 8 * 2 * threads[7], "few-rows/parts8")[0] - one[8] - at_8)
    # a few columns: a block of its rows (its kernel line says how many, and K's chunk), one and two blocks an SM
    row = run(2, 16, 256, "few-cols")[2]
    block = re.search(r"(\d+) rows of A.*chunks of (\d+)", row.get("kernel", ""))
    if not block:
        raise Fail(f"{a.binary}'s few columns name no rows of A and chunks of K: {row.get('kernel', '')}")
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
            f" * (tools.py plan-costs, beside it): measured on {device} ({sms} SMs), commit {commit}, {date}.\n"
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
        us, per_sm, row = plan_run(a.binary, m, n, k, plan, a.reps)
        seen.setdefault((m, n, k, plan), (per_sm, row, []))[2].append(us)
        return us, per_sm, row
    rounds = []
    for r in range(a.rounds):
        print(f"plan-costs: round {r + 1} of {a.rounds}")
        rounds.append(plan_costs_from(a, measure)[2])
    text, values, _ = plan_costs_from(a, lambda *key: (statistics.median(seen[key][2]), *seen[key][:2]), rounds)
    write_whole(a.out, text)
    print(f"plan-costs: wrote {a.out} (each run's median of {a.rounds} rounds): {values}")


# make plan-check: at each shape of make shapes, the plan's choice and the runner-up its kernel line names
# ("next:", run with --plan), one after the other: how often the choice was the faster, and how close each
# estimate came to its measured time. The two run in separate processes: where cuBLAS, timed in each, moved by
# more than UNSTEADY between them, the GPU itself ran at another pace, and the pair is timed again (up to RETRIES
# times, keeping the pair whose cuBLAS times agree best); a pair still unsteady is left out of the count.
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
    shapes = shape_list(a.seed, a.only)
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
        c = step_row(a.binary, m, n, k, a.reps)
        e = c and ESTIMATE.search(c.get("kernel", ""))
        if c and not e:
            raise Fail(f"{a.binary}'s kernel line gives no estimate ('est. ... us'): is it ./further, the track?")
        if not c:
            continue
        r = dict(family=family, shape=name, m=m, n=n, k=k, choice_est_us=e[1], next=e[2] or "", next_est_us=e[3] or "",
                 device=c["device"], commit=c["commit"], date_utc=c["date_utc"])
        best = None   # of the pairs run (the choice, then the runner-up), the one whose cuBLAS times agree best
        for again in range(RETRIES + 1 if e[2] else 1):
            if again:
                print(f"    cuBLAS's time moved {cublas_moved(best):.2f}x between the two runs: both again")
                c = step_row(a.binary, m, n, k, a.reps)
            x = e[2] and c and step_row(a.binary, m, n, k, a.reps, ("--plan", e[2]))
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
            raise Fail(f"--resume: {a.csv} was measured on {kept['device']} at commit {kept['commit']}, {a.binary} runs on "
                       f"{r['device']} at {r['commit']}: run it without --resume")
        rows.append(r)
        # after each shape: a run cut short leaves the shapes it measured, and --resume goes on from there
        write_csv(a.csv, [PLAN_CHECK_COLUMNS] + [[row[c] for c in PLAN_CHECK_COLUMNS] for row in rows])
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


# --- the track's tables (no GPU) ----------------------------------------------------------------------------

# The runs of the track (the short name a ratio table of its lesson gives them): the name read_results gives their
# rows, and what each is in the table of `make track-ablation` and in a table of ratios.
RUNS = {
    "core": ("step6_unroll", "step 6, the track's start (`./step6`)"),
    "warp-tiles": ("going_further (part=warp-tiles)", "+ warp tiles, rasterization, serpentine FMAs (`--part warp-tiles`)"),
    "split-k": ("going_further (part=split-k)", "+ K split over a cluster (`--part split-k`)"),
    "wide-tiles": ("going_further (part=wide-tiles)", "+ wide tiles in a lean loop (`--part wide-tiles`)"),
    "stream-k": ("going_further (part=stream-k)", "+ stream-K: the last wave in runs of k-tiles (`--part stream-k`)"),
    "all": ("going_further", "+ small and skinny shapes: the whole track, `./further`"),
    "all-rolled": ("going_further (unroll=no)", "the whole track, no stage loop unrolled (`--unroll no`)"),
    "all-unrolled": ("going_further (unroll=yes)", "the whole track, every loop unrolled (`--unroll yes`)"),
}
LABELS = dict(RUNS.values())


def label(r):
    """A run in a table: what RUNS says it is, else its command."""
    return LABELS.get(r["step"]) or run_label(r, stages=False)


def track_table(rows, source, _=None):
    """A row for each run of `make track-ablation`, in the order it ran them: GFLOPS and the ratio to cuBLAS at each
    size."""
    stages = ", ".join(str(s) for s in stage_counts(rows))
    note = "; each part of the track is added to the ones above it." + (f" Stages: {stages}." if stages else "")
    return gflops_table(rows, [(label(mine[0]), mine) for _, mine in runs_in(rows, lambda r: r["step"])], note,
                        "track-ablation", source)


def track_shapes_table(rows, source, _=None):
    """`make track-shapes`: each shape, the ratio to cuBLAS without the track's last part and with it."""
    shapes = list(dict.fromkeys((r["m"], r["n"], r["k"]) for r in rows))
    runs = {}   # each run's name: its first row
    for r in rows:
        runs.setdefault(r["step"], r)
    out = ["| family | M x N x K |" + "".join(f" {run_label(r, stages=False)} |" for r in runs.values()),
           "|---|---|" + "---:|" * len(runs)]
    for m, n, k in shapes:
        mine = [r for r in rows if (r["m"], r["n"], r["k"]) == (m, n, k)]
        cells = (next((r for r in mine if r["step"] == run), None) for run in runs)
        out.append(f"| {mine[0].get('family', '')} | {m} x {n} x {k} |" + "".join(cell(r, ratio_2f) for r in cells))
    return out + ["", f"Ratios to cuBLAS, timed in the same process; {identity(rows)}; written by `make track-shapes` "
                  f"(`make table` copies it here) from {source}."]


def ratio_2f(r):
    return f"{float(r['ratio']):.2f}"


def ratio_markers(path):
    """The names of the ratio tables a README asks for ("ratios core,warp-tiles 1024,2048")."""
    with open(path) as f:
        return re.findall(r"^<!-- (ratios [^:]*):begin -->\s*$", f.read(), re.M)


def ratio_table(name, rows, source, _=None):
    """The ratios to cuBLAS of the runs (RUNS) and at the sizes that the table's name gives, a row a run."""
    m = re.fullmatch(r"ratios ([\w,-]+) ([\d,]+)", name)
    if not m or any(r not in RUNS for r in m[1].split(",")):
        raise Fail(f"'{name}': expected 'ratios RUN,RUN,... SIZE,SIZE,...', RUN one of {', '.join(RUNS)}")
    sizes = [int(x) for x in m[2].split(",")]
    out = ["| |" + "".join(f" {s} |" for s in sizes), "|---|" + "---:|" * len(sizes)]
    for run in m[1].split(","):
        step, what = RUNS[run]
        cells = [find(rows, step=step, size=s) for s in sizes]
        if not any(cells):
            raise Fail(f"'{name}': {source} has no row of {what}")
        out.append(f"| {what} |" + "".join(cell(r, ratio_2f) for r in cells))
    return out + ["", f"Ratios to cuBLAS, timed in the same process; {identity(rows)}; from {source}."]


def cmd_table(a):
    """The track's tables into its lesson and chapters, between their markers, as make table writes the course's: the
    table of make track-ablation, that of make track-shapes, and each table of ratios a page asks for."""
    status = 0
    for readme in a.readme:
        tables = [("track-results", a.track_csv, "going-further table", track_table),
                  ("track-shapes", a.track_shapes_csv, "going-further shapes table", track_shapes_table)]
        tables += [(name, a.track_csv, f"{name} table", functools.partial(ratio_table, name))
                   for name in ratio_markers(readme)]
        found, page_status = fill_tables(readme, tables)
        status = max(status, page_status)
        if not found:
            print(f"table: note: {readme} has no table markers (track-results, track-shapes, ratios ...), skipped")
    return status


def cmd_track_table(a):
    print("\n".join(track_table(read_results(a.csv, make="track-ablation", var="TRACK_CSV"), a.csv)))


def estimated(rows):
    """(estimated us, measured median us, row) of each PASS row whose kernel line gives the plan's estimate."""
    return [(float(e[1]), 1000 * float(r["median_ms"]), r) for r in rows
            if r["ok"] and (e := ESTIMATE.search(r.get("kernel", "")))]


def cmd_estimate_summary(a):
    """The plan's estimate (the kernel line's "est. X us") over its measured median, over the PASS rows of a CSV of
    make shapes that give one: as make plan-check summarizes its choices, and apart for a few rows of C (kernel lines
    "a block of ..."). Nothing when no row gives one (a CSV without the track's rows)."""
    est = sorted(((x / y, r) for x, y, r in estimated(read_results(a.csv, make="shapes", var="SHAPES_CSV"))),
                 key=lambda x: x[0])
    if not est:
        return
    q = [x for x, _ in est]
    few = [x for x, r in est if r["kernel"].startswith("a block of")]
    at = lambda x: f"{x[1]['m']} x {x[1]['n']} x {x[1]['k']}"
    print(f"\nThe plan's estimate over its measured time (the kernel line's \"est.\" over the median), over the "
          f"{len(q)} PASS rows that give one: {spread(q)}, least {q[0]:.2f} ({at(est[0])}), most {q[-1]:.2f} "
          f"({at(est[-1])})"
          + (f"; a few rows of C: median {statistics.median(few):.2f} ({len(few)} row{'s' * (len(few) > 1)})." if few else "."))


# make shapes' families in the order it runs them: a family's colour in the estimate chart (linetype = place + 1).
FAMILIES = list(dict.fromkeys(family for family, _, _ in shape_list()))


def chart_estimate(rows, *_):
    """plots/estimate.gp's data: a block a family, its title line the family, its count and median of estimated over
    measured time, then "estimated measured MxNxK" (microseconds) a shape."""
    est = estimated(rows)
    place = lambda f: FAMILIES.index(f) if f in FAMILIES else len(FAMILIES)   # another family: after them, one colour
    families = sorted(dict.fromkeys(r["family"] for _, _, r in est), key=place)
    blocks = []
    for family in families:
        mine = [(x, y, r) for x, y, r in est if r["family"] == family]
        blocks.append(f"{family} ({len(mine)}): {statistics.median(x / y for x, y, _ in mine):.2f}\n" +
                      "".join(f"{x}\t{y:.3f}\t{r['m']}x{r['n']}x{r['k']}\n" for x, y, r in mine))
    times = [t for x, y, _ in est for t in (x, y)]
    return "\n\n\n".join(blocks), dict(
        nfamilies=len(blocks), nshapes=len(est), tmin=min(times), tmax=max(times),
        linetypes=" ".join(str(place(f) + 1) for f in families),
        summary=f"all {len(est)} shapes: {spread(sorted(x / y for x, y, _ in est))}"), ""


def cmd_estimate_chart(a):
    """plots/estimate.png and .svg: the plan's estimate against the measured time at each shape of a CSV of make
    shapes, drawn by the course's charts (scripts/course/charts.py render, plots/estimate.gp). --optional (make
    shapes, make shapes-chart): a CSV without the track's estimates gets a note, and no gnuplot nothing, as the
    course's charts have said how to draw them."""
    if not estimated(read_results(a.csv, make="shapes", var="SHAPES_CSV")):
        if not a.optional:
            raise Fail(f"{a.csv}: no PASS row gives the plan's estimate (\"est. ... us\", ./further's kernel line)")
        return print(f"chart: note: no PASS row of {a.csv} gives the plan's estimate: no estimate chart")
    if a.optional and not shutil.which(a.gnuplot):
        return
    charts.CHARTS["estimate"] = chart_estimate
    charts.render(a.csv, a.out, ["estimate"], a.gnuplot, keep=a.keep_data)


def parser():
    ap = argparse.ArgumentParser(prog="tools.py", description="The going-further track's tools: its plan's costs, its choices "
                                                           "checked, its tables.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("plan-costs", help="the track's plan's costs, measured, into a header (plan_costs.h)")
    p.add_argument("binary", help="./further"), p.add_argument("out"), p.add_argument("--reps", type=int, default=10)
    p.add_argument("--rounds", type=int, default=3, help="each run's time: its median over this many rounds")
    p = sub.add_parser("plan-check", help="the plan's choice and its runner-up at every shape of make shapes into CSV")
    p.add_argument("binary", help="./further"), p.add_argument("csv"), p.add_argument("--reps", type=int, default=10)
    p.add_argument("--only", help="families, comma-separated"), p.add_argument("--seed", type=int, default=1)
    p.add_argument("--resume", action="store_true", help="keep the CSV's rows (a run cut short) and measure the rest")
    sub.add_parser("plan-check-summary", help="the summary of a CSV of make plan-check").add_argument("csv")
    sub.add_parser("track-table", help="the table of a CSV of make track-ablation").add_argument("csv")
    p = sub.add_parser("table", help="the track's tables into its lesson and chapters, between their markers")
    p.add_argument("readme", nargs="+")
    p.add_argument("--track-csv", default="plots/track.csv")
    p.add_argument("--track-shapes-csv", default="plots/track_shapes.csv")
    p = sub.add_parser("estimate-summary", help="the plan's estimate over its measured time in a CSV of make shapes")
    p.add_argument("csv")
    p = sub.add_parser("estimate-chart", help="the chart of the plan's estimate against the measured time (estimate.png)")
    p.add_argument("csv"), p.add_argument("out", help="the folder of estimate.png and estimate.svg")
    p.add_argument("--gnuplot", default="gnuplot"), p.add_argument("--keep-data", help="a folder for estimate.dat")
    p.add_argument("--optional", action="store_true", help="no estimate or no gnuplot: a note, or nothing, not an error")
    return ap


# Every command and the function that does it, given the parsed arguments.
COMMANDS = {"plan-costs": cmd_plan_costs, "plan-check": cmd_plan_check, "plan-check-summary": cmd_plan_check_summary,
            "track-table": cmd_track_table, "table": cmd_table, "estimate-summary": cmd_estimate_summary,
            "estimate-chart": cmd_estimate_chart}

if __name__ == "__main__":
    sys.exit(main(COMMANDS, parser()))

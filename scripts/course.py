#!/usr/bin/env python3
"""course.py - the course's tooling in one program: Python 3's standard library, nothing else.

The make targets run it (plots/plots.mk, scripts/tools.mk); `python3 scripts/course.py -h`
lists its commands. It runs the steps into a CSV, writes the README tables, prepares the data
gnuplot draws (plots/*.gp), and reads a step's SASS, profile and diff:

    course.py run OUT.csv ./step0 "./step5 --stages 2" --sizes "1024 4096" --reps 10
    course.py table plots/results.csv README.md step*/README.md
    course.py chart plots/results.csv plots progression sizes
    course.py sweep ./step5 plots/sweep.csv plots        course.py tune names|run|table ...
    course.py sass ./step6 build/step6.sass              course.py profile check|run|table ...
    course.py diff 6 --code

A CSV is one run: it is written to a temporary file and moved over the old one only when the
run is complete. A result is valid when its verdict is PASS (UNCHECKED too for `make tune`,
run with --no-check); any other row keeps its verdict and is never drawn or counted.
Bad input gets one line on stderr, "COMMAND: what is wrong", and exit code 2.
"""
import argparse, csv, difflib, glob, math, os, re, shutil, statistics, subprocess, sys, tempfile, time

NEEDED = "step m n k gflops cublas_gflops ratio verdict device cuda_runtime commit date_utc".split()
MARKERS = "<!-- {}:begin -->", "<!-- {}:end -->"
STEP_SIZES = [1024, 2048, 4096, 8192]   # the sizes of a step README's own table


class Fail(Exception):
    """Bad input: one line for stderr and exit code 2."""


# --- reading a results CSV -----------------------------------------------------------------

def positive(text):
    try:
        v = float(text)
    except ValueError:
        return 0.0
    return v if math.isfinite(v) and v > 0 else 0.0


def read_results(path, valid=("PASS",), hint="`make results` on a GPU machine writes plots/results.csv (or pass CSV=path)"):
    """The rows of a CSV ./stepN --csv rows make up, as dicts, each with "ok" (a valid result)."""
    if not os.path.exists(path):
        raise Fail(f"{path}: no such file: {hint}")
    with open(path, newline="") as f:
        lines = [(no, l) for no, l in enumerate(f.read().splitlines(), 1) if l.strip() and not l.lstrip().startswith("#")]
    if not lines:
        raise Fail(f"{path}: empty: expected a header line and one row per run (./stepN M N K --csv)")
    header = next(csv.reader([lines[0][1]]))
    missing = [c for c in NEEDED if c not in header]
    if missing:
        raise Fail(f"{path}: missing column(s) {' '.join(missing)} (header: {lines[0][1]})")
    rows = []
    for no, line in lines[1:]:
        fields = next(csv.reader([line]))
        if fields == header:   # CSVs pasted together: the header again is not a row
            continue
        if len(fields) != len(header):
            raise Fail(f"{path}: line {no}: {len(fields)} fields, but the header has {len(header)}")
        r = dict(zip(header, fields), ok=fields[header.index("verdict")] in valid)
        if r["ok"]:
            if not all(r[c].isdigit() and int(r[c]) > 0 for c in "mnk"):
                raise Fail(f"{path}: line {no}: m, n, k must be positive integers (got {r['m']}, {r['n']}, {r['k']})")
            for c in ("gflops", "cublas_gflops", "ratio"):
                if not positive(r[c]):
                    raise Fail(f"{path}: line {no}: {c} is '{r[c]}', not a positive number, in a {r['verdict']} row")
        rows.append(r)
    if not rows:
        raise Fail(f"{path}: no rows under the header")
    if not any(r["ok"] for r in rows):
        raise Fail(f"{path}: no {' or '.join(valid)} rows ({len(rows)} rows, none a valid result): nothing valid to draw")
    devices = values(rows, "device").split(", ")
    if len(devices) > 1:
        raise Fail(f"{path}: rows from {len(devices)} devices ({'; '.join(devices)}): a chart compares runs on one device")
    return rows


def size_of(r):
    """M for a square run (M = N = K), else 0."""
    return int(r["m"]) if r["m"] == r["n"] == r["k"] and r["m"].isdigit() else 0


def step_no(name):
    m = re.search(r"\d+", name)
    return int(m.group()) if m else 99


def stages_of(r):
    s = r.get("stages", "")
    return int(s) if s.isdigit() and int(s) > 0 else 0


def sizes_in(rows):
    return sorted({size_of(r) for r in rows} - {0})


def steps_in(rows):
    return sorted({r["step"] for r in rows if size_of(r)}, key=lambda s: (step_no(s), s))


def find(rows, **want):
    """The last row whose fields match want (size= and stages= compare numbers)."""
    get = {"size": size_of, "stages": stages_of}
    hits = [r for r in rows if all((get[k](r) if k in get else r[k]) == v for k, v in want.items())]
    return hits[-1] if hits else None


def values(rows, col):
    seen = list(dict.fromkeys(r[col] for r in rows if r[col]))
    return ", ".join(seen) if seen else "unknown"


def dates(rows):
    days = sorted(r["date_utc"][:10] for r in rows if r["date_utc"][:10])
    return "date unknown" if not days else days[0] if days[0] == days[-1] else f"{days[0]} to {days[-1]}"


def identity(rows):
    """The run in words: "NVIDIA H200 (CUDA 13.0) on 2026-11-22, commit 2296bb9ebb"."""
    return f"{values(rows, 'device')} (CUDA {values(rows, 'cuda_runtime')}) on {dates(rows)}, commit {values(rows, 'commit')}"


def cublas_median(rows, size):
    """cuBLAS's median GFLOPS over every row at this size that timed it (a FAIL run does too)."""
    v = [positive(r["cublas_gflops"]) for r in rows if size_of(r) == size and positive(r["cublas_gflops"])]
    return statistics.median(v) if v else 0


def ratio_text(r):
    r = float(r)
    return f"{r:.2g}×" if r < 0.1 else f"{r:.2f}×"


def g0(v):
    return f"{float(v):.0f}"


# --- the tables ----------------------------------------------------------------------------

def results_table(rows, source):
    sizes = sizes_in(rows)
    out = ["| step |" + "".join(f" {s} GFLOPS | vs cuBLAS |" for s in sizes) + " verdict |",
           "|:-----|" + "-----:|-----:|" * len(sizes) + ":-----|"]
    for step in steps_in(rows):
        line, bad = f"| {step} |", []
        for s in sizes:
            r = find(rows, step=step, size=s)
            if not r:
                line += " – | – |"
            elif r["ok"]:
                line += f" {g0(r['gflops'])} | {ratio_text(r['ratio'])} |"
            else:
                line += f" {r['verdict']} | – |"
                bad.append(f"{r['verdict']} at {s}")
        out.append(line + f" {'; '.join(bad) or 'PASS'} |")
    out.append("| cuBLAS (median) |" + "".join(f" {g0(v)} | 1× |" if v else " – | – |"
                                               for v in (cublas_median(rows, s) for s in sizes)) + " reference |")
    return out + ["", f"Measured on {identity(rows)}: M = N = K, FP32, GFLOPS = 2·M·N·K / median time; \"vs cuBLAS\" is "
                  f"cuBLAS's time over the step's, both timed in the same run. Written by `make table` from {source}."]


def step_table(rows, source, step_dir):
    mine = [r for r in rows if step_no(r["step"]) == step_no(step_dir)]
    if not mine:
        return None
    ms = lambda t: f"{t:.3f}" if t < 1 else f"{t:.2f}" if t < 100 else f"{t:.1f}"
    out = ["| M = N = K | time, ms (median) | GFLOPS | cuBLAS GFLOPS | ratio to cuBLAS | verdict |",
           "|-----:|-----:|-----:|-----:|-----:|:-----|"]
    for s in STEP_SIZES:
        r = find(mine, size=s)
        cublas = g0(r["cublas_gflops"]) if r and positive(r["cublas_gflops"]) else "–"
        if not r:
            out.append(f"| {s} | – | – | – | – | not run |")
        elif r["ok"]:
            out.append(f"| {s} | {ms(float(r['median_ms']))} | {g0(r['gflops'])} | {cublas} | {ratio_text(r['ratio'])} | {r['verdict']} |")
        else:
            out.append(f"| {s} | – | – | {cublas} | – | {r['verdict']} |")
    return out + ["", f"{mine[0]['step']}, M = N = K, FP32: measured on {identity(mine)}; GFLOPS = 2·M·N·K / median time, "
                  f"and cuBLAS timed in the same run. Written by `make table` from {source}."]


def sweep_rows(rows):
    """The one step of a sweep CSV and its stage counts."""
    if "stages" not in rows[0]:
        raise Fail("no stages column: a sweep CSV is rows of ./stepN --stages S --csv")
    steps = steps_in(rows)
    if len(steps) != 1:
        raise Fail(f"a sweep is one step's rows, this CSV holds {len(steps)} steps")
    stages = sorted({stages_of(r) for r in rows if size_of(r)} - {0})
    if not stages:
        raise Fail("no row has a stage count (the stages column is empty or 0)")
    return steps[0], stages


def best(rows):
    """The valid row with the most GFLOPS (the first of equals), or None."""
    return max((r for r in rows if r and r["ok"]), key=lambda r: float(r["gflops"]), default=None)


def sweep_table(rows, source):
    step, stages = sweep_rows(rows)
    out = ["| M = N = K |" + "".join(f" S = {s} |" for s in stages) + " cuBLAS GFLOPS | best S |",
           "|-----:|" + "-----:|" * len(stages) + "-----:|:-----:|"]
    for size in sizes_in(rows):
        at = [find(rows, size=size, stages=s) for s in stages]
        top, line = best(at), f"| {size} |"
        for r in at:
            cell = f"{g0(r['gflops'])}" if r and r["ok"] else None
            line += " – |" if not r else f" {r['verdict']} |" if not cell else \
                f" **{cell}** ({ratio_text(r['ratio'])}) |" if r is top else f" {cell} ({ratio_text(r['ratio'])}) |"
        v = cublas_median(rows, size)
        out.append(line + (f" {g0(v)} |" if v else " – |") + f" {top['stages'] if top else '–'} |")
    return out + ["", f"{step} at each pipeline depth S (`--stages S`; S = 1 overlaps nothing): GFLOPS, and in brackets the "
                  f"ratio to cuBLAS timed in the same run; the best S per size in bold. Measured on {identity(rows)}: "
                  f"M = N = K, FP32. Written by `make sweep` (`make table` copies it here) from {source}."]


def tune_table(rows, source):
    if "config" not in rows[0] or "stages" not in rows[0]:
        raise Fail("needs the columns config and stages (the CSV `make tune` writes)")
    sizes = sizes_in(rows)
    configs = list(dict.fromkeys(r["config"] for r in rows if size_of(r)))
    cell = {(c, s): [r for r in rows if r["config"] == c and size_of(r) == s] for c in configs for s in sizes}
    top = {s: best(best(cell[c, s]) for c in configs) for s in sizes}
    out = ["| configuration |" + "".join(f" {s} |" for s in sizes), "|:-----|" + "-----:|" * len(sizes)]
    for c in configs:
        line = f"| {c} |"
        for s in sizes:
            r = best(cell[c, s])
            bad = [x["verdict"] for x in cell[c, s] if not x["ok"]]
            g = g0(r["gflops"]) if r else ""
            line += f" {f'**{g}**' if r is top[s] else g} (S={r['stages']}, {ratio_text(r['ratio'])}) |" if r else \
                f" {bad[0] if bad else '–'} |"
        out.append(line)
    out.append("| cuBLAS (median) |" + "".join(f" {g0(v)} |" if v else " – |" for v in (cublas_median(rows, s) for s in sizes)))
    out.append("| **best** |" + "".join(f" {top[s]['config']}, S={top[s]['stages']} |" if top[s] else " – |" for s in sizes))
    st = sorted({stages_of(r) for r in rows if size_of(r)} - {0})
    span = "–" if not st else str(st[0]) if len(st) == 1 else f"{st[0]}..{st[-1]}" if st[-1] - st[0] == len(st) - 1 \
        else ", ".join(map(str, st))
    m = re.fullmatch(r"bk(\d+)_(\w+?)_w(\w+?)_t(\w+)", configs[0])
    words = f"BK {m[1]}, block {m[2]}, warp {m[3]}, thread {m[4]}" if m else configs[0]
    unchecked = "UNCHECKED" in values(rows, "verdict")
    return out + ["", f"Each cell: the configuration's best GFLOPS over S = {span} pipeline stages, that S, and its ratio to "
                  f"cuBLAS timed in the same run; bold: the best configuration at that size. A name reads BK, then the "
                  f"block, warp and thread tiles: {configs[0]} is {words}. Measured on {identity(rows)}: M = N = K, FP32. "
                  + ("These runs skip the result check (`--no-check`): this table is about speed only; correctness is "
                     "the test suite's job (`make test`). " if unchecked else "") + f"Written by `make tune` from {source}."]


def markers(path, name):
    """The line numbers of NAME's begin and end markers; None when it has neither; Fail when they are broken."""
    with open(path) as f:
        lines = [l.strip(" \t\r\n") for l in f]
    b, e = ([i for i, l in enumerate(lines) if l == m.format(name)] for m in MARKERS)
    if not b and not e:
        return None
    if len(b) != 1 or len(e) != 1:
        raise Fail(f"{path} has {len(b)} '{MARKERS[0].format(name)}' and {len(e)} '{MARKERS[1].format(name)}' lines; it needs exactly one of each")
    if b[0] > e[0]:
        raise Fail(f"{path} has {MARKERS[1].format(name)} (line {e[0] + 1}) before {MARKERS[0].format(name)} (line {b[0] + 1})")
    return b[0], e[0]


def fill(path, name, table, source):
    """Puts table between the file's NAME markers; nothing else in the file changes (its mode neither)."""
    b, e = markers(path, name)
    with open(path) as f:
        lines = f.read().split("\n")
    note = f"<!-- Written by `make table` from {source}: rerun it rather than editing these lines. -->"
    write_whole(path, "\n".join(lines[:b + 1] + [note, ""] + table + [""] + lines[e:]), like=path)


def write_whole(path, text, like=None):
    """Writes path through a temporary file beside it, so that it is never half written."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path) or ".", prefix=".tmp.")
    with os.fdopen(fd, "w", newline="") as f:
        f.write(text)
    if like:
        shutil.copymode(like, tmp)
    os.replace(tmp, path)


def cmd_table(a):
    if not os.path.isfile(a.readme):
        raise Fail(f"{a.readme} does not exist; the table goes in it, between the lines {MARKERS[0].format('results-table')} and {MARKERS[1].format('results-table')}")
    if markers(a.readme, "results-table") is None:
        raise Fail(f"{a.readme} has no results-table markers: put the lines {MARKERS[0].format('results-table')} and "
                   f"{MARKERS[1].format('results-table')} (each on a line of its own) where the table goes")
    rows = read_results(a.csv)
    table = results_table(rows, a.csv)
    fill(a.readme, "results-table", table, a.csv)
    print(f"table: wrote the results table ({len(table) - 4} rows, from {a.csv}) into {a.readme}")
    status = 0
    kinds = [("step-results", a.csv, "step's results table", ("PASS",), step_table),
             ("sweep-results", a.sweep_csv, "stage sweep table", ("PASS",), sweep_table),
             ("tune-results", a.tune_csv, "tile-shape table", ("PASS", "UNCHECKED"), tune_table)]
    for readme in a.step_readmes:
        if not os.path.isfile(readme):
            print(f"table: note: {readme} does not exist, skipped")
            continue
        step_dir, found = os.path.basename(os.path.dirname(readme)), False
        for name, source, label, valid, make in kinds:
            try:
                if markers(readme, name) is None:
                    continue
                found = True
                if not os.path.exists(source):
                    print(f"table: note: {source} is not there: the {label} in {readme} is left as it was")
                    continue
                args = (read_results(source, valid), source) + ((step_dir,) if make is step_table else ())
                table = make(*args)
                if table is None:
                    print(f"table: note: {source} has no row of {step_dir}: the {label} in {readme} is left as it was")
                    continue
                fill(readme, name, table, source)
                print(f"table: wrote the {label} (from {source}) into {readme}")
            except Fail as e:
                print(f"table: {e}", file=sys.stderr)
                status = 2
        if not found:
            print(f"table: note: {readme} has no table markers (step-results, sweep-results, tune-results), skipped")
    return status


# --- running the steps into a CSV ----------------------------------------------------------

def describe(binary):
    """What ./stepN --describe says, as a dict ({} when it cannot say)."""
    try:
        p = subprocess.run([binary, "--describe"], capture_output=True, text=True, timeout=60)
    except OSError:
        return {}
    return dict(w.split("=", 1) for w in p.stdout.split() if "=" in w) if p.returncode == 0 else {}


def max_stages(binary, what):
    n = describe(binary).get("max_stages", "0")
    if not n.isdigit() or int(n) < 1:
        raise Fail(f"{binary} --describe gives no max_stages of 1 or more: it has no pipeline stages to {what}")
    return int(n)


def run_steps(out, runs, sizes, reps, extra="", label=None, valid=("PASS",), timeout=900):
    """Runs every RUN ("[LABEL] BINARY [OPTION...]") at every size; writes OUT whole, or keeps it."""
    plan = []
    for run in runs:
        words = run.split()
        lab = words.pop(0) if label and words else ""
        if label and (not lab or "," in lab):
            raise Fail(f"'{run}' has no label, or one with a comma (each run is \"LABEL BINARY [OPTION...]\")")
        if not words or not (os.path.isfile(words[0]) and os.access(words[0], os.X_OK)):
            raise Fail(f"'{words[0] if words else run}' is not an executable step (make builds them)")
        plan.append((lab, words[0], words[1:]))
    sizes, total, header, rows, names = sizes.split(), len(sizes.split()) * len(plan), None, [], {}
    for i, (size, (lab, binary, opts)) in enumerate(((s, p) for s in sizes for p in plan), 1):
        name = os.path.basename(binary)
        print(f"[{i}/{total}] {lab + ': ' if lab else ''}{' '.join([name] + opts)} {size} ... ", end="", flush=True)
        cmd = [binary, size, size, size, "--reps", str(reps)] + opts + extra.split() + ["--csv-header"]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout or None)
            rc, lines, err = p.returncode, p.stdout.splitlines(), p.stderr
        except subprocess.TimeoutExpired as e:
            rc, lines, err = None, [], (e.stderr or b"").decode(errors="replace")
        at = next((j for j, l in enumerate(lines) if l.startswith("step,")), None)
        row = lines[at + 1] if at is not None and at + 1 < len(lines) else None
        header = header or (row and lines[at])
        problem = None
        if row and lines[at] != header:
            problem, err = "ERROR stale build", err + f"its CSV columns differ from the other steps' (rebuild with make):\n  {lines[at]}\n"
        elif rc is None:
            problem = f"TIMEOUT {timeout} s"
        elif rc < 0:
            problem = f"CRASH signal {-rc}"
        elif rc not in (0, 1) or not row:
            problem = f"ERROR exit {rc}" + ("" if row else ", no CSV row" if rc in (0, 1) else "")
        if problem:
            if binary not in names:
                names[binary] = describe(binary).get("name", name)
            st = re.findall(r"--stages[ =](\d+)", " ".join(opts + extra.split()))
            rows.append((lab, dict(step=names[binary], m=size, n=size, k=size, stages=st[-1] if st else "", verdict=problem,
                                   date_utc=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))))
            print(problem)
        else:
            r = dict(zip(header.split(","), next(csv.reader([row]))))
            rows.append((lab, r))
            g, ratio = positive(r.get("gflops", "")), positive(r.get("ratio", ""))
            speed = f"{g / 1000:.1f} TFLOPS" if g >= 1000 else f"{g:.0f} GFLOPS"
            print(f"{speed} ({f'{ratio:.2g}' if ratio < 0.1 else f'{ratio:.2f}'} of cuBLAS) {r['verdict']}" if g else r["verdict"])
        if (problem or rc) and err.strip():
            print("\n".join("      " + l for l in err.rstrip("\n").split("\n")[-20:]))
    if not header:
        print(f"run: no run printed a CSV row (is there a GPU? see the errors above); {out} left as it was", file=sys.stderr)
        return 1
    cols = ([label] if label else []) + header.split(",")
    known = next(r for _, r in rows if "device" in r)
    for _, r in rows:   # a run that printed no row: the device, CUDA and commit of those that did
        for c in ("device", "sm_count", "cuda_runtime", "cuda_driver", "commit"):
            r.setdefault(c, known.get(c, ""))
    counts = {}
    for _, r in rows:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    summary = f"{len(rows)} rows: " + ", ".join(f"{n} {v}" for v, n in counts.items())
    failed = [f"{lab + ': ' if lab else ''}{r['step']} {r['m']}{' S=' + r['stages'] if stages_of(r) else ''} ({r['verdict']})"
              for lab, r in rows if r["verdict"] not in valid]
    if len(failed) == len(rows):
        print(f"run: no run gave a valid result ({' '.join(valid)}) ({summary}); {out} left as it was", file=sys.stderr)
        return 1
    lines = [",".join(cols)]
    for lab, r in rows:
        r[label] = lab
        lines.append(",".join(r.get(c, "") for c in cols))
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    write_whole(out, "\n".join(lines) + "\n")
    print(f"run: wrote {out}, {summary}")
    if failed:
        print(f"run: not drawn (no valid result): {', '.join(failed)}")
    return 0


def cmd_run(a):
    return run_steps(a.out, a.runs, a.sizes, a.reps, a.extra, timeout=a.timeout)


def hint_gnuplot(what, csv_path, target):
    print(f"{what}: gnuplot is not installed here: {csv_path} is written, the chart is not.\n"
          f"{what}: to draw it, take {csv_path} (commit it, or copy it) to a machine with gnuplot\n"
          f"{what}: (make deps installs it) and run there, with no GPU needed:\n{what}:     {target}")


def cmd_sweep(a):
    top = max_stages(a.step, "sweep")
    print(f"sweep: {os.path.basename(a.step)} at S = 1..{top}, sizes {a.sizes}, {a.reps} reps")
    rc = run_steps(a.csv, [f"{a.step} --stages {s}" for s in range(1, top + 1)], a.sizes, a.reps, a.extra, timeout=a.timeout)
    if rc:
        return rc
    print("\n" + "\n".join(sweep_table(read_results(a.csv), a.csv)) + "\n")
    if not shutil.which(a.gnuplot):
        return hint_gnuplot("sweep", a.csv, "make sweep-chart" + ("" if a.csv == "plots/sweep.csv" else f" SWEEP_CSV={a.csv}"))
    return render(a.csv, a.out, ["sweep"], a.gnuplot)


def config_name(config):
    v = config.split()
    if len(v) != 7 or not all(re.fullmatch(r"[1-9]\d*", x) for x in v):
        raise Fail(f"configuration '{config}' is not 7 positive whole numbers \"BK BM BN WM WN TM TN\"")
    return "bk{}_{}x{}_w{}x{}_t{}x{}".format(*v)


def cmd_tune(a):
    if a.what == "table":
        print("\n".join(tune_table(read_results(a.args[0], ("PASS", "UNCHECKED"), "`make tune` on a GPU machine writes "
                                                "plots/tune.csv (or pass TUNE_CSV=path)"), a.args[0])))
        return 0
    if a.what == "names":
        print("\n".join(config_name(c) for c in a.args) if a.args else "", end="\n" if a.args else "")
        return 0 if a.args else Fail("no configurations (TUNE_CONFIGS is empty)")
    out, bindir, names = a.args[0], a.args[1], [config_name(c) for c in a.args[2:]]
    for n in names:
        if not os.access(f"{bindir}/{n}/step6", os.X_OK):
            raise Fail(f"{bindir}/{n}/step6 is not built (make tune-build builds it)")
    top = max_stages(f"{bindir}/{names[0]}/step6", "tune")
    print(f"tune: {len(names)} configurations x S = 1..{top} x sizes {a.sizes}, {a.reps} reps, --no-check "
          "(speed only: correctness is make test's job)")
    runs = [f"{n} {bindir}/{n}/step6 --stages {s}" for n in names for s in range(1, top + 1)]
    rc = run_steps(out, runs, a.sizes, a.reps, "--no-check " + a.extra, "config", ("PASS", "UNCHECKED"), a.timeout)
    if rc == 0:
        print("\n" + "\n".join(tune_table(read_results(out, ("PASS", "UNCHECKED")), out)))
    return rc


# --- chart data for gnuplot ----------------------------------------------------------------

def gp(v):
    """A gnuplot literal."""
    return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"' if isinstance(v, str) else repr(v)


def tflops(r):
    return f"{float(r['gflops']) / 1000:.4f}" if r and r["ok"] else "NaN"


def blocks(series):
    """gnuplot's data blocks (read with `index i`): a title line, then tab-separated lines."""
    return "\n\n\n".join(title + "\n" + "".join("\t".join(map(str, p)) + "\n" for p in pts) for title, pts in series)


def first_word_failures(rows, where):
    return ", ".join(f"{r['verdict'].split()[0]} at {where(r)}" for r in rows if r and not r["ok"])


def chart_progression(rows, size):
    passing = sorted({size_of(r) for r in rows if r["ok"]} - {0})
    if not passing:
        raise Fail("no PASS row has M = N = K: the progression chart needs square runs")
    if size not in passing:
        print(f"chart: note: no run passed at {size}; the progression chart shows {passing[-1]} instead", file=sys.stderr)
        size = passing[-1]
    steps, cublas = steps_in(rows), cublas_median(rows, size) / 1000
    at = [find(rows, step=s, size=size) for s in steps]
    data = "".join(f"{x}\t{tflops(r)}\t{r['ratio'] if r and r['ok'] else 'NaN'}\t{step_no(s) % 9 + 1}\t"
                   f"{r['verdict'] if r else 'not run'}\n" for x, (s, r) in enumerate(zip(steps, at)))
    top = max([cublas] + [float(r["gflops"]) / 1000 for r in at if r and r["ok"]])
    tics = ", ".join(f"{gp(s.replace('_', chr(10), 1))} {x}" for x, s in enumerate(steps))
    return data, dict(size=size, nsteps=len(steps), cublas=cublas, ymax=top * 1.3), f"set xtics ({tics})"


def chart_sizes(rows, _):
    sizes, series, lts, lost = sizes_in(rows), [], [], []
    for step in steps_in(rows):
        at = [find(rows, step=step, size=s) for s in sizes]
        if not any(r and r["ok"] for r in at):
            lost.append(step)
            continue
        bad = first_word_failures(at, lambda r: r["m"])
        series.append((step + (f" ({bad})" if bad else ""),
                       [(s, tflops(r), r["ratio"] if r and r["ok"] else "NaN") for s, r in zip(sizes, at) if r]))
        lts.append(str(step_no(step) % 9 + 1))
    cublas = [(s, f"{cublas_median(rows, s) / 1000:.4f}", 1) for s in sizes if cublas_median(rows, s)]
    ratios = [float(r["ratio"]) for r in rows if r["ok"]]
    tf = [float(r["gflops"]) / 1000 for r in rows if r["ok"]] + [float(c[1]) for c in cublas]
    return blocks(series + [("cuBLAS", cublas)]), dict(
        nsteps=len(series), linetypes=" ".join(lts), xmin=sizes[0], xmax=sizes[-1], ymin=min(tf), ymax=max(tf),
        rmax=max(ratios + [1.0]), note="no run passed: " + ", ".join(lost) if lost else ""), f"set xtics (" + ", ".join(map(str, sizes)) + ")"


def chart_sweep(rows, _):
    step, stages = sweep_rows(rows)
    series, lost, tf = [], [], []
    for size in sizes_in(rows):
        at = [find(rows, size=size, stages=s) for s in stages]
        if not any(r and r["ok"] for r in at):
            lost.append(str(size))
            continue
        bad = first_word_failures(at, lambda r: f"S={r['stages']}")
        cublas = cublas_median(rows, size) / 1000
        series.append((f"{size}" + (f" ({bad})" if bad else ""),
                       [(s, tflops(r), r["ratio"] if r and r["ok"] else "NaN", f"{cublas:.4f}") for s, r in zip(stages, at) if r]))
        tf += [float(r["gflops"]) / 1000 for r in at if r and r["ok"]] + [cublas]
    ratios = [float(r["ratio"]) for r in rows if r["ok"]]
    return blocks(series), dict(
        step=step, nsizes=len(series), smin=stages[0], smax=stages[-1], ymin=min(tf), ymax=max(tf),
        rmin=min(ratios + [1.0]), rmax=max(ratios + [1.0]),
        note="no run passed at size " + ", ".join(lost) if lost else ""), "set xtics (" + ", ".join(map(str, stages)) + ")"


CHARTS = {"progression": chart_progression, "sizes": chart_sizes, "sweep": chart_sweep}


def render(csv_path, outdir, charts, gnuplot="gnuplot", size=4096, keep=None, hint=None):
    """Each chart as OUTDIR/NAME.png and .svg, drawn by plots/NAME.gp; nothing is written unless all render."""
    rows = read_results(csv_path, hint=hint) if hint else read_results(csv_path)
    if not shutil.which(gnuplot):
        raise Fail(f"gnuplot is not installed (`make deps` installs it); {csv_path} is ready, run `make chart` once it is there")
    plotdir = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "plots")
    os.makedirs(outdir, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=outdir, prefix=".chart.") as tmp:
        for name in charts:
            data, var, extra = CHARTS[name](rows, size)
            with open(f"{tmp}/{name}.dat", "w") as f:
                f.write(data)
            var.update(device=values(rows, "device"), cuda=values(rows, "cuda_runtime"), commits=values(rows, "commit"),
                       dates=dates(rows), plotdir=plotdir, data=f"{tmp}/{name}.dat")
            for fmt in ("png", "svg"):
                var.update(fmt=fmt, outfile=f"{tmp}/{name}.{fmt}")
                with open(f"{tmp}/{name}.vars.gp", "w") as f:
                    f.write("".join(f"{k} = {gp(v)}\n" for k, v in var.items()) + extra + "\n")
                p = subprocess.run([gnuplot, f"{tmp}/{name}.vars.gp", f"{plotdir}/{name}.gp"], capture_output=True, text=True)
                # gnuplot warns and goes on when data is missing: a warning is a broken picture.
                if p.returncode or "warning:" in p.stderr:
                    print(f"chart: gnuplot {'warned' if p.returncode == 0 else 'failed'} on {name}.{fmt}:\n{p.stderr}", file=sys.stderr)
                    return 1
                with open(f"{tmp}/{name}.{fmt}", "rb") as f:
                    head = f.read(4096)
                if not (head.startswith(b"\x89PNG\r\n\x1a\n") if fmt == "png" else b"<svg" in head):
                    print(f"chart: gnuplot wrote no valid {fmt} for {name}", file=sys.stderr)
                    return 1
        if keep:
            os.makedirs(keep, exist_ok=True)
            for name in charts:
                shutil.copy(f"{tmp}/{name}.dat", keep)
        written = [f"{outdir}/{n}.{fmt}" for n in charts for fmt in ("png", "svg")]
        for path in written:
            os.replace(f"{tmp}/{os.path.basename(path)}", path)
    print(f"chart: wrote {' '.join(written)} (from {csv_path})")
    return 0


def cmd_chart(a):
    return render(a.csv, a.out, a.charts, a.gnuplot, a.size, a.keep_data, a.hint)


# --- reading a step: SASS, profile, diff ---------------------------------------------------

def sass_summary(text):
    """Per kernel of a `cuobjdump --dump-sass` listing: the static counts that matter here."""
    kernels, arch = [], ""
    for line in text.splitlines():
        if m := re.match(r"\s*code for (sm_\w+)", line):
            arch = m[1]
        elif m := re.match(r"\s*Function\s*:\s*(.*?)\s*$", line):
            kernels.append((m[1], arch, []))
        elif kernels and (m := re.match(r"\s*/\*([0-9a-f]{4,})\*/\s*(.*?);", line)):
            words = [w for w in m[2].split() if not w.startswith("@")]
            if words:
                kernels[-1][2].append((int(m[1], 16), words[0], words[-1]))
    if not kernels:
        raise Fail("no kernel (no \"Function :\" line): is it the output of cuobjdump --dump-sass?")
    pct = lambda a, b: f"{100 * a / b:.1f}%" if b else "–"
    out = []
    for n, (fn, arch, code) in enumerate(kernels, 1):
        count = lambda cls: sum(op.split(".")[0] == cls for _, op, _ in code)
        seen = list(dict.fromkeys(op for _, op, _ in code))

        def widths(cls, usual):
            listed = [f"{v} {sum(op == v for _, op, _ in code)}" for v in usual.split()]
            listed += [f"{v} {sum(op == v for _, op, _ in code)}" for v in seen if v.split(".")[0] == cls and v not in usual.split()]
            return ", ".join(listed) or f"{cls} 0"
        spill = "  <- local memory: spills?" if count("LDL") + count("STL") else ""
        out += [f"[{n}] {fn}{f'  ({arch})' if arch else ''}",
                f"    {len(code)} instructions: FFMA {count('FFMA')} ({pct(count('FFMA'), len(code))}), BAR {count('BAR')}, "
                f"LDL {count('LDL')}, STL {count('STL')}{spill}",
                f"    global  {widths('LDG', 'LDG.E LDG.E.64 LDG.E.128')} | {widths('STG', 'STG.E STG.E.64 STG.E.128')} | {widths('LDGSTS', '')}",
                f"    shared  {widths('LDS', 'LDS LDS.64 LDS.128')} | {widths('STS', 'STS STS.64 STS.128')}"]
        # A backward branch closes a loop; the widest such span is the kernel's main loop.
        loops = [(int(t, 16), a) for a, op, t in code if op.split(".")[0] == "BRA" and re.fullmatch(r"0x[0-9a-f]+", t) and int(t, 16) < a]
        if loops:
            lo, hi = max(loops, key=lambda l: l[1] - l[0])
            body = [op for a, op, _ in code if lo <= a <= hi]
            ffma = sum(op.split(".")[0] == "FFMA" for op in body)
            out.append(f"    longest loop 0x{lo:04x}-0x{hi:04x}: {len(body)} instructions, FFMA {ffma} ({pct(ffma, len(body))})")
        else:
            out.append("    no loop (no backward branch)")
    return "\n".join(out) + "\n"


def cmd_sass(a):
    if not shutil.which(a.cuobjdump):
        raise Fail("cuobjdump is not installed here (not on PATH, not in the CUDA toolkit's bin, not in .deps/): `make deps` "
                   "installs it, with nvdisasm, from PyPI (nvidia-cuda-cuobjdump)")
    if a.step == "-":   # a listing on stdin: the summary alone
        sys.stdout.write(sass_summary(sys.stdin.read()))
        return 0
    os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
    with open(a.out, "w") as f:
        if subprocess.run([a.cuobjdump, "--dump-sass", a.step], stdout=f).returncode:
            print(f"sass: cuobjdump --dump-sass {a.step} failed", file=sys.stderr)
            return 1
    with open(a.out) as f:
        summary = sass_summary(f.read())
    if shutil.which("c++filt"):
        summary = subprocess.run(["c++filt"], input=summary, capture_output=True, text=True).stdout
    print(f"sass: {os.path.basename(a.step)}: the SASS of each kernel, counted (static counts: instructions in the code, "
          f"not executed)\n\n{summary}\nsass: the whole listing is in {a.out}")
    return 0


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
           ("launch__registers_per_thread", "regs", "registers per thread"),
           ("launch__occupancy_limit_registers", "blocks (regs)", "blocks per SM the registers allow")]


def read_ncu(path):
    """The first launch in what `ncu --csv` printed (raw page, or the details page): kernel, {metric: (value, unit)}."""
    with open(path) as f:
        rows = list(csv.reader(l for l in f.read().splitlines() if not re.match(r"==[A-Z]+==", l)))
    at = next((i for i, r in enumerate(rows) if r and r[0] == "ID"), None)
    if at is None:
        raise Fail(f"{path}: no metrics of a kernel launch in it (did ncu profile one? see the file)")
    head, body = rows[at], [r for r in rows[at + 1:] if len(r) == len(rows[at])]
    num = lambda v: v.replace(",", "") if re.fullmatch(r"-?\d[\d,]*(\.\d+)?", v) else v
    if "Metric Name" in head:   # details page: a row per metric
        c = {h: i for i, h in enumerate(head)}
        first = [r for r in body if r[0] == body[0][0]]
        return first[0][c["Kernel Name"]], {r[c["Metric Name"]]: (num(r[c["Metric Value"]]), r[c["Metric Unit"]]) for r in first}
    units = body[0] if body and body[0][0] == "" else [""] * len(head)
    launch = next(r for r in body if r[0] != "")
    return launch[head.index("Kernel Name")], {h: (num(v), u) for h, v, u in zip(head, launch, units)}


def reads(value, unit):
    """A value made easy to read: nanoseconds as ms, bytes as MB, percentages with one decimal."""
    try:
        v = float(value)
    except ValueError:
        return value or "–"
    scale = {"nsecond": 1e-6, "ns": 1e-6, "usecond": 1e-3, "us": 1e-3, "msecond": 1, "ms": 1}
    if unit in scale:
        return f"{v * scale[unit]:.3f} ms"
    return f"{v / 1e6:.1f} MB" if unit == "byte" else f"{v:.1f} %" if unit == "%" else f"{v:.0f}" if v == int(v) else f"{v:.2f}"


def cmd_profile(a):
    if a.what != "table" and not shutil.which(a.ncu):
        raise Fail("ncu (Nsight Compute) is not installed here, or not on PATH: it comes with the CUDA toolkit "
                   "($CUDA_HOME/bin/ncu) or as the nsight-compute package; run on the GPU machine, or pass NCU=/path/to/ncu")
    if a.what == "table":
        found = [(re.search(r"step\d+", f)[0] if re.search(r"step\d+", f) else f, read_ncu(f)[1]) for f in a.args]
        print("step  " + "".join(f"  {s:>14}" for _, s, _ in METRICS))
        for step, got in found:
            print(f"{step:<6}" + "".join(f"  {reads(*got.get(m, ('', ''))):>14}" for m, _, _ in METRICS))
        print("\n" + "\n".join(f"  {s:<14} {m}: {w}" for m, s, w in METRICS))
        return 0
    if a.what == "check":
        return 0
    step, size, base = a.args
    if not re.fullmatch(r"[1-9]\d*", size):
        raise Fail(f"SIZE '{size}' is not a positive whole number")
    os.makedirs(os.path.dirname(base) or ".", exist_ok=True)
    name, args = os.path.basename(step), [step, size, "--reps", "1", "--warmup", "0", "--no-check"]
    print(f"profile: {name} at M = N = K = {size}: ncu on the first launch of its sgemm_ kernel (the GPU's counters; this takes a while)", flush=True)
    with open(f"{base}.ncu.csv", "w") as f:
        rc = subprocess.run([a.ncu, "--csv", "--page", "raw", "--print-units", "base", "--metrics", ",".join(m for m, _, _ in METRICS),
                             "-k", "regex:^sgemm_", "-c", "1"] + args, stdout=f, stderr=subprocess.STDOUT).returncode
    if rc:
        with open(f"{base}.ncu.csv") as f:
            said = f.read()
        print(f"profile: ncu exited {rc}; the end of what it said ({base}.ncu.csv):\n" +
              "\n".join("    " + l for l in said.splitlines()[-15:]), file=sys.stderr)
        if "ERR_NVGPUCTRPERM" in said:
            print("profile: the GPU's counters are reserved to root here: run as root, or see https://developer.nvidia.com/ERR_NVGPUCTRPERM", file=sys.stderr)
        return 1
    kernel, got = read_ncu(f"{base}.ncu.csv")
    text = (f"{name}, M = N = K = {size} ({' '.join(args)} under ncu)\nkernel: {kernel} (the first launch)\n\n"
            f"  {'metric':<62} {'value':>16}  what it tells\n" +
            "".join(f"  {m:<62} {reads(*got.get(m, ('', ''))):>16}  {w}\n" for m, _, w in METRICS))
    with open(f"{base}.txt", "w") as f:
        f.write(text)
    print(text + f"profile: wrote {base}.txt (and what ncu printed: {base}.ncu.csv)")
    return 0


def code_only(lines):
    """The lines without their C comments; lines that held only a comment go, blank runs become one."""
    text = re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                  lambda m: m[0] if m[0][0] in "\"'" else "\n" * m[0].count("\n"), "\n".join(lines), flags=re.S)
    out = []
    for before, after in zip(lines, text.split("\n")):
        after = after.rstrip()
        if after or (before.strip() == "" and out and out[-1] != ""):
            out.append(after)
    return out


def cmd_diff(a):
    found = {step_no(os.path.basename(f)): f for f in glob.glob("step[0-9]*_*/step[0-9]*.cu")}
    steps = " ".join(map(str, sorted(found)))
    if not re.fullmatch(r"\d+", a.step):
        raise Fail(f"STEP='{a.step}' is not a step number: make diff STEP=N, N one of: {steps}")
    n = int(a.step)
    if n not in found:
        raise Fail(f"there is no step {n} (no step{n}_*/step{n}.cu); steps: {steps}")
    if n - 1 not in found:
        raise Fail("step 0 is the first step: there is nothing before it to compare with (try STEP=1)" if n == 0 else
                   f"there is no step {n - 1} (no step{n - 1}_*/step{n - 1}.cu) to compare step {n} with")
    old, new = (open(found[i]).read().splitlines() for i in (n - 1, n))
    if a.code:
        old, new = code_only(old), code_only(new)
    label = " (code only: comments left out)" if a.code else ""
    for line in difflib.unified_diff(old, new, found[n - 1] + label, found[n] + label, lineterm=""):
        print(line)
    return 0


# --- the command line ----------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description="The course's tooling: runs, tables, chart data, SASS, profile, diff.")
    sub = ap.add_subparsers(dest="cmd", required=True)

    def runner(p):
        p.add_argument("--sizes", default="256 512 1024 2048 4096 8192")
        p.add_argument("--reps", type=int, default=10)
        p.add_argument("--extra", default="", help="more options for every run (RUN_ARGS)")
        p.add_argument("--timeout", type=int, default=900, help="seconds per run, 0 for none")
    p = sub.add_parser("run", help="every step at every size into OUT.csv")
    p.add_argument("out"), p.add_argument("runs", nargs="+", help='"./stepN [OPTION...]"'), runner(p)
    p = sub.add_parser("table", help="the measured tables into the READMEs, between their markers")
    p.add_argument("csv"), p.add_argument("readme"), p.add_argument("step_readmes", nargs="*")
    p.add_argument("--sweep-csv", default="plots/sweep.csv"), p.add_argument("--tune-csv", default="plots/tune.csv")
    p = sub.add_parser("chart", help="OUTDIR/CHART.png and .svg from a CSV, through plots/CHART.gp")
    p.add_argument("csv"), p.add_argument("out"), p.add_argument("charts", nargs="+", choices=sorted(CHARTS))
    p.add_argument("--size", type=int, default=4096, help="the progression chart's size")
    p.add_argument("--gnuplot", default="gnuplot"), p.add_argument("--keep-data", help="a folder to keep the .dat files in")
    p.add_argument("--hint", help="what writes the CSV, for the error when it is missing")
    p = sub.add_parser("sweep", help="a step at every --stages S its --describe offers, then its table and chart")
    p.add_argument("step"), p.add_argument("csv"), p.add_argument("out"), runner(p), p.add_argument("--gnuplot", default="gnuplot")
    p = sub.add_parser("tune", help="names CONFIG... | run OUT.csv BINDIR CONFIG... | table CSV")
    p.add_argument("what", choices=["names", "run", "table"]), p.add_argument("args", nargs="*"), runner(p)
    p = sub.add_parser("sass", help="dump a step's SASS into OUT and count per kernel (STEP - reads a listing on stdin)")
    p.add_argument("step"), p.add_argument("out", nargs="?"), p.add_argument("--cuobjdump", default="cuobjdump")
    p = sub.add_parser("profile", help="check | run ./stepN SIZE OUTBASE | table OUTBASE.ncu.csv...")
    p.add_argument("what", choices=["check", "run", "table"]), p.add_argument("args", nargs="*"), p.add_argument("--ncu", default="ncu")
    p = sub.add_parser("diff", help="what step N changed in its kernel file")
    p.add_argument("step"), p.add_argument("--code", action="store_true", help="leave comments out of both files")
    a = ap.parse_args()
    sys.stdout.reconfigure(line_buffering=True)   # progress and errors in the order they happen
    nargs = {("tune", "run"): 3, ("tune", "table"): 1, ("profile", "run"): 3}.get((a.cmd, getattr(a, "what", "")), 0)
    if len(getattr(a, "args", [])) < nargs:
        ap.error(f"{a.cmd} {a.what} needs {nargs} arguments")
    try:
        rc = globals()["cmd_" + a.cmd](a)
        if isinstance(rc, Fail):
            raise rc
        return rc or 0
    except Fail as e:
        print(f"{a.cmd}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\n{a.cmd}: interrupted; every CSV is left as it was", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

"""Reading a results CSV (rows of ./stepN --csv) and the FMA peak measured beside it, and naming a run in words.

A CSV is one run. A row is a valid result ("ok") when its verdict is PASS; any other row keeps its verdict and
is never drawn or counted. A row of a program run with its own options (its variant column: `unroll=no`,
`part=warp-tiles`) is named after both: "going_further (part=warp-tiles)".
"""
import calendar, csv, math, os, re, shutil, statistics, subprocess, tempfile, time

from . import Fail
from .describe import describe

NEEDED = "step m n k gflops cublas_gflops ratio verdict device cuda_runtime commit date_utc".split()
PEAK_NEEDED = "device fma_gflops commit date_utc".split()
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # the repository


def positive(text):
    """The number text holds when it is finite and above 0, else 0."""
    v = float(text) if re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", text) else 0.0
    return v if 0 < v < math.inf else 0.0


def data_lines(path):
    """The lines of a CSV, numbered from 1, but blank lines and # comments."""
    with open(path, newline="") as f:
        return [(no, l) for no, l in enumerate(f.read().splitlines(), 1) if l.strip() and not l.lstrip().startswith("#")]


def read_results(path, make="results", var="CSV"):
    """The rows of a CSV of ./stepN --csv rows, as dicts, each with "ok": a valid result."""
    if not os.path.exists(path):
        raise Fail(f"{path}: no such file: `make {make}` on a GPU machine writes it (or pass {var}=path)")
    lines = data_lines(path)
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
        r = dict(zip(header, fields))
        if any("=" not in w for w in r.get("variant", "").split()):   # a row of ./step6 --track, before going_further
            raise Fail(f"{path}: line {no}: variant '{r['variant']}' is not NAME=VALUE words: a row of the old ./step6 "
                       f"--track, which ./further runs now; measure it again (`make {make}`)")
        if r.get("variant"):   # a program run with its own options: a row of its own in every table and chart
            r["step"] = f"{r['step']} ({r['variant']})"
        r["ok"] = r["verdict"] == "PASS"
        # The harness writes GFLOPS to one decimal: a shape of a few thousand FLOPs (make shapes' random ones) runs
        # at "0.0", a rate too small to print, not a failed run; its ratio to cuBLAS is what is drawn.
        bad = [c for c in ("m", "n", "k", "gflops", "cublas_gflops", "ratio") if r["ok"] and not positive(r[c]) and
               not (c.endswith("gflops") and re.fullmatch(r"0+\.?0*", r[c]))]
        if bad:
            raise Fail(f"{path}: line {no}: {bad[0]} is '{r[bad[0]]}', not a positive number, in a {r['verdict']} row")
        rows.append(r)
    if not any(r["ok"] for r in rows):
        raise Fail(f"{path}: no PASS rows ({len(rows)} rows, none a valid result): nothing valid to draw")
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
    """N of a step's name (stepN_idea, stepN.cu, stepN_idea (variant)); 99 for another program (going_further)."""
    m = re.match(r"step(\d+)", name)
    return int(m.group(1)) if m else 99


def in_order(steps):
    """Names in order of their steps (going_further after step 6), a run with options ("name (variant)") first."""
    return sorted(set(steps), key=lambda s: (step_no(s), "(" not in s, s))


def steps_in(rows):
    """The steps of the square runs, in order."""
    return in_order(r["step"] for r in rows if size_of(r))


def sizes_in(rows):
    return sorted({size_of(r) for r in rows} - {0})


def stage_counts(rows):
    return sorted({stages_of(r) for r in rows if size_of(r)} - {0})


def find(rows, **want):
    """The last row whose fields match want (size= and stages= compare numbers), or None."""
    get = {"size": size_of, "stages": stages_of}
    hits = [r for r in rows if all((get[k](r) if k in get else r[k]) == v for k, v in want.items())]
    return hits[-1] if hits else None


def least(rows):
    """The valid row with the least ratio to cuBLAS (the first of equals)."""
    return min((r for r in rows if r["ok"]), key=lambda r: float(r["ratio"]))


def sweep_step(rows):
    """The one step a sweep CSV holds, and its stage counts."""
    steps = steps_in(rows)
    if len(steps) != 1:
        raise Fail(f"a sweep is one step's rows, this CSV holds {len(steps)} steps")
    if not stage_counts(rows):
        raise Fail("no row has a stage count (no stages column, or it is empty or 0): a sweep is rows of ./stepN --stages S")
    return steps[0], stage_counts(rows)


def values(rows, col):
    return ", ".join(dict.fromkeys(r[col] for r in rows if r[col])) or "unknown"


def dates(rows):
    days = sorted(r["date_utc"][:10] for r in rows if r["date_utc"][:10])
    if not days:
        return "date unknown"
    return days[0] if days[0] == days[-1] else f"{days[0]} to {days[-1]}"


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


def mean_ratio_text(rows):
    """The geometric mean of the rows' ratios to cuBLAS (the mean of ratios), as ratio_text."""
    return ratio_text(statistics.geometric_mean(float(r["ratio"]) for r in rows))


def g0(v):
    return f"{float(v):.0f}"


def seconds(date_utc):
    """A date_utc (2026-12-07T07:49:00Z) as seconds since 1970; None if it is not one."""
    if not re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:]{8}Z", date_utc):
        return None
    return calendar.timegm(time.strptime(date_utc, "%Y-%m-%dT%H:%M:%SZ"))


def read_peak(results_path, rows):
    """The FMA peak `make results` measured in the same run as the rows: peak.csv beside the results CSV, as a
    dict (fma_gflops a number); or None and why not. Same run: the same device and commit, measured no later
    than the last row and at most an hour before the first."""
    path = os.path.join(os.path.dirname(results_path), "peak.csv")
    if not os.path.exists(path):
        return None, f"{path} is not there (`make results` measures it first)"
    reader = csv.DictReader(line for _, line in data_lines(path))
    got = list(reader)
    if (len(got) != 1 or any(c not in (reader.fieldnames or []) for c in PEAK_NEEDED)
            or not positive(got[0]["fma_gflops"])):
        return None, f"{path} is not one row of ./fma_peak --csv with a positive fma_gflops"
    peak = dict(got[0], fma_gflops=positive(got[0]["fma_gflops"]))
    when = sorted(r["date_utc"] for r in rows if r["date_utc"])
    first = seconds(when[0]) if when else None
    last = seconds(when[-1]) if when else None
    at = seconds(peak["date_utc"])
    same = (peak["device"] == values(rows, "device") and peak["commit"] == values(rows, "commit")
            and None not in (first, last, at) and first - 3600 <= at <= last)
    if not same:
        return None, (f"{path} is from another run ({peak['device']}, commit {peak['commit']}, {peak['date_utc']}) than "
                      f"{results_path} ({identity(rows)})")
    return peak, None


def provenance(binary=None):
    """What an evidence file records besides its figures: the commit the binary was built from (its --describe
    says), else that of this repository, as the build stamps it into the CSV rows; and the UTC date now."""
    commit = describe(binary).get("commit", "") if binary and os.path.exists(binary) else ""
    if not commit or commit == "unknown":
        try:
            commit = subprocess.run(["git", "describe", "--always", "--dirty", "--abbrev=10"], capture_output=True,
                                    text=True, cwd=ROOT).stdout.strip()
        except OSError:
            commit = ""
    return commit or "unknown", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def write_whole(path, text, like=None):
    """Writes path through a temporary file beside it (keeping the mode of `like`): never half written."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path) or ".", prefix=".tmp.")
    with os.fdopen(fd, "w", newline="") as f:
        f.write(text)
    if like:
        shutil.copymode(like, tmp)
    os.replace(tmp, path)


def write_csv(path, rows):
    """Writes a CSV whole: rows are lists of fields, the header first."""
    write_whole(path, "".join(",".join(row) + "\n" for row in rows))

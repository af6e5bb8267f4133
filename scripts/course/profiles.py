"""Nsight Compute on a step's kernel (make profile, make profile-all, make unroll-profile): the metrics that
explain the steps, read from what ncu prints, under a line naming the GPU, the date and the commit."""
import csv, os, re, subprocess, tempfile
from pathlib import Path

from . import Fail
from .results import provenance, write_whole

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
# The columns of make unroll-profile's table, by their short names: what the unrolled loop changes.
RUNS_COLUMNS = ("time", "instructions", "issue %", "FMA pipe %", "warps/sched.", "wait: fetch", "wait: memory",
                "wait: barrier")


def read_ncu(text, path):
    """The first launch in what `ncu --csv --page raw` printed (text, read from path): {metric: its value, made readable}."""
    rows = list(csv.reader(l for l in text.splitlines() if not re.match(r"==[A-Z]+==", l)))
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
    if unit in ms:
        return f"{v * ms[unit]:.3f} ms"
    if unit == "byte":
        return f"{v / 1e6:.1f} MB"
    if unit == "%":
        return f"{v:.1f} %"
    return f"{v:.0f}" if v == int(v) else f"{v:.2f}"


def gpu_names(texts):
    """The GPUs named in what ncu printed (the step's own `device` line), in order, or unknown."""
    names = [m[1].strip() for t in texts for m in re.finditer(r"^\s*device\s+(.+?), \d+ SMs", t, re.M)]
    return " / ".join(dict.fromkeys(names)) or "unknown"


def measured_on(texts, binary=None):
    commit, date = provenance(binary)
    return f"measured on {gpu_names(texts)}, {date} (UTC), commit {commit}"


def profile(step, size, base, ncu, more=""):
    """ncu on the first launch of the step's kernel at M = N = K = size (more: options for the step): what it
    printed into BASE.ncu.csv, the metrics in words into BASE.txt. Returns the metrics, the words and what it printed."""
    if not re.fullmatch(r"[1-9]\d*", size):
        raise Fail(f"SIZE '{size}' is not a positive whole number")
    os.makedirs(os.path.dirname(base) or ".", exist_ok=True)
    name, args = os.path.basename(step), [step, size, "--reps", "1", "--warmup", "0", "--no-check"] + more.split()
    print(f"profile: {name} at M = N = K = {size}: ncu on the first launch of its sgemm_ kernel (the GPU's counters; this takes a while)")
    # Only the step's own kernel (they are all sgemm_*, cuBLAS's are not), once, without the check's launches.
    command = [ncu, "--csv", "--page", "raw", "--print-units", "base", "--metrics", ",".join(m for m, _, _ in METRICS),
               "-k", "regex:^sgemm_", "-c", "1"]
    with open(f"{base}.ncu.csv", "w") as f:
        rc = subprocess.run(command + args, stdout=f, stderr=subprocess.STDOUT).returncode
    said = Path(f"{base}.ncu.csv").read_text()
    if rc:
        root = ("\nprofile: the GPU's counters are reserved to root here: run as root, or see "
                "https://developer.nvidia.com/ERR_NVGPUCTRPERM") if "ERR_NVGPUCTRPERM" in said else ""
        raise Fail(f"ncu exited {rc}; the end of what it said ({base}.ncu.csv):\n" +
                   "\n".join("    " + l for l in said.splitlines()[-15:]) + root, 1)
    got = read_ncu(said, f"{base}.ncu.csv")
    text = (f"{name}, M = N = K = {size} ({' '.join(args)} under ncu)\n{measured_on([said], step)}\n"
            f"kernel: {got['Kernel Name']} (the first launch)\n\n"
            f"  {'metric':<74} {'value':>16}  what it tells\n" + "".join(f"  {m:<74} {got.get(m, '–'):>16}  {w}\n" for m, _, w in METRICS))
    write_whole(f"{base}.txt", text)
    print(text + f"profile: wrote {base}.txt (and what ncu printed: {base}.ncu.csv)")
    return got, text, said


def cmd_profile(a):
    profile(a.step, a.size, a.base, a.ncu, a.args)


def recorded(paths):
    """The GPU, date and commit that the profiles' own reports (BASE.txt beside each BASE.ncu.csv) name, as one
    line, or None where a report is missing or names none: a table made later, elsewhere, is of those profiles."""
    found = []
    for path in paths:
        report = Path(path[:-len(".ncu.csv")] + ".txt") if path.endswith(".ncu.csv") else None
        line = report and report.exists() and re.search(r"^measured on (.+), (\S+) \(UTC\), commit (\S+)$",
                                                           report.read_text(), re.M)
        if not line:
            return None
        found.append(line)
    gpus, commits = (" / ".join(dict.fromkeys(m[i] for m in found)) for i in (1, 3))
    return f"measured on {gpus}, {min(m[2] for m in found)} (UTC), commit {commits}" if found else None


def cmd_profile_table(a):
    texts = [Path(path).read_text() for path in a.paths]
    print(recorded(a.paths) or measured_on(texts))
    names = [m[0] if (m := re.search(r"step\d+|further", path)) else path for path in a.paths]
    width = max([6] + [len(n) + 1 for n in names])
    print(f"{'step':<{width}}" + "".join(f"  {s:>14}" for _, s, _ in METRICS))
    for path, text, name in zip(a.paths, texts, names):
        got = read_ncu(text, path)
        print(f"{name:<{width}}" + "".join(f"  {got.get(m, '–'):>14}" for m, _, _ in METRICS))
    print("\n" + "\n".join(f"  {s:<14} {m}: {w}" for m, s, w in METRICS))


def cmd_profile_runs(a):
    """Each RUN ("./stepN [OPTION...]") profiled at each size, their reports one after the other in OUT under a table
    of the figures that differ most (make unroll-profile)."""
    done = []   # (the run as it reads, M = N = K, (metrics, words, what ncu printed))
    with tempfile.TemporaryDirectory() as tmp:
        for size in a.sizes.split():
            for i, (step, *opts) in enumerate(run.split() for run in a.runs):
                label = " ".join([os.path.basename(step)] + opts)
                done.append((label, size, profile(step, size, os.path.join(tmp, f"{i}_{size}"), a.ncu, " ".join(opts))))
    metric = {s: m for m, s, _ in METRICS}
    width = max(len(label) for label, _, _ in done)
    head = [f"# Nsight Compute on the first launch of each run's kernel (clocks locked at base by ncu: compare",
            f"# times within this file only). {measured_on([p[2] for *_, p in done], a.runs[-1].split()[0])}", "",
            f"{'run':<{width}}  {'M=N=K':>5}" + "".join(f"  {s:>13}" for s in RUNS_COLUMNS)]
    head += [f"{label:<{width}}  {size:>5}" + "".join(f"  {p[0].get(metric[s], '–'):>13}" for s in RUNS_COLUMNS)
             for label, size, p in done]
    write_whole(a.out, "\n".join(head) + "\n\n" + "\n".join(p[1] for *_, p in done))
    print("\n".join(head[3:]) + f"\nprofile-runs: wrote {a.out}")

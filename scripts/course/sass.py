"""A step's machine code without a GPU: its SASS counted per kernel (make sass), and ptxas's logs read for spills
and local memory (make spills)."""
import collections, os, re, shutil, subprocess
from pathlib import Path

from . import Fail
from .results import provenance


def demangled(text):
    """The text with its C++ kernel names demangled, where c++filt is."""
    return subprocess.run(["c++filt"], input=text, capture_output=True, text=True).stdout if shutil.which("c++filt") else text


def one_bank(loop):
    """The FFMAs of a loop (its instructions' text) that read all three operands from one of the register
    file's two banks (register number mod 2, as measured on Volta and later): three reads from one bank take
    an extra cycle. An operand that the instruction before marked .reuse, in the same place, comes from the
    operand reuse cache instead, and RZ and constants are no reads."""
    count, cache = 0, {}
    for text in loop:
        op, _, args = text.partition(" ")
        regs = [re.fullmatch(r"-?\|?R(\d+)\|?(\.reuse)?", a.strip()) for a in args.split(",")[1:4]]
        reads = [int(m[1]) for place, m in enumerate(regs) if m and cache.get(place) != int(m[1])]
        cache = {place: int(m[1]) for place, m in enumerate(regs) if m and m[2]} if op.startswith("FFMA") else {}
        count += op.startswith("FFMA") and len(reads) == 3 and len({r % 2 for r in reads}) == 1
    return count


def percent(part, whole):
    return f"{100 * part / whole:.1f}%" if whole else "–"


def of_class(ops, cls):
    """How many instructions of a class (FFMA, LDG, ...), whatever their suffixes."""
    return sum(k for op, k in ops.items() if op.split(".")[0] == cls)


def widths(ops, cls, usual):
    """How many instructions of a class at each width: each usual one, even at 0, then any other there is."""
    usual = usual.split()
    counts = [f"{op} {ops[op]}" for op in usual]
    counts += [f"{op} {k}" for op, k in ops.items() if op.split(".")[0] == cls and op not in usual]
    return ", ".join(counts) or f"{cls} 0"


def main_loop(code):
    """A kernel's main loop: the widest span that a backward branch closes, as (first, last) address; None
    where no branch goes back."""
    loops = [(int(target, 16), address) for address, op, target, _ in code
             if op.startswith("BRA") and re.fullmatch(r"0x[0-9a-f]+", target) and int(target, 16) < address]
    return max(loops, key=lambda loop: loop[1] - loop[0], default=None)


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
            if words:
                kernels[-1][2].append((int(m[1], 16), words[0], words[-1], " ".join(words)))
    if not kernels:
        raise Fail("no kernel (no \"Function :\" line): is it the output of cuobjdump --dump-sass?")
    out = []
    for n, (fn, arch, code) in enumerate(kernels, 1):
        ops = collections.Counter(op for _, op, _, _ in code)
        ffma, ldl, stl = (of_class(ops, cls) for cls in ("FFMA", "LDL", "STL"))
        local = "  <- local memory: spills?" if ldl + stl else ""
        out += [f"[{n}] {fn}{f'  ({arch})' if arch else ''}",
                f"    {len(code)} instructions: FFMA {ffma} ({percent(ffma, len(code))}), BAR {of_class(ops, 'BAR')}, "
                f"LDL {ldl}, STL {stl}{local}",
                f"    global  {widths(ops, 'LDG', 'LDG.E LDG.E.64 LDG.E.128')} | "
                f"{widths(ops, 'STG', 'STG.E STG.E.64 STG.E.128')} | {widths(ops, 'LDGSTS', '')}",
                f"    shared  {widths(ops, 'LDS', 'LDS LDS.64 LDS.128')} | {widths(ops, 'STS', 'STS STS.64 STS.128')}"]
        loop = main_loop(code)
        if not loop:
            out.append("    no loop (no backward branch)")
            continue
        lo, hi = loop
        body = [(op.split(".")[0], text) for address, op, _, text in code if lo <= address <= hi]
        ffma = sum(op == "FFMA" for op, _ in body)
        out.append(f"    longest loop 0x{lo:04x}-0x{hi:04x}: {len(body)} instructions, FFMA {ffma} "
                   f"({percent(ffma, len(body))}), {one_bank([text for _, text in body])} "
                   f"of them reading all three operands from one register bank")
    return "\n".join(out) + "\n"


def cmd_sass(a):
    listing = Path(a.listing).read_text()
    summary = demangled(sass_summary(listing))
    arch = ", ".join(dict.fromkeys(re.findall(r"^\s*code for (sm_\w+)", listing, re.M))) or "unknown"
    commit, date = provenance(a.binary)
    print(f"sass: the SASS of each kernel in {a.listing}, counted (static counts: instructions in the code, "
          f"not executed)\nsass: binary {a.binary or 'unknown'}, code for {arch}, {date} (UTC), commit {commit}\n\n{summary}", end="")


def ptxas_kernels(text):
    """Per kernel of a `ptxas -v` log: [name, arch, registers, stack frame, spill stores, spill loads]; its warnings."""
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
    """A row per log (an architecture and a step): its kernels, their registers, their spills, and every kernel
    that spills or uses local memory. Exit 1 if any does, or ptxas warned."""
    print("arch    step   kernels  registers  spill stores (bytes)  kernels with local memory  ptxas warnings")
    bad, count = [], 0
    for path in a.logs:
        try:
            kernels, warnings = ptxas_kernels(Path(path).read_text())
        except OSError as e:
            raise Fail(f"{path}: {e.strerror}")
        if not kernels:
            raise Fail(f"{path}: no kernel in it (is it the output of nvcc -Xptxas -v?)")
        arch, step, count = kernels[0][1], os.path.splitext(os.path.basename(path))[0], count + len(kernels)
        regs = [k[2] for k in kernels if k[2] is not None]
        local = [k for k in kernels if k[3] or k[4] or k[5]]
        bad += [f"{arch} {step}: {k[0]}: {k[3]} bytes stack frame, {k[4]} bytes spill stores, {k[5]} bytes spill loads"
                for k in local] + [f"{arch} {step}: {w}" for w in warnings]
        print(f"{arch:<7} {step:<6} {len(kernels):>7}  {f'{min(regs)}-{max(regs)}' if regs else '?':>9}  "
              f"{sum(k[4] for k in kernels):>20}  {len(local):>25}  {len(warnings):>14}")
    if bad:
        raise Fail("local memory or a ptxas warning:\n  " + "\n  ".join(demangled("\n".join(bad)).splitlines()), code=1)
    print(f"spills: {count} kernels in {len(a.logs)} build{'s' * (len(a.logs) != 1)}, none spills or uses local memory")

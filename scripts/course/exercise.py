"""A step to do, not only to read (make exercise, exercise-check): the lines of a step's idea are marked in its own
source, so the exercise and the step cannot drift.

    // exercise: what these lines do, as a hint
    // exercise mistake: a likely mistake here, and what the check then shows (any number of these lines)
    ...the lines of the idea...
    // exercise end

make exercise STEP=N writes exercises/stepN.cu, the step with each marked region replaced by a TODO and an
#error naming it, so that the file builds only once every TODO is done. make exercise-check builds it and runs it
beside the step."""
import csv, glob, io, os, re, subprocess, sys

from . import Fail
from .lint import code_only, unified_ignoring_indentation
from .results import step_no

OPEN, MISTAKE, CLOSE = re.compile(r"^(\s*)// exercise: (.+)$"), re.compile(r"^\s*// exercise mistake: (.+)$"), \
    re.compile(r"^\s*// exercise end$")
# The check: awkward shapes in one process (odd, prime, N % 4 != 0, K below a k-tile, beta not 0, integer inputs
# where equality is demanded), then the speed beside the step's own kernel.
CHECK_SHAPES = ["129 127 33 --beta 0.5 --inputs integers", "131 257 7 --beta 0.5", "1 1 1", "64 64 64",
                "257 130 1001 --inputs integers", "2047 2050 1001 --beta 0.5", "1024 1024 1024"]
SPEED_SIZES = [1024, 4096]
# What CUDA says when a kernel itself goes wrong (not a missing GPU, nor an allocation that failed).
KERNEL_FAULT = re.compile(r"illegal (memory access|address|instruction)|misaligned address|unspecified launch failure|"
                          r"out of range|cudaErrorLaunchFailure")


def step_source(n):
    found = sorted(glob.glob(f"step{n}_*/step{n}.cu"))
    if not found:
        raise Fail(f"there is no step {n} (no step{n}_*/step{n}.cu)")
    return found[0]


def regions(path):
    """The marked regions of a step's source: (first line, last line, indentation, hint, mistakes), 0-based lines
    of the markers themselves; Fail when a marker is out of place."""
    out, current = [], None
    for no, line in enumerate(open(path).read().split("\n")):
        opened, closed, mistake = OPEN.match(line), CLOSE.match(line), MISTAKE.match(line)
        if opened:
            if current:
                raise Fail(f"{path}:{no + 1}: an exercise region opens inside the one opened at line {current[0] + 1}", 1)
            current = [no, None, opened[1], opened[2], []]
        elif mistake and current:
            current[4].append(mistake[1])
        elif closed:
            if not current:
                raise Fail(f"{path}:{no + 1}: '// exercise end' closes no region", 1)
            current[1] = no
            out.append(tuple(current))
            current = None
    if current:
        raise Fail(f"{path}:{current[0] + 1}: an exercise region is never closed", 1)
    if not out:
        raise Fail(f"{path} marks no exercise region ('// exercise: HINT' ... '// exercise end')", 1)
    return out


def exercise_text(n, path, out_dir):
    """The step's source with its regions taken out, and its includes pointing back at the step's folder."""
    lines, step_dir = open(path).read().split("\n"), os.path.dirname(path)
    marked = regions(path)
    keep, at = [], 0
    for first, last, indent, hint, _ in marked:
        keep += lines[at:first]
        keep += [f"{indent}// TODO(step {n}): {hint}", '#error "TODO(step %d): %s"' % (n, hint.replace('"', "'"))]
        at = last + 1
    keep += lines[at:]
    include = lambda m: f'#include "{os.path.relpath(os.path.join(step_dir, m[1]), out_dir)}"'
    body = "\n".join(re.sub(r'^#include "([^"]+)"', include, line) for line in keep)
    head = (f"/* The exercise of step {n}: {path} with the lines of its idea taken out ({len(marked)} TODO). Write\n"
            f" * each TODO's lines in place of its #error, then: make exercise-check STEP={n}. The step's own\n"
            f" * lines: make exercise-solution STEP={n}. */\n")
    return head + body, marked


def put_back(text, lines, marked):
    """An exercise (written beside its step) with each TODO replaced by the lines it took out, less its header."""
    out, regions_left = [], iter(marked)
    body = text.split("\n")[3:]
    for line in body:
        if line.lstrip().startswith("// TODO(step "):
            first, last, *_ = next(regions_left)
            out += [l for l in lines[first + 1:last] if not (MISTAKE.match(l))]
        elif not line.startswith('#error "TODO(step '):
            out.append(line)
    return out


def cmd_exercise(a):
    path = step_source(a.step)
    os.makedirs(a.out, exist_ok=True)
    target = os.path.join(a.out, f"step{a.step}.cu")
    if os.path.exists(target) and not a.force:
        raise Fail(f"{target} is there already, maybe with your work in it: FORCE=1 writes it again", 2)
    text, marked = exercise_text(a.step, path, a.out)
    open(target, "w").write(text)
    print(f"exercise: wrote {target}, step {a.step} with {len(marked)} region(s) of its idea to write:")
    for _, _, _, hint, _ in marked:
        print(f"  TODO(step {a.step}): {hint}")


def cmd_exercise_markers(a):
    """Every step's regions: well formed, comments alone (the step builds unchanged without them), and each of
    their code lines one that the step's diff adds (the idea, not what an earlier step wrote)."""
    bad, count = [], 0
    for path in sorted(glob.glob("step[0-9]*_*/step[0-9]*.cu")):
        n = step_no(os.path.basename(path))
        if n == 0:
            continue
        try:
            marked = regions(path)
        except Fail as e:
            bad.append(str(e))
            continue
        lines = open(path).read().split("\n")
        stripped = [l for l in lines if not (OPEN.match(l) or MISTAKE.match(l) or CLOSE.match(l))]
        if code_only(stripped) != code_only(lines):
            bad.append(f"{path}: its exercise markers are not comments alone")
        text, _ = exercise_text(n, path, os.path.dirname(path))
        if put_back(text, lines, marked) != stripped:
            bad.append(f"{path}: its exercise with the step's lines put back is not the step")
        before = code_only(open(step_source(n - 1)).read().split("\n"))
        added = {l[1:].strip() for l in unified_ignoring_indentation(before, code_only(lines), "a", "b", 0)
                 if l.startswith("+") and not l.startswith("+++")}
        for first, last, _, hint, _ in marked:
            old = [l.strip() for l in code_only(lines[first + 1:last]) if l.strip() and l.strip() not in added]
            if old:
                bad.append(f"{path}:{first + 1} ({hint}): the region holds lines step {n - 1} has already: {old[0]}")
            count += 1
    if bad:
        raise Fail("\n".join(bad), 1)
    print(f"exercise-markers: {count} regions, each of lines its step adds")


def runs(binary, args):
    """The CSV rows of one process of binary running every problem of args (joined with --then)."""
    words = []
    for i, problem in enumerate(args):
        words += (["--then"] if i else []) + problem.split() + ["--csv-header" if i == 0 else "--csv"]
    p = subprocess.run([binary] + words, capture_output=True, text=True)
    return p.returncode, list(csv.DictReader(io.StringIO(p.stdout))), p.stderr.strip()


def differing(path, source):
    """The regions of the step at path whose code the learner's file does not hold as one run of lines, as the step
    has it (indentation and comments aside): where a mistake would be. All of them where source is not given."""
    marked = regions(path)
    if not source or not os.path.exists(source):
        return marked
    words = lambda lines: [l.strip() for l in code_only(lines) if l.strip()]
    mine, lines = "\n".join(words(open(source).read().split("\n"))) + "\n", open(path).read().split("\n")
    return [r for r in marked if "\n".join(words(lines[r[0] + 1:r[1]])) + "\n" not in mine] or marked


def cmd_exercise_check(a):
    path = step_source(a.step)
    suspects = differing(path, a.source)
    mistakes = [m for *_, ms in suspects for m in ms]
    differs = f" (your lines differ from the step's at: {'; '.join(r[3] for r in suspects)})" \
        if a.source and len(suspects) < len(regions(path)) else ""
    rc, rows, err = runs(a.binary, CHECK_SHAPES)
    last = (err.splitlines() or ["no message"])[-1]
    if rc == 3 and KERNEL_FAULT.search(last):   # the learner's kernel stopped: a mistake like the others
        print(f"exercise-check: step {a.step}: FAIL (the kernel stopped: {last})")
        print("\n".join([f"What this usually means at this step{differs}:"] + [f"  - {m}" for m in mistakes] +
                        [f"compute-sanitizer --tool memcheck {a.binary} 129 127 33 names the access and its line."]))
        raise Fail("the kernel made an access the GPU refused", 3)
    if rc not in (0, 1):   # not a wrong result: no GPU, a CUDA failure elsewhere, a crash
        raise Fail(f"{a.binary} could not run the check (exit {rc}): {last}", rc if rc in (2, 3) else 3)
    wrong = [r for r in rows if r.get("verdict") != "PASS"]
    if rc != 0 or wrong or len(rows) != len(CHECK_SHAPES):
        where = ", ".join(f"{r['m']}x{r['n']}x{r['k']} {r['verdict']}" for r in wrong) or (err.splitlines() or ["no row"])[-1]
        print(f"exercise-check: step {a.step}: FAIL ({where})")
        print("\n".join([f"What this usually means at this step{differs}:"] + [f"  - {m}" for m in mistakes]))
        raise Fail(f"the check failed at {len(wrong) or 'some'} of {len(CHECK_SHAPES)} shapes", 1 if wrong else max(rc, 1))
    sizes = [str(s) for s in SPEED_SIZES]
    (rc1, mine, err1), (rc2, theirs, err2) = runs(a.binary, sizes), runs(a.step_binary, sizes)
    if rc1 or rc2 or len(mine) != len(sizes) or len(theirs) != len(sizes):
        raise Fail(f"the timed runs failed: {err1 or err2}", 3)
    ratios = [float(m["gflops"]) / float(t["gflops"]) for m, t in zip(mine, theirs)]
    print(f"exercise-check: step {a.step}: PASS at {len(CHECK_SHAPES)} shapes; speed against step {a.step}'s own "
          f"kernel, same GPU: " + ", ".join(f"{r:.2f} at {s}" for r, s in zip(ratios, sizes)))
    if min(ratios) < 0.9:
        print("\n".join([f"Right, but slower than the step: what that usually means here{differs}:"] +
                        [f"  - {m}" for m in mistakes]))


def mistake_source(n, path, out_dir, swaps):
    """The exercise of step n, written into out_dir with the step's own lines in its TODOs, then each (old, new)
    of swaps made: a learner's file with one typical mistake in it."""
    text, marked = exercise_text(n, path, out_dir)
    src = "\n".join(text.split("\n")[:3] + put_back(text, open(path).read().split("\n"), marked))
    for old, new in swaps:
        if old not in src:
            raise Fail(f"step {n} has no line '{old}' to change: the table of mistakes is out of date", 1)
        src = src.replace(old, new, 1)
    return src


# What exercise-check must say of a mistake, by the table's word: its exit code and words of its output.
CAUGHT = {"FAIL": (1, "FAIL ("), "STOPS": (3, "the kernel stopped"), "SLOW": (0, "slower than the step")}


def cmd_exercise_mistakes(a):
    """Each of step N's typical mistakes in the table (tab-separated: step, what, what the check says: FAIL, STOPS
    or SLOW, then the lines changed, old and new in turn), made in the exercise with the step's lines written,
    built with --build and checked: exercise-check must catch every one."""
    if not a.write_only and not a.build:
        raise Fail("exercise-mistakes needs --build (how to build a mistake), or --write-only", 2)
    lines = [l for l in open(a.table).read().splitlines() if l.strip() and not l.startswith("#")]
    rows = list(csv.reader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))
    mine = [r for r in rows if r[0] == str(a.step)]
    if not mine:
        raise Fail(f"{a.table} holds no mistake of step {a.step}", 2)
    path, step_dir = step_source(a.step), os.path.dirname(step_source(a.step))
    objs = " ".join(os.path.join(a.objs, c[:-2] + ".o") for c in sorted(glob.glob(f"{step_dir}/**/*.c", recursive=True)))
    builds = []
    for i, (_, what, expect, *swaps) in enumerate(mine, 1):
        if expect not in CAUGHT or len(swaps) % 2:
            raise Fail(f"{a.table}: step {a.step}, '{what}': expected FAIL, STOPS or SLOW and pairs of lines", 2)
        swaps = [w.replace("\\n", "\n") for w in swaps]   # a line break in a field is written \n
        out = os.path.join(a.out, f"step{a.step}_mistake{i}")
        os.makedirs(out, exist_ok=True)
        src = os.path.join(out, f"step{a.step}.cu")
        open(src, "w").write(mistake_source(a.step, path, out, list(zip(swaps[::2], swaps[1::2]))))
        if a.write_only:
            continue
        cmd = a.build.format(src=src, objs=objs, out=os.path.join(out, f"step{a.step}"))
        builds.append((i, what, expect, src, subprocess.Popen(cmd, shell=True, stdout=subprocess.PIPE,
                                                              stderr=subprocess.STDOUT, text=True)))
    if a.write_only:
        print(f"exercise-mistakes: step {a.step}: {len(mine)} mistakes written into {a.out}, each a change to its lines")
        return
    missed = []
    for i, what, expect, src, build in builds:   # built side by side; checked one after another
        log = build.communicate()[0]
        if build.returncode:
            raise Fail(f"mistake {i} of step {a.step} ({what}) did not build:\n{log[-2000:]}", 1)
        p = subprocess.run([sys.executable, os.path.dirname(os.path.abspath(__file__)), "exercise-check", str(a.step),
                            src[:-3], a.step_binary, "--source", src], capture_output=True, text=True)
        rc, words = CAUGHT[expect]
        caught = p.returncode == rc and words in p.stdout + p.stderr
        print(f"exercise-mistakes: step {a.step}, mistake {i} ({what}): " +
              (f"caught ({expect})" if caught else f"NOT caught as {expect} (exit {p.returncode})"))
        print("\n".join("    " + l for l in (p.stdout + p.stderr).strip().splitlines()))
        if not caught:
            missed.append(what)
    if missed:
        raise Fail(f"step {a.step}: {len(missed)} of {len(mine)} mistakes not caught: {'; '.join(missed)}", 1)
    print(f"exercise-mistakes: step {a.step}: all {len(mine)} mistakes caught")

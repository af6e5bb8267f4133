"""What the lessons show, checked against the code and the measurements, and a step's change shown: every quoted
block is in the step's sources (quotes), every evidence file cited and well named (evidence), every registered number
in the prose what its file gives (numbers), a step's diff (make diff)."""
import csv, difflib, glob, os, re

from . import Fail
from .results import find, read_results, step_no


# The comments that mark the lines of a step's idea for its exercise (make exercise, exercise.py).
EXERCISE_MARK = re.compile(r"^\s*// exercise(: .+| mistake: .+| end)$")


def without_exercise_marks(text):
    return "\n".join(line for line in text.split("\n") if not EXERCISE_MARK.match(line))


def cmd_quotes(a):
    """Every ```cuda block of each lesson appears, line for line, in its step's sources (stepN.cu and the
    headers beside it, without the comments that mark its exercise), and every ```c block in the plain C beside
    them (*.c, *.h: a plan): a lesson quotes code, it never paraphrases it."""
    bad = []
    for readme in a.readmes:
        folder = os.path.dirname(readme) or "."
        text = open(readme).read()
        for lang, patterns in (("cuda", ("*.cu", "*.cuh")), ("c", ("*.c", "*.h"))):
            files = sorted(f for pattern in patterns for f in glob.glob(f"{folder}/{pattern}"))
            sources = "".join(without_exercise_marks(open(f).read()) + "\n" for f in files)
            for no, block in enumerate(re.findall(rf"```{lang}\n(.*?)```", text, re.S), 1):
                if block not in sources:
                    first = block.split("\n")[0].strip()
                    names = ", ".join(f"{folder}/{p}" for p in patterns)
                    bad.append(f"{readme}: {lang} code block {no} ({first[:60]}) is not in {names} as quoted")
    if bad:
        raise Fail("\n".join(bad), 1)
    print(f"quotes: every code block of {len(a.readmes)} lessons is in its step's sources")


# A file name that carries an issue or run number, or a commit hash (7 or more hex digits, a letter among them).
BAD_EVIDENCE_NAME = re.compile(r"issue[_-]?\d|run[_-]?\d|(?<![0-9a-z])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?![0-9a-z])", re.I)
MAX_EVIDENCE = 12


def cmd_evidence(a):
    """Each lesson's evidence folder (beside its README.md, or beside its chapters: the lessons of one folder share
    it) holds at most MAX_EVIDENCE files for each lesson that shares it, each cited by one of those lessons as
    evidence/NAME, listed in the folder's README.md and named for what it shows; every evidence/NAME a lesson cites
    is there."""
    bad, checked, folders = [], 0, {}
    for readme in a.readmes:
        if os.path.basename(os.path.dirname(os.path.abspath(readme))) == "evidence":
            continue   # an evidence folder's own index, not a lesson
        folder = os.path.join(os.path.dirname(readme) or ".", "evidence")
        # evidence/NAME is this lesson's own, and so is FOLDER/evidence/NAME for its own folder; another folder's
        # (../step6_unroll/evidence/NAME) is that lesson's to hold
        own = os.path.basename(os.path.dirname(os.path.abspath(readme)))
        cited = {name for folder, name in re.findall(r"(?:([\w.-]+)/)?evidence/([A-Za-z0-9_.-]*[A-Za-z0-9_-])",
                                                     open(readme).read()) if folder in ("", own)}
        files = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
        bad += [f"{readme} cites evidence/{name}, which {folder} does not hold" for name in sorted(cited - set(files))]
        if len(cited) > MAX_EVIDENCE:
            bad.append(f"{readme}: cites {len(cited)} evidence files, more than {MAX_EVIDENCE}")
        lessons, all_cited, _ = folders.setdefault(folder, ([], set(), files))
        lessons.append(readme)
        all_cited |= cited
    for folder, (lessons, cited, files) in folders.items():
        checked += len(files)
        most = MAX_EVIDENCE * len(lessons)
        if len(files) > most:
            bad.append(f"{folder}: {len(files)} files, more than {most}" +
                       (f" ({MAX_EVIDENCE} for each of its {len(lessons)} lessons)" if len(lessons) > 1 else ""))
        index = os.path.join(folder, "README.md")
        listed = open(index).read() if os.path.isfile(index) else ""
        for name in files:
            if os.path.isdir(os.path.join(folder, name)):
                bad.append(f"{folder}/{name}: a folder; evidence is files")
            elif name != "README.md" and name not in cited:
                bad.append(f"{folder}/{name}: not cited by {', '.join(lessons)}")
            elif name != "README.md" and listed and name not in listed:
                bad.append(f"{folder}/{name}: not listed in {index} (what it shows, its GPU, commit and date)")
            if BAD_EVIDENCE_NAME.search(name):
                bad.append(f"{folder}/{name}: named by an issue, a run or a commit, not by what it shows")
        if files and "README.md" not in files:
            bad.append(f"{folder}: no README.md giving each file's GPU, commit and date")
    if bad:
        raise Fail("\n".join(bad), 1)
    print(f"evidence: {len(a.readmes)} lessons, {checked} files, each cited and named for what it shows")


def code_only(lines):
    """The lines without their C comments: lines that held only a comment go, blank runs become one."""
    def blank(m):   # a string stays as it is; a comment leaves only its line breaks
        return m[0] if m[0][0] in "\"'" else "\n" * m[0].count("\n")

    text = re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', blank, "\n".join(lines), flags=re.S)
    out = []
    for before, after in zip(lines, (l.rstrip() for l in text.split("\n"))):
        if after or (not before.strip() and out and out[-1]):
            out.append(after)
    return out


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


def found(text, pattern, source):
    """The number that pattern's first group matches in text (commas as thousands separators allowed)."""
    m = re.search(pattern, text, re.M)
    if not m:
        raise Fail(f"{source}: nothing matches {pattern}", 1)
    return float(m[1].replace(",", ""))


def measured(source, root):
    """What a registry row's `value` may use to reach into its source: a run's field of a results CSV, or a field of
    the peak measured beside it. step is a name as the tables give it ("going_further (part=core)"); size is M = N
    = K, or "MxNxK" for another shape; stages picks one run of a CSV that has several (sweep.csv, ablation.csv);
    commit(step, size) is the commit a run names, for a caption that cites its run; runs is every row (a dict of
    strings), for a count over many runs. A
    source that is not a CSV (plots/sass-summary.txt, a profile, an evidence log) gives text(PATTERN): the number
    its regular expression's first group matches."""
    path = os.path.join(root, source)
    if not source.endswith(".csv"):   # a text file (a SASS summary, a profile, a log): a figure found in it
        return {"text": lambda pattern: found(open(path).read(), pattern, source)}
    if os.path.basename(source) == "peak.csv":
        return {"peak": lambda field: float(next(csv.DictReader(open(path)))[field])}
    rows = read_results(path)

    def field(name, kind=float):
        def get(step, size, stages=None):
            shape = dict(zip("mnk", str(size).split("x"))) if isinstance(size, str) else {"size": size}
            r = find(rows, step=step, **shape, **({"stages": stages} if stages is not None else {}))
            if not r:
                raise Fail(f"{source} has no run of {step} at {size}" + (f", {stages} stages" if stages else ""), 1)
            return kind(r[name])
        return get
    names = {name: field(column, kind) for name, column, kind in
             (("gflops", "gflops", float), ("ms", "median_ms", float), ("ratio", "ratio", float),
              ("cublas", "cublas_gflops", float), ("clock", "sm_clock_mhz", float), ("commit", "commit", str))}
    return {"runs": rows, **names}


def cmd_numbers(a):
    """Each number the registry lists in a lesson's prose is still there, in its words, and still what its source
    file gives: `words` must appear in `lesson`, and `value` (an expression over the source's runs), written with
    `format`, must be `number`."""
    bad, checked = [], 0
    for line, row in enumerate(csv.DictReader(open(a.registry)), 2):
        where = f"{row['lesson']} (registry line {line})"
        missing = [f for f in (row["lesson"], row["source"]) if not os.path.exists(os.path.join(a.root, f))]
        if missing:
            bad.append(f"{where}: {missing[0]} is not there")
        elif row["number"] not in row["words"]:
            bad.append(f"{where}: the words \"{row['words']}\" do not hold the number {row['number']}")
        elif row["words"] not in open(os.path.join(a.root, row["lesson"])).read():
            bad.append(f"{where}: the lesson no longer says \"{row['words']}\"")
        else:
            names = dict(measured(row["source"], a.root), __builtins__={"min": min, "max": max, "sum": sum, "len": len, "float": float})
            try:
                got = row["format"].format(eval(row["value"], names))
            except (ArithmeticError, LookupError, NameError, SyntaxError, TypeError, ValueError) as e:
                got = f"no number: {type(e).__name__}: {e}"
            if got != row["number"]:
                bad.append(f"{where}: \"{row['words']}\" says {row['number']}, but {row['source']} gives {got} "
                           f"({row['value']})")
        checked += 1
    if bad:
        raise Fail("\n".join(bad), 1)
    print(f"numbers: {checked} numbers in the lessons' prose, each what its file gives")

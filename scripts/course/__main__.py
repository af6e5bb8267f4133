"""The course's tooling: `python3 scripts/course COMMAND ...`; the make targets run it (plots/plots.mk,
scripts/tools.mk), and `python3 scripts/course -h` lists the commands."""
import argparse, os, sys

if not __package__:   # run as a folder (python3 scripts/course): import the package from the folder above
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from course import charts, exercise, lint, main, profiles, runs, sass, tables

# Every command: the function that does it (given the parsed arguments), its positional arguments in order
# (NAME+: one or more, NAME*: any number; its options are in parser() below), and what it does.
COMMANDS = {
    "run": (runs.cmd_run, "out runs+", "every run at every size into OUT.csv (make results, ablation, track-ablation)"),
    "shapes": (runs.cmd_shapes, "csv runs+", "each RUN at every shape of make shapes into CSV"),
    "sweep": (runs.cmd_sweep, "step csv out", "a step at every --stages S it describes, then its table and chart"),
    "table": (tables.cmd_table, "csv readme step_readmes*", "the measured tables into the READMEs, between their markers"),
    "ablation-table": (tables.cmd_ablation_table, "csv", "the table of a CSV of make ablation"),
    "shapes-summary": (tables.cmd_shapes_summary, "csv", "each step's ratio to cuBLAS over each family of make shapes' CSV"),
    "chart": (charts.cmd_chart, "csv out", "OUT/CHART.png and .svg from a CSV, drawn by plots/CHART.gp"),
    "sass": (sass.cmd_sass, "listing", "count per kernel in a listing of cuobjdump --dump-sass"),
    "spills": (sass.cmd_spills, "logs+", "a table of ptxas -v logs; exit 1 if a kernel spills or uses local memory"),
    "profile": (profiles.cmd_profile, "step size base", "ncu on a step's kernel: BASE.txt and BASE.ncu.csv"),
    "profile-table": (profiles.cmd_profile_table, "paths+", "a table (step x metric) of profiles"),
    "profile-runs": (profiles.cmd_profile_runs, "out runs+", "each RUN profiled at each size: a table and reports into OUT"),
    "quotes": (lint.cmd_quotes, "readmes+", "every ```cuda block of the lessons is in its step's sources"),
    "evidence": (lint.cmd_evidence, "readmes+", "each lesson's evidence folder: every file cited, well named, at most 12"),
    "numbers": (lint.cmd_numbers, "registry", "each number a lesson's prose takes from a measured file is what the file gives"),
    "diff": (lint.cmd_diff, "", "what step N changed in its kernel file"),
    "exercise": (exercise.cmd_exercise, "", "step N's exercise: its source with the regions of its idea taken out"),
    "exercise-markers": (exercise.cmd_exercise_markers, "", "every step's exercise regions: well formed, and lines it adds"),
    "exercise-check": (exercise.cmd_exercise_check, "", "a learner's step N at awkward shapes, then its speed"),
    "exercise-mistakes": (exercise.cmd_exercise_mistakes, "", "step N's typical mistakes (a table), each made, built "
                                                              "and caught by exercise-check"),
}


def parser():
    ap = argparse.ArgumentParser(prog="course", description="The course's tooling: runs, tables, charts, SASS, "
                                                            "profiles, lesson checks, diff.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    runs = argparse.ArgumentParser(add_help=False)   # the options of the commands that run steps
    runs.add_argument("--sizes", default="256 512 1024 2048 4096 8192")
    runs.add_argument("--reps", type=int, default=10)
    runs.add_argument("--extra", default="", help="more options for every run (RUN_ARGS)")
    runs.add_argument("--timeout", type=int, default=900, help="seconds a run may take, 0 for no limit")
    cmd = {}
    for name, (function, positionals, text) in COMMANDS.items():
        cmd[name] = sub.add_parser(name, help=text, parents=[runs] if name in ("run", "shapes", "sweep") else [])
        for word in positionals.split():
            cmd[name].add_argument(word.rstrip("+*"), nargs=word[-1] if word[-1] in "+*" else None)
    cmd["shapes"].add_argument("--only", help="families, comma-separated (square,skinny,deep K,layer,small K,"
                                              "matrix-vector,tall and thin,tiny C,primes,random)")
    cmd["shapes"].add_argument("--seed", type=int, default=1, help="the random family's seed (make shapes SHAPES_SEED=)")
    cmd["sweep"].add_argument("--gnuplot", default="gnuplot")
    for kind in ("sweep", "ablation"):
        cmd["table"].add_argument(f"--{kind}-csv", default=f"plots/{kind}.csv")
    chart = cmd["chart"]
    chart.add_argument("charts", nargs="+", choices=sorted(charts.CHARTS))
    chart.add_argument("--size", type=int, default=4096, help="the progression chart's size")
    chart.add_argument("--gnuplot", default="gnuplot")
    chart.add_argument("--keep-data", help="a folder to keep the .dat files in")
    chart.add_argument("--optional", metavar="WHAT", help="without gnuplot, say how to draw the charts elsewhere, and exit 0")
    cmd["sass"].add_argument("--binary", help="the binary the listing is of, for the header")
    cmd["profile"].add_argument("--args", default="", help="more options for the step (ARGS): --stages 3 --unroll no")
    cmd["profile-runs"].add_argument("--sizes", default="1024 4096")
    for name in ("profile", "profile-runs"):
        cmd[name].add_argument("--ncu", default="ncu")
    cmd["numbers"].add_argument("--root", default=".", help="the folder the registry's lesson and source paths are in")
    for name in ("diff", "exercise", "exercise-check", "exercise-mistakes"):
        cmd[name].add_argument("step", type=int)
    cmd["exercise-mistakes"].add_argument("table", help="the mistakes: tests/data/exercise_mistakes.tsv")
    cmd["exercise-mistakes"].add_argument("step_binary", help="the step's own, built")
    cmd["exercise-mistakes"].add_argument("--write-only", action="store_true",
                                          help="write each mistake's source and stop: the table checked, no GPU")
    cmd["exercise-mistakes"].add_argument("--build", default="",
                                          help="the command that builds {src} with {objs} (the step's C objects) into {out}")
    cmd["exercise-mistakes"].add_argument("--objs", default="build", help="where the step's C objects are")
    cmd["exercise-mistakes"].add_argument("--out", default="build/mistakes")
    cmd["exercise-check"].add_argument("binary", help="the learner's step, built")
    cmd["exercise-check"].add_argument("step_binary", help="the step's own, built")
    cmd["exercise-check"].add_argument("--source", help="the learner's file: the mistakes named are those of the "
                                                        "regions whose lines differ from the step's")
    cmd["exercise"].add_argument("--out", default="exercises")
    cmd["exercise"].add_argument("--force", action="store_true", help="write over an exercise there already")
    cmd["diff"].add_argument("--code", action="store_true", help="leave the comments of both files out")
    return ap


if __name__ == "__main__":
    sys.exit(main({name: function for name, (function, _, _) in COMMANDS.items()}, parser()))

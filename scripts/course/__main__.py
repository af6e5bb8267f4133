"""The course's tooling: `python3 scripts/course COMMAND ...`; the make targets run it (plots/plots.mk,
scripts/tools.mk) and `python3 scripts/course -h` lists the commands. Bad input gets one line on stderr,
"COMMAND: what is wrong", and exit code 2."""
import argparse, os, sys

if not __package__:   # run as a folder (python3 scripts/course): import the package from the folder above
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from course import charts, lint, main, profiles, runs, sass, tables

# Every command and the function that does it, given the parsed arguments.
COMMANDS = {
    "run": runs.cmd_run,
    "shapes": runs.cmd_shapes,
    "sweep": runs.cmd_sweep,
    "ablation": runs.cmd_ablation,
    "table": tables.cmd_table,
    "ablation-table": tables.cmd_ablation_table,
    "shapes-summary": tables.cmd_shapes_summary,
    "chart": charts.cmd_chart,
    "sass": sass.cmd_sass,
    "spills": sass.cmd_spills,
    "profile": profiles.cmd_profile,
    "profile-table": profiles.cmd_profile_table,
    "profile-runs": profiles.cmd_profile_runs,
    "quotes": lint.cmd_quotes,
    "evidence": lint.cmd_evidence,
    "diff": lint.cmd_diff,
}


def parser():
    ap = argparse.ArgumentParser(prog="course", description="The course's tooling: runs, tables, charts, SASS, profiles, "
                                                            "lesson checks, diff.")
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
    p = sub.add_parser("sweep", parents=[runs], help="a step at every --stages S it describes, then its table and chart")
    p.add_argument("step"), p.add_argument("csv"), p.add_argument("out"), p.add_argument("--gnuplot", default="gnuplot")
    p = sub.add_parser("ablation", parents=[runs], help="step 5 against step 6's core (--track: the track part by part) into CSV, then the table")
    p.add_argument("csv"), p.add_argument("runs", nargs="+", help='"./stepN [OPTION...]"')
    p.add_argument("--track", action="store_true", help="the runs are step 6's track, part by part")
    p = sub.add_parser("table", help="the measured tables into the READMEs, between their markers")
    p.add_argument("csv"), p.add_argument("readme"), p.add_argument("step_readmes", nargs="*")
    p.add_argument("--sweep-csv", default="plots/sweep.csv")
    p.add_argument("--ablation-csv", default="plots/ablation.csv")
    p.add_argument("--track-csv", default="plots/track.csv")
    p.add_argument("--track-shapes-csv", default="plots/track_shapes.csv")
    p = sub.add_parser("ablation-table", help="the table of an ablation CSV")
    p.add_argument("csv"), p.add_argument("--track", action="store_true", help="a CSV of make track-ablation")
    sub.add_parser("shapes-summary", help="each step's ratio to cuBLAS over each family of a CSV of make shapes").add_argument("csv")
    p = sub.add_parser("chart", help="OUT/CHART.png and .svg from a CSV, drawn by plots/CHART.gp")
    p.add_argument("csv"), p.add_argument("out"), p.add_argument("charts", nargs="+", choices=sorted(charts.CHARTS))
    p.add_argument("--size", type=int, default=4096, help="the progression chart's size")
    p.add_argument("--gnuplot", default="gnuplot"), p.add_argument("--keep-data", help="a folder to keep the .dat files in")
    p.add_argument("--optional", metavar="WHAT", help="without gnuplot, say how to draw the charts elsewhere, and exit 0")
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
    return ap


if __name__ == "__main__":
    sys.exit(main(COMMANDS, parser()))

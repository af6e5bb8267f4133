#!/bin/sh
# sweep.sh - the stage experiment: one pipelined step (./step5) at every pipeline depth
# S = 1..max, every size, on the GPU. `make sweep` runs it; by hand:
#
#   SWEEP_SIZES="1024 4096" REPS=10 plots/sweep.sh ./step5 plots/sweep.csv plots
#
# max is read from the step's own --help (its line "--stages S ... 1..N (default D)"),
# so the sweep follows the source. The runs are plots/run.sh's ("./step5 --stages S" for
# each S; one progress line per run, FAIL and ERROR rows kept and never drawn); then the
# table (plots/sweep_table.awk) is printed, and the chart OUTDIR/sweep.{png,svg} is drawn
# when gnuplot is here (plots/sweep.awk and sweep.gp, through plots/chart.sh).
#
# Environment: SWEEP_SIZES (default "1024 2048 4096 8192"), REPS (default 10), GNUPLOT,
# RUN_TIMEOUT and RUN_ARGS (as plots/run.sh).
set -u

me=sweep
if [ $# -ne 3 ]; then
    echo "usage: [SWEEP_SIZES=\"1024 4096\"] [REPS=10] $0 ./stepN OUT.csv OUTDIR" >&2
    exit 2
fi
step=$1 csv=$2 outdir=$3
plotdir=$(cd "$(dirname "$0")" && pwd)
gnuplot=${GNUPLOT:-gnuplot}

[ -x "$step" ] || { echo "$me: $step is not an executable step (make builds it)" >&2; exit 2; }
max=$("$step" --help 2>/dev/null | sed -n 's/^ *--stages S .* 1\.\.\([0-9][0-9]*\) .*/\1/p' | head -n 1)
if [ -z "$max" ] || [ "$max" -lt 1 ]; then
    echo "$me: $step --help has no line '--stages S ... 1..N': it has no pipeline stages to sweep" >&2
    exit 2
fi

echo "$me: $(basename "$step") at S = 1..$max, sizes ${SWEEP_SIZES:-1024 2048 4096 8192}, ${REPS:-10} reps"
# One run per stage count: "./step5 --stages 1" ... "./step5 --stages max".
set --
s=1
while [ "$s" -le "$max" ]; do
    set -- "$@" "$step --stages $s"
    s=$((s + 1))
done
SIZES=${SWEEP_SIZES:-1024 2048 4096 8192} sh "$plotdir/run.sh" "$csv" "$@" || exit $?

echo
awk -v what="$me" -v csv_name="$csv" -f "$plotdir/csv.awk" -f "$plotdir/sweep_table.awk" "$csv" || exit 2
echo

if command -v "$gnuplot" >/dev/null 2>&1; then
    sh "$plotdir/chart.sh" "$csv" "$outdir" sweep
else
    echo "$me: gnuplot is not installed here: $csv is written, the chart is not."
    echo "$me: to draw it, take $csv (commit it, or copy it) to a machine with gnuplot"
    echo "$me: (make deps installs it) and run there, with no GPU needed:"
    echo "$me:     make sweep-chart$( [ "$csv" = plots/sweep.csv ] || echo " SWEEP_CSV=$csv")"
    echo "$me:     make table$( [ "$csv" = plots/sweep.csv ] || echo " SWEEP_CSV=$csv")     # the table into step 5's README"
fi

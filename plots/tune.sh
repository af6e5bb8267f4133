#!/bin/sh
# tune.sh - the tile-shape sweep of step 6: one binary per tile configuration, each run at
# every size and pipeline depth. `make tune` builds the binaries and runs it:
#
#   plots/tune.sh names CONFIG...                 the configurations' names, one a line
#   plots/tune.sh run OUT.csv BINDIR CONFIG...    run BINDIR/NAME/step6 for each, write OUT.csv,
#                                                 print the table
#   plots/tune.sh table CSV                       print the table of a CSV it wrote
#
# A CONFIG is "BK BM BN WM WN TM TN" (one argument): BK the k-tile depth, BM x BN the block
# tile, WM x WN the warp tile, TM x TN the thread tile. Its name, bk8_128x128_w32x64_t8x8,
# is the directory its binary is built in (make passes -DTUNE_BK=8 -DTUNE_BM=128 ... to
# step6.cu) and the value of the CSV's leading column `config`.
#
# Each run is `step6 S S S --stages S' --reps TUNE_REPS --no-check` through plots/run.sh
# (one progress line per run; failures become rows that are never counted as results),
# for S' = 1..max, max read from the binary's --help. --no-check: this sweep measures
# speed; whether every configuration computes the right answer is the test suite's job.
#
# Environment: TUNE_SIZES (default "1024 2048 4096 8192"), TUNE_REPS (default 5),
# RUN_TIMEOUT (as plots/run.sh).
set -u

me=tune
plotdir=$(cd "$(dirname "$0")" && pwd)

usage() {
    echo "usage: $0 names CONFIG... | run OUT.csv BINDIR CONFIG... | table CSV   (CONFIG: \"BK BM BN WM WN TM TN\")" >&2
    exit 2
}

# The name of the configuration "$*", or an error.
config_name() {
    if [ $# -ne 7 ]; then
        echo "$me: configuration '$*' is not 7 numbers \"BK BM BN WM WN TM TN\"" >&2
        return 2
    fi
    for v in "$@"; do
        case $v in
        '' | *[!0-9]* | 0*) echo "$me: configuration '$*': '$v' is not a positive whole number" >&2; return 2 ;;
        esac
    done
    echo "bk$1_$2x$3_w$4x$5_t$6x$7"
}

names() {
    [ $# -gt 0 ] || { echo "$me: no configurations (TUNE_CONFIGS is empty)" >&2; return 2; }
    for config in "$@"; do
        # shellcheck disable=SC2086 # a configuration is 7 words
        config_name $config || return 2
    done
}

table() {
    awk -v what="$me" -v csv_name="$1" -v valid=PASS,UNCHECKED \
        -f "$plotdir/csv.awk" -f "$plotdir/tune_table.awk" "$1"
}

[ $# -ge 1 ] || usage
cmd=$1
shift
set -f
case $cmd in
names)
    names "$@"
    ;;
table)
    [ $# -eq 1 ] || usage
    if [ ! -e "$1" ]; then
        echo "$me: $1: no such file: \`make tune\` on a GPU machine writes plots/tune.csv (or pass TUNE_CSV=path)" >&2
        exit 2
    fi
    table "$1"
    ;;
run)
    [ $# -ge 3 ] || usage
    csv=$1 bindir=$2
    shift 2
    list=$(names "$@") || exit 2
    max=""
    runs=""
    for name in $list; do
        bin=$bindir/$name/step6
        [ -x "$bin" ] || { echo "$me: $bin is not built (make tune-build builds it)" >&2; exit 2; }
        m=$("$bin" --help 2>/dev/null | sed -n 's/^ *--stages S .* 1\.\.\([0-9][0-9]*\) .*/\1/p' | head -n 1)
        [ -n "$m" ] || { echo "$me: $bin --help has no line '--stages S ... 1..N'" >&2; exit 2; }
        max=$m
    done
    sizes=${TUNE_SIZES:-1024 2048 4096 8192}
    reps=${TUNE_REPS:-5}
    n=$(printf '%s\n' $list | awk 'END { print NR }')
    echo "$me: $n configurations x S = 1..$max x sizes $sizes, $reps reps, --no-check (speed only: correctness is make test's job)"
    set --
    for name in $list; do
        s=1
        while [ "$s" -le "$max" ]; do
            set -- "$@" "$name $bindir/$name/step6 --stages $s"
            s=$((s + 1))
        done
    done
    SIZES=$sizes REPS=$reps RUN_ARGS="--no-check ${RUN_ARGS:-}" RUN_LABEL=config RUN_VALID="PASS UNCHECKED" \
        sh "$plotdir/run.sh" "$csv" "$@" || exit $?
    echo
    table "$csv"
    ;;
*)
    usage
    ;;
esac

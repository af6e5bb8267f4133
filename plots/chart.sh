#!/bin/sh
# chart.sh - renders charts from a results CSV, with no GPU. `make chart` runs it.
#
#   plots/chart.sh CSV OUTDIR CHART...    e.g. plots/chart.sh plots/results.csv plots progression sizes
#
# For each CHART, plots/CHART.awk turns the CSV (validated first by plots/csv.awk) into
# OUTDIR/CHART.dat and the chart's gnuplot variables; plots/CHART.gp draws it, loading the
# shared plots/style.gp; it is rendered twice, OUTDIR/CHART.png (pngcairo) and
# OUTDIR/CHART.svg. A new chart is one .awk and one .gp file (plus its name in PLOT_CHARTS
# in plots/plots.mk, or its own make target when it reads another CSV).
#
# Everything is rendered into a temporary directory and moved into OUTDIR only once every
# picture has rendered and looks like a PNG or an SVG: bad input gets one clear error and
# leaves no file behind.
#
# Environment: GNUPLOT (default gnuplot); PROGRESSION_SIZE (default 4096), the size the
# progression chart shows; CHART_DATA, a directory to keep the prepared data files in;
# CHART_SOURCE, what writes the CSV, and CHART_TARGET, what renders it (for the errors).
set -u

me=chart
if [ $# -lt 3 ]; then
    echo "usage: $0 CSV OUTDIR CHART..." >&2
    exit 2
fi
csv=$1 outdir=$2
shift 2
plotdir=$(cd "$(dirname "$0")" && pwd)
gnuplot=${GNUPLOT:-gnuplot}
source_hint=${CHART_SOURCE:-\`make results\` on a GPU machine writes plots/results.csv (or pass CSV=path)}
target=${CHART_TARGET:-make chart}

if [ ! -e "$csv" ]; then
    echo "$me: $csv: no such file: $source_hint" >&2
    exit 2
fi
if [ ! -f "$csv" ] || [ ! -r "$csv" ]; then
    echo "$me: $csv: not a readable file" >&2
    exit 2
fi
if [ ! -s "$csv" ]; then
    echo "$me: $csv: empty: expected a header line and one row per run (./stepN M N K --csv)" >&2
    exit 2
fi
if ! command -v "$gnuplot" >/dev/null 2>&1; then
    echo "$me: gnuplot is not installed (\`make deps\` installs it); $csv is ready, run \`$target\` once it is there" >&2
    exit 2
fi
for chart in "$@"; do
    if [ ! -f "$plotdir/$chart.awk" ] || [ ! -f "$plotdir/$chart.gp" ]; then
        echo "$me: no chart named $chart (expected $plotdir/$chart.awk and $plotdir/$chart.gp)" >&2
        exit 2
    fi
done

# Validate the CSV, and name the run (device, dates, CUDA, commit) for every title, before
# anything is written.
meta=$(awk -v what="$me" -v csv_name="$csv" -f "$plotdir/csv.awk" -f "$plotdir/meta.awk" "$csv") || exit 2

mkdir -p "$outdir" || exit 1
tmp=$(mktemp -d "$outdir/.chart.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# A gnuplot string literal of $1.
gp_string() {
    printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"
}

printf '%s\nplotdir = %s\n' "$meta" "$(gp_string "$plotdir")" > "$tmp/run.gp"

for chart in "$@"; do
    awk -v what="$me" -v csv_name="$csv" -v out="$tmp" -v size="${PROGRESSION_SIZE:-4096}" \
        -f "$plotdir/csv.awk" -f "$plotdir/$chart.awk" "$csv" > "$tmp/$chart.vars.gp" || exit 2
    for fmt in png svg; do
        {
            echo "fmt = \"$fmt\""
            echo "outfile = $(gp_string "$tmp/$chart.$fmt")"
            echo "data = $(gp_string "$tmp/$chart.dat")"
        } > "$tmp/$chart.$fmt.gp"
        if ! "$gnuplot" "$tmp/run.gp" "$tmp/$chart.vars.gp" "$tmp/$chart.$fmt.gp" "$plotdir/$chart.gp" 2> "$tmp/gnuplot.err"; then
            echo "$me: gnuplot failed on $chart.$fmt:" >&2
            sed 's/^/    /' "$tmp/gnuplot.err" >&2
            exit 1
        fi
        # gnuplot warns and goes on when data is missing: a warning is a broken picture.
        if grep -q 'warning:' "$tmp/gnuplot.err"; then
            echo "$me: gnuplot warned on $chart.$fmt (the picture would be wrong):" >&2
            sed 's/^/    /' "$tmp/gnuplot.err" >&2
            exit 1
        fi
        [ -s "$tmp/gnuplot.err" ] && sed 's/^/    /' "$tmp/gnuplot.err" >&2
        case $fmt in
        png) ok=$( [ -s "$tmp/$chart.png" ] && head -c 8 "$tmp/$chart.png" | od -An -tx1 | tr -d ' \n') ;;
        svg) ok=$(grep -c '<svg' "$tmp/$chart.svg" 2>/dev/null) ;;
        esac
        case $fmt:$ok in
        png:89504e470d0a1a0a | svg:[1-9]*) ;;
        *) echo "$me: gnuplot wrote no valid $fmt for $chart" >&2; exit 1 ;;
        esac
    done
done

if [ -n "${CHART_DATA:-}" ]; then
    mkdir -p "$CHART_DATA" && cp "$tmp"/*.dat "$CHART_DATA"/ || exit 1
fi
written=""
for chart in "$@"; do
    for fmt in png svg; do
        mv -f "$tmp/$chart.$fmt" "$outdir/$chart.$fmt" || exit 1
        written="$written $outdir/$chart.$fmt"
    done
done
echo "$me: wrote$written (from $csv)"

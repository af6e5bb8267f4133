#!/bin/sh
# table.sh - writes the measured tables into the READMEs between marker lines, so that no
# number in a README is typed by hand. `make table` runs it.
#
#   plots/table.sh CSV README.md [STEP_README...]
#
# README.md (mandatory): the results table (plots/table.awk) replaces whatever is between
#
#   <!-- results-table:begin -->
#   <!-- results-table:end -->
#
# Without both markers, once each and in that order, it says so and exits 2, leaving the
# file as it was.
#
# Each STEP_README (stepN_name/README.md; optional) gets, where it has their markers:
#   step-results    the step's own rows of CSV at 1024..8192 (plots/step_table.awk)
#   sweep-results   the stage sweep from SWEEP_CSV (plots/sweep_table.awk)
#   tune-results    the tile-shape sweep from TUNE_CSV (plots/tune_table.awk)
# A README without a pair of markers, or a CSV that is not there, is skipped with a note.
# Markers that are there but broken, or a CSV that is there but invalid, are an error
# (the other tables are still written; table.sh exits 2). Nothing else in a file changes.
#
# Environment: SWEEP_CSV (default plots/sweep.csv), TUNE_CSV (default plots/tune.csv).
set -u

me=table
if [ $# -lt 2 ]; then
    echo "usage: $0 CSV README.md [STEP_README...]" >&2
    exit 2
fi
csv=$1 readme=$2
shift 2
plotdir=$(cd "$(dirname "$0")" && pwd)
sweep_csv=${SWEEP_CSV:-plots/sweep.csv}
tune_csv=${TUNE_CSV:-plots/tune.csv}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgemm-table.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# The line numbers of the lines of $2 that are the marker $1 (spaces around it allowed).
marker_lines() {
    awk -v m="$1" '{ t = $0; gsub(/^[ \t]+|[ \t\r]+$/, "", t) } t == m { print NR }' "$2"
}

# check_markers FILE NAME: 0 when FILE has <!-- NAME:begin --> and <!-- NAME:end -->, once
# each and in that order; 1 when it has neither (the message in $why); 2 when they are broken.
check_markers() {
    b="<!-- $2:begin -->" e="<!-- $2:end -->"
    nb=$(marker_lines "$b" "$1" | wc -l)
    ne=$(marker_lines "$e" "$1" | wc -l)
    if [ "$nb" -eq 0 ] && [ "$ne" -eq 0 ]; then
        why="$1 has no $2 markers: put the lines $b and $e (each on a line of its own) where the table goes"
        return 1
    fi
    if [ "$nb" -ne 1 ] || [ "$ne" -ne 1 ]; then
        why="$1 has $nb '$b' and $ne '$e' lines; it needs exactly one of each"
        return 2
    fi
    bl=$(marker_lines "$b" "$1")
    el=$(marker_lines "$e" "$1")
    if [ "$bl" -gt "$el" ]; then
        why="$1 has $e (line $el) before $b (line $bl)"
        return 2
    fi
    return 0
}

# fill FILE NAME TABLE SOURCE: TABLE replaces what is between FILE's NAME markers. The file
# keeps its mode: a copy is rewritten and moved over the original.
fill() {
    out=$(mktemp "$(dirname "$1")/.table.XXXXXX") || return 1
    cp -p "$1" "$out" || { rm -f "$out"; return 1; }
    awk -v table="$3" -v b="<!-- $2:begin -->" -v e="<!-- $2:end -->" -v source="$4" '
        { t = $0; gsub(/^[ \t]+|[ \t\r]+$/, "", t) }
        t == b {
            print
            print "<!-- Written by `make table` from " source ": rerun it rather than editing these lines. -->"
            print ""
            while ((getline l < table) > 0)
                print l
            print ""
            skipping = 1
            next
        }
        t == e { skipping = 0 }
        !skipping { print }
    ' "$1" > "$out" && mv -f "$out" "$1" || { rm -f "$out"; return 1; }
}

# --- README.md: mandatory -------------------------------------------------------------
if [ ! -e "$csv" ]; then
    echo "$me: $csv: no such file: \`make results\` on a GPU machine writes plots/results.csv (or pass CSV=path)" >&2
    exit 2
fi
if [ ! -s "$csv" ]; then
    echo "$me: $csv: empty: expected a header line and one row per run (./stepN M N K --csv)" >&2
    exit 2
fi
if [ ! -f "$readme" ]; then
    echo "$me: $readme does not exist; the table goes in it, between the lines <!-- results-table:begin --> and <!-- results-table:end -->" >&2
    exit 2
fi
check_markers "$readme" results-table
case $? in
0) ;;
1) echo "$me: $readme has no results-table markers: put the lines <!-- results-table:begin --> and <!-- results-table:end --> (each on a line of its own) where the table goes" >&2
   exit 2 ;;
*) echo "$me: $why" >&2
   exit 2 ;;
esac
awk -v what="$me" -v csv_name="$csv" -f "$plotdir/csv.awk" -f "$plotdir/table.awk" "$csv" > "$tmp/results" || exit 2
fill "$readme" results-table "$tmp/results" "$csv" || exit 1
rows=$(grep -c '^| ' "$tmp/results")
echo "$me: wrote the results table ($((rows - 1)) rows, from $csv) into $readme"

# --- the step READMEs: each table where its markers are -------------------------------
status=0
# optional FILE NAME CSV LABEL AWK-ARGS...: the table NAME into FILE, from CSV, when both are
# there; a note when either is missing; an error (status 2) when one is broken.
optional() {
    file=$1 name=$2 from=$3 label=$4
    shift 4
    check_markers "$file" "$name"
    case $? in
    1) return 1 ;;
    2) echo "$me: $why" >&2; status=2; return 0 ;;
    esac
    if [ ! -e "$from" ]; then
        echo "$me: note: $from is not there: the $label in $file is left as it was"
        return 0
    fi
    awk -v what="$me" -v csv_name="$from" "$@" "$from" > "$tmp/table"
    rc=$?
    if [ "$rc" -eq 3 ]; then
        echo "$me: note: $from has no row of $(basename "$(dirname "$file")"): the $label in $file is left as it was"
        return 0
    fi
    if [ "$rc" -ne 0 ]; then
        echo "$me: the $label in $file is left as it was" >&2
        status=2
        return 0
    fi
    if fill "$file" "$name" "$tmp/table" "$from"; then
        echo "$me: wrote the $label (from $from) into $file"
    else
        status=1
    fi
    return 0
}

for step_readme in "$@"; do
    if [ ! -f "$step_readme" ]; then
        echo "$me: note: $step_readme does not exist, skipped"
        continue
    fi
    dir=$(basename "$(dirname "$step_readme")")
    found=0
    optional "$step_readme" step-results "$csv" "step's results table" -v step_dir="$dir" \
        -f "$plotdir/csv.awk" -f "$plotdir/step_table.awk" && found=1
    optional "$step_readme" sweep-results "$sweep_csv" "stage sweep table" \
        -f "$plotdir/csv.awk" -f "$plotdir/sweep_table.awk" && found=1
    optional "$step_readme" tune-results "$tune_csv" "tile-shape table" -v valid=PASS,UNCHECKED \
        -f "$plotdir/csv.awk" -f "$plotdir/tune_table.awk" && found=1
    if [ "$found" -eq 0 ]; then
        echo "$me: note: $step_readme has no table markers (step-results, sweep-results, tune-results), skipped"
    fi
done
exit $status

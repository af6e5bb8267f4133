#!/bin/sh
# table.sh - writes the results table into README.md between two marker lines, so that no
# number in the README is typed by hand. `make table` runs it.
#
#   plots/table.sh CSV README.md
#
# The table (plots/table.awk) replaces whatever is between the lines
#
#   <!-- results-table:begin -->
#   <!-- results-table:end -->
#
# and nothing else in the file changes. Without both markers, once each and in that order,
# it says so and exits 2, leaving the file as it was.
set -u

me=table
begin='<!-- results-table:begin -->'
end='<!-- results-table:end -->'
if [ $# -ne 2 ]; then
    echo "usage: $0 CSV README.md" >&2
    exit 2
fi
csv=$1 readme=$2
plotdir=$(cd "$(dirname "$0")" && pwd)

if [ ! -e "$csv" ]; then
    echo "$me: $csv: no such file: \`make results\` on a GPU machine writes plots/results.csv (or pass CSV=path)" >&2
    exit 2
fi
if [ ! -s "$csv" ]; then
    echo "$me: $csv: empty: expected a header line and one row per run (./stepN M N K --csv)" >&2
    exit 2
fi
if [ ! -f "$readme" ]; then
    echo "$me: $readme does not exist; the table goes in it, between the lines $begin and $end" >&2
    exit 2
fi
# A marker is a line of its own (spaces around it allowed).
marker_lines() {
    awk -v m="$1" '{ t = $0; gsub(/^[ \t]+|[ \t\r]+$/, "", t) } t == m { print NR }' "$readme"
}
nbegin=$(marker_lines "$begin" | wc -l)
nend=$(marker_lines "$end" | wc -l)
if [ "$nbegin" -eq 0 ] || [ "$nend" -eq 0 ]; then
    echo "$me: $readme has no results-table markers: put the lines $begin and $end (each on a line of its own) where the table goes" >&2
    exit 2
fi
if [ "$nbegin" -ne 1 ] || [ "$nend" -ne 1 ]; then
    echo "$me: $readme has $nbegin '$begin' and $nend '$end' lines; it needs exactly one of each" >&2
    exit 2
fi
bline=$(marker_lines "$begin")
eline=$(marker_lines "$end")
if [ "$bline" -gt "$eline" ]; then
    echo "$me: $readme has $end (line $eline) before $begin (line $bline)" >&2
    exit 2
fi

dir=$(dirname "$readme")
tmp=$(mktemp "$dir/.table.XXXXXX") || exit 1
trap 'rm -f "$tmp" "$tmp.table"' EXIT
trap 'exit 130' INT TERM

awk -v what="$me" -v csv_name="$csv" -f "$plotdir/csv.awk" -f "$plotdir/table.awk" "$csv" > "$tmp.table" || exit 2

# Keep the README's mode: copy it, then rewrite the copy and move it over the original.
cp -p "$readme" "$tmp" || exit 1
awk -v table="$tmp.table" -v b="$begin" -v e="$end" '
    { t = $0; gsub(/^[ \t]+|[ \t\r]+$/, "", t) }
    t == b {
        print
        print "<!-- Written by `make table` from the results CSV: rerun it rather than editing these lines. -->"
        print ""
        while ((getline l < table) > 0)
            print l
        print ""
        skipping = 1
        next
    }
    t == e { skipping = 0 }
    !skipping { print }
' "$readme" > "$tmp" || exit 1
mv -f "$tmp" "$readme" || exit 1
rows=$(grep -c '^| ' "$tmp.table")
echo "$me: wrote the results table ($((rows - 1)) rows, from $csv) into $readme"

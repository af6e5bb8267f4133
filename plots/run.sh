#!/bin/sh
# run.sh - runs every step at every size on the GPU and writes the results CSV.
# `make results` and `make plots` run it; by hand:
#
#   SIZES="1024 4096" REPS=10 plots/run.sh plots/results.csv ./step0 ./step1 ./step2
#
# Each run is `./stepN S S S --reps REPS --csv-header`, which times cuBLAS in the same
# process, so every row carries its own cuBLAS figure and the ratio measured in that run.
# One progress line per run:
#
#   [12/42] step3 2048 ... 31.2 TFLOPS (0.66 of cuBLAS) PASS
#
# The CSV is one header and one row per run, with the device, CUDA version, commit and date
# in every row. A run that fails its check keeps the row it printed (verdict FAIL); a run
# that crashes, exits with an error or times out gets a row with its verdict set to what
# happened ("ERROR exit 3", "CRASH signal 11", "TIMEOUT 900 s") and no numbers, and its
# stderr is shown. Neither is ever drawn as a valid point.
#
# The CSV is written to a temporary file and moved into place at the end, so an
# interrupted run leaves the old one intact; when no run passes at all (no GPU, say),
# the old one is kept and run.sh exits 1.
#
# Environment: SIZES (default "256 512 1024 2048 4096 8192"), REPS (default 10),
# RUN_TIMEOUT seconds per run (default 900; 0 for none), RUN_ARGS more options for every
# run (e.g. RUN_ARGS="--stages 2" for one point of a stage sweep; CSVs of several runs can
# be pasted together, the charts skip the repeated headers).
set -u

if [ $# -lt 2 ]; then
    echo "usage: [SIZES=\"256 4096\"] [REPS=10] $0 OUT.csv ./stepN..." >&2
    exit 2
fi
out=$1
shift
sizes=${SIZES:-256 512 1024 2048 4096 8192}
reps=${REPS:-10}
limit=${RUN_TIMEOUT:-900}

for v in $sizes $reps $limit; do
    case $v in
    *[!0-9]*) echo "run: '$v' is not a whole number (SIZES=\"$sizes\" REPS=$reps RUN_TIMEOUT=$limit)" >&2; exit 2 ;;
    esac
done
[ -n "$sizes" ] || { echo "run: SIZES is empty" >&2; exit 2; }
for step in "$@"; do
    [ -x "$step" ] || { echo "run: $step is not an executable step (make builds them)" >&2; exit 2; }
done
# --foreground keeps the step in our process group, so Ctrl-C stops it too.
timeout_cmd=""
if [ "$limit" -gt 0 ] && timeout --foreground 1 true >/dev/null 2>&1; then
    timeout_cmd="timeout --foreground $limit"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgemm-run.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'echo; echo "run: interrupted; $out left as it was" >&2; exit 130' INT TERM

total=0
for size in $sizes; do for step in "$@"; do total=$((total + 1)); done; done
i=0
header=""
: > "$tmp/rows"

for size in $sizes; do
    for step in "$@"; do
        i=$((i + 1))
        name=$(basename "$step")
        printf '[%d/%d] %s %s ... ' "$i" "$total" "$name" "$size"
        # shellcheck disable=SC2086 # RUN_ARGS is a list of options
        $timeout_cmd "$step" "$size" "$size" "$size" --reps "$reps" ${RUN_ARGS:-} --csv-header > "$tmp/out" 2> "$tmp/err"
        rc=$?
        # The header is the line that starts with "step,"; the row is the line after it.
        this_header=$(awk '/^step,/ { print; exit }' "$tmp/out")
        row=$(awk '/^step,/ { getline; print; exit }' "$tmp/out")
        if [ -n "$row" ] && [ -z "$header" ]; then
            header=$this_header
        fi
        problem=""
        if [ -n "$row" ] && [ "$this_header" != "$header" ]; then
            problem="ERROR stale build"
            echo "its CSV columns differ from the other steps' (rebuild with make):" >> "$tmp/err"
            echo "  $this_header" >> "$tmp/err"
        elif [ -n "$timeout_cmd" ] && [ "$rc" -eq 124 ]; then
            problem="TIMEOUT $limit s"
        elif [ "$rc" -gt 128 ]; then
            problem="CRASH signal $((rc - 128))"
        elif [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
            problem="ERROR exit $rc"
        elif [ -z "$row" ]; then
            problem="ERROR exit $rc, no CSV row"
        fi

        if [ -z "$problem" ]; then
            # Exit 0 (PASS, or UNCHECKED) or 1 (FAIL): the row is the truth.
            printf '%s\t%s\n' "$name" "$row" >> "$tmp/rows"
            printf '%s\n%s\n' "$header" "$row" | awk -F, '
                NR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; next }
                {
                    g = $(col["gflops"]); r = $(col["ratio"]); v = $(col["verdict"])
                    speed = g >= 1000 ? sprintf("%.1f TFLOPS", g / 1000) : sprintf("%.0f GFLOPS", g)
                    printf "%s (%s of cuBLAS) %s\n", speed, (r < 0.1 ? sprintf("%.2g", r) : sprintf("%.2f", r)), v
                }'
        else
            printf '%s\t@\t%s\t%s\t%s\n' "$name" "$size" "$problem" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "$tmp/rows"
            echo "$problem"
        fi
        if [ -n "$problem" ] || [ "$rc" -ne 0 ]; then
            if [ -s "$tmp/err" ]; then
                tail -n 20 "$tmp/err" | sed 's/^/      /'
            fi
        fi
    done
done

if [ -z "$header" ]; then
    echo "run: no run printed a CSV row (is there a GPU? see the errors above); $out left as it was" >&2
    exit 1
fi

# One header, then the rows in run order. A row for a run that printed none gets the
# step's full name and the run's device, CUDA versions and commit from the rows that did.
names=""
for step in "$@"; do
    names="$names $(basename "$step")=$("$step" --help 2>/dev/null | sed -n '1s/:.*//p')"
done
awk -F'\t' -v header="$header" -v names="$names" '
    BEGIN {
        n = split(header, h, ",")
        for (c = 1; c <= n; c++) col[h[c]] = c
        split("device,sm_count,cuda_runtime,cuda_driver,commit", ident, ",")
        nn = split(names, pairs, " ")
        for (p = 1; p <= nn; p++) {
            eq = index(pairs[p], "=")
            if (eq && substr(pairs[p], eq + 1) != "")
                full[substr(pairs[p], 1, eq - 1)] = substr(pairs[p], eq + 1)
        }
    }
    {
        bin[NR] = $1
        line[NR] = $0
        if ($2 != "@") {
            split($2, f, ",")
            full[$1] = f[col["step"]]
            if (!("device" in run))
                for (c in ident)
                    run[ident[c]] = f[col[ident[c]]]
        }
    }
    END {
        print header
        for (r = 1; r <= NR; r++) {
            split(line[r], t, "\t")
            if (t[2] != "@") {
                print t[2]
                continue
            }
            for (c = 1; c <= n; c++) v[c] = ""
            v[col["step"]] = (bin[r] in full) ? full[bin[r]] : bin[r]
            v[col["m"]] = v[col["n"]] = v[col["k"]] = t[3]
            v[col["verdict"]] = t[4]
            v[col["date_utc"]] = t[5]
            for (c in ident)
                if (ident[c] in col)
                    v[col[ident[c]]] = run[ident[c]]
            s = v[1]
            for (c = 2; c <= n; c++) s = s "," v[c]
            print s
        }
    }' "$tmp/rows" > "$tmp/results.csv" || exit 1

# Count the verdicts; keep the old CSV when nothing passed.
summary=$(awk -F, -v header="$header" '
    BEGIN {
        n = split(header, h, ",")
        for (c = 1; c <= n; c++) col[h[c]] = c
    }
    NR > 1 {
        rows++
        v = $(col["verdict"])
        if (!(v in count)) order[++nv] = v
        count[v]++
        if (v != "PASS")
            failed = failed (failed == "" ? "" : ", ") $(col["step"]) " " $(col["m"]) " (" v ")"
    }
    END {
        s = rows " rows:"
        for (i = 1; i <= nv; i++) s = s " " count[order[i]] " " order[i] (i < nv ? "," : "")
        print (("PASS" in count) ? "ok " : "none ") s
        if (failed != "")
            print "not drawn (no valid result): " failed
    }' "$tmp/results.csv")
counts=$(printf '%s\n' "$summary" | sed -n 1p)
failed=$(printf '%s\n' "$summary" | sed -n '2,$p')
case $counts in
none*)
    echo "run: no run passed (${counts#none }); $out left as it was" >&2
    exit 1 ;;
esac

if ! { mkdir -p "$(dirname "$out")" && cp "$tmp/results.csv" "$out.tmp$$" && mv -f "$out.tmp$$" "$out"; }; then
    rm -f "$out.tmp$$"
    echo "run: could not write $out" >&2
    exit 1
fi
echo "run: wrote $out, ${counts#ok }"
[ -z "$failed" ] || echo "run: $failed"

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
# A run may carry its own options: an argument is "BINARY [OPTION...]" (split at blanks),
# so one binary can be run several ways (`make sweep` does this):
#
#   plots/run.sh plots/sweep.csv "./step5 --stages 1" "./step5 --stages 2"
#   [3/8] step5 --stages 1 2048 ... 18.4 TFLOPS (0.36 of cuBLAS) PASS
#
# With RUN_LABEL=NAME each argument starts with a label, "LABEL BINARY [OPTION...]", and
# the CSV gets a leading column NAME holding it (`make tune` labels each tile configuration).
#
# The CSV is one header and one row per run, with the device, CUDA version, commit and date
# in every row. A run that fails its check keeps the row it printed (verdict FAIL); a run
# that crashes, exits with an error or times out gets a row with its verdict set to what
# happened ("ERROR exit 3", "CRASH signal 11", "TIMEOUT 900 s") and no numbers (its stages
# taken from its --stages option, if any), and its stderr is shown. Neither is ever drawn
# as a valid point.
#
# The CSV is written to a temporary file and moved into place at the end, so an
# interrupted run leaves the old one intact; when no run gives a valid result at all (no
# GPU, say), the old one is kept and run.sh exits 1.
#
# Environment: SIZES (default "256 512 1024 2048 4096 8192"), REPS (default 10),
# RUN_TIMEOUT seconds per run (default 900; 0 for none), RUN_ARGS more options for every
# run (CSVs of several runs can be pasted together, the charts skip the repeated headers),
# RUN_LABEL (above), RUN_VALID the verdicts that count as a valid result (default PASS;
# "PASS UNCHECKED" for runs made with --no-check).
set -u
# A run's options are split at blanks, never expanded as file names.
set -f

if [ $# -lt 2 ]; then
    echo "usage: [SIZES=\"256 4096\"] [REPS=10] $0 OUT.csv \"./stepN [OPTION...]\"..." >&2
    exit 2
fi
out=$1
shift
sizes=${SIZES:-256 512 1024 2048 4096 8192}
reps=${REPS:-10}
limit=${RUN_TIMEOUT:-900}
label_col=${RUN_LABEL:-}
valid=${RUN_VALID:-PASS}

for v in $sizes $reps $limit; do
    case $v in
    *[!0-9]*) echo "run: '$v' is not a whole number (SIZES=\"$sizes\" REPS=$reps RUN_TIMEOUT=$limit)" >&2; exit 2 ;;
    esac
done
[ -n "$sizes" ] || { echo "run: SIZES is empty" >&2; exit 2; }
case $label_col in
*[!A-Za-z0-9_]*) echo "run: RUN_LABEL '$label_col' must be a column name (letters, digits, _)" >&2; exit 2 ;;
esac

# One run: "[LABEL] BINARY [OPTION...]" -> label, bin, name (the binary's file name), opts,
# stages (the value of its last --stages option, RUN_ARGS included, or empty).
parse_run() {
    label=""
    if [ -n "$label_col" ]; then
        label=${1:-}
        [ $# -gt 0 ] && shift
    fi
    bin=${1:-}
    [ $# -gt 0 ] && shift
    opts=$*
    name=$(basename "$bin")
    stages=$(printf ' %s %s\n' "$opts" "${RUN_ARGS:-}" | sed -n 's/.* --stages[ =]\([0-9][0-9]*\).*/\1/p')
}

for run in "$@"; do
    # shellcheck disable=SC2086 # a run is a list of words
    parse_run $run
    if [ -n "$label_col" ] && [ -z "$label" ]; then
        echo "run: '$run' has no label (RUN_LABEL=$label_col: each run is \"LABEL BINARY [OPTION...]\")" >&2
        exit 2
    fi
    case $label in
    *,*) echo "run: the label '$label' holds a comma (it becomes a CSV field)" >&2; exit 2 ;;
    esac
    [ -n "$bin" ] && [ -x "$bin" ] || { echo "run: '$bin' is not an executable step (make builds them)" >&2; exit 2; }
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
for size in $sizes; do for run in "$@"; do total=$((total + 1)); done; done
i=0
header=""
: > "$tmp/rows"

for size in $sizes; do
    for run in "$@"; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        parse_run $run
        printf '[%d/%d] %s%s%s %s ... ' "$i" "$total" "${label:+$label: }" "$name" "${opts:+ $opts}" "$size"
        # shellcheck disable=SC2086 # the run's options and RUN_ARGS are lists of options
        $timeout_cmd "$bin" "$size" "$size" "$size" --reps "$reps" $opts ${RUN_ARGS:-} --csv-header > "$tmp/out" 2> "$tmp/err"
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

        # A record per run: name, label, stages, then the row, or "@", size, problem, date.
        if [ -z "$problem" ]; then
            # Exit 0 (PASS, or UNCHECKED) or 1 (FAIL): the row is the truth.
            printf '%s\t%s\t%s\t%s\n' "$name" "$label" "$stages" "$row" >> "$tmp/rows"
            printf '%s\n%s\n' "$header" "$row" | awk -F, '
                NR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; next }
                {
                    g = $(col["gflops"]); r = $(col["ratio"]); v = $(col["verdict"])
                    speed = g >= 1000 ? sprintf("%.1f TFLOPS", g / 1000) : sprintf("%.0f GFLOPS", g)
                    printf "%s (%s of cuBLAS) %s\n", speed, (r < 0.1 ? sprintf("%.2g", r) : sprintf("%.2f", r)), v
                }'
        else
            printf '%s\t%s\t%s\t@\t%s\t%s\t%s\n' "$name" "$label" "$stages" "$size" "$problem" \
                "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "$tmp/rows"
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
for run in "$@"; do
    # shellcheck disable=SC2086
    parse_run $run
    case " $names " in *" $name="*) continue ;; esac
    names="$names $name=$("$bin" --help 2>/dev/null | sed -n '1s/:.*//p')"
done
awk -F'\t' -v header="$header" -v names="$names" -v label_col="$label_col" '
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
        if ($4 != "@") {
            split($4, f, ",")
            full[$1] = f[col["step"]]
            if (!("device" in run))
                for (c in ident)
                    run[ident[c]] = f[col[ident[c]]]
        }
    }
    END {
        print (label_col != "" ? label_col "," : "") header
        for (r = 1; r <= NR; r++) {
            split(line[r], t, "\t")
            lead = label_col != "" ? t[2] "," : ""
            if (t[4] != "@") {
                print lead t[4]
                continue
            }
            for (c = 1; c <= n; c++) v[c] = ""
            v[col["step"]] = (bin[r] in full) ? full[bin[r]] : bin[r]
            v[col["m"]] = v[col["n"]] = v[col["k"]] = t[5]
            if ("stages" in col)
                v[col["stages"]] = t[3]
            v[col["verdict"]] = t[6]
            v[col["date_utc"]] = t[7]
            for (c in ident)
                if (ident[c] in col)
                    v[col[ident[c]]] = run[ident[c]]
            s = v[1]
            for (c = 2; c <= n; c++) s = s "," v[c]
            print lead s
        }
    }' "$tmp/rows" > "$tmp/results.csv" || exit 1

# Count the verdicts; keep the old CSV when no run gave a valid result.
summary=$(awk -F, -v valid="$valid" -v label_col="$label_col" '
    BEGIN {
        nv = split(valid, vl, " ")
        for (i = 1; i <= nv; i++) ok[vl[i]] = 1
        nv = 0
    }
    NR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; next }
    {
        rows++
        v = $(col["verdict"])
        if (!(v in count)) order[++nv] = v
        count[v]++
        if (v in ok)
            good++
        else
            failed = failed (failed == "" ? "" : ", ") (label_col != "" ? $(col[label_col]) ": " : "") $(col["step"]) " " $(col["m"]) \
                ("stages" in col && $(col["stages"]) + 0 > 0 ? " S=" $(col["stages"]) : "") " (" v ")"
    }
    END {
        s = rows " rows:"
        for (i = 1; i <= nv; i++) s = s " " count[order[i]] " " order[i] (i < nv ? "," : "")
        print (good ? "ok " : "none ") s
        if (failed != "")
            print "not drawn (no valid result): " failed
    }' "$tmp/results.csv")
counts=$(printf '%s\n' "$summary" | sed -n 1p)
failed=$(printf '%s\n' "$summary" | sed -n '2,$p')
case $counts in
none*)
    echo "run: no run gave a valid result ($valid) (${counts#none }); $out left as it was" >&2
    exit 1 ;;
esac

if ! { mkdir -p "$(dirname "$out")" && cp "$tmp/results.csv" "$out.tmp$$" && mv -f "$out.tmp$$" "$out"; }; then
    rm -f "$out.tmp$$"
    echo "run: could not write $out" >&2
    exit 1
fi
echo "run: wrote $out, ${counts#ok }"
[ -z "$failed" ] || echo "run: $failed"

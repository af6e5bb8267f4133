# csv.awk - reads and validates a results CSV (the rows `./stepN --csv` prints).
#
# Loaded first by every awk program in plots/ (awk -f plots/csv.awk -f plots/X.awk FILE),
# it finds the header, maps column names to positions, checks every row, and keeps the
# rows in memory for the program that follows:
#
#   nrows              rows read (comment lines starting with # and blank lines skipped)
#   cell[r, "name"]    row r's value in column "name" (r = 1..nrows)
#   line_of[r]         row r's line number in the file
#   has_col["name"]    1 when the header has that column
#
# Columns are found by name, never by position, so the harness may add columns freely.
# On bad input it prints one line naming the file and the problem to stderr and exits 2.
#
# Variables (awk -v): what      the tool name that prefixes error lines ("chart", "table")
#                     csv_name  the file name that error lines show
#                     need      extra comma-separated columns this program needs
#                     valid     the comma-separated verdicts that are a valid result (default
#                               PASS; the tile-shape sweep, run with --no-check, adds UNCHECKED)

BEGIN {
    FS = ","
    if (what == "")
        what = "plots"
    # What every chart and table needs: the run's identity and its measurements.
    split("step,m,n,k,gflops,cublas_gflops,ratio,verdict,device,cuda_runtime,commit,date_utc", required, ",")
    if (need != "") {
        nneed = split(need, extra, ",")
        nreq = 0
        for (i in required)
            nreq++
        for (i = 1; i <= nneed; i++)
            required[nreq + i] = extra[i]
    }
    if (valid == "")
        valid = "PASS"
    nvalid = split(valid, valid_list, ",")
    valid_words = valid_list[1]
    for (i = 1; i <= nvalid; i++) {
        is_valid[valid_list[i]] = 1
        if (i > 1)
            valid_words = valid_words (i == nvalid ? " or " : ", ") valid_list[i]
    }
    nrows = 0
    ncols = 0
    csv_error = 0
}

function csv_fail(msg) {
    printf "%s: %s: %s\n", what, (csv_name != "" ? csv_name : FILENAME), msg > "/dev/stderr"
    csv_error = 2
    exit 2
}

function is_number(x) {
    return x ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/
}

function is_count(x) {
    return x ~ /^[0-9]+$/ && x + 0 > 0
}

{ sub(/\r$/, "") }

/^[ \t]*#/ || /^[ \t]*$/ { next }

ncols == 0 {
    ncols = NF
    header = $0
    for (i = 1; i <= NF; i++) {
        col[$i] = i
        has_col[$i] = 1
    }
    missing = ""
    for (i = 1; (i in required); i++)
        if (!(required[i] in has_col))
            missing = missing " " required[i]
    if (missing != "")
        csv_fail("missing column(s)" missing " (header: " header ")")
    next
}

# The same header again (CSVs of several runs pasted together): not a row.
$0 == header { next }

{
    if (NF != ncols)
        csv_fail("line " FNR ": " NF " fields, but the header has " ncols)
    nrows++
    line_of[nrows] = FNR
    for (name in col)
        cell[nrows, name] = $(col[name])
    if ($(col["verdict"]) in is_valid) {
        if (!is_count($(col["m"])) || !is_count($(col["n"])) || !is_count($(col["k"])))
            csv_fail("line " FNR ": m, n, k must be positive integers (got " $(col["m"]) ", " $(col["n"]) ", " $(col["k"]) ")")
        split("gflops,cublas_gflops,ratio", numeric, ",")
        for (i = 1; i <= 3; i++) {
            v = $(col[numeric[i]])
            if (!is_number(v) || v + 0 <= 0)
                csv_fail("line " FNR ": " numeric[i] " is '" v "', not a positive number, in a " $(col["verdict"]) " row")
        }
    }
}

END {
    if (csv_error)
        exit csv_error
    if (ncols == 0)
        csv_fail("empty: expected a header line and one row per run (./stepN M N K --csv)")
    if (nrows == 0)
        csv_fail("no rows under the header")
    npass = 0
    for (r = 1; r <= nrows; r++)
        if (row_is_pass(r))
            npass++
    if (npass == 0)
        csv_fail("no " valid_words " rows (" nrows " rows, none a valid result): nothing valid to draw")
    ndev = 0
    for (r = 1; r <= nrows; r++)
        if (cell[r, "device"] != "" && !(cell[r, "device"] in seen_dev)) {
            seen_dev[cell[r, "device"]] = 1
            ndev++
            devs = devs (ndev > 1 ? "; " : "") cell[r, "device"]
        }
    if (ndev > 1)
        csv_fail("rows from " ndev " devices (" devs "): a chart compares runs on one device")
}

# --- helpers for the programs that follow ---------------------------------------------

# A valid result: PASS (or a verdict listed in `valid`), with positive numbers.
function row_is_pass(r) {
    return cell[r, "verdict"] in is_valid
}

# The size of a square run (M = N = K), or 0 for any other shape.
function row_size(r) {
    return (cell[r, "m"] == cell[r, "n"] && cell[r, "n"] == cell[r, "k"] && is_count(cell[r, "m"])) ? cell[r, "m"] + 0 : 0
}

# The step's number: "step3_registers" -> 3 (orders the steps and picks their colour).
function step_number(name) {
    if (match(name, /[0-9]+/))
        return substr(name, RSTART, RLENGTH) + 0
    return 99
}

# Fills list[1..n] with the distinct steps of the square rows, in step order; returns n.
function distinct_steps(list,    r, n, s, i, j, t, seen) {
    n = 0
    for (r = 1; r <= nrows; r++) {
        s = cell[r, "step"]
        if (row_size(r) && !(s in seen)) {
            seen[s] = 1
            list[++n] = s
        }
    }
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && (step_number(list[j - 1]) > step_number(list[j]) ||
                              (step_number(list[j - 1]) == step_number(list[j]) && list[j - 1] > list[j])); j--) {
            t = list[j]; list[j] = list[j - 1]; list[j - 1] = t
        }
    return n
}

# Fills list[1..n] with the distinct square sizes, ascending; returns n.
function distinct_sizes(list,    r, n, s, i, j, t, seen) {
    n = 0
    for (r = 1; r <= nrows; r++) {
        s = row_size(r)
        if (s && !(s in seen)) {
            seen[s] = 1
            list[++n] = s
        }
    }
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && list[j - 1] > list[j]; j--) {
            t = list[j]; list[j] = list[j - 1]; list[j - 1] = t
        }
    return n
}

# The row of `step` at square size `size` (the last one in the file if it was run twice), or 0.
function find_row(step, size,    r, found) {
    found = 0
    for (r = 1; r <= nrows; r++)
        if (cell[r, "step"] == step && row_size(r) == size)
            found = r
    return found
}

# The median of cuBLAS's GFLOPS over every row at `size` that timed it (a step that fails
# its check still times cuBLAS correctly in the same run); 0 when none did.
function cublas_median(size,    r, n, v, i, j, t) {
    n = 0
    for (r = 1; r <= nrows; r++)
        if (row_size(r) == size && is_number(cell[r, "cublas_gflops"]) && cell[r, "cublas_gflops"] + 0 > 0)
            v[++n] = cell[r, "cublas_gflops"] + 0
    if (n == 0)
        return 0
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
            t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
        }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}

# "a, b" from the distinct non-empty values of a column, in file order.
function distinct_values(name,    r, out, seen, v) {
    out = ""
    for (r = 1; r <= nrows; r++) {
        v = cell[r, name]
        if (v != "" && !(v in seen)) {
            seen[v] = 1
            out = out (out == "" ? "" : ", ") v
        }
    }
    return out == "" ? "unknown" : out
}

# The dates of the runs, "2025-11-21" or "2025-11-20 to 2025-11-21".
function run_dates(    r, d, lo, hi) {
    lo = ""; hi = ""
    for (r = 1; r <= nrows; r++) {
        d = substr(cell[r, "date_utc"], 1, 10)
        if (d == "")
            continue
        if (lo == "" || d < lo) lo = d
        if (hi == "" || d > hi) hi = d
    }
    if (lo == "")
        return "date unknown"
    return lo == hi ? lo : lo " to " hi
}

# A gnuplot string literal.
function gp_string(s) {
    gsub(/\\/, "\\\\", s)
    gsub(/"/, "\\\"", s)
    return "\"" s "\""
}

# --- for the stage sweep (a CSV of one step run at several --stages S) ------------------

# Fills list[1..n] with the distinct stage counts (> 0) of the square rows, ascending; returns n.
function distinct_stages(list,    r, n, s, i, j, t, seen) {
    n = 0
    for (r = 1; r <= nrows; r++) {
        s = cell[r, "stages"]
        if (row_size(r) && is_count(s) && !((s + 0) in seen)) {
            seen[s + 0] = 1
            list[++n] = s + 0
        }
    }
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && list[j - 1] > list[j]; j--) {
            t = list[j]; list[j] = list[j - 1]; list[j - 1] = t
        }
    return n
}

# The row at square size `size` run with `stages` stages (the last one if run twice), or 0.
function find_stage_row(size, stages,    r, found) {
    found = 0
    for (r = 1; r <= nrows; r++)
        if (row_size(r) == size && cell[r, "stages"] == stages)
            found = r
    return found
}

# The one step a sweep CSV holds (fails on none or several, or without a stages column).
function sweep_step(    list, n) {
    if (!("stages" in has_col))
        csv_fail("no stages column: a sweep CSV is rows of ./stepN --stages S --csv")
    n = distinct_steps(list)
    if (n != 1)
        csv_fail("a sweep is one step's rows, this CSV holds " n " steps")
    return list[1]
}

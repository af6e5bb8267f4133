# step_table.awk - one step's own results as a Markdown table, for its README (plots/table.sh
# puts it between the README's step-results markers).
#
#   awk -v step_dir=step5_pipeline -v csv_name=plots/results.csv \
#       -f plots/csv.awk -f plots/step_table.awk plots/results.csv
#
# The rows of step number N (from step_dir, "stepN_..."), square sizes in `sizes` (default
# "1024 2048 4096 8192"): the median time, GFLOPS, cuBLAS's GFLOPS and the ratio, both timed
# in the same run, and the verdict. A run that did not PASS shows its verdict and no numbers
# of its own; a size that was not run says so. Then a caption naming the device, CUDA
# version, date and commit of these rows. Exits 3, printing nothing, when the CSV has no
# row of this step.

function ratio_text(r) {
    return r < 0.1 ? sprintf("%.2g×", r) : sprintf("%.2f×", r)
}

function ms_text(t) {
    return t < 1 ? sprintf("%.3f", t) : t < 100 ? sprintf("%.2f", t) : sprintf("%.1f", t)
}

# "a, b": the distinct non-empty values of column `name` over this step's rows.
function step_values(name,    r, out, seen, v) {
    out = ""
    for (r = 1; r <= nrows; r++) {
        v = cell[r, name]
        if (mine[r] && v != "" && !(v in seen)) {
            seen[v] = 1
            out = out (out == "" ? "" : ", ") v
        }
    }
    return out == "" ? "unknown" : out
}

function step_dates(    r, d, lo, hi) {
    lo = hi = ""
    for (r = 1; r <= nrows; r++) {
        d = substr(cell[r, "date_utc"], 1, 10)
        if (!mine[r] || d == "")
            continue
        if (lo == "" || d < lo) lo = d
        if (hi == "" || d > hi) hi = d
    }
    return lo == "" ? "date unknown" : lo == hi ? lo : lo " to " hi
}

END {
    if (step_dir !~ /^step[0-9]+/)
        csv_fail("'" step_dir "' is not a step directory (stepN_name)")
    want = step_number(step_dir)
    if (sizes == "")
        sizes = "1024 2048 4096 8192"
    nsizes = split(sizes, size_list, " ")

    name = ""
    nmine = 0
    for (r = 1; r <= nrows; r++)
        if (step_number(cell[r, "step"]) == want) {
            mine[r] = 1
            nmine++
            if (name == "")
                name = cell[r, "step"]
        }
    if (nmine == 0)
        exit 3

    print "| M = N = K | time, ms (median) | GFLOPS | cuBLAS GFLOPS | ratio to cuBLAS | verdict |"
    print "|-----:|-----:|-----:|-----:|-----:|:-----|"
    for (j = 1; j <= nsizes; j++) {
        found = 0
        for (r = 1; r <= nrows; r++)
            if (mine[r] && row_size(r) == size_list[j] + 0)
                found = r
        r = found
        if (!r) {
            printf "| %s | – | – | – | – | not run |\n", size_list[j]
            continue
        }
        cublas = is_number(cell[r, "cublas_gflops"]) && cell[r, "cublas_gflops"] + 0 > 0 ? sprintf("%.0f", cell[r, "cublas_gflops"]) : "–"
        if (row_is_pass(r))
            printf "| %s | %s | %.0f | %s | %s | %s |\n", size_list[j], ms_text(cell[r, "median_ms"]),
                cell[r, "gflops"], cublas, ratio_text(cell[r, "ratio"]), cell[r, "verdict"]
        else
            printf "| %s | – | – | %s | – | %s |\n", size_list[j], cublas, cell[r, "verdict"]
    }
    print ""
    printf "%s, M = N = K, FP32: measured on %s (CUDA %s) on %s, commit %s; GFLOPS = 2·M·N·K / median time, ", \
        name, step_values("device"), step_values("cuda_runtime"), step_dates(), step_values("commit")
    print "and cuBLAS timed in the same run. Written by `make table` from " csv_name "."
}

# table.awk - the results as a Markdown table, for README.md (plots/table.sh puts it there).
#
#   awk -v csv_name=plots/results.csv -f plots/csv.awk -f plots/table.awk plots/results.csv
#
# One row per step, in step order: per size its GFLOPS and its ratio to cuBLAS measured in
# the same run, then a verdict; then cuBLAS (the median of its runs at each size); then a
# caption naming the device, CUDA version, date and commit. A run that did not PASS shows
# its verdict instead of numbers. Square runs (M = N = K) only.

function ratio_text(r) {
    return r < 0.1 ? sprintf("%.2g×", r) : sprintf("%.2f×", r)
}

END {
    nsizes = distinct_sizes(sizes)
    nsteps = distinct_steps(steps)

    line = "| step |"
    rule = "|:-----|"
    for (j = 1; j <= nsizes; j++) {
        line = line " " sizes[j] " GFLOPS | vs cuBLAS |"
        rule = rule "-----:|-----:|"
    }
    print line " verdict |"
    print rule ":-----|"

    for (i = 1; i <= nsteps; i++) {
        line = "| " steps[i] " |"
        bad = ""
        for (j = 1; j <= nsizes; j++) {
            r = find_row(steps[i], sizes[j])
            if (!r) {
                line = line " – | – |"
            } else if (row_is_pass(r)) {
                line = line sprintf(" %.0f | %s |", cell[r, "gflops"], ratio_text(cell[r, "ratio"]))
            } else {
                line = line " " cell[r, "verdict"] " | – |"
                bad = bad (bad == "" ? "" : "; ") cell[r, "verdict"] " at " sizes[j]
            }
        }
        print line " " (bad == "" ? "PASS" : bad) " |"
    }

    line = "| cuBLAS (median) |"
    for (j = 1; j <= nsizes; j++) {
        v = cublas_median(sizes[j])
        line = line (v > 0 ? sprintf(" %.0f | 1× |", v) : " – | – |")
    }
    print line " reference |"

    print ""
    printf "Measured on %s (CUDA %s) on %s, commit %s: M = N = K, FP32, GFLOPS = 2·M·N·K / median time; ", \
        distinct_values("device"), distinct_values("cuda_runtime"), run_dates(), distinct_values("commit")
    print "\"vs cuBLAS\" is cuBLAS's time over the step's, both timed in the same run. Written by `make table` from " csv_name "."
}

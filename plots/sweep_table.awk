# sweep_table.awk - the stage sweep as a Markdown table: one row per size, one column per
# pipeline depth S. `make sweep` prints it; `make table` puts it in the step's README.
#
#   awk -v csv_name=plots/sweep.csv -f plots/csv.awk -f plots/sweep_table.awk plots/sweep.csv
#
# A cell is the GFLOPS and, in brackets, the ratio to cuBLAS timed in the same run; the best
# S of each size is in bold. A run that did not PASS shows its verdict, never a number. Then
# cuBLAS (the median of its runs at that size) and a caption naming the device, CUDA
# version, date and commit.

function ratio_text(r) {
    return r < 0.1 ? sprintf("%.2g×", r) : sprintf("%.2f×", r)
}

END {
    step = sweep_step()
    nsizes = distinct_sizes(sizes)
    nstages = distinct_stages(stages)
    if (nstages == 0)
        csv_fail("no row has a stage count (the stages column is empty or 0)")

    line = "| M = N = K |"
    rule = "|-----:|"
    for (i = 1; i <= nstages; i++) {
        line = line " S = " stages[i] " |"
        rule = rule "-----:|"
    }
    print line " cuBLAS GFLOPS | best S |"
    print rule "-----:|:-----:|"

    for (j = 1; j <= nsizes; j++) {
        best = 0
        for (i = 1; i <= nstages; i++) {
            r = find_stage_row(sizes[j], stages[i])
            if (r && row_is_pass(r) && (!best || cell[r, "gflops"] + 0 > cell[best, "gflops"] + 0))
                best = r
        }
        line = "| " sizes[j] " |"
        for (i = 1; i <= nstages; i++) {
            r = find_stage_row(sizes[j], stages[i])
            if (!r)
                line = line " – |"
            else if (!row_is_pass(r))
                line = line " " cell[r, "verdict"] " |"
            else if (r == best)
                line = line sprintf(" **%.0f** (%s) |", cell[r, "gflops"], ratio_text(cell[r, "ratio"]))
            else
                line = line sprintf(" %.0f (%s) |", cell[r, "gflops"], ratio_text(cell[r, "ratio"]))
        }
        v = cublas_median(sizes[j])
        line = line (v > 0 ? sprintf(" %.0f |", v) : " – |")
        print line " " (best ? cell[best, "stages"] : "–") " |"
    }

    print ""
    printf "%s at each pipeline depth S (`--stages S`; S = 1 overlaps nothing): GFLOPS, and in brackets the ratio to cuBLAS timed in the same run; the best S per size in bold. ", step
    printf "Measured on %s (CUDA %s) on %s, commit %s: M = N = K, FP32. ", \
        distinct_values("device"), distinct_values("cuda_runtime"), run_dates(), distinct_values("commit")
    print "Written by `make sweep` (`make table` copies it here) from " csv_name "."
}

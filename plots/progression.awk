# progression.awk - the data of progression.gp: each step's GFLOPS at one size.
#
#   awk -v out=DIR -v size=4096 -f plots/csv.awk -f plots/progression.awk results.csv
#
# Writes DIR/progression.dat, one line per step in step order (tab-separated):
#   x  gflops  ratio  linetype  status
# gflops and ratio are NaN unless the run PASSed, so a failed run is never drawn as a bar;
# status is the verdict (PASS, FAIL, ERROR ...) or "not run", and is printed where the bar
# would be. Prints the gnuplot variables progression.gp reads.
#
# At `size` if some run there PASSed, else at the largest size where one did (with a note).

END {
    nsizes = distinct_sizes(sizes)
    shown = 0
    for (i = 1; i <= nsizes; i++) {
        for (r = 1; r <= nrows; r++)
            if (row_size(r) == sizes[i] && row_is_pass(r)) {
                if (sizes[i] == size + 0)
                    shown = sizes[i]
                largest = sizes[i]
            }
    }
    if (!shown) {
        if (!largest) {
            printf "%s: %s: no PASS row has M = N = K: the progression chart needs square runs\n", what, csv_name > "/dev/stderr"
            exit 2
        }
        printf "%s: note: no run passed at %d; the progression chart shows %d instead\n", what, size, largest > "/dev/stderr"
        shown = largest
    }

    nsteps = distinct_steps(steps)
    file = out "/progression.dat"
    top = cublas = cublas_median(shown)
    xtics = ""
    for (i = 1; i <= nsteps; i++) {
        r = find_row(steps[i], shown)
        x = i - 1
        lt = step_number(steps[i]) % 9 + 1
        if (r && row_is_pass(r)) {
            printf "%d\t%s\t%s\t%d\tPASS\n", x, cell[r, "gflops"], cell[r, "ratio"], lt > file
            if (cell[r, "gflops"] + 0 > top)
                top = cell[r, "gflops"] + 0
        } else {
            printf "%d\tNaN\tNaN\t%d\t%s\n", x, lt, (r ? cell[r, "verdict"] : "not run") > file
        }
        # "step3_registers" reads "step3" over "registers" under its bar.
        label = gp_string(steps[i])
        sub(/_/, "\\n", label)
        xtics = xtics (i > 1 ? ", " : "") label " " x
    }
    close(file)

    print "size = " shown
    print "nsteps = " nsteps
    print "cublas = " cublas
    print "ymax = " top * 1.18
    print "set xtics (" xtics ")"
}

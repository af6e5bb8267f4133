# sizes.awk - the data of sizes.gp: GFLOPS against size, one series per step, then cuBLAS.
#
#   awk -v out=DIR -f plots/csv.awk -f plots/sizes.awk results.csv
#
# Writes DIR/sizes.dat: one block per series (blocks apart by two blank lines, so gnuplot
# reads series i with `index i`), each a title line then "size<TAB>gflops" lines, sizes
# ascending. A run that did not PASS is NaN: no point, and a gap in the line. A series
# whose step failed anywhere says where in its title. A step that passed nowhere gets no
# series; the key's last entry names it. Prints the gnuplot variables sizes.gp reads.

END {
    nsizes = distinct_sizes(sizes)
    nsteps = distinct_steps(steps)
    file = out "/sizes.dat"
    nseries = 0
    lts = ""
    note = ""
    top = 0
    bottom = 0
    for (i = 1; i <= nsteps; i++) {
        block = ""
        failed = ""
        npass = 0
        for (j = 1; j <= nsizes; j++) {
            r = find_row(steps[i], sizes[j])
            if (!r)
                continue
            if (row_is_pass(r)) {
                v = cell[r, "gflops"] + 0
                block = block sizes[j] "\t" cell[r, "gflops"] "\n"
                npass++
                if (v > top) top = v
                if (bottom == 0 || v < bottom) bottom = v
            } else {
                block = block sizes[j] "\tNaN\n"
                # The verdict's first word keeps the key short: "ERROR exit 3" reads ERROR.
                v = cell[r, "verdict"]
                sub(/ .*/, "", v)
                failed = failed (failed == "" ? "" : ", ") v " at " sizes[j]
            }
        }
        if (npass == 0) {
            note = note (note == "" ? "" : ", ") steps[i]
            continue
        }
        printf "%s%s\n%s", (nseries ? "\n\n" : ""), steps[i] (failed == "" ? "" : " (" failed ")"), block > file
        nseries++
        lts = lts (lts == "" ? "" : " ") (step_number(steps[i]) % 9 + 1)
    }
    block = ""
    for (j = 1; j <= nsizes; j++) {
        v = cublas_median(sizes[j])
        block = block sizes[j] "\t" (v > 0 ? v : "NaN") "\n"
        if (v > top) top = v
        if (v > 0 && (bottom == 0 || v < bottom)) bottom = v
    }
    printf "%s%s\n%s", (nseries ? "\n\n" : ""), "cuBLAS", block > file
    close(file)

    xtics = ""
    for (j = 1; j <= nsizes; j++)
        xtics = xtics (j > 1 ? ", " : "") "\"" sizes[j] "\" " sizes[j]
    print "nsteps = " nseries
    print "linetypes = \"" lts "\""
    print "xmin = " sizes[1]
    print "xmax = " sizes[nsizes]
    print "ymin = " bottom
    print "ymax = " top
    print "note = " gp_string(note == "" ? "" : "no run passed: " note)
    print "set xtics (" xtics ")"
}

# sweep.awk - the data of sweep.gp: one step's GFLOPS against its pipeline stages S, one
# series per size (the CSV `make sweep` writes, plots/sweep.csv).
#
#   awk -v out=DIR -f plots/csv.awk -f plots/sweep.awk plots/sweep.csv
#
# Writes DIR/sweep.dat: one block per size (blocks apart by two blank lines, so gnuplot
# reads series i with `index i`), each a title line then "S<TAB>gflops<TAB>ratio" lines, S
# ascending. A run that did not PASS is NaN: no point, no label, a gap in the line; its
# series says where in its title. A size where no run passed gets no series; the key's
# last entry names it. Prints the gnuplot variables sweep.gp reads.

END {
    step = sweep_step()
    nsizes = distinct_sizes(sizes)
    nstages = distinct_stages(stages)
    if (nstages == 0)
        csv_fail("no row has a stage count (the stages column is empty or 0)")
    file = out "/sweep.dat"
    nseries = 0
    top = 0
    note = ""
    for (j = 1; j <= nsizes; j++) {
        block = ""
        failed = ""
        npass = 0
        for (i = 1; i <= nstages; i++) {
            r = find_stage_row(sizes[j], stages[i])
            if (!r)
                continue
            if (row_is_pass(r)) {
                block = block stages[i] "\t" cell[r, "gflops"] "\t" cell[r, "ratio"] "\n"
                npass++
                if (cell[r, "gflops"] + 0 > top)
                    top = cell[r, "gflops"] + 0
            } else {
                block = block stages[i] "\tNaN\tNaN\n"
                v = cell[r, "verdict"]
                sub(/ .*/, "", v)
                failed = failed (failed == "" ? "" : ", ") v " at S=" stages[i]
            }
        }
        if (npass == 0) {
            note = note (note == "" ? "" : ", ") sizes[j]
            continue
        }
        title = "M = N = K = " sizes[j] (failed == "" ? "" : " (" failed ")")
        printf "%s%s\n%s", (nseries ? "\n\n" : ""), title, block > file
        nseries++
    }
    close(file)

    xtics = ""
    for (i = 1; i <= nstages; i++)
        xtics = xtics (i > 1 ? ", " : "") "\"" stages[i] "\" " stages[i]
    print "step = " gp_string(step)
    print "nsizes = " nseries
    print "smin = " stages[1]
    print "smax = " stages[nstages]
    print "ymax = " top
    print "note = " gp_string(note == "" ? "" : "no run passed at size " note)
    print "set xtics (" xtics ")"
}

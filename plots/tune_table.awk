# tune_table.awk - the tile-shape sweep (`make tune`, plots/tune.csv) as a Markdown table:
# one row per tile configuration, one column per size. `make tune` and `make tune-table`
# print it; `make table` puts it in step 6's README.
#
#   awk -v csv_name=plots/tune.csv -v valid=PASS,UNCHECKED -f plots/csv.awk \
#       -f plots/tune_table.awk plots/tune.csv
#
# A cell is the configuration's best GFLOPS over the stage counts it ran with, that S, and
# its ratio to cuBLAS timed in the same run; the best configuration of each size is in
# bold, and named again in the last row. A configuration with no valid run at a size shows
# the verdict it got (ERROR exit 3, FAIL, ...), never a number.

function ratio_text(r) {
    return r < 0.1 ? sprintf("%.2g×", r) : sprintf("%.2f×", r)
}

# "bk8_128x128_w32x64_t8x8" -> "BK 8, block 128x128, warp 32x64, thread 8x8"
function config_words(c,    p, n) {
    n = split(c, p, "_")
    if (n != 4 || p[1] !~ /^bk[0-9]+$/ || p[3] !~ /^w/ || p[4] !~ /^t/)
        return c
    return "BK " substr(p[1], 3) ", block " p[2] ", warp " substr(p[3], 2) ", thread " substr(p[4], 2)
}

END {
    if (!("config" in has_col) || !("stages" in has_col))
        csv_fail("needs the columns config and stages (the CSV `make tune` writes)")
    nsizes = distinct_sizes(sizes)
    nconf = 0
    for (r = 1; r <= nrows; r++)
        if (row_size(r) && !(cell[r, "config"] in seen_conf)) {
            seen_conf[cell[r, "config"]] = 1
            configs[++nconf] = cell[r, "config"]
        }

    # best[c, j]: the row of config c's best valid run at size j; bad[c, j]: a verdict.
    for (r = 1; r <= nrows; r++) {
        if (!row_size(r))
            continue
        key = cell[r, "config"] SUBSEP row_size(r)
        if (row_is_pass(r)) {
            if (!(key in best) || cell[r, "gflops"] + 0 > cell[best[key], "gflops"] + 0)
                best[key] = r
        } else if (!(key in bad)) {
            bad[key] = cell[r, "verdict"]
        }
    }
    for (j = 1; j <= nsizes; j++) {
        top[j] = 0
        for (c = 1; c <= nconf; c++) {
            key = configs[c] SUBSEP sizes[j]
            if ((key in best) && (!top[j] || cell[best[key], "gflops"] + 0 > cell[top[j], "gflops"] + 0))
                top[j] = best[key]
        }
    }

    line = "| configuration |"
    rule = "|:-----|"
    for (j = 1; j <= nsizes; j++) {
        line = line " " sizes[j] " |"
        rule = rule "-----:|"
    }
    print line
    print rule
    for (c = 1; c <= nconf; c++) {
        line = "| " configs[c] " |"
        for (j = 1; j <= nsizes; j++) {
            key = configs[c] SUBSEP sizes[j]
            if (key in best) {
                r = best[key]
                g = sprintf("%.0f", cell[r, "gflops"])
                line = line " " (r == top[j] ? "**" g "**" : g) " (S=" cell[r, "stages"] ", " ratio_text(cell[r, "ratio"]) ") |"
            } else {
                line = line " " ((key in bad) ? bad[key] : "–") " |"
            }
        }
        print line
    }
    line = "| cuBLAS (median) |"
    for (j = 1; j <= nsizes; j++) {
        v = cublas_median(sizes[j])
        line = line (v > 0 ? sprintf(" %.0f |", v) : " – |")
    }
    print line
    line = "| **best** |"
    for (j = 1; j <= nsizes; j++)
        line = line " " (top[j] ? cell[top[j], "config"] ", S=" cell[top[j], "stages"] : "–") " |"
    print line

    print ""
    printf "Each cell: the configuration's best GFLOPS over S = %s pipeline stages, that S, and its ratio to cuBLAS timed in the same run; bold: the best configuration at that size. ", \
        stage_range()
    printf "A name reads BK, then the block, warp and thread tiles: %s is %s. ", configs[1], config_words(configs[1])
    printf "Measured on %s (CUDA %s) on %s, commit %s: M = N = K, FP32. ", \
        distinct_values("device"), distinct_values("cuda_runtime"), run_dates(), distinct_values("commit")
    if (distinct_values("verdict") ~ /UNCHECKED/)
        printf "These runs skip the result check (`--no-check`): this table is about speed only; correctness is the test suite's job (`make test`). "
    print "Written by `make tune` from " csv_name "."
}

# "1..3", or "1, 2, 4" when the stage counts are not a range.
function stage_range(    list, n, i, s) {
    n = distinct_stages(list)
    if (n == 0)
        return "–"
    if (list[n] - list[1] == n - 1)
        return n == 1 ? list[1] : list[1] ".." list[n]
    s = list[1]
    for (i = 2; i <= n; i++)
        s = s ", " list[i]
    return s
}

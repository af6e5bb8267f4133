# ncu_metrics.awk - reads what `ncu --csv` printed and shows the metrics of one kernel launch.
# scripts/profile.sh runs it:
#
#   awk -v metrics=a,b,c -f scripts/ncu_metrics.awk build/profile_step5_4096.ncu.csv
#       one file: each metric on a line of its own, its value, unit and what it tells
#   awk -v metrics=a,b,c -v mode=table -f scripts/ncu_metrics.awk build/profile_step*_4096.ncu.csv
#       several files: one row per file (per step), one column per metric
#
# Takes the raw page (`--page raw`: a header row of column names, a row of units whose ID
# is empty, then one row per launch) or the details page (one row per metric, with
# "Metric Name", "Metric Unit" and "Metric Value"), quoted or not; skips the lines the
# program and ncu print around it (==PROF==, the step's report). Only the first launch of
# each file counts. Numbers lose their thousands separators (1,234,567 -> 1234567).

BEGIN {
    nmetrics = split(metrics, metric, ",")
    split("kernel time|DRAM bandwidth used, % of peak|bytes through L2|L2 bandwidth used, % of peak|" \
          "shared-memory load bank conflicts|shared-memory store bank conflicts|" \
          "achieved occupancy: warps active, % of the SM's maximum|cycles an instruction issued, % of active cycles|" \
          "FMA pipe busy, % of active cycles|registers per thread|blocks per SM the registers allow", what_list, "|")
    split("gpu__time_duration.sum dram__throughput.avg.pct_of_peak_sustained_elapsed lts__t_bytes.sum " \
          "lts__throughput.avg.pct_of_peak_sustained_elapsed l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum " \
          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum sm__warps_active.avg.pct_of_peak_sustained_active " \
          "smsp__issue_active.avg.pct_of_peak_sustained_active sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active " \
          "launch__registers_per_thread launch__occupancy_limit_registers", known, " ")
    for (i = 1; (i in known); i++)
        what[known[i]] = what_list[i]
    nfiles = 0
}

# Splits one CSV line into f[1..n] (fields may be quoted, with "" for a quote); returns n.
function split_csv(line, f,    n, i, c, field, quoted) {
    n = 0
    field = ""
    quoted = 0
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (quoted) {
            if (c == "\"" && substr(line, i + 1, 1) == "\"") {
                field = field "\""
                i++
            } else if (c == "\"") {
                quoted = 0
            } else {
                field = field c
            }
        } else if (c == "\"") {
            quoted = 1
        } else if (c == ",") {
            f[++n] = field
            field = ""
        } else {
            field = field c
        }
    }
    f[++n] = field
    return n
}

function number(v,    t) {
    t = v
    if (t ~ /^-?[0-9][0-9,]*(\.[0-9]+)?$/)
        gsub(/,/, "", t)
    return t
}

FNR == 1 {
    nfiles++
    file[nfiles] = FILENAME
    state = "header"        # header, then units (raw page), then rows, then done
    long = 0
}

{ sub(/\r$/, "") }

# ncu's own messages.
/^==[A-Z]+==/ { next }

state == "done" { next }

state == "header" {
    ncols = split_csv($0, h)
    if (h[1] != "ID")
        next
    split("", col)
    for (i = 1; i <= ncols; i++)
        col[h[i]] = i
    long = ("Metric Name" in col)
    state = long ? "rows" : "units"
    launch = ""
    next
}

# What the step printed has another number of fields: not a row of the report.
split_csv($0, f) != ncols { next }

{
    if (!long) {
        if (state == "units" && f[1] == "") {
            for (name in col)
                unit[nfiles, name] = f[col[name]]
            state = "rows"
            next
        }
        for (name in col)
            val[nfiles, name] = number(f[col[name]])
        kernel[nfiles] = f[col["Kernel Name"]]
        state = "done"
        next
    }
    # Details page: rows of the first launch (its ID) only.
    if (launch == "")
        launch = f[1]
    if (f[1] != launch) {
        state = "done"
        next
    }
    name = f[col["Metric Name"]]
    val[nfiles, name] = number(f[col["Metric Value"]])
    unit[nfiles, name] = f[col["Metric Unit"]]
    kernel[nfiles] = f[col["Kernel Name"]]
}

# A value made easy to read: nanoseconds as ms, bytes as MB.
function reads(v, u) {
    if (v == "" || v !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/)
        return v == "" ? "–" : v
    if (u == "nsecond" || u == "ns")
        return sprintf("%.3f ms", v / 1e6)
    if (u == "usecond" || u == "us")
        return sprintf("%.3f ms", v / 1e3)
    if (u == "msecond" || u == "ms")
        return sprintf("%.3f ms", v)
    if (u == "byte")
        return sprintf("%.1f MB", v / 1e6)
    if (u == "%")
        return sprintf("%.1f %%", v)
    if (v == int(v))
        return sprintf("%d", v)
    return sprintf("%.2f", v)
}

function short(m) {
    if (m == "gpu__time_duration.sum") return "time"
    if (m ~ /^dram__throughput/) return "DRAM %"
    if (m == "lts__t_bytes.sum") return "L2 bytes"
    if (m ~ /^lts__throughput/) return "L2 %"
    if (m ~ /shared_op_ld/) return "smem ld confl."
    if (m ~ /shared_op_st/) return "smem st confl."
    if (m ~ /^sm__warps_active/) return "occupancy"
    if (m ~ /^smsp__issue_active/) return "issue %"
    if (m ~ /^sm__pipe_fma/) return "FMA pipe %"
    if (m == "launch__registers_per_thread") return "regs"
    if (m == "launch__occupancy_limit_registers") return "blocks (regs)"
    return m
}

# The step a file is about: "step5" from build/profile_step5_4096.ncu.csv.
function step_of(name) {
    if (match(name, /step[0-9]+/))
        return substr(name, RSTART, RLENGTH)
    return name
}

END {
    bad = 0
    for (i = 1; i <= nfiles; i++)
        if (!(i in kernel)) {
            printf "profile: %s: no metrics of a kernel launch in it (did ncu profile one? see the file)\n", file[i] > "/dev/stderr"
            bad = 1
        }
    if (bad || nfiles == 0)
        exit 1

    if (mode != "table") {
        printf "kernel: %s (the first launch)\n\n", kernel[1]
        printf "  %-62s %16s  %s\n", "metric", "value", "what it tells"
        for (m = 1; m <= nmetrics; m++) {
            v = ((1, metric[m]) in val) ? val[1, metric[m]] : ""
            printf "  %-62s %16s  %s\n", metric[m], reads(v, unit[1, metric[m]]), (metric[m] in what ? what[metric[m]] : "")
        }
        exit 0
    }

    line = sprintf("%-6s", "step")
    for (m = 1; m <= nmetrics; m++)
        line = line sprintf("  %14s", short(metric[m]))
    print line
    for (i = 1; i <= nfiles; i++) {
        line = sprintf("%-6s", step_of(file[i]))
        for (m = 1; m <= nmetrics; m++) {
            v = ((i, metric[m]) in val) ? val[i, metric[m]] : ""
            line = line sprintf("  %14s", reads(v, unit[i, metric[m]]))
        }
        print line
    }
    print ""
    for (m = 1; m <= nmetrics; m++)
        printf "  %-14s %s%s\n", short(metric[m]), metric[m], (metric[m] in what ? ": " what[metric[m]] : "")
}

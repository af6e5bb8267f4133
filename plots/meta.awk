# meta.awk - names the run for the chart titles, as gnuplot variables (plots/chart.sh).
#
#   awk -f plots/csv.awk -f plots/meta.awk results.csv
#
# device, dates ("2025-11-21", or a range), cuda (the runtime versions) and commits: each
# the distinct values of the rows, in file order, so a mixed CSV says so in the title.

END {
    print "device = " gp_string(distinct_values("device"))
    print "dates = " gp_string(run_dates())
    print "cuda = " gp_string(distinct_values("cuda_runtime"))
    print "commits = " gp_string(distinct_values("commit"))
}

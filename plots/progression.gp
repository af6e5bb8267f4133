# progression.gp - the course in one picture: each step's GFLOPS at one size, as bars
# labelled with the ratio to cuBLAS measured in the same run, and cuBLAS as a line.
# Rendered by plots/chart.sh (make chart); data from progression.awk.

load plotdir."/style.gp"

set title chart_title(sprintf("SGEMM FP32, M = N = K = %d: each step against cuBLAS", size))
set ylabel "GFLOPS (FP32, higher is better)"
set xrange [-0.6:nsteps - 0.4]
set yrange [0:ymax]
set format y "%.0f"
set xtics scale 0
set bmargin 4
set boxwidth 0.62
set style fill solid 0.85 noborder
set key top left

# Bars: PASS runs only (a failed run's GFLOPS are NaN in the data and draw nothing).
# Over each bar: its GFLOPS and its ratio to cuBLAS; where a bar is missing, the verdict.
plot data using 1:2:4 with boxes lc variable notitle, \
     data using 1:2:(sprintf("%.0f\n%s cuBLAS", $2, ratio_text($3))) with labels center offset 0,1.4 font ",10" notitle, \
     data using 1:(ymax * 0.03):(strcol(5) eq "PASS" ? "" : strcol(5)) with labels center tc rgb fail_color font ",11" notitle, \
     cublas with lines lc rgb cublas_color lw 2 dt 2 title sprintf("cuBLAS: %.0f GFLOPS (median of the runs at %d)", cublas, size)

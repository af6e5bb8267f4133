# sizes.gp - how each step scales: GFLOPS against the size M = N = K, one line per step
# and cuBLAS (the median of its runs at each size), size on a log-2 axis.
# Rendered by plots/chart.sh (make chart); data from sizes.awk.

height = 640    # room for the key under the chart
load plotdir."/style.gp"

set title chart_title("SGEMM FP32: GFLOPS against size, each step and cuBLAS")
set xlabel "M = N = K (matrix size, log scale)"
set ylabel "GFLOPS (FP32, log scale, higher is better)"
set logscale x 2
set logscale y 10
set xrange [xmin / 1.25 : xmax * 1.25]
set yrange [ymin / 1.6 : ymax * 2.5]
set format y "%.0f"
set mytics 10
set grid xtics ytics ls 100, ls 100
set key outside below center horizontal width 1

# Failed runs are NaN in the data: no point, and the line breaks there. Steps that passed
# nowhere have no line; the key's last entry names them.
plot for [i = 1:nsteps] data index (i - 1) using 1:2 with linespoints lt (word(linetypes, i) + 0) title columnheader(1), \
     data index nsteps using 1:2 with linespoints lc rgb cublas_color lw 2.5 dt 2 pt 6 ps 1.2 title columnheader(1), \
     for [i = 1:(note ne "")] keyentry with points pt 2 ps 1.2 lc rgb fail_color title note

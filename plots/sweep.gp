# sweep.gp - the stage experiment: GFLOPS against the pipeline depth S (./step5 --stages S),
# one line per size. The ratios to cuBLAS are in the sweep table (make sweep, make table):
# as labels they piled up where the lines for 2048..8192 run together.
# Rendered by plots/chart.sh (make sweep, make sweep-chart); data from sweep.awk.

height = 620    # room for the key under the chart
load plotdir."/style.gp"

set title chart_title(sprintf("%s: GFLOPS against pipeline stages S", step))
set xlabel "S: shared-memory pipeline stages (--stages S; 1 = no overlap of copies and FMAs)"
set ylabel "GFLOPS (FP32, higher is better)"
set xrange [smin - 0.3 : smax + 0.3]
set yrange [0 : ymax * 1.22]
set format y "%.0f"
set key outside below center horizontal width 1

# Failed runs are NaN in the data: no point, and the line breaks there. A size
# where nothing passed has no line; the key's last entry names it.
plot for [i = 1:nsizes] data index (i - 1) using 1:2 with linespoints lt i title columnheader(1), \
     for [i = 1:(note ne "")] keyentry with points pt 2 ps 1.2 lc rgb fail_color title note

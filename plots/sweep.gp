# sweep.gp - the stage experiment (./step5 --stages S): TFLOPS against the pipeline depth S,
# one line per size, with cuBLAS at that size dashed in the same colour; below, the ratio
# to cuBLAS measured in the same run.
height = 760
load plotdir."/style.gp"

@panels
set lmargin at screen 0.11   # room for the ratios' two decimals and the y label beside them
set title offset screen 0.5 - (0.11 + 0.68) / 2, 0
set title chart_title(sprintf("%s: TFLOPS against pipeline stages S", step))
set xrange [smin - 0.3 : smax + 0.3]
@top_panel
set key title "M = N = K" left
set ylabel "TFLOPS (FP32)"
set yrange [ymin - (ymax - ymin) * 0.08 : ymax + (ymax - ymin) * 0.08]
set format y "%.0f"
plot for [i = 1:nsizes] data index (i - 1) using 1:4 with lines lt i lw 1.5 dt cublas_dash notitle, \
     for [i = 1:nsizes] data index (i - 1) using 1:2 with linespoints lt i title columnheader(1), \
     keyentry with lines lc rgb cublas_color lw 1.5 dt cublas_dash title "cuBLAS at that size", \
     for [i = 1:(note ne "")] keyentry with points pt 2 ps 1.2 * pts lc rgb fail_color title note
@ratio_panel
set xlabel "S: shared-memory pipeline stages (--stages S; 1 = no overlap of copies and FMAs)"
set yrange [rmin - (rmax - rmin) * 0.1 : rmax + (rmax - rmin) * 0.1]
set format y "%.2f×"
plot 1 with lines lc rgb cublas_color lw 3 dt cublas_dash, \
     for [i = 1:nsizes] data index (i - 1) using 1:3 with linespoints lt i

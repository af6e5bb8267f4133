# sizes.gp - how each step scales: TFLOPS against M = N = K (log axes) above, and below the
# ratio to cuBLAS measured in the same run, where a gap of 0.93 against 1.0 reads as one.
height = 760
load plotdir."/style.gp"

@panels
set title chart_title("SGEMM FP32 against size: each step and cuBLAS")
set logscale x 2
set xrange [xmin / 1.25 : xmax * 1.25]
@top_panel
set ylabel "TFLOPS (log scale)"
set logscale y 10
set yrange [ymin / 1.6 : ymax * 1.6]
set format y "%g"
set ytics (0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200)
# cuBLAS first, so that a step as fast draws on top of it. Failed runs are NaN: a gap.
plot data index nsteps using 1:2 with lines lc rgb cublas_color lw 3 dt cublas_dash title columnheader(1), \
     for [i = 1:nsteps] data index (i - 1) using 1:2 with linespoints lt (word(linetypes, i) + 0) title columnheader(1), \
     for [i = 1:(note ne "")] keyentry with points pt 2 ps 1.2 * pts lc rgb fail_color title note
@ratio_panel
set xlabel "M = N = K (log scale)"
set yrange [0 : rmax * 1.08]
set ytics 0.1
plot 1 with lines lc rgb cublas_color lw 3 dt cublas_dash, \
     for [i = 1:nsteps] data index (i - 1) using 1:3 with linespoints lt (word(linetypes, i) + 0)
unset multiplot

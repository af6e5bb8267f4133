# shapes.gp - the ratio to cuBLAS at every square size of make shapes, with the sizes where
# the 128x128 tiles of C fill a whole number of waves of the GPU's SMs marked: just past
# such a size, a second (third, ...) wave starts with a few tiles and most SMs idle.
height = 640   # the key under the chart
load plotdir."/style.gp"

set title chart_title("SGEMM FP32 at every square size (step 128): ratio to cuBLAS")
# (The other families of the same run: shapes_nonsquare.gp, and the random shapes: shapes_random.gp.)
set xlabel "M = N = K"
set ylabel "ratio to cuBLAS (same run)"
set format y "%.1f×"
set xrange [0 : xmax * 1.02]
set yrange [(rmin < 0.3 ? 0 : floor(rmin * 10 - 0.5) / 10.0) : rmax * 1.08]   # a point never on the x axis
set xtics 1024
set grid xtics ytics ls 100, ls 100
# The key under the chart, clear of every line; cuBLAS's 1× named there, not on its line.
set bmargin 6.5
set key at screen 0.5, screen 0.012 center bottom horizontal maxcols 2 width -4
# The wave boundaries (charts.py: x = 128 * sqrt(w * SMs) for w = 1, 2, ...), as dashed lines.
do for [i = 1:words(waves)] {
    x = word(waves, i) + 0
    set arrow from x, graph 0 to x, graph 1 nohead lc rgb "#999999" dt 3 lw 1
}
plot 1 with lines lc rgb cublas_color lw 3 dt cublas_dash title "cuBLAS = 1× (timed in the same run)", \
     for [i = 1:nsteps] data index (i - 1) using 1:3 with linespoints lt (word(linetypes, i) + 0) ps 0.7 * pts title columnheader(1), \
     keyentry with lines lc rgb "#999999" dt 3 lw 1 title wave_note, \
     for [i = 1:(note ne "")] keyentry with points pt 2 ps 1.2 * pts lc rgb fail_color title note
